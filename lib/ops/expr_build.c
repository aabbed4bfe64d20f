/* Fused expressions: the types of one application and its generated program.
 *
 * Types.  Every node is resolved as the separate call would be (elementwise.c's
 * usmarr__elementwise_plan: promotion, the function's loop dtype, NumPy 2's weak-integer
 * rules), with the values the tree computes standing in as arrays of their dtypes.  Weak
 * values stay weak through operators (folded here, as Python folds them) and take the
 * dtype of the computation they meet.
 *
 * Programs.  The program is OpenCL C made of the elementwise table itself: for each
 * dtype the expression computes in, one copy of cl/elementwise.cl and its helpers (complex.cl
 * first for complex dtypes) with EW_T set, then one small function per (function, dtype)
 * whose body is the table's expression; then the map body (or, for a reduction, the
 * element loader) that reads each operand once, converts as the separate calls' casts
 * would, calls those functions in order and stores once.  float16 intermediates are
 * rounded to float16 as a stored temporary would be.  The program's text is the key of
 * the expression's small cache; the engine caches the compiled program (memory and
 * disk) under the parts and a digest in its defines (engine_internal.h, section 2). */
#include "ops_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#define MAX_PARTS 64

void usmarr__text_put(struct usmarr__text *t, const char *format, ...)
{
    va_list ap;
    for (int attempt = 0; attempt < 2 && !t->failed; attempt++) {
        va_start(ap, format);
        int n = vsnprintf(t->s ? t->s + t->len : NULL, t->s ? t->cap - t->len : 0, format, ap);
        va_end(ap);
        if (n < 0) {
            t->failed = true;
            return;
        }
        if (t->s && t->len + (size_t)n < t->cap) {
            t->len += (size_t)n;
            return;
        }
        size_t cap = (t->cap + (size_t)n + 256) * 2;
        char *g = realloc(t->s, cap);
        if (!g) {
            t->failed = true;
            return;
        }
        t->s = g;
        t->cap = cap;
    }
}

/* ---- the cache of generated programs ---------------------------------------------------- */

struct usmarr__xspec {
    struct usmarr__xspec *next;
    uint64_t hash;
    char *key; /* every part, joined */
    int nparts;
    struct usmarr__source_part parts[MAX_PARTS];
    char *texts[MAX_PARTS];
    char defines[64];
};

/* What the program of one application depends on (the target, the stored dtype, and per
 * node what resolve() decided), so that a repeated signature finds its program without
 * generating the text again. */
#define SIG_PER_NODE 11
struct usmarr__xsig {
    struct usmarr__xsig *next;
    uint64_t hash;
    size_t n;
    const struct usmarr__xspec *spec;
    int key[];
};

void usmarr__expr_caches_free(usmarr_expr_t *e)
{
    for (struct usmarr__xspec *sp = e->specs, *next; sp; sp = next) {
        next = sp->next;
        for (int i = 0; i < sp->nparts; i++)
            free(sp->texts[i]);
        free(sp->key);
        free(sp);
    }
    for (struct usmarr__xsig *sg = e->sigs, *next; sg; sg = next) {
        next = sg->next;
        free(sg);
    }
    e->specs = NULL;
    e->sigs = NULL;
}

/* ---- types ---------------------------------------------------------------------------------- */

/* What a node is in one application. */
struct nstate {
    bool weak;            /* a weak value (value): a number, a weak scalar, an operator over them */
    bool constant;        /* its value is in the text (weak, or a typed number) */
    usmarr_scalar_t value;
    usmarr_dtype_t dtype; /* not weak: the value's dtype */
    int slot;             /* not weak: a by-value scalar holds it; -1 if not */
    int input;            /* an array operand: its kernel operand; 0 if not */
    int op;               /* a call: the function it runs */
    usmarr_dtype_t loop;  /* a call: the dtype it computes in */
    usmarr_scalar_t argv[3]; /* a call: the value each weak argument takes (maybe clamped) */
    int argslot[3];          /* a call: the scalar of a weak argument that is not constant; -1 */
};

struct resolution {
    const usmarr_expr_t *e;
    const usmarr_operand_t *operands;
    usmarr_context_t *ctx; /* NULL: no device checks */
    bool plan;             /* make the kernel's scalars (else types only) */
    struct nstate *st;
    int nin, inputs[USMARR__MAX_OPERANDS];
    int nscalars;
    struct usmarr__scalar_arg scalars[USMARR__MAX_SCALARS];
    usmarr_dtype_t result;
};

