/* qr, eigh, eigvalsh, svd, svdvals, matrix_rank and pinv against NumPy: the "dcase" entries
 * of tests/decomp_cases.txt (tests/gen/gen_decomp_cases.py).  Each case runs on three
 * layouts of its stack (C order, F order, reversed and offset); the values (singular values,
 * eigenvalues, ranks, pseudo-inverses) are compared with NumPy's, and the factors, which are
 * not unique, by their residuals on the host: ‖QᴴQ − I‖, ‖A − QR‖ with R upper triangular,
 * ‖AV − VΛ‖, ‖VᴴV − I‖, ‖A − UΣVᴴ‖, each within a small multiple of n ε.  Hand-written
 * checks follow for out arrays, rtol and every function's failures. */
#include "../harness/common.h"

#include "../harness/case_file.h"

#include <complex.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define MAX_CASES 256
#define LAYOUTS 3
/* The residual bounds' factor c in c n ε. */
#define RESIDUAL_FACTOR 8.0

static struct case_entry *cases;
static int ncases;

static void load_cases(void)
{
    if (cases)
        return;
    cases = case_file_load_built("decomp_cases.txt", "dcase", MAX_CASES, &ncases);
}

static bool is_complex(usmarr_dtype_t dt)
{
    return usmarr_dtype_kind(dt) == USMARR_KIND_COMPLEX;
}

static double eps_of(usmarr_dtype_t dt)
{
    return dt == USMARR_FLOAT32 || dt == USMARR_COMPLEX64 ? FLT_EPSILON : DBL_EPSILON;
}

/* Up to `max` numbers of s into v (NULL when s is "-"); the count in *n. */
static double *numbers(const char *s, int64_t *n)
{
    while (*s == ' ')
        s++;
    *n = 0;
    if (*s == '-' && (s[1] == '\0' || s[1] == '\n'))
        return NULL;
    size_t cap = 16;
    double *v = malloc(sizeof(double) * cap);
    char *end;
    for (double x = strtod(s, &end); end != s; x = strtod(s, &end)) {
        if ((size_t)*n == cap)
            v = realloc(v, sizeof(double) * (cap *= 2));
        v[(*n)++] = x;
        s = end;
    }
    return v;
}

/* One decomposition case: the stack on the host (complex double, C order). */
struct dcase {
    const char *name;
    usmarr_dtype_t dt;
    int nd;
    int64_t shape[USMARR_MAX_NDIM];
    int64_t count, m, n;
    double complex *x;
    double *sv, *ev, *rank, *pinv; /* NumPy's, or NULL */
    int64_t nsv, nev, nrank, npinv;
};

static void parse_case(const struct case_entry *e, struct dcase *c)
{
    memset(c, 0, sizeof *c);
    c->name = e->name;
    ck_assert_int_ge(e->nlines, 5);
    char *line = strdup(e->lines[0] + 2), *save = NULL;
    char *dt = strtok_r(line, ";", &save), *shape = strtok_r(NULL, ";", &save), *values = strtok_r(NULL, "", &save);
    while (*dt == ' ')
        dt++;
    dt[strcspn(dt, " ")] = '\0';
    c->dt = case_dtype_named(dt);
    int64_t ns;
    double *sh = numbers(shape, &ns);
    c->nd = (int)ns;
    c->count = 1;
    for (int i = 0; i < c->nd; i++) {
        c->shape[i] = (int64_t)sh[i];
        if (i < c->nd - 2)
            c->count *= c->shape[i];
    }
    free(sh);
    c->m = c->shape[c->nd - 2];
    c->n = c->shape[c->nd - 1];
    int64_t total = c->count * c->m * c->n, nv;
    double *v = numbers(values ? values : "", &nv);
    bool cplx = is_complex(c->dt);
    ck_assert_int_eq(nv, total * (cplx ? 2 : 1));
    c->x = malloc(sizeof(double complex) * (size_t)(total ? total : 1));
    for (int64_t i = 0; i < total; i++)
        c->x[i] = cplx ? v[2 * i] + I * v[2 * i + 1] : v[i];
    free(v);
    free(line);
    c->sv = numbers(e->lines[1] + 2, &c->nsv);
    c->ev = numbers(e->lines[2] + 2, &c->nev);
    c->rank = numbers(e->lines[3] + 4, &c->nrank);
    c->pinv = numbers(e->lines[4] + 4, &c->npinv);
}

static void free_case(struct dcase *c)
{
    free(c->x);
    free(c->sv);
    free(c->ev);
    free(c->rank);
    free(c->pinv);
}

/* The stack as an array of its dtype in `layout`: 0 C order; 1 F order (the matrix
 * transpose of a C-ordered stack); 2 rows and columns reversed, at an offset (a view of a
 * larger array). */
static usmarr_array_t *stack_array(usmarr_context_t *ctx, const struct dcase *c, int layout)
{
    int64_t total = c->count * c->m * c->n;
    usmarr_array_t *host = NULL, *base = NULL, *view = NULL;
    ck_assert_ok(usmarr_array_from_host(ctx, c->nd, c->shape, USMARR_COMPLEX128, c->x, NULL, USMARR_USM_DEVICE, &host));
    int64_t shape[USMARR_MAX_NDIM];
    memcpy(shape, c->shape, sizeof shape);
    if (layout == 1) {
        shape[c->nd - 2] = c->n;
        shape[c->nd - 1] = c->m;
    } else if (layout == 2) {
        shape[c->nd - 2] = c->m + 1;
        shape[c->nd - 1] = 2 * c->n + 1;
    }
    ck_assert_ok(usmarr_array_zeros(ctx, c->nd, shape, c->dt, USMARR_ORDER_C, USMARR_USM_DEVICE, &base));
    if (layout == 0)
        view = usmarr_array_retain(base);
    else if (layout == 1)
        ck_assert_ok(usmarr_matrix_transpose(base, &view));
    else
        ck_assert_ok(usmarr_array_index_text(base, "..., :0:-1, -2::-2", &view));
    if (total > 0) {
        usmarr_array_t *real = NULL;
        if (!is_complex(c->dt)) { /* the real part: complex to real is not a same-kind copy */
            ck_assert_ok(usmarr_real(host, NULL, &real));
            ck_assert_ok(usmarr_array_copy_into(view, real));
            usmarr_array_release(real);
        } else {
            ck_assert_ok(usmarr_array_copy_into(view, host));
        }
    }
    for (int i = 0; i < c->nd; i++)
        ck_assert_int_eq(usmarr_array_shape(view)[i], c->shape[i]);
    usmarr_array_release(host);
    usmarr_array_release(base);
    return view;
}

