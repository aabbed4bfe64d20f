/* Part of usmarr.h: include <usmarr.h>, not this file. */
#ifndef USMARR_H_INSIDE
#error "include <usmarr.h> instead of usmarr/ops.h"
#endif
#ifndef USMARR_OPS_H
#define USMARR_OPS_H

/** @name Elementwise functions
 *
 * About seventy functions of NumPy / the array API, on any strides (negative, zero for
 * broadcast operands), with broadcasting, for every dtype NumPy supports them for.
 *
 * **Result convention**, as everywhere in the library (usmarr/copy.h):
 * `int usmarr_<function>(inputs..., usmarr_array_t *out, usmarr_array_t **result)`.
 * - @p out NULL: a new array (USM of the first array input's kind, C order unless that
 *   input is F-contiguous) is returned through @p result with one reference.
 * - @p out given: the result is written into @p out, which must be writable, of the same
 *   context, of a shape the inputs broadcast to, and of a dtype the result casts to under
 *   ::USMARR_CASTING_SAME_KIND (`float32 -> float16` yes, `float64 -> int32` no).  @p out
 *   may be one of the inputs (in place).  An input that shares memory with @p out in any
 *   other way than element-for-element is read completely before @p out is written (the
 *   result goes through a temporary).  @p result, when not NULL, receives @p out with
 *   one more reference.
 *
 * **Types.** The inputs promote with usmarr_result_type() (weak scalars keep an array's
 * dtype: `int8_array + 1` is int8), then the function computes in the first dtype of
 * its own list (NumPy's "loops") that the promoted dtype casts to safely: `sqrt` of int8
 * computes in float16, of int32 in float64; comparisons give bool; `abs`, `real`, `imag`
 * of complex give the real dtype.  A float64/complex128 computation on a device without
 * fp64 is an error (::USMARR_ERROR_UNSUPPORTED), never silently lowered.  float16 is
 * computed in float32 and rounded once on store.
 *
 * **Numerics**: doc/ops.md (integer division by zero, shifts past the width,
 * integer powers with negative exponents, accuracy of each transcendental in ulps).
 *
 * Work is enqueued on the context's in-order queue; the call returns without waiting.
 * @{ */

/** An operand of usmarr_elementwise(): an array, or (with @p array NULL) a scalar. */
typedef struct usmarr_operand {
    const usmarr_array_t *array; /**< borrowed; NULL to use @p scalar */
    usmarr_scalar_t scalar;      /**< weak (`dtype` -1) or typed, see ::usmarr_scalar_t */
} usmarr_operand_t;

/** @brief Applies the elementwise function @p name to arrays and scalars.
 *
 * The generic form of every function below: `usmarr_elementwise("add", ops, 2, NULL, &r)`
 * is usmarr_add() when both operands are arrays; scalar operands promote as weak or typed
 * scalars.  Also `"where"` (condition of any dtype, then two values; see usmarr_where())
 * and `"clip"` (value, lower, upper; see usmarr_clip()).
 *
 * @param name the function's name as in usmarr_<name>() ("add", "sqrt", "where", ...)
 * @param operands @p noperands operands (borrowed); at least one array, or @p out
 * @param noperands the function's arity (usmarr_elementwise_arity())
 * @param out NULL, or the array to write
 * @param[out] result the result array, or @p out retained; may be NULL when @p out is given
 * @return 0 on success
 * @retval USMARR_ERROR_INVALID_ARGUMENT unknown @p name, wrong @p noperands, NULL
 *         @p operands, no array and no @p out, NULL @p result without @p out, a scalar
 *         whose kind is none or contradicts its dtype
 * @retval USMARR_ERROR_BAD_DTYPE the function is not defined for the promoted dtype
 *         (`cbrt` of complex, `negative` of bool, shifts of float), or a scalar's dtype
 *         is neither -1 nor a dtype
 * @retval USMARR_ERROR_OVERFLOW a weak integer scalar out of range of the computation dtype
 * @retval USMARR_ERROR_UNSUPPORTED the computation or result needs fp64 and the device has none
 * @retval USMARR_ERROR_CONTEXT_MISMATCH arrays of different contexts
 * @retval USMARR_ERROR_SHAPE_MISMATCH the operands do not broadcast together, or not to @p out
 * @retval USMARR_ERROR_READ_ONLY @p out is not writable
 * @retval USMARR_ERROR_CASTING the result dtype does not cast to @p out's under same_kind
 * @retval USMARR_ERROR_ALLOCATION a temporary or the result could not be allocated
 * @retval USMARR_ERROR_BUILD a kernel failed to build (the detail has the log) */
USMARR_API USMARR_NODISCARD int usmarr_elementwise(const char *name, const usmarr_operand_t *operands,
                                                   size_t noperands, usmarr_array_t *out, usmarr_array_t **result);

/** @brief The number of operands of elementwise function @p name.
 *  @param name a function name ("add")
 *  @return 1, 2 or 3; -1 for NULL or an unknown name */
USMARR_API int usmarr_elementwise_arity(const char *name);

/** @brief The name of elementwise function number @p index, for listing them all.
 *  @param index 0, 1, ...
 *  @return a static string, or NULL past the last function */
USMARR_API const char *usmarr_elementwise_name(int index);

/** @brief Elementwise -x (integers wrap: -INT_MIN is INT_MIN); not for bool.
 *  @param x the input (borrowed)
 *  @param out NULL, or the array to write (see the result convention above)
 *  @param[out] result the result array, or @p out retained; may be NULL when @p out is given
 *  @return 0 on success, or one of the errors of usmarr_elementwise() */
