/* search.cl: the gpu shape's searchsorted (lib/ops/sort.c), appended to sort.cl (its keys,
 * ss_probe and SS_BEFORE) with -DSCAN_G=<items per work-group>.
 *
 *   usmarr_searchsorted_g  one key per work-item (a GPU hides the latency of a search's
 *                          chain of loads with many threads, not with many searches per
 *                          thread); usmarr_searchsorted_g_right, the same on the right side.  The work-group first loads SS_SAMPLES evenly spaced
 *                          elements of the sorted array into local memory (the same few
 *                          kilobytes for every group: they stay in the L2 cache), finds the
 *                          key's interval among them there, and searches only that
 *                          interval in global memory: about 10 of a 16M-element search's 24
 *                          dependent loads come from local memory.
 *
 * With c the number of samples before the key (the predicate SS_BEFORE holds for a prefix
 * of a sorted array), every element up to sample c-1 is before the key and none from
 * sample c on: the answer lies in [position(c-1) + 1, position(c)]. */

#ifdef SCAN_G
#define SS_SAMPLES (4 * SCAN_G)

/* the position of sample j of n elements: increasing with j, in [0, n) */
inline long ss_sample_at(long j, long n)
{
    return (long)(((ulong)(j + 1) * (ulong)n) / (SS_SAMPLES + 1));
}

__attribute__((always_inline)) inline void searchsorted_g(__global const ET *a, long n, long sa,
                                                          __global const long *sorter, long ss, int use_sorter,
                                                          __global const ET *v, long m, __global long *out,
                                                          local KT *sample, const int right)
{
    int l = (int)get_local_id(0);
    for (int j = l; j < SS_SAMPLES; j += SCAN_G)
        sample[j] = ss_probe(a, n, sa, sorter, ss, use_sorter, ss_sample_at(j, n));
    barrier(CLK_LOCAL_MEM_FENCE);
    long g = get_global_id(0);
    if (g >= m)
        return;
    KT key = make_key(v[g], 1);
    int c = 0, len = SS_SAMPLES; /* c = the samples before the key */
    while (len > 0) {
        int mid = len / 2;
        if (SS_BEFORE(sample[c + mid], key)) {
            c += mid + 1;
            len -= mid + 1;
        } else {
            len = mid;
        }
    }
    long base = c > 0 ? ss_sample_at(c - 1, n) + 1 : 0, end = c < SS_SAMPLES ? ss_sample_at(c, n) : n;
    for (long span = end - base; span > 0;) {
        long mid = span / 2;
        if (SS_BEFORE(ss_probe(a, n, sa, sorter, ss, use_sorter, base + mid), key)) {
            base += mid + 1;
            span -= mid + 1;
        } else {
            span = mid;
        }
    }
    out[g] = base;
}
#define SS_KERNEL_G(NAME, RIGHT)                                                                      \
    __kernel void NAME(__global const ET *a, long n, long sa, __global const long *sorter, long ss,     \
                       int use_sorter, __global const ET *v, long m, __global long *out)                \
    {                                                                                                   \
        local KT sample[SS_SAMPLES];                                                                    \
        searchsorted_g(a, n, sa, sorter, ss, use_sorter, v, m, out, sample, RIGHT);                     \
    }
SS_KERNEL_G(usmarr_searchsorted_g, 0)
SS_KERNEL_G(usmarr_searchsorted_g_right, 1)
#endif
