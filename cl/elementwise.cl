/* elementwise.cl: every elementwise function, as one table, and what a program of them
 * computes; elementwise_funcs.cl follows with the helpers the table's expressions call,
 * and elementwise_map.cl with the map body that applies one of them (the family
 * "complex+vmath+elementwise+elementwise_funcs+elementwise_map";
 * lib/engine/engine_internal.h, section 2).  lib/ops/elementwise.c includes this file with
 * USMARR_ELEMENTWISE_TABLE_ONLY defined to read the same table (names, arities, type
 * rules), so the C dispatcher and the kernels cannot disagree.
 *
 * X(ID, name, arity, loops, out, flags, vec, expr, vexpr)
 *   arity  1, 2, 3, W (where: a bool condition, then two values), or C (isclose: two
 *          values, with rtol and atol as the program's first two scalars, -DEW_EQUAL_NAN
 *          for equal_nan and -DEW_TOLB for the second value's precision; one program
 *          per function, never the switch)
 *   loops  the dtypes the function is computed in (NumPy's "loops"); the dispatcher picks
 *          the first one, in promotion order, that the promoted input dtype casts to safely:
 *            ALL   every dtype          NUM   all but bool     INEX  float and complex
 *            FLT   float16/32/64        RB    all but complex  REAL  integers and floats
 *            BINT  bool and integers    INT   integers
 *   out    SAME (the loop dtype), BOOL, or REAL (the real dtype of a complex loop dtype)
 *   flags  F_NONE, F_NOBOOL (a bool input is an error, as NumPy's `-True`),
 *          F_DIVIDE (bool and integer inputs compute in float64, as NumPy's true_divide),
 *          F_CLOSE (a bool or integer second operand counts as float64, as NumPy's isclose
 *          makes `b` inexact)
 *   vec    V when vexpr works on 16-vectors of every non-bool, non-complex loop dtype, else N
 *          (a BOOL result is stored from a uchar16; where()'s condition is a select() mask)
 *   expr   the value of one element from `a` (`b`, `c`) of the loop dtype's compute type
 *          (uchar 0/1 for bool, float for float16, float2/double2 for complex)
 *   vexpr  the same on 16-vectors (ignored for N)
 * The per-kind helpers (EW_*) are defined in elementwise_funcs.cl for the loop dtype's kind only; the
 * integer/float special cases (division by zero, shifts past the width, ...) are
 * documented in doc/ops.md.
 */
/* One row a function, spelled out: PoCL defines some function names (sqrt, ...) as macros,
 * which a row macro's second level would expand before EW_F1 pastes them. */
