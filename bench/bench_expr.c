/* Benchmarks of fused expressions (include/usmarr/expr.h, doc/expressions.md): one kernel
 * for a whole expression against the chain of separate calls, NumPy 2 and numexpr (which
 * the bench installs from PyPI into $PYTHON_NUMPY's environment when it is absent), a fused
 * reduction against its two calls, and the first use of a new expression in a fresh
 * process with a warm disk cache (bench --child SELECTOR expr). */
#include "bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N (16 << 20)

struct data {
    usmarr_array_t *a, *b, *c, *out;
    usmarr_expr_t *e;
    usmarr_array_t *scalar_out; /* a reduction's result */
};

static int make_data(usmarr_context_t *ctx, struct data *d)
{
    int64_t n = N;
    memset(d, 0, sizeof *d);
    BENCH_OK(usmarr_array_arange(ctx, 0, 1, 1.0 / N, USMARR_FLOAT32, USMARR_USM_DEVICE, &d->a));
    BENCH_OK(usmarr_array_arange(ctx, 1, 3, 2.0 / N, USMARR_FLOAT32, USMARR_USM_DEVICE, &d->b));
    BENCH_OK(usmarr_array_arange(ctx, -1, 0, 1.0 / N, USMARR_FLOAT32, USMARR_USM_DEVICE, &d->c));
    BENCH_OK(usmarr_array_empty(ctx, 1, &n, USMARR_FLOAT32, USMARR_ORDER_C, USMARR_USM_DEVICE, &d->out));
    return 0;
}

static void release_data(struct data *d)
{
    usmarr_array_release(d->a);
    usmarr_array_release(d->b);
    usmarr_array_release(d->c);
    usmarr_array_release(d->out);
    usmarr_array_release(d->scalar_out);
    usmarr_expr_release(d->e);
}

/* Median seconds of fn(d) + finish, after one warm-up call (compile or load, first touch). */
static int time_fn(const struct bench_env *env, int (*fn)(struct data *), struct data *d, double *median)
{
    BENCH_OK(fn(d));
    BENCH_OK(usmarr_context_finish(env->ctx));
    double t[64];
    int n = env->repeat > 64 ? 64 : env->repeat;
    for (int i = 0; i < n; i++) {
        double t0 = bench_now();
        BENCH_OK(fn(d));
        BENCH_OK(usmarr_context_finish(env->ctx));
        t[i] = bench_now() - t0;
    }
    *median = bench_median(t, n);
    return 0;
}

static int fused(struct data *d)
{
    usmarr_operand_t ops[3] = {{.array = d->a}, {.array = d->b}, {.array = d->c}};
    return usmarr_expr_apply(d->e, ops, usmarr_expr_operand_count(d->e), d->out, NULL);
}

/* a * b + exp(c) as three calls, as the same C written call by call (new temporaries). */
static int chain3(struct data *d)
{
    usmarr_array_t *t1 = NULL, *t2 = NULL;
    int rc = usmarr_multiply(d->a, d->b, NULL, &t1);
    if (!rc)
        rc = usmarr_exp(d->c, NULL, &t2);
    if (!rc)
        rc = usmarr_add(t1, t2, d->out, NULL);
    usmarr_array_release(t1);
    usmarr_array_release(t2);
    return rc;
}

static const char *const three_op = "a * b + exp(c)";

/* The fused and chained times of a * b + exp(c), measured once per run. */
static double t_fused = -1, t_chain = -1;
static int measure_three(const struct bench_env *env)
{
    if (t_fused > 0)
        return 0;
    struct data d;
    int rc = make_data(env->ctx, &d);
    if (!rc)
        rc = usmarr_expr_create(three_op, NULL, 0, &d.e);
    if (!rc)
        rc = time_fn(env, fused, &d, &t_fused);
    if (!rc)
        rc = time_fn(env, chain3, &d, &t_chain);
    release_data(&d);
    return rc;
}

static int run_three_vs_chain(const struct bench_env *env, struct bench_result *r)
{
    BENCH_OK(measure_three(env));
    r->ratio = t_chain / t_fused;
    snprintf(r->detail, sizeof r->detail, "16M float32 %s: fused %.2f ms, three calls %.2f ms", three_op,
             t_fused * 1e3, t_chain * 1e3);
    return 0;
}

static const char numpy_setup[] = "n = 16 << 20; a = np.linspace(0, 1, n, dtype=np.float32); "
                                  "b = np.linspace(1, 3, n, dtype=np.float32); c = np.linspace(-1, 0, n, "
                                  "dtype=np.float32); d = np.empty_like(a)";

