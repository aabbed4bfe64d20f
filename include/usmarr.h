/**
 * @file usmarr.h
 * @brief libusmarr: N-dimensional strided typed arrays in OpenCL Unified Shared Memory.
 *
 * The one header users include.  It declares three opaque, reference-counted handles
 * (::usmarr_context_t, ::usmarr_memory_t, ::usmarr_array_t) and the functions that
 * create and operate on them.  The declarations are grouped into sections; the larger
 * ones live in `usmarr/<section>.h` and are included from here (never include those
 * directly).
 *
 * Conventions:
 * - Every fallible function returns `int`: 0 (::USMARR_SUCCESS) on success, a negative
 *   code on failure.  OpenCL errors pass through as their own negative `cl_int`; the
 *   library's own codes are -20000 and below.  usmarr_strerror() names any code and
 *   usmarr_last_error_detail() tells, per thread, which argument and which limit.
 * - Objects come back through out-parameters with one reference.  `*_retain` adds one,
 *   `*_release` drops one and frees at zero; `*_release(NULL)` is a no-op.
 * - Pointer arguments are borrowed unless the documentation says "taken".
 * - Strides and offsets are counted in elements, never bytes.
 *
 * Thread safety: contexts, memory blocks and arrays may be retained and released from
 * any thread.  Operations that enqueue work on one context may be called from several
 * threads; the context serialises access to its queue.  Concurrent writes to the same
 * array (or overlapping arrays) are the caller's business.
 */
#ifndef USMARR_H
#define USMARR_H

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 300
#endif
#include <CL/cl.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "usmarr/version.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define USMARR_NODISCARD __attribute__((warn_unused_result))
#define USMARR_NONNULL(...) __attribute__((nonnull(__VA_ARGS__)))
#define USMARR_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#else
#define USMARR_NODISCARD
#define USMARR_NONNULL(...)
#define USMARR_PRINTF(fmt, args)
#endif

#if defined(USMARR_BUILDING_LIBRARY) && defined(__GNUC__)
#define USMARR_API __attribute__((visibility("default")))
#else
#define USMARR_API
#endif

/* ------------------------------------------------------------------------------------ */
/** @name Errors
 * @{ */

/** Every library error code: X(name, value, description).  Codes are never renumbered
 *  or reused; new ones are appended. */
#define USMARR_ERROR_LIST(X)                                                                   \
    X(USMARR_SUCCESS, 0, "success")                                                            \
    X(USMARR_ERROR_INVALID_ARGUMENT, -20001, "invalid argument")                               \
    X(USMARR_ERROR_OUT_OF_HOST_MEMORY, -20002, "out of host memory")                           \
    X(USMARR_ERROR_NO_DEVICE, -20003, "no USM-capable OpenCL device")                          \
    X(USMARR_ERROR_BAD_SELECTOR, -20004, "malformed or unmatched device selector")             \
    X(USMARR_ERROR_UNSUPPORTED, -20005, "not supported by the device")                         \
    X(USMARR_ERROR_OUT_OF_BOUNDS, -20006, "memory range outside its allocation")               \
    X(USMARR_ERROR_CONTEXT_MISMATCH, -20007, "objects belong to different contexts")           \
    X(USMARR_ERROR_READ_ONLY, -20008, "write to a read-only array")                            \
    X(USMARR_ERROR_BAD_DTYPE, -20009, "unsupported or malformed dtype")                        \
    X(USMARR_ERROR_SHAPE_MISMATCH, -20010, "incompatible shapes")                              \
    X(USMARR_ERROR_OVERFLOW, -20011, "value, size or offset out of range")                     \
    X(USMARR_ERROR_PARSE, -20012, "malformed text")                                            \
    X(USMARR_ERROR_BUILD, -20013, "kernel build failed")                                       \
    X(USMARR_ERROR_INDEX, -20014, "index out of range")                                        \
    X(USMARR_ERROR_BAD_STATE, -20015, "operation not allowed in the object's state")           \
    X(USMARR_ERROR_ALLOCATION, -20016, "USM allocation failed")                                \
    X(USMARR_ERROR_CASTING, -20017, "cast not allowed by the casting rule")                    \
    X(USMARR_ERROR_EMPTY, -20018, "reduction without identity over an empty array")            \
    X(USMARR_ERROR_FOREIGN_POINTER, -20019, "pointer is not USM of this context")              \
    X(USMARR_ERROR_IO, -20020, "file system error")                                            \
    X(USMARR_ERROR_MPI, -20021, "MPI call failed or ranks disagree")                           \
    X(USMARR_ERROR_LINALG, -20022, "singular, not positive definite, or no convergence")

