/* sort, argsort and searchsorted on cl/sort.cl (the kernels and the key mapping are
 * described in that file's header; user documentation: doc/ops.md).  Every sort runs
 * on R rows of n contiguous keys: the input is read along the axis by a 2-D kernel when
 * its other axes collapse to one, else through a contiguous copy with the axis last; the
 * result is written the same way. */
#include "ops_internal.h"

#include <stdlib.h>
#include <string.h>

/* cl/sort.cl's KIND for a dtype (-1 for an invalid one). */
static int sort_key_kind(usmarr_dtype_t d);

/* The size of one key of that dtype in the scratch blocks: 4, 8 or 16. */
static int sort_key_bytes(usmarr_dtype_t d);

/* Rows of at most this many keys are sorted by one work-group (the rows kernels); longer
 * ones by the radix passes of cl/sort_radix.cl over blocks of BLOCK_MIN to BLOCK_MAX keys,
 * about BLOCKS_PER_UNIT blocks per compute unit. */
#define ONE_ITEM_MAX 16384
#define BLOCK_MIN 4096
#define BLOCK_MAX (1 << 20)
#define BLOCKS_PER_UNIT 8
/* The longest row a sort may hold: the radix passes count keys in 32 bits. */
#define MAX_ROW_KEYS 4294967295LL
/* Keys searched by one work-item of usmarr_searchsorted (SS_KEYS in cl/sort.cl). */
#define SEARCH_KEYS 8
/* The rows kernel keeps a row's scratch in local memory up to this many bytes (within the
 * device's limit): about a core's L2, past which local memory is no faster than blocks. */
#define ROW_LOCAL_MAX (256 << 10)
/* sort (not argsort) of rows of 25 to this many elements of 4 bytes runs a sorting
 * network (cl/sort.cl usmarr_sort_rows_net), of 2 bytes up to NET_MAX/16, of 1 byte up to
 * NET_MAX/64: its work grows as n log^2 n, the radix sort's with the element's width. */
#define NET_MAX 16384
/* top_k selects rows of up to this many best elements (cl/topk.cl's TOPK_MAX) in one read
 * of each row; larger k sort them. */
#define TOPK_MAX 16
/* ... by work-items of groups of one, this many a compute unit at most (rows shared out) */
#define TOPK_ITEMS_PER_UNIT 8

static int sort_key_bytes(usmarr_dtype_t d)
{
    size_t size = usmarr_dtype_size(d);
    return size <= 4 ? 4 : (int)size;
}

static int sort_key_kind(usmarr_dtype_t d)
{
    switch (usmarr_dtype_kind(d)) {
    case USMARR_KIND_BOOL:
    case USMARR_KIND_UINT: return 0;
    case USMARR_KIND_INT: return 1;
    case USMARR_KIND_FLOAT: return 2;
    case USMARR_KIND_COMPLEX: return d == USMARR_COMPLEX64 ? 3 : 4;
    default: return -1;
    }
}

/* Whether `a` is R rows along `axis`: the other axes (extent-1 ones dropped) nest as one
 * with row stride *sr.  *rows is their product, *se the axis's stride. */
static bool rows_of(const usmarr_array_t *a, int axis, int64_t *rows, int64_t *sr, int64_t *se)
{
    int64_t r = 1, s = 0, inner = -1;
    bool first = true;
    for (int d = a->ndim - 1; d >= 0; d--) {
        if (d == axis || a->shape[d] == 1)
            continue;
        if (first) {
            s = a->strides[d];
            first = false;
        } else if (a->strides[d] != inner) {
            return false;
        }
        inner = a->strides[d] * a->shape[d];
        r *= a->shape[d];
    }
    *rows = r;
    *sr = s;
    *se = a->ndim ? a->strides[axis] : 1;
    return true;
}

/* `a` with `axis` moved last, copied C-contiguous. */
static int axis_last_copy(const usmarr_array_t *a, int axis, usmarr_array_t **copy)
{
    int dst = a->ndim - 1;
    usmarr_array_t *v;
    int rc = usmarr_array_moveaxis(a, 1, &axis, &dst, &v);
    if (rc)
        return rc;
    rc = usmarr_array_copy(v, USMARR_ORDER_C, NULL, copy);
    usmarr_array_release(v);
    return rc;
}

/* The digit of the radix passes: 11 bits (3 passes for 4-byte keys, 6 for 8-byte ones),
 * 8 for 128-bit keys, which cl/sort_radix.cl cuts with sort.cl's KEY_DIGIT. */