USMARR_API USMARR_NODISCARD int usmarr_negative(const usmarr_array_t *x, usmarr_array_t *out, usmarr_array_t **result);

/** @brief Elementwise +x, a copy; not for bool.
 *  @param x the input (borrowed)
 *  @param out NULL, or the array to write (see the result convention above)
 *  @param[out] result the result array, or @p out retained; may be NULL when @p out is given
 *  @return 0 on success, or one of the errors of usmarr_elementwise() */
USMARR_API USMARR_NODISCARD int usmarr_positive(const usmarr_array_t *x, usmarr_array_t *out, usmarr_array_t **result);

/** @brief Elementwise |x|; the real dtype for complex input (|a+bi| = hypot(a, b)); integers wrap (abs(INT_MIN) is INT_MIN).
 *  @param x the input (borrowed)
 *  @param out NULL, or the array to write (see the result convention above)
 *  @param[out] result the result array, or @p out retained; may be NULL when @p out is given
 *  @return 0 on success, or one of the errors of usmarr_elementwise() */
USMARR_API USMARR_NODISCARD int usmarr_abs(const usmarr_array_t *x, usmarr_array_t *out, usmarr_array_t **result);

/** @brief Elementwise -1, 0 or 1 (NaN stays NaN); for complex x/|x| (0 for 0), as NumPy 2; not for bool.
 *  @param x the input (borrowed)
 *  @param out NULL, or the array to write (see the result convention above)
 *  @param[out] result the result array, or @p out retained; may be NULL when @p out is given
 *  @return 0 on success, or one of the errors of usmarr_elementwise() */
USMARR_API USMARR_NODISCARD int usmarr_sign(const usmarr_array_t *x, usmarr_array_t *out, usmarr_array_t **result);

/** @brief Elementwise 1/x; for integers 1/x truncated, with 1/0 = 0 (as NumPy).
 *  @param x the input (borrowed)
 *  @param out NULL, or the array to write (see the result convention above)
 *  @param[out] result the result array, or @p out retained; may be NULL when @p out is given
 *  @return 0 on success, or one of the errors of usmarr_elementwise() */
USMARR_API USMARR_NODISCARD int usmarr_reciprocal(const usmarr_array_t *x, usmarr_array_t *out, usmarr_array_t **result);

/** @brief Elementwise x*x.
 *  @param x the input (borrowed)
 *  @param out NULL, or the array to write (see the result convention above)
 *  @param[out] result the result array, or @p out retained; may be NULL when @p out is given
 *  @return 0 on success, or one of the errors of usmarr_elementwise() */
USMARR_API USMARR_NODISCARD int usmarr_square(const usmarr_array_t *x, usmarr_array_t *out, usmarr_array_t **result);

/** @brief Elementwise the square root (principal branch for complex).
 *  @param x the input (borrowed)
 *  @param out NULL, or the array to write (see the result convention above)
 *  @param[out] result the result array, or @p out retained; may be NULL when @p out is given
 *  @return 0 on success, or one of the errors of usmarr_elementwise() */
USMARR_API USMARR_NODISCARD int usmarr_sqrt(const usmarr_array_t *x, usmarr_array_t *out, usmarr_array_t **result);

/** @brief Elementwise the real cube root; not for complex.
 *  @param x the input (borrowed)
 *  @param out NULL, or the array to write (see the result convention above)
 *  @param[out] result the result array, or @p out retained; may be NULL when @p out is given
 *  @return 0 on success, or one of the errors of usmarr_elementwise() */
USMARR_API USMARR_NODISCARD int usmarr_cbrt(const usmarr_array_t *x, usmarr_array_t *out, usmarr_array_t **result);

/** @brief Elementwise e**x.
 *  @param x the input (borrowed)
 *  @param out NULL, or the array to write (see the result convention above)
 *  @param[out] result the result array, or @p out retained; may be NULL when @p out is given
 *  @return 0 on success, or one of the errors of usmarr_elementwise() */
USMARR_API USMARR_NODISCARD int usmarr_exp(const usmarr_array_t *x, usmarr_array_t *out, usmarr_array_t **result);

/** @brief Elementwise 2**x.
 *  @param x the input (borrowed)
 *  @param out NULL, or the array to write (see the result convention above)
 *  @param[out] result the result array, or @p out retained; may be NULL when @p out is given
 *  @return 0 on success, or one of the errors of usmarr_elementwise() */
USMARR_API USMARR_NODISCARD int usmarr_exp2(const usmarr_array_t *x, usmarr_array_t *out, usmarr_array_t **result);

/** @brief Elementwise e**x - 1, accurate near 0.
 *  @param x the input (borrowed)
 *  @param out NULL, or the array to write (see the result convention above)
 *  @param[out] result the result array, or @p out retained; may be NULL when @p out is given
 *  @return 0 on success, or one of the errors of usmarr_elementwise() */
USMARR_API USMARR_NODISCARD int usmarr_expm1(const usmarr_array_t *x, usmarr_array_t *out, usmarr_array_t **result);

/** @brief Elementwise the natural logarithm.
 *  @param x the input (borrowed)
 *  @param out NULL, or the array to write (see the result convention above)
 *  @param[out] result the result array, or @p out retained; may be NULL when @p out is given
 *  @return 0 on success, or one of the errors of usmarr_elementwise() */
USMARR_API USMARR_NODISCARD int usmarr_log(const usmarr_array_t *x, usmarr_array_t *out, usmarr_array_t **result);

