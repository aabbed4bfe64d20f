/* Part of usmarr.h: include <usmarr.h>, not this file. */
#ifndef USMARR_H_INSIDE
#error "include <usmarr.h> instead of usmarr/linalg.h"
#endif
#ifndef USMARR_LINALG_H
#define USMARR_LINALG_H

/** @name Linear algebra
 * The array API's matrix products, with NumPy 2's semantics (doc/ops.md).  The result
 * convention is the library's (usmarr/ops.h): `(inputs..., out, &result)`; @p out, when
 * given, must be writable, of the same context, of exactly the result's shape, and of a
 * dtype the result casts to under ::USMARR_CASTING_SAME_KIND.  The result dtype is
 * usmarr_promote_types() of the operands' dtypes; products accumulate in that dtype
 * (integers wrap; bool is the logical or of ands; float16 accumulates in float32).
 * @{ */

/** @brief NumPy's `matmul(x1, x2)`: matrix products over broadcast batch dims.
 *
 * A 1-D @p x1 of shape (K,) acts as (1, K) and a 1-D @p x2 as (K, 1); the added dim is
 * removed from the result.  The dims before the last two broadcast NumPy's way.
 *
 * @param x1 the left operand, at least 1-D (borrowed)
 * @param x2 the right operand, at least 1-D (borrowed)
 * @param out NULL, or the array to write
 * @param[out] result the result, or @p out retained; may be NULL when @p out is given
 * @return 0 on success
 * @retval USMARR_ERROR_INVALID_ARGUMENT NULL @p x1 or @p x2, NULL @p result without @p out
 * @retval USMARR_ERROR_SHAPE_MISMATCH a 0-d operand, x1's last dim differs from x2's
 *         second-to-last (its only one for 1-D), batch dims that do not broadcast, or an
 *         @p out of another shape
 * @retval USMARR_ERROR_CONTEXT_MISMATCH operands or @p out of different contexts
 * @retval USMARR_ERROR_READ_ONLY @p out is not writable
 * @retval USMARR_ERROR_CASTING the result dtype does not cast to @p out's (same_kind)
 * @retval USMARR_ERROR_UNSUPPORTED the result needs fp64 and the device has none
 * @retval USMARR_ERROR_ALLOCATION a temporary or the result could not be allocated */
USMARR_API USMARR_NODISCARD int usmarr_matmul(const usmarr_array_t *x1, const usmarr_array_t *x2, usmarr_array_t *out,
                                              usmarr_array_t **result);

/** @brief NumPy's `tensordot(x1, x2, axes)`: sums products over paired axes.
 *
 * With @p axes1 and @p axes2 NULL, the last @p naxes axes of @p x1 pair with the first
 * @p naxes of @p x2 (NumPy's `axes=n`); else axis @p axes1[i] of @p x1 pairs with
 * @p axes2[i] of @p x2 (negative values count from the end).  The result's dims are
 * x1's unpaired dims then x2's, in order; paired extents must be equal.
 *
 * @param x1 the first operand (borrowed)
 * @param x2 the second operand (borrowed)
 * @param naxes the number of paired axes, in [0, min(ndim)]
 * @param axes1 NULL, or @p naxes axes of @p x1
 * @param axes2 NULL (exactly when @p axes1 is), or @p naxes axes of @p x2
 * @param out NULL, or the array to write
 * @param[out] result the result, or @p out retained; may be NULL when @p out is given
 * @return 0 on success
 * @retval USMARR_ERROR_INVALID_ARGUMENT NULL operand, @p naxes out of range, only one of
 *         @p axes1 / @p axes2, a repeated axis, NULL @p result without @p out
 * @retval USMARR_ERROR_INDEX an axis out of range
 * @retval USMARR_ERROR_SHAPE_MISMATCH paired axes of different extents, @p out of another shape
 * @retval USMARR_ERROR_CONTEXT_MISMATCH, USMARR_ERROR_READ_ONLY, USMARR_ERROR_CASTING as usmarr_matmul() */
USMARR_API USMARR_NODISCARD int usmarr_tensordot(const usmarr_array_t *x1, const usmarr_array_t *x2, int naxes,
                                                 const int *axes1, const int *axes2, usmarr_array_t *out,
                                                 usmarr_array_t **result);

