/* map.cl: appended after a map family's file.  Every loop and all indexing of the map
 * launcher (lib/engine/engine_internal.h, section 2); the family only supplies USMARR_MAP_BODY (and
 * optionally USMARR_MAP_VBODY).  A program holds one layout class (-DUSMARR_CLASS=s2),
 * since PoCL as Debian ships it compiles every kernel of a program when its binary is
 * taken. */
#ifndef USMARR_MAP_BODY
#error "a map family must define USMARR_MAP_BODY"
#endif

#define USMARR_NOPS (USMARR_NOUT + USMARR_NIN)

/* ---- what the family's body sees ------------------------------------------------------- */
#define TYPE(k) USMARR_STORAGE(D##k)
#define CTYPE(k) USMARR_COMPUTE(D##k)
#define LOAD(k) USMARR_LOADP(D##k, p##k, x##k)
#define STORE(k, v) USMARR_STOREP(D##k, p##k, x##k, v)
#define CONVERT(a, b, x) USMARR_CONVERT(D##a, D##b, x)
#define SCALAR(j) sc##j
#define VLOAD(k) USMARR_VLOADP(D##k, p##k, vi)
#define VSTORE(k, v) USMARR_VSTOREP(D##k, p##k, vi, v)
#define VCONVERT(a, b, x) USMARR_VCONVERT(D##a, D##b, x)

/* ---- kernel names: usmarr_map_<class>[_<variant tag>] ------------------------------- */
#ifdef USMARR_VARIANT
#define USMARR_KNAME(c) USMARR_CAT3(usmarr_map_, c, USMARR_CAT(_, USMARR_VARIANT))
#else
#define USMARR_KNAME(c) USMARR_CAT(usmarr_map_, c)
#endif

/* ---- parameter lists ----------------------------------------------------------------- */
/* The operands' pointers are kernel arguments, or with -DUSMARR_PTR_VALUE (the kernel
 * shape's ptrval: lib/engine/kernel_shape.c) their addresses by value, which the kernel turns
 * into pointers (USMARR_BIND_PTRS, first in every kernel): the launcher then marks the
 * kernel as reaching USM indirectly, and a driver that charges for each USM pointer
 * argument of a launch (Intel's CPU runtime: about 0.7 us each) charges nothing. */
#ifdef USMARR_PTR_VALUE
#define USMARR_PTR(k) ulong usmarr_addr##k
#define USMARR_BIND(k) global USMARR_STORAGE(D##k) *p##k = (global USMARR_STORAGE(D##k) *)usmarr_addr##k;
#define USMARR_BIND_PTRS USMARR_FOR_OPS(USMARR_BIND)
#else
#define USMARR_PTR(k) global USMARR_STORAGE(D##k) *p##k
#define USMARR_BIND_PTRS
#endif
#if USMARR_NOPS == 1
#define USMARR_PTRS USMARR_PTR(0)
#define USMARR_FOR_OPS(M) M(0)
#elif USMARR_NOPS == 2
#define USMARR_PTRS USMARR_PTR(0), USMARR_PTR(1)
#define USMARR_FOR_OPS(M) M(0) M(1)
#elif USMARR_NOPS == 3
#define USMARR_PTRS USMARR_PTR(0), USMARR_PTR(1), USMARR_PTR(2)
#define USMARR_FOR_OPS(M) M(0) M(1) M(2)
#elif USMARR_NOPS == 4
#define USMARR_PTRS USMARR_PTR(0), USMARR_PTR(1), USMARR_PTR(2), USMARR_PTR(3)
#define USMARR_FOR_OPS(M) M(0) M(1) M(2) M(3)
#elif USMARR_NOPS == 5
#define USMARR_PTRS USMARR_PTR(0), USMARR_PTR(1), USMARR_PTR(2), USMARR_PTR(3), USMARR_PTR(4)
#define USMARR_FOR_OPS(M) M(0) M(1) M(2) M(3) M(4)
#elif USMARR_NOPS == 6
#define USMARR_PTRS USMARR_PTR(0), USMARR_PTR(1), USMARR_PTR(2), USMARR_PTR(3), USMARR_PTR(4), USMARR_PTR(5)
#define USMARR_FOR_OPS(M) M(0) M(1) M(2) M(3) M(4) M(5)
#elif USMARR_NOPS == 7
#define USMARR_PTRS USMARR_PTR(0), USMARR_PTR(1), USMARR_PTR(2), USMARR_PTR(3), USMARR_PTR(4), USMARR_PTR(5), USMARR_PTR(6)
#define USMARR_FOR_OPS(M) M(0) M(1) M(2) M(3) M(4) M(5) M(6)
#elif USMARR_NOPS == 8
#define USMARR_PTRS USMARR_PTR(0), USMARR_PTR(1), USMARR_PTR(2), USMARR_PTR(3), USMARR_PTR(4), USMARR_PTR(5), USMARR_PTR(6), USMARR_PTR(7)
#define USMARR_FOR_OPS(M) M(0) M(1) M(2) M(3) M(4) M(5) M(6) M(7)
#else
#error "USMARR_NOUT + USMARR_NIN must be 1..8"
#endif

