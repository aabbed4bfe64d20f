/* Kernel builds: nothing the compilers say reaches the user's stdout or stderr, a failed
 * build says why in the error detail, USMARR_BUILD_LOG=1 shows the logs, and the system
 * cache (binaries built at installation) serves a process whose own cache is empty.
 *
 * The quiet checks run tests/cache_child in a fresh process with empty caches (its own
 * cache directory, PoCL's cache directory, no system cache), so that every kernel it
 * needs is really compiled, and compare its captured output with nothing. */
#define _GNU_SOURCE /* nftw */
#include "../harness/common.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static char root[1024]; /* private temporary directory of one test */

static const char *const env_names[] = {"USMARR_CACHE", "USMARR_CACHE_DIR", "USMARR_CACHE_SYSTEM_DIR",
                                        "USMARR_CACHE_TRACE", "USMARR_BUILD_LOG", "USMARR_KERNEL_DIR"};
#define ENV_COUNT (sizeof env_names / sizeof *env_names)
static char *saved_env[ENV_COUNT];
static usmarr_cache_mode_t saved_mode;

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    chmod(path, 0700);
    return remove(path);
}

static void setup(void)
{
    for (size_t i = 0; i < ENV_COUNT; i++) {
        const char *v = getenv(env_names[i]);
        saved_env[i] = v ? strdup(v) : NULL;
    }
    ck_assert(test_temp_dir(root, sizeof root, "usmarr-build-test"));
    usmarr_cache_stats_t s;
    ck_assert_ok(usmarr_cache_get_stats(&s));
    saved_mode = s.mode;
}

