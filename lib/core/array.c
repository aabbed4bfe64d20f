/* The array descriptor: the constructor, its validation, flags and accessors. */
#include "core_internal.h"

#include <stdlib.h>
#include <string.h>

/* Recomputes C/F contiguity exactly (size-1 dims dropped; zero-size is both). */
static void array_update_flags(usmarr_array_t *a);

int usmarr__layout_span(int ndim, const int64_t *shape, const int64_t *strides, int64_t *min_disp, int64_t *max_disp,
                        int64_t *size, const char *stridename)
{
    int64_t lo = 0, hi = 0, n = 1;
    bool empty = false;
    for (int k = 0; k < ndim; k++) {
        if (shape[k] == 0)
            empty = true;
        else if (usmarr__mul_overflow(n, shape[k], &n))
            return usmarr__fail(USMARR_ERROR_OVERFLOW, "shape[%d]=%lld makes the element count overflow 64 bits", k,
                                (long long)shape[k]);
    }
    if (empty) {
        *min_disp = 0;
        *max_disp = -1;
        *size = 0;
        return 0;
    }
    for (int k = 0; k < ndim; k++) {
        int64_t d;
        if (usmarr__mul_overflow(strides[k], shape[k] - 1, &d) ||
            usmarr__add_overflow(d < 0 ? lo : hi, d, d < 0 ? &lo : &hi))
            return usmarr__fail(USMARR_ERROR_OVERFLOW,
                                "%s[%d]=%lld with shape[%d]=%lld makes the displacement overflow 64 bits", stridename,
                                k, (long long)strides[k], k, (long long)shape[k]);
    }
    *min_disp = lo;
    *max_disp = hi;
    *size = n;
    return 0;
}

bool usmarr__array_span(const usmarr_array_t *a, int64_t *min_disp, int64_t *max_disp)
{
    int64_t lo = 0, hi = -1, size = 0;
    /* Cannot overflow: the array passed the same computation when it was made. */
    if (usmarr__layout_span(a->ndim, a->shape, a->strides, &lo, &hi, &size, "strides") != 0 || size == 0) {
        *min_disp = 0;
        *max_disp = -1;
        return false;
    }
    *min_disp = lo;
    *max_disp = hi;
    return true;
}

static void array_update_flags(usmarr_array_t *a)
{
    unsigned flags = a->flags & ~(unsigned)(USMARR_FLAG_C_CONTIGUOUS | USMARR_FLAG_F_CONTIGUOUS);
    bool empty = false;
    for (int k = 0; k < a->ndim; k++)
        empty |= a->shape[k] == 0;
    if (empty) {
        a->flags = flags | USMARR_FLAG_C_CONTIGUOUS | USMARR_FLAG_F_CONTIGUOUS;
        return;
    }
    bool c = true, f = true;
    int64_t expect = 1;
    for (int k = a->ndim - 1; k >= 0; k--) {
        if (a->shape[k] == 1)
            continue;
        if (a->strides[k] != expect) {
            c = false;
            break;
        }
        expect *= a->shape[k]; /* bounded by the element count, which fits */
    }
    expect = 1;
    for (int k = 0; k < a->ndim; k++) {
        if (a->shape[k] == 1)
            continue;
        if (a->strides[k] != expect) {
            f = false;
            break;
        }
        expect *= a->shape[k];
    }
    a->flags = flags | (c ? USMARR_FLAG_C_CONTIGUOUS : 0u) | (f ? USMARR_FLAG_F_CONTIGUOUS : 0u);
}

int usmarr__contiguous_strides(int ndim, const int64_t *shape, usmarr_order_t order, int64_t *strides)
{
    int64_t step = 1;
    for (int i = 0; i < ndim; i++) {
        int k = order == USMARR_ORDER_F ? i : ndim - 1 - i;
        strides[k] = step;
        /* Zero-size arrays keep the strides of extent 1 there, like NumPy. */
        if (usmarr__mul_overflow(step, shape[k] > 0 ? shape[k] : 1, &step))
            return usmarr__fail(USMARR_ERROR_OVERFLOW, "shape[%d]=%lld makes the element count overflow 64 bits", k,
                                (long long)shape[k]);
    }
    return 0;
}

