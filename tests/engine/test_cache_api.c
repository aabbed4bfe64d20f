/* The cache suite (test_cache.c): the public usmarr_cache_* functions on the library's
 * copy of the module, and the engine warm-starting from that copy's directory. */
#include "../harness/common.h"

#include "test_cache.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

extern char **environ;

/* ---- the public API (the library's own copy of the module) ---------------------------- */

START_TEST(test_cache_public_stats_and_clear_see_the_directory)
{
    usmarr_cache_stats_t before;
    ck_assert_ok(usmarr_cache_get_stats(&before));
    ck_assert_ok(usmarr_cache_set_directory(cache_dir));
    char buffer[PATH_MAX];
    ck_assert_ok(usmarr_cache_directory(buffer, sizeof buffer));
    ck_assert_str_eq(buffer, cache_dir);
    /* Three entries written by this program's copy of the module, plus other files. */
    assert_obtain(71, PROBE_COMPILED);
    assert_obtain(72, PROBE_COMPILED);
    assert_obtain(73, PROBE_COMPILED);
    char stale[PATH_MAX], fresh[PATH_MAX], other[PATH_MAX], a[PATH_MAX];
    snprintf(stale, sizeof stale, "%s/.tmp-crashed", cache_dir);
    snprintf(fresh, sizeof fresh, "%s/.tmp-writing", cache_dir);
    snprintf(other, sizeof other, "%s/notes.txt", cache_dir);
    cache_write_file(stale, "partial", 7);
    cache_set_age(stale, 7200);
    cache_write_file(fresh, "partial", 7);
    cache_write_file(other, "keep me", 7);
    cache_entry_path(71, a, sizeof a);
    usmarr_cache_stats_t s;
    ck_assert_ok(usmarr_cache_get_stats(&s));
    ck_assert_uint_eq(s.entries, 3);
    ck_assert_uint_eq(s.bytes, cache_module_stats().bytes);
    ck_assert_uint_ge(s.bytes, 3 * (uint64_t)cache_size_of(a) / 2);
    ck_assert_uint_eq(s.hits, before.hits); /* the library's counters saw none of it */
    size_t removed = 99;
    ck_assert_ok(usmarr_cache_clear(&removed));
    ck_assert_uint_eq(removed, 4);
    ck_assert(!cache_exists(a) && !cache_exists(stale));
    ck_assert(cache_exists(fresh) && cache_exists(other));
    ck_assert_ok(usmarr_cache_get_stats(&s));
    ck_assert_uint_eq(s.entries, 0);
    ck_assert_uint_eq(s.bytes, 0);
    ck_assert_ok(usmarr_cache_clear(NULL));
    assert_obtain(71, PROBE_COMPILED);

    /* A directory that does not exist is empty, not an error. */
    snprintf(buffer, sizeof buffer, "%s/none", cache_root);
    ck_assert_ok(usmarr_cache_set_directory(buffer));
    ck_assert_ok(usmarr_cache_get_stats(&s));
    ck_assert_uint_eq(s.entries, 0);
    ck_assert_ok(usmarr_cache_clear(&removed));
    ck_assert_uint_eq(removed, 0);
    ck_assert(!cache_exists(buffer));
    ck_assert_ok(usmarr_cache_set_directory(NULL));
    ck_assert_ok(usmarr_cache_directory(buffer, sizeof buffer));
    ck_assert_str_eq(buffer, cache_dir); /* USMARR_CACHE_DIR, set by the fixture */
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
    ck_assert_ok(usmarr_cache_set_directory(cache_dir));
    char small[4];
    ck_assert_fails_with(usmarr_cache_directory(NULL, 10), USMARR_ERROR_INVALID_ARGUMENT, "buffer");
    ck_assert_fails_with(usmarr_cache_directory(small, sizeof small), USMARR_ERROR_INVALID_ARGUMENT, "size=4");
    ck_assert_fails_with(usmarr_cache_set_mode((usmarr_cache_mode_t)7), USMARR_ERROR_INVALID_ARGUMENT, "mode=7");
    ck_assert_fails_with(usmarr_cache_get_stats(NULL), USMARR_ERROR_INVALID_ARGUMENT, "stats");
    ck_assert_fails_with(usmarr_cache_prewarm(NULL), USMARR_ERROR_INVALID_ARGUMENT, "context");
    /* A list naming something that is not a dtype fails before anything is compiled. */
    const char *bad_lists[] = {"float32,float", "", "int8,", "Float32", "float32 ,int8"};
    const char *bad_names[] = {"\"float\"", "\"\"", "\"\"", "\"Float32\"", "\"float32 \""};
    for (size_t i = 0; i < sizeof bad_lists / sizeof *bad_lists; i++) {
        setenv("USMARR_PREWARM_DTYPES", bad_lists[i], 1);
        usmarr_cache_stats_t before, after;
        ck_assert_ok(usmarr_cache_get_stats(&before));
        ck_assert_fails_with(usmarr_cache_prewarm(cache_ctx), USMARR_ERROR_INVALID_ARGUMENT, bad_names[i]);
        ck_assert_ptr_nonnull(strstr(usmarr_last_error_detail(), "USMARR_PREWARM_DTYPES"));
        ck_assert_ok(usmarr_cache_get_stats(&after));
        ck_assert_uint_eq(after.stores, before.stores);
    }
    unsetenv("USMARR_PREWARM_DTYPES");

    usmarr_cache_stats_t s;
    ck_assert_ok(usmarr_cache_get_stats(&s));
    usmarr_cache_mode_t saved = s.mode;
    ck_assert_ok(usmarr_cache_set_mode(USMARR_CACHE_READONLY));
    size_t removed = 5;
    ck_assert_fails_with(usmarr_cache_clear(&removed), USMARR_ERROR_BAD_STATE, "readonly");
    ck_assert_uint_eq(removed, 0);
    ck_assert_fails_with(usmarr_cache_prewarm(cache_ctx), USMARR_ERROR_BAD_STATE, "readonly");
    ck_assert_ok(usmarr_cache_set_mode(USMARR_CACHE_OFF));
    ck_assert_fails_with(usmarr_cache_prewarm(cache_ctx), USMARR_ERROR_BAD_STATE, "off");
    ck_assert_ok(usmarr_cache_get_stats(&s));
    ck_assert_uint_eq(s.mode, USMARR_CACHE_OFF);
    ck_assert_ok(usmarr_cache_set_mode(USMARR_CACHE_ON));

    /* A directory path that loops: listing and clearing fail with the path named. */
    char loop[PATH_MAX], looped[PATH_MAX];
    snprintf(loop, sizeof loop, "%s/loop", cache_root);
    ck_assert_int_eq(symlink(loop, loop), 0);
    snprintf(looped, sizeof looped, "%s/loop/cache", cache_root);
    ck_assert_ok(usmarr_cache_set_directory(looped));
    ck_assert_fails_with(usmarr_cache_get_stats(&s), USMARR_ERROR_IO, looped);
    ck_assert_fails_with(usmarr_cache_clear(&removed), USMARR_ERROR_IO, looped);
    ck_assert_fails_with(usmarr_cache_prewarm(cache_ctx), USMARR_ERROR_BAD_STATE, "disabled");

    ck_assert_ok(usmarr_cache_set_directory(NULL));
    ck_assert_ok(usmarr_cache_set_mode(saved));
}
END_TEST

