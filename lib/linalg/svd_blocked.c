/* svd of matrices with min(m, n) >= USMARR__SVD_BIDIAGONAL_MIN (doc/linalg.md, "QR, eigh
 * and SVD"), one matrix of the stack at a time, LAPACK's route on cl/linalg_tridiag.cl and
 * the library's matmul:
 *   1. the tall form B (A, or Aᴴ when m < n) = Q R by the blocked QR (qr_blocked.c);
 *   2. R = Q_L D Pᴴ, D real upper bidiagonal, in panels of NB columns by one work-group
 *      (usmarr_bidiag_panel, gebd2's reflectors with their block triangles);
 *   3. implicit QR on D (usmarr_bidiag_qr, bdsqr's) by one work-item, which records its
 *      rotations; usmarr_tridiag_rotate turns U_D = I and V_D = I by them on every compute
 *      unit, as many rounds as the record takes;
 *   4. B's U = Q Q_L U_D and V = P V_D: the reflectors' block form through usmarr_matmul.
 * The O(n³) parts run in matmul and the rotations; the reduction's matrix-vector products
 * (8/3 k³ of the flops, on R) on one compute unit. */
#include "linalg_internal.h"

#include <math.h>
#include <stdio.h>

#define NB 32 /* the panel's columns (LA_NB) */
#define GROUP 64
#define DEFINES "-DLA_GROUP=64 -DLA_NB=32"
#define SPREAD_MIN 128 /* rows left from which a column's halves spread over the compute units */

/* One matrix's work, reused for every matrix of the stack (k = min(m, n), mt = max). */
struct scratch {
    usmarr_array_t *tall, *q, *r, *rl, *rr, *tl, *tr, *d, *e, *perm, *state, *zu, *zv, *rotl, *rotr, *ub, *vb;
    usmarr_array_t *wb, *coef, *spread;
    int64_t cap, ld;
    int groups; /* the work-groups of the reduction's launches per column */
};

static void scratch_release(struct scratch *s)
{
    usmarr_array_t **all[] = {&s->tall, &s->q,    &s->r,    &s->rl, &s->rr, &s->tl,   &s->tr,   &s->d, &s->e,
                              &s->perm, &s->state, &s->zu, &s->zv, &s->rotl, &s->rotr, &s->ub, &s->vb,
                              &s->wb,   &s->coef,  &s->spread};
    for (size_t i = 0; i < sizeof all / sizeof *all; i++)
        usmarr_array_release(*all[i]);
}

static int empty(usmarr_context_t *ctx, usmarr_dtype_t dt, int64_t rows, int64_t cols, usmarr_array_t **a)
{
    int64_t shape[2] = {rows, cols};
    return usmarr_array_empty(ctx, 2, shape, dt, USMARR_ORDER_C, USMARR_USM_DEVICE, a);
}

