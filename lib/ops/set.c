/* The array API's set functions (unique_values, unique_counts, unique_inverse, unique_all)
 * and isin, on keys sorted by lib/ops/sort.c and the set kernels of cl/sort.cl, or for
 * integers of a short range on tables (cl/tally.cl, cl/lookup.cl).  Results of
 * data-dependent size are written into pod blocks sized for every element distinct, then
 * trimmed to the number found (as extract does).  User documentation: doc/ops.md. */
#include "ops_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define UNIQUE_CHUNK 65536 /* sorted keys per work-item in the head count and the write */
#define GROUP_KEYS 8       /* the gpu shape's keys per work-item of a chunk (cl/radix.cl GR_V) */
#define LOOKUP_KEYS (1 << 20)  /* isin: the most test elements read to the host for a table */
#define LOOKUP_RANGE (1 << 22) /* isin: the longest table of flags */
#define TALLY_RANGE (1 << 22)  /* unique: the longest table of counts */
#define TALLY_SPARSE 4         /* ... and at most this many entries per element */
#define TALLY_SPARSE_MIN 65536 /* ... plus these (a 16-bit dtype's whole range) */
#define TALLY_TABLES (1 << 23) /* unique: entries of the chunks' tables together */

static usmarr_usm_kind_t kind_of(const usmarr_array_t *a)
{
    return a->memory->kind == USMARR_USM_UNKNOWN ? USMARR_USM_DEVICE : a->memory->kind;
}

static int empty_1d(const usmarr_array_t *like, usmarr_dtype_t dtype, usmarr_array_t **out)
{
    int64_t zero = 0;
    return usmarr__array_empty_like_layout(like->memory->context, dtype, 1, &zero, USMARR_ORDER_C, kind_of(like), out);
}

/* A pod block with room for `bytes`; *at is where the allocation starts. */
struct pod_result {
    usmarr_memory_t *pod;
    size_t begin, end, itemsize;
};

static int pod_open(usmarr_context_t *ctx, usmarr_usm_kind_t kind, size_t itemsize, int64_t n, struct pod_result *p)
{
    p->itemsize = itemsize;
    int rc = usmarr_memory_create_pod(ctx, kind, 0, &p->pod);
    if (!rc)
        rc = usmarr_memory_pod_allocate(p->pod, (size_t)n * itemsize, itemsize, &p->begin, &p->end);
    return rc;
}

static void *pod_pointer(const struct pod_result *p)
{
    return (char *)usmarr_memory_pointer(p->pod) + p->begin;
}

/* Trims the block to `total` elements and makes the 1-d result over it. */
static int pod_close(struct pod_result *p, usmarr_dtype_t dtype, int64_t total, usmarr_array_t **out)
{
    int rc = usmarr_memory_pod_resize(p->pod, (size_t)total * p->itemsize, &p->begin, &p->end);
    if (!rc)
        rc = usmarr_memory_pod_finalize(p->pod);
    if (!rc)
        rc = usmarr__array_new(p->pod, dtype, 1, &total, NULL, (int64_t)(p->begin / p->itemsize), USMARR_FLAG_WRITABLE,
                               out);
    return rc;
}

/* `items` work-items of cl/sort.cl's kernel `name` in groups of 64 (one alone), or
 * (group > 0) as many work-groups of cl/radix.cl's usmarr_g<name without "usmarr_">; in the
 * gpu shape from the program of sort.cl, groupscan.cl and radix.cl (one program for the
 * sort and the set kernels).  Its arguments `args`. */
static int launch(usmarr_context_t *ctx, const char *defines, const char *name, int nargs,
                  const struct usmarr__karg *args, size_t items, size_t group)
{
    usmarr__kernel_t *k;
    char gname[64];
    snprintf(gname, sizeof gname, "usmarr_g%s", name + strlen("usmarr_"));
    const char *family = ctx->shape.scan_group ? "sort+groupscan+radix" : "sort";
    int rc = usmarr__kernel_get(ctx, family, defines, group ? gname : name, &k);
    size_t local = group ? group : items == 1 ? 1 : 64;
    size_t global = group ? items * group : (items + local - 1) / local * local;
    return rc ? rc : usmarr__kernel_launch(ctx, k, nargs, args, 1, &global, &local);
}

