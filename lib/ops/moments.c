/* var and std (doc/ops.md): NumPy's two-pass algorithm: the mean over the axes (the
 * library's sum, kept as size-1 dims, divided by N), then one pass of cl/stats.cl that
 * sums the squared magnitudes of the deviations (exactly 0 for equal finite elements),
 * divided by max(N - correction, 0): past the count 0/0 = NaN or inf.
 * Integers and bool compute in float64, float16 in float32 (rounded once at the end), and
 * complex input gives the real dtype: |x - mean|^2 = re^2 + im^2. */
#include "ops_internal.h"

#include <math.h>
#include <string.h>

static usmarr_dtype_t compute_dtype(usmarr_dtype_t d)
{
    switch (usmarr_dtype_kind(d)) {
    case USMARR_KIND_BOOL:
    case USMARR_KIND_INT:
    case USMARR_KIND_UINT: return USMARR_FLOAT64;
    default: return d == USMARR_FLOAT16 ? USMARR_FLOAT32 : d;
    }
}

static usmarr_dtype_t real_of(usmarr_dtype_t d)
{
    return d == USMARR_COMPLEX64 ? USMARR_FLOAT32 : d == USMARR_COMPLEX128 ? USMARR_FLOAT64 : d;
}

/* The result's shape, the number of reduced elements; errors name the function. */
static int reduced_shape(const char *fn, const usmarr_array_t *x, int naxes, const int *axes, bool keepdims, int *ndim,
                         int64_t *shape, int64_t *count, bool *red)
{
    int rc = usmarr__axes_mask(x->ndim, naxes, axes, fn, "axes", red, NULL);
    if (rc)
        return rc;
    *ndim = 0;
    *count = 1;
    for (int d = 0; d < x->ndim; d++) {
        if (red[d])
            *count *= x->shape[d];
        if (!red[d] || keepdims)
            shape[(*ndim)++] = red[d] ? 1 : x->shape[d];
    }
    return 0;
}

/* Merges dims [0, n) of (shape, strides) that are jointly contiguous, dropping extent-1
 * dims; true when at most one dim remains (*extent, *stride). */
static bool merge_one(int n, const int64_t *shape, const int64_t *strides, int64_t *extent, int64_t *stride)
{
    int64_t e = 1, s = 0;
    bool any = false;
    for (int d = n - 1; d >= 0; d--) {
        if (shape[d] == 1)
            continue;
        if (!any) {
            e = shape[d];
            s = strides[d];
            any = true;
        } else if (strides[d] == s * e) {
            e *= shape[d];
        } else {
            return false;
        }
    }
    *extent = e;
    *stride = s;
    return true;
}

/* ssd (C-ordered, real dtype, the kept dims' elements) = sum over the reduced dims of
 * |x - mean|^2, mean C-ordered over the kept dims. */
static int sum_sq_dev(const usmarr_array_t *x, const bool *red, const usmarr_array_t *mean, usmarr_array_t *ssd)
{
    usmarr_context_t *ctx = x->memory->context;
    int64_t ks_shape[USMARR_MAX_NDIM], ks_str[USMARR_MAX_NDIM], rs_shape[USMARR_MAX_NDIM], rs_str[USMARR_MAX_NDIM];
    int nk = 0, nr = 0;
    for (int d = 0; d < x->ndim; d++)
        if (!red[d]) {
            ks_shape[nk] = x->shape[d];
            ks_str[nk++] = x->strides[d];
        } else {
            rs_shape[nr] = x->shape[d];
            rs_str[nr++] = x->strides[d];
        }
    int64_t nkept, nred, ks, rs;
    usmarr_array_t *src = NULL;
    int rc = 0;
    if (merge_one(nk, ks_shape, ks_str, &nkept, &ks) && merge_one(nr, rs_shape, rs_str, &nred, &rs)) {
        src = usmarr_array_retain((usmarr_array_t *)x);
    } else {
        if ((rc = usmarr__copy_reduced_last(x, red, NULL, &src)))
            return rc;
        nkept = usmarr_array_size(ssd);
        nred = nkept ? usmarr_array_size(src) / nkept : 0;
        ks = nred;
        rs = 1;
    }
    if (nkept == 0)
        goto done;
    bool cplx = usmarr_dtype_kind(x->dtype) == USMARR_KIND_COMPLEX, cols = !cplx && ks == 1 && nkept >= 16;
    char defines[96];
    snprintf(defines, sizeof defines, "-DD0=%s -DD1=%s%s", usmarr__dtype_tag(x->dtype), usmarr__dtype_tag(ssd->dtype),
             cplx ? " -DST_COMPLEX" : " -DST_VECTOR");
    usmarr__kernel_t *k;
    if ((rc = usmarr__kernel_get(ctx, "stats", defines, cols ? "usmarr_ssd_cols" : "usmarr_ssd", &k)))
        goto done;
    size_t items = (size_t)(cols ? (nkept + 15) / 16 : nkept);
    size_t global = (items + 7) / 8 * 8, local = 8;
    cl_long lkept = nkept, lred = nred, lks = ks, lrs = rs;
    const struct usmarr__karg args[] = {USMARR__ARG_PTR(usmarr_array_data(ssd)),
                                        USMARR__ARG_PTR(usmarr_array_data(src)),
                                        USMARR__ARG_PTR(usmarr_array_data(mean)),
                                        USMARR__ARG(lkept),
                                        USMARR__ARG(lred),
                                        USMARR__ARG(lks),
                                        USMARR__ARG(lrs)};
    rc = usmarr__kernel_launch(ctx, k, USMARR__NARGS(args), args, 1, &global, &local);
done:
    usmarr_array_release(src); /* waits for the launch when it was a copy */
    return rc;
}