void usmarr__strides_like(const usmarr_array_t *proto, usmarr_order_t order, int64_t *strides)
{
    int nd = proto->ndim, perm[USMARR_MAX_NDIM];
    bool c = proto->flags & USMARR_FLAG_C_CONTIGUOUS, f = proto->flags & USMARR_FLAG_F_CONTIGUOUS;
    if (order == USMARR_ORDER_A || (order == USMARR_ORDER_K && (c || f || nd <= 1)))
        order = f && !c ? USMARR_ORDER_F : USMARR_ORDER_C;
    for (int d = 0; d < nd; d++)
        perm[d] = order == USMARR_ORDER_F ? nd - 1 - d : d; /* outermost first */
    if (order == USMARR_ORDER_K) /* a stable insertion sort, largest |stride| first */
        for (int i = 1; i < nd; i++) {
            int p = perm[i], j = i;
            for (; j > 0 && llabs(proto->strides[perm[j - 1]]) < llabs(proto->strides[p]); j--)
                perm[j] = perm[j - 1];
            perm[j] = p;
        }
    int64_t step = 1; /* fits: an array of this shape exists */
    for (int i = nd - 1; i >= 0; i--) {
        strides[perm[i]] = step;
        step *= proto->shape[perm[i]] > 0 ? proto->shape[perm[i]] : 1;
    }
}

int usmarr__check_dtype_supported(usmarr_context_t *ctx, usmarr_dtype_t dtype, const char *argname)
{
    if (!usmarr__dtype_valid(dtype))
        return usmarr__fail(USMARR_ERROR_BAD_DTYPE, "%s=%d is not a usmarr_dtype_t", argname, (int)dtype);
    /* float16 is storage-only without cl_khr_fp16 (vload_half/vstore_half are core), so it
     * is always allowed; double arithmetic has no such fallback. */
    if ((dtype == USMARR_FLOAT64 || dtype == USMARR_COMPLEX128) && ctx && !ctx->info.fp64)
        return usmarr__fail(USMARR_ERROR_UNSUPPORTED,
                            "%s=%s needs double precision, which device \"%s\" does not support (no cl_khr_fp64)",
                            argname, usmarr_dtype_name(dtype), ctx->info.device_name);
    return 0;
}

int usmarr__check_writable(const usmarr_array_t *a, const char *argname)
{
    if (!(a->flags & USMARR_FLAG_WRITABLE))
        return usmarr__fail(USMARR_ERROR_READ_ONLY, "%s is a read-only%s array", argname,
                            (a->flags & USMARR_FLAG_IMMUTABLE) ? " (immutable)" : "");
    return 0;
}

int usmarr__check_rank(int ndim, const int64_t *shape)
{
    if (ndim < 0 || ndim > USMARR_MAX_NDIM)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "ndim=%d is outside [0, %d]", ndim, USMARR_MAX_NDIM);
    if (ndim > 0 && !shape)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "shape is NULL with ndim=%d", ndim);
    return 0;
}

static int check_shape(int ndim, const int64_t *shape)
{
    int rc = usmarr__check_rank(ndim, shape);
    if (rc)
        return rc;
    for (int k = 0; k < ndim; k++)
        if (shape[k] < 0)
            return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "shape[%d]=%lld is negative", k, (long long)shape[k]);
    return 0;
}

