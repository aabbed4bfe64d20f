/* reduce.cl: reductions and the cumulative functions, as custom kernels (lib/engine/engine_internal.h, section 3).
 *
 * One program per input dtype (-DD1=<tag>) holds every reduction as its own kernel, so a
 * dtype costs one compile whatever is reduced.  The host (lib/ops/reduce.c) reduces any axis
 * set to at most two kept dims (an NDRange of outputs) and at most two reduced dims (a
 * loop), merging dims that are jointly contiguous; everything else is first copied into
 * (kept, reduced) order.  One work-item makes one output, so every shape class maps to
 * whole-machine parallelism: an inner contiguous reduced axis is a contiguous loop (16 lanes
 * at a time for float sums), an outer axis has neighbouring work-items reading neighbouring
 * addresses, a short axis (4M x 3) is 4M work-items of 3 loads, and "all axes" (few
 * outputs) splits the outer reduced dim into `parts` partial results that a second launch
 * combines.  Accumulation dtypes follow NumPy (sum of int32 is int64, of bool int64).
 *
 * Kernel arguments, every reduction:
 *   out, in      element [0,...] of the output (or partials) and of the input
 *   ks, ko, ki   kept shape (s0 outer, s1 inner) and the output's / input's strides
 *   rs, ri       reduced shape and the input's strides
 *   chunk, po    outer reduced elements per part, and the output stride between parts
 *   count        the number of elements a mean divides by
 */
#define R_T D1
#define R_CT USMARR_COMPUTE(D1)
#define R_K USMARR_KIND(D1)

/* NumPy's accumulation/result dtypes by input kind */
#define R_SUMTAG_(k) R_SUMTAG__(k)
#define R_SUMTAG__(k) R_SUMTAG_##k
#define R_SUMTAG_B i64
#define R_SUMTAG_H f16
#define R_SUMTAG_F D1
#define R_SUMTAG_C D1
#ifdef R_UNSIGNED
#define R_SUMTAG_I u64
#else
#define R_SUMTAG_I i64
#endif
#define R_SUMTAG R_SUMTAG_(R_K)
#define R_SUM_CT USMARR_COMPUTE(R_SUMTAG)
/* mean: integers and bool in float64, floats and complex in their own type */
#define R_MEANTAG_B f64
#define R_MEANTAG_I f64
#define R_MEANTAG_H f16
#define R_MEANTAG_F D1
#define R_MEANTAG_C D1
#define R_MEANTAG_(k) R_MEANTAG__(k)
#define R_MEANTAG__(k) R_MEANTAG_##k
#define R_MEANTAG R_MEANTAG_(R_K)
#define R_MEAN_CT USMARR_COMPUTE(R_MEANTAG)

#define R_LOAD(i) USMARR_LOADP(D1, in, (i))
/* The element at flat input offset i, reduced indices (r0, r1) (kept k0, k1 in scope).  A
 * fused expression's program (lib/ops/expr_build.c) defines R_FUSED, its own R_ELEM that
 * computes the value from its operands (R_FUSED_PARAMS: their pointers and strides, its
 * scalars, after `count`) and R_KEEP_<name> for the kernels it needs: D1 is then the
 * expression's dtype and `in` is not read. */
#ifndef R_ELEM
#define R_ELEM(i, r0, r1) R_LOAD(i)
#endif
#ifndef R_FUSED_PARAMS
#define R_FUSED_PARAMS
#endif
#ifdef R_FUSED
#define R_KEEP(name) R_KEEP_##name /* pasted unexpanded: PoCL defines some of these names as macros */
#else
#define R_KEEP(name) USMARR_WANT(reduce_##name) /* one program per reduction kernel */
#endif
/* The sum's 16-lane path over an inner contiguous reduced axis: 16 consecutive elements
 * (v-th group of row pointer p, reduced indices r0, r1) and one element (r1 of the row,
 * r1abs from its start).  A fused expression gives R_VELEM(r0, r1) (its 16-vector value)
 * and R_FUSED_UNIT (every operand contiguous along reduced dim 1) when its functions have
 * 16-vector forms. */
#ifdef R_FUSED
#define R_VEC_OK (rs.s1 >= 32 && R_FUSED_UNIT)
#define R_VLOAD16(p, v, r0, r1) R_VELEM(r0, r1)
#define R_TAIL(p, r1, r0, r1abs) R_ELEM(0, r0, r1abs)
#else
#define R_VEC_OK (ri.s1 == 1 && rs.s1 >= 32)
#define R_VLOAD16(p, v, r0, r1) USMARR_VLOADP(D1, p, v)
#define R_TAIL(p, r1, r0, r1abs) USMARR_LOADP(D1, p, r1)
#endif
#define R_IS_CPLX_C 1
#define R_IS_CPLX_B 0
#define R_IS_CPLX_I 0
#define R_IS_CPLX_H 0
#define R_IS_CPLX_F 0
#define R_CPLX_(k) R_CPLX__(k)
#define R_CPLX__(k) R_IS_CPLX_##k
#define R_CPLX R_CPLX_(R_K)
#define R_IS_FLT_H 1
#define R_IS_FLT_F 1
#define R_IS_FLT_B 0
#define R_IS_FLT_I 0
#define R_IS_FLT_C 0
#define R_FLT_(k) R_FLT__(k)
#define R_FLT__(k) R_IS_FLT_##k
#define R_FLT R_FLT_(R_K)

#if R_CPLX
/* complex product (NumPy's, cl/prelude.cl) and NumPy's lexicographic order (the elementwise
 * family has the full set) */
#define R_CMUL(a, b) usmarr_cmul((a), (b))
#define R_NAN(a) (isnan((a).x) || isnan((a).y))
#define R_LT(a, b) (((a).x < (b).x && (a).y == (a).y && (b).y == (b).y) || ((a).x == (b).x && (a).y < (b).y))
#define R_TRUTH(a) ((a).x != 0 || (a).y != 0)
#elif R_FLT
#define R_NAN(a) isnan(a)
#define R_LT(a, b) ((a) < (b))
#define R_TRUTH(a) ((a) != 0)
#else
#define R_NAN(a) 0
#define R_LT(a, b) ((a) < (b))
#define R_TRUTH(a) ((a) != 0)
#endif

