/* Benchmarks of the linear algebra and statistics functions, against
 * NumPy measured in the same run, and the tiled matmul kernel against the naive one. */
#include "bench.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct mm_args {
    usmarr_array_t *a, *b, *out;
};

static int do_matmul(void *p)
{
    struct mm_args *x = p;
    return usmarr_matmul(x->a, x->b, x->out, NULL);
}

/* Median seconds of fn(arg) + finish over `n` runs, after one warm-up when `warm`. */
static int time_calls(const struct bench_env *env, int (*fn)(void *), void *arg, int n, bool warm, double *median)
{
    if (warm) {
        BENCH_OK(fn(arg));
        BENCH_OK(usmarr_context_finish(env->ctx));
    }
    double t[64];
    if (n > 64)
        n = 64;
    for (int i = 0; i < n; i++) {
        double t0 = bench_now();
        BENCH_OK(fn(arg));
        BENCH_OK(usmarr_context_finish(env->ctx));
        t[i] = bench_now() - t0;
    }
    *median = bench_median(t, n);
    return 0;
}

static int filled(usmarr_context_t *ctx, int ndim, const int64_t *shape, double v, usmarr_array_t **a)
{
    int rc = usmarr_array_empty(ctx, ndim, shape, USMARR_FLOAT32, USMARR_ORDER_C, USMARR_USM_DEVICE, a);
    return rc ? rc : usmarr_array_fill(*a, usmarr_scalar_float(v));
}

static int mm_setup(const struct bench_env *env, int ndim, const int64_t *shape, struct mm_args *x)
{
    BENCH_OK(filled(env->ctx, ndim, shape, 0.5, &x->a));
    BENCH_OK(filled(env->ctx, ndim, shape, 0.25, &x->b));
    BENCH_OK(filled(env->ctx, ndim, shape, 0, &x->out));
    return 0;
}

static void mm_release(struct mm_args *x)
{
    usmarr_array_release(x->a);
    usmarr_array_release(x->b);
    usmarr_array_release(x->out);
}

static int run_matmul_2048(const struct bench_env *env, struct bench_result *r)
{
    int64_t shape[2] = {2048, 2048};
    struct mm_args x = {0};
    double lib;
    int rc = mm_setup(env, 2, shape, &x);
    if (!rc)
        rc = time_calls(env, do_matmul, &x, env->repeat < 5 ? env->repeat : 5, true, &lib);
    mm_release(&x);
    if (rc)
        return rc;
    double np = bench_numpy_stmt(env,
                                 "a = np.full((2048, 2048), 0.5, np.float32); b = np.full((2048, 2048), 0.25, np.float32); "
                                 "c = np.empty_like(a)",
                                 "np.matmul(a, b, out=c)");
    if (np <= 0)
        return -1;
    r->ratio = np / lib;
    snprintf(r->detail, sizeof r->detail, "float32 2048x2048 @ 2048x2048: library %.1f ms (%.1f GFLOP/s), NumPy %.1f ms",
             lib * 1e3, 2.0 * 2048 * 2048 * 2048 / lib * 1e-9, np * 1e3);
    return 0;
}

/* The naive kernel does the same work for every output, and one 2048x2048 call takes
 * minutes on a 2-core machine: it is timed on the first 128 rows of the same product
 * (A[:128] @ B, every column of B walked as in the full call) and scaled by 16. */
static int run_matmul_naive(const struct bench_env *env, struct bench_result *r)
{
    int64_t shape[2] = {2048, 2048};
    struct mm_args x = {0}, part = {0};
    double tiled, naive;
    int rc = mm_setup(env, 2, shape, &x);
    if (!rc)
        rc = time_calls(env, do_matmul, &x, 3, true, &tiled);
    if (!rc && !(rc = usmarr_array_index_text(x.a, ":128", &part.a)) &&
        !(rc = usmarr_array_index_text(x.out, ":128", &part.out))) {
        part.b = usmarr_array_retain(x.b);
        setenv("USMARR_MATMUL_KERNEL", "naive", 1);
        rc = time_calls(env, do_matmul, &part, 1, true, &naive);
        unsetenv("USMARR_MATMUL_KERNEL");
        naive *= 16;
    }
    mm_release(&part);
    mm_release(&x);
    if (rc)
        return rc;
    r->ratio = naive / tiled;
    snprintf(r->detail, sizeof r->detail,
             "float32 2048x2048: tiled kernel %.1f ms, naive triple loop %.1f ms (16 x its time for 128 rows)",
             tiled * 1e3, naive * 1e3);
    return 0;
}

