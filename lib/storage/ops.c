/* Operations on storages (doc/storage.md, "Operations"): elementwise functions,
 * reductions by axis letter and region assignment.  Each is one call into the arrays'
 * dispatchers (usmarr_elementwise, usmarr_reduce, usmarr_array_copy_into) on views of the
 * storages' arrays; broadcast.c maps the operands onto the result's axes and infers the
 * result's parameters.
 *
 * A managed pair takes part through one of its sides: the device side, unless every
 * managed input is host dirty, in which case the kernels read the host side (USM host
 * memory, which every device reaches).  The side read is synchronised first, the side
 * written is marked dirty afterwards; on a clean pair that costs a load of the state. */
#include "storage_internal.h"

#include <string.h>

enum side { SIDE_DEVICE, SIDE_HOST };

/* The array of `s` on `side`: a managed pair has two, every other kind one. */
static usmarr_array_t *side_array(const usmarr_storage_t *s, enum side side)
{
    if (s->kind == USMARR_STORAGE_MANAGED)
        return side == SIDE_HOST ? s->host : s->device;
    return s->device ? s->device : s->host;
}

static bool host_dirty(const usmarr_storage_t *s)
{
    return s->kind == USMARR_STORAGE_MANAGED && atomic_load(&s->sync->value) == USMARR_SYNC_HOST_DIRTY;
}

/* The side an operation runs on (doc/storage.md, "Managed pairs"): the device unless every
 * managed input is host dirty.  Without managed inputs the side `out` is newest on, so a
 * write into a host-dirty pair costs no transfer. */
static enum side choose_side(const usmarr_storage_t *const *inputs, int n, const usmarr_storage_t *out)
{
    int managed = 0, dirty = 0;
    for (int i = 0; i < n; i++)
        if (inputs[i] && inputs[i]->kind == USMARR_STORAGE_MANAGED) {
            managed++;
            dirty += host_dirty(inputs[i]);
        }
    if (managed)
        return dirty == managed ? SIDE_HOST : SIDE_DEVICE;
    return out && host_dirty(out) ? SIDE_HOST : SIDE_DEVICE;
}

/* Makes `side` of `s` current (the sync state is shared and mutable even through a
 * const storage: synchronising does not change what the storage holds). */
static int sync_side(const usmarr_storage_t *s, enum side side)
{
    if (s->kind != USMARR_STORAGE_MANAGED)
        return 0;
    usmarr_storage_t *m = (usmarr_storage_t *)s;
    return side == SIDE_HOST ? usmarr__storage_sync_for_host(m) : usmarr__storage_sync_for_device(m);
}

static int mark_written(usmarr_storage_t *s, enum side side)
{
    if (s->kind != USMARR_STORAGE_MANAGED)
        return 0;
    return side == SIDE_HOST ? usmarr_storage_set_host_modified(s) : usmarr_storage_set_device_modified(s);
}

/* The elementwise function `name` (NULL: assignment, operand 0 copied into out) over
 * storage operands, into `out` or a new storage with the output parameters of doc/storage.md. */
