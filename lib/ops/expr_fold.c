/* Constant folding of a fused expression's operators over weak values (numbers in the
 * text, weak scalar operands): Python computes `2 * pi` or `-1` before NumPy sees it, so
 * the result stays a weak (Python) scalar and `a * (2 * pi)` keeps a's dtype.  Python's
 * rules on bool < int < float < complex: true division gives a float, `//` and `%` floor
 * (the remainder takes the divisor's sign), `**` of a negative integer exponent gives a
 * float, division by zero is an error.  Integers are Python's unbounded ints; a result
 * outside int64 and uint64 is an overflow here.  `and`, `or`, `not` give bools (they are
 * NumPy's logical functions in an expression, not Python's short circuits). */
#include "ops_internal.h"

#include <complex.h>
#include <math.h>
#include <string.h>

#ifndef CMPLX /* glibc before 2.37 defines it for GCC only, not for clang (the fuzz build) */
#define CMPLX(x, y) __builtin_complex((double)(x), (double)(y))
#endif

enum level { L_BOOL, L_INT, L_FLOAT, L_COMPLEX };

struct num {
    enum level level;
    __int128 i; /* L_BOOL, L_INT */
    double f;
    double complex c;
};

static struct num num_of(const usmarr_scalar_t *s)
{
    struct num n;
    memset(&n, 0, sizeof n);
    usmarr_kind_t k = s->kind;
    n.level = k == USMARR_KIND_BOOL ? L_BOOL : k <= USMARR_KIND_UINT ? L_INT : k == USMARR_KIND_FLOAT ? L_FLOAT : L_COMPLEX;
    if (n.level <= L_INT)
        n.i = k == USMARR_KIND_BOOL ? (__int128)s->value.b
              : k == USMARR_KIND_INT ? (__int128)s->value.i
                                     : (__int128)s->value.u;
    else if (n.level == L_FLOAT)
        n.f = s->value.f;
    else
        n.c = CMPLX(s->value.c[0], s->value.c[1]);
    return n;
}

static void raise_to(struct num *n, enum level level)
{
    if (n->level < L_FLOAT && level >= L_FLOAT)
        n->f = (double)n->i;
    if (n->level < L_COMPLEX && level == L_COMPLEX)
        n->c = CMPLX(n->f, 0.0);
    if (n->level < level)
        n->level = level;
}

static bool truth(const struct num *n)
{
    return n->level <= L_INT ? n->i != 0 : n->level == L_FLOAT ? n->f != 0 : creal(n->c) != 0 || cimag(n->c) != 0;
}

static int to_scalar(const struct num *n, usmarr_scalar_t *out, const char **why)
{
    switch (n->level) {
    case L_BOOL:
        *out = usmarr_scalar_bool(n->i != 0);
        return 0;
    case L_INT:
        if (n->i >= INT64_MIN && n->i <= INT64_MAX)
            *out = usmarr_scalar_int((int64_t)n->i);
        else if (n->i > 0 && n->i <= (__int128)UINT64_MAX)
            *out = usmarr_scalar_uint((uint64_t)n->i);
        else {
            *why = "the integer result does not fit in 64 bits";
            return USMARR_ERROR_OVERFLOW;
        }
        return 0;
    case L_FLOAT:
        *out = usmarr_scalar_float(n->f);
        return 0;
    default:
        *out = usmarr_scalar_complex(creal(n->c), cimag(n->c));
        return 0;
    }
}

/* Python's float divmod (and NumPy's npy_divmod): the floor quotient and the remainder
 * with the divisor's sign. */
static void float_divmod(double a, double b, double *div, double *mod)
{
    double m = fmod(a, b);
    double d = (a - m) / b;
    if (m != 0) {
        if ((b < 0) != (m < 0)) {
            m += b;
            d -= 1;
        }
    } else {
        m = copysign(0.0, b);
    }
    if (d != 0) {
        double f = floor(d);
        if (d - f > 0.5)
            f += 1;
        d = f;
    } else {
        d = copysign(0.0, a / b);
    }
    *div = d;
    *mod = m;
}

/* Integer power by squaring in 128 bits; false when it leaves them. */
static bool int_pow(__int128 base, __int128 exp, __int128 *out)
{
    __int128 r = 1;
    while (exp > 0) {
        if ((exp & 1) && __builtin_mul_overflow(r, base, &r))
            return false;
        exp >>= 1;
        if (exp && __builtin_mul_overflow(base, base, &base))
            return false;
    }
    *out = r;
    return true;
}