#define USMARR_SC(j) , USMARR_COMPUTE(S##j) sc##j
#if USMARR_NSCALAR == 0
#define USMARR_SCALARS
#elif USMARR_NSCALAR == 1
#define USMARR_SCALARS USMARR_SC(0)
#elif USMARR_NSCALAR == 2
#define USMARR_SCALARS USMARR_SC(0) USMARR_SC(1)
#elif USMARR_NSCALAR == 3
#define USMARR_SCALARS USMARR_SC(0) USMARR_SC(1) USMARR_SC(2)
#elif USMARR_NSCALAR == 4
#define USMARR_SCALARS USMARR_SC(0) USMARR_SC(1) USMARR_SC(2) USMARR_SC(3)
#elif USMARR_NSCALAR == 5
#define USMARR_SCALARS USMARR_SC(0) USMARR_SC(1) USMARR_SC(2) USMARR_SC(3) USMARR_SC(4)
#elif USMARR_NSCALAR == 6
#define USMARR_SCALARS USMARR_SC(0) USMARR_SC(1) USMARR_SC(2) USMARR_SC(3) USMARR_SC(4) USMARR_SC(5)
#elif USMARR_NSCALAR == 7
#define USMARR_SCALARS USMARR_SC(0) USMARR_SC(1) USMARR_SC(2) USMARR_SC(3) USMARR_SC(4) USMARR_SC(5) USMARR_SC(6)
#elif USMARR_NSCALAR == 8
#define USMARR_SCALARS USMARR_SC(0) USMARR_SC(1) USMARR_SC(2) USMARR_SC(3) USMARR_SC(4) USMARR_SC(5) USMARR_SC(6) USMARR_SC(7)
#else
#error "USMARR_NSCALAR must be 0..8"
#endif

/* ---- one program per layout class: USMARR_CLASS selects the kernel ---------------------- */
#define USMARR_CLASS_contig 1
#define USMARR_CLASS_tile 2
#define USMARR_CLASS_s1 3
#define USMARR_CLASS_s2 4
#define USMARR_CLASS_s3 5
#define USMARR_CLASS_s8 6
#define USMARR_CLASS_s16 7
#define USMARR_CLASS_sbig 8
#define USMARR_CLASS_s2w 9
#define USMARR_CLASS_s2v 10
#define USMARR_CLASS_t16 11
#define USMARR_IS_CLASS(c) (USMARR_CAT(USMARR_CLASS_, USMARR_CLASS) == USMARR_CLASS_##c)

/* ---- 16-vector loads and stores as one access of the vector type: in a program as large
 *      as the elementwise family's, PoCL left vload16/vstore16 as eight 8-byte loads and
 *      three stores each (its builtins compose them from narrower ones and nothing joined
 *      them again), so a 16M float32 add ran at 0.7 of the raw float16 kernel.  The type is
 *      aligned to one element, or with -DUSMARR_ALIGNED (the launcher found every operand's
 *      vectors aligned: lib/engine/map.c) to its own size, at most 64 bytes. */
#ifdef USMARR_ALIGNED
#define USMARR_VALIGN_(p) (sizeof(vload16(0, p)) < 64 ? sizeof(vload16(0, p)) : 64)
#else
#define USMARR_VALIGN_(p) 1
#endif
#undef USMARR_VLD_
#define USMARR_VLD_(p, vi)                                                                                     \
    ({                                                                                                         \
        typedef __typeof__(vload16(0, p)) usmarr_vt_ __attribute__((aligned(USMARR_VALIGN_(p))));              \
        *((global const usmarr_vt_ *)(p) + (vi));                                                              \
    })
