/* Copy plans: a fixed list of same-dtype copies laid out once as a table of 3-D boxes
 * (cl/boxes.cl) and run as one kernel per eight memory blocks. */
#include "engine_internal.h"

#include <stdlib.h>
#include <string.h>

#define MAX_BASES 8         /* pointer arguments of usmarr_copy_boxes */
#define ITEM_BYTES 2048     /* what one work-item copies: enough to hide its set-up */
#define GROUP 16            /* reqd_work_group_size of usmarr_copy_boxes */

/* cl/boxes.cl's usmarr_box, field for field. */
struct box {
    cl_long first_item, bases, dst_offset, src_offset, itemsize;
    cl_long shape[3], dst_strides[3], src_strides[3];
    cl_long seg, nseg, rows_per_item;
};

/* One kernel launch: boxes [first, first + count) of the table over these bases. */
struct launch {
    int first, count;
    cl_long nitems;
    int nbases;
    void *bases[MAX_BASES];
};

struct usmarr_copy_plan {
    atomic_int refcount;
    usmarr_context_t *context;
    int count;
    usmarr_array_t **arrays; /* destinations, then sources: references held */
    usmarr_memory_t *table;
    usmarr__kernel_t *kernel;
    int nlaunches;
    struct launch *launches;
};

static int check_pair(usmarr_context_t *ctx, int i, const usmarr_array_t *dst, const usmarr_array_t *src)
{
    char name[48];
    snprintf(name, sizeof name, "destinations[%d]", i);
    if (!dst || !src)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s[%d] is NULL", dst ? "sources" : "destinations", i);
    if (dst->memory->context != ctx || src->memory->context != ctx)
        return usmarr__fail(USMARR_ERROR_CONTEXT_MISMATCH, "%s[%d] belongs to another context than the plan",
                            dst->memory->context != ctx ? "destinations" : "sources", i);
    int rc = usmarr__check_writable(dst, name);
    if (rc)
        return rc;
    if (dst->dtype != src->dtype)
        return usmarr__fail(USMARR_ERROR_BAD_DTYPE, "pair %d: destination %s, source %s", i,
                            usmarr_dtype_name(dst->dtype), usmarr_dtype_name(src->dtype));
    if (dst->ndim != src->ndim || memcmp(dst->shape, src->shape, sizeof(int64_t) * (size_t)dst->ndim))
        return usmarr__fail(USMARR_ERROR_SHAPE_MISMATCH, "pair %d: the destination's and the source's shapes differ",
                            i);
    return 0;
}

/* The box of one pair (bases left to the caller); USMARR_ERROR_UNSUPPORTED beyond 3 axes. */
static int describe(int i, const usmarr_array_t *dst, const usmarr_array_t *src, struct box *b, cl_long *nitems)
{
    struct usmarr__iter it = {.ndim = dst->ndim, .nops = 2};
    memcpy(it.shape, dst->shape, sizeof(int64_t) * (size_t)dst->ndim);
    memcpy(it.strides[0], dst->strides, sizeof(int64_t) * (size_t)dst->ndim);
    memcpy(it.strides[1], src->strides, sizeof(int64_t) * (size_t)dst->ndim);
    usmarr__simplify(&it);
    if (it.ndim > 3)
        return usmarr__fail(USMARR_ERROR_UNSUPPORTED, "pair %d needs %d axes after merging (at most 3)", i, it.ndim);
    cl_long size = (cl_long)usmarr_dtype_size(dst->dtype);
    memset(b, 0, sizeof *b);
    b->itemsize = size;
    b->dst_offset = (dst->offset + it.offsets[0]) * size;
    b->src_offset = (src->offset + it.offsets[1]) * size;
    for (int k = 0; k < 3; k++) { /* right-aligned: leading axes of one element */
        int d = k - (3 - it.ndim);
        b->shape[k] = d >= 0 ? it.shape[d] : 1;
        b->dst_strides[k] = d >= 0 ? it.strides[0][d] * size : 0;
        b->src_strides[k] = d >= 0 ? it.strides[1][d] * size : 0;
    }
    cl_long rows = b->shape[0] * b->shape[1], row_bytes = b->shape[2] * size;
    if (row_bytes > ITEM_BYTES) { /* long rows are cut into segments */
        b->seg = ITEM_BYTES / size > 0 ? ITEM_BYTES / size : 1;
        b->nseg = (b->shape[2] + b->seg - 1) / b->seg;
        b->rows_per_item = 1;
        *nitems = rows * b->nseg;
    } else { /* short rows are grouped */
        b->seg = b->shape[2];
        b->nseg = 1;
        b->rows_per_item = ITEM_BYTES / row_bytes;
        *nitems = (rows + b->rows_per_item - 1) / b->rows_per_item;
    }
    return 0;
}

/* The index of `pointer` among the launch's bases, added if there is room; -1 if not. */
static int base_index(struct launch *l, void *pointer)
{
    for (int k = 0; k < l->nbases; k++)
        if (l->bases[k] == pointer)
            return k;
    if (l->nbases == MAX_BASES)
        return -1;
    l->bases[l->nbases] = pointer;
    return l->nbases++;
}

