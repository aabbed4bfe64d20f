/* The linear-algebra extension's declarations for the files of lib/linalg/ and the folders
 * above it (doc/linalg.md).  Section 1 is the machinery every function shares (stack.c);
 * section 2 the matrix products; each later section belongs to one family of functions and its files, so that a family is
 * added as a section of its own.  Never installed. */
#ifndef USMARR_LINALG_INTERNAL_H
#define USMARR_LINALG_INTERNAL_H

#include "../ops/ops_internal.h"

/* ---- 1. stacks of matrices (stack.c) ------------------------------------------------
 * A linalg call checks its operands (usmarr__linalg_check), copies each into a work stack
 * of its compute dtype (usmarr__linalg_stack_new: C-ordered, one matrix after another,
 * whatever the input's layout), runs kernels on the stacks through usmarr__linalg_launch
 * (one work-item per matrix, or per item the caller counts), learns from a status word
 * whether a matrix failed (usmarr__linalg_status_*), and writes its result through the
 * library's convention (usmarr__linalg_result_*). */

/* c -= a @ b, where c is a view (written in place): one pass of the tiled product over c
 * where its rows are contiguous and the product is large (matmul.c), else matmul and a
 * subtraction. */
USMARR_INTERNAL int usmarr__subtract_product(usmarr_array_t *c, const usmarr_array_t *a, const usmarr_array_t *b);

/* The dtype a linalg function computes and returns for input dtype `dtype`: float32,
 * float64, complex64 and complex128 stay; float16 becomes float32; bool and the integers
 * become the default floating dtype (float64, or float32 on a device without fp64). */
USMARR_INTERNAL usmarr_dtype_t usmarr__linalg_dtype(const usmarr_context_t *ctx, usmarr_dtype_t dtype);

/* The checks of a matrix operand: `x` not NULL (USMARR_ERROR_INVALID_ARGUMENT), at least
 * `min_ndim` dims, and square in its last two when `square` (USMARR_ERROR_SHAPE_MISMATCH);
 * *dtype is its compute dtype, refused with USMARR_ERROR_UNSUPPORTED where the device lacks
 * fp64.  `fn` and `name` name the function and the argument in the detail. */
USMARR_INTERNAL int usmarr__linalg_check(const char *fn, const usmarr_array_t *x, const char *name, int min_ndim,
                                         bool square, usmarr_dtype_t *dtype);

/* NumPy's broadcast of batch shapes a[na] and b[nb] into shape[*nd];
 * USMARR_ERROR_SHAPE_MISMATCH naming the dim when they do not broadcast. */
USMARR_INTERNAL int usmarr__linalg_batch_broadcast(const char *fn, int na, const int64_t *a, int nb, const int64_t *b,
                                                   int *nd, int64_t *shape);

/* A stack of matrices: `work` is a new C-ordered (batch..., rows, cols) array of the
 * compute dtype that the kernels may overwrite. */
struct usmarr__linalg_stack {
    usmarr_array_t *work; /* one reference */
    int nbatch_dims;
    int64_t batch_shape[USMARR_MAX_NDIM];
    int64_t count; /* matrices: the product of batch_shape */
    int64_t rows, cols;
    int64_t ld; /* elements from one row of a matrix to the next: cols, or more (padded) */
};

/* The matrices of `x` (its last two dims), broadcast to batch shape bshape[nb] (NULL: x's
 * own batch dims), copied into a new stack of `dtype`.  Any layout of x: strided, offset,
 * negative strides, F order, broadcast. */
USMARR_INTERNAL int usmarr__linalg_stack_new(const usmarr_array_t *x, usmarr_dtype_t dtype, int nb,
                                             const int64_t *bshape, struct usmarr__linalg_stack *stack);
/* The same for kernels that only read the stack: x itself (retained; never written) when
 * it is one already (C-ordered, of `dtype`, of batch shape bshape), else a copy. */
