/* Queues and events (include/usmarr/queue.h): creation, adoption, the thread's current
 * queue, markers, waits, finishes, and their failures. */
#include "../harness/common.h"
#include "../../lib/backend/backend_internal.h" /* the context's count of USM frees */

#include <CL/cl_ext.h>
#include <stdatomic.h>
#include <threads.h>
#include <time.h>

static cl_int event_status(cl_event e)
{
    cl_int status = -1;
    ck_assert_int_eq(clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL), CL_SUCCESS);
    return status;
}

START_TEST(test_queue_create_adopt_release_and_accessors)
{
    usmarr_context_t *ctx = test_context();
    usmarr_queue_t *q = NULL, *p = NULL, *a = NULL;
    ck_assert_ok(usmarr_queue_create(ctx, 0, &q));
    ck_assert_ok(usmarr_queue_create(ctx, USMARR_QUEUE_PROFILING, &p));
    ck_assert_ptr_eq(usmarr_queue_context(q), ctx);
    ck_assert_ptr_nonnull(usmarr_queue_cl(q));
    ck_assert_ptr_ne(usmarr_queue_cl(q), usmarr_context_queue(ctx));
    cl_command_queue_properties props = 0;
    ck_assert_int_eq(clGetCommandQueueInfo(usmarr_queue_cl(p), CL_QUEUE_PROPERTIES, sizeof props, &props, NULL),
                     CL_SUCCESS);
    ck_assert(props & CL_QUEUE_PROFILING_ENABLE);
    /* Adopted: retained once, released once; the application's reference survives. */
    cl_int err;
    cl_command_queue app = clCreateCommandQueueWithProperties(usmarr_context_cl_context(ctx),
                                                              usmarr_context_device(ctx), NULL, &err);
    ck_assert_int_eq(err, CL_SUCCESS);
    cl_uint refs0 = 0, refs = 0;
    ck_assert_int_eq(clGetCommandQueueInfo(app, CL_QUEUE_REFERENCE_COUNT, sizeof refs0, &refs0, NULL), CL_SUCCESS);
    ck_assert_ok(usmarr_queue_adopt(ctx, app, &a));
    ck_assert_ptr_eq(usmarr_queue_cl(a), app);
    ck_assert_int_eq(clGetCommandQueueInfo(app, CL_QUEUE_REFERENCE_COUNT, sizeof refs, &refs, NULL), CL_SUCCESS);
    ck_assert_uint_eq(refs, refs0 + 1);
    ck_assert_ptr_eq(usmarr_queue_retain(a), a);
    usmarr_queue_release(a);
    usmarr_queue_release(a);
    ck_assert_int_eq(clGetCommandQueueInfo(app, CL_QUEUE_REFERENCE_COUNT, sizeof refs, &refs, NULL), CL_SUCCESS);
    ck_assert_uint_eq(refs, refs0);
    ck_assert_int_eq(clReleaseCommandQueue(app), CL_SUCCESS);
    /* The context's own queue: its references are the context's. */
    usmarr_queue_t *own = usmarr_queue_current(ctx);
    ck_assert_ptr_eq(usmarr_queue_cl(own), usmarr_context_queue(ctx));
    ck_assert_ptr_eq(usmarr_queue_retain(own), own);
    usmarr_queue_release(own);
    ck_assert_ptr_null(usmarr_queue_current(NULL));
    ck_assert_ptr_null(usmarr_queue_context(NULL));
    ck_assert_ptr_null(usmarr_queue_cl(NULL));
    ck_assert_ptr_null(usmarr_queue_retain(NULL));
    usmarr_queue_release(NULL);
    usmarr_queue_release(p);
    usmarr_queue_release(q);
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_queue_current_is_per_thread_and_held)
{
    usmarr_context_t *ctx = test_context(), *other = test_context();
    usmarr_queue_t *q;
    ck_assert_ok(usmarr_queue_create(ctx, 0, &q));
    ck_assert_ptr_null(usmarr_queue_get_current());
    ck_assert_ok(usmarr_queue_set_current(q));
    ck_assert_ptr_eq(usmarr_queue_get_current(), q);
    ck_assert_ptr_eq(usmarr_queue_current(ctx), q);
    /* Another context's operations keep their own queue. */
    ck_assert_ptr_eq(usmarr_queue_cl(usmarr_queue_current(other)), usmarr_context_queue(other));
    /* The thread holds a reference: the queue outlives the caller's. */
    usmarr_queue_release(q);
    ck_assert_ptr_eq(usmarr_queue_current(ctx), q);
    cl_event e;
    ck_assert_ok(usmarr_queue_marker(q, &e));
    ck_assert_int_eq(clWaitForEvents(1, &e), CL_SUCCESS);
    clReleaseEvent(e);
    ck_assert_ok(usmarr_queue_set_current(NULL));
    ck_assert_ptr_null(usmarr_queue_get_current());
    ck_assert_ptr_eq(usmarr_queue_cl(usmarr_queue_current(ctx)), usmarr_context_queue(ctx));
    usmarr_context_release(other);
    usmarr_context_release(ctx);
}
END_TEST

