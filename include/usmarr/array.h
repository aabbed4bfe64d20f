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
    USMARR_FLAG_READABLE = 1u << 3,     /**< reads allowed (seed 002 access: always set) */
    USMARR_FLAG_IMMUTABLE = 1u << 4     /**< nobody may ever write (seed 002); implies not writable */
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

/** @brief Arguments of usmarr_array_create(), seed 000's constructor.
 *
 * Start from ::USMARR_ARRAY_OPTIONS_INIT (float64, C order, new device memory, like the
 * seed's defaults) and set what differs.  A zero-initialised struct is also valid and
 * means the same except that its dtype is bool.  All pointers are borrowed. */
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
     *  the offset to minus the most negative displacement (seed 000: shape (2,2), strides
     *  (2,-1) gives offset 1 in a 4-element block). */
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

/** Seed 000's defaults: float64, C order, new USM device memory.  Set the context and shape. */
#define USMARR_ARRAY_OPTIONS_INIT \
    { .dtype = USMARR_FLOAT64, .buffer = USMARR_BUFFER_DEVICE, .order = USMARR_ORDER_C }

/** @brief Creates an array: seed 000's constructor.
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
 *         alignment, a non-zero offset or aliasing strides with a new allocation
 * @retval USMARR_ERROR_BAD_DTYPE invalid dtype or typestr
 * @retval USMARR_ERROR_UNSUPPORTED float64/complex128 on a device without fp64
 * @retval USMARR_ERROR_OVERFLOW the element count, byte size or a displacement overflows
 *         64 bits
 * @retval USMARR_ERROR_OUT_OF_BOUNDS the layout reaches before the block's start or past
 *         its end; the detail says which stride and offset
 * @retval USMARR_ERROR_CONTEXT_MISMATCH @c context is not the buffer's context
 * @retval USMARR_ERROR_ALLOCATION the USM allocation failed
 * @retval USMARR_ERROR_INVALID_ARGUMENT the element pointer is misaligned for the dtype */
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

#endif
