/* Type promotion and casting rules: NumPy's tables for the 14 dtypes, NEP 50 weak scalars. */
#include "core_internal.h"

#include <string.h>

/* Category for weak-scalar promotion: integers signed or not share one. */
enum { CAT_BOOL, CAT_INT, CAT_FLOAT, CAT_COMPLEX };

static const struct {
    usmarr_kind_t kind;
    int bits; /* of the real part for complex */
} info[USMARR_DTYPE_COUNT] = {
    [USMARR_BOOL] = {USMARR_KIND_BOOL, 8},       [USMARR_INT8] = {USMARR_KIND_INT, 8},
    [USMARR_INT16] = {USMARR_KIND_INT, 16},      [USMARR_INT32] = {USMARR_KIND_INT, 32},
    [USMARR_INT64] = {USMARR_KIND_INT, 64},      [USMARR_UINT8] = {USMARR_KIND_UINT, 8},
    [USMARR_UINT16] = {USMARR_KIND_UINT, 16},    [USMARR_UINT32] = {USMARR_KIND_UINT, 32},
    [USMARR_UINT64] = {USMARR_KIND_UINT, 64},    [USMARR_FLOAT16] = {USMARR_KIND_FLOAT, 16},
    [USMARR_FLOAT32] = {USMARR_KIND_FLOAT, 32},  [USMARR_FLOAT64] = {USMARR_KIND_FLOAT, 64},
    [USMARR_COMPLEX64] = {USMARR_KIND_COMPLEX, 32}, [USMARR_COMPLEX128] = {USMARR_KIND_COMPLEX, 64},
};

static bool valid(int dtype) { return dtype >= 0 && dtype < USMARR_DTYPE_COUNT; }

static const char *dtype_name(usmarr_dtype_t dtype)
{
    static const char *const names[USMARR_DTYPE_COUNT] = {
        "bool",   "int8",    "int16",   "int32",   "int64",     "uint8",     "uint16",
        "uint32", "uint64",  "float16", "float32", "float64",   "complex64", "complex128",
    };
    return valid((int)dtype) ? names[dtype] : "invalid";
}

static int category(usmarr_kind_t kind)
{
    switch (kind) {
    case USMARR_KIND_BOOL: return CAT_BOOL;
    case USMARR_KIND_INT:
    case USMARR_KIND_UINT: return CAT_INT;
    case USMARR_KIND_FLOAT: return CAT_FLOAT;
    default: return CAT_COMPLEX;
    }
}

/* Significand bits a float/complex part can hold exactly, for integer → float safety.
 * NumPy counts int64 → float64 as safe, so the 64-bit float "holds" 64-bit integers. */
static int float_int_capacity(int bits) { return bits == 16 ? 8 : bits == 32 ? 16 : 64; }

static bool safe(usmarr_dtype_t from, usmarr_dtype_t to)
{
    usmarr_kind_t fk = info[from].kind, tk = info[to].kind;
    int fb = info[from].bits, tb = info[to].bits;
    if (from == to || fk == USMARR_KIND_BOOL)
        return true;
    switch (fk) {
    case USMARR_KIND_INT:
        if (tk == USMARR_KIND_INT)
            return tb >= fb;
        if (tk == USMARR_KIND_FLOAT || tk == USMARR_KIND_COMPLEX)
            return float_int_capacity(tb) >= fb;
        return false;
    case USMARR_KIND_UINT:
        if (tk == USMARR_KIND_UINT)
            return tb >= fb;
        if (tk == USMARR_KIND_INT)
            return tb > fb;
        if (tk == USMARR_KIND_FLOAT || tk == USMARR_KIND_COMPLEX)
            return float_int_capacity(tb) >= fb;
        return false;
    case USMARR_KIND_FLOAT:
        return (tk == USMARR_KIND_FLOAT || tk == USMARR_KIND_COMPLEX) && tb >= fb;
    case USMARR_KIND_COMPLEX:
        return tk == USMARR_KIND_COMPLEX && tb >= fb;
    default:
        return false;
    }
}

