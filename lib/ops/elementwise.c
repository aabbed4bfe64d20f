/* Elementwise functions: one table (cl/elementwise.cl) and one dispatcher; the named
 * wrappers are in elementwise_named.c.
 *
 * A call validates its operands, promotes their dtypes (promote.c) and picks the dtype
 * the function is computed in (its "loop"), broadcasts, checks `out`, casts array inputs
 * of another dtype to the loop dtype (so kernels only ever see one input dtype: few
 * programs), and launches one map (engine_internal.h) whose body is the table's expression. */
#include "ops_internal.h"

#include <stdlib.h>
#include <string.h>

#define USMARR_ELEMENTWISE_TABLE_ONLY
#include "../../cl/elementwise.cl"

/* ---- the table, read on the host --------------------------------------------------------- */

#define BIT(d) (1u << (d))
#define LOOPS_FLT (BIT(USMARR_FLOAT16) | BIT(USMARR_FLOAT32) | BIT(USMARR_FLOAT64))
#define LOOPS_CPLX (BIT(USMARR_COMPLEX64) | BIT(USMARR_COMPLEX128))
#define LOOPS_INT                                                                                            \
    (BIT(USMARR_INT8) | BIT(USMARR_INT16) | BIT(USMARR_INT32) | BIT(USMARR_INT64) | BIT(USMARR_UINT8) |      \
     BIT(USMARR_UINT16) | BIT(USMARR_UINT32) | BIT(USMARR_UINT64))
#define LOOPS_BINT (LOOPS_INT | BIT(USMARR_BOOL))
#define LOOPS_REAL (LOOPS_INT | LOOPS_FLT)
#define LOOPS_RB (LOOPS_REAL | BIT(USMARR_BOOL))
#define LOOPS_INEX (LOOPS_FLT | LOOPS_CPLX)
#define LOOPS_NUM (LOOPS_REAL | LOOPS_CPLX)
#define LOOPS_ALL (LOOPS_NUM | BIT(USMARR_BOOL))

#define OUT_SAME USMARR__EW_SAME
#define OUT_BOOL USMARR__EW_BOOL
#define OUT_REAL USMARR__EW_REAL
static const char *const out_rule_name[] = {"SAME", "BOOL", "REAL"};
#define F_NONE 0u
#define F_NOBOOL 1u
#define F_DIVIDE 2u
#define F_CLOSE 4u
#define ARITY_1 1
#define ARITY_2 2
#define ARITY_3 3
#define ARITY_W 3
#define ARITY_C 2
#define WHERE_1 false
#define WHERE_2 false
#define WHERE_3 false
#define WHERE_W true
#define WHERE_C false
#define VEC_V true
#define VEC_N false

#define op_info usmarr__ew_op

/* The parameters of the functions that have some (isclose), NumPy's defaults when the
 * generic entry point gives none. */
struct params {
    double rtol, atol;
    bool equal_nan;
};
static const struct params close_defaults = {1e-5, 1e-8, false};
#define DEFINES_SIZE 384 /* a program's defines */

enum op_index {
#define ENUM_(ID, name, arity, loops, out, flags, vec, expr, vexpr) OP_##ID,
    USMARR_ELEMENTWISE_OPS(ENUM_)
#undef ENUM_
    OP_COUNT
};

