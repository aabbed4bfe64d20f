/* Shared by the test suites: the device under test and small helpers. */
#ifndef USMARR_TESTS_COMMON_H
#define USMARR_TESTS_COMMON_H

#include <check.h>
#include <string.h>
#include <usmarr.h>

#include "suites.h"

/* Each tests/test_<module>.c defines suite_<module>(). */
#define TEST_DECLARE_SUITE_(name) Suite *suite_##name(void);
TEST_SUITES(TEST_DECLARE_SUITE_)
#undef TEST_DECLARE_SUITE_

/* Selector of the device the runner is currently testing ("opencl:cpu:0", ...). */
extern const char *test_selector;

/* A fresh context on the device under test; the test releases it. */
usmarr_context_t *test_context(void);

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

#endif
