/* The complex transform of a plan on cl/fft.cl (doc/fft.md): its Stockham passes through
 * two temporaries, or Bluestein's three steps around the passes of a power of two; from
 * any addressing to any addressing, and the kernel helpers of the real transforms
 * (axis.c). */
#include "fft_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GROUP 64

int usmarr__fft_kernel(usmarr_context_t *ctx, bool dbl, const char *name, usmarr__kernel_t **k)
{
    return usmarr__kernel_get(ctx, "fft", dbl ? "-DD0=c128" : "-DD0=c64", name, k);
}

/* One work-group size for every length: PoCL compiles a kernel once per group size. */
int usmarr__fft_launch(usmarr_context_t *ctx, usmarr__kernel_t *k, int nargs, const struct usmarr__karg *args,
                       int64_t total)
{
    if (total <= 0)
        return 0;
    size_t group = GROUP < ctx->profile.max_group ? GROUP : ctx->profile.max_group;
    size_t global = ((size_t)total + group - 1) / group * group;
    return usmarr__kernel_launch(ctx, k, nargs, args, 1, &global, &group);
}

cl_long8 usmarr__fft_io_arg(const struct usmarr__fft_io *io)
{
    cl_long8 a = {{io->stride, io->inner_stride, io->inner > 0 ? io->inner : 1, io->outer_stride, io->valid, io->real_n,
                   io->pair, 0}};
    return a;
}

/* Device arrays in size classes (`classes` an octave: 8 for results, 1 for temporaries,
 * which live for one call) so that the pool of released blocks, which hands out blocks of
 * one size, serves the next length too: a fresh block costs its first touches, more than a
 * whole transform's plan. */
int usmarr__fft_empty(usmarr_context_t *ctx, usmarr_dtype_t dtype, int ndim, const int64_t *shape, int classes,
                      usmarr_array_t **out)
{
    int64_t count = 1, step = 512;
    for (int d = 0; d < ndim; d++)
        count *= shape[d];
    while (step * 2 * classes <= count)
        step *= 2;
    count = (count + step - 1) / step * step;
    usmarr_memory_t *m = NULL;
    int rc = usmarr_memory_create(ctx, USMARR_USM_DEVICE, (size_t)count * usmarr_dtype_size(dtype), 0, &m);
    if (rc)
        return rc;
    rc = usmarr__array_new(m, dtype, ndim, shape, NULL, 0, USMARR_FLAG_WRITABLE, out);
    if (!rc)
        usmarr__advise_huge_pages(ctx, m->pointer, m->size);
    usmarr_memory_release(m);
    return rc;
}

int usmarr__fft_temporary(usmarr_context_t *ctx, bool dbl, int64_t n, int64_t nbatch, usmarr_array_t **t)
{
    int64_t shape[2] = {nbatch, n};
    return usmarr__fft_empty(ctx, dbl ? USMARR_COMPLEX128 : USMARR_COMPLEX64, 2, shape, 1, t);
}

