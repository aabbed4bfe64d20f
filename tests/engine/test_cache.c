/* The disk cache of program binaries (lib/engine/diskcache.c, lib/cache/cache.c).
 *
 * The module is compiled into this test program as well (see Makefile.am), so the tests
 * drive its internal interface directly with a real program binary of the device under
 * test, exactly as the engine does (tests/engine/cache_probe.c): look up, build from the binary,
 * else compile, launch once, store.  That copy has its own settings and counters; the
 * public usmarr_cache_* functions are tested against the library's copy, and both share
 * the files on disk.  Every case checks the kernel's results on the host.  This file holds
 * the suite's fixture and helpers (test_cache.h), hits, corrupt entries and concurrency;
 * test_cache_settings.c the directories, modes, eviction and trace; test_cache_api.c the
 * public functions and the engine on the library's copy. */
#define _GNU_SOURCE /* nftw, pipe2 */
#include "../harness/common.h"

#include "test_cache.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <threads.h>
#include <unistd.h>

char cache_root[1024];
char cache_dir[PATH_MAX / 2];
usmarr_context_t *cache_ctx;

static const char *const env_names[] = {"USMARR_CACHE",       "USMARR_CACHE_DIR", "USMARR_CACHE_MAX_BYTES",
                                        "USMARR_CACHE_TRACE", "XDG_CACHE_HOME",   "HOME",
                                        "POCL_EXTRA_BUILD_FLAGS", "CL_CONFIG_CPU_TARGET_ARCH",
                                        "USMARR_CACHE_SYSTEM_DIR", "USMARR_PREWARM_DTYPES"};
#define ENV_COUNT (sizeof env_names / sizeof *env_names)
static char *saved_env[ENV_COUNT];

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    return remove(path);
}

static void setup(void)
{
    for (size_t i = 0; i < ENV_COUNT; i++) {
        const char *v = getenv(env_names[i]);
        saved_env[i] = v ? strdup(v) : NULL;
    }
    ck_assert(test_temp_dir(cache_root, sizeof cache_root, "usmarr-cache-test"));
    snprintf(cache_dir, sizeof cache_dir, "%s/cache", cache_root);
    unsetenv("USMARR_CACHE");
    unsetenv("USMARR_CACHE_MAX_BYTES");
    unsetenv("USMARR_CACHE_TRACE");
    setenv("USMARR_CACHE_DIR", cache_dir, 1);
    setenv("USMARR_CACHE_SYSTEM_DIR", "off", 1); /* every hit here comes from `cache_dir` (test_build.c has the system cache) */
    usmarr__diskcache_reset();
    cache_ctx = test_context();
}

static void teardown(void)
{
    usmarr_context_release(cache_ctx);
    cache_ctx = NULL;
    usmarr__diskcache_reset();
    for (size_t i = 0; i < ENV_COUNT; i++) {
        if (saved_env[i])
            setenv(env_names[i], saved_env[i], 1);
        else
            unsetenv(env_names[i]);
        free(saved_env[i]);
        saved_env[i] = NULL;
    }
    /* The library's copy resolves its directory again from the restored environment. */
    ck_assert_ok(usmarr_cache_set_directory(NULL));
    chmod(cache_dir, 0700);
    nftw(cache_root, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* ---- helpers --------------------------------------------------------------------- */

void cache_entry_path(int variant, char *path, size_t size)
{
    char options[64];
    struct usmarr__program_key key = probe_key(cache_ctx, variant, options);
    ck_assert(usmarr__diskcache_entry_path(&key, path, size));
}

bool cache_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

long long cache_size_of(const char *path)
{
    struct stat st;
    ck_assert_msg(stat(path, &st) == 0, "%s: %s", path, strerror(errno));
    return (long long)st.st_size;
}

/* Files in `d` ending in ".clbin" and starting with ".tmp-". */
void cache_count_files(const char *d, int *entries, int *temps)
{
    *entries = *temps = 0;
    DIR *h = opendir(d);
    if (!h)
        return;
    struct dirent *e;
    while ((e = readdir(h))) {
        size_t n = strlen(e->d_name);
        *entries += n > 6 && !strcmp(e->d_name + n - 6, ".clbin");
        *temps += !strncmp(e->d_name, ".tmp-", 5);
    }
    closedir(h);
}

unsigned char *cache_read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "%s: %s", path, strerror(errno));
    fseek(f, 0, SEEK_END);
    *size = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *data = malloc(*size ? *size : 1);
    ck_assert_ptr_nonnull(data);
    ck_assert_uint_eq(fread(data, 1, *size, f), *size);
    fclose(f);
    return data;
}

