/* The cache suite (test_cache.c): where the cache directory is and what happens when it
 * cannot be used, the USMARR_CACHE modes and settings, eviction under a size cap and the
 * trace. */
#include "../harness/common.h"

#include "test_cache.h"

#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- directories ------------------------------------------------------------------ */

START_TEST(test_cache_read_only_directory_serves_hits_and_disables_on_write)
{
    assert_obtain(11, PROBE_COMPILED);
    ck_assert_int_eq(chmod(cache_dir, 0500), 0);
    /* A child without the capabilities that let root write anyway: it checks that the
     * directory really refuses writes before relying on it. */
    const char *args[] = {test_selector, "readonly-dir", "11", "12", NULL};
    pid_t pid = cache_spawn(args, 0, -1);
    char output[4096];
    int status = cache_child_status(pid, 0, output, sizeof output);
    ck_assert_msg(status == 0, "child exited %d: %s", status, output);
    ck_assert_int_eq(chmod(cache_dir, 0700), 0);
    int entries, temps;
    cache_count_files(cache_dir, &entries, &temps);
    ck_assert_int_eq(entries, 1);
    ck_assert_int_eq(temps, 0);
    assert_obtain(11, PROBE_LOADED);
}
END_TEST

START_TEST(test_cache_uncreatable_directory_disables_the_cache_not_the_operation)
{
    char file[PATH_MAX], bad[PATH_MAX];
    snprintf(file, sizeof file, "%s/a-file", cache_root);
    cache_write_file(file, "x", 1);
    snprintf(bad, sizeof bad, "%s/a-file/cache", cache_root); /* mkdir fails with ENOTDIR, even for root */
    cache_reset_with_env("USMARR_CACHE_DIR", bad);
    assert_obtain(12, PROBE_COMPILED);
    usmarr_cache_stats_t s = cache_module_stats();
    ck_assert(s.disabled);
    ck_assert_msg(strstr(s.reason, bad) != NULL, "reason: %s", s.reason);
    ck_assert_uint_eq(s.stores, 0);
    ck_assert_uint_eq(s.misses, 0); /* disabled before the first lookup */
    assert_obtain(12, PROBE_COMPILED);
    ck_assert_int_eq(cache_size_of(file), 1);

    /* A directory that exists but is not ours to trust: writable by others. */
    ck_assert_int_eq(mkdir(cache_dir, 0777), 0);
    ck_assert_int_eq(chmod(cache_dir, 0777), 0);
    cache_reset_with_env("USMARR_CACHE_DIR", cache_dir);
    assert_obtain(12, PROBE_COMPILED);
    s = cache_module_stats();
    ck_assert(s.disabled);
    ck_assert_msg(strstr(s.reason, "writable by group or others") != NULL, "reason: %s", s.reason);
    int entries, temps;
    cache_count_files(cache_dir, &entries, &temps);
    ck_assert_int_eq(entries, 0);
}
END_TEST

START_TEST(test_cache_missing_directory_is_created_private_with_parents)
{
    char deep[PATH_MAX], parent[PATH_MAX];
    snprintf(parent, sizeof parent, "%s/a", cache_root);
    snprintf(deep, sizeof deep, "%s/a/b/usmarr", cache_root);
    cache_reset_with_env("USMARR_CACHE_DIR", deep);
    assert_obtain(13, PROBE_COMPILED);
    struct stat st;
    ck_assert_int_eq(stat(deep, &st), 0);
    ck_assert_uint_eq(st.st_mode & 0777, 0700);
    ck_assert_int_eq(stat(parent, &st), 0);
    ck_assert_uint_eq(st.st_mode & 0777, 0700);
    assert_obtain(13, PROBE_LOADED);

    /* Removed behind the process's back: the next store creates it again. */
    char path[PATH_MAX];
    cache_entry_path(13, path, sizeof path);
    ck_assert_int_eq(unlink(path), 0);
    ck_assert_int_eq(rmdir(deep), 0);
    assert_obtain(13, PROBE_COMPILED);
    assert_obtain(13, PROBE_LOADED);
    ck_assert(!cache_module_stats().disabled);
}
END_TEST

