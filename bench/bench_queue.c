/* Queues (doc/async.md): the cost of the default path for many tiny operations, and a
 * host-to-device copy pipelined with compute on two queues against the same work on one. */
#include "bench.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- 10,000 tiny operations ------------------------------------------------------- */

enum { TINY_OPS = 10000, TINY_ROUNDS = 5 };

struct tiny_add {
    usmarr_array_t *a, *b;
};

/* One 16-element add with a new result, released at once (the pool, the current-queue
 * lookup and the deferred releases' check are all on this path). */
static int tiny_add(void *arg)
{
    struct tiny_add *t = arg;
    usmarr_array_t *c = NULL;
    int rc = usmarr_add(t->a, t->b, NULL, &c);
    usmarr_array_release(c);
    return rc;
}

/* 10,000 such adds, then one finish: against 10,000 raw enqueues of a trivial kernel and
 * one clFinish. */
static int run_tiny_10k(const struct bench_env *env, struct bench_result *r)
{
    int64_t n = 16;
    struct tiny_add t = {NULL, NULL};
    BENCH_OK(usmarr_array_full(env->ctx, 1, &n, usmarr_scalar_float(2), USMARR_FLOAT32, USMARR_ORDER_C,
                               USMARR_USM_DEVICE, &t.a));
    BENCH_OK(usmarr_array_full(env->ctx, 1, &n, usmarr_scalar_float(3), USMARR_FLOAT32, USMARR_ORDER_C,
                               USMARR_USM_DEVICE, &t.b));
    double lib, raw;
    int rc = bench_tiny_vs_raw(env, tiny_add, &t, TINY_OPS, TINY_ROUNDS, &lib, &raw);
    usmarr_array_release(t.a);
    usmarr_array_release(t.b);
    if (rc)
        return rc;
    r->ratio = lib / raw;
    snprintf(r->detail, sizeof r->detail,
             "10,000 16-element adds (new results) + finish %.2f ms, 10,000 raw enqueues + clFinish %.2f ms "
             "(medians of %d)",
             lib * 1e3, raw * 1e3, TINY_ROUNDS);
    return 0;
}

/* ---- a copy pipelined with compute ------------------------------------------------ */

enum { CHUNKS = 8, CHUNK = 4 << 20, PIPE_ROUNDS = 3 };

struct pipeline {
    float *host[CHUNKS];
    usmarr_array_t *dev[CHUNKS], *tmp[CHUNKS], *out[CHUNKS];
};

/* One chunk's compute: out = sin(exp(-x)) * x, in three operations. */
static int compute(struct pipeline *p, int i)
{
    BENCH_OK(usmarr_negative(p->dev[i], p->tmp[i], NULL));
    BENCH_OK(usmarr_exp(p->tmp[i], p->tmp[i], NULL));
    BENCH_OK(usmarr_sin(p->tmp[i], p->tmp[i], NULL));
    BENCH_OK(usmarr_multiply(p->tmp[i], p->dev[i], p->out[i], NULL));
    return 0;
}

/* Every chunk copied in and computed: on one queue (copy and copy wait for the compute
 * before them), or copies on `copies` and compute on `work`, where chunk i's compute
 * overlaps chunk i+1's copy. */
enum pipeline_part { BOTH, COPIES_ONLY, COMPUTE_ONLY };

static int pipeline_run(usmarr_context_t *ctx, struct pipeline *p, usmarr_queue_t *copies, usmarr_queue_t *work,
                        enum pipeline_part part, double *seconds)
{
    double t0 = bench_now();
    for (int i = 0; i < CHUNKS; i++) {
        BENCH_OK(usmarr_queue_set_current(copies));
        if (part != COMPUTE_ONLY)
            BENCH_OK(usmarr_array_copy_from_host(p->dev[i], p->host[i], NULL));
        BENCH_OK(usmarr_queue_set_current(work));
        if (copies)
            BENCH_OK(usmarr_array_record_queue(p->dev[i], usmarr_queue_current(ctx)));
        if (part != COPIES_ONLY)
            BENCH_OK(compute(p, i));
    }
    BENCH_OK(usmarr_context_finish(ctx));
    BENCH_OK(usmarr_queue_set_current(NULL));
    *seconds = bench_now() - t0;
    return 0;
}