static int radix_bits(const struct usmarr__sorted *j)
{
    return j->bits == 128 ? 8 : 11;
}

/* cl/sort_radix.cl's RADIX_WC: the keys of a line that the scatter passes gather per digit
 * value in local memory and write with non-temporal stores.  Where the device's shape
 * takes non-temporal stores (its nt_bytes), a line is 64 bytes of keys, or 32 where its
 * local memory cannot hold 64 for every value (with the indices of argsort); else 0, and
 * each key is written where it goes.  A pass over 16M 4-byte keys into 2048 places, plain
 * C on the 2 cores of an EPYC: 57-70 ms each key where it goes, 39 ms by lines with these
 * stores, 95 ms by lines without them (doc/ops.md, "Lines"). */
static int radix_line(const struct usmarr__sorted *j)
{
    if (!j->ctx->shape.nt_bytes || j->key_bytes > 8)
        return 0;
    cl_ulong budget = j->ctx->profile.local_mem / 4 * 3, each = (cl_ulong)j->key_bytes + (j->idx ? 8 : 0);
    for (int wc = 64 / j->key_bytes; wc >= 32 / j->key_bytes; wc /= 2)
        if (((cl_ulong)wc << radix_bits(j)) * each <= budget)
            return wc;
    return 0;
}

/* Whether the scatter passes write by lines (radix_line()): the keys fill more than the
 * caches (the shape's nt_bytes), a block's run per digit value is several lines long on
 * average, and every line of the scratch blocks is aligned for the lines' vector stores. */
static bool lines_fit(const struct usmarr__sorted *j, int bits, int64_t block)
{
    int wc = radix_line(j);
    if (!wc || (uint64_t)(j->rows * j->n) * (uint64_t)j->key_bytes < j->ctx->shape.nt_bytes ||
        block < ((int64_t)wc << bits) * 4 || (j->rows > 1 && j->n % wc))
        return false;
    const void *blocks[4] = {j->key, j->tkey, j->idx, j->tidx};
    for (int i = 0; i < 4; i++)
        if ((uintptr_t)blocks[i] % 128)
            return false;
    return true;
}

/* A cl/sort_radix.cl kernel over `items` work-items of one each, its arguments `args`. */
static int launch_radix(struct usmarr__sorted *j, const char *name, int nargs, const struct usmarr__karg *args,
                        size_t items)
{
    usmarr__kernel_t *k;
    char defines[sizeof j->defines + 32];
    snprintf(defines, sizeof defines, "%s -DRADIX_BITS=%d -DRADIX_WC=%d", j->defines, radix_bits(j), radix_line(j));
    int rc = usmarr__kernel_get(j->ctx, "sort+sort_radix", defines, name, &k);
    size_t one = 1;
    return rc ? rc : usmarr__kernel_launch(j->ctx, k, nargs, args, 1, &items, &one);
}

static int alloc_scratch(struct usmarr__sorted *j, bool arg)
{
    size_t total = (size_t)(j->rows * j->n), kbytes = total * (size_t)j->key_bytes;
    int rc = 0;
    for (int i = 0; i < (arg ? 4 : 2) && !rc; i++)
        rc = usmarr_memory_create(j->ctx, USMARR_USM_DEVICE, i < 2 ? kbytes : total * 8, 0, &j->blocks[i]);
    if (rc)
        return rc;
    j->key = j->blocks[0]->pointer;
    j->tkey = j->blocks[1]->pointer;
    j->idx = j->blocks[2] ? j->blocks[2]->pointer : NULL;
    j->tidx = j->blocks[3] ? j->blocks[3]->pointer : NULL;
    return 0;
}

void usmarr__sorted_release(struct usmarr__sorted *j)
{
    for (size_t i = 0; i < sizeof j->blocks / sizeof *j->blocks; i++) {
        usmarr_memory_release(j->blocks[i]);
        j->blocks[i] = NULL;
    }
}

/* The keys (and indices) of the rows `in[r*sr + i*se]`, sorted into j->key (j->idx), or,
 * given `out`, out[r*osr + i*ose] = the element of each sorted key (its index with ARG):
 * cl/sort_radix.cl's passes, one
 * per digit of radix_bits(), over blocks of BLOCK keys (smaller ones when the rows make few
 * blocks, so that every core gets some).  The device decides which passes move keys, from
 * every digit's counts; the counters are uint: rows of fewer than 2^32 keys. */
