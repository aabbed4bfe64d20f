/* vmath.cl: float functions on 16 lanes in straight-line vector code, for the float32 and
 * float16 bodies of elementwise.cl (family "complex+vmath+elementwise"), which takes them in
 * place of the device's 16-lane built-ins where VM_PREFERRED says so.  PoCL 6.0's built-in
 * float16 pow is a double-float evaluation of about 600 instructions a vector (14 times
 * NumPy's AVX-512 loop); its sinh, cosh, cbrt, tan and logarithms are 2 to 4 times slower
 * than these.
 *
 * The lanes these see are ordinary (elementwise.cl, "lanes": finite, normal or zero, inside
 * the domain); special values never reach them.  Each is within the bounds of doc/ops.md:
 * exp, expm1, sinh, cosh and the logarithms in float with Cody and Waite's reduction (a
 * constant in two parts, so that k ln 2 is exact) and fdlibm's arrangement of log; pow,
 * cbrt, sin, cos and tan evaluated in double and rounded once, so that their float results
 * are within about half an ulp.  Coefficients are Taylor's (1/n!, 1/(2n+1)) over reduced
 * ranges short enough for float precision, so they need no table.  Every lane's value
 * depends on its own input only. */
#ifndef USMARR_VMATH_CL
#define USMARR_VMATH_CL
/* where elementwise.cl prefers them to the device's: PoCL (whose compiler defines
 * POCL_DEVICE_ADDRESS_BITS); Intel's CPU runtime's own are faster (SVML) */
#ifdef POCL_DEVICE_ADDRESS_BITS
#define VM_PREFERRED 1
#endif

#define VM_F float16
#define VM_I int16
#define VM_LN2_HI 0.693145751953125f /* 16 bits: k * VM_LN2_HI is exact for |k| < 256 */
#define VM_LN2_LO 1.42860682030941723212e-6f

/* 2^k as a float, for k in [-126, 127] */
static inline VM_F vm_pow2i(VM_I k) { return as_float16((k + 127) << 23); }

/* the nearest integer to |v| < 2^22 (ties to even), and it as an int: 1.5 2^23 added and
 * subtracted (a device's rint may be a longer sequence) */
#define VM_ROUNDER 12582912.0f
static inline VM_F vm_rint(VM_F v) { return (v + VM_ROUNDER) - VM_ROUNDER; }
static inline VM_I vm_irint(VM_F v) { return as_int16(v + VM_ROUNDER) - as_int((float)VM_ROUNDER); }

/* e^r for |r| <= 0.35 by Taylor to r^8 */
static inline VM_F vm_expr(VM_F r)
{
    VM_F p = fma(r, (VM_F)(1.0f / 40320), (VM_F)(1.0f / 5040));
    p = fma(p, r, (VM_F)(1.0f / 720));
    p = fma(p, r, (VM_F)(1.0f / 120));
    p = fma(p, r, (VM_F)(1.0f / 24));
    p = fma(p, r, (VM_F)(1.0f / 6));
    p = fma(p, r, (VM_F)0.5f);
    return fma(p * r, r, r) + 1.0f;
}

/* 2^s e^x for x in [-104, 90] (clamped there: e^x / 2 is 0 or infinite in float past it) and
 * s in {0, -1}: k = rint(x / ln 2), r = x - k ln 2 in [-0.35, 0.35], e^r by Taylor to r^8,
 * and 2^(k + s) in two factors, so that a subnormal result is rounded once. */
static inline VM_F vm_exps(VM_F x, int s)
{
    x = clamp(x, -104.0f, 90.0f);
    VM_F kf = vm_rint(x * 1.44269504088896341f);
    VM_F p = vm_expr(fma(-kf, (VM_F)VM_LN2_LO, fma(-kf, (VM_F)VM_LN2_HI, x)));
    VM_I k = vm_irint(x * 1.44269504088896341f) + s, k1 = k >> 1;
    return p * vm_pow2i(k1) * vm_pow2i(k - k1);
}