START_TEST(test_cache_directory_resolution_order)
{
    char buffer[PATH_MAX], expected[PATH_MAX], home[PATH_MAX / 2], xdg[PATH_MAX / 2];
    size_t needed;
    const char *why;
    snprintf(home, sizeof home, "%s/home", cache_root);
    snprintf(xdg, sizeof xdg, "%s/xdg", cache_root);
    setenv("HOME", home, 1);
    setenv("XDG_CACHE_HOME", xdg, 1);
    cache_reset_with_env("USMARR_CACHE_DIR", cache_dir);
    ck_assert_int_eq(usmarr__diskcache_directory(buffer, sizeof buffer, &needed, &why), 0);
    ck_assert_str_eq(buffer, cache_dir);
    ck_assert_uint_eq(needed, strlen(cache_dir) + 1);
    ck_assert_int_eq(usmarr__diskcache_directory(buffer, 3, &needed, &why), ERANGE);
    ck_assert_uint_eq(needed, strlen(cache_dir) + 1);

    usmarr__diskcache_set_directory(cache_root); /* the API setting wins over everything */
    ck_assert_int_eq(usmarr__diskcache_directory(buffer, sizeof buffer, &needed, &why), 0);
    ck_assert_str_eq(buffer, cache_root);

    cache_reset_with_env("USMARR_CACHE_DIR", NULL);
    snprintf(expected, sizeof expected, "%s/usmarr", xdg);
    ck_assert_int_eq(usmarr__diskcache_directory(buffer, sizeof buffer, &needed, &why), 0);
    ck_assert_str_eq(buffer, expected);

    cache_reset_with_env("XDG_CACHE_HOME", "relative/ignored");
    snprintf(expected, sizeof expected, "%s/.cache/usmarr", home);
    ck_assert_int_eq(usmarr__diskcache_directory(buffer, sizeof buffer, &needed, &why), 0);
    ck_assert_str_eq(buffer, expected);
    assert_obtain(14, PROBE_COMPILED); /* creates home/.cache/usmarr, 0700 */
    struct stat st;
    ck_assert_int_eq(stat(expected, &st), 0);
    ck_assert_uint_eq(st.st_mode & 0777, 0700);
    assert_obtain(14, PROBE_LOADED);

    cache_reset_with_env("USMARR_CACHE_DIR", "relative/ignored/too");
    ck_assert_int_eq(usmarr__diskcache_directory(buffer, sizeof buffer, &needed, &why), 0);
    ck_assert_str_eq(buffer, expected);
}
END_TEST

START_TEST(test_cache_home_unset_falls_back_to_the_password_database)
{
    unsetenv("USMARR_CACHE_DIR");
    unsetenv("XDG_CACHE_HOME");
    cache_reset_with_env("HOME", NULL);
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
    ck_assert_int_eq(probe_obtain(cache_ctx, variant, 5, &how, NULL), 0);
    ck_assert_int_eq(probe_obtain(cache_ctx, variant, 5, &how, NULL), 0);
    usmarr_cache_stats_t s = cache_module_stats();
    ck_assert_msg(how == PROBE_LOADED || s.disabled, "second use compiled without the cache being disabled");
    char options[64];
    struct usmarr__program_key key = probe_key(cache_ctx, variant, options);
    usmarr__diskcache_discard(&key);
    char path[PATH_MAX];
    cache_entry_path(variant, path, sizeof path);
    ck_assert(!cache_exists(path));
}
END_TEST

/* ---- modes ------------------------------------------------------------------------ */

