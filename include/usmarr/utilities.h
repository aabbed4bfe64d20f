/* Part of usmarr.h: include <usmarr.h>, not this file. */
#ifndef USMARR_H_INSIDE
#error "include <usmarr.h> instead of usmarr/utilities.h"
#endif
#ifndef USMARR_UTILITIES_H
#define USMARR_UTILITIES_H

/** @name Data type information and array utilities
 * The array API's `finfo`, `iinfo`, `isdtype`, `unstack`, `meshgrid`, `tril`, `triu`, and
 * NumPy's `isclose` and `allclose` (doc/core.md: dtype information; doc/indexing.md:
 * unstack, meshgrid, tril, triu; doc/ops.md: isclose, allclose).
 * @{ */

/** Machine limits of a floating dtype (the array API's `finfo` object). */
typedef struct usmarr_finfo {
    int bits;               /**< size in bits of the (real) dtype */
    double eps;             /**< the difference between 1 and the next representable value */
    double max;             /**< the largest finite value */
    double min;             /**< the smallest (most negative) finite value, -max */
    double smallest_normal; /**< the smallest positive normal value */
    usmarr_dtype_t dtype;   /**< the real dtype described (float32 for complex64) */
} usmarr_finfo_t;

/** Limits of an integer dtype (the array API's `iinfo` object). */
typedef struct usmarr_iinfo {
    int bits;             /**< size in bits */
    int64_t min;          /**< the smallest value */
    uint64_t max;         /**< the largest value (uint64's does not fit int64) */
    usmarr_dtype_t dtype; /**< the dtype described */
} usmarr_iinfo_t;

/** @brief NumPy's `finfo(dtype)`: float16/32/64, and complex dtypes (their real part's).
 *  @param dtype a floating or complex dtype
 *  @param[out] info the limits
 *  @return 0 on success
 *  @retval USMARR_ERROR_INVALID_ARGUMENT @p info is NULL
 *  @retval USMARR_ERROR_BAD_DTYPE @p dtype is not a floating or complex dtype */
USMARR_API USMARR_NODISCARD int usmarr_finfo(usmarr_dtype_t dtype, usmarr_finfo_t *info);

/** @brief NumPy's `iinfo(dtype)` for the signed and unsigned integer dtypes.
 *  @param dtype an integer dtype
 *  @param[out] info the limits
 *  @return 0 on success
 *  @retval USMARR_ERROR_INVALID_ARGUMENT @p info is NULL
 *  @retval USMARR_ERROR_BAD_DTYPE @p dtype is not an integer dtype (bool included) */
USMARR_API USMARR_NODISCARD int usmarr_iinfo(usmarr_dtype_t dtype, usmarr_iinfo_t *info);

/** @brief The array API's `isdtype(dtype, kind)`.
 *
 * @p kind is one of the standard's kind names, `"bool"`, `"signed integer"`,
 * `"unsigned integer"`, `"integral"`, `"real floating"`, `"complex floating"`,
 * `"numeric"`, or a dtype name (`"float32"`: that dtype only); several separated by
 * commas (`"bool, integral"`) mean any of them, as the standard's tuple form.
 *
 * @param dtype the dtype to classify
 * @param kind the kind(s)
 * @param[out] result whether @p dtype is of (one of) the kind(s)
 * @return 0 on success
 * @retval USMARR_ERROR_INVALID_ARGUMENT NULL @p kind or @p result, an empty or unknown kind
 *         (the detail quotes it)
 * @retval USMARR_ERROR_BAD_DTYPE @p dtype is not a ::usmarr_dtype_t */
USMARR_API USMARR_NODISCARD int usmarr_isdtype(usmarr_dtype_t dtype, const char *kind, bool *result);

/** @brief The array API's `unstack(x, axis)`: the views `x[..., i, ...]` along @p axis.
 *  @param x the array, at least 1-D (borrowed)
 *  @param axis the axis (negative counts from the end)
 *  @param views where to store the shape[axis] views, each with one reference
 *  @param capacity the room in @p views
 *  @param[out] count the number of views, shape[axis] (also set when @p capacity is too small)
 *  @return 0 on success
 *  @retval USMARR_ERROR_INVALID_ARGUMENT NULL @p x or @p count, NULL @p views with a
 *          non-zero count, @p capacity below shape[axis] (nothing is stored then)
 *  @retval USMARR_ERROR_INDEX @p axis out of range (a 0-d @p x has none) */
USMARR_API USMARR_NODISCARD int usmarr_unstack(const usmarr_array_t *x, int axis, usmarr_array_t **views,
                                               size_t capacity, size_t *count);

/** @brief NumPy's `meshgrid(*arrays, indexing)`: coordinate arrays, as new C-ordered copies.
 *
 * With n 1-D inputs of lengths (N0, ..., Nn-1), every result has shape (N0, N1, ...) for
 * `"ij"` indexing and (N1, N0, N2, ...) for `"xy"` (Cartesian, NumPy's default);
 * result i holds input i along its own dimension.  Inputs of more dims are flattened, as
 * NumPy's.
 *
 * @param count the number of inputs (and results), 1 to ::USMARR_MAX_NDIM
 * @param arrays the inputs (borrowed), of one context
 * @param indexing `"xy"` or `"ij"`
 * @param[out] results @p count new arrays, each with one reference
 * @return 0 on success
 * @retval USMARR_ERROR_INVALID_ARGUMENT NULL arguments, @p count out of range, unknown @p indexing
 * @retval USMARR_ERROR_CONTEXT_MISMATCH inputs of different contexts */
