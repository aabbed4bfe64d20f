# The lowest layer: errors, below the backends that report them.
# Boilerplate: the folder's sources one a line, listed as every fragment of lib/ lists them.
lib_libusmarr_la_SOURCES += \
	lib/base/base_internal.h \
	lib/base/error.c
