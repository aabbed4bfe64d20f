/* Benchmarks of elementwise functions and reductions, each against NumPy
 * measured in the same run (a $PYTHON_NUMPY child times the same operation with `out=`). */
#include "bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int empty(usmarr_context_t *ctx, int ndim, const int64_t *shape, usmarr_array_t **a)
{
    return usmarr_array_empty(ctx, ndim, shape, USMARR_FLOAT32, USMARR_ORDER_C, USMARR_USM_DEVICE, a);
}

static double numpy_seconds(const struct bench_env *env, const char *setup, const char *stmt)
{
    return bench_numpy_stmt(env, setup, stmt);
}

/* Median seconds of one elementwise/reduction call + finish. */
typedef int (*op_fn)(void *ctx);
static int time_op(const struct bench_env *env, op_fn fn, void *arg, double *median)
{
    BENCH_OK(fn(arg)); /* warm-up: compile or load, first touch */
    BENCH_OK(usmarr_context_finish(env->ctx));
    double t[64];
    int n = env->repeat > 64 ? 64 : env->repeat;
    for (int i = 0; i < n; i++) {
        double t0 = bench_now();
        BENCH_OK(fn(arg));
        BENCH_OK(usmarr_context_finish(env->ctx));
        t[i] = bench_now() - t0;
    }
    *median = bench_median(t, n);
    return 0;
}

struct args {
    usmarr_array_t *a, *b, *out;
    int axis;
};
static int do_add(void *p)
{
    struct args *x = p;
    return usmarr_add(x->a, x->b, x->out, NULL);
}
static int do_exp(void *p)
{
    struct args *x = p;
    return usmarr_exp(x->a, x->out, NULL);
}
static int do_sum(void *p)
{
    struct args *x = p;
    return usmarr_sum(x->a, x->axis < 0 ? 0 : 1, x->axis < 0 ? NULL : &x->axis, false, x->out, NULL);
}

static int finish_case(struct bench_result *r, double lib, double np, const char *what)
{
    if (np <= 0) {
        fprintf(stderr, "bench: NumPy unavailable for %s\n", what);
        return -1;
    }
    r->ratio = np / lib;
    snprintf(r->detail, sizeof r->detail, "%s: library %.2f ms, NumPy %.2f ms", what, lib * 1e3, np * 1e3);
    return 0;
}

static void release(struct args *x)
{
    usmarr_array_release(x->a);
    usmarr_array_release(x->b);
    usmarr_array_release(x->out);
}

static int run_add_contig(const struct bench_env *env, struct bench_result *r)
{
    int64_t n = 16 << 20;
    struct args x = {0};
    BENCH_OK(empty(env->ctx, 1, &n, &x.a));
    BENCH_OK(empty(env->ctx, 1, &n, &x.b));
    BENCH_OK(empty(env->ctx, 1, &n, &x.out));
    BENCH_OK(usmarr_array_fill(x.a, usmarr_scalar_float(1.5)));
    BENCH_OK(usmarr_array_fill(x.b, usmarr_scalar_float(2.5)));
    double lib;
    int rc = time_op(env, do_add, &x, &lib);
    release(&x);
    if (rc)
        return rc;
    return finish_case(r, lib, numpy_seconds(env, "a = np.full(16 << 20, 1.5, np.float32); b = a + 1; c = np.empty_like(a)",
                                             "np.add(a, b, out=c)"),
                       "16M float32 a + b");
}

static int run_add_broadcast(const struct bench_env *env, struct bench_result *r)
{
    int64_t shape[2] = {4096, 4096}, row = 4096;
    struct args x = {0};
    BENCH_OK(empty(env->ctx, 2, shape, &x.a));
    BENCH_OK(empty(env->ctx, 1, &row, &x.b));
    BENCH_OK(empty(env->ctx, 2, shape, &x.out));
    BENCH_OK(usmarr_array_fill(x.a, usmarr_scalar_float(1.5)));
    BENCH_OK(usmarr_array_fill(x.b, usmarr_scalar_float(2.5)));
    double lib;
    int rc = time_op(env, do_add, &x, &lib);
    release(&x);
    if (rc)
        return rc;
    return finish_case(r, lib,
                       numpy_seconds(env, "a = np.full((4096, 4096), 1.5, np.float32); b = np.full(4096, 2.5, np.float32); "
                                          "c = np.empty_like(a)",
                                     "np.add(a, b, out=c)"),
                       "4096x4096 + 4096-row float32");
}

