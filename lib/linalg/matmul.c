/* matmul: NumPy's 1-D promotion and batch broadcasting on cl/linalg.cl (doc/ops.md).
 *
 * The operands are first cast to the result dtype where they differ and broadcast over the
 * batch dims; the batch dims of each operand are then collapsed into one stride (a copy
 * in C order where they do not collapse).  The product is computed into a C-ordered
 * (batch, M, N) array of the result dtype (the caller's `out` itself when it is one): large
 * products by the register-tiled kernel on packed copies of both operands, the others by
 * the batched kernel (the same register blocks, operands in place, a batch of small
 * matrices spread over few full work-groups, edges included) when N fills a vector; dtypes
 * without a vector form (bool, float16, complex) and narrow products run the naive kernel
 * over any strides.  The gpu shape computes the large products with cl/gemm.cl instead. */
#include "linalg_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One operand ready for a kernel: a pointer to element [0,...], a batch stride and the
 * strides of its two matrix dims. */
struct mm_operand {
    usmarr_array_t *keep; /* the array that owns `data` (a view or a copy), one reference */
    void *data;
    int64_t batch, s0, s1;
};

/* Whether dims [0, n) of `a` walk one arithmetic sequence (size-1 dims ignored); its step. */
static bool collapse(const usmarr_array_t *a, int n, int64_t *stride)
{
    int64_t s = 0, expect = 0;
    bool first = true;
    for (int d = n - 1; d >= 0; d--) {
        if (a->shape[d] == 1)
            continue;
        if (first) {
            s = a->strides[d];
            expect = s * a->shape[d];
            first = false;
        } else if (a->strides[d] != expect) {
            return false;
        } else {
            expect *= a->shape[d];
        }
    }
    *stride = s;
    return true;
}

/* x (with >= 2 dims) broadcast to (bshape[nb], rows, cols) in dtype `dt`; contiguous rows
 * (unit stride along `unit_dim`, 0 or 1) when `need_unit`. */
static int prepare(const usmarr_array_t *x, int nb, const int64_t *bshape, usmarr_dtype_t dt, bool need_unit,
                   int unit_dim, struct mm_operand *op)
{
    int64_t shape[USMARR_MAX_NDIM];
    memcpy(shape, bshape, sizeof(int64_t) * (size_t)nb);
    shape[nb] = x->shape[x->ndim - 2];
    shape[nb + 1] = x->shape[x->ndim - 1];
    usmarr_array_t *v = NULL;
    int rc = usmarr_array_broadcast_to(x, nb + 2, shape, &v);
    if (rc)
        return rc;
    int64_t bs = 0;
    bool unit = v->shape[nb + unit_dim] <= 1 || v->strides[nb + unit_dim] == 1;
    if (v->dtype != dt || !collapse(v, nb, &bs) || (need_unit && !unit)) {
        usmarr_array_t *c = NULL;
        rc = usmarr_array_astype(v, dt, USMARR_ORDER_C, NULL, &c);
        usmarr_array_release(v);
        if (rc)
            return rc;
        v = c;
        collapse(v, nb, &bs);
    }
    op->keep = v;
    op->data = usmarr_array_data(v);
    op->batch = bs;
    op->s0 = v->strides[nb];
    op->s1 = v->strides[nb + 1];
    return 0;
}

/* Register tile per dtype: rows per work-item, vector width (0: no tiled kernel). */
static void tile_of(usmarr_dtype_t dt, int *rm, int *vw)
{
    *rm = 6; /* 6 x 2 vector accumulators fit AVX2's 16 registers with B's row and a broadcast */
    switch (dt) {
    case USMARR_FLOAT32:
    case USMARR_INT32:
    case USMARR_UINT32:
    case USMARR_INT16:
    case USMARR_UINT16:
    case USMARR_INT8:
    case USMARR_UINT8: *vw = 16; break;
    case USMARR_FLOAT64:
    case USMARR_INT64:
    case USMARR_UINT64: *vw = 8; break;
    default: *vw = 0; break; /* bool, float16, complex */
    }
}

/* The packed kernel's tile: tile_of's, but 8 rows of 16 for 8-byte elements and 12 rows of
 * 16 for the narrower ones where the device's native float vector is 16 wide (AVX-512: 32
 * registers hold the 16 or 12 accumulators; two FMA pipes of 4 cycles' latency need 8
 * independent ones to stay busy).  Measured on a 2-core AVX-512 EPYC, a float64 product of
 * 2016 x 128 by 128 x 2016: 6 x 8 ran at 40-50% of 8 x 16's rate on PoCL and 80-90% on
 * Intel's runtime, and 6 x 16, 4 x 16 and 8 x 8 between the two; a float32 1024^2
 * product, interleaved under heavy load (medians of 8 to 12 calls): 12 x 16 took 0.62-0.78
 * of 6 x 16's time on PoCL and 0.76-0.94 on Intel's runtime (8 x 16 and 16 x 16 about as
 * fast there, slower on PoCL).  The tile does not change a result: each element's sum runs
 * over k in order. */
