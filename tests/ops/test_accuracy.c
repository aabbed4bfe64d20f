/* The accuracy suite: every floating and complex elementwise function against references
 * computed in higher precision by an independent method (mpmath, tests/gen/
 * gen_accuracy_cases.py writes tests/accuracy_cases.txt) on inputs chosen to be hard: near
 * 0 and 1, near |z| = 1, near overflow and underflow, huge and tiny, subnormal, both zeros,
 * infinities and NaN, the branch cuts, the poles, large trigonometric arguments.  NumPy 2's
 * results on the same inputs (in the file) are measured with the same yardstick.  At every
 * point the library's distance to the reference, in units in the last place, must be within
 * the function's bound (doc/ops.md, "Accuracy") plus MATHLIB times NumPy's own distance
 * there: within the bound wherever NumPy is exact; where NumPy's own formula loses digits
 * (cancellation), the library, with the same formula over the device's math library
 * (OpenCL allows up to 4 ulp where glibc stays within 1), within MATHLIB times NumPy's loss.
 * Special values (NaN, infinities, the sign of a zero) must be the reference's.  The worst
 * distances per function and dtype, the library's and NumPy's, go to
 * tests/accuracy-report.txt. */
#include "../harness/common.h"
#include "ops_cases.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* Bounds in ulp of the result dtype: real results, and complex results part by part (each
 * part in ulps of itself) except the arithmetic, whose error is measured against the
 * larger part (`normwise`), as their formulas cancel within a part (doc/ops.md). */
static const struct bound {
    const char *op;
    double f16, f32, f64, c64, c128;
    bool normwise;
} bounds[] = {
    {"add", 0.5, 0.5, 0.5, 0.5, 0.5, true},
    {"subtract", 0.5, 0.5, 0.5, 0.5, 0.5, true},
    {"multiply", 0.5, 0.5, 0.5, 2, 2, true},
    {"divide", 0.5, 0.5, 0.5, 4, 4, true},
    {"square", 0.5, 0.5, 0.5, 2, 2, true},
    {"reciprocal", 0.5, 0.5, 0.5, 4, 4, true},
    {"sign", 0, 0, 0, 2, 2, true},
    {"abs", 0, 0, 0, 2, 2, false},
    {"pow", 1, 16, 16, 64, 64, true},
    {"nextafter", 0, 0, 0, 0, 0, false},
    {"sqrt", 0.5, 1, 1, 2, 2, false},
    {"cbrt", 1, 2, 2, 0, 0, false},
    {"exp", 1, 3, 3, 4, 4, false},
    {"exp2", 1, 3, 3, 4, 4, false},
    {"expm1", 1, 3, 3, 4, 4, false},
    {"log", 1, 3, 3, 4, 4, false},
    {"log2", 1, 3, 3, 4, 4, false},
    {"log10", 1, 3, 3, 4, 4, false},
    {"log1p", 1, 3, 3, 4, 4, false},
    {"sin", 1, 4, 4, 4, 4, false},
    {"cos", 1, 4, 4, 4, 4, false},
    {"tan", 1, 5, 5, 8, 8, false},
    {"asin", 1, 4, 4, 4, 4, false},
    {"acos", 1, 4, 4, 4, 4, false},
    {"atan", 1, 5, 5, 4, 4, false},
    {"sinh", 1, 4, 4, 4, 4, false},
    {"cosh", 1, 4, 4, 4, 4, false},
    {"tanh", 1, 5, 5, 8, 8, false},
    {"asinh", 1, 4, 4, 4, 4, false},
    {"acosh", 1, 4, 4, 4, 4, false},
    {"atanh", 1, 5, 5, 4, 4, false},
    {"atan2", 1, 6, 6, 0, 0, false},
    {"hypot", 1, 4, 4, 0, 0, false},
    {"logaddexp", 1, 4, 4, 0, 0, false},
};

#define MATHLIB 4

static const struct bound *bound_of(const char *op)
{
    for (size_t i = 0; i < sizeof bounds / sizeof bounds[0]; i++)
        if (!strcmp(bounds[i].op, op))
            return &bounds[i];
    return NULL;
}

static double bound_for(const struct bound *b, usmarr_dtype_t d)
{
    switch (d) {
    case USMARR_FLOAT16: return b->f16;
    case USMARR_FLOAT32: return b->f32;
    case USMARR_FLOAT64: return b->f64;
    case USMARR_COMPLEX64: return b->c64;
    default: return b->c128;
    }
}

