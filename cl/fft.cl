/* fft.cl: the discrete Fourier transforms of lib/fft/ (doc/fft.md), -DD0=c64 or c128 (the
 * compute precision).  No kernel depends on the transform's length: lengths, strides and
 * twiddle tables are arguments, so a new length costs no build.
 *
 *   usmarr_fft_rR     one Stockham pass of radix R (1, 2, 3, 4, 5, 7, 8, 16): work-item (j, b)
 *                     reads x[j + r n/R] of batch b, multiplies by the pass's twiddles
 *                     exp(-2 pi i r k / (ns R)) (k = j mod ns, ns the product of the earlier
 *                     radices), transforms the R values and writes them to
 *                     (j - k) R + k + r ns: the result is in natural order after the last pass
 *   usmarr_fft_rg     the same for an odd prime radix up to FFT_RMAX given as an argument,
 *                     its DFT matrix read from the table
 *   usmarr_fft_local  all the passes of a short transform in local memory, one work-group
 *                     per signal: one read and one write
 *   usmarr_fft_lanes  whole transforms of FFT_LANES signals a work-item, as vectors whose
 *                     lanes are the signals (batches, columns, a four-step's steps, and
 *                     Bluestein's five steps fused)
 *   usmarr_fft_chirp_pre, _mul, _post   Bluestein's algorithm around a power-of-two transform
 *   usmarr_fft_r2c_post, c2r_pre, c2r_full   real transforms: a real signal of even length n
 *                     as a complex one of n/2 (even samples real, odd ones imaginary)
 *
 * Every kernel reads its input and writes its output through one addressing, a long8 `a`:
 * element i of batch b is at base(b) + i a.s0 with base(b) = (b / a.s2) a.s3 + (b % a.s2)
 * a.s1 (two batch dims: any strided, offset or negative-stride view whose batch dims merge
 * into two); a load past a.s4 reads zero (padding), a store past a.s4 writes nothing (the
 * kept part of a longer transform); a store with a.s5 = n (the transform of a real signal
 * of length n) writes the zero and Nyquist frequencies with imaginary parts exactly 0.
 * A pair of reals (FFT_LOAD_PAIRS, FFT_STORE_PAIRS) has its second value a.s6 after its
 * first (a.s0 when a.s6 is 0).  The first pass gathers along the stride: there is no
 * transposed copy.  Loads and
 * stores convert through FFT_LOAD_* and FFT_STORE_* modes in `flags` (uniform over a
 * launch).  Each work-item computes its outputs from its own inputs only, and the lanes
 * kernel's vectors are lane-wise arithmetic on one signal a lane: nothing depends on the
 * vector width or on other lanes. */
#pragma OPENCL FP_CONTRACT OFF

#define FT USMARR_COMPUTE(D0)
#define FR USMARR_REAL(D0)
#define FFT_RMAX 32

/* flags: bits 0-1 how the input is read, bit 2 conjugated on load, bits 3-4 how the output
 * is written, bit 5 conjugated on store, bit 6 work-items batch fastest */
#define FFT_LOAD_COMPLEX 0
#define FFT_LOAD_REAL 1  /* a real array, imaginary parts zero */
#define FFT_LOAD_PAIRS 2 /* a real array, element j = (x[2j], x[2j + 1]) */
#define FFT_CONJ_LOAD 4
#define FFT_STORE_REAL 8   /* the real part into a real array */
#define FFT_STORE_PAIRS 16 /* element j into x[2j], x[2j + 1] of a real array */
#define FFT_CONJ_STORE 32
#define FFT_BATCH_FAST 64
#define FFT_POST_TWIDDLE 128 /* outputs times a four-step's twiddle (fft_post_twiddle) */

static inline FT fft_mul(FT a, FT b) { return (FT)(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x); }
static inline FT fft_conj(FT a) { return (FT)(a.x, -a.y); }
/* times -i */
static inline FT fft_mi(FT a) { return (FT)(a.y, -a.x); }

static inline long fft_base(long8 a, long b)
{
    long outer = b / a.s2;
    return outer * a.s3 + (b - outer * a.s2) * a.s1;
}

static inline FT fft_load(global const FR *p, long base, long8 a, int flags, long i)
{
    FT v = (FT)(0, 0);
    int mode = flags & 3;
    if (mode == FFT_LOAD_COMPLEX) {
        if (i < a.s4) {
            long o = 2 * (base + i * a.s0);
            v = (FT)(p[o], p[o + 1]);
        }
    } else if (mode == FFT_LOAD_REAL) {
        if (i < a.s4)
            v.x = p[base + i * a.s0];
    } else { /* the pair's second value a.s6 after its first (a four-step pass's rows) */
        long second = a.s6 ? a.s6 : a.s0;
        if (2 * i < a.s4)
            v.x = p[base + 2 * i * a.s0];
        if (2 * i + 1 < a.s4)
            v.y = p[base + 2 * i * a.s0 + second];
    }
    if (flags & FFT_CONJ_LOAD)
        v.y = -v.y;
    return v;
}