static int apply(const char *name, const usmarr_storage_operand_t *operands, int n, usmarr_storage_t *out,
                 usmarr_storage_t **result)
{
    const char *what = name ? name : "assign";
    struct usmarr__named_shape res;
    usmarr__letters_t letters[3];
    int rc = usmarr__storage_broadcast(what, operands, n, out, &res, letters);
    if (rc)
        return rc;

    const usmarr_storage_t *inputs[3] = {NULL, NULL, NULL};
    for (int i = 0; i < n; i++)
        inputs[i] = operands[i].storage;
    enum side side = choose_side(inputs, n, out);

    usmarr_operand_t ops[3];
    usmarr_array_t *views[3] = {NULL, NULL, NULL};
    usmarr_storage_t *made = NULL, *dst = out;
    for (int i = 0; i < n; i++) {
        const usmarr_array_t *a = inputs[i] ? side_array(inputs[i], side) : operands[i].array;
        memset(&ops[i], 0, sizeof ops[i]);
        if (!a) {
            ops[i].scalar = operands[i].scalar;
            continue;
        }
        if ((rc = usmarr__storage_view_on(a, letters[i], &res, &views[i])))
            goto done;
        ops[i].array = views[i];
    }

    /* argument errors surface before anything is synchronised */
    usmarr_dtype_t dtype = USMARR_BOOL;
    if (name && (rc = usmarr__elementwise_result_dtype(name, ops, (size_t)n, &dtype)))
        goto done;
    if (name && out && !usmarr_can_cast(dtype, out->dtype, USMARR_CASTING_SAME_KIND)) {
        rc = usmarr__fail(USMARR_ERROR_CASTING, "%s: the %s result cannot be cast to out's %s (same_kind)", name,
                          usmarr_dtype_name(dtype), usmarr_dtype_name(out->dtype));
        goto done;
    }
    if (!out) {
        struct usmarr__storage_params p;
        if ((rc = usmarr__storage_output_params(operands, n, &res, dtype, &p)) ||
            (rc = usmarr__storage_allocate(&p, &made)))
            goto done;
        dst = made;
    }

    for (int i = 0; i < n; i++)
        if (inputs[i] && (rc = sync_side(inputs[i], side)))
            goto done;
    /* out may be a sub-region or an input: the side written must be current first */
    if (out && (rc = sync_side(out, side)))
        goto done;

    usmarr_array_t *target = side_array(dst, side);
    if (name)
        rc = usmarr_elementwise(name, ops, (size_t)n, target, NULL);
    else if (ops[0].array)
        rc = usmarr_array_copy_into(target, ops[0].array);
    else
        rc = usmarr_array_fill(target, ops[0].scalar);
    if (rc || (rc = mark_written(dst, side)))
        goto done;
    if (result)
        *result = out ? usmarr_storage_retain(out) : made;
    if (!out)
        made = NULL;
done:
    for (int i = 0; i < n; i++)
        usmarr_array_release(views[i]);
    usmarr_storage_release(made);
    return rc;
}

/* Checks the operand list of `what`: `n` operands, each with at most one of storage or
 * array set. */
static int check_operands(const char *what, const usmarr_storage_operand_t *operands, int n, int arity)
{
    if (!operands)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s: operands is NULL", what);
    if (n != arity)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s takes %d operands, noperands=%d", what, arity, n);
    for (int i = 0; i < n; i++)
        if (operands[i].storage && operands[i].array)
            return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT,
                                "%s: operands[%d] sets both storage and array; set one (or neither for a scalar)",
                                what, i);
    return 0;
}

int usmarr_storage_elementwise(const char *name, const usmarr_storage_operand_t *operands, int noperands,
                               usmarr_storage_t *out, usmarr_storage_t **result)
{
    usmarr__clear_error();
    if (!name)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "name is NULL");
    int arity = usmarr_elementwise_arity(name);
    if (arity < 0)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "name=\"%.64s\" is not an elementwise function", name);
    if (!out && !result)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s: result is NULL and there is no out", name);
    int rc = check_operands(name, operands, noperands, arity);
    return rc ? rc : apply(name, operands, noperands, out, result);
}

int usmarr_storage_assign(usmarr_storage_t *storage, const usmarr_index_item_t *items, size_t nitems,
                          const usmarr_storage_operand_t *value)
{
    usmarr__clear_error();
    if (!storage || !value)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "assign: %s is NULL", !storage ? "storage" : "value");
    int rc = check_operands("assign", value, 1, 1);
    if (rc)
        return rc;
    usmarr_storage_t *region = NULL;
    if ((rc = usmarr_storage_index(storage, items, nitems, &region)))
        return rc;
    rc = apply(NULL, value, 1, region, NULL);
    usmarr_storage_release(region);
    return rc;
}

/* ---- reductions by letter ------------------------------------------------------------------ */