/* Arrays standing for intermediate values: only their dtype is read. */
static usmarr_array_t stand_in[USMARR_DTYPE_COUNT];
static once_flag stand_in_once = ONCE_FLAG_INIT;
static void stand_in_init(void)
{
    for (int d = 0; d < USMARR_DTYPE_COUNT; d++)
        stand_in[d].dtype = (usmarr_dtype_t)d;
}

static int at_column(int rc, const struct usmarr__xnode *n)
{
    char detail[400];
    snprintf(detail, sizeof detail, "%s", usmarr_last_error_detail());
    return usmarr__fail(rc, "%s (at column %d of the expression)", detail, n->column);
}

/* A by-value scalar of the kernel holding `value` as `dtype`: its index, or an error. */
static int new_slot(struct resolution *r, usmarr_dtype_t dtype, const usmarr_scalar_t *value)
{
    if (r->nscalars == USMARR__MAX_SCALARS)
        return usmarr__fail(USMARR_ERROR_UNSUPPORTED, "the expression needs more than %d scalar kernel arguments",
                            USMARR__MAX_SCALARS);
    int rc = usmarr__scalar_arg_set(&r->scalars[r->nscalars], (int)dtype, value);
    return rc ? rc : r->nscalars++;
}

static int resolve_operand(struct resolution *r, int i, const struct usmarr__xnode *n, struct nstate *s)
{
    const usmarr_operand_t *o = &r->operands[n->op];
    if (o->array) {
        s->dtype = o->array->dtype;
        for (int k = 0; k < r->nin; k++)
            if (r->inputs[k] == n->op)
                s->input = k + 1;
        if (!s->input) {
            if (r->nin == USMARR__MAX_OPERANDS - 1)
                return usmarr__fail(USMARR_ERROR_UNSUPPORTED, "the expression reads more than %d arrays",
                                    USMARR__MAX_OPERANDS - 1);
            r->inputs[r->nin++] = n->op;
            s->input = r->nin;
        }
    } else if (o->scalar.dtype >= 0) {
        s->dtype = (usmarr_dtype_t)o->scalar.dtype;
        for (int k = 0; k < i && s->slot < 0; k++) /* one argument per typed scalar */
            if (r->e->nodes[k].kind == USMARR__X_OPERAND && r->e->nodes[k].op == n->op)
                s->slot = r->st[k].slot;
        if (s->slot < 0 && r->plan && (s->slot = new_slot(r, s->dtype, &o->scalar)) < 0)
            return s->slot;
    } else {
        s->weak = true;
        s->value = o->scalar;
    }
    return 0;
}

static int resolve_call(struct resolution *r, const struct usmarr__xnode *n, struct nstate *s)
{
    const struct usmarr__ew_op *op = usmarr__elementwise_op(n->op);
    bool all_weak = n->from_operator;
    for (int k = 0; k < n->nargs; k++)
        all_weak = all_weak && r->st[n->args[k]].weak;
    if (all_weak) { /* Python computes it before NumPy sees it */
        usmarr_scalar_t v[3];
        for (int k = 0; k < n->nargs; k++)
            v[k] = r->st[n->args[k]].value;
        const char *why = "";
        int rc = usmarr__expr_fold(n->op, v, n->nargs, &s->value, &why);
        if (rc == 0) {
            s->weak = true;
            return 0;
        }
        if (rc != 1 || strcmp(why, "not a Python operation on numbers"))
            return usmarr__fail(rc == 1 ? USMARR_ERROR_INVALID_ARGUMENT : rc, "%s of the weak scalars fails: %s (at column %d of the expression)",
                                op->name, why, n->column);
    }
    usmarr_operand_t args[3], planned[3];
    memset(args, 0, sizeof args);
    for (int k = 0; k < n->nargs; k++) {
        const struct nstate *a = &r->st[n->args[k]];
        if (a->weak)
            args[k].scalar = a->value;
        else
            args[k].array = &stand_in[a->dtype];
    }
    usmarr_dtype_t res;
    int rc = usmarr__elementwise_plan(n->op, args, &s->op, planned, &s->loop, &res);
    if (!rc && n->nargs == 2 && !planned[1].array) /* a weak exponent: refused when the expression is built */
        rc = usmarr__elementwise_check_exponent(s->op, s->loop, &planned[1]);
    if (!rc && r->ctx)
        rc = usmarr__check_dtype_supported(r->ctx, s->loop, "the computation dtype");
    if (rc)
        return at_column(rc, n);
    s->dtype = res;
    for (int k = 0; k < n->nargs; k++) {
        const struct nstate *a = &r->st[n->args[k]];
        s->argslot[k] = -1;
        if (!a->weak)
            continue;
        usmarr_dtype_t use = op->where && k == 0 ? USMARR_BOOL : s->loop;
        s->argv[k] = planned[k].scalar;
        if ((rc = usmarr__weak_fits(&s->argv[k], use, "a weak scalar")))
            return at_column(rc, n);
        if (!a->constant && r->plan && (s->argslot[k] = new_slot(r, use, &s->argv[k])) < 0)
            return s->argslot[k];
    }
    return 0;
}

