/* Reductions over any axis set (sum, prod, mean, min, max, argmin, argmax, all, any,
 * count_nonzero, logsumexp, reduce_hypot), and the lines of the cumulative functions
 * (cumulative.c), on cl/reduce.cl.  The kernel-selection rules are
 * in that file's header; this module reduces the layout to at most two kept and two
 * reduced dims and picks the split of few-output reductions. */
#include "ops_internal.h"

#include <stdlib.h>
#include <string.h>

enum rule { R_SUM, R_MEAN, R_SAME, R_INDEX, R_BOOL, R_COUNT, R_FLOAT };

#define USMARR_REDUCTIONS(X)                                                                                \
    X(sum, R_SUM, true, true)                                                                                \
    X(prod, R_SUM, true, true)                                                                               \
    X(mean, R_MEAN, true, true)                                                                              \
    X(min, R_SAME, false, true)                                                                              \
    X(max, R_SAME, false, true)                                                                              \
    X(argmin, R_INDEX, false, false)                                                                         \
    X(argmax, R_INDEX, false, false)                                                                         \
    X(all, R_BOOL, true, true)                                                                               \
    X(any, R_BOOL, true, true)                                                                               \
    X(count_nonzero, R_COUNT, true, true)                                                                    \
    X(logsumexp, R_FLOAT, true, true)                                                                        \
    X(reduce_hypot, R_FLOAT, true, true)

struct reduction {
    const char *name;
    enum rule rule;
    bool identity; /* defined for empty reductions */
    bool split;    /* partial results combine with the same kernel (count: with sum) */
};

enum {
#define ENUM_(name, rule, identity, split) RED_##name,
    USMARR_REDUCTIONS(ENUM_)
#undef ENUM_
        RED_COUNT
};

static const struct reduction reductions[RED_COUNT] = {
#define ROW_(name, rule, identity, split) {#name, rule, identity, split},
    USMARR_REDUCTIONS(ROW_)
#undef ROW_
};

/* NumPy's sum/prod dtype: small integers and bool accumulate in int64/uint64. */
static usmarr_dtype_t sum_dtype(usmarr_dtype_t d)
{
    switch (usmarr_dtype_kind(d)) {
    case USMARR_KIND_BOOL:
    case USMARR_KIND_INT: return USMARR_INT64;
    case USMARR_KIND_UINT: return USMARR_UINT64;
    default: return d;
    }
}

static usmarr_dtype_t result_dtype(enum rule r, usmarr_dtype_t d)
{
    switch (r) {
    case R_SUM: return sum_dtype(d);
    case R_MEAN:
    case R_FLOAT: { /* R_FLOAT: real input only (checked by the callers) */
        usmarr_kind_t k = usmarr_dtype_kind(d);
        return k == USMARR_KIND_BOOL || k == USMARR_KIND_INT || k == USMARR_KIND_UINT ? USMARR_FLOAT64 : d;
    }
    case R_SAME: return d;
    case R_BOOL: return USMARR_BOOL;
    default: return USMARR_INT64;
    }
}

/* logsumexp and hypot are defined for real input only, as NumPy's logaddexp and hypot. */
static int real_only(enum rule r, usmarr_dtype_t d, const char *name)
{
    if (r == R_FLOAT && usmarr_dtype_kind(d) == USMARR_KIND_COMPLEX)
        return usmarr__fail(USMARR_ERROR_BAD_DTYPE, "%s: x is %s; only real dtypes are supported", name,
                            usmarr_dtype_name(d));
    return 0;
}

/* ---- layout ----------------------------------------------------------------------------- */

struct dims {
    int n;
    int nin;                                            /* inputs: 1, or a fused expression's arrays */
    int64_t shape[USMARR_MAX_NDIM];
    int64_t in[USMARR__MAX_OPERANDS][USMARR_MAX_NDIM]; /* input strides */
    int64_t out[USMARR_MAX_NDIM];                       /* output strides (kept dims) */
};

/* What is reduced: an array, or the value of a fused expression (its arrays and loader). */
struct source {
    const usmarr_array_t *x;
    const struct usmarr__reduce_fused *fused;
    usmarr_context_t *ctx;
    usmarr_dtype_t dtype;
    int ndim;
    const int64_t *shape;
    int nin;
    const int64_t *strides[USMARR__MAX_OPERANDS];
    usmarr_usm_kind_t kind; /* of a new result */
};