int usmarr__array_new(usmarr_memory_t *memory, usmarr_dtype_t dtype, int ndim, const int64_t *shape,
                      const int64_t *strides, int64_t offset, unsigned access_flags, usmarr_array_t **out)
{
    if (!memory || !out)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s is NULL", !memory ? "memory" : "out");
    int rc = check_shape(ndim, shape);
    if (rc)
        return rc;
    rc = usmarr__check_dtype_supported(memory->context, dtype, "dtype");
    if (rc)
        return rc;
    int64_t cstrides[USMARR_MAX_NDIM];
    if (!strides) {
        rc = usmarr__contiguous_strides(ndim, shape, USMARR_ORDER_C, cstrides);
        if (rc)
            return rc;
        strides = cstrides;
    }
    int64_t lo, hi, size;
    rc = usmarr__layout_span(ndim, shape, strides, &lo, &hi, &size, "strides");
    if (rc)
        return rc;
    int64_t itemsize = (int64_t)usmarr_dtype_size(dtype);
    if (size > 0) {
        int64_t first, last, end_bytes;
        if (usmarr__add_overflow(offset, lo, &first) || usmarr__add_overflow(offset, hi, &last) ||
            usmarr__add_overflow(last, 1, &last) || usmarr__mul_overflow(last, itemsize, &end_bytes))
            return usmarr__fail(USMARR_ERROR_OVERFLOW, "offset=%lld with displacements [%lld, %lld] overflows 64 bits",
                                (long long)offset, (long long)lo, (long long)hi);
        if (first < 0) {
            int k = -1;
            for (int j = 0; j < ndim && k < 0; j++)
                if (strides[j] < 0 && shape[j] > 1)
                    k = j;
            if (k < 0)
                return usmarr__fail(USMARR_ERROR_OUT_OF_BOUNDS, "offset=%lld is negative", (long long)offset);
            return usmarr__fail(USMARR_ERROR_OUT_OF_BOUNDS,
                                "strides[%d]=%lld with offset %lld reaches element %lld before the buffer", k,
                                (long long)strides[k], (long long)offset, (long long)first);
        }
        if ((uint64_t)end_bytes > (uint64_t)memory->size)
            return usmarr__fail(USMARR_ERROR_OUT_OF_BOUNDS,
                                "offset=%lld with strides reaching element %lld needs %lld bytes but the buffer has %zu",
                                (long long)offset, (long long)(last - 1), (long long)end_bytes, memory->size);
        uintptr_t data = (uintptr_t)memory->pointer + (uintptr_t)(offset * itemsize);
        size_t align = usmarr_dtype_alignment(dtype);
        if (data % align)
            return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT,
                                "data pointer %p (base %p + offset %lld elements) is not %zu-byte aligned for %s",
                                (void *)data, memory->pointer, (long long)offset, align, usmarr_dtype_name(dtype));
    }
    usmarr_array_t *a = calloc(1, sizeof *a);
    if (!a)
        return usmarr__fail(USMARR_ERROR_OUT_OF_HOST_MEMORY, "array descriptor");
    usmarr__ref_init(&a->refcount);
    a->ndim = ndim;
    a->dtype = dtype;
    a->offset = offset;
    for (int k = 0; k < ndim; k++) {
        a->shape[k] = shape[k];
        a->strides[k] = strides[k];
    }
    a->flags = USMARR_FLAG_READABLE;
    if (access_flags & USMARR_FLAG_IMMUTABLE)
        a->flags |= USMARR_FLAG_IMMUTABLE;
    else if (access_flags & USMARR_FLAG_WRITABLE)
        a->flags |= USMARR_FLAG_WRITABLE;
    array_update_flags(a);
    a->memory = usmarr_memory_retain(memory);
    *out = a;
    return 0;
}

int usmarr__array_empty_like_layout(usmarr_context_t *ctx, usmarr_dtype_t dtype, int ndim, const int64_t *shape,
                                    usmarr_order_t order, usmarr_usm_kind_t kind, usmarr_array_t **out)
{
    if (!ctx || !out)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s is NULL", !ctx ? "context" : "out");
    if (order != USMARR_ORDER_C && order != USMARR_ORDER_F)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "order='%c' is not 'C' or 'F'", (char)order);
    int rc = check_shape(ndim, shape);
    if (!rc)
        rc = usmarr__check_dtype_supported(ctx, dtype, "dtype");
    if (rc)
        return rc;
    int64_t strides[USMARR_MAX_NDIM], lo, hi, size, bytes;
    rc = usmarr__contiguous_strides(ndim, shape, order, strides);
    if (!rc)
        rc = usmarr__layout_span(ndim, shape, strides, &lo, &hi, &size, "strides");
    if (rc)
        return rc;
    if (usmarr__mul_overflow(size, (int64_t)usmarr_dtype_size(dtype), &bytes))
        return usmarr__fail(USMARR_ERROR_OVERFLOW, "%lld elements of %s overflow 64 bits of bytes", (long long)size,
                            usmarr_dtype_name(dtype));
    usmarr_memory_t *m;
    rc = usmarr_memory_create(ctx, kind, (size_t)bytes, 0, &m);
    if (rc)
        return rc;
    rc = usmarr__array_new(m, dtype, ndim, shape, strides, 0, USMARR_FLAG_WRITABLE, out);
    usmarr_memory_release(m);
    return rc;
}