/* Resolves every node in order; r->st must hold e->nnodes entries. */
static int resolve(struct resolution *r)
{
    call_once(&stand_in_once, stand_in_init);
    const usmarr_expr_t *e = r->e;
    r->nin = r->nscalars = 0;
    for (int i = 0; i < e->nnodes; i++) {
        const struct usmarr__xnode *n = &e->nodes[i];
        struct nstate *s = &r->st[i];
        memset(s, 0, sizeof *s);
        s->slot = -1;
        int rc = 0;
        switch (n->kind) {
        case USMARR__X_OPERAND:
            rc = resolve_operand(r, i, n, s);
            break;
        case USMARR__X_LITERAL:
            s->constant = true;
            s->value = n->value;
            s->weak = n->value.dtype < 0;
            s->dtype = s->weak ? USMARR_BOOL : (usmarr_dtype_t)n->value.dtype;
            break;
        case USMARR__X_CAST: {
            const struct nstate *a = &r->st[n->args[0]];
            s->dtype = (usmarr_dtype_t)n->op;
            if (a->weak && r->plan) /* a weak scalar operand cast: a typed kernel argument */
                rc = (s->slot = new_slot(r, s->dtype, &a->value)) < 0 ? s->slot : 0;
            else if (a->weak) {
                _Alignas(16) unsigned char bytes[16];
                rc = usmarr__scalar_store(a->value, s->dtype, bytes, "a weak scalar");
            }
            if (!rc && r->ctx)
                rc = usmarr__check_dtype_supported(r->ctx, s->dtype, "a cast's dtype");
            if (rc)
                return rc < 0 && rc != USMARR_ERROR_UNSUPPORTED ? at_column(rc, n) : rc;
            break;
        }
        default:
            rc = resolve_call(r, n, s);
            break;
        }
        if (rc)
            return rc;
    }
    struct nstate *root = &r->st[e->nnodes - 1];
    if (root->weak) { /* the whole expression is a weak value: its default dtype */
        usmarr_dtype_t d;
        int rc = usmarr_result_type(NULL, 0, &root->value, 1, &d);
        if (rc)
            return rc;
        root->dtype = d;
        root->weak = false;
        if (!root->constant && r->plan && (root->slot = new_slot(r, d, &root->value)) < 0)
            return root->slot;
    }
    r->result = root->dtype;
    return r->ctx ? usmarr__check_dtype_supported(r->ctx, root->dtype, "the result dtype") : 0;
}

int usmarr__expr_types(const usmarr_expr_t *e, const usmarr_operand_t *operands, usmarr_context_t *ctx,
                       usmarr_dtype_t *result)
{
    struct nstate stack[32], *st = e->nnodes <= 32 ? stack : malloc(sizeof *st * (size_t)e->nnodes);
    if (!st)
        return usmarr__fail(USMARR_ERROR_OUT_OF_HOST_MEMORY, "expression of %d nodes", e->nnodes);
    struct resolution r = {.e = e, .operands = operands, .ctx = ctx, .st = st};
    int rc = resolve(&r);
    if (!rc)
        *result = r.result;
    if (st != stack)
        free(st);
    return rc;
}

/* ---- text --------------------------------------------------------------------------------- */

#define put usmarr__text_put
#define TAG(d) usmarr__dtype_tag(d)