USMARR_API USMARR_NODISCARD int usmarr_meshgrid(int count, const usmarr_array_t *const *arrays, const char *indexing,
                                                usmarr_array_t **results);

/** @brief NumPy's `tril(x, k)`: @p x with the elements above diagonal @p k set to zero.
 *
 * Works on the last two axes (rows i, columns j) of an array of at least 2 dims; the
 * leading (batch) dims are kept, each matrix treated alike.  Element (..., i, j) is kept
 * where j - i <= @p k (0 the main diagonal, positive above it, negative below; any value,
 * so a @p k past the matrix keeps all or nothing).  One pass over the elements.
 *
 * @param x the input (borrowed), at least 2-d, any dtype and layout
 * @param k the diagonal
 * @param out NULL, or a writable array of @p x's shape whose dtype @p x's casts to
 *        (same_kind); it may be @p x itself (in place)
 * @param[out] result the result (a new C-ordered array of @p x's dtype, or @p out
 *        retained); may be NULL when @p out is given
 * @return 0 on success
 * @retval USMARR_ERROR_INVALID_ARGUMENT NULL @p x, NULL @p result without @p out
 * @retval USMARR_ERROR_SHAPE_MISMATCH @p x has fewer than 2 dims (NumPy's 1-d
 *         broadcasting is not followed: doc/indexing.md), @p out's shape is not @p x's
 * @retval USMARR_ERROR_CASTING @p x's dtype does not cast to @p out's (same_kind)
 * @retval USMARR_ERROR_CONTEXT_MISMATCH @p out belongs to another context
 * @retval USMARR_ERROR_READ_ONLY @p out is not writable */
USMARR_API USMARR_NODISCARD int usmarr_tril(const usmarr_array_t *x, int64_t k, usmarr_array_t *out,
                                            usmarr_array_t **result);

/** @brief NumPy's `triu(x, k)`: @p x with the elements below diagonal @p k set to zero
 *  (element (..., i, j) is kept where j - i >= @p k).  Everything else as usmarr_tril(). */
USMARR_API USMARR_NODISCARD int usmarr_triu(const usmarr_array_t *x, int64_t k, usmarr_array_t *out,
                                            usmarr_array_t **result);

/** @brief NumPy's `isclose(a, b, rtol, atol, equal_nan)`: elementwise
 *  `|a - b| <= atol + rtol * |b|` for a finite @p b, or `a == b`.
 *
 * NumPy 2's definition, which is not symmetric in @p a and @p b: infinities are close only
 * to the same infinity; NaN is close to nothing, or to NaN with @p equal_nan (for complex
 * values: a NaN in either part); complex values compare by the magnitude of the
 * difference.  The inputs broadcast together.  A bool or integer @p b counts as float64
 * (NumPy makes `b` inexact), so the computation runs in the promoted dtype of @p a and
 * that (int8 with int8 computes in float64, float32 with float16 in float32); @p rtol and
 * @p atol are converted to its real dtype as NumPy's weak Python floats are.  This is the
 * elementwise table's function `"isclose"` (usmarr_elementwise() runs it with NumPy's
 * defaults 1e-5, 1e-8, false).  Any @p rtol and @p atol are accepted, as NumPy does.
 *
 * @param a the first input (borrowed)
 * @param b the second input (borrowed), the reference of the relative tolerance
 * @param rtol the relative tolerance
 * @param atol the absolute tolerance
 * @param equal_nan NaN is close to NaN
 * @param out NULL, or a writable array of the broadcast shape (bool, or any dtype bool casts to)
 * @param[out] result the bool result (or @p out retained); may be NULL when @p out is given
 * @return 0 on success, or one of the errors of usmarr_elementwise()
 * @retval USMARR_ERROR_INVALID_ARGUMENT NULL @p a or @p b, NULL @p result without @p out
 * @retval USMARR_ERROR_SHAPE_MISMATCH the inputs (or @p out) do not broadcast
 * @retval USMARR_ERROR_CONTEXT_MISMATCH arrays of different contexts
 * @retval USMARR_ERROR_READ_ONLY @p out is not writable
 * @retval USMARR_ERROR_UNSUPPORTED the computation needs fp64 and the device has none */
USMARR_API USMARR_NODISCARD int usmarr_isclose(const usmarr_array_t *a, const usmarr_array_t *b, double rtol,
                                               double atol, bool equal_nan, usmarr_array_t *out,
                                               usmarr_array_t **result);

/** @brief NumPy's `allclose(a, b, rtol, atol, equal_nan)`: whether usmarr_isclose() holds
 *  for every element (true for no elements).  Waits for the result.
 *  @param a the values compared (as in usmarr_isclose())
 *  @param b the reference values
 *  @param rtol relative tolerance
 *  @param atol absolute tolerance
 *  @param equal_nan whether NaN is close to NaN
 *  @param[out] result the answer
 *  @return 0 on success, or one of the errors of usmarr_isclose() (their details name
 *          isclose); USMARR_ERROR_INVALID_ARGUMENT for a NULL @p result */
USMARR_API USMARR_NODISCARD int usmarr_allclose(const usmarr_array_t *a, const usmarr_array_t *b, double rtol,
                                                double atol, bool equal_nan, bool *result);

/** @} */

#endif