static void packed_tile(const usmarr_context_t *ctx, usmarr_dtype_t dt, int *rm, int *vw)
{
    tile_of(dt, rm, vw);
    if (*vw == 8 && ctx->profile.native_float >= 16) {
        *rm = 8;
        *vw = 16;
    } else if (*vw == 16 && ctx->profile.native_float >= 16) {
        *rm = 12;
    }
}

/* Rows of the batched kernel's blocks for M-row matrices.  6 (the packed kernel's height)
 * keeps the accumulators within AVX2's 16 registers; where the device's native float
 * vector is 16 wide (AVX-512: 32 registers) 8 rows fit as well, and the height that
 * leaves fewer rows of the last block idle is taken (16 rows: two blocks of 8, ties to 8).
 * Each height is its own program.  (4-row blocks ran at half the speed on Intel's
 * runtime.) */
static int block_rows(const usmarr_context_t *ctx, int64_t M)
{
    if (ctx->profile.native_float < 16)
        return 6;
    return (M + 7) / 8 * 8 - M <= (M + 5) / 6 * 6 - M ? 8 : 6;
}

/* Forces the naive kernel everywhere (benchmarks and tests of that kernel). */
static bool naive_forced(void)
{
    const char *e = getenv("USMARR_MATMUL_KERNEL");
    return e && !strcmp(e, "naive");
}

static int launch_naive(usmarr_context_t *ctx, usmarr__kernel_t *k, void *c, const struct mm_operand *a,
                        const struct mm_operand *b, int64_t K, int64_t rows, int64_t cols, int64_t nbatch)
{
    if (rows <= 0 || cols <= 0 || nbatch <= 0)
        return 0;
    cl_long2 sa = {{a->s0, a->s1}}, sb = {{b->s0, b->s1}};
    cl_long3 batch = {{a->batch, b->batch, rows * cols}};
    cl_long kk = K;
    cl_long2 sc = {{cols, 1}};
    size_t global[3] = {(size_t)cols, (size_t)rows, (size_t)nbatch}, local[3] = {1, 1, 1};
    while (local[0] < 16 && global[0] % (local[0] * 2) == 0)
        local[0] *= 2;
    const struct usmarr__karg args[] = {USMARR__ARG_PTR(c), USMARR__ARG_PTR(a->data), USMARR__ARG_PTR(b->data),
                                        USMARR__ARG(kk),    USMARR__ARG(sa),          USMARR__ARG(sb),
                                        USMARR__ARG(sc),    USMARR__ARG(batch)};
    return usmarr__kernel_launch(ctx, k, USMARR__NARGS(args), args, 3, global, local);
}

static int launch_tiled(usmarr_context_t *ctx, usmarr__kernel_t *k, void *c, const void *a, const void *b,
                        int64_t K, int64_t M, int64_t N, const cl_long3 *sa, const cl_long2 *sb, const cl_long3 *batch,
                        int64_t rtiles, int64_t ctiles, int64_t nbatch)
{
    if (rtiles <= 0 || ctiles <= 0 || nbatch <= 0)
        return 0;
    cl_long kk = K, mm = M, nn = N, ldc = N;
    /* dim 0 rounded up to a multiple of 8: one work-group size, PoCL compiles one function */
    size_t global[3] = {((size_t)rtiles + 7) / 8 * 8, (size_t)ctiles, (size_t)nbatch}, local[3] = {8, 1, 1};
    const struct usmarr__karg args[] = {USMARR__ARG_PTR(c), USMARR__ARG_PTR(a), USMARR__ARG_PTR(b),
                                        USMARR__ARG(kk),    USMARR__ARG(mm),   USMARR__ARG(nn),
                                        USMARR__ARG(ldc),   USMARR__ARG(*sa),  USMARR__ARG(*sb),
                                        USMARR__ARG(*batch)};
    return usmarr__kernel_launch(ctx, k, USMARR__NARGS(args), args, 3, global, local);
}

/* The batched kernel over every block of every matrix: dim 0 flattened and rounded up to
 * a power-of-two work-group size (PoCL compiles one function per local size: at most
 * seven), so that a group takes several whole small matrices. */
