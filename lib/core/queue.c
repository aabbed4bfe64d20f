/* Queues of a context: created, adopted or the context's own; the calling thread's current
 * queue; markers, waits, finishes and the cross-queue order of a block (doc/async.md). */
#include "core_internal.h"

#include <stdlib.h>

void usmarr__queue_ref(usmarr_queue_t *queue)
{
    if (queue->own)
        usmarr_context_retain(queue->context);
    else
        usmarr__ref_add(&queue->refcount);
}

void usmarr__queue_unref(usmarr_queue_t *queue)
{
    if (queue->own) {
        usmarr__context_unref(queue->context);
        return;
    }
    if (!usmarr__ref_drop(&queue->refcount))
        return;
    usmarr_context_t *ctx = queue->context;
    clFlush(queue->cl); /* what was enqueued runs; nothing waits for it here */
    if (ctx->info.backend == USMARR_BACKEND_SVM)
        usmarr__svm_unregister(ctx->cl, queue->cl);
    clReleaseCommandQueue(queue->cl);
    free(queue);
    usmarr__deferred_poll(ctx);
    usmarr__context_unref(ctx);
}

/* Wraps a retained cl_command_queue (consumed on failure too). */
static int queue_new(usmarr_context_t *context, cl_command_queue cl, usmarr_queue_t **out)
{
    usmarr_queue_t *q = calloc(1, sizeof *q);
    if (!q || (context->info.backend == USMARR_BACKEND_SVM && usmarr__svm_register(context->cl, cl))) {
        free(q);
        clReleaseCommandQueue(cl);
        return usmarr__fail(USMARR_ERROR_OUT_OF_HOST_MEMORY, "queue");
    }
    usmarr__ref_init(&q->refcount);
    q->context = usmarr_context_retain(context);
    q->cl = cl;
    *out = q;
    return 0;
}

int usmarr_queue_create(usmarr_context_t *context, unsigned flags, usmarr_queue_t **queue)
{
    usmarr__clear_error();
    if (!context || !queue)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s is NULL",
                            !context ? "context" : "queue (the out-parameter)");
    if (flags & ~USMARR_QUEUE_PROFILING)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "flags=0x%x: unknown bits 0x%x (USMARR_QUEUE_PROFILING is 0x%x)",
                            flags, flags & ~USMARR_QUEUE_PROFILING, USMARR_QUEUE_PROFILING);
    cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
    cl_int err;
    cl_command_queue cl = clCreateCommandQueueWithProperties(context->cl, context->device,
                                                             (flags & USMARR_QUEUE_PROFILING) ? props : NULL, &err);
    if (err != CL_SUCCESS)
        return usmarr__cl_fail(err, "clCreateCommandQueueWithProperties");
    return queue_new(context, cl, queue);
}

int usmarr_queue_adopt(usmarr_context_t *context, cl_command_queue cl_queue, usmarr_queue_t **queue)
{
    usmarr__clear_error();
    if (!context || !cl_queue || !queue)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s is NULL",
                            !context ? "context" : !cl_queue ? "cl_queue" : "queue (the out-parameter)");
    cl_context qctx;
    cl_device_id qdev;
    cl_command_queue_properties qprops = 0;
    cl_int err = clGetCommandQueueInfo(cl_queue, CL_QUEUE_CONTEXT, sizeof qctx, &qctx, NULL);
    if (err == CL_SUCCESS)
        err = clGetCommandQueueInfo(cl_queue, CL_QUEUE_DEVICE, sizeof qdev, &qdev, NULL);
    if (err == CL_SUCCESS)
        err = clGetCommandQueueInfo(cl_queue, CL_QUEUE_PROPERTIES, sizeof qprops, &qprops, NULL);
    if (err != CL_SUCCESS)
        return usmarr__cl_fail(err, "cl_queue: clGetCommandQueueInfo");
    if (qctx != context->cl || qdev != context->device)
        return usmarr__fail(USMARR_ERROR_CONTEXT_MISMATCH, "cl_queue belongs to another %s than the context's",
                            qctx != context->cl ? "cl_context" : "device");
    if (qprops & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "cl_queue is out-of-order; an in-order queue is required");
    clRetainCommandQueue(cl_queue);
    return queue_new(context, cl_queue, queue);
}

usmarr_queue_t *usmarr_queue_retain(usmarr_queue_t *queue)
{
    if (queue)
        usmarr__queue_ref(queue);
    return queue;
}

void usmarr_queue_release(usmarr_queue_t *queue)
{
    if (queue)
        usmarr__queue_unref(queue);
}

/* A thread that ends with a current queue drops its reference through this key's
 * destructor; the thread-local pointer stays the fast path's. */
static tss_t current_key;
static atomic_bool current_key_made; /* atomic: TSan does not see through C11 call_once */
static once_flag current_key_once = ONCE_FLAG_INIT;

