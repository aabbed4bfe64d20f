/* The dtype table, array-interface typestrs and scalar constructors. */
#include "core_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

struct dtype_entry {
    const char *name;
    const char *typestr; /* native (little-endian) array-interface form */
    char kind_char;
    usmarr_kind_t kind;
    size_t size;
    size_t alignment;
};

/* Alignment equals the size for every type, complex included: kernels load complex64 as
 * float2 and complex128 as double2, whose OpenCL alignment is their size. */
static const struct dtype_entry table[USMARR_DTYPE_COUNT] = {
    [USMARR_BOOL] = {"bool", "|b1", 'b', USMARR_KIND_BOOL, 1, 1},
    [USMARR_INT8] = {"int8", "|i1", 'i', USMARR_KIND_INT, 1, 1},
    [USMARR_INT16] = {"int16", "<i2", 'i', USMARR_KIND_INT, 2, 2},
    [USMARR_INT32] = {"int32", "<i4", 'i', USMARR_KIND_INT, 4, 4},
    [USMARR_INT64] = {"int64", "<i8", 'i', USMARR_KIND_INT, 8, 8},
    [USMARR_UINT8] = {"uint8", "|u1", 'u', USMARR_KIND_UINT, 1, 1},
    [USMARR_UINT16] = {"uint16", "<u2", 'u', USMARR_KIND_UINT, 2, 2},
    [USMARR_UINT32] = {"uint32", "<u4", 'u', USMARR_KIND_UINT, 4, 4},
    [USMARR_UINT64] = {"uint64", "<u8", 'u', USMARR_KIND_UINT, 8, 8},
    [USMARR_FLOAT16] = {"float16", "<f2", 'f', USMARR_KIND_FLOAT, 2, 2},
    [USMARR_FLOAT32] = {"float32", "<f4", 'f', USMARR_KIND_FLOAT, 4, 4},
    [USMARR_FLOAT64] = {"float64", "<f8", 'f', USMARR_KIND_FLOAT, 8, 8},
    [USMARR_COMPLEX64] = {"complex64", "<c8", 'c', USMARR_KIND_COMPLEX, 8, 8},
    [USMARR_COMPLEX128] = {"complex128", "<c16", 'c', USMARR_KIND_COMPLEX, 16, 16},
};

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "libusmarr's typestr table assumes a little-endian host"
#endif

static bool valid(usmarr_dtype_t dtype) { return (unsigned)dtype < USMARR_DTYPE_COUNT; }

size_t usmarr_dtype_size(usmarr_dtype_t dtype) { return valid(dtype) ? table[dtype].size : 0; }
size_t usmarr_dtype_alignment(usmarr_dtype_t dtype) { return valid(dtype) ? table[dtype].alignment : 0; }
usmarr_kind_t usmarr_dtype_kind(usmarr_dtype_t dtype) { return valid(dtype) ? table[dtype].kind : USMARR_KIND_BOOL; }
const char *usmarr_dtype_name(usmarr_dtype_t dtype) { return valid(dtype) ? table[dtype].name : "invalid"; }
const char *usmarr_dtype_typestr(usmarr_dtype_t dtype) { return valid(dtype) ? table[dtype].typestr : NULL; }

bool usmarr__dtype_valid(usmarr_dtype_t dtype) { return valid(dtype); }

int usmarr__dtype_named(const char *s, size_t len)
{
    for (int d = 0; d < USMARR_DTYPE_COUNT; d++)
        if (strlen(table[d].name) == len && !strncmp(table[d].name, s, len))
            return d;
    return -1;
}

static const char *kind_description(char c)
{
    switch (c) {
    case 'O':
        return "Python object";
    case 'S':
    case 'a':
        return "byte string";
    case 'U':
        return "unicode string";
    case 'V':
        return "void (raw bytes or record)";
    case 'M':
        return "datetime";
    case 'm':
        return "timedelta";
    default:
        return NULL;
    }
}

