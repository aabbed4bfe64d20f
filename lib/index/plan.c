/* Plans of advanced indexes (index_internal.h): the basic view, the index arrays and where
 * their broadcast shape goes, NumPy's rules.  Executed by getitem.c. */
#include "index_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void usmarr__plan_free(struct usmarr__plan *p)
{
    if (!p)
        return;
    for (int k = 0; k < p->nadv; k++)
        usmarr_array_release(p->adv[k].ind);
    usmarr_array_release(p->view);
    free(p);
}

static struct usmarr__plan_array *adv_add(struct usmarr__plan *p, usmarr_array_t *ind, int vaxis, int aaxis,
                                          size_t item, int64_t ref, bool checked)
{
    struct usmarr__plan_array *a = &p->adv[p->nadv++];
    *a = (struct usmarr__plan_array){
        .ind = ind, .vaxis = vaxis, .aaxis = aaxis, .item = item, .ref = ref, .checked = checked};
    snprintf(a->what, sizeof a->what, "index array @%lld at items[%zu]", (long long)ref, item);
    return a;
}

/* Checks the items and the arrays they name; counts the axes they consume. */
static int scan_items(const usmarr_array_t *a, const usmarr_index_item_t *items, size_t count,
                      const usmarr_array_t *const *arrays, size_t narrays, int *consumed, bool *any_array)
{
    bool ellipsis = false;
    *consumed = 0;
    *any_array = false;
    for (size_t i = 0; i < count; i++) {
        const usmarr_index_item_t *it = &items[i];
        switch (it->kind) {
        case USMARR_INDEX_INTEGER:
            (*consumed)++;
            break;
        case USMARR_INDEX_SLICE:
            if (it->has_step && it->step == 0)
                return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "items[%zu]: the slice step must not be zero", i);
            (*consumed)++;
            break;
        case USMARR_INDEX_NEWAXIS:
            break;
        case USMARR_INDEX_ELLIPSIS:
            if (ellipsis)
                return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "items[%zu]: an index can have only one ellipsis",
                                    i);
            ellipsis = true;
            break;
        case USMARR_INDEX_ARRAY: {
            if (it->index < 0 || (uint64_t)it->index >= narrays)
                return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT,
                                    "items[%zu] names index array @%lld, but %zu arrays were passed", i,
                                    (long long)it->index, narrays);
            const usmarr_array_t *ind = arrays[it->index];
            if (!ind)
                return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "arrays[%lld] (named by items[%zu]) is NULL",
                                    (long long)it->index, i);
            char name[64];
            snprintf(name, sizeof name, "arrays[%lld]", (long long)it->index);
            int rc = usmarr__same_context(ind, name, a, "array");
            if (rc)
                return rc;
            usmarr_kind_t kind = usmarr_dtype_kind(ind->dtype);
            if (kind != USMARR_KIND_INT && kind != USMARR_KIND_UINT && kind != USMARR_KIND_BOOL)
                return usmarr__fail(USMARR_ERROR_BAD_DTYPE,
                                    "index array @%lld (items[%zu]) has dtype %s; index arrays must be integers or "
                                    "booleans",
                                    (long long)it->index, i, usmarr_dtype_name(ind->dtype));
            *consumed += kind == USMARR_KIND_BOOL ? ind->ndim : 1;
            *any_array = true;
            break;
        }
        default:
            return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "items[%zu].kind=%d is not a usmarr_index_kind_t", i,
                                (int)it->kind);
        }
    }
    if (*consumed > a->ndim)
        return usmarr__fail(USMARR_ERROR_INDEX,
                            "too many indices for array: array is %d-dimensional, but %d were indexed", a->ndim,
                            *consumed);
    return 0;
}

/* A boolean of k >= 1 dims over axes [ax, ax+k): each of its dimensions must be the axis's
 * or 0 (the standard's rule and NumPy's: a mask with no elements selects nothing); its
 * nonzero() rows become k index arrays.  A 0-d boolean: a new axis (its caller's item) indexed by
 * a row of 1 or 0 zeros. */
