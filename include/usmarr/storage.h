/* Part of usmarr.h: include <usmarr.h>, not this file. */
#ifndef USMARR_H_INSIDE
#error "include <usmarr.h> instead of usmarr/storage.h"
#endif
#ifndef USMARR_STORAGE_H
#define USMARR_STORAGE_H

/** @name Storages (after GT4Py's storages, GDP 3; doc/storage.md, doc/glossary.md)
 *
 * A storage is an array of at most three spatial dimensions that knows what its axes
 * mean (a sub-sequence of "IJK" in any order), where its inner domain starts (the halo),
 * how its memory is aligned, and, for a library-managed host/device pair, which side
 * holds the newest data.  `doc/storage.md` is the guide; these are the decisions a user
 * must know:
 *
 * - **Units.** `alignment` is in **bytes**, as GT4Py's allocator computes it; it and the
 *   itemsize must divide one another.  Strides are in elements, as everywhere.
 * - **Kinds.** `device` NULL gives a host storage (one USM host allocation); `device`
 *   "gpu" (or "device") with `managed` "gt4py" (the default) gives a managed host/device
 *   pair, with `managed` "cuda" (or "shared") one USM shared allocation, with `managed`
 *   "none" one USM device allocation.  Wrapped memory must be USM of the context
 *   (checked with the allocation query): kernels must be able to reach it.
 * - **Sync.** A managed pair has one sync state shared by all its views.  The library
 *   pushes a host-dirty pair before an operation reads the device side and pulls a
 *   device-dirty pair before handing out the host side.  Every sync call is a valid
 *   no-op on the other kinds.
 * - **Parameters** not given come from the preset (`defaults`), then from the wrapped
 *   buffer, then from the fallbacks (float64, "IJK", no halo, alignment 1, layout "IJK",
 *   host kind).
 * @{ */

/** Opaque storage handle: reference counted like arrays. */
typedef struct usmarr_storage usmarr_storage_t;
/** The sync state shared by every view of one managed host/device pair (reference counted). */
typedef struct usmarr_sync_state usmarr_sync_state_t;

/** The most spatial dimensions a storage has. */
#define USMARR_STORAGE_MAX_NDIM 3

/** The four storage kinds (GT4Py's storage classes), on USM. */
typedef enum usmarr_storage_kind {
    USMARR_STORAGE_HOST = 1,    /**< CPUStorage: one USM host allocation */
    USMARR_STORAGE_DEVICE = 2,  /**< GPUStorage: one USM device allocation, no host side */
    USMARR_STORAGE_SHARED = 3,  /**< CUDA-managed: one USM shared allocation, both sides */
    USMARR_STORAGE_MANAGED = 4  /**< GT4Py-managed: a host and a device allocation kept in sync */
} usmarr_storage_kind_t;

/** Which side of a managed pair holds the newest data. */
typedef enum usmarr_sync {
    USMARR_SYNC_CLEAN = 0,        /**< both sides are equal */
    USMARR_SYNC_HOST_DIRTY = 1,   /**< the host side was modified */
    USMARR_SYNC_DEVICE_DIRTY = 2  /**< the device side was modified */
} usmarr_sync_t;

/** A named preset of parameters (GT4Py's `defaults`).  Every string is copied when the
 *  preset is registered.  Built in: "C" and "F" (alignment 1, host), "gtx86" (layout
 *  "IJK", 64 bytes, host), "gtcuda" (layout "KJI", 256 bytes, device "gpu"). */
typedef struct usmarr_storage_preset {
    const char *name;    /**< "C", "F", "gtx86", "gtcuda", or a user's name (at most 31 bytes) */
    /** The layout rule: a permutation of "IJK" fixes the layout by axis *meaning*
     *  (gtx86: "IJK", gtcuda: "KJI"); "C" or "F" derives it from the index *position*
     *  (first index largest stride, or smallest), as wrapping a C or Fortran buffer needs. */
    const char *layout;
    int64_t alignment;   /**< bytes, at least 1 */
    const char *device;  /**< NULL (host only) or "gpu" */
    const char *managed; /**< NULL (the default, "gt4py"), "none", "gt4py" or "cuda" */
} usmarr_storage_preset_t;

