/* USM memory blocks: allocation, foreign wrapping, copies and fills. */
#include "core_internal.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

const char *usmarr_usm_kind_name(usmarr_usm_kind_t kind) { return usmarr__usm_kind_word(kind); }

int usmarr__usm_kind_offered(const usmarr_context_t *ctx, usmarr_usm_kind_t kind)
{
    const usmarr_device_info_t *in = &ctx->info;
    uint64_t caps = kind == USMARR_USM_HOST     ? in->host_mem_caps
                    : kind == USMARR_USM_SHARED ? in->single_device_shared_caps
                                                : in->device_mem_caps;
    if (caps & CL_UNIFIED_SHARED_MEMORY_ACCESS_INTEL)
        return 0;
    return usmarr__fail(USMARR_ERROR_UNSUPPORTED, "kind=%s: device \"%s\" offers no %s USM: %s is 0x%llx%s",
                        usmarr_usm_kind_name(kind), in->device_name, usmarr_usm_kind_name(kind),
                        kind == USMARR_USM_HOST     ? "CL_DEVICE_HOST_MEM_CAPABILITIES_INTEL"
                        : kind == USMARR_USM_SHARED ? "CL_DEVICE_SINGLE_DEVICE_SHARED_MEM_CAPABILITIES_INTEL"
                                                    : "CL_DEVICE_DEVICE_MEM_CAPABILITIES_INTEL",
                        (unsigned long long)caps, in->kinds_limited ? " (USMARR_USM_KINDS hides it)" : "");
}

int usmarr__memory_new(usmarr_context_t *context, usmarr_usm_kind_t kind, usmarr_memory_t **out)
{
    usmarr_memory_t *m = calloc(1, sizeof *m);
    if (!m)
        return usmarr__fail(USMARR_ERROR_OUT_OF_HOST_MEMORY, "memory block");
    usmarr__ref_init(&m->refcount);
    m->context = usmarr_context_retain(context);
    m->kind = kind;
    usmarr_queue_t *q = usmarr__current_queue;
    if (q && q->context == context) { /* written first on the thread's current queue */
        usmarr__queue_ref(q);
        atomic_init(&m->queue, q);
    }
    *out = m;
    return 0;
}

int usmarr__check_memory_args(const usmarr_context_t *context, usmarr_usm_kind_t kind, usmarr_memory_t *const *memory)
{
    if (!context || !memory)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s is NULL", !context ? "context" : "memory");
    if (kind != USMARR_USM_DEVICE && kind != USMARR_USM_SHARED && kind != USMARR_USM_HOST)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "kind=%d is not device (1), shared (2) or host (3)",
                            (int)kind);
    return 0;
}

/* The whole pages inside [begin, end), or false when there are none. */
bool usmarr__inner_pages(void *begin, void *end, uintptr_t *first, uintptr_t *last)
{
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    *first = ((uintptr_t)begin + page - 1) / page * page;
    *last = (uintptr_t)end / page * page;
    return *last > *first;
}

void usmarr__advise_huge_pages(usmarr_context_t *context, void *pointer, size_t size)
{
    uintptr_t first, last;
    const char *off = getenv("USMARR_HUGE_PAGES");
    if ((context->info.type & CL_DEVICE_TYPE_CPU) && pointer && size >= ((size_t)4 << 20) && !(off && !strcmp(off, "0")) &&
        usmarr__inner_pages(pointer, (char *)pointer + size, &first, &last))
        (void)madvise((void *)first, last - first, MADV_HUGEPAGE);
}

