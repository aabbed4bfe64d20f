/* The transforms of usmarr/fft.h (doc/fft.md): one dispatcher checks the arguments as
 * NumPy 2 does, works out the axes, lengths and scales, and runs one transform per axis
 * (transform.c), the last axis first; the last writes the result. */
#include "fft_internal.h"

#include <math.h>
#include <string.h>

/* One public function's rules */
struct fft_fn {
    const char *name;
    enum usmarr__fft_kind kind;
    bool inverse;   /* the direction of the transform */
    bool swap_norm; /* hfft, ihfft: the scale of the other direction */
    unsigned conj;  /* hfft conjugates its input, ihfft its output */
    bool nd;        /* takes naxes, axes, s */
};

static const struct fft_fn FFT = {"fft", USMARR__FFT_C2C, false, false, 0, false};
static const struct fft_fn IFFT = {"ifft", USMARR__FFT_C2C, true, false, 0, false};
static const struct fft_fn FFTN = {"fftn", USMARR__FFT_C2C, false, false, 0, true};
static const struct fft_fn IFFTN = {"ifftn", USMARR__FFT_C2C, true, false, 0, true};
static const struct fft_fn RFFT = {"rfft", USMARR__FFT_R2C, false, false, 0, false};
static const struct fft_fn IRFFT = {"irfft", USMARR__FFT_C2R, true, false, 0, false};
static const struct fft_fn RFFTN = {"rfftn", USMARR__FFT_R2C, false, false, 0, true};
static const struct fft_fn IRFFTN = {"irfftn", USMARR__FFT_C2R, true, false, 0, true};
static const struct fft_fn HFFT = {"hfft", USMARR__FFT_C2R, true, true, USMARR__FFT_CONJ_LOAD, false};
static const struct fft_fn IHFFT = {"ihfft", USMARR__FFT_R2C, false, true, USMARR__FFT_CONJ_STORE, false};

/* The factor of a transform of length n: NumPy's norm for the direction */
static double norm_scale(usmarr_fft_norm_t norm, bool inverse, int64_t n)
{
    if (norm == USMARR_FFT_NORM_ORTHO)
        return 1.0 / sqrt((double)n);
    bool divide = (norm == USMARR_FFT_NORM_BACKWARD) == inverse;
    return divide ? 1.0 / (double)n : 1.0;
}

static int check_dtype(const struct fft_fn *fn, usmarr_dtype_t dt)
{
    bool real = dt == USMARR_FLOAT32 || dt == USMARR_FLOAT64, cx = dt == USMARR_COMPLEX64 || dt == USMARR_COMPLEX128;
    if (fn->kind == USMARR__FFT_C2C && (real || cx))
        return 0;
    if (fn->kind == USMARR__FFT_R2C && real)
        return 0;
    if (fn->kind == USMARR__FFT_C2R && cx)
        return 0;
    const char *want = fn->kind == USMARR__FFT_C2C ? "a floating-point dtype (float32, float64, complex64, complex128)"
                       : fn->kind == USMARR__FFT_R2C ? "a real floating-point dtype (float32 or float64)"
                                                     : "a complex dtype (complex64 or complex128)";
    return usmarr__fail(USMARR_ERROR_BAD_DTYPE, "%s: x has dtype %s; it needs %s", fn->name, usmarr_dtype_name(dt),
                        want);
}

