/* cholesky on cl/linalg_lu.cl's usmarr_cholesky_factor (doc/linalg.md): one work-item a
 * matrix, in private memory, up to USMARR__LINALG_SMALL (real ones up to
 * USMARR__LINALG_LANES_MAX several a work-item: usmarr_cholesky_lanes); the blocked path
 * beyond. */
#include "linalg_internal.h"

/* The blocked path (blocked.c): the lower factor of x (upper: of x^H, whose lower
 * triangle is x's upper one conjugated, then U = L^H) as a new array *factor. */
static int blocked(const usmarr_array_t *x, usmarr_dtype_t dt, bool upper, usmarr_array_t **factor)
{
    usmarr_context_t *ctx = x->memory->context;
    struct usmarr__linalg_stack a = {0};
    usmarr_array_t *status = NULL, *t = NULL, *lower = NULL, *lt = NULL, *c = NULL;
    bool cplx = usmarr_dtype_kind(dt) == USMARR_KIND_COMPLEX;
    int rc = upper ? usmarr_matrix_transpose(x, &t) : 0;
    if (!rc)
        rc = usmarr__linalg_stack_padded(upper ? t : x, dt, 0, NULL, &a);
    if (!rc && upper && cplx)
        rc = usmarr_conj(a.work, a.work, NULL);
    if (!rc)
        rc = usmarr__linalg_status_new(ctx, "cholesky", a.count, &status);
    for (int64_t m = 0; m < a.count && !rc; m++)
        rc = usmarr__linalg_blocked_cholesky(&a, m, status);
    if (!rc)
        rc = usmarr__linalg_status_check("cholesky", status, "is not positive definite", a.nbatch_dims, a.batch_shape);
    if (!rc)
        rc = usmarr_tril(a.work, 0, NULL, &lower);
    if (!rc && upper) {
        rc = usmarr_matrix_transpose(lower, &lt);
        if (!rc)
            rc = cplx ? usmarr_conj(lt, NULL, &c) : usmarr_array_copy(lt, USMARR_ORDER_C, NULL, &c);
        if (!rc)
            *factor = usmarr_array_retain(c);
    } else if (!rc) {
        *factor = usmarr_array_retain(lower);
    }
    usmarr_array_t *all[] = {status, t, lower, lt, c};
    for (int i = 0; i < 5; i++)
        usmarr_array_release(all[i]);
    usmarr__linalg_stack_release(&a);
    return rc;
}

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
    struct usmarr__linalg_stack a = {0}, l = {0};
    usmarr_array_t *status = NULL, *factor = NULL;
    if (x->shape[x->ndim - 1] > USMARR__LINALG_SMALL) {
        rc = blocked(x, dt, upper, &factor);
        goto done;
    }
    rc = usmarr__linalg_stack_read(x, dt, 0, NULL, &a);
    if (!rc)
        rc = usmarr__linalg_stack_empty(ctx, dt, a.nbatch_dims, a.batch_shape, a.rows, a.cols, &l);
    if (!rc && a.rows > 0 && a.count > 0) {
        rc = usmarr__linalg_status_new(ctx, "cholesky", a.count, &status);
        if (!rc) {
            char defines[32];
            usmarr__linalg_order_defines(a.rows, defines, sizeof defines);
            cl_long n = a.rows;
            cl_int up = upper;
            const struct usmarr__karg args[] = {USMARR__ARG_PTR(usmarr_array_data(a.work)),
                                                USMARR__ARG_PTR(usmarr_array_data(l.work)),
                                                USMARR__ARG_PTR(usmarr_array_data(status)), USMARR__ARG(n),
                                                USMARR__ARG(up)};
            rc = usmarr_dtype_kind(dt) == USMARR_KIND_FLOAT && n <= USMARR__LINALG_LANES_MAX
                     ? usmarr__linalg_launch_lanes(ctx, "linalg_lu", dt, "usmarr_cholesky_lanes", n, a.count,
                                                   USMARR__NARGS(args), args)
                     : usmarr__linalg_launch(ctx, "linalg_lu", dt, defines, "usmarr_cholesky_factor",
                                             USMARR__NARGS(args), args, a.count);
        }
        if (!rc)
            rc = usmarr__linalg_status_check("cholesky", status, "is not positive definite", a.nbatch_dims,
                                             a.batch_shape);
    }
    factor = l.work ? usmarr_array_retain(l.work) : NULL;
    usmarr__linalg_stack_release(&l);
done:
    rc = usmarr__linalg_result_end(rc, factor, &r);
    usmarr_array_release(factor);
    usmarr_array_release(status);
    usmarr__linalg_stack_release(&a);
    return rc;
}
