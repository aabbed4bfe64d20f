/* Private declarations of the backends (lib/backend/): the table of USM entry points that
 * every allocation, free, copy and fill of the library goes through, filled either from
 * cl_intel_unified_shared_memory (usm.c) or from OpenCL 2.0 shared virtual memory
 * (svm.c), the allocation primitives over that table, and the pool of released device
 * blocks (pool.c).  Included by lib/core/core_internal.h; never installed. */
#ifndef USMARR_BACKEND_INTERNAL_H
#define USMARR_BACKEND_INTERNAL_H

#define USMARR_BUILDING_LIBRARY 1
#include "usmarr.h"

#include <CL/cl_ext.h>
#include <threads.h>

#define USMARR_INTERNAL __attribute__((visibility("hidden")))

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

/* Released device blocks kept for reuse (pool.c); guarded by `lock`. */
#define USMARR__POOL_BLOCKS 64
struct usmarr__pool_block {
    void *pointer;
    size_t size;
};
struct usmarr__pool {
    mtx_t lock;
    size_t limit; /* bytes; 0 = off */
    size_t bytes;
    int count;
    struct usmarr__pool_block blocks[USMARR__POOL_BLOCKS]; /* oldest first */
};


/* ---- the block pool (pool.c) ---------------------------------------------------- */
/* Sets up ctx->pool (limit from USMARR_POOL_BYTES or the device); -1 when the lock fails. */
USMARR_INTERNAL int usmarr__pool_init(usmarr_context_t *ctx);
/* A pooled block of exactly `size` bytes aligned to `alignment` (0 = any), or NULL. */
USMARR_INTERNAL void *usmarr__pool_take(usmarr_context_t *ctx, usmarr_usm_kind_t kind, size_t size, size_t alignment);
/* Keeps a released ordinary block for reuse; false when it is not pooled (free it). */
USMARR_INTERNAL bool usmarr__pool_give(usmarr_context_t *ctx, usmarr_usm_kind_t kind, void *pointer, size_t size);
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

/* Checks that [pointer, pointer+size) is USM of `context` with clGetMemAllocInfoINTEL;
 * on success stores the allocation's kind. `what` names the argument in messages. */
USMARR_INTERNAL int usmarr__usm_check_range(usmarr_context_t *context, const void *pointer, size_t size,
                                            const char *what, usmarr_usm_kind_t *kind);

#endif
