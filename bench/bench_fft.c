/* Benchmarks of the discrete Fourier transforms (usmarr/fft.h) against NumPy's pocketfft
 * measured in the same run, and the first call of a new length with the programs cached. */
#include "bench.h"

#include <stdio.h>
#include <string.h>

struct fft_args {
    usmarr_array_t *x;
    int axis;  /* -1, 0; or -2 for fft2 */
    bool real; /* rfft */
    int64_t n; /* the length (first-call case) */
};

/* A new result each call, as NumPy's */
static int do_fft(void *p)
{
    struct fft_args *a = p;
    usmarr_array_t *r = NULL;
    int rc;
    if (a->real)
        rc = usmarr_rfft(a->x, NULL, -1, USMARR_FFT_NORM_BACKWARD, NULL, &r);
    else if (a->axis == -2)
        rc = usmarr_fftn(a->x, 2, NULL, NULL, USMARR_FFT_NORM_BACKWARD, NULL, &r);
    else
        rc = usmarr_fft(a->x, NULL, a->axis, USMARR_FFT_NORM_BACKWARD, NULL, &r);
    usmarr_array_release(r);
    return rc;
}

static int median_of(const struct bench_env *env, struct fft_args *a, int n, double *median)
{
    BENCH_OK(do_fft(a));
    BENCH_OK(usmarr_context_finish(env->ctx));
    double t[64];
    if (n > 64)
        n = 64;
    for (int i = 0; i < n; i++) {
        double t0 = bench_now();
        BENCH_OK(do_fft(a));
        BENCH_OK(usmarr_context_finish(env->ctx));
        t[i] = bench_now() - t0;
    }
    *median = bench_median(t, n);
    return 0;
}

/* x: (ndim, shape) of 0.5 in `dt`, as NumPy's */
static int setup(const struct bench_env *env, int ndim, const int64_t *shape, usmarr_dtype_t dt, struct fft_args *a)
{
    BENCH_OK(usmarr_array_empty(env->ctx, ndim, shape, dt, USMARR_ORDER_C, USMARR_USM_DEVICE, &a->x));
    BENCH_OK(usmarr_array_fill(a->x, usmarr_scalar_float(0.5)));
    return 0;
}

static int compare(const struct bench_env *env, int ndim, const int64_t *shape, int axis, bool real,
                   const char *np_setup, const char *np_stmt, const char *what, struct bench_result *r)
{
    struct fft_args a = {NULL, axis, real, 0};
    double lib = 0;
    int rc = setup(env, ndim, shape, real ? USMARR_FLOAT32 : USMARR_COMPLEX64, &a);
    if (!rc)
        rc = median_of(env, &a, env->repeat < 9 ? env->repeat : 9, &lib);
    usmarr_array_release(a.x);
    if (rc)
        return rc;
    double np = bench_numpy_stmt(env, np_setup, np_stmt);
    if (np <= 0)
        return -1;
    r->ratio = np / lib;
    snprintf(r->detail, sizeof r->detail, "%s: library %.2f ms, NumPy %.2f ms", what, lib * 1e3, np * 1e3);
    return 0;
}

static int run_fft_1m(const struct bench_env *env, struct bench_result *r)
{
    int64_t shape[1] = {1 << 20};
    return compare(env, 1, shape, -1, false, "a = np.full(1 << 20, 0.5, np.complex64)", "np.fft.fft(a)",
                   "fft of 2^20 complex64", r);
}

static int run_fft_rows(const struct bench_env *env, struct bench_result *r)
{
    int64_t shape[2] = {1024, 1024};
    return compare(env, 2, shape, -1, false, "a = np.full((1024, 1024), 0.5, np.complex64)", "np.fft.fft(a, axis=-1)",
                   "fft of (1024, 1024) complex64 along the last axis", r);
}

static int run_fft_cols(const struct bench_env *env, struct bench_result *r)
{
    int64_t shape[2] = {1024, 1024};
    return compare(env, 2, shape, 0, false, "a = np.full((1024, 1024), 0.5, np.complex64)", "np.fft.fft(a, axis=0)",
                   "fft of (1024, 1024) complex64 along axis 0", r);
}

static int run_rfft_4m(const struct bench_env *env, struct bench_result *r)
{
    int64_t shape[1] = {1 << 22};
    return compare(env, 1, shape, -1, true, "a = np.full(1 << 22, 0.5, np.float32)", "np.fft.rfft(a)",
                   "rfft of 2^22 float32", r);
}

