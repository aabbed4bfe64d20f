/* The disk cache of program binaries (lib/engine/diskcache.c, lib/engine/cache.c).
 *
 * The module is compiled into this test program as well (see Makefile.am), so the tests
 * drive its internal interface directly with a real program binary of the device under
 * test, exactly as the engine does (tests/engine/cache_probe.c): look up, build from the binary,
 * else compile, launch once, store.  That copy has its own settings and counters; the
 * public usmarr_cache_* functions are tested against the library's copy, and both share
 * the files on disk.  Every case checks the kernel's results on the host. */
#define _GNU_SOURCE /* nftw, pipe2 */
#include "../harness/common.h"

#include "cache_probe.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <threads.h>
#include <unistd.h>

static char root[1024]; /* private temporary directory of one test */
static char dir[PATH_MAX / 2];  /* root/cache: the cache directory of the test */
static usmarr_context_t *ctx;

static const char *const env_names[] = {"USMARR_CACHE",       "USMARR_CACHE_DIR", "USMARR_CACHE_MAX_BYTES",
                                        "USMARR_CACHE_TRACE", "XDG_CACHE_HOME",   "HOME",
                                        "POCL_EXTRA_BUILD_FLAGS", "CL_CONFIG_CPU_TARGET_ARCH",
                                        "USMARR_CACHE_SYSTEM_DIR"};
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
    const char *tmp = getenv("TMPDIR");
    snprintf(root, sizeof root, "%s/usmarr-cache-test-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    ck_assert_ptr_nonnull(mkdtemp(root));
    snprintf(dir, sizeof dir, "%s/cache", root);
    unsetenv("USMARR_CACHE");
    unsetenv("USMARR_CACHE_MAX_BYTES");
    unsetenv("USMARR_CACHE_TRACE");
    setenv("USMARR_CACHE_DIR", dir, 1);
    setenv("USMARR_CACHE_SYSTEM_DIR", "off", 1); /* every hit here comes from `dir` (test_build.c has the system cache) */
    usmarr__diskcache_reset();
    ctx = test_context();
}

static void teardown(void)
{
    usmarr_context_release(ctx);
    ctx = NULL;
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
    chmod(dir, 0700);
    nftw(root, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* ---- helpers --------------------------------------------------------------------- */

#define assert_obtain(variant, expected)                                                                  \
    do {                                                                                                  \
        enum probe_how how_;                                                                              \
        int rc_ = probe_obtain(ctx, (variant), 5, &how_, NULL);                                           \
        ck_assert_msg(rc_ == 0, "variant %d: %s (%d)", (variant), rc_ == 1 ? "wrong result" : usmarr_error_name(rc_), \
                      rc_);                                                                               \
        ck_assert_msg(how_ == (expected), "variant %d was %s, expected %s", (variant),                    \
                      how_ == PROBE_LOADED ? "loaded" : "compiled",                                      \
                      (expected) == PROBE_LOADED ? "loaded" : "compiled");                               \
    } while (0)

static void entry_path(int variant, char *path, size_t size)
{
    char options[64];
    struct usmarr__program_key key = probe_key(ctx, variant, options);
    ck_assert(usmarr__diskcache_entry_path(&key, path, size));
}

static bool exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

static long long size_of(const char *path)
{
    struct stat st;
    ck_assert_msg(stat(path, &st) == 0, "%s: %s", path, strerror(errno));
    return (long long)st.st_size;
}

/* Files in `d` ending in ".clbin" and starting with ".tmp-". */
static void count_files(const char *d, int *entries, int *temps)
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

static unsigned char *read_file(const char *path, size_t *size)
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

static void write_file(const char *path, const void *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    ck_assert_msg(f != NULL, "%s: %s", path, strerror(errno));
    ck_assert_uint_eq(fwrite(data, 1, size, f), size);
    ck_assert_int_eq(fclose(f), 0);
}

static void set_age(const char *path, int seconds_ago)
{
    struct timespec t[2];
    clock_gettime(CLOCK_REALTIME, &t[0]);
    t[0].tv_sec -= seconds_ago;
    t[1] = t[0];
    ck_assert_msg(utimensat(AT_FDCWD, path, t, 0) == 0, "%s: %s", path, strerror(errno));
}

static usmarr_cache_stats_t module_stats(void)
{
    usmarr_cache_stats_t s;
    ck_assert_int_eq(usmarr__diskcache_stats(&s), 0);
    return s;
}

/* A real binary of the probe program (compiled and launched once). */
static unsigned char *real_binary(int variant, size_t *size)
{
    cl_program program;
    ck_assert_int_eq(probe_compile(ctx, variant, &program), CL_SUCCESS);
    ck_assert_int_eq(probe_run(ctx, program, variant, 2), 0);
    unsigned char *binary;
    ck_assert_int_eq(probe_binary(ctx, program, &binary, size), CL_SUCCESS);
    clReleaseProgram(program);
    return binary;
}

static void reset_with_env(const char *name, const char *value)
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
    entry_path(1, path, sizeof path);
    struct stat st;
    ck_assert_int_eq(stat(path, &st), 0);
    ck_assert_uint_eq(st.st_mode & 0777, 0600);
    ck_assert_int_eq(stat(dir, &st), 0);
    ck_assert_uint_eq(st.st_mode & 0777, 0700);
    assert_obtain(1, PROBE_LOADED);
    assert_obtain(1, PROBE_LOADED);
    usmarr_cache_stats_t s = module_stats();
    ck_assert_uint_eq(s.hits, 2);
    ck_assert_uint_eq(s.misses, 1);
    ck_assert_uint_eq(s.stores, 1);
    ck_assert_uint_eq(s.entries, 1);
    ck_assert_uint_eq(s.bytes, (uint64_t)size_of(path));
    ck_assert(!s.disabled);

    /* The payload comes back byte for byte. */
    size_t size, loaded_size;
    unsigned char *binary = real_binary(2, &size), *loaded;
    char options[64];
    struct usmarr__program_key key = probe_key(ctx, 2, options);
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
    entry_path(1, a, sizeof a);
    entry_path(1, b, sizeof b);
    ck_assert_str_eq(a, b);
    entry_path(2, b, sizeof b); /* options differ */
    ck_assert_str_ne(a, b);
    char options[64];
    struct usmarr__program_key key = probe_key(ctx, 1, options);
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
    entry_path(3, path, sizeof path);
    long long full = size_of(path);
    const long long lengths[] = {0, 7, 23, 100, full / 2, full - 17, full - 1};
    uint64_t discards = 0;
    for (size_t i = 0; i < sizeof lengths / sizeof *lengths; i++) {
        ck_assert_int_eq(truncate(path, lengths[i]), 0);
        assert_obtain(3, PROBE_COMPILED); /* miss, deleted, compiled, stored again */
        ck_assert_uint_eq(module_stats().discards, ++discards);
        ck_assert_int_eq(size_of(path), full);
        assert_obtain(3, PROBE_LOADED);
    }
    /* Garbage appended is as bad as bytes missing. */
    size_t size;
    unsigned char *data = read_file(path, &size);
    data = realloc(data, size + 1);
    data[size] = 0;
    write_file(path, data, size + 1);
    free(data);
    assert_obtain(3, PROBE_COMPILED);
    assert_obtain(3, PROBE_LOADED);
}
END_TEST

START_TEST(test_cache_bit_flipped_entries_miss_are_deleted_and_rebuilt)
{
    assert_obtain(4, PROBE_COMPILED);
    char path[PATH_MAX];
    entry_path(4, path, sizeof path);
    size_t size;
    unsigned char *good = read_file(path, &size);
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
        write_file(path, bad, size);
        free(bad);
        unsigned char *binary;
        size_t binary_size;
        char options[64];
        struct usmarr__program_key key = probe_key(ctx, 4, options);
        ck_assert_msg(usmarr__diskcache_load(&key, &binary, &binary_size) != 0, "flip at %zu was a hit", offsets[i]);
        ck_assert_msg(!exists(path), "flip at %zu: entry not deleted", offsets[i]);
        assert_obtain(4, PROBE_COMPILED);
        assert_obtain(4, PROBE_LOADED);
    }
    free(good);
    ck_assert_uint_eq(module_stats().discards, sizeof offsets / sizeof *offsets);
}
END_TEST