/* A fused expression's layout needs more than two kept or reduced dims: the caller
 * evaluates it into an array first. */
#define STAGE 1

/* Drops extent-1 dims and merges neighbours that are jointly contiguous, in logical order
 * (so flat indices stay C-order indices, as argmin needs). */
static void merge(struct dims *d, bool with_out)
{
    int m = 0;
    for (int i = 0; i < d->n; i++) {
        if (d->shape[i] == 1)
            continue;
        bool joint = m > 0 && (!with_out || d->out[m - 1] == d->out[i] * d->shape[i]);
        for (int k = 0; k < d->nin && joint; k++)
            joint = d->in[k][m - 1] == d->in[k][i] * d->shape[i];
        if (joint) {
            d->shape[m - 1] *= d->shape[i];
            for (int k = 0; k < d->nin; k++)
                d->in[k][m - 1] = d->in[k][i];
            d->out[m - 1] = d->out[i];
            continue;
        }
        d->shape[m] = d->shape[i];
        for (int k = 0; k < d->nin; k++)
            d->in[k][m] = d->in[k][i];
        d->out[m] = d->out[i];
        m++;
    }
    d->n = m;
}


int usmarr__check_out(const usmarr_array_t *x, const usmarr_array_t *out, usmarr_dtype_t res, int ndim,
                      const int64_t *shape, usmarr_casting_t casting, const char *name)
{
    int rc;
    if (out->memory->context != x->memory->context)
        return usmarr__fail(USMARR_ERROR_CONTEXT_MISMATCH, "%s: out and the input belong to different contexts",
                            name);
    if ((rc = usmarr__check_writable(out, "out")))
        return rc;
    if (out->ndim != ndim || memcmp(out->shape, shape, sizeof(int64_t) * (size_t)ndim))
        return usmarr__fail(USMARR_ERROR_SHAPE_MISMATCH, "%s: out has %d dims and not the result's shape (%d dims)", name,
                            out->ndim, ndim);
    if (casting == USMARR_CASTING_NO && out->dtype != res)
        return usmarr__fail(USMARR_ERROR_BAD_DTYPE, "%s: out has dtype %s, the result is %s", name,
                            usmarr_dtype_name(out->dtype), usmarr_dtype_name(res));
    if (!usmarr_can_cast(res, out->dtype, casting))
        return usmarr__fail(USMARR_ERROR_CASTING, "%s: the %s result cannot be cast to out's %s (%s)", name,
                            usmarr_dtype_name(res), usmarr_dtype_name(out->dtype),
                            casting == USMARR_CASTING_SAME_KIND ? "same_kind" : "casting");
    return 0;
}

int usmarr__copy_reduced_last(const usmarr_array_t *x, const bool *reduced, int *perm, usmarr_array_t **copy)
{
    int order[USMARR_MAX_NDIM], n = 0;
    for (int pass = 0; pass < 2; pass++)
        for (int d = 0; d < x->ndim; d++)
            if (reduced[d] == (pass == 1))
                order[n++] = d;
    if (perm)
        memcpy(perm, order, sizeof(int) * (size_t)x->ndim);
    usmarr_array_t *view;
    int rc = usmarr_array_permute_dims(x, order, &view);
    if (rc)
        return rc;
    rc = usmarr_array_copy(view, USMARR_ORDER_C, NULL, copy);
    usmarr_array_release(view);
    return rc;
}

struct launch {
    const char *kernel;  /* "sum", ... */
    usmarr_dtype_t in_dtype;
    void *out, *in;
    cl_long2 ks, ko, ki, rs, ri;
    cl_long chunk, po;
    cl_long count;
    size_t parts;
    size_t per_item; /* outputs per work-item along kept dim 1 (128 for the columns kernel) */
    bool serial;     /* one work-item per work-group: no cross-work-item vectorisation */
    size_t tree_x, tree_y; /* the gpu shape's tree kernels: outputs side by side x rows per group (0: not) */
    const void *parts_of;                     /* argmin/argmax joins: each part's flat index */
    const struct usmarr__reduce_fused *fused; /* the element loader's program and operands, or NULL */
    cl_long4 st[USMARR__MAX_OPERANDS];        /* each fused operand's kept s0, s1 and reduced s0, s1 strides */
};

