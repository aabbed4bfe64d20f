/* Part of usmarr.h: include <usmarr.h>, not this file. */
#ifndef USMARR_H_INSIDE
#error "include <usmarr.h> instead of usmarr/reduce.h"
#endif
#ifndef USMARR_REDUCE_H
#define USMARR_REDUCE_H

/** @name Reductions
 *
 * `usmarr_<reduction>(x, naxes, axes, keepdims, out, result)` reduces @p x over the axes
 * listed in @p axes (negative counts from the end; @p axes NULL means every axis, a
 * non-NULL @p axes with @p naxes 0 reduces nothing), keeping them as extent-1 dims when
 * @p keepdims.  The result convention is the elementwise one (usmarr/ops.h: the result
 * dtype casts to @p out's under same_kind; @p out must have the result's shape exactly).
 *
 * Result dtypes follow NumPy: sum and prod of bool and signed integers give int64, of
 * unsigned integers uint64, of floats and complex their own dtype (float16 accumulates in
 * float32); mean gives float64 for bool and integers; min/max keep the dtype; argmin/argmax
 * and count_nonzero give int64; all/any give bool.  min/max propagate NaN, argmin/argmax
 * give the first occurrence (the first NaN when there is one), as a flat C-order index
 * over the reduced axes (over all axes: NumPy's `axis=None` index).  Over an empty
 * selection sum gives 0, prod 1, mean NaN, all true, any false, count_nonzero 0, and
 * min/max/argmin/argmax fail with ::USMARR_ERROR_EMPTY.  Complex min/max/argmin/argmax
 * order lexicographically, as NumPy.
 * @{ */

/** @brief Applies the reduction @p name ("sum", "prod", "mean", "min", "max", "argmin",
 *  "argmax", "all", "any", "count_nonzero", and usmarr/stats.h's "logsumexp" and
 *  "reduce_hypot") — the generic form of the functions below.
 *  @param name the reduction
 *  @param x the input (borrowed)
 *  @param naxes the number of entries of @p axes
 *  @param axes the axes to reduce, or NULL for all
 *  @param keepdims keep reduced axes as extent-1 dims
 *  @param out NULL, or the array to write
 *  @param[out] result the result, or @p out retained; may be NULL when @p out is given
 *  @return 0 on success
 *  @retval USMARR_ERROR_INVALID_ARGUMENT unknown @p name, NULL @p x, @p naxes outside
 *          [0, ndim], a repeated axis, NULL @p result without @p out
 *  @retval USMARR_ERROR_INDEX an axis out of range
 *  @retval USMARR_ERROR_EMPTY min/max/argmin/argmax over an empty selection
 *  @retval USMARR_ERROR_UNSUPPORTED the result needs fp64 and the device has none
 *  @retval USMARR_ERROR_CONTEXT_MISMATCH @p out belongs to another context
 *  @retval USMARR_ERROR_SHAPE_MISMATCH @p out does not have the result's shape
 *  @retval USMARR_ERROR_READ_ONLY @p out is not writable
 *  @retval USMARR_ERROR_CASTING the result dtype does not cast to @p out's under same_kind
 *  @retval USMARR_ERROR_ALLOCATION a temporary or the result could not be allocated
 *  @retval USMARR_ERROR_BUILD a kernel failed to build */
USMARR_API USMARR_NODISCARD int usmarr_reduce(const char *name, const usmarr_array_t *x, int naxes, const int *axes,
                                              bool keepdims, usmarr_array_t *out, usmarr_array_t **result);

/** @brief The sum over @p axes.  Arguments, results and errors: usmarr_reduce().
 *  @param x the input (borrowed)
 *  @param naxes the number of entries of @p axes
 *  @param axes the axes to reduce, or NULL for all
 *  @param keepdims keep reduced axes as extent-1 dims
 *  @param out NULL, or the array to write
 *  @param[out] result the result, or @p out retained; may be NULL when @p out is given
 *  @return 0 on success, or one of the errors of usmarr_reduce() */