int usmarr_storage_reduce(const char *name, const usmarr_storage_t *storage, const char *axes,
                          usmarr_storage_t *out, usmarr_storage_t **result)
{
    usmarr__clear_error();
    if (!name || !storage)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s is NULL", !name ? "name" : "storage");
    if (!out && !result)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s: result is NULL and there is no out", name);
    usmarr_dtype_t dtype;
    int rc = usmarr__reduce_result_dtype(name, storage->dtype, &dtype);
    if (rc)
        return rc;

    /* the reduced dims, by letter (NULL or "": all) */
    bool reduced[USMARR_STORAGE_MAX_NDIM] = {false, false, false};
    int dims[USMARR_STORAGE_MAX_NDIM], ndims = 0;
    if (!axes || !*axes) {
        for (int d = 0; d < storage->ndim; d++)
            reduced[d] = true;
    } else {
        for (const char *c = axes; *c; c++) {
            const char *p = strchr(storage->axes, *c);
            if (!p)
                return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT,
                                    "%s: axes=\"%.8s\" names '%c', which is not an axis of the storage (axes \"%s\")",
                                    name, axes, *c, storage->axes);
            if (reduced[p - storage->axes])
                return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s: axes=\"%.8s\" repeats '%c'", name, axes, *c);
            reduced[p - storage->axes] = true;
        }
    }
    struct usmarr__named_shape res = {0, "", {0, 0, 0}};
    for (int d = 0; d < storage->ndim; d++) {
        if (reduced[d]) {
            dims[ndims++] = d;
        } else {
            res.axes[res.ndim] = storage->axes[d];
            res.shape[res.ndim++] = usmarr_storage_shape(storage)[d];
        }
    }
    res.axes[res.ndim] = 0;
    if (out && (out->ndim != res.ndim || strspn(out->axes, res.axes) != (size_t)res.ndim))
        return usmarr__fail(USMARR_ERROR_SHAPE_MISMATCH, "%s: out has axes \"%s\" where the result has \"%s\"", name,
                            out->axes, res.axes);
    for (int r = 0; out && r < res.ndim; r++) {
        int64_t m = usmarr_storage_shape(out)[strchr(out->axes, res.axes[r]) - out->axes];
        if (m != res.shape[r])
            return usmarr__fail(USMARR_ERROR_SHAPE_MISMATCH, "%s: out has extent %lld on axis %c, the result %lld", name,
                                (long long)m, res.axes[r], (long long)res.shape[r]);
    }
    if (out && !usmarr_can_cast(dtype, out->dtype, USMARR_CASTING_SAME_KIND))
        return usmarr__fail(USMARR_ERROR_CASTING, "%s: the %s result cannot be cast to out's %s (same_kind)", name,
                            usmarr_dtype_name(dtype), usmarr_dtype_name(out->dtype));

    enum side side = choose_side(&storage, 1, out);
    usmarr_storage_t *made = NULL, *dst = out;
    usmarr_array_t *target = NULL;
    if (out) {
        /* out's dims in the order of the storage's remaining letters */
        if ((rc = usmarr__storage_view_on(side_array(out, side), out->axes, &res, &target)))
            return rc;
    } else {
        struct usmarr__storage_params p;
        memset(&p, 0, sizeof p);
        p.context = usmarr_storage_context(storage);
        p.dtype = dtype;
        p.ndim = res.ndim;
        strcpy(p.axes, res.axes);
        for (int d = 0, r = 0; d < storage->ndim; d++)
            if (!reduced[d]) {
                p.shape[r] = usmarr_storage_shape(storage)[d];
                memcpy(p.halo[r], storage->halo[d], sizeof p.halo[r]);
                p.aligned_index[r++] = storage->aligned_index[d];
            }
        p.alignment = usmarr__storage_fit_alignment(storage->alignment, dtype);
        memcpy(p.layout, storage->layout, sizeof p.layout);
        p.kind = storage->kind;
        if (p.alignment < 0)
            return usmarr__fail(USMARR_ERROR_OVERFLOW, "%s: the alignment %lld fitted to the %s itemsize overflows",
                                name, (long long)storage->alignment, usmarr_dtype_name(dtype));
        if ((rc = usmarr__storage_allocate(&p, &made)))
            return rc;
        dst = made;
        target = usmarr_array_retain(side_array(made, side));
    }

    if ((rc = sync_side(storage, side)) || (out && (rc = sync_side(out, side))) ||
        (rc = usmarr_reduce(name, side_array(storage, side), ndims, dims, false, target, NULL)) ||
        (rc = mark_written(dst, side)))
        goto done;
    if (result)
        *result = out ? usmarr_storage_retain(out) : made;
    if (!out)
        made = NULL;
done:
    usmarr_array_release(target);
    usmarr_storage_release(made);
    return rc;
}