USMARR_INTERNAL int usmarr__linalg_stack_read(const usmarr_array_t *x, usmarr_dtype_t dtype, int nb,
                                              const int64_t *bshape, struct usmarr__linalg_stack *stack);
/* usmarr__linalg_stack_new for the blocked factorisations: the matrices' rows `ld`
 * elements apart, ld a whole number of cache lines and not a multiple of 1 KiB, so that a
 * column's elements do not all fall in the same few cache sets (at order 2048, float64,
 * unpadded rows are 16 KiB apart).  `work` is a view of the padded stack. */
USMARR_INTERNAL int usmarr__linalg_stack_padded(const usmarr_array_t *x, usmarr_dtype_t dtype, int nb,
                                                const int64_t *bshape, struct usmarr__linalg_stack *stack);
/* A new uninitialised stack of `count` = prod(bshape) matrices rows x cols. */
USMARR_INTERNAL int usmarr__linalg_stack_empty(usmarr_context_t *ctx, usmarr_dtype_t dtype, int nb,
                                               const int64_t *bshape, int64_t rows, int64_t cols,
                                               struct usmarr__linalg_stack *stack);
USMARR_INTERNAL void usmarr__linalg_stack_release(struct usmarr__linalg_stack *stack);

/* The one launch path of lib/linalg/: kernel `kernel` of program cl/<family>.cl built with
 * -DD0=<dtype's tag> (and -DLA_COMPLEX for complex dtypes, -DLA_DOUBLE for float64 and
 * complex128) then `defines` (NULL: none),
 * over `items` work-items on one dim, in groups that leave every compute unit several.
 * args[0, nargs) are the kernel's first arguments; the launcher appends the last, `long
 * items`, which the kernel compares its global id with.  No items: nothing is launched. */
USMARR_INTERNAL int usmarr__linalg_launch(usmarr_context_t *ctx, const char *family, usmarr_dtype_t dtype,
                                          const char *defines, const char *kernel, int nargs,
                                          const struct usmarr__karg *args, int64_t items);

/* The same for one work-group of `group` items (a kernel that cooperates through local
 * memory and barriers); the appended `items` is `group`. */
USMARR_INTERNAL int usmarr__linalg_launch_group(usmarr_context_t *ctx, const char *family, usmarr_dtype_t dtype,
                                                const char *defines, const char *kernel, int nargs,
                                                const struct usmarr__karg *args, int group);
/* The same for `groups` work-groups of `group` items; the appended `items` is their count. */
USMARR_INTERNAL int usmarr__linalg_launch_groups(usmarr_context_t *ctx, const char *family, usmarr_dtype_t dtype,
                                                 const char *defines, const char *kernel, int nargs,
                                                 const struct usmarr__karg *args, int group, int groups);

/* Status words on the device, one a matrix: kernels store 1 for a matrix that failed
 * (cl/linalg_lu.cl), 0 for the others.  _check reads them and fails with
 * USMARR_ERROR_LINALG and a detail that names the first failing matrix, its batch index
 * within bshape[nb], and `what` ("is singular"); "the matrix is singular" when there are
 * no batch dims. */
USMARR_INTERNAL int usmarr__linalg_status_new(usmarr_context_t *ctx, const char *fn, int64_t count,
                                              usmarr_array_t **status);
USMARR_INTERNAL int usmarr__linalg_status_check(const char *fn, const usmarr_array_t *status, const char *what, int nb,
                                                const int64_t *bshape);

/* The result convention for a result of `dtype` and shape[ndim]: _begin checks `out`
 * (as usmarr__result_begin) before any work, and needs `out` or `result`; _end writes
 * `work` (of that shape; any dtype that casts) into `out`, or hands `work` itself over as
 * *result when there is no `out`.  _end releases what it does not hand over and returns
 * `rc` or its own error. */