static int run_three_vs_numpy(const struct bench_env *env, struct bench_result *r)
{
    BENCH_OK(measure_three(env));
    double np = bench_numpy_stmt(env, numpy_setup, "np.add(a * b, np.exp(c), out=d)");
    if (np <= 0) {
        fprintf(stderr, "bench: NumPy unavailable for expr-vs-numpy\n");
        return -1;
    }
    r->ratio = np / t_fused;
    snprintf(r->detail, sizeof r->detail, "16M float32 %s: fused %.2f ms, NumPy %.2f ms", three_op, t_fused * 1e3,
             np * 1e3);
    return 0;
}

/* numexpr in $PYTHON_NUMPY's environment, installed from PyPI when absent. */
static int ensure_numexpr(void)
{
    const char *py = getenv("PYTHON_NUMPY");
    if (!py || !*py)
        py = "python3";
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s -c 'import numexpr' 2>/dev/null", py);
    if (system(cmd) == 0)
        return 0;
    fprintf(stderr, "bench: installing numexpr from PyPI for %s\n", py);
    snprintf(cmd, sizeof cmd, "%s -m pip install -q --disable-pip-version-check numexpr >&2", py);
    if (system(cmd) != 0)
        return -1;
    snprintf(cmd, sizeof cmd, "%s -c 'import numexpr' 2>/dev/null", py);
    return system(cmd) == 0 ? 0 : -1;
}

static int run_three_vs_numexpr(const struct bench_env *env, struct bench_result *r)
{
    BENCH_OK(measure_three(env));
    if (ensure_numexpr()) {
        fprintf(stderr, "bench: numexpr unavailable (pip install numexpr failed)\n");
        return -1;
    }
    char setup[1024];
    snprintf(setup, sizeof setup, "import os, numexpr as ne; ne.set_num_threads(os.cpu_count()); %s", numpy_setup);
    double ne = bench_numpy_stmt(env, setup, "ne.evaluate(\"a * b + exp(c)\", out=d)");
    if (ne <= 0)
        return -1;
    r->ratio = ne / t_fused;
    snprintf(r->detail, sizeof r->detail, "16M float32 %s: fused %.2f ms, numexpr on every core %.2f ms", three_op,
             t_fused * 1e3, ne * 1e3);
    return 0;
}

/* ---- sum(a * b) against multiply + sum ---------------------------------------------------- */

static int fused_sum(struct data *d)
{
    usmarr_operand_t ops[2] = {{.array = d->a}, {.array = d->b}};
    return usmarr_expr_reduce(d->e, ops, 2, 0, NULL, false, d->scalar_out, NULL);
}

static int chain_sum(struct data *d)
{
    usmarr_array_t *t = NULL;
    int rc = usmarr_multiply(d->a, d->b, NULL, &t);
    if (!rc)
        rc = usmarr_sum(t, 0, NULL, false, d->scalar_out, NULL);
    usmarr_array_release(t);
    return rc;
}

static int run_sum(const struct bench_env *env, struct bench_result *r)
{
    struct data d;
    double tf = -1, tc = -1;
    int rc = make_data(env->ctx, &d);
    if (!rc)
        rc = usmarr_expr_create("sum(a * b)", NULL, 0, &d.e);
    if (!rc)
        rc = usmarr_array_empty(env->ctx, 0, NULL, USMARR_FLOAT32, USMARR_ORDER_C, USMARR_USM_DEVICE, &d.scalar_out);
    if (!rc)
        rc = time_fn(env, fused_sum, &d, &tf);
    if (!rc)
        rc = time_fn(env, chain_sum, &d, &tc);
    release_data(&d);
    if (rc)
        return rc;
    r->ratio = tc / tf;
    snprintf(r->detail, sizeof r->detail, "16M float32 sum(a * b): fused %.2f ms, multiply + sum %.2f ms", tf * 1e3,
             tc * 1e3);
    return 0;
}

/* ---- a 10-operation expression against its 10 calls ------------------------------------------ */

static const char *const ten_op = "((a + b) * (a - b) + c * c - a * 0.5) / (1 + b * b)";

