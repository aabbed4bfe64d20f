/* linalg_tridiag.cl: eigh of Hermitian matrices of large order (lib/linalg/eigh_blocked.c;
 * doc/linalg.md, "QR, eigh and SVD").
 *
 * One program per dtype: -DD0=<tag> (f32, f64, c64, c128), -DLA_COMPLEX for the complex
 * ones, -DLA_DOUBLE for f64 and c128, -DLA_GROUP (the panel's work-group) and -DLA_NB (the
 * panel's columns).  One matrix at a time, n x n, row-major.  The reduction T = Qᴴ A Q
 * (T real: larfg's beta is) runs in panels of LA_NB columns (LAPACK's hetrd and latrd):
 * the panel's reflectors by one work-group here, the trailing matrix's rank-2 LA_NB update
 * A -= V Wᴴ + W Vᴴ by the library's matmul.  Then implicit QL on T records its rotations,
 * which work-items apply to a real Z = I; the eigenvectors are Q Zᵀ, Q's block reflectors
 * applied by matmul.
 * Kernels:
 *   usmarr_tridiag_mirror  one work-item a row: the lower triangle copied into the upper;
 *                          flag[i] = 1 where row i holds a NaN or an infinity.
 *   usmarr_tridiag_panel   one work-group of LA_GROUP: the reflectors of LA_NB columns.
 *   usmarr_tridiag_ql      one work-item: implicit QL on T, rotations recorded.
 *   usmarr_tridiag_rotate  one work-item 64 columns of Z: the recorded rotations.
 *   usmarr_tridiag_gather  one work-item a row of M: M = Z's rows, sorted, transposed.
 * Every work-item's arithmetic is its own, in one order: no result depends on the vector
 * width or on a neighbouring lane; the panel's sums are trees of the fixed LA_GROUP. */
#define LA_T USMARR_COMPUTE(D0)
#ifdef LA_COMPLEX
#define LA_R USMARR_REAL(D0)
#define LA_MUL(a, b) ((LA_T)((a).x * (b).x - (a).y * (b).y, (a).x * (b).y + (a).y * (b).x))
#define LA_CONJ(z) ((LA_T)((z).x, -(z).y))
#define LA_RE(z) ((z).x)
#define LA_IM(z) ((z).y)
#define LA_FROM(r) ((LA_T)((r), 0))
#define LA_FINITE(z) (isfinite((z).x) && isfinite((z).y))
#define LA_BIG(z) fmax(fabs((z).x), fabs((z).y))
#else
#define LA_R LA_T
#define LA_MUL(a, b) ((a) * (b))
#define LA_CONJ(z) (z)
#define LA_RE(z) (z)
#define LA_IM(z) ((LA_R)0)
#define LA_FROM(r) ((LA_T)(r))
#define LA_FINITE(z) isfinite(z)
#define LA_BIG(z) fabs(z)
#endif
#if defined(LA_DOUBLE)
#define LA_T8 double8
#define LA_R8 double8
#define LA_EPS DBL_EPSILON
#define LA_TINY DBL_MIN
#else
#define LA_T8 float8
#define LA_R8 float8
#define LA_EPS FLT_EPSILON
#define LA_TINY FLT_MIN
#endif

#if USMARR_WANT(tridiag) || USMARR_WANT(bidiag)
#if LA_GROUP < 2 * LA_NB
#error "the panel's work-group computes 2 LA_NB dot products at once"
#endif

/* The sum (or the largest) of x over the work-group, in every work-item. */
inline LA_R la_group_reduce(__local LA_R *red, LA_R x, bool largest)
{
    int lid = (int)get_local_id(0);
    barrier(CLK_LOCAL_MEM_FENCE);
    red[lid] = x;
    for (int h = LA_GROUP / 2; h > 0; h /= 2) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid < h)
            red[lid] = largest ? fmax(red[lid], red[lid + h]) : red[lid] + red[lid + h];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    return red[0];
}

/* x · y (conj(x) · y when `conj`) over `len` elements in one fixed order: real ones eight
 * at a time, then the tail. */
inline LA_T la_dot(__global const LA_T *x, __global const LA_T *y, long len, bool conj)
{
#ifdef LA_COMPLEX
    LA_T s = 0;
    for (long k = 0; k < len; k++)
        s += LA_MUL(conj ? LA_CONJ(x[k]) : x[k], y[k]);
    return s;
#else
    (void)conj;
    LA_T8 acc = 0;
    long k = 0;
    for (; k + 8 <= len; k += 8)
        acc += vload8(0, x + k) * vload8(0, y + k);
    LA_T s = ((acc.s0 + acc.s1) + (acc.s2 + acc.s3)) + ((acc.s4 + acc.s5) + (acc.s6 + acc.s7));
    for (; k < len; k++)
        s += x[k] * y[k];
    return s;
#endif
}


