/* Benchmarks of the kernel engine's copy, cast and launch paths. */
#include "bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int empty(usmarr_context_t *ctx, int ndim, const int64_t *shape, usmarr_dtype_t t, usmarr_array_t **a)
{
    return usmarr_array_empty(ctx, ndim, shape, t, USMARR_ORDER_C, USMARR_USM_DEVICE, a);
}

/* A view of `base`'s block with the given layout. */
static int view(const usmarr_array_t *base, int ndim, const int64_t *shape, const int64_t *strides, int64_t offset,
                usmarr_array_t **out)
{
    usmarr_array_options_t o = USMARR_ARRAY_OPTIONS_INIT;
    o.ndim = ndim;
    o.shape = shape;
    o.strides = strides;
    o.offset = offset;
    o.dtype = usmarr_array_dtype(base);
    o.buffer = USMARR_BUFFER_ARRAY;
    o.array = base;
    return usmarr_array_create(&o, out);
}

/* Median seconds of copy_into(dst, src) + finish. */
static int time_copy(const struct bench_env *env, usmarr_array_t *dst, const usmarr_array_t *src, int n,
                     double *median)
{
    BENCH_OK(usmarr_array_copy_into(dst, src)); /* warm-up: compile/load, first touch */
    BENCH_OK(usmarr_context_finish(env->ctx));
    double t[64];
    if (n > 64)
        n = 64;
    for (int i = 0; i < n; i++) {
        double t0 = bench_now();
        BENCH_OK(usmarr_array_copy_into(dst, src));
        BENCH_OK(usmarr_context_finish(env->ctx));
        t[i] = bench_now() - t0;
    }
    *median = bench_median(t, n);
    return 0;
}

/* ---- contiguous 64 MiB float32 copy vs single-threaded memcpy -------------------------- */
static int run_contig(const struct bench_env *env, struct bench_result *r)
{
    int64_t n = 16 << 20;
    usmarr_array_t *a, *b;
    BENCH_OK(empty(env->ctx, 1, &n, USMARR_FLOAT32, &a));
    BENCH_OK(empty(env->ctx, 1, &n, USMARR_FLOAT32, &b));
    BENCH_OK(usmarr_array_fill(a, usmarr_scalar_float(1.25)));
    BENCH_OK(usmarr_array_fill(b, usmarr_scalar_float(0)));
    double lib;
    int rc = time_copy(env, b, a, env->repeat, &lib);
    usmarr_array_release(a);
    usmarr_array_release(b);
    if (rc)
        return rc;
    size_t bytes = (size_t)n * 4;
    char *x = malloc(bytes), *y = malloc(bytes);
    memset(x, 1, bytes);
    memset(y, 2, bytes);
    double t[64];
    int reps = env->repeat > 64 ? 64 : env->repeat;
    for (int i = 0; i < reps; i++) {
        double t0 = bench_now();
        memcpy(y, x, bytes);
        t[i] = bench_now() - t0;
        x[i] = y[bytes - 1 - (size_t)i]; /* keep the copy observable */
    }
    double host = bench_median(t, reps);
    free(x);
    free(y);
    r->ratio = host / lib;
    snprintf(r->detail, sizeof r->detail, "library %.2f ms (%.1f GB/s), host memcpy %.2f ms (%.1f GB/s)", lib * 1e3,
             bytes / lib / 1e9, host * 1e3, bytes / host / 1e9);
    return 0;
}