/* A freshly allocated layout must not alias: sorted by |stride|, each axis of extent > 1
 * steps past everything the smaller axes reach.  (Sufficient, not necessary, for
 * uniqueness; exactly the padded permutations of C/F layouts pass.)  The caller checked that
 * the span fits in 64 bits, which bounds every sum of |stride| * (extent - 1) here. */
static int check_no_aliasing(int ndim, const int64_t *shape, const int64_t *strides)
{
    int order[USMARR_MAX_NDIM], n = 0;
    for (int k = 0; k < ndim; k++) {
        if (shape[k] == 0)
            return 0;
        if (shape[k] > 1)
            order[n++] = k;
    }
    for (int i = 1; i < n; i++) /* insertion sort by |stride| */
        for (int j = i; j > 0 && llabs(strides[order[j]]) < llabs(strides[order[j - 1]]); j--) {
            int t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
    int64_t reach = 0; /* sum |stride|*(extent-1) of the axes so far: at most the span, which fits */
    for (int i = 0; i < n; i++) {
        int k = order[i];
        int64_t s = strides[k] < 0 ? -strides[k] : strides[k];
        if (s <= reach)
            return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT,
                                "strides[%d]=%lld with shape[%d]=%lld makes elements alias in a new allocation "
                                "(|stride| must exceed %lld, the reach of the smaller strides)",
                                k, (long long)strides[k], k, (long long)shape[k], (long long)reach);
        reach += s * (shape[k] - 1);
    }
    return 0;
}

