/* usmarr: list devices, run the demo, manage the kernel cache, run the benchmarks. */
#include <usmarr.h>

#include "bench.h"

#include <CL/cl_ext.h>
#include <dirent.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <threads.h>
#include <unistd.h>

extern char **environ;

static void usage(FILE *out)
{
    fprintf(out, "usage: usmarr <command>\n"
                 "  devices        list OpenCL devices, their USM capabilities and the default\n"
                 "  demo [SEL]     run a USM kernel on the default (or selected) device and check it\n"
                 "  cache stats    the kernel cache's directory, mode, entries and size\n"
                 "  cache clear    delete every cached kernel\n"
                 "  cache prewarm [SEL|all] [--no-tune] [--processes N] [--quiet]  compile the common kernels\n"
                 "                 for a device (all: every device) and cache them, in N processes at a time\n"
                 "                 (default: one per core); a device not yet tuned is tuned first\n"
                 "  cache tune [SEL|all] [--budget S] [--untuned]  time the kernel shapes on a device and keep\n"
                 "                 the fastest (S seconds per device, default 25; --untuned: only devices not tuned yet)\n"
                 "  cache shape [SEL|all]  the kernel shape each device's contexts use, and its origin\n"
                 "  bench [--device SEL] [--filter S] [--plot FILE.svg|FILE.png]\n"
                 "                 measure the library against NumPy and raw OpenCL (bench --help)\n"
                 "  --version      print the library version\n");
}

static void print_caps(const char *name, uint64_t caps)
{
    printf("    %-28s 0x%llx%s%s%s%s\n", name, (unsigned long long)caps,
           caps & CL_UNIFIED_SHARED_MEMORY_ACCESS_INTEL ? " access" : "",
           caps & CL_UNIFIED_SHARED_MEMORY_ATOMIC_ACCESS_INTEL ? " atomic" : "",
           caps & CL_UNIFIED_SHARED_MEMORY_CONCURRENT_ACCESS_INTEL ? " concurrent" : "",
           caps & CL_UNIFIED_SHARED_MEMORY_CONCURRENT_ATOMIC_ACCESS_INTEL ? " concurrent-atomic" : "");
}

static int cmd_devices(void)
{
    usmarr_device_info_t *devs;
    size_t n;
    int rc = usmarr_devices_list(&devs, &n);
    if (rc) {
        fprintf(stderr, "usmarr: %s: %s\n", usmarr_strerror(rc), usmarr_last_error_detail());
        return 1;
    }
    if (n == 0)
        printf("no OpenCL platform or device found (OCL_ICD_VENDORS=%s)\n",
               getenv("OCL_ICD_VENDORS") ? getenv("OCL_ICD_VENDORS") : "(unset)");
    for (size_t i = 0; i < n; i++) {
        const usmarr_device_info_t *d = &devs[i];
        printf("[%u.%u] %s / %s%s\n", d->platform_index, d->device_index, d->platform_name, d->device_name,
               d->is_default ? "  (default)" : "");
        printf("    platform version             %s\n", d->platform_version);
        printf("    device version / driver      %s / %s\n", d->device_version, d->driver_version);
        if (!d->usable) {
            printf("    usable                       no: %s\n", d->reason);
            continue;
        }
        const char *forced = getenv("USMARR_USM_BACKEND");
        printf("    usable                       yes, selector \"%s\"%s\n", d->selector,
               d->backend != USMARR_BACKEND_SVM          ? ""
               : forced && !strcmp(forced, "svm") ? ", via SVM (USMARR_USM_BACKEND=svm)"
                                                  : ", via SVM (no cl_intel_unified_shared_memory)");
        printf("    fp64 / fp16                  %s / %s\n", d->fp64 ? "yes" : "no", d->fp16 ? "yes" : "no");
        printf("    max allocation               %llu bytes\n", (unsigned long long)d->max_alloc_size);
        print_caps("host USM", d->host_mem_caps);
        print_caps("device USM", d->device_mem_caps);
        print_caps("single-device shared USM", d->single_device_shared_caps);
        print_caps("cross-device shared USM", d->cross_device_shared_caps);
        print_caps("shared system USM", d->shared_system_caps);
        if (d->kinds_limited)
            printf("    USM kinds                    limited by USMARR_USM_KINDS=%s\n", getenv("USMARR_USM_KINDS"));
        printf("    SVM                          0x%llx%s%s%s%s\n", (unsigned long long)d->svm_caps,
               d->svm_caps & CL_DEVICE_SVM_COARSE_GRAIN_BUFFER ? " coarse-buffer" : "",
               d->svm_caps & CL_DEVICE_SVM_FINE_GRAIN_BUFFER ? " fine-buffer" : "",
               d->svm_caps & CL_DEVICE_SVM_FINE_GRAIN_SYSTEM ? " fine-system" : "",
               d->svm_caps & CL_DEVICE_SVM_ATOMICS ? " atomics" : "");
    }
    usmarr_devices_free(devs);
    return 0;
}

