/* The blocked path of LU and Cholesky for orders above USMARR__LINALG_SMALL
 * (linalg_internal.h, section 3): right-looking factorisations in blocks of BLOCK columns.
 * A panel (LU: one work-group with partial pivoting; Cholesky: the diagonal block by one
 * work-item, then the rows below it) is factored by cl/linalg_lu.cl's kernels, and the
 * trailing matrix is updated by usmarr_matmul on views of the stack, so that the O(n^3)
 * part of the work runs in the library's tiled product on every compute unit.  Solves
 * use the same pattern: a triangular block by a kernel, the rest by matmul. */
#include "linalg_internal.h"

#define BLOCK 32  /* the panel and triangle kernels' columns */
#define OUTER 128 /* the trailing updates' depth: panels of OUTER columns, each in panels of BLOCK */
#define SLAB 256  /* Cholesky's trailing update: columns a product */
#define GROUP 64 /* the panel kernel's work-group (LA_GROUP) */

/* A view of rows [r0, r0 + nr) and columns [c0, c0 + nc) of matrix `index` of `s`. */
static int block(const struct usmarr__linalg_stack *s, int64_t index, int64_t r0, int64_t nr, int64_t c0, int64_t nc,
                 usmarr_array_t **view)
{
    int64_t shape[2] = {nr, nc}, strides[2] = {s->ld, 1};
    return usmarr__view_new(s->work, s->work->dtype, 2, shape, strides,
                            s->work->offset + (index * s->rows + r0) * s->ld + c0, false, view);
}