USMARR_API USMARR_NODISCARD int usmarr_sum(const usmarr_array_t *x, int naxes, const int *axes, bool keepdims,
                                        usmarr_array_t *out, usmarr_array_t **result);
/** @brief The product over @p axes.  Arguments, results and errors: usmarr_reduce().
 *  @param x the input (borrowed)
 *  @param naxes the number of entries of @p axes
 *  @param axes the axes to reduce, or NULL for all
 *  @param keepdims keep reduced axes as extent-1 dims
 *  @param out NULL, or the array to write
 *  @param[out] result the result, or @p out retained; may be NULL when @p out is given
 *  @return 0 on success, or one of the errors of usmarr_reduce() */
USMARR_API USMARR_NODISCARD int usmarr_prod(const usmarr_array_t *x, int naxes, const int *axes, bool keepdims,
                                        usmarr_array_t *out, usmarr_array_t **result);
/** @brief The arithmetic mean over @p axes.  Arguments, results and errors: usmarr_reduce().
 *  @param x the input (borrowed)
 *  @param naxes the number of entries of @p axes
 *  @param axes the axes to reduce, or NULL for all
 *  @param keepdims keep reduced axes as extent-1 dims
 *  @param out NULL, or the array to write
 *  @param[out] result the result, or @p out retained; may be NULL when @p out is given
 *  @return 0 on success, or one of the errors of usmarr_reduce() */
USMARR_API USMARR_NODISCARD int usmarr_mean(const usmarr_array_t *x, int naxes, const int *axes, bool keepdims,
                                        usmarr_array_t *out, usmarr_array_t **result);
/** @brief The minimum (NaN if any is NaN) over @p axes.  Arguments, results and errors: usmarr_reduce().
 *  @param x the input (borrowed)
 *  @param naxes the number of entries of @p axes
 *  @param axes the axes to reduce, or NULL for all
 *  @param keepdims keep reduced axes as extent-1 dims
 *  @param out NULL, or the array to write
 *  @param[out] result the result, or @p out retained; may be NULL when @p out is given
 *  @return 0 on success, or one of the errors of usmarr_reduce() */
USMARR_API USMARR_NODISCARD int usmarr_min(const usmarr_array_t *x, int naxes, const int *axes, bool keepdims,
                                        usmarr_array_t *out, usmarr_array_t **result);
/** @brief The maximum (NaN if any is NaN) over @p axes.  Arguments, results and errors: usmarr_reduce().
 *  @param x the input (borrowed)
 *  @param naxes the number of entries of @p axes
 *  @param axes the axes to reduce, or NULL for all
 *  @param keepdims keep reduced axes as extent-1 dims
 *  @param out NULL, or the array to write
 *  @param[out] result the result, or @p out retained; may be NULL when @p out is given
 *  @return 0 on success, or one of the errors of usmarr_reduce() */
USMARR_API USMARR_NODISCARD int usmarr_max(const usmarr_array_t *x, int naxes, const int *axes, bool keepdims,
                                        usmarr_array_t *out, usmarr_array_t **result);
/** @brief The index of the first minimum over @p axes.  Arguments, results and errors: usmarr_reduce().
 *  @param x the input (borrowed)
 *  @param naxes the number of entries of @p axes
 *  @param axes the axes to reduce, or NULL for all
 *  @param keepdims keep reduced axes as extent-1 dims
 *  @param out NULL, or the array to write
 *  @param[out] result the result, or @p out retained; may be NULL when @p out is given
 *  @return 0 on success, or one of the errors of usmarr_reduce() */
USMARR_API USMARR_NODISCARD int usmarr_argmin(const usmarr_array_t *x, int naxes, const int *axes, bool keepdims,
                                        usmarr_array_t *out, usmarr_array_t **result);
/** @brief The index of the first maximum over @p axes.  Arguments, results and errors: usmarr_reduce().
 *  @param x the input (borrowed)
 *  @param naxes the number of entries of @p axes
 *  @param axes the axes to reduce, or NULL for all
 *  @param keepdims keep reduced axes as extent-1 dims
 *  @param out NULL, or the array to write
 *  @param[out] result the result, or @p out retained; may be NULL when @p out is given
 *  @return 0 on success, or one of the errors of usmarr_reduce() */
