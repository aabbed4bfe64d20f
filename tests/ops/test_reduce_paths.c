/* The reductions' vector paths against host loops: rows of 16-lane vectors (an inner
 * contiguous axis, four accumulators and a tail), outer-axis columns (128 outputs a
 * work-item and a last partial group), and the split of few outputs over many elements
 * (argmin/argmax through their indices), each with NaN, infinities, signed zeros and
 * ties where the first index must win, in float32, float64, int32 and bool, in C order
 * and through negative strides; and empty axes. */
#include "../harness/common.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

static const char *const ops[] = {"sum",    "mean",   "min", "max", "argmin",       "argmax",
                                  "all",    "any",    "count_nonzero", "logsumexp"};

/* The reduction of the n values v[0], v[s], ... as NumPy defines it (doubles; a float32
 * input is exact in them). */
static double host_reduce(const char *op, const double *v, int64_t n, int64_t s)
{
    double acc = 0, m = v[0];
    int64_t at = 0, nz = 0;
    bool nan = false;
    for (int64_t i = 0; i < n; i++) {
        double e = v[i * s];
        acc += e;
        nz += e != 0;
        if (!nan && e != e) {
            nan = true;
            m = e;
            at = i;
        } else if (!nan && (!strcmp(op, "min") || !strcmp(op, "argmin") ? e < m : e > m)) {
            m = e;
            at = i;
        }
    }
    if (!strcmp(op, "sum"))
        return acc;
    if (!strcmp(op, "mean"))
        return acc / (double)n;
    if (!strcmp(op, "min") || !strcmp(op, "max"))
        return m;
    if (!strcmp(op, "argmin") || !strcmp(op, "argmax"))
        return (double)at;
    if (!strcmp(op, "all"))
        return nz == n;
    if (!strcmp(op, "any"))
        return nz > 0;
    if (!strcmp(op, "count_nonzero"))
        return (double)nz;
    double big = -INFINITY; /* logsumexp */
    for (int64_t i = 0; i < n; i++)
        big = v[i * s] != v[i * s] || v[i * s] > big ? v[i * s] : big;
    if (!isfinite(big))
        return big;
    long double t = 0;
    for (int64_t i = 0; i < n; i++)
        t += expl((long double)v[i * s] - big);
    return big + (double)logl(t);
}

/* The rows x cols matrix h (logical C order, doubles) as dtype dt: C-ordered, or stored
 * reversed and flipped back along both axes (negative strides). */
static usmarr_array_t *make(usmarr_context_t *ctx, const double *h, int64_t rows, int64_t cols, usmarr_dtype_t dt,
                            bool flipped)
{
    int64_t n = rows * cols, shape[2] = {rows, cols};
    size_t size = usmarr_dtype_size(dt);
    unsigned char *b = malloc((size_t)n * size + 1);
    for (int64_t i = 0; i < n; i++) {
        double e = h[flipped ? n - 1 - i : i];
        if (dt == USMARR_FLOAT32)
            ((float *)b)[i] = (float)e;
        else if (dt == USMARR_FLOAT64)
            ((double *)b)[i] = e;
        else if (dt == USMARR_INT32)
            ((int32_t *)b)[i] = (int32_t)e;
        else
            b[i] = e != 0;
    }
    usmarr_array_t *a, *f;
    ck_assert_ok(usmarr_array_from_host(ctx, 2, shape, dt, b, NULL, USMARR_USM_DEVICE, &a));
    free(b);
    if (!flipped)
        return a;
    ck_assert_ok(usmarr_array_flip(a, 0, NULL, &f));
    usmarr_array_release(a);
    return f;
}

/* Every reduction of h (values as dtype dt sees them) over all elements, axis 0 and axis
 * 1, against host_reduce. */
