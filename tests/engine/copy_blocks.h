/* What the copy suites (test_copy.c, test_copy_orders.c) share: layouts over blocks of
 * memory, blocks filled from NumPy's cast palette or with a sentinel, arrays on them, and
 * the element comparison and copy check against the host oracle. */
#ifndef USMARR_TEST_COPY_BLOCKS_H
#define USMARR_TEST_COPY_BLOCKS_H

#include "../harness/common.h"

#include "cast_cases.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAXD USMARR_MAX_NDIM

/* A layout over a block of `block` elements. */
struct layout {
    int ndim;
    int64_t shape[MAXD];
    int64_t strides[MAXD];
    int64_t offset;
    int64_t block;
};

static inline size_t isz(usmarr_dtype_t t) { return usmarr_dtype_size(t); }

/* Palette index stored at block position q of a source block. */
static inline int pal_at(int64_t q) { return (int)((q * 7 + 3) % CAST_PALETTE); }

static inline usmarr_memory_t *block_with_palette(usmarr_context_t *ctx, usmarr_dtype_t t, int64_t n)
{
    usmarr_memory_t *m;
    ck_assert_ok(usmarr_memory_create(ctx, USMARR_USM_DEVICE, (size_t)(n ? n : 1) * isz(t), 0, &m));
    unsigned char *h = malloc((size_t)(n ? n : 1) * isz(t));
    for (int64_t q = 0; q < n; q++)
        memcpy(h + q * (int64_t)isz(t), cast_palette[t][pal_at(q)], isz(t));
    ck_assert_ok(usmarr_memory_copy_from_host(m, 0, h, (size_t)n * isz(t)));
    free(h);
    return m;
}

static inline usmarr_memory_t *block_with_sentinel(usmarr_context_t *ctx, usmarr_dtype_t t, int64_t n)
{
    usmarr_memory_t *m;
    ck_assert_ok(usmarr_memory_create(ctx, USMARR_USM_DEVICE, (size_t)(n ? n : 1) * isz(t), 0, &m));
    unsigned char pat = 0xA5;
    ck_assert_ok(usmarr_memory_fill(m, 0, &pat, 1, (size_t)(n ? n : 1) * isz(t)));
    return m;
}

static inline usmarr_array_t *array_on(usmarr_memory_t *m, usmarr_dtype_t t, const struct layout *l)
{
    usmarr_array_options_t o = USMARR_ARRAY_OPTIONS_INIT;
    o.ndim = l->ndim;
    o.shape = l->shape;
    o.strides = l->strides;
    o.offset = l->offset;
    o.dtype = t;
    o.buffer = USMARR_BUFFER_MEMORY;
    o.memory = m;
    usmarr_array_t *a;
    ck_assert_ok(usmarr_array_create(&o, &a));
    return a;
}

/* Element equality with NaN == NaN for float parts (the device may pick another NaN). */
static inline bool same_value(usmarr_dtype_t t, const unsigned char *x, const unsigned char *y)
{
    if (!memcmp(x, y, isz(t)))
        return true;
    switch (t) {
    case USMARR_FLOAT16: {
        uint16_t a, b;
        memcpy(&a, x, 2);
        memcpy(&b, y, 2);
        return (a & 0x7c00) == 0x7c00 && (a & 0x3ff) && (b & 0x7c00) == 0x7c00 && (b & 0x3ff);
    }
    case USMARR_FLOAT32:
    case USMARR_COMPLEX64:
        for (size_t k = 0; k < isz(t) / 4; k++) {
            float a, b;
            memcpy(&a, x + 4 * k, 4);
            memcpy(&b, y + 4 * k, 4);
            if (memcmp(&a, &b, 4) && !(isnan(a) && isnan(b)))
                return false;
        }
        return true;
    case USMARR_FLOAT64:
    case USMARR_COMPLEX128:
        for (size_t k = 0; k < isz(t) / 8; k++) {
            double a, b;
            memcpy(&a, x + 8 * k, 8);
            memcpy(&b, y + 8 * k, 8);
            if (memcmp(&a, &b, 8) && !(isnan(a) && isnan(b)))
                return false;
        }
        return true;
    default:
        return false;
    }
}

/* dst[...] = src for the layouts, checked element by element (and every other byte of
 * the destination block left alone).  src broadcasts to dst's shape. */
static inline void check_copy_into(usmarr_context_t *ctx, usmarr_dtype_t st, const struct layout *sl, usmarr_dtype_t dt,
                            const struct layout *dl)
{
    usmarr_memory_t *sm = block_with_palette(ctx, st, sl->block), *dm = block_with_sentinel(ctx, dt, dl->block);
    usmarr_array_t *src = array_on(sm, st, sl), *dst = array_on(dm, dt, dl);
    ck_assert_ok(usmarr_array_copy_into(dst, src));
    size_t dbytes = (size_t)(dl->block ? dl->block : 1) * isz(dt);
    unsigned char *got = malloc(dbytes), *want = malloc(dbytes);
    memset(want, 0xA5, dbytes);
    ck_assert_ok(usmarr_memory_copy_to_host(dm, 0, got, dbytes));
    int64_t n = 1;
    for (int d = 0; d < dl->ndim; d++)
        n *= dl->shape[d];
    int64_t idx[MAXD] = {0};
    int lead = dl->ndim - sl->ndim;
    for (int64_t e = 0; e < n; e++) {
        int64_t qs = sl->offset, qd = dl->offset;
        for (int d = 0; d < dl->ndim; d++) {
            qd += idx[d] * dl->strides[d];
            if (d >= lead && sl->shape[d - lead] != 1)
                qs += idx[d] * sl->strides[d - lead];
        }
        memcpy(want + qd * (int64_t)isz(dt), cast_expected[st][dt][pal_at(qs)], isz(dt));
        for (int d = dl->ndim - 1; d >= 0; d--) {
            if (++idx[d] < dl->shape[d])
                break;
            idx[d] = 0;
        }
    }
    /* One assertion per call: Check logs every assertion, even a passing one. */
    int64_t bad = -1, nbad = 0;
    for (int64_t q = 0; q < (dl->block ? dl->block : 1); q++) {
        if (!same_value(dt, got + q * (int64_t)isz(dt), want + q * (int64_t)isz(dt))) {
            if (bad < 0)
                bad = q;
            nbad++;
        }
    }
    ck_assert_msg(nbad == 0, "%s -> %s: %lld destination block elements differ, the first at %lld (ndim %d)",
                  usmarr_dtype_name(st), usmarr_dtype_name(dt), (long long)nbad, (long long)bad, dl->ndim);
    free(got);
    free(want);
    usmarr_array_release(src);
    usmarr_array_release(dst);
    usmarr_memory_release(sm);
    usmarr_memory_release(dm);
}

static inline struct layout contiguous(int ndim, const int64_t *shape, char order)
{
    struct layout l = {.ndim = ndim};
    int64_t step = 1;
    for (int i = 0; i < ndim; i++) {
        int d = order == 'C' ? ndim - 1 - i : i;
        l.shape[d] = shape[d];
        l.strides[d] = step;
        step *= shape[d];
    }
    l.block = step;
    return l;
}

/* The tests of test_copy_orders.c, added to the copy suite's case. */
void copy_orders_add_tests(TCase *tc);

#endif
