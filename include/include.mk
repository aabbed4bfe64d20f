# Public headers: users include usmarr.h, which includes the rest.
include_HEADERS = include/usmarr.h
usmarrincludedir = $(includedir)/usmarr
nodist_usmarrinclude_HEADERS = include/usmarr/version.h
usmarrinclude_HEADERS = \
	include/usmarr/array.h \
	include/usmarr/cache.h \
	include/usmarr/copy.h \
	include/usmarr/dlpack.h \
	include/usmarr/dtype.h \
	include/usmarr/expr.h \
	include/usmarr/fft.h \
	include/usmarr/interop.h \
	include/usmarr/linalg.h \
	include/usmarr/ops.h \
	include/usmarr/pod.h \
	include/usmarr/queue.h \
	include/usmarr/reduce.h \
	include/usmarr/sort.h \
	include/usmarr/stats.h \
	include/usmarr/storage.h \
	include/usmarr/view.h
pkgconfig_DATA += usmarr.pc
