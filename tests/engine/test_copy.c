/* Copy, astype, copy_into and fill (lib/engine/copy.c on the kernel engine; the rest of the
 * suite is test_copy_orders.c), compared with host oracles: layouts are enumerated here
 * with plain index loops, element values come from NumPy's astype tables
 * (tests/engine/cast_cases.c). */
#include "copy_blocks.h"

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
    copy_orders_add_tests(tc);
    suite_add_tcase(s, tc);
    return s;
}
