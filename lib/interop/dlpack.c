/* DLPack export and import (doc/interop.md).  Import of shared memory goes through the USM
 * array interface's import, so both validate foreign pointers the same way. */
#include "interop_internal.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* The structs are DLPack's ABI (dlpack.h 1.x); tests/interop/test_dlpack.c also compares them
 * with the system's dlpack.h where there is one. */
#if UINTPTR_MAX == UINT64_MAX
_Static_assert(sizeof(usmarr_dl_device_t) == 8 && sizeof(usmarr_dl_data_type_t) == 4, "DLDevice, DLDataType");
_Static_assert(offsetof(usmarr_dl_tensor_t, device) == 8 && offsetof(usmarr_dl_tensor_t, ndim) == 16 &&
                   offsetof(usmarr_dl_tensor_t, dtype) == 20 && offsetof(usmarr_dl_tensor_t, shape) == 24 &&
                   offsetof(usmarr_dl_tensor_t, strides) == 32 && offsetof(usmarr_dl_tensor_t, byte_offset) == 40 &&
                   sizeof(usmarr_dl_tensor_t) == 48,
               "DLTensor");
_Static_assert(offsetof(usmarr_dl_managed_tensor_t, manager_ctx) == 48 &&
                   offsetof(usmarr_dl_managed_tensor_t, deleter) == 56,
               "DLManagedTensor");
_Static_assert(offsetof(usmarr_dl_managed_tensor_versioned_t, manager_ctx) == 8 &&
                   offsetof(usmarr_dl_managed_tensor_versioned_t, deleter) == 16 &&
                   offsetof(usmarr_dl_managed_tensor_versioned_t, flags) == 24 &&
                   offsetof(usmarr_dl_managed_tensor_versioned_t, dl_tensor) == 32,
               "DLManagedTensorVersioned");
#endif

/* ---- data types ---------------------------------------------------------------------- */

static const usmarr_dl_data_type_t dl_types[USMARR_DTYPE_COUNT] = {
    [USMARR_BOOL] = {USMARR_DL_BOOL, 8, 1},       [USMARR_INT8] = {USMARR_DL_INT, 8, 1},
    [USMARR_INT16] = {USMARR_DL_INT, 16, 1},      [USMARR_INT32] = {USMARR_DL_INT, 32, 1},
    [USMARR_INT64] = {USMARR_DL_INT, 64, 1},      [USMARR_UINT8] = {USMARR_DL_UINT, 8, 1},
    [USMARR_UINT16] = {USMARR_DL_UINT, 16, 1},    [USMARR_UINT32] = {USMARR_DL_UINT, 32, 1},
    [USMARR_UINT64] = {USMARR_DL_UINT, 64, 1},    [USMARR_FLOAT16] = {USMARR_DL_FLOAT, 16, 1},
    [USMARR_FLOAT32] = {USMARR_DL_FLOAT, 32, 1},  [USMARR_FLOAT64] = {USMARR_DL_FLOAT, 64, 1},
    [USMARR_COMPLEX64] = {USMARR_DL_COMPLEX, 64, 1}, [USMARR_COMPLEX128] = {USMARR_DL_COMPLEX, 128, 1},
};

int usmarr_dtype_to_dlpack(usmarr_dtype_t dtype, usmarr_dl_data_type_t *type)
{
    usmarr__clear_error();
    if (!type)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "type is NULL");
    if (!usmarr__dtype_valid(dtype))
        return usmarr__fail(USMARR_ERROR_BAD_DTYPE, "dtype=%d is not a usmarr_dtype_t (0 to %d)", (int)dtype,
                            USMARR_DTYPE_COUNT - 1);
    *type = dl_types[dtype];
    return 0;
}

static const char *code_name(unsigned code)
{
    static const char *const names[] = {"kDLInt", "kDLUInt", "kDLFloat", "kDLOpaqueHandle", "kDLBfloat",
                                        "kDLComplex", "kDLBool"};
    return code < sizeof names / sizeof names[0] ? names[code] : code <= 17 ? "a float8/6/4 code" : "unknown";
}

int usmarr_dtype_from_dlpack(usmarr_dl_data_type_t type, usmarr_dtype_t *dtype)
{
    usmarr__clear_error();
    if (!dtype)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "dtype is NULL");
    if (type.lanes != 1)
        return usmarr__fail(USMARR_ERROR_BAD_DTYPE, "dtype.lanes=%u: only 1 lane (no vector types) is supported",
                            (unsigned)type.lanes);
    for (int d = 0; d < USMARR_DTYPE_COUNT; d++)
        if (dl_types[d].code == type.code && dl_types[d].bits == type.bits) {
            *dtype = (usmarr_dtype_t)d;
            return 0;
        }
    return usmarr__fail(USMARR_ERROR_BAD_DTYPE,
                        "dtype (code=%u %s, bits=%u) has no usmarr dtype (bool 8; int/uint 8-64; float 16-64; "
                        "complex 64, 128)",
                        (unsigned)type.code, code_name(type.code), (unsigned)type.bits);
}

