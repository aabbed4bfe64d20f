/* elementwise_map.cl: the map body that applies one function of elementwise.cl's table
 * (a switch over them, or one by ID), one element and 16 at a time; it follows
 * elementwise.cl and elementwise_funcs.cl in the family's program. */
/* ---- the map body ------------------------------------------------------------------------ */
#define EW_FLT_(loops) EW_CATL(EW_IF_, loops)
#define EW_CASE(ID, name, arity, loops, out, flags, vec, expr, vexpr)                                    \
    EW_IF_ARITY(arity)(EW_IF_OUTR(out)(EW_FLT_(loops)(case EW_ID_##ID: {                                 \
        EW_ARGS_##arity STORE(0, expr);                                                      \
    } break;)))
#define EW_VCASE(ID, name, arity, loops, out, flags, vec, expr, vexpr)                                   \
    EW_IF_ARITY(arity)(EW_IF_OUTR(out)(EW_FLT_(loops)(EW_CATV(EW_VCASE_, vec)(ID, arity, expr, vexpr))))
#define EW_VCASE_V(ID, arity, expr, vexpr)                                                               \
    case EW_ID_##ID: {                                                                                   \
        EW_VARGS_##arity VSTORE(0, vexpr);                                                   \
    } break;
/* functions without a vector form run their scalar body over the 16 elements (the names
 * e and x<k> are map.cl's contiguous-kernel indexing) */
#define EW_VCASE_N(ID, arity, expr, vexpr)                                                               \
    case EW_ID_##ID:                                                                                     \
        for (int ew_j = 0; ew_j < 16; ew_j++) {                                                          \
            long e = vi * 16 + ew_j;                                                                     \
            USMARR_FOR_OPS(USMARR_X_SAME)                                                                \
            EW_ARGS_##arity STORE(0, expr);                                                  \
        }                                                                                                \
        break;

#define EW_ENUM(ID, name, arity, loops, out, flags, vec, expr, vexpr) EW_ID_##ID,
enum ew_id { USMARR_ELEMENTWISE_OPS(EW_ENUM) EW_ID_COUNT };

#ifdef EW_OP
#define EW_SELECT EW_OP
#else
#define EW_SELECT EW_CATX(EW_s, EW_SC)
#endif

#define USMARR_MAP_BODY                                                                                  \
    switch (EW_SELECT) {                                                                                 \
        USMARR_ELEMENTWISE_OPS(EW_CASE)                                                                  \
    default:                                                                                             \
        break;                                                                                           \
    }
#if EW_VEC && EW_TK != 4
#define USMARR_MAP_VBODY                                                                                 \
    switch (EW_SELECT) {                                                                                 \
        USMARR_ELEMENTWISE_OPS(EW_VCASE)                                                                 \
    default:                                                                                             \
        break;                                                                                           \
    }
#endif

/* Complex loops: in the contiguous class (16 elements a work-item's run), the unary
 * functions below (and division of two arrays) take the real and imaginary parts of 16 elements as two 16-vectors `re`
 * and `im` (two loads, split), and give a REAL or BOOL result `o` or a SAME result's parts
 * `ore`, `oim` (joined again, two stores); every other function runs its one-element body
 * over the 16 elements.  The first ones are cl/complex.cl's one text for one element and for
 * 16 (IEEE operations and selects only); EW_CX_LANES runs cl/complex.cl's 16-lane formula
 * on the elements it applies to and the one-element function on the rest, as the
 * one-element body does with -DEW_SPLAT: an element's value does not depend on its place. */