static int scratch_new(usmarr_context_t *ctx, usmarr_dtype_t dt, int64_t m, int64_t n, bool full, bool vectors,
                       struct scratch *s)
{
    usmarr_dtype_t real = dt == USMARR_COMPLEX64 ? USMARR_FLOAT32 : dt == USMARR_COMPLEX128 ? USMARR_FLOAT64 : dt;
    int64_t k = m < n ? m : n, mt = m < n ? n : m, npanels = (k + NB - 1) / NB;
    s->cap = k * k < ((int64_t)1 << 21) ? k * k : (int64_t)1 << 21;
    s->cap = s->cap > k ? s->cap : k;
    s->ld = (k + USMARR__ROTATE_COLUMNS - 1) / USMARR__ROTATE_COLUMNS * USMARR__ROTATE_COLUMNS;
    s->groups = ctx->profile.compute_units < 1 ? 1 : ctx->profile.compute_units > 16 ? 16 : (int)ctx->profile.compute_units;
    int rc;
    if ((m < n && (rc = empty(ctx, dt, mt, k, &s->tall))) || (rc = empty(ctx, dt, k, k, &s->r)) ||
        (rc = empty(ctx, dt, k, k, &s->rl)) || (rc = empty(ctx, dt, k, k, &s->rr)) ||
        (rc = empty(ctx, dt, npanels * NB, NB, &s->tl)) || (rc = empty(ctx, dt, npanels * NB, NB, &s->tr)) ||
        (rc = empty(ctx, real, 1, k, &s->d)) || (rc = empty(ctx, real, 1, k, &s->e)) ||
        (rc = empty(ctx, USMARR_INT64, 1, k, &s->perm)) || (rc = empty(ctx, USMARR_INT64, 1, 4, &s->state)) ||
        (rc = empty(ctx, dt, 1, k, &s->wb)) || (rc = empty(ctx, dt, 1, 1, &s->coef)) ||
        (rc = empty(ctx, dt, s->groups, k, &s->spread)))
        return rc;
    if (!vectors)
        return 0;
    if ((mt > k && (rc = empty(ctx, dt, mt, full ? mt : k, &s->q))) || (rc = empty(ctx, real, k, s->ld, &s->zu)) ||
        (rc = empty(ctx, real, k, s->ld, &s->zv)) || (rc = empty(ctx, real, 3, s->cap, &s->rotl)) ||
        (rc = empty(ctx, real, 3, s->cap, &s->rotr)) || (rc = empty(ctx, dt, k, k, &s->ub)) ||
        (rc = empty(ctx, dt, k, k, &s->vb)))
        return rc;
    return 0;
}

static void *data_at(const usmarr_array_t *a, int64_t element)
{
    return (char *)usmarr_array_data(a) + (size_t)element * usmarr_array_itemsize(a);
}

/* a[index] (NumPy indexing text made of `format` and two numbers), a new view. */
static int view_of(const usmarr_array_t *a, usmarr_array_t **v, const char *format, long long i0, long long i1)
{
    char text[96];
    snprintf(text, sizeof text, format, i0, i1);
    return usmarr_array_index_text(a, text, v);
}

/* dst (a view) = src, or srcᴴ when `adjoint`. */
static int store(usmarr_array_t *dst, const usmarr_array_t *src, bool adjoint)
{
    usmarr_array_t *h = NULL;
    int rc = adjoint ? usmarr__adjoint(src, &h) : 0;
    if (!rc)
        rc = usmarr_array_copy_into(dst, adjoint ? h : src);
    usmarr_array_release(h);
    usmarr_array_release(dst);
    return rc;
}

/* Step 2: s->r (k x k) to D = (d, e), the reflectors in rl, rr, tl and tr: each column's
 * halves by a launch on s->groups work-groups while at least SPREAD_MIN rows remain, then
 * the panels by one work-group with barriers between the halves. */
