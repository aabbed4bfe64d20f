/* complex.cl: the complex functions of elementwise.cl (OpenCL C has no complex type), for
 * the program's loop dtype EW_T when it is complex64 (float2) or complex128 (double2).
 * The engine puts this file before elementwise.cl (family "complex+elementwise").
 * Reference: NumPy 2 (its npy_math, which takes most of these from the C library: C99
 * Annex G special values, branch cuts that follow the sign of a zero part), within the
 * tolerances of doc/ops.md.  The methods: Kahan's ("Branch cuts for complex
 * elementary functions", 1987) for asin, acos and atanh, log(2z) asymptotics past 2^MANT,
 * scaling by powers of two for subnormal and huge parts, exp(x/2)^2 past exp's overflow. */
#define CX_KIND_c64 1
#define CX_KIND_c128 2
#define CX_PASTE_(a, b) a##b
#define CX_PASTE(a, b) CX_PASTE_(a, b)
#define CX_KIND CX_PASTE(CX_KIND_, EW_T)
#if CX_KIND == 1 || CX_KIND == 2
/* no fused multiply-adds: NumPy's a*b - c*d rounds both products (inf - inf is NaN there) */
#pragma OPENCL FP_CONTRACT OFF
#if CX_KIND == 1
#define C float2
#define R float
#define CX_BIG 0x1p24f         /* 2^MANT: past it, 1 is nothing next to |z| */
#define CX_TINY 0x1p-60f       /* below it, parts are scaled up by CX_UP */
#define CX_UP 0x1p48f
#define CX_UPLOG 48
#define CX_EXPMAX 88.0f        /* exp of more overflows (nearly) */
#define CX_TANHBIG 10.0f       /* tanh(x) rounds to 1 past it */
#define CX_HYP_BIG 0x1p60f     /* |z| past it: the squares of the parts scaled by CX_HYP_DOWN */
#define CX_HYP_DOWN 0x1p-70f
#define CX_HYP_SMALL 0x1p-60f  /* |z| below it: scaled by CX_HYP_UP (the least subnormal's square normal) */
#define CX_HYP_UP 0x1p100f
#else
#define C double2
#define R double
#define CX_BIG 0x1p53
#define CX_TINY 0x1p-500
#define CX_UP 0x1p106
#define CX_UPLOG 106
#define CX_EXPMAX 709.0
#define CX_TANHBIG 20.0
#define CX_HYP_BIG 0x1p500
#define CX_HYP_DOWN 0x1p-600
#define CX_HYP_SMALL 0x1p-500
#define CX_HYP_UP 0x1p600
#endif
#define CX_OVL __attribute__((overloadable))
/* The signs of zeros that NumPy derives from a NaN's sign bit (csqrt(-inf + NaN j),
 * catan(inf + NaN j), cexp(-inf + NaN j) inside cpow) must not depend on how a device
 * treats NaNs: negation and copysign go through the bits here (some devices' negation
 * and arithmetic give any NaN a canonical sign), and c_mul_g's products and sums make
 * the NaN x86-64 makes (the default NaN, sign bit set, for inf * 0 and inf - inf; a NaN
 * operand passes through, the first one when both are NaN), as NumPy's C library does. */
#if CX_KIND == 1
#define CX_BITS(v) as_uint(v)
#define CX_FROM_BITS(u) as_float(u)
#define CX_SIGN 0x80000000u
#define CX_DEFAULT_NAN as_float(0xffc00000u)
#else
#define CX_BITS(v) as_ulong(v)
#define CX_FROM_BITS(u) as_double(u)
#define CX_SIGN 0x8000000000000000ul
#define CX_DEFAULT_NAN as_double(0xfff8000000000000ul)
#endif
static inline CX_OVL R cx_neg(R v) { return CX_FROM_BITS(CX_BITS(v) ^ CX_SIGN); }
static inline CX_OVL R cx_copysign(R m, R s) { return CX_FROM_BITS((CX_BITS(m) & ~CX_SIGN) | (CX_BITS(s) & CX_SIGN)); }
static inline CX_OVL R cx_mul(R p, R q)
{
    if (isnan(p) || isnan(q))
        return isnan(p) ? p : q;
    return (isinf(p) && q == (R)0) || (p == (R)0 && isinf(q)) ? CX_DEFAULT_NAN : p * q;
}
static inline CX_OVL R cx_add(R p, R q)
{
    if (isnan(p) || isnan(q))
        return isnan(p) ? p : q;
    return isinf(p) && isinf(q) && (p > 0) != (q > 0) ? CX_DEFAULT_NAN : p + q;
}
static inline CX_OVL R cx_sub(R p, R q)
{
    if (isnan(p) || isnan(q))
        return isnan(p) ? p : q;
    return isinf(p) && isinf(q) && (p > 0) == (q > 0) ? CX_DEFAULT_NAN : p - q;
}
/* Annex G's recovery of an infinite product: a part as +-1 (infinite) or +-0 (finite), and
 * a NaN part as a zero of its sign */
static inline CX_OVL R cx_unit(R v) { return cx_copysign(isinf(v) ? (R)1 : (R)0, v); }
static inline CX_OVL R cx_nan0(R v) { return isnan(v) ? cx_copysign((R)0, v) : v; }
#define CX_PI ((R)M_PI)
#define CX_PI_2 ((R)M_PI_2)
#define CX_LN2 ((R)M_LN2)

/* Functions of complex64 and complex128 that the contiguous maps also run on 16 elements at
 * once (cl/elementwise.cl: the parts as two 16-vectors RV): one text for both widths, of
 * IEEE operations and selects only, so that an element gets the same value in a vector as
 * alone (no device function whose 16-lane form differs from its one-lane form). */
