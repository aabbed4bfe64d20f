/* Plans of the transforms (doc/fft.md, "Plans and twiddles"): a length's factorisation
 * into Stockham passes with their twiddle tables, or Bluestein's chirp for lengths with a
 * prime factor above USMARR__FFT_MAX_RADIX, kept per context in a bounded cache.
 *
 * Tables are computed on the host in double precision from two short tables of exact
 * sines and cosines (w^t = w^(B hi) w^lo, B ~ sqrt(n)): a new length costs about one
 * complex product per entry, no kernel build and no sin/cos per entry; a plan makes the
 * tables its transforms need first (four-step or Bluestein's), the passes' and the real
 * transforms' on first use. */
#include "fft_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define CACHE_PLANS 32
#define CACHE_BYTES ((size_t)512 << 20)

struct usmarr__fft_cache {
    mtx_t lock;
    int count;
    size_t bytes;
    uint64_t clock;
    struct {
        struct usmarr__fft_plan *plan;
        uint64_t used;
    } entries[CACHE_PLANS];
};

/* exp(-2 pi i t / N) for t in [0, N) as hi[t / B] * lo[t % B] */
struct roots {
    int64_t N, B;
    double *lo, *hi; /* interleaved (cos, -sin) pairs */
};

static void sincos_turn(int64_t t, int64_t N, double *c, double *s)
{
    /* reduce to the first octant for exact symmetries: 8t/N in [0, 1] */
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

static int roots_init(struct roots *r, int64_t N)
{
    r->N = N;
    r->B = (int64_t)ceil(sqrt((double)N));
    if (r->B < 1)
        r->B = 1;
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

static void roots_free(struct roots *r)
{
    free(r->lo);
    free(r->hi);
}

/* w^t into out[0..1] as double or float */
static void root_store(const struct roots *r, int64_t t, bool dbl, void *out, int64_t index)
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
static int upload(usmarr_context_t *ctx, const void *host, size_t bytes, void **device)
{
    int rc = usmarr__usm_alloc(ctx, USMARR_USM_DEVICE, bytes ? bytes : 16, 0, device);
    if (rc || !bytes)
        return rc;
    usmarr__queue_lock(ctx);
    cl_int err = ctx->usm.memcpy(ctx->queue, CL_TRUE, *device, host, bytes, 0, NULL, NULL);
    usmarr__queue_unlock(ctx);
    if (err != CL_SUCCESS) {
        usmarr__usm_free(ctx, *device);
        *device = NULL;
        return usmarr__cl_fail(err, "fft: copying a twiddle table");
    }
    return 0;
}

/* The passes of n: radix 16 as often as it goes (8 and 4 for the rest of the power of
 * two), then 3, 5, 7 and the odd primes up to USMARR__FFT_MAX_RADIX; false when a larger
 * prime remains. */
static bool factor(int64_t n, int *radix, int *npasses)
{
    int np = 0, e = 0;
    while (n % 2 == 0) {
        n /= 2;
        e++;
    }
    int sixteens = e / 4, rest = e % 4;
    if (rest == 1 && sixteens > 0) { /* 2^(4a+1) = 16^(a-1) * 8 * 4 */
        sixteens--;
        radix[np++] = 8;
        radix[np++] = 4;
    } else if (rest) {
        radix[np++] = 1 << rest;
    }
    for (int i = 0; i < sixteens; i++)
        radix[np++] = 16;
    for (int p = 3; p <= USMARR__FFT_MAX_RADIX && n > 1; p += 2)
        while (n % p == 0) {
            n /= p;
            radix[np++] = p;
        }
    if (np == 0)
        radix[np++] = 1; /* length 1: one copying pass */
    *npasses = np;
    return n == 1;
}

static bool special_radix(int r) { return r == 1 || r == 2 || r == 3 || r == 4 || r == 5 || r == 7 || r == 8 || r == 16; }

static void plan_free(usmarr_context_t *ctx, struct usmarr__fft_plan *p)
{
    if (!p)
        return;
    void *mem[5] = {p->twiddles, p->chirp, p->chirp_fft, p->real_twiddles, p->post};
    for (int i = 0; i < 5; i++)
        if (mem[i])
            usmarr__usm_free(ctx, mem[i]);
    usmarr__fft_plan_release(ctx, p->sub);
    usmarr__fft_plan_release(ctx, p->cols);
    usmarr__fft_plan_release(ctx, p->rows);
    mtx_destroy(&p->lock);
    free(p);
}

void usmarr__fft_plan_release(usmarr_context_t *ctx, struct usmarr__fft_plan *plan)
{
    if (plan && USMARR__RELEASE_LAST(plan))
        plan_free(ctx, plan);
}

/* The passes' layout: ns and the offsets of their tables */
static void lay_out_passes(struct usmarr__fft_plan *p)
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
static int make_passes(usmarr_context_t *ctx, struct usmarr__fft_plan *p, const struct roots *w)
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
                root_store(w, (int64_t)r * k * step, p->dbl, host, o + (r - 1) * s + k);
        if (!special_radix(R))
            for (int j = 0; j < R; j++)
                root_store(w, (int64_t)j * (p->n / R), p->dbl, host, o + (R - 1) * s + j);
    }
    int rc = upload(ctx, host, bytes, &p->twiddles);
    free(host);
    return rc;
}