void cache_write_file(const char *path, const void *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    ck_assert_msg(f != NULL, "%s: %s", path, strerror(errno));
    ck_assert_uint_eq(fwrite(data, 1, size, f), size);
    ck_assert_int_eq(fclose(f), 0);
}

void cache_flip_middle(const char *path)
{
    size_t size;
    unsigned char *data = cache_read_file(path, &size);
    data[size / 2] ^= 0x40;
    cache_write_file(path, data, size);
    free(data);
}

void cache_set_age(const char *path, int seconds_ago)
{
    struct timespec t[2];
    clock_gettime(CLOCK_REALTIME, &t[0]);
    t[0].tv_sec -= seconds_ago;
    t[1] = t[0];
    ck_assert_msg(utimensat(AT_FDCWD, path, t, 0) == 0, "%s: %s", path, strerror(errno));
}

usmarr_cache_stats_t cache_module_stats(void)
{
    usmarr_cache_stats_t s;
    ck_assert_int_eq(usmarr__diskcache_stats(&s), 0);
    return s;
}

/* A real binary of the probe program (compiled and launched once). */
static unsigned char *real_binary(int variant, size_t *size)
{
    cl_program program;
    ck_assert_int_eq(probe_compile(cache_ctx, variant, &program), CL_SUCCESS);
    ck_assert_int_eq(probe_run(cache_ctx, program, variant, 2), 0);
    unsigned char *binary;
    ck_assert_int_eq(probe_binary(cache_ctx, program, &binary, size), CL_SUCCESS);
    clReleaseProgram(program);
    return binary;
}

void cache_reset_with_env(const char *name, const char *value)
{
    if (value)
        setenv(name, value, 1);
    else
        unsetenv(name);
    usmarr__diskcache_reset();
}

/* ---- hits ------------------------------------------------------------------------- */

START_TEST(test_cache_store_then_load_hits_with_the_same_runnable_binary)
{
    assert_obtain(1, PROBE_COMPILED);
    char path[PATH_MAX];
    cache_entry_path(1, path, sizeof path);
    struct stat st;
    ck_assert_int_eq(stat(path, &st), 0);
    ck_assert_uint_eq(st.st_mode & 0777, 0600);
    ck_assert_int_eq(stat(cache_dir, &st), 0);
    ck_assert_uint_eq(st.st_mode & 0777, 0700);
    assert_obtain(1, PROBE_LOADED);
    assert_obtain(1, PROBE_LOADED);
    usmarr_cache_stats_t s = cache_module_stats();
    ck_assert_uint_eq(s.hits, 2);
    ck_assert_uint_eq(s.misses, 1);
    ck_assert_uint_eq(s.stores, 1);
    ck_assert_uint_eq(s.entries, 1);
    ck_assert_uint_eq(s.bytes, (uint64_t)cache_size_of(path));
    ck_assert(!s.disabled);

    /* The payload comes back byte for byte. */
    size_t size, loaded_size;
    unsigned char *binary = real_binary(2, &size), *loaded;
    char options[64];
    struct usmarr__program_key key = probe_key(cache_ctx, 2, options);
    usmarr__diskcache_store(&key, binary, size);
    ck_assert_int_eq(usmarr__diskcache_load(&key, &loaded, &loaded_size), 0);
    ck_assert_uint_eq(loaded_size, size);
    ck_assert_int_eq(memcmp(loaded, binary, size), 0);
    free(loaded);
    free(binary);
}
END_TEST

