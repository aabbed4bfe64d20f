/* Private declarations of the core (lib/core/): devices, contexts, dtypes and promotion,
 * memory blocks, arrays and their creation.  Every other folder's header
 * includes this one; never installed. */
#ifndef USMARR_CORE_INTERNAL_H
#define USMARR_CORE_INTERNAL_H

#include "../backend/backend_internal.h"

/* ---- context (context.c, device.c): the struct is in backend_internal.h --------- */
/* Fills `info` for one device (usable, reason, caps); USMARR_ERROR_OUT_OF_HOST_MEMORY
 * when it cannot read the extension list (never "not usable" for that). */
USMARR_INTERNAL int usmarr__device_describe(cl_platform_id platform, unsigned platform_index, cl_device_id device,
                                             unsigned device_index, usmarr_device_info_t *info);
/* The engine keeps per-context state (the device profile, the kernel shape, the kernel
 * cache) but core never names its functions: the engine registers `created` when the
 * library is loaded, and core passes it every new context before returning it; the
 * kernel cache the engine creates on first use, setting `kernels_free`, which the
 * context's last release calls. */
typedef void (*usmarr__context_hook_fn)(usmarr_context_t *ctx);
USMARR_INTERNAL void usmarr__context_hook_register(usmarr__context_hook_fn created);
/* Drops one of the library's own references to a context (blocks, pods, queues, imports)
 * without waiting; usmarr_context_release(), the caller's, first runs the deferred
 * releases, which may hold the last references. */
USMARR_INTERNAL void usmarr__context_unref(usmarr_context_t *context);

/* ---- memory (memory.c) ---------------------------------------------------------- */
struct usmarr_memory {
    atomic_int refcount;
    usmarr_context_t *context;
    void *pointer;
    size_t size;
    usmarr_usm_kind_t kind;
    bool foreign;
    usmarr_release_fn release;
    void *user_data;
    /* pod allocator (pod.c): state, capacity behind `pointer`, base alignment, and the
     * begin of the most recent allocation (its end is `size`) */
    usmarr_pod_state_t pod_state;
    size_t pod_capacity;
    size_t pod_alignment;
    size_t pod_last_begin;
    /* The queue that last wrote the block: the one it was allocated on, or the last
     * usmarr_array_record_queue() (retained; NULL: the context's own queue).  Its reuse
     * and its release wait for that queue's work, without waiting on the host. */
    _Atomic(usmarr_queue_t *) queue;
};

/* ---- queues (queue.c) ----------------------------------------------------------- */
/* Adds a reference to a queue (not NULL; the own queue's go to its context). */
USMARR_INTERNAL void usmarr__queue_ref(usmarr_queue_t *queue);
/* Drops one: the last reference of a created or adopted queue frees it. */
USMARR_INTERNAL void usmarr__queue_unref(usmarr_queue_t *queue);

/* 0 when the context's device offers USM of `kind`, else USMARR_ERROR_UNSUPPORTED with a
 * detail naming the kind, the device and its capability query. */
USMARR_INTERNAL int usmarr__usm_kind_offered(const usmarr_context_t *ctx, usmarr_usm_kind_t kind);
/* The arguments every block-making call shares: context and memory given, `kind` one of
 * device, shared and host. */
USMARR_INTERNAL int usmarr__check_memory_args(const usmarr_context_t *context, usmarr_usm_kind_t kind,
                                              usmarr_memory_t *const *memory);
/* A new block of `kind` on context (retained), nothing behind it yet. */
USMARR_INTERNAL int usmarr__memory_new(usmarr_context_t *context, usmarr_usm_kind_t kind, usmarr_memory_t **out);

/* ---- arrays (array.c) ----------------------------------------------------------- */
struct usmarr_array {
    atomic_int refcount;
    int ndim;
    usmarr_dtype_t dtype;
    unsigned flags;
    int64_t offset;
    usmarr_memory_t *memory;
    int64_t shape[USMARR_MAX_NDIM];
    int64_t strides[USMARR_MAX_NDIM];
};

