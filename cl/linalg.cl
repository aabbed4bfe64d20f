/* linalg.cl: matrix products (lib/linalg/matmul.c), custom kernels (lib/engine/engine_internal.h, section 3).
 *
 * One program per dtype: -DD0=<tag> is the dtype of both operands and of the result (the
 * host casts the operands first), with -DMM_BOOL / -DMM_COMPLEX for those kinds.  Three
 * kernels:
 *   usmarr_matmul_naive    one output per work-item, any strides (negative, zero), every
 *                          dtype.
 *   usmarr_matmul_tiled    packed operands (the host copies A and B into zero-padded tiles):
 *                          one MM_RM x MM_VW block of C per work-item, held in MM_RM vector
 *                          registers: per k, one vector load of B's row and MM_RM scalar
 *                          loads of A broadcast into MM_RM multiply-adds.  Work-items of one
 *                          work-group walk down the rows of one column panel, so the panel
 *                          of B (K x MM_VW) stays in the core's cache while the group runs.
 *                          NDRange: (row tiles, column tiles, batch).
 *   usmarr_matmul_batched  the same blocks on operands read in place (B's rows contiguous,
 *                          A any strides), every block of every matrix of the batch on one
 *                          flat dim, so that one work-group takes several small matrices;
 *                          right edges (N % MM_VW columns) in the same launch.
 * The last two exist for dtypes with a vector form (-DMM_TILED); C is C-ordered.  Batch
 * strides may be 0 (a broadcast operand). */
#define MM_T USMARR_STORAGE(D0)
#define MM_CT USMARR_COMPUTE(D0)

#if defined(MM_COMPLEX)
#define MM_ZERO ((MM_CT)(0, 0))
#define MM_MAC(acc, p, q) ((acc) + (MM_CT)((p).x * (q).x - (p).y * (q).y, (p).x * (q).y + (p).y * (q).x))
#elif defined(MM_BOOL)
#define MM_ZERO ((MM_CT)0)
#define MM_MAC(acc, x, y) ((MM_CT)((acc) | ((x) & (y))))
#else
#define MM_ZERO ((MM_CT)0)
#define MM_MAC(acc, x, y) ((MM_CT)((acc) + (x) * (y)))
#endif

#if USMARR_WANT(matmul)
__kernel void usmarr_matmul_naive(__global MM_T *c, __global const MM_T *a, __global const MM_T *b, long K,
                                  long2 sa, long2 sb, long2 sc, long3 batch)
{
    long j = (long)get_global_id(0), i = (long)get_global_id(1), z = (long)get_global_id(2);
    a += z * batch.s0 + i * sa.s0;
    b += z * batch.s1 + j * sb.s1;
    MM_CT acc = MM_ZERO;
    for (long k = 0; k < K; k++)
        acc = MM_MAC(acc, USMARR_LOADP(D0, a, k * sa.s1), USMARR_LOADP(D0, b, k * sb.s0));
    USMARR_STOREP(D0, c, z * batch.s2 + i * sc.s0 + j * sc.s1, acc);
}
#endif

#ifdef MM_TILED
#define MM_VT USMARR_CAT(MM_CT, MM_VW)
/* What a block stores: the product, or (MM_UPDATE: c -= a @ b) c's value less it */
#ifdef MM_UPDATE
#define MM_RESULT(old, p) ((old) - (p))
#else
#define MM_RESULT(old, p) (p)
#endif
#define MM_VLOAD USMARR_CAT(vload, MM_VW)
#define MM_VSTORE USMARR_CAT(vstore, MM_VW)

/* A block of C of at most MM_RM rows by MM_VW columns: a points at A's first row of the
 * block (rows sar apart, k sak apart), b at B's first column (k sbk apart, columns
 * contiguous), c at C's first element (rows ldc apart).  Rows past `rows` read the last
 * row (their results are not stored); columns past `cols` are not stored, and B is read
 * only up to `bcols` columns (MM_VW or more: whole vector loads; fewer: element loads,
 * zeros after, for a right edge that B does not pad). */