static int launch_batched(usmarr_context_t *ctx, usmarr__kernel_t *k, void *c, const struct mm_operand *a,
                          const struct mm_operand *b, int64_t K, int64_t M, int64_t N, int64_t rm, int64_t vw,
                          int64_t nbatch)
{
    cl_long kk = K, mm = M, nn = N, sb = b->s0, rt = (M + rm - 1) / rm, ct = (N + vw - 1) / vw, total = rt * ct * nbatch;
    cl_long2 sa = {{a->s0, a->s1}};
    cl_long3 batch = {{a->batch, b->batch, M * N}};
    /* up to 64 blocks a group, fewer when that leaves under 4 groups per compute unit */
    size_t group = 64, cap = ctx->profile.max_group;
    while (group > 1 && (group > cap || (int64_t)group * 4 * ctx->profile.compute_units > total))
        group /= 2;
    size_t global[1] = {((size_t)total + group - 1) / group * group}, local[1] = {group};
    const struct usmarr__karg args[] = {USMARR__ARG_PTR(c), USMARR__ARG_PTR(a->data), USMARR__ARG_PTR(b->data),
                                        USMARR__ARG(kk),    USMARR__ARG(mm),          USMARR__ARG(nn),
                                        USMARR__ARG(sa),    USMARR__ARG(sb),          USMARR__ARG(batch),
                                        USMARR__ARG(rt),    USMARR__ARG(ct),          USMARR__ARG(total)};
    return usmarr__kernel_launch(ctx, k, USMARR__NARGS(args), args, 1, global, local);
}

/* x, of shape (batch..., R, C), as a zero-padded C-ordered (batch..., ceil(R/t), C, t) array
 * of dtype dt: each tile of t rows becomes one contiguous (C, t) block, which the tiled
 * kernel streams (no TLB miss per k, as a column walk of a large matrix has). */
static int pack(usmarr_context_t *ctx, const usmarr_array_t *x, usmarr_dtype_t dt, int t, usmarr_array_t **packed)
{
    int nd = x->ndim, nb = nd - 2;
    int64_t R = x->shape[nb], C = x->shape[nb + 1], full = R / t, rem = R % t;
    int64_t shape[USMARR_MAX_NDIM], sstr[USMARR_MAX_NDIM], dstr[USMARR_MAX_NDIM];
    memcpy(shape, x->shape, sizeof(int64_t) * (size_t)nb);
    shape[nb] = full + (rem > 0);
    shape[nb + 1] = C;
    shape[nb + 2] = t;
    usmarr_array_t *p = NULL;
    int rc = rem ? usmarr_array_zeros(ctx, nd + 1, shape, dt, USMARR_ORDER_C, USMARR_USM_DEVICE, &p)
                 : usmarr_array_empty(ctx, nd + 1, shape, dt, USMARR_ORDER_C, USMARR_USM_DEVICE, &p);
    if (rc)
        return rc;
    memcpy(sstr, x->strides, sizeof(int64_t) * (size_t)nb);
    memcpy(dstr, p->strides, sizeof(int64_t) * (size_t)nb);
    sstr[nb] = t * x->strides[nb];
    sstr[nb + 1] = x->strides[nb + 1];
    sstr[nb + 2] = x->strides[nb];
    dstr[nb] = C * t;
    dstr[nb + 1] = t;
    dstr[nb + 2] = 1;
    for (int part = 0; part < 2 && !rc; part++) {
        shape[nb] = part ? 1 : full;
        shape[nb + 2] = part ? rem : t;
        if (!shape[nb] || !shape[nb + 2])
            continue;
        usmarr_array_t *sv = NULL, *dv = NULL;
        rc = usmarr__array_new(x->memory, x->dtype, nd + 1, shape, sstr, x->offset + (part ? full * t * x->strides[nb] : 0),
                               0, &sv);
        if (!rc)
            rc = usmarr__array_new(p->memory, dt, nd + 1, shape, dstr, p->offset + (part ? full * C * t : 0),
                                   USMARR_FLAG_WRITABLE, &dv);
        if (!rc)
            rc = usmarr_array_copy_into(dv, sv);
        usmarr_array_release(sv);
        usmarr_array_release(dv);
    }
    if (rc)
        usmarr_array_release(p);
    else
        *packed = p;
    return rc;
}

/* The gpu shape's product (cl/gemm.cl): 128 x 128 blocks of c a work-group, 8 x 8 a
 * work-item, A and B through local memory; the operands in place where their rows are
 * contiguous. */
