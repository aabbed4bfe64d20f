/* The blocked QR of large matrices (doc/linalg.md): panels of NB columns factored by one
 * work-item (cl/linalg_eig.cl, usmarr_qrpanel_factor, which also gives each panel's block
 * reflector I - V T Vᴴ), the trailing matrix and then Q updated by three products through
 * the library's tiled matmul: C -= V (Tᴴ (Vᴴ C)) and Q -= V (T (Vᴴ Q)).  The panels are
 * O(m n NB) of the work; the products are the rest. */
#include "linalg_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NB 64

/* A view of `a` by NumPy indexing `text`. */
static int view_of(const usmarr_array_t *a, usmarr_array_t **v, const char *format, long long i0, long long i1)
{
    char text[96];
    snprintf(text, sizeof text, format, i0, i1);
    return usmarr_array_index_text(a, text, v);
}

int usmarr__adjoint(const usmarr_array_t *a, usmarr_array_t **h)
{
    usmarr_array_t *t = NULL;
    int rc = usmarr_matrix_transpose(a, &t);
    if (rc || usmarr_dtype_kind(a->dtype) != USMARR_KIND_COMPLEX) {
        *h = t;
        return rc;
    }
    rc = usmarr_conj(t, NULL, h);
    usmarr_array_release(t);
    return rc;
}

/* c -= v (t (vᴴ c)): the block reflector I - V T Vᴴ applied to c (with tᴴ for Qᴴ). */
static int apply_block(const usmarr_array_t *v, const usmarr_array_t *vh, const usmarr_array_t *t, usmarr_array_t *c)
{
    usmarr_array_t *w = NULL, *w2 = NULL, *p = NULL;
    int rc = usmarr_matmul(vh, c, NULL, &w);
    if (!rc)
        rc = usmarr_matmul(t, w, NULL, &w2);
    if (!rc)
        rc = usmarr_matmul(v, w2, NULL, &p);
    if (!rc)
        rc = usmarr_subtract(c, p, c, NULL);
    usmarr_array_release(w);
    usmarr_array_release(w2);
    usmarr_array_release(p);
    return rc;
}

/* One panel's block reflector: V (rows x w), Vᴴ, T and Tᴴ. */
struct panel {
    usmarr_array_t *v, *vh, *t, *th;
};

static void panel_release(struct panel *p)
{
    usmarr_array_release(p->v);
    usmarr_array_release(p->vh);
    usmarr_array_release(p->t);
    usmarr_array_release(p->th);
}

int usmarr__qr_blocked(usmarr_context_t *ctx, usmarr_dtype_t dt, usmarr_array_t *a, usmarr_array_t *q,
                       usmarr_array_t *r)
{
    int64_t m = a->shape[0], n = a->shape[1], k = m < n ? m : n, qc = q ? q->shape[1] : k;
    int64_t npanels = (k + NB - 1) / NB;
    struct panel *panels = calloc((size_t)npanels, sizeof *panels);
    usmarr_array_t *tau = NULL, *work = NULL, *eye = NULL, *upper = NULL;
    int64_t one = NB;
    int rc = panels ? 0 : usmarr__fail(USMARR_ERROR_OUT_OF_HOST_MEMORY, "qr: %lld panels", (long long)npanels);
    if (!rc)
        rc = usmarr_array_empty(ctx, 1, &one, dt, USMARR_ORDER_C, USMARR_USM_DEVICE, &tau);
    if (!rc)
        rc = usmarr_array_empty(ctx, 1, &one, dt, USMARR_ORDER_C, USMARR_USM_DEVICE, &work);
    size_t itemsize = usmarr_array_itemsize(a);
    for (int64_t p = 0; !rc && p < npanels; p++) {
        int64_t j0 = p * NB, w = k - j0 < NB ? k - j0 : NB, rows = m - j0;
        struct panel *pp = &panels[p];
        int64_t vshape[2] = {rows, w}, tshape[2] = {w, w};
        if ((rc = usmarr_array_empty(ctx, 2, vshape, dt, USMARR_ORDER_C, USMARR_USM_DEVICE, &pp->v)) ||
            (rc = usmarr_array_empty(ctx, 2, tshape, dt, USMARR_ORDER_C, USMARR_USM_DEVICE, &pp->t)))
            break;
        cl_long lda = n, lrows = rows, lw = w;
        void *panel = (char *)usmarr_array_data(a) + (size_t)(j0 * n + j0) * itemsize;
        const struct usmarr__karg args[] = {USMARR__ARG_PTR(panel),
                                            USMARR__ARG(lda),
                                            USMARR__ARG(lrows),
                                            USMARR__ARG(lw),
                                            USMARR__ARG_PTR(usmarr_array_data(tau)),
                                            USMARR__ARG_PTR(usmarr_array_data(work)),
                                            USMARR__ARG_PTR(usmarr_array_data(pp->v)),
                                            USMARR__ARG_PTR(usmarr_array_data(pp->t))};
        bool f64 = dt == USMARR_FLOAT64 || dt == USMARR_COMPLEX128;
        if ((rc = usmarr__linalg_launch(ctx, "linalg_eig", dt, f64 ? "-DLA_DOUBLE" : NULL, "usmarr_qrpanel_factor",
                                        USMARR__NARGS(args), args, 1)) ||
            (rc = usmarr__adjoint(pp->v, &pp->vh)) || (rc = usmarr__adjoint(pp->t, &pp->th)))
            break;
        if (j0 + w < n) { /* the trailing matrix: C -= V (Tᴴ (Vᴴ C)) */
            usmarr_array_t *c = NULL;
            if (!(rc = view_of(a, &c, "%lld:, %lld:", (long long)j0, (long long)(j0 + w))))
                rc = apply_block(pp->v, pp->vh, pp->th, c);
            usmarr_array_release(c);
        }
    }
    /* R: the upper triangle of a's first qc rows (zeros below k) */
    if (!rc)
        rc = view_of(a, &upper, ":%lld, :%lld", (long long)(qc < m ? qc : m), (long long)n);
    if (!rc && qc > k)
        rc = usmarr_array_fill(r, usmarr_scalar_int(0));
    if (!rc) {
        usmarr_array_t *rk = NULL;
        rc = view_of(r, &rk, ":%lld, :%lld", (long long)k, (long long)n);
        usmarr_array_t *uk = NULL;
        if (!rc)
            rc = view_of(upper, &uk, ":%lld, :%lld", (long long)k, (long long)n);
        if (!rc)
            rc = usmarr_triu(uk, 0, rk, NULL);
        usmarr_array_release(rk);
        usmarr_array_release(uk);
    }
    /* Q = H_0 ... H_{k-1} I: the panels' block reflectors from the last */
    if (!q)
        goto done;
    if (!rc && !(rc = usmarr_array_eye(ctx, m, qc, 0, dt, USMARR_ORDER_C, USMARR_USM_DEVICE, &eye)))
        rc = usmarr_array_copy_into(q, eye);
    for (int64_t p = npanels - 1; !rc && p >= 0; p--) {
        usmarr_array_t *qs = NULL;
        int64_t j0 = p * NB;
        if (!(rc = view_of(q, &qs, "%lld:, %lld:", (long long)j0, (long long)j0)))
            rc = apply_block(panels[p].v, panels[p].vh, panels[p].t, qs);
        usmarr_array_release(qs);
    }
done:
    for (int64_t p = 0; panels && p < npanels; p++)
        panel_release(&panels[p]);
    free(panels);
    usmarr_array_release(tau);
    usmarr_array_release(work);
    usmarr_array_release(eye);
    usmarr_array_release(upper);
    return rc;
}
