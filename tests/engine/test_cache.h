/* The cache suite's fixture and helpers, shared by its files (tests/engine/test_cache*.c).
 * Every test runs with a private temporary directory as the disk cache's, the cache's
 * environment saved and restored around it, and a context. */
#ifndef USMARR_TESTS_TEST_CACHE_H
#define USMARR_TESTS_TEST_CACHE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include <usmarr.h>

#include "../harness/check_usmarr.h"
#include "cache_probe.h"

extern char cache_root[1024];        /* private temporary directory of one test */
extern char cache_dir[PATH_MAX / 2]; /* cache_root/cache: the cache directory of the test */
extern usmarr_context_t *cache_ctx;

/* Obtains the probe program's `variant` through the test's copy of the module and checks
 * how it came (PROBE_LOADED from the cache, PROBE_COMPILED) and the kernel's result. */
#define assert_obtain(variant, expected)                                                                  \
    do {                                                                                                  \
        enum probe_how how_;                                                                              \
        int rc_ = probe_obtain(cache_ctx, (variant), 5, &how_, NULL);                                           \
        ck_assert_msg(rc_ == 0, "variant %d: %s (%d)", (variant), rc_ == 1 ? "wrong result" : usmarr_error_name(rc_), \
                      rc_);                                                                               \
        ck_assert_msg(how_ == (expected), "variant %d was %s, expected %s", (variant),                    \
                      how_ == PROBE_LOADED ? "loaded" : "compiled",                                      \
                      (expected) == PROBE_LOADED ? "loaded" : "compiled");                               \
    } while (0)

/* The cache entry's path of `variant`. */
void cache_entry_path(int variant, char *path, size_t size);
bool cache_exists(const char *path);
long long cache_size_of(const char *path);
/* Files in `d` ending in ".clbin" and starting with ".tmp-". */
void cache_count_files(const char *d, int *entries, int *temps);
unsigned char *cache_read_file(const char *path, size_t *size);
void cache_write_file(const char *path, const void *data, size_t size);
/* Flips a bit of the file's middle byte (a damaged cache entry). */
void cache_flip_middle(const char *path);
/* Sets the file's access and modification times to `seconds_ago`. */
void cache_set_age(const char *path, int seconds_ago);
/* The statistics of the test's copy of the module. */
usmarr_cache_stats_t cache_module_stats(void);
/* Sets (NULL: unsets) an environment variable and makes the module read it again. */
void cache_reset_with_env(const char *name, const char *value);
/* Runs cache_child with `args`, output to cache_root/child-<index>.out; the pid. */
pid_t cache_spawn(const char *const *args, int index, int keep_fd);
/* Waits for the child and reads the start of its output; its exit status. */
int cache_child_status(pid_t pid, int index, char *output, size_t size);

/* Each further file of the suite adds its tests to suite_cache()'s test case. */
void cache_add_settings_tests(TCase *tc);
void cache_add_api_tests(TCase *tc);

#endif