int usmarr_array_create(const usmarr_array_options_t *o, usmarr_array_t **out)
{
    usmarr__clear_error();
    if (!o || !out)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s is NULL", !o ? "options" : "array");
    int rc = check_shape(o->ndim, o->shape);
    if (rc)
        return rc;
    usmarr_dtype_t dtype = o->dtype;
    if (o->typestr) {
        rc = usmarr_dtype_from_typestr(o->typestr, &dtype);
        if (rc)
            return rc;
    } else if (!usmarr__dtype_valid(dtype)) {
        return usmarr__fail(USMARR_ERROR_BAD_DTYPE, "dtype=%d is not a usmarr_dtype_t", (int)dtype);
    }
    usmarr_order_t order = o->order ? o->order : USMARR_ORDER_C;
    if (order != USMARR_ORDER_C && order != USMARR_ORDER_F)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "order=%d is not USMARR_ORDER_C or USMARR_ORDER_F",
                            (int)o->order);
    unsigned access = o->immutable ? USMARR_FLAG_IMMUTABLE : o->read_only ? 0u : USMARR_FLAG_WRITABLE;

    int64_t strides[USMARR_MAX_NDIM], lo, hi, size;
    if (o->strides) {
        for (int k = 0; k < o->ndim; k++)
            strides[k] = o->strides[k];
    } else {
        rc = usmarr__contiguous_strides(o->ndim, o->shape, order, strides);
        if (rc)
            return rc;
    }
    rc = usmarr__layout_span(o->ndim, o->shape, strides, &lo, &hi, &size, "strides");
    if (rc)
        return rc;

    usmarr_memory_t *memory = NULL; /* our reference */
    switch (o->buffer) {
    case USMARR_BUFFER_DEVICE:
    case USMARR_BUFFER_SHARED:
    case USMARR_BUFFER_HOST: {
        if (!o->context)
            return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "context is NULL (needed to allocate)");
        if (o->offset != 0)
            return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT,
                                "offset=%lld must be 0 when the constructor allocates (it is computed from the strides)",
                                (long long)o->offset);
        if (o->alignment & (o->alignment - 1))
            return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "alignment=%zu is not a power of two", o->alignment);
        rc = usmarr__check_dtype_supported(o->context, dtype, o->typestr ? "typestr" : "dtype");
        if (rc)
            return rc;
        /* lo and hi fit separately, but the span between them may not (strides of both signs). */
        int64_t elements = 0, bytes;
        if (size > 0 && (__builtin_sub_overflow(hi, lo, &elements) || usmarr__add_overflow(elements, 1, &elements)))
            return usmarr__fail(USMARR_ERROR_OVERFLOW,
                                "strides reach from element %lld to %lld, a span that overflows 64 bits", (long long)lo,
                                (long long)hi);
        if (o->strides && (rc = check_no_aliasing(o->ndim, o->shape, strides)))
            return rc;
        if (usmarr__mul_overflow(elements, (int64_t)usmarr_dtype_size(dtype), &bytes))
            return usmarr__fail(USMARR_ERROR_OVERFLOW, "a span of %lld elements of %s overflows 64 bits of bytes",
                                (long long)elements, usmarr_dtype_name(dtype));
        usmarr_usm_kind_t kind = o->buffer == USMARR_BUFFER_DEVICE   ? USMARR_USM_DEVICE
                                 : o->buffer == USMARR_BUFFER_SHARED ? USMARR_USM_SHARED
                                                                     : USMARR_USM_HOST;
        rc = usmarr_memory_create(o->context, kind, (size_t)bytes, o->alignment, &memory);
        if (rc)
            return rc;
        rc = usmarr__array_new(memory, dtype, o->ndim, o->shape, strides, size > 0 ? -lo : 0, access, out);
        usmarr_memory_release(memory);
        return rc;
    }
    case USMARR_BUFFER_MEMORY:
    case USMARR_BUFFER_ARRAY:
        break;
    default:
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "buffer=%d is not a usmarr_buffer_t", (int)o->buffer);
    }

    usmarr_memory_t *source;
    if (o->buffer == USMARR_BUFFER_MEMORY) {
        if (!o->memory)
            return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "memory is NULL with buffer=USMARR_BUFFER_MEMORY");
        source = o->memory;
    } else {
        if (!o->array)
            return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "array is NULL with buffer=USMARR_BUFFER_ARRAY");
        source = o->array->memory;
        /* Reusing a read-only array's block must not grant write access; immutability,
         * inherited or promised in the options, stays. */
        if (!o->copy && !(o->array->flags & USMARR_FLAG_WRITABLE))
            access = (access | o->array->flags) & USMARR_FLAG_IMMUTABLE;
    }
    if (o->context && o->context->cl != source->context->cl)
        return usmarr__fail(USMARR_ERROR_CONTEXT_MISMATCH, "context and the %s's block belong to different OpenCL "
                                                           "contexts",
                            o->buffer == USMARR_BUFFER_MEMORY ? "memory" : "array");
    if (o->copy) {
        rc = usmarr_memory_create(source->context, source->kind, source->size, o->alignment, &memory);
        if (rc)
            return rc;
        rc = usmarr_memory_copy(memory, 0, source, 0, source->size);
        if (!rc)
            rc = usmarr__array_new(memory, dtype, o->ndim, o->shape, strides, o->offset, access, out);
        usmarr_memory_release(memory);
        return rc;
    }
    return usmarr__array_new(source, dtype, o->ndim, o->shape, strides, o->offset, access, out);
}

usmarr_array_t *usmarr_array_retain(usmarr_array_t *a) { return USMARR__RETAIN(a); }

void usmarr_array_release(usmarr_array_t *a)
{
    if (!USMARR__RELEASE_LAST(a))
        return;
    usmarr_memory_release(a->memory);
    free(a);
}

int usmarr_array_refcount(const usmarr_array_t *a)
{
    return USMARR__REFCOUNT(a);
}

int usmarr_array_make_read_only(usmarr_array_t *a)
{
    usmarr__clear_error();
    if (!a)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "array is NULL");
    a->flags &= ~(unsigned)USMARR_FLAG_WRITABLE;
    return 0;
}

