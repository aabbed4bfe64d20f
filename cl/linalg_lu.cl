/* linalg_lu.cl: LU and Cholesky factorisations of stacks of matrices (lib/linalg/lu.c,
 * lib/linalg/cholesky.c; doc/linalg.md).
 *
 * -DD0=<tag> is the compute dtype (f32, f64, c64, c128; -DLA_COMPLEX for the last two,
 * -DLA_DOUBLE for f64 and c128).
 * The first three kernels: one work-item owns one matrix of a C-ordered stack (n x n, one
 * after another), which it copies into private memory of order -DLA_NMAX=<4|8|16|32> (a
 * stack of 3 x 3 or 8 x 8 matrices stays in L1); the input stack is only read.  (Programs of one exact order, with unrolled loops and row
 * swaps as selects, ran slower on both CPU runtimes: the selects cost more than the
 * private memory's indexed loads.)  Every work-item
 * runs the same sequence of operations on its own matrix, whatever the lanes beside it
 * hold, so results do not depend on the vector width.  The launcher (lib/linalg/stack.c)
 * appends the last argument, `items`: work-items past it return at once.
 *
 *   usmarr_lu_det       sign and log|det| (mode 1: slogdet), or det = sign exp(log|det|)
 *                       (mode 0, as NumPy: partial products do not overflow), by Gaussian
 *                       elimination with partial pivoting; a zero pivot gives det 0 (sign
 *                       0, log -inf).
 *   usmarr_lu_solve     b <- inv(a) b for an n x k right-hand side (b set to the identity
 *                       first when `identity`); a zero pivot marks the matrix as failed.
 *   usmarr_lu_det_lanes, usmarr_lu_solve_lanes (k <= n), usmarr_cholesky_lanes: the same
 *                       for real matrices, LA_LANES a work-item as the lanes of one vector.
 *   usmarr_cholesky_factor  into `out`: the lower factor L (A = L L^H) from A's lower triangle, or
 *                       the upper factor U = L^H from A's upper triangle; a pivot that is
 *                       not positive marks the matrix as failed (NaN gives NaN factors, as LAPACK).
 * Each work-item stores whether its matrix failed into status[g] (0 or 1), unconditionally:
 * no branch leaves the loops early, so that the work-group's items run as vector lanes. */
#define LA_T USMARR_COMPUTE(D0)

#ifdef LA_COMPLEX
#define LA_R USMARR_CAT(USMARR_RT_, D0)
#define LA_ZERO ((LA_T)(0, 0))
#define LA_ONE ((LA_T)(1, 0))
#define LA_REAL(r) ((LA_T)((r), 0))
#define LA_MUL(p, q) ((LA_T)((p).x * (q).x - (p).y * (q).y, (p).x * (q).y + (p).y * (q).x))
#define LA_CONJ(p) ((LA_T)((p).x, -(p).y))
#define LA_RE(p) ((p).x)
#define LA_ABS1(p) (fabs((p).x) + fabs((p).y)) /* the pivot's size, as LAPACK's izamax */
#define LA_ABS(p) hypot((p).x, (p).y)
#define LA_ISNAN(p) (isnan((p).x) || isnan((p).y))
#define LA_ISZERO(p) ((p).x == 0 && (p).y == 0)
/* Smith's division: no overflow of |q|^2 */
inline LA_T la_div(LA_T p, LA_T q)
{
    if (fabs(q.x) >= fabs(q.y)) {
        LA_R r = q.y / q.x, d = q.x + q.y * r;
        return (LA_T)((p.x + p.y * r) / d, (p.y - p.x * r) / d);
    }
    LA_R r = q.x / q.y, d = q.x * r + q.y;
    return (LA_T)((p.x * r + p.y) / d, (p.y * r - p.x) / d);
}
#define LA_DIV(p, q) la_div((p), (q))
#else
#define LA_R LA_T
#define LA_ZERO ((LA_T)0)
#define LA_ONE ((LA_T)1)
#define LA_REAL(r) ((LA_T)(r))
#define LA_MUL(p, q) ((p) * (q))
#define LA_CONJ(p) (p)
#define LA_RE(p) (p)
#define LA_ABS1(p) fabs(p)
#define LA_ABS(p) fabs(p)
#define LA_ISNAN(p) isnan(p)
#define LA_ISZERO(p) ((p) == 0)
#define LA_DIV(p, q) ((p) / (q))
#endif


