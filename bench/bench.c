/* The benchmark harness: runs every case of every bench_<name>.c (bench/bench.h), for
 * `usmarr bench` and bench/bench alike. */
#include "bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

double bench_median(double *samples, int n)
{
    qsort(samples, (size_t)n, sizeof *samples, cmp_double);
    return n % 2 ? samples[n / 2] : 0.5 * (samples[n / 2 - 1] + samples[n / 2]);
}

int bench_tiny_vs_raw(const struct bench_env *env, int (*op)(void *arg), void *arg, int count, int rounds, double *lib,
                      double *raw)
{
    cl_context clctx = usmarr_context_cl_context(env->ctx);
    cl_device_id dev = usmarr_context_device(env->ctx);
    cl_command_queue q = usmarr_context_queue(env->ctx);
    const char *src = "kernel void trivial(global float *p) { p[get_global_id(0)] = 1.0f; }";
    cl_int err;
    cl_program prog = clCreateProgramWithSource(clctx, 1, &src, NULL, &err);
    if (err || (err = clBuildProgram(prog, 1, &dev, "", NULL, NULL)))
        return bench_fail(err, "trivial kernel build");
    cl_kernel k = clCreateKernel(prog, "trivial", &err);
    cl_mem buf = clCreateBuffer(clctx, CL_MEM_READ_WRITE, 64, NULL, &err);
    clSetKernelArg(k, 0, sizeof buf, &buf);
    size_t global = 16;
    double *tl = malloc(2 * sizeof(double) * (size_t)rounds), *tr = tl + rounds;
    int rc = tl ? 0 : USMARR_ERROR_OUT_OF_HOST_MEMORY;
    for (int i = -(rounds / 40 > 1 ? rounds / 40 : 1); i < rounds && !rc; i++) {
        double t0 = bench_now();
        for (int j = 0; j < count && !rc; j++)
            rc = op(arg);
        if (!rc)
            rc = usmarr_context_finish(env->ctx);
        double t1 = bench_now();
        for (int j = 0; j < count; j++)
            clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL, NULL);
        clFinish(q);
        double t2 = bench_now();
        if (i >= 0) {
            tl[i] = t1 - t0;
            tr[i] = t2 - t1;
        }
    }
    clReleaseMemObject(buf);
    clReleaseKernel(k);
    clReleaseProgram(prog);
    if (!rc) {
        *lib = bench_median(tl, rounds);
        *raw = bench_median(tr, rounds);
    }
    free(tl);
    return rc ? bench_fail(rc, "the library operation") : 0;
}

double bench_numpy(const struct bench_env *env, const char *script, const char *args)
{
    if (!env->scripts) {
        fprintf(stderr, "bench: no NumPy reference (%s): its scripts were not found; pass --srcdir DIR (a "
                        "source tree) or set USMARR_BENCH_SCRIPTS\n",
                script);
        return -1;
    }
    const char *python = getenv("PYTHON_NUMPY");
    if (!python || !*python)
        python = "/usr/bin/python3";
    char cmd[2048];
    /* OPENBLAS_CORETYPE is unset for this command only. */
    snprintf(cmd, sizeof cmd, "env -u OPENBLAS_CORETYPE %s '%s/%s' %s %d", python, env->scripts, script, args,
             env->repeat);
    FILE *p = popen(cmd, "r");
    if (!p)
        return -1;
    double seconds = -1;
    char line[256];
    while (fgets(line, sizeof line, p))
        if (sscanf(line, "seconds=%lf", &seconds) == 1)
            break;
    pclose(p);
    return seconds;
}

int bench_numpy_ratio(const struct bench_env *env, const char *script, const char *name, double lib, int n,
                      struct bench_result *res)
{
    double np = bench_numpy(env, script, name);
    if (np <= 0) {
        fprintf(stderr, "bench: NumPy reference for %s unavailable\n", name);
        return -1;
    }
    res->ratio = np / lib;
    snprintf(res->detail, sizeof res->detail, "usmarr %.2f ms, NumPy %.2f ms (medians of %d)", lib * 1e3, np * 1e3,
             n);
    return 0;
}

int bench_fail(int rc, const char *what)
{
    fprintf(stderr, "bench: %s failed: %s: %s\n", what, usmarr_error_name(rc), usmarr_last_error_detail());
    return rc;
}

static bool has_scripts(const char *dir)
{
    char path[4096];
    if (snprintf(path, sizeof path, "%s/numpy_ref.py", dir) >= (int)sizeof path)
        return false;
    return access(path, R_OK) == 0;
}

