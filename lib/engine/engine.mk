# The kernel engine: programs and their caches (memory and disk), the map launcher,
# iteration-space simplification, kernel shapes, copies and copy plans, results, and the
# ramps of arange and linspace.
lib_libusmarr_la_SOURCES += \
	lib/engine/engine_internal.h \
	lib/engine/program_cache.h \
	lib/engine/diskcache.h \
	lib/engine/program.c \
	lib/engine/launch.c \
	lib/engine/diskcache.c \
	lib/engine/diskcache_entry.c \
	lib/engine/simplify.c \
	lib/engine/map.c \
	lib/engine/kernel_shape.c \
	lib/engine/result.c \
	lib/engine/copy.c \
	lib/engine/copy_plan.c \
	lib/engine/sequence.c
# The system cache of kernel binaries, read after the user's cache (doc/cache.md); `make
# install` fills it (tools/tools.mk).
kernelcachedir = $(pkglibdir)/kernels
AM_CPPFLAGS += -DUSMARR_SYSTEM_CACHE_DIR='"$(kernelcachedir)"'
