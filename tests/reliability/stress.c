/* Thread stress: 8 threads share one fresh context and, at the same moment, make its
 * first elementwise calls; then each loops over creation, views, elementwise functions
 * (cached and new kernels), reductions, host copies and storages, and releases arrays
 * that another thread created.  The odd threads work on queues of their own (the even
 * ones on the context's): each sums the array the previous thread left, after recording
 * it for its queue, so arrays and the block pool are shared across queues.  Results are checked against host arithmetic.  Built
 * with ThreadSanitizer by `make check` (tests/reliability/tsan-check.sh) and runnable on its own:
 * `stress [SELECTOR]`.  Exit 0 when every thread checked out. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <threads.h>
#include <usmarr.h>

enum { THREADS = 8, N = 1024, ROUNDS = 6 };

static usmarr_context_t *ctx;
static atomic_int arrived, failures;
/* One hand-off slot per thread: thread t leaves an array for thread t+1 to use and release. */
static _Atomic(usmarr_array_t *) slots[THREADS];

static void fail(int thread, const char *what, int rc)
{
    atomic_fetch_add(&failures, 1);
    fprintf(stderr, "stress: thread %d: %s: %s: %s\n", thread, what, usmarr_error_name(rc), usmarr_last_error_detail());
}

static bool same(const float *got, const float *want, int n)
{
    for (int i = 0; i < n; i++)
        if (got[i] != want[i])
            return false;
    return true;
}

/* The host's answer for the unary functions the workers use (on non-negative values). */
static const float *unary_want(const char *name, const float *x, float *want)
{
    for (int i = 0; i < N; i++) {
        float v = x[i];
        want[i] = !strcmp(name, "negative") ? -v
                  : !strcmp(name, "square") ? v * v
                  : !strcmp(name, "sign")   ? (float)((v > 0) - (v < 0))
                                            : v; /* abs, floor, ceil, trunc, positive of integers */
    }
    return want;
}