/* Where the NumPy reference scripts are: --srcdir's bench/, $USMARR_BENCH_SCRIPTS, the
 * installed copy, then the source tree this build came from.  NULL (with a warning) when
 * none has them; NULL and *bad when a directory named explicitly lacks them. */
static const char *find_scripts(const char *srcdir, char *buf, size_t size, bool *bad)
{
    const char *env = getenv("USMARR_BENCH_SCRIPTS");
    *bad = false;
    if (srcdir || (env && *env)) {
        if (srcdir)
            snprintf(buf, size, "%s/bench", srcdir);
        else
            snprintf(buf, size, "%s", env);
        if (has_scripts(buf))
            return buf;
        fprintf(stderr, "bench: %s has no numpy_ref.py (%s)\n", buf,
                srcdir ? "--srcdir names a source tree" : "from USMARR_BENCH_SCRIPTS");
        *bad = true;
        return NULL;
    }
    static const char *const defaults[] = {USMARR_BENCH_SCRIPTS_DIR, USMARR_BENCH_SOURCE_DIR};
    for (size_t i = 0; i < sizeof defaults / sizeof defaults[0]; i++)
        if (has_scripts(defaults[i]))
            return defaults[i];
    fprintf(stderr, "bench: the NumPy reference scripts are in neither %s nor %s; the cases against NumPy "
                    "will fail (pass --srcdir DIR or set USMARR_BENCH_SCRIPTS)\n",
            defaults[0], defaults[1]);
    return NULL;
}

/* The shell command that runs this harness again: the running executable, quoted, then
 * the words of `command` after its first ("usmarr bench" -> "'/usr/bin/usmarr' bench"). */
static void self_command(const char *argv0, const char *command, char *out, size_t size)
{
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0)
        exe[n] = '\0';
    else
        snprintf(exe, sizeof exe, "%s", argv0);
    const char *rest = strchr(command, ' ');
    snprintf(out, size, "'%s'%s", exe, rest ? rest : "");
}

static bool selected(const struct bench_case *c, const char *filter) { return !filter || strstr(c->name, filter); }

static const struct bench_case *const bench_files[] = {
#define BENCH_LIST_(name) bench_##name,
    BENCH_FILES(BENCH_LIST_)
#undef BENCH_LIST_
};
#define BENCH_NFILES (sizeof bench_files / sizeof bench_files[0])

static void usage(FILE *out, const char *command)
{
    fprintf(out,
            "usage: %s [--device SEL] [--filter SUBSTRING] [--repeat N] [--plot FILE.svg|FILE.png]\n"
            "       %*s [--srcdir DIR] [--list]\n"
            "  --device SEL     the device to measure (default: the library's default device)\n"
            "  --filter S       only the cases whose name contains S (--list shows them)\n"
            "  --repeat N       repetitions behind each median (default 15)\n"
            "  --plot FILE      also draw the ratios into an SVG or PNG (gnuplot or matplotlib)\n"
            "  --srcdir DIR     a source tree whose bench/ holds the NumPy reference scripts\n"
            "                   (default: $USMARR_BENCH_SCRIPTS, else the installed copy)\n",
            command, (int)strlen(command), "");
}

