/* sort.cl: sort, argsort and searchsorted (lib/ops/sort.c).  Elements are handled as their
 * bits and mapped to unsigned keys whose unsigned order is NumPy's order:
 *
 *   -DW=8|16|32|64|128  element width in bits (complex64 is 64: real part in the low half;
 *                       complex128 is 128)
 *   -DKIND=0|1|2|3|4    0 unsigned or bool, 1 signed, 2 float (f16/f32/f64), 3 complex64,
 *                       4 complex128
 *   -DDESC=0|1          descending argsort: the key is inverted, so a stable ascending sort
 *                       of the inverted keys is NumPy's flip(argsort(flip(x))) as indices of x
 *                       (equal keys keep their order, NaNs come first).  A descending sort
 *                       needs no program of its own: it is the ascending one over rows read
 *                       and written backwards (lib/ops/sort.c)
 *   -DARG=0|1           argsort: an int64 index travels with every key; zeros are made
 *                       equal (-0.0 == 0.0), which sort cannot do because it rebuilds the
 *                       element from its key (-DCANON=1 makes them equal without ARG,
 *                       for the set functions; complex64 keys always make them equal, as
 *                       the lexicographic order needs: sort then returns +0.0 parts)
 *
 * Float keys: NaN (any payload or sign) -> all ones, the largest key; otherwise a set sign
 * bit inverts every bit, a clear one sets the sign bit (+inf's key is then 0xff800000 for
 * float32: the keys between it and all ones are free).  Complex: NumPy's order, which is
 * lexicographic (real part first) among numbers, followed by four classes: R+Rj < R+nanj
 * (by R) < nan+Rj (by R) < nan+nanj.  The key is two part keys, the real part's the more
 * significant: (key(re), key(im)) for numbers; R+nanj, whose imaginary key would be all
 * ones, is (all ones - 1, key(re)), above every number's real key and below nan's;
 * nan+Rj is naturally (all ones, key(im)).  Complex64 holds the two 32-bit part keys in
 * one ulong (real high); complex128 holds the two 64-bit ones in a ulong2 (.x real, the
 * more significant), a 128-bit key compared and cut into digits by the KEY_* macros
 * below, which are the plain operators for the other widths.
 *
 * A sort works on R rows of n elements, in[r*sr + i*se] -> out[r*osr + i*ose].  Rows of up
 * to 16384 (lib/ops/sort.c ONE_ITEM_MAX) take one kernel, one work-group per row:
 *   usmarr_sort_rows      LSD radix (8-bit digits, all histograms counted in one read of
 *                         the row, constant digits skipped, insertion sort up to 24 keys)
 *                         from the input through local (or global) scratch into the output
 *   usmarr_sort_rows_net  sort of elements of up to 4 bytes, not argsort: a bitonic network
 *                         on uint16 vectors in local memory
 * Longer rows (and the set functions' one row) go through contiguous keys, row r at r*n:
 *   usmarr_radix_*        key[r*n+i] = KEY(in[r*sr + i*se]) (idx = i with ARG), sorted by
 *                         a stable LSD radix sort over blocks of the rows (cl/sort_radix.cl,
 *                         appended to this file), into key/idx or as elements (indices
 *                         with ARG) into out[r*osr + i*ose]
 * usmarr_searchsorted: SS_KEYS keys per work-item, binary searches in lockstep over a strided sorted row,
 * through an optional int64 sorter; usmarr_searchsorted_right for the right side. */

#if W == 8
typedef uchar ET;
#elif W == 16
typedef ushort ET;
#elif W == 32
typedef uint ET;
#elif W == 64
typedef ulong ET;
#else
typedef ulong2 ET;
#endif

/* KS: one float part's key (the whole key below 128 bits) */
#if W >= 64
typedef ulong KS;
#define KEYBITS 64
#else
typedef uint KS;
#define KEYBITS 32
#endif
#if W == 128
typedef ulong2 KT;
#define KEY_LT(a, b) ((a).x < (b).x || ((a).x == (b).x && (a).y < (b).y))
#define KEY_EQ(a, b) ((a).x == (b).x && (a).y == (b).y)
#define KEY_DIGIT(k, shift) ((uint)((shift) < 64 ? (k).y >> (shift) : (k).x >> ((shift)-64)) & 255u)
#else
typedef KS KT;
#define KEY_LT(a, b) ((a) < (b))
#define KEY_EQ(a, b) ((a) == (b))
#define KEY_DIGIT(k, shift) ((uint)((k) >> (shift)) & 255u)
#endif
#define KEY_LE(a, b) (!KEY_LT(b, a))