static int chain10(struct data *d)
{
    usmarr_array_t *t[9] = {NULL};
    usmarr_operand_t half[2] = {{.array = d->a}, {.scalar = usmarr_scalar_float(0.5)}};
    usmarr_operand_t one[2] = {{.scalar = usmarr_scalar_int(1)}, {.array = NULL}};
    int rc = usmarr_add(d->a, d->b, NULL, &t[0]);
    if (!rc)
        rc = usmarr_subtract(d->a, d->b, NULL, &t[1]);
    if (!rc)
        rc = usmarr_multiply(t[0], t[1], NULL, &t[2]);
    if (!rc)
        rc = usmarr_multiply(d->c, d->c, NULL, &t[3]);
    if (!rc)
        rc = usmarr_add(t[2], t[3], NULL, &t[4]);
    if (!rc)
        rc = usmarr_elementwise("multiply", half, 2, NULL, &t[5]);
    if (!rc)
        rc = usmarr_subtract(t[4], t[5], NULL, &t[6]);
    if (!rc)
        rc = usmarr_multiply(d->b, d->b, NULL, &t[7]);
    if (!rc) {
        one[1].array = t[7];
        rc = usmarr_elementwise("add", one, 2, NULL, &t[8]);
    }
    if (!rc)
        rc = usmarr_divide(t[6], t[8], d->out, NULL);
    for (int i = 0; i < 9; i++)
        usmarr_array_release(t[i]);
    return rc;
}

static int run_ten(const struct bench_env *env, struct bench_result *r)
{
    struct data d;
    double tf = -1, tc = -1;
    int rc = make_data(env->ctx, &d);
    if (!rc)
        rc = usmarr_expr_create(ten_op, NULL, 0, &d.e);
    if (!rc)
        rc = time_fn(env, fused, &d, &tf);
    if (!rc)
        rc = time_fn(env, chain10, &d, &tc);
    release_data(&d);
    if (rc)
        return rc;
    r->ratio = tc / tf;
    snprintf(r->detail, sizeof r->detail, "16M float32 %s: fused %.2f ms, 10 calls %.2f ms", ten_op, tf * 1e3,
             tc * 1e3);
    return 0;
}

/* ---- the first use of a new expression in a fresh process -------------------------------------- */

/* Child (bench --child SELECTOR expr): a context and small arrays, then the time from
 * creating an expression to its first result being finished. */
int bench_expr_child(const char *selector)
{
    usmarr_context_t *ctx;
    if (usmarr_context_create(selector, &ctx))
        return 1;
    int64_t n = 1000;
    usmarr_array_t *a = NULL, *b = NULL, *r = NULL;
    if (usmarr_array_ones(ctx, 1, &n, USMARR_FLOAT32, USMARR_ORDER_C, USMARR_USM_DEVICE, &a) ||
        usmarr_array_ones(ctx, 1, &n, USMARR_FLOAT32, USMARR_ORDER_C, USMARR_USM_DEVICE, &b) ||
        usmarr_context_finish(ctx))
        return 1;
    double t0 = bench_now();
    usmarr_expr_t *e = NULL;
    usmarr_operand_t ops[2] = {{.array = a}, {.array = b}};
    if (usmarr_expr_create("sqrt(x * x + y * y) - 0.25 * minimum(x, y)", NULL, 0, &e) ||
        usmarr_expr_apply(e, ops, 2, NULL, &r) || usmarr_context_finish(ctx))
        return 1;
    printf("seconds=%.6f\n", bench_now() - t0);
    usmarr_expr_release(e);
    usmarr_array_release(r);
    usmarr_array_release(a);
    usmarr_array_release(b);
    usmarr_context_release(ctx);
    return 0;
}

static int run_first_use(const struct bench_env *env, struct bench_result *r)
{
    double cold, warm;
    if (bench_warm_start(env, "expr", &cold, &warm))
        return 1;
    r->ratio = warm * 1e3;
    snprintf(r->detail, sizeof r->detail,
             "a new expression's first result in a fresh process: warm disk cache %.2f ms, cold %.1f ms (the ratio "
             "is in ms)",
             warm * 1e3, cold * 1e3);
    return 0;
}

const struct bench_case bench_expr[] = {
    {"expr-vs-chain", "16M float32 a * b + exp(c): fused / three calls", 2.5, BENCH_AT_LEAST, run_three_vs_chain},
    {"expr-vs-numpy", "16M float32 a * b + exp(c): fused / NumPy", 3.0, BENCH_AT_LEAST, run_three_vs_numpy},
    {"expr-vs-numexpr", "16M float32 a * b + exp(c): fused / numexpr", 1.5, BENCH_AT_LEAST, run_three_vs_numexpr},
    {"expr-sum-vs-chain", "16M float32 sum(a * b): fused / multiply + sum", 1.8, BENCH_AT_LEAST, run_sum},
    {"expr-10-ops-vs-chain", "16M float32, 10 operations: fused / 10 calls", 5.0, BENCH_AT_LEAST, run_ten},
    {"expr-first-use-ms", "a new expression in a fresh process, warm disk cache: ms", 5.0, BENCH_AT_MOST,
     run_first_use},
    {NULL, NULL, 0, BENCH_AT_LEAST, NULL},
};
