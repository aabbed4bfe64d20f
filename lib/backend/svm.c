/* The SVM backend (doc/backend.md, "The SVM backend"): the library's USM entry-point
 * table implemented with OpenCL 2.0 shared virtual memory, for devices that lack
 * cl_intel_unified_shared_memory but offer coarse-grained buffer SVM (NVIDIA's and AMD's
 * OpenCL), or for any device with USMARR_USM_BACKEND=svm.
 *
 * Device USM is a coarse-grained SVM buffer (clSVMAlloc), shared USM a fine-grained one
 * where the device has fine-grained buffer SVM; host USM does not exist (the device's
 * host capability reads 0, and the memory layer refuses it before calling here).  SVM
 * has no allocation query, so the backend keeps its own table of the allocations of each
 * cl_context (sorted by address) and answers clGetMemAllocInfoINTEL's questions from it:
 * foreign-pointer imports validate against it as they do against the driver.  SVM has no
 * blocking free either: the table also knows the queues of the library's contexts on each
 * cl_context, and a blocking free finishes them before clSVMFree.
 *
 * The entry points are plain function pointers (the extension's signatures), so the
 * per-cl_context state lives in one process-wide list under one mutex. */
#include "backend_internal.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct svm_range {
    char *base;  /* what the library sees */
    void *alloc; /* what clSVMAlloc returned (below base when over-allocated for alignment) */
    size_t size;
    cl_unified_shared_memory_type_intel type;
    cl_device_id device;
};

struct svm_space { /* one per cl_context with library contexts on it */
    cl_context cl;
    cl_command_queue *queues; /* the queues of its library contexts, one each (finished
                               * before a blocking free) */
    size_t nqueues, queue_capacity;
    struct svm_range *ranges; /* sorted by base */
    size_t count, capacity;
    struct svm_space *next;
};

/* A statically initialised lock: the table exists before any context does. */
static pthread_mutex_t svm_lock = PTHREAD_MUTEX_INITIALIZER;
static struct svm_space *spaces;

static struct svm_space *space_of(cl_context cl)
{
    for (struct svm_space *s = spaces; s; s = s->next)
        if (s->cl == cl)
            return s;
    return NULL;
}

