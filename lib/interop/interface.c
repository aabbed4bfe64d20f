/* The USM array interface (doc/glossary.md): export and zero-copy import. */
#include "interop_internal.h"

#include <stdlib.h>
#include <string.h>

/* Defined in device.c: resolves a selector to a platform and device. */
USMARR_INTERNAL int usmarr__device_select(const char *selector, cl_platform_id *platform, cl_device_id *device);

int usmarr_interface_export(const usmarr_array_t *a, usmarr_interface_t *iface)
{
    usmarr__clear_error();
    if (!a || !iface)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s is NULL", !a ? "array" : "iface");
    memset(iface, 0, sizeof *iface);
    iface->ndim = a->ndim;
    iface->shape = a->shape;
    iface->typestr = usmarr_dtype_typestr(a->dtype);
    iface->data = a->memory->pointer;
    iface->readonly = !(a->flags & USMARR_FLAG_WRITABLE);
    bool c = (a->flags & USMARR_FLAG_C_CONTIGUOUS) != 0;
    iface->strides = c ? NULL : a->strides;
    iface->nstrides = c ? 0 : a->ndim;
    iface->offset = a->offset;
    iface->syclobj.kind = USMARR_SYCLOBJ_CONTEXT;
    iface->syclobj.value.context = a->memory->context;
    iface->version = USMARR_INTERFACE_VERSION;
    return 0;
}

void usmarr_interface_release_array(void *pointer, void *array)
{
    (void)pointer;
    usmarr_array_release(array);
}

/* The context to import into, retained; validates syclobj against `given`. */
static int resolve_context(const usmarr_syclobj_t *obj, usmarr_context_t *given, usmarr_context_t **out)
{
    switch (obj->kind) {
    case USMARR_SYCLOBJ_NONE:
        if (!given)
            return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "context is NULL and syclobj names no context");
        *out = usmarr_context_retain(given);
        return 0;
    case USMARR_SYCLOBJ_CONTEXT:
        if (!obj->value.context)
            return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "syclobj.context is NULL");
        if (given && given->cl != obj->value.context->cl)
            return usmarr__fail(USMARR_ERROR_CONTEXT_MISMATCH,
                                "context is not the context syclobj names (different OpenCL contexts)");
        *out = usmarr_context_retain(obj->value.context);
        return 0;
    case USMARR_SYCLOBJ_QUEUE: {
        cl_command_queue q = obj->value.queue;
        cl_context qctx = NULL;
        cl_device_id qdev = NULL;
        cl_int err = q ? clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof qctx, &qctx, NULL) : CL_INVALID_COMMAND_QUEUE;
        if (err == CL_SUCCESS)
            err = clGetCommandQueueInfo(q, CL_QUEUE_DEVICE, sizeof qdev, &qdev, NULL);
        if (err != CL_SUCCESS)
            return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "syclobj.queue=%p is not a valid OpenCL queue (%s)",
                                (void *)q, usmarr_error_name(err));
        if (given) {
            if (given->cl != qctx)
                return usmarr__fail(USMARR_ERROR_CONTEXT_MISMATCH,
                                    "context is not the OpenCL context of syclobj.queue");
            *out = usmarr_context_retain(given);
            return 0;
        }
        /* Adopt the application's queue: the new context shares its cl_context. */
        return usmarr_context_adopt(qctx, qdev, q, out);
    }
    case USMARR_SYCLOBJ_SELECTOR: {
        const char *sel = obj->value.selector;
        if (!sel)
            return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "syclobj.selector is NULL");
        if (!given)
            return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT,
                                "context is NULL but syclobj is the selector \"%.64s\"; pass the context that owns "
                                "the allocation",
                                sel);
        cl_platform_id platform;
        cl_device_id device;
        int rc = usmarr__device_select(sel, &platform, &device);
        if (rc)
            return rc;
        if (device != given->device)
            return usmarr__fail(USMARR_ERROR_CONTEXT_MISMATCH,
                                "syclobj selector \"%.64s\" names another device than the context's (%s)", sel,
                                given->info.device_name);
        *out = usmarr_context_retain(given);
        return 0;
    }
    default:
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "syclobj.kind=%d is not a usmarr_syclobj_kind_t",
                            (int)obj->kind);
    }
}

