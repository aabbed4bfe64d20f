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

#if USMARR_WANT(tridiag)
#if LA_GROUP < 2 * LA_NB
#error "the panel's work-group computes 2 LA_NB dot products at once"
#endif

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
        LA_R big = 0, ss = 0;
        for (long i = j + 1 + lid; i < n; i += LA_GROUP)
            big = fmax(big, LA_BIG(row[i]));
        big = la_group_reduce(red, big, true);
        int ex;
        frexp(big, &ex);
        LA_R sc = ldexp((LA_R)1, -ex);
        for (long i = j + 2 + lid; i < n; i += LA_GROUP) {
            LA_T x = row[i] * sc;
            ss += LA_RE(LA_MUL(LA_CONJ(x), x));
        }
        ss = la_group_reduce(red, ss, false);
        LA_T tau = 0, scale = 0, alpha = j + 1 < n ? LA_CONJ(row[j + 1]) * sc : LA_FROM(0);
        LA_R beta = j + 1 < n ? LA_RE(row[j + 1]) : 0;
        if (big >= LA_TINY && (ss > 0 || LA_IM(alpha) != 0)) {
            /* larfg (zlarfg): beta real, so that T is real */
            LA_R ar = LA_RE(alpha), bs = -copysign(sqrt(LA_RE(LA_MUL(LA_CONJ(alpha), alpha)) + ss), ar);
            LA_T den = alpha - LA_FROM(bs);
            LA_R den2 = LA_RE(LA_MUL(LA_CONJ(den), den));
            tau = (LA_FROM(bs) - alpha) / bs;
            scale = LA_CONJ(den) * (sc / den2);
            beta = bs / sc;
        }
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
 * work for the core, and row i + 1 stays in registers from the rotation before, which
 * turned it as its row i (QL's rotations walk down the rows). */
#define LA_SLABS 8
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
    long nrot = state[2], prev = -2;
    LA_R8 y[LA_SLABS];
    for (long k = 0; k < nrot; k++) {
        long i = (long)rot[3 * k];
        LA_R c = rot[3 * k + 1], s = rot[3 * k + 2];
        __global LA_R *r0 = slab + 8 * i;
#pragma unroll
        for (int q = 0; q < LA_SLABS; q++) {
            if (i + 1 != prev)
                y[q] = vload8(1, r0 + 8 * n * q);
            LA_R8 x = vload8(0, r0 + 8 * n * q);
            vstore8(s * x + c * y[q], 1, r0 + 8 * n * q);
            y[q] = c * x - s * y[q];
            vstore8(y[q], 0, r0 + 8 * n * q);
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
