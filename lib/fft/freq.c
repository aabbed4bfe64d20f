/* The helpers of usmarr/fft.h: sample frequencies (computed on the host as NumPy computes
 * them, k * (1 / (n d)) in double, then rounded to the dtype) and the shifts (usmarr_roll
 * by extent/2 along each axis). */
#include "fft_internal.h"

#include <stdlib.h>

static int freq(const char *fn, usmarr_context_t *ctx, int64_t n, double d, usmarr_dtype_t dtype,
                usmarr_usm_kind_t kind, bool onesided, usmarr_array_t **result)
{
    usmarr__clear_error();
    if (!ctx || !result)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s: %s is NULL", fn, ctx ? "result" : "context");
    if (n < 1)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s: n=%lld must be >= 1", fn, (long long)n);
    if (d == 0)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s: d=0; the sample spacing must not be 0", fn);
    if (dtype != USMARR_FLOAT32 && dtype != USMARR_FLOAT64)
        return usmarr__fail(USMARR_ERROR_BAD_DTYPE, "%s: dtype %s; the frequencies are float32 or float64", fn,
                            usmarr__dtype_valid(dtype) ? usmarr_dtype_name(dtype) : "(invalid)");
    if (kind != USMARR_USM_DEVICE && kind != USMARR_USM_SHARED && kind != USMARR_USM_HOST)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s: kind=%d is not a USM kind (device, shared, host)", fn,
                            (int)kind);
    int rc = usmarr__check_dtype_supported(ctx, dtype, "dtype");
    if (rc)
        return rc;
    int64_t len = onesided ? n / 2 + 1 : n;
    void *host = malloc((size_t)len * (dtype == USMARR_FLOAT64 ? 8 : 4));
    if (!host)
        return usmarr__fail(USMARR_ERROR_OUT_OF_HOST_MEMORY, "%s: %lld values", fn, (long long)len);
    double val = 1.0 / ((double)n * d);
    for (int64_t i = 0; i < len; i++) {
        int64_t k = onesided || i <= (n - 1) / 2 ? i : i - n;
        double f = (double)k * val;
        if (dtype == USMARR_FLOAT64)
            ((double *)host)[i] = f;
        else
            ((float *)host)[i] = (float)f;
    }
    rc = usmarr_array_from_host(ctx, 1, &len, dtype, host, NULL, kind, result);
    free(host);
    return rc;
}

int usmarr_fftfreq(usmarr_context_t *context, int64_t n, double d, usmarr_dtype_t dtype, usmarr_usm_kind_t kind,
                   usmarr_array_t **result)
{
    return freq("fftfreq", context, n, d, dtype, kind, false, result);
}

int usmarr_rfftfreq(usmarr_context_t *context, int64_t n, double d, usmarr_dtype_t dtype, usmarr_usm_kind_t kind,
                    usmarr_array_t **result)
{
    return freq("rfftfreq", context, n, d, dtype, kind, true, result);
}

static int shift(const char *fn, const usmarr_array_t *x, int naxes, const int *axes, bool inverse, usmarr_array_t *out,
                 usmarr_array_t **result)
{
    usmarr__clear_error();
    if (!x)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s: x is NULL", fn);
    if (!out && !result)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s: result is NULL and there is no out", fn);
    int nd = x->ndim, ax[USMARR_MAX_NDIM];
    bool mask[USMARR_MAX_NDIM];
    if (naxes == -1 && !axes) {
        naxes = nd;
        for (int i = 0; i < nd; i++)
            ax[i] = i;
    } else {
        if (naxes < 0 || naxes > nd || (naxes > 0 && !axes))
            return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT,
                                "%s: naxes=%d with axes %s (x has %d dims; -1 with NULL axes: every axis)", fn, naxes,
                                axes ? "given" : "NULL", nd);
        int rc = usmarr__axes_mask(nd, naxes, axes, fn, "axes", mask, ax);
        if (rc)
            return rc;
    }
    int64_t shifts[USMARR_MAX_NDIM];
    for (int i = 0; i < naxes; i++) {
        int64_t m = x->shape[ax[i]];
        shifts[i] = inverse ? -(m / 2) : m / 2;
    }
    if (naxes == 0) {
        if (!out)
            return usmarr_array_copy(x, USMARR_ORDER_K, NULL, result);
        int rc = usmarr_array_copy_into(out, x);
        if (!rc && result)
            *result = usmarr_array_retain(out);
        return rc;
    }
    return usmarr_roll(x, naxes, shifts, ax, out, result);
}

int usmarr_fftshift(const usmarr_array_t *x, int naxes, const int *axes, usmarr_array_t *out, usmarr_array_t **result)
{
    return shift("fftshift", x, naxes, axes, false, out, result);
}

int usmarr_ifftshift(const usmarr_array_t *x, int naxes, const int *axes, usmarr_array_t *out, usmarr_array_t **result)
{
    return shift("ifftshift", x, naxes, axes, true, out, result);
}
