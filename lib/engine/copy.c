/* Copy, cast (astype), fill and host transfers on the kernel engine (engine_internal.h). */
#include "engine_internal.h"

#include <stdlib.h>
#include <string.h>

/* ---- overlap: exact, by a bounded search (NumPy's solve_may_share_memory idea) ------------- */

struct term {
    int64_t coef; /* > 0 */
    int64_t bound; /* the variable runs over [0, bound] */
};

static int cmp_term_desc(const void *a, const void *b)
{
    int64_t x = ((const struct term *)a)->coef, y = ((const struct term *)b)->coef;
    return x < y ? 1 : x > y ? -1 : 0;
}

/* 1: some sum of coef[k]*x[k] (x[k] in [0, bound[k]]) from term `k` on lies in [lo, hi];
 * 0: none; -1: the work budget ran out. */
static int search(const struct term *t, const __int128 *rest_max, int n, int k, __int128 lo, __int128 hi,
                  long *budget)
{
    if (hi < 0 || lo > rest_max[k])
        return 0;
    if (k == n)
        return lo <= 0 && 0 <= hi;
    if (--*budget < 0)
        return -1;
    __int128 c = t[k].coef;
    /* x must leave the remaining terms able to reach [lo - c x, hi - c x]. */
    __int128 xmin = lo - rest_max[k + 1] > 0 ? (lo - rest_max[k + 1] + c - 1) / c : 0;
    __int128 xmax = hi / c;
    if (xmax > t[k].bound)
        xmax = t[k].bound;
    for (__int128 x = xmin; x <= xmax; x++) {
        int r = search(t, rest_max, n, k + 1, lo - c * x, hi - c * x, budget);
        if (r)
            return r;
    }
    return 0;
}

/* Whether any byte of an element of `a` is a byte of an element of `b`.  Exact when the
 * search finishes; "yes" when it gives up (a temporary is then merely unnecessary). */
static bool arrays_overlap(const usmarr_array_t *a, const usmarr_array_t *b)
{
    if (!a->memory->pointer || !b->memory->pointer)
        return false;
    int64_t alo, ahi, blo, bhi;
    if (!usmarr__array_span(a, &alo, &ahi) || !usmarr__array_span(b, &blo, &bhi))
        return false;
    int64_t asz = (int64_t)usmarr_dtype_size(a->dtype), bsz = (int64_t)usmarr_dtype_size(b->dtype);
    __int128 abase = (__int128)(intptr_t)a->memory->pointer + (__int128)a->offset * asz;
    __int128 bbase = (__int128)(intptr_t)b->memory->pointer + (__int128)b->offset * bsz;
    __int128 a0 = abase + (__int128)alo * asz, a1 = abase + (__int128)ahi * asz + asz;
    __int128 b0 = bbase + (__int128)blo * bsz, b1 = bbase + (__int128)bhi * bsz + bsz;
    if (a1 <= b0 || b1 <= a0)
        return false;
    /* addr_a(i) - addr_b(j) in [-(asz-1), bsz-1] for some i, j. */
    struct term t[2 * USMARR_MAX_NDIM];
    int n = 0;
    __int128 lo = -(asz - 1) - (abase - bbase), hi = (bsz - 1) - (abase - bbase);
    for (int side = 0; side < 2; side++) {
        const usmarr_array_t *x = side ? b : a;
        int64_t sz = side ? bsz : asz;
        for (int d = 0; d < x->ndim; d++) {
            int64_t c = x->strides[d] * sz * (side ? -1 : 1), u = x->shape[d] - 1;
            if (c == 0 || u == 0)
                continue;
            if (c < 0) { /* c x = -|c| u + |c| (u - x) */
                lo += (__int128)(-c) * u;
                hi += (__int128)(-c) * u;
                c = -c;
            }
            t[n].coef = c;
            t[n].bound = u;
            n++;
        }
    }
    int64_t g = 0;
    for (int k = 0; k < n; k++)
        g = usmarr__gcd(g, t[k].coef);
    if (g > 1) { /* some multiple of g must lie in [lo, hi] */
        __int128 first = lo >= 0 ? (lo + g - 1) / g * g : -((-lo) / g * g);
        if (first > hi)
            return false;
    }
    qsort(t, (size_t)n, sizeof t[0], cmp_term_desc);
    __int128 rest_max[2 * USMARR_MAX_NDIM + 1];
    rest_max[n] = 0;
    for (int k = n - 1; k >= 0; k--)
        rest_max[k] = rest_max[k + 1] + (__int128)t[k].coef * t[k].bound;
    long budget = 200000;
    return search(t, rest_max, n, 0, lo, hi, &budget) != 0;
}

