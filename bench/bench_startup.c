/* Startup: a new user's first elementwise operation in a fresh process with empty caches
 * of its own, and the time scripts/setup.sh took on a fresh machine.  The warm-start
 * cases (10 distinct kernels cold and warm) are in bench_copy.c. */
#include "bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The bars differ per driver: PoCL's first use loads a binary its kernel compiler made
 * for this CPU; Intel's runtime reads a smaller one. */
static bool is_pocl(const struct bench_env *env)
{
    return strstr(usmarr_context_info(env->ctx)->platform_name, "Portable Computing Language") != NULL;
}

/* Child (`--child SEL first-add`): creates a context, two float64 arrays of 1000
 * elements, then times `a + a` with its finish, as a Python user's first `a + a`. */
int bench_first_use_child(const char *selector)
{
    double t0 = bench_now();
    usmarr_context_t *ctx;
    if (usmarr_context_create(selector, &ctx))
        return 1;
    double t1 = bench_now();
    int64_t n = 1000;
    usmarr_array_t *a = NULL, *r = NULL;
    if (usmarr_array_ones(ctx, 1, &n, USMARR_FLOAT64, USMARR_ORDER_C, USMARR_USM_DEVICE, &a) ||
        usmarr_context_finish(ctx))
        return 1;
    double t2 = bench_now();
    usmarr_operand_t ops[2] = {{.array = a}, {.array = a}};
    if (usmarr_elementwise("add", ops, 2, NULL, &r) || usmarr_context_finish(ctx))
        return 1;
    double t3 = bench_now();
    static double check[1000];
    if (usmarr_array_copy_to_host(r, check, NULL) || check[0] != 2.0 || check[999] != 2.0)
        return 1;
    usmarr_cache_stats_t stats;
    if (usmarr_cache_get_stats(&stats))
        return 1;
    printf("seconds=%.6f context=%.6f hits=%llu stores=%llu\n", t3 - t2, t1 - t0, (unsigned long long)stats.hits,
           (unsigned long long)stats.stores);
    usmarr_array_release(r);
    usmarr_array_release(a);
    usmarr_context_release(ctx);
    return 0;
}

static int run_first_add(const struct bench_env *env, struct bench_result *r)
{
    enum { RUNS = 5 };
    double t[RUNS], context[RUNS];
    unsigned long long hits = 0, stores = 0;
    for (int i = 0; i < RUNS; i++) {
        char usm[] = "/tmp/usmarr-bench-first-XXXXXX", pocl[] = "/tmp/usmarr-bench-pocl-XXXXXX";
        if (!mkdtemp(usm) || !mkdtemp(pocl))
            return 1;
        char cmd[4096];
        snprintf(cmd, sizeof cmd, "USMARR_CACHE=on USMARR_CACHE_DIR=%s POCL_CACHE_DIR=%s %s --child %s first-add", usm,
                 pocl, env->self, usmarr_context_info(env->ctx)->selector);
        FILE *p = popen(cmd, "r");
        char line[256];
        t[i] = -1;
        unsigned long long h = 0, s = 0;
        while (p && fgets(line, sizeof line, p))
            sscanf(line, "seconds=%lf context=%lf hits=%llu stores=%llu", &t[i], &context[i], &h, &s);
        if (p)
            pclose(p);
        hits += h;
        stores += s;
        snprintf(cmd, sizeof cmd, "rm -rf %s %s", usm, pocl);
        if (system(cmd) != 0 || t[i] < 0)
            return 1;
    }
    r->ratio = bench_median(t, RUNS) * 1e3;
    r->bar = is_pocl(env) ? 150 : 100;
    snprintf(r->detail, sizeof r->detail,
             "first float64 a + a (1000 elements) with its finish, fresh process, new USMARR_CACHE_DIR and "
             "POCL_CACHE_DIR: %.1f ms (median of %d); context creation %.1f ms; %llu binaries loaded, %llu "
             "compiled (the ratio is in ms)",
             r->ratio, RUNS, bench_median(context, RUNS) * 1e3, hits, stores);
    return 0;
}

/* scripts/setup.sh writes its last run's times to $USMARR_DEPS/setup-times (default
 * ~/.local/share/usmarr-deps), and those of its last run that installed the dependencies
 * (a fresh machine, "fresh 1") to setup-times-fresh too. */
static int run_setup(const struct bench_env *env, struct bench_result *r)
{
    (void)env;
    char path[4096];
    const char *deps = getenv("USMARR_DEPS"), *home = getenv("HOME");
    if (deps && *deps)
        snprintf(path, sizeof path, "%s/setup-times", deps);
    else
        snprintf(path, sizeof path, "%s/.local/share/usmarr-deps/setup-times", home ? home : "");
    char fresh_path[sizeof path + 8];
    snprintf(fresh_path, sizeof fresh_path, "%s-fresh", path);
    FILE *f = fopen(fresh_path, "r");
    if (!f)
        f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "bench: %s: no record of a setup run (scripts/setup.sh writes it)\n", path);
        return 1;
    }
    double total = -1, parts[4] = {-1, -1, -1, -1};
    int fresh = 0;
    char line[256];
    while (fgets(line, sizeof line, f)) {
        sscanf(line, "total %lf", &total);
        sscanf(line, "deps %lf", &parts[0]);
        sscanf(line, "build %lf", &parts[1]);
        sscanf(line, "install %lf", &parts[2]);
        sscanf(line, "demo %lf", &parts[3]);
        sscanf(line, "fresh %d", &fresh);
    }
    fclose(f);
    if (total < 0)
        return 1;
    r->ratio = total;
    char detail[sizeof r->detail];
    snprintf(detail, sizeof detail,
             "scripts/setup.sh's last run (%s): %.0f s: dependencies %.0f s, configure and build %.0f s, install "
             "and the common kernels %.0f s, demo %.0f s (the ratio is in seconds)",
             fresh ? "a fresh machine: the dependencies were installed" : "NOT fresh: the dependencies were there",
             total, parts[0], parts[1], parts[2], parts[3]);
    if (!fresh) { /* no figure for a fresh machine */
        fprintf(stderr, "bench: %s\n", detail);
        return 1;
    }
    memcpy(r->detail, detail, sizeof detail);
    return 0;
}

const struct bench_case bench_startup[] = {
    {"first-elementwise-ms", "fresh process, empty caches of its own: the first a + a in ms (PoCL bar 150)", 100,
     BENCH_AT_MOST, run_first_add},
    {"setup-fresh-s", "scripts/setup.sh on a fresh machine, seconds (from its record)", 240, BENCH_AT_MOST, run_setup},
    {NULL, NULL, 0, BENCH_AT_LEAST, NULL},
};
