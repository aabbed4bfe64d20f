# The backends that fill the table of USM entry points (the extension's, or OpenCL SVM's),
# and the pool of released blocks.
lib_libusmarr_la_SOURCES += \
	lib/backend/backend_internal.h \
	lib/backend/usm.c \
	lib/backend/svm.c \
	lib/backend/pool.c \
	lib/backend/order.c