/* Bluestein: chirp c_k = w_2n^(k^2 mod 2n), and the length-m transform of conj(c) wrapped
 * (b_k = b_{m-k} = conj(c_k), zero between). */
static int make_bluestein(usmarr_context_t *ctx, struct usmarr__fft_plan *p)
{
    int64_t n = p->n, m = 1;
    while (m < 2 * n - 1)
        m *= 2;
    p->m = m;
    int rc = usmarr__fft_plan_get(ctx, m, p->dbl, &p->sub);
    if (rc)
        return rc;
    struct roots w;
    if ((rc = roots_init(&w, 2 * n)))
        return rc;
    size_t esize = p->dbl ? 16 : 8;
    void *chirp = malloc(esize * (size_t)n), *b = calloc((size_t)m, esize);
    void *bdev = NULL;
    if (!chirp || !b) {
        rc = usmarr__fail(USMARR_ERROR_OUT_OF_HOST_MEMORY, "fft: Bluestein tables of length %lld", (long long)n);
        goto done;
    }
    int64_t q = 0; /* k^2 mod 2n */
    for (int64_t k = 0; k < n; k++) {
        root_store(&w, q, p->dbl, chirp, k);
        root_store(&w, (2 * n - q) % (2 * n), p->dbl, b, k);
        if (k)
            memcpy((char *)b + esize * (size_t)(m - k), (char *)b + esize * (size_t)k, esize);
        q = (q + 2 * k + 1) % (2 * n);
    }
    if ((rc = upload(ctx, chirp, esize * (size_t)n, &p->chirp)) || (rc = upload(ctx, b, esize * (size_t)m, &bdev)) ||
        (rc = usmarr__usm_alloc(ctx, USMARR_USM_DEVICE, esize * (size_t)m, 0, &p->chirp_fft)))
        goto done;
    p->bytes += esize * (size_t)(n + m);
    struct usmarr__fft_io in = {bdev, 1, m, 1, 0, m, 0, 0}, out = {p->chirp_fft, 1, m, 1, 0, m, 0, 0};
    rc = usmarr__fft_complex(ctx, p->sub, 1, &in, &out, 0, 0, false, 1.0);
done:
    if (bdev)
        usmarr__usm_free(ctx, bdev);
    free(chirp);
    free(b);
    roots_free(&w);
    return rc;
}

/* n = n1 n2 with both within one work-group's reach (n2, the rows, the divisor nearest
 * sqrt(n) from above): the two plans and the table between the steps.  A no-op when there
 * is no such split. */