static int launch(usmarr_context_t *ctx, const struct launch *l)
{
    const struct usmarr__reduce_fused *f = l->fused;
    char defines[256], kname[64];
    usmarr__reduce_defines(ctx, l->in_dtype, defines, sizeof defines);
    if (f) {
        size_t n = strlen(defines);
        snprintf(defines + n, sizeof defines - n, " %s", f->defines);
    }
    snprintf(kname, sizeof kname, "usmarr_reduce_%s%s", l->tree_y ? "tree_" : "", l->kernel);
    usmarr__kernel_t *k;
    int rc = f ? usmarr__kernel_get_generated(ctx, "reduce", f->parts, f->nparts, defines, kname, &k)
               : usmarr__kernel_get(ctx, usmarr__reduce_family(ctx), defines, kname, &k);
    if (rc)
        return rc;
    size_t per = l->per_item ? l->per_item : 1;
    size_t global[3] = {((size_t)l->ks.s[1] + per - 1) / per, (size_t)l->ks.s[0], l->parts};
    /* Two work-group sizes along dimension 0: 64 where there are at least 64 work-items
     * (the count rounded up; the kernels skip the items past the outputs), else one.
     * PoCL compiles a work-group function per distinct local size at first launch, so
     * letting the driver pick one per global shape compiled anew for almost every shape,
     * and the largest power of two dividing the count still made seven. */
    size_t local[3] = {1, 1, 1};
    if (!global[0] || !global[1] || !global[2])
        return 0;
    if (l->tree_y) { /* whole groups: outputs rounded up to tree_x, tree_y rows per part along
                       * dimension 1 (NVIDIA takes at most 64 items along dimension 2) */
        local[0] = l->tree_x;
        local[1] = l->tree_y;
        global[0] = ((size_t)l->ks.s[1] + l->tree_x - 1) / l->tree_x * l->tree_x;
        global[1] = l->parts * l->tree_y;
        global[2] = (size_t)l->ks.s[0];
    } else if (!l->serial && global[0] >= 64) {
        local[0] = 64;
        global[0] = (global[0] + 63) / 64 * 64;
    }
    /* the reduction's arguments, then a fused loader's: each operand and its strides, its scalars */
    struct usmarr__karg args[11 + 2 * USMARR__MAX_OPERANDS + USMARR__MAX_SCALARS] = {
        USMARR__ARG_PTR(l->out), USMARR__ARG_PTR(l->in), USMARR__ARG(l->ks),    USMARR__ARG(l->ko),
        USMARR__ARG(l->ki),      USMARR__ARG(l->rs),     USMARR__ARG(l->ri),    USMARR__ARG(l->chunk),
        USMARR__ARG(l->po),      USMARR__ARG(l->count)};
    int nargs = 10;
    for (int i = 0; f && i < f->nin; i++) {
        args[nargs++] = USMARR__ARG_PTR(f->in[i].data);
        args[nargs++] = USMARR__ARG(l->st[i]);
    }
    for (int j = 0; f && j < f->nscalars; j++)
        args[nargs++] = USMARR__ARG_BYTES(f->scalars[j].bytes, f->scalars[j].size);
    if (l->parts_of)
        args[nargs++] = USMARR__ARG_PTR(l->parts_of);
    return usmarr__kernel_launch(ctx, k, nargs, args, 3, global, local);
}

static void pack2(const int64_t *v, int n, cl_long2 *out, int64_t pad)
{
    out->s[0] = n >= 2 ? v[n - 2] : pad;
    out->s[1] = n >= 1 ? v[n - 1] : pad;
}

/* ---- the gpu shape: work-group trees (cl/reduce.cl, R_TREE) ------------------------------ */

/* The group's layout: outputs side by side (coalesced along a contiguous kept axis, or
 * for short reductions of many outputs), else one output per group with every row on the
 * reduced range (all elements, an inner axis). */
static void tree_layout(const usmarr_context_t *ctx, struct launch *l, int64_t nred)
{
    size_t g = ctx->shape.tree_group, c = ctx->shape.tree_cols;
    bool wide = l->ks.s[1] >= (cl_long)c && (l->ki.s[1] == 1 || nred < (int64_t)g);
    l->tree_x = wide ? c : 1;
    l->tree_y = g / l->tree_x;
}

/* The second pass of a two-pass reduction: `kernel` over the first pass's partial results
 * (its output, laid out by its ko), `parts` of them a kept element, `stride` apart. */