static int transform(const struct fft_fn *fn, const usmarr_array_t *x, int naxes, const int *axes_in, const int64_t *s,
                     usmarr_fft_norm_t norm, usmarr_array_t *out, usmarr_array_t **result)
{
    usmarr__clear_error();
    if (!x)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s: x is NULL", fn->name);
    if (!out && !result)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s: result is NULL and there is no out", fn->name);
    if (norm != USMARR_FFT_NORM_BACKWARD && norm != USMARR_FFT_NORM_ORTHO && norm != USMARR_FFT_NORM_FORWARD)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT,
                            "%s: norm=%d is not a usmarr_fft_norm_t (0 backward, 1 ortho, 2 forward)", fn->name,
                            (int)norm);
    int rc;
    if ((rc = check_dtype(fn, x->dtype)))
        return rc;
    usmarr_context_t *ctx = x->memory->context;
    bool dbl = x->dtype == USMARR_FLOAT64 || x->dtype == USMARR_COMPLEX128;
    usmarr_dtype_t cdt = dbl ? USMARR_COMPLEX128 : USMARR_COMPLEX64, rdt = dbl ? USMARR_FLOAT64 : USMARR_FLOAT32;
    if ((rc = usmarr__check_dtype_supported(ctx, cdt, "x")))
        return rc;
    int nd = x->ndim, axes[USMARR_MAX_NDIM];
    bool mask[USMARR_MAX_NDIM];
    if (fn->nd) {
        if (naxes == -1) {
            if (axes_in || s)
                return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT,
                                    "%s: naxes=-1 (every axis) with %s given; s and axes need naxes", fn->name,
                                    s ? "s" : "axes");
            naxes = nd;
        } else if (naxes < 0 || naxes > nd) {
            return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s: naxes=%d is outside [-1, %d] (x has %d dims)",
                                fn->name, naxes, nd, nd);
        }
        if (naxes == 0 && fn->kind != USMARR__FFT_C2C)
            return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s: naxes=0; a real transform needs an axis", fn->name);
        if (axes_in) {
            if ((rc = usmarr__axes_mask(nd, naxes, axes_in, fn->name, "axes", mask, axes)))
                return rc;
        } else {
            for (int i = 0; i < naxes; i++)
                axes[i] = nd - naxes + i;
        }
    } else {
        if (naxes < -nd || naxes >= nd)
            return usmarr__fail(USMARR_ERROR_INDEX, "%s: axis=%d is out of range for x of %d dims", fn->name, naxes,
                                nd);
        axes[0] = naxes < 0 ? naxes + nd : naxes;
        naxes = 1;
    }
    /* lengths and the result's shape */
    int64_t len[USMARR_MAX_NDIM], shape[USMARR_MAX_NDIM];
    memcpy(shape, x->shape, sizeof(int64_t) * (size_t)nd);
    for (int i = 0; i < naxes; i++) {
        int64_t m = x->shape[axes[i]];
        bool real_last = fn->kind == USMARR__FFT_C2R && i == naxes - 1;
        len[i] = s ? s[i] : real_last ? 2 * (m - 1) : m;
        if (len[i] < 1) {
            if (fn->nd)
                return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT,
                                    "%s: the length %lld along axis %d (s[%d]%s) must be >= 1", fn->name,
                                    (long long)len[i], axes[i], i, s ? "" : ", from x's extent");
            return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s: n=%lld must be >= 1%s", fn->name, (long long)len[i],
                                s           ? ""
                                : real_last ? " (2 (m - 1) for x's extent m)"
                                            : " (x's extent)");
        }
        shape[axes[i]] = fn->kind == USMARR__FFT_R2C && i == naxes - 1 ? len[i] / 2 + 1 : len[i];
    }
    usmarr_dtype_t res = fn->kind == USMARR__FFT_C2R ? rdt : cdt;
    usmarr_array_t *target = NULL, *cur = NULL, *dest = NULL;
    const usmarr_array_t *in[1] = {x};
    if (!out && usmarr_array_usm_kind(x) == USMARR_USM_DEVICE)
        rc = usmarr__fft_empty(ctx, res, nd, shape, 8, &target);
    else
        rc = usmarr__result_begin(x, in, 1, res, nd, shape, out, result, &target);
    if (rc)
        return rc;
    if (naxes == 0) { /* fftn over no axis: x as complex */
        rc = usmarr_array_copy_into(target, x);
        return usmarr__result_end(rc, target, out, result);
    }
    /* the steps, last axis first; the real axis of rfftn first, of irfftn last */
    int64_t cshape[USMARR_MAX_NDIM];
    memcpy(cshape, x->shape, sizeof(int64_t) * (size_t)nd);
    const usmarr_array_t *src = x;
    for (int step = 0; step < naxes && !rc; step++) {
        int i = fn->kind == USMARR__FFT_C2R ? (step < naxes - 1 ? naxes - 2 - step : naxes - 1) : naxes - 1 - step;
        bool real_step = fn->kind != USMARR__FFT_C2C && i == naxes - 1;
        enum usmarr__fft_kind kind = real_step ? fn->kind : USMARR__FFT_C2C;
        int ax = axes[i];
        cshape[ax] = kind == USMARR__FFT_R2C ? len[i] / 2 + 1 : len[i];
        usmarr_dtype_t sdt = kind == USMARR__FFT_C2R ? rdt : cdt;
        bool last = step == naxes - 1;
        if (last && target->dtype == sdt)
            dest = usmarr_array_retain(target);
        else
            rc = usmarr__fft_empty(ctx, sdt, nd, cshape, 8, &dest);
        double scale = norm_scale(norm, fn->inverse != fn->swap_norm, len[i]);
        unsigned conj = 0;
        if (real_step || naxes == 1)
            conj = fn->conj;
        if (!rc)
            rc = usmarr__fft_axis(ctx, kind, src, ax, len[i], fn->inverse && !(kind == USMARR__FFT_R2C), conj, scale,
                                  dest);
        usmarr_array_release(cur);
        cur = dest;
        dest = NULL;
        src = cur;
    }
    if (!rc && cur != target)
        rc = usmarr_array_copy_into(target, cur);
    usmarr_array_release(cur);
    return usmarr__result_end(rc, target, out, result);
}