static const char *const folded[] = {
    "negative", "positive", "bitwise_invert", "logical_not", "add", "subtract", "multiply", "divide",
    "floor_divide", "remainder", "pow", "equal", "not_equal", "less", "less_equal", "greater",
    "greater_equal", "bitwise_and", "bitwise_or", "bitwise_xor", "left_shift", "right_shift", "logical_and",
    "logical_or", "where",
};

static int arith(const char *name, struct num a, struct num b, struct num *r, const char **why)
{
    enum level top = a.level > b.level ? a.level : b.level;
    if (top == L_BOOL)
        top = L_INT;
    bool divide = !strcmp(name, "divide");
    if (divide && top == L_INT)
        top = L_FLOAT;
    bool power = !strcmp(name, "pow");
    if (power && top == L_INT && b.i < 0)
        top = L_FLOAT; /* 2 ** -1 is 0.5 */
    raise_to(&a, top);
    raise_to(&b, top);
    memset(r, 0, sizeof *r);
    r->level = top;
    bool floor_div = !strcmp(name, "floor_divide"), mod = !strcmp(name, "remainder");
    if ((divide || floor_div || mod) && !truth(&b)) {
        *why = "division by zero";
        return 1;
    }
    if (power && top >= L_FLOAT && !truth(&a) && (top == L_COMPLEX ? creal(b.c) < 0 || cimag(b.c) != 0 : b.f < 0)) {
        *why = "zero to a negative power";
        return 1;
    }
    if (top == L_INT) {
        bool ok = true;
        if (!strcmp(name, "add"))
            ok = !__builtin_add_overflow(a.i, b.i, &r->i);
        else if (!strcmp(name, "subtract"))
            ok = !__builtin_sub_overflow(a.i, b.i, &r->i);
        else if (!strcmp(name, "multiply"))
            ok = !__builtin_mul_overflow(a.i, b.i, &r->i);
        else if (floor_div || mod) {
            __int128 q = a.i / b.i, m = a.i % b.i;
            if (m != 0 && ((m < 0) != (b.i < 0))) {
                q -= 1;
                m += b.i;
            }
            r->i = floor_div ? q : m;
        } else
            ok = int_pow(a.i, b.i, &r->i);
        if (!ok) {
            *why = "the integer result does not fit in 64 bits";
            return USMARR_ERROR_OVERFLOW;
        }
        return 0;
    }
    if (top == L_FLOAT) {
        double d, m;
        if (!strcmp(name, "add"))
            r->f = a.f + b.f;
        else if (!strcmp(name, "subtract"))
            r->f = a.f - b.f;
        else if (!strcmp(name, "multiply"))
            r->f = a.f * b.f;
        else if (divide)
            r->f = a.f / b.f;
        else if (floor_div || mod) {
            float_divmod(a.f, b.f, &d, &m);
            r->f = floor_div ? d : m;
        } else if (a.f < 0 && b.f != floor(b.f) && isfinite(b.f)) {
            r->level = L_COMPLEX; /* Python: (-8) ** 0.5 is complex */
            r->c = cpow(CMPLX(a.f, 0.0), CMPLX(b.f, 0.0));
        } else
            r->f = pow(a.f, b.f);
        return 0;
    }
    if (floor_div || mod) {
        *why = "complex numbers have no floor division or remainder";
        return 1;
    }
    /* C's operators on double complex: float operands through complex division would
     * round differently. */
    if (!strcmp(name, "add"))
        r->c = a.c + b.c;
    else if (!strcmp(name, "subtract"))
        r->c = a.c - b.c;
    else if (!strcmp(name, "multiply"))
        r->c = a.c * b.c;
    else if (divide)
        r->c = a.c / b.c;
    else
        r->c = cpow(a.c, b.c);
    return 0;
}

