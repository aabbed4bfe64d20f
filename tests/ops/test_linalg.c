/* matmul, tensordot, vecdot and matrix_transpose against NumPy: the "lcase" entries of
 * tests/linalg_cases.txt (tests/gen/gen_linalg_cases.py), each matmul case through both
 * kernels (tiled, and naive with USMARR_MATMUL_KERNEL=naive).  Hand-written checks follow
 * for what the file cannot say: out arrays, views, and every function's failures. */
#include "../harness/common.h"

#include "../harness/case_file.h"

#include <complex.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define MAX_CASES 256

static struct case_entry *cases;
static int ncases;

static void load_cases(void)
{
    if (cases)
        return;
    cases = case_file_load_built("linalg_cases.txt", "lcase", MAX_CASES, &ncases);
}

static bool is_complex(usmarr_dtype_t dt)
{
    return usmarr_dtype_kind(dt) == USMARR_KIND_COMPLEX;
}

/* The values as float64 (complex128 for complex dtypes) host numbers. */
static double *parse_values(const char *s, int64_t count, bool cplx)
{
    int64_t n = count * (cplx ? 2 : 1);
    double *v = malloc(sizeof(double) * (size_t)(n ? n : 1));
    char *end;
    for (int64_t i = 0; i < n; i++) {
        v[i] = strtod(s, &end);
        ck_assert_msg(end != s, "short value list (%lld of %lld)", (long long)i, (long long)n);
        s = end;
    }
    return v;
}

static int64_t product(int n, const int64_t *shape)
{
    int64_t p = 1;
    for (int i = 0; i < n; i++)
        p *= shape[i];
    return p;
}

/* An operand line: x DTYPE ; BASE ; VIEW ; BROADCAST ; T ; VALUES */
static usmarr_array_t *operand(usmarr_context_t *ctx, const char *line_in)
{
    char *line = strdup(line_in + 2), *f[6];
    ck_assert_int_eq(case_fields(line, f, 6), 6);
    usmarr_dtype_t dt = case_dtype_named(f[0]);
    int64_t shape[USMARR_MAX_NDIM];
    int nd = case_ints(f[1], shape, USMARR_MAX_NDIM);
    bool cplx = is_complex(dt);
    double *v = parse_values(f[5], product(nd, shape), cplx);
    usmarr_array_t *host = NULL, *a = NULL, *b = NULL;
    ck_assert_ok(usmarr_array_from_host(ctx, nd, shape, cplx ? USMARR_COMPLEX128 : USMARR_FLOAT64, v, NULL,
                                        USMARR_USM_DEVICE, &host));
    ck_assert_ok(usmarr_array_astype(host, dt, USMARR_ORDER_C, NULL, &a));
    usmarr_array_release(host);
    free(v);
    if (strcmp(f[2], "-")) {
        ck_assert_ok(usmarr_array_index_text(a, f[2], &b));
        usmarr_array_release(a);
        a = b;
    }
    if (strcmp(f[3], "-")) {
        nd = case_ints(f[3], shape, USMARR_MAX_NDIM);
        ck_assert_ok(usmarr_array_broadcast_to(a, nd, shape, &b));
        usmarr_array_release(a);
        a = b;
    }
    if (atoi(f[4])) {
        ck_assert_ok(usmarr_matrix_transpose(a, &b));
        usmarr_array_release(a);
        a = b;
    }
    free(line);
    return a;
}

static double tolerance(usmarr_dtype_t dt)
{
    switch (dt) {
    case USMARR_FLOAT16: return 1e-3;
    case USMARR_FLOAT32:
    case USMARR_COMPLEX64: return 5e-4;
    case USMARR_FLOAT64:
    case USMARR_COMPLEX128: return 1e-10;
    default: return 0;
    }
}

