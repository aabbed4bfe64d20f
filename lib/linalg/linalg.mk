# The linear-algebra extension: factorisations and decompositions over stacks of matrices
# (doc/linalg.md), on the kernels of cl/linalg_eig.cl and the operations of lib/ops.
lib_libusmarr_la_SOURCES += \
	lib/linalg/linalg_internal.h \
	lib/linalg/decomp.c \
	lib/linalg/eigh.c \
	lib/linalg/svd.c
