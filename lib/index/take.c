/* Advanced indexing: take / put / take_along_axis with integer index arrays (wrap, clip,
 * raise).  Kernels: cl/index.cl.  The boolean masks (extract, place, nonzero) are in
 * mask.c.
 *
 * take, take_along_axis and put are map programs of the engine: the source (or target)
 * is an operand whose strides are zero on the index axes, so the engine's iteration
 * space gives the address of element [.., 0, ..] and the body adds index*stride.  The
 * raise mode first runs a check over the indices only and reads back one flag and one
 * bad value, so an error names a real index and put writes nothing. */
#include "index_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A writable 1-D alias of `a` in C order: a view of `a` itself when it is C-contiguous, else
 * of a C-ordered copy (*copy, NULL otherwise) that the caller copies back into `a` after
 * writing and releases, with *flat, in any case. */
static int flat_alias(usmarr_array_t *a, usmarr_array_t **flat, usmarr_array_t **copy);

/* The argument checks of put and put_along_axis: usmarr__check_write's, integer indices,
 * a known mode. */
static int check_put(const usmarr_array_t *a, const usmarr_array_t *indices,
                     const usmarr_array_t *values, usmarr_index_mode_t mode);


static int check_index_dtype(const usmarr_array_t *ind, const char *name)
{
    usmarr_kind_t kind = usmarr_dtype_kind(ind->dtype);
    if (kind != USMARR_KIND_INT && kind != USMARR_KIND_UINT)
        return usmarr__fail(USMARR_ERROR_BAD_DTYPE, "%s has dtype %s; indices must be integers", name,
                            usmarr_dtype_name(ind->dtype));
    return 0;
}

static int check_mode(usmarr_index_mode_t mode)
{
    if (mode != USMARR_INDEX_MODE_RAISE && mode != USMARR_INDEX_MODE_WRAP && mode != USMARR_INDEX_MODE_CLIP)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "mode=%d is not raise (0), wrap (1) or clip (2)",
                            (int)mode);
    return 0;
}

static void set_operand(struct usmarr__operand *op, const usmarr_array_t *a, int dtype, int nd,
                        const int64_t *strides)
{
    op->data = usmarr_array_data(a);
    op->dtype = dtype;
    memcpy(op->strides, strides, sizeof(int64_t) * (size_t)nd);
}

static bool is_unsigned(usmarr_dtype_t dtype) { return usmarr_dtype_kind(dtype) == USMARR_KIND_UINT; }

static int shape_size(int nd, const int64_t *shape) /* 0 when empty */
{
    for (int k = 0; k < nd; k++)
        if (shape[k] == 0)
            return 0;
    return 1;
}

/* Raise mode.  Two 8-byte cells: a flag and the bad value (in the index dtype).  Kernels
 * set them for any out-of-range index; the host waits once and reads them.  Host USM
 * (zeroed and read by the host) where the device offers it, else device USM zeroed and
 * read back through the USM fill and copy entry points. */
static int cells_new(usmarr_context_t *ctx, usmarr_memory_t **cells)
{
    bool host = ctx->info.host_mem_caps & CL_UNIFIED_SHARED_MEMORY_ACCESS_INTEL;
    int rc = usmarr_memory_create(ctx, host ? USMARR_USM_HOST : USMARR_USM_DEVICE, 16, 16, cells);
    if (rc)
        return rc;
    static const int64_t zero = 0;
    if (host)
        memset((*cells)->pointer, 0, 16); /* nothing is enqueued on it yet */
    else if ((rc = usmarr_memory_fill(*cells, 0, &zero, sizeof zero, 16)) != 0)
        usmarr_memory_release(*cells);
    return rc;
}

static void cells_operands(usmarr_memory_t *cells, const usmarr_array_t *ind, struct usmarr__operand *flag,
                           struct usmarr__operand *value)
{
    memset(flag, 0, sizeof *flag); /* stride 0 everywhere */
    memset(value, 0, sizeof *value);
    flag->data = cells->pointer;
    flag->dtype = USMARR_INT64;
    value->data = (char *)cells->pointer + 8;
    value->dtype = ind->dtype;
}

/* Waits for the kernels that use the cells, then fails naming the bad index, if any. */
static int cells_verdict(usmarr_memory_t *cells, const usmarr_array_t *ind, int64_t n, int axis, const char *what)
{
    int rc = usmarr_context_finish(cells->context);
    if (rc)
        return rc;
    unsigned char back[16];
    if (cells->kind == USMARR_USM_HOST)
        memcpy(back, cells->pointer, sizeof back);
    else if ((rc = usmarr_memory_copy_to_host(cells, 0, back, sizeof back)) != 0)
        return rc;
    int64_t flag;
    memcpy(&flag, back, 8);
    if (!flag)
        return 0;
    char value[32];
    size_t isz = usmarr_dtype_size(ind->dtype);
    if (is_unsigned(ind->dtype)) {
        uint64_t u = 0;
        memcpy(&u, back + 8, isz); /* little-endian: the low bytes */
        snprintf(value, sizeof value, "%llu", (unsigned long long)u);
    } else {
        int64_t v = 0;
        if (isz == 1) {
            v = *(int8_t *)(back + 8);
        } else if (isz == 2) {
            int16_t t;
            memcpy(&t, back + 8, 2);
            v = t;
        } else if (isz == 4) {
            int32_t t;
            memcpy(&t, back + 8, 4);
            v = t;
        } else {
            memcpy(&v, back + 8, 8);
        }
        snprintf(value, sizeof value, "%lld", (long long)v);
    }
    return usmarr__fail(USMARR_ERROR_INDEX, "index %s is out of bounds for axis %d with size %lld (%s)", value, axis,
                        (long long)n, what);
}