/* ---- float64 -> float32 astype of 16M elements vs NumPy --------------------------------- */
static int run_cast(const struct bench_env *env, struct bench_result *r)
{
    int64_t n = 16 << 20;
    usmarr_array_t *a, *out;
    BENCH_OK(empty(env->ctx, 1, &n, USMARR_FLOAT64, &a));
    BENCH_OK(usmarr_array_fill(a, usmarr_scalar_float(3.75)));
    BENCH_OK(usmarr_array_astype(a, USMARR_FLOAT32, USMARR_ORDER_K, NULL, &out)); /* warm-up */
    BENCH_OK(usmarr_context_finish(env->ctx));
    usmarr_array_release(out);
    double t[64];
    int reps = env->repeat > 64 ? 64 : env->repeat;
    for (int i = 0; i < reps; i++) {
        double t0 = bench_now();
        BENCH_OK(usmarr_array_astype(a, USMARR_FLOAT32, USMARR_ORDER_K, NULL, &out));
        BENCH_OK(usmarr_context_finish(env->ctx));
        t[i] = bench_now() - t0;
        usmarr_array_release(out);
    }
    usmarr_array_release(a);
    double lib = bench_median(t, reps);
    double np = bench_numpy(env, "numpy_ref.py", "astype");
    if (np <= 0) {
        fprintf(stderr, "bench: NumPy reference unavailable\n");
        return 1;
    }
    r->ratio = np / lib;
    snprintf(r->detail, sizeof r->detail,
             "library astype (new array) %.2f ms, NumPy a.astype(np.float32) %.2f ms", lib * 1e3, np * 1e3);
    return 0;
}

/* ---- 4096x4096 float32: a.T -> C-contiguous, and a[::2, ::3] -> contiguous -------------- */
static int run_2d(const struct bench_env *env, struct bench_result *r, bool transpose)
{
    int64_t shape[2] = {4096, 4096};
    usmarr_array_t *a, *v, *out;
    BENCH_OK(empty(env->ctx, 2, shape, USMARR_FLOAT32, &a));
    BENCH_OK(usmarr_array_fill(a, usmarr_scalar_float(0.5)));
    int64_t vshape[2], vstrides[2];
    if (transpose) {
        vshape[0] = vshape[1] = 4096;
        vstrides[0] = 1;
        vstrides[1] = 4096;
    } else {
        vshape[0] = 2048;
        vshape[1] = 1366;
        vstrides[0] = 2 * 4096;
        vstrides[1] = 3;
    }
    BENCH_OK(view(a, 2, vshape, vstrides, 0, &v));
    BENCH_OK(empty(env->ctx, 2, vshape, USMARR_FLOAT32, &out));
    double lib;
    int rc = time_copy(env, out, v, env->repeat, &lib);
    usmarr_array_release(out);
    usmarr_array_release(v);
    usmarr_array_release(a);
    if (rc)
        return rc;
    double np = bench_numpy(env, "numpy_ref.py", transpose ? "transpose" : "slice");
    if (np <= 0) {
        fprintf(stderr, "bench: NumPy reference unavailable\n");
        return 1;
    }
    double bytes = (double)vshape[0] * (double)vshape[1] * 4;
    r->ratio = np / lib;
    snprintf(r->detail, sizeof r->detail, "library %.2f ms (%.2f GB/s read), NumPy out[...] = %s %.2f ms (%.2f GB/s)",
             lib * 1e3, bytes / lib / 1e9, transpose ? "a.T" : "a[::2, ::3]", np * 1e3, bytes / np / 1e9);
    return 0;
}

static int run_transpose(const struct bench_env *env, struct bench_result *r) { return run_2d(env, r, true); }
static int run_slice(const struct bench_env *env, struct bench_result *r) { return run_2d(env, r, false); }

/* ---- tiny copy end to end vs a raw enqueue + finish ------------------------------------- */
struct tiny_copy {
    usmarr_array_t *dst, *src;
};

static int tiny_copy(void *arg)
{
    struct tiny_copy *t = arg;
    return usmarr_array_copy_into(t->dst, t->src);
}

static int run_tiny(const struct bench_env *env, struct bench_result *r)
{
    int64_t n = 16;
    struct tiny_copy t;
    BENCH_OK(empty(env->ctx, 1, &n, USMARR_FLOAT32, &t.src));
    BENCH_OK(empty(env->ctx, 1, &n, USMARR_FLOAT32, &t.dst));
    BENCH_OK(usmarr_array_fill(t.src, usmarr_scalar_float(2)));
    double lib, raw;
    int rc = bench_tiny_vs_raw(env, tiny_copy, &t, 1, 2000, &lib, &raw);
    usmarr_array_release(t.src);
    usmarr_array_release(t.dst);
    if (rc)
        return rc;
    r->ratio = lib / raw;
    snprintf(r->detail, sizeof r->detail, "median of 2000: library copy_into + finish %.1f us, raw enqueue + clFinish %.1f us",
             lib * 1e6, raw * 1e6);
    return 0;
}