static int bluestein(usmarr_context_t *ctx, struct usmarr__fft_plan *p, int64_t nbatch, const struct usmarr__fft_io *in,
                     const struct usmarr__fft_io *out, unsigned first, unsigned last, double scale)
{
    usmarr__kernel_t *pre, *mul, *post;
    usmarr_array_t *t = NULL;
    int rc;
    if ((rc = usmarr__fft_kernel(ctx, p->dbl, "usmarr_fft_chirp_pre", &pre)) ||
        (rc = usmarr__fft_kernel(ctx, p->dbl, "usmarr_fft_chirp_mul", &mul)) ||
        (rc = usmarr__fft_kernel(ctx, p->dbl, "usmarr_fft_chirp_post", &post)) ||
        (rc = usmarr__fft_temporary(ctx, p->dbl, p->m, nbatch, &t)))
        return rc;
    void *buf = usmarr_array_data(t);
    cl_long n = p->n, m = p->m, nb = nbatch, total = p->m * nbatch;
    cl_long8 a_in = usmarr__fft_io_arg(in), a_out = usmarr__fft_io_arg(out);
    cl_int f_in = (cl_int)first, f_out = (cl_int)last;
    const struct usmarr__karg pre_args[] = {
        USMARR__ARG_PTR(in->data), USMARR__ARG_PTR(buf), USMARR__ARG_PTR(p->chirp), USMARR__ARG(n), USMARR__ARG(m),
        USMARR__ARG(nb),           USMARR__ARG(a_in),    USMARR__ARG(f_in)};
    rc = usmarr__fft_launch(ctx, pre, USMARR__NARGS(pre_args), pre_args, total);
    /* in place: the sub-plan (m >= 128) has two passes or more, through its temporaries */
    struct usmarr__fft_io io = {buf, 1, m, nbatch, 0, m, 0, 0};
    if (!rc)
        rc = usmarr__fft_complex(ctx, p->sub, nbatch, &io, &io, 0, 0, false, 1.0);
    const struct usmarr__karg mul_args[] = {USMARR__ARG_PTR(buf), USMARR__ARG_PTR(p->chirp_fft), USMARR__ARG(m),
                                            USMARR__ARG(total)};
    if (!rc)
        rc = usmarr__fft_launch(ctx, mul, USMARR__NARGS(mul_args), mul_args, total);
    if (!rc)
        rc = usmarr__fft_complex(ctx, p->sub, nbatch, &io, &io, 0, 0, false, 1.0);
    const struct usmarr__karg post_args[] = {
        USMARR__ARG_PTR(buf), USMARR__ARG_PTR(out->data), USMARR__ARG_PTR(p->chirp), USMARR__ARG(n), USMARR__ARG(m),
        USMARR__ARG(nb),      USMARR__ARG(a_out),         USMARR__ARG(f_out),        {0, NULL} /* scale, set below */
    };
    struct usmarr__karg args[USMARR__NARGS(post_args)];
    memcpy(args, post_args, sizeof args);
    float s32 = (float)(scale / (double)p->m);
    double s64 = scale / (double)p->m;
    args[8] = p->dbl ? (struct usmarr__karg)USMARR__ARG(s64) : (struct usmarr__karg)USMARR__ARG(s32);
    if (!rc)
        rc = usmarr__fft_launch(ctx, post, USMARR__NARGS(args), args, n * nbatch);
    usmarr_array_release(t);
    return rc;
}

#define LOCAL_GROUP 64 /* usmarr_fft_local's reqd_work_group_size */
#define LOCAL_MAX_PASSES 8
#define LOCAL_SIGNALS 8 /* cl/fft.cl's FFT_LOCAL_SIGNALS */

/* Whether the plan's whole transform runs in one work-group's local memory */
static bool local_fits(const usmarr_context_t *ctx, const struct usmarr__fft_plan *p)
{
    return !p->sub && p->n <= usmarr__fft_local_max(ctx, p->dbl) && p->npasses <= LOCAL_MAX_PASSES;
}

int64_t usmarr__fft_local_max(const usmarr_context_t *ctx, bool dbl)
{
    int64_t esize = dbl ? 16 : 8, fit = ((int64_t)ctx->profile.local_mem - 4096) / (2 * esize), lim = 4096;
    if (ctx->profile.max_group < LOCAL_GROUP)
        return 0;
    return fit < lim ? fit : lim;
}

/* The short transforms' extra tables (cl/fft.cl): a four-step's roots (FFT_POST_TWIDDLE)
 * or Bluestein's chirp and its transform (FFT_BLUESTEIN); NULL when unused. */
struct extra {
    const void *hi, *lo;
    int shift;
};

/* A launch of a short kernel (usmarr_fft_local, usmarr_fft_lanes): the kernel, the plan's
 * twiddles and the arguments both take first, in their order; each appends its own. */
struct short_launch {
    usmarr__kernel_t *k;
    void *tw;
    cl_int8 radix, twoff;
    cl_long n, nb;
    cl_int np, f, shift;
    cl_long8 a_in, a_out;
    float s32;
    double s64;
    struct usmarr__karg args[20];
    int nargs;
};