/** Library error codes.  OpenCL's own `CL_*` codes are returned unchanged. */
typedef enum usmarr_status {
#define USMARR_ERROR_ENUM_(name, value, text) name = value,
    USMARR_ERROR_LIST(USMARR_ERROR_ENUM_)
#undef USMARR_ERROR_ENUM_
} usmarr_status_t;

/** @brief Describes any status code: a library code, an OpenCL code, or "unknown".
 *  @return a static string, never NULL. */
USMARR_API const char *usmarr_strerror(int code);

/** @brief The symbolic name of a code, e.g. "USMARR_ERROR_INDEX" or "CL_OUT_OF_RESOURCES".
 *  @return a static string, never NULL ("UNKNOWN" for unknown codes). */
USMARR_API const char *usmarr_error_name(int code);

/** @brief The detail of the calling thread's most recent failure: which argument, which
 *  value, which limit.  Empty string if nothing failed yet.  Valid until the thread's
 *  next library call. */
USMARR_API const char *usmarr_last_error_detail(void);

/** @brief Records the calling thread's failure detail (printf-style) and returns @p code.
 *
 * For libraries layered on libusmarr (libusmarr-mpi) so that their failures are read
 * through usmarr_last_error_detail() like the core's: `return usmarr_error_set(code,
 * "halo=%lld exceeds %lld", ...)`.  The detail is truncated to 1023 bytes.
 *  @param code the status to return
 *  @param format a printf format (NULL clears the detail)
 *  @return @p code */
USMARR_API int usmarr_error_set(int code, const char *format, ...) USMARR_PRINTF(2, 3);

/** @} */

/* ------------------------------------------------------------------------------------ */
/** @name Data types and scalars
 * @{ */

/** The 14 element types. */
typedef enum usmarr_dtype {
    USMARR_BOOL = 0,
    USMARR_INT8,
    USMARR_INT16,
    USMARR_INT32,
    USMARR_INT64,
    USMARR_UINT8,
    USMARR_UINT16,
    USMARR_UINT32,
    USMARR_UINT64,
    USMARR_FLOAT16,
    USMARR_FLOAT32,
    USMARR_FLOAT64,
    USMARR_COMPLEX64,
    USMARR_COMPLEX128,
    USMARR_DTYPE_COUNT
} usmarr_dtype_t;

/** Kind of a dtype or scalar, in NumPy's order of promotion. */
typedef enum usmarr_kind {
    USMARR_KIND_BOOL = 0, /**< 'b' */
    USMARR_KIND_INT,      /**< 'i' signed integer */
    USMARR_KIND_UINT,     /**< 'u' unsigned integer */
    USMARR_KIND_FLOAT,    /**< 'f' */
    USMARR_KIND_COMPLEX   /**< 'c' */
} usmarr_kind_t;

/** @brief A scalar crossing the API: a kind and a value.  With `dtype` negative the scalar
 *  is "weak" (like a Python literal: `int8_array + 1` stays int8); with `dtype` set to a
 *  ::usmarr_dtype_t it is a typed scalar that takes part in promotion like a 0-d array. */
typedef struct usmarr_scalar {
    usmarr_kind_t kind;
    int dtype; /**< -1 for a weak scalar, else a ::usmarr_dtype_t */
    union {
        bool b;
        int64_t i;
        uint64_t u;
        double f;
        double c[2]; /**< real, imaginary */
    } value;
} usmarr_scalar_t;

/** @brief A weak boolean scalar. */
USMARR_API usmarr_scalar_t usmarr_scalar_bool(bool v);
/** @brief A weak signed integer scalar. */
USMARR_API usmarr_scalar_t usmarr_scalar_int(int64_t v);
/** @brief A weak unsigned integer scalar. */
USMARR_API usmarr_scalar_t usmarr_scalar_uint(uint64_t v);
/** @brief A weak floating-point scalar. */
USMARR_API usmarr_scalar_t usmarr_scalar_float(double v);
/** @brief A weak complex scalar. */
USMARR_API usmarr_scalar_t usmarr_scalar_complex(double re, double im);