static int sort_keys(struct usmarr__sorted *j, const void *in, int64_t sr, int64_t se, void *out, int64_t osr,
                     int64_t ose)
{
    if (usmarr__radix_gpu(j->ctx, j->bits)) /* the gpu shape: work-group passes (radix.c) */
        return usmarr__radix_sort(j, in, sr, se, out, osr, ose);
    int bits = radix_bits(j), digits = (j->bits + bits - 1) / bits;
    int64_t n = j->n, units = j->ctx->profile.compute_units ? j->ctx->profile.compute_units : 1;
    int64_t block = (j->rows * n + BLOCKS_PER_UNIT * units - 1) / (BLOCKS_PER_UNIT * units);
    block = block < BLOCK_MIN ? BLOCK_MIN : block > BLOCK_MAX ? BLOCK_MAX : block;
    int64_t nb = (n + block - 1) / block, items = j->rows * nb;
    size_t hbytes = (size_t)items * (size_t)digits * ((size_t)1 << bits) * 4;
    int rc = usmarr_memory_create(j->ctx, USMARR_USM_DEVICE, hbytes + (size_t)j->rows * 4, 0, &j->blocks[4]);
    if (rc)
        return rc;
    void *hist = j->blocks[4]->pointer, *mask = (char *)hist + hbytes;
    cl_long rows = j->rows, to_out = out != NULL, p = 0, lines = lines_fit(j, bits, block);
    const struct usmarr__karg prepare[] = {USMARR__ARG_PTR(in), USMARR__ARG(sr),    USMARR__ARG(se),
                                           USMARR__ARG(n),      USMARR__ARG(block), USMARR__ARG(nb),
                                           USMARR__ARG_PTR(hist)};
    const struct usmarr__karg plan[] = {USMARR__ARG_PTR(in),   USMARR__ARG(sr),       USMARR__ARG(n),
                                        USMARR__ARG(nb),       USMARR__ARG_PTR(hist), USMARR__ARG_PTR(mask),
                                        USMARR__ARG(rows)};
    const struct usmarr__karg count[] = {USMARR__ARG_PTR(j->key), USMARR__ARG_PTR(j->tkey), USMARR__ARG(n),
                                         USMARR__ARG(block),      USMARR__ARG(nb),          USMARR__ARG_PTR(hist),
                                         USMARR__ARG_PTR(mask),   USMARR__ARG(p)};
    const struct usmarr__karg scan[] = {USMARR__ARG_PTR(hist), USMARR__ARG(nb), USMARR__ARG_PTR(mask), USMARR__ARG(p),
                                        USMARR__ARG(rows)};
    const struct usmarr__karg scatter[] = {
        USMARR__ARG_PTR(in),    USMARR__ARG(sr),         USMARR__ARG(se),       USMARR__ARG_PTR(j->key),
        USMARR__ARG_PTR(j->tkey), USMARR__ARG_PTR(j->idx), USMARR__ARG_PTR(j->tidx), USMARR__ARG(n),
        USMARR__ARG(block),     USMARR__ARG(nb),         USMARR__ARG_PTR(hist), USMARR__ARG_PTR(mask),
        USMARR__ARG(p),         USMARR__ARG_PTR(out),    USMARR__ARG(osr),      USMARR__ARG(ose),
        USMARR__ARG(to_out),    USMARR__ARG(lines)};
    const struct usmarr__karg settle[] = {
        USMARR__ARG_PTR(in), USMARR__ARG(sr),       USMARR__ARG(se),  USMARR__ARG_PTR(j->key), USMARR__ARG_PTR(j->idx),
        USMARR__ARG(n),      USMARR__ARG(block),    USMARR__ARG(nb),  USMARR__ARG_PTR(mask),   USMARR__ARG_PTR(out),
        USMARR__ARG(osr),    USMARR__ARG(ose),      USMARR__ARG(to_out)};
    rc = launch_radix(j, "usmarr_radix_prepare", USMARR__NARGS(prepare), prepare, (size_t)items);
    if (!rc)
        rc = launch_radix(j, "usmarr_radix_plan", USMARR__NARGS(plan), plan, (size_t)j->rows);
    for (; p < digits && !rc; p++) {
        if (p && (rc = launch_radix(j, "usmarr_radix_count", USMARR__NARGS(count), count, (size_t)items)))
            break;
        if (!(rc = launch_radix(j, "usmarr_radix_scan", USMARR__NARGS(scan), scan, (size_t)j->rows)))
            rc = launch_radix(j, "usmarr_radix_scatter", USMARR__NARGS(scatter), scatter, (size_t)items);
    }
    if (!rc)
        rc = launch_radix(j, "usmarr_radix_settle", USMARR__NARGS(settle), settle, (size_t)items);
    return rc;
}

