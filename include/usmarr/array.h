/* Part of usmarr.h: include <usmarr.h>, not this file. */
#ifndef USMARR_H_INSIDE
#error "include <usmarr.h> instead of usmarr/array.h"
#endif
#ifndef USMARR_ARRAY_H
#define USMARR_ARRAY_H

/** @name Arrays
 * An array is a descriptor (nd, shape, strides in elements, offset in elements, dtype,
 * flags) over a memory block it holds a reference to.  Element `[i0,...,in-1]` lives at
 * `memory_pointer + (offset + sum(ik*stride[k])) * itemsize`.
 * @{ */

typedef struct usmarr_array usmarr_array_t;

/** The largest supported number of dimensions. */
#define USMARR_MAX_NDIM 64

/** Array flags. */
enum usmarr_array_flag {
    USMARR_FLAG_C_CONTIGUOUS = 1u << 0, /**< exact: after dropping size-1 dims, stride[i]==prod(shape[i+1:]) */
    USMARR_FLAG_F_CONTIGUOUS = 1u << 1, /**< exact, column-major */
    USMARR_FLAG_WRITABLE = 1u << 2,     /**< writes allowed */
    USMARR_FLAG_READABLE = 1u << 3,     /**< reads allowed (always set) */
    USMARR_FLAG_IMMUTABLE = 1u << 4     /**< nobody may ever write the elements; implies not writable */
};

/** Memory order for layouts and copies. */
typedef enum usmarr_order {
    USMARR_ORDER_C = 'C',
    USMARR_ORDER_F = 'F',
    USMARR_ORDER_A = 'A', /**< F if the input is F-contiguous and not C-contiguous, else C */
    USMARR_ORDER_K = 'K'  /**< follow the input's stride order as closely as possible */
} usmarr_order_t;

/** Where usmarr_array_create() finds or puts the elements. */
typedef enum usmarr_buffer {
    USMARR_BUFFER_DEVICE = 0, /**< allocate new USM device memory (the default) */
    USMARR_BUFFER_SHARED = 1, /**< allocate new USM shared memory */
    USMARR_BUFFER_HOST = 2,   /**< allocate new USM host memory */
    USMARR_BUFFER_MEMORY = 3, /**< use the existing block usmarr_array_options_t::memory */
    USMARR_BUFFER_ARRAY = 4   /**< use the memory block of usmarr_array_options_t::array */
} usmarr_buffer_t;

/** @brief Arguments of usmarr_array_create(), the array constructor (doc/glossary.md,
 * "Array descriptor").
 *
 * Start from ::USMARR_ARRAY_OPTIONS_INIT (float64, C order, new device memory, the
 * defaults of dpctl's `usm_ndarray` constructor) and set what differs.  A
 * zero-initialised struct is also valid and means the same except that its dtype is
 * bool.  All pointers are borrowed. */
typedef struct usmarr_array_options {
    /** Context to allocate on.  Required for new allocations; for ::USMARR_BUFFER_MEMORY and
     *  ::USMARR_BUFFER_ARRAY it may be NULL, else it must be the buffer's context. */
    usmarr_context_t *context;
    int ndim;               /**< number of dimensions, 0 to ::USMARR_MAX_NDIM */
    const int64_t *shape;   /**< @c ndim extents, none negative (NULL allowed when ndim is 0) */
    usmarr_dtype_t dtype;   /**< element type, ignored when @c typestr is set */
    const char *typestr;    /**< NULL, or an array-interface typestr ("<f4") that sets the dtype */
    usmarr_buffer_t buffer; /**< where the elements live */
    usmarr_memory_t *memory;       /**< the block, for ::USMARR_BUFFER_MEMORY */
    const usmarr_array_t *array;   /**< the array whose block to use, for ::USMARR_BUFFER_ARRAY */
    /** @c ndim strides in elements (may be negative or zero), or NULL for the contiguous
     *  layout @c order names. */
    const int64_t *strides;
    /** Element offset of element [0,...,0] from the block's base.  Must be 0 when the
     *  constructor allocates: it then sizes the block to the strides' exact span and sets
     *  the offset to minus the most negative displacement (shape (2,2) with strides (2,-1)
     *  gives offset 1 in a 4-element block). */
    int64_t offset;
    usmarr_order_t order;   /**< ::USMARR_ORDER_C or ::USMARR_ORDER_F when strides is NULL; 0 means C */
    size_t alignment;       /**< new allocations: 0 or a power of two (bytes) */
    /** With an existing buffer: allocate a new block of the same USM kind and copy the old
     *  block's bytes into it (dpctl's `copy` buffer option).  The new array is then not
     *  tied to the old block. */
    bool copy;
    bool read_only;         /**< the array rejects writes (clears ::USMARR_FLAG_WRITABLE) */
    bool immutable;         /**< promise that nobody writes the elements; implies read_only */
} usmarr_array_options_t;