static int run_add_strided(const struct bench_env *env, struct bench_result *r)
{
    int64_t n = 32 << 20, half = 16 << 20;
    usmarr_array_t *a, *b;
    struct args x = {0};
    BENCH_OK(empty(env->ctx, 1, &n, &a));
    BENCH_OK(empty(env->ctx, 1, &n, &b));
    BENCH_OK(usmarr_array_fill(a, usmarr_scalar_float(1.5)));
    BENCH_OK(usmarr_array_fill(b, usmarr_scalar_float(2.5)));
    BENCH_OK(usmarr_array_index_text(a, "::2", &x.a));
    BENCH_OK(usmarr_array_index_text(b, "::2", &x.b));
    BENCH_OK(empty(env->ctx, 1, &half, &x.out));
    usmarr_array_release(a);
    usmarr_array_release(b);
    double lib;
    int rc = time_op(env, do_add, &x, &lib);
    release(&x);
    if (rc)
        return rc;
    return finish_case(r, lib,
                       numpy_seconds(env, "a = np.full(32 << 20, 1.5, np.float32); b = a + 1; c = np.empty(16 << 20, np.float32)",
                                     "np.add(a[::2], b[::2], out=c)"),
                       "a[::2] + b[::2], 32M float32");
}

static int run_exp(const struct bench_env *env, struct bench_result *r)
{
    int64_t n = 16 << 20;
    struct args x = {0};
    BENCH_OK(empty(env->ctx, 1, &n, &x.a));
    BENCH_OK(empty(env->ctx, 1, &n, &x.out));
    BENCH_OK(usmarr_array_fill(x.a, usmarr_scalar_float(0.75)));
    double lib;
    int rc = time_op(env, do_exp, &x, &lib);
    release(&x);
    if (rc)
        return rc;
    return finish_case(r, lib, numpy_seconds(env, "a = np.full(16 << 20, 0.75, np.float32); c = np.empty_like(a)",
                                             "np.exp(a, out=c)"),
                       "exp of 16M float32");
}

static int run_sum(const struct bench_env *env, struct bench_result *r, int ndim, const int64_t *shape, int axis,
                   const char *np_shape, const char *what)
{
    struct args x = {0};
    x.axis = axis;
    BENCH_OK(empty(env->ctx, ndim, shape, &x.a));
    BENCH_OK(usmarr_array_fill(x.a, usmarr_scalar_float(0.5)));
    int64_t oshape[2];
    int on = 0;
    for (int d = 0; d < ndim; d++)
        if (axis >= 0 && d != axis)
            oshape[on++] = shape[d];
    BENCH_OK(empty(env->ctx, on, oshape, &x.out));
    double lib;
    int rc = time_op(env, do_sum, &x, &lib);
    release(&x);
    if (rc)
        return rc;
    char setup[256], stmt[128];
    if (axis >= 0) { /* into a preallocated result, as the library's */
        snprintf(setup, sizeof setup, "a = np.full(%s, 0.5, np.float32); c = np.sum(a, axis=%d)", np_shape, axis);
        snprintf(stmt, sizeof stmt, "np.sum(a, axis=%d, out=c)", axis);
    } else {
        snprintf(setup, sizeof setup, "a = np.full(%s, 0.5, np.float32)", np_shape);
    }
    if (axis < 0)
        snprintf(stmt, sizeof stmt, "np.sum(a)");
    return finish_case(r, lib, numpy_seconds(env, setup, stmt), what);
}

static int run_sum_axis0(const struct bench_env *env, struct bench_result *r)
{
    int64_t shape[2] = {4096, 4096};
    return run_sum(env, r, 2, shape, 0, "(4096, 4096)", "sum axis 0 of 4096x4096 float32 (outer axis)");
}

static int run_sum_axis1(const struct bench_env *env, struct bench_result *r)
{
    int64_t shape[2] = {4096, 4096};
    return run_sum(env, r, 2, shape, 1, "(4096, 4096)", "sum axis 1 of 4096x4096 float32 (inner contiguous axis)");
}

static int run_sum_short(const struct bench_env *env, struct bench_result *r)
{
    int64_t shape[2] = {4 << 20, 3};
    return run_sum(env, r, 2, shape, 1, "(4 << 20, 3)", "sum axis 1 of (4M, 3) float32 (short axis)");
}

static int run_sum_all(const struct bench_env *env, struct bench_result *r)
{
    int64_t n = 16 << 20;
    return run_sum(env, r, 1, &n, -1, "16 << 20", "sum of all 16M float32 (all axes, split)");
}

static int tiny_add(void *arg)
{
    struct args *x = arg;
    return usmarr_add(x->a, x->b, x->out, NULL);
}

static int run_tiny(const struct bench_env *env, struct bench_result *r)
{
    int64_t n = 16;
    struct args x = {0};
    BENCH_OK(empty(env->ctx, 1, &n, &x.a));
    BENCH_OK(empty(env->ctx, 1, &n, &x.b));
    BENCH_OK(empty(env->ctx, 1, &n, &x.out));
    BENCH_OK(usmarr_array_fill(x.a, usmarr_scalar_float(2)));
    BENCH_OK(usmarr_array_fill(x.b, usmarr_scalar_float(3)));
    double lib, raw;
    int rc = bench_tiny_vs_raw(env, tiny_add, &x, 1, 2000, &lib, &raw);
    release(&x);
    if (rc)
        return rc;
    r->ratio = lib / raw;
    snprintf(r->detail, sizeof r->detail, "median of 2000: library add + finish %.1f us, raw enqueue + clFinish %.1f us",
             lib * 1e6, raw * 1e6);
    return 0;
}

