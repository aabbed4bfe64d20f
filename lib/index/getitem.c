/* NumPy's full advanced indexing: a[index] (usmarr_array_getitem) and a[index] = values
 * (usmarr_array_setitem), with index arrays named by ::USMARR_INDEX_ARRAY items; and
 * put_along_axis.  Kernels: cl/index.cl (map programs of the engine).
 *
 * A plan first turns the index into a basic view V of the array in which every axis an
 * index array addresses is kept whole (the array's item becomes ':'; a k-d boolean
 * becomes k of them and its nonzero() rows; a 0-d boolean a new axis and a row of 0 or 1
 * zeros), so integers, slices, new axes and the ellipsis cost nothing.  The index arrays
 * broadcast to B; the result's shape is V's with its advanced axes replaced by B (NumPy's
 * rule: in place when the advanced items are adjacent, first otherwise).  Then one map
 * over the result's shape does the work: the source operand is V with zero strides on B,
 * so the engine yields the address of V's element [.., 0, ..] and the body adds the
 * indexed displacement.  With one index array that is index * stride (OP_GATHER /
 * OP_SCATTER, the raise check fused into a gather into a new result); with several,
 * OP_OFFSET passes first sum norm(index_k) * stride_k into int64 offsets over B (each
 * pass checks its array into its own cells), and OP_GATHER_OFFSET / OP_SCATTER_OFFSET use
 * them.  No host loop touches elements. */
#include "index_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool same_block(const usmarr_array_t *a, const usmarr_array_t *b)
{
    return a->memory == b->memory || (a->memory->pointer && a->memory->pointer == b->memory->pointer);
}

static int64_t size_of(int nd, const int64_t *shape)
{
    int64_t n = 1;
    for (int k = 0; k < nd; k++)
        n *= shape[k];
    return n;
}

/* ---- launching -------------------------------------------------------------------------- */

static void set_operand(struct usmarr__operand *op, const usmarr_array_t *a, int dtype, int nd,
                        const int64_t *strides)
{
    op->data = usmarr_array_data(a);
    op->dtype = dtype;
    memcpy(op->strides, strides, sizeof(int64_t) * (size_t)nd);
}

/* Raise mode before anything is written, for every caller's array (one pass each).  Index
 * arrays that broadcast to no elements are never read, and NumPy 2 checks none of their
 * values then (an empty result with a large index is no error). */
static int check_all(const struct usmarr__plan *p)
{
    int rc = 0;
    if (size_of(p->bnd, p->bshape) == 0)
        return 0;
    for (int k = 0; k < p->nadv && !rc; k++)
        if (p->adv[k].checked)
            rc = usmarr__index_check(p->adv[k].ind, p->adv[k].n, p->adv[k].aaxis, p->adv[k].what);
    return rc;
}

/* Several index arrays: int64 offsets over B, sum of norm(index_k) * stride_k, each
 * caller's array checked in its own pass; waits for the verdicts. */
