/* Part of usmarr.h: include <usmarr.h>, not this file. */
#ifndef USMARR_H_INSIDE
#error "include <usmarr.h> instead of usmarr/interop.h"
#endif
#ifndef USMARR_INTEROP_H
#define USMARR_INTEROP_H

/* ---------------------------------------------------------------------------------- */
/** @name The USM array interface
 * The C form of `__sycl_usm_array_interface__`, the dictionary by which dpctl and other
 * SYCL/USM libraries describe an array in USM (doc/glossary.md).  A JSON rendering
 * carries it across language boundaries within one process (pointers are plain integers
 * in it).
 * @{ */

/** The only interface version there is. */
#define USMARR_INTERFACE_VERSION 1

/** What `syclobj` holds. */
typedef enum usmarr_syclobj_kind {
    USMARR_SYCLOBJ_NONE = 0,     /**< absent: the importer's context is used */
    USMARR_SYCLOBJ_SELECTOR = 1, /**< a filter selector string naming a device */
    USMARR_SYCLOBJ_CONTEXT = 2,  /**< a ::usmarr_context_t */
    USMARR_SYCLOBJ_QUEUE = 3     /**< an OpenCL queue, whose context owns the memory */
} usmarr_syclobj_kind_t;

/** The object that identifies the context the allocation is bound to (borrowed). */
typedef struct usmarr_syclobj {
    usmarr_syclobj_kind_t kind;
    union {
        const char *selector;       /**< ::USMARR_SYCLOBJ_SELECTOR, e.g. "opencl:cpu:0" */
        usmarr_context_t *context;  /**< ::USMARR_SYCLOBJ_CONTEXT */
        cl_command_queue queue;     /**< ::USMARR_SYCLOBJ_QUEUE */
    } value;
} usmarr_syclobj_t;

/** @brief The interface dictionary as a C struct.  Every pointer in it is borrowed: from
 *  the exported array, from the parsed JSON (usmarr_interface_free()), or from the caller. */
typedef struct usmarr_interface {
    int ndim;                 /**< len(shape) */
    const int64_t *shape;     /**< @c ndim extents (NULL allowed when ndim is 0) */
    const char *typestr;      /**< "<f4", "|b1", ... */
    void *data;               /**< USM pointer: the memory block's base, not element 0 */
    bool readonly;            /**< true: the data are read-only (everywhere in this library) */
    const int64_t *strides;   /**< strides in elements, or NULL for C-contiguous */
    int nstrides;             /**< len(strides) when strides is not NULL; must equal ndim */
    int64_t offset;           /**< elements from @c data to element [0,...,0] */
    usmarr_syclobj_t syclobj; /**< what names the context */
    int version;              /**< ::USMARR_INTERFACE_VERSION */
} usmarr_interface_t;

/** @brief Fills @p iface from an array: data is the memory block's base pointer, offset
 *  the array's offset, strides NULL when C-contiguous, syclobj the array's context.
 *  The pointers stay valid while the array lives.
 *  @retval USMARR_ERROR_INVALID_ARGUMENT NULL argument */
USMARR_API USMARR_NODISCARD int usmarr_interface_export(const usmarr_array_t *array, usmarr_interface_t *iface);

/** @brief Makes a zero-copy array over the memory an interface describes.
 *
 * Validates the version, typestr, lengths of shape and strides, extents, the context
 * (with clGetMemAllocInfoINTEL the pointer must be USM of the context syclobj names), and
 * that the whole span, negative strides included, lies inside the pointer's allocation.
 * The array's block wraps the entire allocation (its base is the allocation's base, so
 * negative strides reaching before @c data are fine when they stay inside it).  A
 * read-only interface gives a read-only array.
 *
 * Keeping alive: the allocation must outlive the array.  Pass @p release/@p user_data
 * (called once when the block dies, e.g. usmarr_interface_release_array() with a retained
 * exporter) to tie the owner's lifetime to the import.  Neither is called on failure.
 *
 * @param iface the interface (borrowed)
 * @param context the context to use: required when syclobj is a selector or absent (it
 *        must then be on the selector's device); else NULL or the context syclobj names
 * @param release owner release callback, or NULL
 * @param user_data its argument
 * @param[out] array the new array
 * @retval USMARR_ERROR_INVALID_ARGUMENT version not 1, bad ndim, strides length differs
 *         from ndim, negative extent, NULL arguments, missing context, misaligned data
 * @retval USMARR_ERROR_BAD_DTYPE bad typestr
 * @retval USMARR_ERROR_BAD_SELECTOR the selector is malformed
 * @retval USMARR_ERROR_CONTEXT_MISMATCH @p context is not on the device or context named
 * @retval USMARR_ERROR_FOREIGN_POINTER data is not USM of that context
 * @retval USMARR_ERROR_OUT_OF_BOUNDS the span leaves the allocation
 * @retval USMARR_ERROR_OVERFLOW the span arithmetic overflows */
USMARR_API USMARR_NODISCARD int usmarr_interface_import(const usmarr_interface_t *iface, usmarr_context_t *context,
                                                        usmarr_release_fn release, void *user_data,
                                                        usmarr_array_t **array);

/** @brief A ::usmarr_release_fn that releases the ::usmarr_array_t passed as user_data. */
USMARR_API void usmarr_interface_release_array(void *pointer, void *array);

