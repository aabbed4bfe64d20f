/* linalg_eig.cl: QR, eigh and SVD of stacks of matrices (lib/linalg/decomp.c, eigh.c, svd.c;
 * doc/linalg.md).
 *
 * One program per dtype: -DD0=<tag> (f32, f64, c64, c128), with -DLA_COMPLEX for the
 * complex ones.  One work-item owns one matrix of the stack (work-item z: matrix z) and
 * works on it in global memory, which the host lays out contiguously (C order, matrix z at
 * z * its size), so that no result depends on a neighbouring work-item or the vector width.
 * Kernels:
 *   usmarr_qr_householder Householder QR of an m x n matrix in place (LAPACK's geqr2 with
 *                        larfg's reflectors): R, and Q formed by backward accumulation.
 *   usmarr_qr_lanes       the same for real matrices with m, n <= LA_NMAX, LA_LANES a
 *                        work-item as the lanes of a vector, in private memory.
 *   usmarr_qrpanel_factor one panel of the blocked QR of large matrices: the panel's
 *                        reflectors and their block form I - V T Vᴴ.
 *   usmarr_eigh_jacobi    cyclic Jacobi on a Hermitian matrix (its lower triangle), at most
 *                        `sweeps` sweeps: eigenvalues ascending, eigenvectors optional.
 *   usmarr_eigh_lanes     the same for real matrices of order <= LA_NMAX, LA_LANES matrices a
 *                        work-item as the lanes of a vector, in private memory.
 *   usmarr_svd_jacobi     Householder QR of the tall form (Aᴴ when m < n), then one-sided
 *                        (Hestenes) Jacobi on R's columns, at most `sweeps` sweeps;
 *                        singular values descending, U and Vᴴ optional, U completed to an
 *                        orthonormal basis (full_matrices, or rank-deficient A) by the
 *                        reflectors and Gram-Schmidt.
 * A matrix with a NaN or an infinity gets NaN results.  Each work-item stores into
 * status[z] (the status words of usmarr__linalg_status_new) whether its iteration failed
 * to meet its tolerance within the host's limit `sweeps` (30; the host then reports
 * USMARR_ERROR_LINALG). */
#define LA_T USMARR_COMPUTE(D0)

#ifdef LA_COMPLEX
#define LA_R USMARR_REAL(D0)
#define LA_RE(z) ((z).x)
#define LA_IM(z) ((z).y)
#define LA_CONJ(z) ((LA_T)((z).x, -(z).y))
#define LA_MUL(a, b) ((LA_T)((a).x * (b).x - (a).y * (b).y, (a).x * (b).y + (a).y * (b).x))
/* conj(a) * b */
#define LA_CMUL(a, b) ((LA_T)((a).x * (b).x + (a).y * (b).y, (a).x * (b).y - (a).y * (b).x))
#define LA_ABS2(z) ((z).x * (z).x + (z).y * (z).y)
#define LA_ABS(z) hypot((z).x, (z).y)
#define LA_FROM(r) ((LA_T)((r), 0))
#define LA_FINITE(z) (isfinite((z).x) && isfinite((z).y))
#else
#define LA_R LA_T
#define LA_RE(z) (z)
#define LA_IM(z) ((LA_R)0)
#define LA_CONJ(z) (z)
#define LA_MUL(a, b) ((a) * (b))
#define LA_CMUL(a, b) ((a) * (b))
#define LA_ABS2(z) ((z) * (z))
#define LA_ABS(z) fabs(z)
#define LA_FROM(r) ((LA_T)(r))
#define LA_FINITE(z) isfinite(z)
#endif

#if defined(LA_DOUBLE)
#define LA_EPS DBL_EPSILON
#define LA_TINY DBL_MIN
#else
#define LA_EPS FLT_EPSILON
#define LA_TINY FLT_MIN
#endif

#define LA_NAN ((LA_R)NAN)

/* Whether every element of the m x n matrix a (row stride lda) is finite. */
inline bool la_finite(__global const LA_T *a, long m, long n, long lda)
{
    bool ok = true;
    for (long i = 0; i < m; i++)
        for (long j = 0; j < n; j++)
            ok &= LA_FINITE(a[i * lda + j]);
    return ok;
}

/* The 2-norm of n elements `step` apart, scaled against overflow and underflow. */
inline LA_R la_norm(__global const LA_T *x, long n, long step)
{
    LA_R big = 0, sum = 0;
    for (long i = 0; i < n; i++)
        big = fmax(big, LA_ABS(x[i * step]));
    if (big == 0 || !isfinite(big))
        return big;
    for (long i = 0; i < n; i++) {
        LA_T v = x[i * step] / big;
        sum += LA_ABS2(v);
    }
    return big * sqrt(sum);
}

/* rows (r x cols, row stride ld) = (I - t v vᴴ) rows, v (r elements, `step` apart, v[0]
 * taken as 1): w = vᴴ rows, then rows -= t v w; work: cols elements. */
