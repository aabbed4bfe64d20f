/* Reader of tests/expr_cases.txt: operands in their layouts, results against NumPy. */
#include "expr_cases.h"
#include "../harness/common.h"
#include "ops_cases.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define MAX_FIELDS 1024

struct case_entry *expr_cases_load(int *count)
{
    const char *path = getenv("USMARR_EXPR_CASES");
    if (!path || !*path)
        path = "tests/expr_cases.txt";
    struct case_entry *cases = case_file_load_from(path, "case", 256, count);
    ck_assert_msg(*count > 0,
                  "no cases in %s (make check generates it with $PYTHON_NUMPY tests/gen/gen_expr_cases.py; set "
                  "USMARR_EXPR_CASES to run from elsewhere)",
                  path);
    return cases;
}

void expr_cases_free(struct case_entry *cases, int count)
{
    for (int i = 0; i < count; i++)
        for (int k = 0; k < cases[i].nlines; k++)
            free(cases[i].lines[k]);
    free(cases);
}

const char *expr_case_line(const struct case_entry *c, const char *key)
{
    size_t n = strlen(key);
    for (int k = 0; k < c->nlines; k++)
        if (!strncmp(c->lines[k], key, n) && c->lines[k][n] == ' ')
            return c->lines[k] + n + 1;
    return NULL;
}

static usmarr_dtype_t dtype_field(const char *name)
{
    int d = ops_cases_dtype(name);
    ck_assert_msg(d >= 0, "unknown dtype %s in the case file", name);
    return (usmarr_dtype_t)d;
}

/* An array of `dtype` and `shape` holding `values` (C order), laid out as `layout`. */
static usmarr_array_t *build_array(usmarr_context_t *ctx, usmarr_dtype_t dtype, int ndim, const int64_t *shape,
                                   char layout, char **values)
{
    size_t isz = usmarr_dtype_size(dtype);
    int64_t n = 1;
    for (int d = 0; d < ndim; d++)
        n *= shape[d];
    unsigned char *host = calloc((size_t)(n ? n : 1) * 2, isz);
    ck_assert_ptr_nonnull(host);
    usmarr_array_t *a = NULL, *base = NULL;
    if (layout == 'r') { /* flipping every axis of C-ordered data reverses it */
        for (int64_t i = 0; i < n; i++)
            ops_cases_parse_value(values[i], dtype, host + (size_t)(n - 1 - i) * isz);
        ck_assert_ok(usmarr_array_from_host(ctx, ndim, shape, dtype, host, NULL, USMARR_USM_DEVICE, &base));
        ck_assert_ok(usmarr_array_flip(base, 0, NULL, &a));
    } else if (layout == 's' && ndim > 0) { /* every other element of a doubled last axis */
        int64_t wide[USMARR_MAX_NDIM];
        memcpy(wide, shape, sizeof(int64_t) * (size_t)ndim);
        wide[ndim - 1] *= 2;
        for (int64_t i = 0; i < n; i++)
            ops_cases_parse_value(values[i], dtype, host + (size_t)(2 * i) * isz);
        ck_assert_ok(usmarr_array_from_host(ctx, ndim, wide, dtype, host, NULL, USMARR_USM_DEVICE, &base));
        ck_assert_ok(usmarr_array_index_text(base, "..., ::2", &a));
    } else {
        for (int64_t i = 0; i < n; i++)
            ops_cases_parse_value(values[i], dtype, host + (size_t)i * isz);
        ck_assert_ok(usmarr_array_from_host(ctx, ndim, shape, dtype, host, NULL, USMARR_USM_DEVICE, &base));
        if (layout == 'f') {
            ck_assert_ok(usmarr_array_empty(ctx, ndim, shape, dtype, USMARR_ORDER_F, USMARR_USM_DEVICE, &a));
            ck_assert_ok(usmarr_array_copy_into(a, base));
        } else {
            a = usmarr_array_retain(base);
        }
    }
    usmarr_array_release(base);
    free(host);
    return a;
}

static usmarr_scalar_t scalar_field(const char *kind, const char *text)
{
    if (!strcmp(kind, "bool"))
        return usmarr_scalar_bool(atoi(text) != 0);
    if (!strcmp(kind, "int"))
        return usmarr_scalar_int(strtoll(text, NULL, 10));
    if (!strcmp(kind, "uint"))
        return usmarr_scalar_uint(strtoull(text, NULL, 10));
    if (!strcmp(kind, "float"))
        return usmarr_scalar_float(strtod(text, NULL));
    char *end;
    double re = strtod(text, &end);
    return usmarr_scalar_complex(re, strtod(end + 1, NULL));
}

/* A typed scalar: the value parsed into the dtype's bytes, then read back. */
static usmarr_scalar_t typed_field(usmarr_dtype_t d, const char *text)
{
    unsigned char b[16];
    double re, im;
    ops_cases_parse_value(text, d, b);
    ops_cases_load(d, b, &re, &im);
    usmarr_scalar_t s;
    switch (usmarr_dtype_kind(d)) {
    case USMARR_KIND_BOOL: s = usmarr_scalar_bool(re != 0); break;
    case USMARR_KIND_INT: s = usmarr_scalar_int(strtoll(text, NULL, 10)); break;
    case USMARR_KIND_UINT: s = usmarr_scalar_uint(strtoull(text, NULL, 10)); break;
    case USMARR_KIND_FLOAT: s = usmarr_scalar_float(re); break;
    default: s = usmarr_scalar_complex(re, im); break;
    }
    s.dtype = (int)d;
    return s;
}

