/* sort, argsort, searchsorted, top_k, the unique functions and isin against NumPy (tests/sort_cases.txt, written by
 * tests/gen/gen_sort_cases.py): every dtype, lengths around work-group, chunk and power-of-two
 * boundaries, duplicates, NaNs, signed zeros, sorted and reversed inputs, every axis of
 * 2-d and 3-d shapes; C, reversed (negative strides) and step-2 layouts, in place; zero
 * strides, zero-size and 0-d inputs; and the failure paths. */
#include "../harness/common.h"

#include "../harness/case_file.h"

#include <math.h>
#include <stdlib.h>

static const char *cases_path(void)
{
    const char *p = getenv("USMARR_SORT_CASES");
    return p && *p ? p : "tests/sort_cases.txt";
}

/* Equal as NumPy values: NaN == NaN, -0.0 == 0.0 (sort rebuilds elements from keys). */
static bool same_value(usmarr_dtype_t d, const unsigned char *a, const unsigned char *b)
{
    size_t size = usmarr_dtype_size(d);
    usmarr_kind_t kind = usmarr_dtype_kind(d);
    if (kind != USMARR_KIND_FLOAT && kind != USMARR_KIND_COMPLEX)
        return !memcmp(a, b, size);
    size_t part = kind == USMARR_KIND_COMPLEX ? size / 2 : size;
    for (size_t off = 0; off < size; off += part) {
        uint64_t x = 0, y = 0;
        memcpy(&x, a + off, part);
        memcpy(&y, b + off, part);
        unsigned bits = (unsigned)part * 8;
        uint64_t sign = (uint64_t)1 << (bits - 1), mag = sign - 1;
        uint64_t expmask = bits == 16 ? 0x7c00u : bits == 32 ? 0x7f800000u : 0x7ff0000000000000u;
        bool nx = (x & mag) > expmask, ny = (y & mag) > expmask;
        if (nx || ny) {
            if (nx != ny)
                return false;
            continue;
        }
        if ((x & mag) == 0 && (y & mag) == 0)
            continue;
        if (x != y)
            return false;
    }
    return true;
}

enum layout { LAYOUT_C, LAYOUT_REVERSED, LAYOUT_STEP, LAYOUT_COUNT };
static const char *const layout_names[] = {"C", "reversed", "step-2"};

