#include "../harness/common.h"

#include <CL/cl.h>

struct code_row {
    int code;
    const char *name;
};

static const struct code_row library_codes[] = {
#define ROW_(name, value, text) {name, #name},
    USMARR_ERROR_LIST(ROW_)
#undef ROW_
};

START_TEST(test_error_every_library_code_has_distinct_name_and_text)
{
    size_t n = sizeof library_codes / sizeof library_codes[0];
    for (size_t i = 0; i < n; i++) {
        ck_assert_str_eq(usmarr_error_name(library_codes[i].code), library_codes[i].name);
        const char *text = usmarr_strerror(library_codes[i].code);
        ck_assert_str_ne(text, "unknown error code");
        ck_assert_msg(library_codes[i].code == 0 || library_codes[i].code <= -20000,
                      "%s=%d is outside the library range", library_codes[i].name, library_codes[i].code);
        for (size_t j = 0; j < i; j++) {
            ck_assert_int_ne(library_codes[i].code, library_codes[j].code);
            ck_assert_str_ne(text, usmarr_strerror(library_codes[j].code));
        }
    }
}
END_TEST

START_TEST(test_error_opencl_codes_pass_through_with_their_names)
{
    ck_assert_str_eq(usmarr_error_name(CL_OUT_OF_RESOURCES), "CL_OUT_OF_RESOURCES");
    ck_assert_str_eq(usmarr_error_name(CL_INVALID_VALUE), "CL_INVALID_VALUE");
    ck_assert_str_eq(usmarr_error_name(CL_BUILD_PROGRAM_FAILURE), "CL_BUILD_PROGRAM_FAILURE");
    ck_assert_str_eq(usmarr_strerror(CL_INVALID_KERNEL_NAME), "invalid kernel name");
}
END_TEST

START_TEST(test_error_unknown_code_is_named_unknown)
{
    ck_assert_str_eq(usmarr_error_name(-123456), "UNKNOWN");
    ck_assert_str_eq(usmarr_strerror(12345), "unknown error code");
}
END_TEST

START_TEST(test_error_detail_is_per_call_and_names_argument)
{
    usmarr_context_t *ctx = NULL;
    ck_assert_fails_with(usmarr_context_create("opencl:tpu", &ctx), USMARR_ERROR_BAD_SELECTOR, "tpu");
    ck_assert_ptr_null(ctx);
    usmarr_device_info_t *devs;
    size_t n;
    ck_assert_ok(usmarr_devices_list(&devs, &n));
    ck_assert_str_eq(usmarr_last_error_detail(), "");
    usmarr_devices_free(devs);
}
END_TEST

START_TEST(test_error_set_records_detail_for_layered_libraries)
{
    ck_assert_int_eq(usmarr_error_set(USMARR_ERROR_MPI, "rank %d of %d", 3, 4), USMARR_ERROR_MPI);
    ck_assert_str_eq(usmarr_last_error_detail(), "rank 3 of 4");
    char long_text[3000];
    memset(long_text, 'x', sizeof long_text - 1);
    long_text[sizeof long_text - 1] = '\0';
    ck_assert_int_eq(usmarr_error_set(USMARR_ERROR_INVALID_ARGUMENT, "%s", long_text), USMARR_ERROR_INVALID_ARGUMENT);
    ck_assert_uint_eq(strlen(usmarr_last_error_detail()), 1023);
    ck_assert_int_eq(usmarr_error_set(0, NULL), 0);
    ck_assert_str_eq(usmarr_last_error_detail(), "");
    ck_assert_str_eq(usmarr_error_name(USMARR_ERROR_MPI), "USMARR_ERROR_MPI");
}
END_TEST

Suite *suite_error(void)
{
    Suite *s = suite_create("error");
    TCase *tc = tcase_create("codes");
    tcase_add_test(tc, test_error_every_library_code_has_distinct_name_and_text);
    tcase_add_test(tc, test_error_opencl_codes_pass_through_with_their_names);
    tcase_add_test(tc, test_error_unknown_code_is_named_unknown);
    tcase_add_test(tc, test_error_detail_is_per_call_and_names_argument);
    tcase_add_test(tc, test_error_set_records_detail_for_layered_libraries);
    suite_add_tcase(s, tc);
    return s;
}