static const struct op_info ops[OP_COUNT] = {
#define PARAMS_1 false
#define PARAMS_2 false
#define PARAMS_3 false
#define PARAMS_W false
#define PARAMS_C true
#define ROW_(ID, name, arity, loops, out, flags, vec, expr, vexpr)                                          \
    {#name,    "EW_ID_" #ID,  ARITY_##arity, WHERE_##arity, LOOPS_##loops, OUT_##out, flags, VEC_##vec,          \
     PARAMS_##arity, #expr, #vexpr},
    USMARR_ELEMENTWISE_OPS(ROW_)
#undef ROW_
};

/* Loop candidates in NumPy's promotion order. */
static const usmarr_dtype_t loop_order[USMARR_DTYPE_COUNT] = {
    USMARR_BOOL,    USMARR_INT8,    USMARR_UINT8,   USMARR_INT16,     USMARR_UINT16,
    USMARR_INT32,   USMARR_UINT32,  USMARR_INT64,   USMARR_UINT64,    USMARR_FLOAT16,
    USMARR_FLOAT32, USMARR_FLOAT64, USMARR_COMPLEX64, USMARR_COMPLEX128,
};

static usmarr_dtype_t real_of(usmarr_dtype_t d)
{
    return d == USMARR_COMPLEX64 ? USMARR_FLOAT32 : d == USMARR_COMPLEX128 ? USMARR_FLOAT64 : d;
}

/* Picks the loop dtype and the result dtype of `op`, as NumPy's type resolution does: the
 * first loop dtype every strong input dtype casts to safely (so copysign(int8, uint8) runs
 * in float16, although int8 and uint8 promote to int16).  `p` is the promoted dtype of all
 * operands (weak scalars included), which decides the bool and true-division rules. */
static int resolve(const struct op_info *op, const usmarr_dtype_t *strong, size_t nstrong, usmarr_dtype_t p,
                   usmarr_dtype_t *loop, usmarr_dtype_t *res)
{
    usmarr_kind_t k = usmarr_dtype_kind(p);
    if ((op->flags & F_NOBOOL) && k == USMARR_KIND_BOOL)
        return usmarr__fail(USMARR_ERROR_BAD_DTYPE, "%s is not defined for bool inputs (NumPy refuses it too)",
                            op->name);
    usmarr_dtype_t floor = USMARR_BOOL; /* a dtype the loop must also accept */
    if ((op->flags & F_DIVIDE) && (k == USMARR_KIND_BOOL || k == USMARR_KIND_INT || k == USMARR_KIND_UINT))
        floor = USMARR_FLOAT64;
    for (int i = 0; i < USMARR_DTYPE_COUNT; i++) {
        usmarr_dtype_t t = loop_order[i];
        if (!(op->loops & BIT(t)) || !usmarr_can_cast(floor, t, USMARR_CASTING_SAFE))
            continue;
        bool all = true;
        for (size_t j = 0; j < nstrong && all; j++)
            all = usmarr_can_cast(strong[j], t, USMARR_CASTING_SAFE);
        if (all) {
            *loop = t;
            *res = op->out == OUT_BOOL ? USMARR_BOOL : op->out == OUT_REAL ? real_of(t) : t;
            return 0;
        }
    }
    return usmarr__fail(USMARR_ERROR_BAD_DTYPE, "%s is not defined for %s inputs", op->name, usmarr_dtype_name(p));
}

/* The category of a kind for weak scalars: bool < integers < float < complex. */
static int category(usmarr_kind_t k)
{
    return k == USMARR_KIND_BOOL ? 0 : k == USMARR_KIND_INT || k == USMARR_KIND_UINT ? 1 : k == USMARR_KIND_FLOAT ? 2 : 3;
}

/* ---- helpers ------------------------------------------------------------------------------- */

/* The USM kind of a new array made after `like`. */
static usmarr_usm_kind_t usm_kind_of(const usmarr_array_t *like)
{
    return like->memory->kind != USMARR_USM_UNKNOWN ? like->memory->kind : USMARR_USM_DEVICE;
}

/* dst[...] = src converted: the engine's copy (one cast program per dtype pair). */
static int cast_into(usmarr_array_t *dst, const usmarr_array_t *src) { return usmarr_array_copy_into(dst, src); }

static const char *const operand_names[] = {"operands[0]", "operands[1]", "operands[2]"};

/* Use one program per (arity, result rule, dtypes) with a run-time switch over the
 * functions, unless USMARR_ELEMENTWISE_SPECIALIZE=1 asks for one program per function
 * (read at every call: cheap, and tests switch it; 0 insists on the switch).  Intel's CPU
 * runtime does not vectorise a switch program's one-element bodies across work-items (about
 * 7 ns an element: square of 256k float64 takes 1.05 ms through the switch, 0.057 ms through
 * its own program), and PoCL's switch programs run large calls 1.6 to 3 times slower
 * than a function's own (16M float32: negative 12.5 against 5.2 ms, sqrt 12.4 against
 * 4.0, exp 17.5 against 11.0); so on both CPU runtimes calls of 4096 elements or more get
 * one program per function; smaller ones keep the shared programs, whose one compile
 * serves every function. */
static bool specialize(const usmarr_context_t *ctx, int ndim, const int64_t *shape)
{
    const char *e = getenv("USMARR_ELEMENTWISE_SPECIALIZE");
    if (e && *e)
        return *e == '1';
    if (!ctx->shape.name || (strcmp(ctx->shape.name, "intel-cpu") != 0 && strcmp(ctx->shape.name, "pocl-cpu") != 0))
        return false;
    int64_t n = 1;
    for (int k = 0; k < ndim; k++)
        n *= shape[k];
    return n >= 4096;
}

/* ---- the dispatcher ------------------------------------------------------------------------ */

/* The loop and result dtypes of `op` over `operands` (scalars already checked): promotion,
 * then resolve().  Shared by the dispatcher and usmarr__elementwise_result_dtype(). */
static int resolve_promoted(const struct op_info *op, const usmarr_operand_t *operands, usmarr_dtype_t *loop,
                            usmarr_dtype_t *res);

/* With arrays alone the loop and result dtypes follow from the function and the operands'
 * dtypes: memoised per thread, since the promotion tables cost about 2,000 instructions, a
 * visible share of a tiny call. */
static int resolve_operands(const struct op_info *op, const usmarr_operand_t *operands, usmarr_dtype_t *loop,
                            usmarr_dtype_t *res)
{
    int n = op->arity;
    bool arrays = !op->where && !(op->flags & F_CLOSE);
    uint32_t key = (uint32_t)(op - ops) << 16;
    for (int i = 0; arrays && i < n; i++) {
        arrays = operands[i].array != NULL;
        key |= arrays ? (uint32_t)(operands[i].array->dtype + 1) << (5 * i) : 0;
    }
    static _Thread_local struct {
        uint32_t key;
        usmarr_dtype_t loop, res;
    } memo[16];
    unsigned slot = (key ^ key >> 7 ^ key >> 16) & 15;
    if (arrays && memo[slot].key == key + 1) {
        *loop = memo[slot].loop;
        *res = memo[slot].res;
        return 0;
    }
    int rc = resolve_promoted(op, operands, loop, res);
    if (!rc && arrays) {
        memo[slot].key = key + 1;
        memo[slot].loop = *loop;
        memo[slot].res = *res;
    }
    return rc;
}

static int resolve_promoted(const struct op_info *op, const usmarr_operand_t *operands, usmarr_dtype_t *loop,
                            usmarr_dtype_t *res)
{
    int n = op->arity;
    /* promotion (where(): the condition stays out of it) */
    usmarr_dtype_t dts[8] = {USMARR_BOOL};
    const usmarr_scalar_t *scs[3] = {NULL};
    size_t nd = 0, ns = 0;
    usmarr_scalar_t inexact = usmarr_scalar_float(0);
    for (int i = op->where ? 1 : 0; i < n; i++) {
        const usmarr_scalar_t *s = operands[i].array ? NULL : &operands[i].scalar;
        usmarr_dtype_t d = s ? (usmarr_dtype_t)s->dtype : operands[i].array->dtype;
        usmarr_kind_t k = s && s->dtype < 0 ? s->kind : usmarr_dtype_kind(d);
        if ((op->flags & F_CLOSE) && i == 1 && k != USMARR_KIND_FLOAT && k != USMARR_KIND_COMPLEX) {
            if (s && s->dtype < 0) /* a weak bool or integer: a weak float */
                s = &inexact;
            else {
                s = NULL;
                d = USMARR_FLOAT64;
            }
        }
        if (s)
            scs[ns++] = s;
        else
            dts[nd++] = d;
    }
    usmarr_dtype_t promoted; /* weak integers are checked against the loop dtype, at launch */
    int rc = usmarr__result_type(dts, nd, scs, ns, false, &promoted);
    if (rc)
        return rc;
    /* typed scalars count as strong; a weak scalar of a higher kind than every strong
     * operand brings the promoted dtype in (int8 + 1.5 runs in float64) */
    int top = -1;
    for (size_t j = 0; j < nd; j++)
        top = category(usmarr_dtype_kind(dts[j])) > top ? category(usmarr_dtype_kind(dts[j])) : top;
    for (size_t j = 0; j < ns; j++)
        if (scs[j]->dtype >= 0) {
            usmarr_dtype_t d = (usmarr_dtype_t)scs[j]->dtype;
            top = category(usmarr_dtype_kind(d)) > top ? category(usmarr_dtype_kind(d)) : top;
            dts[nd++] = d;
        }
    for (size_t j = 0; j < ns; j++)
        if (scs[j]->dtype < 0 && category(scs[j]->kind) > top) {
            dts[nd++] = promoted;
            break;
        }
    return resolve(op, dts, nd, promoted, loop, res);
}

/* Where a weak integer scalar lies against the range of an integer dtype: -1 below, 1
 * above, 0 inside (or not a weak integer, or not an integer dtype). */
static int weak_int_side(const usmarr_scalar_t *s, usmarr_dtype_t d)
{
    usmarr_kind_t k = usmarr_dtype_kind(d);
    if (s->dtype >= 0 || (s->kind != USMARR_KIND_INT && s->kind != USMARR_KIND_UINT) ||
        (k != USMARR_KIND_INT && k != USMARR_KIND_UINT))
        return 0;
    int bits = (int)usmarr_dtype_size(d) * 8;
    if (s->kind == USMARR_KIND_UINT) {
        uint64_t v = s->value.u;
        return k == USMARR_KIND_INT ? v >= (UINT64_C(1) << (bits - 1)) : bits < 64 && v >= (UINT64_C(1) << bits);
    }
    int64_t v = s->value.i;
    if (k == USMARR_KIND_UINT)
        return v < 0 ? -1 : bits < 64 && v >= (INT64_C(1) << bits);
    if (bits == 64)
        return 0;
    return v < -(INT64_C(1) << (bits - 1)) ? -1 : v >= (INT64_C(1) << (bits - 1));
}

/* NumPy 2: a weak integer scalar out of range of the integer dtype of a comparison or
 * logical function is no error.  A comparison has the same result for every element (the
 * scalar is beyond them all): the call becomes one with the scalar clamped to the dtype's
 * range and a comparison that gives that constant; a logical function sees the scalar's
 * truth, true, so the scalar becomes 1.  Returns the rewritten function, or -1. */
static int weak_out_of_range(int opi, usmarr_dtype_t loop, usmarr_operand_t *ops2)
{
    bool logical = opi == OP_LOGICAL_AND || opi == OP_LOGICAL_OR || opi == OP_LOGICAL_XOR;
    bool compare = opi == OP_LESS || opi == OP_LESS_EQUAL || opi == OP_GREATER || opi == OP_GREATER_EQUAL ||
                   opi == OP_EQUAL || opi == OP_NOT_EQUAL;
    if (!logical && !compare)
        return -1;
    /* beside bool arrays only, NumPy compares in int64 and raises for what int64 cannot hold */
    if (compare && !(ops2[0].array && usmarr_dtype_kind(ops2[0].array->dtype) != USMARR_KIND_BOOL) &&
        !(ops2[1].array && usmarr_dtype_kind(ops2[1].array->dtype) != USMARR_KIND_BOOL))
        return -1;
    for (int i = 0; i < 2; i++) {
        usmarr_scalar_t *s = &ops2[i].scalar;
        int side = ops2[i].array ? 0 : weak_int_side(s, loop);
        if (!side)
            continue;
        if (logical) {
            *s = usmarr_scalar_int(1);
            return opi;
        }
        int bits = (int)usmarr_dtype_size(loop) * 8;
        if (usmarr_dtype_kind(loop) == USMARR_KIND_UINT)
            *s = side < 0 ? usmarr_scalar_int(0)
                          : usmarr_scalar_uint(bits == 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1);
        else { /* the loop type's limits (INT64_C(1) << 63 would overflow) */
            int64_t hi = bits == 64 ? INT64_MAX : (INT64_C(1) << (bits - 1)) - 1;
            *s = usmarr_scalar_int(side < 0 ? -hi - 1 : hi);
        }
        /* the sign of (first - second), and the comparison's constant value */
        int sgn = i == 1 ? -side : side;
        bool c = opi == OP_NOT_EQUAL || ((opi == OP_LESS || opi == OP_LESS_EQUAL) && sgn < 0) ||
                 ((opi == OP_GREATER || opi == OP_GREATER_EQUAL) && sgn > 0);
        /* with the clamped scalar, first <= second (sgn < 0) or first >= second holds everywhere */
        if (sgn < 0)
            return c ? OP_LESS_EQUAL : OP_GREATER;
        return c ? OP_GREATER_EQUAL : OP_LESS;
    }
    return -1;
}

/* NumPy 2's clip: a weak integer lower bound below an integer dtype's range, or upper
 * bound above it, bounds nothing and becomes the range's end (a bound beyond the other
 * end stays an error).  Fills `clamped` and returns true when a bound changed. */
static bool clip_bounds(usmarr_dtype_t loop, const usmarr_operand_t *operands, usmarr_operand_t *clamped)
{
    bool changed = false;
    int bits = (int)usmarr_dtype_size(loop) * 8;
    bool unsigned_loop = usmarr_dtype_kind(loop) == USMARR_KIND_UINT;
    for (int i = 0; i < 3; i++) {
        clamped[i] = operands[i];
        int side = i && !operands[i].array ? weak_int_side(&operands[i].scalar, loop) : 0;
        if ((i == 1 && side < 0) || (i == 2 && side > 0)) {
            if (side < 0)
                clamped[i].scalar = unsigned_loop ? usmarr_scalar_int(0) : usmarr_scalar_int(-(INT64_C(1) << (bits - 1)));
            else
                clamped[i].scalar = unsigned_loop ? usmarr_scalar_uint(bits == 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1)
                                                  : usmarr_scalar_int((INT64_C(1) << (bits - 1)) - 1);
            changed = true;
        }
    }
    return changed;
}

/* NumPy 2 refuses a negative exponent of a signed integer power (ValueError) where an
 * element is computed: a negative scalar, or the least element of an exponent array (one
 * reduction).  Calls that compute nothing (an empty result) skip the check. */
int usmarr__elementwise_check_exponent(int planned_op, usmarr_dtype_t loop, const usmarr_operand_t *exponent)
{
    if (planned_op != OP_POW || usmarr_dtype_kind(loop) != USMARR_KIND_INT)
        return 0;
    bool negative = false;
    const usmarr_array_t *b = exponent->array;
    if (!b) {
        negative = exponent->scalar.kind == USMARR_KIND_INT && exponent->scalar.value.i < 0;
    } else if (usmarr_dtype_kind(b->dtype) == USMARR_KIND_INT && usmarr_array_size(b) > 0) {
        usmarr_array_t *least = NULL, *wide = NULL;
        int64_t value = 0;
        int rc = usmarr_min(b, 0, NULL, false, NULL, &least);
        if (!rc)
            rc = usmarr_array_astype(least, USMARR_INT64, USMARR_ORDER_C, NULL, &wide);
        if (!rc)
            rc = usmarr_array_copy_to_host(wide, &value, NULL);
        usmarr_array_release(wide);
        usmarr_array_release(least);
        if (rc)
            return rc;
        negative = value < 0;
    }
    if (negative)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT,
                            "pow: integers to negative integer powers are not allowed (operands[1] has a negative "
                            "value; NumPy raises ValueError too: use a float base)");
    return 0;
}

