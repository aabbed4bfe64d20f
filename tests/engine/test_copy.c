/* Copy, astype, copy_into and fill (lib/engine/copy.c on the kernel engine), compared with host
 * oracles: layouts are enumerated here with plain index loops, element values come from
 * NumPy's astype tables (tests/engine/cast_cases.c). */
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

static size_t isz(usmarr_dtype_t t) { return usmarr_dtype_size(t); }

/* Palette index stored at block position q of a source block. */
static int pal_at(int64_t q) { return (int)((q * 7 + 3) % CAST_PALETTE); }

static usmarr_memory_t *block_with_palette(usmarr_context_t *ctx, usmarr_dtype_t t, int64_t n)
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

static usmarr_memory_t *block_with_sentinel(usmarr_context_t *ctx, usmarr_dtype_t t, int64_t n)
{
    usmarr_memory_t *m;
    ck_assert_ok(usmarr_memory_create(ctx, USMARR_USM_DEVICE, (size_t)(n ? n : 1) * isz(t), 0, &m));
    unsigned char pat = 0xA5;
    ck_assert_ok(usmarr_memory_fill(m, 0, &pat, 1, (size_t)(n ? n : 1) * isz(t)));
    return m;
}

static usmarr_array_t *array_on(usmarr_memory_t *m, usmarr_dtype_t t, const struct layout *l)
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
static bool same_value(usmarr_dtype_t t, const unsigned char *x, const unsigned char *y)
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
static void check_copy_into(usmarr_context_t *ctx, usmarr_dtype_t st, const struct layout *sl, usmarr_dtype_t dt,
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

static struct layout contiguous(int ndim, const int64_t *shape, char order)
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

/* Every dtype pair through one layout, a strided slice into a strided destination (one
 * kernel compile per pair on every device: no unit or zero strides that a device's shape
 * compiles in), and the other layouts for each dtype into itself and into another dtype
 * (the conversion code is the same macro in every kernel class and variant, so the pairs
 * need not be repeated per layout; a cold run stays short).  Shapes stay below 16 so that
 * all of them run on the contiguous and 2-D strided kernels; the other kernel classes are
 * checked on a subset of pairs below. */
START_TEST(test_copy_every_dtype_pair_across_layouts)
{
    usmarr_context_t *ctx = test_shared_context();
    usmarr_dtype_t st = (usmarr_dtype_t)_i;
    bool fp64 = usmarr_context_info(ctx)->fp64;
    for (int t = 0; t < USMARR_DTYPE_COUNT; t++) {
        usmarr_dtype_t dt = (usmarr_dtype_t)t;
        if (!fp64 && (st == USMARR_FLOAT64 || st == USMARR_COMPLEX128 || dt == USMARR_FLOAT64 ||
                      dt == USMARR_COMPLEX128))
            continue;
        /* Non-contiguous slices: src[::2, 1::3] of a (20, 18) into a strided destination. */
        struct layout sl = {.ndim = 2, .shape = {10, 6}, .strides = {36, 3}, .offset = 1, .block = 360};
        struct layout dsl = {.ndim = 2, .shape = {10, 6}, .strides = {-2, 25}, .offset = 18, .block = 200};
        check_copy_into(ctx, st, &sl, dt, &dsl);
        if (dt != st && t != (_i + 5) % USMARR_DTYPE_COUNT)
            continue;
        /* C contiguous, 1-D with a tail after the 16-element vectors. */
        int64_t s1[] = {87};
        struct layout c1 = contiguous(1, s1, 'C');
        check_copy_into(ctx, st, &c1, dt, &c1);
        /* F source into C destination. */
        int64_t s2[] = {12, 10};
        struct layout f2 = contiguous(2, s2, 'F'), c2 = contiguous(2, s2, 'C');
        check_copy_into(ctx, st, &f2, dt, &c2);
        /* Negative strides in both dims. */
        struct layout neg = c2;
        neg.strides[0] = -10;
        neg.strides[1] = -1;
        neg.offset = 12 * 10 - 1;
        check_copy_into(ctx, st, &neg, dt, &c2);
        /* Zero-stride (broadcast) inputs: shape (10,) into (12, 10), and a 0-d array into a
         * strided (12, 10). */
        int64_t row[] = {10};
        struct layout r1 = contiguous(1, row, 'C');
        check_copy_into(ctx, st, &r1, dt, &c2);
        struct layout zero_d = {.ndim = 0, .offset = 3, .block = 5};
        struct layout gap = {.ndim = 2, .shape = {12, 10}, .strides = {13, 1}, .offset = 2, .block = 160};
        check_copy_into(ctx, st, &zero_d, dt, &gap);
        /* The slice into a contiguous (10, 6). */
        int64_t s3[] = {10, 6};
        struct layout c3 = contiguous(2, s3, 'C');
        check_copy_into(ctx, st, &sl, dt, &c3);
        /* 0-d into 0-d, and zero-size. */
        check_copy_into(ctx, st, &zero_d, dt, &zero_d);
        int64_t z[] = {4, 0, 3};
        struct layout zs = contiguous(3, z, 'C');
        zs.block = 1;
        check_copy_into(ctx, st, &zs, dt, &zs);
    }
    usmarr_context_release(ctx);
}
END_TEST

/* Transposes through the tiled kernel (both dims >= 16), C <-> F, with partial tiles. */
START_TEST(test_copy_transposes_tiled)
{
    usmarr_context_t *ctx = test_context();
    bool fp64 = usmarr_context_info(ctx)->fp64;
    static const usmarr_dtype_t pairs[][2] = {{USMARR_FLOAT32, USMARR_FLOAT32}, {USMARR_FLOAT64, USMARR_FLOAT32},
                                              {USMARR_INT8, USMARR_COMPLEX128}, {USMARR_FLOAT16, USMARR_FLOAT64},
                                              {USMARR_BOOL, USMARR_INT32},      {USMARR_COMPLEX64, USMARR_COMPLEX64}};
    for (int i = 0; i < 6; i++) {
        if (!fp64 && (pairs[i][0] == USMARR_FLOAT64 || pairs[i][1] == USMARR_FLOAT64 ||
                      pairs[i][1] == USMARR_COMPLEX128))
            continue;
        int64_t s2[] = {41, 35};
        struct layout f = contiguous(2, s2, 'F'), c = contiguous(2, s2, 'C');
        check_copy_into(ctx, pairs[i][0], &f, pairs[i][1], &c);
        check_copy_into(ctx, pairs[i][0], &c, pairs[i][1], &f);
        /* A transposed slice with a negative stride: src[::-1, ::2].T-like layout. */
        struct layout ts = {.ndim = 2, .shape = {40, 33}, .strides = {-1, 90}, .offset = 39, .block = 3000};
        int64_t s3[] = {40, 33};
        struct layout c3 = contiguous(2, s3, 'C');
        check_copy_into(ctx, pairs[i][0], &ts, pairs[i][1], &c3);
    }
    usmarr_context_release(ctx);
}
END_TEST

/* 2-D strided maps with narrow and wide inner axes, broadcast and negative strides: both
 * 2-D kernel classes (16x16 groups, and 128x2 groups for long contiguous rows). */
START_TEST(test_copy_2d_strided_narrow_and_wide_inner_axes)
{
    usmarr_context_t *ctx = test_context();
    static const int64_t shapes[][2] = {{700, 3}, {3, 700}, {129, 127}, {127, 129}, {1000, 1}, {2, 2}};
    for (int i = 0; i < 6; i++) {
        int64_t r = shapes[i][0], c = shapes[i][1];
        /* Source: every other row, every third column, columns reversed. */
        struct layout src = {.ndim = 2, .shape = {r, c}, .strides = {2 * 3 * c, -3}, .offset = 3 * (c - 1),
                             .block = 2 * 3 * c * r};
        struct layout dst = {.ndim = 2, .shape = {r, c}, .strides = {1, r + 1}, .offset = 0, .block = (r + 1) * c};
        check_copy_into(ctx, USMARR_INT32, &src, USMARR_FLOAT32, &dst);
        /* A broadcast row, contiguous (wide 2-D groups when long) or strided, into a
         * C-contiguous destination. */
        struct layout cdst = contiguous(2, shapes[i], 'C');
        for (int64_t step = 1; step <= 2; step++) {
            struct layout row = {.ndim = 1, .shape = {c}, .strides = {step}, .offset = 0, .block = step * c};
            check_copy_into(ctx, USMARR_INT16, &row, USMARR_INT16, &cdst);
        }
    }
    usmarr_context_release(ctx);
}
END_TEST

/* Sources walked backwards along the inner axis (steps -1, -2, -3: rows of 16-vectors read
 * forwards and reversed where the device's shape has them), along the outer one, or both:
 * rows of lengths around the 16-element run (a tail, runs ending exactly at the row's end),
 * offsets and row strides that are not multiples of 16, one row (1-D) and several. */
static struct layout backwards(int64_t rows, int64_t len, int64_t step, int outer_sign)
{
    int64_t pitch = (step < 0 ? -step : step) * len + 7, pad = 3;
    struct layout l = {.ndim = rows > 1 ? 2 : 1};
    int d = 0;
    if (rows > 1) {
        l.shape[0] = rows;
        l.strides[0] = outer_sign * pitch;
        l.offset += outer_sign < 0 ? pitch * (rows - 1) : 0;
        d = 1;
    }
    l.shape[d] = len;
    l.strides[d] = step;
    l.offset += pad + (step < 0 ? -step * (len - 1) : 0);
    l.block = pad + pitch * rows + pad;
    return l;
}

START_TEST(test_copy_negative_strides_every_kind)
{
    usmarr_context_t *ctx = test_context();
    bool fp64 = usmarr_context_info(ctx)->fp64;
    static const int64_t lens[] = {16, 17, 47, 64, 1000};
    static const usmarr_dtype_t pairs[][2] = {{USMARR_FLOAT32, USMARR_FLOAT32}, {USMARR_INT8, USMARR_INT8},
                                              {USMARR_FLOAT16, USMARR_FLOAT16}, {USMARR_FLOAT64, USMARR_FLOAT64},
                                              {USMARR_INT16, USMARR_FLOAT32},   {USMARR_COMPLEX64, USMARR_COMPLEX64}};
    for (int p = 0; p < 6; p++) {
        if (!fp64 && pairs[p][0] == USMARR_FLOAT64)
            continue;
        for (int64_t step = -3; step <= 1; step++) {
            if (step == 0 || (step == -3 && p > 0) || (step == 1 && p > 0))
                continue;
            for (int i = 0; i < 5; i++) {
                for (int64_t rows = 1; rows <= 3; rows += 2) {
                    for (int sign = -1; sign <= 1; sign += 2) {
                        if (rows == 1 && sign > 0)
                            continue;
                        if (step == 1 && sign > 0) /* forwards both ways: not this test's */
                            continue;
                        struct layout src = backwards(rows, lens[i], step, sign);
                        int64_t shape[2] = {rows, lens[i]};
                        struct layout dst = rows > 1 ? contiguous(2, shape, 'C') : contiguous(1, shape + 1, 'C');
                        check_copy_into(ctx, pairs[p][0], &src, pairs[p][1], &dst);
                    }
                }
            }
        }
    }
    /* A destination at an offset that no 16-vector aligns, from a flipped source. */
    struct layout src = backwards(2, 1000, -1, -1);
    struct layout dst = {.ndim = 2, .shape = {2, 1000}, .strides = {1003, 1}, .offset = 5, .block = 2011};
    check_copy_into(ctx, USMARR_FLOAT32, &src, USMARR_FLOAT32, &dst);
    usmarr_context_release(ctx);
}
END_TEST

/* Every per-device kernel shape (USMARR_KERNEL_SHAPE forces one at context creation) on
 * this device: contiguous with a tail, unit, zero, 2 and other inner strides in the 1-D, 2-D
 * (both group shapes), 3-D and many-dim classes, transposes (tiled where the shape has
 * the tile). */
START_TEST(test_copy_every_kernel_shape_on_this_device)
{
    static const char *const shapes[] = {"pocl-cpu", "intel-cpu", "generic", "gpu"};
    const char *saved = getenv("USMARR_KERNEL_SHAPE");
    char *keep = saved ? strdup(saved) : NULL;
    for (int i = 0; i < 3; i++) {
        setenv("USMARR_KERNEL_SHAPE", shapes[i], 1);
        usmarr_context_t *ctx = test_context();
        int64_t n1[] = {1000}, n2[] = {130, 129}, n3[] = {5, 7, 130}, n5[] = {2, 3, 2, 5, 33};
        struct layout c1 = contiguous(1, n1, 'C'), c2 = contiguous(2, n2, 'C'), f2 = contiguous(2, n2, 'F');
        struct layout c3 = contiguous(3, n3, 'C'), c5 = contiguous(5, n5, 'C');
        check_copy_into(ctx, USMARR_FLOAT32, &c1, USMARR_FLOAT32, &c1);
        check_copy_into(ctx, USMARR_INT16, &c1, USMARR_FLOAT64, &c1);
        struct layout s1 = {.ndim = 1, .shape = {1000}, .strides = {3}, .offset = 0, .block = 3000};
        check_copy_into(ctx, USMARR_FLOAT32, &s1, USMARR_FLOAT32, &c1);
        check_copy_into(ctx, USMARR_FLOAT32, &c1, USMARR_FLOAT32, &s1);
        /* Stride 2 along the innermost axis, compiled in where the shape has masks=1. */
        struct layout h1 = {.ndim = 1, .shape = {1000}, .strides = {2}, .offset = 1, .block = 2001};
        check_copy_into(ctx, USMARR_FLOAT32, &h1, USMARR_FLOAT32, &c1);
        check_copy_into(ctx, USMARR_INT16, &c1, USMARR_FLOAT64, &h1);
        struct layout h2 = {.ndim = 2, .shape = {130, 129}, .strides = {2 * 129 + 4, 2}, .offset = 0,
                            .block = (2 * 129 + 4) * 130};
        struct layout h3 = {.ndim = 3, .shape = {5, 7, 130}, .strides = {7 * 260, 260, 2}, .offset = 0,
                            .block = 5 * 7 * 260};
        struct layout row = {.ndim = 1, .shape = {129}, .strides = {1}, .offset = 0, .block = 129};
        struct layout col = {.ndim = 2, .shape = {130, 1}, .strides = {1, 1}, .offset = 0, .block = 130};
        struct layout sl = {.ndim = 2, .shape = {130, 129}, .strides = {2 * 3 * 129, 3}, .offset = 1,
                            .block = 2 * 3 * 129 * 130};
        check_copy_into(ctx, USMARR_FLOAT32, &row, USMARR_FLOAT32, &c2);
        check_copy_into(ctx, USMARR_INT32, &col, USMARR_FLOAT32, &c2);
        check_copy_into(ctx, USMARR_FLOAT32, &sl, USMARR_FLOAT32, &c2);
        check_copy_into(ctx, USMARR_FLOAT32, &f2, USMARR_FLOAT32, &c2);
        check_copy_into(ctx, USMARR_FLOAT64, &c2, USMARR_FLOAT32, &f2);
        struct layout row3 = {.ndim = 1, .shape = {130}, .strides = {1}, .offset = 0, .block = 130};
        check_copy_into(ctx, USMARR_UINT8, &row3, USMARR_UINT8, &c3);
        struct layout rev3 = c3;
        rev3.strides[2] = -1;
        rev3.offset = 129;
        check_copy_into(ctx, USMARR_FLOAT32, &rev3, USMARR_FLOAT32, &c3);
        check_copy_into(ctx, USMARR_FLOAT32, &h2, USMARR_FLOAT32, &c2);
        check_copy_into(ctx, USMARR_FLOAT32, &c2, USMARR_FLOAT32, &h2);
        check_copy_into(ctx, USMARR_UINT8, &h3, USMARR_INT32, &c3);
        check_copy_into(ctx, USMARR_FLOAT32, &c3, USMARR_FLOAT32, &h3);
        struct layout row5 = {.ndim = 1, .shape = {33}, .strides = {1}, .offset = 0, .block = 33};
        check_copy_into(ctx, USMARR_FLOAT32, &row5, USMARR_FLOAT32, &c5);
        struct layout t5 = c5;
        t5.strides[4] = 2;
        t5.strides[3] = 66;
        t5.strides[2] = 330;
        t5.strides[1] = 660;
        t5.strides[0] = 1980;
        t5.block = 3960;
        check_copy_into(ctx, USMARR_FLOAT32, &t5, USMARR_FLOAT32, &c5);
        usmarr_context_release(ctx);
    }
    if (keep)
        setenv("USMARR_KERNEL_SHAPE", keep, 1);
    else
        unsetenv("USMARR_KERNEL_SHAPE");
    free(keep);
}
END_TEST

/* Random layouts up to 32 dims: permuted, flipped, sliced, broadcast. */
static void random_layout(unsigned *seed, int ndim, const int64_t *shape, bool allow_broadcast, struct layout *l)
{
    int perm[MAXD];
    for (int d = 0; d < ndim; d++)
        perm[d] = d;
    for (int d = ndim - 1; d > 0; d--) {
        int j = (int)(rand_r(seed) % (unsigned)(d + 1)), t = perm[d];
        perm[d] = perm[j];
        perm[j] = t;
    }
    l->ndim = ndim;
    int64_t step = 1 + (int64_t)(rand_r(seed) % 2), lo = 0, hi = 0;
    for (int i = ndim - 1; i >= 0; i--) {
        int d = perm[i];
        l->shape[d] = shape[d];
        int kind = (int)(rand_r(seed) % 6);
        if (allow_broadcast && kind == 0) {
            l->strides[d] = 0;
            continue;
        }
        l->strides[d] = kind == 1 ? -step : step;
        if (shape[d] > 0) {
            if (l->strides[d] < 0)
                lo += l->strides[d] * (shape[d] - 1);
            else
                hi += l->strides[d] * (shape[d] - 1);
        }
        /* A gap now and then, while the block stays small. */
        step *= shape[d] + (step < 4096 && rand_r(seed) % 4 == 0 ? 1 : 0);
    }
    l->offset = -lo + (int64_t)(rand_r(seed) % 3);
    l->block = l->offset + hi + 1 + (int64_t)(rand_r(seed) % 3);
}

START_TEST(test_copy_random_layouts_up_to_32_dims)
{
    usmarr_context_t *ctx = test_context();
    bool fp64 = usmarr_context_info(ctx)->fp64;
    static const usmarr_dtype_t pairs[][2] = {
        {USMARR_FLOAT32, USMARR_FLOAT32}, {USMARR_FLOAT64, USMARR_INT32},     {USMARR_COMPLEX64, USMARR_COMPLEX128},
        {USMARR_FLOAT16, USMARR_FLOAT32}, {USMARR_BOOL, USMARR_UINT8},        {USMARR_INT16, USMARR_FLOAT16},
        {USMARR_INT8, USMARR_INT8},       {USMARR_COMPLEX128, USMARR_COMPLEX128}};
    unsigned seed = 4242;
    for (int trial = 0; trial < 64; trial++) {
        const usmarr_dtype_t *p = pairs[trial % 8];
        if (!fp64 && (p[0] == USMARR_FLOAT64 || p[1] == USMARR_COMPLEX128 || p[0] == USMARR_COMPLEX128))
            continue;
        int ndim = trial < 8 ? 17 + trial * 2 : (int)(rand_r(&seed) % 33); /* the first ones are > 16 dims */
        if (ndim > 32)
            ndim = 32;
        int64_t shape[MAXD], total = 1;
        for (int d = 0; d < ndim; d++) {
            shape[d] = total >= 2048 ? 1 : 1 + (int64_t)(rand_r(&seed) % 3);
            if (trial < 8 && d < 18)
                shape[d] = 2;
            total *= shape[d];
        }
        struct layout sl, dl;
        random_layout(&seed, ndim, shape, true, &sl);
        random_layout(&seed, ndim, shape, false, &dl);
        check_copy_into(ctx, p[0], &sl, p[1], &dl);
    }
    usmarr_context_release(ctx);
}
END_TEST

/* ---- overlap ---------------------------------------------------------------------------- */

static void fill_iota_i32(usmarr_memory_t *m, int n, int32_t *h)
{
    for (int i = 0; i < n; i++)
        h[i] = i * 10 + 1;
    ck_assert_ok(usmarr_memory_copy_from_host(m, 0, h, (size_t)n * 4));
}

START_TEST(test_copy_overlapping_source_is_read_first)
{
    usmarr_context_t *ctx = test_context();
    enum { N = 1000 };
    int32_t h[N], got[N];
    usmarr_memory_t *m;
    ck_assert_ok(usmarr_memory_create(ctx, USMARR_USM_DEVICE, N * 4, 0, &m));
    /* a[1:] = a[:-1] and a[:-1] = a[1:] */
    for (int dir = 0; dir < 2; dir++) {
        fill_iota_i32(m, N, h);
        struct layout lo = {.ndim = 1, .shape = {N - 1}, .strides = {1}, .offset = 0};
        struct layout hi = {.ndim = 1, .shape = {N - 1}, .strides = {1}, .offset = 1};
        usmarr_array_t *dst = array_on(m, USMARR_INT32, dir ? &lo : &hi), *src = array_on(m, USMARR_INT32, dir ? &hi : &lo);
        ck_assert_ok(usmarr_array_copy_into(dst, src));
        ck_assert_ok(usmarr_memory_copy_to_host(m, 0, got, N * 4));
        int bad = 0;
        for (int i = 0; i < N - 1; i++)
            bad += got[dir ? i : i + 1] != h[dir ? i + 1 : i];
        ck_assert_int_eq(bad, 0);
        usmarr_array_release(dst);
        usmarr_array_release(src);
    }
    /* In-place transpose of a square: a[...] = a.T */
    fill_iota_i32(m, 900, h);
    struct layout c = {.ndim = 2, .shape = {30, 30}, .strides = {30, 1}};
    struct layout t = {.ndim = 2, .shape = {30, 30}, .strides = {1, 30}};
    usmarr_array_t *a = array_on(m, USMARR_INT32, &c), *at = array_on(m, USMARR_INT32, &t);
    ck_assert_ok(usmarr_array_copy_into(a, at));
    ck_assert_ok(usmarr_memory_copy_to_host(m, 0, got, 900 * 4));
    int bad = 0;
    for (int i = 0; i < 30; i++)
        for (int j = 0; j < 30; j++)
            bad += got[i * 30 + j] != h[j * 30 + i];
    ck_assert_int_eq(bad, 0);
    /* Reversal in place: a[::-1] = a */
    fill_iota_i32(m, N, h);
    struct layout fwd = {.ndim = 1, .shape = {N}, .strides = {1}};
    struct layout rev = {.ndim = 1, .shape = {N}, .strides = {-1}, .offset = N - 1};
    usmarr_array_t *f = array_on(m, USMARR_INT32, &fwd), *r = array_on(m, USMARR_INT32, &rev);
    ck_assert_ok(usmarr_array_copy_into(r, f));
    ck_assert_ok(usmarr_memory_copy_to_host(m, 0, got, N * 4));
    for (int i = 0; i < N; i++)
        bad += got[i] != h[N - 1 - i];
    ck_assert_int_eq(bad, 0);
    /* Interleaved but disjoint: a[::2] = a[1::2] (no element shared). */
    fill_iota_i32(m, N, h);
    struct layout even = {.ndim = 1, .shape = {N / 2}, .strides = {2}, .offset = 0};
    struct layout odd = {.ndim = 1, .shape = {N / 2}, .strides = {2}, .offset = 1};
    usmarr_array_t *ev = array_on(m, USMARR_INT32, &even), *od = array_on(m, USMARR_INT32, &odd);
    ck_assert_ok(usmarr_array_copy_into(ev, od));
    ck_assert_ok(usmarr_memory_copy_to_host(m, 0, got, N * 4));
    for (int i = 0; i < N; i++)
        bad += got[i] != h[i % 2 ? i : i + 1];
    ck_assert_int_eq(bad, 0);
    /* A cast between overlapping views of one block: float32 view <- int32 view shifted. */
    fill_iota_i32(m, N, h);
    struct layout shifted = {.ndim = 1, .shape = {N - 3}, .strides = {1}, .offset = 3};
    struct layout base = {.ndim = 1, .shape = {N - 3}, .strides = {1}, .offset = 0};
    usmarr_array_t *fv = array_on(m, USMARR_FLOAT32, &base), *iv = array_on(m, USMARR_INT32, &shifted);
    ck_assert_ok(usmarr_array_copy_into(fv, iv));
    float gotf[N];
    ck_assert_ok(usmarr_memory_copy_to_host(m, 0, gotf, N * 4));
    for (int i = 0; i < N - 3; i++)
        bad += gotf[i] != (float)h[i + 3];
    ck_assert_int_eq(bad, 0);
    usmarr_array_release(fv);
    usmarr_array_release(iv);
    usmarr_array_release(ev);
    usmarr_array_release(od);
    usmarr_array_release(f);
    usmarr_array_release(r);
    usmarr_array_release(a);
    usmarr_array_release(at);
    usmarr_memory_release(m);
    usmarr_context_release(ctx);
}
END_TEST

/* ---- new arrays: orders --------------------------------------------------------------- */

/* Order K as NumPy 2 keeps the input's memory order: the strides of np.copy(x, order="K")
 * (in elements) for views x of float32 blocks (the views as NumPy made them). */
START_TEST(test_copy_order_k_keeps_memory_order_as_numpy)
{
    usmarr_context_t *ctx = test_context();
    static const struct {
        int ndim;
        int64_t shape[5], strides[5], want[5];
    } cases[] = {
        /* (3, 1, 5, 4, 3) transposed (2, 0, 4, 1, 3): a size-1 axis among the others */
        {5, {5, 3, 3, 1, 4}, {12, 60, 1, 60, 3}, {12, 60, 1, 60, 3}},
        {3, {3, 1, 4}, {4, 0, 1}, {4, 4, 1}},    /* x[:, None, :]: C-contiguous, so C */
        {3, {4, 1, 3}, {1, 0, 4}, {1, 4, 4}},    /* x.T[:, None, :]: F-contiguous, so F */
        {2, {3, 4}, {0, 1}, {1, 3}},             /* a broadcast row */
        {2, {3, 2}, {-4, 2}, {2, 1}},            /* x[::-1, ::2] */
        {3, {3, 1, 4}, {1, 3, 3}, {1, 3, 3}},    /* (4, 1, 3) transposed (2, 1, 0) */
        {3, {1, 4, 2}, {4, 1, 12}, {4, 1, 4}},   /* x[:, :1, :] of (2, 3, 4) transposed (1, 2, 0) */
        {3, {2, 3, 4}, {1, 8, 2}, {1, 8, 2}},    /* axes in the order 1, 2, 0 */
    };
    usmarr_memory_t *m = block_with_palette(ctx, USMARR_FLOAT32, 256);
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        struct layout l = {.ndim = cases[c].ndim, .block = 256};
        for (int d = 0; d < l.ndim; d++) {
            l.shape[d] = cases[c].shape[d];
            l.strides[d] = cases[c].strides[d];
            if (l.strides[d] < 0)
                l.offset -= l.strides[d] * (l.shape[d] - 1);
        }
        usmarr_array_t *x = array_on(m, USMARR_FLOAT32, &l), *r[3] = {NULL, NULL, NULL};
        ck_assert_ok(usmarr_array_copy(x, USMARR_ORDER_K, NULL, &r[0]));
        ck_assert_ok(usmarr_array_astype(x, USMARR_INT16, USMARR_ORDER_K, NULL, &r[1]));
        ck_assert_ok(usmarr_array_empty_like(x, -1, USMARR_ORDER_K, 0, &r[2]));
        for (int k = 0; k < 3; k++) {
            for (int d = 0; d < l.ndim; d++)
                ck_assert_msg(usmarr_array_strides(r[k])[d] == cases[c].want[d],
                              "case %zu result %d: strides[%d]=%lld, NumPy %lld", c, k, d,
                              (long long)usmarr_array_strides(r[k])[d], (long long)cases[c].want[d]);
            usmarr_array_release(r[k]);
        }
        usmarr_array_release(x);
    }
    usmarr_memory_release(m);
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_copy_and_astype_orders_c_f_a_k)
{
    usmarr_context_t *ctx = test_context();
    /* src: a (4, 5, 6) float32 view with strides (1, -4, 20) (F-like, flipped middle). */
    usmarr_memory_t *m = block_with_palette(ctx, USMARR_FLOAT32, 120);
    struct layout sl = {.ndim = 3, .shape = {4, 5, 6}, .strides = {1, -4, 20}, .offset = 16, .block = 120};
    usmarr_array_t *src = array_on(m, USMARR_FLOAT32, &sl);
    struct {
        usmarr_order_t order;
        int64_t strides[3];
    } cases[] = {{USMARR_ORDER_C, {30, 6, 1}},
                 {USMARR_ORDER_F, {1, 4, 20}},
                 {USMARR_ORDER_A, {30, 6, 1}},
                 {USMARR_ORDER_K, {1, 4, 20}}};
    for (int c = 0; c < 4; c++) {
        for (int cast = 0; cast < 2; cast++) {
            usmarr_array_t *r = NULL;
            if (cast)
                ck_assert_ok(usmarr_array_astype(src, USMARR_INT16, cases[c].order, NULL, &r));
            else
                ck_assert_ok(usmarr_array_copy(src, cases[c].order, NULL, &r));
            usmarr_dtype_t dt = cast ? USMARR_INT16 : USMARR_FLOAT32;
            ck_assert_int_eq(usmarr_array_dtype(r), dt);
            for (int d = 0; d < 3; d++)
                ck_assert_int_eq(usmarr_array_strides(r)[d], cases[c].strides[d]);
            ck_assert(usmarr_array_flags(r) & USMARR_FLAG_WRITABLE);
            unsigned char got[120 * 4];
            int bad = 0;
            ck_assert_ok(usmarr_memory_copy_to_host(usmarr_array_memory(r), 0, got, 120 * isz(dt)));
            for (int i = 0; i < 4; i++)
                for (int j = 0; j < 5; j++)
                    for (int k = 0; k < 6; k++) {
                        int64_t qs = 16 + i * 1 - j * 4 + k * 20;
                        int64_t qd = i * cases[c].strides[0] + j * cases[c].strides[1] + k * cases[c].strides[2];
                        bad += !same_value(dt, got + qd * (int64_t)isz(dt),
                                           cast_expected[USMARR_FLOAT32][dt][pal_at(qs)]);
                    }
            ck_assert_int_eq(bad, 0);
            usmarr_array_release(r);
        }
    }
    /* A: an F-contiguous source stays F. */
    int64_t fs[] = {3, 4};
    struct layout f = contiguous(2, fs, 'F');
    usmarr_array_t *fa = array_on(m, USMARR_FLOAT32, &f), *r;
    ck_assert_ok(usmarr_array_copy(fa, USMARR_ORDER_A, NULL, &r));
    ck_assert_int_eq(usmarr_array_strides(r)[0], 1);
    ck_assert_int_eq(usmarr_array_strides(r)[1], 3);
    ck_assert(usmarr_array_flags(r) & USMARR_FLAG_F_CONTIGUOUS);
    usmarr_array_release(r);
    /* Into out: result is out, retained. */
    usmarr_memory_t *om = block_with_sentinel(ctx, USMARR_FLOAT32, 12);
    int64_t cs[] = {3, 4};
    struct layout cl = contiguous(2, cs, 'C');
    usmarr_array_t *out = array_on(om, USMARR_FLOAT32, &cl), *res = NULL;
    ck_assert_ok(usmarr_array_copy(fa, USMARR_ORDER_K, out, &res));
    ck_assert_ptr_eq(res, out);
    ck_assert_int_eq(usmarr_array_refcount(out), 2);
    usmarr_array_release(res);
    ck_assert_ok(usmarr_array_astype(fa, USMARR_FLOAT32, USMARR_ORDER_K, out, NULL));
    usmarr_array_release(out);
    usmarr_memory_release(om);
    usmarr_array_release(fa);
    usmarr_array_release(src);
    usmarr_memory_release(m);
    usmarr_context_release(ctx);
}
END_TEST