static int set_and_exit(void *queue)
{
    return usmarr_queue_set_current(queue);
}

/* A thread that ends with a current queue gives its reference back: the adopted
 * cl_command_queue returns to the application's one reference. */
START_TEST(test_queue_current_released_when_the_thread_ends)
{
    usmarr_context_t *ctx = test_context();
    cl_int err;
    cl_command_queue app = clCreateCommandQueueWithProperties(usmarr_context_cl_context(ctx),
                                                              usmarr_context_device(ctx), NULL, &err);
    ck_assert_int_eq(err, CL_SUCCESS);
    usmarr_queue_t *q;
    ck_assert_ok(usmarr_queue_adopt(ctx, app, &q));
    thrd_t th;
    int rc = -1;
    ck_assert_int_eq(thrd_create(&th, set_and_exit, q), thrd_success);
    ck_assert_int_eq(thrd_join(th, &rc), thrd_success);
    ck_assert_int_eq(rc, 0);
    usmarr_queue_release(q);
    cl_uint refs = 0;
    ck_assert_int_eq(clGetCommandQueueInfo(app, CL_QUEUE_REFERENCE_COUNT, sizeof refs, &refs, NULL), CL_SUCCESS);
    ck_assert_uint_eq(refs, 1);
    ck_assert_int_eq(clReleaseCommandQueue(app), CL_SUCCESS);
    usmarr_context_release(ctx);
}
END_TEST

/* A queue held by a user event: its marker stays unsignalled until the event is set,
 * another queue runs meanwhile, and finish returns once it is set. */
