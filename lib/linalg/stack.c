/* The machinery every linalg function shares (linalg_internal.h, section 1): argument
 * checks and dtypes, batch broadcasting, work stacks, the launch path, the status word and
 * the result convention. */
#include "linalg_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

usmarr_dtype_t usmarr__linalg_dtype(const usmarr_context_t *ctx, usmarr_dtype_t dtype)
{
    switch (usmarr_dtype_kind(dtype)) {
    case USMARR_KIND_COMPLEX: return dtype;
    case USMARR_KIND_FLOAT: return dtype == USMARR_FLOAT16 ? USMARR_FLOAT32 : dtype;
    default: return usmarr_context_info(ctx)->fp64 ? USMARR_FLOAT64 : USMARR_FLOAT32;
    }
}

int usmarr__linalg_check(const char *fn, const usmarr_array_t *x, const char *name, int min_ndim, bool square,
                         usmarr_dtype_t *dtype)
{
    if (!x)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s: %s is NULL", fn, name);
    if (x->ndim < min_ndim)
        return usmarr__fail(USMARR_ERROR_SHAPE_MISMATCH, "%s: %s has %d dims; it needs at least %d", fn, name, x->ndim,
                            min_ndim);
    if (square && x->shape[x->ndim - 1] != x->shape[x->ndim - 2])
        return usmarr__fail(USMARR_ERROR_SHAPE_MISMATCH, "%s: %s's matrices are %lld x %lld; they must be square", fn,
                            name, (long long)x->shape[x->ndim - 2], (long long)x->shape[x->ndim - 1]);
    usmarr_context_t *ctx = x->memory->context;
    *dtype = usmarr__linalg_dtype(ctx, x->dtype);
    return usmarr__check_dtype_supported(ctx, *dtype, name);
}

int usmarr__linalg_batch_broadcast(const char *fn, int na, const int64_t *a, int nb, const int64_t *b, int *nd,
                                   int64_t *shape)
{
    int n = na > nb ? na : nb;
    for (int d = 0; d < n; d++) {
        int da = d - (n - na), db = d - (n - nb);
        int64_t ea = da >= 0 ? a[da] : 1, eb = db >= 0 ? b[db] : 1;
        if (ea != eb && ea != 1 && eb != 1)
            return usmarr__fail(USMARR_ERROR_SHAPE_MISMATCH,
                                "%s: batch dim %d does not broadcast (x1 has %lld, x2 has %lld)", fn, d, (long long)ea,
                                (long long)eb);
        shape[d] = ea == 1 ? eb : ea;
    }
    *nd = n;
    return 0;
}

static void stack_shape(struct usmarr__linalg_stack *s, int nb, const int64_t *bshape, int64_t rows, int64_t cols)
{
    s->nbatch_dims = nb;
    s->count = 1;
    for (int d = 0; d < nb; d++) {
        s->batch_shape[d] = bshape[d];
        s->count *= bshape[d];
    }
    s->rows = rows;
    s->cols = cols;
    s->ld = cols;
}

/* The stack's shape: the batch dims (*bshape, nb of them; x's own when bshape is NULL,
 * which then points at them) followed by x's matrix dims. */
static void stack_target(const usmarr_array_t *x, int *nb, const int64_t **bshape, int64_t *shape)
{
    int xb = x->ndim - 2;
    if (!*bshape) {
        *nb = xb;
        *bshape = x->shape;
    }
    memcpy(shape, *bshape, sizeof(int64_t) * (size_t)*nb);
    shape[*nb] = x->shape[xb];
    shape[*nb + 1] = x->shape[xb + 1];
}

int usmarr__linalg_stack_new(const usmarr_array_t *x, usmarr_dtype_t dtype, int nb, const int64_t *bshape,
                             struct usmarr__linalg_stack *stack)
{
    memset(stack, 0, sizeof *stack);
    int64_t shape[USMARR_MAX_NDIM];
    stack_target(x, &nb, &bshape, shape);
    usmarr_array_t *v = NULL;
    int rc = usmarr_array_broadcast_to(x, nb + 2, shape, &v);
    if (!rc)
        rc = usmarr_array_astype(v, dtype, USMARR_ORDER_C, NULL, &stack->work);
    usmarr_array_release(v);
    if (!rc)
        stack_shape(stack, nb, bshape, shape[nb], shape[nb + 1]);
    return rc;
}