/** @brief Elementwise the base-2 logarithm.
 *  @param x the input (borrowed)
 *  @param out NULL, or the array to write (see the result convention above)
 *  @param[out] result the result array, or @p out retained; may be NULL when @p out is given
 *  @return 0 on success, or one of the errors of usmarr_elementwise() */
USMARR_API USMARR_NODISCARD int usmarr_log2(const usmarr_array_t *x, usmarr_array_t *out, usmarr_array_t **result);

/** @brief Elementwise the base-10 logarithm.
 *  @param x the input (borrowed)
 *  @param out NULL, or the array to write (see the result convention above)
 *  @param[out] result the result array, or @p out retained; may be NULL when @p out is given
 *  @return 0 on success, or one of the errors of usmarr_elementwise() */
USMARR_API USMARR_NODISCARD int usmarr_log10(const usmarr_array_t *x, usmarr_array_t *out, usmarr_array_t **result);

/** @brief Elementwise log(1 + x), accurate near 0.
 *  @param x the input (borrowed)
 *  @param out NULL, or the array to write (see the result convention above)
 *  @param[out] result the result array, or @p out retained; may be NULL when @p out is given
 *  @return 0 on success, or one of the errors of usmarr_elementwise() */
USMARR_API USMARR_NODISCARD int usmarr_log1p(const usmarr_array_t *x, usmarr_array_t *out, usmarr_array_t **result);

/** @brief Elementwise the sine.
 *  @param x the input (borrowed)
 *  @param out NULL, or the array to write (see the result convention above)
 *  @param[out] result the result array, or @p out retained; may be NULL when @p out is given
 *  @return 0 on success, or one of the errors of usmarr_elementwise() */
USMARR_API USMARR_NODISCARD int usmarr_sin(const usmarr_array_t *x, usmarr_array_t *out, usmarr_array_t **result);

/** @brief Elementwise the cosine.
 *  @param x the input (borrowed)
 *  @param out NULL, or the array to write (see the result convention above)
 *  @param[out] result the result array, or @p out retained; may be NULL when @p out is given
 *  @return 0 on success, or one of the errors of usmarr_elementwise() */
USMARR_API USMARR_NODISCARD int usmarr_cos(const usmarr_array_t *x, usmarr_array_t *out, usmarr_array_t **result);

/** @brief Elementwise the tangent.
 *  @param x the input (borrowed)
 *  @param out NULL, or the array to write (see the result convention above)
 *  @param[out] result the result array, or @p out retained; may be NULL when @p out is given
 *  @return 0 on success, or one of the errors of usmarr_elementwise() */
USMARR_API USMARR_NODISCARD int usmarr_tan(const usmarr_array_t *x, usmarr_array_t *out, usmarr_array_t **result);

/** @brief Elementwise the inverse sine.
 *  @param x the input (borrowed)
 *  @param out NULL, or the array to write (see the result convention above)
 *  @param[out] result the result array, or @p out retained; may be NULL when @p out is given
 *  @return 0 on success, or one of the errors of usmarr_elementwise() */
USMARR_API USMARR_NODISCARD int usmarr_asin(const usmarr_array_t *x, usmarr_array_t *out, usmarr_array_t **result);

/** @brief Elementwise the inverse cosine.
 *  @param x the input (borrowed)
 *  @param out NULL, or the array to write (see the result convention above)
 *  @param[out] result the result array, or @p out retained; may be NULL when @p out is given
 *  @return 0 on success, or one of the errors of usmarr_elementwise() */
USMARR_API USMARR_NODISCARD int usmarr_acos(const usmarr_array_t *x, usmarr_array_t *out, usmarr_array_t **result);

/** @brief Elementwise the inverse tangent.
 *  @param x the input (borrowed)
 *  @param out NULL, or the array to write (see the result convention above)
 *  @param[out] result the result array, or @p out retained; may be NULL when @p out is given
 *  @return 0 on success, or one of the errors of usmarr_elementwise() */
USMARR_API USMARR_NODISCARD int usmarr_atan(const usmarr_array_t *x, usmarr_array_t *out, usmarr_array_t **result);

/** @brief Elementwise the hyperbolic sine.
 *  @param x the input (borrowed)
 *  @param out NULL, or the array to write (see the result convention above)
 *  @param[out] result the result array, or @p out retained; may be NULL when @p out is given
 *  @return 0 on success, or one of the errors of usmarr_elementwise() */
USMARR_API USMARR_NODISCARD int usmarr_sinh(const usmarr_array_t *x, usmarr_array_t *out, usmarr_array_t **result);

/** @brief Elementwise the hyperbolic cosine.
 *  @param x the input (borrowed)
 *  @param out NULL, or the array to write (see the result convention above)
 *  @param[out] result the result array, or @p out retained; may be NULL when @p out is given
 *  @return 0 on success, or one of the errors of usmarr_elementwise() */
USMARR_API USMARR_NODISCARD int usmarr_cosh(const usmarr_array_t *x, usmarr_array_t *out, usmarr_array_t **result);

/** @brief Elementwise the hyperbolic tangent.
 *  @param x the input (borrowed)
 *  @param out NULL, or the array to write (see the result convention above)
 *  @param[out] result the result array, or @p out retained; may be NULL when @p out is given
 *  @return 0 on success, or one of the errors of usmarr_elementwise() */
USMARR_API USMARR_NODISCARD int usmarr_tanh(const usmarr_array_t *x, usmarr_array_t *out, usmarr_array_t **result);

/** @brief Elementwise the inverse hyperbolic sine.
 *  @param x the input (borrowed)
 *  @param out NULL, or the array to write (see the result convention above)
 *  @param[out] result the result array, or @p out retained; may be NULL when @p out is given
 *  @return 0 on success, or one of the errors of usmarr_elementwise() */
