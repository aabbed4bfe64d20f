/* map.cl: appended after a map family's file.  Every loop and all indexing of the map
 * launcher (lib/engine/engine_internal.h, section 2); the family only supplies USMARR_MAP_BODY (and
 * optionally USMARR_MAP_VBODY).  A program holds one layout class (-DUSMARR_CLASS=s2),
 * since PoCL compiles every kernel of a program when its binary is taken. */
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
#define USMARR_PTR(k) global USMARR_STORAGE(D##k) *p##k
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
#define USMARR_IS_CLASS(c) (USMARR_CAT(USMARR_CLASS_, USMARR_CLASS) == USMARR_CLASS_##c)

/* ---- contiguous: 16 elements per work-item (vload16 where the family has a vector body),
 *      or, with USMARR_CONTIG_ONE, one element per work-item for compilers that vectorise
 *      across work-items themselves (the engine chooses per device) ---------------------- */
#if USMARR_IS_CLASS(contig)
#ifndef USMARR_CONTIG_GROUP
#define USMARR_CONTIG_GROUP 64
#endif
#define USMARR_X_SAME(k) long x##k = e;
kernel __attribute__((reqd_work_group_size(USMARR_CONTIG_GROUP, 1, 1))) void USMARR_KNAME(contig)(USMARR_PTRS, long n USMARR_SCALARS)
{
#ifdef USMARR_CONTIG_ONE
    long e = get_global_id(0);
    if (e < n) {
        USMARR_FOR_OPS(USMARR_X_SAME)
        USMARR_MAP_BODY;
    }
#else
    long vi = get_global_id(0);
    long base = vi * 16;
    if (base + 16 <= n) {
#ifdef USMARR_MAP_VBODY
        USMARR_MAP_VBODY;
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
    }
#endif
}
#endif

/* ---- strides along NDRange axis 0 known at compile time ------------------------------
 * Bit k of USMARR_UNIT / USMARR_ZERO: operand k's stride along the innermost dimension
 * (NDRange axis 0) is 1 / 0.  A compiler that vectorises across work-items then sees
 * consecutive or uniform addresses instead of a gather (the engine sets them per device). */
#ifndef USMARR_UNIT
#define USMARR_UNIT 0
#endif
#ifndef USMARR_ZERO
#define USMARR_ZERO 0
#endif
#define USMARR_INNER(k, t) (((USMARR_UNIT >> (k)) & 1) ? 1L : ((USMARR_ZERO >> (k)) & 1) ? 0L : (t))

/* ---- strided 1-D, 2-D, 3-D: one element per work-item, no div/mod -------------------- */
#if USMARR_IS_CLASS(s1)
#define USMARR_T1(k) , long t##k
#define USMARR_X1(k) long x##k = i * USMARR_INNER(k, t##k);
kernel __attribute__((reqd_work_group_size(256, 1, 1))) void USMARR_KNAME(s1)(USMARR_PTRS, long n USMARR_FOR_OPS(USMARR_T1) USMARR_SCALARS)
{
    long i = get_global_id(0);
    if (i >= n)
        return;
    USMARR_FOR_OPS(USMARR_X1)
    USMARR_MAP_BODY;
}
#endif

/* Two 2-D classes, one body: s2 runs 16x16 work-groups (USMARR_S2_EDGE x USMARR_S2_EDGE
 * where the device's shape asks for it), which block the accesses of transposes and
 * gathers; s2w runs 128x2, whose long runs along contiguous (or broadcast) rows vectorise
 * across work-items on CPU devices.  The engine picks by the strides. */
#if USMARR_IS_CLASS(s2) || USMARR_IS_CLASS(s2w)
#if USMARR_IS_CLASS(s2)
#ifndef USMARR_S2_EDGE
#define USMARR_S2_EDGE 16
#endif
#define USMARR_S2_GROUP USMARR_S2_EDGE, USMARR_S2_EDGE, 1
#else
#define USMARR_S2_GROUP 128, 2, 1
#endif
#define USMARR_T2(k) , long2 t##k
#define USMARR_X2(k) long x##k = i0 * t##k.s0 + i1 * USMARR_INNER(k, t##k.s1);
kernel __attribute__((reqd_work_group_size(USMARR_S2_GROUP))) void USMARR_KNAME(USMARR_CLASS)(USMARR_PTRS, long2 sh USMARR_FOR_OPS(USMARR_T2) USMARR_SCALARS)
{
    long i1 = get_global_id(0), i0 = get_global_id(1);
    if (i1 >= sh.s1 || i0 >= sh.s0)
        return;
    USMARR_FOR_OPS(USMARR_X2)
    USMARR_MAP_BODY;
}
#endif

#if USMARR_IS_CLASS(s3)
#define USMARR_T3(k) , long4 t##k
#define USMARR_X3(k) long x##k = i0 * t##k.s0 + i1 * t##k.s1 + i2 * USMARR_INNER(k, t##k.s2);
kernel __attribute__((reqd_work_group_size(16, 4, 4))) void USMARR_KNAME(s3)(USMARR_PTRS, long4 sh USMARR_FOR_OPS(USMARR_T3) USMARR_SCALARS)
{
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
    long sh[USMARR_SN_W];
    USMARR_CAT(vstore, USMARR_SN_W)(shv, 0, sh);
    long iin = get_global_id(0), imid = get_global_id(1);
    if (iin >= sh[nd - 1] || imid >= sh[nd - 2])
        return;
    USMARR_FOR_OPS(USMARR_TAN)
    USMARR_FOR_OPS(USMARR_XN_INIT)
    long r = get_global_id(2);
    for (int d = nd - 3; d >= 0; d--) {
        long q = r / sh[d];
        long id = r - q * sh[d];
        r = q;
        USMARR_FOR_OPS(USMARR_XN_ADD)
    }
    USMARR_MAP_BODY;
}
#endif

/* ---- 17..64 dims: shape then each operand's strides in a USM block ---------------------- */
#if USMARR_IS_CLASS(sbig)
#define USMARR_XB_INIT(k) global const long *t##k = meta + (long)nd * (1 + k); \
    long x##k = iin * USMARR_INNER(k, t##k[nd - 1]) + imid * t##k[nd - 2];
kernel __attribute__((reqd_work_group_size(16, 16, 1))) void USMARR_KNAME(sbig)(USMARR_PTRS, int nd, global const long *meta USMARR_SCALARS)
{
    global const long *sh = meta;
    long iin = get_global_id(0), imid = get_global_id(1);
    if (iin >= sh[nd - 1] || imid >= sh[nd - 2])
        return;
    USMARR_FOR_OPS(USMARR_XB_INIT)
    long r = get_global_id(2);
    for (int d = nd - 3; d >= 0; d--) {
        long q = r / sh[d];
        long id = r - q * sh[d];
        r = q;
        USMARR_FOR_OPS(USMARR_XN_ADD)
    }
    USMARR_MAP_BODY;
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
