/* prelude.cl: prepended to every program.  Per-dtype-tag types, loads, stores and
 * NumPy's value conversions (doc/engine.md, "Casting"), and the few helpers that kernels
 * of several families share.  See lib/engine/engine_internal.h for the contract. */
#ifdef cl_khr_fp64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define USMARR_HAS_FP64 1
#else
#define USMARR_HAS_FP64 0
#endif

#define USMARR_CAT_(a, b) a##b
#define USMARR_CAT(a, b) USMARR_CAT_(a, b)
#define USMARR_CAT3_(a, b, c) a##b##c
#define USMARR_CAT3(a, b, c) USMARR_CAT3_(a, b, c)

/* Kernels whose work-items each walk a run of their own (chunks of a mask): Intel's CPU
 * compiler would vectorise across work-items, turning every step into gathers and
 * scatters (its cl_intel_vec_len_hint extension keeps one work-item per lane; extract of
 * 16M elements took a third of the time).  Other compilers take no hint. */
#ifdef cl_intel_vec_len_hint
#define USMARR_ONE_PER_LANE __attribute__((intel_vec_len_hint(1)))
#else
#define USMARR_ONE_PER_LANE
#endif

/* ---- kernel groups ---------------------------------------------------------------------
 * A family file holds several groups of kernels (doc/engine.md, "One program per kernel
 * group"): the kernels of one operation, launched together ("sort": usmarr_sort_rows and
 * usmarr_sort_rows_net; "unique": its count, scan and write).  The library builds one
 * program per group it asks for, with -DUSMARR_GROUPED -DUSMARR_GROUP_<group>=1, and the
 * family keeps each kernel under #if USMARR_WANT(<group>): a driver that compiles every
 * kernel of a program when it hands out the binary (PoCL) compiles only the group's.  The
 * name is pasted unexpanded (PoCL defines min, max and others as macros). */
#ifdef USMARR_GROUPED
#define USMARR_WANT(group) USMARR_GROUP_##group
#else
#define USMARR_WANT(group) 1
#endif

/* ---- storage and compute types ------------------------------------------------------ */
#define USMARR_ST_b uchar
#define USMARR_ST_i8 char
#define USMARR_ST_i16 short
#define USMARR_ST_i32 int
#define USMARR_ST_i64 long
#define USMARR_ST_u8 uchar
#define USMARR_ST_u16 ushort
#define USMARR_ST_u32 uint
#define USMARR_ST_u64 ulong
#define USMARR_ST_f16 half
#define USMARR_ST_f32 float
#define USMARR_ST_f64 double
#define USMARR_ST_c64 float2
#define USMARR_ST_c128 double2
#define USMARR_ST_x128 ulong2

#define USMARR_CT_b uchar
#define USMARR_CT_i8 char
#define USMARR_CT_i16 short
#define USMARR_CT_i32 int
#define USMARR_CT_i64 long
#define USMARR_CT_u8 uchar
#define USMARR_CT_u16 ushort
#define USMARR_CT_u32 uint
#define USMARR_CT_u64 ulong
#define USMARR_CT_f16 float
#define USMARR_CT_f32 float
#define USMARR_CT_f64 double
#define USMARR_CT_c64 float2
#define USMARR_CT_c128 double2
#define USMARR_CT_x128 ulong2

/* The real type of a complex tag (and the type itself otherwise). */
#define USMARR_RT_c64 float
#define USMARR_RT_c128 double

/* Kind letter: B bool, I integer, H float16, F float32/64, C complex, X opaque bits. */
#define USMARR_K_b B
#define USMARR_K_i8 I
#define USMARR_K_i16 I
#define USMARR_K_i32 I
#define USMARR_K_i64 I
#define USMARR_K_u8 I
#define USMARR_K_u16 I
#define USMARR_K_u32 I
#define USMARR_K_u64 I
#define USMARR_K_f16 H
#define USMARR_K_f32 F
#define USMARR_K_f64 F
#define USMARR_K_c64 C
#define USMARR_K_c128 C
#define USMARR_K_x128 X

/* 1 when the tag has a 16-vector form for VLOAD/VSTORE/VCONVERT. */
#define USMARR_VEC_OK_b 0
#define USMARR_VEC_OK_i8 1
#define USMARR_VEC_OK_i16 1
#define USMARR_VEC_OK_i32 1
#define USMARR_VEC_OK_i64 1
#define USMARR_VEC_OK_u8 1
#define USMARR_VEC_OK_u16 1
#define USMARR_VEC_OK_u32 1
#define USMARR_VEC_OK_u64 1
#define USMARR_VEC_OK_f16 1
#define USMARR_VEC_OK_f32 1
#define USMARR_VEC_OK_f64 1
#define USMARR_VEC_OK_c64 0
#define USMARR_VEC_OK_c128 0
#define USMARR_VEC_OK_x128 0

