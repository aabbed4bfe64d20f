/* The sync state of a managed host/device pair: every transition, which copies ran
 * (found by planting different data on each side through the raw blocks), views of
 * sub-regions flipping their siblings, and the no-op behaviour on the other kinds. */
#include "../harness/common.h"
#include "test_storage.h"

#define N 60 /* elements of the (3, 4, 5) test storages */

struct pair {
    usmarr_context_t *ctx;
    usmarr_storage_t *s;
    usmarr_array_t *host, *device; /* borrowed from s */
};

static void pair_new(struct pair *p)
{
    p->ctx = test_context();
    const int64_t shape[] = {3, 4, 5}, width[] = {1, 1, 1};
    usmarr_storage_options_t o = storage_opts(p->ctx, "IJK", 3, shape);
    o.device = "gpu";
    o.dtype = USMARR_INT32;
    o.alignment = 64;
    usmarr_storage_halo_symmetric(&o, 3, width);
    ck_assert_ok(usmarr_storage_zeros(&o, &p->s));
    ck_assert_int_eq(usmarr_storage_kind(p->s), USMARR_STORAGE_MANAGED);
    /* A clean pair hands out its sides without copying. */
    ck_assert_ok(usmarr_storage_host_array(p->s, false, &p->host));
    ck_assert_ok(usmarr_storage_device_array(p->s, false, &p->device));
}

static void pair_free(struct pair *p)
{
    usmarr_storage_release(p->s);
    usmarr_context_release(p->ctx);
}

static usmarr_sync_t state_of(const usmarr_storage_t *s)
{
    usmarr_sync_t v = (usmarr_sync_t)-1;
    ck_assert_ok(usmarr_sync_state_get(usmarr_storage_sync_state(s), &v));
    return v;
}

/* Host side i+base_h, device side i+base_d, then the state `state`. */
static void plant(struct pair *p, int base_h, int base_d, usmarr_sync_t state)
{
    int32_t h[N], d[N];
    for (int i = 0; i < N; i++) {
        h[i] = base_h + i;
        d[i] = base_d + i;
    }
    storage_write_side(p->host, h);
    storage_write_side(p->device, d);
    ck_assert_ok(usmarr_sync_state_set(usmarr_storage_sync_state(p->s), state));
}

/* Asserts what each side holds: the base planted there, or copied over. */
static void expect(struct pair *p, int base_h, int base_d, usmarr_sync_t state)
{
    int32_t h[N], d[N];
    storage_read_side(p->host, h);
    storage_read_side(p->device, d);
    for (int i = 0; i < N; i++) {
        ck_assert_msg(h[i] == base_h + i, "host[%d]=%d, expected %d", i, h[i], base_h + i);
        ck_assert_msg(d[i] == base_d + i, "device[%d]=%d, expected %d", i, d[i], base_d + i);
    }
    ck_assert_int_eq(state_of(p->s), state);
}

START_TEST(test_storage_sync_set_calls_change_the_state_without_copies)
{
    struct pair p;
    pair_new(&p);
    plant(&p, 100, 200, USMARR_SYNC_CLEAN);
    ck_assert_ok(usmarr_storage_set_host_modified(p.s));
    expect(&p, 100, 200, USMARR_SYNC_HOST_DIRTY);
    ck_assert_ok(usmarr_storage_set_device_modified(p.s));
    expect(&p, 100, 200, USMARR_SYNC_DEVICE_DIRTY);
    ck_assert_ok(usmarr_storage_set_synchronized(p.s));
    expect(&p, 100, 200, USMARR_SYNC_CLEAN);
    ck_assert_ok(usmarr_sync_state_set(usmarr_storage_sync_state(p.s), USMARR_SYNC_DEVICE_DIRTY));
    expect(&p, 100, 200, USMARR_SYNC_DEVICE_DIRTY);
    pair_free(&p);
}
END_TEST

