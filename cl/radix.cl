/* radix.cl: the gpu shape's radix sort and unique compaction (lib/ops/radix.c, lib/ops/set.c),
 * appended to sort.cl (its ET / KT keys, make_key, key_element, is_head and -D macros) and
 * cl/groupscan.cl, with -DSCAN_G=<items per work-group> -DGR_BITS=<digit bits>.
 *
 * The sort: R rows of n keys, row r of the input in[r*sr + i*se], sorted by a stable LSD
 * radix sort of GR_BITS-bit digits (keys of up to 64 bits), each pass three steps over tiles
 * of GR_TILE = SCAN_G * GR_V keys (`tiles` per row, a work-group each):
 *
 *   usmarr_gradix_hist     the tile's count of each digit value (local atomics) into
 *                          hist[(r * GR_BINS + v) * tiles + t]
 *   (lib/ops/scan.c)       an exclusive scan of each row's (value, tile) counts, value-major:
 *                          offs[r * (GR_BINS * tiles + 1) + v * tiles + t] is where tile t's
 *                          first key of value v goes (cl/scan.cl, three launches)
 *   usmarr_gradix_scatter  item l holds GR_V neighbouring keys of the tile and counts them
 *                          per value in its column of a (value, item) table in local memory;
 *                          the group scans that table value-major, so each key's place among
 *                          the tile's keys of its value keeps their order (a stable pass);
 *                          it goes to offs + that place
 *
 * The first pass makes the keys from the input (the index i travels with ARG), the last
 * writes ka or, with a result (last = 1), the elements (indices with ARG) into
 * out[r*osr + i*ose]; the passes alternate between ka and kb so that the last lands in ka
 * (the host passes each its source and destination).  No pass waits on another work-group
 * and the host reads nothing back between passes.
 *
 * The set functions (lib/ops/set.c) on the sorted keys, the arguments of sort.cl's
 * usmarr_unique_* with chunk = GR_TILE and a work-group per chunk:
 *   usmarr_gunique_count   heads[c] = the chunk's heads (a tree in local memory)
 *   usmarr_gunique_scan    one work-group: exclusive scan of heads[0, nchunks), total last
 *   usmarr_gunique_write   item l's GR_V keys: values, first indices, starts and the inverse
 *                          after the group's scan of the items' head counts */

#ifdef SCAN_G
#define GR_V 8
#define GR_TILE (SCAN_G * GR_V)

#if W <= 64 && defined(GR_BITS)
#define GR_BINS (1 << GR_BITS)
#define GR_DIGIT(k, d) ((uint)((k) >> (GR_BITS * (d))) & (GR_BINS - 1u))
/* the (value, item) table, padded: an item's GR_BINS entries of the value-major scan
 * start in different banks */
#define GR_PAD(q) ((q) + ((q) >> 6))
#define GR_TABLE (GR_BINS * SCAN_G)

