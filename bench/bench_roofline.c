/* Streaming cases held against the machine's limit (bench/roofline.c) measured in the same
 * run: each case's ratio is its fraction of the roofline, the C loop's time for the bytes
 * the case moves divided by the library's time (the fastest of each); the detail adds its
 * ratio against NumPy and the raw OpenCL kernel's time for the same bytes.  The first three
 * cases report the raw kernels themselves (a reference: no bar). */
#include "bench.h"

#include <stdio.h>
#include <string.h>

#define N (16 << 20)

/* id, case name, description, bar, the loop it is held against, bytes moved per element of
 * its N-element result (whole cache lines: a[::2] reads all of a), NumPy's setup and call. */
#define STREAMS(X)                                                                                                     \
    X(kernel_copy, "roofline-kernel-copy", "raw float16 kernel, copy: fraction of the roofline (reference)", 0,   \
      BENCH_STREAM_COPY, 8, NULL, NULL)                                                                                \
    X(kernel_add, "roofline-kernel-add", "raw float16 kernel, a + b: fraction of the roofline (reference)", 0,    \
      BENCH_STREAM_ADD, 12, NULL, NULL)                                                                                \
    X(kernel_triad, "roofline-kernel-triad", "raw float16 kernel, a + s*b: fraction of the roofline (reference)", \
      0, BENCH_STREAM_TRIAD, 12, NULL, NULL)                                                                           \
    X(copy, "roofline-copy-f32-16M", "contiguous 16M float32 copy_into: fraction of the roofline", 0.85,               \
      BENCH_STREAM_COPY, 8, "a = np.full(N, 1.5, np.float32); c = np.empty_like(a)", "np.copyto(c, a)")               \
    X(astype, "roofline-astype-f64-f32-16M", "16M float64 -> float32 astype into out: fraction of the roofline", 0.8,  \
      BENCH_STREAM_COPY, 12, "a = np.full(N, 3.75); c = np.empty(N, np.float32)",                                     \
      "np.copyto(c, a, casting=\"unsafe\")")                                                                           \
    X(fill, "roofline-fill-f32-16M", "fill of 16M float32: fraction of the roofline", 0.8, BENCH_STREAM_COPY, 4,       \
      "c = np.empty(N, np.float32)", "c.fill(1.5)")                                                                    \
    X(add, "roofline-add-f32-16M", "a + b, 16M float32: fraction of the roofline", 0.8, BENCH_STREAM_ADD, 12,          \
      "a = np.full(N, 1.5, np.float32); b = a + 1; c = np.empty_like(a)", "np.add(a, b, out=c)")                       \
    X(exp, "roofline-exp-f32-16M", "exp of 16M float32: fraction of the roofline", 0.8, BENCH_STREAM_COPY, 8,          \
      "a = np.full(N, 0.75, np.float32); c = np.empty_like(a)", "np.exp(a, out=c)")                                    \
    X(broadcast, "roofline-add-broadcast-4096x4096", "4096x4096 + a 4096 row, float32: fraction of the roofline", 0.7, \
      BENCH_STREAM_COPY, 8,                                                                                            \
      "a = np.full((4096, 4096), 1.5, np.float32); b = np.full(4096, 2.5, np.float32); c = np.empty_like(a)",          \
      "np.add(a, b, out=c)")                                                                                           \
    X(strided, "roofline-add-strided-32M", "a[::2] + b[::2] on 32M float32: fraction of the roofline", 0.7,            \
      BENCH_STREAM_ADD, 20, "a = np.full(2 * N, 1.5, np.float32); b = a + 1; c = np.empty(N, np.float32)",            \
      "np.add(a[::2], b[::2], out=c)")                                                                                 \
    X(where, "roofline-where-f32-16M", "where(bool, a, b), 16M float32: fraction of the roofline", 0.8,                \
      BENCH_STREAM_ADD, 13,                                                                                            \
      "m = np.arange(N) > N // 2; a = np.full(N, 1.5, np.float32); b = a + 1; c = np.empty_like(a)",                   \
      "np.where(m, a, b)")                                                                     \
    X(expr, "roofline-expr-f32-16M", "fused a * b + exp(c), 16M float32: fraction of the roofline", 0.7,               \
      BENCH_STREAM_TRIAD, 16,                                                                                          \
      "a = np.full(N, 0.5, np.float32); b = a + 1; c = a - 1; d = np.empty_like(a); t = np.empty_like(a)",             \
      "(np.multiply(a, b, out=d), np.exp(c, out=t), np.add(d, t, out=d))")

enum stream_id {
#define STREAM_ENUM_(id, name, description, bar, kind, bytes, setup, stmt) STREAM_##id,
    STREAMS(STREAM_ENUM_)
#undef STREAM_ENUM_
};

struct stream {
    enum bench_stream kind;
    double bytes;
    const char *setup, *stmt;
};

static const struct stream streams[] = {
#define STREAM_ROW_(id, name, description, bar, kind, bytes, setup, stmt) {kind, bytes, setup, stmt},
    STREAMS(STREAM_ROW_)
#undef STREAM_ROW_
};

