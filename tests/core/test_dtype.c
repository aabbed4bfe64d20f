/* Dtypes: the table, typestr parsing and scalar constructors. */
#include "../harness/common.h"

#include <complex.h>
#include <stdint.h>

START_TEST(test_dtype_table_matches_c_types)
{
    /* Oracle: the C types themselves. */
    struct {
        usmarr_dtype_t t;
        size_t size;
        usmarr_kind_t kind;
        const char *name, *typestr;
    } want[] = {
        {USMARR_BOOL, sizeof(bool), USMARR_KIND_BOOL, "bool", "|b1"},
        {USMARR_INT8, sizeof(int8_t), USMARR_KIND_INT, "int8", "|i1"},
        {USMARR_INT16, sizeof(int16_t), USMARR_KIND_INT, "int16", "<i2"},
        {USMARR_INT32, sizeof(int32_t), USMARR_KIND_INT, "int32", "<i4"},
        {USMARR_INT64, sizeof(int64_t), USMARR_KIND_INT, "int64", "<i8"},
        {USMARR_UINT8, sizeof(uint8_t), USMARR_KIND_UINT, "uint8", "|u1"},
        {USMARR_UINT16, sizeof(uint16_t), USMARR_KIND_UINT, "uint16", "<u2"},
        {USMARR_UINT32, sizeof(uint32_t), USMARR_KIND_UINT, "uint32", "<u4"},
        {USMARR_UINT64, sizeof(uint64_t), USMARR_KIND_UINT, "uint64", "<u8"},
        {USMARR_FLOAT16, 2, USMARR_KIND_FLOAT, "float16", "<f2"},
        {USMARR_FLOAT32, sizeof(float), USMARR_KIND_FLOAT, "float32", "<f4"},
        {USMARR_FLOAT64, sizeof(double), USMARR_KIND_FLOAT, "float64", "<f8"},
        {USMARR_COMPLEX64, sizeof(float complex), USMARR_KIND_COMPLEX, "complex64", "<c8"},
        {USMARR_COMPLEX128, sizeof(double complex), USMARR_KIND_COMPLEX, "complex128", "<c16"},
    };
    ck_assert_int_eq(sizeof want / sizeof want[0], USMARR_DTYPE_COUNT);
    for (int i = 0; i < USMARR_DTYPE_COUNT; i++) {
        ck_assert_uint_eq(usmarr_dtype_size(want[i].t), want[i].size);
        ck_assert_int_eq(usmarr_dtype_kind(want[i].t), want[i].kind);
        ck_assert_str_eq(usmarr_dtype_name(want[i].t), want[i].name);
        ck_assert_str_eq(usmarr_dtype_typestr(want[i].t), want[i].typestr);
        size_t al = usmarr_dtype_alignment(want[i].t);
        ck_assert_uint_ge(al, 1);
        ck_assert_uint_eq(want[i].size % al, 0);
        /* every native typestr parses back to its dtype */
        usmarr_dtype_t back = USMARR_DTYPE_COUNT;
        ck_assert_ok(usmarr_dtype_from_typestr(want[i].typestr, &back));
        ck_assert_int_eq(back, want[i].t);
    }
    ck_assert_uint_eq(usmarr_dtype_size(USMARR_DTYPE_COUNT), 0);
    ck_assert_uint_eq(usmarr_dtype_alignment((usmarr_dtype_t)-1), 0);
    ck_assert_str_eq(usmarr_dtype_name((usmarr_dtype_t)77), "invalid");
    ck_assert_ptr_null(usmarr_dtype_typestr((usmarr_dtype_t)77));
}
END_TEST

START_TEST(test_dtype_typestr_accepted_forms)
{
    struct {
        const char *s;
        usmarr_dtype_t t;
    } ok[] = {
        {"|b1", USMARR_BOOL},  {"<b1", USMARR_BOOL},   {">b1", USMARR_BOOL},      {"b1", USMARR_BOOL},
        {"<i4", USMARR_INT32}, {"=i4", USMARR_INT32},  {"i4", USMARR_INT32},      {"=f8", USMARR_FLOAT64},
        {"<c16", USMARR_COMPLEX128}, {"<c8", USMARR_COMPLEX64}, {"|u1", USMARR_UINT8}, {">u1", USMARR_UINT8},
        {"<f2", USMARR_FLOAT16}, {"u8", USMARR_UINT64}, {"=i2", USMARR_INT16},   {"|i1", USMARR_INT8},
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        usmarr_dtype_t t = USMARR_DTYPE_COUNT;
        int rc = usmarr_dtype_from_typestr(ok[i].s, &t);
        ck_assert_msg(rc == 0, "%s: %s", ok[i].s, usmarr_last_error_detail());
        ck_assert_msg(t == ok[i].t, "%s parsed as %s", ok[i].s, usmarr_dtype_name(t));
    }
}
END_TEST