/** @brief Adds a preset to the process-wide table, or replaces the one of the same name
 *  (the four built-in ones included).  Thread-safe.
 *  @param preset the preset (strings copied)
 *  @return 0 on success
 *  @retval USMARR_ERROR_INVALID_ARGUMENT NULL, an empty or too long name, a layout that is
 *          neither "C", "F" nor a permutation of "IJK", alignment below 1, a bad device or
 *          managed value
 *  @retval USMARR_ERROR_OUT_OF_HOST_MEMORY the table could not grow */
USMARR_API USMARR_NODISCARD int usmarr_storage_preset_register(const usmarr_storage_preset_t *preset);
/** @brief Looks a preset up by name.
 *  @param name the preset's name
 *  @param[out] preset the preset; its strings live as long as the table entry
 *  @return 0 on success
 *  @retval USMARR_ERROR_INVALID_ARGUMENT NULL argument, or no preset of that name (the
 *          detail lists the known names) */
USMARR_API USMARR_NODISCARD int usmarr_storage_preset_find(const char *name, usmarr_storage_preset_t *preset);

/** @brief The common parameters of every storage creation function (GT4Py's keyword
 *  arguments).  Start from ::USMARR_STORAGE_OPTIONS_INIT, which leaves everything unset. */
typedef struct usmarr_storage_options {
    usmarr_context_t *context; /**< required unless a wrapped buffer or `_like` prototype gives it */
    const char *defaults;      /**< NULL, or a preset name */
    int dtype;                 /**< -1 unset, else a ::usmarr_dtype_t */
    const char *axes;          /**< NULL unset; a sub-sequence of "IJK" in any order ("IJK", "KJI", "IK", "J") */
    /** number of `shape` entries given: 0 unset, the storage's ndim, or 3 for a storage of
     *  fewer axes (then the entries of the missing axes, in "IJK" order, are ignored) */
    int nshape;
    int64_t shape[USMARR_STORAGE_MAX_NDIM]; /**< in `axes` order; the full extent, halo included */
    /** number of `halo` entries: 0 unset (no halo), or the storage's ndim */
    int nhalo;
    int64_t halo[USMARR_STORAGE_MAX_NDIM][2]; /**< (lower, upper) per axis; usmarr_storage_halo_symmetric() */
    /** number of `aligned_index` entries: 0 unset (the halo's lower corner), ndim or 3 */
    int naligned_index;
    int64_t aligned_index[USMARR_STORAGE_MAX_NDIM];
    int64_t alignment;         /**< bytes; 0 unset */
    const char *layout;        /**< NULL unset; a length-3 permutation of "IJK", largest stride first */
    const char *device;        /**< NULL unset (host only); "gpu" or "device" for a device buffer */
    const char *managed;       /**< NULL unset ("gt4py"); "none", "gt4py", "cuda" or "shared" */
} usmarr_storage_options_t;

/** Every parameter unset. */
#define USMARR_STORAGE_OPTIONS_INIT { .dtype = -1 }

/** @brief Sets `options->halo` to @p width on both sides of each of @p ndim axes. */
USMARR_API void usmarr_storage_halo_symmetric(usmarr_storage_options_t *options, int ndim, const int64_t *width);

/** @brief A storage with uninitialised elements (GT4Py's `empty`).
 *
 * The contiguous (smallest-stride) dimension is padded to whole aligned blocks and the
 * element at `aligned_index` starts on an `alignment`-byte boundary; the padding is never
 * part of the storage.
 * @param options the parameters (borrowed); `shape` is required
 * @param[out] storage the new storage
 * @return 0 on success
 * @retval USMARR_ERROR_INVALID_ARGUMENT NULL argument, no shape, bad axes (duplicate,
 *         unknown letter, too long), bad layout, unknown preset, halo larger than the
 *         shape, aligned index outside the shape, a bad device or managed value
 * @retval USMARR_ERROR_BAD_DTYPE invalid dtype
 * @retval USMARR_ERROR_UNSUPPORTED an alignment that the itemsize does not divide nor
 *         divides, or a kind whose USM the device lacks
 * @retval USMARR_ERROR_OVERFLOW the padded size overflows
 * @retval USMARR_ERROR_ALLOCATION the USM allocation failed */