/* Raise mode before anything is written: OP_CHECK over `ind` alone. */
static int check_indices_on_device(const usmarr_array_t *ind, int64_t n, int axis, const char *what)
{
    usmarr_context_t *ctx = ind->memory->context;
    if (usmarr_array_size(ind) == 0)
        return 0;
    usmarr_memory_t *cells;
    int rc = cells_new(ctx, &cells);
    if (rc)
        return rc;
    char defines[64];
    snprintf(defines, sizeof defines, "-DOP_CHECK -DMODE=2 -DIDX_UNSIGNED=%d", is_unsigned(ind->dtype));
    struct usmarr__map m = usmarr__map_init("index", defines, 2, 1);
    m.flags = USMARR__MAP_NO_TILE;
    m.ndim = ind->ndim;
    memcpy(m.shape, ind->shape, sizeof(int64_t) * (size_t)ind->ndim);
    cells_operands(cells, ind, &m.operands[0], &m.operands[1]);
    set_operand(&m.operands[2], ind, ind->dtype, ind->ndim, ind->strides);
    m.nscalars = 1;
    rc = usmarr__scalar_arg_int64(&m.scalars[0], n);
    if (!rc)
        rc = usmarr__map_launch(ctx, &m);
    if (!rc)
        rc = cells_verdict(cells, ind, n, axis, what);
    usmarr_memory_release(cells);
    return rc;
}

/* One gather/scatter map: ops[0] written, ops[1] the indices, ops[2] read.  With `cells`
 * (a gather in raise mode) the same pass also checks: bad indices set the cells and skip
 * their element. */
static int launch_index_map(usmarr_context_t *ctx, const char *op, usmarr_index_mode_t mode,
                            const usmarr_array_t *ind, int nd, const int64_t *shape,
                            const struct usmarr__operand *ops, int nin, int64_t n, int64_t stride,
                            usmarr_memory_t *cells)
{
    char defines[80];
    int m_mode = mode == USMARR_INDEX_MODE_WRAP ? 0 : mode == USMARR_INDEX_MODE_CLIP ? 1 : 2;
    snprintf(defines, sizeof defines, "-DOP_%s -DMODE=%d -DIDX_UNSIGNED=%d%s", op, m_mode, is_unsigned(ind->dtype),
             cells ? " -DCHECKED=1" : "");
    struct usmarr__map m = usmarr__map_init("index", defines, cells ? 3 : 1, nin);
    m.flags = USMARR__MAP_NO_TILE;
    m.ndim = nd;
    memcpy(m.shape, shape, sizeof(int64_t) * (size_t)nd);
    m.operands[0] = ops[0];
    int k = 1;
    if (cells) {
        cells_operands(cells, ind, &m.operands[1], &m.operands[2]);
        k = 3;
    }
    for (int i = 0; i < nin; i++)
        m.operands[k + i] = ops[1 + i];
    m.nscalars = 2;
    int rc = usmarr__scalar_arg_int64(&m.scalars[0], n);
    if (!rc)
        rc = usmarr__scalar_arg_int64(&m.scalars[1], stride);
    return rc ? rc : usmarr__map_launch(ctx, &m);
}

/* usmarr_take_flat: a 1-d source, or take (not take_along_axis: the same indices for
 * every row) along the last axis of a 2-d one; contiguous indices, a contiguous result of
 * the source's dtype.  The map program handles everything else: take along axis 1 of
 * 2048 x 2048 float32 with 2048 int64 indices took 4.0-4.7 ms in its 2-d gather on PoCL
 * and 3.1-3.7 ms on Intel's runtime, 2.6 and 1.1-2.1 ms in the flat kernel's rows (with
 * the indices checked first, gather_into), alternate processes under load, NumPy 3.1-5.2. */
static bool flat_take_fits(const usmarr_array_t *a, const usmarr_array_t *indices, const usmarr_array_t *target,
                           int axis, bool take)
{
    return (a->ndim == 1 || (take && a->ndim == 2 && axis == 1)) && (indices->flags & USMARR_FLAG_C_CONTIGUOUS) &&
           (target->flags & USMARR_FLAG_C_CONTIGUOUS) && target->dtype == a->dtype;
}