static int make_four_step(usmarr_context_t *ctx, struct usmarr__fft_plan *p, const struct roots *w)
{
    int64_t lim = usmarr__fft_local_max(ctx, p->dbl), n = p->n, n2 = 0;
    for (int64_t d = (int64_t)ceil(sqrt((double)n)); d <= lim && !n2; d++)
        if (n % d == 0 && n / d <= lim)
            n2 = d;
    if (!n2)
        return 0;
    int64_t n1 = n / n2;
    int rc = usmarr__fft_plan_get(ctx, n1, p->dbl, &p->cols);
    if (!rc)
        rc = usmarr__fft_plan_get(ctx, n2, p->dbl, &p->rows);
    if (rc)
        return rc;
    /* the n entries on the device, from w's two short tables */
    size_t esize = p->dbl ? 16 : 8, bytes = esize * (size_t)n;
    int64_t nhi = n / w->B + 1;
    void *host = malloc(esize * (size_t)(w->B + nhi)), *dev = NULL;
    if (!host)
        return usmarr__fail(USMARR_ERROR_OUT_OF_HOST_MEMORY, "fft: four-step table of length %lld", (long long)n);
    for (int64_t i = 0; i < nhi; i++)
        root_store(w, (i * w->B) % n, p->dbl, host, i);
    for (int64_t i = 0; i < w->B; i++)
        root_store(w, i, p->dbl, host, nhi + i);
    usmarr__kernel_t *k;
    if (!(rc = upload(ctx, host, esize * (size_t)(w->B + nhi), &dev)) &&
        !(rc = usmarr__usm_alloc(ctx, USMARR_USM_DEVICE, bytes, 0, &p->post)) &&
        !(rc = usmarr__fft_kernel(ctx, p->dbl, "usmarr_fft_roots", &k))) {
        void *lo = (char *)dev + esize * (size_t)nhi;
        cl_long nn2 = n2, N = n, B = w->B, count = n;
        const struct usmarr__karg args[] = {USMARR__ARG_PTR(p->post), USMARR__ARG_PTR(dev), USMARR__ARG_PTR(lo),
                                            USMARR__ARG(nn2),         USMARR__ARG(N),          USMARR__ARG(B),
                                            USMARR__ARG(count)};
        rc = usmarr__fft_launch(ctx, k, USMARR__NARGS(args), args, n);
    }
    if (dev)
        usmarr__usm_free(ctx, dev); /* a blocking free: after the launch that reads it */
    p->bytes += bytes;
    free(host);
    return rc;
}

