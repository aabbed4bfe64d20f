# Views, index parsing and plans, getitem and setitem, take and put, masks, rearranging.
lib_libusmarr_la_SOURCES += \
	lib/index/index_internal.h \
	lib/index/view.c \
	lib/index/parse.c \
	lib/index/plan.c \
	lib/index/getitem.c \
	lib/index/take.c \
	lib/index/mask.c \
	lib/index/manip.c \
	lib/index/meshgrid.c \
	lib/index/triangle.c