/** The constructor's defaults: float64, C order, new USM device memory.  Set the context
 *  and shape. */
#define USMARR_ARRAY_OPTIONS_INIT \
    { .dtype = USMARR_FLOAT64, .buffer = USMARR_BUFFER_DEVICE, .order = USMARR_ORDER_C }

/** @brief Creates an array: the array constructor.
 *
 * New allocations are sized to the exact span of the layout.  With explicit strides the
 * layout must be free of aliasing when the constructor allocates: ordered by absolute
 * stride, each axis of extent > 1 must step past everything the smaller axes reach (so
 * zero strides on such axes and overlapping strides are rejected; padded C/F layouts and
 * negative strides are fine).  With an existing buffer any layout whose span lies inside
 * the block is accepted, overlapping ones included (they are then never contiguous).
 * An array made over a read-only array is read-only too.
 *
 * @param options the constructor arguments (borrowed)
 * @param[out] array the new array, with one reference; it holds a reference to its block
 * @return 0 on success
 * @retval USMARR_ERROR_INVALID_ARGUMENT NULL options/array/context/shape/strides/memory,
 *         ndim outside [0, ::USMARR_MAX_NDIM], a negative extent, a bad order, buffer or
 *         alignment, a non-zero offset or aliasing strides with a new allocation, or an
 *         element pointer misaligned for the dtype
 * @retval USMARR_ERROR_BAD_DTYPE invalid dtype or typestr
 * @retval USMARR_ERROR_UNSUPPORTED float64/complex128 on a device without fp64
 * @retval USMARR_ERROR_OVERFLOW the element count, byte size or a displacement overflows
 *         64 bits
 * @retval USMARR_ERROR_OUT_OF_BOUNDS the layout reaches before the block's start or past
 *         its end; the detail says which stride and offset
 * @retval USMARR_ERROR_CONTEXT_MISMATCH @c context is not the buffer's context
 * @retval USMARR_ERROR_ALLOCATION the USM allocation failed */
USMARR_API USMARR_NODISCARD int usmarr_array_create(const usmarr_array_options_t *options, usmarr_array_t **array);

/** @brief Adds a reference.
 *  @return its argument (NULL stays NULL) */
USMARR_API usmarr_array_t *usmarr_array_retain(usmarr_array_t *array);
/** @brief Drops a reference; the last one frees the descriptor and drops its block's
 *  reference.  NULL is a no-op. */
USMARR_API void usmarr_array_release(usmarr_array_t *array);
/** @brief Current reference count (for diagnostics); 0 for NULL. */
USMARR_API int usmarr_array_refcount(const usmarr_array_t *array);

/** @brief Makes the array reject every write from now on (clears ::USMARR_FLAG_WRITABLE).
 *  Other arrays over the same block are unaffected; it cannot be undone.
 *  @retval USMARR_ERROR_INVALID_ARGUMENT @p array is NULL */
USMARR_API USMARR_NODISCARD int usmarr_array_make_read_only(usmarr_array_t *array);