#if CX_KIND == 1
#define RV float16
#else
#define RV double16
#endif
/* |z| as C99's hypot (hypot(inf, NaN) is inf): the parts scaled by a power of two where
 * their squares would overflow or lose digits below the normal range, then the square root
 * of x^2 + y^2: within 1.5 ulp.  (The device's hypot, one element at a time, took 150 ms for
 * 4M complex64 on PoCL, 90 times NumPy's time; with x^2 + y^2 as fma(x, x, y^2) complex128
 * took 36 ms on Intel's runtime, whose double fma is a call, against 3.4 ms.) */
#define CX_DEF_HYPOT(T)                                                                          \
    static inline CX_OVL T cx_hypot(T x, T y)                                                    \
    {                                                                                            \
        T ax = fabs(x), ay = fabs(y), m = fmax(ax, ay);                                          \
        T s = m > (T)CX_HYP_BIG ? (T)CX_HYP_DOWN : m < (T)CX_HYP_SMALL ? (T)CX_HYP_UP : (T)1;    \
        T si = m > (T)CX_HYP_BIG ? (T)((R)1 / CX_HYP_DOWN) : m < (T)CX_HYP_SMALL ? (T)((R)1 / CX_HYP_UP) : (T)1; \
        T xs = ax * s, ys = ay * s, h = sqrt(xs * xs + ys * ys) * si;                              \
        return isinf(ax) | isinf(ay) ? (T)INFINITY : h;                                          \
    }
/* NumPy 2's sign: z/|z|; an infinite part gives its unit; 0 gives +0; NaN where both parts
 * are infinite or |z| is NaN; z scaled by a power of two first where |z| would underflow
 * or overflow (NumPy's gives (0, 1) for huge parts) */
#define CX_DEF_SIGN(T)                                                                           \
    static inline CX_OVL void cx_sign(T x, T y, T *rx, T *ry)                                    \
    {                                                                                            \
        T m = fmax(fabs(x), fabs(y));                                                            \
        T s = m < (T)CX_TINY ? (T)CX_UP : (m > (T)((R)1 / CX_TINY)) & isfinite(m) ? (T)((R)1 / CX_UP) : (T)1; \
        T bx = x * s, by = y * s, h = cx_hypot(bx, by), qx = bx / h, qy = by / h;              \
        __typeof__(isinf(bx)) ix = isinf(bx), iy = isinf(by);                                    \
        qx = m == (T)0 ? (T)0 : qx;                                                              \
        qy = m == (T)0 ? (T)0 : qy;                                                              \
        qx = ix ? copysign((T)1, bx) : iy ? (T)0 : qx;                                           \
        qy = ix ? (T)0 : iy ? copysign((T)1, by) : qy;                                           \
        __typeof__(ix) nan = (ix & iy) | ((isnan(x) | isnan(y)) & !(ix | iy));                   \
        *rx = nan ? (T)NAN : qx;                                                                 \
        *ry = nan ? (T)NAN : qy;                                                                 \
    }
CX_DEF_HYPOT(R)
CX_DEF_HYPOT(RV)
CX_DEF_SIGN(R)
CX_DEF_SIGN(RV)
static inline CX_OVL R c_abs(C a) { return cx_hypot(a.x, a.y); }
static inline CX_OVL C c_sign(C a)
{
    R x, y;
    cx_sign(a.x, a.y, &x, &y);
    return (C)(x, y);
}
static inline CX_OVL C c_mul(C a, C b) { return usmarr_cmul(a, b); }
/* multiply and square: one rounding less, as NumPy 2's SIMD loops (x86-64 with FMA) */
static inline CX_OVL C c_mul_fma(C a, C b) { return (C)(fma(a.x, b.x, -(a.y * b.y)), fma(a.x, b.y, a.y * b.x)); }
/* NumPy's Smith-style division, including x/0 = (x.re/0, x.im/0); for one element and 16
 * (NumPy's branches as selects, the same operations) */
#define CX_DEF_DIV(T)                                                                            \
    static inline CX_OVL void cx_div(T ax, T ay, T bx, T by, T *rx, T *ry)                       \
    {                                                                                            \
        T br = fabs(bx), bi = fabs(by);                                                          \
        __typeof__(isnan(br)) first = br >= bi, zero = (br == (T)0) & (bi == (T)0);              \
        T p = first ? by : bx, q = first ? bx : by, u = first ? ax : ay, v = first ? ay : ax;    \
        T rat = p / q, scl = (T)1 / (q + p * rat);                                               \
        *rx = zero ? ax / br : (u + v * rat) * scl;                                              \
        *ry = zero ? ay / br : first ? (ay - ax * rat) * scl : (ay * rat - ax) * scl;            \
    }
CX_DEF_DIV(R)
CX_DEF_DIV(RV)
static inline CX_OVL C c_div(C a, C b)
{
    R x, y;
    cx_div(a.x, a.y, b.x, b.y, &x, &y);
    return (C)(x, y);
}
/* NumPy 2's reciprocal: one ratio, no special cases (1/0 is NaN); for one element and 16 (the
 * branches of NumPy's as selects: q + p r is x + y r or x r + y) */
