/* Storages over existing memory: GT4Py's `as_storage` (wrap, never a copy) and
 * `storage` (copy into a new aligned storage, or wrap).  Wrapped memory must be USM of
 * the context, checked with the allocation query, because kernels must reach it; only a
 * copy may read plain host memory. */
#include "storage_internal.h"

#include <stdlib.h>
#include <string.h>

/* What one buffer argument is, once looked at. */
struct buffer {
    const char *name;             /* "data" or "device_data" */
    const usmarr_storage_buffer_t *arg;
    usmarr_usm_kind_t usm;        /* USMARR_USM_UNKNOWN: plain host memory */
};

static int check_buffer_arg(const usmarr_storage_buffer_t *b, const char *name)
{
    if (b && !b->array && !b->pointer)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s has neither an array nor a pointer", name);
    return 0;
}

/* The USM kind of a buffer; plain host memory is UNKNOWN (an error unless `copy`). */
static int buffer_kind(usmarr_context_t *ctx, struct buffer *b, bool copy)
{
    if (b->arg->array) {
        b->usm = b->arg->array->memory->kind;
        return 0;
    }
    if (!ctx)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "options.context is NULL: needed to check %s.pointer",
                            b->name);
    cl_unified_shared_memory_type_intel type = CL_MEM_TYPE_UNKNOWN_INTEL;
    cl_int err = ctx->usm.alloc_info(ctx->cl, b->arg->pointer, CL_MEM_ALLOC_TYPE_INTEL, sizeof type, &type, NULL);
    b->usm = err != CL_SUCCESS                     ? USMARR_USM_UNKNOWN
             : type == CL_MEM_TYPE_HOST_INTEL   ? USMARR_USM_HOST
             : type == CL_MEM_TYPE_DEVICE_INTEL ? USMARR_USM_DEVICE
             : type == CL_MEM_TYPE_SHARED_INTEL ? USMARR_USM_SHARED
                                                : USMARR_USM_UNKNOWN;
    if (b->usm == USMARR_USM_UNKNOWN && !copy)
        return usmarr__fail(USMARR_ERROR_FOREIGN_POINTER,
                            "%s.pointer=%p is not a USM allocation of this context (wrapping never copies; "
                            "usmarr_storage_from() with copy true reads plain host memory)",
                            b->name, b->arg->pointer);
    return 0;
}

/* The second source of parameters: the first array among the buffers, and the kind the
 * buffers imply (both: a managed pair; one: by its USM kind). */
static void buffer_source(const usmarr_storage_options_t *o, const struct buffer *bufs, int n,
                          struct usmarr__storage_source *src, char layout[4])
{
    memset(src, 0, sizeof *src);
    src->dtype = -1;
    src->ndim = -1;
    const char *axes = o->axes ? o->axes : "IJK";
    bool axes_ok = !usmarr__storage_check_axes(axes, "axes");
    usmarr__clear_error(); /* a bad axes string is reported by the resolution */
    for (int i = 0; i < n; i++) {
        const usmarr_array_t *a = bufs[i].arg->array;
        if (a && !src->context) {
            src->context = a->memory->context;
            src->dtype = (int)a->dtype;
            src->ndim = a->ndim;
            src->shape = a->shape;
        }
        /* The layout the first buffer's strides describe (a pointer's when given). */
        const int64_t *strides = a ? a->strides : bufs[i].arg->strides;
        int nd = a ? a->ndim : (int)strlen(axes);
        if (!src->layout && strides && axes_ok && strlen(axes) == (size_t)nd) {
            usmarr__storage_layout_from_strides(axes, strides, layout);
            src->layout = layout;
        }
    }
    if (n == 2) {
        src->device = 1;
        src->managed = USMARR__MANAGED_GT4PY;
    } else if (bufs[0].usm == USMARR_USM_SHARED) {
        src->device = 1;
        src->managed = USMARR__MANAGED_CUDA;
    } else if (bufs[0].usm == USMARR_USM_DEVICE) {
        src->device = 1;
        src->managed = USMARR__MANAGED_NONE;
    }
}

/* Dense strides in layout order (no padding), for a pointer given without strides. */
static void dense_strides(const struct usmarr__storage_params *p, int64_t *strides)
{
    int64_t step = 1;
    for (int l = 2; l >= 0; l--) {
        const char *q = strchr(p->axes, p->layout[l]);
        if (!q)
            continue;
        int k = (int)(q - p->axes);
        strides[k] = step;
        step *= p->shape[k] > 0 ? p->shape[k] : 1; /* fits: the span check comes next */
    }
}

