/* Runs every suite on every usable USM device found (OCL_ICD_VENDORS decides which
 * platforms are visible).  USMARR_REQUIRE_DEVICE=1 turns "no device" into a failure;
 * otherwise the run is skipped (exit 77).  USMARR_TEST_DEVICE=SEL restricts the run to
 * one device; several devices are tested side by side, one process each, unless
 * USMARR_TEST_SERIAL=1.  Tests run unforked so that per-context kernel caches are reused. */
#include "common.h"
#include "suites.h"

#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
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


static double now_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Runs every suite on one device in this process; returns the number of failures and
 * adds the number of test runs to *total. */
static int run_device(const usmarr_device_info_t *dev, int *total)
{
    test_selector = dev->selector;
    printf("runner: testing %s / %s as \"%s\"\n", dev->platform_name, dev->device_name, test_selector);
    fflush(stdout);
    SRunner *sr = NULL;
#define ADD_(name)                                  \
    if (!sr)                                        \
        sr = srunner_create(suite_##name());        \
    else                                            \
        srunner_add_suite(sr, suite_##name());
    TEST_SUITES(ADD_)
#undef ADD_
    srunner_set_fork_status(sr, CK_NOFORK);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    *total += srunner_ntests_run(sr);
    srunner_free(sr);
    return failed;
}

/* One child process per device, all at once: a cold run is dominated by each driver's
 * single-threaded kernel compiler, so devices tested side by side share the cores.  Each
 * child is this program restricted to its device (USMARR_TEST_DEVICE); its output is
 * collected and printed whole, in device order.  Returns 0 when every child ran. */
static int run_devices_in_parallel(const usmarr_device_info_t **devs, int n, int *failed, int *total)
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
        setenv("USMARR_TEST_DEVICE", devs[i]->selector, 1);
        char *argv[] = {"runner", NULL};
        int rc = posix_spawn(&pids[i], "/proc/self/exe", &actions, NULL, argv, environ);
        posix_spawn_file_actions_destroy(&actions);
        if (rc) {
            fprintf(stderr, "runner: cannot start the run for %s: %s\n", devs[i]->selector, strerror(rc));
            return -1;
        }
    }
    unsetenv("USMARR_TEST_DEVICE");
    for (int i = 0; i < n; i++)
        waitpid(pids[i], &statuses[i], 0);
    printf("runner: %d devices tested side by side in %.0f s\n", n, now_seconds() - started);
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
        if (!WIFEXITED(status) || passed_i < 0) {
            /* A crash or an abort: count the device's whole run as one failure. */
            printf("runner: the run on %s ended abnormally (status %d)\n", devs[i]->selector, status);
            *failed += 1;
            *total += 1;
            continue;
        }
        *failed += failed_i;
        *total += passed_i + failed_i;
        if (WEXITSTATUS(status) != 0 && failed_i == 0) {
            /* Every test passed, yet the run failed: a sanitizer's report at exit (leaks). */
            printf("runner: the run on %s exited with status %d after its tests passed\n", devs[i]->selector,
                   WEXITSTATUS(status));
            *failed += 1;
            *total += 1;
        }
    }
    return 0;
}

int main(void)
{
    usmarr_device_info_t *devs = NULL;
    size_t n = 0;
    int rc = usmarr_devices_list(&devs, &n);
    if (rc) {
        fprintf(stderr, "runner: listing devices failed: %s: %s\n", usmarr_strerror(rc), usmarr_last_error_detail());
        return 1;
    }
    const char *only = getenv("USMARR_TEST_DEVICE");
    const char *require = getenv("USMARR_REQUIRE_DEVICE");
    const char *serial = getenv("USMARR_TEST_SERIAL");
    const usmarr_device_info_t *chosen[16];
    int nchosen = 0;
    for (size_t i = 0; i < n; i++) {
        if (!devs[i].usable) {
            printf("runner: skipping %s / %s: %s\n", devs[i].platform_name, devs[i].device_name, devs[i].reason);
            continue;
        }
        if (only && *only && strcmp(only, devs[i].selector))
            continue;
        if (nchosen < 16)
            chosen[nchosen++] = &devs[i];
    }
    int failed = 0, total = 0;
    if (nchosen > 1 && !(serial && !strcmp(serial, "1"))) {
        if (run_devices_in_parallel(chosen, nchosen, &failed, &total)) {
            usmarr_devices_free(devs);
            return 1;
        }
    } else {
        for (int i = 0; i < nchosen; i++)
            failed += run_device(chosen[i], &total);
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
    printf("runner: %d device(s), %d test runs\n", nchosen, total);
    printf("runner: %d passed, %d failed\n", total - failed, failed);
    return failed ? 1 : 0;
}