static int gemm_blocked(usmarr_context_t *ctx, usmarr_dtype_t dt, usmarr_array_t *c, const usmarr_array_t *a,
                        const usmarr_array_t *b, int nbd, const int64_t *bshape, int64_t nbatch, int64_t M, int64_t N,
                        int64_t K)
{
    char defines[32];
    snprintf(defines, sizeof defines, "-DD0=%s", usmarr__dtype_tag(dt));
    usmarr__kernel_t *k = NULL;
    int rc = usmarr__kernel_get(ctx, "gemm", defines, "usmarr_gemm", &k);
    if (rc)
        return rc;
    struct mm_operand oa = {0}, ob = {0};
    rc = prepare(a, nbd, bshape, dt, true, 1, &oa);
    if (!rc)
        rc = prepare(b, nbd, bshape, dt, true, 1, &ob);
    if (!rc) {
        cl_long mm = M, nn = N, kk = K, sa = oa.s0, sb = ob.s0;
        cl_long3 bat = {{oa.batch, ob.batch, M * N}};
        const struct usmarr__karg args[] = {USMARR__ARG_PTR(usmarr_array_data(c)), USMARR__ARG_PTR(oa.data),
                                            USMARR__ARG_PTR(ob.data),     USMARR__ARG(mm),
                                            USMARR__ARG(nn),              USMARR__ARG(kk),
                                            USMARR__ARG(sa),              USMARR__ARG(sb),
                                            USMARR__ARG(bat)};
        size_t global[3] = {(size_t)((N + 127) / 128) * 16, (size_t)((M + 127) / 128) * 16, (size_t)nbatch},
               local[3] = {16, 16, 1};
        rc = usmarr__kernel_launch(ctx, k, USMARR__NARGS(args), args, 3, global, local);
    }
    usmarr_array_release(oa.keep); /* waits for the launch */
    usmarr_array_release(ob.keep);
    return rc;
}

/* c -= a @ b in one pass over c (the tiled kernel compiled with MM_UPDATE reads c's block
 * and stores it less the product): a and b packed as for a product, c a 2-D view whose
 * rows are contiguous.  false (nothing done) where that kernel does not apply. */
static bool subtract_tiled(usmarr_context_t *ctx, usmarr_array_t *c, const usmarr_array_t *a,
                           const usmarr_array_t *b, int *rc)
{
    usmarr_dtype_t dt = c->dtype;
    int rm, vw;
    packed_tile(ctx, dt, &rm, &vw);
    if (c->ndim != 2 || a->ndim != 2 || b->ndim != 2 || a->dtype != dt || b->dtype != dt || !vw ||
        ctx->shape.matmul_blocked || naive_forced())
        return false;
    int64_t M = c->shape[0], N = c->shape[1], K = a->shape[1];
    if (M * N * K < 262144 || K < 16 || (N > 1 && c->strides[1] != 1) || c->strides[0] < N)
        return false;
    char defines[128];
    snprintf(defines, sizeof defines, "-DD0=%s -DMM_TILED -DMM_RM=%d -DMM_VW=%d -DMM_UPDATE", usmarr__dtype_tag(dt), rm,
             vw);
    usmarr__kernel_t *k = NULL;
    usmarr_array_t *bt = NULL, *pa = NULL, *pb = NULL;
    *rc = usmarr__kernel_get(ctx, "linalg", defines, "usmarr_matmul_tiled", &k);
    if (!*rc)
        *rc = pack(ctx, a, dt, rm, &pa);
    if (!*rc)
        *rc = usmarr_matrix_transpose(b, &bt);
    if (!*rc)
        *rc = pack(ctx, bt, dt, vw, &pb);
    if (!*rc) {
        int64_t rt = (M + rm - 1) / rm, ct = (N + vw - 1) / vw;
        cl_long3 sa = {{K * rm, 1, rm}}, batch = {{0, 0, 0}};
        cl_long2 sb = {{K * vw, vw}};
        cl_long kk = K, mm = M, nn = N, ldc = c->strides[0];
        size_t global[3] = {((size_t)rt + 7) / 8 * 8, (size_t)ct, 1}, local[3] = {8, 1, 1};
        const struct usmarr__karg args[] = {USMARR__ARG_PTR(usmarr_array_data(c)), USMARR__ARG_PTR(usmarr_array_data(pa)),
                                            USMARR__ARG_PTR(usmarr_array_data(pb)), USMARR__ARG(kk),
                                            USMARR__ARG(mm),                       USMARR__ARG(nn),
                                            USMARR__ARG(ldc),                      USMARR__ARG(sa),
                                            USMARR__ARG(sb),                       USMARR__ARG(batch)};
        *rc = usmarr__kernel_launch(ctx, k, USMARR__NARGS(args), args, 3, global, local);
    }
    usmarr_array_release(bt);
    usmarr_array_release(pa); /* waits for the launch */
    usmarr_array_release(pb);
    return true;
}

int usmarr__subtract_product(usmarr_array_t *c, const usmarr_array_t *a, const usmarr_array_t *b)
{
    int rc = 0;
    if (subtract_tiled(c->memory->context, c, a, b, &rc))
        return rc;
    usmarr_array_t *t = NULL;
    rc = usmarr_matmul(a, b, NULL, &t);
    if (!rc)
        rc = usmarr_subtract(c, t, c, NULL);
    usmarr_array_release(t);
    return rc;
}

