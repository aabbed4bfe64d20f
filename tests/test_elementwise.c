/* Elementwise functions against NumPy (tests/ops_cases.txt from gen_ops_cases.py), on
 * contiguous, reversed (negative strides) and strided layouts, plus broadcasting, 0-d,
 * zero-size, out/in-place/overlap, scalars and every failure path. */
#include "common.h"
#include "ops_cases.h"

#include <math.h>
#include <stdlib.h>

/* The library's own table gives the names and arities of the wrappers to call. */
#define USMARR_ELEMENTWISE_TABLE_ONLY
#include "../cl/elementwise.cl"

typedef int (*fn1_t)(const usmarr_array_t *, usmarr_array_t *, usmarr_array_t **);
typedef int (*fn2_t)(const usmarr_array_t *, const usmarr_array_t *, usmarr_array_t *, usmarr_array_t **);
typedef int (*fn3_t)(const usmarr_array_t *, const usmarr_array_t *, const usmarr_array_t *, usmarr_array_t *,
                     usmarr_array_t **);
struct wrapper {
    const char *name;
    int arity;
    void (*fn)(void);
};
#define AR_1 1
#define AR_2 2
#define AR_3 3
#define AR_W 3
static const struct wrapper wrappers[] = {
#define W_(ID, name, arity, loops, out, flags, vec, expr, vexpr) {#name, AR_##arity, (void (*)(void))usmarr_##name},
    USMARR_ELEMENTWISE_OPS(W_)
#undef W_
};
#define NWRAPPERS (sizeof wrappers / sizeof wrappers[0])

static const struct wrapper *wrapper_for(const char *name)
{
    for (size_t i = 0; i < NWRAPPERS; i++)
        if (!strcmp(wrappers[i].name, name))
            return &wrappers[i];
    return NULL;
}

static int call(const struct wrapper *w, usmarr_array_t *const *in, usmarr_array_t *out, usmarr_array_t **result)
{
    switch (w->arity) {
    case 1: return ((fn1_t)w->fn)(in[0], out, result);
    case 2: return ((fn2_t)w->fn)(in[0], in[1], out, result);
    default: return ((fn3_t)w->fn)(in[0], in[1], in[2], out, result);
    }
}

/* Accuracy bounds, in units in the last place of the result dtype (doc/elementwise.md).
 * float16 results are computed in float and rounded once: within 1 ulp of float16. */
static double ulps_for(const char *op, usmarr_dtype_t rd)
{
    static const struct {
        const char *op;
        double ulps;
    } table[] = {
        {"abs", 2}, {"divide", 1},  {"reciprocal", 1}, {"floor_divide", 1}, {"remainder", 1}, {"sqrt", 1},  {"cbrt", 2},
        {"exp", 3},     {"exp2", 3},       {"expm1", 3},        {"log", 3},       {"log2", 3},  {"log10", 3},
        {"log1p", 3},   {"sin", 4},        {"cos", 4},          {"tan", 5},       {"asin", 4},  {"acos", 4},
        {"atan", 5},    {"sinh", 4},       {"cosh", 4},         {"tanh", 5},      {"asinh", 4}, {"acosh", 4},
        {"atanh", 5},   {"pow", 16},       {"atan2", 6},        {"hypot", 4},     {"logaddexp", 4},
    };
    double u = 0;
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (!strcmp(table[i].op, op))
            u = table[i].ulps;
    if (rd == USMARR_FLOAT16)
        return u > 0 ? 1 : 0;
    if (usmarr_dtype_kind(rd) == USMARR_KIND_COMPLEX)
        return u > 0 ? 64 : 4; /* relative to |result|: complex formulas cancel */
    return u;
}

struct values {
    bool have;
    unsigned char bytes[16 * 16];
};
static struct values vals[USMARR_DTYPE_COUNT];

/* Input k of a case: the dtype's values rotated left by 5k. */
static void operand_bytes(usmarr_dtype_t d, int k, unsigned char *dst)
{
    size_t isz = usmarr_dtype_size(d);
    for (int i = 0; i < 16; i++)
        memcpy(dst + i * isz, vals[d].bytes + ((i + 5 * k) % 16) * isz, isz);
}

enum layout { LAYOUT_CONTIGUOUS, LAYOUT_REVERSED, LAYOUT_STRIDED, LAYOUT_COUNT };
static const char *const layout_names[] = {"contiguous", "reversed", "strided"};