/* An array's elements on the host as complex double, C order. */
static double complex *host_values(const usmarr_array_t *a)
{
    int64_t n = usmarr_array_size(a);
    double complex *v = malloc(sizeof(double complex) * (size_t)(n ? n : 1));
    usmarr_array_t *c = NULL;
    ck_assert_ok(usmarr_array_astype(a, USMARR_COMPLEX128, USMARR_ORDER_C, NULL, &c));
    ck_assert_ok(usmarr_array_copy_to_host(c, v, NULL));
    usmarr_array_release(c);
    return v;
}

static void check_shape(const usmarr_array_t *a, const struct dcase *c, int64_t d0, int64_t d1, int nd,
                        const char *what)
{
    ck_assert_msg(usmarr_array_ndim(a) == c->nd - 2 + nd, "%s: %s has %d dims", c->name, what, usmarr_array_ndim(a));
    for (int i = 0; i < c->nd - 2; i++)
        ck_assert_int_eq(usmarr_array_shape(a)[i], c->shape[i]);
    if (nd > 0)
        ck_assert_msg(usmarr_array_shape(a)[c->nd - 2] == d0, "%s: %s's dim %d is %lld, not %lld", c->name, what,
                      c->nd - 2, (long long)usmarr_array_shape(a)[c->nd - 2], (long long)d0);
    if (nd > 1)
        ck_assert_msg(usmarr_array_shape(a)[c->nd - 1] == d1, "%s: %s's last dim is %lld, not %lld", c->name, what,
                      (long long)usmarr_array_shape(a)[c->nd - 1], (long long)d1);
}

/* Whether matrix z of the stack has a NaN or an infinity. */
static bool nonfinite(const struct dcase *c, int64_t z)
{
    for (int64_t i = 0; i < c->m * c->n; i++)
        if (!isfinite(creal(c->x[z * c->m * c->n + i])) || !isfinite(cimag(c->x[z * c->m * c->n + i])))
            return true;
    return false;
}

static double frobenius(const double complex *a, int64_t n)
{
    double s = 0;
    for (int64_t i = 0; i < n; i++)
        s += creal(a[i] * conj(a[i]));
    return sqrt(s);
}

/* max |(Pᴴ P − I)| over P's `cols` columns of `rows` elements (row stride ld), or over its
 * rows when `by_rows`. */
static double orthogonality(const double complex *p, int64_t rows, int64_t cols, bool by_rows)
{
    double worst = 0;
    int64_t nvec = by_rows ? rows : cols, len = by_rows ? cols : rows;
    for (int64_t a = 0; a < nvec; a++)
        for (int64_t b = 0; b < nvec; b++) {
            double complex s = 0;
            for (int64_t i = 0; i < len; i++) {
                double complex x = by_rows ? p[a * cols + i] : p[i * cols + a];
                double complex y = by_rows ? p[b * cols + i] : p[i * cols + b];
                s += conj(x) * y;
            }
            worst = fmax(worst, cabs(s - (a == b ? 1 : 0)));
        }
    return worst;
}

/* The values of `a` (count x per) against NumPy's `want`, within tol * (the matrix's
 * largest |want| + 1); NaN where NumPy's is NaN (or the matrix is not finite). */
static void check_values(const struct dcase *c, const char *what, const usmarr_array_t *a, const double *want,
                         int64_t nwant, int64_t per, double tol)
{
    double complex *got = host_values(a);
    ck_assert_int_eq(usmarr_array_size(a), nwant);
    for (int64_t z = 0; per > 0 && z < nwant / per; z++) {
        double scale = 1;
        for (int64_t i = 0; i < per; i++)
            if (isfinite(want[z * per + i]))
                scale = fmax(scale, fabs(want[z * per + i]));
        for (int64_t i = 0; i < per; i++) {
            double w = want[z * per + i], g = creal(got[z * per + i]);
            ck_assert_msg(isnan(w) ? isnan(g) : fabs(g - w) <= tol * scale, "%s: %s[%lld][%lld] is %.17g, NumPy %.17g",
                          c->name, what, (long long)z, (long long)i, g, w);
        }
    }
    free(got);
}

static void check_qr(const struct dcase *c, const usmarr_array_t *x, usmarr_qr_mode_t mode, double bound)
{
    usmarr_array_t *q = NULL, *r = NULL;
    ck_assert_ok(usmarr_linalg_qr(x, mode, &q, &r));
    int64_t m = c->m, n = c->n, k = m < n ? m : n, qc = mode == USMARR_QR_COMPLETE ? m : k;
    check_shape(q, c, m, qc, 2, "Q");
    check_shape(r, c, qc, n, 2, "R");
    ck_assert_int_eq(usmarr_array_dtype(q), c->dt);
    double complex *hq = host_values(q), *hr = host_values(r);
    for (int64_t z = 0; z < c->count; z++) {
        const double complex *qz = hq + z * m * qc, *rz = hr + z * qc * n, *az = c->x + z * m * n;
        if (nonfinite(c, z)) {
            ck_assert_msg(m * n == 0 || isnan(creal(rz[0])), "%s: R of a non-finite matrix is not NaN", c->name);
            continue;
        }
        for (int64_t i = 0; i < qc; i++)
            for (int64_t j = 0; j < i && j < n; j++)
                ck_assert_msg(rz[i * n + j] == 0, "%s: R[%lld][%lld] below the diagonal is not 0", c->name,
                              (long long)i, (long long)j);
        double worst = orthogonality(qz, m, qc, false), res = 0, norm = frobenius(az, m * n);
        for (int64_t i = 0; i < m; i++)
            for (int64_t j = 0; j < n; j++) {
                double complex s = 0;
                for (int64_t l = 0; l < qc; l++)
                    s += qz[i * qc + l] * rz[l * n + j];
                res += creal((az[i * n + j] - s) * conj(az[i * n + j] - s));
            }
        ck_assert_msg(worst <= bound, "%s: qr: |QᴴQ - I| = %g > %g", c->name, worst, bound);
        ck_assert_msg(sqrt(res) <= bound * fmax(norm, DBL_MIN), "%s: qr: |A - QR| = %g > %g |A| (%g)", c->name,
                      sqrt(res), bound, norm);
    }
    free(hq);
    free(hr);
    usmarr_array_release(q);
    usmarr_array_release(r);
}