static inline VM_F vm_expf(VM_F x) { return vm_exps(x, 0); }

/* e^x - 1: e^r - 1 by Taylor to r^9 (no cancellation), then 2^k (e^r - 1) + (2^k - 1);
 * past 20, e^x itself */
static inline VM_F vm_expm1f(VM_F x)
{
    VM_F xc = clamp(x, -104.0f, 20.0f);
    VM_F kf = vm_rint(xc * 1.44269504088896341f);
    VM_F r = fma(-kf, (VM_F)VM_LN2_LO, fma(-kf, (VM_F)VM_LN2_HI, xc));
    VM_F p = fma(r, (VM_F)(1.0f / 362880), (VM_F)(1.0f / 40320));
    p = fma(p, r, (VM_F)(1.0f / 5040));
    p = fma(p, r, (VM_F)(1.0f / 720));
    p = fma(p, r, (VM_F)(1.0f / 120));
    p = fma(p, r, (VM_F)(1.0f / 24));
    p = fma(p, r, (VM_F)(1.0f / 6));
    p = fma(p, r, (VM_F)0.5f);
    p = fma(p * r, r, r);
    VM_I k = max(vm_irint(xc * 1.44269504088896341f), -60);
    VM_F t = vm_pow2i(k);
    return select(select(fma(t, p, t - 1.0f), vm_expf(x), x > 20.0f), x, x == 0.0f);
}

/* sinh and cosh from h = e^|x| / 2 (2^-1 applied with the scaling, so that h is finite
 * up to sinh's own overflow): sinh = h - 1 / (4h) past 1, an odd Taylor polynomial to
 * x^13 below; cosh = h + 1 / (4h) */
static inline VM_F vm_sinhf(VM_F x)
{
    VM_F ax = fabs(x), h = vm_exps(ax, -1), z = x * x;
    VM_F p = fma(z, (VM_F)(1.0f / 6227020800.0f), (VM_F)(1.0f / 39916800));
    p = fma(p, z, (VM_F)(1.0f / 362880));
    p = fma(p, z, (VM_F)(1.0f / 5040));
    p = fma(p, z, (VM_F)(1.0f / 120));
    p = fma(p, z, (VM_F)(1.0f / 6));
    VM_F small = fma(p * z, x, x);
    return select(copysign(h - 0.25f / h, x), small, ax < 1.0f);
}

static inline VM_F vm_coshf(VM_F x)
{
    VM_F h = vm_exps(fabs(x), -1);
    return h + 0.25f / h;
}

/* log x for positive normal x: x = (1 + f) 2^e with 1 + f in [sqrt(1/2), sqrt(2)) (f exact),
 * log(1 + f) = f - s (f - R), s = f / (2 + f), R the Taylor series of 2 atanh(s) / s - 2
 * to s^12 (|s| < 0.172): fdlibm's arrangement, whose leading term f is exact.  *e gets e. */
static inline VM_F vm_log1pm(VM_F x, VM_F *e)
{
    VM_I b = as_int16(x);
    VM_F m = as_float16((b & 0x007fffff) | 0x3f800000);
    VM_I big = m > 1.41421356f; /* -1 where true */
    m = select(m, m * 0.5f, big);
    *e = convert_float16(((b >> 23) & 0xff) - 127 - big);
    VM_F f = m - 1.0f, s = f / (2.0f + f), z = s * s;
    VM_F r = fma(z, (VM_F)(2.0f / 13), (VM_F)(2.0f / 11));
    r = fma(r, z, (VM_F)(2.0f / 9));
    r = fma(r, z, (VM_F)(2.0f / 7));
    r = fma(r, z, (VM_F)(2.0f / 5));
    r = fma(r, z, (VM_F)(2.0f / 3));
    return f - s * fma(-r, z, f);
}
static inline VM_F vm_logf(VM_F x)
{
    VM_F e, l = vm_log1pm(x, &e);
    return fma(e, (VM_F)VM_LN2_HI, fma(e, (VM_F)VM_LN2_LO, l));
}
static inline VM_F vm_log2f(VM_F x)
{
    VM_F e, l = vm_log1pm(x, &e);
    return fma(l, (VM_F)1.44269504088896341f, e);
}
static inline VM_F vm_log10f(VM_F x)
{
    VM_F e, l = vm_log1pm(x, &e);
    return fma(e, (VM_F)0.30102920532226562f, fma(l, (VM_F)0.434294481903251828f, e * 7.9034151668e-7f));
}
/* log1p x = log u + (x - (u - 1)) / u, u = 1 + x rounded (the quotient is what the rounding
 * lost) */
