/* Ordering between queues without host waits (doc/async.md): the calling thread's current
 * queue, markers, one queue waiting for another, and releases deferred until the work
 * before a marker has completed.
 *
 * Deferred releases are polled (clGetEventInfo) by later calls and waited for by finishes
 * and the context's release, never run from clSetEventCallback: releasing objects from a
 * callback has deadlocked on Intel's runtime, and a callback test hung PoCL. */
#include "backend_internal.h"

#include <stdlib.h>

_Thread_local usmarr_queue_t *usmarr__current_queue;

int usmarr__queue_marker_cl(usmarr_context_t *ctx, cl_command_queue queue, cl_event *event)
{
    mtx_lock(&ctx->queue_lock);
    cl_int err = clEnqueueMarkerWithWaitList(queue, 0, NULL, event);
    mtx_unlock(&ctx->queue_lock);
    if (err == CL_SUCCESS)
        err = clFlush(queue); /* a producer is flushed before another queue waits on it */
    if (err != CL_SUCCESS) {
        *event = NULL;
        return usmarr__cl_fail(err, "clEnqueueMarkerWithWaitList");
    }
    return 0;
}

int usmarr__queue_order_locked(cl_command_queue producer, cl_command_queue waiter)
{
    if (producer == waiter)
        return 0;
    cl_event marker = NULL;
    cl_int err = clEnqueueMarkerWithWaitList(producer, 0, NULL, &marker);
    if (err == CL_SUCCESS)
        err = clFlush(producer);
    if (err == CL_SUCCESS)
        err = clEnqueueBarrierWithWaitList(waiter, 1, &marker, NULL);
    if (marker)
        clReleaseEvent(marker);
    return err == CL_SUCCESS ? 0 : usmarr__cl_fail(err, "ordering two queues (marker and barrier)");
}

/* ---- deferred releases ----------------------------------------------------------- */

static bool event_done(cl_event event)
{
    cl_int status = CL_QUEUED;
    if (clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL) != CL_SUCCESS)
        return true; /* an event that cannot be read never completes: do not keep the memory forever */
    return status == CL_COMPLETE || status < 0;
}

void usmarr__defer_release(usmarr_context_t *ctx, cl_command_queue queue, void (*release)(void *pointer, void *data),
                           void *pointer, void *data)
{
    struct usmarr__pool *pool = &ctx->pool;
    cl_command_queue q = queue ? queue : ctx->queue;
    cl_event event = NULL;
    mtx_lock(&ctx->queue_lock);
    cl_int err = clEnqueueMarkerWithWaitList(q, 0, NULL, &event);
    mtx_unlock(&ctx->queue_lock);
    if (err == CL_SUCCESS)
        clFlush(q);
    if (err != CL_SUCCESS || !event) {
        clFinish(q);
        release(pointer, data);
        return;
    }
    mtx_lock(&pool->lock);
    if (pool->ndeferred == pool->deferred_capacity) {
        size_t cap = pool->deferred_capacity ? pool->deferred_capacity * 2 : 16;
        struct usmarr__deferred *grown = realloc(pool->deferred, cap * sizeof *grown);
        if (grown) {
            pool->deferred = grown;
            pool->deferred_capacity = cap;
        }
    }
    bool kept = pool->ndeferred < pool->deferred_capacity;
    if (kept) {
        pool->deferred[pool->ndeferred++] = (struct usmarr__deferred){event, release, pointer, data};
        atomic_store(&pool->pending, pool->ndeferred);
    }
    mtx_unlock(&pool->lock);
    if (!kept) { /* out of host memory for the list: wait instead */
        clWaitForEvents(1, &event);
        clReleaseEvent(event);
        release(pointer, data);
    }
}

/* Whether the application holds a queue of the context behind its own events: the last
 * usmarr_queue_wait barrier has not completed.  A USM free waits for the work that may
 * use the block, which PoCL takes to be the last command of every queue of the context
 * (clMemBlockingFreeINTEL), so a free run then would wait for an event the application
 * may set only after the call that frees returns. */
static bool app_holds_queue(usmarr_context_t *ctx)
{
    mtx_lock(&ctx->queue_lock);
    bool held = ctx->app_wait && !event_done(ctx->app_wait);
    mtx_unlock(&ctx->queue_lock);
    return held;
}

/* Takes the entries whose markers completed (all of them when `all`) out of the list,
 * then runs them outside the lock: a release may call back into the library.  A poll
 * runs nothing while the application holds a queue (app_holds_queue); the entries wait
 * for a later poll, a finish or the context's release. */
static void deferred_run(usmarr_context_t *ctx, bool all)
{
    struct usmarr__pool *pool = &ctx->pool;
    if (!atomic_load_explicit(&pool->pending, memory_order_relaxed) || (!all && app_holds_queue(ctx)))
        return;
    for (;;) {
        struct usmarr__deferred ready[16];
        size_t nready = 0;
        mtx_lock(&pool->lock);
        for (size_t i = 0; i < pool->ndeferred && nready < 16;) {
            if (all || event_done(pool->deferred[i].event)) {
                ready[nready++] = pool->deferred[i];
                pool->deferred[i] = pool->deferred[--pool->ndeferred];
            } else {
                i++;
            }
        }
        atomic_store(&pool->pending, pool->ndeferred);
        mtx_unlock(&pool->lock);
        for (size_t i = 0; i < nready; i++) {
            if (all)
                clWaitForEvents(1, &ready[i].event);
            clReleaseEvent(ready[i].event);
            ready[i].release(ready[i].pointer, ready[i].data);
        }
        if (nready < 16)
            return;
    }
}

void usmarr__deferred_poll(usmarr_context_t *ctx) { deferred_run(ctx, false); }
void usmarr__deferred_flush(usmarr_context_t *ctx) { deferred_run(ctx, true); }