static int launch_flat_take(const usmarr_array_t *a, const usmarr_array_t *indices, usmarr_array_t *target,
                            usmarr_index_mode_t mode, usmarr_memory_t *cells)
{
    usmarr_context_t *ctx = a->memory->context;
    char defines[96];
    int m_mode = mode == USMARR_INDEX_MODE_WRAP ? 0 : mode == USMARR_INDEX_MODE_CLIP ? 1 : 2;
    snprintf(defines, sizeof defines, "-DIDX=%s -DELEM=%s -DMODE=%d -DIDX_UNSIGNED=%d -DCHECKED=%d%s",
             usmarr__dtype_tag(indices->dtype), usmarr__dtype_tag(usmarr__bits_dtype(usmarr_dtype_size(a->dtype))),
             m_mode, is_unsigned(indices->dtype), cells != NULL, ctx->shape.scan_group ? " -DTAKE_IN_RANGE=1" : "");
    usmarr__kernel_t *k;
    int rc = usmarr__kernel_get(ctx, "index", defines, "usmarr_take_flat", &k);
    if (rc)
        return rc;
    int last = a->ndim - 1;
    cl_long m = usmarr_array_size(indices), n = a->shape[last], stride = a->strides[last];
    cl_long rstride = last ? a->strides[0] : 0;
    size_t local[2] = {256, 1}, global[2] = {((size_t)m + 255) / 256 * 256, last ? (size_t)a->shape[0] : 1};
    /* the cells are unused without CHECKED, but every argument must be set */
    const struct usmarr__karg args[] = {
        USMARR__ARG_PTR(usmarr_array_data(target)), USMARR__ARG_PTR(usmarr_array_data(indices)),
        USMARR__ARG_PTR(usmarr_array_data(a)),      USMARR__ARG(m),
        USMARR__ARG(n),                             USMARR__ARG(stride),
        USMARR__ARG(rstride),                       USMARR__ARG_PTR(cells ? cells->pointer : NULL)};
    return usmarr__kernel_launch(ctx, k, USMARR__NARGS(args), args, 2, global, local);
}

/* take along axis 0 of an array whose other axes are one C-contiguous run, with
 * C-contiguous indices, into a C-contiguous result of a's dtype: getitem.c's rows kernel
 * (one run per index; the 2-D map over it is 4x slower on PoCL).  *len: the run. */
static bool rows_take_fits(const usmarr_array_t *a, const usmarr_array_t *indices, const usmarr_array_t *target,
                           int axis, int64_t *len)
{
    if (axis != 0 || a->ndim < 2 || !(indices->flags & USMARR_FLAG_C_CONTIGUOUS) ||
        !(target->flags & USMARR_FLAG_C_CONTIGUOUS) || target->dtype != a->dtype)
        return false;
    int64_t run = 1;
    for (int k = a->ndim - 1; k >= 1; k--) {
        if (a->shape[k] != 1 && a->strides[k] != run)
            return false;
        run *= a->shape[k];
    }
    *len = run;
    return true;
}

/* take and take_along_axis: the gather, checked in the same pass when the result is new
 * (a failure then only discards it), checked first when writing into the caller's out, or
 * when each index serves several results outside the rows kernel (take along an inner
 * axis: one pass over the indices, then gathers without the test, where the same pass
 * tests each index once a row; 2048 x 2048 float32 along axis 1 on Intel's runtime,
 * 2.0 ms checked in the pass against 1.1-1.2 ms unchecked). */
static int gather_into(const usmarr_array_t *a, const usmarr_array_t *indices, usmarr_array_t *target,
                       usmarr_index_mode_t mode, bool into_out, int nd, const int64_t *shape,
                       struct usmarr__operand *ops, int64_t n, int axis, const char *what, bool rows_ok)
{
    usmarr_context_t *ctx = a->memory->context;
    int rc = 0;
    int64_t len, count = usmarr_array_size(indices), results = 1;
    for (int d = 0; d < nd; d++)
        results *= shape[d];
    bool rows = rows_ok && rows_take_fits(a, indices, target, axis, &len);
    bool fused = mode == USMARR_INDEX_MODE_RAISE && !into_out && count > 0 && (rows || results <= count);
    if (mode == USMARR_INDEX_MODE_RAISE && !fused)
        rc = check_indices_on_device(indices, n, axis, what);
    if (rc || !shape_size(nd, shape))
        return rc;
    usmarr_memory_t *cells = NULL;
    if (fused && (rc = cells_new(ctx, &cells)))
        return rc;
    if (rows)
        rc = usmarr__take_rows(a, indices, 1, count, target, len, n, a->strides[0], mode, cells);
    else if (flat_take_fits(a, indices, target, axis, rows_ok))
        rc = launch_flat_take(a, indices, target, mode, cells);
    else
        rc = launch_index_map(ctx, "GATHER", mode, indices, nd, shape, ops, 2, n, a->strides[axis], cells);
    if (!rc && cells)
        rc = cells_verdict(cells, indices, n, axis, what);
    usmarr_memory_release(cells);
    return rc;
}

/* take and take_along_axis: the result (or `out`) over the iteration space `shape`, where
 * `ist`/`ast` are the indices' and a's strides and a's axis `ax` is read by index. */
static int gather(const usmarr_array_t *a, const usmarr_array_t *indices, int nd, const int64_t *shape,
                  const int64_t *ist, const int64_t *ast, int ax, usmarr_index_mode_t mode, const char *what,
                  bool rows_ok, usmarr_array_t *out, usmarr_array_t **result)
{
    usmarr_array_t *target;
    const usmarr_array_t *inputs[2] = {a, indices};
    int rc = usmarr__result_begin(a, inputs, 2, a->dtype, nd, shape, out, result, &target);
    if (rc)
        return rc;
    struct usmarr__operand ops[3];
    int dt = target->dtype, st = a->dtype;
    if (dt == st)
        dt = st = usmarr__bits_dtype(usmarr_dtype_size(a->dtype));
    set_operand(&ops[0], target, dt, nd, target->strides);
    set_operand(&ops[1], indices, indices->dtype, nd, ist);
    set_operand(&ops[2], a, st, nd, ast);
    rc = gather_into(a, indices, target, mode, target == out, nd, shape, ops, a->shape[ax], ax, what, rows_ok);
    return usmarr__result_end(rc, target, out, result);
}

