/* eigh and eigvalsh: eigenvalues (ascending) and eigenvectors of stacks of Hermitian
 * matrices (doc/linalg.md): by cyclic Jacobi (cl/linalg_eig.cl, usmarr_eigh_jacobi); real
 * ones from order USMARR__EIGH_TRIDIAGONAL_MIN by the blocked tridiagonalisation and QL of
 * eigh_blocked.c; complex ones from order USMARR__EIGH_SVD_MIN by the SVD of the
 * shifted matrix H + s I, s = ‖H‖_inf, which is positive semi-definite: its singular values
 * are the eigenvalues plus s and its right singular vectors the eigenvectors. */
#include "linalg_internal.h"

#include <string.h>

/* The Hermitian matrices of x's lower triangles (the diagonal's imaginary parts dropped). */
static int hermitian(const usmarr_array_t *x, usmarr_dtype_t dt, usmarr_array_t **h)
{
    usmarr_array_t *c = NULL, *lower = NULL, *strict = NULL, *t = NULL, *ht = NULL, *sum = NULL, *half = NULL;
    int rc = usmarr_array_astype(x, dt, USMARR_ORDER_C, NULL, &c);
    if (!rc && !(rc = usmarr_tril(c, 0, NULL, &lower)) && !(rc = usmarr_tril(c, -1, NULL, &strict)) &&
        !(rc = usmarr_matrix_transpose(strict, &t))) {
        if (usmarr_dtype_kind(dt) == USMARR_KIND_COMPLEX)
            rc = usmarr_conj(t, NULL, &ht);
        else
            ht = usmarr_array_retain(t);
    }
    if (!rc)
        rc = usmarr_add(lower, ht, NULL, &sum);
    if (!rc && usmarr_dtype_kind(dt) == USMARR_KIND_COMPLEX) { /* (H + Hᴴ) / 2: the diagonal's real part */
        usmarr_array_t *st = NULL, *sh = NULL, *two = NULL;
        usmarr_dtype_t real = dt == USMARR_COMPLEX64 ? USMARR_FLOAT32 : USMARR_FLOAT64;
        double v = 0.5;
        float f = 0.5f;
        if (!(rc = usmarr_matrix_transpose(sum, &st)) && !(rc = usmarr_conj(st, NULL, &sh)) &&
            !(rc = usmarr_add(sum, sh, NULL, &half)) &&
            !(rc = usmarr_array_from_host(x->memory->context, 0, NULL, real,
                                          real == USMARR_FLOAT32 ? (const void *)&f : (const void *)&v, NULL,
                                          USMARR_USM_DEVICE, &two)))
            rc = usmarr_multiply(half, two, half, NULL);
        usmarr_array_release(st);
        usmarr_array_release(sh);
        usmarr_array_release(two);
        if (!rc) {
            usmarr_array_release(sum);
            sum = usmarr_array_retain(half);
        }
    }
    if (!rc)
        *h = usmarr_array_retain(sum);
    usmarr_array_release(c);
    usmarr_array_release(lower);
    usmarr_array_release(strict);
    usmarr_array_release(t);
    usmarr_array_release(ht);
    usmarr_array_release(sum);
    usmarr_array_release(half);
    return rc;
}

/* Large matrices: H + s I = U Σ Vᴴ with s = ‖H‖_inf >= every |eigenvalue|, so that the
 * shifted matrix is positive semi-definite; its eigenvalues are Σ (descending) and its
 * eigenvectors V.  Hence w = Σ - s reversed, and v = V's columns reversed. */
static int eigh_by_svd(const char *fn, const usmarr_array_t *x, usmarr_dtype_t dt, usmarr_array_t **w,
                       usmarr_array_t **v)
{
    usmarr_array_t *h = NULL, *norm = NULL, *shift = NULL, *eye = NULL, *scaled = NULL, *b = NULL;
    usmarr_array_t *u = NULL, *s = NULL, *vh = NULL, *sr = NULL, *wv = NULL, *vv = NULL, *vt = NULL;
    int64_t n = x->shape[x->ndim - 1];
    int axes[2] = {-2, -1};
    int rc = hermitian(x, dt, &h);
    if (!rc)
        rc = usmarr_linalg_matrix_norm(h, USMARR_NORM_INF, true, NULL, &norm);
    if (!rc)
        rc = usmarr_array_eye(x->memory->context, n, n, 0, dt, USMARR_ORDER_C, USMARR_USM_DEVICE, &eye);
    if (!rc)
        rc = usmarr_multiply(eye, norm, NULL, &scaled);
    if (!rc)
        rc = usmarr_add(h, scaled, NULL, &b);
    if (!rc)
        rc = usmarr__svd(fn, b, false, v ? &u : NULL, &s, v ? &vh : NULL);
    /* eigenvalues: Σ - s, ascending */
    if (!rc)
        rc = usmarr_array_squeeze(norm, 1, axes, &shift); /* (batch..., 1) */
    if (!rc)
        rc = usmarr_array_index_text(s, "..., ::-1", &sr);
    if (!rc)
        rc = usmarr_subtract(sr, shift, NULL, &wv);
    if (!rc && v) { /* eigenvectors: the columns of V = Vhᴴ, in the same order */
        usmarr_array_t *rows = NULL;
        if (!(rc = usmarr_array_index_text(vh, "..., ::-1, :", &rows)) && !(rc = usmarr_matrix_transpose(rows, &vt)))
            rc = usmarr_dtype_kind(dt) == USMARR_KIND_COMPLEX ? usmarr_conj(vt, NULL, &vv)
                                                              : usmarr_array_copy(vt, USMARR_ORDER_C, NULL, &vv);
        usmarr_array_release(rows);
    }
    if (!rc) {
        *w = usmarr_array_retain(wv);
        if (v)
            *v = usmarr_array_retain(vv);
    }
    usmarr_array_release(h);
    usmarr_array_release(norm);
    usmarr_array_release(shift);
    usmarr_array_release(eye);
    usmarr_array_release(scaled);
    usmarr_array_release(b);
    usmarr_array_release(u);
    usmarr_array_release(s);
    usmarr_array_release(vh);
    usmarr_array_release(sr);
    usmarr_array_release(wv);
    usmarr_array_release(vv);
    usmarr_array_release(vt);
    return rc;
}

