/* Storage views and indexing: basic indexing (a storage view whose integer-indexed axes
 * leave `axes`), the domain view, reinterpret, transpose; advanced indexing (a plain
 * array); and copy. */
#include "storage_internal.h"

#include <stdio.h>
#include <string.h>

/* ---- basic indexing ----------------------------------------------------------------------- */

/* What an index does to one axis of the storage. */
struct axis_pick {
    bool integer;
    int64_t first, length, step; /* the slice as Python's slice.indices() gives it */
};

/* Python's slice.indices() (first position and length), as the array views do. */
static void slice_indices(const usmarr_index_item_t *it, int64_t n, struct axis_pick *out)
{
    int64_t step = it->has_step ? it->step : 1;
    if (step == INT64_MIN)
        step = -INT64_MAX;
    int64_t start, stop;
    if (!it->has_start)
        start = step < 0 ? n - 1 : 0;
    else if ((start = it->start) < 0)
        start = start + n < 0 ? (step < 0 ? -1 : 0) : start + n;
    else if (start >= n)
        start = step < 0 ? n - 1 : n;
    if (!it->has_stop)
        stop = step < 0 ? -1 : n;
    else if ((stop = it->stop) < 0)
        stop = stop + n < 0 ? (step < 0 ? -1 : 0) : stop + n;
    else if (stop >= n)
        stop = step < 0 ? n - 1 : n;
    if (step < 0)
        out->length = stop < start ? (start - stop - 1) / (-step) + 1 : 0;
    else
        out->length = start < stop ? (stop - start - 1) / step + 1 : 0;
    out->first = start;
    out->step = step;
    out->integer = false;
}

static int64_t clip(int64_t v, int64_t lo, int64_t hi) { return v < lo ? lo : v > hi ? hi : v; }

/* For a positive step the number of selected positions below x; for a negative step
 * the number at or above x.  Either way: how many come first in the view's order. */
static int64_t selected_before(const struct axis_pick *p, int64_t x)
{
    if (p->step > 0) {
        int64_t d = x - p->first;
        return clip(d <= 0 ? 0 : (d + p->step - 1) / p->step, 0, p->length);
    }
    int64_t d = p->first - x, s = -p->step;
    return clip(d < 0 ? 0 : d / s + 1, 0, p->length);
}

/* The rule of doc/storage.md: a view's halo is made of the selected points that were
 * halo points (a negative step swaps lower and upper), and its aligned index is the view
 * index of the first selected point at or past the old one, clipped to the new extent. */
static void pick_metadata(const struct axis_pick *p, int64_t n, const int64_t halo[2], int64_t aligned,
                          int64_t new_halo[2], int64_t *new_aligned)
{
    if (p->step > 0) {
        new_halo[0] = selected_before(p, halo[0]);
        new_halo[1] = p->length - selected_before(p, n - halo[1]);
        *new_aligned = selected_before(p, aligned);
    } else {
        new_halo[0] = selected_before(p, n - halo[1]);
        new_halo[1] = p->length - selected_before(p, halo[0]);
        *new_aligned = selected_before(p, aligned + 1);
    }
}

/* Expands the items to one pick per storage axis (ellipsis and missing items are full
 * slices). */
static int expand_items(const usmarr_storage_t *s, const usmarr_index_item_t *items, size_t nitems,
                        struct axis_pick *picks)
{
    int scanned = 0;
    long ellipsis = -1, newaxis = -1;
    int rc = usmarr__index_scan(items, nitems, &scanned, &ellipsis, &newaxis);
    if (rc)
        return rc;
    if (newaxis >= 0)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT,
                            "items[%ld]: a new axis has no axis letter (index the underlying array instead)", newaxis);
    size_t consumed = (size_t)scanned;
    if (consumed > (size_t)s->ndim)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "nitems: %zu items index a storage of %d axes (\"%s\")",
                            consumed, s->ndim, s->axes);
    const int64_t *shape = usmarr_storage_shape(s);
    usmarr_index_item_t full = usmarr_index_slice(NULL, NULL, NULL);
    int axis = 0;
    for (size_t i = 0; i <= nitems; i++) {
        bool at_end = i == nitems;
        if (at_end || items[i].kind == USMARR_INDEX_ELLIPSIS) {
            if (at_end && ellipsis >= 0)
                break;
            for (size_t j = 0; j < (size_t)s->ndim - consumed; j++, axis++)
                slice_indices(&full, shape[axis], &picks[axis]);
            continue;
        }
        int64_t n = shape[axis];
        if (items[i].kind == USMARR_INDEX_INTEGER) {
            if (items[i].index < -n || items[i].index >= n)
                return usmarr__fail(USMARR_ERROR_INDEX, "items[%zu]: index %lld is out of bounds for axis %d (%c) "
                                                        "with size %lld",
                                    i, (long long)items[i].index, axis, s->axes[axis], (long long)n);
            picks[axis].integer = true;
        } else {
            slice_indices(&items[i], n, &picks[axis]);
        }
        axis++;
    }
    return 0;
}

