/* index.cl: advanced indexing (lib/index/take.c).  Two kinds of program from one family:
 *
 * 1. Map programs (lib/engine/engine_internal.h, section 2; USMARR_NOUT is defined), one per -DOP_...:
 *    OP_GATHER  take / take_along_axis:  out0 = base2[x2 + norm(in1) * stride]
 *               operands: out0 result, in1 indices, in2 the source's element [.., 0, ..]
 *               (zero strides on the index axes); scalars: S0 = n (axis length),
 *               S1 = stride of the axis (elements).
 *               With -DCHECKED=1 (raise mode, new result): out1/out2 are OP_CHECK's
 *               cells, in3 the indices, in4 the source; a bad index sets the cells and
 *               skips its element.
 *    OP_SCATTER put:  base0[x0 + norm(in1) * stride] = in2
 *               operands: out0 the target's element [.., 0, ..], in1 indices, in2 values
 *    OP_SCATTER_CLAIM, OP_SCATTER_OWNED  put in NumPy's order (the last index's value stays):
 *               owner0[x0 + norm(in1) * stride] = max(.., in2), in2 the index's position
 *               (int32, -1 before; owner0 laid out as the target), then OP_SCATTER's
 *               write where in3 (the owners) holds this item's position in4
 *    OP_CHECK   raise mode, before anything is read or written: for each index out of
 *               [-n, n) sets out0 (int64 flag, stride 0) to 1 and out1 (stride 0, the
 *               index dtype) to that index, so the host can name a bad value
 *    OP_UNRAVEL nonzero's coordinates: out0 = (in1 / S0) % S1
 *    OP_OFFSET  several index arrays (getitem.c): out0 = [in(last) +] norm(index) * S1
 *               (-DACCUMULATE=1 adds the previous offsets, an input aliasing out0),
 *               scalars as OP_GATHER; with -DCHECKED=1 out1/out2 are the cells, in3 the
 *               indices (a bad index sets the cells and stores 0)
 *    OP_GATHER_OFFSET   out0 = base2[x2 + in1]    (in1: OP_OFFSET's int64 offsets)
 *    OP_SCATTER_OFFSET  base0[x0 + in1] = in2
 *    OP_TRIANGLE  tril/triu (lib/index/triangle.c): out0 = in1 (converted) where the
 *               diagonal number in2 (an int64 "j - i + rows - 1" read through strides
 *               (-1, +1) over an iota, 0 on the batch dims) is <= S0 (-DTRI_LOWER=1) or
 *               >= S0, else 0
 *    norm() follows MODE: 0 wrap (Python modulo), 1 clip to [0, n-1], 2 "checked":
 *    negative values count from the end (the raise mode after OP_CHECK passed).
 *    IDX_UNSIGNED=1 when the index dtype is unsigned (values above LONG_MAX stay large).
 *
 * 2. Custom kernels (no USMARR_NOUT):
 *    usmarr_take_flat (-DIDX=<index tag> -DELEM=<bit-copy tag> -DMODE -DIDX_UNSIGNED
 *    [-DCHECKED=1]): take from a 1-d source, or along the last axis of each row of a 2-d
 *    one, with contiguous indices into a contiguous result, one element per work-item,
 *    cells as in OP_GATHER's CHECKED form.
 *    usmarr_take_rows (the same options): getitem's a[idx, ...] when the axes after the
 *    index are one contiguous run of the source: a run per work-item into a contiguous
 *    result.  usmarr_take_runs: the same for long runs, TAKE_RUN elements a work-item, 2-D
 *    (-DTAKE_RUN=512 [-DTAKE_NT=1]: non-temporal stores).
 *    Boolean masks (-DCOND=<tag of the mask> -DELEM=<bit-copy tag of the elements>): the
 *    flat (C-order) range [0, n) is cut into chunks of `chunk` elements, one work-item each:
 *      usmarr_mask_count    counts[c] = number of true mask elements in chunk c
 *      usmarr_mask_scan     exclusive prefix sum of counts[0, nchunks) in place, the
 *                           total in counts[nchunks] (one work-item: nchunks is small)
 *      usmarr_mask_extract  dst[counts[c] + j] = src[e] for the j-th true e of chunk c
 *      usmarr_mask_nonzero  dst[counts[c] + j] = e
 *      usmarr_mask_place    dst[e] = vals[(counts[c] + j) % nvals]
 *    Order is preserved: chunk c's selections land after those of chunks < c.  The
 *    scan's total at counts[nchunks] doubles as the end of the last chunk's range. */

