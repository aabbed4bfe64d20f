/* The linear-algebra extension's declarations for lib/linalg/ (doc/linalg.md).  Never
 * installed. */
#ifndef USMARR_LINALG_INTERNAL_H
#define USMARR_LINALG_INTERNAL_H

#include "../ops/ops_internal.h"

/* ---- decompositions: QR, eigh, SVD (decomp.c, eigh.c, svd.c; cl/linalg_eig.cl) ------- */

/* A stack of matrices copied for a kernel of cl/linalg_eig.cl: `copy` is x in `dtype`, C
 * order; `count` matrices of m x n, batch dims batch[0, nbatch). */
struct usmarr__decomp_input {
    usmarr_context_t *ctx;
    usmarr_dtype_t dtype; /* float32, float64, complex64 or complex128 */
    usmarr_dtype_t real;  /* float32 or float64 */
    usmarr_array_t *copy; /* one reference; NULL when the stack is empty */
    int nbatch;
    int64_t batch[USMARR_MAX_NDIM];
    int64_t count, m, n;
};

/* Checks x for the decomposition `fn` (given, at least 2-D, square when `square`, a dtype
 * that promotes to a floating one: float16 refused as NumPy does, bool and integers
 * become float64) and fills `in` (copy made only when there is work). */
USMARR_INTERNAL int usmarr__decomp_prepare(const char *fn, const usmarr_array_t *x, bool square,
                                           struct usmarr__decomp_input *in);
USMARR_INTERNAL void usmarr__decomp_input_release(struct usmarr__decomp_input *in);
/* A new C-ordered device array of `dtype`: in's batch dims then dims[0, ndim). */
USMARR_INTERNAL int usmarr__decomp_array(const struct usmarr__decomp_input *in, usmarr_dtype_t dtype, int ndim,
                                         const int64_t *dims, usmarr_array_t **out);
/* Launches `kernel` of cl/linalg_eig.cl for in's dtype, one work-item per matrix. */
USMARR_INTERNAL int usmarr__decomp_launch(const struct usmarr__decomp_input *in, const char *kernel, int nargs,
                                          const struct usmarr__karg *args);
/* The Jacobi sweep limit: 30, or USMARR_LINALG_SWEEPS (tests of the limit). */
USMARR_INTERNAL int usmarr__decomp_sweeps(void);
/* The status word (int32, INT32_MAX) that kernels atomic_min() a failing matrix's index
 * into; _status reads it: USMARR_ERROR_LINALG naming the first failing matrix, or 0. */
USMARR_INTERNAL int usmarr__decomp_status_new(const struct usmarr__decomp_input *in, usmarr_array_t **status);
USMARR_INTERNAL int usmarr__decomp_status(const char *fn, const struct usmarr__decomp_input *in,
                                          const usmarr_array_t *status);
/* The singular values of x (`fn` names the caller in messages) into a new array. */
USMARR_INTERNAL int usmarr__singular_values(const char *fn, const usmarr_array_t *x, usmarr_array_t **s);

/* The matrix norms of singular values (matrix_norm's ord 2, -2 and 'nuc') of the stack x,
 * (batch...) or with keepdims (batch..., 1, 1), by the result convention. */
enum usmarr__norm_singular { USMARR__NORM_2, USMARR__NORM_MINUS_2, USMARR__NORM_NUCLEAR };
USMARR_INTERNAL int usmarr__matrix_norm_singular(const usmarr_array_t *x, enum usmarr__norm_singular ord,
                                                 bool keepdims, usmarr_array_t *out, usmarr_array_t **result);

#endif