/** @brief Number of dimensions; -1 for NULL. */
USMARR_API int usmarr_array_ndim(const usmarr_array_t *array);
/** @brief The shape (borrowed, `ndim` entries; may be NULL when ndim is 0). */
USMARR_API const int64_t *usmarr_array_shape(const usmarr_array_t *array);
/** @brief The strides in elements (borrowed, `ndim` entries). */
USMARR_API const int64_t *usmarr_array_strides(const usmarr_array_t *array);
/** @brief Element offset of element [0,...,0] from the memory block's base pointer. */
USMARR_API int64_t usmarr_array_offset(const usmarr_array_t *array);
/** @brief The element type. */
USMARR_API usmarr_dtype_t usmarr_array_dtype(const usmarr_array_t *array);
/** @brief Bytes per element. */
USMARR_API size_t usmarr_array_itemsize(const usmarr_array_t *array);
/** @brief Number of elements (product of the shape; 1 for 0-d). */
USMARR_API int64_t usmarr_array_size(const usmarr_array_t *array);
/** @brief size * itemsize: the bytes the elements occupy when packed. */
USMARR_API int64_t usmarr_array_nbytes(const usmarr_array_t *array);
/** @brief Bitwise OR of ::usmarr_array_flag values. */
USMARR_API unsigned usmarr_array_flags(const usmarr_array_t *array);
/** @brief The memory block (borrowed). */
USMARR_API usmarr_memory_t *usmarr_array_memory(const usmarr_array_t *array);
/** @brief The context (borrowed). */
USMARR_API usmarr_context_t *usmarr_array_context(const usmarr_array_t *array);
/** @brief The USM kind of the array's block. */
USMARR_API usmarr_usm_kind_t usmarr_array_usm_kind(const usmarr_array_t *array);
/** @brief Pointer to element [0,...,0] (base + offset*itemsize); NULL for a zero-size
 *  block. */
USMARR_API void *usmarr_array_data(const usmarr_array_t *array);

/** @} */


/* ---------------------------------------------------------------------------------- */
/** @name Creation and host transfers
 * Common arguments: @p kind is the USM kind of the new block (::USMARR_USM_UNKNOWN, i.e.
 * 0, means device); @p order is ::USMARR_ORDER_C or ::USMARR_ORDER_F (0 means C).  The
 * `_like` forms take @p dtype -1 to keep the prototype's, @p kind 0 to keep its USM kind
 * and @p order 0 or ::USMARR_ORDER_K to follow its stride order (A, C and F as in NumPy).
 * New arrays are contiguous and writable, with one reference.  Besides the codes listed,
 * each returns USMARR_ERROR_INVALID_ARGUMENT for a NULL context/out-parameter or a bad
 * order, USMARR_ERROR_BAD_DTYPE / USMARR_ERROR_UNSUPPORTED for a bad or unsupported dtype,
 * USMARR_ERROR_OVERFLOW when the size overflows and USMARR_ERROR_ALLOCATION when USM
 * allocation fails.
 *
 * Host buffers are addressed by a pointer to element [0,...,0] and strides counted in
 * **elements** (like every stride in this library; negative strides allowed; NULL means
 * C-contiguous).  The caller guarantees the host buffer covers every element.
 * Transfers move whole blocks: one clEnqueueMemcpyINTEL of the array's packed bytes or
 * of its span, with gathers/scatters done in a host staging buffer.
 * @{ */

/** @brief A new array with uninitialised elements.
 *  @param context the context to allocate on (borrowed)
 *  @param ndim number of dimensions, 0 to ::USMARR_MAX_NDIM
 *  @param shape @p ndim non-negative extents
 *  @param dtype element type
 *  @param order C or F layout
 *  @param kind USM kind
 *  @param[out] array the new array
 *  @retval USMARR_ERROR_INVALID_ARGUMENT negative extent, bad ndim, NULL arguments */