/** @brief Size in bytes of one element; 0 for an invalid dtype. */
USMARR_API size_t usmarr_dtype_size(usmarr_dtype_t dtype);
/** @brief Required alignment in bytes of one element; 0 for an invalid dtype. */
USMARR_API size_t usmarr_dtype_alignment(usmarr_dtype_t dtype);
/** @brief The kind of a dtype. */
USMARR_API usmarr_kind_t usmarr_dtype_kind(usmarr_dtype_t dtype);
/** @brief NumPy-style name ("float32"), or "invalid". */
USMARR_API const char *usmarr_dtype_name(usmarr_dtype_t dtype);
/** @brief Native array-interface typestr ("<f4", "|b1"), or NULL for an invalid dtype. */
USMARR_API const char *usmarr_dtype_typestr(usmarr_dtype_t dtype);
/** @brief Parses a typestr such as "<f4", "=i8", "|u1" or "<c16".
 *  @retval USMARR_ERROR_BAD_DTYPE non-native byte order, non-numeric kind (O S U V M m),
 *          unsupported size or malformed text; the detail says which. */
USMARR_API USMARR_NODISCARD int usmarr_dtype_from_typestr(const char *typestr, usmarr_dtype_t *dtype);

/** @} */

/* ------------------------------------------------------------------------------------ */
/** @name Devices and contexts
 * @{ */

/** Opaque context: a `cl_context`, one device, an in-order queue, the USM entry points,
 *  the device's capabilities and its kernel cache. */
typedef struct usmarr_context usmarr_context_t;

/** How the library reaches a device's unified memory (doc/backend.md). */
typedef enum usmarr_backend {
    USMARR_BACKEND_USM = 0, /**< the cl_intel_unified_shared_memory extension */
    USMARR_BACKEND_SVM = 1  /**< OpenCL 2.0 shared virtual memory: device USM as coarse-grained
                                 buffer SVM, shared USM as fine-grained buffer SVM where the
                                 device has it, no host USM */
} usmarr_backend_t;

/** @brief "usm", "svm" or "unknown". */
USMARR_API const char *usmarr_backend_name(usmarr_backend_t backend);

/** What the library knows about one OpenCL device. */
typedef struct usmarr_device_info {
    unsigned platform_index;  /**< index in clGetPlatformIDs order */
    unsigned device_index;    /**< index within its platform */
    char selector[64];        /**< a filter selector that picks exactly this device, e.g. "opencl:cpu:0" */
    char platform_name[128];
    char platform_version[128];
    char device_name[128];
    char device_vendor[128];
    char device_version[128];
    char driver_version[128];
    cl_device_type type;
    bool usable;              /**< exposes cl_intel_unified_shared_memory with its entry points */
    char reason[160];         /**< why not usable; empty when usable */
    bool is_default;          /**< the device usmarr_context_create(NULL) picks */
    bool fp64;
    bool fp16;
    uint64_t max_alloc_size;
    uint64_t global_mem_size;
    uint64_t host_mem_caps;              /**< CL_DEVICE_HOST_MEM_CAPABILITIES_INTEL */
    uint64_t device_mem_caps;            /**< CL_DEVICE_DEVICE_MEM_CAPABILITIES_INTEL */
    uint64_t single_device_shared_caps;  /**< CL_DEVICE_SINGLE_DEVICE_SHARED_MEM_CAPABILITIES_INTEL */
    uint64_t cross_device_shared_caps;   /**< CL_DEVICE_CROSS_DEVICE_SHARED_MEM_CAPABILITIES_INTEL */
    uint64_t shared_system_caps;         /**< CL_DEVICE_SHARED_SYSTEM_MEM_CAPABILITIES_INTEL */
    bool kinds_limited; /**< the environment variable `USMARR_USM_KINDS` hid some USM kinds of this
                             device: their capabilities above read 0 (doc/backend.md) */
    usmarr_backend_t backend; /**< USM through the extension, or SVM (`USMARR_USM_BACKEND`) */
    uint64_t svm_caps;        /**< CL_DEVICE_SVM_CAPABILITIES (0 before OpenCL 2.0) */
} usmarr_device_info_t;

/** @brief Lists every OpenCL device of every platform, usable or not.
 *  @param[out] devices an array to free with usmarr_devices_free()
 *  @param[out] count its length
 *  @return 0 on success, or an OpenCL error from clGetPlatformIDs
 *  @retval USMARR_ERROR_INVALID_ARGUMENT a NULL out-parameter */