#undef USMARR_VSD_
#define USMARR_VSD_(p, vi, v)                                                                                  \
    ({                                                                                                         \
        typedef __typeof__(vload16(0, p)) usmarr_vt_ __attribute__((aligned(USMARR_VALIGN_(p))));              \
        *((global usmarr_vt_ *)(p) + (vi)) = (v);                                                              \
    })

/* ---- the non-temporal variants of the contig and s2v classes, for outputs larger than
 *      the caches (the engine launches them only when every output's 16-element vectors
 *      are aligned): stores bypass the caches, so a line is written without being read
 *      first.  float16 keeps vstore_half.  Their vec_type_hint tells a compiler that
 *      vectorises across work-items (Intel's CPU runtime) that the kernel is vectorised
 *      already: without it, the contiguous add with these stores ran ten times slower
 *      there than with plain stores, with it faster (doc/engine.md). */
#ifdef USMARR_NT
#define USMARR_NT_HINT __attribute__((vec_type_hint(float16)))
#undef USMARR_SD_
#define USMARR_SD_(p, i, v) __builtin_nontemporal_store((__typeof__(*(p)))(v), (p) + (i))
#undef USMARR_VSD_
/* +(v): the vector's type without the address space a variable's type carries */
#define USMARR_VSD_(p, vi, v) __builtin_nontemporal_store((v), (global __typeof__(+(v)) *)((p) + (vi)*16))
/* A family whose vector body stores in several places (the elementwise family: one store
 * in each function's case) had those stores merged into one by PoCL's compiler, which
 * dropped their non-temporal mark: the 16M add's work-group function stored with a plain
 * vmovaps.  So in these variants the body's 16-vector stores only note the value, and
 * one store per output follows the body. */
#ifdef USMARR_MAP_VBODY
#define USMARR_NT_NOTE(k) USMARR_VCOMPUTE(D##k) usmarr_ntv##k; bool usmarr_nts##k = false;
#define USMARR_NT_FLUSH(k) if (usmarr_nts##k) USMARR_VSTOREP(D##k, p##k, vi, usmarr_ntv##k);
#undef VSTORE
#define VSTORE(k, v) (usmarr_ntv##k = (v), usmarr_nts##k = true)
#define USMARR_VBODY_RUN                                                                                       \
    {                                                                                                          \
        USMARR_FOR_OPS(USMARR_NT_NOTE)                                                                         \
        USMARR_MAP_VBODY;                                                                                      \
        USMARR_FOR_OPS(USMARR_NT_FLUSH)                                                                        \
    }
#endif
#else
#define USMARR_NT_HINT
#endif
#ifndef USMARR_VBODY_RUN
#define USMARR_VBODY_RUN USMARR_MAP_VBODY
#endif

/* ---- contiguous: USMARR_VPW runs of 16 elements per work-item (vload16 where the family
 *      has a vector body), or, with USMARR_CONTIG_ONE, one element per work-item for
 *      compilers that vectorise across work-items themselves (the engine chooses per
 *      device).  Several 16-vectors a work-item make fewer, longer work-items, which a
 *      runtime that runs a work-group's items in a loop (PoCL) schedules for less. -------- */
#ifndef USMARR_VPW
#define USMARR_VPW 1
#endif
#if USMARR_IS_CLASS(contig)
#ifndef USMARR_CONTIG_GROUP
#define USMARR_CONTIG_GROUP 64
#endif
#ifdef USMARR_NT
#undef USMARR_CONTIG_ONE
#endif
#define USMARR_X_SAME(k) long x##k = e;
kernel __attribute__((reqd_work_group_size(USMARR_CONTIG_GROUP, 1, 1))) USMARR_NT_HINT void USMARR_KNAME(contig)(USMARR_PTRS, long n USMARR_SCALARS)
{
    USMARR_BIND_PTRS
#ifdef USMARR_CONTIG_ONE
    long e = get_global_id(0);
    if (e < n) {
        USMARR_FOR_OPS(USMARR_X_SAME)
        USMARR_MAP_BODY;
    }
#else
    long vi = get_global_id(0) * USMARR_VPW;
    for (int usmarr_run = 0; usmarr_run < USMARR_VPW; usmarr_run++, vi++) {
        long base = vi * 16;
        if (base + 16 <= n) {
#ifdef USMARR_MAP_VBODY
            USMARR_VBODY_RUN;
#else
            for (int j = 0; j < 16; j++) {
                long e = base + j;
                USMARR_FOR_OPS(USMARR_X_SAME)
                USMARR_MAP_BODY;
            }
#endif
        } else {
            for (long e = base; e < n; e++) {
                USMARR_FOR_OPS(USMARR_X_SAME)
                USMARR_MAP_BODY;
            }
            break;
        }
    }
#endif
}
#endif