START_TEST(test_cache_wrong_key_entry_misses_and_never_runs_the_other_kernel)
{
    /* Variant 31's entry under variant 32's name: a stand-in for a hash collision.  Served,
     * it would add 31 instead of 32 and the result check would fail. */
    assert_obtain(31, PROBE_COMPILED);
    char path31[PATH_MAX], path32[PATH_MAX];
    entry_path(31, path31, sizeof path31);
    entry_path(32, path32, sizeof path32);
    size_t size;
    unsigned char *data = read_file(path31, &size);
    write_file(path32, data, size);
    free(data);
    assert_obtain(32, PROBE_COMPILED);
    ck_assert_uint_eq(module_stats().discards, 1);
    assert_obtain(32, PROBE_LOADED);
    assert_obtain(31, PROBE_LOADED);
    int entries, temps;
    count_files(dir, &entries, &temps);
    ck_assert_int_eq(entries, 2);
    ck_assert_int_eq(temps, 0);
}
END_TEST

START_TEST(test_cache_binary_that_fails_to_build_is_discarded_and_rebuilt)
{
    char options[64];
    struct usmarr__program_key key = probe_key(ctx, 41, options);
    unsigned char junk[4096];
    for (size_t i = 0; i < sizeof junk; i++)
        junk[i] = (unsigned char)(i * 131 + 7);
    usmarr__diskcache_store(&key, junk, sizeof junk); /* a valid entry around a useless binary */
    char path[PATH_MAX];
    entry_path(41, path, sizeof path);
    ck_assert(exists(path));
    assert_obtain(41, PROBE_COMPILED); /* hit, build fails, discard, compile, store */
    usmarr_cache_stats_t s = module_stats();
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
    entry_path(5, before, sizeof before);
    usmarr__diskcache_test_driver_version("99.9-simulated-update");
    entry_path(5, after, sizeof after);
    ck_assert_str_ne(before, after);
    assert_obtain(5, PROBE_COMPILED);
    assert_obtain(5, PROBE_LOADED);
    int entries, temps;
    count_files(dir, &entries, &temps);
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
static pid_t spawn(const char *const *args, int index, int keep_fd)
{
    char helper[PATH_MAX], out[PATH_MAX];
    helper_path(helper, sizeof helper);
    ck_assert_msg(access(helper, X_OK) == 0, "%s: %s", helper, strerror(errno));
    snprintf(out, sizeof out, "%s/child-%d.out", root, index);
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

static int child_status(pid_t pid, int index, char *output, size_t size)
{
    int status;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    char out[PATH_MAX];
    snprintf(out, sizeof out, "%s/child-%d.out", root, index);
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
        pids[i] = spawn(args, i, gate[0]);
    close(gate[0]);
    close(gate[1]); /* every child starts now */
    int compiled = 0;
    for (int i = 0; i < CHILDREN; i++) {
        char output[4096];
        int status = child_status(pids[i], i, output, sizeof output);
        ck_assert_msg(status == 0, "child %d exited %d: %s", i, status, output);
        compiled += strncmp(output, "compiled", 8) == 0;
    }
    ck_assert_int_ge(compiled, 1);
    int entries, temps;
    count_files(dir, &entries, &temps);
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
    struct usmarr__program_key key = probe_key(ctx, 7, options);
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
    usmarr_cache_stats_t s = module_stats();
    ck_assert_uint_eq(s.hits, THREADS * 25);
    ck_assert_uint_eq(s.stores, THREADS * 25);
    int entries, temps;
    count_files(dir, &entries, &temps);
    ck_assert_int_eq(entries, 1);
    ck_assert_int_eq(temps, 0);
    assert_obtain(7, PROBE_LOADED);
}
END_TEST

/* ---- directories ------------------------------------------------------------------ */

START_TEST(test_cache_read_only_directory_serves_hits_and_disables_on_write)
{
    assert_obtain(11, PROBE_COMPILED);
    ck_assert_int_eq(chmod(dir, 0500), 0);
    /* A child without the capabilities that let root write anyway: it checks that the
     * directory really refuses writes before relying on it. */
    const char *args[] = {test_selector, "readonly-dir", "11", "12", NULL};
    pid_t pid = spawn(args, 0, -1);
    char output[4096];
    int status = child_status(pid, 0, output, sizeof output);
    ck_assert_msg(status == 0, "child exited %d: %s", status, output);
    ck_assert_int_eq(chmod(dir, 0700), 0);
    int entries, temps;
    count_files(dir, &entries, &temps);
    ck_assert_int_eq(entries, 1);
    ck_assert_int_eq(temps, 0);
    assert_obtain(11, PROBE_LOADED);
}
END_TEST

START_TEST(test_cache_uncreatable_directory_disables_the_cache_not_the_operation)
{
    char file[PATH_MAX], bad[PATH_MAX];
    snprintf(file, sizeof file, "%s/a-file", root);
    write_file(file, "x", 1);
    snprintf(bad, sizeof bad, "%s/a-file/cache", root); /* mkdir fails with ENOTDIR, even for root */
    reset_with_env("USMARR_CACHE_DIR", bad);
    assert_obtain(12, PROBE_COMPILED);
    usmarr_cache_stats_t s = module_stats();
    ck_assert(s.disabled);
    ck_assert_msg(strstr(s.reason, bad) != NULL, "reason: %s", s.reason);
    ck_assert_uint_eq(s.stores, 0);
    ck_assert_uint_eq(s.misses, 0); /* disabled before the first lookup */
    assert_obtain(12, PROBE_COMPILED);
    ck_assert_int_eq(size_of(file), 1);

    /* A directory that exists but is not ours to trust: writable by others. */
    ck_assert_int_eq(mkdir(dir, 0777), 0);
    ck_assert_int_eq(chmod(dir, 0777), 0);
    reset_with_env("USMARR_CACHE_DIR", dir);
    assert_obtain(12, PROBE_COMPILED);
    s = module_stats();
    ck_assert(s.disabled);
    ck_assert_msg(strstr(s.reason, "writable by group or others") != NULL, "reason: %s", s.reason);
    int entries, temps;
    count_files(dir, &entries, &temps);
    ck_assert_int_eq(entries, 0);
}
END_TEST

START_TEST(test_cache_missing_directory_is_created_private_with_parents)
{
    char deep[PATH_MAX], parent[PATH_MAX];
    snprintf(parent, sizeof parent, "%s/a", root);
    snprintf(deep, sizeof deep, "%s/a/b/usmarr", root);
    reset_with_env("USMARR_CACHE_DIR", deep);
    assert_obtain(13, PROBE_COMPILED);
    struct stat st;
    ck_assert_int_eq(stat(deep, &st), 0);
    ck_assert_uint_eq(st.st_mode & 0777, 0700);
    ck_assert_int_eq(stat(parent, &st), 0);
    ck_assert_uint_eq(st.st_mode & 0777, 0700);
    assert_obtain(13, PROBE_LOADED);

    /* Removed behind the process's back: the next store creates it again. */
    char path[PATH_MAX];
    entry_path(13, path, sizeof path);
    ck_assert_int_eq(unlink(path), 0);
    ck_assert_int_eq(rmdir(deep), 0);
    assert_obtain(13, PROBE_COMPILED);
    assert_obtain(13, PROBE_LOADED);
    ck_assert(!module_stats().disabled);
}
END_TEST

START_TEST(test_cache_directory_resolution_order)
{
    char buffer[PATH_MAX], expected[PATH_MAX], home[PATH_MAX / 2], xdg[PATH_MAX / 2];
    size_t needed;
    const char *why;
    snprintf(home, sizeof home, "%s/home", root);
    snprintf(xdg, sizeof xdg, "%s/xdg", root);
    setenv("HOME", home, 1);
    setenv("XDG_CACHE_HOME", xdg, 1);
    reset_with_env("USMARR_CACHE_DIR", dir);
    ck_assert_int_eq(usmarr__diskcache_directory(buffer, sizeof buffer, &needed, &why), 0);
    ck_assert_str_eq(buffer, dir);
    ck_assert_uint_eq(needed, strlen(dir) + 1);
    ck_assert_int_eq(usmarr__diskcache_directory(buffer, 3, &needed, &why), ERANGE);
    ck_assert_uint_eq(needed, strlen(dir) + 1);

    usmarr__diskcache_set_directory(root); /* the API setting wins over everything */
    ck_assert_int_eq(usmarr__diskcache_directory(buffer, sizeof buffer, &needed, &why), 0);
    ck_assert_str_eq(buffer, root);

    reset_with_env("USMARR_CACHE_DIR", NULL);
    snprintf(expected, sizeof expected, "%s/usmarr", xdg);
    ck_assert_int_eq(usmarr__diskcache_directory(buffer, sizeof buffer, &needed, &why), 0);
    ck_assert_str_eq(buffer, expected);

    reset_with_env("XDG_CACHE_HOME", "relative/ignored");
    snprintf(expected, sizeof expected, "%s/.cache/usmarr", home);
    ck_assert_int_eq(usmarr__diskcache_directory(buffer, sizeof buffer, &needed, &why), 0);
    ck_assert_str_eq(buffer, expected);
    assert_obtain(14, PROBE_COMPILED); /* creates home/.cache/usmarr, 0700 */
    struct stat st;
    ck_assert_int_eq(stat(expected, &st), 0);
    ck_assert_uint_eq(st.st_mode & 0777, 0700);
    assert_obtain(14, PROBE_LOADED);

    reset_with_env("USMARR_CACHE_DIR", "relative/ignored/too");
    ck_assert_int_eq(usmarr__diskcache_directory(buffer, sizeof buffer, &needed, &why), 0);
    ck_assert_str_eq(buffer, expected);
}
END_TEST

START_TEST(test_cache_home_unset_falls_back_to_the_password_database)
{
    unsetenv("USMARR_CACHE_DIR");
    unsetenv("XDG_CACHE_HOME");
    reset_with_env("HOME", NULL);
    struct passwd *pw = getpwuid(geteuid());
    ck_assert_ptr_nonnull(pw);
    char expected[PATH_MAX], buffer[PATH_MAX];
    snprintf(expected, sizeof expected, "%s/.cache/usmarr", strcmp(pw->pw_dir, "/") ? pw->pw_dir : "");
    size_t needed;
    const char *why;
    ck_assert_int_eq(usmarr__diskcache_directory(buffer, sizeof buffer, &needed, &why), 0);
    ck_assert_str_eq(buffer, expected);
    ck_assert_ptr_null(strstr(buffer, "/tmp/"));
    /* The operation works there (this writes one entry to the real default directory,
     * deleted again below). */
    /* The runner tests one device in several processes at once, all sharing this real
     * directory: a variant of this process's own keeps another's discard off our entry. */
    int variant = 1000 + (int)(getpid() % 1000000);
    enum probe_how how;
    ck_assert_int_eq(probe_obtain(ctx, variant, 5, &how, NULL), 0);
    ck_assert_int_eq(probe_obtain(ctx, variant, 5, &how, NULL), 0);
    usmarr_cache_stats_t s = module_stats();
    ck_assert_msg(how == PROBE_LOADED || s.disabled, "second use compiled without the cache being disabled");
    char options[64];
    struct usmarr__program_key key = probe_key(ctx, variant, options);
    usmarr__diskcache_discard(&key);
    char path[PATH_MAX];
    entry_path(variant, path, sizeof path);
    ck_assert(!exists(path));
}
END_TEST

/* ---- modes ------------------------------------------------------------------------ */

START_TEST(test_cache_mode_off_neither_reads_nor_writes)
{
    assert_obtain(21, PROBE_COMPILED);
    reset_with_env("USMARR_CACHE", "off");
    assert_obtain(21, PROBE_COMPILED);
    assert_obtain(22, PROBE_COMPILED);
    assert_obtain(22, PROBE_COMPILED);
    usmarr_cache_stats_t s = module_stats();
    ck_assert_uint_eq(s.mode, USMARR_CACHE_OFF);
    ck_assert_uint_eq(s.hits + s.misses + s.stores, 0);
    ck_assert_uint_eq(s.entries, 1);
    char path[PATH_MAX];
    entry_path(22, path, sizeof path);
    ck_assert(!exists(path));
    usmarr__diskcache_set_mode(USMARR_CACHE_ON); /* the API overrides the environment */
    assert_obtain(21, PROBE_LOADED);
}
END_TEST

START_TEST(test_cache_mode_readonly_serves_a_prewarmed_cache_without_changing_it)
{
    assert_obtain(23, PROBE_COMPILED);
    char path[PATH_MAX], other[PATH_MAX];
    entry_path(23, path, sizeof path);
    entry_path(24, other, sizeof other);
    set_age(path, 1000);
    struct stat before, after;
    ck_assert_int_eq(stat(path, &before), 0);
    reset_with_env("USMARR_CACHE", "ReadOnly");
    ck_assert_uint_eq(module_stats().mode, USMARR_CACHE_READONLY);
    assert_obtain(23, PROBE_LOADED);
    ck_assert_int_eq(stat(path, &after), 0);
    ck_assert_int_eq(after.st_mtime, before.st_mtime); /* no LRU bump */
    assert_obtain(24, PROBE_COMPILED);
    ck_assert(!exists(other)); /* no store */
    /* A corrupt entry is a miss but stays in place. */
    size_t size;
    unsigned char *data = read_file(path, &size);
    data[size / 2] ^= 1;
    write_file(path, data, size);
    free(data);
    assert_obtain(23, PROBE_COMPILED);
    ck_assert(exists(path));
    ck_assert_uint_eq(module_stats().discards, 0);
    /* Read-only mode never creates a missing directory. */
    char missing[PATH_MAX];
    snprintf(missing, sizeof missing, "%s/missing", root);
    reset_with_env("USMARR_CACHE_DIR", missing);
    assert_obtain(23, PROBE_COMPILED);
    ck_assert(!exists(missing));
    ck_assert(module_stats().disabled);
}
END_TEST

START_TEST(test_cache_environment_settings_are_parsed)
{
    static const struct {
        const char *value;
        uint64_t bytes;
    } sizes[] = {{"12345", 12345},       {"64K", 64 << 10},       {"1M", 1 << 20},
                 {"2GiB", 2ull << 30},   {"3MB", 3 << 20},        {"0", 0},
                 {"junk", 256ull << 20}, {"-5", 256ull << 20},    {"", 256ull << 20},
                 {"5X", 256ull << 20},   {"99999999999999999999", 256ull << 20}};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        reset_with_env("USMARR_CACHE_MAX_BYTES", sizes[i].value);
        ck_assert_msg(module_stats().max_bytes == sizes[i].bytes, "USMARR_CACHE_MAX_BYTES=%s gave %llu",
                      sizes[i].value, (unsigned long long)module_stats().max_bytes);
    }
    static const struct {
        const char *value;
        usmarr_cache_mode_t mode;
    } modes[] = {{"off", USMARR_CACHE_OFF},      {"0", USMARR_CACHE_OFF},           {"OFF", USMARR_CACHE_OFF},
                 {"on", USMARR_CACHE_ON},        {"1", USMARR_CACHE_ON},            {"", USMARR_CACHE_ON},
                 {"readonly", USMARR_CACHE_READONLY}, {"read-only", USMARR_CACHE_READONLY},
                 {"ro", USMARR_CACHE_READONLY},  {"bogus", USMARR_CACHE_ON}};
    for (size_t i = 0; i < sizeof modes / sizeof *modes; i++) {
        reset_with_env("USMARR_CACHE", modes[i].value);
        ck_assert_msg(module_stats().mode == modes[i].mode, "USMARR_CACHE=%s", modes[i].value);
    }
}
END_TEST

/* ---- eviction and trace --------------------------------------------------------------- */

START_TEST(test_cache_lru_eviction_under_a_tiny_cap)
{
    char a[PATH_MAX], b[PATH_MAX], c[PATH_MAX], d[PATH_MAX];
    assert_obtain(51, PROBE_COMPILED);
    assert_obtain(52, PROBE_COMPILED);
    assert_obtain(53, PROBE_COMPILED);
    entry_path(51, a, sizeof a);
    entry_path(52, b, sizeof b);
    entry_path(53, c, sizeof c);
    entry_path(54, d, sizeof d);
    long long sa = size_of(a), sb = size_of(b), sc = size_of(c);
    long long smallest = sa < sb ? (sa < sc ? sa : sc) : (sb < sc ? sb : sc);
    char cap[32];
    snprintf(cap, sizeof cap, "%lld", sa + sb + sc + smallest / 2); /* three fit, four do not */
    reset_with_env("USMARR_CACHE_MAX_BYTES", cap);
    set_age(a, 300);
    set_age(b, 200);
    set_age(c, 100);
    assert_obtain(51, PROBE_LOADED); /* a becomes the most recently used */
    assert_obtain(54, PROBE_COMPILED);
    ck_assert(exists(a));
    ck_assert_msg(!exists(b), "the least recently used entry survived");
    ck_assert(exists(c));
    ck_assert(exists(d));
    usmarr_cache_stats_t s = module_stats();
    ck_assert_uint_eq(s.evictions, 1);
    ck_assert_uint_le(s.bytes, s.max_bytes);
    ck_assert_uint_eq(s.entries, 3);
    assert_obtain(52, PROBE_COMPILED); /* and now c, the oldest, goes */
    ck_assert(!exists(c));
    assert_obtain(51, PROBE_LOADED);
    assert_obtain(54, PROBE_LOADED);

    /* An entry larger than the cap is not stored at all. */
    reset_with_env("USMARR_CACHE_MAX_BYTES", "100");
    assert_obtain(55, PROBE_COMPILED);
    assert_obtain(55, PROBE_COMPILED);
    ck_assert_uint_eq(module_stats().stores, 0);
}
END_TEST

/* Runs `fn` with stderr redirected to a file and returns what it printed. */
static char *capture_stderr(void (*fn)(void))
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/stderr.txt", root);
    fflush(stderr);
    int saved = dup(2);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    ck_assert_int_ge(fd, 0);
    dup2(fd, 2);
    close(fd);
    fn();
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    size_t size;
    unsigned char *text = read_file(path, &size);
    text = realloc(text, size + 1);
    text[size] = '\0';
    return (char *)text;
}