#ifdef MODE /* index normalisation, for the map programs and usmarr_take_flat */
#if IDX_UNSIGNED
#define USMARR_IDX_BAD(v, n) ((ulong)(v) >= (ulong)(n))
#else
#define USMARR_IDX_BAD(v, n) ((long)(v) < -(n) || (long)(v) >= (n))
#endif

inline long usmarr_index_norm(long v, ulong uv, long n)
{
#if MODE == 0
#if IDX_UNSIGNED
    return (long)(uv % (ulong)n);
#else
    long r = v % n;
    return r < 0 ? r + n : r;
#endif
#elif MODE == 1
#if IDX_UNSIGNED
    return uv >= (ulong)n ? n - 1 : (long)uv;
#else
    return v < 0 ? 0 : v >= n ? n - 1 : v;
#endif
#else
#if IDX_UNSIGNED
    return (long)uv;
#else
    return v < 0 ? v + n : v;
#endif
#endif
}

#endif

#ifdef USMARR_NOUT

#define USMARR_NORM(k) usmarr_index_norm((long)LOAD(k), (ulong)LOAD(k), SCALAR(0))

#if defined(OP_GATHER) && CHECKED
/* raise without a pre-pass: out1/out2 are the flag and value cells, in3 the indices */
#define USMARR_MAP_BODY                                                                                     \
    if (USMARR_IDX_BAD(LOAD(3), SCALAR(0))) {                                                               \
        STORE(1, 1);                                                                                        \
        STORE(2, LOAD(3));                                                                                  \
    } else {                                                                                                \
        STORE(0, CONVERT(4, 0, USMARR_LOADP(D4, p4, x4 + USMARR_NORM(3) * SCALAR(1))));                     \
    }
#elif defined(OP_GATHER)
#define USMARR_MAP_BODY STORE(0, CONVERT(2, 0, USMARR_LOADP(D2, p2, x2 + USMARR_NORM(1) * SCALAR(1))))
#elif defined(OP_SCATTER)
#define USMARR_MAP_BODY USMARR_STOREP(D0, p0, x0 + USMARR_NORM(1) * SCALAR(1), CONVERT(2, 0, LOAD(2)))
#elif defined(OP_SCATTER_CLAIM) /* an ordered put's claims: owner0[x0 + norm(in1) * stride] max= in2 */
#define USMARR_MAP_BODY atomic_max((volatile global int *)p0 + x0 + USMARR_NORM(1) * SCALAR(1), (int)LOAD(2))
#elif defined(OP_SCATTER_OWNED) /* its writes: base0[..] = in2 where the claim in3[..] is this item's in4 */
#define USMARR_MAP_BODY                                                                                     \
    {                                                                                                       \
        long at_ = USMARR_NORM(1) * SCALAR(1);                                                              \
        if (USMARR_LOADP(D3, p3, x3 + at_) == LOAD(4))                                                      \
            USMARR_STOREP(D0, p0, x0 + at_, CONVERT(2, 0, LOAD(2)));                                        \
    }
#elif defined(OP_CHECK)
#define USMARR_MAP_BODY                                                                                     \
    if (USMARR_IDX_BAD(LOAD(2), SCALAR(0))) {                                                               \
        STORE(0, 1);                                                                                        \
        STORE(1, LOAD(2));                                                                                  \
    }