/* Scaling by powers of two with integer operations (frexp and ldexp are calls that keep
 * PoCL from running the lanes as a vector): la_exponent(v) is the exponent of a normal v
 * (v in [2^e, 2^(e+1))), 0 for zero, subnormals, inf and NaN (left unscaled), clamped so
 * that LA_POW2(-e) is a normal number.  -DLA_DOUBLE: the real type is double. */
#ifdef LA_DOUBLE
#define LA_AS_BITS as_long
#define LA_AS_REAL as_double
#define LA_BITS long
#else
#define LA_AS_BITS as_int
#define LA_AS_REAL as_float
#define LA_BITS int
#endif
/* LA_MANT, LA_EMASK, LA_BIAS: cl/prelude.cl */
#define LA_POW2(e) LA_AS_REAL((LA_BITS)((e) + LA_BIAS) << LA_MANT)
inline int la_exponent(LA_R v)
{
    int biased = (int)((LA_AS_BITS(v) >> LA_MANT) & LA_EMASK);
    int e = biased - LA_BIAS;
    e = e < 2 - LA_BIAS ? 2 - LA_BIAS : e > LA_BIAS - 2 ? LA_BIAS - 2 : e;
    return biased == 0 || biased == LA_EMASK ? 0 : e;
}
/* d <- d 2^-e, scale += e: the running product kept near 1 */
#ifdef LA_COMPLEX
#define LA_RESCALE(d, scale)                                                                                           \
    do {                                                                                                               \
        int e_ = la_exponent(fmax(fabs((d).x), fabs((d).y)));                                                          \
        (d) *= LA_POW2(-e_);                                                                                           \
        (scale) += e_;                                                                                                 \
    } while (0)
#else
#define LA_RESCALE(d, scale)                                                                                           \
    do {                                                                                                               \
        int e_ = la_exponent(fabs(d));                                                                                 \
        (d) *= LA_POW2(-e_);                                                                                           \
        (scale) += e_;                                                                                                 \
    } while (0)
#endif

/* The matrix of work-item g in private memory `m` (rows LA_LD apart), loaded from the
 * stack `a` (n x n at a + g n^2); LA_STORE writes it to the stack `out`. */
#define LA_LD LA_NMAX
#define LA_MATRIX(m, a, g, n)                                                                                          \
    LA_T m[LA_NMAX * LA_NMAX];                                                                                         \
    for (long i_ = 0; i_ < (n); i_++)                                                                                  \
        for (long j_ = 0; j_ < (n); j_++)                                                                              \
            m[i_ * LA_NMAX + j_] = (a)[(g) * (n) * (n) + i_ * (n) + j_];
#define LA_STORE(m, out, g, n)                                                                                         \
    for (long i_ = 0; i_ < (n); i_++)                                                                                  \
        for (long j_ = 0; j_ < (n); j_++)                                                                              \
            (out)[(g) * (n) * (n) + i_ * (n) + j_] = m[i_ * LA_NMAX + j_];
#define LA_AT(m, i, j) m[(i) * LA_LD + (j)]

#if defined(LA_LANES) && !defined(LA_COMPLEX)
/* ---- real matrices, LA_LANES a work-item (work-item g: matrices g * LA_LANES + l) as the
 * lanes of one vector, in private memory: every step runs on LA_LANES matrices at once,
 * whatever the compiler does with work-items.  No branch depends on a lane's values, so
 * that each matrix gets what it gets alone.  The kernels take the stack's `count` before
 * the launcher's `items`. */
/* LA_V, LA_VI, LA_LANE: cl/prelude.cl */
/* LA_RESCALE of every lane: d <- d 2^-e, scale += e, with la_exponent's e */
#define LA_VRESCALE(d, scale)                                                                                          \
    do {                                                                                                               \
        LA_VI biased_ = (USMARR_CAT(as_, LA_VI)(d) >> LA_MANT) & LA_EMASK;                                            \
        LA_VI e_ = clamp(biased_ - LA_BIAS, (LA_VI)(2 - LA_BIAS), (LA_VI)(LA_BIAS - 2));                              \
        e_ = select(e_, (LA_VI)0, biased_ == 0 | biased_ == LA_EMASK);                                                \
        (d) *= USMARR_CAT(as_, LA_V)((LA_BIAS - e_) << LA_MANT);                                                      \
        (scale) += e_;                                                                                                 \
    } while (0)
