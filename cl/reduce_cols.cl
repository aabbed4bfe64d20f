/* reduce_cols.cl: the reductions over an outer axis, appended to cl/reduce.cl (whose
 * macros these use) in every reduction program: the column kernels (R_COLS outputs a
 * work-item) and the slabs of whole rows (lib/ops/reduce.c picks them). */
/* Reductions over an outer axis under contiguous kept outputs (the host's choice): a
 * work-item owns R_COLS neighbouring outputs in eight 16-vectors and walks the reduced
 * dims, so each row is read in 512-byte pieces (few page changes per byte) and each byte
 * once.  Each column has its own accumulator, lane by lane as the loops': acc = VINIT(p,
 * k) (the k-th vector of the first row p: an identity or those elements), then
 * VSTEP(acc, x) for x = VLOAD(p, k) of every row (the first included), then VSTORE(q, k,
 * acc) to the k-th vector of the outputs q.  The last columns of a row that has fewer
 * than R_COLS left go one at a time: ACC_T acc = INIT(i) (i: the column's first
 * element), STEP for every element v, then FIN(acc) stored. */
#define R_COLS_KERNEL(NAME, OUTTAG, VACC_T, VINIT, VLOAD, VSTEP, VSTORE, ACC_T, INIT, STEP, FIN)       \
    kernel void usmarr_reduce_##NAME(R_PARAMS(OUTTAG))                                                \
    {                                                                                                 \
        long k1 = get_global_id(0) * R_COLS, k0 = get_global_id(1);                                   \
        if (k1 >= ks.s1 || k0 >= ks.s0)                                                               \
            return;                                                                                   \
        long ib = k0 * ki.s0 + k1, ob = k0 * ko.s0 + k1;                                              \
        if (k1 + R_COLS <= ks.s1) {                                                                   \
            global const USMARR_STORAGE(D1) *p = in + ib;                                             \
            VACC_T a0 = VINIT(p, 0), a1 = VINIT(p, 1), a2 = VINIT(p, 2), a3 = VINIT(p, 3);            \
            VACC_T a4 = VINIT(p, 4), a5 = VINIT(p, 5), a6 = VINIT(p, 6), a7 = VINIT(p, 7);            \
            for (long r0 = 0; r0 < rs.s0; r0++)                                                       \
                for (long r1 = 0; r1 < rs.s1; r1++) {                                                 \
                    p = in + ib + r0 * ri.s0 + r1 * ri.s1;                                            \
                    VSTEP(a0, VLOAD(p, 0));                                                           \
                    VSTEP(a1, VLOAD(p, 1));                                                           \
                    VSTEP(a2, VLOAD(p, 2));                                                           \
                    VSTEP(a3, VLOAD(p, 3));                                                           \
                    VSTEP(a4, VLOAD(p, 4));                                                           \
                    VSTEP(a5, VLOAD(p, 5));                                                           \
                    VSTEP(a6, VLOAD(p, 6));                                                           \
                    VSTEP(a7, VLOAD(p, 7));                                                           \
                    if (R_COLS_DONE_##NAME) {                                                         \
                        r0 = rs.s0;                                                                   \
                        break;                                                                        \
                    }                                                                                 \
                }                                                                                     \
            global USMARR_STORAGE(OUTTAG) *q = out + ob;                                              \
            VSTORE(q, 0, a0);                                                                         \
            VSTORE(q, 1, a1);                                                                         \
            VSTORE(q, 2, a2);                                                                         \
            VSTORE(q, 3, a3);                                                                         \
            VSTORE(q, 4, a4);                                                                         \
            VSTORE(q, 5, a5);                                                                         \
            VSTORE(q, 6, a6);                                                                         \
            VSTORE(q, 7, a7);                                                                         \
        } else {                                                                                      \
            for (long k = 0; k < ks.s1 - k1; k++) {                                                   \
                ACC_T acc = INIT(ib + k);                                                             \
                for (long r0 = 0; r0 < rs.s0; r0++)                                                   \
                    for (long r1 = 0; r1 < rs.s1; r1++) {                                             \
                        R_CT v = R_LOAD(ib + k + r0 * ri.s0 + r1 * ri.s1);                            \
                        STEP;                                                                         \
                    }                                                                                 \
                USMARR_STOREP(OUTTAG, out, ob + k, FIN(acc));                                         \
            }                                                                                         \
        }                                                                                             \
    }