/* A work-item reduces the flat reduced range [js, je) (C order over the reduced dims; the
 * whole range unless the host split it into parts).  `j` is the flat index (argmin). */
#define R_HEAD                                                                                        \
    long k1 = get_global_id(0), k0 = get_global_id(1), part = get_global_id(2);                       \
    if (k1 >= ks.s1 || k0 >= ks.s0)                                                                   \
        return;                                                                                       \
    long ib = k0 * ki.s0 + k1 * ki.s1, ob = k0 * ko.s0 + k1 * ko.s1 + part * po;                     \
    long js = part * chunk, je = min(js + chunk, rs.s0 * rs.s1);                                      \
    long r0_ = rs.s1 ? js / rs.s1 : 0, r1_ = js - r0_ * rs.s1; /* empty range: no division by 0 */   \
    long first = ib + r0_ * ri.s0 + r1_ * ri.s1;
#define R_LOOP(STEP)                                                                                  \
    {                                                                                                 \
        long r0 = r0_, r1s = r1_;                                                                     \
        for (long j = js; j < je; r0++, r1s = 0) {                                                    \
            long p = ib + r0 * ri.s0, run = min(rs.s1 - r1s, je - j);                                 \
            for (long r1 = r1s; r1 < r1s + run; r1++, j++) {                                          \
                R_CT v = R_ELEM(p + r1 * ri.s1, r0, r1);                                              \
                STEP;                                                                                 \
            }                                                                                         \
        }                                                                                             \
    }
#define R_PARAMS(OUTTAG)                                                                              \
    global USMARR_STORAGE(OUTTAG) *out, global const USMARR_STORAGE(D1) *in, long2 ks, long2 ko,      \
        long2 ki, long2 rs, long2 ri, long chunk, long po, long count R_FUSED_PARAMS
/* A reduction kernel by one accumulator over its part's range: acc = INIT, STEP for every
 * element v, then STORE (a statement over acc). */
#define R_FOLD_KERNEL(NAME, OUTTAG, ACC_T, INIT, STEP, STORE)                                        \
    kernel void usmarr_reduce_##NAME(R_PARAMS(OUTTAG))                                                \
    {                                                                                                 \
        R_HEAD                                                                                        \
        ACC_T acc = INIT;                                                                             \
        R_LOOP(STEP)                                                                                  \
        STORE;                                                                                        \
    }
#if R_CPLX
#define R_PROD_ONE ((R_SUM_CT)(1, 0))
#define R_MEAN_OF(s) ((s) / (USMARR_REAL(D1))count)
#else
#define R_PROD_ONE ((R_SUM_CT)1)
#define R_MEAN_OF(s) ((s) / (R_MEAN_CT)count)
#endif

/* 16-lane vectors over an inner contiguous reduced axis (R_VEC_OK): four accumulators
 * a0..a3 (VDECL(a) declares one) take each run of the part's range along reduced dim 1
 * 64 elements at a time, the 16 at flat index jj going to one (VSTEP(a, x, jj): four
 * chains of dependent steps, not one), what is left of 64 to a0, the tail one element at
 * a time (v at j: STEP, as the loops); VJOIN(a) then folds each accumulator's lanes into
 * the scalar one, a0 first.  An element's lane and accumulator follow from its place in
 * the run alone, whatever the device's own vector width, so results never depend on it.
 * R_VX is the 16-vector of the compute type (bool: its uchar bytes, as stored). */
#define R_IS_BOOL_B 1
#define R_IS_BOOL_I 0
#define R_IS_BOOL_H 0
#define R_IS_BOOL_F 0
#define R_IS_BOOL_C 0
#define R_BOOL_(k) R_BOOL__(k)
#define R_BOOL__(k) R_IS_BOOL_##k
#define R_BOOL R_BOOL_(R_K)
#if R_BOOL && !defined(R_FUSED)
#define R_VROWS_OK 1
#define R_VX uchar16
#undef R_VLOAD16
#define R_VLOAD16(p, v, r0, r1) vload16((v), (p))
#elif USMARR_VECTOR_OK(D1) && (!defined(R_FUSED) || defined(R_VELEM))
#define R_VROWS_OK 1
#define R_VX USMARR_VCOMPUTE(D1)
#else
#define R_VROWS_OK 0
#endif
#define R_VROWS(VDECL, VSTEP, STEP, VJOIN) R_VROWS_BY(VDECL, R_VSTEP_EACH, VSTEP, STEP, VJOIN)
/* the 64 elements x0..x3 at jj, a vector to each accumulator */
#define R_VSTEP_EACH(VSTEP, x0, x1, x2, x3, jj)                                                       \
    VSTEP(a0, x0, jj);                                                                                \
    VSTEP(a1, x1, jj + 16);                                                                           \
    VSTEP(a2, x2, jj + 32);                                                                           \
    VSTEP(a3, x3, jj + 48);
