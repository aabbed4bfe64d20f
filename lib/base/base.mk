# The lowest layer: errors, below the backends that report them.
lib_libusmarr_la_SOURCES += \
	lib/base/base_internal.h \
	lib/base/error.c
