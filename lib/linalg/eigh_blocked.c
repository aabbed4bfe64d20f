/* eigh of Hermitian matrices of large order (doc/linalg.md, "QR, eigh and SVD"), one
 * matrix of the stack at a time, on cl/linalg_tridiag.cl:
 *   1. the reduction to real tridiagonal form T = Qᴴ A Q in panels of NB columns: each
 *      panel's reflectors by one work-group (usmarr_tridiag_panel, LAPACK's latrd), the
 *      trailing matrix's rank-2 NB update A -= V Wᴴ + W Vᴴ by usmarr_matmul, on every
 *      compute unit;
 *   2. implicit QL on T by one work-item, which records its rotations; one work-item a
 *      column applies them to Z = I (usmarr_tridiag_rotate), as many rounds as the record
 *      takes;
 *   3. the eigenvectors Q Zᵀ (sorted): Q's block reflectors I - V T Vᴴ applied from the last
 *      panel, three products each through usmarr_matmul.
 * The O(n³) parts are the trailing updates, the rotations (one work-item a column) and
 * the back-transformation; the panels' symmetric products run on one compute unit. */
#include "linalg_internal.h"

#define NB 32    /* the panel's columns (LA_NB) */
#define GROUP 64 /* the panel's work-group (LA_GROUP) */

/* A 2-D view (rows x cols, `ld` elements a row) of `a` from element `offset`. */
static int view2(const usmarr_array_t *a, int64_t offset, int64_t rows, int64_t cols, int64_t ld,
                 usmarr_array_t **view)
{
    int64_t shape[2] = {rows, cols}, strides[2] = {ld, 1};
    return usmarr__view_new(a, a->dtype, 2, shape, strides, a->offset + offset, false, view);
}

/* a's complex conjugate (a itself, retained, when real). */
static int conjugate(const usmarr_array_t *a, usmarr_array_t **c)
{
    if (usmarr_dtype_kind(a->dtype) != USMARR_KIND_COMPLEX) {
        *c = usmarr_array_retain((usmarr_array_t *)a);
        return 0;
    }
    return usmarr_conj(a, NULL, c);
}

/* The scratch of one matrix's reduction, reused for every matrix of the stack. */
struct scratch {
    usmarr_array_t *r, *wt, *t, *d, *e, *flag, *perm, *state, *z, *rot;
    int64_t cap; /* rotations the record holds */
    int64_t ld;  /* n rounded up to USMARR__ROTATE_COLUMNS: z's columns */
};

static void scratch_release(struct scratch *s)
{
    usmarr_array_t **all[] = {&s->r, &s->wt, &s->t, &s->d, &s->e, &s->flag, &s->perm, &s->state, &s->z, &s->rot};
    for (size_t i = 0; i < sizeof all / sizeof *all; i++) {
        usmarr_array_release(*all[i]);
        *all[i] = NULL;
    }
}

static int scratch_new(usmarr_context_t *ctx, usmarr_dtype_t dt, int64_t n, bool vectors, struct scratch *s)
{
    usmarr_dtype_t real = dt == USMARR_COMPLEX64 ? USMARR_FLOAT32 : dt == USMARR_COMPLEX128 ? USMARR_FLOAT64 : dt;
    int64_t npanels = (n + NB - 1) / NB, nn[2] = {n, n}, wt[2] = {3 * NB, n}, t[3] = {npanels, NB, NB}, four = 4;
    s->cap = n * n < ((int64_t)1 << 21) ? n * n : (int64_t)1 << 21;
    s->cap = s->cap > n ? s->cap : n;
    int64_t rot = 3 * s->cap;
    s->ld = (n + USMARR__ROTATE_COLUMNS - 1) / USMARR__ROTATE_COLUMNS * USMARR__ROTATE_COLUMNS;
    int64_t zsize = n * s->ld;
    int rc;
    if ((rc = usmarr_array_empty(ctx, 2, nn, dt, USMARR_ORDER_C, USMARR_USM_DEVICE, &s->r)) ||
        (rc = usmarr_array_empty(ctx, 2, wt, dt, USMARR_ORDER_C, USMARR_USM_DEVICE, &s->wt)) ||
        (rc = usmarr_array_empty(ctx, 3, t, dt, USMARR_ORDER_C, USMARR_USM_DEVICE, &s->t)) ||
        (rc = usmarr_array_empty(ctx, 1, &n, real, USMARR_ORDER_C, USMARR_USM_DEVICE, &s->d)) ||
        (rc = usmarr_array_empty(ctx, 1, &n, real, USMARR_ORDER_C, USMARR_USM_DEVICE, &s->e)) ||
        (rc = usmarr_array_empty(ctx, 1, &n, USMARR_INT32, USMARR_ORDER_C, USMARR_USM_DEVICE, &s->flag)) ||
        (rc = usmarr_array_empty(ctx, 1, &n, USMARR_INT64, USMARR_ORDER_C, USMARR_USM_DEVICE, &s->perm)) ||
        (rc = usmarr_array_empty(ctx, 1, &four, USMARR_INT64, USMARR_ORDER_C, USMARR_USM_DEVICE, &s->state)))
        return rc;
    if (vectors && ((rc = usmarr_array_empty(ctx, 1, &zsize, real, USMARR_ORDER_C, USMARR_USM_DEVICE, &s->z)) ||
                    (rc = usmarr_array_empty(ctx, 1, &rot, real, USMARR_ORDER_C, USMARR_USM_DEVICE, &s->rot))))
        return rc;
    return 0;
}