int usmarr_dtype_from_typestr(const char *typestr, usmarr_dtype_t *dtype)
{
    usmarr__clear_error();
    if (!typestr || !dtype)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s is NULL", !typestr ? "typestr" : "dtype");
    const char *p = typestr;
    char order = 0;
    if (*p == '<' || *p == '>' || *p == '|' || *p == '=')
        order = *p++;
    char kind = *p;
    if (kind == '\0')
        return usmarr__fail(USMARR_ERROR_BAD_DTYPE, "typestr=\"%.32s\" has no kind character", typestr);
    p++;
    const char *what = kind_description(kind);
    if (what)
        return usmarr__fail(USMARR_ERROR_BAD_DTYPE, "typestr=\"%.32s\": kind '%c' (%s) is not numeric or bool",
                            typestr, kind, what);
    if (!strchr("biufc", kind))
        return usmarr__fail(USMARR_ERROR_BAD_DTYPE,
                            "typestr=\"%.32s\": unknown kind '%c' (expected one of b i u f c)", typestr, kind);
    if (*p < '0' || *p > '9')
        return usmarr__fail(USMARR_ERROR_BAD_DTYPE, "typestr=\"%.32s\": expected the item size in bytes after '%c'",
                            typestr, kind);
    unsigned long size = 0;
    int digits = 0;
    while (*p >= '0' && *p <= '9') {
        if (++digits > 4)
            return usmarr__fail(USMARR_ERROR_BAD_DTYPE, "typestr=\"%.32s\": item size has too many digits", typestr);
        size = size * 10 + (unsigned long)(*p++ - '0');
    }
    if (*p != '\0')
        return usmarr__fail(USMARR_ERROR_BAD_DTYPE, "typestr=\"%.32s\": unexpected trailing text \"%.16s\"", typestr,
                            p);
    usmarr_dtype_t found = USMARR_DTYPE_COUNT;
    for (int t = 0; t < USMARR_DTYPE_COUNT; t++)
        if (table[t].kind_char == kind && table[t].size == size)
            found = (usmarr_dtype_t)t;
    if (found == USMARR_DTYPE_COUNT) {
        const char *sizes = kind == 'b' ? "1" : kind == 'i' || kind == 'u' ? "1, 2, 4, 8" : kind == 'f' ? "2, 4, 8" : "8, 16";
        return usmarr__fail(USMARR_ERROR_BAD_DTYPE,
                            "typestr=\"%.32s\": size %lu is not supported for kind '%c' (supported: %s)", typestr,
                            size, kind, sizes);
    }
    /* Byte order: '<' and '=' are native here; '|' ("not applicable") and '>' only make
     * sense for 1-byte types. */
    if (size > 1 && order == '>')
        return usmarr__fail(USMARR_ERROR_BAD_DTYPE,
                            "typestr=\"%.32s\": big-endian byte order '>' is not the native (little-endian) order",
                            typestr);
    if (size > 1 && order == '|')
        return usmarr__fail(USMARR_ERROR_BAD_DTYPE,
                            "typestr=\"%.32s\": byte order '|' (not applicable) is only valid for 1-byte types; use "
                            "'<' or '='",
                            typestr);
    *dtype = found;
    return 0;
}

/* Weak scalars (dtype -1): the value in the member of its kind. */
usmarr_scalar_t usmarr_scalar_bool(bool v)
{
    return (usmarr_scalar_t){.kind = USMARR_KIND_BOOL, .dtype = -1, .value.b = v};
}
usmarr_scalar_t usmarr_scalar_int(int64_t v)
{
    return (usmarr_scalar_t){.kind = USMARR_KIND_INT, .dtype = -1, .value.i = v};
}
usmarr_scalar_t usmarr_scalar_uint(uint64_t v)
{
    return (usmarr_scalar_t){.kind = USMARR_KIND_UINT, .dtype = -1, .value.u = v};
}
usmarr_scalar_t usmarr_scalar_float(double v)
{
    return (usmarr_scalar_t){.kind = USMARR_KIND_FLOAT, .dtype = -1, .value.f = v};
}
usmarr_scalar_t usmarr_scalar_complex(double re, double im)
{
    return (usmarr_scalar_t){.kind = USMARR_KIND_COMPLEX, .dtype = -1, .value.c = {re, im}};
}

/* ---- conversions ------------------------------------------------------------------ */

uint16_t usmarr__half_from_double(double x)
{
    uint16_t sign = signbit(x) ? 0x8000u : 0u;
    double a = fabs(x);
    if (isnan(x))
        return (uint16_t)(sign | 0x7e00u);
    if (a >= 65520.0) /* halfway between 65504 and 65536 rounds to even: infinity */
        return (uint16_t)(sign | 0x7c00u);
    if (a < 0x1p-14) /* subnormal: units of 2^-24, round to nearest even; exact scaling */
        return (uint16_t)(sign | (uint16_t)nearbyint(a * 0x1p24));
    int e;
    double f = frexp(a, &e); /* a = f * 2^e, f in [0.5, 1) */
    int exp = e - 1;
    double m = nearbyint((f * 2.0 - 1.0) * 1024.0);
    if (m >= 1024.0) {
        m = 0;
        exp++;
    }
    return (uint16_t)(sign | (uint16_t)((exp + 15) << 10) | (uint16_t)m);
}

