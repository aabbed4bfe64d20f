/* Private declarations of the operations modules (promote.c, elementwise.c, reduce.c). */
#ifndef USMARR_OPS_INTERNAL_H
#define USMARR_OPS_INTERNAL_H

#include "../index/index_internal.h"

/* ---- elementwise.c, reduce.c ------------------------------------------------------ */
/* The dtype usmarr_elementwise(name, operands, noperands, NULL, ...) would give its
 * result, without launching anything (name, arity and scalars are checked).  For callers
 * that allocate the result themselves (the storage layer's aligned results). */
USMARR_INTERNAL int usmarr__elementwise_result_dtype(const char *name, const usmarr_operand_t *operands,
                                                     size_t noperands, usmarr_dtype_t *result);
/* The dtype usmarr_reduce(name, x of `dtype`, ...) gives; an unknown name fails. */
USMARR_INTERNAL int usmarr__reduce_result_dtype(const char *name, usmarr_dtype_t dtype, usmarr_dtype_t *result);

/* The operands of a product `fn` (matmul, vecdot, tensordot): x1 and x2 given, an out or
 * a result pointer, one context, at least `min_ndim` dims each. */
USMARR_INTERNAL int usmarr__check_product(const char *fn, const usmarr_array_t *x1, const usmarr_array_t *x2,
                                          const usmarr_array_t *out, usmarr_array_t **result, int min_ndim);

/* x copied in C order with its axes ordered (kept..., reduced...) (`reduced`: a mask over
 * x's axes), then an (nkept, nred) matrix; perm (NULL: not wanted) receives the order. */
USMARR_INTERNAL int usmarr__copy_reduced_last(const usmarr_array_t *x, const bool *reduced, int *perm,
                                              usmarr_array_t **copy);
/* `out` for the result (dtype `res`, shape (ndim, shape)) of `name` on x: x's context,
 * writable, that shape, and a dtype `res` casts to under `casting` (USMARR_CASTING_NO:
 * `res` itself, else USMARR_ERROR_BAD_DTYPE; others: USMARR_ERROR_CASTING). */
USMARR_INTERNAL int usmarr__check_out(const usmarr_array_t *x, const usmarr_array_t *out, usmarr_dtype_t res, int ndim,
                                      const int64_t *shape, usmarr_casting_t casting, const char *name);

/* ---- keys sorted on the device (sort.c), for the set functions (set.c) ------------ */

/* R rows of n keys, sorted in place by usmarr__sort_flat() (or sort.c's own path). */
struct usmarr__sorted {
    usmarr_context_t *ctx;
    char defines[96];     /* -DW -DKIND -DARG [-DDESC] [-DCANON] */
    int64_t rows, n;
    int key_bytes;        /* 4, 8, or 16 (complex128: a ulong2) */
    int bits;             /* the element's width: cl/sort.cl's W */
    void *key, *tkey, *idx, *tidx; /* keys and scratch; int64 indices with ARG */
    usmarr_memory_t *blocks[5]; /* key, tkey, idx, tidx, the radix passes' counts */
};

/* cl/sort.cl's KIND for a dtype (-1 for an invalid one). */
USMARR_INTERNAL int usmarr__sort_key_kind(usmarr_dtype_t d);
/* The size of one key of that dtype in the scratch blocks: 4, 8 or 16. */
USMARR_INTERNAL int usmarr__sort_key_bytes(usmarr_dtype_t d);
/* Every element of `x` (C order, any layout) as one row of canonical keys (-0.0 == 0.0),
 * sorted ascending and stably, with the flat C-order indices when `arg`.  On success the
 * caller releases `sorted` with usmarr__sorted_release(); a zero-size x gives n == 0 and
 * no blocks.  x's dtype must have a key; `what` names x in the error of an x longer than a
 * row may be (the radix passes count in 32 bits). */
USMARR_INTERNAL int usmarr__sort_flat(const usmarr_array_t *x, bool arg, const char *what, struct usmarr__sorted *sorted);
USMARR_INTERNAL void usmarr__sorted_release(struct usmarr__sorted *sorted);

#endif
