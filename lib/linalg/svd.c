/* svd, svdvals and what is built on singular values: matrix_rank, pinv and the 2, -2 and
 * nuclear matrix norms.  The decomposition is cl/linalg_eig.cl's usmarr_svd_jacobi (QR,
 * then one-sided Jacobi on R; doc/linalg.md), or for large matrices svd_blocked.c's
 * bidiagonal route; the rest composes the library's operations. */
#include "linalg_internal.h"

#include <float.h>
#include <math.h>
#include <string.h>

int usmarr__svd(const char *fn, const usmarr_array_t *x, bool full, usmarr_array_t **u, usmarr_array_t **s,
                usmarr_array_t **vh)
{
    struct usmarr__linalg_stack st;
    usmarr_dtype_t dt, real;
    int rc = usmarr__decomp_prepare(fn, x, false, &st, &dt, &real);
    if (rc)
        return rc;
    usmarr_context_t *ctx = x->memory->context;
    int64_t m = st.rows, n = st.cols, k = m < n ? m : n, mt = m < n ? n : m;
    int64_t uc = full ? mt : k; /* the columns of the tall form's U */
    int64_t sdims[1] = {k}, udims[2] = {m, full ? m : k}, vdims[2] = {full ? n : k, n};
    usmarr_array_t *sa = NULL, *ua = NULL, *va = NULL, *status = NULL, *ws = NULL;
    if ((rc = usmarr__decomp_array(ctx, &st, real, 1, sdims, &sa)) ||
        (u && (rc = usmarr__decomp_array(ctx, &st, dt, 2, udims, &ua))) ||
        (u && (rc = usmarr__decomp_array(ctx, &st, dt, 2, vdims, &va))) ||
        (rc = usmarr__linalg_status_new(ctx, fn, st.count, &status)))
        goto done;
    if (k >= USMARR__SVD_BIDIAGONAL_MIN && st.work) {
        rc = usmarr__svd_bidiagonal(&st, full, sa, ua, va, status);
        if (!rc)
            rc = usmarr__linalg_status_check(fn, status, "did not converge within the iteration limit",
                                             st.nbatch_dims, st.batch_shape);
        goto done;
    }
    /* the work: the tall form and its reflectors, tau, G, V, the tall form's U, a row */
    int64_t wsize = mt * k + k + 2 * k * k + (u ? mt * uc : 0) + (k > uc ? k : uc);
    if (wsize > 0 || (u && (m * udims[1] > 0 || vdims[0] * n > 0))) {
        int64_t wdims[1] = {wsize};
        if ((rc = usmarr__decomp_array(ctx, &st, dt, 1, wdims, &ws)))
            goto done;
        cl_long lm = m, ln = n, luc = uc;
        cl_int want_uv = u != NULL, sweeps = usmarr__decomp_sweeps();
        const struct usmarr__karg args[] = {USMARR__ARG_PTR(st.work ? usmarr_array_data(st.work) : NULL),
                                            USMARR__ARG_PTR(usmarr_array_data(ws)),
                                            USMARR__ARG_PTR(usmarr_array_data(sa)),
                                            USMARR__ARG_PTR(ua ? usmarr_array_data(ua) : NULL),
                                            USMARR__ARG_PTR(va ? usmarr_array_data(va) : NULL),
                                            USMARR__ARG_PTR(usmarr_array_data(status)),
                                            USMARR__ARG(lm),
                                            USMARR__ARG(ln),
                                            USMARR__ARG(luc),
                                            USMARR__ARG(want_uv),
                                            USMARR__ARG(sweeps)};
        rc = usmarr__decomp_launch(ctx, &st, dt, "usmarr_svd_jacobi", USMARR__NARGS(args), args);
        if (!rc)
            rc = usmarr__linalg_status_check(fn, status, "did not converge within the iteration limit",
                                             st.nbatch_dims, st.batch_shape);
    }
done:
    usmarr__linalg_stack_release(&st);
    usmarr_array_release(status);
    usmarr_array_release(ws);
    if (rc) {
        usmarr_array_release(sa);
        usmarr_array_release(ua);
        usmarr_array_release(va);
        return rc;
    }
    *s = sa;
    if (u) {
        *u = ua;
        *vh = va;
    }
    return 0;
}

