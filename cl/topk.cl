/* topk.cl: top_k of k <= TOPK_MAX (lib/ops/sort.c top_k_select), appended to cl/sort.cl
 * (its keys: make_key, KT, KEY_LT).
 * usmarr_topk_rows: each work-item takes rows r, r + the work-items, ... of in[r*sr + i*se]
 * and reads each once, keeping the k smallest (key, index) pairs in a heap whose root is
 * the worst of them (argsort's keys: -DDESC=1 for the largest, -DARG=1 so -0.0 == 0.0),
 * then orders them: the first k of the stable argsort, ties in input order, NaN first for
 * the largest and last for the smallest.  A later element with the root's key comes after
 * it, so only a smaller key enters.  Writes the indices and the elements. */
#define TOPK_MAX 16
#define TOPK_WORSE(ka, ia, kb, ib) (KEY_LT(kb, ka) || (KEY_EQ(ka, kb) && (ia) > (ib)))
#if USMARR_WANT(topk)
/* Whether any of 16 contiguous 32-bit elements has a key below the root's: make_key's in
 * uint16 lanes, the lanes' comparisons or-ed in halves (any() took PoCL longer than the
 * scalar loop; this: 2048 x 2048 float32, k = 8, about 0.75 of the scalar loop's time on
 * both CPU runtimes, loaded machine). */
#define TOPK_VEC (W == 32 && KIND <= 2)
#if TOPK_VEC
inline int topk_span_enters(__global const ET *in, KT root)
{
    uint16 e = vload16(0, in);
#if KIND == 0
    uint16 k = e;
#elif KIND == 1
    uint16 k = e ^ 0x80000000u;
#else
    uint16 mag = e & 0x7fffffffu, sign = as_uint16(as_int16(e) >> 31);
    uint16 k = e ^ (sign | 0x80000000u); /* negative: every bit inverted; else the sign set */
    k = select(k, (uint16)0x80000000u, as_uint16(mag == (uint16)0)); /* -0.0 as +0.0 */
    k = select(k, (uint16)0xffffffffu, as_uint16(mag > (uint16)0x7f800000u)); /* NaN */
#endif
#if DESC
    k = ~k;
#endif
    int16 lt = k < (uint16)root;
    int8 a = lt.lo | lt.hi;
    int4 b = a.lo | a.hi;
    int2 c = b.lo | b.hi;
    return c.x | c.y;
}
#else
#define topk_span_enters(in, root) 1
#endif

inline void topk_row(__global const ET *in, long se, long n, int kk, __global ET *values, __global long *indices,
                     long ose)
{
    KT hk[TOPK_MAX];
    long hi[TOPK_MAX];
    int m = 0, p, c;
    for (long i = 0, e = 0; i < n; i++) {
        if (i == e) { /* a span of 16 keys no smaller than the root's is passed over */
            e = min(i + 16, n);
            if (TOPK_VEC && m == kk && se == 1 && e - i == 16 && !topk_span_enters(in + i, hk[0])) {
                i = e - 1;
                continue;
            }
        }
        KT key = make_key(in[i * se], 1);
        if (m < kk) { /* a new leaf, moved up past better parents */
            for (p = m++; p > 0 && TOPK_WORSE(key, i, hk[(p - 1) / 2], hi[(p - 1) / 2]); p = (p - 1) / 2) {
                hk[p] = hk[(p - 1) / 2];
                hi[p] = hi[(p - 1) / 2];
            }
        } else if (KEY_LT(key, hk[0])) { /* the root replaced, moved down past worse children */
            for (p = 0; (c = 2 * p + 1) < kk; p = c) {
                if (c + 1 < kk && TOPK_WORSE(hk[c + 1], hi[c + 1], hk[c], hi[c]))
                    c++;
                if (!TOPK_WORSE(hk[c], hi[c], key, i))
                    break;
                hk[p] = hk[c];
                hi[p] = hi[c];
            }
        } else {
            continue;
        }
        hk[p] = key;
        hi[p] = i;
    }
    for (int j = 1; j < kk; j++) { /* the heap in order */
        KT key = hk[j];
        long at = hi[j];
        for (p = j; p > 0 && TOPK_WORSE(hk[p - 1], hi[p - 1], key, at); p--) {
            hk[p] = hk[p - 1];
            hi[p] = hi[p - 1];
        }
        hk[p] = key;
        hi[p] = at;
    }
    for (int j = 0; j < kk; j++) {
        indices[j * ose] = hi[j];
        values[j * ose] = in[hi[j] * se];
    }
}

__kernel void usmarr_topk_rows(__global const ET *in, long sr, long se, long n, long k, long rows, __global ET *values,
                               __global long *indices, long osr, long ose)
{
    for (long r = get_global_id(0); r < rows; r += get_global_size(0))
        topk_row(in + r * sr, se, n, (int)k, values + r * osr, indices + r * osr, ose);
}
#endif