USMARR_API USMARR_NODISCARD int usmarr_storage_empty(const usmarr_storage_options_t *options,
                                                     usmarr_storage_t **storage);
/** @brief A storage of zeros; arguments and errors as usmarr_storage_empty(). */
USMARR_API USMARR_NODISCARD int usmarr_storage_zeros(const usmarr_storage_options_t *options,
                                                     usmarr_storage_t **storage);
/** @brief A storage of ones; arguments and errors as usmarr_storage_empty(). */
USMARR_API USMARR_NODISCARD int usmarr_storage_ones(const usmarr_storage_options_t *options,
                                                    usmarr_storage_t **storage);
/** @brief A storage filled with @p value (converted as usmarr_array_full() does).
 *  Other arguments and errors as usmarr_storage_empty(). */
USMARR_API USMARR_NODISCARD int usmarr_storage_full(const usmarr_storage_options_t *options, usmarr_scalar_t value,
                                                    usmarr_storage_t **storage);
/** @brief An uninitialised storage with @p proto's parameters, overridden by the set fields
 *  of @p overrides (NULL: none).  `shape` and `axes` cannot be overridden.
 *  @retval USMARR_ERROR_INVALID_ARGUMENT @p overrides sets shape or axes
 *  Other errors as usmarr_storage_empty(). */
USMARR_API USMARR_NODISCARD int usmarr_storage_empty_like(const usmarr_storage_t *proto,
                                                          const usmarr_storage_options_t *overrides,
                                                          usmarr_storage_t **storage);
/** @brief Zeros; as usmarr_storage_empty_like(). */
USMARR_API USMARR_NODISCARD int usmarr_storage_zeros_like(const usmarr_storage_t *proto,
                                                          const usmarr_storage_options_t *overrides,
                                                          usmarr_storage_t **storage);
/** @brief Ones; as usmarr_storage_empty_like(). */
USMARR_API USMARR_NODISCARD int usmarr_storage_ones_like(const usmarr_storage_t *proto,
                                                         const usmarr_storage_options_t *overrides,
                                                         usmarr_storage_t **storage);
/** @brief @p value everywhere; as usmarr_storage_empty_like(). */
USMARR_API USMARR_NODISCARD int usmarr_storage_full_like(const usmarr_storage_t *proto,
                                                         const usmarr_storage_options_t *overrides,
                                                         usmarr_scalar_t value, usmarr_storage_t **storage);

/** Existing memory handed to usmarr_storage_wrap() or usmarr_storage_from(): an array, or
 *  a pointer described by the options' shape and dtype and the strides here. */
typedef struct usmarr_storage_buffer {
    const usmarr_array_t *array; /**< an existing array (its shape, strides, dtype); or NULL */
    void *pointer;               /**< with @c array NULL: the address of element [0,0,0] */
    /** with @c array NULL: strides in elements in `axes` order, or NULL for the layout's
     *  dense strides */
    const int64_t *strides;
} usmarr_storage_buffer_t;

/** @brief Wraps existing memory without a copy (GT4Py's `as_storage`).
 *
 * For a host storage give @p data, for a device or shared storage @p device_data (or
 * @p data), for a managed pair both, laid out alike.  Pointers must be USM of the context
 * and cover the layout (checked with clGetMemAllocInfoINTEL); strides must order the axes
 * as the layout says.  Nothing is ever copied.
 * @param options the parameters; shape, dtype and strides may come from the buffers
 * @param data the host buffer, or NULL
 * @param device_data the device buffer, or NULL
 * @param sync_state for a managed pair: the sync state extracted from the storage these
 *        buffers came from, or NULL to start a new one in state @p sync
 * @param sync the initial state of a new sync state (which side is up to date)
 * @param[out] storage the new storage; it keeps the wrapped memory alive
 * @retval USMARR_ERROR_INVALID_ARGUMENT no buffer, parameters that contradict a buffer,
 *         strides contrary to the layout, host and device buffers laid out differently,
 *         a sync state of another pair or one whose pair was released
 * @retval USMARR_ERROR_FOREIGN_POINTER a pointer that is not USM of the context
 * @retval USMARR_ERROR_OUT_OF_BOUNDS a buffer too small for the layout
 * Other errors as usmarr_storage_empty(). */
