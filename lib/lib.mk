# libusmarr.la, one layer folder after another, from the bottom up (doc/architecture.md).
lib_LTLIBRARIES += lib/libusmarr.la
lib_libusmarr_la_CFLAGS = $(AM_CFLAGS) -fvisibility=hidden
lib_libusmarr_la_LDFLAGS = $(AM_LDFLAGS) -version-info $(USMARR_LT_VERSION) -no-undefined
lib_libusmarr_la_SOURCES =
include lib/base/base.mk
include lib/backend/backend.mk
include lib/core/core.mk
include lib/engine/engine.mk
include lib/interop/interop.mk
include lib/index/index.mk
include lib/ops/ops.mk
include lib/linalg/linalg.mk
include lib/fft/fft.mk
include lib/cache/cache.mk
include lib/storage/storage.mk
# The library's C sources (the generated one included) and every header they may include,
# for the builds of them that are not the library's: ThreadSanitizer's (tests/tests.mk)
# and the fuzz targets' (fuzz/fuzz.mk).
LIB_C_FILES = $(filter %.c,$(lib_libusmarr_la_SOURCES)) lib/engine/cl_sources.c
LIB_H_FILES = $(filter %.h,$(lib_libusmarr_la_SOURCES)) $(include_HEADERS) $(usmarrinclude_HEADERS) config.h