/* The unique functions' results (values, first indices, inverse, counts) to the caller's
 * pointers that ask for them, or, after a failure (rc), released; returns rc. */
static int hand_over(int rc, usmarr_array_t *const got[4], usmarr_array_t **values, usmarr_array_t **indices,
                     usmarr_array_t **inverse, usmarr_array_t **counts)
{
    usmarr_array_t **want[4] = {values, indices, inverse, counts};
    for (int i = 0; i < 4; i++) {
        if (rc || !want[i])
            usmarr_array_release(got[i]);
        else
            *want[i] = got[i];
    }
    return rc;
}

/* A work-item per chunk of `items`, groups of one (every chunk on a core of its own), or
 * per element in groups of 64 (`per_element`): a kernel of cl/tally.cl. */
static int launch_tally(usmarr_context_t *ctx, const char *defines, const char *name, int nargs,
                        const struct usmarr__karg *args, size_t items, bool per_element)
{
    usmarr__kernel_t *k;
    size_t local = per_element ? 64 : 1, global = (items + local - 1) / local * local;
    int rc = usmarr__kernel_get(ctx, "sort+tally", defines, name, &k);
    return rc ? rc : usmarr__kernel_launch(ctx, k, nargs, args, 1, &global, &local);
}

/* x's smallest (largest) element, an integer or bool, sign-extended where signed: the
 * reductions' min (max), whose vector loops read 16 MB in about 0.2-0.3 ms. */
static int extreme(const usmarr_array_t *x, bool largest, bool is_signed, uint64_t *value)
{
    usmarr_array_t *r = NULL;
    union {
        uint8_t u8;
        uint16_t u16;
        uint32_t u32;
        uint64_t u64;
    } b = {.u64 = 0};
    int rc = largest ? usmarr_max(x, 0, NULL, false, NULL, &r) : usmarr_min(x, 0, NULL, false, NULL, &r);
    if (!rc)
        rc = usmarr_array_copy_to_host(r, &b, NULL);
    usmarr_array_release(r);
    switch (usmarr_dtype_size(x->dtype)) {
    case 1: *value = is_signed ? (uint64_t)(int64_t)(int8_t)b.u8 : b.u8; break;
    case 2: *value = is_signed ? (uint64_t)(int64_t)(int16_t)b.u16 : b.u16; break;
    case 4: *value = is_signed ? (uint64_t)(int64_t)(int32_t)b.u32 : b.u32; break;
    default: *value = b.u64; break;
    }
    return rc;
}

/* The unique functions of integers (or bools) whose values span
 * at most TALLY_RANGE (and at most TALLY_SPARSE per element, plus TALLY_SPARSE_MIN): a
 * table of counts, one per chunk of x, summed and compacted (cl/tally.cl), as NumPy 2
 * counts where the library would sort.  x's smallest and largest value come first.  In the
 * CPU shape: its chunks are a few work-items, and the gpu shape's sort runs in
 * work-groups.  *used stays false, with nothing returned, where the table does not apply. */