USMARR_API USMARR_NODISCARD int usmarr_asinh(const usmarr_array_t *x, usmarr_array_t *out, usmarr_array_t **result);

/** @brief Elementwise the inverse hyperbolic cosine.
 *  @param x the input (borrowed)
 *  @param out NULL, or the array to write (see the result convention above)
 *  @param[out] result the result array, or @p out retained; may be NULL when @p out is given
 *  @return 0 on success, or one of the errors of usmarr_elementwise() */
USMARR_API USMARR_NODISCARD int usmarr_acosh(const usmarr_array_t *x, usmarr_array_t *out, usmarr_array_t **result);

/** @brief Elementwise the inverse hyperbolic tangent.
 *  @param x the input (borrowed)
 *  @param out NULL, or the array to write (see the result convention above)
 *  @param[out] result the result array, or @p out retained; may be NULL when @p out is given
 *  @return 0 on success, or one of the errors of usmarr_elementwise() */
USMARR_API USMARR_NODISCARD int usmarr_atanh(const usmarr_array_t *x, usmarr_array_t *out, usmarr_array_t **result);

/** @brief Elementwise the largest integral value <= x; bool and integer inputs are returned unchanged, in their dtype (array API); not for complex.
 *  @param x the input (borrowed)
 *  @param out NULL, or the array to write (see the result convention above)
 *  @param[out] result the result array, or @p out retained; may be NULL when @p out is given
 *  @return 0 on success, or one of the errors of usmarr_elementwise() */
USMARR_API USMARR_NODISCARD int usmarr_floor(const usmarr_array_t *x, usmarr_array_t *out, usmarr_array_t **result);

/** @brief Elementwise the smallest integral value >= x; bool and integers unchanged; not for complex.
 *  @param x the input (borrowed)
 *  @param out NULL, or the array to write (see the result convention above)
 *  @param[out] result the result array, or @p out retained; may be NULL when @p out is given
 *  @return 0 on success, or one of the errors of usmarr_elementwise() */
USMARR_API USMARR_NODISCARD int usmarr_ceil(const usmarr_array_t *x, usmarr_array_t *out, usmarr_array_t **result);

/** @brief Elementwise x rounded toward zero; bool and integers unchanged; not for complex.
 *  @param x the input (borrowed)
 *  @param out NULL, or the array to write (see the result convention above)
 *  @param[out] result the result array, or @p out retained; may be NULL when @p out is given
 *  @return 0 on success, or one of the errors of usmarr_elementwise() */
USMARR_API USMARR_NODISCARD int usmarr_trunc(const usmarr_array_t *x, usmarr_array_t *out, usmarr_array_t **result);

/** @brief Elementwise x rounded to the nearest integral value, halves to even (NumPy `round`/`rint`); complex parts separately; bool and integers unchanged.
 *  @param x the input (borrowed)
 *  @param out NULL, or the array to write (see the result convention above)
 *  @param[out] result the result array, or @p out retained; may be NULL when @p out is given
 *  @return 0 on success, or one of the errors of usmarr_elementwise() */
USMARR_API USMARR_NODISCARD int usmarr_round(const usmarr_array_t *x, usmarr_array_t *out, usmarr_array_t **result);

/** @brief Elementwise the complex conjugate (a copy for real input).
 *  @param x the input (borrowed)
 *  @param out NULL, or the array to write (see the result convention above)
 *  @param[out] result the result array, or @p out retained; may be NULL when @p out is given
 *  @return 0 on success, or one of the errors of usmarr_elementwise() */
USMARR_API USMARR_NODISCARD int usmarr_conj(const usmarr_array_t *x, usmarr_array_t *out, usmarr_array_t **result);

/** @brief Elementwise the real part, in the real dtype (a copy for real input).
 *  @param x the input (borrowed)
 *  @param out NULL, or the array to write (see the result convention above)
 *  @param[out] result the result array, or @p out retained; may be NULL when @p out is given
 *  @return 0 on success, or one of the errors of usmarr_elementwise() */
USMARR_API USMARR_NODISCARD int usmarr_real(const usmarr_array_t *x, usmarr_array_t *out, usmarr_array_t **result);

/** @brief Elementwise the imaginary part, in the real dtype (zeros for real input).
 *  @param x the input (borrowed)
 *  @param out NULL, or the array to write (see the result convention above)
 *  @param[out] result the result array, or @p out retained; may be NULL when @p out is given
 *  @return 0 on success, or one of the errors of usmarr_elementwise() */
USMARR_API USMARR_NODISCARD int usmarr_imag(const usmarr_array_t *x, usmarr_array_t *out, usmarr_array_t **result);

/** @brief Elementwise whether x is NaN (either part for complex); a bool array.
 *  @param x the input (borrowed)
 *  @param out NULL, or the array to write (see the result convention above)
 *  @param[out] result the result array, or @p out retained; may be NULL when @p out is given
 *  @return 0 on success, or one of the errors of usmarr_elementwise() */
USMARR_API USMARR_NODISCARD int usmarr_isnan(const usmarr_array_t *x, usmarr_array_t *out, usmarr_array_t **result);

/** @brief Elementwise whether x is infinite (either part for complex); a bool array.
 *  @param x the input (borrowed)
 *  @param out NULL, or the array to write (see the result convention above)
 *  @param[out] result the result array, or @p out retained; may be NULL when @p out is given
 *  @return 0 on success, or one of the errors of usmarr_elementwise() */
USMARR_API USMARR_NODISCARD int usmarr_isinf(const usmarr_array_t *x, usmarr_array_t *out, usmarr_array_t **result);