/* R_VROWS with VSTEP4(VSTEP, x0, x1, x2, x3, jj) taking each group of 64 elements */
#define R_VROWS_BY(VDECL, VSTEP4, VSTEP, STEP, VJOIN)                                                 \
    {                                                                                                 \
        VDECL(a0);                                                                                    \
        VDECL(a1);                                                                                    \
        VDECL(a2);                                                                                    \
        VDECL(a3);                                                                                    \
        long r0 = r0_, r1s = r1_;                                                                     \
        for (long j = js; j < je; r0++, r1s = 0) {                                                    \
            global const USMARR_STORAGE(D1) *p = in + ib + r0 * ri.s0 + r1s;                          \
            long run = min(rs.s1 - r1s, je - j), n16 = run / 16, g = 0;                               \
            for (; g + 4 <= n16; g += 4, j += 64) {                                                   \
                R_VX x0 = R_VLOAD16(p, g, r0, r1s + g * 16);                                          \
                R_VX x1 = R_VLOAD16(p, g + 1, r0, r1s + g * 16 + 16);                                 \
                R_VX x2 = R_VLOAD16(p, g + 2, r0, r1s + g * 16 + 32);                                 \
                R_VX x3 = R_VLOAD16(p, g + 3, r0, r1s + g * 16 + 48);                                 \
                VSTEP4(VSTEP, x0, x1, x2, x3, j)                                                      \
            }                                                                                         \
            for (; g < n16; g++, j += 16) {                                                           \
                R_VX x0 = R_VLOAD16(p, g, r0, r1s + g * 16);                                          \
                VSTEP(a0, x0, j);                                                                     \
            }                                                                                         \
            for (long r1 = n16 * 16; r1 < run; r1++, j++) {                                           \
                R_CT v = R_TAIL(p, r1, r0, r1s + r1);                                                 \
                STEP;                                                                                 \
            }                                                                                         \
        }                                                                                             \
        VJOIN(a0);                                                                                    \
        VJOIN(a1);                                                                                    \
        VJOIN(a2);                                                                                    \
        VJOIN(a3);                                                                                    \
    }
/* A reduction kernel over rows: DECL declares acc (and what else STORE reads), then the
 * 16-lane path where VOK holds (VDECL, VSTEP4, VSTEP, VJOIN, as R_VROWS_BY; VSTEP4 is
 * R_VSTEP_EACH but for argmin/argmax), else the loops' STEP.  (One macro level: PoCL
 * defines names such as min, max, all and any as macros, which a second would expand.) */
#if R_VROWS_OK
#define R_ROW_KERNEL(NAME, OUTTAG, DECL, STEP, VOK, VDECL, VSTEP4, VSTEP, VJOIN, STORE)               \
    kernel void usmarr_reduce_##NAME(R_PARAMS(OUTTAG))                                                \
    {                                                                                                 \
        R_HEAD                                                                                        \
        DECL;                                                                                         \
        if (VOK)                                                                                      \
            R_VROWS_BY(VDECL, VSTEP4, VSTEP, STEP, VJOIN)                                             \
        else                                                                                          \
            R_LOOP(STEP)                                                                              \
        STORE;                                                                                        \
    }
#else
#define R_ROW_KERNEL(NAME, OUTTAG, DECL, STEP, VOK, VDECL, VSTEP4, VSTEP, VJOIN, STORE)               \
    kernel void usmarr_reduce_##NAME(R_PARAMS(OUTTAG))                                                \
    {                                                                                                 \
        R_HEAD                                                                                        \
        DECL;                                                                                         \
        R_LOOP(STEP)                                                                                  \
        STORE;                                                                                        \
    }
#endif
/* the 16 lanes of a vector one by one (l, in lane order) */
#define R_EACH_LANE(T, vec, l, BODY)                                                                  \
    {                                                                                                 \
        T lanes_[16];                                                                                 \
        vstore16((vec), 0, lanes_);                                                                   \
        for (int i_ = 0; i_ < 16; i_++) {                                                             \
            T l = lanes_[i_];                                                                         \
            BODY;                                                                                     \
        }                                                                                             \
    }
/* 16 partial sums, added pairwise (as the tree of an 8-wide then a 2-wide fold) */
#define R_LANE_SUM(a)                                                                                 \
    (((a.lo.lo.lo.x + a.lo.lo.lo.y) + (a.lo.lo.hi.x + a.lo.lo.hi.y)) +                                \
     ((a.lo.hi.lo.x + a.lo.hi.lo.y) + (a.lo.hi.hi.x + a.lo.hi.hi.y)) +                                \
     ((a.hi.lo.lo.x + a.hi.lo.lo.y) + (a.hi.lo.hi.x + a.hi.lo.hi.y)) +                                \
     ((a.hi.hi.lo.x + a.hi.hi.lo.y) + (a.hi.hi.hi.x + a.hi.hi.hi.y)))

/* sum and mean of floats: 16 lanes of partial sums (also more accurate than one running
 * sum); the mean divides the sum once */
#define R_VSUM_DECL(a) R_VX a = 0
#define R_VSUM_STEP(a, x, jj) a += x
#define R_VSUM_JOIN(a) acc += R_LANE_SUM(a)
#if R_KEEP(sum) && R_FLT
R_ROW_KERNEL(sum, R_SUMTAG, R_SUM_CT acc = 0, acc += USMARR_CONVERT(D1, R_SUMTAG, v), R_VEC_OK, R_VSUM_DECL,
             R_VSTEP_EACH, R_VSUM_STEP, R_VSUM_JOIN, USMARR_STOREP(R_SUMTAG, out, ob, acc))
#elif R_KEEP(sum) && !R_CPLX
/* integers and bool: 16 lanes of int64/uint64 sums (exact, whatever the order) */
#define R_WSUM_VT USMARR_CAT(R_SUM_CT, 16)
#define R_WSUM_VDECL(a) R_WSUM_VT a = 0
#define R_WSUM_VSTEP(a, x, jj) a += USMARR_CAT(convert_, R_WSUM_VT)(x)
R_ROW_KERNEL(sum, R_SUMTAG, R_SUM_CT acc = 0, acc += USMARR_CONVERT(D1, R_SUMTAG, v), R_VEC_OK, R_WSUM_VDECL,
             R_VSTEP_EACH, R_WSUM_VSTEP, R_VSUM_JOIN, USMARR_STOREP(R_SUMTAG, out, ob, acc))
#elif R_KEEP(sum)
R_FOLD_KERNEL(sum, R_SUMTAG, R_SUM_CT, 0, acc += USMARR_CONVERT(D1, R_SUMTAG, v),
              USMARR_STOREP(R_SUMTAG, out, ob, acc))
