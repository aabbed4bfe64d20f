/* The rows kernels of sort and argsort (cl/sort.cl usmarr_sort_rows, usmarr_sort_rows_net)
 * against a host oracle (a stable sort of (value, index) pairs): row lengths around their
 * thresholds (insertion sort up to 24 keys; the network's 64-key minimum, its 16-key
 * vectors and its maxima, 16384 float32 and 1024 int16 keys; local-memory scratch up to 10240 float32 argsort keys;
 * one kernel up to 16384), rows read with strides and transposed, `out` with strides,
 * transposed, in place and overlapping the input in another layout; the same for rows
 * past 16384 (the radix passes); and sorts long enough for the radix scatter's lines. */
#include "../harness/common.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct pair {
    float v;
    int64_t i;
};

static int by_value_then_index(const void *a, const void *b)
{
    const struct pair *x = a, *y = b;
    if (x->v != y->v)
        return x->v < y->v ? -1 : 1;
    return x->i < y->i ? -1 : x->i > y->i;
}

static int by_value_descending_then_index(const void *a, const void *b)
{
    const struct pair *x = a, *y = b;
    if (x->v != y->v)
        return x->v > y->v ? -1 : 1;
    return x->i < y->i ? -1 : x->i > y->i;
}

/* rows x n values with many ties (so that argsort's stability shows) */
static float *tied_values(int64_t rows, int64_t n, uint32_t seed)
{
    float *h = malloc(sizeof(float) * (size_t)(rows * n) + 1);
    ck_assert_ptr_nonnull(h);
    for (int64_t i = 0; i < rows * n; i++) {
        seed = seed * 1664525u + 1013904223u;
        h[i] = (float)((int)(seed >> 20) % 97 - 48) * 0.5f;
    }
    return h;
}

/* The oracle: each row of h (rows x n, C order) sorted, values into val, indices into idx. */
static void oracle(const float *h, int64_t rows, int64_t n, bool desc, float *val, int64_t *idx)
{
    struct pair *p = malloc(sizeof *p * (size_t)n + 1);
    ck_assert_ptr_nonnull(p);
    for (int64_t r = 0; r < rows; r++) {
        for (int64_t i = 0; i < n; i++) {
            p[i].v = h[r * n + i];
            p[i].i = i;
        }
        qsort(p, (size_t)n, sizeof *p, desc ? by_value_descending_then_index : by_value_then_index);
        for (int64_t i = 0; i < n; i++) {
            val[r * n + i] = p[i].v;
            idx[r * n + i] = p[i].i;
        }
    }
    free(p);
}

static void expect_floats(usmarr_array_t *r, const float *want, int64_t count, const char *what)
{
    float *got = malloc(sizeof(float) * (size_t)count + 1);
    ck_assert_ok(usmarr_array_copy_to_host(r, got, NULL));
    for (int64_t i = 0; i < count; i++)
        ck_assert_msg(got[i] == want[i], "%s: element %lld is %g, not %g", what, (long long)i, got[i], want[i]);
    free(got);
}

static void expect_indices(usmarr_array_t *r, const int64_t *want, int64_t count, const char *what)
{
    int64_t *got = malloc(sizeof(int64_t) * (size_t)count + 1);
    ck_assert_ok(usmarr_array_copy_to_host(r, got, NULL));
    for (int64_t i = 0; i < count; i++)
        ck_assert_msg(got[i] == want[i], "%s: index %lld is %lld, not %lld", what, (long long)i, (long long)got[i],
                      (long long)want[i]);
    free(got);
}

START_TEST(test_sort_rows_lengths_around_the_kernels_thresholds)
{
    usmarr_context_t *ctx = test_context();
    const int64_t lengths[] = {24, 25, 63, 64, 65, 1000, 10240, 10241, 16384, 16385};
    for (size_t l = 0; l < sizeof lengths / sizeof lengths[0]; l++) {
        int64_t n = lengths[l], rows = 3, shape[2] = {rows, n};
        float *h = tied_values(rows, n, (uint32_t)n), *val = malloc(sizeof(float) * (size_t)(rows * n));
        int64_t *idx = malloc(sizeof(int64_t) * (size_t)(rows * n));
        usmarr_array_t *x, *r;
        ck_assert_ok(usmarr_array_from_host(ctx, 2, shape, USMARR_FLOAT32, h, NULL, USMARR_USM_DEVICE, &x));
        for (int desc = 0; desc < 2; desc++) {
            char what[64];
            snprintf(what, sizeof what, "rows of %lld, %s", (long long)n, desc ? "descending" : "ascending");
            oracle(h, rows, n, desc, val, idx);
            ck_assert_ok(usmarr_sort(x, 1, desc, NULL, &r));
            expect_floats(r, val, rows * n, what);
            usmarr_array_release(r);
            ck_assert_ok(usmarr_argsort(x, -1, desc, NULL, &r));
            expect_indices(r, idx, rows * n, what);
            usmarr_array_release(r);
        }
        usmarr_array_release(x);
        free(h);
        free(val);
        free(idx);
    }
    usmarr_context_release(ctx);
}
END_TEST

