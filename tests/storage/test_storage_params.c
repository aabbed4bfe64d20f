/* Storages: the preset table and the failures of the creation functions (code, a
 * detail naming the parameter, out-parameters and inputs untouched). */
#include "../harness/common.h"
#include "test_storage.h"

/* ---- presets ------------------------------------------------------------------------------ */

START_TEST(test_storage_preset_table_is_extensible_at_run_time)
{
    usmarr_context_t *ctx = test_context();
    usmarr_storage_preset_t p = {.name = "test-ifirst", .layout = "KJI", .alignment = 32, .device = NULL};
    ck_assert_ok(usmarr_storage_preset_register(&p));
    usmarr_storage_preset_t got;
    ck_assert_ok(usmarr_storage_preset_find("test-ifirst", &got));
    ck_assert_str_eq(got.name, "test-ifirst");
    ck_assert_str_eq(got.layout, "KJI");
    ck_assert_int_eq(got.alignment, 32);
    ck_assert_ptr_null(got.device);
    ck_assert_ptr_null(got.managed);
    const int64_t shape[] = {4, 4, 4};
    usmarr_storage_options_t o = storage_opts(ctx, "IJK", 3, shape);
    o.defaults = "test-ifirst";
    usmarr_storage_t *s;
    ck_assert_ok(usmarr_storage_empty(&o, &s));
    ck_assert_str_eq(usmarr_storage_layout(s), "KJI");
    ck_assert_int_eq(usmarr_storage_alignment(s), 32);
    ck_assert_int_eq(usmarr_storage_kind(s), USMARR_STORAGE_HOST);
    usmarr_storage_release(s);
    /* Registering the name again replaces it; strings handed out earlier stay valid. */
    usmarr_storage_preset_t q = {.name = "test-ifirst", .layout = "F", .alignment = 8, .device = "gpu",
                                 .managed = "cuda"};
    ck_assert_ok(usmarr_storage_preset_register(&q));
    ck_assert_str_eq(got.layout, "KJI");
    ck_assert_ok(usmarr_storage_preset_find("test-ifirst", &got));
    ck_assert_str_eq(got.layout, "F");
    ck_assert_str_eq(got.managed, "cuda");
    ck_assert_ok(usmarr_storage_empty(&o, &s));
    ck_assert_str_eq(usmarr_storage_layout(s), "KJI"); /* F of "IJK" */
    ck_assert_int_eq(usmarr_storage_kind(s), USMARR_STORAGE_SHARED);
    ck_assert_int_eq(usmarr_storage_alignment(s), 8);
    usmarr_storage_release(s);
    /* The built-ins are in the table with their documented values. */
    const char *names[] = {"C", "F", "gtx86", "gtcuda"}, *layouts[] = {"C", "F", "IJK", "KJI"};
    const int64_t align[] = {1, 1, 64, 256};
    for (int i = 0; i < 4; i++) {
        ck_assert_ok(usmarr_storage_preset_find(names[i], &got));
        ck_assert_str_eq(got.layout, layouts[i]);
        ck_assert_int_eq(got.alignment, align[i]);
        if (i == 3)
            ck_assert_str_eq(got.device, "gpu");
        else
            ck_assert_ptr_null(got.device);
    }
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_storage_preset_register_and_find_fail_cleanly)
{
    usmarr_storage_preset_t good = {.name = "x", .layout = "IJK", .alignment = 1};
    usmarr_storage_preset_t p = good;
    ck_assert_fails_with(usmarr_storage_preset_register(NULL), USMARR_ERROR_INVALID_ARGUMENT, "preset is NULL");
    p.name = NULL;
    ck_assert_fails_with(usmarr_storage_preset_register(&p), USMARR_ERROR_INVALID_ARGUMENT, "preset->name");
    p.name = "";
    ck_assert_fails_with(usmarr_storage_preset_register(&p), USMARR_ERROR_INVALID_ARGUMENT, "preset->name is empty");
    p.name = "a-name-that-is-much-longer-than-31-bytes";
    ck_assert_fails_with(usmarr_storage_preset_register(&p), USMARR_ERROR_INVALID_ARGUMENT, "too long");
    p = good;
    p.layout = "IJ";
    ck_assert_fails_with(usmarr_storage_preset_register(&p), USMARR_ERROR_INVALID_ARGUMENT, "preset->layout");
    p.layout = "IJJ";
    ck_assert_fails_with(usmarr_storage_preset_register(&p), USMARR_ERROR_INVALID_ARGUMENT, "permutation");
    p.layout = NULL;
    ck_assert_fails_with(usmarr_storage_preset_register(&p), USMARR_ERROR_INVALID_ARGUMENT, "preset->layout");
    p = good;
    p.alignment = 0;
    ck_assert_fails_with(usmarr_storage_preset_register(&p), USMARR_ERROR_INVALID_ARGUMENT, "preset->alignment=0");
    p = good;
    p.device = "tpu";
    ck_assert_fails_with(usmarr_storage_preset_register(&p), USMARR_ERROR_INVALID_ARGUMENT, "preset->device");
    p = good;
    p.managed = "magic";
    ck_assert_fails_with(usmarr_storage_preset_register(&p), USMARR_ERROR_INVALID_ARGUMENT, "preset->managed");
    usmarr_storage_preset_t got = {.name = "untouched"};
    ck_assert_fails_with(usmarr_storage_preset_find("x", &got), USMARR_ERROR_INVALID_ARGUMENT, "gtcuda");
    ck_assert_str_eq(got.name, "untouched");
    ck_assert_fails_with(usmarr_storage_preset_find(NULL, &got), USMARR_ERROR_INVALID_ARGUMENT, "name");
    ck_assert_fails_with(usmarr_storage_preset_find("C", NULL), USMARR_ERROR_INVALID_ARGUMENT, "preset");
}
END_TEST