int usmarr__linalg_stack_padded(const usmarr_array_t *x, usmarr_dtype_t dtype, int nb, const int64_t *bshape,
                                struct usmarr__linalg_stack *stack)
{
    memset(stack, 0, sizeof *stack);
    int64_t shape[USMARR_MAX_NDIM], strides[USMARR_MAX_NDIM];
    stack_target(x, &nb, &bshape, shape);
    int64_t rows = shape[nb], cols = shape[nb + 1], item = (int64_t)usmarr__dtype_bytes(dtype);
    int64_t line = 64 / item, ld = (cols + line - 1) / line * line;
    if (ld * item % 1024 == 0)
        ld += line;
    int64_t size = rows * ld;
    strides[nb] = ld;
    strides[nb + 1] = 1;
    for (int d = nb - 1; d >= 0; d--) {
        strides[d] = size;
        size *= shape[d];
    }
    usmarr_array_t *buffer = NULL, *v = NULL;
    int rc = usmarr_array_empty(x->memory->context, 1, &size, dtype, USMARR_ORDER_C, USMARR_USM_DEVICE, &buffer);
    if (!rc)
        rc = usmarr__view_new(buffer, dtype, nb + 2, shape, strides, buffer->offset, false, &stack->work);
    if (!rc)
        rc = usmarr_array_broadcast_to(x, nb + 2, shape, &v);
    if (!rc)
        rc = usmarr_array_copy_into(stack->work, v);
    usmarr_array_release(v);
    usmarr_array_release(buffer);
    if (rc) {
        usmarr_array_release(stack->work);
        stack->work = NULL;
        return rc;
    }
    stack_shape(stack, nb, bshape, rows, cols);
    stack->ld = ld;
    return 0;
}

int usmarr__linalg_stack_read(const usmarr_array_t *x, usmarr_dtype_t dtype, int nb, const int64_t *bshape,
                              struct usmarr__linalg_stack *stack)
{
    int xb = x->ndim - 2;
    bool same = x->dtype == dtype && (x->flags & USMARR_FLAG_C_CONTIGUOUS) && (!bshape || nb == xb);
    for (int d = 0; same && bshape && d < nb; d++)
        same = x->shape[d] == bshape[d];
    if (!same)
        return usmarr__linalg_stack_new(x, dtype, nb, bshape, stack);
    memset(stack, 0, sizeof *stack);
    stack->work = usmarr_array_retain((usmarr_array_t *)x);
    stack_shape(stack, xb, x->shape, x->shape[xb], x->shape[xb + 1]);
    return 0;
}

int usmarr__linalg_stack_empty(usmarr_context_t *ctx, usmarr_dtype_t dtype, int nb, const int64_t *bshape,
                               int64_t rows, int64_t cols, struct usmarr__linalg_stack *stack)
{
    memset(stack, 0, sizeof *stack);
    int64_t shape[USMARR_MAX_NDIM];
    memcpy(shape, bshape, sizeof(int64_t) * (size_t)nb);
    shape[nb] = rows;
    shape[nb + 1] = cols;
    int rc = usmarr__array_empty_like_layout(ctx, dtype, nb + 2, shape, USMARR_ORDER_C, USMARR_USM_DEVICE,
                                             &stack->work);
    if (!rc)
        stack_shape(stack, nb, bshape, rows, cols);
    return rc;
}

void usmarr__linalg_stack_release(struct usmarr__linalg_stack *stack)
{
    usmarr_array_release(stack->work);
    stack->work = NULL;
}

/* The kernel of (family, dtype, defines) and its arguments with `items` appended. */
static int prepare_launch(usmarr_context_t *ctx, const char *family, usmarr_dtype_t dtype, const char *defines,
                          const char *kernel, int nargs, const struct usmarr__karg *args, const cl_long *items,
                          usmarr__kernel_t **k, struct usmarr__karg *all)
{
    char options[256];
    snprintf(options, sizeof options, "-DD0=%s%s%s%s%s", usmarr__dtype_tag(dtype),
             usmarr_dtype_kind(dtype) == USMARR_KIND_COMPLEX ? " -DLA_COMPLEX" : "",
             dtype == USMARR_FLOAT64 || dtype == USMARR_COMPLEX128 ? " -DLA_DOUBLE" : "", defines && *defines ? " " : "",
             defines ? defines : "");
    if (nargs > 15)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s: %d kernel arguments (at most 15)", kernel, nargs);
    memcpy(all, args, sizeof *args * (size_t)nargs);
    all[nargs] = (struct usmarr__karg)USMARR__ARG(*items);
    return usmarr__kernel_get(ctx, family, options, kernel, k);
}

int usmarr__linalg_launch(usmarr_context_t *ctx, const char *family, usmarr_dtype_t dtype, const char *defines,
                          const char *kernel, int nargs, const struct usmarr__karg *args, int64_t items)
{
    if (items <= 0)
        return 0;
    usmarr__kernel_t *k = NULL;
    struct usmarr__karg all[16];
    cl_long count = items;
    int rc = prepare_launch(ctx, family, dtype, defines, kernel, nargs, args, &count, &k, all);
    if (rc)
        return rc;
    /* up to 64 items a group, fewer while that leaves under 4 groups per compute unit */
    size_t group = 64, cap = ctx->profile.max_group;
    while (group > 1 && (group > cap || (int64_t)group * 4 * ctx->profile.compute_units > items))
        group /= 2;
    size_t global[1] = {((size_t)items + group - 1) / group * group}, local[1] = {group};
    return usmarr__kernel_launch(ctx, k, nargs + 1, all, 1, global, local);
}

int usmarr__linalg_launch_group(usmarr_context_t *ctx, const char *family, usmarr_dtype_t dtype, const char *defines,
                                const char *kernel, int nargs, const struct usmarr__karg *args, int group)
{
    return usmarr__linalg_launch_groups(ctx, family, dtype, defines, kernel, nargs, args, group, 1);
}

