/* Decompositions: the common steps of QR, eigh and SVD (argument checks, the work copy of a
 * stack, launches of cl/linalg_eig.cl, convergence status) and usmarr_linalg_qr.
 *
 * Every decomposition copies its input, whatever its layout, into a C-ordered stack of the
 * work dtype; one work-item of cl/linalg_eig.cl owns one matrix of it (doc/linalg.md). */
#include "linalg_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int usmarr__decomp_prepare(const char *fn, const usmarr_array_t *x, bool square, struct usmarr__decomp_input *in)
{
    memset(in, 0, sizeof *in);
    if (!x)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s: x is NULL", fn);
    if (x->ndim < 2)
        return usmarr__fail(USMARR_ERROR_SHAPE_MISMATCH, "%s: x has %d dims; it needs at least 2 (a stack of matrices)",
                            fn, x->ndim);
    int64_t m = x->shape[x->ndim - 2], n = x->shape[x->ndim - 1];
    if (square && m != n)
        return usmarr__fail(USMARR_ERROR_SHAPE_MISMATCH, "%s: x's matrices are %lld x %lld; they must be square", fn,
                            (long long)m, (long long)n);
    usmarr_dtype_t dt;
    switch (x->dtype) {
    case USMARR_FLOAT32:
    case USMARR_FLOAT64:
    case USMARR_COMPLEX64:
    case USMARR_COMPLEX128: dt = x->dtype; break;
    case USMARR_FLOAT16: dt = USMARR_FLOAT32; break;
    default: /* bool and integers: the default floating dtype */
        dt = x->memory->context->info.fp64 ? USMARR_FLOAT64 : USMARR_FLOAT32;
        break;
    }
    in->ctx = x->memory->context;
    int rc = usmarr__check_dtype_supported(in->ctx, dt, "x's work dtype");
    if (rc)
        return rc;
    in->dtype = dt;
    in->real = dt == USMARR_COMPLEX64 ? USMARR_FLOAT32 : dt == USMARR_COMPLEX128 ? USMARR_FLOAT64 : dt;
    in->nbatch = x->ndim - 2;
    memcpy(in->batch, x->shape, sizeof(int64_t) * (size_t)in->nbatch);
    in->count = 1;
    for (int d = 0; d < in->nbatch; d++)
        in->count *= x->shape[d];
    in->m = m;
    in->n = n;
    if (in->count > 0 && m > 0 && n > 0)
        rc = usmarr_array_astype(x, dt, USMARR_ORDER_C, NULL, &in->copy);
    return rc;
}

void usmarr__decomp_input_release(struct usmarr__decomp_input *in)
{
    usmarr_array_release(in->copy);
    in->copy = NULL;
}

int usmarr__decomp_array(const struct usmarr__decomp_input *in, usmarr_dtype_t dtype, int ndim, const int64_t *dims,
                         usmarr_array_t **out)
{
    int64_t shape[USMARR_MAX_NDIM + 2];
    memcpy(shape, in->batch, sizeof(int64_t) * (size_t)in->nbatch);
    memcpy(shape + in->nbatch, dims, sizeof(int64_t) * (size_t)ndim);
    return usmarr_array_empty(in->ctx, in->nbatch + ndim, shape, dtype, USMARR_ORDER_C, USMARR_USM_DEVICE, out);
}

int usmarr__decomp_launch(const struct usmarr__decomp_input *in, const char *kernel, int nargs,
                          const struct usmarr__karg *args)
{
    if (in->count <= 0)
        return 0;
    char defines[96];
    const char *tag = usmarr__dtype_tag((int)in->dtype);
    bool complex = in->dtype == USMARR_COMPLEX64 || in->dtype == USMARR_COMPLEX128;
    snprintf(defines, sizeof defines, "-DD0=%s%s%s", tag, complex ? " -DLA_COMPLEX" : "",
             in->real == USMARR_FLOAT64 ? " -DLA_DOUBLE" : "");
    usmarr__kernel_t *k;
    int rc = usmarr__kernel_get(in->ctx, "linalg_eig", defines, kernel, &k);
    if (rc)
        return rc;
    /* a few matrices a group when there are many: fewer groups to schedule; one when few,
     * so that they spread over the compute units */
    size_t group = in->count >= 8 * (int64_t)in->ctx->profile.compute_units ? 8 : 1;
    size_t global[1] = {((size_t)in->count + group - 1) / group * group}, local[1] = {group};
    return usmarr__kernel_launch(in->ctx, k, nargs, args, 1, global, local);
}