/** @brief NumPy 2's `vecdot(x1, x2, axis)`: sum over @p axis of conj(x1) * x2.
 *
 * The operands broadcast except along the vectors' axis, which must have one length in
 * both.  @p axis counts from the end of each operand when negative (-1: the last);
 * a non-negative @p axis needs operands of the same number of dims.  Complex @p x1 is
 * conjugated.  The result dtype is the promoted dtype (int8 stays int8 and wraps).
 *
 * @param x1 the first operand, at least 1-D (borrowed)
 * @param x2 the second operand, at least 1-D (borrowed)
 * @param axis the vectors' axis, usually -1
 * @param out NULL, or the array to write
 * @param[out] result the result, or @p out retained; may be NULL when @p out is given
 * @return 0 on success
 * @retval USMARR_ERROR_INVALID_ARGUMENT NULL operand, NULL @p result without @p out
 * @retval USMARR_ERROR_INDEX @p axis out of range for either operand
 * @retval USMARR_ERROR_SHAPE_MISMATCH a 0-d operand, vectors of different lengths, other
 *         dims that do not broadcast, @p out of another shape
 * @retval USMARR_ERROR_CONTEXT_MISMATCH, USMARR_ERROR_READ_ONLY, USMARR_ERROR_CASTING as usmarr_matmul() */
USMARR_API USMARR_NODISCARD int usmarr_vecdot(const usmarr_array_t *x1, const usmarr_array_t *x2, int axis,
                                              usmarr_array_t *out, usmarr_array_t **result);

/** @brief The array API's `matrix_transpose(x)`: a view with the last two axes swapped.
 *  @param x the array, at least 2-D (borrowed)
 *  @param[out] view the view, with one reference
 *  @return 0 on success
 *  @retval USMARR_ERROR_INVALID_ARGUMENT NULL @p x or @p view
 *  @retval USMARR_ERROR_SHAPE_MISMATCH @p x has fewer than 2 dims */
USMARR_API USMARR_NODISCARD int usmarr_matrix_transpose(const usmarr_array_t *x, usmarr_array_t **view);

/** @} */

/** @name The linear algebra extension: LU and Cholesky
 * The array API's `linalg` functions, named `usmarr_linalg_<name>` (doc/linalg.md).  Each
 * works on the last two dims of its operands as a stack of matrices (the dims before them
 * are the batch), takes any layout (strided, offset, negative strides, F order,
 * broadcast), and computes in the operand's floating dtype: float32, float64, complex64
 * and complex128 stay, float16 computes in float32, bool and integers in the default
 * floating dtype (float64, or float32 on a device without fp64).  Results follow the
 * library's convention (`out`, `&result`) as usmarr_matmul(), except where a function has
 * two results.  A failing matrix (singular, not positive definite) fails the whole call
 * with ::USMARR_ERROR_LINALG, whose detail names the first such matrix of the stack by
 * its index and batch index; nothing is written then.
 * @{ */

/** @brief The determinant of each matrix of the stack @p x (NumPy's `linalg.det`).
 *
 * LU with partial pivoting; a singular matrix gives 0 (no error), a 0 x 0 matrix 1.
 *
 * @param x the stack, at least 2-D with square matrices (borrowed)
 * @param out NULL, or the array to write, of x's batch shape
 * @param[out] result the result, or @p out retained; may be NULL when @p out is given
 * @return 0 on success
 * @retval USMARR_ERROR_INVALID_ARGUMENT NULL @p x, NULL @p result without @p out
 * @retval USMARR_ERROR_SHAPE_MISMATCH @p x has fewer than 2 dims or matrices that are not
 *         square, @p out of another shape
 * @retval USMARR_ERROR_CONTEXT_MISMATCH @p out of another context
 * @retval USMARR_ERROR_READ_ONLY @p out is not writable
 * @retval USMARR_ERROR_CASTING the result dtype does not cast to @p out's (same_kind)
 * @retval USMARR_ERROR_UNSUPPORTED the compute dtype needs fp64 and the device has none
 * @retval USMARR_ERROR_ALLOCATION a work stack or the result could not be allocated */
USMARR_API USMARR_NODISCARD int usmarr_linalg_det(const usmarr_array_t *x, usmarr_array_t *out,
                                                  usmarr_array_t **result);