/* Compares r with an "expect DTYPE ; SHAPE ; VALUES" line. */
static void check_result(usmarr_context_t *ctx, const usmarr_array_t *r, const char *line_in, const char *name)
{
    (void)ctx;
    char *line = strdup(line_in + 7), *f[3];
    int nf = case_fields(line, f, 3);
    ck_assert_int_ge(nf, 1);
    usmarr_dtype_t dt = case_dtype_named(f[0]);
    ck_assert_msg(usmarr_array_dtype(r) == dt, "%s: dtype %s, NumPy %s", name, usmarr_dtype_name(usmarr_array_dtype(r)),
                  f[0]);
    int64_t shape[USMARR_MAX_NDIM];
    int nd = nf >= 2 ? case_ints(f[1], shape, USMARR_MAX_NDIM) : 0;
    ck_assert_int_eq(usmarr_array_ndim(r), nd);
    for (int i = 0; i < nd; i++)
        ck_assert_int_eq(usmarr_array_shape(r)[i], shape[i]);
    int64_t n = product(nd, shape);
    bool cplx = is_complex(dt);
    double *want = parse_values(nf >= 3 ? f[2] : "", n, cplx);
    double *got = malloc(sizeof(double) * (size_t)(n ? 2 * n : 1));
    usmarr_array_t *c = NULL;
    ck_assert_ok(usmarr_array_astype(r, cplx ? USMARR_COMPLEX128 : USMARR_FLOAT64, USMARR_ORDER_C, NULL, &c));
    ck_assert_ok(usmarr_array_copy_to_host(c, got, NULL));
    usmarr_array_release(c);
    double tol = tolerance(dt);
    for (int64_t i = 0; i < n * (cplx ? 2 : 1); i++)
        ck_assert_msg(isnan(want[i])   ? isnan(got[i])
                      : isinf(want[i]) ? got[i] == want[i]
                                       : fabs(got[i] - want[i]) <= tol * (1 + fabs(want[i])),
                      "%s: value %lld is %.17g, NumPy %.17g", name, (long long)i, got[i], want[i]);
    free(want);
    free(got);
    free(line);
}

static void run_case(usmarr_context_t *ctx, const struct case_entry *e)
{
    const char *op = e->lines[0] + 3;
    bool unary = !strncmp(op, "var", 3) || !strncmp(op, "std", 3);
    ck_assert_int_ge(e->nlines, unary ? 3 : 4);
    usmarr_array_t *x1 = operand(ctx, e->lines[1]), *x2 = unary ? NULL : operand(ctx, e->lines[2]), *r = NULL;
    if (unary) {
        char *end;
        double correction = strtod(op + 4, &end);
        int64_t v[2 + USMARR_MAX_NDIM] = {0};
        int nv = case_ints(end, v, (int)(sizeof v / sizeof *v)), axes[USMARR_MAX_NDIM];
        ck_assert_int_ge(nv, 2);
        for (int i = 0; i < v[1]; i++)
            axes[i] = (int)v[2 + i];
        int (*fn)(const usmarr_array_t *, int, const int *, double, bool, usmarr_array_t *, usmarr_array_t **) =
            op[0] == 'v' ? usmarr_var : usmarr_std;
        ck_assert_ok(fn(x1, v[1] < 0 ? 0 : (int)v[1], v[1] < 0 ? NULL : axes, correction, v[0] != 0, NULL, &r));
    } else if (!strncmp(op, "matmul", 6)) {
        ck_assert_ok(usmarr_matmul(x1, x2, NULL, &r));
    } else if (!strncmp(op, "vecdot", 6)) {
        ck_assert_ok(usmarr_vecdot(x1, x2, atoi(op + 7), NULL, &r));
    } else {
        int64_t v[2 + 2 * USMARR_MAX_NDIM] = {0};
        int nv = case_ints(op + 10, v, (int)(sizeof v / sizeof *v)), n = (int)v[0], a1[USMARR_MAX_NDIM], a2[USMARR_MAX_NDIM];
        ck_assert_int_eq(nv, v[1] ? 2 + 2 * n : 2);
        for (int i = 0; v[1] && i < n; i++) {
            a1[i] = (int)v[2 + i];
            a2[i] = (int)v[2 + n + i];
        }
        ck_assert_ok(usmarr_tensordot(x1, x2, n, v[1] ? a1 : NULL, v[1] ? a2 : NULL, NULL, &r));
    }
    check_result(ctx, r, e->lines[unary ? 2 : 3], e->name);
    usmarr_array_release(r);
    usmarr_array_release(x1);
    usmarr_array_release(x2);
}

