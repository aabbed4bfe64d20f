/* finfo, iinfo, isdtype, unstack and meshgrid.  The limits are NumPy 2's (np.finfo /
 * np.iinfo printed values); the grids and views are checked against host loops. */
#include "common.h"

#include <float.h>
#include <stdlib.h>

START_TEST(test_utilities_finfo_iinfo)
{
    usmarr_finfo_t f;
    ck_assert_ok(usmarr_finfo(USMARR_FLOAT16, &f));
    ck_assert_int_eq(f.bits, 16);
    ck_assert_double_eq(f.eps, 0.0009765625);
    ck_assert_double_eq(f.max, 65504.0);
    ck_assert_double_eq(f.min, -65504.0);
    ck_assert_double_eq(f.smallest_normal, 6.103515625e-05);
    ck_assert_ok(usmarr_finfo(USMARR_COMPLEX64, &f));
    ck_assert_int_eq(f.bits, 32);
    ck_assert_int_eq(f.dtype, USMARR_FLOAT32);
    ck_assert_double_eq(f.eps, 1.1920928955078125e-07);
    ck_assert_double_eq(f.max, 3.4028234663852886e+38);
    ck_assert_double_eq(f.smallest_normal, 1.1754943508222875e-38);
    ck_assert_ok(usmarr_finfo(USMARR_FLOAT64, &f));
    ck_assert_double_eq(f.eps, 2.220446049250313e-16);
    ck_assert_double_eq(f.smallest_normal, 2.2250738585072014e-308);
    usmarr_iinfo_t i;
    ck_assert_ok(usmarr_iinfo(USMARR_INT8, &i));
    ck_assert_int_eq(i.bits, 8);
    ck_assert_int_eq(i.min, -128);
    ck_assert_uint_eq(i.max, 127);
    ck_assert_ok(usmarr_iinfo(USMARR_UINT64, &i));
    ck_assert_int_eq(i.min, 0);
    ck_assert_uint_eq(i.max, UINT64_MAX);
    ck_assert_ok(usmarr_iinfo(USMARR_INT64, &i));
    ck_assert_int_eq(i.min, INT64_MIN);
    ck_assert_uint_eq(i.max, (uint64_t)INT64_MAX);
    ck_assert_ok(usmarr_iinfo(USMARR_UINT16, &i));
    ck_assert_uint_eq(i.max, 65535);
    ck_assert_fails_with(usmarr_finfo(USMARR_INT32, &f), USMARR_ERROR_BAD_DTYPE, "not a floating or complex dtype");
    ck_assert_fails_with(usmarr_finfo(USMARR_FLOAT32, NULL), USMARR_ERROR_INVALID_ARGUMENT, "info is NULL");
    ck_assert_fails_with(usmarr_iinfo(USMARR_BOOL, &i), USMARR_ERROR_BAD_DTYPE, "(bool) is not an integer dtype");
    ck_assert_fails_with(usmarr_iinfo(USMARR_FLOAT32, &i), USMARR_ERROR_BAD_DTYPE, "not an integer dtype");
    ck_assert_fails_with(usmarr_iinfo((usmarr_dtype_t)99, &i), USMARR_ERROR_BAD_DTYPE, "dtype=99");
    ck_assert_fails_with(usmarr_iinfo(USMARR_INT8, NULL), USMARR_ERROR_INVALID_ARGUMENT, "info is NULL");
}
END_TEST

