/* Fused expressions against NumPy (tests/expr_cases.txt from gen_expr_cases.py: random trees
 * over random dtypes, layouts and scalars), the parser's errors, the canonical form, out,
 * in place and overlap, the kernel cache, and every failure path of the API. */
#include "../harness/common.h"
#include "expr_cases.h"
#include "ops_cases.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <threads.h>
#include <unistd.h>

/* ---- the parser --------------------------------------------------------------------------- */

START_TEST(test_expr_malformed_text_names_the_column_and_the_token)
{
    static const struct {
        const char *text, *needle;
    } bad[] = {
        {"a * * b", "column 5: expected a value, found '*'"},
        {"", "column 1: expected an expression, found the end"},
        {"a +", "column 4: expected a value, found the end"},
        {"(a + b", "column 7: expected ')', found the end"},
        {"a b", "column 3: expected an operator or the end, found 'b'"},
        {"a < b < c", "column 7: comparisons do not chain"},
        {"foo(a)", "column 1: unknown function 'foo'"},
        {"exp(a, b)", "'exp' takes 1 argument, more given"},
        {"where(a, b)", "'where' takes 3 arguments, 2 given"},
        {"a $ b", "column 3: unexpected character '$'"},
        {"1 // 0", "column 3: floor_divide of numbers fails: division by zero"},
        {"a + 2 ** 200", "column 7: pow of numbers fails: the integer result does not fit in 64 bits"},
        {"a + sum(b)", "column 5: a reduction (sum) may only be the whole expression"},
        {"x ? y", "column 6: expected ':', found the end"},
        {"x if y", "column 7: expected 'else', found the end"},
        {"astype(a, float)", "column 11: expected a dtype name, found 'float'"},
        {"012 + a", "column 1: leading zeros in '012'"},
        {"a + 99999999999999999999", "does not fit in 64 bits"},
        {"isclose(a, b)", "'isclose' has parameters"},
        {"int8(300)", "int8(...) of a number fails"},
        {"a + (1.5 & 2)", "column 10: bitwise_and of numbers fails: bitwise operators need integers or bools"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        usmarr_expr_t *e = (usmarr_expr_t *)&e; /* must be set to NULL */
        ck_assert_fails_with(usmarr_expr_create(bad[i].text, NULL, 0, &e), USMARR_ERROR_PARSE, bad[i].needle);
        ck_assert_ptr_null(e);
    }
    /* unknown names when the names are given; nesting past the limit */
    const char *names[] = {"a", "b"};
    usmarr_expr_t *e = NULL;
    ck_assert_fails_with(usmarr_expr_create("a + c", names, 2, &e), USMARR_ERROR_PARSE, "column 5: unknown name 'c'");
    char deep[1200];
    memset(deep, '(', 600);
    strcpy(deep + 600, "a");
    memset(deep + 601, ')', 590);
    deep[1191] = 0;
    ck_assert_fails_with(usmarr_expr_create(deep, NULL, 0, &e), USMARR_ERROR_PARSE, "nested deeper than 200");
    ck_assert_ptr_null(e);
}
END_TEST

START_TEST(test_expr_canonical_form_follows_python_precedence)
{
    static const struct {
        const char *text, *canonical;
    } cases[] = {
        {"a * b + exp(c)", "add(multiply($0,$1),exp($2))"},
        {"x*y+exp( z )", "add(multiply($0,$1),exp($2))"},
        {"-a ** 2", "negative(pow($0,2))"},
        {"a ** -b", "pow($0,negative($1))"},
        {"a ** b ** c", "pow($0,pow($1,$2))"},
        {"a - b - c", "subtract(subtract($0,$1),$2)"},
        {"a & b == c", "equal(bitwise_and($0,$1),$2)"},
        {"a | b ^ c & d", "bitwise_or($0,bitwise_xor($1,bitwise_and($2,$3)))"},
        {"a << 1 + b", "left_shift($0,add(1,$1))"},
        {"not a and b or c", "logical_or(logical_and(logical_not($0),$1),$2)"},
        {"!a && b || c", "logical_or(logical_and(logical_not($0),$1),$2)"},
        {"a > 0 ? a : -a", "where(greater($0,0),$0,negative($0))"},
        {"a if a > 0 else 0", "where(greater($0,0),$0,0)"},
        {"c ? x : d ? y : z", "where($0,$1,where($2,$3,$4))"},
        {"a // 2 % 3 / b", "divide(remainder(floor_divide($0,2),3),$1)"},
        {"~a * -b", "multiply(bitwise_invert($0),negative($1))"},
        {"a * (2 * pi)", "multiply($0,0x1.921fb54442d18p+2)"},
        {"a + -1", "add($0,-1)"},
        {"a * 1j + 0x10 + 0b11 + 0o7 + 1_000", "add(add(add(add(multiply($0,complex(0x0p+0,0x1p+0)),16),3),7),1000)"},
        {"a * (2 ** -1) + 7 // -2 + -7 % 3", "add(add(multiply($0,0x1p-1),-4),2)"},
        {"float32(a) + int8(3) + astype(b, uint16)", "add(add(astype($0,float32),int8(3)),astype($1,uint16))"},
        {"a + True - (1 < 2) + nan + inf", "add(add(subtract(add($0,True),True),nan),inf)"},
        {"sum(a * b)", "sum(multiply($0,$1))"},
        {"max(abs(a - b))", "max(abs(subtract($0,$1)))"},
        {"where(a, 1, 2.5)", "where($0,1,0x1.4p+1)"},
        {"18446744073709551615 + a", "add(18446744073709551615,$0)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        usmarr_expr_t *e = NULL;
        ck_assert_ok(usmarr_expr_create(cases[i].text, NULL, 0, &e));
        ck_assert_msg(!strcmp(usmarr_expr_canonical(e), cases[i].canonical), "\"%s\": canonical %s, expected %s",
                      cases[i].text, usmarr_expr_canonical(e), cases[i].canonical);
        usmarr_expr_release(e);
    }
}
END_TEST

START_TEST(test_expr_names_reductions_and_references)
{
    usmarr_expr_t *e = NULL;
    ck_assert_ok(usmarr_expr_create("b * a + b - pi", NULL, 0, &e));
    ck_assert_uint_eq(usmarr_expr_operand_count(e), 2);
    ck_assert_str_eq(usmarr_expr_operand_name(e, 0), "b");
    ck_assert_str_eq(usmarr_expr_operand_name(e, 1), "a");
    ck_assert_ptr_null(usmarr_expr_operand_name(e, 2));
    ck_assert_ptr_null(usmarr_expr_reduction(e));
    ck_assert_ptr_eq(usmarr_expr_retain(e), e);
    usmarr_expr_release(e);
    ck_assert_str_eq(usmarr_expr_operand_name(e, 1), "a"); /* one reference left */
    usmarr_expr_release(e);
    /* given names: their order, unused ones allowed, a name may shadow a constant */
    const char *names[] = {"pi", "unused", "x"};
    ck_assert_ok(usmarr_expr_create("x * pi", names, 3, &e));
    ck_assert_uint_eq(usmarr_expr_operand_count(e), 3);
    ck_assert_str_eq(usmarr_expr_canonical(e), "multiply($2,$0)");
    usmarr_expr_release(e);
    ck_assert_ok(usmarr_expr_create("mean(x)", NULL, 0, &e));
    ck_assert_str_eq(usmarr_expr_reduction(e), "mean");
    usmarr_expr_release(e);
    /* the accessors of NULL, release of NULL */
    ck_assert_uint_eq(usmarr_expr_operand_count(NULL), 0);
    ck_assert_ptr_null(usmarr_expr_canonical(NULL));
    ck_assert_ptr_null(usmarr_expr_reduction(NULL));
    ck_assert_ptr_null(usmarr_expr_retain(NULL));
    usmarr_expr_release(NULL);
    /* bad arguments */
    ck_assert_fails_with(usmarr_expr_create(NULL, NULL, 0, &e), USMARR_ERROR_INVALID_ARGUMENT, "text is NULL");
    ck_assert_fails_with(usmarr_expr_create("a", NULL, 0, NULL), USMARR_ERROR_INVALID_ARGUMENT, "expr is NULL");
    const char *dup[] = {"a", "a"}, *bad[] = {"a", "2x"}, *kw[] = {"and"}, *null[] = {NULL};
    ck_assert_fails_with(usmarr_expr_create("a", dup, 2, &e), USMARR_ERROR_INVALID_ARGUMENT, "names[1]=\"a\" repeats names[0]");
    ck_assert_fails_with(usmarr_expr_create("a", bad, 2, &e), USMARR_ERROR_INVALID_ARGUMENT, "names[1] is malformed");
    ck_assert_fails_with(usmarr_expr_create("a", kw, 1, &e), USMARR_ERROR_INVALID_ARGUMENT, "names[0] is malformed");
    ck_assert_fails_with(usmarr_expr_create("a", null, 1, &e), USMARR_ERROR_INVALID_ARGUMENT, "names[0] is NULL");
    ck_assert_ptr_null(e);
}
END_TEST

/* ---- against NumPy -------------------------------------------------------------------------- */

/* Applies case `c` (into a fresh out when the case asks) and checks it. */
static void run_case(usmarr_context_t *ctx, const struct case_entry *c)
{
    struct expr_operands o;
    expr_operands_build(ctx, c, &o);
    usmarr_expr_t *e = NULL;
    const char *text = expr_case_line(c, "text");
    ck_assert_msg(usmarr_expr_create(text, o.names, (size_t)o.n, &e) == 0, "\"%s\": %s", text,
                  usmarr_last_error_detail());
    int want_error = expr_want_error(c);
    usmarr_array_t *r = NULL, *out = NULL;
    const char *out_line = expr_case_line(c, "out");
    if (out_line && !strncmp(out_line, "fresh ", 6)) {
        usmarr_dtype_t d;
        int ndim;
        int64_t shape[USMARR_MAX_NDIM];
        expr_want_shape(c, &d, &ndim, shape);
        ck_assert_ok(usmarr_array_empty(ctx, ndim, shape, d, USMARR_ORDER_C, USMARR_USM_DEVICE, &out));
    }
    const char *reduce_line = expr_case_line(c, "reduce");
    int rc;
    if (reduce_line) { /* "reduce <naxes|all> <axes...> <keepdims>" */
        char *line = strdup(reduce_line), *f[4 + USMARR_MAX_NDIM];
        int nf = ops_cases_split(line, f, 4 + USMARR_MAX_NDIM), axes[USMARR_MAX_NDIM], naxes = 0;
        bool all = !strcmp(f[0], "all");
        if (!all)
            for (naxes = 0; naxes < atoi(f[0]); naxes++)
                axes[naxes] = atoi(f[1 + naxes]);
        bool keepdims = atoi(f[nf - 1]) != 0;
        rc = usmarr_expr_reduce(e, o.ops, (size_t)o.n, naxes, all ? NULL : axes, keepdims, out, &r);
        free(line);
    } else {
        rc = usmarr_expr_apply(e, o.ops, (size_t)o.n, out, &r);
    }
    if (want_error) {
        ck_assert_msg(rc == want_error, "case %s \"%s\": %s (%s), NumPy refuses it: %s", c->name, text,
                      usmarr_error_name(rc), usmarr_last_error_detail(), usmarr_error_name(want_error));
        ck_assert_ptr_null(r);
    } else {
        ck_assert_msg(rc == 0, "case %s \"%s\": %s: %s", c->name, text, usmarr_error_name(rc),
                      usmarr_last_error_detail());
        if (out)
            ck_assert_ptr_eq(r, out);
        expr_check_result(c, r);
        usmarr_dtype_t d;
        ck_assert_ok(usmarr_expr_result_dtype(e, o.ops, (size_t)o.n, &d));
        ck_assert_int_eq(d, usmarr_array_dtype(r));
    }
    usmarr_array_release(r);
    usmarr_array_release(out);
    usmarr_expr_release(e);
    expr_operands_release(&o);
}

static void run_cases(bool reductions, int at_least)
{
    usmarr_context_t *ctx = test_context();
    int count;
    struct case_entry *cases = expr_cases_load(&count);
    int ran = 0;
    for (int i = 0; i < count; i++) {
        if ((expr_case_line(&cases[i], "reduce") != NULL) != reductions)
            continue;
        run_case(ctx, &cases[i]);
        ran++;
    }
    ck_assert_int_ge(ran, at_least);
    expr_cases_free(cases, count);
    usmarr_context_release(ctx);
}

START_TEST(test_expr_random_trees_match_numpy) { run_cases(false, 24); }
END_TEST

START_TEST(test_expr_reductions_of_random_trees_match_numpy) { run_cases(true, 20); }
END_TEST

/* ---- out, in place, overlap -------------------------------------------------------------------- */

static usmarr_array_t *iota(usmarr_context_t *ctx, usmarr_dtype_t d, int64_t n, double start, double step)
{
    usmarr_array_t *a = NULL;
    ck_assert_ok(usmarr_array_arange(ctx, start, start + step * (double)n, step, d, USMARR_USM_DEVICE, &a));
    return a;
}

static void to_doubles(const usmarr_array_t *a, double *v)
{
    usmarr_array_t *d = NULL;
    ck_assert_ok(usmarr_array_astype(a, USMARR_FLOAT64, USMARR_ORDER_C, NULL, &d));
    ck_assert_ok(usmarr_array_copy_to_host(d, v, NULL));
    usmarr_array_release(d);
}

START_TEST(test_expr_out_in_place_overlap_and_casts)
{
    usmarr_context_t *ctx = test_context();
    enum { N = 64 };
    usmarr_array_t *a = iota(ctx, USMARR_FLOAT32, N, -8, 0.25), *b = iota(ctx, USMARR_FLOAT32, N, 1, 1);
    usmarr_expr_t *e = NULL;
    ck_assert_ok(usmarr_expr_create("a * b + 1", NULL, 0, &e));
    usmarr_operand_t ops[2] = {{.array = a}, {.array = b}};
    double va[N], vb[N], got[N];
    to_doubles(a, va);
    to_doubles(b, vb);
    /* out of another dtype (same_kind), then in place into a */
    usmarr_array_t *out = NULL, *r = NULL;
    ck_assert_ok(usmarr_array_empty(ctx, 1, (int64_t[]){N}, USMARR_FLOAT64, USMARR_ORDER_C, USMARR_USM_DEVICE, &out));
    ck_assert_ok(usmarr_expr_apply(e, ops, 2, out, &r));
    ck_assert_ptr_eq(r, out);
    usmarr_array_release(r);
    to_doubles(out, got);
    for (int i = 0; i < N; i++)
        ck_assert_double_eq(got[i], (double)(float)(va[i] * vb[i]) + 1);
    ck_assert_ok(usmarr_expr_apply(e, ops, 2, a, NULL));
    to_doubles(a, got);
    for (int i = 0; i < N; i++)
        ck_assert_double_eq(got[i], (double)(float)((float)(va[i] * vb[i]) + 1.0f));
    /* out overlapping an input shifted by one element: inputs are read before out is written */
    usmarr_array_t *head = NULL, *tail = NULL;
    ck_assert_ok(usmarr_array_index_text(b, "1:", &tail));
    ck_assert_ok(usmarr_array_index_text(b, ":-1", &head));
    usmarr_operand_t shifted[2] = {{.array = tail}, {.scalar = usmarr_scalar_int(1)}};
    ck_assert_ok(usmarr_expr_apply(e, shifted, 2, head, NULL));
    to_doubles(b, got);
    for (int i = 0; i < N - 1; i++)
        ck_assert_double_eq(got[i], vb[i + 1] + 1);
    /* out must take the result: casting, shape, read-only */
    usmarr_array_t *ints = NULL, *small = NULL;
    ck_assert_ok(usmarr_array_empty(ctx, 1, (int64_t[]){N}, USMARR_INT32, USMARR_ORDER_C, USMARR_USM_DEVICE, &ints));
    ck_assert_ok(usmarr_array_empty(ctx, 1, (int64_t[]){3}, USMARR_FLOAT32, USMARR_ORDER_C, USMARR_USM_DEVICE, &small));
    ck_assert_fails_with(usmarr_expr_apply(e, ops, 2, ints, NULL), USMARR_ERROR_CASTING, "float32 result cannot be cast to out's int32");
    ck_assert_fails_with(usmarr_expr_apply(e, ops, 2, small, NULL), USMARR_ERROR_SHAPE_MISMATCH, "out of 1 dims");
    usmarr_array_release(ints);
    usmarr_array_release(small);
    usmarr_array_release(head);
    usmarr_array_release(tail);
    usmarr_array_release(out);
    usmarr_expr_release(e);
    usmarr_array_release(a);
    usmarr_array_release(b);
    usmarr_context_release(ctx);
}
END_TEST

/* NumPy 2's scalar rules, each one a separate call's: weak scalars keep the array's
 * dtype, out-of-range weak integers fail arithmetic but not comparisons, typed scalars
 * promote, float16 intermediates round to float16. */
START_TEST(test_expr_weak_and_typed_scalars_follow_numpy2)
{
    usmarr_context_t *ctx = test_context();
    usmarr_array_t *u8 = iota(ctx, USMARR_UINT8, 4, 250, 1), *h = iota(ctx, USMARR_FLOAT16, 4, 1, 1), *r = NULL;
    usmarr_expr_t *e = NULL;
    double v[4];
    ck_assert_ok(usmarr_expr_create("x + s", NULL, 0, &e));
    usmarr_operand_t ops[2] = {{.array = u8}, {.scalar = usmarr_scalar_int(300)}};
    ck_assert_fails_with(usmarr_expr_apply(e, ops, 2, NULL, &r), USMARR_ERROR_OVERFLOW, "300 is out of range of uint8");
    ck_assert_ptr_null(r);
    ops[1].scalar = usmarr_scalar_int(10); /* wraps in uint8, as NumPy */
    ck_assert_ok(usmarr_expr_apply(e, ops, 2, NULL, &r));
    ck_assert_int_eq(usmarr_array_dtype(r), USMARR_UINT8);
    to_doubles(r, v);
    ck_assert_double_eq(v[0], 4);
    ck_assert_double_eq(v[3], 7);
    usmarr_array_release(r);
    ops[1].scalar = usmarr_scalar_float(0.5); /* a weak float beside uint8: float64 */
    ck_assert_ok(usmarr_expr_apply(e, ops, 2, NULL, &r));
    ck_assert_int_eq(usmarr_array_dtype(r), USMARR_FLOAT64);
    usmarr_array_release(r);
    ops[1].scalar = usmarr_scalar_float(0.5);
    ops[1].scalar.dtype = USMARR_FLOAT64; /* typed: promotes */
    ck_assert_ok(usmarr_expr_apply(e, ops, 2, NULL, &r));
    ck_assert_int_eq(usmarr_array_dtype(r), USMARR_FLOAT64);
    usmarr_array_release(r);
    usmarr_expr_release(e);
    /* a comparison with an out-of-range weak integer is no error (all true here) */
    ck_assert_ok(usmarr_expr_create("(x < 300) & (x != -1)", NULL, 0, &e));
    ck_assert_ok(usmarr_expr_apply(e, ops, 1, NULL, &r));
    ck_assert_int_eq(usmarr_array_dtype(r), USMARR_BOOL);
    to_doubles(r, v);
    for (int i = 0; i < 4; i++)
        ck_assert_double_eq(v[i], 1);
    usmarr_array_release(r);
    usmarr_expr_release(e);
    /* float16 intermediates are rounded: (h + 2048) - 2048 loses h's fraction in float16 */
    ck_assert_ok(usmarr_expr_create("(h * 0.5 + 2048) - 2048", NULL, 0, &e));
    usmarr_operand_t hop[1] = {{.array = h}};
    ck_assert_ok(usmarr_expr_apply(e, hop, 1, NULL, &r));
    ck_assert_int_eq(usmarr_array_dtype(r), USMARR_FLOAT16);
    to_doubles(r, v); /* 0.5 1 1.5 2 + 2048: float16 spacing 2 there, ties to even */
    ck_assert_double_eq(v[0], 0);
    ck_assert_double_eq(v[1], 0);
    ck_assert_double_eq(v[2], 2);
    ck_assert_double_eq(v[3], 2);
    usmarr_array_release(r);
    usmarr_expr_release(e);
    /* numbers alone: operators stay weak, functions take the default dtypes */
    ck_assert_ok(usmarr_expr_create("h * (2 * pi) + exp(0.0)", NULL, 0, &e));
    ck_assert_ok(usmarr_expr_apply(e, hop, 1, NULL, &r));
    ck_assert_int_eq(usmarr_array_dtype(r), USMARR_FLOAT64); /* exp(0.0) is a float64 value */
    usmarr_array_release(r);
    usmarr_expr_release(e);
    usmarr_array_release(u8);
    usmarr_array_release(h);
    usmarr_context_release(ctx);
}
END_TEST

/* Functions with helper functions of their own (nextafter, logaddexp, floor_divide,
 * remainder, integer pow) in two dtypes of each kind: one program holds a copy of the table's
 * helpers per dtype (tests/scripts/ew_copies.py checks the rule the copies need). */
START_TEST(test_expr_helpers_of_several_dtypes_share_one_program)
{
    usmarr_context_t *ctx = test_context();
    usmarr_array_t *x = iota(ctx, USMARR_FLOAT32, 8, 1, 0.5), *u = iota(ctx, USMARR_FLOAT64, 8, 1, 0.5);
    usmarr_array_t *i = iota(ctx, USMARR_INT16, 8, 3, 1), *j = iota(ctx, USMARR_INT32, 8, 1, 1), *r = NULL;
    usmarr_expr_t *e = NULL;
    ck_assert_ok(usmarr_expr_create("nextafter(x, x + 1) + 0 * astype(nextafter(u, u + 1) + logaddexp(u, u) + "
                                    "u // 3 + u % 3, float32) + 0 * (logaddexp(x, x) + x // 3 + x % 3) + "
                                    "0 * astype(i // 2 + i % 2 + i ** 2 + j // 2 + j % 2 + j ** 2, float32)",
                                    NULL, 0, &e));
    usmarr_operand_t ops[4] = {{.array = x}, {.array = u}, {.array = i}, {.array = j}};
    ck_assert_ok(usmarr_expr_apply(e, ops, 4, NULL, &r));
    ck_assert_int_eq(usmarr_array_dtype(r), USMARR_FLOAT32);
    float got[8];
    ck_assert_ok(usmarr_array_copy_to_host(r, got, NULL));
    for (int k = 0; k < 8; k++)
        ck_assert_float_eq(got[k], nextafterf(1 + 0.5f * (float)k, 2 + 0.5f * (float)k));
    usmarr_array_release(r);
    usmarr_expr_release(e);
    usmarr_array_release(x);
    usmarr_array_release(u);
    usmarr_array_release(i);
    usmarr_array_release(j);
    usmarr_context_release(ctx);
}
END_TEST

/* ---- the kernel cache ----------------------------------------------------------------------- */

START_TEST(test_expr_same_canonical_form_compiles_nothing_again)
{
    /* A private cache directory in mode on, for this test only: the suites after it keep
     * the run's own directory and mode. */
    char dir[PATH_MAX];
    ck_assert(test_temp_dir(dir, sizeof dir, "usmarr-expr-cache"));
    usmarr_cache_stats_t before;
    ck_assert_ok(usmarr_cache_get_stats(&before));
    ck_assert_ok(usmarr_cache_set_directory(dir));
    ck_assert_ok(usmarr_cache_set_mode(USMARR_CACHE_ON));
    usmarr_context_t *ctx = test_context();
    usmarr_array_t *a = iota(ctx, USMARR_FLOAT32, 100, 0, 0.5), *b = iota(ctx, USMARR_INT16, 100, 0, 1), *r = NULL;
    usmarr_operand_t ops[2] = {{.array = a}, {.array = b}};
    usmarr_cache_stats_t s0, s1, s2, s3;
    usmarr_expr_t *e1 = NULL, *e2 = NULL;
    ck_assert_ok(usmarr_cache_get_stats(&s0));
    ck_assert_ok(usmarr_expr_create("sqrt(p) * q - p / 3", NULL, 0, &e1));
    ck_assert_ok(usmarr_expr_apply(e1, ops, 2, NULL, &r));
    usmarr_array_release(r);
    ck_assert_ok(usmarr_context_finish(ctx));
    ck_assert_ok(usmarr_cache_get_stats(&s1));
    ck_assert_uint_gt(s1.misses, s0.misses); /* compiled and stored */
    ck_assert_uint_gt(s1.stores, s0.stores);
    /* another text of the same canonical form: no disk lookup, no compile */
    ck_assert_ok(usmarr_expr_create("sqrt( x )*y-x/3", NULL, 0, &e2));
    ck_assert_str_eq(usmarr_expr_canonical(e1), usmarr_expr_canonical(e2));
    ck_assert_ok(usmarr_expr_apply(e2, ops, 2, NULL, &r));
    usmarr_array_release(r);
    ck_assert_ok(usmarr_cache_get_stats(&s2));
    ck_assert_uint_eq(s2.misses + s2.hits, s1.misses + s1.hits);
    /* a new context (a fresh process's memory cache): loaded from disk, not compiled */
    usmarr_context_t *ctx2 = test_context();
    usmarr_array_t *a2 = iota(ctx2, USMARR_FLOAT32, 100, 0, 0.5), *b2 = iota(ctx2, USMARR_INT16, 100, 0, 1);
    usmarr_operand_t ops2[2] = {{.array = a2}, {.array = b2}};
    ck_assert_ok(usmarr_cache_get_stats(&s2));
    ck_assert_ok(usmarr_expr_apply(e2, ops2, 2, NULL, &r));
    usmarr_array_release(r);
    ck_assert_ok(usmarr_cache_get_stats(&s3));
    ck_assert_uint_eq(s3.misses, s2.misses);
    ck_assert_uint_gt(s3.hits, s2.hits);
    usmarr_array_release(a2);
    usmarr_array_release(b2);
    usmarr_context_release(ctx2);
    usmarr_expr_release(e1);
    usmarr_expr_release(e2);
    usmarr_array_release(a);
    usmarr_array_release(b);
    usmarr_context_release(ctx);
    size_t removed;
    ck_assert_ok(usmarr_cache_clear(&removed));
    ck_assert_int_eq(rmdir(dir), 0);
    ck_assert_ok(usmarr_cache_set_directory(NULL));
    ck_assert_ok(usmarr_cache_set_mode(before.mode));
}
END_TEST

/* ---- threads ---------------------------------------------------------------------------------- */

struct thread_job {
    usmarr_context_t *ctx;
    usmarr_expr_t *e;
    usmarr_dtype_t dtype;
    int failures;
};

static int apply_in_thread(void *arg)
{
    struct thread_job *job = arg;
    for (int round = 0; round < 8; round++) {
        usmarr_array_t *a = NULL, *r = NULL;
        double v[16];
        if (usmarr_array_arange(job->ctx, 0, 16, 1, job->dtype, USMARR_USM_DEVICE, &a) ||
            usmarr_expr_apply(job->e, (usmarr_operand_t[]){{.array = a}, {.scalar = usmarr_scalar_int(round)}}, 2,
                              NULL, &r)) {
            job->failures++;
        } else {
            usmarr_array_t *d = NULL;
            if (usmarr_array_astype(r, USMARR_FLOAT64, USMARR_ORDER_C, NULL, &d) || usmarr_array_copy_to_host(d, v, NULL))
                job->failures++;
            else
                for (int i = 0; i < 16; i++)
                    job->failures += v[i] != (double)(i * 2 + round);
            usmarr_array_release(d);
        }
        usmarr_array_release(r);
        usmarr_array_release(a);
    }
    return 0;
}

/* One expression applied from several threads at once, each with its own dtype: the
 * expression's caches and the engine's single-flight compile keep every result right. */
START_TEST(test_expr_one_expression_from_several_threads)
{
    usmarr_context_t *ctx = test_context();
    usmarr_expr_t *e = NULL;
    ck_assert_ok(usmarr_expr_create("x * 2 + s", NULL, 0, &e));
    static const usmarr_dtype_t dtypes[4] = {USMARR_FLOAT32, USMARR_INT16, USMARR_FLOAT32, USMARR_INT64};
    struct thread_job jobs[4];
    thrd_t threads[4];
    for (int t = 0; t < 4; t++) {
        jobs[t] = (struct thread_job){ctx, e, dtypes[t], 0};
        ck_assert_int_eq(thrd_create(&threads[t], apply_in_thread, &jobs[t]), thrd_success);
    }
    for (int t = 0; t < 4; t++) {
        ck_assert_int_eq(thrd_join(threads[t], NULL), thrd_success);
        ck_assert_int_eq(jobs[t].failures, 0);
    }
    usmarr_expr_release(e);
    usmarr_context_release(ctx);
}
END_TEST

/* ---- failures ------------------------------------------------------------------------------- */

START_TEST(test_expr_apply_rejects_bad_arguments)
{
    usmarr_context_t *ctx = test_context(), *ctx2 = test_context();
    usmarr_array_t *a = iota(ctx, USMARR_FLOAT32, 4, 0, 1), *b = iota(ctx, USMARR_FLOAT32, 3, 0, 1);
    usmarr_array_t *other = iota(ctx2, USMARR_FLOAT32, 4, 0, 1), *ints = iota(ctx, USMARR_INT32, 4, 0, 1), *r = NULL;
    usmarr_expr_t *e = NULL;
    ck_assert_ok(usmarr_expr_create("a + b", NULL, 0, &e));
    usmarr_operand_t ops[2] = {{.array = a}, {.array = a}};
    ck_assert_fails_with(usmarr_expr_apply(NULL, ops, 2, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT, "expr is NULL");
    ck_assert_fails_with(usmarr_expr_apply(e, ops, 1, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT, "takes 2 operands, noperands=1");
    ck_assert_fails_with(usmarr_expr_apply(e, NULL, 2, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT, "operands is NULL");
    ck_assert_fails_with(usmarr_expr_apply(e, ops, 2, NULL, NULL), USMARR_ERROR_INVALID_ARGUMENT, "result is NULL");
    ops[1].array = b;
    ck_assert_fails_with(usmarr_expr_apply(e, ops, 2, NULL, &r), USMARR_ERROR_SHAPE_MISMATCH, "operand 'b' has shape[0]=3");
    ops[1].array = other;
    ck_assert_fails_with(usmarr_expr_apply(e, ops, 2, NULL, &r), USMARR_ERROR_CONTEXT_MISMATCH, "operand 'b' belongs to another context");
    usmarr_operand_t scalars[2] = {{.scalar = usmarr_scalar_int(1)}, {.scalar = usmarr_scalar_int(2)}};
    ck_assert_fails_with(usmarr_expr_apply(e, scalars, 2, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT, "no operand is an array");
    scalars[1].scalar.kind = (usmarr_kind_t)9;
    scalars[0].array = a;
    ck_assert_fails_with(usmarr_expr_apply(e, scalars, 2, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT, "operand 'b'.kind=9");
    ck_assert_ptr_null(r);
    usmarr_expr_release(e);
    /* type errors name the function, the dtype and the column */
    ck_assert_ok(usmarr_expr_create("a + (b & 1)", NULL, 0, &e));
    usmarr_operand_t mixed[2] = {{.array = ints}, {.array = a}};
    ck_assert_fails_with(usmarr_expr_apply(e, mixed, 2, NULL, &r), USMARR_ERROR_BAD_DTYPE, "(at column 8 of the expression)");
    usmarr_dtype_t d;
    ck_assert_fails_with(usmarr_expr_result_dtype(e, mixed, 2, &d), USMARR_ERROR_BAD_DTYPE, "bitwise_and");
    ck_assert_fails_with(usmarr_expr_result_dtype(e, mixed, 2, NULL), USMARR_ERROR_INVALID_ARGUMENT, "dtype is NULL");
    ck_assert_fails_with(usmarr_expr_reduce(e, mixed, 2, 0, NULL, false, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT,
                         "does not end in a reduction");
    /* a read-only out */
    usmarr_expr_release(e);
    ck_assert_ok(usmarr_expr_create("a * 2", NULL, 0, &e));
    usmarr_array_t *ro = NULL;
    ck_assert_ok(usmarr_array_index_text(a, "...", &ro));
    ck_assert_ok(usmarr_array_make_read_only(ro));
    usmarr_operand_t one[1] = {{.array = a}};
    ck_assert_fails_with(usmarr_expr_apply(e, one, 1, ro, NULL), USMARR_ERROR_READ_ONLY, "out");
    usmarr_array_release(ro);
    usmarr_expr_release(e);
    usmarr_array_release(a);
    usmarr_array_release(b);
    usmarr_array_release(ints);
    usmarr_array_release(other);
    usmarr_context_release(ctx);
    usmarr_context_release(ctx2);
}
END_TEST

Suite *suite_expr(void);
Suite *suite_expr(void)
{
    Suite *s = suite_create("expr");
    const struct test_case_entry tests[] = {
        {"malformed", test_expr_malformed_text_names_the_column_and_the_token},
        {"canonical", test_expr_canonical_form_follows_python_precedence},
        {"names", test_expr_names_reductions_and_references},
        {"numpy", test_expr_random_trees_match_numpy},
        {"reductions", test_expr_reductions_of_random_trees_match_numpy},
        {"out", test_expr_out_in_place_overlap_and_casts},
        {"scalars", test_expr_weak_and_typed_scalars_follow_numpy2},
        {"helpers", test_expr_helpers_of_several_dtypes_share_one_program},
        {"cache", test_expr_same_canonical_form_compiles_nothing_again},
        {"threads", test_expr_one_expression_from_several_threads},
        {"failures", test_expr_apply_rejects_bad_arguments},
    };
    test_add_cases(s, tests, sizeof tests / sizeof tests[0]);
    return s;
}