static int reduce(usmarr_context_t *ctx, usmarr_dtype_t dt, int64_t k, struct scratch *s)
{
    int rc = 0;
    cl_long lk = k;
    for (int64_t k0 = 0; !rc && k0 < k; k0 += NB) {
        cl_long lk0 = k0, lkb = k - k0 < NB ? k - k0 : NB;
        void *tl = data_at(s->tl, k0 * NB), *tr = data_at(s->tr, k0 * NB);
        if (s->groups > 1 && k - k0 >= SPREAD_MIN) {
            for (cl_long j = k0; !rc && j < k0 + lkb; j++) {
                const struct usmarr__karg largs[] = {
                    USMARR__ARG_PTR(usmarr_array_data(s->r)),  USMARR__ARG(lk), USMARR__ARG(lk0), USMARR__ARG(j),
                    USMARR__ARG_PTR(usmarr_array_data(s->rl)), USMARR__ARG_PTR(usmarr_array_data(s->d)),
                    USMARR__ARG_PTR(usmarr_array_data(s->wb)), USMARR__ARG_PTR(usmarr_array_data(s->coef))};
                const struct usmarr__karg rargs[] = {
                    USMARR__ARG_PTR(usmarr_array_data(s->r)),    USMARR__ARG(lk),
                    USMARR__ARG(lk0),                            USMARR__ARG(j),
                    USMARR__ARG_PTR(usmarr_array_data(s->rl)),   USMARR__ARG_PTR(usmarr_array_data(s->rr)),
                    USMARR__ARG_PTR(tl),                         USMARR__ARG_PTR(tr),
                    USMARR__ARG_PTR(usmarr_array_data(s->e)),    USMARR__ARG_PTR(usmarr_array_data(s->wb)),
                    USMARR__ARG_PTR(usmarr_array_data(s->spread)),   USMARR__ARG_PTR(usmarr_array_data(s->coef))};
                if (!(rc = usmarr__linalg_launch_groups(ctx, "linalg_tridiag", dt, DEFINES, "usmarr_bidiag_left",
                                                        USMARR__NARGS(largs), largs, GROUP, s->groups)))
                    rc = usmarr__linalg_launch_groups(ctx, "linalg_tridiag", dt, DEFINES, "usmarr_bidiag_right",
                                                      USMARR__NARGS(rargs), rargs, GROUP, s->groups);
            }
            continue;
        }
        const struct usmarr__karg args[] = {
            USMARR__ARG_PTR(usmarr_array_data(s->r)),  USMARR__ARG(lk),
            USMARR__ARG(lk0),                          USMARR__ARG(lkb),
            USMARR__ARG_PTR(usmarr_array_data(s->rl)), USMARR__ARG_PTR(usmarr_array_data(s->rr)),
            USMARR__ARG_PTR(tl),                       USMARR__ARG_PTR(tr),
            USMARR__ARG_PTR(usmarr_array_data(s->d)),  USMARR__ARG_PTR(usmarr_array_data(s->e)),
            USMARR__ARG_PTR(usmarr_array_data(s->wb)), USMARR__ARG_PTR(usmarr_array_data(s->coef))};
        rc = usmarr__linalg_launch_group(ctx, "linalg_tridiag", dt, DEFINES, "usmarr_bidiag_panel",
                                         USMARR__NARGS(args), args, GROUP);
    }
    return rc;
}

/* Step 3: the QR sweeps on D into sv (k values) and, with vectors, their rotations applied
 * to zu and zv in rounds until the state words say it is done. */
static int solve_bidiagonal(usmarr_context_t *ctx, usmarr_dtype_t dt, int64_t k, void *sv, void *status,
                            bool vectors, struct scratch *s)
{
    int rc = usmarr_array_fill(s->state, usmarr_scalar_int(0));
    cl_long lk = k, cap = vectors ? s->cap : 0;
    cl_int sweeps = usmarr__decomp_sweeps();
    int64_t state[4] = {0, 0, 0, 0};
    /* each round ends a sweep at least, at most `sweeps` k sweeps in all */
    for (int64_t round = 0; !rc && !state[3] && round <= (int64_t)sweeps * k; round++) {
        /* without vectors cap is 0 and the kernel records nothing (d stands in) */
        void *rotl = vectors ? usmarr_array_data(s->rotl) : usmarr_array_data(s->d);
        void *rotr = vectors ? usmarr_array_data(s->rotr) : usmarr_array_data(s->d);
        const struct usmarr__karg args[] = {USMARR__ARG_PTR(usmarr_array_data(s->d)),
                                            USMARR__ARG_PTR(usmarr_array_data(s->e)),
                                            USMARR__ARG_PTR(sv),
                                            USMARR__ARG_PTR(usmarr_array_data(s->perm)),
                                            USMARR__ARG_PTR(rotl),
                                            USMARR__ARG_PTR(rotr),
                                            USMARR__ARG(cap),
                                            USMARR__ARG_PTR(usmarr_array_data(s->state)),
                                            USMARR__ARG_PTR(status),
                                            USMARR__ARG(lk),
                                            USMARR__ARG(sweeps)};
        rc = usmarr__linalg_launch(ctx, "linalg_tridiag", dt, DEFINES, "usmarr_bidiag_qr", USMARR__NARGS(args), args,
                                   1);
        for (int side = 0; !rc && vectors && side < 2; side++) {
            cl_int init = round == 0;
            const struct usmarr__karg rargs[] = {USMARR__ARG_PTR(usmarr_array_data(side ? s->zv : s->zu)),
                                                 USMARR__ARG_PTR(usmarr_array_data(side ? s->rotr : s->rotl)),
                                                 USMARR__ARG_PTR(usmarr_array_data(s->state)), USMARR__ARG(lk),
                                                 USMARR__ARG(init)};
            rc = usmarr__linalg_launch(ctx, "linalg_tridiag", dt, DEFINES, "usmarr_tridiag_rotate",
                                       USMARR__NARGS(rargs), rargs, s->ld / USMARR__ROTATE_COLUMNS);
        }
        if (!rc)
            rc = usmarr_array_copy_to_host(s->state, state, NULL);
    }
    return rc;
}