static int flatten(const usmarr_array_t *a, usmarr_array_t **flat)
{
    int64_t minus_one = -1;
    return usmarr_array_reshape(a, 1, &minus_one, USMARR_ORDER_C, USMARR_COPY_IF_NEEDED, flat);
}

static int flat_alias(usmarr_array_t *a, usmarr_array_t **flat, usmarr_array_t **copy)
{
    *flat = *copy = NULL;
    if (a->flags & USMARR_FLAG_C_CONTIGUOUS)
        return flatten(a, flat);
    int rc = usmarr_array_copy(a, USMARR_ORDER_C, NULL, copy);
    return rc ? rc : flatten(*copy, flat);
}

/* ---- take ------------------------------------------------------------------------------ */

/* The iteration space of take/put along axis `ax`: a's shape with axis `ax` replaced by
 * the indices' shape.  `ist`/`ast` are the indices' and a's strides over it (a's axis `ax`
 * is addressed by the index values, so it has no stride here). */
static void indexed_space(const usmarr_array_t *a, const usmarr_array_t *indices, int ax, int64_t *shape,
                          int64_t *ist, int64_t *ast)
{
    int ni = indices->ndim, rnd = a->ndim - 1 + ni;
    for (int k = 0; k < rnd; k++) {
        if (k < ax) {
            shape[k] = a->shape[k];
            ist[k] = 0;
            ast[k] = a->strides[k];
        } else if (k < ax + ni) {
            shape[k] = indices->shape[k - ax];
            ist[k] = indices->strides[k - ax];
            ast[k] = 0;
        } else {
            shape[k] = a->shape[k - ni + 1];
            ist[k] = 0;
            ast[k] = a->strides[k - ni + 1];
        }
    }
}

/* take_along_axis and put_along_axis with axis=USMARR_AXIS_NONE: 1-d indices into a's
 * flat order. */
static int check_flat_indices(const usmarr_array_t *indices)
{
    char s[USMARR__SHAPE_BUF];
    if (indices->ndim != 1)
        return usmarr__fail(USMARR_ERROR_SHAPE_MISMATCH, "with axis=USMARR_AXIS_NONE indices must be 1-d; it has shape %s",
                            usmarr__format_shape(indices->ndim, indices->shape, s, sizeof s));
    return 0;
}

/* The iteration space of take_along_axis/put_along_axis: a's and the indices' shapes
 * (of one rank) broadcast outside axis *ax, which takes the indices' extent; `ist`/`ast`
 * are the indices' and a's strides over it (a's axis *ax is addressed by the values). */
static int along_space(const usmarr_array_t *a, const usmarr_array_t *indices, int axis, int *ax, int64_t *shape,
                       int64_t *ist, int64_t *ast)
{
    char s1[USMARR__SHAPE_BUF], s2[USMARR__SHAPE_BUF];
    int nd = a->ndim, rc = usmarr__normalize_axis(axis, nd, "axis", ax);
    if (rc)
        return rc;
    if (indices->ndim != nd)
        return usmarr__fail(USMARR_ERROR_SHAPE_MISMATCH,
                            "indices of shape %s and a of shape %s must have the same number of dimensions",
                            usmarr__format_shape(indices->ndim, indices->shape, s1, sizeof s1),
                            usmarr__format_shape(nd, a->shape, s2, sizeof s2));
    for (int k = 0; k < nd; k++) {
        int64_t na = a->shape[k], ni = indices->shape[k];
        if (k != *ax && na != ni && na != 1 && ni != 1)
            return usmarr__fail(USMARR_ERROR_SHAPE_MISMATCH,
                                "indices of shape %s do not broadcast with a of shape %s outside axis %d",
                                usmarr__format_shape(nd, indices->shape, s1, sizeof s1),
                                usmarr__format_shape(nd, a->shape, s2, sizeof s2), *ax);
        shape[k] = k == *ax || na == 1 ? ni : na;
        ist[k] = ni == shape[k] ? indices->strides[k] : 0;
        ast[k] = k != *ax && na == shape[k] ? a->strides[k] : 0;
    }
    return 0;
}

/* The iteration space of take/put (`along`: take_along_axis/put_along_axis) over axis
 * `axis` of a: its rank *nd, its shape and the indices' and a's strides over it.
 * `result` names the space in the error for too many dimensions. */
static int index_space(const usmarr_array_t *a, const usmarr_array_t *indices, int axis, bool along,
                       const char *result, int *ax, int *nd, int64_t *shape, int64_t *ist, int64_t *ast)
{
    *nd = along ? a->ndim : a->ndim - 1 + indices->ndim;
    if (along)
        return along_space(a, indices, axis, ax, shape, ist, ast);
    int rc = usmarr__normalize_axis(axis, a->ndim, "axis", ax);
    if (!rc && *nd > USMARR_MAX_NDIM)
        rc = usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s would have %d dimensions, more than %d", result, *nd,
                          USMARR_MAX_NDIM);
    if (!rc)
        indexed_space(a, indices, *ax, shape, ist, ast);
    return rc;
}