struct operands {
    usmarr_array_t *a, *b, *c, *out;
    usmarr_expr_t *expr;
};

static int empty(usmarr_context_t *ctx, int ndim, const int64_t *shape, usmarr_dtype_t dtype, usmarr_array_t **a)
{
    return usmarr_array_empty(ctx, ndim, shape, dtype, USMARR_ORDER_C, USMARR_USM_DEVICE, a);
}

static int filled(usmarr_context_t *ctx, int ndim, const int64_t *shape, usmarr_dtype_t dtype, double value,
                  usmarr_array_t **a)
{
    BENCH_OK(empty(ctx, ndim, shape, dtype, a));
    BENCH_OK(usmarr_array_fill(*a, usmarr_scalar_float(value)));
    return 0;
}

/* a[::2] of a fresh 2N-element array. */
static int every_other(usmarr_context_t *ctx, double value, usmarr_array_t **view)
{
    int64_t n = 2 * (int64_t)N;
    usmarr_array_t *whole;
    BENCH_OK(filled(ctx, 1, &n, USMARR_FLOAT32, value, &whole));
    int rc = usmarr_array_index_text(whole, "::2", view);
    usmarr_array_release(whole);
    return rc ? bench_fail(rc, "a[::2]") : 0;
}

static int setup(usmarr_context_t *ctx, enum stream_id id, struct operands *o)
{
    int64_t n = N, square[2] = {4096, 4096}, row = 4096;
    switch (id) {
    case STREAM_astype:
        BENCH_OK(filled(ctx, 1, &n, USMARR_FLOAT64, 3.75, &o->a));
        break;
    case STREAM_broadcast:
        BENCH_OK(filled(ctx, 2, square, USMARR_FLOAT32, 1.5, &o->a));
        BENCH_OK(filled(ctx, 1, &row, USMARR_FLOAT32, 2.5, &o->b));
        BENCH_OK(empty(ctx, 2, square, USMARR_FLOAT32, &o->out));
        return 0;
    case STREAM_strided:
        BENCH_OK(every_other(ctx, 1.5, &o->a));
        BENCH_OK(every_other(ctx, 2.5, &o->b));
        break;
    case STREAM_where:
        BENCH_OK(usmarr_array_arange(ctx, 0, N, 1, USMARR_FLOAT32, USMARR_USM_DEVICE, &o->c));
        BENCH_OK(filled(ctx, 1, &n, USMARR_FLOAT32, N / 2, &o->b));
        BENCH_OK(usmarr_greater(o->c, o->b, NULL, &o->out)); /* half true */
        usmarr_array_release(o->c);
        usmarr_array_release(o->b);
        o->c = o->out;
        o->out = NULL;
        BENCH_OK(filled(ctx, 1, &n, USMARR_FLOAT32, 1.5, &o->a));
        BENCH_OK(filled(ctx, 1, &n, USMARR_FLOAT32, 2.5, &o->b));
        break;
    case STREAM_expr:
        BENCH_OK(usmarr_expr_create("a * b + exp(c)", NULL, 0, &o->expr));
        BENCH_OK(filled(ctx, 1, &n, USMARR_FLOAT32, -0.5, &o->c));
        /* fall through */
    default:
        BENCH_OK(filled(ctx, 1, &n, USMARR_FLOAT32, 0.5, &o->a));
        BENCH_OK(filled(ctx, 1, &n, USMARR_FLOAT32, 1.5, &o->b));
        break;
    }
    BENCH_OK(empty(ctx, 1, &n, USMARR_FLOAT32, &o->out));
    return usmarr_context_finish(ctx);
}

static int apply(enum stream_id id, struct operands *o)
{
    switch (id) {
    case STREAM_copy:
        return usmarr_array_copy_into(o->out, o->a);
    case STREAM_astype:
        return usmarr_array_astype(o->a, USMARR_FLOAT32, USMARR_ORDER_K, o->out, NULL);
    case STREAM_fill:
        return usmarr_array_fill(o->out, usmarr_scalar_float(1.5));
    case STREAM_exp:
        return usmarr_exp(o->a, o->out, NULL);
    case STREAM_where:
        return usmarr_where(o->c, o->a, o->b, o->out, NULL);
    case STREAM_expr: {
        usmarr_operand_t ops[3] = {{.array = o->a}, {.array = o->b}, {.array = o->c}};
        return usmarr_expr_apply(o->expr, ops, 3, o->out, NULL);
    }
    default:
        return usmarr_add(o->a, o->b, o->out, NULL);
    }
}

static void release(struct operands *o)
{
    usmarr_array_release(o->a);
    usmarr_array_release(o->b);
    usmarr_array_release(o->c);
    usmarr_array_release(o->out);
    usmarr_expr_release(o->expr);
}

/* The median and the fastest seconds of one call + finish, after a warm-up call (compile
 * or load, first touch), and the fastest of the raw kernels of the case's kind (plain and
 * non-temporal) launched between the library's passes, so that the load of other processes
 * weighs on both alike.  The fastest is held against the roofline, itself the fastest pass,
 * so that the load of other processes weighs on neither side; the median against NumPy's. */