int usmarr_interface_import(const usmarr_interface_t *iface, usmarr_context_t *context, usmarr_release_fn release,
                            void *user_data, usmarr_array_t **array)
{
    usmarr__clear_error();
    if (!iface || !array)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s is NULL", !iface ? "iface" : "array");
    if (iface->version != USMARR_INTERFACE_VERSION)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "version=%d is not %d", iface->version,
                            USMARR_INTERFACE_VERSION);
    if (!iface->typestr)
        return usmarr__fail(USMARR_ERROR_BAD_DTYPE, "typestr is NULL");
    usmarr_dtype_t dtype;
    int rc = usmarr_dtype_from_typestr(iface->typestr, &dtype);
    if (rc)
        return rc;
    if (iface->ndim < 0 || iface->ndim > USMARR_MAX_NDIM)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "ndim=%d (len(shape)) is outside [0, %d]", iface->ndim,
                            USMARR_MAX_NDIM);
    if (iface->ndim > 0 && !iface->shape)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "shape is NULL with ndim=%d", iface->ndim);
    if (iface->strides && iface->nstrides != iface->ndim)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "len(strides)=%d differs from len(shape)=%d",
                            iface->nstrides, iface->ndim);
    for (int k = 0; k < iface->ndim; k++)
        if (iface->shape[k] < 0)
            return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "shape[%d]=%lld is negative", k,
                                (long long)iface->shape[k]);
    int64_t strides[USMARR_MAX_NDIM], lo, hi, size;
    if (iface->strides)
        memcpy(strides, iface->strides, sizeof(int64_t) * (size_t)iface->ndim);
    else if ((rc = usmarr__contiguous_strides(iface->ndim, iface->shape, USMARR_ORDER_C, strides)))
        return rc;
    rc = usmarr__layout_span(iface->ndim, iface->shape, strides, &lo, &hi, &size, "strides");
    if (rc)
        return rc;

    usmarr_context_t *ctx = NULL;
    rc = resolve_context(&iface->syclobj, context, &ctx);
    if (rc)
        return rc;
    unsigned access = iface->readonly ? 0u : USMARR_FLAG_WRITABLE;
    usmarr_memory_t *m = NULL;
    int64_t offset = iface->offset;
    if (size == 0 && !iface->data) {
        /* An empty array may come without any allocation. */
        rc = usmarr_memory_create(ctx, USMARR_USM_DEVICE, 0, 0, &m);
    } else {
        /* The block is the pointer's whole allocation, so that negative strides may reach
         * before `data` (the base is the allocation, not the lowest element). */
        rc = usmarr__usm_check_range(ctx, iface->data, 0, "data", NULL);
        void *base = NULL;
        size_t alloc_size = 0;
        if (!rc) {
            cl_int err = ctx->usm.alloc_info(ctx->cl, iface->data, CL_MEM_ALLOC_BASE_PTR_INTEL, sizeof base, &base,
                                             NULL);
            if (err == CL_SUCCESS)
                err = ctx->usm.alloc_info(ctx->cl, iface->data, CL_MEM_ALLOC_SIZE_INTEL, sizeof alloc_size,
                                          &alloc_size, NULL);
            if (err != CL_SUCCESS)
                rc = usmarr__cl_fail(err, "clGetMemAllocInfoINTEL");
        }
        int64_t item = (int64_t)usmarr_dtype_size(dtype);
        int64_t delta = base ? (int64_t)((char *)iface->data - (char *)base) : 0;
        if (!rc && delta % item)
            rc = usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT,
                              "data=%p is %lld bytes into its allocation, not a multiple of the %lld-byte %s",
                              iface->data, (long long)delta, (long long)item, usmarr_dtype_name(dtype));
        if (!rc && usmarr__add_overflow(offset, delta / item, &offset))
            rc = usmarr__fail(USMARR_ERROR_OVERFLOW, "offset=%lld overflows", (long long)iface->offset);
        if (!rc)
            rc = usmarr_memory_wrap(ctx, base, alloc_size, NULL, NULL, &m);
    }
    if (!rc)
        rc = usmarr__array_new(m, dtype, iface->ndim, iface->shape, strides, offset, access, array);
    if (!rc && m->foreign) {
        /* Only now that nothing can fail does the block take over the owner's release. */
        m->release = release;
        m->user_data = user_data;
    }
    usmarr_memory_release(m);
    usmarr__context_unref(ctx);
    return rc;
}