static inline void fft_store(global FR *p, long base, long8 a, int flags, long i, FT v, FR scale)
{
    if (i >= a.s4)
        return;
    v *= scale;
    if (a.s5 && (i == 0 || 2 * i == a.s5)) /* a real signal's zero and Nyquist frequencies */
        v.y = 0;
    if (flags & FFT_CONJ_STORE)
        v.y = -v.y;
    if (flags & FFT_STORE_REAL) {
        p[base + i * a.s0] = v.x;
    } else if (flags & FFT_STORE_PAIRS) {
        p[base + 2 * i * a.s0] = v.x;
        p[base + 2 * i * a.s0 + (a.s6 ? a.s6 : a.s0)] = v.y;
    } else {
        long o = 2 * (base + i * a.s0);
        p[o] = v.x;
        p[o + 1] = v.y;
    }
}

/* ---- butterflies: v[q] = sum_r v[r] exp(-2 pi i r q / R) ---------------------------------
 * One template, FFT_BUTTERFLIES(T, S), instantiated for T = FT (one complex value, suffix
 * empty) and T = FV (FFT_LANES complex values of independent signals, suffix _v: real
 * parts in .lo, imaginary parts in .hi).  The template's operations are lane-wise: +, -,
 * a real scalar times T, fft_mi##S (times -i) and fft_mul##S (times one complex scalar). */
#define FFT_LANES 8
#define FV USMARR_CAT(FR, 16)
static inline FV fft_mi_v(FV a) { return (FV)(a.hi, -a.lo); }
static inline FV fft_conj_v(FV a) { return (FV)(a.lo, -a.hi); }
static inline FV fft_mul_v(FV a, FT w) { return (FV)(a.lo * w.x - a.hi * w.y, a.lo * w.y + a.hi * w.x); }
/* lane by lane */
static inline FV fft_mul_lanes(FV a, FV w) { return (FV)(a.lo * w.lo - a.hi * w.hi, a.lo * w.hi + a.hi * w.lo); }

#define FFT_SQRT1_2 ((FR)0.70710678118654752440084436210485)
/* cos and sin of 2 pi j / p for the radices 3, 5 and 7 */
#define FFT_C3 {1, -0.5, -0.5}
#define FFT_S3 {0, 0.86602540378443864676372317075294, -0.86602540378443864676372317075294}
#define FFT_C5                                                                                                         \
    {1, 0.30901699437494742410229341718282, -0.80901699437494742410229341718282,                                       \
     -0.80901699437494742410229341718282, 0.30901699437494742410229341718282}
#define FFT_S5                                                                                                         \
    {0, 0.95105651629515357211643933337938, 0.58778525229247312916870595463907,                                       \
     -0.58778525229247312916870595463907, -0.95105651629515357211643933337938}
#define FFT_C7                                                                                                         \
    {1, 0.62348980185873353052500488400424, -0.22252093395631440428890256449679,                                       \
     -0.90096886790241912623610231950745, -0.90096886790241912623610231950745,                                         \
     -0.22252093395631440428890256449679, 0.62348980185873353052500488400424}
#define FFT_S7                                                                                                         \
    {0, 0.78183148246802980870844452667406, 0.97492791218182360701813168299393,                                        \
     0.43388373911755812047576833284836, -0.43388373911755812047576833284836,                                          \
     -0.97492791218182360701813168299393, -0.78183148246802980870844452667406}
#define FFT_DFT_PRIME(T, S, P)                                                                                         \
    static inline void fft_dft##P##S(T *v)                                                                             \
    {                                                                                                                  \
        const FR c[P] = FFT_C##P, s[P] = FFT_S##P;                                                                     \
        fft_dft_odd##S(v, P, c, s);                                                                                    \
    }