/* Whether the rows kernel may write out's rows while reading in's: they are different
 * blocks, or row r element i is the same element of both. */
static bool row_safe(const usmarr_array_t *in, int64_t sr, int64_t se, const usmarr_array_t *out, int64_t osr,
                     int64_t ose)
{
    if (in->memory != out->memory)
        return true;
    return usmarr_array_data(in) == usmarr_array_data(out) &&
           usmarr_dtype_size(in->dtype) == usmarr_dtype_size(out->dtype) && sr == osr && se == ose;
}

/* The rows kernel (cl/sort.cl usmarr_sort_rows): one work-group per row, its scratch in
 * local memory when two copies of the row (keys and indices) fit there, else in blocks
 * (float32 argsort: rows of up to 10240 keys in local memory). */
static int sort_rows(struct usmarr__sorted *j, bool arg, size_t itemsize, const void *in, int64_t sr, int64_t se,
                     void *out, int64_t osr, int64_t ose)
{
    size_t kbytes = (size_t)j->n * (size_t)j->key_bytes, ibytes = arg ? (size_t)j->n * 8 : 8;
    size_t hist = 16 * 256 * 4; /* the histograms of the widest keys' 16 digits */
    cl_ulong limit = j->ctx->profile.local_mem < ROW_LOCAL_MAX ? j->ctx->profile.local_mem : ROW_LOCAL_MAX;
    size_t padded = 64;
    while ((int64_t)padded < j->n)
        padded *= 2;
    bool net = !arg && itemsize <= 4 && j->n > 24 && j->n <= NET_MAX >> (2 * (4 - itemsize)) && padded * 4 <= limit;
    bool local = net || 2 * (kbytes + ibytes) + hist <= limit;
    char defines[sizeof j->defines + 16];
    snprintf(defines, sizeof defines, "%s -DROW_LOCAL=%d", j->defines, (int)local);
    int rc = 0;
    if (!local && (rc = alloc_scratch(j, arg)))
        return rc;
    usmarr__kernel_t *k;
    if ((rc = usmarr__kernel_get(j->ctx, "sort", defines, net ? "usmarr_sort_rows_net" : "usmarr_sort_rows", &k)))
        return rc;
    cl_long lsr = sr, lse = se, ln = j->n, losr = osr, lose = ose;
    size_t one = 1, global = (size_t)j->rows;
    /* The scratch: the network's one padded row, or keys, keys, indices, indices in local
     * memory or in the blocks of alloc_scratch. */
    struct usmarr__karg args[11] = {USMARR__ARG_PTR(in),  USMARR__ARG(lsr),  USMARR__ARG(lse), USMARR__ARG(ln),
                                    USMARR__ARG_PTR(out), USMARR__ARG(losr), USMARR__ARG(lose)};
    int nargs = 7;
    const void *blocks[4] = {j->key, j->tkey, j->idx, j->tidx};
    if (net)
        args[nargs++] = USMARR__ARG_LOCAL(padded * 4);
    else
        for (int i = 0; i < 4; i++)
            args[nargs++] = local ? USMARR__ARG_LOCAL(i < 2 ? kbytes : ibytes) : USMARR__ARG_PTR(blocks[i]);
    return usmarr__kernel_launch(j->ctx, k, nargs, args, 1, &global, &one);
}

static int new_result(const usmarr_array_t *like, usmarr_dtype_t dtype, int ndim, const int64_t *shape,
                      usmarr_array_t **res)
{
    usmarr_usm_kind_t kind = like->memory->kind == USMARR_USM_UNKNOWN ? USMARR_USM_DEVICE : like->memory->kind;
    return usmarr__array_empty_like_layout(like->memory->context, dtype, ndim, shape, USMARR_ORDER_C, kind, res);
}

