/* Helper process for tests/engine/test_cache.c (a check program, not a test): exercises the
 * disk-cache module in a fresh process, the way a cold application start does.  The
 * cache directory and mode come from the environment the parent set.
 *
 *   cache_child SELECTOR obtain VARIANT [FD]
 *       waits until FD (a pipe) reaches end of file, so that several children start at
 *       once, then gets the probe program of VARIANT (disk cache, else compile + store)
 *       and checks its results; prints "compiled <ms>" or "loaded <ms>".
 *   cache_child SELECTOR ops [MARKER]
 *       runs a few library operations whose kernels the caches in the environment do not
 *       hold (an elementwise function, a reduction, a sort, a cast) and checks their
 *       results; on success it prints one line, "cache_child: stores S hits H" (the
 *       library's disk-cache counters): tests/engine/test_build.c checks that compiling
 *       printed nothing else.  With MARKER, the kernel sources come from
 *       a broken copy ($USMARR_KERNEL_DIR): the cast must fail with USMARR_ERROR_BUILD
 *       and a detail that quotes MARKER from the build log.  MARKER "held" instead holds
 *       the context's queue behind a user event while the first operation is asked for
 *       (its program compiled and first launched there: the call must return within 30 s),
 *       and sets the event after.
 *   cache_child SELECTOR readonly-dir HIT_VARIANT MISS_VARIANT
 *       drops the capabilities that let root write anywhere, checks that the cache
 *       directory ($USMARR_CACHE_DIR, mode 0500) now refuses writes, then expects a
 *       disk-cache hit for HIT_VARIANT and a compile for MISS_VARIANT whose store fails
 *       and disables the cache; both with correct results.
 *
 * Exit status: 0 success, 1 wrong result or unexpected path, 2 usage or set-up failure. */
#include "cache_probe.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static int drop_write_capabilities(void)
{
    struct __user_cap_header_struct header = {_LINUX_CAPABILITY_VERSION_3, 0};
    struct __user_cap_data_struct data[2];
    if (syscall(SYS_capget, &header, data) != 0)
        return -1;
    unsigned mask = 1u << CAP_DAC_OVERRIDE | 1u << CAP_DAC_READ_SEARCH | 1u << CAP_FOWNER;
    data[0].effective &= ~mask;
    data[0].permitted &= ~mask;
    data[0].inheritable &= ~mask;
    return (int)syscall(SYS_capset, &header, data);
}

static int obtain(usmarr_context_t *ctx, int variant, enum probe_how expected, bool any)
{
    enum probe_how how;
    double ms = 0;
    int rc = probe_obtain(ctx, variant, 3, &how, &ms);
    printf("%s %.3f ms\n", how == PROBE_LOADED ? "loaded" : "compiled", ms);
    if (rc) {
        fprintf(stderr, "cache_child: variant %d: %s (%d)\n", variant, rc == 1 ? "wrong result" : usmarr_error_name(rc),
                rc);
        return 1;
    }
    if (!any && how != expected) {
        fprintf(stderr, "cache_child: variant %d was %s, expected %s\n", variant,
                how == PROBE_LOADED ? "loaded" : "compiled", expected == PROBE_LOADED ? "loaded" : "compiled");
        return 1;
    }
    return 0;
}

#define OPS_N 64

/* Fails the ops mode with the library's detail. */
static int ops_fail(const char *what, int rc)
{
    fprintf(stderr, "cache_child: %s: %s: %s\n", what, usmarr_error_name(rc), usmarr_last_error_detail());
    return 1;
}

static int ops_check(const char *what, const float *got, const float *want, int n)
{
    for (int i = 0; i < n; i++)
        if (got[i] != want[i]) {
            fprintf(stderr, "cache_child: %s: [%d] = %g, expected %g\n", what, i, got[i], want[i]);
            return 1;
        }
    return 0;
}

