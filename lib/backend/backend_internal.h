/* Private declarations of the backends (lib/backend/): the table of USM entry points that
 * every allocation, free, copy and fill of the library goes through, filled either from
 * cl_intel_unified_shared_memory (usm.c) or from OpenCL 2.0 shared virtual memory
 * (svm.c), the allocation primitives over that table, and the pool of released device
 * blocks (pool.c).  Included by lib/core/core_internal.h; never installed. */
#ifndef USMARR_BACKEND_INTERNAL_H
#define USMARR_BACKEND_INTERNAL_H

#include "../base/base_internal.h"

#include <CL/cl_ext.h>
#include <threads.h>

/* The name of a USM kind ("device", "shared", "host", "unknown"), as
 * usmarr_usm_kind_name() gives it, for the backends' messages. */
static inline const char *usmarr__usm_kind_word(usmarr_usm_kind_t kind)
{
    return kind == USMARR_USM_DEVICE   ? "device"
           : kind == USMARR_USM_SHARED ? "shared"
           : kind == USMARR_USM_HOST   ? "host"
                                       : "unknown";
}

/* ---- USM entry points ----------------------------------------------------------- */
typedef void *(CL_API_CALL *usmarr__host_alloc_fn)(cl_context, const cl_mem_properties_intel *, size_t, cl_uint, cl_int *);
typedef void *(CL_API_CALL *usmarr__device_alloc_fn)(cl_context, cl_device_id, const cl_mem_properties_intel *,
                                                      size_t, cl_uint, cl_int *);
typedef cl_int(CL_API_CALL *usmarr__free_fn)(cl_context, void *);
typedef cl_int(CL_API_CALL *usmarr__alloc_info_fn)(cl_context, const void *, cl_mem_info_intel, size_t, void *, size_t *);
typedef cl_int(CL_API_CALL *usmarr__set_arg_ptr_fn)(cl_kernel, cl_uint, const void *);
typedef cl_int(CL_API_CALL *usmarr__memcpy_fn)(cl_command_queue, cl_bool, void *, const void *, size_t, cl_uint,
                                               const cl_event *, cl_event *);
typedef cl_int(CL_API_CALL *usmarr__memfill_fn)(cl_command_queue, void *, const void *, size_t, size_t, cl_uint,
                                                const cl_event *, cl_event *);
typedef cl_int(CL_API_CALL *usmarr__migrate_fn)(cl_command_queue, const void *, size_t, cl_mem_migration_flags,
                                                cl_uint, const cl_event *, cl_event *);

struct usmarr__usm_api {
    usmarr__host_alloc_fn host_alloc;
    usmarr__device_alloc_fn device_alloc;
    usmarr__device_alloc_fn shared_alloc;
    usmarr__free_fn free;
    usmarr__free_fn blocking_free;
    usmarr__alloc_info_fn alloc_info;
    usmarr__set_arg_ptr_fn set_kernel_arg_pointer;
    usmarr__memcpy_fn memcpy;
    usmarr__memfill_fn memfill;
    usmarr__migrate_fn migrate;
};

/* Loads the entry points of a platform; false (and `missing` names the first absent
 * one) when any required one is absent. */
USMARR_INTERNAL bool usmarr__usm_api_load(cl_platform_id platform, struct usmarr__usm_api *api, const char **missing);

/* The SVM backend (svm.c): the entry-point table over OpenCL 2.0 SVM, and the
 * registration of a library context's queue on its cl_context (-1 when the table is full
 * or out of memory). */
USMARR_INTERNAL void usmarr__svm_api_load(struct usmarr__usm_api *api);
USMARR_INTERNAL int usmarr__svm_register(cl_context cl, cl_command_queue queue);
USMARR_INTERNAL void usmarr__svm_unregister(cl_context cl, cl_command_queue queue);

/* Released device blocks kept for reuse (pool.c); guarded by `lock`.  A block remembers
 * the queue that last used it (retained; NULL: the context's own queue), and releases
 * that wait for a marker (`deferred`, order.c) sit here too, under the same lock. */
#define USMARR__POOL_BLOCKS 64
struct usmarr__pool_block {
    void *pointer;
    size_t size;
    cl_command_queue queue;
};
/* A release that waits for the work before `event` (order.c): `release(pointer, data)`. */
struct usmarr__deferred {
    cl_event event;
    void (*release)(void *pointer, void *data);
    void *pointer;
    void *data;
};
struct usmarr__pool {
    mtx_t lock;
    size_t limit; /* bytes; 0 = off */
    size_t bytes;
    int count;
    struct usmarr__pool_block blocks[USMARR__POOL_BLOCKS]; /* oldest first */
    struct usmarr__deferred *deferred;
    size_t ndeferred, deferred_capacity;
    atomic_size_t pending; /* ndeferred, read without the lock */
};

/* ---- queues (order.c) ----------------------------------------------------------- */
/* A queue of a context (include/usmarr/queue.h).  The context's own queue is a member of
 * the context (`own`), whose references count on the context's. */
struct usmarr_queue {
    atomic_int refcount;
    usmarr_context_t *context; /* retained, except by the context's own queue */
    cl_command_queue cl;       /* retained */
    bool own;
};

/* The calling thread's current queue (retained by the thread), or NULL. */
USMARR_INTERNAL extern _Thread_local usmarr_queue_t *usmarr__current_queue;

/* A marker on `queue`, flushed so that other queues may wait on it; takes the queue
 * lock (never call it with the lock held). */
USMARR_INTERNAL int usmarr__queue_marker_cl(usmarr_context_t *ctx, cl_command_queue queue, cl_event *event);
/* Makes `waiter` wait for the work enqueued so far on `producer` (nothing when they are
 * the same queue).  Called with the queue lock held. */