/* Validates (negative shape, overflow-checked span against the block, data alignment,
 * dtype support) and makes an array over `memory`, retaining it.  strides NULL = C order.
 * access_flags: USMARR_FLAG_WRITABLE and/or USMARR_FLAG_IMMUTABLE (immutable wins). */
USMARR_INTERNAL int usmarr__array_new(usmarr_memory_t *memory, usmarr_dtype_t dtype, int ndim, const int64_t *shape,
                                      const int64_t *strides, int64_t offset, unsigned access_flags,
                                      usmarr_array_t **out);
/* Element displacement range [min, max] relative to the offset; false (and [0, -1]) for
 * a zero-size array. */
USMARR_INTERNAL bool usmarr__array_span(const usmarr_array_t *a, int64_t *min_disp, int64_t *max_disp);
/* The same for a raw layout, overflow-checked; `stridename` names the strides in errors.
 * Zero-size layouts give [0, -1] and size 0. */
USMARR_INTERNAL int usmarr__layout_span(int ndim, const int64_t *shape, const int64_t *strides, int64_t *min_disp,
                                        int64_t *max_disp, int64_t *size, const char *stridename);
/* Contiguous C or F strides for `shape` (zero extents count as 1). */
USMARR_INTERNAL int usmarr__contiguous_strides(int ndim, const int64_t *shape, usmarr_order_t order,
                                               int64_t *strides);
/* Contiguous strides of a new array shaped like `proto` for `order` C, F, A (F when proto
 * is F- and not C-contiguous) or K (NumPy's: C for a C-contiguous proto, F for an
 * F-contiguous one, else the axes in decreasing |stride|, ties in axis order). */
USMARR_INTERNAL void usmarr__strides_like(const usmarr_array_t *proto, usmarr_order_t order, int64_t *strides);
/* A new writable contiguous (C or F) array on a fresh block of `kind`. */
USMARR_INTERNAL int usmarr__array_empty_like_layout(usmarr_context_t *ctx, usmarr_dtype_t dtype, int ndim,
                                                    const int64_t *shape, usmarr_order_t order,
                                                    usmarr_usm_kind_t kind, usmarr_array_t **out);
/* A shape argument's rank in [0, USMARR_MAX_NDIM] and its pointer given when the rank is
 * not 0 (USMARR_ERROR_INVALID_ARGUMENT otherwise); the extents are the caller's. */
USMARR_INTERNAL int usmarr__check_rank(int ndim, const int64_t *shape);
/* USMARR_ERROR_READ_ONLY naming `argname` unless the array is writable. */
USMARR_INTERNAL int usmarr__check_writable(const usmarr_array_t *a, const char *argname);
/* USMARR_ERROR_UNSUPPORTED for float64/complex128 without fp64 (float16 is storage-only
 * and always allowed); USMARR_ERROR_BAD_DTYPE for an invalid dtype. */
USMARR_INTERNAL int usmarr__check_dtype_supported(usmarr_context_t *ctx, usmarr_dtype_t dtype, const char *argname);

/* ---- dtypes (dtype.c) ----------------------------------------------------------- */
USMARR_INTERNAL bool usmarr__dtype_valid(usmarr_dtype_t dtype);
/* The dtype whose name (usmarr_dtype_name()) is the `len` characters at `s`, or -1. */
USMARR_INTERNAL int usmarr__dtype_named(const char *s, size_t len);
USMARR_INTERNAL usmarr_dtype_t usmarr__scalar_default_dtype(usmarr_scalar_t s);
/* Converts a scalar to `dtype` as NumPy would and stores its bytes at `out` (a malformed
 * scalar as usmarr__scalar_check(), weak integers out of range, weak complex values into
 * real dtypes and non-finite floats into integers fail, naming `argname`). */
USMARR_INTERNAL int usmarr__scalar_store(usmarr_scalar_t s, usmarr_dtype_t dtype, void *out, const char *argname);
/* IEEE binary16 conversions, round to nearest even. */
USMARR_INTERNAL uint16_t usmarr__half_from_double(double x);
USMARR_INTERNAL double usmarr__half_to_double(uint16_t h);

/* ---- host transfers (create.c) -------------------------------------------------- */
/* A whole-block transfer from an array to host memory laid out with `host_strides`
 * (elements; NULL = C-contiguous).  No argument checks. */