int usmarr__elementwise_plan(int opi, const usmarr_operand_t *operands, int *planned_op,
                             usmarr_operand_t *planned, usmarr_dtype_t *loop, usmarr_dtype_t *res)
{
    const struct op_info *op = &ops[opi];
    int n = op->arity;
    for (int i = 0; i < n; i++)
        planned[i] = operands[i];
    *planned_op = opi;
    if (opi == OP_LOGICAL_AND || opi == OP_LOGICAL_OR || opi == OP_LOGICAL_XOR)
        for (int i = 0; i < n; i++) /* NumPy 2 reads a Python int here as a C long */
            if (!operands[i].array && operands[i].scalar.dtype < 0 && operands[i].scalar.kind == USMARR_KIND_UINT &&
                operands[i].scalar.value.u > INT64_MAX)
                return usmarr__fail(USMARR_ERROR_OVERFLOW, "%s: %s=%llu is out of range of int64", op->name,
                                    operand_names[i], (unsigned long long)operands[i].scalar.value.u);
    /* a weak integer is checked where the loop dtype receives it, so that functions
     * computed in floating point take any (logaddexp(2**31 - 1, uint8) runs in float16) */
    int rc = resolve_operands(op, operands, loop, res);
    if (rc)
        return rc;
    if (n == 2) {
        usmarr_operand_t ops2[2] = {operands[0], operands[1]};
        int opj = weak_out_of_range(opi, *loop, ops2);
        if (opj >= 0)
            return usmarr__elementwise_plan(opj, ops2, planned_op, planned, loop, res);
    }
    usmarr_operand_t clamped[3];
    if (opi == OP_CLIP && clip_bounds(*loop, operands, clamped))
        return usmarr__elementwise_plan(opi, clamped, planned_op, planned, loop, res);
    for (int i = op->where ? 1 : 0; i < n; i++)
        if (!operands[i].array && (rc = usmarr__weak_fits(&operands[i].scalar, *loop, operand_names[i])))
            return rc;
    return 0;
}