/** @brief Elementwise whether x is finite (both parts for complex); a bool array.
 *  @param x the input (borrowed)
 *  @param out NULL, or the array to write (see the result convention above)
 *  @param[out] result the result array, or @p out retained; may be NULL when @p out is given
 *  @return 0 on success, or one of the errors of usmarr_elementwise() */
USMARR_API USMARR_NODISCARD int usmarr_isfinite(const usmarr_array_t *x, usmarr_array_t *out, usmarr_array_t **result);

/** @brief Elementwise whether the sign bit is set (-0.0 and -NaN included); a bool array; not for complex.
 *  @param x the input (borrowed)
 *  @param out NULL, or the array to write (see the result convention above)
 *  @param[out] result the result array, or @p out retained; may be NULL when @p out is given
 *  @return 0 on success, or one of the errors of usmarr_elementwise() */
USMARR_API USMARR_NODISCARD int usmarr_signbit(const usmarr_array_t *x, usmarr_array_t *out, usmarr_array_t **result);

/** @brief Elementwise !x (x != 0); a bool array.
 *  @param x the input (borrowed)
 *  @param out NULL, or the array to write (see the result convention above)
 *  @param[out] result the result array, or @p out retained; may be NULL when @p out is given
 *  @return 0 on success, or one of the errors of usmarr_elementwise() */
USMARR_API USMARR_NODISCARD int usmarr_logical_not(const usmarr_array_t *x, usmarr_array_t *out, usmarr_array_t **result);

/** @brief Elementwise ~x for integers, logical not for bool (NumPy `invert`).
 *  @param x the input (borrowed)
 *  @param out NULL, or the array to write (see the result convention above)
 *  @param[out] result the result array, or @p out retained; may be NULL when @p out is given
 *  @return 0 on success, or one of the errors of usmarr_elementwise() */
USMARR_API USMARR_NODISCARD int usmarr_bitwise_invert(const usmarr_array_t *x, usmarr_array_t *out, usmarr_array_t **result);

/** @brief Elementwise x1 + x2 (logical or for bool).
 *  @param x1 the first input (borrowed)
 *  @param x2 the second input (borrowed); the inputs broadcast together
 *  @param out NULL, or the array to write (see the result convention above)
 *  @param[out] result the result array, or @p out retained; may be NULL when @p out is given
 *  @return 0 on success, or one of the errors of usmarr_elementwise() */
USMARR_API USMARR_NODISCARD int usmarr_add(const usmarr_array_t *x1, const usmarr_array_t *x2, usmarr_array_t *out,
                                        usmarr_array_t **result);

/** @brief Elementwise x1 - x2; not for bool.
 *  @param x1 the first input (borrowed)
 *  @param x2 the second input (borrowed); the inputs broadcast together
 *  @param out NULL, or the array to write (see the result convention above)
 *  @param[out] result the result array, or @p out retained; may be NULL when @p out is given
 *  @return 0 on success, or one of the errors of usmarr_elementwise() */
USMARR_API USMARR_NODISCARD int usmarr_subtract(const usmarr_array_t *x1, const usmarr_array_t *x2, usmarr_array_t *out,
                                        usmarr_array_t **result);

/** @brief Elementwise x1 * x2 (logical and for bool).
 *  @param x1 the first input (borrowed)
 *  @param x2 the second input (borrowed); the inputs broadcast together
 *  @param out NULL, or the array to write (see the result convention above)
 *  @param[out] result the result array, or @p out retained; may be NULL when @p out is given
 *  @return 0 on success, or one of the errors of usmarr_elementwise() */
USMARR_API USMARR_NODISCARD int usmarr_multiply(const usmarr_array_t *x1, const usmarr_array_t *x2, usmarr_array_t *out,
                                        usmarr_array_t **result);

/** @brief Elementwise x1 / x2 (true division; bool and integer inputs give float64, as NumPy).
 *  @param x1 the first input (borrowed)
 *  @param x2 the second input (borrowed); the inputs broadcast together
 *  @param out NULL, or the array to write (see the result convention above)
 *  @param[out] result the result array, or @p out retained; may be NULL when @p out is given
 *  @return 0 on success, or one of the errors of usmarr_elementwise() */
USMARR_API USMARR_NODISCARD int usmarr_divide(const usmarr_array_t *x1, const usmarr_array_t *x2, usmarr_array_t *out,
                                        usmarr_array_t **result);

/** @brief Elementwise floor(x1 / x2), NumPy's `//` (integer division by zero gives 0); not for complex.
 *  @param x1 the first input (borrowed)
 *  @param x2 the second input (borrowed); the inputs broadcast together
 *  @param out NULL, or the array to write (see the result convention above)
 *  @param[out] result the result array, or @p out retained; may be NULL when @p out is given
 *  @return 0 on success, or one of the errors of usmarr_elementwise() */
USMARR_API USMARR_NODISCARD int usmarr_floor_divide(const usmarr_array_t *x1, const usmarr_array_t *x2, usmarr_array_t *out,
                                        usmarr_array_t **result);

/** @brief Elementwise x1 - floor_divide(x1, x2) * x2 with the sign of x2, NumPy's `%` (integer x % 0 gives 0); not for complex.
 *  @param x1 the first input (borrowed)
 *  @param x2 the second input (borrowed); the inputs broadcast together
 *  @param out NULL, or the array to write (see the result convention above)
 *  @param[out] result the result array, or @p out retained; may be NULL when @p out is given
 *  @return 0 on success, or one of the errors of usmarr_elementwise() */
