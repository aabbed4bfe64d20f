# Storages: arrays with named axes, halos, aligned allocation and host/device pairs.
lib_libusmarr_la_SOURCES += \
	lib/storage/storage_internal.h \
	lib/storage/param_text.c \
	lib/storage/preset.c \
	lib/storage/params.c \
	lib/storage/alloc.c \
	lib/storage/descriptor.c \
	lib/storage/storage.c \
	lib/storage/sync.c \
	lib/storage/wrap.c \
	lib/storage/storage_view.c \
	lib/storage/export.c \
	lib/storage/broadcast.c \
	lib/storage/storage_ops.c