/* ---- ulps ------------------------------------------------------------------------------------ */

struct fmt {
    int mant, emin;
    double max;
};

static struct fmt format_of(usmarr_dtype_t d)
{
    if (d == USMARR_FLOAT16)
        return (struct fmt){11, -14, 65504.0};
    if (d == USMARR_FLOAT32 || d == USMARR_COMPLEX64)
        return (struct fmt){24, -126, 0x1.fffffep127};
    return (struct fmt){53, -1022, 0x1.fffffffffffffp1023};
}

static long double ulp(struct fmt f, long double v)
{
    int e = v == 0 || !isfinite(v) ? f.emin : ilogbl(fabsl(v));
    return ldexpl(1, (e < f.emin ? f.emin : e) - f.mant + 1);
}

/* An infinity as the value one ulp past the largest finite one, so that max against inf
 * is one ulp. */
static long double surrogate(struct fmt f, long double v)
{
    return isinf(v) ? copysignl((long double)f.max + ulp(f, f.max), v) : v;
}

/* How far `got` is from hi + lo, in ulps of `scale` (the reference part itself, or the
 * larger part for the normwise measure); INFINITY for another class (NaN where the
 * reference is not, or the other way, or a zero of the other sign). */
static double distance(struct fmt f, double got, double hi, double lo, long double scale)
{
    if (isnan(lo)) /* below the doubles */
        return isnan(got) ? INFINITY : (double)(fabsl(surrogate(f, got)) / ulp(f, 0));
    if (isnan(hi) || isnan(got))
        return isnan(hi) && isnan(got) ? 0 : INFINITY;
    if (hi == 0 && lo == 0 && got == 0)
        return !signbit(hi) == !signbit(got) ? 0 : INFINITY;
    if (isinf(hi) && isinf(got))
        return !signbit(hi) == !signbit(got) ? 0 : INFINITY;
    long double r = isinf(hi) ? hi : (long double)hi + lo;
    if (fabsl(r) >= (long double)f.max + ulp(f, f.max) / 2) /* rounds to an infinity in the dtype */
        r = copysignl(INFINITY, r);
    if (isinf(r) && isinf(got))
        return !signbit(r) == !signbit(got) ? 0 : INFINITY;
    return (double)(fabsl(surrogate(f, got) - surrogate(f, r)) / ulp(f, isinf(r) ? f.max : scale));
}

/* ---- the case file --------------------------------------------------------------------------- */

static bool parse_complex(const char *text, double *re, double *im)
{
    char *end;
    *re = strtod(text, &end);
    if (*end != ':')
        return false;
    *im = strtod(end + 1, NULL);
    return true;
}

/* A reference part "HI,LO", or "0,u" for a nonzero value below the doubles (LO NaN then:
 * either zero is as near) */
static void parse_ref(const char *text, double *hi, double *lo)
{
    char *end;
    *hi = strtod(text, &end);
    *lo = *end == ',' ? end[1] == 'u' ? NAN : strtod(end + 1, NULL) : 0;
}

struct point {
    double x[2][2];   /* inputs: [operand][re, im] */
    double ref[2][2]; /* reference: [part][hi, lo] */
    double npy[2];    /* NumPy's result: re, im */
};

struct worst {
    double value;
    int index;
};

static void note(struct worst *w, double d, int i)
{
    if (d > w->value || w->index < 0) {
        w->value = d;
        w->index = i;
    }
}

/* The error of one result (re, im) against a point's reference. */
static double error_of(struct fmt f, bool cplx, bool normwise, const struct point *p, double re, double im)
{
    if (!cplx)
        return distance(f, re, p->ref[0][0], p->ref[0][1], p->ref[0][0]);
    long double big = fmaxl(fabsl(p->ref[0][0]), fabsl(p->ref[1][0]));
    double e0 = distance(f, re, p->ref[0][0], p->ref[0][1], normwise && isfinite(big) ? big : p->ref[0][0]);
    double e1 = distance(f, im, p->ref[1][0], p->ref[1][1], normwise && isfinite(big) ? big : p->ref[1][0]);
    return fmax(e0, e1);
}