#define USMARR_STORAGE(d) USMARR_CAT(USMARR_ST_, d)
#define USMARR_COMPUTE(d) USMARR_CAT(USMARR_CT_, d)
#define USMARR_REAL(d) USMARR_CAT(USMARR_RT_, d)
#define USMARR_KIND(d) USMARR_CAT(USMARR_K_, d)
#define USMARR_VECTOR_OK(d) USMARR_CAT(USMARR_VEC_OK_, d)
#define USMARR_VCOMPUTE(d) USMARR_CAT(USMARR_COMPUTE(d), 16)

/* Integers wider than float's 24-bit significand go to half through double when the
 * device has it, so that the value is rounded once. */
#if USMARR_HAS_FP64
#define USMARR_HW_i32 double
#define USMARR_HW_i64 double
#define USMARR_HW_u32 double
#define USMARR_HW_u64 double
#else
#define USMARR_HW_i32 float
#define USMARR_HW_i64 float
#define USMARR_HW_u32 float
#define USMARR_HW_u64 float
#endif
#define USMARR_HW_i8 float
#define USMARR_HW_i16 float
#define USMARR_HW_u8 float
#define USMARR_HW_u16 float
#define USMARR_HWIDE(d) USMARR_CAT(USMARR_HW_, d)

/* ---- loads and stores ---------------------------------------------------------------- */
#define USMARR_LD_(p, i) ((p)[i])
#define USMARR_LD_b USMARR_LD_
#define USMARR_LD_i8 USMARR_LD_
#define USMARR_LD_i16 USMARR_LD_
#define USMARR_LD_i32 USMARR_LD_
#define USMARR_LD_i64 USMARR_LD_
#define USMARR_LD_u8 USMARR_LD_
#define USMARR_LD_u16 USMARR_LD_
#define USMARR_LD_u32 USMARR_LD_
#define USMARR_LD_u64 USMARR_LD_
#define USMARR_LD_f16(p, i) vload_half((i), (p))
#define USMARR_LD_f32 USMARR_LD_
#define USMARR_LD_f64 USMARR_LD_
#define USMARR_LD_c64 USMARR_LD_
#define USMARR_LD_c128 USMARR_LD_
#define USMARR_LD_x128 USMARR_LD_

#define USMARR_SD_(p, i, v) ((p)[i] = (v))
#define USMARR_SD_b USMARR_SD_
#define USMARR_SD_i8 USMARR_SD_
#define USMARR_SD_i16 USMARR_SD_
#define USMARR_SD_i32 USMARR_SD_
#define USMARR_SD_i64 USMARR_SD_
#define USMARR_SD_u8 USMARR_SD_
#define USMARR_SD_u16 USMARR_SD_
#define USMARR_SD_u32 USMARR_SD_
#define USMARR_SD_u64 USMARR_SD_
#define USMARR_SD_f16(p, i, v) vstore_half((v), (i), (p))
#define USMARR_SD_f32 USMARR_SD_
#define USMARR_SD_f64 USMARR_SD_
#define USMARR_SD_c64 USMARR_SD_
#define USMARR_SD_c128 USMARR_SD_
#define USMARR_SD_x128 USMARR_SD_

#define USMARR_LOADP(d, p, i) USMARR_CAT(USMARR_LD_, d)(p, i)
#define USMARR_STOREP(d, p, i, v) USMARR_CAT(USMARR_SD_, d)(p, i, v)

/* 16-vector forms: vector index vi covers elements [16*vi, 16*vi + 16). */
#define USMARR_VLD_(p, vi) vload16((vi), (p))
#define USMARR_VSD_(p, vi, v) vstore16((v), (vi), (p))
/* bool's load and store forms serve the elementwise functions' bool results and where()'s
 * condition; USMARR_VEC_OK_b stays 0, since no family computes on bool 16-vectors. */
