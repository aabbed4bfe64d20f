/* The blocked path of LU and Cholesky for orders above USMARR__LINALG_SMALL
 * (linalg_internal.h, section 3): right-looking factorisations in blocks of BLOCK columns.
 * A panel (LU: one work-group with partial pivoting; Cholesky: the diagonal block by one
 * work-item, then the rows below it) is factored by cl/linalg_lu.cl's kernels, and the
 * trailing matrix is updated by usmarr_matmul on views of the stack, so that the O(n^3)
 * part of the work runs in the library's tiled product on every compute unit.  Solves
 * use the same pattern: a triangular block by a kernel, the rest by matmul. */
#include "linalg_internal.h"

#define BLOCK 32
#define GROUP 64 /* the panel kernel's work-group (LA_GROUP) */

/* A view of rows [r0, r0 + nr) and columns [c0, c0 + nc) of matrix `index` of `s`. */
static int block(const struct usmarr__linalg_stack *s, int64_t index, int64_t r0, int64_t nr, int64_t c0, int64_t nc,
                 usmarr_array_t **view)
{
    int64_t shape[2] = {nr, nc}, strides[2] = {s->cols, 1};
    return usmarr__view_new(s->work, s->work->dtype, 2, shape, strides,
                            s->work->offset + (index * s->rows + r0) * s->cols + c0, false, view);
}

/* The address of element (r, c) of matrix `index` of `s`. */
static void *at(const struct usmarr__linalg_stack *s, int64_t index, int64_t r, int64_t c)
{
    return (char *)usmarr_array_data(s->work) +
           (size_t)((index * s->rows + r) * s->cols + c) * usmarr__dtype_bytes(s->work->dtype);
}

/* The views c, a, b of usmarr__subtract_product as blocks (rows, cols) of stacks sc, sa, sb. */
static int update(const struct usmarr__linalg_stack *sc, const struct usmarr__linalg_stack *sa,
                  const struct usmarr__linalg_stack *sb, int64_t index, const int64_t c[4], const int64_t a[4],
                  const int64_t b[4])
{
    usmarr_array_t *vc = NULL, *va = NULL, *vb = NULL;
    int rc = block(sc, index, c[0], c[1], c[2], c[3], &vc);
    if (!rc)
        rc = block(sa, index, a[0], a[1], a[2], a[3], &va);
    if (!rc)
        rc = block(sb, index, b[0], b[1], b[2], b[3], &vb);
    if (!rc)
        rc = usmarr__subtract_product(vc, va, vb);
    usmarr_array_release(vc);
    usmarr_array_release(va);
    usmarr_array_release(vb);
    return rc;
}

/* b (rows [r0, r0 + ib) of matrix `index` of sb) <- inv(T) b, T the ib x ib triangle at
 * (r0, r0) of matrix `index` of sa: unit lower, or upper. */
static int triangle_solve(struct usmarr__linalg_stack *sa, struct usmarr__linalg_stack *sb, int64_t index, int64_t r0,
                          int64_t ib, int upper)
{
    cl_long lda = sa->cols, ldb = sb->cols, nb = ib;
    const struct usmarr__karg args[] = {USMARR__ARG_PTR(at(sa, index, r0, r0)), USMARR__ARG(lda),
                                        USMARR__ARG_PTR(at(sb, index, r0, 0)), USMARR__ARG(ldb), USMARR__ARG(nb),
                                        USMARR__ARG(upper)};
    return usmarr__linalg_launch(sa->work->memory->context, "linalg_lu", sa->work->dtype, NULL, "usmarr_lublock_trsm",
                                 USMARR__NARGS(args), args, sb->cols);
}

int usmarr__linalg_blocked_lu(struct usmarr__linalg_stack *a, int64_t index, usmarr_array_t *piv,
                              usmarr_array_t *status)
{
    usmarr_context_t *ctx = a->work->memory->context;
    int64_t n = a->rows;
    int rc = 0;
    for (int64_t k0 = 0; k0 < n && !rc; k0 += BLOCK) {
        int64_t kb = n - k0 < BLOCK ? n - k0 : BLOCK, rest = n - k0 - kb;
        cl_long lda = n, nn = n, cols = n, kk0 = k0, kkb = kb;
        const struct usmarr__karg args[] = {USMARR__ARG_PTR(at(a, index, 0, 0)),
                                            USMARR__ARG(lda),
                                            USMARR__ARG(nn),
                                            USMARR__ARG(cols),
                                            USMARR__ARG(kk0),
                                            USMARR__ARG(kkb),
                                            USMARR__ARG_PTR(usmarr_array_data(piv)),
                                            USMARR__ARG_PTR((int32_t *)usmarr_array_data(status) + index)};
        rc = usmarr__linalg_launch_group(ctx, "linalg_lu", a->work->dtype, "-DLA_GROUP=64", "usmarr_lublock_panel",
                                         USMARR__NARGS(args), args, GROUP);
        if (!rc && rest > 0) {
            /* U12 = inv(L11) A12; A22 -= L21 U12 */
            cl_long ld = n, nb = kb;
            cl_int lower = 0;
            const struct usmarr__karg targs[] = {USMARR__ARG_PTR(at(a, index, k0, k0)), USMARR__ARG(ld),
                                                 USMARR__ARG_PTR(at(a, index, k0, k0 + kb)), USMARR__ARG(ld),
                                                 USMARR__ARG(nb), USMARR__ARG(lower)};
            rc = usmarr__linalg_launch(ctx, "linalg_lu", a->work->dtype, NULL, "usmarr_lublock_trsm",
                                       USMARR__NARGS(targs), targs, rest);
            const int64_t c[4] = {k0 + kb, rest, k0 + kb, rest}, l[4] = {k0 + kb, rest, k0, kb},
                          u[4] = {k0, kb, k0 + kb, rest};
            if (!rc)
                rc = update(a, a, a, index, c, l, u);
        }
    }
    return rc;
}