/* The 16M float32 add on the same device through the SVM backend (a second context made
 * with USMARR_USM_BACKEND=svm) against the USM path; rounds alternate between the two. */
static int add_arrays(usmarr_context_t *ctx, struct args *x)
{
    int64_t n = 16 << 20;
    BENCH_OK(empty(ctx, 1, &n, &x->a));
    BENCH_OK(empty(ctx, 1, &n, &x->b));
    BENCH_OK(empty(ctx, 1, &n, &x->out));
    BENCH_OK(usmarr_array_fill(x->a, usmarr_scalar_float(1.5)));
    BENCH_OK(usmarr_array_fill(x->b, usmarr_scalar_float(2.5)));
    return 0;
}

static int run_add_svm(const struct bench_env *env, struct bench_result *r)
{
    const usmarr_device_info_t *info = usmarr_context_info(env->ctx);
    if (info->backend != USMARR_BACKEND_USM || !(info->svm_caps & CL_DEVICE_SVM_COARSE_GRAIN_BUFFER)) {
        fprintf(stderr, "bench: svm-backend: the device under test must run on USM and have coarse-grained SVM\n");
        return -1;
    }
    const char *was = getenv("USMARR_USM_BACKEND");
    char *saved = was ? strdup(was) : NULL;
    setenv("USMARR_USM_BACKEND", "svm", 1);
    struct bench_env svm_env = *env;
    int rc = usmarr_context_create(info->selector, &svm_env.ctx);
    if (saved)
        setenv("USMARR_USM_BACKEND", saved, 1);
    else
        unsetenv("USMARR_USM_BACKEND");
    free(saved);
    BENCH_OK(rc);
    struct args usm = {0}, svm = {0};
    enum { ROUNDS = 5 }; /* alternating, so that a change of load hits both sides alike */
    double t_usm[ROUNDS], t_svm[ROUNDS];
    rc = add_arrays(env->ctx, &usm);
    if (!rc)
        rc = add_arrays(svm_env.ctx, &svm);
    for (int round = 0; round < ROUNDS && !rc; round++) {
        rc = time_op(env, do_add, &usm, &t_usm[round]);
        if (!rc)
            rc = time_op(&svm_env, do_add, &svm, &t_svm[round]);
    }
    release(&usm);
    release(&svm);
    usmarr_context_release(svm_env.ctx);
    if (rc)
        return rc;
    double a = bench_median(t_usm, ROUNDS), b = bench_median(t_svm, ROUNDS);
    r->ratio = a / b;
    snprintf(r->detail, sizeof r->detail, "16M float32 a + b: USM %.2f ms, SVM backend %.2f ms (medians of %d rounds)",
             a * 1e3, b * 1e3, (int)ROUNDS);
    return 0;
}

const struct bench_case bench_ops[] = {
    {"add-f32-16M", "a + b, 16M float32 contiguous, vs NumPy", 1.3, BENCH_AT_LEAST, run_add_contig},
    {"add-broadcast-4096x4096", "4096x4096 + a 4096 row, float32, vs NumPy", 1.0, BENCH_AT_LEAST, run_add_broadcast},
    {"add-strided-32M", "a[::2] + b[::2] on 32M float32, vs NumPy", 1.0, BENCH_AT_LEAST, run_add_strided},
    {"exp-f32-16M", "exp of 16M float32, vs NumPy", 1.0, BENCH_AT_LEAST, run_exp},
    {"sum-axis0-4096x4096", "sum over axis 0 of 4096x4096 float32, vs NumPy", 1.0, BENCH_AT_LEAST, run_sum_axis0},
    {"sum-axis1-4096x4096", "sum over axis 1 of 4096x4096 float32, vs NumPy", 1.0, BENCH_AT_LEAST, run_sum_axis1},
    {"sum-axis1-4Mx3", "sum over axis 1 of a (4M, 3) float32, vs NumPy", 1.0, BENCH_AT_LEAST, run_sum_short},
    {"sum-all-16M", "sum of all 16M float32, vs NumPy", 1.0, BENCH_AT_LEAST, run_sum_all},
    {"tiny-add-16-vs-raw-enqueue", "16-element add + finish vs raw enqueue + clFinish of a trivial kernel", 1.25,
     BENCH_AT_MOST, run_tiny},
    {"svm-backend-add-f32-16M", "a + b, 16M float32, through the SVM backend vs the USM path, same device", 0.95,
     BENCH_AT_LEAST, run_add_svm},
    {NULL, NULL, 0, BENCH_AT_LEAST, NULL},
};
