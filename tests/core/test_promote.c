/* Type promotion and casting rules against NumPy's tables (tests/ops_cases.txt). */
#include "../harness/common.h"
#include "../ops/ops_cases.h"

#include <errno.h>
#include <stdlib.h>

static const usmarr_casting_t castings[] = {USMARR_CASTING_NO, USMARR_CASTING_EQUIV, USMARR_CASTING_SAFE,
                                           USMARR_CASTING_SAME_KIND, USMARR_CASTING_UNSAFE};
static const char *const casting_names[] = {"no", "equiv", "safe", "same_kind", "unsafe"};

static usmarr_scalar_t weak_scalar(const char *kind, const char *text)
{
    usmarr_scalar_t s = {.dtype = -1};
    if (!strcmp(kind, "bool")) {
        s.kind = USMARR_KIND_BOOL;
        s.value.b = atoi(text) != 0;
    } else if (!strcmp(kind, "int")) {
        s.kind = USMARR_KIND_INT;
        s.value.i = strtoll(text, NULL, 10);
    } else if (!strcmp(kind, "uint")) {
        s.kind = USMARR_KIND_UINT;
        s.value.u = strtoull(text, NULL, 10);
    } else if (!strcmp(kind, "float")) {
        s.kind = USMARR_KIND_FLOAT;
        s.value.f = strtod(text, NULL);
    } else {
        s.kind = USMARR_KIND_COMPLEX;
        char *end;
        s.value.c[0] = strtod(text, &end);
        s.value.c[1] = strtod(end + 1, NULL);
    }
    return s;
}

START_TEST(test_promote_types_cast_rules_and_weak_scalars_match_numpy)
{
    FILE *f = ops_cases_open();
    char line[4096];
    int promotes = 0, casts = 0, weaks = 0, weakonly = 0;
    while (fgets(line, sizeof line, f)) {
        char *fl[8];
        int n = ops_cases_split(line, fl, 8);
        if (n == 4 && !strcmp(fl[0], "promote")) {
            usmarr_dtype_t r;
            ck_assert_ok(usmarr_promote_types(ops_cases_dtype(fl[1]), ops_cases_dtype(fl[2]), &r));
            ck_assert_msg((int)r == ops_cases_dtype(fl[3]), "promote_types(%s, %s) gave %d, NumPy %s", fl[1], fl[2],
                          (int)r, fl[3]);
            promotes++;
        } else if (n == 5 && !strcmp(fl[0], "cancast")) {
            int c = 0;
            while (strcmp(casting_names[c], fl[3]))
                c++;
            bool got = usmarr_can_cast(ops_cases_dtype(fl[1]), ops_cases_dtype(fl[2]), castings[c]);
            ck_assert_msg(got == (atoi(fl[4]) != 0), "can_cast(%s, %s, %s) gave %d, NumPy %s", fl[1], fl[2], fl[3],
                          got, fl[4]);
            casts++;
        } else if (n == 5 && !strcmp(fl[0], "weak")) {
            usmarr_dtype_t a = ops_cases_dtype(fl[1]), r;
            usmarr_scalar_t s = weak_scalar(fl[2], fl[3]);
            int rc = usmarr_result_type(&a, 1, &s, 1, &r);
            if (!strcmp(fl[4], "overflow")) {
                ck_assert_msg(rc == USMARR_ERROR_OVERFLOW, "%s array + weak %s %s: rc %d, NumPy overflows", fl[1],
                              fl[2], fl[3], rc);
                ck_assert_ptr_nonnull(strstr(usmarr_last_error_detail(), "out of range"));
            } else {
                ck_assert_msg(rc == 0 && (int)r == ops_cases_dtype(fl[4]), "%s array + weak %s %s: rc %d dtype %d, NumPy %s",
                              fl[1], fl[2], fl[3], rc, (int)r, fl[4]);
            }
            weaks++;
        } else if (n == 4 && !strcmp(fl[0], "weakonly")) {
            usmarr_dtype_t r;
            usmarr_scalar_t s = weak_scalar(fl[1], fl[2]);
            ck_assert_ok(usmarr_result_type(NULL, 0, &s, 1, &r));
            ck_assert_msg((int)r == ops_cases_dtype(fl[3]), "weak %s %s alone gave %d, NumPy %s", fl[1], fl[2], (int)r,
                          fl[3]);
            weakonly++;
        }
    }
    fclose(f);
    ck_assert_int_eq(promotes, 14 * 14);
    ck_assert_int_eq(casts, 14 * 14 * 5);
    ck_assert_int_gt(weaks, 14 * 10);
    ck_assert_int_gt(weakonly, 5);
}
END_TEST

