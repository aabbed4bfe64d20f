/* elementwise_funcs.cl: the helpers that elementwise.cl's table calls, for the loop dtype
 * of the program (its EW_T, EW_TK, EW_TBITS, EW_CT and EW_VCT come from elementwise.cl,
 * which precedes this file in every program; a fused expression's program holds both
 * once per dtype it computes in, with EW_HELPERS_ONLY). */

/* ---- per-kind helpers ------------------------------------------------------------------- */
/* Bool results on 16 lanes: a comparison of 16-vectors (and isnan, signbit, ...) gives -1
 * or 0 in a signed integer of the operands' width; the stored bool is its low bit. */
#define EW_VB(m) (convert_uchar16(m) & (uchar)1)
#define EW_VTRUTH(a) ((a) != (EW_VCT)0)
#define EW_VLOGIC(op, a, b) EW_VB(EW_VTRUTH(a) op EW_VTRUTH(b))
#define EW_VCLIP(a, b, c) EW_VMINIMUM(EW_VMAXIMUM((a), (b)), (c))
/* r = f(x, y) lane by lane over 16-vectors: the integer vector forms */
#define EW_LANES16_2(r, f, x, y)                                                                         \
    (r).s0 = f((x).s0, (y).s0), (r).s1 = f((x).s1, (y).s1), (r).s2 = f((x).s2, (y).s2),                  \
    (r).s3 = f((x).s3, (y).s3), (r).s4 = f((x).s4, (y).s4), (r).s5 = f((x).s5, (y).s5),                  \
    (r).s6 = f((x).s6, (y).s6), (r).s7 = f((x).s7, (y).s7), (r).s8 = f((x).s8, (y).s8),                  \
    (r).s9 = f((x).s9, (y).s9), (r).sa = f((x).sa, (y).sa), (r).sb = f((x).sb, (y).sb),                  \
    (r).sc = f((x).sc, (y).sc), (r).sd = f((x).sd, (y).sd), (r).se = f((x).se, (y).se),                  \
    (r).sf = f((x).sf, (y).sf)