#define USMARR_ELEMENTWISE_OPS(X)                                                                        \
    X(NEGATIVE, negative, 1, NUM, SAME, F_NOBOOL, V, EW_NEG(a), (-(a)))                                  \
    X(POSITIVE, positive, 1, NUM, SAME, F_NOBOOL, V, (a), (a))                                           \
    X(ABS, abs, 1, ALL, REAL, F_NONE, V, EW_ABS(a), EW_VABS(a))                                          \
    X(SIGN, sign, 1, NUM, SAME, F_NOBOOL, V, EW_SIGN(a), EW_VSIGN(a))                                    \
    X(RECIPROCAL, reciprocal, 1, NUM, SAME, F_NONE, V, EW_RECIP(a), EW_VRECIP(a))                          \
    X(SQUARE, square, 1, NUM, SAME, F_NONE, V, EW_MUL(a, a), ((a) * (a)))                                \
    X(SQRT, sqrt, 1, INEX, SAME, F_NONE, V, EW_F1(sqrt, a), sqrt(a))                                     \
    X(CBRT, cbrt, 1, FLT, SAME, F_NONE, V, EW_F1(cbrt, a), EW_VF1(CBRT, a))                              \
    X(EXP, exp, 1, INEX, SAME, F_NONE, V, EW_F1(exp, a), EW_VF1(EXP, a))                                 \
    X(EXP2, exp2, 1, INEX, SAME, F_NONE, V, EW_F1(exp2, a), EW_VF1(EXP2, a))                             \
    X(EXPM1, expm1, 1, INEX, SAME, F_NONE, V, EW_F1(expm1, a), EW_VF1(EXPM1, a))                         \
    X(LOG, log, 1, INEX, SAME, F_NONE, V, EW_F1(log, a), EW_VF1(LOG, a))                                 \
    X(LOG2, log2, 1, INEX, SAME, F_NONE, V, EW_F1(log2, a), EW_VF1(LOG2, a))                             \
    X(LOG10, log10, 1, INEX, SAME, F_NONE, V, EW_F1(log10, a), EW_VF1(LOG10, a))                         \
    X(LOG1P, log1p, 1, INEX, SAME, F_NONE, V, EW_F1(log1p, a), EW_VF1(LOG1P, a))                         \
    X(SIN, sin, 1, INEX, SAME, F_NONE, V, EW_F1(sin, a), EW_VF1(SIN, a))                                 \
    X(COS, cos, 1, INEX, SAME, F_NONE, V, EW_F1(cos, a), EW_VF1(COS, a))                                 \
    X(TAN, tan, 1, INEX, SAME, F_NONE, V, EW_F1(tan, a), EW_VF1(TAN, a))                                 \
    X(ASIN, asin, 1, INEX, SAME, F_NONE, V, EW_F1(asin, a), EW_VF1(ASIN, a))                             \
    X(ACOS, acos, 1, INEX, SAME, F_NONE, V, EW_F1(acos, a), EW_VF1(ACOS, a))                             \
    X(ATAN, atan, 1, INEX, SAME, F_NONE, V, EW_F1(atan, a), EW_VF1(ATAN, a))                             \
    X(SINH, sinh, 1, INEX, SAME, F_NONE, V, EW_F1(sinh, a), EW_VF1(SINH, a))                             \
    X(COSH, cosh, 1, INEX, SAME, F_NONE, V, EW_F1(cosh, a), EW_VF1(COSH, a))                             \
    X(TANH, tanh, 1, INEX, SAME, F_NONE, V, EW_F1(tanh, a), EW_VF1(TANH, a))                             \
    X(ASINH, asinh, 1, INEX, SAME, F_NONE, V, EW_F1(asinh, a), EW_VF1(ASINH, a))                         \
    X(ACOSH, acosh, 1, INEX, SAME, F_NONE, V, EW_F1(acosh, a), EW_VF1(ACOSH, a))                         \
    X(ATANH, atanh, 1, INEX, SAME, F_NONE, V, EW_F1(atanh, a), EW_VF1(ATANH, a))                         \
    X(FLOOR, floor, 1, RB, SAME, F_NONE, V, EW_ROUNDING(floor, a), EW_VROUNDING(floor, a))               \
    X(CEIL, ceil, 1, RB, SAME, F_NONE, V, EW_ROUNDING(ceil, a), EW_VROUNDING(ceil, a))                   \
    X(TRUNC, trunc, 1, RB, SAME, F_NONE, V, EW_ROUNDING(trunc, a), EW_VROUNDING(trunc, a))               \
    X(ROUND, round, 1, ALL, SAME, F_NONE, V, EW_ROUNDING(rint, a), EW_VROUNDING(rint, a))                \
    X(CONJ, conj, 1, NUM, SAME, F_NONE, V, EW_CONJ(a), (a))                                              \
    X(REAL, real, 1, ALL, REAL, F_NONE, V, EW_REALPART(a), (a))                                          \
    X(IMAG, imag, 1, ALL, REAL, F_NONE, V, EW_IMAGPART(a), ((EW_VCT)0))                                  \
    X(ISNAN, isnan, 1, ALL, BOOL, F_NONE, V, EW_ISNAN(a), EW_VISNAN(a))                                  \
    X(ISINF, isinf, 1, ALL, BOOL, F_NONE, V, EW_ISINF(a), EW_VISINF(a))                                  \
    X(ISFINITE, isfinite, 1, ALL, BOOL, F_NONE, V, EW_ISFINITE(a), EW_VISFINITE(a))                      \
    X(SIGNBIT, signbit, 1, FLT, BOOL, F_NONE, V, (signbit(a) != 0), EW_VB(signbit(a)))                   \
    X(LOGICAL_NOT, logical_not, 1, ALL, BOOL, F_NONE, V, (!EW_TRUTH(a)), EW_VB((a) == (EW_VCT)0))        \
    X(BITWISE_INVERT, bitwise_invert, 1, BINT, SAME, F_NONE, V, EW_INVERT(a), (~(a)))                    \
    X(ADD, add, 2, ALL, SAME, F_NONE, V, EW_ADD(a, b), ((a) + (b)))                                      \
    X(SUBTRACT, subtract, 2, NUM, SAME, F_NOBOOL, V, ((a) - (b)), ((a) - (b)))                           \
    X(MULTIPLY, multiply, 2, ALL, SAME, F_NONE, V, EW_MUL(a, b), ((a) * (b)))                            \
    X(DIVIDE, divide, 2, INEX, SAME, F_DIVIDE, V, EW_DIV(a, b), ((a) / (b)))                             \
    X(FLOOR_DIVIDE, floor_divide, 2, REAL, SAME, F_NONE, V, EW_FLOORDIV(a, b), ew_vfloordiv(a, b))       \
    X(REMAINDER, remainder, 2, REAL, SAME, F_NONE, V, EW_REMAINDER(a, b), ew_vremainder(a, b))           \
    X(POW, pow, 2, NUM, SAME, F_NONE, V, EW_POW(a, b), EW_VF2(POW, a, b))                                \
    X(MAXIMUM, maximum, 2, ALL, SAME, F_NONE, V, EW_MAXIMUM(a, b), EW_VMAXIMUM(a, b))                    \
    X(MINIMUM, minimum, 2, ALL, SAME, F_NONE, V, EW_MINIMUM(a, b), EW_VMINIMUM(a, b))                    \
    X(FMAX, fmax, 2, ALL, SAME, F_NONE, V, EW_FMAX(a, b), EW_VFMAX(a, b))                                \
    X(FMIN, fmin, 2, ALL, SAME, F_NONE, V, EW_FMIN(a, b), EW_VFMIN(a, b))                                \
    X(ATAN2, atan2, 2, FLT, SAME, F_NONE, V, EW_F2(atan2, a, b), EW_VF2(ATAN2, a, b))                    \
    X(HYPOT, hypot, 2, FLT, SAME, F_NONE, V, EW_F2(hypot, a, b), EW_VF2(HYPOT, a, b))                    \
    X(COPYSIGN, copysign, 2, FLT, SAME, F_NONE, V, copysign(a, b), copysign(a, b))                       \
    X(NEXTAFTER, nextafter, 2, FLT, SAME, F_NONE, V, ew_nextafter(a, b), ew_vnextafter(a, b))            \
    X(LOGADDEXP, logaddexp, 2, FLT, SAME, F_NONE, V, EW_F2(logaddexp, a, b), EW_VF2(LOGADDEXP, a, b))    \
    X(EQUAL, equal, 2, ALL, BOOL, F_NONE, V, EW_EQ(a, b), EW_VB((a) == (b)))                             \
    X(NOT_EQUAL, not_equal, 2, ALL, BOOL, F_NONE, V, (!EW_EQ(a, b)), EW_VB((a) != (b)))                  \
    X(LESS, less, 2, ALL, BOOL, F_NONE, V, EW_LT(a, b), EW_VB((a) < (b)))                                \
    X(LESS_EQUAL, less_equal, 2, ALL, BOOL, F_NONE, V, EW_LE(a, b), EW_VB((a) <= (b)))                   \
    X(GREATER, greater, 2, ALL, BOOL, F_NONE, V, EW_LT(b, a), EW_VB((b) < (a)))                          \
    X(GREATER_EQUAL, greater_equal, 2, ALL, BOOL, F_NONE, V, EW_LE(b, a), EW_VB((b) <= (a)))             \
    X(LOGICAL_AND, logical_and, 2, ALL, BOOL, F_NONE, V, (EW_TRUTH(a) && EW_TRUTH(b)), EW_VLOGIC(&, a, b)) \
    X(LOGICAL_OR, logical_or, 2, ALL, BOOL, F_NONE, V, (EW_TRUTH(a) || EW_TRUTH(b)), EW_VLOGIC(|, a, b)) \
    X(LOGICAL_XOR, logical_xor, 2, ALL, BOOL, F_NONE, V, (EW_TRUTH(a) != EW_TRUTH(b)), EW_VLOGIC(^, a, b)) \
    X(BITWISE_AND, bitwise_and, 2, BINT, SAME, F_NONE, V, ((a) & (b)), ((a) & (b)))                      \
    X(BITWISE_OR, bitwise_or, 2, BINT, SAME, F_NONE, V, ((a) | (b)), ((a) | (b)))                        \
    X(BITWISE_XOR, bitwise_xor, 2, BINT, SAME, F_NONE, V, ((a) ^ (b)), ((a) ^ (b)))                      \
    X(LEFT_SHIFT, left_shift, 2, INT, SAME, F_NONE, V, EW_SHL(a, b), EW_VSHL(a, b))                      \
    X(RIGHT_SHIFT, right_shift, 2, INT, SAME, F_NONE, V, EW_SHR(a, b), EW_VSHR(a, b))                    \
    X(WHERE, where, W, ALL, SAME, F_NONE, V, ((a) ? (b) : (c)), select((c), (b), a))           \
    X(CLIP, clip, 3, ALL, SAME, F_NONE, V, EW_MINIMUM(EW_MAXIMUM(a, b), c), EW_VCLIP(a, b, c))           \
    X(ISCLOSE, isclose, C, INEX, BOOL, F_CLOSE, N, ew_isclose(a, b, SCALAR(0), SCALAR(1)), _)