static int unique_table(const usmarr_array_t *x, usmarr_array_t **values, usmarr_array_t **indices,
                        usmarr_array_t **inverse, usmarr_array_t **counts, bool *used)
{
    *used = false;
    usmarr_kind_t kind = usmarr_dtype_kind(x->dtype);
    int64_t n = usmarr_array_size(x);
    usmarr_context_t *ctx = x->memory->context;
    if ((kind != USMARR_KIND_INT && kind != USMARR_KIND_UINT && kind != USMARR_KIND_BOOL) || n == 0 ||
        n > (int64_t)UINT32_MAX || ctx->shape.scan_group)
        return 0;
    bool is_signed = kind == USMARR_KIND_INT;
    usmarr_array_t *xc = NULL, *v = NULL, *first = NULL, *inv = NULL, *cnt = NULL;
    usmarr_memory_t *table = NULL, *heads = NULL;
    struct pod_result pv = {0}, pf = {0}, pc = {0};
    int64_t units = ctx->profile.compute_units ? (int64_t)ctx->profile.compute_units : 1;
    int64_t chunk = (n + 4 * units - 1) / (4 * units), total = 0;
    chunk = chunk < UNIQUE_CHUNK ? UNIQUE_CHUNK : chunk;
    cl_long ln = n, lchunks = (n + chunk - 1) / chunk;
    uint64_t lo, hi;
    char defines[48];
    snprintf(defines, sizeof defines, "-DW=%zu -DKIND=%d", usmarr_dtype_size(x->dtype) * 8, is_signed);
    int rc = extreme(x, false, is_signed, &lo);
    if (!rc)
        rc = extreme(x, true, is_signed, &hi);
    if (!rc && !(x->flags & USMARR_FLAG_C_CONTIGUOUS))
        rc = usmarr_array_copy(x, USMARR_ORDER_C, NULL, &xc);
    const void *data = usmarr_array_data(xc ? xc : x);
    /* the wrapping difference of hi >= lo */
    if (rc || hi - lo >= TALLY_RANGE || hi - lo >= (uint64_t)n * TALLY_SPARSE + TALLY_SPARSE_MIN)
        goto done;
    *used = true;
    cl_long range = (cl_long)(hi - lo) + 1, block = 4096, nblocks = (range + block - 1) / block;
    cl_long ntables = TALLY_TABLES / range, count_chunk;
    ntables = ntables < 1 ? 1 : ntables > lchunks ? lchunks : ntables;
    count_chunk = (n + ntables - 1) / ntables;
    ntables = (n + count_chunk - 1) / count_chunk;
    cl_ulong llo = lo;
    cl_int want = (counts ? 1 : 0) | (inverse ? 2 : 0) | (indices ? 4 : 0); /* cl/tally.cl's TALLY_* */
    int64_t most = range < n ? range : n;
    size_t tables = (size_t)(ntables * range) * (indices ? 2 : 1); /* counts, then first indices */
    if ((rc = usmarr_memory_create(ctx, USMARR_USM_DEVICE, sizeof(cl_uint) * tables, 0, &table)) ||
        (rc = usmarr_memory_create(ctx, USMARR_USM_DEVICE, sizeof(cl_long) * (size_t)(nblocks + 1), 0, &heads)) ||
        (rc = pod_open(ctx, kind_of(x), usmarr_dtype_size(x->dtype), most, &pv)) ||
        (counts && (rc = pod_open(ctx, kind_of(x), 8, most, &pc))) ||
        (indices && (rc = pod_open(ctx, kind_of(x), 8, most, &pf))) ||
        (inverse && (rc = usmarr__array_empty_like_layout(ctx, USMARR_INT64, x->ndim, x->shape, USMARR_ORDER_C,
                                                          kind_of(x), &inv))))
        goto done;
    {
        const struct usmarr__karg args[] = {USMARR__ARG_PTR(data), USMARR__ARG(ln),    USMARR__ARG(count_chunk),
                                            USMARR__ARG(ntables),  USMARR__ARG(llo),   USMARR__ARG(range),
                                            USMARR__ARG_PTR(table->pointer), USMARR__ARG(want)};
        rc = launch_tally(ctx, defines, "usmarr_tally_count", USMARR__NARGS(args), args, (size_t)ntables, false);
    }
    if (!rc) {
        const struct usmarr__karg args[] = {USMARR__ARG_PTR(table->pointer), USMARR__ARG(range), USMARR__ARG(ntables),
                                            USMARR__ARG(block), USMARR__ARG(nblocks), USMARR__ARG_PTR(heads->pointer),
                                            USMARR__ARG(want)};
        rc = launch_tally(ctx, defines, "usmarr_tally_merge", USMARR__NARGS(args), args, (size_t)nblocks, false);
    }
    if (!rc) {
        const struct usmarr__karg args[] = {USMARR__ARG_PTR(heads->pointer), USMARR__ARG(nblocks)};
        rc = launch_tally(ctx, defines, "usmarr_tally_scan", USMARR__NARGS(args), args, 1, false);
    }
    if (!rc) {
        const struct usmarr__karg args[] = {USMARR__ARG_PTR(table->pointer),
                                            USMARR__ARG(range),
                                            USMARR__ARG(ntables),
                                            USMARR__ARG(block),
                                            USMARR__ARG(nblocks),
                                            USMARR__ARG_PTR(heads->pointer),
                                            USMARR__ARG(llo),
                                            USMARR__ARG_PTR(pod_pointer(&pv)),
                                            USMARR__ARG_PTR(counts ? pod_pointer(&pc) : NULL),
                                            USMARR__ARG_PTR(indices ? pod_pointer(&pf) : NULL),
                                            USMARR__ARG(want)};
        rc = launch_tally(ctx, defines, "usmarr_tally_write", USMARR__NARGS(args), args, (size_t)nblocks, false);
    }
    if (!rc && inverse) {
        const struct usmarr__karg args[] = {USMARR__ARG_PTR(data), USMARR__ARG(ln), USMARR__ARG(llo),
                                            USMARR__ARG_PTR(table->pointer), USMARR__ARG_PTR(usmarr_array_data(inv))};
        rc = launch_tally(ctx, defines, "usmarr_tally_inverse", USMARR__NARGS(args), args, (size_t)n, true);
    }
    if (!rc) /* waits */
        rc = usmarr_memory_copy_to_host(heads, sizeof(cl_long) * (size_t)nblocks, &total, sizeof(cl_long));
    if (!rc)
        rc = pod_close(&pv, x->dtype, total, &v);
    if (!rc && indices)
        rc = pod_close(&pf, USMARR_INT64, total, &first);
    if (!rc && counts)
        rc = pod_close(&pc, USMARR_INT64, total, &cnt);
done:
    usmarr_array_release(xc);
    usmarr_memory_release(table);
    usmarr_memory_release(heads);
    usmarr_memory_release(pv.pod);
    usmarr_memory_release(pf.pod);
    usmarr_memory_release(pc.pod);
    return *used ? hand_over(rc, (usmarr_array_t *[4]){v, first, inv, cnt}, values, indices, inverse, counts) : rc;
}