static int make_offsets(const struct usmarr__plan *p, usmarr_array_t **offsets)
{
    usmarr_context_t *ctx = p->view->memory->context;
    usmarr_memory_t *cells[USMARR_MAX_NDIM] = {NULL};
    usmarr_array_t *o;
    int rc = usmarr__array_empty_like_layout(ctx, USMARR_INT64, p->bnd, p->bshape, USMARR_ORDER_C,
                                             USMARR_USM_DEVICE, &o);
    if (rc)
        return rc;
    for (int k = 0; k < p->nadv && !rc; k++) {
        const struct usmarr__plan_array *a = &p->adv[k];
        bool checked = a->checked;
        if (checked && (rc = usmarr__index_cells_new(ctx, &cells[k])))
            break;
        char defines[96];
        snprintf(defines, sizeof defines, "-DOP_OFFSET -DMODE=2 -DIDX_UNSIGNED=%d -DCHECKED=%d -DACCUMULATE=%d",
                 usmarr_dtype_kind(a->ind->dtype) == USMARR_KIND_UINT, checked, k > 0);
        struct usmarr__map m = usmarr__map_init("index", defines, checked ? 3 : 1, k > 0 ? 2 : 1);
        m.flags = USMARR__MAP_NO_TILE;
        m.ndim = p->bnd;
        memcpy(m.shape, p->bshape, sizeof(int64_t) * (size_t)p->bnd);
        set_operand(&m.operands[0], o, USMARR_INT64, p->bnd, o->strides);
        int next = 1;
        if (checked) {
            usmarr__index_cells_operands(cells[k], a->ind, &m.operands[1], &m.operands[2]);
            next = 3;
        }
        set_operand(&m.operands[next], a->ind, a->ind->dtype, p->bnd, a->bstrides);
        if (k > 0)
            m.operands[next + 1] = m.operands[0];
        m.nscalars = 2;
        rc = usmarr__scalar_arg_int64(&m.scalars[0], a->n);
        if (!rc)
            rc = usmarr__scalar_arg_int64(&m.scalars[1], a->stride);
        if (!rc)
            rc = usmarr__map_launch(ctx, &m);
    }
    for (int k = 0; k < p->nadv && !rc; k++)
        if (cells[k])
            rc = usmarr__index_cells_verdict(cells[k], p->adv[k].ind, p->adv[k].n, p->adv[k].aaxis,
                                             p->adv[k].what);
    for (int k = 0; k < p->nadv; k++)
        usmarr_memory_release(cells[k]);
    if (rc)
        usmarr_array_release(o);
    else
        *offsets = o;
    return rc;
}

/* One map over the result's shape: ops[0] written, ops[1] indices or offsets, ops[2] read. */
static int launch_offset_map(const struct usmarr__plan *p, const char *op, struct usmarr__operand *ops)
{
    char defines[32];
    snprintf(defines, sizeof defines, "-DOP_%s_OFFSET", op);
    struct usmarr__map m = usmarr__map_init("index", defines, 1, 2);
    m.flags = USMARR__MAP_NO_TILE;
    m.ndim = p->rnd;
    memcpy(m.shape, p->rshape, sizeof(int64_t) * (size_t)p->rnd);
    memcpy(m.operands, ops, 3 * sizeof *ops);
    return usmarr__map_launch(p->view->memory->context, &m);
}

/* One index array, B first in the result, the result's other axes one contiguous run of
 * the source, into a contiguous result of the same dtype: rows.  B of one dim takes the
 * index at any stride; B of several dims needs the index array C-contiguous over B
 * itself (not stretched), read flat.  *len: the run, *m: the number of rows, *istride. */
static bool rows_fit(const struct usmarr__plan *p, const usmarr_array_t *target, int64_t *len, int64_t *m,
                     int64_t *istride)
{
    if (p->nadv != 1 || p->bnd < 1 || p->bpos != 0 || p->rnd <= p->bnd || target->dtype != p->view->dtype ||
        !(target->flags & USMARR_FLAG_C_CONTIGUOUS))
        return false;
    const struct usmarr__plan_array *a = &p->adv[0];
    *istride = a->bstrides[p->bnd - 1];
    *m = p->bshape[p->bnd - 1];
    if (p->bnd > 1) {
        if (a->ind->ndim != p->bnd || !(a->ind->flags & USMARR_FLAG_C_CONTIGUOUS))
            return false;
        *istride = 1;
        *m = usmarr_array_size(a->ind);
    }
    int64_t run = 1;
    for (int r = p->rnd - 1; r >= p->bnd; r--) {
        if (p->rshape[r] != 1 && p->vstrides[r] != run)
            return false;
        run *= p->rshape[r];
    }
    *len = run;
    return true;
}