typedef cl_int(CL_API_CALL *set_arg_ptr_fn)(cl_kernel, cl_uint, const void *);

/* The demo talks to OpenCL directly next to the library, to show that a USM block is an
 * ordinary USM pointer any kernel can take through clSetKernelArgMemPointerINTEL (or
 * clSetKernelArgSVMPointer on the SVM backend).  Shared USM where the device offers it
 * (the host writes it directly), else device USM written by a copy. */
static int cmd_demo(const char *selector)
{
    static const char *source = "kernel void axpy(global float *y, float a, global const float *x)\n"
                                "{ size_t i = get_global_id(0); y[i] = a * x[i] + y[i]; }\n";
    enum { N = 1024 };
    usmarr_context_t *ctx = NULL;
    usmarr_memory_t *x = NULL, *y = NULL;
    cl_program program = NULL;
    cl_kernel kernel = NULL;
    int status = 1;
    int rc = usmarr_context_create(selector, &ctx);
    if (rc) {
        fprintf(stderr, "usmarr demo: %s: %s\n", usmarr_strerror(rc), usmarr_last_error_detail());
        return 1;
    }
    const usmarr_device_info_t *info = usmarr_context_info(ctx);
    printf("device: %s / %s (%s)\n", info->platform_name, info->device_name, info->platform_version);
    bool shared = info->single_device_shared_caps & CL_UNIFIED_SHARED_MEMORY_ACCESS_INTEL;
    usmarr_usm_kind_t kind = shared ? USMARR_USM_SHARED : USMARR_USM_DEVICE;
    if ((rc = usmarr_memory_create(ctx, kind, N * sizeof(float), 64, &x)) ||
        (rc = usmarr_memory_create(ctx, kind, N * sizeof(float), 64, &y))) {
        fprintf(stderr, "usmarr demo: %s: %s\n", usmarr_strerror(rc), usmarr_last_error_detail());
        goto done;
    }
    float two = 2.0f, one = 1.0f;
    if ((rc = usmarr_memory_fill(x, 0, &two, sizeof two, N * sizeof(float))) ||
        (rc = usmarr_memory_fill(y, 0, &one, sizeof one, N * sizeof(float)))) {
        fprintf(stderr, "usmarr demo: fill: %s: %s\n", usmarr_strerror(rc), usmarr_last_error_detail());
        goto done;
    }
    float xs_host[N], *xs = shared ? usmarr_memory_pointer(x) : xs_host;
    for (int i = 0; i < N; i++)
        xs[i] = (float)i; /* shared USM: the host writes it directly */
    if (!shared && (rc = usmarr_memory_copy_from_host(x, 0, xs_host, sizeof xs_host))) {
        fprintf(stderr, "usmarr demo: copy: %s: %s\n", usmarr_strerror(rc), usmarr_last_error_detail());
        goto done;
    }
    cl_int err;
    cl_context cl = usmarr_context_cl_context(ctx);
    cl_device_id dev = usmarr_context_device(ctx);
    program = clCreateProgramWithSource(cl, 1, &source, NULL, &err);
    if (err == CL_SUCCESS)
        err = clBuildProgram(program, 1, &dev, "-w", NULL, NULL);
    if (err == CL_SUCCESS)
        kernel = clCreateKernel(program, "axpy", &err);
    cl_platform_id platform;
    clGetDeviceInfo(dev, CL_DEVICE_PLATFORM, sizeof platform, &platform, NULL);
    set_arg_ptr_fn set_ptr =
        info->backend == USMARR_BACKEND_SVM
            ? clSetKernelArgSVMPointer
            : (set_arg_ptr_fn)clGetExtensionFunctionAddressForPlatform(platform, "clSetKernelArgMemPointerINTEL");
    float a = 3.0f;
    size_t global = N;
    if (err == CL_SUCCESS)
        err = set_ptr(kernel, 0, usmarr_memory_pointer(y));
    if (err == CL_SUCCESS)
        err = clSetKernelArg(kernel, 1, sizeof a, &a);
    if (err == CL_SUCCESS)
        err = set_ptr(kernel, 2, usmarr_memory_pointer(x));
    if (err == CL_SUCCESS)
        err = clEnqueueNDRangeKernel(usmarr_context_queue(ctx), kernel, 1, NULL, &global, NULL, 0, NULL, NULL);
    if (err == CL_SUCCESS)
        err = clFinish(usmarr_context_queue(ctx));
    if (err != CL_SUCCESS) {
        fprintf(stderr, "usmarr demo: OpenCL: %s (%d)\n", usmarr_error_name(err), err);
        goto done;
    }
    float result[N];
    if ((rc = usmarr_memory_copy_to_host(y, 0, result, sizeof result))) {
        fprintf(stderr, "usmarr demo: %s: %s\n", usmarr_strerror(rc), usmarr_last_error_detail());
        goto done;
    }
    int bad = 0;
    for (int i = 0; i < N; i++)
        bad += result[i] != 3.0f * (float)i + 1.0f;
    printf("y = 3*x + 1 over %d %s-USM floats%s: y[0]=%g y[1]=%g y[%d]=%g\n", N, usmarr_usm_kind_name(kind),
           info->backend == USMARR_BACKEND_SVM ? " (via SVM)" : "", result[0], result[1], N - 1, result[N - 1]);
    printf("checked on the host: %s (%d mismatches)\n", bad ? "FAILED" : "OK", bad);
    status = bad != 0;
done:
    if (kernel)
        clReleaseKernel(kernel);
    if (program)
        clReleaseProgram(program);
    usmarr_memory_release(x);
    usmarr_memory_release(y);
    usmarr_context_release(ctx);
    return status;
}