USMARR_API USMARR_NODISCARD int usmarr_remainder(const usmarr_array_t *x1, const usmarr_array_t *x2, usmarr_array_t *out,
                                        usmarr_array_t **result);

/** @brief Elementwise x1 ** x2 (integer negative powers: 1 and -1 keep theirs, all else gives 0).
 *  @param x1 the first input (borrowed)
 *  @param x2 the second input (borrowed); the inputs broadcast together
 *  @param out NULL, or the array to write (see the result convention above)
 *  @param[out] result the result array, or @p out retained; may be NULL when @p out is given
 *  @return 0 on success, or one of the errors of usmarr_elementwise() */
USMARR_API USMARR_NODISCARD int usmarr_pow(const usmarr_array_t *x1, const usmarr_array_t *x2, usmarr_array_t *out,
                                        usmarr_array_t **result);

/** @brief Elementwise the larger value, NaN if either is NaN (complex: lexicographic).
 *  @param x1 the first input (borrowed)
 *  @param x2 the second input (borrowed); the inputs broadcast together
 *  @param out NULL, or the array to write (see the result convention above)
 *  @param[out] result the result array, or @p out retained; may be NULL when @p out is given
 *  @return 0 on success, or one of the errors of usmarr_elementwise() */
USMARR_API USMARR_NODISCARD int usmarr_maximum(const usmarr_array_t *x1, const usmarr_array_t *x2, usmarr_array_t *out,
                                        usmarr_array_t **result);

/** @brief Elementwise the smaller value, NaN if either is NaN (complex: lexicographic).
 *  @param x1 the first input (borrowed)
 *  @param x2 the second input (borrowed); the inputs broadcast together
 *  @param out NULL, or the array to write (see the result convention above)
 *  @param[out] result the result array, or @p out retained; may be NULL when @p out is given
 *  @return 0 on success, or one of the errors of usmarr_elementwise() */
USMARR_API USMARR_NODISCARD int usmarr_minimum(const usmarr_array_t *x1, const usmarr_array_t *x2, usmarr_array_t *out,
                                        usmarr_array_t **result);

/** @brief Elementwise the larger value, ignoring a NaN unless both are NaN.
 *  @param x1 the first input (borrowed)
 *  @param x2 the second input (borrowed); the inputs broadcast together
 *  @param out NULL, or the array to write (see the result convention above)
 *  @param[out] result the result array, or @p out retained; may be NULL when @p out is given
 *  @return 0 on success, or one of the errors of usmarr_elementwise() */
USMARR_API USMARR_NODISCARD int usmarr_fmax(const usmarr_array_t *x1, const usmarr_array_t *x2, usmarr_array_t *out,
                                        usmarr_array_t **result);

/** @brief Elementwise the smaller value, ignoring a NaN unless both are NaN.
 *  @param x1 the first input (borrowed)
 *  @param x2 the second input (borrowed); the inputs broadcast together
 *  @param out NULL, or the array to write (see the result convention above)
 *  @param[out] result the result array, or @p out retained; may be NULL when @p out is given
 *  @return 0 on success, or one of the errors of usmarr_elementwise() */
USMARR_API USMARR_NODISCARD int usmarr_fmin(const usmarr_array_t *x1, const usmarr_array_t *x2, usmarr_array_t *out,
                                        usmarr_array_t **result);

/** @brief Elementwise the angle of the point (x2, x1), in [-pi, pi]; not for complex.
 *  @param x1 the first input (borrowed)
 *  @param x2 the second input (borrowed); the inputs broadcast together
 *  @param out NULL, or the array to write (see the result convention above)
 *  @param[out] result the result array, or @p out retained; may be NULL when @p out is given
 *  @return 0 on success, or one of the errors of usmarr_elementwise() */
USMARR_API USMARR_NODISCARD int usmarr_atan2(const usmarr_array_t *x1, const usmarr_array_t *x2, usmarr_array_t *out,
                                        usmarr_array_t **result);

/** @brief Elementwise sqrt(x1*x1 + x2*x2) without undue overflow; not for complex.
 *  @param x1 the first input (borrowed)
 *  @param x2 the second input (borrowed); the inputs broadcast together
 *  @param out NULL, or the array to write (see the result convention above)
 *  @param[out] result the result array, or @p out retained; may be NULL when @p out is given
 *  @return 0 on success, or one of the errors of usmarr_elementwise() */
USMARR_API USMARR_NODISCARD int usmarr_hypot(const usmarr_array_t *x1, const usmarr_array_t *x2, usmarr_array_t *out,
                                        usmarr_array_t **result);

/** @brief Elementwise |x1| with the sign of x2; not for complex.
 *  @param x1 the first input (borrowed)
 *  @param x2 the second input (borrowed); the inputs broadcast together
 *  @param out NULL, or the array to write (see the result convention above)
 *  @param[out] result the result array, or @p out retained; may be NULL when @p out is given
 *  @return 0 on success, or one of the errors of usmarr_elementwise() */
USMARR_API USMARR_NODISCARD int usmarr_copysign(const usmarr_array_t *x1, const usmarr_array_t *x2, usmarr_array_t *out,
                                        usmarr_array_t **result);

/** @brief Elementwise the next representable value after x1 in the direction of x2 (the
 *  computation dtype's: float16 steps by float16's spacing), x2 itself when x1 == x2, NaN
 *  when either is NaN; subnormals included; not for complex.  NumPy's `nextafter`, the
 *  array API's (2024.12).
 *  @param x1 the first input (borrowed)
 *  @param x2 the second input (borrowed); the inputs broadcast together
 *  @param out NULL, or the array to write (see the result convention above)
 *  @param[out] result the result array, or @p out retained; may be NULL when @p out is given
 *  @return 0 on success, or one of the errors of usmarr_elementwise() */