static int gather(const struct usmarr__plan *p, usmarr_array_t *target, bool into_out)
{
    usmarr_context_t *ctx = p->view->memory->context;
    int64_t rsize = size_of(p->rnd, p->rshape);
    if (p->nadv == 0)
        return usmarr_array_copy_into(target, p->view);
    if (rsize == 0) /* nothing to read, but NumPy 2 still checks indices that are used */
        return check_all(p);
    struct usmarr__operand ops[3];
    int dt = target->dtype, st = p->view->dtype;
    if (dt == st)
        dt = st = usmarr__bits_dtype(usmarr_dtype_size(st));
    set_operand(&ops[0], target, dt, p->rnd, target->strides);
    set_operand(&ops[2], p->view, st, p->rnd, p->vstrides);
    int64_t istrides[USMARR_MAX_NDIM];
    int rc = 0;
    if (p->nadv == 1) {
        const struct usmarr__plan_array *a = &p->adv[0];
        usmarr_memory_t *cells = NULL;
        bool fused = a->checked && !into_out;
        if (a->checked && !fused)
            rc = check_all(p);
        if (!rc && fused)
            rc = usmarr__index_cells_new(ctx, &cells);
        usmarr__plan_result_strides(p, a->bstrides, istrides);
        set_operand(&ops[1], a->ind, a->ind->dtype, p->rnd, istrides);
        int64_t len, m, istride;
        if (!rc && rows_fit(p, target, &len, &m, &istride))
            rc = usmarr__take_rows(p->view, a->ind, istride, m, target, len, a->n, a->stride, USMARR_INDEX_MODE_RAISE,
                                   cells);
        else if (!rc)
            rc = usmarr__index_map(ctx, "GATHER", USMARR_INDEX_MODE_RAISE, a->ind, p->rnd, p->rshape, ops, a->n,
                                   a->stride, cells);
        if (!rc && cells)
            rc = usmarr__index_cells_verdict(cells, a->ind, a->n, a->aaxis, a->what);
        usmarr_memory_release(cells);
        return rc;
    }
    usmarr_array_t *offsets;
    if ((rc = make_offsets(p, &offsets)))
        return rc;
    usmarr__plan_result_strides(p, offsets->strides, istrides);
    set_operand(&ops[1], offsets, USMARR_INT64, p->rnd, istrides);
    rc = launch_offset_map(p, "GATHER", ops);
    usmarr_array_release(offsets); /* waits for the gather */
    return rc;
}

/* The index is one boolean of the array's shape (a[mask]): that mask, else NULL. */
static const usmarr_array_t *whole_mask(const usmarr_array_t *array, const usmarr_index_item_t *items, size_t count,
                                        const usmarr_array_t *const *arrays, size_t narrays)
{
    if (count != 1 || !items || items[0].kind != USMARR_INDEX_ARRAY || !arrays || items[0].index < 0 ||
        (uint64_t)items[0].index >= narrays)
        return NULL;
    const usmarr_array_t *mask = arrays[items[0].index];
    bool whole = mask && mask->dtype == USMARR_BOOL && mask->ndim == array->ndim && array->ndim > 0 &&
                 mask->memory->context->cl == array->memory->context->cl;
    for (int k = 0; whole && k < array->ndim; k++)
        whole = mask->shape[k] == array->shape[k];
    return whole ? mask : NULL;
}