/* The logical array `host` (C order) in the given layout. */
static usmarr_array_t *make(usmarr_context_t *ctx, usmarr_dtype_t d, int ndim, const int64_t *shape, const void *host,
                            int64_t n, enum layout lay)
{
    size_t isz = usmarr_dtype_size(d);
    usmarr_array_t *a = NULL, *v = NULL;
    if (lay == LAYOUT_C) {
        ck_assert_ok(usmarr_array_from_host(ctx, ndim, shape, d, host, NULL, USMARR_USM_DEVICE, &a));
        return a;
    }
    unsigned char *buf = malloc((size_t)n * isz * 2 + 1);
    ck_assert_ptr_nonnull(buf);
    if (lay == LAYOUT_REVERSED) {
        for (int64_t i = 0; i < n; i++)
            memcpy(buf + i * isz, (const char *)host + (n - 1 - i) * isz, isz);
        ck_assert_ok(usmarr_array_from_host(ctx, ndim, shape, d, buf, NULL, USMARR_USM_DEVICE, &a));
        int axes[3] = {0, 1, 2};
        ck_assert_ok(usmarr_array_flip(a, ndim, axes, &v));
    } else {
        int64_t big[3];
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

static void check_values(usmarr_array_t *r, usmarr_dtype_t d, const unsigned char *want, int64_t n, const char *what)
{
    size_t isz = usmarr_dtype_size(d);
    unsigned char *got = malloc((size_t)n * isz + 1);
    ck_assert_ok(usmarr_array_copy_to_host(r, got, NULL));
    for (int64_t i = 0; i < n; i++)
        ck_assert_msg(same_value(d, got + i * isz, want + i * isz), "%s: element %lld differs", what, (long long)i);
    free(got);
}

static void check_indices(usmarr_array_t *r, const int64_t *want, int64_t n, const char *what)
{
    int64_t *got = malloc((size_t)n * 8 + 8);
    ck_assert_int_eq(usmarr_array_dtype(r), USMARR_INT64);
    ck_assert_ok(usmarr_array_copy_to_host(r, got, NULL));
    for (int64_t i = 0; i < n; i++)
        ck_assert_msg(got[i] == want[i], "%s: index %lld is %lld, NumPy says %lld", what, (long long)i,
                      (long long)got[i], (long long)want[i]);
    free(got);
}

static char *next_line(FILE *f, char **line, size_t *cap)
{
    ck_assert_msg(getline(line, cap, f) > 0, "truncated case file %s", cases_path());
    return *line;
}

START_TEST(test_sort_and_argsort_match_numpy_for_every_dtype_length_axis_and_layout)
{
    usmarr_context_t *ctx = test_context();
    FILE *f = fopen(cases_path(), "r");
    ck_assert_msg(f != NULL, "cannot open the NumPy oracle %s (make check generates it with $PYTHON_NUMPY "
                             "tests/gen/gen_sort_cases.py; set USMARR_SORT_CASES to run from elsewhere)", cases_path());
    char *line = NULL;
    size_t cap = 0;
    int cases = 0;
    while (getline(&line, &cap, f) > 0) {
        if (strncmp(line, "sort ", 5))
            continue;
        char name[96], dname[16];
        int ndim, axis, desc, used;
        int64_t shape[3] = {1, 1, 1};
        ck_assert_int_eq(sscanf(line, "sort %95s %15s %d%n", name, dname, &ndim, &used), 3);
        char *p = line + used;
        for (int i = 0; i < ndim; i++)
            shape[i] = strtoll(p, &p, 10);
        axis = (int)strtol(p, &p, 10);
        desc = (int)strtol(p, &p, 10);
        usmarr_dtype_t d = case_dtype_named(dname);
        if (test_dtype_skipped(ctx, d))
            continue;
        int64_t n = shape[0] * shape[1] * shape[2];
        size_t isz = usmarr_dtype_size(d);
        unsigned char *in = malloc((size_t)n * isz), *val = malloc((size_t)n * isz);
        int64_t *arg = malloc((size_t)n * 8);
        ck_assert_int_eq(case_values(next_line(f, &line, &cap), "in", in, isz), n);
        ck_assert_int_eq(case_values(next_line(f, &line, &cap), "val", val, isz), n);
        ck_assert_int_eq(case_values(next_line(f, &line, &cap), "arg", arg, 0), n);
        for (int lay = 0; lay < LAYOUT_COUNT; lay++) {
            char what[160];
            snprintf(what, sizeof what, "%s (%s layout, axis %d, %s)", name, layout_names[lay], axis,
                     desc ? "descending" : "ascending");
            usmarr_array_t *x = make(ctx, d, ndim, shape, in, n, (enum layout)lay), *r = NULL;
            ck_assert_ok(usmarr_argsort(x, axis, desc, NULL, &r));
            check_indices(r, arg, n, what);
            usmarr_array_release(r);
            if (lay == LAYOUT_C) { /* in place */
                ck_assert_ok(usmarr_sort(x, axis, desc, x, NULL));
                check_values(x, d, val, n, what);
            } else {
                ck_assert_ok(usmarr_sort(x, axis, desc, NULL, &r));
                check_values(r, d, val, n, what);
                usmarr_array_release(r);
            }
            usmarr_array_release(x);
        }
        free(in);
        free(val);
        free(arg);
        cases++;
    }
    free(line);
    fclose(f);
    ck_assert_int_gt(cases, test_case_floor(300));
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_searchsorted_matches_numpy_with_and_without_sorter)
{
    usmarr_context_t *ctx = test_context();
    FILE *f = fopen(cases_path(), "r");
    ck_assert_msg(f != NULL, "cannot open %s", cases_path());
    char *line = NULL;
    size_t cap = 0;
    int cases = 0;
    while (getline(&line, &cap, f) > 0) {
        if (strncmp(line, "search ", 7))
            continue;
        char name[96], dname[16];
        int side, use_sorter;
        long long n, m;
        ck_assert_int_eq(sscanf(line, "search %95s %15s %lld %lld %d %d", name, dname, &n, &m, &side, &use_sorter), 6);
        usmarr_dtype_t d = case_dtype_named(dname);
        if (test_dtype_skipped(ctx, d))
            continue;
        size_t isz = usmarr_dtype_size(d);
        unsigned char *a = malloc((size_t)n * isz), *v = malloc((size_t)m * isz);
        int64_t *sorter = malloc((size_t)n * 8), *exp = malloc((size_t)m * 8);
        ck_assert_int_eq(case_values(next_line(f, &line, &cap), "a", a, isz), n);
        ck_assert_int_eq(case_values(next_line(f, &line, &cap), "v", v, isz), m);
        if (use_sorter)
            ck_assert_int_eq(case_values(next_line(f, &line, &cap), "sorter", sorter, 0), n);
        ck_assert_int_eq(case_values(next_line(f, &line, &cap), "exp", exp, 0), m);
        int64_t an = n, vm = m;
        for (int lay = 0; lay < LAYOUT_COUNT; lay++) {
            usmarr_array_t *aa = make(ctx, d, 1, &an, a, n, (enum layout)lay);
            usmarr_array_t *vv = make(ctx, d, 1, &vm, v, m, (enum layout)((lay + 1) % LAYOUT_COUNT));
            usmarr_array_t *ss = use_sorter ? make(ctx, USMARR_INT64, 1, &an, sorter, n, (enum layout)lay) : NULL;
            usmarr_array_t *r = NULL;
            ck_assert_ok(usmarr_searchsorted(aa, vv, side ? USMARR_SIDE_RIGHT : USMARR_SIDE_LEFT, ss, NULL, &r));
            char what[160];
            snprintf(what, sizeof what, "searchsorted %s (%s layout)", name, layout_names[lay]);
            check_indices(r, exp, m, what);
            usmarr_array_release(r);
            usmarr_array_release(aa);
            usmarr_array_release(vv);
            usmarr_array_release(ss);
        }
        free(a);
        free(v);
        free(sorter);
        free(exp);
        cases++;
    }
    free(line);
    fclose(f);
    ck_assert_int_gt(cases, 100);
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_sort_zero_strides_zero_size_and_mixed_types)
{
    usmarr_context_t *ctx = test_context();
    /* zero strides: a broadcast row sorts to itself, argsort keeps the order (stable) */
    float row[5] = {3, 1, 2, 1, 0};
    int64_t rshape[2] = {1, 5}, bshape[2] = {4, 5};
    usmarr_array_t *a, *b, *r;
    ck_assert_ok(usmarr_array_from_host(ctx, 2, rshape, USMARR_FLOAT32, row, NULL, USMARR_USM_DEVICE, &a));
    ck_assert_ok(usmarr_array_broadcast_to(a, 2, bshape, &b));
    ck_assert_ok(usmarr_argsort(b, 0, false, NULL, &r));
    int64_t idx[20];
    ck_assert_ok(usmarr_array_copy_to_host(r, idx, NULL));
    for (int i = 0; i < 20; i++)
        ck_assert_int_eq(idx[i], i / 5);
    usmarr_array_release(r);
    ck_assert_ok(usmarr_sort(b, 1, true, NULL, &r));
    float got[20], want[5] = {3, 2, 1, 1, 0};
    ck_assert_ok(usmarr_array_copy_to_host(r, got, NULL));
    for (int i = 0; i < 20; i++)
        ck_assert(got[i] == want[i % 5]);
    usmarr_array_release(r);
    usmarr_array_release(b);
    usmarr_array_release(a);

    /* zero-size along and across the axis */
    int64_t zshape[2] = {3, 0};
    ck_assert_ok(usmarr_array_empty(ctx, 2, zshape, USMARR_INT32, USMARR_ORDER_C, USMARR_USM_DEVICE, &a));
    for (int axis = 0; axis < 2; axis++) {
        ck_assert_ok(usmarr_sort(a, axis, false, NULL, &r));
        ck_assert_int_eq(usmarr_array_ndim(r), 2);
        ck_assert_int_eq(usmarr_array_shape(r)[0], 3);
        ck_assert_int_eq(usmarr_array_size(r), 0);
        usmarr_array_release(r);
        ck_assert_ok(usmarr_argsort(a, axis, true, NULL, &r));
        ck_assert_int_eq(usmarr_array_dtype(r), USMARR_INT64);
        usmarr_array_release(r);
    }
    /* searchsorted into an empty array: every key goes to 0; empty keys: empty result */
    int64_t one = 4, zero = 0;
    int32_t keys[4] = {5, -1, 0, 7};
    ck_assert_ok(usmarr_array_empty(ctx, 1, &zero, USMARR_INT32, USMARR_ORDER_C, USMARR_USM_DEVICE, &b));
    ck_assert_ok(usmarr_array_from_host(ctx, 1, &one, USMARR_INT32, keys, NULL, USMARR_USM_DEVICE, &r));
    usmarr_array_t *pos;
    ck_assert_ok(usmarr_searchsorted(b, r, USMARR_SIDE_RIGHT, NULL, NULL, &pos));
    ck_assert_ok(usmarr_array_copy_to_host(pos, idx, NULL));
    for (int i = 0; i < 4; i++)
        ck_assert_int_eq(idx[i], 0);
    usmarr_array_release(pos);
    ck_assert_ok(usmarr_searchsorted(r, b, USMARR_SIDE_LEFT, NULL, NULL, &pos));
    ck_assert_int_eq(usmarr_array_size(pos), 0);
    usmarr_array_release(pos);
    /* mixed dtypes promote: int32 sorted array, float64 keys */
    int32_t sorted[4] = {-1, 0, 5, 7};
    double fk[3] = {0.5, -2, 7};
    int64_t three = 3, wantpos[3] = {2, 0, 4};
    usmarr_array_t *s, *k;
    ck_assert_ok(usmarr_array_from_host(ctx, 1, &one, USMARR_INT32, sorted, NULL, USMARR_USM_DEVICE, &s));
    ck_assert_ok(usmarr_array_from_host(ctx, 1, &three, USMARR_FLOAT64, fk, NULL, USMARR_USM_DEVICE, &k));
    if (!test_dtype_skipped(ctx, USMARR_FLOAT64)) {
        ck_assert_ok(usmarr_searchsorted(s, k, USMARR_SIDE_RIGHT, NULL, NULL, &pos));
        check_indices(pos, wantpos, 3, "int32 array, float64 keys");
        usmarr_array_release(pos);
    }
    usmarr_array_release(s);
    usmarr_array_release(k);
    usmarr_array_release(r);
    usmarr_array_release(b);
    usmarr_array_release(a);
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_sort_functions_reject_bad_arguments)
{
    usmarr_context_t *ctx = test_context();
    float host[6] = {3, 1, 2, 5, 4, 0};
    int64_t shape[2] = {2, 3}, other[2] = {3, 2}, six = 6;
    usmarr_array_t *x, *r = NULL, *o, *z, *c, *ro;
    ck_assert_ok(usmarr_array_from_host(ctx, 2, shape, USMARR_FLOAT32, host, NULL, USMARR_USM_DEVICE, &x));
    ck_assert_ok(usmarr_array_from_host(ctx, 0, NULL, USMARR_FLOAT32, host, NULL, USMARR_USM_DEVICE, &z));
    /* sort / argsort */
    ck_assert_fails_with(usmarr_sort(NULL, 0, false, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT, "x is NULL");
    ck_assert_fails_with(usmarr_sort(x, 0, false, NULL, NULL), USMARR_ERROR_INVALID_ARGUMENT, "result is NULL");
    ck_assert_fails_with(usmarr_sort(x, 2, false, NULL, &r), USMARR_ERROR_INDEX, "axis=2 is out of range for 2 dims");
    ck_assert_fails_with(usmarr_argsort(x, -3, false, NULL, &r), USMARR_ERROR_INDEX, "axis=-3");
    ck_assert_fails_with(usmarr_sort(z, 0, false, NULL, &r), USMARR_ERROR_INDEX, "for 0 dims");
    ck_assert_ok(usmarr_array_empty(ctx, 2, other, USMARR_FLOAT32, USMARR_ORDER_C, USMARR_USM_DEVICE, &o));
    ck_assert_fails_with(usmarr_sort(x, 1, false, o, NULL), USMARR_ERROR_SHAPE_MISMATCH, "out has");
    usmarr_array_release(o);
    ck_assert_ok(usmarr_array_empty(ctx, 2, shape, USMARR_FLOAT64, USMARR_ORDER_C, USMARR_USM_DEVICE, &o));
    ck_assert_fails_with(usmarr_sort(x, 1, false, o, NULL), USMARR_ERROR_BAD_DTYPE, "out has dtype float64");
    ck_assert_fails_with(usmarr_argsort(x, 1, false, o, NULL), USMARR_ERROR_BAD_DTYPE, "the result is int64");
    usmarr_array_release(o);
    ck_assert_ok(usmarr_array_empty(ctx, 2, shape, USMARR_FLOAT32, USMARR_ORDER_C, USMARR_USM_DEVICE, &ro));
    ck_assert_ok(usmarr_array_make_read_only(ro));
    ck_assert_fails_with(usmarr_sort(x, 1, false, ro, NULL), USMARR_ERROR_READ_ONLY, "out");
    /* a row longer than the radix passes count (2^32 - 1 keys): refused before anything is
     * allocated (a broadcast view of one element costs nothing) */
    usmarr_array_t *huge, *u = NULL;
    int64_t big = (int64_t)1 << 32;
    ck_assert_ok(usmarr_array_broadcast_to(z, 1, &big, &huge));
    ck_assert_fails_with(usmarr_sort(huge, 0, false, NULL, &r), USMARR_ERROR_UNSUPPORTED,
                         "sort: x has 4294967296 elements along axis 0, more than the 4294967295");
    ck_assert_fails_with(usmarr_argsort(huge, -1, true, NULL, &r), USMARR_ERROR_UNSUPPORTED, "argsort: x has");
    ck_assert_fails_with(usmarr_unique_values(huge, &u), USMARR_ERROR_UNSUPPORTED,
                         "unique_values: x has 4294967296 elements, more than the 4294967295 a sort may hold");
    ck_assert_ptr_null(u);
    usmarr_array_release(huge);
    usmarr_array_t *a1, *sorter;
    ck_assert_ok(usmarr_array_from_host(ctx, 1, &six, USMARR_FLOAT32, host, NULL, USMARR_USM_DEVICE, &a1));
    if (!test_dtype_skipped(ctx, USMARR_COMPLEX128)) { /* complex128 checks out as the others */
        ck_assert_ok(usmarr_array_empty(ctx, 2, shape, USMARR_COMPLEX128, USMARR_ORDER_C, USMARR_USM_DEVICE, &c));
        ck_assert_fails_with(usmarr_sort(c, 1, false, x, NULL), USMARR_ERROR_BAD_DTYPE,
                             "out has dtype float32, the result is complex128");
        ck_assert_fails_with(usmarr_sort(c, 2, false, NULL, &r), USMARR_ERROR_INDEX, "axis=2");
        ck_assert_fails_with(usmarr_searchsorted(c, a1, USMARR_SIDE_LEFT, NULL, NULL, &r), USMARR_ERROR_SHAPE_MISMATCH,
                             "a has 2 dims");
        usmarr_array_release(c);
    }
    ck_assert_ptr_null(r);
    /* searchsorted */
    ck_assert_fails_with(usmarr_searchsorted(NULL, a1, USMARR_SIDE_LEFT, NULL, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT,
                         "a is NULL");
    ck_assert_fails_with(usmarr_searchsorted(a1, NULL, USMARR_SIDE_LEFT, NULL, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT,
                         "v is NULL");
    ck_assert_fails_with(usmarr_searchsorted(a1, x, (usmarr_side_t)2, NULL, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT,
                         "side=2");
    ck_assert_fails_with(usmarr_searchsorted(x, a1, USMARR_SIDE_LEFT, NULL, NULL, &r), USMARR_ERROR_SHAPE_MISMATCH,
                         "a has 2 dims");
    ck_assert_fails_with(usmarr_searchsorted(a1, x, USMARR_SIDE_LEFT, a1, NULL, &r), USMARR_ERROR_BAD_DTYPE,
                         "sorter has dtype float32");
    ck_assert_ok(usmarr_array_empty(ctx, 2, shape, USMARR_INT64, USMARR_ORDER_C, USMARR_USM_DEVICE, &sorter));
    ck_assert_fails_with(usmarr_searchsorted(a1, x, USMARR_SIDE_LEFT, sorter, NULL, &r), USMARR_ERROR_SHAPE_MISMATCH,
                         "sorter must have a's shape (6)");
    ck_assert_fails_with(usmarr_searchsorted(a1, a1, USMARR_SIDE_LEFT, NULL, sorter, NULL), USMARR_ERROR_SHAPE_MISMATCH,
                         "out has");
    ck_assert_fails_with(usmarr_searchsorted(a1, x, USMARR_SIDE_LEFT, NULL, ro, NULL), USMARR_ERROR_READ_ONLY, "out");
    ck_assert_fails_with(usmarr_searchsorted(a1, x, USMARR_SIDE_LEFT, NULL, NULL, NULL), USMARR_ERROR_INVALID_ARGUMENT,
                         "result is NULL");
    ck_assert_ptr_null(r);
    /* nothing leaked, inputs unchanged */
    ck_assert_int_eq(usmarr_array_refcount(x), 1);
    ck_assert_int_eq(usmarr_array_refcount(sorter), 1);
    float back[6];
    ck_assert_ok(usmarr_array_copy_to_host(x, back, NULL));
    ck_assert(!memcmp(back, host, sizeof host));
    usmarr_array_release(sorter);
    usmarr_array_release(a1);
    usmarr_array_release(ro);
    usmarr_array_release(z);
    usmarr_array_release(x);
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_unique_functions_match_numpy_with_nans_distinct)
{
    usmarr_context_t *ctx = test_context();
    FILE *f = fopen(cases_path(), "r");
    ck_assert_msg(f != NULL, "cannot open %s", cases_path());
    char *line = NULL;
    size_t cap = 0;
    int cases = 0;
    while (getline(&line, &cap, f) > 0) {
        if (strncmp(line, "unique ", 7))
            continue;
        char name[96], dname[16];
        int ndim, used;
        int64_t shape[3] = {1, 1, 1};
        ck_assert_int_eq(sscanf(line, "unique %95s %15s %d%n", name, dname, &ndim, &used), 3);
        char *p = line + used;
        for (int i = 0; i < ndim; i++)
            shape[i] = strtoll(p, &p, 10);
        usmarr_dtype_t d = case_dtype_named(dname);
        if (test_dtype_skipped(ctx, d))
            continue;
        int64_t n = shape[0] * shape[1] * shape[2];
        size_t isz = usmarr_dtype_size(d);
        unsigned char *in = malloc((size_t)n * isz), *vals = malloc((size_t)n * isz);
        int64_t *idx = malloc((size_t)n * 8), *inv = malloc((size_t)n * 8), *cnt = malloc((size_t)n * 8);
        ck_assert_int_eq(case_values(next_line(f, &line, &cap), "in", in, isz), n);
        int64_t nu = case_values(next_line(f, &line, &cap), "values", vals, isz);
        ck_assert_int_eq(case_values(next_line(f, &line, &cap), "indices", idx, 0), nu);
        ck_assert_int_eq(case_values(next_line(f, &line, &cap), "inverse", inv, 0), n);
        ck_assert_int_eq(case_values(next_line(f, &line, &cap), "counts", cnt, 0), nu);
        for (int lay = 0; lay < LAYOUT_COUNT; lay++) {
            char what[160];
            snprintf(what, sizeof what, "unique %s (%s layout)", name, layout_names[lay]);
            usmarr_array_t *x = make(ctx, d, ndim, shape, in, n, (enum layout)lay);
            usmarr_array_t *v = NULL, *fi = NULL, *iv = NULL, *c = NULL;
            ck_assert_ok(usmarr_unique_all(x, &v, &fi, &iv, &c));
            ck_assert_int_eq(usmarr_array_size(v), nu);
            ck_assert_int_eq(usmarr_array_ndim(iv), ndim);
            check_values(v, d, vals, nu, what);
            check_indices(fi, idx, nu, what);
            check_indices(iv, inv, n, what);
            check_indices(c, cnt, nu, what);
            usmarr_array_release(v);
            usmarr_array_release(fi);
            usmarr_array_release(iv);
            usmarr_array_release(c);
            /* the smaller forms */
            ck_assert_ok(usmarr_unique_values(x, &v));
            check_values(v, d, vals, nu, what);
            usmarr_array_release(v);
            ck_assert_ok(usmarr_unique_counts(x, &v, &c));
            check_values(v, d, vals, nu, what);
            check_indices(c, cnt, nu, what);
            usmarr_array_release(v);
            usmarr_array_release(c);
            ck_assert_ok(usmarr_unique_inverse(x, &v, &iv));
            check_indices(iv, inv, n, what);
            usmarr_array_release(v);
            usmarr_array_release(iv);
            usmarr_array_release(x);
        }
        free(in);
        free(vals);
        free(idx);
        free(inv);
        free(cnt);
        cases++;
    }
    free(line);
    fclose(f);
    ck_assert_int_gt(cases, 50);
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_isin_matches_numpy)
{
    usmarr_context_t *ctx = test_context();
    FILE *f = fopen(cases_path(), "r");
    ck_assert_msg(f != NULL, "cannot open %s", cases_path());
    char *line = NULL;
    size_t cap = 0;
    int cases = 0;
    while (getline(&line, &cap, f) > 0) {
        if (strncmp(line, "isin ", 5))
            continue;
        char name[96], xname[16], tname[16];
        long long n, m;
        int invert;
        ck_assert_int_eq(sscanf(line, "isin %95s %15s %lld %15s %lld %d", name, xname, &n, tname, &m, &invert), 6);
        usmarr_dtype_t xd = case_dtype_named(xname), td = case_dtype_named(tname);
        if (test_dtype_skipped(ctx, xd) || test_dtype_skipped(ctx, td))
            continue;
        unsigned char *xh = malloc((size_t)n * 16), *th = malloc((size_t)m * 16);
        int64_t *exp = malloc((size_t)n * 8);
        ck_assert_int_eq(case_values(next_line(f, &line, &cap), "x", xh, usmarr_dtype_size(xd)), n);
        ck_assert_int_eq(case_values(next_line(f, &line, &cap), "t", th, usmarr_dtype_size(td)), m);
        ck_assert_int_eq(case_values(next_line(f, &line, &cap), "exp", exp, 0), n);
        int64_t xn = n, tm = m;
        for (int lay = 0; lay < LAYOUT_COUNT; lay++) {
            usmarr_array_t *x = make(ctx, xd, 1, &xn, xh, n, (enum layout)lay);
            usmarr_array_t *t = make(ctx, td, 1, &tm, th, m, (enum layout)((lay + 2) % LAYOUT_COUNT)), *r;
            ck_assert_ok(usmarr_isin(x, t, invert, NULL, &r));
            ck_assert_int_eq(usmarr_array_dtype(r), USMARR_BOOL);
            unsigned char *got = malloc((size_t)n);
            ck_assert_ok(usmarr_array_copy_to_host(r, got, NULL));
            for (int64_t i = 0; i < n; i++)
                ck_assert_msg(got[i] == exp[i], "isin %s (%s layout): element %lld is %d, NumPy says %lld", name,
                              layout_names[lay], (long long)i, got[i], (long long)exp[i]);
            free(got);
            usmarr_array_release(r);
            usmarr_array_release(x);
            usmarr_array_release(t);
        }
        free(xh);
        free(th);
        free(exp);
        cases++;
    }
    free(line);
    fclose(f);
    ck_assert_int_gt(cases, test_case_floor(40));
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_set_functions_edges_and_failures)
{
    usmarr_context_t *ctx = test_context();
    int64_t zero = 0, three = 3, shape[2] = {2, 3};
    usmarr_array_t *e, *x, *v = NULL, *fi = NULL, *iv = NULL, *c = NULL, *r = NULL, *o;
    /* zero-size input: empty results, inverse of the input's shape */
    int64_t zshape[2] = {0, 4};
    ck_assert_ok(usmarr_array_empty(ctx, 2, zshape, USMARR_FLOAT32, USMARR_ORDER_C, USMARR_USM_DEVICE, &e));
    ck_assert_ok(usmarr_unique_all(e, &v, &fi, &iv, &c));
    ck_assert_int_eq(usmarr_array_size(v), 0);
    ck_assert_int_eq(usmarr_array_size(fi), 0);
    ck_assert_int_eq(usmarr_array_size(c), 0);
    ck_assert_int_eq(usmarr_array_ndim(iv), 2);
    ck_assert_int_eq(usmarr_array_shape(iv)[1], 4);
    usmarr_array_release(v);
    usmarr_array_release(fi);
    usmarr_array_release(iv);
    usmarr_array_release(c);
    /* 0-d input: one value; isin against an empty set is all false (all true inverted) */
    float one = 2.5f;
    usmarr_array_t *s;
    ck_assert_ok(usmarr_array_from_host(ctx, 0, NULL, USMARR_FLOAT32, &one, NULL, USMARR_USM_DEVICE, &s));
    ck_assert_ok(usmarr_unique_inverse(s, &v, &iv));
    ck_assert_int_eq(usmarr_array_size(v), 1);
    ck_assert_int_eq(usmarr_array_ndim(iv), 0);
    usmarr_array_release(v);
    usmarr_array_release(iv);
    float xh[6] = {1, 2, 3, 4, 5, 6};
    ck_assert_ok(usmarr_array_from_host(ctx, 2, shape, USMARR_FLOAT32, xh, NULL, USMARR_USM_DEVICE, &x));
    ck_assert_ok(usmarr_array_empty(ctx, 1, &zero, USMARR_FLOAT32, USMARR_ORDER_C, USMARR_USM_DEVICE, &o));
    for (int invert = 0; invert < 2; invert++) {
        unsigned char got[6];
        ck_assert_ok(usmarr_isin(x, o, invert, NULL, &r));
        ck_assert_ok(usmarr_array_copy_to_host(r, got, NULL));
        for (int i = 0; i < 6; i++)
            ck_assert_int_eq(got[i], invert);
        usmarr_array_release(r);
    }
    usmarr_array_release(o);
    /* isin into a transposed out (written through a temporary) */
    int64_t tshape[2] = {3, 2};
    usmarr_array_t *ob, *ot;
    ck_assert_ok(usmarr_array_empty(ctx, 2, tshape, USMARR_BOOL, USMARR_ORDER_C, USMARR_USM_DEVICE, &ob));
    ck_assert_ok(usmarr_array_transpose(ob, &ot));
    ck_assert_ok(usmarr_isin(x, s, false, ot, NULL));
    unsigned char tb[6];
    ck_assert_ok(usmarr_array_copy_to_host(ot, tb, NULL));
    for (int i = 0; i < 6; i++)
        ck_assert_int_eq(tb[i], 0);
    /* failures: NULL arguments, bad out */
    r = NULL;
    v = NULL;
    ck_assert_fails_with(usmarr_unique_values(NULL, &v), USMARR_ERROR_INVALID_ARGUMENT, "x is NULL");
    ck_assert_fails_with(usmarr_unique_values(x, NULL), USMARR_ERROR_INVALID_ARGUMENT, "values is NULL");
    ck_assert_fails_with(usmarr_unique_counts(x, &v, NULL), USMARR_ERROR_INVALID_ARGUMENT, "counts is NULL");
    ck_assert_fails_with(usmarr_unique_inverse(x, &v, NULL), USMARR_ERROR_INVALID_ARGUMENT, "inverse_indices is NULL");
    ck_assert_fails_with(usmarr_unique_all(x, &v, &fi, NULL, &c), USMARR_ERROR_INVALID_ARGUMENT, "inverse_indices");
    ck_assert_fails_with(usmarr_isin(NULL, x, false, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT, "x is NULL");
    ck_assert_fails_with(usmarr_isin(x, NULL, false, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT, "test_elements is NULL");
    ck_assert_fails_with(usmarr_isin(x, x, false, NULL, NULL), USMARR_ERROR_INVALID_ARGUMENT, "result is NULL");
    ck_assert_fails_with(usmarr_isin(x, x, false, ob, NULL), USMARR_ERROR_SHAPE_MISMATCH, "out has 2 dims");
    ck_assert_ok(usmarr_array_empty(ctx, 2, shape, USMARR_INT32, USMARR_ORDER_C, USMARR_USM_DEVICE, &o));
    ck_assert_fails_with(usmarr_isin(x, x, false, o, NULL), USMARR_ERROR_BAD_DTYPE, "out has dtype int32");
    usmarr_array_release(o);
    ck_assert_ok(usmarr_array_empty(ctx, 2, shape, USMARR_BOOL, USMARR_ORDER_C, USMARR_USM_DEVICE, &o));
    ck_assert_ok(usmarr_array_make_read_only(o));
    ck_assert_fails_with(usmarr_isin(x, x, false, o, NULL), USMARR_ERROR_READ_ONLY, "out");
    usmarr_array_release(o);
    if (!test_dtype_skipped(ctx, USMARR_COMPLEX128)) { /* x promotes to complex128: out stays bool */
        ck_assert_ok(usmarr_array_empty(ctx, 1, &three, USMARR_COMPLEX128, USMARR_ORDER_C, USMARR_USM_DEVICE, &o));
        ck_assert_fails_with(usmarr_isin(x, o, false, o, NULL), USMARR_ERROR_SHAPE_MISMATCH, "out has 1 dims");
        ck_assert_fails_with(usmarr_unique_counts(o, &v, NULL), USMARR_ERROR_INVALID_ARGUMENT, "counts is NULL");
        usmarr_array_release(o);
    }
    ck_assert_ptr_null(v);
    ck_assert_ptr_null(r);
    ck_assert_int_eq(usmarr_array_refcount(x), 1);
    float back[6];
    ck_assert_ok(usmarr_array_copy_to_host(x, back, NULL));
    ck_assert(!memcmp(back, xh, sizeof xh));
    usmarr_array_release(ot);
    usmarr_array_release(ob);
    usmarr_array_release(x);
    usmarr_array_release(s);
    usmarr_array_release(e);
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_top_k_matches_numpy_and_rejects_bad_k)
{
    usmarr_context_t *ctx = test_context();
    FILE *f = fopen(cases_path(), "r");
    ck_assert_msg(f != NULL, "cannot open %s", cases_path());
    char *line = NULL;
    size_t cap = 0;
    int cases = 0;
    while (getline(&line, &cap, f) > 0) {
        if (strncmp(line, "topk ", 5))
            continue;
        char name[96], dname[16];
        int ndim, used;
        int64_t shape[3] = {1, 1, 1}, kshape[3];
        ck_assert_int_eq(sscanf(line, "topk %95s %15s %d%n", name, dname, &ndim, &used), 3);
        char *p = line + used;
        for (int i = 0; i < ndim; i++)
            shape[i] = strtoll(p, &p, 10);
        int axis = (int)strtol(p, &p, 10);
        int64_t k = strtoll(p, &p, 10);
        int largest = (int)strtol(p, &p, 10);
        usmarr_dtype_t d = case_dtype_named(dname);
        if (test_dtype_skipped(ctx, d))
            continue;
        memcpy(kshape, shape, sizeof kshape);
        kshape[axis] = k;
        int64_t n = shape[0] * shape[1] * shape[2], nk = kshape[0] * kshape[1] * kshape[2];
        size_t isz = usmarr_dtype_size(d);
        unsigned char *in = malloc((size_t)n * isz), *val = malloc((size_t)nk * isz + 1);
        int64_t *idx = malloc((size_t)nk * 8 + 8);
        ck_assert_int_eq(case_values(next_line(f, &line, &cap), "in", in, isz), n);
        ck_assert_int_eq(case_values(next_line(f, &line, &cap), "val", val, isz), nk);
        ck_assert_int_eq(case_values(next_line(f, &line, &cap), "idx", idx, 0), nk);
        for (int lay = 0; lay < LAYOUT_COUNT; lay++) {
            char what[160];
            snprintf(what, sizeof what, "top_k %s (%s layout)", name, layout_names[lay]);
            usmarr_array_t *x = make(ctx, d, ndim, shape, in, n, (enum layout)lay), *v, *ix;
            ck_assert_ok(usmarr_top_k(x, k, axis, largest, &v, &ix));
            ck_assert_int_eq(usmarr_array_shape(v)[axis], k);
            check_values(v, d, val, nk, what);
            check_indices(ix, idx, nk, what);
            usmarr_array_release(v);
            usmarr_array_release(ix);
            usmarr_array_release(x);
        }
        free(in);
        free(val);
        free(idx);
        cases++;
    }
    free(line);
    fclose(f);
    ck_assert_int_gt(cases, test_case_floor(40));
    /* failures */
    float h[4] = {1, 2, 3, 4};
    int64_t four = 4;
    usmarr_array_t *x, *v = NULL, *ix = NULL, *z;
    ck_assert_ok(usmarr_array_from_host(ctx, 1, &four, USMARR_FLOAT32, h, NULL, USMARR_USM_DEVICE, &x));
    ck_assert_ok(usmarr_array_from_host(ctx, 0, NULL, USMARR_FLOAT32, h, NULL, USMARR_USM_DEVICE, &z));
    ck_assert_fails_with(usmarr_top_k(x, 5, 0, true, &v, &ix), USMARR_ERROR_INVALID_ARGUMENT, "k=5 is outside [0, 4]");
    ck_assert_fails_with(usmarr_top_k(x, -1, 0, true, &v, &ix), USMARR_ERROR_INVALID_ARGUMENT, "k=-1");
    ck_assert_fails_with(usmarr_top_k(x, 1, 1, true, &v, &ix), USMARR_ERROR_INDEX, "axis=1 is out of range");
    ck_assert_fails_with(usmarr_top_k(z, 1, 0, true, &v, &ix), USMARR_ERROR_INDEX, "for 0 dims");
    ck_assert_fails_with(usmarr_top_k(NULL, 1, 0, true, &v, &ix), USMARR_ERROR_INVALID_ARGUMENT, "x is NULL");
    ck_assert_fails_with(usmarr_top_k(x, 1, 0, true, &v, NULL), USMARR_ERROR_INVALID_ARGUMENT, "indices is NULL");
    ck_assert_ptr_null(v);
    ck_assert_ptr_null(ix);
    ck_assert_int_eq(usmarr_array_refcount(x), 1);
    usmarr_array_release(z);
    usmarr_array_release(x);
    usmarr_context_release(ctx);
}
END_TEST

/* Signed zeros as doc/ops.md gives them: sort rebuilds elements from keys, so its -0.0s
 * come before its +0.0s (after them descending); argsort and unique take the two as one
 * value (stable indices, one +0.0); complex sort returns +0.0 parts.  Short rows (one
 * work-group) and long ones (the radix passes). */
START_TEST(test_signed_zeros_come_back_as_documented)
{
    usmarr_context_t *ctx = test_context();
    static double in[40000], got[40000];
    static float in32[40000];
    static int64_t idx[40000];
    const double pattern[5] = {-0.0, 0.0, 1.0, -1.0, 0.0};
    for (int t = 0; t < 4; t++) {
        usmarr_dtype_t d = t & 1 ? USMARR_FLOAT64 : USMARR_FLOAT32;
        int64_t n = t < 2 ? 40 : 40000, zeros = n / 5 * 3, negz = n / 5, nonz = (n - zeros) / 2;
        if (test_dtype_skipped(ctx, d))
            continue;
        float *gotf = (float *)got;
        for (int64_t i = 0; i < n; i++)
            in32[i] = (float)(in[i] = pattern[i % 5]);
        usmarr_array_t *x, *r;
        ck_assert_ok(usmarr_array_from_host(ctx, 1, &n, d, d == USMARR_FLOAT64 ? (void *)in : (void *)in32, NULL,
                                            USMARR_USM_DEVICE, &x));
        for (int desc = 0; desc < 2; desc++) {
            ck_assert_ok(usmarr_sort(x, 0, desc, NULL, &r));
            ck_assert_ok(usmarr_array_copy_to_host(r, got, NULL));
            usmarr_array_release(r);
            for (int64_t i = 0; i < n; i++) { /* ascending: -1s, -0.0s, +0.0s, 1s */
                int64_t k = desc ? n - 1 - i : i;
                double v = d == USMARR_FLOAT64 ? got[i] : gotf[i];
                double want = k < nonz ? -1.0 : k < nonz + negz ? -0.0 : k < nonz + zeros ? 0.0 : 1.0;
                ck_assert_msg(v == want && !signbit(v) == !signbit(want), "%s n=%lld desc=%d: [%lld] = %g",
                              usmarr_dtype_name(d), (long long)n, desc, (long long)i, v);
            }
            ck_assert_ok(usmarr_argsort(x, 0, desc, NULL, &r));
            ck_assert_ok(usmarr_array_copy_to_host(r, idx, NULL));
            usmarr_array_release(r);
            for (int64_t i = nonz + 1; i < nonz + zeros; i++) /* the zeros, stable: input order */
                ck_assert_msg(in[idx[i]] == 0.0 && idx[i] > idx[i - 1], "%s n=%lld desc=%d: argsort [%lld]",
                              usmarr_dtype_name(d), (long long)n, desc, (long long)i);
        }
        usmarr_array_t *u;
        ck_assert_ok(usmarr_unique_values(x, &u));
        ck_assert_int_eq(usmarr_array_size(u), 3);
        ck_assert_ok(usmarr_array_copy_to_host(u, got, NULL));
        double zero = d == USMARR_FLOAT64 ? got[1] : gotf[1];
        ck_assert_msg(zero == 0.0 && !signbit(zero), "%s n=%lld: unique's zero", usmarr_dtype_name(d), (long long)n);
        usmarr_array_release(u);
        usmarr_array_release(x);
    }
    /* complex64: (-0-0j), (0+0j), (1-0j) sort to +0.0 parts */
    if (!test_dtype_skipped(ctx, USMARR_COMPLEX64)) {
        float c[6] = {-0.0f, -0.0f, 0.0f, 0.0f, 1.0f, -0.0f}, cg[6];
        int64_t three = 3;
        usmarr_array_t *x, *r;
        ck_assert_ok(usmarr_array_from_host(ctx, 1, &three, USMARR_COMPLEX64, c, NULL, USMARR_USM_DEVICE, &x));
        ck_assert_ok(usmarr_sort(x, 0, false, NULL, &r));
        ck_assert_ok(usmarr_array_copy_to_host(r, cg, NULL));
        for (int i = 0; i < 6; i++)
            ck_assert_msg(cg[i] == (i == 4 ? 1.0f : 0.0f) && !signbit(cg[i]), "complex64 sort part %d = %g", i,
                          cg[i]);
        usmarr_array_release(r);
        usmarr_array_release(x);
    }
    usmarr_context_release(ctx);
}
END_TEST

Suite *suite_sort(void);
Suite *suite_sort(void)
{
    Suite *s = suite_create("sort");
    const struct test_case_entry tests[] = {
        {"numpy", test_sort_and_argsort_match_numpy_for_every_dtype_length_axis_and_layout},
        {"searchsorted", test_searchsorted_matches_numpy_with_and_without_sorter},
        {"edges", test_sort_zero_strides_zero_size_and_mixed_types},
        {"failures", test_sort_functions_reject_bad_arguments},
        {"unique", test_unique_functions_match_numpy_with_nans_distinct},
        {"isin", test_isin_matches_numpy},
        {"set-edges", test_set_functions_edges_and_failures},
        {"top_k", test_top_k_matches_numpy_and_rejects_bad_k},
        {"signed-zeros", test_signed_zeros_come_back_as_documented},
    };
    test_add_cases(s, tests, sizeof tests / sizeof tests[0]);
    return s;
}
