/* Part of usmarr.h: include <usmarr.h>, not this file. */
#ifndef USMARR_H_INSIDE
#error "include <usmarr.h> instead of usmarr/sort.h"
#endif
#ifndef USMARR_SORT_H
#define USMARR_SORT_H

/** @name Sorting and searching
 *
 * NumPy's order for every real dtype and bool: NaNs (any sign or payload) after every
 * other value; complex64 and complex128 in NumPy's order: lexicographic (real part first)
 * among numbers, then R+nanj (by R) < nan+Rj (by R) < nan+nanj.
 * Sorts are always stable (NumPy's `kind="stable"`); `descending` is the array API's
 * (NumPy's `flip(sort(flip(x)))`): equal elements keep their order and NaNs come first.
 * Results follow the library's convention (usmarr/copy.h): @p out NULL gives a new
 * C-ordered array through @p result, else @p out (of exactly the result's shape and dtype;
 * it may be the input itself) is written.  Documentation: doc/ops.md.
 * @{ */

/** Which end of a run of equal elements searchsorted reports (NumPy's `side`). */
typedef enum usmarr_side {
    USMARR_SIDE_LEFT = 0, /**< the first position i with a[i] >= v */
    USMARR_SIDE_RIGHT = 1 /**< the first position i with a[i] > v */
} usmarr_side_t;

/** @brief NumPy's `sort(x, axis, kind="stable")`, ascending or descending.
 *
 * float -0.0 sorts before +0.0 (the values compare equal, NumPy keeps their input order).
 * @param x the input (borrowed), at least 1-d
 * @param axis the axis to sort along, negative counts from the end
 * @param descending largest first (stable, NaNs first)
 * @param out NULL, or a writable array of @p x's shape and dtype (may be @p x)
 * @param[out] result the result array, or @p out retained; may be NULL when @p out is given
 * @return 0 on success
 * @retval USMARR_ERROR_INVALID_ARGUMENT NULL @p x, NULL @p result without @p out
 * @retval USMARR_ERROR_INDEX @p axis out of range (a 0-d @p x has no axis)
 * @retval USMARR_ERROR_CONTEXT_MISMATCH @p out belongs to another context
 * @retval USMARR_ERROR_READ_ONLY @p out is not writable
 * @retval USMARR_ERROR_SHAPE_MISMATCH @p out's shape differs from @p x's
 * @retval USMARR_ERROR_BAD_DTYPE @p out's dtype differs from @p x's
 * @retval USMARR_ERROR_ALLOCATION scratch space or the result could not be allocated
 * @retval USMARR_ERROR_BUILD a kernel failed to build */
USMARR_API USMARR_NODISCARD int usmarr_sort(const usmarr_array_t *x, int axis, bool descending, usmarr_array_t *out,
                                            usmarr_array_t **result);

/** @brief NumPy's `argsort(x, axis, kind="stable")`: int64 indices along @p axis.
 *
 * -0.0 and +0.0 are equal (their input order is kept).  Arguments and errors as
 * usmarr_sort(), except that @p out must be int64 (::USMARR_ERROR_BAD_DTYPE otherwise).
 * @param x the input (borrowed), at least 1-d
 * @param axis the axis to sort along, negative counts from the end
 * @param descending largest first (stable, NaNs first)
 * @param out NULL, or a writable int64 array of @p x's shape
 * @param[out] result the result array, or @p out retained; may be NULL when @p out is given
 * @return 0 on success, or an error of usmarr_sort() */
USMARR_API USMARR_NODISCARD int usmarr_argsort(const usmarr_array_t *x, int axis, bool descending,
                                               usmarr_array_t *out, usmarr_array_t **result);

/** @brief NumPy's `searchsorted(a, v, side, sorter)`: for each element of @p v, the
 *  position in the ascending 1-d @p a where it would be inserted to keep the order.
 *
 * @p a and @p v are compared in their promoted dtype (usmarr_promote_types()), in the sort
 * order above (NaN last, -0.0 == 0.0).  A result for an unsorted @p a is unspecified
 * (never a read outside @p a).
 * @param a the sorted 1-d array (borrowed), any stride
 * @param v the keys (borrowed), any shape
 * @param side ::USMARR_SIDE_LEFT or ::USMARR_SIDE_RIGHT
 * @param sorter NULL, or an int64 1-d permutation of a's positions that sorts @p a
 *        (NumPy's argsort(a)); an index out of [0, len(a)) is clamped
 * @param out NULL, or a writable int64 array of @p v's shape
 * @param[out] result the int64 positions, @p v's shape
 * @return 0 on success
 * @retval USMARR_ERROR_INVALID_ARGUMENT NULL @p a or @p v, bad @p side, NULL @p result without @p out
 * @retval USMARR_ERROR_SHAPE_MISMATCH @p a not 1-d, @p sorter not of @p a's shape, @p out not of @p v's
 * @retval USMARR_ERROR_BAD_DTYPE @p sorter or @p out not int64
 * @retval USMARR_ERROR_CONTEXT_MISMATCH arrays of different contexts
 * @retval USMARR_ERROR_READ_ONLY @p out is not writable */
USMARR_API USMARR_NODISCARD int usmarr_searchsorted(const usmarr_array_t *a, const usmarr_array_t *v,
                                                    usmarr_side_t side, const usmarr_array_t *sorter,
                                                    usmarr_array_t *out, usmarr_array_t **result);

