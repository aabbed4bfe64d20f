/* The dtype table, array-interface typestrs and scalar constructors. */
#include "internal.h"

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

usmarr_scalar_t usmarr_scalar_bool(bool v)
{
    usmarr_scalar_t s = {.kind = USMARR_KIND_BOOL, .dtype = -1};
    s.value.b = v;
    return s;
}

usmarr_scalar_t usmarr_scalar_int(int64_t v)
{
    usmarr_scalar_t s = {.kind = USMARR_KIND_INT, .dtype = -1};
    s.value.i = v;
    return s;
}

usmarr_scalar_t usmarr_scalar_uint(uint64_t v)
{
    usmarr_scalar_t s = {.kind = USMARR_KIND_UINT, .dtype = -1};
    s.value.u = v;
    return s;
}

usmarr_scalar_t usmarr_scalar_float(double v)
{
    usmarr_scalar_t s = {.kind = USMARR_KIND_FLOAT, .dtype = -1};
    s.value.f = v;
    return s;
}

usmarr_scalar_t usmarr_scalar_complex(double re, double im)
{
    usmarr_scalar_t s = {.kind = USMARR_KIND_COMPLEX, .dtype = -1};
    s.value.c[0] = re;
    s.value.c[1] = im;
    return s;
}
