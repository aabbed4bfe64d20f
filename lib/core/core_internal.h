/* Private declarations of the core (lib/core/): errors, devices, contexts, dtypes and
 * promotion, memory blocks, arrays and their creation.  Every other folder's header
 * includes this one; never installed. */
#ifndef USMARR_CORE_INTERNAL_H
#define USMARR_CORE_INTERNAL_H

#include "config.h"


#include "../backend/backend_internal.h"

#include <CL/cl_ext.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <threads.h>


/* ---- errors (error.c) ----------------------------------------------------------- */

/* Records the calling thread's failure detail (printf-style) and returns `code`, so
 * that failures read `return usmarr__fail(USMARR_ERROR_X, "arg=%d exceeds %d", ...)`. */
USMARR_INTERNAL int usmarr__fail(int code, const char *format, ...) __attribute__((format(printf, 2, 3)));
/* For OpenCL failures: records "<what>: CL_NAME (code)" and returns the cl code. */
USMARR_INTERNAL int usmarr__cl_fail(cl_int err, const char *what);
/* Clears the thread's detail at the start of a public call that may fail. */
USMARR_INTERNAL void usmarr__clear_error(void);

/* ---- overflow-checked arithmetic ------------------------------------------------ */
static inline bool usmarr__mul_overflow(int64_t a, int64_t b, int64_t *r) { return __builtin_mul_overflow(a, b, r); }
static inline bool usmarr__add_overflow(int64_t a, int64_t b, int64_t *r) { return __builtin_add_overflow(a, b, r); }
/* Greatest common divisor (Euclid); gcd(a, 0) = a. */
static inline int64_t usmarr__gcd(int64_t a, int64_t b)
{
    while (b) {
        int64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* ---- environment switches -------------------------------------------------------
 * An on/off switch from the environment (USMARR_BUILD_LOG, USMARR_CACHE_TRACE): on when
 * set to anything but "" and "0"; read once into *cache, -1 until then. */
static inline bool usmarr__env_switch(atomic_int *cache, const char *name)
{
    int on = atomic_load_explicit(cache, memory_order_relaxed);
    if (on < 0) {
        const char *v = getenv(name);
        on = v && *v && strcmp(v, "0") != 0;
        atomic_store_explicit(cache, on, memory_order_relaxed);
    }
    return on;
}

/* ---- reference counts ----------------------------------------------------------
 * Every counted object (context, memory block, array, copy plan, storage, sync state)
 * has an `atomic_int refcount`, 1 at creation, and only these change it: retains need
 * no ordering; the release that drops the last reference sees every other holder's
 * writes (acq_rel) before its caller destroys the object.  NULL objects are allowed. */
static inline void usmarr__ref_init(atomic_int *count) { atomic_init(count, 1); }
static inline void usmarr__ref_add(atomic_int *count) { atomic_fetch_add_explicit(count, 1, memory_order_relaxed); }
static inline bool usmarr__ref_drop(atomic_int *count)
{
    return atomic_fetch_sub_explicit(count, 1, memory_order_acq_rel) == 1;
}
/* The body of usmarr_<object>_retain: one more reference; returns `object`. */
#define USMARR__RETAIN(object) ((object) ? (usmarr__ref_add(&(object)->refcount), (object)) : (object))
/* True when this release dropped the last reference: the caller destroys `object`. */
#define USMARR__RELEASE_LAST(object) ((object) && usmarr__ref_drop(&(object)->refcount))
/* The count now (0 for NULL); a snapshot for tests and debug output. */
#define USMARR__REFCOUNT(object) \
    ((object) ? atomic_load_explicit((atomic_int *)&(object)->refcount, memory_order_relaxed) : 0)

/* ---- context (context.c, device.c) ---------------------------------------------- */
struct usmarr__kernel_cache; /* engine */

/* How the map launcher shapes its kernels for one device: chosen once per context from
 * what was measured on that driver (map.c, doc/engine.md "Kernel shapes per device"). */
/* What the engine asks of a device, once per context (map.c): the facts the kernel shape
 * is chosen from and the reductions' work-groups are sized by. */
struct usmarr__device_profile {
    cl_device_type type;
    cl_uint compute_units;
    size_t max_group;      /* CL_DEVICE_MAX_WORK_GROUP_SIZE */
    size_t max_items[3];   /* CL_DEVICE_MAX_WORK_ITEM_SIZES: a work-group's extent per dimension */
    size_t group_multiple; /* CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE (OpenCL 3.0) or NVIDIA's warp; 0 unknown */
    cl_ulong local_mem;    /* CL_DEVICE_LOCAL_MEM_SIZE, bytes */
    cl_uint native_float;  /* CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT (16 on AVX-512 CPUs); 1 unknown */
    bool exact_divide;     /* CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT in CL_DEVICE_SINGLE_FP_CONFIG: the
                            * programs are built with -cl-fp32-correctly-rounded-divide-sqrt */
};

struct usmarr__kernel_shape {
    const char *name;      /* "pocl-cpu", "intel-cpu", "generic", "gpu" */
    bool contig_one;       /* contig class: one element per work-item (else 16, vload16) */
    unsigned contig_group; /* contig class work-group size */
    int rows_max_stride;   /* 2-D maps whose inner strides are all within +-this run in row groups */
    bool stride_masks;     /* inner strides of 0 and 1 are compiled into the strided kernels */
    bool tile;             /* transposes through the local-memory tile class */
    bool tblock;           /* transposes in 16x16 blocks in registers (class t16), before the tile */
    unsigned tree_group;   /* reductions: work-group tree reductions of this many items (0: per-output loops) */
    unsigned tree_cols;    /* of which outputs side by side when the kept axis is contiguous */
    unsigned s2_edge;      /* s2 class (transposes, wide-stride gathers): edge x edge work-groups */
    /* The gpu shape's algorithms (0 / false: the CPU ones, lib/ops and lib/index): */
    unsigned scan_group;   /* device-wide scans (cumulative_*), stream compaction (masks,
                            * nonzero, unique) and radix sorts: work-groups of this many items */
    bool matmul_blocked;   /* matmul through register-blocked local-memory tiles */
    unsigned rows_x, rows_y; /* s2w class (long rows): rows_x x rows_y work-groups */
    uint64_t nt_bytes;     /* contig class: non-temporal stores, 16 elements per work-item, when the
                              outputs hold at least this many bytes (0: never) */
    unsigned rowvec;       /* s2v class (rows of 16-vectors where inner strides are 1 or 0): its
                              work-group size; 0: the class is not used */
    unsigned copyvec;      /* copies, casts and fills: contiguous and row maps as 16-vectors in groups of
                              this many (0: as the other maps) */
    bool ptrval;           /* maps take their operands' addresses by value and reach USM indirectly
                              (cl/map.cl, USMARR_PTR_VALUE); never on the SVM backend */
    const char *origin;    /* "table", "tuned" (the disk cache's entry) or "forced" (USMARR_KERNEL_SHAPE) */
};

struct usmarr_context {
    atomic_int refcount;
    cl_platform_id platform;
    cl_context cl;
    cl_device_id device;
    cl_command_queue queue;
    mtx_t queue_lock; /* serialises enqueue + finish sequences from several threads */
    struct usmarr__usm_api usm;
    usmarr_device_info_t info;
    struct usmarr__device_profile profile; /* filled by the engine's context hook */
    struct usmarr__kernel_shape shape;    /* kernel shapes for this device (the same hook) */
    struct usmarr__kernel_cache *kernels; /* owned by the engine, created lazily */
    void (*kernels_free)(struct usmarr__kernel_cache *kernels); /* set with `kernels` */
    mtx_t kernels_lock;
    int device_ordinal; /* index among the usable devices (selector "N", DLPack's device_id); -1 unlisted */
    struct usmarr__pool pool; /* released device blocks for reuse (pool.c) */
    /* Counts the USM frees of the context (usmarr__usm_free, under queue_lock): a kernel's
     * recorded pointer argument is reused only while no block was freed since it was set
     * (program.c; Intel's CPU runtime ties a pointer argument to its allocation). */
    atomic_uint usm_frees;
    /* A launch since the last USM free passed addresses by value (USMARR__ARG_ADDRESS,
     * lib/engine): the driver does not know that it uses its blocks, so the next free
     * finishes the queue first (usmarr__usm_free).  Under queue_lock. */
    bool indirect_launched;
};

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
};

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
/* Recomputes C/F contiguity exactly (size-1 dims dropped; zero-size is both). */
USMARR_INTERNAL void usmarr__array_update_flags(usmarr_array_t *a);
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
/* Copies an N-d strided layout between host buffers; strides in elements, pointers at
 * element [0,...,0]. */
USMARR_INTERNAL void usmarr__host_strided_copy(int ndim, const int64_t *shape, char *dst, const int64_t *dst_strides,
                                               const char *src, const int64_t *src_strides, size_t itemsize);
/* Whole-block transfers between an array and host memory laid out with `host_strides`
 * (elements; NULL = C-contiguous).  No argument checks. */
USMARR_INTERNAL int usmarr__array_read(const usmarr_array_t *a, void *host, const int64_t *host_strides);
USMARR_INTERNAL int usmarr__array_write(usmarr_array_t *a, const void *host, const int64_t *host_strides);
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