#endif

/* The row, at or below row j, of column j's pivot: the largest |.|, a NaN counting as
 * infinite (so that it spreads). */
#define LA_PIVOT(m, j, n, p)                                                                                           \
    do {                                                                                                               \
        LA_R best_ = -1;                                                                                               \
        p = j;                                                                                                         \
        for (long r_ = j; r_ < (n); r_++) {                                                                            \
            LA_T v_ = LA_AT(m, r_, j);                                                                                 \
            LA_R key_ = LA_ISNAN(v_) ? (LA_R)INFINITY : LA_ABS1(v_);                                                   \
            if (key_ > best_) {                                                                                        \
                best_ = key_;                                                                                          \
                p = r_;                                                                                                \
            }                                                                                                          \
        }                                                                                                              \
    } while (0)

/* Swaps elements [from, to) of rows j and p of `m` (row length ld); p == j swaps a row with
 * itself, which saves a branch that would split the lanes. */
#define LA_SWAP(m, ld, j, p, n, from, to)                                                                              \
    for (long c_ = (from); c_ < (to); c_++) {                                                                          \
        LA_T t_ = m[(j) * (ld) + c_];                                                                                  \
        m[(j) * (ld) + c_] = m[(p) * (ld) + c_];                                                                       \
        m[(p) * (ld) + c_] = t_;                                                                                       \
    }

#if USMARR_WANT(lu)
__kernel void usmarr_lu_det(global const LA_T *a, global LA_T *det, global LA_R *logdet, long n, int mode, long items)
{
    long g = (long)get_global_id(0);
    if (g >= items)
        return;
    LA_MATRIX(m, a, g, n)
    /* the product of the pivots (and the swaps' signs) as d * 2^scale, d kept near 1 so that
     * partial products neither overflow nor underflow, as NumPy's sign and log do */
    LA_T d = LA_ONE;
    int scale = 0;
    bool singular = false;
    for (long j = 0; j < n; j++) {
        long p;
        LA_PIVOT(m, j, n, p);
        LA_T pivot = LA_AT(m, p, j);
        singular |= LA_ISZERO(pivot);
        LA_SWAP(m, LA_LD, j, p, n, j, n)
        d = p != j ? -d : d;
        d = LA_MUL(d, pivot);
        LA_RESCALE(d, scale);
        for (long r = j + 1; r < n; r++) {
            LA_T l = LA_DIV(LA_AT(m, r, j), pivot);
            for (long c = j + 1; c < n; c++)
                LA_AT(m, r, c) -= LA_MUL(l, LA_AT(m, j, c));
        }
    }
    if (singular) {
        det[g] = LA_ZERO;
        if (mode)
            logdet[g] = -INFINITY;
    } else if (mode) {
        LA_R size = LA_ABS(d);
#ifdef LA_COMPLEX
        det[g] = (LA_T)(d.x / size, d.y / size);
#else
        det[g] = d < 0 ? -1 : d > 0 ? 1 : d; /* NaN spreads */
#endif
        logdet[g] = log(size) + scale * log((LA_R)2);
    } else {
        det[g] = ldexp(d, scale);
    }
}