static int short_setup(usmarr_context_t *ctx, struct usmarr__fft_plan *p, const char *name, int64_t nbatch,
                       const struct usmarr__fft_io *in, const struct usmarr__fft_io *out, unsigned flags, double scale,
                       const struct extra *x, struct short_launch *s)
{
    int rc = usmarr__fft_kernel(ctx, p->dbl, name, &s->k);
    if (!rc)
        rc = usmarr__fft_plan_twiddles(ctx, p, &s->tw);
    if (rc)
        return rc;
    for (int i = 0; i < 8; i++) {
        s->radix.s[i] = i < p->npasses ? p->radix[i] : 1;
        s->twoff.s[i] = i < p->npasses ? (cl_int)p->twoff[i] : 0;
    }
    s->n = p->n;
    s->nb = nbatch;
    s->np = p->npasses;
    s->f = (cl_int)flags;
    s->shift = x->shift;
    s->a_in = usmarr__fft_io_arg(in);
    s->a_out = usmarr__fft_io_arg(out);
    s->s32 = (float)scale;
    s->s64 = scale;
    const struct usmarr__karg args[] = {USMARR__ARG_PTR(in->data),
                                        USMARR__ARG_PTR(out->data),
                                        USMARR__ARG_PTR(s->tw),
                                        USMARR__ARG(s->n),
                                        USMARR__ARG(s->np),
                                        USMARR__ARG(s->radix),
                                        USMARR__ARG(s->twoff),
                                        USMARR__ARG(s->a_in),
                                        USMARR__ARG(s->a_out),
                                        USMARR__ARG(s->f),
                                        p->dbl ? USMARR__ARG(s->s64) : USMARR__ARG(s->s32),
                                        USMARR__ARG_PTR(x->hi ? x->hi : s->tw),
                                        USMARR__ARG_PTR(x->lo ? x->lo : s->tw),
                                        USMARR__ARG(s->shift),
                                        USMARR__ARG(s->nb)};
    s->nargs = (int)USMARR__NARGS(args);
    memcpy(s->args, args, sizeof args);
    return 0;
}

/* The whole transform of each signal in local memory (usmarr_fft_local) */
static int run_local(usmarr_context_t *ctx, struct usmarr__fft_plan *p, int64_t nbatch, const struct usmarr__fft_io *in,
                     const struct usmarr__fft_io *out, unsigned flags, double scale, const struct extra *x)
{
    /* Several signals a group where they lie closer than their elements (columns: each read
     * and write then walks the signals fastest), and where they are short (so that the 64
     * work-items have work in every pass). */
    int64_t lim = usmarr__fft_local_max(ctx, p->dbl), signals = 1;
    bool in_close = in->inner > 1 && llabs(in->inner_stride) < llabs(in->stride);
    bool out_close = out->inner > 1 && llabs(out->inner_stride) < llabs(out->stride);
    while (signals < LOCAL_SIGNALS && signals * 2 * p->n <= lim && signals * 2 <= nbatch &&
           (in_close || out_close || signals * p->n < 1024))
        signals *= 2;
    if (signals > 1)
        flags |= (in_close ? USMARR__FFT_LOAD_SIGNALS_FAST : 0u) | (out_close ? USMARR__FFT_STORE_SIGNALS_FAST : 0u);
    struct short_launch s;
    int rc = short_setup(ctx, p, "usmarr_fft_local", nbatch, in, out, flags, scale, x, &s);
    if (rc)
        return rc;
    cl_int C = (cl_int)signals;
    size_t bytes = (p->dbl ? 16 : 8) * (size_t)(p->n * signals);
    s.args[s.nargs++] = USMARR__ARG(C);
    s.args[s.nargs++] = USMARR__ARG_LOCAL(bytes);
    s.args[s.nargs++] = USMARR__ARG_LOCAL(bytes);
    size_t global[2] = {LOCAL_GROUP, (size_t)((nbatch + signals - 1) / signals)}, local[2] = {LOCAL_GROUP, 1};
    return usmarr__kernel_launch(ctx, s.k, s.nargs, s.args, 2, global, local);
}

#define LANES 8 /* cl/fft.cl's FFT_LANES */

/* Whole transforms of LANES signals a work-item as vectors (usmarr_fft_lanes): the plan's
 * passes over signals of `len` elements (Bluestein: p is the padded length's plan).  A
 * few work-items a compute unit each loop over blocks of signals, with two rows of p->n
 * vectors of scratch each. */
