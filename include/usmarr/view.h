/* Part of usmarr.h: include <usmarr.h>, not this file. */
#ifndef USMARR_H_INSIDE
#error "include <usmarr.h> instead of usmarr/view.h"
#endif
#ifndef USMARR_VIEW_H
#define USMARR_VIEW_H

/** @name Basic indexing
 * NumPy's basic indexing: a sequence of items (integer, slice, new axis, ellipsis) makes a
 * *view*, an array over the same memory block with its own shape, strides and offset;
 * no element moves.  Views inherit read-only-ness and immutability; their contiguity
 * flags are recomputed.  The same index can be given as a C array of items or as text
 * in NumPy's syntax (`"1, ::-2, ..., None"`).  See doc/indexing.md.
 * @{ */

/** What an index item is. */
typedef enum usmarr_index_kind {
    USMARR_INDEX_INTEGER = 0, /**< one position on an axis; the axis disappears */
    USMARR_INDEX_SLICE = 1,   /**< start:stop:step on an axis */
    USMARR_INDEX_NEWAXIS = 2, /**< inserts an axis of extent 1 (`None`, `np.newaxis`) */
    USMARR_INDEX_ELLIPSIS = 3, /**< as many full slices as needed (`...`); at most one per index */
    USMARR_INDEX_ARRAY = 4     /**< an index array: `arrays[index]` of the list passed beside the
                                    items (`@index` in text); advanced indexing only
                                    (usmarr_array_getitem()) */
} usmarr_index_kind_t;

/** One item of an index.  Make items with usmarr_index_integer(), usmarr_index_slice(),
 *  usmarr_index_newaxis(), usmarr_index_ellipsis() and usmarr_index_array(), or by
 *  parsing text. */
typedef struct usmarr_index_item {
    usmarr_index_kind_t kind; /**< what the item is; the fields below that apply to it */
    int64_t index; /**< ::USMARR_INDEX_INTEGER: the position; negative counts from the end;
                        ::USMARR_INDEX_ARRAY: the position of the array in the list */
    int64_t start; /**< ::USMARR_INDEX_SLICE: first position (when @c has_start) */
    int64_t stop;  /**< ::USMARR_INDEX_SLICE: end position, excluded (when @c has_stop) */
    int64_t step;  /**< ::USMARR_INDEX_SLICE: non-zero step (when @c has_step; else 1) */
    bool has_start; /**< false: start omitted (Python's None) */
    bool has_stop;  /**< false: stop omitted */
    bool has_step;  /**< false: step omitted (1) */
} usmarr_index_item_t;

/** The most items usmarr_index_parse() and usmarr_array_index() accept. */
#define USMARR_MAX_INDEX_ITEMS (2 * USMARR_MAX_NDIM + 1)

/** @brief An integer index item.
 *  @param index the position; negative counts from the end
 */
USMARR_API usmarr_index_item_t usmarr_index_integer(int64_t index);
/** @brief A slice item; each of @p start, @p stop, @p step may be NULL for "omitted"
 *  (`::-1` is `usmarr_index_slice(NULL, NULL, &minus_one)`).  The values are copied.
 *  @param start first position, or NULL (omitted)
 *  @param stop end position (excluded), or NULL
 *  @param step non-zero step, or NULL (1)
 */
USMARR_API usmarr_index_item_t usmarr_index_slice(const int64_t *start, const int64_t *stop, const int64_t *step);
/** @brief A new-axis item (`None`). */
USMARR_API usmarr_index_item_t usmarr_index_newaxis(void);
/** @brief An ellipsis item (`...`). */
USMARR_API usmarr_index_item_t usmarr_index_ellipsis(void);
/** @brief An index-array item: `arrays[position]` of the list given to usmarr_array_getitem()
 *  or usmarr_array_setitem() (`@position` in text).
 *  @param position the array's position in that list, from 0 */
USMARR_API usmarr_index_item_t usmarr_index_array(int64_t position);

/** @brief Parses NumPy index text into items.
 *
 * Grammar: items separated by commas, an optional trailing comma (`"1,"`), white space
 * anywhere between tokens; an item is an integer (optionally signed), a slice
 * `[start]:[stop][:[step]]` of optional integers, `None`, `newaxis`, `np.newaxis`,
 * `...`, or `@N` (an index array: the N-th array of the list passed beside the text,
 * ::USMARR_INDEX_ARRAY; N a decimal integer from 0).  The empty text is the empty index
 * (a view of the whole array).  Integers must fit in 64 bits.  The parser never reads past the terminating NUL and never crashes on
 * any input.
 * @param text NUL-terminated index text
 * @param[out] items where to store the items
 * @param capacity how many items @p items holds
 * @param[out] count how many items were stored
 * @return 0 on success; on failure @p count is 0
 * @retval USMARR_ERROR_INVALID_ARGUMENT a NULL argument
 * @retval USMARR_ERROR_PARSE malformed text: the detail gives the 1-based column, what was
 *         expected and what was found, e.g. `index "1, ::x" column 6: expected ',' or
 *         the end, found 'x'`; also a zero step, a second ellipsis, an integer
 *         that does not fit in 64 bits, `@` without a non-negative integer, and more
 *         than @p capacity items */
USMARR_API USMARR_NODISCARD int usmarr_index_parse(const char *text, usmarr_index_item_t *items, size_t capacity,
                                                   size_t *count);