static void *data_at(const usmarr_array_t *a, int64_t element)
{
    return (char *)usmarr_array_data(a) + (size_t)element * usmarr_array_itemsize(a);
}

/* Step 1: a (matrix `index` of the stack) to T = (d, e), the reflectors in r, wt and t. */
static int reduce(struct usmarr__linalg_stack *st, int64_t index, struct scratch *s)
{
    usmarr_context_t *ctx = st->work->memory->context;
    usmarr_dtype_t dt = st->work->dtype;
    int64_t n = st->rows, base = index * n * n;
    cl_long ln = n;
    const char *defines = "-DLA_GROUP=64 -DLA_NB=32";
    const struct usmarr__karg margs[] = {USMARR__ARG_PTR(data_at(st->work, base)), USMARR__ARG(ln),
                                         USMARR__ARG_PTR(usmarr_array_data(s->flag))};
    int rc = usmarr__linalg_launch(ctx, "linalg_tridiag", dt, defines, "usmarr_tridiag_mirror", USMARR__NARGS(margs),
                                   margs, n);
    for (int64_t k0 = 0; !rc && k0 < n; k0 += NB) {
        int64_t kb = n - k0 < NB ? n - k0 : NB, rest = n - k0 - NB;
        cl_long lk0 = k0, lkb = kb;
        const struct usmarr__karg args[] = {USMARR__ARG_PTR(data_at(st->work, base)),
                                            USMARR__ARG(ln),
                                            USMARR__ARG(lk0),
                                            USMARR__ARG(lkb),
                                            USMARR__ARG_PTR(usmarr_array_data(s->r)),
                                            USMARR__ARG_PTR(usmarr_array_data(s->wt)),
                                            USMARR__ARG_PTR(data_at(s->t, k0 / NB * NB * NB)),
                                            USMARR__ARG_PTR(usmarr_array_data(s->d)),
                                            USMARR__ARG_PTR(usmarr_array_data(s->e))};
        rc = usmarr__linalg_launch_group(ctx, "linalg_tridiag", dt, defines, "usmarr_tridiag_panel",
                                         USMARR__NARGS(args), args, GROUP);
        if (rc || rest <= 0)
            continue;
        /* A22 -= V Wᴴ + W Vᴴ = [V; W]ᵀ conj([W; V]) over the rows and columns after the panel */
        usmarr_array_t *c = NULL, *vw = NULL, *x = NULL, *wv = NULL, *y = NULL;
        int64_t k1 = k0 + NB;
        if (!(rc = view2(st->work, base + k1 * n + k1, rest, rest, n, &c)) &&
            !(rc = view2(s->wt, k1, 2 * NB, rest, n, &vw)) && !(rc = usmarr_matrix_transpose(vw, &x)) &&
            !(rc = view2(s->wt, NB * n + k1, 2 * NB, rest, n, &wv)) && !(rc = conjugate(wv, &y)))
            rc = usmarr__subtract_product(c, x, y);
        usmarr_array_release(c);
        usmarr_array_release(vw);
        usmarr_array_release(x);
        usmarr_array_release(wv);
        usmarr_array_release(y);
    }
    return rc;
}

/* Step 2: QL on T (eigenvalues into w's matrix `index`), its rotations applied to z in
 * rounds of at most s->cap, until the state words say it is done. */