static inline VM_F vm_log1pf(VM_F x)
{
    VM_F u = 1.0f + x;
    return select(vm_logf(u) + (x - (u - 1.0f)) / u, x, u == 1.0f);
}

/* ---- inverse trigonometric and hyperbolic functions in float -------------------------------
 * Each an odd polynomial x + x z Q(z), z = x^2, on a reduced range (Q fitted there, relative
 * error 2^-21 or less), with the reductions of fdlibm and Cephes: no table.  Within 3 ulp. */
#define VM_PIO2_HI 1.57079637050628662109f /* pi/2 = VM_PIO2_HI + VM_PIO2_LO */
#define VM_PIO2_LO -4.37113900018624283e-8f

/* atan t for t in [0, 1]: Q of degree 8 in t^2 */
static inline VM_F vm_atan01(VM_F t)
{
    VM_F z = t * t;
    VM_F q = fma(z, (VM_F)-2.423499245e-03f, (VM_F)1.365566626e-02f);
    q = fma(q, z, (VM_F)-3.611548990e-02f);
    q = fma(q, z, (VM_F)6.271179020e-02f);
    q = fma(q, z, (VM_F)-8.666939288e-02f);
    q = fma(q, z, (VM_F)1.103639156e-01f);
    q = fma(q, z, (VM_F)-1.427890807e-01f);
    q = fma(q, z, (VM_F)1.999975592e-01f);
    q = fma(q, z, (VM_F)-3.333333135e-01f);
    return fma(t * z, q, t);
}
/* atan x = pi/2 - atan(1/x) past 1 */
static inline VM_F vm_atanf(VM_F x)
{
    VM_F a = fabs(x);
    VM_I inv = a > 1.0f;
    VM_F r = vm_atan01(select(a, 1.0f / a, inv));
    return copysign(select(r, VM_PIO2_HI + (VM_PIO2_LO - r), inv), x);
}
/* atan2(y, x) for normal x and y: atan of min(|x|, |y|) / max(|x|, |y|), then the octant */
static inline VM_F vm_atan2f(VM_F y, VM_F x)
{
    VM_F ax = fabs(x), ay = fabs(y);
    VM_I swap = ay > ax, back = x < 0.0f;
    VM_F r = vm_atan01(min(ax, ay) / max(ax, ay));
    r = select(r, VM_PIO2_HI + (VM_PIO2_LO - r), swap);
    r = select(r, 2.0f * VM_PIO2_HI + (2.0f * VM_PIO2_LO - r), back);
    return copysign(r, y);
}
/* acos x for |x| < 1: pi/2 - asin x up to 1/2, 2 asin(w) with w = sqrt((1 - |x|) / 2) past
 * it (pi - that for negative x); asin w = w + w z Q(z), Q of degree 4 on z in [0, 1/4] */