static int unique(const usmarr_array_t *x, usmarr_array_t **values, usmarr_array_t **indices,
                  usmarr_array_t **inverse, usmarr_array_t **counts, const char *name)
{
    usmarr__clear_error();
    if (!x || !values)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s: %s is NULL", name, x ? "values" : "x");
    usmarr_context_t *ctx = x->memory->context;
    bool tabled;
    int rc = unique_table(x, values, indices, inverse, counts, &tabled);
    if (rc || tabled)
        return rc;
    usmarr_array_t *v = NULL, *first = NULL, *inv = NULL, *cnt = NULL;
    struct pod_result pv = {0}, pf = {0}, pc = {0};
    usmarr_memory_t *heads = NULL, *starts = NULL;
    struct usmarr__sorted s;
    int64_t total = 0;
    char what[48];
    snprintf(what, sizeof what, "%s: x", name);
    rc = usmarr__sort_flat(x, indices || inverse, what, &s);
    if (rc)
        return rc;
    if (inverse && (rc = usmarr__array_empty_like_layout(ctx, USMARR_INT64, x->ndim, x->shape, USMARR_ORDER_C,
                                                         kind_of(x), &inv)))
        goto done;
    if (s.n == 0) {
        if (!(rc = empty_1d(x, x->dtype, &v)) && indices)
            rc = empty_1d(x, USMARR_INT64, &first);
        if (!rc && counts)
            rc = empty_1d(x, USMARR_INT64, &cnt);
        goto done;
    }
    /* the gpu shape: a work-group per chunk of GROUP_KEYS keys an item (cl/radix.cl) */
    size_t group = ctx->shape.scan_group;
    int64_t n = s.n, chunk = group ? (int64_t)group * GROUP_KEYS : UNIQUE_CHUNK, nchunks = (n + chunk - 1) / chunk;
    if ((rc = usmarr_memory_create(ctx, USMARR_USM_DEVICE, (size_t)(nchunks + 1) * 8, 0, &heads)))
        goto done;
    if ((rc = pod_open(ctx, kind_of(x), usmarr_dtype_size(x->dtype), n, &pv)))
        goto done;
    if (indices && (rc = pod_open(ctx, kind_of(x), 8, n, &pf)))
        goto done;
    if (counts && ((rc = pod_open(ctx, kind_of(x), 8, n, &pc)) ||
                   (rc = usmarr_memory_create(ctx, USMARR_USM_DEVICE, (size_t)n * 8, 0, &starts))))
        goto done;
    char group_defines[sizeof s.key_defines + 48];
    if (group)
        usmarr__radix_defines(ctx, s.key_defines, group_defines, sizeof group_defines);
    const char *defines = group ? group_defines : s.key_defines;
    /* what usmarr_unique_write writes besides the values (cl/sort.cl's UNIQ_*) */
    cl_int want = (indices ? 1 : 0) | (counts ? 2 : 0) | (inverse ? 4 : 0);
    cl_long ln = n, lchunk = chunk, lchunks = nchunks;
    {
        const struct usmarr__karg args[] = {USMARR__ARG_PTR(s.key), USMARR__ARG(ln), USMARR__ARG(lchunk),
                                            USMARR__ARG(lchunks), USMARR__ARG_PTR(heads->pointer)};
        rc = launch(ctx, defines, "usmarr_unique_count", USMARR__NARGS(args), args, (size_t)nchunks, group);
    }
    if (!rc) {
        const struct usmarr__karg args[] = {USMARR__ARG_PTR(heads->pointer), USMARR__ARG(lchunks)};
        rc = launch(ctx, defines, "usmarr_unique_scan", USMARR__NARGS(args), args, 1, group);
    }
    if (!rc) {
        const struct usmarr__karg args[] = {USMARR__ARG_PTR(s.key),
                                            USMARR__ARG_PTR(s.idx),
                                            USMARR__ARG(ln),
                                            USMARR__ARG(lchunk),
                                            USMARR__ARG(lchunks),
                                            USMARR__ARG_PTR(heads->pointer),
                                            USMARR__ARG_PTR(pod_pointer(&pv)),
                                            USMARR__ARG_PTR(indices ? pod_pointer(&pf) : NULL),
                                            USMARR__ARG_PTR(starts ? starts->pointer : NULL),
                                            USMARR__ARG_PTR(inv ? usmarr_array_data(inv) : NULL),
                                            USMARR__ARG(want)};
        rc = launch(ctx, defines, "usmarr_unique_write", USMARR__NARGS(args), args, (size_t)nchunks, group);
    }
    if (!rc)
        rc = usmarr_memory_copy_to_host(heads, (size_t)nchunks * 8, &total, 8); /* waits */
    if (!rc && counts) {
        cl_long ltotal = total;
        const struct usmarr__karg args[] = {USMARR__ARG_PTR(starts->pointer), USMARR__ARG(ltotal), USMARR__ARG(ln),
                                            USMARR__ARG_PTR(pod_pointer(&pc))};
        rc = launch(ctx, defines, "usmarr_unique_counts", USMARR__NARGS(args), args, (size_t)total, 0);
        if (!rc)
            rc = usmarr_context_finish(ctx);
    }
    if (!rc)
        rc = pod_close(&pv, x->dtype, total, &v);
    if (!rc && indices)
        rc = pod_close(&pf, USMARR_INT64, total, &first);
    if (!rc && counts)
        rc = pod_close(&pc, USMARR_INT64, total, &cnt);
done:
    usmarr__sorted_release(&s);
    usmarr_memory_release(heads);
    usmarr_memory_release(starts);
    usmarr_memory_release(pv.pod);
    usmarr_memory_release(pf.pod);
    usmarr_memory_release(pc.pod);
    return hand_over(rc, (usmarr_array_t *[4]){v, first, inv, cnt}, values, indices, inverse, counts);
}