static void print_cache_stats(const usmarr_cache_stats_t *s)
{
    static const char *const modes[] = {"off", "on", "readonly"};
    char dir[4096];
    if (usmarr_cache_directory(dir, sizeof dir) != 0)
        snprintf(dir, sizeof dir, "(%s)", usmarr_last_error_detail());
    printf("directory   %s\n", dir);
    printf("mode        %s%s%s\n", (unsigned)s->mode < 3 ? modes[s->mode] : "?", s->disabled ? ", disabled: " : "",
           s->disabled ? s->reason : "");
    printf("entries     %llu\n", (unsigned long long)s->entries);
    printf("size        %llu bytes (cap %llu)\n", (unsigned long long)s->bytes, (unsigned long long)s->max_bytes);
    /* The system cache, read after a miss in the directory above. */
    if (usmarr_cache_system_directory(dir, sizeof dir) != 0) {
        printf("system      %s\n", usmarr_last_error_detail());
        return;
    }
    unsigned long long entries = 0, bytes = 0;
    DIR *d = opendir(dir);
    for (struct dirent *e; d && (e = readdir(d));) {
        size_t n = strlen(e->d_name);
        struct stat st;
        if (n > 6 && !strcmp(e->d_name + n - 6, ".clbin") && fstatat(dirfd(d), e->d_name, &st, 0) == 0) {
            entries++;
            bytes += (unsigned long long)st.st_size;
        }
    }
    if (d)
        closedir(d);
    printf("system      %s, %llu entries, %llu bytes (read only)\n", dir, entries, bytes);
}

/* The selectors of `selector`: NULL is the default device, "all" every usable one. */
static int selectors(const char *selector, usmarr_device_info_t **devs, const char **out, int *n)
{
    size_t ndevs = 0;
    *n = 0;
    *devs = NULL;
    if (!selector || strcmp(selector, "all")) {
        out[(*n)++] = selector;
        return 0;
    }
    int rc = usmarr_devices_list(devs, &ndevs);
    for (size_t i = 0; !rc && i < ndevs && *n < 16; i++)
        if ((*devs)[i].usable)
            out[(*n)++] = (*devs)[i].selector;
    return rc;
}