__kernel void usmarr_lu_solve(global const LA_T *a, global LA_T *b, global int *status, long n, long k, int identity,
                              long items)
{
    long g = (long)get_global_id(0);
    if (g >= items)
        return;
    LA_MATRIX(m, a, g, n)
    global LA_T *x = b + g * n * k;
    if (identity)
        for (long r = 0; r < n; r++)
            for (long c = 0; c < k; c++)
                x[r * k + c] = r == c ? LA_ONE : LA_ZERO;
    int failed = 0;
    for (long j = 0; j < n; j++) {
        long p;
        LA_PIVOT(m, j, n, p);
        LA_T pivot = LA_AT(m, p, j);
        failed |= LA_ISZERO(pivot);
        LA_SWAP(m, LA_LD, j, p, n, j, n)
        LA_SWAP(x, k, j, p, n, 0, k)
        for (long r = j + 1; r < n; r++) {
            LA_T l = LA_DIV(LA_AT(m, r, j), pivot);
            for (long c = j + 1; c < n; c++)
                LA_AT(m, r, c) -= LA_MUL(l, LA_AT(m, j, c));
            for (long c = 0; c < k; c++)
                x[r * k + c] -= LA_MUL(l, x[j * k + c]);
        }
    }
    for (long r = n - 1; r >= 0; r--) {
        LA_T pivot = LA_AT(m, r, r);
        for (long c = 0; c < k; c++) {
            LA_T s = x[r * k + c];
            for (long q = r + 1; q < n; q++)
                s -= LA_MUL(LA_AT(m, r, q), x[q * k + c]);
            x[r * k + c] = LA_DIV(s, pivot);
        }
    }
    status[g] = failed;
}
#endif

#if USMARR_WANT(lu) && defined(LA_LANES) && !defined(LA_COMPLEX)
/* The n x n matrices of work-item g's lanes from the stack `a` into m (past the stack: the
 * last matrix again), in the scalar view ms of m. */
inline void la_lanes_load(__private LA_R *ms, global const LA_R *a, long g, long n, long count)
{
    for (int l = 0; l < LA_LANES; l++) {
        global const LA_R *az = a + min(g * LA_LANES + l, count - 1) * n * n;
        for (long i = 0; i < n; i++)
            for (long j = 0; j < n; j++)
                LA_LANE(ms, i * LA_NMAX + j, l) = az[i * n + j];
    }
}

/* usmarr_lu_det's and usmarr_lu_solve's elimination on every lane: m (n x n) to U, the
 * same row operations on x (n x k, rows LA_NMAX apart; k = 0: none); *singular marks the
 * lanes with a zero pivot, d 2^scale is the product of the pivots and the swaps' signs.
 * The pivot's row swap is a select on the rows below the pivot, skipped where no lane
 * swaps that row (a select that changes nothing). */
inline void la_lanes_lu(__private LA_V *m, __private LA_V *x, long n, long k, __private LA_VI *singular,
                        __private LA_V *d, __private LA_VI *scale)
{
    for (long j = 0; j < n; j++) {
        LA_V best = -1;
        LA_VI p = (LA_VI)j;
        for (long r = j; r < n; r++) {
            LA_V v = LA_AT(m, r, j);
            LA_V key = select(fabs(v), (LA_V)INFINITY, isnan(v));
            LA_VI better = isgreater(key, best);
            best = select(best, key, better);
            p = select(p, (LA_VI)r, better);
        }
        for (long r = j + 1; r < n; r++) {
            LA_VI swap = p == (LA_VI)r;
            if (!any(swap))
                continue;
            for (long c = j; c < n; c++) {
                LA_V top = LA_AT(m, j, c), row = LA_AT(m, r, c);
                LA_AT(m, j, c) = select(top, row, swap);
                LA_AT(m, r, c) = select(row, top, swap);
            }
            for (long c = 0; c < k; c++) {
                LA_V top = LA_AT(x, j, c), row = LA_AT(x, r, c);
                LA_AT(x, j, c) = select(top, row, swap);
                LA_AT(x, r, c) = select(row, top, swap);
            }
        }
        LA_V pivot = LA_AT(m, j, j);
        *singular |= pivot == 0;
        *d = select(*d, -*d, p != (LA_VI)j) * pivot;
        LA_VRESCALE(*d, *scale);
        for (long r = j + 1; r < n; r++) {
            LA_V l = LA_AT(m, r, j) / pivot;
            for (long c = j + 1; c < n; c++)
                LA_AT(m, r, c) -= l * LA_AT(m, j, c);
            for (long c = 0; c < k; c++)
                LA_AT(x, r, c) -= l * LA_AT(x, j, c);
        }
    }
}

