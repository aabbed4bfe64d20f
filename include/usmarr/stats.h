/* Part of usmarr.h: include <usmarr.h>, not this file. */
#ifndef USMARR_H_INSIDE
#error "include <usmarr.h> instead of usmarr/stats.h"
#endif
#ifndef USMARR_STATS_H
#define USMARR_STATS_H

/** @name Statistics
 * Reductions beyond usmarr/reduce.h's, with NumPy 2's semantics (doc/ops.md).  Axes as in
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

/** @brief NumPy's `logaddexp.reduce(x, axis, keepdims)` (dpctl's `logsumexp`): log(sum(exp(x)))
 *  over the axes, computed as m + log(sum(exp(x - m))) with m the largest element, so it
 *  neither overflows nor underflows.
 *
 * Bool and integer input gives float64, floats keep their dtype (float16 is computed in
 * float32 and rounded once); complex input is rejected (NumPy has no complex logaddexp).
 * Special values as NumPy's logaddexp: NaN if any element is NaN, else +inf if any is
 * +inf; an empty reduction or all -inf gives -inf.  Also usmarr_reduce("logsumexp", ...).
 *
 * @param x the input (borrowed)
 * @param naxes the number of entries of @p axes
 * @param axes the axes to reduce, or NULL for all
 * @param keepdims keep reduced axes as size-1 dims
 * @param out NULL, or the array to write (its shape must be the result's)
 * @param[out] result the result, or @p out retained; may be NULL when @p out is given
 * @return 0 on success
 * @retval USMARR_ERROR_INVALID_ARGUMENT NULL @p x, NULL @p result without @p out,
 *         @p naxes out of [0, ndim], a repeated axis
 * @retval USMARR_ERROR_INDEX an axis out of range
 * @retval USMARR_ERROR_BAD_DTYPE complex @p x
 * @retval USMARR_ERROR_SHAPE_MISMATCH @p out is not of the result's shape
 * @retval USMARR_ERROR_CASTING the result dtype does not cast to @p out's (same_kind)
 * @retval USMARR_ERROR_CONTEXT_MISMATCH, USMARR_ERROR_READ_ONLY an unusable @p out
 * @retval USMARR_ERROR_UNSUPPORTED float64 result on a device without fp64 */
USMARR_API USMARR_NODISCARD int usmarr_logsumexp(const usmarr_array_t *x, int naxes, const int *axes, bool keepdims,
                                                 usmarr_array_t *out, usmarr_array_t **result);

/** @brief NumPy's `hypot.reduce(x, axis, keepdims)` (dpctl's `reduce_hypot`): sqrt(sum(x^2))
 *  over the axes, scaled by the largest |x| so that it neither overflows nor underflows
 *  (the hypot of 1e300 and 1e300 is 1.41e300).
 *
 * dtypes as usmarr_logsumexp().  Special values as NumPy's hypot: +inf if any element is
 * infinite (even beside a NaN), else NaN if any is NaN; an empty reduction gives 0.  Also
 * usmarr_reduce("reduce_hypot", ...).  Arguments and errors as usmarr_logsumexp().
 *
 * @param x the input (borrowed)
 * @param naxes the number of entries of @p axes
 * @param axes the axes to reduce, or NULL for all
 * @param keepdims keep reduced axes as size-1 dims
 * @param out NULL, or the array to write (its shape must be the result's)
 * @param[out] result the result, or @p out retained; may be NULL when @p out is given
 * @return 0 on success, or one of the errors of usmarr_logsumexp() */
USMARR_API USMARR_NODISCARD int usmarr_reduce_hypot(const usmarr_array_t *x, int naxes, const int *axes,
                                                    bool keepdims, usmarr_array_t *out, usmarr_array_t **result);

/** The cumulative functions of usmarr_cumulative(). */
typedef enum {
    USMARR_CUMULATIVE_SUM,      /**< the running sum (usmarr_cumulative_sum()); identity 0 */
    USMARR_CUMULATIVE_PROD,     /**< the running product; identity 1 */
    USMARR_CUMULATIVE_LOGSUMEXP /**< the running logsumexp (np.logaddexp.accumulate); identity -inf */
} usmarr_cumulative_t;