inline void la_reflect(__global const LA_T *v, long r, long step, LA_T t, __global LA_T *rows, long cols, long ld,
                       __global LA_T *restrict work)
{
    for (long c = 0; c < cols; c++)
        work[c] = rows[c];
    for (long i = 1; i < r; i++) {
        LA_T vi = v[i * step];
        __global const LA_T *row = rows + i * ld;
        for (long c = 0; c < cols; c++)
            work[c] += LA_CMUL(vi, row[c]);
    }
    for (long c = 0; c < cols; c++) {
        work[c] = LA_MUL(t, work[c]);
        rows[c] -= work[c];
    }
    for (long i = 1; i < r; i++) {
        LA_T vi = v[i * step];
        __global LA_T *row = rows + i * ld;
        for (long c = 0; c < cols; c++)
            row[c] -= LA_MUL(vi, work[c]);
    }
}

/* Householder QR of the m x n matrix a (row stride lda) in place: R on and above the
 * diagonal, the reflectors' vectors v (v[0] = 1 implied) below it, their factors in tau.
 * H_j = I - tau_j v vᴴ; Hᴴ_{k-1} ... Hᴴ_0 A = R, so A = QR with Q = H_0 ... H_{k-1}.
 * work: n elements.  The trailing updates walk rows (contiguous), not columns. */
inline void la_householder(__global LA_T *a, long m, long n, long lda, __global LA_T *tau, __global LA_T *work)
{
    long k = min(m, n);
    for (long j = 0; j < k; j++) {
        __global LA_T *col = a + j * lda + j;
        /* the reflector of the column scaled by a power of two near its largest element:
         * no overflow or underflow in beta and 1 / (alpha - beta) (LAPACK's larfg rescales) */
        LA_R big = 0;
        for (long i = 0; i < m - j; i++)
            big = fmax(big, LA_ABS(col[i * lda]));
        if (big < LA_TINY) { /* zeros, or subnormal round-off: no reflection */
            tau[j] = LA_FROM(0);
            continue;
        }
        int ex;
        frexp(big, &ex);
        LA_R sc = ldexp((LA_R)1, -ex);
        LA_T alpha = col[0] * sc;
        LA_R xnorm = la_norm(col + lda, m - j - 1, lda) * sc;
        if (xnorm == 0 && LA_IM(alpha) == 0) {
            tau[j] = LA_FROM(0);
            continue;
        }
        LA_R beta = -copysign(hypot(LA_ABS(alpha), xnorm), LA_RE(alpha));
#ifdef LA_COMPLEX
        tau[j] = (LA_T)((beta - alpha.x) / beta, -alpha.y / beta);
        LA_T d = alpha - LA_FROM(beta); /* 1 / d = conj(d) / |d|^2 */
        LA_R d2 = LA_ABS2(d);
        LA_T scale = (LA_T)(d.x / d2, -d.y / d2) * sc;
#else
        tau[j] = (beta - alpha) / beta;
        LA_T scale = sc / (alpha - beta);
#endif
        beta /= sc;
        for (long i = 1; i < m - j; i++)
            col[i * lda] = LA_MUL(col[i * lda], scale);
        col[0] = LA_FROM(beta);
        la_reflect(col, m - j, lda, LA_CONJ(tau[j]), col + 1, n - j - 1, lda, work);
    }
}

/* q (m x qc, row stride ldq) = H_0 ... H_{k-1} q: the reflectors of la_householder's a
 * and tau applied from the left, the last first; work: qc elements. */
inline void la_apply_q(__global const LA_T *a, long m, long lda, __global const LA_T *tau, long k,
                       __global LA_T *q, long qc, long ldq, __global LA_T *work)
{
    for (long j = k - 1; j >= 0; j--) {
        LA_T t = tau[j];
        if (LA_RE(t) != 0 || LA_IM(t) != 0)
            la_reflect(a + j * lda + j, m - j, lda, t, q + j * ldq, qc, ldq, work);
    }
}

#if defined(LA_LANES) && !defined(LA_COMPLEX)
/* ---- real matrices of order <= LA_NMAX, LA_LANES a work-item (work-item g: matrices
 * g * LA_LANES + l) as the lanes of one vector, in private memory (rows LA_NMAX apart):
 * every step runs on LA_LANES matrices at once whatever the compiler does with
 * work-items.  A lane's own test decides each of its steps through selects, never a
 * branch, so that a matrix's results are what it gives alone.  The kernels take the
 * stack's `count` before the launcher's `items`; `a` is only read. */
/* LA_V, LA_VI, LA_LANE: cl/prelude.cl */
#define LA_VAT(m, i, j) m[(i) * LA_NMAX + (j)]

/* The rows x cols matrices of work-item g's lanes from the stack `a` into m's scalar view
 * ms, zeros in a lane past the stack or with an element that is not finite (*finite
 * false); `lower`: the symmetric matrix of the lower triangle (square matrices). */
inline void la_lanes_load(__private LA_R *ms, __private bool *finite, __global const LA_R *a, long g, long rows,
                          long cols, long count, bool lower)
{
    for (int l = 0; l < LA_LANES; l++) {
        long z = g * LA_LANES + l;
        __global const LA_R *az = a + z * rows * cols;
        bool ok = z < count;
        for (long i = 0; ok && i < rows; i++)
            for (long j = 0; j < (lower ? i + 1 : cols); j++)
                ok &= isfinite(az[i * cols + j]);
        finite[l] = ok;
        for (long i = 0; i < rows; i++)
            for (long j = 0; j < cols; j++)
                LA_LANE(ms, i * LA_NMAX + j, l) = !ok ? 0 : lower && j > i ? az[j * cols + i] : az[i * cols + j];
    }
}