static const char *device_name(int32_t type)
{
    switch (type) {
    case 1: return "kDLCPU";
    case 2: return "kDLCUDA";
    case 3: return "kDLCUDAHost";
    case 4: return "kDLOpenCL";
    case 7: return "kDLVulkan";
    case 8: return "kDLMetal";
    case 9: return "kDLVPI";
    case 10: return "kDLROCM";
    case 11: return "kDLROCMHost";
    case 12: return "kDLExtDev";
    case 13: return "kDLCUDAManaged";
    case 14: return "kDLOneAPI";
    case 15: return "kDLWebGPU";
    case 16: return "kDLHexagon";
    case 17: return "kDLMAIA";
    default: return "unknown";
    }
}

/* The device type of a context's memory: kDLOneAPI for USM; kDLOpenCL for the SVM
 * backend's SVM, which a SYCL consumer must not take for USM. */
static int32_t native_type(const usmarr_context_t *ctx)
{
    return ctx->info.backend == USMARR_BACKEND_SVM ? USMARR_DL_OPENCL : USMARR_DL_ONEAPI;
}

int usmarr_array_dlpack_device(const usmarr_array_t *a, usmarr_dl_device_t *device)
{
    usmarr__clear_error();
    if (!a || !device)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s is NULL", !a ? "array" : "device");
    const usmarr_context_t *ctx = a->memory->context;
    if (ctx->device_ordinal < 0)
        return usmarr__fail(USMARR_ERROR_UNSUPPORTED,
                            "device \"%s\" is not in the library's device list, so it has no kDLOneAPI device_id",
                            ctx->info.device_name);
    device->device_type = native_type(ctx);
    device->device_id = ctx->device_ordinal;
    return 0;
}

/* ---- export ---------------------------------------------------------------------------- */

/* One allocation per exported tensor; the tensor comes first, so `self` is this struct. */
struct exported {
    union {
        usmarr_dl_managed_tensor_versioned_t versioned;
        usmarr_dl_managed_tensor_t legacy;
    } tensor;
    usmarr_array_t *array; /* the reference the tensor holds (NULL for a host copy) */
    void *host_copy;       /* malloc'd elements of a kDLCPU copy */
    int64_t shape_strides[];
};

static void exported_free(struct exported *e)
{
    free(e->host_copy);
    usmarr_array_release(e->array);
    free(e);
}

static void delete_versioned(usmarr_dl_managed_tensor_versioned_t *self)
{
    if (self)
        exported_free(self->manager_ctx);
}

static void delete_legacy(usmarr_dl_managed_tensor_t *self)
{
    if (self)
        exported_free(self->manager_ctx);
}

static int check_copy_mode(usmarr_dlpack_copy_t copy)
{
    if ((unsigned)copy > USMARR_DLPACK_COPY_ALWAYS)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "copy=%d is not a usmarr_dlpack_copy_t (0 to 2)",
                            (int)copy);
    return 0;
}

/* Fills the tensor and `flags` (read-only / copied) of an export; `legacy` refuses what the
 * unversioned struct cannot say (read-only) unless a copy is allowed. */