START_TEST(test_linalg_numpy_cases)
{
    ck_assert_msg(ncases > 0, "no cases in linalg_cases.txt (USMARR_TEST_BUILDDIR)");
    const struct case_entry *e = &cases[_i];
    usmarr_context_t *ctx = test_shared_context();
    run_case(ctx, e);
    if (!strncmp(e->lines[0], "op matmul", 9)) { /* again through the naive kernel alone */
        setenv("USMARR_MATMUL_KERNEL", "naive", 1);
        run_case(ctx, e);
        unsetenv("USMARR_MATMUL_KERNEL");
    }
    usmarr_context_release(ctx);
}
END_TEST

/* ---- hand-written checks ---------------------------------------------------------------------- */

static usmarr_array_t *seq(usmarr_context_t *ctx, usmarr_dtype_t dt, int nd, const int64_t *shape)
{
    int64_t n = product(nd, shape);
    double *v = malloc(sizeof(double) * (size_t)(n ? n : 1));
    for (int64_t i = 0; i < n; i++)
        v[i] = (double)(i % 7) - 3;
    usmarr_array_t *h = NULL, *a = NULL;
    ck_assert_ok(usmarr_array_from_host(ctx, nd, shape, USMARR_FLOAT64, v, NULL, USMARR_USM_DEVICE, &h));
    ck_assert_ok(usmarr_array_astype(h, dt, USMARR_ORDER_C, NULL, &a));
    usmarr_array_release(h);
    free(v);
    return a;
}

static double host_at(const usmarr_array_t *a, int64_t flat)
{
    usmarr_array_t *c = NULL;
    ck_assert_ok(usmarr_array_astype(a, USMARR_FLOAT64, USMARR_ORDER_C, NULL, &c));
    int64_t n = usmarr_array_size(c);
    double *v = malloc(sizeof(double) * (size_t)n);
    ck_assert_ok(usmarr_array_copy_to_host(c, v, NULL));
    double r = v[flat];
    free(v);
    usmarr_array_release(c);
    return r;
}

START_TEST(test_linalg_out_arrays)
{
    usmarr_context_t *ctx = test_context();
    int64_t sa[2] = {9, 5}, sb[2] = {5, 17}, so[2] = {17, 9};
    usmarr_array_t *a = seq(ctx, USMARR_FLOAT32, 2, sa), *b = seq(ctx, USMARR_FLOAT32, 2, sb), *r = NULL, *o = NULL,
                   *ot = NULL, *o64 = NULL, *got = NULL;
    ck_assert_ok(usmarr_matmul(a, b, NULL, &r));
    /* an F-ordered out (a transposed view) and a float64 out */
    ck_assert_ok(usmarr_array_zeros(ctx, 2, so, USMARR_FLOAT32, USMARR_ORDER_C, USMARR_USM_DEVICE, &o));
    ck_assert_ok(usmarr_matrix_transpose(o, &ot));
    ck_assert_ok(usmarr_matmul(a, b, ot, &got));
    ck_assert_ptr_eq(got, ot);
    usmarr_array_release(got);
    ck_assert_ok(usmarr_array_zeros(ctx, 2, (int64_t[]){9, 17}, USMARR_FLOAT64, USMARR_ORDER_C, USMARR_USM_DEVICE, &o64));
    ck_assert_ok(usmarr_matmul(a, b, o64, NULL));
    for (int64_t i = 0; i < 9 * 17; i += 7) {
        double want = host_at(r, i);
        ck_assert_double_eq(host_at(ot, i), want);
        ck_assert_double_eq(host_at(o64, i), want);
    }
    /* in place: out is an input (square matrices) */
    int64_t sq[2] = {20, 20};
    usmarr_array_t *s = seq(ctx, USMARR_FLOAT64, 2, sq), *s2 = NULL;
    ck_assert_ok(usmarr_matmul(s, s, NULL, &s2));
    ck_assert_ok(usmarr_matmul(s, s, s, NULL));
    for (int64_t i = 0; i < 400; i += 13)
        ck_assert_double_eq(host_at(s, i), host_at(s2, i));
    /* tensordot and vecdot into out */
    usmarr_array_t *t = NULL, *v = NULL;
    ck_assert_ok(usmarr_array_zeros(ctx, 2, (int64_t[]){9, 17}, USMARR_FLOAT64, USMARR_ORDER_F, USMARR_USM_DEVICE, &t));
    ck_assert_ok(usmarr_tensordot(a, b, 1, NULL, NULL, t, NULL));
    ck_assert_double_eq(host_at(t, 20), host_at(r, 20));
    ck_assert_ok(usmarr_array_zeros(ctx, 1, (int64_t[]){17}, USMARR_FLOAT64, USMARR_ORDER_C, USMARR_USM_DEVICE, &v));
    ck_assert_ok(usmarr_vecdot(b, b, 0, v, NULL));
    double w = 0;
    for (int k = 0; k < 5; k++)
        w += host_at(b, k * 17 + 3) * host_at(b, k * 17 + 3);
    ck_assert_double_eq(host_at(v, 3), w);
    usmarr_array_release(t);
    usmarr_array_release(v);
    usmarr_array_release(s);
    usmarr_array_release(s2);
    usmarr_array_release(o64);
    usmarr_array_release(ot);
    usmarr_array_release(o);
    usmarr_array_release(r);
    usmarr_array_release(a);
    usmarr_array_release(b);
    usmarr_context_release(ctx);
}
END_TEST