/* larfg over x (len elements `stride` apart, conjugated first when `conj`): the reflector
 * H = I - tau v vᴴ with Hᴴ x = beta e1, beta real, v = (1, x[1:] scale); x is scaled by a
 * power of two first, so that neither beta nor 1 / (alpha - beta) overflows or
 * underflows; a subnormal x, or one that is beta e1 already, keeps tau = 0.  In every
 * work-item of the group. */
inline void la_larfg(__local LA_R *red, __global const LA_T *x, long len, long stride, bool conj, LA_T *tau,
                     LA_T *scale, LA_R *beta)
{
    int lid = (int)get_local_id(0);
    LA_R big = 0, ss = 0;
    for (long i = lid; i < len; i += LA_GROUP)
        big = fmax(big, LA_BIG(x[i * stride]));
    big = la_group_reduce(red, big, true);
    int ex;
    frexp(big, &ex);
    LA_R sc = ldexp((LA_R)1, -ex);
    for (long i = 1 + lid; i < len; i += LA_GROUP) {
        LA_T y = x[i * stride] * sc;
        ss += LA_RE(LA_MUL(LA_CONJ(y), y));
    }
    ss = la_group_reduce(red, ss, false);
    LA_T alpha = len > 0 ? (conj ? LA_CONJ(x[0]) : x[0]) * sc : LA_FROM(0);
    *tau = *scale = LA_FROM(0);
    *beta = len > 0 ? LA_RE(x[0]) : 0;
    if (big >= LA_TINY && (ss > 0 || LA_IM(alpha) != 0)) {
        LA_R ar = LA_RE(alpha), bs = -copysign(sqrt(LA_RE(LA_MUL(LA_CONJ(alpha), alpha)) + ss), ar);
        LA_T den = alpha - LA_FROM(bs);
        LA_R den2 = LA_RE(LA_MUL(LA_CONJ(den), den));
        *tau = (LA_FROM(bs) - alpha) / bs;
        *scale = LA_CONJ(den) * (sc / den2);
        *beta = bs / sc;
    }
}

#endif

#if USMARR_WANT(tridiag)
/* a: n x n, its lower triangle read (Hermitian: the diagonal's imaginary parts dropped). */
__kernel void usmarr_tridiag_mirror(__global LA_T *a, long n, __global int *flag, long count)
{
    long i = (long)get_global_id(0);
    if (i >= count)
        return;
    bool bad = !LA_FINITE(a[i * n + i]);
    a[i * n + i] = LA_FROM(LA_RE(a[i * n + i]));
    for (long j = 0; j < i; j++) {
        LA_T x = a[i * n + j];
        bad |= !LA_FINITE(x);
        a[j * n + i] = LA_CONJ(x);
    }
    flag[i] = bad;
}

/* Columns [k0, k0 + kb) of the reduction of a (n x n; rows and columns from k0 hold the
 * matrix with the earlier panels' updates, Hermitian).  For column j: row j from its
 * diagonal takes the panel's earlier updates; the reflector H_j = I - tau v vᴴ with
 * H_jᴴ x = beta e1, beta real, for x = A's column j below the diagonal (row j's conjugate;
 * larfg, x scaled by a power of two first) goes into r's row j (zeros from k0 to j, 1 at
 * j + 1); then p = tau (A v - V (Wᴴ v) - W (Vᴴ v)) and w = p - (tau / 2) (pᴴ v) v (latrd).
 * wt (3 LA_NB x n): rows [0, LA_NB) and [2 LA_NB, 3 LA_NB) the panel's v, rows
 * [LA_NB, 2 LA_NB) its w, so that the trailing update is wt[:2 LA_NB]ᵀ conj(wt[LA_NB:]).
 * d[j], e[j]: T's diagonal and subdiagonal; t (LA_NB x LA_NB): the triangle of the panel's
 * block reflector H_k0 ... = I - V t Vᴴ (larft). */
