/* det, slogdet, solve and inv on LU factorisations with partial pivoting (cl/linalg_lu.cl;
 * doc/linalg.md), and matrix_power on matmul and inv.  Each call copies its operands into
 * work stacks (stack.c); matrices up to USMARR__LINALG_SMALL are factored by one work-item
 * in private memory, larger ones one at a time by the blocked path of blocked.c. */
#include "linalg_internal.h"

#include <stdio.h>
#include <string.h>

/* det (slog false) or slogdet's two parts of every matrix of x's stack, into the new
 * arrays *det and (slog) *logabs of x's batch shape. */
static int lu_det(const char *fn, const usmarr_array_t *x, usmarr_dtype_t dt, bool slog, usmarr_array_t **det,
                  usmarr_array_t **logabs)
{
    usmarr_context_t *ctx = x->memory->context;
    int nb = x->ndim - 2;
    int64_t n = x->shape[nb];
    usmarr_dtype_t real = usmarr_dtype_kind(dt) == USMARR_KIND_COMPLEX ? (dt == USMARR_COMPLEX64 ? USMARR_FLOAT32
                                                                                                 : USMARR_FLOAT64)
                                                                       : dt;
    struct usmarr__linalg_stack s = {0};
    int rc = usmarr__array_empty_like_layout(ctx, dt, nb, x->shape, USMARR_ORDER_C, USMARR_USM_DEVICE, det);
    if (!rc && slog)
        rc = usmarr__array_empty_like_layout(ctx, real, nb, x->shape, USMARR_ORDER_C, USMARR_USM_DEVICE, logabs);
    if (!rc && n == 0) { /* the empty product: det 1, sign 1, log 0 */
        rc = usmarr_array_fill(*det, usmarr_scalar_int(1));
        if (!rc && slog)
            rc = usmarr_array_fill(*logabs, usmarr_scalar_int(0));
    } else if (!rc) {
        rc = n > USMARR__LINALG_SMALL ? usmarr__linalg_stack_padded(x, dt, 0, NULL, &s)
                                      : usmarr__linalg_stack_read(x, dt, 0, NULL, &s);
        if (!rc && n > USMARR__LINALG_SMALL) {
            usmarr_array_t *piv = NULL, *status = NULL;
            rc = usmarr_array_empty(ctx, 1, &n, USMARR_INT32, USMARR_ORDER_C, USMARR_USM_DEVICE, &piv);
            if (!rc)
                rc = usmarr__linalg_status_new(ctx, fn, s.count, &status);
            for (int64_t m = 0; m < s.count && !rc; m++) {
                rc = usmarr__linalg_blocked_lu(&s, m, piv, status);
                if (!rc)
                    rc = usmarr__linalg_blocked_lu_det(&s, m, piv, *det, slog ? *logabs : NULL);
            }
            usmarr_array_release(piv);
            usmarr_array_release(status);
        } else if (!rc) {
            char defines[32];
            usmarr__linalg_order_defines(n, defines, sizeof defines);
            cl_long nn = n;
            cl_int mode = slog;
            void *lp = slog ? usmarr_array_data(*logabs) : usmarr_array_data(*det);
            const struct usmarr__karg args[] = {USMARR__ARG_PTR(usmarr_array_data(s.work)),
                                                USMARR__ARG_PTR(usmarr_array_data(*det)), USMARR__ARG_PTR(lp),
                                                USMARR__ARG(nn), USMARR__ARG(mode)};
            rc = usmarr_dtype_kind(dt) == USMARR_KIND_FLOAT && n <= USMARR__LINALG_LANES_MAX
                     ? usmarr__linalg_launch_lanes(ctx, "linalg_lu", dt, "usmarr_lu_det_lanes", n, s.count,
                                                   USMARR__NARGS(args), args)
                     : usmarr__linalg_launch(ctx, "linalg_lu", dt, defines, "usmarr_lu_det", USMARR__NARGS(args),
                                             args, s.count);
        }
    }
    usmarr__linalg_stack_release(&s); /* waits for the launch */
    if (rc) {
        usmarr_array_release(*det);
        *det = NULL;
        if (slog) {
            usmarr_array_release(*logabs);
            *logabs = NULL;
        }
    }
    return rc;
}

