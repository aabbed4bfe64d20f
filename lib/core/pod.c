/* The pod allocator on USM memory blocks (doc/glossary.md): allocate, resize, finalize.
 *
 * A pod block keeps one USM allocation of `pod_capacity` bytes at `pointer`; `size` is the
 * end of the most recent allocation.  Growing moves everything to a bigger allocation
 * (USM cannot grow in place), which is why allocations are byte offsets, not pointers. */
#include "core_internal.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* PoCL 6.0 ignores USM alignments above 128 bytes (checked: 256 is missed 7 times in 20). */
#define POD_MAX_ALIGNMENT 128
#define POD_MIN_CAPACITY 256

/* On a CPU device every kind of USM is this process's virtual memory: pages cost nothing
 * until touched, and can be handed back without moving anything. */
static bool host_backed(const usmarr_memory_t *m) { return (m->context->info.type & CL_DEVICE_TYPE_CPU) != 0; }

static void advise_huge(usmarr_memory_t *m) { usmarr__advise_huge_pages(m->context, m->pointer, m->pod_capacity); }

/* A new allocation of `capacity` bytes holding the first `keep` bytes of the old one. */
static int move_to(usmarr_memory_t *m, size_t capacity, size_t alignment, size_t keep)
{
    usmarr_context_t *ctx = m->context;
    if (capacity > ctx->info.max_alloc_size)
        return usmarr__fail(USMARR_ERROR_ALLOCATION,
                            "pod block needs %zu bytes, beyond the device's maximum allocation of %llu bytes "
                            "(CL_DEVICE_MAX_MEM_ALLOC_SIZE)",
                            capacity, (unsigned long long)ctx->info.max_alloc_size);
    /* Device blocks come from and go back to the context's pool, as ordinary blocks do: a
     * GPU's allocation and free cost milliseconds for tens of MiB (NVIDIA's clSVMAlloc,
     * clSVMFree), far more than the kernels that fill a pod (extract, unique). */
    void *fresh = capacity > 0 ? usmarr__pool_take(ctx, m->kind, capacity, alignment) : NULL;
    if (capacity > 0 && !fresh) {
        int rc = usmarr__usm_alloc(ctx, m->kind, capacity, alignment, &fresh);
        if (rc)
            return rc;
    }
    if (keep > 0) {
        mtx_lock(&ctx->queue_lock);
        /* device to device: the old block is reused or freed after this copy, in queue order */
        cl_int err = ctx->usm.memcpy(usmarr__queue_of(ctx), CL_FALSE, fresh, m->pointer, keep, 0, NULL, NULL);
        mtx_unlock(&ctx->queue_lock);
        if (err != CL_SUCCESS) {
            usmarr__usm_free(ctx, fresh);
            return usmarr__cl_fail(err, "clEnqueueMemcpyINTEL (moving a pod block)");
        }
    }
    cl_command_queue queue = usmarr__queue_of(ctx);
    if (m->pointer && !usmarr__pool_give(ctx, m->kind, m->pointer, m->pod_capacity, queue))
        usmarr__defer_release(ctx, queue, usmarr__usm_free_deferred, m->pointer, ctx);
    m->pointer = fresh;
    m->pod_capacity = capacity;
    m->pod_alignment = alignment;
    advise_huge(m);
    return 0;
}

/* Makes room for `end` bytes whose last allocation starts `alignment`-aligned. */
static int reserve(usmarr_memory_t *m, size_t end, size_t alignment)
{
    size_t base_alignment = alignment > m->pod_alignment ? alignment : m->pod_alignment;
    bool misaligned = m->pointer && ((uintptr_t)m->pointer % base_alignment) != 0;
    if (end <= m->pod_capacity && !misaligned)
        return 0;
    size_t capacity = m->pod_capacity < POD_MIN_CAPACITY ? POD_MIN_CAPACITY : m->pod_capacity;
    while (capacity < end)
        capacity = capacity > SIZE_MAX / 2 ? end : capacity * 2;
    if (capacity > m->context->info.max_alloc_size && end <= m->context->info.max_alloc_size)
        capacity = (size_t)m->context->info.max_alloc_size; /* doubling overshot; the exact need fits */
    return move_to(m, capacity, base_alignment, m->size);
}

static int check_pod(usmarr_memory_t *m, const char *call)
{
    if (!m)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s: memory is NULL", call);
    if (m->pod_state == USMARR_POD_NONE)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT,
                            "%s: the block is not a pod block (make it with usmarr_memory_create_pod)", call);
    if (m->pod_state == USMARR_POD_FINALIZED)
        return usmarr__fail(USMARR_ERROR_BAD_STATE, "%s: the pod block is finalized; it accepts no more changes",
                            call);
    int refs = atomic_load_explicit(&m->refcount, memory_order_acquire);
    if (refs != 1)
        return usmarr__fail(USMARR_ERROR_BAD_STATE,
                            "%s: the unfinished pod block is shared (refcount %d, must be 1): moving it could cut "
                            "under an array made over it",
                            call, refs);
    return 0;
}

/* check_pod, and the range arguments of allocate and resize given. */
static int check_pod_range(usmarr_memory_t *m, const char *call, const size_t *begin, const char *begin_name,
                           const size_t *end, const char *end_name)
{
    int rc = check_pod(m, call);
    if (!rc && (!begin || !end))
        rc = usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s: %s is NULL", call, !begin ? begin_name : end_name);
    return rc;
}