/* An array whose logical elements are `host[0..n)` in the given layout. */
static usmarr_array_t *make_input(usmarr_context_t *ctx, usmarr_dtype_t d, const unsigned char *host, int64_t n,
                                  enum layout lay)
{
    size_t isz = usmarr_dtype_size(d);
    usmarr_array_t *base = NULL, *view = NULL;
    unsigned char buf[32 * 16];
    if (lay == LAYOUT_CONTIGUOUS) {
        ck_assert_ok(usmarr_array_from_host(ctx, 1, &n, d, host, NULL, USMARR_USM_DEVICE, &base));
        return base;
    }
    if (lay == LAYOUT_REVERSED) {
        for (int64_t i = 0; i < n; i++)
            memcpy(buf + i * isz, host + (n - 1 - i) * isz, isz);
        ck_assert_ok(usmarr_array_from_host(ctx, 1, &n, d, buf, NULL, USMARR_USM_DEVICE, &base));
        ck_assert_ok(usmarr_array_index_text(base, "::-1", &view));
    } else {
        int64_t n2 = 2 * n;
        for (int64_t i = 0; i < n; i++) {
            memcpy(buf + 2 * i * isz, host + i * isz, isz);
            memcpy(buf + (2 * i + 1) * isz, host + (n - 1 - i) * isz, isz);
        }
        ck_assert_ok(usmarr_array_from_host(ctx, 1, &n2, d, buf, NULL, USMARR_USM_DEVICE, &base));
        ck_assert_ok(usmarr_array_index_text(base, "::2", &view));
    }
    usmarr_array_release(base);
    return view;
}

static void read_values(FILE *f)
{
    char line[65536];
    rewind(f);
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "values ", 7))
            continue;
        char *fl[20];
        int n = ops_cases_split(line, fl, 20);
        ck_assert_int_eq(n, 19);
        int d = ops_cases_dtype(fl[1]);
        for (int i = 0; i < 16; i++)
            ops_cases_parse_value(fl[3 + i], (usmarr_dtype_t)d, vals[d].bytes + i * usmarr_dtype_size(d));
        vals[d].have = true;
    }
}

/* Keeps the first few failure messages. */
static void note_failure(char *buf, size_t size, const char *msg, int *failures)
{
    if ((*failures)++ < 30 && strlen(buf) + strlen(msg) < size)
        strcat(buf, msg);
}

