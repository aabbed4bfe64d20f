/* Reductions and the cumulative sum against NumPy (tests/ops_cases.txt): every reduction,
 * nine dtypes, every axis subset of shapes up to 4-d, keepdims, C / reversed (negative
 * strides) / F layouts; NaN propagation, first occurrence, empty selections, out, and the
 * failure paths. */
#include "../harness/common.h"
#include "ops_cases.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

struct rin {
    int id;
    usmarr_dtype_t dtype;
    int ndim;
    int64_t shape[4];
    int64_t n;
    unsigned char data[128 * 16];
};

enum layout { LAYOUT_C, LAYOUT_REVERSED, LAYOUT_F, LAYOUT_COUNT };
static const char *const layout_names[] = {"C", "reversed", "F"};

static usmarr_array_t *make(usmarr_context_t *ctx, const struct rin *in, enum layout lay)
{
    usmarr_array_t *a = NULL, *v = NULL;
    size_t isz = usmarr_dtype_size(in->dtype);
    if (lay == LAYOUT_C) {
        ck_assert_ok(usmarr_array_from_host(ctx, in->ndim, in->shape, in->dtype, in->data, NULL, USMARR_USM_DEVICE, &a));
        return a;
    }
    if (lay == LAYOUT_REVERSED) {
        unsigned char rev[128 * 16];
        for (int64_t i = 0; i < in->n; i++)
            memcpy(rev + i * isz, in->data + (in->n - 1 - i) * isz, isz);
        ck_assert_ok(usmarr_array_from_host(ctx, in->ndim, in->shape, in->dtype, rev, NULL, USMARR_USM_DEVICE, &a));
        int axes[4] = {0, 1, 2, 3};
        ck_assert_ok(usmarr_array_flip(a, in->ndim, in->ndim ? axes : NULL, &v));
        usmarr_array_release(a);
        return v;
    }
    ck_assert_ok(usmarr_array_empty(ctx, in->ndim, in->shape, in->dtype, USMARR_ORDER_F, USMARR_USM_DEVICE, &a));
    ck_assert_ok(usmarr_array_copy_from_host(a, in->data, NULL));
    return a;
}

static double tolerance(const char *op, usmarr_dtype_t rd)
{
    if (!strcmp(op, "prod"))
        return rd == USMARR_FLOAT16 ? 64 : 16;
    if (!strcmp(op, "mean"))
        return 2;
    return 0; /* sums of these dyadic values are exact */
}