/* One device's prewarm, on its own thread: each driver compiles on one core, so the
 * devices of `usmarr cache prewarm all` compile side by side. */
struct prewarm_job {
    const char *selector;
    bool quiet;
    int rc;
    char detail[256];
};

static int prewarm_one(void *arg)
{
    struct prewarm_job *job = arg;
    usmarr_context_t *ctx = NULL;
    job->rc = usmarr_context_create(job->selector, &ctx);
    if (!job->rc) {
        if (!job->quiet)
            fprintf(stderr, "prewarming %s (%s / %s)...\n", usmarr_context_info(ctx)->selector,
                    usmarr_context_info(ctx)->platform_name, usmarr_context_info(ctx)->device_name);
        job->rc = usmarr_cache_prewarm(ctx);
    }
    if (job->rc)
        snprintf(job->detail, sizeof job->detail, "%s", usmarr_last_error_detail());
    usmarr_context_release(ctx);
    return 0;
}

/* The prewarm in this process: `selector` NULL is the default device, "all" every usable
 * device at once. */
static int prewarm_here(const char *selector, bool quiet)
{
    struct prewarm_job jobs[16];
    thrd_t threads[16];
    int n = 0, rc = 0;
    usmarr_device_info_t *devs = NULL;
    size_t ndevs = 0;
    if (selector && !strcmp(selector, "all")) {
        if ((rc = usmarr_devices_list(&devs, &ndevs)) != 0)
            return rc;
        for (size_t i = 0; i < ndevs && n < 16; i++)
            if (devs[i].usable)
                jobs[n++] = (struct prewarm_job){.selector = devs[i].selector, .quiet = quiet};
    } else {
        jobs[n++] = (struct prewarm_job){.selector = selector, .quiet = quiet};
    }
    int started = 0;
    for (; started < n; started++)
        if (thrd_create(&threads[started], prewarm_one, &jobs[started]) != thrd_success)
            break;
    for (int i = 0; i < started; i++)
        thrd_join(threads[i], NULL);
    for (int i = started; i < n; i++)
        prewarm_one(&jobs[i]);
    for (int i = 0; i < n; i++)
        if (jobs[i].rc && !rc) {
            rc = jobs[i].rc;
            fprintf(stderr, "usmarr cache prewarm %s: %s: %s\n", jobs[i].selector ? jobs[i].selector : "(default)",
                    usmarr_strerror(rc), jobs[i].detail);
        }
    usmarr_devices_free(devs);
    return rc;
}

/* Starts one share of a device's prewarm: this program again, in one process, with
 * `dtypes` in USMARR_PREWARM_DTYPES and its standard output discarded; 0 on failure. */
static pid_t spawn_share(const char *selector, const char *dtypes)
{
    char *argv[] = {"usmarr", "cache", "prewarm", "--no-tune", "--quiet", "--processes", "1", (char *)selector, NULL};
    posix_spawn_file_actions_t actions;
    pid_t pid = 0;
    if (posix_spawn_file_actions_init(&actions) != 0)
        return 0;
    if (posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0) == 0 &&
        setenv("USMARR_PREWARM_DTYPES", dtypes, 1) == 0) {
        if (posix_spawn(&pid, "/proc/self/exe", &actions, NULL, argv, environ) != 0)
            pid = 0;
    }
    posix_spawn_file_actions_destroy(&actions);
    return pid;
}

/* Share `part` of `parts` of the dtypes `names` (a comma-separated list): every
 * `parts`-th name from the `part`-th. */
static void share_of(const char *names, int part, int parts, char *out, size_t size)
{
    *out = 0;
    for (int k = 0; *names; k++) {
        size_t n = strcspn(names, ",");
        if (k % parts == part)
            snprintf(out + strlen(out), size - strlen(out), "%s%.*s", *out ? "," : "", (int)n, names);
        names += n + (names[n] == ',');
    }
}

/* `usmarr cache prewarm` in `processes` child processes at a time: PoCL compiles one
 * program at a time in a process, whatever its threads and contexts, so each device's
 * workload is cut by dtype (USMARR_PREWARM_DTYPES's list, else every dtype) into one share
 * per process.  Returns -1 when a share failed (its process printed why). */