/* c (C-ordered, dtype dt, (nbatch, M, N) flattened) = a @ b, where a and b are the
 * operands broadcast to (bshape[nbd], M, K) and (bshape[nbd], K, N). */
static int compute(usmarr_context_t *ctx, usmarr_dtype_t dt, usmarr_array_t *c, const usmarr_array_t *a,
                   const usmarr_array_t *b, int nbd, const int64_t *bshape, int64_t nbatch, int64_t M, int64_t N,
                   int64_t K)
{
    int rm, vw;
    tile_of(dt, &rm, &vw);
    bool packed = vw && M * N * K >= 262144 && K >= 16, batched = vw && !packed && N >= vw;
    if (naive_forced())
        packed = batched = false;
    if (packed && ctx->shape.matmul_blocked)
        return gemm_blocked(ctx, dt, c, a, b, nbd, bshape, nbatch, M, N, K);
    if (batched)
        rm = block_rows(ctx, M);
    if (packed)
        packed_tile(ctx, dt, &rm, &vw);
    char defines[128];
    int len = snprintf(defines, sizeof defines, "-DD0=%s%s", usmarr__dtype_tag(dt),
                       usmarr_dtype_kind(dt) == USMARR_KIND_COMPLEX ? " -DMM_COMPLEX" : dt == USMARR_BOOL ? " -DMM_BOOL" : "");
    if (vw)
        snprintf(defines + len, sizeof defines - (size_t)len, " -DMM_TILED -DMM_RM=%d -DMM_VW=%d", rm, vw);
    usmarr__kernel_t *k = NULL;
    int rc = usmarr__kernel_get(ctx, "linalg", defines,
                                packed ? "usmarr_matmul_tiled" : batched ? "usmarr_matmul_batched" : "usmarr_matmul_naive", &k);
    if (rc)
        return rc;
    void *cp = usmarr_array_data(c);
    if (packed) { /* both operands packed into tiles; B read in place when A is a few row
                   * tiles (B's column panels are then read that few times, and its copy
                   * would cost more: the eigh back-transformation's (32 x n) (n x n)) */
        bool in_place = nbd == 0 && b->dtype == dt && b->strides[1] == 1 && M <= 4 * rm;
        usmarr_array_t *bt = NULL, *pa = NULL, *pb = NULL;
        rc = pack(ctx, a, dt, rm, &pa);
        if (!rc && !in_place)
            rc = usmarr_matrix_transpose(b, &bt);
        if (!rc && !in_place)
            rc = pack(ctx, bt, dt, vw, &pb);
        if (!rc) {
            int64_t rt = (M + rm - 1) / rm, ct = (N + vw - 1) / vw;
            cl_long3 sa = {{K * rm, 1, rm}}, batch = {{nbd ? rt * K * rm : 0, nbd ? ct * K * vw : 0, M * N}};
            cl_long2 sb = {{K * vw, vw}};
            if (in_place)
                sb = (cl_long2){{vw, b->strides[0]}};
            rc = launch_tiled(ctx, k, cp, usmarr_array_data(pa), usmarr_array_data(in_place ? b : pb), K, M, N, &sa,
                              &sb, &batch, rt, ct, nbatch);
        }
        usmarr_array_release(bt);
        usmarr_array_release(pa); /* waits for the launch */
        usmarr_array_release(pb);
        return rc;
    }
    struct mm_operand oa = {0}, ob = {0};
    rc = prepare(a, nbd, bshape, dt, false, 1, &oa);
    if (!rc)
        rc = prepare(b, nbd, bshape, dt, batched, 1, &ob);
    if (!rc)
        rc = batched ? launch_batched(ctx, k, cp, &oa, &ob, K, M, N, rm, vw, nbatch)
                     : launch_naive(ctx, k, cp, &oa, &ob, K, M, N, nbatch);
    usmarr_array_release(oa.keep); /* waits for the launch */
    usmarr_array_release(ob.keep);
    return rc;
}

int usmarr__check_product(const char *fn, const usmarr_array_t *x1, const usmarr_array_t *x2,
                          const usmarr_array_t *out, usmarr_array_t **result, int min_ndim)
{
    if (!x1 || !x2)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s: %s is NULL", fn, x1 ? "x2" : "x1");
    if (!out && !result)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s: result is NULL and there is no out", fn);
    int rc = usmarr__same_context(x1, "x1", x2, "x2");
    if (rc)
        return rc;
    if (x1->ndim < min_ndim || x2->ndim < min_ndim)
        return usmarr__fail(USMARR_ERROR_SHAPE_MISMATCH, "%s: %s is 0-d; both operands need at least 1 dim", fn,
                            x1->ndim < min_ndim ? "x1" : "x2");
    return 0;
}