#elif defined(OP_UNRAVEL)
#define USMARR_MAP_BODY STORE(0, (LOAD(1) / SCALAR(0)) % SCALAR(1))
#elif defined(OP_OFFSET) && CHECKED && ACCUMULATE
/* Several index arrays (getitem.c): out0 (int64 offsets over the broadcast index shape)
 * += norm(index) * stride, one index array per pass; CHECKED as OP_GATHER's */
#define USMARR_MAP_BODY                                                                                     \
    if (USMARR_IDX_BAD(LOAD(3), SCALAR(0))) {                                                               \
        STORE(1, 1);                                                                                        \
        STORE(2, LOAD(3));                                                                                  \
    } else {                                                                                                \
        STORE(0, LOAD(4) + USMARR_NORM(3) * SCALAR(1));                                                     \
    }
#elif defined(OP_OFFSET) && CHECKED
#define USMARR_MAP_BODY                                                                                     \
    if (USMARR_IDX_BAD(LOAD(3), SCALAR(0))) {                                                               \
        STORE(1, 1);                                                                                        \
        STORE(2, LOAD(3));                                                                                  \
        STORE(0, 0);                                                                                        \
    } else {                                                                                                \
        STORE(0, USMARR_NORM(3) * SCALAR(1));                                                               \
    }
#elif defined(OP_OFFSET) && ACCUMULATE
#define USMARR_MAP_BODY STORE(0, LOAD(2) + USMARR_NORM(1) * SCALAR(1))
#elif defined(OP_OFFSET)
#define USMARR_MAP_BODY STORE(0, USMARR_NORM(1) * SCALAR(1))
#elif defined(OP_GATHER_OFFSET) /* out0 = base2[x2 + in1], in1 OP_OFFSET's offsets */
#define USMARR_MAP_BODY STORE(0, CONVERT(2, 0, USMARR_LOADP(D2, p2, x2 + LOAD(1))))
#elif defined(OP_SCATTER_OFFSET) /* base0[x0 + in1] = in2 */
#define USMARR_MAP_BODY USMARR_STOREP(D0, p0, x0 + LOAD(1), CONVERT(2, 0, LOAD(2)))
#elif defined(OP_TRIANGLE) && TRI_LOWER
#define USMARR_MAP_BODY STORE(0, LOAD(2) <= SCALAR(0) ? CONVERT(1, 0, LOAD(1)) : (CTYPE(0))0)
#elif defined(OP_TRIANGLE)
#define USMARR_MAP_BODY STORE(0, LOAD(2) >= SCALAR(0) ? CONVERT(1, 0, LOAD(1)) : (CTYPE(0))0)
#else
#error "index.cl map programs need -DOP_GATHER, -DOP_SCATTER, -DOP_SCATTER_CLAIM, -DOP_SCATTER_OWNED, -DOP_CHECK, -DOP_UNRAVEL, -DOP_OFFSET, -DOP_GATHER_OFFSET, -DOP_SCATTER_OFFSET or -DOP_TRIANGLE"
#endif

#else /* custom kernels */

#ifdef IDX
/* take from a 1-d source (any stride) with contiguous indices into a contiguous result,
 * one element per work-item: the common case without the map's generality.  A second
 * dimension of the range takes the same indices from each row of a 2-d source (the rows
 * rstride apart, along its last axis) into consecutive runs of m results.  Built with
 * -DIDX=<index tag> -DELEM=<bit-copy tag> -DMODE=... -DIDX_UNSIGNED=... [-DCHECKED=1]. */
typedef USMARR_STORAGE(IDX) usmarr_idx_t;
typedef USMARR_STORAGE(ELEM) usmarr_item_t;
#if USMARR_WANT(take)
kernel void usmarr_take_flat(global usmarr_item_t *out, global const usmarr_idx_t *ind,
                             global const usmarr_item_t *src, long m, long n, long stride, long rstride,
                             global long *cells)
{
    long e = get_global_id(0), row = get_global_id(1);
    if (e >= m)
        return;
    out += row * m;
    src += row * rstride;
    usmarr_idx_t raw = ind[e];
#if CHECKED
    if (USMARR_IDX_BAD(raw, n)) {
        cells[0] = 1;
        *(global usmarr_idx_t *)(cells + 1) = raw;
        return;
    }
#endif
#if TAKE_IN_RANGE /* the gpu shape: an index already in [0, n) skips the 64-bit division */
    long at = (ulong)(long)raw < (ulong)n ? (long)raw : usmarr_index_norm((long)raw, (ulong)raw, n);
    out[e] = src[at * stride];
#else
    out[e] = src[usmarr_index_norm((long)raw, (ulong)raw, n) * stride];
#endif
}
#endif

