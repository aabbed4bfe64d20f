/* scan.cl: device-wide scans of lines, the gpu shape's cumulative functions (lib/ops/scan.c),
 * appended to reduce.cl (its D1 types, accumulation tags and r_lse_* helpers) in the gpu
 * shape's reduction program (-DSCAN_G=<items per work-group>).
 *
 * `lines` lines of n elements, in[line*n + i]; the result is out[line*(n+init) + init + i]
 * (init 1: include_initial, the line starts with the identity).  A line is cut into tiles
 * of SCAN_TILE = SCAN_G * SCAN_V elements; three launches, reduce then scan:
 *
 *   usmarr_scan_reduce_OP  a work-group per (tile, line): the tile's total into
 *                          part[line*tiles + tile] (a tree in local memory)
 *   usmarr_scan_carry_OP   a work-group per line: the exclusive scan of the line's tile
 *                          totals, in place (SCAN_TILE of them at a time, a running carry)
 *   usmarr_scan_tile_OP    a work-group per (tile, line): the tile is staged in local memory
 *                          (coalesced), each item scans its SCAN_V neighbours in order, the
 *                          group scans the items' totals, and every element is written as
 *                          carry + items before + its own run, through local memory again
 *
 * The input is read twice and the result written once; nothing waits on another work-group
 * (no forward-progress assumption).  Sums of floats associate differently from a running
 * sum (as CuPy's do), within rounding; integers are exact. */

#ifdef SCAN_G
#define SCAN_V 8
#define SCAN_TILE (SCAN_G * SCAN_V)

/* One op's three kernels.  ACC: the accumulator, ID its identity, FROM(v) an element as an
 * accumulator, JOIN(a, b) a then b, OUTTAG the result's storage tag, OUTV(a) its value. */