/* Whether the product kernels of one work-item a row (a column) apply: float32 or float64,
 * not the gpu shape (a work-item a row reads memory one row per lane there), and enough
 * rows for every compute unit unless they are short. */
static bool vector_products(const usmarr_context_t *ctx, usmarr_dtype_t dt, int64_t items, int64_t K)
{
    return (dt == USMARR_FLOAT32 || dt == USMARR_FLOAT64) && !ctx->shape.matmul_blocked && !naive_forced() &&
           items > 0 && K > 0 && (items >= 4 * (int64_t)ctx->profile.compute_units || K <= 4096);
}

/* out[r] = sum_k a[r * ra + k] * b[r * rb + k] for r < rows (cl/linalg.cl). */
static int row_dots(usmarr_context_t *ctx, usmarr_dtype_t dt, void *out, const void *a, const void *b, int64_t K,
                    int64_t ra, int64_t rb, int64_t rows)
{
    cl_long kk = K, sa = ra, sb = rb, n = rows;
    const struct usmarr__karg args[] = {USMARR__ARG_PTR(out), USMARR__ARG_PTR(a), USMARR__ARG_PTR(b),
                                        USMARR__ARG(kk),      USMARR__ARG(sa),    USMARR__ARG(sb),
                                        USMARR__ARG(n)};
    return usmarr__vector_launch(ctx, dt, "usmarr_rowdot", rows, USMARR__NARGS(args), args);
}

/* sum(x1 * x2) along the last axis by row_dots: one dtype, that axis contiguous in both,
 * the other dims one stride in each (after broadcasting), out absent or C-ordered of that
 * dtype in other memory.  1: not taken (nothing done). */
static int sum_rows(const usmarr_array_t *x1, const usmarr_array_t *x2, int axis, usmarr_array_t *out,
                    usmarr_array_t **result)
{
    usmarr_context_t *ctx = x1->memory->context;
    usmarr_dtype_t dt = x1->dtype;
    int nd = x1->ndim > x2->ndim ? x1->ndim : x2->ndim;
    int64_t shape[USMARR_MAX_NDIM], rows = 1;
    if (x2->dtype != dt || (axis != -1 && axis != nd - 1))
        return 1;
    for (int i = 0; i < 2; i++) { /* a strided vector (x[:, 0]) read as a contiguous copy */
        const usmarr_array_t *v = i ? x2 : x1;
        if (v->ndim == 1 && v->shape[0] > 1 && v->strides[0] != 1 && vector_products(ctx, dt, 1, 1)) {
            usmarr_array_t *c = NULL;
            int rc = usmarr_array_astype(v, dt, USMARR_ORDER_C, NULL, &c);
            if (!rc)
                rc = sum_rows(i ? x1 : c, i ? c : x2, axis, out, result);
            usmarr_array_release(c);
            return rc;
        }
    }
    for (int d = 0; d < nd; d++) {
        int d1 = d - (nd - x1->ndim), d2 = d - (nd - x2->ndim);
        int64_t e1 = d1 >= 0 ? x1->shape[d1] : 1, e2 = d2 >= 0 ? x2->shape[d2] : 1;
        if (e1 != e2 && e1 != 1 && e2 != 1)
            return 1;
        shape[d] = e1 == 1 ? e2 : e1;
        rows *= d < nd - 1 ? shape[d] : 1;
    }
    int64_t K = shape[nd - 1];
    if (!vector_products(ctx, dt, rows, K))
        return 1;
    if (out) {
        bool fits = out->dtype == dt && (out->flags & USMARR_FLAG_C_CONTIGUOUS) &&
                    (out->flags & USMARR_FLAG_WRITABLE) && out->ndim == nd - 1 && out->memory != x1->memory &&
                    out->memory != x2->memory && out->memory->context == ctx;
        for (int d = 0; fits && d < nd - 1; d++)
            fits = out->shape[d] == shape[d];
        if (!fits)
            return 1;
    }
    usmarr_array_t *a = NULL, *b = NULL, *r = NULL;
    int64_t ra = 0, rb = 0;
    int rc = usmarr_array_broadcast_to(x1, nd, shape, &a);
    if (!rc)
        rc = usmarr_array_broadcast_to(x2, nd, shape, &b);
    if (!rc && ((K > 1 && (a->strides[nd - 1] != 1 || b->strides[nd - 1] != 1)) || !collapse(a, nd - 1, &ra) ||
                !collapse(b, nd - 1, &rb)))
        rc = 1;
    if (!rc && !out)
        rc = usmarr__array_empty_like_layout(ctx, dt, nd - 1, shape, USMARR_ORDER_C,
                                             x1->memory->kind == USMARR_USM_UNKNOWN ? USMARR_USM_DEVICE
                                                                                    : x1->memory->kind,
                                             &r);
    if (!rc)
        rc = row_dots(ctx, dt, usmarr_array_data(out ? out : r), usmarr_array_data(a), usmarr_array_data(b), K, ra, rb,
                      rows);
    usmarr_array_release(a);
    usmarr_array_release(b);
    if (rc || !result)
        usmarr_array_release(r);
    else
        *result = r;
    return rc;
}

