/* Views: basic indexing and the manipulations that only change shape, strides and
 * offset (reshape when the strides allow it, permute/swap/move axes, expand/squeeze,
 * broadcast, flip, real/imag).  Nothing here moves an element except reshape's copy path
 * and imag() of a real array. */
#include "index_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- helpers ---------------------------------------------------------------------- */

int usmarr__view_new(const usmarr_array_t *base, usmarr_dtype_t dtype, int ndim, const int64_t *shape,
                     const int64_t *strides, int64_t offset, bool read_only, usmarr_array_t **out)
{
    unsigned access = base->flags & (USMARR_FLAG_WRITABLE | USMARR_FLAG_IMMUTABLE);
    if (read_only)
        access &= ~(unsigned)USMARR_FLAG_WRITABLE;
    return usmarr__array_new(base->memory, dtype, ndim, shape, strides, offset, access, out);
}

static int check_in_out(const usmarr_array_t *array, const void *out, const char *outname)
{
    if (!array || !out)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s is NULL", !array ? "array" : outname);
    return 0;
}

/* ---- basic indexing ----------------------------------------------------------------- */

/* offset += index*stride; true (offset unchanged) on overflow. */
static bool add_displacement(int64_t *offset, int64_t index, int64_t stride)
{
    int64_t d, r;
    if (usmarr__mul_overflow(index, stride, &d) || usmarr__add_overflow(*offset, d, &r))
        return true;
    *offset = r;
    return false;
}

/* A slice's start or stop over an axis of extent n, as Python's slice.indices() clamps
 * both; `missing` when the slice has none. */
static int64_t slice_bound(bool has, int64_t value, int64_t n, int64_t step, int64_t missing)
{
    if (!has)
        return missing;
    if (value < 0) {
        value += n;
        if (value < 0)
            value = step < 0 ? -1 : 0;
    } else if (value >= n) {
        value = step < 0 ? n - 1 : n;
    }
    return value;
}

/* Python's slice.indices(): the first position and the length of the selection. */
static void slice_indices(const usmarr_index_item_t *it, int64_t n, int64_t *first, int64_t *length)
{
    int64_t step = it->has_step ? it->step : 1;
    if (step == INT64_MIN)
        step = -INT64_MAX; /* CPython clamps the step the same way */
    int64_t start = slice_bound(it->has_start, it->start, n, step, step < 0 ? n - 1 : 0);
    int64_t stop = slice_bound(it->has_stop, it->stop, n, step, step < 0 ? -1 : n);
    if (step < 0)
        *length = stop < start ? (start - stop - 1) / (-step) + 1 : 0;
    else
        *length = start < stop ? (stop - start - 1) / step + 1 : 0;
    *first = start;
}

int usmarr__index_scan(const usmarr_index_item_t *items, size_t count, int *consumed, long *ellipsis,
                       long *newaxis)
{
    *consumed = 0, *ellipsis = -1, *newaxis = -1;
    for (size_t i = 0; i < count; i++) {
        switch (items[i].kind) {
        case USMARR_INDEX_INTEGER:
            (*consumed)++;
            break;
        case USMARR_INDEX_SLICE:
            if (items[i].has_step && items[i].step == 0)
                return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "items[%zu]: the slice step must not be zero", i);
            (*consumed)++;
            break;
        case USMARR_INDEX_NEWAXIS:
            if (*newaxis < 0)
                *newaxis = (long)i;
            break;
        case USMARR_INDEX_ELLIPSIS:
            if (*ellipsis >= 0)
                return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT,
                                    "items[%zu]: an index can have only one ellipsis (the first is items[%ld])", i,
                                    *ellipsis);
            *ellipsis = (long)i;
            break;
        case USMARR_INDEX_ARRAY:
            return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT,
                                "items[%zu] is an index array (@%lld): basic indexing takes none; use "
                                "usmarr_array_getitem()",
                                i, (long long)items[i].index);
        default:
            return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "items[%zu].kind=%d is not a usmarr_index_kind_t", i,
                                (int)items[i].kind);
        }
    }
    return 0;
}

