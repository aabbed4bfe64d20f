/* The cumulative functions (sum, prod, logsumexp, with include_initial) along one axis or
 * the flattened array: lines of the reduction kernels' program (cl/reduce.cl,
 * R_SCAN_KERNEL), or on the gpu shape the device-wide scans of scan.c. */
#include "ops_internal.h"

#include <string.h>

static const struct {
    const char *name; /* the kernel is usmarr_reduce_<name> */
    const char *like; /* the reduction whose result dtype it has */
} cumulatives[] = {
    [USMARR_CUMULATIVE_SUM] = {"cumulative_sum", "sum"},
    [USMARR_CUMULATIVE_PROD] = {"cumulative_prod", "prod"},
    [USMARR_CUMULATIVE_LOGSUMEXP] = {"cumulative_logsumexp", "logsumexp"},
};

/* The gpu shape scans lines of at least this many elements device-wide (lib/ops/scan.c), a
 * work-group per tile; shorter ones one work-item per line, as the CPU shapes do. */
#define SCAN_MIN 32

/* Lines along the axis: x is copied C-ordered with the axis innermost (every other dim then
 * merges into one count of lines), scanned one work-item per line into a C-ordered result
 * with `include_initial` more elements a line, and permuted back (a view). */
static int cumulative(usmarr_cumulative_t op, const usmarr_array_t *x, const int *axis, bool include_initial,
                      usmarr_array_t *out, usmarr_array_t **result)
{
    if ((unsigned)op >= sizeof cumulatives / sizeof cumulatives[0])
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "cumulative: op=%d is not a usmarr_cumulative_t", (int)op);
    const char *name = cumulatives[op].name;
    if (!x)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s: x is NULL", name);
    if (!out && !result)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s: result is NULL and there is no out", name);
    usmarr_dtype_t res;
    int rc;
    if ((rc = usmarr__reduce_dtype_like(cumulatives[op].like, x->dtype, name, &res)))
        return rc;
    usmarr_context_t *ctx = x->memory->context;
    if ((rc = usmarr__check_dtype_supported(ctx, res, "the result dtype")))
        return rc;
    usmarr_array_t *src = NULL;
    int ax;
    if (!axis) { /* flattened, C order */
        int64_t n = usmarr_array_size(x);
        usmarr_array_t *c = NULL;
        if ((rc = usmarr_array_copy(x, USMARR_ORDER_C, NULL, &c)))
            return rc;
        rc = usmarr_array_reshape(c, 1, &n, USMARR_ORDER_C, USMARR_COPY_NEVER, &src);
        usmarr_array_release(c);
        if (rc)
            return rc;
        ax = 0;
    } else {
        ax = *axis < 0 ? *axis + x->ndim : *axis;
        if (ax < 0 || ax >= x->ndim)
            return usmarr__fail(USMARR_ERROR_INDEX, "%s: axis=%d is out of range for %d dims", name, *axis, x->ndim);
        src = usmarr_array_retain((usmarr_array_t *)x);
    }
    int64_t n = src->shape[ax], init = include_initial ? 1 : 0, rshape[USMARR_MAX_NDIM];
    memcpy(rshape, src->shape, sizeof(int64_t) * (size_t)src->ndim);
    rshape[ax] = n + init;
    int perm[USMARR_MAX_NDIM], inv[USMARR_MAX_NDIM];
    bool along[USMARR_MAX_NDIM] = {false};
    along[ax] = true;
    usmarr_array_t *pc = NULL, *tr = NULL, *back = NULL;
    if (out && (rc = usmarr__check_out(src, out, res, src->ndim, rshape, USMARR_CASTING_SAME_KIND, name)))
        goto done;
    if ((rc = usmarr__copy_reduced_last(src, along, perm, &pc)))
        goto done;
    for (int d = 0; d < src->ndim; d++)
        inv[perm[d]] = d;
    int64_t lines = 1, tshape[USMARR_MAX_NDIM];
    for (int d = 0; d < src->ndim; d++)
        tshape[d] = rshape[perm[d]];
    for (int d = 0; d + 1 < src->ndim; d++)
        lines *= tshape[d];
    usmarr_usm_kind_t kind = x->memory->kind == USMARR_USM_UNKNOWN ? USMARR_USM_DEVICE : x->memory->kind;
    if ((rc = usmarr__array_empty_like_layout(ctx, res, src->ndim, tshape, USMARR_ORDER_C, kind, &tr)))
        goto done;
    if (lines > 0 && n > 0 && ctx->shape.scan_group && n >= SCAN_MIN) {
        rc = usmarr__scan_lines(ctx, name + strlen("cumulative_"), pc->dtype, usmarr_array_data(pc),
                                usmarr_array_data(tr), lines, n, include_initial, NULL);
        if (rc)
            goto done;
    } else if (lines > 0 && n + init > 0) {
        rc = usmarr__cumulative_lines(ctx, name, pc->dtype, usmarr_array_data(pc), usmarr_array_data(tr), lines, n,
                                      include_initial);
        if (rc)
            goto done;
    }
    if ((rc = usmarr_array_permute_dims(tr, inv, &back))) /* back to the source's axis order */
        goto done;
    if (out) {
        if (!(rc = usmarr_array_copy_into(out, back)) && result)
            *result = usmarr_array_retain(out);
    } else if (ax == src->ndim - 1) { /* no permutation: tr is the C-ordered result */
        *result = usmarr_array_retain(tr);
    } else {
        rc = usmarr_array_copy(back, USMARR_ORDER_C, NULL, result);
    }
done:
    usmarr_array_release(back);
    usmarr_array_release(tr);
    usmarr_array_release(pc); /* waits for the launch */
    usmarr_array_release(src);
    return rc;
}

int usmarr_cumulative(usmarr_cumulative_t op, const usmarr_array_t *x, const int *axis, bool include_initial,
                      usmarr_array_t *out, usmarr_array_t **result)
{
    usmarr__clear_error();
    return cumulative(op, x, axis, include_initial, out, result);
}

int usmarr_cumulative_sum(const usmarr_array_t *x, const int *axis, usmarr_array_t *out, usmarr_array_t **result)
{
    usmarr__clear_error();
    return cumulative(USMARR_CUMULATIVE_SUM, x, axis, false, out, result);
}

int usmarr_cumulative_prod(const usmarr_array_t *x, const int *axis, bool include_initial, usmarr_array_t *out,
                           usmarr_array_t **result)
{
    usmarr__clear_error();
    return cumulative(USMARR_CUMULATIVE_PROD, x, axis, include_initial, out, result);
}

int usmarr_cumulative_logsumexp(const usmarr_array_t *x, const int *axis, bool include_initial, usmarr_array_t *out,
                                usmarr_array_t **result)
{
    usmarr__clear_error();
    return cumulative(USMARR_CUMULATIVE_LOGSUMEXP, x, axis, include_initial, out, result);
}