START_TEST(test_queue_wait_on_user_event_holds_only_that_queue)
{
    usmarr_context_t *ctx = test_context();
    usmarr_queue_t *a, *b;
    ck_assert_ok(usmarr_queue_create(ctx, 0, &a));
    ck_assert_ok(usmarr_queue_create(ctx, 0, &b));
    cl_int err;
    cl_event gate = clCreateUserEvent(usmarr_context_cl_context(ctx), &err);
    ck_assert_int_eq(err, CL_SUCCESS);
    ck_assert_ok(usmarr_queue_wait(a, 1, &gate));
    ck_assert_ok(usmarr_queue_wait(a, 0, NULL));
    cl_event ma, mb;
    ck_assert_ok(usmarr_queue_marker(a, &ma));
    ck_assert_ok(usmarr_queue_marker(b, &mb));
    ck_assert_int_eq(clWaitForEvents(1, &mb), CL_SUCCESS);
    ck_assert_int_ne(event_status(ma), CL_COMPLETE);
    /* b waits on a's marker: b's next marker is held too. */
    cl_event mb2;
    ck_assert_ok(usmarr_queue_wait(b, 1, &ma));
    ck_assert_ok(usmarr_queue_marker(b, &mb2));
    ck_assert_int_ne(event_status(mb2), CL_COMPLETE);
    ck_assert_int_eq(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
    ck_assert_ok(usmarr_queue_finish(b));
    ck_assert_int_eq(event_status(ma), CL_COMPLETE);
    ck_assert_int_eq(event_status(mb2), CL_COMPLETE);
    ck_assert_ok(usmarr_queue_finish(a));
    clReleaseEvent(ma);
    clReleaseEvent(mb);
    clReleaseEvent(mb2);
    clReleaseEvent(gate);
    usmarr_queue_release(a);
    usmarr_queue_release(b);
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_queue_failures_name_the_argument)
{
    usmarr_context_t *ctx = test_context(), *other = test_context();
    usmarr_queue_t *q = NULL, *out = NULL;
    ck_assert_ok(usmarr_queue_create(ctx, 0, &q));
    ck_assert_fails_with(usmarr_queue_create(NULL, 0, &out), USMARR_ERROR_INVALID_ARGUMENT, "context");
    ck_assert_fails_with(usmarr_queue_create(ctx, 0, NULL), USMARR_ERROR_INVALID_ARGUMENT, "queue");
    ck_assert_fails_with(usmarr_queue_create(ctx, 6, &out), USMARR_ERROR_INVALID_ARGUMENT, "flags=0x6");
    ck_assert_fails_with(usmarr_queue_adopt(NULL, usmarr_queue_cl(q), &out), USMARR_ERROR_INVALID_ARGUMENT,
                         "context");
    ck_assert_fails_with(usmarr_queue_adopt(ctx, NULL, &out), USMARR_ERROR_INVALID_ARGUMENT, "cl_queue");
    ck_assert_fails_with(usmarr_queue_adopt(ctx, usmarr_queue_cl(q), NULL), USMARR_ERROR_INVALID_ARGUMENT, "queue");
    /* A queue of another cl_context (a foreign one). */
    ck_assert_fails_with(usmarr_queue_adopt(other, usmarr_queue_cl(q), &out), USMARR_ERROR_CONTEXT_MISMATCH,
                         "cl_queue belongs to another cl_context");
    ck_assert_ptr_null(out);
    cl_event e = NULL;
    ck_assert_fails_with(usmarr_queue_marker(NULL, &e), USMARR_ERROR_INVALID_ARGUMENT, "queue");
    ck_assert_fails_with(usmarr_queue_marker(q, NULL), USMARR_ERROR_INVALID_ARGUMENT, "event");
    ck_assert_fails_with(usmarr_queue_wait(NULL, 0, NULL), USMARR_ERROR_INVALID_ARGUMENT, "queue");
    ck_assert_fails_with(usmarr_queue_wait(q, 1, NULL), USMARR_ERROR_INVALID_ARGUMENT, "events is NULL");
    cl_int err;
    cl_event mine = clCreateUserEvent(usmarr_context_cl_context(ctx), &err);
    cl_event foreign = clCreateUserEvent(usmarr_context_cl_context(other), &err);
    cl_event list[3] = {mine, NULL, foreign};
    ck_assert_fails_with(usmarr_queue_wait(q, 2, list), USMARR_ERROR_INVALID_ARGUMENT, "events[1] is NULL");
    list[1] = mine;
    ck_assert_fails_with(usmarr_queue_wait(q, 3, list), USMARR_ERROR_CONTEXT_MISMATCH,
                         "events[2] belongs to another cl_context");
    /* Nothing was enqueued by the failed waits: the queue is not held. */
    ck_assert_ok(usmarr_queue_finish(q));
    ck_assert_fails_with(usmarr_queue_finish(NULL), USMARR_ERROR_INVALID_ARGUMENT, "queue");
    int64_t shape[1] = {4};
    usmarr_array_t *x;
    ck_assert_ok(usmarr_array_zeros(other, 1, shape, USMARR_FLOAT32, USMARR_ORDER_C, USMARR_USM_DEVICE, &x));
    ck_assert_fails_with(usmarr_array_record_queue(NULL, q), USMARR_ERROR_INVALID_ARGUMENT, "array");
    ck_assert_fails_with(usmarr_array_record_queue(x, NULL), USMARR_ERROR_INVALID_ARGUMENT, "queue");
    ck_assert_fails_with(usmarr_array_record_queue(x, q), USMARR_ERROR_CONTEXT_MISMATCH,
                         "queue belongs to another context");
    ck_assert_int_eq(clSetUserEventStatus(mine, CL_COMPLETE), CL_SUCCESS);
    ck_assert_int_eq(clSetUserEventStatus(foreign, CL_COMPLETE), CL_SUCCESS);
    clReleaseEvent(mine);
    clReleaseEvent(foreign);
    usmarr_array_release(x);
    usmarr_queue_release(q);
    usmarr_context_release(other);
    usmarr_context_release(ctx);
}
END_TEST

/* ---- no hidden waits ------------------------------------------------------------ */

/* Sets the gate after `seconds` unless told to stop: a call that waits for the device
 * behind the gate returns only then, and the test sees the gate set after it. */
struct watchdog {
    cl_event gate;
    atomic_bool stop;
    int seconds;
};

static int watchdog_run(void *arg)
{
    struct watchdog *w = arg;
    for (int i = 0; i < w->seconds * 20 && !atomic_load(&w->stop); i++)
        thrd_sleep(&(struct timespec){.tv_nsec = 50000000}, NULL);
    if (!atomic_load(&w->stop))
        clSetUserEventStatus(w->gate, CL_COMPLETE);
    return 0;
}

enum { HELD_ROWS = 8, HELD_COLS = 16, HELD_ROUNDS = 10, HELD_STEPS = 13 };

/* Each call must return with the gate still unset (the watchdog sets it after 20 s). */
#define HELD(call, what)                                                                           \
    do {                                                                                           \
        int rc_ = (call);                                                                          \
        ck_assert_msg(rc_ == 0, "round %d, %s: %s: %s", k, what, usmarr_error_name(rc_),         \
                      usmarr_last_error_detail());                                                 \
        ck_assert_msg(event_status(w.gate) != CL_COMPLETE, "round %d: %s waited for the device", k, \
                      what);                                                                       \
        calls++;                                                                                   \
    } while (0)

/* Blocks whose last queue has finished are freed by a later poll; while another queue of
 * the context is held behind the application's unset user event that free waits (PoCL's
 * clMemBlockingFreeINTEL waits for the last command of every queue of the context), so
 * it must not run before the event is set: the finish of their own queue returns with
 * the gate still unset (the watchdog sets it after 20 s), and the blocks are freed
 * after.  The blocks are device blocks recorded on a second queue, released past the
 * pool's count so that the pool evicts some of them to be freed. */
START_TEST(test_queue_free_waits_while_another_queue_is_held)
{
    usmarr_context_t *ctx = test_context();
    enum { BLOCKS = 2 * USMARR__POOL_BLOCKS };
    int64_t n = 64;
    usmarr_array_t *a[BLOCKS];
    usmarr_queue_t *q2;
    ck_assert_ok(usmarr_queue_create(ctx, 0, &q2));
    for (int i = 0; i < BLOCKS; i++) {
        ck_assert_ok(usmarr_array_empty(ctx, 1, &n, USMARR_FLOAT32, USMARR_ORDER_C, USMARR_USM_DEVICE, &a[i]));
        ck_assert_ok(usmarr_array_record_queue(a[i], q2));
    }
    cl_int err;
    struct watchdog w = {.gate = clCreateUserEvent(usmarr_context_cl_context(ctx), &err), .seconds = 20};
    ck_assert_int_eq(err, CL_SUCCESS);
    atomic_init(&w.stop, false);
    thrd_t dog;
    ck_assert_int_eq(thrd_create(&dog, watchdog_run, &w), thrd_success);
    ck_assert_ok(usmarr_queue_wait(usmarr_queue_current(ctx), 1, &w.gate));
    unsigned frees = atomic_load(&ctx->usm_frees);
    for (int i = 0; i < BLOCKS; i++)
        usmarr_array_release(a[i]); /* the evicted ones wait for markers of q2 */
    ck_assert_ok(usmarr_queue_finish(q2)); /* which complete here; the finish polls */
    ck_assert_msg(event_status(w.gate) != CL_COMPLETE, "a free waited for the held queue");
    ck_assert_uint_eq(atomic_load(&ctx->usm_frees), frees); /* still to come */
    atomic_store(&w.stop, true);
    thrd_join(dog, NULL);
    ck_assert_int_eq(clSetUserEventStatus(w.gate, CL_COMPLETE), CL_SUCCESS);
    ck_assert_ok(usmarr_context_finish(ctx)); /* the barrier is done: the poll frees them */
    ck_assert_uint_gt(atomic_load(&ctx->usm_frees), frees);
    clReleaseEvent(w.gate);
    usmarr_queue_release(q2);
}
END_TEST

static void read_f32(usmarr_array_t *a, float *out) { ck_assert_ok(usmarr_array_copy_to_host(a, out, NULL)); }

/* 130 operations on a queue held by an unsignalled user event: elementwise functions,
 * views, reductions, copies of strided views, casts, fills, copies into, matmul and
 * scans.  Every call returns while the event is unset; then the event is set and every
 * value is checked against host loops. */
START_TEST(test_queue_operations_return_while_the_queue_is_held)
{
    usmarr_context_t *ctx = test_context();
    float hx[HELD_ROWS * HELD_COLS], hm[64];
    for (int i = 0; i < HELD_ROWS * HELD_COLS; i++)
        hx[i] = (float)(i % 17 - 8) + 0.25f * (float)(i % 5);
    for (int i = 0; i < 64; i++)
        hm[i] = (float)(i % 7 - 3);
    int64_t shape[2] = {HELD_ROWS, HELD_COLS}, mshape[2] = {8, 8};
    usmarr_array_t *x, *m, *r[HELD_ROUNDS][HELD_STEPS] = {{NULL}};
    ck_assert_ok(usmarr_array_from_host(ctx, 2, shape, USMARR_FLOAT32, hx, NULL, USMARR_USM_DEVICE, &x));
    ck_assert_ok(usmarr_array_from_host(ctx, 2, mshape, USMARR_FLOAT32, hm, NULL, USMARR_USM_DEVICE, &m));
    usmarr_queue_t *q;
    ck_assert_ok(usmarr_queue_create(ctx, 0, &q));
    cl_int err;
    struct watchdog w = {.gate = clCreateUserEvent(usmarr_context_cl_context(ctx), &err), .seconds = 20};
    ck_assert_int_eq(err, CL_SUCCESS);
    atomic_init(&w.stop, false);
    thrd_t dog;
    ck_assert_int_eq(thrd_create(&dog, watchdog_run, &w), thrd_success);
    ck_assert_ok(usmarr_queue_wait(q, 1, &w.gate));
    ck_assert_ok(usmarr_queue_set_current(q));
    int calls = 0, axis1 = 1, axis0 = 0;
    for (int k = 0; k < HELD_ROUNDS; k++) {
        usmarr_array_t **o = r[k];
        usmarr_operand_t args[2] = {{.array = x}, {.scalar = usmarr_scalar_int(k)}};
        HELD(usmarr_elementwise("add", args, 2, NULL, &o[0]), "add");
        HELD(usmarr_array_index_text(x, ":, ::-1", &o[1]), "view");
        HELD(usmarr_multiply(o[0], o[1], NULL, &o[2]), "multiply");
        HELD(usmarr_sum(o[2], 1, &axis1, false, NULL, &o[3]), "sum");
        HELD(usmarr_max(o[0], 1, &axis0, false, NULL, &o[4]), "max");
        HELD(usmarr_array_astype(o[2], USMARR_INT32, USMARR_ORDER_C, NULL, &o[5]), "astype");
        HELD(usmarr_array_index_text(o[0], "::2, 1::3", &o[6]), "view");
        HELD(usmarr_array_copy(o[6], USMARR_ORDER_C, NULL, &o[7]), "copy");
        HELD(usmarr_array_full(ctx, 2, shape, usmarr_scalar_float(k + 0.5), USMARR_FLOAT32, USMARR_ORDER_C,
                               USMARR_USM_DEVICE, &o[8]),
             "full");
        HELD(usmarr_array_copy_into(o[8], o[1]), "copy_into");
        args[0].array = m;
        HELD(usmarr_elementwise("add", args, 2, NULL, &o[9]), "add");
        HELD(usmarr_matmul(m, o[9], NULL, &o[10]), "matmul");
        HELD(usmarr_cumulative_sum(o[0], &axis1, NULL, &o[11]), "cumulative_sum");
        HELD(usmarr_array_fill(o[7], usmarr_scalar_float(-k)), "fill");
        o[12] = NULL;
        if (k % 2) { /* released while their kernels wait: the pool keeps them in queue order */
            usmarr_array_release(o[2]);
            o[2] = NULL;
        }
    }
    ck_assert_int_ge(calls, 100);
    cl_event after;
    ck_assert_ok(usmarr_queue_marker(q, &after));
    ck_assert_int_ne(event_status(after), CL_COMPLETE); /* the work really waits for the gate */
    atomic_store(&w.stop, true);
    thrd_join(dog, NULL);
    ck_assert_int_eq(clSetUserEventStatus(w.gate, CL_COMPLETE), CL_SUCCESS);
    ck_assert_ok(usmarr_queue_finish(q));
    ck_assert_int_eq(event_status(after), CL_COMPLETE);
    ck_assert_ok(usmarr_queue_set_current(NULL));

    float got[HELD_ROWS * HELD_COLS];
    int32_t goti[HELD_ROWS * HELD_COLS];
    for (int k = 0; k < HELD_ROUNDS; k++) {
        usmarr_array_t **o = r[k];
        float add[HELD_ROWS][HELD_COLS], prod[HELD_ROWS][HELD_COLS];
        for (int i = 0; i < HELD_ROWS; i++)
            for (int j = 0; j < HELD_COLS; j++) {
                add[i][j] = hx[i * HELD_COLS + j] + (float)k;
                prod[i][j] = add[i][j] * hx[i * HELD_COLS + HELD_COLS - 1 - j];
            }
        read_f32(o[0], got);
        for (int i = 0; i < HELD_ROWS * HELD_COLS; i++)
            ck_assert_float_eq(got[i], add[i / HELD_COLS][i % HELD_COLS]);
        if (o[2]) {
            read_f32(o[2], got);
            for (int i = 0; i < HELD_ROWS * HELD_COLS; i++)
                ck_assert_float_eq(got[i], prod[i / HELD_COLS][i % HELD_COLS]);
        }
        read_f32(o[3], got);
        for (int i = 0; i < HELD_ROWS; i++) {
            float sum = 0;
            for (int j = 0; j < HELD_COLS; j++)
                sum += prod[i][j]; /* quarters times quarters: exact in float32 */
            ck_assert_float_eq(got[i], sum);
        }
        read_f32(o[4], got);
        for (int j = 0; j < HELD_COLS; j++) {
            float best = add[0][j];
            for (int i = 1; i < HELD_ROWS; i++)
                best = add[i][j] > best ? add[i][j] : best;
            ck_assert_float_eq(got[j], best);
        }
        ck_assert_ok(usmarr_array_copy_to_host(o[5], goti, NULL));
        for (int i = 0; i < HELD_ROWS * HELD_COLS; i++)
            ck_assert_int_eq(goti[i], (int32_t)prod[i / HELD_COLS][i % HELD_COLS]);
        read_f32(o[7], got); /* the copy, then filled with -k */
        for (int i = 0; i < 4 * 5; i++)
            ck_assert_float_eq(got[i], (float)-k);
        read_f32(o[6], got); /* the view of o[0] is untouched by the fill of its copy */
        for (int i = 0; i < 4; i++)
            for (int j = 0; j < 5; j++)
                ck_assert_float_eq(got[i * 5 + j], add[2 * i][1 + 3 * j]);
        read_f32(o[8], got); /* full(k + 0.5), then x[:, ::-1] copied into it */
        for (int i = 0; i < HELD_ROWS * HELD_COLS; i++)
            ck_assert_float_eq(got[i], hx[i / HELD_COLS * HELD_COLS + HELD_COLS - 1 - i % HELD_COLS]);
        read_f32(o[10], got);
        for (int i = 0; i < 8; i++)
            for (int j = 0; j < 8; j++) {
                float dot = 0;
                for (int t = 0; t < 8; t++)
                    dot += hm[i * 8 + t] * (hm[t * 8 + j] + (float)k);
                ck_assert_float_eq(got[i * 8 + j], dot);
            }
        read_f32(o[11], got);
        for (int i = 0; i < HELD_ROWS; i++) {
            float run = 0;
            for (int j = 0; j < HELD_COLS; j++) {
                run += add[i][j];
                ck_assert_float_eq(got[i * HELD_COLS + j], run);
            }
        }
        for (int s = 0; s < HELD_STEPS; s++)
            usmarr_array_release(o[s]);
    }
    clReleaseEvent(after);
    clReleaseEvent(w.gate);
    usmarr_queue_release(q);
    usmarr_array_release(m);
    usmarr_array_release(x);
    usmarr_context_release(ctx);
}
END_TEST

/* ---- order across queues --------------------------------------------------------- */

/* A gate on queue a: a user event that a's work waits for. */
static cl_event hold(usmarr_context_t *ctx, usmarr_queue_t *a)
{
    cl_int err;
    cl_event gate = clCreateUserEvent(usmarr_context_cl_context(ctx), &err);
    ck_assert_int_eq(err, CL_SUCCESS);
    ck_assert_ok(usmarr_queue_wait(a, 1, &gate));
    return gate;
}

static usmarr_array_t *ramp(usmarr_context_t *ctx, int n)
{
    float h[256];
    for (int i = 0; i < n; i++)
        h[i] = (float)i - 100.0f;
    int64_t shape[1] = {n};
    usmarr_array_t *x;
    ck_assert_ok(usmarr_array_from_host(ctx, 1, shape, USMARR_FLOAT32, h, NULL, USMARR_USM_DEVICE, &x));
    return x;
}

/* The cross-queue tests' set-up: a ramp x of n elements written on the context's queue,
 * two queues a and b, and (when `held`) a held by an unsignalled gate and current. */
struct two_queues {
    usmarr_context_t *ctx;
    usmarr_array_t *x;
    usmarr_queue_t *a, *b;
    cl_event gate;
};

static void two_queues_begin(struct two_queues *t, int n, bool held)
{
    t->ctx = test_context();
    t->x = ramp(t->ctx, n);
    ck_assert_ok(usmarr_queue_create(t->ctx, 0, &t->a));
    ck_assert_ok(usmarr_queue_create(t->ctx, 0, &t->b));
    t->gate = held ? hold(t->ctx, t->a) : NULL;
    if (held)
        ck_assert_ok(usmarr_queue_set_current(t->a));
}

static void two_queues_end(struct two_queues *t)
{
    ck_assert_ok(usmarr_queue_set_current(NULL));
    if (t->gate)
        clReleaseEvent(t->gate);
    usmarr_array_release(t->x);
    usmarr_queue_release(t->a);
    usmarr_queue_release(t->b);
    usmarr_context_release(t->ctx);
}

/* x + value, on the calling thread's current queue. */
static usmarr_array_t *add_scalar(usmarr_array_t *x, int value)
{
    usmarr_operand_t args[2] = {{.array = x}, {.scalar = usmarr_scalar_int(value)}};
    usmarr_array_t *y;
    ck_assert_ok(usmarr_elementwise("add", args, 2, NULL, &y));
    return y;
}

/* y written on a (held), recorded for b, read on b: b's work waits for a's. */
START_TEST(test_queue_record_orders_a_block_written_on_another_queue)
{
    struct two_queues t;
    two_queues_begin(&t, 256, true);
    usmarr_array_t *y = add_scalar(t.x, 1), *z;
    ck_assert_ok(usmarr_queue_set_current(t.b));
    ck_assert_ok(usmarr_array_record_queue(y, t.b));
    usmarr_operand_t args[2] = {{.array = y}, {.scalar = usmarr_scalar_int(2)}};
    ck_assert_ok(usmarr_elementwise("multiply", args, 2, NULL, &z));
    cl_event mb;
    ck_assert_ok(usmarr_queue_marker(t.b, &mb));
    thrd_sleep(&(struct timespec){.tv_nsec = 20000000}, NULL);
    ck_assert_int_ne(event_status(mb), CL_COMPLETE); /* b waits for a's add */
    ck_assert_int_eq(clSetUserEventStatus(t.gate, CL_COMPLETE), CL_SUCCESS);
    ck_assert_ok(usmarr_queue_finish(t.b));
    ck_assert_ok(usmarr_queue_set_current(NULL));
    float got[256];
    ck_assert_ok(usmarr_array_copy_to_host(z, got, NULL));
    for (int i = 0; i < 256; i++)
        ck_assert_float_eq(got[i], ((float)i - 100.0f + 1.0f) * 2.0f);
    clReleaseEvent(mb);
    usmarr_array_release(z);
    usmarr_array_release(y);
    two_queues_end(&t);
}
END_TEST

/* The queue that last wrote a block: the context's queue by default, the queue current at
 * a result's allocation (a view's too), then the last one recorded. */
START_TEST(test_queue_array_reports_the_queue_that_last_wrote_it)
{
    struct two_queues t;
    two_queues_begin(&t, 16, false);
    cl_command_queue own = usmarr_context_queue(t.ctx);
    ck_assert_ptr_null(usmarr_array_queue(NULL));
    ck_assert_ptr_eq(usmarr_queue_cl(usmarr_array_queue(t.x)), own);
    ck_assert_ok(usmarr_queue_set_current(t.b));
    usmarr_array_t *y = add_scalar(t.x, 1), *view;
    ck_assert_ptr_eq(usmarr_array_queue(y), t.b);
    ck_assert_ptr_eq(usmarr_queue_cl(usmarr_array_queue(t.x)), own); /* only read on b */
    ck_assert_ok(usmarr_array_index_text(y, "::2", &view));
    ck_assert_ptr_eq(usmarr_array_queue(view), t.b);
    ck_assert_ok(usmarr_array_record_queue(view, t.a));
    ck_assert_ptr_eq(usmarr_array_queue(y), t.a);
    ck_assert_ok(usmarr_queue_set_current(NULL));
    ck_assert_ok(usmarr_array_record_queue(y, usmarr_queue_current(t.ctx)));
    ck_assert_ptr_eq(usmarr_queue_cl(usmarr_array_queue(y)), own);
    float got[16];
    ck_assert_ok(usmarr_array_copy_to_host(y, got, NULL));
    for (int i = 0; i < 16; i++)
        ck_assert_float_eq(got[i], (float)i - 99.0f);
    usmarr_array_release(view);
    usmarr_array_release(y);
    two_queues_end(&t);
}
END_TEST

/* A block released on a (its add still held) and taken from the pool on b: b's fill runs
 * after a's add, so the block ends filled, not added. */
START_TEST(test_queue_pool_block_reused_on_another_queue_waits_for_its_last)
{
    struct two_queues t;
    two_queues_begin(&t, 256, true);
    usmarr_array_t *tmp = add_scalar(t.x, 1), *u;
    void *pt = usmarr_array_data(tmp);
    usmarr_array_release(tmp);
    ck_assert_ok(usmarr_queue_set_current(t.b));
    int64_t shape[1] = {256};
    ck_assert_ok(usmarr_array_empty(t.ctx, 1, shape, USMARR_FLOAT32, USMARR_ORDER_C, USMARR_USM_DEVICE, &u));
    ck_assert_ptr_eq(usmarr_array_data(u), pt); /* the pooled block */
    ck_assert_ok(usmarr_array_fill(u, usmarr_scalar_float(5)));
    thrd_sleep(&(struct timespec){.tv_nsec = 20000000}, NULL);
    ck_assert_int_eq(clSetUserEventStatus(t.gate, CL_COMPLETE), CL_SUCCESS);
    ck_assert_ok(usmarr_queue_finish(t.b));
    ck_assert_ok(usmarr_queue_finish(t.a));
    ck_assert_ok(usmarr_queue_set_current(NULL));
    float got[256];
    ck_assert_ok(usmarr_array_copy_to_host(u, got, NULL));
    for (int i = 0; i < 256; i++)
        ck_assert_float_eq(got[i], 5.0f);
    usmarr_array_release(u);
    two_queues_end(&t);
}
END_TEST

static void count_release(void *pointer, void *data)
{
    (void)pointer;
    atomic_fetch_add((atomic_int *)data, 1);
}

/* A foreign block released while a held queue's work reads it: its owner's release runs
 * only after that work, at the latest at the queue's finish. */
START_TEST(test_queue_foreign_block_released_after_the_work_that_reads_it)
{
    usmarr_context_t *ctx = test_context();
    usmarr_memory_t *owner, *wrapped;
    ck_assert_ok(usmarr_memory_create(ctx, USMARR_USM_DEVICE, 1024, 0, &owner));
    atomic_int calls;
    atomic_init(&calls, 0);
    usmarr_queue_t *a;
    ck_assert_ok(usmarr_queue_create(ctx, 0, &a));
    ck_assert_ok(usmarr_queue_set_current(a));
    cl_event gate = hold(ctx, a);
    ck_assert_ok(usmarr_memory_wrap(ctx, usmarr_memory_pointer(owner), 1024, count_release, &calls, &wrapped));
    int64_t shape[1] = {256};
    usmarr_array_t *view, *sum;
    usmarr_array_options_t opt = USMARR_ARRAY_OPTIONS_INIT;
    opt.context = ctx;
    opt.ndim = 1;
    opt.shape = shape;
    opt.dtype = USMARR_FLOAT32;
    opt.buffer = USMARR_BUFFER_MEMORY;
    opt.memory = wrapped;
    ck_assert_ok(usmarr_array_create(&opt, &view));
    ck_assert_ok(usmarr_array_fill(view, usmarr_scalar_float(0.5)));
    ck_assert_ok(usmarr_sum(view, 0, NULL, false, NULL, &sum));
    usmarr_array_release(view);
    usmarr_memory_release(wrapped);
    thrd_sleep(&(struct timespec){.tv_nsec = 20000000}, NULL);
    usmarr_memory_t *other;
    ck_assert_ok(usmarr_memory_create(ctx, USMARR_USM_DEVICE, 64, 0, &other)); /* polls */
    usmarr_memory_release(other);
    int seen = atomic_load(&calls);
    ck_assert_int_eq(seen, 0);
    ck_assert_int_eq(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
    ck_assert_ok(usmarr_queue_finish(a));
    seen = atomic_load(&calls);
    ck_assert_int_eq(seen, 1);
    ck_assert_ok(usmarr_queue_set_current(NULL));
    float total = 0;
    ck_assert_ok(usmarr_array_copy_to_host(sum, &total, NULL));
    ck_assert_float_eq(total, 128.0f);
    clReleaseEvent(gate);
    usmarr_array_release(sum);
    usmarr_memory_release(owner);
    usmarr_queue_release(a);
    usmarr_context_release(ctx);
}
END_TEST

Suite *suite_queue(void)
{
    Suite *s = suite_create("queue");
    TCase *tc = tcase_create("objects");
    tcase_add_test(tc, test_queue_create_adopt_release_and_accessors);
    tcase_add_test(tc, test_queue_current_is_per_thread_and_held);
    tcase_add_test(tc, test_queue_current_released_when_the_thread_ends);
    tcase_add_test(tc, test_queue_wait_on_user_event_holds_only_that_queue);
    tcase_add_test(tc, test_queue_failures_name_the_argument);
    suite_add_tcase(s, tc);
    tc = tcase_create("held");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_queue_operations_return_while_the_queue_is_held);
    tcase_add_test(tc, test_queue_free_waits_while_another_queue_is_held);
    suite_add_tcase(s, tc);
    tc = tcase_create("order");
    tcase_add_test(tc, test_queue_record_orders_a_block_written_on_another_queue);
    tcase_add_test(tc, test_queue_array_reports_the_queue_that_last_wrote_it);
    tcase_add_test(tc, test_queue_pool_block_reused_on_another_queue_waits_for_its_last);
    tcase_add_test(tc, test_queue_foreign_block_released_after_the_work_that_reads_it);
    suite_add_tcase(s, tc);
    return s;
}
