/* Iteration-space simplification (lib/engine/simplify.c, compiled into the runner) against an
 * oracle that enumerates every element's address tuple before and after. */
#include "../harness/common.h"

#include "../../lib/engine/engine_internal.h"

#include <stdlib.h>

/* All address tuples (one int64 per operand) of a space, sorted. */
static int64_t *tuples(const struct usmarr__iter *it, int64_t *count)
{
    int64_t n = 1;
    for (int d = 0; d < it->ndim; d++)
        n *= it->shape[d];
    int64_t *t = malloc(sizeof(int64_t) * (size_t)(n ? n : 1) * (size_t)it->nops);
    int64_t idx[USMARR_MAX_NDIM] = {0};
    for (int64_t e = 0; e < n; e++) {
        for (int k = 0; k < it->nops; k++) {
            int64_t a = it->offsets[k];
            for (int d = 0; d < it->ndim; d++)
                a += idx[d] * it->strides[k][d];
            t[e * it->nops + k] = a;
        }
        for (int d = it->ndim - 1; d >= 0; d--) {
            if (++idx[d] < it->shape[d])
                break;
            idx[d] = 0;
        }
    }
    *count = n;
    return t;
}

static int nops_for_sort;
static int cmp_tuple(const void *a, const void *b)
{
    const int64_t *x = a, *y = b;
    for (int k = 0; k < nops_for_sort; k++)
        if (x[k] != y[k])
            return x[k] < y[k] ? -1 : 1;
    return 0;
}

static void assert_same_space(const struct usmarr__iter *before, const struct usmarr__iter *after)
{
    int64_t n0, n1;
    int64_t *t0 = tuples(before, &n0), *t1 = tuples(after, &n1);
    ck_assert_int_eq(n0, n1);
    nops_for_sort = before->nops;
    qsort(t0, (size_t)n0, sizeof(int64_t) * (size_t)before->nops, cmp_tuple);
    qsort(t1, (size_t)n1, sizeof(int64_t) * (size_t)before->nops, cmp_tuple);
    ck_assert_msg(memcmp(t0, t1, sizeof(int64_t) * (size_t)n0 * (size_t)before->nops) == 0,
                  "address tuples differ after simplification");
    free(t0);
    free(t1);
}

static struct usmarr__iter make(int ndim, const int64_t *shape, int nops, const int64_t *strides /* [nops][ndim] */)
{
    struct usmarr__iter it;
    memset(&it, 0, sizeof it);
    it.ndim = ndim;
    it.nops = nops;
    for (int d = 0; d < ndim; d++)
        it.shape[d] = shape[d];
    for (int k = 0; k < nops; k++)
        for (int d = 0; d < ndim; d++)
            it.strides[k][d] = strides[k * ndim + d];
    return it;
}

START_TEST(test_simplify_c_contiguous_pair_merges_to_one_dim)
{
    int64_t shape[] = {3, 4, 5};
    int64_t st[] = {20, 5, 1, 20, 5, 1};
    struct usmarr__iter it = make(3, shape, 2, st), before = it;
    usmarr__simplify(&it);
    ck_assert_int_eq(it.ndim, 1);
    ck_assert_int_eq(it.shape[0], 60);
    ck_assert_int_eq(it.strides[0][0], 1);
    ck_assert_int_eq(it.strides[1][0], 1);
    assert_same_space(&before, &it);
}
END_TEST

START_TEST(test_simplify_orders_by_output_not_broadcast_input)
{
    /* Output F-contiguous (4,6); input broadcast along dim 0 with C-like stride. */
    int64_t shape[] = {4, 6};
    int64_t st[] = {1, 4, 0, 1};
    struct usmarr__iter it = make(2, shape, 2, st), before = it;
    usmarr__simplify(&it);
    ck_assert_int_eq(it.ndim, 2);
    ck_assert_int_eq(it.strides[0][1], 1); /* the output's fastest dim is innermost */
    ck_assert_int_eq(it.shape[1], 4);
    assert_same_space(&before, &it);
}
END_TEST

START_TEST(test_simplify_flips_all_negative_dims_and_moves_offsets)
{
    int64_t shape[] = {5, 7};
    int64_t st[] = {-7, -1, -7, -1};
    struct usmarr__iter it = make(2, shape, 2, st), before = it;
    usmarr__simplify(&it);
    ck_assert_int_eq(it.ndim, 1);
    ck_assert_int_eq(it.shape[0], 35);
    ck_assert_int_eq(it.strides[0][0], 1);
    ck_assert_int_eq(it.offsets[0], -34);
    assert_same_space(&before, &it);
}
END_TEST

START_TEST(test_simplify_mixed_signs_are_not_flipped)
{
    int64_t shape[] = {8};
    int64_t st[] = {-1, 1};
    struct usmarr__iter it = make(1, shape, 2, st), before = it;
    usmarr__simplify(&it);
    ck_assert_int_eq(it.strides[0][0], -1);
    ck_assert_int_eq(it.strides[1][0], 1);
    assert_same_space(&before, &it);
}
END_TEST

/* x[::-1] into a new array: the rows are read in address order, the output's written
 * backwards; not where another input reads the rows forwards, and never the inner dim. */