bool usmarr_can_cast(usmarr_dtype_t from, usmarr_dtype_t to, usmarr_casting_t casting)
{
    if (!valid((int)from) || !valid((int)to))
        return false;
    switch (casting) {
    case USMARR_CASTING_NO:
    case USMARR_CASTING_EQUIV: return from == to;
    case USMARR_CASTING_SAFE: return safe(from, to);
    case USMARR_CASTING_SAME_KIND: {
        if (safe(from, to))
            return true;
        usmarr_kind_t fk = info[from].kind, tk = info[to].kind;
        if (fk == USMARR_KIND_INT && tk == USMARR_KIND_UINT)
            return false; /* a sign would be lost: NumPy refuses it as same-kind */
        return category(fk) <= category(tk);
    }
    case USMARR_CASTING_UNSAFE: return true;
    default: return false;
    }
}

/* Candidate results in increasing order; the first both operands cast to safely wins. */
static const usmarr_dtype_t promotion_order[USMARR_DTYPE_COUNT] = {
    USMARR_BOOL,   USMARR_INT8,    USMARR_UINT8,   USMARR_INT16,   USMARR_UINT16,
    USMARR_INT32,  USMARR_UINT32,  USMARR_INT64,   USMARR_UINT64,  USMARR_FLOAT16,
    USMARR_FLOAT32, USMARR_FLOAT64, USMARR_COMPLEX64, USMARR_COMPLEX128,
};

usmarr_dtype_t usmarr__promote(usmarr_dtype_t a, usmarr_dtype_t b)
{
    for (int i = 0; i < USMARR_DTYPE_COUNT; i++)
        if (safe(a, promotion_order[i]) && safe(b, promotion_order[i]))
            return promotion_order[i];
    return USMARR_COMPLEX128; /* unreachable: everything casts safely to complex128 */
}

int usmarr_promote_types(usmarr_dtype_t a, usmarr_dtype_t b, usmarr_dtype_t *result)
{
    usmarr__clear_error();
    if (!valid((int)a))
        return usmarr__fail(USMARR_ERROR_BAD_DTYPE, "a=%d is not a dtype (0..%d)", (int)a, USMARR_DTYPE_COUNT - 1);
    if (!valid((int)b))
        return usmarr__fail(USMARR_ERROR_BAD_DTYPE, "b=%d is not a dtype (0..%d)", (int)b, USMARR_DTYPE_COUNT - 1);
    if (!result)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "result is NULL");
    *result = usmarr__promote(a, b);
    return 0;
}

int usmarr__scalar_check(const usmarr_scalar_t *s, const char *what)
{
    static const char *const kind_names[] = {"BOOL", "INT", "UINT", "FLOAT", "COMPLEX"};
    if ((unsigned)s->kind > USMARR_KIND_COMPLEX)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s.kind=%d is not a usmarr_kind_t", what, (int)s->kind);
    if (s->dtype < 0)
        return 0;
    if (!valid(s->dtype))
        return usmarr__fail(USMARR_ERROR_BAD_DTYPE, "%s.dtype=%d is neither -1 (weak) nor a dtype", what, s->dtype);
    if (info[s->dtype].kind != s->kind)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT,
                            "%s.kind=USMARR_KIND_%s contradicts %s.dtype=%s (a %s scalar has kind USMARR_KIND_%s)",
                            what, kind_names[s->kind], what, dtype_name(s->dtype), dtype_name(s->dtype),
                            kind_names[info[s->dtype].kind]);
    return 0;
}

/* The dtype a weak scalar alone would become. */
static usmarr_dtype_t weak_default(const usmarr_scalar_t *s)
{
    switch (s->kind) {
    case USMARR_KIND_BOOL: return USMARR_BOOL;
    case USMARR_KIND_INT: return USMARR_INT64;
    case USMARR_KIND_UINT: return s->value.u > INT64_MAX ? USMARR_UINT64 : USMARR_INT64;
    case USMARR_KIND_FLOAT: return USMARR_FLOAT64;
    default: return USMARR_COMPLEX128;
    }
}

