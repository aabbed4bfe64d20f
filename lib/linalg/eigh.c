/* eigh and eigvalsh: eigenvalues (ascending) and eigenvectors of stacks of Hermitian
 * matrices (doc/linalg.md): by cyclic Jacobi (cl/linalg_eig.cl, usmarr_eigh_jacobi), and
 * from order USMARR__EIGH_TRIDIAGONAL_MIN by the blocked tridiagonal reduction and QL of
 * eigh_blocked.c. */
#include "linalg_internal.h"

#include <string.h>

/* The eigenvalues into a new array *w and, when v is given, the eigenvectors into *v. */
static int eigh(const char *fn, const usmarr_array_t *x, usmarr_array_t **w, usmarr_array_t **v)
{
    usmarr_dtype_t dt;
    int rc = usmarr__linalg_check(fn, x, "x", 2, true, &dt);
    if (rc)
        return rc;
    bool large = x->shape[x->ndim - 1] >= USMARR__EIGH_TRIDIAGONAL_MIN;
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
        if (large)
            rc = usmarr__eigh_tridiagonal(&st, wa, va, status);
        else if (usmarr_dtype_kind(dt) == USMARR_KIND_FLOAT && n <= USMARR__LINALG_LANES_MAX)
            rc = usmarr__linalg_launch_lanes(ctx, "linalg_eig", dt, "usmarr_eigh_lanes", n, st.count,
                                             USMARR__NARGS(args), args);
        else
            rc = usmarr__decomp_launch(ctx, &st, dt, "usmarr_eigh_jacobi", USMARR__NARGS(args), args);
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