static int run_lanes(usmarr_context_t *ctx, struct usmarr__fft_plan *p, int64_t len, int64_t nbatch,
                     const struct usmarr__fft_io *in, const struct usmarr__fft_io *out, unsigned flags, double scale,
                     const struct extra *x)
{
    struct short_launch s;
    usmarr_array_t *scratch = NULL;
    int64_t blocks = (nbatch + LANES - 1) / LANES, items = 4 * (int64_t)(ctx->profile.compute_units + 1);
    if (items > blocks)
        items = blocks;
    int rc = short_setup(ctx, p, "usmarr_fft_lanes", nbatch, in, out, flags, scale, x, &s);
    if (!rc)
        rc = usmarr__fft_temporary(ctx, p->dbl, 2 * LANES * p->n, items, &scratch);
    if (rc)
        return rc;
    void *sp = usmarr_array_data(scratch);
    cl_long l = len;
    s.args[s.nargs++] = USMARR__ARG(l);
    s.args[s.nargs++] = USMARR__ARG_PTR(sp);
    size_t global = (size_t)items, local = 1;
    rc = usmarr__kernel_launch(ctx, s.k, s.nargs, s.args, 1, &global, &local);
    usmarr_array_release(scratch);
    return rc;
}

/* Whether batches of the plan's transforms run as lanes: on CPUs (on GPUs one work-item a
 * block of signals leaves the device idle; the gpu kernel shape, the GPU stand-in on a
 * CPU, keeps their paths too), for two blocks of signals or more */
static bool lanes_fit(const usmarr_context_t *ctx, const struct usmarr__fft_plan *p, int64_t nbatch)
{
    return (ctx->profile.type & CL_DEVICE_TYPE_CPU) && strcmp(ctx->shape.name, "gpu") != 0 && nbatch >= 2 * LANES &&
           local_fits(ctx, p);
}

/* A plan that fits one work-group's local memory, as lanes or in local memory */
static int run_short(usmarr_context_t *ctx, struct usmarr__fft_plan *p, int64_t nbatch, const struct usmarr__fft_io *in,
                     const struct usmarr__fft_io *out, unsigned flags, double scale, const struct extra *x)
{
    if (lanes_fit(ctx, p, nbatch))
        return run_lanes(ctx, p, p->n, nbatch, in, out, flags, scale, x);
    return run_local(ctx, p, nbatch, in, out, flags, scale, x);
}

/* n = n1 n2: the n2 columns (stride n2) transformed (run_short) and multiplied by
 * w^(k1 j2) from the plan's two root tables into a temporary of rows, then the n1 rows
 * transformed and written transposed, X[k1 + n1 k2]: two passes over the data, each a
 * gather of short signals.  Only for single-level batches, no padding or cropping. */
static bool four_step_fits(struct usmarr__fft_plan *p, int64_t nbatch, const struct usmarr__fft_io *in,
                           const struct usmarr__fft_io *out, unsigned load)
{
    bool pairs = (load & 3u) == USMARR__FFT_LOAD_PAIRS;
    return p->cols && (nbatch == 1 || (in->inner >= nbatch && out->inner >= nbatch)) &&
           in->valid >= (pairs ? 2 * p->n : p->n) && out->valid >= p->n && !out->real_n;
}

static int four_step(usmarr_context_t *ctx, struct usmarr__fft_plan *p, int64_t nbatch, const struct usmarr__fft_io *in,
                     const struct usmarr__fft_io *out, unsigned first, unsigned last, double scale)
{
    int64_t n = p->n, n1 = p->cols->n, n2 = p->rows->n, big = INT64_MAX / 4;
    usmarr_array_t *t = NULL;
    int rc = usmarr__fft_temporary(ctx, p->dbl, n, nbatch, &t);
    if (rc)
        return rc;
    bool pin = (first & 3u) == USMARR__FFT_LOAD_PAIRS, pout = (last & USMARR__FFT_STORE_PAIRS) != 0;
    int64_t si = in->stride, so = out->stride;
    struct usmarr__fft_io a_in = {
        in->data, n2 * si, pin ? 2 * si : si, n2, in->inner_stride, big, 0, pin ? (in->pair ? in->pair : si) : 0};
    struct usmarr__fft_io a_out = {usmarr_array_data(t), n2, 1, n2, n, n, 0, 0};
    struct usmarr__fft_io b_in = {usmarr_array_data(t), 1, n2, n1, n, n, 0, 0};
    struct usmarr__fft_io b_out = {
        out->data, n1 * so, pout ? 2 * so : so, n1, out->inner_stride, big, 0, pout ? (out->pair ? out->pair : so) : 0};
    const struct extra roots = {p->roots_hi, p->roots_lo, p->roots_shift}, none = {NULL, NULL, 0};
    rc = run_short(ctx, p->cols, nbatch * n2, &a_in, &a_out, first | USMARR__FFT_POST_TWIDDLE, 1.0, &roots);
    if (!rc)
        rc = run_short(ctx, p->rows, nbatch * n1, &b_in, &b_out, last, scale, &none);
    usmarr_array_release(t);
    return rc;
}