static struct launch partials_pass(const struct launch *l, const struct launch *p1, const char *kernel, int64_t parts,
                                   int64_t stride)
{
    struct launch p2 = *l;
    p2.kernel = kernel;
    p2.in = p1->out;
    p2.ki = p1->ko;
    p2.rs.s[0] = 1;
    p2.rs.s[1] = parts;
    p2.ri.s[0] = 0;
    p2.ri.s[1] = stride;
    p2.chunk = parts;
    return p2;
}

/* Reduction `r` of l's layout into l->out in two launches: `parts` partial results of
 * `chunk` reduced elements for every output, then those reduced into l->out.  Trees
 * (`tree`) keep the partials as (parts, kept...), a part's outputs side by side, and
 * reduce them by a second tree; the loops keep them as (kept..., parts). */
static int reduce_in_parts(usmarr_context_t *ctx, const struct reduction *r, int ri_, const struct launch *l,
                           int64_t nkept, int64_t parts, int64_t chunk, usmarr_dtype_t part_dtype, bool tree)
{
    int64_t part_stride = tree ? nkept : 1, kept_stride = tree ? 1 : parts;
    int64_t pshape[2] = {tree ? parts : nkept, tree ? nkept : parts};
    usmarr_array_t *partial = NULL;
    int rc = usmarr__array_empty_like_layout(ctx, part_dtype, 2, pshape, USMARR_ORDER_C, USMARR_USM_DEVICE, &partial);
    if (rc)
        return rc;
    struct launch p1 = *l;
    p1.kernel = r->rule == R_MEAN ? "sum" : r->name;
    p1.out = usmarr_array_data(partial);
    p1.ko.s[0] = l->ks.s[1] * kept_stride;
    p1.ko.s[1] = kept_stride;
    p1.po = part_stride;
    p1.chunk = chunk;
    p1.parts = (size_t)parts;
    rc = launch(ctx, &p1);
    if (!rc && r->rule == R_INDEX) { /* the element at each part's index decides (tree: never split) */
        char join[32];
        snprintf(join, sizeof join, "%s_join", r->name);
        struct launch p2 = *l;
        p2.kernel = join;
        p2.parts_of = usmarr_array_data(partial);
        p2.chunk = parts;
        rc = launch(ctx, &p2);
    } else if (!rc) {
        struct launch p2 =
            partials_pass(l, &p1, r->rule == R_MEAN ? "mean" : ri_ == RED_count_nonzero ? "sum" : r->name, parts,
                          part_stride);
        p2.in_dtype = part_dtype;
        p2.fused = NULL; /* the partials are an array */
        if (tree)
            tree_layout(ctx, &p2, parts);
        rc = launch(ctx, &p2);
    }
    usmarr_array_release(partial); /* waits for the launches */
    return rc;
}

/* Reduction `r` of l's layout into l->out as trees: enough groups to fill the device (8
 * per compute unit; at least 4 elements per item), the reduced range split into parts
 * when the outputs alone give too few, the partials (parts, kept...) reduced by a second
 * tree launch.  float16 partials would round, and argmin/argmax have no partial kernel:
 * one part there. */
static int tree_reduce(usmarr_context_t *ctx, const struct reduction *r, int ri_, const struct launch *l0,
                       int64_t nkept, int64_t nred, usmarr_dtype_t part_dtype)
{
    struct launch l = *l0;
    tree_layout(ctx, &l, nred);
    int64_t groups = (l.ks.s[1] + (int64_t)l.tree_x - 1) / (int64_t)l.tree_x * l.ks.s[0];
    int64_t want = 8 * (int64_t)ctx->profile.compute_units, parts = 1;
    if (groups < want && part_dtype != USMARR_FLOAT16 && r->split) /* argmin/argmax: one part */
        parts = (want + groups - 1) / groups;
    if (parts > nred / ((int64_t)l.tree_y * 4))
        parts = nred / ((int64_t)l.tree_y * 4);
    if (parts <= 1) {
        l.parts = 1;
        return launch(ctx, &l);
    }
    int64_t chunk = (nred + parts - 1) / parts;
    parts = (nred + chunk - 1) / chunk; /* every part non-empty */
    return reduce_in_parts(ctx, r, ri_, &l, nkept, parts, chunk, part_dtype, true);
}

/* The column kernel of reduction ri_ over dtype d (cl/reduce.cl), or NULL: min, max,
 * argmin and argmax of every dtype with 16-vectors, sum of those but float16, prod and
 * mean of float32 and float64, all, any and count_nonzero of those and bool. */
