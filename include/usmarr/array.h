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

USMARR_API usmarr_array_t *usmarr_array_retain(usmarr_array_t *array);
USMARR_API void usmarr_array_release(usmarr_array_t *array);

USMARR_API int usmarr_array_ndim(const usmarr_array_t *array);
/** @brief The shape (borrowed, `ndim` entries; may be NULL when ndim is 0). */
USMARR_API const int64_t *usmarr_array_shape(const usmarr_array_t *array);
/** @brief The strides in elements (borrowed, `ndim` entries). */
USMARR_API const int64_t *usmarr_array_strides(const usmarr_array_t *array);
/** @brief Element offset of element [0,...,0] from the memory block's base pointer. */
USMARR_API int64_t usmarr_array_offset(const usmarr_array_t *array);
USMARR_API usmarr_dtype_t usmarr_array_dtype(const usmarr_array_t *array);
/** @brief Number of elements (product of the shape; 1 for 0-d). */
USMARR_API int64_t usmarr_array_size(const usmarr_array_t *array);
/** @brief Bitwise OR of ::usmarr_array_flag values. */
USMARR_API unsigned usmarr_array_flags(const usmarr_array_t *array);
/** @brief The memory block (borrowed). */
USMARR_API usmarr_memory_t *usmarr_array_memory(const usmarr_array_t *array);
/** @brief The context (borrowed). */
USMARR_API usmarr_context_t *usmarr_array_context(const usmarr_array_t *array);
/** @brief Pointer to element [0,...,0] (base + offset*itemsize). */
USMARR_API void *usmarr_array_data(const usmarr_array_t *array);

/** @} */

#endif
