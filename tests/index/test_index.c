/* Index items and the NumPy index text parser: accepted forms, errors that point at the
 * column, a fuzz run, and the indexing errors that name the axis and the bound.  The
 * views themselves are checked against NumPy in test_view.c. */
#include "../harness/common.h"

#include <stdio.h>
#include <stdlib.h>

static usmarr_array_t *make_i32(usmarr_context_t *ctx, int nd, const int64_t *shape)
{
    usmarr_array_options_t o = USMARR_ARRAY_OPTIONS_INIT;
    o.context = ctx;
    o.ndim = nd;
    o.shape = shape;
    o.dtype = USMARR_INT32;
    usmarr_array_t *a;
    ck_assert_ok(usmarr_array_create(&o, &a));
    return a;
}

START_TEST(test_index_parse_accepts_numpy_forms)
{
    usmarr_index_item_t it[USMARR_MAX_INDEX_ITEMS];
    size_t n = 99;
    ck_assert_ok(usmarr_index_parse("1, ::-2, ..., None", it, USMARR_MAX_INDEX_ITEMS, &n));
    ck_assert_uint_eq(n, 4);
    ck_assert_int_eq(it[0].kind, USMARR_INDEX_INTEGER);
    ck_assert_int_eq(it[0].index, 1);
    ck_assert_int_eq(it[1].kind, USMARR_INDEX_SLICE);
    ck_assert(!it[1].has_start && !it[1].has_stop && it[1].has_step);
    ck_assert_int_eq(it[1].step, -2);
    ck_assert_int_eq(it[2].kind, USMARR_INDEX_ELLIPSIS);
    ck_assert_int_eq(it[3].kind, USMARR_INDEX_NEWAXIS);

    ck_assert_ok(usmarr_index_parse("  -3 : +7,np.newaxis ,newaxis,:,3:,:-1,::,- 4,", it, 16, &n));
    ck_assert_uint_eq(n, 8);
    ck_assert(it[0].kind == USMARR_INDEX_SLICE && it[0].has_start && it[0].has_stop && !it[0].has_step);
    ck_assert_int_eq(it[0].start, -3);
    ck_assert_int_eq(it[0].stop, 7);
    ck_assert_int_eq(it[1].kind, USMARR_INDEX_NEWAXIS);
    ck_assert_int_eq(it[2].kind, USMARR_INDEX_NEWAXIS);
    ck_assert(it[3].kind == USMARR_INDEX_SLICE && !it[3].has_start && !it[3].has_stop && !it[3].has_step);
    ck_assert(it[4].has_start && !it[4].has_stop);
    ck_assert(!it[5].has_start && it[5].has_stop && it[5].stop == -1);
    ck_assert(it[6].kind == USMARR_INDEX_SLICE && !it[6].has_step);
    ck_assert(it[7].kind == USMARR_INDEX_INTEGER && it[7].index == -4);

    ck_assert_ok(usmarr_index_parse("-9223372036854775808:9223372036854775807", it, 4, &n));
    ck_assert_int_eq(it[0].start, INT64_MIN);
    ck_assert_int_eq(it[0].stop, INT64_MAX);
    ck_assert_ok(usmarr_index_parse("", it, 0, &n));
    ck_assert_uint_eq(n, 0);
    ck_assert_ok(usmarr_index_parse(" \t\n", it, 0, &n));
    ck_assert_uint_eq(n, 0);
    ck_assert_ok(usmarr_index_parse("numpy.newaxis,None", it, 2, &n));
    ck_assert_uint_eq(n, 2);
}
END_TEST

static const struct {
    const char *text;
    const char *detail; /* must appear in the detail */
} bad_texts[] = {
    {"1, ::x", "column 6: expected ',' or the end, found 'x'"},
    {"1,,2", "column 3: expected an integer, a slice, '...', 'None', 'newaxis' or '@N', found ','"},
    {",", "column 1: expected an integer"},
    {"1 2", "column 3: expected ',' or the end, found '2'"},
    {"::0", "column 3: the slice step must not be zero, found '0'"},
    {"1:2:3:4", "column 6: expected at most two ':' in a slice"},
    {"..., ...", "column 6: expected at most one '...' in an index"},
    {"9223372036854775808", "column 1: the integer does not fit in 64 bits"},
    {"-9223372036854775809", "column 1: the integer does not fit in 64 bits"},
    {"12abc", "column 3: expected the integer to end, found 'a'"},
    {"-", "column 2: expected digits after the sign, found the end"},
    {"- :", "column 3: expected digits after the sign, found ':'"},
    {"Nonesuch", "column 1: expected an integer"},
    {"None.x", "column 5: expected ',' or the end, found '.'"},
    {"..", "column 1: expected an integer"},
    {"1\x01", "column 2: expected ',' or the end, found byte 0x01"},
    {"[1]", "column 1: expected an integer"},
    {"1.5", "column 2: expected ',' or the end, found '.'"},
};

