/* The library's assertions for Check tests, shared by the device suites (tests/harness/common.h)
 * and the MPI suites (tests/mpi/mpi_common.h). */
#ifndef USMARR_TESTS_CHECK_USMARR_H
#define USMARR_TESTS_CHECK_USMARR_H

#include <check.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <usmarr.h>

/* A passing assertion does nothing.  Check's own ck_assert_msg (which ck_assert and the typed
 * ck_assert_*_eq build on) calls _mark_point() when it passes, which writes the file and
 * line to Check's message channel so that a forked test that crashes can say where it
 * was.  Both runners run their tests unforked (a crash ends the run), where that record is
 * never read, and the writes were millions of system calls a run: 5.4 million in half
 * of one device's run, most of its system time.  A failing assertion is reported as Check
 * reports it.  Test files take Check through this header, never <check.h> alone. */
#undef ck_assert_msg
#define ck_assert_msg(expr, ...)                                                                   \
    ((expr) ? (void)0 : _ck_assert_failed(__FILE__, __LINE__, "Assertion '" #expr "' failed", ##__VA_ARGS__))

/* A new directory $TMPDIR/<name>-XXXXXX (/tmp without TMPDIR), its path in dir[size]:
 * false when it could not be made. */
static inline bool test_temp_dir(char *dir, size_t size, const char *name)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, size, "%s/%s-XXXXXX", tmp && *tmp ? tmp : "/tmp", name);
    return mkdtemp(dir) != NULL;
}

/* Asserts a call failed with `code` and that the detail mentions `needle`. */
#define ck_assert_fails_with(call, code, needle)                                                   \
    do {                                                                                           \
        int rc_ = (call);                                                                          \
        ck_assert_msg(rc_ == (code), "%s returned %d (%s), expected %s; detail: %s", #call, rc_,   \
                      usmarr_error_name(rc_), #code, usmarr_last_error_detail());                  \
        ck_assert_msg(strstr(usmarr_last_error_detail(), (needle)) != NULL,                        \
                      "detail \"%s\" does not mention \"%s\"", usmarr_last_error_detail(), (needle)); \
    } while (0)

#define ck_assert_ok(call)                                                                         \
    do {                                                                                           \
        int rc_ = (call);                                                                          \
        ck_assert_msg(rc_ == 0, "%s failed: %s (%d): %s", #call, usmarr_error_name(rc_), rc_,       \
                      usmarr_last_error_detail());                                                 \
    } while (0)

/* One test case per entry, each without Check's timeout (a cold kernel cache makes the
 * NumPy case files take longer than Check's default). */
struct test_case_entry {
    const char *name;
    const TTest *test;
};

static inline void test_add_tagged_cases(Suite *s, const struct test_case_entry *cases, size_t count,
                                         const char *tags)
{
    for (size_t i = 0; i < count; i++) {
        TCase *tc = tcase_create(cases[i].name);
        tcase_set_timeout(tc, 0);
        if (tags)
            tcase_set_tags(tc, tags);
        tcase_add_test(tc, cases[i].test);
        suite_add_tcase(s, tc);
    }
}

static inline void test_add_cases(Suite *s, const struct test_case_entry *cases, size_t count)
{
    test_add_tagged_cases(s, cases, count, NULL);
}

/* The tag of test cases that need host USM throughout (storages with a host side): the
 * runner's device-USM-only mode leaves them out (CK_EXCLUDE_TAGS). */
#define TEST_TAG_HOST_USM "host-usm"
/* Cases that run every entry of a table whose per-entry code is the same in every mode:
 * every dtype pair of a cast, every function and signature of the elementwise table (its
 * special values and accuracy), the kernel-shape candidates, the disk cache's and the
 * builds' own files.  They compile a program per entry, so they run once per device and
 * are left out of the runner's modes, which repeat the layouts and algorithms. */
#define TEST_TAG_VARIANTS "variants"

#endif