/* The address of element (r, c) of matrix `index` of `s`. */
static void *at(const struct usmarr__linalg_stack *s, int64_t index, int64_t r, int64_t c)
{
    return (char *)usmarr_array_data(s->work) +
           (size_t)((index * s->rows + r) * s->ld + c) * usmarr__dtype_bytes(s->work->dtype);
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

/* b's columns [c0, c0 + nc) of rows [r0, r0 + nb) (matrix `index` of sb) <- inv(T) b, T the
 * nb x nb triangle at (r0, r0) of matrix `index` of sa: unit lower, or upper.  Blocks of
 * `step` rows (BLOCK or OUTER) from T's first (lower) or last (upper) one: each block's
 * triangle (by blocks of BLOCK below OUTER; by the kernel at BLOCK), then the rows still to
 * solve less its product.  `identity` (lower, c0 = r0 = 0): b is the identity, whose
 * solution is lower triangular, so a block's rows are zero right of its last column and
 * only the columns up to it are solved and subtracted. */
static int triangle_solve(struct usmarr__linalg_stack *sa, struct usmarr__linalg_stack *sb, int64_t index, int64_t r0,
                          int64_t nb, int64_t c0, int64_t nc, int upper, int64_t step, bool identity)
{
    int rc = 0;
    int64_t last = (nb - 1) / step * step, all = nc;
    for (int64_t o = 0; o < nb && !rc; o += step) {
        int64_t i0 = r0 + (upper ? last - o : o), ib = r0 + nb - i0 < step ? r0 + nb - i0 : step;
        if (identity)
            nc = i0 + ib < all ? i0 + ib : all;
        if (step > BLOCK) {
            rc = triangle_solve(sa, sb, index, i0, ib, c0, nc, upper, BLOCK, identity);
        } else {
            cl_long lda = sa->ld, ldb = sb->ld, lib = ib;
            const struct usmarr__karg args[] = {USMARR__ARG_PTR(at(sa, index, i0, i0)), USMARR__ARG(lda),
                                                USMARR__ARG_PTR(at(sb, index, i0, c0)), USMARR__ARG(ldb),
                                                USMARR__ARG(lib), USMARR__ARG(upper)};
            rc = usmarr__linalg_launch(sa->work->memory->context, "linalg_lu", sa->work->dtype, NULL,
                                       "usmarr_lublock_trsm", USMARR__NARGS(args), args, nc);
        }
        /* lower: the rows below the block; upper: those above it */
        int64_t rest = upper ? i0 - r0 : r0 + nb - i0 - ib, from = upper ? r0 : i0 + ib;
        const int64_t c[4] = {from, rest, c0, nc}, t[4] = {from, rest, i0, ib}, y[4] = {i0, ib, c0, nc};
        if (!rc && rest > 0)
            rc = update(sb, sa, sb, index, c, t, y);
    }
    return rc;
}

/* Rows j of matrix `index` of a swapped with piv[j], j in [first, last), over columns
 * [c0, c0 + nc) (one work-item a column). */
static int swap_rows(struct usmarr__linalg_stack *a, int64_t index, const usmarr_array_t *piv, int64_t first,
                     int64_t last, int64_t c0, int64_t nc)
{
    cl_long ld = a->ld, lfirst = first, llast = last;
    cl_int columns = 0;
    const struct usmarr__karg args[] = {USMARR__ARG_PTR(at(a, index, 0, c0)), USMARR__ARG(ld),
                                        USMARR__ARG_PTR(usmarr_array_data(piv)), USMARR__ARG(lfirst),
                                        USMARR__ARG(llast), USMARR__ARG(columns)};
    return usmarr__linalg_launch(a->work->memory->context, "linalg_lu", a->work->dtype, NULL, "usmarr_lublock_swap",
                                 USMARR__NARGS(args), args, nc);
}

/* The panel of columns [j0, j0 + jb), rows j0 to n, by the panel kernel: in place, swapping
 * whole rows (work-items walk rows); or, with a column-major scratch (a driver that runs
 * work-items as a vector's lanes: neighbouring work-items then read neighbouring
 * elements of a column), copied there, factored, copied back, and its swaps applied to
 * the other columns after. */
static int lu_panel(struct usmarr__linalg_stack *a, int64_t index, int64_t j0, int64_t jb, usmarr_array_t *piv,
                    usmarr_array_t *status, usmarr_array_t *scratch)
{
    usmarr_context_t *ctx = a->work->memory->context;
    int64_t n = a->rows, m = n - j0;
    usmarr_array_t *panel = NULL, *columns = NULL;
    int rc = block(a, index, j0, m, j0, jb, &panel);
    if (!rc && scratch) { /* scratch's rows [0, jb), columns [0, m): the panel transposed */
        int64_t shape[2] = {m, jb}, strides[2] = {1, n};
        rc = usmarr__view_new(scratch, scratch->dtype, 2, shape, strides, scratch->offset, false, &columns);
        if (!rc)
            rc = usmarr_array_copy_into(columns, panel);
    }
    cl_long rs = scratch ? 1 : a->ld, cs = scratch ? n : 1, nn = n, sw0 = scratch ? j0 : 0, sw1 = scratch ? j0 + jb : n,
            lj0 = j0, ljb = jb;
    const struct usmarr__karg args[] = {USMARR__ARG_PTR(scratch ? usmarr_array_data(scratch) : at(a, index, j0, j0)),
                                        USMARR__ARG(rs),
                                        USMARR__ARG(cs),
                                        USMARR__ARG(nn),
                                        USMARR__ARG(sw0),
                                        USMARR__ARG(sw1),
                                        USMARR__ARG(lj0),
                                        USMARR__ARG(ljb),
                                        USMARR__ARG_PTR(usmarr_array_data(piv)),
                                        USMARR__ARG_PTR((int32_t *)usmarr_array_data(status) + index)};
    if (!rc)
        rc = usmarr__linalg_launch_group(ctx, "linalg_lu", a->work->dtype, "-DLA_GROUP=64", "usmarr_lublock_panel",
                                         USMARR__NARGS(args), args, GROUP);
    if (!rc && scratch)
        rc = usmarr_array_copy_into(panel, columns);
    if (!rc && scratch && j0 > 0)
        rc = swap_rows(a, index, piv, j0, j0 + jb, 0, j0);
    if (!rc && scratch && n > j0 + jb)
        rc = swap_rows(a, index, piv, j0, j0 + jb, j0 + jb, n - j0 - jb);
    usmarr_array_release(panel);
    usmarr_array_release(columns);
    return rc;
}

/* Columns [k0, k0 + kb) of the LU factorisation, rows k0 to n: panels of BLOCK columns
 * (lu_panel), each followed by the columns of this block to its right: U12 by the
 * triangle, A22 less L21 U12. */
static int lu_columns(struct usmarr__linalg_stack *a, int64_t index, int64_t k0, int64_t kb, usmarr_array_t *piv,
                      usmarr_array_t *status, usmarr_array_t *scratch)
{
    int64_t n = a->rows;
    int rc = 0;
    for (int64_t j0 = k0; j0 < k0 + kb && !rc; j0 += BLOCK) {
        int64_t jb = k0 + kb - j0 < BLOCK ? k0 + kb - j0 : BLOCK, right = k0 + kb - j0 - jb;
        rc = lu_panel(a, index, j0, jb, piv, status, scratch);
        if (!rc && right > 0)
            rc = triangle_solve(a, a, index, j0, jb, j0 + jb, right, 0, BLOCK, false);
        const int64_t c[4] = {j0 + jb, n - j0 - jb, j0 + jb, right}, l[4] = {j0 + jb, n - j0 - jb, j0, jb},
                      u[4] = {j0, jb, j0 + jb, right};
        if (!rc && right > 0 && n > j0 + jb)
            rc = update(a, a, a, index, c, l, u);
    }
    return rc;
}

int usmarr__linalg_blocked_lu(struct usmarr__linalg_stack *a, int64_t index, usmarr_array_t *piv,
                              usmarr_array_t *status)
{
    int64_t n = a->rows, shape[2] = {BLOCK, n};
    usmarr_array_t *scratch = NULL;
    int rc = a->work->memory->context->shape.contig_one
                 ? usmarr_array_empty(a->work->memory->context, 2, shape, a->work->dtype, USMARR_ORDER_C,
                                      USMARR_USM_DEVICE, &scratch)
                 : 0;
    for (int64_t k0 = 0; k0 < n && !rc; k0 += OUTER) {
        int64_t kb = n - k0 < OUTER ? n - k0 : OUTER, rest = n - k0 - kb;
        rc = lu_columns(a, index, k0, kb, piv, status, scratch);
        /* U12 = inv(L11) A12; A22 -= L21 U12 */
        if (!rc && rest > 0)
            rc = triangle_solve(a, a, index, k0, kb, k0 + kb, rest, 0, BLOCK, false);
        const int64_t c[4] = {k0 + kb, rest, k0 + kb, rest}, l[4] = {k0 + kb, rest, k0, kb}, u[4] = {k0, kb, k0 + kb, rest};
        if (!rc && rest > 0)
            rc = update(a, a, a, index, c, l, u);
    }
    usmarr_array_release(scratch);
    return rc;
}

int usmarr__linalg_blocked_lu_solve(struct usmarr__linalg_stack *a, struct usmarr__linalg_stack *b, int64_t index,
                                    const usmarr_array_t *piv, bool inverse)
{
    /* b <- inv(U) inv(L) P b; for the inverse, P after: inv(A) = inv(U) inv(L) P, with P's
     * swaps applied to the columns in reverse order */
    usmarr_context_t *ctx = a->work->memory->context;
    int64_t n = a->rows, k = b->cols;
    cl_long ldb = b->ld, first = 0, nn = n;
    cl_int columns = inverse;
    const struct usmarr__karg args[] = {USMARR__ARG_PTR(at(b, index, 0, 0)), USMARR__ARG(ldb),
                                        USMARR__ARG_PTR(usmarr_array_data(piv)), USMARR__ARG(first),
                                        USMARR__ARG(nn), USMARR__ARG(columns)};
    int rc = inverse ? 0
                     : usmarr__linalg_launch(ctx, "linalg_lu", a->work->dtype, NULL, "usmarr_lublock_swap",
                                             USMARR__NARGS(args), args, k);
    if (!rc)
        rc = triangle_solve(a, b, index, 0, n, 0, k, 0, OUTER, inverse);
    if (!rc)
        rc = triangle_solve(a, b, index, 0, n, 0, k, 1, OUTER, false);
    if (!rc && inverse)
        rc = usmarr__linalg_launch(ctx, "linalg_lu", a->work->dtype, NULL, "usmarr_lublock_swap", USMARR__NARGS(args),
                                   args, n);
    return rc;
}

int usmarr__linalg_blocked_lu_det(struct usmarr__linalg_stack *a, int64_t index, const usmarr_array_t *piv,
                                  usmarr_array_t *det, usmarr_array_t *logabs)
{
    size_t item = usmarr__dtype_bytes(det->dtype), ritem = logabs ? usmarr__dtype_bytes(logabs->dtype) : 0;
    cl_long lda = a->ld, nn = a->rows;
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

/* Rows [r0, r0 + nr) and columns [c0, c0 + nc) of matrix `index` of a less
 * L[r0:, k0:k0 + kb] L[c0:, k0:k0 + kb]^H: Cholesky's update from the columns of L. */
static int cholesky_update(struct usmarr__linalg_stack *a, int64_t index, int64_t r0, int64_t nr, int64_t c0,
                           int64_t nc, int64_t k0, int64_t kb)
{
    usmarr_array_t *l = NULL, *r = NULL, *c = NULL, *t = NULL, *h = NULL;
    int rc = block(a, index, r0, nr, k0, kb, &l);
    if (!rc)
        rc = block(a, index, c0, nc, k0, kb, &r);
    if (!rc)
        rc = block(a, index, r0, nr, c0, nc, &c);
    if (!rc)
        rc = usmarr_matrix_transpose(r, &t);
    if (!rc && usmarr_dtype_kind(a->work->dtype) == USMARR_KIND_COMPLEX)
        rc = usmarr_conj(t, NULL, &h);
    if (!rc)
        rc = usmarr__subtract_product(c, l, h ? h : t);
    usmarr_array_t *all[] = {l, r, c, t, h};
    for (int i = 0; i < 5; i++)
        usmarr_array_release(all[i]);
    return rc;
}

/* Columns [k0, k0 + kb) of the Cholesky factor, rows k0 to n: panels of BLOCK columns
 * (the diagonal block by one work-item, the rows below it one work-item a row), each
 * followed by the update of this block's columns to its right. */
static int cholesky_columns(struct usmarr__linalg_stack *a, int64_t index, int64_t k0, int64_t kb,
                            usmarr_array_t *status)
{
    usmarr_context_t *ctx = a->work->memory->context;
    usmarr_dtype_t dt = a->work->dtype;
    int64_t n = a->rows;
    int rc = 0;
    for (int64_t j0 = k0; j0 < k0 + kb && !rc; j0 += BLOCK) {
        int64_t jb = k0 + kb - j0 < BLOCK ? k0 + kb - j0 : BLOCK, below = n - j0 - jb, right = k0 + kb - j0 - jb;
        cl_long lda = a->ld, nb = jb;
        const struct usmarr__karg args[] = {USMARR__ARG_PTR(at(a, index, j0, j0)), USMARR__ARG(lda), USMARR__ARG(nb),
                                            USMARR__ARG_PTR((int32_t *)usmarr_array_data(status) + index)};
        rc = usmarr__linalg_launch(ctx, "linalg_lu", dt, NULL, "usmarr_cholblock_diag", USMARR__NARGS(args), args, 1);
        if (rc || below == 0)
            break;
        /* L21 = A21 inv(L11)^H, then the block's columns right of this panel */
        const struct usmarr__karg rargs[] = {USMARR__ARG_PTR(at(a, index, j0, j0)), USMARR__ARG(lda),
                                             USMARR__ARG_PTR(at(a, index, j0 + jb, j0)), USMARR__ARG(nb)};
        rc = usmarr__linalg_launch(ctx, "linalg_lu", dt, NULL, "usmarr_cholblock_rows", USMARR__NARGS(rargs), rargs,
                                   below);
        if (!rc && right > 0)
            rc = cholesky_update(a, index, j0 + jb, below, j0 + jb, right, j0, jb);
    }
    return rc;
}

int usmarr__linalg_blocked_cholesky(struct usmarr__linalg_stack *a, int64_t index, usmarr_array_t *status)
{
    int64_t n = a->rows;
    int rc = 0;
    for (int64_t k0 = 0; k0 < n && !rc; k0 += OUTER) {
        int64_t kb = n - k0 < OUTER ? n - k0 : OUTER;
        rc = cholesky_columns(a, index, k0, kb, status);
        /* A22 -= L21 L21^H on and below the diagonal only (the factor's upper triangle is
         * cut off at the end): in slabs of SLAB columns, each from its diagonal down */
        for (int64_t c0 = k0 + kb; c0 < n && !rc; c0 += SLAB) {
            int64_t cw = n - c0 < SLAB ? n - c0 : SLAB;
            rc = cholesky_update(a, index, c0, n - c0, c0, cw, k0, kb);
        }
    }
    return rc;
}