START_TEST(test_reduce_every_reduction_axis_subset_and_layout_matches_numpy)
{
    usmarr_context_t *ctx = test_context();
    FILE *f = ops_cases_open();
    static char line[1 << 16];
    struct rin in = {.id = -1};
    usmarr_array_t *xs[LAYOUT_COUNT] = {NULL, NULL, NULL};
    int cases = 0, failures = 0;
    char msgs[8192] = "";
    while (fgets(line, sizeof line, f)) {
        char *fl[200];
        if (!strncmp(line, "rin ", 4)) {
            int nf = ops_cases_split(line, fl, 200);
            in.id = atoi(fl[1]);
            in.dtype = (usmarr_dtype_t)ops_cases_dtype(fl[2]);
            in.ndim = atoi(fl[3]);
            for (int d = 0; d < in.ndim; d++)
                in.shape[d] = atoll(fl[4 + d]);
            in.n = atoll(fl[4 + in.ndim]);
            ck_assert_int_eq(nf, 5 + in.ndim + in.n);
            for (int64_t i = 0; i < in.n; i++)
                ops_cases_parse_value(fl[5 + in.ndim + i], in.dtype, in.data + i * usmarr_dtype_size(in.dtype));
            for (int lay = 0; lay < LAYOUT_COUNT; lay++) {
                usmarr_array_release(xs[lay]);
                xs[lay] = NULL;
                if ((usmarr_context_info(ctx)->fp64 || in.dtype != USMARR_FLOAT64) && test_dtype_sampled(in.dtype))
                    xs[lay] = make(ctx, &in, (enum layout)lay);
            }
            continue;
        }
        if (strncmp(line, "red ", 4))
            continue;
        int nf = ops_cases_split(line, fl, 200);
        ck_assert_int_eq(atoi(fl[1]), in.id);
        const char *op = fl[2];
        int naxes = atoi(fl[3]), axes[4];
        for (int i = 0; i < naxes; i++)
            axes[i] = atoi(fl[4 + i]);
        bool keepdims = atoi(fl[4 + naxes]) != 0;
        usmarr_dtype_t rd = (usmarr_dtype_t)ops_cases_dtype(fl[5 + naxes]);
        int64_t rn = atoll(fl[6 + naxes]);
        ck_assert_int_eq(nf, 7 + naxes + rn);
        size_t rsz = usmarr_dtype_size(rd);
        unsigned char want[128 * 16], got[128 * 16];
        for (int64_t i = 0; i < rn; i++)
            ops_cases_parse_value(fl[7 + naxes + i], rd, want + i * rsz);
        if ((!usmarr_context_info(ctx)->fp64 && (rd == USMARR_FLOAT64 || in.dtype == USMARR_FLOAT64)) ||
            !test_dtype_sampled(in.dtype))
            continue;
        /* an all-axes case also runs with axes NULL; negative axis numbers on odd cases */
        bool all = naxes == in.ndim && in.ndim > 0;
        if (cases % 2)
            for (int i = 0; i < naxes; i++)
                axes[i] -= in.ndim;
        for (int lay = 0; lay < LAYOUT_COUNT; lay++) {
            usmarr_array_t *x = xs[lay], *r = NULL;
            int rc = usmarr_reduce(op, x, naxes, axes, keepdims, NULL, &r);
            if (!rc && all && lay == LAYOUT_C) {
                usmarr_array_t *r2 = NULL;
                rc = usmarr_reduce(op, x, 0, NULL, keepdims, NULL, &r2);
                if (!rc) {
                    ck_assert_int_eq(usmarr_array_size(r2), rn);
                    usmarr_array_release(r2);
                }
            }
            char msg[512];
            if (rc) {
                snprintf(msg, sizeof msg, "\n  %s(%s, input %d, %d axes) %s: %s: %.200s", op, usmarr_dtype_name(in.dtype),
                         in.id, naxes, layout_names[lay], usmarr_error_name(rc), usmarr_last_error_detail());
                if (failures++ < 12)
                    strncat(msgs, msg, sizeof msgs - strlen(msgs) - 1);
            } else {
                ck_assert_int_eq(usmarr_array_dtype(r), rd);
                ck_assert_int_eq(usmarr_array_size(r), rn);
                ck_assert_int_eq(usmarr_array_ndim(r), keepdims ? in.ndim : in.ndim - naxes);
                ck_assert_ok(usmarr_array_copy_to_host(r, got, NULL));
                for (int64_t i = 0; i < rn; i++)
                    if (!ops_cases_close(rd, got + i * rsz, want + i * rsz, tolerance(op, rd))) {
                        double g, gi, w, wi;
                        ops_cases_load(rd, got + i * rsz, &g, &gi);
                        ops_cases_load(rd, want + i * rsz, &w, &wi);
                        snprintf(msg, sizeof msg, "\n  %s(%s, input %d, %d axes [%d..]) %s [%lld]: got %.17g%+.17gj, NumPy %.17g%+.17gj",
                                 op, usmarr_dtype_name(in.dtype), in.id, naxes, naxes ? axes[0] : -99,
                                 layout_names[lay], (long long)i, g, gi, w, wi);
                        if (failures++ < 12)
                            strncat(msgs, msg, sizeof msgs - strlen(msgs) - 1);
                        break;
                    }
            }
            usmarr_array_release(r);
        }
        cases++;
    }
    for (int lay = 0; lay < LAYOUT_COUNT; lay++)
        usmarr_array_release(xs[lay]);
    fclose(f);
    usmarr_context_release(ctx);
    ck_assert_msg(failures == 0, "%d mismatches:%s", failures, msgs);
    ck_assert_int_gt(cases, test_case_floor(2000));
}
END_TEST