START_TEST(test_cache_key_covers_source_options_and_device)
{
    unsetenv("POCL_EXTRA_BUILD_FLAGS"); /* the fixture restores them */
    unsetenv("CL_CONFIG_CPU_TARGET_ARCH");
    char a[PATH_MAX], b[PATH_MAX], c[PATH_MAX];
    cache_entry_path(1, a, sizeof a);
    cache_entry_path(1, b, sizeof b);
    ck_assert_str_eq(a, b);
    cache_entry_path(2, b, sizeof b); /* options differ */
    ck_assert_str_ne(a, b);
    char options[64];
    struct usmarr__program_key key = probe_key(cache_ctx, 1, options);
    key.source_size--; /* the source differs by its last byte */
    ck_assert(usmarr__diskcache_entry_path(&key, c, sizeof c));
    ck_assert_str_ne(a, c);
    key.source_size = 0; /* 0 means strlen: the same key */
    ck_assert(usmarr__diskcache_entry_path(&key, c, sizeof c));
    ck_assert_str_eq(a, c);
    key.platform = NULL; /* taken from the device: the same key */
    ck_assert(usmarr__diskcache_entry_path(&key, c, sizeof c));
    ck_assert_str_eq(a, c);
    /* The drivers' build-affecting environment is part of the key. */
    setenv("POCL_EXTRA_BUILD_FLAGS", "-cl-fast-relaxed-math", 1);
    ck_assert(usmarr__diskcache_entry_path(&key, c, sizeof c));
    ck_assert_str_ne(a, c);
    setenv("CL_CONFIG_CPU_TARGET_ARCH", "corei7", 1);
    ck_assert(usmarr__diskcache_entry_path(&key, b, sizeof b));
    ck_assert_str_ne(b, c);
    unsetenv("POCL_EXTRA_BUILD_FLAGS");
    unsetenv("CL_CONFIG_CPU_TARGET_ARCH");
    ck_assert(usmarr__diskcache_entry_path(&key, c, sizeof c));
    ck_assert_str_eq(a, c);
    key.device = NULL;
    ck_assert(!usmarr__diskcache_entry_path(&key, c, sizeof c));
    unsigned char *binary = (unsigned char *)"x";
    size_t size = 1;
    ck_assert_int_ne(usmarr__diskcache_load(&key, &binary, &size), 0);
    ck_assert_ptr_null(binary);
    usmarr__diskcache_store(&key, (const unsigned char *)"x", 1); /* ignored */
    ck_assert_int_ne(usmarr__diskcache_load(NULL, &binary, &size), 0);

    /* Every other usable device has other entries. */
    usmarr_device_info_t *devs;
    size_t n;
    ck_assert_ok(usmarr_devices_list(&devs, &n));
    for (size_t i = 0; i < n; i++) {
        if (!devs[i].usable || !strcmp(devs[i].selector, test_selector))
            continue;
        usmarr_context_t *other;
        ck_assert_ok(usmarr_context_create(devs[i].selector, &other));
        key = probe_key(other, 1, options);
        ck_assert(usmarr__diskcache_entry_path(&key, c, sizeof c));
        ck_assert_str_ne(a, c);
        usmarr_context_release(other);
    }
    usmarr_devices_free(devs);
}
END_TEST

/* ---- corrupt entries ----------------------------------------------------------------- */

