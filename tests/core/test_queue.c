/* Queues and events (include/usmarr/queue.h): creation, adoption, the thread's current
 * queue, markers, waits, finishes, and their failures. */
#include "../harness/common.h"

#include <CL/cl_ext.h>

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

Suite *suite_queue(void)
{
    Suite *s = suite_create("queue");
    TCase *tc = tcase_create("objects");
    tcase_add_test(tc, test_queue_create_adopt_release_and_accessors);
    tcase_add_test(tc, test_queue_current_is_per_thread_and_held);
    tcase_add_test(tc, test_queue_wait_on_user_event_holds_only_that_queue);
    tcase_add_test(tc, test_queue_failures_name_the_argument);
    suite_add_tcase(s, tc);
    return s;
}