#ifndef ARG
#define ARG 0
#endif
#ifndef DESC
#define DESC 0
#endif
#ifndef CANON
#define CANON ARG
#endif
#ifndef ROW_LOCAL
#define ROW_LOCAL 0
#endif

#define FMASK(w) (~(KS)0 >> (KEYBITS - (w)))
#define FSIGN(w) ((KS)1 << ((w)-1))

#if W == 16
#define EXPMASK 0x7c00u
#elif W == 32 || KIND == 3
#define EXPMASK 0x7f800000u
#else
#define EXPMASK 0x7ff0000000000000ul
#endif

/* key of float bits b of width w (canon: -0.0 -> +0.0) */
inline KS float_key(KS b, int w, KS expmask, int canon)
{
    KS sign = FSIGN(w), mask = FMASK(w), mag = b & (sign - 1);
    if (mag > expmask)
        return mask;
    if (canon && mag == 0)
        b = 0;
    return (b & sign) ? (~b & mask) : (b | sign);
}

inline KS float_bits(KS k, int w)
{
    KS sign = FSIGN(w), mask = FMASK(w);
    return (k & sign) ? (k ^ sign) : (~k & mask);
}

/* The complex key's two parts from the parts' bits (w bits each); zeros are always equal,
 * otherwise -0.0 < +0.0 would decide between real parts. */
inline void complex_key(KS re, KS im, int w, KS *hi, KS *lo)
{
    KS kr = float_key(re, w, EXPMASK, 1), ki = float_key(im, w, EXPMASK, 1), nan = FMASK(w);
    if (ki == nan && kr != nan) {
        ki = kr;
        kr = nan - 1;
    }
    *hi = kr;
    *lo = ki;
}

/* The parts' bits from the complex key's two parts */
inline void complex_bits(KS hi, KS lo, int w, KS *re, KS *im)
{
    KS nan = FMASK(w);
    if (hi == nan - 1) {
        hi = lo;
        lo = nan;
    }
    *re = float_bits(hi, w);
    *im = float_bits(lo, w);
}

inline KT make_key(ET e, int canon)
{
    KT k;
#if KIND == 0
    k = (KT)e;
#elif KIND == 1
    k = (KT)e ^ FSIGN(W);
#elif KIND == 2
    k = float_key((KT)e, W, EXPMASK, canon);
#elif KIND == 3
    KS hi, lo;
    complex_key(e & 0xffffffffu, e >> 32, 32, &hi, &lo);
    k = hi << 32 | lo;
#else
    KS hi, lo;
    complex_key(e.x, e.y, 64, &hi, &lo);
    k = (KT)(hi, lo);
#endif
#if DESC && W == 128
    k = ~k;
#elif DESC
    k = ~k & FMASK(W);
#endif
    return k;
}

inline ET key_element(KT k)
{
#if DESC && W == 128
    k = ~k;
#elif DESC
    k = ~k & FMASK(W);
#endif
#if KIND == 0
    return (ET)k;
#elif KIND == 1
    return (ET)(k ^ FSIGN(W));
#elif KIND == 2
    return (ET)float_bits(k, W);
#elif KIND == 3
    KS re, im;
    complex_bits(k >> 32, k & 0xffffffffu, 32, &re, &im);
    return re | im << 32;
#else
    KS re, im;
    complex_bits(k.x, k.y, 64, &re, &im);
    return (ET)(re, im);
#endif
}

/* ---- one row per work-group (n <= ONE_ITEM_MAX in lib/ops/sort.c) ---------------------------
 * usmarr_sort_rows sorts row r = get_group_id(0) of in[r*sr + i*se] into out[r*osr + i*ose]
 * in one kernel: one read pass maps the elements to keys and counts every digit's
 * histogram; passes whose digit is one value for the whole row are skipped; the first
 * pass scatters from the input (its keys made again) into the row's scratch, the last one
 * from the scratch straight into the output as elements (or int64 indices with ARG).  The
 * scratch is local memory with -DROW_LOCAL=1 (the host sizes it: the row stays in cache),
 * else global (row r at r*n of blocks of R*n).  The row is read completely before the output is
 * written, so out may be in exactly in's place. */
