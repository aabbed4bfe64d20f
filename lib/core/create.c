/* Creation functions and host transfers.  Host transfers move whole blocks: one
 * clEnqueueMemcpyINTEL of the array's span (or its packed bytes), with gathers and
 * scatters done on the host in a staging buffer, never one element per command. */
#include "core_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Copies an N-d strided layout between host buffers; strides in elements, pointers at
 * element [0,...,0]. */
static void host_strided_copy(int ndim, const int64_t *shape, char *dst, const int64_t *dst_strides,
                              const char *src, const int64_t *src_strides, size_t itemsize);

/* The whole-block transfer from host memory to an array (usmarr__array_read's reverse). */
static int array_write(usmarr_array_t *a, const void *host, const int64_t *host_strides);

/* ---- host-side strided copies ------------------------------------------------------ */

/* One row of n elements of `size` bytes; inlined where `size` is a constant, so that the
 * moves become plain loads and stores. */
static inline __attribute__((always_inline)) void move_row(char *d, int64_t ds, const char *s, int64_t ss, int64_t n,
                                                          size_t size)
{
    for (int64_t i = 0; i < n; i++)
        memcpy(d + i * ds, s + i * ss, size);
}

static void host_strided_copy(int ndim, const int64_t *shape, char *dst, const int64_t *dst_strides,
                              const char *src, const int64_t *src_strides, size_t itemsize)
{
    for (int k = 0; k < ndim; k++)
        if (shape[k] == 0)
            return;
    if (ndim == 0) {
        memcpy(dst, src, itemsize);
        return;
    }
    int64_t idx[USMARR_MAX_NDIM] = {0};
    const int inner = ndim - 1;
    const int64_t n = shape[inner];
    const int64_t ds = dst_strides[inner] * (int64_t)itemsize, ss = src_strides[inner] * (int64_t)itemsize;
    for (;;) {
        char *d = dst;
        const char *s = src;
        for (int k = 0; k < inner; k++) {
            d += idx[k] * dst_strides[k] * (int64_t)itemsize;
            s += idx[k] * src_strides[k] * (int64_t)itemsize;
        }
        if (ds == (int64_t)itemsize && ss == (int64_t)itemsize) {
            memcpy(d, s, (size_t)n * itemsize);
        } else {
            switch (itemsize) { /* constant sizes let the compiler inline the moves */
            case 1: move_row(d, ds, s, ss, n, 1); break;
            case 2: move_row(d, ds, s, ss, n, 2); break;
            case 4: move_row(d, ds, s, ss, n, 4); break;
            case 8: move_row(d, ds, s, ss, n, 8); break;
            default: move_row(d, ds, s, ss, n, itemsize); break;
            }
        }
        int k = inner - 1;
        for (; k >= 0; k--) {
            if (++idx[k] < shape[k])
                break;
            idx[k] = 0;
        }
        if (k < 0)
            return;
    }
}

/* True when both layouts visit the same bytes in the same way: equal strides on every
 * axis of extent > 1. */
static bool same_layout(int ndim, const int64_t *shape, const int64_t *a, const int64_t *b)
{
    for (int k = 0; k < ndim; k++)
        if (shape[k] > 1 && a[k] != b[k])
            return false;
    return true;
}

static int staging_alloc(int64_t bytes, char **out)
{
    *out = malloc(bytes > 0 ? (size_t)bytes : 1);
    if (!*out)
        return usmarr__fail(USMARR_ERROR_OUT_OF_HOST_MEMORY, "host staging buffer of %lld bytes", (long long)bytes);
    return 0;
}

static int device_copy_locked(usmarr_context_t *ctx, void *dst, const void *src, size_t size)
{
    if (size == 0)
        return 0;
    cl_int err = ctx->usm.memcpy(usmarr__queue_of(ctx), CL_TRUE, dst, src, size, 0, NULL, NULL);
    return err == CL_SUCCESS ? 0 : usmarr__cl_fail(err, "clEnqueueMemcpyINTEL");
}