/* ---- warm start: a fresh process's first use of 10 distinct kernels ----------------------- */

/* Child: a context, then 10 casts from 10 source dtypes (10 distinct programs). */
int bench_child_main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "first-add"))
        return bench_first_use_child(argv[0]);
    if (argc > 1 && !strcmp(argv[1], "expr"))
        return bench_expr_child(argv[0]);
    usmarr_context_t *ctx;
    if (usmarr_context_create(argc > 0 ? argv[0] : NULL, &ctx))
        return 1;
    static const usmarr_dtype_t from[10] = {USMARR_INT8,   USMARR_INT16,  USMARR_INT32,  USMARR_INT64,
                                            USMARR_UINT8,  USMARR_UINT16, USMARR_UINT32, USMARR_UINT64,
                                            USMARR_FLOAT32, USMARR_FLOAT16};
    int64_t n = 100;
    usmarr_array_t *src[10], *dst;
    for (int i = 0; i < 10; i++)
        if (usmarr_array_zeros(ctx, 1, &n, from[i], USMARR_ORDER_C, USMARR_USM_DEVICE, &src[i]))
            return 1;
    if (usmarr_array_empty(ctx, 1, &n, USMARR_FLOAT64, USMARR_ORDER_C, USMARR_USM_DEVICE, &dst))
        return 1;
    if (usmarr_context_finish(ctx))
        return 1;
    double t0 = bench_now();
    for (int i = 0; i < 10; i++)
        if (usmarr_array_copy_into(dst, src[i]))
            return 1;
    if (usmarr_context_finish(ctx))
        return 1;
    printf("seconds=%.6f\n", bench_now() - t0);
    for (int i = 0; i < 10; i++)
        usmarr_array_release(src[i]);
    usmarr_array_release(dst);
    usmarr_context_release(ctx);
    return 0;
}

/* One run of the child with these cache directories; `system` false turns the system
 * cache off (so that a miss in `cache_dir` compiles). */
static double child_seconds(const struct bench_env *env, const char *mode, const char *cache_dir,
                            const char *pocl_dir, bool system)
{
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "%sUSMARR_CACHE=on USMARR_CACHE_DIR=%s POCL_CACHE_DIR=%s %s --child %s %s",
             system ? "" : "USMARR_CACHE_SYSTEM_DIR=off ", cache_dir, pocl_dir, env->self,
             usmarr_context_info(env->ctx)->selector, mode);
    FILE *p = popen(cmd, "r");
    double s = -1;
    char line[256];
    while (p && fgets(line, sizeof line, p))
        sscanf(line, "seconds=%lf", &s);
    if (p)
        pclose(p);
    return s;
}

double bench_child_seconds(const struct bench_env *env, const char *mode, const char *cache_dir, const char *pocl_dir)
{
    return child_seconds(env, mode, cache_dir, pocl_dir, false);
}

int bench_warm_start(const struct bench_env *env, const char *mode, double *cold, double *warm)
{
    char usm[] = "/tmp/usmarr-bench-cache-XXXXXX", pocl[] = "/tmp/usmarr-bench-pocl-XXXXXX";
    if (!mkdtemp(usm) || !mkdtemp(pocl))
        return 1;
    *cold = bench_child_seconds(env, mode, usm, pocl);
    double t[5];
    for (int i = 0; i < 5; i++)
        t[i] = bench_child_seconds(env, mode, usm, pocl);
    *warm = bench_median(t, 5);
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf %s %s", usm, pocl);
    if (system(cmd) != 0)
        fprintf(stderr, "bench: could not remove %s %s\n", usm, pocl);
    return *cold > 0 && *warm > 0 ? 0 : 1;
}

