/* diagonal (a view, index/'s machinery) and trace (a sum over that view); doc/linalg.md.
 * Also the one-launch vector products' launcher and the stride test they share (matmul.c,
 * products.c). */
#include "linalg_internal.h"

#include <stdio.h>

/* linalg_internal.h: work-groups of up to 128 items, fewer while that leaves under 4 groups
 * a compute unit (powers of two: PoCL compiles a function for each local size).  Groups of
 * 128 rows took 0.75-0.85 of the time groups of 8 took on PoCL (2048 x 2048 float32 @ v,
 * under load); Intel's runtime was indifferent. */
int usmarr__vector_launch(usmarr_context_t *ctx, usmarr_dtype_t dt, const char *kernel, int64_t items, int nargs,
                          const struct usmarr__karg *args)
{
    char defines[48];
    snprintf(defines, sizeof defines, "-DD0=%s -DPV_KERNELS", usmarr__dtype_tag(dt));
    usmarr__kernel_t *k = NULL;
    int rc = usmarr__kernel_get(ctx, "linalg", defines, kernel, &k);
    if (rc || items <= 0)
        return rc;
    size_t group = 128;
    while (group > 1 && (group > ctx->profile.max_group || items < (int64_t)group * 4 * ctx->profile.compute_units))
        group /= 2;
    size_t global[1] = {((size_t)items + group - 1) / group * group}, local[1] = {group};
    return usmarr__kernel_launch(ctx, k, nargs, args, 1, global, local);
}

/* linalg_internal.h */
bool usmarr__dims_stride(const usmarr_array_t *x, int skip, int64_t *stride)
{
    int64_t step = 0, expect = 0;
    bool first = true;
    for (int d = x->ndim - 1; d >= 0; d--) {
        if (d == skip || x->shape[d] == 1)
            continue;
        if (first) {
            step = x->strides[d];
            first = false;
        } else if (x->strides[d] != expect) {
            return false;
        }
        expect = x->strides[d] * x->shape[d];
    }
    *stride = step;
    return true;
}

int usmarr_linalg_diagonal(const usmarr_array_t *x, int64_t offset, usmarr_array_t **view)
{
    usmarr__clear_error();
    if (!x || !view)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "diagonal: %s is NULL", x ? "view" : "x");
    if (x->ndim < 2)
        return usmarr__fail(USMARR_ERROR_SHAPE_MISMATCH, "diagonal: x has %d dims; it needs at least 2", x->ndim);
    int nb = x->ndim - 2;
    int64_t rows = x->shape[nb], cols = x->shape[nb + 1], start = x->offset, length;
    int64_t shape[USMARR_MAX_NDIM], strides[USMARR_MAX_NDIM];
    /* elements (i, i + offset): rows from max(0, -offset), columns from max(0, offset) */
    if (offset >= 0) {
        length = offset >= cols ? 0 : (rows < cols - offset ? rows : cols - offset);
        if (length)
            start += offset * x->strides[nb + 1];
    } else {
        length = -offset >= rows ? 0 : (rows + offset < cols ? rows + offset : cols);
        if (length)
            start += -offset * x->strides[nb];
    }
    for (int d = 0; d < nb; d++) {
        shape[d] = x->shape[d];
        strides[d] = x->strides[d];
    }
    shape[nb] = length;
    strides[nb] = x->strides[nb] + x->strides[nb + 1];
    return usmarr__view_new(x, x->dtype, nb + 1, shape, strides, length ? start : x->offset, false, view);
}

/* The sums of the diagonals d (batch..., n) in one launch of usmarr_diagsum: float32 or
 * float64 summed in its own dtype into a new array, the batch dims of d one stride; false
 * (nothing done) where that does not apply. */
static bool trace_kernel(const usmarr_array_t *d, int dtype, usmarr_array_t *out, usmarr_array_t **result, int *rc)
{
    usmarr_dtype_t dt = d->dtype;
    int64_t sz = 0;
    if (out || (dt != USMARR_FLOAT32 && dt != USMARR_FLOAT64) || (dtype != -1 && dtype != (int)dt) ||
        !usmarr__dims_stride(d, d->ndim - 1, &sz))
        return false;
    usmarr_context_t *ctx = d->memory->context;
    usmarr_array_t *r = NULL;
    *rc = usmarr__array_empty_like_layout(ctx, dt, d->ndim - 1, d->shape, USMARR_ORDER_C,
                                          d->memory->kind == USMARR_USM_UNKNOWN ? USMARR_USM_DEVICE : d->memory->kind,
                                          &r);
    if (!*rc) {
        cl_long n = d->shape[d->ndim - 1], sd = d->strides[d->ndim - 1], zs = sz, count = usmarr_array_size(r);
        const struct usmarr__karg args[] = {USMARR__ARG_PTR(usmarr_array_data(r)), USMARR__ARG_PTR(usmarr_array_data(d)),
                                            USMARR__ARG(n), USMARR__ARG(sd), USMARR__ARG(zs), USMARR__ARG(count)};
        *rc = usmarr__vector_launch(ctx, dt, "usmarr_diagsum", count, USMARR__NARGS(args), args);
    }
    if (*rc)
        usmarr_array_release(r);
    else
        *result = r;
    return true;
}

int usmarr_linalg_trace(const usmarr_array_t *x, int64_t offset, int dtype, usmarr_array_t *out,
                        usmarr_array_t **result)
{
    usmarr__clear_error();
    if (!x)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "trace: x is NULL");
    if (dtype != -1 && (dtype < 0 || dtype >= USMARR_DTYPE_COUNT))
        return usmarr__fail(USMARR_ERROR_BAD_DTYPE, "trace: dtype %d is not a dtype (nor -1)", dtype);
    if (!out && !result)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "trace: result is NULL and there is no out");
    usmarr_array_t *d = NULL, *c = NULL, *s = NULL, *v = NULL;
    int rc = usmarr_linalg_diagonal(x, offset, &d);
    if (rc == USMARR_ERROR_SHAPE_MISMATCH) /* the detail names diagonal: say trace */
        return usmarr__fail(rc, "trace: x has %d dims; it needs at least 2", x->ndim);
    if (rc)
        return rc;
    if (trace_kernel(d, dtype, out, result, &rc)) {
        usmarr_array_release(d);
        return rc;
    }
    int last = -1;
    /* with a dtype, the sum runs in it (NumPy's trace(dtype=)) and the result has it */
    if (dtype != -1)
        rc = usmarr_array_astype(d, (usmarr_dtype_t)dtype, USMARR_ORDER_K, NULL, &c);
    if (!rc)
        rc = usmarr_sum(c ? c : d, 1, &last, false, NULL, &s);
    if (!rc && dtype != -1 && s->dtype != (usmarr_dtype_t)dtype)
        rc = usmarr_array_astype(s, (usmarr_dtype_t)dtype, USMARR_ORDER_K, NULL, &v);
    else if (!rc)
        v = usmarr_array_retain(s);
    if (!rc) {
        struct usmarr__linalg_result r;
        rc = usmarr__linalg_result_begin("trace", x, &x, 1, v->dtype, v->ndim, v->shape, out, result, &r);
        if (!rc)
            rc = usmarr__linalg_result_end(0, v, &r);
    }
    usmarr_array_release(d);
    usmarr_array_release(c);
    usmarr_array_release(s);
    usmarr_array_release(v);
    return rc;
}