static int moments(const char *fn, bool root, const usmarr_array_t *x, int naxes, const int *axes, double correction,
                   bool keepdims, usmarr_array_t *out, usmarr_array_t **result)
{
    usmarr__clear_error();
    if (!x)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s: x is NULL", fn);
    if (!out && !result)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s: result is NULL and there is no out", fn);
    if (!(correction >= 0) || isinf(correction))
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s: correction=%g must be finite and >= 0", fn, correction);
    int ndim = 0, rc;
    int64_t shape[USMARR_MAX_NDIM], count = 1;
    bool red[USMARR_MAX_NDIM];
    if ((rc = reduced_shape(fn, x, naxes, axes, keepdims, &ndim, shape, &count, red)))
        return rc;
    usmarr_dtype_t cdt = compute_dtype(x->dtype), rdt = real_of(x->dtype == USMARR_FLOAT16 ? x->dtype : cdt);
    if ((rc = usmarr__check_dtype_supported(x->memory->context, cdt, "the computation dtype")))
        return rc;
    usmarr_array_t *target = NULL;
    const usmarr_array_t *inputs[1] = {x};
    if (out && (rc = usmarr__result_begin(x, inputs, 1, rdt, ndim, shape, out, result, &target)))
        return rc;
    usmarr_array_t *xc = NULL, *mean = NULL, *sum = NULL, *var = NULL;
    if (x->dtype != cdt)
        rc = usmarr_array_astype(x, cdt, USMARR_ORDER_K, NULL, &xc);
    else
        xc = usmarr_array_retain((usmarr_array_t *)x);
    /* the mean as the library's sum (its fast outer-axis path) divided by N, in place */
    usmarr_operand_t mops[2] = {{NULL, {0}}, {NULL, usmarr_scalar_float((double)count)}};
    if (!rc && !(rc = usmarr_sum(xc, naxes, axes, true, NULL, &mean))) {
        mops[0].array = mean;
        rc = usmarr_elementwise("divide", mops, 2, mean, NULL);
    }
    int64_t kshape[USMARR_MAX_NDIM];
    int nkd = 0;
    for (int d = 0; d < x->ndim; d++)
        if (!red[d])
            kshape[nkd++] = x->shape[d];
    if (!rc)
        rc = usmarr__array_empty_like_layout(x->memory->context, real_of(cdt), nkd, kshape, USMARR_ORDER_C,
                                             USMARR_USM_DEVICE, &sum);
    if (!rc)
        rc = sum_sq_dev(xc, red, mean, sum);
    if (!rc) { /* the result's shape (keepdims) over the same C-ordered elements */
        usmarr_array_t *shaped = NULL;
        rc = usmarr_array_reshape(sum, ndim, shape, USMARR_ORDER_C, USMARR_COPY_NEVER, &shaped);
        usmarr_array_release(sum);
        sum = shaped;
    }
    double divisor = (double)count - correction > 0 ? (double)count - correction : 0;
    usmarr_operand_t ops[2] = {{sum, {0}}, {NULL, usmarr_scalar_float(divisor)}};
    bool last_cast = rdt != real_of(cdt); /* float16 */
    usmarr_array_t *dst = root || last_cast ? NULL : target;
    if (!rc)
        rc = usmarr_elementwise("divide", ops, 2, dst, dst ? NULL : &var);
    if (!rc && root) {
        usmarr_array_t *sd = NULL;
        dst = last_cast ? NULL : target;
        rc = usmarr_sqrt(var, dst, dst ? NULL : &sd);
        usmarr_array_release(var);
        var = sd;
    }
    if (!rc && last_cast) {
        usmarr_array_t *h = NULL;
        if (target)
            rc = usmarr_array_copy_into(target, var);
        else
            rc = usmarr_array_astype(var, rdt, USMARR_ORDER_C, NULL, &h);
        usmarr_array_release(var);
        var = h;
    }
    usmarr_array_release(xc);
    usmarr_array_release(mean);
    usmarr_array_release(sum);
    if (!out) {
        if (!rc)
            *result = var;
        else
            usmarr_array_release(var);
        return rc;
    }
    usmarr_array_release(var);
    return usmarr__result_end(rc, target, out, result);
}

int usmarr_var(const usmarr_array_t *x, int naxes, const int *axes, double correction, bool keepdims,
               usmarr_array_t *out, usmarr_array_t **result)
{
    return moments("var", false, x, naxes, axes, correction, keepdims, out, result);
}

int usmarr_std(const usmarr_array_t *x, int naxes, const int *axes, double correction, bool keepdims,
               usmarr_array_t *out, usmarr_array_t **result)
{
    return moments("std", true, x, naxes, axes, correction, keepdims, out, result);
}