int usmarr_array_index(const usmarr_array_t *array, const usmarr_index_item_t *items, size_t count,
                       usmarr_array_t **view)
{
    usmarr__clear_error();
    int rc = check_in_out(array, view, "view");
    if (rc)
        return rc;
    if (count && !items)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "items is NULL with count=%zu", count);
    if (count > USMARR_MAX_INDEX_ITEMS)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "count=%zu exceeds USMARR_MAX_INDEX_ITEMS=%d", count,
                            USMARR_MAX_INDEX_ITEMS);
    int consumed = 0;
    long ellipsis = -1, newaxis = -1;
    rc = usmarr__index_scan(items, count, &consumed, &ellipsis, &newaxis);
    if (rc)
        return rc;
    if (consumed > array->ndim)
        return usmarr__fail(USMARR_ERROR_INDEX, "too many indices for array: array is %d-dimensional, but %d were indexed",
                            array->ndim, consumed);
    int64_t shape[USMARR_MAX_NDIM], strides[USMARR_MAX_NDIM];
    int64_t offset = array->offset;
    int nd = 0, axis = 0;
    bool empty = false, overflowed = false;
    for (int k = 0; k < array->ndim; k++)
        empty |= array->shape[k] == 0;
    int kept = array->ndim - consumed; /* whole axes from the ellipsis or the end */
    for (size_t i = 0; i <= count; i++) {
        bool at_end = i == count;
        if (at_end || items[i].kind == USMARR_INDEX_ELLIPSIS) {
            if (at_end && ellipsis >= 0)
                break;
            if (nd + kept > USMARR_MAX_NDIM)
                goto too_many;
            for (int j = 0; j < kept; j++, axis++, nd++) {
                shape[nd] = array->shape[axis];
                strides[nd] = array->strides[axis];
            }
            continue;
        }
        const usmarr_index_item_t *it = &items[i];
        if (it->kind == USMARR_INDEX_NEWAXIS) {
            if (nd == USMARR_MAX_NDIM)
                goto too_many;
            shape[nd] = 1;
            strides[nd++] = 0;
            continue;
        }
        int64_t n = array->shape[axis], stride = array->strides[axis];
        if (it->kind == USMARR_INDEX_INTEGER) {
            int64_t index = it->index;
            if (index < -n || index >= n)
                return usmarr__fail(USMARR_ERROR_INDEX, "index %lld is out of bounds for axis %d with size %lld",
                                    (long long)index, axis, (long long)n);
            if (index < 0)
                index += n;
            overflowed |= add_displacement(&offset, index, stride);
            axis++;
            continue;
        }
        int64_t first, length;
        slice_indices(it, n, &first, &length);
        int64_t step = it->has_step ? it->step : 1, new_stride;
        if (step == INT64_MIN)
            step = -INT64_MAX;
        empty |= length == 0;
        overflowed |= add_displacement(&offset, first, stride);
        if (usmarr__mul_overflow(stride, step, &new_stride)) {
            if (length > 1)
                return usmarr__fail(USMARR_ERROR_OVERFLOW, "items[%zu]: step %lld times stride %lld overflows 64 bits",
                                    i, (long long)step, (long long)stride);
            new_stride = stride; /* at most one element: the stride is never used */
        }
        if (nd == USMARR_MAX_NDIM)
            goto too_many;
        shape[nd] = length;
        strides[nd++] = new_stride;
        axis++;
    }
    /* A non-empty view stays inside the array's span, whose displacements fit; only a
     * zero-size one (whose offset is never used) can get here with an overflow. */
    if (overflowed && !empty)
        return usmarr__fail(USMARR_ERROR_OVERFLOW, "the view's offset overflows 64 bits");
    return usmarr__view_new(array, array->dtype, nd, shape, strides, offset, false, view);
too_many:
    return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "the index makes more than USMARR_MAX_NDIM=%d dimensions",
                        USMARR_MAX_NDIM);
}

