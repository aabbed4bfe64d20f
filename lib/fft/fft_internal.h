/* Private declarations of the transforms (lib/fft/): plans and their cache (plan.c), the
 * transforms along one axis (transform.c), the public functions (fft.c, freq.c).  How
 * they work: doc/fft.md.  Never installed. */
#ifndef USMARR_FFT_INTERNAL_H
#define USMARR_FFT_INTERNAL_H

#include "../ops/ops_internal.h"

#define USMARR__FFT_MAX_PASSES 64
#define USMARR__FFT_MAX_RADIX 32 /* cl/fft.cl's FFT_RMAX: larger prime factors go to Bluestein */

/* The plan of one length n in one precision: the Stockham passes and their twiddles, or
 * Bluestein's chirp around the plan of a power-of-two length m; for even n, the real
 * transforms' table.  Device memory is raw USM of the context (a plan holds no reference
 * to it: the context frees its plans).  Immutable once made; counted. */
struct usmarr__fft_plan {
    atomic_int refcount;
    int64_t n;
    bool dbl;      /* complex128 (else complex64) */
    size_t bytes;  /* device bytes held, for the cache's bound */
    int npasses;
    int radix[USMARR__FFT_MAX_PASSES];
    int64_t ns[USMARR__FFT_MAX_PASSES];     /* product of the earlier radices */
    int64_t twoff[USMARR__FFT_MAX_PASSES];  /* the pass's table in `twiddles`, in elements */
    void *twiddles;
    /* Bluestein (sub set, npasses 0): the chirp exp(-pi i k^2 / n), k < n, and the length-m
     * transform of its conjugate, wrapped */
    int64_t m;
    struct usmarr__fft_plan *sub;
    void *chirp, *chirp_fft;
    /* even n: exp(-2 pi i k / n) for k in [0, n/2] (real transforms), else NULL */
    void *real_twiddles;
};

/* The plan of (n, dbl) from the context's cache, made on a miss (one reference). */
USMARR_INTERNAL int usmarr__fft_plan_get(usmarr_context_t *ctx, int64_t n, bool dbl, struct usmarr__fft_plan **plan);
USMARR_INTERNAL void usmarr__fft_plan_release(usmarr_context_t *ctx, struct usmarr__fft_plan *plan);
/* Statistics of the context's plan cache (tests): plans held, their device bytes, plans
 * made since the context was created. */
USMARR_INTERNAL void usmarr__fft_cache_stats(usmarr_context_t *ctx, int *plans, size_t *bytes, uint64_t *made);

/* ---- transforms along one axis (transform.c) --------------------------------------- */

/* How a kernel reaches a signal (cl/fft.cl): element i of batch b at
 * base(b) + i*stride, base(b) = (b / inner) * outer_stride + (b % inner) * inner_stride;
 * `valid`: loads past it read zero, stores past it are dropped. */
struct usmarr__fft_io {
    void *data; /* element 0 of batch 0 */
    int64_t stride, inner_stride, inner, outer_stride, valid;
};

/* Kernel flags (cl/fft.cl) */
#define USMARR__FFT_LOAD_REAL 1
#define USMARR__FFT_LOAD_PAIRS 2
#define USMARR__FFT_CONJ_LOAD 4
#define USMARR__FFT_STORE_REAL 8
#define USMARR__FFT_STORE_PAIRS 16
#define USMARR__FFT_CONJ_STORE 32
#define USMARR__FFT_BATCH_FAST 64

/* The complex transform of length plan->n over nbatch signals, from `in` to `out` (never
 * the same memory): forward, or the inverse unscaled with `inverse`; the results times
 * `scale`.  `load` and `store` are FFT_LOAD_* / FFT_STORE_* flags of the first read and
 * the last write. */
USMARR_INTERNAL int usmarr__fft_complex(usmarr_context_t *ctx, const struct usmarr__fft_plan *plan, int64_t nbatch,
                                        const struct usmarr__fft_io *in, const struct usmarr__fft_io *out,
                                        unsigned load, unsigned store, bool inverse, double scale);
/* The kinds of a transform along one axis */
enum usmarr__fft_kind {
    USMARR__FFT_C2C, /* complex (or promoted real) to complex */
    USMARR__FFT_R2C, /* real to the n/2 + 1 non-negative frequencies (rfft, ihfft) */
    USMARR__FFT_C2R  /* n/2 + 1 frequencies to a real signal (irfft, hfft) */
};
/* One transform of length n along axis `axis` of x into `target` (shape already right:
 * x's with the axis n, or n/2 + 1 for R2C; of the precision's complex or real dtype),
 * forward unless `inverse`, its input or output conjugated by `conj` (FFT_CONJ_LOAD,
 * FFT_CONJ_STORE), times `scale`. */
USMARR_INTERNAL int usmarr__fft_axis(usmarr_context_t *ctx, enum usmarr__fft_kind kind, const usmarr_array_t *x,
                                     int axis, int64_t n, bool inverse, unsigned conj, double scale,
                                     usmarr_array_t *target);

#endif