static void traced_operations(void)
{
    enum probe_how how;
    for (int i = 0; i < 2; i++)
        ck_assert_int_eq(probe_obtain(ctx, 61, 5, &how, NULL), 0);
    char options[64];
    struct usmarr__program_key key = probe_key(ctx, 61, options);
    usmarr__diskcache_trace("compile", &key, 12.5);
}

static void traced_failures(void)
{
    enum probe_how how;
    for (int i = 0; i < 3; i++)
        ck_assert_int_eq(probe_obtain(ctx, 62, 5, &how, NULL), 0);
}

static int count_lines_with(const char *text, const char *needle)
{
    int n = 0;
    for (const char *p = text; (p = strstr(p, needle)); p++)
        n++;
    return n;
}

START_TEST(test_cache_trace_reports_events_and_disabling_once)
{
    reset_with_env("USMARR_CACHE_TRACE", "1");
    ck_assert(usmarr__diskcache_tracing());
    char *text = capture_stderr(traced_operations);
    ck_assert_msg(count_lines_with(text, "usmarr-cache: miss ") == 1, "%s", text);
    ck_assert_msg(count_lines_with(text, "usmarr-cache: store ") == 1, "%s", text);
    ck_assert_msg(count_lines_with(text, "usmarr-cache: hit ") == 1, "%s", text);
    ck_assert_msg(count_lines_with(text, "usmarr-cache: compile ") == 1, "%s", text);
    ck_assert_msg(strstr(text, " ms") != NULL, "%s", text);
    free(text);

    char bad[PATH_MAX];
    snprintf(bad, sizeof bad, "%s/a-file", root);
    write_file(bad, "x", 1);
    snprintf(bad, sizeof bad, "%s/a-file/cache", root);
    reset_with_env("USMARR_CACHE_DIR", bad);
    text = capture_stderr(traced_failures);
    ck_assert_msg(count_lines_with(text, "usmarr-cache: disabled") == 1, "%s", text);
    ck_assert_msg(count_lines_with(text, "usmarr-cache:") == 1, "one message, nothing else: %s", text);
    free(text);

    reset_with_env("USMARR_CACHE_TRACE", NULL);
    ck_assert(!usmarr__diskcache_tracing());
    text = capture_stderr(traced_failures);
    ck_assert_str_eq(text, "");
    free(text);
}
END_TEST