/* The 2-norm of n elements `step` apart of each lane, scaled as la_norm. */
inline LA_V la_vnorm(__private const LA_V *x, long n, long step)
{
    LA_V big = 0, sum = 0;
    for (long i = 0; i < n; i++)
        big = fmax(big, fabs(x[i * step]));
    LA_V inv = 1 / select((LA_V)1, big, big > 0);
    for (long i = 0; i < n; i++) {
        LA_V v = x[i * step] * inv;
        sum += v * v;
    }
    return big * sqrt(sum);
}

/* la_reflect on every lane: rows (r x cols, rows LA_NMAX apart) -= t v (vᵀ rows), v (r
 * elements LA_NMAX apart, v[0] taken as 1); lanes where `on` is clear keep their rows. */
inline void la_vreflect(__private const LA_V *v, long r, LA_V t, __private LA_V *rows, long cols, LA_VI on)
{
    for (long c = 0; c < cols; c++) {
        LA_V w = rows[c];
        for (long i = 1; i < r; i++)
            w += v[i * LA_NMAX] * rows[i * LA_NMAX + c];
        w *= t;
        rows[c] = select(rows[c], rows[c] - w, on);
        for (long i = 1; i < r; i++)
            rows[i * LA_NMAX + c] = select(rows[i * LA_NMAX + c], rows[i * LA_NMAX + c] - v[i * LA_NMAX] * w, on);
    }
}
#endif

#if USMARR_WANT(qr)
/* a: the stack's (m, n) matrices, destroyed; tau: min(m, n) + max(n, qc) per matrix (the
 * factors, then work); q: (m, qc) per matrix (qc = min(m, n) reduced, m complete); r:
 * (qc, n). */
__kernel USMARR_ONE_PER_LANE void usmarr_qr_householder(__global LA_T *a, __global LA_T *tau, __global LA_T *q,
                                                        __global LA_T *r, long m, long n, long qc, long count)
{
    long z = (long)get_global_id(0);
    if (z >= count)
        return;
    long k = min(m, n);
    a += z * m * n;
    tau += z * (k + max(n, qc));
    __global LA_T *work = tau + k;
    q += z * m * qc;
    r += z * qc * n;
    bool finite = la_finite(a, m, n, n);
    if (finite)
        la_householder(a, m, n, n, tau, work);
    for (long i = 0; i < qc; i++)
        for (long c = 0; c < n; c++)
            r[i * n + c] = !finite ? LA_FROM(LA_NAN) : c >= i ? a[i * n + c] : LA_FROM(0);
    for (long i = 0; i < m; i++)
        for (long c = 0; c < qc; c++)
            q[i * qc + c] = !finite ? LA_FROM(LA_NAN) : LA_FROM(i == c ? 1 : 0);
    if (finite)
        la_apply_q(a, m, n, tau, k, q, qc, qc, work);
}
#endif

#if USMARR_WANT(qr) && defined(LA_LANES) && !defined(LA_COMPLEX)
/* usmarr_qr_householder for real matrices with m, n <= LA_NMAX, LA_LANES a work-item: the
 * same reflectors (a lane without one, as la_householder's `continue`, keeps its rows by
 * selects), kept in private memory; tau is not used. */
__kernel USMARR_ONE_PER_LANE void usmarr_qr_lanes(__global const LA_R *a, __global LA_R *tau, __global LA_R *q,
                                                  __global LA_R *r, long m, long n, long qc, long count, long items)
{
    long g = (long)get_global_id(0);
    if (g >= items)
        return;
    LA_V x[LA_NMAX * LA_NMAX], qm[LA_NMAX * LA_NMAX], t[LA_NMAX];
    LA_VI on[LA_NMAX];
    bool finite[LA_LANES];
    __private LA_R *xs = (__private LA_R *)x, *qs = (__private LA_R *)qm;
    la_lanes_load(xs, finite, a, g, m, n, count, false);
    long k = min(m, n);
    for (long j = 0; j < k; j++) {
        __private LA_V *col = &LA_VAT(x, j, j);
        LA_V big = 0;
        for (long i = 0; i < m - j; i++)
            big = fmax(big, fabs(col[i * LA_NMAX]));
        /* sc = 2^-e with big in [2^(e-1), 2^e) (frexp's e), at most 2^-(LA_BIAS - 1): a
         * normal number, with integer operations (no library call per lane) */
        LA_VI e = min(((USMARR_CAT(as_, LA_VI)(big) >> LA_MANT) & LA_EMASK) - LA_BIAS + 1, (LA_VI)(LA_BIAS - 1));
        LA_V sc = USMARR_CAT(as_, LA_V)((LA_BIAS - e) << LA_MANT);
        LA_V alpha = col[0] * sc, xnorm = la_vnorm(col + LA_NMAX, m - j - 1, LA_NMAX) * sc;
        /* zeros, or subnormal round-off, or nothing below alpha: no reflection */
        on[j] = isgreaterequal(big, (LA_V)LA_TINY) & (xnorm != 0);
        /* |alpha| <= 1 and xnorm <= sqrt(m): no overflow without hypot */
        LA_V beta = -copysign(sqrt(alpha * alpha + xnorm * xnorm), alpha);
        t[j] = select((LA_V)0, (beta - alpha) / beta, on[j]);
        LA_V scale = sc / (alpha - beta);
        for (long i = 1; i < m - j; i++)
            col[i * LA_NMAX] = select(col[i * LA_NMAX], col[i * LA_NMAX] * scale, on[j]);
        col[0] = select(col[0], beta / sc, on[j]);
        la_vreflect(col, m - j, t[j], col + 1, n - j - 1, on[j]);
    }
    for (long i = 0; i < m; i++)
        for (long c = 0; c < qc; c++)
            LA_VAT(qm, i, c) = (LA_V)(i == c ? 1 : 0);
    for (long j = k - 1; j >= 0; j--)
        la_vreflect(&LA_VAT(x, j, j), m - j, t[j], &LA_VAT(qm, j, 0), qc, on[j]);
    for (int l = 0; l < LA_LANES; l++) {
        long z = g * LA_LANES + l;
        if (z >= count)
            break;
        __global LA_R *rz = r + z * qc * n, *qz = q + z * m * qc;
        for (long i = 0; i < qc; i++)
            for (long c = 0; c < n; c++)
                rz[i * n + c] = !finite[l] ? LA_NAN : c >= i ? LA_LANE(xs, i * LA_NMAX + c, l) : 0;
        for (long i = 0; i < m; i++)
            for (long c = 0; c < qc; c++)
                qz[i * qc + c] = finite[l] ? LA_LANE(qs, i * LA_NMAX + c, l) : LA_NAN;
    }
}
#endif