#ifndef USMARR_ELEMENTWISE_TABLE_ONLY

/* kind code (0 bool, 1 signed, 2 unsigned, 3 float, 4 complex) and bits of the loop dtype */
#define EW_TK_OF_b 0
#define EW_TK_OF_i8 1
#define EW_TK_OF_i16 1
#define EW_TK_OF_i32 1
#define EW_TK_OF_i64 1
#define EW_TK_OF_u8 2
#define EW_TK_OF_u16 2
#define EW_TK_OF_u32 2
#define EW_TK_OF_u64 2
#define EW_TK_OF_f16 3
#define EW_TK_OF_f32 3
#define EW_TK_OF_f64 3
#define EW_TK_OF_c64 4
#define EW_TK_OF_c128 4
#define EW_BITS_OF_b 8
#define EW_BITS_OF_i8 8
#define EW_BITS_OF_i16 16
#define EW_BITS_OF_i32 32
#define EW_BITS_OF_i64 64
#define EW_BITS_OF_u8 8
#define EW_BITS_OF_u16 16
#define EW_BITS_OF_u32 32
#define EW_BITS_OF_u64 64
#define EW_BITS_OF_f16 16
#define EW_BITS_OF_f32 32
#define EW_BITS_OF_f64 64
#define EW_BITS_OF_c64 64
#define EW_BITS_OF_c128 128
#define EW_PASTE_(a, b) a##b
#define EW_PASTE(a, b) EW_PASTE_(a, b)
#define EW_TK EW_PASTE(EW_TK_OF_, EW_T)
#define EW_TBITS EW_PASTE(EW_BITS_OF_, EW_T)
#ifdef EW_V1
#define EW_VEC 1
#else
#define EW_VEC 0
#endif


