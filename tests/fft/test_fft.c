/* The transforms of usmarr/fft.h against NumPy 2: the "fcase" entries of
 * tests/fft_cases.txt (tests/gen/gen_fft_cases.py), each within FFT_C log2(N) eps ||x||
 * of NumPy's float64 result (the file's TOL).  Hand-written checks follow for what the
 * file cannot say, against plain C loops on the host: round trips at long lengths, the
 * Hermitian symmetry of real input, rows that do not see their neighbours' NaN, out
 * arrays and aliasing, many lengths through the bounded plan cache, and every function's
 * failures. */
#include "../harness/common.h"

#include "../harness/case_file.h"

#include <complex.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define MAX_CASES 1024
#define FFT_C 8.0 /* the c of c log2(N) eps ||x||: measured errors stay below 3 */

static struct case_entry *cases;
static int ncases;

static void load_cases(void)
{
    if (cases)
        return;
    cases = case_file_load_built("fft_cases.txt", "fcase", MAX_CASES, &ncases);
}

static bool is_complex(usmarr_dtype_t dt) { return usmarr_dtype_kind(dt) == USMARR_KIND_COMPLEX; }

static double *parse_values(const char *s, int64_t n)
{
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

/* x DTYPE ; BASE ; VIEW ; VALUES: the base array, then its view */
static usmarr_array_t *operand(usmarr_context_t *ctx, const char *line_in)
{
    char *line = strdup(line_in + 2), *f[4];
    ck_assert_int_eq(case_fields(line, f, 4), 4);
    usmarr_dtype_t dt = case_dtype_named(f[0]);
    int64_t shape[USMARR_MAX_NDIM];
    int nd = case_ints(f[1], shape, USMARR_MAX_NDIM);
    bool cplx = is_complex(dt);
    double *v = parse_values(f[3], product(nd, shape) * (cplx ? 2 : 1));
    usmarr_array_t *host = NULL, *a = NULL, *b = NULL;
    ck_assert_ok(usmarr_array_from_host(ctx, nd, shape, cplx ? USMARR_COMPLEX128 : USMARR_FLOAT64, v, NULL,
                                        USMARR_USM_DEVICE, &host));
    ck_assert_ok(usmarr_array_astype(host, dt, USMARR_ORDER_C, NULL, &a));
    usmarr_array_release(host);
    free(v);
    if (!strcmp(f[2], "T")) {
        ck_assert_ok(usmarr_array_transpose(a, &b));
        usmarr_array_release(a);
        a = b;
    } else if (strcmp(f[2], "-")) {
        ck_assert_ok(usmarr_array_index_text(a, f[2], &b));
        usmarr_array_release(a);
        a = b;
    }
    free(line);
    return a;
}

/* r against "expect DTYPE ; SHAPE ; TOL ; VALUES" */
static void check_result(const usmarr_array_t *r, const char *line_in, const char *name)
{
    char *line = strdup(line_in + 7), *f[4];
    int nf = case_fields(line, f, 4);
    ck_assert_int_ge(nf, 3);
    usmarr_dtype_t dt = case_dtype_named(f[0]);
    ck_assert_msg(usmarr_array_dtype(r) == dt, "%s: dtype %s, NumPy %s", name, usmarr_dtype_name(usmarr_array_dtype(r)),
                  f[0]);
    int64_t shape[USMARR_MAX_NDIM];
    int nd = case_ints(f[1], shape, USMARR_MAX_NDIM);
    ck_assert_int_eq(usmarr_array_ndim(r), nd);
    for (int i = 0; i < nd; i++)
        ck_assert_int_eq(usmarr_array_shape(r)[i], shape[i]);
    double tol = strtod(f[2], NULL);
    bool cplx = is_complex(dt), single = dt == USMARR_FLOAT32 || dt == USMARR_COMPLEX64;
    int64_t n = product(nd, shape), nv = n * (cplx ? 2 : 1);
    double *want = parse_values(nf >= 4 ? f[3] : "", nv);
    double *got = malloc(sizeof(double) * (size_t)(nv ? nv : 1));
    usmarr_array_t *c = NULL;
    ck_assert_ok(usmarr_array_astype(r, cplx ? USMARR_COMPLEX128 : USMARR_FLOAT64, USMARR_ORDER_C, NULL, &c));
    ck_assert_ok(usmarr_array_copy_to_host(c, got, NULL));
    usmarr_array_release(c);
    double worst = 0;
    int64_t at = 0;
    for (int64_t i = 0; i < nv; i++) {
        if (tol < 0) /* special values: NaN and infinity where NumPy has them */
            ck_assert_msg(isnan(want[i])   ? isnan(got[i])
                          : isinf(want[i]) ? !isfinite(got[i])
                                           : true,
                          "%s: value %lld is %g, NumPy %g", name, (long long)i, got[i], want[i]);
        else if (tol == 0) /* in the result's precision */
            ck_assert_msg(single ? (float)got[i] == (float)want[i] : got[i] == want[i],
                          "%s: value %lld is %.17g, NumPy %.17g", name, (long long)i, got[i], want[i]);
        else if (isnan(want[i])) /* a NaN input's outputs among finite ones (lanes) */
            ck_assert_msg(isnan(got[i]), "%s: value %lld is %g, NumPy NaN", name, (long long)i, got[i]);
        else {
            ck_assert_msg(!isnan(got[i]), "%s: value %lld is NaN, NumPy %.17g", name, (long long)i, want[i]);
            double e = fabs(got[i] - want[i]);
            if (!(e <= worst)) {
                worst = e;
                at = i;
            }
        }
    }
    if (tol > 0)
        ck_assert_msg(worst <= FFT_C * tol, "%s: value %lld is %.17g, NumPy %.17g: error %.3g > %g log2(N) eps ||x||",
                      name, (long long)at, got[at], want[at], worst, FFT_C);
    free(want);
    free(got);
    free(line);
}

static usmarr_fft_norm_t norm_named(const char *s)
{
    return !strncmp(s, "ortho", 5)     ? USMARR_FFT_NORM_ORTHO
           : !strncmp(s, "forward", 7) ? USMARR_FFT_NORM_FORWARD
                                       : USMARR_FFT_NORM_BACKWARD;
}

typedef int (*fft1_fn)(const usmarr_array_t *, const int64_t *, int, usmarr_fft_norm_t, usmarr_array_t *,
                       usmarr_array_t **);
typedef int (*fftn_fn)(const usmarr_array_t *, int, const int *, const int64_t *, usmarr_fft_norm_t, usmarr_array_t *,
                       usmarr_array_t **);
static const struct {
    const char *name;
    fft1_fn one;
    fftn_fn many;
} FUNCTIONS[] = {{"fft", usmarr_fft, NULL},      {"ifft", usmarr_ifft, NULL},   {"rfft", usmarr_rfft, NULL},
                 {"irfft", usmarr_irfft, NULL},  {"hfft", usmarr_hfft, NULL},   {"ihfft", usmarr_ihfft, NULL},
                 {"fftn", NULL, usmarr_fftn},    {"ifftn", NULL, usmarr_ifftn}, {"rfftn", NULL, usmarr_rfftn},
                 {"irfftn", NULL, usmarr_irfftn}};

static void run_case(usmarr_context_t *ctx, const struct case_entry *e)
{
    const char *op = e->lines[0] + 3;
    char fn[16];
    int len = 0;
    ck_assert_int_eq(sscanf(op, "%15s %n", fn, &len), 1);
    const char *rest = op + len;
    usmarr_array_t *x = NULL, *r = NULL;
    if (!strcmp(fn, "fftfreq") || !strcmp(fn, "rfftfreq")) {
        long long n;
        double d;
        char dts[16];
        ck_assert_int_eq(sscanf(rest, "%lld %lf %15s", &n, &d, dts), 3);
        usmarr_dtype_t dt = case_dtype_named(dts);
        if (test_dtype_skipped(ctx, dt))
            return;
        ck_assert_ok((fn[0] == 'f' ? usmarr_fftfreq : usmarr_rfftfreq)(ctx, n, d, dt, USMARR_USM_DEVICE, &r));
        check_result(r, e->lines[1], e->name);
        usmarr_array_release(r);
        return;
    }
    x = operand(ctx, e->lines[1]);
    if (test_dtype_skipped(ctx, usmarr_array_dtype(x))) {
        usmarr_array_release(x);
        return;
    }
    if (!strcmp(fn, "fftshift") || !strcmp(fn, "ifftshift")) {
        int64_t v[USMARR_MAX_NDIM];
        int na = case_ints(rest, v, USMARR_MAX_NDIM), axes[USMARR_MAX_NDIM];
        for (int i = 0; i < na; i++)
            axes[i] = (int)v[i];
        ck_assert_ok((fn[0] == 'f' ? usmarr_fftshift : usmarr_ifftshift)(x, na ? na : -1, na ? axes : NULL, NULL, &r));
    } else {
        unsigned k = 0;
        while (k < sizeof FUNCTIONS / sizeof FUNCTIONS[0] && strcmp(FUNCTIONS[k].name, fn))
            k++;
        ck_assert_msg(k < sizeof FUNCTIONS / sizeof FUNCTIONS[0], "unknown function %s", fn);
        if (FUNCTIONS[k].one) {
            char nbuf[32], normbuf[16];
            int axis;
            ck_assert_int_eq(sscanf(rest, "%31s %d %15s", nbuf, &axis, normbuf), 3);
            int64_t n = strtoll(nbuf, NULL, 10);
            ck_assert_ok(FUNCTIONS[k].one(x, strcmp(nbuf, "-") ? &n : NULL, axis, norm_named(normbuf), NULL, &r));
        } else {
            char *line = strdup(rest), *f[3];
            ck_assert_int_eq(case_fields(line, f, 3), 3);
            int64_t av[USMARR_MAX_NDIM], s[USMARR_MAX_NDIM];
            int na = strcmp(f[1], "-") ? case_ints(f[1], av, USMARR_MAX_NDIM) : 0;
            int ns = strcmp(f[2], "-") ? case_ints(f[2], s, USMARR_MAX_NDIM) : 0, axes[USMARR_MAX_NDIM];
            for (int i = 0; i < na; i++)
                axes[i] = (int)av[i];
            int naxes = na ? na : ns ? ns : -1;
            ck_assert_ok(FUNCTIONS[k].many(x, naxes, na ? axes : NULL, ns ? s : NULL, norm_named(f[0]), NULL, &r));
            free(line);
        }
    }
    check_result(r, e->lines[2], e->name);
    usmarr_array_release(r);
    usmarr_array_release(x);
}

START_TEST(test_fft_numpy_cases)
{
    ck_assert_msg(ncases >= 500, "tests/fft_cases.txt has %d cases (run make check to generate it)", ncases);
    usmarr_context_t *ctx = test_shared_context();
    run_case(ctx, &cases[_i]);
    usmarr_context_release(ctx);
}
END_TEST

/* ---- host oracles --------------------------------------------------------------------- */

/* sum_j x_j exp(sign 2 pi i j k / n), in long double */
static void host_dft(const double complex *x, int64_t n, int sign, double complex *y)
{
    for (int64_t k = 0; k < n; k++) {
        long double complex s = 0;
        for (int64_t j = 0; j < n; j++) {
            long double a = 2 * 3.14159265358979323846264338327950288L * (long double)((j * k) % n) / (long double)n;
            s += x[j] * (cosl(a) + sign * I * sinl(a));
        }
        y[k] = (double complex)s;
    }
}

static double complex *random_complex(int64_t n, unsigned seed)
{
    double complex *v = malloc(sizeof(double complex) * (size_t)n);
    srand(seed);
    for (int64_t i = 0; i < n; i++)
        v[i] = (rand() / (double)RAND_MAX - 0.5) + I * (rand() / (double)RAND_MAX - 0.5);
    return v;
}

static usmarr_array_t *device_complex(usmarr_context_t *ctx, int nd, const int64_t *shape, const double complex *v,
                                      usmarr_dtype_t dt)
{
    usmarr_array_t *h = NULL, *a = NULL;
    ck_assert_ok(usmarr_array_from_host(ctx, nd, shape, USMARR_COMPLEX128, v, NULL, USMARR_USM_DEVICE, &h));
    ck_assert_ok(usmarr_array_astype(h, dt, USMARR_ORDER_C, NULL, &a));
    usmarr_array_release(h);
    return a;
}

static double complex *host_complex(const usmarr_array_t *a)
{
    int64_t n = 1;
    for (int i = 0; i < usmarr_array_ndim(a); i++)
        n *= usmarr_array_shape(a)[i];
    double complex *v = malloc(sizeof(double complex) * (size_t)(n ? n : 1));
    usmarr_array_t *c = NULL;
    ck_assert_ok(usmarr_array_astype(a, USMARR_COMPLEX128, USMARR_ORDER_C, NULL, &c));
    ck_assert_ok(usmarr_array_copy_to_host(c, v, NULL));
    usmarr_array_release(c);
    return v;
}

static double norm2(const double complex *v, int64_t n)
{
    double s = 0;
    for (int64_t i = 0; i < n; i++)
        s += creal(v[i] * conj(v[i]));
    return sqrt(s);
}

/* ifft(fft(x)) = x within FFT_C log2(n) eps ||x||, at long Bluestein, prime and
 * power-of-two lengths */
START_TEST(test_fft_round_trips)
{
    usmarr_context_t *ctx = test_context();
    static const struct {
        int64_t n;
        usmarr_dtype_t dt;
    } runs[] = {{65537, USMARR_COMPLEX64},
                {1 << 16, USMARR_COMPLEX64},
                {1 << 20, USMARR_COMPLEX64},
                {10007, USMARR_COMPLEX128},
                {3 * 5 * 7 * 11 * 13 * 16, USMARR_COMPLEX128}};
    for (unsigned t = 0; t < sizeof runs / sizeof runs[0]; t++) {
        if (test_dtype_skipped(ctx, runs[t].dt))
            continue;
        int64_t n = runs[t].n;
        double complex *v = random_complex(n, (unsigned)t + 1);
        usmarr_array_t *x = device_complex(ctx, 1, &n, v, runs[t].dt), *f = NULL, *b = NULL;
        ck_assert_ok(usmarr_fft(x, NULL, 0, USMARR_FFT_NORM_ORTHO, NULL, &f));
        ck_assert_ok(usmarr_ifft(f, NULL, 0, USMARR_FFT_NORM_ORTHO, NULL, &b));
        double complex *w = host_complex(b), *xr = host_complex(x);
        double eps = runs[t].dt == USMARR_COMPLEX64 ? 1.1920929e-7 : 2.220446e-16, worst = 0;
        for (int64_t i = 0; i < n; i++)
            worst = fmax(worst, cabs(w[i] - xr[i]));
        double bound = FFT_C * log2((double)n) * eps * norm2(xr, n) / sqrt((double)n);
        ck_assert_msg(worst <= bound, "n=%lld %s: round trip error %.3g > %.3g", (long long)n,
                      usmarr_dtype_name(runs[t].dt), worst, bound);
        free(v);
        free(w);
        free(xr);
        usmarr_array_release(x);
        usmarr_array_release(f);
        usmarr_array_release(b);
    }
    usmarr_context_release(ctx);
}
END_TEST

/* fft of a real signal is Hermitian (X_k = conj(X_{n-k})); rfft is its first half, both
 * against the host DFT */
START_TEST(test_fft_hermitian_symmetry)
{
    usmarr_context_t *ctx = test_context();
    for (int64_t n = 998; n <= 999; n++) {
        double *v = malloc(sizeof(double) * (size_t)n);
        double complex *vc = malloc(sizeof(double complex) * (size_t)n),
                       *ref = malloc(sizeof(double complex) * (size_t)n);
        srand((unsigned)n);
        for (int64_t i = 0; i < n; i++)
            vc[i] = v[i] = rand() / (double)RAND_MAX - 0.5;
        host_dft(vc, n, -1, ref);
        usmarr_array_t *x = NULL, *f = NULL, *rf = NULL;
        ck_assert_ok(usmarr_array_from_host(ctx, 1, &n, USMARR_FLOAT64, v, NULL, USMARR_USM_DEVICE, &x));
        ck_assert_ok(usmarr_fft(x, NULL, -1, USMARR_FFT_NORM_BACKWARD, NULL, &f));
        ck_assert_ok(usmarr_rfft(x, NULL, -1, USMARR_FFT_NORM_BACKWARD, NULL, &rf));
        ck_assert_int_eq(usmarr_array_shape(rf)[0], n / 2 + 1);
        double complex *F = host_complex(f), *RF = host_complex(rf);
        double tol = FFT_C * log2((double)n) * 2.220446e-16 * norm2(vc, n);
        for (int64_t k = 0; k < n; k++) {
            ck_assert_msg(cabs(F[k] - conj(F[(n - k) % n])) <= 2 * tol, "n=%lld: X[%lld] is not conj(X[n-k])",
                          (long long)n, (long long)k);
            ck_assert_msg(cabs(F[k] - ref[k]) <= tol, "n=%lld: fft[%lld] off the host DFT", (long long)n, (long long)k);
            if (k <= n / 2)
                ck_assert_msg(cabs(RF[k] - ref[k]) <= tol, "n=%lld: rfft[%lld] off the host DFT", (long long)n,
                              (long long)k);
        }
        ck_assert_double_eq(cimag(RF[0]), 0);
        free(v);
        free(vc);
        free(ref);
        free(F);
        free(RF);
        usmarr_array_release(x);
        usmarr_array_release(f);
        usmarr_array_release(rf);
    }
    usmarr_context_release(ctx);
}
END_TEST

/* A row's NaN stays in its row: every other row of a batch is finite and right, in every
 * kernel (power of two, odd radix, generic radix, Bluestein, real) */
START_TEST(test_fft_rows_independent)
{
    usmarr_context_t *ctx = test_context();
    static const int64_t lengths[] = {16, 21, 23, 41, 64};
    for (unsigned t = 0; t < sizeof lengths / sizeof lengths[0]; t++) {
        int64_t n = lengths[t], rows = 37, shape[2] = {rows, n};
        double complex *v = random_complex(rows * n, 7u + t), *ref = malloc(sizeof(double complex) * (size_t)n);
        v[5 * n + 3] = NAN;
        usmarr_array_t *x = device_complex(ctx, 2, shape, v, USMARR_COMPLEX64), *f = NULL;
        ck_assert_ok(usmarr_fft(x, NULL, -1, USMARR_FFT_NORM_BACKWARD, NULL, &f));
        double complex *F = host_complex(f);
        for (int64_t r = 0; r < rows; r++) {
            if (r == 5) {
                for (int64_t k = 0; k < n; k++)
                    ck_assert_msg(isnan(creal(F[r * n + k])) || isnan(cimag(F[r * n + k])),
                                  "n=%lld: the NaN row's output %lld is finite", (long long)n, (long long)k);
                continue;
            }
            double complex *row = host_complex(x); /* the values as the device holds them */
            host_dft(row + r * n, n, -1, ref);
            for (int64_t k = 0; k < n; k++)
                ck_assert_msg(cabs(F[r * n + k] - ref[k]) <= FFT_C * log2((double)n) * 1.2e-7 * norm2(row + r * n, n),
                              "n=%lld row %lld output %lld: %g%+gi, host %g%+gi", (long long)n, (long long)r,
                              (long long)k, creal(F[r * n + k]), cimag(F[r * n + k]), creal(ref[k]), cimag(ref[k]));
            free(row);
        }
        free(v);
        free(ref);
        free(F);
        usmarr_array_release(x);
        usmarr_array_release(f);
    }
    usmarr_context_release(ctx);
}
END_TEST

/* out of a wider dtype; out aliasing x (computed as if x were read first); a result equal
 * to the host DFT either way */
START_TEST(test_fft_out_arrays)
{
    usmarr_context_t *ctx = test_context();
    int64_t n = 24;
    double complex *v = random_complex(n, 3), *ref = malloc(sizeof(double complex) * (size_t)n);
    host_dft(v, n, -1, ref);
    usmarr_array_t *x = device_complex(ctx, 1, &n, v, USMARR_COMPLEX128), *o = NULL, *r = NULL;
    ck_assert_ok(usmarr_array_zeros(ctx, 1, &n, USMARR_COMPLEX128, USMARR_ORDER_C, USMARR_USM_DEVICE, &o));
    ck_assert_ok(usmarr_fft(x, NULL, 0, USMARR_FFT_NORM_BACKWARD, o, &r));
    ck_assert_ptr_eq(r, o);
    usmarr_array_release(r);
    double complex *got = host_complex(o);
    for (int64_t k = 0; k < n; k++)
        ck_assert_msg(cabs(got[k] - ref[k]) < 1e-13, "out: value %lld", (long long)k);
    free(got);
    /* in place */
    ck_assert_ok(usmarr_fft(x, NULL, 0, USMARR_FFT_NORM_BACKWARD, x, NULL));
    got = host_complex(x);
    for (int64_t k = 0; k < n; k++)
        ck_assert_msg(cabs(got[k] - ref[k]) < 1e-13, "in place: value %lld", (long long)k);
    free(got);
    /* a strided out: every second element of a longer array */
    usmarr_array_t *big = NULL, *every2 = NULL;
    int64_t n2 = 2 * n;
    ck_assert_ok(usmarr_array_zeros(ctx, 1, &n2, USMARR_COMPLEX128, USMARR_ORDER_C, USMARR_USM_DEVICE, &big));
    ck_assert_ok(usmarr_array_index_text(big, "::-2", &every2));
    usmarr_array_t *x2 = device_complex(ctx, 1, &n, v, USMARR_COMPLEX64);
    ck_assert_ok(usmarr_fft(x2, NULL, 0, USMARR_FFT_NORM_BACKWARD, every2, NULL));
    got = host_complex(big);
    for (int64_t k = 0; k < n; k++) {
        ck_assert_msg(cabs(got[n2 - 1 - 2 * k] - ref[k]) < 1e-5 * (1 + cabs(ref[k])), "strided out: value %lld",
                      (long long)k);
        ck_assert(got[n2 - 2 - 2 * k] == 0);
    }
    free(got);
    free(v);
    free(ref);
    usmarr_array_release(x2);
    usmarr_array_release(every2);
    usmarr_array_release(big);
    usmarr_array_release(o);
    usmarr_array_release(x);
    usmarr_context_release(ctx);
}
END_TEST

/* More lengths than the plan cache keeps, then the first again: each right (the host
 * DFT); the context frees what the cache holds */
START_TEST(test_fft_many_lengths)
{
    usmarr_context_t *ctx = test_context();
    for (int64_t n = 40; n <= 90; n++) {
        double complex *v = random_complex(n, (unsigned)n), *ref = malloc(sizeof(double complex) * (size_t)n);
        host_dft(v, n, -1, ref);
        usmarr_array_t *x = device_complex(ctx, 1, &n, v, USMARR_COMPLEX128), *f = NULL;
        ck_assert_ok(usmarr_fft(x, NULL, 0, USMARR_FFT_NORM_BACKWARD, NULL, &f));
        double complex *got = host_complex(f);
        for (int64_t k = 0; k < n; k++)
            ck_assert_msg(cabs(got[k] - ref[k]) < 1e-12 * (1 + norm2(v, n)), "n=%lld value %lld", (long long)n,
                          (long long)k);
        free(got);
        free(v);
        free(ref);
        usmarr_array_release(x);
        usmarr_array_release(f);
    }
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_fft_failures)
{
    usmarr_context_t *ctx = test_context(), *ctx2 = test_context();
    int64_t shape[2] = {4, 6}, n0 = 0, nneg = -3, n5 = 5;
    usmarr_array_t *x = NULL, *re = NULL, *ints = NULL, *r = NULL, *other = NULL, *ro = NULL, *small = NULL;
    ck_assert_ok(usmarr_array_ones(ctx, 2, shape, USMARR_COMPLEX64, USMARR_ORDER_C, USMARR_USM_DEVICE, &x));
    ck_assert_ok(usmarr_array_ones(ctx, 2, shape, USMARR_FLOAT32, USMARR_ORDER_C, USMARR_USM_DEVICE, &re));
    ck_assert_ok(usmarr_array_ones(ctx, 2, shape, USMARR_INT32, USMARR_ORDER_C, USMARR_USM_DEVICE, &ints));
    ck_assert_ok(usmarr_array_ones(ctx2, 2, shape, USMARR_COMPLEX64, USMARR_ORDER_C, USMARR_USM_DEVICE, &other));
    ck_assert_ok(usmarr_array_zeros(ctx, 2, shape, USMARR_COMPLEX64, USMARR_ORDER_C, USMARR_USM_DEVICE, &ro));
    ck_assert_ok(usmarr_array_make_read_only(ro));
    ck_assert_ok(usmarr_array_zeros(ctx, 1, shape, USMARR_COMPLEX64, USMARR_ORDER_C, USMARR_USM_DEVICE, &small));
    int refs = usmarr_array_refcount(x);

    for (unsigned k = 0; k < sizeof FUNCTIONS / sizeof FUNCTIONS[0]; k++) {
        const char *fn = FUNCTIONS[k].name;
        bool real_in = !strcmp(fn, "rfft") || !strcmp(fn, "ihfft") || !strcmp(fn, "rfftn");
        usmarr_array_t *in = real_in ? re : x, *wrong = real_in ? x : re;
        if (FUNCTIONS[k].one) {
            fft1_fn f = FUNCTIONS[k].one;
            ck_assert_fails_with(f(NULL, NULL, -1, 0, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT, "x is NULL");
            ck_assert_fails_with(f(in, NULL, -1, 0, NULL, NULL), USMARR_ERROR_INVALID_ARGUMENT, "result is NULL");
            ck_assert_fails_with(f(in, &n0, -1, 0, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT, "n=0 must be >= 1");
            ck_assert_fails_with(f(in, &nneg, -1, 0, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT, "n=-3 must be >= 1");
            ck_assert_fails_with(f(in, NULL, -1, (usmarr_fft_norm_t)7, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT,
                                 "norm=7 is not a usmarr_fft_norm_t");
            ck_assert_fails_with(f(in, NULL, 2, 0, NULL, &r), USMARR_ERROR_INDEX, "axis=2 is out of range");
            ck_assert_fails_with(f(in, NULL, -3, 0, NULL, &r), USMARR_ERROR_INDEX, "axis=-3 is out of range");
            if (strcmp(fn, "fft") && strcmp(fn, "ifft"))
                ck_assert_fails_with(f(wrong, NULL, -1, 0, NULL, &r), USMARR_ERROR_BAD_DTYPE, "it needs a");
            ck_assert_fails_with(f(ints, NULL, -1, 0, NULL, &r), USMARR_ERROR_BAD_DTYPE, "x has dtype int32");
            ck_assert_fails_with(f(in, &n5, -1, 0, small, NULL), USMARR_ERROR_SHAPE_MISMATCH, "out has shape (4,)");
            ck_assert_fails_with(f(in, &n5, -1, 0, other, NULL), USMARR_ERROR_CONTEXT_MISMATCH, "different contexts");
        } else {
            fftn_fn f = FUNCTIONS[k].many;
            int rep[2] = {1, -1}, bad[2] = {0, 2};
            int64_t s2[2] = {4, 0};
            ck_assert_fails_with(f(NULL, -1, NULL, NULL, 0, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT, "x is NULL");
            ck_assert_fails_with(f(in, -1, NULL, NULL, 0, NULL, NULL), USMARR_ERROR_INVALID_ARGUMENT, "result is NULL");
            ck_assert_fails_with(f(in, 2, rep, NULL, 0, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT, "axes");
            ck_assert_fails_with(f(in, 2, bad, NULL, 0, NULL, &r), USMARR_ERROR_INDEX, "axes[1]=2");
            ck_assert_fails_with(f(in, -1, NULL, s2, 0, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT,
                                 "naxes=-1 (every axis) with s given");
            ck_assert_fails_with(f(in, 3, NULL, NULL, 0, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT,
                                 "naxes=3 is outside");
            ck_assert_fails_with(f(in, 2, NULL, s2, 0, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT,
                                 "the length 0 along axis 1 (s[1]) must be >= 1");
            ck_assert_fails_with(f(in, -1, NULL, NULL, (usmarr_fft_norm_t)-1, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT,
                                 "norm=-1");
            if (strcmp(fn, "fftn") && strcmp(fn, "ifftn"))
                ck_assert_fails_with(f(wrong, -1, NULL, NULL, 0, NULL, &r), USMARR_ERROR_BAD_DTYPE, "it needs a");
            ck_assert_fails_with(f(in, -1, NULL, NULL, 0, small, NULL), USMARR_ERROR_SHAPE_MISMATCH, "out has shape");
        }
        ck_assert_ptr_null(r);
    }
    /* out that must not be written */
    ck_assert_fails_with(usmarr_fft(x, NULL, -1, 0, ro, NULL), USMARR_ERROR_READ_ONLY, "out");
    ck_assert_fails_with(usmarr_fft(x, NULL, -1, 0, re, NULL), USMARR_ERROR_CASTING, "out has dtype float32");
    /* an axis of extent 0 without padding */
    usmarr_array_t *empty = NULL;
    ck_assert_ok(
        usmarr_array_zeros(ctx, 2, (int64_t[]){3, 0}, USMARR_COMPLEX64, USMARR_ORDER_C, USMARR_USM_DEVICE, &empty));
    ck_assert_fails_with(usmarr_fft(empty, NULL, -1, 0, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT, "n=0 must be >= 1");
    usmarr_array_release(empty);
    ck_assert_ok(
        usmarr_array_zeros(ctx, 2, (int64_t[]){3, 1}, USMARR_COMPLEX64, USMARR_ORDER_C, USMARR_USM_DEVICE, &empty));
    ck_assert_fails_with(usmarr_irfft(empty, NULL, -1, 0, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT,
                         "n=0 must be >= 1 (2 (m - 1)");
    usmarr_array_release(empty);
    /* fp64 refused where the device has none */
    if (!usmarr_context_info(ctx)->fp64) {
        usmarr_array_t *d = NULL;
        ck_assert_ok(usmarr_array_zeros(ctx, 1, &n5, USMARR_FLOAT64, USMARR_ORDER_C, USMARR_USM_HOST, &d));
        ck_assert_fails_with(usmarr_rfft(d, NULL, -1, 0, NULL, &r), USMARR_ERROR_UNSUPPORTED, "fp64");
        usmarr_array_release(d);
    }
    /* frequencies */
    ck_assert_fails_with(usmarr_fftfreq(NULL, 4, 1, USMARR_FLOAT64, USMARR_USM_DEVICE, &r),
                         USMARR_ERROR_INVALID_ARGUMENT, "context is NULL");
    ck_assert_fails_with(usmarr_fftfreq(ctx, 4, 1, USMARR_FLOAT64, USMARR_USM_DEVICE, NULL),
                         USMARR_ERROR_INVALID_ARGUMENT, "result is NULL");
    ck_assert_fails_with(usmarr_fftfreq(ctx, 0, 1, USMARR_FLOAT64, USMARR_USM_DEVICE, &r),
                         USMARR_ERROR_INVALID_ARGUMENT, "n=0 must be >= 1");
    ck_assert_fails_with(usmarr_rfftfreq(ctx, 4, 0, USMARR_FLOAT64, USMARR_USM_DEVICE, &r),
                         USMARR_ERROR_INVALID_ARGUMENT, "d=0");
    ck_assert_fails_with(usmarr_rfftfreq(ctx, 4, 1, USMARR_INT32, USMARR_USM_DEVICE, &r), USMARR_ERROR_BAD_DTYPE,
                         "dtype int32");
    ck_assert_fails_with(usmarr_fftfreq(ctx, 4, 1, USMARR_FLOAT32, (usmarr_usm_kind_t)9, &r),
                         USMARR_ERROR_INVALID_ARGUMENT, "kind=9");
    /* shifts */
    ck_assert_fails_with(usmarr_fftshift(NULL, -1, NULL, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT, "x is NULL");
    ck_assert_fails_with(usmarr_ifftshift(x, -1, NULL, NULL, NULL), USMARR_ERROR_INVALID_ARGUMENT, "result is NULL");
    ck_assert_fails_with(usmarr_fftshift(x, 2, (int[]){0, -2}, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT, "axes");
    ck_assert_fails_with(usmarr_ifftshift(x, 1, (int[]){2}, NULL, &r), USMARR_ERROR_INDEX, "axes[0]=2");
    ck_assert_fails_with(usmarr_fftshift(x, 1, NULL, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT, "axes NULL");
    ck_assert_fails_with(usmarr_fftshift(x, -1, NULL, ro, NULL), USMARR_ERROR_READ_ONLY, "out");
    ck_assert_ptr_null(r);

    /* nothing leaked, x unchanged */
    ck_assert_int_eq(usmarr_array_refcount(x), refs);
    double complex *xv = host_complex(x);
    for (int i = 0; i < 24; i++)
        ck_assert(xv[i] == 1);
    free(xv);
    usmarr_array_release(x);
    usmarr_array_release(re);
    usmarr_array_release(ints);
    usmarr_array_release(other);
    usmarr_array_release(ro);
    usmarr_array_release(small);
    usmarr_context_release(ctx2);
    usmarr_context_release(ctx);
}
END_TEST

Suite *suite_fft(void)
{
    load_cases();
    Suite *s = suite_create("fft");
    TCase *tc = tcase_create("numpy");
    tcase_set_timeout(tc, 0);
    tcase_add_loop_test(tc, test_fft_numpy_cases, 0, ncases > 0 ? ncases : 1);
    suite_add_tcase(s, tc);
    tc = tcase_create("behaviour");
    tcase_set_timeout(tc, 0);
    tcase_add_test(tc, test_fft_round_trips);
    tcase_add_test(tc, test_fft_hermitian_symmetry);
    tcase_add_test(tc, test_fft_rows_independent);
    tcase_add_test(tc, test_fft_out_arrays);
    tcase_add_test(tc, test_fft_many_lengths);
    tcase_add_test(tc, test_fft_failures);
    suite_add_tcase(s, tc);
    return s;
}