static int add_mask(struct usmarr__plan *p, const usmarr_array_t *a, const usmarr_array_t *mask, size_t item,
                    int64_t ref, int v, int ax)
{
    int k = mask->ndim, rc;
    usmarr_context_t *ctx = a->memory->context;
    if (k == 0) {
        unsigned char value = 0;
        if ((rc = usmarr_array_copy_to_host(mask, &value, NULL)))
            return rc;
        int64_t n = value != 0, zero = 0;
        usmarr_array_t *row;
        if ((rc = usmarr_array_from_host(ctx, 1, &n, USMARR_INT64, &zero, NULL, USMARR_USM_DEVICE, &row)))
            return rc;
        adv_add(p, row, v, -1, item, ref, false);
        return 0;
    }
    for (int j = 0; j < k; j++)
        if (mask->shape[j] != a->shape[ax + j] && mask->shape[j] != 0)
            return usmarr__fail(USMARR_ERROR_INDEX,
                                "boolean index @%lld (items[%zu]) does not match the indexed array along axis %d: "
                                "the axis has size %lld, the boolean's dimension %d has %lld",
                                (long long)ref, item, ax + j, (long long)a->shape[ax + j], j,
                                (long long)mask->shape[j]);
    if (p->nadv + k > USMARR_MAX_NDIM)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "more than %d index arrays", USMARR_MAX_NDIM);
    usmarr_array_t *rows[USMARR_MAX_NDIM];
    if ((rc = usmarr_nonzero(mask, rows)))
        return rc;
    for (int j = 0; j < k; j++)
        adv_add(p, rows[j], v + j, ax + j, item, ref, false);
    return 0;
}

/* B: the index arrays broadcast together (right-aligned). */
static int broadcast_indices(struct usmarr__plan *p)
{
    p->bnd = 0;
    for (int k = 0; k < p->nadv; k++)
        if (p->adv[k].ind->ndim > p->bnd)
            p->bnd = p->adv[k].ind->ndim;
    for (int d = 0; d < p->bnd; d++)
        p->bshape[d] = 1;
    for (int k = 0; k < p->nadv; k++) {
        const usmarr_array_t *ind = p->adv[k].ind;
        int lead = p->bnd - ind->ndim;
        for (int d = lead; d < p->bnd; d++) {
            int64_t e = ind->shape[d - lead];
            if (e == p->bshape[d] || e == 1)
                continue;
            if (p->bshape[d] != 1) {
                /* name the first array that set this extent */
                int j = 0;
                for (; j < k; j++) {
                    const usmarr_array_t *o = p->adv[j].ind;
                    int l = p->bnd - o->ndim;
                    if (d >= l && o->shape[d - l] == p->bshape[d])
                        break;
                }
                char s1[USMARR__SHAPE_BUF], s2[USMARR__SHAPE_BUF];
                const usmarr_array_t *o = p->adv[j].ind;
                return usmarr__fail(USMARR_ERROR_INDEX, /* NumPy's IndexError */
                                    "shape mismatch: index arrays could not be broadcast together: @%lld (items[%zu]) "
                                    "of shape %s and @%lld (items[%zu]) of shape %s",
                                    (long long)p->adv[j].ref, p->adv[j].item,
                                    usmarr__format_shape(o->ndim, o->shape, s1, sizeof s1), (long long)p->adv[k].ref,
                                    p->adv[k].item, usmarr__format_shape(ind->ndim, ind->shape, s2, sizeof s2));
            }
            p->bshape[d] = e;
        }
    }
    for (int k = 0; k < p->nadv; k++) {
        struct usmarr__plan_array *a = &p->adv[k];
        int lead = p->bnd - a->ind->ndim;
        for (int d = 0; d < p->bnd; d++)
            a->bstrides[d] = d < lead || a->ind->shape[d - lead] != p->bshape[d] ? 0 : a->ind->strides[d - lead];
    }
    return 0;
}

