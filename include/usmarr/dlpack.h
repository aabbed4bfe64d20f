/* Part of usmarr.h: include <usmarr.h>, not this file. */
#ifndef USMARR_H_INSIDE
#error "include <usmarr.h> instead of usmarr/dlpack.h"
#endif
#ifndef USMARR_DLPACK_H
#define USMARR_DLPACK_H

/** @name DLPack
 *
 * Export and import of DLPack tensors (`doc/interop.md` is the guide).
 *
 * The structs below are the library's own definitions of DLPack 1.x's, with `usmarr_dl_`
 * names so that they never clash with a `dlpack.h` the application also includes (Debian
 * 12 ships DLPack 0.6, which has neither `kDLOneAPI` nor the versioned struct).  They are
 * **layout-compatible** with DLPack's: a ::usmarr_dl_managed_tensor_versioned_t pointer
 * may be cast to `DLManagedTensorVersioned *` and back, a ::usmarr_dl_managed_tensor_t
 * pointer to `DLManagedTensor *` (the legacy, unversioned struct), and so on member by
 * member.
 *
 * - **Device.** USM is `(kDLOneAPI = 14, device_id)`, where `device_id` is the device's
 *   index among the usable devices in platform-then-device order: the number that the
 *   filter selector `"<device_id>"` picks (usmarr_context_create("1")), as dpctl passes
 *   it to `SyclDevice(str(device_id))`.  Host-readable USM (host or shared) may instead be
 *   exported as `(kDLCPU = 1, 0)` when the consumer asks for it.
 * - **Data.** `data` is the memory block's base pointer and `byte_offset` the array's
 *   offset times its itemsize, as dpctl exports; element [0,...,0] is at
 *   `data + byte_offset`.  Strides are in elements and always present (also when the
 *   array is C-contiguous); `shape` and `strides` are NULL for 0-d tensors.
 * - **Ownership.** An exported tensor holds one reference to the array; its deleter drops
 *   it and frees the tensor.  It may be called from any thread, exactly once.  An
 *   imported tensor is taken only on success (its deleter runs when the last array over
 *   its memory dies, or at once after a copy); on failure the caller still owns it.
 * - **Completion.** Export waits for the work enqueued on the array's context, so a
 *   consumer on another queue, or the host, sees the finished elements.
 * @{ */

/** DLPack's major version the library reads and writes. */
#define USMARR_DL_MAJOR_VERSION 1
/** DLPack's minor version the library writes into exported tensors. */
#define USMARR_DL_MINOR_VERSION 0

/** DLPack's `DLDeviceType` values the library names (the others are refused by number). */
typedef enum usmarr_dl_device_type {
    USMARR_DL_CPU = 1,    /**< kDLCPU: memory the host reads directly */
    USMARR_DL_OPENCL = 4, /**< kDLOpenCL: SVM of an OpenCL device (the SVM backend, doc/backend.md) */
    USMARR_DL_ONEAPI = 14 /**< kDLOneAPI: USM of a SYCL/OpenCL device */
} usmarr_dl_device_type_t;

/** DLPack's `DLDataTypeCode` values. */
typedef enum usmarr_dl_type_code {
    USMARR_DL_INT = 0,     /**< kDLInt */
    USMARR_DL_UINT = 1,    /**< kDLUInt */
    USMARR_DL_FLOAT = 2,   /**< kDLFloat (IEEE binary16/32/64) */
    USMARR_DL_BFLOAT = 4,  /**< kDLBfloat (not supported by the library) */
    USMARR_DL_COMPLEX = 5, /**< kDLComplex (two floats of bits/2 each) */
    USMARR_DL_BOOL = 6     /**< kDLBool (8 bits) */
} usmarr_dl_type_code_t;

/** `DLManagedTensorVersioned::flags`: the tensor must not be written. */
#define USMARR_DL_FLAG_READ_ONLY (UINT64_C(1) << 0)
/** `DLManagedTensorVersioned::flags`: the producer made a copy the consumer owns alone. */
#define USMARR_DL_FLAG_IS_COPIED (UINT64_C(1) << 1)
/** `DLManagedTensorVersioned::flags`: sub-byte elements are padded (never set here). */
#define USMARR_DL_FLAG_IS_SUBBYTE_TYPE_PADDED (UINT64_C(1) << 2)

/** `DLPackVersion`. */
typedef struct usmarr_dl_version {
    uint32_t major;
    uint32_t minor;
} usmarr_dl_version_t;

/** `DLDevice`. */
typedef struct usmarr_dl_device {
    int32_t device_type; /**< a `DLDeviceType` (::usmarr_dl_device_type_t) */
    int32_t device_id;
} usmarr_dl_device_t;