/* all and any stop at the row after which every column of the work-item is decided (a
 * column once false stays false in all, once true stays true in any); the other column
 * kernels walk every row */
#define R_COLS_DONE_all_cols (!any(a0 | a1 | a2 | a3 | a4 | a5 | a6 | a7))
#define R_COLS_DONE_any_cols all(a0 & a1 & a2 & a3 & a4 & a5 & a6 & a7)
#define R_COLS_DONE_min_cols 0
#define R_COLS_DONE_max_cols 0
#define R_COLS_DONE_sum_cols 0
#define R_COLS_DONE_prod_cols 0
#define R_COLS_DONE_mean_cols 0
#define R_COLS_DONE_count_nonzero_cols 0
#define R_COLS_DONE_argmin_cols 0
#define R_COLS_DONE_argmax_cols 0
#define R_COLS_FIRST(p, k) USMARR_VLOADP(D1, p, k)
#define R_COLS_ONES(p, k) ((USMARR_VCOMPUTE(D1))1)
#define R_COLS_ZEROS(p, k) ((USMARR_VCOMPUTE(D1))0)
#define R_COLS_AS_IS(acc) (acc)
#define R_COLS_MEAN(acc) ((acc) / (R_CT)count)
#define R_COLS_VMEAN(q, k, acc) USMARR_VSTOREP(D1, q, k, R_COLS_MEAN(acc))
#define R_COLS_VSAME(q, k, acc) USMARR_VSTOREP(D1, q, k, acc)
#define R_COLS_MIN(acc, x) acc = select(acc, x, R_VWINS(R_LT, x, acc))
#define R_COLS_MAX(acc, x) acc = select(acc, x, R_VWINS(R_GT, x, acc))
#define R_COLS_PROD(acc, x) acc *= x
#define R_COLS_SUM(acc, x) acc += x
#define R_COLS_ONE_S(i) ((R_CT)1)
#define R_COLS_ZERO_S(i) ((R_CT)0)
#if R_KEEP(min_cols) && !R_CPLX && USMARR_VECTOR_OK(D1)
R_COLS_KERNEL(min_cols, D1, USMARR_VCOMPUTE(D1), R_COLS_FIRST, R_COLS_FIRST, R_COLS_MIN, R_COLS_VSAME, R_CT,
              R_LOAD, R_EXTREME_STEP(R_LT), R_COLS_AS_IS)
#endif
#if R_KEEP(max_cols) && !R_CPLX && USMARR_VECTOR_OK(D1)
R_COLS_KERNEL(max_cols, D1, USMARR_VCOMPUTE(D1), R_COLS_FIRST, R_COLS_FIRST, R_COLS_MAX, R_COLS_VSAME, R_CT,
              R_LOAD, R_EXTREME_STEP(R_GT), R_COLS_AS_IS)
#endif
/* sum, prod and mean of floats (not float16: the host never picks them for it): the
 * loops' order and rounding (1 x v is v; the mean divides the sum once) */
#if R_KEEP(sum_cols) && R_FLT && USMARR_VECTOR_OK(D1)
R_COLS_KERNEL(sum_cols, D1, USMARR_VCOMPUTE(D1), R_COLS_ZEROS, R_COLS_FIRST, R_COLS_SUM, R_COLS_VSAME, R_CT,
              R_COLS_ZERO_S, acc += v, R_COLS_AS_IS)