START_TEST(test_storage_sync_synchronize_copies_the_dirty_side)
{
    struct pair p;
    pair_new(&p);
    plant(&p, 100, 200, USMARR_SYNC_HOST_DIRTY);
    ck_assert_ok(usmarr_storage_synchronize(p.s));
    expect(&p, 100, 100, USMARR_SYNC_CLEAN);
    plant(&p, 300, 400, USMARR_SYNC_DEVICE_DIRTY);
    ck_assert_ok(usmarr_storage_synchronize(p.s));
    expect(&p, 400, 400, USMARR_SYNC_CLEAN);
    plant(&p, 500, 600, USMARR_SYNC_CLEAN); /* clean: nothing to copy */
    ck_assert_ok(usmarr_storage_synchronize(p.s));
    expect(&p, 500, 600, USMARR_SYNC_CLEAN);
    pair_free(&p);
}
END_TEST

START_TEST(test_storage_sync_host_to_device_with_and_without_force)
{
    struct pair p;
    pair_new(&p);
    plant(&p, 100, 200, USMARR_SYNC_HOST_DIRTY);
    ck_assert_ok(usmarr_storage_host_to_device(p.s, false));
    expect(&p, 100, 100, USMARR_SYNC_CLEAN);
    plant(&p, 100, 200, USMARR_SYNC_CLEAN);
    ck_assert_ok(usmarr_storage_host_to_device(p.s, false)); /* clean: no copy */
    expect(&p, 100, 200, USMARR_SYNC_CLEAN);
    ck_assert_ok(usmarr_storage_host_to_device(p.s, true)); /* forced */
    expect(&p, 100, 100, USMARR_SYNC_CLEAN);
    plant(&p, 100, 200, USMARR_SYNC_DEVICE_DIRTY);
    ck_assert_ok(usmarr_storage_host_to_device(p.s, false)); /* the device holds the news */
    expect(&p, 100, 200, USMARR_SYNC_DEVICE_DIRTY);
    ck_assert_ok(usmarr_storage_host_to_device(p.s, true)); /* forced: the host wins */
    expect(&p, 100, 100, USMARR_SYNC_CLEAN);
    pair_free(&p);
}
END_TEST

START_TEST(test_storage_sync_device_to_host_with_and_without_force)
{
    struct pair p;
    pair_new(&p);
    plant(&p, 100, 200, USMARR_SYNC_DEVICE_DIRTY);
    ck_assert_ok(usmarr_storage_device_to_host(p.s, false));
    expect(&p, 200, 200, USMARR_SYNC_CLEAN);
    plant(&p, 100, 200, USMARR_SYNC_CLEAN);
    ck_assert_ok(usmarr_storage_device_to_host(p.s, false));
    expect(&p, 100, 200, USMARR_SYNC_CLEAN);
    ck_assert_ok(usmarr_storage_device_to_host(p.s, true));
    expect(&p, 200, 200, USMARR_SYNC_CLEAN);
    plant(&p, 100, 200, USMARR_SYNC_HOST_DIRTY);
    ck_assert_ok(usmarr_storage_device_to_host(p.s, false));
    expect(&p, 100, 200, USMARR_SYNC_HOST_DIRTY);
    ck_assert_ok(usmarr_storage_device_to_host(p.s, true));
    expect(&p, 200, 200, USMARR_SYNC_CLEAN);
    pair_free(&p);
}
END_TEST

START_TEST(test_storage_sync_handing_out_a_side_syncs_and_writing_marks_it)
{
    struct pair p;
    pair_new(&p);
    usmarr_array_t *a;
    void *data;
    /* Reading the host side pulls a device-dirty pair. */
    plant(&p, 100, 200, USMARR_SYNC_DEVICE_DIRTY);
    ck_assert_ok(usmarr_storage_host_array(p.s, false, &a));
    ck_assert_ptr_eq(a, p.host);
    expect(&p, 200, 200, USMARR_SYNC_CLEAN);
    /* Reading the device side pushes a host-dirty pair. */
    plant(&p, 100, 200, USMARR_SYNC_HOST_DIRTY);
    ck_assert_ok(usmarr_storage_device_array(p.s, false, &a));
    ck_assert_ptr_eq(a, p.device);
    expect(&p, 100, 100, USMARR_SYNC_CLEAN);
    /* Writing: the side is made current, then marked dirty. */
    plant(&p, 100, 200, USMARR_SYNC_DEVICE_DIRTY);
    ck_assert_ok(usmarr_storage_host_data(p.s, true, &data));
    ck_assert_ptr_eq(data, usmarr_array_data(p.host));
    expect(&p, 200, 200, USMARR_SYNC_HOST_DIRTY);
    ((int32_t *)data)[0] = -7; /* host USM: the caller writes through the pointer */
    ck_assert_ok(usmarr_storage_device_array(p.s, true, &a));
    int32_t d[N];
    storage_read_side(p.device, d);
    ck_assert_int_eq(d[0], -7);
    ck_assert_int_eq(state_of(p.s), USMARR_SYNC_DEVICE_DIRTY);
    plant(&p, 100, 200, USMARR_SYNC_CLEAN);
    ck_assert_ok(usmarr_storage_host_array(p.s, true, &a));
    expect(&p, 100, 200, USMARR_SYNC_HOST_DIRTY);
    pair_free(&p);
}
END_TEST