static inline VM_F vm_acosf(VM_F x)
{
    VM_F a = fabs(x);
    VM_I far = a > 0.5f;
    VM_F z = select(x * x, (1.0f - a) * 0.5f, far);
    VM_F w = select(a, sqrt(z), far);
    VM_F q = fma(z, (VM_F)3.819621727e-02f, (VM_F)2.649940737e-02f);
    q = fma(q, z, (VM_F)4.500989616e-02f);
    q = fma(q, z, (VM_F)7.498813421e-02f);
    q = fma(q, z, (VM_F)1.666667312e-01f);
    VM_F s = fma(w * z, q, w);
    VM_F s2 = 2.0f * s;
    VM_F outer = select(s2, 2.0f * VM_PIO2_HI + (2.0f * VM_PIO2_LO - s2), x < 0.0f);
    return select(VM_PIO2_HI + (VM_PIO2_LO - copysign(s, x)), outer, far);
}
/* atanh x for |x| < 1: Q of degree 5 below 1/2, log((1 + |x|) / (1 - |x|)) / 2 from there
 * (1 - |x| exact) */
static inline VM_F vm_atanhf(VM_F x)
{
    VM_F a = fabs(x), z = x * x;
    VM_F q = fma(z, (VM_F)1.579318941e-01f, (VM_F)6.467816979e-02f);
    q = fma(q, z, (VM_F)1.147543341e-01f);
    q = fma(q, z, (VM_F)1.426348984e-01f);
    q = fma(q, z, (VM_F)2.000048906e-01f);
    q = fma(q, z, (VM_F)3.333333135e-01f);
    VM_F big = copysign(0.5f * vm_logf((1.0f + a) / (1.0f - a)), x);
    return select(big, fma(x * z, q, x), a < 0.5f);
}
/* tanh x: Q of degree 4 below 0.55, 1 - 2 / (e^y + 1) from there, y = 2|x| up to 20 (tanh
 * rounds to 1 before), e^y as vm_exps's with 2^k in one factor (k <= 29) */
static inline VM_F vm_tanhf(VM_F x)
{
    VM_F a = fabs(x), z = x * x, y = min(2.0f * a, 20.0f);
    VM_F q = fma(z, (VM_F)-6.610372104e-03f, (VM_F)2.130947635e-02f);
    q = fma(q, z, (VM_F)-5.390944704e-02f);
    q = fma(q, z, (VM_F)1.333311349e-01f);
    q = fma(q, z, (VM_F)-3.333333135e-01f);
    VM_F kf = vm_rint(y * 1.44269504088896341f);
    VM_F p = vm_expr(fma(-kf, (VM_F)VM_LN2_LO, fma(-kf, (VM_F)VM_LN2_HI, y)));
    VM_F big = 1.0f - 2.0f / fma(p, vm_pow2i(vm_irint(y * 1.44269504088896341f)), 1.0f);
    return copysign(select(big, fma(a * z, q, a), a < 0.55f), x);
}

/* ---- in double: the float result rounded once from a value within about 1e-13 ------------ */
#ifdef cl_khr_fp64
#define VM_D double16
#define VM_L long16
#define VM_DLN2_HI 6.93147180369123816490e-01 /* fdlibm's: k * VM_DLN2_HI exact for |k| < 2^20 */
#define VM_DLN2_LO 1.90821492927058770002e-10

/* a^b for positive normal a and finite b: 2^(b log2 a) in double, the float result rounded
 * once from a value within 2^-28 (a subnormal one too).  a = m 2^e with m in [sqrt(1/2),
 * sqrt(2)), m = c (1 + t) for c the nearest of 2^(-1/3), 1 and 2^(1/3) (t in [-0.110, 0.123],
 * exact where c = 1), log2(1 + t) = t P(t), P of degree 7 (relative error 2^-35, fitted on
 * that interval); b log2 a = k + r with r in [-1/2, 1/2], 2^r by a polynomial of degree 6
 * (2^-29), 2^k from the bits.  No division and no table. */