/* The arguments take and take_along_axis share. */
static int check_take(const usmarr_array_t *a, const usmarr_array_t *indices, usmarr_index_mode_t mode)
{
    if (!a || !indices)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s is NULL", !a ? "a" : "indices");
    int rc = usmarr__same_context(indices, "indices", a, "a");
    if (!rc)
        rc = check_index_dtype(indices, "indices");
    return rc ? rc : check_mode(mode);
}

/* take and take_along_axis (`along`). */
static int take(const usmarr_array_t *a, const usmarr_array_t *indices, int axis, usmarr_index_mode_t mode,
                usmarr_array_t *out, usmarr_array_t **result, bool along)
{
    usmarr__clear_error();
    int rc = check_take(a, indices, mode);
    if (rc)
        return rc;
    if (axis == USMARR_AXIS_NONE) {
        usmarr_array_t *flat;
        if ((along && (rc = check_flat_indices(indices))) || (rc = flatten(a, &flat)))
            return rc;
        rc = take(flat, indices, 0, mode, out, result, along);
        usmarr_array_release(flat);
        return rc;
    }
    int ax, nd;
    int64_t shape[USMARR_MAX_NDIM], ist[USMARR_MAX_NDIM], ast[USMARR_MAX_NDIM];
    if ((rc = index_space(a, indices, axis, along, "the result", &ax, &nd, shape, ist, ast)))
        return rc;
    int64_t n = a->shape[ax];
    if (n == 0 && !along && usmarr_array_size(indices) > 0)
        return usmarr__fail(USMARR_ERROR_INDEX, "cannot take %lld elements from axis %d of size 0",
                            (long long)usmarr_array_size(indices), ax);
    if (n == 0 && along && shape[ax] > 0 && shape_size(nd, shape))
        return usmarr__fail(USMARR_ERROR_INDEX, "cannot take along axis %d of size 0", ax);
    return gather(a, indices, nd, shape, ist, ast, ax, mode, along ? "take_along_axis" : "take", !along, out, result);
}

int usmarr_take(const usmarr_array_t *a, const usmarr_array_t *indices, int axis, usmarr_index_mode_t mode,
                usmarr_array_t *out, usmarr_array_t **result)
{
    return take(a, indices, axis, mode, out, result, false);
}

int usmarr_take_along_axis(const usmarr_array_t *a, const usmarr_array_t *indices, int axis,
                           usmarr_index_mode_t mode, usmarr_array_t *out, usmarr_array_t **result)
{
    return take(a, indices, axis, mode, out, result, true);
}

int usmarr__repeat_by_take(const usmarr_array_t *a, const int64_t *repeats, int axis, int64_t total,
                           usmarr_array_t *out, usmarr_array_t **result)
{
    int64_t *host = malloc((size_t)(total ? total : 1) * sizeof *host);
    if (!host)
        return usmarr__fail(USMARR_ERROR_OUT_OF_HOST_MEMORY, "%lld repeat indices", (long long)total);
    int64_t j = 0;
    for (int64_t i = 0; i < a->shape[axis]; i++)
        for (int64_t r = 0; r < repeats[i]; r++)
            host[j++] = i;
    usmarr_array_t *ind;
    int rc = usmarr_array_from_host(a->memory->context, 1, &total, USMARR_INT64, host, NULL, USMARR_USM_DEVICE, &ind);
    free(host);
    if (rc)
        return rc;
    rc = usmarr_take(a, ind, axis, USMARR_INDEX_MODE_WRAP, out, result);
    usmarr_array_release(ind);
    return rc;
}

/* ---- put ------------------------------------------------------------------------------ */

static bool same_block(const usmarr_array_t *a, const usmarr_array_t *b)
{
    return a->memory == b->memory || (a->memory->pointer && a->memory->pointer == b->memory->pointer);
}

/* The scatter of a put, in NumPy's order: of the values written to one element, the one
 * whose index comes last in the indices' C order stays.  Work-items write in no order (a
 * GPU's do not; a CPU's threads do not either, over a large put), so it runs in two
 * passes: every item claims its target with an atomic maximum of its index's position (an
 * int32 per element of a's span, -1 before), then only the items that hold their target's
 * claim write.  ops: a's element (strides with the axis's 0), the indices, the values. */