static void check_eigh(const struct dcase *c, const usmarr_array_t *x, double bound, double tol)
{
    usmarr_array_t *w = NULL, *v = NULL, *w2 = NULL;
    ck_assert_ok(usmarr_linalg_eigh(x, &w, &v));
    int64_t n = c->n;
    check_shape(w, c, n, 0, 1, "eigenvalues");
    check_shape(v, c, n, n, 2, "eigenvectors");
    ck_assert_int_eq(usmarr_array_dtype(v), c->dt);
    check_values(c, "eigenvalues", w, c->ev, c->nev, n, tol);
    ck_assert_ok(usmarr_linalg_eigvalsh(x, NULL, &w2));
    check_values(c, "eigvalsh", w2, c->ev, c->nev, n, tol);
    double complex *hw = host_values(w), *hv = host_values(v);
    for (int64_t z = 0; z < c->count; z++) {
        if (nonfinite(c, z))
            continue;
        const double complex *vz = hv + z * n * n, *wz = hw + z * n, *az = c->x + z * n * n;
        /* the Hermitian matrix of the lower triangle, as eigh reads it */
        double res = 0, norm = 0;
        for (int64_t i = 0; i < n; i++)
            for (int64_t j = 0; j < n; j++) {
                double complex s = 0;
                for (int64_t l = 0; l < n; l++) {
                    double complex a = i > l ? az[i * n + l] : i == l ? creal(az[i * n + i]) : conj(az[l * n + i]);
                    s += a * vz[l * n + j];
                    if (j == 0)
                        norm += creal(a * conj(a));
                }
                s -= vz[i * n + j] * wz[j];
                res += creal(s * conj(s));
            }
        for (int64_t j = 1; j < n; j++)
            ck_assert_msg(creal(wz[j - 1]) <= creal(wz[j]), "%s: eigenvalues not ascending", c->name);
        double worst = orthogonality(vz, n, n, false);
        ck_assert_msg(worst <= bound, "%s: eigh: |VᴴV - I| = %g > %g", c->name, worst, bound);
        ck_assert_msg(sqrt(res) <= bound * fmax(sqrt(norm), DBL_MIN), "%s: eigh: |AV - VΛ| = %g > %g |A| (%g)",
                      c->name, sqrt(res), bound, sqrt(norm));
    }
    free(hw);
    free(hv);
    usmarr_array_release(w);
    usmarr_array_release(w2);
    usmarr_array_release(v);
}

static void check_svd(const struct dcase *c, const usmarr_array_t *x, bool full, double bound, double tol)
{
    usmarr_array_t *u = NULL, *s = NULL, *vh = NULL, *s2 = NULL;
    ck_assert_ok(usmarr_linalg_svd(x, full, &u, &s, &vh));
    int64_t m = c->m, n = c->n, k = m < n ? m : n, uc = full ? m : k, vr = full ? n : k;
    check_shape(u, c, m, uc, 2, "U");
    check_shape(s, c, k, 0, 1, "S");
    check_shape(vh, c, vr, n, 2, "Vh");
    check_values(c, "S", s, c->sv, c->nsv, k, tol);
    ck_assert_ok(usmarr_linalg_svdvals(x, NULL, &s2));
    check_values(c, "svdvals", s2, c->sv, c->nsv, k, tol);
    double complex *hu = host_values(u), *hs = host_values(s), *hv = host_values(vh);
    for (int64_t z = 0; z < c->count; z++) {
        if (nonfinite(c, z))
            continue;
        const double complex *uz = hu + z * m * uc, *sz = hs + z * k, *vz = hv + z * vr * n, *az = c->x + z * m * n;
        double res = 0, norm = frobenius(az, m * n);
        for (int64_t i = 0; i < m; i++)
            for (int64_t j = 0; j < n; j++) {
                double complex t = 0;
                for (int64_t l = 0; l < k; l++)
                    t += uz[i * uc + l] * sz[l] * vz[l * n + j];
                res += creal((az[i * n + j] - t) * conj(az[i * n + j] - t));
            }
        for (int64_t j = 0; j < k; j++)
            ck_assert_msg(creal(sz[j]) >= 0 && (j == 0 || creal(sz[j - 1]) >= creal(sz[j])),
                          "%s: singular values not descending and non-negative", c->name);
        double wu = orthogonality(uz, m, uc, false), wv = orthogonality(vz, vr, n, true);
        ck_assert_msg(wu <= bound, "%s: svd: |UᴴU - I| = %g > %g", c->name, wu, bound);
        ck_assert_msg(wv <= bound, "%s: svd: |VᴴV - I| = %g > %g", c->name, wv, bound);
        ck_assert_msg(sqrt(res) <= bound * fmax(norm, DBL_MIN), "%s: svd: |A - UΣVᴴ| = %g > %g |A| (%g)", c->name,
                      sqrt(res), bound, norm);
    }
    free(hu);
    free(hs);
    free(hv);
    usmarr_array_release(u);
    usmarr_array_release(s);
    usmarr_array_release(s2);
    usmarr_array_release(vh);
}