static void check_all(usmarr_context_t *ctx, const double *h0, int64_t rows, int64_t cols, usmarr_dtype_t dt,
                      bool flipped)
{
    int64_t n = rows * cols;
    double *h = malloc(sizeof(double) * (size_t)n), *got = malloc(sizeof(double) * (size_t)(rows + cols));
    for (int64_t i = 0; i < n; i++)
        h[i] = dt == USMARR_FLOAT32 ? (double)(float)h0[i]
               : dt == USMARR_INT32 ? (isfinite(h0[i]) ? (double)(int32_t)h0[i] : 7)
               : dt == USMARR_BOOL  ? (double)(h0[i] != 0)
                                    : h0[i];
    usmarr_array_t *x = make(ctx, h, rows, cols, dt, flipped);
    bool flt = dt == USMARR_FLOAT32 || dt == USMARR_FLOAT64;
    double tol = dt == USMARR_FLOAT32 ? 1e-5 : 1e-12;
    for (size_t o = 0; o < sizeof ops / sizeof ops[0]; o++) {
        if (!flt && !strcmp(ops[o], "logsumexp"))
            continue;
        for (int axis = -1; axis < 2; axis++) {
            usmarr_array_t *r, *rd;
            ck_assert_ok(usmarr_reduce(ops[o], x, axis < 0 ? 0 : 1, axis < 0 ? NULL : &axis, false, NULL, &r));
            ck_assert_ok(usmarr_array_astype(r, USMARR_FLOAT64, USMARR_ORDER_C, NULL, &rd));
            ck_assert_ok(usmarr_array_copy_to_host(rd, got, NULL));
            int64_t nout = axis < 0 ? 1 : axis == 0 ? cols : rows;
            for (int64_t k = 0; k < nout; k++) {
                const double *v = axis < 0 ? h : axis == 0 ? h + k : h + k * cols;
                double want = host_reduce(ops[o], v, axis < 0 ? n : axis == 0 ? rows : cols, axis == 0 ? cols : 1);
                double scale = 1;
                if (!strcmp(ops[o], "sum") || !strcmp(ops[o], "mean"))
                    for (int64_t i = 0, m = axis < 0 ? n : axis == 0 ? rows : cols; i < m; i++)
                        scale += fabs(v[i * (axis == 0 ? cols : 1)]);
                bool ok = want != want ? got[k] != got[k]
                          : isinf(want) ? got[k] == want
                                        : fabs(got[k] - want) <= tol * fmax(scale, fabs(want));
                ck_assert_msg(ok, "%s of %s%s over axis %d, output %lld: %.17g, want %.17g", ops[o],
                              usmarr_dtype_name(dt), flipped ? " (negative strides)" : "", axis, (long long)k, got[k],
                              want);
            }
            usmarr_array_release(rd);
            usmarr_array_release(r);
        }
    }
    usmarr_array_release(x);
    free(got);
    free(h);
}

/* check_all of float32, float64, int32 and bool (the first `count` of them), both layouts. */
static void check_dtypes(const double *h, int64_t rows, int64_t cols, int count)
{
    static const usmarr_dtype_t dtypes[] = {USMARR_FLOAT32, USMARR_FLOAT64, USMARR_INT32, USMARR_BOOL};
    usmarr_context_t *ctx = test_context();
    for (int t = 0; t < count; t++) {
        check_all(ctx, h, rows, cols, dtypes[t], false);
        check_all(ctx, h, rows, cols, dtypes[t], true);
    }
    usmarr_context_release(ctx);
}

/* Values -2.75 .. 2.75 in quarters, so the extremes repeat (ties) and sums are exact. */
static double tie_value(int64_t i) { return (double)((i * 7919) % 23 - 11) / 4; }