static int ordered_scatter(usmarr_array_t *a, const usmarr_array_t *ind, int at, int nd, const int64_t *shape,
                           const struct usmarr__operand *ops, usmarr_index_mode_t mode, int ax)
{
    usmarr_context_t *ctx = a->memory->context;
    int64_t lo, hi, count = usmarr_array_size(ind), n = a->shape[ax];
    /* One index writes every target once, and one value (a scalar, broadcast) leaves every
     * order the same result: the one-pass scatter.  Positions past int32: the one-pass
     * scatter too, in no order. */
    bool one_value = true;
    for (int k = 0; k < nd; k++)
        one_value &= ops[2].strides[k] == 0 || shape[k] == 1;
    if (count <= 1 || count > INT32_MAX || one_value)
        return launch_index_map(ctx, "SCATTER", mode, ind, nd, shape, ops, 2, n, a->strides[ax], NULL);
    usmarr__array_span(a, &lo, &hi);
    usmarr_memory_t *owner = NULL;
    usmarr_array_t *pos = NULL;
    const int32_t unclaimed = -1;
    int rc = usmarr_memory_create(ctx, USMARR_USM_DEVICE, (size_t)(hi - lo + 1) * sizeof(int32_t), sizeof(int32_t),
                                  &owner);
    if (!rc)
        rc = usmarr_memory_fill(owner, 0, &unclaimed, sizeof unclaimed, (size_t)(hi - lo + 1) * sizeof(int32_t));
    if (!rc)
        rc = usmarr_array_arange(ctx, 0, (double)count, 1, USMARR_INT32, USMARR_USM_DEVICE, &pos);
    if (!rc) {
        /* claims[0]: the owners, laid out as a's elements; [1] the indices; [2] the positions,
         * the indices' C order over their dims of the iteration space */
        struct usmarr__operand claims[3] = {ops[0], ops[1], ops[1]}, writes[5] = {ops[0], ops[1], ops[2]};
        claims[0].data = (char *)owner->pointer - lo * (int64_t)sizeof(int32_t);
        claims[0].dtype = USMARR_INT32;
        claims[2].data = usmarr_array_data(pos);
        claims[2].dtype = USMARR_INT32;
        for (int64_t k = at + ind->ndim - 1, step = 1; k >= at; step *= ind->shape[k - at], k--)
            claims[2].strides[k] = ind->shape[k - at] == shape[k] ? step : 0;
        writes[3] = claims[0];
        writes[4] = claims[2];
        rc = launch_index_map(ctx, "SCATTER_CLAIM", mode, ind, nd, shape, claims, 2, n, a->strides[ax], NULL);
        if (!rc)
            rc = launch_index_map(ctx, "SCATTER_OWNED", mode, ind, nd, shape, writes, 4, n, a->strides[ax], NULL);
    }
    usmarr_array_release(pos); /* both wait for the passes that read them */
    usmarr_memory_release(owner);
    return rc;
}

/* The end both puts share (`along`: put_along_axis): values (broadcast to `shape`)
 * written where the indices point along a's axis `ax`, over an nd-dim space in which the
 * indices' dimensions stand at [at, at + indices->ndim) and a's strides are `ast`; with
 * the checks of the values' shape, an axis of size 0 and (raise mode) the indices first.
 * Inputs sharing a's block are read completely first (the copies have their own strides,
 * so the indices' are taken here). */
static int scatter(usmarr_array_t *a, const usmarr_array_t *indices, const usmarr_array_t *values, int ax, int at,
                   int nd, const int64_t *shape, const int64_t *ast, usmarr_index_mode_t mode, bool along)
{
    struct usmarr__operand ops[3];
    if (usmarr__operand_from_array(values, nd, shape, &ops[2])) {
        char s1[USMARR__SHAPE_BUF], s2[USMARR__SHAPE_BUF];
        return usmarr__fail(USMARR_ERROR_SHAPE_MISMATCH, "values of shape %s do not broadcast to %s %s",
                            usmarr__format_shape(values->ndim, values->shape, s1, sizeof s1),
                            along ? "the selection" : "the indexed shape", usmarr__format_shape(nd, shape, s2, sizeof s2));
    }
    int64_t n = a->shape[ax], total;
    int rc = usmarr__shape_size(nd, shape, &total);
    if (rc)
        return rc;
    if (n == 0 && total > 0)
        return usmarr__fail(USMARR_ERROR_INDEX, "cannot put %s axis %d of size 0", along ? "along" : "into", ax);
    if (mode == USMARR_INDEX_MODE_RAISE &&
        (rc = check_indices_on_device(indices, n, ax,
                                      along ? "put_along_axis: nothing was written" : "put: nothing was written")))
        return rc;
    if (total == 0)
        return 0;
    usmarr_array_t *vcopy = NULL, *icopy = NULL;
    if (same_block(values, a))
        rc = usmarr_array_copy(values, USMARR_ORDER_K, NULL, &vcopy);
    if (!rc && same_block(indices, a))
        rc = usmarr_array_copy(indices, USMARR_ORDER_K, NULL, &icopy);
    const usmarr_array_t *vals = vcopy ? vcopy : values, *ind = icopy ? icopy : indices;
    if (!rc)
        rc = usmarr__operand_from_array(vals, nd, shape, &ops[2]);
    if (!rc) {
        int64_t ist[USMARR_MAX_NDIM] = {0};
        for (int k = at; k < at + ind->ndim; k++)
            ist[k] = ind->shape[k - at] == shape[k] ? ind->strides[k - at] : 0;
        int dt = a->dtype;
        if (a->dtype == vals->dtype)
            dt = ops[2].dtype = usmarr__bits_dtype(usmarr_dtype_size(a->dtype));
        set_operand(&ops[0], a, dt, nd, ast);
        set_operand(&ops[1], ind, ind->dtype, nd, ist);
        rc = ordered_scatter(a, ind, at, nd, shape, ops, mode, ax);
    }
    usmarr_array_release(vcopy); /* waits for the scatter that reads it */
    usmarr_array_release(icopy);
    return rc;
}