int usmarr_memory_create(usmarr_context_t *context, usmarr_usm_kind_t kind, size_t size, size_t alignment,
                         usmarr_memory_t **memory)
{
    usmarr__clear_error();
    int rc = usmarr__check_memory_args(context, kind, memory);
    if (rc)
        return rc;
    if (alignment & (alignment - 1))
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "alignment=%zu is not a power of two", alignment);
    if (alignment > UINT32_MAX)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "alignment=%zu exceeds %u", alignment, UINT32_MAX);
    if ((rc = usmarr__usm_kind_offered(context, kind)))
        return rc;
    if (size > context->info.max_alloc_size)
        return usmarr__fail(USMARR_ERROR_ALLOCATION, "size=%zu bytes exceeds the device's maximum allocation of %llu "
                                                     "bytes (CL_DEVICE_MAX_MEM_ALLOC_SIZE)",
                            size, (unsigned long long)context->info.max_alloc_size);
    usmarr_memory_t *m;
    if ((rc = usmarr__memory_new(context, kind, &m)) != 0)
        return rc;
    m->size = size;
    usmarr__deferred_poll(context);
    if (size > 0) {
        m->pointer = usmarr__pool_take(context, kind, size, alignment);
        bool fresh = !m->pointer;
        rc = m->pointer ? 0 : usmarr__usm_alloc(context, kind, size, alignment, &m->pointer);
        if (rc == USMARR_ERROR_ALLOCATION) { /* pooled blocks and deferred frees hold the memory */
            bool pending = atomic_load(&context->pool.pending) > 0;
            usmarr__deferred_flush(context);
            if (usmarr__pool_drain(context) || pending)
                rc = usmarr__usm_alloc(context, kind, size, alignment, &m->pointer);
        }
        if (rc) {
            usmarr_queue_t *q = atomic_load(&m->queue);
            if (q)
                usmarr__queue_unref(q);
            usmarr__context_unref(context);
            free(m);
            return rc;
        }
        /* Huge pages for large blocks on CPU devices, as NumPy asks for its arrays: strided
         * and transposed walks then miss the TLB once per 2 MiB instead of once per page. */
        if (fresh)
            usmarr__advise_huge_pages(context, m->pointer, size);
    }
    *memory = m;
    return 0;
}

int usmarr_memory_wrap(usmarr_context_t *context, void *pointer, size_t size, usmarr_release_fn release,
                       void *user_data, usmarr_memory_t **memory)
{
    usmarr__clear_error();
    if (!context || !memory)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s is NULL", !context ? "context" : "memory");
    usmarr_usm_kind_t kind;
    int rc = usmarr__usm_check_range(context, pointer, size, "pointer", &kind);
    if (rc)
        return rc;
    usmarr_memory_t *m;
    rc = usmarr__memory_new(context, kind, &m);
    if (rc)
        return rc;
    m->pointer = pointer;
    m->size = size;
    m->foreign = true;
    m->release = release;
    m->user_data = user_data;
    *memory = m;
    return 0;
}

usmarr_memory_t *usmarr_memory_retain(usmarr_memory_t *memory) { return USMARR__RETAIN(memory); }

/* A foreign block's release, run once the work that reads it has completed. */
struct foreign_release {
    usmarr_context_t *context;
    usmarr_release_fn release;
    void *user_data;
};

static void foreign_release_run(void *pointer, void *data)
{
    struct foreign_release *f = data;
    if (f->release)
        f->release(pointer, f->user_data);
    atomic_fetch_add(&f->context->usm_frees, 1); /* the owner may have freed it */
    free(f);
}