#define CX_DEF_RECIP(T)                                                                          \
    static inline CX_OVL void cx_recip(T x, T y, T *rx, T *ry)                                   \
    {                                                                                            \
        __typeof__(isnan(x)) swap = !(fabs(y) <= fabs(x));                                        \
        T p = swap ? x : y, q = swap ? y : x, r = p / q, d = q + p * r;                          \
        *rx = (swap ? r : (T)1) / d;                                                             \
        *ry = -((swap ? (T)1 : r) / d);                                                          \
    }
CX_DEF_RECIP(R)
CX_DEF_RECIP(RV)
static inline CX_OVL C c_recip(C a)
{
    R x, y;
    cx_recip(a.x, a.y, &x, &y);
    return (C)(x, y);
}
/* NumPy's lexicographic order with its NaN rules (CLT, CLE, CGE of npy_math) */
static inline CX_OVL int c_lt(C a, C b) { return (a.x < b.x && a.y == a.y && b.y == b.y) || (a.x == b.x && a.y < b.y); }
static inline CX_OVL int c_le(C a, C b) { return (a.x < b.x && a.y == a.y && b.y == b.y) || (a.x == b.x && a.y <= b.y); }
static inline CX_OVL int c_ge(C a, C b) { return (a.x > b.x && a.y == a.y && b.y == b.y) || (a.x == b.x && a.y >= b.y); }
static inline CX_OVL int c_isnan(C a) { return isnan(a.x) || isnan(a.y); }
static inline CX_OVL C c_scale(C a, R s) { return (C)(cx_mul(a.x, s), cx_mul(a.y, s)); }

/* x^2 + y^2 + c for an exact c that the squares may cancel: the squares as exact sums of two
 * (fma), the sum of the five terms compensated, so that no digit is lost where the result is
 * near 0 (the library's approximation of glibc's __x2y2m1) */
#define CX_DEF_X2Y2PC(T)                                                                         \
    static inline CX_OVL T c_x2y2pc(T x, T y, T c)                                               \
    {                                                                                            \
        T px = x * x, ex = fma(x, x, -px), py = y * y, ey = fma(y, y, -py);                      \
        T s1 = px + c, t1 = s1 - px, e1 = (px - (s1 - t1)) + (c - t1); /* two-sum px + c */      \
        T s2 = s1 + py, t2 = s2 - s1, e2 = (s1 - (s2 - t2)) + (py - t2); /* two-sum s1 + py */   \
        return s2 + (((e1 + e2) + ex) + ey);                                                     \
    }
CX_DEF_X2Y2PC(R)
CX_DEF_X2Y2PC(RV)
/* |z|^2 - 1 for max(|x|, |y|) in [0.5, 2] */
static inline CX_OVL R c_x2y2m1(R x, R y) { return c_x2y2pc(x, y, (R)-1); }
/* log|z| without overflow, underflow or loss near |z| = 1 */
static inline CX_OVL R c_loghypot(R x, R y)
{
    R ax = fmax(fabs(x), fabs(y)), ay = fmin(fabs(x), fabs(y));
    if (isnan(x) || isnan(y))
        return isinf(x) || isinf(y) ? (R)INFINITY : x + y;
    if (ax > CX_BIG * CX_BIG)
        return log(hypot(ax * (R)0.5, ay * (R)0.5)) + CX_LN2;
    if (ax < CX_TINY)
        return log(hypot(ax * CX_UP, ay * CX_UP)) - (R)CX_UPLOG * CX_LN2;
    if (ax >= (R)0.5 && ax <= (R)2 && ay < (R)1)
        return (R)0.5 * log1p(c_x2y2m1(ax, ay));
    return log(hypot(ax, ay));
}
static inline CX_OVL C c_sqrt_1(C a)
{
    R x = a.x, y = a.y;
    if (isinf(y))
        return (C)((R)INFINITY, y);
    if (isnan(x))
        return (C)(x, x);
    if (isinf(x)) {
        if (x > (R)0)
            return (C)(x, isnan(y) ? y : copysign((R)0, y));
        return (C)(isnan(y) ? y : (R)0, cx_copysign(-x, y));
    }
    if (isnan(y))
        return (C)(y, y);
    if (x == (R)0 && y == (R)0)
        return (C)((R)0, y);
    R m = fmax(fabs(x), fabs(y)), s = (R)1, xs = x, ys = y;
    if (m > CX_BIG * CX_BIG) { /* sqrt(z/4) * 2 */
        xs *= (R)0.25;
        ys *= (R)0.25;
        s = (R)2;
    } else if (m < CX_TINY) { /* sqrt(z UP^2) / UP */
        xs *= CX_UP * CX_UP;
        ys *= CX_UP * CX_UP;
        s = (R)1 / CX_UP;
    }
    R t = sqrt((R)0.5 * (fabs(xs) + hypot(xs, ys)));
    if (xs >= (R)0)
        return (C)(t * s, ys / (2 * t) * s);
    return (C)(fabs(ys) / (2 * t) * s, copysign(t, ys) * s);
}
/* h exp(x) (c, s) (h 1 or 1/2) without overflow where the product is finite; c and s are
 * multiplied first, so that a subnormal s times an infinite exp(x) is infinite, never 0 */