#if USMARR_WANT(qrpanel)
/* One panel of the blocked QR (lib/linalg/qr_blocked.c), one work-item: the panel a (rows x
 * w, row stride lda) factored in place (la_householder), its reflectors written out as V
 * (rows x w, C order, unit lower trapezoid) and T (w x w, C order, upper triangular) with
 * H_0 ... H_{w-1} = I - V T Vᴴ (LAPACK's larft, forward and columnwise).  tau: w;
 * work: w. */
__kernel void usmarr_qrpanel_factor(__global LA_T *a, long lda, long rows, long w, __global LA_T *tau,
                                    __global LA_T *work, __global LA_T *vm, __global LA_T *t, long count)
{
    if ((long)get_global_id(0) >= count)
        return;
    la_householder(a, rows, w, lda, tau, work);
    for (long r = 0; r < rows; r++)
        for (long c = 0; c < w; c++)
            vm[r * w + c] = r == c ? LA_FROM(1) : r > c ? a[r * lda + c] : LA_FROM(0);
    for (long i = 0; i < w; i++) {
        for (long j = 0; j < i; j++) { /* work[j] = V[:, j]ᴴ v_i */
            LA_T y = LA_FROM(0);
            for (long r = i; r < rows; r++)
                y += LA_CMUL(vm[r * w + j], vm[r * w + i]);
            work[j] = y;
        }
        for (long j = 0; j < i; j++) { /* T[0:i, i] = -tau_i T[0:i, 0:i] work */
            LA_T x = LA_FROM(0);
            for (long l = j; l < i; l++)
                x += LA_MUL(t[j * w + l], work[l]);
            t[j * w + i] = -LA_MUL(tau[i], x);
        }
        t[i * w + i] = tau[i];
        for (long j = i + 1; j < w; j++)
            t[j * w + i] = LA_FROM(0);
    }
}
#endif

/* The rotation that annihilates the (p, q) element g of a 2 x 2 Hermitian [[app, g],
 * [conj g, aqq]]: new column p = c col_p - s conj(e) col_q, new column q = s e col_p +
 * c col_q, where e = g / |g|.  False when g is negligible (no rotation): |g| <= tol
 * sqrt(|app aqq|) (relative), or |g| <= floor (absolute: what rounding leaves behind). */
inline bool la_rotation(LA_R app, LA_R aqq, LA_T g, LA_R tol, LA_R floor, LA_R *c, LA_R *s, LA_T *e)
{
    LA_R ag = LA_ABS(g), prod = fabs(app) * fabs(aqq);
    /* |g| against tol sqrt(|app aqq|); by two roots where the product leaves the range */
    LA_R limit = isnormal(prod) ? tol * sqrt(prod) : tol * sqrt(fabs(app)) * sqrt(fabs(aqq));
    if (!(ag > limit) || ag <= floor || ag < LA_TINY)
        return false;
    LA_R tau = (aqq - app) / (2 * ag);
    /* the smaller root of t^2 + 2 tau t - 1; 1 / (2 tau) where tau^2 would overflow */
    LA_R t = fabs(tau) < 1 / LA_EPS ? (tau >= 0 ? 1 : -1) / (fabs(tau) + sqrt(1 + tau * tau)) : 1 / (2 * tau);
    *c = 1 / sqrt(1 + t * t);
    *s = t * *c;
    *e = g / ag;
    return true;
}

