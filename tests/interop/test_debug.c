/* The debug dump of an array and the printing of its values (lib/interop/debug.c). */
#include "../harness/common.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

START_TEST(test_debug_repr_names_everything)
{
    usmarr_context_t *ctx = test_context();
    usmarr_array_options_t o = USMARR_ARRAY_OPTIONS_INIT;
    int64_t shape[] = {4, 2}, strides[] = {-5, -2};
    o.context = ctx;
    o.ndim = 2;
    o.shape = shape;
    o.typestr = "i4";
    o.strides = strides;
    usmarr_array_t *a;
    ck_assert_ok(usmarr_array_create(&o, &a));
    char *text;
    ck_assert_ok(usmarr_array_debug_string(a, &text));
    char want[160];
    const char *needles[] = {"refcount: 1", "dtype: int32 (typestr <i4, 4 bytes", "flags: 0xc (read_access write_access )",
                             "shape: (4, 2)", "strides: (-5, -2) elements", "offset: 17 elements", "kind: device",
                             "size: 72 bytes", "owner: libusmarr", "------"};
    for (size_t i = 0; i < sizeof needles / sizeof needles[0]; i++)
        ck_assert_msg(strstr(text, needles[i]) != NULL, "dump lacks \"%s\":\n%s", needles[i], text);
    snprintf(want, sizeof want, " address: %p\n", (void *)a);
    ck_assert_msg(strstr(text, want) != NULL, "dump lacks the address");
    snprintf(want, sizeof want, "pointer: %p (element", usmarr_array_data(a));
    ck_assert_msg(strstr(text, want) != NULL, "dump lacks the data pointer");
    snprintf(want, sizeof want, "base: %p", usmarr_memory_pointer(usmarr_array_memory(a)));
    ck_assert_msg(strstr(text, want) != NULL, "dump lacks the base");
    snprintf(want, sizeof want, "(%s)", test_selector);
    ck_assert_msg(strstr(text, want) != NULL, "dump lacks the device selector");
    usmarr_string_free(text);
    FILE *f = tmpfile();
    ck_assert_ok(usmarr_array_debug_print(a, f));
    ck_assert_int_gt(ftell(f), 200);
    fclose(f);
    ck_assert_fails_with(usmarr_array_debug_print(NULL, stdout), USMARR_ERROR_INVALID_ARGUMENT, "array");
    ck_assert_fails_with(usmarr_array_debug_print(a, NULL), USMARR_ERROR_INVALID_ARGUMENT, "out");
    ck_assert_fails_with(usmarr_array_debug_string(a, NULL), USMARR_ERROR_INVALID_ARGUMENT, "text");
    usmarr_array_release(a);
    usmarr_context_release(ctx);
}
END_TEST

static void check_values_text(usmarr_context_t *ctx, int nd, const int64_t *shape, usmarr_dtype_t dt,
                              const void *host, const char *want)
{
    usmarr_array_t *a;
    ck_assert_ok(usmarr_array_from_host(ctx, nd, shape, dt, host, NULL, USMARR_USM_DEVICE, &a));
    char *text;
    ck_assert_ok(usmarr_array_to_string(a, &text));
    ck_assert_str_eq(text, want);
    usmarr_string_free(text);
    usmarr_array_release(a);
}

START_TEST(test_debug_values_print_like_numpy)
{
    usmarr_context_t *ctx = test_context();
    int64_t s23[] = {2, 3}, s2[] = {2}, s1[] = {1};
    int32_t i6[] = {1, 2, 3, 4, 5, -6};
    check_values_text(ctx, 2, s23, USMARR_INT32, i6, "[[ 1  2  3]\n [ 4  5 -6]]");
    bool b2[] = {true, false};
    check_values_text(ctx, 1, s2, USMARR_BOOL, b2, "[ True False]");
    double d2[] = {1.0, 2.5};
    check_values_text(ctx, 1, s2, USMARR_FLOAT64, d2, "[ 1. 2.5]");
    float c1[] = {1.0f, -2.0f};
    check_values_text(ctx, 1, s1, USMARR_COMPLEX64, c1, "[1.-2.j]");
    uint16_t h[] = {0x3c00, 0x7e00}; /* float16 1.0, nan */
    check_values_text(ctx, 1, s2, USMARR_FLOAT16, h, "[ 1. nan]");
    int64_t v0 = 42;
    check_values_text(ctx, 0, NULL, USMARR_INT64, &v0, "42");
    int64_t s0[] = {0, 3};
    check_values_text(ctx, 2, s0, USMARR_INT64, NULL, "[]");
    /* Summarised like NumPy's str(np.arange(2000)). */
    usmarr_array_t *a;
    ck_assert_ok(usmarr_array_arange(ctx, 0, 2000, 1, USMARR_INT64, 0, &a));
    char *text;
    ck_assert_ok(usmarr_array_to_string(a, &text));
    ck_assert_str_eq(text, "[   0    1    2 ... 1997 1998 1999]");
    usmarr_string_free(text);
    /* 1000 elements is not above the threshold: printed in full. */
    usmarr_array_release(a);
    ck_assert_ok(usmarr_array_arange(ctx, 0, 1000, 1, USMARR_INT16, 0, &a));
    ck_assert_ok(usmarr_array_to_string(a, &text));
    ck_assert_ptr_null(strstr(text, "..."));
    ck_assert_ptr_nonnull(strstr(text, " 500 "));
    usmarr_string_free(text);
    usmarr_array_release(a);
    /* 2-d summary: rows and columns elided. */
    int64_t s2d[] = {40, 50};
    ck_assert_ok(usmarr_array_zeros(ctx, 2, s2d, USMARR_UINT8, 0, 0, &a));
    ck_assert_ok(usmarr_array_to_string(a, &text));
    const char *want2d = "[[0 0 0 ... 0 0 0]\n [0 0 0 ... 0 0 0]\n [0 0 0 ... 0 0 0]\n ...\n"
                         " [0 0 0 ... 0 0 0]\n [0 0 0 ... 0 0 0]\n [0 0 0 ... 0 0 0]]";
    ck_assert_str_eq(text, want2d);
    usmarr_string_free(text);
    FILE *f = tmpfile();
    ck_assert_ok(usmarr_array_print(a, f));
    ck_assert_int_eq(ftell(f), (long)strlen(want2d) + 1); /* the text and a newline */
    fclose(f);
    ck_assert_fails_with(usmarr_array_to_string(NULL, &text), USMARR_ERROR_INVALID_ARGUMENT, "array");
    ck_assert_fails_with(usmarr_array_print(a, NULL), USMARR_ERROR_INVALID_ARGUMENT, "out");
    usmarr_array_release(a);
    usmarr_context_release(ctx);
}
END_TEST

Suite *suite_debug(void);
Suite *suite_debug(void)
{
    Suite *s = suite_create("debug");
    const struct test_case_entry tests[] = {
        {"repr", test_debug_repr_names_everything},
        {"values", test_debug_values_print_like_numpy},
    };
    test_add_cases(s, tests, sizeof tests / sizeof tests[0]);
    return s;
}
