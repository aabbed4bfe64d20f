/* Benchmarks of sorting and searching, each against NumPy in the same
 * run (bench/numpy_sort.py, the same sizes, medians of the same count):
 *   sort          16M random float32
 *   argsort       4M random float32, stable
 *   sort-rows     (4096, 1024) random float32 along the last axis
 *   searchsorted  1M random float32 keys into a sorted 16M float32
 *   unique        unique_values of 16M int32 drawn from 1000 values (np.unique)
 * Library times include the result's allocation (NumPy's include its own) and waiting for
 * the device. */
#include "bench.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static uint64_t rng_state = 0x243f6a8885a308d3ull;
static float rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (float)(rng_state >> 40) / (float)(1 << 24);
}

enum which { SORT, ARGSORT, SORT_ROWS, SEARCHSORTED, UNIQUE };
static const char *const names[] = {"sort", "argsort", "sort-rows", "searchsorted", "unique"};

static int once(const struct bench_env *env, enum which w, usmarr_array_t *const *in)
{
    usmarr_array_t *r = NULL;
    if (w == SORT || w == SORT_ROWS)
        BENCH_OK(usmarr_sort(in[0], -1, false, NULL, &r));
    else if (w == ARGSORT)
        BENCH_OK(usmarr_argsort(in[0], -1, false, NULL, &r));
    else if (w == UNIQUE)
        BENCH_OK(usmarr_unique_values(in[0], &r));
    else
        BENCH_OK(usmarr_searchsorted(in[0], in[1], USMARR_SIDE_LEFT, NULL, NULL, &r));
    BENCH_OK(usmarr_context_finish(env->ctx));
    usmarr_array_release(r);
    return 0;
}

static int from_random(const struct bench_env *env, int ndim, const int64_t *shape, usmarr_array_t **a)
{
    int64_t n = ndim == 1 ? shape[0] : shape[0] * shape[1];
    float *h = malloc(sizeof(float) * (size_t)n);
    if (!h)
        return -1;
    for (int64_t i = 0; i < n; i++)
        h[i] = rnd();
    int rc = usmarr_array_from_host(env->ctx, ndim, shape, USMARR_FLOAT32, h, NULL, USMARR_USM_DEVICE, a);
    free(h);
    return rc;
}

static int run_case(const struct bench_env *env, enum which w, struct bench_result *res)
{
    usmarr_array_t *in[2] = {NULL, NULL};
    int64_t big = 16 << 20, four = 4 << 20, keys = 1 << 20, rows[2] = {4096, 1024};
    int rc;
    if (w == SORT_ROWS) {
        rc = from_random(env, 2, rows, &in[0]);
    } else if (w == SEARCHSORTED) {
        usmarr_array_t *u = NULL;
        rc = from_random(env, 1, &big, &u);
        if (!rc)
            rc = usmarr_sort(u, 0, false, NULL, &in[0]);
        usmarr_array_release(u);
        if (!rc)
            rc = from_random(env, 1, &keys, &in[1]);
    } else if (w == UNIQUE) {
        int32_t *h = malloc(sizeof(int32_t) * (size_t)big);
        if (!h)
            return -1;
        for (int64_t i = 0; i < big; i++)
            h[i] = (int32_t)(rnd() * 1000.0f);
        rc = usmarr_array_from_host(env->ctx, 1, &big, USMARR_INT32, h, NULL, USMARR_USM_DEVICE, &in[0]);
        free(h);
    } else {
        rc = from_random(env, 1, w == SORT ? &big : &four, &in[0]);
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
    usmarr_array_release(in[0]);
    usmarr_array_release(in[1]);
    if (rc)
        return rc;
    return bench_numpy_ratio(env, "numpy_sort.py", names[w], lib, n, res);
}

static int run_sort(const struct bench_env *env, struct bench_result *r) { return run_case(env, SORT, r); }
static int run_argsort(const struct bench_env *env, struct bench_result *r) { return run_case(env, ARGSORT, r); }
static int run_sort_rows(const struct bench_env *env, struct bench_result *r) { return run_case(env, SORT_ROWS, r); }
static int run_unique(const struct bench_env *env, struct bench_result *r) { return run_case(env, UNIQUE, r); }
static int run_searchsorted(const struct bench_env *env, struct bench_result *r)
{
    return run_case(env, SEARCHSORTED, r);
}

const struct bench_case bench_sort[] = {
    {"sort", "16M random float32 (np.sort)", 1.0, BENCH_AT_LEAST, run_sort},
    {"argsort", "4M random float32, stable (np.argsort(kind=\"stable\"))", 1.0, BENCH_AT_LEAST, run_argsort},
    {"sort-rows", "(4096, 1024) random float32 along the last axis (np.sort(axis=-1))", 1.5, BENCH_AT_LEAST,
     run_sort_rows},
    {"searchsorted", "1M random float32 keys into a sorted 16M float32 (np.searchsorted)", 1.0, BENCH_AT_LEAST,
     run_searchsorted},
    {"unique-values", "unique_values of 16M int32 drawn from 1000 values (np.unique)", 1.0, BENCH_AT_LEAST, run_unique},
    {NULL, NULL, 0, BENCH_AT_LEAST, NULL},
};