/* Index of the first range whose base is > p. Called with the lock held. */
static size_t upper_bound(const struct svm_space *s, const char *p)
{
    size_t lo = 0, hi = s->count;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (s->ranges[mid].base <= p)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The range holding p, or NULL. Called with the lock held. */
static struct svm_range *range_of(struct svm_space *s, const void *p)
{
    size_t i = s ? upper_bound(s, p) : 0;
    if (i == 0)
        return NULL;
    struct svm_range *r = &s->ranges[i - 1];
    return (const char *)p < r->base + (r->size ? r->size : 1) ? r : NULL;
}

/* clSVMAlloc takes alignments up to the largest data type (128 bytes, a long16); larger
 * ones, which the USM entry points take, are made by over-allocating. */
#define SVM_MAX_ALIGN 128

static void *svm_alloc(cl_context cl, cl_device_id device, size_t size, cl_uint alignment, bool fine, cl_int *err)
{
    cl_svm_mem_flags flags = CL_MEM_READ_WRITE | (fine ? CL_MEM_SVM_FINE_GRAIN_BUFFER : 0);
    size_t extra = alignment > SVM_MAX_ALIGN ? alignment - SVM_MAX_ALIGN : 0;
    void *alloc = size + extra >= size ? clSVMAlloc(cl, flags, size + extra, extra ? SVM_MAX_ALIGN : alignment) : NULL;
    if (!alloc) {
        if (err)
            *err = CL_OUT_OF_RESOURCES;
        return NULL;
    }
    char *p = alloc;
    if (extra)
        p += (alignment - (uintptr_t)p % alignment) % alignment;
    pthread_mutex_lock(&svm_lock);
    struct svm_space *s = space_of(cl);
    cl_int rc = CL_SUCCESS;
    if (!s) {
        rc = CL_INVALID_CONTEXT; /* no library context registered this cl_context */
    } else if (s->count == s->capacity) {
        size_t cap = s->capacity ? s->capacity * 2 : 64;
        struct svm_range *grown = realloc(s->ranges, cap * sizeof *grown);
        if (grown) {
            s->ranges = grown;
            s->capacity = cap;
        } else {
            rc = CL_OUT_OF_HOST_MEMORY;
        }
    }
    if (rc == CL_SUCCESS) {
        size_t i = upper_bound(s, p);
        memmove(&s->ranges[i + 1], &s->ranges[i], (s->count - i) * sizeof s->ranges[0]);
        s->ranges[i] =
            (struct svm_range){p, alloc, size, fine ? CL_MEM_TYPE_SHARED_INTEL : CL_MEM_TYPE_DEVICE_INTEL, device};
        s->count++;
    }
    pthread_mutex_unlock(&svm_lock);
    if (rc != CL_SUCCESS) {
        clSVMFree(cl, alloc);
        p = NULL;
    }
    if (err)
        *err = rc;
    return p;
}

static void *CL_API_CALL svm_host_alloc(cl_context cl, const cl_mem_properties_intel *props, size_t size,
                                        cl_uint alignment, cl_int *err)
{
    (void)cl, (void)props, (void)size, (void)alignment;
    if (err)
        *err = CL_INVALID_OPERATION; /* SVM has no host-only kind */
    return NULL;
}

static void *CL_API_CALL svm_device_alloc(cl_context cl, cl_device_id device, const cl_mem_properties_intel *props,
                                          size_t size, cl_uint alignment, cl_int *err)
{
    (void)props;
    return svm_alloc(cl, device, size, alignment, false, err);
}

static void *CL_API_CALL svm_shared_alloc(cl_context cl, cl_device_id device, const cl_mem_properties_intel *props,
                                          size_t size, cl_uint alignment, cl_int *err)
{
    (void)props;
    return svm_alloc(cl, device, size, alignment, true, err);
}

/* Drops p's range and frees it, after finishing the space's queues when `blocking`. */
static cl_int svm_release(cl_context cl, void *p, bool blocking)
{
    pthread_mutex_lock(&svm_lock);
    struct svm_space *s = space_of(cl);
    struct svm_range *r = range_of(s, p);
    if (!r || r->base != p) {
        pthread_mutex_unlock(&svm_lock);
        return CL_INVALID_VALUE;
    }
    void *alloc = r->alloc;
    size_t i = (size_t)(r - s->ranges);
    memmove(r, r + 1, (s->count - i - 1) * sizeof *r);
    s->count--;
    /* Finish the queues outside the lock (other threads allocate meanwhile), each held by
     * a reference of its own so that a context released meanwhile cannot free it.  Should
     * the copy of the list fail for want of memory, finishing under the lock is still right. */
    size_t n = blocking ? s->nqueues : 0;
    cl_command_queue few[8], *queues = n <= 8 ? few : malloc(n * sizeof *queues);
    if (!queues) {
        for (size_t q = 0; q < n; q++)
            clFinish(s->queues[q]);
        n = 0;
        queues = few;
    }
    for (size_t q = 0; q < n; q++)
        clRetainCommandQueue(queues[q] = s->queues[q]);
    pthread_mutex_unlock(&svm_lock);
    for (size_t q = 0; q < n; q++) {
        clFinish(queues[q]);
        clReleaseCommandQueue(queues[q]);
    }
    if (queues != few)
        free(queues);
    clSVMFree(cl, alloc);
    return CL_SUCCESS;
}

static cl_int CL_API_CALL svm_free(cl_context cl, void *p) { return svm_release(cl, p, false); }
static cl_int CL_API_CALL svm_blocking_free(cl_context cl, void *p) { return svm_release(cl, p, true); }

static cl_int CL_API_CALL svm_alloc_info(cl_context cl, const void *p, cl_mem_info_intel what, size_t size,
                                         void *value, size_t *size_ret)
{
    pthread_mutex_lock(&svm_lock);
    struct svm_range *r = range_of(space_of(cl), p);
    struct svm_range copy = r ? *r : (struct svm_range){NULL, NULL, 0, CL_MEM_TYPE_UNKNOWN_INTEL, NULL};
    pthread_mutex_unlock(&svm_lock);
    const void *field; /* the range's field that answers `what` */
    size_t n;
    switch (what) {
    case CL_MEM_ALLOC_TYPE_INTEL: field = &copy.type, n = sizeof copy.type; break;
    case CL_MEM_ALLOC_BASE_PTR_INTEL: field = &copy.base, n = sizeof copy.base; break;
    case CL_MEM_ALLOC_SIZE_INTEL: field = &copy.size, n = sizeof copy.size; break;
    case CL_MEM_ALLOC_DEVICE_INTEL: field = &copy.device, n = sizeof copy.device; break;
    default: return CL_INVALID_VALUE;
    }
    if (size_ret)
        *size_ret = n;
    if (value) {
        if (size < n)
            return CL_INVALID_VALUE;
        memcpy(value, field, n);
    }
    return CL_SUCCESS;
}

static cl_int CL_API_CALL svm_migrate(cl_command_queue q, const void *p, size_t size, cl_mem_migration_flags flags,
                                      cl_uint nwait, const cl_event *wait, cl_event *event)
{
    (void)p, (void)size, (void)flags; /* a hint: nothing to move for SVM buffers */
    return clEnqueueMarkerWithWaitList(q, nwait, wait, event);
}

/* As strict as NVIDIA's OpenCL, which takes a NULL SVM pointer here and then refuses the
 * enqueue with CL_INVALID_KERNEL_ARGS (PoCL runs the kernel): refused at once, with that
 * code, so that the SVM mode of the tests catches what NVIDIA would.  (An argument left
 * unset fails at enqueue with the same code on every driver at hand.) */
static cl_int CL_API_CALL svm_set_kernel_arg_pointer(cl_kernel kernel, cl_uint index, const void *pointer)
{
    return pointer ? clSetKernelArgSVMPointer(kernel, index, pointer) : CL_INVALID_KERNEL_ARGS;
}

void usmarr__svm_api_load(struct usmarr__usm_api *api)
{
    static const struct usmarr__usm_api svm = {
        .host_alloc = svm_host_alloc,
        .device_alloc = svm_device_alloc,
        .shared_alloc = svm_shared_alloc,
        .free = svm_free,
        .blocking_free = svm_blocking_free,
        .alloc_info = svm_alloc_info,
        .set_kernel_arg_pointer = svm_set_kernel_arg_pointer,
        .memcpy = clEnqueueSVMMemcpy,
        .memfill = clEnqueueSVMMemFill,
        .migrate = svm_migrate,
    };
    *api = svm;
}

int usmarr__svm_register(cl_context cl, cl_command_queue queue)
{
    pthread_mutex_lock(&svm_lock);
    struct svm_space *s = space_of(cl);
    if (!s && (s = calloc(1, sizeof *s)) != NULL) {
        s->cl = cl;
        s->next = spaces;
        spaces = s;
    }
    int rc = -1;
    if (s && s->nqueues == s->queue_capacity) {
        size_t cap = s->queue_capacity ? s->queue_capacity * 2 : 4;
        cl_command_queue *grown = realloc(s->queues, cap * sizeof *grown);
        if (grown) {
            s->queues = grown;
            s->queue_capacity = cap;
        }
    }
    if (s && s->nqueues < s->queue_capacity) {
        s->queues[s->nqueues++] = queue;
        rc = 0;
    } else if (s && s->nqueues == 0) { /* a space made for nothing: drop it */
        spaces = s->next;
        free(s);
    }
    pthread_mutex_unlock(&svm_lock);
    return rc;
}

void usmarr__svm_unregister(cl_context cl, cl_command_queue queue)
{
    pthread_mutex_lock(&svm_lock);
    struct svm_space **link = &spaces;
    while (*link && (*link)->cl != cl)
        link = &(*link)->next;
    struct svm_space *s = *link;
    if (s) {
        for (size_t q = 0; q < s->nqueues; q++)
            if (s->queues[q] == queue) {
                s->queues[q] = s->queues[--s->nqueues];
                break;
            }
        if (s->nqueues == 0) { /* the last library context on it: its blocks are all freed */
            *link = s->next;
            free(s->ranges);
            free(s->queues);
            free(s);
        }
    }
    pthread_mutex_unlock(&svm_lock);
}