static int sort_common(const usmarr_array_t *x, int axis, bool descending, bool arg, usmarr_array_t *out,
                       usmarr_array_t **result, const char *name)
{
    usmarr__clear_error();
    if (!x)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s: x is NULL", name);
    if (!out && !result)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s: result is NULL and no out is given", name);
    int a = axis < 0 ? axis + x->ndim : axis;
    if (a < 0 || a >= x->ndim)
        return usmarr__fail(USMARR_ERROR_INDEX, "%s: axis=%d is out of range for %d dims", name, axis, x->ndim);
    int kind = sort_key_kind(x->dtype);
    if (kind < 0)
        return usmarr__fail(USMARR_ERROR_BAD_DTYPE, "%s: x has no valid dtype", name);
    if (x->shape[a] > MAX_ROW_KEYS)
        return usmarr__fail(USMARR_ERROR_UNSUPPORTED, "%s: x has %lld elements along axis %d, more than the %lld a "
                            "sort may hold", name, (long long)x->shape[a], a, MAX_ROW_KEYS);
    usmarr_context_t *ctx = x->memory->context;
    usmarr_dtype_t rd = arg ? USMARR_INT64 : x->dtype;
    int rc;
    if (out && (rc = usmarr__check_out(x, out, rd, x->ndim, x->shape, USMARR_CASTING_NO, name)))
        return rc;

    usmarr_array_t *res = NULL, *in_copy = NULL, *out_tmp = NULL, *res_view = NULL;
    if (out)
        res = usmarr_array_retain(out);
    else if ((rc = new_result(x, rd, x->ndim, x->shape, &res)))
        return rc;
    struct usmarr__sorted j = {.ctx = ctx, .n = x->shape[a]};
    int64_t total = usmarr_array_size(x);
    if (total == 0)
        goto done;
    size_t w = usmarr_dtype_size(x->dtype) * 8;
    j.key_bytes = sort_key_bytes(x->dtype);
    j.bits = (int)w;
    /* A descending sort is NumPy's flip(sort(flip(x))): the ascending program over rows read
     * and written backwards (below), so that both directions share their programs.  An
     * argsort's indices count from the row's start: it keeps its own (-DDESC=1). */
    bool backwards = descending && !arg && j.n > 1;
    snprintf(j.defines, sizeof j.defines, "-DW=%zu -DKIND=%d -DDESC=%d -DARG=%d", w, kind, (int)(descending && arg),
             (int)arg);

    const usmarr_array_t *src = x;
    int64_t sr, se;
    if (!rows_of(x, a, &j.rows, &sr, &se)) {
        if ((rc = axis_last_copy(x, a, &in_copy)))
            goto done;
        src = in_copy;
        rows_of(src, src->ndim - 1, &j.rows, &sr, &se);
    }
    bool one_kernel = j.n <= ONE_ITEM_MAX;

    /* the result's rows, or a C-ordered temporary with the axis last (also when the rows
     * kernel would write elements that other rows of the input still have to read) */
    usmarr_array_t *target = res;
    int64_t rows2, osr, ose;
    if (!rows_of(res, a, &rows2, &osr, &ose) || (one_kernel && !row_safe(src, sr, se, res, osr, ose))) {
        int dst = x->ndim - 1;
        int64_t shape[USMARR_MAX_NDIM];
        if ((rc = usmarr_array_moveaxis(res, 1, &a, &dst, &res_view)))
            goto done;
        memcpy(shape, res_view->shape, sizeof(int64_t) * (size_t)x->ndim);
        if ((rc = new_result(x, rd, x->ndim, shape, &out_tmp)))
            goto done;
        target = out_tmp;
        osr = j.n;
        ose = 1;
    }
    /* the radix passes read the input in their first pass, which may be a row's last one,
     * writing the result: an input that shares the result's memory is copied first */
    if (!one_kernel && !in_copy && x->memory == target->memory) {
        if ((rc = axis_last_copy(x, a, &in_copy)))
            goto done;
        src = in_copy;
        rows_of(src, src->ndim - 1, &j.rows, &sr, &se);
    }
    char *in0 = usmarr_array_data(src), *out0 = usmarr_array_data(target);
    if (backwards) { /* each row from its last element, its result from its last place */
        in0 += (j.n - 1) * se * (int64_t)usmarr_dtype_size(src->dtype);
        out0 += (j.n - 1) * ose * (int64_t)usmarr_dtype_size(target->dtype);
        se = -se;
        ose = -ose;
    }
    if (one_kernel)
        rc = sort_rows(&j, arg, usmarr_dtype_size(x->dtype), in0, sr, se, out0, osr, ose);
    else if (!(rc = alloc_scratch(&j, arg)))
        rc = sort_keys(&j, in0, sr, se, out0, osr, ose);
    if (!rc && out_tmp)
        rc = usmarr_array_copy_into(res_view, out_tmp);
done:
    usmarr__sorted_release(&j);
    usmarr_array_release(in_copy);
    usmarr_array_release(out_tmp);
    usmarr_array_release(res_view);
    return usmarr__result_end(rc, res, out, result); /* res is `out` (retained) or new */
}