#endif
#if R_KEEP(prod_cols) && R_FLT && USMARR_VECTOR_OK(D1)
R_COLS_KERNEL(prod_cols, D1, USMARR_VCOMPUTE(D1), R_COLS_ONES, R_COLS_FIRST, R_COLS_PROD, R_COLS_VSAME, R_CT,
              R_COLS_ONE_S, acc *= v, R_COLS_AS_IS)
#endif
#if R_KEEP(mean_cols) && R_FLT && USMARR_VECTOR_OK(D1)
R_COLS_KERNEL(mean_cols, D1, USMARR_VCOMPUTE(D1), R_COLS_ZEROS, R_COLS_FIRST, R_COLS_SUM, R_COLS_VMEAN, R_CT,
              R_COLS_ZERO_S, acc += v, R_COLS_MEAN)
#endif
/* Slabs: sum and prod of floats over an outer axis of many rows under contiguous kept
 * outputs (the host's choice for large ones).  Reading 128 columns down every row takes
 * each row's 512 bytes from a new page; a CPU streams whole rows far faster (a plain C
 * loop over a 2048 x 2048 float32: 0.32-0.38 ms for whole rows, 0.8-1.3 ms in 128-column
 * stripes, one thread).  So a work-item takes part `part` of the reduced rows, each row
 * whole (in tiles of R_SLAB_TILE columns, the tile's partial row kept in cache), and
 * writes that part's partial row at out + k0 * ko.s0 + part * po (its first row copied,
 * the others combined by VOP lane by lane, the last columns one at a time by OP); the
 * host then reduces the partials over the parts, the column kernels above.  (PoCL made
 * 2-lane pieces of vload16/vstore16 pairs here, at twice the time of whole rows: rows
 * aligned to the vector go through vector pointers.) */
#define R_SLAB_TILE 4096
#define R_SLAB_KERNEL(NAME, VOP, OP)                                                                  \
    kernel void usmarr_reduce_##NAME##_slab(R_PARAMS(D1))                                             \
    {                                                                                                 \
        long k0 = get_global_id(1), part = get_global_id(2);                                          \
        if (k0 >= ks.s0)                                                                              \
            return;                                                                                   \
        long js = part * chunk, je = min(js + chunk, rs.s0 * rs.s1);                                  \
        global R_CT *q0 = out + k0 * ko.s0 + part * po;                                               \
        for (long t = 0; t < ks.s1; t += R_SLAB_TILE) {                                               \
            long w = min((long)R_SLAB_TILE, ks.s1 - t), nv = w / 16;                                  \
            global R_CT *q = q0 + t;                                                                  \
            for (long j = js; j < je; j++) {                                                          \
                long r0 = j / rs.s1, r1 = j - r0 * rs.s1;                                             \
                global const R_CT *p = in + k0 * ki.s0 + r0 * ri.s0 + r1 * ri.s1 + t;                 \
                if (((ulong)p | (ulong)q) % sizeof(R_VX)) { /* vector-aligned rows typed as such */   \
                    for (long v = 0; v < nv; v++)                                                     \
                        vstore16(j == js ? vload16(v, p) : VOP(vload16(v, q), vload16(v, p)), v, q);  \
                } else {                                                                              \
                    global R_VX *qv = (global R_VX *)q;                                               \
                    global const R_VX *pv = (global const R_VX *)p;                                   \
                    if (j == js)                                                                      \
                        for (long v = 0; v < nv; v++)                                                 \
                            qv[v] = pv[v];                                                            \
                    else                                                                              \
                        for (long v = 0; v < nv; v++)                                                 \
                            qv[v] = VOP(qv[v], pv[v]);                                                \
                }                                                                                     \
                for (long c = nv * 16; c < w; c++)                                                    \
                    q[c] = j == js ? p[c] : OP(q[c], p[c]);                                           \
            }                                                                                         \
        }                                                                                             \
    }