START_TEST(test_reduce_cumulative_sum_matches_numpy)
{
    usmarr_context_t *ctx = test_context();
    FILE *f = ops_cases_open();
    static char line[1 << 16];
    int cases = 0;
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "cumsum ", 7))
            continue;
        char *fl[64];
        int nf = ops_cases_split(line, fl, 64);
        usmarr_dtype_t d = (usmarr_dtype_t)ops_cases_dtype(fl[1]);
        usmarr_dtype_t rd = (usmarr_dtype_t)ops_cases_dtype(fl[3]);
        ck_assert_int_eq(nf, 5 + 24);
        /* the input is the reductions' data formula for 24 elements, shape (2, 3, 4) */
        unsigned char host[24 * 16], want[24 * 16], got[24 * 16];
        for (int i = 0; i < 24; i++) {
            char text[64];
            switch (usmarr_dtype_kind(d)) {
            case USMARR_KIND_BOOL: snprintf(text, sizeof text, "%d", i % 3 == 0); break;
            case USMARR_KIND_INT: snprintf(text, sizeof text, "%d", (i * 7) % 11 - 5); break;
            case USMARR_KIND_UINT: snprintf(text, sizeof text, "%d", (i * 7) % 11); break;
            case USMARR_KIND_FLOAT: snprintf(text, sizeof text, "%.17g", ((i * 3) % 8) * 0.125 + 0.5); break;
            default:
                snprintf(text, sizeof text, "%.17g:%.17g", ((i * 3) % 8) * 0.125 + 0.5, ((i * 5) % 4) * 0.25 - 0.25);
                break;
            }
            ops_cases_parse_value(text, d, host + i * usmarr_dtype_size(d));
            ops_cases_parse_value(fl[5 + i], rd, want + i * usmarr_dtype_size(rd));
        }
        if ((!usmarr_context_info(ctx)->fp64 && (d == USMARR_FLOAT64 || rd == USMARR_FLOAT64)) ||
            !test_dtype_sampled(d))
            continue;
        int64_t shape[3] = {2, 3, 4};
        usmarr_array_t *x, *r;
        ck_assert_ok(usmarr_array_from_host(ctx, 3, shape, d, host, NULL, USMARR_USM_DEVICE, &x));
        int axis = atoi(fl[2]);
        ck_assert_ok(usmarr_cumulative_sum(x, strcmp(fl[2], "none") ? &axis : NULL, NULL, &r));
        ck_assert_int_eq(usmarr_array_dtype(r), rd);
        ck_assert_int_eq(usmarr_array_ndim(r), strcmp(fl[2], "none") ? 3 : 1);
        ck_assert_ok(usmarr_array_copy_to_host(r, got, NULL));
        for (int i = 0; i < 24; i++)
            ck_assert_msg(ops_cases_close(rd, got + i * usmarr_dtype_size(rd), want + i * usmarr_dtype_size(rd), 0),
                          "cumulative_sum(%s, axis %s) [%d] differs from NumPy", fl[1], fl[2], i);
        usmarr_array_release(r);
        usmarr_array_release(x);
        cases++;
    }
    fclose(f);
    usmarr_context_release(ctx);
    ck_assert_int_ge(cases, test_case_floor(30));
    ck_assert_int_le(cases, 30);
}
END_TEST