/* linalg_internal.h: the row kernel where it applies, else the fused expression. */
int usmarr__sum_of_products(const usmarr_array_t *x1, const usmarr_array_t *x2, int axis, usmarr_array_t *out,
                            usmarr_array_t **result)
{
    int rc = sum_rows(x1, x2, axis, out, result);
    if (rc != 1)
        return rc;
    usmarr_expr_t *e = NULL;
    usmarr_operand_t ops[2] = {{.array = x1}, {.array = x2}};
    rc = usmarr_expr_create("sum(a * b)", NULL, 0, &e);
    if (!rc)
        rc = usmarr_expr_reduce(e, ops, 2, 1, &axis, false, out, result);
    usmarr_expr_release(e);
    return rc;
}

/* c (C-ordered, (M, N)) = a @ b of 2-D operands of dtype dt by one row or column kernel: a
 * column (N = 1) as dots of a's rows, a row (M = 1) as sums of b's rows scaled by its
 * elements (cl/linalg.cl, usmarr_coldot); false (nothing done) where neither applies. */
static bool product_of_vectors(usmarr_context_t *ctx, usmarr_dtype_t dt, usmarr_array_t *c, const usmarr_array_t *a,
                               const usmarr_array_t *b, int *rc)
{
    int64_t M = a->shape[0], K = a->shape[1], N = b->shape[1];
    if (a->ndim != 2 || b->ndim != 2 || a->dtype != dt || b->dtype != dt)
        return false;
    if (N == 1 && vector_products(ctx, dt, M, K) && (K == 1 || a->strides[1] == 1)) {
        usmarr_array_t *col = NULL; /* a strided column (x[:, :1]) read as a contiguous copy */
        *rc = K > 1 && b->strides[0] != 1 ? usmarr_array_astype(b, dt, USMARR_ORDER_C, NULL, &col) : 0;
        if (!*rc)
            *rc = row_dots(ctx, dt, usmarr_array_data(c), usmarr_array_data(a), usmarr_array_data(col ? col : b), K,
                           a->strides[0], 0, M);
        usmarr_array_release(col);
        return true;
    }
    if (M == 1 && vector_products(ctx, dt, (N + 255) / 256, K) && (N == 1 || b->strides[1] == 1)) {
        cl_long kk = K, nn = N, sv = a->strides[1], lda = b->strides[0];
        const struct usmarr__karg args[] = {USMARR__ARG_PTR(usmarr_array_data(c)), USMARR__ARG_PTR(usmarr_array_data(a)),
                                            USMARR__ARG_PTR(usmarr_array_data(b)), USMARR__ARG(kk),
                                            USMARR__ARG(nn),                       USMARR__ARG(sv),
                                            USMARR__ARG(lda)};
        *rc = usmarr__vector_launch(ctx, dt, "usmarr_coldot", (N + 255) / 256, USMARR__NARGS(args), args);
        return true;
    }
    return false;
}

