/* cholesky on cl/linalg_lu.cl's usmarr_cholesky_factor (doc/linalg.md): one work-item a
 * matrix, in private memory up to USMARR__LINALG_SMALL, in the work stack beyond. */
#include "linalg_internal.h"

#include <stdio.h>

int usmarr_linalg_cholesky(const usmarr_array_t *x, bool upper, usmarr_array_t *out, usmarr_array_t **result)
{
    usmarr__clear_error();
    usmarr_dtype_t dt;
    int rc = usmarr__linalg_check("cholesky", x, "x", 2, true, &dt);
    if (rc)
        return rc;
    struct usmarr__linalg_result r;
    if ((rc = usmarr__linalg_result_begin("cholesky", x, &x, 1, dt, x->ndim, x->shape, out, result, &r)))
        return rc;
    usmarr_context_t *ctx = x->memory->context;
    struct usmarr__linalg_stack a = {0};
    usmarr_array_t *status = NULL;
    rc = usmarr__linalg_stack_new(x, dt, 0, NULL, &a);
    if (!rc && a.rows > 0 && a.count > 0) {
        rc = usmarr__linalg_status_new(ctx, "cholesky", a.count, &status);
        if (!rc) {
            char defines[32];
            snprintf(defines, sizeof defines, "-DLA_NMAX=%d",
                     a.rows <= USMARR__LINALG_SMALL ? usmarr__linalg_bucket(a.rows) : 0);
            cl_long n = a.rows;
            cl_int up = upper;
            const struct usmarr__karg args[] = {USMARR__ARG_PTR(usmarr_array_data(a.work)),
                                                USMARR__ARG_PTR(usmarr_array_data(status)), USMARR__ARG(n),
                                                USMARR__ARG(up)};
            rc = usmarr__linalg_launch(ctx, "linalg_lu", dt, defines, "usmarr_cholesky_factor", USMARR__NARGS(args),
                                       args, a.count);
        }
        if (!rc)
            rc = usmarr__linalg_status_check("cholesky", status, "is not positive definite", a.nbatch_dims,
                                             a.batch_shape);
    }
    rc = usmarr__linalg_result_end(rc, a.work, &r);
    usmarr_array_release(status);
    usmarr__linalg_stack_release(&a);
    return rc;
}