/** @brief The sign and the log of the absolute value of each determinant (NumPy's
 *  `linalg.slogdet`).
 *
 * @p sign has the compute dtype (for complex: det / |det|), @p logabsdet its real dtype; a
 * singular matrix gives sign 0 and logabsdet -inf, a 0 x 0 matrix 1 and 0.
 *
 * @param x the stack, at least 2-D with square matrices (borrowed)
 * @param[out] sign the signs, of x's batch shape
 * @param[out] logabsdet the logs, of x's batch shape
 * @return 0 on success
 * @retval USMARR_ERROR_INVALID_ARGUMENT NULL @p x, @p sign or @p logabsdet
 * @retval USMARR_ERROR_SHAPE_MISMATCH, USMARR_ERROR_UNSUPPORTED, USMARR_ERROR_ALLOCATION as
 *         usmarr_linalg_det() */
USMARR_API USMARR_NODISCARD int usmarr_linalg_slogdet(const usmarr_array_t *x, usmarr_array_t **sign,
                                                      usmarr_array_t **logabsdet);

/** @brief The inverse of each matrix of the stack @p x (NumPy's `linalg.inv`).
 *
 * @param x the stack, at least 2-D with square matrices (borrowed)
 * @param out NULL, or the array to write, of x's shape
 * @param[out] result the result, or @p out retained; may be NULL when @p out is given
 * @return 0 on success
 * @retval USMARR_ERROR_LINALG a matrix is singular (an exactly zero pivot); the detail
 *         names the first
 * @retval USMARR_ERROR_INVALID_ARGUMENT, USMARR_ERROR_SHAPE_MISMATCH,
 *         USMARR_ERROR_CONTEXT_MISMATCH, USMARR_ERROR_READ_ONLY, USMARR_ERROR_CASTING,
 *         USMARR_ERROR_UNSUPPORTED, USMARR_ERROR_ALLOCATION as usmarr_linalg_det() */
USMARR_API USMARR_NODISCARD int usmarr_linalg_inv(const usmarr_array_t *x, usmarr_array_t *out,
                                                  usmarr_array_t **result);

/** @brief The solution of x1 @ x = x2 for each matrix of the stack @p x1 (NumPy 2's
 *  `linalg.solve`).
 *
 * A 1-D @p x2 of shape (n,) is one right-hand side for every matrix: the result has shape
 * (batch..., n).  Otherwise @p x2 is a stack of n x k matrices whose batch dims broadcast
 * with x1's (NumPy's rules): the result has shape (batch..., n, k).  The compute dtype is
 * that of the operands' promoted dtype.
 *
 * @param x1 the coefficients, at least 2-D with square matrices (borrowed)
 * @param x2 the right-hand sides, at least 1-D (borrowed)
 * @param out NULL, or the array to write
 * @param[out] result the result, or @p out retained; may be NULL when @p out is given
 * @return 0 on success
 * @retval USMARR_ERROR_LINALG a matrix of @p x1 is singular; the detail names the first
 * @retval USMARR_ERROR_INVALID_ARGUMENT NULL operand, NULL @p result without @p out
 * @retval USMARR_ERROR_SHAPE_MISMATCH x1 not a stack of square matrices, x2 0-d, x2's rows
 *         not x1's order, batch dims that do not broadcast, @p out of another shape
 * @retval USMARR_ERROR_CONTEXT_MISMATCH operands or @p out of different contexts
 * @retval USMARR_ERROR_READ_ONLY, USMARR_ERROR_CASTING, USMARR_ERROR_UNSUPPORTED,
 *         USMARR_ERROR_ALLOCATION as usmarr_linalg_det() */
USMARR_API USMARR_NODISCARD int usmarr_linalg_solve(const usmarr_array_t *x1, const usmarr_array_t *x2,
                                                    usmarr_array_t *out, usmarr_array_t **result);

/** @brief The Cholesky factor of each Hermitian positive-definite matrix of the stack
 *  (NumPy 2's `linalg.cholesky(x, upper=...)`).
 *
 * The lower factor L (x = L L^H) from x's lower triangle, or with @p upper the upper
 * factor U (x = U^H U) from x's upper triangle; the other triangle of the result is zero.
 *
 * @param x the stack, at least 2-D with square matrices (borrowed)
 * @param upper whether to compute the upper factor
 * @param out NULL, or the array to write, of x's shape
 * @param[out] result the result, or @p out retained; may be NULL when @p out is given
 * @return 0 on success
 * @retval USMARR_ERROR_LINALG a matrix is not positive definite (a pivot <= 0 or NaN); the
 *         detail names the first
 * @retval USMARR_ERROR_INVALID_ARGUMENT, USMARR_ERROR_SHAPE_MISMATCH,
 *         USMARR_ERROR_CONTEXT_MISMATCH, USMARR_ERROR_READ_ONLY, USMARR_ERROR_CASTING,
 *         USMARR_ERROR_UNSUPPORTED, USMARR_ERROR_ALLOCATION as usmarr_linalg_det() */
