/* The lane test: no element's result may depend on the values next to it.  A device's
 * vector math functions may take one path for all the lanes of a vector when one of them
 * needs it, and such a path may be wrong for the others (doc/ops.md, "Lanes").  For every
 * unary and binary elementwise function and every real dtype, tests/lane_cases.txt
 * (tests/gen/gen_lane_cases.py) holds a few ordinary inputs and, for each, the special
 * inputs to put next to it, with NumPy's results.  The test lays them out in 16-element
 * blocks, aligned as the kernels' vectors are: an ordinary element among copies of one
 * special, a special among copies of the ordinary, an ordinary among all the specials.
 * Every element of the result must be the same element computed alone (a strided view,
 * which no kernel loads as a vector) and NumPy's value within the function's bound. */
#include "../harness/common.h"
#include "ops_cases.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define LANES 16
#define MAX_ORDINARY 8

/* One function and dtype: its distinct inputs ("pairs"), ordinary k's first at base[k]
 * and its neighbours after it, with NumPy's results. */
struct lane_case {
    char op[32];
    usmarr_dtype_t dtype, rdtype;
    int arity, nord, npairs;
    int base[MAX_ORDINARY], nspec[MAX_ORDINARY];
    unsigned char *in[2], *want;
};

static void case_free(struct lane_case *c)
{
    free(c->in[0]);
    free(c->in[1]);
    free(c->want);
    memset(c, 0, sizeof *c);
}

/* Reads the next case of the file into `c`; false at the end. */
static bool case_read(FILE *f, struct lane_case *c)
{
    char *line = NULL, *fl[8];
    size_t cap = 0;
    bool found = false;
    memset(c, 0, sizeof *c);
    while (!found && getline(&line, &cap, f) > 0) {
        if (strncmp(line, "lane ", 5))
            continue;
        ck_assert_int_eq(ops_cases_split(line, fl, 8), 6);
        snprintf(c->op, sizeof c->op, "%s", fl[1]);
        c->dtype = (usmarr_dtype_t)ops_cases_dtype(fl[2]);
        c->arity = atoi(fl[3]);
        c->rdtype = (usmarr_dtype_t)ops_cases_dtype(fl[4]);
        c->nord = atoi(fl[5]);
        ck_assert(c->arity == 1 || c->arity == 2);
        ck_assert(c->nord > 0 && c->nord <= MAX_ORDINARY);
        size_t isz = usmarr_dtype_size(c->dtype), rsz = usmarr_dtype_size(c->rdtype);
        int cap_pairs = 0;
        for (int k = 0; k < c->nord; k++) {
            ck_assert_int_gt(getline(&line, &cap, f), 0);
            ck_assert_int_eq(ops_cases_split(line, fl, 8), 3 + c->arity);
            int ns = atoi(fl[2 + c->arity]);
            ck_assert(ns > 0);
            if (c->npairs + 1 + ns > cap_pairs) {
                cap_pairs = 2 * (c->npairs + 1 + ns);
                for (int a = 0; a < c->arity; a++)
                    c->in[a] = realloc(c->in[a], (size_t)cap_pairs * isz);
                c->want = realloc(c->want, (size_t)cap_pairs * rsz);
                ck_assert_ptr_nonnull(c->want);
            }
            c->base[k] = c->npairs;
            c->nspec[k] = ns;
            for (int j = 0; j <= ns; j++) {
                if (j > 0) {
                    ck_assert_int_gt(getline(&line, &cap, f), 0);
                    ck_assert_int_eq(ops_cases_split(line, fl, 8), 2 + c->arity);
                }
                for (int a = 0; a < c->arity; a++)
                    ops_cases_parse_value(fl[1 + a], c->dtype, c->in[a] + (size_t)c->npairs * isz);
                ops_cases_parse_value(fl[1 + c->arity], c->rdtype, c->want + (size_t)c->npairs * rsz);
                c->npairs++;
            }
        }
        found = true;
    }
    free(line);
    return found;
}