struct usmarr__linalg_result {
    usmarr_array_t *target; /* out's target (maybe a temporary), NULL without out */
    usmarr_array_t *out;
    usmarr_array_t **result;
};
USMARR_INTERNAL int usmarr__linalg_result_begin(const char *fn, const usmarr_array_t *like,
                                                const usmarr_array_t *const *inputs, int ninputs, usmarr_dtype_t dtype,
                                                int ndim, const int64_t *shape, usmarr_array_t *out,
                                                usmarr_array_t **result, struct usmarr__linalg_result *r);
USMARR_INTERNAL int usmarr__linalg_result_end(int rc, usmarr_array_t *work, struct usmarr__linalg_result *r);

/* ---- 2. matrix products: matmul, tensordot, vecdot, matrix_transpose (matmul.c,
 * products.c; kernels cl/linalg.cl, cl/gemm.cl) ------------------------------------------- */

/* The operands of a product `fn` (matmul, vecdot, tensordot): x1 and x2 given, an out or
 * a result pointer, one context, at least `min_ndim` dims each. */
USMARR_INTERNAL int usmarr__check_product(const char *fn, const usmarr_array_t *x1, const usmarr_array_t *x2,
                                          const usmarr_array_t *out, usmarr_array_t **result, int min_ndim);

/* ---- 3. LU and Cholesky: det, slogdet, inv, solve, cholesky, matrix_power (lu.c,
 * cholesky.c; kernels cl/linalg_lu.cl) --------------------------------------------------- */

/* Matrices up to this order are factored by one work-item in private memory; larger ones
 * by the blocked path. */
#define USMARR__LINALG_SMALL 32
/* The defines of cl/linalg_lu.cl's programs for matrices of order n: -DLA_NMAX=4, 8, 16
 * or 32 (the private matrix's order) up to USMARR__LINALG_SMALL, else none. */
USMARR_INTERNAL void usmarr__linalg_order_defines(int64_t n, char *buffer, size_t size);
/* Real matrices up to this order run the "lanes" kernels: LA_LANES matrices a work-item
 * as the lanes of one vector, in private memory of order LA_NMAX (8 lanes up to order 8,
 * 4 up to 16: private matrices of 4 to 8 KB in float64). */
#define USMARR__LINALG_LANES_MAX 16
/* Launches such a kernel of `family` on a stack of `count` matrices of order n: `args`,
 * then count, then the launcher's items (count / LA_LANES, rounded up).  -DLA_N=LA_NMAX
 * when n is the private matrix's order: the kernels that read it loop over constants. */
USMARR_INTERNAL int usmarr__linalg_launch_lanes(usmarr_context_t *ctx, const char *family, usmarr_dtype_t dtype,
                                                const char *kernel, int64_t n, int64_t count, int nargs,
                                                const struct usmarr__karg *args);

/* The blocked path for orders above USMARR__LINALG_SMALL (blocked.c), on matrix `index`
 * of a stack (n x n matrices of the stack's dtype, rows `ld` apart), one matrix at a time:
 * panels and triangular blocks by cl/linalg_lu.cl's kernels, trailing updates by
 * usmarr_matmul.  A matrix that fails sets status[index] (the status words of
 * usmarr__linalg_status_new) and the call goes on with what it computed.
 *   _lu: A = P L U in place; piv (n ints on the device) receives the pivots' rows.
 *   _lu_solve: b (n x k, the same index in b's stack) <- inv(A) b from _lu's factors;
 *     `inverse`: b is the identity, and becomes inv(A) (L's inverse is lower triangular).
 *   _lu_det: det, or (logabs given) slogdet's sign and log, into det[index] / logabs[index].
 *   _cholesky: the lower factor in place (the upper triangle is left; the caller zeroes). */
USMARR_INTERNAL int usmarr__linalg_blocked_lu(struct usmarr__linalg_stack *a, int64_t index, usmarr_array_t *piv,
                                              usmarr_array_t *status);
USMARR_INTERNAL int usmarr__linalg_blocked_lu_solve(struct usmarr__linalg_stack *a, struct usmarr__linalg_stack *b,
                                                    int64_t index, const usmarr_array_t *piv, bool inverse);