/* Runs every "ew" line whose arity is in [amin, amax]; returns the number of cases run. */
static int run_cases(int amin, int amax)
{
    usmarr_context_t *ctx = test_context();
    FILE *f = ops_cases_open();
    read_values(f);
    rewind(f);
    char line[65536];
    int cases = 0, failures = 0;
    char first_failure[16384] = "";
    char msg[600];
    bool fp64 = usmarr_context_info(ctx)->fp64;
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "ew ", 3))
            continue;
        char *fl[40];
        int nf = ops_cases_split(line, fl, 40);
        const char *op = fl[1];
        int nin = atoi(fl[2]);
        if (nin < amin || nin > amax)
            continue;
        usmarr_dtype_t din[3];
        bool needs64 = false;
        for (int k = 0; k < nin; k++) {
            din[k] = (usmarr_dtype_t)ops_cases_dtype(fl[3 + k]);
            needs64 |= din[k] == USMARR_FLOAT64 || din[k] == USMARR_COMPLEX128;
        }
        const struct wrapper *w = wrapper_for(op);
        ck_assert_msg(w != NULL, "no wrapper for %s", op);
        const char *rname = fl[3 + nin];
        bool expect_error = !strcmp(rname, "error");
        usmarr_dtype_t rd = expect_error ? USMARR_BOOL : (usmarr_dtype_t)ops_cases_dtype(rname);
        needs64 |= rd == USMARR_FLOAT64 || rd == USMARR_COMPLEX128;
        if (needs64 && !fp64)
            continue;
        unsigned char host[3][16 * 16];
        for (int k = 0; k < nin; k++)
            operand_bytes(din[k], k, host[k]);
        unsigned char want[16 * 16], got[16 * 16];
        size_t rsz = usmarr_dtype_size(rd);
        if (!expect_error) {
            ck_assert_int_eq(nf, 3 + nin + 2 + 16);
            for (int i = 0; i < 16; i++)
                ops_cases_parse_value(fl[3 + nin + 2 + i], rd, want + i * rsz);
        }
        for (int lay = 0; lay < (expect_error ? 1 : LAYOUT_COUNT); lay++) {
            usmarr_array_t *in[3] = {NULL, NULL, NULL}, *res = NULL, *outbase = NULL, *out = NULL;
            for (int k = 0; k < nin; k++)
                in[k] = make_input(ctx, din[k], host[k], 16, (enum layout)lay);
            if (lay == LAYOUT_STRIDED && !expect_error) { /* a strided out, too */
                int64_t n2 = 32;
                ck_assert_ok(usmarr_array_zeros(ctx, 1, &n2, rd, USMARR_ORDER_C, USMARR_USM_DEVICE, &outbase));
                ck_assert_ok(usmarr_array_index_text(outbase, "1::2", &out));
            }
            int rc = call(w, in, out, &res);
            if (expect_error) {
                if (rc != USMARR_ERROR_BAD_DTYPE) {
                    snprintf(msg, sizeof msg, "\n  %s(%s%s%s): rc %s, NumPy has no loop", op, fl[3],
                             nin > 1 ? "," : "", nin > 1 ? fl[4] : "", usmarr_error_name(rc));
                    note_failure(first_failure, sizeof first_failure, msg, &failures);
                }
            } else if (rc) {
                snprintf(msg, sizeof msg, "\n  %s(%s...) %s: %s: %.300s", op, fl[3], layout_names[lay],
                         usmarr_error_name(rc), usmarr_last_error_detail());
                note_failure(first_failure, sizeof first_failure, msg, &failures);
            } else {
                ck_assert_msg(usmarr_array_dtype(res) == rd, "%s(%s...): dtype %s, NumPy %s", op, fl[3],
                              usmarr_dtype_name(usmarr_array_dtype(res)), rname);
                ck_assert_ok(usmarr_array_copy_to_host(res, got, NULL));
                double ulps = ulps_for(op, rd);
                for (int i = 0; i < 16; i++) {
                    if (!ops_cases_close(rd, got + i * rsz, want + i * rsz, ulps)) {
                        {
                            double gr, gi, wr, wi, ar, ai, br = 0, bi = 0;
                            ops_cases_load(rd, got + i * rsz, &gr, &gi);
                            ops_cases_load(rd, want + i * rsz, &wr, &wi);
                            ops_cases_load(din[0], host[0] + i * usmarr_dtype_size(din[0]), &ar, &ai);
                            if (nin > 1)
                                ops_cases_load(din[1], host[1] + i * usmarr_dtype_size(din[1]), &br, &bi);
                            snprintf(msg, sizeof msg,
                                     "\n  %s(%s%s%s) %s [%d]: inputs (%.17g%+.17gj, %.17g%+.17gj) got %.17g%+.17gj, "
                                     "NumPy %.17g%+.17gj (tolerance %g ulp)",
                                     op, fl[3], nin > 1 ? "," : "", nin > 1 ? fl[4] : "", layout_names[lay], i, ar,
                                     ai, br, bi, gr, gi, wr, wi, ulps);
                            note_failure(first_failure, sizeof first_failure, msg, &failures);
                        }
                        break;
                    }
                }
            }
            usmarr_array_release(res);
            usmarr_array_release(out);
            usmarr_array_release(outbase);
            for (int k = 0; k < nin; k++)
                usmarr_array_release(in[k]);
        }
        cases++;
    }
    fclose(f);
    usmarr_context_release(ctx);
    ck_assert_msg(failures == 0, "%d mismatches; the first ones:%s", failures, first_failure);
    return cases;
}

START_TEST(test_elementwise_unary_functions_match_numpy_on_every_dtype_and_layout)
{
    ck_assert_int_gt(run_cases(1, 1), 40 * 14 - 1);
}
END_TEST

START_TEST(test_elementwise_binary_functions_match_numpy_on_every_dtype_pair_and_layout)
{
    ck_assert_int_gt(run_cases(2, 2), 29 * 14);
}
END_TEST

START_TEST(test_elementwise_where_and_clip_match_numpy)
{
    ck_assert_int_gt(run_cases(3, 3), 20);
}
END_TEST

Suite *suite_elementwise(void);
Suite *suite_elementwise(void)
{
    Suite *s = suite_create("elementwise");
    /* one case per test so that CK_RUN_CASE can pick one */
    const struct {
        const char *name;
        const TTest *test;
    } tests[] = {
        {"unary", test_elementwise_unary_functions_match_numpy_on_every_dtype_and_layout},
        {"binary", test_elementwise_binary_functions_match_numpy_on_every_dtype_pair_and_layout},
        {"ternary", test_elementwise_where_and_clip_match_numpy},
    };
    for (size_t i = 0; i < sizeof tests / sizeof tests[0]; i++) {
        TCase *tc = tcase_create(tests[i].name);
        tcase_set_timeout(tc, 0);
        tcase_add_test(tc, tests[i].test);
        suite_add_tcase(s, tc);
    }
    return s;
}
