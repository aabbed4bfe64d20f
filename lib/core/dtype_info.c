/* finfo, iinfo and isdtype (doc/core.md): host-only tables over the 14 dtypes. */
#include "core_internal.h"

#include <float.h>
#include <string.h>

int usmarr_finfo(usmarr_dtype_t dtype, usmarr_finfo_t *info)
{
    usmarr__clear_error();
    if (!info)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "finfo: info is NULL");
    usmarr_finfo_t f;
    switch (dtype) {
    case USMARR_FLOAT16: f = (usmarr_finfo_t){16, 0x1p-10, 65504.0, -65504.0, 0x1p-14, USMARR_FLOAT16}; break;
    case USMARR_FLOAT32:
    case USMARR_COMPLEX64: f = (usmarr_finfo_t){32, FLT_EPSILON, FLT_MAX, -FLT_MAX, FLT_MIN, USMARR_FLOAT32}; break;
    case USMARR_FLOAT64:
    case USMARR_COMPLEX128: f = (usmarr_finfo_t){64, DBL_EPSILON, DBL_MAX, -DBL_MAX, DBL_MIN, USMARR_FLOAT64}; break;
    default:
        return usmarr__fail(USMARR_ERROR_BAD_DTYPE, "finfo: dtype=%d (%s) is not a floating or complex dtype", (int)dtype,
                            usmarr_dtype_name(dtype) ? usmarr_dtype_name(dtype) : "invalid");
    }
    *info = f;
    return 0;
}

int usmarr_iinfo(usmarr_dtype_t dtype, usmarr_iinfo_t *info)
{
    usmarr__clear_error();
    if (!info)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "iinfo: info is NULL");
    usmarr_kind_t k = (int)dtype >= 0 && dtype < USMARR_DTYPE_COUNT ? usmarr_dtype_kind(dtype) : USMARR_KIND_BOOL;
    if ((int)dtype < 0 || dtype >= USMARR_DTYPE_COUNT || (k != USMARR_KIND_INT && k != USMARR_KIND_UINT))
        return usmarr__fail(USMARR_ERROR_BAD_DTYPE, "iinfo: dtype=%d (%s) is not an integer dtype", (int)dtype,
                            usmarr_dtype_name(dtype) ? usmarr_dtype_name(dtype) : "invalid");
    int bits = (int)usmarr_dtype_size(dtype) * 8;
    info->bits = bits;
    info->dtype = dtype;
    if (k == USMARR_KIND_INT) {
        info->max = bits == 64 ? (uint64_t)INT64_MAX : (UINT64_C(1) << (bits - 1)) - 1;
        info->min = -(int64_t)info->max - 1;
    } else {
        info->max = bits == 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
        info->min = 0;
    }
    return 0;
}

/* Whether dtype is of the one kind named by [name, name + len). */
static int one_kind(usmarr_dtype_t dtype, const char *name, size_t len, bool *match)
{
    static const char *const kinds[] = {"bool",          "signed integer",   "unsigned integer", "integral",
                                        "real floating", "complex floating", "numeric"};
    usmarr_kind_t k = usmarr_dtype_kind(dtype);
    bool is[] = {k == USMARR_KIND_BOOL,
                 k == USMARR_KIND_INT,
                 k == USMARR_KIND_UINT,
                 k == USMARR_KIND_INT || k == USMARR_KIND_UINT,
                 k == USMARR_KIND_FLOAT,
                 k == USMARR_KIND_COMPLEX,
                 k != USMARR_KIND_BOOL};
    for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++)
        if (strlen(kinds[i]) == len && !strncmp(kinds[i], name, len)) {
            *match = is[i];
            return 0;
        }
    for (int d = 0; d < USMARR_DTYPE_COUNT; d++) {
        const char *dn = usmarr_dtype_name((usmarr_dtype_t)d);
        if (strlen(dn) == len && !strncmp(dn, name, len)) {
            *match = d == (int)dtype;
            return 0;
        }
    }
    return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT,
                        "isdtype: kind \"%.*s\" is not a kind name (bool, signed integer, unsigned integer, integral, "
                        "real floating, complex floating, numeric) or a dtype name",
                        (int)(len > 64 ? 64 : len), name);
}

int usmarr_isdtype(usmarr_dtype_t dtype, const char *kind, bool *result)
{
    usmarr__clear_error();
    if (!kind || !result)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "isdtype: %s is NULL", kind ? "result" : "kind");
    if ((int)dtype < 0 || dtype >= USMARR_DTYPE_COUNT)
        return usmarr__fail(USMARR_ERROR_BAD_DTYPE, "isdtype: dtype=%d is not a dtype", (int)dtype);
    bool any = false;
    const char *p = kind;
    for (;;) {
        while (*p == ' ')
            p++;
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        while (len > 0 && p[len - 1] == ' ')
            len--;
        if (!len)
            return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "isdtype: kind \"%.64s\" has an empty entry", kind);
        bool m = false;
        int rc = one_kind(dtype, p, len, &m);
        if (rc)
            return rc;
        any = any || m;
        if (!end)
            break;
        p = end + 1;
    }
    *result = any;
    return 0;
}