START_TEST(test_simplify_outer_dim_follows_the_inputs)
{
    int64_t shape[] = {5, 7};
    int64_t st[] = {7, 1, -7, 1};
    struct usmarr__iter it = make(2, shape, 2, st), before = it;
    usmarr__simplify(&it);
    ck_assert_int_eq(it.ndim, 2);
    ck_assert_int_eq(it.strides[0][0], -7);
    ck_assert_int_eq(it.strides[1][0], 7);
    ck_assert_int_eq(it.offsets[0], 28);
    ck_assert_int_eq(it.offsets[1], -28);
    assert_same_space(&before, &it);

    int64_t st3[] = {7, 1, -7, 1, 7, 1};
    struct usmarr__iter three = make(2, shape, 3, st3), before3 = three;
    usmarr__simplify(&three);
    ck_assert_int_eq(three.strides[0][0], 7);
    ck_assert_int_eq(three.offsets[0], 0);
    assert_same_space(&before3, &three);

    int64_t st1[] = {7, 1, -7, -1};
    struct usmarr__iter inner = make(2, shape, 2, st1), before1 = inner;
    usmarr__simplify(&inner);
    ck_assert_int_eq(inner.ndim, 1);
    ck_assert_int_eq(inner.strides[0][0], 1);
    ck_assert_int_eq(inner.strides[1][0], -1);
    assert_same_space(&before1, &inner);
}
END_TEST

START_TEST(test_simplify_drops_size_one_dims_and_zero_size_and_0d)
{
    int64_t shape[] = {1, 5, 1, 1};
    int64_t st[] = {99, 3, 7, -2, 0, 2, 1, 1};
    struct usmarr__iter it = make(4, shape, 2, st), before = it;
    usmarr__simplify(&it);
    ck_assert_int_eq(it.ndim, 1);
    ck_assert_int_eq(it.shape[0], 5);
    assert_same_space(&before, &it);

    int64_t zshape[] = {3, 0, 2};
    int64_t zst[] = {2, 2, 1};
    struct usmarr__iter z = make(3, zshape, 1, zst);
    usmarr__simplify(&z);
    ck_assert_int_eq(z.ndim, 1);
    ck_assert_int_eq(z.shape[0], 0);

    struct usmarr__iter one = make(0, NULL, 1, NULL), one_before = one;
    usmarr__simplify(&one);
    ck_assert_int_eq(one.ndim, 0);
    assert_same_space(&one_before, &one);
}
END_TEST

START_TEST(test_simplify_overlapping_layout_is_not_merged)
{
    /* shape (2,2,3) strides (5,4,1): not contiguous although the span is 12. */
    int64_t shape[] = {2, 2, 3};
    int64_t st[] = {5, 4, 1, 6, 3, 1};
    struct usmarr__iter it = make(3, shape, 2, st), before = it;
    usmarr__simplify(&it);
    ck_assert_int_ge(it.ndim, 2);
    assert_same_space(&before, &it);
}
END_TEST

/* Random spaces: random shapes up to 12 dims (few elements), permuted/flipped/sliced/
 * broadcast strides for up to 4 operands, compared with the oracle. */
START_TEST(test_simplify_random_spaces_preserve_address_tuples)
{
    unsigned seed = 12345;
    for (int trial = 0; trial < 400; trial++) {
        int ndim = (int)(rand_r(&seed) % 13);
        int nops = 1 + (int)(rand_r(&seed) % 4);
        int64_t shape[12], st[4 * 12];
        int64_t total = 1;
        for (int d = 0; d < ndim; d++) {
            shape[d] = total > 2000 ? 1 : 1 + (int64_t)(rand_r(&seed) % 4);
            total *= shape[d];
        }
        for (int k = 0; k < nops; k++) {
            int perm[12];
            for (int d = 0; d < ndim; d++)
                perm[d] = d;
            for (int d = ndim - 1; d > 0; d--) {
                int j = (int)(rand_r(&seed) % (unsigned)(d + 1)), t = perm[d];
                perm[d] = perm[j];
                perm[j] = t;
            }
            int64_t step = 1 + (int64_t)(rand_r(&seed) % 2);
            for (int i = ndim - 1; i >= 0; i--) {
                int d = perm[i];
                int kind = (int)(rand_r(&seed) % 8);
                st[k * ndim + d] = kind == 0 ? 0 : kind == 1 ? -step : step;
                step *= shape[d] + (int64_t)(rand_r(&seed) % 2);
            }
        }
        struct usmarr__iter it = make(ndim, shape, nops, st), before = it;
        usmarr__simplify(&it);
        ck_assert_int_le(it.ndim, ndim > 0 ? ndim : 0);
        for (int d = 0; d < it.ndim; d++)
            ck_assert_int_ne(it.shape[d], 1);
        assert_same_space(&before, &it);
    }
}
END_TEST

Suite *suite_simplify(void)
{
    Suite *s = suite_create("simplify");
    TCase *tc = tcase_create("simplify");
    tcase_add_test(tc, test_simplify_c_contiguous_pair_merges_to_one_dim);
    tcase_add_test(tc, test_simplify_orders_by_output_not_broadcast_input);
    tcase_add_test(tc, test_simplify_flips_all_negative_dims_and_moves_offsets);
    tcase_add_test(tc, test_simplify_mixed_signs_are_not_flipped);
    tcase_add_test(tc, test_simplify_outer_dim_follows_the_inputs);
    tcase_add_test(tc, test_simplify_drops_size_one_dims_and_zero_size_and_0d);
    tcase_add_test(tc, test_simplify_overlapping_layout_is_not_merged);
    tcase_add_test(tc, test_simplify_random_spaces_preserve_address_tuples);
    suite_add_tcase(s, tc);
    return s;
}