/** @brief Basic indexing: a view of @p array selected by @p items.
 *
 * As in NumPy: integers and slices consume one axis each from the left; an ellipsis
 * stands for the full slices needed to consume every axis; axes not consumed are kept
 * whole; each new-axis item inserts an axis of extent 1 (stride 0).  Slices follow
 * Python's rules: negative start/stop count from the end, out-of-range values clip, a
 * slice may be empty.  Indexing every axis with integers gives a 0-d view.
 * @param array the array (borrowed)
 * @param items the index; may be NULL when @p count is 0
 * @param count number of items, at most ::USMARR_MAX_INDEX_ITEMS
 * @param[out] view the view, with one reference; it holds a reference to the memory block
 * @return 0 on success
 * @retval USMARR_ERROR_INVALID_ARGUMENT NULL array or view, a bad item kind, an index-array
 *         item (basic indexing takes none: see usmarr_array_getitem()), a zero slice
 *         step, more than one ellipsis, or a result of more than ::USMARR_MAX_NDIM axes
 * @retval USMARR_ERROR_INDEX more integer/slice items than axes, or an integer out of
 *         range; the detail names the axis and the bound ("index 5 is out of bounds for
 *         axis 1 with size 3") */
USMARR_API USMARR_NODISCARD int usmarr_array_index(const usmarr_array_t *array, const usmarr_index_item_t *items,
                                                   size_t count, usmarr_array_t **view);

/** @brief Basic indexing with NumPy text: usmarr_index_parse() then usmarr_array_index().
 *  @param array the array (borrowed)
 *  @param text NUL-terminated index text (usmarr_index_parse())
 *  @param[out] view the view, with one reference
 * @return 0 on success
 * @retval USMARR_ERROR_PARSE malformed text (the detail points at the column)
 * @retval USMARR_ERROR_INVALID_ARGUMENT, USMARR_ERROR_INDEX as for usmarr_array_index() */
USMARR_API USMARR_NODISCARD int usmarr_array_index_text(const usmarr_array_t *array, const char *text,
                                                        usmarr_array_t **view);

/** @} */

/** @name Full advanced indexing (NumPy's `a[...]` and `a[...] = v`)
 * An index of items as above plus ::USMARR_INDEX_ARRAY items, each naming an array of the
 * list @p arrays passed beside it (`"@0, 1:3, @1"` in text; an array may be named more
 * than once).  Integer index arrays (any integer dtype, any layout, 0-d too) are broadcast
 * together (NumPy's rules) to one index shape B; a boolean array of k >= 1 dimensions
 * covers k axes and stands for the k integer arrays of its usmarr_nonzero(); a 0-d boolean
 * inserts an axis of extent 1 and selects it (true) or nothing (false).  When
 * any index array is present, integer items count as advanced indices too (0-d arrays).
 * The result has B in place of the indexed axes when the advanced items are adjacent in
 * the index, and B first otherwise (any slice, new axis or ellipsis between two advanced
 * items separates them), followed or surrounded by the axes the slices, new axes and the
 * ellipsis keep, exactly as NumPy.  Indices are checked as NumPy does (negative ones count
 * from the end; out of range fails before anything is written).  See doc/indexing.md.
 * @{ */

/** @brief `a[index]`: a new array (or a write into @p out) of the selected elements.
 *
 * Always a copy, also for an index of basic items only (usmarr_array_index() gives the
 * view).  One gather kernel over the result's shape; out-of-range indices are found on
 * the device before the result is returned (this call waits for that check when the
 * index has integer arrays; boolean arrays wait for their count).
 * @param array the array indexed (borrowed)
 * @param items the index; may be NULL when @p count is 0
 * @param count number of items, at most ::USMARR_MAX_INDEX_ITEMS
 * @param arrays the index arrays the ::USMARR_INDEX_ARRAY items name (borrowed); may be
 *        NULL when @p narrays is 0
 * @param narrays number of entries in @p arrays
 * @param out NULL, or a writable array of the result's shape and a dtype the array's
 *        casts to (same_kind); it may share memory with the inputs
 * @param[out] result the result, with one reference; may be NULL with @p out
 * @return 0 on success
 * @retval USMARR_ERROR_INVALID_ARGUMENT a NULL argument, a bad item (as for
 *         usmarr_array_index()), an item naming an array beyond @p narrays or a NULL one
 *         (the detail names the item and the reference), a result of more than
 *         ::USMARR_MAX_NDIM axes
 * @retval USMARR_ERROR_BAD_DTYPE an index array that is neither integer nor boolean
 * @retval USMARR_ERROR_INDEX too many indices, an integer or an index out of range (the
 *         detail names the value, the axis, its size and the index array, e.g. `index 7
 *         is out of bounds for axis 1 with size 5 (index array @1 at items[2])`), a
 *         boolean array whose shape differs from the axes it covers, index arrays that do
 *         not broadcast together (both named with their shapes; NumPy's IndexError)
 * @retval USMARR_ERROR_SHAPE_MISMATCH an @p out of the wrong shape
 * @retval USMARR_ERROR_CONTEXT_MISMATCH arrays of different contexts
 * @retval USMARR_ERROR_READ_ONLY, USMARR_ERROR_CASTING an unusable @p out */