int usmarr_linalg_svd(const usmarr_array_t *x, bool full_matrices, usmarr_array_t **u, usmarr_array_t **s,
                      usmarr_array_t **vh)
{
    usmarr__clear_error();
    if (!u || !s || !vh)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "svd: %s is NULL", !u ? "u" : !s ? "s" : "vh");
    *u = *s = *vh = NULL;
    return usmarr__svd("svd", x, full_matrices, u, s, vh);
}

/* Hands `value` (one reference, taken) to the result convention: copied into `out`, or
 * returned in *result. */
static int deliver(const usmarr_array_t *x, usmarr_array_t *value, usmarr_array_t *out, usmarr_array_t **result)
{
    usmarr_array_t *target = NULL;
    const usmarr_array_t *inputs[1] = {x};
    int rc = usmarr__result_begin(x, inputs, 1, value->dtype, value->ndim, value->shape, out, result, &target);
    if (!rc) {
        rc = usmarr_array_copy_into(target, value);
        rc = usmarr__result_end(rc, target, out, result);
    }
    usmarr_array_release(value);
    return rc;
}

int usmarr_linalg_svdvals(const usmarr_array_t *x, usmarr_array_t *out, usmarr_array_t **result)
{
    usmarr__clear_error();
    usmarr_dtype_t dt;
    int rc = usmarr__linalg_check("svdvals", x, "x", 2, false, &dt);
    if (rc)
        return rc;
    usmarr_dtype_t real = dt == USMARR_COMPLEX64 ? USMARR_FLOAT32 : dt == USMARR_COMPLEX128 ? USMARR_FLOAT64 : dt;
    int64_t shape[USMARR_MAX_NDIM], m = x->shape[x->ndim - 2], n = x->shape[x->ndim - 1];
    memcpy(shape, x->shape, sizeof(int64_t) * (size_t)(x->ndim - 2));
    shape[x->ndim - 2] = m < n ? m : n;
    struct usmarr__linalg_result res;
    const usmarr_array_t *inputs[1] = {x};
    if ((rc = usmarr__linalg_result_begin("svdvals", x, inputs, 1, real, x->ndim - 1, shape, out, result, &res)))
        return rc;
    usmarr_array_t *s = NULL;
    rc = usmarr__svd("svdvals", x, false, NULL, &s, NULL);
    rc = usmarr__linalg_result_end(rc, s, &res);
    usmarr_array_release(s);
    return rc;
}

/* A 0-d array of `dtype` holding `value`. */
static int scalar_array(usmarr_context_t *ctx, usmarr_dtype_t dtype, double value, usmarr_array_t **a)
{
    float f = (float)value;
    return usmarr_array_from_host(ctx, 0, NULL, dtype, dtype == USMARR_FLOAT32 ? (const void *)&f : (const void *)&value,
                                  NULL, USMARR_USM_DEVICE, a);
}

/* The cut-off rtol * max(s) of the singular values s (batch..., k), shape (batch..., 1):
 * rtol an array that broadcasts against the batch dims, or NULL for max(m, n) * eps. */