/* One call, from its operands to its launch: resolved (context, planned function and
 * operands, dtypes), shaped (the broadcast shape), then bound to a map and launched. */
struct call {
    int opi;
    const struct op_info *op;
    int n; /* the planned function's arity */
    usmarr_context_t *ctx;
    const usmarr_array_t *first; /* the first array operand: the result's layout */
    usmarr_operand_t operands[3];
    usmarr_dtype_t loop, res;
    int ndim;
    int64_t shape[USMARR_MAX_NDIM];
    int64_t count;
};

/* The arguments' checks, the context, and the function and dtypes that compute the call. */
static int call_resolve(struct call *c, int opi, const usmarr_operand_t *operands, size_t noperands,
                        const usmarr_array_t *out, usmarr_array_t **result)
{
    const struct op_info *op = &ops[opi];
    int n = op->arity;
    if (!operands)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s: operands is NULL", op->name);
    if (noperands != (size_t)n)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s takes %d operands, noperands=%zu", op->name, n,
                            noperands);
    if (!out && !result)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s: result is NULL and there is no out", op->name);
    c->ctx = out ? out->memory->context : NULL;
    c->first = NULL;
    for (int i = 0; i < n; i++) {
        const usmarr_array_t *a = operands[i].array;
        if (a) {
            if (!c->first)
                c->first = a;
            if (!c->ctx)
                c->ctx = a->memory->context;
            else if (a->memory->context != c->ctx)
                return usmarr__fail(USMARR_ERROR_CONTEXT_MISMATCH, "%s: %s belongs to another context than %s",
                                    op->name, operand_names[i], out ? "out" : "the first array operand");
        } else {
            int rc = usmarr__scalar_check(&operands[i].scalar, operand_names[i]);
            if (rc)
                return rc;
        }
    }
    if (!c->ctx)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s: no operand is an array and there is no out",
                            op->name);
    c->loop = c->res = USMARR_BOOL;
    int rc = usmarr__elementwise_plan(opi, operands, &c->opi, c->operands, &c->loop, &c->res);
    if (rc)
        return rc;
    c->op = &ops[c->opi];
    c->n = c->op->arity;
    if ((rc = usmarr__check_dtype_supported(c->ctx, c->loop, "the computation dtype")))
        return rc;
    return usmarr__check_dtype_supported(c->ctx, c->res, "the result dtype");
}

