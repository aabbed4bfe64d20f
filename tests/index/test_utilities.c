/* finfo, iinfo, isdtype, unstack, meshgrid, tril/triu and isclose/allclose.  The limits are
 * NumPy 2's (np.finfo / np.iinfo printed values); the grids and views are checked against
 * host loops; tril/triu and isclose against NumPy (tests/gen/gen_utilities_cases.py): every
 * dtype, k on and beyond the matrix, batch dims, C, reversed (negative strides) and step-2
 * layouts, in place and into strided outs; isclose near its tolerance on both sides, with
 * infinities and NaNs (in either complex part), mixed dtypes, broadcasting, 0-d and
 * zero-size inputs, several work-groups. */
#include "../harness/common.h"

#include "../harness/case_file.h"

#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* ---- tril / triu and isclose / allclose against NumPy (tests/utilities_cases.txt, written
 * by tests/gen/gen_utilities_cases.py) -------------------------------------------------------- */

static const char *cases_path(void)
{
    const char *p = getenv("USMARR_UTILITIES_CASES");
    return p && *p ? p : "tests/utilities_cases.txt";
}

static FILE *open_cases(void)
{
    FILE *f = fopen(cases_path(), "r");
    ck_assert_msg(f != NULL, "cannot open the NumPy oracle %s (make check generates it with $PYTHON_NUMPY "
                             "tests/gen/gen_utilities_cases.py; set USMARR_UTILITIES_CASES to run from elsewhere)",
                  cases_path());
    return f;
}

static char *next_line(FILE *f, char **line, size_t *cap)
{
    ck_assert_msg(getline(line, cap, f) > 0, "truncated case file %s", cases_path());
    return *line;
}

/* Reads "NDIM S0 S1 ..." at *p into shape; returns the element count. */
static int64_t parse_shape(char **p, int *ndim, int64_t *shape)
{
    *ndim = (int)strtol(*p, p, 10);
    int64_t n = 1;
    for (int i = 0; i < *ndim; i++)
        n *= shape[i] = strtoll(*p, p, 10);
    return n;
}

enum layout { LAYOUT_C, LAYOUT_REVERSED, LAYOUT_STEP, LAYOUT_COUNT };
static const char *const layout_names[] = {"C", "reversed", "step-2"};

/* The logical array `host` (C order) in the given layout: reversed = every axis flipped
 * over reversed storage (negative strides); step-2 = every other element of the last axis. */
static usmarr_array_t *make(usmarr_context_t *ctx, usmarr_dtype_t d, int ndim, const int64_t *shape, const void *host,
                            int64_t n, enum layout lay)
{
    size_t isz = usmarr_dtype_size(d);
    usmarr_array_t *a = NULL, *v = NULL;
    if (lay == LAYOUT_C || ndim == 0) {
        ck_assert_ok(usmarr_array_from_host(ctx, ndim, shape, d, host, NULL, USMARR_USM_DEVICE, &a));
        return a;
    }
    unsigned char *buf = malloc((size_t)n * isz * 2 + 1);
    ck_assert_ptr_nonnull(buf);
    if (lay == LAYOUT_REVERSED) {
        for (int64_t i = 0; i < n; i++)
            memcpy(buf + i * isz, (const char *)host + (n - 1 - i) * isz, isz);
        ck_assert_ok(usmarr_array_from_host(ctx, ndim, shape, d, buf, NULL, USMARR_USM_DEVICE, &a));
        int axes[USMARR_MAX_NDIM];
        for (int k = 0; k < ndim; k++)
            axes[k] = k;
        ck_assert_ok(usmarr_array_flip(a, ndim, axes, &v));
    } else {
        int64_t big[8];
        memcpy(big, shape, sizeof(int64_t) * (size_t)ndim);
        big[ndim - 1] *= 2;
        for (int64_t i = 0; i < n; i++) {
            memcpy(buf + 2 * i * isz, (const char *)host + i * isz, isz);
            memset(buf + (2 * i + 1) * isz, 0x5a, isz);
        }
        ck_assert_ok(usmarr_array_from_host(ctx, ndim, big, d, buf, NULL, USMARR_USM_DEVICE, &a));
        ck_assert_ok(usmarr_array_getitem_text(a, "..., ::2", NULL, 0, NULL, &v));
    }
    usmarr_array_release(a);
    free(buf);
    return v;
}