/* the 16-lane form of the table's function ID: ew_v<ID> of the loop dtype */
#define EW_VF1(f, a) EW_PASTE(ew_v##f##_, EW_T)(a)
#define EW_VF2(f, a, b) EW_PASTE(ew_v##f##_, EW_T)((a), (b))
/* ew_v<name>: two-operand f lane by lane, the 16-lane form of a function without one */
#define EW_VLANES2(name, f)                                                                              \
    static inline EW_VCT EW_PASTE(ew_v##name##_, EW_T)(EW_VCT a, EW_VCT b)                               \
    {                                                                                                    \
        EW_VCT r;                                                                                        \
        EW_LANES16_2(r, f, a, b);                                                                        \
        return r;                                                                                        \
    }
#if EW_TK == 4 /* complex */
#define EW_R_T USMARR_REAL(EW_T)
#define EW_NEG(a) (-(a))
#define EW_ABS(a) c_abs(a)
#define EW_SIGN(a) c_sign(a)
#define EW_RECIP(a) c_recip(a)
#define EW_MUL(a, b) c_mul_fma((a), (b))
#define EW_F1(f, a) c_##f(a)
#define EW_ROUNDING(f, a) ((EW_CT)(f((a).x), f((a).y)))
#define EW_CONJ(a) ((EW_CT)((a).x, -(a).y))
#define EW_REALPART(a) ((a).x)
#define EW_IMAGPART(a) ((a).y)
/* without branches (| and &), which a compiler that vectorises across work-items keeps */
#define EW_ISNAN(a) (isnan((a).x) | isnan((a).y))
#define EW_ISINF(a) (isinf((a).x) | isinf((a).y))
#define EW_ISFINITE(a) (isfinite((a).x) & isfinite((a).y))
#define EW_TRUTH(a) (((a).x != 0) | ((a).y != 0))
#define EW_ADD(a, b) ((a) + (b))
#define EW_DIV(a, b) c_div((a), (b))
#define EW_POW(a, b) c_pow((a), (b))
#define EW_MAXIMUM(a, b) ((c_isnan(a) || c_ge((a), (b))) ? (a) : (b))
#define EW_MINIMUM(a, b) ((c_isnan(a) || c_le((a), (b))) ? (a) : (b))
#define EW_FMAX(a, b) ((c_isnan(b) || c_ge((a), (b))) ? (a) : (b))
#define EW_FMIN(a, b) ((c_isnan(b) || c_le((a), (b))) ? (a) : (b))
#define EW_EQ(a, b) ((a).x == (b).x && (a).y == (b).y)
#define EW_LT(a, b) c_lt((a), (b))
#define EW_LE(a, b) c_le((a), (b))

#elif EW_TK == 3 /* float16 (computed in float), float32, float64 */
#define EW_NEG(a) (-(a))
#define EW_ABS(a) fabs(a)
#define EW_VABS(a) fabs(a)
#define EW_SIGN(a) ((a) > 0 ? (EW_CT)1 : (a) < 0 ? (EW_CT)-1 : (a) == 0 ? (EW_CT)0 : (a))
#define EW_VSIGN(a)                                                                                      \
    select(select(select((a), (EW_VCT)0, (a) == (EW_VCT)0), (EW_VCT)-1, (a) < (EW_VCT)0), (EW_VCT)1,      \
           (a) > (EW_VCT)0)
#define EW_RECIP(a) ((EW_CT)1 / (a))
#define EW_VRECIP(a) ((EW_VCT)1 / (a))
#define EW_MUL(a, b) ((a) * (b))
/* the lane-safe functions below (ew_s<f>: one element, ew_v<f>: 16 lanes) */
#define EW_F1(f, a) EW_PASTE(ew_s##f##_, EW_T)(a)
#define EW_F2(f, a, b) EW_PASTE(ew_s##f##_, EW_T)((a), (b))
#define EW_ROUNDING(f, a) f(a)
#define EW_VROUNDING(f, a) f(a)
#define EW_CONJ(a) (a)
#define EW_REALPART(a) (a)
#define EW_IMAGPART(a) ((EW_CT)0)
#define EW_ISNAN(a) (isnan(a) != 0)
#define EW_ISINF(a) (isinf(a) != 0)
#define EW_ISFINITE(a) (isfinite(a) != 0)
#define EW_VISNAN(a) EW_VB(isnan(a))
#define EW_VISINF(a) EW_VB(isinf(a))
#define EW_VISFINITE(a) EW_VB(isfinite(a))
#define EW_TRUTH(a) ((a) != 0)
#define EW_ADD(a, b) ((a) + (b))
#define EW_DIV(a, b) ((a) / (b))
#define EW_POW(a, b) EW_F2(pow, a, b)
#define EW_MAXIMUM(a, b) (((a) >= (b) || isnan(a)) ? (a) : (b))
#define EW_MINIMUM(a, b) (((a) <= (b) || isnan(a)) ? (a) : (b))
#define EW_FMAX(a, b) (((a) >= (b) || isnan(b)) ? (a) : (b))
#define EW_FMIN(a, b) (((a) <= (b) || isnan(b)) ? (a) : (b))
#define EW_VMAXIMUM(a, b) select((b), (a), ((a) >= (b)) | isnan(a))
#define EW_VMINIMUM(a, b) select((b), (a), ((a) <= (b)) | isnan(a))
#define EW_VFMAX(a, b) select((b), (a), ((a) >= (b)) | isnan(b))
#define EW_VFMIN(a, b) select((b), (a), ((a) <= (b)) | isnan(b))
#define EW_EQ(a, b) ((a) == (b))
#define EW_LT(a, b) ((a) < (b))
#define EW_LE(a, b) ((a) <= (b))
/* exp, sinh and cosh past EW_EXP_SAFE as 4 exp(x - 2 ln 2) and 2 exp(|x| - 2 ln 2), ln 2 in
 * two parts (fdlibm's: x - 2 EW_LN2_HI is exact there), so that the device's exp never
 * sees an argument near its overflow: PoCL 6.0's exp gives inf just below log(DBL_MAX)
 * (709.78271289338352; in float just below log(FLT_MAX)) and its sinh and cosh NaN just
 * below their overflow (710.4758600739438).  The results stay within 2 ulp up to the
 * overflow.  exp calls the device's exp once, on the argument already chosen: a compiler
 * that vectorises across work-items evaluates both arms of a conditional (Intel's runtime:
 * 4.8 ms with two calls, 3.0 to 3.4 ms with one, for 16M float32). */
#if EW_TBITS == 64
#define EW_EXP_SAFE 709.0
#define EW_LN2_HI 6.93147180369123816490e-01
#define EW_LN2_LO 1.90821492927058770002e-10
#else
#define EW_EXP_SAFE 88.0f
#define EW_LN2_HI 6.9314575195e-01f
#define EW_LN2_LO 1.4286067653e-06f
#endif
#define EW_EXP_HALF(ax) ((EW_CT)2 * (exp((ax) - 2 * EW_LN2_HI) * ((EW_CT)1 - 2 * EW_LN2_LO))) /* exp(ax) / 2 */
#define ew_exp EW_PASTE(ew_exp_, EW_T)
static inline EW_CT ew_exp(EW_CT x)
{
    EW_CT r = exp(x > EW_EXP_SAFE ? x - 2 * EW_LN2_HI : x);
    return x > EW_EXP_SAFE ? (EW_CT)4 * (r * ((EW_CT)1 - 2 * EW_LN2_LO)) : r;
}
#define ew_sinh EW_PASTE(ew_sinh_, EW_T)
static inline EW_CT ew_sinh(EW_CT x) { return fabs(x) > EW_EXP_SAFE ? copysign(EW_EXP_HALF(fabs(x)), x) : sinh(x); }
#define ew_cosh EW_PASTE(ew_cosh_, EW_T)
static inline EW_CT ew_cosh(EW_CT x) { return fabs(x) > EW_EXP_SAFE ? EW_EXP_HALF(fabs(x)) : cosh(x); }
#define EW_VEXP_HALF(ax) ((EW_VCT)2 * (exp((ax) - (EW_VCT)(2 * EW_LN2_HI)) * (EW_VCT)((EW_CT)1 - 2 * EW_LN2_LO)))
#define ew_uexp EW_PASTE(ew_uexp_, EW_T)
static inline EW_VCT ew_uexp(EW_VCT x)
{
    EW_VCT r = exp(select(x, x - (EW_VCT)(2 * EW_LN2_HI), x > (EW_VCT)EW_EXP_SAFE));
    return select(r, (EW_VCT)4 * (r * (EW_VCT)((EW_CT)1 - 2 * EW_LN2_LO)), x > (EW_VCT)EW_EXP_SAFE);
}
#define ew_usinh EW_PASTE(ew_usinh_, EW_T)
static inline EW_VCT ew_usinh(EW_VCT x)
{
    EW_VCT ax = fabs(x);
    return select(sinh(x), copysign(EW_VEXP_HALF(ax), x), ax > (EW_VCT)EW_EXP_SAFE);
}
#define ew_ucosh EW_PASTE(ew_ucosh_, EW_T)
static inline EW_VCT ew_ucosh(EW_VCT x)
{
    EW_VCT ax = fabs(x);
    return select(cosh(x), EW_VEXP_HALF(ax), ax > (EW_VCT)EW_EXP_SAFE);
}
/* NumPy's npy_logaddexp, with one exp and one log1p: exp(-|t|) is exp(-t) where t > 0 and
 * exp(t) where t < 0 (vectorised, NumPy's two branches each called both: Intel's runtime
 * took 3.9 ms for 4M float32 so, 2.1 to 2.3 ms now) */
#define ew_logaddexp EW_PASTE(ew_logaddexp_, EW_T)
static inline EW_CT ew_logaddexp(EW_CT x, EW_CT y)
{
    if (x == y)
        return x + (EW_CT)M_LN2; /* handles infinities of the same sign */
    EW_CT t = x - y;
    EW_CT r = (t > 0 ? x : y) + log1p(exp(-fabs(t)));
    return isnan(t) ? t : r;
}
#define ew_ulogaddexp EW_PASTE(ew_ulogaddexp_, EW_T)
static inline EW_VCT ew_ulogaddexp(EW_VCT x, EW_VCT y)
{
    EW_VCT t = x - y;
    EW_VCT r = select(y, x, t > (EW_VCT)0) + log1p(exp(-fabs(t)));
    return select(r, x + (EW_VCT)M_LN2, x == y);
}

/* tanh(+-inf) is +-1 (PoCL 6.0's one-lane float tanh gives 0.99999994) */
#define ew_tanh EW_PASTE(ew_tanh_, EW_T)
static inline EW_CT ew_tanh(EW_CT x) { return isinf(x) ? copysign((EW_CT)1, x) : tanh(x); }
/* the 16-lane bodies: vmath.cl's for float (and float16) where it prefers them, else the
 * device's */
#if EW_TBITS == 64 || !defined(VM_PREFERRED)
#define EW_VM_EXP ew_uexp
#define EW_VM_EXPM1 expm1
#define EW_VM_SINH ew_usinh
#define EW_VM_COSH ew_ucosh
#define EW_VM_ATAN atan
#define EW_VM_ATAN2 atan2
#define EW_VM_ACOS acos
#define EW_VM_ATANH atanh
#define EW_VM_TANH tanh
#else
#define EW_VM_EXP vm_expf
#define EW_VM_EXPM1 vm_expm1f
#define EW_VM_SINH vm_sinhf
#define EW_VM_COSH vm_coshf
#define EW_VM_ATAN vm_atanf
#define EW_VM_ATAN2 vm_atan2f
#define EW_VM_ACOS vm_acosf
#define EW_VM_ATANH vm_atanhf
#define EW_VM_TANH vm_tanhf
#endif
#if EW_TBITS == 64 || !defined(VM_PREFERRED) || !defined(VM_D)
#define EW_VM_CBRT cbrt
#define EW_VM_LOG log
#define EW_VM_LOG2 log2
#define EW_VM_LOG10 log10
#define EW_VM_LOG1P log1p
#define EW_VM_SIN sin
#define EW_VM_COS cos
#define EW_VM_TAN tan
#define EW_VM_POW pow
#else
#define EW_VM_CBRT vm_cbrtf
#define EW_VM_LOG vm_logf
#define EW_VM_LOG2 vm_log2f
#define EW_VM_LOG10 vm_log10f
#define EW_VM_LOG1P vm_log1pf
#define EW_VM_SIN vm_sinf
#define EW_VM_COS vm_cosf
#define EW_VM_TAN vm_tanf
#define EW_VM_POW vm_powf
#endif
#if EW_TBITS == 64 && defined(VM_PREFERRED) && defined(VM_D)
#undef EW_VM_POW
#undef EW_VM_EXPM1
#undef EW_VM_SINH
#undef EW_VM_COSH
#undef EW_VM_CBRT
#define EW_VM_CBRT vm_cbrtd
#define EW_VM_POW vm_powd
#define EW_VM_EXPM1 vm_expm1d
#define EW_VM_SINH vm_sinhd
#define EW_VM_COSH vm_coshd
#endif
/* pow of 16 lanes whose exponents are integers where the base is negative: the sign of
 * (-1)^b times |a|^b (b is odd where b / 2 is not an integer: exact, and every b of 2^53 or
 * more is even) */
#define ew_upow EW_PASTE(ew_upow_, EW_T)
static inline EW_VCT ew_upow(EW_VCT a, EW_VCT b)
{
    EW_VCT r = EW_VM_POW(fabs(a), b), h = b * (EW_VCT)0.5f;
    return select(r, -r, (a < (EW_VCT)0) & (h != trunc(h)));
}
/* ---- lanes (doc/ops.md, "Lanes") -------------------------------------------------------
 * A device's 16-lane math function may take one path for all its lanes when one lane needs
 * it, and that path may be wrong for the others: PoCL 6.0's sin, cos and tan gave 0.008 for
 * sin(0.001) beside an infinite lane, its fmod on AVX-512 0.1 for fmod(0.1, 0.001) beside a
 * zero divisor.  So a 16-lane function here sees ordinary lanes only: EW_OK_* says which
 * lanes are (finite, not subnormal, inside the function's domain; trigonometric arguments up
 * to EW_TRIG_FAST, which every lane reduces the same way).  The others hold a benign value
 * for the 16-lane call and are computed again one at a time with the one-lane function
 * (EW_FIX16), whose special values are C99's, as NumPy's; normal inputs outside the domain
 * (EW_NAN_*: log of a negative, acosh below 1, ...) are NaN without a call.
 * PoCL's one-lane functions also differ from its 16-lane ones in the last place (exp(1.0) in
 * float64; about 8 % of exp's inputs).  In a program built with -DEW_SPLAT (the host's
 * choice, for kernel shapes that run 16-lane bodies), an ordinary element outside a vector (a
 * tail, a strided layout) is computed as the 16-lane function of 16 copies of itself: an
 * element's value never depends on where it sits or on what sits next to it. */
#if EW_TBITS == 64
#define EW_VMASK long16
#else
#define EW_VMASK int16
#endif
/* Every lane of a mask set, as one reduction where the compiler has it: PoCL's all() tested
 * the lanes of an int16 pairwise, eight extractions and branches a 16-vector, which made the
 * 16M float32 exp 2.5-3 times as long as a raw kernel of the same polynomial. */
#ifdef __has_builtin
#if __has_builtin(__builtin_reduce_and)
#define EW_ALL(m) (__builtin_reduce_and(m) != 0)
#define EW_ANY(m) (__builtin_reduce_or(m) != 0)
#endif
#endif
#ifndef EW_ALL
#define EW_ALL(m) all(m)
#define EW_ANY(m) any(m)
#endif
#define EW_TRIG_FAST 15
#define EW_OK_ANY(x) (isnormal(x) | ((x) == 0))
#define EW_OK_POS(x) (isnormal(x) & ((x) > 0))
#define EW_OK_UNIT(x) (EW_OK_ANY(x) & (fabs(x) < 1))
#define EW_OK_ACOSH(x) (isnormal(x) & ((x) >= 1))
#define EW_OK_LOG1P(x) (EW_OK_ANY(x) & ((x) > -1))
#define EW_OK_TRIG(x) (EW_OK_ANY(x) & (fabs(x) <= EW_TRIG_FAST))
#define EW_OK_2(x, y) (EW_OK_ANY(x) & EW_OK_ANY(y))
#define EW_OK_POW(x, y) (isnormal(x) & EW_OK_ANY(y) & (((x) > 0) | ((y) == trunc(y))))
#define EW_OK_ATAN2(x, y) (isnormal(x) & isnormal(y))
/* the normal inputs outside the domain, whose value is NaN without any call */
#define EW_NAN_NONE(x) ((x) < (x))
#define EW_NAN_NONE2(x, y) ((x) < (x))
#define EW_NAN_NEG(x) (isnormal(x) & ((x) < 0))
#define EW_NAN_UNIT(x) (isnormal(x) & (fabs(x) > 1))
#define EW_NAN_ACOSH(x) (isnormal(x) & ((x) < 1))
#define EW_NAN_LOG1P(x) (isnormal(x) & ((x) < -1))
#define EW_NAN_POW(x, y) (isnormal(x) & ((x) < 0) & EW_OK_ANY(y) & ((y) != trunc(y)))
#define EW_FIX1(R_, F_, X_, G_, k) if (!(G_).s##k) (R_).s##k = F_((X_).s##k);
#define EW_FIX16(R_, F_, X_, G_)                                                                         \
    EW_FIX1(R_, F_, X_, G_, 0) EW_FIX1(R_, F_, X_, G_, 1) EW_FIX1(R_, F_, X_, G_, 2)                     \
    EW_FIX1(R_, F_, X_, G_, 3) EW_FIX1(R_, F_, X_, G_, 4) EW_FIX1(R_, F_, X_, G_, 5)                     \
    EW_FIX1(R_, F_, X_, G_, 6) EW_FIX1(R_, F_, X_, G_, 7) EW_FIX1(R_, F_, X_, G_, 8)                     \
    EW_FIX1(R_, F_, X_, G_, 9) EW_FIX1(R_, F_, X_, G_, a) EW_FIX1(R_, F_, X_, G_, b)                     \
    EW_FIX1(R_, F_, X_, G_, c) EW_FIX1(R_, F_, X_, G_, d) EW_FIX1(R_, F_, X_, G_, e)                     \
    EW_FIX1(R_, F_, X_, G_, f)
#define EW_FIX2(R_, F_, X_, Y_, G_, k) if (!(G_).s##k) (R_).s##k = F_((X_).s##k, (Y_).s##k);
#define EW_FIX16_2(R_, F_, X_, Y_, G_)                                                                   \
    EW_FIX2(R_, F_, X_, Y_, G_, 0) EW_FIX2(R_, F_, X_, Y_, G_, 1) EW_FIX2(R_, F_, X_, Y_, G_, 2)         \
    EW_FIX2(R_, F_, X_, Y_, G_, 3) EW_FIX2(R_, F_, X_, Y_, G_, 4) EW_FIX2(R_, F_, X_, Y_, G_, 5)         \
    EW_FIX2(R_, F_, X_, Y_, G_, 6) EW_FIX2(R_, F_, X_, Y_, G_, 7) EW_FIX2(R_, F_, X_, Y_, G_, 8)         \
    EW_FIX2(R_, F_, X_, Y_, G_, 9) EW_FIX2(R_, F_, X_, Y_, G_, a) EW_FIX2(R_, F_, X_, Y_, G_, b)         \
    EW_FIX2(R_, F_, X_, Y_, G_, c) EW_FIX2(R_, F_, X_, Y_, G_, d) EW_FIX2(R_, F_, X_, Y_, G_, e)         \
    EW_FIX2(R_, F_, X_, Y_, G_, f)
/* ew_v<ID> (16 lanes) and ew_s<name> (one element) of the one-lane f and the 16-lane vf,
 * whose ordinary lanes ok() accepts and for which `benign` is one.  The 16-lane forms are
 * named by the table's ID: PoCL's headers define the math functions' names as macros, which
 * the table's vector column would expand before they are pasted. */
#ifdef EW_SPLAT
#define EW_SPLAT1(ID, ok, f, x) ((ok(x)) ? EW_PASTE(ew_v##ID##_, EW_T)((EW_VCT)(x)).s0 : f(x))
#define EW_SPLAT2(ID, ok, f, x, y)                                                                       \
    ((ok(x, y)) ? EW_PASTE(ew_v##ID##_, EW_T)((EW_VCT)(x), (EW_VCT)(y)).s0 : f(x, y))
#else
#define EW_SPLAT1(ID, ok, f, x) f(x)
#define EW_SPLAT2(ID, ok, f, x, y) f(x, y)
#endif
/* The 16-lane forms are inlined where a program computes one function (EW_OP) or a fused
 * expression: left as calls in the elementwise family's large program, each call loaded the
 * polynomial's constants again, and PoCL's 16M float32 exp took 1.04-1.07 times the time of
 * the inlined one (interleaved in one process; about 45 instructions a vector against 58 and
 * a call).  A program that switches between every function of a signature (EW_SC) keeps the
 * calls: one kernel with every body inlined would compile for longer. */
#ifdef EW_SC
#define EW_VINLINE
#else
#define EW_VINLINE __attribute__((always_inline))
#endif
#define EW_LANE_SAFE1(ID, name, f, vf, ok, nan_in, benign)                                               \
    static inline EW_VINLINE EW_VCT EW_PASTE(ew_v##ID##_, EW_T)(EW_VCT x)                              \
    {                                                                                                    \
        EW_VMASK g = ok(x), nn = nan_in(x);                                                              \
        EW_VCT r = select(vf(select((EW_VCT)(benign), x, g)), (EW_VCT)NAN, nn);                          \
        if (!EW_ALL(g | nn)) {                                                                              \
            g |= nn;                                                                                     \
            EW_FIX16(r, f, x, g)                                                                         \
        }                                                                                                \
        return r;                                                                                        \
    }                                                                                                    \
    static inline EW_CT EW_PASTE(ew_s##name##_, EW_T)(EW_CT x) { return EW_SPLAT1(ID, ok, f, x); }
#define EW_LANE_SAFE2(ID, name, f, vf, ok, nan_in, benign)                                               \
    static inline EW_VINLINE EW_VCT EW_PASTE(ew_v##ID##_, EW_T)(EW_VCT x, EW_VCT y)                    \
    {                                                                                                    \
        EW_VMASK g = ok(x, y), nn = nan_in(x, y);                                                        \
        EW_VCT r = vf(select((EW_VCT)(benign), x, g), select((EW_VCT)(benign), y, g));                   \
        r = select(r, (EW_VCT)NAN, nn);                                                                  \
        if (!EW_ALL(g | nn)) {                                                                              \
            g |= nn;                                                                                     \
            EW_FIX16_2(r, f, x, y, g)                                                                    \
        }                                                                                                \
        return r;                                                                                        \
    }                                                                                                    \
    static inline EW_CT EW_PASTE(ew_s##name##_, EW_T)(EW_CT x, EW_CT y) { return EW_SPLAT2(ID, ok, f, x, y); }
/* One line a function: its domain test and a benign value inside the domain. */
EW_LANE_SAFE1(CBRT, cbrt, cbrt, EW_VM_CBRT, EW_OK_ANY, EW_NAN_NONE, 0.5f)
EW_LANE_SAFE1(EXP, exp, ew_exp, EW_VM_EXP, EW_OK_ANY, EW_NAN_NONE, 0.5f)
EW_LANE_SAFE1(EXP2, exp2, exp2, exp2, EW_OK_ANY, EW_NAN_NONE, 0.5f)
EW_LANE_SAFE1(EXPM1, expm1, expm1, EW_VM_EXPM1, EW_OK_ANY, EW_NAN_NONE, 0.5f)
EW_LANE_SAFE1(LOG, log, log, EW_VM_LOG, EW_OK_POS, EW_NAN_NEG, 0.5f)
EW_LANE_SAFE1(LOG2, log2, log2, EW_VM_LOG2, EW_OK_POS, EW_NAN_NEG, 0.5f)
EW_LANE_SAFE1(LOG10, log10, log10, EW_VM_LOG10, EW_OK_POS, EW_NAN_NEG, 0.5f)
EW_LANE_SAFE1(LOG1P, log1p, log1p, EW_VM_LOG1P, EW_OK_LOG1P, EW_NAN_LOG1P, 0.5f)
EW_LANE_SAFE1(SIN, sin, sin, EW_VM_SIN, EW_OK_TRIG, EW_NAN_NONE, 0.5f)
EW_LANE_SAFE1(COS, cos, cos, EW_VM_COS, EW_OK_TRIG, EW_NAN_NONE, 0.5f)
EW_LANE_SAFE1(TAN, tan, tan, EW_VM_TAN, EW_OK_TRIG, EW_NAN_NONE, 0.5f)
EW_LANE_SAFE1(ASIN, asin, asin, asin, EW_OK_UNIT, EW_NAN_UNIT, 0.5f)
EW_LANE_SAFE1(ACOS, acos, acos, EW_VM_ACOS, EW_OK_UNIT, EW_NAN_UNIT, 0.5f)
EW_LANE_SAFE1(ATAN, atan, atan, EW_VM_ATAN, EW_OK_ANY, EW_NAN_NONE, 0.5f)
EW_LANE_SAFE1(SINH, sinh, ew_sinh, EW_VM_SINH, EW_OK_ANY, EW_NAN_NONE, 0.5f)
EW_LANE_SAFE1(COSH, cosh, ew_cosh, EW_VM_COSH, EW_OK_ANY, EW_NAN_NONE, 0.5f)
EW_LANE_SAFE1(TANH, tanh, ew_tanh, EW_VM_TANH, EW_OK_ANY, EW_NAN_NONE, 0.5f)
EW_LANE_SAFE1(ASINH, asinh, asinh, asinh, EW_OK_ANY, EW_NAN_NONE, 0.5f)
EW_LANE_SAFE1(ACOSH, acosh, acosh, acosh, EW_OK_ACOSH, EW_NAN_ACOSH, 2.0f)
EW_LANE_SAFE1(ATANH, atanh, atanh, EW_VM_ATANH, EW_OK_UNIT, EW_NAN_UNIT, 0.5f)
EW_LANE_SAFE2(POWG, powg, pow, ew_upow, EW_OK_POW, EW_NAN_POW, 0.5f)
EW_LANE_SAFE2(ATAN2, atan2, atan2, EW_VM_ATAN2, EW_OK_ATAN2, EW_NAN_NONE2, 0.5f)
EW_LANE_SAFE2(HYPOT, hypot, hypot, hypot, EW_OK_2, EW_NAN_NONE2, 0.5f)
EW_LANE_SAFE2(LOGADDEXP, logaddexp, ew_logaddexp, ew_ulogaddexp, EW_OK_2, EW_NAN_NONE2, 0.5f)
/* pow with the exponents that need no pow: 2 (a a), 1, 0, -1 (1 / a) and 0.5 (sqrt, with
 * C99's pow(-0, 0.5) = +0 and pow(-inf, 0.5) = +inf), exact where pow rounds once and as
 * NumPy's power gives them; x ** 2 on an array then runs at memory speed.  Chosen lane by
 * lane, as the one-element form chooses; the device's pow runs only where a lane needs it. */
#define ew_vPOW EW_PASTE(ew_vPOW_, EW_T)
static inline EW_VCT ew_vPOW(EW_VCT a, EW_VCT b)
{
    EW_VMASK two = b == (EW_VCT)2, root = b == (EW_VCT)0.5f, one = b == (EW_VCT)1, inv = b == (EW_VCT)-1;
    EW_VMASK zero = b == (EW_VCT)0, fast = two | root | one | inv | zero;
    if (!EW_ANY(fast)) { /* the common case of an exponent array: no square root or division */
        /* and where every base is positive and normal and every exponent normal or zero, the
         * 16-lane pow alone: what POWG gives these lanes, without its classification */
        if (EW_ALL(isnormal(a) & (a > (EW_VCT)0) & EW_OK_ANY(b)))
            return EW_VM_POW(a, b);
        return EW_VF2(POWG, a, b);
    }
    EW_VCT r = EW_ALL(fast) ? (EW_VCT)1 : EW_VF2(POWG, a, b);
    r = select(r, a * a, two);
    r = select(r, select(sqrt(a) + (EW_VCT)0, (EW_VCT)INFINITY, a == (EW_VCT)-INFINITY), root);
    r = select(r, a, one);
    r = select(r, (EW_VCT)1 / a, inv);
    return select(r, (EW_VCT)1, zero);
}
#define ew_spow EW_PASTE(ew_spow_, EW_T)
static inline EW_CT ew_spow(EW_CT a, EW_CT b)
{
    return b == 2      ? a * a
           : b == 0.5f ? (a == -INFINITY ? INFINITY : sqrt(a) + 0)
           : b == 1    ? a
           : b == -1   ? 1 / a
           : b == 0    ? 1
                       : EW_F2(powg, a, b);
}
/* sqrt is IEEE's correctly rounded square root on every lane */
#define ew_ssqrt EW_PASTE(ew_ssqrt_, EW_T)
static inline EW_CT ew_ssqrt(EW_CT x) { return sqrt(x); }
#define ew_vsqrt EW_PASTE(ew_vsqrt_, EW_T)
static inline EW_VCT ew_vsqrt(EW_VCT x) { return sqrt(x); }

/* NumPy's npy_divmod: the floor of the exact quotient, fixed up where fmod says so */
#define ew_floordiv EW_PASTE(ew_floordiv_, EW_T)
static inline EW_CT ew_floordiv(EW_CT a, EW_CT b)
{
    if (b == 0)
        return a / b;
    EW_CT mod = fmod(a, b);
    EW_CT div = (a - mod) / b;
    if (mod != 0 && ((b < 0) != (mod < 0)))
        div -= 1;
    if (div != 0) {
        EW_CT f = floor(div);
        if (div - f > (EW_CT)0.5)
            f += 1;
        return f;
    }
    return copysign((EW_CT)0, a / b);
}
#define ew_remainder EW_PASTE(ew_remainder_, EW_T)
static inline EW_CT ew_remainder(EW_CT a, EW_CT b)
{
    EW_CT mod = fmod(a, b);
    if (b == 0)
        return mod;
    if (mod != 0) {
        if ((b < 0) != (mod < 0))
            mod += b;
        return mod;
    }
    return copysign((EW_CT)0, b);
}
/* The same two on 16 lanes, without the device's 16-lane fmod (PoCL's depends on the other
 * lanes on AVX-512, and one lane at a time took 57 and 42 ms for 4M float32).  Where the
 * quotient is below 2^(mantissa bits - 1), fmod(a, b) is a - q b for q = trunc(a / b) once
 * corrected: a / b rounds at most across one integer, so q is the truncated quotient or one
 * more, a - q b is then fmod or fmod - b (exact: Sterbenz), fma gives it exactly, and adding
 * b back is exact too.  Only IEEE operations, which no lane shares; every other lane takes
 * the one-lane function. */
#if EW_TBITS == 64
#define EW_QUOTIENT_MAX 0x1p52
#else
#define EW_QUOTIENT_MAX 0x1p23f
#endif
#define EW_OK_DIVMOD(a, b, q) (EW_OK_ANY(a) & isnormal(b) & (fabs(q) < (EW_VCT)EW_QUOTIENT_MAX))
#define ew_vfmod EW_PASTE(ew_vfmod_, EW_T)
static inline EW_VCT ew_vfmod(EW_VCT a, EW_VCT b, EW_VCT q)
{
    EW_VCT r = fma(-trunc(q), b, a);
    r = select(r, r + copysign(b, a), (r != (EW_VCT)0) & (signbit(r) != signbit(a)));
    return copysign(r, a);
}
#define ew_vfloordiv EW_PASTE(ew_vfloordiv_, EW_T)
static inline EW_VCT ew_vfloordiv(EW_VCT a, EW_VCT b)
{
    EW_VCT q = a / b, mod = ew_vfmod(a, b, q);
    EW_VCT div = (a - mod) / b;
    div = select(div, div - (EW_VCT)1, (mod != (EW_VCT)0) & ((b < (EW_VCT)0) != (mod < (EW_VCT)0)));
    EW_VCT f = floor(div);
    f = select(f, f + (EW_VCT)1, div - f > (EW_VCT)0.5);
    EW_VCT r = select(copysign((EW_VCT)0, q), f, div != (EW_VCT)0);
    EW_VMASK g = EW_OK_DIVMOD(a, b, q);
    if (!all(g)) {
        EW_FIX16_2(r, ew_floordiv, a, b, g)
    }
    return r;
}
#define ew_vremainder EW_PASTE(ew_vremainder_, EW_T)
static inline EW_VCT ew_vremainder(EW_VCT a, EW_VCT b)
{
    EW_VCT q = a / b, mod = ew_vfmod(a, b, q);
    EW_VCT r = select(mod, mod + b, (mod != (EW_VCT)0) & ((b < (EW_VCT)0) != (mod < (EW_VCT)0)));
    r = select(copysign((EW_VCT)0, b), r, mod != (EW_VCT)0);
    EW_VMASK g = EW_OK_DIVMOD(a, b, q);
    if (!all(g)) {
        EW_FIX16_2(r, ew_remainder, a, b, g)
    }
    return r;
}
/* The next representable value of the loop dtype after a toward b, from the bits (float16
 * loops compute in float: their bits are the half's), so that subnormals come out on a
 * device that flushes them in arithmetic; NaN if either is NaN, b if a == b (so the sign
 * of a zero b). */
#if EW_TBITS == 16
#define EW_NA_U ushort
#define EW_NA_SIGN ((ushort)0x8000)
#define ew_na_bits EW_PASTE(ew_na_bits_, EW_T)
static inline ushort ew_na_bits(float v)
{
    ushort h;
    vstore_half(v, 0, (__private half *)&h);
    return h;
}
#define EW_NA_VALUE(u) vload_half(0, (__private const half *)&(u))
#elif EW_TBITS == 32
#define EW_NA_U uint
#define EW_NA_SIGN 0x80000000u
#define ew_na_bits(v) as_uint(v)
#define EW_NA_VALUE(u) as_float(u)
#else
#define EW_NA_U ulong
#define EW_NA_SIGN 0x8000000000000000ul
#define ew_na_bits(v) as_ulong(v)
#define EW_NA_VALUE(u) as_double(u)
#endif
#define ew_nextafter EW_PASTE(ew_nextafter_, EW_T)
static inline EW_CT ew_nextafter(EW_CT a, EW_CT b)
{
    if (isnan(a) || isnan(b))
        return a + b;
    if (a == b)
        return b;
    EW_NA_U u = ew_na_bits(a);
    if (a == 0) /* the least subnormal, toward b */
        u = (EW_NA_U)(b > 0 ? 1 : EW_NA_SIGN | 1);
    else if ((a < b) == (a > 0)) /* away from zero: one more in magnitude */
        u++;
    else
        u--;
    return EW_NA_VALUE(u);
}
/* the same on 16 lanes, from the bits with selects; float16's lane by lane (its bits are
 * not the computed float's) */
#if EW_TBITS == 16
EW_VLANES2(nextafter, ew_nextafter)
#define ew_vnextafter EW_PASTE(ew_vnextafter_, EW_T)
#else
#if EW_TBITS == 32
#define EW_NA_VU uint16
#define EW_NA_AS(u) as_float16(u)
#else
#define EW_NA_VU ulong16
#define EW_NA_AS(u) as_double16(u)
#endif
#define ew_vnextafter EW_PASTE(ew_vnextafter_, EW_T)
static inline EW_VCT ew_vnextafter(EW_VCT a, EW_VCT b)
{
    EW_NA_VU u = EW_PASTE(as_, EW_NA_VU)(a);
    EW_VCT r = EW_NA_AS(select(u - (EW_NA_U)1, u + (EW_NA_U)1, (a < b) == (a > (EW_VCT)0)));
    r = select(r, EW_NA_AS(select((EW_NA_VU)(EW_NA_SIGN | 1), (EW_NA_VU)1, b > (EW_VCT)0)), a == (EW_VCT)0);
    r = select(r, b, a == b);
    return select(r, a + b, isnan(a) | isnan(b));
}
#endif
#define EW_FLOORDIV(a, b) ew_floordiv((a), (b))
#define EW_REMAINDER(a, b) ew_remainder((a), (b))

#else /* bool (uchar 0/1) and integers */
#define EW_NEG(a) (-(a))
#define EW_SIGN(a) ((EW_CT)(((a) > 0) - ((a) < 0)))
#define EW_VSIGN(a) select(select((EW_VCT)0, (EW_VCT)-1, (a) < (EW_VCT)0), (EW_VCT)1, (a) > (EW_VCT)0)
#define EW_MUL(a, b) ((a) * (b))
#define EW_F1(f, a) (a)
#define EW_ROUNDING(f, a) (a)
#define EW_VROUNDING(f, a) (a)
#define EW_CONJ(a) (a)
#define EW_REALPART(a) (a)
#define EW_IMAGPART(a) ((EW_CT)0)
#define EW_ISNAN(a) 0
#define EW_ISINF(a) 0
#define EW_ISFINITE(a) 1
#define EW_VISNAN(a) ((uchar16)0)
#define EW_VISINF(a) ((uchar16)0)
#define EW_VISFINITE(a) ((uchar16)1)
#define EW_TRUTH(a) ((a) != 0)
#define EW_EQ(a, b) ((a) == (b))
#define EW_LT(a, b) ((a) < (b))
#define EW_LE(a, b) ((a) <= (b))
#define EW_MAXIMUM(a, b) max((a), (b))
#define EW_MINIMUM(a, b) min((a), (b))
#define EW_FMAX(a, b) max((a), (b))
#define EW_FMIN(a, b) min((a), (b))
#define EW_VMAXIMUM(a, b) max((a), (b))
#define EW_VMINIMUM(a, b) min((a), (b))
#define EW_VFMAX(a, b) max((a), (b))
#define EW_VFMIN(a, b) min((a), (b))
#define EW_RECIP(a) ((a) == 0 ? (EW_CT)0 : (EW_CT)(1 / (a)))
#define EW_DIV(a, b) ((a) / (b)) /* never instantiated: integers divide in float64 */
#if EW_TK == 0
#define EW_ABS(a) (a)
#define EW_ADD(a, b) ((a) | (b))
#define EW_INVERT(a) ((uchar)((a) ^ 1))
#undef EW_MUL
#define EW_MUL(a, b) ((a) & (b))
#else
#define EW_ADD(a, b) ((a) + (b))
#define EW_INVERT(a) (~(a))
#endif
#if EW_TK == 1 /* signed: abs, division, shifts wrap or saturate as NumPy's loops do */
#define EW_ABS(a) ((EW_CT)((a) < 0 ? -(a) : (a)))
#define EW_VABS(a) select((a), -(a), (a) < (EW_VCT)0)
#define ew_floordiv EW_PASTE(ew_floordiv_, EW_T)
static inline EW_CT ew_floordiv(EW_CT a, EW_CT b)
{
    if (b == 0)
        return 0;
    if (b == -1)
        return (EW_CT)(-a); /* MIN / -1 wraps to MIN instead of trapping */
    EW_CT q = a / b;
    if (((a > 0) != (b > 0)) && (EW_CT)(q * b) != a)
        q--;
    return q;
}
#define ew_remainder EW_PASTE(ew_remainder_, EW_T)
static inline EW_CT ew_remainder(EW_CT a, EW_CT b)
{
    if (b == 0 || b == -1)
        return 0;
    EW_CT r = a % b;
    if (r != 0 && ((r < 0) != (b < 0)))
        r += b;
    return r;
}
#define EW_SHR(a, b) ((ulong)(long)(b) < EW_TBITS ? (EW_CT)((a) >> (b)) : (EW_CT)((a) < 0 ? -1 : 0))
/* 16 lanes: a vector shift takes its count modulo the width, so the counts outside
 * [0, width) are chosen apart; an arithmetic shift by width - 1 is the sign's fill */
#define EW_SHIFT_OK(b) (((b) >= (EW_VCT)0) & ((b) < (EW_VCT)EW_TBITS))
#define EW_VSHR(a, b) ((a) >> select((EW_VCT)(EW_TBITS - 1), (b), EW_SHIFT_OK(b)))
/* 1 / a of an integer is a where a is 1 or -1, else 0 (0 for a zero a, as EW_RECIP) */
#define EW_VRECIP(a) select((EW_VCT)0, (a), ((a) == (EW_VCT)1) | ((a) == (EW_VCT)-1))
#elif EW_TK == 2
#define EW_ABS(a) (a)
#define EW_VABS(a) (a)
#define ew_floordiv(a, b) ((b) == 0 ? (EW_CT)0 : (EW_CT)((a) / (b)))
#define ew_remainder(a, b) ((b) == 0 ? (EW_CT)0 : (EW_CT)((a) % (b)))
#define EW_SHR(a, b) ((ulong)(b) < EW_TBITS ? (EW_CT)((a) >> (b)) : (EW_CT)0)
#define EW_SHIFT_OK(b) ((b) < (EW_VCT)EW_TBITS)
#define EW_VSHR(a, b) select((EW_VCT)0, (a) >> (b), EW_SHIFT_OK(b))
#define EW_VRECIP(a) select((EW_VCT)0, (a), (a) == (EW_VCT)1)
#endif
#define EW_FLOORDIV(a, b) ew_floordiv((a), (b))
#define EW_REMAINDER(a, b) ew_remainder((a), (b))
#if EW_TK != 0 && EW_TBITS <= 32 && defined(cl_khr_fp64)
/* Floor division and remainder of 16 lanes of integers up to 32 bits, through double (a
 * device has no vector integer division; lane by lane, 4M int32 took 30 ms on PoCL): the
 * quotient rounded to double never crosses an integer (it lies at least 1 / |b| from one,
 * the rounding moves it at most |a| 2^-53), so its floor is exact, and so is
 * a - floor(a / b) b, NumPy's remainder, whose sign is b's.  A zero divisor gives 0, as the
 * one-lane forms (the lane divides by 1 meanwhile); the conversion back wraps, so that
 * MIN // -1 is MIN as there. */
#define ew_vfloordiv EW_PASTE(ew_vfloordiv_, EW_T)
static inline EW_VCT ew_vfloordiv(EW_VCT a, EW_VCT b)
{
    double16 q = floor(convert_double16(a) / convert_double16(select(b, (EW_VCT)1, b == (EW_VCT)0)));
    return select(EW_PASTE(convert_, EW_VCT)(convert_long16(q)), (EW_VCT)0, b == (EW_VCT)0);
}
#define ew_vremainder EW_PASTE(ew_vremainder_, EW_T)
static inline EW_VCT ew_vremainder(EW_VCT a, EW_VCT b)
{
    double16 x = convert_double16(a), y = convert_double16(select(b, (EW_VCT)1, b == (EW_VCT)0));
    double16 r = x - floor(x / y) * y;
    return select(EW_PASTE(convert_, EW_VCT)(convert_long16(r)), (EW_VCT)0, b == (EW_VCT)0);
}
#elif EW_TK != 0
EW_VLANES2(floordiv, ew_floordiv)
EW_VLANES2(remainder, ew_remainder)
#define ew_vfloordiv EW_PASTE(ew_vfloordiv_, EW_T)
#define ew_vremainder EW_PASTE(ew_vremainder_, EW_T)
#endif
#if EW_TK == 1
#define EW_SHL(a, b) ((ulong)(long)(b) < EW_TBITS ? (EW_CT)((a) << (b)) : (EW_CT)0)
#else
#define EW_SHL(a, b) ((ulong)(b) < EW_TBITS ? (EW_CT)((a) << (b)) : (EW_CT)0)
#endif
#define EW_VSHL(a, b) select((EW_VCT)0, (a) << (b), EW_SHIFT_OK(b))
/* integer power by squaring.  The dispatcher refuses negative exponents before launch, as
 * NumPy raises; a kernel that meets one anyway gives 1 and -1 their powers, all else 0. */
#if EW_TK != 0
#define ew_ipow EW_PASTE(ew_ipow_, EW_T)
static inline EW_CT ew_ipow(EW_CT a, EW_CT b)
{
#if EW_TK == 1
    if (b < 0)
        return a == 1 ? (EW_CT)1 : a == -1 ? (EW_CT)((b & 1) ? -1 : 1) : (EW_CT)0;
#endif
    EW_CT r = 1;
    while (b) {
        if (b & 1)
            r = (EW_CT)(r * a);
        a = (EW_CT)(a * a);
        b >>= 1;
    }
    return r;
}
#define EW_POW(a, b) ew_ipow((a), (b))
EW_VLANES2(POWI, ew_ipow)
/* x ** 2 at memory speed (the same wrapped product as ew_ipow's) */
#define ew_vPOW EW_PASTE(ew_vPOW_, EW_T)
static inline EW_VCT ew_vPOW(EW_VCT a, EW_VCT b)
{
    return all(b == (EW_VCT)2) ? a * a : EW_VF2(POWI, a, b);
}
#endif
#endif

/* ---- isclose (float and complex loops) -----------------------------------------------------
 * NumPy's: |x - y| <= atol + rtol * |y| for a finite y, or x == y (infinities equal only
 * to the same infinity); equal_nan: NaN (in either part) is close to NaN.  Rounded as
 * NumPy's steps are: the difference in the loop dtype (float16 loops compute in float and
 * round each step to half), the tolerance in y's own real dtype (-DEW_TOLB=16|32|64:
 * NumPy computes atol + rtol*|y| before promoting it); separate statements, so that no
 * multiply-add is fused. */
#if EW_TK == 3 || EW_TK == 4
#if EW_TK == 4
#define EW_TOL_T EW_R_T
#define EW_MAG(v) c_abs(v)
#define EW_FINITE(v) (isfinite((v).x) && isfinite((v).y))
#define EW_NANV(v) (isnan((v).x) || isnan((v).y))
#else
#define EW_TOL_T EW_CT
#define EW_MAG(v) fabs(v)
#define EW_FINITE(v) isfinite(v)
#define EW_NANV(v) isnan(v)
#endif
#define ew_round_half EW_PASTE(ew_round_half_, EW_T)
static inline EW_TOL_T ew_round_half(EW_TOL_T v)
{
    ushort h;
    vstore_half(v, 0, (__private half *)&h);
    return (EW_TOL_T)vload_half(0, (__private const half *)&h);
}
#if EW_TBITS == 16
#define ew_round_loop(v) ew_round_half(v)
#else
#define ew_round_loop(v) (v)
#endif
#if defined(EW_TOLB) && EW_TOLB == 16
#define ew_round_tol(v) ew_round_half(v)
#elif defined(EW_TOLB) && EW_TOLB == 32
#define ew_round_tol(v) ((EW_TOL_T)(float)(v))
#else
#define ew_round_tol(v) (v)
#endif
#define ew_isclose EW_PASTE(ew_isclose_, EW_T)
static inline uchar ew_isclose(EW_CT x, EW_CT y, EW_TOL_T rtol, EW_TOL_T atol)
{
    EW_TOL_T d = ew_round_loop(EW_MAG(ew_round_loop(x - y)));
    EW_TOL_T t = ew_round_tol(EW_MAG(y));
    t = ew_round_tol(rtol * t);
    t = ew_round_tol(atol + t);
    uchar r = (d <= t && EW_FINITE(y)) || EW_EQ(x, y);
#ifdef EW_EQUAL_NAN
    r = r || (EW_NANV(x) && EW_NANV(y));
#endif
    return r;
}
#endif
