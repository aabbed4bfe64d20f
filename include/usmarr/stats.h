/* Part of usmarr.h: include <usmarr.h>, not this file. */
#ifndef USMARR_H_INSIDE
#error "include <usmarr.h> instead of usmarr/stats.h"
#endif
#ifndef USMARR_STATS_H
#define USMARR_STATS_H

/** @name Statistics
 * Reductions beyond usmarr/ops.h's, with NumPy 2's semantics (doc/stats.md).  Axes as in
 * usmarr_reduce(): @p axes NULL reduces every axis (then @p naxes is ignored), negative
 * values count from the end, and @p keepdims keeps reduced axes as size-1 dims.  The
 * result convention is the library's (usmarr/ops.h).
 * @{ */

/** @brief NumPy's `var(x, axis, ddof=correction, keepdims)`: the mean of |x - mean(x)|^2
 *  times N / max(N - correction, 0).
 *
 * Bool and integer input gives float64; float16 is computed in float32 and rounded once
 * (NumPy accumulates float16 in float16, so its float16 results are less accurate);
 * complex input gives the real dtype.  An empty reduction, or N <= correction, gives NaN
 * or inf as in NumPy (without its warning).
 *
 * @param x the input (borrowed)
 * @param naxes the number of entries of @p axes
 * @param axes the axes to reduce, or NULL for all
 * @param correction the degrees of freedom subtracted from N (0: population variance,
 *        1: the sample variance); finite and >= 0
 * @param keepdims keep reduced axes as size-1 dims
 * @param out NULL, or the array to write (its shape must be the result's)
 * @param[out] result the result, or @p out retained; may be NULL when @p out is given
 * @return 0 on success
 * @retval USMARR_ERROR_INVALID_ARGUMENT NULL @p x, NULL @p result without @p out,
 *         @p naxes out of [0, ndim], a repeated axis, a negative or non-finite @p correction
 * @retval USMARR_ERROR_INDEX an axis out of range
 * @retval USMARR_ERROR_SHAPE_MISMATCH @p out is not of the result's shape
 * @retval USMARR_ERROR_CASTING the result dtype does not cast to @p out's (same_kind)
 * @retval USMARR_ERROR_CONTEXT_MISMATCH, USMARR_ERROR_READ_ONLY as for usmarr_matmul()
 * @retval USMARR_ERROR_UNSUPPORTED float64 computation on a device without fp64 */
USMARR_API USMARR_NODISCARD int usmarr_var(const usmarr_array_t *x, int naxes, const int *axes, double correction,
                                           bool keepdims, usmarr_array_t *out, usmarr_array_t **result);

/** @brief NumPy's `std(x, axis, ddof=correction, keepdims)`: the square root of usmarr_var().
 *  Arguments, dtypes and errors as usmarr_var(). */
USMARR_API USMARR_NODISCARD int usmarr_std(const usmarr_array_t *x, int naxes, const int *axes, double correction,
                                           bool keepdims, usmarr_array_t *out, usmarr_array_t **result);

/** @} */

#endif
