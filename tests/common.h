/* Shared by the test suites: the device under test and small helpers. */
#ifndef USMARR_TESTS_COMMON_H
#define USMARR_TESTS_COMMON_H

#include <check.h>
#include <string.h>
#include <usmarr.h>

#include "check_usmarr.h"
#include "suites.h"

/* Each tests/test_<module>.c defines suite_<module>(). */
#define TEST_DECLARE_SUITE_(name) Suite *suite_##name(void);
TEST_SUITES(TEST_DECLARE_SUITE_)
#undef TEST_DECLARE_SUITE_

/* Selector of the device the runner is currently testing ("opencl:cpu:0", ...). */
extern const char *test_selector;

/* A fresh context on the device under test; the test releases it. */
usmarr_context_t *test_context(void);

#endif