USMARR_API USMARR_NODISCARD int usmarr_linalg_cholesky(const usmarr_array_t *x, bool upper, usmarr_array_t *out,
                                                       usmarr_array_t **result);

/** @brief Each matrix of the stack raised to the integer power @p n (NumPy's
 *  `linalg.matrix_power`).
 *
 * n = 0 gives the identity, n > 0 repeated squaring with usmarr_matmul() (the dtype of
 * @p x kept, integers included, as NumPy), n < 0 the same on usmarr_linalg_inv() (the
 * compute dtype).
 *
 * @param x the stack, at least 2-D with square matrices (borrowed)
 * @param n the power
 * @param out NULL, or the array to write, of x's shape
 * @param[out] result the result, or @p out retained; may be NULL when @p out is given
 * @return 0 on success
 * @retval USMARR_ERROR_LINALG n < 0 and a matrix is singular
 * @retval USMARR_ERROR_INVALID_ARGUMENT, USMARR_ERROR_SHAPE_MISMATCH,
 *         USMARR_ERROR_CONTEXT_MISMATCH, USMARR_ERROR_READ_ONLY, USMARR_ERROR_CASTING,
 *         USMARR_ERROR_UNSUPPORTED, USMARR_ERROR_ALLOCATION as usmarr_linalg_det() */
USMARR_API USMARR_NODISCARD int usmarr_linalg_matrix_power(const usmarr_array_t *x, int64_t n, usmarr_array_t *out,
                                                           usmarr_array_t **result);

/** @name The linear algebra extension: QR, eigh and SVD
 * Decompositions of each matrix of a stack (the last two dims of @p x; the dims before
 * them are the batch), named `usmarr_linalg_<name>` (doc/linalg.md).  @p x may have any
 * layout (strided, offset, negative strides, F order, broadcast).  The compute dtype is
 * x's for float32, float64, complex64 and complex128; float16 computes in float32, bool
 * and integers in float64 (float32 on a device without fp64).  One work-item owns a matrix
 * of the stack (the fast case: stacks of small matrices); QR of matrices with min(m, n) of
 * 128 or more is blocked, its updates through usmarr_matmul.  eigh of real matrices of
 * order 64 or more is tridiagonalisation and QL, of complex ones the SVD of a shifted copy;
 * large eigh and svd run on one compute unit (doc/linalg.md).  A matrix
 * with a NaN or an infinity gives NaN results (where NumPy may raise LinAlgError).
 * Jacobi iterations stop after at most 30 sweeps, QL after 30 iterations an eigenvalue;
 * one that has not met its tolerance by then fails the call with
 * ::USMARR_ERROR_LINALG, whose detail names the first such matrix.  Eigenvectors and
 * singular vectors are unique only up to a phase (sign) per vector, as in LAPACK; the
 * decompositions themselves meet the accuracy bounds of doc/linalg.md.
 * @{ */

/** Which factors usmarr_linalg_qr() returns (NumPy's `mode`). */
typedef enum {
    USMARR_QR_REDUCED = 0, /**< Q is (m, k), R is (k, n), k = min(m, n) */
    USMARR_QR_COMPLETE = 1 /**< Q is (m, m), R is (m, n) */
} usmarr_qr_mode_t;

/** @brief The QR decomposition x = Q R of each matrix of the stack (NumPy's `linalg.qr`).
 *
 * Householder reflections: Q has orthonormal columns (unitary when complete), R is upper
 * triangular; R's diagonal may be negative (as LAPACK's).
 *
 * @param x the stack, at least 2-D (borrowed)
 * @param mode ::USMARR_QR_REDUCED or ::USMARR_QR_COMPLETE
 * @param[out] q Q, (batch..., m, k or m), of the compute dtype
 * @param[out] r R, (batch..., k or m, n), of the compute dtype
 * @return 0 on success (*q and *r then hold one reference each; NULL on failure)
 * @retval USMARR_ERROR_INVALID_ARGUMENT NULL @p x, @p q or @p r, an unknown @p mode
 * @retval USMARR_ERROR_SHAPE_MISMATCH @p x has fewer than 2 dims
 * @retval USMARR_ERROR_UNSUPPORTED the compute dtype needs fp64 and the device has none
 * @retval USMARR_ERROR_ALLOCATION a work stack or a result could not be allocated */
