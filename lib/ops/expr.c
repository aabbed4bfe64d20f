/* Fused expressions: the object (include/usmarr/expr.h) and its canonical form.  The
 * text is parsed twice (expr_parse.c): the first pass checks and counts, so a malformed
 * expression allocates nothing; the second fills the nodes. */
#include "ops_internal.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


#define NAME_MAX_LENGTH 64

/* ---- the canonical form -------------------------------------------------------------------- */

static void put_double(struct usmarr__text *t, double v)
{
    if (isnan(v))
        usmarr__text_put(t, "nan");
    else if (isinf(v))
        usmarr__text_put(t, v < 0 ? "-inf" : "inf");
    else
        usmarr__text_put(t, "%a", v);
}

static void put_literal(struct usmarr__text *t, const usmarr_scalar_t *v)
{
    if (v->dtype >= 0)
        usmarr__text_put(t, "%s(", usmarr_dtype_name((usmarr_dtype_t)v->dtype));
    switch (v->kind) {
    case USMARR_KIND_BOOL: usmarr__text_put(t, v->value.b ? "True" : "False"); break;
    case USMARR_KIND_INT: usmarr__text_put(t, "%lld", (long long)v->value.i); break;
    case USMARR_KIND_UINT: usmarr__text_put(t, "%llu", (unsigned long long)v->value.u); break;
    case USMARR_KIND_FLOAT: put_double(t, v->value.f); break;
    default:
        usmarr__text_put(t, "complex(");
        put_double(t, v->value.c[0]);
        usmarr__text_put(t, ",");
        put_double(t, v->value.c[1]);
        usmarr__text_put(t, ")");
        break;
    }
    if (v->dtype >= 0)
        usmarr__text_put(t, ")");
}

static void put_node(struct usmarr__text *t, const struct usmarr_expr *e, int i)
{
    const struct usmarr__xnode *n = &e->nodes[i];
    switch (n->kind) {
    case USMARR__X_OPERAND: usmarr__text_put(t, "$%d", n->op); break;
    case USMARR__X_LITERAL: put_literal(t, &n->value); break;
    case USMARR__X_CAST:
        usmarr__text_put(t, "astype(");
        put_node(t, e, n->args[0]);
        usmarr__text_put(t, ",%s)", usmarr_dtype_name((usmarr_dtype_t)n->op));
        break;
    default:
        usmarr__text_put(t, "%s(", usmarr__elementwise_op(n->op)->name);
        for (int k = 0; k < n->nargs; k++) {
            if (k)
                usmarr__text_put(t, ",");
            put_node(t, e, n->args[k]);
        }
        usmarr__text_put(t, ")");
        break;
    }
}

/* ---- the object ------------------------------------------------------------------------------ */

static void expr_free(usmarr_expr_t *e)
{
    if (!e)
        return;
    for (size_t i = 0; e->names && i < e->noperands; i++)
        free(e->names[i]);
    free(e->names);
    free(e->nodes);
    free(e->text);
    free(e->canonical);
    usmarr__expr_caches_free(e);
    free(e);
}

static bool valid_name(const char *s)
{
    static const char *const keywords[] = {"and", "or", "not", "if", "else"};
    if (!s || !(isalpha((unsigned char)*s) || *s == '_') || strlen(s) > NAME_MAX_LENGTH)
        return false;
    for (size_t i = 0; i < sizeof keywords / sizeof keywords[0]; i++)
        if (!strcmp(s, keywords[i]))
            return false;
    while (*s && (isalnum((unsigned char)*s) || *s == '_'))
        s++;
    return !*s;
}