/* usmarr_lu_det for real matrices, LA_LANES a work-item. */
__kernel USMARR_ONE_PER_LANE void usmarr_lu_det_lanes(global const LA_R *a, global LA_R *det, global LA_R *logdet,
                                                      long n, int mode, long count, long items)
{
    long g = (long)get_global_id(0);
    if (g >= items)
        return;
#ifdef LA_N
    n = LA_N; /* the order is the private matrix's: loops of constant length */
#endif
    LA_V m[LA_NMAX * LA_NMAX], d = 1;
    LA_VI singular = 0, scale = 0;
    la_lanes_load((__private LA_R *)m, a, g, n, count);
    la_lanes_lu(m, m, n, 0, &singular, &d, &scale);
    for (int l = 0; l < LA_LANES; l++) {
        long z = g * LA_LANES + l;
        if (z >= count)
            break;
        LA_R dl = ((__private LA_R *)&d)[l];
        int sl = (int)((__private LA_VS *)&scale)[l];
        if (((__private LA_VS *)&singular)[l]) {
            det[z] = 0;
            if (mode)
                logdet[z] = -INFINITY;
        } else if (mode) {
            det[z] = dl < 0 ? -1 : dl > 0 ? 1 : dl; /* NaN spreads */
            logdet[z] = log(fabs(dl)) + sl * log((LA_R)2);
        } else {
            det[z] = ldexp(dl, sl);
        }
    }
}

/* usmarr_lu_solve for real matrices and k <= n right-hand sides, LA_LANES a work-item. */
__kernel USMARR_ONE_PER_LANE void usmarr_lu_solve_lanes(global const LA_R *a, global LA_R *b, global int *status,
                                                        long n, long k, int identity, long count, long items)
{
    long g = (long)get_global_id(0);
    if (g >= items)
        return;
#ifdef LA_N
    n = LA_N; /* the order is the private matrix's: loops of constant length */
#endif
    LA_V m[LA_NMAX * LA_NMAX], x[LA_NMAX * LA_NMAX], d = 1;
    LA_VI singular = 0, scale = 0;
    __private LA_R *xs = (__private LA_R *)x;
    la_lanes_load((__private LA_R *)m, a, g, n, count);
    for (int l = 0; l < LA_LANES; l++) {
        global const LA_R *bz = b + min(g * LA_LANES + l, count - 1) * n * k;
        for (long r = 0; r < n; r++)
            for (long c = 0; c < k; c++)
                LA_LANE(xs, r * LA_NMAX + c, l) = identity ? (r == c) : bz[r * k + c];
    }
    la_lanes_lu(m, x, n, k, &singular, &d, &scale);
    for (long r = n - 1; r >= 0; r--) {
        LA_V pivot = LA_AT(m, r, r);
        for (long c = 0; c < k; c++) {
            LA_V s = LA_AT(x, r, c);
            for (long q = r + 1; q < n; q++)
                s -= LA_AT(m, r, q) * LA_AT(x, q, c);
            LA_AT(x, r, c) = s / pivot;
        }
    }
    for (int l = 0; l < LA_LANES; l++) {
        long z = g * LA_LANES + l;
        if (z >= count)
            break;
        global LA_R *bz = b + z * n * k;
        for (long r = 0; r < n; r++)
            for (long c = 0; c < k; c++)
                bz[r * k + c] = LA_LANE(xs, r * LA_NMAX + c, l);
        status[z] = ((__private LA_VS *)&singular)[l] != 0;
    }
}
#endif

