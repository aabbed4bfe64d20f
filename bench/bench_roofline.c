/* Streaming cases held against the machine's limit (bench/roofline.c) measured in the same
 * run, pass by pass: each round runs the library's call once, then the C loop and the raw
 * OpenCL kernel of the case's kind, plain and with non-temporal stores, so that the load of
 * other processes weighs on all of them alike.  A case's ratio is its fraction of the
 * roofline, the median over the rounds of the C loop's time for the bytes the case moves
 * over the library's time in the same round; the detail adds the medians, the ratio
 * against NumPy and the library's time over the raw kernel's for the same bytes.  The
 * first four cases report the raw kernels themselves (a reference: no bar). */
#include "bench.h"

#include <stdio.h>
#include <string.h>

#define N BENCH_STREAM_N

/* id, case name, description, bar, the loop it is held against, bytes moved per element of
 * its N-element result (whole cache lines: a[::2] reads all of a), the raw kernel of the
 * same job (bench/roofline.c), NumPy's setup and call. */
#define STREAMS(X)                                                                                                     \
    X(kernel_copy, "roofline-kernel-copy", "raw float16 kernel, copy: fraction of the roofline (reference)", 0,        \
      BENCH_STREAM_COPY, 8, NULL, NULL, NULL)                                                                          \
    X(kernel_add, "roofline-kernel-add", "raw float16 kernel, a + b: fraction of the roofline (reference)", 0,         \
      BENCH_STREAM_ADD, 12, NULL, NULL, NULL)                                                                          \
    X(kernel_triad, "roofline-kernel-triad", "raw float16 kernel, a + s*b: fraction of the roofline (reference)",      \
      0, BENCH_STREAM_TRIAD, 12, NULL, NULL, NULL)                                                                     \
    X(kernel_fill, "roofline-kernel-fill", "raw float16 kernel, fill: fraction of the roofline (reference)", 0,        \
      BENCH_STREAM_FILL, 4, NULL, NULL, NULL)                                                                          \
    X(copy, "roofline-copy-f32-16M", "contiguous 16M float32 copy_into: fraction of the roofline", 0.85,               \
      BENCH_STREAM_COPY, 8, "job_copy", "a = np.full(N, 1.5, np.float32); c = np.empty_like(a)",                       \
      "np.copyto(c, a)")                                                                                               \
    X(astype, "roofline-astype-f64-f32-16M", "16M float64 -> float32 astype into out: fraction of the roofline", 0.8,  \
      BENCH_STREAM_COPY, 12, "job_astype", "a = np.full(N, 3.75); c = np.empty(N, np.float32)",                        \
      "np.copyto(c, a, casting=\"unsafe\")")                                                                           \
    X(fill, "roofline-fill-f32-16M", "fill of 16M float32: fraction of the roofline", 0.8, BENCH_STREAM_FILL, 4,       \
      "job_fill",                                                                                                      \
      "c = np.empty(N, np.float32)", "c.fill(1.5)")                                                                    \
    X(add, "roofline-add-f32-16M", "a + b, 16M float32: fraction of the roofline", 0.8, BENCH_STREAM_ADD, 12,          \
      "job_add",                                                                                                       \
      "a = np.full(N, 1.5, np.float32); b = a + 1; c = np.empty_like(a)", "np.add(a, b, out=c)")                       \
    X(exp, "roofline-exp-f32-16M", "exp of 16M float32: fraction of the roofline", 0.8, BENCH_STREAM_COPY, 8,          \
      "job_exp",                                                                                                       \
      "a = np.full(N, 0.75, np.float32); c = np.empty_like(a)", "np.exp(a, out=c)")                                    \
    X(broadcast, "roofline-add-broadcast-4096x4096", "4096x4096 + a 4096 row, float32: fraction of the roofline", 0.7, \
      BENCH_STREAM_COPY, 8, "job_broadcast",                                                                           \
      "a = np.full((4096, 4096), 1.5, np.float32); b = np.full(4096, 2.5, np.float32); c = np.empty_like(a)",          \
      "np.add(a, b, out=c)")                                                                                           \
    X(strided, "roofline-add-strided-32M", "a[::2] + b[::2] on 32M float32: fraction of the roofline", 0.7,            \
      BENCH_STREAM_ADD, 20, "job_strided",                                                                             \
      "a = np.full(2 * N, 1.5, np.float32); b = a + 1; c = np.empty(N, np.float32)",                                   \
      "np.add(a[::2], b[::2], out=c)")                                                                                 \
    X(where, "roofline-where-f32-16M", "where(bool, a, b), 16M float32: fraction of the roofline", 0.8,                \
      BENCH_STREAM_ADD, 13, "job_where",                                                                               \
      "m = np.arange(N) > N // 2; a = np.full(N, 1.5, np.float32); b = a + 1; c = np.empty_like(a)",                   \
      "np.where(m, a, b)")                                                                                             \
    X(expr, "roofline-expr-f32-16M", "fused a * b + exp(c), 16M float32: fraction of the roofline", 0.7,               \
      BENCH_STREAM_TRIAD, 16, "job_expr",                                                                              \
      "a = np.full(N, 0.5, np.float32); b = a + 1; c = a - 1; d = np.empty_like(a); t = np.empty_like(a)",             \
      "(np.multiply(a, b, out=d), np.exp(c, out=t), np.add(d, t, out=d))")

