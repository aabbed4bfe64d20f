/* Storages over existing memory: usmarr_storage_wrap() (never a copy) and
 * usmarr_storage_from() (copy or wrap), with their validation. */
#include "../harness/common.h"
#include "test_storage.h"

#include <stdlib.h>

static usmarr_memory_t *usm(usmarr_context_t *ctx, usmarr_usm_kind_t kind, size_t bytes)
{
    usmarr_memory_t *m;
    ck_assert_ok(usmarr_memory_create(ctx, kind, bytes, 64, &m));
    return m;
}

START_TEST(test_storage_wrap_an_array_without_copying)
{
    usmarr_context_t *ctx = test_context();
    /* A Fortran-ordered (4,5,6) float32 host array: the layout comes from its strides. */
    usmarr_array_t *a;
    const int64_t shape[] = {4, 5, 6};
    ck_assert_ok(usmarr_array_zeros(ctx, 3, shape, USMARR_FLOAT32, USMARR_ORDER_F, USMARR_USM_HOST, &a));
    usmarr_storage_options_t o = USMARR_STORAGE_OPTIONS_INIT;
    usmarr_storage_buffer_t data = {.array = a};
    usmarr_storage_t *s;
    ck_assert_ok(usmarr_storage_wrap(&o, &data, NULL, NULL, USMARR_SYNC_CLEAN, &s));
    ck_assert_int_eq(usmarr_storage_kind(s), USMARR_STORAGE_HOST);
    ck_assert_int_eq(usmarr_storage_dtype(s), USMARR_FLOAT32);
    ck_assert_str_eq(usmarr_storage_axes(s), "IJK");
    ck_assert_str_eq(usmarr_storage_layout(s), "KJI");
    ck_assert_ptr_eq(usmarr_storage_context(s), ctx);
    usmarr_array_t *h;
    ck_assert_ok(usmarr_storage_host_array(s, true, &h));
    ck_assert_ptr_eq(usmarr_array_data(h), usmarr_array_data(a));
    ck_assert_int_eq(usmarr_storage_strides(s)[2], 20);
    /* Writes through the storage are the array's. */
    ((float *)usmarr_array_data(h))[1] = 3.5f;
    float back[120];
    ck_assert_ok(usmarr_array_copy_to_host(a, back, NULL));
    ck_assert(back[30] == 3.5f); /* element (1,0,0): F order puts it at 1 */
    /* The storage keeps the array's memory alive. */
    usmarr_array_release(a);
    ck_assert_int_eq(usmarr_memory_refcount(usmarr_array_memory(h)), 1);
    usmarr_storage_release(s);
    /* A shared array wraps as a shared storage, a device array as a device storage. */
    usmarr_usm_kind_t kinds[] = {USMARR_USM_SHARED, USMARR_USM_DEVICE};
    usmarr_storage_kind_t want[] = {USMARR_STORAGE_SHARED, USMARR_STORAGE_DEVICE};
    for (int i = 0; i < 2; i++) {
        ck_assert_ok(usmarr_array_ones(ctx, 3, shape, USMARR_INT32, USMARR_ORDER_C, kinds[i], &a));
        data.array = a;
        ck_assert_ok(usmarr_storage_from(&o, &data, NULL, false, &s));
        ck_assert_int_eq(usmarr_storage_kind(s), want[i]);
        ck_assert_str_eq(usmarr_storage_layout(s), "IJK");
        usmarr_array_t *d;
        ck_assert_ok(usmarr_storage_device_array(s, false, &d));
        ck_assert_ptr_eq(usmarr_array_data(d), usmarr_array_data(a));
        usmarr_storage_release(s);
        usmarr_array_release(a);
    }
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_storage_wrap_usm_pointers_as_a_managed_pair)
{
    usmarr_context_t *ctx = test_context();
    /* (3,4) int32, rows padded to 8 elements, in a host and a device allocation. */
    usmarr_memory_t *hm = usm(ctx, USMARR_USM_HOST, 3 * 8 * 4), *dm = usm(ctx, USMARR_USM_DEVICE, 3 * 8 * 4);
    int32_t *hp = usmarr_memory_pointer(hm);
    for (int i = 0; i < 24; i++)
        hp[i] = i;
    const int64_t shape[] = {3, 4}, strides[] = {8, 1};
    usmarr_storage_options_t o = storage_opts(ctx, "IJ", 2, shape);
    o.dtype = USMARR_INT32;
    usmarr_storage_buffer_t data = {.pointer = hp, .strides = strides};
    usmarr_storage_buffer_t device_data = {.pointer = usmarr_memory_pointer(dm), .strides = strides};
    usmarr_storage_t *s;
    ck_assert_ok(usmarr_storage_wrap(&o, &data, &device_data, NULL, USMARR_SYNC_HOST_DIRTY, &s));
    ck_assert_int_eq(usmarr_storage_kind(s), USMARR_STORAGE_MANAGED);
    usmarr_sync_t v;
    ck_assert_ok(usmarr_sync_state_get(usmarr_storage_sync_state(s), &v));
    ck_assert_int_eq(v, USMARR_SYNC_HOST_DIRTY);
    usmarr_array_t *d;
    ck_assert_ok(usmarr_storage_device_array(s, false, &d)); /* pushes into the user's device buffer */
    ck_assert_ptr_eq(usmarr_array_data(d), usmarr_memory_pointer(dm));
    int32_t got[24];
    ck_assert_ok(usmarr_memory_copy_to_host(dm, 0, got, sizeof got));
    for (int i = 0; i < 20; i++) /* the pair's span: (3-1)*8 + 4 elements */
        ck_assert_int_eq(got[i], i);
    /* Wrapping the same buffers again with the first storage's sync state ties them. */
    usmarr_storage_t *again;
    ck_assert_ok(usmarr_storage_wrap(&o, &data, &device_data, usmarr_storage_sync_state(s), USMARR_SYNC_CLEAN,
                                     &again));
    ck_assert_ptr_eq(usmarr_storage_sync_state(again), usmarr_storage_sync_state(s));
    ck_assert_ok(usmarr_storage_set_host_modified(again));
    ck_assert_ok(usmarr_sync_state_get(usmarr_storage_sync_state(s), &v));
    ck_assert_int_eq(v, USMARR_SYNC_HOST_DIRTY);
    /* ... and so may a sub-region of them, at the same place on both sides. */
    usmarr_storage_t *row;
    const int64_t one_row[] = {1, 4};
    usmarr_storage_options_t r = storage_opts(ctx, "IJ", 2, one_row);
    r.dtype = USMARR_INT32;
    usmarr_storage_buffer_t rh = {.pointer = hp + 8}, rd = {.pointer = (int32_t *)usmarr_memory_pointer(dm) + 8};
    ck_assert_ok(usmarr_storage_wrap(&r, &rh, &rd, usmarr_storage_sync_state(s), USMARR_SYNC_CLEAN, &row));
    rd.pointer = (int32_t *)usmarr_memory_pointer(dm) + 4;
    usmarr_storage_t *bad = NULL;
    ck_assert_fails_with(usmarr_storage_wrap(&r, &rh, &rd, usmarr_storage_sync_state(s), USMARR_SYNC_CLEAN, &bad),
                         USMARR_ERROR_INVALID_ARGUMENT, "sync_state belongs to another pair");
    usmarr_storage_release(row);
    usmarr_storage_release(again);
    usmarr_sync_state_t *held = usmarr_sync_state_retain(usmarr_storage_sync_state(s));
    usmarr_storage_release(s);
    ck_assert_fails_with(usmarr_storage_wrap(&o, &data, &device_data, held, USMARR_SYNC_CLEAN, &bad),
                         USMARR_ERROR_INVALID_ARGUMENT, "sync_state: every storage of its pair was released");
    ck_assert_fails_with(usmarr_sync_state_set(held, USMARR_SYNC_CLEAN), USMARR_ERROR_BAD_STATE, "released");
    ck_assert_ptr_null(bad);
    usmarr_sync_state_release(held);
    usmarr_memory_release(hm);
    usmarr_memory_release(dm);
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_storage_storage_without_data_and_copy_false_is_empty)
{
    usmarr_context_t *ctx = test_context();
    const int64_t shape[] = {4, 4, 4}, width[] = {1, 1, 1};
    usmarr_storage_options_t o = storage_opts(ctx, "IJK", 3, shape);
    o.alignment = 64;
    usmarr_storage_halo_symmetric(&o, 3, width);
    usmarr_storage_t *s;
    ck_assert_ok(usmarr_storage_from(&o, NULL, NULL, false, &s));
    ck_assert_int_eq(usmarr_storage_strides(s)[1], 8);
    ck_assert_int_eq(usmarr_storage_aligned_index(s)[2], 1);
    usmarr_storage_release(s);
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_storage_from_copies_plain_host_memory_and_usm)
{
    usmarr_context_t *ctx = test_context();
    /* Plain malloc'd host memory, strided (every other element of a (2,3) C layout). */
    double *host = malloc(12 * sizeof *host);
    for (int i = 0; i < 12; i++)
        host[i] = i * 1.5;
    const int64_t shape[] = {2, 3}, strides[] = {6, 2};
    usmarr_storage_options_t o = storage_opts(ctx, "JK", 2, shape);
    o.alignment = 32;
    usmarr_storage_buffer_t data = {.pointer = host, .strides = strides};
    usmarr_storage_t *s = NULL;
    ck_assert_fails_with(usmarr_storage_from(&o, &data, NULL, false, &s), USMARR_ERROR_FOREIGN_POINTER,
                         "data.pointer");
    ck_assert_ptr_null(s);
    ck_assert_ok(usmarr_storage_from(&o, &data, NULL, true, &s));
    ck_assert_int_eq(usmarr_storage_kind(s), USMARR_STORAGE_HOST);
    ck_assert_int_eq(usmarr_storage_strides(s)[0], 4); /* a new aligned allocation */
    usmarr_array_t *a;
    double got[6];
    ck_assert_ok(usmarr_storage_host_array(s, false, &a));
    storage_read_side(a, got);
    for (int j = 0; j < 2; j++)
        for (int k = 0; k < 3; k++)
            ck_assert(got[j * 3 + k] == (j * 6 + k * 2) * 1.5);
    usmarr_storage_release(s);
    /* Into a managed pair: data fills the host side, the pair is host dirty. */
    o.device = "gpu";
    ck_assert_ok(usmarr_storage_from(&o, &data, NULL, true, &s));
    usmarr_sync_t v;
    ck_assert_ok(usmarr_sync_state_get(usmarr_storage_sync_state(s), &v));
    ck_assert_int_eq(v, USMARR_SYNC_HOST_DIRTY);
    ck_assert_ok(usmarr_storage_device_array(s, false, &a));
    storage_read_side(a, got);
    ck_assert(got[5] == 10 * 1.5);
    usmarr_storage_release(s);
    /* From a device array, converting int16 -> float64; the array's memory is not kept. */
    int16_t iv[6] = {1, -2, 3, -4, 5, -6};
    usmarr_array_t *src;
    ck_assert_ok(usmarr_array_from_host(ctx, 2, shape, USMARR_INT16, iv, NULL, USMARR_USM_DEVICE, &src));
    usmarr_storage_options_t p = storage_opts(ctx, "JK", 0, shape);
    p.dtype = USMARR_FLOAT64;
    usmarr_storage_buffer_t dd = {.array = src};
    ck_assert_ok(usmarr_storage_from(&p, NULL, &dd, true, &s));
    ck_assert_int_eq(usmarr_storage_kind(s), USMARR_STORAGE_DEVICE);
    ck_assert_int_eq(usmarr_array_refcount(src), 1);
    ck_assert_ok(usmarr_storage_device_array(s, false, &a));
    storage_read_side(a, got);
    for (int i = 0; i < 6; i++)
        ck_assert(got[i] == iv[i]);
    usmarr_storage_release(s);
    /* Both buffers into a managed pair: each side its own, clean. */
    usmarr_array_t *hs;
    ck_assert_ok(usmarr_array_full(ctx, 2, shape, usmarr_scalar_int(7), USMARR_INT16, 0, USMARR_USM_HOST, &hs));
    usmarr_storage_buffer_t hd = {.array = hs};
    ck_assert_ok(usmarr_storage_from(&p, &hd, &dd, true, &s));
    ck_assert_int_eq(usmarr_storage_kind(s), USMARR_STORAGE_MANAGED);
    ck_assert_ok(usmarr_sync_state_get(usmarr_storage_sync_state(s), &v));
    ck_assert_int_eq(v, USMARR_SYNC_CLEAN);
    ck_assert_ok(usmarr_storage_host_array(s, false, &a));
    storage_read_side(a, got);
    ck_assert(got[0] == 7.0);
    ck_assert_ok(usmarr_storage_device_array(s, false, &a));
    storage_read_side(a, got);
    ck_assert(got[1] == -2.0);
    usmarr_storage_release(s);
    usmarr_array_release(hs);
    usmarr_array_release(src);
    free(host);
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_storage_wrap_fails_on_bad_buffers)
{
    usmarr_context_t *ctx = test_context();
    usmarr_memory_t *hm = usm(ctx, USMARR_USM_HOST, 800), *dm = usm(ctx, USMARR_USM_DEVICE, 800);
    const int64_t shape[] = {10, 10};
    usmarr_storage_options_t o = storage_opts(ctx, "IJ", 2, shape);
    usmarr_storage_buffer_t h = {.pointer = usmarr_memory_pointer(hm)}, d = {.pointer = usmarr_memory_pointer(dm)};
    usmarr_storage_t *s = (usmarr_storage_t *)&o, *const untouched = s;
    /* Too small: 10x10 float64 needs 800 bytes; 10x11 does not fit. */
    o.shape[1] = 11;
    ck_assert_fails_with(usmarr_storage_wrap(&o, &h, NULL, NULL, USMARR_SYNC_CLEAN, &s), USMARR_ERROR_OUT_OF_BOUNDS,
                         "data.pointer");
    o.shape[1] = 10;
    /* Strides contrary to the layout: F strides with layout "IJK" (I the largest). */
    const int64_t fstrides[] = {1, 10};
    o.layout = "IJK";
    h.strides = fstrides;
    ck_assert_fails_with(usmarr_storage_wrap(&o, &h, NULL, NULL, USMARR_SYNC_CLEAN, &s), USMARR_ERROR_INVALID_ARGUMENT,
                         "data.strides[0]=1 (axis I) is smaller than data.strides[1]=10 (axis J), contrary to "
                         "layout=\"IJK\"");
    const int64_t alias[] = {5, 1};
    h.strides = alias;
    o.layout = NULL;
    ck_assert_fails_with(usmarr_storage_wrap(&o, &h, NULL, NULL, USMARR_SYNC_CLEAN, &s), USMARR_ERROR_INVALID_ARGUMENT,
                         "data.strides[0]=5 (axis I) makes elements alias");
    h.strides = NULL;
    /* Not USM, not of the kind, no buffer, contradictions. */
    double plain[100];
    usmarr_storage_buffer_t p = {.pointer = plain};
    ck_assert_fails_with(usmarr_storage_wrap(&o, &p, NULL, NULL, USMARR_SYNC_CLEAN, &s), USMARR_ERROR_FOREIGN_POINTER,
                         "data.pointer");
    ck_assert_fails_with(usmarr_storage_wrap(&o, NULL, NULL, NULL, USMARR_SYNC_CLEAN, &s),
                         USMARR_ERROR_INVALID_ARGUMENT, "nothing to wrap");
    usmarr_storage_buffer_t empty = {0};
    ck_assert_fails_with(usmarr_storage_wrap(&o, &empty, NULL, NULL, USMARR_SYNC_CLEAN, &s),
                         USMARR_ERROR_INVALID_ARGUMENT, "data has neither an array nor a pointer");
    o.device = "gpu";
    ck_assert_fails_with(usmarr_storage_wrap(&o, &h, NULL, NULL, USMARR_SYNC_CLEAN, &s), USMARR_ERROR_INVALID_ARGUMENT,
                         "a managed storage wraps both data and device_data, but one was given");
    ck_assert_fails_with(usmarr_storage_wrap(&o, &d, &h, NULL, USMARR_SYNC_CLEAN, &s), USMARR_ERROR_INVALID_ARGUMENT,
                         "data is USM device memory");
    const int64_t padded[] = {16, 1};
    usmarr_storage_buffer_t d2 = {.pointer = usmarr_memory_pointer(dm), .strides = padded};
    o.shape[0] = 5;
    ck_assert_fails_with(usmarr_storage_wrap(&o, &h, &d2, NULL, USMARR_SYNC_CLEAN, &s), USMARR_ERROR_INVALID_ARGUMENT,
                         "laid out differently");
    o.shape[0] = 10;
    ck_assert_fails_with(usmarr_storage_wrap(&o, &h, &d, NULL, (usmarr_sync_t)5, &s), USMARR_ERROR_INVALID_ARGUMENT,
                         "sync=5");
    o.device = NULL;
    usmarr_storage_t *other;
    ck_assert_ok(usmarr_storage_zeros(&(usmarr_storage_options_t){.context = ctx, .dtype = -1, .nshape = 2,
                                                                   .axes = "IJ", .shape = {2, 2}, .device = "gpu"},
                                      &other));
    ck_assert_fails_with(usmarr_storage_wrap(&o, &h, NULL, usmarr_storage_sync_state(other), USMARR_SYNC_CLEAN, &s),
                         USMARR_ERROR_INVALID_ARGUMENT, "only a managed pair has one");
    usmarr_storage_release(other);
    usmarr_array_t *a;
    ck_assert_ok(usmarr_array_zeros(ctx, 2, shape, USMARR_FLOAT32, 0, USMARR_USM_HOST, &a));
    usmarr_storage_buffer_t ab = {.array = a};
    o.dtype = USMARR_FLOAT64;
    ck_assert_fails_with(usmarr_storage_wrap(&o, &ab, NULL, NULL, USMARR_SYNC_CLEAN, &s), USMARR_ERROR_INVALID_ARGUMENT,
                         "data.array is float32, contrary to options.dtype=float64") ;
    o.dtype = USMARR_FLOAT32;
    o.shape[0] = 9;
    ck_assert_fails_with(usmarr_storage_wrap(&o, &ab, NULL, NULL, USMARR_SYNC_CLEAN, &s), USMARR_ERROR_INVALID_ARGUMENT,
                         "data.array has shape (10, 10), contrary to options.shape=(9, 10)");
    o.shape[0] = 10;
    o.axes = NULL; /* the fallback "IJK" has 3 axes, the array 2 */
    ck_assert_fails_with(usmarr_storage_wrap(&o, &ab, NULL, NULL, USMARR_SYNC_CLEAN, &s), USMARR_ERROR_INVALID_ARGUMENT,
                         "options.axes is unset");
    o.axes = "IJ";
    /* Alignment: the element at the aligned index must sit on the boundary (hm is
     * 64-byte aligned, so float64 element (0, 1) is not). */
    o.alignment = 64;
    o.dtype = USMARR_FLOAT64;
    o.naligned_index = 2;
    o.aligned_index[1] = 1;
    ck_assert_fails_with(usmarr_storage_wrap(&o, &h, NULL, NULL, USMARR_SYNC_CLEAN, &s), USMARR_ERROR_INVALID_ARGUMENT,
                         "data: the element at the aligned index is at");
    o.aligned_index[1] = 0;
    ck_assert_ok(usmarr_storage_wrap(&o, &h, NULL, NULL, USMARR_SYNC_CLEAN, &other));
    usmarr_storage_release(other);
    o.dtype = USMARR_FLOAT32;
    o.alignment = 0;
    o.naligned_index = 0;
    o.context = NULL;
    ck_assert_fails_with(usmarr_storage_wrap(&o, &h, NULL, NULL, USMARR_SYNC_CLEAN, &s), USMARR_ERROR_INVALID_ARGUMENT,
                         "options.context is NULL");
    o.context = ctx;
    ck_assert_fails_with(usmarr_storage_wrap(NULL, &h, NULL, NULL, USMARR_SYNC_CLEAN, &s),
                         USMARR_ERROR_INVALID_ARGUMENT, "options");
    ck_assert_fails_with(usmarr_storage_wrap(&o, &h, NULL, NULL, USMARR_SYNC_CLEAN, NULL),
                         USMARR_ERROR_INVALID_ARGUMENT, "storage");
    ck_assert_fails_with(usmarr_storage_from(NULL, &h, NULL, true, &s), USMARR_ERROR_INVALID_ARGUMENT, "options");
    ck_assert_fails_with(usmarr_storage_from(&o, &h, NULL, true, NULL), USMARR_ERROR_INVALID_ARGUMENT, "storage");
    ck_assert_fails_with(usmarr_storage_from(&o, &empty, NULL, true, &s), USMARR_ERROR_INVALID_ARGUMENT,
                         "data has neither");
    o.shape[0] = 3;
    ck_assert_fails_with(usmarr_storage_from(&o, &ab, NULL, true, &s), USMARR_ERROR_INVALID_ARGUMENT,
                         "contrary to options.shape");
    ck_assert_ptr_eq(s, untouched);
    ck_assert_int_eq(usmarr_array_refcount(a), 1);
    ck_assert_int_eq(usmarr_memory_refcount(hm), 1);
    usmarr_array_release(a);
    usmarr_memory_release(hm);
    usmarr_memory_release(dm);
    usmarr_context_release(ctx);
}
END_TEST

void storage_add_wrap_tests(TCase *t)
{
    tcase_add_test(t, test_storage_wrap_an_array_without_copying);
    tcase_add_test(t, test_storage_wrap_usm_pointers_as_a_managed_pair);
    tcase_add_test(t, test_storage_storage_without_data_and_copy_false_is_empty);
    tcase_add_test(t, test_storage_from_copies_plain_host_memory_and_usm);
    tcase_add_test(t, test_storage_wrap_fails_on_bad_buffers);
}