/* The result's shape and every operand's strides over it. */
static int lay_out(struct usmarr__plan *p, bool adjacent)
{
    const usmarr_array_t *v = p->view;
    bool is_adv[USMARR_MAX_NDIM] = {false};
    int first = v->ndim;
    for (int k = 0; k < p->nadv; k++) {
        struct usmarr__plan_array *a = &p->adv[k];
        is_adv[a->vaxis] = true;
        a->n = v->shape[a->vaxis];
        a->stride = v->strides[a->vaxis];
        if (a->vaxis < first)
            first = a->vaxis;
    }
    int kept = v->ndim - p->nadv;
    p->rnd = kept + p->bnd;
    if (p->rnd > USMARR_MAX_NDIM)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "the result would have %d dimensions, more than %d", p->rnd,
                            USMARR_MAX_NDIM);
    p->bpos = 0;
    if (adjacent) /* B where the first advanced axis was: after the kept axes before it */
        for (int x = 0; x < first; x++)
            p->bpos += !is_adv[x];
    int x = 0;
    for (int r = 0; r < p->rnd; r++) {
        if (p->nadv && r >= p->bpos && r < p->bpos + p->bnd) {
            p->rshape[r] = p->bshape[r - p->bpos];
            p->vstrides[r] = 0;
            continue;
        }
        while (is_adv[x])
            x++;
        p->rshape[r] = v->shape[x];
        p->vstrides[r] = v->strides[x];
        x++;
    }
    return 0;
}

/* The index's operand strides over the result's dims: B's strides at bpos, 0 elsewhere. */
void usmarr__plan_result_strides(const struct usmarr__plan *p, const int64_t *bstrides, int64_t *strides)
{
    for (int r = 0; r < p->rnd; r++)
        strides[r] = r >= p->bpos && r < p->bpos + p->bnd ? bstrides[r - p->bpos] : 0;
}

int usmarr__plan_build(const usmarr_array_t *a, const usmarr_index_item_t *items, size_t count,
                      const usmarr_array_t *const *arrays, size_t narrays, struct usmarr__plan **out)
{
    *out = NULL;
    if (count && !items)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "items is NULL with count=%zu", count);
    if (narrays && !arrays)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "arrays is NULL with narrays=%zu", narrays);
    if (count > USMARR_MAX_INDEX_ITEMS)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "count=%zu exceeds USMARR_MAX_INDEX_ITEMS=%d", count,
                            USMARR_MAX_INDEX_ITEMS);
    int consumed;
    bool any_array;
    int rc = scan_items(a, items, count, arrays, narrays, &consumed, &any_array);
    if (rc)
        return rc;
    struct usmarr__plan *p = calloc(1, sizeof *p);
    if (!p)
        return usmarr__fail(USMARR_ERROR_OUT_OF_HOST_MEMORY, "an index plan");
    usmarr_index_item_t basic[USMARR_MAX_INDEX_ITEMS + USMARR_MAX_NDIM];
    size_t nbasic = 0;
    int v = 0, ax = 0;
    long last_adv = -1;
    bool adjacent = true;
    for (size_t i = 0; i < count && !rc; i++) {
        const usmarr_index_item_t *it = &items[i];
        bool advanced = false;
        if (it->kind != USMARR_INDEX_ARRAY) {
            basic[nbasic++] = *it;
            int width = it->kind == USMARR_INDEX_ELLIPSIS ? a->ndim - consumed : 1;
            v += it->kind == USMARR_INDEX_INTEGER ? 0 : width;
            ax += it->kind == USMARR_INDEX_NEWAXIS ? 0 : width;
            advanced = it->kind == USMARR_INDEX_INTEGER && any_array;
        } else {
            const usmarr_array_t *ind = arrays[it->index];
            advanced = true;
            if (p->nadv == USMARR_MAX_NDIM) {
                rc = usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "more than %d index arrays", USMARR_MAX_NDIM);
            } else if (ind->dtype == USMARR_BOOL) {
                rc = add_mask(p, a, ind, i, it->index, v, ax);
                int k = ind->ndim ? ind->ndim : 1;
                for (int j = 0; j < k; j++)
                    basic[nbasic++] = ind->ndim ? usmarr_index_slice(NULL, NULL, NULL) : usmarr_index_newaxis();
                v += k;
                ax += ind->ndim;
            } else {
                adv_add(p, usmarr_array_retain((usmarr_array_t *)ind), v++, ax++, i, it->index, true);
                basic[nbasic++] = usmarr_index_slice(NULL, NULL, NULL);
            }
        }
        if (advanced) {
            if (last_adv >= 0 && (size_t)last_adv != i - 1)
                adjacent = false;
            last_adv = (long)i;
        }
    }
    if (!rc)
        rc = usmarr_array_index(a, basic, nbasic, &p->view);
    if (!rc)
        rc = broadcast_indices(p);
    if (!rc)
        rc = lay_out(p, adjacent);
    if (rc) {
        usmarr__plan_free(p);
        return rc;
    }
    *out = p;
    return 0;
}