static int export_tensor(const usmarr_array_t *a, const void *tensor, const usmarr_dl_device_t *want,
                         usmarr_dlpack_copy_t copy, bool legacy, struct exported **out)
{
    if (!a || !tensor)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s is NULL", !a ? "array" : "tensor");
    int rc = check_copy_mode(copy);
    if (rc)
        return rc;
    usmarr_context_t *ctx = a->memory->context;
    bool to_host = false;
    if (want && want->device_type == USMARR_DL_CPU) {
        if (want->device_id != 0)
            return usmarr__fail(USMARR_ERROR_UNSUPPORTED, "device=(kDLCPU, %d): the host's device_id is 0",
                                (int)want->device_id);
        to_host = true;
    } else if (want && want->device_type == native_type(ctx)) {
        if (want->device_id != ctx->device_ordinal)
            return usmarr__fail(USMARR_ERROR_UNSUPPORTED,
                                "device=(kDLOneAPI, %d) is not the array's device (kDLOneAPI, %d): copies "
                                "between devices are not supported",
                                (int)want->device_id, ctx->device_ordinal);
    } else if (want) {
        return usmarr__fail(USMARR_ERROR_UNSUPPORTED,
                            "device_type=%d (%s): the library exports %s (%d) and, for host-readable "
                            "memory, kDLCPU (1)",
                            (int)want->device_type, device_name(want->device_type),
                            device_name(native_type(ctx)), (int)native_type(ctx));
    }
    if (!to_host && ctx->device_ordinal < 0)
        return usmarr__fail(USMARR_ERROR_UNSUPPORTED,
                            "device \"%s\" is not in the library's device list, so it has no kDLOneAPI device_id",
                            ctx->info.device_name);
    bool read_only = !(a->flags & USMARR_FLAG_WRITABLE);
    bool host_readable = a->memory->kind == USMARR_USM_HOST || a->memory->kind == USMARR_USM_SHARED;
    bool must_copy = (to_host && !host_readable) || (legacy && read_only);
    if (must_copy && copy == USMARR_DLPACK_COPY_NEVER) {
        if (legacy && read_only)
            return usmarr__fail(USMARR_ERROR_READ_ONLY,
                                "array is read-only and the unversioned DLManagedTensor cannot say so; export "
                                "the versioned tensor or allow a copy");
        return usmarr__fail(USMARR_ERROR_UNSUPPORTED,
                            "array is %s USM, which the host cannot read, and copy is never: kDLCPU needs host or "
                            "shared USM",
                            usmarr_usm_kind_name(a->memory->kind));
    }
    bool copied = must_copy || copy == USMARR_DLPACK_COPY_ALWAYS;

    /* Consumers read without knowing this context's queue: let its work finish first. */
    if ((rc = usmarr_context_finish(ctx)))
        return rc;
    size_t nd = (size_t)a->ndim;
    struct exported *e = calloc(1, sizeof *e + 2 * nd * sizeof(int64_t));
    if (!e)
        return usmarr__fail(USMARR_ERROR_OUT_OF_HOST_MEMORY, "DLPack tensor of %zu dimensions", nd);
    usmarr_dl_tensor_t *t = legacy ? &e->tensor.legacy.dl_tensor : &e->tensor.versioned.dl_tensor;
    const usmarr_array_t *src = a;
    int64_t *shape = e->shape_strides, *strides = e->shape_strides + nd;
    memcpy(shape, a->shape, nd * sizeof *shape);
    if (copied && to_host) {
        /* Device USM for the host: a C-contiguous host copy, no kernel involved. */
        size_t bytes = (size_t)usmarr_array_nbytes(a);
        e->host_copy = malloc(bytes ? bytes : 1);
        if (!e->host_copy) {
            rc = usmarr__fail(USMARR_ERROR_OUT_OF_HOST_MEMORY, "host copy of %zu bytes", bytes);
            goto fail;
        }
        if ((rc = usmarr_array_copy_to_host(a, e->host_copy, NULL)) ||
            (rc = usmarr__contiguous_strides(a->ndim, a->shape, USMARR_ORDER_C, strides)))
            goto fail;
        t->data = e->host_copy;
        t->byte_offset = 0;
    } else {
        if (copied) {
            if ((rc = usmarr_array_copy(a, USMARR_ORDER_C, NULL, &e->array)) || (rc = usmarr_context_finish(ctx)))
                goto fail;
            src = e->array;
        } else {
            e->array = usmarr_array_retain((usmarr_array_t *)a);
        }
        memcpy(strides, src->strides, nd * sizeof *strides);
        int64_t byte_offset = 0;
        /* Only a zero-size array may have a negative offset; it reads nothing. */
        if (src->offset > 0 && usmarr__mul_overflow(src->offset, (int64_t)usmarr_dtype_size(src->dtype), &byte_offset)) {
            rc = usmarr__fail(USMARR_ERROR_OVERFLOW, "offset=%lld elements overflows byte_offset",
                              (long long)src->offset);
            goto fail;
        }
        t->data = src->memory->pointer;
        t->byte_offset = (uint64_t)byte_offset;
    }
    t->device.device_type = to_host ? USMARR_DL_CPU : native_type(ctx);
    t->device.device_id = to_host ? 0 : ctx->device_ordinal;
    t->ndim = a->ndim;
    t->dtype = dl_types[a->dtype];
    t->shape = nd ? shape : NULL;
    t->strides = nd ? strides : NULL;
    if (legacy) {
        e->tensor.legacy.manager_ctx = e;
        e->tensor.legacy.deleter = delete_legacy;
    } else {
        usmarr_dl_managed_tensor_versioned_t *v = &e->tensor.versioned;
        v->version.major = USMARR_DL_MAJOR_VERSION;
        v->version.minor = USMARR_DL_MINOR_VERSION;
        v->manager_ctx = e;
        v->deleter = delete_versioned;
        v->flags = (copied ? USMARR_DL_FLAG_IS_COPIED : 0) | (read_only && !copied ? USMARR_DL_FLAG_READ_ONLY : 0);
    }
    *out = e;
    return 0;
fail:
    exported_free(e);
    return rc;
}