int usmarr_array_getitem(const usmarr_array_t *array, const usmarr_index_item_t *items, size_t count,
                         const usmarr_array_t *const *arrays, size_t narrays, usmarr_array_t *out,
                         usmarr_array_t **result)
{
    usmarr__clear_error();
    if (!array)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "array is NULL");
    if (!out && !result)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "result is NULL (and out is NULL)");
    const usmarr_array_t *mask = whole_mask(array, items, count, arrays, narrays);
    if (mask && !out) /* extract: one pass that keeps the order */
        return usmarr_extract(mask, array, result);
    struct usmarr__plan *p;
    int rc = usmarr__plan_build(array, items, count, arrays, narrays, &p);
    if (rc)
        return rc;
    const usmarr_array_t **inputs = calloc(narrays + 1, sizeof *inputs);
    usmarr_array_t *target = NULL;
    if (!inputs) {
        usmarr__plan_free(p);
        return usmarr__fail(USMARR_ERROR_OUT_OF_HOST_MEMORY, "%zu input pointers", narrays + 1);
    }
    inputs[0] = array;
    for (size_t k = 0; k < narrays; k++)
        inputs[k + 1] = arrays[k];
    rc = usmarr__result_begin(array, inputs, (int)narrays + 1, array->dtype, p->rnd, p->rshape, out, result, &target);
    free(inputs);
    if (!rc)
        rc = gather(p, target, target == out);
    usmarr__plan_free(p);
    return target ? usmarr__result_end(rc, target, out, result) : rc;
}

int usmarr_array_getitem_text(const usmarr_array_t *array, const char *text, const usmarr_array_t *const *arrays,
                              size_t narrays, usmarr_array_t *out, usmarr_array_t **result)
{
    usmarr_index_item_t items[USMARR_MAX_INDEX_ITEMS];
    size_t count;
    int rc = usmarr_index_parse(text, items, USMARR_MAX_INDEX_ITEMS, &count);
    return rc ? rc : usmarr_array_getitem(array, items, count, arrays, narrays, out, result);
}

/* ---- assignment ------------------------------------------------------------------------- */

/* values as an array of at most rnd dims (leading extent-1 axes beyond them dropped, as
 * NumPy does, unless the index selects one element by integers alone: NumPy 2 assigns a
 * scalar there and refuses an array of dims) that broadcasts to the result's shape. */
static int fit_values(const struct usmarr__plan *p, const usmarr_array_t *values, bool element,
                      usmarr_array_t **fitted)
{
    int drop = element ? 0 : values->ndim - p->rnd;
    bool fits = true;
    for (int k = 0; k < drop; k++)
        fits &= values->shape[k] == 1;
    struct usmarr__operand probe;
    if (fits && drop > 0) {
        usmarr_array_t *r;
        int rc = usmarr_array_reshape(values, p->rnd, values->shape + drop, USMARR_ORDER_C, USMARR_COPY_IF_NEEDED,
                                      &r);
        if (rc)
            return rc;
        fits = !usmarr__operand_from_array(r, p->rnd, p->rshape, &probe);
        if (fits)
            *fitted = r;
        else
            usmarr_array_release(r);
    } else if (fits) {
        fits = !usmarr__operand_from_array(values, p->rnd, p->rshape, &probe);
        if (fits)
            *fitted = usmarr_array_retain((usmarr_array_t *)values);
    }
    if (fits)
        return 0;
    char s1[USMARR__SHAPE_BUF], s2[USMARR__SHAPE_BUF];
    return usmarr__fail(USMARR_ERROR_SHAPE_MISMATCH,
                        "shape mismatch: values of shape %s could not be broadcast to the indexing result of shape %s",
                        usmarr__format_shape(values->ndim, values->shape, s1, sizeof s1),
                        usmarr__format_shape(p->rnd, p->rshape, s2, sizeof s2));
}