/* ---- the documented rule for NumPy's undefined casts (doc/engine.md, "Casting") ---------- */

START_TEST(test_copy_nan_and_out_of_range_float_to_int_rule)
{
    usmarr_context_t *ctx = test_context();
    const float in[] = {NAN, INFINITY, -INFINITY, 300.0f, -300.0f, -1.5f, 2.9f, -2.9f, 3e9f, -3e9f, 1e20f, -0.5f};
    enum { N = sizeof in / sizeof in[0] };
    const int8_t want_i8[N] = {0, 127, -128, 127, -128, -1, 2, -2, 127, -128, 127, 0};
    const uint8_t want_u8[N] = {0, 255, 0, 255, 0, 0, 2, 0, 255, 0, 255, 0};
    const int32_t want_i32[N] = {0, INT32_MAX, INT32_MIN, 300, -300, -1, 2, -2, INT32_MAX, INT32_MIN, INT32_MAX, 0};
    const uint64_t want_u64[N] = {0, UINT64_MAX, 0, 300, 0, 0, 2, 0, 3000000000u, 0, UINT64_MAX, 0};
    int64_t shape[] = {N};
    usmarr_array_t *a;
    ck_assert_ok(usmarr_array_from_host(ctx, 1, shape, USMARR_FLOAT32, in, NULL, USMARR_USM_DEVICE, &a));
    usmarr_array_t *r;
    int8_t g8[N];
    ck_assert_ok(usmarr_array_astype(a, USMARR_INT8, USMARR_ORDER_K, NULL, &r));
    ck_assert_ok(usmarr_array_copy_to_host(r, g8, NULL));
    usmarr_array_release(r);
    uint8_t gu8[N];
    ck_assert_ok(usmarr_array_astype(a, USMARR_UINT8, USMARR_ORDER_K, NULL, &r));
    ck_assert_ok(usmarr_array_copy_to_host(r, gu8, NULL));
    usmarr_array_release(r);
    int32_t g32[N];
    ck_assert_ok(usmarr_array_astype(a, USMARR_INT32, USMARR_ORDER_K, NULL, &r));
    ck_assert_ok(usmarr_array_copy_to_host(r, g32, NULL));
    usmarr_array_release(r);
    uint64_t gu64[N];
    ck_assert_ok(usmarr_array_astype(a, USMARR_UINT64, USMARR_ORDER_K, NULL, &r));
    ck_assert_ok(usmarr_array_copy_to_host(r, gu64, NULL));
    usmarr_array_release(r);
    for (int i = 0; i < N; i++) {
        ck_assert_msg(g8[i] == want_i8[i], "int8 %d: %g -> %d", i, in[i], g8[i]);
        ck_assert_msg(gu8[i] == want_u8[i], "uint8 %d: %g -> %d", i, in[i], gu8[i]);
        ck_assert_msg(g32[i] == want_i32[i], "int32 %d: %g -> %d", i, in[i], g32[i]);
        ck_assert_msg(gu64[i] == want_u64[i], "uint64 %d: %g -> %llu", i, in[i], (unsigned long long)gu64[i]);
    }
    usmarr_array_release(a);
    usmarr_context_release(ctx);
}
END_TEST

