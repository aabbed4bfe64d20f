/* compact.cl: the gpu shape's stream compaction for boolean masks (lib/index/mask.c:
 * extract, nonzero, place, and through them boolean getitem), appended to index.cl (its
 * COND / ELEM types and USMARR_TRUE) with -DSCAN_G=<items per work-group>.  The kernels
 * take the arguments of index.cl's usmarr_mask_* (cond, [src,] n, chunk, nchunks, counts,
 * dst, [vals, nvals]), with chunk = SCAN_G * CP_V, and a work-group per chunk where those
 * have a work-item:
 *
 *   usmarr_compact_count    counts[c]: the chunk's true elements (a tree in local memory)
 *   usmarr_compact_scan     one work-group: the exclusive scan of counts[0, nchunks) in
 *                           place, CP_TILE at a time with a running carry, and the total at
 *                           counts[nchunks]
 *   usmarr_compact_extract  item l of chunk c owns elements c*chunk + l*CP_V + [0, CP_V):
 *   usmarr_compact_nonzero  it counts its true ones, the group scans the counts, and it
 *   usmarr_compact_place    writes its selections from counts[c] + its offset on, in order
 *
 * The order of the selections is the elements' (a stable compaction); no work-group waits
 * on another. */

#if defined(COND) && defined(SCAN_G)
#define CP_V 8
#define CP_TILE (SCAN_G * CP_V)

/* The group's exclusive scan of one count per item; *total the group's sum. */
static long cp_scan_group(long v, local long *tmp, long *total)
{
    int l = (int)get_local_id(0);
    tmp[l] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int off = 1; off < SCAN_G; off <<= 1) {
        long t = l >= off ? tmp[l - off] : 0;
        barrier(CLK_LOCAL_MEM_FENCE);
        v += t;
        tmp[l] = v;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    long before = l ? tmp[l - 1] : 0;
    *total = tmp[SCAN_G - 1];
    barrier(CLK_LOCAL_MEM_FENCE);
    return before;
}

kernel void usmarr_compact_count(global const usmarr_cond_t *cond, long n, long chunk, long nchunks,
                                 global long *counts)
{
    local long tmp[SCAN_G];
    long c = get_group_id(0);
    int l = (int)get_local_id(0);
    long i0 = c * chunk, i1 = min(i0 + chunk, n), k = 0;
    for (long e = i0 + l; e < i1; e += SCAN_G) /* neighbouring items, neighbouring bytes */
        k += USMARR_TRUE(cond, e);
    tmp[l] = k;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = SCAN_G / 2; s > 0; s >>= 1) {
        if (l < s)
            tmp[l] += tmp[l + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0)
        counts[c] = tmp[0];
}

kernel void usmarr_compact_scan(global long *counts, long nchunks)
{
    local long tmp[SCAN_G];
    int l = (int)get_local_id(0);
    long carry = 0;
    for (long base = 0; base < nchunks; base += CP_TILE) {
        long j0 = base + (long)l * CP_V, v[CP_V], run = 0, total;
        for (int k = 0; k < CP_V; k++) {
            v[k] = j0 + k < nchunks ? counts[j0 + k] : 0;
            run += v[k];
        }
        long at = carry + cp_scan_group(run, tmp, &total);
        for (int k = 0; k < CP_V; k++) {
            if (j0 + k < nchunks)
                counts[j0 + k] = at;
            at += v[k];
        }
        carry += total;
    }
    if (l == 0)
        counts[nchunks] = carry;
}

/* The selections of item l's elements: `e` the element, `o` its place in the output. */
#define CP_EACH(body)                                                                                   \
    local long tmp[SCAN_G];                                                                             \
    long c = get_group_id(0);                                                                           \
    int l = (int)get_local_id(0);                                                                       \
    long i0 = c * chunk + (long)l * CP_V, i1 = min(i0 + CP_V, min(c * chunk + chunk, n)), k = 0, total;  \
    uchar flags = 0;                                                                                    \
    for (long e = i0; e < i1; e++)                                                                      \
        if (USMARR_TRUE(cond, e)) {                                                                     \
            flags |= (uchar)(1u << (e - i0));                                                           \
            k++;                                                                                        \
        }                                                                                               \
    long o = offsets[c] + cp_scan_group(k, tmp, &total);                                                \
    for (long e = i0; e < i1; e++)                                                                      \
        if ((flags >> (e - i0)) & 1u) {                                                                 \
            body;                                                                                       \
            o++;                                                                                        \
        }

kernel void usmarr_compact_extract(global const usmarr_cond_t *cond, global const usmarr_elem_t *src, long n,
                                   long chunk, long nchunks, global const long *offsets, global usmarr_elem_t *dst)
{
    CP_EACH(dst[o] = src[e])
}

kernel void usmarr_compact_nonzero(global const usmarr_cond_t *cond, long n, long chunk, long nchunks,
                                   global const long *offsets, global long *dst)
{
    CP_EACH(dst[o] = e)
}

kernel void usmarr_compact_place(global const usmarr_cond_t *cond, long n, long chunk, long nchunks,
                                 global const long *offsets, global usmarr_elem_t *dst, global const usmarr_elem_t *vals,
                                 long nvals)
{
    CP_EACH(dst[e] = vals[o % nvals])
}
#endif