/* ---- failures of the creation functions ---------------------------------------------------- */

/* Every failure: the code, a detail naming the parameter, the out-parameter untouched. */
#define FAILS(o, code, needle)                                                                   \
    do {                                                                                         \
        usmarr_storage_t *out_ = (usmarr_storage_t *)&sentinel;                                  \
        ck_assert_fails_with(usmarr_storage_empty(&(o), &out_), code, needle);                   \
        ck_assert_ptr_eq(out_, (usmarr_storage_t *)&sentinel);                                   \
        ck_assert_fails_with(usmarr_storage_zeros(&(o), &out_), code, needle);                   \
        ck_assert_fails_with(usmarr_storage_ones(&(o), &out_), code, needle);                    \
        ck_assert_fails_with(usmarr_storage_full(&(o), usmarr_scalar_int(2), &out_), code, needle); \
        ck_assert_ptr_eq(out_, (usmarr_storage_t *)&sentinel);                                   \
    } while (0)

static int sentinel;

START_TEST(test_storage_create_fails_on_bad_axes)
{
    usmarr_context_t *ctx = test_context();
    const int64_t shape[] = {2, 2, 2, 2};
    usmarr_storage_options_t o = storage_opts(ctx, "IJI", 3, shape);
    FAILS(o, USMARR_ERROR_INVALID_ARGUMENT, "options.axes=\"IJI\": 'I' appears twice");
    o.axes = "IXK";
    FAILS(o, USMARR_ERROR_INVALID_ARGUMENT, "options.axes=\"IXK\": 'X' is not one of");
    o.axes = "IJKI";
    FAILS(o, USMARR_ERROR_INVALID_ARGUMENT, "options.axes=\"IJKI\" is too long");
    o.axes = "ijk";
    FAILS(o, USMARR_ERROR_INVALID_ARGUMENT, "options.axes");
    o.axes = "IJ";
    o.nshape = 4;
    FAILS(o, USMARR_ERROR_INVALID_ARGUMENT, "options.nshape=4");
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_storage_create_fails_on_bad_shape_halo_and_aligned_index)
{
    usmarr_context_t *ctx = test_context();
    const int64_t shape[] = {4, 5, 6};
    usmarr_storage_options_t o = storage_opts(ctx, "IJK", 3, shape);
    o.shape[1] = -1;
    FAILS(o, USMARR_ERROR_INVALID_ARGUMENT, "options.shape[1]=-1 is negative");
    o.shape[1] = 5;
    o.nhalo = 3;
    o.halo[2][0] = 4;
    o.halo[2][1] = 3;
    FAILS(o, USMARR_ERROR_INVALID_ARGUMENT, "options.halo[2]=(4, 3) is larger than shape[2]=6");
    o.halo[2][0] = 7;
    o.halo[2][1] = 0;
    FAILS(o, USMARR_ERROR_INVALID_ARGUMENT, "options.halo[2]=(7, 0)");
    o.halo[2][0] = -1;
    FAILS(o, USMARR_ERROR_INVALID_ARGUMENT, "options.halo[2]=(-1, 0) is negative");
    o.halo[2][0] = 0;
    o.nhalo = 2;
    FAILS(o, USMARR_ERROR_INVALID_ARGUMENT, "options.nhalo=2");
    o.nhalo = 0;
    o.naligned_index = 3;
    o.aligned_index[0] = 5;
    FAILS(o, USMARR_ERROR_INVALID_ARGUMENT, "options.aligned_index[0]=5 is outside [0, 4]");
    o.aligned_index[0] = -2;
    FAILS(o, USMARR_ERROR_INVALID_ARGUMENT, "options.aligned_index[0]=-2");
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_storage_create_fails_on_alignment_and_itemsize_that_do_not_divide)
{
    usmarr_context_t *ctx = test_context();
    const int64_t shape[] = {4, 5, 6};
    usmarr_storage_options_t o = storage_opts(ctx, "IJK", 3, shape);
    o.alignment = 12; /* float64: 12 % 8 and 8 % 12 */
    FAILS(o, USMARR_ERROR_UNSUPPORTED, "options.alignment=12 bytes and the itemsize 8 of float64");
    o.alignment = 3;
    o.dtype = USMARR_FLOAT32;
    FAILS(o, USMARR_ERROR_UNSUPPORTED, "options.alignment=3");
    o.alignment = -64;
    FAILS(o, USMARR_ERROR_INVALID_ARGUMENT, "options.alignment=-64 is negative");
    /* A preset's alignment is checked too: 64 bytes and a 16-byte complex divide... */
    usmarr_storage_preset_t odd = {.name = "test-odd", .layout = "C", .alignment = 24};
    ck_assert_ok(usmarr_storage_preset_register(&odd));
    o.alignment = 0;
    o.defaults = "test-odd";
    o.dtype = USMARR_COMPLEX128;
    FAILS(o, USMARR_ERROR_UNSUPPORTED, "the preset's alignment=24 bytes");
    /* ...while the reverse relation (alignment smaller than the itemsize) is fine. */
    o.defaults = NULL;
    o.alignment = 4;
    o.dtype = USMARR_FLOAT64;
    usmarr_storage_t *s;
    ck_assert_ok(usmarr_storage_empty(&o, &s));
    ck_assert_int_eq(usmarr_storage_strides(s)[1], 6);
    usmarr_storage_release(s);
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_storage_create_fails_on_bad_layout_preset_kind_dtype_and_nulls)
{
    usmarr_context_t *ctx = test_context();
    const int64_t shape[] = {4, 5, 6};
    usmarr_storage_options_t o = storage_opts(ctx, "IJK", 3, shape);
    o.layout = "IJJ";
    FAILS(o, USMARR_ERROR_INVALID_ARGUMENT, "options.layout=\"IJJ\" is not a permutation");
    o.layout = "IJ";
    FAILS(o, USMARR_ERROR_INVALID_ARGUMENT, "options.layout=\"IJ\"");
    o.layout = "IJKK";
    FAILS(o, USMARR_ERROR_INVALID_ARGUMENT, "options.layout=\"IJKK\"");
    o.layout = NULL;
    o.defaults = "gtmc";
    FAILS(o, USMARR_ERROR_INVALID_ARGUMENT, "options.defaults=\"gtmc\" is not a known preset");
    o.defaults = NULL;
    o.device = "fpga";
    FAILS(o, USMARR_ERROR_INVALID_ARGUMENT, "options.device=\"fpga\"");
    o.device = "gpu";
    o.managed = "sometimes";
    FAILS(o, USMARR_ERROR_INVALID_ARGUMENT, "options.managed=\"sometimes\"");
    o.managed = NULL;
    o.dtype = 77;
    FAILS(o, USMARR_ERROR_BAD_DTYPE, "options.dtype=77");
    o.dtype = -5;
    FAILS(o, USMARR_ERROR_BAD_DTYPE, "options.dtype=-5");
    o.dtype = -1;
    o.context = NULL;
    FAILS(o, USMARR_ERROR_INVALID_ARGUMENT, "options.context is NULL");
    o.context = ctx;
    usmarr_storage_t *out = (usmarr_storage_t *)&sentinel;
    ck_assert_fails_with(usmarr_storage_empty(NULL, &out), USMARR_ERROR_INVALID_ARGUMENT, "options is NULL");
    ck_assert_fails_with(usmarr_storage_zeros(&o, NULL), USMARR_ERROR_INVALID_ARGUMENT, "storage is NULL");
    o.dtype = USMARR_INT8;
    ck_assert_fails_with(usmarr_storage_full(&o, usmarr_scalar_int(300), &out), USMARR_ERROR_OVERFLOW, "value=300");
    ck_assert_ptr_eq(out, (usmarr_storage_t *)&sentinel);
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_storage_set_halo_and_accessors_fail_cleanly)
{
    usmarr_context_t *ctx = test_context();
    const int64_t shape[] = {4, 5}, width[] = {1, 2};
    usmarr_storage_options_t o = storage_opts(ctx, "IK", 2, shape);
    usmarr_storage_halo_symmetric(&o, 2, width);
    usmarr_storage_t *s;
    ck_assert_ok(usmarr_storage_empty(&o, &s));
    const int64_t big[2][2] = {{1, 1}, {3, 3}}, neg[2][2] = {{0, -1}, {0, 0}};
    ck_assert_fails_with(usmarr_storage_set_halo(s, 2, big), USMARR_ERROR_INVALID_ARGUMENT,
                         "halo[1]=(3, 3) is larger than shape[1]=5 (axis K)");
    ck_assert_fails_with(usmarr_storage_set_halo(s, 2, neg), USMARR_ERROR_INVALID_ARGUMENT, "halo[0]=(0, -1)");
    ck_assert_fails_with(usmarr_storage_set_halo(s, 3, big), USMARR_ERROR_INVALID_ARGUMENT, "nhalo=3");
    ck_assert_fails_with(usmarr_storage_set_halo(s, 2, NULL), USMARR_ERROR_INVALID_ARGUMENT, "halo is NULL");
    ck_assert_fails_with(usmarr_storage_set_halo(NULL, 2, big), USMARR_ERROR_INVALID_ARGUMENT, "storage is NULL");
    for (int k = 0; k < 2; k++) { /* unchanged by the failures */
        ck_assert_int_eq(usmarr_storage_halo(s)[k][0], width[k]);
        ck_assert_int_eq(usmarr_storage_halo(s)[k][1], width[k]);
    }
    usmarr_array_t *a = (usmarr_array_t *)&sentinel;
    void *p = &sentinel;
    ck_assert_fails_with(usmarr_storage_device_array(s, false, &a), USMARR_ERROR_UNSUPPORTED, "host storage");
    ck_assert_fails_with(usmarr_storage_host_array(NULL, false, &a), USMARR_ERROR_INVALID_ARGUMENT, "storage");
    ck_assert_fails_with(usmarr_storage_host_array(s, false, NULL), USMARR_ERROR_INVALID_ARGUMENT, "array");
    ck_assert_fails_with(usmarr_storage_device_array(NULL, false, &a), USMARR_ERROR_INVALID_ARGUMENT, "storage");
    ck_assert_fails_with(usmarr_storage_host_data(s, false, NULL), USMARR_ERROR_INVALID_ARGUMENT, "data");
    ck_assert_fails_with(usmarr_storage_host_data(NULL, false, &p), USMARR_ERROR_INVALID_ARGUMENT, "storage");
    ck_assert_ptr_eq(a, (usmarr_array_t *)&sentinel);
    ck_assert_ptr_eq(p, &sentinel);
    usmarr_storage_release(s);
    o.device = "gpu";
    o.managed = "none";
    ck_assert_ok(usmarr_storage_empty(&o, &s));
    ck_assert_fails_with(usmarr_storage_host_array(s, true, &a), USMARR_ERROR_UNSUPPORTED, "device storage");
    ck_assert_fails_with(usmarr_storage_host_data(s, true, &p), USMARR_ERROR_UNSUPPORTED, "device storage");
    usmarr_storage_release(s);
    /* NULL handles: accessors answer "nothing", release is a no-op. */
    ck_assert_int_eq(usmarr_storage_ndim(NULL), -1);
    ck_assert_ptr_null(usmarr_storage_axes(NULL));
    ck_assert_ptr_null(usmarr_storage_shape(NULL));
    ck_assert_ptr_null(usmarr_storage_strides(NULL));
    ck_assert_ptr_null(usmarr_storage_halo(NULL));
    ck_assert_ptr_null(usmarr_storage_aligned_index(NULL));
    ck_assert_ptr_null(usmarr_storage_layout(NULL));
    ck_assert_ptr_null(usmarr_storage_context(NULL));
    ck_assert_ptr_null(usmarr_storage_sync_state(NULL));
    ck_assert_int_eq(usmarr_storage_nbytes(NULL), 0);
    ck_assert_int_eq(usmarr_storage_alignment(NULL), 0);
    ck_assert_int_eq(usmarr_storage_refcount(NULL), 0);
    ck_assert_int_eq(usmarr_storage_dtype(NULL), USMARR_DTYPE_COUNT);
    ck_assert_int_eq(usmarr_storage_kind(NULL), 0);
    ck_assert_ptr_null(usmarr_storage_retain(NULL));
    usmarr_storage_release(NULL);
    usmarr_storage_halo_symmetric(NULL, 2, width); /* ignored */
    usmarr_context_release(ctx);
}
END_TEST

void storage_add_param_tests(TCase *t)
{
    tcase_add_test(t, test_storage_preset_table_is_extensible_at_run_time);
    tcase_add_test(t, test_storage_preset_register_and_find_fail_cleanly);
    tcase_add_test(t, test_storage_create_fails_on_bad_axes);
    tcase_add_test(t, test_storage_create_fails_on_bad_shape_halo_and_aligned_index);
    tcase_add_test(t, test_storage_create_fails_on_alignment_and_itemsize_that_do_not_divide);
    tcase_add_test(t, test_storage_create_fails_on_bad_layout_preset_kind_dtype_and_nulls);
    tcase_add_test(t, test_storage_set_halo_and_accessors_fail_cleanly);
}