#define FFT_BUTTERFLIES(T, S)                                                                                          \
    /* length 1: a copy with the loads' and stores' conversions */                                                     \
    static inline void fft_dft1##S(T *v) {}                                                                            \
    static inline void fft_dft2##S(T *v)                                                                               \
    {                                                                                                                  \
        T a = v[0], b = v[1];                                                                                          \
        v[0] = a + b;                                                                                                  \
        v[1] = a - b;                                                                                                  \
    }                                                                                                                  \
    /* v[o], v[o + s], v[o + 2s], v[o + 3s] in place */                                                                \
    static inline void fft_dft4s##S(T *v, int o, int s)                                                                \
    {                                                                                                                  \
        T t0 = v[o] + v[o + 2 * s], t1 = v[o] - v[o + 2 * s];                                                          \
        T t2 = v[o + s] + v[o + 3 * s], t3 = fft_mi##S(v[o + s] - v[o + 3 * s]);                                       \
        v[o] = t0 + t2;                                                                                                \
        v[o + s] = t1 + t3;                                                                                            \
        v[o + 2 * s] = t0 - t2;                                                                                        \
        v[o + 3 * s] = t1 - t3;                                                                                        \
    }                                                                                                                  \
    static inline void fft_dft4##S(T *v) { fft_dft4s##S(v, 0, 1); }                                                    \
    static inline void fft_dft8##S(T *v)                                                                               \
    {                                                                                                                  \
        T e[4] = {v[0], v[2], v[4], v[6]}, o[4] = {v[1], v[3], v[5], v[7]};                                            \
        fft_dft4##S(e);                                                                                                \
        fft_dft4##S(o);                                                                                                \
        T o1 = FFT_SQRT1_2 * (o[1] + fft_mi##S(o[1])); /* times exp(-pi i / 4) */                                      \
        T o2 = fft_mi##S(o[2]);                                                                                        \
        T o3 = FFT_SQRT1_2 * (fft_mi##S(o[3]) - o[3]); /* times exp(-3 pi i / 4) */                                    \
        v[0] = e[0] + o[0];                                                                                            \
        v[4] = e[0] - o[0];                                                                                            \
        v[1] = e[1] + o1;                                                                                              \
        v[5] = e[1] - o1;                                                                                              \
        v[2] = e[2] + o2;                                                                                              \
        v[6] = e[2] - o2;                                                                                              \
        v[3] = e[3] + o3;                                                                                              \
        v[7] = e[3] - o3;                                                                                              \
    }                                                                                                                  \
    /* 4 x 4: columns l of v[4m + l], twiddles exp(-2 pi i l q1 / 16), then rows */                                    \
    static inline void fft_dft16##S(T *v)                                                                              \
    {                                                                                                                  \
        const FR c1 = (FR)0.92387953251128675612818318939679, s1 = (FR)0.38268343236508977172845998403040;           \
        for (int l = 0; l < 4; l++)                                                                                    \
            fft_dft4s##S(v, l, 4);                                                                                     \
        /* v[4 q1 + l] now holds column l's output q1 */                                                               \
        const FT w1 = (FT)(c1, -s1), w2 = (FT)(FFT_SQRT1_2, -FFT_SQRT1_2), w3 = (FT)(s1, -c1);                         \
        const FT w6 = (FT)(-FFT_SQRT1_2, -FFT_SQRT1_2), w9 = (FT)(-c1, s1);                                            \
        v[5] = fft_mul##S(v[5], w1);                                                                                   \
        v[6] = fft_mul##S(v[6], w2);                                                                                   \
        v[7] = fft_mul##S(v[7], w3);                                                                                   \
        v[9] = fft_mul##S(v[9], w2);                                                                                   \
        v[10] = fft_mi##S(v[10]);                                                                                      \
        v[11] = fft_mul##S(v[11], w6);                                                                                 \
        v[13] = fft_mul##S(v[13], w3);                                                                                 \
        v[14] = fft_mul##S(v[14], w6);                                                                                 \
        v[15] = fft_mul##S(v[15], w9);                                                                                 \
        for (int q1 = 0; q1 < 4; q1++)                                                                                 \
            fft_dft4s##S(v, 4 * q1, 1);                                                                                \
        /* v[4 q1 + q2] holds output q1 + 4 q2: transpose */                                                           \
        T t[16];                                                                                                       \
        for (int i = 0; i < 16; i++)                                                                                   \
            t[i] = v[i];                                                                                               \
        for (int q1 = 0; q1 < 4; q1++)                                                                                 \
            for (int q2 = 0; q2 < 4; q2++)                                                                             \
                v[q1 + 4 * q2] = t[4 * q1 + q2];                                                                       \
    }                                                                                                                  \
    /* An odd prime radix p from the pairs v[r] +- v[p - r]: c[j] = cos(2 pi j / p) and                                \
     * s[j] = sin(2 pi j / p) for j in [1, p) (index 0 unused). */                                                     \
    static inline void fft_dft_odd##S(T *v, int p, const FR *c, const FR *s)                                           \
    {                                                                                                                  \
        T sum[FFT_RMAX / 2], dif[FFT_RMAX / 2], x0 = v[0], total = v[0];                                               \
        int h = (p - 1) / 2;                                                                                           \
        for (int r = 1; r <= h; r++) {                                                                                 \
            sum[r - 1] = v[r] + v[p - r];                                                                              \
            dif[r - 1] = v[r] - v[p - r];                                                                              \
            total += sum[r - 1];                                                                                       \
        }                                                                                                              \
        for (int q = 1; q <= h; q++) {                                                                                 \
            T re = x0, im = (T)(0);                                                                                    \
            for (int r = 1; r <= h; r++) {                                                                             \
                int j = (r * q) % p;                                                                                   \
                re += c[j] * sum[r - 1];                                                                               \
                im += s[j] * dif[r - 1];                                                                               \
            }                                                                                                          \
            /* X_q = re - i im, X_{p-q} = re + i im */                                                                 \
            v[q] = re + fft_mi##S(im);                                                                                 \
            v[p - q] = re - fft_mi##S(im);                                                                             \
        }                                                                                                              \
        v[0] = total;                                                                                                  \
    }                                                                                                                  \
    FFT_DFT_PRIME(T, S, 3)                                                                                             \
    FFT_DFT_PRIME(T, S, 5)                                                                                             \
    FFT_DFT_PRIME(T, S, 7)                                                                                             \
    /* v[0, R) transformed, R any radix of a plan; the generic one's roots at w */                                     \
    static inline void fft_dft_any##S(T *v, int R, global const FT *w)                                                 \
    {                                                                                                                  \
        switch (R) {                                                                                                   \
        case 1: break;                                                                                                 \
        case 2: fft_dft2##S(v); break;                                                                                 \
        case 3: fft_dft3##S(v); break;                                                                                 \
        case 4: fft_dft4##S(v); break;                                                                                 \
        case 5: fft_dft5##S(v); break;                                                                                 \
        case 7: fft_dft7##S(v); break;                                                                                 \
        case 8: fft_dft8##S(v); break;                                                                                 \
        case 16: fft_dft16##S(v); break;                                                                               \
        default: {                                                                                                     \
            FR c[FFT_RMAX], s[FFT_RMAX];                                                                               \
            for (int r = 0; r < R; r++) {                                                                              \
                c[r] = w[r].x;                                                                                         \
                s[r] = -w[r].y;                                                                                        \
            }                                                                                                          \
            fft_dft_odd##S(v, R, c, s);                                                                                \
        }                                                                                                              \
        }                                                                                                              \
    }

FFT_BUTTERFLIES(FT, )
FFT_BUTTERFLIES(FV, _v)

/* Work-item g's (j, b): batch fastest or element fastest */
#define FFT_ITEM(g, nj, nbatch, flags, j, b)                                                                           \
    do {                                                                                                               \
        if ((flags) & FFT_BATCH_FAST) {                                                                                \
            j = (g) / (nbatch);                                                                                        \
            b = (g) - j * (nbatch);                                                                                    \
        } else {                                                                                                       \
            b = (g) / (nj);                                                                                            \
            j = (g) - b * (nj);                                                                                        \
        }                                                                                                              \
    } while (0)

#define FFT_PASS(R)                                                                                                    \
    kernel void usmarr_fft_r##R(global const FR *src, global FR *dst, global const FT *tw, long n, long ns,          \
                                long nbatch, long8 in, long8 out, int flags, FR scale)                                 \
    {                                                                                                                  \
        long g = get_global_id(0), nj = n / R, j, b;                                                                   \
        if (g >= nj * nbatch)                                                                                          \
            return;                                                                                                    \
        FFT_ITEM(g, nj, nbatch, flags, j, b);                                                                          \
        long ib = fft_base(in, b), ob = fft_base(out, b);                                                              \
        FT v[R];                                                                                                       \
        for (int r = 0; r < R; r++)                                                                                    \
            v[r] = fft_load(src, ib, in, flags, j + r * nj);                                                           \
        long k = j % ns;                                                                                               \
        if (k)                                                                                                         \
            for (int r = 1; r < R; r++)                                                                                \
                v[r] = fft_mul(v[r], tw[(r - 1) * ns + k]);                                                            \
        fft_dft##R(v);                                                                                                 \
        long d = (j - k) * R + k;                                                                                      \
        for (int r = 0; r < R; r++)                                                                                    \
            fft_store(dst, ob, out, flags, d + r * ns, v[r], scale);                                                   \
    }

FFT_PASS(1)
FFT_PASS(2)
FFT_PASS(3)
FFT_PASS(4)
FFT_PASS(5)
FFT_PASS(7)
FFT_PASS(8)
FFT_PASS(16)


/* One local pass of a radix known at compile time (the loops unrolled, the values in
 * registers), over the C signals of the group (signal q at a[q n], c[q n]) */
#define FFT_LOCAL_PASS(R)                                                                                              \
    for (int t = lid; t < C * nj; t += 64) {                                                                           \
        int q = t / nj, j = t - q * nj;                                                                                \
        local const FT *src = a + q * nn;                                                                              \
        local FT *dst = c + q * nn;                                                                                    \
        FT v[R];                                                                                                       \
        for (int r = 0; r < R; r++)                                                                                    \
            v[r] = src[j + r * nj];                                                                                    \
        int k = j % ns;                                                                                                \
        if (k)                                                                                                         \
            for (int r = 1; r < R; r++)                                                                                \
                v[r] = fft_mul(v[r], tw[(r - 1) * ns + k]);                                                            \
        fft_dft##R(v);                                                                                                 \
        int d = (j - k) * R + k;                                                                                       \
        for (int r = 0; r < R; r++)                                                                                    \
            dst[d + r * ns] = v[r];                                                                                    \
    }

#define FFT_LOCAL_SIGNALS 8 /* at most C signals per work-group */

/* A four-step transform's twiddle w^t (t < N, w = exp(-2 pi i / N)) from two short tables
 * of exact roots: hi[t >> shift] = w^(t - t mod 2^shift), lo[t mod 2^shift] = w^(t mod
 * 2^shift), lo[0] = 1. */
static inline FT fft_post_twiddle(global const FT *hi, global const FT *lo, int shift, long t)
{
    return fft_mul(hi[t >> shift], lo[t & ((1L << shift) - 1)]);
}

/* Whole transforms of length n in local memory: a work-group of 64 takes C consecutive
 * signals (batch b = C * global id 1 + q, q < C, b < nbatch), reads them once, runs the
 * plan's passes between two local buffers of C n values (a and c), writes them once.
 * FFT_LOAD_SIGNALS_FAST / FFT_STORE_SIGNALS_FAST walk the C signals fastest (where the
 * signals are closer in memory than their elements: columns): neighbouring work-items then
 * touch neighbouring addresses.  FFT_POST_TWIDDLE multiplies output i of a signal of inner
 * batch index j (b mod in.s2) by fft_post_twiddle(i j) (a four-step's first step). */
#define FFT_LOAD_SIGNALS_FAST 256
#define FFT_STORE_SIGNALS_FAST 512
kernel __attribute__((reqd_work_group_size(64, 1, 1))) void
usmarr_fft_local(global const FR *src, global FR *dst, global const FT *table, long n, int npasses, int8 radix,
                 int8 twoff, long8 in, long8 out, int flags, FR scale, global const FT *hi, global const FT *lo,
                 int shift, long nbatch, int C, local FT *a, local FT *c)
{
    int lid = (int)get_local_id(0), nn = (int)n;
    long b0 = (long)get_global_id(1) * C;
    local long ib[FFT_LOCAL_SIGNALS], ob[FFT_LOCAL_SIGNALS], pj[FFT_LOCAL_SIGNALS];
    if (lid < C) {
        long b = b0 + lid < nbatch ? b0 + lid : b0; /* past the end: a copy of the first, never stored */
        ib[lid] = fft_base(in, b);
        ob[lid] = fft_base(out, b);
        pj[lid] = b - b / in.s2 * in.s2;
    }
    int live = nbatch - b0 < C ? (int)(nbatch - b0) : C;
    barrier(CLK_LOCAL_MEM_FENCE);
    bool qfast = (flags & FFT_LOAD_SIGNALS_FAST) != 0;
    for (int t = lid; t < C * nn; t += 64) {
        int q = qfast ? t % C : t / nn, i = qfast ? t / C : t - q * nn;
        a[q * nn + i] = fft_load(src, ib[q], in, flags, i);
    }
    int rs[8] = {radix.s0, radix.s1, radix.s2, radix.s3, radix.s4, radix.s5, radix.s6, radix.s7};
    int os[8] = {twoff.s0, twoff.s1, twoff.s2, twoff.s3, twoff.s4, twoff.s5, twoff.s6, twoff.s7};
    int ns = 1;
    for (int p = 0; p < npasses; p++) {
        int R = rs[p], nj = nn / R;
        global const FT *tw = table + os[p];
        if (R == 1) /* a length-1 transform: nothing moves */
            continue;
        barrier(CLK_LOCAL_MEM_FENCE);
        switch (R) {
        case 2: FFT_LOCAL_PASS(2); break;
        case 3: FFT_LOCAL_PASS(3); break;
        case 4: FFT_LOCAL_PASS(4); break;
        case 5: FFT_LOCAL_PASS(5); break;
        case 7: FFT_LOCAL_PASS(7); break;
        case 8: FFT_LOCAL_PASS(8); break;
        case 16: FFT_LOCAL_PASS(16); break;
        default:
            for (int t = lid; t < C * nj; t += 64) {
                int q = t / nj, j = t - q * nj;
                FT v[FFT_RMAX];
                for (int r = 0; r < R; r++)
                    v[r] = a[q * nn + j + r * nj];
                int k = j % ns;
                if (k)
                    for (int r = 1; r < R; r++)
                        v[r] = fft_mul(v[r], tw[(r - 1) * ns + k]);
                fft_dft_any(v, R, tw + (R - 1) * ns);
                int d = (j - k) * R + k;
                for (int r = 0; r < R; r++)
                    c[q * nn + d + r * ns] = v[r];
            }
        }
        local FT *swap = a;
        a = c;
        c = swap;
        ns *= R;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    qfast = (flags & FFT_STORE_SIGNALS_FAST) != 0;
    for (int t = lid; t < C * nn; t += 64) {
        int q = qfast ? t % C : t / nn, i = qfast ? t / C : t - q * nn;
        if (q >= live)
            continue;
        FT v = a[q * nn + i];
        if (flags & FFT_POST_TWIDDLE)
            v = fft_mul(v, fft_post_twiddle(hi, lo, shift, i * pj[q]));
        fft_store(dst, ob[q], out, flags, i, v, scale);
    }
}

/* An odd prime radix R <= FFT_RMAX: the table holds the (R - 1) ns twiddles, then
 * exp(-2 pi i j / R) for j in [0, R). */
kernel void usmarr_fft_rg(global const FR *src, global FR *dst, global const FT *tw, long n, long ns, long nbatch,
                          long8 in, long8 out, int flags, FR scale, int R)
{
    long g = get_global_id(0), nj = n / R, j, b;
    if (g >= nj * nbatch)
        return;
    FFT_ITEM(g, nj, nbatch, flags, j, b);
    long ib = fft_base(in, b), ob = fft_base(out, b);
    FT v[FFT_RMAX];
    FR c[FFT_RMAX], s[FFT_RMAX];
    global const FT *w = tw + (R - 1) * ns;
    for (int r = 0; r < R; r++) {
        v[r] = fft_load(src, ib, in, flags, j + r * nj);
        c[r] = w[r].x;
        s[r] = -w[r].y;
    }
    long k = j % ns;
    if (k)
        for (int r = 1; r < R; r++)
            v[r] = fft_mul(v[r], tw[(r - 1) * ns + k]);
    fft_dft_odd(v, R, c, s);
    long d = (j - k) * R + k;
    for (int r = 0; r < R; r++)
        fft_store(dst, ob, out, flags, d + r * ns, v[r], scale);
}

/* ---- lanes: whole transforms of FFT_LANES signals a work-item ---------------------------
 * Work-item g takes the blocks g, g + G, ... (G work-items) of FFT_LANES consecutive
 * signals (batch b = FFT_LANES block + lane), gathers element i of its signals into one FV
 * (signal l in lane l; the lanes past nbatch hold zeros and are never stored), runs the
 * plan's Stockham passes between its two rows of n FV in `scratch` (2 n FV a work-item)
 * and scatters the results: one read and one write of the data, whatever the signals'
 * stride.  Every operation is lane-wise, so a lane's results never depend on the others.
 * The signals have `len` elements: n for a plain transform, or Bluestein's (FFT_BLUESTEIN)
 * with n the padded length m, `hi` the chirp and `lo` the transform of its conjugate;
 * FFT_POST_TWIDDLE takes fft_post_twiddle's tables `hi` and `lo`. */
#define FFT_BLUESTEIN 1024

/* One pass of radix R over the lanes, a to c, v[SIZE] transformed by DFT */
#define FFT_LANES_PASS(R, SIZE, DFT)                                                                                   \
    for (int q = 0; q < nj; q += ns)                                                                                   \
        for (int k = 0; k < ns; k++) {                                                                                 \
            FV v[SIZE];                                                                                                \
            for (int r = 0; r < R; r++)                                                                                \
                v[r] = a[q + k + r * nj];                                                                              \
            if (k)                                                                                                     \
                for (int r = 1; r < R; r++)                                                                            \
                    v[r] = fft_mul_v(v[r], tw[(r - 1) * ns + k]);                                                      \
            DFT;                                                                                                       \
            for (int r = 0; r < R; r++)                                                                                \
                c[q * R + k + r * ns] = v[r];                                                                          \
        }

/* The passes of a plan over n lanes values from a, through c: the row holding the result */
static global FV *fft_lanes_passes(global FV *a, global FV *c, int n, int npasses, const int *rs, const int *os,
                                   global const FT *table)
{
    int ns = 1;
    for (int p = 0; p < npasses; p++) {
        int R = rs[p], nj = n / R;
        global const FT *tw = table + os[p];
        if (R == 1)
            continue;
        switch (R) {
        case 2: FFT_LANES_PASS(2, 2, fft_dft2_v(v)); break;
        case 3: FFT_LANES_PASS(3, 3, fft_dft3_v(v)); break;
        case 4: FFT_LANES_PASS(4, 4, fft_dft4_v(v)); break;
        case 5: FFT_LANES_PASS(5, 5, fft_dft5_v(v)); break;
        case 7: FFT_LANES_PASS(7, 7, fft_dft7_v(v)); break;
        case 8: FFT_LANES_PASS(8, 8, fft_dft8_v(v)); break;
        case 16: FFT_LANES_PASS(16, 16, fft_dft16_v(v)); break;
        default: FFT_LANES_PASS(R, FFT_RMAX, fft_dft_any_v(v, R, tw + (R - 1) * ns));
        }
        global FV *swap = a;
        a = c;
        c = swap;
        ns *= R;
    }
    return a;
}

/* Output i of the lanes in row a: Bluestein's last step, or a four-step's twiddles */
static inline FV fft_lanes_result(global const FV *a, int i, int flags, global const FT *hi, global const FT *lo,
                                  int shift, const long *pj)
{
    if (flags & FFT_BLUESTEIN)
        return fft_mul_v(fft_conj_v(a[i]), hi[i]);
    FV v = a[i];
    if (flags & FFT_POST_TWIDDLE) {
        FR t[2 * FFT_LANES];
        for (int l = 0; l < FFT_LANES; l++) {
            FT w = fft_post_twiddle(hi, lo, shift, i * pj[l]);
            t[l] = w.x;
            t[FFT_LANES + l] = w.y;
        }
        v = fft_mul_lanes(v, vload16(0, t));
    }
    return v;
}

/* fft_store's steps on element i of the lanes, for a complex store */
static inline FV fft_lanes_stored(FV v, long8 out, int flags, long i, FR scale)
{
    v *= scale;
    if (out.s5 && (i == 0 || 2 * i == out.s5))
        v.hi = 0;
    return flags & FFT_CONJ_STORE ? fft_conj_v(v) : v;
}

kernel void usmarr_fft_lanes(global const FR *src, global FR *dst, global const FT *table, long n, int npasses,
                             int8 radix, int8 twoff, long8 in, long8 out, int flags, FR scale, global const FT *hi,
                             global const FT *lo, int shift, long nbatch, long len, global FV *scratch)
{
    int nn = (int)n, ln = (int)len;
    int rs[8] = {radix.s0, radix.s1, radix.s2, radix.s3, radix.s4, radix.s5, radix.s6, radix.s7};
    int os[8] = {twoff.s0, twoff.s1, twoff.s2, twoff.s3, twoff.s4, twoff.s5, twoff.s6, twoff.s7};
    global FV *row0 = scratch + get_global_id(0) * 2 * n, *row1 = row0 + n;
    bool blue = (flags & FFT_BLUESTEIN) != 0;
    long nblocks = (nbatch + FFT_LANES - 1) / FFT_LANES;
    for (long blk = get_global_id(0); blk < nblocks; blk += get_global_size(0)) {
        long b0 = blk * FFT_LANES, ib[FFT_LANES], ob[FFT_LANES], pj[FFT_LANES];
        int live = nbatch - b0 < FFT_LANES ? (int)(nbatch - b0) : FFT_LANES;
        for (int l = 0; l < FFT_LANES; l++) {
            long b = b0 + (l < live ? l : 0);
            ib[l] = fft_base(in, b);
            ob[l] = fft_base(out, b);
            pj[l] = b - b / in.s2 * in.s2;
        }
        /* complex signals (or pairs of reals) one after another: one vector load or store an
         * element; or each signal contiguous: eight elements of each, transposed in registers */
        int mode = flags & 3;
        bool in_next = live == FFT_LANES &&
                       ((mode == FFT_LOAD_COMPLEX && ib[FFT_LANES - 1] - ib[0] == FFT_LANES - 1 && in.s1 == 1) ||
                        (mode == FFT_LOAD_PAIRS && (in.s6 ? in.s6 : in.s0) == 1 &&
                         ib[FFT_LANES - 1] - ib[0] == 2 * FFT_LANES - 2 && in.s1 == 2));
        bool out_next = live == FFT_LANES && !(flags & (FFT_STORE_REAL | FFT_STORE_PAIRS)) &&
                        ob[FFT_LANES - 1] - ob[0] == FFT_LANES - 1 && out.s1 == 1;
        bool in_rows = live == FFT_LANES && mode == FFT_LOAD_COMPLEX && in.s0 == 1 && !in_next;
        bool out_rows = live == FFT_LANES && !(flags & (FFT_STORE_REAL | FFT_STORE_PAIRS)) && out.s0 == 1 && !out_next;
        int i = 0;
        for (int end = in_rows ? (int)min((long)ln, in.s4) & -FFT_LANES : 0; i < end; i += FFT_LANES) {
            FR tile[2 * FFT_LANES * FFT_LANES];
            for (int l = 0; l < FFT_LANES; l++)
                vstore16(vload16(0, src + 2 * (ib[l] + i)), l, tile);
            for (int j = 0; j < FFT_LANES; j++) {
                FR t[2 * FFT_LANES];
                for (int l = 0; l < FFT_LANES; l++) {
                    t[l] = tile[2 * (FFT_LANES * l + j)];
                    t[FFT_LANES + l] = tile[2 * (FFT_LANES * l + j) + 1];
                }
                FV v = vload16(0, t);
                if (flags & FFT_CONJ_LOAD)
                    v = fft_conj_v(v);
                row0[i + j] = blue ? fft_mul_v(v, hi[i + j]) : v;
            }
        }
        for (; i < nn; i++) {
            FV v = (FV)(0);
            if (in_next && i < ln && (mode == FFT_LOAD_COMPLEX ? i : 2 * i + 1) < in.s4) {
                FV u = vload16(0, src + (mode == FFT_LOAD_COMPLEX ? 2 * (ib[0] + i * in.s0) : ib[0] + 2 * i * in.s0));
                v = (FV)(u.even, u.odd);
                if (flags & FFT_CONJ_LOAD)
                    v = fft_conj_v(v);
            } else if (i < ln) {
                FR t[2 * FFT_LANES];
                for (int l = 0; l < FFT_LANES; l++) {
                    FT x = l < live ? fft_load(src, ib[l], in, flags, i) : (FT)(0);
                    t[l] = x.x;
                    t[FFT_LANES + l] = x.y;
                }
                v = vload16(0, t);
            }
            row0[i] = blue && i < ln ? fft_mul_v(v, hi[i]) : v;
        }
        global FV *a = fft_lanes_passes(row0, row1, nn, npasses, rs, os, table);
        if (blue) {
            for (i = 0; i < nn; i++)
                a[i] = fft_conj_v(fft_mul_v(a[i], lo[i]));
            a = fft_lanes_passes(a, a == row0 ? row1 : row0, nn, npasses, rs, os, table);
        }
        i = 0;
        for (int end = out_rows ? (int)min((long)ln, out.s4) & -FFT_LANES : 0; i < end; i += FFT_LANES) {
            FR tile[2 * FFT_LANES * FFT_LANES];
            for (int j = 0; j < FFT_LANES; j++) {
                FR t[2 * FFT_LANES];
                vstore16(fft_lanes_stored(fft_lanes_result(a, i + j, flags, hi, lo, shift, pj), out, flags, i + j, scale),
                         0, t);
                for (int l = 0; l < FFT_LANES; l++) {
                    tile[2 * (FFT_LANES * l + j)] = t[l];
                    tile[2 * (FFT_LANES * l + j) + 1] = t[FFT_LANES + l];
                }
            }
            for (int l = 0; l < FFT_LANES; l++)
                vstore16(vload16(l, tile), 0, dst + 2 * (ob[l] + i));
        }
        for (; i < ln; i++) {
            FV v = fft_lanes_result(a, i, flags, hi, lo, shift, pj);
            if (out_next && i < out.s4) {
                FV u = fft_lanes_stored(v, out, flags, i, scale);
                vstore16(u.s08192a3b4c5d6e7f, 0, dst + 2 * (ob[0] + i * out.s0));
                continue;
            }
            FR t[2 * FFT_LANES];
            vstore16(v, 0, t);
            for (int l = 0; l < live; l++)
                fft_store(dst, ob[l], out, flags, i, (FT)(t[l], t[FFT_LANES + l]), scale);
        }
    }
}

/* ---- Bluestein: X_k = c_k sum_j (x_j c_j) conj(c_{k-j}), c_k = exp(-pi i k^2 / n), the
 * convolution as a cyclic one of length m >= 2n - 1 through transforms of length m. ---- */

/* buf[b][k] = x_k c_k for k < n, 0 up to m */
kernel void usmarr_fft_chirp_pre(global const FR *src, global FT *buf, global const FT *chirp, long n, long m,
                                 long nbatch, long8 in, int flags)
{
    long g = get_global_id(0);
    if (g >= m * nbatch)
        return;
    long b = g / m, k = g - b * m;
    FT v = (FT)(0, 0);
    if (k < n)
        v = fft_mul(fft_load(src, fft_base(in, b), in, flags, k), chirp[k]);
    buf[g] = v;
}

/* buf = conj(buf * f): the inverse transform of the product as the conjugate of a forward one */
kernel void usmarr_fft_chirp_mul(global FT *buf, global const FT *f, long m, long total)
{
    long g = get_global_id(0);
    if (g >= total)
        return;
    buf[g] = fft_conj(fft_mul(buf[g], f[g % m]));
}

/* out_k = c_k conj(buf[b][k]) scale, k < n */
kernel void usmarr_fft_chirp_post(global const FT *buf, global FR *dst, global const FT *chirp, long n, long m,
                                  long nbatch, long8 out, int flags, FR scale)
{
    long g = get_global_id(0);
    if (g >= n * nbatch)
        return;
    long b = g / n, k = g - b * n;
    FT v = fft_mul(fft_conj(buf[b * m + k]), chirp[k]);
    fft_store(dst, fft_base(out, b), out, flags, k, v, scale);
}

/* ---- real transforms of even length n = 2h ---------------------------------------------
 * z = FFT_h(x_even + i x_odd) = E + i O with E, O the transforms of the even and odd
 * samples; X_k = E_k + w^k O_k, w = exp(-2 pi i / n), E_k = (z_k + conj(z_{h-k})) / 2,
 * O_k = (z_k - conj(z_{h-k})) / 2i.  tw[k] = w^k for k in [0, h]. */
kernel void usmarr_fft_r2c_post(global const FT *z, global FR *dst, global const FT *tw, long h, long nbatch,
                                long8 out, int flags, FR scale)
{
    long g = get_global_id(0);
    if (g >= (h + 1) * nbatch)
        return;
    long b = g / (h + 1), k = g - b * (h + 1);
    FT zk = z[b * h + (k == h ? 0 : k)], zc = fft_conj(z[b * h + (k == 0 ? 0 : h - k)]);
    FT e = (FR)0.5 * (zk + zc), o = (FR)0.5 * fft_mi(zk - zc);
    fft_store(dst, fft_base(out, b), out, flags, k, e + fft_mul(tw[k], o), scale);
}

/* The inverse's first step: z_k = 2 (E_k + i O_k) from X_k and conj(X_{h-k}), the
 * imaginary parts of X_0 and X_h ignored; an inverse transform of length h then gives
 * n (x_even + i x_odd). */
kernel void usmarr_fft_c2r_pre(global const FR *src, global FT *z, global const FT *tw, long h, long nbatch,
                               long8 in, int flags)
{
    long g = get_global_id(0);
    if (g >= h * nbatch)
        return;
    long b = g / h, k = g - b * h, base = fft_base(in, b);
    FT a = fft_load(src, base, in, flags, k), c = fft_conj(fft_load(src, base, in, flags, h - k));
    if (k == 0)
        a.y = c.y = 0;
    FT e = a + c, o = fft_mul(a - c, fft_conj(tw[k]));
    z[g] = e - fft_mi(o);
}

/* Odd n: the whole Hermitian spectrum y_k = X_k (k <= n/2), conj(X_{n-k}) above, for a
 * complex inverse transform whose real parts are the result. */
kernel void usmarr_fft_c2r_full(global const FR *src, global FT *y, long n, long nbatch, long8 in, int flags)
{
    long g = get_global_id(0);
    if (g >= n * nbatch)
        return;
    long b = g / n, k = g - b * n, base = fft_base(in, b);
    FT v;
    if (2 * k <= n)
        v = fft_load(src, base, in, flags, k);
    else
        v = fft_conj(fft_load(src, base, in, flags, n - k));
    if (k == 0)
        v.y = 0;
    y[g] = v;
}