static int prewarm(const char *selector, int processes, bool quiet)
{
    char names[512] = "", dtypes[512];
    bool listed = getenv("USMARR_PREWARM_DTYPES") != NULL;
    if (listed)
        snprintf(names, sizeof names, "%s", getenv("USMARR_PREWARM_DTYPES"));
    else
        for (int d = 0; d < USMARR_DTYPE_COUNT; d++)
            snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", d ? "," : "",
                     usmarr_dtype_name((usmarr_dtype_t)d));
    int count = 1;
    for (const char *c = names; *c; c++)
        count += *c == ',';
    int parts = processes < count ? processes : count;
    if (parts < 2 || strlen(names) >= sizeof names - 1)
        return prewarm_here(selector, quiet);
    usmarr_device_info_t *devs, *list = NULL;
    const char *sel[16];
    size_t nlist = 0;
    int n, rc = selectors(selector, &devs, sel, &n), njobs = n * parts, next = 0, running = 0;
    bool failed = false;
    if (!rc && !quiet && usmarr_devices_list(&list, &nlist) == 0)
        for (int i = 0; i < n; i++) /* the device each selector names, by its platform and name */
            for (size_t j = 0; j < nlist; j++)
                if (sel[i] ? !strcmp(list[j].selector, sel[i]) : list[j].is_default) {
                    fprintf(stderr, "prewarming %s (%s / %s) in %d processes...\n", list[j].selector,
                            list[j].platform_name, list[j].device_name, parts);
                    break;
                }
    usmarr_devices_free(list);
    while (!rc && (next < njobs || running > 0)) {
        if (next < njobs && running < processes) {
            share_of(names, next % parts, parts, dtypes, sizeof dtypes);
            if (spawn_share(sel[next / parts], dtypes) == 0) {
                fprintf(stderr, "usmarr cache prewarm: could not start a process for %s\n",
                        sel[next / parts] ? sel[next / parts] : "the default device");
                failed = true;
                njobs = next; /* start nothing more; wait for the running ones */
            } else {
                running++;
                next++;
            }
            continue;
        }
        int status;
        if (wait(&status) < 0)
            break;
        running--;
        failed |= !WIFEXITED(status) || WEXITSTATUS(status) != 0;
    }
    if (listed) /* as it was */
        setenv("USMARR_PREWARM_DTYPES", names, 1);
    else
        unsetenv("USMARR_PREWARM_DTYPES");
    usmarr_devices_free(devs);
    return rc ? rc : failed ? -1 : 0;
}

/* Seconds of timing per device for `cache tune` and the tuning step of `cache prewarm`:
 * about 30 s in all on a 2-core machine, the candidates' compiles included. */
#define TUNE_BUDGET 25.0

/* `usmarr cache tune` (the report on stdout; with --untuned only the devices whose shape is
 * still the table's) and the first step of `usmarr cache prewarm` (devices not yet tuned,
 * no report); progress on stderr.  One
 * device after the other: two devices timed side by side would time each other. */
static int tune(const char *selector, bool only_untuned, double budget, bool print)
{
    usmarr_device_info_t *devs;
    const char *sel[16];
    int n, rc = selectors(selector, &devs, sel, &n);
    for (int i = 0; !rc && i < n; i++) {
        usmarr_context_t *ctx = NULL;
        char shape[512], report[4096];
        if ((rc = usmarr_context_create(sel[i], &ctx)) != 0 || (rc = usmarr_cache_kernel_shape(ctx, shape, sizeof shape)))
            break;
        const usmarr_device_info_t *info = usmarr_context_info(ctx);
        if (!only_untuned || strstr(shape, "(table)")) {
            fprintf(stderr, "tuning the kernel shapes of %s (%s / %s), up to %g s...\n", info->selector,
                    info->platform_name, info->device_name, budget);
            rc = usmarr_cache_tune(ctx, budget, report, sizeof report);
            if (!rc && print)
                printf("%s:\n%s", info->selector, report);
        }
        usmarr_context_release(ctx);
    }
    usmarr_devices_free(devs);
    return rc;
}