START_TEST(test_decomp_numpy_cases)
{
    load_cases();
    ck_assert_msg(ncases > 0, "no decomposition cases (tests/decomp_cases.txt)");
    usmarr_context_t *ctx = test_shared_context();
    struct dcase c;
    parse_case(&cases[_i], &c);
    if (test_dtype_skipped(ctx, c.dt)) {
        free_case(&c);
        usmarr_context_release(ctx);
        return;
    }
    int64_t big = c.m > c.n ? c.m : c.n;
    double eps = eps_of(c.dt), bound = RESIDUAL_FACTOR * (double)(big > 1 ? big : 1) * eps;
    /* the values: the perturbation bound |Δσ| <= |ΔA| lets them move by that much of |A| */
    double tol = 4 * bound;
    for (int layout = 0; layout < LAYOUTS; layout++) {
        usmarr_array_t *x = stack_array(ctx, &c, layout);
        check_qr(&c, x, USMARR_QR_REDUCED, bound);
        check_qr(&c, x, USMARR_QR_COMPLETE, bound);
        check_svd(&c, x, false, bound, tol);
        check_svd(&c, x, true, bound, tol);
        if (c.m == c.n)
            check_eigh(&c, x, bound, tol);
        if (c.rank) {
            usmarr_array_t *r = NULL;
            ck_assert_ok(usmarr_linalg_matrix_rank(x, NULL, NULL, &r));
            ck_assert_int_eq(usmarr_array_dtype(r), USMARR_INT64);
            check_values(&c, "rank", r, c.rank, c.nrank, 1, 0);
            usmarr_array_release(r);
        }
        if (c.m > 0 && c.n > 0) { /* matrix_norm's orders of singular values: NumPy's max, min, sum */
            int64_t k = c.m < c.n ? c.m : c.n;
            double *want = malloc(sizeof(double) * (size_t)(c.count ? c.count : 1));
            static const usmarr_matrix_norm_t ords[3] = {USMARR_NORM_TWO, USMARR_NORM_MINUS_TWO, USMARR_NORM_NUC};
            for (int o = 0; o < 3; o++) {
                for (int64_t z = 0; z < c.count; z++) {
                    double v = c.sv[z * k];
                    for (int64_t i = 1; i < k; i++)
                        v = o == 0 ? fmax(v, c.sv[z * k + i]) : o == 1 ? fmin(v, c.sv[z * k + i]) : v + c.sv[z * k + i];
                    want[z] = isnan(c.sv[z * k]) ? NAN : v;
                }
                usmarr_array_t *nr = NULL;
                ck_assert_ok(usmarr_linalg_matrix_norm(x, ords[o], o == 2, NULL, &nr));
                ck_assert_int_eq(usmarr_array_ndim(nr), c.nd - (o == 2 ? 0 : 2));
                check_values(&c, o == 0 ? "norm 2" : o == 1 ? "norm -2" : "norm nuc", nr, want, c.count, 1,
                             tol * (double)k);
                usmarr_array_release(nr);
            }
            free(want);
        }
        if (c.pinv) {
            usmarr_array_t *p = NULL;
            ck_assert_ok(usmarr_linalg_pinv(x, NULL, NULL, &p));
            check_shape(p, &c, c.n, c.m, 2, "pinv");
            usmarr_array_t *re = NULL;
            if (is_complex(c.dt)) { /* NumPy's values are written as pairs: compare both parts */
                int64_t total = usmarr_array_size(p);
                double complex *hp = host_values(p);
                for (int64_t i = 0; i < total; i++)
                    ck_assert_msg(fabs(creal(hp[i]) - c.pinv[2 * i]) <= 10 * tol * (1 + fabs(c.pinv[2 * i])) &&
                                      fabs(cimag(hp[i]) - c.pinv[2 * i + 1]) <= 10 * tol * (1 + fabs(c.pinv[2 * i + 1])),
                                  "%s: pinv[%lld] is %g%+gj, NumPy %g%+gj", c.name, (long long)i, creal(hp[i]),
                                  cimag(hp[i]), c.pinv[2 * i], c.pinv[2 * i + 1]);
                free(hp);
            } else {
                check_values(&c, "pinv", p, c.pinv, c.npinv, c.npinv, 10 * tol);
            }
            usmarr_array_release(re);
            usmarr_array_release(p);
        }
        usmarr_array_release(x);
    }
    free_case(&c);
    usmarr_context_release(ctx);
}
END_TEST

/* A C-ordered float64 array of `values`. */
static usmarr_array_t *f64_array(usmarr_context_t *ctx, int nd, const int64_t *shape, const double *values)
{
    usmarr_array_t *a = NULL;
    ck_assert_ok(usmarr_array_from_host(ctx, nd, shape, USMARR_FLOAT64, values, NULL, USMARR_USM_DEVICE, &a));
    return a;
}

/* out arrays, rtol (a number, and one per matrix broadcast over the stack), integer input
 * promoted to float64, the stack's first failing matrix named */