/* The real transforms' table of length 2n: exp(-2 pi i k / 2n), k in [0, n]. */
static int make_real(usmarr_context_t *ctx, struct usmarr__fft_plan *p, const struct roots *w2)
{
    size_t esize = p->dbl ? 16 : 8, bytes = esize * (size_t)(p->n + 1);
    void *host = malloc(bytes);
    if (!host)
        return usmarr__fail(USMARR_ERROR_OUT_OF_HOST_MEMORY, "fft: real twiddles of length %lld", (long long)p->n);
    for (int64_t k = 0; k <= p->n; k++)
        root_store(w2, k, p->dbl, host, k);
    int rc = upload(ctx, host, bytes, &p->real_twiddles);
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
        struct roots w;
        if (!(rc = roots_init(&w, real ? 2 * p->n : p->n))) {
            rc = real ? make_real(ctx, p, &w) : make_passes(ctx, p, &w);
            roots_free(&w);
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

static int plan_make(usmarr_context_t *ctx, int64_t n, bool dbl, struct usmarr__fft_plan **out)
{
    struct usmarr__fft_plan *p = calloc(1, sizeof *p);
    if (!p)
        return usmarr__fail(USMARR_ERROR_OUT_OF_HOST_MEMORY, "fft: plan of length %lld", (long long)n);
    usmarr__ref_init(&p->refcount);
    if (mtx_init(&p->lock, mtx_plain) != thrd_success) {
        free(p);
        return usmarr__fail(USMARR_ERROR_OUT_OF_HOST_MEMORY, "fft: plan lock");
    }
    p->n = n;
    p->dbl = dbl;
    int rc = 0;
    if (factor(n, p->radix, &p->npasses)) {
        lay_out_passes(p);
        if (n > usmarr__fft_local_max(ctx, dbl)) {
            struct roots w;
            if (!(rc = roots_init(&w, n))) {
                rc = make_four_step(ctx, p, &w);
                roots_free(&w);
            }
        }
    } else {
        p->npasses = 0; /* p->sub marks Bluestein's plans */
        rc = make_bluestein(ctx, p);
    }
    if (rc) {
        plan_free(ctx, p);
        return rc;
    }
    *out = p;
    return 0;
}

static void cache_free(usmarr_context_t *ctx)
{
    struct usmarr__fft_cache *c = atomic_load(&ctx->fft);
    if (!c)
        return;
    for (int i = 0; i < c->count; i++)
        usmarr__fft_plan_release(ctx, c->entries[i].plan);
    mtx_destroy(&c->lock);
    free(c);
}

static struct usmarr__fft_cache *cache_of(usmarr_context_t *ctx)
{
    struct usmarr__fft_cache *c = atomic_load(&ctx->fft);
    if (c)
        return c;
    c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    if (mtx_init(&c->lock, mtx_plain) != thrd_success) {
        free(c);
        return NULL;
    }
    ctx->fft_free = cache_free;
    struct usmarr__fft_cache *expected = NULL;
    if (!atomic_compare_exchange_strong(&ctx->fft, &expected, c)) {
        mtx_destroy(&c->lock);
        free(c);
        return expected;
    }
    return c;
}

/* Under the lock: the entry of (n, dbl), or -1 */
static int cache_find(struct usmarr__fft_cache *c, int64_t n, bool dbl)
{
    for (int i = 0; i < c->count; i++)
        if (c->entries[i].plan->n == n && c->entries[i].plan->dbl == dbl)
            return i;
    return -1;
}

int usmarr__fft_plan_get(usmarr_context_t *ctx, int64_t n, bool dbl, struct usmarr__fft_plan **plan)
{
    struct usmarr__fft_cache *c = cache_of(ctx);
    if (!c)
        return usmarr__fail(USMARR_ERROR_OUT_OF_HOST_MEMORY, "fft: plan cache");
    mtx_lock(&c->lock);
    int i = cache_find(c, n, dbl);
    if (i >= 0) {
        c->entries[i].used = ++c->clock;
        *plan = USMARR__RETAIN(c->entries[i].plan);
        mtx_unlock(&c->lock);
        return 0;
    }
    mtx_unlock(&c->lock);
    struct usmarr__fft_plan *p = NULL, *evicted[CACHE_PLANS];
    int nevicted = 0;
    int rc = plan_make(ctx, n, dbl, &p);
    if (rc)
        return rc;
    mtx_lock(&c->lock);
    if ((i = cache_find(c, n, dbl)) >= 0) { /* another thread made it meanwhile */
        c->entries[i].used = ++c->clock;
        evicted[nevicted++] = p;
        p = USMARR__RETAIN(c->entries[i].plan);
    } else {
        /* least recently used out until the new plan fits both bounds */
        while (c->count > 0 && (c->count == CACHE_PLANS || c->bytes + p->bytes > CACHE_BYTES)) {
            int lru = 0;
            for (int k = 1; k < c->count; k++)
                if (c->entries[k].used < c->entries[lru].used)
                    lru = k;
            evicted[nevicted++] = c->entries[lru].plan;
            c->bytes -= c->entries[lru].plan->bytes;
            c->entries[lru] = c->entries[--c->count];
        }
        c->entries[c->count].plan = USMARR__RETAIN(p);
        c->entries[c->count++].used = ++c->clock;
        c->bytes += p->bytes;
    }
    mtx_unlock(&c->lock);
    for (int k = 0; k < nevicted; k++)
        usmarr__fft_plan_release(ctx, evicted[k]);
    *plan = p;
    return 0;
}