static inline CX_OVL C c_expcis(R x, R c, R s, R h)
{
    if (x > CX_EXPMAX) {
        R e = exp(x * (R)0.5), he = h * e;
        return (C)(c * e * he, s * e * he);
    }
    R e = exp(x);
    return (C)(c * e * h, s * e * h);
}
static inline CX_OVL C c_exp_1(C a)
{
    R x = a.x, y = a.y;
    if (y == (R)0)
        return (C)(exp(x), y);
    if (isinf(x) && !isfinite(y))
        return x > 0 ? (C)(x, y - y) : (C)((R)0, cx_copysign((R)0, y));
    if (isnan(x))
        return (C)(x, x);
    return c_expcis(x, cos(y), sin(y), (R)1);
}
static inline CX_OVL C c_log_1(C a) { return (C)(c_loghypot(a.x, a.y), atan2(a.y, a.x)); }
/* NumPy's nc_expm1, but expm1(x + 0j) is expm1(x) + 0j (NumPy's imaginary part is
 * exp(x) * 0, NaN where exp(x) overflows) and past exp's overflow exp(z) - 1 without
 * overflow where the parts are finite (NumPy's exp(x) sin y is inf there); expm1 of an infinite or NaN part is exp(z) - 1
 * (the array API standard's special values: NumPy's formula makes inf * 0 NaN there) */
static inline CX_OVL C c_expm1_1(C a)
{
    if (!isfinite(a.x) || !isfinite(a.y) || a.x > CX_EXPMAX) { /* exp(z) - 1, without overflow where finite */
        C e = c_exp_1(a);
        return (C)(e.x - (R)1, e.y);
    }
    if (a.y == (R)0)
        return (C)(expm1(a.x), a.y);
    R s = sin(a.y * (R)0.5);
    return (C)(expm1(a.x) * cos(a.y) - (R)2 * s * s, exp(a.x) * sin(a.y));
}
/* log|1 + z| + i arg(1 + z): for x > -1/2 and |x|, |y| < 2 as log1p(|1 + z|^2 - 1) / 2 with
 * |1 + z|^2 - 1 = 2x + x^2 + y^2 from the exact x (c_x2y2pc), which keeps the digits of a
 * tiny z (NumPy's log(hypot(1 + x, y)) loses them all) and those near |1 + z| = 1, where
 * 2x cancels x^2 + y^2 (a rounded 1 + x or 2 + x loses them there); else c_loghypot of
 * 1 + x, exact for x in [-2, -1/2], without overflow for huge parts (NumPy's hypot
 * overflows) */
static inline CX_OVL C c_log1p_1(C a)
{
    R x = a.x, y = a.y;
    R re = x > (R)-0.5 && fmax(fabs(x), fabs(y)) < (R)2 ? (R)0.5 * log1p(c_x2y2pc(x, y, (R)2 * x))
                                                        : c_loghypot(x + (R)1, y);
    return (C)(re, atan2(y, x + (R)1));
}
static inline CX_OVL C c_exp2_1(C a) { return c_exp_1(c_scale(a, CX_LN2)); }
static inline CX_OVL C c_log2_1(C a) { return c_scale(c_log_1(a), (R)M_LOG2E); }
static inline CX_OVL C c_log10_1(C a) { return c_scale(c_log_1(a), (R)M_LOG10E); }
/* C99 Annex G's multiplication: an infinite factor keeps the product infinite */
static inline CX_OVL C c_mul_g(C z, C w)
{
    R a = z.x, b = z.y, c = w.x, d = w.y, ac = cx_mul(a, c), bd = cx_mul(b, d), ad = cx_mul(a, d), bc = cx_mul(b, c);
    R x = cx_sub(ac, bd), y = cx_add(ad, bc);
    if (!isnan(x) || !isnan(y))
        return (C)(x, y);
    bool again = false;
    if (isinf(a) || isinf(b)) { /* z infinite */
        a = cx_unit(a), b = cx_unit(b);
        c = cx_nan0(c), d = cx_nan0(d);
        again = true;
    }
    if (isinf(c) || isinf(d)) { /* w infinite */
        c = cx_unit(c), d = cx_unit(d);
        a = cx_nan0(a), b = cx_nan0(b);
        again = true;
    }
    if (!again && (isinf(ac) || isinf(bd) || isinf(ad) || isinf(bc))) { /* a product overflowed */
        a = cx_nan0(a), b = cx_nan0(b);
        c = cx_nan0(c), d = cx_nan0(d);
        again = true;
    }
    if (again)
        return (C)(cx_mul((R)INFINITY, cx_sub(cx_mul(a, c), cx_mul(b, d))),
                   cx_mul((R)INFINITY, cx_add(cx_mul(a, d), cx_mul(b, c))));
    return (C)(x, y);
}
/* NumPy 2's pow: 0^b is 0 for Re b > 0; integral real exponents below 100 in magnitude by
 * repeated (plain) multiplication; otherwise exp(b log a) as the C library's cpow. */