USMARR_API USMARR_NODISCARD int usmarr_array_getitem(const usmarr_array_t *array, const usmarr_index_item_t *items,
                                                     size_t count, const usmarr_array_t *const *arrays,
                                                     size_t narrays, usmarr_array_t *out, usmarr_array_t **result);

/** @brief usmarr_array_getitem() with the index as text (usmarr_index_parse()), e.g.
 *  `usmarr_array_getitem_text(a, "@0, 2:14", &idx, 1, NULL, &r)` for NumPy's `a[idx, 2:14]`.
 *  @param array the array indexed (borrowed)
 *  @param text NUL-terminated index text; `@N` names arrays[N]
 *  @param arrays the index arrays (borrowed); may be NULL when @p narrays is 0
 *  @param narrays number of entries in @p arrays
 *  @param out NULL, or the array to write
 *  @param[out] result the result, with one reference; may be NULL with @p out
 *  @return 0 on success
 *  @retval USMARR_ERROR_PARSE malformed text (the detail points at the column)
 *  @retval others as for usmarr_array_getitem() */
USMARR_API USMARR_NODISCARD int usmarr_array_getitem_text(const usmarr_array_t *array, const char *text,
                                                          const usmarr_array_t *const *arrays, size_t narrays,
                                                          usmarr_array_t *out, usmarr_array_t **result);

/** @brief `a[index] = values`: writes @p values, broadcast to the shape usmarr_array_getitem()
 *  would return, into the selected elements of @p array, in place.
 *
 * Values are converted to the array's dtype as NumPy's assignment does (any dtype, value
 * conversion, usmarr_array_astype()'s rules); leading extent-1 axes of @p values beyond the
 * selection's are ignored, as in NumPy, except where the index is integers alone (one
 * element, or no items on a 0-d array): there NumPy 2 assigns a scalar, and @p values must
 * broadcast to 0 dims.  Out-of-range indices fail before anything is
 * written.  When an element is selected more than once, it receives one of the values
 * meant for it, and which one is unspecified (the writes run in parallel; NumPy documents
 * the same as unspecified, and its serial loop happens to keep the last).  Values or index
 * arrays that share memory with @p array are read completely first.
 * @param array the array written (writable)
 * @param items the index; may be NULL when @p count is 0
 * @param count number of items
 * @param arrays the index arrays (borrowed); may be NULL when @p narrays is 0
 * @param narrays number of entries in @p arrays
 * @param values the values (borrowed)
 * @return 0 on success
 * @retval USMARR_ERROR_READ_ONLY @p array is read-only
 * @retval USMARR_ERROR_SHAPE_MISMATCH @p values does not broadcast to the selection (both
 *         shapes named), or the index arrays do not broadcast together
 * @retval others as for usmarr_array_getitem(); on any failure nothing was written */
USMARR_API USMARR_NODISCARD int usmarr_array_setitem(usmarr_array_t *array, const usmarr_index_item_t *items,
                                                     size_t count, const usmarr_array_t *const *arrays,
                                                     size_t narrays, const usmarr_array_t *values);

/** @brief usmarr_array_setitem() with the index as text (usmarr_index_parse()).
 *  @param array the array written (writable)
 *  @param text NUL-terminated index text; `@N` names arrays[N]
 *  @param arrays the index arrays (borrowed); may be NULL when @p narrays is 0
 *  @param narrays number of entries in @p arrays
 *  @param values the values (borrowed)
 *  @return 0 on success
 *  @retval USMARR_ERROR_PARSE malformed text (the detail points at the column)
 *  @retval others as for usmarr_array_setitem() */
USMARR_API USMARR_NODISCARD int usmarr_array_setitem_text(usmarr_array_t *array, const char *text,
                                                          const usmarr_array_t *const *arrays, size_t narrays,
                                                          const usmarr_array_t *values);

/** @} */

/** @name View manipulation
 * Functions that change only shape, strides and offset: the result is a view over the
 * same memory block (retained), with recomputed contiguity flags and the input's
 * read-only-ness and immutability.  The exception is usmarr_array_reshape(), which copies
 * when the strides do not allow a view, and usmarr_array_imag() of a real array.  Axis
 * arguments accept NumPy's negative values (-1 is the last axis).
 * @{ */

/** Whether an operation may, must or must not copy. */
typedef enum usmarr_copy_mode {
    USMARR_COPY_IF_NEEDED = 0, /**< a view when possible, else a copy (NumPy's reshape) */
    USMARR_COPY_ALWAYS = 1,    /**< always a new array */
    USMARR_COPY_NEVER = 2      /**< a view or an error */
} usmarr_copy_mode_t;