USMARR_INTERNAL int usmarr__linalg_blocked_lu_det(struct usmarr__linalg_stack *a, int64_t index,
                                                  const usmarr_array_t *piv, usmarr_array_t *det,
                                                  usmarr_array_t *logabs);
USMARR_INTERNAL int usmarr__linalg_blocked_cholesky(struct usmarr__linalg_stack *a, int64_t index,
                                                    usmarr_array_t *status);

/* ---- 4. decompositions: qr, svd, eigh and what builds on them --------------------------- */
/* decomp.c, qr_blocked.c, eigh.c, svd.c; kernels cl/linalg_eig.cl, one work-item per
 * matrix.  A call checks x (usmarr__linalg_check), copies it into a work stack
 * (usmarr__linalg_stack_new; not when the stack is empty), launches through
 * usmarr__linalg_launch and reads the status words of the Jacobi sweeps. */

/* x checked and copied for the decomposition `fn` (square matrices when `square`): the
 * stack's work array is NULL when the stack has no element; *real is the real dtype of
 * the compute dtype *dtype. */
USMARR_INTERNAL int usmarr__decomp_prepare(const char *fn, const usmarr_array_t *x, bool square,
                                           struct usmarr__linalg_stack *stack, usmarr_dtype_t *dtype,
                                           usmarr_dtype_t *real);
/* A new C-ordered device array of `dtype`: the stack's batch dims then dims[0, ndim). */
USMARR_INTERNAL int usmarr__decomp_array(usmarr_context_t *ctx, const struct usmarr__linalg_stack *stack,
                                         usmarr_dtype_t dtype, int ndim, const int64_t *dims, usmarr_array_t **out);
/* Launches `kernel` of cl/linalg_eig.cl for `dtype`, one work-item per matrix. */
USMARR_INTERNAL int usmarr__decomp_launch(usmarr_context_t *ctx, const struct usmarr__linalg_stack *stack,
                                          usmarr_dtype_t dtype, const char *kernel, int nargs,
                                          const struct usmarr__karg *args);
/* Matrices with min(m, n) at least this take the blocked QR (qr_blocked.c). */
#define USMARR__QR_BLOCKED_MIN 128
/* The blocked QR of one m x n matrix a (a C-ordered work matrix, destroyed) into q (m x
 * qc; NULL: R alone) and r (at least min(m, n) rows, zeros below, x n), C-ordered, of a's
 * dtype `dt`. */
USMARR_INTERNAL int usmarr__qr_blocked(usmarr_context_t *ctx, usmarr_dtype_t dt, usmarr_array_t *a, usmarr_array_t *q,
                                       usmarr_array_t *r);
/* The iteration limit of Jacobi (sweeps) and QL (iterations an eigenvalue): 30, or less
 * by USMARR_LINALG_SWEEPS (tests of the limit). */
USMARR_INTERNAL int usmarr__decomp_sweeps(void);
/* s (and, when u is given, u and vh) of x's SVD into new arrays (`fn` names the caller). */
USMARR_INTERNAL int usmarr__svd(const char *fn, const usmarr_array_t *x, bool full, usmarr_array_t **u,
                                usmarr_array_t **s, usmarr_array_t **vh);
/* Hermitian matrices of at least this order take eigh by the blocked tridiagonal
 * reduction and QL (usmarr__eigh_tridiagonal); the others cyclic Jacobi, whose column
 * updates walk the whole matrix per rotation. */
#ifndef USMARR__EIGH_TRIDIAGONAL_MIN
#define USMARR__EIGH_TRIDIAGONAL_MIN 64
#endif
/* eigh of the Hermitian matrices of `st` (their lower triangles; destroyed), one
 * matrix at a time (eigh_blocked.c): eigenvalues ascending into w (the stack's batch dims,
 * then n), eigenvectors into v's columns when v is given, status[index] = 1 where QL did
 * not converge. */