USMARR_API USMARR_NODISCARD int usmarr_storage_wrap(const usmarr_storage_options_t *options,
                                                    const usmarr_storage_buffer_t *data,
                                                    const usmarr_storage_buffer_t *device_data,
                                                    usmarr_sync_state_t *sync_state, usmarr_sync_t sync,
                                                    usmarr_storage_t **storage);
/** @brief GT4Py's `storage` function: with @p copy true allocates a new aligned storage and
 *  copies the elements of @p data (host memory of any kind, or USM) or @p device_data
 *  into it (arrays convert to the options' dtype); a managed pair takes @p data into its
 *  host side and @p device_data into its device side, and given only one it is marked
 *  dirty on that side.  With @p copy false it is usmarr_storage_wrap() (sync state new,
 *  clean), and with no buffer at all it is usmarr_storage_empty().
 *  Errors as usmarr_storage_wrap() and usmarr_storage_empty(). */
USMARR_API USMARR_NODISCARD int usmarr_storage_from(const usmarr_storage_options_t *options,
                                                    const usmarr_storage_buffer_t *data,
                                                    const usmarr_storage_buffer_t *device_data, bool copy,
                                                    usmarr_storage_t **storage);

/** @brief Adds a reference. */
USMARR_API usmarr_storage_t *usmarr_storage_retain(usmarr_storage_t *storage);
/** @brief Drops a reference; the last frees the descriptor and drops its arrays. NULL: no-op. */
USMARR_API void usmarr_storage_release(usmarr_storage_t *storage);
/** @brief Current reference count (diagnostics); 0 for NULL. */
USMARR_API int usmarr_storage_refcount(const usmarr_storage_t *storage);

/** @brief Number of dimensions (the length of axes); -1 for NULL. */
USMARR_API int usmarr_storage_ndim(const usmarr_storage_t *storage);
/** @brief The axes letters, e.g. "IJK" or "KI" (borrowed). */
USMARR_API const char *usmarr_storage_axes(const usmarr_storage_t *storage);
/** @brief The shape in axes order (borrowed, ndim entries). */
USMARR_API const int64_t *usmarr_storage_shape(const usmarr_storage_t *storage);
/** @brief The strides in elements in axes order (borrowed); both sides of a pair share them. */
USMARR_API const int64_t *usmarr_storage_strides(const usmarr_storage_t *storage);
/** @brief The element type. */
USMARR_API usmarr_dtype_t usmarr_storage_dtype(const usmarr_storage_t *storage);
/** @brief Bytes of the elements, padding excluded. */
USMARR_API int64_t usmarr_storage_nbytes(const usmarr_storage_t *storage);
/** @brief The kind. */
USMARR_API usmarr_storage_kind_t usmarr_storage_kind(const usmarr_storage_t *storage);
/** @brief The context (borrowed). */
USMARR_API usmarr_context_t *usmarr_storage_context(const usmarr_storage_t *storage);
/** @brief The halo: ndim (lower, upper) pairs (borrowed). */
USMARR_API const int64_t (*usmarr_storage_halo(const usmarr_storage_t *storage))[2];
/** @brief Changes the halo (metadata only: no memory moves, alignment unchanged).
 *  @param storage the storage
 *  @param nhalo the storage's ndim
 *  @param halo (lower, upper) per axis
 *  @retval USMARR_ERROR_INVALID_ARGUMENT NULL, wrong count, negative widths, or a halo
 *          larger than the shape (the detail names the axis) */
USMARR_API USMARR_NODISCARD int usmarr_storage_set_halo(usmarr_storage_t *storage, int nhalo,
                                                        const int64_t (*halo)[2]);
/** @brief The aligned index, ndim entries (borrowed). */
USMARR_API const int64_t *usmarr_storage_aligned_index(const usmarr_storage_t *storage);
/** @brief The alignment in bytes. */
USMARR_API int64_t usmarr_storage_alignment(const usmarr_storage_t *storage);
/** @brief The layout: three letters, largest stride first (borrowed). */
USMARR_API const char *usmarr_storage_layout(const usmarr_storage_t *storage);

