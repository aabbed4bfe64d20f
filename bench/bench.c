/* The benchmark harness: runs every case of every bench_<name>.c (bench/bench.h).
 * usage: bench [--device SEL] [--filter SUBSTRING] [--repeat N] [--srcdir DIR] */
#include "bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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

int bench_tiny_vs_raw(const struct bench_env *env, int (*op)(void *arg), void *arg, double *lib, double *raw)
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
    enum { N = 2000 };
    static double tl[N], tr[N];
    int rc = 0;
    for (int i = -50; i < N && !rc; i++) {
        double t0 = bench_now();
        rc = op(arg);
        if (!rc)
            rc = usmarr_context_finish(env->ctx);
        double t1 = bench_now();
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
    if (rc)
        return bench_fail(rc, "the library operation");
    *lib = bench_median(tl, N);
    *raw = bench_median(tr, N);
    return 0;
}

double bench_numpy(const struct bench_env *env, const char *args)
{
    const char *python = getenv("PYTHON_NUMPY");
    if (!python || !*python)
        python = "/usr/bin/python3";
    char cmd[2048];
    /* OPENBLAS_CORETYPE is unset for this command only. */
    snprintf(cmd, sizeof cmd, "env -u OPENBLAS_CORETYPE %s %s/bench/numpy_ref.py %s", python, env->srcdir, args);
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

int bench_fail(int rc, const char *what)
{
    fprintf(stderr, "bench: %s failed: %s: %s\n", what, usmarr_error_name(rc), usmarr_last_error_detail());
    return rc;
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "--child"))
        return bench_child_main(argc - 2, argv + 2);
    const char *device = getenv("USMARR_DEVICE") ? getenv("USMARR_DEVICE") : "opencl:cpu:0";
    const char *filter = NULL;
    struct bench_env env = {.srcdir = ".", .self = argv[0], .repeat = 15};
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--device") && i + 1 < argc)
            device = argv[++i];
        else if (!strcmp(argv[i], "--filter") && i + 1 < argc)
            filter = argv[++i];
        else if (!strcmp(argv[i], "--repeat") && i + 1 < argc)
            env.repeat = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--srcdir") && i + 1 < argc)
            env.srcdir = argv[++i];
        else {
            fprintf(stderr, "usage: %s [--device SEL] [--filter SUBSTRING] [--repeat N] [--srcdir DIR]\n", argv[0]);
            return 2;
        }
    }
    int rc = usmarr_context_create(device, &env.ctx);
    if (rc) {
        fprintf(stderr, "bench: no context on \"%s\": %s: %s\n", device, usmarr_error_name(rc),
                usmarr_last_error_detail());
        return 1;
    }
    const usmarr_device_info_t *info = usmarr_context_info(env.ctx);
    printf("bench: device %s / %s (%s)\n", info->platform_name, info->device_name, info->selector);
    int failed = 0, missed = 0, run = 0;
    const struct bench_case *files[] = {
#define BENCH_LIST_(name) bench_##name,
        BENCH_FILES(BENCH_LIST_)
#undef BENCH_LIST_
    };
    for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
        for (const struct bench_case *c = files[f]; c->name; c++) {
            if (filter && !strstr(c->name, filter))
                continue;
            struct bench_result r = {0};
            run++;
            if (c->run(&env, &r)) {
                printf("bench: %s FAILED\n", c->name);
                failed++;
                continue;
            }
            bool met = c->bar_kind == BENCH_AT_LEAST ? r.ratio >= c->bar : r.ratio <= c->bar;
            missed += !met;
            printf("  %s: %s\n  %s\n", c->name, c->description, r.detail);
            printf("bench: %s ratio=%.3f bar=%s%.3g %s\n", c->name, r.ratio, c->bar_kind == BENCH_AT_LEAST ? ">=" : "<=",
                   c->bar, met ? "met" : "missed");
            fflush(stdout);
        }
    }
    printf("bench: %d cases, %d met, %d missed, %d failed\n", run, run - missed - failed, missed, failed);
    usmarr_context_release(env.ctx);
    return failed ? 1 : 0;
}