static int run_matmul_batched(const struct bench_env *env, struct bench_result *r)
{
    int64_t shape[3] = {1024, 16, 16};
    struct mm_args x = {0};
    double lib;
    int rc = mm_setup(env, 3, shape, &x);
    if (!rc)
        rc = time_calls(env, do_matmul, &x, env->repeat, true, &lib);
    mm_release(&x);
    if (rc)
        return rc;
    double np = bench_numpy_stmt(env,
                                 "a = np.full((1024, 16, 16), 0.5, np.float32); b = np.full((1024, 16, 16), 0.25, np.float32); "
                                 "c = np.empty_like(a)",
                                 "np.matmul(a, b, out=c)");
    if (np <= 0)
        return -1;
    r->ratio = np / lib;
    snprintf(r->detail, sizeof r->detail, "float32 (1024, 16, 16) @ (1024, 16, 16): library %.3f ms, NumPy %.3f ms",
             lib * 1e3, np * 1e3);
    return 0;
}

struct var_args {
    usmarr_array_t *x, *out;
};

static int do_var(void *p)
{
    struct var_args *v = p;
    int axis = 0;
    return usmarr_var(v->x, 1, &axis, 0, false, v->out, NULL);
}

static int run_var_axis0(const struct bench_env *env, struct bench_result *r)
{
    int64_t shape[2] = {4096, 4096};
    struct var_args v = {0};
    double lib;
    int rc = filled(env->ctx, 2, shape, 0.5, &v.x);
    if (!rc)
        rc = filled(env->ctx, 1, shape, 0, &v.out);
    if (!rc)
        rc = time_calls(env, do_var, &v, env->repeat, true, &lib);
    usmarr_array_release(v.x);
    usmarr_array_release(v.out);
    if (rc)
        return rc;
    double np = bench_numpy_stmt(env, "a = np.full((4096, 4096), 0.5, np.float32); c = np.var(a, axis=0)",
                                 "np.var(a, axis=0, out=c)");
    if (np <= 0)
        return -1;
    r->ratio = np / lib;
    snprintf(r->detail, sizeof r->detail, "var over axis 0 of 4096x4096 float32: library %.2f ms, NumPy %.2f ms",
             lib * 1e3, np * 1e3);
    return 0;
}

/* ---- the linear algebra extension: one table of cases, one runner ---------------------- */

struct la_case {
    const char *name, *op; /* op: solve, inv, det, cholesky */
    usmarr_dtype_t dtype;
    int64_t count, n;      /* count matrices of order n (count 0: one matrix, 2-D) */
};

static const struct la_case la_cases[] = {
    {"solve-stack", "solve", USMARR_FLOAT64, 10000, 8},
    {"inv-stack", "inv", USMARR_FLOAT32, 10000, 4},
    {"det-stack", "det", USMARR_FLOAT64, 100000, 3},
    {"cholesky-stack", "cholesky", USMARR_FLOAT64, 4096, 16},
    {"solve-2048", "solve", USMARR_FLOAT64, 0, 2048},
    {"cholesky-2048", "cholesky", USMARR_FLOAT64, 0, 2048},
    {"inv-1024", "inv", USMARR_FLOAT64, 0, 1024},
};

struct la_args {
    const struct la_case *c;
    usmarr_array_t *a, *b;
};

static int do_la(void *p)
{
    struct la_args *x = p;
    usmarr_array_t *r = NULL;
    const char *op = x->c->op;
    int rc = !strcmp(op, "solve") ? usmarr_linalg_solve(x->a, x->b, NULL, &r)
             : !strcmp(op, "inv") ? usmarr_linalg_inv(x->a, NULL, &r)
             : !strcmp(op, "det") ? usmarr_linalg_det(x->a, NULL, &r)
                                  : usmarr_linalg_cholesky(x->a, false, NULL, &r);
    usmarr_array_release(r);
    return rc;
}

/* Uniform [-1, 1) values from a fixed LCG plus n on the diagonal (symmetric for
 * cholesky: positive definite), as the NumPy statement below makes them. */