#if USMARR_WANT(take)
/* Row e's source row in `src`: its index read and wrapped; with CHECKED, an index out of
 * range is recorded in `cells` (a flag, then the index) and NULL returned. */
static inline global const usmarr_item_t *take_source(global const usmarr_idx_t *ind, long istride, long e,
                                                      global const usmarr_item_t *src, long n, long stride,
                                                      global long *cells)
{
    usmarr_idx_t raw = ind[e * istride];
#if CHECKED
    if (USMARR_IDX_BAD(raw, n)) {
        cells[0] = 1;
        *(global usmarr_idx_t *)(cells + 1) = raw;
        return 0;
    }
#else
    (void)cells;
#endif
    return src + usmarr_index_norm((long)raw, (ulong)raw, n) * stride;
}

/* a[idx, ...] whose remaining axes are one contiguous run of `len` source elements
 * (getitem.c): one work-item per index copies its run into row e of a contiguous
 * result.  Indices of any stride; cells as usmarr_take_flat's. */
kernel void usmarr_take_rows(global usmarr_item_t *out, global const usmarr_idx_t *ind, long istride,
                             global const usmarr_item_t *src, long m, long len, long n, long stride,
                             global long *cells)
{
    long e = get_global_id(0);
    if (e >= m)
        return;
    global const usmarr_item_t *s = take_source(ind, istride, e, src, n, stride, cells);
    if (!s)
        return;
    global usmarr_item_t *o = out + e * len;
    for (long j = 0; j < len; j++)
        o[j] = s[j];
}

/* The same for long runs: TAKE_RUN elements (-DTAKE_RUN, a multiple of 16) of row e a
 * work-item, dimension 0 along the run, so that neighbouring work-items copy neighbouring
 * elements and the index costs little next to the copy; runs of 16-vectors where the items
 * have a vector type (vec_type_hint: a runtime that vectorises across work-items leaves
 * them alone, and does not gather 16 rows at once).  With -DTAKE_NT=1 (a result beyond the
 * caches whose rows are 64-byte aligned) the stores bypass the caches, as the engine's
 * contiguous copy's do. */
#ifndef TAKE_RUN
#define TAKE_RUN 512
#endif
#if USMARR_CAT(USMARR_VEC_OK_, ELEM)
typedef __typeof__(vload16(0, (global const usmarr_item_t *)0)) usmarr_vitem_t __attribute__((aligned(1)));
#if TAKE_NT
#define TAKE_VSTORE(p, v) __builtin_nontemporal_store((v), (global __typeof__(+(v)) *)(p))
#else
#define TAKE_VSTORE(p, v) (*(global usmarr_vitem_t *)(p) = (v))
#endif
#endif
kernel __attribute__((vec_type_hint(float16))) void usmarr_take_runs(global usmarr_item_t *out, global const usmarr_idx_t *ind, long istride,
                             global const usmarr_item_t *src, long m, long len, long n, long stride,
                             global long *cells)
{
    long c = get_global_id(0) * TAKE_RUN, e = get_global_id(1);
    if (c >= len || e >= m)
        return;
    global const usmarr_item_t *s = take_source(ind, istride, e, src, n, stride, cells);
    if (!s)
        return;
    s += c;
    global usmarr_item_t *o = out + e * len + c;
    long count = min(len - c, (long)TAKE_RUN), j = 0;
#if USMARR_CAT(USMARR_VEC_OK_, ELEM)
    for (; j + 16 <= count; j += 16)
        TAKE_VSTORE(o + j, *(global const usmarr_vitem_t *)(s + j));
#endif
    for (; j < count; j++)
        o[j] = s[j];
}
#endif
#endif

