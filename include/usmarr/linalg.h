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

#endif