int usmarr_array_index_text(const usmarr_array_t *array, const char *text, usmarr_array_t **view)
{
    usmarr_index_item_t items[USMARR_MAX_INDEX_ITEMS];
    size_t count;
    int rc = usmarr_index_parse(text, items, USMARR_MAX_INDEX_ITEMS, &count);
    return rc ? rc : usmarr_array_index(array, items, count, view);
}

/* ---- reshape ------------------------------------------------------------------------ */

/* NumPy's _attempt_nocopy_reshape (numpy/core/src/multiarray/shape.c), in elements:
 * true and `newstrides` when the array's memory can be read as `newshape` in `order`
 * without copying.  Only called for non-empty arrays that are not contiguous in `order`. */
static bool attempt_nocopy_reshape(const usmarr_array_t *a, int newnd, const int64_t *newdims, int64_t *newstrides,
                                   bool f_order)
{
    int64_t olddims[USMARR_MAX_NDIM], oldstrides[USMARR_MAX_NDIM];
    int oldnd = 0;
    /* Axes of extent 1 have no effect and strides that do not matter. */
    for (int k = 0; k < a->ndim; k++) {
        if (a->shape[k] != 1) {
            olddims[oldnd] = a->shape[k];
            oldstrides[oldnd++] = a->strides[k];
        }
    }
    int oi = 0, oj = 1, ni = 0, nj = 1;
    while (ni < newnd && oi < oldnd) {
        int64_t np = newdims[ni], op = olddims[oi];
        while (np != op) {
            if (np < op)
                np *= newdims[nj++]; /* misses trailing 1s, handled below */
            else
                op *= olddims[oj++];
        }
        /* Can the original axes oi..oj-1 be combined? */
        for (int ok = oi; ok < oj - 1; ok++) {
            if (f_order ? oldstrides[ok + 1] != olddims[ok] * oldstrides[ok]
                        : oldstrides[ok] != olddims[ok + 1] * oldstrides[ok + 1])
                return false;
        }
        if (f_order) {
            newstrides[ni] = oldstrides[oi];
            for (int nk = ni + 1; nk < nj; nk++)
                newstrides[nk] = newstrides[nk - 1] * newdims[nk - 1];
        } else {
            newstrides[nj - 1] = oldstrides[oj - 1];
            for (int nk = nj - 1; nk > ni; nk--)
                newstrides[nk - 1] = newstrides[nk] * newdims[nk];
        }
        ni = nj++;
        oi = oj++;
    }
    /* Strides of the new shape's trailing 1s. */
    int64_t last_stride = ni >= 1 ? newstrides[ni - 1] : 1;
    if (f_order && ni >= 1)
        last_stride *= newdims[ni - 1];
    for (int nk = ni; nk < newnd; nk++)
        newstrides[nk] = last_stride;
    return true;
}

/* NumPy's _fix_unknown_dimension: fills in one -1 and checks the element count. */
static int fix_unknown_dimension(const usmarr_array_t *a, int ndim, const int64_t *shape, int64_t *out)
{
    char from[USMARR__SHAPE_BUF], to[USMARR__SHAPE_BUF];
    int64_t size = 0, known = 1;
    int rc = usmarr__shape_size(a->ndim, a->shape, &size);
    if (rc)
        return rc;
    int unknown = -1;
    bool overflow = false;
    for (int k = 0; k < ndim; k++) {
        out[k] = shape[k];
        if (shape[k] == -1) {
            if (unknown >= 0)
                return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT,
                                    "shape[%d] and shape[%d] are both -1: only one unknown dimension is allowed",
                                    unknown, k);
            unknown = k;
        } else if (shape[k] < 0) {
            return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "shape[%d]=%lld is negative (only -1 is allowed)", k,
                                (long long)shape[k]);
        } else {
            overflow |= usmarr__mul_overflow(known, shape[k], &known);
        }
    }
    if (unknown >= 0 && !overflow && known != 0 && size % known == 0) {
        out[unknown] = size / known;
        return 0;
    }
    if (unknown < 0 && !overflow && known == size)
        return 0;
    return usmarr__fail(USMARR_ERROR_SHAPE_MISMATCH, "cannot reshape an array of shape %s (size %lld) into shape %s",
                        usmarr__format_shape(a->ndim, a->shape, from, sizeof from), (long long)size,
                        usmarr__format_shape(ndim, shape, to, sizeof to));
}