int usmarr__sort_flat(const usmarr_array_t *x, bool arg, const char *what, struct usmarr__sorted *j)
{
    int kind = sort_key_kind(x->dtype);
    memset(j, 0, sizeof *j);
    if (usmarr_array_size(x) > MAX_ROW_KEYS)
        return usmarr__fail(USMARR_ERROR_UNSUPPORTED, "%s has %lld elements, more than the %lld a sort may hold",
                            what, (long long)usmarr_array_size(x), MAX_ROW_KEYS);
    j->ctx = x->memory->context;
    j->rows = 1;
    j->n = usmarr_array_size(x);
    size_t w = usmarr_dtype_size(x->dtype) * 8;
    j->key_bytes = sort_key_bytes(x->dtype);
    j->bits = (int)w;
    /* Keys canonical (-0.0 as +0.0, cl/sort.cl's CANON): with indices that is the ascending
     * argsort's default, so the text is argsort's and the two share their programs. */
    snprintf(j->defines, sizeof j->defines, "-DW=%zu -DKIND=%d -DDESC=0 -DARG=%d%s", w, kind, (int)arg,
             arg ? "" : " -DCANON=1");
    snprintf(j->key_defines, sizeof j->key_defines, "-DW=%zu -DKIND=%d -DDESC=0 -DARG=0 -DCANON=1", w, kind);
    if (j->n == 0)
        return 0;
    usmarr_array_t *flat = NULL;
    int64_t se = x->ndim ? x->strides[x->ndim - 1] : 1;
    int rc = 0;
    if (x->ndim > 1 && !(x->flags & USMARR_FLAG_C_CONTIGUOUS)) {
        if ((rc = usmarr_array_copy(x, USMARR_ORDER_C, NULL, &flat)))
            return rc;
        se = 1;
    } else if (x->ndim > 1) {
        se = 1;
    }
    if (!(rc = alloc_scratch(j, arg)))
        rc = sort_keys(j, usmarr_array_data(flat ? flat : x), 0, se, NULL, 0, 0);
    usmarr_array_release(flat); /* waits for the sort */
    if (rc)
        usmarr__sorted_release(j);
    return rc;
}

USMARR_API int usmarr_sort(const usmarr_array_t *x, int axis, bool descending, usmarr_array_t *out,
                           usmarr_array_t **result)
{
    return sort_common(x, axis, descending, false, out, result, "sort");
}

USMARR_API int usmarr_argsort(const usmarr_array_t *x, int axis, bool descending, usmarr_array_t *out,
                              usmarr_array_t **result)
{
    return sort_common(x, axis, descending, true, out, result, "argsort");
}