#if ROW_LOCAL
#define ROWMEM __local
#else
#define ROWMEM __global
#endif
#define DIGITS ((W + 7) / 8)

#if ARG
#define ROW_PUT(o, k, i) oi[(long)(o) * ose] = (i)
#else
#define ROW_PUT(o, k, i) out[(long)(o) * ose] = key_element(k)
#endif

#if USMARR_WANT(sort)
__kernel void usmarr_sort_rows(__global const ET *in, long sr, long se, long n, __global ET *out, long osr, long ose,
                               ROWMEM KT *ka, ROWMEM KT *kb, ROWMEM long *ia, ROWMEM long *ib)
{
    __local uint hist[DIGITS * 256];
    long r = get_group_id(0);
    in += r * sr;
#if ARG
    __global long *oi = (__global long *)out + r * osr;
#else
    out += r * osr;
    (void)ia;
    (void)ib;
#endif
#if !ROW_LOCAL
    ka += r * n;
    kb += r * n;
#if ARG
    ia += r * n;
    ib += r * n;
#endif
#endif
    if (n <= 24) { /* insertion sort in the scratch: stable */
        for (long i = 0; i < n; i++) {
            KT k = make_key(in[i * se], CANON);
            long j = i;
            while (j > 0 && KEY_LT(k, ka[j - 1])) {
                ka[j] = ka[j - 1];
#if ARG
                ia[j] = ia[j - 1];
#endif
                j--;
            }
            ka[j] = k;
#if ARG
            ia[j] = i;
#endif
        }
        for (long i = 0; i < n; i++)
            ROW_PUT(i, ka[i], ia[i]);
        return;
    }
    for (int d = 0; d < DIGITS * 256; d++)
        hist[d] = 0;
    for (long i = 0; i < n; i++) {
        KT k = make_key(in[i * se], CANON);
        for (int p = 0; p < DIGITS; p++)
            hist[p * 256 + KEY_DIGIT(k, 8 * p)]++;
    }
    /* the passes that move keys, their counts turned into starting offsets */
    uchar act[DIGITS];
    int nact = 0;
    KT k0 = make_key(in[0], CANON);
    for (int p = 0; p < DIGITS; p++) {
        __local uint *h = hist + p * 256;
        if (h[KEY_DIGIT(k0, 8 * p)] == (uint)n)
            continue;
        uint sum = 0;
        for (int d = 0; d < 256; d++) {
            uint t = h[d];
            h[d] = sum;
            sum += t;
        }
        act[nact++] = (uchar)p;
    }
    if (nact == 0) {
        for (long i = 0; i < n; i++)
            ROW_PUT(i, make_key(in[i * se], CANON), i);
        return;
    }
    /* first pass: input -> ka */
    {
        int shift = 8 * act[0];
        __local uint *h = hist + act[0] * 256;
        for (long i = 0; i < n; i++) {
            KT k = make_key(in[i * se], CANON);
            uint o = h[KEY_DIGIT(k, shift)]++;
            ka[o] = k;
#if ARG
            ia[o] = i;
#endif
        }
    }
    for (int a = 1; a < nact - 1; a++) { /* middle passes: ka -> kb, swapped */
        int shift = 8 * act[a];
        __local uint *h = hist + act[a] * 256;
        for (long i = 0; i < n; i++) {
            KT k = ka[i];
            uint o = h[KEY_DIGIT(k, shift)]++;
            kb[o] = k;
#if ARG
            ib[o] = ia[i];
#endif
        }
        ROWMEM KT *tk = ka;
        ka = kb;
        kb = tk;
#if ARG
        ROWMEM long *ti = ia;
        ia = ib;
        ib = ti;
#endif
    }
    if (nact == 1) { /* the only pass read the input: copy out */
        for (long i = 0; i < n; i++)
            ROW_PUT(i, ka[i], ia[i]);
        return;
    }
    /* last pass: ka -> the output */
    int shift = 8 * act[nact - 1];
    __local uint *h = hist + act[nact - 1] * 256;
    for (long i = 0; i < n; i++) {
        KT k = ka[i];
        uint o = h[KEY_DIGIT(k, shift)]++;
        ROW_PUT(o, k, ia[i]);
    }
}
#endif