/* ---- strides along NDRange axis 0 known at compile time ------------------------------
 * Bit k of USMARR_UNIT / USMARR_ZERO / USMARR_TWO: operand k's stride along the innermost
 * dimension (NDRange axis 0) is 1 / 0 / 2.  A compiler that vectorises across work-items
 * then sees consecutive, uniform or interleaved addresses instead of a gather (the engine
 * sets them per device). */
#ifndef USMARR_UNIT
#define USMARR_UNIT 0
#endif
#ifndef USMARR_ZERO
#define USMARR_ZERO 0
#endif
#ifndef USMARR_TWO
#define USMARR_TWO 0
#endif
#define USMARR_INNER(k, t)                                                                            \
    (((USMARR_UNIT >> (k)) & 1) ? 1L : ((USMARR_ZERO >> (k)) & 1) ? 0L : ((USMARR_TWO >> (k)) & 1) ? 2L : (t))

/* ---- strided 1-D, 2-D, 3-D: one element per work-item, no div/mod -------------------- */
#if USMARR_IS_CLASS(s1)
#define USMARR_T1(k) , long t##k
#define USMARR_X1(k) long x##k = i * USMARR_INNER(k, t##k);
kernel __attribute__((reqd_work_group_size(256, 1, 1))) void USMARR_KNAME(s1)(USMARR_PTRS, long n USMARR_FOR_OPS(USMARR_T1) USMARR_SCALARS)
{
    USMARR_BIND_PTRS
    long i = get_global_id(0);
    if (i >= n)
        return;
    USMARR_FOR_OPS(USMARR_X1)
    USMARR_MAP_BODY;
}
#endif

/* Two 2-D classes, one body: s2 runs 16x16 work-groups (USMARR_S2_EDGE x USMARR_S2_EDGE
 * where the device's shape asks for it), which block the accesses of transposes and
 * gathers; s2w runs 128x2 (USMARR_ROWS_X x USMARR_ROWS_Y), whose long runs along contiguous (or broadcast) rows vectorise
 * across work-items on CPU devices.  The engine picks by the strides. */
#if USMARR_IS_CLASS(s2) || USMARR_IS_CLASS(s2w)
#if USMARR_IS_CLASS(s2)
#ifndef USMARR_S2_EDGE
#define USMARR_S2_EDGE 16
#endif
#define USMARR_S2_GROUP USMARR_S2_EDGE, USMARR_S2_EDGE, 1
#else
#ifndef USMARR_ROWS_X
#define USMARR_ROWS_X 128
#define USMARR_ROWS_Y 2
#endif
#define USMARR_S2_GROUP USMARR_ROWS_X, USMARR_ROWS_Y, 1
#endif
#define USMARR_T2(k) , long2 t##k
#define USMARR_X2(k) long x##k = i0 * t##k.s0 + i1 * USMARR_INNER(k, t##k.s1);
kernel __attribute__((reqd_work_group_size(USMARR_S2_GROUP))) void USMARR_KNAME(USMARR_CLASS)(USMARR_PTRS, long2 sh USMARR_FOR_OPS(USMARR_T2) USMARR_SCALARS)
{
    USMARR_BIND_PTRS
    long i1 = get_global_id(0), i0 = get_global_id(1);
    if (i1 >= sh.s1 || i0 >= sh.s0)
        return;
    USMARR_FOR_OPS(USMARR_X2)
    USMARR_MAP_BODY;
}
#endif

/* ---- 2-D rows of 16-vectors: every operand's inner stride is 1, or 0, 2 or 3 for an input
 *      (USMARR_ZERO's, USMARR_TWO's and USMARR_THREE's bits), so a work-item takes USMARR_VPW
 *      runs of 16 consecutive elements of a row: vload16/vstore16 where the family has a
 *      vector body, a zero-stride operand's one value broadcast, a stride-2 or 3 operand's
 *      elements picked from two or three loads that never pass its last element (for
 *      devices whose compilers do not vectorise across work-items; the engine chooses per
 *      device).  A stride-2 operand's run reads its 32 elements' line-aligned span as two
 *      16-vectors while another element of the row follows the run, and only the row's
 *      last run steps back by one.  The row's address arithmetic is done once a work-item,
 *      then each run moves the pointers on.  A 1-D map runs as one row. */