int usmarr_linalg_det(const usmarr_array_t *x, usmarr_array_t *out, usmarr_array_t **result)
{
    usmarr__clear_error();
    usmarr_dtype_t dt;
    int rc = usmarr__linalg_check("det", x, "x", 2, true, &dt);
    if (rc)
        return rc;
    struct usmarr__linalg_result r;
    if ((rc = usmarr__linalg_result_begin("det", x, &x, 1, dt, x->ndim - 2, x->shape, out, result, &r)))
        return rc;
    usmarr_array_t *det = NULL;
    rc = lu_det("det", x, dt, false, &det, NULL);
    rc = usmarr__linalg_result_end(rc, det, &r);
    usmarr_array_release(det);
    return rc;
}

int usmarr_linalg_slogdet(const usmarr_array_t *x, usmarr_array_t **sign, usmarr_array_t **logabsdet)
{
    usmarr__clear_error();
    usmarr_dtype_t dt;
    int rc = usmarr__linalg_check("slogdet", x, "x", 2, true, &dt);
    if (rc)
        return rc;
    if (!sign || !logabsdet)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "slogdet: %s is NULL", sign ? "logabsdet" : "sign");
    *sign = *logabsdet = NULL;
    return lu_det("slogdet", x, dt, true, sign, logabsdet);
}

/* b <- inv(a) b for the stacks a (n x n) and b (n x k) of one batch shape;
 * USMARR_ERROR_LINALG when a matrix of a is singular.  `identity`: b is the identity (inv):
 * the kernel of small orders sets it, the blocked path finds it there. */
static int lu_solve(const char *fn, struct usmarr__linalg_stack *a, struct usmarr__linalg_stack *b, bool identity)
{
    usmarr_context_t *ctx = a->work->memory->context;
    int64_t n = a->rows;
    if (n == 0 || a->count == 0)
        return 0;
    usmarr_array_t *status = NULL;
    int rc = usmarr__linalg_status_new(ctx, fn, a->count, &status);
    if (!rc && n > USMARR__LINALG_SMALL) {
        usmarr_array_t *piv = NULL;
        rc = usmarr_array_empty(ctx, 1, &n, USMARR_INT32, USMARR_ORDER_C, USMARR_USM_DEVICE, &piv);
        for (int64_t m = 0; m < a->count && !rc; m++) {
            rc = usmarr__linalg_blocked_lu(a, m, piv, status);
            if (!rc)
                rc = usmarr__linalg_blocked_lu_solve(a, b, m, piv, identity);
        }
        usmarr_array_release(piv);
    } else if (!rc) {
        char defines[32];
        usmarr__linalg_order_defines(n, defines, sizeof defines);
        cl_long nn = n, kk = b->cols;
        cl_int id = identity;
        const struct usmarr__karg args[] = {USMARR__ARG_PTR(usmarr_array_data(a->work)),
                                            USMARR__ARG_PTR(usmarr_array_data(b->work)),
                                            USMARR__ARG_PTR(usmarr_array_data(status)), USMARR__ARG(nn),
                                            USMARR__ARG(kk), USMARR__ARG(id)};
        bool lanes = usmarr_dtype_kind(a->work->dtype) == USMARR_KIND_FLOAT && n <= USMARR__LINALG_LANES_MAX &&
                     b->cols <= n;
        rc = lanes ? usmarr__linalg_launch_lanes(ctx, "linalg_lu", a->work->dtype, "usmarr_lu_solve_lanes", n,
                                                 a->count, USMARR__NARGS(args), args)
                   : usmarr__linalg_launch(ctx, "linalg_lu", a->work->dtype, defines, "usmarr_lu_solve",
                                           USMARR__NARGS(args), args, a->count);
    }
    if (!rc)
        rc = usmarr__linalg_status_check(fn, status, "is singular", a->nbatch_dims, a->batch_shape);
    usmarr_array_release(status);
    return rc;
}