USMARR_API USMARR_NODISCARD int usmarr_devices_list(usmarr_device_info_t **devices, size_t *count);
/** @brief Frees the list from usmarr_devices_list().
 *  @param devices the list, or NULL */
USMARR_API void usmarr_devices_free(usmarr_device_info_t *devices);

/** @brief Creates a context on the device a filter selector names.
 *
 * A selector is `[backend][:type][:number]` with any part omitted, as in dpctl/SYCL:
 * "opencl:cpu:0", "cpu", "gpu", "accelerator", "opencl:1", "opencl:gpu".  `backend` is
 * "opencl" (or "*"); `type` is cpu, gpu, accelerator or "*"; `number` indexes the
 * usable devices that match the other parts, in platform then device order.
 * NULL or "" takes the default: the environment variable `USMARR_DEVICE` (a selector)
 * when set, else the first usable GPU, then accelerator, then CPU.
 *
 * @param selector a filter selector, or NULL for the default
 * @param[out] context the new context
 * @return 0 on success, or an OpenCL error from context or queue creation
 * @retval USMARR_ERROR_INVALID_ARGUMENT @p context is NULL
 * @retval USMARR_ERROR_BAD_SELECTOR malformed selector (the detail names the bad part)
 * @retval USMARR_ERROR_NO_DEVICE no usable device matches */
USMARR_API USMARR_NODISCARD int usmarr_context_create(const char *selector, usmarr_context_t **context);

/** @brief Adopts an application's OpenCL objects, retaining them.
 *  @param cl_ctx   an existing context that contains @p device
 *  @param device   the device to use
 *  @param queue    an in-order queue of @p cl_ctx on @p device, or NULL to create one
 *  @param[out] context the new context
 *  @return 0 on success
 *  @retval USMARR_ERROR_INVALID_ARGUMENT the device is not in the context, or the queue
 *          belongs elsewhere or is out-of-order
 *  @retval USMARR_ERROR_UNSUPPORTED the device lacks cl_intel_unified_shared_memory */
USMARR_API USMARR_NODISCARD int usmarr_context_adopt(cl_context cl_ctx, cl_device_id device,
                                                     cl_command_queue queue, usmarr_context_t **context);

/** @brief Adds a reference.
 *  @param context a context, or NULL
 *  @return @p context */
USMARR_API usmarr_context_t *usmarr_context_retain(usmarr_context_t *context);
/** @brief Drops a reference; frees the context when none remain (memory blocks hold theirs).
 *  @param context a context, or NULL (no-op) */
USMARR_API void usmarr_context_release(usmarr_context_t *context);
/** @brief The underlying OpenCL context (borrowed).
 *  @param context the context
 *  @return its `cl_context`, NULL for a NULL context */
USMARR_API cl_context usmarr_context_cl_context(const usmarr_context_t *context);
/** @brief The device (borrowed).
 *  @param context the context
 *  @return its device, NULL for a NULL context */
USMARR_API cl_device_id usmarr_context_device(const usmarr_context_t *context);
/** @brief The context's own in-order queue (borrowed): the one operations use unless the
 *  calling thread set a current queue of this context (usmarr_queue_set_current()).
 *  @param context the context
 *  @return its queue, NULL for a NULL context */
USMARR_API cl_command_queue usmarr_context_queue(const usmarr_context_t *context);
/** @brief The device's description and capabilities (borrowed; lives with the context).
 *  @param context the context
 *  @return the description, NULL for a NULL context */
USMARR_API const usmarr_device_info_t *usmarr_context_info(const usmarr_context_t *context);
/** @brief Waits for all work enqueued on the context's own queue and on the calling
 *  thread's current queue when it belongs to the context (usmarr/queue.h).
 *  @param context the context
 *  @return 0, or the OpenCL error of clFinish
 *  @retval USMARR_ERROR_INVALID_ARGUMENT @p context is NULL */
USMARR_API USMARR_NODISCARD int usmarr_context_finish(usmarr_context_t *context);

/** @} */

/* ------------------------------------------------------------------------------------ */
/** @name USM memory blocks
 * A reference-counted block of USM: an atomic reference count, the USM kind, the base
 * pointer and size (doc/glossary.md, "Memory block").  A block holds a reference to its
 * context.
 * @{ */

typedef struct usmarr_memory usmarr_memory_t;

