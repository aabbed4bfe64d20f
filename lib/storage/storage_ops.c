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

/* The end of an operation that wrote `side` of out, or of *made where there is no out:
 * marks it written and gives the caller out (retained) or *made (then no longer the
 * operation's to release). */
static int finish(usmarr_storage_t *out, usmarr_storage_t **made, enum side side, usmarr_storage_t **result)
{
    int rc = mark_written(out ? out : *made, side);
    if (rc)
        return rc;
    if (result)
        *result = out ? usmarr_storage_retain(out) : *made;
    if (!out)
        *made = NULL;
    return 0;
}

#define MAX_OPERANDS 8 /* of one storage operation (an expression's) */

/* The operands of one operation, viewed on the result's axes (on `side`). */
struct viewed {
    const usmarr_storage_t *inputs[MAX_OPERANDS];
    usmarr_operand_t ops[MAX_OPERANDS];
    usmarr_array_t *views[MAX_OPERANDS];
};

static int view_operands(const usmarr_storage_operand_t *operands, int n, const usmarr__letters_t *letters,
                         const struct usmarr__named_shape *res, enum side side, struct viewed *v)
{
    for (int i = 0; i < n; i++) {
        const usmarr_array_t *a = v->inputs[i] ? side_array(v->inputs[i], side) : operands[i].array;
        memset(&v->ops[i], 0, sizeof v->ops[i]);
        if (!a) {
            v->ops[i].scalar = operands[i].scalar;
            continue;
        }
        int rc = usmarr__storage_view_on(a, letters[i], res, &v->views[i]);
        if (rc)
            return rc;
        v->ops[i].array = v->views[i];
    }
    return 0;
}

static void viewed_release(struct viewed *v, int n)
{
    for (int i = 0; i < n; i++)
        usmarr_array_release(v->views[i]);
}

/* The elementwise function `name`, or the expression `expr` (both NULL: assignment,
 * operand 0 copied into out) over storage operands, into `out` or a new storage with the
 * output parameters of doc/storage.md. */