#define SCAN_KERNELS(OP, ACC, ID, FROM, JOIN, OUTTAG, OUTV)                                           \
    /* the group's exclusive scan of one accumulator per item (what the items before it       \
     * hold), *total the whole group's: Hillis and Steele in local memory */                      \
    static ACC scan_group_##OP(ACC v, local ACC *tmp, ACC *total)                                  \
    {                                                                                              \
        int l = (int)get_local_id(0);                                                              \
        tmp[l] = v;                                                                                \
        barrier(CLK_LOCAL_MEM_FENCE);                                                              \
        for (int off = 1; off < SCAN_G; off <<= 1) {                                               \
            ACC t = l >= off ? tmp[l - off] : v;                                                   \
            barrier(CLK_LOCAL_MEM_FENCE);                                                          \
            if (l >= off)                                                                          \
                tmp[l] = v = JOIN(t, v);                                                           \
            barrier(CLK_LOCAL_MEM_FENCE);                                                          \
        }                                                                                          \
        ACC before = l ? tmp[l - 1] : ID;                                                          \
        *total = tmp[SCAN_G - 1];                                                                  \
        barrier(CLK_LOCAL_MEM_FENCE);                                                              \
        return before;                                                                             \
    }                                                                                              \
                                                                                                   \
    kernel void usmarr_scan_reduce_##OP(global const USMARR_STORAGE(D1) *in, global ACC *part, long n, \
                                        long tiles)                                                \
    {                                                                                              \
        local ACC tmp[SCAN_G];                                                                     \
        long t = get_group_id(0), line = get_global_id(1);                                         \
        int l = (int)get_local_id(0);                                                              \
        long i0 = t * SCAN_TILE, i1 = min(i0 + SCAN_TILE, n);                                      \
        in += line * n;                                                                            \
        ACC a = ID;                                                                                \
        for (long i = i0 + l; i < i1; i += SCAN_G)                                                 \
            a = JOIN(a, FROM(USMARR_LOADP(D1, in, i)));                                            \
        tmp[l] = a;                                                                                \
        barrier(CLK_LOCAL_MEM_FENCE);                                                              \
        for (int s = SCAN_G / 2; s > 0; s >>= 1) {                                                 \
            if (l < s)                                                                             \
                tmp[l] = JOIN(tmp[l], tmp[l + s]);                                                 \
            barrier(CLK_LOCAL_MEM_FENCE);                                                          \
        }                                                                                          \
        if (l == 0)                                                                                \
            part[line * tiles + t] = tmp[0];                                                       \
    }                                                                                              \
                                                                                                   \
    kernel void usmarr_scan_carry_##OP(global ACC *part, long tiles)                               \
    {                                                                                              \
        local ACC tmp[SCAN_G];                                                                     \
        int l = (int)get_local_id(0);                                                              \
        part += get_group_id(1) * tiles;                                                           \
        ACC carry = ID;                                                                            \
        for (long base = 0; base < tiles; base += SCAN_TILE) {                                     \
            /* item l takes SCAN_V neighbours: its run, the group's scan of the runs */            \
            long j0 = base + (long)l * SCAN_V;                                                     \
            ACC v[SCAN_V], run = ID, total;                                                        \
            for (int k = 0; k < SCAN_V; k++) {                                                     \
                v[k] = j0 + k < tiles ? part[j0 + k] : ID;                                         \
                run = JOIN(run, v[k]);                                                             \
            }                                                                                      \
            ACC before = scan_group_##OP(run, tmp, &total); /* JOIN may read b twice */           \
            ACC at = JOIN(carry, before);                                                          \
            for (int k = 0; k < SCAN_V; k++) {                                                     \
                if (j0 + k < tiles)                                                                \
                    part[j0 + k] = at;                                                             \
                at = JOIN(at, v[k]);                                                               \
            }                                                                                      \
            carry = JOIN(carry, total);                                                            \
        }                                                                                          \
    }                                                                                              \
                                                                                                   \
    kernel void usmarr_scan_tile_##OP(global const USMARR_STORAGE(D1) *in,                         \
                                      global USMARR_STORAGE(OUTTAG) *out, global const ACC *part,  \
                                      long n, long tiles, long init)                               \
    {                                                                                              \
        local ACC stage[SCAN_TILE];                                                                \
        local ACC tmp[SCAN_G];                                                                     \
        long t = get_group_id(0), line = get_global_id(1);                                         \
        int l = (int)get_local_id(0);                                                              \
        long i0 = t * SCAN_TILE, m = min((long)SCAN_TILE, n - i0);                                 \
        in += line * n + i0;                                                                       \
        out += line * (n + init) + init + i0;                                                      \
        if (init && t == 0 && l == 0)                                                              \
            USMARR_STOREP(OUTTAG, out, -1, OUTV(ID));                                              \
        for (int k = l; k < SCAN_TILE; k += SCAN_G)                                                \
            stage[k] = k < m ? FROM(USMARR_LOADP(D1, in, k)) : ID;                                 \
        barrier(CLK_LOCAL_MEM_FENCE);                                                              \
        ACC run = ID, total;                                                                       \
        for (int k = 0; k < SCAN_V; k++) {                                                         \
            run = JOIN(run, stage[l * SCAN_V + k]);                                                \
            stage[l * SCAN_V + k] = run;                                                           \
        }                                                                                          \
        ACC before = scan_group_##OP(run, tmp, &total), carry = part[line * tiles + t];           \
        before = JOIN(carry, before);                                                              \
        for (int k = 0; k < SCAN_V; k++)                                                           \
            stage[l * SCAN_V + k] = JOIN(before, stage[l * SCAN_V + k]);                           \
        barrier(CLK_LOCAL_MEM_FENCE);                                                              \
        for (int k = l; k < m; k += SCAN_G)                                                        \
            USMARR_STOREP(OUTTAG, out, k, OUTV(stage[k]));                                         \
    }

#define SCAN_FROM_SUM(v) USMARR_CONVERT(D1, R_SUMTAG, v)
#define SCAN_ADD(a, b) ((a) + (b))
#define SCAN_SAME(a) (a)
SCAN_KERNELS(sum, R_SUM_CT, ((R_SUM_CT)(0)), SCAN_FROM_SUM, SCAN_ADD, R_SUMTAG, SCAN_SAME)
#if R_CPLX
#define SCAN_MUL(a, b) R_CMUL(a, b)
SCAN_KERNELS(prod, R_SUM_CT, ((R_SUM_CT)(1, 0)), SCAN_FROM_SUM, SCAN_MUL, R_SUMTAG, SCAN_SAME)
#else
#define SCAN_MUL(a, b) ((a) * (b))
SCAN_KERNELS(prod, R_SUM_CT, ((R_SUM_CT)(1)), SCAN_FROM_SUM, SCAN_MUL, R_SUMTAG, SCAN_SAME)
/* logsumexp: the (m, s) pairs of reduce.cl, an element v being (v, 1) */
#define SCAN_FROM_LSE(v) ((R_F_PAIR)(R_TO_F(v), 1))
SCAN_KERNELS(logsumexp, R_F_PAIR, R_LSE_INIT, SCAN_FROM_LSE, r_lse_join, R_FLTTAG, r_lse_value)
#endif

#endif