int usmarr_storage_index(const usmarr_storage_t *storage, const usmarr_index_item_t *items, size_t nitems,
                         usmarr_storage_t **view)
{
    usmarr__clear_error();
    if (!storage || !view)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s is NULL", !storage ? "storage" : "view");
    if (nitems && !items)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "items is NULL with nitems=%zu", nitems);
    struct axis_pick picks[USMARR_STORAGE_MAX_NDIM];
    int rc = expand_items(storage, items, nitems, picks);
    if (rc)
        return rc;
    const int64_t *shape = usmarr_storage_shape(storage);
    char axes[USMARR_STORAGE_MAX_NDIM + 1];
    int64_t halo[USMARR_STORAGE_MAX_NDIM][2], aligned[USMARR_STORAGE_MAX_NDIM];
    int nd = 0;
    for (int k = 0; k < storage->ndim; k++) {
        if (picks[k].integer)
            continue;
        pick_metadata(&picks[k], shape[k], storage->halo[k], storage->aligned_index[k], halo[nd], &aligned[nd]);
        axes[nd++] = storage->axes[k];
    }
    axes[nd] = 0;
    usmarr_array_t *host = NULL, *device = NULL;
    if (storage->host)
        rc = usmarr_array_index(storage->host, items, nitems, &host);
    if (!rc && storage->device)
        rc = storage->device == storage->host ? (device = usmarr_array_retain(host), 0)
                                              : usmarr_array_index(storage->device, items, nitems, &device);
    if (rc) {
        usmarr_array_release(host);
        return rc;
    }
    return usmarr__storage_view_new(storage, axes, host, device, (const int64_t (*)[2])halo, aligned, view);
}

int usmarr_storage_index_text(const usmarr_storage_t *storage, const char *text, usmarr_storage_t **view)
{
    usmarr_index_item_t items[USMARR_MAX_INDEX_ITEMS];
    size_t count;
    int rc = usmarr_index_parse(text, items, USMARR_MAX_INDEX_ITEMS, &count);
    return rc ? rc : usmarr_storage_index(storage, items, count, view);
}

int usmarr_storage_domain_view(const usmarr_storage_t *storage, usmarr_storage_t **view)
{
    usmarr__clear_error();
    if (!storage || !view)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s is NULL", !storage ? "storage" : "view");
    usmarr_index_item_t items[USMARR_STORAGE_MAX_NDIM];
    const int64_t *shape = usmarr_storage_shape(storage);
    for (int k = 0; k < storage->ndim; k++) {
        int64_t start = storage->halo[k][0], stop = shape[k] - storage->halo[k][1];
        items[k] = usmarr_index_slice(&start, &stop, NULL);
    }
    return usmarr_storage_index(storage, items, (size_t)storage->ndim, view);
}

/* ---- relabelling and permuting ------------------------------------------------------------- */

int usmarr_storage_reinterpret(const usmarr_storage_t *storage, const char *axes, usmarr_storage_t **view)
{
    usmarr__clear_error();
    if (!storage || !view)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s is NULL", !storage ? "storage" : "view");
    int rc = usmarr__storage_check_axes(axes, "axes");
    if (rc)
        return rc;
    if (strlen(axes) != (size_t)storage->ndim)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "axes=\"%s\" has %zu letters, the storage has %d (\"%s\")",
                            axes, strlen(axes), storage->ndim, storage->axes);
    /* The layout orders letters by stride: each old letter becomes its new one; letters
     * the storage lacks map onto the letters the result lacks, in "IJK" order. */
    char map[3], old_missing[3], new_missing[3];
    int nm = 0, nn = 0;
    for (int k = 0; k < storage->ndim; k++)
        map[usmarr__storage_letter(storage->axes[k])] = axes[k];
    for (const char *l = "IJK"; *l; l++) {
        if (!strchr(storage->axes, *l))
            old_missing[nm++] = *l;
        if (!strchr(axes, *l))
            new_missing[nn++] = *l;
    }
    for (int i = 0; i < nm; i++)
        map[usmarr__storage_letter(old_missing[i])] = new_missing[i];
    usmarr_storage_t *v;
    rc = usmarr__storage_view_new(storage, axes, usmarr_array_retain(storage->host),
                                  usmarr_array_retain(storage->device), (const int64_t (*)[2])storage->halo,
                                  storage->aligned_index, &v);
    if (rc)
        return rc;
    for (int l = 0; l < 3; l++)
        v->layout[l] = map[usmarr__storage_letter(storage->layout[l])];
    *view = v;
    return 0;
}