/* Columns x and y (n elements, `step` apart) rotated as la_rotation says. */
inline void la_rotate(__global LA_T *restrict x, __global LA_T *restrict y, long n, long step, LA_R c, LA_R s, LA_T e)
{
    LA_T se = e * s, sce = LA_CONJ(e) * s;
    for (long i = 0; i < n; i++) {
        LA_T xp = x[i * step], yq = y[i * step];
        x[i * step] = xp * c - LA_MUL(sce, yq);
        y[i * step] = LA_MUL(se, xp) + yq * c;
    }
}

#if USMARR_WANT(eigh)
/* The eigenvalues w ascending, the rows of v (eigenvectors as rows: Vᵀ) with them
 * (selection sort: n swaps at most), then Vᵀ to V. */
inline void la_sort_eigen(__global LA_R *w, __global LA_T *v, long n, int want_v)
{
    for (long i = 0; i < n - 1; i++) {
        long best = i;
        for (long j = i + 1; j < n; j++)
            if (w[j] < w[best])
                best = j;
        if (best == i)
            continue;
        LA_R tmp = w[i];
        w[i] = w[best];
        w[best] = tmp;
        for (long r = 0; want_v && r < n; r++) {
            LA_T x = v[i * n + r];
            v[i * n + r] = v[best * n + r];
            v[best * n + r] = x;
        }
    }
    for (long i = 0; want_v && i < n; i++)
        for (long j = 0; j < i; j++) {
            LA_T x = v[i * n + j];
            v[i * n + j] = v[j * n + i];
            v[j * n + i] = x;
        }
}

/* a: the stack's (n, n) Hermitian matrices (the lower triangle is read), destroyed;
 * w: n eigenvalues per matrix, ascending; v: (n, n) eigenvectors (columns) per matrix, or
 * unused when want_v is 0; status: one word per matrix. */
__kernel USMARR_ONE_PER_LANE void usmarr_eigh_jacobi(__global LA_T *a, __global LA_R *w, __global LA_T *v,
                                                     __global int *status, long n, int want_v, int sweeps,
                                                     long count)
{
    long z = (long)get_global_id(0);
    if (z >= count)
        return;
    a += z * n * n;
    w += z * n;
    v += want_v ? z * n * n : 0;
    bool finite = true;
    for (long i = 0; i < n; i++)
        for (long j = 0; j <= i; j++)
            finite &= LA_FINITE(a[i * n + j]);
    if (!finite) {
        for (long i = 0; i < n; i++)
            w[i] = LA_NAN;
        for (long i = 0; want_v && i < n * n; i++)
            v[i] = LA_FROM(LA_NAN);
        status[z] = 0;
        return;
    }
    /* the Hermitian matrix from its lower triangle; the diagonal's imaginary parts ignored */
    for (long i = 0; i < n; i++) {
        a[i * n + i] = LA_FROM(LA_RE(a[i * n + i]));
        for (long j = 0; j < i; j++)
            a[j * n + i] = LA_CONJ(a[i * n + j]);
    }
    for (long i = 0; want_v && i < n; i++)
        for (long j = 0; j < n; j++)
            v[i * n + j] = LA_FROM(i == j ? 1 : 0);
    /* off-diagonal elements below eps |A|_F / n are what rounding leaves: together at most
     * eps |A|_F, so that skipping them keeps the residual bound and ends the sweeps */
    LA_R floor = LA_EPS * la_norm(a, n * n, 1) / (LA_R)max(n, 1L);
    bool rotated = true;
    for (int sweep = 0; sweep < sweeps && rotated; sweep++) {
        rotated = false;
        for (long p = 0; p < n - 1; p++)
            for (long q = p + 1; q < n; q++) {
                LA_R c, s;
                LA_T e;
                if (!la_rotation(LA_RE(a[p * n + p]), LA_RE(a[q * n + q]), a[p * n + q], LA_EPS, floor, &c, &s, &e))
                    continue;
                rotated = true;
                LA_R t = s / c, g = LA_ABS(a[p * n + q]);
                LA_R app = LA_RE(a[p * n + p]) - t * g, aqq = LA_RE(a[q * n + q]) + t * g;
                /* rows p and q of Jᴴ A J are those of Jᴴ A off columns p and q; its columns
                 * p and q are their conjugates (Hermitian): rows rotated, columns copied */
                la_rotate(a + p * n, a + q * n, n, 1, c, s, LA_CONJ(e));
                a[p * n + p] = LA_FROM(app);
                a[q * n + q] = LA_FROM(aqq);
                a[p * n + q] = a[q * n + p] = LA_FROM(0);
                for (long r = 0; r < n; r++)
                    if (r != p && r != q) {
                        a[r * n + p] = LA_CONJ(a[p * n + r]);
                        a[r * n + q] = LA_CONJ(a[q * n + r]);
                    }
                if (want_v) /* v holds Vᵀ: V's columns are its rows */
                    la_rotate(v + p * n, v + q * n, n, 1, c, s, e);
            }
    }
    status[z] = rotated;
    for (long i = 0; i < n; i++)
        w[i] = LA_RE(a[i * n + i]);
    la_sort_eigen(w, v, n, want_v);
}
#endif