/* The names of the entries in `dir`, sorted, one per line, into `out`; how many. */
static int entry_names(const char *dir, char *out, size_t size)
{
    struct dirent **list;
    int n = scandir(dir, &list, NULL, alphasort), entries = 0;
    ck_assert_msg(n >= 0, "%s: %s", dir, strerror(errno));
    *out = 0;
    for (int i = 0; i < n; i++) {
        size_t len = strlen(list[i]->d_name);
        if (len > 6 && !strcmp(list[i]->d_name + len - 6, ".clbin") && list[i]->d_name[0] != '.') {
            ck_assert_uint_lt(strlen(out) + len + 2, size);
            strcat(strcat(out, list[i]->d_name), "\n");
            entries++;
        }
        free(list[i]);
    }
    free(list);
    return entries;
}

/* Runs `usmarr cache prewarm <this device> --no-tune --processes 2` (the tool, as `make
 * install` runs it) with the cache directory `dir` and USMARR_PREWARM_DTYPES=`dtypes`, its
 * standard error (the shares' failures) into `output`; its exit status. */
static int tool_prewarm(const char *dir, const char *dtypes, char *output, size_t size)
{
    enum { INDEX = 9 }; /* cache_child_status()'s output file, root/child-9.out */
    char tool[PATH_MAX], out[PATH_MAX];
    const char *top = getenv("USMARR_TOP_BUILDDIR"), *tests = getenv("USMARR_TEST_BUILDDIR");
    if (top && *top)
        snprintf(tool, sizeof tool, "%s/tools/usmarr", top);
    else
        snprintf(tool, sizeof tool, "%s/../tools/usmarr", tests && *tests ? tests : ".");
    ck_assert_msg(access(tool, X_OK) == 0, "%s: %s", tool, strerror(errno));
    snprintf(out, sizeof out, "%s/child-%d.out", cache_root, INDEX);
    setenv("USMARR_CACHE", "on", 1);
    setenv("USMARR_CACHE_DIR", dir, 1);
    setenv("USMARR_PREWARM_DTYPES", dtypes, 1);
    const char *argv[] = {tool, "cache", "prewarm", usmarr_context_info(cache_ctx)->selector, "--no-tune",
                          "--processes", "2", NULL};
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 2, out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    fflush(NULL);
    pid_t pid;
    int rc = posix_spawn(&pid, tool, &actions, NULL, (char *const *)argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    ck_assert_msg(rc == 0, "posix_spawn %s: %s", tool, strerror(rc));
    return cache_child_status(pid, INDEX, output, size);
}

START_TEST(test_cache_public_prewarm_fills_the_directory)
{
    usmarr_cache_stats_t s;
    ck_assert_ok(usmarr_cache_get_stats(&s));
    usmarr_cache_mode_t saved = s.mode;
    ck_assert_ok(usmarr_cache_set_mode(USMARR_CACHE_ON));
    ck_assert_ok(usmarr_cache_set_directory(cache_dir));
    /* Two dtypes of the fourteen (every dtype is setup's `make install`, into the system
     * cache, and costs Intel's compiler half a minute). */
    setenv("USMARR_PREWARM_DTYPES", "int8,float32", 1);
    ck_assert_ok(usmarr_cache_prewarm(cache_ctx));
    ck_assert_ok(usmarr_cache_get_stats(&s));
    ck_assert_uint_gt(s.entries, 20); /* casts from each to every dtype, elementwise, reductions */
    ck_assert_uint_gt(s.stores, 20);

    /* The tool's prewarm in processes cuts the dtypes into one share per process: together
     * they store exactly the programs that the prewarm in this one process stored, and a
     * share that fails fails the whole, with the share's reason. */
    char split[PATH_MAX], output[1024], *one = malloc(1 << 16), *two = malloc(1 << 16);
    ck_assert(one && two);
    snprintf(split, sizeof split, "%s/split", cache_root);
    int rc = tool_prewarm(split, "int8,float32", output, sizeof output);
    ck_assert_msg(rc == 0, "exit status %d: %s", rc, output);
    ck_assert_ptr_nonnull(strstr(output, "in 2 processes"));
    int n1 = entry_names(cache_dir, one, 1 << 16), n2 = entry_names(split, two, 1 << 16);
    ck_assert_int_gt(n1, 10);
    ck_assert_int_eq(n2, n1);
    ck_assert_str_eq(two, one);
    rc = tool_prewarm(split, "int8,nodtype", output, sizeof output); /* the second share fails */
    ck_assert_int_eq(rc, 1);
    ck_assert_ptr_nonnull(strstr(output, "\"nodtype\" is not a dtype name"));
    free(one);
    free(two);

    /* Again with one more dtype: only its programs are new. */
    uint64_t stores = s.stores, entries = s.entries;
    setenv("USMARR_PREWARM_DTYPES", "int8,float32,uint16", 1);
    ck_assert_ok(usmarr_cache_prewarm(cache_ctx));
    ck_assert_ok(usmarr_cache_get_stats(&s));
    ck_assert_uint_gt(s.entries, entries);
    ck_assert_uint_lt(s.stores - stores, stores);
    unsetenv("USMARR_PREWARM_DTYPES");
    struct stat st;
    ck_assert_int_eq(stat(cache_dir, &st), 0); /* prewarm checks (and creates) the directory first */
    ck_assert_ok(usmarr_cache_set_directory(NULL));
    ck_assert_ok(usmarr_cache_set_mode(saved));
}
END_TEST

/* ---- the engine on the library's copy ---------------------------------------------- */

/* A fresh context (so an empty in-memory program cache) casts int32 to float32 through
 * the engine; the result is checked against the host (tests/harness/common.h). */
void test_cast_round(int round)
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
    DIR *h = opendir(cache_dir);
    ck_assert_ptr_nonnull(h);
    struct dirent *e;
    while ((e = readdir(h))) {
        size_t len = strlen(e->d_name);
        if (len < 6 || strcmp(e->d_name + len - 6, ".clbin"))
            continue;
        char path[PATH_MAX];
        snprintf(path, sizeof path, "%s/%s", cache_dir, e->d_name);
        damage(path);
        n++;
    }
    closedir(h);
    return n;
}