USMARR_API USMARR_NODISCARD int usmarr_linalg_qr(const usmarr_array_t *x, usmarr_qr_mode_t mode, usmarr_array_t **q,
                                                 usmarr_array_t **r);

/** @brief Eigenvalues and eigenvectors of each Hermitian matrix of the stack (NumPy's
 *  `linalg.eigh`).
 *
 * Only the lower triangle is read (and the real part of the diagonal).  Eigenvalues are
 * ascending; column j of the eigenvectors belongs to eigenvalue j.
 *
 * @param x the stack, at least 2-D with square matrices (borrowed)
 * @param[out] eigenvalues (batch..., n), of the compute dtype's real dtype
 * @param[out] eigenvectors (batch..., n, n), of the compute dtype
 * @return 0 on success
 * @retval USMARR_ERROR_INVALID_ARGUMENT NULL @p x, @p eigenvalues or @p eigenvectors
 * @retval USMARR_ERROR_SHAPE_MISMATCH @p x has fewer than 2 dims or matrices that are not
 *         square
 * @retval USMARR_ERROR_LINALG the iteration did not converge for a matrix; the detail names the first
 * @retval USMARR_ERROR_UNSUPPORTED, USMARR_ERROR_ALLOCATION as usmarr_linalg_qr() */
USMARR_API USMARR_NODISCARD int usmarr_linalg_eigh(const usmarr_array_t *x, usmarr_array_t **eigenvalues,
                                                   usmarr_array_t **eigenvectors);

/** @brief The eigenvalues of each Hermitian matrix of the stack, ascending (NumPy's
 *  `linalg.eigvalsh`), as usmarr_linalg_eigh() without the vectors.
 *
 * @param x the stack, at least 2-D with square matrices (borrowed)
 * @param out NULL, or the array to write, (batch..., n)
 * @param[out] result the result, or @p out retained; may be NULL when @p out is given
 * @return 0 on success
 * @retval USMARR_ERROR_INVALID_ARGUMENT NULL @p x, NULL @p result without @p out
 * @retval USMARR_ERROR_SHAPE_MISMATCH as usmarr_linalg_eigh(), or @p out of another shape
 * @retval USMARR_ERROR_CONTEXT_MISMATCH @p out of another context
 * @retval USMARR_ERROR_READ_ONLY @p out is not writable
 * @retval USMARR_ERROR_CASTING the result dtype does not cast to @p out's (same_kind)
 * @retval USMARR_ERROR_LINALG, USMARR_ERROR_UNSUPPORTED, USMARR_ERROR_ALLOCATION as
 *         usmarr_linalg_eigh() */
USMARR_API USMARR_NODISCARD int usmarr_linalg_eigvalsh(const usmarr_array_t *x, usmarr_array_t *out,
                                                       usmarr_array_t **result);

/** @brief The singular value decomposition x = U diag(S) Vᴴ of each matrix of the stack
 *  (NumPy's `linalg.svd`).
 *
 * Singular values are descending, with U's columns and Vᴴ's rows in the same order.  With
 * k = min(m, n): U is (m, m) and Vᴴ (n, n) when @p full_matrices, else (m, k) and (k, n).
 *
 * @param x the stack, at least 2-D (borrowed)
 * @param full_matrices whether U and Vᴴ are square
 * @param[out] u U, of the compute dtype
 * @param[out] s S, (batch..., k), of the compute dtype's real dtype
 * @param[out] vh Vᴴ, of the compute dtype
 * @return 0 on success
 * @retval USMARR_ERROR_INVALID_ARGUMENT NULL @p x, @p u, @p s or @p vh
 * @retval USMARR_ERROR_SHAPE_MISMATCH @p x has fewer than 2 dims
 * @retval USMARR_ERROR_LINALG Jacobi did not converge for a matrix; the detail names the first
 * @retval USMARR_ERROR_UNSUPPORTED, USMARR_ERROR_ALLOCATION as usmarr_linalg_qr() */
USMARR_API USMARR_NODISCARD int usmarr_linalg_svd(const usmarr_array_t *x, bool full_matrices, usmarr_array_t **u,
                                                  usmarr_array_t **s, usmarr_array_t **vh);

