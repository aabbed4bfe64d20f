# Devices, contexts, dtypes and promotion, memory blocks, arrays and their creation.
lib_libusmarr_la_SOURCES += \
	lib/core/core_internal.h \
	lib/core/device.c \
	lib/core/context.c \
	lib/core/queue.c \
	lib/core/dtype.c \
	lib/core/dtype_info.c \
	lib/core/promote.c \
	lib/core/memory.c \
	lib/core/pod.c \
	lib/core/array.c \
	lib/core/create.c