USMARR_API USMARR_NODISCARD int usmarr_argmax(const usmarr_array_t *x, int naxes, const int *axes, bool keepdims,
                                        usmarr_array_t *out, usmarr_array_t **result);
/** @brief Whether every element is nonzero over @p axes.  Arguments, results and errors: usmarr_reduce().
 *  @param x the input (borrowed)
 *  @param naxes the number of entries of @p axes
 *  @param axes the axes to reduce, or NULL for all
 *  @param keepdims keep reduced axes as extent-1 dims
 *  @param out NULL, or the array to write
 *  @param[out] result the result, or @p out retained; may be NULL when @p out is given
 *  @return 0 on success, or one of the errors of usmarr_reduce() */
USMARR_API USMARR_NODISCARD int usmarr_all(const usmarr_array_t *x, int naxes, const int *axes, bool keepdims,
                                        usmarr_array_t *out, usmarr_array_t **result);
/** @brief Whether some element is nonzero over @p axes.  Arguments, results and errors: usmarr_reduce().
 *  @param x the input (borrowed)
 *  @param naxes the number of entries of @p axes
 *  @param axes the axes to reduce, or NULL for all
 *  @param keepdims keep reduced axes as extent-1 dims
 *  @param out NULL, or the array to write
 *  @param[out] result the result, or @p out retained; may be NULL when @p out is given
 *  @return 0 on success, or one of the errors of usmarr_reduce() */
USMARR_API USMARR_NODISCARD int usmarr_any(const usmarr_array_t *x, int naxes, const int *axes, bool keepdims,
                                        usmarr_array_t *out, usmarr_array_t **result);
/** @brief The number of nonzero elements over @p axes.  Arguments, results and errors: usmarr_reduce().
 *  @param x the input (borrowed)
 *  @param naxes the number of entries of @p axes
 *  @param axes the axes to reduce, or NULL for all
 *  @param keepdims keep reduced axes as extent-1 dims
 *  @param out NULL, or the array to write
 *  @param[out] result the result, or @p out retained; may be NULL when @p out is given
 *  @return 0 on success, or one of the errors of usmarr_reduce() */
USMARR_API USMARR_NODISCARD int usmarr_count_nonzero(const usmarr_array_t *x, int naxes, const int *axes, bool keepdims,
                                        usmarr_array_t *out, usmarr_array_t **result);

/** @brief The cumulative sum along @p axis (NumPy `cumsum`, array API `cumulative_sum`),
 *  accumulated in the sum dtype (int64 for bool and signed integers, ...).  The array
 *  API's `include_initial` and the other cumulative functions: usmarr_cumulative()
 *  (usmarr/stats.h).
 *  @param x the input (borrowed)
 *  @param axis pointer to the axis (negative counts from the end), or NULL to sum the
 *         flattened C-order array into a 1-d result
 *  @param out NULL, or the array to write (the result's shape)
 *  @param[out] result the result, or @p out retained; may be NULL when @p out is given
 *  @return 0 on success
 *  @retval USMARR_ERROR_INVALID_ARGUMENT NULL @p x, NULL @p result without @p out
 *  @retval USMARR_ERROR_INDEX @p axis out of range
 *  @retval USMARR_ERROR_SHAPE_MISMATCH @p out does not have the result's shape
 *  @retval USMARR_ERROR_CASTING the result dtype does not cast to @p out's under same_kind
 *  @retval USMARR_ERROR_READ_ONLY @p out is not writable
 *  @retval USMARR_ERROR_CONTEXT_MISMATCH @p out belongs to another context */
USMARR_API USMARR_NODISCARD int usmarr_cumulative_sum(const usmarr_array_t *x, const int *axis, usmarr_array_t *out,
                                                      usmarr_array_t **result);

/** @} */

#endif