/** @brief The singular values of each matrix of the stack, descending (the array API's
 *  `linalg.svdvals`), as usmarr_linalg_svd() without the vectors.
 *
 * @param x the stack, at least 2-D (borrowed)
 * @param out NULL, or the array to write, (batch..., min(m, n))
 * @param[out] result the result, or @p out retained; may be NULL when @p out is given
 * @return 0 on success
 * @retval USMARR_ERROR_INVALID_ARGUMENT, USMARR_ERROR_SHAPE_MISMATCH,
 *         USMARR_ERROR_CONTEXT_MISMATCH, USMARR_ERROR_READ_ONLY, USMARR_ERROR_CASTING,
 *         USMARR_ERROR_LINALG, USMARR_ERROR_UNSUPPORTED, USMARR_ERROR_ALLOCATION as
 *         usmarr_linalg_eigvalsh() */
USMARR_API USMARR_NODISCARD int usmarr_linalg_svdvals(const usmarr_array_t *x, usmarr_array_t *out,
                                                      usmarr_array_t **result);

/** @brief The rank of each matrix of the stack: how many singular values exceed
 *  rtol * the largest (the array API 2024.12 `linalg.matrix_rank`).
 *
 * @param x the stack, at least 2-D, with non-empty matrices (borrowed)
 * @param rtol NULL for max(m, n) * eps of the real compute dtype, or a real array that
 *        broadcasts against x's batch dims (a 0-d array for one value) (borrowed)
 * @param out NULL, or the array to write, (batch...)
 * @param[out] result the ranks, int64; or @p out retained
 * @return 0 on success
 * @retval USMARR_ERROR_SHAPE_MISMATCH as usmarr_linalg_svdvals(), an empty matrix (its
 *         largest singular value is undefined, as in NumPy), an @p rtol that does not
 *         broadcast against the batch dims
 * @retval USMARR_ERROR_BAD_DTYPE a complex @p rtol
 * @retval USMARR_ERROR_CONTEXT_MISMATCH @p rtol or @p out of another context
 * @retval USMARR_ERROR_INVALID_ARGUMENT, USMARR_ERROR_READ_ONLY, USMARR_ERROR_CASTING,
 *         USMARR_ERROR_LINALG, USMARR_ERROR_UNSUPPORTED, USMARR_ERROR_ALLOCATION as
 *         usmarr_linalg_svdvals() */
USMARR_API USMARR_NODISCARD int usmarr_linalg_matrix_rank(const usmarr_array_t *x, const usmarr_array_t *rtol,
                                                          usmarr_array_t *out, usmarr_array_t **result);

/** @brief The Moore-Penrose pseudo-inverse of each matrix of the stack, V diag(1/S) Uᴴ
 *  over the singular values above rtol * the largest (the array API's `linalg.pinv`).
 *
 * @param x the stack, at least 2-D (borrowed)
 * @param rtol as usmarr_linalg_matrix_rank()
 * @param out NULL, or the array to write, (batch..., n, m)
 * @param[out] result the result, of the compute dtype; or @p out retained
 * @return 0 on success; an empty matrix gives an empty (n, m) result (as NumPy)
 * @retval USMARR_ERROR_SHAPE_MISMATCH as usmarr_linalg_svdvals(), an @p rtol that does
 *         not broadcast against the batch dims
 * @retval USMARR_ERROR_BAD_DTYPE, USMARR_ERROR_CONTEXT_MISMATCH,
 *         USMARR_ERROR_INVALID_ARGUMENT, USMARR_ERROR_READ_ONLY, USMARR_ERROR_CASTING,
 *         USMARR_ERROR_LINALG, USMARR_ERROR_UNSUPPORTED, USMARR_ERROR_ALLOCATION as
 *         usmarr_linalg_matrix_rank() */
USMARR_API USMARR_NODISCARD int usmarr_linalg_pinv(const usmarr_array_t *x, const usmarr_array_t *rtol,
                                                   usmarr_array_t *out, usmarr_array_t **result);

/** @} */

/** @name The linear algebra extension: the small functions and the norms
 * The array API's `linalg` functions that need no factorisation; named, checked and
 * returned as the functions above.
 * @{ */