static usmarr_array_t *upload(usmarr_context_t *ctx, usmarr_dtype_t d, const struct point *pts, int n, int k)
{
    size_t isz = usmarr_dtype_size(d);
    unsigned char *h = malloc((size_t)n * isz);
    ck_assert_ptr_nonnull(h);
    char text[96];
    for (int i = 0; i < n; i++) { /* through the text form, which ops_cases parses for every dtype */
        if (usmarr_dtype_kind(d) == USMARR_KIND_COMPLEX)
            snprintf(text, sizeof text, "%a:%a", pts[i].x[k][0], pts[i].x[k][1]);
        else
            snprintf(text, sizeof text, "%a", pts[i].x[k][0]);
        if (isnan(pts[i].x[k][0]) && usmarr_dtype_kind(d) != USMARR_KIND_COMPLEX)
            snprintf(text, sizeof text, "%s", signbit(pts[i].x[k][0]) ? "-nan" : "nan");
        ops_cases_parse_value(text, d, h + (size_t)i * isz);
    }
    int64_t len = n;
    usmarr_array_t *a;
    ck_assert_ok(usmarr_array_from_host(ctx, 1, &len, d, h, NULL, USMARR_USM_DEVICE, &a));
    free(h);
    return a;
}

START_TEST(test_accuracy_every_function_within_its_bound_against_a_higher_precision_reference)
{
    usmarr_context_t *ctx = test_context();
    const char *path = getenv("USMARR_ACCURACY_CASES") ? getenv("USMARR_ACCURACY_CASES") : "tests/accuracy_cases.txt";
    FILE *f = fopen(path, "r");
    ck_assert_msg(f != NULL, "cannot open %s (make check generates it: tests/gen/gen_accuracy_cases.py)", path);
    FILE *report = fopen("tests/accuracy-report.txt", "w");
    if (report)
        fprintf(report, "# the worst distance to the reference in ulp (complex: the larger of the parts')\n");
    bool fp64 = usmarr_context_info(ctx)->fp64;
    if (report)
        fprintf(report, "# function dtype points library numpy bound excess  at (the library's worst point)\n"
                        "#   (excess: the largest library distance less 4 x NumPy's at one point; within the bound)\n");
    char *line = NULL, *fl[8], msg[600], text[3000] = "";
    size_t cap = 0;
    int blocks = 0, failures = 0;
    while (getline(&line, &cap, f) > 0) {
        if (!strncmp(line, "mpmath missing", 14)) {
            fprintf(stderr, "accuracy: SKIPPED: %s was made without mpmath (scripts/numpy-oracle.sh installs it)\n",
                    path);
            blocks = -1;
            break;
        }
        if (strncmp(line, "acc ", 4))
            continue;
        ck_assert_int_eq(ops_cases_split(line, fl, 8), 5);
        char op[32];
        snprintf(op, sizeof op, "%s", fl[1]);
        usmarr_dtype_t d = (usmarr_dtype_t)ops_cases_dtype(fl[2]);
        int nargs = atoi(fl[3]), n = atoi(fl[4]);
        bool cplx = usmarr_dtype_kind(d) == USMARR_KIND_COMPLEX;
        struct point *pts = calloc((size_t)n, sizeof *pts);
        ck_assert_ptr_nonnull(pts);
        for (int i = 0; i < n; i++) {
            ck_assert_int_gt(getline(&line, &cap, f), 0);
            int nf = ops_cases_split(line, fl, 8);
            ck_assert_int_eq(nf, 3 + nargs);
            for (int k = 0; k < nargs; k++)
                if (!cplx || !parse_complex(fl[1 + k], &pts[i].x[k][0], &pts[i].x[k][1]))
                    pts[i].x[k][0] = strtod(fl[1 + k], NULL);
            char *ref = fl[1 + nargs], *colon = strchr(ref, ':');
            if (colon) {
                *colon = 0;
                parse_ref(colon + 1, &pts[i].ref[1][0], &pts[i].ref[1][1]);
            }
            parse_ref(ref, &pts[i].ref[0][0], &pts[i].ref[0][1]);
            if (!parse_complex(fl[2 + nargs], &pts[i].npy[0], &pts[i].npy[1]))
                pts[i].npy[0] = strtod(fl[2 + nargs], NULL);
        }
        const struct bound *b = bound_of(op);
        ck_assert_msg(b != NULL, "no bound for %s", op);
        if ((d == USMARR_FLOAT64 || d == USMARR_COMPLEX128) && !fp64) {
            free(pts);
            continue;
        }
        usmarr_array_t *in[2] = {NULL, NULL}, *res = NULL;
        usmarr_operand_t ops[2] = {{.array = NULL}, {.array = NULL}};
        for (int k = 0; k < nargs; k++)
            ops[k].array = in[k] = upload(ctx, d, pts, n, k);
        ck_assert_ok(usmarr_elementwise(op, ops, (size_t)nargs, NULL, &res));
        usmarr_dtype_t rd = usmarr_array_dtype(res);
        size_t rsz = usmarr_dtype_size(rd);
        unsigned char *got = malloc((size_t)n * rsz);
        ck_assert_ptr_nonnull(got);
        ck_assert_ok(usmarr_array_copy_to_host(res, got, NULL));
        bool rcplx = usmarr_dtype_kind(rd) == USMARR_KIND_COMPLEX;
        struct fmt fm = format_of(rd);
        struct worst lib = {0, -1}, npy = {0, -1}, excess = {0, -1};
        double bound = bound_for(b, d);
        for (int i = 0; i < n; i++) {
            double gr, gi;
            ops_cases_load(rd, got + (size_t)i * rsz, &gr, &gi);
            double e = error_of(fm, rcplx, b->normwise, &pts[i], gr, gi);
            double ne = error_of(fm, rcplx, b->normwise, &pts[i], pts[i].npy[0], pts[i].npy[1]);
            note(&lib, e, i);
            note(&npy, ne, i);
            note(&excess, isinf(e) && isinf(ne) ? 0 : e - MATHLIB * ne, i);
            if (e <= bound + MATHLIB * ne)
                continue;
            const struct point *p = &pts[i];
            snprintf(msg, sizeof msg,
                     "\n  %s %s (%.17g%+.17gj%s%.17g%+.17gj): got %.17g%+.17gj, reference %.17g%+.17gj, NumPy "
                     "%.17g%+.17gj: %.3g ulp > %g + %d x NumPy's %.3g",
                     op, usmarr_dtype_name(d), p->x[0][0], p->x[0][1], nargs > 1 ? ", " : "",
                     nargs > 1 ? p->x[1][0] : 0.0, nargs > 1 ? p->x[1][1] : 0.0, gr, gi, p->ref[0][0], p->ref[1][0],
                     p->npy[0], p->npy[1], e, bound, MATHLIB, ne);
            if (failures < 400)
                fprintf(stderr, "accuracy:%s\n", msg);
            if (failures++ < 10 && strlen(text) + strlen(msg) < sizeof text)
                strcat(text, msg);
        }
        if (report) {
            const struct point *w = &pts[lib.index];
            double wr, wi;
            ops_cases_load(rd, got + (size_t)lib.index * rsz, &wr, &wi);
            fprintf(report, "%s %s %d %.3g %.3g %g %.3g  at (%a%+aj%s%a%+aj): %a%+aj, reference %a%+aj\n", op,
                    usmarr_dtype_name(d), n, lib.value, npy.value, bound, excess.value, w->x[0][0], w->x[0][1],
                    nargs > 1 ? ", " : "", nargs > 1 ? w->x[1][0] : 0.0, nargs > 1 ? w->x[1][1] : 0.0, wr, wi,
                    w->ref[0][0], w->ref[1][0]);
        }
        free(got);
        usmarr_array_release(res);
        usmarr_array_release(in[0]);
        usmarr_array_release(in[1]);
        free(pts);
        blocks++;
    }
    free(line);
    fclose(f);
    if (report)
        fclose(report);
    ck_assert_msg(failures == 0, "%d results beyond NumPy's error plus their bound (doc/ops.md, \"Accuracy\"):%s",
                  failures, text);
    ck_assert_msg(blocks != 0, "no cases in %s", path);
    usmarr_context_release(ctx);
}
END_TEST

Suite *suite_accuracy(void)
{
    Suite *s = suite_create("accuracy");
    TCase *tc = tcase_create("reference");
    tcase_set_timeout(tc, 120);
    tcase_set_tags(tc, TEST_TAG_VARIANTS);
    tcase_add_test(tc, test_accuracy_every_function_within_its_bound_against_a_higher_precision_reference);
    suite_add_tcase(s, tc);
    return s;
}