/* The broadcast shape of the inputs, or out's where they broadcast to it. */
static int call_shape(struct call *c, const usmarr_array_t *out)
{
    const struct op_info *op = c->op;
    int ndim = 0;
    int64_t *shape = c->shape;
    for (int i = 0; i < c->n; i++) {
        const usmarr_array_t *a = c->operands[i].array;
        if (!a)
            continue;
        if (a->ndim > ndim) {
            memmove(shape + (a->ndim - ndim), shape, sizeof(int64_t) * (size_t)ndim);
            for (int d = 0; d < a->ndim - ndim; d++)
                shape[d] = 1;
            ndim = a->ndim;
        }
        for (int d = 0; d < a->ndim; d++) {
            int64_t *s = &shape[ndim - a->ndim + d], m = a->shape[d];
            if (*s == 1)
                *s = m;
            else if (m != 1 && m != *s)
                return usmarr__fail(USMARR_ERROR_SHAPE_MISMATCH,
                                    "%s: %s has shape[%d]=%lld where the other operands have %lld", op->name,
                                    operand_names[i], d, (long long)m, (long long)*s);
        }
    }
    int rc;
    if (out) {
        if ((rc = usmarr__check_writable(out, "out")))
            return rc;
        bool fits = out->ndim >= ndim;
        for (int d = 0; fits && d < ndim; d++) {
            int64_t o = out->shape[out->ndim - ndim + d];
            fits = shape[d] == o || shape[d] == 1;
        }
        if (!fits) {
            char buf[64] = "";
            int len = 0;
            for (int d = 0; d < ndim && len < (int)sizeof buf - 24; d++)
                len += snprintf(buf + len, sizeof buf - (size_t)len, d ? ",%lld" : "%lld", (long long)shape[d]);
            return usmarr__fail(USMARR_ERROR_SHAPE_MISMATCH, "%s: out of %d dims does not have the result shape (%s)",
                                op->name, out->ndim, buf);
        }
        ndim = out->ndim;
        memcpy(shape, out->shape, sizeof(int64_t) * (size_t)ndim);
        if (!usmarr_can_cast(c->res, out->dtype, USMARR_CASTING_SAME_KIND))
            return usmarr__fail(USMARR_ERROR_CASTING, "%s: the %s result cannot be cast to out's %s (same_kind)",
                                op->name, usmarr_dtype_name(c->res), usmarr_dtype_name(out->dtype));
    }
    c->ndim = ndim;
    c->count = 1;
    for (int d = 0; d < ndim; d++)
        c->count *= shape[d];
    if (c->count > 0 && (rc = usmarr__elementwise_check_exponent(c->opi, c->loop, &c->operands[1])))
        return rc;
    return 0;
}