static int run_pipeline(const struct bench_env *env, struct bench_result *r)
{
    usmarr_context_t *ctx = env->ctx;
    struct pipeline p;
    memset(&p, 0, sizeof p);
    usmarr_queue_t *copies = NULL, *work = NULL;
    int64_t n = CHUNK;
    int rc = 0;
    for (int i = 0; i < CHUNKS && !rc; i++) {
        p.host[i] = malloc(sizeof(float) * CHUNK);
        if (!p.host[i]) {
            rc = -1;
            break;
        }
        for (int j = 0; j < CHUNK; j++)
            p.host[i][j] = (float)((j + i) % 1000) * 1e-3f;
        rc = usmarr_array_empty(ctx, 1, &n, USMARR_FLOAT32, USMARR_ORDER_C, USMARR_USM_DEVICE, &p.dev[i]);
        if (!rc)
            rc = usmarr_array_empty(ctx, 1, &n, USMARR_FLOAT32, USMARR_ORDER_C, USMARR_USM_DEVICE, &p.tmp[i]);
        if (!rc)
            rc = usmarr_array_empty(ctx, 1, &n, USMARR_FLOAT32, USMARR_ORDER_C, USMARR_USM_DEVICE, &p.out[i]);
    }
    if (!rc)
        rc = usmarr_queue_create(ctx, 0, &copies);
    if (!rc)
        rc = usmarr_queue_create(ctx, 0, &work);
    double serial[PIPE_ROUNDS], piped[PIPE_ROUNDS], copy_alone[PIPE_ROUNDS], compute_alone[PIPE_ROUNDS], warm;
    if (!rc)
        rc = pipeline_run(ctx, &p, NULL, NULL, BOTH, &warm);
    for (int round = 0; round < PIPE_ROUNDS && !rc; round++) { /* alternating: load hits all alike */
        rc = pipeline_run(ctx, &p, NULL, NULL, BOTH, &serial[round]);
        if (!rc)
            rc = pipeline_run(ctx, &p, copies, work, BOTH, &piped[round]);
        if (!rc)
            rc = pipeline_run(ctx, &p, NULL, NULL, COPIES_ONLY, &copy_alone[round]);
        if (!rc)
            rc = pipeline_run(ctx, &p, NULL, NULL, COMPUTE_ONLY, &compute_alone[round]);
    }
    /* The result of the last (two-queue) round: a spot check of the last chunk's head. */
    float got[4];
    usmarr_array_t *head = NULL;
    if (!rc && !(rc = usmarr_array_index_text(p.out[CHUNKS - 1], ":4", &head)))
        rc = usmarr_array_copy_to_host(head, got, NULL);
    usmarr_array_release(head);
    for (int j = 0; !rc && j < 4; j++) {
        float x = (float)((j + CHUNKS - 1) % 1000) * 1e-3f, want = sinf(expf(-x)) * x;
        if (fabsf(got[j] - want) > 1e-5f) {
            fprintf(stderr, "bench: copy-compute-two-queues: element %d is %g, not %g\n", j, got[j], want);
            rc = -1;
        }
    }
    usmarr_queue_release(copies);
    usmarr_queue_release(work);
    for (int i = 0; i < CHUNKS; i++) {
        free(p.host[i]);
        usmarr_array_release(p.dev[i]);
        usmarr_array_release(p.tmp[i]);
        usmarr_array_release(p.out[i]);
    }
    if (rc)
        return rc < 0 ? bench_fail(rc, "pipeline") : rc;
    double s = bench_median(serial, PIPE_ROUNDS), q = bench_median(piped, PIPE_ROUNDS);
    double c = bench_median(copy_alone, PIPE_ROUNDS), w = bench_median(compute_alone, PIPE_ROUNDS);
    r->ratio = q / s;
    /* The bounds: perfect overlap takes the longer of the two parts.  A CPU device's copy
     * runs on one of the cores its kernels use: when the compute keeps all `units` busy,
     * the copy's core time comes out of the compute's, and the two queues take at least
     * c / units + w. */
    cl_uint units = 1;
    clGetDeviceInfo(usmarr_context_device(ctx), CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units, NULL);
    snprintf(r->detail, sizeof r->detail,
             "%d chunks of %d float32: copy in + 4 operations on one queue %.1f ms, copies and compute on two "
             "queues %.1f ms; copies alone %.1f ms, compute alone %.1f ms, so perfect overlap %.2f of serial, "
             "%.2f with the copies' core taken from the compute's %u (medians of %d)",
             CHUNKS, CHUNK, s * 1e3, q * 1e3, c * 1e3, w * 1e3, (c > w ? c : w) / s,
             (c / (units ? units : 1) + w) / s, units, PIPE_ROUNDS);
    return 0;
}

const struct bench_case bench_queue[] = {
    {"tiny-10k-ops", "10,000 16-element adds with new results + finish vs raw enqueues + clFinish", 3.0,
     BENCH_AT_MOST, run_tiny_10k},
    {"copy-compute-two-queues", "host-to-device copies pipelined with compute on two queues vs one queue", 0.9,
     BENCH_AT_MOST, run_pipeline},
    {NULL, NULL, 0, BENCH_AT_LEAST, NULL},
};