#if USMARR_WANT(cholesky)
__kernel void usmarr_cholesky_factor(global const LA_T *a, global LA_T *out, global int *status, long n, int upper, long items)
{
    long g = (long)get_global_id(0);
    if (g >= items)
        return;
    LA_MATRIX(m, a, g, n)
    /* upper: factor B = A^H (its lower triangle is A's upper one, conjugated), U = L^H */
    if (upper)
        for (long i = 0; i < n; i++)
            for (long j = 0; j < i; j++)
                LA_AT(m, i, j) = LA_CONJ(LA_AT(m, j, i));
    int failed = 0;
    for (long j = 0; j < n; j++) {
        LA_R d = LA_RE(LA_AT(m, j, j));
        for (long q = 0; q < j; q++) {
            LA_T l = LA_AT(m, j, q);
            d -= LA_RE(LA_MUL(l, LA_CONJ(l)));
        }
        failed |= d <= 0; /* NaN goes on, to NaN factors, as LAPACK */
        LA_R root = sqrt(d);
        LA_AT(m, j, j) = LA_REAL(root);
        for (long i = j + 1; i < n; i++) {
            LA_T s = LA_AT(m, i, j);
            for (long q = 0; q < j; q++)
                s -= LA_MUL(LA_AT(m, i, q), LA_CONJ(LA_AT(m, j, q)));
            LA_AT(m, i, j) = s / root;
        }
    }
    for (long i = 0; i < n; i++)
        for (long j = i + 1; j < n; j++) {
            if (upper) {
                LA_AT(m, i, j) = LA_CONJ(LA_AT(m, j, i));
                LA_AT(m, j, i) = LA_ZERO;
            } else {
                LA_AT(m, i, j) = LA_ZERO;
            }
        }
    LA_STORE(m, out, g, n)
    status[g] = failed;
}
#endif

#if USMARR_WANT(cholesky) && defined(LA_LANES) && !defined(LA_COMPLEX)
/* usmarr_cholesky_factor for real matrices: the same column-by-column algorithm, each
 * column scaled by the reciprocal of its pivot (LAPACK's potf2); only the triangle that
 * is read and the one that is written are touched. */
__kernel USMARR_ONE_PER_LANE void usmarr_cholesky_lanes(global const LA_R *a, global LA_R *out, global int *status,
                                                        long n, int upper, long count, long items)
{
    long g = (long)get_global_id(0);
    if (g >= items)
        return;
#ifdef LA_N
    n = LA_N; /* the order is the private matrix's: loops of constant length */
#endif
    LA_V m[LA_NMAX * LA_NMAX];
    __private LA_R *ms = (__private LA_R *)m;
    /* the lower triangle of A, or of Aᵀ (upper); past the stack, the identity */
    for (int l = 0; l < LA_LANES; l++) {
        long z = g * LA_LANES + l;
        __global const LA_R *az = a + min(z, count - 1) * n * n;
        bool in = z < count;
        for (long i = 0; i < n; i++)
            for (long j = 0; j <= i; j++)
                LA_LANE(ms, i * LA_NMAX + j, l) = !in ? (i == j) : upper ? az[j * n + i] : az[i * n + j];
    }
    LA_VI failed = 0;
    for (long j = 0; j < n; j++) {
        LA_V d = LA_AT(m, j, j);
        for (long q = 0; q < j; q++)
            d -= LA_AT(m, j, q) * LA_AT(m, j, q);
        failed |= islessequal(d, 0); /* NaN goes on, to NaN factors, as LAPACK */
        LA_V root = sqrt(d), inv = 1 / root;
        LA_AT(m, j, j) = root;
        for (long i = j + 1; i < n; i++) {
            LA_V s = LA_AT(m, i, j);
            for (long q = 0; q < j; q++)
                s -= LA_AT(m, i, q) * LA_AT(m, j, q);
            LA_AT(m, i, j) = s * inv;
        }
    }
    for (int l = 0; l < LA_LANES; l++) {
        long z = g * LA_LANES + l;
        if (z >= count)
            break;
        global LA_R *oz = out + z * n * n;
        for (long i = 0; i < n; i++) /* rows of L, or of U = Lᵀ, contiguous */
            for (long j = 0; j < n; j++)
                oz[i * n + j] = upper ? (j < i ? 0 : LA_LANE(ms, j * LA_NMAX + i, l))
                                      : (j > i ? 0 : LA_LANE(ms, i * LA_NMAX + j, l));
        status[z] = ((__private LA_VS *)&failed)[l] != 0;
    }
}
#endif