/* isclose's rtol and atol, scalars 0 and 1 of the map: NumPy computes atol + rtol*|b| in b's
 * own (inexact) dtype, with rtol and atol converted to it, the tolerance dtype, rounded to
 * in the kernel and here.  Returns its width in bits through *bits. */
static int call_tolerances(const struct call *c, const struct params *params, struct usmarr__map *m, int *bits)
{
    const struct params *p = params ? params : &close_defaults;
    const usmarr_operand_t *b = &c->operands[1];
    usmarr_dtype_t bd = b->array ? b->array->dtype : b->scalar.dtype >= 0 ? (usmarr_dtype_t)b->scalar.dtype : c->loop;
    usmarr_kind_t bk = usmarr_dtype_kind(bd);
    bd = bk == USMARR_KIND_FLOAT || bk == USMARR_KIND_COMPLEX ? real_of(bd) : USMARR_FLOAT64;
    if (usmarr_dtype_size(bd) > usmarr_dtype_size(real_of(c->loop)))
        bd = real_of(c->loop);
    *bits = (int)usmarr_dtype_size(bd) * 8;
    double tol[2] = {p->rtol, p->atol};
    for (int i = 0; i < 2; i++)
        tol[i] = *bits == 16 ? usmarr__half_to_double(usmarr__half_from_double(tol[i]))
                 : *bits == 32 ? (double)(float)tol[i] : tol[i];
    usmarr_scalar_t rtol = usmarr_scalar_float(tol[0]), atol = usmarr_scalar_float(tol[1]);
    int rc;
    if ((rc = usmarr__scalar_arg_set(&m->scalars[0], real_of(c->loop), &rtol)) ||
        (rc = usmarr__scalar_arg_set(&m->scalars[1], real_of(c->loop), &atol)))
        return rc;
    m->nscalars = 2;
    return 0;
}

/* The inputs: cast to the loop dtype where needed (into temps), scalars as kernel arguments;
 * srcs[i] names where input i comes from (a<k>: array operand k, s<j>: scalar j), and
 * *vec whether every operand has a 16-vector form. */
static int call_inputs(const struct call *c, struct usmarr__map *m, usmarr_array_t **temps, char (*srcs)[8],
                       bool *vec)
{
    int rc;
    /* bool has 16-lane loads and stores (cl/prelude.cl), not arithmetic: a bool result or
     * condition keeps the vector form, and so does a bool loop dtype where every function
     * of the program only compares or selects (a bool result, or where) */
    bool compares = c->op->out == OUT_BOOL || c->op->where;
    *vec = (usmarr__dtype_vector_ok(c->loop) || (c->loop == USMARR_BOOL && compares)) &&
           (usmarr__dtype_vector_ok(c->res) || c->res == USMARR_BOOL);
    /* a complex loop's unary functions of an array, and its binary ones of two arrays,
     * split 16 elements into two vectors of parts (cl/elementwise_map.cl) */
    if (usmarr_dtype_kind(c->loop) == USMARR_KIND_COMPLEX)
        *vec = c->n <= 2 && !c->op->where && !c->op->params && c->operands[0].array &&
               (c->n == 1 || c->operands[1].array);
    for (int i = 0; i < c->n; i++) {
        const usmarr_array_t *a = c->operands[i].array;
        bool cond = c->op->where && i == 0;
        if (!a) {
            usmarr_dtype_t sd = cond ? USMARR_BOOL : c->loop;
            if ((rc = usmarr__scalar_arg_set(&m->scalars[m->nscalars], sd, &c->operands[i].scalar)))
                return rc;
            srcs[i][0] = 's', srcs[i][1] = (char)('0' + (m->nscalars++ & 7)), srcs[i][2] = 0;
            continue;
        }
        if (!cond && a->dtype != c->loop) {
            if ((rc = usmarr__array_empty_like_layout(c->ctx, c->loop, a->ndim, a->shape, USMARR_ORDER_C,
                                                      usm_kind_of(a), &temps[i])) ||
                (rc = cast_into(temps[i], a)))
                return rc;
            a = temps[i];
        }
        if (cond) /* the condition is read in its own dtype */
            *vec = *vec && (usmarr__dtype_vector_ok(a->dtype) || a->dtype == USMARR_BOOL);
        m->nin++;
        if ((rc = usmarr__operand_from_array(a, c->ndim, c->shape, &m->operands[m->nin])))
            return rc;
        srcs[i][0] = 'a', srcs[i][1] = (char)('0' + (m->nin & 7)), srcs[i][2] = 0;
    }
    return 0;
}

/* The array the kernel writes: out itself, unless it needs a cast or overlaps an input
 * other than exactly (a cast copy was taken before the kernel runs: no hazard). */
static int call_target(const struct call *c, usmarr_array_t *out, usmarr_array_t *const *temps,
                       usmarr_array_t **target)
{
    bool direct = out && out->dtype == c->res;
    for (int i = 0; direct && i < c->n; i++) {
        const usmarr_array_t *a = c->operands[i].array;
        if (a && !temps[i] && usmarr__ranges_meet(a, out) && !usmarr__exact_alias(a, out))
            direct = false;
    }
    if (direct) {
        *target = usmarr_array_retain(out);
        return 0;
    }
    return usmarr__elementwise_target(c->ctx, c->first, out, c->res, c->ndim, c->shape, target);
}