static void check_bytes(usmarr_array_t *r, const unsigned char *want, int64_t n, size_t isz, const char *what)
{
    unsigned char *got = malloc((size_t)n * isz + 1);
    ck_assert_ok(usmarr_array_copy_to_host(r, got, NULL));
    for (int64_t i = 0; i < n; i++)
        ck_assert_msg(!memcmp(got + i * isz, want + i * isz, isz), "%s: element %lld differs from NumPy's", what,
                      (long long)i);
    free(got);
}

START_TEST(test_utilities_tril_triu_match_numpy_for_every_dtype_layout_and_k)
{
    usmarr_context_t *ctx = test_context();
    bool fp64 = usmarr_context_info(ctx)->fp64;
    FILE *f = open_cases();
    char *line = NULL;
    size_t cap = 0;
    int cases = 0;
    while (getline(&line, &cap, f) > 0) {
        if (strncmp(line, "tri ", 4))
            continue;
        char name[96], dname[16];
        int used, ndim;
        int64_t shape[8];
        ck_assert_int_eq(sscanf(line, "tri %95s %15s%n", name, dname, &used), 2);
        char *p = line + used;
        int64_t n = parse_shape(&p, &ndim, shape);
        int64_t k = strtoll(p, &p, 10);
        bool lower = strtol(p, &p, 10) != 0;
        usmarr_dtype_t d = case_dtype_named(dname);
        if (!fp64 && (d == USMARR_FLOAT64 || d == USMARR_COMPLEX128))
            continue;
        size_t isz = usmarr_dtype_size(d);
        unsigned char *in = malloc((size_t)n * isz), *want = malloc((size_t)n * isz);
        ck_assert_int_eq(case_values(next_line(f, &line, &cap), "in", in, isz), n);
        ck_assert_int_eq(case_values(next_line(f, &line, &cap), "exp", want, isz), n);
        int (*fn)(const usmarr_array_t *, int64_t, usmarr_array_t *, usmarr_array_t **) =
            lower ? usmarr_tril : usmarr_triu;
        for (int lay = 0; lay < LAYOUT_COUNT; lay++) {
            char what[200];
            snprintf(what, sizeof what, "%s(%s, k=%lld) (%s layout)", lower ? "tril" : "triu", name, (long long)k,
                     layout_names[lay]);
            usmarr_array_t *x = make(ctx, d, ndim, shape, in, n, (enum layout)lay), *r = NULL;
            ck_assert_ok(fn(x, k, NULL, &r));
            ck_assert_int_eq(usmarr_array_dtype(r), d);
            check_bytes(r, want, n, isz, what);
            usmarr_array_release(r);
            if (lay == LAYOUT_REVERSED) { /* into a strided out: the reversed layout of the result */
                usmarr_array_t *o = make(ctx, d, ndim, shape, in, n, LAYOUT_STEP);
                ck_assert_ok(fn(x, k, o, &r));
                ck_assert_ptr_eq(r, o);
                check_bytes(o, want, n, isz, what);
                usmarr_array_release(r);
                usmarr_array_release(o);
            }
            if (lay == LAYOUT_STEP) { /* in place */
                ck_assert_ok(fn(x, k, x, NULL));
                check_bytes(x, want, n, isz, what);
            }
            usmarr_array_release(x);
        }
        free(in);
        free(want);
        cases++;
    }
    free(line);
    fclose(f);
    ck_assert_int_gt(cases, 300);
    usmarr_context_release(ctx);
}
END_TEST