static inline CX_OVL C c_pow(C a, C b)
{
    if (b.x == (R)0 && b.y == (R)0)
        return (C)((R)1, (R)0);
    if (a.x == (R)0 && a.y == (R)0)
        return b.x > (R)0 ? (C)((R)0, (R)0) : (C)((R)NAN, (R)NAN);
    if (b.y == (R)0 && b.x == floor(b.x) && fabs(b.x) < (R)100) {
        long n = (long)b.x, m = n < 0 ? -n : n;
        if (n == 1)
            return a;
        if (n == 2)
            return c_mul(a, a);
        if (n == 3)
            return c_mul(c_mul(a, a), a);
        C r = (C)((R)1, (R)0), p = a;
        for (long bit = 1;; bit <<= 1) {
            if (m & bit)
                r = c_mul(r, p);
            if (m < (bit << 1))
                break;
            p = c_mul(p, p);
        }
        return n < 0 ? c_div((C)((R)1, (R)0), r) : r;
    }
    return c_exp_1(c_mul_g(b, c_log_1(a)));
}
/* sinh and cosh: cosh x and sinh x times cis y, with Annex G's zeros and infinities */
static inline CX_OVL C c_sinh_1(C a)
{
    R x = a.x, y = a.y;
    if (y == (R)0)
        return (C)(sinh(x), y);
    if (!isfinite(y)) {
        if (x == (R)0)
            return (C)(x, y - y);
        if (isinf(x))
            return (C)((R)INFINITY, y - y);
        return (C)(y - y, y - y);
    }
    R ax = fabs(x);
    if (ax > CX_TANHBIG) { /* sinh = +-cosh = e^|x| / 2 */
        C e = c_expcis(ax, cos(y), sin(y), (R)0.5);
        return (C)(x < 0 ? -e.x : e.x, e.y);
    }
    return (C)(sinh(x) * cos(y), cosh(x) * sin(y));
}
static inline CX_OVL C c_cosh_1(C a)
{
    R x = a.x, y = a.y;
    if (y == (R)0)
        return (C)(cosh(x), isnan(x) ? y : copysign((R)1, x) * y);
    if (!isfinite(y)) {
        if (x == (R)0)
            return (C)(y - y, (R)0);
        if (isinf(x))
            return (C)((R)INFINITY, y - y);
        return (C)(y - y, y - y);
    }
    R ax = fabs(x);
    if (ax > CX_TANHBIG) {
        C e = c_expcis(ax, cos(y), sin(y), (R)0.5);
        return (C)(e.x, x < 0 ? -e.y : e.y);
    }
    return (C)(cosh(x) * cos(y), sinh(x) * sin(y));
}
/* tanh: Kahan's formula; +-1 + i 4 sin y cos y e^(-2|x|) where tanh x rounds to +-1; for
 * an infinite x and finite y the array API standard's +-1 + 0j with the sign of y (C99 and
 * NumPy take the zero's sign from sin 2y) */
static inline CX_OVL C c_tanh_1(C a)
{
    R x = a.x, y = a.y;
    if (isinf(x))
        return (C)(copysign((R)1, x), cx_copysign((R)0, y));
    if (isnan(x))
        return (C)(x, y == (R)0 ? y : x);
    if (!isfinite(y))
        return (C)(x == (R)0 ? x : y - y, y - y);
    if (fabs(x) > CX_TANHBIG)
        return (C)(copysign((R)1, x), (R)4 * sin(y) * cos(y) * exp((R)-2 * fabs(x)));
    R t = tan(y), beta = (R)1 + t * t, s = sinh(x), rho = sqrt((R)1 + s * s), d = (R)1 + beta * s * s;
    return (C)(beta * rho * s / d, t / d);
}
/* sin z = -i sinh(iz), cos z = cosh(iz), tan z = -i tanh(iz) */
static inline CX_OVL C c_sin_1(C a)
{
    R x = a.x, y = a.y;
    if (!isfinite(x)) /* as the C library NumPy uses */
        return (C)(x - x, y == (R)0 ? y : isinf(y) ? (R)INFINITY : x - x);
    C t = c_sinh_1((C)(cx_neg(y), x));
    return (C)(t.y, cx_neg(t.x));
}
static inline CX_OVL C c_cos_1(C a) { return c_cosh_1((C)(cx_neg(a.y), a.x)); }
static inline CX_OVL C c_tan_1(C a)
{
    C t = c_tanh_1((C)(cx_neg(a.y), a.x));
    return (C)(t.y, cx_neg(t.x));
}
/* asin: Kahan's formula with the square roots' branch cuts; past CX_BIG (and for
 * infinities) asin z = atan2(x, |y|) + i sign(y) log(2|z|) */
static inline CX_OVL C c_asin_1(C a)
{
    R x = a.x, y = a.y;
    if (isnan(x) || isnan(y)) {
        if (isinf(x) || isinf(y))
            return (C)(x - x + y - y, cx_copysign((R)INFINITY, y));
        return (C)(x == (R)0 ? x : x + y, x + y);
    }
    if (!isfinite(x) || !isfinite(y) || fmax(fabs(x), fabs(y)) > CX_BIG)
        return (C)(atan2(x, fabs(y)), copysign(c_loghypot(x, y) + CX_LN2, y));
    C s1 = c_sqrt_1((C)((R)1 - x, -y)), s2 = c_sqrt_1((C)((R)1 + x, y));
    return (C)(atan2(x, s1.x * s2.x - s1.y * s2.y), asinh(s1.x * s2.y - s1.y * s2.x));
}
/* acos: Kahan's formula; past CX_BIG atan2(|y|, x) - i sign(y) log(2|z|) */
static inline CX_OVL C c_acos_1(C a)
{
    R x = a.x, y = a.y;
    if (isnan(x) || isnan(y)) {
        if (isinf(x) || isinf(y))
            return (C)(x - x + y - y, cx_neg(cx_copysign((R)INFINITY, y)));
        return (C)(x == (R)0 ? CX_PI_2 : x + y, x + y);
    }
    if (!isfinite(x) || !isfinite(y) || fmax(fabs(x), fabs(y)) > CX_BIG)
        return (C)(atan2(fabs(y), x), -copysign(c_loghypot(x, y) + CX_LN2, y));
    C s1 = c_sqrt_1((C)((R)1 - x, -y)), s2 = c_sqrt_1((C)((R)1 + x, y));
    return (C)((R)2 * atan2(s1.x, s2.x), asinh(s2.x * s1.y - s2.y * s1.x));
}
/* asinh z = -i asin(iz) */
static inline CX_OVL C c_asinh_1(C a)
{
    C w = c_asin_1((C)(cx_neg(a.y), a.x));
    return (C)(w.y, cx_neg(w.x));
}
/* acosh z = +-i acos z: the real part >= 0, the imaginary part with the sign of y */
static inline CX_OVL C c_acosh_1(C a)
{
    C w = c_acos_1(a);
    if (isnan(a.y))
        return (C)(fabs(w.y), w.x);
    return (C)(fabs(w.y), signbit(a.y) ? cx_neg(w.x) : w.x);
}
/* atanh: Kahan's formula on |x| (atanh(-conj z) = -conj atanh z), log|1+z| - log|1-z|
 * near the pole at 1, x/|z|^2 + i sign(y) pi/2 past CX_BIG */