#if USMARR_IS_CLASS(s2v)
#ifndef USMARR_ROWV_GROUP
#define USMARR_ROWV_GROUP 64
#endif
#ifndef USMARR_TWO
#define USMARR_TWO 0
#endif
#ifndef USMARR_THREE
#define USMARR_THREE 0
#endif
#ifndef USMARR_NEG
#define USMARR_NEG 0
#endif
#define USMARR_V_ZERO(k) ((USMARR_ZERO >> (k)) & 1)
#define USMARR_V_NEG(k) ((USMARR_NEG >> (k)) & 1)
#define USMARR_V_MAG(k)                                                                                        \
    (USMARR_V_ZERO(k) ? 0L : ((USMARR_TWO >> (k)) & 1) ? 2L : ((USMARR_THREE >> (k)) & 1) ? 3L : 1L)
#define USMARR_V_STEP(k) (USMARR_V_NEG(k) ? -USMARR_V_MAG(k) : USMARR_V_MAG(k))
#define USMARR_X_SAME(k) long x##k = USMARR_V_STEP(k) * e;
/* elements 0, 3, ..., 45 from three overlapping loads that end at element 45 */
#define USMARR_V3(d, v0, v1, v2)                                                                               \
    (USMARR_VCOMPUTE(d))(v0.s0, v0.s3, v0.s6, v0.s9, v0.sc, v0.sf, v1.s2, v1.s5, v1.s8, v1.sb, v1.se, v2.s3, v2.s6, \
                         v2.s9, v2.sc, v2.sf)
#define USMARR_VLOAD3(d, p) USMARR_V3(d, USMARR_VLOADP(d, p, 0), USMARR_VLOADP(d, p + 16, 0), USMARR_VLOADP(d, p + 30, 0))
/* elements 0, 2, ..., 30: the second half from elements 16..31 unless the run is the row's
 * last (usmarr_last), where element 31 may lie past the operand's end */
#define USMARR_VLOAD2(d, p, last)                                                                              \
    (USMARR_VCOMPUTE(d))(USMARR_VLOADP(d, p, 0).even,                                                          \
                         (last) ? USMARR_VLOADP(d, p + 15, 0).odd : USMARR_VLOADP(d, p + 16, 0).even)
/* A run of a negative step (an input walked backwards: flips, x[:, ::-2]) is the run of
 * the positive step that starts at its lowest element, lanes reversed; that run's loads end
 * at its last element (the two-load form of step 2 steps back by one), never above the
 * reversed run's first. */