/* ---- what the program computes ------------------------------------------------------------
 * Defines from lib/ops/elementwise.c (short: the engine's launch fast path keys on them): EW_T
 * (the loop dtype's tag), EW_N<a> (arity 1, 2, 3 or W), EW_O<rule> (SAME, BOOL or REAL),
 * EW_I1..3 (where each input comes from: a<k> = array operand k, s<j> = by-value scalar j,
 * x2 = array operand 2 xor scalar 0),
 * EW_V1 (every operand has a 16-vector form), and either EW_OP (one function, by ID) or
 * EW_SC (the index of the int scalar that selects the function at run time, so that every
 * function of one (arity, rule, dtypes) signature shares one program). */
#define EW_CT USMARR_COMPUTE(EW_T)
#define EW_VCT USMARR_VCOMPUTE(EW_T)
#define EW_a1 LOAD(1)
#define EW_a2 LOAD(2)
#define EW_a3 LOAD(3)
#define EW_s0 SCALAR(0)
#define EW_s1 SCALAR(1)
#define EW_s2 SCALAR(2)
#define EW_s3 SCALAR(3)
#define EW_Va1 VLOAD(1)
#define EW_Va2 VLOAD(2)
#define EW_Va3 VLOAD(3)
#define EW_Vs0 ((EW_VCT)(SCALAR(0)))
#define EW_Vs1 ((EW_VCT)(SCALAR(1)))
#define EW_Vs2 ((EW_VCT)(SCALAR(2)))
#define EW_Vs3 ((EW_VCT)(SCALAR(3)))
/* the second array input xor the first scalar: equal of bools as words (elementwise.c) */
#define EW_x2 (LOAD(2) ^ SCALAR(0))
#define EW_Vx2 (VLOAD(2) ^ (EW_VCT)(SCALAR(0)))
/* the condition of where(): converted to bool in the kernel (a scalar one on the host) */
#define EW_Ca1 USMARR_CONVERT(D1, b, LOAD(1))
#define EW_Cs0 SCALAR(0)
#define EW_IN(src) EW_CATX(EW_, src)
#define EW_VIN(src) EW_CATX(EW_V, src)
#define EW_COND(src) EW_CATX(EW_C, src)

