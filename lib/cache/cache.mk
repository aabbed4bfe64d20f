# The public cache API (directories, modes, statistics), prewarm and the kernel-shape
# tuner: above the operations, which prewarm and the tuner run.
lib_libusmarr_la_SOURCES += \
	lib/cache/cache_internal.h \
	lib/cache/cache.c \
	lib/cache/tune.c \
	lib/cache/prewarm.c
