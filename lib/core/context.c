/* Contexts: a cl_context, one device, an in-order queue, the USM entry points. */
#include "core_internal.h"

#include <stdlib.h>
#include <string.h>

USMARR_INTERNAL int usmarr__device_select(const char *selector, cl_platform_id *platform, cl_device_id *device);

/* Written once, before any context exists (the engine registers it at load time). */
static usmarr__context_hook_fn context_created;

void usmarr__context_hook_register(usmarr__context_hook_fn created) { context_created = created; }

/* Builds a context around retained OpenCL objects; consumes the caller's references
 * on success and on failure alike. */
static int context_build(cl_platform_id platform, cl_context cl, cl_device_id device, cl_command_queue queue,
                         usmarr_context_t **out)
{
    int rc = 0;
    usmarr_context_t *ctx = calloc(1, sizeof *ctx);
    if (!ctx) {
        rc = usmarr__fail(USMARR_ERROR_OUT_OF_HOST_MEMORY, "context");
        goto fail;
    }
    if ((rc = usmarr__device_describe(platform, 0, device, 0, &ctx->info)) != 0)
        goto fail;
    /* The selector names the device in JSON and interface exports: a failed lookup must
     * fail here, not leave a context that can never export. */
    ctx->device_ordinal = -1;
    rc = usmarr__device_selector(device, ctx->info.selector, sizeof ctx->info.selector, &ctx->device_ordinal);
    if (rc == USMARR_ERROR_NO_DEVICE)
        rc = 0; /* an adopted device the enumeration does not list: exports say so */
    if (rc)
        goto fail;
    if (!ctx->info.usable) {
        rc = usmarr__fail(USMARR_ERROR_UNSUPPORTED, "device \"%s\": %s", ctx->info.device_name, ctx->info.reason);
        goto fail;
    }
    const char *missing;
    if (ctx->info.backend == USMARR_BACKEND_SVM) {
        usmarr__svm_api_load(&ctx->usm);
    } else if (!usmarr__usm_api_load(platform, &ctx->usm, &missing)) {
        rc = usmarr__fail(USMARR_ERROR_UNSUPPORTED, "platform does not export %s", missing);
        goto fail;
    }
    if (!queue) {
        cl_int err;
        queue = clCreateCommandQueueWithProperties(cl, device, NULL, &err);
        if (err != CL_SUCCESS) {
            queue = NULL;
            rc = usmarr__cl_fail(err, "clCreateCommandQueueWithProperties");
            goto fail;
        }
    }
    if (mtx_init(&ctx->queue_lock, mtx_plain) != thrd_success) {
        rc = usmarr__fail(USMARR_ERROR_OUT_OF_HOST_MEMORY, "context lock");
        goto fail;
    }
    if (mtx_init(&ctx->kernels_lock, mtx_plain) != thrd_success) {
        mtx_destroy(&ctx->queue_lock);
        rc = usmarr__fail(USMARR_ERROR_OUT_OF_HOST_MEMORY, "context lock");
        goto fail;
    }
    if (usmarr__pool_init(ctx)) {
        mtx_destroy(&ctx->queue_lock);
        mtx_destroy(&ctx->kernels_lock);
        rc = usmarr__fail(USMARR_ERROR_OUT_OF_HOST_MEMORY, "context lock");
        goto fail;
    }
    if (ctx->info.backend == USMARR_BACKEND_SVM && usmarr__svm_register(cl, queue)) {
        usmarr__pool_destroy(ctx);
        mtx_destroy(&ctx->queue_lock);
        mtx_destroy(&ctx->kernels_lock);
        rc = usmarr__fail(USMARR_ERROR_OUT_OF_HOST_MEMORY, "SVM allocation table");
        goto fail;
    }
    usmarr__ref_init(&ctx->refcount);
    ctx->platform = platform;
    ctx->cl = cl;
    ctx->device = device;
    ctx->queue = queue;
    ctx->own = (usmarr_queue_t){.context = ctx, .cl = queue, .own = true};
    if (context_created)
        context_created(ctx);
    *out = ctx;
    return 0;
fail:
    free(ctx);
    if (queue)
        clReleaseCommandQueue(queue);
    clReleaseContext(cl);
    clReleaseDevice(device);
    return rc;
}

int usmarr_context_create(const char *selector, usmarr_context_t **context)
{
    usmarr__clear_error();
    if (!context)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "context (the out-parameter) is NULL");
    cl_platform_id platform;
    cl_device_id device;
    int rc = usmarr__device_select(selector, &platform, &device);
    if (rc)
        return rc;
    cl_int err;
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)platform, 0};
    cl_context cl = clCreateContext(props, 1, &device, NULL, NULL, &err);
    if (err != CL_SUCCESS)
        return usmarr__cl_fail(err, "clCreateContext");
    clRetainDevice(device);
    return context_build(platform, cl, device, NULL, context);
}