USMARR_API int usmarr_unique_values(const usmarr_array_t *x, usmarr_array_t **values)
{
    return unique(x, values, NULL, NULL, NULL, "unique_values");
}

USMARR_API int usmarr_unique_counts(const usmarr_array_t *x, usmarr_array_t **values, usmarr_array_t **counts)
{
    if (!counts)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "unique_counts: counts is NULL");
    return unique(x, values, NULL, NULL, counts, "unique_counts");
}

USMARR_API int usmarr_unique_inverse(const usmarr_array_t *x, usmarr_array_t **values,
                                     usmarr_array_t **inverse_indices)
{
    if (!inverse_indices)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "unique_inverse: inverse_indices is NULL");
    return unique(x, values, NULL, inverse_indices, NULL, "unique_inverse");
}

USMARR_API int usmarr_unique_all(const usmarr_array_t *x, usmarr_array_t **values, usmarr_array_t **indices,
                                 usmarr_array_t **inverse_indices, usmarr_array_t **counts)
{
    if (!indices || !inverse_indices || !counts)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "unique_all: %s is NULL",
                            !indices ? "indices" : !inverse_indices ? "inverse_indices" : "counts");
    return unique(x, values, indices, inverse_indices, counts, "unique_all");
}

/* isin by a table of flags when the test elements are integers (or bools) spanning fewer
 * than LOOKUP_RANGE values, as NumPy's kind="table": the host reads them, marks
 * table[v - min], and one map (cl/lookup.cl) looks every element of x up in any layout.
 * *used stays false, with nothing done, where the table does not apply. */