#define USMARR_VLD_b USMARR_VLD_
#define USMARR_VSD_b USMARR_VSD_
#define USMARR_VLD_i8 USMARR_VLD_
#define USMARR_VLD_i16 USMARR_VLD_
#define USMARR_VLD_i32 USMARR_VLD_
#define USMARR_VLD_i64 USMARR_VLD_
#define USMARR_VLD_u8 USMARR_VLD_
#define USMARR_VLD_u16 USMARR_VLD_
#define USMARR_VLD_u32 USMARR_VLD_
#define USMARR_VLD_u64 USMARR_VLD_
#define USMARR_VLD_f16(p, vi) vload_half16((vi), (p))
#define USMARR_VLD_f32 USMARR_VLD_
#define USMARR_VLD_f64 USMARR_VLD_
#define USMARR_VSD_i8 USMARR_VSD_
#define USMARR_VSD_i16 USMARR_VSD_
#define USMARR_VSD_i32 USMARR_VSD_
#define USMARR_VSD_i64 USMARR_VSD_
#define USMARR_VSD_u8 USMARR_VSD_
#define USMARR_VSD_u16 USMARR_VSD_
#define USMARR_VSD_u32 USMARR_VSD_
#define USMARR_VSD_u64 USMARR_VSD_
#define USMARR_VSD_f16(p, vi, v) vstore_half16((v), (vi), (p))
#define USMARR_VSD_f32 USMARR_VSD_
#define USMARR_VSD_f64 USMARR_VSD_
#define USMARR_VLOADP(d, p, vi) USMARR_CAT(USMARR_VLD_, d)(p, vi)
#define USMARR_VSTOREP(d, p, vi, v) USMARR_CAT(USMARR_VSD_, d)(p, vi, v)

/* ---- conversions (NumPy value semantics; the undefined cases: doc/engine.md, "Casting")
 * USMARR_CONVERT(from, to, x): x is a USMARR_COMPUTE(from) value.  The result is a
 * USMARR_COMPUTE(to) value, except for to = f16: the unrounded float (or double) value. */
#define USMARR_CONVERT(f, t, x) USMARR_CVT_(USMARR_KIND(f), USMARR_KIND(t), f, t, x)
#define USMARR_CVT_(kf, kt, f, t, x) USMARR_CVT__(kf, kt, f, t, x)
#define USMARR_CVT__(kf, kt, f, t, x) USMARR_CVT_##kf##kt(f, t, x)

#define USMARR_CVT_BB(f, t, x) (x)
#define USMARR_CVT_BI(f, t, x) ((USMARR_COMPUTE(t))(x))
#define USMARR_CVT_BH(f, t, x) ((float)(x))
#define USMARR_CVT_BF(f, t, x) ((USMARR_COMPUTE(t))(x))
#define USMARR_CVT_BC(f, t, x) ((USMARR_COMPUTE(t))((USMARR_REAL(t))(x), (USMARR_REAL(t))0))

#define USMARR_CVT_IB(f, t, x) ((uchar)((x) != 0))
#define USMARR_CVT_II(f, t, x) ((USMARR_COMPUTE(t))(x))
#define USMARR_CVT_IH(f, t, x) ((USMARR_HWIDE(f))(x))
#define USMARR_CVT_IF(f, t, x) ((USMARR_COMPUTE(t))(x))
#define USMARR_CVT_IC(f, t, x) ((USMARR_COMPUTE(t))((USMARR_REAL(t))(x), (USMARR_REAL(t))0))

#define USMARR_CVT_FB(f, t, x) ((uchar)((x) != 0))
/* NaN is mapped to 0 before the saturating conversion: the spec already says NaN -> 0,
 * but Intel's CPU runtime gives UINT_MAX for convert_uint_sat_rtz(NaN). */
#define USMARR_NONAN(x) (isnan(x) ? 0 : (x))
#define USMARR_CVT_FI(f, t, x) USMARR_CAT3(convert_, USMARR_COMPUTE(t), _sat_rtz)(USMARR_NONAN(x))
#define USMARR_CVT_FH(f, t, x) (x)
#define USMARR_CVT_FF(f, t, x) ((USMARR_COMPUTE(t))(x))
#define USMARR_CVT_FC(f, t, x) ((USMARR_COMPUTE(t))((USMARR_REAL(t))(x), (USMARR_REAL(t))0))

#define USMARR_CVT_HB USMARR_CVT_FB
#define USMARR_CVT_HI USMARR_CVT_FI
#define USMARR_CVT_HH(f, t, x) (x)
#define USMARR_CVT_HF USMARR_CVT_FF
#define USMARR_CVT_HC USMARR_CVT_FC