START_TEST(test_reduce_empty_selections_use_identities_or_fail)
{
    usmarr_context_t *ctx = test_context();
    int64_t shape[2] = {0, 3};
    usmarr_array_t *x, *r;
    ck_assert_ok(usmarr_array_empty(ctx, 2, shape, USMARR_FLOAT32, USMARR_ORDER_C, USMARR_USM_DEVICE, &x));
    int ax0 = 0, ax1 = 1;
    float v[3];
    ck_assert_ok(usmarr_sum(x, 1, &ax0, false, NULL, &r));
    ck_assert_ok(usmarr_array_copy_to_host(r, v, NULL));
    ck_assert(v[0] == 0 && v[1] == 0 && v[2] == 0);
    usmarr_array_release(r);
    ck_assert_ok(usmarr_prod(x, 1, &ax0, false, NULL, &r));
    ck_assert_ok(usmarr_array_copy_to_host(r, v, NULL));
    ck_assert(v[0] == 1 && v[2] == 1);
    usmarr_array_release(r);
    ck_assert_ok(usmarr_mean(x, 1, &ax0, false, NULL, &r));
    ck_assert_ok(usmarr_array_copy_to_host(r, v, NULL));
    ck_assert(v[0] != v[0]);
    usmarr_array_release(r);
    ck_assert_fails_with(usmarr_min(x, 1, &ax0, false, NULL, &r), USMARR_ERROR_EMPTY, "min of an empty selection");
    ck_assert_fails_with(usmarr_argmax(x, 0, NULL, false, NULL, &r), USMARR_ERROR_EMPTY, "argmax");
    /* reducing axis 1 leaves nothing to compute: an empty result, no error */
    ck_assert_ok(usmarr_max(x, 1, &ax1, false, NULL, &r));
    ck_assert_int_eq(usmarr_array_size(r), 0);
    usmarr_array_release(r);
    usmarr_array_release(x);
    /* an empty reduced axis fails even where the result is empty too, as NumPy's (0, 0) max(axis=1) */
    int64_t none[2] = {0, 0};
    r = NULL;
    ck_assert_ok(usmarr_array_empty(ctx, 2, none, USMARR_FLOAT32, USMARR_ORDER_C, USMARR_USM_DEVICE, &x));
    ck_assert_fails_with(usmarr_max(x, 1, &ax1, false, NULL, &r), USMARR_ERROR_EMPTY, "max of an empty selection");
    ck_assert_fails_with(usmarr_argmin(x, 1, &ax1, false, NULL, &r), USMARR_ERROR_EMPTY, "argmin");
    ck_assert_ptr_null(r);
    usmarr_array_release(x);
    usmarr_context_release(ctx);
}
END_TEST

/* A complex product starts from the first element, as NumPy's: multiplying by the identity
 * 1 + 0j first would make 0 * inf NaN (prod of [-2.5+inf j] is -2.5+inf j) and change the
 * sign of a zero part (prod of [-0-1j] is -0-1j); the same for each line of
 * cumulative_prod, with or without the initial 1. */