/* Step 4, and the results of matrix z: s->ub = U_D, s->vb = V_D (sorted, V's columns of
 * negative d negated), then U_R = Q_L U_D, V = P V_D, B's U = Q U_R, and u, vh of A. */
static int vectors_of(usmarr_context_t *ctx, usmarr_dtype_t dt, int64_t m, int64_t n, bool full, void *sv,
                      usmarr_array_t *u3, usmarr_array_t *vh3, int64_t z, struct scratch *s)
{
    int64_t k = m < n ? m : n, mt = m < n ? n : m;
    cl_long lk = k;
    int rc = 0;
    for (int side = 0; !rc && side < 2; side++) {
        cl_int flip = side;
        const struct usmarr__karg args[] = {
            USMARR__ARG_PTR(usmarr_array_data(side ? s->zv : s->zu)), USMARR__ARG_PTR(usmarr_array_data(s->perm)),
            USMARR__ARG_PTR(usmarr_array_data(s->d)),                  USMARR__ARG(flip),
            USMARR__ARG_PTR(sv),                                       USMARR__ARG_PTR(usmarr_array_data(side ? s->vb : s->ub)),
            USMARR__ARG(lk)};
        rc = usmarr__linalg_launch(ctx, "linalg_tridiag", dt, DEFINES, "usmarr_bidiag_gather", USMARR__NARGS(args),
                                   args, k);
    }
    if (rc || (rc = usmarr__apply_reflectors(s->rl, s->tl, k, 0, s->ub, 0)) ||
        (rc = usmarr__apply_reflectors(s->rr, s->tr, k, 1, s->vb, 0)))
        return rc;
    /* bu: B's U (mt x k, and Q's other columns with full) */
    usmarr_array_t *bu = NULL, *qk = NULL, *v = NULL;
    if (mt > k) {
        if ((rc = view_of(s->q, &qk, ":, :%lld", (long long)k, 0)) || (rc = usmarr_matmul(qk, s->ub, NULL, &bu)))
            goto done;
    } else {
        bu = usmarr_array_retain(s->ub);
    }
    bool tall = m >= n;
    /* A = B (tall) or Bᴴ: u = B's U, vh = Vᴴ; or u = V, vh = B's Uᴴ */
    if ((rc = view_of(tall ? u3 : vh3, &v, tall ? "%lld, :, :%lld" : "%lld, :%lld, :", (long long)z, (long long)k)) ||
        (rc = store(v, bu, !tall)) ||
        (rc = view_of(tall ? vh3 : u3, &v, tall ? "%lld, :%lld, :" : "%lld, :, :%lld", (long long)z, (long long)k)) ||
        (rc = store(v, s->vb, tall)))
        goto done;
    if (full && mt > k) { /* Q's columns after k */
        usmarr_array_t *rest = NULL;
        if (!(rc = view_of(s->q, &rest, ":, %lld:", (long long)k, 0)) &&
            !(rc = view_of(tall ? u3 : vh3, &v, tall ? "%lld, :, %lld:" : "%lld, %lld:, :", (long long)z,
                           (long long)k)))
            rc = store(v, rest, !tall);
        usmarr_array_release(rest);
    }
done:
    usmarr_array_release(bu);
    usmarr_array_release(qk);
    return rc;
}

