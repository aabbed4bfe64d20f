/* var and std (doc/stats.md): NumPy's two-pass algorithm on the library's own kernels:
 * the mean over the axes (kept as size-1 dims), the deviations x - mean, their squared
 * magnitudes (in place), their sum over the axes, divided by max(N - correction, 0).
 * Integers and bool compute in float64, float16 in float32 (rounded once at the end), and
 * complex input gives the real dtype: |x - mean|^2 = re^2 + im^2. */
#include "../internal.h"
#include "../view_internal.h"

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
                         int64_t *shape, int64_t *count)
{
    bool red[USMARR_MAX_NDIM] = {false};
    if (!axes) {
        for (int d = 0; d < x->ndim; d++)
            red[d] = true;
    } else {
        if (naxes < 0 || naxes > x->ndim)
            return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s: naxes=%d is outside [0, ndim=%d]", fn, naxes,
                                x->ndim);
        for (int i = 0; i < naxes; i++) {
            int a = axes[i] < 0 ? axes[i] + x->ndim : axes[i];
            if (a < 0 || a >= x->ndim)
                return usmarr__fail(USMARR_ERROR_INDEX, "%s: axes[%d]=%d is out of range for %d dims", fn, i, axes[i],
                                    x->ndim);
            if (red[a])
                return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s: axes[%d]=%d repeats an axis", fn, i, axes[i]);
            red[a] = true;
        }
    }
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
    if ((rc = reduced_shape(fn, x, naxes, axes, keepdims, &ndim, shape, &count)))
        return rc;
    usmarr_dtype_t cdt = compute_dtype(x->dtype), rdt = real_of(x->dtype == USMARR_FLOAT16 ? x->dtype : cdt);
    if ((rc = usmarr__check_dtype_supported(x->memory->context, cdt, "the computation dtype")))
        return rc;
    usmarr_array_t *target = NULL;
    const usmarr_array_t *inputs[1] = {x};
    if (out && (rc = usmarr__result_begin(x, inputs, 1, rdt, ndim, shape, out, result, &target)))
        return rc;
    usmarr_array_t *xc = NULL, *mean = NULL, *dev = NULL, *sq = NULL, *sum = NULL, *var = NULL, *re = NULL, *im = NULL;
    if (x->dtype != cdt)
        rc = usmarr_array_astype(x, cdt, USMARR_ORDER_K, NULL, &xc);
    else
        xc = usmarr_array_retain((usmarr_array_t *)x);
    if (!rc)
        rc = usmarr_mean(xc, naxes, axes, true, NULL, &mean);
    if (!rc)
        rc = usmarr_subtract(xc, mean, NULL, &dev);
    if (!rc && usmarr_dtype_kind(cdt) == USMARR_KIND_COMPLEX) {
        if (!(rc = usmarr_array_real(dev, &re)) && !(rc = usmarr_array_imag(dev, &im)) &&
            !(rc = usmarr_square(re, NULL, &sq)) && !(rc = usmarr_square(im, im, NULL)))
            rc = usmarr_add(sq, im, sq, NULL);
    } else if (!rc) {
        rc = usmarr_square(dev, dev, NULL);
        sq = usmarr_array_retain(dev);
    }
    if (!rc)
        rc = usmarr_sum(sq, naxes, axes, keepdims, NULL, &sum);
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
    usmarr_array_release(dev);
    usmarr_array_release(sq);
    usmarr_array_release(sum);
    usmarr_array_release(re);
    usmarr_array_release(im);
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