/* A constant of dtype d in its compute type, exactly. */
static void put_constant(struct usmarr__text *t, usmarr_dtype_t d, const usmarr_scalar_t *v, bool vector)
{
    struct usmarr__scalar_arg a;
    if (usmarr__scalar_arg_set(&a, (int)d, v)) { /* checked while resolving */
        t->failed = true;
        return;
    }
    if (vector)
        put(t, "((USMARR_VCOMPUTE(%s))", TAG(d));
    double f[2] = {0, 0};
    bool dbl = d == USMARR_FLOAT64 || d == USMARR_COMPLEX128;
    switch (d) {
    case USMARR_BOOL: put(t, "((uchar)%u)", a.bytes[0]); break;
    case USMARR_INT8: put(t, "((char)%d)", (int)(int8_t)a.bytes[0]); break;
    case USMARR_UINT8: put(t, "((uchar)%u)", a.bytes[0]); break;
    case USMARR_INT16: { int16_t x; memcpy(&x, a.bytes, 2); put(t, "((short)%d)", x); break; }
    case USMARR_UINT16: { uint16_t x; memcpy(&x, a.bytes, 2); put(t, "((ushort)%u)", x); break; }
    case USMARR_INT32: { int32_t x; memcpy(&x, a.bytes, 4); put(t, "((int)%lldL)", (long long)x); break; }
    case USMARR_UINT32: { uint32_t x; memcpy(&x, a.bytes, 4); put(t, "((uint)%uU)", x); break; }
    case USMARR_INT64: {
        int64_t x;
        memcpy(&x, a.bytes, 8);
        if (x == INT64_MIN)
            put(t, "(-9223372036854775807L - 1L)");
        else
            put(t, "(%lldL)", (long long)x);
        break;
    }
    case USMARR_UINT64: { uint64_t x; memcpy(&x, a.bytes, 8); put(t, "(%lluUL)", (unsigned long long)x); break; }
    default: {
        if (d == USMARR_FLOAT64 || d == USMARR_COMPLEX128)
            memcpy(f, a.bytes, d == USMARR_FLOAT64 ? 8 : 16);
        else {
            float g[2] = {0, 0};
            memcpy(g, a.bytes, d == USMARR_COMPLEX64 ? 8 : 4);
            f[0] = g[0], f[1] = g[1];
        }
        bool cplx = d == USMARR_COMPLEX64 || d == USMARR_COMPLEX128;
        if (cplx)
            put(t, "((%s)(", dbl ? "double2" : "float2");
        for (int k = 0; k < (cplx ? 2 : 1); k++) {
            if (k)
                put(t, ", ");
            if (f[k] != f[k])
                put(t, "((%s)NAN)", dbl ? "double" : "float");
            else if (f[k] == 1.0 / 0.0 || f[k] == -1.0 / 0.0)
                put(t, "((%s)%sINFINITY)", dbl ? "double" : "float", f[k] < 0 ? "-" : "");
            else
                put(t, dbl ? "(%a)" : "(%af)", f[k]);
        }
        if (cplx)
            put(t, "))");
        break;
    }
    }
    if (vector)
        put(t, ")");
}

/* The generator's view of one program: the map body or the reduction's loader. */
struct gen {
    const struct resolution *r;
    enum usmarr__xtarget target;
    usmarr_dtype_t out_dtype;
    bool vector;
    struct usmarr__text *t;
};

/* By-value scalar `slot` of dtype d (broadcast to 16 lanes in the vector body). */
static void put_scalar(struct gen *g, int slot, usmarr_dtype_t d)
{
    if (g->vector)
        put(g->t, "((USMARR_VCOMPUTE(%s))(", TAG(d));
    put(g->t, g->target == USMARR__XT_MAP ? "SCALAR(%d)" : "sc%d", slot);
    if (g->vector)
        put(g->t, "))");
}

/* Node i's value converted to `to` (a strong node; f16 targets rounded unless `store`). */
static void put_value(struct gen *g, int i, usmarr_dtype_t to, bool store)
{
    const struct nstate *s = &g->r->st[i];
    bool conv = s->dtype != to, round = conv && to == USMARR_FLOAT16 && !store;
    if (round)
        put(g->t, "usmarr_x%sh(", g->vector ? "v" : "");
    if (conv)
        put(g->t, "USMARR_%sCONVERT(%s, %s, ", g->vector ? "V" : "", TAG(s->dtype), TAG(to));
    if (s->slot >= 0)
        put_scalar(g, s->slot, s->dtype);
    else if (s->constant)
        put_constant(g->t, s->dtype, &s->value, g->vector);
    else
        put(g->t, "t%d", i);
    if (conv)
        put(g->t, ")");
    if (round)
        put(g->t, ")");
}

static void put_load(struct gen *g, int k, usmarr_dtype_t d)
{
    if (g->target == USMARR__XT_MAP)
        put(g->t, g->vector ? "VLOAD(%d)" : "LOAD(%d)", k);
    else if (g->vector) /* 16 consecutive elements along reduced dim 1 (stride 1) */
        put(g->t, "USMARR_VLOADP(%s, in%d + (k0 * st%d.s0 + k1 * st%d.s1 + r0 * st%d.s2 + r1), 0)", TAG(d), k, k, k, k);
    else
        put(g->t, "USMARR_LOADP(%s, in%d, k0 * st%d.s0 + k1 * st%d.s1 + r0 * st%d.s2 + r1 * st%d.s3)", TAG(d), k, k,
            k, k, k);
}