#define R_SLAB_ADD(a, b) ((a) + (b))
#define R_SLAB_MUL(a, b) ((a) * (b))
#define R_IS_F3264_F 1 /* float32 and float64 (their storage is the compute type) */
#define R_IS_F3264_H 0
#define R_IS_F3264_B 0
#define R_IS_F3264_I 0
#define R_IS_F3264_C 0
#define R_F3264_(k) R_F3264__(k)
#define R_F3264__(k) R_IS_F3264_##k
#if R_KEEP(sum_slab) && R_F3264_(R_K) && R_VROWS_OK
R_SLAB_KERNEL(sum, R_SLAB_ADD, R_SLAB_ADD)
#endif
#if R_KEEP(prod_slab) && R_F3264_(R_K) && R_VROWS_OK
R_SLAB_KERNEL(prod, R_SLAB_MUL, R_SLAB_MUL)
#endif
/* sums of integers in their int64/uint64 accumulators (exact: the order does not matter) */
#define R_COLS_VSUM_T USMARR_VCOMPUTE(R_SUMTAG)
#define R_COLS_WIDE(p, k) USMARR_VCONVERT(D1, R_SUMTAG, USMARR_VLOADP(D1, p, k))
#define R_COLS_WZEROS(p, k) ((R_COLS_VSUM_T)0)
#define R_COLS_WSTORE(q, k, acc) USMARR_VSTOREP(R_SUMTAG, q, k, acc)
#define R_COLS_WZERO_S(i) ((R_SUM_CT)0)
#if R_KEEP(sum_cols) && !R_FLT && !R_CPLX && !R_BOOL && USMARR_VECTOR_OK(D1)
R_COLS_KERNEL(sum_cols, R_SUMTAG, R_COLS_VSUM_T, R_COLS_WZEROS, R_COLS_WIDE, R_COLS_SUM, R_COLS_WSTORE, R_SUM_CT,
              R_COLS_WZERO_S, acc += USMARR_CONVERT(D1, R_SUMTAG, v), R_COLS_AS_IS)
#endif
/* all, any and count_nonzero as truth masks (char lanes, -1 true; the counts in int lanes:
 * the host keeps the rows under 2^31), bool read as its bytes */
#if R_BOOL
#define R_COLS_TRUTH(p, k) (vload16((k), (p)) != (uchar16)0)
#else
#define R_COLS_TRUTH(p, k) convert_char16(USMARR_VLOADP(D1, p, k) != (USMARR_VCOMPUTE(D1))0)
#endif
#define R_COLS_COUNT(p, k) convert_int16(R_COLS_TRUTH(p, k))
#define R_COLS_NONE(p, k) ((char16)0)
#define R_COLS_EVERY(p, k) ((char16)-1)
#define R_COLS_NOCOUNT(p, k) ((int16)0)
#define R_COLS_AND(acc, x) acc &= x
#define R_COLS_OR(acc, x) acc |= x
#define R_COLS_UNCOUNT(acc, x) acc -= x
#define R_COLS_BSTORE(q, k, acc) vstore16(as_uchar16(acc) & (uchar16)1, (k), (q))
#define R_COLS_LSTORE(q, k, acc) vstore16(convert_long16(acc), (k), (q))
#define R_COLS_TRUE_S(i) ((uchar)1)
#define R_COLS_FALSE_S(i) ((uchar)0)
#define R_COLS_NONE_S(i) 0L
#define R_COLS_TRUTH_OK (!R_CPLX && (R_BOOL || USMARR_VECTOR_OK(D1)))
#if R_KEEP(all_cols) && R_COLS_TRUTH_OK
R_COLS_KERNEL(all_cols, b, char16, R_COLS_EVERY, R_COLS_TRUTH, R_COLS_AND, R_COLS_BSTORE, uchar, R_COLS_TRUE_S,
              acc &= (uchar)R_TRUTH(v), R_COLS_AS_IS)