int usmarr_matmul(const usmarr_array_t *x1, const usmarr_array_t *x2, usmarr_array_t *out, usmarr_array_t **result)
{
    usmarr__clear_error();
    int rc = usmarr__check_product("matmul", x1, x2, out, result, 1);
    if (rc)
        return rc;
    usmarr_context_t *ctx = x1->memory->context;
    usmarr_dtype_t dt = usmarr__promote(x1->dtype, x2->dtype);
    if ((rc = usmarr__check_dtype_supported(ctx, dt, "the result dtype")))
        return rc;
    /* 1-D operands: (K,) @ ... is (1, K) @ ..., ... @ (K,) is ... @ (K, 1); the added dim
     * is dropped from the result */
    usmarr_array_t *a = NULL, *b = NULL, *target = NULL, *work = NULL;
    int e0 = 0, e1 = -1;
    if ((rc = x1->ndim == 1 ? usmarr_array_expand_dims(x1, 1, &e0, &a) : 0))
        return rc;
    if (x1->ndim != 1)
        a = usmarr_array_retain((usmarr_array_t *)x1);
    if ((rc = x2->ndim == 1 ? usmarr_array_expand_dims(x2, 1, &e1, &b) : 0))
        goto done;
    if (x2->ndim != 1)
        b = usmarr_array_retain((usmarr_array_t *)x2);
    int64_t M = a->shape[a->ndim - 2], K = a->shape[a->ndim - 1], N = b->shape[b->ndim - 1];
    if (b->shape[b->ndim - 2] != K) {
        rc = usmarr__fail(USMARR_ERROR_SHAPE_MISMATCH,
                          "matmul: x1's last dim has %lld elements, x2's %s dim has %lld (they must match)",
                          (long long)K, x2->ndim == 1 ? "only" : "second-to-last", (long long)b->shape[b->ndim - 2]);
        goto done;
    }
    /* batch dims, broadcast NumPy's way */
    int na = a->ndim - 2, nb = b->ndim - 2, nbd = na > nb ? na : nb;
    int64_t bshape[USMARR_MAX_NDIM], nbatch = 1;
    for (int d = 0; d < nbd; d++) {
        int da = d - (nbd - na), db = d - (nbd - nb);
        int64_t ea = da >= 0 ? a->shape[da] : 1, eb = db >= 0 ? b->shape[db] : 1;
        if (ea != eb && ea != 1 && eb != 1) {
            rc = usmarr__fail(USMARR_ERROR_SHAPE_MISMATCH,
                              "matmul: batch dim %d does not broadcast (x1 has %lld, x2 has %lld)", d, (long long)ea,
                              (long long)eb);
            goto done;
        }
        bshape[d] = ea == 1 ? eb : ea;
        nbatch *= bshape[d];
    }
    int64_t rshape[USMARR_MAX_NDIM];
    int rnd = nbd;
    memcpy(rshape, bshape, sizeof(int64_t) * (size_t)nbd);
    if (x1->ndim > 1)
        rshape[rnd++] = M;
    if (x2->ndim > 1)
        rshape[rnd++] = N;
    const usmarr_array_t *inputs[2] = {x1, x2};
    if ((rc = usmarr__result_begin(x1, inputs, 2, dt, rnd, rshape, out, result, &target)))
        goto done;
    bool direct = target->dtype == dt && (target->flags & USMARR_FLAG_C_CONTIGUOUS);
    if (direct)
        work = usmarr_array_retain(target);
    else if ((rc = usmarr__array_empty_like_layout(ctx, dt, rnd, rshape, USMARR_ORDER_C, USMARR_USM_DEVICE, &work)))
        goto finish;
    if (nbatch > 0 && M > 0 && N > 0 && K == 0) {
        rc = usmarr_array_fill(work, usmarr_scalar_int(0)); /* an empty sum */
    } else if (x2->ndim == 1 && x1->ndim > 1 && (dt == USMARR_FLOAT32 || dt == USMARR_FLOAT64)) {
        /* matrix @ vector of floats: one fused sum along the rows reads x1 once (the naive
         * kernel's work-item a row took 16-43 ms for 2048^2 float32, this 0.4-0.8 ms); sums
         * in the row kernel's order or the reductions', not k in order. */
        rc = usmarr__sum_of_products(x1, x2, -1, work, NULL);
    } else if (nbatch > 0 && M > 0 && N > 0) {
        usmarr_array_t *va = NULL, *vb = NULL;
        int64_t shape[USMARR_MAX_NDIM];
        memcpy(shape, bshape, sizeof(int64_t) * (size_t)nbd);
        shape[nbd] = M;
        shape[nbd + 1] = K;
        rc = usmarr_array_broadcast_to(a, nbd + 2, shape, &va);
        shape[nbd] = K;
        shape[nbd + 1] = N;
        if (!rc)
            rc = usmarr_array_broadcast_to(b, nbd + 2, shape, &vb);
        if (!rc && !(nbd == 0 && product_of_vectors(ctx, dt, work, va, vb, &rc)))
            rc = compute(ctx, dt, work, va, vb, nbd, bshape, nbatch, M, N, K);
        usmarr_array_release(va);
        usmarr_array_release(vb);
    }
    if (!rc && work != target)
        rc = usmarr_array_copy_into(target, work);
finish:
    usmarr_array_release(work);
    rc = usmarr__result_end(rc, target, out, result);
done:
    usmarr_array_release(a);
    usmarr_array_release(b);
    return rc;
}

int usmarr_matrix_transpose(const usmarr_array_t *x, usmarr_array_t **view)
{
    usmarr__clear_error();
    if (!x || !view)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "matrix_transpose: %s is NULL", x ? "view" : "x");
    if (x->ndim < 2)
        return usmarr__fail(USMARR_ERROR_SHAPE_MISMATCH, "matrix_transpose: x has %d dims; it needs at least 2",
                            x->ndim);
    return usmarr_array_swapaxes(x, -2, -1, view);
}
