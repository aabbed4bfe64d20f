/* linalg.cl: matrix products (lib/linalg/matmul.c), custom kernels (lib/engine.h, section 3).
 *
 * One program per dtype: -DD0=<tag> is the dtype of both operands and of the result (the
 * host casts the operands first), with -DMM_BOOL / -DMM_COMPLEX for those kinds.  Two
 * kernels:
 *   usmarr_matmul_naive  one output per work-item, any strides (negative, zero), every
 *                        dtype; also the edges of the tiled kernel (rows/columns past the
 *                        last full tile) through the (i0, j0) origin.
 *   usmarr_matmul_tiled  MM_RM rows x MM_VW columns per work-item held in MM_RM vector
 *                        registers: per k, one vector load of B's row and MM_RM scalar
 *                        loads of A broadcast into MM_RM multiply-adds.  A's rows and B's
 *                        rows must be contiguous (unit inner stride), C is C-ordered.  Only
 *                        for dtypes with a vector form (-DMM_TILED), full tiles only.
 * Work-items of one work-group walk down the rows of one column panel, so the panel of B
 * (K x MM_VW) stays in the core's cache while the group runs.
 * NDRange: (rows or row tiles, columns or column tiles, batch).  Batch strides may be 0
 * (a broadcast operand). */
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

__kernel void usmarr_matmul_naive(__global MM_T *c, __global const MM_T *a, __global const MM_T *b, long K,
                                  long2 sa, long2 sb, long2 sc, long3 batch, long i0, long j0)
{
    long j = j0 + (long)get_global_id(0), i = i0 + (long)get_global_id(1), z = (long)get_global_id(2);
    a += z * batch.s0 + i * sa.s0;
    b += z * batch.s1 + j * sb.s1;
    MM_CT acc = MM_ZERO;
    for (long k = 0; k < K; k++)
        acc = MM_MAC(acc, USMARR_LOADP(D0, a, k * sa.s1), USMARR_LOADP(D0, b, k * sb.s0));
    USMARR_STOREP(D0, c, z * batch.s2 + i * sc.s0 + j * sc.s1, acc);
}

#ifdef MM_TILED
#define MM_VT USMARR_CAT(MM_CT, MM_VW)
#define MM_VLOAD USMARR_CAT(vload, MM_VW)
#define MM_VSTORE USMARR_CAT(vstore, MM_VW)

/* sa: A's strides between row tiles, rows and k; sb: B's between column tiles and k (its
 * columns are contiguous).  Packed operands: A as (row tiles, K, MM_RM), B as (column
 * tiles, K, MM_VW), both zero-padded, so every tile is whole; unpacked: A's rows past M
 * read row M-1 (the results are not stored) and the host runs only full column tiles.
 * Dim 0 may be rounded up: work-items past the last row tile return at once. */
__kernel void usmarr_matmul_tiled(__global MM_T *c, __global const MM_T *a, __global const MM_T *b, long K, long M,
                                  long N, long ldc, long3 sa, long2 sb, long3 batch)
{
    long it = (long)get_global_id(0), jt = (long)get_global_id(1), z = (long)get_global_id(2);
    long i0 = it * MM_RM, j0 = jt * MM_VW;
    if (i0 >= M)
        return;
    a += z * batch.s0 + it * sa.s0;
    b += z * batch.s1 + jt * sb.s0;
    long ar[MM_RM];
#pragma unroll
    for (int r = 0; r < MM_RM; r++)
        ar[r] = (i0 + r < M ? r : M - 1 - i0) * sa.s1;
    MM_VT acc[MM_RM];
#pragma unroll
    for (int r = 0; r < MM_RM; r++)
        acc[r] = (MM_VT)0;
    for (long k = 0; k < K; k++) {
        MM_VT bv = MM_VLOAD(0, b + k * sb.s1);
        __global const MM_T *ak = a + k * sa.s2;
#pragma unroll
        for (int r = 0; r < MM_RM; r++)
            acc[r] += (MM_VT)(ak[ar[r]]) * bv;
    }
    c += z * batch.s2 + i0 * ldc + j0;
    long rows = M - i0 < MM_RM ? M - i0 : MM_RM;
    if (j0 + MM_VW <= N) {
#pragma unroll
        for (int r = 0; r < MM_RM; r++)
            if (r < rows)
                MM_VSTORE(acc[r], 0, c + r * ldc);
    } else {
        MM_CT part[MM_VW];
#pragma unroll
        for (int r = 0; r < MM_RM; r++)
            if (r < rows) {
                MM_VSTORE(acc[r], 0, part);
                for (long j = 0; j < N - j0; j++)
                    c[r * ldc + j] = part[j];
            }
    }
}
#endif