/* What a host read or write of `a` moves: the span of its elements from element lo, in
 * bytes; the host's strides (C order when none are given); `direct` when a is dense and
 * laid out as the host is, so that one copy of the span does.  False for an empty a. */
struct host_transfer {
    int64_t lo, span_bytes, strides[USMARR_MAX_NDIM];
    size_t item;
    bool dense, direct;
};

static bool host_transfer_plan(const usmarr_array_t *a, const int64_t *host_strides, struct host_transfer *t)
{
    int64_t hi;
    if (!usmarr__array_span(a, &t->lo, &hi))
        return false;
    t->item = usmarr_dtype_size(a->dtype);
    if (host_strides)
        memcpy(t->strides, host_strides, sizeof(int64_t) * (size_t)a->ndim);
    else
        usmarr__contiguous_strides(a->ndim, a->shape, USMARR_ORDER_C, t->strides);
    t->span_bytes = (hi - t->lo + 1) * (int64_t)t->item; /* inside the block: fits */
    t->dense = a->flags & (USMARR_FLAG_C_CONTIGUOUS | USMARR_FLAG_F_CONTIGUOUS);
    t->direct = t->dense && same_layout(a->ndim, a->shape, a->strides, t->strides);
    return true;
}

int usmarr__array_read(const usmarr_array_t *a, void *host, const int64_t *host_strides)
{
    struct host_transfer t;
    if (!host_transfer_plan(a, host_strides, &t))
        return 0;
    if (t.direct)
        return usmarr_memory_copy_to_host(a->memory, (size_t)a->offset * t.item, host, (size_t)t.span_bytes);
    char *staging;
    int rc = staging_alloc(t.span_bytes, &staging);
    if (rc)
        return rc;
    rc = usmarr_memory_copy_to_host(a->memory, (size_t)(a->offset + t.lo) * t.item, staging, (size_t)t.span_bytes);
    if (!rc)
        host_strided_copy(a->ndim, a->shape, host, t.strides, staging + (-t.lo) * (int64_t)t.item, a->strides,
                                  t.item);
    free(staging);
    return rc;
}

static int array_write(usmarr_array_t *a, const void *host, const int64_t *host_strides)
{
    struct host_transfer t;
    if (!host_transfer_plan(a, host_strides, &t))
        return 0;
    size_t item = t.item;
    int64_t lo = t.lo, span_bytes = t.span_bytes;
    host_strides = t.strides;
    if (t.direct)
        return usmarr_memory_copy_from_host(a->memory, (size_t)a->offset * item, host, (size_t)span_bytes);
    char *staging;
    int rc = staging_alloc(span_bytes, &staging);
    if (rc)
        return rc;
    char *origin = staging + (-lo) * (int64_t)item;
    char *device = (char *)a->memory->pointer + (a->offset + lo) * (int64_t)item;
    usmarr_context_t *ctx = a->memory->context;
    if (t.dense) {
        host_strided_copy(a->ndim, a->shape, origin, a->strides, host, host_strides, item);
        rc = usmarr_memory_copy_from_host(a->memory, (size_t)(a->offset + lo) * item, staging, (size_t)span_bytes);
    } else {
        /* Gaps between the elements belong to someone else: read the span, scatter, write
         * it back, holding the queue so no command of this context runs in between. */
        mtx_lock(&ctx->queue_lock);
        rc = device_copy_locked(ctx, staging, device, (size_t)span_bytes);
        if (!rc) {
            host_strided_copy(a->ndim, a->shape, origin, a->strides, host, host_strides, item);
            rc = device_copy_locked(ctx, device, staging, (size_t)span_bytes);
        }
        mtx_unlock(&ctx->queue_lock);
    }
    free(staging);
    return rc;
}

int usmarr_array_copy_to_host(const usmarr_array_t *array, void *host, const int64_t *host_strides)
{
    usmarr__clear_error();
    if (!array || (!host && usmarr_array_size(array) > 0))
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s is NULL", !array ? "array" : "host");
    return usmarr__array_read(array, host, host_strides);
}