/* The program's defines: loop dtype, arity, result rule, operand sources, function.  The
 * text is memoised per thread by a key of those fields: formatting it costs about a
 * microsecond, a visible share of a tiny call. */
static void call_defines(const struct call *c, const char (*srcs)[8], bool vec, bool spec, bool equal_nan,
                         int tolerance_bits, int nscalars, char *defines, size_t size)
{
    const struct op_info *op = c->op;
    int n = c->n;
    /* a single element takes the 16-lane math functions too where the device's shape runs
     * the 16-lane bodies (cl/elementwise_funcs.cl, "lanes") */
    const struct usmarr__kernel_shape *sh = &c->ctx->shape;
    bool splat = vec && (!sh->contig_one || sh->rowvec || sh->tblock);
    if (usmarr_dtype_kind(c->loop) == USMARR_KIND_COMPLEX) /* contig's bodies only (cl/elementwise_map.cl) */
        splat = vec && !sh->contig_one;
    uint64_t key = (uint64_t)c->loop | (uint64_t)n << 4 | (uint64_t)op->where << 6 | (uint64_t)op->out << 7 |
                   (uint64_t)vec << 9 | (uint64_t)spec << 10 | (uint64_t)(spec ? c->opi : 0) << 11 |
                   (uint64_t)equal_nan << 19 | (uint64_t)splat << 29 | (uint64_t)(tolerance_bits / 16) << 30;
    for (int i = 0; i < n; i++) /* "x2" as 0: "a0" (the output) is never a source */
        key |= (uint64_t)(srcs[i][0] == 'x' ? 0 : (srcs[i][0] == 's') << 2 | (srcs[i][1] - '0')) << (20 + 3 * i);
    static _Thread_local struct {
        uint64_t key;
        char text[DEFINES_SIZE];
    } memo[16];
    int slot = (int)((key ^ key >> 13 ^ key >> 27) & 15);
    if (memo[slot].key == key + 1) {
        memcpy(defines, memo[slot].text, size);
        return;
    }
    int len = snprintf(defines, size, "-DEW_T=%s -DEW_N%s -DEW_O%s%s%s%s", usmarr__dtype_tag(c->loop),
                       op->where ? "W" : op->params ? "C" : n == 1 ? "1" : n == 2 ? "2" : "3",
                       out_rule_name[op->out], vec ? " -DEW_V1" : "", splat ? " -DEW_SPLAT" : "",
                       equal_nan ? " -DEW_EQUAL_NAN" : "");
    if (tolerance_bits)
        len += snprintf(defines + len, size - (size_t)len, " -DEW_TOLB=%d", tolerance_bits);
    for (int i = 0; i < n; i++)
        len += snprintf(defines + len, size - (size_t)len, " -DEW_I%d=%s", i + 1, srcs[i]);
    if (spec)
        snprintf(defines + len, size - (size_t)len, " -DEW_OP=%s", op->id);
    else
        snprintf(defines + len, size - (size_t)len, " -DEW_SC=%d", nscalars);
    memo[slot].key = key + 1;
    memcpy(memo[slot].text, defines, size);
}

/* Bool maps as words.  A bool is a byte holding 0 or 1, so logical_and, logical_or,
 * logical_xor, not_equal and bitwise_and/or/xor of bool arrays are the bitwise and, or
 * and xor of their bytes, logical_not a xor with 1, and equal the xor of the first with
 * the second xor 1 (its second input "x2": cl/elementwise.cl): over contiguous operands
 * the map runs them on unsigned words of 8 bytes (fewer where the length or an address is
 * not a multiple), as full 16-vectors, where the bool map took a 16-byte vector a step (4M
 * bools' equal, best of 20 calls in alternate processes: PoCL 0.175 ms before, 0.13-0.15
 * as words; Intel's runtime, one element a work-item before, 0.12 and 0.08-0.14).  Returns
 * the function run instead (the call and map rewritten), or -1 for the plain map. */
static int bool_words(struct call *c, struct usmarr__map *m, char (*srcs)[8])
{
    int as = -1;
    switch (c->opi) {
    case OP_LOGICAL_AND: case OP_BITWISE_AND: as = OP_BITWISE_AND; break;
    case OP_LOGICAL_OR: case OP_BITWISE_OR: as = OP_BITWISE_OR; break;
    case OP_LOGICAL_XOR: case OP_BITWISE_XOR: case OP_NOT_EQUAL: case OP_LOGICAL_NOT: case OP_EQUAL:
        as = OP_BITWISE_XOR;
        break;
    default: return -1;
    }
    if (c->loop != USMARR_BOOL || c->res != USMARR_BOOL || m->nscalars || m->nin != c->n)
        return -1;
    size_t w = 8;
    for (int k = 0; k <= m->nin; k++) {
        int64_t expect = 1;
        for (int d = c->ndim - 1; d >= 0; expect *= c->shape[d], d--)
            if (c->shape[d] != 1 && m->operands[k].strides[d] != expect)
                return -1;
        while ((uintptr_t)m->operands[k].data % w || c->count % (int64_t)w)
            w /= 2;
    }
    static const usmarr_dtype_t word[9] = {[1] = USMARR_UINT8, [2] = USMARR_UINT16, [4] = USMARR_UINT32,
                                           [8] = USMARR_UINT64};
    /* a ^ 0x01...01, and a ^ (b ^ 0x01...01) for equal: the mask a by-value scalar */
    if (c->opi == OP_LOGICAL_NOT || c->opi == OP_EQUAL) {
        usmarr_scalar_t ones = usmarr_scalar_uint(UINT64_C(0x0101010101010101) >> (64 - 8 * w));
        if (usmarr__scalar_arg_set(&m->scalars[0], word[w], &ones))
            return -1;
        m->nscalars = 1;
        memcpy(srcs[1], c->opi == OP_EQUAL ? "x2" : "s0", 3);
        c->n = 2;
    }
    for (int k = 0; k <= m->nin; k++) {
        m->operands[k].dtype = word[w];
        m->operands[k].strides[0] = 1;
    }
    m->ndim = c->ndim = 1;
    m->shape[0] = c->shape[0] = c->count / (int64_t)w;
    c->opi = as;
    c->op = &ops[as];
    c->loop = c->res = word[w];
    return as;
}