/* ---- sort (not argsort) of rows of elements of up to 4 bytes: a sorting network ---------
 * usmarr_sort_rows_net sorts row r = get_group_id(0) like usmarr_sort_rows, with a bitonic
 * network on uint16 vectors in local memory of P keys (the row padded with all-ones keys
 * to P, a power of two >= 64; the host sizes it): min/max of whole vectors for partners 16 or more apart, constant
 * shuffles inside a vector for the others (the compilers make AVX-512 / AVX2 permutes of
 * them).  Every step puts the smaller key at the lower position (the first step of each
 * merge pairs i with its mirror in the block, which turns the two sorted halves into a
 * bitonic sequence).  Not stable: only sort may use it, whose equal keys rebuild equal
 * elements. */
#if W <= 32 && !ARG
/* compare-exchange of lanes l and l ^ m (m = `perm` pattern) inside x; lanes with `low`
 * set keep the minimum */
#define NET_LANES(x, perm, low)                                                                    \
    do {                                                                                           \
        uint16 t_ = shuffle(x, perm);                                                              \
        x = select(max(x, t_), min(x, t_), low);                                                   \
    } while (0)

#define NET_PERM(m) (uint16)(0 ^ (m), 1 ^ (m), 2 ^ (m), 3 ^ (m), 4 ^ (m), 5 ^ (m), 6 ^ (m), 7 ^ (m), 8 ^ (m), \
                             9 ^ (m), 10 ^ (m), 11 ^ (m), 12 ^ (m), 13 ^ (m), 14 ^ (m), 15 ^ (m))
#define NET_LOW(b) (uint16)(0 & (b) ? 0 : ~0u, 1 & (b) ? 0 : ~0u, 2 & (b) ? 0 : ~0u, 3 & (b) ? 0 : ~0u,          \
                            4 & (b) ? 0 : ~0u, 5 & (b) ? 0 : ~0u, 6 & (b) ? 0 : ~0u, 7 & (b) ? 0 : ~0u,           \
                            8 & (b) ? 0 : ~0u, 9 & (b) ? 0 : ~0u, 10 & (b) ? 0 : ~0u, 11 & (b) ? 0 : ~0u,         \
                            12 & (b) ? 0 : ~0u, 13 & (b) ? 0 : ~0u, 14 & (b) ? 0 : ~0u, 15 & (b) ? 0 : ~0u)

/* the steps of partners d, d/2, ..., 1 apart */
#define NET_HALF1(x) NET_LANES(x, NET_PERM(1), NET_LOW(1))
#define NET_HALF2(x) NET_LANES(x, NET_PERM(2), NET_LOW(2)); NET_HALF1(x)
#define NET_HALF4(x) NET_LANES(x, NET_PERM(4), NET_LOW(4)); NET_HALF2(x)
#define NET_HALF8(x) NET_LANES(x, NET_PERM(8), NET_LOW(8)); NET_HALF4(x)

inline uint16 net_tail(uint16 x)
{
    NET_HALF8(x);
    return x;
}

/* merges of blocks of 2, 4, 8, 16 lanes: the mirror step, then the halving steps */
inline uint16 net_sort16(uint16 x)
{
    NET_HALF1(x);
    NET_LANES(x, NET_PERM(3), NET_LOW(2));
    NET_HALF1(x);
    NET_LANES(x, NET_PERM(7), NET_LOW(4));
    NET_HALF2(x);
    NET_LANES(x, NET_PERM(15), NET_LOW(8));
    NET_HALF4(x);
    return x;
}