/* The blocks: for each ordinary input o and each of its neighbours s, o among copies of s
 * at three places, and s among copies of o; then o among all its neighbours at three
 * places.  `pairs` receives each element's pair; returns the count. */
static int lay_out(const struct lane_case *c, int *pairs)
{
    int n = 0;
    for (int k = 0; k < c->nord; k++) {
        int o = c->base[k], ns = c->nspec[k];
        for (int s = 0; s < ns; s++) {
            int places[3] = {0, (5 * s + 3) % LANES, LANES - 1};
            for (int p = 0; p < 3; p++, n += LANES)
                for (int j = 0; j < LANES; j++)
                    pairs[n + j] = j == places[p] ? o : o + 1 + s;
            for (int j = 0; j < LANES; j++)
                pairs[n + j] = j == (3 * s) % LANES ? o + 1 + s : o;
            n += LANES;
        }
        for (int p = 0; p < LANES; p += 7, n += LANES)
            for (int j = 0; j < LANES; j++)
                pairs[n + j] = j == p ? o : o + 1 + (j + p) % ns;
    }
    return n;
}

static int blocks_max(const struct lane_case *c)
{
    int n = 0;
    for (int k = 0; k < c->nord; k++)
        n += LANES * (4 * c->nspec[k] + 3);
    return n;
}

/* n elements of the pairs' operand `a`, in the order of `pairs` (a contiguous array), or
 * every pair once in every third element (a strided view) when `pairs` is NULL. */
static usmarr_array_t *operand(usmarr_context_t *ctx, const struct lane_case *c, int a, const int *pairs, int n)
{
    size_t isz = usmarr_dtype_size(c->dtype);
    int64_t len = pairs ? n : 3 * (int64_t)c->npairs;
    unsigned char *h = calloc((size_t)len, isz);
    ck_assert_ptr_nonnull(h);
    for (int i = 0; i < (pairs ? n : c->npairs); i++)
        memcpy(h + (size_t)(pairs ? i : 3 * i) * isz, c->in[a] + (size_t)(pairs ? pairs[i] : i) * isz, isz);
    usmarr_array_t *arr, *view;
    ck_assert_ok(usmarr_array_from_host(ctx, 1, &len, c->dtype, h, NULL, USMARR_USM_DEVICE, &arr));
    free(h);
    if (pairs)
        return arr;
    ck_assert_ok(usmarr_array_index_text(arr, "::3", &view));
    usmarr_array_release(arr);
    return view;
}

/* The function over the blocks (pairs given) or over every pair alone, on the host. */
static unsigned char *evaluate(usmarr_context_t *ctx, const struct lane_case *c, const int *pairs, int n)
{
    usmarr_array_t *in[2] = {NULL, NULL}, *res = NULL;
    usmarr_operand_t ops[2] = {{.array = NULL}, {.array = NULL}};
    for (int a = 0; a < c->arity; a++)
        ops[a].array = in[a] = operand(ctx, c, a, pairs, n);
    int rc = usmarr_elementwise(c->op, ops, (size_t)c->arity, NULL, &res);
    ck_assert_msg(rc == 0, "%s %s: %s: %s", c->op, usmarr_dtype_name(c->dtype), usmarr_error_name(rc),
                  usmarr_last_error_detail());
    ck_assert_msg(usmarr_array_dtype(res) == c->rdtype, "%s %s: result dtype %s, NumPy %s", c->op,
                  usmarr_dtype_name(c->dtype), usmarr_dtype_name(usmarr_array_dtype(res)),
                  usmarr_dtype_name(c->rdtype));
    unsigned char *got = malloc((size_t)(pairs ? n : c->npairs) * usmarr_dtype_size(c->rdtype));
    ck_assert_ptr_nonnull(got);
    ck_assert_ok(usmarr_array_copy_to_host(res, got, NULL));
    usmarr_array_release(res);
    usmarr_array_release(in[0]);
    usmarr_array_release(in[1]);
    return got;
}