int usmarr_fft(const usmarr_array_t *x, const int64_t *n, int axis, usmarr_fft_norm_t norm, usmarr_array_t *out,
               usmarr_array_t **result)
{
    return transform(&FFT, x, axis, NULL, n, norm, out, result);
}
int usmarr_ifft(const usmarr_array_t *x, const int64_t *n, int axis, usmarr_fft_norm_t norm, usmarr_array_t *out,
                usmarr_array_t **result)
{
    return transform(&IFFT, x, axis, NULL, n, norm, out, result);
}
int usmarr_fftn(const usmarr_array_t *x, int naxes, const int *axes, const int64_t *s, usmarr_fft_norm_t norm,
                usmarr_array_t *out, usmarr_array_t **result)
{
    return transform(&FFTN, x, naxes, axes, s, norm, out, result);
}
int usmarr_ifftn(const usmarr_array_t *x, int naxes, const int *axes, const int64_t *s, usmarr_fft_norm_t norm,
                 usmarr_array_t *out, usmarr_array_t **result)
{
    return transform(&IFFTN, x, naxes, axes, s, norm, out, result);
}
int usmarr_rfft(const usmarr_array_t *x, const int64_t *n, int axis, usmarr_fft_norm_t norm, usmarr_array_t *out,
                usmarr_array_t **result)
{
    return transform(&RFFT, x, axis, NULL, n, norm, out, result);
}
int usmarr_irfft(const usmarr_array_t *x, const int64_t *n, int axis, usmarr_fft_norm_t norm, usmarr_array_t *out,
                 usmarr_array_t **result)
{
    return transform(&IRFFT, x, axis, NULL, n, norm, out, result);
}
int usmarr_rfftn(const usmarr_array_t *x, int naxes, const int *axes, const int64_t *s, usmarr_fft_norm_t norm,
                 usmarr_array_t *out, usmarr_array_t **result)
{
    return transform(&RFFTN, x, naxes, axes, s, norm, out, result);
}
int usmarr_irfftn(const usmarr_array_t *x, int naxes, const int *axes, const int64_t *s, usmarr_fft_norm_t norm,
                  usmarr_array_t *out, usmarr_array_t **result)
{
    return transform(&IRFFTN, x, naxes, axes, s, norm, out, result);
}
int usmarr_hfft(const usmarr_array_t *x, const int64_t *n, int axis, usmarr_fft_norm_t norm, usmarr_array_t *out,
                usmarr_array_t **result)
{
    return transform(&HFFT, x, axis, NULL, n, norm, out, result);
}
int usmarr_ihfft(const usmarr_array_t *x, const int64_t *n, int axis, usmarr_fft_norm_t norm, usmarr_array_t *out,
                 usmarr_array_t **result)
{
    return transform(&IHFFT, x, axis, NULL, n, norm, out, result);
}