static const char *compute_type(usmarr_dtype_t d, bool vector)
{
    static char buf[USMARR_DTYPE_COUNT][2][40];
    char *b = buf[d][vector];
    if (!b[0])
        snprintf(b, sizeof buf[0][0], vector ? "USMARR_VCOMPUTE(%s)" : "USMARR_COMPUTE(%s)", TAG(d));
    return b;
}

/* The statements computing every strong node, in order. */
static void put_statements(struct gen *g)
{
    const usmarr_expr_t *e = g->r->e;
    const char *sep = g->target == USMARR__XT_MAP ? " \\\n    " : "\n    ";
    for (int i = 0; i < e->nnodes; i++) {
        const struct usmarr__xnode *n = &e->nodes[i];
        const struct nstate *s = &g->r->st[i];
        if (s->weak || s->slot >= 0 || s->constant)
            continue;
        put(g->t, "%s%s t%d = ", sep, compute_type(s->dtype, g->vector), i);
        if (n->kind == USMARR__X_OPERAND) {
            put_load(g, s->input, s->dtype);
        } else if (n->kind == USMARR__X_CAST) {
            put_value(g, n->args[0], s->dtype, false);
        } else {
            const struct usmarr__ew_op *op = usmarr__elementwise_op(s->op);
            bool half = s->dtype == USMARR_FLOAT16;
            if (half)
                put(g->t, "usmarr_x%sh(", g->vector ? "v" : "");
            put(g->t, "usmarr_%s_%s_%s(", g->vector ? "v" : "x", op->id + 6, TAG(s->loop));
            for (int k = 0; k < n->nargs; k++) {
                usmarr_dtype_t use = op->where && k == 0 ? USMARR_BOOL : s->loop;
                if (k)
                    put(g->t, ", ");
                if (!g->r->st[n->args[k]].weak)
                    put_value(g, n->args[k], use, false);
                else if (s->argslot[k] >= 0)
                    put_scalar(g, s->argslot[k], use);
                else
                    put_constant(g->t, use, &s->argv[k], g->vector);
            }
            put(g->t, ")%s", half ? ")" : "");
        }
        put(g->t, ";");
    }
}

/* Whether every node and operand has a 16-vector form (the contiguous fast path). */
static bool vectorizable(const struct resolution *r, usmarr_dtype_t out)
{
    const usmarr_expr_t *e = r->e;
    bool ok = out != USMARR_BOOL && usmarr_dtype_kind(out) != USMARR_KIND_COMPLEX;
    for (int i = 0; ok && i < e->nnodes; i++) {
        const struct nstate *s = &r->st[i];
        if (s->weak)
            continue;
        ok = s->dtype != USMARR_BOOL && usmarr_dtype_kind(s->dtype) != USMARR_KIND_COMPLEX;
        if (ok && e->nodes[i].kind == USMARR__X_CALL && !s->weak) {
            const struct usmarr__ew_op *op = usmarr__elementwise_op(s->op);
            ok = op->vec && !op->where && s->loop != USMARR_BOOL && usmarr_dtype_kind(s->loop) != USMARR_KIND_COMPLEX;
        }
    }
    return ok;
}

