/* Benchmarks of indexing, each against NumPy in the same run:
 *   take     1M random int64 indices (raise mode, NumPy's default) from 16M float32
 *   extract  16M float32 with a 50% random bool mask
 *   concat   four 4M-element float32 arrays
 *   getitem-rows  a[idx, 2:14]: 1M random int64 row indices into a (4M, 16) float32
 * Library times include the result's allocation (NumPy's include its own) and waiting for
 * the device.  NumPy: bench/numpy_index.py, the same sizes, medians of the same count. */
#include "bench.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define N_SRC (16 * 1024 * 1024)
#define N_IDX (1024 * 1024)
#define N_PART (4 * 1024 * 1024)
#define N_ROWS (4 * 1024 * 1024)

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint64_t rng(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

enum which { TAKE, EXTRACT, CONCAT, GETITEM_ROWS };

/* One operation producing a new array, then a finish. */
static int once(const struct bench_env *env, enum which w, usmarr_array_t *const *in)
{
    usmarr_array_t *r = NULL;
    if (w == TAKE)
        BENCH_OK(usmarr_take(in[0], in[1], 0, USMARR_INDEX_MODE_RAISE, NULL, &r));
    else if (w == EXTRACT)
        BENCH_OK(usmarr_extract(in[1], in[0], &r));
    else if (w == GETITEM_ROWS)
        BENCH_OK(usmarr_array_getitem_text(in[0], "@0, 2:14", (const usmarr_array_t *const *)&in[1], 1, NULL, &r));
    else
        BENCH_OK(usmarr_concat(4, (const usmarr_array_t *const *)in, 0, NULL, &r));
    BENCH_OK(usmarr_context_finish(env->ctx));
    usmarr_array_release(r);
    return 0;
}

static int run_case(const struct bench_env *env, enum which w, struct bench_result *res)
{
    usmarr_array_t *in[4] = {NULL, NULL, NULL, NULL};
    int64_t nsrc = N_SRC, nidx = N_IDX, npart = N_PART;
    int rc = 0;
    if (w == CONCAT) {
        float *h = malloc(sizeof(float) * N_PART);
        for (int k = 0; k < 4 && !rc; k++) {
            for (int64_t i = 0; i < N_PART; i++)
                h[i] = (float)(rng() >> 40);
            rc = usmarr_array_from_host(env->ctx, 1, &npart, USMARR_FLOAT32, h, NULL, USMARR_USM_DEVICE, &in[k]);
        }
        free(h);
    } else if (w == GETITEM_ROWS) {
        int64_t shape[2] = {N_ROWS, 16};
        float *h = malloc(sizeof(float) * N_ROWS * 16);
        for (int64_t i = 0; i < (int64_t)N_ROWS * 16; i++)
            h[i] = (float)(rng() >> 40);
        rc = usmarr_array_from_host(env->ctx, 2, shape, USMARR_FLOAT32, h, NULL, USMARR_USM_DEVICE, &in[0]);
        free(h);
        int64_t *idx = malloc(sizeof(int64_t) * N_IDX);
        for (int64_t i = 0; i < N_IDX; i++)
            idx[i] = (int64_t)(rng() % N_ROWS);
        if (!rc)
            rc = usmarr_array_from_host(env->ctx, 1, &nidx, USMARR_INT64, idx, NULL, USMARR_USM_DEVICE, &in[1]);
        free(idx);
    } else {
        float *h = malloc(sizeof(float) * N_SRC);
        for (int64_t i = 0; i < N_SRC; i++)
            h[i] = (float)(rng() >> 40);
        rc = usmarr_array_from_host(env->ctx, 1, &nsrc, USMARR_FLOAT32, h, NULL, USMARR_USM_DEVICE, &in[0]);
        free(h);
        if (!rc && w == TAKE) {
            int64_t *idx = malloc(sizeof(int64_t) * N_IDX);
            for (int64_t i = 0; i < N_IDX; i++)
                idx[i] = (int64_t)(rng() % N_SRC);
            rc = usmarr_array_from_host(env->ctx, 1, &nidx, USMARR_INT64, idx, NULL, USMARR_USM_DEVICE, &in[1]);
            free(idx);
        } else if (!rc) {
            uint8_t *m = malloc(N_SRC);
            for (int64_t i = 0; i < N_SRC; i++)
                m[i] = (uint8_t)(rng() >> 63);
            rc = usmarr_array_from_host(env->ctx, 1, &nsrc, USMARR_BOOL, m, NULL, USMARR_USM_DEVICE, &in[1]);
            free(m);
        }
    }
    int n = env->repeat > 64 ? 64 : env->repeat;
    double t[64], lib = 0;
    if (!rc)
        rc = once(env, w, in); /* warm-up: kernels compiled or loaded */
    for (int i = 0; i < n && !rc; i++) {
        double t0 = bench_now();
        rc = once(env, w, in);
        t[i] = bench_now() - t0;
    }
    if (!rc)
        lib = bench_median(t, n);
    for (int k = 0; k < 4; k++)
        usmarr_array_release(in[k]);
    if (rc)
        return rc;
    static const char *const names[] = {"take", "extract", "concat", "getitem-rows"};
    return bench_numpy_ratio(env, "numpy_index.py", names[w], lib, n, res);
}

static int run_take(const struct bench_env *env, struct bench_result *r) { return run_case(env, TAKE, r); }
static int run_extract(const struct bench_env *env, struct bench_result *r) { return run_case(env, EXTRACT, r); }
static int run_concat(const struct bench_env *env, struct bench_result *r) { return run_case(env, CONCAT, r); }
static int run_getitem_rows(const struct bench_env *env, struct bench_result *r)
{
    return run_case(env, GETITEM_ROWS, r);
}

const struct bench_case bench_index[] = {
    {"take", "1M random int64 indices from 16M float32, raise mode (NumPy's np.take)", 1.0, BENCH_AT_LEAST, run_take},
    {"extract", "16M float32, 50% random bool mask (np.extract)", 1.0, BENCH_AT_LEAST, run_extract},
    {"concat", "four 4M float32 arrays (np.concatenate)", 1.0, BENCH_AT_LEAST, run_concat},
    {"getitem-rows", "a[idx, 2:14]: 1M random int64 rows of a (4M, 16) float32 (NumPy's fancy indexing)", 1.0,
     BENCH_AT_LEAST, run_getitem_rows},
    {NULL, NULL, 0, BENCH_AT_LEAST, NULL},
};
