/* Part of usmarr.h: include <usmarr.h>, not this file. */
#ifndef USMARR_H_INSIDE
#error "include <usmarr.h> instead of usmarr/dtype.h"
#endif
#ifndef USMARR_DTYPE_H
#define USMARR_DTYPE_H

/** @name Type promotion and casting rules
 * NumPy's rules for the 14 dtypes.  Scalars promote as in the array API (NumPy 2's
 * NEP 50): a weak scalar (::usmarr_scalar_t with `dtype` -1) never widens an array's
 * dtype within its kind, so `int8_array + 1` stays int8 and `float32_array * 2.5` stays
 * float32; a weak scalar of a higher kind than every array gives the array's kind
 * counterpart (`int8_array + 1.5` is float64, `float32_array + 1j` is complex64).
 * A typed scalar (`dtype` set) promotes like a 0-d array.
 * @{ */

/** Casting policies, NumPy's names and meanings. */
typedef enum usmarr_casting {
    USMARR_CASTING_NO = 0,    /**< identical dtypes only */
    USMARR_CASTING_EQUIV,     /**< identical up to byte order; all dtypes are native, so as `no` */
    USMARR_CASTING_SAFE,      /**< NumPy's safe table: values are preserved (int32 → float64), with
                                   NumPy's one concession that int64/uint64 → float64 counts as safe */
    USMARR_CASTING_SAME_KIND, /**< safe, or within a kind, or up the kinds bool → int → float → complex
                                   (signed → unsigned is not same-kind; unsigned → signed is) */
    USMARR_CASTING_UNSAFE     /**< anything */
} usmarr_casting_t;

/** @brief Whether NumPy's `can_cast(from, to, casting)` holds.
 *  @param from the source dtype
 *  @param to the target dtype
 *  @param casting the policy
 *  @return true when allowed; false when not, and for invalid dtypes or an invalid policy */
USMARR_API bool usmarr_can_cast(usmarr_dtype_t from, usmarr_dtype_t to, usmarr_casting_t casting);

/** @brief NumPy's `promote_types(a, b)`: the smallest dtype both cast to safely
 *  (int64 with uint64 gives float64).
 *  @param a first dtype
 *  @param b second dtype
 *  @param[out] result the promoted dtype
 *  @return 0 on success
 *  @retval USMARR_ERROR_BAD_DTYPE @p a or @p b is not a ::usmarr_dtype_t
 *  @retval USMARR_ERROR_INVALID_ARGUMENT @p result is NULL */
USMARR_API USMARR_NODISCARD int usmarr_promote_types(usmarr_dtype_t a, usmarr_dtype_t b, usmarr_dtype_t *result);

/** @brief The dtype an operation on these operands produces (NumPy 2's `result_type`).
 *
 * Strong operands (array dtypes and typed scalars) promote pairwise with
 * usmarr_promote_types(); weak scalars then only raise the kind: with no strong operand
 * of their kind or above, the result becomes the smallest dtype of the scalar's kind
 * that the strong result casts to safely (bool, int64, float64 or complex128 when there
 * is no strong operand at all; float32 + weak complex → complex64).  A weak integer that
 * does not fit the resulting integer dtype is an error, as in NumPy 2 (`uint8 + -1`).
 *
 * @param dtypes   dtypes of the array operands (may be NULL when @p ndtypes is 0)
 * @param ndtypes  how many
 * @param scalars  scalar operands, weak or typed (may be NULL when @p nscalars is 0)
 * @param nscalars how many
 * @param[out] result the result dtype
 * @return 0 on success
 * @retval USMARR_ERROR_INVALID_ARGUMENT no operands, a NULL list with a non-zero count,
 *         @p result NULL, or a scalar whose kind is none or contradicts its dtype
 * @retval USMARR_ERROR_BAD_DTYPE an invalid dtype or scalar dtype
 * @retval USMARR_ERROR_OVERFLOW a weak integer scalar out of range of the result */
USMARR_API USMARR_NODISCARD int usmarr_result_type(const usmarr_dtype_t *dtypes, size_t ndtypes,
                                                   const usmarr_scalar_t *scalars, size_t nscalars,
                                                   usmarr_dtype_t *result);

/** @} */

/** @name Data type information
 * The array API's `finfo`, `iinfo` and `isdtype` (doc/core.md).
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
/** @} */

#endif