START_TEST(test_promote_result_type_mixes_arrays_typed_and_weak_scalars)
{
    usmarr_dtype_t r;
    usmarr_dtype_t d[3] = {USMARR_INT8, USMARR_UINT8, USMARR_FLOAT16};
    ck_assert_ok(usmarr_result_type(d, 2, NULL, 0, &r));
    ck_assert_int_eq(r, USMARR_INT16);
    ck_assert_ok(usmarr_result_type(d, 3, NULL, 0, &r));
    ck_assert_int_eq(r, USMARR_FLOAT32);
    /* a typed float64 scalar promotes like an array; a weak float does not widen float16 */
    usmarr_scalar_t typed = {.kind = USMARR_KIND_FLOAT, .dtype = USMARR_FLOAT64, .value.f = 1.0};
    usmarr_scalar_t weak = {.kind = USMARR_KIND_FLOAT, .dtype = -1, .value.f = 1.0};
    ck_assert_ok(usmarr_result_type(&d[2], 1, &typed, 1, &r));
    ck_assert_int_eq(r, USMARR_FLOAT64);
    ck_assert_ok(usmarr_result_type(&d[2], 1, &weak, 1, &r));
    ck_assert_int_eq(r, USMARR_FLOAT16);
    /* weak complex on float32 gives complex64, several weak scalars take the highest kind */
    usmarr_scalar_t ws[2] = {{.kind = USMARR_KIND_INT, .dtype = -1, .value.i = 3},
                             {.kind = USMARR_KIND_COMPLEX, .dtype = -1, .value.c = {1, 2}}};
    usmarr_dtype_t f32 = USMARR_FLOAT32;
    ck_assert_ok(usmarr_result_type(&f32, 1, ws, 2, &r));
    ck_assert_int_eq(r, USMARR_COMPLEX64);
    ck_assert_ok(usmarr_result_type(NULL, 0, ws, 2, &r));
    ck_assert_int_eq(r, USMARR_COMPLEX128);
}
END_TEST

START_TEST(test_promote_rejects_bad_arguments)
{
    usmarr_dtype_t r, d = USMARR_INT8;
    ck_assert_fails_with(usmarr_promote_types((usmarr_dtype_t)14, USMARR_INT8, &r), USMARR_ERROR_BAD_DTYPE, "a=14");
    ck_assert_fails_with(usmarr_promote_types(USMARR_INT8, (usmarr_dtype_t)-1, &r), USMARR_ERROR_BAD_DTYPE, "b=-1");
    ck_assert_fails_with(usmarr_promote_types(USMARR_INT8, USMARR_INT8, NULL), USMARR_ERROR_INVALID_ARGUMENT, "result");
    ck_assert_fails_with(usmarr_result_type(NULL, 0, NULL, 0, &r), USMARR_ERROR_INVALID_ARGUMENT, "no operands");
    ck_assert_fails_with(usmarr_result_type(NULL, 2, NULL, 0, &r), USMARR_ERROR_INVALID_ARGUMENT, "dtypes is NULL");
    ck_assert_fails_with(usmarr_result_type(&d, 1, NULL, 1, &r), USMARR_ERROR_INVALID_ARGUMENT, "scalars is NULL");
    ck_assert_fails_with(usmarr_result_type(&d, 1, NULL, 0, NULL), USMARR_ERROR_INVALID_ARGUMENT, "result");
    usmarr_dtype_t bad = (usmarr_dtype_t)99;
    ck_assert_fails_with(usmarr_result_type(&bad, 1, NULL, 0, &r), USMARR_ERROR_BAD_DTYPE, "dtypes[0]=99");
    usmarr_scalar_t s = {.kind = USMARR_KIND_INT, .dtype = USMARR_FLOAT32};
    ck_assert_fails_with(usmarr_result_type(&d, 1, &s, 1, &r), USMARR_ERROR_INVALID_ARGUMENT,
                         "scalars[0].kind=USMARR_KIND_INT contradicts scalars[0].dtype=float32");
    s.dtype = 99;
    ck_assert_fails_with(usmarr_result_type(&d, 1, &s, 1, &r), USMARR_ERROR_BAD_DTYPE, "scalars[0].dtype=99");
    s.kind = (usmarr_kind_t)7;
    s.dtype = -1;
    ck_assert_fails_with(usmarr_result_type(&d, 1, &s, 1, &r), USMARR_ERROR_INVALID_ARGUMENT, "scalars[0].kind=7");
    usmarr_scalar_t big = {.kind = USMARR_KIND_INT, .dtype = -1, .value.i = 300};
    ck_assert_fails_with(usmarr_result_type(&d, 1, &big, 1, &r), USMARR_ERROR_OVERFLOW, "scalars[0]=300");
    ck_assert(!usmarr_can_cast((usmarr_dtype_t)14, USMARR_INT8, USMARR_CASTING_UNSAFE));
    ck_assert(!usmarr_can_cast(USMARR_INT8, USMARR_INT8, (usmarr_casting_t)9));
}
END_TEST

Suite *suite_promote(void);
Suite *suite_promote(void)
{
    Suite *s = suite_create("promote");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_promote_types_cast_rules_and_weak_scalars_match_numpy);
    tcase_add_test(tc, test_promote_result_type_mixes_arrays_typed_and_weak_scalars);
    tcase_add_test(tc, test_promote_rejects_bad_arguments);
    suite_add_tcase(s, tc);
    return s;
}
