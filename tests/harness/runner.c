/* Runs every suite on every usable USM device found (OCL_ICD_VENDORS decides which
 * platforms are visible).  USMARR_REQUIRE_DEVICE=1 turns "no device" into a failure;
 * otherwise the run is skipped (exit 77).  USMARR_TEST_DEVICE=SEL restricts the run to
 * one device; several devices (or a device and the modes) are tested side by side, two
 * processes a device (`parts` below), unless USMARR_TEST_SERIAL=1.  Tests run unforked so
 * that per-context kernel caches are reused.
 *
 * Modes (the table `modes` below): after the devices themselves, the whole suite runs again
 * on PoCL's CPU device as a device with device USM alone (USMARR_USM_KINDS=device; suites
 * tagged "host-usm", the storages whose host side needs host USM, are left out and replaced
 * by the refusal checks of their untagged cases), and as NVIDIA's OpenCL (the SVM backend,
 * USMARR_USM_BACKEND=svm, with no host USM, so the same cases are left out, and the GPU
 * kernel shape forced, USMARR_KERNEL_SHAPE=gpu, with NVIDIA's work-group limits), side by
 * side with the device runs, so that what a GPU runs is tested without one.
 * USMARR_TEST_SUITES=a,b restricts a run to those suites (a name that is no suite fails the run
 * before it starts, listing the suites); USMARR_TEST_PART=k/n to the
 * suites whose place in TEST_SUITES is k modulo n.  USMARR_TEST_ORDER=reverse runs them
 * last suite first.
 * USMARR_TEST_MODES=none leaves the modes out; USMARR_TEST_DEVICE does too, unless
 * USMARR_TEST_MODES names the modes to run, comma-separated: "device" (device USM alone)
 * and "svm" (the SVM backend with the GPU shape), e.g. USMARR_TEST_MODES=svm.
 * `runner --list-suites` prints the suite names, comma-separated (scripts/gpu-check.sh). */
#include "common.h"
#include "suites.h"

#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

const char *test_selector;

usmarr_context_t *test_context(void)
{
    usmarr_context_t *ctx = NULL;
    int rc = usmarr_context_create(test_selector, &ctx);
    ck_assert_msg(rc == 0, "context on %s: %s: %s", test_selector, usmarr_strerror(rc), usmarr_last_error_detail());
    return ctx;
}

static usmarr_context_t *shared_context;

usmarr_context_t *test_shared_context(void)
{
    if (!shared_context)
        shared_context = test_context();
    return usmarr_context_retain(shared_context);
}

static double now_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Whether `name` is one of the comma-separated `list` (NULL: every suite). */
static bool suite_listed(const char *list, const char *name)
{
    if (!list || !*list)
        return true;
    size_t len = strlen(name);
    for (const char *p = list; p; p = strchr(p, ',')) {
        p += *p == ',';
        if (!strncmp(p, name, len) && (p[len] == ',' || p[len] == '\0'))
            return true;
    }
    return false;
}

/* USMARR_TEST_PART's "k/n" as *k and *n: the suites whose place in TEST_SUITES is k modulo n
 * (NULL or no such form: every suite, 0/1). */
static void part_parse(const char *part, int *k, int *n)
{
    if (!part || sscanf(part, "%d/%d", k, n) != 2 || *n < 1)
        *k = 0, *n = 1;
}

/* Runs every suite (or those of USMARR_TEST_SUITES, within USMARR_TEST_PART: a part that
 * holds none of the suites chosen runs nothing) on one device in this process; returns the
 * number of failures and adds the number of test runs to *total. */
