# The array interface and its JSON form, DLPack, text forms of arrays.
lib_libusmarr_la_SOURCES += \
	lib/interop/interop_internal.h \
	lib/interop/interface.c \
	lib/interop/json.c \
	lib/interop/dlpack.c \
	lib/interop/debug.c
