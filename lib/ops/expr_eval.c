/* Fused expressions: applying one (include/usmarr/expr.h).  The checks and the result
 * convention are usmarr_elementwise()'s; the work is one map of the expression's
 * generated program (expr_build.c) over the broadcast operands, or for an expression
 * that ends in a reduction one pass of the reduction engine with the expression as its
 * element loader (reduce.c). */
#include "ops_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What the checks of one call found. */
struct call {
    usmarr_expr_t *e;
    const usmarr_operand_t *operands;
    usmarr_context_t *ctx;
    const usmarr_array_t *first; /* the first array operand, or NULL */
    int ndim;
    int64_t shape[USMARR_MAX_NDIM]; /* the arrays' broadcast shape */
};

static int check_call(const usmarr_expr_t *e, const usmarr_operand_t *operands, size_t noperands,
                      const usmarr_array_t *out, struct call *c)
{
    if (!e)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "expr is NULL");
    if (noperands != e->noperands)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "the expression \"%.64s\" takes %zu operands, noperands=%zu",
                            e->text, e->noperands, noperands);
    if (noperands && !operands)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "operands is NULL");
    memset(c, 0, sizeof *c);
    c->e = (usmarr_expr_t *)e;
    c->operands = operands;
    c->ctx = out ? out->memory->context : NULL;
    for (size_t i = 0; i < noperands; i++) {
        const usmarr_array_t *a = operands[i].array;
        if (!a) {
            char what[96];
            snprintf(what, sizeof what, "operand '%s'", e->names[i]);
            int rc = usmarr__scalar_check(&operands[i].scalar, what);
            if (rc)
                return rc;
            continue;
        }
        if (!c->ctx)
            c->ctx = a->memory->context;
        else if (a->memory->context != c->ctx)
            return usmarr__fail(USMARR_ERROR_CONTEXT_MISMATCH, "operand '%s' belongs to another context than %s",
                                e->names[i], out ? "out" : "the first array operand");
        bool used = false; /* operands the text does not read take no part in the shape */
        for (int k = 0; k < e->nnodes && !used; k++)
            used = e->nodes[k].kind == USMARR__X_OPERAND && e->nodes[k].op == (int)i;
        if (!used)
            continue;
        if (!c->first)
            c->first = a;
        if (a->ndim > c->ndim) {
            memmove(c->shape + (a->ndim - c->ndim), c->shape, sizeof(int64_t) * (size_t)c->ndim);
            for (int d = 0; d < a->ndim - c->ndim; d++)
                c->shape[d] = 1;
            c->ndim = a->ndim;
        }
        for (int d = 0; d < a->ndim; d++) {
            int64_t *s = &c->shape[c->ndim - a->ndim + d], m = a->shape[d];
            if (*s == 1)
                *s = m;
            else if (m != 1 && m != *s)
                return usmarr__fail(USMARR_ERROR_SHAPE_MISMATCH,
                                    "operand '%s' has shape[%d]=%lld where the other operands have %lld", e->names[i],
                                    d, (long long)m, (long long)*s);
        }
    }
    if (!c->ctx)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "no operand is an array and there is no out");
    return 0;
}

/* out: writable, of a shape the operands broadcast to, of a dtype `res` casts to. */
static int check_out(struct call *c, usmarr_array_t *out, usmarr_dtype_t res)
{
    int rc = usmarr__check_writable(out, "out");
    if (rc)
        return rc;
    bool fits = out->ndim >= c->ndim;
    for (int d = 0; fits && d < c->ndim; d++) {
        int64_t o = out->shape[out->ndim - c->ndim + d];
        fits = c->shape[d] == o || c->shape[d] == 1;
    }
    if (!fits)
        return usmarr__fail(USMARR_ERROR_SHAPE_MISMATCH, "out of %d dims does not have the shape the operands broadcast to",
                            out->ndim);
    if (!usmarr_can_cast(res, out->dtype, USMARR_CASTING_SAME_KIND))
        return usmarr__fail(USMARR_ERROR_CASTING, "the %s result cannot be cast to out's %s (same_kind)",
                            usmarr_dtype_name(res), usmarr_dtype_name(out->dtype));
    c->ndim = out->ndim;
    memcpy(c->shape, out->shape, sizeof(int64_t) * (size_t)out->ndim);
    return 0;
}