static int time_stream(const struct bench_env *env, enum stream_id id, double *median, double *fastest,
                       double *raw_fastest)
{
    struct operands o = {0};
    struct bench_raw *raw[2] = {NULL, NULL};
    int rc = setup(env->ctx, id, &o);
    for (int k = 0; k < 2 && !rc; k++)
        rc = bench_raw_open(env, k == 1, &raw[k]);
    double t[64];
    int n = env->repeat > 64 ? 64 : env->repeat;
    *raw_fastest = -1;
    for (int i = -1; i < n && !rc; i++) {
        double t0 = bench_now();
        rc = apply(id, &o);
        if (!rc)
            rc = usmarr_context_finish(env->ctx);
        if (i >= 0)
            t[i] = bench_now() - t0;
        for (int k = 0; k < 2 && !rc; k++) {
            double r;
            if (raw[k] && !(rc = bench_raw_pass(raw[k], streams[id].kind, &r)) && i >= 0 &&
                (*raw_fastest < 0 || r < *raw_fastest))
                *raw_fastest = r;
        }
    }
    release(&o);
    bench_raw_close(raw[0]);
    bench_raw_close(raw[1]);
    if (rc)
        return bench_fail(rc, "the library call");
    *median = bench_median(t, n);
    *fastest = t[0];
    return 0;
}

static int run_kernel(const struct bench_roofline *rl, const struct stream *s, struct bench_result *r)
{
    int k = s->kind;
    double kernel = bench_roofline_kernel_seconds(rl, s->kind, s->bytes * N);
    if (kernel <= 0) {
        fprintf(stderr, "bench: the raw roofline kernel did not run on this device\n");
        return -1;
    }
    r->ratio = bench_roofline_seconds(rl, s->kind, s->bytes * N) / kernel;
    char nontemporal[32] = "not built";
    if (rl->kernel_nontemporal[k] > 0)
        snprintf(nontemporal, sizeof nontemporal, "%.2f ms", rl->kernel_nontemporal[k] * 1e3);
    snprintf(r->detail, sizeof r->detail,
             "16M float32: C loop on %d threads %.2f ms (non-temporal stores) / %.2f ms (plain); "
             "raw kernel %.2f ms (plain) / %s (non-temporal)",
             rl->threads, rl->loop_nontemporal[k] * 1e3, rl->loop_plain[k] * 1e3, rl->kernel_plain[k] * 1e3,
             nontemporal);
    return 0;
}

static int run_stream(const struct bench_env *env, struct bench_result *r, enum stream_id id)
{
    const struct stream *s = &streams[id];
    const struct bench_roofline *rl;
    BENCH_OK(bench_roofline_measure(env, &rl));
    if (!s->stmt)
        return run_kernel(rl, s, r);
    double lib = 0, fastest = 0, raw = 0;
    BENCH_OK(time_stream(env, id, &lib, &fastest, &raw));
    raw *= s->bytes / (s->kind == BENCH_STREAM_COPY ? 8.0 : 12.0); /* the raw kernel's bytes: 8 or 12 an element */
    char setup_text[512];
    snprintf(setup_text, sizeof setup_text, "N = 16 << 20; %s", s->setup);
    double np = bench_numpy_stmt(env, setup_text, s->stmt);
    if (np <= 0) {
        fprintf(stderr, "bench: NumPy unavailable\n");
        return -1;
    }
    double bytes = s->bytes * N, roof = bench_roofline_seconds(rl, s->kind, bytes),
           kernel = bench_roofline_kernel_seconds(rl, s->kind, bytes);
    r->ratio = roof / fastest;
    snprintf(r->detail, sizeof r->detail,
             "library %.2f ms, NumPy %.2f ms (ratio %.2f, medians); fastest: library %.2f ms, roofline %.2f ms, "
             "raw kernel %.2f ms (%g bytes an element, as the C loop's %s); raw kernel between the library's "
             "passes %.2f ms (library / raw %.2f)",
             lib * 1e3, np * 1e3, np / lib, fastest * 1e3, roof * 1e3, kernel * 1e3, s->bytes,
             s->kind == BENCH_STREAM_COPY ? "copy" : s->kind == BENCH_STREAM_ADD ? "add" : "triad", raw * 1e3,
             raw > 0 ? fastest / raw : 0);
    return 0;
}

#define STREAM_RUN_(id, name, description, bar, kind, bytes, setup, stmt)                                              \
    static int run_##id(const struct bench_env *env, struct bench_result *r) { return run_stream(env, r, STREAM_##id); }
STREAMS(STREAM_RUN_)
#undef STREAM_RUN_

const struct bench_case bench_roofline[] = {
#define STREAM_CASE_(id, name, description, bar, kind, bytes, setup, stmt)                                            \
    {name, description, bar, BENCH_AT_LEAST, run_##id},
    STREAMS(STREAM_CASE_)
#undef STREAM_CASE_
    {NULL, NULL, 0, BENCH_AT_LEAST, NULL},
};