#define EW_CX_VOPS(X)                                                                                    \
    X(ABS, REAL, o = cx_hypot(re, im))                                                                   \
    X(SIGN, SAME, cx_sign(re, im, &ore, &oim))                                                           \
    X(ISNAN, BOOL, o = isnan(re) | isnan(im))                                                            \
    X(ISINF, BOOL, o = isinf(re) | isinf(im))                                                            \
    X(ISFINITE, BOOL, o = isfinite(re) & isfinite(im))                                                   \
    X(LOGICAL_NOT, BOOL, o = (re == (EW_CXV)0) & (im == (EW_CXV)0))                                      \
    X(REAL, REAL, o = re)                                                                                \
    X(IMAG, REAL, o = im)                                                                                \
    X(CONJ, SAME, ore = re; oim = -im)                                                                   \
    X(SQRT, SAME, EW_CX_LANES(sqrt))                                                                     \
    X(LOG, SAME, EW_CX_LANES(log))                                                                       \
    X(LOG2, SAME, EW_CX_LANES(log2))                                                                     \
    X(LOG10, SAME, EW_CX_LANES(log10))                                                                   \
    X(ASIN, SAME, EW_CX_LANES(asin))                                                                     \
    X(ACOS, SAME, EW_CX_LANES(acos))                                                                     \
    X(ASINH, SAME, EW_CX_LANES(asinh))                                                                   \
    X(ACOSH, SAME, EW_CX_LANES(acosh))                                                                   \
    X(ATAN, SAME, EW_CX_LANES(atan))                                                                     \
    X(ATANH, SAME, EW_CX_LANES(atanh))                                                                   \
    X(TAN, SAME, EW_CX_LANES(tan))                                                                       \
    X(TANH, SAME, EW_CX_LANES(tanh))                                                                     \
    X(EXP2, SAME, EW_CX_LANES(exp2))                                                                     \
    X(RECIPROCAL, SAME, cx_recip(re, im, &ore, &oim))                                                    \
    X(EXP, SAME, EW_CX_LANES(exp))                                                                       \
    X(EXPM1, SAME, EW_CX_LANES(expm1))                                                                   \
    X(LOG1P, SAME, EW_CX_LANES(log1p))                                                                   \
    X(SIN, SAME, EW_CX_LANES(sin))                                                                       \
    X(COS, SAME, EW_CX_LANES(cos))                                                                       \
    X(SINH, SAME, EW_CX_LANES(sinh))                                                                     \
    X(COSH, SAME, EW_CX_LANES(cosh))
/* two arrays: the second one's parts are `re2`, `im2` */
#define EW_CX_VOPS2(X) X(DIVIDE, SAME, cx_div(re, im, re2, im2, &ore, &oim))
#define EW_CLASS_contig 1
#if EW_VEC && EW_TK == 4 && (defined(EW_N1) || defined(EW_N2)) && EW_CATX(EW_CLASS_, USMARR_CLASS) == 1 &&              \
    !defined(USMARR_CONTIG_ONE)
#define EW_CXV USMARR_CAT(EW_R_T, 16)
#if EW_TBITS == 64
typedef float16 ew_cxu_c64 __attribute__((aligned(4)));
#define EW_CXU ew_cxu_c64
#else
typedef double16 ew_cxu_c128 __attribute__((aligned(8)));
#define EW_CXU ew_cxu_c128
#endif
typedef uchar16 ew_cxb_u __attribute__((aligned(1)));
/* map.cl's non-temporal variant holds each operand's result as a 16-vector of its compute
 * type, which a complex dtype has not: these bodies store non-temporally themselves (the
 * launcher asks for it only where every 16-element vector of the output is aligned) */
#ifdef USMARR_NT
#undef USMARR_NT
#define EW_CX_ST(T, TU, p, i, v) __builtin_nontemporal_store((v), (global T *)(p) + (i))
#else
#define EW_CX_ST(T, TU, p, i, v) (*((global TU *)(p) + (i)) = (v))
#endif
/* cl/complex.cl's 16-lane formula where cx_ok_<f> accepts both parts (0.5 meanwhile in
 * the other lanes), c_<f>_1 for each other element alone */