#if USMARR_WANT(eigh) && !defined(LA_COMPLEX) && defined(LA_LANES)
/* Real symmetric matrices of order n <= LA_NMAX, LA_LANES of them per work-item as the
 * lanes of one vector (work-item g: matrices g * LA_LANES + l), so that every step runs on
 * LA_LANES matrices at once whatever the compiler does with work-items.  Cyclic Jacobi in
 * the round-robin order: a round rotates n / 2 disjoint pairs, whose rotations are
 * independent (their square roots and divisions overlap) and are applied to the rows, then
 * the columns, of the matrix in private memory.  A lane takes a rotation only where its own
 * test says so (selects, not branches: a lane that skips keeps its values bit for bit), so
 * that a matrix's results are what it gives alone: a lane whose sweep rotated nothing is
 * left unchanged by the sweeps its neighbours still need.  The arguments are
 * usmarr_eigh_jacobi's; `a` is only read. */

/* Pair k of round r of the round-robin order on m2 (even) indices: (r, m2 - 1), then
 * (r + k, r - k) modulo m2 - 1; smaller first. */
inline void la_round_pair(long m2, long r, long k, long *p, long *q)
{
    long x = k == 0 ? r : (r + k) % (m2 - 1), y = k == 0 ? m2 - 1 : (r - k + m2 - 1) % (m2 - 1);
    *p = min(x, y);
    *q = max(x, y);
}

/* x, y (stride `step`, n elements) <- c x - s y, s x + c y where `on`, kept elsewhere. */
inline void la_vrotate(__private LA_V *x, __private LA_V *y, long n, long step, LA_V c, LA_V s, LA_VI on)
{
    for (long i = 0; i < n; i++) {
        LA_V xi = x[i * step], yi = y[i * step];
        x[i * step] = select(xi, c * xi - s * yi, on);
        y[i * step] = select(yi, s * xi + c * yi, on);
    }
}

__kernel USMARR_ONE_PER_LANE void usmarr_eigh_lanes(__global const LA_R *a, __global LA_R *w, __global LA_R *v,
                                                    __global int *status, long n, int want_v, int sweeps, long count,
                                                    long items)
{
    long g = (long)get_global_id(0);
    if (g >= items)
        return;
    LA_V m[LA_NMAX * LA_NMAX], vt[LA_NMAX * LA_NMAX]; /* vt: the eigenvectors as rows */
    __private LA_R *ms = (__private LA_R *)m, *vs = (__private LA_R *)vt;
    bool finite[LA_LANES];
    la_lanes_load(ms, finite, a, g, n, n, count, true);
    for (long i = 0; i < n; i++)
        for (long j = 0; want_v && j < n; j++)
            LA_VAT(vt, i, j) = (LA_V)(i == j ? 1 : 0);
    /* off-diagonal elements below eps |A|_F / n are what rounding leaves (usmarr_eigh_jacobi) */
    LA_V big = 0, sum = 0;
    for (long i = 0; i < n; i++)
        for (long j = 0; j < n; j++)
            big = fmax(big, fabs(LA_VAT(m, i, j)));
    LA_V scale = select((LA_V)1, big, big > 0);
    for (long i = 0; i < n; i++)
        for (long j = 0; j < n; j++) {
            LA_V x = LA_VAT(m, i, j) / scale;
            sum += x * x;
        }
    LA_V floor = LA_EPS * (big * sqrt(sum)) / (LA_R)max(n, 1L);
    long m2 = n + (n & 1), pairs = m2 / 2;
    LA_VI rotated = -1;
    for (int sweep = 0; sweep < sweeps && any(rotated); sweep++) {
        rotated = 0;
        for (long r = 0; r < m2 - 1; r++) {
            LA_V c[LA_NMAX / 2], s[LA_NMAX / 2], app[LA_NMAX / 2], aqq[LA_NMAX / 2];
            LA_VI on[LA_NMAX / 2];
            long pk[LA_NMAX / 2], qk[LA_NMAX / 2];
            for (long k = 0; k < pairs; k++) { /* the round's rotations (la_rotation) */
                long p, q;
                la_round_pair(m2, r, k, &p, &q);
                pk[k] = p;
                qk[k] = q;
                if (q >= n) /* odd n: the pair with the extra index */
                    continue;
                LA_V ap = LA_VAT(m, p, p), aq = LA_VAT(m, q, q), gpq = LA_VAT(m, p, q), ag = fabs(gpq);
                on[k] = isgreater(ag, floor) & isgreaterequal(ag, (LA_V)LA_TINY);
                if (!any(on[k])) { /* no lane rotates (the common case of the last sweeps): */
                    qk[k] = n;     /* the pair is left out, which changes nothing */
                    continue;
                }
                LA_V prod = fabs(ap) * fabs(aq);
                LA_V limit = select(LA_EPS * sqrt(fabs(ap)) * sqrt(fabs(aq)), LA_EPS * sqrt(prod), isnormal(prod));
                on[k] &= isgreater(ag, limit);
                LA_V tau = (aq - ap) / (2 * ag), at = fabs(tau);
                LA_V t = select(1 / (2 * tau), select((LA_V)-1, (LA_V)1, isgreaterequal(tau, 0)) /
                                                     (at + sqrt(1 + tau * tau)),
                                isless(at, (LA_V)(1 / LA_EPS)));
                t = select((LA_V)0, t, on[k]);
                LA_V ck = 1 / sqrt(1 + t * t);
                c[k] = ck;
                s[k] = select(-(t * ck), t * ck, isgreaterequal(gpq, 0)); /* s e, e = sign(a_pq) */
                app[k] = ap - t * ag;
                aqq[k] = aq + t * ag;
                rotated |= on[k];
            }
            for (long k = 0; k < pairs; k++) { /* rows p and q: Jᵀ A, and Vᵀ's */
                long p = pk[k], q = qk[k];
                if (q >= n)
                    continue;
                la_vrotate(&LA_VAT(m, p, 0), &LA_VAT(m, q, 0), n, 1, c[k], s[k], on[k]);
                if (want_v)
                    la_vrotate(&LA_VAT(vt, p, 0), &LA_VAT(vt, q, 0), n, 1, c[k], s[k], on[k]);
            }
            for (long k = 0; k < pairs; k++) { /* columns p and q: (Jᵀ A) J */
                long p = pk[k], q = qk[k];
                if (q >= n)
                    continue;
                la_vrotate(&LA_VAT(m, 0, p), &LA_VAT(m, 0, q), n, LA_NMAX, c[k], s[k], on[k]);
            }
            for (long k = 0; k < pairs; k++) { /* the pair's 2 x 2 block, diagonalised */
                long p = pk[k], q = qk[k];
                if (q >= n)
                    continue;
                LA_VAT(m, p, p) = select(LA_VAT(m, p, p), app[k], on[k]);
                LA_VAT(m, q, q) = select(LA_VAT(m, q, q), aqq[k], on[k]);
                LA_VAT(m, p, q) = select(LA_VAT(m, p, q), (LA_V)0, on[k]);
                LA_VAT(m, q, p) = select(LA_VAT(m, q, p), (LA_V)0, on[k]);
            }
        }
    }
    /* per lane: the eigenvalues and the rows of Vᵀ out, then la_sort_eigen; NaN for a
     * matrix that was not finite */
    for (int l = 0; l < LA_LANES; l++) {
        long z = g * LA_LANES + l;
        if (z >= count)
            break;
        for (long i = 0; i < n; i++)
            w[z * n + i] = finite[l] ? LA_LANE(ms, i * LA_NMAX + i, l) : LA_NAN;
        for (long i = 0; want_v && i < n; i++)
            for (long j = 0; j < n; j++)
                v[z * n * n + i * n + j] = finite[l] ? LA_LANE(vs, i * LA_NMAX + j, l) : LA_NAN;
        if (finite[l])
            la_sort_eigen(w + z * n, v + (want_v ? z * n * n : 0), n, want_v);
        status[z] = finite[l] && ((__private LA_VS *)&rotated)[l] != 0;
    }
}
#endif