inline void mm_block(__global MM_T *c, __global const MM_T *a, __global const MM_T *b, long K, long rows, long cols,
                     long ldc, long sar, long sak, long sbk, long bcols)
{
    long ar[MM_RM];
#pragma unroll
    for (int r = 0; r < MM_RM; r++)
        ar[r] = (r < rows ? r : rows - 1) * sar;
    MM_VT acc[MM_RM];
#pragma unroll
    for (int r = 0; r < MM_RM; r++)
        acc[r] = (MM_VT)0;
    if (bcols >= MM_VW) {
        for (long k = 0; k < K; k++) {
            MM_VT bv = MM_VLOAD(0, b + k * sbk);
            __global const MM_T *ak = a + k * sak;
#pragma unroll
            for (int r = 0; r < MM_RM; r++)
                acc[r] += (MM_VT)(ak[ar[r]]) * bv;
        }
    } else {
        for (long k = 0; k < K; k++) {
            MM_CT row[MM_VW];
            for (int j = 0; j < MM_VW; j++)
                row[j] = j < bcols ? b[k * sbk + j] : (MM_CT)0;
            MM_VT bv = MM_VLOAD(0, row);
            __global const MM_T *ak = a + k * sak;
#pragma unroll
            for (int r = 0; r < MM_RM; r++)
                acc[r] += (MM_VT)(ak[ar[r]]) * bv;
        }
    }
    if (cols >= MM_VW) {
#pragma unroll
        for (int r = 0; r < MM_RM; r++)
            if (r < rows)
                MM_VSTORE(MM_RESULT(MM_VLOAD(0, c + r * ldc), acc[r]), 0, c + r * ldc);
    } else {
        MM_CT part[MM_VW];
#pragma unroll
        for (int r = 0; r < MM_RM; r++)
            if (r < rows) {
                MM_VSTORE(acc[r], 0, part);
                for (long j = 0; j < cols; j++)
                    c[r * ldc + j] = MM_RESULT(c[r * ldc + j], part[j]);
            }
    }
}

/* Packed operands: A as (row tiles, K, MM_RM), B as (column tiles, K, MM_VW), both
 * zero-padded, so every tile is whole, or B in place (rows contiguous: sb = (MM_VW, its row
 * stride), the last tile read up to column N); sa: A's strides between row tiles, rows
 * and k; sb: B's between column tiles and k.  Dim 0 may be rounded up: work-items past the last row
 * tile return at once. */
#if USMARR_WANT(matmul)
__kernel void usmarr_matmul_tiled(__global MM_T *c, __global const MM_T *a, __global const MM_T *b, long K, long M,
                                  long N, long ldc, long3 sa, long2 sb, long3 batch)
{
    long it = (long)get_global_id(0), jt = (long)get_global_id(1), z = (long)get_global_id(2);
    long i0 = it * MM_RM, j0 = jt * MM_VW;
    if (i0 >= M)
        return;
    mm_block(c + z * batch.s2 + i0 * ldc + j0, a + z * batch.s0 + it * sa.s0, b + z * batch.s1 + jt * sb.s0, K, M - i0,
             N - j0, ldc, sa.s1, sa.s2, sb.s1, N - j0);
}
#endif

/* Operands read in place (A's rows sa.s0 apart and k sa.s1 apart, B's rows sb apart and
 * columns contiguous), C C-ordered: dim 0 walks the blocks of every matrix of the batch,
 * row blocks fastest, then column blocks, then matrices, so that a work-group takes several
 * whole small matrices (a batch of 16 x 16 products: few groups, every work-item busy).
 * Dim 0 is rounded up to the work-group size: work-items past `total` return at once. */
#if USMARR_WANT(matmul)
__kernel void usmarr_matmul_batched(__global MM_T *c, __global const MM_T *a, __global const MM_T *b, long K, long M,
                                    long N, long2 sa, long sb, long3 batch, long rt, long ct, long total)
{
    long g = (long)get_global_id(0);
    if (g >= total)
        return;
    long per = rt * ct, z = g / per, t = g - z * per, jt = t / rt, it = t - jt * rt;
    long i0 = it * MM_RM, j0 = jt * MM_VW;
    mm_block(c + z * batch.s2 + i0 * N + j0, a + z * batch.s0 + i0 * sa.s0, b + z * batch.s1 + j0, K, M - i0, N - j0, N,
             sa.s0, sa.s1, sb, N - j0);
}
#endif
#endif