static void current_at_exit(void *queue)
{
    usmarr__current_queue = NULL;
    usmarr__queue_unref(queue);
}

static void current_key_make(void) { current_key_made = tss_create(&current_key, current_at_exit) == thrd_success; }

int usmarr_queue_set_current(usmarr_queue_t *queue)
{
    usmarr__clear_error();
    call_once(&current_key_once, current_key_make);
    usmarr_queue_t *old = usmarr__current_queue;
    if (queue)
        usmarr__queue_ref(queue);
    usmarr__current_queue = queue;
    if (current_key_made)
        tss_set(current_key, queue);
    if (old)
        usmarr__queue_unref(old);
    return 0;
}

usmarr_queue_t *usmarr_queue_get_current(void) { return usmarr__current_queue; }

usmarr_queue_t *usmarr_queue_current(usmarr_context_t *context)
{
    if (!context)
        return NULL;
    usmarr_queue_t *q = usmarr__current_queue;
    return q && q->context == context ? q : &context->own;
}

usmarr_context_t *usmarr_queue_context(const usmarr_queue_t *queue) { return queue ? queue->context : NULL; }
cl_command_queue usmarr_queue_cl(const usmarr_queue_t *queue) { return queue ? queue->cl : NULL; }

int usmarr_queue_marker(usmarr_queue_t *queue, cl_event *event)
{
    usmarr__clear_error();
    if (!queue || !event)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s is NULL", !queue ? "queue" : "event (the out-parameter)");
    return usmarr__queue_marker_cl(queue->context, queue->cl, event);
}

int usmarr_queue_wait(usmarr_queue_t *queue, size_t nevents, const cl_event *events)
{
    usmarr__clear_error();
    if (!queue)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "queue is NULL");
    if (nevents && !events)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "events is NULL with nevents=%zu", nevents);
    if (nevents > UINT32_MAX)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "nevents=%zu exceeds %u", nevents, UINT32_MAX);
    for (size_t i = 0; i < nevents; i++) {
        if (!events[i])
            return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "events[%zu] is NULL", i);
        cl_context owner = NULL;
        cl_int err = clGetEventInfo(events[i], CL_EVENT_CONTEXT, sizeof owner, &owner, NULL);
        if (err != CL_SUCCESS)
            return usmarr__fail(err, "events[%zu]: clGetEventInfo: %s", i, usmarr_error_name(err));
        if (owner != queue->context->cl)
            return usmarr__fail(USMARR_ERROR_CONTEXT_MISMATCH,
                                "events[%zu] belongs to another cl_context than the queue's", i);
    }
    if (!nevents)
        return 0;
    usmarr_context_t *ctx = queue->context;
    mtx_lock(&ctx->queue_lock);
    cl_event barrier = NULL;
    cl_int err = clEnqueueBarrierWithWaitList(queue->cl, (cl_uint)nevents, events, &barrier);
    if (err == CL_SUCCESS) { /* the engine does not wait for launches behind it (program.c) */
        if (ctx->app_wait)
            clReleaseEvent(ctx->app_wait);
        ctx->app_wait = barrier;
    }
    mtx_unlock(&ctx->queue_lock);
    return err == CL_SUCCESS ? 0 : usmarr__cl_fail(err, "clEnqueueBarrierWithWaitList");
}

int usmarr_queue_finish(usmarr_queue_t *queue)
{
    usmarr__clear_error();
    if (!queue)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "queue is NULL");
    cl_int err = clFinish(queue->cl);
    usmarr__deferred_poll(queue->context);
    return err == CL_SUCCESS ? 0 : usmarr__cl_fail(err, "clFinish");
}

int usmarr_array_record_queue(usmarr_array_t *array, usmarr_queue_t *queue)
{
    usmarr__clear_error();
    if (!array || !queue)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s is NULL", !array ? "array" : "queue");
    usmarr_memory_t *m = array->memory;
    usmarr_context_t *ctx = m->context;
    if (queue->context != ctx)
        return usmarr__fail(USMARR_ERROR_CONTEXT_MISMATCH, "queue belongs to another context than the array");
    usmarr_queue_t *next = queue->own ? NULL : queue;
    if (next)
        usmarr__queue_ref(next);
    usmarr_queue_t *last = atomic_exchange(&m->queue, next);
    mtx_lock(&ctx->queue_lock);
    int rc = usmarr__queue_order_locked(last ? last->cl : ctx->queue, queue->cl);
    mtx_unlock(&ctx->queue_lock);
    if (last)
        usmarr__queue_unref(last);
    return rc;
}

usmarr_queue_t *usmarr_array_queue(const usmarr_array_t *array)
{
    if (!array)
        return NULL;
    usmarr_memory_t *m = array->memory;
    usmarr_queue_t *q = atomic_load(&m->queue);
    return q ? q : &m->context->own;
}
