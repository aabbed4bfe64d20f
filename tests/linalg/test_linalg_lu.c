/* det, slogdet, inv, solve, cholesky, matrix_power and the small linalg functions against
 * NumPy 2: the "lucase" entries of tests/linalg_lu_cases.txt (tests/gen/gen_linalg_lu_cases.py).
 * Hand-written checks follow: residuals of solve on larger and ill-conditioned systems
 * (against host loops), out arrays, the failing matrix named in the detail, and every
 * function's bad arguments. */
#include "../harness/common.h"

#include "../harness/case_file.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define MAX_CASES 512

static struct case_entry *cases;
static int ncases;

static void load_cases(void)
{
    if (cases)
        return;
    cases = case_file_load_built("linalg_lu_cases.txt", "lucase", MAX_CASES, &ncases);
}

static bool is_complex(usmarr_dtype_t dt)
{
    return usmarr_dtype_kind(dt) == USMARR_KIND_COMPLEX;
}

static int64_t product(int n, const int64_t *shape)
{
    int64_t p = 1;
    for (int i = 0; i < n; i++)
        p *= shape[i];
    return p;
}

/* The values as float64 (complex128 pairs for complex dtypes) host numbers. */
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

/* An operand line: x DTYPE ; BASE ; VIEW ; BROADCAST ; T ; VALUES */
static usmarr_array_t *operand(usmarr_context_t *ctx, const char *line_in)
{
    char *line = strdup(line_in + 2), *f[6];
    int nf = case_fields(line, f, 6);
    ck_assert_int_ge(nf, 5);
    usmarr_dtype_t dt = case_dtype_named(f[0]);
    int64_t shape[USMARR_MAX_NDIM];
    int nd = case_ints(f[1], shape, USMARR_MAX_NDIM);
    bool cplx = is_complex(dt);
    double *v = parse_values(nf > 5 ? f[5] : "", product(nd, shape), cplx);
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

/* Norm-wise tolerance: results of LU and Cholesky are compared as |got - want| <=
 * tol * (1 + max |want|), the error such factorisations bound. */
static double tolerance(usmarr_dtype_t dt)
{
    return dt == USMARR_FLOAT32 || dt == USMARR_COMPLEX64 ? 2e-3 : 1e-9;
}

/* Compares r with an "expect DTYPE ; SHAPE ; VALUES" line. */
static void check_result(const usmarr_array_t *r, const char *line_in, const char *name)
{
    char *line = strdup(line_in + 7), *f[3];
    int nf = case_fields(line, f, 3);
    ck_assert_int_ge(nf, 1);
    usmarr_dtype_t dt = case_dtype_named(f[0]);
    ck_assert_msg(usmarr_array_dtype(r) == dt, "%s: dtype %s, NumPy %s", name, usmarr_dtype_name(usmarr_array_dtype(r)),
                  f[0]);
    int64_t shape[USMARR_MAX_NDIM];
    int nd = nf >= 2 ? case_ints(f[1], shape, USMARR_MAX_NDIM) : 0;
    ck_assert_msg(usmarr_array_ndim(r) == nd, "%s: %d dims, NumPy %d", name, usmarr_array_ndim(r), nd);
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
    double scale = 1;
    for (int64_t i = 0; i < n * (cplx ? 2 : 1); i++)
        if (isfinite(want[i]) && fabs(want[i]) > scale - 1)
            scale = 1 + fabs(want[i]);
    double tol = tolerance(dt) * scale;
    for (int64_t i = 0; i < n * (cplx ? 2 : 1); i++)
        ck_assert_msg(isnan(want[i])   ? isnan(got[i])
                      : isinf(want[i]) ? got[i] == want[i]
                                       : fabs(got[i] - want[i]) <= tol,
                      "%s: value %lld is %.17g, NumPy %.17g", name, (long long)i, got[i], want[i]);
    free(want);
    free(got);
    free(line);
}

/* Calls the case's function: its results into r[0, 2). */
static int call_op(const char *op, usmarr_array_t *x1, usmarr_array_t *x2, usmarr_array_t **r)
{
    char word[32] = "";
    sscanf(op, "%31s", word);
    const char *args = op + strlen(word);
    if (!strcmp(word, "det"))
        return usmarr_linalg_det(x1, NULL, &r[0]);
    if (!strcmp(word, "slogdet"))
        return usmarr_linalg_slogdet(x1, &r[0], &r[1]);
    if (!strcmp(word, "inv"))
        return usmarr_linalg_inv(x1, NULL, &r[0]);
    if (!strcmp(word, "solve"))
        return usmarr_linalg_solve(x1, x2, NULL, &r[0]);
    if (!strcmp(word, "cholesky"))
        return usmarr_linalg_cholesky(x1, atoi(args) != 0, NULL, &r[0]);
    if (!strcmp(word, "matrix_power"))
        return usmarr_linalg_matrix_power(x1, atoll(args), NULL, &r[0]);
    if (!strcmp(word, "diagonal"))
        return usmarr_linalg_diagonal(x1, atoll(args), &r[0]);
    if (!strcmp(word, "trace")) {
        char dtname[32] = "-";
        long long offset = 0;
        sscanf(args, "%lld %31s", &offset, dtname);
        return usmarr_linalg_trace(x1, offset, strcmp(dtname, "-") ? (int)case_dtype_named(dtname) : -1, NULL, &r[0]);
    }
    if (!strcmp(word, "outer"))
        return usmarr_linalg_outer(x1, x2, NULL, &r[0]);
    if (!strcmp(word, "cross"))
        return usmarr_linalg_cross(x1, x2, atoi(args), NULL, &r[0]);
    if (!strcmp(word, "vector_norm")) {
        char ord[32];
        int keep = 0, naxes = 0, axes[USMARR_MAX_NDIM], used = 0;
        ck_assert_int_eq(sscanf(args, "%31s %d %d%n", ord, &keep, &naxes, &used), 3);
        for (int i = 0; i < naxes; i++) {
            int more = 0;
            ck_assert_int_eq(sscanf(args + used, "%d%n", &axes[i], &more), 1);
            used += more;
        }
        return usmarr_linalg_vector_norm(x1, naxes < 0 ? 0 : naxes, naxes < 0 ? NULL : axes, keep != 0, strtod(ord, NULL),
                                         NULL, &r[0]);
    }
    if (!strcmp(word, "matrix_norm")) {
        static const char *names[] = {"fro", "nuc", "1", "-1", "2", "-2", "inf", "-inf"};
        char ord[32];
        int keep = 0, o = 0;
        ck_assert_int_eq(sscanf(args, "%31s %d", ord, &keep), 2);
        while (o < 8 && strcmp(names[o], ord))
            o++;
        ck_assert_int_lt(o, 8);
        return usmarr_linalg_matrix_norm(x1, (usmarr_matrix_norm_t)o, keep != 0, NULL, &r[0]);
    }
    ck_abort_msg("unknown op %s", op);
    return -1;
}

START_TEST(test_linalg_lu_numpy_cases)
{
    ck_assert_msg(ncases > 0, "no cases in linalg_lu_cases.txt (USMARR_TEST_BUILDDIR)");
    const struct case_entry *e = &cases[_i];
    usmarr_context_t *ctx = test_shared_context();
    const char *op = e->lines[0] + 3;
    int nx = 0;
    while (nx + 1 < e->nlines && !strncmp(e->lines[nx + 1], "x ", 2))
        nx++;
    usmarr_array_t *x[2] = {NULL, NULL}, *r[2] = {NULL, NULL};
    bool skip = false;
    for (int i = 0; i < nx; i++) {
        x[i] = operand(ctx, e->lines[1 + i]);
        usmarr_dtype_t d = usmarr_array_dtype(x[i]);
        skip |= test_dtype_skipped(ctx, d) || (!usmarr_context_info(ctx)->fp64 && usmarr_dtype_kind(d) != USMARR_KIND_FLOAT &&
                                               usmarr_dtype_kind(d) != USMARR_KIND_COMPLEX);
    }
    if (!skip) {
        int rc = call_op(op, x[0], x[1], r);
        if (!strcmp(e->lines[1 + nx], "expect error")) {
            ck_assert_msg(rc == USMARR_ERROR_LINALG, "%s: returned %d (%s), NumPy raised LinAlgError", e->name, rc,
                          usmarr_error_name(rc));
            ck_assert_ptr_null(r[0]);
        } else {
            ck_assert_msg(rc == 0, "%s: %s: %s", e->name, usmarr_error_name(rc), usmarr_last_error_detail());
            for (int k = 0; 1 + nx + k < e->nlines; k++)
                check_result(r[k], e->lines[1 + nx + k], e->name);
        }
    }
    for (int i = 0; i < 2; i++) {
        usmarr_array_release(x[i]);
        usmarr_array_release(r[i]);
    }
    usmarr_context_release(ctx);
}
END_TEST

/* ---- hand-written checks ---------------------------------------------------------------------- */

/* A new (count, n, n) float64 stack: random values, plus `diag` on the diagonals. */
static usmarr_array_t *random_stack(usmarr_context_t *ctx, usmarr_dtype_t dt, int64_t count, int64_t n, int64_t k,
                                    double diag, unsigned seed, double **host)
{
    int64_t shape[3] = {count, n, k};
    double *v = malloc(sizeof(double) * (size_t)(count * n * k + 1));
    srand(seed);
    for (int64_t i = 0; i < count * n * k; i++)
        v[i] = (double)rand() / RAND_MAX * 2 - 1 + ((i / k) % n == i % k ? diag : 0);
    usmarr_array_t *h = NULL, *a = NULL;
    ck_assert_ok(usmarr_array_from_host(ctx, 3, shape, USMARR_FLOAT64, v, NULL, USMARR_USM_DEVICE, &h));
    ck_assert_ok(usmarr_array_astype(h, dt, USMARR_ORDER_C, NULL, &a));
    usmarr_array_release(h);
    if (dt == USMARR_FLOAT32) /* the oracle sees the values the library sees */
        for (int64_t i = 0; i < count * n * k; i++)
            v[i] = (float)v[i];
    *host = v;
    return a;
}

static double *to_host(const usmarr_array_t *a)
{
    usmarr_array_t *c = NULL;
    ck_assert_ok(usmarr_array_astype(a, USMARR_FLOAT64, USMARR_ORDER_C, NULL, &c));
    int64_t n = usmarr_array_size(c);
    double *v = malloc(sizeof(double) * (size_t)(n + 1));
    ck_assert_ok(usmarr_array_copy_to_host(c, v, NULL));
    usmarr_array_release(c);
    return v;
}

/* max over the stack of ||A x - b||_inf / (||A||_inf ||x||_inf n eps), on the host. */
static double residual(const double *a, const double *x, const double *b, int64_t count, int64_t n, int64_t k)
{
    double worst = 0;
    for (int64_t m = 0; m < count; m++) {
        const double *am = a + m * n * n, *xm = x + m * n * k, *bm = b + m * n * k;
        double na = 0, nx = 0, nr = 0;
        for (int64_t i = 0; i < n; i++) {
            double row = 0;
            for (int64_t j = 0; j < n; j++)
                row += fabs(am[i * n + j]);
            na = fmax(na, row);
        }
        for (int64_t c = 0; c < k; c++) {
            double col = 0;
            for (int64_t i = 0; i < n; i++)
                col = fmax(col, fabs(xm[i * k + c]));
            nx = fmax(nx, col);
            for (int64_t i = 0; i < n; i++) {
                double s = -bm[i * k + c];
                for (int64_t j = 0; j < n; j++)
                    s += am[i * n + j] * xm[j * k + c];
                nr = fmax(nr, fabs(s));
            }
        }
        worst = fmax(worst, nr / (na * nx * (double)n));
    }
    return worst;
}

/* solve and inv on stacks of small and large orders, well- and ill-conditioned, in float64
 * and float32: the scaled residual stays a small multiple of the dtype's epsilon. */
START_TEST(test_linalg_lu_solve_residuals)
{
    usmarr_context_t *ctx = test_context();
    static const int64_t orders[][2] = {{64, 3}, {16, 8}, {4, 31}, {2, 33}, {1, 100}, {1, 300}};
    for (int dti = 0; dti < 2; dti++) {
        usmarr_dtype_t dt = dti ? USMARR_FLOAT32 : USMARR_FLOAT64;
        if (test_dtype_skipped(ctx, dt))
            continue;
        double eps = dti ? FLT_EPSILON : DBL_EPSILON;
        for (size_t o = 0; o < sizeof orders / sizeof orders[0]; o++) {
            for (int cond = 0; cond < 2; cond++) { /* diag 0: random, often ill-conditioned */
                int64_t count = orders[o][0], n = orders[o][1], k = 2;
                double *ha, *hb, *hx;
                usmarr_array_t *a = random_stack(ctx, dt, count, n, n, cond ? (double)n : 0, 7 + (unsigned)o, &ha);
                usmarr_array_t *b = random_stack(ctx, dt, count, n, k, 0, 99 + (unsigned)o, &hb), *x = NULL, *inv = NULL;
                ck_assert_ok(usmarr_linalg_solve(a, b, NULL, &x));
                hx = to_host(x);
                double res = residual(ha, hx, hb, count, n, k);
                ck_assert_msg(res < 10 * eps * 8, "solve %s (%lld, %lld, %lld): residual %g eps", usmarr_dtype_name(dt),
                              (long long)count, (long long)n, (long long)n, res / eps);
                free(hx);
                /* inv: A inv(A) - I, through the same residual with b = I */
                ck_assert_ok(usmarr_linalg_inv(a, NULL, &inv));
                double *hi = to_host(inv), *eye = calloc((size_t)(count * n * n), sizeof(double));
                for (int64_t m = 0; m < count; m++)
                    for (int64_t i = 0; i < n; i++)
                        eye[m * n * n + i * n + i] = 1;
                res = residual(ha, hi, eye, count, n, n);
                ck_assert_msg(res < 10 * eps * 8, "inv %s order %lld: residual %g eps", usmarr_dtype_name(dt), (long long)n,
                              res / eps);
                free(hi);
                free(eye);
                free(ha);
                free(hb);
                usmarr_array_release(a);
                usmarr_array_release(b);
                usmarr_array_release(x);
                usmarr_array_release(inv);
            }
        }
    }
    usmarr_context_release(ctx);
}
END_TEST

static usmarr_array_t *from_values(usmarr_context_t *ctx, int nd, const int64_t *shape, const double *v)
{
    usmarr_array_t *a = NULL;
    ck_assert_ok(usmarr_array_from_host(ctx, nd, shape, USMARR_FLOAT64, v, NULL, USMARR_USM_DEVICE, &a));
    return a;
}

/* The failing matrix is named by index and batch index; out is untouched; nothing is
 * handed back. */
START_TEST(test_linalg_lu_failing_matrix_named)
{
    usmarr_context_t *ctx = test_context();
    if (!usmarr_context_info(ctx)->fp64) {
        usmarr_context_release(ctx);
        return;
    }
    /* a (2, 3) stack of 2 x 2 matrices: the identity but for [1, 1] (singular) and [1, 2] */
    double v[6 * 4];
    for (int m = 0; m < 6; m++) {
        v[m * 4] = v[m * 4 + 3] = 1;
        v[m * 4 + 1] = v[m * 4 + 2] = 0;
    }
    v[4 * 4] = 0; /* matrix 4 = batch index (1, 1): [[0, 0], [0, 1]] */
    v[5 * 4 + 3] = -1; /* matrix 5: not positive definite, but regular */
    int64_t shape[4] = {2, 3, 2, 2};
    usmarr_array_t *a = from_values(ctx, 4, shape, v), *r = NULL, *out = NULL;
    ck_assert_ok(usmarr_array_full(ctx, 4, shape, usmarr_scalar_float(7), USMARR_FLOAT64, USMARR_ORDER_C,
                                   USMARR_USM_DEVICE, &out));
    ck_assert_fails_with(usmarr_linalg_inv(a, NULL, &r), USMARR_ERROR_LINALG, "matrix 4 of the stack, at batch index (1, 1), is singular");
    ck_assert_ptr_null(r);
    ck_assert_fails_with(usmarr_linalg_inv(a, out, NULL), USMARR_ERROR_LINALG, "matrix 4");
    double *h = to_host(out);
    for (int i = 0; i < 24; i++)
        ck_assert_msg(h[i] == 7, "out[%d] was written: %g", i, h[i]);
    free(h);
    ck_assert_fails_with(usmarr_linalg_solve(a, a, NULL, &r), USMARR_ERROR_LINALG, "batch index (1, 1)");
    ck_assert_fails_with(usmarr_linalg_cholesky(a, false, NULL, &r), USMARR_ERROR_LINALG,
                         "matrix 4 of the stack, at batch index (1, 1), is not positive definite");
    ck_assert_fails_with(usmarr_linalg_matrix_power(a, -2, NULL, &r), USMARR_ERROR_LINALG, "matrix 4");
    /* the input is unchanged */
    h = to_host(a);
    for (int i = 0; i < 24; i++)
        ck_assert(h[i] == v[i]);
    free(h);
    /* det of the singular matrix is 0, no error */
    ck_assert_ok(usmarr_linalg_det(a, NULL, &r));
    h = to_host(r);
    ck_assert(h[4] == 0 && h[5] == -1 && h[0] == 1);
    free(h);
    usmarr_array_release(r);
    usmarr_array_release(out);
    usmarr_array_release(a);
    usmarr_context_release(ctx);
}
END_TEST

/* cholesky of orders past the blocked path's panels (several panels of 128 and a partial
 * one), lower and upper: the factor is triangular (exact zeros on the other side) and
 * max |L L^H - A| / max |A| stays a small multiple of n eps. */
START_TEST(test_linalg_lu_cholesky_large_residual)
{
    usmarr_context_t *ctx = test_context();
    static const int64_t orders[] = {100, 300};
    for (int dti = 0; dti < 2; dti++) {
        usmarr_dtype_t dt = dti ? USMARR_FLOAT32 : USMARR_FLOAT64;
        if (test_dtype_skipped(ctx, dt))
            continue;
        double eps = dti ? FLT_EPSILON : DBL_EPSILON;
        for (size_t o = 0; o < sizeof orders / sizeof orders[0]; o++) {
            int64_t n = orders[o], shape[2] = {n, n};
            double *ha;
            usmarr_array_t *r = random_stack(ctx, USMARR_FLOAT64, 1, n, n, 0, 11 + (unsigned)o, &ha), *rt = NULL,
                           *p = NULL, *a = NULL, *h = NULL;
            /* A = R R^T / n + I: symmetric positive definite, condition about 5 */
            ck_assert_ok(usmarr_matrix_transpose(r, &rt));
            ck_assert_ok(usmarr_matmul(r, rt, NULL, &p));
            double *hp = to_host(p);
            for (int64_t i = 0; i < n * n; i++)
                hp[i] = hp[i] / (double)n + (i / n == i % n);
            ck_assert_ok(usmarr_array_from_host(ctx, 2, shape, USMARR_FLOAT64, hp, NULL, USMARR_USM_DEVICE, &h));
            ck_assert_ok(usmarr_array_astype(h, dt, USMARR_ORDER_C, NULL, &a));
            if (dti)
                for (int64_t i = 0; i < n * n; i++)
                    hp[i] = (float)hp[i];
            for (int upper = 0; upper < 2; upper++) {
                usmarr_array_t *f = NULL;
                ck_assert_ok(usmarr_linalg_cholesky(a, upper, NULL, &f));
                double *hl = to_host(f), worst = 0, top = 0;
                for (int64_t i = 0; i < n; i++)
                    for (int64_t j = 0; j < n; j++) {
                        if (upper ? j < i : j > i)
                            ck_assert_msg(hl[i * n + j] == 0, "%s order %lld upper %d: [%lld, %lld] = %g",
                                          usmarr_dtype_name(dt), (long long)n, upper, (long long)i, (long long)j,
                                          hl[i * n + j]);
                        double sum = 0; /* (L L^T)[i, j] or (U^T U)[i, j] */
                        for (int64_t q = 0; q <= (i < j ? i : j); q++)
                            sum += upper ? hl[q * n + i] * hl[q * n + j] : hl[i * n + q] * hl[j * n + q];
                        worst = fmax(worst, fabs(sum - hp[i * n + j]));
                        top = fmax(top, fabs(hp[i * n + j]));
                    }
                ck_assert_msg(worst / top < 4 * (double)n * eps, "%s order %lld upper %d: residual %g n eps",
                              usmarr_dtype_name(dt), (long long)n, upper, worst / top / ((double)n * eps));
                free(hl);
                usmarr_array_release(f);
            }
            free(ha);
            free(hp);
            usmarr_array_release(r);
            usmarr_array_release(rt);
            usmarr_array_release(p);
            usmarr_array_release(h);
            usmarr_array_release(a);
        }
    }
    usmarr_context_release(ctx);
}
END_TEST

/* The blocked path names the failing matrix too when the failure comes late, in a later
 * block of a later panel: a stack of three matrices of order 300, the identity, one whose
 * column 200 is zero (singular) and one with -1 at [250, 250] (regular, not positive
 * definite). */
START_TEST(test_linalg_lu_large_failing_matrix_named)
{
    usmarr_context_t *ctx = test_context();
    if (!usmarr_context_info(ctx)->fp64) {
        usmarr_context_release(ctx);
        return;
    }
    enum { N = 300 };
    double *v = calloc(3 * N * N, sizeof(double));
    for (int m = 0; m < 3; m++)
        for (int i = 0; i < N; i++)
            v[(m * N + i) * N + i] = 1;
    v[(N + 200) * N + 200] = 0;
    v[(2 * N + 250) * N + 250] = -1;
    int64_t shape[3] = {3, N, N};
    usmarr_array_t *a = from_values(ctx, 3, shape, v), *odd = NULL, *r = NULL;
    ck_assert_fails_with(usmarr_linalg_inv(a, NULL, &r), USMARR_ERROR_LINALG, "matrix 1 of the stack, at batch index (1,), is singular");
    ck_assert_fails_with(usmarr_linalg_solve(a, a, NULL, &r), USMARR_ERROR_LINALG, "matrix 1 of the stack");
    ck_assert_fails_with(usmarr_linalg_cholesky(a, false, NULL, &r), USMARR_ERROR_LINALG,
                         "matrix 1 of the stack, at batch index (1,), is not positive definite");
    ck_assert_ptr_null(r);
    /* matrices 0 and 2: regular, so inv (itself) works; cholesky fails on the second */
    ck_assert_ok(usmarr_array_index_text(a, "::2", &odd));
    ck_assert_fails_with(usmarr_linalg_cholesky(odd, false, NULL, &r), USMARR_ERROR_LINALG,
                         "matrix 1 of the stack, at batch index (1,), is not positive definite");
    ck_assert_ok(usmarr_linalg_inv(odd, NULL, &r));
    usmarr_array_t *fout = NULL; /* and into an F-ordered out */
    int64_t two[3] = {2, N, N};
    ck_assert_ok(usmarr_array_empty(ctx, 3, two, USMARR_FLOAT64, USMARR_ORDER_F, USMARR_USM_DEVICE, &fout));
    ck_assert_ok(usmarr_linalg_inv(odd, fout, NULL));
    for (int k = 0; k < 2; k++) {
        double *h = to_host(k ? fout : r);
        for (int m = 0; m < 2; m++)
            for (int i = 0; i < N * N; i++)
                ck_assert_msg(h[m * N * N + i] == v[2 * m * N * N + i], "inv (%s): matrix %d element %d is %g",
                              k ? "out" : "result", m, i, h[m * N * N + i]);
        free(h);
    }
    usmarr_array_release(fout);
    usmarr_array_release(r);
    usmarr_array_release(odd);
    usmarr_array_release(a);
    free(v);
    usmarr_context_release(ctx);
}
END_TEST

/* A matrix's results are bit for bit the same whatever its neighbours in the stack hold
 * (NaN, inf, singular matrices) and whatever the stack's length: lanes do not matter. */
START_TEST(test_linalg_lu_neighbours_do_not_matter)
{
    usmarr_context_t *ctx = test_context();
    usmarr_dtype_t dt = usmarr_context_info(ctx)->fp64 ? USMARR_FLOAT64 : USMARR_FLOAT32;
    enum { COUNT = 37, N = 5 };
    static const int64_t orders[2] = {N, 40};
    for (int o = 0; o < 2; o++) {
        int64_t n = orders[o], count = o ? 3 : COUNT;
        double *clean, *noisy;
        usmarr_array_t *a = random_stack(ctx, dt, count, n, n, 0, 5, &clean), *b = random_stack(ctx, dt, count, n, n, 0, 5, &noisy);
        usmarr_array_release(b);
        /* the neighbours of matrix 1 (and every matrix but 1) poisoned */
        for (int64_t m = 0; m < count; m++)
            for (int64_t i = 0; m != 1 && i < n * n; i++)
                noisy[m * n * n + i] = m % 2 == 0 ? NAN : m % 3 == 0 ? 0 : INFINITY;
        int64_t shape[3] = {count, n, n}, one[3] = {1, n, n};
        usmarr_array_t *h = NULL, *single = NULL, *hs = NULL;
        ck_assert_ok(usmarr_array_from_host(ctx, 3, shape, USMARR_FLOAT64, noisy, NULL, USMARR_USM_DEVICE, &h));
        ck_assert_ok(usmarr_array_astype(h, dt, USMARR_ORDER_C, NULL, &b));
        ck_assert_ok(usmarr_array_from_host(ctx, 3, one, USMARR_FLOAT64, clean + n * n, NULL, USMARR_USM_DEVICE, &hs));
        ck_assert_ok(usmarr_array_astype(hs, dt, USMARR_ORDER_C, NULL, &single));
        usmarr_array_t *d1 = NULL, *d2 = NULL, *d3 = NULL, *i1 = NULL, *i3 = NULL;
        ck_assert_ok(usmarr_linalg_det(a, NULL, &d1));
        ck_assert_ok(usmarr_linalg_det(b, NULL, &d2));
        ck_assert_ok(usmarr_linalg_det(single, NULL, &d3));
        double *v1 = to_host(d1), *v2 = to_host(d2), *v3 = to_host(d3);
        ck_assert_msg(memcmp(&v1[1], &v2[1], sizeof(double)) == 0 && memcmp(&v1[1], &v3[0], sizeof(double)) == 0,
                      "order %lld: det of matrix 1 is %.17g among clean neighbours, %.17g among poisoned ones, %.17g alone",
                      (long long)n, v1[1], v2[1], v3[0]);
        ck_assert_ok(usmarr_linalg_inv(a, NULL, &i1));
        ck_assert_ok(usmarr_linalg_inv(single, NULL, &i3));
        double *w1 = to_host(i1), *w3 = to_host(i3);
        ck_assert_msg(memcmp(w1 + n * n, w3, sizeof(double) * (size_t)(n * n)) == 0, "order %lld: inv differs alone",
                      (long long)n);
        /* cholesky (lower and upper) of a positive definite matrix 1 among NaN and infinite
         * neighbours (no error: NaN goes on), then with matrix 20 not positive definite */
        double *spd;
        usmarr_array_t *p = random_stack(ctx, dt, count, n, n, (double)n, 11, &spd), *ps = NULL, *pn = NULL, *t = NULL;
        usmarr_array_release(p);
        for (int64_t m = 0; m < count; m++)
            for (int64_t i = 0; m != 1 && i < n * n; i++)
                spd[m * n * n + i] = m % 2 == 0 ? NAN : INFINITY;
        ck_assert_ok(usmarr_array_from_host(ctx, 3, one, USMARR_FLOAT64, spd + n * n, NULL, USMARR_USM_DEVICE, &t));
        ck_assert_ok(usmarr_array_astype(t, dt, USMARR_ORDER_C, NULL, &ps));
        usmarr_array_release(t);
        ck_assert_ok(usmarr_array_from_host(ctx, 3, shape, USMARR_FLOAT64, spd, NULL, USMARR_USM_DEVICE, &t));
        ck_assert_ok(usmarr_array_astype(t, dt, USMARR_ORDER_C, NULL, &pn));
        usmarr_array_release(t);
        for (int upper = 0; upper < 2; upper++) {
            usmarr_array_t *c1 = NULL, *c3 = NULL;
            ck_assert_ok(usmarr_linalg_cholesky(pn, upper, NULL, &c1));
            ck_assert_ok(usmarr_linalg_cholesky(ps, upper, NULL, &c3));
            double *f1 = to_host(c1), *f3 = to_host(c3);
            ck_assert_msg(memcmp(f1 + n * n, f3, sizeof(double) * (size_t)(n * n)) == 0,
                          "order %lld: cholesky (upper %d) differs alone", (long long)n, upper);
            free(f1);
            free(f3);
            usmarr_array_release(c1);
            usmarr_array_release(c3);
        }
        usmarr_array_release(pn);
        pn = NULL;
        if (count > 20) {
            for (int64_t i = 0; i < n * n; i++)
                spd[20 * n * n + i] = i % (n + 1) == 0 ? -1 : 0;
            ck_assert_ok(usmarr_array_from_host(ctx, 3, shape, USMARR_FLOAT64, spd, NULL, USMARR_USM_DEVICE, &t));
            ck_assert_ok(usmarr_array_astype(t, dt, USMARR_ORDER_C, NULL, &pn));
            usmarr_array_release(t);
            usmarr_array_t *c = NULL;
            ck_assert_fails_with(usmarr_linalg_cholesky(pn, false, NULL, &c), USMARR_ERROR_LINALG,
                                 "matrix 20 of the stack, at batch index (20,), is not positive definite");
        }
        free(spd);
        free(v1);
        free(v2);
        free(v3);
        free(w1);
        free(w3);
        free(clean);
        free(noisy);
        usmarr_array_t *all[] = {a, b, h, hs, single, d1, d2, d3, i1, i3, ps, pn};
        for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
            usmarr_array_release(all[i]);
    }
    usmarr_context_release(ctx);
}
END_TEST

/* out arrays: a float32 out of a float64 det (same_kind), an F-ordered out of inv. */
START_TEST(test_linalg_lu_out_arrays)
{
    usmarr_context_t *ctx = test_context();
    double v[8] = {2, 1, 1, 3, 4, 0, 0, 0.5};
    int64_t shape[3] = {2, 2, 2};
    usmarr_array_t *a = NULL, *out = NULL, *r = NULL, *h64 = NULL;
    ck_assert_ok(usmarr_array_from_host(ctx, 3, shape, USMARR_FLOAT64, v, NULL, USMARR_USM_DEVICE, &h64));
    usmarr_dtype_t dt = usmarr_context_info(ctx)->fp64 ? USMARR_FLOAT64 : USMARR_FLOAT32;
    ck_assert_ok(usmarr_array_astype(h64, dt, USMARR_ORDER_C, NULL, &a));
    ck_assert_ok(usmarr_array_empty(ctx, 1, shape, USMARR_FLOAT32, USMARR_ORDER_C, USMARR_USM_DEVICE, &out));
    ck_assert_ok(usmarr_linalg_det(a, out, &r));
    ck_assert_ptr_eq(r, out);
    usmarr_array_release(r);
    float d[2];
    ck_assert_ok(usmarr_array_copy_to_host(out, d, NULL));
    ck_assert(d[0] == 5 && d[1] == 2);
    usmarr_array_release(out);
    ck_assert_ok(usmarr_array_empty(ctx, 3, shape, dt, USMARR_ORDER_F, USMARR_USM_DEVICE, &out));
    ck_assert_ok(usmarr_linalg_inv(a, out, NULL));
    double *h = to_host(out);
    ck_assert(fabs(h[0] - 0.6) < 1e-6 && fabs(h[1] + 0.2) < 1e-6 && fabs(h[2] + 0.2) < 1e-6 && fabs(h[3] - 0.4) < 1e-6);
    ck_assert(fabs(h[4] - 0.25) < 1e-6 && h[5] == 0 && h[6] == 0 && fabs(h[7] - 2) < 1e-6);
    free(h);
    usmarr_array_release(out);
    usmarr_array_release(a);
    usmarr_array_release(h64);
    usmarr_context_release(ctx);
}
END_TEST

/* Every function's bad arguments: a clear code and a detail naming the argument. */
START_TEST(test_linalg_lu_failures)
{
    usmarr_context_t *ctx = test_context();
    int64_t s1[1] = {3}, s23[2] = {2, 3}, s33[2] = {3, 3}, s233[3] = {2, 3, 3}, s433[3] = {4, 3, 3}, s3[1] = {2};
    usmarr_array_t *v = NULL, *rect = NULL, *sq = NULL, *st = NULL, *st4 = NULL, *r = NULL, *ro = NULL, *sign = NULL,
                   *wrong = NULL, *i32 = NULL;
    ck_assert_ok(usmarr_array_zeros(ctx, 1, s1, USMARR_FLOAT32, USMARR_ORDER_C, USMARR_USM_DEVICE, &v));
    ck_assert_ok(usmarr_array_zeros(ctx, 2, s23, USMARR_FLOAT32, USMARR_ORDER_C, USMARR_USM_DEVICE, &rect));
    ck_assert_ok(usmarr_array_eye(ctx, 3, 3, 0, USMARR_FLOAT32, USMARR_ORDER_C, USMARR_USM_DEVICE, &sq));
    ck_assert_ok(usmarr_array_zeros(ctx, 3, s233, USMARR_FLOAT32, USMARR_ORDER_C, USMARR_USM_DEVICE, &st));
    ck_assert_ok(usmarr_array_zeros(ctx, 3, s433, USMARR_FLOAT32, USMARR_ORDER_C, USMARR_USM_DEVICE, &st4));
    ck_assert_ok(usmarr_array_zeros(ctx, 1, s3, USMARR_FLOAT32, USMARR_ORDER_C, USMARR_USM_DEVICE, &wrong));
    ck_assert_ok(usmarr_array_zeros(ctx, 2, s33, USMARR_INT32, USMARR_ORDER_C, USMARR_USM_DEVICE, &i32));
    ck_assert_ok(usmarr_array_eye(ctx, 3, 3, 0, USMARR_FLOAT32, USMARR_ORDER_C, USMARR_USM_DEVICE, &ro));
    ck_assert_ok(usmarr_array_make_read_only(ro));
    /* NULL operands and results */
    ck_assert_fails_with(usmarr_linalg_det(NULL, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT, "det: x is NULL");
    ck_assert_fails_with(usmarr_linalg_det(sq, NULL, NULL), USMARR_ERROR_INVALID_ARGUMENT, "result is NULL");
    ck_assert_fails_with(usmarr_linalg_inv(NULL, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT, "inv: x is NULL");
    ck_assert_fails_with(usmarr_linalg_cholesky(NULL, false, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT, "x is NULL");
    ck_assert_fails_with(usmarr_linalg_solve(sq, NULL, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT, "x2 is NULL");
    ck_assert_fails_with(usmarr_linalg_solve(NULL, sq, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT, "x1 is NULL");
    ck_assert_fails_with(usmarr_linalg_slogdet(sq, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT, "sign is NULL");
    ck_assert_fails_with(usmarr_linalg_slogdet(sq, &sign, NULL), USMARR_ERROR_INVALID_ARGUMENT, "logabsdet is NULL");
    ck_assert_fails_with(usmarr_linalg_matrix_power(NULL, 2, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT, "x is NULL");
    /* dims and squareness */
    ck_assert_fails_with(usmarr_linalg_det(v, NULL, &r), USMARR_ERROR_SHAPE_MISMATCH, "x has 1 dims; it needs at least 2");
    ck_assert_fails_with(usmarr_linalg_det(rect, NULL, &r), USMARR_ERROR_SHAPE_MISMATCH, "2 x 3; they must be square");
    ck_assert_fails_with(usmarr_linalg_inv(rect, NULL, &r), USMARR_ERROR_SHAPE_MISMATCH, "must be square");
    ck_assert_fails_with(usmarr_linalg_cholesky(rect, true, NULL, &r), USMARR_ERROR_SHAPE_MISMATCH, "must be square");
    ck_assert_fails_with(usmarr_linalg_slogdet(v, &sign, &r), USMARR_ERROR_SHAPE_MISMATCH, "at least 2");
    ck_assert_fails_with(usmarr_linalg_matrix_power(rect, 2, NULL, &r), USMARR_ERROR_SHAPE_MISMATCH, "must be square");
    ck_assert_fails_with(usmarr_linalg_solve(rect, v, NULL, &r), USMARR_ERROR_SHAPE_MISMATCH, "must be square");
    ck_assert_fails_with(usmarr_linalg_solve(sq, wrong, NULL, &r), USMARR_ERROR_SHAPE_MISMATCH, "x2 has 2 rows");
    ck_assert_fails_with(usmarr_linalg_solve(sq, rect, NULL, &r), USMARR_ERROR_SHAPE_MISMATCH, "x2 has 2 rows");
    ck_assert_fails_with(usmarr_linalg_solve(st, st4, NULL, &r), USMARR_ERROR_SHAPE_MISMATCH,
                         "batch dim 0 does not broadcast (x1 has 2, x2 has 4)");
    /* out: shape, dtype, writability */
    ck_assert_fails_with(usmarr_linalg_det(st, v, NULL), USMARR_ERROR_SHAPE_MISMATCH, "out has shape");
    ck_assert_fails_with(usmarr_linalg_inv(sq, i32, NULL), USMARR_ERROR_CASTING, "out has dtype int32");
    ck_assert_fails_with(usmarr_linalg_inv(sq, ro, NULL), USMARR_ERROR_READ_ONLY, "out");
    ck_assert_ptr_null(r);
    /* the small functions and the norms */
    ck_assert_fails_with(usmarr_linalg_diagonal(NULL, 0, &r), USMARR_ERROR_INVALID_ARGUMENT, "diagonal: x is NULL");
    ck_assert_fails_with(usmarr_linalg_diagonal(sq, 0, NULL), USMARR_ERROR_INVALID_ARGUMENT, "view is NULL");
    ck_assert_fails_with(usmarr_linalg_diagonal(v, 0, &r), USMARR_ERROR_SHAPE_MISMATCH, "x has 1 dims");
    ck_assert_fails_with(usmarr_linalg_trace(NULL, 0, -1, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT, "trace: x is NULL");
    ck_assert_fails_with(usmarr_linalg_trace(sq, 0, 99, NULL, &r), USMARR_ERROR_BAD_DTYPE, "dtype 99");
    ck_assert_fails_with(usmarr_linalg_trace(v, 0, -1, NULL, &r), USMARR_ERROR_SHAPE_MISMATCH, "trace: x has 1 dims");
    ck_assert_fails_with(usmarr_linalg_trace(sq, 0, -1, NULL, NULL), USMARR_ERROR_INVALID_ARGUMENT, "result is NULL");
    ck_assert_fails_with(usmarr_linalg_outer(st, v, NULL, &r), USMARR_ERROR_SHAPE_MISMATCH, "x1 has 3 dims");
    ck_assert_fails_with(usmarr_linalg_outer(v, NULL, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT, "x2 is NULL");
    ck_assert_fails_with(usmarr_linalg_cross(st, st, 0, NULL, &r), USMARR_ERROR_SHAPE_MISMATCH, "both need 3");
    ck_assert_fails_with(usmarr_linalg_cross(st, st, 3, NULL, &r), USMARR_ERROR_INDEX, "axis=3 is out of range");
    ck_assert_fails_with(usmarr_linalg_cross(st, sq, 1, NULL, &r), USMARR_ERROR_INDEX, "needs equal dims");
    ck_assert_fails_with(usmarr_linalg_cross(st, st4, -1, NULL, &r), USMARR_ERROR_SHAPE_MISMATCH, "does not broadcast");
    ck_assert_fails_with(usmarr_linalg_vector_norm(NULL, 0, NULL, false, 2, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT,
                         "vector_norm: x is NULL");
    ck_assert_fails_with(usmarr_linalg_vector_norm(sq, 0, NULL, false, NAN, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT,
                         "ord is NaN");
    int bad_axis = 2;
    ck_assert_int_eq(usmarr_linalg_vector_norm(sq, 1, &bad_axis, false, 2, NULL, &r), USMARR_ERROR_INDEX);
    ck_assert_fails_with(usmarr_linalg_matrix_norm(v, USMARR_NORM_FRO, false, NULL, &r), USMARR_ERROR_SHAPE_MISMATCH,
                         "x has 1 dims");
    ck_assert_fails_with(usmarr_linalg_matrix_norm(sq, (usmarr_matrix_norm_t)99, false, NULL, &r),
                         USMARR_ERROR_INVALID_ARGUMENT, "ord 99");
    ck_assert_fails_with(usmarr_linalg_matrix_norm(sq, USMARR_NORM_ONE, false, NULL, NULL), USMARR_ERROR_INVALID_ARGUMENT,
                         "result is NULL");
    ck_assert_ptr_null(r);
    /* another context */
    usmarr_context_t *other = test_context();
    usmarr_array_t *b = NULL;
    ck_assert_ok(usmarr_array_zeros(other, 1, s1, USMARR_FLOAT32, USMARR_ORDER_C, USMARR_USM_DEVICE, &b));
    ck_assert_fails_with(usmarr_linalg_solve(sq, b, NULL, &r), USMARR_ERROR_CONTEXT_MISMATCH, "x2");
    usmarr_array_release(b);
    usmarr_context_release(other);
    usmarr_array_t *all[] = {v, rect, sq, st, st4, ro, wrong, i32};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        usmarr_array_release(all[i]);
    usmarr_context_release(ctx);
}
END_TEST

Suite *suite_linalg_lu(void)
{
    load_cases();
    Suite *s = suite_create("linalg_lu");
    TCase *tc = tcase_create("numpy");
    tcase_set_timeout(tc, 0);
    tcase_add_loop_test(tc, test_linalg_lu_numpy_cases, 0, ncases > 0 ? ncases : 1);
    suite_add_tcase(s, tc);
    tc = tcase_create("behaviour");
    tcase_set_timeout(tc, 0);
    tcase_add_test(tc, test_linalg_lu_solve_residuals);
    tcase_add_test(tc, test_linalg_lu_failing_matrix_named);
    tcase_add_test(tc, test_linalg_lu_large_failing_matrix_named);
    tcase_add_test(tc, test_linalg_lu_cholesky_large_residual);
    tcase_add_test(tc, test_linalg_lu_out_arrays);
    tcase_add_test(tc, test_linalg_lu_neighbours_do_not_matter);
    tcase_add_test(tc, test_linalg_lu_failures);
    suite_add_tcase(s, tc);
    return s;
}