#ifdef __has_builtin
#if __has_builtin(__builtin_reduce_and)
#define EW_CX_ALL(m) (__builtin_reduce_and(m) != 0)
#endif
#endif
#ifndef EW_CX_ALL
#define EW_CX_ALL(m) all(m)
#endif
#define EW_CX_FIX1(f, k)                                                                                 \
    if (!ok.s##k) {                                                                                      \
        EW_CT w = f((EW_CT)(re.s##k, im.s##k));                                                          \
        ore.s##k = w.x; oim.s##k = w.y;                                                                  \
    }
#define EW_CX_LANES(fn)                                                                                   \
    __typeof__(isnan(re)) ok = cx_ok_##fn(re, im);                                                        \
    ok &= cx_v##fn(select((EW_CXV)0.5, re, ok), select((EW_CXV)0.5, im, ok), &ore, &oim);                 \
    if (!EW_CX_ALL(ok)) {                                                                                \
        EW_CX_FIX1(c_##fn##_1, 0) EW_CX_FIX1(c_##fn##_1, 1) EW_CX_FIX1(c_##fn##_1, 2)                       \
        EW_CX_FIX1(c_##fn##_1, 3) EW_CX_FIX1(c_##fn##_1, 4) EW_CX_FIX1(c_##fn##_1, 5)                       \
        EW_CX_FIX1(c_##fn##_1, 6) EW_CX_FIX1(c_##fn##_1, 7) EW_CX_FIX1(c_##fn##_1, 8)                       \
        EW_CX_FIX1(c_##fn##_1, 9) EW_CX_FIX1(c_##fn##_1, a) EW_CX_FIX1(c_##fn##_1, b)                       \
        EW_CX_FIX1(c_##fn##_1, c) EW_CX_FIX1(c_##fn##_1, d) EW_CX_FIX1(c_##fn##_1, e)                       \
        EW_CX_FIX1(c_##fn##_1, f)                                                                         \
    }
#define EW_CX_VLOAD(k, re, im)                                                                           \
    EW_CXV re, im;                                                                                       \
    {                                                                                                    \
        EW_CXV ew_lo = *((global const EW_CXU *)p##k + 2 * vi), ew_hi = *((global const EW_CXU *)p##k + 2 * vi + 1); \
        re = (EW_CXV)(ew_lo.even, ew_hi.even), im = (EW_CXV)(ew_lo.odd, ew_hi.odd);                      \
    }
#ifdef EW_N1
#define EW_CX_VIN EW_CX_VLOAD(1, re, im)
#define EW_CX_VLIST EW_CX_VOPS
#else
#define EW_CX_VIN EW_CX_VLOAD(1, re, im) EW_CX_VLOAD(2, re2, im2)
#define EW_CX_VLIST EW_CX_VOPS2
#endif
#define EW_CX_VDECL_REAL EW_CXV o;
#define EW_CX_VDECL_BOOL __typeof__(isnan(re)) o;
#define EW_CX_VDECL_SAME EW_CXV ore, oim;
#define EW_CX_VOUT_REAL EW_CX_ST(EW_CXV, EW_CXU, p0, vi, o);
#define EW_CX_VOUT_BOOL EW_CX_ST(uchar16, ew_cxb_u, p0, vi, convert_uchar16(o) & (uchar)1);
#define EW_CX_ZIP(a, b, l0, l1, l2, l3, l4, l5, l6, l7)                                                  \
    (EW_CXV)(a.s##l0, b.s##l0, a.s##l1, b.s##l1, a.s##l2, b.s##l2, a.s##l3, b.s##l3, a.s##l4, b.s##l4,     \
             a.s##l5, b.s##l5, a.s##l6, b.s##l6, a.s##l7, b.s##l7)
#define EW_CX_VOUT_SAME                                                                                  \
    EW_CX_ST(EW_CXV, EW_CXU, p0, 2 * vi, EW_CX_ZIP(ore, oim, 0, 1, 2, 3, 4, 5, 6, 7));                   \
    EW_CX_ST(EW_CXV, EW_CXU, p0, 2 * vi + 1, EW_CX_ZIP(ore, oim, 8, 9, a, b, c, d, e, f));
#define EW_CX_VCASE(ID, out, body)                                                                       \
    EW_IF_OUTR(out)(case EW_ID_##ID: {                                                                   \
        EW_CX_VIN EW_CX_VDECL_##out body;                                                                \
        EW_CX_VOUT_##out                                                                                 \
    } break;)
#define USMARR_MAP_VBODY                                                                                 \
    switch (EW_SELECT) {                                                                                 \
        EW_CX_VLIST(EW_CX_VCASE)                                                                         \
    default:                                                                                             \
        for (int ew_j = 0; ew_j < 16; ew_j++) {                                                          \
            long e = vi * 16 + ew_j;                                                                     \
            USMARR_FOR_OPS(USMARR_X_SAME)                                                                \
            USMARR_MAP_BODY;                                                                             \
        }                                                                                                \
        break;                                                                                           \
    }
#endif