static bool same_shape(int n1, const int64_t *s1, int n2, const int64_t *s2)
{
    if (n1 != n2)
        return false;
    for (int k = 0; k < n1; k++)
        if (s1[k] != s2[k])
            return false;
    return true;
}

int usmarr_array_reshape(const usmarr_array_t *array, int ndim, const int64_t *shape, usmarr_order_t order,
                         usmarr_copy_mode_t copy, usmarr_array_t **result)
{
    usmarr__clear_error();
    int rc = check_in_out(array, result, "result");
    if (!rc)
        rc = usmarr__check_rank(ndim, shape);
    if (rc)
        return rc;
    if (copy != USMARR_COPY_IF_NEEDED && copy != USMARR_COPY_ALWAYS && copy != USMARR_COPY_NEVER)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "copy=%d is not a usmarr_copy_mode_t", (int)copy);
    if (order == USMARR_ORDER_A)
        order = (array->flags & USMARR_FLAG_F_CONTIGUOUS) && !(array->flags & USMARR_FLAG_C_CONTIGUOUS)
                    ? USMARR_ORDER_F
                    : USMARR_ORDER_C;
    if (order != USMARR_ORDER_C && order != USMARR_ORDER_F)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "order='%c' is not 'C', 'F' or 'A'", (char)order);
    int64_t newshape[USMARR_MAX_NDIM], newstrides[USMARR_MAX_NDIM];
    rc = fix_unknown_dimension(array, ndim, shape, newshape);
    if (rc)
        return rc;
    bool f = order == USMARR_ORDER_F;
    unsigned contiguous = f ? USMARR_FLAG_F_CONTIGUOUS : USMARR_FLAG_C_CONTIGUOUS;
    if (copy != USMARR_COPY_ALWAYS) {
        /* Same shape: a plain view, as NumPy does before anything else. */
        if (same_shape(array->ndim, array->shape, ndim, newshape))
            return usmarr__view_new(array, array->dtype, ndim, newshape, array->strides, array->offset, false, result);
        if (array->flags & contiguous) {
            rc = usmarr__contiguous_strides(ndim, newshape, order, newstrides);
            if (rc)
                return rc;
            return usmarr__view_new(array, array->dtype, ndim, newshape, newstrides, array->offset, false, result);
        }
        if (attempt_nocopy_reshape(array, ndim, newshape, newstrides, f))
            return usmarr__view_new(array, array->dtype, ndim, newshape, newstrides, array->offset, false, result);
        if (copy == USMARR_COPY_NEVER) {
            char from[USMARR__SHAPE_BUF], to[USMARR__SHAPE_BUF];
            return usmarr__fail(USMARR_ERROR_BAD_STATE,
                                "reshaping an array of shape %s with these strides into shape %s in %c order needs "
                                "a copy, and copy=USMARR_COPY_NEVER",
                                usmarr__format_shape(array->ndim, array->shape, from, sizeof from),
                                usmarr__format_shape(ndim, newshape, to, sizeof to), (char)order);
        }
    }
    /* A copy in `order`, read back as the new shape. */
    usmarr_array_t *dense;
    rc = usmarr_array_copy(array, order, NULL, &dense);
    if (rc)
        return rc;
    rc = usmarr__contiguous_strides(ndim, newshape, order, newstrides);
    if (!rc)
        rc = usmarr__array_new(dense->memory, dense->dtype, ndim, newshape, newstrides, dense->offset,
                               dense->flags & (USMARR_FLAG_WRITABLE | USMARR_FLAG_IMMUTABLE), result);
    usmarr_array_release(dense);
    return rc;
}