static int print_shapes(const char *selector)
{
    usmarr_device_info_t *devs;
    const char *sel[16];
    int n, rc = selectors(selector, &devs, sel, &n);
    for (int i = 0; !rc && i < n; i++) {
        usmarr_context_t *ctx = NULL;
        char shape[512];
        if ((rc = usmarr_context_create(sel[i], &ctx)) == 0 && (rc = usmarr_cache_kernel_shape(ctx, shape, sizeof shape)) == 0)
            printf("%-16s %s\n", usmarr_context_info(ctx)->selector, shape);
        usmarr_context_release(ctx);
    }
    usmarr_devices_free(devs);
    return rc;
}

/* usmarr cache stats|clear|prewarm [SEL]|tune [SEL] [--budget S]|shape [SEL] */
static int cmd_cache(int argc, char **argv)
{
    const char *what = argc > 2 ? argv[2] : "";
    usmarr_cache_stats_t stats;
    int rc;
    if (!strcmp(what, "stats")) {
        if ((rc = usmarr_cache_get_stats(&stats)) != 0)
            goto fail;
        print_cache_stats(&stats);
        return 0;
    }
    if (!strcmp(what, "clear")) {
        size_t removed = 0;
        rc = usmarr_cache_clear(&removed);
        printf("%zu cached kernel file(s) deleted\n", removed);
        if (rc)
            goto fail;
        return 0;
    }
    if (!strcmp(what, "tune")) {
        const char *sel = NULL;
        double budget = TUNE_BUDGET;
        bool untuned = false;
        for (int i = 3; i < argc; i++) {
            if (!strcmp(argv[i], "--budget") && i + 1 < argc)
                budget = strtod(argv[++i], NULL);
            else if (!strcmp(argv[i], "--untuned"))
                untuned = true;
            else
                sel = argv[i];
        }
        if ((rc = tune(sel, untuned, budget, true)) != 0)
            goto fail;
        return 0;
    }
    if (!strcmp(what, "shape")) {
        if ((rc = print_shapes(argc > 3 ? argv[3] : NULL)) != 0)
            goto fail;
        return 0;
    }
    if (!strcmp(what, "prewarm")) {
        const char *sel = NULL;
        bool tuning = true, quiet = false;
        long processes = sysconf(_SC_NPROCESSORS_ONLN);
        for (int i = 3; i < argc; i++) {
            if (!strcmp(argv[i], "--no-tune"))
                tuning = false;
            else if (!strcmp(argv[i], "--quiet"))
                quiet = true;
            else if (!strcmp(argv[i], "--processes") && i + 1 < argc)
                processes = strtol(argv[++i], NULL, 10);
            else
                sel = argv[i];
        }
        if (processes < 1 || processes > 64) {
            fprintf(stderr, "usmarr cache prewarm: --processes takes 1 to 64\n");
            return 2;
        }
        uint64_t before = usmarr_cache_get_stats(&stats) == 0 ? stats.entries : 0;
        if (tuning && (rc = tune(sel, true, TUNE_BUDGET, false)) != 0)
            goto fail;
        if ((rc = prewarm(sel, (int)processes, quiet)) < 0)
            return 1;
        if (rc || (rc = usmarr_cache_get_stats(&stats)) != 0)
            goto fail;
        printf("%llu program(s) added to the cache\n",
               (unsigned long long)(stats.entries > before ? stats.entries - before : 0));
        print_cache_stats(&stats);
        return 0;
    }
    fprintf(stderr, "usmarr cache: expected stats, clear, prewarm [SEL], tune [SEL] [--budget S] or shape [SEL]\n");
    return 2;
fail:
    fprintf(stderr, "usmarr cache %s: %s: %s\n", what, usmarr_strerror(rc), usmarr_last_error_detail());
    return 1;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (!strcmp(argv[1], "--version")) {
        printf("usmarr %s\n", USMARR_VERSION_STRING);
        return 0;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        usage(stdout);
        return 0;
    }
    if (!strcmp(argv[1], "devices"))
        return cmd_devices();
    if (!strcmp(argv[1], "cache"))
        return cmd_cache(argc, argv);
    if (!strcmp(argv[1], "bench"))
        return bench_main(argc - 1, argv + 1, "usmarr bench");
    if (!strcmp(argv[1], "demo"))
        return cmd_demo(argc > 2 ? argv[2] : NULL);
    fprintf(stderr, "usmarr: unknown command \"%s\"\n", argv[1]);
    usage(stderr);
    return 2;
}