static int check_aligned_element(const struct usmarr__storage_params *p, const usmarr_array_t *a, const char *name)
{
    if (p->alignment <= 1 || usmarr_array_size(a) == 0)
        return 0;
    uintptr_t addr = (uintptr_t)usmarr_array_data(a);
    for (int k = 0; k < p->ndim; k++)
        addr += (uintptr_t)(p->aligned_index[k] * a->strides[k] * (int64_t)usmarr_dtype_size(p->dtype));
    if (addr % (uintptr_t)p->alignment)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT,
                            "%s: the element at the aligned index is at %p, not on an alignment=%lld byte boundary",
                            name, (void *)addr, (long long)p->alignment);
    return 0;
}

/* An array over a buffer as the storage describes it (a view of an array, or the USM
 * range a pointer covers), after checking it against the parameters.  `strict` (wrap)
 * also checks the strides against the layout and the aligned element. */
static int side_array(const struct usmarr__storage_params *p, const struct buffer *b, bool strict,
                      usmarr_array_t **out)
{
    const usmarr_array_t *a = b->arg->array;
    int rc;
    if (a) {
        if (a->memory->context->cl != p->context->cl)
            return usmarr__fail(USMARR_ERROR_CONTEXT_MISMATCH, "%s.array belongs to another context", b->name);
        if (strict && a->dtype != p->dtype)
            return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s.array is %s, contrary to options.dtype=%s",
                                b->name, usmarr_dtype_name(a->dtype), usmarr_dtype_name(p->dtype));
        bool same = a->ndim == p->ndim;
        for (int k = 0; same && k < p->ndim; k++)
            same = a->shape[k] == p->shape[k];
        if (!same) {
            char s1[USMARR__SHAPE_BUF], s2[USMARR__SHAPE_BUF];
            return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s.array has shape %s, contrary to options.shape=%s "
                                                               "(axes \"%s\")",
                                b->name, usmarr__format_shape(a->ndim, a->shape, s1, sizeof s1),
                                usmarr__format_shape(p->ndim, p->shape, s2, sizeof s2), p->axes);
        }
        char what[32];
        snprintf(what, sizeof what, "%s.array strides", b->name);
        if (strict && (rc = usmarr__storage_check_strides(p->axes, p->layout, p->shape, a->strides, what)))
            return rc;
        rc = usmarr__view_new(a, a->dtype, a->ndim, a->shape, a->strides, a->offset, false, out);
    } else {
        int64_t strides[USMARR_STORAGE_MAX_NDIM], lo, hi, size;
        char what[32];
        snprintf(what, sizeof what, "%s.strides", b->name);
        if (b->arg->strides)
            memcpy(strides, b->arg->strides, (size_t)p->ndim * sizeof *strides);
        else
            dense_strides(p, strides);
        if ((rc = usmarr__layout_span(p->ndim, p->shape, strides, &lo, &hi, &size, what)))
            return rc;
        if (strict && (rc = usmarr__storage_check_strides(p->axes, p->layout, p->shape, strides, what)))
            return rc;
        int64_t item = (int64_t)usmarr_dtype_size(p->dtype), begin, bytes;
        if (usmarr__mul_overflow(lo, item, &begin) || usmarr__mul_overflow(size ? hi - lo + 1 : 0, item, &bytes))
            return usmarr__fail(USMARR_ERROR_OVERFLOW, "%s: the span overflows 64 bits of bytes", what);
        char *first = (char *)b->arg->pointer + begin;
        usmarr_memory_t *m;
        snprintf(what, sizeof what, "%s.pointer", b->name);
        if ((rc = usmarr__usm_check_range(p->context, first, (size_t)bytes, what, NULL)))
            return rc;
        if ((rc = usmarr_memory_wrap(p->context, first, (size_t)bytes, NULL, NULL, &m)))
            return rc;
        rc = usmarr__array_new(m, p->dtype, p->ndim, p->shape, strides, -lo, USMARR_FLAG_WRITABLE, out);
        usmarr_memory_release(m);
    }
    if (!rc && strict && (rc = check_aligned_element(p, *out, b->name))) {
        usmarr_array_release(*out);
        *out = NULL;
    }
    return rc;
}

/* Which memory each kind accepts: the host side must be host-accessible; a shared
 * storage is one USM shared allocation; a device side may be any USM of the context. */
