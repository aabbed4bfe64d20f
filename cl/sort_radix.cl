/* sort_radix.cl: the stable LSD radix sort of rows longer than lib/sort.c ONE_ITEM_MAX
 * (and of the set functions' one row), appended to sort.cl (its KT keys, KEY_DIGIT and
 * -D macros).  The keys are R rows of n keys, row r at r*n of `ka` (int64 indices at r*n of
 * `ia` with ARG), made from in[r*sr + i*se]; `kb`/`ib` are scratch of the same size.
 * A row is cut into blocks of `block` keys (nb per row; work-item g = r*nb + b owns block
 * b of row r).  Digits have -DRADIX_BITS=11 bits (S = 2048 values; 3 passes for keys of
 * 32 bits, 6 for 64), or 8 for the 128-bit complex128 keys (cut by KEY_DIGIT); digit d of
 * a key is RDIGIT(k, d), the least significant first.  hist[g][d][v] counts block g's keys
 * whose digit d is v (d < RADIX_DIGITS, v < S):
 *
 *   usmarr_radix_prepare the keys (and indices) made from the input, every digit's
 *                        counts of every block taken in the same read
 *   usmarr_radix_count   digit p's counts of each block where pass p reads it, unless
 *                        pass p moves no keys or is the row's first (whose counts are
 *                        usmarr_radix_prepare's)
 *   usmarr_radix_plan    mask[r]: bit d set when digit d is not one value over row r; the
 *                        other digits' passes are skipped (int32 values 0 to 999 differ in
 *                        the lowest 11-bit digit only: 1 pass, not 3)
 *   usmarr_radix_scan    digit p's counts of row r turned into each block's first output
 *                        position per value: an exclusive scan over (v, b), v-major, in
 *                        place
 *   usmarr_radix_scatter each block writes its keys (and indices) in order to those
 *                        positions: a stable pass, from ka to kb or back; with a result
 *                        (to_out: sort, argsort), the row's last pass writes it instead,
 *                        out[r*osr + i*ose] = the element of the key (or its index)
 *   usmarr_radix_settle  without a result, a row that made an odd number of passes is in kb:
 *                        copied back; with it, a row that made none is written into it
 *
 * Pass p of row r reads ka when the row made an even number of passes before p (the set
 * bits of mask[r] below p), else kb: the host enqueues every pass and reads nothing back. */

#ifndef RADIX_BITS
#define RADIX_BITS 8
#endif
#define RADIX_SIZE (1 << RADIX_BITS)
#define RADIX_DIGITS ((W + RADIX_BITS - 1) / RADIX_BITS)
#if W == 128
#define RDIGIT(k, d) KEY_DIGIT(k, 8 * (d)) /* RADIX_BITS is 8 */
#else
#define RDIGIT(k, d) ((uint)((k) >> (RADIX_BITS * (d))) & (RADIX_SIZE - 1u))
#endif
#define RADIX_HIST (RADIX_DIGITS * RADIX_SIZE) /* one block's counters */

inline int radix_moved_before(uint m, int p)
{
    return popcount(m & ((1u << p) - 1u));
}

__kernel void usmarr_radix_prepare(__global const ET *in, long sr, long se, long n, long block, long nb,
                                   __global KT *ka, __global long *ia, __global uint *hist)
{
    long g = get_global_id(0), r = g / nb, b = g - r * nb;
    long i1 = min((b + 1) * block, n);
    __global uint *h = hist + g * RADIX_HIST;
    for (int d = 0; d < RADIX_HIST; d++)
        h[d] = 0;
    in += r * sr;
    ka += r * n;
    for (long i = b * block; i < i1; i++) {
        KT key = make_key(in[i * se], CANON);
        ka[i] = key;
#if ARG
        ia[r * n + i] = i;
#endif
        for (int d = 0; d < RADIX_DIGITS; d++)
            h[d * RADIX_SIZE + RDIGIT(key, d)]++;
    }
}

__kernel void usmarr_radix_count(__global const KT *ka, __global const KT *kb, long n, long block, long nb,
                                 __global uint *hist, __global const uint *mask, long p)
{
    long g = get_global_id(0), r = g / nb, b = g - r * nb;
    uint m = mask[r];
    int before = radix_moved_before(m, (int)p);
    if (!((m >> p) & 1u) || before == 0)
        return;
    __global const KT *k = ((before & 1) ? kb : ka) + r * n;
    __global uint *h = hist + g * RADIX_HIST + p * RADIX_SIZE;
    for (int v = 0; v < RADIX_SIZE; v++)
        h[v] = 0;
    long i1 = min((b + 1) * block, n);
    for (long i = b * block; i < i1; i++)
        h[RDIGIT(k[i], (int)p)]++;
}

