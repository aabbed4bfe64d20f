/* sort_radix.cl: the stable LSD radix sort of rows longer than lib/ops/sort.c ONE_ITEM_MAX
 * (and of the set functions' one row), appended to sort.cl (its KT keys, KEY_DIGIT and
 * -D macros).  Row r of the input is in[r*sr + i*se], i < n; the sorted keys end at r*n of
 * `ka` (int64 indices at r*n of `ia` with ARG), or, with a result (to_out: sort, argsort),
 * as elements (indices) in out[r*osr + i*ose]; `kb`/`ib` are scratch of the same size.
 * A row is cut into blocks of `block` keys (nb per row; work-item g = r*nb + b owns block
 * b of row r).  Digits have -DRADIX_BITS=11 bits (S = 2048 values; 3 passes for keys of
 * 32 bits, 6 for 64), or 8 for the 128-bit complex128 keys (cut by KEY_DIGIT); digit d of
 * a key is RDIGIT(k, d), the least significant first.  hist[g][d][v] counts block g's keys
 * whose digit d is v (d < RADIX_DIGITS, v < S):
 *
 *   usmarr_radix_prepare every digit's counts of every block, in one read of the input
 *   usmarr_radix_plan    mask[r]: bit d set when digit d is not one value over row r; the
 *                        other digits' passes are skipped (int32 values 0 to 999 differ in
 *                        the lowest 11-bit digit only: 1 pass, not 3)
 *   usmarr_radix_count   digit p's counts of each block where pass p reads it, unless
 *                        pass p moves no keys or is the row's first (whose counts are
 *                        usmarr_radix_prepare's)
 *   usmarr_radix_scan    digit p's counts of row r turned into each block's first output
 *                        position per value: an exclusive scan over (v, b), v-major, in
 *                        place
 *   usmarr_radix_scatter each block writes its keys (and indices) in order to those
 *                        positions: a stable pass.  A row's first pass makes the keys from
 *                        the input, its last writes ka or the result; the passes between
 *                        alternate, so that no pass copies back.  With -DRADIX_WC=L (the
 *                        host's choice for a device with non-temporal stores) and `lines`
 *                        set, a pass into ka or kb gathers each value's keys in a line of
 *                        L in local memory and writes whole lines with non-temporal
 *                        stores: the 2048 places a block writes to are then not read
 *                        into the caches first (the ends of each value's run are written
 *                        one by one).  The last pass into the result writes each key
 *                        where it goes: its lines were no faster there
 *   usmarr_radix_settle  a row that made no pass: its keys into ka, or into the result
 *
 * Which buffer pass p of row r reads and writes follows from mask[r] (radix_writes_b):
 * the host enqueues every pass and reads nothing back.  The input is read by the first
 * pass, which may be a row's only one: the host copies an input that shares the result's
 * memory. */

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
#ifndef RADIX_WC
#define RADIX_WC 0
#endif
#if RADIX_WC
/* a line of RADIX_WC keys, and of their indices, as one vector */
#if W >= 64
typedef USMARR_CAT(ulong, RADIX_WC) KLINE;
#else
typedef USMARR_CAT(uint, RADIX_WC) KLINE;
#endif
typedef USMARR_CAT(long, RADIX_WC) XLINE;
#endif

/* Of row r's passes (the set bits of m), pass p is number k = the set bits below p; the
 * last one writes ka (or the result), the one before it kb, and so on back to the first,
 * which reads the input: no pass ever copies the row back. */
inline int radix_moved_before(uint m, int p)
{
    return popcount(m & ((1u << p) - 1u));
}

/* the buffer that pass k of a row of t passes writes (0: ka, 1: kb) */
inline int radix_writes_b(uint m, int k)
{
    return (popcount(m) - 1 - k) & 1;
}

#if USMARR_WANT(radix)
__kernel void usmarr_radix_prepare(__global const ET *in, long sr, long se, long n, long block, long nb,
                                   __global uint *hist)
{
    long g = get_global_id(0), r = g / nb, b = g - r * nb;
    long i1 = min((b + 1) * block, n);
    uint h[RADIX_HIST];
    for (int d = 0; d < RADIX_HIST; d++)
        h[d] = 0;
    in += r * sr;
    for (long i = b * block; i < i1; i++) {
        KT key = make_key(in[i * se], CANON);
        for (int d = 0; d < RADIX_DIGITS; d++)
            h[d * RADIX_SIZE + RDIGIT(key, d)]++;
    }
    for (int d = 0; d < RADIX_HIST; d++)
        hist[g * RADIX_HIST + d] = h[d];
}

__kernel void usmarr_radix_count(__global const KT *ka, __global const KT *kb, long n, long block, long nb,
                                 __global uint *hist, __global const uint *mask, long p)
{
    long g = get_global_id(0), r = g / nb, b = g - r * nb;
    uint m = mask[r];
    int k = radix_moved_before(m, (int)p);
    if (!((m >> p) & 1u) || k == 0)
        return;
    __global const KT *src = (radix_writes_b(m, k - 1) ? kb : ka) + r * n;
    __global uint *h = hist + g * RADIX_HIST + p * RADIX_SIZE;
    for (int v = 0; v < RADIX_SIZE; v++)
        h[v] = 0;
    long i1 = min((b + 1) * block, n);
    for (long i = b * block; i < i1; i++)
        h[RDIGIT(src[i], (int)p)]++;
}

