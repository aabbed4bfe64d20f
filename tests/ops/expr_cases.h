/* The fused-expression cases of tests/expr_cases.txt (tests/gen/gen_expr_cases.py): building
 * their operands on the device and checking results against NumPy's values. */
#ifndef USMARR_TESTS_EXPR_CASES_H
#define USMARR_TESTS_EXPR_CASES_H

#include <usmarr.h>

#include "../harness/case_file.h"

#define EXPR_MAX_OPERANDS 8

/* One case's operands, built on `ctx` in their layouts. */
struct expr_operands {
    int n;
    const char *names[EXPR_MAX_OPERANDS];
    usmarr_operand_t ops[EXPR_MAX_OPERANDS];
    usmarr_array_t *arrays[EXPR_MAX_OPERANDS]; /* owned (views); NULL for scalars */
    char *fields[EXPR_MAX_OPERANDS];           /* the lines the names point into */
};

/* The cases of tests/expr_cases.txt ($USMARR_EXPR_CASES); fails the test when none. */
struct case_entry *expr_cases_load(int *count);
void expr_cases_free(struct case_entry *cases, int count);
/* The line of `c` that starts with `key` ("text", "want", ...), or NULL. */
const char *expr_case_line(const struct case_entry *c, const char *key);
/* Builds every "op" line of `c`. */
void expr_operands_build(usmarr_context_t *ctx, const struct case_entry *c, struct expr_operands *o);
void expr_operands_release(struct expr_operands *o);
/* Checks `result` against the case's want (and tol) lines: dtype, shape, values. */
void expr_check_result(const struct case_entry *c, const usmarr_array_t *result);
/* The error code of a "want error CODE" line; 0 when the case wants values. */
int expr_want_error(const struct case_entry *c);
/* The want line's dtype, ndim and shape. */
void expr_want_shape(const struct case_entry *c, usmarr_dtype_t *dtype, int *ndim, int64_t *shape);

#endif