int usmarr_array_copy_from_host(usmarr_array_t *array, const void *host, const int64_t *host_strides)
{
    usmarr__clear_error();
    if (!array || (!host && usmarr_array_size(array) > 0))
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s is NULL", !array ? "array" : "host");
    int rc = usmarr__check_writable(array, "array");
    return rc ? rc : array_write(array, host, host_strides);
}

/* ---- creation ------------------------------------------------------------------------ */

static usmarr_usm_kind_t kind_or_default(usmarr_usm_kind_t kind) { return kind ? kind : USMARR_USM_DEVICE; }

static int check_order(usmarr_order_t order, bool allow_ak, usmarr_order_t *out)
{
    if (order == 0)
        order = allow_ak ? USMARR_ORDER_K : USMARR_ORDER_C;
    if (order == USMARR_ORDER_C || order == USMARR_ORDER_F || (allow_ak && (order == USMARR_ORDER_A || order == USMARR_ORDER_K))) {
        *out = order;
        return 0;
    }
    return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "order=%d is not %s", (int)order,
                        allow_ak ? "'C', 'F', 'A' or 'K'" : "'C' or 'F'");
}

static int fill_new(usmarr_array_t *a, usmarr_scalar_t value, const char *argname)
{
    unsigned char pattern[16];
    size_t item = usmarr_dtype_size(a->dtype);
    int rc = usmarr__scalar_store(value, a->dtype, pattern, argname);
    if (rc || a->memory->size == 0)
        return rc;
    return usmarr_memory_fill(a->memory, 0, pattern, item, a->memory->size);
}

int usmarr_array_empty(usmarr_context_t *context, int ndim, const int64_t *shape, usmarr_dtype_t dtype,
                       usmarr_order_t order, usmarr_usm_kind_t kind, usmarr_array_t **array)
{
    usmarr__clear_error();
    if (!array)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "array is NULL");
    int rc = check_order(order, false, &order);
    return rc ? rc : usmarr__array_empty_like_layout(context, dtype, ndim, shape, order, kind_or_default(kind), array);
}

int usmarr_array_full(usmarr_context_t *context, int ndim, const int64_t *shape, usmarr_scalar_t value, int dtype,
                      usmarr_order_t order, usmarr_usm_kind_t kind, usmarr_array_t **array)
{
    usmarr__clear_error();
    if (!array)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "array is NULL");
    if (dtype < 0)
        dtype = usmarr__scalar_default_dtype(value);
    unsigned char probe[16];
    int rc = usmarr__scalar_store(value, (usmarr_dtype_t)dtype, probe, "value"); /* fail before allocating */
    if (!rc)
        rc = check_order(order, false, &order);
    if (!rc)
        rc = usmarr__array_empty_like_layout(context, (usmarr_dtype_t)dtype, ndim, shape, order,
                                             kind_or_default(kind), array);
    if (rc)
        return rc;
    rc = fill_new(*array, value, "value");
    if (rc) {
        usmarr_array_release(*array);
        *array = NULL;
    }
    return rc;
}

int usmarr_array_zeros(usmarr_context_t *context, int ndim, const int64_t *shape, usmarr_dtype_t dtype,
                       usmarr_order_t order, usmarr_usm_kind_t kind, usmarr_array_t **array)
{
    return usmarr_array_full(context, ndim, shape, usmarr_scalar_bool(false), (int)dtype, order, kind, array);
}

int usmarr_array_ones(usmarr_context_t *context, int ndim, const int64_t *shape, usmarr_dtype_t dtype,
                      usmarr_order_t order, usmarr_usm_kind_t kind, usmarr_array_t **array)
{
    return usmarr_array_full(context, ndim, shape, usmarr_scalar_bool(true), (int)dtype, order, kind, array);
}