USMARR_INTERNAL int usmarr__queue_order_locked(cl_command_queue producer, cl_command_queue waiter);

/* Calls release(pointer, data) once the work enqueued so far on `queue` (NULL: the
 * context's own) has completed, without waiting now: a marker is recorded and polled by
 * later calls (usmarr__deferred_poll) and waited for by usmarr__deferred_flush.  When no
 * marker can be recorded the queue is finished and the release runs now. */
USMARR_INTERNAL void usmarr__defer_release(usmarr_context_t *ctx, cl_command_queue queue,
                                           void (*release)(void *pointer, void *data), void *pointer, void *data);
/* Runs the deferred releases whose markers have completed (cheap when there are none). */
USMARR_INTERNAL void usmarr__deferred_poll(usmarr_context_t *ctx);
/* Waits for every deferred release's marker and runs them all (finish, context release,
 * an allocation that failed). */
USMARR_INTERNAL void usmarr__deferred_flush(usmarr_context_t *ctx);


/* ---- the block pool (pool.c) ---------------------------------------------------- */
/* Sets up ctx->pool (limit from USMARR_POOL_BYTES or the device); -1 when the lock fails. */
USMARR_INTERNAL int usmarr__pool_init(usmarr_context_t *ctx);
/* A pooled block of exactly `size` bytes aligned to `alignment` (0 = any), or NULL. */
USMARR_INTERNAL void *usmarr__pool_take(usmarr_context_t *ctx, usmarr_usm_kind_t kind, size_t size, size_t alignment);
/* Keeps a released ordinary block for reuse; false when it is not pooled (free it).
 * `queue` is the queue that last used it (NULL: the context's own): a later take on
 * another queue makes that one wait for it first. */
USMARR_INTERNAL bool usmarr__pool_give(usmarr_context_t *ctx, usmarr_usm_kind_t kind, void *pointer, size_t size,
                                       cl_command_queue queue);
/* Frees every pooled block; true when there was one. */
USMARR_INTERNAL bool usmarr__pool_drain(usmarr_context_t *ctx);
/* Drains the pool and destroys its lock (context release). */
USMARR_INTERNAL void usmarr__pool_destroy(usmarr_context_t *ctx);

/* ---- allocation primitives (usm.c) --------------------------------------------- */

/* Allocates USM of `kind` through the extension, checking that the driver honoured
 * `alignment` (0 = default); on failure records the detail and returns the code. */
USMARR_INTERNAL int usmarr__usm_alloc(usmarr_context_t *context, usmarr_usm_kind_t kind, size_t size,
                                      size_t alignment, void **pointer);

/* Frees USM of `context` with clMemBlockingFreeINTEL under the context's queue lock:
 * PoCL 6.0 crashes when one thread frees while another enqueues on the same context.
 * Never call it with the queue lock held. */
USMARR_INTERNAL void usmarr__usm_free(usmarr_context_t *context, void *pointer);
/* The same as a usmarr__defer_release function (`data` the context): the work before the
 * marker that released it is done, so no launch by address needs finishing first. */
USMARR_INTERNAL void usmarr__usm_free_deferred(void *pointer, void *data);

/* Checks that [pointer, pointer+size) is USM of `context` with clGetMemAllocInfoINTEL;
 * on success stores the allocation's kind. `what` names the argument in messages. */
USMARR_INTERNAL int usmarr__usm_check_range(usmarr_context_t *context, const void *pointer, size_t size,
                                            const char *what, usmarr_usm_kind_t *kind);

/* ---- the context ------------------------------------------------------------------
 * Declared here, not in core: the backends work on it (its USM table, queue and lock,
 * pool, free counter); core/context.c builds and frees it, and the engine's hook fills
 * the device profile and the kernel shape (doc/architecture.md). */
struct usmarr__kernel_cache; /* engine */
struct usmarr__fft_cache;    /* fft: plans and twiddle tables */

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
    unsigned vecs;         /* contig (16-vector kernels) and s2v classes: runs of 16 elements a work-item */
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
    usmarr_queue_t own; /* the queue object of `queue` (order.c) */
    mtx_t queue_lock; /* serialises enqueue + finish sequences from several threads */
    cl_event app_wait; /* the last barrier usmarr_queue_wait enqueued for the application's
                        * events, on any queue of the context (under queue_lock), or NULL */
    struct usmarr__usm_api usm;
    usmarr_device_info_t info;
    struct usmarr__device_profile profile; /* filled by the engine's context hook */
    struct usmarr__kernel_shape shape;    /* kernel shapes for this device (the same hook) */
    struct usmarr__kernel_cache *kernels; /* owned by the engine, created lazily */
    void (*kernels_free)(struct usmarr__kernel_cache *kernels); /* set with `kernels` */
    mtx_t kernels_lock;
    /* The transforms' plans (lib/fft), created on first use (an atomic exchange) with
     * `fft_free`, which the context's last release calls after finishing the queue. */
    _Atomic(struct usmarr__fft_cache *) fft;
    void (*fft_free)(usmarr_context_t *ctx);
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

/* The cl_command_queue that the calling thread's operations on `ctx` use: its current
 * queue when that belongs to ctx, else the context's own.  One thread-local load and a
 * compare: the default path stays as fast as it was. */
static inline cl_command_queue usmarr__queue_of(const usmarr_context_t *ctx)
{
    const usmarr_queue_t *q = usmarr__current_queue;
    return q && q->context == ctx ? q->cl : ctx->queue;
}

#endif