int usmarr_context_adopt(cl_context cl_ctx, cl_device_id device, cl_command_queue queue, usmarr_context_t **context)
{
    usmarr__clear_error();
    if (!cl_ctx || !device || !context)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s is NULL",
                            !cl_ctx ? "cl_ctx" : !device ? "device" : "context (the out-parameter)");
    cl_uint ndev = 0;
    cl_int err = clGetContextInfo(cl_ctx, CL_CONTEXT_NUM_DEVICES, sizeof ndev, &ndev, NULL);
    if (err != CL_SUCCESS)
        return usmarr__cl_fail(err, "cl_ctx: clGetContextInfo");
    cl_device_id *devs = calloc(ndev ? ndev : 1, sizeof *devs);
    if (!devs)
        return usmarr__fail(USMARR_ERROR_OUT_OF_HOST_MEMORY, "device list");
    err = clGetContextInfo(cl_ctx, CL_CONTEXT_DEVICES, ndev * sizeof *devs, devs, NULL);
    bool member = false;
    for (cl_uint i = 0; err == CL_SUCCESS && i < ndev; i++)
        member |= devs[i] == device;
    free(devs);
    if (err != CL_SUCCESS)
        return usmarr__cl_fail(err, "cl_ctx: clGetContextInfo(CL_CONTEXT_DEVICES)");
    if (!member)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "device is not one of cl_ctx's %u device(s)", ndev);
    if (queue) {
        cl_context qctx;
        cl_device_id qdev;
        cl_command_queue_properties qprops = 0;
        err = clGetCommandQueueInfo(queue, CL_QUEUE_CONTEXT, sizeof qctx, &qctx, NULL);
        if (err == CL_SUCCESS)
            err = clGetCommandQueueInfo(queue, CL_QUEUE_DEVICE, sizeof qdev, &qdev, NULL);
        if (err == CL_SUCCESS)
            err = clGetCommandQueueInfo(queue, CL_QUEUE_PROPERTIES, sizeof qprops, &qprops, NULL);
        if (err != CL_SUCCESS)
            return usmarr__cl_fail(err, "queue: clGetCommandQueueInfo");
        if (qctx != cl_ctx || qdev != device)
            return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "queue belongs to another %s",
                                qctx != cl_ctx ? "context" : "device");
        if (qprops & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE)
            return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "queue is out-of-order; an in-order queue is required");
    }
    cl_platform_id platform;
    err = clGetDeviceInfo(device, CL_DEVICE_PLATFORM, sizeof platform, &platform, NULL);
    if (err != CL_SUCCESS)
        return usmarr__cl_fail(err, "device: clGetDeviceInfo(CL_DEVICE_PLATFORM)");
    clRetainContext(cl_ctx);
    clRetainDevice(device);
    if (queue)
        clRetainCommandQueue(queue);
    return context_build(platform, cl_ctx, device, queue, context);
}

usmarr_context_t *usmarr_context_retain(usmarr_context_t *context) { return USMARR__RETAIN(context); }

void usmarr_context_release(usmarr_context_t *context)
{
    /* A deferred release (a foreign block's owner, such as a DLPack exporter's array) can
     * hold references to this context: the caller's release waits for them, so that the
     * context's last reference is not left to a poll that never comes. */
    if (context)
        usmarr__deferred_flush(context);
    usmarr__context_unref(context);
}

void usmarr__context_unref(usmarr_context_t *context)
{
    if (!USMARR__RELEASE_LAST(context))
        return;
    clFinish(context->queue);
    if (context->fft_free)
        context->fft_free(context);
    usmarr__pool_destroy(context);
    if (context->kernels_free)
        context->kernels_free(context->kernels);
    if (context->info.backend == USMARR_BACKEND_SVM)
        usmarr__svm_unregister(context->cl, context->queue);
    if (context->app_wait)
        clReleaseEvent(context->app_wait);
    clReleaseCommandQueue(context->queue);
    clReleaseContext(context->cl);
    clReleaseDevice(context->device);
    mtx_destroy(&context->queue_lock);
    mtx_destroy(&context->kernels_lock);
    free(context);
}

cl_context usmarr_context_cl_context(const usmarr_context_t *context) { return context ? context->cl : NULL; }
cl_device_id usmarr_context_device(const usmarr_context_t *context) { return context ? context->device : NULL; }
cl_command_queue usmarr_context_queue(const usmarr_context_t *context) { return context ? context->queue : NULL; }
const usmarr_device_info_t *usmarr_context_info(const usmarr_context_t *context)
{
    return context ? &context->info : NULL;
}

int usmarr_context_finish(usmarr_context_t *context)
{
    usmarr__clear_error();
    if (!context)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "context is NULL");
    cl_command_queue current = usmarr__queue_of(context);
    cl_int err = clFinish(context->queue);
    if (err == CL_SUCCESS && current != context->queue)
        err = clFinish(current);
    usmarr__deferred_poll(context);
    return err == CL_SUCCESS ? 0 : usmarr__cl_fail(err, "clFinish");
}