int usmarr_array_ndim(const usmarr_array_t *a) { return a ? a->ndim : -1; }
const int64_t *usmarr_array_shape(const usmarr_array_t *a) { return a ? a->shape : NULL; }
const int64_t *usmarr_array_strides(const usmarr_array_t *a) { return a ? a->strides : NULL; }
int64_t usmarr_array_offset(const usmarr_array_t *a) { return a ? a->offset : 0; }
usmarr_dtype_t usmarr_array_dtype(const usmarr_array_t *a) { return a ? a->dtype : USMARR_DTYPE_COUNT; }
size_t usmarr_array_itemsize(const usmarr_array_t *a) { return a ? usmarr_dtype_size(a->dtype) : 0; }
unsigned usmarr_array_flags(const usmarr_array_t *a) { return a ? a->flags : 0; }
usmarr_memory_t *usmarr_array_memory(const usmarr_array_t *a) { return a ? a->memory : NULL; }
usmarr_context_t *usmarr_array_context(const usmarr_array_t *a) { return a ? a->memory->context : NULL; }
usmarr_usm_kind_t usmarr_array_usm_kind(const usmarr_array_t *a) { return a ? a->memory->kind : USMARR_USM_UNKNOWN; }

int64_t usmarr_array_size(const usmarr_array_t *a)
{
    if (!a)
        return 0;
    int64_t n = 1;
    for (int k = 0; k < a->ndim; k++)
        if (a->shape[k] == 0)
            return 0;
    for (int k = 0; k < a->ndim; k++)
        n *= a->shape[k]; /* fits: checked at construction */
    return n;
}

int64_t usmarr_array_nbytes(const usmarr_array_t *a)
{
    return usmarr_array_size(a) * (int64_t)usmarr_array_itemsize(a);
}

void *usmarr_array_data(const usmarr_array_t *a)
{
    if (!a || !a->memory->pointer)
        return NULL;
    return (char *)a->memory->pointer + a->offset * (int64_t)usmarr_dtype_size(a->dtype);
}

const char *usmarr__format_shape(int ndim, const int64_t *shape, char *buf, size_t size)
{
    size_t n = 0;
    buf[0] = 0;
    n += (size_t)snprintf(buf + n, size - n, "(");
    for (int k = 0; k < ndim && n < size; k++) {
        if (n + 24 >= size) {
            snprintf(buf + n, size - n, "...");
            n = size;
            break;
        }
        n += (size_t)snprintf(buf + n, size - n, k ? ", %lld" : "%lld", (long long)shape[k]);
    }
    if (n < size)
        snprintf(buf + n, size - n, ndim == 1 ? ",)" : ")");
    return buf;
}

int usmarr__normalize_axis(int axis, int ndim, const char *argname, int *out)
{
    if (axis < -ndim || axis >= ndim)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s=%d is out of bounds for an array of dimension %d",
                            argname, axis, ndim);
    *out = axis < 0 ? axis + ndim : axis;
    return 0;
}

int usmarr__axes_mask(int ndim, int naxes, const int *axes, const char *fn, const char *name, bool *mask, int *norm)
{
    const char *colon = fn ? ": " : "";
    fn = fn ? fn : "";
    for (int d = 0; d < ndim; d++)
        mask[d] = !axes;
    if (!axes)
        return 0;
    if (naxes < 0 || naxes > ndim)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s%snaxes=%d is outside [0, ndim=%d]", fn, colon, naxes, ndim);
    for (int i = 0; i < naxes; i++) {
        int a = axes[i] < 0 ? axes[i] + ndim : axes[i];
        if (a < 0 || a >= ndim)
            return usmarr__fail(USMARR_ERROR_INDEX, "%s%s%s[%d]=%d is out of range for %d dims", fn, colon, name, i,
                                axes[i], ndim);
        if (mask[a])
            return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s%s%s[%d]=%d repeats an axis", fn, colon, name, i,
                                axes[i]);
        mask[a] = true;
        if (norm)
            norm[i] = a;
    }
    return 0;
}

int usmarr__shape_size(int ndim, const int64_t *shape, int64_t *size)
{
    int64_t n = 1;
    for (int k = 0; k < ndim; k++)
        if (usmarr__mul_overflow(n, shape[k], &n))
            return usmarr__fail(USMARR_ERROR_OVERFLOW, "shape[%d]=%lld makes the element count overflow 64 bits", k,
                                (long long)shape[k]);
    *size = n;
    return 0;
}