/** Kind of USM. */
typedef enum usmarr_usm_kind {
    USMARR_USM_UNKNOWN = 0,
    USMARR_USM_DEVICE = 1,
    USMARR_USM_SHARED = 2,
    USMARR_USM_HOST = 3
} usmarr_usm_kind_t;

/** @brief Name of a USM kind.
 *  @param kind a kind
 *  @return "device", "shared", "host" or "unknown" */
USMARR_API const char *usmarr_usm_kind_name(usmarr_usm_kind_t kind);

/** @brief Allocates a block of @p size bytes of USM of @p kind.
 *
 *  Device blocks may come from the context's pool of released device blocks of the same
 *  size (contents undefined, as for a fresh allocation; `USMARR_POOL_BYTES`, doc/guide.md).
 *  @param context the context (the block retains it)
 *  @param kind device, shared or host USM
 *  @param size bytes; 0 gives a block with a NULL pointer
 *  @param alignment 0 for the default, else a power of two
 *  @param[out] memory the new block
 *  @return 0 on success
 *  @retval USMARR_ERROR_UNSUPPORTED the driver did not honour @p alignment
 *  @retval USMARR_ERROR_INVALID_ARGUMENT bad kind or alignment
 *  @retval USMARR_ERROR_ALLOCATION size beyond the device's CL_DEVICE_MAX_MEM_ALLOC_SIZE,
 *          or the driver refused */
USMARR_API USMARR_NODISCARD int usmarr_memory_create(usmarr_context_t *context, usmarr_usm_kind_t kind,
                                                     size_t size, size_t alignment, usmarr_memory_t **memory);

/** Called once when a wrapped block dies: (pointer, user_data). */
typedef void (*usmarr_release_fn)(void *pointer, void *user_data);

/** @brief Wraps a foreign USM pointer without copying.
 *
 * The pointer is validated with clGetMemAllocInfoINTEL: it must be USM of this
 * context and [pointer, pointer+size) must lie inside its allocation.
 * @param context the context the pointer must belong to (the block retains it)
 * @param pointer the foreign USM pointer (start of the block)
 * @param size bytes from @p pointer that the block covers
 * @param release called with (pointer, user_data) when the block dies; may be NULL.
 *        It is not called when this function fails.
 * @param user_data passed to @p release
 * @param[out] memory the new block
 * @return 0 on success
 * @retval USMARR_ERROR_INVALID_ARGUMENT @p context or @p memory is NULL
 * @retval USMARR_ERROR_FOREIGN_POINTER not USM of this context
 * @retval USMARR_ERROR_OUT_OF_BOUNDS the range passes the end of the allocation */
USMARR_API USMARR_NODISCARD int usmarr_memory_wrap(usmarr_context_t *context, void *pointer, size_t size,
                                                   usmarr_release_fn release, void *user_data,
                                                   usmarr_memory_t **memory);

/** @brief Adds a reference.
 *  @param memory a block, or NULL
 *  @return @p memory */
USMARR_API usmarr_memory_t *usmarr_memory_retain(usmarr_memory_t *memory);
/** @brief Drops a reference; the last one frees the USM with clMemBlockingFreeINTEL,
 *  which waits for queued work that uses it (a wrapped block waits for the queue, then
 *  calls its release callback).  An ordinary device block is instead kept in the
 *  context's pool for the next allocation of its size, without waiting (the context's
 *  in-order queue orders the next owner's work after this owner's); the pool frees it
 *  when full, when an allocation fails, and when the context is released.
 *  @param memory a block, or NULL (no-op) */
USMARR_API void usmarr_memory_release(usmarr_memory_t *memory);
/** @brief Base pointer.
 *  @param memory the block
 *  @return the pointer, NULL for a zero-size or NULL block */
USMARR_API void *usmarr_memory_pointer(const usmarr_memory_t *memory);
/** @brief Size in bytes.
 *  @param memory the block
 *  @return its size, 0 for NULL */
USMARR_API size_t usmarr_memory_size(const usmarr_memory_t *memory);
/** @brief USM kind.
 *  @param memory the block
 *  @return its kind, ::USMARR_USM_UNKNOWN for NULL */
USMARR_API usmarr_usm_kind_t usmarr_memory_kind(const usmarr_memory_t *memory);
/** @brief The owning context (borrowed).
 *  @param memory the block
 *  @return its context, NULL for NULL */
