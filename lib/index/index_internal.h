/* Private helpers of the view layer and the rearranging operations above it.  Calls go
 * one way: view.c (views, shapes) <- result.c (the result convention) <- take.c
 * (indexed copies) <- manip.c (rearranging copies).  Never installed. */
#ifndef USMARR_INDEX_INTERNAL_H
#define USMARR_INDEX_INTERNAL_H

#include "../engine/engine_internal.h"

/* Checks index items (kinds, zero steps, one ellipsis) and counts them: the axes they
 * consume, the position of the ellipsis and of the first new axis (-1: none). */
USMARR_INTERNAL int usmarr__index_scan(const usmarr_index_item_t *items, size_t count, int *consumed, long *ellipsis,
                                       long *newaxis);

/* A view over `base`'s block with the given layout, inheriting base's access flags
 * (minus USMARR_FLAG_WRITABLE when `read_only`). */
USMARR_INTERNAL int usmarr__view_new(const usmarr_array_t *base, usmarr_dtype_t dtype, int ndim, const int64_t *shape,
                                     const int64_t *strides, int64_t offset, bool read_only, usmarr_array_t **out);

/* repeat with one count per element: a take() with host-built indices (take.c). */
USMARR_INTERNAL int usmarr__repeat_by_take(const usmarr_array_t *a, const int64_t *repeats, int axis, int64_t total,
                                           usmarr_array_t *out, usmarr_array_t **result);

/* Raise-mode cells and index maps of take.c, for getitem.c (and put_along_axis).
 * Cells: a 16-byte host-USM pair (flag, bad value in the index dtype), zeroed; the
 * operands give them to a map as two stride-0 outputs; the verdict waits for the queue
 * and fails "index V is out of bounds for axis AXIS with size N (WHAT)" when the flag is
 * set.  usmarr__index_check runs OP_CHECK over `ind` alone and gives the verdict.
 * usmarr__index_map launches OP_<op> (GATHER or SCATTER) with ops[0] written, ops[1] the
 * indices, ops[2] read, scalars n and stride, and with `cells` the fused check. */
struct usmarr__operand;
/* The argument checks of a write into `a` through a selection `where` (indices, a mask):
 * non-NULL, one context, `a` writable. */
USMARR_INTERNAL int usmarr__check_write(const usmarr_array_t *a, const usmarr_array_t *where, const char *where_name,
                                        const usmarr_array_t *values);
USMARR_INTERNAL int usmarr__index_cells_new(usmarr_context_t *ctx, usmarr_memory_t **cells);
USMARR_INTERNAL void usmarr__index_cells_operands(usmarr_memory_t *cells, const usmarr_array_t *ind,
                                                  struct usmarr__operand *flag, struct usmarr__operand *value);
USMARR_INTERNAL int usmarr__index_cells_verdict(usmarr_memory_t *cells, const usmarr_array_t *ind, int64_t n,
                                                int axis, const char *what);
USMARR_INTERNAL int usmarr__index_check(const usmarr_array_t *ind, int64_t n, int axis, const char *what);
USMARR_INTERNAL int usmarr__index_map(usmarr_context_t *ctx, const char *op, usmarr_index_mode_t mode,
                                      const usmarr_array_t *ind, int nd, const int64_t *shape,
                                      struct usmarr__operand *ops, int64_t n, int64_t stride, usmarr_memory_t *cells);

/* getitem.c's rows kernel, for take() too: target row e (contiguous, `len` elements of
 * target's dtype, which is src's) = the `len` contiguous source elements from
 * src[norm(ind[e * istride]) * stride], e < m; `mode` normalises (raise: checked before,
 * or with `cells` in the same pass). */
USMARR_INTERNAL int usmarr__take_rows(const usmarr_array_t *src, const usmarr_array_t *ind, int64_t istride, int64_t m,
                                      usmarr_array_t *target, int64_t len, int64_t n, int64_t stride,
                                      usmarr_index_mode_t mode, usmarr_memory_t *cells);

/* ---- the plan of an advanced index (plan.c), executed by getitem.c ------------------ */

/* One integer index array of a plan. */
struct usmarr__plan_array {
    usmarr_array_t *ind; /* retained: the caller's array, or a row made from a boolean */
    int vaxis;           /* the axis of the view it indexes */
    int aaxis;           /* the indexed array's axis (for messages) */
    size_t item;         /* its item in the index */
    int64_t ref;         /* @ref */
    bool checked;        /* caller's values: checked in raise mode (rows of booleans are in range) */
    int64_t n, stride;   /* extent and stride of the view's axis */
    int64_t bstrides[USMARR_MAX_NDIM]; /* over B (broadcast, zero where stretched) */
    char what[64];       /* "index array @1 at items[2]" */
};

struct usmarr__plan {
    usmarr_array_t *view;
    int nadv;
    struct usmarr__plan_array adv[USMARR_MAX_NDIM];
    int bnd, rnd, bpos; /* B's rank, the result's rank, where B starts in the result */
    int64_t bshape[USMARR_MAX_NDIM], rshape[USMARR_MAX_NDIM];
    int64_t vstrides[USMARR_MAX_NDIM]; /* V's strides over the result's dims (0 on B) */
};

/* Checks the items and the arrays they name and builds the plan (*out, to free with
 * usmarr__plan_free); on failure *out is NULL and the error names the item. */
USMARR_INTERNAL int usmarr__plan_build(const usmarr_array_t *a, const usmarr_index_item_t *items, size_t count,
                                       const usmarr_array_t *const *arrays, size_t narrays,
                                       struct usmarr__plan **out);
USMARR_INTERNAL void usmarr__plan_free(struct usmarr__plan *p);
/* An index operand's strides over the result: `bstrides` (over B) at B's place, 0 elsewhere. */
USMARR_INTERNAL void usmarr__plan_result_strides(const struct usmarr__plan *p, const int64_t *bstrides,
                                                 int64_t *strides);

#endif