USMARR_API int usmarr_searchsorted(const usmarr_array_t *a, const usmarr_array_t *v, usmarr_side_t side,
                                   const usmarr_array_t *sorter, usmarr_array_t *out, usmarr_array_t **result)
{
    usmarr__clear_error();
    if (!a || !v)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "searchsorted: %s is NULL", a ? "v" : "a");
    if (!out && !result)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "searchsorted: result is NULL and no out is given");
    if (side != USMARR_SIDE_LEFT && side != USMARR_SIDE_RIGHT)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "searchsorted: side=%d is neither left (0) nor right (1)",
                            (int)side);
    if (a->ndim != 1)
        return usmarr__fail(USMARR_ERROR_SHAPE_MISMATCH, "searchsorted: a has %d dims, not 1", a->ndim);
    if (v->memory->context != a->memory->context || (sorter && sorter->memory->context != a->memory->context))
        return usmarr__fail(USMARR_ERROR_CONTEXT_MISMATCH, "searchsorted: %s and a belong to different contexts",
                            v->memory->context != a->memory->context ? "v" : "sorter");
    if (sorter && (sorter->ndim != 1 || sorter->shape[0] != a->shape[0]))
        return usmarr__fail(USMARR_ERROR_SHAPE_MISMATCH, "searchsorted: sorter must have a's shape (%lld)",
                            (long long)a->shape[0]);
    if (sorter && sorter->dtype != USMARR_INT64)
        return usmarr__fail(USMARR_ERROR_BAD_DTYPE, "searchsorted: sorter has dtype %s, not int64",
                            usmarr_dtype_name(sorter->dtype));
    usmarr_dtype_t common;
    int rc = usmarr_promote_types(a->dtype, v->dtype, &common);
    if (rc)
        return rc;
    int kind = sort_key_kind(common);
    if (kind < 0)
        return usmarr__fail(USMARR_ERROR_BAD_DTYPE, "searchsorted: no key for dtype %s", usmarr_dtype_name(common));
    if (out && (rc = usmarr__check_out(a, out, USMARR_INT64, v->ndim, v->shape, USMARR_CASTING_NO, "searchsorted")))
        return rc;

    usmarr_context_t *ctx = a->memory->context;
    usmarr_array_t *res = NULL, *ac = NULL, *vc = NULL, *target = NULL;
    if (out)
        res = usmarr_array_retain(out);
    else if ((rc = new_result(v, USMARR_INT64, v->ndim, v->shape, &res)))
        return rc;
    int64_t m = usmarr_array_size(v), n = a->shape[0];
    if (m == 0)
        goto done;
    if (n == 0) { /* every key goes to position 0 */
        rc = usmarr_array_fill(res, usmarr_scalar_int(0));
        goto done;
    }
    if (a->dtype != common && (rc = usmarr_array_astype(a, common, USMARR_ORDER_C, NULL, &ac)))
        goto done;
    if ((v->dtype != common || !(v->flags & USMARR_FLAG_C_CONTIGUOUS)) &&
        (rc = usmarr_array_astype(v, common, USMARR_ORDER_C, NULL, &vc)))
        goto done;
    target = (res->flags & USMARR_FLAG_C_CONTIGUOUS) ? usmarr_array_retain(res) : NULL;
    if (!target && (rc = new_result(v, USMARR_INT64, v->ndim, v->shape, &target)))
        goto done;
    const usmarr_array_t *as = ac ? ac : a, *vs = vc ? vc : v;
    char defines[96];
    snprintf(defines, sizeof defines, "-DW=%zu -DKIND=%d", usmarr_dtype_size(common) * 8, kind);
    /* the gpu shape: a key per work-item, the first levels in local memory (cl/search.cl) */
    size_t group = ctx->shape.scan_group;
    if (group)
        snprintf(defines + strlen(defines), sizeof defines - strlen(defines), " -DSCAN_G=%zu", group);
    usmarr__kernel_t *k;
    /* both sides are kernels of one program */
    static const char *const kernels[2][2] = {{"usmarr_searchsorted", "usmarr_searchsorted_right"},
                                              {"usmarr_searchsorted_g", "usmarr_searchsorted_g_right"}};
    if ((rc = usmarr__kernel_get(ctx, group ? "sort+search" : "sort", defines,
                                 kernels[group != 0][side == USMARR_SIDE_RIGHT], &k)))
        goto done;
    cl_long ln = n, lsa = as->strides[0], lss = sorter ? sorter->strides[0] : 0, lm = m;
    cl_int use = sorter != NULL;
    size_t local = group ? group : 64;
    size_t global = group ? ((size_t)m + group - 1) / group * group
                          : ((size_t)m + SEARCH_KEYS * 64 - 1) / (SEARCH_KEYS * 64) * 64;
    const struct usmarr__karg args[] = {USMARR__ARG_PTR(usmarr_array_data(as)), USMARR__ARG(ln), USMARR__ARG(lsa),
                                        USMARR__ARG_PTR(sorter ? usmarr_array_data(sorter) : NULL), USMARR__ARG(lss),
                                        USMARR__ARG(use), USMARR__ARG_PTR(usmarr_array_data(vs)), USMARR__ARG(lm),
                                        USMARR__ARG_PTR(usmarr_array_data(target))};
    rc = usmarr__kernel_launch(ctx, k, USMARR__NARGS(args), args, 1, &global, &local);
    if (!rc && target != res)
        rc = usmarr_array_copy_into(res, target);
done:
    usmarr_array_release(ac);
    usmarr_array_release(vc);
    usmarr_array_release(target);
    return usmarr__result_end(rc, res, out, result); /* res is `out` (retained) or new */
}

/* top_k of k <= TOPK_MAX by one read of each row (cl/topk.cl), where x's rows and the
 * results' nest as R rows, in the CPU shape (a GPU's work-item a row would read across
 * rows; the gpu shape sorts them in work-groups); *selected stays false, with nothing
 * done, where that does not apply (the caller then sorts every row). */