#if USMARR_WANT(svd)
/* The singular values of A (m x n; mt = max, nt = min) into s, descending, and when want_uv
 * U and Vᴴ.  The work is on B = A (m >= n) or B = Aᴴ (m < n), mt x nt: B = Q [R; 0],
 * R V = G by one-sided Jacobi (G's columns orthogonal), so B = (Q [G Σ⁻¹; 0]) Σ Vᴴ.
 * a: the stack's (m, n) matrices, read only; ws: per matrix mt*nt (B, then the reflectors
 * and R) + nt (tau) + 2*nt*nt (G and V, column-major) + mt*uc (U of B, row-major, with
 * want_uv) + max(nt, uc) (work); uc: the
 * columns of B's U (nt, or mt for full_matrices).  u: B's U (m >= n) or V (m < n); vh: the
 * other one's conjugate transpose. */
__kernel USMARR_ONE_PER_LANE void usmarr_svd_jacobi(__global const LA_T *a, __global LA_T *ws, __global LA_R *s,
                                                    __global LA_T *u, __global LA_T *vh, __global int *status, long m,
                                                    long n, long uc, int want_uv, int sweeps, long count)
{
    long z = (long)get_global_id(0);
    if (z >= count)
        return;
    bool tall = m >= n;
    long mt = tall ? m : n, nt = tall ? n : m;
    long usize = tall ? mt * uc : nt * nt, vhsize = tall ? nt * nt : uc * mt;
    a += z * m * n;
    ws += z * (mt * nt + nt + 2 * nt * nt + (want_uv ? mt * uc : 0) + max(nt, uc));
    __global LA_T *b = ws, *tau = b + mt * nt, *g = tau + nt, *v = g + nt * nt, *ub = v + nt * nt;
    __global LA_T *work = ub + (want_uv ? mt * uc : 0);
    s += z * nt;
    u += want_uv ? z * usize : 0;
    vh += want_uv ? z * vhsize : 0;
    if (!la_finite(a, m, n, n)) {
        for (long i = 0; i < nt; i++)
            s[i] = LA_NAN;
        for (long i = 0; want_uv && i < usize; i++)
            u[i] = LA_FROM(LA_NAN);
        for (long i = 0; want_uv && i < vhsize; i++)
            vh[i] = LA_FROM(LA_NAN);
        status[z] = 0;
        return;
    }
    for (long i = 0; i < mt; i++)
        for (long j = 0; j < nt; j++)
            b[i * nt + j] = tall ? a[i * n + j] : LA_CONJ(a[j * n + i]);
    la_householder(b, mt, nt, nt, tau, work);
    for (long c = 0; c < nt; c++)
        for (long i = 0; i < nt; i++) {
            g[c * nt + i] = i <= c ? b[i * nt + c] : LA_FROM(0);
            v[c * nt + i] = LA_FROM(i == c ? 1 : 0);
        }
    LA_R tol = LA_EPS * sqrt((LA_R)max(nt, 1L));
    /* columns below eps |R|_F are round-off: not rotated (Jacobi would chase the rounding
     * of their dot products forever), and their U columns are completed as zero ones */
    LA_R noise = LA_EPS * la_norm(g, nt * nt, 1);
    bool rotated = true;
    for (int sweep = 0; sweep < sweeps && rotated; sweep++) {
        rotated = false;
        for (long p = 0; p < nt - 1; p++)
            for (long q = p + 1; q < nt; q++) {
                __global LA_T *gp = g + p * nt, *gq = g + q * nt;
                LA_R alpha = 0, beta = 0;
                LA_T gamma = LA_FROM(0);
                for (long i = 0; i < nt; i++) {
                    alpha += LA_ABS2(gp[i]);
                    beta += LA_ABS2(gq[i]);
                    gamma += LA_CMUL(gp[i], gq[i]);
                }
                LA_R c, sn;
                LA_T e;
                if (sqrt(alpha) <= noise || sqrt(beta) <= noise)
                    continue;
                /* the computed gamma carries rounding of sqrt(nt) eps |g_p| |g_q| (LAPACK's
                 * gesvj takes the same tolerance) */
                if (!la_rotation(alpha, beta, gamma, tol, 0, &c, &sn, &e))
                    continue;
                rotated = true;
                la_rotate(gp, gq, nt, 1, c, sn, e);
                if (want_uv)
                    la_rotate(v + p * nt, v + q * nt, nt, 1, c, sn, e);
            }
    }
    status[z] = rotated;
    for (long c = 0; c < nt; c++)
        s[c] = la_norm(g + c * nt, nt, 1);
    /* descending, the columns of G and V with their values */
    for (long i = 0; i < nt - 1; i++) {
        long best = i;
        for (long j = i + 1; j < nt; j++)
            if (s[j] > s[best])
                best = j;
        if (best == i)
            continue;
        LA_R tmp = s[i];
        s[i] = s[best];
        s[best] = tmp;
        for (long r = 0; want_uv && r < nt; r++) {
            LA_T x = g[i * nt + r];
            g[i * nt + r] = g[best * nt + r];
            g[best * nt + r] = x;
            x = v[i * nt + r];
            v[i * nt + r] = v[best * nt + r];
            v[best * nt + r] = x;
        }
    }
    if (!want_uv)
        return;
    /* G Σ⁻¹; a zero column (or one of round-off, or of subnormal values, whose direction
     * has lost its precision) becomes the unit vector least in the span of the others, orthogonalised
     * against them (twice) */
    for (long c = 0; c < nt; c++) {
        __global LA_T *gc = g + c * nt;
        if (s[c] >= LA_TINY / LA_EPS && s[c] > noise) {
            for (long i = 0; i < nt; i++)
                gc[i] = gc[i] / s[c];
            continue;
        }
        long best = 0;
        LA_R best_norm = -1;
        for (long k = 0; k <= nt; k++) {
            long unit = k < nt ? k : best; /* the last pass redoes the best */
            for (long i = 0; i < nt; i++)
                gc[i] = LA_FROM(i == unit ? 1 : 0);
            for (int pass = 0; pass < 2; pass++)
                for (long j = 0; j < c; j++) {
                    __global LA_T *gj = g + j * nt;
                    LA_T d = LA_FROM(0);
                    for (long i = 0; i < nt; i++)
                        d += LA_CMUL(gj[i], gc[i]);
                    for (long i = 0; i < nt; i++)
                        gc[i] -= LA_MUL(gj[i], d);
                }
            LA_R norm = la_norm(gc, nt, 1);
            if (k < nt && norm > best_norm) {
                best_norm = norm;
                best = k;
            } else if (k == nt) {
                for (long i = 0; i < nt; i++)
                    gc[i] = gc[i] / norm;
            }
        }
    }
    for (long i = 0; i < mt; i++)
        for (long c = 0; c < uc; c++)
            ub[i * uc + c] = i < nt && c < nt ? g[c * nt + i] : LA_FROM(i == c ? 1 : 0);
    la_apply_q(b, mt, nt, tau, nt, ub, uc, uc, work);
    if (tall) {
        for (long i = 0; i < usize; i++)
            u[i] = ub[i];
        for (long i = 0; i < nt; i++)
            for (long j = 0; j < nt; j++)
                vh[i * nt + j] = LA_CONJ(v[i * nt + j]);
    } else {
        for (long i = 0; i < nt; i++)
            for (long j = 0; j < nt; j++)
                u[i * nt + j] = v[j * nt + i];
        for (long i = 0; i < uc; i++)
            for (long j = 0; j < mt; j++)
                vh[i * mt + j] = LA_CONJ(ub[j * uc + i]);
    }
}
#endif