/* elements <-> keys, 16 at a time (W <= 32: the element's bits widened to a uint) */
inline uint16 make_key16(uint16 b)
{
#if KIND == 0
    uint16 k = b;
#elif KIND == 1
    uint16 k = b ^ FSIGN(W);
#else
    uint16 mag = b & (FSIGN(W) - 1);
#if CANON
    b = select(b, (uint16)0, mag == 0);
#endif
    uint16 k = select(b | FSIGN(W), ~b & FMASK(W), (b & FSIGN(W)) != 0);
    k = select(k, (uint16)FMASK(W), mag > EXPMASK);
#endif
#if DESC
    k = ~k & FMASK(W);
#endif
    return k;
}

inline uint16 key_element16(uint16 k)
{
#if DESC
    k = ~k & FMASK(W);
#endif
#if KIND == 0
    return k;
#elif KIND == 1
    return k ^ FSIGN(W);
#else
    return select(~k & FMASK(W), k ^ FSIGN(W), (k & FSIGN(W)) != 0);
#endif
}

#if W == 8
#define ET16(x) convert_uchar16(x)
#elif W == 16
#define ET16(x) convert_ushort16(x)
#else
#define ET16(x) (x)
#endif

/* a and b sorted: a gets the 16 smaller keys, b the 16 larger, both sorted */
#define NET_MERGE2(a, b)                                                                           \
    do {                                                                                           \
        uint16 c_ = NET_REV(b);                                                                    \
        b = NET_REV(max(a, c_));                                                                   \
        a = min(a, c_);                                                                            \
        a = net_tail(a);                                                                           \
        b = net_tail(b);                                                                           \
    } while (0)
#define NET_CX(a, b)                                                                               \
    do {                                                                                           \
        uint16 t_ = min(a, b);                                                                     \
        b = max(a, b);                                                                             \
        a = t_;                                                                                    \
    } while (0)
#define NET_REV(x) shuffle(x, (uint16)(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0))
/* four vectors' last steps, partners 1 vector apart (a-b, c-d) then those inside each
 * vector, stored to v[i..i+3] */
#define NET_LAST4(v, i, a, b, c, d)                                                                \
    do {                                                                                           \
        NET_CX(a, b);                                                                              \
        NET_CX(c, d);                                                                              \
        v[i] = net_tail(a);                                                                        \
        v[(i) + 1] = net_tail(b);                                                                  \
        v[(i) + 2] = net_tail(c);                                                                  \
        v[(i) + 3] = net_tail(d);                                                                  \
    } while (0)

#if USMARR_WANT(sort)
__kernel void usmarr_sort_rows_net(__global const ET *in, long sr, long se, long n, __global ET *out, long osr,
                                   long ose, __local uint16 *v)
{
    __local uint *s = (__local uint *)v;
    long r = get_group_id(0);
    in += r * sr;
    out += r * osr;
    int p = 64;
    while (p < n)
        p *= 2;
    int nv = p / 16, nfull = (int)n / 16;
    if (se == 1) {
        for (int i = 0; i < nfull; i++)
            v[i] = make_key16(convert_uint16(vload16(i, in)));
        for (int i = nfull * 16; i < n; i++)
            s[i] = make_key(in[i], CANON);
    } else {
        for (int i = 0; i < n; i++)
            s[i] = make_key(in[i * se], CANON);
    }
    for (int i = n; i < p; i++)
        s[i] = ~0u;
    /* blocks of 4 vectors sorted in registers */
    for (int i = 0; i < nv; i += 4) {
        uint16 a = net_sort16(v[i]), b = net_sort16(v[i + 1]), c = net_sort16(v[i + 2]), d = net_sort16(v[i + 3]);
        NET_MERGE2(a, b);
        NET_MERGE2(c, d);
        uint16 t = NET_REV(d);
        d = NET_REV(max(a, t));
        a = min(a, t);
        t = NET_REV(c);
        c = NET_REV(max(b, t));
        b = min(b, t);
        NET_LAST4(v, i, a, b, c, d);
    }
    for (int m = 8; m <= nv; m *= 2) { /* merge sorted blocks of m/2 vectors into blocks of m */
        for (int b = 0; b < nv; b += m)
            for (int q = 0; q < m / 2; q++) {
                uint16 a = v[b + q], c = NET_REV(v[b + m - 1 - q]);
                v[b + q] = min(a, c);
                v[b + m - 1 - q] = NET_REV(max(a, c));
            }
        for (int j = m / 4; j >= 4; j /= 2)
            for (int i = 0; i < nv; i++)
                if (!(i & j)) {
                    uint16 a = v[i], c = v[i + j];
                    v[i] = min(a, c);
                    v[i + j] = max(a, c);
                }
        for (int i = 0; i < nv; i += 4) { /* partners 2 and 1 vectors apart, then inside */
            uint16 a = v[i], b = v[i + 1], c = v[i + 2], d = v[i + 3];
            NET_CX(a, c);
            NET_CX(b, d);
            NET_LAST4(v, i, a, b, c, d);
        }
    }
    if (ose == 1) {
        for (int i = 0; i < nfull; i++)
            vstore16(ET16(key_element16(v[i])), i, out);
        for (int i = nfull * 16; i < n; i++)
            out[i] = key_element(s[i]);
    } else {
        for (int i = 0; i < n; i++)
            out[i * ose] = key_element(s[i]);
    }
}
#endif
#endif