int usmarr_expr_create(const char *text, const char *const *names, size_t nnames, usmarr_expr_t **expr)
{
    usmarr__clear_error();
    if (expr)
        *expr = NULL;
    if (!text || !expr)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s is NULL", !text ? "text" : "expr");
    for (size_t i = 0; names && i < nnames; i++) {
        if (!valid_name(names[i]))
            return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT,
                                "names[%zu] is %s, not a name of at most %d letters, digits and '_'", i,
                                names[i] ? "malformed" : "NULL", NAME_MAX_LENGTH);
        for (size_t j = 0; j < i; j++)
            if (!strcmp(names[i], names[j]))
                return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "names[%zu]=\"%s\" repeats names[%zu]", i,
                                    names[i], j);
    }
    int reduction = -1, nnodes = 0;
    int rc = usmarr__expr_parse(text, names, nnames, NULL, &nnodes, &reduction, NULL, NULL, NULL); /* check, count */
    if (rc)
        return rc;
    usmarr_expr_t *e = calloc(1, sizeof *e);
    if (!e)
        return usmarr__fail(USMARR_ERROR_OUT_OF_HOST_MEMORY, "expression");
    e->nodes = calloc((size_t)nnodes, sizeof *e->nodes);
    e->text = strdup(text);
    const char **seen = names ? NULL : calloc((size_t)nnodes, sizeof *seen);
    size_t *seen_len = names ? NULL : calloc((size_t)nnodes, sizeof *seen_len), nseen = 0;
    if (!e->nodes || !e->text || (!names && (!seen || !seen_len))) {
        rc = usmarr__fail(USMARR_ERROR_OUT_OF_HOST_MEMORY, "expression of %zu characters", strlen(text));
        goto fail;
    }
    if ((rc = usmarr__expr_parse(text, names, nnames, e->nodes, &e->nnodes, &reduction, seen, seen_len, &nseen)))
        goto fail;
    e->reduction = reduction;
    e->noperands = names ? nnames : nseen;
    e->names = calloc(e->noperands ? e->noperands : 1, sizeof *e->names);
    for (size_t i = 0; e->names && i < e->noperands; i++) {
        e->names[i] = names ? strdup(names[i]) : strndup(seen[i], seen_len[i]);
        if (!e->names[i])
            break;
    }
    struct usmarr__text t = {0};
    if (reduction >= 0)
        usmarr__text_put(&t, "%s(", usmarr__reduce_name(reduction));
    put_node(&t, e, e->nnodes - 1);
    if (reduction >= 0)
        usmarr__text_put(&t, ")");
    e->canonical = t.failed ? NULL : t.s;
    if (t.failed)
        free(t.s);
    if (!e->names || (e->noperands && !e->names[e->noperands - 1]) || !e->canonical) {
        rc = usmarr__fail(USMARR_ERROR_OUT_OF_HOST_MEMORY, "expression names and canonical form");
        goto fail;
    }
    if (mtx_init(&e->lock, mtx_plain) != thrd_success) {
        rc = usmarr__fail(USMARR_ERROR_OUT_OF_HOST_MEMORY, "expression lock");
        goto fail;
    }
    usmarr__ref_init(&e->refcount);
    free(seen);
    free(seen_len);
    *expr = e;
    return 0;
fail:
    free(seen);
    free(seen_len);
    expr_free(e);
    return rc;
}

usmarr_expr_t *usmarr_expr_retain(usmarr_expr_t *expr) { return USMARR__RETAIN(expr); }

void usmarr_expr_release(usmarr_expr_t *expr)
{
    if (!USMARR__RELEASE_LAST(expr))
        return;
    mtx_destroy(&expr->lock);
    expr_free(expr);
}

size_t usmarr_expr_operand_count(const usmarr_expr_t *expr) { return expr ? expr->noperands : 0; }

const char *usmarr_expr_operand_name(const usmarr_expr_t *expr, size_t index)
{
    return expr && index < expr->noperands ? expr->names[index] : NULL;
}

const char *usmarr_expr_canonical(const usmarr_expr_t *expr) { return expr ? expr->canonical : NULL; }

const char *usmarr_expr_reduction(const usmarr_expr_t *expr)
{
    return expr && expr->reduction >= 0 ? usmarr__reduce_name(expr->reduction) : NULL;
}