START_TEST(test_reduce_paths_rows_match_host_loops)
{
    /* Rows of 2053 elements (32 groups of 64, 4 of 16, a tail of 5) with specials: a row
     * whose first NaN is in the third accumulator's lanes, one with +inf and -inf, one of
     * -inf only, one of zeros of both signs, one with no zero, one whose extremes sit in
     * the tail only. */
    const int64_t rows = 9, cols = 2053;
    double *h = malloc(sizeof(double) * (size_t)(rows * cols));
    for (int64_t i = 0; i < rows * cols; i++)
        h[i] = tie_value(i);
    double *r = h + 2 * cols;
    r[1500 + 35] = NAN;
    r[1700] = NAN;
    r = h + 3 * cols;
    r[100] = INFINITY;
    r[2000] = -INFINITY;
    r = h + 4 * cols;
    for (int64_t c = 0; c < cols; c++)
        r[c] = -INFINITY;
    r = h + 5 * cols;
    for (int64_t c = 0; c < cols; c++)
        r[c] = c % 3 ? -0.0 : 0.0;
    r = h + 6 * cols;
    for (int64_t c = 0; c < cols; c++)
        r[c] = 1 + (double)(c % 7) / 8;
    r[2050] = 0.5;
    r[2052] = 2;
    r[2049] = 0.5;
    check_dtypes(h, rows, cols, 4);
    free(h);
}
END_TEST

START_TEST(test_reduce_paths_rows_blocks_keep_the_first_index)
{
    /* argmin and argmax take the rows 64 elements a block (16 where fewer are left), note
     * each lane's block and rescan the first block holding the extreme.  Rows of 2101
     * elements (32 blocks of 64, 3 of 16, a tail of 5): the extreme in a block's first
     * element and again in a later block's last, in a block's last and again in a later
     * block's second (another lane), twice in one lane, in the row's first element, a row
     * of one value throughout, a NaN in a later block than the extreme (and another
     * after it), extremes in a block of 16 and again in the tail, and in the tail only. */
    const int64_t rows = 10, cols = 2101;
    double *h = malloc(sizeof(double) * (size_t)(rows * cols));
    for (int64_t i = 0; i < rows * cols; i++)
        h[i] = tie_value(i);
    double *r = h;
    r[5 * 64] = r[9 * 64 + 63] = 9;
    r[2 * 64] = r[30 * 64 + 63] = -9;
    r = h + cols;
    r[3 * 64 + 63] = r[7 * 64 + 1] = 9;
    r[4 * 64 + 63] = r[6 * 64 + 2] = -9;
    r = h + 2 * cols;
    r[2 * 64 + 17] = r[6 * 64 + 17] = r[6 * 64 + 33] = 9;
    r[3 * 64 + 17] = r[3 * 64 + 49] = -9;
    r = h + 3 * cols;
    r[0] = r[64] = r[2100] = 9;
    r[1] = r[2099] = -9;
    r = h + 4 * cols;
    for (int64_t c = 0; c < cols; c++)
        r[c] = 1.5;
    r = h + 5 * cols;
    r[3 * 64 + 10] = 9;
    r[20 * 64 + 5] = NAN;
    r[25 * 64] = NAN;
    r = h + 6 * cols;
    r[2048 + 16 + 15] = r[2099] = 9;
    r[2048 + 32] = r[2098] = -9;
    r = h + 7 * cols;
    r[2097] = 9;
    r[2100] = -9;
    r = h + 8 * cols;
    for (int64_t c = 0; c < cols; c++)
        r[c] = c % 16 == 3 ? 4 : c % 16 == 4 ? -4 : 0;
    r = h + 9 * cols;
    r[64 + 15] = r[64 + 16] = 9;
    r[128 + 47] = r[128 + 48] = -9;
    check_dtypes(h, rows, cols, 4);
    free(h);
}
END_TEST

START_TEST(test_reduce_paths_rows_lanes_join)
{
    /* min and max join their four accumulators and then the lanes: rows of 2117 elements
     * (33 groups of 64, each a 16-vector to each accumulator, and a tail of 5), each with
     * one maximum and one minimum: in the first and the last lane of each accumulator, in
     * groups far apart, in the last group, and in the tail. */
    static const int64_t at[][2] = {{0, 63},    {15, 48},  {16, 47},   {31, 32},   {64 * 7 + 32, 64 * 3 + 31},
                                    {64 * 20 + 47, 64 * 31 + 16}, {64 * 32 + 63, 64 * 32}, {2116, 2112}, {2113, 5}};
    const int64_t rows = sizeof at / sizeof at[0], cols = 2117;
    double *h = malloc(sizeof(double) * (size_t)(rows * cols));
    for (int64_t i = 0; i < rows * cols; i++)
        h[i] = tie_value(i) / 2;
    for (int64_t r = 0; r < rows; r++) {
        h[r * cols + at[r][0]] = 9 + (double)r;
        h[r * cols + at[r][1]] = -9 - (double)r;
    }
    check_dtypes(h, rows, cols, 3);
    free(h);
}
END_TEST

