/* Transforms along one axis on cl/fft.cl (doc/fft.md): the Stockham passes of a plan, or
 * Bluestein's three steps, from any view to any view; the real transforms of even length
 * as complex ones of half the length.  The batch dims (all but the axis) of the input and
 * the output are merged jointly into at most two (the kernels' addressing); where they do
 * not merge, the input is copied in C order, or the output written through a C-ordered
 * temporary. */
#include "fft_internal.h"

#include <stdio.h>
#include <stdlib.h>

#define GROUP 64

static int kernel_of(usmarr_context_t *ctx, bool dbl, const char *name, usmarr__kernel_t **k)
{
    return usmarr__kernel_get(ctx, "fft", dbl ? "-DD0=c128" : "-DD0=c64", name, k);
}

/* One launch of `total` work-items in groups of GROUP (one work-group size for every
 * length: PoCL compiles a kernel once per group size). */
static int launch(usmarr_context_t *ctx, usmarr__kernel_t *k, int nargs, const struct usmarr__karg *args,
                  int64_t total)
{
    if (total <= 0)
        return 0;
    size_t group = GROUP < ctx->profile.max_group ? GROUP : ctx->profile.max_group;
    size_t global = ((size_t)total + group - 1) / group * group;
    return usmarr__kernel_launch(ctx, k, nargs, args, 1, &global, &group);
}

static cl_long8 io_arg(const struct usmarr__fft_io *io)
{
    cl_long8 a = {{io->stride, io->inner_stride, io->inner > 0 ? io->inner : 1, io->outer_stride, io->valid, 0, 0, 0}};
    return a;
}

/* A C-ordered (nbatch, n) complex temporary of the precision */
static int temporary(usmarr_context_t *ctx, bool dbl, int64_t n, int64_t nbatch, usmarr_array_t **t)
{
    int64_t shape[2] = {nbatch, n};
    return usmarr_array_empty(ctx, 2, shape, dbl ? USMARR_COMPLEX128 : USMARR_COMPLEX64, USMARR_ORDER_C,
                              USMARR_USM_DEVICE, t);
}

static int bluestein(usmarr_context_t *ctx, const struct usmarr__fft_plan *p, int64_t nbatch,
                     const struct usmarr__fft_io *in, const struct usmarr__fft_io *out, unsigned first, unsigned last,
                     double scale)
{
    usmarr__kernel_t *pre, *mul, *post;
    usmarr_array_t *t = NULL;
    int rc;
    if ((rc = kernel_of(ctx, p->dbl, "usmarr_fft_chirp_pre", &pre)) ||
        (rc = kernel_of(ctx, p->dbl, "usmarr_fft_chirp_mul", &mul)) ||
        (rc = kernel_of(ctx, p->dbl, "usmarr_fft_chirp_post", &post)) || (rc = temporary(ctx, p->dbl, p->m, nbatch, &t)))
        return rc;
    void *buf = usmarr_array_data(t);
    cl_long n = p->n, m = p->m, nb = nbatch, total = p->m * nbatch;
    cl_long8 a_in = io_arg(in), a_out = io_arg(out);
    cl_int f_in = (cl_int)first, f_out = (cl_int)last;
    const struct usmarr__karg pre_args[] = {USMARR__ARG_PTR(in->data), USMARR__ARG_PTR(buf), USMARR__ARG_PTR(p->chirp),
                                            USMARR__ARG(n), USMARR__ARG(m), USMARR__ARG(nb), USMARR__ARG(a_in),
                                            USMARR__ARG(f_in)};
    rc = launch(ctx, pre, USMARR__NARGS(pre_args), pre_args, total);
    /* in place: the sub-plan (m >= 128) has two passes or more, through its temporaries */
    struct usmarr__fft_io io = {buf, 1, m, nbatch, 0, m};
    if (!rc)
        rc = usmarr__fft_complex(ctx, p->sub, nbatch, &io, &io, 0, 0, false, 1.0);
    const struct usmarr__karg mul_args[] = {USMARR__ARG_PTR(buf), USMARR__ARG_PTR(p->chirp_fft), USMARR__ARG(m),
                                            USMARR__ARG(total)};
    if (!rc)
        rc = launch(ctx, mul, USMARR__NARGS(mul_args), mul_args, total);
    if (!rc)
        rc = usmarr__fft_complex(ctx, p->sub, nbatch, &io, &io, 0, 0, false, 1.0);
    const struct usmarr__karg post_args[] = {
        USMARR__ARG_PTR(buf), USMARR__ARG_PTR(out->data), USMARR__ARG_PTR(p->chirp), USMARR__ARG(n),
        USMARR__ARG(m),       USMARR__ARG(nb),            USMARR__ARG(a_out),        USMARR__ARG(f_out),
        {0, NULL} /* scale, set below */
    };
    struct usmarr__karg args[USMARR__NARGS(post_args)];
    memcpy(args, post_args, sizeof args);
    float s32 = (float)(scale / (double)p->m);
    double s64 = scale / (double)p->m;
    args[8] = p->dbl ? (struct usmarr__karg)USMARR__ARG(s64) : (struct usmarr__karg)USMARR__ARG(s32);
    if (!rc)
        rc = launch(ctx, post, USMARR__NARGS(args), args, n * nbatch);
    usmarr_array_release(t);
    return rc;
}