START_TEST(test_cache_truncated_entries_miss_are_deleted_and_rebuilt)
{
    assert_obtain(3, PROBE_COMPILED);
    char path[PATH_MAX];
    cache_entry_path(3, path, sizeof path);
    long long full = cache_size_of(path);
    const long long lengths[] = {0, 7, 23, 100, full / 2, full - 17, full - 1};
    uint64_t discards = 0;
    for (size_t i = 0; i < sizeof lengths / sizeof *lengths; i++) {
        ck_assert_int_eq(truncate(path, lengths[i]), 0);
        assert_obtain(3, PROBE_COMPILED); /* miss, deleted, compiled, stored again */
        ck_assert_uint_eq(cache_module_stats().discards, ++discards);
        ck_assert_int_eq(cache_size_of(path), full);
        assert_obtain(3, PROBE_LOADED);
    }
    /* Garbage appended is as bad as bytes missing. */
    size_t size;
    unsigned char *data = cache_read_file(path, &size);
    data = realloc(data, size + 1);
    data[size] = 0;
    cache_write_file(path, data, size + 1);
    free(data);
    assert_obtain(3, PROBE_COMPILED);
    assert_obtain(3, PROBE_LOADED);
}
END_TEST

START_TEST(test_cache_bit_flipped_entries_miss_are_deleted_and_rebuilt)
{
    assert_obtain(4, PROBE_COMPILED);
    char path[PATH_MAX];
    cache_entry_path(4, path, sizeof path);
    size_t size;
    unsigned char *good = cache_read_file(path, &size);
    uint64_t key_size = 0;
    for (int i = 7; i >= 0; i--)
        key_size = key_size << 8 | good[16 + i];
    ck_assert_uint_lt(key_size, size);
    /* magic, format version, reserved, key length, key, payload length, payload, checksum */
    const size_t offsets[] = {0,  9, 13, 17, 24 + key_size / 2, 24 + key_size + 2, 32 + key_size + (size - 48 - key_size) / 2,
                              size - 1};
    for (size_t i = 0; i < sizeof offsets / sizeof *offsets; i++) {
        unsigned char *bad = malloc(size);
        memcpy(bad, good, size);
        bad[offsets[i]] ^= 0x10;
        cache_write_file(path, bad, size);
        free(bad);
        unsigned char *binary;
        size_t binary_size;
        char options[64];
        struct usmarr__program_key key = probe_key(cache_ctx, 4, options);
        ck_assert_msg(usmarr__diskcache_load(&key, &binary, &binary_size) != 0, "flip at %zu was a hit", offsets[i]);
        ck_assert_msg(!cache_exists(path), "flip at %zu: entry not deleted", offsets[i]);
        assert_obtain(4, PROBE_COMPILED);
        assert_obtain(4, PROBE_LOADED);
    }
    free(good);
    ck_assert_uint_eq(cache_module_stats().discards, sizeof offsets / sizeof *offsets);
}
END_TEST

START_TEST(test_cache_wrong_key_entry_misses_and_never_runs_the_other_kernel)
{
    /* Variant 31's entry under variant 32's name: a stand-in for a hash collision.  Served,
     * it would add 31 instead of 32 and the result check would fail. */
    assert_obtain(31, PROBE_COMPILED);
    char path31[PATH_MAX], path32[PATH_MAX];
    cache_entry_path(31, path31, sizeof path31);
    cache_entry_path(32, path32, sizeof path32);
    size_t size;
    unsigned char *data = cache_read_file(path31, &size);
    cache_write_file(path32, data, size);
    free(data);
    assert_obtain(32, PROBE_COMPILED);
    ck_assert_uint_eq(cache_module_stats().discards, 1);
    assert_obtain(32, PROBE_LOADED);
    assert_obtain(31, PROBE_LOADED);
    int entries, temps;
    cache_count_files(cache_dir, &entries, &temps);
    ck_assert_int_eq(entries, 2);
    ck_assert_int_eq(temps, 0);
}
END_TEST