int usmarr__linalg_blocked_lu_solve(struct usmarr__linalg_stack *a, struct usmarr__linalg_stack *b, int64_t index,
                                    const usmarr_array_t *piv)
{
    usmarr_context_t *ctx = a->work->memory->context;
    int64_t n = a->rows, k = b->cols;
    cl_long ldb = k, nn = n;
    const struct usmarr__karg args[] = {USMARR__ARG_PTR(at(b, index, 0, 0)), USMARR__ARG(ldb),
                                        USMARR__ARG_PTR(usmarr_array_data(piv)), USMARR__ARG(nn)};
    int rc = usmarr__linalg_launch(ctx, "linalg_lu", a->work->dtype, NULL, "usmarr_lublock_swap", USMARR__NARGS(args),
                                   args, k);
    /* forward with L (unit lower), then back with U */
    for (int64_t i0 = 0; i0 < n && !rc; i0 += BLOCK) {
        int64_t ib = n - i0 < BLOCK ? n - i0 : BLOCK, rest = n - i0 - ib;
        rc = triangle_solve(a, b, index, i0, ib, 0);
        const int64_t c[4] = {i0 + ib, rest, 0, k}, l[4] = {i0 + ib, rest, i0, ib}, y[4] = {i0, ib, 0, k};
        if (!rc && rest > 0)
            rc = update(b, a, b, index, c, l, y);
    }
    for (int64_t i0 = (n - 1) / BLOCK * BLOCK; i0 >= 0 && !rc; i0 -= BLOCK) {
        int64_t ib = n - i0 < BLOCK ? n - i0 : BLOCK;
        rc = triangle_solve(a, b, index, i0, ib, 1);
        const int64_t c[4] = {0, i0, 0, k}, u[4] = {0, i0, i0, ib}, y[4] = {i0, ib, 0, k};
        if (!rc && i0 > 0)
            rc = update(b, a, b, index, c, u, y);
    }
    return rc;
}

int usmarr__linalg_blocked_lu_det(struct usmarr__linalg_stack *a, int64_t index, const usmarr_array_t *piv,
                                  usmarr_array_t *det, usmarr_array_t *logabs)
{
    size_t item = usmarr__dtype_bytes(det->dtype), ritem = logabs ? usmarr__dtype_bytes(logabs->dtype) : 0;
    cl_long lda = a->rows, nn = a->rows;
    cl_int mode = logabs != NULL;
    void *lp = logabs ? (char *)usmarr_array_data(logabs) + (size_t)index * ritem : usmarr_array_data(det);
    const struct usmarr__karg args[] = {USMARR__ARG_PTR(at(a, index, 0, 0)),
                                        USMARR__ARG(lda),
                                        USMARR__ARG_PTR(usmarr_array_data(piv)),
                                        USMARR__ARG(nn),
                                        USMARR__ARG_PTR((char *)usmarr_array_data(det) + (size_t)index * item),
                                        USMARR__ARG_PTR(lp),
                                        USMARR__ARG(mode)};
    return usmarr__linalg_launch(a->work->memory->context, "linalg_lu", a->work->dtype, NULL, "usmarr_lublock_det",
                                 USMARR__NARGS(args), args, 1);
}

int usmarr__linalg_blocked_cholesky(struct usmarr__linalg_stack *a, int64_t index, usmarr_array_t *status)
{
    usmarr_context_t *ctx = a->work->memory->context;
    usmarr_dtype_t dt = a->work->dtype;
    int64_t n = a->rows;
    int rc = 0;
    for (int64_t k0 = 0; k0 < n && !rc; k0 += BLOCK) {
        int64_t kb = n - k0 < BLOCK ? n - k0 : BLOCK, rest = n - k0 - kb;
        cl_long lda = n, nb = kb;
        const struct usmarr__karg args[] = {USMARR__ARG_PTR(at(a, index, k0, k0)), USMARR__ARG(lda), USMARR__ARG(nb),
                                            USMARR__ARG_PTR((int32_t *)usmarr_array_data(status) + index)};
        rc = usmarr__linalg_launch(ctx, "linalg_lu", dt, NULL, "usmarr_cholblock_diag", USMARR__NARGS(args), args, 1);
        if (rc || rest == 0)
            break;
        /* L21 = A21 inv(L11)^H; A22 -= L21 L21^H */
        const struct usmarr__karg rargs[] = {USMARR__ARG_PTR(at(a, index, k0, k0)), USMARR__ARG(lda),
                                             USMARR__ARG_PTR(at(a, index, k0 + kb, k0)), USMARR__ARG(nb)};
        rc = usmarr__linalg_launch(ctx, "linalg_lu", dt, NULL, "usmarr_cholblock_rows", USMARR__NARGS(rargs), rargs,
                                   rest);
        usmarr_array_t *l21 = NULL, *c = NULL, *t = NULL, *h = NULL;
        if (!rc)
            rc = block(a, index, k0 + kb, rest, k0, kb, &l21);
        if (!rc)
            rc = block(a, index, k0 + kb, rest, k0 + kb, rest, &c);
        if (!rc)
            rc = usmarr_matrix_transpose(l21, &t);
        if (!rc && usmarr_dtype_kind(dt) == USMARR_KIND_COMPLEX)
            rc = usmarr_conj(t, NULL, &h);
        if (!rc)
            rc = usmarr__subtract_product(c, l21, h ? h : t);
        usmarr_array_release(l21);
        usmarr_array_release(c);
        usmarr_array_release(t);
        usmarr_array_release(h);
    }
    return rc;
}
