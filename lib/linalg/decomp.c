/* Decompositions: the common steps of QR, eigh and SVD (argument checks, the work copy of a
 * stack, launches of cl/linalg_eig.cl, convergence status) and usmarr_linalg_qr.
 *
 * Every decomposition copies its input, whatever its layout, into a C-ordered stack of the
 * work dtype; one work-item of cl/linalg_eig.cl owns one matrix of it (doc/linalg.md). */
#include "linalg_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int usmarr__decomp_prepare(const char *fn, const usmarr_array_t *x, bool square, struct usmarr__linalg_stack *stack,
                           usmarr_dtype_t *dtype, usmarr_dtype_t *real)
{
    memset(stack, 0, sizeof *stack);
    int rc = usmarr__linalg_check(fn, x, "x", 2, square, dtype);
    if (rc)
        return rc;
    *real = *dtype == USMARR_COMPLEX64 ? USMARR_FLOAT32 : *dtype == USMARR_COMPLEX128 ? USMARR_FLOAT64 : *dtype;
    if (usmarr_array_size(x) > 0)
        return usmarr__linalg_stack_new(x, *dtype, 0, NULL, stack);
    /* nothing to copy: the shape alone */
    stack->nbatch_dims = x->ndim - 2;
    stack->count = 1;
    for (int d = 0; d < stack->nbatch_dims; d++) {
        stack->batch_shape[d] = x->shape[d];
        stack->count *= x->shape[d];
    }
    stack->rows = x->shape[x->ndim - 2];
    stack->cols = x->shape[x->ndim - 1];
    return 0;
}

int usmarr__decomp_array(usmarr_context_t *ctx, const struct usmarr__linalg_stack *stack, usmarr_dtype_t dtype,
                         int ndim, const int64_t *dims, usmarr_array_t **out)
{
    int64_t shape[USMARR_MAX_NDIM + 2];
    memcpy(shape, stack->batch_shape, sizeof(int64_t) * (size_t)stack->nbatch_dims);
    memcpy(shape + stack->nbatch_dims, dims, sizeof(int64_t) * (size_t)ndim);
    return usmarr_array_empty(ctx, stack->nbatch_dims + ndim, shape, dtype, USMARR_ORDER_C, USMARR_USM_DEVICE, out);
}

int usmarr__decomp_launch(usmarr_context_t *ctx, const struct usmarr__linalg_stack *stack, usmarr_dtype_t dtype,
                          const char *kernel, int nargs, const struct usmarr__karg *args)
{
    bool f64 = dtype == USMARR_FLOAT64 || dtype == USMARR_COMPLEX128;
    return usmarr__linalg_launch(ctx, "linalg_eig", dtype, f64 ? "-DLA_DOUBLE" : NULL, kernel, nargs, args,
                                 stack->count);
}

int usmarr__decomp_sweeps(void)
{
    const char *e = getenv("USMARR_LINALG_SWEEPS");
    int v = e ? atoi(e) : 0;
    return v > 0 && v < 30 ? v : 30;
}

int usmarr_linalg_qr(const usmarr_array_t *x, usmarr_qr_mode_t mode, usmarr_array_t **q, usmarr_array_t **r)
{
    usmarr__clear_error();
    if (!q || !r)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "qr: %s is NULL", q ? "r" : "q");
    *q = *r = NULL;
    if (mode != USMARR_QR_REDUCED && mode != USMARR_QR_COMPLETE)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "qr: mode=%d is neither reduced (0) nor complete (1)",
                            (int)mode);
    struct usmarr__linalg_stack st;
    usmarr_dtype_t dt, real;
    int rc = usmarr__decomp_prepare("qr", x, false, &st, &dt, &real);
    if (rc)
        return rc;
    usmarr_context_t *ctx = x->memory->context;
    int64_t m = st.rows, n = st.cols, k = m < n ? m : n, qc = mode == USMARR_QR_COMPLETE ? m : k;
    usmarr_array_t *tau = NULL, *qa = NULL, *ra = NULL;
    int64_t qdims[2] = {m, qc}, rdims[2] = {qc, n}, tdims[1] = {k + (n > qc ? n : qc)}; /* tau, work */
    if ((rc = usmarr__decomp_array(ctx, &st, dt, 2, qdims, &qa)) || (rc = usmarr__decomp_array(ctx, &st, dt, 2, rdims, &ra)) ||
        (rc = usmarr__decomp_array(ctx, &st, dt, 1, tdims, &tau)))
        goto done;
    if (k >= USMARR__QR_BLOCKED_MIN) { /* large: panels and matmul, one matrix at a time */
        int64_t s3[3] = {st.count, m, n}, q3[3] = {st.count, m, qc}, r3[3] = {st.count, qc, n};
        usmarr_array_t *a3 = NULL, *qq = NULL, *rr = NULL;
        if (!(rc = usmarr_array_reshape(st.work, 3, s3, USMARR_ORDER_C, USMARR_COPY_NEVER, &a3)) &&
            !(rc = usmarr_array_reshape(qa, 3, q3, USMARR_ORDER_C, USMARR_COPY_NEVER, &qq)))
            rc = usmarr_array_reshape(ra, 3, r3, USMARR_ORDER_C, USMARR_COPY_NEVER, &rr);
        for (int64_t z = 0; !rc && z < st.count; z++) {
            usmarr_array_t *az = NULL, *qz = NULL, *rz = NULL;
            char index[32];
            snprintf(index, sizeof index, "%lld", (long long)z);
            if (!(rc = usmarr_array_index_text(a3, index, &az)) && !(rc = usmarr_array_index_text(qq, index, &qz)) &&
                !(rc = usmarr_array_index_text(rr, index, &rz)))
                rc = usmarr__qr_blocked(ctx, dt, az, qz, rz);
            usmarr_array_release(az);
            usmarr_array_release(qz);
            usmarr_array_release(rz);
        }
        usmarr_array_release(a3);
        usmarr_array_release(qq);
        usmarr_array_release(rr);
    } else if (m * qc > 0) { /* n = 0 too: Q's identity part (complete) */
        cl_long lm = m, ln = n, lqc = qc;
        const struct usmarr__karg args[] = {USMARR__ARG_PTR(st.work ? usmarr_array_data(st.work) : NULL),
                                            USMARR__ARG_PTR(usmarr_array_data(tau)),
                                            USMARR__ARG_PTR(usmarr_array_data(qa)),
                                            USMARR__ARG_PTR(usmarr_array_data(ra)),
                                            USMARR__ARG(lm),
                                            USMARR__ARG(ln),
                                            USMARR__ARG(lqc)};
        int64_t order = m > n ? m : n;
        rc = usmarr_dtype_kind(dt) == USMARR_KIND_FLOAT && n > 0 && order <= USMARR__LINALG_LANES_MAX
                 ? usmarr__linalg_launch_lanes(ctx, "linalg_eig", dt, "usmarr_qr_lanes", order, st.count,
                                               USMARR__NARGS(args), args)
                 : usmarr__decomp_launch(ctx, &st, dt, "usmarr_qr_householder", USMARR__NARGS(args), args);
    }
done:
    usmarr__linalg_stack_release(&st);
    usmarr_array_release(tau);
    if (rc) {
        usmarr_array_release(qa);
        usmarr_array_release(ra);
        return rc;
    }
    *q = qa;
    *r = ra;
    return 0;
}