static int top_k_select(const usmarr_array_t *x, int64_t k, int a, bool largest, usmarr_array_t **values,
                        usmarr_array_t **indices, bool *selected)
{
    *selected = false;
    int64_t rows, sr, se, rows2, osr, ose, shape[USMARR_MAX_NDIM];
    usmarr_context_t *ctx = x->memory->context;
    if (k < 1 || k > TOPK_MAX || sort_key_kind(x->dtype) < 0 || ctx->shape.scan_group ||
        !rows_of(x, a, &rows, &sr, &se))
        return 0;
    memcpy(shape, x->shape, sizeof(int64_t) * (size_t)x->ndim);
    shape[a] = k;
    usmarr_array_t *vals = NULL, *idx = NULL;
    int rc = new_result(x, x->dtype, x->ndim, shape, &vals);
    if (!rc)
        rc = new_result(x, USMARR_INT64, x->ndim, shape, &idx);
    if (!rc && !rows_of(vals, a, &rows2, &osr, &ose))
        goto done; /* an axis between others: the sort's copies */
    *selected = true;
    if (!rc && rows) {
        char defines[96];
        usmarr__kernel_t *kern;
        snprintf(defines, sizeof defines, "-DW=%zu -DKIND=%d -DDESC=%d -DARG=1", usmarr_dtype_size(x->dtype) * 8,
                 sort_key_kind(x->dtype), (int)largest);
        cl_long lsr = sr, lse = se, ln = x->shape[a], lk = k, lrows = rows, losr = osr, lose = ose;
        const struct usmarr__karg args[] = {USMARR__ARG_PTR(usmarr_array_data(x)), USMARR__ARG(lsr), USMARR__ARG(lse),
                                            USMARR__ARG(ln), USMARR__ARG(lk), USMARR__ARG(lrows),
                                            USMARR__ARG_PTR(usmarr_array_data(vals)),
                                            USMARR__ARG_PTR(usmarr_array_data(idx)), USMARR__ARG(losr),
                                            USMARR__ARG(lose)};
        /* work-groups of one work-item, TOPK_ITEMS_PER_UNIT a compute unit taking rows in
         * turn: a vectorizer that packs work-items gathers across rows (2048 x 2048
         * float32, k = 8: 4 ms in groups of one, 7-15 ms in 16s) */
        size_t one = 1, units = ctx->profile.compute_units ? ctx->profile.compute_units : 1;
        size_t global = (size_t)rows < units * TOPK_ITEMS_PER_UNIT ? (size_t)rows : units * TOPK_ITEMS_PER_UNIT;
        if (!(rc = usmarr__kernel_get(ctx, "sort+topk", defines, "usmarr_topk_rows", &kern)))
            rc = usmarr__kernel_launch(ctx, kern, USMARR__NARGS(args), args, 1, &global, &one);
    }
done:
    if (rc || !*selected) {
        *selected = false;
        usmarr_array_release(vals);
        usmarr_array_release(idx);
        return rc;
    }
    *values = vals;
    *indices = idx;
    return 0;
}

USMARR_API int usmarr_top_k(const usmarr_array_t *x, int64_t k, int axis, bool largest, usmarr_array_t **values,
                            usmarr_array_t **indices)
{
    usmarr__clear_error();
    if (!x || !values || !indices)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "top_k: %s is NULL",
                            !x ? "x" : !values ? "values" : "indices");
    int a = axis < 0 ? axis + x->ndim : axis;
    if (a < 0 || a >= x->ndim)
        return usmarr__fail(USMARR_ERROR_INDEX, "top_k: axis=%d is out of range for %d dims", axis, x->ndim);
    if (k < 0 || k > x->shape[a])
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "top_k: k=%lld is outside [0, %lld] (the axis's length)",
                            (long long)k, (long long)x->shape[a]);
    usmarr_array_t *all = NULL, *view = NULL, *idx = NULL, *vals = NULL;
    bool selected;
    int rc = top_k_select(x, k, a, largest, values, indices, &selected);
    if (rc || selected)
        return rc;
    rc = usmarr_argsort(x, a, largest, NULL, &all);
    if (!rc) {
        usmarr_index_item_t items[USMARR_MAX_NDIM];
        for (int d = 0; d < x->ndim; d++)
            items[d] = d == a ? usmarr_index_slice(NULL, &k, NULL) : usmarr_index_slice(NULL, NULL, NULL);
        rc = usmarr_array_index(all, items, (size_t)x->ndim, &view);
    }
    if (!rc)
        rc = usmarr_array_copy(view, USMARR_ORDER_C, NULL, &idx);
    if (!rc)
        rc = usmarr_take_along_axis(x, idx, a, USMARR_INDEX_MODE_WRAP, NULL, &vals);
    usmarr_array_release(all);
    usmarr_array_release(view);
    if (rc) {
        usmarr_array_release(idx);
        return rc;
    }
    *values = vals;
    *indices = idx;
    return 0;
}