/** @brief Gives @p array a new shape with the same elements in @p order.
 *
 * A view whenever the strides allow it, decided exactly as NumPy's
 * `_attempt_nocopy_reshape` does (so `a.T.reshape(...)` copies where NumPy copies and
 * shares where NumPy shares); otherwise a contiguous copy in @p order, read as the new
 * shape.  Whether it copied: compare usmarr_array_memory() of input and result.
 * @param array the array (borrowed)
 * @param ndim number of dimensions of the new shape, 0 to ::USMARR_MAX_NDIM
 * @param shape the new shape; one entry may be -1, inferred from the element count
 * @param order ::USMARR_ORDER_C (row-major), ::USMARR_ORDER_F, or ::USMARR_ORDER_A (F when
 *        the array is F- and not C-contiguous, else C)
 * @param copy ::USMARR_COPY_IF_NEEDED, ::USMARR_COPY_ALWAYS or ::USMARR_COPY_NEVER
 * @param[out] result the view or copy, with one reference
 * @return 0 on success
 * @retval USMARR_ERROR_INVALID_ARGUMENT NULL argument, bad ndim, order or copy mode, an
 *         extent below -1, or two -1 entries
 * @retval USMARR_ERROR_SHAPE_MISMATCH the element counts differ; the detail names both
 *         shapes ("cannot reshape an array of shape (2, 3) (size 6) into shape (4, 2)")
 * @retval USMARR_ERROR_BAD_STATE a copy is needed and @p copy is ::USMARR_COPY_NEVER
 * @retval USMARR_ERROR_ALLOCATION and OpenCL errors from the copy */
USMARR_API USMARR_NODISCARD int usmarr_array_reshape(const usmarr_array_t *array, int ndim, const int64_t *shape,
                                                     usmarr_order_t order, usmarr_copy_mode_t copy,
                                                     usmarr_array_t **result);

/** @brief Reorders the axes: axis k of the view is axis @p axes[k] of @p array.
 *  @param array the array (borrowed)
 *  @param axes a permutation of the ndim axes (negative values allowed), or NULL to
 *         reverse them
 *  @param[out] view the view, with one reference
 *  @return 0 on success
 *  @retval USMARR_ERROR_INVALID_ARGUMENT NULL array or view, an axis out of range, a
 *          repeated axis */
USMARR_API USMARR_NODISCARD int usmarr_array_permute_dims(const usmarr_array_t *array, const int *axes,
                                                          usmarr_array_t **view);

/** @brief The transpose (`.T`): the axes reversed.
 *  @param array the array (borrowed)
 *  @param[out] view the view, with one reference
 *  @return 0 on success
 *  @retval USMARR_ERROR_INVALID_ARGUMENT NULL array or view */
USMARR_API USMARR_NODISCARD int usmarr_array_transpose(const usmarr_array_t *array, usmarr_array_t **view);

/** @brief Exchanges two axes.
 *  @param array the array (borrowed)
 *  @param axis1 one axis (negative counts from the end)
 *  @param axis2 the other axis
 *  @param[out] view the view, with one reference
 *  @return 0 on success
 *  @retval USMARR_ERROR_INVALID_ARGUMENT NULL array or view, an axis out of range */
USMARR_API USMARR_NODISCARD int usmarr_array_swapaxes(const usmarr_array_t *array, int axis1, int axis2,
                                                      usmarr_array_t **view);

/** @brief Moves axes @p source[i] to positions @p destination[i]; the others keep their
 *  relative order (NumPy's moveaxis).
 *  @param array the array (borrowed)
 *  @param source @p count distinct axes to move
 *  @param destination @p count distinct positions in the view
 *  @param[out] view the view, with one reference
 *  @param count number of axes moved, 0 to ndim
 *  @return 0 on success
 *  @retval USMARR_ERROR_INVALID_ARGUMENT NULL argument, bad count, an axis out of range, a
 *          repeated axis in @p source or in @p destination */
USMARR_API USMARR_NODISCARD int usmarr_array_moveaxis(const usmarr_array_t *array, int count, const int *source,
                                                      const int *destination, usmarr_array_t **view);

/** @brief Inserts axes of extent 1 at positions @p axes of the result (NumPy's expand_dims).
 *  @param array the array (borrowed)
 *  @param[out] view the view, with one reference
 *  @param count number of new axes; ndim + count at most ::USMARR_MAX_NDIM
 *  @param axes positions in the result, negative counting from the result's end
 *  @return 0 on success
 *  @retval USMARR_ERROR_INVALID_ARGUMENT NULL argument, bad count, an axis out of range
 *          for the result, a repeated axis */
USMARR_API USMARR_NODISCARD int usmarr_array_expand_dims(const usmarr_array_t *array, int count, const int *axes,
                                                         usmarr_array_t **view);

/** @brief Removes axes of extent 1.
 *  @param array the array (borrowed)
 *  @param[out] view the view, with one reference
 *  @param count number of entries in @p axes
 *  @param axes the axes to remove, each of extent 1; NULL removes every axis of extent 1
 *  @return 0 on success
 *  @retval USMARR_ERROR_INVALID_ARGUMENT NULL array or view, bad count, an axis out of
 *          range or repeated, or an axis whose extent is not 1 (the detail names it) */
USMARR_API USMARR_NODISCARD int usmarr_array_squeeze(const usmarr_array_t *array, int count, const int *axes,
                                                     usmarr_array_t **view);

/** @brief Reverses the order of the elements along @p axes (NumPy's flip).
 *  @param array the array (borrowed)
 *  @param count number of entries in @p axes
 *  @param[out] view the view, with one reference
 *  @param axes the axes to reverse; NULL reverses every axis
 *  @return 0 on success
 *  @retval USMARR_ERROR_INVALID_ARGUMENT NULL array or view, bad count, an axis out of
 *          range or repeated */
USMARR_API USMARR_NODISCARD int usmarr_array_flip(const usmarr_array_t *array, int count, const int *axes,
                                                  usmarr_array_t **view);