START_TEST(test_reduce_paths_columns_match_host_loops)
{
    /* 300 rows of 260 columns: two groups of 128 columns and 4 left over, with a NaN in
     * a column of each part, infinities, a column of zeros and one with no zero. */
    const int64_t rows = 300, cols = 260;
    double *h = malloc(sizeof(double) * (size_t)(rows * cols));
    for (int64_t i = 0; i < rows * cols; i++)
        h[i] = tie_value(i);
    h[100 * cols + 3] = NAN;
    h[200 * cols + 3] = NAN;
    h[7 * cols + 258] = NAN;
    h[10 * cols + 130] = INFINITY;
    h[20 * cols + 131] = -INFINITY;
    for (int64_t k = 0; k < rows; k++) {
        h[k * cols + 200] = k % 2 ? -0.0 : 0.0;
        h[k * cols + 259] = 1;
        h[k * cols + 5] = 3;
    }
    h[250 * cols + 259] = 0;
    check_dtypes(h, rows, cols, 4);
    free(h);
}
END_TEST

START_TEST(test_reduce_paths_columns_decided_late)
{
    /* all and any of columns stop once a work-item's 128 columns are decided: here every
     * column is decided by row 1 (a zero of either sign in row 0, ones below) but one in
     * each group of 128, which is decided only by the last row (all: a -0.0 there after
     * NaN and infinities; any: a NaN there after zeros), and one column never zero. */
    const int64_t rows = 300, cols = 260;
    double *h = malloc(sizeof(double) * (size_t)(rows * cols));
    for (int64_t i = 0; i < rows * cols; i++)
        h[i] = i < cols ? (i % 2 ? -0.0 : 0.0) : 1;
    for (int64_t k = 0; k < rows; k++) {
        h[k * cols + 77] = k % 3 ? (k % 2 ? NAN : 2) : -INFINITY;
        h[k * cols + 140] = k % 2 ? -0.0 : 0.0;
        h[k * cols + 200] = k % 2 ? INFINITY : 5;
    }
    h[(rows - 1) * cols + 77] = -0.0;
    h[(rows - 1) * cols + 140] = NAN;
    check_dtypes(h, rows, cols, 4);
    free(h);
}
END_TEST

START_TEST(test_reduce_paths_split_argmin_keeps_the_first_index)
{
    /* 300000 elements as one row (split into parts): the extremes appear in two parts
     * (the first wins), then a NaN in a late part and an earlier one (the earlier wins). */
    const int64_t n = 300000;
    double *h = malloc(sizeof(double) * (size_t)n);
    for (int64_t i = 0; i < n; i++)
        h[i] = tie_value(i) / 2;
    h[250001] = -9;
    h[70003] = -9;
    h[260000] = 9;
    h[90000] = 9;
    h[299999] = 9;
    check_dtypes(h, 1, n, 3);
    h[280000] = NAN;
    h[95000] = NAN;
    check_dtypes(h, 1, n, 2);
    free(h);
}
END_TEST

START_TEST(test_reduce_paths_split_edges)
{
    /* 2^20 elements as one row and as two (split into parts of a multiple of 4096
     * elements: 65536 on 2 compute units, 32768 on 4, ...): ties of the extremes in the
     * last element of one part and the first of the next (the first wins), in a part's
     * first element and the array's last, then a NaN in a late part and one in the last
     * element of an earlier part (the earlier wins); and all elements equal. */
    const int64_t n = 1 << 20;
    double *h = malloc(sizeof(double) * (size_t)n);
    for (int64_t i = 0; i < n; i++)
        h[i] = tie_value(i) / 2;
    h[65535] = h[65536] = -9;
    h[3 * 131072] = h[n - 1] = 9;
    check_dtypes(h, 1, n, 3);
    check_dtypes(h, 2, n / 2, 3);
    h[14 * 65536] = NAN;
    h[12 * 65536 - 1] = NAN;
    check_dtypes(h, 1, n, 2);
    for (int64_t i = 0; i < n; i++)
        h[i] = 1.25;
    check_dtypes(h, 1, n, 4);
    free(h);
}
END_TEST