void usmarr_memory_release(usmarr_memory_t *memory)
{
    if (!USMARR__RELEASE_LAST(memory))
        return;
    usmarr_context_t *ctx = memory->context;
    usmarr_queue_t *q = atomic_load(&memory->queue);
    cl_command_queue last = q ? q->cl : NULL;
    if (memory->foreign) {
        /* The owner frees: after our queued work is done with it, without waiting now. */
        struct foreign_release *f = malloc(sizeof *f);
        if (f) {
            *f = (struct foreign_release){ctx, memory->release, memory->user_data};
            usmarr__defer_release(ctx, last, foreign_release_run, memory->pointer, f);
        } else {
            clFinish(last ? last : ctx->queue);
            if (memory->release)
                memory->release(memory->pointer, memory->user_data);
            atomic_fetch_add(&ctx->usm_frees, 1);
        }
    } else if (memory->pointer &&
               !usmarr__pool_give(ctx, memory->kind, memory->pointer,
                                  memory->pod_state != USMARR_POD_NONE ? memory->pod_capacity : memory->size, last)) {
        /* a pod's allocation is its capacity; freed once the work that used it is done */
        usmarr__defer_release(ctx, last, usmarr__usm_free_deferred, memory->pointer, ctx);
    }
    if (q)
        usmarr__queue_unref(q);
    usmarr__deferred_poll(ctx);
    usmarr__context_unref(ctx);
    free(memory);
}

void *usmarr_memory_pointer(const usmarr_memory_t *memory) { return memory ? memory->pointer : NULL; }
size_t usmarr_memory_size(const usmarr_memory_t *memory) { return memory ? memory->size : 0; }
usmarr_usm_kind_t usmarr_memory_kind(const usmarr_memory_t *memory)
{
    return memory ? memory->kind : USMARR_USM_UNKNOWN;
}
usmarr_context_t *usmarr_memory_context(const usmarr_memory_t *memory) { return memory ? memory->context : NULL; }
int usmarr_memory_refcount(const usmarr_memory_t *memory)
{
    return USMARR__REFCOUNT(memory);
}

static int check_range(const usmarr_memory_t *m, const char *name, size_t offset, size_t size)
{
    if (offset > m->size || size > m->size - offset)
        return usmarr__fail(USMARR_ERROR_OUT_OF_BOUNDS, "%s range [%zu, %zu + %zu) exceeds the block's %zu bytes",
                            name, offset, offset, size, m->size);
    return 0;
}

/* A copy on the calling thread's queue; `blocking` when the host reads or writes one side
 * (its buffer is the caller's again when the call returns). */
static int queued_copy(usmarr_context_t *ctx, void *dst, const void *src, size_t size, bool blocking)
{
    if (size == 0)
        return 0;
    mtx_lock(&ctx->queue_lock);
    cl_int err = ctx->usm.memcpy(usmarr__queue_of(ctx), blocking ? CL_TRUE : CL_FALSE, dst, src, size, 0, NULL, NULL);
    mtx_unlock(&ctx->queue_lock);
    return err == CL_SUCCESS ? 0 : usmarr__cl_fail(err, "clEnqueueMemcpyINTEL");
}

int usmarr_memory_copy_from_host(usmarr_memory_t *memory, size_t offset, const void *source, size_t size)
{
    usmarr__clear_error();
    if (!memory || (!source && size))
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s is NULL", !memory ? "memory" : "source");
    int rc = check_range(memory, "destination", offset, size);
    return rc ? rc : queued_copy(memory->context, (char *)memory->pointer + offset, source, size, true);
}

int usmarr_memory_copy_to_host(usmarr_memory_t *memory, size_t offset, void *destination, size_t size)
{
    usmarr__clear_error();
    if (!memory || (!destination && size))
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s is NULL", !memory ? "memory" : "destination");
    int rc = check_range(memory, "source", offset, size);
    return rc ? rc : queued_copy(memory->context, destination, (char *)memory->pointer + offset, size, true);
}