static const char *column_kernel(int ri_, usmarr_dtype_t d)
{
    usmarr_kind_t k = usmarr_dtype_kind(d);
    bool vec = usmarr__dtype_vector_ok(d), flt = k == USMARR_KIND_FLOAT && d != USMARR_FLOAT16;
    switch (ri_) {
    case RED_min: return vec ? "min_cols" : NULL;
    case RED_max: return vec ? "max_cols" : NULL;
    case RED_sum: return vec && d != USMARR_FLOAT16 ? "sum_cols" : NULL;
    case RED_prod: return flt ? "prod_cols" : NULL;
    case RED_mean: return flt ? "mean_cols" : NULL;
    case RED_argmin: return vec ? "argmin_cols" : NULL;
    case RED_argmax: return vec ? "argmax_cols" : NULL;
    case RED_all: return vec || d == USMARR_BOOL ? "all_cols" : NULL;
    case RED_any: return vec || d == USMARR_BOOL ? "any_cols" : NULL;
    case RED_count_nonzero: return vec || d == USMARR_BOOL ? "count_nonzero_cols" : NULL;
    default: return NULL;
    }
}

/* Float sums, products and means over an outer axis of many rows under contiguous kept
 * outputs, in slabs (cl/reduce.cl): `parts` parts of whole rows, a work-item each, write
 * (kept dim 0, part, kept dim 1) partial rows, and the column kernel `cols` reduces them
 * over the parts.  A CPU streams whole rows 2-3 times as fast as the column kernels'
 * 128-column stripes; the slabs pay a second launch and the partials, so they serve only
 * arrays of 1M elements or more.  Returns the parts (2 or more), or 0: not this path. */
static int64_t slab_parts(const usmarr_context_t *ctx, int ri_, usmarr_dtype_t d, const struct launch *l,
                          int64_t nred)
{
    if ((ri_ != RED_sum && ri_ != RED_prod && ri_ != RED_mean) || (d != USMARR_FLOAT32 && d != USMARR_FLOAT64))
        return 0;
    if (nred < 256 || nred * l->ks.s[1] * l->ks.s[0] < (1 << 20))
        return 0;
    int64_t want = 4 * (int64_t)ctx->profile.compute_units;
    int64_t parts = (want + l->ks.s[0] - 1) / l->ks.s[0];
    if (parts > nred / 64)
        parts = nred / 64;
    return parts >= 2 ? parts : 0;
}

static int reduce_in_slabs(usmarr_context_t *ctx, int ri_, const struct launch *l, const char *cols, int64_t nred,
                           int64_t parts)
{
    int64_t chunk = (nred + parts - 1) / parts, ks1 = l->ks.s[1];
    parts = (nred + chunk - 1) / chunk; /* every part non-empty */
    int64_t pshape[3] = {l->ks.s[0], parts, ks1};
    usmarr_array_t *partial = NULL;
    int rc = usmarr__array_empty_like_layout(ctx, l->in_dtype, 3, pshape, USMARR_ORDER_C, USMARR_USM_DEVICE, &partial);
    if (rc)
        return rc;
    struct launch p1 = *l;
    p1.kernel = ri_ == RED_prod ? "prod_slab" : "sum_slab";
    p1.out = usmarr_array_data(partial);
    p1.ko.s[0] = parts * ks1;
    p1.ko.s[1] = 1;
    p1.po = ks1;
    p1.chunk = chunk;
    p1.parts = (size_t)parts;
    p1.per_item = (size_t)ks1; /* one work-item per (kept dim 0, part) */
    p1.serial = true;
    if (!(rc = launch(ctx, &p1))) {
        struct launch p2 = partials_pass(l, &p1, cols, parts, ks1);
        p2.per_item = 128;
        p2.serial = true;
        rc = launch(ctx, &p2);
    }
    usmarr_array_release(partial); /* waits for the launches */
    return rc;
}