static int int16_order(const void *a, const void *b)
{
    int16_t x = *(const int16_t *)a, y = *(const int16_t *)b;
    return (x > y) - (x < y);
}

static int int32_order(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

/* 2-byte elements leave the network for the radix sort past 1024 (1-byte ones past 256:
 * the NumPy cases' lengths 256 and 257 cross that) */
START_TEST(test_sort_rows_int16_around_the_network_limit)
{
    usmarr_context_t *ctx = test_context();
    for (int64_t n = 1024; n <= 1025; n++) {
        int64_t rows = 3, shape[2] = {rows, n};
        int16_t *h = malloc(sizeof(int16_t) * (size_t)(rows * n)), *got = malloc(sizeof(int16_t) * (size_t)(rows * n));
        uint32_t seed = 5;
        for (int64_t i = 0; i < rows * n; i++) {
            seed = seed * 1664525u + 1013904223u;
            h[i] = (int16_t)(seed >> 16);
        }
        usmarr_array_t *x, *r;
        ck_assert_ok(usmarr_array_from_host(ctx, 2, shape, USMARR_INT16, h, NULL, USMARR_USM_DEVICE, &x));
        ck_assert_ok(usmarr_sort(x, 1, false, NULL, &r));
        ck_assert_ok(usmarr_array_copy_to_host(r, got, NULL));
        for (int64_t k = 0; k < rows; k++)
            qsort(h + k * n, (size_t)n, sizeof(int16_t), int16_order);
        for (int64_t i = 0; i < rows * n; i++)
            ck_assert_msg(got[i] == h[i], "int16 rows of %lld: element %lld is %d, not %d", (long long)n, (long long)i,
                          got[i], h[i]);
        usmarr_array_release(r);
        usmarr_array_release(x);
        free(h);
        free(got);
    }
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_sort_rows_strided_transposed_and_overlapping_layouts)
{
    usmarr_context_t *ctx = test_context();
    enum { M = 40 };
    int64_t shape[2] = {M, M}, wide[2] = {M, 2 * M};
    float *h = tied_values(M, M, 7), *hw = tied_values(M, 2 * M, 9), val[M * M], t[M * M];
    int64_t idx[M * M];
    usmarr_array_t *x, *xt, *w, *ws, *o, *os, *ot, *r;

    /* transposed input: rows along axis 0 of x.T are x's rows read with stride M */
    ck_assert_ok(usmarr_array_from_host(ctx, 2, shape, USMARR_FLOAT32, h, NULL, USMARR_USM_DEVICE, &x));
    ck_assert_ok(usmarr_array_transpose(x, &xt));
    oracle(h, M, M, false, val, idx);
    ck_assert_ok(usmarr_sort(xt, 0, false, NULL, &r));
    for (int i = 0; i < M; i++)
        for (int j = 0; j < M; j++)
            t[j * M + i] = val[i * M + j];
    expect_floats(r, t, M * M, "x.T along axis 0");
    usmarr_array_release(r);

    /* step-2 input into a step-2 out, and into a transposed (F-ordered) out */
    ck_assert_ok(usmarr_array_from_host(ctx, 2, wide, USMARR_FLOAT32, hw, NULL, USMARR_USM_DEVICE, &w));
    ck_assert_ok(usmarr_array_getitem_text(w, ":, ::2", NULL, 0, NULL, &ws));
    float hs[M * M];
    for (int i = 0; i < M * M; i++)
        hs[i] = hw[i / M * 2 * M + i % M * 2];
    oracle(hs, M, M, true, val, idx);
    ck_assert_ok(usmarr_array_empty(ctx, 2, wide, USMARR_INT64, USMARR_ORDER_C, USMARR_USM_DEVICE, &o));
    ck_assert_ok(usmarr_array_getitem_text(o, ":, 1::2", NULL, 0, NULL, &os));
    ck_assert_ok(usmarr_argsort(ws, 1, true, os, NULL));
    expect_indices(os, idx, M * M, "step-2 in, step-2 out");
    usmarr_array_release(o);
    usmarr_array_release(os);
    ck_assert_ok(usmarr_array_empty(ctx, 2, shape, USMARR_FLOAT32, USMARR_ORDER_C, USMARR_USM_DEVICE, &o));
    ck_assert_ok(usmarr_array_transpose(o, &ot));
    ck_assert_ok(usmarr_sort(ws, -1, true, ot, NULL));
    expect_floats(ot, val, M * M, "step-2 in, transposed out");
    usmarr_array_release(o);
    usmarr_array_release(ot);

    /* in place through a step-2 view */
    ck_assert_ok(usmarr_sort(ws, 1, true, ws, NULL));
    expect_floats(ws, val, M * M, "step-2 in place");

    /* out is x.T: every row of the result lands across the rows still to be read */
    oracle(h, M, M, false, val, idx);
    ck_assert_ok(usmarr_sort(x, 1, false, xt, NULL));
    expect_floats(xt, val, M * M, "x sorted into x.T");
    usmarr_array_release(xt);
    usmarr_array_release(x);
    usmarr_array_release(ws);
    usmarr_array_release(w);
    free(h);
    free(hw);
    usmarr_context_release(ctx);
}
END_TEST

/* Rows longer than 16384 take the radix passes (cl/sort_radix.cl), whose last pass writes
 * the result: rows read with step 2 and sorted in place, indices into a step-2 out, and
 * the result written reversed over the input (x sorted into x[:, ::-1]). */
START_TEST(test_sort_long_rows_in_place_and_reversed_over_the_input)
{
    usmarr_context_t *ctx = test_context();
    enum { R = 3, N = 17001 };
    int64_t shape[2] = {R, N}, wide[2] = {R, 2 * N};
    float *h = tied_values(R, N, 11), *hw = tied_values(R, 2 * N, 13), *hs = malloc(sizeof(float) * R * N);
    float *val = malloc(sizeof(float) * R * N), *rev = malloc(sizeof(float) * R * N);
    int64_t *idx = malloc(sizeof(int64_t) * R * N);
    ck_assert(hs && val && rev && idx);
    usmarr_array_t *x, *xr, *w, *ws, *o, *os;

    ck_assert_ok(usmarr_array_from_host(ctx, 2, wide, USMARR_FLOAT32, hw, NULL, USMARR_USM_DEVICE, &w));
    int64_t one = 1, two = 2, back = -1;
    usmarr_index_item_t every2[2] = {usmarr_index_slice(NULL, NULL, NULL), usmarr_index_slice(NULL, NULL, &two)};
    usmarr_index_item_t odd2[2] = {usmarr_index_slice(NULL, NULL, NULL), usmarr_index_slice(&one, NULL, &two)};
    usmarr_index_item_t reversed[2] = {usmarr_index_slice(NULL, NULL, NULL), usmarr_index_slice(NULL, NULL, &back)};
    ck_assert_ok(usmarr_array_index(w, every2, 2, &ws));
    for (int64_t i = 0; i < R * N; i++)
        hs[i] = hw[i / N * 2 * N + i % N * 2];
    oracle(hs, R, N, true, val, idx);
    ck_assert_ok(usmarr_array_empty(ctx, 2, wide, USMARR_INT64, USMARR_ORDER_C, USMARR_USM_DEVICE, &o));
    ck_assert_ok(usmarr_array_index(o, odd2, 2, &os));
    ck_assert_ok(usmarr_argsort(ws, 1, true, os, NULL));
    expect_indices(os, idx, R * N, "long rows: step-2 in, step-2 out");
    ck_assert_ok(usmarr_sort(ws, 1, true, ws, NULL));
    expect_floats(ws, val, R * N, "long rows: step-2 in place");

    ck_assert_ok(usmarr_array_from_host(ctx, 2, shape, USMARR_FLOAT32, h, NULL, USMARR_USM_DEVICE, &x));
    ck_assert_ok(usmarr_array_index(x, reversed, 2, &xr));
    oracle(h, R, N, false, val, idx);
    ck_assert_ok(usmarr_sort(x, 1, false, xr, NULL));
    expect_floats(xr, val, R * N, "long rows sorted into x[:, ::-1]");
    for (int64_t i = 0; i < R * N; i++)
        rev[i] = val[i / N * N + (N - 1 - i % N)];
    expect_floats(x, rev, R * N, "long rows sorted into x[:, ::-1], read as x");
    usmarr_array_release(xr);
    usmarr_array_release(x);
    usmarr_array_release(os);
    usmarr_array_release(o);
    usmarr_array_release(ws);
    usmarr_array_release(w);
    free(h);
    free(hw);
    free(hs);
    free(val);
    free(rev);
    free(idx);
    usmarr_context_release(ctx);
}
END_TEST

/* NaN after every number, NaNs equal, -0 == +0; ties in index order */
static int float_order_then_index(const void *a, const void *b)
{
    const struct pair *x = a, *y = b;
    bool xn = isnan(x->v), yn = isnan(y->v);
    if (xn != yn)
        return xn ? 1 : -1;
    if (!xn && x->v != y->v)
        return x->v < y->v ? -1 : 1;
    return x->i < y->i ? -1 : x->i > y->i;
}

static int int64_order(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

struct lpair {
    int64_t v, i;
};

static int lpair_order(const void *a, const void *b)
{
    const struct lpair *x = a, *y = b;
    if (x->v != y->v)
        return x->v < y->v ? -1 : 1;
    return (x->i > y->i) - (x->i < y->i);
}

static uint64_t next_bits(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* Sorts of more keys than the shape's non-temporal threshold (forced down to 1 KiB, so that
 * every device takes it), in blocks long enough that the radix scatter passes gather each
 * digit value's keys in lines and write them with non-temporal stores (lib/ops/sort.c
 * radix_line): float32 keys of every bit pattern with the special values (sort and
 * argsort), two rows of int64 (8-byte keys, six digits; sort, and argsort with ties) and
 * the unique values of int32 (the last pass into scratch, not into a result). */
START_TEST(test_sort_radix_scatter_by_lines)
{
    setenv("USMARR_KERNEL_SHAPE", "nt=1K", 1);
    usmarr_context_t *ctx = test_context();
    static const float specials[] = {NAN, -NAN, INFINITY, -INFINITY, 0.0f, -0.0f, 1e-45f, -1e-45f, 1.17e-38f, 3.4e38f};
    const int nspecial = (int)(sizeof specials / sizeof *specials);
    enum { N = (1 << 21) + (1 << 19) + 5, R = 2, M = 1310720 };
    int64_t n = N, shape[2] = {R, M};
    uint64_t seed = 0x9e3779b97f4a7c15ull;
    float *h = malloc(sizeof(float) * N), *got = malloc(sizeof(float) * N);
    int64_t *idx = malloc(sizeof(int64_t) * N);
    struct pair *p = malloc(sizeof *p * N);
    ck_assert(h && got && idx && p);
    for (int64_t i = 0; i < N; i++) {
        uint32_t bits = (uint32_t)(next_bits(&seed) >> 32);
        if (i % 4 == 0) /* a quarter in [0, 1): keys whose top digits gather */
            h[i] = (float)(bits >> 8) / 16777216.0f;
        else if (i % 1009 == 0)
            h[i] = specials[(i / 1009) % nspecial];
        else
            memcpy(&h[i], &bits, sizeof bits);
        p[i].v = h[i];
        p[i].i = i;
    }
    qsort(p, N, sizeof *p, float_order_then_index);
    usmarr_array_t *x, *r;
    ck_assert_ok(usmarr_array_from_host(ctx, 1, &n, USMARR_FLOAT32, h, NULL, USMARR_USM_DEVICE, &x));
    ck_assert_ok(usmarr_sort(x, 0, false, NULL, &r));
    ck_assert_ok(usmarr_array_copy_to_host(r, got, NULL));
    for (int64_t i = 0; i < N; i++)
        ck_assert_msg(got[i] == p[i].v || (isnan(got[i]) && isnan(p[i].v)), "float32 sort: element %lld is %g, not %g",
                      (long long)i, got[i], p[i].v);
    usmarr_array_release(r);
    for (int64_t i = 0; i < N; i++)
        idx[i] = p[i].i;
    ck_assert_ok(usmarr_argsort(x, 0, false, NULL, &r));
    expect_indices(r, idx, N, "float32 argsort");
    usmarr_array_release(r);
    usmarr_array_release(x);

    int64_t *k = malloc(sizeof(int64_t) * R * M), *kg = malloc(sizeof(int64_t) * R * M);
    ck_assert(k && kg);
    for (int64_t i = 0; i < R * M; i++)
        k[i] = i == 7 ? INT64_MIN : i == 8 ? INT64_MAX : (int64_t)next_bits(&seed);
    ck_assert_ok(usmarr_array_from_host(ctx, 2, shape, USMARR_INT64, k, NULL, USMARR_USM_DEVICE, &x));
    ck_assert_ok(usmarr_sort(x, 1, false, NULL, &r));
    ck_assert_ok(usmarr_array_copy_to_host(r, kg, NULL));
    for (int64_t row = 0; row < R; row++)
        qsort(k + row * M, M, sizeof *k, int64_order);
    for (int64_t i = 0; i < R * M; i++)
        ck_assert_msg(kg[i] == k[i], "int64 rows: element %lld is %lld, not %lld", (long long)i, (long long)kg[i],
                      (long long)k[i]);
    usmarr_array_release(r);
    usmarr_array_release(x);

    /* argsort of int64 rows with ties (8-byte keys and their indices in lines) */
    struct lpair *lp = malloc(sizeof *lp * R * M);
    ck_assert(lp);
    for (int64_t i = 0; i < R * M; i++) {
        k[i] = (int64_t)(next_bits(&seed) % 65521u) * 1000000007LL - ((int64_t)1 << 45);
        lp[i] = (struct lpair){k[i], i % M};
    }
    for (int64_t row = 0; row < R; row++)
        qsort(lp + row * M, M, sizeof *lp, lpair_order);
    ck_assert_ok(usmarr_array_from_host(ctx, 2, shape, USMARR_INT64, k, NULL, USMARR_USM_DEVICE, &x));
    ck_assert_ok(usmarr_argsort(x, 1, false, NULL, &r));
    ck_assert_ok(usmarr_array_copy_to_host(r, kg, NULL));
    for (int64_t i = 0; i < R * M; i++)
        ck_assert_msg(kg[i] == lp[i].i, "int64 rows argsort: index %lld is %lld, not %lld", (long long)i,
                      (long long)kg[i], (long long)lp[i].i);
    usmarr_array_release(r);
    usmarr_array_release(x);
    free(lp);

    int32_t *u = (int32_t *)kg, *ug = (int32_t *)k; /* N int32 fit in R * M int64 */
    for (int64_t i = 0; i < N; i++)
        u[i] = (int32_t)(next_bits(&seed) % 1000003u) - 500000;
    ck_assert_ok(usmarr_array_from_host(ctx, 1, &n, USMARR_INT32, u, NULL, USMARR_USM_DEVICE, &x));
    ck_assert_ok(usmarr_unique_values(x, &r));
    qsort(u, N, sizeof *u, int32_order);
    int64_t distinct = 0;
    for (int64_t i = 0; i < N; i++)
        if (i == 0 || u[i] != u[i - 1])
            u[distinct++] = u[i];
    ck_assert_int_eq(usmarr_array_size(r), distinct);
    ck_assert_ok(usmarr_array_copy_to_host(r, ug, NULL));
    for (int64_t i = 0; i < distinct; i++)
        ck_assert_msg(ug[i] == u[i], "unique int32: element %lld is %d, not %d", (long long)i, ug[i], u[i]);
    usmarr_array_release(r);
    usmarr_array_release(x);
    free(h);
    free(got);
    free(idx);
    free(p);
    free(k);
    free(kg);
    usmarr_context_release(ctx);
}
END_TEST

Suite *suite_sort_rows(void);
Suite *suite_sort_rows(void)
{
    Suite *s = suite_create("sort_rows");
    const struct test_case_entry tests[] = {
        {"lengths", test_sort_rows_lengths_around_the_kernels_thresholds},
        {"int16", test_sort_rows_int16_around_the_network_limit},
        {"layouts", test_sort_rows_strided_transposed_and_overlapping_layouts},
        {"long_layouts", test_sort_long_rows_in_place_and_reversed_over_the_input},
    };
    test_add_cases(s, tests, sizeof tests / sizeof tests[0]);
    /* once per device, not in the runner's modes: it forces a shape of its own */
    const struct test_case_entry lines[] = {{"radix_lines", test_sort_radix_scatter_by_lines}};
    test_add_tagged_cases(s, lines, 1, TEST_TAG_VARIANTS);
    return s;
}