#define EW_ARGS_1 EW_CT a = EW_IN(EW_I1);
#define EW_ARGS_2 EW_ARGS_1 EW_CT b = EW_IN(EW_I2);
#define EW_ARGS_3 EW_ARGS_2 EW_CT c = EW_IN(EW_I3);
#define EW_ARGS_W uchar a = EW_COND(EW_I1); EW_CT b = EW_IN(EW_I2); EW_CT c = EW_IN(EW_I3);
#define EW_ARGS_C EW_ARGS_2
#define EW_VARGS_1 EW_VCT a = EW_VIN(EW_I1);
#define EW_VARGS_2 EW_VARGS_1 EW_VCT b = EW_VIN(EW_I2);
#define EW_VARGS_3 EW_VARGS_2 EW_VCT c = EW_VIN(EW_I3);
/* where()'s condition on 16 lanes: a select() mask of the values' width (-1 where true) */
#define EW_VARGS_W EW_VMASK_T a = EW_VCOND(EW_I1); EW_VCT b = EW_VIN(EW_I2); EW_VCT c = EW_VIN(EW_I3);
#define EW_VCOND(src) EW_CATX(EW_VC, src)
#define EW_VCa1 EW_PASTE(convert_, EW_VMASK_T)(VLOAD(1) != (USMARR_VCOMPUTE(D1))0)
#define EW_VCs0 ((EW_VMASK_T)(SCALAR(0) ? -1 : 0))
#if EW_TK == 3 && EW_TBITS == 16 /* float16 computes in float */
#define EW_VMASK_T int16
#elif EW_TBITS == 8
#define EW_VMASK_T char16
#elif EW_TBITS == 16
#define EW_VMASK_T short16
#elif EW_TBITS == 32
#define EW_VMASK_T int16
#else
#define EW_VMASK_T long16
#endif

/* ---- a fused expression's program holds this file once per dtype it computes in, with
 *      EW_T and EW_HELPERS_ONLY defined before each copy (lib/ops/expr_build.c): every name
 *      whose meaning depends on EW_T is undefined here first, and the helper functions
 *      carry EW_T in their names (ew_floordiv is ew_floordiv_f32 in the float32 copy). ---- */