static int put(usmarr_array_t *a, const usmarr_array_t *indices, const usmarr_array_t *values, int axis,
               usmarr_index_mode_t mode, bool along);

/* put (`along`: put_along_axis) along axis 0 of a's flat alias, written back into a when
 * the alias is a copy. */
static int put_on_flat_alias(usmarr_array_t *a, const usmarr_array_t *indices, const usmarr_array_t *values,
                             usmarr_index_mode_t mode, bool along)
{
    usmarr_array_t *flat, *tmp;
    int rc = flat_alias(a, &flat, &tmp);
    if (!rc)
        rc = put(flat, indices, values, 0, mode, along);
    if (!rc && tmp)
        rc = usmarr_array_copy_into(a, tmp);
    usmarr_array_release(flat);
    usmarr_array_release(tmp);
    return rc;
}

/* NumPy's flat put: indices and values flattened, values repeated to the indices' length. */
static int put_flat(usmarr_array_t *a, const usmarr_array_t *indices, const usmarr_array_t *values,
                    usmarr_index_mode_t mode)
{
    usmarr_array_t *flat_i = NULL, *flat_v = NULL, *vals = NULL;
    int64_t ni = usmarr_array_size(indices), nv = usmarr_array_size(values);
    int rc = flatten(indices, &flat_i);
    if (!rc)
        rc = flatten(values, &flat_v);
    if (rc || ni == 0 || nv == 0) /* NumPy: nothing to put */
        goto done;
    if (nv == ni) {
        vals = usmarr_array_retain(flat_v);
    } else if (nv == 1) { /* one value for every index: a broadcast (one scatter pass) */
        rc = usmarr_array_broadcast_to(flat_v, 1, &ni, &vals);
    } else {
        /* values repeated cyclically: a (reps, nv) broadcast of them, made dense and flat
         * (tile's way, without calling up into manip.c) */
        int64_t stop = ni, shape2[2] = {(ni + nv - 1) / nv, nv};
        usmarr_array_t *tiled = NULL, *wide = NULL, *dense = NULL;
        rc = usmarr_array_broadcast_to(flat_v, 2, shape2, &wide);
        if (!rc)
            rc = usmarr_array_copy(wide, USMARR_ORDER_C, NULL, &dense);
        if (!rc)
            rc = flatten(dense, &tiled);
        usmarr_array_release(dense);
        usmarr_array_release(wide);
        if (!rc) {
            usmarr_index_item_t item = usmarr_index_slice(NULL, &stop, NULL);
            rc = usmarr_array_index(tiled, &item, 1, &vals);
            usmarr_array_release(tiled);
        }
    }
    if (!rc) /* the indices were checked already */
        rc = put_on_flat_alias(a, flat_i, vals, mode == USMARR_INDEX_MODE_RAISE ? USMARR_INDEX_MODE_WRAP : mode, false);
done:
    usmarr_array_release(flat_i);
    usmarr_array_release(flat_v);
    usmarr_array_release(vals);
    return rc;
}

/* put and put_along_axis (`along`). */
static int put(usmarr_array_t *a, const usmarr_array_t *indices, const usmarr_array_t *values, int axis,
               usmarr_index_mode_t mode, bool along)
{
    usmarr__clear_error();
    int rc = check_put(a, indices, values, mode);
    if (rc)
        return rc;
    if (axis == USMARR_AXIS_NONE && along)
        return (rc = check_flat_indices(indices)) ? rc : put_on_flat_alias(a, indices, values, mode, true);
    if (axis == USMARR_AXIS_NONE) {
        int64_t size;
        if ((rc = usmarr__shape_size(a->ndim, a->shape, &size)))
            return rc;
        if (mode == USMARR_INDEX_MODE_RAISE && (rc = check_indices_on_device(indices, size, 0, "put: nothing was "
                                                                                                 "written")))
            return rc;
        return put_flat(a, indices, values, mode);
    }
    int ax, nd;
    int64_t shape[USMARR_MAX_NDIM], ist[USMARR_MAX_NDIM], ast[USMARR_MAX_NDIM];
    if ((rc = index_space(a, indices, axis, along, "the indexed shape", &ax, &nd, shape, ist, ast)))
        return rc;
    return scatter(a, indices, values, ax, along ? 0 : ax, nd, shape, ast, mode, along);
}

int usmarr_put(usmarr_array_t *a, const usmarr_array_t *indices, const usmarr_array_t *values, int axis,
               usmarr_index_mode_t mode)
{
    return put(a, indices, values, axis, mode, false);
}

int usmarr_put_along_axis(usmarr_array_t *a, const usmarr_array_t *indices, const usmarr_array_t *values, int axis,
                          usmarr_index_mode_t mode)
{
    return put(a, indices, values, axis, mode, true);
}

/* ---- shared with getitem.c (index_internal.h) -------------------------------------------- */

int usmarr__check_write(const usmarr_array_t *a, const usmarr_array_t *where, const char *where_name,
                        const usmarr_array_t *values)
{
    if (!a || !where || !values)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s is NULL", !a ? "a" : !where ? where_name : "values");
    int rc = usmarr__same_context(where, where_name, a, "a");
    if (!rc)
        rc = usmarr__same_context(values, "values", a, "a");
    return rc ? rc : usmarr__check_writable(a, "a");
}