static inline CX_OVL C c_atanh_1(C a)
{
    R x = a.x, y = a.y, ax = fabs(x);
    if (isinf(x) || isinf(y))
        return (C)(cx_copysign((R)0, x), isnan(y) ? y : copysign(CX_PI_2, y));
    if (isnan(x) || isnan(y))
        return (C)(x == (R)0 ? x : x + y, x + y);
    R re, im;
    if (fmax(ax, fabs(y)) > CX_BIG) {
        R h = hypot(ax * (R)0.5, y * (R)0.5);
        re = (ax * (R)0.5) / h / h * (R)0.5;
        im = copysign(CX_PI_2, y);
    } else {
        R u = (R)1 - ax;
        if (fabs(u) + fabs(y) < (R)0.5)
            re = (R)0.5 * (c_loghypot((R)1 + ax, y) - c_loghypot(u, y));
        else
            re = (R)0.25 * log1p((R)4 * ax / (u * u + y * y));
        im = (R)0.5 * atan2((R)2 * y, u * ((R)1 + ax) - y * y);
    }
    return (C)(copysign(re, x), im);
}
/* atan z = -i atanh(iz) */
static inline CX_OVL C c_atan_1(C a)
{
    C w = c_atanh_1((C)(cx_neg(a.y), a.x));
    return (C)(w.y, cx_neg(w.x));
}
/* ---- 16 elements at once (cl/elementwise.cl's complex bodies): where both parts of an
 * element are ordinary for the function (normal or zero, inside the range where its formula
 * needs no scaling and no special value: cx_ok_<f>), its value is the formula over the
 * device's 16-lane functions (cx_v<f>); every other element is the one-element function
 * c_<f>_1 above, alone.  A 16-lane device function sees ordinary lanes only (the others
 * hold 0.5 meanwhile), and with -DEW_SPLAT (the host's choice where these bodies run) an
 * ordinary element outside a vector (a tail, a strided layout) is the 16-lane formula of 16
 * copies of itself: an element's value never depends on where it sits or on its neighbours
 * (doc/ops.md, "Lanes").  The formulas are c_<f>_1's for those elements, term by term;
 * cx_v<f> returns the lanes it computed (an intermediate value may leave a device function's
 * ordinary range: that element is c_<f>_1's too). */
