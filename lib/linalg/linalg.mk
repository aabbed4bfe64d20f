# Linear algebra (doc/linalg.md): matrix products, and the array API's linear algebra
# extension on stacks of matrices: LU and Cholesky, norms and the small functions; QR,
# eigh and SVD and what builds on them (cl/linalg_eig.cl).
lib_libusmarr_la_SOURCES += \
	lib/linalg/linalg_internal.h \
	lib/linalg/matmul.c \
	lib/linalg/products.c \
	lib/linalg/stack.c \
	lib/linalg/lu.c \
	lib/linalg/cholesky.c \
	lib/linalg/blocked.c \
	lib/linalg/diagonal.c \
	lib/linalg/norms.c \
	lib/linalg/decomp.c \
	lib/linalg/qr_blocked.c \
	lib/linalg/eigh.c \
	lib/linalg/eigh_blocked.c \
	lib/linalg/svd.c lib/linalg/svd_blocked.c
