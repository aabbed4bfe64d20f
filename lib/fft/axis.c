/* Transforms along one axis of arrays (doc/fft.md): the batch dims (all but the axis) of
 * the input and the output are merged jointly into at most two (the kernels' addressing);
 * where they do not merge, the input is copied in C order, or the output written through a
 * C-ordered temporary.  Real transforms of even length run as complex ones of half the
 * length, with a pre- or post-processing kernel. */
#include "fft_internal.h"

/* ---- one axis of arrays ------------------------------------------------------------- */

/* The batch dims of x and y (all but `axis` of each, the same extents) merged jointly into
 * at most two: the addressing of both, and the batch count.  False when more remain. */
static bool merge_batches(const usmarr_array_t *y, const usmarr_array_t *x, int axis, struct usmarr__fft_io *yio,
                          struct usmarr__fft_io *xio, int64_t *nbatch)
{
    struct usmarr__iter it = {0};
    it.nops = 2;
    int nd = 0;
    int64_t count = 1;
    for (int d = 0; d < x->ndim; d++) {
        if (d == axis)
            continue;
        it.shape[nd] = x->shape[d];
        it.strides[0][nd] = y->strides[d];
        it.strides[1][nd] = x->strides[d];
        count *= x->shape[d];
        nd++;
    }
    it.ndim = nd;
    *nbatch = count;
    if (count == 0)
        return true;
    usmarr__simplify(&it);
    if (it.ndim > 2)
        return false;
    struct usmarr__fft_io *io[2] = {yio, xio};
    const usmarr_array_t *a[2] = {y, x};
    for (int o = 0; o < 2; o++) {
        size_t isz = usmarr_dtype_size(a[o]->dtype);
        io[o]->data = (char *)usmarr_array_data(a[o]) + it.offsets[o] * (int64_t)isz;
        io[o]->stride = a[o]->strides[axis];
        if (it.ndim == 0) {
            io[o]->inner_stride = 0;
            io[o]->inner = 1;
            io[o]->outer_stride = 0;
        } else {
            io[o]->inner_stride = it.strides[o][it.ndim - 1];
            io[o]->inner = it.shape[it.ndim - 1];
            io[o]->outer_stride = it.ndim == 2 ? it.strides[o][0] : 0;
        }
    }
    return true;
}