START_TEST(test_cache_binary_that_fails_to_build_is_discarded_and_rebuilt)
{
    char options[64];
    struct usmarr__program_key key = probe_key(cache_ctx, 41, options);
    unsigned char junk[4096];
    for (size_t i = 0; i < sizeof junk; i++)
        junk[i] = (unsigned char)(i * 131 + 7);
    usmarr__diskcache_store(&key, junk, sizeof junk); /* a valid entry around a useless binary */
    char path[PATH_MAX];
    cache_entry_path(41, path, sizeof path);
    ck_assert(cache_exists(path));
    assert_obtain(41, PROBE_COMPILED); /* hit, build fails, discard, compile, store */
    usmarr_cache_stats_t s = cache_module_stats();
    ck_assert_uint_eq(s.hits, 1);
    ck_assert_uint_eq(s.discards, 1);
    ck_assert_uint_eq(s.stores, 2);
    assert_obtain(41, PROBE_LOADED);
}
END_TEST

START_TEST(test_cache_driver_version_change_misses)
{
    assert_obtain(5, PROBE_COMPILED);
    char before[PATH_MAX], after[PATH_MAX];
    cache_entry_path(5, before, sizeof before);
    usmarr__diskcache_test_driver_version("99.9-simulated-update");
    cache_entry_path(5, after, sizeof after);
    ck_assert_str_ne(before, after);
    assert_obtain(5, PROBE_COMPILED);
    assert_obtain(5, PROBE_LOADED);
    int entries, temps;
    cache_count_files(cache_dir, &entries, &temps);
    ck_assert_int_eq(entries, 2); /* the old one ages out through the cap */
    usmarr__diskcache_test_driver_version(NULL);
    assert_obtain(5, PROBE_LOADED);
}
END_TEST

/* ---- concurrency ------------------------------------------------------------------ */

static void helper_path(char *path, size_t size)
{
    const char *builddir = getenv("USMARR_TEST_BUILDDIR");
    if (builddir && *builddir) {
        snprintf(path, size, "%s/cache_child", builddir);
        return;
    }
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    ck_assert_int_gt(n, 0);
    self[n] = '\0';
    char *slash = strrchr(self, '/');
    *slash = '\0';
    if (strlen(self) >= 6 && !strcmp(self + strlen(self) - 6, "/.libs"))
        self[strlen(self) - 6] = '\0'; /* libtool's real binary: the wrapper is one up */
    snprintf(path, size, "%s/cache_child", self);
}

/* Runs cache_child with `args`; output to root/child-<index>.out.  Returns the pid. */
pid_t cache_spawn(const char *const *args, int index, int keep_fd)
{
    char helper[PATH_MAX], out[PATH_MAX];
    helper_path(helper, sizeof helper);
    ck_assert_msg(access(helper, X_OK) == 0, "%s: %s", helper, strerror(errno));
    snprintf(out, sizeof out, "%s/child-%d.out", cache_root, index);
    int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    ck_assert_int_ge(fd, 0);
    const char *argv[8] = {helper};
    for (int i = 0; i < 6 && args[i]; i++)
        argv[i + 1] = args[i];
    fflush(NULL);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        dup2(fd, 1);
        dup2(fd, 2);
        if (keep_fd >= 0)
            fcntl(keep_fd, F_SETFD, 0);
        execv(helper, (char *const *)argv);
        _exit(127);
    }
    close(fd);
    return pid;
}