static int check_kinds(usmarr_storage_kind_t kind, const struct buffer *bufs, int n)
{
    static const char *names[] = {"host", "device", "shared", "managed"};
    int want = kind == USMARR_STORAGE_MANAGED ? 2 : 1;
    if (n != want)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT,
                            "a %s storage wraps %s, but %s given (options.device/managed or the preset decide the kind)",
                            names[kind - 1], want == 2 ? "both data and device_data" : "one buffer",
                            n == 2 ? "both were" : "one was");
    for (int i = 0; i < n; i++) {
        bool host_side = kind == USMARR_STORAGE_HOST || (kind == USMARR_STORAGE_MANAGED && i == 0);
        usmarr_usm_kind_t u = bufs[i].usm;
        if ((host_side && u == USMARR_USM_DEVICE) || (kind == USMARR_STORAGE_SHARED && u != USMARR_USM_SHARED))
            return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s is USM %s memory, which a %s storage's %s cannot use",
                                bufs[i].name, usmarr_usm_kind_name(u), names[kind - 1],
                                host_side ? "host side" : "buffer");
    }
    return 0;
}

static bool laid_out_alike(const usmarr_array_t *a, const usmarr_array_t *b)
{
    for (int k = 0; k < a->ndim; k++)
        if (a->shape[k] > 1 && a->strides[k] != b->strides[k])
            return false;
    return true;
}

/* [begin, begin+bytes) of a side's elements. */
static void side_range(const usmarr_array_t *a, char **begin, size_t *bytes)
{
    int64_t lo, hi, item = (int64_t)usmarr_dtype_size(a->dtype);
    if (!usmarr__array_span(a, &lo, &hi)) {
        *begin = usmarr_array_data(a);
        *bytes = 0;
        return;
    }
    *begin = (char *)usmarr_array_data(a) + lo * item;
    *bytes = (size_t)((hi - lo + 1) * item);
}

/* A given sync state must be alive and cover both sides at the same relative place. */
static int check_sync_state(usmarr_sync_state_t *st, const usmarr_array_t *host, const usmarr_array_t *device)
{
    char *h, *d;
    size_t hb, db;
    side_range(host, &h, &hb);
    side_range(device, &d, &db);
    (void)db; /* laid out alike: as many bytes as hb */
    mtx_lock(&st->lock);
    uintptr_t hoff = (uintptr_t)h - (uintptr_t)st->host_begin, doff = (uintptr_t)d - (uintptr_t)st->device_begin;
    int rc = 0;
    if (atomic_load_explicit(&st->storages, memory_order_acquire) == 0)
        rc = usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "sync_state: every storage of its pair was released");
    else if ((uintptr_t)h < (uintptr_t)st->host_begin || (uintptr_t)d < (uintptr_t)st->device_begin ||
             hoff != doff || hb > st->span_bytes || hoff > st->span_bytes - hb)
        rc = usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT,
                          "sync_state belongs to another pair: data and device_data are not inside its buffers at "
                          "the same place");
    mtx_unlock(&st->lock);
    return rc;
}

static int wrap_sides(const struct usmarr__storage_params *p, const struct buffer *bufs, int n,
                      usmarr_sync_state_t *given, usmarr_sync_t sync, usmarr_storage_t **out)
{
    usmarr_array_t *sides[2] = {NULL, NULL};
    usmarr_sync_state_t *fresh = NULL;
    int rc = check_kinds(p->kind, bufs, n);
    if (!rc && given && p->kind != USMARR_STORAGE_MANAGED)
        rc = usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "sync_state is given, but only a managed pair has one");
    for (int i = 0; i < n && !rc; i++)
        rc = side_array(p, &bufs[i], true, &sides[i]);
    if (!rc && n == 2 && !laid_out_alike(sides[0], sides[1]))
        rc = usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "data and device_data are laid out differently (strides)");
    if (!rc && n == 2 && given)
        rc = check_sync_state(given, sides[0], sides[1]);
    if (!rc && n == 2 && !given) {
        char *h, *d;
        size_t bytes;
        side_range(sides[0], &h, &bytes);
        side_range(sides[1], &d, &bytes);
        rc = usmarr__sync_state_new(sync, h, d, bytes, &fresh);
    }
    if (rc) {
        usmarr_array_release(sides[0]);
        usmarr_array_release(sides[1]);
        return rc;
    }
    usmarr_array_t *host = p->kind == USMARR_STORAGE_DEVICE ? NULL : sides[0];
    usmarr_array_t *device = p->kind == USMARR_STORAGE_MANAGED  ? sides[1]
                             : p->kind == USMARR_STORAGE_DEVICE ? sides[0]
                             : p->kind == USMARR_STORAGE_SHARED ? usmarr_array_retain(sides[0])
                                                                : NULL;
    rc = usmarr__storage_assemble(p, host, device, given ? given : fresh, out);
    usmarr_sync_state_release(fresh);
    return rc;
}

