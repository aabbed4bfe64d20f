/* stats.cl: the second pass of var/std (lib/ops/moments.c), custom kernels (lib/engine/engine_internal.h,
 * section 3): the sums of squared deviations from a given mean, one pass over x.
 *
 * -DD0=<tag> is the dtype of x and of the mean (f32, f64, c64, c128), -DD1=<tag> the real
 * dtype of the output; -DST_COMPLEX for complex x, -DST_VECTOR when D0 has a vector form.
 * The host reduces any layout to (nkept, nred) with strides (ks, rs) (copying x first when
 * the kept or the reduced dims do not merge into one); mean[i] and out[i] are contiguous
 * in the kept dims' C order.  Dim 0 of the NDRange may be rounded up: work-items past the
 * end return at once. */
#define ST_T USMARR_STORAGE(D0)
#define ST_CT USMARR_COMPUTE(D0)
#define ST_RT USMARR_COMPUTE(D1)
#ifdef ST_COMPLEX
#define ST_SQ(d) ((d).x * (d).x + (d).y * (d).y)
#define ST_ABS1(d) (fabs((d).x) + fabs((d).y))
#define ST_FINITE(m) (isfinite((m).x) && isfinite((m).y))
#else
#define ST_SQ(d) ((d) * (d))
#define ST_ABS1(d) fabs(d)
#define ST_FINITE(m) isfinite(m)
#endif

/* One output per work-item: out[i] = sum over r of |x[i*ks + r*rs] - mean[i]|^2, or exactly 0
 * where the elements are all equal and their mean finite: the mean of equal elements may
 * round away from them (the sum's order), which would leave a tiny sum where the deviations
 * are 0 (and inf, not 0/0 = NaN, past the count).  `spread` sums |x - x[0]|: 0 for equal
 * elements, never 0 otherwise (NaN for a NaN or an infinite element). */
#if USMARR_WANT(ssd)
__kernel void usmarr_ssd(__global ST_RT *out, __global const ST_T *x, __global const ST_T *mean, long nkept, long nred,
                         long ks, long rs)
{
    long i = (long)get_global_id(0);
    if (i >= nkept)
        return;
    x += i * ks;
    ST_CT m = mean[i], first = nred ? x[0] : m;
    ST_RT acc = 0, spread = 0;
    long r = 0;
#ifdef ST_VECTOR
    if (rs == 1 && nred >= 64) { /* a contiguous row: 16 lanes, whatever the device's width */
        USMARR_CAT(ST_CT, 16) vm = m, vf = first, va = 0, vs = 0;
        for (; r + 16 <= nred; r += 16) {
            USMARR_CAT(ST_CT, 16) v = vload16(0, x + r), d = v - vm;
            va += d * d;
            vs += fabs(v - vf);
        }
        acc = ((va.lo.lo.lo.x + va.lo.lo.lo.y) + (va.lo.lo.hi.x + va.lo.lo.hi.y)) +
              ((va.lo.hi.lo.x + va.lo.hi.lo.y) + (va.lo.hi.hi.x + va.lo.hi.hi.y)) +
              ((va.hi.lo.lo.x + va.hi.lo.lo.y) + (va.hi.lo.hi.x + va.hi.lo.hi.y)) +
              ((va.hi.hi.lo.x + va.hi.hi.lo.y) + (va.hi.hi.hi.x + va.hi.hi.hi.y));
        spread = ((vs.lo.lo.lo.x + vs.lo.lo.lo.y) + (vs.lo.lo.hi.x + vs.lo.lo.hi.y)) +
                 ((vs.lo.hi.lo.x + vs.lo.hi.lo.y) + (vs.lo.hi.hi.x + vs.lo.hi.hi.y)) +
                 ((vs.hi.lo.lo.x + vs.hi.lo.lo.y) + (vs.hi.lo.hi.x + vs.hi.lo.hi.y)) +
                 ((vs.hi.hi.lo.x + vs.hi.hi.lo.y) + (vs.hi.hi.hi.x + vs.hi.hi.hi.y));
    }
#endif
    for (; r < nred; r++) {
        ST_CT v = x[r * rs], d = v - m, e = v - first;
        acc += ST_SQ(d);
        spread += ST_ABS1(e);
    }
    out[i] = spread == 0 && ST_FINITE(m) ? 0 : acc;
}
#endif

#ifdef ST_VECTOR
#define ST_V16 USMARR_CAT(ST_CT, 16)
/* 16 neighbouring outputs per work-item, for ks == 1 (an outer reduced axis): each step
 * of r reads 16 contiguous elements. */
#if USMARR_WANT(ssd)
__kernel void usmarr_ssd_cols(__global ST_RT *out, __global const ST_T *x, __global const ST_T *mean, long nkept,
                              long nred, long ks, long rs)
{
    long i0 = (long)get_global_id(0) * 16;
    (void)ks;
    if (i0 >= nkept)
        return;
    if (i0 + 16 > nkept) {
        for (long i = i0; i < nkept; i++) {
            ST_CT m = mean[i], first = nred ? x[i] : m;
            ST_RT acc = 0, spread = 0;
            for (long r = 0; r < nred; r++) {
                ST_CT v = x[i + r * rs], d = v - m;
                acc += d * d;
                spread += fabs(v - first);
            }
            out[i] = spread == 0 && isfinite(m) ? 0 : acc;
        }
        return;
    }
    ST_V16 m = vload16(0, mean + i0), acc = (ST_V16)0, spread = (ST_V16)0;
    ST_V16 first = nred ? vload16(0, x + i0) : m;
    for (long r = 0; r < nred; r++) {
        ST_V16 v = vload16(0, x + i0 + r * rs), d = v - m;
        acc += d * d;
        spread += fabs(v - first);
    }
    vstore16(select(acc, (ST_V16)0, (spread == (ST_V16)0) & isfinite(m)), 0, out + i0);
}
#endif
#endif