static int la_operands(const struct bench_env *env, const struct la_case *c, struct la_args *x)
{
    int64_t count = c->count ? c->count : 1, n = c->n, total = count * n * n;
    double *v = malloc(sizeof(double) * (size_t)total);
    if (!v)
        return -1;
    uint64_t state = 12345;
    for (int64_t i = 0; i < total; i++) {
        state = state * 6364136223846793005u + 1442695040888963407u;
        v[i] = (double)(state >> 11) / 9007199254740992.0 * 2 - 1;
    }
    bool sym = !strcmp(c->op, "cholesky");
    for (int64_t m = 0; m < count; m++) {
        double *a = v + m * n * n;
        for (int64_t i = 0; i < n; i++) {
            for (int64_t j = 0; sym && j < i; j++)
                a[j * n + i] = a[i * n + j];
            a[i * n + i] += (double)n;
        }
    }
    int64_t shape[3] = {count, n, n}, bshape[3] = {count, n, 1};
    int nd = c->count ? 3 : 2;
    usmarr_array_t *h = NULL;
    int rc = usmarr_array_from_host(env->ctx, nd, c->count ? shape : shape + 1, USMARR_FLOAT64, v, NULL,
                                    USMARR_USM_DEVICE, &h);
    if (!rc)
        rc = usmarr_array_astype(h, c->dtype, USMARR_ORDER_C, NULL, &x->a);
    usmarr_array_release(h);
    if (!rc && !strcmp(c->op, "solve")) {
        int64_t *bs = c->count ? bshape : bshape + 1;
        rc = usmarr_array_empty(env->ctx, nd, bs, c->dtype, USMARR_ORDER_C, USMARR_USM_DEVICE, &x->b);
        if (!rc)
            rc = usmarr_array_fill(x->b, usmarr_scalar_float(1));
    }
    free(v);
    return rc;
}

static int run_la(const struct bench_env *env, struct bench_result *r, const char *name)
{
    const struct la_case *c = la_cases;
    while (strcmp(c->name, name))
        c++;
    struct la_args x = {c, NULL, NULL};
    double lib;
    int rc = la_operands(env, c, &x);
    if (!rc)
        rc = time_calls(env, do_la, &x, c->count ? env->repeat : 3, true, &lib);
    usmarr_array_release(x.a);
    usmarr_array_release(x.b);
    if (rc)
        return rc;
    char setup[512], stmt[128], shape[64];
    if (c->count)
        snprintf(shape, sizeof shape, "(%lld, %lld, %lld)", (long long)c->count, (long long)c->n, (long long)c->n);
    else
        snprintf(shape, sizeof shape, "(%lld, %lld)", (long long)c->n, (long long)c->n);
    snprintf(setup, sizeof setup,
             "a = np.random.default_rng(0).uniform(-1, 1, %s); a = %s + %lld * np.eye(%lld); "
             "a = a.astype(np.%s); b = np.ones(a.shape[:-1] + (1,), a.dtype)",
             shape, !strcmp(c->op, "cholesky") ? "(a + np.swapaxes(a, -1, -2)) / 2" : "a", (long long)c->n,
             (long long)c->n, usmarr_dtype_name(c->dtype));
    snprintf(stmt, sizeof stmt, !strcmp(c->op, "solve") ? "np.linalg.solve(a, b)" : "np.linalg.%s(a)", c->op);
    double np = bench_numpy_stmt(env, setup, stmt);
    if (np <= 0)
        return -1;
    r->ratio = np / lib;
    snprintf(r->detail, sizeof r->detail, "%s %s %s: library %.3f ms, NumPy %.3f ms", c->op, usmarr_dtype_name(c->dtype),
             shape, lib * 1e3, np * 1e3);
    return 0;
}

#define LA_RUNNER(fn, name)                                                                                            \
    static int fn(const struct bench_env *env, struct bench_result *r)                                               \
    {                                                                                                                  \
        return run_la(env, r, name);                                                                                   \
    }
LA_RUNNER(run_solve_stack, "solve-stack")
LA_RUNNER(run_inv_stack, "inv-stack")
LA_RUNNER(run_det_stack, "det-stack")
LA_RUNNER(run_cholesky_stack, "cholesky-stack")
LA_RUNNER(run_solve_2048, "solve-2048")
LA_RUNNER(run_cholesky_2048, "cholesky-2048")
LA_RUNNER(run_inv_1024, "inv-1024")