/* Zero strides, zero-size, k beyond the matrix, an out of another dtype, and the failures. */
START_TEST(test_utilities_tril_triu_edges_and_failures)
{
    usmarr_context_t *ctx = test_context();
    /* a broadcast row (stride 0 along the rows): host loop as the oracle */
    float row[5] = {1, 2, 3, 4, 5};
    int64_t rshape[2] = {1, 5}, bshape[3] = {2, 4, 5};
    usmarr_array_t *a, *b, *r, *o;
    ck_assert_ok(usmarr_array_from_host(ctx, 2, rshape, USMARR_FLOAT32, row, NULL, USMARR_USM_DEVICE, &a));
    ck_assert_ok(usmarr_array_broadcast_to(a, 3, bshape, &b));
    for (int64_t k = -2; k <= 2; k++) {
        for (int lower = 0; lower < 2; lower++) {
            ck_assert_ok((lower ? usmarr_tril : usmarr_triu)(b, k, NULL, &r));
            float got[40];
            ck_assert_ok(usmarr_array_copy_to_host(r, got, NULL));
            for (int i = 0; i < 40; i++) {
                int64_t row_i = i / 5 % 4, col = i % 5;
                bool keep = lower ? col - row_i <= k : col - row_i >= k;
                ck_assert_msg(got[i] == (keep ? row[col] : 0), "k=%lld lower=%d element %d", (long long)k, lower, i);
            }
            usmarr_array_release(r);
        }
    }
    /* k far outside (any int64): everything kept or nothing */
    const int64_t far[2] = {INT64_MIN, INT64_MAX};
    for (int f = 0; f < 2; f++) {
        for (int lower = 0; lower < 2; lower++) {
            ck_assert_ok((lower ? usmarr_tril : usmarr_triu)(b, far[f], NULL, &r));
            float got[40];
            ck_assert_ok(usmarr_array_copy_to_host(r, got, NULL));
            bool keep = lower == (far[f] > 0);
            for (int i = 0; i < 40; i++)
                ck_assert(got[i] == (keep ? row[i % 5] : 0));
            usmarr_array_release(r);
        }
    }
    /* into an out of another dtype (same_kind: float32 -> float64), F-ordered */
    int64_t oshape[3] = {2, 4, 5};
    if (usmarr_context_info(ctx)->fp64) {
        ck_assert_ok(usmarr_array_empty(ctx, 3, oshape, USMARR_FLOAT64, USMARR_ORDER_F, USMARR_USM_DEVICE, &o));
        ck_assert_ok(usmarr_tril(b, 0, o, NULL));
        double got[40];
        ck_assert_ok(usmarr_array_copy_to_host(o, got, NULL));
        for (int i = 0; i < 40; i++)
            ck_assert(got[i] == (i % 5 <= i / 5 % 4 ? row[i % 5] : 0));
        usmarr_array_release(o);
    }
    /* zero-size: a result of the same shape */
    int64_t zshapes[3][3] = {{0, 3, 1}, {3, 0, 1}, {2, 0, 4}};
    for (int z = 0; z < 3; z++) {
        usmarr_array_t *e;
        int nd = z == 2 ? 3 : 2;
        ck_assert_ok(usmarr_array_empty(ctx, nd, zshapes[z], USMARR_INT32, USMARR_ORDER_C, USMARR_USM_DEVICE, &e));
        ck_assert_ok(usmarr_triu(e, 1, NULL, &r));
        ck_assert_int_eq(usmarr_array_ndim(r), nd);
        ck_assert_int_eq(usmarr_array_size(r), 0);
        usmarr_array_release(r);
        usmarr_array_release(e);
    }
    /* failures: NULL, fewer than 2 dims, bad out; nothing leaked, inputs unchanged */
    usmarr_array_t *v1, *s0, *ro, *bad, *cast;
    ck_assert_ok(usmarr_array_from_host(ctx, 1, &rshape[1], USMARR_FLOAT32, row, NULL, USMARR_USM_DEVICE, &v1));
    ck_assert_ok(usmarr_array_from_host(ctx, 0, NULL, USMARR_FLOAT32, row, NULL, USMARR_USM_DEVICE, &s0));
    r = NULL;
    int refs = usmarr_array_refcount(a);
    ck_assert_fails_with(usmarr_tril(NULL, 0, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT, "tril: x is NULL");
    ck_assert_fails_with(usmarr_triu(a, 0, NULL, NULL), USMARR_ERROR_INVALID_ARGUMENT, "result is NULL");
    ck_assert_fails_with(usmarr_tril(v1, 0, NULL, &r), USMARR_ERROR_SHAPE_MISMATCH, "x has 1 dims, at least 2");
    ck_assert_fails_with(usmarr_triu(s0, 0, NULL, &r), USMARR_ERROR_SHAPE_MISMATCH, "triu: x has 0 dims");
    ck_assert_ok(usmarr_array_empty(ctx, 2, rshape, USMARR_FLOAT32, USMARR_ORDER_C, USMARR_USM_DEVICE, &ro));
    ck_assert_ok(usmarr_array_make_read_only(ro));
    ck_assert_fails_with(usmarr_tril(a, 0, ro, NULL), USMARR_ERROR_READ_ONLY, "out");
    ck_assert_fails_with(usmarr_tril(b, 0, a, NULL), USMARR_ERROR_SHAPE_MISMATCH, "out has shape (1, 5)");
    ck_assert_ok(usmarr_array_empty(ctx, 2, rshape, USMARR_INT32, USMARR_ORDER_C, USMARR_USM_DEVICE, &cast));
    ck_assert_fails_with(usmarr_triu(a, 0, cast, NULL), USMARR_ERROR_CASTING, "out has dtype int32");
    usmarr_context_t *ctx2 = test_context();
    ck_assert_ok(usmarr_array_empty(ctx2, 2, rshape, USMARR_FLOAT32, USMARR_ORDER_C, USMARR_USM_DEVICE, &bad));
    ck_assert_fails_with(usmarr_tril(a, 0, bad, NULL), USMARR_ERROR_CONTEXT_MISMATCH, "different contexts");
    ck_assert_ptr_null(r);
    ck_assert_int_eq(usmarr_array_refcount(a), refs);
    ck_assert_int_eq(usmarr_array_refcount(v1), 1);
    float back[5];
    ck_assert_ok(usmarr_array_copy_to_host(a, back, NULL));
    ck_assert(!memcmp(back, row, sizeof row));
    usmarr_array_release(bad);
    usmarr_context_release(ctx2);
    usmarr_array_release(cast);
    usmarr_array_release(ro);
    usmarr_array_release(s0);
    usmarr_array_release(v1);
    usmarr_array_release(b);
    usmarr_array_release(a);
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_utilities_isclose_allclose_match_numpy)
{
    usmarr_context_t *ctx = test_context();
    bool fp64 = usmarr_context_info(ctx)->fp64;
    FILE *f = open_cases();
    char *line = NULL;
    size_t cap = 0;
    int cases = 0;
    while (getline(&line, &cap, f) > 0) {
        if (strncmp(line, "close ", 6))
            continue;
        char name[96], aname[16], bname[16];
        int used, na, nb;
        int64_t ashape[8], bshape[8];
        ck_assert_int_eq(sscanf(line, "close %95s %15s%n", name, aname, &used), 2);
        char *p = line + used;
        int64_t an = parse_shape(&p, &na, ashape);
        ck_assert_int_eq(sscanf(p, " %15s%n", bname, &used), 1);
        p += used;
        int64_t bn = parse_shape(&p, &nb, bshape);
        double rtol = strtod(p, &p), atol = strtod(p, &p);
        bool equal_nan = strtol(p, &p, 10) != 0;
        usmarr_dtype_t da = case_dtype_named(aname), db = case_dtype_named(bname);
        /* every case with a float64 computation needs fp64 (bool and integers compute in it) */
        usmarr_dtype_t loop = USMARR_FLOAT64;
        if (usmarr_result_type((usmarr_dtype_t[]){da, usmarr_dtype_kind(db) == USMARR_KIND_FLOAT ||
                                                          usmarr_dtype_kind(db) == USMARR_KIND_COMPLEX
                                                      ? db
                                                      : USMARR_FLOAT64},
                               2, NULL, 0, &loop) ||
            (!fp64 && (loop == USMARR_FLOAT64 || loop == USMARR_COMPLEX128)))
            continue;
        size_t asz = usmarr_dtype_size(da), bsz = usmarr_dtype_size(db);
        unsigned char *ah = malloc((size_t)an * asz + 1), *bh = malloc((size_t)bn * bsz + 1);
        int64_t rn = 1; /* the broadcast size */
        for (int i = 1; i <= (na > nb ? na : nb); i++) {
            int64_t ea = i <= na ? ashape[na - i] : 1, eb = i <= nb ? bshape[nb - i] : 1;
            rn *= ea == 1 ? eb : ea;
        }
        int64_t *want = malloc((size_t)rn * 8 + 8), all;
        ck_assert_int_eq(case_values(next_line(f, &line, &cap), "a", ah, asz), an);
        ck_assert_int_eq(case_values(next_line(f, &line, &cap), "b", bh, bsz), bn);
        ck_assert_int_eq(case_values(next_line(f, &line, &cap), "exp", want, 0), rn);
        ck_assert_int_eq(case_values(next_line(f, &line, &cap), "all", &all, 0), 1);
        for (int lay = 0; lay < LAYOUT_COUNT; lay++) {
            char what[200];
            snprintf(what, sizeof what, "isclose %s (%s layout)", name, layout_names[lay]);
            usmarr_array_t *a = make(ctx, da, na, ashape, ah, an, (enum layout)lay);
            usmarr_array_t *b = make(ctx, db, nb, bshape, bh, bn, (enum layout)((lay + 1) % LAYOUT_COUNT)), *r;
            ck_assert_ok(usmarr_isclose(a, b, rtol, atol, equal_nan, NULL, &r));
            ck_assert_int_eq(usmarr_array_dtype(r), USMARR_BOOL);
            ck_assert_int_eq(usmarr_array_size(r), rn);
            unsigned char *got = malloc((size_t)rn + 1);
            ck_assert_ok(usmarr_array_copy_to_host(r, got, NULL));
            for (int64_t i = 0; i < rn; i++)
                ck_assert_msg(got[i] == want[i], "%s: element %lld is %d, NumPy says %lld", what, (long long)i,
                              got[i], (long long)want[i]);
            free(got);
            usmarr_array_release(r);
            bool every = !all;
            ck_assert_ok(usmarr_allclose(a, b, rtol, atol, equal_nan, &every));
            ck_assert_msg(every == (all != 0), "allclose %s: %d, NumPy says %lld", what, every, (long long)all);
            usmarr_array_release(a);
            usmarr_array_release(b);
        }
        free(ah);
        free(bh);
        free(want);
        cases++;
    }
    free(line);
    fclose(f);
    ck_assert_int_gt(cases, 100);
    usmarr_context_release(ctx);
}
END_TEST

/* NumPy's defaults through the generic entry point, an out of another layout, and the failures. */
START_TEST(test_utilities_isclose_out_defaults_and_failures)
{
    usmarr_context_t *ctx = test_context();
    float ah[6] = {1, 2, 3, 4, 5, 6}, bh[6] = {1.000009f, 2.1f, 3, 4.00003f, 5, 7};
    unsigned char want[6] = {1, 0, 1, 1, 1, 0}; /* rtol 1e-5, atol 1e-8 */
    int64_t shape[2] = {2, 3}, tshape[2] = {3, 2};
    usmarr_array_t *a, *b, *r = NULL, *o, *ot;
    ck_assert_ok(usmarr_array_from_host(ctx, 2, shape, USMARR_FLOAT32, ah, NULL, USMARR_USM_DEVICE, &a));
    ck_assert_ok(usmarr_array_from_host(ctx, 2, shape, USMARR_FLOAT32, bh, NULL, USMARR_USM_DEVICE, &b));
    usmarr_operand_t ops2[2] = {{.array = a}, {.array = b}};
    ck_assert_int_eq(usmarr_elementwise_arity("isclose"), 2);
    ck_assert_ok(usmarr_elementwise("isclose", ops2, 2, NULL, &r));
    unsigned char got[6];
    ck_assert_ok(usmarr_array_copy_to_host(r, got, NULL));
    ck_assert(!memcmp(got, want, 6));
    usmarr_array_release(r);
    /* into a transposed bool out */
    ck_assert_ok(usmarr_array_empty(ctx, 2, tshape, USMARR_BOOL, USMARR_ORDER_C, USMARR_USM_DEVICE, &o));
    ck_assert_ok(usmarr_array_transpose(o, &ot));
    ck_assert_ok(usmarr_isclose(a, b, 0.05, 0, false, ot, NULL));
    ck_assert_ok(usmarr_array_copy_to_host(ot, got, NULL));
    for (int i = 0; i < 6; i++)
        ck_assert_int_eq(got[i], i != 5);
    /* a weak scalar operand (generic entry point): an integer b counts as a float */
    usmarr_operand_t with_scalar[2] = {{.array = a}, {.scalar = usmarr_scalar_int(3)}};
    ck_assert_ok(usmarr_elementwise("isclose", with_scalar, 2, NULL, &r));
    ck_assert_int_eq(usmarr_array_dtype(r), USMARR_BOOL);
    ck_assert_ok(usmarr_array_copy_to_host(r, got, NULL));
    for (int i = 0; i < 6; i++)
        ck_assert_int_eq(got[i], i == 2);
    usmarr_array_release(r);
    /* failures; nothing leaked, inputs unchanged */
    r = NULL;
    bool all = true;
    usmarr_array_t *ro, *other, *wrong;
    ck_assert_fails_with(usmarr_isclose(NULL, b, 1e-5, 1e-8, false, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT,
                         "isclose: a is NULL");
    ck_assert_fails_with(usmarr_isclose(a, NULL, 1e-5, 1e-8, false, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT,
                         "isclose: b is NULL");
    ck_assert_fails_with(usmarr_isclose(a, b, 1e-5, 1e-8, false, NULL, NULL), USMARR_ERROR_INVALID_ARGUMENT,
                         "result is NULL");
    ck_assert_fails_with(usmarr_isclose(a, b, 1e-5, 1e-8, false, o, NULL), USMARR_ERROR_SHAPE_MISMATCH,
                         "out of 2 dims does not have the result shape (2,3)");
    ck_assert_ok(usmarr_array_empty(ctx, 2, shape, USMARR_BOOL, USMARR_ORDER_C, USMARR_USM_DEVICE, &ro));
    ck_assert_ok(usmarr_array_make_read_only(ro));
    ck_assert_fails_with(usmarr_isclose(a, b, 1e-5, 1e-8, false, ro, NULL), USMARR_ERROR_READ_ONLY, "out");
    ck_assert_ok(usmarr_array_empty(ctx, 1, &tshape[1], USMARR_FLOAT32, USMARR_ORDER_C, USMARR_USM_DEVICE, &wrong));
    ck_assert_fails_with(usmarr_isclose(a, wrong, 1e-5, 1e-8, false, NULL, &r), USMARR_ERROR_SHAPE_MISMATCH,
                         "isclose: operands[1] has shape[0]=2 where the other operands have 3");
    ck_assert_fails_with(usmarr_allclose(a, wrong, 1e-5, 1e-8, false, &all), USMARR_ERROR_SHAPE_MISMATCH, "isclose");
    ck_assert_fails_with(usmarr_allclose(a, b, 1e-5, 1e-8, false, NULL), USMARR_ERROR_INVALID_ARGUMENT,
                         "allclose: result is NULL");
    ck_assert_fails_with(usmarr_allclose(NULL, b, 1e-5, 1e-8, false, &all), USMARR_ERROR_INVALID_ARGUMENT, "a is NULL");
    usmarr_context_t *ctx2 = test_context();
    ck_assert_ok(usmarr_array_empty(ctx2, 2, shape, USMARR_FLOAT32, USMARR_ORDER_C, USMARR_USM_DEVICE, &other));
    ck_assert_fails_with(usmarr_isclose(a, other, 1e-5, 1e-8, false, NULL, &r), USMARR_ERROR_CONTEXT_MISMATCH,
                         "another context");
    ck_assert_ptr_null(r);
    ck_assert(all);
    ck_assert_int_eq(usmarr_array_refcount(a), 1);
    ck_assert_int_eq(usmarr_array_refcount(b), 1);
    float back[6];
    ck_assert_ok(usmarr_array_copy_to_host(b, back, NULL));
    ck_assert(!memcmp(back, bh, sizeof bh));
    usmarr_array_release(other);
    usmarr_context_release(ctx2);
    usmarr_array_release(wrong);
    usmarr_array_release(ro);
    usmarr_array_release(ot);
    usmarr_array_release(o);
    usmarr_array_release(b);
    usmarr_array_release(a);
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
    tcase_add_test(tc, test_utilities_tril_triu_edges_and_failures);
    tcase_add_test(tc, test_utilities_isclose_allclose_match_numpy);
    tcase_add_test(tc, test_utilities_isclose_out_defaults_and_failures);
    suite_add_tcase(s, tc);
    tc = tcase_create("tril_triu_table");
    tcase_set_tags(tc, TEST_TAG_VARIANTS);
    tcase_add_test(tc, test_utilities_tril_triu_match_numpy_for_every_dtype_layout_and_k);
    suite_add_tcase(s, tc);
    return s;
}