/* ---- fill ------------------------------------------------------------------------------- */

START_TEST(test_fill_strided_views_every_dtype)
{
    usmarr_context_t *ctx = test_context();
    bool fp64 = usmarr_context_info(ctx)->fp64;
    for (int t = 0; t < USMARR_DTYPE_COUNT; t++) {
        usmarr_dtype_t dt = (usmarr_dtype_t)t;
        if (!fp64 && (dt == USMARR_FLOAT64 || dt == USMARR_COMPLEX128))
            continue;
        /* A (7, 9) view with strides (-20, 2) over 160 elements, and a contiguous 100. */
        struct layout views[] = {{.ndim = 2, .shape = {7, 9}, .strides = {-20, 2}, .offset = 121, .block = 160},
                                 {.ndim = 1, .shape = {100}, .strides = {1}, .offset = 0, .block = 100}};
        for (int v = 0; v < 2; v++) {
            usmarr_memory_t *m = block_with_sentinel(ctx, dt, views[v].block);
            usmarr_array_t *a = array_on(m, dt, &views[v]);
            ck_assert_ok(usmarr_array_fill(a, usmarr_scalar_int(5)));
            size_t n = (size_t)views[v].block * isz(dt);
            unsigned char *got = malloc(n), *want = malloc(n);
            memset(want, 0xA5, n);
            /* 5 in dtype t: independent host encoding. */
            unsigned char five[16] = {0};
            switch (dt) {
            case USMARR_BOOL: five[0] = 1; break;
            case USMARR_FLOAT16: five[0] = 0x00; five[1] = 0x45; break; /* 5.0 = 0x4500 */
            case USMARR_FLOAT32: { float f = 5; memcpy(five, &f, 4); break; }
            case USMARR_FLOAT64: { double d = 5; memcpy(five, &d, 8); break; }
            case USMARR_COMPLEX64: { float f[2] = {5, 0}; memcpy(five, f, 8); break; }
            case USMARR_COMPLEX128: { double d[2] = {5, 0}; memcpy(five, d, 16); break; }
            default: five[0] = 5; break; /* little-endian integers */
            }
            for (int64_t i = 0; i < views[v].shape[0]; i++)
                for (int64_t j = 0; j < (views[v].ndim > 1 ? views[v].shape[1] : 1); j++) {
                    int64_t q = views[v].offset + i * views[v].strides[0] + (views[v].ndim > 1 ? j * views[v].strides[1] : 0);
                    memcpy(want + q * (int64_t)isz(dt), five, isz(dt));
                }
            ck_assert_ok(usmarr_memory_copy_to_host(m, 0, got, n));
            ck_assert_msg(!memcmp(got, want, n), "fill %s view %d", usmarr_dtype_name(dt), v);
            free(got);
            free(want);
            usmarr_array_release(a);
            usmarr_memory_release(m);
        }
    }
    usmarr_context_release(ctx);
}
END_TEST