static int ops(usmarr_context_t *ctx, const char *marker)
{
    bool held = marker && !strcmp(marker, "held");
    if (held)
        marker = NULL;
    float host[OPS_N], out[OPS_N], want[OPS_N];
    for (int i = 0; i < OPS_N; i++)
        host[i] = (float)((i * 37) % OPS_N) - 20.0f;
    int64_t n = OPS_N;
    usmarr_array_t *a = NULL, *r = NULL;
    int rc = usmarr_array_from_host(ctx, 1, &n, USMARR_FLOAT32, host, NULL, USMARR_USM_DEVICE, &a);
    if (rc)
        return ops_fail("from_host", rc);
    int status = 0;
    if (marker) { /* the broken sources: a cast must fail and say why */
        rc = usmarr_array_astype(a, USMARR_INT32, USMARR_ORDER_C, NULL, &r);
        if (rc != USMARR_ERROR_BUILD || !strstr(usmarr_last_error_detail(), marker)) {
            fprintf(stderr, "cache_child: the broken cast gave %s, detail \"%s\"; expected USMARR_ERROR_BUILD quoting %s\n",
                    usmarr_error_name(rc), usmarr_last_error_detail(), marker);
            status = 1;
        }
        usmarr_array_release(r);
        usmarr_array_release(a);
        return status;
    }
    cl_int err = CL_SUCCESS;
    cl_event gate = held ? clCreateUserEvent(usmarr_context_cl_context(ctx), &err) : NULL;
    if (held && (err != CL_SUCCESS || usmarr_queue_wait(usmarr_queue_current(ctx), 1, &gate) != 0)) {
        fprintf(stderr, "cache_child: cannot hold the queue (%d: %s)\n", err, usmarr_last_error_detail());
        return 2;
    }
    usmarr_operand_t ops2[2] = {{.array = a}, {.array = a}};
    double t0 = usmarr__dc_now_ms();
    rc = usmarr_elementwise("add", ops2, 2, NULL, &r);
    /* a compile, not the engine's longest wait for a launch (60 s), let alone for ever */
    if (held && usmarr__dc_now_ms() - t0 > 30e3) {
        fprintf(stderr, "cache_child: add took %.0f ms with the queue held\n", usmarr__dc_now_ms() - t0);
        status = 1;
    }
    if (gate) {
        clSetUserEventStatus(gate, CL_COMPLETE);
        clReleaseEvent(gate);
    }
    if (rc || (rc = usmarr_array_copy_to_host(r, out, NULL)))
        status = ops_fail("add", rc);
    for (int i = 0; i < OPS_N; i++)
        want[i] = host[i] + host[i];
    status = status ? status : ops_check("add", out, want, OPS_N);
    usmarr_array_release(r), r = NULL;
    if (!status && ((rc = usmarr_reduce("sum", a, 0, NULL, false, NULL, &r)) ||
                    (rc = usmarr_array_copy_to_host(r, out, NULL))))
        status = ops_fail("sum", rc);
    float sum = 0;
    for (int i = 0; i < OPS_N; i++)
        sum += host[i]; /* small integers: exact in any order */
    status = status ? status : ops_check("sum", out, &sum, 1);
    usmarr_array_release(r), r = NULL;
    if (!status && ((rc = usmarr_sort(a, 0, false, NULL, &r)) || (rc = usmarr_array_copy_to_host(r, out, NULL))))
        status = ops_fail("sort", rc);
    for (int i = 0; i < OPS_N; i++)
        want[i] = (float)i - 20.0f; /* (i * 37) % 64 is a permutation of 0..63 */
    status = status ? status : ops_check("sort", out, want, OPS_N);
    usmarr_array_release(r), r = NULL;
    int32_t ints[OPS_N];
    if (!status && ((rc = usmarr_array_astype(a, USMARR_INT32, USMARR_ORDER_C, NULL, &r)) ||
                    (rc = usmarr_array_copy_to_host(r, ints, NULL))))
        status = ops_fail("astype", rc);
    for (int i = 0; !status && i < OPS_N; i++)
        if (ints[i] != (int32_t)host[i])
            status = ops_check("astype", (float[]){(float)ints[i]}, &host[i], 1);
    usmarr_array_release(r);
    usmarr_array_release(a);
    return status;
}

int main(int argc, char **argv)
{
    if (argc >= 3 && !strcmp(argv[2], "ops")) {
        usmarr_context_t *ctx = NULL;
        int rc = usmarr_context_create(argv[1], &ctx);
        if (rc)
            return ops_fail("context", rc) + 1;
        int status = ops(ctx, argc > 3 ? argv[3] : NULL);
        usmarr_context_release(ctx);
        usmarr_cache_stats_t stats;
        if (!status && (argc <= 3 || !strcmp(argv[3], "held")) && usmarr_cache_get_stats(&stats) == 0)
            printf("cache_child: stores %llu hits %llu\n", (unsigned long long)stats.stores,
                   (unsigned long long)stats.hits);
        return status;
    }
    if (argc < 4) {
        fprintf(stderr, "usage: cache_child SELECTOR obtain VARIANT [FD] | SELECTOR ops [MARKER] | SELECTOR readonly-dir "
                        "HIT MISS\n");
        return 2;
    }
    bool readonly_dir = !strcmp(argv[2], "readonly-dir");
    if (readonly_dir) {
        const char *dir = getenv("USMARR_CACHE_DIR");
        if (argc < 5 || !dir || drop_write_capabilities() != 0) {
            fprintf(stderr, "cache_child: readonly-dir needs HIT MISS, USMARR_CACHE_DIR and capset: %s\n",
                    strerror(errno));
            return 2;
        }
        char probe[4096];
        snprintf(probe, sizeof probe, "%s/write-probe", dir);
        int fd = open(probe, O_CREAT | O_WRONLY | O_EXCL, 0600);
        if (fd >= 0) {
            close(fd);
            unlink(probe);
            fprintf(stderr, "cache_child: %s is still writable; cannot test a read-only directory\n", dir);
            return 2;
        }
    } else if (strcmp(argv[2], "obtain") != 0) {
        fprintf(stderr, "cache_child: unknown mode %s\n", argv[2]);
        return 2;
    }
    if (!readonly_dir && argc > 4) {
        int fd = atoi(argv[4]);
        char c;
        while (read(fd, &c, 1) > 0)
            ; /* the parent closes its end to start every child at once */
        close(fd);
    }
    usmarr_context_t *ctx = NULL;
    int rc = usmarr_context_create(argv[1], &ctx);
    if (rc) {
        fprintf(stderr, "cache_child: %s: %s\n", usmarr_strerror(rc), usmarr_last_error_detail());
        return 2;
    }
    int status;
    if (readonly_dir) {
        status = obtain(ctx, atoi(argv[3]), PROBE_LOADED, false);
        if (!status)
            status = obtain(ctx, atoi(argv[4]), PROBE_COMPILED, false);
        usmarr_cache_stats_t stats;
        if (!status && (usmarr__diskcache_stats(&stats) != 0 || !stats.disabled || stats.stores != 0)) {
            fprintf(stderr, "cache_child: the failed store should have disabled the cache (disabled=%d stores=%llu)\n",
                    (int)stats.disabled, (unsigned long long)stats.stores);
            status = 1;
        }
        /* Once disabled, the process no longer reads either, and still computes correctly. */
        if (!status)
            status = obtain(ctx, atoi(argv[3]), PROBE_COMPILED, false);
    } else {
        status = obtain(ctx, atoi(argv[3]), PROBE_COMPILED, true);
    }
    usmarr_context_release(ctx);
    return status;
}