__kernel void usmarr_radix_plan(__global const ET *in, long sr, long n, long nb, __global const uint *hist,
                                __global uint *mask, long rows)
{
    long r = get_global_id(0);
    if (r >= rows)
        return;
    KT first = make_key(in[r * sr], CANON);
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
#endif

/* element (or index) i of row r of the result, when the host gave one */
#if ARG
#define RADIX_PUT(r, o, k, x) ((__global long *)out)[(r)*osr + (long)(o)*ose] = (x)
#define RADIX_IDX(i) (i)
#else
#define RADIX_PUT(r, o, k, x) out[(r)*osr + (long)(o)*ose] = key_element(k)
#define RADIX_IDX(i) 0
#endif

/* one block's keys in order: from the input (the row's first pass) or from src */
#define RADIX_EACH(body)                                                                           \
    do {                                                                                           \
        if (first) {                                                                               \
            for (long i = i0; i < i1; i++) {                                                       \
                KT key = make_key(in[i * se], CANON);                                              \
                long x = RADIX_IDX(i);                                                             \
                body;                                                                              \
            }                                                                                      \
        } else {                                                                                   \
            for (long i = i0; i < i1; i++) {                                                       \
                KT key = src[i];                                                                   \
                long x = ARG ? isrc[i] : 0;                                                        \
                body;                                                                              \
            }                                                                                      \
        }                                                                                          \
    } while (0)

#if ARG
#define RADIX_IF_ARG(s) s
#else
#define RADIX_IF_ARG(s)
#endif
/* positions [o0, o1) of value v's line, one by one into dst (idst) */
#define RADIX_PART(v, o0, o1)                                                                      \
    for (uint t = (o0); t < (o1); t++) {                                                           \
        dst[t] = wk[(v)*RADIX_WC + (t & mw)];                                                      \
        RADIX_IF_ARG(idst[t] = wi[(v)*RADIX_WC + (t & mw)]);                                       \
    }

#if USMARR_WANT(radix)
__kernel void usmarr_radix_scatter(__global const ET *in, long sr, long se, __global KT *ka, __global KT *kb,
                                   __global long *ia, __global long *ib, long n, long block, long nb,
                                   __global const uint *hist, __global const uint *mask, long p, __global ET *out,
                                   long osr, long ose, long to_out, long lines)
{
    long g = get_global_id(0), r = g / nb, b = g - r * nb;
    uint m = mask[r];
    if (!((m >> p) & 1u))
        return;
    int k = radix_moved_before(m, (int)p), first = k == 0, last = to_out && !(m >> p >> 1);
    int from_b = !first && radix_writes_b(m, k - 1), to_b = radix_writes_b(m, k);
    in += r * sr;
    __global const KT *src = (from_b ? kb : ka) + r * n;
    __global KT *dst = (to_b ? kb : ka) + r * n;
    __global const long *isrc = (from_b ? ib : ia) + r * n;
    __global long *idst = (to_b ? ib : ia) + r * n;
    uint off[RADIX_SIZE];
    __global const uint *h = hist + g * RADIX_HIST + p * RADIX_SIZE;
    for (int v = 0; v < RADIX_SIZE; v++)
        off[v] = h[v];
    int d = (int)p;
    long i0 = b * block, i1 = min(i0 + block, n);
#if RADIX_WC
    __local KT wk[RADIX_SIZE * RADIX_WC];
#if ARG
    __local long wi[RADIX_SIZE * RADIX_WC];
#endif
    if (lines && !last) {
        const uint mw = RADIX_WC - 1u;
        RADIX_EACH({
            uint v = RDIGIT(key, d);
            uint o = off[v]++;
            uint slot = o & mw;
            wk[v * RADIX_WC + slot] = key;
            RADIX_IF_ARG(wi[v * RADIX_WC + slot] = x);
            if (slot == mw) {
                uint o0 = o - mw;
                if (o0 >= h[v]) {
                    __builtin_nontemporal_store(*(__local const KLINE *)(wk + v * RADIX_WC),
                                                (__global KLINE *)(dst + o0));
                    RADIX_IF_ARG(__builtin_nontemporal_store(*(__local const XLINE *)(wi + v * RADIX_WC),
                                                             (__global XLINE *)(idst + o0)));
                } else {
                    RADIX_PART(v, h[v], o + 1u);
                }
            }
        });
        for (uint v = 0; v < RADIX_SIZE; v++)
            if (off[v] & mw)
                RADIX_PART(v, max(off[v] & ~mw, h[v]), off[v]);
        return;
    }
#endif
    if (last) /* the row's last pass writes the result */
        RADIX_EACH({
            uint o = off[RDIGIT(key, d)]++;
            RADIX_PUT(r, o, key, x);
        });
    else
        RADIX_EACH({
            uint o = off[RDIGIT(key, d)]++;
            dst[o] = key;
            if (ARG)
                idst[o] = x;
        });
}
#endif

/* Rows that made no pass: their keys (and indices) into ka, or into the result. */
#if USMARR_WANT(radix)
__kernel void usmarr_radix_settle(__global const ET *in, long sr, long se, __global KT *ka, __global long *ia, long n,
                                  long block, long nb, __global const uint *mask, __global ET *out, long osr, long ose,
                                  long to_out)
{
    long g = get_global_id(0), r = g / nb, b = g - r * nb;
    if (mask[r])
        return;
    long i0 = b * block, i1 = min(i0 + block, n);
    in += r * sr;
    for (long i = i0; i < i1; i++) {
        KT key = make_key(in[i * se], CANON);
        if (to_out) {
            RADIX_PUT(r, i, key, i);
        } else {
            ka[r * n + i] = key;
            if (ARG)
                ia[r * n + i] = i;
        }
    }
}
#endif
