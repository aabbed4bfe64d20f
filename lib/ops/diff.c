/* diff (doc/ops.md): NumPy's n-th discrete difference.  prepend and append are joined to
 * x along the axis (usmarr_concat, NumPy's promotion), then `x[1:] - x[:-1]` (not_equal for
 * bool, as NumPy 2) runs n times on views of the previous step, each an elementwise launch;
 * the last writes the result (or out).  n beyond the joined length stops early: the axis is
 * then empty and stays so. */
#include "ops_internal.h"

#include <string.h>

/* prepend/append ready to join: a 0-d one broadcast to x's shape with the axis of length
 * 1, any other checked for x's ndim and extents off the axis. */
static int join_part(const usmarr_array_t *x, int ax, const usmarr_array_t *v, const char *what, usmarr_array_t **part)
{
    int rc;
    if ((rc = usmarr__same_context(x, "x", v, what)))
        return rc;
    if (v->ndim == 0) {
        int64_t shape[USMARR_MAX_NDIM];
        memcpy(shape, x->shape, sizeof(int64_t) * (size_t)x->ndim);
        shape[ax] = 1;
        return usmarr_array_broadcast_to(v, x->ndim, shape, part);
    }
    char xs[USMARR__SHAPE_BUF], vs[USMARR__SHAPE_BUF];
    bool ok = v->ndim == x->ndim;
    for (int d = 0; ok && d < x->ndim; d++)
        ok = d == ax || v->shape[d] == x->shape[d];
    if (!ok)
        return usmarr__fail(USMARR_ERROR_SHAPE_MISMATCH,
                            "diff: %s of shape %s does not join x of shape %s along axis %d (same ndim and extents "
                            "off the axis, or 0-d)",
                            what, usmarr__format_shape(v->ndim, v->shape, vs, sizeof vs),
                            usmarr__format_shape(x->ndim, x->shape, xs, sizeof xs), ax);
    *part = usmarr_array_retain((usmarr_array_t *)v);
    return 0;
}

/* The view of `a` along `ax` from `start` with `len` elements. */
static int along(const usmarr_array_t *a, int ax, int64_t start, int64_t len, usmarr_array_t **view)
{
    int64_t shape[USMARR_MAX_NDIM];
    memcpy(shape, a->shape, sizeof(int64_t) * (size_t)a->ndim);
    shape[ax] = len;
    return usmarr__view_new(a, a->dtype, a->ndim, shape, a->strides, a->offset + (len ? start * a->strides[ax] : 0),
                            false, view);
}

int usmarr_diff(const usmarr_array_t *x, int axis, int n, const usmarr_array_t *prepend, const usmarr_array_t *append,
                usmarr_array_t *out, usmarr_array_t **result)
{
    usmarr__clear_error();
    if (!x)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "diff: x is NULL");
    if (!out && !result)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "diff: result is NULL and there is no out");
    if (n < 0)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "diff: n=%d must be >= 0", n);
    int ax, rc;
    if (n == 0) { /* NumPy returns x before looking at axis, prepend and append */
        if (!out)
            return usmarr_array_copy(x, USMARR_ORDER_K, NULL, result);
        usmarr_array_t *target = NULL;
        const usmarr_array_t *in[1] = {x};
        if ((rc = usmarr__result_begin(x, in, 1, x->dtype, x->ndim, x->shape, out, result, &target)))
            return rc;
        return usmarr__result_end(usmarr_array_copy_into(target, x), target, out, result);
    }
    if (x->ndim == 0)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "diff: x is 0-d; diff needs at least one dimension");
    if ((rc = usmarr__normalize_axis(axis, x->ndim, "diff: axis", &ax)))
        return rc;
    const usmarr_array_t *parts[3];
    usmarr_array_t *owned[2] = {NULL, NULL}, *cur = NULL, *target = NULL;
    int np = 0;
    if (prepend && (rc = join_part(x, ax, prepend, "prepend", &owned[0])))
        goto done;
    if (append && (rc = join_part(x, ax, append, "append", &owned[1])))
        goto done;
    if (owned[0])
        parts[np++] = owned[0];
    parts[np++] = x;
    if (owned[1])
        parts[np++] = owned[1];
    int64_t len = 0;
    usmarr_dtype_t dtypes[3];
    for (int i = 0; i < np; i++) {
        len += parts[i]->shape[ax];
        dtypes[i] = parts[i]->dtype;
    }
    usmarr_dtype_t dt;
    if ((rc = usmarr_result_type(dtypes, (size_t)np, NULL, 0, &dt)))
        goto done;
    int64_t shape[USMARR_MAX_NDIM];
    memcpy(shape, x->shape, sizeof(int64_t) * (size_t)x->ndim);
    shape[ax] = len > n ? len - n : 0;
    /* out is checked (context, writable, shape, same_kind) before anything runs */
    if (out && (rc = usmarr__result_begin(x, parts, np, dt, x->ndim, shape, out, result, &target)))
        goto done;
    if (np > 1)
        rc = usmarr_concat(np, parts, ax, NULL, &cur);
    else
        cur = usmarr_array_retain((usmarr_array_t *)x);
    const char *op = dt == USMARR_BOOL ? "not_equal" : "subtract";
    for (int k = 0; !rc && k < n && len > 0; k++) {
        usmarr_array_t *hi = NULL, *lo = NULL, *next = NULL;
        bool last = k + 1 == n || len == 1;
        if (!(rc = along(cur, ax, 1, len - 1, &hi)) && !(rc = along(cur, ax, 0, len - 1, &lo))) {
            usmarr_operand_t ops[2] = {{hi, {0}}, {lo, {0}}};
            if (last && target) {
                rc = usmarr_elementwise(op, ops, 2, target, NULL);
            } else {
                rc = usmarr_elementwise(op, ops, 2, NULL, &next);
            }
        }
        usmarr_array_release(hi);
        usmarr_array_release(lo);
        len--;
        if (!rc && last && target) {
            usmarr_array_release(cur);
            cur = NULL;
            break;
        }
        if (!rc) {
            usmarr_array_release(cur);
            cur = next;
        }
    }
    if (!rc && cur) { /* an empty axis, or no out: cur holds the result */
        if (target)
            rc = usmarr_array_copy_into(target, cur);
        else if (cur == x) /* a copy, never x itself */
            rc = usmarr_array_copy(x, USMARR_ORDER_K, NULL, result);
        else {
            *result = cur;
            cur = NULL;
        }
    }
    if (target)
        rc = usmarr__result_end(rc, target, out, result);
done:
    usmarr_array_release(cur);
    usmarr_array_release(owned[0]);
    usmarr_array_release(owned[1]);
    return rc;
}