double usmarr__half_to_double(uint16_t h)
{
    int exp = (h >> 10) & 0x1f;
    double m = h & 0x3ff, v;
    if (exp == 0)
        v = ldexp(m, -24);
    else if (exp == 31)
        v = m ? NAN : INFINITY;
    else
        v = ldexp(1024.0 + m, exp - 25);
    return (h & 0x8000) ? -v : v;
}

/* The scalar's value as an error detail shows it (formatted only when a store fails: a
 * tiny operation stores a scalar argument on every call). */
static const char *scalar_text(const usmarr_scalar_t *s, char *text, size_t size)
{
    if (s->kind == USMARR_KIND_INT)
        snprintf(text, size, "%lld", (long long)s->value.i);
    else if (s->kind == USMARR_KIND_UINT)
        snprintf(text, size, "%llu", (unsigned long long)s->value.u);
    else if (s->kind == USMARR_KIND_BOOL)
        snprintf(text, size, "%s", s->value.b ? "True" : "False");
    else
        snprintf(text, size, "%.17g", s->kind == USMARR_KIND_FLOAT ? s->value.f : s->value.c[0]);
    return text;
}

static int store_integer(usmarr_dtype_t dtype, bool negative, uint64_t magnitude_or_bits, bool weak, void *out,
                         const char *argname, const usmarr_scalar_t *scalar)
{
    char text[80];
    /* The value as a two's complement bit pattern; weak (Python-literal) integers must fit
     * the target like NumPy 2 demands; typed ones wrap like a C cast / NumPy astype. */
    uint64_t bits = negative ? (uint64_t)0 - magnitude_or_bits : magnitude_or_bits;
    size_t size = usmarr_dtype_size(dtype);
    bool is_signed = usmarr_dtype_kind(dtype) == USMARR_KIND_INT;
    if (weak) {
        bool fits;
        unsigned bitsz = (unsigned)size * 8;
        if (is_signed) {
            uint64_t limit = (uint64_t)1 << (bitsz - 1); /* |min| */
            fits = negative ? magnitude_or_bits <= limit : magnitude_or_bits < limit;
        } else {
            fits = !negative || magnitude_or_bits == 0;
            if (fits && bitsz < 64)
                fits = magnitude_or_bits < ((uint64_t)1 << bitsz);
        }
        if (!fits)
            return usmarr__fail(USMARR_ERROR_OVERFLOW, "%s=%s is out of bounds for %s", argname,
                                scalar_text(scalar, text, sizeof text), usmarr_dtype_name(dtype));
    }
    switch (size) {
    case 1: {
        uint8_t v = (uint8_t)bits;
        memcpy(out, &v, 1);
        break;
    }
    case 2: {
        uint16_t v = (uint16_t)bits;
        memcpy(out, &v, 2);
        break;
    }
    case 4: {
        uint32_t v = (uint32_t)bits;
        memcpy(out, &v, 4);
        break;
    }
    default:
        memcpy(out, &bits, 8);
        break;
    }
    return 0;
}

static void store_float(usmarr_dtype_t dtype, double re, double im, void *out)
{
    switch (dtype) {
    case USMARR_FLOAT16: {
        uint16_t h = usmarr__half_from_double(re);
        memcpy(out, &h, 2);
        break;
    }
    case USMARR_FLOAT32: {
        float f = (float)re;
        memcpy(out, &f, 4);
        break;
    }
    case USMARR_FLOAT64:
        memcpy(out, &re, 8);
        break;
    case USMARR_COMPLEX64: {
        float c[2] = {(float)re, (float)im};
        memcpy(out, c, 8);
        break;
    }
    default: {
        double c[2] = {re, im};
        memcpy(out, c, 16);
        break;
    }
    }
}