/** @brief A read-only view of @p array broadcast to @p shape (NumPy's rules: align on the
 *  right; each axis of the array equals the target's or is 1; new and stretched axes get
 *  stride 0).  Always read-only, like NumPy's broadcast_to.
 *  @param array the array (borrowed)
 *  @param ndim number of dimensions of @p shape, at least the array's
 *  @param shape the target shape
 *  @param[out] view the read-only view, with one reference
 *  @return 0 on success
 *  @retval USMARR_ERROR_INVALID_ARGUMENT NULL argument, bad ndim, a negative extent
 *  @retval USMARR_ERROR_SHAPE_MISMATCH the shapes do not broadcast; the detail names both */
USMARR_API USMARR_NODISCARD int usmarr_array_broadcast_to(const usmarr_array_t *array, int ndim,
                                                          const int64_t *shape, usmarr_array_t **view);

/** @brief The shape @p count arrays broadcast to.
 *  @param count number of arrays, at least 1
 *  @param arrays the arrays (borrowed)
 *  @param[out] ndim its number of dimensions
 *  @param[out] shape its extents (room for ::USMARR_MAX_NDIM)
 *  @return 0 on success
 *  @retval USMARR_ERROR_INVALID_ARGUMENT count < 1, a NULL argument or array
 *  @retval USMARR_ERROR_SHAPE_MISMATCH two arrays do not broadcast; the detail names both
 *          and their shapes */
USMARR_API USMARR_NODISCARD int usmarr_broadcast_shapes(int count, const usmarr_array_t *const *arrays, int *ndim,
                                                        int64_t *shape);

/** @brief Views of @p count arrays broadcast to their common shape.  A view in which some
 *  element appears more than once (an axis was added or stretched) is read-only; the
 *  others inherit their array's access.
 *  @param count number of arrays, at least 1
 *  @param arrays the arrays (borrowed)
 *  @param[out] views @p count new views, each with one reference; untouched on failure
 *  @return 0 on success
 *  @retval USMARR_ERROR_INVALID_ARGUMENT, USMARR_ERROR_SHAPE_MISMATCH as for
 *          usmarr_broadcast_shapes() */
USMARR_API USMARR_NODISCARD int usmarr_broadcast_arrays(int count, const usmarr_array_t *const *arrays,
                                                        usmarr_array_t **views);

/** @brief The real part: for complex64/complex128 a float32/float64 view whose strides
 *  and offset are doubled (they count elements of the real dtype); for other dtypes a
 *  view of the array itself.
 *  @param array the array (borrowed)
 *  @param[out] view the view, with one reference
 *  @return 0 on success
 *  @retval USMARR_ERROR_INVALID_ARGUMENT NULL array or view
 *  @retval USMARR_ERROR_OVERFLOW doubled strides or offset overflow */
USMARR_API USMARR_NODISCARD int usmarr_array_real(const usmarr_array_t *array, usmarr_array_t **view);

/** @brief The imaginary part: for complex dtypes a view like usmarr_array_real() one
 *  element further; for other dtypes a new read-only array of zeros (as NumPy).
 *  @param array the array (borrowed)
 *  @param[out] view the view or the zeros, with one reference
 *  @return 0 on success
 *  @retval USMARR_ERROR_INVALID_ARGUMENT NULL array or view
 *  @retval USMARR_ERROR_OVERFLOW doubled strides or offset overflow
 *  @retval USMARR_ERROR_ALLOCATION the zeros of a real array could not be allocated */
USMARR_API USMARR_NODISCARD int usmarr_array_imag(const usmarr_array_t *array, usmarr_array_t **view);

/** @} */

/** @name Rearranging copies
 * New arrays (or writes into @p out) that move elements: concat, stack, roll, repeat,
 * tile.  They follow the library's result convention (usmarr/copy.h):
 * `(inputs..., parameters..., usmarr_array_t *out, usmarr_array_t **result)` with @p out
 * NULL for a new C-ordered array (USM of the first input's kind), or @p out a writable
 * array of the result's shape and a dtype the result casts to under same_kind; @p result
 * may then be NULL.  An @p out that shares memory with an input gets the result through a
 * temporary, as if the inputs were read completely first.  Each operation is a
 * handful of strided copies on the engine (tile and scalar repeat: exactly one).
 * Operations are enqueued and return without waiting (see usmarr/copy.h, Completion).
 * @{ */

/** Axis value meaning "flatten the input(s) first" (NumPy's `axis=None`). */
#define USMARR_AXIS_NONE (-0x7fffffff - 1)

/** @brief Joins arrays along an existing axis (NumPy's concatenate).
 *  @param out NULL, or the array to write (result convention above)
 *  @param[out] result the result, with one reference (out retained); may be NULL with @p out
 *  @param count number of arrays, at least 1
 *  @param arrays the arrays; same ndim (at least 1) and equal extents except on @p axis;
 *         the result dtype is their usmarr_result_type()
 *  @param axis the axis (negative counts from the end), or ::USMARR_AXIS_NONE to join the
 *         arrays flattened in C order
 *  @return 0 on success
 *  @retval USMARR_ERROR_INVALID_ARGUMENT count < 1, a NULL array, NULL result without out,
 *          0-d arrays, axis out of range
 *  @retval USMARR_ERROR_SHAPE_MISMATCH different ndim or extents; the detail names the two
 *          arrays, their shapes and the axis
 *  @retval USMARR_ERROR_CONTEXT_MISMATCH arrays (or out) of different contexts
 *  @retval USMARR_ERROR_READ_ONLY, USMARR_ERROR_CASTING an unusable @p out */