static int cutoff(const char *fn, const usmarr_array_t *s, const usmarr_array_t *rtol, int64_t m, int64_t n,
                  usmarr_array_t **cut)
{
    int last = -1;
    usmarr_array_t *smax = NULL, *r = NULL;
    int rc = usmarr_max(s, 1, &last, true, NULL, &smax);
    if (rc)
        return rc;
    if (rtol) {
        if ((rc = usmarr__same_context(s, "x", rtol, "rtol")))
            goto done;
        if (rtol->dtype == USMARR_COMPLEX64 || rtol->dtype == USMARR_COMPLEX128) {
            rc = usmarr__fail(USMARR_ERROR_BAD_DTYPE, "%s: rtol is complex; it must be real", fn);
            goto done;
        }
        if ((rc = usmarr_array_expand_dims(rtol, 1, &last, &r)))
            goto done;
    } else {
        double eps = s->dtype == USMARR_FLOAT32 ? FLT_EPSILON : DBL_EPSILON;
        if ((rc = scalar_array(s->memory->context, s->dtype, (double)(m > n ? m : n) * eps, &r)))
            goto done;
    }
    usmarr_array_t *c = NULL;
    if ((rc = usmarr_multiply(smax, r, NULL, &c)))
        goto done;
    if (c->ndim != smax->ndim) { /* rtol has more dims than the stack */
        usmarr_array_release(c);
        rc = usmarr__fail(USMARR_ERROR_SHAPE_MISMATCH, "%s: rtol has %d dims, more than x's %d batch dims", fn,
                          rtol ? rtol->ndim : 0, smax->ndim - 1);
        goto done;
    }
    /* the cut-off in the singular values' dtype, as NumPy compares */
    if (c->dtype != s->dtype) {
        usmarr_array_t *cc = NULL;
        rc = usmarr_array_astype(c, s->dtype, USMARR_ORDER_C, NULL, &cc);
        usmarr_array_release(c);
        c = cc;
    }
    *cut = c;
done:
    usmarr_array_release(smax);
    usmarr_array_release(r);
    return rc;
}

int usmarr_linalg_matrix_rank(const usmarr_array_t *x, const usmarr_array_t *rtol, usmarr_array_t *out,
                              usmarr_array_t **result)
{
    usmarr__clear_error();
    if (!out && !result)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "matrix_rank: result is NULL and no out is given");
    usmarr_array_t *s = NULL, *cut = NULL, *large = NULL, *rank = NULL;
    int rc = usmarr__svd("matrix_rank", x, false, NULL, &s, NULL);
    if (rc)
        return rc;
    int last = -1;
    int64_t m = x->shape[x->ndim - 2], n = x->shape[x->ndim - 1];
    if (m == 0 || n == 0) {
        rc = usmarr__fail(USMARR_ERROR_SHAPE_MISMATCH,
                          "matrix_rank: x's matrices are %lld x %lld; the largest singular value of an empty matrix "
                          "is undefined (as NumPy)",
                          (long long)m, (long long)n);
        goto done;
    }
    if ((rc = cutoff("matrix_rank", s, rtol, m, n, &cut)) || (rc = usmarr_greater(s, cut, NULL, &large)) ||
        (rc = usmarr_count_nonzero(large, 1, &last, false, NULL, &rank)))
        goto done;
    if (rank->ndim != x->ndim - 2) { /* rtol broadcast the stack */
        rc = usmarr__fail(USMARR_ERROR_SHAPE_MISMATCH, "matrix_rank: rtol does not broadcast to x's batch dims");
        goto done;
    }
    rc = deliver(x, rank, out, result);
    rank = NULL;
done:
    usmarr_array_release(s);
    usmarr_array_release(cut);
    usmarr_array_release(large);
    usmarr_array_release(rank);
    return rc;
}