enum stream_id {
#define STREAM_ENUM_(id, name, description, bar, kind, bytes, job, setup, stmt) STREAM_##id,
    STREAMS(STREAM_ENUM_)
#undef STREAM_ENUM_
};

struct stream {
    enum bench_stream kind;
    double bytes;
    const char *job, *setup, *stmt;
};

static const struct stream streams[] = {
#define STREAM_ROW_(id, name, description, bar, kind, bytes, job, setup, stmt) {kind, bytes, job, setup, stmt},
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

/* The series of one case's rounds: the library's pass and the references between them. */
enum series { LIB, LOOP_PLAIN, LOOP_NT, RAW_PLAIN, RAW_NT, SERIES };
#define ROUNDS 64

struct rounds {
    int n;
    double t[SERIES][ROUNDS];
};

/* One untimed round (compiles, first touch of every page), then env->repeat rounds (at
 * most ROUNDS); the library's pass only where `o` is given, and then the raw kernel is
 * the case's own job rather than the loop's kind. */
static int time_rounds(const struct bench_env *env, struct bench_roofline *rl, enum stream_id id, struct operands *o,
                       struct rounds *r)
{
    enum bench_stream kind = streams[id].kind;
    r->n = env->repeat > ROUNDS ? ROUNDS : env->repeat;
    for (int i = -1; i < r->n; i++) {
        double t[SERIES] = {0};
        if (o) {
            double t0 = bench_now();
            int rc = apply(id, o);
            if (!rc)
                rc = usmarr_context_finish(env->ctx);
            if (rc)
                return bench_fail(rc, "the library call");
            t[LIB] = bench_now() - t0;
        }
        BENCH_OK(bench_roofline_loop(rl, kind, false, &t[LOOP_PLAIN]));
        BENCH_OK(bench_roofline_loop(rl, kind, true, &t[LOOP_NT]));
        enum bench_stream raw = o ? BENCH_STREAM_JOB : kind;
        BENCH_OK(bench_roofline_kernel(rl, raw, false, &t[RAW_PLAIN]));
        BENCH_OK(bench_roofline_kernel(rl, raw, true, &t[RAW_NT]));
        for (int k = 0; i >= 0 && k < SERIES; k++)
            r->t[k][i] = t[k];
    }
    return 0;
}

/* The median of series k (negative where it was not measured). */
static double series_median(const struct rounds *r, enum series k)
{
    double t[ROUNDS];
    memcpy(t, r->t[k], sizeof(double) * (size_t)r->n);
    return t[0] < 0 ? -1 : bench_median(t, r->n);
}

/* Of plain and non-temporal stores, the series with the lower median. */
static enum series faster(const struct rounds *r, enum series plain, enum series nontemporal)
{
    double p = series_median(r, plain), q = series_median(r, nontemporal);
    return q > 0 && q < p ? nontemporal : plain;
}

/* The median over the rounds of (num * scale) / den, each round's pair measured
 * milliseconds apart. */
static double ratio_median(const struct rounds *r, enum series num, double scale, enum series den)
{
    double q[ROUNDS];
    for (int i = 0; i < r->n; i++)
        q[i] = r->t[num][i] * scale / r->t[den][i];
    return bench_median(q, r->n);
}

static const char *const kind_names[BENCH_STREAM_KINDS] = {"copy", "add", "triad", "fill"};
/* the bytes an element of each kind moves */
static const double kind_bytes[BENCH_STREAM_KINDS] = {8, 12, 12, 4};

static int run_stream(const struct bench_env *env, struct bench_result *res, enum stream_id id)
{
    const struct stream *s = &streams[id];
    struct bench_roofline *rl;
    struct operands o = {0};
    struct rounds r;
    BENCH_OK(bench_roofline_open(env, &rl));
    int rc = s->stmt ? setup(env->ctx, id, &o) : 0;
    if (!rc && s->job)
        rc = bench_roofline_job(rl, s->job, (usmarr_array_t *const[4]){o.a, o.b, o.c, o.out});
    if (!rc)
        rc = time_rounds(env, rl, id, s->stmt ? &o : NULL, &r);
    const char *isa;
    int threads = bench_roofline_threads(rl, &isa);
    bench_roofline_close(rl);
    release(&o);
    if (rc)
        return rc;
    enum series loop = faster(&r, LOOP_PLAIN, LOOP_NT), raw = faster(&r, RAW_PLAIN, RAW_NT);
    double scale = s->bytes / kind_bytes[s->kind]; /* the case's bytes over its kind's */
    /* the raw kernel of the case's own job moves the case's bytes; a kind's, the kind's */
    double raw_scale = s->job ? 1 : scale;
    double roof = series_median(&r, loop) * scale, kernel = series_median(&r, raw) * raw_scale;
    char refs[320];
    snprintf(refs, sizeof refs,
             "C loop (%d threads, %s, %s stores) %.2f ms for %g bytes an element / raw kernel%s (%s stores) %.2f ms "
             "(loop's %s: %.2f ms plain, %.2f ms non-temporal; raw kernel: %.2f ms plain, %.2f ms non-temporal)",
             threads, isa, loop == LOOP_NT ? "non-temporal" : "plain", roof * 1e3, s->bytes,
             s->job ? " of the same job" : "", raw == RAW_NT ? "non-temporal" : "plain", kernel * 1e3,
             kind_names[s->kind], series_median(&r, LOOP_PLAIN) * 1e3, series_median(&r, LOOP_NT) * 1e3,
             series_median(&r, RAW_PLAIN) * raw_scale * 1e3, series_median(&r, RAW_NT) * raw_scale * 1e3);
    if (!s->stmt) {
        res->ratio = ratio_median(&r, loop, 1, raw);
        snprintf(res->detail, sizeof res->detail, "medians of %d rounds: %s", r.n, refs);
        return 0;
    }
    char setup_text[512];
    snprintf(setup_text, sizeof setup_text, "N = %d; %s", N, s->setup);
    double np = bench_numpy_stmt(env, setup_text, s->stmt);
    if (np <= 0) {
        fprintf(stderr, "bench: NumPy unavailable\n");
        return -1;
    }
    double lib = series_median(&r, LIB);
    res->ratio = ratio_median(&r, loop, scale, LIB);
    snprintf(res->detail, sizeof res->detail,
             "medians of %d rounds: library %.2f ms, %s; library / raw kernel %.2f (median of the rounds'); "
             "NumPy %.2f ms (ratio %.2f)",
             r.n, lib * 1e3, refs, 1 / ratio_median(&r, raw, raw_scale, LIB), np * 1e3, np / lib);
    return 0;
}

#define STREAM_RUN_(id, name, description, bar, kind, bytes, job, setup, stmt)                                         \
    static int run_##id(const struct bench_env *env, struct bench_result *r) { return run_stream(env, r, STREAM_##id); }
STREAMS(STREAM_RUN_)
#undef STREAM_RUN_

const struct bench_case bench_roofline[] = {
#define STREAM_CASE_(id, name, description, bar, kind, bytes, job, setup, stmt)                                        \
    {name, description, bar, BENCH_AT_LEAST, run_##id},
    STREAMS(STREAM_CASE_)
#undef STREAM_CASE_
    {NULL, NULL, 0, BENCH_AT_LEAST, NULL},
};
