/* Part of usmarr.h: include <usmarr.h>, not this file. */
#ifndef USMARR_H_INSIDE
#error "include <usmarr.h> instead of usmarr/copy.h"
#endif
#ifndef USMARR_COPY_H
#define USMARR_COPY_H

/** @name Copy, cast, fill and ramps
 *
 * These run on the kernel engine (doc/engine.md): any strides (negative, zero for
 * broadcast inputs), any of the 14 dtypes, kernels compiled once per device and cached.
 *
 * **Result convention** (every operation that produces an array follows it):
 * `int usmarr_<operation>(inputs..., parameters..., usmarr_array_t *out, usmarr_array_t **result)`.
 * - @p out NULL: a new array is allocated (USM of the first input's kind) and returned
 *   through @p result with one reference.
 * - @p out given: the result is written into @p out, inputs broadcast to its shape; it
 *   must be writable, of the same context and of the operation's result dtype.  When
 *   @p result is not NULL it receives @p out with one more reference.
 * - @p result may be NULL only when @p out is given.
 *
 * **Completion.** Operations are enqueued on the context's in-order queue and return
 * without waiting.  usmarr_context_finish(), the transfers to host
 * (usmarr_array_copy_to_host(), usmarr_memory_copy_to_host()) and releasing the last
 * reference to a memory block all wait for them.  Read shared/host USM directly only after a finish.
 *
 * **Contexts.** All arrays of one call must belong to the same ::usmarr_context_t.
 *
 * **Overlap.** A source that shares memory with the destination (for example
 * `a[1:] = a[:-1]`) is detected exactly and copied through a temporary, so the result is
 * always as if the source had been read completely first.
 *
 * **Casting** follows NumPy's values; where NumPy leaves a result undefined (NaN or an
 * out-of-range float converted to an integer) the library truncates toward zero,
 * saturates at the target's limits and turns NaN into 0; complex to real keeps the real
 * part.  Details: doc/engine.md, "Casting".
 * @{ */

/** @brief Copies @p a into a contiguous array (or into @p out).
 *
 * @param a the source (borrowed)
 * @param order layout of a new array: ::USMARR_ORDER_C, ::USMARR_ORDER_F,
 *        ::USMARR_ORDER_A (F if @p a is F- and not C-contiguous, else C) or
 *        ::USMARR_ORDER_K (@p a's axis order by stride, with positive strides); ignored
 *        when @p out is given
 * @param out NULL, or a writable array of @p a's dtype whose shape @p a broadcasts to
 * @param[out] result the new array, or @p out retained; may be NULL when @p out is given
 * @return 0 on success
 * @retval USMARR_ERROR_INVALID_ARGUMENT NULL @p a, NULL @p result without @p out, bad order
 * @retval USMARR_ERROR_CONTEXT_MISMATCH @p out belongs to another context
 * @retval USMARR_ERROR_READ_ONLY @p out is not writable
 * @retval USMARR_ERROR_BAD_DTYPE @p out's dtype differs from @p a's
 * @retval USMARR_ERROR_SHAPE_MISMATCH @p a does not broadcast to @p out's shape
 * @retval USMARR_ERROR_ALLOCATION the new array could not be allocated
 * @retval USMARR_ERROR_BUILD a kernel failed to build (the detail has the log) */
USMARR_API USMARR_NODISCARD int usmarr_array_copy(const usmarr_array_t *a, usmarr_order_t order, usmarr_array_t *out,
                                                  usmarr_array_t **result);

/** @brief Casts @p a to @p dtype (NumPy `astype`, always a copy), into a new array or @p out.
 *
 * @param a the source (borrowed)
 * @param dtype the result dtype; with @p out it must equal @p out's dtype
 * @param order as for usmarr_array_copy()
 * @param out NULL, or a writable array of @p dtype whose shape @p a broadcasts to
 * @param[out] result the new array, or @p out retained; may be NULL when @p out is given
 * @return 0 on success
 * @retval USMARR_ERROR_INVALID_ARGUMENT NULL @p a, NULL @p result without @p out, bad order
 * @retval USMARR_ERROR_BAD_DTYPE @p dtype is invalid or differs from @p out's dtype
 * @retval USMARR_ERROR_UNSUPPORTED @p dtype needs fp64 and the device has none
 * @retval USMARR_ERROR_CONTEXT_MISMATCH @p out belongs to another context
 * @retval USMARR_ERROR_READ_ONLY @p out is not writable
 * @retval USMARR_ERROR_SHAPE_MISMATCH @p a does not broadcast to @p out's shape
 * @retval USMARR_ERROR_ALLOCATION the new array could not be allocated
 * @retval USMARR_ERROR_BUILD a kernel failed to build */