/* One map of the expression (its plan for target's dtype) into `target` (c's shape). */
static int launch_map(struct call *c, const struct usmarr__xplan *plan, usmarr_array_t *target)
{
    struct usmarr__map m = usmarr__map_init("expr", plan->defines, 1, plan->nin);
    int rc;
    m.parts = plan->parts;
    m.nparts = plan->nparts;
    m.ndim = c->ndim;
    memcpy(m.shape, c->shape, sizeof(int64_t) * (size_t)c->ndim);
    if ((rc = usmarr__operand_from_array(target, c->ndim, c->shape, &m.operands[0])))
        return rc;
    for (int k = 0; k < plan->nin; k++)
        if ((rc = usmarr__operand_from_array(c->operands[plan->inputs[k]].array, c->ndim, c->shape,
                                             &m.operands[k + 1])))
            return rc;
    m.nscalars = plan->nscalars;
    memcpy(m.scalars, plan->scalars, sizeof plan->scalars);
    return usmarr__map_launch(c->ctx, &m);
}

/* The whole expression (no reduction) into out or a new array. */
static int apply_map(struct call *c, usmarr_array_t *out, usmarr_array_t **result)
{
    struct usmarr__xplan plan; /* the types first: errors before anything is allocated */
    int rc = usmarr__expr_plan(c->e, c->operands, c->ctx, USMARR__XT_MAP, out ? out->dtype : (usmarr_dtype_t)-1,
                               &plan);
    if (rc)
        return rc;
    usmarr_dtype_t res = plan.result;
    if (out && (rc = check_out(c, out, res)))
        return rc;
    /* out itself, unless an operand overlaps it other than element for element */
    bool direct = out != NULL;
    for (size_t i = 0; direct && i < c->e->noperands; i++) {
        const usmarr_array_t *a = c->operands[i].array;
        direct = !a || !usmarr__ranges_meet(a, out) || usmarr__exact_alias(a, out);
    }
    usmarr_array_t *target = NULL;
    if (direct)
        target = usmarr_array_retain(out);
    else if ((rc = usmarr__elementwise_target(c->ctx, c->first, out, out ? out->dtype : res, c->ndim, c->shape,
                                              &target)))
        return rc;
    rc = launch_map(c, &plan, target);
    if (!rc && out && target != out)
        rc = usmarr_array_copy_into(out, target);
    if (!rc && result)
        *result = usmarr_array_retain(out ? out : target);
    usmarr_array_release(target);
    return rc;
}

/* A reduction of the expression: the value evaluated into a temporary, then reduced (the
 * path of layouts the fused pass does not take). */
static int reduce_staged(struct call *c, usmarr_dtype_t res, int naxes, const int *axes, bool keepdims,
                         usmarr_array_t *out, usmarr_array_t **result)
{
    usmarr_array_t *value = NULL;
    struct usmarr__xplan plan;
    int rc = usmarr__expr_plan(c->e, c->operands, c->ctx, USMARR__XT_MAP, res, &plan);
    if (!rc)
        rc = usmarr__elementwise_target(c->ctx, c->first, NULL, res, c->ndim, c->shape, &value);
    if (!rc)
        rc = launch_map(c, &plan, value);
    if (!rc)
        rc = usmarr_reduce(usmarr__reduce_name(c->e->reduction), value, naxes, axes, keepdims, out, result);
    usmarr_array_release(value);
    return rc;
}

/* A reduction of the expression in one pass: the reduction engine with the expression as
 * its element loader; staged when the layout does not merge into its two-by-two dims. */