START_TEST(test_reduce_complex_product_starts_from_the_first_element)
{
    usmarr_context_t *ctx = test_context();
    const float inf = INFINITY;
    float in[2][2] = {{-2.5f, inf}, {-0.0f, -1.0f}}, got[6];
    int ax = 0;
    for (int k = 0; k < 2; k++) {
        int64_t one = 1;
        usmarr_array_t *x, *r;
        ck_assert_ok(usmarr_array_from_host(ctx, 1, &one, USMARR_COMPLEX64, in[k], NULL, USMARR_USM_DEVICE, &x));
        ck_assert_ok(usmarr_prod(x, 0, NULL, false, NULL, &r));
        ck_assert_ok(usmarr_array_copy_to_host(r, got, NULL));
        ck_assert_msg(got[0] == in[k][0] && signbit(got[0]) == signbit(in[k][0]) && got[1] == in[k][1],
                      "prod of [%g%+gj] is %g%+gj", in[k][0], in[k][1], got[0], got[1]);
        usmarr_array_release(r);
        for (int initial = 0; initial < 2; initial++) {
            ck_assert_ok(usmarr_cumulative(USMARR_CUMULATIVE_PROD, x, &ax, initial, NULL, &r));
            ck_assert_ok(usmarr_array_copy_to_host(r, got, NULL));
            const float *g = got + 2 * initial;
            ck_assert_msg(g[0] == in[k][0] && signbit(g[0]) == signbit(in[k][0]) && g[1] == in[k][1],
                          "cumulative_prod of [%g%+gj] is %g%+gj", in[k][0], in[k][1], g[0], g[1]);
            usmarr_array_release(r);
        }
        usmarr_array_release(x);
    }
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_reduce_large_and_short_axes_and_out)
{
    /* the classes of the benchmarks, small enough for a test: split "all axes", outer, inner,
     * a 3-long axis; results against host sums of exactly representable values */
    usmarr_context_t *ctx = test_context();
    int64_t n = 1 << 18, shape2[2] = {512, 512}, shape3[2] = {100000, 3};
    float *h = malloc(sizeof(float) * (size_t)n);
    for (int64_t i = 0; i < n; i++)
        h[i] = (float)(i % 5);
    usmarr_array_t *x, *r, *m, *t;
    ck_assert_ok(usmarr_array_from_host(ctx, 1, &n, USMARR_FLOAT32, h, NULL, USMARR_USM_DEVICE, &x));
    ck_assert_ok(usmarr_sum(x, 0, NULL, false, NULL, &r));
    float s;
    ck_assert_ok(usmarr_array_copy_to_host(r, &s, NULL));
    double want = 0;
    for (int64_t i = 0; i < n; i++)
        want += h[i];
    ck_assert_msg(s == (float)want, "sum %g, want %g", s, want);
    usmarr_array_release(r);
    ck_assert_ok(usmarr_array_reshape(x, 2, shape2, USMARR_ORDER_C, USMARR_COPY_NEVER, &m));
    float col[512], row[512];
    int ax0 = 0, ax1 = 1;
    ck_assert_ok(usmarr_sum(m, 1, &ax0, false, NULL, &r));
    ck_assert_ok(usmarr_array_copy_to_host(r, col, NULL));
    usmarr_array_release(r);
    /* into an out array (a strided view) */
    int64_t n1024 = 1024;
    usmarr_array_t *outbase, *out;
    ck_assert_ok(usmarr_array_zeros(ctx, 1, &n1024, USMARR_FLOAT64, USMARR_ORDER_C, USMARR_USM_DEVICE, &outbase));
    ck_assert_ok(usmarr_array_index_text(outbase, "::2", &out));
    ck_assert_ok(usmarr_sum(m, 1, &ax1, false, out, NULL));
    double rowd[512];
    ck_assert_ok(usmarr_array_copy_to_host(out, rowd, NULL));
    for (int i = 0; i < 512; i++) {
        double c = 0, w = 0;
        for (int j = 0; j < 512; j++) {
            c += h[j * 512 + i];
            w += h[i * 512 + j];
        }
        ck_assert_msg(col[i] == (float)c && rowd[i] == w, "column %d: %g want %g; row: %g want %g", i, col[i], c,
                      rowd[i], w);
        row[i] = (float)w;
    }
    (void)row;
    usmarr_array_release(out);
    usmarr_array_release(outbase);
    usmarr_array_release(m);
    ck_assert_ok(usmarr_array_index_text(x, ":300000", &t) == 0 ? 0 : -1);
    usmarr_array_release(t);
    int64_t n3 = 300000;
    usmarr_array_t *x3, *y3;
    float *h3 = malloc(sizeof(float) * (size_t)n3);
    for (int64_t i = 0; i < n3; i++)
        h3[i] = (float)(i % 7);
    ck_assert_ok(usmarr_array_from_host(ctx, 2, shape3, USMARR_FLOAT32, h3, NULL, USMARR_USM_DEVICE, &x3));
    ck_assert_ok(usmarr_sum(x3, 1, &ax1, false, NULL, &y3));
    float *s3 = malloc(sizeof(float) * 100000);
    ck_assert_ok(usmarr_array_copy_to_host(y3, s3, NULL));
    for (int i = 0; i < 100000; i++)
        ck_assert_msg(s3[i] == h3[3 * i] + h3[3 * i + 1] + h3[3 * i + 2], "row %d", i);
    free(s3);
    free(h3);
    usmarr_array_release(y3);
    usmarr_array_release(x3);
    usmarr_array_release(x);
    free(h);
    usmarr_context_release(ctx);
}
END_TEST

/* Host-loop oracle for the larger layouts: op over axis (-1: all) of a rows x cols matrix
 * of doubles (NaN propagates in min/max, as NumPy). */
static double host_reduce(const char *op, const double *h, int64_t rows, int64_t cols, int axis, int64_t k)
{
    int64_t n = axis < 0 ? rows * cols : axis == 0 ? rows : cols;
    double acc = !strcmp(op, "prod") || !strcmp(op, "all") ? 1 : 0, best = 0;
    for (int64_t j = 0; j < n; j++) {
        double v = axis < 0 ? h[j] : axis == 0 ? h[j * cols + k] : h[k * cols + j];
        if (!strncmp(op, "arg", 3)) { /* the first occurrence; the first NaN */
            if (j == 0 || (best == best && (v != v || (!strcmp(op, "argmin") ? v < best : v > best)))) {
                best = v;
                acc = (double)j;
            }
        } else if (!strcmp(op, "sum") || !strcmp(op, "mean"))
            acc += v;
        else if (!strcmp(op, "prod"))
            acc *= v;
        else if (!strcmp(op, "count_nonzero"))
            acc += v != 0;
        else if (!strcmp(op, "all"))
            acc = acc && v != 0;
        else if (!strcmp(op, "any"))
            acc = acc || v != 0;
        else if (j == 0 || acc != acc || v != v || (!strcmp(op, "min") ? v < acc : v > acc))
            acc = acc != acc ? acc : v; /* min / max */
    }
    return !strcmp(op, "mean") ? acc / (double)n : acc;
}