START_TEST(test_decomp_out_rtol_and_promotion)
{
    usmarr_context_t *ctx = test_context();
    if (!usmarr_context_info(ctx)->fp64) {
        usmarr_context_release(ctx);
        return;
    }
    /* two 3 x 3 matrices with singular values (4, 1e-3, 0) and (2, 1, 1e-6) */
    double v[18] = {4, 0, 0, 0, 1e-3, 0, 0, 0, 0, 0, 0, 1e-6, 0, 2, 0, 1, 0, 0};
    int64_t shape[3] = {2, 3, 3}, two[1] = {2};
    usmarr_array_t *x = f64_array(ctx, 3, shape, v), *out = NULL, *r = NULL, *rtol = NULL;
    /* svdvals into out */
    int64_t sshape[2] = {2, 3};
    ck_assert_ok(usmarr_array_zeros(ctx, 2, sshape, USMARR_FLOAT64, USMARR_ORDER_C, USMARR_USM_DEVICE, &out));
    ck_assert_ok(usmarr_linalg_svdvals(x, out, &r));
    ck_assert_ptr_eq(r, out);
    double s[6];
    ck_assert_ok(usmarr_array_copy_to_host(out, s, NULL));
    ck_assert_double_eq_tol(s[0], 4, 1e-14);
    ck_assert_double_eq_tol(s[1], 1e-3, 1e-14);
    ck_assert_double_eq_tol(s[2], 0, 1e-14);
    ck_assert_double_eq_tol(s[3], 2, 1e-14);
    ck_assert_double_eq_tol(s[5], 1e-6, 1e-14);
    usmarr_array_release(r);
    /* eigvalsh into a float32 out (same_kind) */
    usmarr_array_t *o32 = NULL;
    ck_assert_ok(usmarr_array_zeros(ctx, 2, sshape, USMARR_FLOAT32, USMARR_ORDER_C, USMARR_USM_DEVICE, &o32));
    double h[18] = {2, 0, 0, 1, 2, 0, 0, 0, 5, 1, 9, 9, 0, 1, 9, 0, 0, 1};
    usmarr_array_t *hx = f64_array(ctx, 3, shape, h);
    ck_assert_ok(usmarr_linalg_eigvalsh(hx, o32, NULL));
    float e[6];
    ck_assert_ok(usmarr_array_copy_to_host(o32, e, NULL));
    ck_assert_float_eq_tol(e[0], 1, 1e-6);
    ck_assert_float_eq_tol(e[1], 3, 1e-6);
    ck_assert_float_eq_tol(e[2], 5, 1e-6);
    ck_assert_float_eq_tol(e[3], 1, 1e-6); /* the upper triangle's 9s are not read */
    ck_assert_float_eq_tol(e[5], 1, 1e-6);
    /* matrix_rank: the default rtol (3 eps), one rtol, an rtol per matrix */
    int64_t rk[2];
    ck_assert_ok(usmarr_linalg_matrix_rank(x, NULL, NULL, &r));
    ck_assert_ok(usmarr_array_copy_to_host(r, rk, NULL));
    ck_assert_int_eq(rk[0], 2);
    ck_assert_int_eq(rk[1], 3);
    usmarr_array_release(r);
    double one = 1e-2, per[2] = {1e-4, 0.6};
    ck_assert_ok(usmarr_array_from_host(ctx, 0, NULL, USMARR_FLOAT64, &one, NULL, USMARR_USM_DEVICE, &rtol));
    ck_assert_ok(usmarr_linalg_matrix_rank(x, rtol, NULL, &r));
    ck_assert_ok(usmarr_array_copy_to_host(r, rk, NULL));
    ck_assert_int_eq(rk[0], 1);
    ck_assert_int_eq(rk[1], 2);
    usmarr_array_release(r);
    usmarr_array_release(rtol);
    rtol = f64_array(ctx, 1, two, per);
    ck_assert_ok(usmarr_linalg_matrix_rank(x, rtol, NULL, &r));
    ck_assert_ok(usmarr_array_copy_to_host(r, rk, NULL));
    ck_assert_int_eq(rk[0], 2);
    ck_assert_int_eq(rk[1], 1);
    usmarr_array_release(r);
    /* pinv with an rtol per matrix: the small singular values are dropped */
    ck_assert_ok(usmarr_linalg_pinv(x, rtol, NULL, &r));
    double p[18];
    ck_assert_ok(usmarr_array_copy_to_host(r, p, NULL));
    ck_assert_double_eq_tol(p[0], 0.25, 1e-14);
    ck_assert_double_eq_tol(p[4], 1e3, 1e-9);
    ck_assert_double_eq_tol(p[9 + 4], 0.5, 1e-14); /* of the second, only 2 is above 0.6 * 2 */
    ck_assert_double_eq_tol(p[9 + 2], 0, 1e-14);  /* 1 / 1 would be here */
    usmarr_array_release(r);
    /* int32 input computes in float64 */
    int32_t iv[4] = {3, 0, 4, 5};
    int64_t sq[2] = {2, 2};
    usmarr_array_t *ix = NULL, *q = NULL, *rr = NULL;
    ck_assert_ok(usmarr_array_from_host(ctx, 2, sq, USMARR_INT32, iv, NULL, USMARR_USM_DEVICE, &ix));
    ck_assert_ok(usmarr_linalg_qr(ix, USMARR_QR_REDUCED, &q, &rr));
    ck_assert_int_eq(usmarr_array_dtype(q), USMARR_FLOAT64);
    ck_assert_int_eq(usmarr_array_dtype(rr), USMARR_FLOAT64);
    double rv[4];
    ck_assert_ok(usmarr_array_copy_to_host(rr, rv, NULL));
    ck_assert_double_eq_tol(fabs(rv[0]), 5, 1e-14); /* |R[0][0]| = |first column| */
    ck_assert_double_eq(rv[2], 0);
    usmarr_array_release(q);
    usmarr_array_release(rr);
    usmarr_array_release(ix);
    usmarr_array_release(rtol);
    usmarr_array_release(hx);
    usmarr_array_release(o32);
    usmarr_array_release(out);
    usmarr_array_release(x);
    usmarr_context_release(ctx);
}
END_TEST