__kernel __attribute__((reqd_work_group_size(LA_GROUP, 1, 1))) void
usmarr_tridiag_panel(__global LA_T *a, long n, long k0, long kb, __global LA_T *r, __global LA_T *wt,
                     __global LA_T *t, __global LA_R *d, __global LA_R *e, long count)
{
    __local LA_R red[LA_GROUP];
    __local LA_T cw[LA_NB], cv[LA_NB];
    int lid = (int)get_local_id(0);
    __global LA_T *w = wt + LA_NB * n;
    (void)count;
    for (long jj = 0; jj < kb; jj++) {
        long j = k0 + jj;
        __global LA_T *row = a + j * n, *v = r + j * n;
        for (long i0 = j + 8 * lid; i0 < n; i0 += 8 * LA_GROUP) {
#ifndef LA_COMPLEX
            if (i0 + 8 <= n) {
                LA_T8 s = 0;
                for (long q = 0; q < jj; q++)
                    s += vload8(0, r + (k0 + q) * n + i0) * w[q * n + j] +
                         vload8(0, w + q * n + i0) * r[(k0 + q) * n + j];
                vstore8(vload8(0, row + i0) - s, 0, row + i0);
                continue;
            }
#endif
            for (long i = i0; i < n && i < i0 + 8; i++) {
                LA_T s = 0;
                for (long q = 0; q < jj; q++)
                    s += LA_MUL(r[(k0 + q) * n + j], LA_CONJ(w[q * n + i])) +
                         LA_MUL(w[q * n + j], LA_CONJ(r[(k0 + q) * n + i]));
                row[i] -= s;
            }
        }
        barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
        /* x = A's column j below the diagonal: row j's conjugate */
        LA_T tau, scale;
        LA_R beta;
        la_larfg(red, row + j + 1, n - j - 1, 1, true, &tau, &scale, &beta);
        for (long i = k0 + lid; i < n; i += LA_GROUP) {
            LA_T x = i <= j ? LA_FROM(0) : i == j + 1 ? LA_FROM(1) : LA_MUL(LA_CONJ(row[i]), scale);
            v[i] = wt[jj * n + i] = wt[(2 * LA_NB + jj) * n + i] = x;
        }
        if (lid == 0) {
            d[j] = LA_RE(row[j]);
            e[j] = beta;
        }
        barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
        /* Wᴴ v and Vᴴ v of the panel's earlier columns: one dot product a work-item */
        if (lid < 2 * jj) {
            long q = lid < jj ? lid : lid - jj;
            __global const LA_T *x = lid < jj ? w + q * n : r + (k0 + q) * n;
            LA_T s = la_dot(x + j + 1, v + j + 1, n - j - 1, true);
            if (lid < jj)
                cw[q] = s;
            else
                cv[q] = s;
        }
        barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
        /* p_i from row i (contiguous, read as vectors) */
        LA_T pv = 0;
        for (long i = j + 1 + lid; i < n; i += LA_GROUP) {
            LA_T p = la_dot(a + i * n + j + 1, v + j + 1, n - j - 1, false);
            for (long q = 0; q < jj; q++)
                p -= LA_MUL(r[(k0 + q) * n + i], cw[q]) + LA_MUL(w[q * n + i], cv[q]);
            p = LA_MUL(tau, p);
            w[jj * n + i] = p;
            pv += LA_MUL(LA_CONJ(p), v[i]);
        }
#ifdef LA_COMPLEX
        pv = (LA_T)(la_group_reduce(red, pv.x, false), la_group_reduce(red, pv.y, false));
#else
        pv = la_group_reduce(red, pv, false);
#endif
        LA_T shift = -LA_MUL(tau, pv) / 2;
        for (long i = k0 + lid; i < n; i += LA_GROUP)
            w[jj * n + i] = i <= j ? LA_FROM(0) : w[jj * n + i] + LA_MUL(shift, v[i]);
        /* t's column jj: -tau t[0, jj) (Vᴴ v), tau on the diagonal, zeros below */
        if (lid < LA_NB) {
            LA_T s = 0;
            for (long q = lid; q < jj; q++)
                s += LA_MUL(t[lid * LA_NB + q], cv[q]);
            t[lid * LA_NB + jj] = lid < jj ? -LA_MUL(tau, s) : lid == jj ? tau : LA_FROM(0);
        }
        barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    }
}

/* Implicit QL with Wilkinson's shift (tql2, steqr) on T = (d, e), at most `sweeps`
 * iterations an eigenvalue.  An off-diagonal element is negligible below
 * eps (|d_m| + |d_m+1|) or below eps |T| (what rounding leaves).  With cap > 0, each rotation
 * of rows i and i + 1 is recorded as (i, c, s); the kernel returns when `cap` would not
 * hold the next iteration's, state[0] and state[1] saying where it resumes, and is
 * launched again after usmarr_tridiag_rotate.  state: eigenvalue, its iterations,
 * rotations recorded, done.  At the end w = d ascending, perm[k] the row of Z of w[k],
 * *status = 1 when an eigenvalue did not converge.  A NaN or infinity in the matrix
 * (flag): w NaN. */