/* The per-dtype copies of the table and one function per (function, dtype) used. */
static void put_sections(const struct resolution *r, bool vector, struct usmarr__source_part *parts, int *nparts,
                         struct usmarr__text *texts)
{
    const usmarr_expr_t *e = r->e;
    for (int d = 0; d < USMARR_DTYPE_COUNT; d++) {
        bool used = false;
        for (int i = 0; i < e->nnodes && !used; i++)
            used = e->nodes[i].kind == USMARR__X_CALL && !r->st[i].weak && r->st[i].loop == (usmarr_dtype_t)d;
        if (!used)
            continue;
        struct usmarr__text *t = &texts[*nparts];
        put(t, "#define EW_T %s\n", TAG(d));
        parts[(*nparts)++].text = t->s;
        bool cplx = usmarr_dtype_kind((usmarr_dtype_t)d) == USMARR_KIND_COMPLEX;
        if (cplx)
            parts[(*nparts)++].family = "complex";
        parts[(*nparts)++].family = "elementwise+elementwise_funcs";
        t = &texts[*nparts];
        for (int i = 0; i < e->nnodes; i++) {
            const struct nstate *s = &r->st[i];
            if (e->nodes[i].kind != USMARR__X_CALL || s->weak || s->loop != (usmarr_dtype_t)d)
                continue;
            bool seen = false; /* one function per (function, dtype) */
            for (int j = 0; j < i && !seen; j++)
                seen = e->nodes[j].kind == USMARR__X_CALL && !r->st[j].weak && r->st[j].loop == s->loop &&
                       r->st[j].op == s->op;
            if (seen)
                continue;
            const struct usmarr__ew_op *op = usmarr__elementwise_op(s->op);
            const char *ct = cplx && op->out == USMARR__EW_REAL ? "EW_R_T" : op->out == USMARR__EW_BOOL ? "uchar" : "EW_CT";
            const char *sig = op->where ? "uchar a, EW_CT b, EW_CT c"
                              : op->arity == 3 ? "EW_CT a, EW_CT b, EW_CT c"
                              : op->arity == 2 ? "EW_CT a, EW_CT b"
                                               : "EW_CT a";
            put(t, "static inline %s usmarr_x_%s_%s(%s) { return %s; }\n", ct, op->id + 6, TAG(d), sig, op->expr);
            if (vector)
                put(t, "static inline EW_VCT usmarr_v_%s_%s(EW_VCT a%s%s) { return %s; }\n", op->id + 6, TAG(d),
                    op->arity > 1 ? ", EW_VCT b" : "", op->arity > 2 ? ", EW_VCT c" : "", op->vexpr);
        }
        put(t, "#undef EW_T\n");
        parts[(*nparts)++].text = t->s;
    }
}

/* Rounding to float16 as a stored float16 temporary would be (vstore_half rounds to
 * nearest even, once, from float or double). */
static const char header[] =
    "#define EW_HELPERS_ONLY\n"
    "static inline __attribute__((overloadable)) float usmarr_xh(float v)\n"
    "{ ushort h; vstore_half(v, 0, (__private half *)&h); return vload_half(0, (__private const half *)&h); }\n"
    "static inline __attribute__((overloadable)) float16 usmarr_xvh(float16 v)\n"
    "{ ushort h[16]; vstore_half16(v, 0, (__private half *)h); return vload_half16(0, (__private const half *)h); }\n"
    "#if USMARR_HAS_FP64\n"
    "static inline __attribute__((overloadable)) float usmarr_xh(double v)\n"
    "{ ushort h; vstore_half(v, 0, (__private half *)&h); return vload_half(0, (__private const half *)&h); }\n"
    "static inline __attribute__((overloadable)) float16 usmarr_xvh(double16 v)\n"
    "{ ushort h[16]; vstore_half16(v, 0, (__private half *)h); return vload_half16(0, (__private const half *)h); }\n"
    "#endif\n";

/* The map body (and the vector body where every value has a vector form). */
static void put_map_body(const struct resolution *r, usmarr_dtype_t out, struct usmarr__text *t)
{
    int root = r->e->nnodes - 1;
    for (int v = 0; v < 2; v++) {
        struct gen g = {r, USMARR__XT_MAP, out, v == 1, t};
        if (g.vector && !vectorizable(r, out))
            break;
        put(t, "#define USMARR_MAP_%sBODY {", g.vector ? "V" : "");
        put_statements(&g);
        put(t, " \\\n    %s(0, ", g.vector ? "VSTORE" : "STORE");
        put_value(&g, root, out, true);
        put(t, "); }\n");
    }
}

/* The reduction's element loader: R_ELEM(i, r0, r1) is the value at kept (k0, k1) and
 * reduced (r0, r1), read from each operand with its own strides (cl/reduce.cl). */
