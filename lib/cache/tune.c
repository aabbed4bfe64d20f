/* The kernel-shape tuner (doc/engine.md, "Tuning"): on the context's own device, each
 * question below times its candidate shapes on a workload of the operations whose kernels
 * the question's fields shape, and keeps the fastest.  Candidates run interleaved (A, B,
 * C, A, B, C, ...) and each is judged by the median over the rounds of its time over the
 * shape in use's in the same round: the two ran milliseconds apart, so that background
 * load, which comes and goes over seconds, weighs on both alike (the fastest pass of each,
 * as judged before, could come from calm moments seconds apart); the shape in use is kept
 * unless another is faster by more than KEEP_MARGIN.  The questions run one after the other (each starting from the
 * answers so far) until the time budget is spent; the rest keep the table's values.  The
 * result goes into ctx->shape and, through kernel_shape.c, into the disk cache. */
#include "cache_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define KEEP_MARGIN 0.05 /* another candidate must be 5 % faster than the shape in use */
#define MAX_ROUNDS 40
#define MIN_ROUNDS 5
#define MAX_CANDIDATES 6

enum workload { W_CONTIG, W_LARGE, W_RUNS, W_STRIDED, W_ROWS, W_SLICE, W_COPIES, W_TRANSPOSE, W_REDUCE, W_TINY };

struct question {
    const char *name;
    enum workload workload;
    const char *candidates[MAX_CANDIDATES]; /* fields over the shape so far; NULL ends */
};

/* In order: each answer is the base of the next question; the questions whose answers
 * moved the benchmarks most come first, since a budget spent leaves the rest at the
 * table's values (PoCL compiles about a second per candidate program on a busy machine). */
static const struct question questions[] = {
    {"rows of 16-vectors", W_STRIDED, {"rowvec=0", "rowvec=64", "rowvec=256", NULL}},
    {"transposes", W_TRANSPOSE,
     {"tblock=0 tile=0 s2=16", "tblock=0 tile=0 s2=32", "tblock=0 tile=1 s2=16", "tblock=1 tile=0 s2=16", NULL}},
    {"contiguous", W_CONTIG, {"contig=vec16/64", "contig=vec16/256", "contig=one/256", NULL}},
    {"non-temporal stores", W_LARGE, {"nt=0", "nt=8M", NULL}},
    {"16-vectors a work-item", W_RUNS, {"vecs=1", "vecs=4", "vecs=16", NULL}},
    {"copies as 16-vectors", W_COPIES, {"copyvec=0", "copyvec=64", "copyvec=256", NULL}},
    {"unit and zero strides compiled in", W_STRIDED, {"masks=0", "masks=1", NULL}},
    {"row groups", W_ROWS, {"rowgroup=128x2", "rowgroup=256x1", "rowgroup=64x4", "rowgroup=512x1", NULL}},
    {"row groups for inner strides up to", W_SLICE, {"rows=1", "rows=4", "rows=8", NULL}},
    {"reductions", W_REDUCE, {"tree=0", "tree=256/32", NULL}},
    {"operand addresses by value", W_TINY, {"ptrval=0", "ptrval=1", NULL}},
};
#define NQUESTIONS (sizeof questions / sizeof questions[0])