USMARR_API USMARR_NODISCARD int usmarr_nextafter(const usmarr_array_t *x1, const usmarr_array_t *x2,
                                                 usmarr_array_t *out, usmarr_array_t **result);

/** @brief Elementwise log(exp(x1) + exp(x2)) without undue overflow; not for complex.
 *  @param x1 the first input (borrowed)
 *  @param x2 the second input (borrowed); the inputs broadcast together
 *  @param out NULL, or the array to write (see the result convention above)
 *  @param[out] result the result array, or @p out retained; may be NULL when @p out is given
 *  @return 0 on success, or one of the errors of usmarr_elementwise() */
USMARR_API USMARR_NODISCARD int usmarr_logaddexp(const usmarr_array_t *x1, const usmarr_array_t *x2, usmarr_array_t *out,
                                        usmarr_array_t **result);

/** @brief Elementwise x1 == x2; a bool array.
 *  @param x1 the first input (borrowed)
 *  @param x2 the second input (borrowed); the inputs broadcast together
 *  @param out NULL, or the array to write (see the result convention above)
 *  @param[out] result the result array, or @p out retained; may be NULL when @p out is given
 *  @return 0 on success, or one of the errors of usmarr_elementwise() */
USMARR_API USMARR_NODISCARD int usmarr_equal(const usmarr_array_t *x1, const usmarr_array_t *x2, usmarr_array_t *out,
                                        usmarr_array_t **result);

/** @brief Elementwise x1 != x2; a bool array.
 *  @param x1 the first input (borrowed)
 *  @param x2 the second input (borrowed); the inputs broadcast together
 *  @param out NULL, or the array to write (see the result convention above)
 *  @param[out] result the result array, or @p out retained; may be NULL when @p out is given
 *  @return 0 on success, or one of the errors of usmarr_elementwise() */
USMARR_API USMARR_NODISCARD int usmarr_not_equal(const usmarr_array_t *x1, const usmarr_array_t *x2, usmarr_array_t *out,
                                        usmarr_array_t **result);

/** @brief Elementwise x1 < x2 (complex: lexicographic); a bool array.
 *  @param x1 the first input (borrowed)
 *  @param x2 the second input (borrowed); the inputs broadcast together
 *  @param out NULL, or the array to write (see the result convention above)
 *  @param[out] result the result array, or @p out retained; may be NULL when @p out is given
 *  @return 0 on success, or one of the errors of usmarr_elementwise() */
USMARR_API USMARR_NODISCARD int usmarr_less(const usmarr_array_t *x1, const usmarr_array_t *x2, usmarr_array_t *out,
                                        usmarr_array_t **result);

/** @brief Elementwise x1 <= x2; a bool array.
 *  @param x1 the first input (borrowed)
 *  @param x2 the second input (borrowed); the inputs broadcast together
 *  @param out NULL, or the array to write (see the result convention above)
 *  @param[out] result the result array, or @p out retained; may be NULL when @p out is given
 *  @return 0 on success, or one of the errors of usmarr_elementwise() */
USMARR_API USMARR_NODISCARD int usmarr_less_equal(const usmarr_array_t *x1, const usmarr_array_t *x2, usmarr_array_t *out,
                                        usmarr_array_t **result);

/** @brief Elementwise x1 > x2; a bool array.
 *  @param x1 the first input (borrowed)
 *  @param x2 the second input (borrowed); the inputs broadcast together
 *  @param out NULL, or the array to write (see the result convention above)
 *  @param[out] result the result array, or @p out retained; may be NULL when @p out is given
 *  @return 0 on success, or one of the errors of usmarr_elementwise() */
USMARR_API USMARR_NODISCARD int usmarr_greater(const usmarr_array_t *x1, const usmarr_array_t *x2, usmarr_array_t *out,
                                        usmarr_array_t **result);

/** @brief Elementwise x1 >= x2; a bool array.
 *  @param x1 the first input (borrowed)
 *  @param x2 the second input (borrowed); the inputs broadcast together
 *  @param out NULL, or the array to write (see the result convention above)
 *  @param[out] result the result array, or @p out retained; may be NULL when @p out is given
 *  @return 0 on success, or one of the errors of usmarr_elementwise() */
USMARR_API USMARR_NODISCARD int usmarr_greater_equal(const usmarr_array_t *x1, const usmarr_array_t *x2, usmarr_array_t *out,
                                        usmarr_array_t **result);

/** @brief Elementwise x1 && x2 (nonzero is true); a bool array.
 *  @param x1 the first input (borrowed)
 *  @param x2 the second input (borrowed); the inputs broadcast together
 *  @param out NULL, or the array to write (see the result convention above)
 *  @param[out] result the result array, or @p out retained; may be NULL when @p out is given
 *  @return 0 on success, or one of the errors of usmarr_elementwise() */
USMARR_API USMARR_NODISCARD int usmarr_logical_and(const usmarr_array_t *x1, const usmarr_array_t *x2, usmarr_array_t *out,
                                        usmarr_array_t **result);

/** @brief Elementwise x1 || x2; a bool array.
 *  @param x1 the first input (borrowed)
 *  @param x2 the second input (borrowed); the inputs broadcast together
 *  @param out NULL, or the array to write (see the result convention above)
 *  @param[out] result the result array, or @p out retained; may be NULL when @p out is given
 *  @return 0 on success, or one of the errors of usmarr_elementwise() */