__kernel void usmarr_tridiag_ql(__global LA_R *d, __global LA_R *e, __global LA_R *w, __global long *perm,
                                __global LA_R *rot, long cap, __global long *state, __global const int *flag,
                                __global int *status, long n, int sweeps, long count)
{
    if (get_global_id(0) >= count)
        return;
    long nrot = 0;
    bool failed = false, bad = false;
    for (long i = 0; i < n; i++)
        bad |= flag[i] != 0;
    LA_R tnorm = 0;
    for (long i = 0; i < n; i++)
        tnorm = fmax(tnorm, fabs(d[i]) + fabs(e[i]) + (i ? fabs(e[i - 1]) : 0));
    for (long l = bad ? n : state[0]; l < n; l++) {
        int iter = l == state[0] ? (int)state[1] : 0;
        long m;
        do {
            for (m = l; m < n - 1; m++)
                if (fabs(e[m]) <= LA_EPS * (fabs(d[m]) + fabs(d[m + 1])) || fabs(e[m]) <= LA_EPS * tnorm ||
                    fabs(e[m]) < LA_TINY)
                    break;
            if (m == l)
                break;
            if (iter >= sweeps) {
                failed = true;
                break;
            }
            if (cap > 0 && nrot + (m - l) > cap) {
                state[0] = l;
                state[1] = iter;
                state[2] = nrot;
                return;
            }
            iter++;
            LA_R g = (d[l + 1] - d[l]) / (2 * e[l]);
            LA_R rr = hypot(g, (LA_R)1);
            g = d[m] - d[l] + e[l] / (g + copysign(rr, g));
            LA_R s = 1, c = 1, pp = 0;
            bool underflow = false;
            for (long i = m - 1; i >= l; i--) {
                LA_R f = s * e[i], b = c * e[i];
                rr = hypot(f, g);
                e[i + 1] = rr;
                if (rr == 0) { /* recover from underflow */
                    d[i + 1] -= pp;
                    e[m] = 0;
                    underflow = true;
                    break;
                }
                s = f / rr;
                c = g / rr;
                g = d[i + 1] - pp;
                rr = (d[i] - g) * s + 2 * c * b;
                pp = s * rr;
                d[i + 1] = g + pp;
                g = c * rr - b;
                if (cap > 0) {
                    rot[3 * nrot] = (LA_R)i;
                    rot[3 * nrot + 1] = c;
                    rot[3 * nrot + 2] = s;
                    nrot++;
                }
            }
            if (underflow)
                continue;
            d[l] -= pp;
            e[l] = g;
            e[m] = 0;
        } while (m != l);
        if (failed)
            break;
    }
    state[2] = nrot;
    state[3] = 1;
    *status = failed;
    for (long i = 0; i < n; i++) {
        w[i] = bad ? (LA_R)NAN : d[i];
        perm[i] = i;
    }
    for (long i = 0; !bad && i < n - 1; i++) { /* selection sort: the first of equal values */
        long best = i;
        for (long j = i + 1; j < n; j++)
            if (w[j] < w[best])
                best = j;
        LA_R x = w[i];
        w[i] = w[best];
        w[best] = x;
        long p = perm[i];
        perm[i] = perm[best];
        perm[best] = p;
    }
}

/* Z (n x n) in slabs of eight columns: element (i, c) at ((c / 8) n + i) 8 + c % 8, so
 * that a slab is contiguous and a rotation of rows i and i + 1 turns two neighbouring
 * lines.  Work-item g turns slabs [LA_SLABS g, LA_SLABS (g + 1)) by the rotations state[2]
 * recorded (set to the identity first when `init`): the slabs are independent chains of
 * work for the core, and both rows of a rotation stay in registers for the next, which
 * shares one of them when the rotations walk down the rows (QL) or up (bdsqr's chase). */
#define LA_SLABS 8 /* USMARR__ROTATE_COLUMNS / 8 (lib/linalg/linalg_internal.h) */
__kernel USMARR_ONE_PER_LANE void usmarr_tridiag_rotate(__global LA_R *z, __global const LA_R *rot,
                                                        __global const long *state, long n, int init, long count)
{
    long g = (long)get_global_id(0);
    if (g >= count)
        return;
    __global LA_R *slab = z + 8 * n * LA_SLABS * g;
    for (long i = 0; init && i < n * LA_SLABS; i++)
        for (int c = 0; c < 8; c++)
            slab[8 * i + c] = i % n == 8 * (LA_SLABS * g + i / n) + c ? 1 : 0;
    long nrot = state[2], prev = -3;
    LA_R8 lo[LA_SLABS], hi[LA_SLABS]; /* rows prev and prev + 1 */
    for (long k = 0; k < nrot; k++) {
        long i = (long)rot[3 * k];
        LA_R c = rot[3 * k + 1], s = rot[3 * k + 2];
        __global LA_R *r0 = slab + 8 * i;
#pragma unroll
        for (int q = 0; q < LA_SLABS; q++) {
            LA_R8 x = i == prev ? lo[q] : i == prev + 1 ? hi[q] : vload8(0, r0 + 8 * n * q);
            LA_R8 y = i + 1 == prev ? lo[q] : i == prev ? hi[q] : vload8(1, r0 + 8 * n * q);
            lo[q] = c * x - s * y;
            hi[q] = s * x + c * y;
            vstore8(lo[q], 0, r0 + 8 * n * q);
            vstore8(hi[q], 1, r0 + 8 * n * q);
        }
        prev = i;
    }
}