/* ---- failures of every public function ------------------------------------------------ */

START_TEST(test_copy_failures)
{
    usmarr_context_t *ctx = test_context(), *other = test_context();
    int64_t s[] = {4, 5}, s2[] = {3, 5};
    usmarr_array_t *a, *b, *c, *ro, *x;
    ck_assert_ok(usmarr_array_zeros(ctx, 2, s, USMARR_FLOAT32, USMARR_ORDER_C, USMARR_USM_DEVICE, &a));
    ck_assert_ok(usmarr_array_zeros(ctx, 2, s2, USMARR_FLOAT32, USMARR_ORDER_C, USMARR_USM_DEVICE, &b));
    ck_assert_ok(usmarr_array_zeros(ctx, 2, s, USMARR_INT32, USMARR_ORDER_C, USMARR_USM_DEVICE, &c));
    ck_assert_ok(usmarr_array_zeros(ctx, 2, s, USMARR_FLOAT32, USMARR_ORDER_C, USMARR_USM_DEVICE, &ro));
    ck_assert_ok(usmarr_array_make_read_only(ro));
    ck_assert_ok(usmarr_array_zeros(other, 2, s, USMARR_FLOAT32, USMARR_ORDER_C, USMARR_USM_DEVICE, &x));
    usmarr_array_t *r = NULL;

    ck_assert_fails_with(usmarr_array_copy(NULL, USMARR_ORDER_C, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT, "a is NULL");
    ck_assert_fails_with(usmarr_array_copy(a, USMARR_ORDER_C, NULL, NULL), USMARR_ERROR_INVALID_ARGUMENT, "result");
    ck_assert_fails_with(usmarr_array_copy(a, (usmarr_order_t)'Q', NULL, &r), USMARR_ERROR_INVALID_ARGUMENT, "order");
    ck_assert_fails_with(usmarr_array_copy(a, USMARR_ORDER_C, x, &r), USMARR_ERROR_CONTEXT_MISMATCH, "contexts");
    ck_assert_fails_with(usmarr_array_copy(a, USMARR_ORDER_C, ro, &r), USMARR_ERROR_READ_ONLY, "out");
    ck_assert_fails_with(usmarr_array_copy(a, USMARR_ORDER_C, c, &r), USMARR_ERROR_BAD_DTYPE, "int32");
    ck_assert_fails_with(usmarr_array_copy(a, USMARR_ORDER_C, b, &r), USMARR_ERROR_SHAPE_MISMATCH, "broadcast");

    ck_assert_fails_with(usmarr_array_astype(NULL, USMARR_INT8, USMARR_ORDER_C, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT,
                         "a is NULL");
    ck_assert_fails_with(usmarr_array_astype(a, (usmarr_dtype_t)99, USMARR_ORDER_C, NULL, &r), USMARR_ERROR_BAD_DTYPE,
                         "dtype=99");
    ck_assert_fails_with(usmarr_array_astype(a, USMARR_INT8, (usmarr_order_t)0, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT,
                         "order");
    ck_assert_fails_with(usmarr_array_astype(a, USMARR_INT8, USMARR_ORDER_C, c, &r), USMARR_ERROR_BAD_DTYPE, "int8");
    ck_assert_fails_with(usmarr_array_astype(a, USMARR_INT32, USMARR_ORDER_C, x, &r), USMARR_ERROR_CONTEXT_MISMATCH,
                         "contexts");
    ck_assert_fails_with(usmarr_array_astype(a, USMARR_FLOAT32, USMARR_ORDER_C, ro, &r), USMARR_ERROR_READ_ONLY, "out");
    ck_assert_fails_with(usmarr_array_astype(a, USMARR_FLOAT32, USMARR_ORDER_C, b, &r), USMARR_ERROR_SHAPE_MISMATCH,
                         "broadcast");

    ck_assert_fails_with(usmarr_array_copy_into(NULL, a), USMARR_ERROR_INVALID_ARGUMENT, "dst is NULL");
    ck_assert_fails_with(usmarr_array_copy_into(a, NULL), USMARR_ERROR_INVALID_ARGUMENT, "src is NULL");
    ck_assert_fails_with(usmarr_array_copy_into(a, x), USMARR_ERROR_CONTEXT_MISMATCH, "contexts");
    ck_assert_fails_with(usmarr_array_copy_into(ro, a), USMARR_ERROR_READ_ONLY, "dst");
    ck_assert_fails_with(usmarr_array_copy_into(b, a), USMARR_ERROR_SHAPE_MISMATCH, "broadcast");

    ck_assert_fails_with(usmarr_array_fill(NULL, usmarr_scalar_int(1)), USMARR_ERROR_INVALID_ARGUMENT, "a is NULL");
    ck_assert_fails_with(usmarr_array_fill(ro, usmarr_scalar_int(1)), USMARR_ERROR_READ_ONLY, "a is a read-only");
    usmarr_scalar_t bad = usmarr_scalar_int(1);
    bad.kind = (usmarr_kind_t)42;
    ck_assert_fails_with(usmarr_array_fill(a, bad), USMARR_ERROR_INVALID_ARGUMENT, "value.kind=42");
    usmarr_scalar_t typed = {.kind = USMARR_KIND_INT, .dtype = USMARR_FLOAT32, .value.i = 1};
    ck_assert_fails_with(usmarr_array_fill(a, typed), USMARR_ERROR_INVALID_ARGUMENT,
                         "value.kind=USMARR_KIND_INT contradicts value.dtype=float32");
    typed.dtype = 77;
    ck_assert_fails_with(usmarr_array_fill(a, typed), USMARR_ERROR_BAD_DTYPE, "value.dtype=77");
    usmarr_array_t *i8;
    ck_assert_ok(usmarr_array_zeros(ctx, 2, s, USMARR_INT8, USMARR_ORDER_C, USMARR_USM_DEVICE, &i8));
    ck_assert_fails_with(usmarr_array_fill(i8, usmarr_scalar_int(300)), USMARR_ERROR_OVERFLOW, "300");
    ck_assert_fails_with(usmarr_array_fill(c, usmarr_scalar_float(NAN)), USMARR_ERROR_CASTING, "nan");
    /* A failed call leaves its inputs unchanged. */
    ck_assert_int_eq(usmarr_array_refcount(a), 1);
    ck_assert_ptr_null(r);
    usmarr_array_release(i8);
    usmarr_array_release(a);
    usmarr_array_release(b);
    usmarr_array_release(c);
    usmarr_array_release(ro);
    usmarr_array_release(x);
    usmarr_context_release(other);
    usmarr_context_release(ctx);
}
END_TEST

Suite *suite_copy(void)
{
    Suite *s = suite_create("copy");
    TCase *tc = tcase_create("dtype_pairs");
    tcase_set_timeout(tc, 600);
    tcase_set_tags(tc, TEST_TAG_VARIANTS);
    tcase_add_loop_test(tc, test_copy_every_dtype_pair_across_layouts, 0, USMARR_DTYPE_COUNT);
    suite_add_tcase(s, tc);
    tc = tcase_create("copy");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_copy_transposes_tiled);
    tcase_add_test(tc, test_copy_2d_strided_narrow_and_wide_inner_axes);
    tcase_add_test(tc, test_copy_negative_strides_every_kind);
    tcase_add_test(tc, test_copy_every_kernel_shape_on_this_device);
    tcase_add_test(tc, test_copy_random_layouts_up_to_32_dims);
    tcase_add_test(tc, test_copy_overlapping_source_is_read_first);
    tcase_add_test(tc, test_copy_and_astype_orders_c_f_a_k);
    tcase_add_test(tc, test_copy_order_k_keeps_memory_order_as_numpy);
    tcase_add_test(tc, test_copy_nan_and_out_of_range_float_to_int_rule);
    tcase_add_test(tc, test_fill_strided_views_every_dtype);
    tcase_add_test(tc, test_copy_failures);
    suite_add_tcase(s, tc);
    return s;
}