#define USMARR_CVT_CB(f, t, x) ((uchar)(((x).s0 != 0) | ((x).s1 != 0)))
#define USMARR_CVT_CI(f, t, x) USMARR_CAT3(convert_, USMARR_COMPUTE(t), _sat_rtz)(USMARR_NONAN((x).s0))
#define USMARR_CVT_CH(f, t, x) ((x).s0)
#define USMARR_CVT_CF(f, t, x) ((USMARR_COMPUTE(t))((x).s0))
#define USMARR_CVT_CC(f, t, x) USMARR_CAT(convert_, USMARR_COMPUTE(t))(x)

#define USMARR_CVT_XX(f, t, x) (x)

/* Vector forms (16 lanes) for tags with USMARR_VECTOR_OK. */
#define USMARR_VCONVERT(f, t, x) USMARR_VCVT_(USMARR_KIND(f), USMARR_KIND(t), f, t, x)
#define USMARR_VCVT_(kf, kt, f, t, x) USMARR_VCVT__(kf, kt, f, t, x)
#define USMARR_VCVT__(kf, kt, f, t, x) USMARR_VCVT_##kf##kt(f, t, x)
#define USMARR_VCVT_II(f, t, x) USMARR_CAT(convert_, USMARR_VCOMPUTE(t))(x)
#define USMARR_VCVT_IF USMARR_VCVT_II
#define USMARR_VCVT_IH(f, t, x) USMARR_CAT3(convert_, USMARR_HWIDE(f), 16)(x)
#define USMARR_VCVT_FI(f, t, x) USMARR_CAT3(convert_, USMARR_VCOMPUTE(t), _sat_rtz)(select((x), (USMARR_VCOMPUTE(f))(0), isnan(x)))
#define USMARR_VCVT_FF USMARR_VCVT_II
#define USMARR_VCVT_FH(f, t, x) (x)
#define USMARR_VCVT_HI USMARR_VCVT_FI
#define USMARR_VCVT_HF USMARR_VCVT_II
#define USMARR_VCVT_HH(f, t, x) (x)

/* ---- helpers shared by several families ----------------------------------------------- */

/* counts[0, n) replaced by their exclusive prefix sums and counts[n] set to their total, by
 * one work-item: the chunks' offsets of a compaction (cl/index.cl) and of unique's heads
 * (cl/sort.cl). */
static inline void usmarr_chunk_offsets(global long *counts, long n)
{
    long sum = 0;
    for (long c = 0; c < n; c++) {
        long t = counts[c];
        counts[c] = sum;
        sum += t;
    }
    counts[n] = sum;
}

/* NumPy's complex product as its reductions and accumulations compute it (prod,
 * cumulative_prod): each part the difference or sum of two rounded products, never fused
 * (fma(a, b, -c*d) is inf where the rounded a*b - c*d is inf - inf = NaN past an overflow),
 * no recovery of infinities.  cl/complex.cl's c_mul, cl/reduce.cl's and cl/scan.cl's
 * products. */
static inline __attribute__((overloadable)) float2 usmarr_cmul(float2 a, float2 b)
{
#pragma OPENCL FP_CONTRACT OFF
    return (float2)(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}
#if USMARR_HAS_FP64
static inline __attribute__((overloadable)) double2 usmarr_cmul(double2 a, double2 b)
{
#pragma OPENCL FP_CONTRACT OFF
    return (double2)(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}
#endif

/* The linalg families' real type's bit fields (-DLA_DOUBLE: double, else float): the
 * mantissa's width, the exponent's mask and bias, for scaling by powers of two with
 * integer operations (cl/linalg_lu.cl, cl/linalg_eig.cl). */
#ifdef LA_DOUBLE
#define LA_MANT 52
#define LA_EMASK 0x7ff
#define LA_BIAS 1023
#else
#define LA_MANT 23
#define LA_EMASK 0xff
#define LA_BIAS 127
#endif

/* Several small matrices a work-item, as the lanes of one vector (cl/linalg_lu.cl and
 * cl/linalg_eig.cl, with -DLA_LANES=<lanes> -DLA_NMAX=<order>): LA_V is the vector of the
 * family's real type LA_R, LA_VI the mask its comparisons give, and LA_LANE(view, e, l)
 * element e of lane l in the scalar view of a private array of LA_V. */
#ifdef LA_LANES
#define LA_V USMARR_CAT(LA_R, LA_LANES)
#ifdef LA_DOUBLE
#define LA_VS long
#else
#define LA_VS int
#endif
#define LA_VI USMARR_CAT(LA_VS, LA_LANES)
#define LA_LANE(view, e, l) (view)[(e) * LA_LANES + (l)]
#endif