static int apply(const char *name, const usmarr_expr_t *expr, const usmarr_storage_operand_t *operands, int n,
                 usmarr_storage_t *out, usmarr_storage_t **result)
{
    const char *what = name ? name : expr ? "expression" : "assign";
    struct usmarr__named_shape res;
    usmarr__letters_t letters[MAX_OPERANDS];
    int rc = usmarr__storage_broadcast(what, operands, n, out, &res, letters);
    if (rc)
        return rc;

    struct viewed v = {{NULL}, {{0}}, {NULL}};
    for (int i = 0; i < n; i++)
        v.inputs[i] = operands[i].storage;
    enum side side = choose_side(v.inputs, n, out);
    usmarr_operand_t *ops = v.ops;
    usmarr_storage_t *made = NULL, *dst = out;
    if ((rc = view_operands(operands, n, letters, &res, side, &v)))
        goto done;

    /* argument errors surface before anything is synchronised */
    usmarr_dtype_t dtype = USMARR_BOOL;
    if (name && (rc = usmarr__elementwise_result_dtype(name, ops, (size_t)n, &dtype)))
        goto done;
    if (expr && (rc = usmarr_expr_result_dtype(expr, ops, (size_t)n, &dtype)))
        goto done;
    if ((name || expr) && out && !usmarr_can_cast(dtype, out->dtype, USMARR_CASTING_SAME_KIND)) {
        rc = usmarr__fail(USMARR_ERROR_CASTING, "%s: the %s result cannot be cast to out's %s (same_kind)", what,
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
        if (v.inputs[i] && (rc = sync_side(v.inputs[i], side)))
            goto done;
    /* out may be a sub-region or an input: the side written must be current first */
    if (out && (rc = sync_side(out, side)))
        goto done;

    usmarr_array_t *target = side_array(dst, side);
    if (name)
        rc = usmarr_elementwise(name, ops, (size_t)n, target, NULL);
    else if (expr)
        rc = usmarr_expr_apply(expr, ops, (size_t)n, target, NULL);
    else if (ops[0].array)
        rc = usmarr_array_copy_into(target, ops[0].array);
    else
        rc = usmarr_array_fill(target, ops[0].scalar);
    if (!rc)
        rc = finish(out, &made, side, result);
done:
    viewed_release(&v, n);
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
    return rc ? rc : apply(name, NULL, operands, noperands, out, result);
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
    rc = apply(NULL, NULL, value, 1, region, NULL);
    usmarr_storage_release(region);
    return rc;
}

/* ---- reductions by letter ------------------------------------------------------------------ */

/* The reduced dims of `all` named by the letters `axes` (NULL or "": all of them), the
 * result's axes `res` (the others), and `out` checked against them and `dtype`. */
static int reduce_axes(const char *name, const char *of, const struct usmarr__named_shape *all, const char *axes,
                       const usmarr_storage_t *out, usmarr_dtype_t dtype, bool *reduced, int *dims, int *ndims,
                       struct usmarr__named_shape *res)
{
    memset(reduced, 0, sizeof(bool) * USMARR_STORAGE_MAX_NDIM);
    for (const char *c = axes; c && *c; c++) {
        const char *p = strchr(all->axes, *c);
        if (!p)
            return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT,
                                "%s: axes=\"%.8s\" names '%c', which is not an axis of the %s (axes \"%s\")", name,
                                axes, *c, of, all->axes);
        if (reduced[p - all->axes])
            return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s: axes=\"%.8s\" repeats '%c'", name, axes, *c);
        reduced[p - all->axes] = true;
    }
    *ndims = 0;
    memset(res, 0, sizeof *res);
    for (int d = 0; d < all->ndim; d++) {
        if (!axes || !*axes)
            reduced[d] = true;
        if (reduced[d]) {
            dims[(*ndims)++] = d;
        } else {
            res->axes[res->ndim] = all->axes[d];
            res->shape[res->ndim++] = all->shape[d];
        }
    }
    if (out && (out->ndim != res->ndim || strspn(out->axes, res->axes) != (size_t)res->ndim))
        return usmarr__fail(USMARR_ERROR_SHAPE_MISMATCH, "%s: out has axes \"%s\" where the result has \"%s\"", name,
                            out->axes, res->axes);
    for (int r = 0; out && r < res->ndim; r++) {
        int64_t m = usmarr_storage_shape(out)[strchr(out->axes, res->axes[r]) - out->axes];
        if (m != res->shape[r])
            return usmarr__fail(USMARR_ERROR_SHAPE_MISMATCH, "%s: out has extent %lld on axis %c, the result %lld", name,
                                (long long)m, res->axes[r], (long long)res->shape[r]);
    }
    if (out && !usmarr_can_cast(dtype, out->dtype, USMARR_CASTING_SAME_KIND))
        return usmarr__fail(USMARR_ERROR_CASTING, "%s: the %s result cannot be cast to out's %s (same_kind)", name,
                            usmarr_dtype_name(dtype), usmarr_dtype_name(out->dtype));
    return 0;
}

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

    bool reduced[USMARR_STORAGE_MAX_NDIM];
    int dims[USMARR_STORAGE_MAX_NDIM], ndims = 0;
    struct usmarr__named_shape all = {storage->ndim, "", {0, 0, 0}}, res;
    strcpy(all.axes, storage->axes);
    memcpy(all.shape, usmarr_storage_shape(storage), sizeof(int64_t) * (size_t)storage->ndim);
    if ((rc = reduce_axes(name, "storage", &all, axes, out, dtype, reduced, dims, &ndims, &res)))
        return rc;

    enum side side = choose_side(&storage, 1, out);
    usmarr_storage_t *made = NULL;
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
        target = usmarr_array_retain(side_array(made, side));
    }

    if ((rc = sync_side(storage, side)) || (out && (rc = sync_side(out, side))) ||
        (rc = usmarr_reduce(name, side_array(storage, side), ndims, dims, false, target, NULL)))
        goto done;
    rc = finish(out, &made, side, result);