USMARR_API USMARR_NODISCARD int usmarr_concat(int count, const usmarr_array_t *const *arrays, int axis,
                                              usmarr_array_t *out, usmarr_array_t **result);

/** @brief Joins same-shape arrays along a new axis (NumPy's stack).
 *  @param count number of arrays, at least 1
 *  @param arrays the arrays, all of one shape; the result dtype is their usmarr_result_type()
 *  @param out NULL, or the array to write
 *  @param[out] result the result, with one reference; may be NULL with @p out
 *  @param axis position of the new axis in the result, in [-(ndim+1), ndim]
 *  @return 0 on success
 *  @retval USMARR_ERROR_INVALID_ARGUMENT count < 1, a NULL array, axis out of range
 *  @retval USMARR_ERROR_SHAPE_MISMATCH the shapes differ (the detail names both)
 *  @retval USMARR_ERROR_CONTEXT_MISMATCH, USMARR_ERROR_READ_ONLY, USMARR_ERROR_CASTING as
 *          for usmarr_concat() */
USMARR_API USMARR_NODISCARD int usmarr_stack(int count, const usmarr_array_t *const *arrays, int axis,
                                             usmarr_array_t *out, usmarr_array_t **result);

/** @brief Rolls elements along axes (NumPy's roll): element i moves to i + shift (mod n).
 *  @param a the array (borrowed)
 *  @param out NULL, or the array to write (may be @p a itself)
 *  @param[out] result the result, with one reference; may be NULL with @p out
 *  @param count number of shifts (and axes), 1 to ::USMARR_MAX_NDIM
 *  @param shifts the shifts, any sign or size; shifts of a repeated axis add up
 *  @param axes the axes, or NULL to roll the flattened array by the sum of @p shifts and
 *         give it back its shape
 *  @return 0 on success
 *  @retval USMARR_ERROR_INVALID_ARGUMENT NULL a or shifts, bad count, an axis out of range
 *  @retval USMARR_ERROR_UNSUPPORTED more than 24 axes rolled at once (2^k pieces)
 *  @retval USMARR_ERROR_SHAPE_MISMATCH, USMARR_ERROR_READ_ONLY, USMARR_ERROR_CASTING,
 *          USMARR_ERROR_CONTEXT_MISMATCH an unusable @p out */
USMARR_API USMARR_NODISCARD int usmarr_roll(const usmarr_array_t *a, int count, const int64_t *shifts,
                                            const int *axes, usmarr_array_t *out, usmarr_array_t **result);

/** @brief Repeats each element along an axis (NumPy's repeat).
 *  @param a the array (borrowed)
 *  @param out NULL, or the array to write
 *  @param[out] result the result, with one reference; may be NULL with @p out
 *  @param nrepeats 1 (every element @p repeats[0] times) or the axis' extent (element i
 *         @p repeats[i] times)
 *  @param repeats the counts, none negative
 *  @param axis the axis, or ::USMARR_AXIS_NONE for the flattened array
 *  @return 0 on success
 *  @retval USMARR_ERROR_INVALID_ARGUMENT NULL a or repeats, a negative count, axis out of
 *          range (also for 0-d @p a)
 *  @retval USMARR_ERROR_SHAPE_MISMATCH @p nrepeats is neither 1 nor the axis' extent
 *  @retval USMARR_ERROR_OVERFLOW the result's extent overflows
 *  @retval USMARR_ERROR_READ_ONLY, USMARR_ERROR_CASTING, USMARR_ERROR_CONTEXT_MISMATCH an
 *          unusable @p out */
USMARR_API USMARR_NODISCARD int usmarr_repeat(const usmarr_array_t *a, int64_t nrepeats, const int64_t *repeats,
                                              int axis, usmarr_array_t *out, usmarr_array_t **result);

/** @brief Tiles @p a @p reps times along each axis (NumPy's tile): the shorter of @p reps
 *  and a's shape is padded with leading 1s.
 *  @param a the array (borrowed)
 *  @param reps the repetitions per axis, none negative
 *  @param out NULL, or the array to write
 *  @param[out] result the result, with one reference; may be NULL with @p out
 *  @param nreps number of entries in @p reps, 0 to ::USMARR_MAX_NDIM
 *  @return 0 on success
 *  @retval USMARR_ERROR_INVALID_ARGUMENT NULL a (or reps with nreps > 0), bad nreps, a
 *          negative rep
 *  @retval USMARR_ERROR_OVERFLOW an extent overflows
 *  @retval USMARR_ERROR_UNSUPPORTED the split layout needs more than ::USMARR_MAX_NDIM axes
 *  @retval USMARR_ERROR_SHAPE_MISMATCH, USMARR_ERROR_READ_ONLY, USMARR_ERROR_CASTING,
 *          USMARR_ERROR_CONTEXT_MISMATCH an unusable @p out */
USMARR_API USMARR_NODISCARD int usmarr_tile(const usmarr_array_t *a, int nreps, const int64_t *reps,
                                            usmarr_array_t *out, usmarr_array_t **result);

