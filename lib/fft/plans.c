/* Plans of the transforms (doc/fft.md, "Plans and twiddles"): a length's factorisation
 * into Stockham passes, and Bluestein's chirp for lengths with a prime factor above
 * USMARR__FFT_MAX_RADIX or the four-step split of long ones, kept per context in a bounded
 * cache.  A new length costs no kernel build: a plan makes the tables its transform needs
 * first (the four-step's two root tables of about sqrt(n) entries, Bluestein's chirp and
 * its transform; tables.c), the passes' and the real transforms' on first use. */
#include "fft_internal.h"

#include <math.h>
#include <stdlib.h>

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

static void plan_free(usmarr_context_t *ctx, struct usmarr__fft_plan *p)
{
    if (!p)
        return;
    void *mem[6] = {p->twiddles, p->chirp, p->chirp_fft, p->real_twiddles, p->roots_hi, p->roots_lo};
    for (int i = 0; i < 6; i++)
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
    struct usmarr__fft_roots w;
    if ((rc = usmarr__fft_roots_init(&w, 2 * n)))
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
        usmarr__fft_root_store(&w, q, p->dbl, chirp, k);
        usmarr__fft_root_store(&w, (2 * n - q) % (2 * n), p->dbl, b, k);
        if (k)
            memcpy((char *)b + esize * (size_t)(m - k), (char *)b + esize * (size_t)k, esize);
        q = (q + 2 * k + 1) % (2 * n);
    }
    if ((rc = usmarr__fft_upload(ctx, chirp, esize * (size_t)n, &p->chirp)) ||
        (rc = usmarr__fft_upload(ctx, b, esize * (size_t)m, &bdev)) ||
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
    usmarr__fft_roots_free(&w);
    return rc;
}

/* n = n1 n2 with both within one work-group's reach (n2, the rows, the divisor nearest
 * sqrt(n) from above): the two plans and w's two short tables for the twiddles between
 * the steps (no table of length n: a new length costs O(sqrt(n)) on the host).  A no-op
 * when there is no such split. */
static int make_four_step(usmarr_context_t *ctx, struct usmarr__fft_plan *p, const struct usmarr__fft_roots *w)
{
    int64_t lim = usmarr__fft_local_max(ctx, p->dbl), n = p->n, n2 = 0;
    for (int64_t d = (int64_t)ceil(sqrt((double)n)); d <= lim && !n2; d++)
        if (n % d == 0 && n / d <= lim)
            n2 = d;
    if (!n2)
        return 0;
    int rc = usmarr__fft_plan_get(ctx, n / n2, p->dbl, &p->cols);
    if (!rc)
        rc = usmarr__fft_plan_get(ctx, n2, p->dbl, &p->rows);
    if (rc)
        return rc;
    size_t esize = p->dbl ? 16 : 8;
    int64_t nhi = (n - 1) / w->B + 1;
    void *host = malloc(esize * (size_t)(w->B + nhi));
    if (!host)
        return usmarr__fail(USMARR_ERROR_OUT_OF_HOST_MEMORY, "fft: four-step tables of length %lld", (long long)n);
    for (int64_t i = 0; i < nhi; i++)
        usmarr__fft_root_store(w, i * w->B, p->dbl, host, i);
    for (int64_t i = 0; i < w->B; i++)
        usmarr__fft_root_store(w, i, p->dbl, host, nhi + i);
    if (!(rc = usmarr__fft_upload(ctx, host, esize * (size_t)nhi, &p->roots_hi)))
        rc = usmarr__fft_upload(ctx, (char *)host + esize * (size_t)nhi, esize * (size_t)w->B, &p->roots_lo);
    while ((int64_t)1 << p->roots_shift < w->B)
        p->roots_shift++;
    p->bytes += esize * (size_t)(w->B + nhi);
    free(host);
    return rc;
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
        usmarr__fft_lay_out_passes(p);
        if (n > usmarr__fft_local_max(ctx, dbl)) {
            struct usmarr__fft_roots w;
            if (!(rc = usmarr__fft_roots_init(&w, n))) {
                rc = make_four_step(ctx, p, &w);
                usmarr__fft_roots_free(&w);
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
