/* Private declarations of the transforms (lib/fft/): roots and twiddle tables (tables.c),
 * plans and their cache (plans.c), a plan's complex transform (passes.c), transforms along
 * one axis of arrays (axis.c), the public functions (fft.c, freq.c).  How they work:
 * doc/fft.md.  Never installed. */
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
    bool dbl;     /* complex128 (else complex64) */
    size_t bytes; /* device bytes of the tables made with the plan, for the cache's bound */
    mtx_t lock;   /* guards the tables made on first use: twiddles, real_twiddles */
    int npasses;
    int radix[USMARR__FFT_MAX_PASSES];
    int64_t ns[USMARR__FFT_MAX_PASSES];    /* product of the earlier radices */
    int64_t twoff[USMARR__FFT_MAX_PASSES]; /* the pass's table in `twiddles`, in elements */
    int64_t twsize;                        /* elements of `twiddles` */
    void *twiddles;                        /* made on first use (usmarr__fft_plan_twiddles) */
    /* Bluestein (sub set, npasses 0): the chirp exp(-pi i k^2 / n), k < n, and the length-m
     * transform of its conjugate, wrapped */
    int64_t m;
    struct usmarr__fft_plan *sub;
    void *chirp, *chirp_fft;
    /* exp(-2 pi i k / 2n) for k in [0, n]: the real transforms of length 2n (first use) */
    void *real_twiddles;
    /* four-step (n above what one work-group transforms in local memory, n = n1 n2 with
     * both within it): the plans of n1 (columns) and n2 (rows), and the twiddles between
     * the steps, w^t = roots_hi[t >> roots_shift] roots_lo[t mod 2^roots_shift] for t < n
     * (w = exp(-2 pi i / n)): about 2 sqrt(n) entries; NULL when n has no such split */
    struct usmarr__fft_plan *cols, *rows;
    void *roots_hi, *roots_lo;
    int roots_shift;
};

/* ---- tables (tables.c) ---------------------------------------------------------------- */

/* exp(-2 pi i t / N) for t in [0, N) as hi[t / B] * lo[t % B], B the power of two at or
 * above sqrt(N) */
struct usmarr__fft_roots {
    int64_t N, B;
    double *lo, *hi; /* interleaved (cos, -sin) pairs */
};
USMARR_INTERNAL int usmarr__fft_roots_init(struct usmarr__fft_roots *r, int64_t N);
USMARR_INTERNAL void usmarr__fft_roots_free(struct usmarr__fft_roots *r);
/* w^t as element `index` of `out`, complex128 (dbl) or complex64 */
USMARR_INTERNAL void usmarr__fft_root_store(const struct usmarr__fft_roots *r, int64_t t, bool dbl, void *out,
                                            int64_t index);
/* Device memory holding host[0, bytes) (raw USM of the context) */
USMARR_INTERNAL int usmarr__fft_upload(usmarr_context_t *ctx, const void *host, size_t bytes, void **device);
/* The plan's ns[], twoff[] and twsize from its radices */
USMARR_INTERNAL void usmarr__fft_lay_out_passes(struct usmarr__fft_plan *p);
/* The plan's pass twiddles and its real transforms' table, made on first use */
USMARR_INTERNAL int usmarr__fft_plan_twiddles(usmarr_context_t *ctx, struct usmarr__fft_plan *plan, void **twiddles);
USMARR_INTERNAL int usmarr__fft_plan_real_twiddles(usmarr_context_t *ctx, struct usmarr__fft_plan *plan,
                                                   void **twiddles);

/* ---- plans and their cache (plans.c) ------------------------------------------------- */

/* The plan of (n, dbl) from the context's cache, made on a miss (one reference). */
USMARR_INTERNAL int usmarr__fft_plan_get(usmarr_context_t *ctx, int64_t n, bool dbl, struct usmarr__fft_plan **plan);
USMARR_INTERNAL void usmarr__fft_plan_release(usmarr_context_t *ctx, struct usmarr__fft_plan *plan);

/* ---- a plan's transform (passes.c) ------------------------------------------------- */

/* How a kernel reaches a signal (cl/fft.cl): element i of batch b at
 * base(b) + i*stride, base(b) = (b / inner) * outer_stride + (b % inner) * inner_stride;
 * `valid`: loads past it read zero, stores past it are dropped. */
struct usmarr__fft_io {
    void *data; /* element 0 of batch 0 */
    int64_t stride, inner_stride, inner, outer_stride, valid;
    int64_t real_n; /* stores: the length of a real signal whose spectrum this is, else 0 */
    int64_t pair;   /* FFT_LOAD_PAIRS, FFT_STORE_PAIRS: the second real's distance (0: stride) */
};

/* Kernel flags (cl/fft.cl) */
#define USMARR__FFT_LOAD_REAL 1
#define USMARR__FFT_LOAD_PAIRS 2
#define USMARR__FFT_CONJ_LOAD 4
#define USMARR__FFT_STORE_REAL 8
#define USMARR__FFT_STORE_PAIRS 16
#define USMARR__FFT_CONJ_STORE 32
#define USMARR__FFT_BATCH_FAST 64
#define USMARR__FFT_POST_TWIDDLE 128
#define USMARR__FFT_LOAD_SIGNALS_FAST 256
#define USMARR__FFT_STORE_SIGNALS_FAST 512
#define USMARR__FFT_BLUESTEIN 1024

/* The complex transform of length plan->n over nbatch signals, from `in` to `out` (the
 * same memory only for a plan of two passes or more, or Bluestein's): forward, or the
 * inverse unscaled with `inverse`; the results times `scale`.  `load` and `store` are
 * FFT_LOAD_* / FFT_STORE_* flags of the first read and the last write. */
USMARR_INTERNAL int usmarr__fft_complex(usmarr_context_t *ctx, struct usmarr__fft_plan *plan, int64_t nbatch,
                                        const struct usmarr__fft_io *in, const struct usmarr__fft_io *out,
                                        unsigned load, unsigned store, bool inverse, double scale);
/* The longest transform one work-group makes in local memory on the context's device */
USMARR_INTERNAL int64_t usmarr__fft_local_max(const usmarr_context_t *ctx, bool dbl);
/* The program of the precision's kernel `name` (cl/fft.cl) */
USMARR_INTERNAL int usmarr__fft_kernel(usmarr_context_t *ctx, bool dbl, const char *name, usmarr__kernel_t **k);
/* A launch of `total` work-items (none when total <= 0) in groups of one size */
USMARR_INTERNAL int usmarr__fft_launch(usmarr_context_t *ctx, usmarr__kernel_t *k, int nargs,
                                       const struct usmarr__karg *args, int64_t total);
/* The kernels' long8 addressing argument of `io` */
USMARR_INTERNAL cl_long8 usmarr__fft_io_arg(const struct usmarr__fft_io *io);
/* A C-ordered device array in a block rounded up to a size class, `classes` (a power of
 * two) an octave (usmarr_memory_create of such a size is served by the pool of released
 * blocks more often than an exact one) */
USMARR_INTERNAL int usmarr__fft_empty(usmarr_context_t *ctx, usmarr_dtype_t dtype, int ndim, const int64_t *shape,
                                      int classes, usmarr_array_t **out);
/* A C-ordered (nbatch, n) complex temporary of the precision (usmarr__fft_empty, a power
 * of two) */
USMARR_INTERNAL int usmarr__fft_temporary(usmarr_context_t *ctx, bool dbl, int64_t n, int64_t nbatch,
                                          usmarr_array_t **t);

/* ---- transforms along one axis of arrays (axis.c) ----------------------------------- */

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