static void put_loader(const struct resolution *r, bool vector, struct usmarr__text *t)
{
    struct gen g = {r, USMARR__XT_REDUCE, r->result, false, t};
    struct usmarr__text params = {0}, args = {0};
    for (int k = 1; k <= r->nin; k++) {
        usmarr_dtype_t d = r->operands[r->inputs[k - 1]].array->dtype;
        put(&params, ", global const USMARR_STORAGE(%s) *in%d, long4 st%d", TAG(d), k, k);
        put(&args, ", in%d, st%d", k, k);
    }
    for (int j = 0; j < r->nscalars; j++) {
        put(&params, ", USMARR_COMPUTE(%s) sc%d", TAG((usmarr_dtype_t)r->scalars[j].dtype), j);
        put(&args, ", sc%d", j);
    }
    put(t, "static inline USMARR_COMPUTE(%s) usmarr_x_elem(long k0, long k1, long r0, long r1%s)\n{",
        TAG(r->result), params.s ? params.s : "");
    put_statements(&g);
    put(t, "\n    return ");
    put_value(&g, r->e->nnodes - 1, r->result, true);
    put(t, ";\n}\n#define R_FUSED_PARAMS %s\n#define R_ELEM(i, r0, r1) usmarr_x_elem(k0, k1, r0, r1%s)\n",
        params.s ? params.s : "", args.s ? args.s : "");
    if (vector) { /* 16 values along a contiguous reduced dim 1, for the sum's 16 lanes */
        g.vector = true;
        put(t, "static inline USMARR_VCOMPUTE(%s) usmarr_xv_elem(long k0, long k1, long r0, long r1%s)\n{",
            TAG(r->result), params.s ? params.s : "");
        put_statements(&g);
        put(t, "\n    return ");
        put_value(&g, r->e->nnodes - 1, r->result, true);
        put(t, ";\n}\n#define R_VELEM(r0, r1) usmarr_xv_elem(k0, k1, r0, r1%s)\n#define R_FUSED_UNIT (1", args.s ? args.s : "");
        for (int k = 1; k <= r->nin; k++)
            put(t, " && st%d.s3 == 1", k);
        put(t, ")\n");
    }
    /* the kernels the reduction runs over the loader (a mean's first pass over parts is a sum) */
    const char *name = usmarr__reduce_name(r->e->reduction);
    put(t, "#define R_FUSED 1\n#define R_KEEP_%s 1\n%s", name, !strcmp(name, "mean") ? "#define R_KEEP_sum 1\n" : "");
    t->failed = t->failed || params.failed || args.failed;
    free(params.s);
    free(args.s);
}

/* The spec of these parts: found in the expression's cache, or made and added. */
static int find_spec(usmarr_expr_t *e, struct usmarr__source_part *parts, int nparts, struct usmarr__text *texts,
                     const struct usmarr__xspec **out)
{
    struct usmarr__text key = {0};
    for (int i = 0; i < nparts; i++)
        put(&key, "%s%s\001", parts[i].family ? "@" : "", parts[i].family ? parts[i].family : parts[i].text);
    if (key.failed) {
        free(key.s);
        return usmarr__fail(USMARR_ERROR_OUT_OF_HOST_MEMORY, "expression program text");
    }
    uint64_t h = XXH3_64bits(key.s, key.len);
    int rc = 0;
    mtx_lock(&e->lock);
    struct usmarr__xspec *sp = e->specs;
    while (sp && !(sp->hash == h && !strcmp(sp->key, key.s)))
        sp = sp->next;
    if (!sp) {
        sp = calloc(1, sizeof *sp);
        if (!sp) {
            rc = usmarr__fail(USMARR_ERROR_OUT_OF_HOST_MEMORY, "expression program");
        } else {
            sp->hash = h;
            sp->key = key.s;
            key.s = NULL;
            XXH128_hash_t d = XXH3_128bits(sp->key, strlen(sp->key));
            snprintf(sp->defines, sizeof sp->defines, "-DUSMARR_EXPR=%016llx%016llx", (unsigned long long)d.high64,
                     (unsigned long long)d.low64);
            sp->nparts = nparts;
            for (int i = 0; i < nparts; i++) {
                sp->parts[i] = parts[i];
                if (!parts[i].family) { /* the text moves into the spec */
                    for (int k = 0; k < MAX_PARTS; k++)
                        if (texts[k].s == parts[i].text) {
                            sp->texts[i] = texts[k].s;
                            texts[k].s = NULL;
                        }
                    if (!sp->texts[i]) /* the shared header */
                        sp->parts[i].text = parts[i].text;
                    else
                        sp->parts[i].text = sp->texts[i];
                }
            }
            sp->next = e->specs;
            e->specs = sp;
        }
    }
    mtx_unlock(&e->lock);
    free(key.s);
    *out = sp;
    return rc;
}

static void sig_make(const struct resolution *r, enum usmarr__xtarget target, usmarr_dtype_t out_dtype, int *key)
{
    key[0] = (int)target;
    key[1] = (int)out_dtype;
    for (int i = 0; i < r->e->nnodes; i++) {
        const struct nstate *s = &r->st[i];
        int *k = key + 2 + SIG_PER_NODE * i;
        k[0] = s->weak | s->constant << 1;
        k[1] = (int)s->dtype;
        k[2] = s->slot;
        k[3] = s->input;
        k[4] = s->op;
        k[5] = (int)s->loop;
        k[6] = s->argslot[0];
        k[7] = s->argslot[1];
        k[8] = s->argslot[2];
        k[9] = r->nin;
        k[10] = r->nscalars;
    }
}

