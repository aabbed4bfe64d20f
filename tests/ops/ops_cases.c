/* Reader for the NumPy oracle file. */
#include "ops_cases.h"
#include "../harness/common.h"

#include <stdio.h>
#include <math.h>
#include <stdlib.h>

FILE *ops_cases_open(void)
{
    const char *path = getenv("USMARR_OPS_CASES");
    if (!path || !*path)
        path = "tests/ops_cases.txt";
    FILE *f = fopen(path, "r");
    ck_assert_msg(f != NULL, "cannot open the NumPy oracle %s (make check generates it with $PYTHON_NUMPY "
                             "tests/gen/gen_ops_cases.py; set USMARR_OPS_CASES to run from elsewhere)", path);
    return f;
}

int ops_cases_split(char *line, char **fields, int max)
{
    int n = 0;
    char *save = NULL;
    for (char *tok = strtok_r(line, " \n", &save); tok && n < max; tok = strtok_r(NULL, " \n", &save))
        fields[n++] = tok;
    return n;
}

int ops_cases_dtype(const char *name)
{
    static const char *const names[USMARR_DTYPE_COUNT] = {
        "bool",   "int8",    "int16",   "int32",   "int64",   "uint8",     "uint16",
        "uint32", "uint64",  "float16", "float32", "float64", "complex64", "complex128",
    };
    for (int i = 0; i < USMARR_DTYPE_COUNT; i++)
        if (!strcmp(names[i], name))
            return i;
    return -1;
}

/* Accuracy bounds, in units in the last place of the result dtype (doc/ops.md).
 * float16 results are computed in float and rounded once: within 1 ulp of float16. */
double ops_cases_ulps(const char *op, usmarr_dtype_t rd)
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

double ops_cases_half_to_double(uint16_t h)
{
    int s = h >> 15, e = (h >> 10) & 31, m = h & 1023;
    double v;
    if (e == 0)
        v = ldexp(m, -24);
    else if (e == 31)
        v = m ? NAN : INFINITY;
    else
        v = ldexp(m + 1024, e - 25);
    return s ? -v : v;
}

uint16_t ops_cases_half_from_double(double x)
{
    uint16_t sign = signbit(x) ? 0x8000 : 0;
    double a = fabs(x);
    if (isnan(x))
        return 0x7e00;
    if (a >= 65520.0)
        return sign | 0x7c00;
    if (a < ldexp(1, -25))
        return a > ldexp(1, -25) ? (sign | 1) : sign; /* exactly half the smallest rounds to even 0 */
    int e;
    frexp(a, &e); /* a = f * 2^e, f in [0.5, 1) */
    int exp = e - 1;  /* a in [2^exp, 2^(exp+1)) */
    if (exp < -14)
        exp = -14; /* subnormal: fixed quantum 2^-24 */
    double q = ldexp(1, exp - 10);
    double m = nearbyint(a / q); /* round half to even in the default mode */
    if (m >= 2048) {
        m /= 2;
        exp++;
    }
    if (exp > 15)
        return sign | 0x7c00;
    if (m < 1024)
        return sign | (uint16_t)m;
    return sign | (uint16_t)(((exp + 15) << 10) | ((int)m - 1024));
}

/* Elements are copied with memcpy: test buffers are byte arrays without alignment. */
#define PUT_(T, v)                                                                                 \
    do {                                                                                           \
        T t_ = (T)(v);                                                                             \
        memcpy(dst, &t_, sizeof t_);                                                               \
    } while (0)

void ops_cases_parse_value(const char *text, usmarr_dtype_t dtype, void *dst)
{
    char *end;
    switch (dtype) {
    case USMARR_BOOL: PUT_(uint8_t, atoi(text) != 0); break;
    case USMARR_INT8: PUT_(int8_t, strtoll(text, NULL, 10)); break;
    case USMARR_INT16: PUT_(int16_t, strtoll(text, NULL, 10)); break;
    case USMARR_INT32: PUT_(int32_t, strtoll(text, NULL, 10)); break;
    case USMARR_INT64: PUT_(int64_t, strtoll(text, NULL, 10)); break;
    case USMARR_UINT8: PUT_(uint8_t, strtoull(text, NULL, 10)); break;
    case USMARR_UINT16: PUT_(uint16_t, strtoull(text, NULL, 10)); break;
    case USMARR_UINT32: PUT_(uint32_t, strtoull(text, NULL, 10)); break;
    case USMARR_UINT64: PUT_(uint64_t, strtoull(text, NULL, 10)); break;
    case USMARR_FLOAT16: PUT_(uint16_t, ops_cases_half_from_double(strtod(text, NULL))); break;
    case USMARR_FLOAT32: PUT_(float, strtod(text, NULL)); break;
    case USMARR_FLOAT64: PUT_(double, strtod(text, NULL)); break;
    case USMARR_COMPLEX64: {
        float c[2] = {(float)strtod(text, &end), 0};
        c[1] = (float)strtod(end + 1, NULL);
        memcpy(dst, c, sizeof c);
        break;
    }
    default: {
        double c[2] = {strtod(text, &end), 0};
        c[1] = strtod(end + 1, NULL);
        memcpy(dst, c, sizeof c);
        break;
    }
    }
}