/* ---- the public API (the library's own copy of the module) ---------------------------- */

START_TEST(test_cache_public_stats_and_clear_see_the_directory)
{
    usmarr_cache_stats_t before;
    ck_assert_ok(usmarr_cache_get_stats(&before));
    ck_assert_ok(usmarr_cache_set_directory(dir));
    char buffer[PATH_MAX];
    ck_assert_ok(usmarr_cache_directory(buffer, sizeof buffer));
    ck_assert_str_eq(buffer, dir);
    /* Three entries written by this program's copy of the module, plus other files. */
    assert_obtain(71, PROBE_COMPILED);
    assert_obtain(72, PROBE_COMPILED);
    assert_obtain(73, PROBE_COMPILED);
    char stale[PATH_MAX], fresh[PATH_MAX], other[PATH_MAX], a[PATH_MAX];
    snprintf(stale, sizeof stale, "%s/.tmp-crashed", dir);
    snprintf(fresh, sizeof fresh, "%s/.tmp-writing", dir);
    snprintf(other, sizeof other, "%s/notes.txt", dir);
    write_file(stale, "partial", 7);
    set_age(stale, 7200);
    write_file(fresh, "partial", 7);
    write_file(other, "keep me", 7);
    entry_path(71, a, sizeof a);
    usmarr_cache_stats_t s;
    ck_assert_ok(usmarr_cache_get_stats(&s));
    ck_assert_uint_eq(s.entries, 3);
    ck_assert_uint_eq(s.bytes, module_stats().bytes);
    ck_assert_uint_ge(s.bytes, 3 * (uint64_t)size_of(a) / 2);
    ck_assert_uint_eq(s.hits, before.hits); /* the library's counters saw none of it */
    size_t removed = 99;
    ck_assert_ok(usmarr_cache_clear(&removed));
    ck_assert_uint_eq(removed, 4);
    ck_assert(!exists(a) && !exists(stale));
    ck_assert(exists(fresh) && exists(other));
    ck_assert_ok(usmarr_cache_get_stats(&s));
    ck_assert_uint_eq(s.entries, 0);
    ck_assert_uint_eq(s.bytes, 0);
    ck_assert_ok(usmarr_cache_clear(NULL));
    assert_obtain(71, PROBE_COMPILED);

    /* A directory that does not exist is empty, not an error. */
    snprintf(buffer, sizeof buffer, "%s/none", root);
    ck_assert_ok(usmarr_cache_set_directory(buffer));
    ck_assert_ok(usmarr_cache_get_stats(&s));
    ck_assert_uint_eq(s.entries, 0);
    ck_assert_ok(usmarr_cache_clear(&removed));
    ck_assert_uint_eq(removed, 0);
    ck_assert(!exists(buffer));
    ck_assert_ok(usmarr_cache_set_directory(NULL));
    ck_assert_ok(usmarr_cache_directory(buffer, sizeof buffer));
    ck_assert_str_eq(buffer, dir); /* USMARR_CACHE_DIR, set by the fixture */
}
END_TEST