USMARR_API USMARR_NODISCARD int usmarr_array_empty(usmarr_context_t *context, int ndim, const int64_t *shape,
                                                   usmarr_dtype_t dtype, usmarr_order_t order,
                                                   usmarr_usm_kind_t kind, usmarr_array_t **array);
/** @brief A new array of zeros (filled with clEnqueueMemFillINTEL).  Arguments as usmarr_array_empty().
 *  @retval USMARR_ERROR_INVALID_ARGUMENT negative extent, bad ndim, NULL arguments */
USMARR_API USMARR_NODISCARD int usmarr_array_zeros(usmarr_context_t *context, int ndim, const int64_t *shape,
                                                   usmarr_dtype_t dtype, usmarr_order_t order,
                                                   usmarr_usm_kind_t kind, usmarr_array_t **array);
/** @brief A new array of ones.  Arguments as usmarr_array_empty().
 *  @retval USMARR_ERROR_INVALID_ARGUMENT negative extent, bad ndim, NULL arguments */
USMARR_API USMARR_NODISCARD int usmarr_array_ones(usmarr_context_t *context, int ndim, const int64_t *shape,
                                                  usmarr_dtype_t dtype, usmarr_order_t order,
                                                  usmarr_usm_kind_t kind, usmarr_array_t **array);
/** @brief A new array filled with @p value, converted as NumPy converts on assignment:
 *  to bool by "non-zero", floats to integers by truncation, a typed complex scalar to
 *  real by dropping the imaginary part, anything to float16/32 by rounding to nearest
 *  even.  Like NumPy 2's `fill`, a weak (literal) integer that does not fit the dtype and
 *  a weak complex value into an integer or float dtype are errors; a typed integer
 *  scalar wraps like a C cast.  Unlike NumPy, which produces an unspecified value, a
 *  NaN, infinite or out-of-range float converted to an integer dtype is an error.
 *  @param context the context to allocate on (borrowed)
 *  @param ndim number of dimensions, 0 to ::USMARR_MAX_NDIM
 *  @param shape @p ndim non-negative extents
 *  @param value the fill value
 *  @param dtype a ::usmarr_dtype_t, or -1 for the value's own (typed scalar) or NumPy's
 *         default for it (bool, int64, uint64 above INT64_MAX, float64, complex128)
 *  @param order C or F layout
 *  @param kind USM kind
 *  @param[out] array the new array
 *  @retval USMARR_ERROR_OVERFLOW the value is out of the dtype's range
 *  @retval USMARR_ERROR_CASTING NaN or infinity to an integer dtype, a weak complex value
 *          to an integer or float dtype
 *  @retval USMARR_ERROR_INVALID_ARGUMENT a value of unknown kind or whose kind contradicts
 *          its dtype (kind USMARR_KIND_INT with dtype USMARR_FLOAT32), or as usmarr_array_empty()
 *  @retval USMARR_ERROR_BAD_DTYPE @p dtype or the value's dtype is not a dtype */
USMARR_API USMARR_NODISCARD int usmarr_array_full(usmarr_context_t *context, int ndim, const int64_t *shape,
                                                  usmarr_scalar_t value, int dtype, usmarr_order_t order,
                                                  usmarr_usm_kind_t kind, usmarr_array_t **array);
/** @brief An uninitialised array shaped like @p proto, on its context.
 *  @param proto the prototype (borrowed)
 *  @param dtype -1 to keep proto's
 *  @param order 0/K, A, C or F
 *  @param kind 0 to keep proto's USM kind
 *  @param[out] array the new array
 *  @retval USMARR_ERROR_INVALID_ARGUMENT NULL proto or array, bad order */
USMARR_API USMARR_NODISCARD int usmarr_array_empty_like(const usmarr_array_t *proto, int dtype, usmarr_order_t order,
                                                        usmarr_usm_kind_t kind, usmarr_array_t **array);