START_TEST(test_cache_mode_off_neither_reads_nor_writes)
{
    assert_obtain(21, PROBE_COMPILED);
    cache_reset_with_env("USMARR_CACHE", "off");
    assert_obtain(21, PROBE_COMPILED);
    assert_obtain(22, PROBE_COMPILED);
    assert_obtain(22, PROBE_COMPILED);
    usmarr_cache_stats_t s = cache_module_stats();
    ck_assert_uint_eq(s.mode, USMARR_CACHE_OFF);
    ck_assert_uint_eq(s.hits + s.misses + s.stores, 0);
    ck_assert_uint_eq(s.entries, 1);
    char path[PATH_MAX];
    cache_entry_path(22, path, sizeof path);
    ck_assert(!cache_exists(path));
    usmarr__diskcache_set_mode(USMARR_CACHE_ON); /* the API overrides the environment */
    assert_obtain(21, PROBE_LOADED);
}
END_TEST

START_TEST(test_cache_mode_readonly_serves_a_prewarmed_cache_without_changing_it)
{
    assert_obtain(23, PROBE_COMPILED);
    char path[PATH_MAX], other[PATH_MAX];
    cache_entry_path(23, path, sizeof path);
    cache_entry_path(24, other, sizeof other);
    cache_set_age(path, 1000);
    struct stat before, after;
    ck_assert_int_eq(stat(path, &before), 0);
    cache_reset_with_env("USMARR_CACHE", "ReadOnly");
    ck_assert_uint_eq(cache_module_stats().mode, USMARR_CACHE_READONLY);
    assert_obtain(23, PROBE_LOADED);
    ck_assert_int_eq(stat(path, &after), 0);
    ck_assert_int_eq(after.st_mtime, before.st_mtime); /* no LRU bump */
    assert_obtain(24, PROBE_COMPILED);
    ck_assert(!cache_exists(other)); /* no store */
    /* A corrupt entry is a miss but stays in place. */
    size_t size;
    unsigned char *data = cache_read_file(path, &size);
    data[size / 2] ^= 1;
    cache_write_file(path, data, size);
    free(data);
    assert_obtain(23, PROBE_COMPILED);
    ck_assert(cache_exists(path));
    ck_assert_uint_eq(cache_module_stats().discards, 0);
    /* Read-only mode never creates a missing directory. */
    char missing[PATH_MAX];
    snprintf(missing, sizeof missing, "%s/missing", cache_root);
    cache_reset_with_env("USMARR_CACHE_DIR", missing);
    assert_obtain(23, PROBE_COMPILED);
    ck_assert(!cache_exists(missing));
    ck_assert(cache_module_stats().disabled);
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
        cache_reset_with_env("USMARR_CACHE_MAX_BYTES", sizes[i].value);
        ck_assert_msg(cache_module_stats().max_bytes == sizes[i].bytes, "USMARR_CACHE_MAX_BYTES=%s gave %llu",
                      sizes[i].value, (unsigned long long)cache_module_stats().max_bytes);
    }
    static const struct {
        const char *value;
        usmarr_cache_mode_t mode;
    } modes[] = {{"off", USMARR_CACHE_OFF},      {"0", USMARR_CACHE_OFF},           {"OFF", USMARR_CACHE_OFF},
                 {"on", USMARR_CACHE_ON},        {"1", USMARR_CACHE_ON},            {"", USMARR_CACHE_ON},
                 {"readonly", USMARR_CACHE_READONLY}, {"read-only", USMARR_CACHE_READONLY},
                 {"ro", USMARR_CACHE_READONLY},  {"bogus", USMARR_CACHE_ON}};
    for (size_t i = 0; i < sizeof modes / sizeof *modes; i++) {
        cache_reset_with_env("USMARR_CACHE", modes[i].value);
        ck_assert_msg(cache_module_stats().mode == modes[i].mode, "USMARR_CACHE=%s", modes[i].value);
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
    cache_entry_path(51, a, sizeof a);
    cache_entry_path(52, b, sizeof b);
    cache_entry_path(53, c, sizeof c);
    cache_entry_path(54, d, sizeof d);
    long long sa = cache_size_of(a), sb = cache_size_of(b), sc = cache_size_of(c);
    long long smallest = sa < sb ? (sa < sc ? sa : sc) : (sb < sc ? sb : sc);
    char cap[32];
    snprintf(cap, sizeof cap, "%lld", sa + sb + sc + smallest / 2); /* three fit, four do not */
    cache_reset_with_env("USMARR_CACHE_MAX_BYTES", cap);
    cache_set_age(a, 300);
    cache_set_age(b, 200);
    cache_set_age(c, 100);
    assert_obtain(51, PROBE_LOADED); /* a becomes the most recently used */
    assert_obtain(54, PROBE_COMPILED);
    ck_assert(cache_exists(a));
    ck_assert_msg(!cache_exists(b), "the least recently used entry survived");
    ck_assert(cache_exists(c));
    ck_assert(cache_exists(d));
    usmarr_cache_stats_t s = cache_module_stats();
    ck_assert_uint_eq(s.evictions, 1);
    ck_assert_uint_le(s.bytes, s.max_bytes);
    ck_assert_uint_eq(s.entries, 3);
    assert_obtain(52, PROBE_COMPILED); /* and now c, the oldest, goes */
    ck_assert(!cache_exists(c));
    assert_obtain(51, PROBE_LOADED);
    assert_obtain(54, PROBE_LOADED);

    /* An entry larger than the cap is not stored at all. */
    cache_reset_with_env("USMARR_CACHE_MAX_BYTES", "100");
    assert_obtain(55, PROBE_COMPILED);
    assert_obtain(55, PROBE_COMPILED);
    ck_assert_uint_eq(cache_module_stats().stores, 0);
}
END_TEST