/* ---- axes --------------------------------------------------------------------------- */

/* Normalises `count` axes into `out`, rejecting repeats; `seen` flags them by axis. */
static int normalize_axes(int count, const int *axes, int ndim, const char *argname, int *out, bool *seen)
{
    for (int k = 0; k < ndim; k++)
        seen[k] = false;
    for (int i = 0; i < count; i++) {
        char name[48];
        snprintf(name, sizeof name, "%s[%d]", argname, i);
        int rc = usmarr__normalize_axis(axes[i], ndim, name, &out[i]);
        if (rc)
            return rc;
        if (seen[out[i]])
            return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s=%d repeats axis %d", name, axes[i], out[i]);
        seen[out[i]] = true;
    }
    return 0;
}

static int check_axes_arg(int count, const int *axes, int limit, const char *argname)
{
    if (count < 0 || count > limit)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "count=%d is outside [0, %d]", count, limit);
    if (count > 0 && !axes)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s is NULL with count=%d", argname, count);
    return 0;
}

int usmarr_array_permute_dims(const usmarr_array_t *array, const int *axes, usmarr_array_t **view)
{
    usmarr__clear_error();
    int rc = check_in_out(array, view, "view");
    if (rc)
        return rc;
    int nd = array->ndim, order[USMARR_MAX_NDIM];
    bool seen[USMARR_MAX_NDIM];
    if (axes) {
        rc = normalize_axes(nd, axes, nd, "axes", order, seen);
        if (rc)
            return rc;
    } else {
        for (int k = 0; k < nd; k++)
            order[k] = nd - 1 - k;
    }
    int64_t shape[USMARR_MAX_NDIM], strides[USMARR_MAX_NDIM];
    for (int k = 0; k < nd; k++) {
        shape[k] = array->shape[order[k]];
        strides[k] = array->strides[order[k]];
    }
    return usmarr__view_new(array, array->dtype, nd, shape, strides, array->offset, false, view);
}

int usmarr_array_transpose(const usmarr_array_t *array, usmarr_array_t **view)
{
    return usmarr_array_permute_dims(array, NULL, view);
}

int usmarr_array_swapaxes(const usmarr_array_t *array, int axis1, int axis2, usmarr_array_t **view)
{
    usmarr__clear_error();
    int rc = check_in_out(array, view, "view");
    if (rc)
        return rc;
    int a1 = 0, a2 = 0;
    rc = usmarr__normalize_axis(axis1, array->ndim, "axis1", &a1);
    if (!rc)
        rc = usmarr__normalize_axis(axis2, array->ndim, "axis2", &a2);
    if (rc)
        return rc;
    int order[USMARR_MAX_NDIM];
    for (int k = 0; k < array->ndim; k++)
        order[k] = k;
    order[a1] = a2;
    order[a2] = a1;
    return usmarr_array_permute_dims(array, order, view);
}

int usmarr_array_moveaxis(const usmarr_array_t *array, int count, const int *source, const int *destination,
                          usmarr_array_t **view)
{
    usmarr__clear_error();
    int rc = check_in_out(array, view, "view");
    if (rc)
        return rc;
    int nd = array->ndim;
    rc = check_axes_arg(count, source, nd, "source");
    if (!rc)
        rc = check_axes_arg(count, destination, nd, "destination");
    if (rc)
        return rc;
    int src[USMARR_MAX_NDIM], dst[USMARR_MAX_NDIM], order[USMARR_MAX_NDIM];
    bool src_seen[USMARR_MAX_NDIM], dst_seen[USMARR_MAX_NDIM];
    rc = normalize_axes(count, source, nd, "source", src, src_seen);
    if (!rc)
        rc = normalize_axes(count, destination, nd, "destination", dst, dst_seen);
    if (rc)
        return rc;
    /* NumPy: the axes not moved keep their order in the free places. */
    int rest = 0;
    for (int k = 0; k < nd; k++)
        order[k] = -1;
    for (int i = 0; i < count; i++)
        order[dst[i]] = src[i];
    for (int k = 0; k < nd; k++) {
        if (src_seen[k])
            continue;
        while (order[rest] >= 0)
            rest++;
        order[rest] = k;
    }
    return usmarr_array_permute_dims(array, order, view);
}