static inline VM_F vm_powf(VM_F a, VM_F b)
{
    VM_I ib = as_int16(a);
    VM_I big = (ib & 0x007fffff) > 0x3504f3; /* m > sqrt(2): -1 */
    VM_D m = convert_double16(as_float16((ib & 0x007fffff) | select((VM_I)0x3f800000, (VM_I)0x3f000000, big)));
    VM_D e = convert_double16((ib >> 23) - 127 - big);
    VM_L lower = m < 0.8908987181403393, upper = m > 1.122462048309373; /* 2^(-1/6), 2^(1/6) */
    VM_D ic = select(select((VM_D)1.0, (VM_D)0.79370052598409974, upper), (VM_D)1.2599210498948732, lower);
    VM_D lc = e + select(select((VM_D)0.0, (VM_D)(1.0 / 3), upper), (VM_D)(-1.0 / 3), lower);
    VM_D t = fma(m, ic, -1.0);
    VM_D q = fma(t, (VM_D)-0.175649891610577, (VM_D)0.21021024549912307);
    q = fma(q, t, (VM_D)-0.2405856145719217);
    q = fma(q, t, (VM_D)0.2885059974397782);
    q = fma(q, t, (VM_D)-0.36067291864316514);
    q = fma(q, t, (VM_D)0.4808984326563596);
    q = fma(q, t, (VM_D)-0.721347521638197);
    q = fma(q, t, (VM_D)1.4426950408537844);
    VM_D p = clamp(convert_double16(b) * fma(t, q, lc), -160.0, 130.0);
    VM_D kf = (p + 6755399441055744.0) - 6755399441055744.0; /* rint */
    VM_D r = p - kf;
    VM_D x = fma(r, (VM_D)0.00015337707520528786, (VM_D)0.0013399861494064053);
    x = fma(x, r, (VM_D)0.009618519048734717);
    x = fma(x, r, (VM_D)0.055503289939924344);
    x = fma(x, r, (VM_D)0.24022646613196763);
    x = fma(x, r, (VM_D)0.6931472056027013);
    x = fma(x, r, (VM_D)1.0000000005914176);
    return convert_float16(x * as_double16((convert_long16(kf) + 1023) << 52));
}

/* ---- float64 pow: log in double-double, exp of a double-double ---------------------------- */

/* log x = hi + lo for positive normal x, relative error about 2^-62 (no table): x = m 2^e,
 * m in [sqrt(1/2), sqrt(2)), m = c (1 + t) with c the nearest of 203/256, 1 and 323/256 (so
 * m - c is exact), log m = log c + 2 atanh(s), s = (m - c) / (m + c) in [-0.059, 0.059] as a
 * double-double, 2 atanh(s) = 2s + Taylor's odd series from s^3 to s^15.  e ln 2 + log c is
 * exact in one double (both constants' high parts end at 2^-32). */
static inline VM_D vm_logdd(VM_D x, VM_D *lo)
{
    VM_L b = as_long16(x);
    VM_L big = (b & 0x000fffffffffffffL) > 0x6a09e667f3bcdL; /* m > sqrt(2): -1 */
    VM_D m = as_double16((b & 0x000fffffffffffffL) | 0x3ff0000000000000L);
    m = select(m, m * 0.5, big);
    VM_D e = convert_double16(((b >> 52) & 0x7ff) - 1023 - big);
    VM_L lower = m < 0.8905, upper = m > 1.1233;
    VM_D c = select(select((VM_D)1.0, (VM_D)1.26171875, upper), (VM_D)0.79296875, lower);
    VM_D lch = select(select((VM_D)0.0, (VM_D)0.23247487866319716, upper), (VM_D)-0.23197146551683545, lower);
    VM_D lcl = select(select((VM_D)0.0, (VM_D)7.98969051535542e-11, upper), (VM_D)7.906030807686644e-11, lower);
    VM_D f = m - c, uh = c + m, ul = m - (uh - c); /* m + c = uh + ul exactly */
    VM_D inv = 1.0 / uh, sh = f * inv;
    VM_D sl = (fma(-sh, uh, f) - sh * ul) * inv;
    VM_D z = sh * sh;
    VM_D q = fma(z, (VM_D)(2.0 / 15), (VM_D)(2.0 / 13));
    q = fma(q, z, (VM_D)(2.0 / 11));
    q = fma(q, z, (VM_D)(2.0 / 9));
    q = fma(q, z, (VM_D)(2.0 / 7));
    q = fma(q, z, (VM_D)(2.0 / 5));
    q = fma(q, z, (VM_D)(2.0 / 3));
    VM_D a = fma(e, (VM_D)VM_DLN2_HI, lch), s2 = 2.0 * sh; /* |a| > |s2| or a = 0 */
    VM_D hi = a + s2;
    VM_D l = ((a - hi) + s2) + (fma(e, (VM_D)VM_DLN2_LO, lcl) + fma(q * z, sh, 2.0 * sl));
    VM_D h = hi + l;
    *lo = l - (h - hi);
    return h;
}

