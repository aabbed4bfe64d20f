/* Elementwise functions against NumPy (tests/ops_cases.txt from gen_ops_cases.py), on
 * contiguous, reversed (negative strides) and strided layouts, plus broadcasting, 0-d,
 * zero-size, out/in-place/overlap, scalars and every failure path. */
#include "../harness/common.h"
#include "ops_cases.h"

#include <math.h>
#include <stdlib.h>

/* The library's own table gives the names and arities of the wrappers to call. */
#define USMARR_ELEMENTWISE_TABLE_ONLY
#include "../../cl/elementwise.cl"

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
#define AR_C 2
/* isclose has parameters: the wrapper applies NumPy's defaults, as usmarr_elementwise() does */
static int isclose_defaults(const usmarr_array_t *a, const usmarr_array_t *b, usmarr_array_t *out,
                            usmarr_array_t **result)
{
    return usmarr_isclose(a, b, 1e-5, 1e-8, false, out, result);
}
#define FN_1(name) usmarr_##name
#define FN_2(name) usmarr_##name
#define FN_3(name) usmarr_##name
#define FN_W(name) usmarr_##name
#define FN_C(name) name##_defaults
static const struct wrapper wrappers[] = {
#define W_(ID, name, arity, loops, out, flags, vec, expr, vexpr) {#name, AR_##arity, (void (*)(void))FN_##arity(name)},
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
        bool value_error = !strcmp(rname, "valueerror"); /* a negative integer exponent */
        bool expect_error = value_error || !strcmp(rname, "error");
        usmarr_dtype_t rd = expect_error ? USMARR_BOOL : (usmarr_dtype_t)ops_cases_dtype(rname);
        needs64 |= rd == USMARR_FLOAT64 || rd == USMARR_COMPLEX128;
        bool sampled = true;
        for (int k = 0; k < nin; k++)
            sampled &= test_dtype_sampled(din[k]);
        if ((needs64 && !fp64) || !sampled)
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
                if (rc != (value_error ? USMARR_ERROR_INVALID_ARGUMENT : USMARR_ERROR_BAD_DTYPE) ||
                    (value_error && !strstr(usmarr_last_error_detail(), "negative integer powers"))) {
                    snprintf(msg, sizeof msg, "\n  %s(%s%s%s): rc %s, NumPy %s", op, fl[3], nin > 1 ? "," : "",
                             nin > 1 ? fl[4] : "", usmarr_error_name(rc),
                             value_error ? "raises ValueError" : "has no loop");
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
                double ulps = ops_cases_ulps(op, rd);
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
    ck_assert_int_gt(run_cases(3, 3), test_case_floor(20));
}
END_TEST

/* ---- scalars, layouts, out, failures: against host loops ------------------------------------ */

static usmarr_array_t *from_host(usmarr_context_t *ctx, usmarr_dtype_t d, int ndim, const int64_t *shape,
                                 const void *host)
{
    usmarr_array_t *a;
    ck_assert_ok(usmarr_array_from_host(ctx, ndim, shape, d, host, NULL, USMARR_USM_DEVICE, &a));
    return a;
}

START_TEST(test_elementwise_weak_scalars_keep_the_array_dtype)
{
    usmarr_context_t *ctx = test_context();
    int64_t n = 6;
    int8_t i8[6] = {-128, -1, 0, 1, 100, 127}, gi8[6];
    usmarr_array_t *a = from_host(ctx, USMARR_INT8, 1, &n, i8), *r;
    /* int8 + 1 stays int8 and wraps */
    usmarr_operand_t o[3] = {{.array = a}, {.scalar = usmarr_scalar_int(1)}};
    ck_assert_ok(usmarr_elementwise("add", o, 2, NULL, &r));
    ck_assert_int_eq(usmarr_array_dtype(r), USMARR_INT8);
    ck_assert_ok(usmarr_array_copy_to_host(r, gi8, NULL));
    for (int i = 0; i < 6; i++)
        ck_assert_int_eq(gi8[i], (int8_t)(i8[i] + 1));
    usmarr_array_release(r);
    /* 3 - x with the scalar first */
    usmarr_operand_t o2[2] = {{.scalar = usmarr_scalar_int(3)}, {.array = a}};
    ck_assert_ok(usmarr_elementwise("subtract", o2, 2, NULL, &r));
    ck_assert_ok(usmarr_array_copy_to_host(r, gi8, NULL));
    for (int i = 0; i < 6; i++)
        ck_assert_int_eq(gi8[i], (int8_t)(3 - i8[i]));
    usmarr_array_release(r);
    /* int8 + 1.5 is float64 */
    o[1].scalar = usmarr_scalar_float(1.5);
    ck_assert_ok(usmarr_elementwise("add", o, 2, NULL, &r));
    ck_assert_int_eq(usmarr_array_dtype(r), USMARR_FLOAT64);
    double f64[6];
    ck_assert_ok(usmarr_array_copy_to_host(r, f64, NULL));
    for (int i = 0; i < 6; i++)
        ck_assert(f64[i] == i8[i] + 1.5);
    usmarr_array_release(r);
    /* int8 + 300 overflows like NumPy 2 */
    o[1].scalar = usmarr_scalar_int(300);
    ck_assert_fails_with(usmarr_elementwise("add", o, 2, NULL, &r), USMARR_ERROR_OVERFLOW, "300");
    /* clip(x, -5, 5) with weak bounds stays int8 */
    usmarr_operand_t o3[3] = {{.array = a}, {.scalar = usmarr_scalar_int(-5)}, {.scalar = usmarr_scalar_int(5)}};
    ck_assert_ok(usmarr_elementwise("clip", o3, 3, NULL, &r));
    ck_assert_int_eq(usmarr_array_dtype(r), USMARR_INT8);
    ck_assert_ok(usmarr_array_copy_to_host(r, gi8, NULL));
    for (int i = 0; i < 6; i++)
        ck_assert_int_eq(gi8[i], i8[i] < -5 ? -5 : i8[i] > 5 ? 5 : i8[i]);
    usmarr_array_release(r);
    /* NumPy 2's clip: bounds beyond the dtype's range on their own side bound nothing */
    o3[1].scalar = usmarr_scalar_int(-500);
    o3[2].scalar = usmarr_scalar_uint(UINT64_MAX);
    ck_assert_ok(usmarr_elementwise("clip", o3, 3, NULL, &r));
    ck_assert_int_eq(usmarr_array_dtype(r), USMARR_INT8);
    ck_assert_ok(usmarr_array_copy_to_host(r, gi8, NULL));
    ck_assert_mem_eq(gi8, i8, sizeof gi8);
    usmarr_array_release(r);
    o3[1].scalar = usmarr_scalar_int(200); /* a lower bound above the range is an error, as in NumPy */
    ck_assert_fails_with(usmarr_elementwise("clip", o3, 3, NULL, &r), USMARR_ERROR_OVERFLOW, "operands[1]=200");
    o3[1].scalar = usmarr_scalar_int(0);
    o3[2].scalar = usmarr_scalar_int(-129);
    ck_assert_fails_with(usmarr_elementwise("clip", o3, 3, NULL, &r), USMARR_ERROR_OVERFLOW, "operands[2]=-129");
    /* float32 * 2.5 stays float32; float32 + 1j is complex64 */
    float f[6] = {0.5f, -1, 2, 3.25f, -0.0f, 1e3f}, gf[6], gc[12];
    usmarr_array_t *b = from_host(ctx, USMARR_FLOAT32, 1, &n, f);
    usmarr_operand_t o4[2] = {{.array = b}, {.scalar = usmarr_scalar_float(2.5)}};
    ck_assert_ok(usmarr_elementwise("multiply", o4, 2, NULL, &r));
    ck_assert_int_eq(usmarr_array_dtype(r), USMARR_FLOAT32);
    ck_assert_ok(usmarr_array_copy_to_host(r, gf, NULL));
    for (int i = 0; i < 6; i++)
        ck_assert(gf[i] == f[i] * 2.5f);
    usmarr_array_release(r);
    o4[1].scalar = usmarr_scalar_complex(0, 1);
    ck_assert_ok(usmarr_elementwise("add", o4, 2, NULL, &r));
    ck_assert_int_eq(usmarr_array_dtype(r), USMARR_COMPLEX64);
    ck_assert_ok(usmarr_array_copy_to_host(r, gc, NULL));
    for (int i = 0; i < 6; i++)
        ck_assert(gc[2 * i] == f[i] && gc[2 * i + 1] == 1);
    usmarr_array_release(r);
    /* where(x > 1, x, 0.0): a weak value keeps float32 */
    usmarr_array_t *cond;
    usmarr_operand_t o5[2] = {{.array = b}, {.scalar = usmarr_scalar_int(1)}};
    ck_assert_ok(usmarr_elementwise("greater", o5, 2, NULL, &cond));
    usmarr_operand_t o6[3] = {{.array = cond}, {.array = b}, {.scalar = usmarr_scalar_float(0)}};
    ck_assert_ok(usmarr_elementwise("where", o6, 3, NULL, &r));
    ck_assert_int_eq(usmarr_array_dtype(r), USMARR_FLOAT32);
    ck_assert_ok(usmarr_array_copy_to_host(r, gf, NULL));
    for (int i = 0; i < 6; i++)
        ck_assert(gf[i] == (f[i] > 1 ? f[i] : 0));
    usmarr_array_release(r);
    usmarr_array_release(cond);
    /* a typed float64 scalar promotes like an array */
    usmarr_scalar_t t64 = {.kind = USMARR_KIND_FLOAT, .dtype = USMARR_FLOAT64, .value.f = 0.25};
    o4[1].scalar = t64;
    ck_assert_ok(usmarr_elementwise("add", o4, 2, NULL, &r));
    ck_assert_int_eq(usmarr_array_dtype(r), USMARR_FLOAT64);
    usmarr_array_release(r);
    usmarr_array_release(b);
    usmarr_array_release(a);
    usmarr_context_release(ctx);
}
END_TEST

/* NumPy 2's weak integer scalars out of range (the "weakop" lines): comparisons and logical
 * functions answer, the others fail with USMARR_ERROR_OVERFLOW naming the value. */
START_TEST(test_elementwise_weak_integers_out_of_range_follow_numpy2)
{
    usmarr_context_t *ctx = test_context();
    FILE *f = ops_cases_open();
    read_values(f);
    rewind(f);
    char line[4096];
    int cases = 0;
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "weakop ", 7))
            continue;
        char *fl[32];
        int nf = ops_cases_split(line, fl, 32);
        const char *op = fl[1], *text = fl[5];
        usmarr_dtype_t d = (usmarr_dtype_t)ops_cases_dtype(fl[2]);
        int pos = atoi(fl[3]);
        usmarr_scalar_t sc = !strcmp(fl[4], "uint") ? usmarr_scalar_uint(strtoull(text, NULL, 10))
                                                    : usmarr_scalar_int(strtoll(text, NULL, 10));
        int64_t n = 16;
        usmarr_array_t *x, *r = NULL;
        unsigned char input[16 * 16];
        memcpy(input, vals[d].bytes, 16 * usmarr_dtype_size(d));
        ops_cases_mark_nans(d, input, 16); /* NaN bits are the device's: compared as NaN */
        ck_assert_ok(usmarr_array_from_host(ctx, 1, &n, d, input, NULL, USMARR_USM_DEVICE, &x));
        usmarr_operand_t o[2] = {{.array = x}, {.array = NULL, .scalar = sc}};
        if (pos == 0) {
            o[1] = o[0];
            o[0] = (usmarr_operand_t){.array = NULL, .scalar = sc};
        }
        int rc = usmarr_elementwise(op, o, 2, NULL, &r);
        if (!strcmp(fl[6], "overflow")) {
            ck_assert_msg(rc == USMARR_ERROR_OVERFLOW, "%s(%s%s%s): rc %s, NumPy raises OverflowError", op,
                          pos ? fl[2] : text, ", ", pos ? text : fl[2], usmarr_error_name(rc));
            ck_assert_msg(strstr(usmarr_last_error_detail(), text) != NULL, "detail \"%s\" does not name %s",
                          usmarr_last_error_detail(), text);
        } else if (!strcmp(fl[6], "valueerror")) {
            ck_assert_msg(rc == USMARR_ERROR_INVALID_ARGUMENT, "%s(%s%s%s): rc %s, NumPy raises ValueError", op,
                          pos ? fl[2] : text, ", ", pos ? text : fl[2], usmarr_error_name(rc));
            ck_assert_ptr_nonnull(strstr(usmarr_last_error_detail(), "negative integer powers are not allowed"));
        } else {
            ck_assert_msg(rc == 0, "%s(%s%s%s): %s: %s", op, pos ? fl[2] : text, ", ", pos ? text : fl[2],
                          usmarr_error_name(rc), usmarr_last_error_detail());
            usmarr_dtype_t rd = (usmarr_dtype_t)ops_cases_dtype(fl[6]);
            ck_assert_int_eq(usmarr_array_dtype(r), rd);
            ck_assert_int_eq(nf, 8 + 16);
            unsigned char got[16 * 16], want[16];
            size_t rsz = usmarr_dtype_size(rd);
            ck_assert_ok(usmarr_array_copy_to_host(r, got, NULL));
            bool inexact = usmarr_dtype_kind(rd) == USMARR_KIND_FLOAT || usmarr_dtype_kind(rd) == USMARR_KIND_COMPLEX;
            for (int i = 0; i < 16; i++) {
                ops_cases_parse_value(fl[8 + i], rd, want);
                bool same = inexact ? ops_cases_close(rd, got + i * rsz, want, ops_cases_ulps(op, rd))
                                    : memcmp(got + i * rsz, want, rsz) == 0;
                ck_assert_msg(same, "%s(%s%s%s)[%d] differs from NumPy 2 (%s)", op, pos ? fl[2] : text, ", ",
                              pos ? text : fl[2], i, fl[8 + i]);
            }
        }
        usmarr_array_release(r);
        usmarr_array_release(x);
        cases++;
    }
    fclose(f);
    /* the oracle has these lines only when made with NumPy 2 */
    ck_assert_msg(cases == 0 || cases >= 1000, "only %d weakop cases", cases);
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_elementwise_broadcasting_0d_and_zero_size)
{
    usmarr_context_t *ctx = test_context();
    int64_t s41[2] = {4, 1}, s13[2] = {1, 3}, s0[2] = {0, 3}, three = 3, s243[3] = {2, 4, 3};
    int32_t col[4] = {1, 2, 3, 4}, row[3] = {10, 20, 30}, got[24];
    usmarr_array_t *a = from_host(ctx, USMARR_INT32, 2, s41, col), *b = from_host(ctx, USMARR_INT32, 2, s13, row), *r;
    ck_assert_ok(usmarr_multiply(a, b, NULL, &r));
    ck_assert_int_eq(usmarr_array_ndim(r), 2);
    ck_assert_int_eq(usmarr_array_shape(r)[0], 4);
    ck_assert_int_eq(usmarr_array_shape(r)[1], 3);
    ck_assert_ok(usmarr_array_copy_to_host(r, got, NULL));
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 3; j++)
            ck_assert_int_eq(got[i * 3 + j], col[i] * row[j]);
    usmarr_array_release(r);
    /* into an out of a larger shape the inputs broadcast to */
    usmarr_array_t *o;
    ck_assert_ok(usmarr_array_zeros(ctx, 3, s243, USMARR_INT32, USMARR_ORDER_F, USMARR_USM_DEVICE, &o));
    ck_assert_ok(usmarr_add(a, b, o, NULL));
    ck_assert_ok(usmarr_array_copy_to_host(o, got, NULL));
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < 4; i++)
            for (int j = 0; j < 3; j++)
                ck_assert_int_eq(got[k * 12 + i * 3 + j], col[i] + row[j]);
    usmarr_array_release(o);
    /* 0-d with 0-d, and 0-d with an array */
    int32_t seven = 7, g0;
    usmarr_array_t *z = from_host(ctx, USMARR_INT32, 0, NULL, &seven);
    ck_assert_ok(usmarr_square(z, NULL, &r));
    ck_assert_int_eq(usmarr_array_ndim(r), 0);
    ck_assert_ok(usmarr_array_copy_to_host(r, &g0, NULL));
    ck_assert_int_eq(g0, 49);
    usmarr_array_release(r);
    ck_assert_ok(usmarr_subtract(z, a, NULL, &r));
    ck_assert_ok(usmarr_array_copy_to_host(r, got, NULL));
    for (int i = 0; i < 4; i++)
        ck_assert_int_eq(got[i], 7 - col[i]);
    usmarr_array_release(r);
    /* zero-size: (0, 3) + (3,) is (0, 3) and launches nothing */
    usmarr_array_t *e, *v = from_host(ctx, USMARR_INT32, 1, &three, row);
    ck_assert_ok(usmarr_array_empty(ctx, 2, s0, USMARR_INT32, USMARR_ORDER_C, USMARR_USM_DEVICE, &e));
    ck_assert_ok(usmarr_add(e, v, NULL, &r));
    ck_assert_int_eq(usmarr_array_size(r), 0);
    ck_assert_int_eq(usmarr_array_shape(r)[1], 3);
    usmarr_array_release(r);
    ck_assert_fails_with(usmarr_add(e, a, NULL, &r), USMARR_ERROR_SHAPE_MISMATCH, "shape");
    /* an integer pow with an empty result computes nothing: a negative exponent, scalar or
     * array, is no error there (NumPy 2 refuses it only where an element is computed), and
     * shapes that do not broadcast are reported first */
    int32_t minus[3] = {-1, -2, -3};
    usmarr_array_t *neg = from_host(ctx, USMARR_INT32, 1, &three, minus);
    usmarr_operand_t pw[2] = {{.array = e}, {.array = NULL, .scalar = usmarr_scalar_int(-7)}};
    r = NULL;
    ck_assert_ok(usmarr_elementwise("pow", pw, 2, NULL, &r));
    ck_assert_int_eq(usmarr_array_size(r), 0);
    usmarr_array_release(r);
    ck_assert_ok(usmarr_pow(e, neg, NULL, &r));
    ck_assert_int_eq(usmarr_array_shape(r)[0], 0);
    ck_assert_int_eq(usmarr_array_shape(r)[1], 3);
    usmarr_array_release(r);
    r = NULL;
    ck_assert_fails_with(usmarr_pow(v, neg, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT, "negative integer powers");
    pw[0].array = v;
    ck_assert_fails_with(usmarr_elementwise("pow", pw, 2, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT,
                         "negative integer powers");
    int64_t two = 2;
    usmarr_array_t *neg2 = from_host(ctx, USMARR_INT32, 1, &two, minus);
    ck_assert_fails_with(usmarr_pow(v, neg2, NULL, &r), USMARR_ERROR_SHAPE_MISMATCH, "shape");
    ck_assert_ptr_null(r);
    usmarr_array_release(neg2);
    usmarr_array_release(neg);
    usmarr_array_release(e);
    usmarr_array_release(v);
    usmarr_array_release(z);
    usmarr_array_release(a);
    usmarr_array_release(b);
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_elementwise_out_in_place_overlap_and_casts)
{
    usmarr_context_t *ctx = test_context();
    int64_t n = 17;
    float h[17], hb[17], got[17];
    for (int i = 0; i < 17; i++) {
        h[i] = (float)i;
        hb[i] = 100.0f * (float)i;
    }
    usmarr_array_t *a = from_host(ctx, USMARR_FLOAT32, 1, &n, h), *b = from_host(ctx, USMARR_FLOAT32, 1, &n, hb);
    /* in place: out is an input */
    ck_assert_ok(usmarr_add(a, b, a, NULL));
    ck_assert_ok(usmarr_array_copy_to_host(a, got, NULL));
    for (int i = 0; i < 17; i++)
        ck_assert(got[i] == h[i] + hb[i]);
    ck_assert_ok(usmarr_array_copy_from_host(a, h, NULL));
    /* partial overlap: out = a[1:], inputs a[:-1] and b[:-1]: the inputs are read first */
    usmarr_array_t *head, *tail, *bh;
    ck_assert_ok(usmarr_array_index_text(a, ":-1", &head));
    ck_assert_ok(usmarr_array_index_text(a, "1:", &tail));
    ck_assert_ok(usmarr_array_index_text(b, ":-1", &bh));
    usmarr_array_t *res = NULL;
    ck_assert_ok(usmarr_add(head, bh, tail, &res));
    ck_assert_ptr_eq(res, tail);
    usmarr_array_release(res);
    ck_assert_ok(usmarr_array_copy_to_host(a, got, NULL));
    ck_assert(got[0] == h[0]);
    for (int i = 1; i < 17; i++)
        ck_assert_msg(got[i] == h[i - 1] + hb[i - 1], "[%d] %g", i, got[i]);
    ck_assert_ok(usmarr_array_copy_from_host(a, h, NULL));
    /* reversed onto itself: out = a[::-1], input a */
    usmarr_array_t *rev;
    ck_assert_ok(usmarr_array_index_text(a, "::-1", &rev));
    ck_assert_ok(usmarr_negative(a, rev, NULL));
    ck_assert_ok(usmarr_array_copy_to_host(a, got, NULL));
    for (int i = 0; i < 17; i++)
        ck_assert(got[i] == -h[16 - i]);
    /* a float64 out for a float32 result casts; an int32 out is not same_kind */
    usmarr_array_t *o64, *o32;
    ck_assert_ok(usmarr_array_zeros(ctx, 1, &n, USMARR_FLOAT64, USMARR_ORDER_C, USMARR_USM_DEVICE, &o64));
    ck_assert_ok(usmarr_multiply(b, b, o64, NULL));
    double g64[17];
    ck_assert_ok(usmarr_array_copy_to_host(o64, g64, NULL));
    for (int i = 0; i < 17; i++)
        ck_assert(g64[i] == (double)(hb[i] * hb[i]));
    ck_assert_ok(usmarr_array_zeros(ctx, 1, &n, USMARR_INT32, USMARR_ORDER_C, USMARR_USM_DEVICE, &o32));
    ck_assert_fails_with(usmarr_multiply(b, b, o32, NULL), USMARR_ERROR_CASTING, "same_kind");
    /* the one-program-per-function mode gives the same results */
    setenv("USMARR_ELEMENTWISE_SPECIALIZE", "1", 1);
    ck_assert_ok(usmarr_subtract(b, b, o64, NULL));
    ck_assert_ok(usmarr_less(b, a, o32, NULL));
    unsetenv("USMARR_ELEMENTWISE_SPECIALIZE");
    ck_assert_ok(usmarr_array_copy_to_host(o64, g64, NULL));
    int32_t g32[17];
    ck_assert_ok(usmarr_array_copy_to_host(o32, g32, NULL));
    for (int i = 0; i < 17; i++)
        ck_assert(g64[i] == 0 && g32[i] == (hb[i] < -h[16 - i]));
    usmarr_array_release(o64);
    usmarr_array_release(o32);
    usmarr_array_release(rev);
    usmarr_array_release(head);
    usmarr_array_release(tail);
    usmarr_array_release(bh);
    usmarr_array_release(a);
    usmarr_array_release(b);
    usmarr_context_release(ctx);
}
END_TEST

/* The host's value of the bool_words test's function f (its names[] order) of 0/1 values. */
static int bool_function(size_t f, int x, int y)
{
    return f == 0 || f == 3 ? x & y : f == 1 || f == 4 ? x | y : f <= 6 ? x ^ y : f == 7 ? x == y : !x;
}

/* Bool maps of contiguous operands run as words of up to 8 bytes: every length and
 * alignment (views starting 0-3 bytes in) against host loops, in place, and the layouts
 * that keep the byte map (a strided input, a transposed pair). */
START_TEST(test_elementwise_bool_words_match_host_loops)
{
    usmarr_context_t *ctx = test_context();
    static const char *const names[] = {"logical_and", "logical_or", "logical_xor", "bitwise_and",
                                        "bitwise_or",  "bitwise_xor", "not_equal",  "equal", "logical_not"};
    enum { N = 10011 };
    static uint8_t ha[N], hb[N], got[N];
    for (int i = 0; i < N; i++) {
        ha[i] = (uint8_t)((i * 7 + i / 3) % 5 < 2);
        hb[i] = (uint8_t)((i * 13 + i / 7) % 3 == 0);
    }
    int64_t n = N;
    usmarr_array_t *a = from_host(ctx, USMARR_BOOL, 1, &n, ha), *b = from_host(ctx, USMARR_BOOL, 1, &n, hb);
    static const int64_t lengths[] = {1, 3, 8, 13, 64, 4099, N - 3};
    for (size_t f = 0; f < sizeof names / sizeof names[0]; f++)
        for (size_t l = 0; l < sizeof lengths / sizeof lengths[0]; l++)
            for (int off = 0; off < 4; off++) {
                int64_t len = lengths[l];
                char ia[48], ib[48];
                snprintf(ia, sizeof ia, "%d:%lld", off, (long long)(off + len));
                snprintf(ib, sizeof ib, "%d:%lld", 3 - off, (long long)(3 - off + len));
                usmarr_array_t *va, *vb, *r = NULL;
                ck_assert_ok(usmarr_array_index_text(a, ia, &va));
                ck_assert_ok(usmarr_array_index_text(b, ib, &vb));
                usmarr_operand_t o[2] = {{.array = va}, {.array = vb}};
                bool unary = !strcmp(names[f], "logical_not");
                ck_assert_ok(usmarr_elementwise(names[f], o, unary ? 1 : 2, NULL, &r));
                ck_assert_int_eq(usmarr_array_dtype(r), USMARR_BOOL);
                ck_assert_ok(usmarr_array_copy_to_host(r, got, NULL));
                for (int64_t i = 0; i < len; i++) {
                    int x = ha[off + i], y = hb[3 - off + i];
                    int want = bool_function(f, x, y);
                    ck_assert_msg(got[i] == want, "%s len %lld off %d [%lld]: %d, want %d", names[f], (long long)len,
                                  off, (long long)i, got[i], want);
                }
                /* in place: out is the first input */
                ck_assert_ok(usmarr_elementwise(names[f], o, unary ? 1 : 2, va, NULL));
                ck_assert_ok(usmarr_array_copy_to_host(va, got, NULL));
                for (int64_t i = 0; i < len; i++) {
                    int x = ha[off + i], y = hb[3 - off + i];
                    ck_assert_msg(got[i] == bool_function(f, x, y), "%s in place len %lld off %d [%lld]", names[f],
                                  (long long)len, off, (long long)i);
                }
                ck_assert_ok(usmarr_array_copy_from_host(a, ha, NULL));
                usmarr_array_release(r);
                usmarr_array_release(va);
                usmarr_array_release(vb);
            }
    /* a strided input and a transposed pair keep the byte map */
    usmarr_array_t *s2, *head, *r;
    ck_assert_ok(usmarr_array_index_text(a, "::2", &s2));
    ck_assert_ok(usmarr_array_index_text(b, ":5006", &head));
    ck_assert_ok(usmarr_logical_xor(s2, head, NULL, &r));
    ck_assert_ok(usmarr_array_copy_to_host(r, got, NULL));
    for (int i = 0; i < 5006; i++)
        ck_assert_int_eq(got[i], ha[2 * i] ^ hb[i]);
    usmarr_array_release(r);
    int64_t s3[2] = {71, 141};
    usmarr_array_t *ma, *mb, *ta, *tb;
    ck_assert_ok(usmarr_array_from_host(ctx, 2, s3, USMARR_BOOL, ha, NULL, USMARR_USM_DEVICE, &ma));
    ck_assert_ok(usmarr_array_from_host(ctx, 2, s3, USMARR_BOOL, hb, NULL, USMARR_USM_DEVICE, &mb));
    ck_assert_ok(usmarr_array_transpose(ma, &ta));
    ck_assert_ok(usmarr_array_transpose(mb, &tb));
    ck_assert_ok(usmarr_bitwise_and(ta, tb, NULL, &r));
    ck_assert_ok(usmarr_array_copy_to_host(r, got, NULL));
    for (int i = 0; i < 141; i++)
        for (int j = 0; j < 71; j++)
            ck_assert_int_eq(got[i * 71 + j], ha[j * 141 + i] & hb[j * 141 + i]);
    usmarr_array_release(r);
    usmarr_array_release(ta);
    usmarr_array_release(tb);
    usmarr_array_release(ma);
    usmarr_array_release(mb);
    usmarr_array_release(s2);
    usmarr_array_release(head);
    usmarr_array_release(a);
    usmarr_array_release(b);
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_elementwise_every_function_rejects_bad_arguments)
{
    usmarr_context_t *ctx = test_context(), *ctx2 = test_context();
    int64_t n = 4, m = 5;
    usmarr_array_t *a, *b, *other, *r = NULL;
    ck_assert_ok(usmarr_array_zeros(ctx, 1, &n, USMARR_FLOAT32, USMARR_ORDER_C, USMARR_USM_DEVICE, &a));
    ck_assert_ok(usmarr_array_zeros(ctx, 1, &m, USMARR_FLOAT32, USMARR_ORDER_C, USMARR_USM_DEVICE, &b));
    ck_assert_ok(usmarr_array_zeros(ctx2, 1, &n, USMARR_FLOAT32, USMARR_ORDER_C, USMARR_USM_DEVICE, &other));
    usmarr_array_t *nul[3] = {NULL, NULL, NULL}, *ok[3] = {a, a, a};
    for (size_t i = 0; i < NWRAPPERS; i++) {
        const struct wrapper *w = &wrappers[i];
        ck_assert_int_eq(usmarr_elementwise_arity(w->name), w->arity);
        ck_assert_str_eq(usmarr_elementwise_name((int)i), w->name);
        ck_assert_fails_with(call(w, nul, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT, "NULL");
        ck_assert_fails_with(call(w, ok, NULL, NULL), USMARR_ERROR_INVALID_ARGUMENT, "result is NULL");
    }
    ck_assert_ptr_null(usmarr_elementwise_name((int)NWRAPPERS));
    ck_assert_int_eq(usmarr_elementwise_arity("nope"), -1);
    usmarr_operand_t o[2] = {{.array = a}, {.array = b}};
    ck_assert_fails_with(usmarr_elementwise("nope", o, 2, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT, "nope");
    ck_assert_fails_with(usmarr_elementwise(NULL, o, 2, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT, "name");
    ck_assert_fails_with(usmarr_elementwise("add", o, 1, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT, "noperands=1");
    ck_assert_fails_with(usmarr_elementwise("add", NULL, 2, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT, "operands");
    ck_assert_fails_with(usmarr_add(a, b, NULL, &r), USMARR_ERROR_SHAPE_MISMATCH, "shape");
    ck_assert_fails_with(usmarr_add(a, other, NULL, &r), USMARR_ERROR_CONTEXT_MISMATCH, "context");
    ck_assert_fails_with(usmarr_add(a, a, other, NULL), USMARR_ERROR_CONTEXT_MISMATCH, "context");
    ck_assert_fails_with(usmarr_add(a, a, b, NULL), USMARR_ERROR_SHAPE_MISMATCH, "out");
    ck_assert_fails_with(usmarr_bitwise_and(a, a, NULL, &r), USMARR_ERROR_BAD_DTYPE, "bitwise_and");
    usmarr_array_t *cplx;
    ck_assert_ok(usmarr_array_zeros(ctx, 1, &n, USMARR_COMPLEX64, USMARR_ORDER_C, USMARR_USM_DEVICE, &cplx));
    ck_assert_fails_with(usmarr_cbrt(cplx, NULL, &r), USMARR_ERROR_BAD_DTYPE, "cbrt is not defined for complex64");
    usmarr_array_release(cplx);
    usmarr_operand_t s2[2] = {{.scalar = usmarr_scalar_int(1)}, {.scalar = usmarr_scalar_int(2)}};
    ck_assert_fails_with(usmarr_elementwise("add", s2, 2, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT, "no operand is an array");
    usmarr_scalar_t bad = {.kind = (usmarr_kind_t)9, .dtype = -1};
    usmarr_operand_t s3[2] = {{.array = a}, {.scalar = bad}};
    ck_assert_fails_with(usmarr_elementwise("add", s3, 2, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT, "operands[1].kind=9");
    s3[1].scalar = (usmarr_scalar_t){.kind = USMARR_KIND_FLOAT, .dtype = USMARR_INT16, .value.f = 1};
    ck_assert_fails_with(usmarr_elementwise("add", s3, 2, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT,
                         "operands[1].kind=USMARR_KIND_FLOAT contradicts operands[1].dtype=int16");
    usmarr_array_t *bools;
    ck_assert_ok(usmarr_array_zeros(ctx, 1, &n, USMARR_BOOL, USMARR_ORDER_C, USMARR_USM_DEVICE, &bools));
    ck_assert_fails_with(usmarr_negative(bools, NULL, &r), USMARR_ERROR_BAD_DTYPE, "bool");
    usmarr_array_release(bools);
    usmarr_array_release(a);
    usmarr_array_release(b);
    usmarr_array_release(other);
    usmarr_context_release(ctx);
    usmarr_context_release(ctx2);
}
END_TEST

Suite *suite_elementwise(void);
Suite *suite_elementwise(void)
{
    Suite *s = suite_create("elementwise");
    /* one case per test so that CK_RUN_CASE can pick one */
    const struct test_case_entry tables[] = {
        {"unary", test_elementwise_unary_functions_match_numpy_on_every_dtype_and_layout},
        {"binary", test_elementwise_binary_functions_match_numpy_on_every_dtype_pair_and_layout},
    };
    test_add_tagged_cases(s, tables, sizeof tables / sizeof tables[0], TEST_TAG_VARIANTS);
    const struct test_case_entry tests[] = {
        {"ternary", test_elementwise_where_and_clip_match_numpy},
        {"scalars", test_elementwise_weak_scalars_keep_the_array_dtype},
        {"weak_range", test_elementwise_weak_integers_out_of_range_follow_numpy2},
        {"layouts", test_elementwise_broadcasting_0d_and_zero_size},
        {"out", test_elementwise_out_in_place_overlap_and_casts},
        {"bool_words", test_elementwise_bool_words_match_host_loops},
        {"failures", test_elementwise_every_function_rejects_bad_arguments},
    };
    test_add_cases(s, tests, sizeof tests / sizeof tests[0]);
    return s;
}