START_TEST(test_cache_public_functions_reject_bad_arguments)
{
    char longpath[PATH_MAX + 8];
    memset(longpath, 'a', sizeof longpath - 1);
    longpath[0] = '/';
    longpath[sizeof longpath - 1] = '\0';
    ck_assert_fails_with(usmarr_cache_set_directory(""), USMARR_ERROR_INVALID_ARGUMENT, "empty");
    ck_assert_fails_with(usmarr_cache_set_directory("relative/dir"), USMARR_ERROR_INVALID_ARGUMENT, "not absolute");
    ck_assert_fails_with(usmarr_cache_set_directory(longpath), USMARR_ERROR_INVALID_ARGUMENT, "exceeds the limit");
    ck_assert_ok(usmarr_cache_set_directory(dir));
    char small[4];
    ck_assert_fails_with(usmarr_cache_directory(NULL, 10), USMARR_ERROR_INVALID_ARGUMENT, "buffer");
    ck_assert_fails_with(usmarr_cache_directory(small, sizeof small), USMARR_ERROR_INVALID_ARGUMENT, "size=4");
    ck_assert_fails_with(usmarr_cache_set_mode((usmarr_cache_mode_t)7), USMARR_ERROR_INVALID_ARGUMENT, "mode=7");
    ck_assert_fails_with(usmarr_cache_get_stats(NULL), USMARR_ERROR_INVALID_ARGUMENT, "stats");
    ck_assert_fails_with(usmarr_cache_prewarm(NULL), USMARR_ERROR_INVALID_ARGUMENT, "context");

    usmarr_cache_stats_t s;
    ck_assert_ok(usmarr_cache_get_stats(&s));
    usmarr_cache_mode_t saved = s.mode;
    ck_assert_ok(usmarr_cache_set_mode(USMARR_CACHE_READONLY));
    size_t removed = 5;
    ck_assert_fails_with(usmarr_cache_clear(&removed), USMARR_ERROR_BAD_STATE, "readonly");
    ck_assert_uint_eq(removed, 0);
    ck_assert_fails_with(usmarr_cache_prewarm(ctx), USMARR_ERROR_BAD_STATE, "readonly");
    ck_assert_ok(usmarr_cache_set_mode(USMARR_CACHE_OFF));
    ck_assert_fails_with(usmarr_cache_prewarm(ctx), USMARR_ERROR_BAD_STATE, "off");
    ck_assert_ok(usmarr_cache_get_stats(&s));
    ck_assert_uint_eq(s.mode, USMARR_CACHE_OFF);
    ck_assert_ok(usmarr_cache_set_mode(USMARR_CACHE_ON));

    /* A directory path that loops: listing and clearing fail with the path named. */
    char loop[PATH_MAX], looped[PATH_MAX];
    snprintf(loop, sizeof loop, "%s/loop", root);
    ck_assert_int_eq(symlink(loop, loop), 0);
    snprintf(looped, sizeof looped, "%s/loop/cache", root);
    ck_assert_ok(usmarr_cache_set_directory(looped));
    ck_assert_fails_with(usmarr_cache_get_stats(&s), USMARR_ERROR_IO, looped);
    ck_assert_fails_with(usmarr_cache_clear(&removed), USMARR_ERROR_IO, looped);
    ck_assert_fails_with(usmarr_cache_prewarm(ctx), USMARR_ERROR_BAD_STATE, "disabled");

    ck_assert_ok(usmarr_cache_set_directory(NULL));
    ck_assert_ok(usmarr_cache_set_mode(saved));
}
END_TEST