/* The source reduced over `reduced` into `target` (shape: kept dims, keepdims or not). */
static int reduce_into(usmarr_context_t *ctx, const struct reduction *r, int ri_, const struct source *src,
                       const bool *reduced, usmarr_array_t *target)
{
    const usmarr_array_t *x = src->x;
    struct dims kept = {.nin = src->nin}, red = {.nin = src->nin};
    int od = 0;
    for (int d = 0; d < src->ndim; d++) {
        struct dims *to = reduced[d] ? &red : &kept;
        to->shape[to->n] = src->shape[d];
        for (int k = 0; k < src->nin; k++)
            to->in[k][to->n] = src->strides[k][d];
        if (!reduced[d])
            kept.out[kept.n] = target->strides[od++];
        else if (target->ndim == src->ndim)
            od++; /* keepdims: skip the extent-1 output dim */
        to->n++;
    }
    int64_t nred = 1, nkept = 1;
    for (int i = 0; i < red.n; i++)
        nred *= red.shape[i];
    for (int i = 0; i < kept.n; i++)
        nkept *= kept.shape[i];
    if (nkept == 0)
        return 0;
    merge(&kept, true);
    merge(&red, false);
    usmarr_array_t *tmp = NULL;
    int rc = 0;
    if ((kept.n > 2 || red.n > 2) && src->fused)
        return STAGE;
    if (kept.n > 2 || red.n > 2) {
        if ((rc = usmarr__copy_reduced_last(x, reduced, NULL, &tmp))) /* then it is (nkept, nred) */
            return rc;
        int64_t out_strides_kept[USMARR_MAX_NDIM];
        memcpy(out_strides_kept, kept.out, sizeof out_strides_kept);
        /* kept dims of the original, in logical order, with the copy's strides */
        kept.n = 0;
        red.n = 0;
        int ko = 0;
        for (int d = 0; d < x->ndim; d++) {
            if (reduced[d])
                continue;
            kept.shape[kept.n] = x->shape[d];
            kept.in[0][kept.n] = tmp->strides[ko];
            kept.out[kept.n++] = target->strides[target->ndim == x->ndim ? d : ko];
            ko++;
        }
        for (int d = 0; d < x->ndim; d++)
            if (reduced[d]) {
                red.shape[red.n] = x->shape[d];
                red.in[0][red.n++] = tmp->strides[ko++];
            }
        merge(&kept, true);
        merge(&red, false);
        if (kept.n > 2) { /* the output itself is not mergeable: go through a C-ordered result */
            usmarr_array_release(tmp);
            return USMARR_ERROR_UNSUPPORTED; /* handled by the caller with a contiguous target */
        }
        x = tmp;
    }
    struct launch l;
    memset(&l, 0, sizeof l);
    l.kernel = r->name;
    l.in_dtype = src->dtype;
    l.in = x ? usmarr_array_data(x) : src->fused->nin ? src->fused->in[0].data : NULL;
    l.out = usmarr_array_data(target);
    l.fused = src->fused;
    pack2(kept.shape, kept.n, &l.ks, 1);
    pack2(kept.out, kept.n, &l.ko, 0);
    pack2(kept.in[0], kept.n, &l.ki, 0);
    pack2(red.shape, red.n, &l.rs, 1);
    pack2(red.in[0], red.n, &l.ri, 0);
    for (int k = 0; src->fused && k < src->nin; k++) {
        cl_long2 ki, ri;
        pack2(kept.in[k], kept.n, &ki, 0);
        pack2(red.in[k], red.n, &ri, 0);
        l.st[k] = (cl_long4){{ki.s[0], ki.s[1], ri.s[0], ri.s[1]}};
    }
    l.count = nred;
    l.chunk = nred > 0 ? nred : 1;
    l.parts = 1;

    /* few outputs over many elements: split into partial results, then combine them */
    usmarr_dtype_t part_dtype = result_dtype(r->rule, src->dtype);
    if (r->rule == R_MEAN)
        part_dtype = sum_dtype(src->dtype);
    if (ctx->shape.tree_group && (r->split || r->rule == R_INDEX)) {
        rc = tree_reduce(ctx, r, ri_, &l, nkept, nred, part_dtype);
        goto done;
    }
    bool arg_parts = r->rule == R_INDEX && !src->fused; /* argmin/argmax: indices, then a join */
    /* 8 parts a compute unit, at most 256: each work-group costs its scheduling, and 256
     * parts on 2 compute units made "of all" 1.3-2 times as slow as 16 (PoCL) and all/any
     * of all twice as slow (Intel's runtime) as the 16 that still balance the load */
    int64_t want = 8 * (int64_t)ctx->profile.compute_units, split = (want < 256 ? want : 256) / nkept;
    if ((r->split || arg_parts) && nkept <= 16 && nred >= 65536 && part_dtype != USMARR_FLOAT16 && split >= 2) {
        int64_t parts = split;
        int64_t chunk = (nred + parts - 1) / parts;
        chunk = (chunk + 4095) / 4096 * 4096;
        parts = (nred + chunk - 1) / chunk;
        rc = reduce_in_parts(ctx, r, ri_, &l, nkept, parts, chunk, part_dtype, false);
        goto done;
    }
    /* an outer reduced axis under contiguous outputs: 128 outputs per work-item, in
     * 16-vectors (cl/reduce.cl, the column kernels) */
    const char *cols = column_kernel(ri_, src->dtype);
    if (cols && !src->fused && l.ki.s[1] == 1 && l.ko.s[1] == 1 && l.ks.s[1] >= 128 && l.ri.s[1] != 1 &&
        nred > 1 && ((ri_ != RED_count_nonzero && reductions[ri_].rule != R_INDEX) || nred < INT32_MAX)) {
        int64_t parts = slab_parts(ctx, ri_, src->dtype, &l, nred);
        if (parts) {
            rc = reduce_in_slabs(ctx, ri_, &l, cols, nred, parts);
            goto done;
        }
        l.kernel = cols;
        l.per_item = 128;
        l.serial = true;
    } else if (l.ri.s[1] == 1 && l.rs.s[1] >= 16) {
        l.serial = true; /* an inner contiguous loop per work-item */
    }
    rc = launch(ctx, &l);
done:
    usmarr_array_release(tmp);
    return rc;
}

