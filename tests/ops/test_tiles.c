/* Scans, compaction, sorts, searches and products over many tiles (doc/gpu.md): sizes that
 * span many of the gpu shape's 2048-element tiles and chunks, and several of the CPU
 * shapes' blocks, against host loops.  Every device and mode runs them, the NVIDIA
 * stand-in (SVM + the gpu shape) included. */
#include "../harness/common.h"

#include <math.h>
#include <stdlib.h>

#define N 100003 /* 49 tiles of 2048 and a partial one */

static usmarr_array_t *from(usmarr_context_t *ctx, usmarr_dtype_t dt, int nd, const int64_t *shape, const void *data)
{
    usmarr_array_t *a = NULL;
    ck_assert_ok(usmarr_array_from_host(ctx, nd, shape, dt, data, NULL, USMARR_USM_DEVICE, &a));
    return a;
}

static void *host(const usmarr_array_t *a, size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    ck_assert_ok(usmarr_array_copy_to_host(a, p, NULL));
    return p;
}

/* cumulative_sum of int32 along a long line, along axis 1 and axis 0 of (3, N), with
 * include_initial; cumulative_prod of float64 near 1 */
START_TEST(test_tiles_cumulative_lines_match_host_loops)
{
    usmarr_context_t *ctx = test_shared_context();
    int32_t *x = malloc(3 * N * sizeof *x);
    srand(11);
    for (int64_t i = 0; i < 3 * N; i++)
        x[i] = rand() % 2001 - 1000;
    int64_t shape[2] = {3, N}, flat = 3 * N;
    usmarr_array_t *a = from(ctx, USMARR_INT32, 2, shape, x), *line = from(ctx, USMARR_INT32, 1, &flat, x), *r;
    ck_assert_ok(usmarr_cumulative_sum(line, NULL, NULL, &r));
    int64_t *g = host(r, (size_t)flat * 8), s = 0;
    for (int64_t i = 0; i < flat; i++) {
        s += x[i];
        ck_assert_msg(g[i] == s, "flat [%lld]: %lld, host %lld", (long long)i, (long long)g[i], (long long)s);
    }
    free(g);
    usmarr_array_release(r);
    for (int axis = 0; axis < 2; axis++) {
        ck_assert_ok(usmarr_cumulative(USMARR_CUMULATIVE_SUM, a, &axis, true, NULL, &r));
        int64_t rows = axis ? 3 : 4, cols = axis ? N + 1 : N;
        ck_assert_int_eq(usmarr_array_shape(r)[0], rows);
        ck_assert_int_eq(usmarr_array_shape(r)[1], cols);
        g = host(r, (size_t)(rows * cols) * 8);
        int64_t *run = calloc(N, sizeof *run); /* axis 0: each column's sum so far */
        for (int64_t i = 0; i < rows; i++) {
            int64_t along = 0; /* axis 1: the row's sum so far */
            for (int64_t j = 0; j < cols; j++) {
                int64_t want = axis ? along : run[j];
                ck_assert_msg(g[i * cols + j] == want, "axis %d [%lld, %lld]: %lld, host %lld", axis, (long long)i,
                              (long long)j, (long long)g[i * cols + j], (long long)want);
                if (axis && j < N)
                    along += x[i * N + j];
                else if (!axis && i < 3)
                    run[j] += x[i * N + j];
            }
        }
        free(run);
        free(g);
        usmarr_array_release(r);
    }
    double *d = malloc(N * sizeof *d);
    for (int64_t i = 0; i < N; i++)
        d[i] = 1 + (double)(x[i] % 7) * 1e-6;
    int64_t n = N;
    usmarr_array_t *b = from(ctx, USMARR_FLOAT64, 1, &n, d);
    ck_assert_ok(usmarr_cumulative_prod(b, NULL, false, NULL, &r));
    double *gp = host(r, N * 8), p = 1;
    for (int64_t i = 0; i < N; i++) {
        p *= d[i];
        ck_assert_msg(fabs(gp[i] - p) <= 1e-12 * p, "prod [%lld]: %.17g, host %.17g", (long long)i, gp[i], p);
    }
    free(gp);
    free(d);
    usmarr_array_release(r);
    usmarr_array_release(b);
    usmarr_array_release(a);
    usmarr_array_release(line);
    free(x);
    usmarr_context_release(ctx);
}
END_TEST

