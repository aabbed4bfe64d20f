/* eigh and eigvalsh: eigenvalues (ascending) and eigenvectors of stacks of Hermitian
 * matrices by cyclic Jacobi (cl/linalg_eig.cl, usmarr_eigh_jacobi; doc/linalg.md). */
#include "linalg_internal.h"

#include <string.h>

/* The eigenvalues into a new array *w and, when v is given, the eigenvectors into *v. */
static int eigh(const char *fn, const usmarr_array_t *x, usmarr_array_t **w, usmarr_array_t **v)
{
    struct usmarr__decomp_input in;
    int rc = usmarr__decomp_prepare(fn, x, true, &in);
    if (rc)
        return rc;
    int64_t n = in.n, wdims[1] = {n}, vdims[2] = {n, n};
    usmarr_array_t *wa = NULL, *va = NULL, *status = NULL;
    if ((rc = usmarr__decomp_array(&in, in.real, 1, wdims, &wa)) ||
        (v && (rc = usmarr__decomp_array(&in, in.dtype, 2, vdims, &va))) ||
        (rc = usmarr__decomp_status_new(&in, &status)))
        goto done;
    if (in.copy) {
        cl_long ln = n, count = in.count;
        cl_int want_v = v != NULL, sweeps = usmarr__decomp_sweeps();
        const struct usmarr__karg args[] = {USMARR__ARG_PTR(usmarr_array_data(in.copy)),
                                            USMARR__ARG_PTR(usmarr_array_data(wa)),
                                            USMARR__ARG_PTR(va ? usmarr_array_data(va) : NULL),
                                            USMARR__ARG_PTR(usmarr_array_data(status)),
                                            USMARR__ARG(ln),
                                            USMARR__ARG(want_v),
                                            USMARR__ARG(sweeps),
                                            USMARR__ARG(count)};
        rc = usmarr__decomp_launch(&in, "usmarr_eigh_jacobi", USMARR__NARGS(args), args);
        if (!rc)
            rc = usmarr__decomp_status(fn, &in, status);
    }
done:
    usmarr__decomp_input_release(&in);
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
    if (!out && !result)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "eigvalsh: result is NULL and no out is given");
    usmarr_array_t *w = NULL, *target = NULL;
    int rc = eigh("eigvalsh", x, &w, NULL);
    if (rc)
        return rc;
    const usmarr_array_t *inputs[1] = {x};
    rc = usmarr__result_begin(x, inputs, 1, w->dtype, w->ndim, w->shape, out, result, &target);
    if (!rc) {
        rc = usmarr_array_copy_into(target, w);
        rc = usmarr__result_end(rc, target, out, result);
    }
    usmarr_array_release(w);
    return rc;
}