static int reduce_source(int ri_, const struct source *src, int naxes, const int *axes, bool keepdims,
                         usmarr_array_t *out, usmarr_array_t **result)
{
    const struct reduction *r = &reductions[ri_];
    if (!out && !result)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s: result is NULL and there is no out", r->name);
    bool reduced[USMARR_MAX_NDIM];
    int rc = usmarr__axes_mask(src->ndim, naxes, axes, NULL, "axes", reduced, NULL);
    if (rc)
        return rc;
    if ((rc = real_only(r->rule, src->dtype, r->name)))
        return rc;
    usmarr_context_t *ctx = src->ctx;
    usmarr_dtype_t res = result_dtype(r->rule, src->dtype);
    if ((rc = usmarr__check_dtype_supported(ctx, res, "the result dtype")))
        return rc;
    int ndim = 0;
    int64_t shape[USMARR_MAX_NDIM], nred = 1;
    for (int d = 0; d < src->ndim; d++) {
        if (!reduced[d]) {
            shape[ndim++] = src->shape[d];
        } else {
            nred *= src->shape[d];
            if (keepdims)
                shape[ndim++] = 1;
        }
    }
    if (nred == 0 && !r->identity) /* also when nothing is kept either, as NumPy raises */
        return usmarr__fail(USMARR_ERROR_EMPTY, "%s of an empty selection (%lld elements reduced) has no identity",
                            r->name, (long long)nred);
    if (out && !src->x && out->memory->context != ctx) /* (usmarr__check_out checks an array's) */
        return usmarr__fail(USMARR_ERROR_CONTEXT_MISMATCH, "%s: out and the operands belong to different contexts",
                            r->name);
    if (out && (rc = usmarr__check_out(src->x ? src->x : out, out, res, ndim, shape, USMARR_CASTING_SAME_KIND,
                                       r->name)))
        return rc;

    usmarr_array_t *target = NULL;
    bool direct = out && out->dtype == res && (!src->x || out->memory != src->x->memory);
    for (int k = 0; direct && src->fused && k < src->fused->nin; k++) /* nor a fused expression's operand */
        direct = src->fused->memory[k] != out->memory;
    if (direct)
        target = usmarr_array_retain(out);
    else if ((rc = usmarr__array_empty_like_layout(ctx, res, ndim, shape, USMARR_ORDER_C, src->kind, &target)))
        return rc;
    rc = reduce_into(ctx, r, ri_, src, reduced, target);
    if (rc == USMARR_ERROR_UNSUPPORTED && direct) { /* out's own layout did not merge: use a C-ordered result */
        usmarr_array_release(target);
        if ((rc = usmarr__array_empty_like_layout(ctx, res, ndim, shape, USMARR_ORDER_C, src->kind, &target)))
            return rc;
        direct = false;
        rc = reduce_into(ctx, r, ri_, src, reduced, target);
    }
    if (!rc && out && !direct)
        rc = usmarr_array_copy_into(out, target);
    if (!rc && result)
        *result = usmarr_array_retain(out ? out : target);
    usmarr_array_release(target);
    return rc;
}