static int compare(const char *name, struct num a, struct num b, struct num *r, const char **why)
{
    enum level top = a.level > b.level ? a.level : b.level;
    raise_to(&a, top);
    raise_to(&b, top);
    int c; /* -1, 0, 1; 2 unordered */
    if (top <= L_INT)
        c = a.i < b.i ? -1 : a.i > b.i;
    else if (top == L_FLOAT)
        c = a.f < b.f ? -1 : a.f > b.f ? 1 : a.f == b.f ? 0 : 2;
    else {
        bool eq = creal(a.c) == creal(b.c) && cimag(a.c) == cimag(b.c);
        if (strcmp(name, "equal") && strcmp(name, "not_equal")) {
            *why = "complex numbers have no order";
            return 1;
        }
        c = eq ? 0 : 2;
    }
    bool v = !strcmp(name, "equal")       ? c == 0
             : !strcmp(name, "not_equal") ? c != 0
             : !strcmp(name, "less")      ? c == -1
             : !strcmp(name, "less_equal") ? c == -1 || c == 0
             : !strcmp(name, "greater")   ? c == 1
                                          : c == 1 || c == 0;
    memset(r, 0, sizeof *r);
    r->level = L_BOOL;
    r->i = v;
    return 0;
}

static int bitwise(const char *name, struct num a, struct num b, struct num *r, const char **why)
{
    if (a.level > L_INT || b.level > L_INT) {
        *why = "bitwise operators need integers or bools";
        return 1;
    }
    memset(r, 0, sizeof *r);
    r->level = a.level == L_BOOL && b.level == L_BOOL && name[0] == 'b' ? L_BOOL : L_INT;
    if (!strcmp(name, "bitwise_and"))
        r->i = a.i & b.i;
    else if (!strcmp(name, "bitwise_or"))
        r->i = a.i | b.i;
    else if (!strcmp(name, "bitwise_xor"))
        r->i = a.i ^ b.i;
    else if (b.i < 0) {
        *why = "a negative shift count";
        return 1;
    } else if (!strcmp(name, "left_shift")) {
        if (b.i >= 64 && a.i != 0) { /* |a| < 2^64: below 64 the product fits 128 bits, to_scalar checks it */
            *why = "the integer result does not fit in 64 bits";
            return USMARR_ERROR_OVERFLOW;
        }
        r->i = a.i == 0 ? 0 : a.i * ((__int128)1 << b.i);
    } else
        r->i = b.i >= 127 ? (a.i < 0 ? -1 : 0) : a.i >> b.i;
    return 0;
}

int usmarr__expr_fold(int op, const usmarr_scalar_t *args, int nargs, usmarr_scalar_t *result, const char **why)
{
    const struct usmarr__ew_op *info = usmarr__elementwise_op(op);
    const char *name = info ? info->name : "";
    bool known = false;
    for (size_t i = 0; i < sizeof folded / sizeof folded[0] && !known; i++)
        known = !strcmp(folded[i], name);
    *why = "not a Python operation on numbers";
    if (!known || nargs < 1 || nargs > 3)
        return 1;
    struct num a = num_of(&args[0]), b = nargs > 1 ? num_of(&args[1]) : a, r;
    memset(&r, 0, sizeof r);
    int rc = 0;
    if (!strcmp(name, "where")) {
        *result = truth(&a) ? args[1] : args[2];
        return 0;
    } else if (!strcmp(name, "negative") || !strcmp(name, "positive")) {
        bool neg = name[0] == 'n';
        r = a;
        if (r.level == L_BOOL)
            r.level = L_INT; /* -True is -1 */
        if (neg) {
            r.i = -r.i;
            r.f = -r.f;
            r.c = -r.c;
        }
    } else if (!strcmp(name, "bitwise_invert")) {
        if (a.level > L_INT) {
            *why = "~ needs an integer or a bool";
            return 1;
        }
        r = a;
        r.level = L_INT; /* Python: ~True is -2 */
        r.i = ~a.i;
    } else if (!strcmp(name, "logical_not")) {
        r.level = L_BOOL;
        r.i = !truth(&a);
    } else if (!strcmp(name, "logical_and") || !strcmp(name, "logical_or")) {
        r.level = L_BOOL;
        r.i = name[8] == 'a' ? truth(&a) && truth(&b) : truth(&a) || truth(&b);
    } else if (!strncmp(name, "bitwise_", 8) || strstr(name, "_shift")) {
        rc = bitwise(name, a, b, &r, why);
    } else if (strstr(name, "equal") || strstr(name, "less") || strstr(name, "greater")) {
        rc = compare(name, a, b, &r, why);
    } else {
        rc = arith(name, a, b, &r, why);
    }
    return rc ? rc : to_scalar(&r, result, why);
}
