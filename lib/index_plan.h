/* The plan of an advanced index (index_plan.c), executed by getitem.c.  Never installed.
 *
 * A plan turns an index with index-array items into a basic view V of the array in which
 * every axis an index array addresses is kept whole, the integer index arrays that address
 * those axes (booleans already turned into their nonzero() rows), their broadcast shape B,
 * and the result's shape with every operand's strides over it (NumPy's placement of B). */
#ifndef USMARR_INDEX_PLAN_H
#define USMARR_INDEX_PLAN_H

#include "view_internal.h"

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
