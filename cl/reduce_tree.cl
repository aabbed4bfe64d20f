/* reduce_tree.cl: the work-group tree reductions, appended to cl/reduce.cl and
 * cl/reduce_cols.cl (whose macros these use) in every reduction program; compiled only
 * with -DR_TREE=<items> (the gpu shape). */
#ifdef R_TREE
/* Work-group tree reductions (the "gpu" kernel shape; built with -DR_TREE=<items>, so the
 * CPU shapes' programs hold none of this).  The NDRange is (kept dim 1, parts x rows, kept
 * dim 0): a work-group of (nx, ny, 1) items makes nx neighbouring outputs of kept dim 1
 * (the rows along dimension 1, not 2: NVIDIA takes at most 64 items along dimension 2
 * and reports more as CL_INVALID_KERNEL_ARGS); its ny rows share the part's flat reduced range,
 * row y taking j = js + y, js + y + ny, ...  Neighbouring items thus read neighbouring
 * addresses whichever axis is contiguous: the kept one (nx > 1: an outer-axis reduction)
 * or the reduced one (nx = 1: all elements, an inner axis).  The rows then combine in
 * local memory by halving (ny a power of two).  With parts > 1 each group writes one
 * partial per output (stride po) and a second launch reduces the partials the same way.
 * Every item reaches every barrier: no early return.  `has` marks accumulators that saw
 * an element (min/max have no identity; the host makes every part non-empty).  CONV(v, j)
 * makes an accumulator of element v at flat reduced position j.  Local memory: R_TREE
 * accumulators (up to 16 bytes; a value and an 8-byte index for arg*) and flags. */
#define R_TREE_KERNEL(NAME, OUTTAG, ACC_T, INIT, CONV, COMBINE, STORE)                                \
    kernel void usmarr_reduce_tree_##NAME(R_PARAMS(OUTTAG))                                           \
    {                                                                                                 \
        local ACC_T acc_l[R_TREE];                                                                    \
        local uchar has_l[R_TREE];                                                                    \
        long k1 = get_global_id(0), k0 = get_global_id(2), part = get_group_id(1);                    \
        int lx = (int)get_local_id(0), ly = (int)get_local_id(1);                                     \
        int nx = (int)get_local_size(0), ny = (int)get_local_size(1), i = ly * nx + lx;               \
        bool live = k1 < ks.s1;                                                                       \
        long ib = k0 * ki.s0 + k1 * ki.s1, ob = k0 * ko.s0 + k1 * ko.s1 + part * po;                 \
        long js = part * chunk, je = min(js + chunk, rs.s0 * rs.s1);                                  \
        ACC_T acc = INIT;                                                                             \
        uchar has = 0;                                                                                \
        if (live && js + ly < je) {                                                                   \
            long j = js + ly, r0 = j / rs.s1, r1 = j - r0 * rs.s1;                                    \
            for (; j < je; j += ny) {                                                                 \
                R_CT v = R_ELEM(ib + r0 * ri.s0 + r1 * ri.s1, r0, r1);                                \
                ACC_T b = CONV(v, j);                                                                 \
                COMBINE(acc, has, b, 1);                                                              \
                r1 += ny;                                                                             \
                if (r1 >= rs.s1) {                                                                    \
                    long q = r1 / rs.s1;                                                              \
                    r0 += q;                                                                          \
                    r1 -= q * rs.s1;                                                                  \
                }                                                                                     \
            }                                                                                         \
        }                                                                                             \
        acc_l[i] = acc;                                                                               \
        has_l[i] = has;                                                                               \
        barrier(CLK_LOCAL_MEM_FENCE);                                                                 \
        for (int s = ny / 2; s > 0; s >>= 1) {                                                        \
            if (ly < s) {                                                                             \
                ACC_T b = acc_l[i + s * nx];                                                          \
                uchar hb = has_l[i + s * nx];                                                         \
                COMBINE(acc, has, b, hb);                                                             \
                acc_l[i] = acc;                                                                       \
                has_l[i] = has;                                                                       \
            }                                                                                         \
            barrier(CLK_LOCAL_MEM_FENCE);                                                             \
        }                                                                                             \
        if (ly == 0 && live)                                                                          \
            STORE;                                                                                    \
    }

#define R_TO_SUM(v, j) USMARR_CONVERT(D1, R_SUMTAG, v)
#define R_TO_MEAN(v, j) USMARR_CONVERT(D1, R_MEANTAG, v)
#define R_SAME_(v, j) (v)
#define R_TRUTH_(v, j) ((uchar)R_TRUTH(v))
#define R_ONE_IF(v, j) (R_TRUTH(v) ? 1L : 0L)
#define R_ADD(a, ha, b, hb) ((a) += (b), (ha) |= (hb))
#define R_AND(a, ha, b, hb) ((a) &= (b), (ha) |= (hb))
#define R_OR(a, ha, b, hb) ((a) |= (b), (ha) |= (hb))
#if R_CPLX
#define R_MUL(a, ha, b, hb) ((a) = !(hb) ? (a) : (ha) ? R_CMUL(a, b) : (b), (ha) |= (hb))
#else
#define R_MUL(a, ha, b, hb) ((a) *= (b), (ha) |= (hb))
#endif
/* b (if it has an element) takes a's place when a has none or when WINS */
#define R_JOIN_IF(WINS, a, ha, b, hb)                                                                 \
    do {                                                                                              \
        if ((hb) && (!(ha) || (WINS)))                                                                \
            (a) = (b);                                                                                \
        (ha) |= (hb);                                                                                 \
    } while (0)