int usmarr_storage_transpose(const usmarr_storage_t *storage, const char *axes, usmarr_storage_t **view)
{
    usmarr__clear_error();
    if (!storage || !view)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s is NULL", !storage ? "storage" : "view");
    int nd = storage->ndim, perm[USMARR_STORAGE_MAX_NDIM];
    char out_axes[USMARR_STORAGE_MAX_NDIM + 1];
    if (axes) {
        int rc = usmarr__storage_check_axes(axes, "axes");
        if (rc)
            return rc;
        bool ok = strlen(axes) == (size_t)nd;
        for (int k = 0; ok && k < nd; k++) {
            const char *q = strchr(storage->axes, axes[k]);
            ok = q != NULL;
            perm[k] = ok ? (int)(q - storage->axes) : 0;
        }
        if (!ok)
            return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "axes=\"%s\" is not a permutation of \"%s\"", axes,
                                storage->axes);
    } else {
        for (int k = 0; k < nd; k++)
            perm[k] = nd - 1 - k;
    }
    int64_t halo[USMARR_STORAGE_MAX_NDIM][2], aligned[USMARR_STORAGE_MAX_NDIM];
    for (int k = 0; k < nd; k++) {
        out_axes[k] = storage->axes[perm[k]];
        halo[k][0] = storage->halo[perm[k]][0];
        halo[k][1] = storage->halo[perm[k]][1];
        aligned[k] = storage->aligned_index[perm[k]];
    }
    out_axes[nd] = 0;
    usmarr_array_t *host = NULL, *device = NULL;
    int rc = 0;
    if (storage->host)
        rc = usmarr_array_permute_dims(storage->host, perm, &host);
    if (!rc && storage->device)
        rc = storage->device == storage->host ? (device = usmarr_array_retain(host), 0)
                                              : usmarr_array_permute_dims(storage->device, perm, &device);
    if (rc) {
        usmarr_array_release(host);
        return rc;
    }
    return usmarr__storage_view_new(storage, out_axes, host, device, (const int64_t (*)[2])halo, aligned, view);
}

/* ---- advanced indexing: plain arrays ------------------------------------------------------- */

/* The side operations read: the device side (pushing a host-dirty pair first; the sync
 * state is shared and mutable, so a const storage may still be synchronised), else the
 * host side.  Both sides are USM the device reaches. */
static int read_side(const usmarr_storage_t *storage, usmarr_array_t **side)
{
    usmarr_storage_t *s = (usmarr_storage_t *)storage;
    int rc = usmarr__storage_sync_for_device(s);
    *side = s->device ? s->device : s->host;
    return rc;
}

static bool same_letters(const char *a, const char *b)
{
    if (strlen(a) != strlen(b))
        return false;
    for (; *a; a++)
        if (!strchr(b, *a))
            return false;
    return true;
}

int usmarr_storage_get_mask(const usmarr_storage_t *storage, const usmarr_storage_t *mask_storage,
                            const usmarr_array_t *mask_array, usmarr_array_t **result)
{
    usmarr__clear_error();
    if (!storage || !result)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s is NULL", !storage ? "storage" : "result");
    if (!mask_storage == !mask_array)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "give exactly one of mask_storage and mask_array");
    if (mask_storage && !same_letters(mask_storage->axes, storage->axes))
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "mask_storage has axes \"%s\", the storage \"%s\"",
                            mask_storage->axes, storage->axes);
    usmarr_storage_t *permuted = NULL;
    usmarr_array_t *mask = (usmarr_array_t *)mask_array, *side;
    int rc = 0;
    if (mask_storage) /* a mask of permuted axes is read in the storage's axes order */
        rc = usmarr_storage_transpose(mask_storage, storage->axes, &permuted);
    if (!rc && permuted)
        rc = read_side(permuted, &mask);
    if (!rc)
        rc = read_side(storage, &side);
    if (!rc)
        rc = usmarr_extract(mask, side, result);
    usmarr_storage_release(permuted);
    return rc;
}

