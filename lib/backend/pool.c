/* The per-context pool of released device-USM blocks (doc/backend.md, "The block pool").
 *
 * A fresh device allocation costs its first touch on CPU devices (a 64 MiB result of a
 * 16M float32 add spends ~20-40 ms in page faults, five times the add itself) and a
 * blocking free costs a queue drain.  A released ordinary device block of the context is
 * therefore kept, up to a byte limit, and handed to the next usmarr_memory_create() of the
 * same kind, size and a compatible alignment, as CuPy's and PyTorch's pools do.
 *
 * Safe without waiting: every use of a block goes through in-order queues and device USM
 * is never dereferenced on the host.  A block remembers the queue that last used it; the
 * next owner on the same queue runs after the previous one's work, and a take on another
 * queue first makes that queue wait for a marker of the block's (doc/async.md).  Host and
 * shared blocks are never pooled (their owners read them on the host at any time).
 * Blocks leave the pool oldest first
 * when the limit is reached (freed once the work before a marker of their queue has
 * completed), all of them when an allocation fails (then it is retried) and
 * when the context is released. */
#include "backend_internal.h"

#include <stdlib.h>
#include <string.h>

/* The default limit: an eighth of the device's global memory, at most 1 GiB.
 * USMARR_POOL_BYTES=<n> sets another (0 turns the pool off). */
static size_t pool_limit(const usmarr_context_t *ctx)
{
    const char *env = getenv("USMARR_POOL_BYTES");
    if (env && *env) {
        char *end;
        unsigned long long v = strtoull(env, &end, 10);
        if (*end == '\0')
            return (size_t)v;
    }
    uint64_t limit = ctx->info.global_mem_size / 8;
    return (size_t)(limit < (1ull << 30) ? limit : (1ull << 30));
}

int usmarr__pool_init(usmarr_context_t *ctx)
{
    struct usmarr__pool *pool = &ctx->pool;
    memset(pool, 0, sizeof *pool);
    pool->limit = pool_limit(ctx);
    return mtx_init(&pool->lock, mtx_plain) == thrd_success ? 0 : -1;
}

/* Frees blocks[first, first + count) and closes the gap (blocking frees: an allocation
 * failed or the context goes). Called with the lock held. */
static void pool_drop(usmarr_context_t *ctx, int first, int count)
{
    struct usmarr__pool *pool = &ctx->pool;
    for (int i = first; i < first + count; i++) {
        /* The driver's blocking free does not see launches that took the block's address
         * by value (usmarr__usm_free covers the context's own queue): finish its queue. */
        if (pool->blocks[i].queue)
            clFinish(pool->blocks[i].queue);
        usmarr__usm_free(ctx, pool->blocks[i].pointer);
        if (pool->blocks[i].queue)
            clReleaseCommandQueue(pool->blocks[i].queue);
        pool->bytes -= pool->blocks[i].size;
    }
    memmove(&pool->blocks[first], &pool->blocks[first + count],
            (size_t)(pool->count - first - count) * sizeof pool->blocks[0]);
    pool->count -= count;
}

void *usmarr__pool_take(usmarr_context_t *ctx, usmarr_usm_kind_t kind, size_t size, size_t alignment)
{
    struct usmarr__pool *pool = &ctx->pool;
    if (kind != USMARR_USM_DEVICE || pool->limit == 0)
        return NULL;
    struct usmarr__pool_block found = {NULL, 0, NULL};
    mtx_lock(&pool->lock);
    for (int i = pool->count - 1; i >= 0; i--) { /* newest first: its pages are warmest */
        struct usmarr__pool_block *b = &pool->blocks[i];
        if (b->size == size && (!alignment || (uintptr_t)b->pointer % alignment == 0)) {
            found = *b;
            pool->bytes -= b->size;
            memmove(b, b + 1, (size_t)(pool->count - i - 1) * sizeof *b);
            pool->count--;
            break;
        }
    }
    mtx_unlock(&pool->lock);
    cl_command_queue last = found.queue ? found.queue : ctx->queue, taker = usmarr__queue_of(ctx);
    if (found.pointer && last != taker) {
        mtx_lock(&ctx->queue_lock);
        if (usmarr__queue_order_locked(last, taker))
            clFinish(last); /* could not order the queues: wait instead */
        mtx_unlock(&ctx->queue_lock);
    }
    if (found.queue)
        clReleaseCommandQueue(found.queue);
    return found.pointer;
}

bool usmarr__pool_give(usmarr_context_t *ctx, usmarr_usm_kind_t kind, void *pointer, size_t size,
                       cl_command_queue queue)
{
    struct usmarr__pool *pool = &ctx->pool;
    if (kind != USMARR_USM_DEVICE || size == 0 || size > pool->limit)
        return false;
    if (queue == ctx->queue)
        queue = NULL;
    if (queue)
        clRetainCommandQueue(queue);
    struct usmarr__pool_block evicted[USMARR__POOL_BLOCKS];
    mtx_lock(&pool->lock);
    int evict = 0;
    size_t bytes = pool->bytes;
    while (evict < pool->count && (bytes + size > pool->limit || pool->count - evict >= USMARR__POOL_BLOCKS))
        bytes -= pool->blocks[evict++].size;
    if (evict) {
        memcpy(evicted, pool->blocks, (size_t)evict * sizeof evicted[0]);
        memmove(&pool->blocks[0], &pool->blocks[evict], (size_t)(pool->count - evict) * sizeof pool->blocks[0]);
        pool->count -= evict;
        pool->bytes = bytes;
    }
    pool->blocks[pool->count++] = (struct usmarr__pool_block){pointer, size, queue};
    pool->bytes += size;
    mtx_unlock(&pool->lock);
    for (int i = 0; i < evict; i++) { /* freed once the work that used them has completed */
        usmarr__defer_release(ctx, evicted[i].queue, usmarr__usm_free_deferred, evicted[i].pointer, ctx);
        if (evicted[i].queue)
            clReleaseCommandQueue(evicted[i].queue);
    }
    return true;
}

bool usmarr__pool_drain(usmarr_context_t *ctx)
{
    struct usmarr__pool *pool = &ctx->pool;
    mtx_lock(&pool->lock);
    bool any = pool->count > 0;
    pool_drop(ctx, 0, pool->count);
    mtx_unlock(&pool->lock);
    return any;
}

void usmarr__pool_destroy(usmarr_context_t *ctx)
{
    usmarr__deferred_flush(ctx);
    free(ctx->pool.deferred);
    usmarr__pool_drain(ctx);
    mtx_destroy(&ctx->pool.lock);
}