/* SS_KEYS keys per work-item, searched in lockstep: the range [base, base + len] that holds
 * a key's position halves to a length that depends on n alone, so every round's probes of
 * the SS_KEYS keys are independent loads in flight together (a search of a large array is
 * a chain of cache misses; one key per work-item leaves one miss in flight per thread where
 * the compiler does not vectorise the loop across work-items).  16 keys searched no faster
 * than 8 on either CPU driver and took Intel's compiler two to three times as long. */
#define SS_KEYS 8
/* Whether the sorted element km goes before the key: every element equal to it too on the
 * right side.  `right` is a constant where SS_BEFORE is used: each side is a kernel of its
 * own, the two in one program (a run-time side made the search a third slower). */
#define SS_BEFORE(km, key) (right ? KEY_LE(km, key) : KEY_LT(km, key))

inline KT ss_probe(__global const ET *a, long n, long sa, __global const long *sorter, long ss, int use_sorter,
                   long i)
{
    long at = use_sorter ? clamp(sorter[i * ss], 0L, n - 1) : i; /* a sorter must be a permutation; never
                                                                     read outside a */
    return make_key(a[at * sa], 1);
}

#if USMARR_WANT(searchsorted)
__attribute__((always_inline)) inline void searchsorted(__global const ET *a, long n, long sa,
                                                        __global const long *sorter, long ss, int use_sorter,
                                                        __global const ET *v, long m, __global long *out,
                                                        const int right)
{
    long g = get_global_id(0) * SS_KEYS;
    if (g >= m)
        return;
    long count = min((long)SS_KEYS, m - g), base[SS_KEYS];
    KT key[SS_KEYS];
#pragma unroll
    for (int q = 0; q < SS_KEYS; q++) {
        key[q] = make_key(v[g + min((long)q, count - 1)], 1);
        base[q] = 0;
    }
    for (long len = n; len > 1;) {
        long step = len / 2;
#pragma unroll
        for (int q = 0; q < SS_KEYS; q++)
            if (SS_BEFORE(ss_probe(a, n, sa, sorter, ss, use_sorter, base[q] + step), key[q]))
                base[q] += step;
        len -= step;
    }
    for (int q = 0; q < count; q++)
        out[g + q] = base[q] + (SS_BEFORE(ss_probe(a, n, sa, sorter, ss, use_sorter, base[q]), key[q]) ? 1 : 0);
}
#define SS_KERNEL(NAME, RIGHT)                                                                        \
    __kernel void NAME(__global const ET *a, long n, long sa, __global const long *sorter, long ss,     \
                       int use_sorter, __global const ET *v, long m, __global long *out)                \
    {                                                                                                   \
        searchsorted(a, n, sa, sorter, ss, use_sorter, v, m, out, RIGHT);                               \
    }
SS_KERNEL(usmarr_searchsorted, 0)
SS_KERNEL(usmarr_searchsorted_right, 1)
#endif