int usmarr_linalg_inv(const usmarr_array_t *x, usmarr_array_t *out, usmarr_array_t **result)
{
    usmarr__clear_error();
    usmarr_dtype_t dt;
    int rc = usmarr__linalg_check("inv", x, "x", 2, true, &dt);
    if (rc)
        return rc;
    struct usmarr__linalg_result r;
    if ((rc = usmarr__linalg_result_begin("inv", x, &x, 1, dt, x->ndim, x->shape, out, result, &r)))
        return rc;
    struct usmarr__linalg_stack a = {0}, b = {0};
    int nb = x->ndim - 2;
    int64_t n = x->shape[nb];
    usmarr_array_t *eye = NULL, *inverse = NULL;
    if (n > USMARR__LINALG_SMALL) { /* padded stacks, b the identity; the result C-ordered */
        rc = usmarr__linalg_stack_padded(x, dt, 0, NULL, &a);
        if (!rc)
            rc = usmarr_array_eye(x->memory->context, n, n, 0, dt, USMARR_ORDER_C, USMARR_USM_DEVICE, &eye);
        if (!rc)
            rc = usmarr__linalg_stack_padded(eye, dt, nb, x->shape, &b);
        if (!rc)
            rc = lu_solve("inv", &a, &b, true);
        if (!rc)
            rc = usmarr_array_copy(b.work, USMARR_ORDER_C, NULL, &inverse);
    } else {
        rc = usmarr__linalg_stack_read(x, dt, 0, NULL, &a);
        if (!rc)
            rc = usmarr__linalg_stack_empty(x->memory->context, dt, nb, x->shape, n, n, &b);
        if (!rc)
            rc = lu_solve("inv", &a, &b, true);
        if (!rc)
            inverse = usmarr_array_retain(b.work);
    }
    rc = usmarr__linalg_result_end(rc, inverse, &r);
    usmarr_array_release(eye);
    usmarr_array_release(inverse);
    usmarr__linalg_stack_release(&a);
    usmarr__linalg_stack_release(&b);
    return rc;
}

int usmarr_linalg_solve(const usmarr_array_t *x1, const usmarr_array_t *x2, usmarr_array_t *out,
                        usmarr_array_t **result)
{
    usmarr__clear_error();
    usmarr_dtype_t d1, d2;
    int rc = usmarr__linalg_check("solve", x1, "x1", 2, true, &d1);
    if (!rc)
        rc = usmarr__linalg_check("solve", x2, "x2", 1, false, &d2);
    if (!rc)
        rc = usmarr__same_context(x1, "x1", x2, "x2");
    if (rc)
        return rc;
    usmarr_context_t *ctx = x1->memory->context;
    usmarr_dtype_t dt = usmarr__linalg_dtype(ctx, usmarr__promote(d1, d2));
    int n1 = x1->ndim - 2;
    int64_t n = x1->shape[n1];
    bool vector = x2->ndim == 1; /* NumPy 2: b is a stack of matrices unless it is 1-D */
    int64_t rows = x2->shape[vector ? 0 : x2->ndim - 2];
    if (rows != n)
        return usmarr__fail(USMARR_ERROR_SHAPE_MISMATCH, "solve: x1's matrices are %lld x %lld, x2 has %lld rows%s",
                            (long long)n, (long long)n, (long long)rows,
                            vector ? " (a 1-D x2 is one vector)" : " (x2 is a stack of matrices unless it is 1-D)");
    int nb = n1;
    int64_t bshape[USMARR_MAX_NDIM], rshape[USMARR_MAX_NDIM];
    if (vector)
        memcpy(bshape, x1->shape, sizeof(int64_t) * (size_t)n1);
    else if ((rc = usmarr__linalg_batch_broadcast("solve", n1, x1->shape, x2->ndim - 2, x2->shape, &nb, bshape)))
        return rc;
    int64_t k = vector ? 1 : x2->shape[x2->ndim - 1];
    memcpy(rshape, bshape, sizeof(int64_t) * (size_t)nb);
    rshape[nb] = n;
    if (!vector)
        rshape[nb + 1] = k;
    int rnd = nb + (vector ? 1 : 2);
    const usmarr_array_t *inputs[2] = {x1, x2};
    struct usmarr__linalg_result r;
    if ((rc = usmarr__linalg_result_begin("solve", x1, inputs, 2, dt, rnd, rshape, out, result, &r)))
        return rc;
    struct usmarr__linalg_stack a = {0}, b = {0};
    usmarr_array_t *column = NULL, *x = NULL;
    rc = n > USMARR__LINALG_SMALL ? usmarr__linalg_stack_padded(x1, dt, nb, bshape, &a)
                                  : usmarr__linalg_stack_read(x1, dt, nb, bshape, &a);
    if (!rc && vector) {
        int axis = 1;
        rc = usmarr_array_expand_dims(x2, 1, &axis, &column);
    }
    if (!rc)
        rc = usmarr__linalg_stack_new(vector ? column : x2, dt, nb, bshape, &b);
    if (!rc)
        rc = lu_solve("solve", &a, &b, false);
    if (!rc)
        rc = usmarr_array_reshape(b.work, rnd, rshape, USMARR_ORDER_C, USMARR_COPY_NEVER, &x); /* b.work is C-ordered */
    rc = usmarr__linalg_result_end(rc, x, &r);
    usmarr_array_release(x);
    usmarr_array_release(column);
    usmarr__linalg_stack_release(&a);
    usmarr__linalg_stack_release(&b);
    return rc;
}

