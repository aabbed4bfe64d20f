/* The USM backend: the entry points of cl_intel_unified_shared_memory, and the
 * allocation primitives every block of the library goes through, whichever backend
 * (this one or svm.c) fills the context's table. */
#include "backend_internal.h"

bool usmarr__usm_api_load(cl_platform_id platform, struct usmarr__usm_api *api, const char **missing)
{
#define LOAD_(field, type, name)                                                                   \
    api->field = (type)clGetExtensionFunctionAddressForPlatform(platform, name);                   \
    if (!api->field) {                                                                             \
        *missing = name;                                                                           \
        return false;                                                                              \
    }
    LOAD_(host_alloc, usmarr__host_alloc_fn, "clHostMemAllocINTEL")
    LOAD_(device_alloc, usmarr__device_alloc_fn, "clDeviceMemAllocINTEL")
    LOAD_(shared_alloc, usmarr__device_alloc_fn, "clSharedMemAllocINTEL")
    LOAD_(free, usmarr__free_fn, "clMemFreeINTEL")
    LOAD_(blocking_free, usmarr__free_fn, "clMemBlockingFreeINTEL")
    LOAD_(alloc_info, usmarr__alloc_info_fn, "clGetMemAllocInfoINTEL")
    LOAD_(set_kernel_arg_pointer, usmarr__set_arg_ptr_fn, "clSetKernelArgMemPointerINTEL")
    LOAD_(memcpy, usmarr__memcpy_fn, "clEnqueueMemcpyINTEL")
    LOAD_(memfill, usmarr__memfill_fn, "clEnqueueMemFillINTEL")
    LOAD_(migrate, usmarr__migrate_fn, "clEnqueueMigrateMemINTEL")
#undef LOAD_
    *missing = NULL;
    return true;
}

static usmarr_usm_kind_t kind_from_cl(cl_unified_shared_memory_type_intel type)
{
    switch (type) {
    case CL_MEM_TYPE_DEVICE_INTEL:
        return USMARR_USM_DEVICE;
    case CL_MEM_TYPE_SHARED_INTEL:
        return USMARR_USM_SHARED;
    case CL_MEM_TYPE_HOST_INTEL:
        return USMARR_USM_HOST;
    default:
        return USMARR_USM_UNKNOWN;
    }
}

int usmarr__usm_check_range(usmarr_context_t *context, const void *pointer, size_t size, const char *what,
                            usmarr_usm_kind_t *kind)
{
    if (!pointer)
        return usmarr__fail(USMARR_ERROR_FOREIGN_POINTER, "%s is NULL", what);
    cl_unified_shared_memory_type_intel type = CL_MEM_TYPE_UNKNOWN_INTEL;
    cl_int err = context->usm.alloc_info(context->cl, pointer, CL_MEM_ALLOC_TYPE_INTEL, sizeof type, &type, NULL);
    if (err != CL_SUCCESS || type == CL_MEM_TYPE_UNKNOWN_INTEL)
        return usmarr__fail(USMARR_ERROR_FOREIGN_POINTER, "%s=%p is not a USM allocation of this context", what,
                            pointer);
    void *base = NULL;
    size_t alloc_size = 0;
    err = context->usm.alloc_info(context->cl, pointer, CL_MEM_ALLOC_BASE_PTR_INTEL, sizeof base, &base, NULL);
    if (err == CL_SUCCESS)
        err = context->usm.alloc_info(context->cl, pointer, CL_MEM_ALLOC_SIZE_INTEL, sizeof alloc_size, &alloc_size,
                                      NULL);
    if (err != CL_SUCCESS)
        return usmarr__cl_fail(err, "clGetMemAllocInfoINTEL");
    size_t start = (size_t)((const char *)pointer - (const char *)base);
    if (start > alloc_size || size > alloc_size - start)
        return usmarr__fail(USMARR_ERROR_OUT_OF_BOUNDS,
                            "%s=%p + %zu bytes ends %zu bytes into an allocation of %zu bytes at %p", what, pointer,
                            size, start + size, alloc_size, base);
    if (kind)
        *kind = kind_from_cl(type);
    return 0;
}

int usmarr__usm_alloc(usmarr_context_t *ctx, usmarr_usm_kind_t kind, size_t size, size_t alignment, void **out)
{
    cl_int err = CL_SUCCESS;
    cl_uint align = (cl_uint)alignment;
    void *p;
    switch (kind) {
    case USMARR_USM_DEVICE:
        p = ctx->usm.device_alloc(ctx->cl, ctx->device, NULL, size, align, &err);
        break;
    case USMARR_USM_SHARED:
        p = ctx->usm.shared_alloc(ctx->cl, ctx->device, NULL, size, align, &err);
        break;
    default:
        p = ctx->usm.host_alloc(ctx->cl, NULL, size, align, &err);
        break;
    }
    if (!p || err != CL_SUCCESS)
        return usmarr__fail(USMARR_ERROR_ALLOCATION, "%s USM of %zu bytes (alignment %zu): %s (%d)",
                            usmarr__usm_kind_word(kind), size, alignment, usmarr_error_name(err), (int)err);
    /* Some drivers (PoCL 6.0 above 128 bytes) accept an alignment and ignore it. */
    if (alignment && (uintptr_t)p % alignment) {
        size_t got = (size_t)1 << __builtin_ctzll((unsigned long long)(uintptr_t)p);
        usmarr__usm_free(ctx, p);
        return usmarr__fail(USMARR_ERROR_UNSUPPORTED,
                            "alignment=%zu: the device returned %s USM aligned to only %zu bytes; this device "
                            "honours alignments up to that",
                            alignment, usmarr__usm_kind_word(kind), got);
    }
    *out = p;
    return 0;
}

/* `settled`: the work that used the block is known to be done (a deferred free runs after
 * a marker of its queue), so launches that took its address by value need no finish. */
static void usm_free(usmarr_context_t *context, void *pointer, bool settled)
{
    mtx_lock(&context->queue_lock);
    if (!settled && context->indirect_launched) { /* clMemBlockingFreeINTEL would not wait for those launches */
        clFinish(context->queue);
        context->indirect_launched = false;
    }
    context->usm.blocking_free(context->cl, pointer);
    atomic_fetch_add(&context->usm_frees, 1);
    mtx_unlock(&context->queue_lock);
}

void usmarr__usm_free(usmarr_context_t *context, void *pointer) { usm_free(context, pointer, false); }

void usmarr__usm_free_deferred(void *pointer, void *data) { usm_free(data, pointer, true); }