#undef EW_VINLINE
#undef EW_IF_ALL
#undef EW_IF_NUM
#undef EW_IF_INEX
#undef EW_IF_FLT
#undef EW_IF_RB
#undef EW_IF_REAL
#undef EW_IF_BINT
#undef EW_IF_INT
#undef EW_R_T
#undef EW_NEG
#undef EW_ABS
#undef EW_VABS
#undef EW_SIGN
#undef EW_VSIGN
#undef EW_RECIP
#undef EW_VRECIP
#undef EW_MUL
#undef EW_F1
#undef EW_ROUNDING
#undef EW_VROUNDING
#undef EW_CONJ
#undef EW_REALPART
#undef EW_IMAGPART
#undef EW_ISNAN
#undef EW_ISINF
#undef EW_ISFINITE
#undef EW_VISNAN
#undef EW_VISINF
#undef EW_VISFINITE
#undef EW_TRUTH
#undef EW_ADD
#undef EW_DIV
#undef EW_POW
#undef EW_MAXIMUM
#undef EW_MINIMUM
#undef EW_FMAX
#undef EW_FMIN
#undef EW_VMAXIMUM
#undef EW_VMINIMUM
#undef EW_VFMAX
#undef EW_VFMIN
#undef EW_EQ
#undef EW_LT
#undef EW_LE
#undef EW_FLOORDIV
#undef EW_REMAINDER
#undef EW_INVERT
#undef EW_SHL
#undef EW_SHR
#undef EW_VSHL
#undef EW_VSHR
#undef EW_SHIFT_OK
#undef EW_TOL_T
#undef EW_MAG
#undef EW_FINITE
#undef EW_NANV
#undef ew_floordiv
#undef ew_remainder
#undef ew_logaddexp
#undef ew_vfloordiv
#undef ew_vremainder
#undef ew_ipow
#undef ew_round_half
#undef ew_round_loop
#undef ew_round_tol
#undef ew_isclose
#undef EW_NA_U
#undef EW_NA_SIGN
#undef EW_NA_VALUE
#undef ew_na_bits
#undef ew_nextafter
#undef ew_vnextafter
#undef EW_NA_VU
#undef EW_NA_AS
#undef EW_EXP_SAFE
#undef EW_LN2_HI
#undef EW_LN2_LO
#undef EW_EXP_HALF
#undef EW_VEXP_HALF
#undef ew_exp
#undef ew_sinh
#undef ew_cosh
#undef ew_tanh
#undef EW_TRIG_FAST
#undef EW_ALL
#undef EW_ANY
#undef EW_LANES16_2
#undef EW_F2
#undef EW_VF1
#undef EW_VF2
#undef EW_VMASK
#undef EW_OK_ANY
#undef EW_OK_POS
#undef EW_OK_UNIT
#undef EW_OK_ACOSH
#undef EW_OK_LOG1P
#undef EW_OK_TRIG
#undef EW_OK_2
#undef EW_OK_POW
#undef EW_OK_ATAN2
#undef EW_OK_DIVMOD
#undef EW_NAN_NONE
#undef EW_NAN_NONE2
#undef EW_NAN_NEG
#undef EW_NAN_UNIT
#undef EW_NAN_ACOSH
#undef EW_NAN_LOG1P
#undef EW_NAN_POW
#undef EW_QUOTIENT_MAX
#undef EW_FIX1
#undef EW_FIX16
#undef EW_FIX2
#undef EW_FIX16_2
#undef EW_SPLAT1
#undef EW_SPLAT2
#undef EW_LANE_SAFE1
#undef EW_LANE_SAFE2
#undef ew_uexp
#undef ew_usinh
#undef ew_ucosh
#undef ew_ulogaddexp
#undef ew_vfmod
#undef ew_ssqrt
#undef ew_vsqrt
#undef ew_upow
#undef ew_vPOW
#undef ew_spow
#undef EW_VLANES2
#undef EW_VM_EXP
#undef EW_VM_EXPM1
#undef EW_VM_SINH
#undef EW_VM_COSH
#undef EW_VM_CBRT
#undef EW_VM_LOG
#undef EW_VM_LOG2
#undef EW_VM_LOG10
#undef EW_VM_LOG1P
#undef EW_VM_SIN
#undef EW_VM_COS
#undef EW_VM_TAN
#undef EW_VM_POW
#undef EW_VM_ATAN
#undef EW_VM_ATAN2
#undef EW_VM_ACOS
#undef EW_VM_ATANH
#undef EW_VM_TANH