int usmarr_linalg_matrix_power(const usmarr_array_t *x, int64_t n, usmarr_array_t *out, usmarr_array_t **result)
{
    usmarr__clear_error();
    usmarr_dtype_t dt;
    int rc = usmarr__linalg_check("matrix_power", x, "x", 2, true, &dt);
    if (rc)
        return rc;
    /* NumPy keeps integer dtypes for n >= 0 (products in the dtype); a negative power
     * needs the inverse, of the floating dtype */
    usmarr_dtype_t rdt = n >= 0 ? x->dtype : dt;
    struct usmarr__linalg_result r;
    if ((rc = usmarr__linalg_result_begin("matrix_power", x, &x, 1, rdt, x->ndim, x->shape, out, result, &r)))
        return rc;
    usmarr_context_t *ctx = x->memory->context;
    int64_t m = x->shape[x->ndim - 1];
    usmarr_array_t *base = NULL, *acc = NULL;
    if (n < 0)
        rc = usmarr_linalg_inv(x, NULL, &base);
    else
        rc = usmarr_array_copy(x, USMARR_ORDER_C, NULL, &base);
    uint64_t e = n < 0 ? (uint64_t)0 - (uint64_t)n : (uint64_t)n;
    if (!rc && e == 0) { /* the identity in every matrix of the stack */
        usmarr_array_t *eye = NULL;
        rc = usmarr_array_eye(ctx, m, m, 0, rdt, USMARR_ORDER_C, USMARR_USM_DEVICE, &eye);
        if (!rc)
            rc = usmarr_array_empty_like(base, rdt, USMARR_ORDER_C, 0, &acc);
        if (!rc)
            rc = usmarr_array_copy_into(acc, eye);
        usmarr_array_release(eye);
    }
    /* square and multiply, from the lowest bit */
    while (!rc && e) {
        if (e & 1) {
            if (!acc) {
                acc = usmarr_array_retain(base);
            } else {
                usmarr_array_t *t = NULL;
                rc = usmarr_matmul(acc, base, NULL, &t);
                usmarr_array_release(acc);
                acc = t;
            }
        }
        e >>= 1;
        if (!rc && e) {
            usmarr_array_t *t = NULL;
            rc = usmarr_matmul(base, base, NULL, &t);
            usmarr_array_release(base);
            base = t;
        }
    }
    rc = usmarr__linalg_result_end(rc, acc, &r);
    usmarr_array_release(acc);
    usmarr_array_release(base);
    return rc;
}