/* (e^r - 1 - r) / r^2 for |r| <= ln 2 / 2, Taylor's to r^11 (e^r to r^13) */
static inline VM_D vm_expt(VM_D r)
{
    VM_D p = fma(r, (VM_D)(1.0 / 6227020800.0), (VM_D)(1.0 / 479001600));
    p = fma(p, r, (VM_D)(1.0 / 39916800));
    p = fma(p, r, (VM_D)(1.0 / 3628800));
    p = fma(p, r, (VM_D)(1.0 / 362880));
    p = fma(p, r, (VM_D)(1.0 / 40320));
    p = fma(p, r, (VM_D)(1.0 / 5040));
    p = fma(p, r, (VM_D)(1.0 / 720));
    p = fma(p, r, (VM_D)(1.0 / 120));
    p = fma(p, r, (VM_D)(1.0 / 24));
    p = fma(p, r, (VM_D)(1.0 / 6));
    p = fma(p, r, (VM_D)0.5);
    return p;
}

/* 2^s e^(h + l) for |l| below an ulp of h, s in {0, -1} (h clamped to [-746, 711]: 0 or
 * infinite beyond): r = h + l - k ln 2 (|r| <= ln 2 / 2, l carried into r), e^r by Taylor to r^13,
 * 2^(k + s) in two factors so that a subnormal result is rounded once */
static inline VM_D vm_expd2(VM_D h, VM_D l, int s)
{
    VM_L out = !(fabs(h) <= 746.0); /* whatever l holds (inf included) */
    h = clamp(h, -746.0, 711.0);
    l = select(l, (VM_D)0.0, out);
    VM_D kf = (h * 1.4426950408889634 + 6755399441055744.0) - 6755399441055744.0; /* rint */
    VM_D r = fma(-kf, (VM_D)VM_DLN2_HI, h) + fma(-kf, (VM_D)VM_DLN2_LO, l);
    VM_D p = fma(vm_expt(r) * r, r, r) + 1.0;
    VM_L k = convert_long16(kf) + s, k1 = k >> 1;
    return p * as_double16((k1 + 1023) << 52) * as_double16((k - k1 + 1023) << 52);
}

/* a^b for positive normal a and normal or zero b: e^(b log a), the product b (hi + lo) kept
 * in two parts into vm_expd2's reduction */
static inline VM_D vm_powd(VM_D a, VM_D b)
{
    VM_D ll, lh = vm_logdd(a, &ll);
    VM_D ph = b * lh;
    return vm_expd2(ph, fma(b, lh, -ph) + b * ll, 0);
}

/* cosh = h + 1 / (4h) for h = e^|x| / 2; sinh = h - 1 / (4h) past 1, Taylor's odd series to
 * x^19 below */
