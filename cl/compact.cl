/* compact.cl: the gpu shape's stream compaction for boolean masks (lib/index/mask.c:
 * extract, nonzero, place, and through them boolean getitem), appended to index.cl (its
 * COND / ELEM types and USMARR_TRUE) after cl/groupscan.cl, with -DSCAN_G=<items per
 * work-group>.  The kernels
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

#if USMARR_WANT(compact)
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
    group_scan_counts(counts, nchunks, tmp);
}
#endif

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
    long o = offsets[c] + group_scan_long(k, tmp, &total);                                                \
    for (long e = i0; e < i1; e++)                                                                      \
        if ((flags >> (e - i0)) & 1u) {                                                                 \
            body;                                                                                       \
            o++;                                                                                        \
        }

#if USMARR_WANT(compact)
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
#endif