START_TEST(test_dtype_typestr_rejections_say_why)
{
    struct {
        const char *s, *needle;
    } bad[] = {
        {">i4", "big-endian"},    {">f8", "big-endian"},     {">c16", "big-endian"}, {"|f4", "only valid for 1-byte"},
        {"|O8", "Python object"}, {"|S5", "byte string"},    {"<U3", "unicode"},     {"|V16", "void"},
        {"<M8", "datetime"},      {"<m8", "timedelta"},      {"a4", "byte string"},  {"<f16", "size 16"},
        {"<f1", "size 1"},        {"<i3", "size 3"},         {"<c4", "size 4"},      {"|b2", "size 2"},
        {"", "no kind"},          {"<", "no kind"},          {"<x4", "unknown kind"}, {"<i", "item size"},
        {"<i4 ", "trailing"},     {"<i4x", "trailing"},      {"<f99999999999", "too many digits"},
        {"<<i4", "unknown kind"}, {"i-4", "item size"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        usmarr_dtype_t t = USMARR_INT8;
        int rc = usmarr_dtype_from_typestr(bad[i].s, &t);
        ck_assert_msg(rc == USMARR_ERROR_BAD_DTYPE, "\"%s\" gave %d", bad[i].s, rc);
        ck_assert_msg(strstr(usmarr_last_error_detail(), bad[i].needle) != NULL, "\"%s\": detail \"%s\" lacks \"%s\"",
                      bad[i].s, usmarr_last_error_detail(), bad[i].needle);
        ck_assert_msg(strstr(usmarr_last_error_detail(), "typestr") != NULL, "detail names the argument");
        ck_assert_int_eq(t, USMARR_INT8); /* untouched on failure */
    }
    usmarr_dtype_t t;
    ck_assert_fails_with(usmarr_dtype_from_typestr(NULL, &t), USMARR_ERROR_INVALID_ARGUMENT, "typestr");
    ck_assert_fails_with(usmarr_dtype_from_typestr("<i4", NULL), USMARR_ERROR_INVALID_ARGUMENT, "dtype");
}
END_TEST

START_TEST(test_dtype_scalars_are_weak_and_tagged)
{
    usmarr_scalar_t s = usmarr_scalar_bool(true);
    ck_assert_int_eq(s.kind, USMARR_KIND_BOOL);
    ck_assert_int_eq(s.dtype, -1);
    ck_assert(s.value.b);
    s = usmarr_scalar_int(-5);
    ck_assert_int_eq(s.kind, USMARR_KIND_INT);
    ck_assert_int_eq(s.value.i, -5);
    s = usmarr_scalar_uint(UINT64_MAX);
    ck_assert_int_eq(s.kind, USMARR_KIND_UINT);
    ck_assert(s.value.u == UINT64_MAX);
    s = usmarr_scalar_float(2.5);
    ck_assert_int_eq(s.kind, USMARR_KIND_FLOAT);
    ck_assert(s.value.f == 2.5);
    ck_assert_int_eq(s.dtype, -1);
    s = usmarr_scalar_complex(1.0, -3.0);
    ck_assert_int_eq(s.kind, USMARR_KIND_COMPLEX);
    ck_assert(s.value.c[0] == 1.0 && s.value.c[1] == -3.0);
}
END_TEST

Suite *suite_dtype(void);
Suite *suite_dtype(void)
{
    Suite *s = suite_create("dtype");
    TCase *t = tcase_create("core");
    tcase_add_test(t, test_dtype_table_matches_c_types);
    tcase_add_test(t, test_dtype_typestr_accepted_forms);
    tcase_add_test(t, test_dtype_typestr_rejections_say_why);
    tcase_add_test(t, test_dtype_scalars_are_weak_and_tagged);
    suite_add_tcase(s, t);
    return s;
}