/* ---- the blocked path (lib/linalg/blocked.c): orders above 32, one matrix at a time ------
 * The host walks the matrix in blocks of columns; the trailing updates are the library's
 * matmul.  Matrices are row-major with leading dimension `lda` (elements between rows).
 *   usmarr_lublock_panel  one work-group: partial-pivoting LU of the panel of columns
 *                         [k0, k0 + kb) of rows [k0, n), element (r, c) at
 *                         a[(r - k0) rs + (c - k0) cs] (the matrix's rows, or a
 *                         column-major copy of the panel), swapping rows over columns
 *                         [sw0, sw1); the pivots' rows into piv[k0, k0 + kb), a zero pivot
 *                         into *status.  The pivot search is a reduction
 *                         over the group that takes the largest |.| (NaN as infinite) and,
 *                         among equals, the first row: the same pivot for any group size.
 *   usmarr_lublock_trsm   one work-item a column of b: b <- inv(T) b for the ib x ib
 *                         triangle T at a: unit lower (upper 0) or upper (upper 1).
 *   usmarr_lublock_swap   one work-item a column of b: rows swapped as piv[first, n) says;
 *                         `columns`: one work-item a row, its columns swapped in reverse.
 *   usmarr_lublock_det    one work-item: det or slogdet from U's diagonal and the pivots.
 *   usmarr_cholblock_diag one work-item: the Cholesky factor of the kb x kb block at a, in
 *                         place (lower; the upper part is left as it is).
 *   usmarr_cholblock_rows one work-item a row of b: b <- b inv(L)^H for the kb x kb lower
 *                         factor L at a (the panel below the diagonal block). */
#ifndef LA_GROUP
#define LA_GROUP 64
#endif

#if USMARR_WANT(lublock)
__kernel __attribute__((reqd_work_group_size(LA_GROUP, 1, 1))) void
usmarr_lublock_panel(global LA_T *a, long rs, long cs, long n, long sw0, long sw1, long k0, long kb,
                     global int *piv, global int *status, long items)
{
#define LA_PANEL(r, c) a[((r) - k0) * rs + ((c) - k0) * cs]
    local LA_R keys[LA_GROUP];
    local long rows[LA_GROUP];
    int t = (int)get_local_id(0);
    int failed = 0;
    for (long j = k0; j < k0 + kb; j++) {
        /* this item's best row among j + t, j + t + LA_GROUP, ... */
        LA_R best = -1;
        long p = n;
        for (long r = j + t; r < n; r += LA_GROUP) {
            LA_T v = LA_PANEL(r, j);
            LA_R key = LA_ISNAN(v) ? (LA_R)INFINITY : LA_ABS1(v);
            if (key > best) {
                best = key;
                p = r;
            }
        }
        keys[t] = best;
        rows[t] = p;
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int span = LA_GROUP / 2; span > 0; span /= 2) {
            if (t < span) {
                LA_R k2 = keys[t + span];
                long r2 = rows[t + span];
                if (k2 > keys[t] || (k2 == keys[t] && r2 < rows[t])) {
                    keys[t] = k2;
                    rows[t] = r2;
                }
            }
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        p = rows[0];
        barrier(CLK_LOCAL_MEM_FENCE);
        /* swap rows j and p over columns [sw0, sw1) */
        if (p != j)
            for (long c = sw0 + t; c < sw1; c += LA_GROUP) {
                LA_T x = LA_PANEL(j, c);
                LA_PANEL(j, c) = LA_PANEL(p, c);
                LA_PANEL(p, c) = x;
            }
        barrier(CLK_GLOBAL_MEM_FENCE);
        LA_T pivot = LA_PANEL(j, j);
        if (t == 0)
            piv[j] = (int)p;
        failed |= LA_ISZERO(pivot);
        /* the multipliers, then the panel's columns right of j, a work-item a row */
        for (long r = j + 1 + t; r < n; r += LA_GROUP)
            LA_PANEL(r, j) = LA_DIV(LA_PANEL(r, j), pivot);
        barrier(CLK_GLOBAL_MEM_FENCE);
        for (long r = j + 1 + t; r < n; r += LA_GROUP) {
            LA_T l = LA_PANEL(r, j);
            for (long c = j + 1; c < k0 + kb; c++)
                LA_PANEL(r, c) -= LA_MUL(l, LA_PANEL(j, c));
        }
        barrier(CLK_GLOBAL_MEM_FENCE);
    }
    if (t == 0 && failed)
        *status = 1;
#undef LA_PANEL
}