#ifdef COND
#define USMARR_TRUE(p, e) (USMARR_CONVERT(COND, b, USMARR_LOADP(COND, p, e)) != 0)
#define USMARR_BYTES_b 1
#define USMARR_BYTES_i8 1
#define USMARR_BYTES_u8 1
#define USMARR_MASK_BYTES USMARR_CAT(USMARR_BYTES_, COND)
typedef USMARR_STORAGE(COND) usmarr_cond_t;
typedef USMARR_STORAGE(ELEM) usmarr_elem_t;

#if USMARR_WANT(mask)
kernel USMARR_ONE_PER_LANE void usmarr_mask_count(global const usmarr_cond_t *cond, long n, long chunk, long nchunks,
                              global long *counts)
{
    long c = get_global_id(0);
    if (c >= nchunks)
        return;
    long begin = c * chunk, end = min(begin + chunk, n), count = 0, e = begin;
#if USMARR_MASK_BYTES
    /* One-byte masks: 16 at a time (chunk is a multiple of 16). */
    for (; e + 16 <= end; e += 16) {
        uchar16 v = as_uchar16(vload16(0, (global const uchar *)cond + e));
        uchar16 t = select((uchar16)(0), (uchar16)(1), v != (uchar16)(0));
        uchar8 s8 = t.lo + t.hi;
        uchar4 s4 = s8.lo + s8.hi;
        uchar2 s2 = s4.lo + s4.hi;
        count += s2.x + s2.y;
    }
#endif
    for (; e < end; e++)
        count += USMARR_TRUE(cond, e);
    counts[c] = count;
}

kernel void usmarr_mask_scan(global long *counts, long nchunks)
{
    if (get_global_id(0) == 0)
        usmarr_chunk_offsets(counts, nchunks);
}

kernel USMARR_ONE_PER_LANE void usmarr_mask_extract(global const usmarr_cond_t *cond, global const usmarr_elem_t *src, long n,
                                long chunk, long nchunks, global const long *offsets, global usmarr_elem_t *dst)
{
    long c = get_global_id(0);
    if (c >= nchunks)
        return;
    long begin = c * chunk, end = min(begin + chunk, n);
    global usmarr_elem_t *out = dst + offsets[c], *stop = dst + offsets[c + 1];
    /* Branch-free (a random mask defeats branch prediction): always store, advance on
     * true.  A store for a false element lands where the next true one goes, so it is
     * overwritten; stopping after the chunk's last true element keeps every store
     * inside this chunk's range of the output. */
    for (long e = begin; e < end && out < stop; e++) {
        *out = src[e];
        out += USMARR_TRUE(cond, e);
    }
}

kernel USMARR_ONE_PER_LANE void usmarr_mask_nonzero(global const usmarr_cond_t *cond, long n, long chunk, long nchunks,
                                global const long *offsets, global long *dst)
{
    long c = get_global_id(0);
    if (c >= nchunks)
        return;
    long begin = c * chunk, end = min(begin + chunk, n);
    global long *out = dst + offsets[c], *stop = dst + offsets[c + 1];
    for (long e = begin; e < end && out < stop; e++) { /* branch-free, as in extract */
        *out = e;
        out += USMARR_TRUE(cond, e);
    }
}

kernel USMARR_ONE_PER_LANE void usmarr_mask_place(global const usmarr_cond_t *cond, long n, long chunk, long nchunks,
                              global const long *offsets, global usmarr_elem_t *dst,
                              global const usmarr_elem_t *vals, long nvals)
{
    long c = get_global_id(0);
    if (c >= nchunks)
        return;
    long begin = c * chunk, end = min(begin + chunk, n);
    long j = offsets[c] % nvals;
    for (long e = begin; e < end; e++) {
        if (USMARR_TRUE(cond, e)) {
            dst[e] = vals[j];
            if (++j == nvals)
                j = 0;
        }
    }
}
#endif
#endif /* COND */

#endif