int usmarr__fft_complex(usmarr_context_t *ctx, struct usmarr__fft_plan *p, int64_t nbatch,
                        const struct usmarr__fft_io *in, const struct usmarr__fft_io *out, unsigned load,
                        unsigned store, bool inverse, double scale)
{
    if (nbatch <= 0)
        return 0;
    /* the inverse is conj(F(conj(x))) */
    unsigned first = load ^ (inverse ? USMARR__FFT_CONJ_LOAD : 0u),
             last = store ^ (inverse ? USMARR__FFT_CONJ_STORE : 0u);
    if (p->sub && lanes_fit(ctx, p->sub, nbatch)) {
        const struct extra chirp = {p->chirp, p->chirp_fft, 0};
        return run_lanes(ctx, p->sub, p->n, nbatch, in, out, first | last | USMARR__FFT_BLUESTEIN,
                         scale / (double)p->m, &chirp);
    }
    if (p->sub)
        return bluestein(ctx, p, nbatch, in, out, first, last, scale);
    if (local_fits(ctx, p)) {
        const struct extra none = {NULL, NULL, 0};
        return run_short(ctx, p, nbatch, in, out, first | last, scale, &none);
    }
    if (four_step_fits(p, nbatch, in, out, load))
        return four_step(ctx, p, nbatch, in, out, first, last, scale);
    int P = p->npasses;
    void *table;
    int rc = usmarr__fft_plan_twiddles(ctx, p, &table);
    /* Work-items batch fastest where the input's batches are closer than its elements (a
     * transform down the columns): neighbouring items then read neighbouring addresses in
     * every pass, the temporaries being (n, nbatch). */
    int64_t si = in->inner_stride < 0 ? -in->inner_stride : in->inner_stride;
    int64_t se = in->stride < 0 ? -in->stride : in->stride;
    bool batch_fast = nbatch >= 8 && in->inner >= 8 && si < se;
    unsigned order = batch_fast ? USMARR__FFT_BATCH_FAST : 0u;
    usmarr_array_t *t[2] = {NULL, NULL};
    for (int i = 0; i < 2 && i < P - 1 && !rc; i++)
        rc = usmarr__fft_temporary(ctx, p->dbl, p->n, nbatch, &t[i]);
    struct usmarr__fft_io tio[2];
    for (int i = 0; i < 2; i++) {
        tio[i] = batch_fast ? (struct usmarr__fft_io){NULL, nbatch, 1, nbatch, 0, p->n, 0, 0}
                            : (struct usmarr__fft_io){NULL, 1, p->n, nbatch, 0, p->n, 0, 0};
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
        if ((rc = usmarr__fft_kernel(ctx, p->dbl, name, &k)))
            break;
        void *tw = (char *)table + (size_t)p->twoff[i] * (p->dbl ? 16 : 8);
        cl_long n = p->n, ns = p->ns[i], nb = nbatch;
        cl_long8 a_in = usmarr__fft_io_arg(src), a_out = usmarr__fft_io_arg(dst);
        cl_int f = (cl_int)flags, radix = R;
        double s64 = i == P - 1 ? scale : 1.0;
        float s32 = (float)s64;
        struct usmarr__karg args[] = {USMARR__ARG_PTR(src->data),
                                      USMARR__ARG_PTR(dst->data),
                                      USMARR__ARG_PTR(tw),
                                      USMARR__ARG(n),
                                      USMARR__ARG(ns),
                                      USMARR__ARG(nb),
                                      USMARR__ARG(a_in),
                                      USMARR__ARG(a_out),
                                      USMARR__ARG(f),
                                      USMARR__ARG(s32),
                                      USMARR__ARG(radix)};
        if (p->dbl)
            args[9] = (struct usmarr__karg)USMARR__ARG(s64);
        rc = usmarr__fft_launch(ctx, k, generic ? 11 : 10, args, p->n / R * nbatch);
    }
    usmarr_array_release(t[0]);
    usmarr_array_release(t[1]);
    return rc;
}