int usmarr_array_expand_dims(const usmarr_array_t *array, int count, const int *axes, usmarr_array_t **view)
{
    usmarr__clear_error();
    int rc = check_in_out(array, view, "view");
    if (rc)
        return rc;
    int nd = array->ndim + count;
    rc = check_axes_arg(count, axes, USMARR_MAX_NDIM - array->ndim, "axes");
    if (rc)
        return rc;
    int norm[USMARR_MAX_NDIM];
    bool is_new[USMARR_MAX_NDIM];
    rc = normalize_axes(count, axes, nd, "axes", norm, is_new);
    if (rc)
        return rc;
    int64_t shape[USMARR_MAX_NDIM], strides[USMARR_MAX_NDIM];
    for (int k = 0, j = 0; k < nd; k++) {
        if (is_new[k]) {
            shape[k] = 1;
            strides[k] = 0;
        } else {
            shape[k] = array->shape[j];
            strides[k] = array->strides[j++];
        }
    }
    return usmarr__view_new(array, array->dtype, nd, shape, strides, array->offset, false, view);
}

/* The axes squeeze and flip act on: `axes` normalized, and a mask over the array's axes
 * (every axis when `axes` is NULL). */
struct axes_arg {
    int norm[USMARR_MAX_NDIM];
    bool mask[USMARR_MAX_NDIM];
};

/* The prologue squeeze and flip share: their arguments checked, the axes in *sel. */
static int axes_mask(const usmarr_array_t *array, usmarr_array_t **view, int count, const int *axes,
                     struct axes_arg *sel)
{
    int rc = check_in_out(array, view, "view");
    if (!rc && axes && !(rc = check_axes_arg(count, axes, array->ndim, "axes")))
        rc = normalize_axes(count, axes, array->ndim, "axes", sel->norm, sel->mask);
    for (int k = 0; !rc && !axes && k < array->ndim; k++)
        sel->mask[k] = true;
    return rc;
}

int usmarr_array_squeeze(const usmarr_array_t *array, int count, const int *axes, usmarr_array_t **view)
{
    usmarr__clear_error();
    struct axes_arg drop;
    int rc = axes_mask(array, view, count, axes, &drop);
    if (rc)
        return rc;
    for (int i = 0; axes && i < count; i++)
        if (array->shape[drop.norm[i]] != 1)
            return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT,
                                "axes[%d]=%d: cannot squeeze axis %d of extent %lld (must be 1)", i, axes[i],
                                drop.norm[i], (long long)array->shape[drop.norm[i]]);
    int nd = array->ndim;
    for (int k = 0; !axes && k < nd; k++) /* no axes: every axis of extent 1 */
        drop.mask[k] = array->shape[k] == 1;
    int64_t shape[USMARR_MAX_NDIM], strides[USMARR_MAX_NDIM];
    int out = 0;
    for (int k = 0; k < nd; k++) {
        if (drop.mask[k])
            continue;
        shape[out] = array->shape[k];
        strides[out++] = array->strides[k];
    }
    return usmarr__view_new(array, array->dtype, out, shape, strides, array->offset, false, view);
}

int usmarr_array_flip(const usmarr_array_t *array, int count, const int *axes, usmarr_array_t **view)
{
    usmarr__clear_error();
    struct axes_arg flip;
    int rc = axes_mask(array, view, count, axes, &flip);
    if (rc)
        return rc;
    int nd = array->ndim;
    int64_t strides[USMARR_MAX_NDIM], offset = array->offset;
    bool empty = false, overflowed = false;
    for (int k = 0; k < nd; k++) {
        strides[k] = array->strides[k];
        empty |= array->shape[k] == 0;
    }
    for (int k = 0; k < nd; k++) {
        if (!flip.mask[k] || array->shape[k] == 0)
            continue;
        overflowed |= add_displacement(&offset, array->shape[k] - 1, strides[k]);
        strides[k] = strides[k] == INT64_MIN ? INT64_MAX : -strides[k]; /* INT64_MIN only when unused */
    }
    if (overflowed && !empty)
        return usmarr__fail(USMARR_ERROR_OVERFLOW, "the flipped view's offset overflows 64 bits");
    return usmarr__view_new(array, array->dtype, nd, array->shape, strides, offset, false, view);
}