int usmarr_linalg_pinv(const usmarr_array_t *x, const usmarr_array_t *rtol, usmarr_array_t *out,
                       usmarr_array_t **result)
{
    usmarr__clear_error();
    if (!out && !result)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "pinv: result is NULL and no out is given");
    usmarr_array_t *u = NULL, *s = NULL, *vh = NULL, *cut = NULL, *large = NULL, *inv = NULL, *zero = NULL;
    usmarr_array_t *sinv = NULL, *col = NULL, *uh = NULL, *v = NULL, *scaled = NULL, *p = NULL;
    int rc = usmarr__svd("pinv", x, false, &u, &s, &vh);
    if (rc)
        return rc;
    int64_t m = x->shape[x->ndim - 2], n = x->shape[x->ndim - 1];
    if (m == 0 || n == 0) { /* NumPy: an empty (n, m) result */
        int64_t shape[USMARR_MAX_NDIM];
        memcpy(shape, x->shape, sizeof(int64_t) * (size_t)x->ndim);
        shape[x->ndim - 2] = n;
        shape[x->ndim - 1] = m;
        if (!(rc = usmarr_array_empty(x->memory->context, x->ndim, shape, u->dtype, USMARR_ORDER_C, USMARR_USM_DEVICE,
                                      &p))) {
            rc = deliver(x, p, out, result);
            p = NULL;
        }
        goto done;
    }
    int last = -1;
    if ((rc = cutoff("pinv", s, rtol, m, n, &cut)) || (rc = usmarr_greater(s, cut, NULL, &large)) ||
        (rc = usmarr_reciprocal(s, NULL, &inv)) || (rc = scalar_array(x->memory->context, s->dtype, 0, &zero)) ||
        (rc = usmarr_where(large, inv, zero, NULL, &sinv)) || (rc = usmarr_array_expand_dims(sinv, 1, &last, &col)) ||
        (rc = usmarr__adjoint(u, &uh)) || (rc = usmarr__adjoint(vh, &v)) || (rc = usmarr_multiply(col, uh, NULL, &scaled)))
        goto done;
    if (scaled->ndim != uh->ndim) {
        rc = usmarr__fail(USMARR_ERROR_SHAPE_MISMATCH, "pinv: rtol does not broadcast to x's batch dims");
        goto done;
    }
    rc = usmarr_matmul(v, scaled, out, result);
done:
    usmarr_array_release(u);
    usmarr_array_release(s);
    usmarr_array_release(vh);
    usmarr_array_release(cut);
    usmarr_array_release(large);
    usmarr_array_release(inv);
    usmarr_array_release(zero);
    usmarr_array_release(sinv);
    usmarr_array_release(col);
    usmarr_array_release(uh);
    usmarr_array_release(v);
    usmarr_array_release(scaled);
    usmarr_array_release(p);
    return rc;
}

int usmarr__matrix_norm_singular(const usmarr_array_t *x, enum usmarr__norm_singular ord, bool keepdims, usmarr_array_t *out,
                                 usmarr_array_t **result)
{
    const char *fn = "matrix_norm";
    usmarr_array_t *s = NULL, *r = NULL, *kept = NULL;
    int rc = usmarr__svd(fn, x, false, NULL, &s, NULL);
    if (rc)
        return rc;
    int last = -1;
    int64_t m = x->shape[x->ndim - 2], n = x->shape[x->ndim - 1];
    if ((m == 0 || n == 0) && ord != USMARR__NORM_NUCLEAR) {
        rc = usmarr__fail(USMARR_ERROR_SHAPE_MISMATCH,
                          "%s: x's matrices are %lld x %lld; their %s singular value is undefined (as NumPy)", fn,
                          (long long)m, (long long)n, ord == USMARR__NORM_2 ? "largest" : "smallest");
        goto done;
    }
    rc = ord == USMARR__NORM_2    ? usmarr_max(s, 1, &last, false, NULL, &r)
         : ord == USMARR__NORM_MINUS_2 ? usmarr_min(s, 1, &last, false, NULL, &r)
                                 : usmarr_sum(s, 1, &last, false, NULL, &r);
    if (rc)
        goto done;
    if (keepdims) {
        int axes[2] = {-2, -1};
        if ((rc = usmarr_array_expand_dims(r, 2, axes, &kept)))
            goto done;
        usmarr_array_release(r);
        r = kept;
    }
    rc = deliver(x, r, out, result);
    r = NULL;
done:
    usmarr_array_release(s);
    usmarr_array_release(r);
    return rc;
}