/* Every bad argument: the code, a detail that names it, no result, inputs unchanged. */
START_TEST(test_decomp_failures)
{
    usmarr_context_t *ctx = test_context();
    usmarr_dtype_t dt = usmarr_context_info(ctx)->fp64 ? USMARR_FLOAT64 : USMARR_FLOAT32;
    int64_t shape[3] = {2, 3, 4}, sq[2] = {3, 3}, vec[1] = {3}, wrong[2] = {2, 2};
    usmarr_array_t *x = NULL, *s = NULL, *v = NULL, *out = NULL, *ro = NULL, *ctx2x = NULL, *crtol = NULL;
    ck_assert_ok(usmarr_array_zeros(ctx, 3, shape, dt, USMARR_ORDER_C, USMARR_USM_DEVICE, &x));
    ck_assert_ok(usmarr_array_fill(x, usmarr_scalar_float(1.5)));
    ck_assert_ok(usmarr_array_zeros(ctx, 2, sq, dt, USMARR_ORDER_C, USMARR_USM_DEVICE, &s));
    ck_assert_ok(usmarr_array_zeros(ctx, 1, vec, dt, USMARR_ORDER_C, USMARR_USM_DEVICE, &v));
    ck_assert_ok(usmarr_array_zeros(ctx, 2, wrong, dt, USMARR_ORDER_C, USMARR_USM_DEVICE, &out));
    ck_assert_ok(usmarr_array_zeros(ctx, 2, wrong, dt, USMARR_ORDER_C, USMARR_USM_DEVICE, &ro));
    ck_assert_ok(usmarr_array_make_read_only(ro));
    ck_assert_ok(usmarr_array_zeros(ctx, 0, NULL, USMARR_COMPLEX64, USMARR_ORDER_C, USMARR_USM_DEVICE, &crtol));
    usmarr_array_t *a = NULL, *b = NULL, *c = NULL;
    /* NULL arguments */
    ck_assert_fails_with(usmarr_linalg_qr(NULL, USMARR_QR_REDUCED, &a, &b), USMARR_ERROR_INVALID_ARGUMENT, "x is NULL");
    ck_assert_fails_with(usmarr_linalg_qr(x, USMARR_QR_REDUCED, NULL, &b), USMARR_ERROR_INVALID_ARGUMENT, "q is NULL");
    ck_assert_fails_with(usmarr_linalg_qr(x, USMARR_QR_REDUCED, &a, NULL), USMARR_ERROR_INVALID_ARGUMENT, "r is NULL");
    ck_assert_fails_with(usmarr_linalg_qr(x, (usmarr_qr_mode_t)7, &a, &b), USMARR_ERROR_INVALID_ARGUMENT, "mode=7");
    ck_assert_ptr_null(a);
    ck_assert_ptr_null(b);
    ck_assert_fails_with(usmarr_linalg_eigh(NULL, &a, &b), USMARR_ERROR_INVALID_ARGUMENT, "x is NULL");
    ck_assert_fails_with(usmarr_linalg_eigh(s, NULL, &b), USMARR_ERROR_INVALID_ARGUMENT, "eigenvalues is NULL");
    ck_assert_fails_with(usmarr_linalg_eigh(s, &a, NULL), USMARR_ERROR_INVALID_ARGUMENT, "eigenvectors is NULL");
    ck_assert_fails_with(usmarr_linalg_svd(NULL, false, &a, &b, &c), USMARR_ERROR_INVALID_ARGUMENT, "x is NULL");
    ck_assert_fails_with(usmarr_linalg_svd(x, false, NULL, &b, &c), USMARR_ERROR_INVALID_ARGUMENT, "u is NULL");
    ck_assert_fails_with(usmarr_linalg_svd(x, false, &a, NULL, &c), USMARR_ERROR_INVALID_ARGUMENT, "s is NULL");
    ck_assert_fails_with(usmarr_linalg_svd(x, false, &a, &b, NULL), USMARR_ERROR_INVALID_ARGUMENT, "vh is NULL");
    ck_assert_fails_with(usmarr_linalg_svdvals(x, NULL, NULL), USMARR_ERROR_INVALID_ARGUMENT, "result is NULL");
    ck_assert_fails_with(usmarr_linalg_eigvalsh(s, NULL, NULL), USMARR_ERROR_INVALID_ARGUMENT, "result is NULL");
    ck_assert_fails_with(usmarr_linalg_matrix_rank(x, NULL, NULL, NULL), USMARR_ERROR_INVALID_ARGUMENT,
                         "result is NULL");
    ck_assert_fails_with(usmarr_linalg_pinv(x, NULL, NULL, NULL), USMARR_ERROR_INVALID_ARGUMENT, "result is NULL");
    ck_assert_fails_with(usmarr_linalg_svdvals(NULL, NULL, &a), USMARR_ERROR_INVALID_ARGUMENT, "x is NULL");
    ck_assert_fails_with(usmarr_linalg_pinv(NULL, NULL, NULL, &a), USMARR_ERROR_INVALID_ARGUMENT, "x is NULL");
    /* shapes: 1-D, not square, empty matrices where a value is undefined */
    ck_assert_fails_with(usmarr_linalg_qr(v, USMARR_QR_REDUCED, &a, &b), USMARR_ERROR_SHAPE_MISMATCH, "x has 1 dims");
    ck_assert_fails_with(usmarr_linalg_svd(v, true, &a, &b, &c), USMARR_ERROR_SHAPE_MISMATCH, "at least 2");
    ck_assert_fails_with(usmarr_linalg_eigh(x, &a, &b), USMARR_ERROR_SHAPE_MISMATCH, "3 x 4");
    ck_assert_fails_with(usmarr_linalg_eigvalsh(x, NULL, &a), USMARR_ERROR_SHAPE_MISMATCH, "must be square");
    int64_t empty[2] = {3, 0};
    usmarr_array_t *e = NULL;
    ck_assert_ok(usmarr_array_zeros(ctx, 2, empty, dt, USMARR_ORDER_C, USMARR_USM_DEVICE, &e));
    ck_assert_fails_with(usmarr_linalg_matrix_rank(e, NULL, NULL, &a), USMARR_ERROR_SHAPE_MISMATCH, "3 x 0");
    /* out: wrong shape, read-only, a dtype it cannot take */
    ck_assert_fails_with(usmarr_linalg_svdvals(x, out, NULL), USMARR_ERROR_SHAPE_MISMATCH, "shape");
    ck_assert_fails_with(usmarr_linalg_svdvals(x, ro, NULL), USMARR_ERROR_READ_ONLY, "out");
    ck_assert_fails_with(usmarr_linalg_pinv(x, NULL, out, NULL), USMARR_ERROR_SHAPE_MISMATCH, "shape");
    usmarr_array_t *iout = NULL;
    int64_t rshape[1] = {2};
    ck_assert_ok(usmarr_array_zeros(ctx, 1, rshape, USMARR_INT8, USMARR_ORDER_C, USMARR_USM_DEVICE, &iout));
    ck_assert_fails_with(usmarr_linalg_svdvals(s, iout, NULL), USMARR_ERROR_SHAPE_MISMATCH, "shape");
    int64_t sv1[1] = {3};
    usmarr_array_t *iout3 = NULL;
    ck_assert_ok(usmarr_array_zeros(ctx, 1, sv1, USMARR_INT8, USMARR_ORDER_C, USMARR_USM_DEVICE, &iout3));
    ck_assert_fails_with(usmarr_linalg_svdvals(s, iout3, NULL), USMARR_ERROR_CASTING, "");
    /* rtol: complex, more dims than the stack, another context */
    ck_assert_fails_with(usmarr_linalg_matrix_rank(x, crtol, NULL, &a), USMARR_ERROR_BAD_DTYPE, "rtol is complex");
    int64_t big[3] = {5, 1, 1};
    usmarr_array_t *brtol = NULL;
    ck_assert_ok(usmarr_array_zeros(ctx, 3, big, dt, USMARR_ORDER_C, USMARR_USM_DEVICE, &brtol));
    ck_assert_fails_with(usmarr_linalg_matrix_rank(x, brtol, NULL, &a), USMARR_ERROR_SHAPE_MISMATCH, "rtol");
    ck_assert_fails_with(usmarr_linalg_pinv(x, brtol, NULL, &a), USMARR_ERROR_SHAPE_MISMATCH, "rtol");
    int64_t three[1] = {3};
    usmarr_array_t *nrtol = NULL;
    ck_assert_ok(usmarr_array_zeros(ctx, 1, three, dt, USMARR_ORDER_C, USMARR_USM_DEVICE, &nrtol));
    ck_assert_fails_with(usmarr_linalg_matrix_rank(x, nrtol, NULL, &a), USMARR_ERROR_SHAPE_MISMATCH, "");
    usmarr_context_t *ctx2 = test_context();
    ck_assert_ok(usmarr_array_zeros(ctx2, 0, NULL, dt, USMARR_ORDER_C, USMARR_USM_DEVICE, &ctx2x));
    ck_assert_fails_with(usmarr_linalg_matrix_rank(x, ctx2x, NULL, &a), USMARR_ERROR_CONTEXT_MISMATCH, "rtol");
    ck_assert_ptr_null(a);
    /* the inputs are unchanged */
    double host[24];
    usmarr_array_t *x64 = NULL;
    ck_assert_ok(usmarr_array_astype(x, USMARR_FLOAT64, USMARR_ORDER_C, NULL, &x64));
    ck_assert_ok(usmarr_array_copy_to_host(x64, host, NULL));
    for (int i = 0; i < 24; i++)
        ck_assert_double_eq(host[i], 1.5);
    usmarr_array_release(x64);
    usmarr_array_release(ctx2x);
    usmarr_context_release(ctx2);
    usmarr_array_release(nrtol);
    usmarr_array_release(brtol);
    usmarr_array_release(iout);
    usmarr_array_release(iout3);
    usmarr_array_release(e);
    usmarr_array_release(crtol);
    usmarr_array_release(ro);
    usmarr_array_release(out);
    usmarr_array_release(v);
    usmarr_array_release(s);
    usmarr_array_release(x);
    usmarr_context_release(ctx);
}
END_TEST