int usmarr_memory_copy(usmarr_memory_t *destination, size_t destination_offset, usmarr_memory_t *source,
                       size_t source_offset, size_t size)
{
    usmarr__clear_error();
    if (!destination || !source)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s is NULL", !destination ? "destination" : "source");
    if (destination->context->cl != source->context->cl)
        return usmarr__fail(USMARR_ERROR_CONTEXT_MISMATCH, "destination and source blocks belong to different "
                                                           "OpenCL contexts");
    int rc = check_range(destination, "destination", destination_offset, size);
    if (!rc)
        rc = check_range(source, "source", source_offset, size);
    if (rc)
        return rc;
    if (destination->pointer == source->pointer && size &&
        (destination_offset < source_offset + size && source_offset < destination_offset + size))
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT,
                            "source [%zu, +%zu) and destination [%zu, +%zu) overlap in one block", source_offset, size,
                            destination_offset, size);
    /* Between device blocks nothing on the host can see the copy: it is only enqueued. */
    bool device = destination->kind == USMARR_USM_DEVICE && source->kind == USMARR_USM_DEVICE;
    return queued_copy(destination->context, (char *)destination->pointer + destination_offset,
                       (char *)source->pointer + source_offset, size, !device);
}

/* Intel's CPU runtime fills with a pattern wider than one byte at about 0.6 GB/s (32 MiB:
 * 48-57 ms whatever the width from 2 to 128 bytes, against 1.2 ms with one byte).  There a
 * longer fill with a wide pattern fills its first FILL_SEED bytes, then copies of what is
 * filled double it to the end (in queue order: each copy reads what the ones before wrote;
 * 9 copies for 32 MiB).  A pattern of one repeated byte (zeros) takes the one-byte fill. */
#define FILL_SEED ((size_t)64 << 10)
static bool wide_fill_is_slow(const usmarr_context_t *ctx)
{
    return (ctx->info.type & CL_DEVICE_TYPE_CPU) && strstr(ctx->info.platform_name, "Intel");
}

static cl_int enqueue_fill(usmarr_context_t *ctx, char *base, const void *pattern, size_t pattern_size, size_t size)
{
    cl_command_queue q = usmarr__queue_of(ctx);
    const unsigned char *bytes = pattern;
    size_t same = 1; /* a pattern of one byte repeated (zeros) is filled as that byte */
    while (same < pattern_size && bytes[same] == bytes[0])
        same++;
    if (same == pattern_size)
        pattern_size = 1;
    if (pattern_size == 1 || size <= FILL_SEED || !wide_fill_is_slow(ctx))
        return ctx->usm.memfill(q, base, pattern, pattern_size, size, 0, NULL, NULL);
    cl_int err = ctx->usm.memfill(q, base, pattern, pattern_size, FILL_SEED, 0, NULL, NULL);
    for (size_t have = FILL_SEED; err == CL_SUCCESS && have < size; have *= 2)
        err = ctx->usm.memcpy(q, CL_FALSE, base + have, base, have < size - have ? have : size - have, 0, NULL, NULL);
    return err;
}

int usmarr_memory_fill(usmarr_memory_t *memory, size_t offset, const void *pattern, size_t pattern_size, size_t size)
{
    usmarr__clear_error();
    if (!memory || !pattern)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s is NULL", !memory ? "memory" : "pattern");
    if (pattern_size == 0 || pattern_size > 128 || (pattern_size & (pattern_size - 1)))
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "pattern_size=%zu is not a power of two in [1, 128]",
                            pattern_size);
    if (offset % pattern_size || size % pattern_size)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "offset=%zu and size=%zu must be multiples of "
                                                           "pattern_size=%zu",
                            offset, size, pattern_size);
    int rc = check_range(memory, "fill", offset, size);
    if (rc || size == 0)
        return rc;
    usmarr_context_t *ctx = memory->context;
    mtx_lock(&ctx->queue_lock);
    cl_int err = enqueue_fill(ctx, (char *)memory->pointer + offset, pattern, pattern_size, size);
    /* The pattern is copied at enqueue; only a block the host can read is waited for. */
    if (err == CL_SUCCESS && memory->kind != USMARR_USM_DEVICE)
        err = clFinish(usmarr__queue_of(ctx));
    mtx_unlock(&ctx->queue_lock);
    return err == CL_SUCCESS ? 0 : usmarr__cl_fail(err, "clEnqueueMemFillINTEL");
}