const char *usmarr__tune_candidate(size_t index)
{
    for (size_t q = 0; q < NQUESTIONS; q++)
        for (size_t c = 0; questions[q].candidates[c]; c++)
            if (index-- == 0)
                return questions[q].candidates[c];
    return NULL;
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* The arrays of every workload, allocated once: float32, device USM.  The large operands
 * are at least LARGE_N elements and twice the last-level cache (large_elements): at 32 MiB
 * an operand on a CPU with a 32 MiB L3, plain stores kept part of each result in the cache
 * for the next pass, and the tuner chose them over non-temporal ones that copied 64 MiB in
 * half the time. */
#define LARGE_N ((int64_t)8 << 20) /* 32 MiB: above nt=8M */
#define LARGE_MAX ((int64_t)64 << 20)
#define CONTIG_N ((int64_t)1 << 20)
#define TINY_N 16
#define TINY_LAUNCHES 64 /* 16-element adds, each finished: a launch's cost is the driver's */
#define EDGE 2048
struct arrays {
    usmarr_array_t *a, *b, *c;           /* large_elements() each */
    usmarr_array_t *small_a, *small_c;   /* CONTIG_N-element views */
    usmarr_array_t *tiny_a, *tiny_c;     /* TINY_N-element views */
    usmarr_array_t *sq, *row, *sq_out;   /* EDGE x EDGE views, a row of EDGE */
    usmarr_array_t *half_a, *half_b, *half_c; /* a[::2], b[::2], c[:n/2] */
    usmarr_array_t *slice, *slice_out;   /* sq[::2, ::3] and a C-ordered result */
    usmarr_array_t *trans;               /* sq.T */
    usmarr_array_t *sum0, *sum1;         /* EDGE elements */
};

static int view(const usmarr_array_t *base, int ndim, const int64_t *shape, const int64_t *strides, int64_t offset,
                usmarr_array_t **out)
{
    usmarr_array_options_t o = USMARR_ARRAY_OPTIONS_INIT;
    o.ndim = ndim;
    o.shape = shape;
    o.strides = strides;
    o.offset = offset;
    o.dtype = USMARR_FLOAT32;
    o.buffer = USMARR_BUFFER_ARRAY;
    o.array = base;
    return usmarr_array_create(&o, out);
}

/* The large operands' elements: twice the larger of the device's global memory cache and,
 * on a CPU device, the host's L3 and L2 (drivers report different levels: PoCL the L3,
 * Intel's CPU runtime the L2). */
static int64_t large_elements(usmarr_context_t *ctx)
{
    cl_ulong cache = 0;
    if (clGetDeviceInfo(usmarr_context_device(ctx), CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, sizeof cache, &cache, NULL))
        cache = 0;
#if defined(_SC_LEVEL3_CACHE_SIZE) && defined(_SC_LEVEL2_CACHE_SIZE)
    if (usmarr_context_info(ctx)->type & CL_DEVICE_TYPE_CPU) {
        long levels[2] = {sysconf(_SC_LEVEL3_CACHE_SIZE), sysconf(_SC_LEVEL2_CACHE_SIZE)};
        for (int i = 0; i < 2; i++)
            if (levels[i] > 0 && (cl_ulong)levels[i] > cache)
                cache = (cl_ulong)levels[i];
    }
#endif
    int64_t n = (int64_t)(cache / 2); /* 2 * cache / sizeof(float) */
    n = n < LARGE_N ? LARGE_N : n > LARGE_MAX ? LARGE_MAX : n;
    return (n + 63) / 64 * 64;
}

static int arrays_make(usmarr_context_t *ctx, struct arrays *x)
{
    memset(x, 0, sizeof *x);
    const int64_t n = large_elements(ctx), one = 1, two = 2, half = n / 2, edge = EDGE, contig = CONTIG_N,
                  tiny = TINY_N;
    const int64_t sq[2] = {EDGE, EDGE}, sqs[2] = {EDGE, 1}, ts[2] = {1, EDGE};
    const int64_t sl[2] = {EDGE / 2, (EDGE + 2) / 3}, sls[2] = {2 * EDGE, 3}, slc[2] = {(EDGE + 2) / 3, 1};
    usmarr_array_t **big[3] = {&x->a, &x->b, &x->c};
    int rc = 0;
    for (int i = 0; i < 3 && !rc; i++) {
        rc = usmarr_array_empty(ctx, 1, &n, USMARR_FLOAT32, USMARR_ORDER_C, USMARR_USM_DEVICE, big[i]);
        if (!rc)
            rc = usmarr_array_fill(*big[i], usmarr_scalar_float(1.0 + i));
    }
    const struct {
        usmarr_array_t *base, **view;
        int ndim;
        const int64_t *shape, *strides;
        int64_t offset;
    } views[] = {
        {x->a, &x->small_a, 1, &contig, &one, 0},    {x->c, &x->small_c, 1, &contig, &one, 0},
        {x->a, &x->tiny_a, 1, &tiny, &one, 0},       {x->c, &x->tiny_c, 1, &tiny, &one, 0},
        {x->a, &x->sq, 2, sq, sqs, 0},               {x->b, &x->row, 1, &edge, &one, 0},
        {x->c, &x->sq_out, 2, sq, sqs, 0},           {x->a, &x->half_a, 1, &half, &two, 0},
        {x->b, &x->half_b, 1, &half, &two, 0},       {x->c, &x->half_c, 1, &half, &one, 0},
        {x->a, &x->slice, 2, sl, sls, 0},            {x->c, &x->slice_out, 2, sl, slc, 0},
        {x->a, &x->trans, 2, sq, ts, 0},             {x->b, &x->sum0, 1, &edge, &one, EDGE},
        {x->b, &x->sum1, 1, &edge, &one, 2 * EDGE},
    };
    for (size_t i = 0; i < sizeof views / sizeof views[0] && !rc; i++)
        rc = view(views[i].base, views[i].ndim, views[i].shape, views[i].strides, views[i].offset, views[i].view);
    return rc;
}

static void arrays_free(struct arrays *x)
{
    usmarr_array_t *all[] = {x->a,      x->b,      x->c,     x->small_a, x->small_c,   x->sq,   x->row,
                             x->sq_out, x->half_a, x->half_b, x->half_c, x->slice, x->slice_out, x->trans,
                             x->sum0,   x->sum1,   x->tiny_a, x->tiny_c};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        usmarr_array_release(all[i]);
}

/* One run of a workload, enqueued; the caller finishes. */
static int run(struct arrays *x, enum workload w)
{
    const int axis0 = 0, axis1 = 1;
    int rc = 0;
    switch (w) {
    case W_CONTIG: /* small enough to stay in the caches: the launch and the loop */
        rc = usmarr_add(x->small_a, x->small_a, x->small_c, NULL);
        return rc ? rc : usmarr_array_copy_into(x->small_c, x->small_a);
    case W_LARGE:
        rc = usmarr_add(x->a, x->b, x->c, NULL);
        return rc ? rc : usmarr_array_copy_into(x->c, x->a);
    case W_RUNS: /* beyond the caches: contiguous, and a[::2] + b[::2] in rows of 16-vectors */
        rc = usmarr_add(x->a, x->b, x->c, NULL);
        return rc ? rc : usmarr_add(x->half_a, x->half_b, x->half_c, NULL);
    case W_STRIDED: /* a broadcast row (zero inner stride) and a[::2] + b[::2] (unit output) */
        rc = usmarr_add(x->sq, x->row, x->sq_out, NULL);
        return rc ? rc : usmarr_add(x->half_a, x->half_b, x->half_c, NULL);
    case W_ROWS:
        return usmarr_add(x->sq, x->row, x->sq_out, NULL);
    case W_SLICE:
        return usmarr_array_copy_into(x->slice_out, x->slice);
    case W_COPIES:
        rc = usmarr_array_copy_into(x->slice_out, x->slice);
        return rc ? rc : usmarr_array_copy_into(x->small_c, x->small_a);
    case W_TRANSPOSE:
        return usmarr_array_copy_into(x->sq_out, x->trans);
    case W_REDUCE:
        rc = usmarr_sum(x->sq, 1, &axis0, false, x->sum0, NULL);
        return rc ? rc : usmarr_sum(x->sq, 1, &axis1, false, x->sum1, NULL);
    case W_TINY:
        for (int i = 0; i < TINY_LAUNCHES && !rc; i++) {
            rc = usmarr_add(x->tiny_a, x->tiny_a, x->tiny_c, NULL);
            if (!rc)
                rc = usmarr_context_finish(usmarr_array_context(x->tiny_a));
        }
        return rc;
    }
    return USMARR_ERROR_INVALID_ARGUMENT;
}

static int timed(usmarr_context_t *ctx, struct arrays *x, enum workload w, double *seconds)
{
    double t0 = now_s();
    int rc = run(x, w);
    if (!rc)
        rc = usmarr_context_finish(ctx);
    *seconds = now_s() - t0;
    return rc;
}

struct report {
    char *buffer;
    size_t size, used;
};

static void say(struct report *r, const char *format, ...) __attribute__((format(printf, 2, 3)));
static void say(struct report *r, const char *format, ...)
{
    if (!r->buffer || r->used + 1 >= r->size)
        return;
    va_list ap;
    va_start(ap, format);
    int n = vsnprintf(r->buffer + r->used, r->size - r->used, format, ap);
    va_end(ap);
    if (n > 0)
        r->used = r->used + (size_t)n < r->size ? r->used + (size_t)n : r->size - 1;
}

static int compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The median of n values (sorts them). */
static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, compare_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* One question: candidate 0 is the shape so far, then each listed candidate that differs
 * from it.  *best becomes the winner.  Candidates that fail (a build error, a group the
 * device refuses) drop out. */
static int ask(usmarr_context_t *ctx, struct arrays *x, const struct question *q, double deadline,
               struct usmarr__kernel_shape *best, struct report *rep)
{
    struct usmarr__kernel_shape cand[MAX_CANDIDATES + 1];
    const char *label[MAX_CANDIDATES + 1];
    double times[MAX_CANDIDATES + 1][MAX_ROUNDS], score[MAX_CANDIDATES + 1];
    bool ok[MAX_CANDIDATES + 1];
    int done[MAX_CANDIDATES + 1] = {0}; /* the rounds each ran before it failed, if it did */
    int n = 0;
    char a[256], b[256];
    cand[n] = *best;
    label[n++] = NULL;
    usmarr__kernel_shape_format(best, a, sizeof a);
    for (int i = 0; q->candidates[i]; i++) {
        if (usmarr__kernel_shape_parse(q->candidates[i], best, &cand[n]) != 0)
            continue;
        usmarr__kernel_shape_fit(ctx, &cand[n]);
        usmarr__kernel_shape_format(&cand[n], b, sizeof b);
        if (strcmp(a, b)) {
            label[n] = q->candidates[i];
            n++;
        } else {
            label[0] = q->candidates[i];
        }
    }
    if (n == 1)
        return 0;
    for (int i = 0; i < n; i++) { /* warm-up: compiles, first touch */
        double t;
        usmarr__kernel_shape_set(ctx, &cand[i]);
        int rc = timed(ctx, x, q->workload, &t);
        ok[i] = rc == 0;
        if (!ok[i] && i == 0)
            return rc; /* the shape in use fails: the operation's own error */
        usmarr__clear_error();
    }
    int rounds = 0;
    for (; rounds < MAX_ROUNDS && (rounds < MIN_ROUNDS || now_s() < deadline); rounds++)
        for (int i = 0; i < n; i++) {
            if (!ok[i])
                continue;
            usmarr__kernel_shape_set(ctx, &cand[i]);
            if (timed(ctx, x, q->workload, &times[i][rounds]) != 0) {
                ok[i] = false;
                usmarr__clear_error();
            } else {
                done[i]++;
            }
        }
    /* each candidate's median over the rounds of its time over the shape in use's (1 for
     * the shape in use; a candidate that failed drops out, and so does every other where
     * the shape in use failed before a round) */
    for (int i = 0; i < n; i++) {
        double ratio[MAX_ROUNDS];
        for (int r = 0; ok[i] && r < done[0]; r++)
            ratio[r] = times[i][r] / times[0][r];
        ok[i] = ok[i] && done[0] > 0;
        score[i] = ok[i] ? median(ratio, done[0]) : 0;
    }
    int win = 0;
    for (int i = 1; i < n; i++)
        if (ok[i] && (!ok[win] || score[i] < score[win]))
            win = i;
    if (ok[0] && score[win] * (1 + KEEP_MARGIN) >= 1)
        win = 0;
    say(rep, "%s:", q->name);
    for (int i = 0; i < n; i++) {
        if (ok[i])
            say(rep, " %s %.3f ms (%.2f)%s", label[i] ? label[i] : "(as before)", median(times[i], done[i]) * 1e3,
                score[i], i == win ? " *" : "");
        else
            say(rep, " %s failed", label[i] ? label[i] : "(as before)");
        say(rep, i + 1 < n ? "," : "\n");
    }
    *best = cand[win];
    return 0;
}

int usmarr__engine_tune(usmarr_context_t *ctx, double budget_seconds, char *report, size_t report_size)
{
    struct report rep = {report, report_size, 0};
    if (report && report_size)
        report[0] = 0;
    double start = now_s();
    struct usmarr__kernel_shape saved = ctx->shape, best;
    usmarr__kernel_shape_default(ctx, &best);
    usmarr__kernel_shape_fit(ctx, &best);
    struct arrays x;
    int rc = arrays_make(ctx, &x);
    if (!rc)
        rc = usmarr_context_finish(ctx);
    double deadline = now_s() + budget_seconds; /* the budget is for timing, not the arrays */
    size_t q = 0;
    for (; !rc && q < NQUESTIONS && now_s() < deadline; q++) {
        /* Each question gets an equal share of what is left, at least MIN_ROUNDS rounds. */
        double share = (deadline - now_s()) / (double)(NQUESTIONS - q);
        rc = ask(ctx, &x, &questions[q], now_s() + share, &best, &rep);
    }
    if (!rc)
        rc = usmarr_context_finish(ctx);
    arrays_free(&x);
    if (rc) {
        usmarr__kernel_shape_set(ctx, &saved);
        return rc;
    }
    for (size_t skipped = q; skipped < NQUESTIONS; skipped++)
        say(&rep, "%s: not timed (the budget of %g s was spent)\n", questions[skipped].name, budget_seconds);
    best.origin = "tuned";
    usmarr__kernel_shape_set(ctx, &best);
    char text[256];
    usmarr__kernel_shape_format(&ctx->shape, text, sizeof text);
    say(&rep, "chosen: %s (%.1f s)\n", text, now_s() - start);
    if (usmarr__kernel_shape_store(ctx->platform, ctx->device, &ctx->shape) != 0)
        return usmarr__fail(USMARR_ERROR_IO, "the tuned shape (%s) could not be written to the disk cache", text);
    return 0;
}