static const struct usmarr__xspec *sig_find(usmarr_expr_t *e, const int *key, size_t n, uint64_t hash)
{
    const struct usmarr__xspec *sp = NULL;
    mtx_lock(&e->lock);
    for (struct usmarr__xsig *sg = e->sigs; sg && !sp; sg = sg->next)
        if (sg->hash == hash && sg->n == n && !memcmp(sg->key, key, n * sizeof *key))
            sp = sg->spec;
    mtx_unlock(&e->lock);
    return sp;
}

static void sig_add(usmarr_expr_t *e, const int *key, size_t n, uint64_t hash, const struct usmarr__xspec *sp)
{
    struct usmarr__xsig *sg = malloc(sizeof *sg + n * sizeof *key);
    if (!sg) /* only a cache: the next call generates the text again */
        return;
    sg->hash = hash;
    sg->n = n;
    sg->spec = sp;
    memcpy(sg->key, key, n * sizeof *key);
    mtx_lock(&e->lock);
    sg->next = e->sigs;
    e->sigs = sg;
    mtx_unlock(&e->lock);
}

int usmarr__expr_plan(usmarr_expr_t *e, const usmarr_operand_t *operands, usmarr_context_t *ctx,
                      enum usmarr__xtarget target, usmarr_dtype_t out_dtype, struct usmarr__xplan *plan)
{
    struct nstate stack[32], *st = e->nnodes <= 32 ? stack : malloc(sizeof *st * (size_t)e->nnodes);
    if (!st)
        return usmarr__fail(USMARR_ERROR_OUT_OF_HOST_MEMORY, "expression of %d nodes", e->nnodes);
    struct resolution r = {.e = e, .operands = operands, .ctx = ctx, .plan = true, .st = st};
    int rc = resolve(&r);
    if (!rc && (int)out_dtype < 0)
        out_dtype = r.result;
    struct usmarr__source_part parts[MAX_PARTS];
    struct usmarr__text texts[MAX_PARTS];
    memset(parts, 0, sizeof parts);
    memset(texts, 0, sizeof texts);
    int nparts = 0;
    size_t nkey = 2 + SIG_PER_NODE * (size_t)e->nnodes;
    int key_stack[2 + SIG_PER_NODE * 32], *key = nkey <= 2 + SIG_PER_NODE * 32 ? key_stack : malloc(nkey * sizeof *key);
    uint64_t hash = 0;
    const struct usmarr__xspec *sp = NULL;
    if (!rc && !key)
        rc = usmarr__fail(USMARR_ERROR_OUT_OF_HOST_MEMORY, "expression signature");
    if (!rc) {
        sig_make(&r, target, out_dtype, key);
        hash = XXH3_64bits(key, nkey * sizeof *key);
        sp = sig_find(e, key, nkey, hash);
    }
    if (!rc && !sp) {
        parts[nparts++].text = header;
        parts[nparts++].family = "vmath"; /* once: the float bodies of every dtype's copy */
        bool vector = vectorizable(&r, target == USMARR__XT_MAP ? out_dtype : r.result);
        put_sections(&r, vector, parts, &nparts, texts);
        struct usmarr__text *body = &texts[nparts];
        if (target == USMARR__XT_MAP)
            put_map_body(&r, out_dtype, body);
        else
            put_loader(&r, vector, body);
        parts[nparts++].text = body->s;
        if (target == USMARR__XT_REDUCE)
            parts[nparts++].family = USMARR__REDUCE_SOURCES;
        bool failed = false;
        for (int i = 0; i < nparts; i++)
            failed = failed || texts[i].failed || (!parts[i].family && !parts[i].text);
        rc = failed ? usmarr__fail(USMARR_ERROR_OUT_OF_HOST_MEMORY, "expression program text")
                    : find_spec(e, parts, nparts, texts, &sp);
        if (!rc)
            sig_add(e, key, nkey, hash, sp);
    }
    if (!rc) {
        plan->result = r.result;
        plan->nin = r.nin;
        memcpy(plan->inputs, r.inputs, sizeof plan->inputs);
        plan->nscalars = r.nscalars;
        memcpy(plan->scalars, r.scalars, sizeof plan->scalars);
        plan->parts = sp->parts;
        plan->nparts = sp->nparts;
        plan->defines = sp->defines;
    }
    if (key != key_stack)
        free(key);
    for (int i = 0; i < MAX_PARTS; i++)
        free(texts[i].s);
    if (st != stack)
        free(st);
    return rc;
}
