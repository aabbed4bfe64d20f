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

/* ---- products of vectors (lib/linalg/products.c, matmul.c, diagonal.c) ---------------
 * Built with -DD0=<tag> -DPV_KERNELS: usmarr_rowdot, usmarr_coldot and usmarr_diagsum for
 * float32 and float64 (storage and compute types equal: 16-vector loads), usmarr_cross for
 * every real dtype but bool and float16.  Each result is one work-item's, and its sum runs
 * in an order fixed here: the same on every device. */
#ifdef PV_KERNELS
#define PV_VT USMARR_VCOMPUTE(D0)

#if USMARR_WANT(rowdot) || USMARR_WANT(diagsum)
/* The 16 lanes of s added in a fixed tree. */
inline MM_CT pv_fold(PV_VT s)
{
    USMARR_CAT(MM_CT, 8) h8 = s.lo + s.hi;
    USMARR_CAT(MM_CT, 4) h4 = h8.lo + h8.hi;
    USMARR_CAT(MM_CT, 2) h2 = h4.lo + h4.hi;
    return h2.s0 + h2.s1;
}
#endif

/* out[r] = sum_k a[r * ra + k] * b[r * rb + k], r < rows, one row a work-item, both rows
 * contiguous (rb 0: one vector for every row).  Four 16-lane sums take the 16-element steps
 * in turn, then two (the four added in pairs) the whole 32-element steps left, one a last
 * 16-element step; the two are added, their lanes added in a fixed tree, then the last
 * K % 16 products in order.  Dim 0 is rounded up to the work-group size. */
#if USMARR_WANT(rowdot)
__kernel void usmarr_rowdot(__global MM_T *out, __global const MM_T *a, __global const MM_T *b, long K, long ra,
                            long rb, long rows)
{
    long r = (long)get_global_id(0);
    if (r >= rows)
        return;
    a += r * ra;
    b += r * rb;
    PV_VT s0 = (PV_VT)0, s1 = (PV_VT)0, s2 = (PV_VT)0, s3 = (PV_VT)0;
    long k = 0;
    for (; k + 64 <= K; k += 64) {
        s0 += vload16(0, a + k) * vload16(0, b + k);
        s1 += vload16(0, a + k + 16) * vload16(0, b + k + 16);
        s2 += vload16(0, a + k + 32) * vload16(0, b + k + 32);
        s3 += vload16(0, a + k + 48) * vload16(0, b + k + 48);
    }
    s0 += s2;
    s1 += s3;
    for (; k + 32 <= K; k += 32) {
        s0 += vload16(0, a + k) * vload16(0, b + k);
        s1 += vload16(0, a + k + 16) * vload16(0, b + k + 16);
    }
    if (k + 16 <= K) {
        s0 += vload16(0, a + k) * vload16(0, b + k);
        k += 16;
    }
    MM_CT t = pv_fold(s0 + s1);
    for (; k < K; k++)
        t += a[k] * b[k];
    out[r] = t;
}
#endif

/* out[n] = sum_k v[k * sv] * a[k * lda + n], n < N, a's rows contiguous: 256 columns a
 * work-item, sixteen 16-lane sums (1 KB of each row, one page touched per row for 1 KB:
 * rows of 128 columns took 1.3-1.8 times as long, 512 spilled on PoCL), each column's sum
 * over k in order; at a right edge 16 columns at a time, then the last N % 16 one at a
 * time, in the same order. */
#if USMARR_WANT(coldot)
__kernel void usmarr_coldot(__global MM_T *out, __global const MM_T *v, __global const MM_T *a, long K, long N,
                            long sv, long lda)
{
    long n0 = (long)get_global_id(0) * 256;
    if (n0 >= N)
        return;
    a += n0;
    out += n0;
    if (n0 + 256 <= N) {
        PV_VT s[16];
        for (int j = 0; j < 16; j++)
            s[j] = (PV_VT)0;
        for (long k = 0; k < K; k++) {
            PV_VT vk = (PV_VT)(v[k * sv]);
            for (int j = 0; j < 16; j++)
                s[j] += vk * vload16(j, a + k * lda);
        }
        for (int j = 0; j < 16; j++)
            vstore16(s[j], j, out);
        return;
    }
    long n = 0;
    for (; n + 16 <= N - n0; n += 16) {
        PV_VT s = (PV_VT)0;
        for (long k = 0; k < K; k++)
            s += (PV_VT)(v[k * sv]) * vload16(0, a + k * lda + n);
        vstore16(s, 0, out + n);
    }
    for (; n < N - n0; n++) {
        MM_CT s = 0;
        for (long k = 0; k < K; k++)
            s += v[k * sv] * a[k * lda + n];
        out[n] = s;
    }
}
#endif

/* The cross products of n pairs of 3-vectors: vector i of c, a and b at i * s.s0 from its
 * pointer, its components s.s1 apart.  c_i = a_j b_k - a_k b_j ((i, j, k) cyclic), each
 * product rounded before the difference, as NumPy's. */
#if USMARR_WANT(cross)
__kernel void usmarr_cross(__global MM_T *c, __global const MM_T *a, __global const MM_T *b, long n, long2 sc,
                           long2 sa, long2 sb)
{
#pragma OPENCL FP_CONTRACT OFF
    long i = (long)get_global_id(0);
    if (i >= n)
        return;
    a += i * sa.s0;
    b += i * sb.s0;
    c += i * sc.s0;
    MM_CT a0 = a[0], a1 = a[sa.s1], a2 = a[2 * sa.s1], b0 = b[0], b1 = b[sb.s1], b2 = b[2 * sb.s1];
    MM_CT p0 = a1 * b2, q0 = a2 * b1, p1 = a2 * b0, q1 = a0 * b2, p2 = a0 * b1, q2 = a1 * b0;
    c[0] = (MM_T)(p0 - q0);
    c[sc.s1] = (MM_T)(p1 - q1);
    c[2 * sc.s1] = (MM_T)(p2 - q2);
}
#endif

/* out[z] = sum_i x[z * sz + i * sd], i < n: the sums of diagonals, one a work-item; 16
 * sums take i = lane (mod 16) in order (16 loads in flight on a strided walk), then their
 * lanes are added in a fixed tree. */
#if USMARR_WANT(diagsum)
__kernel void usmarr_diagsum(__global MM_T *out, __global const MM_T *x, long n, long sd, long sz, long count)
{
    long z = (long)get_global_id(0);
    if (z >= count)
        return;
    x += z * sz;
    MM_CT part[16];
    for (int j = 0; j < 16; j++)
        part[j] = 0;
    long i = 0;
    for (; i + 16 <= n; i += 16)
        for (int j = 0; j < 16; j++)
            part[j] += x[(i + j) * sd];
    for (int j = 0; i + j < n; j++)
        part[j] += x[(i + j) * sd];
    out[z] = pv_fold(vload16(0, part));
}
#endif
#endif