/** @brief Zeros shaped like @p proto; arguments as usmarr_array_empty_like().
 *  @retval USMARR_ERROR_INVALID_ARGUMENT NULL proto or array, bad order */
USMARR_API USMARR_NODISCARD int usmarr_array_zeros_like(const usmarr_array_t *proto, int dtype, usmarr_order_t order,
                                                        usmarr_usm_kind_t kind, usmarr_array_t **array);
/** @brief Ones shaped like @p proto; arguments as usmarr_array_empty_like().
 *  @retval USMARR_ERROR_INVALID_ARGUMENT NULL proto or array, bad order */
USMARR_API USMARR_NODISCARD int usmarr_array_ones_like(const usmarr_array_t *proto, int dtype, usmarr_order_t order,
                                                       usmarr_usm_kind_t kind, usmarr_array_t **array);
/** @brief @p value everywhere, shaped like @p proto; conversion as usmarr_array_full().
 *  @retval USMARR_ERROR_OVERFLOW the value is out of the dtype's range
 *  @retval USMARR_ERROR_CASTING as usmarr_array_full()
 *  @retval USMARR_ERROR_INVALID_ARGUMENT NULL proto or array, bad order, a malformed value
 *          (as usmarr_array_full()) */
USMARR_API USMARR_NODISCARD int usmarr_array_full_like(const usmarr_array_t *proto, usmarr_scalar_t value, int dtype,
                                                       usmarr_order_t order, usmarr_usm_kind_t kind,
                                                       usmarr_array_t **array);

/** @brief A new C-contiguous array holding a copy of host data.
 *  @param context the context to allocate on (borrowed)
 *  @param ndim number of dimensions, 0 to ::USMARR_MAX_NDIM
 *  @param shape @p ndim non-negative extents
 *  @param dtype element type of the host data and of the array
 *  @param host pointer to element [0,...,0] of the host data (borrowed; read only)
 *  @param host_strides @p ndim strides in elements, or NULL for C-contiguous host data
 *  @param kind USM kind
 *  @param[out] array the new array
 *  @retval USMARR_ERROR_INVALID_ARGUMENT NULL host with a non-empty shape, or as usmarr_array_empty() */
USMARR_API USMARR_NODISCARD int usmarr_array_from_host(usmarr_context_t *context, int ndim, const int64_t *shape,
                                                       usmarr_dtype_t dtype, const void *host,
                                                       const int64_t *host_strides, usmarr_usm_kind_t kind,
                                                       usmarr_array_t **array);
/** @brief Copies host data into an existing (possibly strided) array; blocking.
 *
 * A contiguous array is written with one copy.  For a strided array the span between
 * its first and last element is read, updated on the host and written back while the
 * context's queue is held, so bytes between the elements keep their values (but a
 * concurrent writer to those bytes from outside this context could be overwritten).
 * @param array the destination (borrowed)
 * @param host pointer to host element [0,...,0]
 * @param host_strides strides of the host data in elements, NULL = C-contiguous
 * @retval USMARR_ERROR_READ_ONLY the array is read-only
 * @retval USMARR_ERROR_INVALID_ARGUMENT NULL array, or NULL host for a non-empty array */
USMARR_API USMARR_NODISCARD int usmarr_array_copy_from_host(usmarr_array_t *array, const void *host,
                                                            const int64_t *host_strides);
/** @brief Copies an array's elements to host memory laid out with the requested strides;
 *  blocking.  One copy of the packed bytes when the layouts match, else one copy of the
 *  span into a staging buffer and a host-side gather.
 * @param array the source (borrowed)
 * @param host pointer to host element [0,...,0]
 * @param host_strides strides in elements for the host layout, NULL = C-contiguous
 * @retval USMARR_ERROR_INVALID_ARGUMENT NULL array, or NULL host for a non-empty array */
USMARR_API USMARR_NODISCARD int usmarr_array_copy_to_host(const usmarr_array_t *array, void *host,
                                                          const int64_t *host_strides);

/** @} */

#endif