int usmarr_array_to_dlpack(const usmarr_array_t *array, const usmarr_dl_device_t *device, usmarr_dlpack_copy_t copy,
                           usmarr_dl_managed_tensor_versioned_t **tensor)
{
    usmarr__clear_error();
    struct exported *e;
    int rc = export_tensor(array, tensor, device, copy, false, &e);
    if (!rc)
        *tensor = &e->tensor.versioned;
    return rc;
}

int usmarr_array_to_dlpack_unversioned(const usmarr_array_t *array, const usmarr_dl_device_t *device,
                                       usmarr_dlpack_copy_t copy, usmarr_dl_managed_tensor_t **tensor)
{
    usmarr__clear_error();
    struct exported *e;
    int rc = export_tensor(array, tensor, device, copy, true, &e);
    if (!rc)
        *tensor = &e->tensor.legacy;
    return rc;
}

/* ---- import ---------------------------------------------------------------------------- */

/* ::usmarr_release_fn callbacks that hand a tensor back to its producer. */
static void release_versioned(void *pointer, void *tensor)
{
    (void)pointer;
    usmarr_dl_managed_tensor_versioned_t *t = tensor;
    if (t->deleter)
        t->deleter(t);
}

static void release_legacy(void *pointer, void *tensor)
{
    (void)pointer;
    usmarr_dl_managed_tensor_t *t = tensor;
    if (t->deleter)
        t->deleter(t);
}

/* Imports `t`; `release(NULL, owner)` hands the tensor back.  On success the tensor has
 * been handed back (after a copy) or belongs to the new array's block (shared memory). */