USMARR_INTERNAL int usmarr__eigh_tridiagonal(struct usmarr__linalg_stack *st, usmarr_array_t *w, usmarr_array_t *v,
                                             usmarr_array_t *status);
/* mat's n x n matrix M from element `base` (rows of n) := Q M, Q = H_0 H_1 ... the
 * reflectors H_j = I - tau v vᴴ of r's rows (n x n; row j is v, zero before j + shift and 1
 * there) in block form I - V T Vᴴ, panels of 32 rows with their triangles T in t (32 x
 * 32 each, larft): three products per panel through usmarr_matmul, from the last panel. */
USMARR_INTERNAL int usmarr__apply_reflectors(const usmarr_array_t *r, const usmarr_array_t *t, int64_t n,
                                             int64_t shift, usmarr_array_t *mat, int64_t base);
/* The columns of Z one work-item of cl/linalg_tridiag.cl's usmarr_tridiag_rotate turns
 * (eight slabs of eight, its LA_SLABS): Z's rows are padded to a multiple of it. */
#define USMARR__ROTATE_COLUMNS 64
/* Matrices with min(m, n) at least this take svd by the blocked bidiagonal reduction and
 * implicit QR (usmarr__svd_bidiagonal); the others one-sided Jacobi. */
#ifndef USMARR__SVD_BIDIAGONAL_MIN
#define USMARR__SVD_BIDIAGONAL_MIN 64
#endif
/* The SVD of the m x n matrices of `st` (destroyed), one at a time (svd_blocked.c): s
 * (batch..., k) descending and, when u is given, u (batch..., m, m or k) and vh (batch...,
 * n or k, n) as `full` says; status[index] = 1 where the QR sweeps ran out. */
USMARR_INTERNAL int usmarr__svd_bidiagonal(struct usmarr__linalg_stack *st, bool full, usmarr_array_t *s,
                                           usmarr_array_t *u, usmarr_array_t *vh, usmarr_array_t *status);
/* The conjugate transpose of the matrices of a (a new array, or a view of a real one;
 * qr_blocked.c). */
USMARR_INTERNAL int usmarr__adjoint(const usmarr_array_t *a, usmarr_array_t **h);
/* The matrix norms of singular values (matrix_norm's ord 2, -2 and 'nuc') of the stack x,
 * (batch...) or with keepdims (batch..., 1, 1), by the result convention. */
enum usmarr__norm_singular { USMARR__NORM_2, USMARR__NORM_MINUS_2, USMARR__NORM_NUCLEAR };
USMARR_INTERNAL int usmarr__matrix_norm_singular(const usmarr_array_t *x, enum usmarr__norm_singular ord,
                                                 bool keepdims, usmarr_array_t *out, usmarr_array_t **result);

/* sum(x1 * x2) along `axis` of their broadcast shape in one fused pass (matmul.c): real
 * vecdot and matrix @ vector; out and result as usmarr_expr_reduce's. */
USMARR_INTERNAL int usmarr__sum_of_products(const usmarr_array_t *x1, const usmarr_array_t *x2, int axis,
                                            usmarr_array_t *out, usmarr_array_t **result);
/* Whether the dims of x but `skip` (-1: none) walk one arithmetic sequence (dims of one
 * element ignored); its step (0 where no dim is left) (diagonal.c). */
USMARR_INTERNAL bool usmarr__dims_stride(const usmarr_array_t *x, int skip, int64_t *stride);
/* One launch of a vector-product kernel of cl/linalg.cl (usmarr_rowdot, usmarr_coldot,
 * usmarr_cross, usmarr_diagsum) for dtype dt over `items` work-items (diagonal.c). */
USMARR_INTERNAL int usmarr__vector_launch(usmarr_context_t *ctx, usmarr_dtype_t dt, const char *kernel, int64_t items,
                                          int nargs, const struct usmarr__karg *args);

#endif