/** `DLDataType`. */
typedef struct usmarr_dl_data_type {
    uint8_t code;   /**< a `DLDataTypeCode` (::usmarr_dl_type_code_t) */
    uint8_t bits;   /**< bits per lane */
    uint16_t lanes; /**< 1 (vector types are refused) */
} usmarr_dl_data_type_t;

/** `DLTensor`. */
typedef struct usmarr_dl_tensor {
    void *data;                  /**< the allocation (here: the block's base pointer) */
    usmarr_dl_device_t device;
    int32_t ndim;
    usmarr_dl_data_type_t dtype;
    int64_t *shape;              /**< @c ndim extents */
    int64_t *strides;            /**< @c ndim strides in elements (NULL: C-contiguous, legacy) */
    uint64_t byte_offset;        /**< bytes from @c data to element [0,...,0] */
} usmarr_dl_tensor_t;

/** `DLManagedTensor`, the legacy (pre-1.0) exchange struct: no version, no flags. */
typedef struct usmarr_dl_managed_tensor {
    usmarr_dl_tensor_t dl_tensor;
    void *manager_ctx;
    void (*deleter)(struct usmarr_dl_managed_tensor *self); /**< may be NULL */
} usmarr_dl_managed_tensor_t;

/** `DLManagedTensorVersioned`, DLPack 1.x's exchange struct. */
typedef struct usmarr_dl_managed_tensor_versioned {
    usmarr_dl_version_t version;
    void *manager_ctx;
    void (*deleter)(struct usmarr_dl_managed_tensor_versioned *self); /**< may be NULL */
    uint64_t flags; /**< USMARR_DL_FLAG_* */
    usmarr_dl_tensor_t dl_tensor;
} usmarr_dl_managed_tensor_versioned_t;

/** When an export or import may copy (Python's `copy=None/False/True`). */
typedef enum usmarr_dlpack_copy {
    USMARR_DLPACK_COPY_IF_NEEDED = 0, /**< share the memory when possible, else copy */
    USMARR_DLPACK_COPY_NEVER = 1,     /**< share the memory or fail */
    USMARR_DLPACK_COPY_ALWAYS = 2     /**< always copy */
} usmarr_dlpack_copy_t;

/** @brief The DLPack device of an array's memory, for `__dlpack_device__`:
 *  `(kDLOneAPI, ordinal)`, the ordinal as the filter selector "N" counts devices.
 *  @param array the array
 *  @param[out] device its device
 *  @retval USMARR_ERROR_INVALID_ARGUMENT a NULL argument
 *  @retval USMARR_ERROR_UNSUPPORTED the device is not in the library's device list
 *          (an adopted context on a device the enumeration does not show) */
USMARR_API USMARR_NODISCARD int usmarr_array_dlpack_device(const usmarr_array_t *array, usmarr_dl_device_t *device);

/** @brief Exports an array as a DLPack 1.x tensor.
 *
 * Without a copy the tensor shares the array's memory: `data` is the block's base
 * pointer, `byte_offset` the offset in bytes, the flags carry
 * ::USMARR_DL_FLAG_READ_ONLY for a read-only array, and the tensor holds a reference to
 * the array.  With a copy the tensor owns a new C-contiguous copy (USM of the array's
 * kind for kDLOneAPI, plain host memory for kDLCPU) and carries
 * ::USMARR_DL_FLAG_IS_COPIED; it is writable.
 *
 * @param array the array (borrowed; the tensor takes its own reference)
 * @param device the device the consumer wants, or NULL for the array's own.  The
 *        array's own device (`kDLOneAPI`, usmarr_array_dlpack_device()) shares the memory;
 *        `(kDLCPU, 0)` shares host and shared USM and copies device USM to the host.
 * @param copy when a copy is allowed or required
 * @param[out] tensor the new tensor; call its deleter when done
 * @return 0 on success, or an OpenCL error of the wait or the copy
 * @retval USMARR_ERROR_INVALID_ARGUMENT a NULL argument or a bad @p copy
 * @retval USMARR_ERROR_UNSUPPORTED another device type or device id than the two above,
 *         device USM to kDLCPU with ::USMARR_DLPACK_COPY_NEVER, or a device missing from
 *         the device list
 * @retval USMARR_ERROR_OVERFLOW the byte offset does not fit
 * @retval USMARR_ERROR_OUT_OF_HOST_MEMORY no memory for the tensor or the host copy */
USMARR_API USMARR_NODISCARD int usmarr_array_to_dlpack(const usmarr_array_t *array, const usmarr_dl_device_t *device,
                                                       usmarr_dlpack_copy_t copy,
                                                       usmarr_dl_managed_tensor_versioned_t **tensor);