/* extract, nonzero and place over a random mask of N elements, in order */
START_TEST(test_tiles_masks_keep_the_order_across_chunks)
{
    usmarr_context_t *ctx = test_shared_context();
    float *x = malloc(N * sizeof *x);
    unsigned char *m = malloc(N);
    srand(12);
    int64_t count = 0, n = N;
    for (int64_t i = 0; i < N; i++) {
        x[i] = (float)i * 0.5f;
        m[i] = (i / 4096) % 5 == 3 ? 0 : rand() % 3 == 0; /* whole chunks without selections too */
        count += m[i];
    }
    usmarr_array_t *a = from(ctx, USMARR_FLOAT32, 1, &n, x), *mask = from(ctx, USMARR_BOOL, 1, &n, m), *r, *idx[1];
    ck_assert_ok(usmarr_extract(mask, a, &r));
    ck_assert_int_eq(usmarr_array_shape(r)[0], count);
    float *e = host(r, (size_t)count * 4);
    ck_assert_ok(usmarr_nonzero(mask, idx));
    int64_t *nz = host(idx[0], (size_t)count * 8);
    for (int64_t i = 0, k = 0; i < N; i++)
        if (m[i]) {
            ck_assert_msg(e[k] == x[i] && nz[k] == i, "selection %lld: %g at %lld, host %g at %lld", (long long)k,
                          e[k], (long long)nz[k], x[i], (long long)i);
            k++;
        }
    int64_t three = 3;
    float v[3] = {-1, -2, -3};
    usmarr_array_t *vals = from(ctx, USMARR_FLOAT32, 1, &three, v);
    ck_assert_ok(usmarr_place(a, mask, vals));
    float *placed = host(a, N * 4);
    for (int64_t i = 0, k = 0; i < N; i++)
        ck_assert(placed[i] == (m[i] ? v[k++ % 3] : x[i]));
    free(placed);
    free(e);
    free(nz);
    usmarr_array_release(vals);
    usmarr_array_release(idx[0]);
    usmarr_array_release(r);
    usmarr_array_release(a);
    usmarr_array_release(mask);
    free(x);
    free(m);
    usmarr_context_release(ctx);
}
END_TEST

static int cmp_i32(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return x < y ? -1 : x > y;
}

/* argsort (stable, ties), sort descending, unique_all, searchsorted both sides with a sorter */
START_TEST(test_tiles_sorts_sets_and_searches_match_host_loops)
{
    usmarr_context_t *ctx = test_shared_context();
    int32_t *x = malloc(N * sizeof *x), *ref = malloc(N * sizeof *ref);
    srand(13);
    for (int64_t i = 0; i < N; i++)
        ref[i] = x[i] = rand() % 3001 - 1500;
    qsort(ref, N, sizeof *ref, cmp_i32);
    int64_t n = N;
    usmarr_array_t *a = from(ctx, USMARR_INT32, 1, &n, x), *r, *vals, *first, *inv, *cnt;
    ck_assert_ok(usmarr_argsort(a, 0, false, NULL, &r));
    int64_t *ix = host(r, N * 8);
    for (int64_t i = 1; i < N; i++)
        ck_assert_msg(x[ix[i - 1]] < x[ix[i]] || (x[ix[i - 1]] == x[ix[i]] && ix[i - 1] < ix[i]),
                      "argsort [%lld]: not stable or not sorted", (long long)i);
    usmarr_array_release(r);
    ck_assert_ok(usmarr_sort(a, 0, true, NULL, &r));
    int32_t *sd = host(r, N * 4);
    for (int64_t i = 0; i < N; i++)
        ck_assert_int_eq(sd[i], ref[N - 1 - i]);
    usmarr_array_release(r);
    ck_assert_ok(usmarr_unique_all(a, &vals, &first, &inv, &cnt));
    int64_t u = usmarr_array_shape(vals)[0];
    int32_t *uv = host(vals, (size_t)u * 4);
    int64_t *uf = host(first, (size_t)u * 8), *ui = host(inv, N * 8), *uc = host(cnt, (size_t)u * 8), j = 0;
    for (int64_t i = 0; i < N; i++) {
        if (i == 0 || ref[i] != ref[i - 1]) {
            ck_assert_int_lt(j, u);
            ck_assert_int_eq(uv[j], ref[i]);
            int64_t c = 0, f = -1;
            for (int64_t k = 0; k < N; k++)
                if (x[k] == ref[i]) {
                    c++;
                    if (f < 0)
                        f = k;
                }
            ck_assert_int_eq(uc[j], c);
            ck_assert_int_eq(uf[j], f);
            j++;
        }
    }
    ck_assert_int_eq(j, u);
    for (int64_t i = 0; i < N; i++)
        ck_assert_int_eq(uv[ui[i]], x[i]);
    for (int side = 0; side < 2; side++) {
        usmarr_array_t *sorter;
        ck_assert_ok(usmarr_argsort(a, 0, false, NULL, &sorter));
        ck_assert_ok(usmarr_searchsorted(a, a, side ? USMARR_SIDE_RIGHT : USMARR_SIDE_LEFT, sorter, NULL, &r));
        int64_t *pos = host(r, N * 8);
        for (int64_t i = 0; i < N; i += 7) {
            int64_t lo = 0, hi = N;
            while (lo < hi) {
                int64_t mid = (lo + hi) / 2;
                if (side ? ref[mid] <= x[i] : ref[mid] < x[i])
                    lo = mid + 1;
                else
                    hi = mid;
            }
            ck_assert_msg(pos[i] == lo, "searchsorted side %d [%lld]: %lld, host %lld", side, (long long)i,
                          (long long)pos[i], (long long)lo);
        }
        free(pos);
        usmarr_array_release(r);
        usmarr_array_release(sorter);
    }
    free(uv);
    free(uf);
    free(ui);
    free(uc);
    free(sd);
    free(ix);
    usmarr_array_release(vals);
    usmarr_array_release(first);
    usmarr_array_release(inv);
    usmarr_array_release(cnt);
    usmarr_array_release(a);
    free(x);
    free(ref);
    usmarr_context_release(ctx);
}
END_TEST