/* ---- case filters: a function appears in a program only when its arity, result rule and
 *      loop dtypes match the program's.  The host passes -DEW_N<a> and -DEW_O<rule>. -- */
#define EW_KEEP(x) x
#define EW_DROP(x)
#define EW_MATCH_0 EW_DROP
#define EW_MATCH_1 EW_KEEP
#ifdef EW_N1
#define EW_AR_1 1
#else
#define EW_AR_1 0
#endif
#ifdef EW_N2
#define EW_AR_2 1
#else
#define EW_AR_2 0
#endif
#ifdef EW_N3
#define EW_AR_3 1
#else
#define EW_AR_3 0
#endif
#ifdef EW_NW
#define EW_AR_W 1
#else
#define EW_AR_W 0
#endif
#ifdef EW_NC
#define EW_AR_C 1
#else
#define EW_AR_C 0
#endif
#ifdef EW_OSAME
#define EW_OU_SAME 1
#else
#define EW_OU_SAME 0
#endif
#ifdef EW_OBOOL
#define EW_OU_BOOL 1
#else
#define EW_OU_BOOL 0
#endif
#ifdef EW_OREAL
#define EW_OU_REAL 1
#else
#define EW_OU_REAL 0
#endif
/* each selector level pastes with its own macro: a macro is not re-expanded inside its own
 * expansion, and the bodies use USMARR_CAT through the prelude */
#define EW_CATA_(a, b) a##b
#define EW_CATA(a, b) EW_CATA_(a, b)
#define EW_CATO_(a, b) a##b
#define EW_CATO(a, b) EW_CATO_(a, b)
#define EW_CATL_(a, b) a##b
#define EW_CATL(a, b) EW_CATL_(a, b)
#define EW_CATV_(a, b) a##b
#define EW_CATV(a, b) EW_CATV_(a, b)
#define EW_CATX_(a, b) a##b
#define EW_CATX(a, b) EW_CATX_(a, b)
#define EW_AR_(x) EW_AR_##x
#define EW_OU_(x) EW_OU_##x
#define EW_IF_ARITY(x) EW_CATA(EW_MATCH_, EW_AR_(x))
#define EW_IF_OUTR(x) EW_CATO(EW_MATCH_, EW_OU_(x))

#if EW_TK == 0
#define EW_IF_ALL EW_KEEP
#define EW_IF_NUM EW_DROP
#define EW_IF_INEX EW_DROP
#define EW_IF_FLT EW_DROP
#define EW_IF_RB EW_KEEP
#define EW_IF_REAL EW_DROP
#define EW_IF_BINT EW_KEEP
#define EW_IF_INT EW_DROP
#elif EW_TK == 1 || EW_TK == 2
#define EW_IF_ALL EW_KEEP
#define EW_IF_NUM EW_KEEP
#define EW_IF_INEX EW_DROP
#define EW_IF_FLT EW_DROP
#define EW_IF_RB EW_KEEP
#define EW_IF_REAL EW_KEEP
#define EW_IF_BINT EW_KEEP
#define EW_IF_INT EW_KEEP
#elif EW_TK == 3
#define EW_IF_ALL EW_KEEP
#define EW_IF_NUM EW_KEEP
#define EW_IF_INEX EW_KEEP
#define EW_IF_FLT EW_KEEP
#define EW_IF_RB EW_KEEP
#define EW_IF_REAL EW_KEEP
#define EW_IF_BINT EW_DROP
#define EW_IF_INT EW_DROP
#else
#define EW_IF_ALL EW_KEEP
#define EW_IF_NUM EW_KEEP
#define EW_IF_INEX EW_KEEP
#define EW_IF_FLT EW_DROP
#define EW_IF_RB EW_DROP
#define EW_IF_REAL EW_DROP
#define EW_IF_BINT EW_DROP
#define EW_IF_INT EW_DROP
#endif
#endif /* USMARR_ELEMENTWISE_TABLE_ONLY */
