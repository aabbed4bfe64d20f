/* groupscan.cl: the work-group scans of counts that the gpu shape's compaction
 * (cl/compact.cl) and radix sort and unique (cl/radix.cl) share, appended before them with
 * -DSCAN_G=<items per work-group> (SCAN_G a power of two).
 *
 *   group_scan_long(v, tmp, &total)  the group's exclusive scan of one count per item
 *                                    (Hillis and Steele in local memory); total the sum
 *   group_scan_counts(counts, n)     one work-group: counts[0, n) turned into their
 *                                    exclusive scan in place, GS_V per item at a time with a
 *                                    running carry, and the total written at counts[n] */

#if defined(SCAN_G) && !defined(USMARR_GROUPSCAN)
#define USMARR_GROUPSCAN
#define GS_V 8

static long group_scan_long(long v, local long *tmp, long *total)
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

static void group_scan_counts(global long *counts, long n, local long *tmp)
{
    int l = (int)get_local_id(0);
    long carry = 0;
    for (long base = 0; base < n; base += SCAN_G * GS_V) {
        long j0 = base + (long)l * GS_V, v[GS_V], run = 0, total;
        for (int k = 0; k < GS_V; k++) {
            v[k] = j0 + k < n ? counts[j0 + k] : 0;
            run += v[k];
        }
        long at = carry + group_scan_long(run, tmp, &total);
        for (int k = 0; k < GS_V; k++) {
            if (j0 + k < n)
                counts[j0 + k] = at;
            at += v[k];
        }
        carry += total;
    }
    if (l == 0)
        counts[n] = carry;
}
#endif