/* ---- helpers ------------------------------------------------------------------------------ */

static int same_context(const usmarr_array_t *a, const char *aname, const usmarr_array_t *b, const char *bname)
{
    if (a->memory->context != b->memory->context)
        return usmarr__fail(USMARR_ERROR_CONTEXT_MISMATCH, "%s and %s belong to different contexts", aname, bname);
    return 0;
}

static int new_array_like(const usmarr_array_t *a, usmarr_dtype_t dtype, usmarr_order_t order,
                          usmarr_array_t **out)
{
    int64_t strides[USMARR_MAX_NDIM];
    usmarr__strides_like(a, order, strides);
    int64_t bytes = (int64_t)usmarr_dtype_size(dtype);
    for (int d = 0; d < a->ndim; d++)
        if (usmarr__mul_overflow(bytes, a->shape[d], &bytes))
            return usmarr__fail(USMARR_ERROR_OVERFLOW, "shape[%d]=%lld makes the byte size overflow", d,
                                (long long)a->shape[d]);
    usmarr_usm_kind_t kind = a->memory->kind == USMARR_USM_UNKNOWN ? USMARR_USM_DEVICE : a->memory->kind;
    usmarr_memory_t *m;
    int rc = usmarr_memory_create(a->memory->context, kind, (size_t)bytes, 0, &m);
    if (rc)
        return rc;
    rc = usmarr__array_new(m, dtype, a->ndim, a->shape, strides, 0, USMARR_FLAG_WRITABLE, out);
    usmarr_memory_release(m);
    return rc;
}

/* dst[...] = src with the kernel, no overlap handling.  Same dtype copies move bits. */
static int launch_copy(usmarr_array_t *dst, const usmarr_array_t *src)
{
    usmarr_context_t *ctx = dst->memory->context;
    struct usmarr__map m = usmarr__map_init("cast", NULL, 1, 1);
    m.ndim = dst->ndim;
    memcpy(m.shape, dst->shape, sizeof(int64_t) * (size_t)dst->ndim);
    int rc = usmarr__operand_from_array(dst, m.ndim, m.shape, &m.operands[0]);
    if (!rc)
        rc = usmarr__operand_from_array(src, m.ndim, m.shape, &m.operands[1]);
    if (rc)
        return rc;
    /* One program per (source, destination) pair: grouping the 14 destinations of a source
     * made PoCL's binary carry the work-group function of the first destination launched
     * only (a later one compiled ~0.2 s at its first launch even from the cache) and made
     * every binary 14 times larger to load (doc/engine.md). */
    if (dst->dtype == src->dtype)
        m.operands[0].dtype = m.operands[1].dtype = usmarr__bits_dtype(usmarr_dtype_size(dst->dtype));
    return usmarr__map_launch(ctx, &m);
}

/* dst[...] = src: broadcast, convert, and go through a temporary when they overlap. */
static int assign(usmarr_array_t *dst, const usmarr_array_t *src)
{
    struct usmarr__operand probe;
    int rc = usmarr__operand_from_array(src, dst->ndim, dst->shape, &probe);
    if (rc)
        return rc;
    if (usmarr_array_size(dst) == 0)
        return 0;
    if (!arrays_overlap(dst, src))
        return launch_copy(dst, src);
    /* An identical layout of the same dtype is a no-op. */
    if (dst->dtype == src->dtype && dst->ndim == src->ndim && dst->memory->pointer == src->memory->pointer &&
        dst->offset == src->offset && !memcmp(dst->shape, src->shape, sizeof(int64_t) * (size_t)dst->ndim) &&
        !memcmp(dst->strides, src->strides, sizeof(int64_t) * (size_t)dst->ndim))
        return 0;
    usmarr_array_t *tmp;
    rc = new_array_like(src, src->dtype, USMARR_ORDER_K, &tmp);
    if (rc)
        return rc;
    rc = launch_copy(tmp, src);
    if (!rc)
        rc = launch_copy(dst, tmp);
    usmarr_array_release(tmp); /* waits for the queued copies */
    return rc;
}