int cache_child_status(pid_t pid, int index, char *output, size_t size)
{
    int status;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    char out[PATH_MAX];
    snprintf(out, sizeof out, "%s/child-%d.out", cache_root, index);
    FILE *f = fopen(out, "r");
    if (size > 1024)
        size = 1024; /* the start says what failed; Check refuses very long messages */
    size_t n = f ? fread(output, 1, size - 1, f) : 0;
    output[n] = '\0';
    if (f)
        fclose(f);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

START_TEST(test_cache_concurrent_cold_processes_fill_one_valid_entry)
{
    enum { CHILDREN = 4 };
    int gate[2];
    ck_assert_int_eq(pipe2(gate, O_CLOEXEC), 0);
    char fd_text[16];
    snprintf(fd_text, sizeof fd_text, "%d", gate[0]);
    const char *args[] = {test_selector, "obtain", "6", fd_text, NULL};
    pid_t pids[CHILDREN];
    for (int i = 0; i < CHILDREN; i++)
        pids[i] = cache_spawn(args, i, gate[0]);
    close(gate[0]);
    close(gate[1]); /* every child starts now */
    int compiled = 0;
    for (int i = 0; i < CHILDREN; i++) {
        char output[4096];
        int status = cache_child_status(pids[i], i, output, sizeof output);
        ck_assert_msg(status == 0, "child %d exited %d: %s", i, status, output);
        compiled += strncmp(output, "compiled", 8) == 0;
    }
    ck_assert_int_ge(compiled, 1);
    int entries, temps;
    cache_count_files(cache_dir, &entries, &temps);
    ck_assert_int_eq(entries, 1);
    ck_assert_int_eq(temps, 0);
    assert_obtain(6, PROBE_LOADED);
}
END_TEST

struct thread_job {
    const struct usmarr__program_key *key;
    const unsigned char *binary;
    size_t size;
    int failures;
};

static int store_and_load(void *arg)
{
    struct thread_job *job = arg;
    for (int i = 0; i < 25; i++) {
        usmarr__diskcache_store(job->key, job->binary, job->size);
        unsigned char *loaded;
        size_t size;
        if (usmarr__diskcache_load(job->key, &loaded, &size) != 0) {
            job->failures++;
            continue;
        }
        job->failures += size != job->size || memcmp(loaded, job->binary, size) != 0;
        free(loaded);
    }
    return 0;
}

START_TEST(test_cache_concurrent_threads_store_and_load_one_key)
{
    size_t size;
    unsigned char *binary = real_binary(7, &size);
    char options[64];
    struct usmarr__program_key key = probe_key(cache_ctx, 7, options);
    enum { THREADS = 4 };
    thrd_t threads[THREADS];
    struct thread_job jobs[THREADS];
    for (int i = 0; i < THREADS; i++) {
        jobs[i] = (struct thread_job){&key, binary, size, 0};
        ck_assert_int_eq(thrd_create(&threads[i], store_and_load, &jobs[i]), thrd_success);
    }
    for (int i = 0; i < THREADS; i++) {
        ck_assert_int_eq(thrd_join(threads[i], NULL), thrd_success);
        ck_assert_int_eq(jobs[i].failures, 0);
    }
    free(binary);
    usmarr_cache_stats_t s = cache_module_stats();
    ck_assert_uint_eq(s.hits, THREADS * 25);
    ck_assert_uint_eq(s.stores, THREADS * 25);
    int entries, temps;
    cache_count_files(cache_dir, &entries, &temps);
    ck_assert_int_eq(entries, 1);
    ck_assert_int_eq(temps, 0);
    assert_obtain(7, PROBE_LOADED);
}
END_TEST

Suite *suite_cache(void);
Suite *suite_cache(void)
{
    Suite *s = suite_create("cache");
    TCase *tc = tcase_create("disk");
    tcase_set_tags(tc, TEST_TAG_VARIANTS);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_cache_store_then_load_hits_with_the_same_runnable_binary);
    tcase_add_test(tc, test_cache_key_covers_source_options_and_device);
    tcase_add_test(tc, test_cache_truncated_entries_miss_are_deleted_and_rebuilt);
    tcase_add_test(tc, test_cache_bit_flipped_entries_miss_are_deleted_and_rebuilt);
    tcase_add_test(tc, test_cache_wrong_key_entry_misses_and_never_runs_the_other_kernel);
    tcase_add_test(tc, test_cache_binary_that_fails_to_build_is_discarded_and_rebuilt);
    tcase_add_test(tc, test_cache_driver_version_change_misses);
    tcase_add_test(tc, test_cache_concurrent_cold_processes_fill_one_valid_entry);
    tcase_add_test(tc, test_cache_concurrent_threads_store_and_load_one_key);
    cache_add_settings_tests(tc);
    cache_add_api_tests(tc);
    suite_add_tcase(s, tc);
    return s;
}