/* The device and OpenCL context a syclobj names, where that can be known without
 * creating anything. */
static void syclobj_identity(const usmarr_syclobj_t *o, cl_context *cl, cl_device_id *dev, const char **sel)
{
    *cl = NULL;
    *dev = NULL;
    *sel = NULL;
    if (o->kind == USMARR_SYCLOBJ_CONTEXT && o->value.context) {
        *cl = o->value.context->cl;
        *dev = o->value.context->device;
    } else if (o->kind == USMARR_SYCLOBJ_QUEUE && o->value.queue) {
        clGetCommandQueueInfo(o->value.queue, CL_QUEUE_CONTEXT, sizeof *cl, cl, NULL);
        clGetCommandQueueInfo(o->value.queue, CL_QUEUE_DEVICE, sizeof *dev, dev, NULL);
    } else if (o->kind == USMARR_SYCLOBJ_SELECTOR) {
        *sel = o->value.selector;
    }
}

bool usmarr_interface_equal(const usmarr_interface_t *a, const usmarr_interface_t *b)
{
    if (!a || !b || a->ndim != b->ndim || a->ndim < 0 || a->ndim > USMARR_MAX_NDIM)
        return false;
    if (a->version != b->version || a->data != b->data || a->readonly != b->readonly || a->offset != b->offset)
        return false;
    usmarr_dtype_t ta, tb;
    if (!a->typestr || !b->typestr)
        return false;
    if (strcmp(a->typestr, b->typestr) != 0 &&
        (usmarr_dtype_from_typestr(a->typestr, &ta) || usmarr_dtype_from_typestr(b->typestr, &tb) || ta != tb))
        return false;
    if (a->ndim > 0 && (!a->shape || !b->shape))
        return false;
    for (int k = 0; k < a->ndim; k++)
        if (a->shape[k] != b->shape[k])
            return false;
    int64_t sa[USMARR_MAX_NDIM], sb[USMARR_MAX_NDIM];
    if ((a->strides && a->nstrides != a->ndim) || (b->strides && b->nstrides != b->ndim))
        return false;
    if (!a->strides && usmarr__contiguous_strides(a->ndim, a->shape, USMARR_ORDER_C, sa))
        return false;
    if (!b->strides && usmarr__contiguous_strides(b->ndim, b->shape, USMARR_ORDER_C, sb))
        return false;
    const int64_t *pa = a->strides ? a->strides : sa, *pb = b->strides ? b->strides : sb;
    for (int k = 0; k < a->ndim; k++)
        if (pa[k] != pb[k])
            return false;
    cl_context ca, cb;
    cl_device_id da, db;
    const char *xa, *xb;
    syclobj_identity(&a->syclobj, &ca, &da, &xa);
    syclobj_identity(&b->syclobj, &cb, &db, &xb);
    if (ca && cb)
        return ca == cb;
    if (xa && xb)
        return strcmp(xa, xb) == 0;
    /* A selector against a context: the same device will do. */
    if ((xa && db) || (xb && da)) {
        cl_platform_id p;
        cl_device_id d;
        if (usmarr__device_select(xa ? xa : xb, &p, &d))
            return false;
        return d == (xa ? db : da);
    }
    return a->syclobj.kind == USMARR_SYCLOBJ_NONE && b->syclobj.kind == USMARR_SYCLOBJ_NONE;
}