/* ---- broadcasting --------------------------------------------------------------------- */

/* Strides of `a` broadcast to shape[ndim] (zero for new or stretched axes); *stretched
 * tells whether any element now appears more than once. */
static int broadcast_strides(const usmarr_array_t *a, int ndim, const int64_t *shape, int64_t *strides,
                             bool *stretched)
{
    char from[USMARR__SHAPE_BUF], to[USMARR__SHAPE_BUF];
    *stretched = false;
    if (ndim < a->ndim)
        goto mismatch;
    int lead = ndim - a->ndim;
    for (int k = 0; k < ndim; k++) {
        if (shape[k] < 0)
            return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "shape[%d]=%lld is negative", k, (long long)shape[k]);
        if (k < lead) {
            strides[k] = 0;
            *stretched |= shape[k] > 1;
            continue;
        }
        int64_t n = a->shape[k - lead];
        if (n == shape[k]) {
            strides[k] = a->strides[k - lead];
        } else if (n == 1) {
            strides[k] = 0;
            *stretched |= shape[k] > 1;
        } else {
            goto mismatch;
        }
    }
    return 0;
mismatch:
    return usmarr__fail(USMARR_ERROR_SHAPE_MISMATCH, "cannot broadcast an array of shape %s to shape %s",
                        usmarr__format_shape(a->ndim, a->shape, from, sizeof from),
                        usmarr__format_shape(ndim, shape, to, sizeof to));
}

int usmarr_array_broadcast_to(const usmarr_array_t *array, int ndim, const int64_t *shape, usmarr_array_t **view)
{
    usmarr__clear_error();
    int rc = check_in_out(array, view, "view");
    if (!rc)
        rc = usmarr__check_rank(ndim, shape);
    if (rc)
        return rc;
    int64_t strides[USMARR_MAX_NDIM], size;
    bool stretched;
    rc = broadcast_strides(array, ndim, shape, strides, &stretched);
    if (!rc)
        rc = usmarr__shape_size(ndim, shape, &size);
    if (rc)
        return rc;
    /* Like NumPy's broadcast_to: always read-only (a write would hit repeated elements). */
    return usmarr__view_new(array, array->dtype, ndim, shape, strides, array->offset, true, view);
}

int usmarr_broadcast_shapes(int count, const usmarr_array_t *const *arrays, int *ndim, int64_t *shape)
{
    usmarr__clear_error();
    if (count < 1 || !arrays || !ndim || !shape)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s", count < 1 ? "count must be at least 1"
                                                                 : !arrays     ? "arrays is NULL"
                                                                 : !ndim       ? "ndim is NULL"
                                                                               : "shape is NULL");
    int nd = 0, owner[USMARR_MAX_NDIM];
    for (int i = 0; i < count; i++) {
        if (!arrays[i])
            return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "arrays[%d] is NULL", i);
        if (arrays[i]->ndim > nd)
            nd = arrays[i]->ndim;
    }
    for (int k = 0; k < nd; k++) {
        shape[k] = 1;
        owner[k] = -1;
    }
    for (int i = 0; i < count; i++) {
        const usmarr_array_t *a = arrays[i];
        int lead = nd - a->ndim;
        for (int k = 0; k < a->ndim; k++) {
            int64_t n = a->shape[k];
            if (n == 1)
                continue;
            if (shape[lead + k] == 1) {
                shape[lead + k] = n;
                owner[lead + k] = i;
            } else if (shape[lead + k] != n) {
                char s1[USMARR__SHAPE_BUF], s2[USMARR__SHAPE_BUF];
                const usmarr_array_t *o = arrays[owner[lead + k]];
                return usmarr__fail(USMARR_ERROR_SHAPE_MISMATCH,
                                    "arrays[%d] of shape %s and arrays[%d] of shape %s do not broadcast together",
                                    owner[lead + k], usmarr__format_shape(o->ndim, o->shape, s1, sizeof s1), i,
                                    usmarr__format_shape(a->ndim, a->shape, s2, sizeof s2));
            }
        }
    }
    *ndim = nd;
    return 0;
}