START_TEST(test_storage_sync_state_is_shared_by_views_of_sub_regions)
{
    struct pair p;
    pair_new(&p);
    usmarr_storage_t *left, *right;
    ck_assert_ok(usmarr_storage_index_text(p.s, "0:1, :, 1:3", &left));
    ck_assert_ok(usmarr_storage_index_text(p.s, "2, 1:, :", &right));
    usmarr_sync_state_t *st = usmarr_storage_sync_state(p.s);
    ck_assert_ptr_eq(usmarr_storage_sync_state(left), st);
    ck_assert_ptr_eq(usmarr_storage_sync_state(right), st);
    /* Marking one view flips its sibling and the base. */
    plant(&p, 100, 200, USMARR_SYNC_CLEAN);
    ck_assert_ok(usmarr_storage_set_device_modified(left));
    ck_assert_int_eq(state_of(right), USMARR_SYNC_DEVICE_DIRTY);
    ck_assert_int_eq(state_of(p.s), USMARR_SYNC_DEVICE_DIRTY);
    /* Reading the sibling's host side pulls the whole pair, the left region included. */
    usmarr_array_t *a;
    ck_assert_ok(usmarr_storage_host_array(right, false, &a));
    expect(&p, 200, 200, USMARR_SYNC_CLEAN);
    /* A write through a view marks the pair; the base's device side then gets it all. */
    plant(&p, 100, 200, USMARR_SYNC_CLEAN);
    ck_assert_ok(usmarr_storage_host_array(left, true, &a));
    ck_assert_int_eq(state_of(p.s), USMARR_SYNC_HOST_DIRTY);
    ck_assert_ok(usmarr_storage_device_array(right, false, &a));
    expect(&p, 100, 100, USMARR_SYNC_CLEAN);
    /* The views outlive the base and keep the pair working. */
    usmarr_sync_state_t *held = usmarr_sync_state_retain(st);
    usmarr_array_retain(p.host); /* the planting helpers keep using the base's sides */
    usmarr_array_retain(p.device);
    usmarr_storage_release(p.s);
    p.s = left;
    plant(&p, 300, 400, USMARR_SYNC_HOST_DIRTY);
    ck_assert_ok(usmarr_storage_synchronize(right));
    expect(&p, 300, 300, USMARR_SYNC_CLEAN);
    usmarr_storage_release(right);
    ck_assert_ok(usmarr_sync_state_set(held, USMARR_SYNC_CLEAN));
    usmarr_storage_release(left);
    /* Every storage of the pair is gone: the state refuses to be set. */
    ck_assert_fails_with(usmarr_sync_state_set(held, USMARR_SYNC_HOST_DIRTY), USMARR_ERROR_BAD_STATE, "released");
    usmarr_sync_t v = (usmarr_sync_t)-1;
    ck_assert_ok(usmarr_sync_state_get(held, &v));
    ck_assert_int_eq(v, USMARR_SYNC_CLEAN);
    usmarr_sync_state_release(held);
    usmarr_array_release(p.host);
    usmarr_array_release(p.device);
    usmarr_context_release(p.ctx);
}
END_TEST