/** @brief The diagonal @p offset of each matrix of @p x, as a view (NumPy's
 *  `diagonal(x, offset, axis1=-2, axis2=-1)`, the array API's `linalg.diagonal`).
 *
 * Elements (i, i + offset) of the last two dims: 0 the main diagonal, positive above,
 * negative below; an offset past the matrix gives a length-0 diagonal.  The view has x's
 * batch dims then the diagonal, and x's access flags.
 *
 * @param x the array, at least 2-D (borrowed)
 * @param offset the diagonal
 * @param[out] view the view, with one reference
 * @return 0 on success
 * @retval USMARR_ERROR_INVALID_ARGUMENT NULL @p x or @p view
 * @retval USMARR_ERROR_SHAPE_MISMATCH @p x has fewer than 2 dims */
USMARR_API USMARR_NODISCARD int usmarr_linalg_diagonal(const usmarr_array_t *x, int64_t offset,
                                                       usmarr_array_t **view);

/** @brief The sum of diagonal @p offset of each matrix (the array API's `linalg.trace`).
 *
 * Without a dtype the sum's dtype rules apply (usmarr/reduce.h: bool and signed integers
 * give int64, ...); with one the sum runs in it and the result has it.
 *
 * @param x the array, at least 2-D (borrowed)
 * @param offset the diagonal, as usmarr_linalg_diagonal()
 * @param dtype -1, or the dtype of the sum and the result
 * @param out NULL, or the array to write, of x's batch shape
 * @param[out] result the result, or @p out retained; may be NULL when @p out is given
 * @return 0 on success
 * @retval USMARR_ERROR_INVALID_ARGUMENT NULL @p x, NULL @p result without @p out
 * @retval USMARR_ERROR_BAD_DTYPE @p dtype is neither -1 nor a dtype
 * @retval USMARR_ERROR_SHAPE_MISMATCH @p x has fewer than 2 dims, @p out of another shape
 * @retval USMARR_ERROR_CONTEXT_MISMATCH, USMARR_ERROR_READ_ONLY, USMARR_ERROR_CASTING,
 *         USMARR_ERROR_UNSUPPORTED as usmarr_linalg_det() */
USMARR_API USMARR_NODISCARD int usmarr_linalg_trace(const usmarr_array_t *x, int64_t offset, int dtype,
                                                    usmarr_array_t *out, usmarr_array_t **result);

/** @brief The outer product x1[i] * x2[j] of two vectors (NumPy's `outer` of 1-D
 *  operands), of their promoted dtype.
 * @param x1 the first vector, 1-D (borrowed)
 * @param x2 the second vector, 1-D (borrowed)
 * @param out NULL, or the array to write, (len(x1), len(x2))
 * @param[out] result the result, or @p out retained; may be NULL when @p out is given
 * @return 0 on success
 * @retval USMARR_ERROR_INVALID_ARGUMENT NULL operand, NULL @p result without @p out
 * @retval USMARR_ERROR_SHAPE_MISMATCH an operand that is not 1-D, @p out of another shape
 * @retval USMARR_ERROR_CONTEXT_MISMATCH, USMARR_ERROR_READ_ONLY, USMARR_ERROR_CASTING,
 *         USMARR_ERROR_UNSUPPORTED as usmarr_matmul() */
USMARR_API USMARR_NODISCARD int usmarr_linalg_outer(const usmarr_array_t *x1, const usmarr_array_t *x2,
                                                    usmarr_array_t *out, usmarr_array_t **result);

/** @brief The cross product of the 3-vectors along @p axis (the array API's `linalg.cross`,
 *  NumPy 2's `cross` of 3-vectors).
 *
 * The operands broadcast (NumPy's rules) except along @p axis, where both must have 3
 * elements (2-vectors, which NumPy deprecated, are refused).  A negative @p axis counts
 * from the end of each operand; a non-negative one needs operands of the same number of
 * dims (as usmarr_vecdot()).  The result has the broadcast shape and the promoted dtype.
 *
 * @param x1 the first operand (borrowed)
 * @param x2 the second operand (borrowed)
 * @param axis the vectors' axis, usually -1
 * @param out NULL, or the array to write
 * @param[out] result the result, or @p out retained; may be NULL when @p out is given
 * @return 0 on success
 * @retval USMARR_ERROR_INVALID_ARGUMENT NULL operand, NULL @p result without @p out
 * @retval USMARR_ERROR_INDEX @p axis out of range of either operand
 * @retval USMARR_ERROR_SHAPE_MISMATCH a 0-d operand, shapes that do not broadcast, vectors
 *         of other than 3 elements, @p out of another shape
 * @retval USMARR_ERROR_BAD_DTYPE a bool result (no subtraction)
 * @retval USMARR_ERROR_CONTEXT_MISMATCH, USMARR_ERROR_READ_ONLY, USMARR_ERROR_CASTING,
 *         USMARR_ERROR_UNSUPPORTED as usmarr_matmul() */
