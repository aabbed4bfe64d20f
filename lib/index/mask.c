/* Boolean masks: extract, place, nonzero.  Kernels: cl/index.cl (a work-item per chunk),
 * or in the gpu shape cl/compact.cl (a work-group per chunk, the same arguments).
 *
 * The masks are flattened in C order and cut into chunks: count per chunk, an exclusive
 * scan on the device, then each chunk writes its selections at its offset.  extract and
 * nonzero do not know their output size until the scan ran: they allocate an upper bound
 * from a pod block (lib/core/pod.c), let the kernels write into it, read the total once,
 * resize and finalize it, and return arrays over the finalized block. */
#include "index_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MASK_CHUNK 2048
#define COMPACT_V 8 /* elements per work-item of a chunk in the gpu shape (cl/compact.cl CP_V) */

static void *block_at(const usmarr_memory_t *m, size_t byte_offset)
{
    return m->pointer ? (char *)m->pointer + byte_offset : NULL;
}

/* ---- boolean masks --------------------------------------------------------------------- */

struct mask_run {
    usmarr_context_t *ctx;
    const usmarr_array_t *cond; /* C-contiguous */
    int64_t n, nchunks, chunk;
    size_t group; /* the gpu shape's work-group per chunk (cl/compact.cl), else 0 */
    char defines[96];
    usmarr_memory_t *counts; /* nchunks + 1 int64: offsets after the scan, then the total */
};

/* The kernel usmarr_mask_<what> (cl/index.cl), or usmarr_compact_<what> (cl/compact.cl). */
static int mask_kernel(struct mask_run *r, const char *what, usmarr__kernel_t **k)
{
    char name[48];
    snprintf(name, sizeof name, "usmarr_%s_%s", r->group ? "compact" : "mask", what);
    return usmarr__kernel_get(r->ctx, r->group ? "index+groupscan+compact" : "index", r->defines, name, k);
}

/* One work-item per chunk, or one work-group in the gpu shape. */
static int launch_chunks(struct mask_run *r, usmarr__kernel_t *k, int nargs, const struct usmarr__karg *args)
{
    size_t local = r->group ? r->group : 64;
    size_t global = r->group ? (size_t)r->nchunks * r->group : ((size_t)r->nchunks + local - 1) / local * local;
    return usmarr__kernel_launch(r->ctx, k, nargs, args, 1, &global, &local);
}

/* Count + scan: offsets of every chunk, on the device. */
static int mask_prepare(struct mask_run *r, const usmarr_array_t *cond, usmarr_dtype_t elem_dtype)
{
    r->ctx = cond->memory->context;
    r->cond = cond;
    r->n = usmarr_array_size(cond);
    r->group = r->ctx->shape.scan_group;
    r->chunk = r->group ? (int64_t)r->group * COMPACT_V : MASK_CHUNK;
    r->nchunks = (r->n + r->chunk - 1) / r->chunk;
    int len = snprintf(r->defines, sizeof r->defines, "-DCOND=%s -DELEM=%s", usmarr__dtype_tag(cond->dtype),
                       usmarr__dtype_tag(usmarr__bits_dtype(usmarr_dtype_size(elem_dtype))));
    if (r->group)
        snprintf(r->defines + len, sizeof r->defines - (size_t)len, " -DSCAN_G=%zu", r->group);
    int rc = usmarr_memory_create(r->ctx, USMARR_USM_DEVICE, (size_t)(r->nchunks + 1) * 8, 0, &r->counts);
    if (rc)
        return rc;
    if (r->n == 0) {
        int64_t zero = 0;
        return usmarr_memory_copy_from_host(r->counts, 0, &zero, 8);
    }
    usmarr__kernel_t *count, *scan;
    if ((rc = mask_kernel(r, "count", &count)) || (rc = mask_kernel(r, "scan", &scan)))
        return rc;
    cl_long n = r->n, chunk = r->chunk, nchunks = r->nchunks;
    const struct usmarr__karg count_args[] = {USMARR__ARG_PTR(usmarr_array_data(cond)), USMARR__ARG(n),
                                              USMARR__ARG(chunk), USMARR__ARG(nchunks),
                                              USMARR__ARG_PTR(r->counts->pointer)};
    const struct usmarr__karg scan_args[] = {USMARR__ARG_PTR(r->counts->pointer), USMARR__ARG(nchunks)};
    size_t one = r->group ? r->group : 1;
    rc = launch_chunks(r, count, USMARR__NARGS(count_args), count_args);
    if (!rc)
        rc = usmarr__kernel_launch(r->ctx, scan, USMARR__NARGS(scan_args), scan_args, 1, &one, &one);
    return rc;
}

static int mask_total(struct mask_run *r, int64_t *total)
{
    return usmarr_memory_copy_to_host(r->counts, (size_t)r->nchunks * 8, total, 8); /* waits */
}

/* Enqueues the chunk kernel `name` (extract, nonzero, place) whose arguments are (cond,
 * [src,] n, chunk, nchunks, offsets, dst, [vals, nvals]). */
