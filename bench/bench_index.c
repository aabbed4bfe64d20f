/* Benchmarks of the indexing operations against NumPy in the same run:
 *   take     1M random indices (raise mode, NumPy's default) from 16M float32
 *   extract  16M float32 with a 50% random mask
 *   concat   four 4M-element float32 arrays
 * Each prints a table row and one machine-readable line
 *   bench: <case> ratio=<numpy time / library time> bar=1.0 met|missed
 * Times are the best of repeated runs after a warm-up (kernels compiled): on a shared,
 * loaded machine the minimum is the stable statistic; the median is printed too.  Library
 * times include waiting for the device (usmarr_context_finish) and, like NumPy's, the
 * allocation of the result.  NumPy runs in a
 * child process ($PYTHON_NUMPY, default /usr/bin/python3) with the same sizes.
 * Usage: bench_index [repeats]   (USMARR_DEVICE selects the device) */
#include <usmarr.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define N_SRC (16 * 1024 * 1024)
#define N_IDX (1024 * 1024)
#define N_PART (4 * 1024 * 1024)

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void check(int rc, const char *what)
{
    if (rc) {
        fprintf(stderr, "bench_index: %s: %s: %s\n", what, usmarr_error_name(rc), usmarr_last_error_detail());
        exit(1);
    }
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void best_and_median(double *t, int n, double *best, double *med)
{
    qsort(t, (size_t)n, sizeof *t, cmp_double);
    *best = t[0];
    *med = t[n / 2];
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint64_t rng(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

/* NumPy's best and median times, in the order take, extract, concat (seconds). */
static int numpy_times(int repeats, double best[3], double med[3])
{
    const char *py = getenv("PYTHON_NUMPY");
    if (!py || !*py)
        py = "/usr/bin/python3";
    char cmd[4096];
    snprintf(cmd, sizeof cmd,
             "%s -c '\n"
             "import numpy as np, time\n"
             "rng = np.random.default_rng(1)\n"
             "src = rng.random(%d, dtype=np.float32); idx = rng.integers(0, src.size, %d)\n"
             "mask = rng.random(src.size) < 0.5\n"
             "parts = [rng.random(%d, dtype=np.float32) for _ in range(4)]\n"
             "def med(f):\n"
             "    f()\n"
             "    ts = []\n"
             "    for _ in range(%d):\n"
             "        t = time.perf_counter(); f(); ts.append(time.perf_counter() - t)\n"
             "    ts.sort()\n"
             "    return \"%%r %%r\" %% (ts[0], ts[len(ts) // 2])\n"
             "print(med(lambda: np.take(src, idx)), med(lambda: np.extract(mask, src)),\n"
             "      med(lambda: np.concatenate(parts)))\n"
             "'",
             py, N_SRC, N_IDX, N_PART, repeats);
    FILE *p = popen(cmd, "r");
    if (!p)
        return -1;
    int n = fscanf(p, "%lf %lf %lf %lf %lf %lf", &best[0], &med[0], &best[1], &med[1], &best[2], &med[2]);
    int status = pclose(p);
    return n == 6 && status == 0 ? 0 : -1;
}

static void report(const char *name, const char *what, double ours, double ours_med, double numpy, double numpy_med)
{
    double ratio = numpy / ours;
    printf("%-8s %-42s %8.2f ms %8.2f ms %6.2fx   (medians %.2f / %.2f ms)\n", name, what, ours * 1e3, numpy * 1e3,
           ratio, ours_med * 1e3, numpy_med * 1e3);
    printf("bench: %s ratio=%.2f bar=1.0 %s\n", name, ratio, ratio >= 1.0 ? "met" : "missed");
}

int main(int argc, char **argv)
{
    int repeats = argc > 1 ? atoi(argv[1]) : 11;
    if (repeats < 1)
        repeats = 1;
    usmarr_context_t *ctx;
    check(usmarr_context_create(NULL, &ctx), "context");
    const usmarr_device_info_t *info = usmarr_context_info(ctx);
    printf("bench_index on %s (%s), %d repeats\n", info->device_name, info->selector, repeats);

    float *host = malloc(sizeof(float) * N_SRC);
    int64_t *hidx = malloc(sizeof(int64_t) * N_IDX);
    uint8_t *hmask = malloc(N_SRC);
    for (int64_t i = 0; i < N_SRC; i++) {
        host[i] = (float)(rng() >> 40) / (float)(1 << 24);
        hmask[i] = (uint8_t)(rng() >> 63);
    }
    for (int64_t i = 0; i < N_IDX; i++)
        hidx[i] = (int64_t)(rng() % N_SRC);
    int64_t nsrc = N_SRC, nidx = N_IDX, npart = N_PART;
    usmarr_array_t *src, *idx, *mask, *parts[4];
    check(usmarr_array_from_host(ctx, 1, &nsrc, USMARR_FLOAT32, host, NULL, USMARR_USM_DEVICE, &src), "src");
    check(usmarr_array_from_host(ctx, 1, &nidx, USMARR_INT64, hidx, NULL, USMARR_USM_DEVICE, &idx), "idx");
    check(usmarr_array_from_host(ctx, 1, &nsrc, USMARR_BOOL, hmask, NULL, USMARR_USM_DEVICE, &mask), "mask");
    for (int k = 0; k < 4; k++)
        check(usmarr_array_from_host(ctx, 1, &npart, USMARR_FLOAT32, host + k * N_PART, NULL, USMARR_USM_DEVICE,
                                     &parts[k]),
              "part");
    free(host);
    free(hidx);
    free(hmask);

    double *t = malloc(sizeof(double) * (size_t)repeats), ours[3], ours_med[3];
    for (int c = 0; c < 3; c++) {
        for (int r = -1; r < repeats; r++) { /* r == -1: warm-up */
            usmarr_array_t *res = NULL;
            double t0 = now();
            if (c == 0)
                check(usmarr_take(src, idx, 0, USMARR_INDEX_MODE_RAISE, NULL, &res), "take");
            else if (c == 1)
                check(usmarr_extract(mask, src, &res), "extract");
            else
                check(usmarr_concat(4, (const usmarr_array_t *const *)parts, 0, NULL, &res), "concat");
            check(usmarr_context_finish(ctx), "finish");
            double dt = now() - t0;
            if (r >= 0)
                t[r] = dt;
            usmarr_array_release(res);
        }
        best_and_median(t, repeats, &ours[c], &ours_med[c]);
    }
    double np[3], np_med[3];
    if (numpy_times(repeats, np, np_med)) {
        fprintf(stderr, "bench_index: NumPy run failed (PYTHON_NUMPY=%s)\n", getenv("PYTHON_NUMPY"));
        return 1;
    }
    printf("%-8s %-42s %11s %11s %7s   (best of %d)\n", "case", "what", "usmarr", "NumPy", "ratio", repeats);
    report("take", "1M random int64 indices from 16M float32", ours[0], ours_med[0], np[0], np_med[0]);
    report("extract", "16M float32, 50% random bool mask", ours[1], ours_med[1], np[1], np_med[1]);
    report("concat", "four 4M float32 arrays", ours[2], ours_med[2], np[2], np_med[2]);
    free(t);
    for (int k = 0; k < 4; k++)
        usmarr_array_release(parts[k]);
    usmarr_array_release(src);
    usmarr_array_release(idx);
    usmarr_array_release(mask);
    usmarr_context_release(ctx);
    return 0;
}