#if USMARR_WANT(gradix)
kernel void usmarr_gradix_hist(global const ET *in, long sr, long se, global const KT *src, long n, long tiles,
                               long p, long first, global uint *hist)
{
    local uint count[GR_BINS];
    long t = get_group_id(0), r = get_global_id(1);
    int l = (int)get_local_id(0);
    for (int v = l; v < GR_BINS; v += SCAN_G)
        count[v] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    long i1 = min((t + 1) * GR_TILE, n);
    in += r * sr;
    src += r * n;
    for (long i = t * GR_TILE + l; i < i1; i += SCAN_G) { /* neighbouring items, neighbouring keys */
        KT k = first ? make_key(in[i * se], CANON) : src[i];
        atomic_inc(&count[GR_DIGIT(k, p)]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int v = l; v < GR_BINS; v += SCAN_G)
        hist[(r * GR_BINS + v) * tiles + t] = count[v];
}

kernel void usmarr_gradix_scatter(global const ET *in, long sr, long se, global const KT *src,
                                  global const long *isrc, global KT *dst, global long *idst, long n, long tiles,
                                  long p, long first, global const ulong *offs, global ET *out, long osr, long ose,
                                  long last)
{
    local ushort table[GR_PAD(GR_TABLE)];
    local uint start[GR_BINS];
    local long tmp[SCAN_G];
    long t = get_group_id(0), r = get_global_id(1);
    int l = (int)get_local_id(0);
    long i0 = t * GR_TILE + (long)l * GR_V, i1 = min(i0 + GR_V, n);
    for (int v = 0; v < GR_BINS; v++)
        table[GR_PAD(v * SCAN_G + l)] = 0;
    KT key[GR_V];
    long id[GR_V];
    uint digit[GR_V];
    for (int k = 0; k < GR_V; k++) {
        long i = i0 + k;
        if (i < i1) {
            key[k] = first ? make_key(in[r * sr + i * se], CANON) : src[r * n + i];
            id[k] = ARG ? (first ? i : isrc[r * n + i]) : 0;
            digit[k] = GR_DIGIT(key[k], p);
            table[GR_PAD(digit[k] * SCAN_G + l)]++; /* the item's own column */
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    /* value-major exclusive scan of the table: item l owns entries [l*GR_BINS, +GR_BINS) */
    long run = 0, total;
    for (int s = 0; s < GR_BINS; s++) {
        int q = GR_PAD(l * GR_BINS + s);
        ushort c = table[q];
        table[q] = (ushort)run;
        run += c;
    }
    long before = group_scan_long(run, tmp, &total);
    for (int s = 0; s < GR_BINS; s++)
        table[GR_PAD(l * GR_BINS + s)] += (ushort)before;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int v = l; v < GR_BINS; v += SCAN_G) /* where each value starts in the tile */
        start[v] = table[GR_PAD(v * SCAN_G)];
    barrier(CLK_LOCAL_MEM_FENCE);
    global const ulong *o = offs + r * (GR_BINS * tiles + 1) + t;
    for (int k = 0; k < GR_V; k++) {
        if (i0 + k >= i1)
            break;
        uint v = digit[k];
        int q = GR_PAD(v * SCAN_G + l);
        long place = (long)o[v * tiles] + (long)table[q] - (long)start[v];
        table[q]++;
        if (last) {
#if ARG
            ((global long *)out)[r * osr + place * ose] = id[k];
#else
            out[r * osr + place * ose] = key_element(key[k]);
#endif
        } else {
            dst[r * n + place] = key[k];
            if (ARG)
                idst[r * n + place] = id[k];
        }
    }
}
#endif
#endif /* W <= 64 */

#if USMARR_WANT(gunique)
kernel void usmarr_gunique_count(global const KT *key, long n, long chunk, long nchunks, global long *heads)
{
    local long tmp[SCAN_G];
    long c = get_group_id(0), total;
    int l = (int)get_local_id(0);
    long i1 = min(c * chunk + chunk, n), h = 0;
    for (long i = c * chunk + l; i < i1; i += SCAN_G)
        h += is_head(key, i);
    group_scan_long(h, tmp, &total);
    if (l == 0)
        heads[c] = total;
}

kernel void usmarr_gunique_scan(global long *heads, long nchunks)
{
    local long tmp[SCAN_G];
    group_scan_counts(heads, nchunks, tmp);
}

kernel void usmarr_gunique_write(global const KT *key, global const long *idx, long n, long chunk, long nchunks,
                                 global const long *heads, global ET *values, global long *first,
                                 global long *starts, global long *inverse, int want)
{
    local long tmp[SCAN_G];
    long c = get_group_id(0), total;
    int l = (int)get_local_id(0);
    long i0 = c * chunk + (long)l * GR_V, i1 = min(i0 + GR_V, min(c * chunk + chunk, n)), h = 0;
    for (long i = i0; i < i1; i++)
        h += is_head(key, i);
    long j = heads[c] + group_scan_long(h, tmp, &total) - 1; /* the last head before i0 */
    unique_write_range(key, idx, i0, i1, j, values, first, starts, inverse, want);
}
#endif
#endif /* SCAN_G */