/* sum, mean and prod of a (d0, rows, cols) float array h over axis 1 against host loops
 * (h holds 2, 0.5, 1 and -1 and specials, each power of 2 at most 100 times a column:
 * sums and products are exact in both dtypes whatever their order, and no part of a
 * product leaves float32's normal range, so each must equal the host's; NaN where the
 * host has NaN). */
static double slab_value(int64_t i) { return i % 7 == 0 ? 2 : i % 7 == 3 ? 0.5 : i % 5 == 0 ? -1 : 1; }

static void check_slabs(const double *h, int64_t d0, int64_t rows, int64_t cols)
{
    usmarr_context_t *ctx = test_context();
    static const usmarr_dtype_t dtypes[] = {USMARR_FLOAT32, USMARR_FLOAT64};
    static const char *const names[] = {"sum", "mean", "prod"};
    int64_t n = d0 * rows * cols, shape[3] = {d0, rows, cols};
    double *got = malloc(sizeof(double) * (size_t)(d0 * cols));
    float *f = malloc(sizeof(float) * (size_t)n);
    for (int64_t i = 0; i < n; i++)
        f[i] = (float)h[i];
    for (int t = 0; t < 2; t++) {
        usmarr_array_t *x;
        ck_assert_ok(usmarr_array_from_host(ctx, 3, shape, dtypes[t], t ? (const void *)h : (const void *)f, NULL,
                                            USMARR_USM_DEVICE, &x));
        for (int o = 0; o < 3; o++) {
            usmarr_array_t *r, *rd;
            int axis = 1;
            ck_assert_ok(usmarr_reduce(names[o], x, 1, &axis, false, NULL, &r));
            ck_assert_ok(usmarr_array_astype(r, USMARR_FLOAT64, USMARR_ORDER_C, NULL, &rd));
            ck_assert_ok(usmarr_array_copy_to_host(rd, got, NULL));
            for (int64_t k = 0; k < d0 * cols; k++) {
                const double *v = h + (k / cols) * rows * cols + k % cols;
                double want = o == 2 ? 1 : 0;
                for (int64_t i = 0; i < rows; i++)
                    want = o == 2 ? want * v[i * cols] : want + v[i * cols];
                if (o == 1)
                    want /= (double)rows;
                bool ok = want != want ? got[k] != got[k] : got[k] == (t ? want : (double)(float)want);
                ck_assert_msg(ok, "%s of %s over axis 1, output %lld: %.17g, want %.17g", names[o],
                              usmarr_dtype_name(dtypes[t]), (long long)k, got[k], want);
            }
            usmarr_array_release(rd);
            usmarr_array_release(r);
        }
        usmarr_array_release(x);
    }
    free(f);
    free(got);
    usmarr_context_release(ctx);
}