static int reduce_call(struct call *c, int naxes, const int *axes, bool keepdims, usmarr_array_t *out,
                       usmarr_array_t **result)
{
    struct usmarr__xplan plan;
    int rc = usmarr__expr_plan(c->e, c->operands, c->ctx, USMARR__XT_REDUCE, (usmarr_dtype_t)-1, &plan);
    if (rc)
        return rc;
    struct usmarr__reduce_fused f = {.ctx = c->ctx, .dtype = plan.result, .ndim = c->ndim, .nin = plan.nin,
                                     .nscalars = plan.nscalars, .scalars = plan.scalars, .parts = plan.parts,
                                     .nparts = plan.nparts, .defines = plan.defines};
    memcpy(f.shape, c->shape, sizeof(int64_t) * (size_t)c->ndim);
    f.kind = c->first && c->first->memory->kind != USMARR_USM_UNKNOWN ? c->first->memory->kind : USMARR_USM_DEVICE;
    for (int k = 0; k < plan.nin; k++) {
        const usmarr_array_t *a = c->operands[plan.inputs[k]].array;
        if ((rc = usmarr__operand_from_array(a, c->ndim, c->shape, &f.in[k])))
            return rc;
        f.memory[k] = a->memory;
    }
    rc = usmarr__reduce_fused(usmarr__reduce_name(c->e->reduction), &f, naxes, axes, keepdims, out, result);
    return rc == 1 ? reduce_staged(c, plan.result, naxes, axes, keepdims, out, result) : rc;
}

int usmarr_expr_result_dtype(const usmarr_expr_t *expr, const usmarr_operand_t *operands, size_t noperands,
                             usmarr_dtype_t *dtype)
{
    usmarr__clear_error();
    if (!dtype)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "dtype is NULL");
    if (!expr)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "expr is NULL");
    if (noperands != expr->noperands || (noperands && !operands))
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "the expression takes %zu operands, noperands=%zu%s",
                            expr->noperands, noperands, noperands && !operands ? " and operands is NULL" : "");
    for (size_t i = 0; i < noperands; i++) {
        char what[96];
        snprintf(what, sizeof what, "operand '%s'", expr->names[i]);
        int rc = operands[i].array ? 0 : usmarr__scalar_check(&operands[i].scalar, what);
        if (rc)
            return rc;
    }
    usmarr_dtype_t res;
    int rc = usmarr__expr_types(expr, operands, NULL, &res);
    if (!rc && expr->reduction >= 0)
        rc = usmarr__reduce_result_dtype(usmarr__reduce_name(expr->reduction), res, &res);
    if (!rc)
        *dtype = res;
    return rc;
}

int usmarr_expr_apply(const usmarr_expr_t *expr, const usmarr_operand_t *operands, size_t noperands,
                      usmarr_array_t *out, usmarr_array_t **result)
{
    usmarr__clear_error();
    struct call c;
    int rc = check_call(expr, operands, noperands, out, &c);
    if (rc)
        return rc;
    if (!out && !result)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "result is NULL and there is no out");
    if (expr->reduction >= 0)
        return reduce_call(&c, 0, NULL, false, out, result);
    return apply_map(&c, out, result);
}

int usmarr_expr_reduce(const usmarr_expr_t *expr, const usmarr_operand_t *operands, size_t noperands, int naxes,
                       const int *axes, bool keepdims, usmarr_array_t *out, usmarr_array_t **result)
{
    usmarr__clear_error();
    if (expr && expr->reduction < 0)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT,
                            "the expression \"%.64s\" does not end in a reduction (write sum(...), max(...), ...)",
                            expr->text);
    struct call c;
    int rc = check_call(expr, operands, noperands, NULL, &c);
    if (rc)
        return rc;
    if (out && out->memory->context != c.ctx)
        return usmarr__fail(USMARR_ERROR_CONTEXT_MISMATCH, "out belongs to another context than the operands");
    if (!out && !result)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "result is NULL and there is no out");
    return reduce_call(&c, naxes, axes, keepdims, out, result);
}
