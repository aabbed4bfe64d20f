/* Full advanced indexing (usmarr_array_getitem / _setitem, the '@N' text) and
 * put_along_axis: what the NumPy cases in tests/index_cases.txt (run by test_manip.c)
 * cannot say.  Error details that name the index array, its item and the bound; nothing
 * written on failure; both the C items and the text; the C form of every failure; large
 * gathers and scatters checked against host loops. */
#include "../harness/common.h"

#include <stdio.h>
#include <stdlib.h>

static usmarr_array_t *from_i64(usmarr_context_t *ctx, int nd, const int64_t *shape, const int64_t *v)
{
    usmarr_array_t *a;
    ck_assert_ok(usmarr_array_from_host(ctx, nd, shape, USMARR_INT64, v, NULL, USMARR_USM_DEVICE, &a));
    return a;
}

/* An int32 array holding 0, 1, 2, ... in C order. */
static usmarr_array_t *iota_i32(usmarr_context_t *ctx, int nd, const int64_t *shape)
{
    int64_t n = 1;
    for (int k = 0; k < nd; k++)
        n *= shape[k];
    int32_t *h = malloc((size_t)(n ? n : 1) * sizeof *h);
    for (int64_t i = 0; i < n; i++)
        h[i] = (int32_t)i;
    usmarr_array_t *a;
    ck_assert_ok(usmarr_array_from_host(ctx, nd, shape, USMARR_INT32, h, NULL, USMARR_USM_DEVICE, &a));
    free(h);
    return a;
}

static void back_i32(const usmarr_array_t *a, int32_t *h) { ck_assert_ok(usmarr_array_copy_to_host(a, h, NULL)); }