static int isin_table(const usmarr_array_t *x, const usmarr_array_t *test, usmarr_dtype_t common, bool invert,
                      usmarr_array_t *res, bool *used)
{
    *used = false;
    usmarr_kind_t kind = usmarr_dtype_kind(common);
    int64_t n = usmarr_array_size(test);
    if ((kind != USMARR_KIND_INT && kind != USMARR_KIND_UINT && kind != USMARR_KIND_BOOL) || n == 0 ||
        n > LOOKUP_KEYS)
        return 0;
    bool is_signed = kind != USMARR_KIND_UINT;
    usmarr_array_t *keys = NULL, *table = NULL;
    uint64_t *host = malloc(sizeof(uint64_t) * (size_t)n), lo = 0, hi = 0;
    unsigned char *flags = NULL;
    int rc = host ? usmarr_array_astype(test, is_signed ? USMARR_INT64 : USMARR_UINT64, USMARR_ORDER_C, NULL, &keys)
                  : usmarr__fail(USMARR_ERROR_OUT_OF_HOST_MEMORY, "isin: %lld test elements on the host",
                                 (long long)n);
    if (!rc)
        rc = usmarr_array_copy_to_host(keys, host, NULL);
    for (int64_t i = 0; i < n && !rc; i++) {
        uint64_t v = host[i];
        if (!i || (is_signed ? (int64_t)v < (int64_t)lo : v < lo))
            lo = v;
        if (!i || (is_signed ? (int64_t)v > (int64_t)hi : v > hi))
            hi = v;
    }
    int64_t range = (int64_t)(hi - lo) + 1; /* the wrapping difference of hi >= lo */
    if (!rc && hi - lo < LOOKUP_RANGE) {
        if (!(flags = calloc((size_t)range, 1)))
            rc = usmarr__fail(USMARR_ERROR_OUT_OF_HOST_MEMORY, "isin: a table of %lld flags", (long long)range);
        for (int64_t i = 0; i < n && !rc; i++)
            flags[host[i] - lo] = 1;
        if (!rc)
            rc = usmarr_array_from_host(x->memory->context, 1, &range, USMARR_BOOL, flags, NULL, USMARR_USM_DEVICE,
                                        &table);
        struct usmarr__map m = usmarr__map_init("lookup", invert ? "-DLOOKUP_INVERT=1" : NULL, 1, 2);
        m.ndim = x->ndim;
        memcpy(m.shape, x->shape, sizeof(int64_t) * (size_t)x->ndim);
        usmarr_scalar_t first = usmarr_scalar_uint(lo), count = usmarr_scalar_uint((uint64_t)range);
        if (!rc && !(rc = usmarr__operand_from_array(res, m.ndim, m.shape, &m.operands[0])) &&
            !(rc = usmarr__operand_from_array(x, m.ndim, m.shape, &m.operands[1])) &&
            !(rc = usmarr__scalar_arg_set(&m.scalars[0], USMARR_UINT64, &first)) &&
            !(rc = usmarr__scalar_arg_set(&m.scalars[1], USMARR_UINT64, &count))) {
            m.operands[2] = (struct usmarr__operand){usmarr_array_data(table), USMARR_BOOL, {0}};
            m.nscalars = 2;
            rc = usmarr__map_launch(x->memory->context, &m);
        }
        *used = true;
    }
    free(host);
    free(flags);
    usmarr_array_release(keys);
    usmarr_array_release(table);
    return rc;
}