/* NaN results for matrix z (a NaN or an infinity in it). */
static int nan_results(usmarr_array_t *s2, usmarr_array_t *u3, usmarr_array_t *vh3, int64_t z)
{
    usmarr_array_t *all[3] = {s2, u3, vh3};
    int rc = 0;
    for (int i = 0; !rc && i < 3; i++) {
        usmarr_array_t *v = NULL;
        if (all[i] && !(rc = view_of(all[i], &v, "%lld", (long long)z, 0)))
            rc = usmarr_array_fill(v, usmarr_scalar_float(NAN));
        usmarr_array_release(v);
    }
    return rc;
}

/* Whether every element of a is finite. */
static int all_finite(const usmarr_array_t *a, bool *yes)
{
    usmarr_array_t *f = NULL, *all = NULL;
    int rc = usmarr_isfinite(a, NULL, &f);
    if (!rc)
        rc = usmarr_all(f, 0, NULL, false, NULL, &all);
    if (!rc)
        rc = usmarr_array_copy_to_host(all, yes, NULL);
    usmarr_array_release(f);
    usmarr_array_release(all);
    return rc;
}

int usmarr__svd_bidiagonal(struct usmarr__linalg_stack *st, bool full, usmarr_array_t *s, usmarr_array_t *u,
                           usmarr_array_t *vh, usmarr_array_t *status)
{
    usmarr_context_t *ctx = st->work->memory->context;
    usmarr_dtype_t dt = st->work->dtype;
    int64_t m = st->rows, n = st->cols, k = m < n ? m : n, mt = m < n ? n : m;
    struct scratch sc = {0};
    usmarr_array_t *a3 = NULL, *s2 = NULL, *u3 = NULL, *vh3 = NULL;
    int64_t a3s[3] = {st->count, m, n}, s2s[2] = {st->count, k};
    int rc = scratch_new(ctx, dt, m, n, full, u != NULL, &sc);
    if (!rc && !(rc = usmarr_array_reshape(st->work, 3, a3s, USMARR_ORDER_C, USMARR_COPY_NEVER, &a3)))
        rc = usmarr_array_reshape(s, 2, s2s, USMARR_ORDER_C, USMARR_COPY_NEVER, &s2);
    if (!rc && u) {
        int64_t u3s[3] = {st->count, u->shape[u->ndim - 2], u->shape[u->ndim - 1]};
        int64_t v3s[3] = {st->count, vh->shape[vh->ndim - 2], vh->shape[vh->ndim - 1]};
        if (!(rc = usmarr_array_reshape(u, 3, u3s, USMARR_ORDER_C, USMARR_COPY_NEVER, &u3)))
            rc = usmarr_array_reshape(vh, 3, v3s, USMARR_ORDER_C, USMARR_COPY_NEVER, &vh3);
    }
    for (int64_t z = 0; !rc && z < st->count; z++) {
        usmarr_array_t *az = NULL, *tall = NULL;
        bool ok = false;
        void *sv = data_at(s, z * k);
        if ((rc = view_of(a3, &az, "%lld", (long long)z, 0)) || (rc = all_finite(az, &ok)) || !ok) {
            usmarr_array_release(az);
            rc = rc ? rc : nan_results(s2, u3, vh3, z);
            continue;
        }
        /* step 1: B = Q R (B = R when square) */
        if (m < n)
            rc = store(usmarr_array_retain(sc.tall), az, true);
        tall = usmarr_array_retain(m < n ? sc.tall : az);
        usmarr_array_release(az);
        if (!rc && mt > k)
            rc = usmarr__qr_blocked(ctx, dt, tall, sc.q, sc.r);
        else if (!rc)
            rc = usmarr_array_copy_into(sc.r, tall);
        usmarr_array_release(tall);
        if (!rc && !(rc = reduce(ctx, dt, k, &sc)) &&
            !(rc = solve_bidiagonal(ctx, dt, k, sv, data_at(status, z), u != NULL, &sc)) && u)
            rc = vectors_of(ctx, dt, m, n, full, sv, u3, vh3, z, &sc);
    }
    usmarr_array_release(a3);
    usmarr_array_release(s2);
    usmarr_array_release(u3);
    usmarr_array_release(vh3);
    scratch_release(&sc);
    return rc;
}