/* Row `row` of m (n x n): m[row][k] = Z[perm[k]][row] (Z in slabs, as above), or NaN for
 * a flagged matrix. */
__kernel void usmarr_tridiag_gather(__global const LA_R *z, __global const long *perm, __global LA_T *m,
                                    __global const int *flag, long n, long count)
{
    long row = (long)get_global_id(0);
    if (row >= count)
        return;
    bool bad = false;
    for (long i = 0; i < n; i++)
        bad |= flag[i] != 0;
    __global const LA_R *slab = z + 8 * n * (row / 8) + row % 8;
    for (long k = 0; k < n; k++)
        m[row * n + k] = LA_FROM(bad ? (LA_R)NAN : slab[8 * perm[k]]);
}
#endif

#if USMARR_WANT(bidiag)
/* Column jj of t, the triangle of the block reflector I - V t Vᴴ of r's rows [k0, k0 + jj]
 * (larft; zeros before `from`, the reflector of row k0 + jj is 1 at `from`): -tau t (Vᴴ v)
 * above the diagonal, tau on it, zeros below; only where `on` (the barriers in every
 * work-group). */
inline void la_larft(__local LA_T *cv, __global const LA_T *r, __global LA_T *t, long n, long k0, long jj, long from,
                     LA_T tau, bool on)
{
    int lid = (int)get_local_id(0);
    if (on && lid < jj)
        cv[lid] = la_dot(r + (k0 + lid) * n + from, r + (k0 + jj) * n + from, n - from, true);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (on && lid < LA_NB) {
        LA_T s = 0;
        for (long q = lid; q < jj; q++)
            s += LA_MUL(t[lid * LA_NB + q], cv[q]);
        t[lid * LA_NB + jj] = lid < jj ? -LA_MUL(tau, s) : lid == jj ? tau : LA_FROM(0);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
}

/* The reduction of a (n x n, row-major) to real upper bidiagonal form B = Q_Lᴴ A P
 * (LAPACK's gebd2; Q_L = H_0 H_1 ..., P = G_0 G_1 ...), column j in two halves, each
 * spread over the work-items of `ng` groups (g this one's): no result depends on how
 * many, each column and row being one work-item's in one order.
 * Left: the reflector H_j = I - tau v vᴴ with H_jᴴ a[j:, j] = d_j e1 (larfg, d_j real, in
 * every group) goes into rl's row j (zeros from k0 to j, 1 at j) and coef[0]; w = tau
 * vᴴ a[j:, j+1:] into wb, eight columns a work-item, which also takes row j's update. */
inline void la_bidiag_left(__local LA_R *red, __global LA_T *a, long n, long k0, long j, __global LA_T *rl,
                           __global LA_R *d, __global LA_T *wb, __global LA_T *coef, int g, int ng)
{
    int lid = (int)get_local_id(0);
    LA_T tau, scale;
    LA_R beta;
    la_larfg(red, a + j * n + j, n - j, n, false, &tau, &scale, &beta);
    if (g == 0) {
        for (long i = k0 + lid; i < n; i += LA_GROUP)
            rl[j * n + i] = i < j ? LA_FROM(0) : i == j ? LA_FROM(1) : LA_MUL(a[i * n + j], scale);
        if (lid == 0) {
            d[j] = beta;
            coef[0] = tau;
        }
    }
    __global LA_T *row = a + j * n;
    for (long c0 = j + 1 + 8 * ((long)g * LA_GROUP + lid); c0 < n; c0 += 8 * (long)LA_GROUP * ng) {
#ifndef LA_COMPLEX
        if (c0 + 8 <= n) {
            LA_T8 w = vload8(0, row + c0);
            for (long i = j + 1; i < n; i++)
                w += (a[i * n + j] * scale) * vload8(0, a + i * n + c0);
            w *= tau;
            vstore8(w, 0, wb + c0);
            vstore8(vload8(0, row + c0) - w, 0, row + c0);
            continue;
        }
#endif
        for (long c = c0; c < n && c < c0 + 8; c++) {
            LA_T w = row[c];
            for (long i = j + 1; i < n; i++)
                w += LA_MUL(LA_CONJ(LA_MUL(a[i * n + j], scale)), a[i * n + c]);
            w = LA_MUL(LA_CONJ(tau), w);
            wb[c] = w;
            row[c] -= w;
        }
    }
}

/* Right: the left update of the rows after j (a[i, j+1:] -= v_i w); G_j = I - tau u uᴴ with
 * a[j, j+1:] G_j = e_j e1ᵀ (larfg of the row's conjugate, e_j real, in every group) into
 * rr's row j (zeros from k0 to j, 1 at j + 1) and, for the other groups, their rows of ub;
 * the rows after j take a G_j, one a work-item, in the same pass.  Group 0 also forms the
 * panel's columns j - k0 of tl and tr, the triangles of the block reflectors H_k0 ... and
 * G_k0 ... (larft). */
inline void la_bidiag_right(__local LA_R *red, __local LA_T *cv, __global LA_T *a, long n, long k0, long j,
                            __global LA_T *rl, __global LA_T *rr, __global LA_T *tl, __global LA_T *tr,
                            __global LA_R *e, __global const LA_T *wb, __global LA_T *ub, __global const LA_T *coef,
                            int g, int ng)
{
    int lid = (int)get_local_id(0);
    la_larft(cv, rl, tl, n, k0, j - k0, j, coef[0], g == 0);
    LA_T tau, scale;
    LA_R beta;
    la_larfg(red, a + j * n + j + 1, n - j - 1, 1, true, &tau, &scale, &beta);
    __global LA_T *u = g == 0 ? rr + j * n : ub + (g - 1) * n;
    for (long i = (g == 0 ? k0 : j) + lid; i < n; i += LA_GROUP)
        u[i] = i <= j ? LA_FROM(0) : i == j + 1 ? LA_FROM(1) : LA_MUL(LA_CONJ(a[j * n + i]), scale);
    if (g == 0 && lid == 0 && j + 1 < n)
        e[j] = beta;
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    la_larft(cv, rr, tr, n, k0, j - k0, j + 1, tau, g == 0);
    for (long i = j + 1 + (long)g * LA_GROUP + lid; i < n; i += (long)LA_GROUP * ng) {
        __global LA_T *row = a + i * n;
        LA_T vi = rl[j * n + i], p = 0;
        long c = j + 1;
#ifndef LA_COMPLEX
        LA_T8 acc = 0;
        for (; c + 8 <= n; c += 8) {
            LA_T8 x = vload8(0, row + c) - vi * vload8(0, wb + c);
            vstore8(x, 0, row + c);
            acc += x * vload8(0, u + c);
        }
        p = ((acc.s0 + acc.s1) + (acc.s2 + acc.s3)) + ((acc.s4 + acc.s5) + (acc.s6 + acc.s7));
#endif
        for (; c < n; c++) {
            LA_T x = row[c] - LA_MUL(vi, wb[c]);
            row[c] = x;
            p += LA_MUL(x, u[c]);
        }
        p = LA_MUL(tau, p);
        c = j + 1;
#ifndef LA_COMPLEX
        for (; c + 8 <= n; c += 8)
            vstore8(vload8(0, row + c) - p * vload8(0, u + c), 0, row + c);
#endif
        for (; c < n; c++)
            row[c] -= LA_MUL(p, LA_CONJ(u[c]));
    }
}

/* Columns [k0, k0 + kb) by one work-group (the matrix's last columns, where a launch per
 * half would cost more than it spreads). */
__kernel __attribute__((reqd_work_group_size(LA_GROUP, 1, 1))) void
usmarr_bidiag_panel(__global LA_T *a, long n, long k0, long kb, __global LA_T *rl, __global LA_T *rr,
                    __global LA_T *tl, __global LA_T *tr, __global LA_R *d, __global LA_R *e, __global LA_T *wb,
                    __global LA_T *coef, long count)
{
    __local LA_R red[LA_GROUP];
    __local LA_T cv[LA_NB];
    (void)count;
    for (long j = k0; j < k0 + kb; j++) {
        la_bidiag_left(red, a, n, k0, j, rl, d, wb, coef, 0, 1);
        barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
        la_bidiag_right(red, cv, a, n, k0, j, rl, rr, tl, tr, e, wb, rr, coef, 0, 1);
        barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    }
}

/* Column j's halves, one launch each, on all the work-groups launched (`count` items). */
__kernel __attribute__((reqd_work_group_size(LA_GROUP, 1, 1))) void
usmarr_bidiag_left(__global LA_T *a, long n, long k0, long j, __global LA_T *rl, __global LA_R *d,
                   __global LA_T *wb, __global LA_T *coef, long count)
{
    __local LA_R red[LA_GROUP];
    la_bidiag_left(red, a, n, k0, j, rl, d, wb, coef, (int)get_group_id(0), (int)(count / LA_GROUP));
}

__kernel __attribute__((reqd_work_group_size(LA_GROUP, 1, 1))) void
usmarr_bidiag_right(__global LA_T *a, long n, long k0, long j, __global LA_T *rl, __global LA_T *rr,
                    __global LA_T *tl, __global LA_T *tr, __global LA_R *e, __global const LA_T *wb,
                    __global LA_T *ub, __global const LA_T *coef, long count)
{
    __local LA_R red[LA_GROUP];
    __local LA_T cv[LA_NB];
    la_bidiag_right(red, cv, a, n, k0, j, rl, rr, tl, tr, e, wb, ub, coef, (int)get_group_id(0),
                    (int)(count / LA_GROUP));
}

/* The smaller singular value of [[f, g], [0, h]] (LAPACK's las2). */
inline LA_R la_las2_min(LA_R f, LA_R g, LA_R h)
{
    LA_R fa = fabs(f), ga = fabs(g), ha = fabs(h), lo = fmin(fa, ha), hi = fmax(fa, ha);
    if (lo == 0)
        return 0;
    LA_R as = 1 + lo / hi, at = (hi - lo) / hi;
    if (ga < hi) {
        LA_R au = (ga / hi) * (ga / hi);
        return lo * (2 / (sqrt(as * as + au) + sqrt(at * at + au)));
    }
    LA_R au = hi / ga;
    if (au == 0)
        return lo * hi / ga;
    LA_R c = 1 / (sqrt(1 + (as * au) * (as * au)) + sqrt(1 + (at * au) * (at * au)));
    return 2 * (lo * c) * au;
}

/* The rotation [c s; -s c] that takes (f, g) to (r, 0), r returned (lartg). */
#if defined(LA_DOUBLE)
#define LA_SAFE_MIN 0x1p-500
#define LA_SAFE_MAX 0x1p500
#else
#define LA_SAFE_MIN 0x1p-60f
#define LA_SAFE_MAX 0x1p60f
#endif
inline LA_R la_lartg(LA_R f, LA_R g, LA_R *c, LA_R *s)
{
    if (g == 0) {
        *c = 1;
        *s = 0;
        return f;
    }
    if (f == 0) {
        *c = 0;
        *s = 1;
        return g;
    }
    LA_R af = fabs(f), ag = fabs(g), big = fmax(af, ag), small = fmin(af, ag);
    /* sqrt(f² + g²) where neither square overflows or underflows, else hypot */
    LA_R h = small > LA_SAFE_MIN && big < LA_SAFE_MAX ? sqrt(f * f + g * g) : hypot(f, g), r = copysign(h, f);
    *c = af / h;
    *s = g / r;
    return r;
}

/* Records rotation k of rows i and i + 1 on both sides: (cr, -sr) to the right, (cl,
 * -sl) to the left, as usmarr_tridiag_rotate applies them. */
inline void la_record_pair(__global LA_R *rotr, __global LA_R *rotl, long k, long i, LA_R cr, LA_R sr, LA_R cl,
                           LA_R sl)
{
    rotr[3 * k] = rotl[3 * k] = (LA_R)i;
    rotr[3 * k + 1] = cr;
    rotr[3 * k + 2] = -sr;
    rotl[3 * k + 1] = cl;
    rotl[3 * k + 2] = -sl;
}

/* Implicit QR on the upper bidiagonal B = (d, e) (LAPACK's bdsqr, absolute accuracy): the
 * bottom block of nonzero e is chased from the top with the smaller singular value of its
 * last 2 x 2 as the shift, or without shift (Demmel and Kahan's sweep, which ends a zero
 * diagonal element in one sweep) where the shift is negligible or a diagonal element is
 * below eps |B|.  e_i is negligible below eps (|d_i| + |d_i+1|) or below eps |B| (what
 * rounding leaves); at most `sweeps` n sweeps in all (state[1] counts them).  With cap > 0,
 * each sweep's rotations of neighbouring vectors i and i + 1 are recorded as (i, c, s), the
 * right ones (of V's columns) in rotr, the left ones (of U's) in rotl, as many of each, in
 * usmarr_tridiag_rotate's form; the kernel returns when cap would not hold the next
 * sweep's, and is launched again after the rotations are applied.  state: -, sweeps,
 * rotations recorded, done.  At the end s = |d| descending, perm[k] the vector of s[k],
 * *status = 1 when the sweeps ran out.  A NaN or an infinity in B: s NaN. */
__kernel void usmarr_bidiag_qr(__global LA_R *d, __global LA_R *e, __global LA_R *s, __global long *perm,
                               __global LA_R *rotl, __global LA_R *rotr, long cap, __global long *state,
                               __global int *status, long n, int sweeps, long count)
{
    if (get_global_id(0) >= count)
        return;
    long nrot = 0, iters = state[1];
    bool bad = false, failed = false;
    LA_R bnorm = 0;
    for (long i = 0; i < n; i++) {
        LA_R x = fabs(d[i]), y = i + 1 < n ? fabs(e[i]) : 0;
        bad |= !isfinite(x) || !isfinite(y);
        bnorm = fmax(bnorm, fmax(x, y));
    }
    LA_R thresh = LA_EPS * bnorm;
    for (long hi = n - 1; !bad && hi > 0;) {
        long lo = hi;
        for (; lo > 0; lo--) {
            LA_R ae = fabs(e[lo - 1]);
            if (ae <= thresh || ae <= LA_EPS * (fabs(d[lo - 1]) + fabs(d[lo]))) {
                e[lo - 1] = 0;
                break;
            }
        }
        if (lo == hi) {
            hi--;
            continue;
        }
        if (iters >= (long)sweeps * n) {
            failed = true;
            break;
        }
        if (cap > 0 && nrot + (hi - lo) > cap) {
            state[1] = iters;
            state[2] = nrot;
            return;
        }
        iters++;
        bool zero = false;
        for (long k = lo; k <= hi; k++)
            if (fabs(d[k]) <= thresh) {
                d[k] = 0;
                zero = true;
            }
        LA_R shift = zero ? 0 : la_las2_min(d[hi - 1], e[hi - 1], d[hi]);
        if (shift != 0 && (shift / d[lo]) * (shift / d[lo]) < LA_EPS)
            shift = 0;
        LA_R cr, sr, cl = 1, sl = 0, r;
        if (shift == 0) { /* zero shift */
            cr = 1;
            for (long i = lo; i < hi; i++) {
                r = la_lartg(d[i] * cr, e[i], &cr, &sr);
                if (i > lo)
                    e[i - 1] = sl * r;
                d[i] = la_lartg(cl * r, d[i + 1] * sr, &cl, &sl);
                if (cap > 0)
                    la_record_pair(rotr, rotl, nrot++, i, cr, sr, cl, sl);
            }
            LA_R h = d[hi] * cr;
            d[hi] = h * cl;
            e[hi - 1] = h * sl;
            continue;
        }
        LA_R f = (fabs(d[lo]) - shift) * (copysign((LA_R)1, d[lo]) + shift / d[lo]), g = e[lo];
        for (long i = lo; i < hi; i++) {
            r = la_lartg(f, g, &cr, &sr);
            if (i > lo)
                e[i - 1] = r;
            f = cr * d[i] + sr * e[i];
            e[i] = cr * e[i] - sr * d[i];
            g = sr * d[i + 1];
            d[i + 1] = cr * d[i + 1];
            d[i] = la_lartg(f, g, &cl, &sl);
            f = cl * e[i] + sl * d[i + 1];
            d[i + 1] = cl * d[i + 1] - sl * e[i];
            if (i + 1 < hi) {
                g = sl * e[i + 1];
                e[i + 1] = cl * e[i + 1];
            }
            if (cap > 0)
                la_record_pair(rotr, rotl, nrot++, i, cr, sr, cl, sl);
        }
        e[hi - 1] = f;
    }
    state[1] = iters;
    state[2] = nrot;
    state[3] = 1;
    *status = failed;
    for (long i = 0; i < n; i++) {
        s[i] = bad ? (LA_R)NAN : fabs(d[i]);
        perm[i] = i;
    }
    for (long i = 0; !bad && i < n - 1; i++) { /* selection sort: the first of equal values */
        long best = i;
        for (long j = i + 1; j < n; j++)
            if (s[j] > s[best])
                best = j;
        LA_R x = s[i];
        s[i] = s[best];
        s[best] = x;
        long p = perm[i];
        perm[i] = perm[best];
        perm[best] = p;
    }
}

/* Row `row` of m (n x n): m[row][k] = Z[perm[k]][row] (Z in usmarr_tridiag_rotate's
 * slabs), negated where `flip` and d[perm[k]] < 0 (V's vectors of negative d); all NaN
 * when s[0] is (a NaN or an infinity in B). */
__kernel void usmarr_bidiag_gather(__global const LA_R *z, __global const long *perm, __global const LA_R *d,
                                   int flip, __global const LA_R *s, __global LA_T *m, long n, long count)
{
    long row = (long)get_global_id(0);
    if (row >= count)
        return;
    bool bad = isnan(s[0]);
    __global const LA_R *slab = z + 8 * n * (row / 8) + row % 8;
    for (long k = 0; k < n; k++) {
        LA_R x = slab[8 * perm[k]];
        m[row * n + k] = LA_FROM(bad ? (LA_R)NAN : flip && d[perm[k]] < 0 ? -x : x);
    }
}
#endif