START_TEST(test_cache_public_prewarm_fills_the_directory)
{
    usmarr_cache_stats_t s;
    ck_assert_ok(usmarr_cache_get_stats(&s));
    usmarr_cache_mode_t saved = s.mode;
    ck_assert_ok(usmarr_cache_set_mode(USMARR_CACHE_ON));
    ck_assert_ok(usmarr_cache_set_directory(dir));
    ck_assert_ok(usmarr_cache_prewarm(ctx));
    ck_assert_ok(usmarr_cache_get_stats(&s));
    ck_assert_uint_gt(s.entries, 20); /* casts from every dtype, elementwise, reductions */
    ck_assert_uint_gt(s.stores, 20);
    struct stat st;
    ck_assert_int_eq(stat(dir, &st), 0); /* prewarm checks (and creates) the directory first */
    ck_assert_ok(usmarr_cache_set_directory(NULL));
    ck_assert_ok(usmarr_cache_set_mode(saved));
}
END_TEST

/* ---- the engine on the library's copy ---------------------------------------------- */

/* A fresh context (so an empty in-memory program cache) casts int32 to float32 through
 * the engine; the result is checked against the host. */
static void engine_round(int round)
{
    enum { N = 999 };
    usmarr_context_t *c = test_context();
    int32_t host[N];
    float out[N];
    for (int i = 0; i < N; i++)
        host[i] = i * 3 - 500 + round;
    int64_t shape = N;
    usmarr_array_t *a = NULL, *b = NULL;
    ck_assert_ok(usmarr_array_from_host(c, 1, &shape, USMARR_INT32, host, NULL, USMARR_USM_DEVICE, &a));
    ck_assert_ok(usmarr_array_astype(a, USMARR_FLOAT32, USMARR_ORDER_C, NULL, &b));
    ck_assert_ok(usmarr_array_copy_to_host(b, out, NULL));
    for (int i = 0; i < N; i++)
        ck_assert_msg(out[i] == (float)host[i], "round %d: out[%d] = %g, expected %d", round, i, out[i], host[i]);
    usmarr_array_release(b);
    usmarr_array_release(a);
    usmarr_context_release(c);
}