/* A Jacobi or a bidiagonal QR that has not converged within its sweep limit (lowered to 1
 * here) fails the call with USMARR_ERROR_LINALG naming the first such matrix; a diagonal
 * matrix needs no sweep beyond the first. */
START_TEST(test_decomp_sweep_limit_names_the_matrix)
{
    usmarr_context_t *ctx = test_context();
    usmarr_dtype_t dt = usmarr_context_info(ctx)->fp64 ? USMARR_FLOAT64 : USMARR_FLOAT32;
    double v[3 * 16] = {0};
    for (int i = 0; i < 4; i++)
        v[i * 5] = i + 1; /* matrix 0 diagonal */
    for (int z = 1; z < 3; z++)
        for (int i = 0; i < 16; i++)
            v[z * 16 + i] = (double)((i * 7 + z * 3) % 11) - 5;
    int64_t shape[3] = {3, 4, 4};
    usmarr_array_t *h = f64_array(ctx, 3, shape, v), *x = NULL, *a = NULL, *b = NULL, *c = NULL, *d = NULL;
    ck_assert_ok(usmarr_array_astype(h, dt, USMARR_ORDER_C, NULL, &x));
    setenv("USMARR_LINALG_SWEEPS", "1", 1);
    ck_assert_fails_with(usmarr_linalg_eigh(x, &a, &b), USMARR_ERROR_LINALG, "matrix 1 of the stack");
    ck_assert_ptr_null(a);
    ck_assert_ptr_null(b);
    ck_assert_fails_with(usmarr_linalg_eigvalsh(x, NULL, &a), USMARR_ERROR_LINALG, "did not converge");
    ck_assert_fails_with(usmarr_linalg_svd(x, false, &a, &b, &c), USMARR_ERROR_LINALG, "batch index (1,)");
    ck_assert_fails_with(usmarr_linalg_svdvals(x, NULL, &d), USMARR_ERROR_LINALG, "matrix 1");
    ck_assert_ptr_null(a);
    ck_assert_ptr_null(d);
    unsetenv("USMARR_LINALG_SWEEPS");
    ck_assert_ok(usmarr_linalg_eigh(x, &a, &b));
    usmarr_array_release(a);
    usmarr_array_release(b);
    usmarr_array_release(x);
    usmarr_array_release(h);
    /* the bidiagonal QR of order 64 (at most `sweeps` n sweeps): a diagonal matrix needs
     * none, a random one about two per singular value */
    int64_t big[3] = {2, 70, 64};
    double *w = calloc(2 * 70 * 64, sizeof *w);
    uint64_t state = 99;
    for (int i = 0; i < 64; i++)
        w[i * 65] = 64 - i;
    for (int i = 0; i < 70 * 64; i++) {
        state = state * 6364136223846793005u + 1442695040888963407u;
        w[70 * 64 + i] = (double)(state >> 11) / 9007199254740992.0 - 0.5;
    }
    h = f64_array(ctx, 3, big, w);
    ck_assert_ok(usmarr_array_astype(h, dt, USMARR_ORDER_C, NULL, &x));
    setenv("USMARR_LINALG_SWEEPS", "1", 1);
    ck_assert_fails_with(usmarr_linalg_svd(x, true, &a, &b, &c), USMARR_ERROR_LINALG,
                         "matrix 1 of the stack, at batch index (1,), did not converge");
    ck_assert_ptr_null(a);
    ck_assert_ptr_null(c);
    ck_assert_fails_with(usmarr_linalg_svdvals(x, NULL, &d), USMARR_ERROR_LINALG, "matrix 1");
    ck_assert_ptr_null(d);
    unsetenv("USMARR_LINALG_SWEEPS");
    ck_assert_ok(usmarr_linalg_svdvals(x, NULL, &d));
    double sv[2 * 64];
    usmarr_array_t *d64 = NULL;
    ck_assert_ok(usmarr_array_astype(d, USMARR_FLOAT64, USMARR_ORDER_C, NULL, &d64));
    ck_assert_ok(usmarr_array_copy_to_host(d64, sv, NULL));
    for (int i = 0; i < 64; i++) /* the diagonal matrix's own values, descending */
        ck_assert_double_eq(sv[i], 64 - i);
    usmarr_array_release(d64);
    usmarr_array_release(d);
    usmarr_array_release(x);
    usmarr_array_release(h);
    free(w);
    usmarr_context_release(ctx);
}
END_TEST