/* matmul of sizes off the 128-blocks, float32 and int32 (exact) */
START_TEST(test_tiles_matmul_edges_match_host_loops)
{
    usmarr_context_t *ctx = test_shared_context();
    int64_t M = 131, K = 257, Nn = 190, sa[2] = {M, K}, sb[2] = {K, Nn};
    int32_t *A = malloc(M * K * 4), *B = malloc(K * Nn * 4);
    float *Af = malloc(M * K * 4), *Bf = malloc(K * Nn * 4);
    for (int64_t i = 0; i < M * K; i++)
        Af[i] = (float)(A[i] = (int32_t)(i * 7 % 13) - 6);
    for (int64_t i = 0; i < K * Nn; i++)
        Bf[i] = (float)(B[i] = (int32_t)(i * 5 % 11) - 5);
    usmarr_array_t *ai = from(ctx, USMARR_INT32, 2, sa, A), *bi = from(ctx, USMARR_INT32, 2, sb, B);
    usmarr_array_t *af = from(ctx, USMARR_FLOAT32, 2, sa, Af), *bf = from(ctx, USMARR_FLOAT32, 2, sb, Bf), *ri, *rf;
    ck_assert_ok(usmarr_matmul(ai, bi, NULL, &ri));
    ck_assert_ok(usmarr_matmul(af, bf, NULL, &rf));
    int32_t *ci = host(ri, M * Nn * 4);
    float *cf = host(rf, M * Nn * 4);
    for (int64_t i = 0; i < M; i++)
        for (int64_t j = 0; j < Nn; j++) {
            int32_t want = 0;
            for (int64_t k = 0; k < K; k++)
                want += A[i * K + k] * B[k * Nn + j];
            ck_assert_msg(ci[i * Nn + j] == want && cf[i * Nn + j] == (float)want, "[%lld, %lld]: %d and %g, host %d",
                          (long long)i, (long long)j, ci[i * Nn + j], cf[i * Nn + j], want);
        }
    free(ci);
    free(cf);
    free(A);
    free(B);
    free(Af);
    free(Bf);
    usmarr_array_release(ri);
    usmarr_array_release(rf);
    usmarr_array_release(ai);
    usmarr_array_release(bi);
    usmarr_array_release(af);
    usmarr_array_release(bf);
    usmarr_context_release(ctx);
}
END_TEST

Suite *suite_tiles(void)
{
    Suite *s = suite_create("tiles");
    TCase *tc = tcase_create("tiles");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_tiles_cumulative_lines_match_host_loops);
    tcase_add_test(tc, test_tiles_masks_keep_the_order_across_chunks);
    tcase_add_test(tc, test_tiles_sorts_sets_and_searches_match_host_loops);
    tcase_add_test(tc, test_tiles_matmul_edges_match_host_loops);
    suite_add_tcase(s, tc);
    return s;
}