static int solve_tridiagonal(struct usmarr__linalg_stack *st, int64_t index, usmarr_array_t *w,
                             usmarr_array_t *status, bool vectors, struct scratch *s)
{
    usmarr_context_t *ctx = st->work->memory->context;
    usmarr_dtype_t dt = st->work->dtype;
    int64_t n = st->rows;
    const char *defines = "-DLA_GROUP=64 -DLA_NB=32";
    int rc = usmarr_array_fill(s->state, usmarr_scalar_int(0));
    cl_long ln = n, cap = vectors ? s->cap : 0;
    cl_int sweeps = usmarr__decomp_sweeps();
    int64_t state[4] = {0, 0, 0, 0};
    /* each round ends an eigenvalue at least (cap >= n), so n + 1 rounds end it */
    for (int64_t round = 0; !rc && !state[3] && round <= n; round++) {
        /* without vectors cap is 0 and the kernel reads no rotation (d stands in) */
        const struct usmarr__karg args[] = {USMARR__ARG_PTR(usmarr_array_data(s->d)),
                                            USMARR__ARG_PTR(usmarr_array_data(s->e)),
                                            USMARR__ARG_PTR(data_at(w, index * n)),
                                            USMARR__ARG_PTR(usmarr_array_data(s->perm)),
                                            USMARR__ARG_PTR(usmarr_array_data(vectors ? s->rot : s->d)),
                                            USMARR__ARG(cap),
                                            USMARR__ARG_PTR(usmarr_array_data(s->state)),
                                            USMARR__ARG_PTR(usmarr_array_data(s->flag)),
                                            USMARR__ARG_PTR(data_at(status, index)),
                                            USMARR__ARG(ln),
                                            USMARR__ARG(sweeps)};
        rc = usmarr__linalg_launch(ctx, "linalg_tridiag", dt, defines, "usmarr_tridiag_ql", USMARR__NARGS(args), args,
                                   1);
        if (!rc && vectors) {
            cl_int init = round == 0;
            const struct usmarr__karg rargs[] = {
                USMARR__ARG_PTR(usmarr_array_data(s->z)), USMARR__ARG_PTR(usmarr_array_data(s->rot)),
                USMARR__ARG_PTR(usmarr_array_data(s->state)), USMARR__ARG(ln), USMARR__ARG(init)};
            rc = usmarr__linalg_launch(ctx, "linalg_tridiag", dt, defines, "usmarr_tridiag_rotate",
                                       USMARR__NARGS(rargs), rargs, s->ld / USMARR__ROTATE_COLUMNS);
        }
        if (!rc)
            rc = usmarr_array_copy_to_host(s->state, state, NULL);
    }
    return rc;
}

int usmarr__apply_reflectors(const usmarr_array_t *r, const usmarr_array_t *t, int64_t n, int64_t shift,
                             usmarr_array_t *mat, int64_t base)
{
    int rc = 0;
    for (int64_t k0 = (n - 1) / NB * NB; !rc && k0 >= 0; k0 -= NB) {
        int64_t kb = n - k0 < NB ? n - k0 : NB, rows = n - k0 - shift;
        if (rows <= 0)
            continue;
        /* M[k0+shift:] -= Y (T (Yᴴ M[k0+shift:])), Yᵀ the panel's rows of r from column k0 + shift */
        usmarr_array_t *yt = NULL, *yh = NULL, *y = NULL, *tt = NULL, *m = NULL, *p1 = NULL, *p2 = NULL;
        if (!(rc = view2(r, k0 * n + k0 + shift, kb, rows, n, &yt)) && !(rc = usmarr_matrix_transpose(yt, &y)) &&
            !(rc = conjugate(yt, &yh)) && !(rc = view2(t, k0 / NB * NB * NB, kb, kb, NB, &tt)) &&
            !(rc = view2(mat, base + (k0 + shift) * n, rows, n, n, &m)) && !(rc = usmarr_matmul(yh, m, NULL, &p1)) &&
            !(rc = usmarr_matmul(tt, p1, NULL, &p2)))
            rc = usmarr__subtract_product(m, y, p2);
        usmarr_array_release(yt);
        usmarr_array_release(yh);
        usmarr_array_release(y);
        usmarr_array_release(tt);
        usmarr_array_release(m);
        usmarr_array_release(p1);
        usmarr_array_release(p2);
    }
    return rc;
}

/* Step 3: matrix `index` of v = Q M, M = Z's rows in w's order, transposed. */
static int back_transform(struct usmarr__linalg_stack *st, int64_t index, usmarr_array_t *v, struct scratch *s)
{
    usmarr_context_t *ctx = st->work->memory->context;
    usmarr_dtype_t dt = st->work->dtype;
    int64_t n = st->rows, base = index * n * n;
    cl_long ln = n;
    const struct usmarr__karg args[] = {USMARR__ARG_PTR(usmarr_array_data(s->z)),
                                        USMARR__ARG_PTR(usmarr_array_data(s->perm)),
                                        USMARR__ARG_PTR(data_at(v, base)), USMARR__ARG_PTR(usmarr_array_data(s->flag)),
                                        USMARR__ARG(ln)};
    int rc = usmarr__linalg_launch(ctx, "linalg_tridiag", dt, "-DLA_GROUP=64 -DLA_NB=32", "usmarr_tridiag_gather",
                                   USMARR__NARGS(args), args, n);
    return rc ? rc : usmarr__apply_reflectors(s->r, s->t, n, 1, v, base);
}

int usmarr__eigh_tridiagonal(struct usmarr__linalg_stack *st, usmarr_array_t *w, usmarr_array_t *v,
                             usmarr_array_t *status)
{
    struct scratch s = {0};
    int rc = scratch_new(st->work->memory->context, st->work->dtype, st->rows, v != NULL, &s);
    for (int64_t index = 0; !rc && index < st->count; index++) {
        if (!(rc = reduce(st, index, &s)) && !(rc = solve_tridiagonal(st, index, w, status, v != NULL, &s)) && v)
            rc = back_transform(st, index, v, &s);
    }
    scratch_release(&s);
    return rc;
}