static int import_tensor(const usmarr_dl_tensor_t *t, bool read_only, usmarr_context_t *ctx,
                         usmarr_dlpack_copy_t copy, usmarr_usm_kind_t kind, usmarr_release_fn release, void *owner,
                         usmarr_array_t **array)
{
    int rc = check_copy_mode(copy);
    if (rc)
        return rc;
    if ((unsigned)kind > USMARR_USM_HOST)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "kind=%d is not a usmarr_usm_kind_t (0 to 3)", (int)kind);
    if (!kind)
        kind = USMARR_USM_DEVICE;
    usmarr_dtype_t dtype;
    if ((rc = usmarr_dtype_from_dlpack(t->dtype, &dtype)))
        return rc;
    if (t->ndim < 0 || t->ndim > USMARR_MAX_NDIM)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "ndim=%d is outside [0, %d]", (int)t->ndim,
                            USMARR_MAX_NDIM);
    if (t->ndim > 0 && !t->shape)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "shape is NULL with ndim=%d", (int)t->ndim);
    for (int k = 0; k < t->ndim; k++)
        if (t->shape[k] < 0)
            return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "shape[%d]=%lld is negative", k,
                                (long long)t->shape[k]);
    int64_t strides[USMARR_MAX_NDIM], lo, hi, size;
    if (t->strides && t->ndim > 0)
        memcpy(strides, t->strides, sizeof(int64_t) * (size_t)t->ndim);
    else if ((rc = usmarr__contiguous_strides(t->ndim, t->shape, USMARR_ORDER_C, strides)))
        return rc;
    if ((rc = usmarr__layout_span(t->ndim, t->shape, strides, &lo, &hi, &size, "strides")))
        return rc;
    if (t->device.device_type != native_type(ctx) && t->device.device_type != USMARR_DL_CPU)
        return usmarr__fail(USMARR_ERROR_UNSUPPORTED,
                            "device_type=%d (%s): the library imports %s (%d) and kDLCPU (1) memory",
                            (int)t->device.device_type, device_name(t->device.device_type),
                            device_name(native_type(ctx)), (int)native_type(ctx));
    bool on_host = t->device.device_type == USMARR_DL_CPU;

    if (size == 0) {
        /* Nothing to share or read: a fresh empty array, and the tensor goes back now. */
        if ((rc = usmarr_array_empty(ctx, t->ndim, t->shape, dtype, USMARR_ORDER_C, kind, array)))
            return rc;
        if (read_only && copy != USMARR_DLPACK_COPY_ALWAYS)
            (*array)->flags &= ~(unsigned)USMARR_FLAG_WRITABLE;
        release(NULL, owner);
        return 0;
    }
    if (!t->data)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "data is NULL for a tensor of %lld elements",
                            (long long)size);
    if (t->byte_offset > UINTPTR_MAX - (uintptr_t)t->data)
        return usmarr__fail(USMARR_ERROR_OVERFLOW, "data=%p + byte_offset=%llu passes the end of the address space",
                            t->data, (unsigned long long)t->byte_offset);
    void *element = (char *)t->data + t->byte_offset;

    rc = usmarr__usm_check_range(ctx, element, 0, "data + byte_offset", NULL);
    if (rc && rc != USMARR_ERROR_FOREIGN_POINTER)
        return rc;
    bool usm = rc == 0;
    if (!usm && !on_host)
        return usmarr__fail(USMARR_ERROR_FOREIGN_POINTER,
                            "data + byte_offset=%p (kDLOneAPI, device_id %d) is not USM of this context; USM of "
                            "another context cannot be read here",
                            element, (int)t->device.device_id);
    if (!usm && copy == USMARR_DLPACK_COPY_NEVER)
        return usmarr__fail(USMARR_ERROR_FOREIGN_POINTER,
                            "data + byte_offset=%p is kDLCPU memory that is not USM of this context, and copy is "
                            "never; allow a copy to read it",
                            element);
    if (!usm) {
        if ((rc = usmarr_array_from_host(ctx, t->ndim, t->shape, dtype, element, strides, kind, array)))
            return rc;
        release(NULL, owner);
        return 0;
    }

    usmarr_interface_t iface = {
        .ndim = t->ndim,
        .shape = t->shape,
        .typestr = usmarr_dtype_typestr(dtype),
        .data = element,
        .readonly = read_only,
        .strides = strides,
        .nstrides = t->ndim,
        .syclobj = {.kind = USMARR_SYCLOBJ_NONE},
        .version = USMARR_INTERFACE_VERSION,
    };
    if (copy != USMARR_DLPACK_COPY_ALWAYS)
        return usmarr_interface_import(&iface, ctx, release, owner, array);

    /* A copy of USM: the shared view dies (waiting for the copy) before the tensor goes
     * back, and the caller keeps the tensor if anything fails. */
    usmarr_array_t *shared = NULL, *fresh = NULL;
    rc = usmarr_interface_import(&iface, ctx, NULL, NULL, &shared);
    if (!rc)
        rc = usmarr_array_empty(ctx, t->ndim, t->shape, dtype, USMARR_ORDER_C, kind, &fresh);
    if (!rc)
        rc = usmarr_array_copy_into(fresh, shared);
    if (!rc)
        rc = usmarr_context_finish(ctx);
    usmarr_array_release(shared);
    if (rc) {
        usmarr_array_release(fresh);
        return rc;
    }
    release(NULL, owner);
    *array = fresh;
    return 0;
}

int usmarr_array_from_dlpack(usmarr_dl_managed_tensor_versioned_t *tensor, usmarr_context_t *context,
                             usmarr_dlpack_copy_t copy, usmarr_usm_kind_t kind, usmarr_array_t **array)
{
    usmarr__clear_error();
    if (!tensor || !context || !array)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s is NULL",
                            !tensor ? "tensor" : !context ? "context" : "array");
    /* Another major version may lay the rest out differently: read nothing else. */
    if (tensor->version.major != USMARR_DL_MAJOR_VERSION)
        return usmarr__fail(USMARR_ERROR_UNSUPPORTED, "version=%u.%u: the library reads DLPack %d.x",
                            (unsigned)tensor->version.major, (unsigned)tensor->version.minor,
                            USMARR_DL_MAJOR_VERSION);
    return import_tensor(&tensor->dl_tensor, (tensor->flags & USMARR_DL_FLAG_READ_ONLY) != 0, context, copy, kind,
                         release_versioned, tensor, array);
}

int usmarr_array_from_dlpack_unversioned(usmarr_dl_managed_tensor_t *tensor, usmarr_context_t *context,
                                         usmarr_dlpack_copy_t copy, usmarr_usm_kind_t kind, usmarr_array_t **array)
{
    usmarr__clear_error();
    if (!tensor || !context || !array)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s is NULL",
                            !tensor ? "tensor" : !context ? "context" : "array");
    return import_tensor(&tensor->dl_tensor, false, context, copy, kind, release_legacy, tensor, array);
}