static void cut_in_half(const char *path) { ck_assert_int_eq(truncate(path, cache_size_of(path) / 2), 0); }

START_TEST(test_cache_engine_warm_starts_from_the_library_cache_and_survives_corruption)
{
    usmarr_cache_stats_t s0, s1, s2, s3;
    ck_assert_ok(usmarr_cache_get_stats(&s0));
    ck_assert_ok(usmarr_cache_set_mode(USMARR_CACHE_ON));
    ck_assert_ok(usmarr_cache_set_directory(cache_dir));
    test_cast_round(0); /* cold: compiled, stored after the first launch */
    ck_assert_ok(usmarr_cache_get_stats(&s1));
    ck_assert_uint_gt(s1.stores, s0.stores);
    ck_assert_uint_ge(s1.entries, 1);
    test_cast_round(1); /* warm: loaded from disk */
    ck_assert_ok(usmarr_cache_get_stats(&s2));
    ck_assert_uint_gt(s2.hits, s1.hits);
    ck_assert_uint_eq(s2.stores, s1.stores);

    ck_assert_int_eq(damage_entries(cache_flip_middle), (int)s1.entries);
    test_cast_round(2); /* every entry fails its checksum: deleted, compiled, stored again */
    ck_assert_ok(usmarr_cache_get_stats(&s3));
    ck_assert_uint_ge(s3.discards, s2.discards + 1);
    ck_assert_uint_gt(s3.stores, s2.stores);
    ck_assert_uint_eq(s3.entries, s1.entries);

    ck_assert_int_eq(damage_entries(cut_in_half), (int)s1.entries);
    test_cast_round(3);
    ck_assert_ok(usmarr_cache_get_stats(&s2));
    ck_assert_uint_gt(s2.discards, s3.discards);
    ck_assert_uint_eq(s2.entries, s1.entries);
    test_cast_round(4);
    ck_assert_ok(usmarr_cache_get_stats(&s3));
    ck_assert_uint_gt(s3.hits, s2.hits);
    ck_assert(!s3.disabled);

    ck_assert_ok(usmarr_cache_set_directory(NULL));
    ck_assert_ok(usmarr_cache_set_mode(s0.mode));
}
END_TEST

void cache_add_api_tests(TCase *tc)
{
    tcase_add_test(tc, test_cache_public_stats_and_clear_see_the_directory);
    tcase_add_test(tc, test_cache_public_functions_reject_bad_arguments);
    tcase_add_test(tc, test_cache_public_prewarm_fills_the_directory);
    tcase_add_test(tc, test_cache_engine_warm_starts_from_the_library_cache_and_survives_corruption);
}
