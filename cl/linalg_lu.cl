/* linalg_lu.cl: LU and Cholesky factorisations of stacks of matrices (lib/linalg/lu.c,
 * lib/linalg/cholesky.c; doc/linalg.md).
 *
 * -DD0=<tag> is the compute dtype (f32, f64, c64, c128; -DLA_COMPLEX for the last two).
 * One work-item owns one matrix of a C-ordered stack (n x n, one after another).  With
 * -DLA_NMAX=<4|8|16|32> it copies the matrix into private memory of that order first (the
 * small-matrix programs: a stack of 3 x 3 or 8 x 8 matrices stays in registers and L1);
 * without it (LA_NMAX 0) it works in place on the stack, for any order.  Every work-item
 * runs the same sequence of operations on its own matrix, whatever the lanes beside it
 * hold, so results do not depend on the vector width.  The launcher (lib/linalg/stack.c)
 * appends the last argument, `items`: work-items past it return at once.
 *
 *   usmarr_lu_det       det (mode 0), or sign and log|det| (mode 1: slogdet) by Gaussian
 *                       elimination with partial pivoting; a zero pivot gives det 0 (sign
 *                       0, log -inf).
 *   usmarr_lu_solve     b <- inv(a) b for an n x k right-hand side (b set to the identity
 *                       first when `identity`); a zero pivot marks the matrix as failed.
 *   usmarr_cholesky_factor  the lower factor L (A = L L^H) from A's lower triangle, or
 *                       the upper factor U = L^H from A's upper triangle; a pivot that is
 *                       not positive marks the matrix as failed (NaN gives NaN factors, as LAPACK).
 * A failed matrix is reported by atomic_min of its index into `status` (LA_FAIL). */
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

#define LA_FAIL(status, g) atomic_min((status), (int)(g))

/* The matrix of work-item g: `m` with rows LA_LD apart, loaded from and stored to the
 * stack `a` (n x n at a + g n^2). */
#if defined(LA_NMAX) && LA_NMAX > 0
#define LA_LD LA_NMAX
#define LA_MATRIX(m, a, g, n)                                                                                          \
    LA_T m[LA_NMAX * LA_NMAX];                                                                                         \
    global LA_T *m##_src = (a) + (g) * (n) * (n);                                                                      \
    for (long i_ = 0; i_ < (n); i_++)                                                                                  \
        for (long j_ = 0; j_ < (n); j_++)                                                                              \
            m[i_ * LA_NMAX + j_] = m##_src[i_ * (n) + j_];
#define LA_STORE(m, n)                                                                                                 \
    for (long i_ = 0; i_ < (n); i_++)                                                                                  \
        for (long j_ = 0; j_ < (n); j_++)                                                                              \
            m##_src[i_ * (n) + j_] = m[i_ * LA_NMAX + j_];
#else
#define LA_LD n
#define LA_MATRIX(m, a, g, n) global LA_T *m = (a) + (g) * (n) * (n);
#define LA_STORE(m, n)
#endif
#define LA_AT(m, i, j) m[(i) * LA_LD + (j)]

/* The row, at or below row j, of column j's pivot: the largest |.| (NaN first, so that it
 * spreads). */
#define LA_PIVOT(m, j, n, p)                                                                                           \
    do {                                                                                                               \
        LA_R best_ = -1;                                                                                               \
        p = j;                                                                                                         \
        for (long r_ = j; r_ < (n); r_++) {                                                                            \
            LA_T v_ = LA_AT(m, r_, j);                                                                                 \
            if (LA_ISNAN(v_)) {                                                                                        \
                p = r_;                                                                                                \
                break;                                                                                                 \
            }                                                                                                          \
            if (LA_ABS1(v_) > best_) {                                                                                 \
                best_ = LA_ABS1(v_);                                                                                   \
                p = r_;                                                                                                \
            }                                                                                                          \
        }                                                                                                              \
    } while (0)

#if USMARR_WANT(lu)
__kernel void usmarr_lu_det(global LA_T *a, global LA_T *det, global LA_R *logdet, long n, int mode, long items)
{
    long g = (long)get_global_id(0);
    if (g >= items)
        return;
    LA_MATRIX(m, a, g, n)
    LA_T d = LA_ONE;   /* mode 0: the product of the pivots; mode 1: of pivot / |pivot| */
    LA_R logabs = 0;
    bool singular = false;
    for (long j = 0; j < n; j++) {
        long p;
        LA_PIVOT(m, j, n, p);
        LA_T pivot = LA_AT(m, p, j);
        if (LA_ISZERO(pivot)) {
            singular = true;
            break;
        }
        if (p != j) {
            for (long c = j; c < n; c++) {
                LA_T t = LA_AT(m, j, c);
                LA_AT(m, j, c) = LA_AT(m, p, c);
                LA_AT(m, p, c) = t;
            }
            d = -d;
        }
        if (mode) {
            LA_R size = LA_ABS(pivot);
            logabs += log(size);
#ifdef LA_COMPLEX
            d = LA_MUL(d, (LA_T)(pivot.x / size, pivot.y / size));
#else
            d = pivot < 0 ? -d : pivot > 0 ? d : pivot; /* NaN spreads */
#endif
        } else {
            d = LA_MUL(d, pivot);
        }
        for (long r = j + 1; r < n; r++) {
            LA_T l = LA_DIV(LA_AT(m, r, j), pivot);
            for (long c = j + 1; c < n; c++)
                LA_AT(m, r, c) -= LA_MUL(l, LA_AT(m, j, c));
        }
    }
    if (singular) {
        d = LA_ZERO;
        logabs = -INFINITY;
    }
    det[g] = d;
    if (mode)
        logdet[g] = logabs;
}

__kernel void usmarr_lu_solve(global LA_T *a, global LA_T *b, global int *status, long n, long k, int identity,
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
    for (long j = 0; j < n; j++) {
        long p;
        LA_PIVOT(m, j, n, p);
        LA_T pivot = LA_AT(m, p, j);
        if (LA_ISZERO(pivot)) {
            LA_FAIL(status, g);
            return;
        }
        if (p != j) {
            for (long c = j; c < n; c++) {
                LA_T t = LA_AT(m, j, c);
                LA_AT(m, j, c) = LA_AT(m, p, c);
                LA_AT(m, p, c) = t;
            }
            for (long c = 0; c < k; c++) {
                LA_T t = x[j * k + c];
                x[j * k + c] = x[p * k + c];
                x[p * k + c] = t;
            }
        }
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
}
#endif

#if USMARR_WANT(cholesky)
__kernel void usmarr_cholesky_factor(global LA_T *a, global int *status, long n, int upper, long items)
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
    for (long j = 0; j < n; j++) {
        LA_R d = LA_RE(LA_AT(m, j, j));
        for (long q = 0; q < j; q++) {
            LA_T l = LA_AT(m, j, q);
            d -= LA_RE(LA_MUL(l, LA_CONJ(l)));
        }
        if (d <= 0) { /* NaN goes on, to NaN factors, as LAPACK */
            LA_FAIL(status, g);
            return;
        }
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
    LA_STORE(m, n)
}
#endif
