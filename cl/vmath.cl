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
 * cbrt, sin, cos, tan and the inverse hyperbolic functions evaluated in double and rounded
 * once, so that their float results are within about half an ulp.  Coefficients are
 * Taylor's (1/n!, 1/(2n+1)) over reduced ranges short enough for float precision, so they
 * need no table.  Every lane's value depends on its own input only. */
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

/* 2^s e^x for x in [-104, 90] (clamped there: e^x / 2 is 0 or infinite in float past it) and
 * s in {0, -1}: k = rint(x / ln 2), r = x - k ln 2 in [-0.35, 0.35], e^r by Taylor to r^8,
 * and 2^(k + s) in two factors, so that a subnormal result is rounded once. */
static inline VM_F vm_exps(VM_F x, int s)
{
    x = clamp(x, -104.0f, 90.0f);
    VM_F kf = vm_rint(x * 1.44269504088896341f);
    VM_F r = fma(-kf, (VM_F)VM_LN2_LO, fma(-kf, (VM_F)VM_LN2_HI, x));
    VM_F p = fma(r, (VM_F)(1.0f / 40320), (VM_F)(1.0f / 5040));
    p = fma(p, r, (VM_F)(1.0f / 720));
    p = fma(p, r, (VM_F)(1.0f / 120));
    p = fma(p, r, (VM_F)(1.0f / 24));
    p = fma(p, r, (VM_F)(1.0f / 6));
    p = fma(p, r, (VM_F)0.5f);
    p = fma(p * r, r, r) + 1.0f;
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

/* ---- in double: the float result rounded once from a value within about 1e-13 ------------ */
#ifdef cl_khr_fp64
#define VM_D double16
#define VM_L long16
#define VM_DLN2_HI 6.93147180369123816490e-01 /* fdlibm's: k * VM_DLN2_HI exact for |k| < 2^20 */
#define VM_DLN2_LO 1.90821492927058770002e-10

/* log x for positive normal x: x = m 2^e with m in [sqrt(1/2), sqrt(2)), log m = 2 atanh(s),
 * s = (m - 1) / (m + 1) in [-0.172, 0.172], by Taylor to s^17 */
static inline VM_D vm_logd(VM_D x)
{
    VM_L b = as_long16(x);
    VM_L e = ((b >> 52) & 0x7ff) - 1023;
    VM_D m = as_double16((b & 0x000fffffffffffffL) | 0x3ff0000000000000L);
    VM_L big = m > 1.4142135623730951; /* -1 where true */
    m = select(m, m * 0.5, big);
    e -= big;
    VM_D s = (m - 1.0) / (m + 1.0), z = s * s;
    VM_D p = fma(z, (VM_D)(1.0 / 17), (VM_D)(1.0 / 15));
    p = fma(p, z, (VM_D)(1.0 / 13));
    p = fma(p, z, (VM_D)(1.0 / 11));
    p = fma(p, z, (VM_D)(1.0 / 9));
    p = fma(p, z, (VM_D)(1.0 / 7));
    p = fma(p, z, (VM_D)(1.0 / 5));
    p = fma(p, z, (VM_D)(1.0 / 3));
    VM_D l = 2.0 * fma(p * z, s, s);
    VM_D ed = convert_double16(e);
    return fma(ed, (VM_D)VM_DLN2_HI, fma(ed, (VM_D)VM_DLN2_LO, l));
}

/* e^z for z in [-110, 100] (clamped; beyond it the float result is 0 or infinite):
 * r = z - k ln 2 in [-0.35, 0.35], Taylor to r^11 */
static inline VM_D vm_expd(VM_D z)
{
    z = clamp(z, -110.0, 100.0);
    VM_D kf = (z * 1.4426950408889634 + 6755399441055744.0) - 6755399441055744.0; /* rint */
    VM_D r = fma(-kf, (VM_D)VM_DLN2_LO, fma(-kf, (VM_D)VM_DLN2_HI, z));
    VM_D p = fma(r, (VM_D)(1.0 / 39916800), (VM_D)(1.0 / 3628800));
    p = fma(p, r, (VM_D)(1.0 / 362880));
    p = fma(p, r, (VM_D)(1.0 / 40320));
    p = fma(p, r, (VM_D)(1.0 / 5040));
    p = fma(p, r, (VM_D)(1.0 / 720));
    p = fma(p, r, (VM_D)(1.0 / 120));
    p = fma(p, r, (VM_D)(1.0 / 24));
    p = fma(p, r, (VM_D)(1.0 / 6));
    p = fma(p, r, (VM_D)0.5);
    p = fma(p * r, r, r) + 1.0;
    return p * as_double16((convert_long16(kf) + 1023) << 52);
}

/* a^b for positive normal a and finite b: e^(b log a) in double */
static inline VM_F vm_powf(VM_F a, VM_F b)
{
    return convert_float16(vm_expd(convert_double16(b) * vm_logd(convert_double16(a))));
}

/* the inverse hyperbolic functions as logarithms in double; near 0, their Taylor terms */
static inline VM_F vm_asinhf(VM_F x)
{
    VM_D a = fabs(convert_double16(x));
    VM_D r = select(vm_logd(a + sqrt(fma(a, a, 1.0))), a * fma(a * a, -1.0 / 6, 1.0), a < 0x1p-12);
    return copysign(convert_float16(r), x);
}
static inline VM_F vm_acoshf(VM_F x)
{
    VM_D a = convert_double16(x);
    return convert_float16(vm_logd(a + sqrt(fma(a, a, -1.0))));
}
static inline VM_F vm_atanhf(VM_F x)
{
    VM_D a = fabs(convert_double16(x));
    VM_D r = select(0.5 * vm_logd((1.0 + a) / (1.0 - a)), a * fma(a * a, 1.0 / 3, 1.0), a < 0x1p-12);
    return copysign(convert_float16(r), x);
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