static int dispatch_with(int opi, const usmarr_operand_t *operands, size_t noperands, const struct params *params,
                         usmarr_array_t *out, usmarr_array_t **result)
{
    struct call c;
    int rc = call_resolve(&c, opi, operands, noperands, out, result);
    if (rc || (rc = call_shape(&c, out)))
        return rc;

    struct usmarr__map m = usmarr__map_init("complex+vmath+elementwise+elementwise_funcs+elementwise_map", NULL, 1, 0);
    int tolerance_bits = 0;
    if (c.op->params && (rc = call_tolerances(&c, params, &m, &tolerance_bits)))
        return rc;
    usmarr_array_t *temps[4] = {NULL, NULL, NULL, NULL}, *target = NULL;
    char srcs[3][8], defines[DEFINES_SIZE];
    bool vec = false;
    if ((rc = call_inputs(&c, &m, temps, srcs, &vec)) || (rc = call_target(&c, out, temps, &target)) ||
        (rc = usmarr__operand_from_array(target, c.ndim, c.shape, &m.operands[0])))
        goto done;

    if (bool_words(&c, &m, srcs) >= 0)
        vec = true;
    bool spec = specialize(c.ctx, c.ndim, c.shape) || c.op->params, equal_nan = c.op->params && params && params->equal_nan;
    call_defines(&c, (const char (*)[8])srcs, vec, spec, equal_nan, tolerance_bits, m.nscalars, defines,
                 sizeof defines);
    if (!spec) { /* the function, selected at run time */
        usmarr_scalar_t id = {.kind = USMARR_KIND_INT, .dtype = USMARR_INT32, .value.i = c.opi};
        if ((rc = usmarr__scalar_arg_set(&m.scalars[m.nscalars++], USMARR_INT32, &id)))
            goto done;
    }
    m.defines = defines;
    if (vec && c.op->where) /* the condition's 16 lanes are one vector load (cl/elementwise.cl's EW_VCOND) */
        m.flags |= USMARR__MAP_BOOL_VECTORS;
    m.ndim = c.ndim;
    memcpy(m.shape, c.shape, sizeof(int64_t) * (size_t)c.ndim);
    if ((rc = usmarr__map_launch(c.ctx, &m)))
        goto done;
    if (out && target != out && (rc = cast_into(out, target)))
        goto done;
    if (result)
        *result = out ? usmarr_array_retain(out) : usmarr_array_retain(target);
done:
    usmarr_array_release(target);
    for (int i = 0; i < 4; i++)
        usmarr_array_release(temps[i]);
    return rc;
}

int usmarr__elementwise_call(int opi, const usmarr_operand_t *operands, size_t noperands, usmarr_array_t *out,
                             usmarr_array_t **result)
{
    return dispatch_with(opi, operands, noperands, NULL, out, result);
}

/* ---- public entry points -------------------------------------------------------------------- */

int usmarr__elementwise_result_dtype(const char *name, const usmarr_operand_t *operands, size_t noperands,
                                     usmarr_dtype_t *result)
{
    int opi = 0;
    while (opi < OP_COUNT && strcmp(ops[opi].name, name))
        opi++;
    if (opi == OP_COUNT)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "name=\"%.64s\" is not an elementwise function", name);
    const struct op_info *op = &ops[opi];
    if (noperands != (size_t)op->arity)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s takes %d operands, noperands=%zu", op->name,
                            op->arity, noperands);
    for (int i = 0; i < op->arity; i++) {
        int rc = operands[i].array ? 0 : usmarr__scalar_check(&operands[i].scalar, operand_names[i]);
        if (rc)
            return rc;
    }
    usmarr_dtype_t loop;
    return resolve_operands(op, operands, &loop, result);
}

const struct usmarr__ew_op *usmarr__elementwise_op(int index)
{
    return index >= 0 && index < OP_COUNT ? &ops[index] : NULL;
}

int usmarr__elementwise_find(const char *name, size_t len)
{
    for (int i = 0; i < OP_COUNT; i++)
        if (strlen(ops[i].name) == len && !strncmp(ops[i].name, name, len))
            return i;
    return -1;
}

int usmarr_isclose(const usmarr_array_t *a, const usmarr_array_t *b, double rtol, double atol, bool equal_nan,
                   usmarr_array_t *out, usmarr_array_t **result)
{
    usmarr__clear_error();
    if (!a || !b)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "isclose: %s is NULL", !a ? "a" : "b");
    usmarr_operand_t o[2] = {{.array = a}, {.array = b}};
    struct params p = {rtol, atol, equal_nan};
    return dispatch_with(OP_ISCLOSE, o, 2, &p, out, result);
}