int usmarr_broadcast_arrays(int count, const usmarr_array_t *const *arrays, usmarr_array_t **views)
{
    usmarr__clear_error();
    if (!views)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "views is NULL");
    int nd;
    int64_t shape[USMARR_MAX_NDIM];
    int rc = usmarr_broadcast_shapes(count, arrays, &nd, shape);
    if (rc)
        return rc;
    for (int i = 0; i < count; i++) {
        int64_t strides[USMARR_MAX_NDIM];
        bool stretched;
        rc = broadcast_strides(arrays[i], nd, shape, strides, &stretched);
        if (!rc)
            rc = usmarr__view_new(arrays[i], arrays[i]->dtype, nd, shape, strides, arrays[i]->offset, stretched,
                                  &views[i]);
        if (rc) {
            while (i-- > 0) {
                usmarr_array_release(views[i]);
                views[i] = NULL;
            }
            return rc;
        }
    }
    return 0;
}

/* ---- complex parts -------------------------------------------------------------------- */

static int complex_part(const usmarr_array_t *array, bool imaginary, usmarr_array_t **view)
{
    usmarr__clear_error();
    int rc = check_in_out(array, view, "view");
    if (rc)
        return rc;
    usmarr_dtype_t part;
    if (array->dtype == USMARR_COMPLEX64)
        part = USMARR_FLOAT32;
    else if (array->dtype == USMARR_COMPLEX128)
        part = USMARR_FLOAT64;
    else if (!imaginary)
        return usmarr__view_new(array, array->dtype, array->ndim, array->shape, array->strides, array->offset, false,
                                view);
    else {
        /* NumPy: the imaginary part of a real array is a read-only array of zeros. */
        usmarr_array_t *zeros;
        rc = usmarr__array_empty_like_layout(array->memory->context, array->dtype, array->ndim, array->shape,
                                             USMARR_ORDER_C, array->memory->kind, &zeros);
        if (rc)
            return rc;
        unsigned char zero = 0;
        if (zeros->memory->size)
            rc = usmarr_memory_fill(zeros->memory, 0, &zero, 1, zeros->memory->size);
        if (rc) {
            usmarr_array_release(zeros);
            return rc;
        }
        zeros->flags &= ~(unsigned)USMARR_FLAG_WRITABLE;
        *view = zeros;
        return 0;
    }
    /* Strides and offset count elements of the new dtype: twice as many. */
    int64_t strides[USMARR_MAX_NDIM], offset;
    bool overflowed = false;
    for (int k = 0; k < array->ndim; k++) {
        overflowed |= usmarr__mul_overflow(array->strides[k], 2, &strides[k]);
    }
    overflowed |= usmarr__mul_overflow(array->offset, 2, &offset) || usmarr__add_overflow(offset, imaginary, &offset);
    if (overflowed)
        return usmarr__fail(USMARR_ERROR_OVERFLOW, "doubling the strides or offset of the %s part overflows 64 bits",
                            imaginary ? "imaginary" : "real");
    return usmarr__view_new(array, part, array->ndim, array->shape, strides, offset, false, view);
}

int usmarr_array_real(const usmarr_array_t *array, usmarr_array_t **view) { return complex_part(array, false, view); }
int usmarr_array_imag(const usmarr_array_t *array, usmarr_array_t **view) { return complex_part(array, true, view); }