/* The eigenvalues into a new array *w and, when v is given, the eigenvectors into *v. */
static int eigh(const char *fn, const usmarr_array_t *x, usmarr_array_t **w, usmarr_array_t **v)
{
    usmarr_dtype_t dt;
    int rc = usmarr__linalg_check(fn, x, "x", 2, true, &dt);
    if (rc)
        return rc;
    bool complex = usmarr_dtype_kind(dt) == USMARR_KIND_COMPLEX;
    if (complex && x->shape[x->ndim - 1] >= USMARR__EIGH_SVD_MIN && usmarr_array_size(x) > 0)
        return eigh_by_svd(fn, x, dt, w, v);
    bool large = !complex && x->shape[x->ndim - 1] >= USMARR__EIGH_TRIDIAGONAL_MIN;
    struct usmarr__linalg_stack st;
    usmarr_dtype_t real;
    if ((rc = usmarr__decomp_prepare(fn, x, true, &st, &dt, &real)))
        return rc;
    usmarr_context_t *ctx = x->memory->context;
    int64_t n = st.rows, wdims[1] = {n}, vdims[2] = {n, n};
    usmarr_array_t *wa = NULL, *va = NULL, *status = NULL;
    if ((rc = usmarr__decomp_array(ctx, &st, real, 1, wdims, &wa)) ||
        (v && (rc = usmarr__decomp_array(ctx, &st, dt, 2, vdims, &va))) ||
        (rc = usmarr__linalg_status_new(ctx, fn, st.count, &status)))
        goto done;
    if (st.work) {
        cl_long ln = n;
        cl_int want_v = v != NULL, sweeps = usmarr__decomp_sweeps();
        const struct usmarr__karg args[] = {USMARR__ARG_PTR(usmarr_array_data(st.work)),
                                            USMARR__ARG_PTR(usmarr_array_data(wa)),
                                            USMARR__ARG_PTR(va ? usmarr_array_data(va) : NULL),
                                            USMARR__ARG_PTR(usmarr_array_data(status)),
                                            USMARR__ARG(ln),
                                            USMARR__ARG(want_v),
                                            USMARR__ARG(sweeps)};
        rc = large ? usmarr__eigh_tridiagonal(&st, wa, va, status)
                   : usmarr__decomp_launch(ctx, &st, dt, "usmarr_eigh_jacobi", USMARR__NARGS(args), args);
        if (!rc)
            rc = usmarr__linalg_status_check(fn, status, "did not converge within the iteration limit",
                                             st.nbatch_dims, st.batch_shape);
    }
done:
    usmarr__linalg_stack_release(&st);
    usmarr_array_release(status);
    if (rc) {
        usmarr_array_release(wa);
        usmarr_array_release(va);
        return rc;
    }
    *w = wa;
    if (v)
        *v = va;
    return 0;
}

int usmarr_linalg_eigh(const usmarr_array_t *x, usmarr_array_t **eigenvalues, usmarr_array_t **eigenvectors)
{
    usmarr__clear_error();
    if (!eigenvalues || !eigenvectors)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "eigh: %s is NULL",
                            eigenvalues ? "eigenvectors" : "eigenvalues");
    *eigenvalues = *eigenvectors = NULL;
    return eigh("eigh", x, eigenvalues, eigenvectors);
}

int usmarr_linalg_eigvalsh(const usmarr_array_t *x, usmarr_array_t *out, usmarr_array_t **result)
{
    usmarr__clear_error();
    usmarr_dtype_t dt;
    int rc = usmarr__linalg_check("eigvalsh", x, "x", 2, true, &dt);
    if (rc)
        return rc;
    usmarr_dtype_t real = dt == USMARR_COMPLEX64 ? USMARR_FLOAT32 : dt == USMARR_COMPLEX128 ? USMARR_FLOAT64 : dt;
    struct usmarr__linalg_result res;
    const usmarr_array_t *inputs[1] = {x};
    if ((rc = usmarr__linalg_result_begin("eigvalsh", x, inputs, 1, real, x->ndim - 1, x->shape, out, result, &res)))
        return rc;
    usmarr_array_t *w = NULL;
    rc = eigh("eigvalsh", x, &w, NULL);
    rc = usmarr__linalg_result_end(rc, w, &res);
    usmarr_array_release(w);
    return rc;
}