#if CX_KIND == 1
#define RM int16
#else
#define RM long16
#endif
#define CX_TRIG_FAST 15 /* sin and cos reduce every lane alike up to it (EW_TRIG_FAST) */
#define CX_OK(v) (isnormal(v) | ((v) == (RV)0))
#define CX_OK_CIS(x, y, xmax) (CX_OK(x) & CX_OK(y) & ((x) <= (RV)(xmax)) & (fabs(y) <= (RV)CX_TRIG_FAST))
static inline CX_OVL RM cx_ok_exp(RV x, RV y) { return CX_OK_CIS(x, y, CX_EXPMAX); }
static inline CX_OVL RM cx_vexp(RV x, RV y, RV *rx, RV *ry)
{
    RV e = exp(x);
    *rx = cos(y) * e;
    *ry = select(sin(y) * e, y, y == (RV)0);
    return (RM)-1;
}
static inline CX_OVL RM cx_ok_expm1(RV x, RV y) { return CX_OK_CIS(x, y, CX_EXPMAX); }
static inline CX_OVL RM cx_vexpm1(RV x, RV y, RV *rx, RV *ry)
{
    RV s = sin(y * (RV)0.5), em = expm1(x);
    *rx = select(em * cos(y) - (RV)2 * s * s, em, y == (RV)0);
    *ry = select(exp(x) * sin(y), y, y == (RV)0);
    return (RM)-1;
}
static inline CX_OVL RM cx_ok_sinh(RV x, RV y) { return CX_OK_CIS(fabs(x), y, CX_TANHBIG); }
static inline CX_OVL RM cx_vsinh(RV x, RV y, RV *rx, RV *ry)
{
    *rx = select(sinh(x) * cos(y), sinh(x), y == (RV)0);
    *ry = select(cosh(x) * sin(y), y, y == (RV)0);
    return (RM)-1;
}
static inline CX_OVL RM cx_ok_cosh(RV x, RV y) { return CX_OK_CIS(fabs(x), y, CX_TANHBIG); }
static inline CX_OVL RM cx_vcosh(RV x, RV y, RV *rx, RV *ry)
{
    *rx = select(cosh(x) * cos(y), cosh(x), y == (RV)0);
    *ry = select(sinh(x) * sin(y), copysign((RV)1, x) * y, y == (RV)0);
    return (RM)-1;
}
/* cos z = cosh(iz), as c_cos_1 */
static inline CX_OVL RM cx_ok_cos(RV x, RV y) { return cx_ok_cosh(-y, x); }
static inline CX_OVL RM cx_vcos(RV x, RV y, RV *rx, RV *ry) { return cx_vcosh(-y, x, rx, ry); }
/* log1p's first branch (x > -1/2, |x|, |y| < 2); atan2(y, 1 + x) of a zero y is y */
static inline CX_OVL RM cx_ok_log1p(RV x, RV y)
{
    return CX_OK(x) & CX_OK(y) & (x > (RV)-0.5) & (fmax(fabs(x), fabs(y)) < (RV)2);
}
static inline CX_OVL RM cx_vlog1p(RV x, RV y, RV *rx, RV *ry)
{
    RV w = c_x2y2pc(x, y, (RV)2 * x);
    RM done = CX_OK(w);
    *rx = (RV)0.5 * log1p(select((RV)0.5, w, done));
    *ry = select(atan2(select(y, (RV)0.5, y == (RV)0), x + (RV)1), y, y == (RV)0);
    return done;
}
/* log|z| (c_loghypot's two unscaled branches) + i atan2(y, x) */
static inline CX_OVL RM cx_ok_log(RV x, RV y)
{
    RV m = fmax(fabs(x), fabs(y));
    return isnormal(x) & isnormal(y) & (m <= (RV)(CX_BIG * CX_BIG)) & (m >= (RV)CX_TINY);
}
static inline CX_OVL RM cx_vlog(RV x, RV y, RV *rx, RV *ry)
{
    RV ax = fmax(fabs(x), fabs(y)), ay = fmin(fabs(x), fabs(y)), w = c_x2y2pc(ax, ay, (RV)-1);
    RM near = (ax >= (RV)0.5) & (ax <= (RV)2) & (ay < (RV)1), done = CX_OK(w) | !near;
    *rx = select(log(cx_hypot(ax, ay)), (RV)0.5 * log1p(select((RV)0.5, w, CX_OK(w))), near);
    *ry = atan2(y, x);
    return done;
}
static inline CX_OVL RM cx_ok_log2(RV x, RV y) { return cx_ok_log(x, y); }
static inline CX_OVL RM cx_vlog2(RV x, RV y, RV *rx, RV *ry)
{
    RM done = cx_vlog(x, y, rx, ry);
    *rx *= (RV)M_LOG2E;
    *ry *= (RV)M_LOG2E;
    return done;
}
static inline CX_OVL RM cx_ok_log10(RV x, RV y) { return cx_ok_log(x, y); }
static inline CX_OVL RM cx_vlog10(RV x, RV y, RV *rx, RV *ry)
{
    RM done = cx_vlog(x, y, rx, ry);
    *rx *= (RV)M_LOG10E;
    *ry *= (RV)M_LOG10E;
    return done;
}
/* sqrt without scaling (and of 0, y) */
static inline CX_OVL RM cx_ok_sqrt(RV x, RV y)
{
    RV m = fmax(fabs(x), fabs(y));
    return CX_OK(x) & CX_OK(y) & (m <= (RV)(CX_BIG * CX_BIG)) & ((m >= (RV)CX_TINY) | (m == (RV)0));
}
static inline CX_OVL RM cx_vsqrt(RV x, RV y, RV *rx, RV *ry)
{
    RV t = sqrt((RV)0.5 * (fabs(x) + cx_hypot(x, y)));
    RM zero = (x == (RV)0) & (y == (RV)0), pos = x >= (RV)0;
    *rx = select(select(fabs(y) / ((RV)2 * t), t, pos), (RV)0, zero);
    *ry = select(select(copysign(t, y), y / ((RV)2 * t), pos), y, zero);
    return (RM)-1;
}
/* Kahan's asin and acos below CX_BIG, through the square roots above; acosh from acos as
 * c_acosh_1 */