/* Matrix 1 of a stack whose other matrices are NaN, infinite, zero or dense random ones
 * (which need more sweeps than matrix 1, nearly diagonal with some -0 elements) gives bit
 * for bit what it gives alone: no lane, neighbour or group size enters a matrix's results
 * (small Jacobi and QR of odd and even order, several matrices a work-item; the SVD with
 * its QR; the tridiagonal QL of order 64; from order 64 the bidiagonal SVD, whose
 * reduction spreads over work-groups from 128 rows). */
START_TEST(test_decomp_neighbours_do_not_matter)
{
    usmarr_context_t *ctx = test_context();
    usmarr_dtype_t dt = usmarr_context_info(ctx)->fp64 ? USMARR_FLOAT64 : USMARR_FLOAT32;
    static const int64_t orders[4] = {5, 6, 64, 140};
    for (int o = 0; o < 4; o++) {
        int64_t n = orders[o], count = 7;
        double *values = malloc(sizeof(double) * (size_t)(count * n * n));
        uint64_t state = 12345;
        for (int64_t m = 0; m < count; m++)
            for (int64_t i = 0; i < n * n; i++) {
                state = state * 6364136223846793005u + 1442695040888963407u;
                double u = (double)(state >> 11) / 9007199254740992.0 - 0.5;
                bool diag = i / n == i % n;
                values[m * n * n + i] = m == 0 || m == 2 ? NAN
                                        : m == 3         ? 0
                                        : m == 4         ? INFINITY
                                        : m != 1         ? u
                                        : diag           ? (double)(i / n) + u
                                        : i % 3 == 0     ? -0.0
                                                         : u * 1e-3;
            }
        int64_t shape[3] = {count, n, n}, one[3] = {1, n, n};
        usmarr_array_t *h = NULL, *stack = NULL, *hs = NULL, *single = NULL;
        ck_assert_ok(usmarr_array_from_host(ctx, 3, shape, USMARR_FLOAT64, values, NULL, USMARR_USM_DEVICE, &h));
        ck_assert_ok(usmarr_array_astype(h, dt, USMARR_ORDER_C, NULL, &stack));
        ck_assert_ok(usmarr_array_from_host(ctx, 3, one, USMARR_FLOAT64, values + n * n, NULL, USMARR_USM_DEVICE, &hs));
        ck_assert_ok(usmarr_array_astype(hs, dt, USMARR_ORDER_C, NULL, &single));
        usmarr_array_t *r[2][7] = {{NULL}};
        const usmarr_array_t *inputs[2] = {stack, single};
        for (int k = 0; k < 2; k++) {
            ck_assert_ok(usmarr_linalg_eigh(inputs[k], &r[k][0], &r[k][1]));
            ck_assert_ok(usmarr_linalg_svd(inputs[k], true, &r[k][2], &r[k][3], &r[k][4]));
            ck_assert_ok(usmarr_linalg_qr(inputs[k], USMARR_QR_REDUCED, &r[k][5], &r[k][6]));
        }
        for (int j = 0; j < 7; j++) {
            int64_t per = usmarr_array_size(r[1][j]);
            size_t bytes = (size_t)per * usmarr_array_itemsize(r[1][j]);
            unsigned char *all = malloc(bytes * (size_t)count), *alone = malloc(bytes);
            ck_assert_ok(usmarr_array_copy_to_host(r[0][j], all, NULL));
            ck_assert_ok(usmarr_array_copy_to_host(r[1][j], alone, NULL));
            ck_assert_msg(!memcmp(all + bytes, alone, bytes), "order %lld: result %d of matrix 1 depends on its neighbours",
                          (long long)n, j);
            free(all);
            free(alone);
            usmarr_array_release(r[0][j]);
            usmarr_array_release(r[1][j]);
        }
        usmarr_array_release(single);
        usmarr_array_release(hs);
        usmarr_array_release(stack);
        usmarr_array_release(h);
        free(values);
    }
    usmarr_context_release(ctx);
}
END_TEST

Suite *suite_decomp(void)
{
    load_cases();
    Suite *s = suite_create("decomp");
    TCase *tc = tcase_create("numpy");
    tcase_set_timeout(tc, 0);
    tcase_add_loop_test(tc, test_decomp_numpy_cases, 0, ncases > 0 ? ncases : 1);
    suite_add_tcase(s, tc);
    tc = tcase_create("behaviour");
    tcase_set_timeout(tc, 0);
    tcase_add_test(tc, test_decomp_out_rtol_and_promotion);
    tcase_add_test(tc, test_decomp_failures);
    tcase_add_test(tc, test_decomp_sweep_limit_names_the_matrix);
    tcase_add_test(tc, test_decomp_neighbours_do_not_matter);
    suite_add_tcase(s, tc);
    return s;
}