/** @brief The host side as an array (borrowed; lives as long as the storage), after pulling
 *  a device-dirty pair and waiting for queued work (so its memory can be read at once).
 *  With @p write true the pair becomes host dirty: the caller is about to modify it
 *  through the array or its pointer (a write made later needs
 *  usmarr_storage_set_host_modified()).
 *  @retval USMARR_ERROR_UNSUPPORTED a device storage (no host side) */
USMARR_API USMARR_NODISCARD int usmarr_storage_host_array(usmarr_storage_t *storage, bool write,
                                                          usmarr_array_t **array);
/** @brief The device side as an array (borrowed), after pushing a host-dirty pair.  With
 *  @p write true the pair becomes device dirty.
 *  @retval USMARR_ERROR_UNSUPPORTED a host storage (no device side) */
USMARR_API USMARR_NODISCARD int usmarr_storage_device_array(usmarr_storage_t *storage, bool write,
                                                            usmarr_array_t **array);
/** @brief The address of element [0,0,0] on the host side (usmarr_storage_host_array() and
 *  usmarr_array_data()); @p write true marks the host dirty. */
USMARR_API USMARR_NODISCARD int usmarr_storage_host_data(usmarr_storage_t *storage, bool write, void **data);

/** @brief The sync state (borrowed; NULL unless the storage is a managed pair). */
USMARR_API usmarr_sync_state_t *usmarr_storage_sync_state(const usmarr_storage_t *storage);
/** @brief Adds a reference to a sync state. */
USMARR_API usmarr_sync_state_t *usmarr_sync_state_retain(usmarr_sync_state_t *state);
/** @brief Drops a reference. */
USMARR_API void usmarr_sync_state_release(usmarr_sync_state_t *state);
/** @brief The current state (the last one set, also after the pair was released).
 *  @retval USMARR_ERROR_INVALID_ARGUMENT NULL argument */
USMARR_API USMARR_NODISCARD int usmarr_sync_state_get(const usmarr_sync_state_t *state, usmarr_sync_t *value);
/** @brief Sets the state directly (for buffers the user synchronised by hand).
 *  @retval USMARR_ERROR_BAD_STATE every storage of the pair was released */
USMARR_API USMARR_NODISCARD int usmarr_sync_state_set(usmarr_sync_state_t *state, usmarr_sync_t value);

/** @brief Marks the host side modified (managed pair; no-op otherwise). */
USMARR_API USMARR_NODISCARD int usmarr_storage_set_host_modified(usmarr_storage_t *storage);
/** @brief Marks the device side modified (managed pair; no-op otherwise). */
USMARR_API USMARR_NODISCARD int usmarr_storage_set_device_modified(usmarr_storage_t *storage);
/** @brief Marks both sides equal (managed pair; no-op otherwise). */
USMARR_API USMARR_NODISCARD int usmarr_storage_set_synchronized(usmarr_storage_t *storage);
/** @brief Copies whichever side is dirty to the other; then clean. */
USMARR_API USMARR_NODISCARD int usmarr_storage_synchronize(usmarr_storage_t *storage);
/** @brief Copies host to device when the host is dirty or @p force; then clean.  Unforced
 *  on a device-dirty pair it copies nothing and keeps the state. */
USMARR_API USMARR_NODISCARD int usmarr_storage_host_to_device(usmarr_storage_t *storage, bool force);
/** @brief Copies device to host when the device is dirty or @p force; then clean.  Unforced
 *  on a host-dirty pair it copies nothing and keeps the state. */
USMARR_API USMARR_NODISCARD int usmarr_storage_device_to_host(usmarr_storage_t *storage, bool force);

/** @brief The inner domain: a storage view without the halo, whose [0,0,0] is the first
 *  inner point (its halo is zero; aligned index moved with it, clipped at 0). */
USMARR_API USMARR_NODISCARD int usmarr_storage_domain_view(const usmarr_storage_t *storage,
                                                           usmarr_storage_t **view);
/** @brief Basic indexing (integers, slices, ellipsis; no new axes): a storage view.  An
 *  integer removes its axis letter; a slice keeps it.  Halo and aligned index follow the
 *  rule of `doc/storage.md` (moved by the slice start, clipped to the new extent; a
 *  negative-step slice swaps lower and upper halo).
 *  @retval USMARR_ERROR_INVALID_ARGUMENT a new axis, or more items than axes
 *  @retval USMARR_ERROR_INDEX an integer out of range */