/* ---- decompositions: qr, eigh, svd of float64 stacks and large matrices ---------------- */

struct decomp_bench {
    const char *op; /* "qr", "eigh" or "svd" */
    int ndim;
    int64_t shape[3];
};

struct decomp_args {
    const struct decomp_bench *d;
    usmarr_array_t *x;
};

static int do_decomp(void *p)
{
    struct decomp_args *a = p;
    usmarr_array_t *r[3] = {NULL, NULL, NULL};
    int rc = !strcmp(a->d->op, "qr")     ? usmarr_linalg_qr(a->x, USMARR_QR_REDUCED, &r[0], &r[1])
             : !strcmp(a->d->op, "eigh") ? usmarr_linalg_eigh(a->x, &r[0], &r[1])
                                         : usmarr_linalg_svd(a->x, false, &r[0], &r[1], &r[2]);
    for (int i = 0; i < 3; i++)
        usmarr_array_release(r[i]);
    return rc;
}

/* Uniform values in [-1, 1) (symmetric matrices for eigh) as a float64 array. */
static int decomp_input(usmarr_context_t *ctx, const char *op, int ndim, const int64_t *shape, usmarr_array_t **x)
{
    int64_t total = 1, m = shape[ndim - 2], n = shape[ndim - 1];
    for (int d = 0; d < ndim; d++)
        total *= shape[d];
    double *h = malloc(sizeof(double) * (size_t)total);
    if (!h)
        return -1;
    uint64_t state = 0x9e3779b97f4a7c15u;
    for (int64_t i = 0; i < total; i++) {
        state = state * 6364136223846793005u + 1442695040888963407u;
        h[i] = (double)(state >> 11) / 4503599627370496.0 - 1;
    }
    for (int64_t z = 0; !strcmp(op, "eigh") && z < total / (m * n); z++)
        for (int64_t i = 0; i < m; i++)
            for (int64_t j = 0; j < i; j++)
                h[z * m * n + j * n + i] = h[z * m * n + i * n + j];
    int rc = usmarr_array_from_host(ctx, ndim, shape, USMARR_FLOAT64, h, NULL, USMARR_USM_DEVICE, x);
    free(h);
    return rc;
}

static const struct decomp_bench DECOMP_BENCH[] = {
    {"qr", 3, {4096, 16, 8}},  {"eigh", 3, {4096, 8, 8}},   {"svd", 3, {4096, 8, 6}},
    {"qr", 2, {2048, 1024}},   {"eigh", 2, {1024, 1024}},   {"svd", 2, {1024, 512}},
};

/* Case `which` of DECOMP_BENCH: the library's median against NumPy's.  Large matrices
 * run three times (a single call swung 0.35-0.77 s for Intel's qr 2048 x 1024 from one
 * process to the next), after a warm-up on a smaller one that takes the same blocked path and
 * products (eigh 128 x 128, qr and svd 256 x 128), so that the timed call compiles no
 * program (an 8 x 8 one took the one-work-item kernels: with a cold program cache the
 * timed eigh then compiled the blocked path, 1.7 s of Intel's runtime). */
static int run_decomp(const struct bench_env *env, struct bench_result *r, int which)
{
    const struct decomp_bench *d = &DECOMP_BENCH[which];
    bool large = d->ndim == 2;
    struct decomp_args a = {d, NULL};
    double lib;
    int rc = decomp_input(env->ctx, d->op, d->ndim, d->shape, &a.x);
    if (!rc && large) {
        struct decomp_args w = {d, NULL};
        int64_t small[2] = {!strcmp(d->op, "eigh") ? 128 : 256, 128};
        rc = decomp_input(env->ctx, d->op, 2, small, &w.x);
        if (!rc)
            rc = do_decomp(&w);
        usmarr_array_release(w.x);
    }
    if (!rc)
        rc = time_calls(env, do_decomp, &a, large ? 3 : env->repeat, !large, &lib);
    usmarr_array_release(a.x);
    if (rc)
        return rc;
    char setup[256], stmt[128], shape[64];
    if (large)
        snprintf(shape, sizeof shape, "(%lld, %lld)", (long long)d->shape[0], (long long)d->shape[1]);
    else
        snprintf(shape, sizeof shape, "(%lld, %lld, %lld)", (long long)d->shape[0], (long long)d->shape[1],
                 (long long)d->shape[2]);
    snprintf(setup, sizeof setup, "a = np.random.default_rng(0).uniform(-1, 1, %s)%s", shape,
             !strcmp(d->op, "eigh") ? "; a = (a + np.swapaxes(a, -1, -2)) / 2" : "");
    snprintf(stmt, sizeof stmt, "np.linalg.%s(a%s)", d->op, !strcmp(d->op, "svd") ? ", full_matrices=False" : "");
    double np = bench_numpy_stmt(env, setup, stmt);
    if (np <= 0)
        return -1;
    r->ratio = np / lib;
    snprintf(r->detail, sizeof r->detail, "%s float64 %s: library %.3f ms, NumPy %.3f ms", d->op, shape, lib * 1e3,
             np * 1e3);
    return 0;
}