/** @brief The cumulative function @p op along @p axis: the array API's `cumulative_sum` and
 *  `cumulative_prod` (2024.12, with `include_initial`) and dpctl's `cumulative_logsumexp`.
 *
 * Result dtypes: sum and prod as usmarr_sum() and usmarr_prod() (bool and signed integers
 * int64, unsigned integers uint64, floats and complex their own); logsumexp as
 * usmarr_logsumexp() (bool and integers float64, complex rejected).  The result has @p x's
 * shape, except that the axis has one element more with @p include_initial: the identity
 * (0, 1 or -inf) comes first, as the array API says.  With @p axis NULL the input is
 * flattened in C order (NumPy's `cumsum(x)`; a 0-d input counts as one element).
 *
 * @param op the function
 * @param x the input (borrowed)
 * @param axis pointer to the axis (negative counts from the end), or NULL for the
 *        flattened array (a 1-d result)
 * @param include_initial start every line with the identity
 * @param out NULL, or the array to write (the result's shape)
 * @param[out] result the result, or @p out retained; may be NULL when @p out is given
 * @return 0 on success
 * @retval USMARR_ERROR_INVALID_ARGUMENT an unknown @p op, NULL @p x, NULL @p result
 *         without @p out
 * @retval USMARR_ERROR_INDEX @p axis out of range (any axis of a 0-d @p x)
 * @retval USMARR_ERROR_BAD_DTYPE complex @p x for ::USMARR_CUMULATIVE_LOGSUMEXP
 * @retval USMARR_ERROR_SHAPE_MISMATCH @p out does not have the result's shape
 * @retval USMARR_ERROR_CASTING the result dtype does not cast to @p out's under same_kind
 * @retval USMARR_ERROR_READ_ONLY, USMARR_ERROR_CONTEXT_MISMATCH an unusable @p out
 * @retval USMARR_ERROR_UNSUPPORTED float64 result on a device without fp64 */
USMARR_API USMARR_NODISCARD int usmarr_cumulative(usmarr_cumulative_t op, const usmarr_array_t *x, const int *axis,
                                                  bool include_initial, usmarr_array_t *out,
                                                  usmarr_array_t **result);

/** @brief usmarr_cumulative(::USMARR_CUMULATIVE_PROD, ...): the array API's `cumulative_prod`.
 *  @param x the input (borrowed)
 *  @param axis pointer to the axis, or NULL for the flattened array
 *  @param include_initial start every line with 1
 *  @param out NULL, or the array to write
 *  @param[out] result the result, or @p out retained
 *  @return 0 on success, or one of the errors of usmarr_cumulative() */
USMARR_API USMARR_NODISCARD int usmarr_cumulative_prod(const usmarr_array_t *x, const int *axis, bool include_initial,
                                                       usmarr_array_t *out, usmarr_array_t **result);

/** @brief usmarr_cumulative(::USMARR_CUMULATIVE_LOGSUMEXP, ...): dpctl's `cumulative_logsumexp`
 *  (NumPy's `logaddexp.accumulate`).
 *  @param x the input (borrowed)
 *  @param axis pointer to the axis, or NULL for the flattened array
 *  @param include_initial start every line with -inf
 *  @param out NULL, or the array to write
 *  @param[out] result the result, or @p out retained
 *  @return 0 on success, or one of the errors of usmarr_cumulative() */
USMARR_API USMARR_NODISCARD int usmarr_cumulative_logsumexp(const usmarr_array_t *x, const int *axis,
                                                            bool include_initial, usmarr_array_t *out,
                                                            usmarr_array_t **result);

/** @brief NumPy's `diff(x, n, axis, prepend, append)`: the @p n-th discrete difference
 *  along @p axis, `x[1:] - x[:-1]` applied @p n times.
 *
 * @p prepend and @p append (either may be NULL) are joined to @p x along the axis first,
 * as NumPy does: a 0-d one is broadcast to @p x's shape with the axis of length 1, any
 * other must have @p x's ndim and extents except along the axis.  The dtype is the result
 * type of @p x, @p prepend and @p append; bool differences are `not_equal` (NumPy 2: bool
 * subtraction is an error there), unsigned differences wrap around.  The result's axis has
 * max(len - n, 0) elements (len: the joined length).  @p n 0 gives a copy of @p x
 * without looking at @p axis, @p prepend and @p append (NumPy returns x first; a 0-d @p x
 * is then allowed).
 *
 * @param x the input (borrowed), at least 1-d when @p n > 0
 * @param axis the axis (negative counts from the end)
 * @param n the number of differences, >= 0
 * @param prepend NULL, or values to put before @p x along the axis (borrowed)
 * @param append NULL, or values to put after @p x along the axis (borrowed)
 * @param out NULL, or the array to write (its shape must be the result's)
 * @param[out] result the result, or @p out retained; may be NULL when @p out is given
 * @return 0 on success
 * @retval USMARR_ERROR_INVALID_ARGUMENT NULL @p x, NULL @p result without @p out, a 0-d
 *         @p x, @p n < 0, @p axis out of range
 * @retval USMARR_ERROR_SHAPE_MISMATCH @p prepend or @p append of another ndim or other
 *         extents off the axis; @p out not of the result's shape
 * @retval USMARR_ERROR_CASTING the result dtype does not cast to @p out's (same_kind)
 * @retval USMARR_ERROR_CONTEXT_MISMATCH arrays of different contexts
 * @retval USMARR_ERROR_READ_ONLY @p out is not writable */
USMARR_API USMARR_NODISCARD int usmarr_diff(const usmarr_array_t *x, int axis, int n, const usmarr_array_t *prepend,
                                            const usmarr_array_t *append, usmarr_array_t *out,
                                            usmarr_array_t **result);

/** @} */

#endif
