/* Private helpers shared by view.c, manip.c and advanced.c.  Never installed. */
#ifndef USMARR_VIEW_INTERNAL_H
#define USMARR_VIEW_INTERNAL_H

#include "internal.h"

/* NumPy's repr of a shape into buf: "()", "(5,)", "(2, 3)"; truncated with "..." when long. */
USMARR_INTERNAL const char *usmarr__format_shape(int ndim, const int64_t *shape, char *buf, size_t size);
#define USMARR__SHAPE_BUF 160

/* Normalises `axis` in [-ndim, ndim) to [0, ndim); USMARR_ERROR_INVALID_ARGUMENT naming
 * `argname` and the dimension otherwise. */
USMARR_INTERNAL int usmarr__normalize_axis(int axis, int ndim, const char *argname, int *out);

/* A view over `base`'s block with the given layout, inheriting base's access flags
 * (minus USMARR_FLAG_WRITABLE when `read_only`). */
USMARR_INTERNAL int usmarr__view_new(const usmarr_array_t *base, usmarr_dtype_t dtype, int ndim, const int64_t *shape,
                                     const int64_t *strides, int64_t offset, bool read_only, usmarr_array_t **out);

/* Element count of a shape, overflow-checked. */
USMARR_INTERNAL int usmarr__shape_size(int ndim, const int64_t *shape, int64_t *size);

/* A new contiguous copy of `a` in `order` (C or F) on a block of a's USM kind (manip.c,
 * through the engine's copy). */
USMARR_INTERNAL int usmarr__copy_in_order(const usmarr_array_t *a, usmarr_order_t order, usmarr_array_t **out);

#endif