#define GET_(T)                                                                                    \
    do {                                                                                           \
        T t_;                                                                                      \
        memcpy(&t_, src, sizeof t_);                                                               \
        *re = (double)t_;                                                                          \
    } while (0)

void ops_cases_load(usmarr_dtype_t dtype, const void *src, double *re, double *im)
{
    *im = 0;
    switch (dtype) {
    case USMARR_BOOL: GET_(uint8_t); break;
    case USMARR_INT8: GET_(int8_t); break;
    case USMARR_INT16: GET_(int16_t); break;
    case USMARR_INT32: GET_(int32_t); break;
    case USMARR_INT64: GET_(int64_t); break;
    case USMARR_UINT8: GET_(uint8_t); break;
    case USMARR_UINT16: GET_(uint16_t); break;
    case USMARR_UINT32: GET_(uint32_t); break;
    case USMARR_UINT64: GET_(uint64_t); break;
    case USMARR_FLOAT16: {
        uint16_t h;
        memcpy(&h, src, sizeof h);
        *re = ops_cases_half_to_double(h);
        break;
    }
    case USMARR_FLOAT32: GET_(float); break;
    case USMARR_FLOAT64: GET_(double); break;
    case USMARR_COMPLEX64: {
        float c[2];
        memcpy(c, src, sizeof c);
        *re = c[0];
        *im = c[1];
        break;
    }
    default: {
        double c[2];
        memcpy(c, src, sizeof c);
        *re = c[0];
        *im = c[1];
        break;
    }
    }
}

static double ulp_of(usmarr_dtype_t dtype, double v)
{
    int mant = dtype == USMARR_FLOAT16 ? 10 : (dtype == USMARR_FLOAT32 || dtype == USMARR_COMPLEX64) ? 23 : 52;
    int emin = dtype == USMARR_FLOAT16 ? -14 : (dtype == USMARR_FLOAT32 || dtype == USMARR_COMPLEX64) ? -126 : -1022;
    int e;
    frexp(fabs(v), &e);
    e -= 1;
    if (e < emin || v == 0)
        e = emin;
    return ldexp(1, e - mant);
}

static bool real_close(usmarr_dtype_t dtype, double g, double w, double ulps)
{
    if (isnan(w) || isnan(g))
        return isnan(w) && isnan(g);
    if (isinf(w) || isinf(g))
        return g == w;
    return fabs(g - w) <= ulps * ulp_of(dtype, w);
}

bool ops_cases_close(usmarr_dtype_t dtype, const void *got, const void *want, double ulps)
{
    double gr, gi, wr, wi;
    ops_cases_load(dtype, got, &gr, &gi);
    ops_cases_load(dtype, want, &wr, &wi);
    switch (usmarr_dtype_kind(dtype)) {
    case USMARR_KIND_BOOL:
    case USMARR_KIND_INT:
    case USMARR_KIND_UINT:
        return memcmp(got, want, usmarr_dtype_size(dtype)) == 0;
    case USMARR_KIND_FLOAT:
        return real_close(dtype, gr, wr, ulps);
    default: {
        if (isnan(wr) || isnan(wi) || isnan(gr) || isnan(gi))
            return (isnan(wr) || isnan(wi)) == (isnan(gr) || isnan(gi));
        if (isinf(wr) || isinf(wi) || isinf(gr) || isinf(gi))
            return real_close(dtype, gr, wr, ulps) && real_close(dtype, gi, wi, ulps);
        /* complex: the error relative to the magnitude */
        double mag = hypot(wr, wi);
        double err = hypot(gr - wr, gi - wi);
        return err <= ulps * ulp_of(dtype, mag) * 2;
    }
    }
}

/* The NaN test of one float part of `size` bytes (2, 4 or 8). */
static bool part_is_nan(const unsigned char *p, size_t size)
{
    if (size == 2) {
        uint16_t h;
        memcpy(&h, p, 2);
        return (h & 0x7c00) == 0x7c00 && (h & 0x03ff);
    }
    if (size == 4) {
        float f;
        memcpy(&f, p, 4);
        return isnan(f);
    }
    double d;
    memcpy(&d, p, 8);
    return isnan(d);
}

void ops_cases_mark_nans(usmarr_dtype_t dtype, void *data, size_t n)
{
    size_t size = usmarr_dtype_size(dtype);
    usmarr_kind_t kind = usmarr_dtype_kind(dtype);
    if (kind != USMARR_KIND_FLOAT && kind != USMARR_KIND_COMPLEX)
        return;
    size_t part = kind == USMARR_KIND_COMPLEX ? size / 2 : size;
    for (size_t i = 0; i < n * size; i += part) {
        unsigned char *p = (unsigned char *)data + i;
        if (!part_is_nan(p, part))
            continue;
        if (part == 2) {
            uint16_t h = 0x7e01;
            memcpy(p, &h, 2);
        } else if (part == 4) {
            uint32_t u = 0x7fc00123u;
            memcpy(p, &u, 4);
        } else {
            uint64_t u = 0x7ff8000000000123ull;
            memcpy(p, &u, 8);
        }
    }
}
