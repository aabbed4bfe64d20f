/* Part of usmarr.h: include <usmarr.h>, not this file. */
#ifndef USMARR_H_INSIDE
#error "include <usmarr.h> instead of usmarr/ops.h"
#endif
#ifndef USMARR_OPS_H
#define USMARR_OPS_H

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
 *  @return false for invalid dtypes or an invalid policy. */
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
 *         or @p result NULL
 * @retval USMARR_ERROR_BAD_DTYPE an invalid dtype, scalar kind or scalar dtype
 * @retval USMARR_ERROR_OVERFLOW a weak integer scalar out of range of the result */
USMARR_API USMARR_NODISCARD int usmarr_result_type(const usmarr_dtype_t *dtypes, size_t ndtypes,
                                                   const usmarr_scalar_t *scalars, size_t nscalars,
                                                   usmarr_dtype_t *result);

/** @} */

#endif