static void teardown(void)
{
    for (size_t i = 0; i < ENV_COUNT; i++) {
        if (saved_env[i])
            setenv(env_names[i], saved_env[i], 1);
        else
            unsetenv(env_names[i]);
        free(saved_env[i]);
        saved_env[i] = NULL;
    }
    /* back to the process's own settings (the environment is read again) */
    ck_assert_ok(usmarr_cache_set_directory(NULL));
    ck_assert_ok(usmarr_cache_set_mode(saved_mode));
    nftw(root, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

static void path_in_root(char *path, size_t size, const char *name)
{
    ck_assert_int_lt(snprintf(path, size, "%s/%s", root, name), (int)size);
}

static size_t count_entries(const char *dir)
{
    size_t n = 0;
    DIR *d = opendir(dir);
    for (struct dirent *e; d && (e = readdir(d));) {
        size_t len = strlen(e->d_name);
        n += len > 6 && !strcmp(e->d_name + len - 6, ".clbin");
    }
    if (d)
        closedir(d);
    return n;
}

/* ---- quiet builds, in a child process ----------------------------------------------- */

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
    *strrchr(self, '/') = '\0';
    if (strlen(self) >= 6 && !strcmp(self + strlen(self) - 6, "/.libs"))
        self[strlen(self) - 6] = '\0'; /* libtool's real binary: the wrapper is one up */
    snprintf(path, size, "%s/cache_child", self);
}

/* Starts `cache_child <device> ops [marker]` with fresh, empty caches (a new PoCL cache
 * directory under root/<name>, no system cache) and the cache directory `cache` (NULL:
 * a new one, root/<name>/cache) plus the variables of `extra` ("NAME=value",
 * NULL-terminated; NULL for none), stdout and stderr into root/<name>/output. */
static pid_t spawn_child(const char *name, const char *cache_dir, const char *marker, const char *const *extra)
{
    char helper[PATH_MAX], out[PATH_MAX], cache[PATH_MAX + 32], pocl[PATH_MAX + 32];
    helper_path(helper, sizeof helper);
    ck_assert_msg(access(helper, X_OK) == 0, "%s: %s", helper, strerror(errno));
    path_in_root(out, sizeof out, name);
    ck_assert_int_eq(mkdir(out, 0700), 0);
    if (cache_dir)
        snprintf(cache, sizeof cache, "USMARR_CACHE_DIR=%s", cache_dir);
    else
        snprintf(cache, sizeof cache, "USMARR_CACHE_DIR=%s/cache", out);
    snprintf(pocl, sizeof pocl, "POCL_CACHE_DIR=%s/pocl", out);
    ck_assert_int_eq(mkdir(pocl + strlen("POCL_CACHE_DIR="), 0700), 0);
    strcat(out, "/output");
    /* the environment, less anything that would print or change where kernels come from */
    static const char *const dropped[] = {"USMARR_CACHE", "USMARR_CACHE_DIR=", "USMARR_CACHE_SYSTEM_DIR=",
                                          "USMARR_CACHE_TRACE=", "USMARR_BUILD_LOG=", "POCL_CACHE_DIR=",
                                          "POCL_DEBUG=", "USMARR_KERNEL_DIR="};
    size_t n = 0;
    for (char **e = environ; *e; e++)
        n++;
    for (size_t i = 0; extra && extra[i]; i++)
        n++;
    char **envp = calloc(n + 8, sizeof *envp);
    ck_assert_ptr_nonnull(envp);
    size_t k = 0;
    for (char **e = environ; *e; e++) {
        bool drop = false;
        for (size_t i = 0; i < sizeof dropped / sizeof *dropped; i++)
            drop |= !strncmp(*e, dropped[i], strlen(dropped[i]));
        if (!drop)
            envp[k++] = *e;
    }
    envp[k++] = cache;
    envp[k++] = pocl;
    envp[k++] = "USMARR_CACHE_SYSTEM_DIR=off";
    for (size_t i = 0; extra && extra[i]; i++)
        envp[k++] = (char *)extra[i];
    envp[k] = NULL;
    const char *argv[] = {helper, test_selector, "ops", marker, NULL};
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
    fflush(NULL);
    pid_t pid;
    int rc = posix_spawn(&pid, helper, &actions, NULL, (char *const *)argv, envp);
    posix_spawn_file_actions_destroy(&actions);
    free(envp);
    ck_assert_msg(rc == 0, "posix_spawn %s: %s", helper, strerror(rc));
    return pid;
}

/* Waits for the child of root/<name>, up to CHILD_LIMIT_S (then it is killed and the
 * status is 124); returns its exit status and its output. */
enum { CHILD_LIMIT_S = 120 };
static int wait_child(pid_t pid, const char *name, char *output, size_t size)
{
    int status = 0;
    pid_t got_pid = 0;
    for (int tenths = 0; (got_pid = waitpid(pid, &status, WNOHANG)) == 0 && tenths < 10 * CHILD_LIMIT_S; tenths++)
        usleep(100000);
    if (got_pid == 0) {
        kill(pid, SIGKILL);
        ck_assert_int_eq(waitpid(pid, &status, 0), pid);
        status = 124 << 8; /* as timeout(1) reports it */
    } else {
        ck_assert_int_eq(got_pid, pid);
    }
    char out[PATH_MAX];
    path_in_root(out, sizeof out, name);
    strcat(out, "/output");
    FILE *f = fopen(out, "r");
    size_t got = f ? fread(output, 1, size - 1, f) : 0;
    output[got] = '\0';
    if (f)
        fclose(f);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static int run_child(const char *name, const char *marker, const char *const *extra, char *output, size_t size)
{
    return wait_child(spawn_child(name, NULL, marker, extra), name, output, size);
}

START_TEST(test_build_cold_compiles_print_nothing_and_compile_once_across_processes)
{
    /* Two processes at once: add, sum, sort and a cast, every kernel compiled from source.
     * PoCL's clang used to print "N warnings generated." to stderr for each (ABI notes on
     * 16-wide vectors in its own headers), 114 lines for a sort.  They share one cache
     * directory: each program is compiled by one of them while the other waits for it
     * and loads it (the disk cache's compile lock). */
    char cache[PATH_MAX], output[2][1024];
    path_in_root(cache, sizeof cache, "shared-cache");
    static const char *const names[2] = {"cold-a", "cold-b"};
    pid_t pids[2];
    for (int i = 0; i < 2; i++)
        pids[i] = spawn_child(names[i], cache, NULL, NULL);
    unsigned long long stores = 0, hits = 0;
    for (int i = 0; i < 2; i++) {
        int status = wait_child(pids[i], names[i], output[i], sizeof output[i]);
        ck_assert_msg(status == 0, "cache_child ops exited with %d: %s", status, output[i]);
        /* its own last line, and nothing else */
        unsigned long long s = 0, h = 0;
        int used = 0;
        ck_assert_msg(sscanf(output[i], "cache_child: stores %llu hits %llu\n%n", &s, &h, &used) == 2 &&
                          output[i][used] == '\0',
                      "compiling printed: %s", output[i]);
        stores += s;
        hits += h;
    }
    size_t entries = count_entries(cache);
    ck_assert_uint_ge(entries, 4); /* the kernels were compiled there, not found elsewhere */
    /* each program compiled and stored once (when built, or after its first launch) */
    ck_assert_uint_eq(stores, entries);
    ck_assert_uint_eq(hits, entries);   /* and loaded by the other process */
}
END_TEST

START_TEST(test_build_first_launch_on_a_held_queue_returns_and_is_stored)
{
    /* The child holds its context's queue behind a user event that it sets only after the
     * call that compiles `add` and launches it there has returned.  The store of a freshly
     * compiled program after its first launch must not wait for that launch for ever (a
     * finish of the queue never returned), and every program is stored all the same. */
    char output[1024], cache[PATH_MAX];
    int status = run_child("held", "held", NULL, output, sizeof output);
    ck_assert_msg(status == 0, "cache_child ops held exited with %d: %s", status, output);
    unsigned long long stores = 0, hits = 0;
    ck_assert_msg(sscanf(output, "cache_child: stores %llu hits %llu", &stores, &hits) == 2, "%s", output);
    path_in_root(cache, sizeof cache, "held/cache");
    ck_assert_uint_ge(count_entries(cache), 4);
    ck_assert_uint_eq(stores, count_entries(cache));
}
END_TEST

/* root/cl: the library's kernel sources with a line that does not compile appended to
 * the cast family. */
static const char *broken_kernel_dir(void)
{
    static char dir[PATH_MAX];
    const char *srcdir = getenv("USMARR_TEST_SRCDIR");
    ck_assert_msg(srcdir && *srcdir, "USMARR_TEST_SRCDIR names the tests' source directory");
    char from[PATH_MAX];
    snprintf(from, sizeof from, "%s/../cl", srcdir);
    path_in_root(dir, sizeof dir, "cl");
    ck_assert_int_eq(mkdir(dir, 0700), 0);
    DIR *d = opendir(from);
    ck_assert_msg(d != NULL, "%s: %s", from, strerror(errno));
    int copied = 0;
    for (struct dirent *e; (e = readdir(d));) {
        size_t len = strlen(e->d_name);
        if (len < 4 || strcmp(e->d_name + len - 3, ".cl"))
            continue;
        char src[PATH_MAX * 2], dst[PATH_MAX * 2], buf[65536];
        snprintf(src, sizeof src, "%s/%s", from, e->d_name);
        snprintf(dst, sizeof dst, "%s/%s", dir, e->d_name);
        FILE *in = fopen(src, "rb"), *out = fopen(dst, "wb");
        ck_assert(in && out);
        for (size_t n; (n = fread(buf, 1, sizeof buf, in)) > 0;)
            ck_assert_uint_eq(fwrite(buf, 1, n, out), n);
        if (!strcmp(e->d_name, "cast.cl"))
            fputs("\nusmarr_broken_on_purpose not_a_declaration;\n", out);
        fclose(in);
        ck_assert_int_eq(fclose(out), 0);
        copied++;
    }
    closedir(d);
    ck_assert_int_gt(copied, 3);
    return dir;
}

START_TEST(test_build_failure_is_in_the_detail_and_not_printed)
{
    char env[PATH_MAX + 32], output[1024];
    snprintf(env, sizeof env, "USMARR_KERNEL_DIR=%s", broken_kernel_dir());
    /* the child checks that the cast fails with USMARR_ERROR_BUILD and a detail quoting
     * the compiler's complaint about the marker */
    const char *const extra[] = {env, NULL};
    int status = run_child("broken", "usmarr_broken_on_purpose", extra, output, sizeof output);
    ck_assert_msg(status == 0, "cache_child ops exited with %d: %s", status, output);
    /* Nothing of the log.  PoCL's clang alone writes its count of errors to stderr, and
     * PoCL accepts no build option that turns that line off (doc/engine.md). */
    const char *rest = output;
    size_t digits = strspn(output, "0123456789");
    if (digits && !strncmp(output + digits, " error", 6)) {
        const char *p = output + digits + 6;
        p += *p == 's';
        if (!strncmp(p, " generated.\n", 12))
            rest = p + 12;
    }
    ck_assert_msg(rest[0] == '\0', "the failed build printed: %s", output);
}
END_TEST

START_TEST(test_build_log_is_printed_when_asked)
{
    char env[PATH_MAX + 32], output[4096];
    snprintf(env, sizeof env, "USMARR_KERNEL_DIR=%s", broken_kernel_dir());
    const char *const extra[] = {env, "USMARR_BUILD_LOG=1", NULL};
    int status = run_child("logged", "usmarr_broken_on_purpose", extra, output, sizeof output);
    ck_assert_msg(status == 0, "cache_child ops exited with %d: %s", status, output);
    ck_assert_msg(strstr(output, "usmarr-build: program cast") && strstr(output, "usmarr_broken_on_purpose"),
                  "USMARR_BUILD_LOG=1 printed: %s", output);
}
END_TEST

/* ---- the system cache ---------------------------------------------------------------- */


/* Makes root/system a system cache holding the cast's program, and points the process
 * at it with an empty cache directory root/user. */
static void make_system_cache(char *system, char *user, size_t size)
{
    path_in_root(system, size, "system");
    path_in_root(user, size, "user");
    ck_assert_int_eq(setenv("USMARR_CACHE_SYSTEM_DIR", "off", 1), 0);
    ck_assert_ok(usmarr_cache_set_mode(USMARR_CACHE_ON));
    ck_assert_ok(usmarr_cache_set_directory(system)); /* as make install fills it */
    test_cast_round(0);
    ck_assert_uint_ge(count_entries(system), 1);
    ck_assert_int_eq(chmod(system, 0755), 0);
    ck_assert_int_eq(setenv("USMARR_CACHE_SYSTEM_DIR", system, 1), 0);
    ck_assert_ok(usmarr_cache_set_directory(user)); /* reads the environment again */
}

START_TEST(test_build_system_cache_serves_an_empty_user_cache_and_is_never_written)
{
    char system[PATH_MAX], user[PATH_MAX], found[PATH_MAX];
    make_system_cache(system, user, sizeof system);
    size_t before = count_entries(system);
    ck_assert_ok(usmarr_cache_system_directory(found, sizeof found));
    ck_assert_str_eq(found, system);
    usmarr_cache_stats_t s0, s1;
    ck_assert_ok(usmarr_cache_get_stats(&s0));
    test_cast_round(1);
    ck_assert_ok(usmarr_cache_get_stats(&s1));
    ck_assert_uint_gt(s1.hits, s0.hits);     /* found in the system cache */
    ck_assert_uint_eq(s1.stores, s0.stores); /* nothing compiled, nothing stored */
    ck_assert_uint_eq(count_entries(user), 0);
    ck_assert_uint_eq(count_entries(system), before);
}
END_TEST

static void flip_every_entry(const char *dir)
{
    DIR *d = opendir(dir);
    ck_assert_ptr_nonnull(d);
    for (struct dirent *e; (e = readdir(d));) {
        size_t len = strlen(e->d_name);
        if (len < 6 || strcmp(e->d_name + len - 6, ".clbin"))
            continue;
        char path[PATH_MAX * 2];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        int fd = open(path, O_RDWR);
        ck_assert_int_ge(fd, 0);
        struct stat st;
        ck_assert_int_eq(fstat(fd, &st), 0);
        unsigned char c;
        ck_assert_int_eq(pread(fd, &c, 1, st.st_size / 2), 1);
        c ^= 0x10;
        ck_assert_int_eq(pwrite(fd, &c, 1, st.st_size / 2), 1);
        close(fd);
    }
    closedir(d);
}

START_TEST(test_build_system_cache_bad_entry_is_a_miss_left_in_place)
{
    char system[PATH_MAX], user[PATH_MAX];
    make_system_cache(system, user, sizeof system);
    size_t before = count_entries(system);
    flip_every_entry(system);
    usmarr_cache_stats_t s0, s1;
    ck_assert_ok(usmarr_cache_get_stats(&s0));
    test_cast_round(2); /* compiled again, correct, stored in the user's cache */
    ck_assert_ok(usmarr_cache_get_stats(&s1));
    ck_assert_uint_gt(s1.stores, s0.stores);
    ck_assert_uint_eq(s1.discards, s0.discards); /* the system cache is never modified */
    ck_assert_uint_eq(count_entries(system), before);
    ck_assert_uint_ge(count_entries(user), 1);
}
END_TEST

START_TEST(test_build_system_cache_writable_by_others_or_off_is_not_used)
{
    char system[PATH_MAX], user[PATH_MAX], found[PATH_MAX];
    make_system_cache(system, user, sizeof system);
    ck_assert_int_eq(chmod(system, 0777), 0);
    ck_assert_ok(usmarr_cache_set_directory(user)); /* checked again */
    ck_assert_fails_with(usmarr_cache_system_directory(found, sizeof found), USMARR_ERROR_IO, "writable by group");
    usmarr_cache_stats_t s0, s1;
    ck_assert_ok(usmarr_cache_get_stats(&s0));
    test_cast_round(3);
    ck_assert_ok(usmarr_cache_get_stats(&s1));
    ck_assert_uint_gt(s1.stores, s0.stores); /* compiled: the untrusted binaries were not read */

    ck_assert_int_eq(setenv("USMARR_CACHE_SYSTEM_DIR", "off", 1), 0);
    ck_assert_ok(usmarr_cache_set_directory(user));
    ck_assert_fails_with(usmarr_cache_system_directory(found, sizeof found), USMARR_ERROR_IO, "turns it off");
    path_in_root(found, sizeof found, "missing");
    ck_assert_int_eq(setenv("USMARR_CACHE_SYSTEM_DIR", found, 1), 0);
    ck_assert_ok(usmarr_cache_set_directory(user));
    ck_assert_fails_with(usmarr_cache_system_directory(found, sizeof found), USMARR_ERROR_IO, "No such file");
}
END_TEST

START_TEST(test_build_system_directory_rejects_bad_arguments)
{
    char system[PATH_MAX], small[4];
    path_in_root(system, sizeof system, "system");
    ck_assert_int_eq(mkdir(system, 0755), 0);
    ck_assert_int_eq(setenv("USMARR_CACHE_SYSTEM_DIR", system, 1), 0);
    ck_assert_ok(usmarr_cache_set_directory(NULL));
    ck_assert_fails_with(usmarr_cache_system_directory(NULL, 100), USMARR_ERROR_INVALID_ARGUMENT, "buffer is NULL");
    memcpy(small, "abc", 4);
    ck_assert_fails_with(usmarr_cache_system_directory(small, sizeof small), USMARR_ERROR_INVALID_ARGUMENT, "size=4");
    ck_assert_str_eq(small, "abc"); /* unchanged */
}
END_TEST

Suite *suite_build(void);
Suite *suite_build(void)
{
    Suite *s = suite_create("build");
    TCase *tc = tcase_create("build");
    tcase_set_tags(tc, TEST_TAG_VARIANTS);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 0);
    tcase_add_test(tc, test_build_cold_compiles_print_nothing_and_compile_once_across_processes);
    tcase_add_test(tc, test_build_first_launch_on_a_held_queue_returns_and_is_stored);
    tcase_add_test(tc, test_build_failure_is_in_the_detail_and_not_printed);
    tcase_add_test(tc, test_build_log_is_printed_when_asked);
    tcase_add_test(tc, test_build_system_cache_serves_an_empty_user_cache_and_is_never_written);
    tcase_add_test(tc, test_build_system_cache_bad_entry_is_a_miss_left_in_place);
    tcase_add_test(tc, test_build_system_cache_writable_by_others_or_off_is_not_used);
    tcase_add_test(tc, test_build_system_directory_rejects_bad_arguments);
    suite_add_tcase(s, tc);
    return s;
}