static inline CX_OVL RM cx_ok_acos(RV x, RV y)
{
    return CX_OK(x) & CX_OK(y) & (fmax(fabs(x), fabs(y)) <= (RV)CX_BIG) & cx_ok_sqrt((RV)1 - x, -y) &
           cx_ok_sqrt((RV)1 + x, y);
}
static inline CX_OVL RM cx_ok_asin(RV x, RV y) { return cx_ok_acos(x, y) & isnormal(x); }
static inline CX_OVL RM cx_vasin(RV x, RV y, RV *rx, RV *ry)
{
    RV ax, ay, bx, by;
    cx_vsqrt((RV)1 - x, -y, &ax, &ay);
    cx_vsqrt((RV)1 + x, y, &bx, &by);
    RV d = ax * bx - ay * by, v = ax * by - ay * bx;
    RM done = isnormal(d) & CX_OK(v);
    *rx = atan2(x, select((RV)0.5, d, done));
    *ry = asinh(select((RV)0.5, v, done));
    return done;
}
static inline CX_OVL RM cx_vacos(RV x, RV y, RV *rx, RV *ry)
{
    RV ax, ay, bx, by;
    cx_vsqrt((RV)1 - x, -y, &ax, &ay);
    cx_vsqrt((RV)1 + x, y, &bx, &by);
    RV v = bx * ay - by * ax;
    RM done = isnormal(ax) & isnormal(bx) & CX_OK(v);
    *rx = (RV)2 * atan2(select((RV)0.5, ax, done), select((RV)0.5, bx, done));
    *ry = asinh(select((RV)0.5, v, done));
    return done;
}
static inline CX_OVL RM cx_ok_acosh(RV x, RV y) { return cx_ok_acos(x, y); }
static inline CX_OVL RM cx_vacosh(RV x, RV y, RV *rx, RV *ry)
{
    RV wx, wy;
    RM done = cx_vacos(x, y, &wx, &wy);
    *rx = fabs(wy);
    *ry = select(wx, -wx, signbit(y));
    return done;
}
/* exp(z ln 2) */
static inline CX_OVL RM cx_ok_exp2(RV x, RV y)
{
    return CX_OK(x) & CX_OK(y) & cx_ok_exp(x * (RV)CX_LN2, y * (RV)CX_LN2);
}
static inline CX_OVL RM cx_vexp2(RV x, RV y, RV *rx, RV *ry) { return cx_vexp(x * (RV)CX_LN2, y * (RV)CX_LN2, rx, ry); }
/* Kahan's tanh where tanh x does not round to +-1 */
static inline CX_OVL RM cx_ok_tanh(RV x, RV y) { return CX_OK_CIS(fabs(x), y, CX_TANHBIG); }
static inline CX_OVL RM cx_vtanh(RV x, RV y, RV *rx, RV *ry)
{
    RV t = tan(y), beta = (RV)1 + t * t, s = sinh(x), rho = sqrt((RV)1 + s * s), d = (RV)1 + beta * s * s;
    *rx = beta * rho * s / d;
    *ry = t / d;
    return (RM)-1;
}
/* Kahan's atanh away from the pole at 1 (|1 - |x|| + |y| >= 1/2) below CX_BIG */
static inline CX_OVL RM cx_ok_atanh(RV x, RV y)
{
    RV ax = fabs(x);
    return CX_OK(x) & isnormal(y) & (fmax(ax, fabs(y)) <= (RV)CX_BIG) & (fabs((RV)1 - ax) + fabs(y) >= (RV)0.5);
}
static inline CX_OVL RM cx_vatanh(RV x, RV y, RV *rx, RV *ry)
{
    RV ax = fabs(x), u = (RV)1 - ax, q = (RV)4 * ax / (u * u + y * y), d = u * ((RV)1 + ax) - y * y;
    RM done = CX_OK(q) & isnormal(d);
    *rx = copysign((RV)0.25 * log1p(select((RV)0.5, q, done)), x);
    *ry = (RV)0.5 * atan2((RV)2 * y, select((RV)0.5, d, done));
    return done;
}
/* f z = -i g(iz), as c_sin_1, c_tan_1, c_atan_1 and c_asinh_1 */
#define CX_DEF_ROTATED(f, g)                                                                     \
    static inline CX_OVL RM cx_ok_##f(RV x, RV y) { return cx_ok_##g(-y, x); }                  \
    static inline CX_OVL RM cx_v##f(RV x, RV y, RV *rx, RV *ry)                                  \
    {                                                                                            \
        RV tx, ty;                                                                               \
        RM done = cx_v##g(-y, x, &tx, &ty);                                                      \
        *rx = ty;                                                                                \
        *ry = -tx;                                                                               \
        return done;                                                                             \
    }
CX_DEF_ROTATED(sin, sinh)
CX_DEF_ROTATED(tan, tanh)
CX_DEF_ROTATED(atan, atanh)
CX_DEF_ROTATED(asinh, asin)
#undef CX_DEF_ROTATED
/* the functions of the table: the 16-lane formula of 16 copies where it applies (above) */
/* (f is pasted only: PoCL defines the names of its math functions as macros) */
#ifdef EW_SPLAT
#define CX_DEF_TABLE(f)                                                                          \
    static inline CX_OVL C c_##f(C a)                                                            \
    {                                                                                            \
        RV x = (RV)a.x, y = (RV)a.y, rx, ry;                                                     \
        if (!cx_ok_##f(x, y).s0 || !cx_v##f(x, y, &rx, &ry).s0)                                  \
            return c_##f##_1(a);                                                                 \
        return (C)(rx.s0, ry.s0);                                                                \
    }
#else
#define CX_DEF_TABLE(f)                                                                          \
    static inline CX_OVL C c_##f(C a) { return c_##f##_1(a); }
#endif
CX_DEF_TABLE(exp)
CX_DEF_TABLE(expm1)
CX_DEF_TABLE(sinh)
CX_DEF_TABLE(cosh)
CX_DEF_TABLE(sin)
CX_DEF_TABLE(cos)
CX_DEF_TABLE(log1p)
CX_DEF_TABLE(sqrt)
CX_DEF_TABLE(log)
CX_DEF_TABLE(log2)
CX_DEF_TABLE(log10)
CX_DEF_TABLE(asin)
CX_DEF_TABLE(acos)
CX_DEF_TABLE(asinh)
CX_DEF_TABLE(acosh)
CX_DEF_TABLE(atanh)
CX_DEF_TABLE(atan)
CX_DEF_TABLE(exp2)
CX_DEF_TABLE(tanh)
CX_DEF_TABLE(tan)
#undef RM
#undef CX_TRIG_FAST
#undef CX_OK
#undef CX_OK_CIS
#undef CX_DEF_TABLE
#undef CX_DEF_X2Y2PC
#undef C
#undef R
#undef RV
#undef CX_DEF_HYPOT
#undef CX_DEF_SIGN
#undef CX_DEF_RECIP
#undef CX_DEF_DIV
/* a fused expression's program may hold a complex64 and a complex128 copy */
#undef CX_BITS
#undef CX_FROM_BITS
#undef CX_SIGN
#undef CX_DEFAULT_NAN
#undef CX_BIG
#undef CX_TINY
#undef CX_UP
#undef CX_UPLOG
#undef CX_EXPMAX
#undef CX_TANHBIG
#undef CX_HYP_BIG
#undef CX_HYP_DOWN
#undef CX_HYP_SMALL
#undef CX_HYP_UP
#endif