static int mask_launch(struct mask_run *r, const char *name, const void *src, void *dst, const void *vals,
                       int64_t nvals)
{
    if (r->n == 0)
        return 0;
    usmarr__kernel_t *k;
    int rc = mask_kernel(r, name, &k);
    if (rc)
        return rc;
    cl_long n = r->n, chunk = r->chunk, nchunks = r->nchunks, nv = nvals;
    struct usmarr__karg args[9];
    int nargs = 0;
    args[nargs++] = USMARR__ARG_PTR(usmarr_array_data(r->cond));
    if (src)
        args[nargs++] = USMARR__ARG_PTR(src);
    args[nargs++] = USMARR__ARG(n);
    args[nargs++] = USMARR__ARG(chunk);
    args[nargs++] = USMARR__ARG(nchunks);
    args[nargs++] = USMARR__ARG_PTR(r->counts->pointer);
    args[nargs++] = USMARR__ARG_PTR(dst);
    if (vals) {
        args[nargs++] = USMARR__ARG_PTR(vals);
        args[nargs++] = USMARR__ARG(nv);
    }
    return launch_chunks(r, k, nargs, args);
}

/* `a` itself when C-contiguous, else a C-ordered copy. */
static int c_contiguous(const usmarr_array_t *a, usmarr_array_t **out)
{
    if (a->flags & USMARR_FLAG_C_CONTIGUOUS) {
        *out = usmarr_array_retain((usmarr_array_t *)a);
        return 0;
    }
    return usmarr_array_copy(a, USMARR_ORDER_C, NULL, out);
}

static int check_same_shape(const usmarr_array_t *mask, const char *mname, const usmarr_array_t *a)
{
    bool same = mask->ndim == a->ndim;
    for (int k = 0; same && k < a->ndim; k++)
        same = mask->shape[k] == a->shape[k];
    if (same)
        return 0;
    char s1[USMARR__SHAPE_BUF], s2[USMARR__SHAPE_BUF];
    return usmarr__fail(USMARR_ERROR_SHAPE_MISMATCH, "%s of shape %s and a of shape %s must have the same shape", mname,
                        usmarr__format_shape(mask->ndim, mask->shape, s1, sizeof s1),
                        usmarr__format_shape(a->ndim, a->shape, s2, sizeof s2));
}

static usmarr_usm_kind_t kind_of(const usmarr_array_t *a)
{
    return a->memory->kind == USMARR_USM_UNKNOWN ? USMARR_USM_DEVICE : a->memory->kind;
}

int usmarr_extract(const usmarr_array_t *condition, const usmarr_array_t *a, usmarr_array_t **result)
{
    usmarr__clear_error();
    if (!condition || !a || !result)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s is NULL", !condition ? "condition" : !a ? "a" : "result");
    int rc = usmarr__same_context(condition, "condition", a, "a");
    if (!rc)
        rc = check_same_shape(condition, "condition", a);
    if (rc)
        return rc;
    usmarr_array_t *cond = NULL, *src = NULL;
    usmarr_memory_t *pod = NULL;
    struct mask_run r = {0};
    size_t itemsize = usmarr_dtype_size(a->dtype), begin = 0, end = 0;
    int64_t total = 0;
    if ((rc = c_contiguous(condition, &cond)) || (rc = c_contiguous(a, &src)))
        goto done;
    /* The upper bound: every element selected. */
    rc = usmarr_memory_create_pod(a->memory->context, kind_of(a), 0, &pod);
    if (!rc)
        rc = usmarr_memory_pod_allocate(pod, (size_t)usmarr_array_size(a) * itemsize, itemsize, &begin, &end);
    if (!rc)
        rc = mask_prepare(&r, cond, a->dtype);
    if (!rc)
        rc = mask_launch(&r, "extract", usmarr_array_data(src), block_at(pod, begin), NULL, 0);
    if (!rc)
        rc = mask_total(&r, &total);
    if (!rc)
        rc = usmarr_memory_pod_resize(pod, (size_t)total * itemsize, &begin, &end);
    if (!rc)
        rc = usmarr_memory_pod_finalize(pod);
    if (!rc)
        rc = usmarr__array_new(pod, a->dtype, 1, &total, NULL, (int64_t)(begin / itemsize), USMARR_FLAG_WRITABLE,
                               result);
done:
    usmarr_memory_release(r.counts);
    usmarr_memory_release(pod);
    usmarr_array_release(cond);
    usmarr_array_release(src);
    return rc;
}