static int scatter(const struct usmarr__plan *p, const usmarr_array_t *vals)
{
    usmarr_context_t *ctx = p->view->memory->context;
    usmarr_array_t *view = p->view;
    if (p->nadv == 0)
        return usmarr_array_copy_into(view, vals);
    if (size_of(p->rnd, p->rshape) == 0) /* nothing to write; NumPy 2 checks as gather() does */
        return check_all(p);
    struct usmarr__operand ops[3];
    int rc = usmarr__operand_from_array(vals, p->rnd, p->rshape, &ops[2]);
    if (rc)
        return rc;
    int dt = view->dtype;
    if (dt == (int)vals->dtype)
        dt = ops[2].dtype = usmarr__bits_dtype(usmarr_dtype_size(dt));
    set_operand(&ops[0], view, dt, p->rnd, p->vstrides);
    int64_t istrides[USMARR_MAX_NDIM];
    if (p->nadv == 1) {
        const struct usmarr__plan_array *a = &p->adv[0];
        usmarr_array_t *icopy = NULL;
        if (a->checked)
            rc = check_all(p);
        if (!rc && same_block(a->ind, view)) /* read completely before anything is written */
            rc = usmarr_array_copy(a->ind, USMARR_ORDER_K, NULL, &icopy);
        const usmarr_array_t *ind = icopy ? icopy : a->ind;
        if (!rc) {
            int64_t bstrides[USMARR_MAX_NDIM];
            int lead = p->bnd - ind->ndim;
            for (int d = 0; d < p->bnd; d++)
                bstrides[d] = d < lead || ind->shape[d - lead] != p->bshape[d] ? 0 : ind->strides[d - lead];
            usmarr__plan_result_strides(p, bstrides, istrides);
            set_operand(&ops[1], ind, ind->dtype, p->rnd, istrides);
            rc = usmarr__index_map(ctx, "SCATTER", USMARR_INDEX_MODE_RAISE, ind, p->rnd, p->rshape, ops, a->n,
                                   a->stride, NULL);
        }
        usmarr_array_release(icopy);
        return rc;
    }
    usmarr_array_t *offsets;
    if ((rc = make_offsets(p, &offsets))) /* reads the index arrays before the scatter is enqueued */
        return rc;
    usmarr__plan_result_strides(p, offsets->strides, istrides);
    set_operand(&ops[1], offsets, USMARR_INT64, p->rnd, istrides);
    rc = launch_offset_map(p, "SCATTER", ops);
    usmarr_array_release(offsets);
    return rc;
}

int usmarr_array_setitem(usmarr_array_t *array, const usmarr_index_item_t *items, size_t count,
                         const usmarr_array_t *const *arrays, size_t narrays, const usmarr_array_t *values)
{
    usmarr__clear_error();
    if (!array || !values)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s is NULL", !array ? "array" : "values");
    int rc = usmarr__same_context(values, "values", array, "array");
    if (!rc)
        rc = usmarr__check_writable(array, "array");
    if (rc)
        return rc;
    /* a[mask] = v stays on the general path: place() branches on every element of a
     * random mask and was 2x slower on PoCL (58 against 28 ms for 16M float32). */
    struct usmarr__plan *p;
    if ((rc = usmarr__plan_build(array, items, count, arrays, narrays, &p)))
        return rc;
    bool element = count == (size_t)array->ndim; /* one element by integers alone */
    for (size_t k = 0; k < count; k++)
        element &= items[k].kind == USMARR_INDEX_INTEGER;
    usmarr_array_t *fitted = NULL, *vcopy = NULL;
    rc = fit_values(p, values, element, &fitted);
    if (!rc && same_block(fitted, array)) /* values are read completely first */
        rc = usmarr_array_copy(fitted, USMARR_ORDER_K, NULL, &vcopy);
    if (!rc)
        rc = scatter(p, vcopy ? vcopy : fitted);
    usmarr_array_release(vcopy); /* waits for the scatter that reads it */
    usmarr_array_release(fitted);
    usmarr__plan_free(p);
    return rc;
}

int usmarr_array_setitem_text(usmarr_array_t *array, const char *text, const usmarr_array_t *const *arrays,
                              size_t narrays, const usmarr_array_t *values)
{
    usmarr_index_item_t items[USMARR_MAX_INDEX_ITEMS];
    size_t count;
    int rc = usmarr_index_parse(text, items, USMARR_MAX_INDEX_ITEMS, &count);
    return rc ? rc : usmarr_array_setitem(array, items, count, arrays, narrays, values);
}
