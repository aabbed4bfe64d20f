# Operations: elementwise functions, fused expressions, reductions and scans, sorting and
# set functions, statistics.
lib_libusmarr_la_SOURCES += \
	lib/ops/ops_internal.h \
	lib/ops/elementwise.c \
	lib/ops/elementwise_named.c \
	lib/ops/operands.c \
	lib/ops/expr.c \
	lib/ops/expr_parse.c \
	lib/ops/expr_fold.c \
	lib/ops/expr_build.c \
	lib/ops/expr_eval.c \
	lib/ops/reduce.c \
	lib/ops/cumulative.c \
	lib/ops/scan.c \
	lib/ops/sort.c \
	lib/ops/radix.c \
	lib/ops/set.c \
	lib/ops/moments.c \
	lib/ops/diff.c