static int check_put(const usmarr_array_t *a, const usmarr_array_t *indices, const usmarr_array_t *values,
                     usmarr_index_mode_t mode)
{
    int rc = usmarr__check_write(a, indices, "indices", values);
    if (!rc)
        rc = check_index_dtype(indices, "indices");
    if (!rc)
        rc = check_mode(mode);
    return rc;
}

int usmarr__index_cells_new(usmarr_context_t *ctx, usmarr_memory_t **cells) { return cells_new(ctx, cells); }

void usmarr__index_cells_operands(usmarr_memory_t *cells, const usmarr_array_t *ind, struct usmarr__operand *flag,
                                  struct usmarr__operand *value)
{
    cells_operands(cells, ind, flag, value);
}

int usmarr__index_cells_verdict(usmarr_memory_t *cells, const usmarr_array_t *ind, int64_t n, int axis,
                                const char *what)
{
    return cells_verdict(cells, ind, n, axis, what);
}

int usmarr__index_check(const usmarr_array_t *ind, int64_t n, int axis, const char *what)
{
    return check_indices_on_device(ind, n, axis, what);
}

int usmarr__index_map(usmarr_context_t *ctx, const char *op, usmarr_index_mode_t mode, const usmarr_array_t *ind,
                      int nd, const int64_t *shape, struct usmarr__operand *ops, int64_t n, int64_t stride,
                      usmarr_memory_t *cells)
{
    return launch_index_map(ctx, op, mode, ind, nd, shape, ops, 2, n, stride, cells);
}

/* ---- rows of a gather ---------------------------------------------------------------- */

int usmarr__take_rows(const usmarr_array_t *src, const usmarr_array_t *ind, int64_t istride, int64_t m,
                      usmarr_array_t *target, int64_t len, int64_t n, int64_t stride, usmarr_index_mode_t mode,
                      usmarr_memory_t *cells)
{
    usmarr_context_t *ctx = src->memory->context;
    bool uns = usmarr_dtype_kind(ind->dtype) == USMARR_KIND_UINT;
    int m_mode = mode == USMARR_INDEX_MODE_WRAP ? 0 : mode == USMARR_INDEX_MODE_CLIP ? 1 : 2;
    /* runs of 256 elements or more: along dimension 0 (usmarr_take_runs), 512 a work-item
     * where the device's copies run as 16-vectors (copyvec: 2048 rows of 2048 float32 took
     * 0.6-0.8 ms against 0.8-1.2 ms with 64 on the CPU devices), else 64 (not measured),
     * with non-temporal stores where the engine's copies have them (results of nt_bytes and
     * more, every row 64-byte aligned) */
    bool runs = len >= 256;
    size_t isz = usmarr_dtype_size(target->dtype), per = ctx->shape.copyvec ? 512 : 64;
    uintptr_t o = (uintptr_t)usmarr_array_data(target);
    bool nt = runs && ctx->shape.nt_bytes && (uint64_t)(m * len) * isz >= ctx->shape.nt_bytes && o % 64 == 0 &&
              len * isz % 64 == 0;
    char defines[128];
    snprintf(defines, sizeof defines, "-DIDX=%s -DELEM=%s -DMODE=%d -DIDX_UNSIGNED=%d -DCHECKED=%d -DTAKE_RUN=%zu%s",
             usmarr__dtype_tag(ind->dtype), usmarr__dtype_tag(usmarr__bits_dtype(isz)), m_mode, uns, cells != NULL,
             per, nt ? " -DTAKE_NT=1" : "");
    usmarr__kernel_t *k;
    int rc = usmarr__kernel_get(ctx, "index", defines, runs ? "usmarr_take_runs" : "usmarr_take_rows", &k);
    if (rc)
        return rc;
    cl_long cm = m, cistride = istride, run = len, cn = n, cstride = stride;
    size_t chunks = ((size_t)len + per - 1) / per, group = chunks < 32 ? (chunks + 3) / 4 * 4 : 32;
    /* work-groups of about 32 items, several rows where a row has few runs (rows of 2048
     * float32: 8 rows of 4 items took 0.6-0.9 ms against 1.0-1.3 ms in groups of one row
     * on both devices, interleaved under load) */
    size_t rowsper = runs && ctx->shape.copyvec && group < 32 ? 32 / group : 1;
    size_t local[2] = {runs ? group : 64, rowsper};
    size_t global[2] = {runs ? (chunks + group - 1) / group * group : ((size_t)m + 63) / 64 * 64,
                        ((size_t)m + rowsper - 1) / rowsper * rowsper};
    /* the cells are unused without CHECKED, but every argument must be set */
    const struct usmarr__karg args[] = {
        USMARR__ARG_PTR(usmarr_array_data(target)), USMARR__ARG_PTR(usmarr_array_data(ind)),
        USMARR__ARG(cistride),                      USMARR__ARG_PTR(usmarr_array_data(src)),
        USMARR__ARG(cm),                            USMARR__ARG(run),
        USMARR__ARG(cn),                            USMARR__ARG(cstride),
        USMARR__ARG_PTR(cells ? cells->pointer : NULL)};
    return usmarr__kernel_launch(ctx, k, USMARR__NARGS(args), args, runs ? 2 : 1, global, local);
}