/* Re-reports an index error with the argument and the axis letter in front. */
static int index_error(int rc, int k, char letter)
{
    if (rc != USMARR_ERROR_INDEX)
        return rc;
    char detail[512];
    snprintf(detail, sizeof detail, "%s", usmarr_last_error_detail());
    return usmarr__fail(rc, "indices[%d] (axis %c): %s", k, letter, detail);
}

int usmarr_storage_get_indices(const usmarr_storage_t *storage, const usmarr_array_t *const *indices,
                               usmarr_array_t **result)
{
    usmarr__clear_error();
    if (!storage || !indices || !result)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s is NULL",
                            !storage ? "storage" : !indices ? "indices" : "result");
    int nd = storage->ndim;
    if (nd == 0)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "storage is 0-d: it has no axis to index");
    for (int k = 0; k < nd; k++)
        if (!indices[k])
            return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "indices[%d] (axis %c) is NULL", k, storage->axes[k]);
    usmarr_array_t *side, *b[USMARR_STORAGE_MAX_NDIM] = {NULL}, *flat = NULL, *range = NULL, *norm = NULL, *t;
    int rc = read_side(storage, &side);
    if (!rc)
        rc = usmarr_broadcast_arrays(nd, indices, b);
    /* The C-order flat position, Horner style: ((i0 * n1) + i1) * n2 + i2, each index
     * first checked and made non-negative by a take from 0..n-1. */
    const int64_t *shape = side->shape;
    for (int k = 0; k < nd && !rc; k++) {
        rc = usmarr_array_arange(side->memory->context, 0, (double)shape[k], 1, USMARR_INT64, side->memory->kind,
                                 &range);
        if (!rc)
            rc = index_error(usmarr_take(range, b[k], 0, USMARR_INDEX_MODE_RAISE, NULL, &norm), k, storage->axes[k]);
        usmarr_array_release(range);
        range = NULL;
        if (!rc && flat) {
            usmarr_operand_t ops[2] = {{.array = flat}, {.scalar = usmarr_scalar_int(shape[k])}};
            rc = usmarr_elementwise("multiply", ops, 2, flat, NULL);
            ops[1] = (usmarr_operand_t){.array = norm};
            if (!rc)
                rc = usmarr_elementwise("add", ops, 2, flat, NULL);
            usmarr_array_release(norm);
        } else if (!rc) {
            flat = norm;
        }
        norm = NULL;
    }
    if (!rc)
        rc = usmarr_take(side, flat, USMARR_AXIS_NONE, USMARR_INDEX_MODE_RAISE, NULL, &t);
    if (!rc)
        *result = t;
    usmarr_array_release(flat);
    for (int k = 0; k < nd; k++)
        usmarr_array_release(b[k]);
    return rc;
}

/* ---- copy ---------------------------------------------------------------------------------- */

int usmarr_storage_copy(const usmarr_storage_t *storage, usmarr_storage_t **copy)
{
    usmarr__clear_error();
    if (!storage || !copy)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s is NULL", !storage ? "storage" : "copy");
    struct usmarr__storage_params p = {
        .context = usmarr_storage_context(storage),
        .dtype = storage->dtype,
        .ndim = storage->ndim,
        .alignment = storage->alignment,
        .kind = storage->kind,
    };
    memcpy(p.axes, storage->axes, sizeof p.axes);
    memcpy(p.shape, usmarr_storage_shape(storage), (size_t)p.ndim * sizeof *p.shape);
    memcpy(p.halo, storage->halo, sizeof p.halo);
    memcpy(p.aligned_index, storage->aligned_index, sizeof p.aligned_index);
    memcpy(p.layout, storage->layout, sizeof p.layout);
    usmarr_storage_t *s;
    int rc = usmarr__storage_allocate(&p, &s);
    if (rc)
        return rc;
    /* Both sides as they are, so that the copy's sync state means what the original's
     * does; the state is read under the lock, so no transfer runs in between. */
    if (storage->sync)
        mtx_lock(&storage->sync->lock);
    if (s->host)
        rc = usmarr_array_copy_into(s->host, storage->host);
    if (!rc && s->device && s->device != s->host)
        rc = usmarr_array_copy_into(s->device, storage->device);
    if (storage->sync) {
        usmarr__storage_mark(s, (usmarr_sync_t)atomic_load(&storage->sync->value));
        mtx_unlock(&storage->sync->lock);
    }
    if (rc) {
        usmarr_storage_release(s);
        return rc;
    }
    *copy = s;
    return 0;
}