USMARR_API USMARR_NODISCARD int usmarr_storage_index(const usmarr_storage_t *storage,
                                                     const usmarr_index_item_t *items, size_t nitems,
                                                     usmarr_storage_t **view);
/** @brief usmarr_storage_index() with NumPy's index text ("1:-1, 3, ..."). */
USMARR_API USMARR_NODISCARD int usmarr_storage_index_text(const usmarr_storage_t *storage, const char *text,
                                                          usmarr_storage_t **view);
/** @brief Advanced indexing with a boolean mask (a storage of the same axes, in any axes
 *  order, or an array of the storage's shape): the selected elements as a plain 1-D
 *  array, in the storage's index order. */
USMARR_API USMARR_NODISCARD int usmarr_storage_get_mask(const usmarr_storage_t *storage,
                                                        const usmarr_storage_t *mask_storage,
                                                        const usmarr_array_t *mask_array, usmarr_array_t **result);
/** @brief Advanced indexing with one integer index array per axis (broadcast together,
 *  negative values count from the end): a plain array of the broadcast shape.
 *  @retval USMARR_ERROR_INDEX an index out of range (the detail names the axis) */
USMARR_API USMARR_NODISCARD int usmarr_storage_get_indices(const usmarr_storage_t *storage,
                                                           const usmarr_array_t *const *indices,
                                                           usmarr_array_t **result);

/** An operand of the storage operations: a storage, a plain array, or a scalar. */
typedef struct usmarr_storage_operand {
    const usmarr_storage_t *storage; /**< borrowed, or NULL */
    const usmarr_array_t *array;     /**< borrowed, or NULL (used when storage is NULL) */
    usmarr_scalar_t scalar;          /**< used when both are NULL */
} usmarr_storage_operand_t;

/** @brief Region assignment (GT4Py's `__setitem__`): `storage[items] = value`, which
 *  broadcasts as usmarr_storage_elementwise("positive", value, out = the region) does.
 *  @retval USMARR_ERROR_SHAPE_MISMATCH the value does not broadcast to the region */
USMARR_API USMARR_NODISCARD int usmarr_storage_assign(usmarr_storage_t *storage, const usmarr_index_item_t *items,
                                                      size_t nitems, const usmarr_storage_operand_t *value);
/** @brief Applies an elementwise function (any name usmarr_elementwise() knows) with
 *  named-axes broadcasting: storages broadcast along their axis letters (an "IJ" (2,3)
 *  plus a "K" (4) is an "IJK" (2,3,4)); size-1 extents broadcast as in NumPy.  A plain
 *  array must have the storage's (or the broadcast) shape, or be 3-D with size-1
 *  extents broadcasting.  Without @p out the result's parameters follow GT4Py's rules: aligned
 *  index the per-axis maximum, alignment the least common multiple, axes the common ones
 *  (else the input holding all others', else the union in "IJK" order), halo such that
 *  the domain is the intersection of the inputs' domains, layout and kind of the first
 *  storage operand.  On managed pairs the operation runs on the device unless every
 *  managed input is host dirty; the result is marked dirty on the side it was written.
 *  @retval USMARR_ERROR_SHAPE_MISMATCH conflicting sizes on the same letter, or a plain
 *          array of neither allowed shape (the detail names both shapes)
 *  Other errors as usmarr_elementwise(). */
USMARR_API USMARR_NODISCARD int usmarr_storage_elementwise(const char *name, const usmarr_storage_operand_t *operands,
                                                           int noperands, usmarr_storage_t *out,
                                                           usmarr_storage_t **result);
/** @brief A reduction (any name usmarr_reduce() knows) over the axes named by letters
 *  (NULL or "" = all): each reduced letter leaves the result's axes; reducing all gives
 *  a 0-d storage with axes "".
 *  @retval USMARR_ERROR_INVALID_ARGUMENT a letter the storage does not have, or repeated */
USMARR_API USMARR_NODISCARD int usmarr_storage_reduce(const char *name, const usmarr_storage_t *storage,
                                                      const char *axes, usmarr_storage_t *out,
                                                      usmarr_storage_t **result);