START_TEST(test_getitem_parse_index_arrays)
{
    usmarr_index_item_t it[8];
    size_t n;
    ck_assert_ok(usmarr_index_parse("@0, 1:3, @12,...,@0", it, 8, &n));
    ck_assert_uint_eq(n, 5);
    ck_assert_int_eq(it[0].kind, USMARR_INDEX_ARRAY);
    ck_assert_int_eq(it[0].index, 0);
    ck_assert_int_eq(it[1].kind, USMARR_INDEX_SLICE);
    ck_assert_int_eq(it[2].kind, USMARR_INDEX_ARRAY);
    ck_assert_int_eq(it[2].index, 12);
    ck_assert_int_eq(it[4].index, 0);
    usmarr_index_item_t c = usmarr_index_array(3);
    ck_assert_int_eq(c.kind, USMARR_INDEX_ARRAY);
    ck_assert_int_eq(c.index, 3);
    static const struct {
        const char *text, *detail;
    } bad[] = {
        {"@", "column 2: expected the position of an index array after '@', found the end"},
        {"@-1", "column 2: expected the position of an index array after '@', found '-'"},
        {"@x", "column 2: expected the position of an index array after '@', found 'x'"},
        {"@ 1", "column 2: expected the position of an index array after '@', found ' '"},
        {"@1x", "column 3: expected the integer to end, found 'x'"},
        {"@1:2", "column 3: expected ',' or the end, found ':'"},
        {"1, @99999999999999999999", "column 5: the integer does not fit in 64 bits"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        n = 99;
        int rc = usmarr_index_parse(bad[i].text, it, 8, &n);
        ck_assert_msg(rc == USMARR_ERROR_PARSE, "%s: %s", bad[i].text, usmarr_error_name(rc));
        ck_assert_uint_eq(n, 0);
        ck_assert_msg(strstr(usmarr_last_error_detail(), bad[i].detail), "%s: detail \"%s\" lacks \"%s\"",
                      bad[i].text, usmarr_last_error_detail(), bad[i].detail);
    }
}
END_TEST

/* The C items and the text give the same result; basic indexing refuses index arrays. */
START_TEST(test_getitem_items_and_text_agree)
{
    usmarr_context_t *ctx = test_context();
    int64_t s[2] = {6, 7}, three = 3;
    usmarr_array_t *a = iota_i32(ctx, 2, s);
    int64_t rows[3] = {5, -6, 2}, cols[3] = {5, 0, -1};
    usmarr_array_t *i0 = from_i64(ctx, 1, &three, rows), *i1 = from_i64(ctx, 1, &three, cols);
    const usmarr_array_t *arrays[2] = {i0, i1};
    usmarr_array_t *r1 = NULL, *r2 = NULL, *v = NULL;
    int64_t two = 2, four = 4;
    usmarr_index_item_t items[2] = {usmarr_index_array(1), usmarr_index_slice(&two, &four, NULL)};
    /* a[cols, 2:4] as items and as text (cols indexes axis 0 here) */
    ck_assert_ok(usmarr_array_getitem(a, items, 2, arrays, 2, NULL, &r1));
    ck_assert_ok(usmarr_array_getitem_text(a, "@1, 2:4", arrays, 2, NULL, &r2));
    ck_assert_int_eq(usmarr_array_ndim(r1), 2);
    ck_assert_int_eq(usmarr_array_shape(r1)[0], 3);
    ck_assert_int_eq(usmarr_array_shape(r1)[1], 2);
    int32_t h1[6], h2[6];
    back_i32(r1, h1);
    back_i32(r2, h2);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 2; j++) {
            int64_t row = cols[i] < 0 ? cols[i] + 6 : cols[i];
            ck_assert_int_eq(h1[i * 2 + j], (int32_t)(row * 7 + 2 + j));
        }
    ck_assert_mem_eq(h1, h2, sizeof h1);
    /* basic indexing names the way to advanced indexing */
    ck_assert_fails_with(usmarr_array_index(a, items, 2, &v), USMARR_ERROR_INVALID_ARGUMENT,
                         "items[0] is an index array (@1): basic indexing takes none; use usmarr_array_getitem()");
    ck_assert_fails_with(usmarr_array_index_text(a, "1, @0", &v), USMARR_ERROR_INVALID_ARGUMENT,
                         "items[1] is an index array (@0)");
    ck_assert_ptr_null(v);
    usmarr_array_release(r1);
    usmarr_array_release(r2);
    usmarr_array_release(i0);
    usmarr_array_release(i1);
    usmarr_array_release(a);
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_getitem_out_of_range_names_array_item_and_bound)
{
    usmarr_context_t *ctx = test_context();
    int64_t s[3] = {4, 5, 6}, two = 2;
    usmarr_array_t *a = iota_i32(ctx, 3, s);
    int64_t ok[2] = {1, -4}, bad[2] = {0, 6}, neg[2] = {-6, 0};
    usmarr_array_t *good = from_i64(ctx, 1, &two, ok), *wrong = from_i64(ctx, 1, &two, bad);
    usmarr_array_t *negative = from_i64(ctx, 1, &two, neg);
    const usmarr_array_t *arrays[3] = {good, wrong, negative};
    usmarr_array_t *r = NULL;
    /* one array (the fused check) */
    ck_assert_fails_with(usmarr_array_getitem_text(a, ":, :, @1", arrays, 2, NULL, &r), USMARR_ERROR_INDEX,
                         "index 6 is out of bounds for axis 2 with size 6 (index array @1 at items[2])");
    ck_assert_ptr_null(r);
    /* one array over whole rows (the rows kernel) */
    ck_assert_fails_with(usmarr_array_getitem_text(a, "@1", arrays, 2, NULL, &r), USMARR_ERROR_INDEX,
                         "index 6 is out of bounds for axis 0 with size 4 (index array @1 at items[0])");
    /* several arrays (the offsets' passes) */
    ck_assert_fails_with(usmarr_array_getitem_text(a, "@0, ..., @1", arrays, 2, NULL, &r), USMARR_ERROR_INDEX,
                         "index 6 is out of bounds for axis 2 with size 6 (index array @1 at items[2])");
    ck_assert_fails_with(usmarr_array_getitem_text(a, "@0, @2", arrays, 3, NULL, &r), USMARR_ERROR_INDEX,
                         "index -6 is out of bounds for axis 1 with size 5 (index array @2 at items[1])");
    /* into out: checked before anything is written */
    int64_t os[2] = {2, 4};
    usmarr_array_t *out = iota_i32(ctx, 2, os);
    ck_assert_fails_with(usmarr_array_getitem_text(a, "1, @1, 1:5", arrays, 2, out, NULL), USMARR_ERROR_INDEX,
                         "index 6 is out of bounds for axis 1 with size 5 (index array @1 at items[1])");
    int32_t h[8];
    back_i32(out, h);
    for (int i = 0; i < 8; i++)
        ck_assert_int_eq(h[i], i);
    ck_assert_ok(usmarr_array_getitem_text(a, "1, @0, 1:5", arrays, 2, out, NULL));
    back_i32(out, h);
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 4; j++)
            ck_assert_int_eq(h[i * 4 + j], 30 + (int32_t)((ok[i] + 5) % 5) * 6 + 1 + j);
    /* assignment writes nothing */
    int32_t before[120], after[120];
    back_i32(a, before);
    int64_t vs[1] = {1};
    int32_t one = -7;
    usmarr_array_t *val;
    ck_assert_ok(usmarr_array_from_host(ctx, 1, vs, USMARR_INT32, &one, NULL, USMARR_USM_DEVICE, &val));
    ck_assert_fails_with(usmarr_array_setitem_text(a, "@0, 2, @1", arrays, 2, val), USMARR_ERROR_INDEX,
                         "index 6 is out of bounds for axis 2 with size 6 (index array @1 at items[2])");
    ck_assert_fails_with(usmarr_array_setitem_text(a, "..., @1", arrays, 2, val), USMARR_ERROR_INDEX,
                         "(index array @1 at items[1])");
    back_i32(a, after);
    ck_assert_mem_eq(before, after, sizeof before);
    usmarr_array_release(val);
    usmarr_array_release(out);
    usmarr_array_release(good);
    usmarr_array_release(wrong);
    usmarr_array_release(negative);
    usmarr_array_release(a);
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_getitem_argument_errors)
{
    usmarr_context_t *ctx = test_context();
    int64_t s[2] = {4, 5}, two = 2, three = 3;
    usmarr_array_t *a = iota_i32(ctx, 2, s), *r = NULL;
    int64_t v2[2] = {0, 1}, v3[3] = {0, 1, 2};
    usmarr_array_t *i2 = from_i64(ctx, 1, &two, v2), *i3 = from_i64(ctx, 1, &three, v3);
    const usmarr_array_t *arrays[3] = {i2, i3, NULL};
    usmarr_index_item_t items[2] = {usmarr_index_array(0), usmarr_index_array(1)};
    ck_assert_fails_with(usmarr_array_getitem(NULL, items, 1, arrays, 2, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT,
                         "array is NULL");
    ck_assert_fails_with(usmarr_array_getitem(a, items, 1, arrays, 2, NULL, NULL), USMARR_ERROR_INVALID_ARGUMENT,
                         "result is NULL");
    ck_assert_fails_with(usmarr_array_getitem(a, NULL, 1, arrays, 2, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT,
                         "items is NULL with count=1");
    ck_assert_fails_with(usmarr_array_getitem(a, items, 1, NULL, 2, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT,
                         "arrays is NULL with narrays=2");
    ck_assert_fails_with(usmarr_array_getitem_text(a, "@0, @2", arrays, 2, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT,
                         "items[1] names index array @2, but 2 arrays were passed");
    ck_assert_fails_with(usmarr_array_getitem_text(a, "@2", arrays, 3, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT,
                         "arrays[2] (named by items[0]) is NULL");
    ck_assert_fails_with(usmarr_array_getitem_text(a, "@0", NULL, 0, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT,
                         "items[0] names index array @0, but 0 arrays were passed");
    ck_assert_fails_with(usmarr_array_getitem_text(a, "@0, @1", arrays, 2, NULL, &r), USMARR_ERROR_INDEX,
                         "shape mismatch: index arrays could not be broadcast together: @0 (items[0]) of shape (2,) "
                         "and @1 (items[1]) of shape (3,)");
    ck_assert_fails_with(usmarr_array_getitem_text(a, "@0, 1:, @0", arrays, 2, NULL, &r), USMARR_ERROR_INDEX,
                         "too many indices for array: array is 2-dimensional, but 3 were indexed");
    ck_assert_fails_with(usmarr_array_getitem_text(a, "@0, ::0", arrays, 2, NULL, &r), USMARR_ERROR_PARSE,
                         "the slice step must not be zero");
    ck_assert_fails_with(usmarr_array_getitem_text(a, "@0 @1", arrays, 2, NULL, &r), USMARR_ERROR_PARSE,
                         "column 4: expected ',' or the end, found '@'");
    /* non-integer index arrays */
    usmarr_array_t *f;
    float fv[2] = {0, 1};
    ck_assert_ok(usmarr_array_from_host(ctx, 1, &two, USMARR_FLOAT32, fv, NULL, USMARR_USM_DEVICE, &f));
    const usmarr_array_t *farr[1] = {f};
    ck_assert_fails_with(usmarr_array_getitem_text(a, "1, @0", farr, 1, NULL, &r), USMARR_ERROR_BAD_DTYPE,
                         "index array @0 (items[1]) has dtype float32; index arrays must be integers or booleans");
    ck_assert_fails_with(usmarr_array_setitem_text(a, "@0", farr, 1, i2), USMARR_ERROR_BAD_DTYPE,
                         "has dtype float32");
    /* a boolean of the wrong shape */
    usmarr_array_t *m;
    uint8_t mv[3] = {1, 0, 1};
    ck_assert_ok(usmarr_array_from_host(ctx, 1, &three, USMARR_BOOL, mv, NULL, USMARR_USM_DEVICE, &m));
    const usmarr_array_t *marr[1] = {m};
    ck_assert_fails_with(usmarr_array_getitem_text(a, ":, @0", marr, 1, NULL, &r), USMARR_ERROR_INDEX,
                         "boolean index @0 (items[1]) does not match the indexed array along axis 1: the axis has "
                         "size 5, the boolean's dimension 0 has 3");
    /* out of the wrong shape or dtype, read-only out */
    int64_t os[1] = {3};
    usmarr_array_t *out3 = iota_i32(ctx, 1, os), *ro;
    ck_assert_fails_with(usmarr_array_getitem_text(a, "@0, 1", arrays, 2, out3, NULL), USMARR_ERROR_SHAPE_MISMATCH,
                         "out has shape (3,), the result has shape (2,)");
    const usmarr_array_t *fa[1] = {i2};
    usmarr_array_t *af;
    ck_assert_ok(usmarr_array_astype(a, USMARR_FLOAT64, USMARR_ORDER_C, NULL, &af));
    ck_assert_fails_with(usmarr_array_getitem_text(af, "@0, 1", fa, 1, out3, NULL), USMARR_ERROR_SHAPE_MISMATCH,
                         "out has shape");
    int64_t o2[1] = {2};
    usmarr_array_t *outi = iota_i32(ctx, 1, o2);
    ck_assert_fails_with(usmarr_array_getitem_text(af, "@0, 1", fa, 1, outi, NULL), USMARR_ERROR_CASTING,
                         "out has dtype int32; the float64 result does not cast to it (same_kind)");
    ck_assert_ok(usmarr_array_broadcast_to(out3, 1, os, &ro));
    ck_assert_fails_with(usmarr_array_getitem_text(a, "@1, 0", arrays, 2, ro, NULL), USMARR_ERROR_READ_ONLY, "out");
    /* assignment: values that do not broadcast, a read-only target */
    ck_assert_fails_with(usmarr_array_setitem_text(a, "@0, 1:3", arrays, 2, i3), USMARR_ERROR_SHAPE_MISMATCH,
                         "shape mismatch: values of shape (3,) could not be broadcast to the indexing result of "
                         "shape (2, 2)");
    ck_assert_fails_with(usmarr_array_setitem_text(ro, "@0", arrays, 2, i2), USMARR_ERROR_READ_ONLY, "array");
    ck_assert_fails_with(usmarr_array_setitem_text(a, "@0", arrays, 2, NULL), USMARR_ERROR_INVALID_ARGUMENT,
                         "values is NULL");
    ck_assert_ptr_null(r);
    usmarr_array_release(af);
    usmarr_array_release(outi);
    usmarr_array_release(ro);
    usmarr_array_release(out3);
    usmarr_array_release(m);
    usmarr_array_release(f);
    usmarr_array_release(i2);
    usmarr_array_release(i3);
    usmarr_array_release(a);
    usmarr_context_release(ctx);
}
END_TEST

static uint64_t rng_state = 0x243f6a8885a308d3ull;
static uint64_t rng(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

/* a[idx, 2:14] of (40000, 16) float32 with 100000 random rows, and a[i, j] = v with two
 * arrays, against host loops: many work-groups, both the direct and the offsets path. */
START_TEST(test_getitem_large_gather_and_scatter_against_host_loops)
{
    usmarr_context_t *ctx = test_context();
    enum { ROWS = 40000, COLS = 16, N = 100000 };
    int64_t s[2] = {ROWS, COLS}, n = N;
    float *src = malloc(sizeof(float) * ROWS * COLS);
    for (int i = 0; i < ROWS * COLS; i++)
        src[i] = (float)i;
    int64_t *idx = malloc(sizeof(int64_t) * N), *jdx = malloc(sizeof(int64_t) * N);
    for (int i = 0; i < N; i++) {
        idx[i] = (int64_t)(rng() % (2 * ROWS)) - ROWS;
        jdx[i] = (int64_t)(rng() % COLS);
    }
    usmarr_array_t *a, *r, *i0 = from_i64(ctx, 1, &n, idx), *i1 = from_i64(ctx, 1, &n, jdx);
    ck_assert_ok(usmarr_array_from_host(ctx, 2, s, USMARR_FLOAT32, src, NULL, USMARR_USM_DEVICE, &a));
    const usmarr_array_t *arrays[2] = {i0, i1};
    ck_assert_ok(usmarr_array_getitem_text(a, "@0, 2:14", arrays, 2, NULL, &r));
    float *got = malloc(sizeof(float) * N * 12);
    ck_assert_ok(usmarr_array_copy_to_host(r, got, NULL));
    for (int i = 0; i < N; i++) {
        int64_t row = idx[i] < 0 ? idx[i] + ROWS : idx[i];
        for (int j = 0; j < 12; j++)
            ck_assert_msg(got[i * 12 + j] == src[row * COLS + 2 + j], "a[idx, 2:14][%d, %d]", i, j);
    }
    usmarr_array_release(r);
    ck_assert_ok(usmarr_array_getitem_text(a, "@0, @1", arrays, 2, NULL, &r));
    ck_assert_ok(usmarr_array_copy_to_host(r, got, NULL));
    for (int i = 0; i < N; i++) {
        int64_t row = idx[i] < 0 ? idx[i] + ROWS : idx[i];
        ck_assert_msg(got[i] == src[row * COLS + jdx[i]], "a[i, j][%d]", i);
    }
    usmarr_array_release(r);
    /* a[i, j] = -(position in the index): elements selected more than once get one of their values */
    float *vals = malloc(sizeof(float) * N);
    for (int i = 0; i < N; i++)
        vals[i] = -(float)i - 1;
    usmarr_array_t *v;
    ck_assert_ok(usmarr_array_from_host(ctx, 1, &n, USMARR_FLOAT32, vals, NULL, USMARR_USM_DEVICE, &v));
    ck_assert_ok(usmarr_array_setitem_text(a, "@0, @1", arrays, 2, v));
    float *after = malloc(sizeof(float) * ROWS * COLS);
    ck_assert_ok(usmarr_array_copy_to_host(a, after, NULL));
    char *hit = calloc(ROWS * COLS, 1);
    for (int i = 0; i < N; i++) {
        int64_t row = idx[i] < 0 ? idx[i] + ROWS : idx[i], e = row * COLS + jdx[i];
        hit[e] = 1;
        float w = after[e];
        int64_t k = (int64_t)(-w) - 1; /* the value's origin must select this element */
        ck_assert_msg(w < 0 && k < N && (idx[k] < 0 ? idx[k] + ROWS : idx[k]) == row && jdx[k] == jdx[i],
                      "element %lld holds %g", (long long)e, w);
    }
    for (int e = 0; e < ROWS * COLS; e++)
        if (!hit[e])
            ck_assert_msg(after[e] == src[e], "element %d not selected changed", e);
    free(hit);
    free(after);
    free(vals);
    free(got);
    free(idx);
    free(jdx);
    free(src);
    usmarr_array_release(v);
    usmarr_array_release(i0);
    usmarr_array_release(i1);
    usmarr_array_release(a);
    usmarr_context_release(ctx);
}
END_TEST

/* Values and indices that share the target's memory are read completely first. */
START_TEST(test_getitem_setitem_reads_overlapping_inputs_first)
{
    usmarr_context_t *ctx = test_context();
    int64_t s[1] = {8};
    usmarr_array_t *a = iota_i32(ctx, 1, s), *rev, *head, *idx;
    int64_t m1 = -1, four = 4;
    usmarr_index_item_t it = usmarr_index_slice(NULL, NULL, &m1);
    ck_assert_ok(usmarr_array_index(a, &it, 1, &rev));
    /* a[a[:4]] = a[::-1][:4]: indices 0..3 receive 7..4 */
    usmarr_index_item_t h = usmarr_index_slice(NULL, &four, NULL);
    ck_assert_ok(usmarr_array_index(a, &h, 1, &idx));
    ck_assert_ok(usmarr_array_index(rev, &h, 1, &head));
    const usmarr_array_t *arrays[1] = {idx};
    ck_assert_ok(usmarr_array_setitem_text(a, "@0", arrays, 1, head));
    int32_t got[8];
    back_i32(a, got);
    const int32_t want[8] = {7, 6, 5, 4, 4, 5, 6, 7};
    ck_assert_mem_eq(got, want, sizeof want);
    /* getitem into an out that is one of the index arrays */
    int64_t two = 2;
    int64_t iv[2] = {1, 0};
    usmarr_array_t *ii = from_i64(ctx, 1, &two, iv), *r = NULL;
    const usmarr_array_t *ai[1] = {ii};
    ck_assert_ok(usmarr_array_getitem_text(ii, "@0", ai, 1, ii, &r));
    ck_assert_ptr_eq(r, ii);
    int64_t back[2];
    ck_assert_ok(usmarr_array_copy_to_host(ii, back, NULL));
    ck_assert_int_eq(back[0], 0);
    ck_assert_int_eq(back[1], 1);
    usmarr_array_release(r);
    usmarr_array_release(ii);
    usmarr_array_release(head);
    usmarr_array_release(idx);
    usmarr_array_release(rev);
    usmarr_array_release(a);
    usmarr_context_release(ctx);
}
END_TEST

/* Zero strides: a broadcast source, broadcast index arrays, broadcast values. */
START_TEST(test_getitem_zero_strides)
{
    usmarr_context_t *ctx = test_context();
    int64_t row[2] = {1, 5}, wide[2] = {4, 5}, one = 1, three = 3;
    usmarr_array_t *a = iota_i32(ctx, 2, row), *b, *r;
    ck_assert_ok(usmarr_array_broadcast_to(a, 2, wide, &b)); /* strides (0, 1) */
    int64_t iv[1] = {-1}, jv[3] = {4, 0, 2};
    usmarr_array_t *i1 = from_i64(ctx, 1, &one, iv), *ib, *j = from_i64(ctx, 1, &three, jv);
    ck_assert_ok(usmarr_array_broadcast_to(i1, 1, &three, &ib)); /* stride 0 */
    const usmarr_array_t *arrays[2] = {ib, j};
    ck_assert_ok(usmarr_array_getitem_text(b, "@0, 1:4", arrays, 2, NULL, &r));
    int32_t h[9];
    back_i32(r, h);
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 3; k++)
            ck_assert_int_eq(h[i * 3 + k], 1 + k);
    usmarr_array_release(r);
    ck_assert_ok(usmarr_array_getitem_text(b, "@0, @1", arrays, 2, NULL, &r));
    back_i32(r, h);
    for (int i = 0; i < 3; i++)
        ck_assert_int_eq(h[i], (int32_t)jv[i]);
    usmarr_array_release(r);
    /* a[0, j] = broadcast value */
    int32_t seven = 7;
    usmarr_array_t *v, *vb;
    ck_assert_ok(usmarr_array_from_host(ctx, 1, &one, USMARR_INT32, &seven, NULL, USMARR_USM_DEVICE, &v));
    ck_assert_ok(usmarr_array_broadcast_to(v, 1, &three, &vb));
    ck_assert_ok(usmarr_array_setitem_text(a, "0, @1", arrays, 2, vb));
    back_i32(a, h);
    const int32_t want[5] = {7, 1, 7, 3, 7};
    ck_assert_mem_eq(h, want, sizeof want);
    ck_assert_fails_with(usmarr_array_setitem_text(b, "@0", arrays, 2, vb), USMARR_ERROR_READ_ONLY, "array");
    usmarr_array_release(vb);
    usmarr_array_release(v);
    usmarr_array_release(ib);
    usmarr_array_release(i1);
    usmarr_array_release(j);
    usmarr_array_release(b);
    usmarr_array_release(a);
    usmarr_context_release(ctx);
}
END_TEST

/* Basic keys (no index array) broadcast the values to the selection after dropping the
 * values' leading extent-1 axes beyond it, as NumPy and the advanced path do: a 0-d
 * array's a[None] = v of shape (1, 1), a[...] = v of shape (1,), a[0] = v of (1, 1, 3)
 * for shape (2, 3), a[None, 1] = v of (1, 1, 3); but not for one element selected by
 * integers alone. */
START_TEST(test_getitem_basic_assignment_drops_leading_unit_axes)
{
    usmarr_context_t *ctx = test_context();
    int64_t s23[2] = {2, 3}, s11[2] = {1, 1}, one = 1, s113[3] = {1, 1, 3};
    int32_t h[6], five = 5, nine = 9, row[3] = {10, 20, 30};
    usmarr_array_t *z = iota_i32(ctx, 0, NULL), *a = iota_i32(ctx, 2, s23), *v11, *v1, *v113;
    ck_assert_ok(usmarr_array_from_host(ctx, 2, s11, USMARR_INT32, &five, NULL, USMARR_USM_DEVICE, &v11));
    ck_assert_ok(usmarr_array_from_host(ctx, 1, &one, USMARR_INT32, &nine, NULL, USMARR_USM_DEVICE, &v1));
    ck_assert_ok(usmarr_array_from_host(ctx, 3, s113, USMARR_INT32, row, NULL, USMARR_USM_DEVICE, &v113));
    ck_assert_ok(usmarr_array_setitem_text(z, "None", NULL, 0, v11));
    back_i32(z, h);
    ck_assert_int_eq(h[0], 5);
    ck_assert_ok(usmarr_array_setitem_text(z, "...", NULL, 0, v1));
    back_i32(z, h);
    ck_assert_int_eq(h[0], 9);
    ck_assert_ok(usmarr_array_setitem_text(a, "0", NULL, 0, v113));
    ck_assert_ok(usmarr_array_setitem_text(a, "None, 1, ::-1", NULL, 0, v113));
    back_i32(a, h);
    const int32_t want[6] = {10, 20, 30, 30, 20, 10};
    ck_assert_mem_eq(h, want, sizeof want);
    /* an index of integers alone selects one element: NumPy 2 assigns a scalar there and
     * refuses an array of shape (1,), as a 0-d array's empty index */
    ck_assert_fails_with(usmarr_array_setitem_text(a, "1, 2", NULL, 0, v1), USMARR_ERROR_SHAPE_MISMATCH, "(1,)");
    ck_assert_fails_with(usmarr_array_setitem(z, NULL, 0, NULL, 0, v1), USMARR_ERROR_SHAPE_MISMATCH, "(1,)");
    back_i32(z, h);
    ck_assert_int_eq(h[0], 9);
    /* a leading axis of another extent is still refused, naming both shapes */
    int64_t s213[3] = {2, 1, 3};
    usmarr_array_t *v213;
    ck_assert_ok(usmarr_array_broadcast_to(v113, 3, s213, &v213));
    ck_assert_fails_with(usmarr_array_setitem_text(a, "0", NULL, 0, v213), USMARR_ERROR_SHAPE_MISMATCH, "(2, 1, 3)");
    back_i32(a, h);
    ck_assert_mem_eq(h, want, sizeof want);
    usmarr_array_release(v213);
    usmarr_array_release(v113);
    usmarr_array_release(v1);
    usmarr_array_release(v11);
    usmarr_array_release(a);
    usmarr_array_release(z);
    usmarr_context_release(ctx);
}
END_TEST

/* a[mask] into out takes the general path (nonzero and a gather); without out, extract. */
START_TEST(test_getitem_whole_mask_with_and_without_out)
{
    usmarr_context_t *ctx = test_context();
    int64_t s[2] = {3, 4}, three = 3;
    usmarr_array_t *a = iota_i32(ctx, 2, s), *m, *r = NULL, *out = iota_i32(ctx, 1, &three);
    uint8_t mv[12] = {0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1};
    ck_assert_ok(usmarr_array_from_host(ctx, 2, s, USMARR_BOOL, mv, NULL, USMARR_USM_DEVICE, &m));
    const usmarr_array_t *arrays[1] = {m};
    const int32_t want[3] = {1, 4, 11};
    int32_t h[3];
    ck_assert_ok(usmarr_array_getitem_text(a, "@0", arrays, 1, NULL, &r));
    ck_assert_int_eq(usmarr_array_ndim(r), 1);
    back_i32(r, h);
    ck_assert_mem_eq(h, want, sizeof want);
    ck_assert_ok(usmarr_array_getitem_text(a, "@0", arrays, 1, out, NULL));
    back_i32(out, h);
    ck_assert_mem_eq(h, want, sizeof want);
    usmarr_array_release(r);
    usmarr_array_release(out);
    usmarr_array_release(m);
    usmarr_array_release(a);
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_getitem_other_context_is_rejected)
{
    usmarr_context_t *c1 = test_context(), *c2 = test_context();
    int64_t three = 3, iv[3] = {0, 2, 1};
    usmarr_array_t *a = iota_i32(c1, 1, &three), *b = iota_i32(c2, 1, &three), *r = NULL;
    usmarr_array_t *i1 = from_i64(c1, 1, &three, iv), *i2 = from_i64(c2, 1, &three, iv);
    uint8_t mv[3] = {1, 0, 1};
    usmarr_array_t *m2;
    ck_assert_ok(usmarr_array_from_host(c2, 1, &three, USMARR_BOOL, mv, NULL, USMARR_USM_DEVICE, &m2));
    const usmarr_array_t *other[1] = {i2}, *mine[1] = {i1}, *mask[1] = {m2};
    ck_assert_fails_with(usmarr_array_getitem_text(a, "@0", other, 1, NULL, &r), USMARR_ERROR_CONTEXT_MISMATCH,
                         "arrays[0] and array belong to different contexts");
    ck_assert_fails_with(usmarr_array_getitem_text(a, "@0", mask, 1, NULL, &r), USMARR_ERROR_CONTEXT_MISMATCH,
                         "arrays[0] and array");
    ck_assert_fails_with(usmarr_array_getitem_text(a, "@0", mine, 1, b, NULL), USMARR_ERROR_CONTEXT_MISMATCH, "out");
    ck_assert_fails_with(usmarr_array_setitem_text(a, "@0", mine, 1, b), USMARR_ERROR_CONTEXT_MISMATCH, "values");
    ck_assert_fails_with(usmarr_array_setitem_text(a, "@0", other, 1, a), USMARR_ERROR_CONTEXT_MISMATCH, "arrays[0]");
    ck_assert_fails_with(usmarr_put_along_axis(a, i2, a, 0, USMARR_INDEX_MODE_RAISE), USMARR_ERROR_CONTEXT_MISMATCH,
                         "indices");
    ck_assert_fails_with(usmarr_put_along_axis(a, i1, b, 0, USMARR_INDEX_MODE_RAISE), USMARR_ERROR_CONTEXT_MISMATCH,
                         "values");
    ck_assert_ptr_null(r);
    int32_t h[3];
    back_i32(a, h);
    for (int i = 0; i < 3; i++)
        ck_assert_int_eq(h[i], i);
    usmarr_array_release(m2);
    usmarr_array_release(i1);
    usmarr_array_release(i2);
    usmarr_array_release(a);
    usmarr_array_release(b);
    usmarr_context_release(c1);
    usmarr_context_release(c2);
}
END_TEST

START_TEST(test_getitem_put_along_axis_errors)
{
    usmarr_context_t *ctx = test_context();
    int64_t s[2] = {3, 4}, is[2] = {3, 1};
    usmarr_array_t *a = iota_i32(ctx, 2, s), *ro;
    int64_t iv[3] = {0, 4, 1};
    usmarr_array_t *ind = from_i64(ctx, 2, is, iv), *v = iota_i32(ctx, 2, is);
    ck_assert_fails_with(usmarr_put_along_axis(NULL, ind, v, 1, USMARR_INDEX_MODE_RAISE),
                         USMARR_ERROR_INVALID_ARGUMENT, "a is NULL");
    ck_assert_fails_with(usmarr_put_along_axis(a, NULL, v, 1, USMARR_INDEX_MODE_RAISE), USMARR_ERROR_INVALID_ARGUMENT,
                         "indices is NULL");
    ck_assert_fails_with(usmarr_put_along_axis(a, ind, NULL, 1, USMARR_INDEX_MODE_RAISE),
                         USMARR_ERROR_INVALID_ARGUMENT, "values is NULL");
    ck_assert_fails_with(usmarr_put_along_axis(a, ind, v, 2, USMARR_INDEX_MODE_RAISE), USMARR_ERROR_INVALID_ARGUMENT,
                         "axis");
    ck_assert_fails_with(usmarr_put_along_axis(a, ind, v, 1, (usmarr_index_mode_t)7), USMARR_ERROR_INVALID_ARGUMENT,
                         "mode=7 is not raise (0), wrap (1) or clip (2)");
    usmarr_array_t *f;
    ck_assert_ok(usmarr_array_astype(ind, USMARR_FLOAT32, USMARR_ORDER_C, NULL, &f));
    ck_assert_fails_with(usmarr_put_along_axis(a, f, v, 1, USMARR_INDEX_MODE_RAISE), USMARR_ERROR_BAD_DTYPE,
                         "indices has dtype float32; indices must be integers");
    usmarr_array_release(f);
    int32_t before[12], after[12];
    back_i32(a, before);
    ck_assert_fails_with(usmarr_put_along_axis(a, ind, v, 1, USMARR_INDEX_MODE_RAISE), USMARR_ERROR_INDEX,
                         "index 4 is out of bounds for axis 1 with size 4 (put_along_axis: nothing was written)");
    int64_t vs[1] = {2};
    usmarr_array_t *v2 = iota_i32(ctx, 1, vs);
    ck_assert_fails_with(usmarr_put_along_axis(a, ind, v2, 1, USMARR_INDEX_MODE_WRAP), USMARR_ERROR_SHAPE_MISMATCH,
                         "values of shape (2,) do not broadcast to the selection (3, 1)");
    ck_assert_ok(usmarr_array_broadcast_to(a, 2, s, &ro));
    ck_assert_fails_with(usmarr_put_along_axis(ro, ind, v, 1, USMARR_INDEX_MODE_WRAP), USMARR_ERROR_READ_ONLY, "a");
    back_i32(a, after);
    ck_assert_mem_eq(before, after, sizeof before);
    usmarr_array_release(ro);
    usmarr_array_release(v2);
    usmarr_array_release(ind);
    usmarr_array_release(v);
    usmarr_array_release(a);
    usmarr_context_release(ctx);
}
END_TEST

Suite *suite_getitem(void)
{
    Suite *s = suite_create("getitem");
    TCase *tc = tcase_create("getitem");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_getitem_parse_index_arrays);
    tcase_add_test(tc, test_getitem_items_and_text_agree);
    tcase_add_test(tc, test_getitem_out_of_range_names_array_item_and_bound);
    tcase_add_test(tc, test_getitem_argument_errors);
    tcase_add_test(tc, test_getitem_large_gather_and_scatter_against_host_loops);
    tcase_add_test(tc, test_getitem_setitem_reads_overlapping_inputs_first);
    tcase_add_test(tc, test_getitem_zero_strides);
    tcase_add_test(tc, test_getitem_basic_assignment_drops_leading_unit_axes);
    tcase_add_test(tc, test_getitem_whole_mask_with_and_without_out);
    tcase_add_test(tc, test_getitem_other_context_is_rejected);
    tcase_add_test(tc, test_getitem_put_along_axis_errors);
    suite_add_tcase(s, tc);
    return s;
}