/* Applies `damage` to every entry in the test's cache directory; returns how many. */
static int damage_entries(void (*damage)(const char *path))
{
    int n = 0;
    DIR *h = opendir(dir);
    ck_assert_ptr_nonnull(h);
    struct dirent *e;
    while ((e = readdir(h))) {
        size_t len = strlen(e->d_name);
        if (len < 6 || strcmp(e->d_name + len - 6, ".clbin"))
            continue;
        char path[PATH_MAX];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        damage(path);
        n++;
    }
    closedir(h);
    return n;
}

static void flip_middle(const char *path)
{
    size_t size;
    unsigned char *data = read_file(path, &size);
    data[size / 2] ^= 0x40;
    write_file(path, data, size);
    free(data);
}

static void cut_in_half(const char *path) { ck_assert_int_eq(truncate(path, size_of(path) / 2), 0); }

START_TEST(test_cache_engine_warm_starts_from_the_library_cache_and_survives_corruption)
{
    usmarr_cache_stats_t s0, s1, s2, s3;
    ck_assert_ok(usmarr_cache_get_stats(&s0));
    ck_assert_ok(usmarr_cache_set_mode(USMARR_CACHE_ON));
    ck_assert_ok(usmarr_cache_set_directory(dir));
    engine_round(0); /* cold: compiled, stored after the first launch */
    ck_assert_ok(usmarr_cache_get_stats(&s1));
    ck_assert_uint_gt(s1.stores, s0.stores);
    ck_assert_uint_ge(s1.entries, 1);
    engine_round(1); /* warm: loaded from disk */
    ck_assert_ok(usmarr_cache_get_stats(&s2));
    ck_assert_uint_gt(s2.hits, s1.hits);
    ck_assert_uint_eq(s2.stores, s1.stores);

    ck_assert_int_eq(damage_entries(flip_middle), (int)s1.entries);
    engine_round(2); /* every entry fails its checksum: deleted, compiled, stored again */
    ck_assert_ok(usmarr_cache_get_stats(&s3));
    ck_assert_uint_ge(s3.discards, s2.discards + 1);
    ck_assert_uint_gt(s3.stores, s2.stores);
    ck_assert_uint_eq(s3.entries, s1.entries);

    ck_assert_int_eq(damage_entries(cut_in_half), (int)s1.entries);
    engine_round(3);
    ck_assert_ok(usmarr_cache_get_stats(&s2));
    ck_assert_uint_gt(s2.discards, s3.discards);
    ck_assert_uint_eq(s2.entries, s1.entries);
    engine_round(4);
    ck_assert_ok(usmarr_cache_get_stats(&s3));
    ck_assert_uint_gt(s3.hits, s2.hits);
    ck_assert(!s3.disabled);

    ck_assert_ok(usmarr_cache_set_directory(NULL));
    ck_assert_ok(usmarr_cache_set_mode(s0.mode));
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
    tcase_add_test(tc, test_cache_read_only_directory_serves_hits_and_disables_on_write);
    tcase_add_test(tc, test_cache_uncreatable_directory_disables_the_cache_not_the_operation);
    tcase_add_test(tc, test_cache_missing_directory_is_created_private_with_parents);
    tcase_add_test(tc, test_cache_directory_resolution_order);
    tcase_add_test(tc, test_cache_home_unset_falls_back_to_the_password_database);
    tcase_add_test(tc, test_cache_mode_off_neither_reads_nor_writes);
    tcase_add_test(tc, test_cache_mode_readonly_serves_a_prewarmed_cache_without_changing_it);
    tcase_add_test(tc, test_cache_environment_settings_are_parsed);
    tcase_add_test(tc, test_cache_lru_eviction_under_a_tiny_cap);
    tcase_add_test(tc, test_cache_trace_reports_events_and_disabling_once);
    tcase_add_test(tc, test_cache_public_stats_and_clear_see_the_directory);
    tcase_add_test(tc, test_cache_public_functions_reject_bad_arguments);
    tcase_add_test(tc, test_cache_public_prewarm_fills_the_directory);
    tcase_add_test(tc, test_cache_engine_warm_starts_from_the_library_cache_and_survives_corruption);
    suite_add_tcase(s, tc);
    return s;
}