static inline VM_D vm_coshd(VM_D x)
{
    VM_D h = vm_expd2(fabs(x), (VM_D)0.0, -1);
    return h + 0.25 / h;
}
static inline VM_D vm_sinhd(VM_D x)
{
    VM_D h = vm_expd2(fabs(x), (VM_D)0.0, -1), z = x * x;
    VM_D p = fma(z, (VM_D)(1.0 / 121645100408832000.0), (VM_D)(1.0 / 355687428096000.0));
    p = fma(p, z, (VM_D)(1.0 / 1307674368000.0));
    p = fma(p, z, (VM_D)(1.0 / 6227020800.0));
    p = fma(p, z, (VM_D)(1.0 / 39916800));
    p = fma(p, z, (VM_D)(1.0 / 362880));
    p = fma(p, z, (VM_D)(1.0 / 5040));
    p = fma(p, z, (VM_D)(1.0 / 120));
    p = fma(p, z, (VM_D)(1.0 / 6));
    return select(copysign(h - 0.25 / h, x), fma(p * z, x, x), fabs(x) < 1.0);
}
/* e^x - 1: x = k ln 2 + r + c (|r| <= ln 2 / 2, c what r lost), e^(r + c) - 1 = r + u with u
 * by Taylor to r^13, then (2^k - 1 + 2^k r) + 2^k u (the first sum exact but for one
 * rounding), 2^k (1 + r + u) in two factors past k = 60; x clamped to [-40, 711] (-1 and
 * infinite beyond) */
static inline VM_D vm_expm1d(VM_D x)
{
    VM_D xc = clamp(x, -40.0, 711.0);
    VM_D kf = (xc * 1.4426950408889634 + 6755399441055744.0) - 6755399441055744.0; /* rint */
    VM_D rh = fma(-kf, (VM_D)VM_DLN2_HI, xc), rl = -kf * VM_DLN2_LO, r = rh + rl;
    VM_D c = (rh - r) + rl; /* what r lost */
    VM_D q = vm_expt(r) * r * r, u = fma(c, 1.0 + r + q, q);
    VM_L k = convert_long16(kf), k1 = k >> 1;
    VM_D f1 = as_double16((k1 + 1023) << 52), f2 = as_double16((k - k1 + 1023) << 52), t = f1 * f2;
    VM_D res = select(fma(t, u, fma(t, r, t - 1.0)), ((1.0 + r) + u) * f1 * f2, k > 60);
    return select(res, x, x == 0.0); /* expm1(-0) = -0 */
}

/* cbrt in double with one division (after fdlibm's, FreeBSD's arrangement): an estimate t
 * from the exponent's bits (|t / cbrt a - 1| < 1/32), t P(t^3 / a) to 23 bits (P of degree 4,
 * fdlibm's), t rounded to 22 bits so that t^2 is exact, then Halley's step
 * t - t c / (3a + 2c), c = t^3 - a by one fma, 1 / (3a + 2c) as (1 - 2c / 3a) / 3a (c / a is
 * below 2^-21): within about 0.6 ulp.  Past 2^1000, a 2^-60 and the root 2^20 (1 / a would be
 * subnormal). */
static inline VM_D vm_cbrtd(VM_D x)
{
    VM_L huge = fabs(x) > 0x1p1000; /* 1 / a would be subnormal: a 2^-60, then 2^20 */
    VM_D a = fabs(x) * select((VM_D)1.0, (VM_D)0x1p-60, huge), ra = 1.0 / a;
    VM_D t = as_double16(convert_long16(convert_double16(as_long16(a)) * (1.0 / 3)) + 0x2a9f789300000000L);
    VM_D r = t * t * (t * ra);
    t = t * (fma(fma(r, (VM_D)1.621429720105354466140, (VM_D)-1.88497979543377169875), r,
                 (VM_D)1.87595182427177009643) +
             r * r * r * fma(r, (VM_D)0.145996192886612446982, (VM_D)-0.758397934778766047437));
    t = as_double16((as_long16(t) + 0x80000000L) & (long)0xffffffffc0000000UL);
    VM_D c = fma(t * t, t, -a), g = ra * (1.0 / 3) * fma(c * (-2.0 / 3), ra, 1.0);
    return select(copysign(fma(-c * g, t, t) * select((VM_D)1.0, (VM_D)0x1p20, huge), x), x, x == 0.0);
}