/** @brief A fused expression (include/usmarr/expr.h) over storage operands, with the
 *  named-axes broadcasting and output parameters of usmarr_storage_elementwise(); one
 *  kernel for the whole expression.  An expression that ends in a reduction
 *  (`"sum(a * b)"`) reduces over the letters @p axes of the operands' broadcast axes
 *  (NULL or "" = all), with the parameters of usmarr_storage_reduce()'s result.
 *  @param expr the expression (borrowed)
 *  @param operands usmarr_expr_operand_count() operands (at most 8), in the expression's order
 *  @param noperands their number
 *  @param axes the letters to reduce, or NULL; must be NULL or "" without a reduction
 *  @param out NULL, or the storage to write
 *  @param[out] result the result, or @p out retained; may be NULL when @p out is given
 *  @return 0 on success
 *  @retval USMARR_ERROR_INVALID_ARGUMENT NULL @p expr, a wrong @p noperands, an operand
 *          setting both storage and array, @p axes without a reduction, a letter the
 *          operands lack or a repeated one
 *  @retval USMARR_ERROR_UNSUPPORTED more than 8 operands
 *  @retval USMARR_ERROR_SHAPE_MISMATCH as usmarr_storage_elementwise() and usmarr_storage_reduce()
 *  Other errors as usmarr_expr_apply() and usmarr_expr_reduce(). */
USMARR_API USMARR_NODISCARD int usmarr_storage_evaluate(const usmarr_expr_t *expr,
                                                        const usmarr_storage_operand_t *operands, int noperands,
                                                        const char *axes, usmarr_storage_t *out,
                                                        usmarr_storage_t **result);

/** @brief A view with the same buffer, shape and strides and new axis letters (GT4Py's
 *  `reinterpret`): an "IJK" (10,20,30) reinterpreted "KJI" has K extent 10. */
USMARR_API USMARR_NODISCARD int usmarr_storage_reinterpret(const usmarr_storage_t *storage, const char *axes,
                                                           usmarr_storage_t **view);
/** @brief Permutes the axes so that they read @p axes (a permutation of the storage's
 *  letters), or reverses them when @p axes is NULL; halo, aligned index and shape follow. */
USMARR_API USMARR_NODISCARD int usmarr_storage_transpose(const usmarr_storage_t *storage, const char *axes,
                                                         usmarr_storage_t **view);
/** @brief A new storage with every parameter of @p storage (kind, alignment, layout,
 *  halo, aligned index, sync state value) and a copy of the data. */
USMARR_API USMARR_NODISCARD int usmarr_storage_copy(const usmarr_storage_t *storage, usmarr_storage_t **copy);

/** @brief The device side as the USM array interface; pointers borrowed
 *  from the storage.  Pushes a host-dirty pair first; a writable side handed out this
 *  way marks the pair device dirty.
 *  @retval USMARR_ERROR_UNSUPPORTED a host storage */
USMARR_API USMARR_NODISCARD int usmarr_storage_device_interface(usmarr_storage_t *storage,
                                                                usmarr_interface_t *iface);
/** @brief The device side's USM array interface as JSON (usmarr_interface_to_json()). */
USMARR_API USMARR_NODISCARD int usmarr_storage_device_json(usmarr_storage_t *storage, char **json);
/** @brief The host side as NumPy's `__array_interface__` in JSON: `shape`, `typestr`,
 *  `data` = [pointer, readonly], `strides` in **bytes** (NumPy's unit) or null, `version`
 *  3.  Pulls a device-dirty pair first; a writable side handed out this way marks the
 *  pair host dirty.  Free with usmarr_string_free().
 *  @retval USMARR_ERROR_UNSUPPORTED a device storage */
USMARR_API USMARR_NODISCARD int usmarr_storage_host_json(usmarr_storage_t *storage, char **json);

/** @brief Writes a dump of the parameters, the kind, the sync state and the underlying
 *  arrays, in the style of usmarr_array_debug_print(). */
USMARR_API USMARR_NODISCARD int usmarr_storage_debug_print(const usmarr_storage_t *storage, FILE *out);
/** @brief The same dump as an allocated string (free with usmarr_string_free()). */
USMARR_API USMARR_NODISCARD int usmarr_storage_debug_string(const usmarr_storage_t *storage, char **text);

/** @} */

#endif
