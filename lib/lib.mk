# libusmarr.la, one layer folder after another, from the bottom up (doc/architecture.md).
lib_LTLIBRARIES += lib/libusmarr.la
lib_libusmarr_la_CFLAGS = $(AM_CFLAGS) -fvisibility=hidden
lib_libusmarr_la_LDFLAGS = $(AM_LDFLAGS) -version-info $(USMARR_LT_VERSION) -no-undefined
lib_libusmarr_la_SOURCES =
include lib/backend/backend.mk
include lib/core/core.mk
include lib/engine/engine.mk
include lib/ops/ops.mk
include lib/index/index.mk
include lib/interop/interop.mk
include lib/storage/storage.mk