/** @brief The array API's `top_k(x, k, axis=axis, mode="largest"|"smallest")`: the @p k
 *  largest (or smallest) elements along @p axis and their indices, largest (smallest)
 *  first, ties in input order.
 *
 * In the sort order above NaN is the largest value: `largest` returns NaNs first.  Runs
 * usmarr_argsort() and gathers the first @p k along @p axis.
 * @param x the input (borrowed), at least 1-d
 * @param k how many, 0 to the axis's length
 * @param axis the axis, negative counts from the end
 * @param largest true: the largest; false: the smallest
 * @param[out] values a new array of x's dtype, x's shape with @p k on @p axis
 * @param[out] indices a new int64 array of the same shape
 * @return 0 on success
 * @retval USMARR_ERROR_INVALID_ARGUMENT NULL argument, @p k outside [0, length]
 * @retval USMARR_ERROR_INDEX @p axis out of range */
USMARR_API USMARR_NODISCARD int usmarr_top_k(const usmarr_array_t *x, int64_t k, int axis, bool largest,
                                             usmarr_array_t **values, usmarr_array_t **indices);

/** @} */

/** @name Set functions
 *
 * The array API's unique_values, unique_counts, unique_inverse and unique_all, and NumPy's
 * isin, for every dtype.
 * Unique values come back sorted ascending in the order above, as 1-d arrays of
 * data-dependent length (trimmed pod blocks, usmarr/pod.h); -0.0 and +0.0 are one value
 * (returned as +0.0); every NaN is distinct, as the array API says (NumPy 2's
 * `np.unique_values`, not `np.unique`'s default `equal_nan=True`).  The input may have any
 * shape and layout; it is read in C order.  Documentation: doc/ops.md.
 *
 * Errors of every unique function: ::USMARR_ERROR_INVALID_ARGUMENT (NULL @p x or NULL
 * output pointer), ::USMARR_ERROR_ALLOCATION,
 * ::USMARR_ERROR_BUILD.
 * @{ */

/** @brief The array API's `unique_values(x)`: the distinct elements, sorted.
 *  @param x the input (borrowed), any shape
 *  @param[out] values a new 1-d array of x's dtype
 *  @return 0 on success, or an error listed above */
USMARR_API USMARR_NODISCARD int usmarr_unique_values(const usmarr_array_t *x, usmarr_array_t **values);

/** @brief The array API's `unique_counts(x)`: distinct elements and how often each occurs.
 *  @param x the input (borrowed), any shape
 *  @param[out] values a new 1-d array of x's dtype
 *  @param[out] counts a new 1-d int64 array, as long as @p values
 *  @return 0 on success, or an error listed above */
USMARR_API USMARR_NODISCARD int usmarr_unique_counts(const usmarr_array_t *x, usmarr_array_t **values,
                                                     usmarr_array_t **counts);

/** @brief The array API's `unique_inverse(x)`: distinct elements and, for every element of
 *  @p x, the position of its value in them (`values[inverse] == x`).
 *  @param x the input (borrowed), any shape
 *  @param[out] values a new 1-d array of x's dtype
 *  @param[out] inverse_indices a new int64 array of @p x's shape
 *  @return 0 on success, or an error listed above */
USMARR_API USMARR_NODISCARD int usmarr_unique_inverse(const usmarr_array_t *x, usmarr_array_t **values,
                                                      usmarr_array_t **inverse_indices);

/** @brief The array API's `unique_all(x)`: values, the flat (C-order) index of each
 *  value's first occurrence, the inverse indices and the counts.
 *  @param x the input (borrowed), any shape
 *  @param[out] values a new 1-d array of x's dtype
 *  @param[out] indices a new 1-d int64 array, as long as @p values
 *  @param[out] inverse_indices a new int64 array of @p x's shape
 *  @param[out] counts a new 1-d int64 array, as long as @p values
 *  @return 0 on success, or an error listed above */
USMARR_API USMARR_NODISCARD int usmarr_unique_all(const usmarr_array_t *x, usmarr_array_t **values,
                                                  usmarr_array_t **indices, usmarr_array_t **inverse_indices,
                                                  usmarr_array_t **counts);

/** @brief NumPy's `isin(x, test_elements, invert=invert)`: whether each element of @p x
 *  equals some element of @p test_elements (compared in their promoted dtype; NaN is never
 *  in anything; -0.0 == 0.0).
 *  @param x the elements to look up (borrowed), any shape
 *  @param test_elements the set (borrowed), any shape
 *  @param invert true gives `not isin`
 *  @param out NULL, or a writable bool array of @p x's shape
 *  @param[out] result a bool array of @p x's shape, or @p out retained; may be NULL when @p out is given
 *  @return 0 on success
 *  @retval USMARR_ERROR_INVALID_ARGUMENT NULL @p x or @p test_elements, NULL @p result without @p out
 *  @retval USMARR_ERROR_CONTEXT_MISMATCH arrays of different contexts
 *  @retval USMARR_ERROR_READ_ONLY @p out is not writable
 *  @retval USMARR_ERROR_SHAPE_MISMATCH @p out's shape is not @p x's
 *  @retval USMARR_ERROR_BAD_DTYPE @p out is not bool */
USMARR_API USMARR_NODISCARD int usmarr_isin(const usmarr_array_t *x, const usmarr_array_t *test_elements, bool invert,
                                            usmarr_array_t *out, usmarr_array_t **result);

/** @} */

#endif