USMARR_API USMARR_NODISCARD int usmarr_array_astype(const usmarr_array_t *a, usmarr_dtype_t dtype,
                                                    usmarr_order_t order, usmarr_array_t *out,
                                                    usmarr_array_t **result);

/** @brief `dst[...] = src`: broadcasts @p src to @p dst's shape and converts to @p dst's
 *  dtype (any cast, NumPy's values).  Overlapping memory is handled exactly.
 *
 * @param dst the destination (borrowed), writable
 * @param src the source (borrowed), of the same context
 * @return 0 on success
 * @retval USMARR_ERROR_INVALID_ARGUMENT @p dst or @p src is NULL
 * @retval USMARR_ERROR_CONTEXT_MISMATCH the arrays belong to different contexts
 * @retval USMARR_ERROR_READ_ONLY @p dst is not writable
 * @retval USMARR_ERROR_SHAPE_MISMATCH @p src does not broadcast to @p dst's shape
 * @retval USMARR_ERROR_BUILD a kernel failed to build */
USMARR_API USMARR_NODISCARD int usmarr_array_copy_into(usmarr_array_t *dst, const usmarr_array_t *src);

/** @brief Sets every element of @p a (any strides) to @p value converted to @p a's dtype.
 *
 * The value converts as usmarr_array_full() converts it, like NumPy's `a.fill(value)`:
 * 2.7 into int32 is 2, a weak integer must fit an integer dtype (NumPy raises
 * OverflowError for 300 into int8), a weak complex value cannot go into an integer or
 * float dtype (NumPy raises TypeError; a typed complex scalar drops its imaginary part),
 * and a float that is not finite or out of range cannot go into an integer dtype.
 *
 * @param a the array (borrowed), writable
 * @param value the value, e.g. usmarr_scalar_float(1.5)
 * @return 0 on success
 * @retval USMARR_ERROR_INVALID_ARGUMENT @p a is NULL, or @p value's kind is none or
 *         contradicts its dtype
 * @retval USMARR_ERROR_BAD_DTYPE @p value's dtype is neither -1 nor a dtype
 * @retval USMARR_ERROR_READ_ONLY @p a is not writable
 * @retval USMARR_ERROR_OVERFLOW @p value is out of range of @p a's integer dtype
 * @retval USMARR_ERROR_CASTING a NaN or infinite @p value into an integer dtype, a weak
 *         complex @p value into an integer or float dtype
 * @retval USMARR_ERROR_BUILD a kernel failed to build */
USMARR_API USMARR_NODISCARD int usmarr_array_fill(usmarr_array_t *a, usmarr_scalar_t value);

/** @brief `start, start+step, ...` below @p stop (above, for a negative step):
 *  ceil((stop-start)/step) elements, element i being start + i*step converted to @p dtype
 *  (truncated for integer dtypes).
 *  @retval USMARR_ERROR_INVALID_ARGUMENT step 0 or a non-finite argument
 *  @retval USMARR_ERROR_BAD_DTYPE bool (NumPy has no bool arange either)
 *  @retval USMARR_ERROR_OVERFLOW a value does not fit an integer dtype
 *  @retval USMARR_ERROR_BUILD a kernel failed to build (long ramps are written by a kernel) */
USMARR_API USMARR_NODISCARD int usmarr_array_arange(usmarr_context_t *context, double start, double stop, double step,
                                                    usmarr_dtype_t dtype, usmarr_usm_kind_t kind,
                                                    usmarr_array_t **array);
/** @brief @p num evenly spaced values from @p start to @p stop (included when
 *  @p endpoint), as NumPy: element i is start + i*(stop-start)/div with div = num-1 (or
 *  num without the endpoint); with the endpoint the last element is exactly @p stop.
 *  Integer dtypes round towards minus infinity, as NumPy 2 does.
 *  @retval USMARR_ERROR_INVALID_ARGUMENT negative num or non-finite start/stop */