USMARR_API USMARR_NODISCARD int usmarr_logical_or(const usmarr_array_t *x1, const usmarr_array_t *x2, usmarr_array_t *out,
                                        usmarr_array_t **result);

/** @brief Elementwise exactly one of x1, x2 is nonzero; a bool array.
 *  @param x1 the first input (borrowed)
 *  @param x2 the second input (borrowed); the inputs broadcast together
 *  @param out NULL, or the array to write (see the result convention above)
 *  @param[out] result the result array, or @p out retained; may be NULL when @p out is given
 *  @return 0 on success, or one of the errors of usmarr_elementwise() */
USMARR_API USMARR_NODISCARD int usmarr_logical_xor(const usmarr_array_t *x1, const usmarr_array_t *x2, usmarr_array_t *out,
                                        usmarr_array_t **result);

/** @brief Elementwise x1 & x2 (bool and integers).
 *  @param x1 the first input (borrowed)
 *  @param x2 the second input (borrowed); the inputs broadcast together
 *  @param out NULL, or the array to write (see the result convention above)
 *  @param[out] result the result array, or @p out retained; may be NULL when @p out is given
 *  @return 0 on success, or one of the errors of usmarr_elementwise() */
USMARR_API USMARR_NODISCARD int usmarr_bitwise_and(const usmarr_array_t *x1, const usmarr_array_t *x2, usmarr_array_t *out,
                                        usmarr_array_t **result);

/** @brief Elementwise x1 | x2 (bool and integers).
 *  @param x1 the first input (borrowed)
 *  @param x2 the second input (borrowed); the inputs broadcast together
 *  @param out NULL, or the array to write (see the result convention above)
 *  @param[out] result the result array, or @p out retained; may be NULL when @p out is given
 *  @return 0 on success, or one of the errors of usmarr_elementwise() */
USMARR_API USMARR_NODISCARD int usmarr_bitwise_or(const usmarr_array_t *x1, const usmarr_array_t *x2, usmarr_array_t *out,
                                        usmarr_array_t **result);

/** @brief Elementwise x1 ^ x2 (bool and integers).
 *  @param x1 the first input (borrowed)
 *  @param x2 the second input (borrowed); the inputs broadcast together
 *  @param out NULL, or the array to write (see the result convention above)
 *  @param[out] result the result array, or @p out retained; may be NULL when @p out is given
 *  @return 0 on success, or one of the errors of usmarr_elementwise() */
USMARR_API USMARR_NODISCARD int usmarr_bitwise_xor(const usmarr_array_t *x1, const usmarr_array_t *x2, usmarr_array_t *out,
                                        usmarr_array_t **result);

/** @brief Elementwise x1 << x2 for integers; shifts by the width or more (or by a negative count) give 0.
 *  @param x1 the first input (borrowed)
 *  @param x2 the second input (borrowed); the inputs broadcast together
 *  @param out NULL, or the array to write (see the result convention above)
 *  @param[out] result the result array, or @p out retained; may be NULL when @p out is given
 *  @return 0 on success, or one of the errors of usmarr_elementwise() */
USMARR_API USMARR_NODISCARD int usmarr_left_shift(const usmarr_array_t *x1, const usmarr_array_t *x2, usmarr_array_t *out,
                                        usmarr_array_t **result);

/** @brief Elementwise x1 >> x2 for integers (arithmetic for signed); shifts past the width give 0, or -1 for negative x1.
 *  @param x1 the first input (borrowed)
 *  @param x2 the second input (borrowed); the inputs broadcast together
 *  @param out NULL, or the array to write (see the result convention above)
 *  @param[out] result the result array, or @p out retained; may be NULL when @p out is given
 *  @return 0 on success, or one of the errors of usmarr_elementwise() */
USMARR_API USMARR_NODISCARD int usmarr_right_shift(const usmarr_array_t *x1, const usmarr_array_t *x2, usmarr_array_t *out,
                                        usmarr_array_t **result);


/** @brief Elementwise `cond ? x1 : x2` (NumPy `where` with three arguments).
 *  @param cond the condition, any dtype (nonzero is true; it does not take part in promotion)
 *  @param x1 values where @p cond is true (borrowed)
 *  @param x2 values where @p cond is false (borrowed); the three broadcast together
 *  @param out NULL, or the array to write (see the result convention above)
 *  @param[out] result the result array, or @p out retained; may be NULL when @p out is given
 *  @return 0 on success, or one of the errors of usmarr_elementwise() */
USMARR_API USMARR_NODISCARD int usmarr_where(const usmarr_array_t *cond, const usmarr_array_t *x1,
                                             const usmarr_array_t *x2, usmarr_array_t *out,
                                             usmarr_array_t **result);

/** @brief Elementwise `minimum(maximum(x, lower), upper)` (NumPy `clip`; NaN propagates).
 *  Scalar bounds go through usmarr_elementwise("clip", ...).
 *  @param x the values (borrowed)
 *  @param lower the lower bounds (borrowed)
 *  @param upper the upper bounds (borrowed); the three broadcast together
 *  @param out NULL, or the array to write (see the result convention above)
 *  @param[out] result the result array, or @p out retained; may be NULL when @p out is given
 *  @return 0 on success, or one of the errors of usmarr_elementwise() */
USMARR_API USMARR_NODISCARD int usmarr_clip(const usmarr_array_t *x, const usmarr_array_t *lower,
                                            const usmarr_array_t *upper, usmarr_array_t *out,
                                            usmarr_array_t **result);

/** @} */

/** @name Closeness
 * NumPy's `isclose` and `allclose` (doc/ops.md).
 * @{ */

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
