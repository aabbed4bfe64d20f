/* searchsorted's lockstep kernel (cl/sort.cl, SS_KEYS keys per work-item) against a host
 * oracle (linear counts of the elements before each key): array lengths 1 to 1000 (odd,
 * powers of two and their neighbours), key counts around multiples of SS_KEYS (16), keys
 * below, between, on and above the elements with many ties, both sides, with and without
 * a sorter, and keys read with a stride. */
#include "../harness/common.h"

#include <stdlib.h>

/* Elements of a before `key` (left) or not after it (right). */
static int64_t position(const int32_t *sorted, int64_t n, int32_t key, bool right)
{
    int64_t p = 0;
    for (int64_t i = 0; i < n; i++)
        p += right ? sorted[i] <= key : sorted[i] < key;
    return p;
}

START_TEST(test_search_lengths_key_counts_sides_and_sorters)
{
    usmarr_context_t *ctx = test_context();
    const int64_t lengths[] = {1, 2, 3, 5, 16, 17, 31, 64, 1000};
    const int64_t counts[] = {1, 15, 16, 17, 33, 100};
    for (size_t l = 0; l < sizeof lengths / sizeof lengths[0]; l++) {
        int64_t n = lengths[l];
        /* ascending with ties (values step by 2, every third repeated); `rev` holds them
         * reversed, `perm` the sorter that reads `rev` in ascending order */
        int32_t *sorted = malloc(sizeof(int32_t) * (size_t)n), *rev = malloc(sizeof(int32_t) * (size_t)n);
        int64_t *perm = malloc(sizeof(int64_t) * (size_t)n);
        for (int64_t i = 0; i < n; i++)
            sorted[i] = (int32_t)(2 * (i - i / 3));
        for (int64_t i = 0; i < n; i++) {
            rev[i] = sorted[n - 1 - i];
            perm[i] = n - 1 - i;
        }
        usmarr_array_t *a, *ra, *sorter;
        ck_assert_ok(usmarr_array_from_host(ctx, 1, &n, USMARR_INT32, sorted, NULL, USMARR_USM_DEVICE, &a));
        ck_assert_ok(usmarr_array_from_host(ctx, 1, &n, USMARR_INT32, rev, NULL, USMARR_USM_DEVICE, &ra));
        ck_assert_ok(usmarr_array_from_host(ctx, 1, &n, USMARR_INT64, perm, NULL, USMARR_USM_DEVICE, &sorter));
        for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++) {
            int64_t m = counts[c], m2 = 2 * m;
            /* keys from below the first element to above the last, odd and even (between and
             * on the elements); every second one is the key, read with stride 2 */
            int32_t *keys = malloc(sizeof(int32_t) * (size_t)m2);
            int64_t *got = malloc(sizeof(int64_t) * (size_t)m);
            for (int64_t i = 0; i < m2; i++)
                keys[i] = (int32_t)((i / 2 * 7919 + 3 * c) % (2 * n + 5)) - 2;
            usmarr_array_t *kw, *kv, *pos;
            ck_assert_ok(usmarr_array_from_host(ctx, 1, &m2, USMARR_INT32, keys, NULL, USMARR_USM_DEVICE, &kw));
            usmarr_index_item_t every2 = usmarr_index_slice(NULL, NULL, &(int64_t){2});
            ck_assert_ok(usmarr_array_index(kw, &every2, 1, &kv));
            for (int side = 0; side < 2; side++)
                for (int with_sorter = 0; with_sorter < 2; with_sorter++) {
                    ck_assert_ok(usmarr_searchsorted(with_sorter ? ra : a, kv,
                                                     side ? USMARR_SIDE_RIGHT : USMARR_SIDE_LEFT,
                                                     with_sorter ? sorter : NULL, NULL, &pos));
                    ck_assert_ok(usmarr_array_copy_to_host(pos, got, NULL));
                    for (int64_t i = 0; i < m; i++) {
                        int64_t want = position(sorted, n, keys[2 * i], side);
                        ck_assert_msg(got[i] == want,
                                      "n=%lld, %lld keys, %s%s: key %lld (%d) went to %lld, not %lld", (long long)n,
                                      (long long)m, side ? "right" : "left", with_sorter ? ", sorter" : "",
                                      (long long)i, keys[2 * i], (long long)got[i], (long long)want);
                    }
                    usmarr_array_release(pos);
                }
            usmarr_array_release(kv);
            usmarr_array_release(kw);
            free(keys);
            free(got);
        }
        usmarr_array_release(sorter);
        usmarr_array_release(ra);
        usmarr_array_release(a);
        free(sorted);
        free(rev);
        free(perm);
    }
    usmarr_context_release(ctx);
}
END_TEST

Suite *suite_search(void);
Suite *suite_search(void)
{
    Suite *s = suite_create("search");
    const struct test_case_entry tests[] = {
        {"lockstep", test_search_lengths_key_counts_sides_and_sorters},
    };
    test_add_cases(s, tests, sizeof tests / sizeof tests[0]);
    return s;
}