#endif

#define R_COLS 128 /* outputs a work-item in the column kernels (below) */

#if R_KEEP(prod) && R_CPLX
/* complex: the product starts from the first element, as NumPy's: (1 + 0j) * v is not v
 * where a part of v is infinite (0 * inf) or zero (the sign of 0 - 0) */
R_FOLD_KERNEL(prod, R_SUMTAG, R_SUM_CT, R_PROD_ONE, acc = j == js ? v : R_CMUL(acc, v),
              USMARR_STOREP(R_SUMTAG, out, ob, acc))
#elif R_KEEP(prod) && R_FLT
/* floats: 64 partial products in lanes, multiplied together in a fixed order */
#define R_VPROD_DECL(a) R_VX a = 1
#define R_VPROD_STEP(a, x, jj) a *= x
#define R_VPROD_JOIN(a) R_EACH_LANE(R_CT, a, v, acc *= v)
R_ROW_KERNEL(prod, R_SUMTAG, R_SUM_CT acc = 1, acc *= USMARR_CONVERT(D1, R_SUMTAG, v), R_VEC_OK, R_VPROD_DECL,
             R_VSTEP_EACH, R_VPROD_STEP, R_VPROD_JOIN, USMARR_STOREP(R_SUMTAG, out, ob, acc))
#elif R_KEEP(prod)
R_FOLD_KERNEL(prod, R_SUMTAG, R_SUM_CT, R_PROD_ONE, acc *= USMARR_CONVERT(D1, R_SUMTAG, v),
              USMARR_STOREP(R_SUMTAG, out, ob, acc))
#endif

#if R_KEEP(mean) && R_FLT
R_ROW_KERNEL(mean, R_MEANTAG, R_MEAN_CT acc = 0, acc += USMARR_CONVERT(D1, R_MEANTAG, v), R_VEC_OK, R_VSUM_DECL,
             R_VSTEP_EACH, R_VSUM_STEP, R_VSUM_JOIN, USMARR_STOREP(R_MEANTAG, out, ob, R_MEAN_OF(acc)))
#elif R_KEEP(mean)
R_FOLD_KERNEL(mean, R_MEANTAG, R_MEAN_CT, (R_MEAN_CT)(0), acc += USMARR_CONVERT(D1, R_MEANTAG, v),
              USMARR_STOREP(R_MEANTAG, out, ob, R_MEAN_OF(acc)))
#endif

/* min/max: NaN wins and stays (NumPy propagates it); the host rejects empty reductions.
 * argmin/argmax: the first occurrence (strictly better values only), the first NaN.
 * BEFORE(a, b): a ranks before b (R_LT for the minimum, R_GT for the maximum). */
#define R_GT(a, b) R_LT(b, a)
/* b takes a's place: a is not NaN, and b is NaN or ranks before a */
#define R_WINS(BEFORE, b, a) (!R_NAN(a) && (R_NAN(b) || BEFORE(b, a)))
#define R_EXTREME_STEP(BEFORE) if (R_WINS(BEFORE, v, acc)) acc = v
/* the same lane by lane (R_VX masks; b and a 16-vectors) */
#if R_FLT
#define R_VWINS(BEFORE, b, a) (!isnan(a) & (isnan(b) | BEFORE(b, a)))
#else
#define R_VWINS(BEFORE, b, a) BEFORE(b, a)
#endif
/* b at flat index ib ranks before a at ia: the first NaN, else the extreme, ties to the
 * smaller index (the tree rows do not see their elements in order) */
#define R_ARG_BETTER(BEFORE, b, ib, a, ia)                                                            \
    (R_NAN(a) ? (R_NAN(b) && (ib) < (ia)) : (R_NAN(b) || BEFORE(b, a) || (!BEFORE(a, b) && (ib) < (ia))))
#ifdef POCL_DEVICE_ADDRESS_BITS
/* argmin/argmax in rows on PoCL, by blocks of 64 elements (x0..x3; of 16 where fewer are
 * left in the run): the block's extreme lane by lane (m_, the plain comparison), then one
 * select keeps each lane's extreme and one the offset from js of the block where it last
 * became strictly better (int: the host keeps the parts and rows under 2^31 elements here;
 * -1: the first element's value, never bettered).  NaN is noted on the side, as min and max
 * do.  The lanes then give the extreme and the first block that holds it (cm, cb; the
 * lanes of every accumulator but a0 are never stepped and hold the first element), and
 * R_ARG_STORE rescans that block for its first element equal to cm, or where a NaN was
 * noted the part for its first NaN; the tail's elements (acc at `at`) join by R_ARG_BETTER. */