/** @brief True when two interfaces describe the same thing: equal shape, typestr, data,
 *  readonly, offset, version, the same context (a syclobj context, queue or selector is
 *  compared by the device and OpenCL context it names where possible, else textually)
 *  and strides (NULL compares equal to explicit C-contiguous strides).  NULL arguments
 *  are never equal. */
USMARR_API bool usmarr_interface_equal(const usmarr_interface_t *a, const usmarr_interface_t *b);

/** @brief Renders an interface as JSON text, e.g.
 *  `{"shape": [2, 3], "typestr": "<f4", "data": [140737488355328, false], "strides": null,
 *  "offset": 0, "syclobj": "opencl:cpu:0", "version": 1}`.  The syclobj is always a
 *  selector string (the device's own for a context or queue).
 *  @param iface the interface (borrowed)
 *  @param[out] json allocated text; free with usmarr_string_free()
 *  @retval USMARR_ERROR_INVALID_ARGUMENT NULL arguments, bad ndim or missing shape
 *  @retval USMARR_ERROR_OUT_OF_HOST_MEMORY no memory for the text */
USMARR_API USMARR_NODISCARD int usmarr_interface_to_json(const usmarr_interface_t *iface, char **json);

/** @brief Parses the JSON rendering.  Keys may come in any order; strides, offset and
 *  syclobj are optional (null strides = C-contiguous); unknown keys are skipped.
 *  Malformed or hostile text (deep nesting, huge numbers, truncation, wrong types,
 *  duplicate keys) is rejected, never trusted.
 *  @param json NUL-terminated text
 *  @param[out] iface an allocated interface owning its strings and arrays; free with
 *         usmarr_interface_free()
 *  @retval USMARR_ERROR_PARSE malformed text; the detail gives the byte position and why
 *  @retval USMARR_ERROR_INVALID_ARGUMENT NULL arguments */
USMARR_API USMARR_NODISCARD int usmarr_interface_from_json(const char *json, usmarr_interface_t **iface);

/** @brief Frees an interface from usmarr_interface_from_json(); NULL is a no-op. */
USMARR_API void usmarr_interface_free(usmarr_interface_t *iface);

/** @brief usmarr_interface_export() + usmarr_interface_to_json().
 *  @retval USMARR_ERROR_INVALID_ARGUMENT NULL arguments */
USMARR_API USMARR_NODISCARD int usmarr_array_to_json(const usmarr_array_t *array, char **json);

/** @brief usmarr_interface_from_json() + usmarr_interface_import().  Only valid in the
 *  process that produced the text: the data pointer is a plain address.
 *  @retval USMARR_ERROR_PARSE malformed text
 *  @retval USMARR_ERROR_INVALID_ARGUMENT and the others of usmarr_interface_import() */
USMARR_API USMARR_NODISCARD int usmarr_array_from_json(const char *json, usmarr_context_t *context,
                                                       usmarr_release_fn release, void *user_data,
                                                       usmarr_array_t **array);
/** @} */

/* ---------------------------------------------------------------------------------- */
/** @name Debug dump and printing
 * @{ */

/** @brief Frees a string the library returned (debug dumps, value strings, JSON); NULL is
 *  a no-op. */
USMARR_API void usmarr_string_free(char *string);

/** @brief Writes a `debug_repr` dump of an array (after DyND's): address, reference count,
 *  dtype, flags, shape, strides, offset, data pointer, memory block (kind, base, size,
 *  references, foreign or owned) and context/device.
 *  @retval USMARR_ERROR_INVALID_ARGUMENT NULL argument
 *  @retval USMARR_ERROR_IO writing to @p out failed */
USMARR_API USMARR_NODISCARD int usmarr_array_debug_print(const usmarr_array_t *array, FILE *out);
/** @brief The same dump as an allocated string (free with usmarr_string_free()).
 *  @retval USMARR_ERROR_INVALID_ARGUMENT NULL argument */
USMARR_API USMARR_NODISCARD int usmarr_array_debug_string(const usmarr_array_t *array, char **text);

/** Arrays with more elements than this print summarised (NumPy's threshold). */
#define USMARR_PRINT_THRESHOLD 1000
/** Leading and trailing items shown per axis when summarising (NumPy's edgeitems). */
#define USMARR_PRINT_EDGEITEMS 3

/** @brief The values as NumPy's `str()` prints them: `[[1 2 3]\n [4 5 6]]`, booleans as
 *  True/False, floats with up to 8 significant digits, complex as `1.+2.j`; arrays of
 *  more than ::USMARR_PRINT_THRESHOLD elements show ::USMARR_PRINT_EDGEITEMS items at each
 *  end of every longer axis with `...` between.  Reads the elements (blocking).
 *  @param array the array (borrowed)
 *  @param[out] text allocated string; free with usmarr_string_free()
 *  @retval USMARR_ERROR_INVALID_ARGUMENT NULL argument */
USMARR_API USMARR_NODISCARD int usmarr_array_to_string(const usmarr_array_t *array, char **text);
/** @brief Writes usmarr_array_to_string()'s text and a newline to @p out.
 *  @retval USMARR_ERROR_INVALID_ARGUMENT NULL argument
 *  @retval USMARR_ERROR_IO writing failed */
USMARR_API USMARR_NODISCARD int usmarr_array_print(const usmarr_array_t *array, FILE *out);
/** @} */

#endif