#define USMARR_VLOADF(k, p, last)                                                                              \
    (USMARR_V_MAG(k) == 0   ? (USMARR_VCOMPUTE(D##k))(USMARR_LOADP(D##k, p, 0))                                \
     : USMARR_V_MAG(k) == 2 ? USMARR_VLOAD2(D##k, p, last)                                                     \
     : USMARR_V_MAG(k) == 3 ? USMARR_VLOAD3(D##k, p)                                                           \
                            : USMARR_VLOADP(D##k, p, 0))
#undef VLOAD
#define VLOAD(k)                                                                                               \
    (USMARR_V_NEG(k) ? USMARR_VLOADF(k, p##k - 15 * USMARR_V_MAG(k), true).sfedcba9876543210                   \
                     : USMARR_VLOADF(k, p##k, usmarr_last))
#define USMARR_TV(k) , long t##k
#define USMARR_ROW(k) p##k += i0 * t##k + USMARR_V_STEP(k) * base;
#define USMARR_RUN(k) p##k += USMARR_V_STEP(k) * 16;
kernel __attribute__((reqd_work_group_size(USMARR_ROWV_GROUP, 1, 1))) USMARR_NT_HINT void USMARR_KNAME(s2v)(USMARR_PTRS, long2 sh USMARR_FOR_OPS(USMARR_TV) USMARR_SCALARS)
{
    USMARR_BIND_PTRS
    long base = get_global_id(0) * (16 * USMARR_VPW), i0 = get_global_id(1);
    if (base >= sh.s1 || i0 >= sh.s0)
        return;
    USMARR_FOR_OPS(USMARR_ROW)
#ifdef USMARR_MAP_VBODY
    /* a work-item whose runs all end before the row's last element: no test a run (the
     * 16M broadcast add on PoCL 1.04-1.08 times the raw kernel's time against 1.16-1.18
     * with the tests, alternate processes; the work-group function's loop had kept every
     * row pointer twice around each test) */
    if (base + 16 * USMARR_VPW < sh.s1) {
        const bool usmarr_last = false;
        for (int usmarr_run = 0; usmarr_run < USMARR_VPW; usmarr_run++) {
            long vi = 0;
            USMARR_VBODY_RUN;
            USMARR_FOR_OPS(USMARR_RUN)
        }
        return;
    }
#endif
    for (int usmarr_run = 0; usmarr_run < USMARR_VPW; usmarr_run++) {
        if (base + 16 <= sh.s1) {
            bool usmarr_last = base + 16 == sh.s1;
#ifdef USMARR_MAP_VBODY
            long vi = 0;
            USMARR_VBODY_RUN;
#else
            for (long e = 0; e < 16; e++) {
                USMARR_FOR_OPS(USMARR_X_SAME)
                USMARR_MAP_BODY;
            }
#endif
        } else {
            for (long e = 0; e < sh.s1 - base; e++) {
                USMARR_FOR_OPS(USMARR_X_SAME)
                USMARR_MAP_BODY;
            }
            break;
        }
        base += 16;
        USMARR_FOR_OPS(USMARR_RUN)
    }
}
#endif

#if USMARR_IS_CLASS(s3)
#define USMARR_T3(k) , long4 t##k
#define USMARR_X3(k) long x##k = i0 * t##k.s0 + i1 * t##k.s1 + i2 * USMARR_INNER(k, t##k.s2);
kernel __attribute__((reqd_work_group_size(16, 4, 4))) void USMARR_KNAME(s3)(USMARR_PTRS, long4 sh USMARR_FOR_OPS(USMARR_T3) USMARR_SCALARS)
{
    USMARR_BIND_PTRS
    long i2 = get_global_id(0), i1 = get_global_id(1), i0 = get_global_id(2);
    if (i2 >= sh.s2 || i1 >= sh.s1 || i0 >= sh.s0)
        return;
    USMARR_FOR_OPS(USMARR_X3)
    USMARR_MAP_BODY;
}
#endif

/* ---- 4..16 dims: the two innermost on NDRange axes 0 and 1, the rest flattened on axis 2
 *      and decoded with div/mod (once per work-item, outer dims only) -------------------- */
#define USMARR_XN_INIT(k) long x##k = iin * USMARR_INNER(k, t##k[nd - 1]) + imid * t##k[nd - 2];
#define USMARR_XN_ADD(k) x##k += id * t##k[d];
/* the outer dims (nd - 3 down to 0, flattened on NDRange axis 2) decoded, each adding its
 * index times operand k's stride to x_k (shape sh and nd in scope) */
#define USMARR_XN_OUTER                                                                            \
    {                                                                                              \
        long r = get_global_id(2);                                                                 \
        for (int d = nd - 3; d >= 0; d--) {                                                        \
            long q = r / sh[d];                                                                    \
            long id = r - q * sh[d];                                                               \
            r = q;                                                                                 \
            USMARR_FOR_OPS(USMARR_XN_ADD)                                                          \
        }                                                                                          \
    }
#define USMARR_TARR(k, W) long t##k[W]; USMARR_CAT(vstore, W)(tv##k, 0, t##k);

/* s8 and s16: one body, metadata vectors of 8 or 16 longs. */
#if USMARR_IS_CLASS(s8) || USMARR_IS_CLASS(s16)
#if USMARR_IS_CLASS(s8)
#define USMARR_SN_W 8
#else
#define USMARR_SN_W 16
#endif
#define USMARR_TVN(k) , USMARR_CAT(long, USMARR_SN_W) tv##k
#define USMARR_TAN(k) USMARR_TARR(k, USMARR_SN_W)
kernel __attribute__((reqd_work_group_size(16, 16, 1))) void USMARR_KNAME(USMARR_CLASS)(USMARR_PTRS, int nd, USMARR_CAT(long, USMARR_SN_W) shv USMARR_FOR_OPS(USMARR_TVN) USMARR_SCALARS)
{
    USMARR_BIND_PTRS
    long sh[USMARR_SN_W];
    USMARR_CAT(vstore, USMARR_SN_W)(shv, 0, sh);
    long iin = get_global_id(0), imid = get_global_id(1);
    if (iin >= sh[nd - 1] || imid >= sh[nd - 2])
        return;
    USMARR_FOR_OPS(USMARR_TAN)
    USMARR_FOR_OPS(USMARR_XN_INIT)
    USMARR_XN_OUTER
    USMARR_MAP_BODY;
}
#endif

/* ---- 17..64 dims: shape then each operand's strides in a USM block ---------------------- */
#if USMARR_IS_CLASS(sbig)
#define USMARR_XB_INIT(k) global const long *t##k = meta + (long)nd * (1 + k); \
    long x##k = iin * USMARR_INNER(k, t##k[nd - 1]) + imid * t##k[nd - 2];
kernel __attribute__((reqd_work_group_size(16, 16, 1))) void USMARR_KNAME(sbig)(USMARR_PTRS, int nd, global const long *meta USMARR_SCALARS)
{
    USMARR_BIND_PTRS
    global const long *sh = meta;
    long iin = get_global_id(0), imid = get_global_id(1);
    if (iin >= sh[nd - 1] || imid >= sh[nd - 2])
        return;
    USMARR_FOR_OPS(USMARR_XB_INIT)
    USMARR_XN_OUTER
    USMARR_MAP_BODY;
}
#endif

/* ---- transposes in 16x16 blocks held in registers: one output and one input, the
 *      output's inner stride 1 and the input's stride 1 along the output's outer axis (a.T
 *      into C order).  A work-item loads 16 input columns as 16-vectors and stores each
 *      output row as the 16-vector of their i-th components, through the family's vector
 *      body where it has one; blocks at the edges run element by element.  For compilers
 *      that do not vectorise the gathers of s2 (PoCL: twice as fast as s2 on a 4096^2
 *      float32 transpose; the engine chooses per device). */
#if USMARR_IS_CLASS(t16) && USMARR_NOUT == 1 && USMARR_NIN == 1
#define USMARR_TCOL(h) (USMARR_VCOMPUTE(D1))(r0.s##h, r1.s##h, r2.s##h, r3.s##h, r4.s##h, r5.s##h, r6.s##h, r7.s##h, r8.s##h, r9.s##h, r10.s##h, r11.s##h, r12.s##h, r13.s##h, r14.s##h, r15.s##h)
#define USMARR_TROW(h, i)                                                                              \
    {                                                                                                  \
        global TYPE(0) *p0 = usmarr_q0 + (b0 + i) * t0.s0 + b1;                                        \
        global TYPE(1) *p1 = usmarr_q1 + b0 + i + b1 * t1.s1;                                          \
        USMARR_VCOMPUTE(D1) usmarr_tv = USMARR_TCOL(h);                                                 \
        long vi = 0;                                                                                   \
        USMARR_MAP_VBODY;                                                                              \
    }
#undef VLOAD
#define VLOAD(k) usmarr_tv
/* the element loop of a family's vector body without a vector form (and of the edges) */
#define USMARR_X_SAME(k) long x##k = (k) == 0 ? e : e * t1.s1;
kernel __attribute__((reqd_work_group_size(8, 1, 1))) void
USMARR_KNAME(t16)(USMARR_PTRS, long2 sh, long2 t0, long2 t1 USMARR_SCALARS)
{
    USMARR_BIND_PTRS
    long b1 = get_global_id(0) * 16, b0 = get_global_id(1) * 16;
    if (b0 >= sh.s0 || b1 >= sh.s1)
        return;
    global TYPE(0) *usmarr_q0 = p0;
    global TYPE(1) *usmarr_q1 = p1;
#ifdef USMARR_MAP_VBODY
    if (b0 + 16 <= sh.s0 && b1 + 16 <= sh.s1) {
        USMARR_VCOMPUTE(D1) r0 = USMARR_VLOADP(D1, usmarr_q1 + b0 + (b1 + 0) * t1.s1, 0);
        USMARR_VCOMPUTE(D1) r1 = USMARR_VLOADP(D1, usmarr_q1 + b0 + (b1 + 1) * t1.s1, 0);
        USMARR_VCOMPUTE(D1) r2 = USMARR_VLOADP(D1, usmarr_q1 + b0 + (b1 + 2) * t1.s1, 0);
        USMARR_VCOMPUTE(D1) r3 = USMARR_VLOADP(D1, usmarr_q1 + b0 + (b1 + 3) * t1.s1, 0);
        USMARR_VCOMPUTE(D1) r4 = USMARR_VLOADP(D1, usmarr_q1 + b0 + (b1 + 4) * t1.s1, 0);
        USMARR_VCOMPUTE(D1) r5 = USMARR_VLOADP(D1, usmarr_q1 + b0 + (b1 + 5) * t1.s1, 0);
        USMARR_VCOMPUTE(D1) r6 = USMARR_VLOADP(D1, usmarr_q1 + b0 + (b1 + 6) * t1.s1, 0);
        USMARR_VCOMPUTE(D1) r7 = USMARR_VLOADP(D1, usmarr_q1 + b0 + (b1 + 7) * t1.s1, 0);
        USMARR_VCOMPUTE(D1) r8 = USMARR_VLOADP(D1, usmarr_q1 + b0 + (b1 + 8) * t1.s1, 0);
        USMARR_VCOMPUTE(D1) r9 = USMARR_VLOADP(D1, usmarr_q1 + b0 + (b1 + 9) * t1.s1, 0);
        USMARR_VCOMPUTE(D1) r10 = USMARR_VLOADP(D1, usmarr_q1 + b0 + (b1 + 10) * t1.s1, 0);
        USMARR_VCOMPUTE(D1) r11 = USMARR_VLOADP(D1, usmarr_q1 + b0 + (b1 + 11) * t1.s1, 0);
        USMARR_VCOMPUTE(D1) r12 = USMARR_VLOADP(D1, usmarr_q1 + b0 + (b1 + 12) * t1.s1, 0);
        USMARR_VCOMPUTE(D1) r13 = USMARR_VLOADP(D1, usmarr_q1 + b0 + (b1 + 13) * t1.s1, 0);
        USMARR_VCOMPUTE(D1) r14 = USMARR_VLOADP(D1, usmarr_q1 + b0 + (b1 + 14) * t1.s1, 0);
        USMARR_VCOMPUTE(D1) r15 = USMARR_VLOADP(D1, usmarr_q1 + b0 + (b1 + 15) * t1.s1, 0);
        USMARR_TROW(0, 0)
        USMARR_TROW(1, 1)
        USMARR_TROW(2, 2)
        USMARR_TROW(3, 3)
        USMARR_TROW(4, 4)
        USMARR_TROW(5, 5)
        USMARR_TROW(6, 6)
        USMARR_TROW(7, 7)
        USMARR_TROW(8, 8)
        USMARR_TROW(9, 9)
        USMARR_TROW(a, 10)
        USMARR_TROW(b, 11)
        USMARR_TROW(c, 12)
        USMARR_TROW(d, 13)
        USMARR_TROW(e, 14)
        USMARR_TROW(f, 15)
        return;
    }
#endif
    for (long i0 = b0; i0 < min(b0 + 16, sh.s0); i0++)
        for (long i1 = b1; i1 < min(b1 + 16, sh.s1); i1++) {
            long x0 = i0 * t0.s0 + i1, x1 = i0 + i1 * t1.s1;
            USMARR_MAP_BODY;
        }
}
#endif

/* ---- tiled 2-D for one output and one input with different fastest axes --------------
 * The input is read along axis 0 (its fast axis) into a 32x32 tile, the output written
 * along axis 1.  Work-group 32x8, each work-item moves 4 rows each way. */
#if USMARR_IS_CLASS(tile) && USMARR_NOUT == 1 && USMARR_NIN == 1
#define USMARR_TILE 32
kernel __attribute__((reqd_work_group_size(32, 8, 1))) void
USMARR_KNAME(tile)(USMARR_PTRS, long2 sh, long2 t0, long2 t1 USMARR_SCALARS)
{
    USMARR_BIND_PTRS
    local USMARR_COMPUTE(D1) tile[USMARR_TILE][USMARR_TILE + 1];
    long b0 = get_group_id(1) * USMARR_TILE, b1 = get_group_id(0) * USMARR_TILE;
    int lx = get_local_id(0), ly = get_local_id(1);
    for (int r = ly; r < USMARR_TILE; r += 8) {
        long i0 = b0 + lx, i1 = b1 + r;
        if (i0 < sh.s0 && i1 < sh.s1) {
            long x1 = i0 * t1.s0 + i1 * t1.s1;
            tile[r][lx] = LOAD(1);
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
#undef LOAD
#define LOAD(k) USMARR_CAT(usmarr_tv, k)
    for (int r = ly; r < USMARR_TILE; r += 8) {
        long i0 = b0 + r, i1 = b1 + lx;
        if (i0 < sh.s0 && i1 < sh.s1) {
            long x0 = i0 * t0.s0 + i1 * t0.s1;
            USMARR_COMPUTE(D1) usmarr_tv1 = tile[lx][r];
            USMARR_MAP_BODY;
        }
    }
#undef LOAD
#define LOAD(k) USMARR_LOADP(D##k, p##k, x##k)
}
#endif