#define R_ARG_VDECL(a) R_VX a##v = (R_VX)(acc); int16 a##b = -1; R_NAN_VDECL(a)
#define R_ARG_BLOCK(BEFORE, a, m_, jj)                                                                \
    {                                                                                                 \
        int16 w_ = convert_int16(BEFORE(m_, a##v));                                                   \
        a##b = select(a##b, (int16)((int)((jj) - js)), w_);                                           \
        a##v = select(a##v, m_, BEFORE(m_, a##v));                                                    \
    }
#define R_ARG_VSTEP(BEFORE, a, x, jj)                                                                 \
    R_ARG_BLOCK(BEFORE, a, x, jj)                                                                     \
    R_NOTE_NAN(a, x);
#define R_ARG_VSTEP4(BEFORE, x0, x1, x2, x3, jj)                                                      \
    {                                                                                                 \
        R_VX m01_ = select(x0, x1, BEFORE(x1, x0)), m23_ = select(x2, x3, BEFORE(x3, x2));            \
        R_VX m_ = select(m01_, m23_, BEFORE(m23_, m01_));                                             \
        R_ARG_BLOCK(BEFORE, a0, m_, jj)                                                               \
        R_NOTE_NAN2(a0, x0, x1);                                                                      \
        R_NOTE_NAN2(a0, x2, x3);                                                                      \
    }
#define R_ARGMIN_VSTEP(a, x, jj) R_ARG_VSTEP(R_LT, a, x, jj)
#define R_ARGMAX_VSTEP(a, x, jj) R_ARG_VSTEP(R_GT, a, x, jj)
#define R_ARGMIN_VSTEP4(VSTEP, x0, x1, x2, x3, jj) R_ARG_VSTEP4(R_LT, x0, x1, x2, x3, jj)
#define R_ARGMAX_VSTEP4(VSTEP, x0, x1, x2, x3, jj) R_ARG_VSTEP4(R_GT, x0, x1, x2, x3, jj)
#define R_ARG_VJOIN(BEFORE, a)                                                                        \
    {                                                                                                 \
        R_CT bv_[16];                                                                                 \
        int bb_[16];                                                                                  \
        vstore16(a##v, 0, bv_);                                                                       \
        vstore16(a##b, 0, bb_);                                                                       \
        for (int i_ = 0; i_ < 16 && any(a##b >= 0); i_++) /* (none bettered: nothing to join) */    \
            if (BEFORE(bv_[i_], cm) || (bv_[i_] == cm && bb_[i_] < cb)) {                             \
                cm = bv_[i_];                                                                         \
                cb = bb_[i_];                                                                         \
            }                                                                                         \
        R_JOIN_NAN(a);                                                                                \
    }
#define R_ARGMIN_VJOIN(a) R_ARG_VJOIN(R_LT, a)
#define R_ARGMAX_VJOIN(a) R_ARG_VJOIN(R_GT, a)
/* the first index of cm in block cb (it holds cm: the scan stops there), joined with the
 * tail's (acc, at); else the first NaN */
#define R_ARG_STORE(BEFORE)                                                                           \
    R_FIRST_NAN(at = j);                                                                              \
    if (!nan_ && cb >= 0) {                                                                           \
        long jb = js + cb, r0 = jb / rs.s1, r1 = jb - r0 * rs.s1, n = min(64L, min(je - jb, rs.s1 - r1)); \
        global const USMARR_STORAGE(D1) *p = in + ib + r0 * ri.s0;                                    \
        for (long k = 0; k < n; k++) {                                                                \
            R_CT v = R_TAIL(p, r1 + k, r0, r1 + k);                                                   \
            if (!BEFORE(v, cm) && !BEFORE(cm, v)) {                                                   \
                jb += k;                                                                              \
                break;                                                                                \
            }                                                                                         \
        }                                                                                             \
        if (R_ARG_BETTER(BEFORE, cm, jb, acc, at))                                                    \
            at = jb;                                                                                  \
    }                                                                                                 \
    out[ob] = at
#define R_ARG_EXTREME_KERNEL(NAME, BEFORE, VSTEP4, VSTEP, VJOIN)                                      \
    R_ROW_KERNEL(NAME, i64, R_CT acc = R_ELEM(first, r0_, r1_); long at = js; int nan_ = 0;        \
                    R_CT cm = acc; int cb = -1, if (R_WINS(BEFORE, v, acc)) { acc = v; at = j; },     \
                    R_VEC_OK && je - js < INT_MAX, R_ARG_VDECL, VSTEP4, VSTEP, VJOIN, R_ARG_STORE(BEFORE))
#else
/* Elsewhere each lane keeps its best value and its offset from js (int, as above; strictly
 * better values only, so the lane's first), and the lanes join by R_ARG_BETTER: Intel's
 * CPU runtime took 2-3 times as long over the blocks above (argmax along axis 1 of a
 * 2048 x 2048 float32) as this way. */
#define R_IOTA16 ((int16)(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15))
#define R_ARG_VDECL(a) R_VX a##v = (R_VX)(acc); int16 a##i = 0; R_NAN_VDECL(a)
#define R_ARG_VSTEP(BEFORE, a, x, jj)                                                                 \
    {                                                                                                 \
        int16 w_ = convert_int16(BEFORE(x, a##v));                                                    \
        a##i = select(a##i, (int16)((int)((jj) - js)) + R_IOTA16, w_);                                \
        a##v = select(a##v, x, BEFORE(x, a##v));                                                      \
        R_NOTE_NAN(a, x);                                                                             \
    }
#define R_ARGMIN_VSTEP(a, x, jj) R_ARG_VSTEP(R_LT, a, x, jj)
#define R_ARGMAX_VSTEP(a, x, jj) R_ARG_VSTEP(R_GT, a, x, jj)
#define R_ARG_VJOIN(BEFORE, a)                                                                        \
    {                                                                                                 \
        R_CT bv_[16];                                                                                 \
        int bi_[16];                                                                                  \
        vstore16(a##v, 0, bv_);                                                                       \
        vstore16(a##i, 0, bi_);                                                                       \
        for (int i_ = 0; i_ < 16; i_++)                                                               \
            if (R_ARG_BETTER(BEFORE, bv_[i_], js + bi_[i_], acc, at)) {                               \
                acc = bv_[i_];                                                                        \
                at = js + bi_[i_];                                                                    \
            }                                                                                         \
        R_JOIN_NAN(a);                                                                                \
    }
#define R_ARGMIN_VJOIN(a) R_ARG_VJOIN(R_LT, a)
#define R_ARGMAX_VJOIN(a) R_ARG_VJOIN(R_GT, a)
#define R_ARG_EXTREME_KERNEL(NAME, BEFORE, VSTEP4, VSTEP, VJOIN)                                      \
    R_ROW_KERNEL(NAME, i64, R_CT acc = R_ELEM(first, r0_, r1_); long at = js; int nan_ = 0,           \
                 if (R_WINS(BEFORE, v, acc)) { acc = v; at = j; }, R_VEC_OK && je - js < INT_MAX,      \
                 R_ARG_VDECL, R_VSTEP_EACH, VSTEP, VJOIN, R_FIRST_NAN(at = j); out[ob] = at)
#endif
/* min and max in lanes: the plain comparison (a select the compilers make one min or max
 * instruction of) and NaN noted on the side (nan_); the tail keeps the loops' rule.  Where
 * a NaN was noted, R_FIRST_NAN makes the part's first NaN the result (a scan by the
 * loops, only then), so the result is the loops' own. */
#if R_FLT
#define R_VMASK_f16 int16
#define R_VMASK_f32 int16
#define R_VMASK_f64 long16
#define R_NAN_VDECL(a) USMARR_CAT(R_VMASK_, D1) a##n = 0
#define R_NOTE_NAN(a, x) a##n |= (x) != (x)
#define R_NOTE_NAN2(a, x, y) a##n |= ((x) != (x)) | ((y) != (y))
#define R_JOIN_NAN(a) nan_ |= any(a##n)
#else
#define R_NAN_VDECL(a)
#define R_NOTE_NAN(a, x)
#define R_NOTE_NAN2(a, x, y)
#define R_JOIN_NAN(a)
#endif
#define R_FIRST_NAN(AT)                                                                               \
    if (nan_)                                                                                         \
        R_LOOP(if (R_NAN(v)) {                                                                        \
            acc = v;                                                                                  \
            AT;                                                                                       \
            j = je;                                                                                   \
            break;                                                                                    \
        })
#define R_EXTREME_VDECL(a) R_VX a = (R_VX)(acc); R_NAN_VDECL(a)
#define R_MIN_VSTEP(a, x, jj) a = select(a, x, (x) < a); R_NOTE_NAN(a, x)
#define R_MAX_VSTEP(a, x, jj) a = select(a, x, (x) > a); R_NOTE_NAN(a, x)
/* The joins: a1..a3 into a0 by the built-in min or max (OP), then a0's lanes halves against
 * halves, then acc by the comparison (CMP; NaN in acc stays).  The order of the lanes does
 * not change an extreme's value, and where NaN was noted R_FIRST_NAN decides; a loop over
 * the 64 lanes instead took 15 % of max's time along the rows of a 2048 x 2048 int32. */
#define R_HALVES(OP, v) OP((v).lo, (v).hi)
#define R_LANES(OP, a) R_HALVES(OP, R_HALVES(OP, R_HALVES(OP, R_HALVES(OP, a))))
#define R_EXTREME_VJOIN_a0(OP, CMP) R_JOIN_NAN(a0)
#define R_EXTREME_VJOIN_a1(OP, CMP) a0 = OP(a0, a1); R_JOIN_NAN(a1)
#define R_EXTREME_VJOIN_a2(OP, CMP) a0 = OP(a0, a2); R_JOIN_NAN(a2)
#define R_EXTREME_VJOIN_a3(OP, CMP)                                                                   \
    a0 = OP(a0, a3);                                                                                  \
    R_JOIN_NAN(a3);                                                                                   \
    {                                                                                                 \
        R_CT m_ = R_LANES(OP, a0);                                                                    \
        if (m_ CMP acc)                                                                               \
            acc = m_;                                                                                 \
    }
#define R_MIN_VJOIN(a) R_EXTREME_VJOIN_##a(min, <)
#define R_MAX_VJOIN(a) R_EXTREME_VJOIN_##a(max, >)
#if R_KEEP(min)
R_ROW_KERNEL(min, D1, R_CT acc = R_ELEM(first, r0_, r1_); int nan_ = 0, R_EXTREME_STEP(R_LT), R_VEC_OK,
                R_EXTREME_VDECL, R_VSTEP_EACH, R_MIN_VSTEP, R_MIN_VJOIN, R_FIRST_NAN(;);
                USMARR_STOREP(D1, out, ob, acc))
#endif
#if R_KEEP(max)
R_ROW_KERNEL(max, D1, R_CT acc = R_ELEM(first, r0_, r1_); int nan_ = 0, R_EXTREME_STEP(R_GT), R_VEC_OK,
                R_EXTREME_VDECL, R_VSTEP_EACH, R_MAX_VSTEP, R_MAX_VJOIN, R_FIRST_NAN(;);
                USMARR_STOREP(D1, out, ob, acc))
#endif
/* argmin/argmax of parts (the host's split of few outputs over many elements): `parts`
 * holds each part's flat index (kept outputs x `chunk` parts, C order); the elements there
 * decide in part order, strictly better ones only (the first extreme, the first NaN) */
#define R_ARG_JOIN_KERNEL(NAME, BEFORE)                                                               \
    kernel void usmarr_reduce_##NAME##_join(R_PARAMS(i64), global const long *parts)                  \
    {                                                                                                 \
        long k1 = get_global_id(0), k0 = get_global_id(1);                                            \
        if (k1 >= ks.s1 || k0 >= ks.s0)                                                               \
            return;                                                                                   \
        long ib = k0 * ki.s0 + k1 * ki.s1;                                                            \
        global const long *pp = parts + (k0 * ks.s1 + k1) * chunk;                                    \
        R_CT acc = 0;                                                                                 \
        long at = -1;                                                                                 \
        for (long q = 0; q < chunk; q++) {                                                            \
            long j = pp[q], r0 = j / rs.s1, r1 = j - r0 * rs.s1;                                      \
            R_CT v = R_ELEM(ib + r0 * ri.s0 + r1 * ri.s1, r0, r1);                                    \
            if (at < 0 || R_WINS(BEFORE, v, acc)) {                                                   \
                acc = v;                                                                              \
                at = j;                                                                               \
            }                                                                                         \
        }                                                                                             \
        out[k0 * ko.s0 + k1 * ko.s1] = at;                                                            \
    }
#if R_KEEP(argmin_join)
R_ARG_JOIN_KERNEL(argmin, R_LT)
#endif
#if R_KEEP(argmax_join)
R_ARG_JOIN_KERNEL(argmax, R_GT)
#endif
#if R_KEEP(argmin)
R_ARG_EXTREME_KERNEL(argmin, R_LT, R_ARGMIN_VSTEP4, R_ARGMIN_VSTEP, R_ARGMIN_VJOIN)
#endif
#if R_KEEP(argmax)
R_ARG_EXTREME_KERNEL(argmax, R_GT, R_ARGMAX_VSTEP4, R_ARGMAX_VSTEP, R_ARGMAX_VJOIN)
#endif

/* all, any and count_nonzero: 16 truth lanes (-1 true), bool read as its bytes; all and
 * any stop at the first group that decides them */
#define R_VTRUE(x) convert_int16((x) != (R_VX)0)
/* (bool's truth masks stay in char lanes, as compared: no widening per 16 bytes) */
#if R_BOOL && !defined(R_FUSED)
#define R_VMASK_T char16
#define R_VTRUTH(x) ((x) != (R_VX)0)
#else
#define R_VMASK_T int16
#define R_VTRUTH(x) R_VTRUE(x)
#endif
#define R_ALL_VDECL(a) R_VMASK_T a = -1
#define R_ALL_VSTEP(a, x, jj)                                                                         \
    a &= R_VTRUTH(x);                                                                                 \
    if (!all(a)) {                                                                                    \
        j = je;                                                                                       \
        break;                                                                                        \
    }
#define R_ALL_VJOIN(a) acc &= (uchar)(all(a) != 0)
#define R_ANY_VDECL(a) R_VMASK_T a = 0
#define R_ANY_VSTEP(a, x, jj)                                                                         \
    a |= R_VTRUTH(x);                                                                                 \
    if (any(a)) {                                                                                     \
        j = je;                                                                                       \
        break;                                                                                        \
    }
#define R_ANY_VJOIN(a) acc |= (uchar)(any(a) != 0)
#define R_COUNT_VDECL(a) int16 a = 0
#define R_COUNT_VSTEP(a, x, jj) a -= R_VTRUE(x)
#define R_COUNT_VJOIN(a) acc += R_LANE_SUM(convert_long16(a))
#if R_KEEP(all)
R_ROW_KERNEL(all, b, uchar acc = 1, acc &= (uchar)R_TRUTH(v), R_VEC_OK, R_ALL_VDECL, R_VSTEP_EACH, R_ALL_VSTEP, R_ALL_VJOIN,
             out[ob] = acc)
#endif
#if R_KEEP(any)
R_ROW_KERNEL(any, b, uchar acc = 0, acc |= (uchar)R_TRUTH(v), R_VEC_OK, R_ANY_VDECL, R_VSTEP_EACH, R_ANY_VSTEP, R_ANY_VJOIN,
             out[ob] = acc)
#endif
#if R_KEEP(count_nonzero)
/* (a lane counts in 32 bits: at most 2^37 elements a work-item) */
R_ROW_KERNEL(count_nonzero, i64, long acc = 0, acc += R_TRUTH(v) ? 1 : 0, R_VEC_OK && je - js < (1L << 37),
             R_COUNT_VDECL, R_VSTEP_EACH, R_COUNT_VSTEP, R_COUNT_VJOIN, out[ob] = acc)
#endif

/* logsumexp and reduce_hypot (NumPy's logaddexp.reduce and hypot.reduce), real input only:
 * the float result dtype (bool and integers float64, float16 computed in float32).  A
 * running pair (m, s) stands for m + log(s) (logsumexp: m the largest element so far, s
 * the sum of exp(x - m)) or m * sqrt(s) (hypot: m the largest |x|, s the sum of (|x|/m)^2),
 * so nothing overflows.  step() takes one element, join() two pairs (the tree kernels);
 * both follow NumPy's special values: logsumexp NaN if any is NaN, else +inf if any is
 * +inf, -inf when empty or all -inf; hypot +inf if any is infinite (even with a NaN),
 * else NaN if any is NaN, 0 when empty. */
#if !R_CPLX
#define R_FLTTAG_B f64
#define R_FLTTAG_I f64
#define R_FLTTAG_H f16
#define R_FLTTAG_F D1
#define R_FLTTAG_(k) R_FLTTAG__(k)
#define R_FLTTAG__(k) R_FLTTAG_##k
#define R_FLTTAG R_FLTTAG_(R_K)
#define R_F_CT USMARR_COMPUTE(R_FLTTAG)
#define R_F_PAIR USMARR_CAT(R_F_CT, 2)
#define R_TO_F(v) USMARR_CONVERT(D1, R_FLTTAG, v)
#define R_LSE_INIT ((R_F_PAIR)(-INFINITY, 0))
#define R_HYPOT_INIT ((R_F_PAIR)(0, 0))

static inline R_F_PAIR r_lse_step(R_F_PAIR a, R_F_CT v)
{
    R_F_CT e = exp(-fabs(v - a.x)); /* exp(a.x - v) at a new maximum, else exp(v - a.x) */
    if (v > a.x) /* a new maximum (a.x may be -inf: s becomes 1) */
        return isinf(v) ? (R_F_PAIR)(v, 1) : (R_F_PAIR)(v, a.y * e + 1);
    if (v <= a.x) /* at an infinite maximum nothing changes */
        return isinf(a.x) ? a : (R_F_PAIR)(a.x, a.y + e);
    return (R_F_PAIR)(NAN, 1); /* v or the maximum is NaN */
}

static inline R_F_PAIR r_lse_join(R_F_PAIR a, R_F_PAIR b)
{
    if (isnan(a.x) || isnan(b.x))
        return (R_F_PAIR)(NAN, 1);
    R_F_CT m = fmax(a.x, b.x);
    if (isinf(m))
        return (R_F_PAIR)(m, m > 0 ? 1 : 0);
    return (R_F_PAIR)(m, a.y * exp(a.x - m) + b.y * exp(b.x - m));
}

static inline R_F_CT r_lse_value(R_F_PAIR a) { return isfinite(a.x) ? a.x + log(a.y) : a.x; }

static inline R_F_PAIR r_hypot_step(R_F_PAIR a, R_F_CT v)
{
    R_F_CT r = fabs(v);
    if (isinf(a.x))
        return a;
    if (r > a.x) {
        if (isinf(r))
            return (R_F_PAIR)(r, 1);
        R_F_CT q = a.x / r;
        return (R_F_PAIR)(r, a.y * q * q + 1);
    }
    if (r <= a.x) {
        if (r > 0) {
            R_F_CT q = r / a.x;
            a.y += q * q;
        }
        return a;
    }
    return isinf(r) ? (R_F_PAIR)(r, 1) : (R_F_PAIR)(NAN, 1);
}

static inline R_F_PAIR r_hypot_join(R_F_PAIR a, R_F_PAIR b)
{
    if (isinf(a.x) || isinf(b.x))
        return (R_F_PAIR)(INFINITY, 1);
    if (isnan(a.x) || isnan(b.x))
        return (R_F_PAIR)(NAN, 1);
    R_F_CT m = fmax(a.x, b.x);
    if (m == 0)
        return R_HYPOT_INIT;
    R_F_CT qa = a.x / m, qb = b.x / m;
    return (R_F_PAIR)(m, a.y * qa * qa + b.y * qb * qb);
}

static inline R_F_CT r_hypot_value(R_F_PAIR a) { return a.x * sqrt(a.y); }

#if R_KEEP(logsumexp) && R_FLT && R_VROWS_OK
/* rows of floats in two passes instead (the row is in cache for the second): the maximum
 * m (NaN wins), then, m finite, m + log(s) for s the sum of exp(x - m) in 16 lanes, s >= 1;
 * an infinite or NaN m is the result as it is (every element -inf, an inf, a NaN) */
#define R_LSE_VSTEP(a, x, jj) a += exp(x - (R_VX)(m))
kernel void usmarr_reduce_logsumexp(R_PARAMS(R_FLTTAG))
{
    R_HEAD
    if (R_VEC_OK) {
        R_CT acc = R_ELEM(first, r0_, r1_);
        int nan_ = 0;
        R_VROWS(R_EXTREME_VDECL, R_MAX_VSTEP, R_EXTREME_STEP(R_GT), R_MAX_VJOIN)
        R_CT m = nan_ ? (R_CT)NAN : acc;
        if (isfinite(m)) {
            acc = 0;
            R_VROWS(R_VSUM_DECL, R_LSE_VSTEP, acc += exp(v - m), R_VSUM_JOIN)
            m += log(acc);
        }
        USMARR_STOREP(R_FLTTAG, out, ob, m);
        return;
    }
    R_F_PAIR acc = R_LSE_INIT;
    R_LOOP(acc = r_lse_step(acc, R_TO_F(v)))
    USMARR_STOREP(R_FLTTAG, out, ob, r_lse_value(acc));
}
#elif R_KEEP(logsumexp)
R_FOLD_KERNEL(logsumexp, R_FLTTAG, R_F_PAIR, R_LSE_INIT, acc = r_lse_step(acc, R_TO_F(v)),
              USMARR_STOREP(R_FLTTAG, out, ob, r_lse_value(acc)))
#endif
#if R_KEEP(reduce_hypot)
R_FOLD_KERNEL(reduce_hypot, R_FLTTAG, R_F_PAIR, R_HYPOT_INIT, acc = r_hypot_step(acc, R_TO_F(v)),
              USMARR_STOREP(R_FLTTAG, out, ob, r_hypot_value(acc)))
#endif
#endif

/* cumulative sums, products and logsumexps along one axis: one work-item per line of
 * `rs.s1` input elements (stride ri.s1); the output's stride along the axis is `po`.
 * `count` is 1 for include_initial: the line then starts with the identity (0, 1, -inf)
 * and has one element more. */
#define R_SCAN_KERNEL(NAME, OUTTAG, ACC_T, INIT, STEP, VALUE)                                         \
    kernel void usmarr_reduce_cumulative_##NAME(R_PARAMS(OUTTAG))                                     \
    {                                                                                                 \
        long k1 = get_global_id(0), k0 = get_global_id(1);                                            \
        if (k1 >= ks.s1 || k0 >= ks.s0)                                                               \
            return;                                                                                   \
        long ib = k0 * ki.s0 + k1 * ki.s1, o = k0 * ko.s0 + k1 * ko.s1;                               \
        ACC_T acc = INIT;                                                                             \
        if (count) {                                                                                  \
            USMARR_STOREP(OUTTAG, out, o, VALUE(acc));                                                \
            o += po;                                                                                  \
        }                                                                                             \
        for (long r1 = 0; r1 < rs.s1; r1++, o += po) {                                                \
            R_CT v = R_LOAD(ib + r1 * ri.s1);                                                         \
            STEP;                                                                                     \
            USMARR_STOREP(OUTTAG, out, o, VALUE(acc));                                                \
        }                                                                                             \
    }
#define R_SCAN_SAME(a) (a)
#if R_KEEP(cumulative)
R_SCAN_KERNEL(sum, R_SUMTAG, R_SUM_CT, (R_SUM_CT)(0), acc += USMARR_CONVERT(D1, R_SUMTAG, v), R_SCAN_SAME)
#if R_CPLX
R_SCAN_KERNEL(prod, R_SUMTAG, R_SUM_CT, ((R_SUM_CT)(1, 0)), acc = r1 ? R_CMUL(acc, v) : v, R_SCAN_SAME)
#else
R_SCAN_KERNEL(prod, R_SUMTAG, R_SUM_CT, (R_SUM_CT)(1), acc *= USMARR_CONVERT(D1, R_SUMTAG, v), R_SCAN_SAME)
R_SCAN_KERNEL(logsumexp, R_FLTTAG, R_F_PAIR, R_LSE_INIT, acc = r_lse_step(acc, R_TO_F(v)), r_lse_value)
#endif
#endif