/* cbrt: two float Newton steps from an estimate by the exponent's bits (|error| < 4 %,
 * then 2e-5), one in double (4e-10); y - (y^3 - a) / 3y^2 as (2y + a / y^2) / 3, whose
 * terms do not overflow near FLT_MAX */
static inline VM_F vm_cbrtf(VM_F x)
{
    VM_F a = fabs(x);
    VM_F y = as_float16(convert_int16(convert_float16(as_int16(a)) * (1.0f / 3)) + 0x2a5137a0);
    y = (2.0f * y + a / (y * y)) * (1.0f / 3);
    y = (2.0f * y + a / (y * y)) * (1.0f / 3);
    VM_D yd = convert_double16(y), ad = convert_double16(a);
    yd = (2.0 * yd + ad / (yd * yd)) * (1.0 / 3);
    return select(copysign(convert_float16(yd), x), x, x == 0.0f);
}

/* sin and cos of |x| <= 15 (elementwise.cl's EW_TRIG_FAST): r = x - k pi/2 in double (pi/2
 * in two parts), then the Taylor series of sin and cos to r^15 and r^16 on |r| <= pi/4 */
static inline void vm_sincosd(VM_F x, VM_D *s, VM_D *c, VM_L *q)
{
    VM_D xd = convert_double16(x);
    VM_D kf = (xd * 0.63661977236758134 + 6755399441055744.0) - 6755399441055744.0; /* rint */
    VM_D r = fma(-kf, (VM_D)6.12323399573676603587e-17, fma(-kf, (VM_D)1.57079632679489655800, xd));
    VM_D z = r * r;
    VM_D ps = fma(z, (VM_D)(-1.0 / 1307674368000.0), (VM_D)(1.0 / 6227020800.0));
    ps = fma(ps, z, (VM_D)(-1.0 / 39916800));
    ps = fma(ps, z, (VM_D)(1.0 / 362880));
    ps = fma(ps, z, (VM_D)(-1.0 / 5040));
    ps = fma(ps, z, (VM_D)(1.0 / 120));
    ps = fma(ps, z, (VM_D)(-1.0 / 6));
    VM_D pc = fma(z, (VM_D)(1.0 / 20922789888000.0), (VM_D)(-1.0 / 87178291200.0));
    pc = fma(pc, z, (VM_D)(1.0 / 479001600));
    pc = fma(pc, z, (VM_D)(-1.0 / 3628800));
    pc = fma(pc, z, (VM_D)(1.0 / 40320));
    pc = fma(pc, z, (VM_D)(-1.0 / 720));
    pc = fma(pc, z, (VM_D)(1.0 / 24));
    pc = fma(pc, z, (VM_D)-0.5);
    *s = fma(ps * z, r, r);
    *c = fma(pc, z, 1.0);
    *q = convert_long16(kf) & 3;
}
static inline VM_F vm_sinf(VM_F x)
{
    VM_D s, c;
    VM_L q;
    vm_sincosd(x, &s, &c, &q);
    VM_D r = select(s, c, (q & 1) != 0);
    return select(convert_float16(select(r, -r, (q & 2) != 0)), x, x == 0.0f); /* sin(-0) = -0 */
}
static inline VM_F vm_cosf(VM_F x)
{
    VM_D s, c;
    VM_L q;
    vm_sincosd(x, &s, &c, &q);
    VM_D r = select(c, -s, (q & 1) != 0);
    return convert_float16(select(r, -r, (q & 2) != 0));
}
static inline VM_F vm_tanf(VM_F x)
{
    VM_D s, c;
    VM_L q;
    vm_sincosd(x, &s, &c, &q);
    return select(convert_float16(select(s / c, -c / s, (q & 1) != 0)), x, x == 0.0f);
}
#endif /* cl_khr_fp64 */
#endif /* USMARR_VMATH_CL */