USMARR_API USMARR_NODISCARD int usmarr_array_linspace(usmarr_context_t *context, double start, double stop,
                                                      int64_t num, bool endpoint, usmarr_dtype_t dtype,
                                                      usmarr_usm_kind_t kind, usmarr_array_t **array);
/** @brief An @p n x @p m array with ones on diagonal @p k (0 the main, positive above)
 *  and zeros elsewhere.
 *  @param context the context to allocate on (borrowed)
 *  @param n rows
 *  @param m columns, or -1 for @p n
 *  @param k the diagonal
 *  @param dtype element type
 *  @param order C or F layout
 *  @param kind USM kind
 *  @param[out] array the new array
 *  @retval USMARR_ERROR_INVALID_ARGUMENT negative n, bad order
 *  @retval USMARR_ERROR_OVERFLOW n*m overflows */
USMARR_API USMARR_NODISCARD int usmarr_array_eye(usmarr_context_t *context, int64_t n, int64_t m, int64_t k,
                                                 usmarr_dtype_t dtype, usmarr_order_t order,
                                                 usmarr_usm_kind_t kind, usmarr_array_t **array);

/** @brief A copy plan: a fixed list of `dst[...] = src` pairs that run as one kernel.
 *
 * For code that repeats the same small copies every step (a halo exchange packs and
 * unpacks up to 26 boxes per storage): the pairs are checked and laid out once, in a
 * table in device USM, and each run is a single launch, whatever the number of pairs,
 * their shapes, strides and dtypes.  The plan holds a reference to every array. */
typedef struct usmarr_copy_plan usmarr_copy_plan_t;

/** @brief Makes a copy plan of @p count pairs `destinations[i][...] = sources[i]`.
 *
 * Each pair has one dtype and one shape (no broadcasting, no casting: the bytes of each
 * element are copied), any strides, and reduces, once size-1 axes are dropped and
 * jointly contiguous axes merged, to at most three axes (any box of a 3-D array does).
 * Pairs may have different dtypes and shapes.  Destinations must not overlap their own
 * source nor another pair's source or destination (unlike usmarr_array_copy_into(),
 * which handles overlap: nothing is checked here, the result would be undefined).
 * Arrays over up to eight memory blocks run as one kernel; more blocks make one kernel
 * per eight.
 *
 * @param context the context every array belongs to
 * @param count the number of pairs (0: a plan that copies nothing)
 * @param destinations @p count writable arrays (borrowed; the plan retains them)
 * @param sources @p count arrays (borrowed; the plan retains them)
 * @param[out] plan the new plan, with one reference
 * @return 0 on success
 * @retval USMARR_ERROR_INVALID_ARGUMENT NULL @p context, @p plan, array lists or array; @p count < 0
 * @retval USMARR_ERROR_CONTEXT_MISMATCH an array belongs to another context
 * @retval USMARR_ERROR_READ_ONLY a destination is not writable
 * @retval USMARR_ERROR_BAD_DTYPE a pair's dtypes differ
 * @retval USMARR_ERROR_SHAPE_MISMATCH a pair's shapes differ
 * @retval USMARR_ERROR_UNSUPPORTED a pair needs more than three axes
 * @retval USMARR_ERROR_ALLOCATION the table could not be allocated
 * @retval USMARR_ERROR_BUILD the kernel failed to build */
USMARR_API USMARR_NODISCARD int usmarr_copy_plan_create(usmarr_context_t *context, int count,
                                                        usmarr_array_t *const *destinations,
                                                        const usmarr_array_t *const *sources,
                                                        usmarr_copy_plan_t **plan);

/** @brief Enqueues the plan's copies (one kernel per eight memory blocks) and returns
 *  without waiting, like every copy.
 * @retval USMARR_ERROR_INVALID_ARGUMENT @p plan is NULL */
USMARR_API USMARR_NODISCARD int usmarr_copy_plan_run(usmarr_copy_plan_t *plan);

/** @brief One more reference to @p plan (returned). */
USMARR_API usmarr_copy_plan_t *usmarr_copy_plan_retain(usmarr_copy_plan_t *plan);

/** @brief Drops a reference; the last one releases the arrays and the table (after the
 *  queued runs).  NULL is a no-op. */
USMARR_API void usmarr_copy_plan_release(usmarr_copy_plan_t *plan);

/** @} */

#endif