/** @brief Exports an array as a legacy (unversioned) DLPack tensor.  As
 *  usmarr_array_to_dlpack(), except that the legacy struct cannot say "read-only": a
 *  read-only array is copied (::USMARR_DLPACK_COPY_IF_NEEDED or ALWAYS) or refused.
 *  @retval USMARR_ERROR_READ_ONLY a read-only array with ::USMARR_DLPACK_COPY_NEVER
 *  @retval USMARR_ERROR_INVALID_ARGUMENT and the others of usmarr_array_to_dlpack() */
USMARR_API USMARR_NODISCARD int usmarr_array_to_dlpack_unversioned(const usmarr_array_t *array,
                                                                   const usmarr_dl_device_t *device,
                                                                   usmarr_dlpack_copy_t copy,
                                                                   usmarr_dl_managed_tensor_t **tensor);

/** @brief Makes an array from a DLPack 1.x tensor, without a copy when it can.
 *
 * Shared: kDLOneAPI or kDLCPU memory that the allocation query (clGetMemAllocInfoINTEL)
 * finds to be USM of @p context, with the whole span inside the allocation (as
 * usmarr_interface_import() checks).  The array's block wraps the entire allocation and
 * calls the tensor's deleter when it dies; a tensor flagged read-only gives a read-only
 * array.  Copied (when @p copy allows): kDLCPU memory that is not USM of the context,
 * read on the host into a new C-contiguous array of @p kind, after which the deleter is
 * called at once; with ::USMARR_DLPACK_COPY_ALWAYS, USM of the context too.  A copy is
 * writable.
 *
 * @param tensor the tensor: taken on success, left to the caller on failure (who then
 *        calls its deleter)
 * @param context the context the memory must belong to, or the copy goes to (borrowed)
 * @param copy when a copy is allowed or required
 * @param kind the USM kind of a copy (0: device)
 * @param[out] array the new array
 * @return 0 on success, or an OpenCL error of the copy
 * @retval USMARR_ERROR_INVALID_ARGUMENT a NULL argument, a bad @p copy or @p kind, ndim
 *         outside [0, ::USMARR_MAX_NDIM], a NULL shape, a negative extent, NULL data for
 *         a non-empty tensor, data a fraction of an element into its allocation
 * @retval USMARR_ERROR_UNSUPPORTED a major version other than 1, or a device type other
 *         than kDLOneAPI and kDLCPU
 * @retval USMARR_ERROR_BAD_DTYPE a type code, bit width or lane count without a
 *         ::usmarr_dtype_t (bfloat16, float8, vectors, ...)
 * @retval USMARR_ERROR_FOREIGN_POINTER kDLOneAPI memory that is not USM of @p context,
 *         or kDLCPU host memory with ::USMARR_DLPACK_COPY_NEVER
 * @retval USMARR_ERROR_OUT_OF_BOUNDS the span leaves the allocation
 * @retval USMARR_ERROR_OVERFLOW the span or the byte offset overflows */
USMARR_API USMARR_NODISCARD int usmarr_array_from_dlpack(usmarr_dl_managed_tensor_versioned_t *tensor,
                                                         usmarr_context_t *context, usmarr_dlpack_copy_t copy,
                                                         usmarr_usm_kind_t kind, usmarr_array_t **array);

/** @brief Makes an array from a legacy (unversioned) DLPack tensor; as
 *  usmarr_array_from_dlpack() (the array is writable: the legacy struct has no flags). */
USMARR_API USMARR_NODISCARD int usmarr_array_from_dlpack_unversioned(usmarr_dl_managed_tensor_t *tensor,
                                                                     usmarr_context_t *context,
                                                                     usmarr_dlpack_copy_t copy, usmarr_usm_kind_t kind,
                                                                     usmarr_array_t **array);

/** @brief The dtype a DLPack data type describes.
 *  @retval USMARR_ERROR_BAD_DTYPE no such dtype (the detail names code, bits and lanes)
 *  @retval USMARR_ERROR_INVALID_ARGUMENT @p dtype is NULL */
USMARR_API USMARR_NODISCARD int usmarr_dtype_from_dlpack(usmarr_dl_data_type_t type, usmarr_dtype_t *dtype);

/** @brief The DLPack data type of a dtype (lanes 1; bool is kDLBool with 8 bits).
 *  @retval USMARR_ERROR_BAD_DTYPE an invalid dtype
 *  @retval USMARR_ERROR_INVALID_ARGUMENT @p type is NULL */
USMARR_API USMARR_NODISCARD int usmarr_dtype_to_dlpack(usmarr_dtype_t dtype, usmarr_dl_data_type_t *type);

/** @} */

#endif
