/* gemm.cl: the gpu shape's matrix product (lib/linalg/matmul.c), -DD0=<tag> of a real dtype
 * with a vector form (float32, float64, the integers).
 *
 *   usmarr_gemm  c[b][m][n] = sum_k a[b][m][k] * b[b][k][n], C-ordered c (M x N per
 *                matrix), a with unit stride along k (row stride sa), b with unit stride
 *                along n (row stride sb), batch strides bat = (a's, b's, c's)
 *
 * A work-group of GM_T x GM_T = 256 items makes a GM_BM x GM_BN = 128 x 128 block of c: K
 * is walked GM_BK = 16 at a time, A's 128 x 16 and B's 16 x 128 pieces loaded by the whole
 * group (neighbouring items, neighbouring addresses) into local memory, A's transposed, and
 * each item accumulates an 8 x 8 register block: rows 4*ty + [0, 4) and 64 + 4*ty + [0, 4),
 * columns 4*tx + [0, 4) and 64 + 4*tx + [0, 4), read from local memory as 4-vectors (a
 * group's columns are 256 contiguous bytes: no bank conflicts).  Edges load zeros and
 * store nothing. */

#define GM_T USMARR_COMPUTE(D0)
#define GM_T4 USMARR_CAT(GM_T, 4)
#define GM_BM 128
#define GM_BN 128
#define GM_BK 16
#define GM_LDA (GM_BM + 4) /* A's rows padded: the transposed stores spread over the banks */

kernel __attribute__((reqd_work_group_size(16, 16, 1))) void
usmarr_gemm(global USMARR_STORAGE(D0) *c, global const USMARR_STORAGE(D0) *a, global const USMARR_STORAGE(D0) *b,
            long M, long N, long K, long sa, long sb, long3 bat)
{
    local GM_T as[GM_BK * GM_LDA];
    local GM_T bs[GM_BK * GM_BN];
    int tx = (int)get_local_id(0), ty = (int)get_local_id(1), t = ty * 16 + tx;
    long m0 = (long)get_group_id(1) * GM_BM, n0 = (long)get_group_id(0) * GM_BN, batch = get_global_id(2);
    a += batch * bat.s0;
    b += batch * bat.s1;
    c += batch * bat.s2;
    GM_T4 acc[8][2];
    for (int i = 0; i < 8; i++)
        acc[i][0] = acc[i][1] = (GM_T4)(0);
    /* A: item t loads k = t % 16 of rows t / 16 + 16 j; B: column t % 128 of rows t / 128 + 2 j */
    int ak = t % GM_BK, arow = t / GM_BK, bcol = t % GM_BN, brow = t / GM_BN;
    for (long k0 = 0; k0 < K; k0 += GM_BK) {
        long k = k0 + ak;
        for (int j = 0; j < GM_BM / 16; j++) {
            long m = m0 + arow + 16 * j;
            as[ak * GM_LDA + arow + 16 * j] = m < M && k < K ? a[m * sa + k] : (GM_T)0;
        }
        for (int j = 0; j < GM_BK / 2; j++) {
            long kb = k0 + brow + 2 * j, n = n0 + bcol;
            bs[(brow + 2 * j) * GM_BN + bcol] = kb < K && n < N ? b[kb * sb + n] : (GM_T)0;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int kk = 0; kk < GM_BK; kk++) {
            GM_T4 a0 = vload4(0, as + kk * GM_LDA + 4 * ty), a1 = vload4(0, as + kk * GM_LDA + 64 + 4 * ty);
            GM_T4 b0 = vload4(0, bs + kk * GM_BN + 4 * tx), b1 = vload4(0, bs + kk * GM_BN + 64 + 4 * tx);
            GM_T ar[8] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
            for (int i = 0; i < 8; i++) {
                acc[i][0] += ar[i] * b0;
                acc[i][1] += ar[i] * b1;
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    for (int i = 0; i < 8; i++) {
        long m = m0 + (i < 4 ? 4 * ty + i : 64 + 4 * ty + i - 4);
        if (m >= M)
            continue;
        for (int h = 0; h < 2; h++) {
            long n = n0 + 64 * h + 4 * tx;
            GM_T4 v = acc[i][h];
            GM_T vs[4] = {v.x, v.y, v.z, v.w};
            for (int q = 0; q < 4; q++)
                if (n + q < N)
                    USMARR_STOREP(D0, c, m * N + n + q, vs[q]);
        }
    }
}