START_TEST(test_index_parse_errors_point_at_the_column)
{
    usmarr_index_item_t it[8];
    size_t n = 5;
    ck_assert_fails_with(usmarr_index_parse(bad_texts[_i].text, it, 8, &n), USMARR_ERROR_PARSE,
                         bad_texts[_i].detail);
    ck_assert_uint_eq(n, 0);
}
END_TEST

START_TEST(test_index_parse_argument_errors_and_capacity)
{
    usmarr_index_item_t it[2];
    size_t n;
    ck_assert_fails_with(usmarr_index_parse(NULL, it, 2, &n), USMARR_ERROR_INVALID_ARGUMENT, "text");
    ck_assert_fails_with(usmarr_index_parse("1", NULL, 2, &n), USMARR_ERROR_INVALID_ARGUMENT, "items");
    ck_assert_fails_with(usmarr_index_parse("1", it, 2, NULL), USMARR_ERROR_INVALID_ARGUMENT, "count");
    ck_assert_fails_with(usmarr_index_parse("1, 2, 3", it, 2, &n), USMARR_ERROR_PARSE,
                         "column 7: expected no more items");
    ck_assert_fails_with(usmarr_index_parse("1", it, 0, &n), USMARR_ERROR_PARSE, "capacity is 0");
    /* A long text is shown as a window around the column. */
    char text[400];
    memset(text, ' ', sizeof text);
    memcpy(text + 300, "1 x", 3);
    text[sizeof text - 1] = 0;
    ck_assert_fails_with(usmarr_index_parse(text, it, 2, &n), USMARR_ERROR_PARSE, "column 303:");
    ck_assert_ptr_nonnull(strstr(usmarr_last_error_detail(), "index \"..."));
}
END_TEST

/* Random bytes and random soups of the grammar's tokens: the parser must return 0 or
 * USMARR_ERROR_PARSE, never crash or read past the NUL (run under ASan to see the latter). */
START_TEST(test_index_parse_fuzz_never_crashes)
{
    static const char *const tokens[] = {"0", "1", "-2", "+3", "17", ":", "::", ",", " ", "...", "None", "newaxis",
                                         "np.", "-", "+", "9999999999999999999", "x", "\t", "(", ")", ".", "N",
                                         "-9223372036854775808", "00", "::-1", ", ", "@", "@0", "@12"};
    usmarr_index_item_t it[USMARR_MAX_INDEX_ITEMS];
    unsigned seed = 12345u + (unsigned)_i;
    int ok = 0, rejected = 0;
    for (int round = 0; round < 20000; round++) {
        char text[64];
        size_t len = 0;
        seed = seed * 1103515245u + 12345u;
        if (round % 2) {
            size_t want = (seed >> 16) % (sizeof text);
            for (; len < want; len++) {
                seed = seed * 1103515245u + 12345u;
                text[len] = (char)(1 + (seed >> 16) % 255);
            }
        } else {
            int ntok = (int)((seed >> 16) % 9);
            for (int t = 0; t < ntok; t++) {
                seed = seed * 1103515245u + 12345u;
                const char *tok = tokens[(seed >> 16) % (sizeof tokens / sizeof *tokens)];
                size_t tl = strlen(tok);
                if (len + tl >= sizeof text)
                    break;
                memcpy(text + len, tok, tl);
                len += tl;
            }
        }
        /* Exactly `len` bytes then NUL, in a heap block of that size: ASan sees any overread. */
        char *heap = malloc(len + 1);
        memcpy(heap, text, len);
        heap[len] = 0;
        size_t n = 77, cap = (seed >> 20) % 4 == 0 ? 2 : USMARR_MAX_INDEX_ITEMS;
        int rc = usmarr_index_parse(heap, it, cap, &n);
        ck_assert_msg(rc == 0 || rc == USMARR_ERROR_PARSE, "\"%s\" gave %s", heap, usmarr_error_name(rc));
        if (rc == 0) {
            ok++;
            ck_assert_uint_le(n, cap);
            int ellipses = 0;
            for (size_t i = 0; i < n; i++) {
                ck_assert_int_le((int)it[i].kind, USMARR_INDEX_ARRAY);
                ck_assert(it[i].kind != USMARR_INDEX_ARRAY || it[i].index >= 0);
                ellipses += it[i].kind == USMARR_INDEX_ELLIPSIS;
                ck_assert(!(it[i].kind == USMARR_INDEX_SLICE && it[i].has_step && it[i].step == 0));
            }
            ck_assert_int_le(ellipses, 1);
        } else {
            rejected++;
            ck_assert_uint_eq(n, 0);
            ck_assert_ptr_nonnull(strstr(usmarr_last_error_detail(), "column "));
        }
        free(heap);
    }
    ck_assert_int_gt(ok, 100);
    ck_assert_int_gt(rejected, 100);
}
END_TEST