START_TEST(test_storage_sync_calls_are_no_ops_on_the_other_kinds)
{
    usmarr_context_t *ctx = test_context();
    const int64_t shape[] = {4, 4};
    const char *device[] = {NULL, "gpu", "gpu"}, *managed[] = {NULL, "none", "cuda"};
    for (int k = 0; k < 3; k++) {
        usmarr_storage_options_t o = storage_opts(ctx, "IJ", 2, shape);
        o.device = device[k];
        o.managed = managed[k];
        usmarr_storage_t *s;
        ck_assert_ok(usmarr_storage_full(&o, usmarr_scalar_float(2.0), &s));
        ck_assert_ptr_null(usmarr_storage_sync_state(s));
        ck_assert_ok(usmarr_storage_set_host_modified(s));
        ck_assert_ok(usmarr_storage_set_device_modified(s));
        ck_assert_ok(usmarr_storage_set_synchronized(s));
        ck_assert_ok(usmarr_storage_synchronize(s));
        ck_assert_ok(usmarr_storage_host_to_device(s, true));
        ck_assert_ok(usmarr_storage_device_to_host(s, true));
        usmarr_array_t *a;
        ck_assert_ok(k == 0 ? usmarr_storage_host_array(s, true, &a) : usmarr_storage_device_array(s, true, &a));
        double v[16];
        storage_read_side(a, v);
        for (int i = 0; i < 16; i++)
            ck_assert(v[i] == 2.0);
        usmarr_storage_release(s);
    }
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_storage_sync_calls_fail_cleanly)
{
    struct pair p;
    pair_new(&p);
    usmarr_sync_state_t *st = usmarr_storage_sync_state(p.s);
    usmarr_sync_t v = USMARR_SYNC_HOST_DIRTY;
    ck_assert_fails_with(usmarr_sync_state_get(NULL, &v), USMARR_ERROR_INVALID_ARGUMENT, "state is NULL");
    ck_assert_fails_with(usmarr_sync_state_get(st, NULL), USMARR_ERROR_INVALID_ARGUMENT, "value is NULL");
    ck_assert_int_eq(v, USMARR_SYNC_HOST_DIRTY);
    ck_assert_fails_with(usmarr_sync_state_set(NULL, USMARR_SYNC_CLEAN), USMARR_ERROR_INVALID_ARGUMENT, "state");
    ck_assert_fails_with(usmarr_sync_state_set(st, (usmarr_sync_t)7), USMARR_ERROR_INVALID_ARGUMENT, "value=7");
    ck_assert_int_eq(state_of(p.s), USMARR_SYNC_CLEAN);
    ck_assert_fails_with(usmarr_storage_set_host_modified(NULL), USMARR_ERROR_INVALID_ARGUMENT, "storage");
    ck_assert_fails_with(usmarr_storage_set_device_modified(NULL), USMARR_ERROR_INVALID_ARGUMENT, "storage");
    ck_assert_fails_with(usmarr_storage_set_synchronized(NULL), USMARR_ERROR_INVALID_ARGUMENT, "storage");
    ck_assert_fails_with(usmarr_storage_synchronize(NULL), USMARR_ERROR_INVALID_ARGUMENT, "storage");
    ck_assert_fails_with(usmarr_storage_host_to_device(NULL, true), USMARR_ERROR_INVALID_ARGUMENT, "storage");
    ck_assert_fails_with(usmarr_storage_device_to_host(NULL, false), USMARR_ERROR_INVALID_ARGUMENT, "storage");
    ck_assert_ptr_null(usmarr_sync_state_retain(NULL));
    usmarr_sync_state_release(NULL);
    ck_assert_ptr_null(usmarr_storage_sync_state(NULL));
    pair_free(&p);
}
END_TEST

void storage_add_sync_tests(TCase *t)
{
    tcase_add_test(t, test_storage_sync_set_calls_change_the_state_without_copies);
    tcase_add_test(t, test_storage_sync_synchronize_copies_the_dirty_side);
    tcase_add_test(t, test_storage_sync_host_to_device_with_and_without_force);
    tcase_add_test(t, test_storage_sync_device_to_host_with_and_without_force);
    tcase_add_test(t, test_storage_sync_handing_out_a_side_syncs_and_writing_marks_it);
    tcase_add_test(t, test_storage_sync_state_is_shared_by_views_of_sub_regions);
    tcase_add_test(t, test_storage_sync_calls_are_no_ops_on_the_other_kinds);
    tcase_add_test(t, test_storage_sync_calls_fail_cleanly);
}
