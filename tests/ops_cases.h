/* Reader for tests/ops_cases.txt, the NumPy oracle written by tests/gen_ops_cases.py. */
#ifndef USMARR_TESTS_OPS_CASES_H
#define USMARR_TESTS_OPS_CASES_H

#include <stdbool.h>
#include <stddef.h>
#include <usmarr.h>

/* Opens the case file: $USMARR_OPS_CASES, else tests/ops_cases.txt under the current
 * directory (make check runs from the build directory).  Fails the test when missing. */
FILE *ops_cases_open(void);
/* Splits `line` in place at spaces into at most `max` fields; returns how many. */
int ops_cases_split(char *line, char **fields, int max);
/* dtype by NumPy name; -1 when unknown. */
int ops_cases_dtype(const char *name);

#endif