/* min/max: the first value, then NaN wins and stays, as in usmarr_reduce_min/max */
#define R_EXTREME_JOIN(BEFORE, a, ha, b, hb) R_JOIN_IF(R_WINS(BEFORE, b, a), a, ha, b, hb)
#define R_MIN(a, ha, b, hb) R_EXTREME_JOIN(R_LT, a, ha, b, hb)
#define R_MAX(a, ha, b, hb) R_EXTREME_JOIN(R_GT, a, ha, b, hb)

#if R_KEEP(sum)
R_TREE_KERNEL(sum, R_SUMTAG, R_SUM_CT, (R_SUM_CT)(0), R_TO_SUM, R_ADD, USMARR_STOREP(R_SUMTAG, out, ob, acc_l[lx]))
#endif
#if R_KEEP(prod)
R_TREE_KERNEL(prod, R_SUMTAG, R_SUM_CT, R_PROD_ONE, R_TO_SUM, R_MUL, USMARR_STOREP(R_SUMTAG, out, ob, acc_l[lx]))
#endif
#if R_KEEP(mean)
R_TREE_KERNEL(mean, R_MEANTAG, R_MEAN_CT, (R_MEAN_CT)(0), R_TO_MEAN, R_ADD,
              USMARR_STOREP(R_MEANTAG, out, ob, R_MEAN_OF(acc_l[lx])))
#endif
#if R_KEEP(min)
R_TREE_KERNEL(min, D1, R_CT, (R_CT)(0), R_SAME_, R_MIN, USMARR_STOREP(D1, out, ob, acc_l[lx]))
#endif
#if R_KEEP(max)
R_TREE_KERNEL(max, D1, R_CT, (R_CT)(0), R_SAME_, R_MAX, USMARR_STOREP(D1, out, ob, acc_l[lx]))
#endif
#if R_KEEP(all)
R_TREE_KERNEL(all, b, uchar, (uchar)1, R_TRUTH_, R_AND, out[ob] = acc_l[lx])
#endif
#if R_KEEP(any)
R_TREE_KERNEL(any, b, uchar, (uchar)0, R_TRUTH_, R_OR, out[ob] = acc_l[lx])
#endif
#if R_KEEP(count_nonzero)
R_TREE_KERNEL(count_nonzero, i64, long, 0L, R_ONE_IF, R_ADD, out[ob] = acc_l[lx])
#endif
#if !R_CPLX
#define R_LSE_ONE(v, j) ((R_F_PAIR)(R_TO_F(v), 1))
#define R_HYPOT_ONE(v, j) ((R_F_PAIR)(fabs(R_TO_F(v)), 1))
#define R_LSE_JOIN(a, ha, b, hb) ((a) = r_lse_join(a, b), (ha) |= (hb))
#define R_HYPOT_JOIN(a, ha, b, hb) ((a) = r_hypot_join(a, b), (ha) |= (hb))
#if R_KEEP(logsumexp)
R_TREE_KERNEL(logsumexp, R_FLTTAG, R_F_PAIR, R_LSE_INIT, R_LSE_ONE, R_LSE_JOIN,
              USMARR_STOREP(R_FLTTAG, out, ob, r_lse_value(acc_l[lx])))
#endif
#if R_KEEP(reduce_hypot)
R_TREE_KERNEL(reduce_hypot, R_FLTTAG, R_F_PAIR, R_HYPOT_INIT, R_HYPOT_ONE, R_HYPOT_JOIN,
              USMARR_STOREP(R_FLTTAG, out, ob, r_hypot_value(acc_l[lx])))
#endif
#endif

/* argmin/argmax in one part (the host never splits them): (value, flat index) pairs, -1
 * for none.  Rows interleave, so ties go to the smaller index explicitly; the first NaN
 * wins, as in usmarr_reduce_argmin/argmax. */
typedef struct {
    R_CT v;
    long at; /* -1: none */
} r_arg_t;
static inline r_arg_t r_arg(R_CT v, long at)
{
    r_arg_t a;
    a.v = v;
    a.at = at;
    return a;
}
#define R_ARG_JOIN(BEFORE, a, ha, b, hb) R_JOIN_IF(R_ARG_BETTER(BEFORE, (b).v, (b).at, (a).v, (a).at), a, ha, b, hb)
#define R_ARGMIN_JOIN(a, ha, b, hb) R_ARG_JOIN(R_LT, a, ha, b, hb)
#define R_ARGMAX_JOIN(a, ha, b, hb) R_ARG_JOIN(R_GT, a, ha, b, hb)
#if R_KEEP(argmin)
R_TREE_KERNEL(argmin, i64, r_arg_t, r_arg((R_CT)(0), -1), r_arg, R_ARGMIN_JOIN, out[ob] = acc_l[lx].at)
#endif
#if R_KEEP(argmax)
R_TREE_KERNEL(argmax, i64, r_arg_t, r_arg((R_CT)(0), -1), r_arg, R_ARGMAX_JOIN, out[ob] = acc_l[lx].at)
#endif
#endif