START_TEST(test_index_items_from_c_match_the_text_form)
{
    usmarr_context_t *ctx = test_context();
    int64_t shape[3] = {4, 5, 6};
    usmarr_array_t *a = make_i32(ctx, 3, shape), *v1, *v2;
    int64_t one = 1, minus_two = -2, four = 4;
    usmarr_index_item_t items[4] = {usmarr_index_slice(&one, NULL, NULL), usmarr_index_newaxis(),
                                    usmarr_index_ellipsis(), usmarr_index_slice(&four, &one, &minus_two)};
    ck_assert_ok(usmarr_array_index(a, items, 4, &v1));
    ck_assert_ok(usmarr_array_index_text(a, "1:, None, ..., 4:1:-2", &v2));
    ck_assert_int_eq(usmarr_array_ndim(v1), usmarr_array_ndim(v2));
    ck_assert_int_eq(usmarr_array_offset(v1), usmarr_array_offset(v2));
    for (int k = 0; k < usmarr_array_ndim(v1); k++) {
        ck_assert_int_eq(usmarr_array_shape(v1)[k], usmarr_array_shape(v2)[k]);
        ck_assert_int_eq(usmarr_array_strides(v1)[k], usmarr_array_strides(v2)[k]);
    }
    /* NumPy: a[1:, None, ..., 4:1:-2].shape == (3, 1, 5, 2), strides (30, 0, 6, -2), offset 34 */
    ck_assert_int_eq(usmarr_array_shape(v1)[0], 3);
    ck_assert_int_eq(usmarr_array_shape(v1)[3], 2);
    ck_assert_int_eq(usmarr_array_strides(v1)[3], -2);
    ck_assert_int_eq(usmarr_array_offset(v1), 34);
    usmarr_array_release(v1);
    usmarr_array_release(v2);
    usmarr_index_item_t i7 = usmarr_index_integer(-7);
    ck_assert_int_eq(i7.kind, USMARR_INDEX_INTEGER);
    ck_assert_int_eq(i7.index, -7);
    /* Empty index: the whole array, a new view. */
    ck_assert_ok(usmarr_array_index(a, NULL, 0, &v1));
    ck_assert_ptr_ne(v1, a);
    ck_assert_int_eq(usmarr_array_ndim(v1), 3);
    usmarr_array_release(v1);
    usmarr_array_release(a);
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_index_errors_name_axis_and_bound)
{
    usmarr_context_t *ctx = test_context();
    int64_t shape[2] = {3, 4};
    usmarr_array_t *a = make_i32(ctx, 2, shape), *v = NULL;
    ck_assert_fails_with(usmarr_array_index_text(a, "1, 4", &v), USMARR_ERROR_INDEX,
                         "index 4 is out of bounds for axis 1 with size 4");
    ck_assert_fails_with(usmarr_array_index_text(a, "-4", &v), USMARR_ERROR_INDEX,
                         "index -4 is out of bounds for axis 0 with size 3");
    ck_assert_fails_with(usmarr_array_index_text(a, "None, ..., 7", &v), USMARR_ERROR_INDEX,
                         "index 7 is out of bounds for axis 1 with size 4");
    ck_assert_fails_with(usmarr_array_index_text(a, "0, 0, 0", &v), USMARR_ERROR_INDEX,
                         "too many indices for array: array is 2-dimensional, but 3 were indexed");
    ck_assert_fails_with(usmarr_array_index_text(a, "0, ::0", &v), USMARR_ERROR_PARSE, "must not be zero");
    ck_assert_fails_with(usmarr_array_index_text(a, "0,, 1", &v), USMARR_ERROR_PARSE, "column 3");
    ck_assert_fails_with(usmarr_array_index_text(a, NULL, &v), USMARR_ERROR_INVALID_ARGUMENT, "text");
    ck_assert_fails_with(usmarr_array_index_text(NULL, "1", &v), USMARR_ERROR_INVALID_ARGUMENT, "array");
    ck_assert_fails_with(usmarr_array_index_text(a, "1", NULL), USMARR_ERROR_INVALID_ARGUMENT, "view");
    usmarr_index_item_t items[3] = {usmarr_index_ellipsis(), usmarr_index_integer(0), usmarr_index_ellipsis()};
    ck_assert_fails_with(usmarr_array_index(a, items, 3, &v), USMARR_ERROR_INVALID_ARGUMENT,
                         "items[2]: an index can have only one ellipsis");
    int64_t zero = 0;
    items[0] = usmarr_index_slice(NULL, NULL, &zero);
    ck_assert_fails_with(usmarr_array_index(a, items, 1, &v), USMARR_ERROR_INVALID_ARGUMENT,
                         "items[0]: the slice step must not be zero");
    items[0].kind = (usmarr_index_kind_t)9;
    ck_assert_fails_with(usmarr_array_index(a, items, 1, &v), USMARR_ERROR_INVALID_ARGUMENT, "items[0].kind=9");
    ck_assert_fails_with(usmarr_array_index(a, NULL, 1, &v), USMARR_ERROR_INVALID_ARGUMENT, "items is NULL");
    ck_assert_fails_with(usmarr_array_index(a, items, USMARR_MAX_INDEX_ITEMS + 1, &v), USMARR_ERROR_INVALID_ARGUMENT,
                         "exceeds USMARR_MAX_INDEX_ITEMS");
    ck_assert_fails_with(usmarr_array_index(NULL, items, 1, &v), USMARR_ERROR_INVALID_ARGUMENT, "array");
    ck_assert_fails_with(usmarr_array_index(a, items, 1, NULL), USMARR_ERROR_INVALID_ARGUMENT, "view");
    ck_assert_ptr_null(v);
    /* The failures left the array untouched. */
    ck_assert_int_eq(usmarr_array_ndim(a), 2);
    ck_assert_int_eq(usmarr_memory_refcount(usmarr_array_memory(a)), 1);
    usmarr_array_release(a);
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_index_read_only_and_immutable_are_inherited)
{
    usmarr_context_t *ctx = test_context();
    int64_t shape[2] = {3, 4};
    usmarr_array_options_t o = USMARR_ARRAY_OPTIONS_INIT;
    o.context = ctx;
    o.ndim = 2;
    o.shape = shape;
    o.dtype = USMARR_INT32;
    o.immutable = true;
    usmarr_array_t *a, *v, *w;
    ck_assert_ok(usmarr_array_create(&o, &a));
    ck_assert_ok(usmarr_array_index_text(a, "::-1, 2", &v));
    ck_assert_uint_eq(usmarr_array_flags(v) & USMARR_FLAG_WRITABLE, 0);
    ck_assert_uint_ne(usmarr_array_flags(v) & USMARR_FLAG_IMMUTABLE, 0);
    ck_assert_ok(usmarr_array_transpose(v, &w));
    ck_assert_uint_ne(usmarr_array_flags(w) & USMARR_FLAG_IMMUTABLE, 0);
    usmarr_array_release(w);
    usmarr_array_release(v);
    usmarr_array_release(a);
    usmarr_context_release(ctx);
}
END_TEST

Suite *suite_index(void)
{
    Suite *s = suite_create("index");
    TCase *tc = tcase_create("parser");
    tcase_add_test(tc, test_index_parse_accepts_numpy_forms);
    tcase_add_loop_test(tc, test_index_parse_errors_point_at_the_column, 0,
                        (int)(sizeof bad_texts / sizeof *bad_texts));
    tcase_add_test(tc, test_index_parse_argument_errors_and_capacity);
    tcase_add_loop_test(tc, test_index_parse_fuzz_never_crashes, 0, 2);
    suite_add_tcase(s, tc);
    tc = tcase_create("indexing");
    tcase_add_test(tc, test_index_items_from_c_match_the_text_form);
    tcase_add_test(tc, test_index_errors_name_axis_and_bound);
    tcase_add_test(tc, test_index_read_only_and_immutable_are_inherited);
    suite_add_tcase(s, tc);
    return s;
}