START_TEST(test_reduce_paths_columns_in_slabs)
{
    /* Outer-axis sums, means and products of 1M elements or more go through parts of
     * whole rows (tiles of 4096 columns) and a column reduction of the partials: (1, 300,
     * 4133) (a tile and 37 columns: 2 vectors and 5 single ones) and (3, 400, 1000) (parts
     * for each of 3 outer outputs), with NaN, infinities, zeros and -0.0 in some columns. */
    int64_t n = 300 * 4133;
    double *h = malloc(sizeof(double) * (size_t)n);
    for (int64_t i = 0; i < n; i++)
        h[i] = slab_value(i);
    h[17 * 4133 + 4100] = NAN;
    h[290 * 4133 + 4132] = INFINITY;
    h[5 * 4133 + 4097] = -INFINITY;
    h[250 * 4133 + 4097] = INFINITY;
    for (int64_t r = 0; r < 300; r++) {
        h[r * 4133 + 4130] = r == 299 ? 4 : r % 3 == 0 ? 0.5 : r % 3 == 1 ? -2 : 1;
        h[r * 4133 + 9] = r == 150 ? 0 : r % 3 == 0 ? 2 : r % 3 == 1 ? -0.5 : 1;
        h[r * 4133 + 11] = -0.0;
    }
    check_slabs(h, 1, 300, 4133);
    free(h);
    n = 3 * 400 * 1000;
    h = malloc(sizeof(double) * (size_t)n);
    for (int64_t i = 0; i < n; i++)
        h[i] = slab_value(i * 3 + 1);
    h[2 * 400 * 1000 + 399 * 1000 + 999] = NAN;
    h[1 * 400 * 1000 + 200 * 1000 + 3] = INFINITY;
    check_slabs(h, 3, 400, 1000);
    free(h);
}
END_TEST

START_TEST(test_reduce_paths_empty_axes)
{
    /* (3, 0) over axis 1 and (0, 300) over axis 0: identities where there are, else
     * USMARR_ERROR_EMPTY. */
    usmarr_context_t *ctx = test_context();
    static const int64_t shapes[2][2] = {{3, 0}, {0, 300}};
    for (int s = 0; s < 2; s++) {
        usmarr_array_t *x;
        ck_assert_ok(usmarr_array_empty(ctx, 2, shapes[s], USMARR_FLOAT32, USMARR_ORDER_C, USMARR_USM_DEVICE, &x));
        int axis = s ? 0 : 1;
        int64_t nout = shapes[s][1 - axis];
        for (size_t o = 0; o < sizeof ops / sizeof ops[0]; o++) {
            usmarr_array_t *r = NULL, *rd;
            int rc = usmarr_reduce(ops[o], x, 1, &axis, false, NULL, &r);
            if (!strcmp(ops[o], "min") || !strcmp(ops[o], "max") || !strncmp(ops[o], "arg", 3)) {
                ck_assert_int_eq(rc, USMARR_ERROR_EMPTY);
                ck_assert_ptr_null(r);
                continue;
            }
            ck_assert_ok(rc);
            double got[300];
            ck_assert_ok(usmarr_array_astype(r, USMARR_FLOAT64, USMARR_ORDER_C, NULL, &rd));
            ck_assert_ok(usmarr_array_copy_to_host(rd, got, NULL));
            double want = !strcmp(ops[o], "all") ? 1 : !strcmp(ops[o], "logsumexp") ? -INFINITY : 0;
            for (int64_t k = 0; k < nout; k++) {
                if (!strcmp(ops[o], "mean"))
                    ck_assert_msg(got[k] != got[k], "mean of nothing: %g", got[k]);
                else
                    ck_assert_msg(got[k] == want, "%s of nothing [%lld]: %g, want %g", ops[o], (long long)k, got[k],
                                  want);
            }
            usmarr_array_release(rd);
            usmarr_array_release(r);
        }
        usmarr_array_release(x);
    }
    usmarr_context_release(ctx);
}
END_TEST

Suite *suite_reduce_paths(void);
Suite *suite_reduce_paths(void)
{
    Suite *s = suite_create("reduce_paths");
    const struct test_case_entry tests[] = {
        {"rows", test_reduce_paths_rows_match_host_loops},
        {"rows_blocks", test_reduce_paths_rows_blocks_keep_the_first_index},
        {"rows_lanes", test_reduce_paths_rows_lanes_join},
        {"columns", test_reduce_paths_columns_match_host_loops},
        {"columns_late", test_reduce_paths_columns_decided_late},
        {"columns_slabs", test_reduce_paths_columns_in_slabs},
        {"split", test_reduce_paths_split_argmin_keeps_the_first_index},
        {"split_edges", test_reduce_paths_split_edges},
        {"empty", test_reduce_paths_empty_axes},
    };
    test_add_cases(s, tests, sizeof tests / sizeof tests[0]);
    return s;
}