void expr_operands_build(usmarr_context_t *ctx, const struct case_entry *c, struct expr_operands *o)
{
    memset(o, 0, sizeof *o);
    for (int k = 0; k < c->nlines; k++) {
        if (strncmp(c->lines[k], "op ", 3))
            continue;
        ck_assert_int_lt(o->n, EXPR_MAX_OPERANDS);
        char *line = strdup(c->lines[k] + 3), **f = calloc(MAX_FIELDS, sizeof *f);
        ck_assert(line && f);
        int nf = ops_cases_split(line, f, MAX_FIELDS);
        ck_assert_int_ge(nf, 3);
        int i = o->n++;
        o->fields[i] = line;
        o->names[i] = f[0];
        if (!strcmp(f[1], "array")) {
            usmarr_dtype_t d = dtype_field(f[2]);
            int ndim = atoi(f[3]);
            int64_t shape[USMARR_MAX_NDIM];
            for (int dd = 0; dd < ndim; dd++)
                shape[dd] = strtoll(f[4 + dd], NULL, 10);
            o->arrays[i] = build_array(ctx, d, ndim, shape, f[4 + ndim][0], f + 5 + ndim);
            o->ops[i].array = o->arrays[i];
        } else if (!strcmp(f[1], "weak")) {
            o->ops[i].scalar = scalar_field(f[2], f[3]);
        } else {
            o->ops[i].scalar = typed_field(dtype_field(f[2]), f[3]);
        }
        free(f);
    }
}

void expr_operands_release(struct expr_operands *o)
{
    for (int i = 0; i < o->n; i++) {
        usmarr_array_release(o->arrays[i]);
        free(o->fields[i]);
    }
    memset(o, 0, sizeof *o);
}

int expr_want_error(const struct case_entry *c)
{
    const char *w = expr_case_line(c, "want");
    ck_assert_ptr_nonnull(w);
    if (strncmp(w, "error ", 6))
        return 0;
    for (int code = -20001; code >= -20030; code--)
        if (!strcmp(usmarr_error_name(code), w + 6))
            return code;
    ck_abort_msg("unknown error %s", w + 6);
    return 0;
}

void expr_want_shape(const struct case_entry *c, usmarr_dtype_t *dtype, int *ndim, int64_t *shape)
{
    char *line = strdup(expr_case_line(c, "want")), *f[4 + USMARR_MAX_NDIM];
    int nf = ops_cases_split(line, f, 2 + USMARR_MAX_NDIM);
    ck_assert_int_ge(nf, 2);
    *dtype = dtype_field(f[0]);
    *ndim = atoi(f[1]);
    for (int d = 0; d < *ndim; d++)
        shape[d] = strtoll(f[2 + d], NULL, 10);
    free(line);
}

void expr_check_result(const struct case_entry *c, const usmarr_array_t *result)
{
    const char *text = expr_case_line(c, "text");
    char *line = strdup(expr_case_line(c, "want")), **f = calloc(MAX_FIELDS * 4, sizeof *f);
    const char *tol_line = expr_case_line(c, "tol");
    char *tline = tol_line ? strdup(tol_line) : NULL, **t = calloc(MAX_FIELDS * 4, sizeof *t);
    ck_assert(line && f && t);
    int nf = ops_cases_split(line, f, MAX_FIELDS * 4);
    int nt = tline ? ops_cases_split(tline, t, MAX_FIELDS * 4) : 0;
    usmarr_dtype_t d = dtype_field(f[0]);
    int ndim = atoi(f[1]);
    ck_assert_msg(usmarr_array_dtype(result) == d, "case %s \"%s\": dtype %s, NumPy gives %s", c->name, text,
                  usmarr_dtype_name(usmarr_array_dtype(result)), f[0]);
    ck_assert_msg(usmarr_array_ndim(result) == ndim, "case %s \"%s\": %d dims, NumPy gives %d", c->name, text,
                  usmarr_array_ndim(result), ndim);
    int64_t n = 1;
    for (int k = 0; k < ndim; k++) {
        ck_assert_int_eq(usmarr_array_shape(result)[k], strtoll(f[2 + k], NULL, 10));
        n *= usmarr_array_shape(result)[k];
    }
    ck_assert_int_eq(nf, 2 + ndim + n);
    ck_assert(nt == 0 || nt == n);
    size_t isz = usmarr_dtype_size(d);
    unsigned char *got = calloc((size_t)(n ? n : 1), isz), want[16];
    ck_assert_ok(usmarr_array_copy_to_host(result, got, NULL));
    for (int64_t i = 0; i < n; i++) {
        double tol = nt ? strtod(t[i], NULL) : 0;
        if (tol < 0)
            continue;
        ops_cases_parse_value(f[2 + ndim + i], d, want);
        double gr, gi, wr, wi;
        ops_cases_load(d, got + (size_t)i * isz, &gr, &gi);
        ops_cases_load(d, want, &wr, &wi);
        bool ok;
        if (isnan(wr) || isnan(wi))
            ok = isnan(gr) || isnan(gi);
        else if (isinf(wr) || isinf(wi))
            ok = gr == wr && gi == wi;
        else
            ok = hypot(gr - wr, gi - wi) <= tol;
        ck_assert_msg(ok, "case %s \"%s\" (%s): element %lld is %.17g%+.17gj, NumPy gives %s (tolerance %g)", c->name,
                      text, f[0], (long long)i, gr, gi, f[2 + ndim + i], tol);
    }
    free(got);
    free(line);
    free(f);
    free(tline);
    free(t);
}