START_TEST(test_utilities_isdtype)
{
    /* the array API's table: kind -> dtypes */
    static const struct {
        const char *kind;
        const char *members; /* one letter per dtype in enum order: b i8 i16 i32 i64 u8 u16 u32 u64 f16 f32 f64 c64 c128 */
    } table[] = {
        {"bool", "10000000000000"},          {"signed integer", "01111000000000"},
        {"unsigned integer", "00000111100000"}, {"integral", "01111111100000"},
        {"real floating", "00000000011100"}, {"complex floating", "00000000000011"},
        {"numeric", "01111111111111"},       {"bool, complex floating", "10000000000011"},
        {"float32", "00000000001000"},       {" integral ,real floating", "01111111111100"},
    };
    static const usmarr_dtype_t order[14] = {USMARR_BOOL,    USMARR_INT8,    USMARR_INT16,    USMARR_INT32,   USMARR_INT64,
                                             USMARR_UINT8,   USMARR_UINT16,  USMARR_UINT32,   USMARR_UINT64,  USMARR_FLOAT16,
                                             USMARR_FLOAT32, USMARR_FLOAT64, USMARR_COMPLEX64, USMARR_COMPLEX128};
    for (size_t t = 0; t < sizeof table / sizeof *table; t++)
        for (int d = 0; d < 14; d++) {
            bool r = !(table[t].members[d] == '1');
            ck_assert_ok(usmarr_isdtype(order[d], table[t].kind, &r));
            ck_assert_msg(r == (table[t].members[d] == '1'), "isdtype(%s, \"%s\") is %d", usmarr_dtype_name(order[d]),
                          table[t].kind, r);
        }
    bool r;
    ck_assert_fails_with(usmarr_isdtype(USMARR_INT8, "integer", &r), USMARR_ERROR_INVALID_ARGUMENT,
                         "kind \"integer\" is not a kind name");
    ck_assert_fails_with(usmarr_isdtype(USMARR_INT8, "bool,", &r), USMARR_ERROR_INVALID_ARGUMENT, "empty entry");
    ck_assert_fails_with(usmarr_isdtype(USMARR_INT8, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT, "kind is NULL");
    ck_assert_fails_with(usmarr_isdtype(USMARR_INT8, "bool", NULL), USMARR_ERROR_INVALID_ARGUMENT, "result is NULL");
    ck_assert_fails_with(usmarr_isdtype((usmarr_dtype_t)-1, "bool", &r), USMARR_ERROR_BAD_DTYPE, "dtype=-1");
}
END_TEST

static usmarr_array_t *iota(usmarr_context_t *ctx, int nd, const int64_t *shape, int base)
{
    int64_t n = 1;
    for (int d = 0; d < nd; d++)
        n *= shape[d];
    int32_t *v = malloc(sizeof(int32_t) * (size_t)(n ? n : 1));
    for (int64_t i = 0; i < n; i++)
        v[i] = base + (int32_t)i;
    usmarr_array_t *a = NULL;
    ck_assert_ok(usmarr_array_from_host(ctx, nd, shape, USMARR_INT32, v, NULL, USMARR_USM_DEVICE, &a));
    free(v);
    return a;
}

START_TEST(test_utilities_unstack)
{
    usmarr_context_t *ctx = test_context();
    int64_t shape[3] = {2, 3, 4};
    usmarr_array_t *a = iota(ctx, 3, shape, 0), *v[4] = {NULL};
    size_t n = 0;
    ck_assert_ok(usmarr_unstack(a, -1, v, 4, &n));
    ck_assert_uint_eq(n, 4);
    for (int k = 0; k < 4; k++) { /* v[k] = a[:, :, k] */
        ck_assert_int_eq(usmarr_array_ndim(v[k]), 2);
        ck_assert_ptr_eq(usmarr_array_memory(v[k]), usmarr_array_memory(a));
        int32_t got[6];
        ck_assert_ok(usmarr_array_copy_to_host(v[k], got, NULL));
        for (int i = 0; i < 2; i++)
            for (int j = 0; j < 3; j++)
                ck_assert_int_eq(got[i * 3 + j], i * 12 + j * 4 + k);
        usmarr_array_release(v[k]);
    }
    ck_assert_fails_with(usmarr_unstack(a, 1, v, 2, &n), USMARR_ERROR_INVALID_ARGUMENT, "3 views do not fit capacity=2");
    ck_assert_uint_eq(n, 3);
    ck_assert_fails_with(usmarr_unstack(a, 3, v, 4, &n), USMARR_ERROR_INDEX, "axis=3 is out of range for 3 dims");
    ck_assert_fails_with(usmarr_unstack(NULL, 0, v, 4, &n), USMARR_ERROR_INVALID_ARGUMENT, "x is NULL");
    usmarr_array_t *zero = NULL;
    ck_assert_ok(usmarr_array_zeros(ctx, 0, NULL, USMARR_INT32, USMARR_ORDER_C, USMARR_USM_DEVICE, &zero));
    ck_assert_fails_with(usmarr_unstack(zero, 0, v, 4, &n), USMARR_ERROR_INDEX, "out of range for 0 dims");
    usmarr_array_release(zero);
    int64_t empty_shape[2] = {0, 5};
    usmarr_array_t *e = iota(ctx, 2, empty_shape, 0);
    ck_assert_ok(usmarr_unstack(e, 0, NULL, 0, &n));
    ck_assert_uint_eq(n, 0);
    usmarr_array_release(e);
    usmarr_array_release(a);
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_utilities_meshgrid)
{
    usmarr_context_t *ctx = test_context();
    int64_t n0 = 3, n1 = 4, n2 = 2;
    usmarr_array_t *x = iota(ctx, 1, &n0, 10), *y = iota(ctx, 1, &n1, 20), *z = iota(ctx, 1, &n2, 30), *r[3];
    const usmarr_array_t *in[3] = {x, y, z};
    for (int ij = 0; ij < 2; ij++) {
        ck_assert_ok(usmarr_meshgrid(3, in, ij ? "ij" : "xy", r));
        int64_t s0 = ij ? n0 : n1, s1 = ij ? n1 : n0;
        for (int k = 0; k < 3; k++) {
            ck_assert_int_eq(usmarr_array_ndim(r[k]), 3);
            ck_assert_int_eq(usmarr_array_shape(r[k])[0], s0);
            ck_assert_int_eq(usmarr_array_shape(r[k])[1], s1);
            ck_assert_int_eq(usmarr_array_shape(r[k])[2], n2);
            int32_t got[24];
            ck_assert_ok(usmarr_array_copy_to_host(r[k], got, NULL));
            for (int a = 0; a < s0; a++)
                for (int b = 0; b < s1; b++)
                    for (int c = 0; c < n2; c++) {
                        int i = ij ? a : b, j = ij ? b : a; /* index into x, y */
                        int want = k == 0 ? 10 + i : k == 1 ? 20 + j : 30 + c;
                        ck_assert_int_eq(got[(a * s1 + b) * n2 + c], want);
                    }
            usmarr_array_release(r[k]);
        }
    }
    ck_assert_ok(usmarr_meshgrid(1, in, "xy", r)); /* one input: a copy */
    ck_assert_int_eq(usmarr_array_ndim(r[0]), 1);
    ck_assert_int_eq(usmarr_array_shape(r[0])[0], 3);
    usmarr_array_release(r[0]);
    ck_assert_fails_with(usmarr_meshgrid(2, in, "yx", r), USMARR_ERROR_INVALID_ARGUMENT, "indexing=\"yx\"");
    ck_assert_fails_with(usmarr_meshgrid(0, in, "xy", r), USMARR_ERROR_INVALID_ARGUMENT, "count=0 is outside");
    ck_assert_fails_with(usmarr_meshgrid(2, NULL, "xy", r), USMARR_ERROR_INVALID_ARGUMENT, "arrays is NULL");
    const usmarr_array_t *with_null[2] = {x, NULL};
    ck_assert_fails_with(usmarr_meshgrid(2, with_null, "xy", r), USMARR_ERROR_INVALID_ARGUMENT, "arrays[1] is NULL");
    usmarr_context_t *ctx2 = test_context();
    usmarr_array_t *other = iota(ctx2, 1, &n0, 0);
    const usmarr_array_t *mixed[2] = {x, other};
    ck_assert_fails_with(usmarr_meshgrid(2, mixed, "xy", r), USMARR_ERROR_CONTEXT_MISMATCH, "different contexts");
    usmarr_array_release(other);
    usmarr_context_release(ctx2);
    usmarr_array_release(x);
    usmarr_array_release(y);
    usmarr_array_release(z);
    usmarr_context_release(ctx);
}
END_TEST

Suite *suite_utilities(void)
{
    Suite *s = suite_create("utilities");
    TCase *tc = tcase_create("utilities");
    tcase_add_test(tc, test_utilities_finfo_iinfo);
    tcase_add_test(tc, test_utilities_isdtype);
    tcase_add_test(tc, test_utilities_unstack);
    tcase_add_test(tc, test_utilities_meshgrid);
    suite_add_tcase(s, tc);
    return s;
}