__kernel void usmarr_lublock_trsm(global const LA_T *a, long lda, global LA_T *b, long ldb, long ib, int upper,
                                  long items)
{
    long c = (long)get_global_id(0);
    if (c >= items)
        return;
    if (!upper) {
        for (long i = 1; i < ib; i++) {
            LA_T s = b[i * ldb + c];
            for (long q = 0; q < i; q++)
                s -= LA_MUL(a[i * lda + q], b[q * ldb + c]);
            b[i * ldb + c] = s;
        }
    } else {
        for (long i = ib - 1; i >= 0; i--) {
            LA_T s = b[i * ldb + c];
            for (long q = i + 1; q < ib; q++)
                s -= LA_MUL(a[i * lda + q], b[q * ldb + c]);
            b[i * ldb + c] = LA_DIV(s, a[i * lda + i]);
        }
    }
}

__kernel void usmarr_lublock_swap(global LA_T *b, long ldb, global const int *piv, long first, long n, int columns,
                                  long items)
{
    long c = (long)get_global_id(0);
    if (c >= items)
        return;
    if (!columns) {
        for (long j = first; j < n; j++) {
            long p = piv[j];
            if (p != j) {
                LA_T x = b[j * ldb + c];
                b[j * ldb + c] = b[p * ldb + c];
                b[p * ldb + c] = x;
            }
        }
    } else { /* row c of b, its columns swapped from the last pivot to the first */
        global LA_T *row = b + c * ldb;
        for (long j = n - 1; j >= first; j--) {
            long p = piv[j];
            if (p != j) {
                LA_T x = row[j];
                row[j] = row[p];
                row[p] = x;
            }
        }
    }
}

__kernel void usmarr_lublock_det(global const LA_T *a, long lda, global const int *piv, long n, global LA_T *det,
                                 global LA_R *logdet, int mode, long items)
{
    if ((long)get_global_id(0) >= items)
        return;
    LA_T d = LA_ONE;
    int scale = 0;
    bool singular = false;
    for (long j = 0; j < n; j++) {
        LA_T pivot = a[j * lda + j];
        singular |= LA_ISZERO(pivot);
        d = piv[j] != j ? -d : d;
        d = LA_MUL(d, pivot);
        LA_RESCALE(d, scale);
    }
    if (singular) {
        *det = LA_ZERO;
        if (mode)
            *logdet = -INFINITY;
    } else if (mode) {
        LA_R size = LA_ABS(d);
#ifdef LA_COMPLEX
        *det = (LA_T)(d.x / size, d.y / size);
#else
        *det = d < 0 ? -1 : d > 0 ? 1 : d;
#endif
        *logdet = log(size) + scale * log((LA_R)2);
    } else {
        *det = ldexp(d, scale);
    }
}
#endif

#if USMARR_WANT(cholblock)
__kernel void usmarr_cholblock_diag(global LA_T *a, long lda, long kb, global int *status, long items)
{
    if ((long)get_global_id(0) >= items)
        return;
    int failed = 0;
    for (long j = 0; j < kb; j++) {
        LA_R d = LA_RE(a[j * lda + j]);
        for (long q = 0; q < j; q++) {
            LA_T l = a[j * lda + q];
            d -= LA_RE(LA_MUL(l, LA_CONJ(l)));
        }
        failed |= d <= 0;
        LA_R root = sqrt(d);
        a[j * lda + j] = LA_REAL(root);
        for (long i = j + 1; i < kb; i++) {
            LA_T s = a[i * lda + j];
            for (long q = 0; q < j; q++)
                s -= LA_MUL(a[i * lda + q], LA_CONJ(a[j * lda + q]));
            a[i * lda + j] = s / root;
        }
    }
    if (failed)
        *status = 1;
}

__kernel void usmarr_cholblock_rows(global const LA_T *l, long lda, global LA_T *b, long kb, long items)
{
    long r = (long)get_global_id(0);
    if (r >= items)
        return;
    global LA_T *x = b + r * lda;
    for (long j = 0; j < kb; j++) {
        LA_T s = x[j];
        for (long q = 0; q < j; q++)
            s -= LA_MUL(x[q], LA_CONJ(l[j * lda + q]));
        x[j] = s / LA_RE(l[j * lda + j]);
    }
}
#endif