USMARR_API usmarr_context_t *usmarr_memory_context(const usmarr_memory_t *memory);
/** @brief Current reference count (for diagnostics).
 *  @param memory the block
 *  @return the count, 0 for NULL */
USMARR_API int usmarr_memory_refcount(const usmarr_memory_t *memory);

/** @brief Copies @p size bytes from host memory into the block at byte @p offset; blocking.
 *  @param memory the destination block
 *  @param offset byte offset in the block
 *  @param source host memory (may be NULL when @p size is 0)
 *  @param size bytes to copy
 *  @return 0, or the OpenCL error of clEnqueueMemcpyINTEL
 *  @retval USMARR_ERROR_INVALID_ARGUMENT a NULL argument
 *  @retval USMARR_ERROR_OUT_OF_BOUNDS the range passes the block's end */
USMARR_API USMARR_NODISCARD int usmarr_memory_copy_from_host(usmarr_memory_t *memory, size_t offset,
                                                             const void *source, size_t size);
/** @brief Copies @p size bytes at byte @p offset of the block to host memory; blocking.
 *  @param memory the source block
 *  @param offset byte offset in the block
 *  @param destination host memory (may be NULL when @p size is 0)
 *  @param size bytes to copy
 *  @return 0, or the OpenCL error of clEnqueueMemcpyINTEL
 *  @retval USMARR_ERROR_INVALID_ARGUMENT a NULL argument
 *  @retval USMARR_ERROR_OUT_OF_BOUNDS the range passes the block's end */
USMARR_API USMARR_NODISCARD int usmarr_memory_copy_to_host(usmarr_memory_t *memory, size_t offset,
                                                           void *destination, size_t size);
/** @brief Copies between two blocks of one context: enqueued without waiting between two
 *  device blocks, blocking when the host can read either (host or shared USM).
 *  @param destination the destination block
 *  @param destination_offset byte offset in @p destination
 *  @param source the source block
 *  @param source_offset byte offset in @p source
 *  @param size bytes to copy
 *  @return 0, or the OpenCL error of clEnqueueMemcpyINTEL
 *  @retval USMARR_ERROR_INVALID_ARGUMENT a NULL block, or overlapping ranges in one block
 *  @retval USMARR_ERROR_CONTEXT_MISMATCH the blocks belong to different contexts
 *  @retval USMARR_ERROR_OUT_OF_BOUNDS a range passes its block's end */
USMARR_API USMARR_NODISCARD int usmarr_memory_copy(usmarr_memory_t *destination, size_t destination_offset,
                                                   usmarr_memory_t *source, size_t source_offset, size_t size);
/** @brief Fills @p size bytes at byte @p offset with a repeated pattern: enqueued without
 *  waiting on a device block, blocking on host or shared USM (which the host may read).
 *  @param memory the block
 *  @param offset byte offset, a multiple of @p pattern_size
 *  @param pattern the pattern's bytes
 *  @param pattern_size a power of two up to 128
 *  @param size bytes to fill, a multiple of @p pattern_size
 *  @return 0, or the OpenCL error of clEnqueueMemFillINTEL
 *  @retval USMARR_ERROR_INVALID_ARGUMENT a NULL argument or a bad pattern size or multiple
 *  @retval USMARR_ERROR_OUT_OF_BOUNDS the range passes the block's end */
USMARR_API USMARR_NODISCARD int usmarr_memory_fill(usmarr_memory_t *memory, size_t offset, const void *pattern,
                                                   size_t pattern_size, size_t size);

/** @} */

#define USMARR_H_INSIDE
/* core */
#include "usmarr/dtype.h"
#include "usmarr/array.h"
#include "usmarr/pod.h"
#include "usmarr/queue.h"
/* engine */
#include "usmarr/cache.h"
#include "usmarr/copy.h"
/* ops */
#include "usmarr/ops.h"
#include "usmarr/reduce.h"
#include "usmarr/expr.h"
#include "usmarr/linalg.h"
#include "usmarr/fft.h"
#include "usmarr/stats.h"
#include "usmarr/sort.h"
/* index */
#include "usmarr/view.h"
/* interop */
#include "usmarr/interop.h"
#include "usmarr/dlpack.h"
/* storage */
#include "usmarr/storage.h"
#undef USMARR_H_INSIDE

#ifdef __cplusplus
}
#endif
#endif /* USMARR_H */