done:
    usmarr_array_release(target);
    usmarr_storage_release(made);
    return rc;
}

/* ---- expressions ---------------------------------------------------------------------------- */

/* An expression that ends in a reduction, over the letters `axes` of the operands'
 * broadcast axes (NULL or "": all). */
static int reduce_expression(const usmarr_expr_t *expr, const usmarr_storage_operand_t *operands, int n,
                             const char *axes, usmarr_storage_t *out, usmarr_storage_t **result)
{
    const char *name = usmarr_expr_reduction(expr);
    struct usmarr__named_shape all, res;
    usmarr__letters_t letters[MAX_OPERANDS];
    int rc = usmarr__storage_broadcast(name, operands, n, NULL, &all, letters);
    if (rc)
        return rc;
    bool reduced[USMARR_STORAGE_MAX_NDIM];
    int dims[USMARR_STORAGE_MAX_NDIM], ndims = 0;

    struct viewed v = {{NULL}, {{0}}, {NULL}};
    for (int i = 0; i < n; i++)
        v.inputs[i] = operands[i].storage;
    enum side side = choose_side(v.inputs, n, out);
    usmarr_storage_t *made = NULL;
    usmarr_array_t *target = NULL;
    usmarr_dtype_t dtype;
    if ((rc = view_operands(operands, n, letters, &all, side, &v)) ||
        (rc = usmarr_expr_result_dtype(expr, v.ops, (size_t)n, &dtype)) ||
        (rc = reduce_axes(name, "operands", &all, axes, out, dtype, reduced, dims, &ndims, &res)))
        goto done;
    if (out) {
        if ((rc = usmarr__storage_view_on(side_array(out, side), out->axes, &res, &target)))
            goto done;
    } else {
        /* the output parameters over all axes, the reduced ones left out */
        struct usmarr__storage_params p, q;
        if ((rc = usmarr__storage_output_params(operands, n, &all, dtype, &p)))
            goto done;
        q = p;
        q.ndim = 0;
        for (int d = 0; d < p.ndim; d++)
            if (!reduced[d]) {
                q.axes[q.ndim] = p.axes[d];
                q.shape[q.ndim] = p.shape[d];
                memcpy(q.halo[q.ndim], p.halo[d], sizeof q.halo[0]);
                q.aligned_index[q.ndim++] = p.aligned_index[d];
            }
        q.axes[q.ndim] = 0;
        if ((rc = usmarr__storage_allocate(&q, &made)))
            goto done;
        target = usmarr_array_retain(side_array(made, side));
    }
    for (int i = 0; i < n; i++)
        if (v.inputs[i] && (rc = sync_side(v.inputs[i], side)))
            goto done;
    if ((out && (rc = sync_side(out, side))) ||
        (rc = usmarr_expr_reduce(expr, v.ops, (size_t)n, ndims, dims, false, target, NULL)))
        goto done;
    rc = finish(out, &made, side, result);
done:
    usmarr_array_release(target);
    viewed_release(&v, n);
    usmarr_storage_release(made);
    return rc;
}

int usmarr_storage_evaluate(const usmarr_expr_t *expr, const usmarr_storage_operand_t *operands, int noperands,
                            const char *axes, usmarr_storage_t *out, usmarr_storage_t **result)
{
    usmarr__clear_error();
    if (!expr)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "expr is NULL");
    if (!out && !result)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "expression: result is NULL and there is no out");
    size_t count = usmarr_expr_operand_count(expr);
    if (count > MAX_OPERANDS)
        return usmarr__fail(USMARR_ERROR_UNSUPPORTED, "expression: %zu operands; storages take at most %d", count,
                            MAX_OPERANDS);
    int rc = check_operands("expression", operands, noperands, (int)count);
    if (rc)
        return rc;
    if (usmarr_expr_reduction(expr))
        return reduce_expression(expr, operands, noperands, axes, out, result);
    if (axes && *axes)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT,
                            "expression: axes=\"%.8s\" given to an expression that does not end in a reduction", axes);
    return apply(NULL, expr, operands, noperands, out, result);
}