/* cold: new directories, no system cache (every kernel compiled); warm: the median of 5
 * runs on the directory the cold run filled; first: new directories, the system cache
 * read (a user's first process after `make install`). */
static double warm_cold = -1, warm_warm = -1, warm_first = -1;

static int warm_start_measure(const struct bench_env *env)
{
    if (warm_cold > 0)
        return 0;
    char usm[] = "/tmp/usmarr-bench-cache-XXXXXX", pocl[] = "/tmp/usmarr-bench-pocl-XXXXXX";
    if (!mkdtemp(usm) || !mkdtemp(pocl))
        return 1;
    warm_first = child_seconds(env, "", usm, pocl, true);
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf %s %s", usm, pocl);
    if (system(cmd) != 0)
        fprintf(stderr, "bench: could not remove %s %s\n", usm, pocl);
    return warm_first > 0 ? bench_warm_start(env, "", &warm_cold, &warm_warm) : 1;
}

static int run_warm_ratio(const struct bench_env *env, struct bench_result *r)
{
    if (warm_start_measure(env))
        return 1;
    r->ratio = warm_warm / warm_cold;
    snprintf(r->detail, sizeof r->detail,
             "10 casts from 10 source dtypes in a fresh process: compiled (no system cache) %.1f ms, warm disk "
             "cache %.2f ms (median of 5)",
             warm_cold * 1e3, warm_warm * 1e3);
    return 0;
}

static int run_warm_cold(const struct bench_env *env, struct bench_result *r)
{
    if (warm_start_measure(env))
        return 1;
    r->ratio = warm_first;
    r->bar = strstr(usmarr_context_info(env->ctx)->platform_name, "Portable Computing Language") ? 1.5 : 0.5;
    snprintf(r->detail, sizeof r->detail,
             "10 casts from 10 source dtypes in a fresh process with new USMARR_CACHE_DIR and POCL_CACHE_DIR: %.3f s "
             "with the system cache read, %.3f s compiling all (the ratio is in seconds)",
             warm_first, warm_cold);
    return 0;
}

static int run_warm_per_kernel(const struct bench_env *env, struct bench_result *r)
{
    if (warm_start_measure(env))
        return 1;
    r->ratio = warm_warm * 1e3 / 10;
    snprintf(r->detail, sizeof r->detail, "warm start %.2f ms per kernel (the ratio is in ms)", r->ratio);
    return 0;
}

const struct bench_case bench_copy[] = {
    {"copy-contig-64MiB-vs-memcpy", "contiguous 64 MiB float32 copy_into vs single-threaded host memcpy", 1.5,
     BENCH_AT_LEAST, run_contig},
    {"astype-f64-f32-16M-vs-numpy", "float64 -> float32 astype of 16M elements vs NumPy astype", 1.0, BENCH_AT_LEAST,
     run_cast},
    {"transpose-4096-vs-numpy", "4096x4096 float32 a.T -> C-contiguous vs NumPy", 5.0, BENCH_AT_LEAST, run_transpose},
    {"slice-2-3-4096-vs-numpy", "a[::2, ::3] of a 4096x4096 float32 -> contiguous vs NumPy", 2.0, BENCH_AT_LEAST,
     run_slice},
    {"warm-start-10-kernels", "fresh process, 10 distinct kernels: warm disk cache / cold", 1.0 / 20, BENCH_AT_MOST,
     run_warm_ratio},
    {"warm-start-10-kernels-cold-s", "fresh process, empty caches of its own, 10 distinct kernels: seconds (PoCL bar 1.5)",
     0.5, BENCH_AT_MOST, run_warm_cold},
    {"warm-start-ms-per-kernel", "fresh process, warm disk cache: ms per kernel", 5.0, BENCH_AT_MOST,
     run_warm_per_kernel},
    {"tiny-copy-16-vs-raw-enqueue", "16-element copy_into + finish vs raw enqueue + clFinish of a trivial kernel",
     1.25, BENCH_AT_MOST, run_tiny},
    {NULL, NULL, 0, BENCH_AT_LEAST, NULL},
};