USMARR_API USMARR_NODISCARD int usmarr_linalg_cross(const usmarr_array_t *x1, const usmarr_array_t *x2, int axis,
                                                    usmarr_array_t *out, usmarr_array_t **result);

/** @brief The vector norm of order @p ord over @p axes (the array API's
 *  `linalg.vector_norm`).
 *
 * inf: max |x|; -inf: min |x|; 0: the number of nonzero elements; any other real p:
 * (sum |x|^p)^(1/p) (2 and 1 by square root and sum).  The result has the real floating
 * dtype of x's compute dtype (complex64 gives float32, integers the default float).
 *
 * @param x the array (borrowed)
 * @param naxes the number of entries of @p axes
 * @param axes the axes, or NULL for all (usmarr/reduce.h's rules)
 * @param keepdims keep the reduced axes as extent-1 dims
 * @param ord the order, any real number or ±INFINITY
 * @param out NULL, or the array to write
 * @param[out] result the result, or @p out retained; may be NULL when @p out is given
 * @return 0 on success
 * @retval USMARR_ERROR_INVALID_ARGUMENT NULL @p x, NaN @p ord, bad @p naxes or a repeated
 *         axis, NULL @p result without @p out
 * @retval USMARR_ERROR_INDEX an axis out of range
 * @retval USMARR_ERROR_EMPTY ord ±inf over an empty selection
 * @retval USMARR_ERROR_SHAPE_MISMATCH, USMARR_ERROR_CONTEXT_MISMATCH, USMARR_ERROR_READ_ONLY,
 *         USMARR_ERROR_CASTING, USMARR_ERROR_UNSUPPORTED as usmarr_linalg_det() */
USMARR_API USMARR_NODISCARD int usmarr_linalg_vector_norm(const usmarr_array_t *x, int naxes, const int *axes,
                                                          bool keepdims, double ord, usmarr_array_t *out,
                                                          usmarr_array_t **result);

/** The orders of usmarr_linalg_matrix_norm(). */
typedef enum usmarr_matrix_norm {
    USMARR_NORM_FRO = 0,     /**< 'fro': the square root of the sum of |x|^2 */
    USMARR_NORM_NUC = 1,     /**< 'nuc': the sum of the singular values */
    USMARR_NORM_ONE = 2,     /**< 1: the largest column sum of |x| */
    USMARR_NORM_MINUS_ONE = 3, /**< -1: the least column sum of |x| */
    USMARR_NORM_TWO = 4,     /**< 2: the largest singular value */
    USMARR_NORM_MINUS_TWO = 5, /**< -2: the least singular value */
    USMARR_NORM_INF = 6,     /**< inf: the largest row sum of |x| */
    USMARR_NORM_MINUS_INF = 7  /**< -inf: the least row sum of |x| */
} usmarr_matrix_norm_t;

/** @brief The matrix norm of each matrix of the stack (the array API's
 *  `linalg.matrix_norm`), of the real floating dtype as usmarr_linalg_vector_norm().
 *
 * @param x the stack, at least 2-D (borrowed)
 * @param ord the order
 * @param keepdims keep the last two dims as extent-1 dims
 * @param out NULL, or the array to write
 * @param[out] result the result, or @p out retained; may be NULL when @p out is given
 * @return 0 on success
 * @retval USMARR_ERROR_INVALID_ARGUMENT NULL @p x, @p ord not an order, NULL @p result
 *         without @p out
 * @retval USMARR_ERROR_UNSUPPORTED the orders of the singular values (nuc, 2, -2) in a
 *         library built without them; fp64 as usmarr_linalg_det()
 * @retval USMARR_ERROR_EMPTY ord ±1 or ±inf of matrices without elements
 * @retval USMARR_ERROR_SHAPE_MISMATCH @p x has fewer than 2 dims, @p out of another shape
 * @retval USMARR_ERROR_CONTEXT_MISMATCH, USMARR_ERROR_READ_ONLY, USMARR_ERROR_CASTING as
 *         usmarr_linalg_det() */
USMARR_API USMARR_NODISCARD int usmarr_linalg_matrix_norm(const usmarr_array_t *x, usmarr_matrix_norm_t ord,
                                                          bool keepdims, usmarr_array_t *out,
                                                          usmarr_array_t **result);

/** @} */

#endif