static int worker(void *arg)
{
    int t = (int)(intptr_t)arg;
    float host[N], want[N], got[N];
    for (int i = 0; i < N; i++)
        host[i] = (float)(i % 97 + t);
    int64_t shape[1] = {N};
    usmarr_queue_t *queue = NULL;
    int qrc = t % 2 ? usmarr_queue_create(ctx, 0, &queue) : 0;
    if (!qrc && queue)
        qrc = usmarr_queue_set_current(queue);
    if (qrc)
        fail(t, "queue", qrc);
    atomic_fetch_add(&arrived, 1);
    while (atomic_load(&arrived) < THREADS)
        thrd_yield();
    /* Functions that differ per thread: new kernels compiled while others launch. */
    static const char *const unary[] = {"negative", "abs", "square", "floor", "ceil", "trunc", "positive", "sign"};
    for (int round = 0; round < ROUNDS && !atomic_load(&failures); round++) {
        usmarr_array_t *x = NULL, *view = NULL, *y = NULL, *s = NULL;
        int rc = usmarr_array_from_host(ctx, 1, shape, USMARR_FLOAT32, host, NULL, USMARR_USM_DEVICE, &x);
        if (rc) {
            fail(t, "from_host", rc);
            break;
        }
        usmarr_operand_t ops[2] = {{.array = x}, {.scalar = usmarr_scalar_int(round)}};
        if ((rc = usmarr_elementwise("add", ops, 2, NULL, &y)) || (rc = usmarr_array_copy_to_host(y, got, NULL))) {
            fail(t, "add", rc);
        } else {
            for (int i = 0; i < N; i++)
                want[i] = host[i] + (float)round;
            if (!same(got, want, N))
                fail(t, "add: wrong elements", 0);
        }
        usmarr_array_release(y), y = NULL;
        const char *name = unary[(t + round) % 8];
        if ((rc = usmarr_array_index_text(x, "::-3", &view)) ||
            (rc = usmarr_elementwise(name, ops, 1, NULL, &y)) || (rc = usmarr_array_copy_to_host(y, got, NULL)))
            fail(t, name, rc);
        else if (!same(got, unary_want(name, host, want), N))
            fail(t, name, 0);
        if (!rc && (rc = usmarr_sum(view, 0, NULL, false, NULL, &s)) == 0) {
            double sum = 0, expect = 0;
            rc = usmarr_array_copy_to_host(s, &got[0], NULL);
            sum = got[0];
            for (int i = N - 1; i >= 0; i -= 3)
                expect += host[i];
            if (rc || sum != expect)
                fail(t, "sum of a view", rc);
        } else if (rc) {
            fail(t, "sum", rc);
        }
        /* Leave x for the next thread (releasing what it did not take); take and release
         * what the previous thread left. */
        usmarr_array_t *mine = usmarr_array_retain(x), *total = NULL;
        usmarr_array_release(atomic_exchange(&slots[(t + 1) % THREADS], mine));
        usmarr_array_t *theirs = atomic_exchange(&slots[t], NULL);
        if (theirs) { /* written on the previous thread's queue, read on this one's */
            int prev = (t + THREADS - 1) % THREADS;
            float sum = 0, expect = 0;
            for (int i = 0; i < N; i++)
                expect += (float)(i % 97 + prev);
            if ((rc = usmarr_array_record_queue(theirs, usmarr_queue_current(ctx))) ||
                (rc = usmarr_sum(theirs, 0, NULL, false, NULL, &total)) ||
                (rc = usmarr_array_copy_to_host(total, &sum, NULL)) || sum != expect)
                fail(t, "sum of the previous thread's array", rc);
        }
        usmarr_array_release(total);
        usmarr_array_release(theirs);
        usmarr_storage_options_t o = USMARR_STORAGE_OPTIONS_INIT;
        o.context = ctx;
        o.nshape = 3, o.shape[0] = 4, o.shape[1] = 5, o.shape[2] = 6;
        o.alignment = 64;
        o.dtype = USMARR_FLOAT32;
        /* A host storage, or a managed host/device pair; device storages alone where the
         * device offers no host USM (the SVM backend, USMARR_USM_KINDS=device). */
        bool host_usm = usmarr_context_info(ctx)->host_mem_caps != 0;
        o.device = t % 2 || !host_usm ? "device" : NULL;
        o.managed = host_usm ? NULL : "none";
        usmarr_storage_t *st = NULL, *st2 = NULL;
        if ((rc = usmarr_storage_ones(&o, &st)))
            fail(t, "storage_ones", rc);
        usmarr_storage_operand_t sops[2] = {{.storage = st}, {.storage = st}};
        usmarr_array_t *side = NULL; /* borrowed */
        if (!rc && (rc = usmarr_storage_elementwise("add", sops, 2, NULL, &st2)))
            fail(t, "storage add", rc);
        else if (!rc && ((rc = host_usm ? usmarr_storage_host_array(st2, false, &side)
                                        : usmarr_storage_device_array(st2, false, &side)) ||
                         (rc = usmarr_array_copy_to_host(side, got, NULL))))
            fail(t, "storage result", rc);
        for (int i = 0; !rc && i < 4 * 5 * 6; i++)
            if (got[i] != 2) {
                fail(t, "storage add: wrong elements", 0);
                break;
            }
        usmarr_storage_release(st2);
        usmarr_storage_release(st);
        usmarr_array_release(s);
        usmarr_array_release(y);
        usmarr_array_release(view);
        usmarr_array_release(x);
    }
    if (queue) {
        if (usmarr_queue_set_current(NULL))
            fail(t, "queue_set_current", -1);
        usmarr_queue_release(queue);
    }
    return 0;
}

int main(int argc, char **argv)
{
    int rc = usmarr_context_create(argc > 1 ? argv[1] : NULL, &ctx);
    if (rc) {
        fprintf(stderr, "stress: context: %s: %s\n", usmarr_strerror(rc), usmarr_last_error_detail());
        return 2;
    }
    thrd_t th[THREADS];
    for (int t = 0; t < THREADS; t++)
        if (thrd_create(&th[t], worker, (void *)(intptr_t)t) != thrd_success)
            return 2;
    for (int t = 0; t < THREADS; t++)
        thrd_join(th[t], NULL);
    for (int t = 0; t < THREADS; t++)
        usmarr_array_release(atomic_exchange(&slots[t], NULL));
    usmarr_context_release(ctx);
    int n = atomic_load(&failures);
    printf("stress: %d threads x %d rounds on one context: %s\n", THREADS, ROUNDS, n ? "FAILED" : "all checked");
    return n ? 1 : 0;
}