/* The _like forms; value NULL leaves the elements uninitialised. */
static int like(const usmarr_array_t *proto, const usmarr_scalar_t *value, int dtype, usmarr_order_t order,
                usmarr_usm_kind_t kind, usmarr_array_t **array)
{
    usmarr__clear_error();
    if (!proto || !array)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s is NULL", !proto ? "proto" : "array");
    usmarr_dtype_t dt = dtype < 0 ? proto->dtype : (usmarr_dtype_t)dtype;
    int rc = check_order(order, true, &order);
    unsigned char probe[16];
    if (!rc && value)
        rc = usmarr__scalar_store(*value, dt, probe, "value"); /* fail before allocating */
    if (rc)
        return rc;
    usmarr_usm_kind_t k = kind ? kind : proto->memory->kind;
    if (k == USMARR_USM_UNKNOWN)
        k = USMARR_USM_DEVICE;
    if (order == USMARR_ORDER_A)
        order = (proto->flags & USMARR_FLAG_F_CONTIGUOUS) && !(proto->flags & USMARR_FLAG_C_CONTIGUOUS)
                    ? USMARR_ORDER_F
                    : USMARR_ORDER_C;
    usmarr_context_t *ctx = proto->memory->context;
    if (order == USMARR_ORDER_K) {
        int64_t strides[USMARR_MAX_NDIM], bytes;
        usmarr__strides_like(proto, USMARR_ORDER_K, strides);
        rc = usmarr__check_dtype_supported(ctx, dt, "dtype");
        if (rc)
            return rc;
        if (usmarr__mul_overflow(usmarr_array_size(proto), (int64_t)usmarr_dtype_size(dt), &bytes))
            return usmarr__fail(USMARR_ERROR_OVERFLOW, "array of %lld %s elements overflows 64 bits of bytes",
                                (long long)usmarr_array_size(proto), usmarr_dtype_name(dt));
        usmarr_memory_t *m;
        rc = usmarr_memory_create(ctx, k, (size_t)bytes, 0, &m);
        if (rc)
            return rc;
        rc = usmarr__array_new(m, dt, proto->ndim, proto->shape, strides, 0, USMARR_FLAG_WRITABLE, array);
        usmarr_memory_release(m);
    } else {
        rc = usmarr__array_empty_like_layout(ctx, dt, proto->ndim, proto->shape, order, k, array);
    }
    if (rc)
        return rc;
    if (!value)
        return 0;
    rc = fill_new(*array, *value, "value");
    if (rc) {
        usmarr_array_release(*array);
        *array = NULL;
    }
    return rc;
}

int usmarr_array_full_like(const usmarr_array_t *proto, usmarr_scalar_t value, int dtype, usmarr_order_t order,
                           usmarr_usm_kind_t kind, usmarr_array_t **array)
{
    return like(proto, &value, dtype, order, kind, array);
}

int usmarr_array_empty_like(const usmarr_array_t *proto, int dtype, usmarr_order_t order, usmarr_usm_kind_t kind,
                            usmarr_array_t **array)
{
    return like(proto, NULL, dtype, order, kind, array);
}

int usmarr_array_zeros_like(const usmarr_array_t *proto, int dtype, usmarr_order_t order, usmarr_usm_kind_t kind,
                            usmarr_array_t **array)
{
    usmarr_scalar_t zero = usmarr_scalar_bool(false);
    return like(proto, &zero, dtype, order, kind, array);
}

int usmarr_array_ones_like(const usmarr_array_t *proto, int dtype, usmarr_order_t order, usmarr_usm_kind_t kind,
                           usmarr_array_t **array)
{
    usmarr_scalar_t one = usmarr_scalar_bool(true);
    return like(proto, &one, dtype, order, kind, array);
}

int usmarr_array_from_host(usmarr_context_t *context, int ndim, const int64_t *shape, usmarr_dtype_t dtype,
                           const void *host, const int64_t *host_strides, usmarr_usm_kind_t kind,
                           usmarr_array_t **array)
{
    usmarr__clear_error();
    if (!array)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "array is NULL");
    usmarr_array_t *a;
    int rc = usmarr__array_empty_like_layout(context, dtype, ndim, shape, USMARR_ORDER_C, kind_or_default(kind), &a);
    if (rc)
        return rc;
    if (!host && usmarr_array_size(a) > 0)
        rc = usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "host is NULL");
    if (!rc)
        rc = array_write(a, host, host_strides);
    if (rc) {
        usmarr_array_release(a);
        return rc;
    }
    *array = a;
    return 0;
}