__kernel void usmarr_radix_plan(__global const KT *ka, long n, long nb, __global const uint *hist,
                                __global uint *mask, long rows)
{
    long r = get_global_id(0);
    if (r >= rows)
        return;
    KT first = ka[r * n];
    uint m = 0;
    for (int d = 0; d < RADIX_DIGITS; d++) {
        uint v = RDIGIT(first, d);
        long count = 0;
        for (long b = 0; b < nb; b++)
            count += hist[(r * nb + b) * RADIX_HIST + d * RADIX_SIZE + v];
        if (count != n)
            m |= 1u << d;
    }
    mask[r] = m;
}

__kernel void usmarr_radix_scan(__global uint *hist, long nb, __global const uint *mask, long p, long rows)
{
    long r = get_global_id(0);
    if (r >= rows || !((mask[r] >> p) & 1u))
        return;
    __global uint *h = hist + r * nb * RADIX_HIST + p * RADIX_SIZE;
    uint sum = 0;
    for (int v = 0; v < RADIX_SIZE; v++)
        for (long b = 0; b < nb; b++) {
            uint t = h[b * RADIX_HIST + v];
            h[b * RADIX_HIST + v] = sum;
            sum += t;
        }
}

/* element (or index) i of row r of the result, when the host gave one */
#if ARG
#define RADIX_PUT(r, o, k, x) ((__global long *)out)[(r)*osr + (long)(o)*ose] = (x)
#else
#define RADIX_PUT(r, o, k, x) out[(r)*osr + (long)(o)*ose] = key_element(k)
#endif

__kernel void usmarr_radix_scatter(__global KT *ka, __global KT *kb, __global long *ia, __global long *ib, long n,
                                   long block, long nb, __global const uint *hist, __global const uint *mask, long p,
                                   __global ET *out, long osr, long ose, long to_out)
{
    long g = get_global_id(0), r = g / nb, b = g - r * nb;
    uint m = mask[r];
    if (!((m >> p) & 1u))
        return;
    int odd = radix_moved_before(m, (int)p) & 1, last = to_out && !(m >> p >> 1);
    __global const KT *src = (odd ? kb : ka) + r * n;
    __global KT *dst = (odd ? ka : kb) + r * n;
#if ARG
    __global const long *isrc = (odd ? ib : ia) + r * n;
    __global long *idst = (odd ? ia : ib) + r * n;
#else
    __global const long *isrc = 0;
#endif
    uint off[RADIX_SIZE];
    __global const uint *h = hist + g * RADIX_HIST + p * RADIX_SIZE;
    for (int v = 0; v < RADIX_SIZE; v++)
        off[v] = h[v];
    int d = (int)p;
    long i0 = b * block, i1 = min(i0 + block, n);
    if (last) { /* the row's last pass writes the result */
        for (long i = i0; i < i1; i++) {
            KT key = src[i];
            uint o = off[RDIGIT(key, d)]++;
            RADIX_PUT(r, o, key, isrc[i]);
        }
        return;
    }
    for (long i = i0; i < i1; i++) {
        KT key = src[i];
        uint o = off[RDIGIT(key, d)]++;
        dst[o] = key;
#if ARG
        idst[o] = isrc[i];
#endif
    }
}

/* Rows that made an odd number of passes are in kb: copied back, unless the last pass
 * wrote the result; with a result, the rows that made no pass are written into it. */
__kernel void usmarr_radix_settle(__global KT *ka, __global const KT *kb, __global long *ia, __global const long *ib,
                                  long n, long block, long nb, __global const uint *mask, __global ET *out, long osr,
                                  long ose, long to_out)
{
    long g = get_global_id(0), r = g / nb, b = g - r * nb;
    uint m = mask[r];
    long i0 = b * block, i1 = min(i0 + block, n);
    if (to_out && !m) {
        for (long i = i0; i < i1; i++)
            RADIX_PUT(r, i, ka[r * n + i], ia[r * n + i]);
        return;
    }
    if (to_out || !(popcount(m) & 1))
        return;
    for (long i = r * n + i0; i < r * n + i1; i++) {
        ka[i] = kb[i];
#if ARG
        ia[i] = ib[i];
#endif
    }
}