static int run_qr_stack(const struct bench_env *env, struct bench_result *r) { return run_decomp(env, r, 0); }
static int run_eigh_stack(const struct bench_env *env, struct bench_result *r) { return run_decomp(env, r, 1); }
static int run_svd_stack(const struct bench_env *env, struct bench_result *r) { return run_decomp(env, r, 2); }
static int run_qr_large(const struct bench_env *env, struct bench_result *r) { return run_decomp(env, r, 3); }
static int run_eigh_large(const struct bench_env *env, struct bench_result *r) { return run_decomp(env, r, 4); }
static int run_svd_large(const struct bench_env *env, struct bench_result *r) { return run_decomp(env, r, 5); }

const struct bench_case bench_linalg[] = {
    {"matmul-2048", "matmul float32 2048x2048 against NumPy's BLAS", 0.5, BENCH_AT_LEAST, run_matmul_2048},
    {"matmul-vs-naive", "matmul float32 2048x2048: tiled kernel against a naive triple loop", 10, BENCH_AT_LEAST,
     run_matmul_naive},
    {"matmul-batched", "batched matmul (1024, 16, 16) x (1024, 16, 16) float32 against NumPy", 2, BENCH_AT_LEAST,
     run_matmul_batched},
    {"var-axis0", "var over axis 0 of 4096x4096 float32 against NumPy", 1, BENCH_AT_LEAST, run_var_axis0},
    {"solve-stack", "linalg.solve (10000, 8, 8) float64, one right-hand side each, against NumPy", 4, BENCH_AT_LEAST,
     run_solve_stack},
    {"inv-stack", "linalg.inv (10000, 4, 4) float32 against NumPy", 4, BENCH_AT_LEAST, run_inv_stack},
    {"det-stack", "linalg.det (100000, 3, 3) float64 against NumPy", 4, BENCH_AT_LEAST, run_det_stack},
    {"cholesky-stack", "linalg.cholesky (4096, 16, 16) float64 against NumPy", 3, BENCH_AT_LEAST, run_cholesky_stack},
    {"solve-2048", "linalg.solve 2048x2048 float64 against NumPy's LAPACK", 0.5, BENCH_AT_LEAST, run_solve_2048},
    {"cholesky-2048", "linalg.cholesky 2048x2048 float64 against NumPy's LAPACK", 0.5, BENCH_AT_LEAST,
     run_cholesky_2048},
    {"inv-1024", "linalg.inv 1024x1024 float64 against NumPy's LAPACK", 0.5, BENCH_AT_LEAST, run_inv_1024},
    {"qr-stack", "qr of (4096, 16, 8) float64 against NumPy", 2, BENCH_AT_LEAST, run_qr_stack},
    {"eigh-stack", "eigh of (4096, 8, 8) float64 against NumPy", 2, BENCH_AT_LEAST, run_eigh_stack},
    {"svd-stack", "svd (reduced) of (4096, 8, 6) float64 against NumPy", 2, BENCH_AT_LEAST, run_svd_stack},
    {"qr-large", "qr of 2048x1024 float64 against NumPy's LAPACK", 0.3, BENCH_AT_LEAST, run_qr_large},
    {"eigh-large", "eigh of 1024x1024 float64 against NumPy's LAPACK", 0.25, BENCH_AT_LEAST, run_eigh_large},
    {"svd-large", "svd (reduced) of 1024x512 float64 against NumPy's LAPACK", 0.25, BENCH_AT_LEAST, run_svd_large},
    {NULL},
};