int usmarr_nonzero(const usmarr_array_t *a, usmarr_array_t **indices)
{
    usmarr__clear_error();
    if (!a || !indices)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s is NULL", !a ? "a" : "indices");
    if (a->ndim == 0)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "a is 0-d: nonzero needs at least one dimension");
    int nd = a->ndim, rc;
    usmarr_array_t *cond = NULL;
    usmarr_memory_t *pod = NULL;
    struct mask_run r = {0};
    size_t begin = 0, end = 0;
    int64_t total = 0, n = usmarr_array_size(a);
    if ((rc = c_contiguous(a, &cond)))
        goto done;
    rc = usmarr_memory_create_pod(a->memory->context, kind_of(a), 0, &pod);
    if (!rc)
        rc = usmarr_memory_pod_allocate(pod, (size_t)n * 8, 8, &begin, &end); /* flat indices, upper bound */
    if (!rc)
        rc = mask_prepare(&r, cond, USMARR_INT64);
    if (!rc)
        rc = mask_launch(&r, "nonzero", NULL, block_at(pod, begin), NULL, 0);
    if (!rc)
        rc = mask_total(&r, &total);
    /* Shrink to the flat indices, then grow to one row per dimension (may move). */
    if (!rc)
        rc = usmarr_memory_pod_resize(pod, (size_t)total * 8, &begin, &end);
    if (!rc && nd > 1)
        rc = usmarr_memory_pod_resize(pod, (size_t)total * 8 * (size_t)nd, &begin, &end);
    if (!rc && nd > 1 && total > 0) {
        /* Row k = (flat / prod(shape[k+1:])) % shape[k]; row 0 (the flat indices) last. */
        int64_t div[USMARR_MAX_NDIM], d = 1;
        for (int k = nd - 1; k >= 0; k--) {
            div[k] = d;
            d *= a->shape[k];
        }
        int64_t *base = block_at(pod, begin);
        for (int k = nd - 1; k >= 0 && !rc; k--) {
            struct usmarr__map m = usmarr__map_init("index", "-DOP_UNRAVEL -DMODE=2 -DIDX_UNSIGNED=0", 1, 1);
            m.flags = USMARR__MAP_NO_TILE;
            m.ndim = 1;
            m.shape[0] = total;
            m.operands[0].data = base + (int64_t)k * total;
            m.operands[0].dtype = USMARR_INT64;
            m.operands[0].strides[0] = 1;
            m.operands[1].data = base;
            m.operands[1].dtype = USMARR_INT64;
            m.operands[1].strides[0] = 1;
            m.nscalars = 2;
            rc = usmarr__scalar_arg_int64(&m.scalars[0], div[k]);
            if (!rc)
                rc = usmarr__scalar_arg_int64(&m.scalars[1], a->shape[k]);
            if (!rc)
                rc = usmarr__map_launch(r.ctx, &m);
        }
    }
    if (!rc)
        rc = usmarr_memory_pod_finalize(pod);
    for (int k = 0; k < nd && !rc; k++) {
        int64_t one = 1;
        rc = usmarr__array_new(pod, USMARR_INT64, 1, &total, &one, (int64_t)(begin / 8) + k * total,
                               USMARR_FLAG_WRITABLE, &indices[k]);
        if (rc)
            while (k-- > 0) {
                usmarr_array_release(indices[k]);
                indices[k] = NULL;
            }
    }
done:
    usmarr_memory_release(r.counts);
    usmarr_memory_release(pod);
    usmarr_array_release(cond);
    return rc;
}

int usmarr_place(usmarr_array_t *a, const usmarr_array_t *mask, const usmarr_array_t *values)
{
    usmarr__clear_error();
    int rc = usmarr__check_write(a, mask, "mask", values);
    if (!rc)
        rc = check_same_shape(mask, "mask", a);
    if (rc)
        return rc;
    usmarr_array_t *cond = NULL, *dst = NULL, *vals = NULL, *flat_v = NULL;
    struct mask_run r = {0};
    int64_t nv = usmarr_array_size(values), total = 0, minus_one = -1;
    if ((rc = c_contiguous(mask, &cond)))
        goto done;
    if ((rc = mask_prepare(&r, cond, a->dtype)))
        goto done;
    if (nv == 0) { /* NumPy: fine when nothing is selected, an error otherwise */
        if (!(rc = mask_total(&r, &total)) && total > 0)
            rc = usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "values is empty but the mask selects %lld elements",
                              (long long)total);
        goto done;
    }
    /* values: flattened, converted to a's dtype, never sharing a's memory. */
    if ((rc = usmarr_array_reshape(values, 1, &minus_one, USMARR_ORDER_C, USMARR_COPY_IF_NEEDED, &flat_v)) ||
        (rc = usmarr_array_astype(flat_v, a->dtype, USMARR_ORDER_C, NULL, &vals)))
        goto done;
    if (a->flags & USMARR_FLAG_C_CONTIGUOUS)
        dst = usmarr_array_retain(a);
    else if ((rc = usmarr_array_copy(a, USMARR_ORDER_C, NULL, &dst)))
        goto done;
    rc = mask_launch(&r, "place", NULL, usmarr_array_data(dst), usmarr_array_data(vals), nv);
    if (!rc && dst != a)
        rc = usmarr_array_copy_into(a, dst);
done:
    usmarr_memory_release(r.counts);
    usmarr_array_release(cond);
    usmarr_array_release(dst);
    usmarr_array_release(vals);
    usmarr_array_release(flat_v);
    return rc;
}