static int run_device(const usmarr_device_info_t *dev, int *total)
{
    const char *only_suites = getenv("USMARR_TEST_SUITES"), *part = getenv("USMARR_TEST_PART");
    int place = 0, part_k, part_n;
    part_parse(part, &part_k, &part_n);
    test_selector = dev->selector;
    printf("runner: testing %s / %s as \"%s\"\n", dev->platform_name, dev->device_name, test_selector);
    fflush(stdout);
    const char *order = getenv("USMARR_TEST_ORDER");
    bool reverse = order && !strcmp(order, "reverse");
    Suite *suites[256];
    int nsuites = 0;
#define ADD_(name)                                         \
    if (suite_listed(only_suites, #name) && place % part_n == part_k && nsuites < 256) \
        suites[nsuites++] = suite_##name();                                           \
    place++;
    TEST_SUITES(ADD_)
#undef ADD_
    SRunner *sr = NULL;
    for (int i = 0; i < nsuites; i++) {
        Suite *suite = suites[reverse ? nsuites - 1 - i : i];
        if (!sr)
            sr = srunner_create(suite);
        else
            srunner_add_suite(sr, suite);
    }
    if (!sr) /* the suites chosen are all in the other part(s); main() checked the names */
        return 0;
    srunner_set_fork_status(sr, CK_NOFORK);
    srunner_run_all(sr, CK_NORMAL);
    usmarr_context_release(shared_context);
    shared_context = NULL;
    int failed = srunner_ntests_failed(sr);
    *total += srunner_ntests_run(sr);
    srunner_free(sr);
    return failed;
}

/* A run of the whole suite on one device, in one of the modes (no settings: as it is). */
#define MODE_SETTINGS 6
struct job {
    const usmarr_device_info_t *dev;
    const char *env[MODE_SETTINGS][2]; /* the mode's environment variables and their values */
    const char *exclude_tags;          /* CK_EXCLUDE_TAGS of the run, or NULL */
    const char *suites;                /* USMARR_TEST_SUITES of the run, or NULL (all) */
};

/* The modes, a line each (the NVIDIA stand-in two), run on PoCL's CPU device (always
 * present in CI) side by side with the devices' runs:
 * - a device with device USM alone (suites tagged "host-usm" replaced by their refusals);
 *   its programs are the device run's, which it loads from the disk cache when the
 *   device run has stored them; it runs the suites last first, so that the two runs,
 *   started together, do not reach the same programs at the same moment;
 * - NVIDIA's OpenCL as PoCL stands in for it: the SVM backend (no host USM; NULL and unset
 *   kernel arguments refused as NVIDIA refuses them) with the GPU kernel shape forced (tree
 *   reductions, scans, radix sorts, tiles; one element per work-item) and, with it, NVIDIA's
 *   work-group limits (lib/engine/map.c), every suite.  Its programs are its own (the GPU
 *   shape), so it runs with the disk cache off: no other run loads them (PoCL's own cache,
 *   POCL_CACHE_DIR, still serves a second make check).  PoCL compiles them unoptimised
 *   (POCL_EXTRA_BUILD_FLAGS=-cl-opt-disable: the mode tests the GPU shape's algorithms,
 *   which a CPU's optimiser does not change, and its compiles are most of its time).  It
 *   runs as two processes, each with every other suite (USMARR_TEST_PART=0/2 and 1/2), as a
 *   device does (`parts`).
 * Both leave out the cases tagged "variants" (tables whose entries' code the modes do not
 * change, each entry a compile of its own: tests/harness/check_usmarr.h), and the loops
 * over every dtype take one dtype per element width and kind (USMARR_TEST_DTYPES,
 * test_dtype_sampled() in tests/harness/common.h). */
/* A device's run side by side with the others is two processes, each with every other
 * suite: a cold run is mostly one thread compiling, and the longest run alone (Intel's
 * runtime: 64 ms a program) outlasted the others' by a minute on 2 cores. */
static const char *const parts[2] = {"0/2", "1/2"};

#define MODE_DTYPES "bool,int8,uint16,int32,float32,float64,complex128"
static const struct job modes[] = {
    {NULL,
     {{"USMARR_USM_KINDS", "device"}, {"USMARR_TEST_ORDER", "reverse"}, {"USMARR_TEST_DTYPES", MODE_DTYPES}},
     TEST_TAG_HOST_USM " " TEST_TAG_VARIANTS,
     NULL},
    {NULL,
     {{"USMARR_USM_BACKEND", "svm"},
      {"USMARR_KERNEL_SHAPE", "gpu"},
      {"USMARR_CACHE", "off"},
      {"USMARR_TEST_PART", "0/2"},
      {"USMARR_TEST_DTYPES", MODE_DTYPES},
      {"POCL_EXTRA_BUILD_FLAGS", "-cl-opt-disable"}},
     TEST_TAG_HOST_USM " " TEST_TAG_VARIANTS, NULL},
    {NULL,
     {{"USMARR_USM_BACKEND", "svm"},
      {"USMARR_KERNEL_SHAPE", "gpu"},
      {"USMARR_CACHE", "off"},
      {"USMARR_TEST_PART", "1/2"},
      {"USMARR_TEST_DTYPES", MODE_DTYPES},
      {"POCL_EXTRA_BUILD_FLAGS", "-cl-opt-disable"}},
     TEST_TAG_HOST_USM " " TEST_TAG_VARIANTS, NULL},
};

/* The names USMARR_TEST_MODES knows, one for each entry of `modes`. */
static const char *const mode_keys[] = {"device", "svm", "svm"};

/* Reads USMARR_TEST_MODES into want[] (one flag per entry of `modes`); false, with the
 * names listed on stderr, when it names something that is no mode.  Unset or empty:
 * every mode, unless `only` (a device was chosen); "none": no mode. */
static bool modes_wanted(const char *list, bool only, bool want[])
{
    size_t count = sizeof modes / sizeof modes[0];
    bool all = !list || !*list;
    for (size_t m = 0; m < count; m++)
        want[m] = all && !only;
    if (all || !strcmp(list, "none"))
        return true;
    for (const char *p = list;;) {
        size_t len = strcspn(p, ",");
        bool found = false;
        for (size_t m = 0; m < count; m++)
            if (len == strlen(mode_keys[m]) && !strncmp(p, mode_keys[m], len))
                found = want[m] = true;
        if (!found) {
            fprintf(stderr, "runner: USMARR_TEST_MODES names no mode \"%.*s\"; the modes are none, device, svm\n",
                    (int)len, p);
            return false;
        }
        if (!p[len])
            return true;
        p += len + 1;
    }
}

static void mode_name(const struct job *j, char *buf, size_t size)
{
    size_t n = 0;
    buf[0] = 0;
    for (int e = 0; e < MODE_SETTINGS && j->env[e][0] && n < size; e++)
        n += (size_t)snprintf(buf + n, size - n, "%s%s=%s", e ? " " : "", j->env[e][0], j->env[e][1]);
}

/* One child process per job, all at once: a cold run is dominated by each driver's
 * single-threaded kernel compiler, so devices tested side by side share the cores.  Each
 * child is this program restricted to its device (USMARR_TEST_DEVICE) and mode; its
 * output is collected and printed whole, in job order.  Returns 0 when every child ran. */
static int run_jobs_in_parallel(const struct job *jobs, int n, int *failed, int *total)
{
    pid_t pids[16];
    int statuses[16] = {0};
    FILE *logs[16];
    double started = now_seconds();
    fflush(stdout);
    fflush(stderr);
    for (int i = 0; i < n; i++) {
        logs[i] = tmpfile();
        if (!logs[i]) {
            perror("runner: tmpfile");
            return -1;
        }
        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        posix_spawn_file_actions_adddup2(&actions, fileno(logs[i]), 1);
        posix_spawn_file_actions_adddup2(&actions, fileno(logs[i]), 2);
        setenv("USMARR_TEST_DEVICE", jobs[i].dev->selector, 1);
        for (int e = 0; e < MODE_SETTINGS && jobs[i].env[e][0]; e++)
            setenv(jobs[i].env[e][0], jobs[i].env[e][1], 1);
        if (jobs[i].exclude_tags)
            setenv("CK_EXCLUDE_TAGS", jobs[i].exclude_tags, 1);
        if (jobs[i].suites)
            setenv("USMARR_TEST_SUITES", jobs[i].suites, 1);
        char *argv[] = {"runner", NULL};
        int rc = posix_spawn(&pids[i], "/proc/self/exe", &actions, NULL, argv, environ);
        posix_spawn_file_actions_destroy(&actions);
        for (int e = 0; e < MODE_SETTINGS && jobs[i].env[e][0]; e++)
            unsetenv(jobs[i].env[e][0]);
        if (jobs[i].exclude_tags)
            unsetenv("CK_EXCLUDE_TAGS");
        if (jobs[i].suites)
            unsetenv("USMARR_TEST_SUITES");
        if (rc) {
            fprintf(stderr, "runner: cannot start the run for %s: %s\n", jobs[i].dev->selector, strerror(rc));
            return -1;
        }
    }
    unsetenv("USMARR_TEST_DEVICE");
    double took[16] = {0}, cpu[16] = {0};
    for (int left = n; left > 0; left--) { /* in the order they end, for each run's time */
        int status;
        struct rusage usage;
        pid_t pid = wait4(-1, &status, 0, &usage);
        for (int i = 0; i < n; i++)
            if (pids[i] == pid) {
                statuses[i] = status;
                took[i] = now_seconds() - started;
                cpu[i] = (double)usage.ru_utime.tv_sec + (double)usage.ru_stime.tv_sec +
                         1e-6 * (double)(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec);
            }
    }
    printf("runner: %d runs side by side in %.0f s\n", n, now_seconds() - started);
    for (int i = 0; i < n; i++) {
        int status = statuses[i];
        int passed_i = -1, failed_i = -1;
        char line[4096];
        rewind(logs[i]);
        while (fgets(line, sizeof line, logs[i])) {
            fputs(line, stdout);
            sscanf(line, "runner: %d passed, %d failed", &passed_i, &failed_i);
        }
        fclose(logs[i]);
        char mode[256];
        mode_name(&jobs[i], mode, sizeof mode);
        bool part_only = jobs[i].env[0][0] && !strcmp(jobs[i].env[0][0], "USMARR_TEST_PART") && !jobs[i].env[1][0];
        if (part_only && passed_i >= 0) /* one of a device's two processes */
            printf("runner: %s (%s): %d passed, %d failed in %.0f s (%.0f CPU-s)\n", jobs[i].dev->selector, mode,
                   passed_i, failed_i, took[i], cpu[i]);
        else if (mode[0] && passed_i >= 0)
            printf("runner: mode %s on %s%s%s: %d passed, %d failed in %.0f s (%.0f CPU-s)\n", mode,
                   jobs[i].dev->selector, jobs[i].suites ? ", suites " : "", jobs[i].suites ? jobs[i].suites : "",
                   passed_i, failed_i, took[i], cpu[i]);
        else if (passed_i >= 0)
            printf("runner: %s: %d passed, %d failed in %.0f s (%.0f CPU-s)\n", jobs[i].dev->selector, passed_i,
                   failed_i, took[i], cpu[i]);
        if (!WIFEXITED(status) || passed_i < 0) {
            /* A crash or an abort: count the device's whole run as one failure. */
            printf("runner: the run on %s ended abnormally (status %d)\n", jobs[i].dev->selector, status);
            *failed += 1;
            *total += 1;
            continue;
        }
        *failed += failed_i;
        *total += passed_i + failed_i;
        if (WEXITSTATUS(status) != 0 && failed_i == 0) {
            /* Every test passed, yet the run failed: a sanitizer's report at exit (leaks). */
            printf("runner: the run on %s exited with status %d after its tests passed\n", jobs[i].dev->selector,
                   WEXITSTATUS(status));
            *failed += 1;
            *total += 1;
        }
    }
    return 0;
}

/* Prints the suite names to `out`, comma-separated. */
static void list_suites(FILE *out)
{
    const char *sep = "";
#define LIST_(name)                   \
    fprintf(out, "%s%s", sep, #name); \
    sep = ",";
    TEST_SUITES(LIST_)
#undef LIST_
    fprintf(out, "\n");
}

/* Whether every comma-separated name of USMARR_TEST_SUITES (unset or empty: every suite)
 * is a suite; if not, says which names are not and lists the suites, on stderr. */
static bool suites_known(const char *list)
{
    if (!list || !*list)
        return true;
    bool known = true;
    for (const char *p = list;;) {
        size_t len = strcspn(p, ",");
        bool found = false;
#define FIND_(name) found |= len == strlen(#name) && !strncmp(p, #name, len);
        TEST_SUITES(FIND_)
#undef FIND_
        if (!found) {
            fprintf(stderr, "%s\"%.*s\"", known ? "runner: USMARR_TEST_SUITES names no suite " : ", ", (int)len, p);
            known = false;
        }
        if (!p[len])
            break;
        p += len + 1;
    }
    if (!known) {
        fprintf(stderr, "; the suites are: ");
        list_suites(stderr);
    }
    return known;
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "--list-suites")) { /* for scripts that split the run into jobs */
        list_suites(stdout);
        return 0;
    }
    if (!suites_known(getenv("USMARR_TEST_SUITES")))
        return 1;
    const char *only = getenv("USMARR_TEST_DEVICE");
    bool want_mode[sizeof modes / sizeof modes[0]];
    if (!modes_wanted(getenv("USMARR_TEST_MODES"), only && *only, want_mode))
        return 1;
    setenv("USMARR_TEST_MODES", "none", 1); /* the runs this one starts run no modes of their own */
    usmarr_device_info_t *devs = NULL;
    size_t n = 0;
    int rc = usmarr_devices_list(&devs, &n);
    if (rc) {
        fprintf(stderr, "runner: listing devices failed: %s: %s\n", usmarr_strerror(rc), usmarr_last_error_detail());
        return 1;
    }
    const char *require = getenv("USMARR_REQUIRE_DEVICE");
    const char *serial = getenv("USMARR_TEST_SERIAL");
    const usmarr_device_info_t *chosen[16];
    int nchosen = 0;
    const usmarr_device_info_t *pocl = NULL;
    for (size_t i = 0; i < n; i++) {
        if (!devs[i].usable) {
            printf("runner: skipping %s / %s: %s\n", devs[i].platform_name, devs[i].device_name, devs[i].reason);
            continue;
        }
        if (!pocl && strstr(devs[i].platform_name, "Portable Computing Language") &&
            (devs[i].type & CL_DEVICE_TYPE_CPU))
            pocl = &devs[i];
        if (only && *only && strcmp(only, devs[i].selector))
            continue;
        if (nchosen < 16)
            chosen[nchosen++] = &devs[i];
    }
    struct job jobs[16] = {{NULL, {{NULL, NULL}}, NULL, NULL}};
    int njobs = 0;
    bool with_modes = false;
    for (size_t m = 0; pocl && m < sizeof modes / sizeof modes[0]; m++)
        with_modes |= want_mode[m];
    bool side_by_side = (nchosen > 1 || with_modes) && !(serial && !strcmp(serial, "1"));
    for (int i = 0; i < nchosen && njobs < 15; i++)
        if (side_by_side && !getenv("USMARR_TEST_PART")) { /* a device's run is two processes: see parts[] */
            for (int k = 0; k < 2; k++)
                jobs[njobs++] = (struct job){chosen[i], {{"USMARR_TEST_PART", parts[k]}}, NULL, NULL};
        } else
            jobs[njobs++] = (struct job){chosen[i], {{NULL, NULL}}, NULL, NULL};
    int nmodes = 0;
    for (size_t m = 0; with_modes && m < sizeof modes / sizeof modes[0] && njobs < 16; m++)
        if (want_mode[m]) {
            jobs[njobs] = modes[m];
            jobs[njobs++].dev = pocl;
            nmodes++;
        }
    int failed = 0, total = 0;
    if (side_by_side) {
        if (run_jobs_in_parallel(jobs, njobs, &failed, &total)) {
            usmarr_devices_free(devs);
            return 1;
        }
    } else {
        for (int i = 0; i < nchosen; i++)
            failed += run_device(chosen[i], &total);
        for (int i = njobs - nmodes; i < njobs; i++) /* the modes need their own process */
            if (run_jobs_in_parallel(&jobs[i], 1, &failed, &total)) {
                usmarr_devices_free(devs);
                return 1;
            }
    }
    usmarr_devices_free(devs);
    if (nchosen == 0) {
        if (require && !strcmp(require, "1")) {
            fprintf(stderr, "runner: USMARR_REQUIRE_DEVICE=1 but no usable USM device was found "
                            "(OCL_ICD_VENDORS=%s)\n",
                    getenv("OCL_ICD_VENDORS") ? getenv("OCL_ICD_VENDORS") : "(unset)");
            return 1;
        }
        printf("runner: no usable USM device; skipping (set USMARR_REQUIRE_DEVICE=1 to fail instead)\n");
        return 77;
    }
    printf("runner: %d device(s), %d mode run(s), %d test runs\n", nchosen, nmodes, total);
    printf("runner: %d passed, %d failed\n", total - failed, failed);
    return failed ? 1 : 0;
}