/** @} */

/** @name Advanced indexing
 * Gathers and scatters with integer index arrays (any signed or unsigned integer dtype)
 * and boolean masks, on the device (cl/index.cl).  Index modes follow NumPy:
 * - ::USMARR_INDEX_MODE_RAISE: indices in [-n, n), negative ones counting from the end;
 *   any other index is found on the device before anything is written, and the call
 *   fails with ::USMARR_ERROR_INDEX naming one bad value ("index 7 is out of bounds for
 *   axis 0 with size 5").  This mode waits for the check.
 * - ::USMARR_INDEX_MODE_WRAP: i mod n (Python's modulo: -1 is the last element).
 * - ::USMARR_INDEX_MODE_CLIP: below 0 becomes 0, n and above become n-1.
 * Results follow the result convention of the copies above (including @p out sharing
 * memory with an input).
 * Masks are any dtype (non-zero is true) and are read in C order.  extract() and
 * nonzero() allocate their variable-size results from a pod block (usmarr/pod.h): an
 * upper bound, filled on the device, resized once the count is known, then finalized.
 * @{ */

/** How out-of-range indices are treated. */
typedef enum usmarr_index_mode {
    USMARR_INDEX_MODE_RAISE = 0, /**< an error naming the bad index (NumPy's default) */
    USMARR_INDEX_MODE_WRAP = 1,  /**< modulo the extent */
    USMARR_INDEX_MODE_CLIP = 2   /**< clamped to [0, n-1] */
} usmarr_index_mode_t;

/** @brief Takes elements along an axis (NumPy's take): the result has shape
 *  `a.shape[:axis] + indices.shape + a.shape[axis+1:]`.
 *  @param a the source
 *  @param indices integer indices into axis @p axis
 *  @param axis the axis, or ::USMARR_AXIS_NONE to index the flattened @p a
 *  @param mode raise, wrap or clip
 *  @param out NULL or a writable array of the result shape (result convention above)
 *  @param[out] result the result
 *  @return 0 on success
 *  @retval USMARR_ERROR_INVALID_ARGUMENT NULL argument, bad mode, axis out of range, a
 *          result of more than ::USMARR_MAX_NDIM dimensions
 *  @retval USMARR_ERROR_BAD_DTYPE @p indices is not of an integer dtype
 *  @retval USMARR_ERROR_INDEX an index out of range in raise mode (the detail names it),
 *          or indices into an axis of extent 0
 *  @retval USMARR_ERROR_CONTEXT_MISMATCH, USMARR_ERROR_SHAPE_MISMATCH,
 *          USMARR_ERROR_READ_ONLY, USMARR_ERROR_CASTING an unusable @p out */
USMARR_API USMARR_NODISCARD int usmarr_take(const usmarr_array_t *a, const usmarr_array_t *indices, int axis,
                                            usmarr_index_mode_t mode, usmarr_array_t *out, usmarr_array_t **result);

/** @brief Writes @p values at @p indices along an axis of @p a, in place.
 *
 * With an axis (dpctl's put): `values` broadcasts to `a.shape[:axis] + indices.shape +
 * a.shape[axis+1:]`.  With ::USMARR_AXIS_NONE (NumPy's put): @p a is indexed flattened in
 * C order and the flattened @p values are repeated to the number of indices.  Values are
 * converted to a's dtype.  Where an element is written more than once (an index repeats),
 * the value of the last of those indices in the indices' C order stays, as in NumPy's
 * put (the writes run in parallel, so the library claims each element for its last
 * writer first).  Inputs sharing @p a's memory are read completely first.
 *  @param a the target, writable
 *  @param indices integer indices into axis @p axis (or into the flattened @p a)
 *  @param values the values (borrowed)
 *  @param axis the axis, or ::USMARR_AXIS_NONE
 *  @param mode raise, wrap or clip
 * @return 0 on success
 * @retval USMARR_ERROR_INVALID_ARGUMENT NULL argument, bad mode, axis out of range
 * @retval USMARR_ERROR_READ_ONLY @p a is read-only
 * @retval USMARR_ERROR_BAD_DTYPE @p indices is not of an integer dtype
 * @retval USMARR_ERROR_SHAPE_MISMATCH @p values does not broadcast (the detail names both
 *         shapes)
 * @retval USMARR_ERROR_INDEX an index out of range in raise mode: nothing was written
 * @retval USMARR_ERROR_CONTEXT_MISMATCH arrays of different contexts */
USMARR_API USMARR_NODISCARD int usmarr_put(usmarr_array_t *a, const usmarr_array_t *indices,
                                           const usmarr_array_t *values, int axis, usmarr_index_mode_t mode);

/** @brief NumPy's take_along_axis: `result[.., i, ..] = a[.., indices[.., i, ..], ..]` on
 *  @p axis, the other axes of @p a and @p indices broadcast together.
 *  @param a the source (borrowed)
 *  @param axis the axis, or ::USMARR_AXIS_NONE
 *  @param mode raise, wrap or clip
 *  @param out NULL or a writable array of the result shape
 *  @param[out] result the result; may be NULL with @p out
 *  @param indices integer indices with a's number of dimensions (1-d with
 *         ::USMARR_AXIS_NONE, which indexes the flattened @p a)
 *  @return 0 on success
 *  @retval USMARR_ERROR_INVALID_ARGUMENT NULL argument, bad mode, axis out of range
 *  @retval USMARR_ERROR_BAD_DTYPE @p indices is not of an integer dtype
 *  @retval USMARR_ERROR_SHAPE_MISMATCH different ndim or non-broadcasting shapes (both named)
 *  @retval USMARR_ERROR_INDEX an index out of range in raise mode
 *  @retval USMARR_ERROR_CONTEXT_MISMATCH, USMARR_ERROR_READ_ONLY, USMARR_ERROR_CASTING an
 *          unusable @p out */
