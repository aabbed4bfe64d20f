/* tally.cl: the unique functions of integers and bools whose values span a short range
 * (lib/ops/set.c unique_table), by a table of counts instead of a sort.  Appended to
 * cl/sort.cl (its ET, W and KIND; -DW=8|16|32|64 -DKIND=0|1).  An element's place in the
 * table is its value minus the smallest, as ulong (TALLY_VALUE sign-extends signed ones,
 * so the difference is right across the sign; lo is the smallest, found by the reductions).
 * x is contiguous, n elements:
 *   usmarr_tally_count    table c (range uints at c*range) counts chunk c's values; with
 *                         `want` & TALLY_FIRST, table ntables + c holds the index of
 *                         each value's first element in the chunk (where counted)
 *   usmarr_tally_merge    table 0 = the sum of the tables (table ntables: the first
 *                         index in the first chunk that counts the value), over blocks of
 *                         `block` values; heads[b] = the values present in block b
 *   usmarr_tally_scan     exclusive prefix sum of heads in place, the total at heads[nblocks]
 *   usmarr_tally_write    for the j-th present value v (ascending by construction):
 *                         values[j] = lo + v, counts[j] = its count (`want` & TALLY_COUNTS),
 *                         table[v] = j (& TALLY_RANKS), first[j] = its first index
 *                         (& TALLY_FIRST)
 *   usmarr_tally_inverse  inverse[i] = table[x[i] - lo] (the ranks) */

#if KIND == 1 && W == 8
typedef char TT;
#elif KIND == 1 && W == 16
typedef short TT;
#elif KIND == 1 && W == 32
typedef int TT;
#elif KIND == 1
typedef long TT;
#else
typedef ET TT;
#endif
/* TT: the element as its own integer type; TALLY_VALUE its ulong place, sign-extended */
#if KIND == 1
#define TALLY_VALUE(e) ((ulong)(long)(TT)(e))
#else
#define TALLY_VALUE(e) ((ulong)(e))
#endif

/* what usmarr_tally_write writes besides the values (its `want`, lib/ops/set.c) */
#define TALLY_COUNTS 1
#define TALLY_RANKS 2
#define TALLY_FIRST 4

#if USMARR_WANT(tally)
__kernel void usmarr_tally_count(__global const ET *x, long n, long chunk, long nchunks, ulong lo, long range,
                                 __global uint *table, int want)
{
    long c = get_global_id(0);
    if (c >= nchunks)
        return;
    __global uint *t = table + c * range, *f = table + (nchunks + c) * range;
    for (long v = 0; v < range; v++)
        t[v] = 0;
    long b = c * chunk, e = min(b + chunk, n);
    if (want & TALLY_FIRST) {
        for (long i = b; i < e; i++) {
            ulong v = TALLY_VALUE(x[i]) - lo;
            if (!t[v]++)
                f[v] = (uint)i;
        }
    } else {
        for (long i = b; i < e; i++)
            t[TALLY_VALUE(x[i]) - lo]++;
    }
}

__kernel void usmarr_tally_merge(__global uint *table, long range, long ntables, long block, long nblocks,
                                 __global long *heads, int want)
{
    long g = get_global_id(0);
    if (g >= nblocks)
        return;
    __global uint *first = table + ntables * range;
    long b = g * block, e = min(b + block, range), h = 0;
    for (long v = b; v < e; v++) {
        uint s = table[v], f = (want & TALLY_FIRST) ? first[v] : 0;
        for (long c = 1; c < ntables; c++) {
            uint t = table[c * range + v];
            if ((want & TALLY_FIRST) && !s && t)
                f = first[c * range + v];
            s += t;
        }
        table[v] = s;
        if (want & TALLY_FIRST)
            first[v] = f;
        h += s != 0;
    }
    heads[g] = h;
}

__kernel void usmarr_tally_scan(__global long *heads, long nblocks) { usmarr_chunk_offsets(heads, nblocks); }

__kernel void usmarr_tally_write(__global uint *table, long range, long ntables, long block, long nblocks,
                                 __global const long *heads, ulong lo, __global ET *values, __global long *counts,
                                 __global long *first, int want)
{
    long g = get_global_id(0);
    if (g >= nblocks)
        return;
    long b = g * block, e = min(b + block, range), j = heads[g];
    for (long v = b; v < e; v++) {
        uint s = table[v];
        if (!s)
            continue;
        values[j] = (ET)(lo + (ulong)v);
        if (want & TALLY_COUNTS)
            counts[j] = s;
        if (want & TALLY_FIRST)
            first[j] = table[ntables * range + v];
        if (want & TALLY_RANKS)
            table[v] = (uint)j;
        j++;
    }
}

__kernel void usmarr_tally_inverse(__global const ET *x, long n, ulong lo, __global const uint *table,
                                   __global long *inverse)
{
    long g = get_global_id(0);
    if (g < n)
        inverse[g] = table[TALLY_VALUE(x[g]) - lo];
}
#endif