static int run_fft2(const struct bench_env *env, struct bench_result *r)
{
    int64_t shape[2] = {2048, 2048};
    return compare(env, 2, shape, -2, false, "a = np.full((2048, 2048), 0.5, np.complex64)", "np.fft.fft2(a)",
                   "fft2 of 2048 x 2048 complex64", r);
}

static int run_fft_prime(const struct bench_env *env, struct bench_result *r)
{
    int64_t shape[2] = {4096, 1009};
    return compare(env, 2, shape, -1, false, "a = np.full((4096, 1009), 0.5, np.complex64)", "np.fft.fft(a, axis=-1)",
                   "fft of (4096, 1009) complex64 along the last axis (a prime length: Bluestein)", r);
}

/* The first call of lengths never used before (plan and twiddles made; programs already
 * cached by a warm-up of another length): the median of several fresh lengths near 2^20
 * whose factors are all small (a length with a large prime factor also makes Bluestein's
 * chirp and the plan of a power of two twice as long), each with its second call's time
 * for comparison.  The ratio is the first call's extra time (first - second) in ms. */
static int run_first_call(const struct bench_env *env, struct bench_result *r)
{
    static const int64_t lengths[] = {1000000, 995328,           1024000, 1036800, 3 * 5 * 7 * 8 * 1024,
                                      3 << 18, 9 * 5 * 16 * 1024};
    enum { N = sizeof lengths / sizeof lengths[0] };
    double first[N], second[N], extra[N];
    for (int i = 0; i < N; i++) {
        int64_t n = lengths[i];
        struct fft_args a = {NULL, -1, false, n};
        BENCH_OK(setup(env, 1, &n, USMARR_COMPLEX64, &a));
        BENCH_OK(usmarr_context_finish(env->ctx)); /* the input's fill (fresh pages) not timed */
        if (i == 0) { /* the dtype's programs: a warm-up of another length */
            int64_t m = 12;
            usmarr_array_t *w = NULL;
            BENCH_OK(usmarr_fft(a.x, &m, -1, USMARR_FFT_NORM_BACKWARD, NULL, &w));
            usmarr_array_release(w);
            BENCH_OK(usmarr_context_finish(env->ctx));
        }
        double t0 = bench_now();
        BENCH_OK(do_fft(&a));
        BENCH_OK(usmarr_context_finish(env->ctx));
        double t1 = bench_now();
        BENCH_OK(do_fft(&a));
        BENCH_OK(usmarr_context_finish(env->ctx));
        first[i] = t1 - t0;
        second[i] = bench_now() - t1;
        extra[i] = first[i] - second[i];
        usmarr_array_release(a.x);
    }
    double e = bench_median(extra, N), f = bench_median(first, N), s = bench_median(second, N);
    r->ratio = e * 1e3;
    snprintf(r->detail, sizeof r->detail,
             "complex64 lengths near 2^20 never used before, programs cached: first call %.2f ms, second %.2f ms "
             "(medians of %d lengths); the ratio is the difference in ms",
             f * 1e3, s * 1e3, N);
    return 0;
}

const struct bench_case bench_fft[] = {
    {"fft-2^20", "fft of 2^20 complex64 against NumPy", 2, BENCH_AT_LEAST, run_fft_1m},
    {"fft-rows", "fft of (1024, 1024) complex64 along the last axis against NumPy", 2, BENCH_AT_LEAST, run_fft_rows},
    {"fft-cols", "fft of (1024, 1024) complex64 along axis 0 against NumPy", 2, BENCH_AT_LEAST, run_fft_cols},
    {"rfft-2^22", "rfft of 2^22 float32 against NumPy", 2, BENCH_AT_LEAST, run_rfft_4m},
    {"fft2-2048", "fft2 of 2048 x 2048 complex64 against NumPy", 2, BENCH_AT_LEAST, run_fft2},
    {"fft-prime", "fft of (4096, 1009) complex64 along the last axis against NumPy", 1.5, BENCH_AT_LEAST,
     run_fft_prime},
    {"fft-first-call", "first call of a new length near 2^20 (programs cached): extra ms", 5, BENCH_AT_MOST,
     run_first_call},
    {NULL},
};