int bench_main(int argc, char **argv, const char *command)
{
    if (argc > 1 && !strcmp(argv[1], "--child"))
        return bench_child_main(argc - 2, argv + 2);
    const char *device = NULL, *filter = NULL, *srcdir = NULL, *plot = NULL;
    bool list = false;
    struct bench_env env = {.repeat = 15};
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--device") && i + 1 < argc)
            device = argv[++i];
        else if (!strcmp(argv[i], "--filter") && i + 1 < argc)
            filter = argv[++i];
        else if (!strcmp(argv[i], "--repeat") && i + 1 < argc)
            env.repeat = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--srcdir") && i + 1 < argc)
            srcdir = argv[++i];
        else if (!strcmp(argv[i], "--plot") && i + 1 < argc)
            plot = argv[++i];
        else if (!strcmp(argv[i], "--list"))
            list = true;
        else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout, command);
            return 0;
        } else {
            usage(stderr, command);
            return 2;
        }
    }
    if (env.repeat < 1) {
        fprintf(stderr, "%s: --repeat must be at least 1\n", command);
        return 2;
    }
    int total = 0;
    for (size_t f = 0; f < BENCH_NFILES; f++)
        for (const struct bench_case *c = bench_files[f]; c->name; c++)
            if (selected(c, filter)) {
                total++;
                if (list)
                    printf("%-30s %s %-5g %s\n", c->name, c->bar_kind == BENCH_AT_LEAST ? ">=" : "<=", c->bar,
                           c->description);
            }
    if (list)
        return 0;
    if (total == 0) {
        fprintf(stderr, "%s: no case name contains \"%s\" (--list shows them)\n", command, filter);
        return 2;
    }
    if (plot && bench_plot_check(plot))
        return 2;
    char scripts[4096], self[4200];
    bool bad;
    env.scripts = find_scripts(srcdir, scripts, sizeof scripts, &bad);
    if (bad)
        return 2;
    self_command(argv[0], command, self, sizeof self);
    env.self = self;
    int rc = usmarr_context_create(device, &env.ctx);
    if (rc) {
        fprintf(stderr, "bench: no context on \"%s\": %s: %s\n", device ? device : "(default)",
                usmarr_error_name(rc), usmarr_last_error_detail());
        return 1;
    }
    const usmarr_device_info_t *info = usmarr_context_info(env.ctx);
    printf("bench: device %s / %s (%s)\n", info->platform_name, info->device_name, info->selector);
    char shape[512];
    if (usmarr_cache_kernel_shape(env.ctx, shape, sizeof shape) == 0)
        printf("bench: kernel shape %s\n", shape);
    fflush(stdout);
    struct bench_outcome *outcomes = calloc((size_t)total, sizeof *outcomes);
    int failed = 0, missed = 0, run = 0, drawn = 0;
    for (size_t f = 0; f < BENCH_NFILES; f++) {
        for (const struct bench_case *c = bench_files[f]; c->name; c++) {
            if (!selected(c, filter))
                continue;
            struct bench_result r = {0};
            run++;
            fprintf(stderr, "[%d/%d] %s: %s\n", run, total, c->name, c->description);
            double t0 = bench_now();
            if (c->run(&env, &r)) {
                printf("bench: %s FAILED\n", c->name);
                fflush(stdout);
                failed++;
                continue;
            }
            double bar = r.bar > 0 ? r.bar : c->bar;
            bool met = c->bar_kind == BENCH_AT_LEAST ? r.ratio >= bar : r.ratio <= bar;
            missed += !met;
            printf("  %s: %s\n  %s (%.1f s)\n", c->name, c->description, r.detail, bench_now() - t0);
            printf("bench: %s ratio=%.3f bar=%s%.3g %s\n", c->name, r.ratio, c->bar_kind == BENCH_AT_LEAST ? ">=" : "<=",
                   bar, met ? "met" : "missed");
            fflush(stdout);
            if (outcomes)
                outcomes[drawn++] = (struct bench_outcome){c->name, r.ratio, bar, c->bar_kind, met};
        }
    }
    printf("bench: %d cases, %d met, %d missed, %d failed\n", run, run - missed - failed, missed, failed);
    fflush(stdout);
    int plot_failed = 0;
    if (plot) {
        char title[400];
        snprintf(title, sizeof title, "libusmarr %s on %s (%s)", USMARR_VERSION_STRING, info->device_name,
                 info->selector);
        plot_failed = !outcomes || bench_plot(plot, title, outcomes, drawn) != 0;
        if (!plot_failed)
            printf("bench: plot written to %s\n", plot);
    }
    free(outcomes);
    usmarr_context_release(env.ctx);
    return failed || plot_failed ? 1 : 0;
}

/* bench.h */
double bench_numpy_stmt(const struct bench_env *env, const char *setup, const char *stmt)
{
    const char *py = getenv("PYTHON_NUMPY");
    if (!py || !*py)
        py = "/usr/bin/python3";
    char cmd[2048];
    snprintf(cmd, sizeof cmd,
             "env -u OPENBLAS_CORETYPE %s -c 'import time, numpy as np\n%s\nf = lambda: %s\nf()\nts = []\n"
             "for _ in range(%d):\n    t0 = time.perf_counter(); f(); ts.append(time.perf_counter() - t0)\n"
             "ts.sort(); print(\"seconds=%%.9f\" %% ts[len(ts) // 2])'",
             py, setup, stmt, env->repeat);
    FILE *p = popen(cmd, "r");
    if (!p)
        return -1;
    double s = -1;
    char line[256];
    while (fgets(line, sizeof line, p))
        if (sscanf(line, "seconds=%lf", &s) == 1)
            break;
    pclose(p);
    return s;
}