/* Boxes and launches of every non-empty pair; the table goes to device USM. */
static int lay_out(usmarr_copy_plan_t *p)
{
    struct box *boxes = calloc((size_t)(p->count ? p->count : 1), sizeof *boxes);
    p->launches = calloc((size_t)(p->count ? p->count : 1), sizeof *p->launches);
    if (!boxes || !p->launches) {
        free(boxes);
        return usmarr__fail(USMARR_ERROR_OUT_OF_HOST_MEMORY, "a copy plan of %d pairs", p->count);
    }
    int rc = 0, nboxes = 0;
    struct launch *l = NULL;
    for (int i = 0; !rc && i < p->count; i++) {
        const usmarr_array_t *dst = p->arrays[i], *src = p->arrays[p->count + i];
        cl_long nitems = 0;
        if (usmarr_array_size(dst) == 0)
            continue;
        struct box *b = &boxes[nboxes];
        rc = describe(i, dst, src, b, &nitems);
        if (rc)
            break;
        struct launch saved = l ? *l : (struct launch){0};
        int d = l ? base_index(l, dst->memory->pointer) : -1, s = d >= 0 ? base_index(l, src->memory->pointer) : -1;
        if (s < 0) { /* this launch's bases are full: the pair starts the next one */
            if (l)
                *l = saved;
            l = &p->launches[p->nlaunches++];
            l->first = nboxes;
            d = base_index(l, dst->memory->pointer);
            s = base_index(l, src->memory->pointer);
        }
        b->bases = d | s << 8;
        b->first_item = l->nitems;
        l->nitems += nitems;
        l->count++;
        nboxes++;
    }
    if (!rc && nboxes) {
        size_t bytes = sizeof *boxes * (size_t)nboxes;
        rc = usmarr_memory_create(p->context, USMARR_USM_DEVICE, bytes, 64, &p->table);
        if (!rc)
            rc = usmarr_memory_copy_from_host(p->table, 0, boxes, bytes);
    }
    free(boxes);
    return rc;
}

void usmarr_copy_plan_release(usmarr_copy_plan_t *p)
{
    if (!USMARR__RELEASE_LAST(p))
        return;
    for (int i = 0; p->arrays && i < 2 * p->count; i++)
        usmarr_array_release(p->arrays[i]);
    free(p->arrays);
    usmarr_memory_release(p->table);
    free(p->launches);
    free(p);
}

usmarr_copy_plan_t *usmarr_copy_plan_retain(usmarr_copy_plan_t *p) { return USMARR__RETAIN(p); }

int usmarr_copy_plan_create(usmarr_context_t *context, int count, usmarr_array_t *const *destinations,
                            const usmarr_array_t *const *sources, usmarr_copy_plan_t **plan)
{
    usmarr__clear_error();
    if (plan)
        *plan = NULL;
    if (!context || !plan)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s is NULL", context ? "plan" : "context");
    if (count < 0)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "count=%d is negative", count);
    if (count > 0 && (!destinations || !sources))
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s is NULL", destinations ? "sources" : "destinations");
    for (int i = 0; i < count; i++) {
        int rc = check_pair(context, i, destinations[i], sources[i]);
        if (rc)
            return rc;
    }
    usmarr_copy_plan_t *p = calloc(1, sizeof *p);
    if (!p || !(p->arrays = calloc((size_t)(2 * count + 1), sizeof *p->arrays))) {
        free(p);
        return usmarr__fail(USMARR_ERROR_OUT_OF_HOST_MEMORY, "a copy plan of %d pairs", count);
    }
    usmarr__ref_init(&p->refcount);
    p->context = context;
    p->count = count;
    for (int i = 0; i < count; i++) {
        p->arrays[i] = usmarr_array_retain(destinations[i]);
        p->arrays[count + i] = usmarr_array_retain((usmarr_array_t *)sources[i]);
    }
    int rc = lay_out(p);
    if (!rc && p->nlaunches)
        rc = usmarr__kernel_get(context, "boxes", NULL, "usmarr_copy_boxes", &p->kernel);
    if (rc) {
        usmarr_copy_plan_release(p);
        return rc;
    }
    *plan = p;
    return 0;
}

int usmarr_copy_plan_run(usmarr_copy_plan_t *p)
{
    usmarr__clear_error();
    if (!p)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "plan is NULL");
    int rc = 0;
    for (int i = 0; !rc && i < p->nlaunches; i++) {
        const struct launch *l = &p->launches[i];
        cl_long nboxes = l->count;
        size_t local = GROUP, global = ((size_t)l->nitems + GROUP - 1) / GROUP * GROUP;
        struct usmarr__karg args[3 + MAX_BASES] = {
            USMARR__ARG_PTR((struct box *)p->table->pointer + l->first), USMARR__ARG(nboxes), USMARR__ARG(l->nitems)};
        for (int k = 0; k < MAX_BASES; k++) /* unused bases get the engine's stand-in */
            args[3 + k] = USMARR__ARG_PTR(k < l->nbases ? l->bases[k] : NULL);
        rc = usmarr__kernel_launch(p->context, p->kernel, USMARR__NARGS(args), args, 1, &global, &local);
    }
    return rc;
}