/* Whether two results are the same value: the same bits, or both NaN. */
static bool same_result(usmarr_dtype_t d, const unsigned char *x, const unsigned char *y)
{
    if (!memcmp(x, y, usmarr_dtype_size(d)))
        return true;
    double xr, xi, yr, yi;
    ops_cases_load(d, x, &xr, &xi);
    ops_cases_load(d, y, &yr, &yi);
    return (isnan(xr) || isnan(xi)) && (isnan(yr) || isnan(yi));
}

/* Counts a mismatch of a case; its first one is printed and kept for the assertion (the
 * first few cases'). */
static void note(const char *msg, int *case_failures, int *failures, char *text, size_t size)
{
    if ((*case_failures)++ == 0) {
        fprintf(stderr, "lanes:%s\n", msg);
        if (*failures < 12 && strlen(text) + strlen(msg) < size)
            strcat(text, msg);
    }
    (*failures)++;
}

static void describe(const struct lane_case *c, int pair, char *buf, size_t size)
{
    double r[2] = {0, 0}, im;
    for (int a = 0; a < c->arity; a++)
        ops_cases_load(c->dtype, c->in[a] + (size_t)pair * usmarr_dtype_size(c->dtype), &r[a], &im);
    if (c->arity == 1)
        snprintf(buf, size, "%s(%.17g)", c->op, r[0]);
    else
        snprintf(buf, size, "%s(%.17g, %.17g)", c->op, r[0], r[1]);
}

/* Checks one case on `ctx`; adds its mismatches to *failures and the first ones to `text`. */
static void check_case(usmarr_context_t *ctx, const struct lane_case *c, const char *label, int *failures,
                       char *text, size_t size)
{
    int *pairs = malloc(sizeof(int) * (size_t)blocks_max(c));
    ck_assert_ptr_nonnull(pairs);
    int n = lay_out(c, pairs);
    unsigned char *whole = evaluate(ctx, c, pairs, n), *alone = evaluate(ctx, c, NULL, 0);
    size_t rsz = usmarr_dtype_size(c->rdtype);
    double ulps = ops_cases_ulps(c->op, c->rdtype);
    char what[160], msg[600];
    int case_failures = 0;
    for (int p = 0; p < c->npairs; p++) {
        if (ops_cases_close(c->rdtype, alone + (size_t)p * rsz, c->want + (size_t)p * rsz, ulps))
            continue;
        double g, w, im;
        ops_cases_load(c->rdtype, alone + (size_t)p * rsz, &g, &im);
        ops_cases_load(c->rdtype, c->want + (size_t)p * rsz, &w, &im);
        describe(c, p, what, sizeof what);
        snprintf(msg, sizeof msg, "\n  %s%s %s alone: %.17g, NumPy %.17g (%g ulp)", label, what,
                 usmarr_dtype_name(c->dtype), g, w, ulps);
        note(msg, &case_failures, failures, text, size);
    }
    for (int i = 0; i < n; i++) {
        const unsigned char *got = whole + (size_t)i * rsz, *want = alone + (size_t)pairs[i] * rsz;
        if (same_result(c->rdtype, got, want))
            continue;
        double g, w, nb, im;
        ops_cases_load(c->rdtype, got, &g, &im);
        ops_cases_load(c->rdtype, want, &w, &im);
        int other = pairs[i - i % LANES + (i % LANES == 0)]; /* a neighbour in its vector */
        ops_cases_load(c->dtype, c->in[0] + (size_t)other * usmarr_dtype_size(c->dtype), &nb, &im);
        describe(c, pairs[i], what, sizeof what);
        snprintf(msg, sizeof msg, "\n  %s%s %s in lane %d of a vector holding %.17g: %.17g, alone %.17g", label,
                 what, usmarr_dtype_name(c->dtype), i % LANES, nb, g, w);
        note(msg, &case_failures, failures, text, size);
    }
    free(whole);
    free(alone);
    free(pairs);
}