#endif
#if R_KEEP(any_cols) && R_COLS_TRUTH_OK
R_COLS_KERNEL(any_cols, b, char16, R_COLS_NONE, R_COLS_TRUTH, R_COLS_OR, R_COLS_BSTORE, uchar, R_COLS_FALSE_S,
              acc |= (uchar)R_TRUTH(v), R_COLS_AS_IS)
#endif
#if R_KEEP(count_nonzero_cols) && R_COLS_TRUTH_OK
R_COLS_KERNEL(count_nonzero_cols, i64, int16, R_COLS_NOCOUNT, R_COLS_COUNT, R_COLS_UNCOUNT, R_COLS_LSTORE, long,
              R_COLS_NONE_S, acc += R_TRUTH(v) ? 1 : 0, R_COLS_AS_IS)
#endif
/* argmin/argmax: each column's best value and its flat reduced index (int lanes: the host
 * keeps the reduced range under 2^31 here), strictly better values only (the first), NaN
 * winning and staying, as the loops */
#if (R_KEEP(argmin_cols) || R_KEEP(argmax_cols)) && !R_CPLX && USMARR_VECTOR_OK(D1)
typedef struct {
    USMARR_VCOMPUTE(D1) v;
    int16 i;
} r_argcols_t;
typedef struct {
    R_CT v;
    long i;
} r_argcol_t;
static inline r_argcols_t r_argcols(USMARR_VCOMPUTE(D1) v)
{
    r_argcols_t a;
    a.v = v;
    a.i = 0;
    return a;
}
static inline r_argcol_t r_argcol(R_CT v)
{
    r_argcol_t a;
    a.v = v;
    a.i = 0;
    return a;
}
#define R_ARGCOLS_INIT(p, k) r_argcols(USMARR_VLOADP(D1, p, k))
#define R_ARGCOLS_STEP(BEFORE, acc, x)                                                                \
    {                                                                                                 \
        USMARR_VCOMPUTE(D1) x_ = x;                                                                   \
        int16 w_ = convert_int16(R_VWINS(BEFORE, x_, acc.v));                                         \
        acc.i = select(acc.i, (int16)((int)(r0 * rs.s1 + r1)), w_);                                   \
        acc.v = select(acc.v, x_, R_VWINS(BEFORE, x_, acc.v));                                        \
    }
#define R_ARGMINCOLS_STEP(acc, x) R_ARGCOLS_STEP(R_LT, acc, x)
#define R_ARGMAXCOLS_STEP(acc, x) R_ARGCOLS_STEP(R_GT, acc, x)
#define R_ARGCOLS_STORE(q, k, acc) vstore16(convert_long16((acc).i), (k), (q))
#define R_ARGCOL_INIT(i) r_argcol(R_LOAD(i))
#define R_ARGCOL_STEP(BEFORE)                                                                         \
    if (R_WINS(BEFORE, v, acc.v)) {                                                                   \
        acc.v = v;                                                                                    \
        acc.i = r0 * rs.s1 + r1;                                                                      \
    }
#define R_ARGCOL_FIN(acc) ((acc).i)
#endif
#if R_KEEP(argmin_cols) && !R_CPLX && USMARR_VECTOR_OK(D1)
R_COLS_KERNEL(argmin_cols, i64, r_argcols_t, R_ARGCOLS_INIT, R_COLS_FIRST, R_ARGMINCOLS_STEP, R_ARGCOLS_STORE,
              r_argcol_t, R_ARGCOL_INIT, R_ARGCOL_STEP(R_LT), R_ARGCOL_FIN)
#endif
#if R_KEEP(argmax_cols) && !R_CPLX && USMARR_VECTOR_OK(D1)
R_COLS_KERNEL(argmax_cols, i64, r_argcols_t, R_ARGCOLS_INIT, R_COLS_FIRST, R_ARGMAXCOLS_STEP, R_ARGCOLS_STORE,
              r_argcol_t, R_ARGCOL_INIT, R_ARGCOL_STEP(R_GT), R_ARGCOL_FIN)
#endif