USMARR_API USMARR_NODISCARD int usmarr_take_along_axis(const usmarr_array_t *a, const usmarr_array_t *indices,
                                                       int axis, usmarr_index_mode_t mode, usmarr_array_t *out,
                                                       usmarr_array_t **result);

/** @brief NumPy's put_along_axis: `a[.., indices[.., i, ..], ..] = values[.., i, ..]` on
 *  @p axis, in place; @p indices and the other axes of @p a broadcast together (as in
 *  usmarr_take_along_axis()) to the selection's shape, and @p values broadcasts to it.
 *  Where an element is selected more than once, which value lands is unspecified.
 *  @param a the target, writable
 *  @param indices integer indices with a's number of dimensions (1-d with
 *         ::USMARR_AXIS_NONE, which indexes @p a flattened in C order)
 *  @param values the values (borrowed), converted to a's dtype
 *  @param axis the axis, or ::USMARR_AXIS_NONE
 *  @param mode raise, wrap or clip
 *  @return 0 on success
 *  @retval USMARR_ERROR_INVALID_ARGUMENT NULL argument, bad mode, axis out of range
 *  @retval USMARR_ERROR_READ_ONLY @p a is read-only
 *  @retval USMARR_ERROR_BAD_DTYPE @p indices is not of an integer dtype
 *  @retval USMARR_ERROR_SHAPE_MISMATCH different ndim, non-broadcasting shapes or values
 *          (both shapes named)
 *  @retval USMARR_ERROR_INDEX an index out of range in raise mode: nothing was written
 *  @retval USMARR_ERROR_CONTEXT_MISMATCH arrays of different contexts */
USMARR_API USMARR_NODISCARD int usmarr_put_along_axis(usmarr_array_t *a, const usmarr_array_t *indices,
                                                      const usmarr_array_t *values, int axis,
                                                      usmarr_index_mode_t mode);

/** @brief The elements of @p a where @p condition is true, in C order, as a new 1-d array
 *  (NumPy's extract).  The result lives in a finalized pod block (usmarr/pod.h).  This
 *  call waits for the count.
 *  @param a the array whose elements are selected (borrowed)
 *  @param condition a mask of a's shape, any dtype (non-zero is true)
 *  @param[out] result the new 1-d array, with one reference
 *  @return 0 on success
 *  @retval USMARR_ERROR_INVALID_ARGUMENT a NULL argument
 *  @retval USMARR_ERROR_SHAPE_MISMATCH the shapes differ (both named)
 *  @retval USMARR_ERROR_CONTEXT_MISMATCH arrays of different contexts
 *  @retval USMARR_ERROR_ALLOCATION the upper bound could not be allocated */
USMARR_API USMARR_NODISCARD int usmarr_extract(const usmarr_array_t *condition, const usmarr_array_t *a,
                                               usmarr_array_t **result);

/** @brief Writes @p values, repeated cyclically in C order, where @p mask is true (NumPy's
 *  place), in place.
 *  @param a the target, writable
 *  @param mask a mask of a's shape, any dtype
 *  @param values the values, flattened and converted to a's dtype; may be empty only when
 *         the mask selects nothing
 *  @return 0 on success
 *  @retval USMARR_ERROR_INVALID_ARGUMENT a NULL argument, or empty @p values with a
 *          selecting mask
 *  @retval USMARR_ERROR_READ_ONLY @p a is read-only
 *  @retval USMARR_ERROR_SHAPE_MISMATCH the shapes of @p mask and @p a differ
 *  @retval USMARR_ERROR_CONTEXT_MISMATCH arrays of different contexts */
USMARR_API USMARR_NODISCARD int usmarr_place(usmarr_array_t *a, const usmarr_array_t *mask,
                                             const usmarr_array_t *values);

/** @brief The indices of the non-zero elements (NumPy's nonzero), one int64 array per
 *  dimension, in C order.  All @p ndim arrays are views of one finalized pod block.  This
 *  call waits for the count.
 *  @param a an array of at least one dimension, any dtype
 *  @param[out] indices room for usmarr_array_ndim(a) arrays, each 1-d of the number of
 *         non-zero elements, with one reference each; untouched on failure
 *  @return 0 on success
 *  @retval USMARR_ERROR_INVALID_ARGUMENT a NULL argument or a 0-d @p a
 *  @retval USMARR_ERROR_ALLOCATION the upper bound could not be allocated */
USMARR_API USMARR_NODISCARD int usmarr_nonzero(const usmarr_array_t *a, usmarr_array_t **indices);

/** @} */

/** @name Arrays built from others
 * The array API's `unstack`, `meshgrid`, `tril` and `triu` (doc/indexing.md).
 * @{ */

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
/** @} */

#endif