START_TEST(test_reduce_many_work_groups_match_host_loops)
{
    /* Layouts big enough for partial results and second passes (the gpu shape's trees,
     * the CPU shapes' splits): every reduction over all elements, the outer axis and the
     * inner axis of int32 and float64 (NaN) matrices, with many ties for argmin/argmax. */
    usmarr_context_t *ctx = test_context();
    static const char *const ops[] = {"sum", "prod", "mean",   "min",   "max",
                                      "all", "any",  "count_nonzero", "argmin", "argmax"};
    const int64_t rows = 1500, cols = 70, n = rows * cols;
    double *h = malloc(sizeof(double) * (size_t)n), *got = malloc(sizeof(double) * (size_t)(rows + cols));
    int32_t *hi = malloc(sizeof(int32_t) * (size_t)n);
    for (int t = 0; t < 2; t++) {
        usmarr_dtype_t dt = t ? USMARR_FLOAT64 : USMARR_INT32;
        for (int64_t i = 0; i < n; i++) {
            /* -1, 0, 1 and 2 (prods stay exact: 2s are rare), whole rows and columns nonzero */
            int v = (int)((i * 7919) % 13) - 5;
            h[i] = v < -1 ? -1 : v > 2 ? (i % 97 == 0 ? 2 : 1) : v;
            if (i / cols == 3 || i % cols == 5)
                h[i] = 1;
            if (t && i == 777)
                h[i] = NAN;
            hi[i] = (int32_t)h[i];
        }
        int64_t shape[2] = {rows, cols};
        usmarr_array_t *x;
        ck_assert_ok(usmarr_array_from_host(ctx, 2, shape, dt, t ? (const void *)h : (const void *)hi, NULL,
                                            USMARR_USM_DEVICE, &x));
        for (size_t o = 0; o < sizeof ops / sizeof ops[0]; o++)
            for (int axis = -1; axis < 2; axis++) {
                usmarr_array_t *r, *rd;
                ck_assert_ok(usmarr_reduce(ops[o], x, axis < 0 ? 0 : 1, axis < 0 ? NULL : &axis, false, NULL, &r));
                ck_assert_ok(usmarr_array_astype(r, USMARR_FLOAT64, USMARR_ORDER_C, NULL, &rd));
                ck_assert_ok(usmarr_array_copy_to_host(rd, got, NULL));
                int64_t nout = axis < 0 ? 1 : axis == 0 ? cols : rows;
                for (int64_t k = 0; k < nout; k++) {
                    double want = host_reduce(ops[o], h, rows, cols, axis, k);
                    bool ok = want != want ? got[k] != got[k] : fabs(got[k] - want) <= 1e-12 * fabs(want);
                    ck_assert_msg(ok, "%s of %s over axis %d, output %lld: %.17g, want %.17g", ops[o],
                                  usmarr_dtype_name(dt), axis, (long long)k, got[k], want);
                }
                usmarr_array_release(rd);
                usmarr_array_release(r);
            }
        usmarr_array_release(x);
    }
    free(hi);
    free(got);
    free(h);
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_reduce_tall_narrow_int32_and_nan_sums_match_host_loops)
{
    /* A tall narrow int32 matrix with a prime row count (parts that do not divide it) and
     * far outliers, every split reduction over all elements and over the outer axis
     * (results in their own dtypes: int32 min/max, int64 sums and counts, exact float64
     * means); a float32 NaN near the end survives max and the partial sums. */
    usmarr_context_t *ctx = test_context();
    enum { ROWS = 20011, COLS = 5 };
    int64_t n = ROWS * COLS, shape[2] = {ROWS, COLS};
    int32_t *h = malloc(sizeof(int32_t) * (size_t)n);
    for (int64_t i = 0; i < n; i++)
        h[i] = (int32_t)((i * 7919) % 1013) - 500;
    h[77777] = 4000;
    h[12345] = -4000;
    usmarr_array_t *v, *m, *r;
    ck_assert_ok(usmarr_array_from_host(ctx, 1, &n, USMARR_INT32, h, NULL, USMARR_USM_DEVICE, &v));
    ck_assert_ok(usmarr_array_reshape(v, 2, shape, USMARR_ORDER_C, USMARR_COPY_NEVER, &m));
    static const char *const names[] = {"sum", "min", "max", "count_nonzero", "all", "any", "mean"};
    for (int axis = -1; axis <= 0; axis++) /* -1: all elements */
        for (size_t f = 0; f < sizeof names / sizeof names[0]; f++) {
            int nout = axis < 0 ? 1 : COLS;
            ck_assert_ok(usmarr_reduce(names[f], m, axis < 0 ? 0 : 1, axis < 0 ? NULL : &axis, false, NULL, &r));
            int64_t got_i[COLS] = {0};
            int32_t got_32[COLS] = {0};
            double got_d[COLS] = {0};
            unsigned char got_b[COLS] = {0};
            usmarr_dtype_t rd = usmarr_array_dtype(r);
            ck_assert_ok(usmarr_array_copy_to_host(r,
                                                   rd == USMARR_BOOL      ? (void *)got_b
                                                   : rd == USMARR_FLOAT64 ? (void *)got_d
                                                   : rd == USMARR_INT32   ? (void *)got_32
                                                                          : (void *)got_i,
                                                   NULL));
            for (int c = 0; c < nout && rd == USMARR_INT32; c++)
                got_i[c] = got_32[c];
            for (int c = 0; c < nout; c++) {
                int64_t sum = 0, mn = INT64_MAX, mx = INT64_MIN, nz = 0, cnt = 0;
                for (int64_t i = 0; i < n; i++) {
                    if (axis == 0 && i % COLS != c)
                        continue;
                    int64_t e = h[i];
                    sum += e;
                    mn = e < mn ? e : mn;
                    mx = e > mx ? e : mx;
                    nz += e != 0;
                    cnt++;
                }
                int64_t want[] = {sum, mn, mx, nz, nz == cnt, nz > 0};
                if (f < 4) {
                    ck_assert_msg(got_i[c] == want[f], "%s axis %d [%d]: %lld, want %lld", names[f], axis, c,
                                  (long long)got_i[c], (long long)want[f]);
                    ck_assert_int_eq(usmarr_array_dtype(r), (f == 1 || f == 2) ? USMARR_INT32 : USMARR_INT64);
                } else if (f < 6)
                    ck_assert_msg(got_b[c] == want[f], "%s axis %d [%d]", names[f], axis, c);
                else
                    ck_assert_msg(got_d[c] == (double)sum / (double)cnt, "mean axis %d [%d]: %.17g want %.17g", axis,
                                  c, got_d[c], (double)sum / (double)cnt);
            }
            usmarr_array_release(r);
        }
    /* float32 min/max with a NaN far from the start: NaN wins in every part layout */
    float *hf = malloc(sizeof(float) * (size_t)n);
    for (int64_t i = 0; i < n; i++)
        hf[i] = (float)h[i];
    hf[n - 3] = NAN;
    usmarr_array_t *vf;
    ck_assert_ok(usmarr_array_from_host(ctx, 1, &n, USMARR_FLOAT32, hf, NULL, USMARR_USM_DEVICE, &vf));
    float got;
    ck_assert_ok(usmarr_max(vf, 0, NULL, false, NULL, &r));
    ck_assert_ok(usmarr_array_copy_to_host(r, &got, NULL));
    ck_assert_msg(got != got, "max with a NaN: %g", got);
    usmarr_array_release(r);
    ck_assert_ok(usmarr_sum(vf, 0, NULL, false, NULL, &r)); /* NaN propagates through the partial sums */
    ck_assert_ok(usmarr_array_copy_to_host(r, &got, NULL));
    ck_assert_msg(got != got, "sum with a NaN: %g", got);
    usmarr_array_release(r);
    usmarr_array_release(vf);
    free(hf);
    usmarr_array_release(m);
    usmarr_array_release(v);
    free(h);
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_reduce_rejects_bad_arguments)
{
    usmarr_context_t *ctx = test_context();
    int64_t shape[2] = {2, 3}, three = 3;
    usmarr_array_t *x, *r = NULL, *o, *ro;
    ck_assert_ok(usmarr_array_zeros(ctx, 2, shape, USMARR_FLOAT32, USMARR_ORDER_C, USMARR_USM_DEVICE, &x));
    int bad = 2, dup[2] = {0, -2}, ax0 = 0;
    ck_assert_fails_with(usmarr_reduce("median", x, 0, NULL, false, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT, "median");
    ck_assert_fails_with(usmarr_reduce(NULL, x, 0, NULL, false, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT, "name");
    ck_assert_fails_with(usmarr_sum(NULL, 0, NULL, false, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT, "x is NULL");
    ck_assert_fails_with(usmarr_sum(x, 0, NULL, false, NULL, NULL), USMARR_ERROR_INVALID_ARGUMENT, "result");
    ck_assert_fails_with(usmarr_sum(x, 1, &bad, false, NULL, &r), USMARR_ERROR_INDEX, "axes[0]=2");
    ck_assert_fails_with(usmarr_sum(x, 2, dup, false, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT, "repeats");
    ck_assert_fails_with(usmarr_sum(x, 3, dup, false, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT, "naxes=3");
    ck_assert_ok(usmarr_array_zeros(ctx, 1, shape, USMARR_INT32, USMARR_ORDER_C, USMARR_USM_DEVICE, &o));
    ck_assert_fails_with(usmarr_sum(x, 1, &ax0, false, o, NULL), USMARR_ERROR_SHAPE_MISMATCH, "out");
    usmarr_array_release(o);
    ck_assert_ok(usmarr_array_zeros(ctx, 1, &three, USMARR_INT32, USMARR_ORDER_C, USMARR_USM_DEVICE, &o));
    ck_assert_fails_with(usmarr_sum(x, 1, &ax0, false, o, NULL), USMARR_ERROR_CASTING, "same_kind");
    ck_assert_ok(usmarr_array_index_text(o, "::-1", &ro));
    ck_assert_ok(usmarr_count_nonzero(x, 1, &ax0, false, ro, NULL)); /* int64 -> int32 is same_kind */
    usmarr_array_release(ro);
    usmarr_array_release(o);
    int axis = 5;
    ck_assert_fails_with(usmarr_cumulative_sum(x, &axis, NULL, &r), USMARR_ERROR_INDEX, "axis=5");
    ck_assert_fails_with(usmarr_cumulative_sum(NULL, NULL, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT, "x is NULL");
    ck_assert_fails_with(usmarr_cumulative_sum(x, NULL, NULL, NULL), USMARR_ERROR_INVALID_ARGUMENT, "result");
    /* every named reduction rejects a NULL input */
    int (*const fns[])(const usmarr_array_t *, int, const int *, bool, usmarr_array_t *, usmarr_array_t **) = {
        usmarr_sum, usmarr_prod, usmarr_mean, usmarr_min, usmarr_max, usmarr_argmin, usmarr_argmax, usmarr_all,
        usmarr_any, usmarr_count_nonzero};
    for (size_t i = 0; i < sizeof fns / sizeof fns[0]; i++)
        ck_assert_fails_with(fns[i](NULL, 0, NULL, false, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT, "x is NULL");
    usmarr_array_release(x);
    usmarr_context_release(ctx);
}
END_TEST

Suite *suite_reduce(void);
Suite *suite_reduce(void)
{
    Suite *s = suite_create("reduce");
    const struct test_case_entry tests[] = {
        {"numpy", test_reduce_every_reduction_axis_subset_and_layout_matches_numpy},
        {"cumsum", test_reduce_cumulative_sum_matches_numpy},
        {"empty", test_reduce_empty_selections_use_identities_or_fail},
        {"complex-prod", test_reduce_complex_product_starts_from_the_first_element},
        {"classes", test_reduce_large_and_short_axes_and_out},
        {"groups", test_reduce_many_work_groups_match_host_loops},
        {"tall-narrow", test_reduce_tall_narrow_int32_and_nan_sums_match_host_loops},
        {"failures", test_reduce_rejects_bad_arguments},
    };
    test_add_cases(s, tests, sizeof tests / sizeof tests[0]);
    return s;
}
