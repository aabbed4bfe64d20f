# The kernel engine: programs and their caches (memory and disk), the map launcher,
# iteration-space simplification, kernel shapes and their tuner, copies and copy plans,
# results, prewarm.
lib_libusmarr_la_SOURCES += \
	lib/engine/engine_internal.h \
	lib/engine/program.c \
	lib/engine/launch.c \
	lib/engine/diskcache.c \
	lib/engine/diskcache_entry.c \
	lib/engine/cache.c \
	lib/engine/simplify.c \
	lib/engine/map.c \
	lib/engine/shape.c \
	lib/engine/tune.c \
	lib/engine/result.c \
	lib/engine/copy.c \
	lib/engine/copy_plan.c \
	lib/engine/prewarm.c
# The system cache of kernel binaries, read after the user's cache (doc/cache.md); `make
# install` fills it (tools/tools.mk).
kernelcachedir = $(pkglibdir)/kernels
AM_CPPFLAGS += -DUSMARR_SYSTEM_CACHE_DIR='"$(kernelcachedir)"'