/* Runs `fn` with stderr redirected to a file and returns what it printed. */
static char *capture_stderr(void (*fn)(void))
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/stderr.txt", cache_root);
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
    unsigned char *text = cache_read_file(path, &size);
    text = realloc(text, size + 1);
    text[size] = '\0';
    return (char *)text;
}

static void traced_operations(void)
{
    enum probe_how how;
    for (int i = 0; i < 2; i++)
        ck_assert_int_eq(probe_obtain(cache_ctx, 61, 5, &how, NULL), 0);
    char options[64];
    struct usmarr__program_key key = probe_key(cache_ctx, 61, options);
    usmarr__diskcache_trace("compile", &key, 12.5);
}

static void traced_failures(void)
{
    enum probe_how how;
    for (int i = 0; i < 3; i++)
        ck_assert_int_eq(probe_obtain(cache_ctx, 62, 5, &how, NULL), 0);
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
    cache_reset_with_env("USMARR_CACHE_TRACE", "1");
    ck_assert(usmarr__diskcache_tracing());
    char *text = capture_stderr(traced_operations);
    ck_assert_msg(count_lines_with(text, "usmarr-cache: miss ") == 1, "%s", text);
    ck_assert_msg(count_lines_with(text, "usmarr-cache: store ") == 1, "%s", text);
    ck_assert_msg(count_lines_with(text, "usmarr-cache: hit ") == 1, "%s", text);
    ck_assert_msg(count_lines_with(text, "usmarr-cache: compile ") == 1, "%s", text);
    ck_assert_msg(strstr(text, " ms") != NULL, "%s", text);
    free(text);

    char bad[PATH_MAX];
    snprintf(bad, sizeof bad, "%s/a-file", cache_root);
    cache_write_file(bad, "x", 1);
    snprintf(bad, sizeof bad, "%s/a-file/cache", cache_root);
    cache_reset_with_env("USMARR_CACHE_DIR", bad);
    text = capture_stderr(traced_failures);
    ck_assert_msg(count_lines_with(text, "usmarr-cache: disabled") == 1, "%s", text);
    ck_assert_msg(count_lines_with(text, "usmarr-cache:") == 1, "one message, nothing else: %s", text);
    free(text);

    cache_reset_with_env("USMARR_CACHE_TRACE", NULL);
    ck_assert(!usmarr__diskcache_tracing());
    text = capture_stderr(traced_failures);
    ck_assert_str_eq(text, "");
    free(text);
}
END_TEST


void cache_add_settings_tests(TCase *tc)
{
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
}