int usmarr__scalar_store(usmarr_scalar_t s, usmarr_dtype_t dtype, void *out, const char *argname)
{
    if (!valid(dtype))
        return usmarr__fail(USMARR_ERROR_BAD_DTYPE, "dtype=%d is not a usmarr_dtype_t", (int)dtype);
    int rc = usmarr__scalar_check(&s, argname);
    if (rc)
        return rc;
    bool weak = s.dtype < 0;
    usmarr_kind_t to = table[dtype].kind;
    char text[80];
    /* a Python complex into a real number: NumPy 2's fill raises TypeError (int() or
     * float() of a complex); bool takes its truth, and typed complex scalars cast as arrays do */
    if (weak && s.kind == USMARR_KIND_COMPLEX && to != USMARR_KIND_COMPLEX && to != USMARR_KIND_BOOL)
        return usmarr__fail(USMARR_ERROR_CASTING, "%s=(%.17g%+.17gj) is complex and cannot be converted to %s", argname,
                            s.value.c[0], s.value.c[1], usmarr_dtype_name(dtype));
    if (to == USMARR_KIND_BOOL) {
        bool b;
        switch (s.kind) {
        case USMARR_KIND_BOOL:
            b = s.value.b;
            break;
        case USMARR_KIND_INT:
            b = s.value.i != 0;
            break;
        case USMARR_KIND_UINT:
            b = s.value.u != 0;
            break;
        case USMARR_KIND_FLOAT:
            b = s.value.f != 0; /* NaN is true, as in NumPy */
            break;
        default:
            b = s.value.c[0] != 0 || s.value.c[1] != 0;
            break;
        }
        uint8_t v = b;
        memcpy(out, &v, 1);
        return 0;
    }
    if (to == USMARR_KIND_INT || to == USMARR_KIND_UINT) {
        switch (s.kind) {
        case USMARR_KIND_BOOL:
            return store_integer(dtype, false, s.value.b, false, out, argname, &s);
        case USMARR_KIND_INT:
            return store_integer(dtype, s.value.i < 0, s.value.i < 0 ? (uint64_t)0 - (uint64_t)s.value.i : (uint64_t)s.value.i,
                                 weak, out, argname, &s);
        case USMARR_KIND_UINT:
            return store_integer(dtype, false, s.value.u, weak, out, argname, &s);
        default: {
            /* Floats truncate toward zero like NumPy's cast; values C cannot convert
             * (NaN, infinities, out of range) are an error instead of NumPy's garbage. */
            double f = s.kind == USMARR_KIND_FLOAT ? s.value.f : s.value.c[0];
            if (!isfinite(f))
                return usmarr__fail(USMARR_ERROR_CASTING, "%s=%s cannot be converted to %s", argname,
                                    scalar_text(&s, text, sizeof text), usmarr_dtype_name(dtype));
            double t = trunc(f);
            if (t < -0x1p63 || t >= 0x1p64)
                return usmarr__fail(USMARR_ERROR_OVERFLOW, "%s=%s is out of bounds for %s", argname,
                                    scalar_text(&s, text, sizeof text), usmarr_dtype_name(dtype));
            bool neg = t < 0;
            uint64_t mag = neg ? (uint64_t)(-t) : (uint64_t)t;
            /* A float out of the target's range is never silently wrapped. */
            return store_integer(dtype, neg, mag, true, out, argname, &s);
        }
        }
    }
    double re = 0, im = 0;
    switch (s.kind) {
    case USMARR_KIND_BOOL:
        re = s.value.b;
        break;
    case USMARR_KIND_INT:
        re = (double)s.value.i;
        break;
    case USMARR_KIND_UINT:
        re = (double)s.value.u;
        break;
    case USMARR_KIND_FLOAT:
        re = s.value.f;
        break;
    default:
        re = s.value.c[0];
        im = s.value.c[1]; /* dropped for real targets, as NumPy does (with a warning) */
        break;
    }
    store_float(dtype, re, to == USMARR_KIND_COMPLEX ? im : 0, out);
    return 0;
}

usmarr_dtype_t usmarr__scalar_default_dtype(usmarr_scalar_t s)
{
    if (s.dtype >= 0 && s.dtype < USMARR_DTYPE_COUNT)
        return (usmarr_dtype_t)s.dtype;
    switch (s.kind) {
    case USMARR_KIND_BOOL:
        return USMARR_BOOL;
    case USMARR_KIND_INT:
        return USMARR_INT64;
    case USMARR_KIND_UINT:
        return s.value.u > INT64_MAX ? USMARR_UINT64 : USMARR_INT64; /* a Python int */
    case USMARR_KIND_FLOAT:
        return USMARR_FLOAT64;
    default:
        return USMARR_COMPLEX128;
    }
}
