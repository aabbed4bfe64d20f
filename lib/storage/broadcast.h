/* Named-axes broadcasting and the output parameters of storage operations (broadcast.c),
 * used by the operations (ops.c).  Never installed. */
#ifndef USMARR_STORAGE_BROADCAST_H
#define USMARR_STORAGE_BROADCAST_H

#include "storage_internal.h"

/* The axes of an operation's result and their extents. */
struct usmarr__named_shape {
    int ndim;
    char axes[USMARR_STORAGE_MAX_NDIM + 1];
    int64_t shape[USMARR_STORAGE_MAX_NDIM];
};

/* The letters of one operand's dims ("" for scalars and 0-d arrays). */
typedef char usmarr__letters_t[USMARR_STORAGE_MAX_NDIM + 1];

/* Seed 003's broadcasting for the `n` operands of operation `what`: the result's axes and
 * extents (from the storages by their letters, or `out`'s when given), and the letters
 * each operand's dims stand for (a plain array gets those of the result, of a storage of
 * its shape, or "IJK"-like ones when it is 3-D with extent-1 dims).  Conflicting extents
 * on one letter and arrays of no allowed shape are USMARR_ERROR_SHAPE_MISMATCH. */
USMARR_INTERNAL int usmarr__storage_broadcast(const char *what, const usmarr_storage_operand_t *operands, int n,
                                              const usmarr_storage_t *out, struct usmarr__named_shape *res,
                                              usmarr__letters_t *letters);

/* A view of `a`, whose dims stand for `letters`, on the axes of `res`: its extent-1 dims
 * of letters `res` lacks squeezed, the others permuted into `res`'s order, extent-1 dims
 * inserted for the letters it lacks (so the dispatcher broadcasts them).  `a` itself,
 * retained, when nothing changes. */
USMARR_INTERNAL int usmarr__storage_view_on(const usmarr_array_t *a, const char *letters,
                                            const struct usmarr__named_shape *res, usmarr_array_t **view);

/* Seed 003's output parameters of a result of `res` and `dtype` over the storage
 * operands: aligned index the per-axis maximum, alignment the least common multiple, halo
 * such that the domain is the intersection of the domains, layout, kind and context of
 * the first storage. */
USMARR_INTERNAL int usmarr__storage_output_params(const usmarr_storage_operand_t *operands, int n,
                                                  const struct usmarr__named_shape *res, usmarr_dtype_t dtype,
                                                  struct usmarr__storage_params *p);

/* `alignment` (bytes) made valid for `dtype`: kept when it and the itemsize divide one
 * another, else their least common multiple. */
USMARR_INTERNAL int64_t usmarr__storage_fit_alignment(int64_t alignment, usmarr_dtype_t dtype);

#endif