static int run_axis(usmarr_context_t *ctx, enum usmarr__fft_kind kind, int64_t n, bool inverse, unsigned conj,
                    double scale, bool dbl, int64_t nbatch, struct usmarr__fft_io *xio, struct usmarr__fft_io *yio,
                    bool x_real)
{
    struct usmarr__fft_plan *p = NULL;
    usmarr_array_t *t = NULL;
    int rc;
    int64_t h = n / 2;
    bool even = n % 2 == 0;
    void *rtw = NULL;
    if ((rc = usmarr__fft_plan_get(ctx, kind != USMARR__FFT_C2C && even ? h : n, dbl, &p)))
        return rc;
    if (kind != USMARR__FFT_C2C && even && (rc = usmarr__fft_plan_real_twiddles(ctx, p, &rtw))) {
        usmarr__fft_plan_release(ctx, p);
        return rc;
    }
    unsigned cl = conj & USMARR__FFT_CONJ_LOAD, cs = conj & USMARR__FFT_CONJ_STORE;
    if (kind == USMARR__FFT_C2C) {
        rc = usmarr__fft_complex(ctx, p, nbatch, xio, yio, (x_real ? USMARR__FFT_LOAD_REAL : 0u) | cl, cs, inverse,
                                 scale);
    } else if (kind == USMARR__FFT_R2C && !even) {
        rc = usmarr__fft_complex(ctx, p, nbatch, xio, yio, USMARR__FFT_LOAD_REAL | cl, cs, false, scale);
    } else if (kind == USMARR__FFT_R2C) {
        if (!(rc = usmarr__fft_temporary(ctx, dbl, h, nbatch, &t))) {
            struct usmarr__fft_io z = {usmarr_array_data(t), 1, h, nbatch, 0, h, 0, 0};
            rc = usmarr__fft_complex(ctx, p, nbatch, xio, &z, USMARR__FFT_LOAD_PAIRS | cl, 0, false, 1.0);
            usmarr__kernel_t *k;
            if (!rc)
                rc = usmarr__fft_kernel(ctx, dbl, "usmarr_fft_r2c_post", &k);
            if (!rc) {
                cl_long hh = h, nb = nbatch;
                cl_long8 a = usmarr__fft_io_arg(yio);
                cl_int f = (cl_int)cs;
                float s32 = (float)scale;
                struct usmarr__karg args[] = {USMARR__ARG_PTR(z.data), USMARR__ARG_PTR(yio->data),
                                              USMARR__ARG_PTR(rtw),    USMARR__ARG(hh),
                                              USMARR__ARG(nb),         USMARR__ARG(a),
                                              USMARR__ARG(f),          USMARR__ARG(s32)};
                if (dbl)
                    args[7] = (struct usmarr__karg)USMARR__ARG(scale);
                rc = usmarr__fft_launch(ctx, k, USMARR__NARGS(args), args, (h + 1) * nbatch);
            }
        }
    } else { /* C2R: even n through half the length, odd n through the whole spectrum */
        int64_t len = even ? h : n;
        usmarr__kernel_t *k;
        if (!(rc = usmarr__fft_temporary(ctx, dbl, len, nbatch, &t)) &&
            !(rc = usmarr__fft_kernel(ctx, dbl, even ? "usmarr_fft_c2r_pre" : "usmarr_fft_c2r_full", &k))) {
            struct usmarr__fft_io z = {usmarr_array_data(t), 1, len, nbatch, 0, len, 0, 0};
            cl_long ll = len, nb = nbatch;
            cl_long8 a = usmarr__fft_io_arg(xio);
            cl_int f = (cl_int)cl;
            struct usmarr__karg pre[] = {USMARR__ARG_PTR(xio->data),
                                         USMARR__ARG_PTR(z.data),
                                         USMARR__ARG_PTR(rtw),
                                         USMARR__ARG(ll),
                                         USMARR__ARG(nb),
                                         USMARR__ARG(a),
                                         USMARR__ARG(f)};
            if (even)
                rc = usmarr__fft_launch(ctx, k, USMARR__NARGS(pre), pre, len * nbatch);
            else { /* no table */
                struct usmarr__karg full[] = {pre[0], pre[1], pre[3], pre[4], pre[5], pre[6]};
                rc = usmarr__fft_launch(ctx, k, USMARR__NARGS(full), full, len * nbatch);
            }
            if (!rc)
                rc = usmarr__fft_complex(ctx, p, nbatch, &z, yio, 0,
                                         (even ? USMARR__FFT_STORE_PAIRS : USMARR__FFT_STORE_REAL) | cs, true, scale);
        }
    }
    usmarr_array_release(t);
    usmarr__fft_plan_release(ctx, p);
    return rc;
}

int usmarr__fft_axis(usmarr_context_t *ctx, enum usmarr__fft_kind kind, const usmarr_array_t *x, int axis, int64_t n,
                     bool inverse, unsigned conj, double scale, usmarr_array_t *target)
{
    bool dbl = target->dtype == USMARR_COMPLEX128 || target->dtype == USMARR_FLOAT64;
    usmarr_array_t *xc = NULL, *yc = NULL;
    struct usmarr__fft_io xio = {0}, yio = {0};
    int64_t nbatch;
    int rc = 0;
    const usmarr_array_t *xs = x;
    usmarr_array_t *ys = target;
    /* the kernels' valid lengths: what the input holds of the transform's, and what the
     * output keeps */
    if (!merge_batches(ys, xs, axis, &yio, &xio, &nbatch)) {
        if ((rc = usmarr_array_copy(x, USMARR_ORDER_C, NULL, &xc)))
            return rc;
        xs = xc;
        if (!merge_batches(ys, xs, axis, &yio, &xio, &nbatch)) {
            rc = usmarr_array_empty(ctx, target->ndim, target->shape, target->dtype, USMARR_ORDER_C, USMARR_USM_DEVICE,
                                    &yc);
            if (!rc)
                merge_batches(yc, xs, axis, &yio, &xio, &nbatch);
            ys = yc;
        }
    }
    if (!rc && nbatch > 0) {
        xio.valid = x->shape[axis];
        yio.valid = ys->shape[axis];
        xio.real_n = 0;
        yio.real_n = kind == USMARR__FFT_R2C ? n : 0;
        bool x_real = x->dtype == USMARR_FLOAT32 || x->dtype == USMARR_FLOAT64;
        rc = run_axis(ctx, kind, n, inverse, conj, scale, dbl, nbatch, &xio, &yio, x_real);
    }
    if (!rc && yc)
        rc = usmarr_array_copy_into(target, yc);
    usmarr_array_release(xc);
    usmarr_array_release(yc);
    return rc;
}