static int reduce(int ri_, const usmarr_array_t *x, int naxes, const int *axes, bool keepdims, usmarr_array_t *out,
                  usmarr_array_t **result)
{
    if (!x)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s: x is NULL", reductions[ri_].name);
    struct source src = {.x = x, .ctx = x->memory->context, .dtype = x->dtype, .ndim = x->ndim, .shape = x->shape,
                         .nin = 1, .strides = {x->strides},
                         .kind = x->memory->kind == USMARR_USM_UNKNOWN ? USMARR_USM_DEVICE : x->memory->kind};
    return reduce_source(ri_, &src, naxes, axes, keepdims, out, result);
}

int usmarr__reduce_fused(const char *name, const struct usmarr__reduce_fused *f, int naxes, const int *axes,
                         bool keepdims, usmarr_array_t *out, usmarr_array_t **result)
{
    int ri_ = 0;
    while (ri_ < RED_COUNT && strcmp(reductions[ri_].name, name))
        ri_++;
    if (ri_ == RED_COUNT)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "name=\"%.64s\" is not a reduction", name);
    struct source src = {.fused = f, .ctx = f->ctx, .dtype = f->dtype, .ndim = f->ndim, .shape = f->shape,
                         .nin = f->nin, .kind = f->kind};
    for (int k = 0; k < f->nin; k++)
        src.strides[k] = f->in[k].strides;
    if (f->nin == 0) { /* scalars only: the loader reads nothing, the layout has no strides */
        static const int64_t zeros[USMARR_MAX_NDIM];
        src.nin = 1;
        src.strides[0] = zeros;
    }
    return reduce_source(ri_, &src, naxes, axes, keepdims, out, result);
}

/* ---- the cumulative functions' lines (cumulative.c) --------------------------------------------- */

int usmarr__reduce_dtype_like(const char *like, usmarr_dtype_t dtype, const char *name, usmarr_dtype_t *result)
{
    for (int i = 0; i < RED_COUNT; i++)
        if (!strcmp(reductions[i].name, like)) {
            *result = result_dtype(reductions[i].rule, dtype);
            return real_only(reductions[i].rule, dtype, name);
        }
    return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "name=\"%.64s\" is not a reduction", like);
}

int usmarr__cumulative_lines(usmarr_context_t *ctx, const char *name, usmarr_dtype_t dtype, void *in, void *out,
                             int64_t lines, int64_t n, bool init)
{
    /* a line a work-group (serial): a runtime that packs neighbouring work-items into
     * lanes (Intel's) would read 16 lines in strided lanes */
    struct launch l = {.kernel = name, .in_dtype = dtype, .in = in, .out = out, .ks.s = {1, lines},
                       .ko.s = {0, n + init}, .ki.s = {0, n}, .rs.s = {1, n}, .ri.s = {0, 1}, .po = 1, .chunk = n,
                       .count = init, .parts = 1, .serial = true};
    return launch(ctx, &l);
}

/* ---- public entry points --------------------------------------------------------------------- */

int usmarr_reduce(const char *name, const usmarr_array_t *x, int naxes, const int *axes, bool keepdims,
                  usmarr_array_t *out, usmarr_array_t **result)
{
    usmarr__clear_error();
    if (!name)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "name is NULL");
    for (int i = 0; i < RED_COUNT; i++)
        if (!strcmp(reductions[i].name, name))
            return reduce(i, x, naxes, axes, keepdims, out, result);
    return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "name=\"%.64s\" is not a reduction", name);
}

const char *usmarr__reduce_name(int index) { return index >= 0 && index < RED_COUNT ? reductions[index].name : NULL; }

int usmarr__reduce_result_dtype(const char *name, usmarr_dtype_t dtype, usmarr_dtype_t *result)
{
    for (int i = 0; i < RED_COUNT; i++)
        if (!strcmp(reductions[i].name, name)) {
            *result = result_dtype(reductions[i].rule, dtype);
            return 0;
        }
    return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "name=\"%.64s\" is not a reduction", name);
}

#define WRAP_(name, rule, identity, split)                                                                  \
    int usmarr_##name(const usmarr_array_t *x, int naxes, const int *axes, bool keepdims, usmarr_array_t *out, \
                      usmarr_array_t **result)                                                               \
    {                                                                                                        \
        usmarr__clear_error();                                                                               \
        return reduce(RED_##name, x, naxes, axes, keepdims, out, result);                                    \
    }
USMARR_REDUCTIONS(WRAP_)
#undef WRAP_