int usmarr__linalg_launch_groups(usmarr_context_t *ctx, const char *family, usmarr_dtype_t dtype, const char *defines,
                                 const char *kernel, int nargs, const struct usmarr__karg *args, int group, int groups)
{
    usmarr__kernel_t *k = NULL;
    struct usmarr__karg all[16];
    cl_long count = (cl_long)group * groups;
    int rc = prepare_launch(ctx, family, dtype, defines, kernel, nargs, args, &count, &k, all);
    if (rc)
        return rc;
    size_t global[1] = {(size_t)count}, local[1] = {(size_t)group};
    return usmarr__kernel_launch(ctx, k, nargs + 1, all, 1, global, local);
}

int usmarr__linalg_status_new(usmarr_context_t *ctx, const char *fn, int64_t count, usmarr_array_t **status)
{
    (void)fn;
    return usmarr_array_zeros(ctx, 1, &count, USMARR_INT32, USMARR_ORDER_C, USMARR_USM_DEVICE, status);
}

int usmarr__linalg_status_check(const char *fn, const usmarr_array_t *status, const char *what, int nb,
                                const int64_t *bshape)
{
    int64_t count = status->shape[0], first = -1;
    int32_t *flags = malloc(sizeof(int32_t) * (size_t)(count ? count : 1));
    if (!flags)
        return usmarr__fail(USMARR_ERROR_OUT_OF_HOST_MEMORY, "%s: %lld status words", fn, (long long)count);
    int rc = usmarr_array_copy_to_host(status, flags, NULL);
    for (int64_t i = 0; !rc && i < count && first < 0; i++)
        if (flags[i])
            first = i;
    free(flags);
    if (rc || first < 0)
        return rc;
    if (nb == 0)
        return usmarr__fail(USMARR_ERROR_LINALG, "%s: the matrix %s", fn, what);
    char where[24 * USMARR_MAX_NDIM + 4] = "(";
    size_t len = 1;
    int64_t rest = first, index[USMARR_MAX_NDIM];
    for (int d = nb - 1; d >= 0; d--) {
        index[d] = rest % bshape[d];
        rest /= bshape[d];
    }
    for (int d = 0; d < nb; d++)
        len += (size_t)snprintf(where + len, sizeof where - len, "%s%lld", d ? ", " : "", (long long)index[d]);
    snprintf(where + len, sizeof where - len, "%s)", nb == 1 ? "," : "");
    return usmarr__fail(USMARR_ERROR_LINALG, "%s: matrix %lld of the stack, at batch index %s, %s", fn,
                        (long long)first, where, what);
}

int usmarr__linalg_result_begin(const char *fn, const usmarr_array_t *like, const usmarr_array_t *const *inputs,
                                int ninputs, usmarr_dtype_t dtype, int ndim, const int64_t *shape, usmarr_array_t *out,
                                usmarr_array_t **result, struct usmarr__linalg_result *r)
{
    r->target = NULL;
    r->out = out;
    r->result = result;
    if (!out && !result)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s: result is NULL and there is no out", fn);
    if (result)
        *result = NULL;
    if (!out)
        return 0;
    return usmarr__result_begin(like, inputs, ninputs, dtype, ndim, shape, out, result, &r->target);
}

int usmarr__linalg_result_end(int rc, usmarr_array_t *work, struct usmarr__linalg_result *r)
{
    if (!r->out) {
        if (!rc)
            *r->result = usmarr_array_retain(work);
        return rc;
    }
    if (!rc)
        rc = usmarr_array_copy_into(r->target, work);
    return usmarr__result_end(rc, r->target, r->out, r->result);
}

void usmarr__linalg_order_defines(int64_t n, char *buffer, size_t size)
{
    if (n <= USMARR__LINALG_SMALL)
        snprintf(buffer, size, "-DLA_NMAX=%d", n <= 4 ? 4 : n <= 8 ? 8 : n <= 16 ? 16 : 32);
    else
        snprintf(buffer, size, "%s", "");
}

int usmarr__linalg_launch_lanes(usmarr_context_t *ctx, const char *family, usmarr_dtype_t dtype, const char *kernel,
                                int64_t n, int64_t count, int nargs, const struct usmarr__karg *args)
{
    int64_t nmax = n <= 4 ? 4 : n <= 8 ? 8 : 16, lanes = nmax <= 8 ? 8 : 4;
    char defines[64];
    snprintf(defines, sizeof defines, "-DLA_NMAX=%lld -DLA_LANES=%lld%s", (long long)nmax, (long long)lanes,
             n == nmax ? " -DLA_N=LA_NMAX" : "");
    struct usmarr__karg all[16];
    cl_long lcount = count;
    if (nargs > 14)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s: %d kernel arguments (at most 14)", kernel, nargs);
    memcpy(all, args, sizeof *args * (size_t)nargs);
    all[nargs] = (struct usmarr__karg)USMARR__ARG(lcount);
    return usmarr__linalg_launch(ctx, family, dtype, defines, kernel, nargs + 1, all, (count + lanes - 1) / lanes);
}