USMARR_API int usmarr_isin(const usmarr_array_t *x, const usmarr_array_t *test_elements, bool invert,
                           usmarr_array_t *out, usmarr_array_t **result)
{
    usmarr__clear_error();
    if (!x || !test_elements)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "isin: %s is NULL", x ? "test_elements" : "x");
    if (!out && !result)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "isin: result is NULL and no out is given");
    if (test_elements->memory->context != x->memory->context ||
        (out && out->memory->context != x->memory->context))
        return usmarr__fail(USMARR_ERROR_CONTEXT_MISMATCH, "isin: %s and x belong to different contexts",
                            test_elements->memory->context != x->memory->context ? "test_elements" : "out");
    usmarr_dtype_t common;
    int rc = usmarr_promote_types(x->dtype, test_elements->dtype, &common);
    if (rc)
        return rc;
    if (out) {
        if ((rc = usmarr__check_writable(out, "out")))
            return rc;
        if (out->ndim != x->ndim || memcmp(out->shape, x->shape, sizeof(int64_t) * (size_t)x->ndim))
            return usmarr__fail(USMARR_ERROR_SHAPE_MISMATCH, "isin: out has %d dims and not x's shape (%d dims)",
                                out->ndim, x->ndim);
        if (out->dtype != USMARR_BOOL)
            return usmarr__fail(USMARR_ERROR_BAD_DTYPE, "isin: out has dtype %s, the result is bool",
                                usmarr_dtype_name(out->dtype));
    }
    usmarr_context_t *ctx = x->memory->context;
    usmarr_array_t *res = NULL, *tc = NULL, *xc = NULL, *target = NULL;
    struct usmarr__sorted s;
    memset(&s, 0, sizeof s);
    if (out)
        res = usmarr_array_retain(out);
    else if ((rc = usmarr__array_empty_like_layout(ctx, USMARR_BOOL, x->ndim, x->shape, USMARR_ORDER_C, kind_of(x),
                                                   &res)))
        return rc;
    int64_t m = usmarr_array_size(x);
    bool tabled;
    if (m == 0 || (rc = isin_table(x, test_elements, common, invert, res, &tabled)) || tabled)
        goto done;
    if (test_elements->dtype != common &&
        (rc = usmarr_array_astype(test_elements, common, USMARR_ORDER_C, NULL, &tc)))
        goto done;
    if ((x->dtype != common || !(x->flags & USMARR_FLAG_C_CONTIGUOUS)) &&
        (rc = usmarr_array_astype(x, common, USMARR_ORDER_C, NULL, &xc)))
        goto done;
    if ((rc = usmarr__sort_flat(tc ? tc : test_elements, false, "isin: test_elements", &s)))
        goto done;
    target = (res->flags & USMARR_FLAG_C_CONTIGUOUS) ? usmarr_array_retain(res) : NULL;
    if (!target && (rc = usmarr__array_empty_like_layout(ctx, USMARR_BOOL, x->ndim, x->shape, USMARR_ORDER_C,
                                                         kind_of(x), &target)))
        goto done;
    {
        usmarr__kernel_t *k;
        cl_long ln = s.n, lm = m;
        cl_int inv = invert;
        size_t local = 64, global = ((size_t)m + 63) / 64 * 64;
        if ((rc = usmarr__kernel_get(ctx, "sort", s.key_defines, "usmarr_isin", &k)))
            goto done;
        const struct usmarr__karg args[] = {USMARR__ARG_PTR(s.key), USMARR__ARG(ln),
                                            USMARR__ARG_PTR(usmarr_array_data(xc ? xc : x)), USMARR__ARG(lm),
                                            USMARR__ARG_PTR(usmarr_array_data(target)), USMARR__ARG(inv)};
        rc = usmarr__kernel_launch(ctx, k, USMARR__NARGS(args), args, 1, &global, &local);
    }
    if (!rc && target != res)
        rc = usmarr_array_copy_into(res, target);
done:
    usmarr__sorted_release(&s);
    usmarr_array_release(tc);
    usmarr_array_release(xc);
    usmarr_array_release(target);
    return usmarr__result_end(rc, res, out, result); /* res is `out` (retained) or new */
}