USMARR_INTERNAL int usmarr__array_read(const usmarr_array_t *a, void *host, const int64_t *host_strides);
/* The filter selector ("opencl:cpu:0") naming a device, found through the device list,
 * and (when `ordinal` is not NULL) its index among the usable devices, which the selector
 * "N" picks: 0, USMARR_ERROR_NO_DEVICE (not recorded) when no usable device matches, or
 * the error of listing the devices (device.c). */
USMARR_INTERNAL int usmarr__device_selector(cl_device_id device, char *out, size_t size, int *ordinal);

/* ---- shapes (array.c) ------------------------------------------------------------ */
/* NumPy's repr of a shape into buf: "()", "(5,)", "(2, 3)"; truncated with "..." when long. */
USMARR_INTERNAL const char *usmarr__format_shape(int ndim, const int64_t *shape, char *buf, size_t size);
#define USMARR__SHAPE_BUF 160

/* Normalises `axis` in [-ndim, ndim) to [0, ndim); USMARR_ERROR_INVALID_ARGUMENT naming
 * `argname` and the dimension otherwise. */
USMARR_INTERNAL int usmarr__normalize_axis(int axis, int ndim, const char *argname, int *out);
/* A list of naxes axes of an ndim-dim array as a mask (mask[ndim]) and, normalized (from
 * the end when negative), in norm (NULL: not wanted): every axis when `axes` is NULL;
 * else naxes in [0, ndim], each axis in [-ndim, ndim) (USMARR_ERROR_INDEX) and none
 * twice.  Errors read "<fn>: <name>[i]=a ..." (fn NULL: no prefix). */
USMARR_INTERNAL int usmarr__axes_mask(int ndim, int naxes, const int *axes, const char *fn, const char *name,
                                      bool *mask, int *norm);

/* Element count of a shape, overflow-checked. */
USMARR_INTERNAL int usmarr__shape_size(int ndim, const int64_t *shape, int64_t *size);


/* ---- memory pages (memory.c) --------------------------------------------------------- */
/* On a CPU device, advises transparent huge pages for a large fresh USM range (>= 4 MiB),
 * as NumPy does for large arrays: first touches then fault 2 MiB at a time (every fresh
 * block of usmarr_memory_create, pod blocks, results; USMARR_HUGE_PAGES=0 turns it off). */
USMARR_INTERNAL void usmarr__advise_huge_pages(usmarr_context_t *context, void *pointer, size_t size);
/* The whole pages inside [begin, end), or false when there are none (memory.c). */
USMARR_INTERNAL bool usmarr__inner_pages(void *begin, void *end, uintptr_t *first, uintptr_t *last);


/* ---- promotion (promote.c) ------------------------------------------------------- */
/* promote_types without argument checks (both must be valid dtypes). */
USMARR_INTERNAL usmarr_dtype_t usmarr__promote(usmarr_dtype_t a, usmarr_dtype_t b);
/* Validates a scalar's kind and dtype; `what` names it in messages.  A kind that is none,
 * or that contradicts the typed scalar's dtype, is USMARR_ERROR_INVALID_ARGUMENT; a dtype
 * that is neither -1 nor a dtype is USMARR_ERROR_BAD_DTYPE. */
USMARR_INTERNAL int usmarr__scalar_check(const usmarr_scalar_t *s, const char *what);
/* USMARR_ERROR_OVERFLOW when a weak integer scalar does not fit an integer `dtype`. */
USMARR_INTERNAL int usmarr__weak_fits(const usmarr_scalar_t *s, usmarr_dtype_t dtype, const char *what);
/* result_type over dtypes and scalar pointers (scalars already in any order).  With
 * `check_weak` false a weak integer out of range of the result is no error: the caller
 * checks it against the dtype that receives it (an elementwise function computed in
 * floating point takes any integer). */
USMARR_INTERNAL int usmarr__result_type(const usmarr_dtype_t *dtypes, size_t ndtypes,
                                        const usmarr_scalar_t *const *scalars, size_t nscalars, bool check_weak,
                                        usmarr_dtype_t *result);

#endif
