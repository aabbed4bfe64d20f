/* Reader for tests/ops_cases.txt, the NumPy oracle written by tests/gen/gen_ops_cases.py. */
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



/* Storage bytes of `text` (as gen_ops_cases.py writes values) in `dtype` at `dst`. */
void ops_cases_parse_value(const char *text, usmarr_dtype_t dtype, void *dst);
/* An element of `dtype` at `src` as (re, im) doubles (im 0 for real dtypes). */
void ops_cases_load(usmarr_dtype_t dtype, const void *src, double *re, double *im);
/* The elementwise function `op`'s accuracy bound for results of dtype `rd`, in units in
 * the last place (doc/ops.md): 0 for the exact ones. */
double ops_cases_ulps(const char *op, usmarr_dtype_t rd);
/* Whether `got` matches `want` (element of `dtype`) within `ulps` units in the last
 * place of dtype's precision (complex: relative to the magnitude); NaN matches NaN. */
bool ops_cases_close(usmarr_dtype_t dtype, const void *got, const void *want, double ulps);
/* Gives every NaN among the n elements at `data` a payload (its sign kept: copysign reads
 * it), so that a test comparing NaN bits fails on a CPU (which propagates them) as it would
 * on a GPU (whose NaNs are canonical). */
void ops_cases_mark_nans(usmarr_dtype_t dtype, void *data, size_t n);
/* IEEE binary16 conversions. */
uint16_t ops_cases_half_from_double(double x);
double ops_cases_half_to_double(uint16_t h);
#endif