static FILE *lane_cases_open(void)
{
    const char *path = getenv("USMARR_LANE_CASES") ? getenv("USMARR_LANE_CASES") : "tests/lane_cases.txt";
    FILE *f = fopen(path, "r");
    ck_assert_msg(f != NULL, "cannot open %s (make check generates it: tests/gen/gen_lane_cases.py)", path);
    return f;
}

/* Runs every case whose dtype `keep` accepts on `ctx`; returns how many ran. */
static int run_cases(usmarr_context_t *ctx, bool (*keep)(usmarr_context_t *, usmarr_dtype_t), const char *label,
                     int *failures, char *text, size_t size)
{
    FILE *f = lane_cases_open();
    struct lane_case c;
    int ran = 0;
    while (case_read(f, &c)) {
        if (keep(ctx, c.dtype)) {
            check_case(ctx, &c, label, failures, text, size);
            ran++;
        }
        case_free(&c);
    }
    fclose(f);
    return ran;
}

static bool every_dtype(usmarr_context_t *ctx, usmarr_dtype_t d)
{
    return !test_dtype_skipped(ctx, d);
}

START_TEST(test_lanes_every_function_and_dtype_is_independent_of_its_neighbours)
{
    usmarr_context_t *ctx = test_shared_context();
    int failures = 0;
    char text[4000] = "";
    int ran = run_cases(ctx, every_dtype, "", &failures, text, sizeof text);
    ck_assert_msg(failures == 0, "%d elements depend on their neighbours or differ from NumPy:%s", failures, text);
    /* 46 unary and 30 binary functions of a float dtype, most also of the integers */
    ck_assert_int_ge(ran, test_case_floor(usmarr_context_info(ctx)->fp64 ? 150 : 100));
    usmarr_context_release(ctx);
}
END_TEST

static bool float_dtypes(usmarr_context_t *ctx, usmarr_dtype_t d)
{
    return (d == USMARR_FLOAT32 || d == USMARR_FLOAT64) && !test_dtype_skipped(ctx, d);
}

/* The same under every kernel shape the tuner may choose (the vector width and the work
 * split change the lanes), for the float dtypes, whose math functions are the device's. */
START_TEST(test_lanes_every_tuner_candidate_keeps_lanes_independent)
{
    char combos[8][512], label[600], text[4000] = "";
    int ncombos = test_shape_candidate_combos(combos, 8), failures = 0;
    ck_assert_int_gt(ncombos, 0);
    for (int k = 0; k < ncombos; k++) {
        setenv("USMARR_KERNEL_SHAPE", combos[k], 1);
        usmarr_context_t *ctx = test_context();
        snprintf(label, sizeof label, "[%.500s] ", combos[k]);
        ck_assert_int_gt(run_cases(ctx, float_dtypes, label, &failures, text, sizeof text), 0);
        usmarr_context_release(ctx);
    }
    unsetenv("USMARR_KERNEL_SHAPE");
    ck_assert_msg(failures == 0, "%d elements depend on their neighbours or differ from NumPy:%s", failures, text);
}
END_TEST

Suite *suite_lanes(void)
{
    Suite *s = suite_create("lanes");
    TCase *tc = tcase_create("neighbours");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_lanes_every_function_and_dtype_is_independent_of_its_neighbours);
    suite_add_tcase(s, tc);
    /* a compile of the float programs per shape: on the devices, not again in the modes */
    tc = tcase_create("shapes");
    tcase_set_timeout(tc, 0);
    tcase_set_tags(tc, TEST_TAG_VARIANTS);
    tcase_add_test(tc, test_lanes_every_tuner_candidate_keeps_lanes_independent);
    suite_add_tcase(s, tc);
    return s;
}