/* ---- set functions (lib/ops/set.c) on keys sorted with -DCANON=1 --------------------------
 * A *head* starts a run of equal keys; every NaN is a head of its own (the array API's
 * unique: NaNs are distinct).  The sorted keys are cut into chunks of `chunk`:
 *   usmarr_unique_count   heads[c] = heads in chunk c
 *   usmarr_unique_scan    exclusive prefix sum in place, the total in heads[nchunks]
 *   usmarr_unique_write   for the j-th head at position i: values[j] = element,
 *                         first[j] = idx[i] (`want` & UNIQ_FIRST; the stable sort puts
 *                         the first occurrence first), starts[j] = i (& UNIQ_STARTS);
 *                         inverse[idx[i]] = j for every i (& UNIQ_INVERSE).  `want` is
 *                         an argument, so that the four unique functions share a program
 *   usmarr_unique_counts  counts[j] = starts[j+1] - starts[j] (starts[total] = n)
 *   usmarr_isin           out[g] = (v[g] is among the sorted keys) != invert; NaN never is */

inline int key_is_nan(KT a)
{
#if KIND == 2
    return a == FMASK(W);
#elif KIND == 3 /* R+nanj, nan+Rj, nan+nanj */
    return (uint)(a >> 32) >= 0xfffffffeu;
#elif KIND == 4
    return a.x >= ~0ul - 1;
#else
    return 0;
#endif
}

inline int is_head(__global const KT *k, long i)
{
    return i == 0 || !KEY_EQ(k[i], k[i - 1]) || key_is_nan(k[i]);
}

#if USMARR_WANT(unique)
__kernel void usmarr_unique_count(__global const KT *key, long n, long chunk, long nchunks, __global long *heads)
{
    long c = get_global_id(0);
    if (c >= nchunks)
        return;
    long b = c * chunk, e = min(b + chunk, n), h = 0;
    for (long i = b; i < e; i++)
        h += is_head(key, i);
    heads[c] = h;
}

__kernel void usmarr_unique_scan(__global long *heads, long nchunks) { usmarr_chunk_offsets(heads, nchunks); }
#endif

/* What usmarr_unique_write writes besides the values (its `want`, lib/ops/set.c). */
#define UNIQ_FIRST 1
#define UNIQ_STARTS 2
#define UNIQ_INVERSE 4

/* The sorted keys [b, e): values, and the first indices, starts and inverse that `want`
 * names, from j, the place of the last head before b (shared with cl/radix.cl's
 * usmarr_gunique_write). */
inline void unique_write_range(__global const KT *key, __global const long *idx, long b, long e, long j,
                               __global ET *values, __global long *first, __global long *starts,
                               __global long *inverse, int want)
{
    for (long i = b; i < e; i++) {
        if (is_head(key, i)) {
            j++;
            values[j] = key_element(key[i]);
            if (want & UNIQ_FIRST)
                first[j] = idx[i];
            if (want & UNIQ_STARTS)
                starts[j] = i;
        }
        if (want & UNIQ_INVERSE)
            inverse[idx[i]] = j;
    }
}

#if USMARR_WANT(unique)
__kernel void usmarr_unique_write(__global const KT *key, __global const long *idx, long n, long chunk, long nchunks,
                                  __global const long *heads, __global ET *values, __global long *first,
                                  __global long *starts, __global long *inverse, int want)
{
    long c = get_global_id(0);
    if (c >= nchunks)
        return;
    long b = c * chunk;
    unique_write_range(key, idx, b, min(b + chunk, n), heads[c] - 1, values, first, starts, inverse, want);
}

__kernel void usmarr_unique_counts(__global const long *starts, long total, long n, __global long *counts)
{
    long g = get_global_id(0);
    if (g >= total)
        return;
    counts[g] = (g + 1 < total ? starts[g + 1] : n) - starts[g];
}
#endif

#if USMARR_WANT(isin)
__kernel void usmarr_isin(__global const KT *key, long n, __global const ET *v, long m, __global uchar *out,
                          int invert)
{
    long g = get_global_id(0);
    if (g >= m)
        return;
    KT k = make_key(v[g], 1);
    long lo = 0, hi = n;
    while (lo < hi) {
        long mid = lo + (hi - lo) / 2;
        if (KEY_LT(key[mid], k))
            lo = mid + 1;
        else
            hi = mid;
    }
    int found = lo < n && KEY_EQ(key[lo], k) && !key_is_nan(k);
    out[g] = (uchar)(found != invert);
}
#endif