/* Argument checks and parameter resolution shared by wrap and from. */
static int prepare(const usmarr_storage_options_t *o, const usmarr_storage_buffer_t *data,
                   const usmarr_storage_buffer_t *device_data, bool copy, struct buffer *bufs, int *n,
                   struct usmarr__storage_params *p)
{
    int rc = check_buffer_arg(data, "data");
    if (!rc)
        rc = check_buffer_arg(device_data, "device_data");
    if (rc)
        return rc;
    *n = 0;
    if (data)
        bufs[(*n)++] = (struct buffer){"data", data, USMARR_USM_UNKNOWN};
    if (device_data)
        bufs[(*n)++] = (struct buffer){"device_data", device_data, USMARR_USM_UNKNOWN};
    usmarr_context_t *ctx = o->context;
    for (int i = 0; i < *n && !ctx; i++)
        if (bufs[i].arg->array)
            ctx = bufs[i].arg->array->memory->context;
    for (int i = 0; i < *n; i++)
        if ((rc = buffer_kind(ctx, &bufs[i], copy)))
            return rc;
    struct usmarr__storage_source src;
    char layout[4];
    buffer_source(o, bufs, *n, &src, layout);
    return usmarr__storage_resolve(o, &src, p);
}

int usmarr_storage_wrap(const usmarr_storage_options_t *options, const usmarr_storage_buffer_t *data,
                        const usmarr_storage_buffer_t *device_data, usmarr_sync_state_t *sync_state,
                        usmarr_sync_t sync, usmarr_storage_t **storage)
{
    usmarr__clear_error();
    if (!options || !storage)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s is NULL", !options ? "options" : "storage");
    if (!data && !device_data)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "data and device_data are NULL: nothing to wrap");
    if (sync != USMARR_SYNC_CLEAN && sync != USMARR_SYNC_HOST_DIRTY && sync != USMARR_SYNC_DEVICE_DIRTY)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "sync=%d is not a usmarr_sync_t", (int)sync);
    struct buffer bufs[2];
    struct usmarr__storage_params p;
    int n, rc = prepare(options, data, device_data, false, bufs, &n, &p);
    return rc ? rc : wrap_sides(&p, bufs, n, sync_state, sync, storage);
}

/* Copies one buffer into a side of a new storage: arrays and USM through the engine
 * (any dtype converts), plain host memory through a host transfer. */
static int copy_into_side(const struct usmarr__storage_params *p, const struct buffer *b, usmarr_array_t *side)
{
    usmarr_array_t *src = NULL;
    int rc;
    if (b->usm == USMARR_USM_UNKNOWN) {
        int64_t strides[USMARR_STORAGE_MAX_NDIM];
        if (b->arg->strides)
            memcpy(strides, b->arg->strides, (size_t)p->ndim * sizeof *strides);
        else
            dense_strides(p, strides);
        return usmarr_array_copy_from_host(side, b->arg->pointer, strides);
    }
    if ((rc = side_array(p, b, false, &src)))
        return rc;
    rc = usmarr_array_copy_into(side, src);
    usmarr_array_release(src);
    return rc;
}

int usmarr_storage_from(const usmarr_storage_options_t *options, const usmarr_storage_buffer_t *data,
                        const usmarr_storage_buffer_t *device_data, bool copy, usmarr_storage_t **storage)
{
    usmarr__clear_error();
    if (!options || !storage)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s is NULL", !options ? "options" : "storage");
    if (!data && !device_data)
        return usmarr_storage_empty(options, storage);
    if (!copy)
        return usmarr_storage_wrap(options, data, device_data, NULL, USMARR_SYNC_CLEAN, storage);
    struct buffer bufs[2];
    struct usmarr__storage_params p;
    int n, rc = prepare(options, data, device_data, true, bufs, &n, &p);
    usmarr_storage_t *s = NULL;
    if (!rc)
        rc = usmarr__storage_allocate(&p, &s);
    if (rc)
        return rc;
    /* A managed pair: data fills the host side, device_data the device side; with one
     * of them the pair is marked dirty on the side written (the other side is copied
     * when it is needed).  Other kinds: the one side from data, else device_data. */
    if (s->kind == USMARR_STORAGE_MANAGED) {
        if (data)
            rc = copy_into_side(&p, &bufs[0], s->host);
        if (!rc && device_data)
            rc = copy_into_side(&p, &bufs[n - 1], s->device);
        if (!rc && n == 1)
            usmarr__storage_mark(s, data ? USMARR_SYNC_HOST_DIRTY : USMARR_SYNC_DEVICE_DIRTY);
    } else {
        rc = copy_into_side(&p, &bufs[0], s->host ? s->host : s->device); /* data first */
    }
    if (rc) {
        usmarr_storage_release(s);
        return rc;
    }
    *storage = s;
    return 0;
}
