/* Complex elementwise functions against NumPy 2 (tests/complex_cases.txt from
 * gen_complex_cases.py): the C99 Annex G special values, the branch cuts with signed zeros,
 * tiny and huge magnitudes and subnormals, for complex64 and complex128, on contiguous and
 * reversed layouts, which must agree to the bit.  Tolerances: doc/ops.md, "Complex
 * functions". */
#include "../harness/common.h"
#include "ops_cases.h"

#include <math.h>
#include <stdlib.h>

/* Ulps of the larger part of NumPy's result (doc/ops.md); for log1p and expm1, whose
 * NumPy formulas cancel near 0, of max(that part, 1). */
static double tolerance(const char *op)
{
    static const struct {
        const char *op;
        double ulps;
    } table[] = {
        {"square", 2}, {"abs", 2},    {"reciprocal", 2}, {"sign", 2}, {"sqrt", 2},  {"exp", 4},   {"exp2", 4},
        {"expm1", 8},  {"log", 4},    {"log2", 4},       {"log10", 4}, {"log1p", 4}, {"sin", 4},   {"cos", 4},
        {"tan", 8},    {"sinh", 4},   {"cosh", 4},       {"tanh", 8},  {"asin", 4},  {"acos", 4},  {"atan", 4},
        {"asinh", 4},  {"acosh", 4},  {"atanh", 4},      {"pow", 64},
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (!strcmp(table[i].op, op))
            return table[i].ulps;
    return 0;
}

static double ulp(bool single, double v)
{
    int e;
    frexp(fabs(v), &e);
    int emin = single ? -125 : -1021;
    return ldexp(1, (v == 0 || e < emin ? emin : e) - (single ? 24 : 53));
}

/* One part: NaN where NumPy has NaN, the same infinity, the same signed zero where both
 * are zero, else within `tol` (absolute). */
static bool part_close(double g, double w, double tol)
{
    if (isnan(w) || isnan(g))
        return isnan(w) && isnan(g);
    if (isinf(w) || isinf(g))
        return g == w;
    if (g == 0 && w == 0)
        return signbit(g) == signbit(w);
    return fabs(g - w) <= tol;
}

static bool close(usmarr_dtype_t rd, const void *got, const void *want, double ulps, bool near_one)
{
    double gr, gi, wr, wi;
    ops_cases_load(rd, got, &gr, &gi);
    ops_cases_load(rd, want, &wr, &wi);
    bool single = rd == USMARR_COMPLEX64 || rd == USMARR_FLOAT32;
    double big = fmax(isfinite(wr) ? fabs(wr) : 0, isfinite(wi) ? fabs(wi) : 0);
    double tol = ulps * ulp(single, near_one ? fmax(big, 1) : big);
    return part_close(gr, wr, tol) && part_close(gi, wi, tol);
}

struct input {
    int n;
    unsigned char *bytes;
};

static char *next_line(FILE *f, char **buf, size_t *cap)
{
    return getline(buf, cap, f) > 0 ? *buf : NULL;
}

/* The first mismatches go into the failure message (Check's limit is ~4 KiB), up to 200 to
 * stderr. */
static void note(char *buf, size_t size, const char *msg, int *failures)
{
    if (*failures < 3000)
        fprintf(stderr, "complex:%s\n", msg);
    if ((*failures)++ < 12 && strlen(buf) + strlen(msg) < size)
        strcat(buf, msg);
}

/* The same value to the bit in each part (any NaN equal to any NaN). */
static bool same_value(usmarr_dtype_t rd, const void *a, const void *b)
{
    double ar, ai, br, bi;
    ops_cases_load(rd, a, &ar, &ai);
    ops_cases_load(rd, b, &br, &bi);
    return ((isnan(ar) && isnan(br)) || (ar == br && signbit(ar) == signbit(br))) &&
           ((isnan(ai) && isnan(bi)) || (ai == bi && signbit(ai) == signbit(bi)));
}

/* Lanes (doc/ops.md): an element of the contiguous layout, computed in a vector beside
 * others (special values among ordinary ones), has the value it has alone in the reversed
 * layout. */
static void check_lanes(const char *op, usmarr_dtype_t d, usmarr_dtype_t rd, int n, const unsigned char *contiguous,
                        usmarr_array_t *reversed, char *failures_text, size_t size, int *failures)
{
    size_t rsz = usmarr_dtype_size(rd);
    unsigned char *got = malloc((size_t)n * rsz);
    ck_assert_ptr_nonnull(got);
    ck_assert_ok(usmarr_array_copy_to_host(reversed, got, NULL));
    for (int i = 0; i < n; i++) {
        if (same_value(rd, contiguous + (size_t)i * rsz, got + (size_t)i * rsz))
            continue;
        double cr, ci, gr, gi;
        ops_cases_load(rd, contiguous + (size_t)i * rsz, &cr, &ci);
        ops_cases_load(rd, got + (size_t)i * rsz, &gr, &gi);
        char msg[400];
        snprintf(msg, sizeof msg, "\n  %s %s [%d]: contiguous %.17g%+.17gj, alone (reversed) %.17g%+.17gj", op,
                 usmarr_dtype_name(d), i, cr, ci, gr, gi);
        note(failures_text, size, msg, failures);
    }
    free(got);
}

/* Compares a result with the line's expected values; `y` is pow's exponent or NULL. */
static void check(const char *op, usmarr_dtype_t d, usmarr_dtype_t rd, const struct input *in, const char *y_text,
                  usmarr_array_t *res, char **want_text, const char *layout, char *failures_text, size_t size,
                  int *failures)
{
    size_t isz = usmarr_dtype_size(d), rsz = usmarr_dtype_size(rd);
    unsigned char *got = malloc((size_t)in->n * rsz), want[16];
    ck_assert_ptr_nonnull(got);
    ck_assert_int_eq(usmarr_array_dtype(res), rd);
    ck_assert_ok(usmarr_array_copy_to_host(res, got, NULL));
    double ulps = tolerance(op), yr = 0, yi = 0;
    if (y_text) {
        ops_cases_parse_value(y_text, d, want);
        ops_cases_load(d, want, &yr, &yi);
    }
    for (int i = 0; i < in->n; i++) {
        double ar, ai, gr, gi, wr, wi, u = ulps;
        ops_cases_load(d, in->bytes + (size_t)i * isz, &ar, &ai);
        if (y_text) { /* exp(y log x): the error of log x grows |y log x| times */
            double k = hypot(yr, yi) * fabs(log(hypot(ar, ai)));
            u *= isfinite(k) && k > 1 ? k : 1;
        }
        ops_cases_parse_value(want_text[i], rd, want);
        if (close(rd, got + (size_t)i * rsz, want, u, !strcmp(op, "log1p") || !strcmp(op, "expm1")))
            continue;
        ops_cases_load(rd, got + (size_t)i * rsz, &gr, &gi);
        ops_cases_load(rd, want, &wr, &wi);
        char msg[400];
        snprintf(msg, sizeof msg, "\n  %s %s %s [%d] (%.9g%+.9gj): got %.17g%+.17gj, NumPy %.17g%+.17gj (%g ulp)", op,
                 usmarr_dtype_name(d), layout, i, ar, ai, gr, gi, wr, wi, u);
        note(failures_text, size, msg, failures);
    }
    free(got);
}

/* The inputs of one dtype as an array in the layout (0 contiguous, 1 reversed view). */
static usmarr_array_t *make(usmarr_context_t *ctx, usmarr_dtype_t d, const struct input *in, int layout)
{
    int64_t n = in->n;
    size_t isz = usmarr_dtype_size(d);
    usmarr_array_t *a = NULL, *v = NULL;
    if (!layout) {
        ck_assert_ok(usmarr_array_from_host(ctx, 1, &n, d, in->bytes, NULL, USMARR_USM_DEVICE, &a));
        return a;
    }
    unsigned char *rev = malloc((size_t)n * isz);
    ck_assert_ptr_nonnull(rev);
    for (int64_t i = 0; i < n; i++)
        memcpy(rev + i * isz, in->bytes + (n - 1 - i) * isz, isz);
    ck_assert_ok(usmarr_array_from_host(ctx, 1, &n, d, rev, NULL, USMARR_USM_DEVICE, &a));
    free(rev);
    ck_assert_ok(usmarr_array_index_text(a, "::-1", &v));
    usmarr_array_release(a);
    return v;
}

START_TEST(test_complex_functions_match_numpy2_on_special_values_cuts_and_extremes)
{
    usmarr_context_t *ctx = test_context();
    FILE *f = fopen(getenv("USMARR_COMPLEX_CASES") ? getenv("USMARR_COMPLEX_CASES") : "tests/complex_cases.txt", "r");
    ck_assert_msg(f != NULL, "cannot open tests/complex_cases.txt (make check generates it with NumPy 2: "
                             "tests/gen/gen_complex_cases.py)");
    bool fp64 = usmarr_context_info(ctx)->fp64;
    struct input in[USMARR_DTYPE_COUNT] = {{0, NULL}};
    char *buf = NULL, **fl = NULL;
    size_t cap = 0;
    int cases = 0, failures = 0;
    char text[3000] = "";
    unsigned char *first_layout = NULL; /* a unary function's contiguous result */
    ck_assert_ptr_nonnull(fl = malloc(4096 * sizeof *fl));
    while (next_line(f, &buf, &cap)) {
        int nf = ops_cases_split(buf, fl, 4096);
        if (nf >= 2 && !strcmp(fl[0], "numpy") && atoi(fl[1]) < 2) {
            fprintf(stderr, "complex: SKIPPED: tests/complex_cases.txt was made with NumPy %s, not NumPy 2 (the "
                            "reference); see scripts/numpy-oracle.sh\n", fl[1]);
            break;
        }
        if (nf < 4)
            continue;
        if (!strcmp(fl[0], "cin")) {
            usmarr_dtype_t d = (usmarr_dtype_t)ops_cases_dtype(fl[1]);
            in[d].n = atoi(fl[2]);
            ck_assert_int_eq(nf, 3 + in[d].n);
            ck_assert_ptr_nonnull(in[d].bytes = malloc((size_t)in[d].n * usmarr_dtype_size(d)));
            for (int i = 0; i < in[d].n; i++)
                ops_cases_parse_value(fl[3 + i], d, in[d].bytes + (size_t)i * usmarr_dtype_size(d));
            continue;
        }
        bool is_pow = !strcmp(fl[0], "cpow");
        if (!is_pow && strcmp(fl[0], "cx"))
            continue;
        const char *op = is_pow ? "pow" : fl[1];
        usmarr_dtype_t d = (usmarr_dtype_t)ops_cases_dtype(is_pow ? fl[1] : fl[2]);
        usmarr_dtype_t rd = is_pow ? d : (usmarr_dtype_t)ops_cases_dtype(fl[3]);
        int n = atoi(is_pow ? fl[2] : fl[4]), first = is_pow ? 4 : 5;
        ck_assert_int_eq(n, in[d].n);
        ck_assert_int_eq(nf, first + n);
        if (d == USMARR_COMPLEX128 && !fp64)
            continue;
        for (int layout = 0; layout < 2; layout++) {
            usmarr_array_t *x = make(ctx, d, &in[d], layout), *y = NULL, *res = NULL;
            usmarr_operand_t ops[2] = {{.array = x}, {.array = NULL}};
            if (is_pow) {
                unsigned char yb[16];
                int64_t one = 1;
                ops_cases_parse_value(fl[3], d, yb);
                ck_assert_ok(usmarr_array_from_host(ctx, 1, &one, d, yb, NULL, USMARR_USM_DEVICE, &y));
                ops[1].array = y;
            }
            ck_assert_ok(usmarr_elementwise(op, ops, is_pow ? 2 : 1, NULL, &res));
            char layout_name[64];
            snprintf(layout_name, sizeof layout_name, "%s%s%s", layout ? "reversed" : "contiguous",
                     is_pow ? " y=" : "", is_pow ? fl[3] : "");
            check(op, d, rd, &in[d], is_pow ? fl[3] : NULL, res, fl + first, layout_name, text, sizeof text, &failures);
            if (!is_pow && !layout) {
                ck_assert_ptr_nonnull(first_layout = realloc(first_layout, (size_t)n * usmarr_dtype_size(rd)));
                ck_assert_ok(usmarr_array_copy_to_host(res, first_layout, NULL));
            } else if (!is_pow)
                check_lanes(op, d, rd, n, first_layout, res, text, sizeof text, &failures);
            usmarr_array_release(res);
            usmarr_array_release(y);
            usmarr_array_release(x);
        }
        cases++;
    }
    free(fl);
    free(buf);
    free(first_layout);
    fclose(f);
    for (int d = 0; d < USMARR_DTYPE_COUNT; d++)
        free(in[d].bytes);
    ck_assert_msg(failures == 0, "%d mismatches with NumPy 2 (first 12):%s", failures, text);
    ck_assert_msg(cases == 0 || cases >= 20, "only %d complex cases read", cases);
    usmarr_context_release(ctx);
}
END_TEST

Suite *suite_complex(void);
Suite *suite_complex(void)
{
    Suite *s = suite_create("complex");
    const struct test_case_entry tests[] = {
        {"numpy2", test_complex_functions_match_numpy2_on_special_values_cuts_and_extremes},
    };
    test_add_tagged_cases(s, tests, sizeof tests / sizeof tests[0], TEST_TAG_VARIANTS);
    return s;
}
