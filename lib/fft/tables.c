/* The tables of the plans (doc/fft.md, "Plans and twiddles"): roots of unity in double
 * precision from two short tables of exact sines and cosines (w^t = w^(B hi) w^lo, B the
 * power of two at or above sqrt(N)), the Stockham passes' twiddles and the real
 * transforms' table, made on a plan's first use of them, and their copies to device
 * memory. */
#include "fft_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void sincos_turn(int64_t t, int64_t N, double *c, double *s)
{
    double a = 2.0 * M_PI * (double)t / (double)N;
    *c = cos(a);
    *s = -sin(a);
    /* the exact quarter points */
    if ((t * 4) % N == 0) {
        int64_t q = t * 4 / N;
        *c = q == 0 ? 1 : q == 2 ? -1 : 0;
        *s = q == 1 ? -1 : q == 3 ? 1 : 0;
    }
}

int usmarr__fft_roots_init(struct usmarr__fft_roots *r, int64_t N)
{
    r->N = N;
    r->B = 1;
    while (r->B * r->B < N)
        r->B *= 2;
    int64_t nhi = N / r->B + 1;
    r->lo = malloc(sizeof(double) * 2 * (size_t)r->B);
    r->hi = malloc(sizeof(double) * 2 * (size_t)nhi);
    if (!r->lo || !r->hi) {
        free(r->lo);
        free(r->hi);
        return usmarr__fail(USMARR_ERROR_OUT_OF_HOST_MEMORY, "fft: twiddle tables of length %lld", (long long)N);
    }
    for (int64_t i = 0; i < r->B; i++)
        sincos_turn(i, N, &r->lo[2 * i], &r->lo[2 * i + 1]);
    for (int64_t i = 0; i < nhi; i++)
        sincos_turn((i * r->B) % N, N, &r->hi[2 * i], &r->hi[2 * i + 1]);
    return 0;
}

void usmarr__fft_roots_free(struct usmarr__fft_roots *r)
{
    free(r->lo);
    free(r->hi);
}

/* w^t into out[0..1] as double or float */
void usmarr__fft_root_store(const struct usmarr__fft_roots *r, int64_t t, bool dbl, void *out, int64_t index)
{
    t %= r->N;
    const double *a = &r->hi[2 * (t / r->B)], *b = &r->lo[2 * (t % r->B)];
    double re = a[0] * b[0] - a[1] * b[1], im = a[0] * b[1] + a[1] * b[0];
    if (t % r->B == 0) {
        re = a[0];
        im = a[1];
    }
    if (dbl) {
        ((double *)out)[2 * index] = re;
        ((double *)out)[2 * index + 1] = im;
    } else {
        ((float *)out)[2 * index] = (float)re;
        ((float *)out)[2 * index + 1] = (float)im;
    }
}

/* Device memory holding host[0, bytes) (raw USM of the context). */
int usmarr__fft_upload(usmarr_context_t *ctx, const void *host, size_t bytes, void **device)
{
    int rc = usmarr__usm_alloc(ctx, USMARR_USM_DEVICE, bytes ? bytes : 16, 0, device);
    if (rc || !bytes)
        return rc;
    usmarr__queue_lock(ctx);
    cl_int err = ctx->usm.memcpy(usmarr__queue_of(ctx), CL_TRUE, *device, host, bytes, 0, NULL, NULL);
    usmarr__queue_unlock(ctx);
    if (err != CL_SUCCESS) {
        usmarr__usm_free(ctx, *device);
        *device = NULL;
        return usmarr__cl_fail(err, "fft: copying a twiddle table");
    }
    return 0;
}

/* The radices with a kernel of their own (the others read their DFT matrix from the table) */
static bool special_radix(int r)
{
    return r == 1 || r == 2 || r == 3 || r == 4 || r == 5 || r == 7 || r == 8 || r == 16;
}

/* The passes' layout: ns and the offsets of their tables */
void usmarr__fft_lay_out_passes(struct usmarr__fft_plan *p)
{
    int64_t total = 0, ns = 1;
    for (int i = 0; i < p->npasses; i++) {
        int R = p->radix[i];
        p->ns[i] = ns;
        p->twoff[i] = total;
        total += (R - 1) * ns + (special_radix(R) ? 0 : R);
        ns *= R;
    }
    p->twsize = total;
}

/* The Stockham tables: pass p's entry (r - 1) ns + k is w_n^(r k n / (ns R)); a generic
 * radix appends its R roots. */
static int make_passes(usmarr_context_t *ctx, struct usmarr__fft_plan *p, const struct usmarr__fft_roots *w)
{
    size_t esize = p->dbl ? 16 : 8, bytes = (size_t)p->twsize * esize;
    void *host = malloc(bytes ? bytes : 1);
    if (!host)
        return usmarr__fail(USMARR_ERROR_OUT_OF_HOST_MEMORY, "fft: twiddles of length %lld", (long long)p->n);
    for (int i = 0; i < p->npasses; i++) {
        int R = p->radix[i];
        int64_t s = p->ns[i], step = p->n / (s * R), o = p->twoff[i];
        for (int r = 1; r < R; r++)
            for (int64_t k = 0; k < s; k++)
                usmarr__fft_root_store(w, (int64_t)r * k * step, p->dbl, host, o + (r - 1) * s + k);
        if (!special_radix(R))
            for (int j = 0; j < R; j++)
                usmarr__fft_root_store(w, (int64_t)j * (p->n / R), p->dbl, host, o + (R - 1) * s + j);
    }
    int rc = usmarr__fft_upload(ctx, host, bytes, &p->twiddles);
    free(host);
    return rc;
}

/* The real transforms' table of length 2n: exp(-2 pi i k / 2n), k in [0, n]. */
static int make_real(usmarr_context_t *ctx, struct usmarr__fft_plan *p, const struct usmarr__fft_roots *w2)
{
    size_t esize = p->dbl ? 16 : 8, bytes = esize * (size_t)(p->n + 1);
    void *host = malloc(bytes);
    if (!host)
        return usmarr__fail(USMARR_ERROR_OUT_OF_HOST_MEMORY, "fft: real twiddles of length %lld", (long long)p->n);
    for (int64_t k = 0; k <= p->n; k++)
        usmarr__fft_root_store(w2, k, p->dbl, host, k);
    int rc = usmarr__fft_upload(ctx, host, bytes, &p->real_twiddles);
    free(host);
    return rc;
}

/* The tables made on first use (a long length's transform runs in four steps, and only
 * real transforms need the real table): under the plan's lock. */
static int lazy_table(usmarr_context_t *ctx, struct usmarr__fft_plan *p, bool real, void **table)
{
    mtx_lock(&p->lock);
    int rc = 0;
    void **slot = real ? &p->real_twiddles : &p->twiddles;
    if (!*slot) {
        struct usmarr__fft_roots w;
        if (!(rc = usmarr__fft_roots_init(&w, real ? 2 * p->n : p->n))) {
            rc = real ? make_real(ctx, p, &w) : make_passes(ctx, p, &w);
            usmarr__fft_roots_free(&w);
        }
    }
    *table = *slot;
    mtx_unlock(&p->lock);
    return rc;
}

int usmarr__fft_plan_twiddles(usmarr_context_t *ctx, struct usmarr__fft_plan *plan, void **twiddles)
{
    return lazy_table(ctx, plan, false, twiddles);
}

int usmarr__fft_plan_real_twiddles(usmarr_context_t *ctx, struct usmarr__fft_plan *plan, void **twiddles)
{
    return lazy_table(ctx, plan, true, twiddles);
}