int usmarr__weak_fits(const usmarr_scalar_t *s, usmarr_dtype_t dtype, const char *what)
{
    if (s->dtype >= 0 || (s->kind != USMARR_KIND_INT && s->kind != USMARR_KIND_UINT))
        return 0;
    usmarr_kind_t k = info[dtype].kind;
    if (k != USMARR_KIND_INT && k != USMARR_KIND_UINT)
        return 0;
    int bits = info[dtype].bits;
    bool fits;
    if (s->kind == USMARR_KIND_INT) {
        int64_t v = s->value.i;
        if (k == USMARR_KIND_INT)
            fits = bits == 64 || (v >= -(INT64_C(1) << (bits - 1)) && v < (INT64_C(1) << (bits - 1)));
        else
            fits = v >= 0 && (bits == 64 || v < (INT64_C(1) << bits));
        if (!fits)
            return usmarr__fail(USMARR_ERROR_OVERFLOW, "%s=%lld is out of range of %s", what, (long long)v,
                                dtype_name(dtype));
    } else {
        uint64_t v = s->value.u;
        if (k == USMARR_KIND_INT)
            fits = v < (UINT64_C(1) << (bits - 1));
        else
            fits = bits == 64 || v < (UINT64_C(1) << bits);
        if (!fits)
            return usmarr__fail(USMARR_ERROR_OVERFLOW, "%s=%llu is out of range of %s", what, (unsigned long long)v,
                                dtype_name(dtype));
    }
    return 0;
}

int usmarr__result_type(const usmarr_dtype_t *dtypes, size_t ndtypes, const usmarr_scalar_t *const *scalars,
                        size_t nscalars, bool check_weak, usmarr_dtype_t *result)
{
    bool have_strong = false;
    usmarr_dtype_t strong = USMARR_BOOL;
    for (size_t i = 0; i < ndtypes; i++) {
        if (!valid((int)dtypes[i]))
            return usmarr__fail(USMARR_ERROR_BAD_DTYPE, "dtypes[%zu]=%d is not a dtype", i, (int)dtypes[i]);
        strong = have_strong ? usmarr__promote(strong, dtypes[i]) : dtypes[i];
        have_strong = true;
    }
    for (size_t i = 0; i < nscalars; i++) {
        char what[32];
        snprintf(what, sizeof what, "scalars[%zu]", i);
        int rc = usmarr__scalar_check(scalars[i], what);
        if (rc)
            return rc;
        if (scalars[i]->dtype >= 0) {
            usmarr_dtype_t d = (usmarr_dtype_t)scalars[i]->dtype;
            strong = have_strong ? usmarr__promote(strong, d) : d;
            have_strong = true;
        }
    }
    usmarr_dtype_t r = strong;
    bool have = have_strong;
    for (size_t i = 0; i < nscalars; i++) {
        const usmarr_scalar_t *s = scalars[i];
        if (s->dtype >= 0)
            continue;
        usmarr_dtype_t d = weak_default(s);
        if (have_strong && d == USMARR_UINT64)
            d = USMARR_INT64; /* beside an array a weak integer is the default int, as in NumPy */
        if (!have) {
            r = d;
            have = true;
        } else if (category(s->kind) > category(info[r].kind)) {
            if (info[r].kind == USMARR_KIND_FLOAT && s->kind == USMARR_KIND_COMPLEX)
                r = info[r].bits == 64 ? USMARR_COMPLEX128 : USMARR_COMPLEX64;
            else
                r = usmarr__promote(r, d);
        } else if (!have_strong) {
            /* only weak operands so far: the widest default wins (int64 with uint64 stays uint64
             * only for values that need it) */
            if (category(s->kind) == category(info[r].kind) && d == USMARR_UINT64)
                r = d;
        }
    }
    for (size_t i = 0; i < nscalars && check_weak; i++) {
        char what[32];
        snprintf(what, sizeof what, "scalars[%zu]", i);
        int rc = usmarr__weak_fits(scalars[i], r, what);
        if (rc)
            return rc;
    }
    *result = r;
    return 0;
}

int usmarr_result_type(const usmarr_dtype_t *dtypes, size_t ndtypes, const usmarr_scalar_t *scalars, size_t nscalars,
                       usmarr_dtype_t *result)
{
    usmarr__clear_error();
    if (!result)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "result is NULL");
    if (ndtypes + nscalars == 0)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "ndtypes=0 and nscalars=0: no operands");
    if (ndtypes && !dtypes)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "dtypes is NULL with ndtypes=%zu", ndtypes);
    if (nscalars && !scalars)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "scalars is NULL with nscalars=%zu", nscalars);
    if (nscalars > 64)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "nscalars=%zu exceeds 64", nscalars);
    const usmarr_scalar_t *list[64];
    for (size_t i = 0; i < nscalars; i++)
        list[i] = &scalars[i];
    return usmarr__result_type(dtypes, ndtypes, list, nscalars, true, result);
}