static int check_order(usmarr_order_t order)
{
    if (order != USMARR_ORDER_C && order != USMARR_ORDER_F && order != USMARR_ORDER_A && order != USMARR_ORDER_K)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "order=%d is not 'C', 'F', 'A' or 'K'", (int)order);
    return 0;
}

/* The result convention (copy.h): into `out`, or a new array. */
static int produce(const usmarr_array_t *a, usmarr_dtype_t dtype, usmarr_order_t order, usmarr_array_t *out,
                   usmarr_array_t **result)
{
    int rc;
    if (out) {
        if ((rc = same_context(out, "out", a, "a")) || (rc = usmarr__check_writable(out, "out")))
            return rc;
        if (out->dtype != dtype)
            return usmarr__fail(USMARR_ERROR_BAD_DTYPE, "out has dtype %s, the result is %s",
                                usmarr_dtype_name(out->dtype), usmarr_dtype_name(dtype));
        rc = assign(out, a);
        if (!rc && result)
            *result = usmarr_array_retain(out);
        return rc;
    }
    usmarr_array_t *r;
    rc = new_array_like(a, dtype, order, &r);
    if (rc)
        return rc;
    rc = launch_copy(r, a);
    if (rc) {
        usmarr_array_release(r);
        return rc;
    }
    *result = r;
    return 0;
}

int usmarr_array_copy(const usmarr_array_t *a, usmarr_order_t order, usmarr_array_t *out, usmarr_array_t **result)
{
    usmarr__clear_error();
    if (!a || (!out && !result))
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s is NULL", !a ? "a" : "result (and out)");
    int rc = check_order(order);
    return rc ? rc : produce(a, a->dtype, order, out, result);
}

int usmarr_array_astype(const usmarr_array_t *a, usmarr_dtype_t dtype, usmarr_order_t order, usmarr_array_t *out,
                        usmarr_array_t **result)
{
    usmarr__clear_error();
    if (!a || (!out && !result))
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s is NULL", !a ? "a" : "result (and out)");
    int rc = check_order(order);
    if (!rc)
        rc = usmarr__check_dtype_supported(a->memory->context, dtype, "dtype");
    return rc ? rc : produce(a, dtype, order, out, result);
}

int usmarr_array_copy_into(usmarr_array_t *dst, const usmarr_array_t *src)
{
    usmarr__clear_error();
    if (!dst || !src)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s is NULL", !dst ? "dst" : "src");
    int rc = same_context(dst, "dst", src, "src");
    if (!rc)
        rc = usmarr__check_writable(dst, "dst");
    return rc ? rc : assign(dst, src);
}

int usmarr_array_fill(usmarr_array_t *a, usmarr_scalar_t value)
{
    usmarr__clear_error();
    if (!a)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "a is NULL");
    int rc = usmarr__scalar_check(&value, "value");
    if (!rc)
        rc = usmarr__check_writable(a, "a");
    unsigned char bytes[16];
    if (!rc)
        rc = usmarr__scalar_store(value, a->dtype, bytes, "value");
    if (rc)
        return rc;
    if (usmarr_array_size(a) == 0)
        return 0;
    struct usmarr__map m = usmarr__map_init("fill", NULL, 1, 0);
    m.ndim = a->ndim;
    memcpy(m.shape, a->shape, sizeof(int64_t) * (size_t)a->ndim);
    rc = usmarr__operand_from_array(a, m.ndim, m.shape, &m.operands[0]);
    if (rc)
        return rc;
    int bits = usmarr__bits_dtype(usmarr_dtype_size(a->dtype));
    m.operands[0].dtype = bits;
    m.nscalars = 1;
    m.scalars[0].dtype = bits;
    m.scalars[0].size = usmarr_dtype_size(a->dtype);
    memcpy(m.scalars[0].bytes, bytes, m.scalars[0].size);
    return usmarr__map_launch(a->memory->context, &m);
}