int usmarr__fft_complex(usmarr_context_t *ctx, const struct usmarr__fft_plan *p, int64_t nbatch,
                        const struct usmarr__fft_io *in, const struct usmarr__fft_io *out, unsigned load,
                        unsigned store, bool inverse, double scale)
{
    if (nbatch <= 0)
        return 0;
    /* the inverse is conj(F(conj(x))) */
    unsigned first = load ^ (inverse ? USMARR__FFT_CONJ_LOAD : 0u), last = store ^ (inverse ? USMARR__FFT_CONJ_STORE : 0u);
    if (p->sub)
        return bluestein(ctx, p, nbatch, in, out, first, last, scale);
    int P = p->npasses, rc = 0;
    /* Work-items batch fastest where the input's batches are closer than its elements (a
     * transform down the columns): neighbouring items then read neighbouring addresses in
     * every pass, the temporaries being (n, nbatch). */
    int64_t si = in->inner_stride < 0 ? -in->inner_stride : in->inner_stride;
    int64_t se = in->stride < 0 ? -in->stride : in->stride;
    bool batch_fast = nbatch >= 8 && in->inner >= 8 && si < se;
    unsigned order = batch_fast ? USMARR__FFT_BATCH_FAST : 0u;
    usmarr_array_t *t[2] = {NULL, NULL};
    for (int i = 0; i < 2 && i < P - 1 && !rc; i++)
        rc = temporary(ctx, p->dbl, p->n, nbatch, &t[i]);
    struct usmarr__fft_io tio[2];
    for (int i = 0; i < 2; i++) {
        tio[i] = batch_fast ? (struct usmarr__fft_io){NULL, nbatch, 1, nbatch, 0, p->n}
                            : (struct usmarr__fft_io){NULL, 1, p->n, nbatch, 0, p->n};
        tio[i].data = t[i] ? usmarr_array_data(t[i]) : NULL;
    }
    for (int i = 0; i < P && !rc; i++) {
        int R = p->radix[i];
        const struct usmarr__fft_io *src = i == 0 ? in : &tio[(i - 1) % 2], *dst = i == P - 1 ? out : &tio[i % 2];
        unsigned flags = order | (i == 0 ? first : 0u) | (i == P - 1 ? last : 0u);
        char name[24];
        bool generic = R != 1 && R != 2 && R != 3 && R != 4 && R != 5 && R != 7 && R != 8 && R != 16;
        if (generic)
            snprintf(name, sizeof name, "usmarr_fft_rg");
        else
            snprintf(name, sizeof name, "usmarr_fft_r%d", R);
        usmarr__kernel_t *k;
        if ((rc = kernel_of(ctx, p->dbl, name, &k)))
            break;
        void *tw = (char *)p->twiddles + (size_t)p->twoff[i] * (p->dbl ? 16 : 8);
        cl_long n = p->n, ns = p->ns[i], nb = nbatch;
        cl_long8 a_in = io_arg(src), a_out = io_arg(dst);
        cl_int f = (cl_int)flags, radix = R;
        double s64 = i == P - 1 ? scale : 1.0;
        float s32 = (float)s64;
        struct usmarr__karg args[] = {USMARR__ARG_PTR(src->data), USMARR__ARG_PTR(dst->data), USMARR__ARG_PTR(tw),
                                      USMARR__ARG(n),             USMARR__ARG(ns),            USMARR__ARG(nb),
                                      USMARR__ARG(a_in),          USMARR__ARG(a_out),         USMARR__ARG(f),
                                      USMARR__ARG(s32),           USMARR__ARG(radix)};
        if (p->dbl)
            args[9] = (struct usmarr__karg)USMARR__ARG(s64);
        rc = launch(ctx, k, generic ? 11 : 10, args, p->n / R * nbatch);
    }
    usmarr_array_release(t[0]);
    usmarr_array_release(t[1]);
    return rc;
}

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
    if ((rc = usmarr__fft_plan_get(ctx, kind != USMARR__FFT_C2C && even ? h : n, dbl, &p)))
        return rc;
    unsigned cl = conj & USMARR__FFT_CONJ_LOAD, cs = conj & USMARR__FFT_CONJ_STORE;
    if (kind == USMARR__FFT_C2C) {
        rc = usmarr__fft_complex(ctx, p, nbatch, xio, yio, (x_real ? USMARR__FFT_LOAD_REAL : 0u) | cl, cs, inverse,
                                 scale);
    } else if (kind == USMARR__FFT_R2C && !even) {
        rc = usmarr__fft_complex(ctx, p, nbatch, xio, yio, USMARR__FFT_LOAD_REAL | cl, cs, false, scale);
    } else if (kind == USMARR__FFT_R2C) {
        if (!(rc = temporary(ctx, dbl, h, nbatch, &t))) {
            struct usmarr__fft_io z = {usmarr_array_data(t), 1, h, nbatch, 0, h};
            rc = usmarr__fft_complex(ctx, p, nbatch, xio, &z, USMARR__FFT_LOAD_PAIRS | cl, 0, false, 1.0);
            usmarr__kernel_t *k;
            if (!rc)
                rc = kernel_of(ctx, dbl, "usmarr_fft_r2c_post", &k);
            if (!rc) {
                cl_long hh = h, nb = nbatch;
                cl_long8 a = io_arg(yio);
                cl_int f = (cl_int)cs;
                float s32 = (float)scale;
                struct usmarr__karg args[] = {USMARR__ARG_PTR(z.data), USMARR__ARG_PTR(yio->data),
                                              USMARR__ARG_PTR(p->real_twiddles),
                                              USMARR__ARG(hh),        USMARR__ARG(nb),          USMARR__ARG(a),
                                              USMARR__ARG(f),         USMARR__ARG(s32)};
                if (dbl)
                    args[7] = (struct usmarr__karg)USMARR__ARG(scale);
                rc = launch(ctx, k, USMARR__NARGS(args), args, (h + 1) * nbatch);
            }
        }
    } else { /* C2R: even n through half the length, odd n through the whole spectrum */
        int64_t len = even ? h : n;
        usmarr__kernel_t *k;
        if (!(rc = temporary(ctx, dbl, len, nbatch, &t)) &&
            !(rc = kernel_of(ctx, dbl, even ? "usmarr_fft_c2r_pre" : "usmarr_fft_c2r_full", &k))) {
            struct usmarr__fft_io z = {usmarr_array_data(t), 1, len, nbatch, 0, len};
            cl_long ll = len, nb = nbatch;
            cl_long8 a = io_arg(xio);
            cl_int f = (cl_int)cl;
            struct usmarr__karg pre[] = {USMARR__ARG_PTR(xio->data), USMARR__ARG_PTR(z.data),
                                         USMARR__ARG_PTR(p->real_twiddles), USMARR__ARG(ll), USMARR__ARG(nb),
                                         USMARR__ARG(a), USMARR__ARG(f)};
            if (even)
                rc = launch(ctx, k, USMARR__NARGS(pre), pre, len * nbatch);
            else { /* no table */
                struct usmarr__karg full[] = {pre[0], pre[1], pre[3], pre[4], pre[5], pre[6]};
                rc = launch(ctx, k, USMARR__NARGS(full), full, len * nbatch);
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
    struct usmarr__fft_io xio, yio;
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
        bool x_real = x->dtype == USMARR_FLOAT32 || x->dtype == USMARR_FLOAT64;
        rc = run_axis(ctx, kind, n, inverse, conj, scale, dbl, nbatch, &xio, &yio, x_real);
    }
    if (!rc && yc)
        rc = usmarr_array_copy_into(target, yc);
    usmarr_array_release(xc);
    usmarr_array_release(yc);
    return rc;
}