int usmarr_memory_create_pod(usmarr_context_t *context, usmarr_usm_kind_t kind, size_t capacity,
                             usmarr_memory_t **memory)
{
    usmarr__clear_error();
    usmarr_memory_t *m;
    int rc = usmarr__check_memory_args(context, kind, memory);
    if (!rc)
        rc = usmarr__usm_kind_offered(context, kind);
    if (!rc)
        rc = usmarr__memory_new(context, kind, &m);
    if (rc)
        return rc;
    m->pod_state = USMARR_POD_BUILDING;
    m->pod_alignment = 1;
    rc = capacity ? move_to(m, capacity, 1, 0) : 0;
    if (rc) {
        usmarr__context_unref(context);
        free(m);
        return rc;
    }
    *memory = m;
    return 0;
}

int usmarr_memory_pod_allocate(usmarr_memory_t *memory, size_t size_bytes, size_t alignment, size_t *out_begin,
                               size_t *out_end)
{
    usmarr__clear_error();
    int rc = check_pod_range(memory, "pod allocate", out_begin, "out_begin", out_end, "out_end");
    if (rc)
        return rc;
    if (alignment == 0)
        alignment = 1;
    if ((alignment & (alignment - 1)) || alignment > POD_MAX_ALIGNMENT)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "alignment=%zu is not a power of two up to %d", alignment,
                            POD_MAX_ALIGNMENT);
    size_t begin = (memory->size + alignment - 1) / alignment * alignment;
    if (begin < memory->size || size_bytes > SIZE_MAX - begin)
        return usmarr__fail(USMARR_ERROR_OVERFLOW, "pod allocate: %zu bytes at offset %zu overflow size_t", size_bytes,
                            memory->size);
    rc = reserve(memory, begin + size_bytes, alignment);
    if (rc)
        return rc;
    memory->pod_last_begin = begin;
    memory->size = begin + size_bytes;
    *out_begin = begin;
    *out_end = begin + size_bytes;
    return 0;
}

int usmarr_memory_pod_resize(usmarr_memory_t *memory, size_t size_bytes, size_t *inout_begin, size_t *inout_end)
{
    usmarr__clear_error();
    int rc = check_pod_range(memory, "pod resize", inout_begin, "inout_begin", inout_end, "inout_end");
    if (rc)
        return rc;
    if (*inout_begin != memory->pod_last_begin || *inout_end != memory->size)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT,
                            "pod resize: [begin=%zu, end=%zu) is not the most recent allocation [%zu, %zu)",
                            *inout_begin, *inout_end, memory->pod_last_begin, memory->size);
    size_t begin = *inout_begin;
    if (size_bytes > SIZE_MAX - begin)
        return usmarr__fail(USMARR_ERROR_OVERFLOW, "pod resize: %zu bytes at offset %zu overflow size_t", size_bytes,
                            begin);
    rc = reserve(memory, begin + size_bytes, 1);
    if (rc)
        return rc;
    memory->size = begin + size_bytes;
    *inout_end = memory->size;
    return 0;
}

int usmarr_memory_pod_finalize(usmarr_memory_t *memory)
{
    usmarr__clear_error();
    int rc = check_pod(memory, "pod finalize");
    if (rc)
        return rc;
    const char *how = getenv("USMARR_POD_TRIM"); /* "move" forces the device path (tests) */
    if (memory->size < memory->pod_capacity && host_backed(memory) && !(how && !strcmp(how, "move"))) {
        /* Hand the slack's whole pages back to the system: no copy, no new allocation.
         * The pages are this allocation's own; a later touch would read zeros. */
        uintptr_t first, last;
        if (memory->pointer && usmarr__inner_pages((char *)memory->pointer + memory->size,
                                           (char *)memory->pointer + memory->pod_capacity, &first, &last))
            (void)madvise((void *)first, last - first, MADV_DONTNEED);
    } else if (memory->size < memory->pod_capacity) {
        /* Best effort, like realloc: a failed trim keeps the larger allocation. */
        if (move_to(memory, memory->size, memory->pod_alignment, memory->size))
            usmarr__clear_error();
    }
    memory->pod_state = USMARR_POD_FINALIZED;
    return 0;
}

static int api_allocate(usmarr_memory_t *self, size_t size_bytes, size_t alignment, size_t *out_begin,
                        size_t *out_end)
{
    return usmarr_memory_pod_allocate(self, size_bytes, alignment, out_begin, out_end);
}
static int api_resize(usmarr_memory_t *self, size_t size_bytes, size_t *inout_begin, size_t *inout_end)
{
    return usmarr_memory_pod_resize(self, size_bytes, inout_begin, inout_end);
}
static int api_finalize(usmarr_memory_t *self) { return usmarr_memory_pod_finalize(self); }

static const usmarr_pod_allocator_api_t pod_api = {api_allocate, api_resize, api_finalize};

const usmarr_pod_allocator_api_t *usmarr_memory_pod_allocator_api(const usmarr_memory_t *memory)
{
    usmarr__clear_error();
    if (!memory) {
        usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "memory is NULL");
        return NULL;
    }
    if (memory->pod_state == USMARR_POD_NONE) {
        usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "the block is not a pod block");
        return NULL;
    }
    return &pod_api;
}

usmarr_pod_state_t usmarr_memory_pod_state(const usmarr_memory_t *memory)
{
    return memory ? memory->pod_state : USMARR_POD_NONE;
}