/* A product of few rows, large enough for the packed kernel, whose right operand's rows
 * are contiguous but `ld` apart (a slice of a wider array, read in place), against a host
 * loop: every column tile, the last one partial (N = 70). */
START_TEST(test_linalg_matmul_few_rows_strided_right_operand)
{
    usmarr_context_t *ctx = test_context();
    usmarr_dtype_t dt = usmarr_context_info(ctx)->fp64 ? USMARR_FLOAT64 : USMARR_FLOAT32;
    enum { M = 20, K = 300, N = 70, LD = 83 };
    double *ha = malloc(sizeof(double) * M * K), *hb = malloc(sizeof(double) * K * LD), *hc = NULL;
    for (int i = 0; i < M * K; i++)
        ha[i] = (double)((i * 37) % 101) / 64 - 0.75;
    for (int i = 0; i < K * LD; i++)
        hb[i] = (double)((i * 53) % 97) / 32 - 1.5;
    int64_t sa[2] = {M, K}, sb[2] = {K, LD};
    usmarr_array_t *a = NULL, *wide = NULL, *b = NULL, *c = NULL, *h = NULL;
    ck_assert_ok(usmarr_array_from_host(ctx, 2, sa, USMARR_FLOAT64, ha, NULL, USMARR_USM_DEVICE, &h));
    ck_assert_ok(usmarr_array_astype(h, dt, USMARR_ORDER_C, NULL, &a));
    usmarr_array_release(h);
    ck_assert_ok(usmarr_array_from_host(ctx, 2, sb, USMARR_FLOAT64, hb, NULL, USMARR_USM_DEVICE, &h));
    ck_assert_ok(usmarr_array_astype(h, dt, USMARR_ORDER_C, NULL, &wide));
    usmarr_array_release(h);
    ck_assert_ok(usmarr_array_index_text(wide, ":, 5:75", &b));
    ck_assert_ok(usmarr_matmul(a, b, NULL, &c));
    ck_assert_ok(usmarr_array_astype(c, USMARR_FLOAT64, USMARR_ORDER_C, NULL, &h));
    hc = malloc(sizeof(double) * M * N);
    ck_assert_ok(usmarr_array_copy_to_host(h, hc, NULL));
    double tol = dt == USMARR_FLOAT64 ? 1e-12 : 1e-3;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            double want = 0;
            for (int q = 0; q < K; q++)
                want += ha[i * K + q] * hb[q * LD + 5 + j];
            ck_assert_msg(fabs(hc[i * N + j] - want) <= tol * (1 + fabs(want)), "c[%d, %d] = %.17g, want %.17g", i, j,
                          hc[i * N + j], want);
        }
    free(ha);
    free(hb);
    free(hc);
    usmarr_array_t *all[] = {a, wide, b, c, h};
    for (int i = 0; i < 5; i++)
        usmarr_array_release(all[i]);
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_linalg_matrix_transpose_is_a_view)
{
    usmarr_context_t *ctx = test_context();
    int64_t shape[3] = {2, 3, 4};
    usmarr_array_t *a = seq(ctx, USMARR_INT32, 3, shape), *t = NULL;
    ck_assert_ok(usmarr_matrix_transpose(a, &t));
    ck_assert_int_eq(usmarr_array_ndim(t), 3);
    ck_assert_int_eq(usmarr_array_shape(t)[1], 4);
    ck_assert_int_eq(usmarr_array_shape(t)[2], 3);
    ck_assert_int_eq(usmarr_array_strides(t)[1], 1);
    ck_assert_int_eq(usmarr_array_strides(t)[2], 4);
    ck_assert_ptr_eq(usmarr_array_memory(t), usmarr_array_memory(a));
    ck_assert_double_eq(host_at(t, 1 * 12 + 2 * 3 + 1), host_at(a, 1 * 12 + 1 * 4 + 2));
    usmarr_array_release(t);
    usmarr_array_release(a);
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_linalg_failures)
{
    usmarr_context_t *ctx = test_context();
    int64_t s23[2] = {2, 3}, s34[2] = {3, 4}, s44[2] = {4, 4}, s3[1] = {3}, s234[3] = {2, 3, 4}, s334[3] = {3, 3, 4};
    usmarr_array_t *a = seq(ctx, USMARR_FLOAT32, 2, s23), *b = seq(ctx, USMARR_FLOAT32, 2, s34),
                   *c = seq(ctx, USMARR_FLOAT32, 2, s44), *v = seq(ctx, USMARR_FLOAT32, 1, s3), *zero = NULL,
                   *b3 = seq(ctx, USMARR_FLOAT32, 3, s234), *b33 = seq(ctx, USMARR_FLOAT32, 3, s334), *r = NULL,
                   *oi = NULL, *o = NULL, *ro = NULL;
    ck_assert_ok(usmarr_array_zeros(ctx, 0, NULL, USMARR_FLOAT32, USMARR_ORDER_C, USMARR_USM_DEVICE, &zero));
    ck_assert_ok(usmarr_array_zeros(ctx, 2, (int64_t[]){2, 4}, USMARR_INT32, USMARR_ORDER_C, USMARR_USM_DEVICE, &oi));
    ck_assert_ok(usmarr_array_zeros(ctx, 2, (int64_t[]){2, 5}, USMARR_FLOAT32, USMARR_ORDER_C, USMARR_USM_DEVICE, &o));
    ck_assert_ok(usmarr_array_zeros(ctx, 2, (int64_t[]){2, 4}, USMARR_FLOAT32, USMARR_ORDER_C, USMARR_USM_DEVICE, &ro));
    ck_assert_ok(usmarr_array_make_read_only(ro));
    double before = host_at(a, 4);

    /* matmul */
    ck_assert_fails_with(usmarr_matmul(NULL, b, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT, "x1 is NULL");
    ck_assert_fails_with(usmarr_matmul(a, b, NULL, NULL), USMARR_ERROR_INVALID_ARGUMENT, "result is NULL");
    ck_assert_fails_with(usmarr_matmul(zero, b, NULL, &r), USMARR_ERROR_SHAPE_MISMATCH, "x1 is 0-d");
    ck_assert_fails_with(usmarr_matmul(a, c, NULL, &r), USMARR_ERROR_SHAPE_MISMATCH, "x1's last dim has 3 elements");
    ck_assert_fails_with(usmarr_matmul(c, v, NULL, &r), USMARR_ERROR_SHAPE_MISMATCH, "x2's only dim has 3");
    ck_assert_fails_with(usmarr_matmul(b3, b33, NULL, &r), USMARR_ERROR_SHAPE_MISMATCH, "x1's last dim has 4");
    usmarr_array_t *bt = NULL;
    ck_assert_ok(usmarr_array_zeros(ctx, 3, (int64_t[]){3, 4, 2}, USMARR_FLOAT32, USMARR_ORDER_C, USMARR_USM_DEVICE, &bt));
    ck_assert_fails_with(usmarr_matmul(b3, bt, NULL, &r), USMARR_ERROR_SHAPE_MISMATCH, "batch dim 0 does not broadcast");
    usmarr_array_release(bt);
    ck_assert_fails_with(usmarr_matmul(a, b, o, &r), USMARR_ERROR_SHAPE_MISMATCH, "out has shape (2, 5)");
    ck_assert_fails_with(usmarr_matmul(a, b, oi, &r), USMARR_ERROR_CASTING, "int32");
    ck_assert_fails_with(usmarr_matmul(a, b, ro, &r), USMARR_ERROR_READ_ONLY, "out");
    ck_assert_ptr_null(r);
    ck_assert_double_eq(host_at(a, 4), before);
    ck_assert_double_eq(host_at(oi, 0), 0);
    usmarr_context_t *ctx2 = test_context();
    usmarr_array_t *other = seq(ctx2, USMARR_FLOAT32, 2, s34);
    ck_assert_fails_with(usmarr_matmul(a, other, NULL, &r), USMARR_ERROR_CONTEXT_MISMATCH, "different contexts");

    /* tensordot */
    ck_assert_fails_with(usmarr_tensordot(a, NULL, 1, NULL, NULL, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT,
                         "x2 is NULL");
    ck_assert_fails_with(usmarr_tensordot(a, b, 3, NULL, NULL, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT,
                         "naxes=3 is outside [0, 2]");
    ck_assert_fails_with(usmarr_tensordot(a, b, -1, NULL, NULL, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT, "naxes=-1");
    ck_assert_fails_with(usmarr_tensordot(a, b, 1, (int[]){1}, NULL, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT,
                         "both be given");
    ck_assert_fails_with(usmarr_tensordot(a, b, 1, (int[]){2}, (int[]){0}, NULL, &r), USMARR_ERROR_INDEX,
                         "axes1[0]=2 is out of range for 2 dims");
    ck_assert_fails_with(usmarr_tensordot(a, b, 2, (int[]){1, -1}, (int[]){0, 1}, NULL, &r),
                         USMARR_ERROR_INVALID_ARGUMENT, "axes1[1]=-1 repeats an axis");
    ck_assert_fails_with(usmarr_tensordot(a, b, 1, (int[]){0}, (int[]){0}, NULL, &r), USMARR_ERROR_SHAPE_MISMATCH,
                         "2 elements in x1 (axis 0) and 3 in x2 (axis 0)");
    ck_assert_fails_with(usmarr_tensordot(a, b, 1, NULL, NULL, o, &r), USMARR_ERROR_SHAPE_MISMATCH, "out has shape");
    ck_assert_fails_with(usmarr_tensordot(a, b, 1, NULL, NULL, oi, &r), USMARR_ERROR_CASTING, "int32");
    ck_assert_fails_with(usmarr_tensordot(a, other, 1, NULL, NULL, NULL, &r), USMARR_ERROR_CONTEXT_MISMATCH,
                         "different contexts");

    /* vecdot */
    ck_assert_fails_with(usmarr_vecdot(NULL, a, -1, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT, "x1 is NULL");
    ck_assert_fails_with(usmarr_vecdot(a, a, -3, NULL, &r), USMARR_ERROR_INDEX, "axis=-3 is out of range");
    ck_assert_fails_with(usmarr_vecdot(a, v, 0, NULL, &r), USMARR_ERROR_INDEX, "needs equal dims");
    ck_assert_fails_with(usmarr_vecdot(a, b, -1, NULL, &r), USMARR_ERROR_SHAPE_MISMATCH,
                         "3 elements in x1 and 4 in x2");
    ck_assert_fails_with(usmarr_vecdot(zero, v, -1, NULL, &r), USMARR_ERROR_SHAPE_MISMATCH, "x1 is 0-d");
    ck_assert_fails_with(usmarr_vecdot(b3, b33, -1, NULL, &r), USMARR_ERROR_SHAPE_MISMATCH, "");
    ck_assert_fails_with(usmarr_vecdot(a, a, -1, o, &r), USMARR_ERROR_SHAPE_MISMATCH, "out has shape");
    usmarr_array_t *oi2 = NULL;
    ck_assert_ok(usmarr_array_zeros(ctx, 1, (int64_t[]){2}, USMARR_INT32, USMARR_ORDER_C, USMARR_USM_DEVICE, &oi2));
    ck_assert_fails_with(usmarr_vecdot(a, a, -1, oi2, &r), USMARR_ERROR_CASTING, "int32");
    usmarr_array_release(oi2);
    ck_assert_fails_with(usmarr_vecdot(a, other, -1, NULL, &r), USMARR_ERROR_CONTEXT_MISMATCH, "different contexts");

    /* var and std */
    for (int f = 0; f < 2; f++) {
        int (*fn)(const usmarr_array_t *, int, const int *, double, bool, usmarr_array_t *, usmarr_array_t **) =
            f ? usmarr_std : usmarr_var;
        const char *name = f ? "std" : "var";
        char need[64];
        ck_assert_fails_with(fn(NULL, 0, NULL, 0, false, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT, "x is NULL");
        ck_assert_fails_with(fn(a, 0, NULL, 0, false, NULL, NULL), USMARR_ERROR_INVALID_ARGUMENT, "result is NULL");
        snprintf(need, sizeof need, "%s: axes[0]=2 is out of range for 2 dims", name);
        ck_assert_fails_with(fn(a, 1, (int[]){2}, 0, false, NULL, &r), USMARR_ERROR_INDEX, need);
        ck_assert_fails_with(fn(a, 2, (int[]){1, -1}, 0, false, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT,
                             "axes[1]=-1 repeats an axis");
        ck_assert_fails_with(fn(a, 3, (int[]){0, 1, 0}, 0, false, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT,
                             "naxes=3 is outside [0, ndim=2]");
        ck_assert_fails_with(fn(a, 1, (int[]){0}, -1, false, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT,
                             "correction=-1 must be finite and >= 0");
        ck_assert_fails_with(fn(a, 1, (int[]){0}, NAN, false, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT, "correction=");
        ck_assert_fails_with(fn(a, 1, (int[]){0}, 0, false, o, &r), USMARR_ERROR_SHAPE_MISMATCH, "out has shape (2, 5)");
        ck_assert_fails_with(fn(a, 0, NULL, 0, false, oi, &r), USMARR_ERROR_SHAPE_MISMATCH, "the result has shape ()");
        usmarr_array_t *oi3 = NULL;
        ck_assert_ok(usmarr_array_zeros(ctx, 1, (int64_t[]){3}, USMARR_INT32, USMARR_ORDER_C, USMARR_USM_DEVICE, &oi3));
        ck_assert_fails_with(fn(a, 1, (int[]){0}, 0, false, oi3, &r), USMARR_ERROR_CASTING, "int32");
        usmarr_array_release(oi3);
        ck_assert_fails_with(fn(a, 1, (int[]){0}, 0, true, o, &r), USMARR_ERROR_SHAPE_MISMATCH, "(1, 3)");
    }
    usmarr_array_t *ro3 = NULL;
    ck_assert_ok(usmarr_array_zeros(ctx, 1, (int64_t[]){3}, USMARR_FLOAT32, USMARR_ORDER_C, USMARR_USM_DEVICE, &ro3));
    ck_assert_ok(usmarr_array_make_read_only(ro3));
    ck_assert_fails_with(usmarr_var(a, 1, (int[]){0}, 0, false, ro3, &r), USMARR_ERROR_READ_ONLY, "out");
    usmarr_array_release(ro3);

    /* matrix_transpose */
    ck_assert_fails_with(usmarr_matrix_transpose(v, &r), USMARR_ERROR_SHAPE_MISMATCH, "x has 1 dims; it needs at least 2");
    ck_assert_fails_with(usmarr_matrix_transpose(NULL, &r), USMARR_ERROR_INVALID_ARGUMENT, "x is NULL");
    ck_assert_fails_with(usmarr_matrix_transpose(a, NULL), USMARR_ERROR_INVALID_ARGUMENT, "view is NULL");
    ck_assert_ptr_null(r);
    ck_assert_double_eq(host_at(a, 4), before);

    usmarr_array_release(other);
    usmarr_context_release(ctx2);
    usmarr_array_release(ro);
    usmarr_array_release(o);
    usmarr_array_release(oi);
    usmarr_array_release(zero);
    usmarr_array_release(b3);
    usmarr_array_release(b33);
    usmarr_array_release(v);
    usmarr_array_release(c);
    usmarr_array_release(b);
    usmarr_array_release(a);
    usmarr_context_release(ctx);
}
END_TEST

Suite *suite_linalg(void)
{
    load_cases();
    Suite *s = suite_create("linalg");
    TCase *tc = tcase_create("numpy");
    tcase_set_timeout(tc, 0);
    tcase_add_loop_test(tc, test_linalg_numpy_cases, 0, ncases > 0 ? ncases : 1);
    suite_add_tcase(s, tc);
    tc = tcase_create("behaviour");
    tcase_set_timeout(tc, 0);
    tcase_add_test(tc, test_linalg_out_arrays);
    tcase_add_test(tc, test_linalg_matmul_few_rows_strided_right_operand);
    tcase_add_test(tc, test_linalg_matrix_transpose_is_a_view);
    tcase_add_test(tc, test_linalg_failures);
    suite_add_tcase(s, tc);
    return s;
}