int usmarr__decomp_sweeps(void)
{
    const char *e = getenv("USMARR_LINALG_SWEEPS");
    int v = e ? atoi(e) : 0;
    return v > 0 && v < 30 ? v : 30;
}

int usmarr__decomp_status_new(const struct usmarr__decomp_input *in, usmarr_array_t **status)
{
    int64_t one = 1;
    int rc = usmarr_array_empty(in->ctx, 1, &one, USMARR_INT32, USMARR_ORDER_C, USMARR_USM_DEVICE, status);
    if (!rc && (rc = usmarr_array_fill(*status, usmarr_scalar_int(INT32_MAX)))) {
        usmarr_array_release(*status);
        *status = NULL;
    }
    return rc;
}

int usmarr__decomp_status(const char *fn, const struct usmarr__decomp_input *in, const usmarr_array_t *status)
{
    int32_t first = INT32_MAX;
    int rc = usmarr_array_copy_to_host(status, &first, NULL);
    if (rc || first == INT32_MAX)
        return rc;
    char index[USMARR_MAX_NDIM * 24 + 4] = "";
    int64_t rest = first;
    for (int d = in->nbatch - 1; d >= 0; d--) { /* the batch index, last dim first */
        char part[24];
        snprintf(part, sizeof part, "%lld", (long long)(rest % in->batch[d]));
        rest /= in->batch[d];
        size_t len = strlen(part), used = strlen(index);
        memmove(index + len + (used ? 2 : 0), index, used + 1);
        memcpy(index, part, len);
        if (used)
            memcpy(index + len, ", ", 2);
    }
    return usmarr__fail(USMARR_ERROR_LINALG,
                        "%s: Jacobi did not converge within its sweep limit for matrix %d of the stack (batch index [%s])",
                        fn, (int)first, index);
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
    struct usmarr__decomp_input in;
    int rc = usmarr__decomp_prepare("qr", x, false, &in);
    if (rc)
        return rc;
    int64_t m = in.m, n = in.n, k = m < n ? m : n, qc = mode == USMARR_QR_COMPLETE ? m : k;
    usmarr_array_t *tau = NULL, *qa = NULL, *ra = NULL;
    int64_t qdims[2] = {m, qc}, rdims[2] = {qc, n}, tdims[1] = {k};
    if ((rc = usmarr__decomp_array(&in, in.dtype, 2, qdims, &qa)) || (rc = usmarr__decomp_array(&in, in.dtype, 2, rdims, &ra)) ||
        (rc = usmarr__decomp_array(&in, in.dtype, 1, tdims, &tau)))
        goto done;
    if (in.count > 0 && m * qc > 0) { /* n = 0 too: Q's identity part (complete) */
        cl_long lm = m, ln = n, lqc = qc, count = in.count;
        const struct usmarr__karg args[] = {USMARR__ARG_PTR(in.copy ? usmarr_array_data(in.copy) : NULL), USMARR__ARG_PTR(usmarr_array_data(tau)),
                                            USMARR__ARG_PTR(usmarr_array_data(qa)),      USMARR__ARG_PTR(usmarr_array_data(ra)),
                                            USMARR__ARG(lm), USMARR__ARG(ln), USMARR__ARG(lqc), USMARR__ARG(count)};
        rc = usmarr__decomp_launch(&in, "usmarr_qr_householder", USMARR__NARGS(args), args);
    }
done:
    usmarr__decomp_input_release(&in);
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
