/* Helper process for tests/engine/test_cache.c (a check program, not a test): exercises the
 * disk-cache module in a fresh process, the way a cold application start does.  The
 * cache directory and mode come from the environment the parent set.
 *
 *   cache_child SELECTOR obtain VARIANT [FD]
 *       waits until FD (a pipe) reaches end of file, so that several children start at
 *       once, then gets the probe program of VARIANT (disk cache, else compile + store)
 *       and checks its results; prints "compiled <ms>" or "loaded <ms>".
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

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: cache_child SELECTOR obtain VARIANT [FD] | SELECTOR readonly-dir HIT MISS\n");
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
