/* tensordot, vecdot and matrix_transpose (doc/ops.md): tensordot and vecdot rearrange
 * their operands and reuse matmul / the fused expressions, elementwise functions and
 * reductions. */
#include "linalg_internal.h"

#include <string.h>

/* ---- tensordot -------------------------------------------------------------------------- */

/* x with its axes permuted to (first group, second group) and reshaped to (rows, cols). */
static int as_matrix(const usmarr_array_t *x, const int *perm, int nrows_dims, usmarr_array_t **m)
{
    usmarr_array_t *p = NULL;
    int rc = usmarr_array_permute_dims(x, perm, &p);
    if (rc)
        return rc;
    int64_t shape[2] = {1, 1};
    for (int d = 0; d < x->ndim; d++)
        shape[d < nrows_dims ? 0 : 1] *= p->shape[d];
    rc = usmarr_array_reshape(p, 2, shape, USMARR_ORDER_C, USMARR_COPY_IF_NEEDED, m);
    usmarr_array_release(p);
    return rc;
}

int usmarr_tensordot(const usmarr_array_t *x1, const usmarr_array_t *x2, int naxes, const int *axes1, const int *axes2,
                     usmarr_array_t *out, usmarr_array_t **result)
{
    usmarr__clear_error();
    int rc = usmarr__check_product("tensordot", x1, x2, out, result, 0);
    if (rc)
        return rc;
    if (!axes1 != !axes2)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "tensordot: axes1 and axes2 must both be given or both NULL");
    int lim = x1->ndim < x2->ndim ? x1->ndim : x2->ndim;
    if (naxes < 0 || (!axes1 && naxes > lim) || naxes > x1->ndim || naxes > x2->ndim)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "tensordot: naxes=%d is outside [0, %d]", naxes,
                            axes1 ? (x1->ndim < x2->ndim ? x1->ndim : x2->ndim) : lim);
    int c1[USMARR_MAX_NDIM], c2[USMARR_MAX_NDIM];
    bool m1[USMARR_MAX_NDIM], m2[USMARR_MAX_NDIM];
    if (!axes1) { /* the last naxes of x1 with the first naxes of x2 */
        for (int i = 0; i < naxes; i++) {
            c1[i] = x1->ndim - naxes + i;
            c2[i] = i;
        }
        axes1 = c1;
        axes2 = c2;
    }
    if ((rc = usmarr__axes_mask(x1->ndim, naxes, axes1, "tensordot", "axes1", m1, c1)) ||
        (rc = usmarr__axes_mask(x2->ndim, naxes, axes2, "tensordot", "axes2", m2, c2)))
        return rc;
    for (int i = 0; i < naxes; i++)
        if (x1->shape[c1[i]] != x2->shape[c2[i]])
            return usmarr__fail(USMARR_ERROR_SHAPE_MISMATCH,
                                "tensordot: contracted pair %d has %lld elements in x1 (axis %d) and %lld in x2 (axis %d)",
                                i, (long long)x1->shape[c1[i]], c1[i], (long long)x2->shape[c2[i]], c2[i]);
    int p1[USMARR_MAX_NDIM], p2[USMARR_MAX_NDIM], n1 = 0, n2 = 0, rnd = 0;
    int64_t rshape[USMARR_MAX_NDIM];
    if (x1->ndim + x2->ndim - 2 * naxes > USMARR_MAX_NDIM)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "tensordot: the result would have %d dims (at most %d)",
                            x1->ndim + x2->ndim - 2 * naxes, USMARR_MAX_NDIM);
    for (int d = 0; d < x1->ndim; d++)
        if (!m1[d]) {
            p1[n1++] = d;
            rshape[rnd++] = x1->shape[d];
        }
    int free1 = n1;
    for (int i = 0; i < naxes; i++)
        p1[n1++] = c1[i];
    for (int i = 0; i < naxes; i++)
        p2[n2++] = c2[i];
    for (int d = 0; d < x2->ndim; d++)
        if (!m2[d]) {
            p2[n2++] = d;
            rshape[rnd++] = x2->shape[d];
        }
    usmarr_dtype_t dt;
    if ((rc = usmarr_promote_types(x1->dtype, x2->dtype, &dt)))
        return rc;
    usmarr_array_t *target = NULL;
    const usmarr_array_t *inputs[2] = {x1, x2};
    if (out && (rc = usmarr__result_begin(x1, inputs, 2, dt, rnd, rshape, out, result, &target)))
        return rc;
    usmarr_array_t *a = NULL, *b = NULL, *prod = NULL, *shaped = NULL;
    if (!(rc = as_matrix(x1, p1, free1, &a)) && !(rc = as_matrix(x2, p2, naxes, &b)) &&
        !(rc = usmarr_matmul(a, b, NULL, &prod)))
        rc = usmarr_array_reshape(prod, rnd, rshape, USMARR_ORDER_C, USMARR_COPY_NEVER, &shaped);
    usmarr_array_release(a);
    usmarr_array_release(b);
    usmarr_array_release(prod);
    if (!out) {
        if (!rc)
            *result = shaped;
        return rc;
    }
    if (!rc)
        rc = usmarr_array_copy_into(target, shaped);
    usmarr_array_release(shaped);
    return usmarr__result_end(rc, target, out, result);
}

/* ---- vecdot -------------------------------------------------------------------------------- */

int usmarr_vecdot(const usmarr_array_t *x1, const usmarr_array_t *x2, int axis, usmarr_array_t *out,
                  usmarr_array_t **result)
{
    usmarr__clear_error();
    int rc = usmarr__check_product("vecdot", x1, x2, out, result, 1);
    if (rc)
        return rc;
    /* NumPy: the vectors' axis counts from the end of each operand (a non-negative axis
     * only when both have the same number of dims); it must exist in both and have one
     * length there (it does not broadcast) */
    int nd = x1->ndim > x2->ndim ? x1->ndim : x2->ndim, mind = x1->ndim < x2->ndim ? x1->ndim : x2->ndim;
    bool ok = axis < 0 ? axis >= -mind : x1->ndim == x2->ndim && axis < nd;
    if (!ok)
        return usmarr__fail(USMARR_ERROR_INDEX,
                            "vecdot: axis=%d is out of range: x1 has %d dims, x2 has %d (a negative axis must be >= "
                            "-%d; a non-negative one needs equal dims)",
                            axis, x1->ndim, x2->ndim, mind);
    int ax = axis < 0 ? axis + nd : axis;
    int a1 = ax - (nd - x1->ndim), a2 = ax - (nd - x2->ndim);
    if (x1->shape[a1] != x2->shape[a2])
        return usmarr__fail(USMARR_ERROR_SHAPE_MISMATCH,
                            "vecdot: the vectors have %lld elements in x1 and %lld in x2 (axis %d)",
                            (long long)x1->shape[a1], (long long)x2->shape[a2], axis);
    usmarr_dtype_t dt;
    if ((rc = usmarr_promote_types(x1->dtype, x2->dtype, &dt)))
        return rc;
    usmarr_array_t *c = NULL, *d = NULL, *p = NULL, *s = NULL, *target = NULL;
    if (usmarr_dtype_kind(x1->dtype) == USMARR_KIND_COMPLEX)
        rc = usmarr_conj(x1, NULL, &c);
    else if (dt == USMARR_FLOAT16) /* NumPy's half dot: products and sum in float32, one rounding */
        rc = usmarr_array_astype(x1, USMARR_FLOAT32, USMARR_ORDER_K, NULL, &c);
    else
        c = usmarr_array_retain((usmarr_array_t *)x1);
    if (!rc && dt == USMARR_FLOAT16)
        rc = usmarr_array_astype(x2, USMARR_FLOAT32, USMARR_ORDER_K, NULL, &d);
    int pax = ax;
    if (!rc && c == x1 && !d) /* real: products and their sum in one pass, no product array */
        rc = usmarr__sum_of_products(x1, x2, pax, NULL, &s);
    else if (!rc && !(rc = usmarr_multiply(c, d ? d : x2, NULL, &p))) {
        rc = usmarr_sum(p, 1, &pax, false, NULL, &s);
    }
    usmarr_array_release(c);
    usmarr_array_release(d);
    usmarr_array_release(p);
    if (rc)
        return rc;
    if (!out && s->dtype == dt) {
        *result = s;
        return 0;
    }
    const usmarr_array_t *inputs[2] = {x1, x2};
    rc = usmarr__result_begin(x1, inputs, 2, dt, s->ndim, s->shape, out, result, &target);
    if (!rc)
        rc = usmarr_array_copy_into(target, s);
    usmarr_array_release(s);
    if (rc && !target)
        return rc;
    return usmarr__result_end(rc, target, out, result);
}

/* ---- outer, cross ----------------------------------------------------------------------------- */

int usmarr_linalg_outer(const usmarr_array_t *x1, const usmarr_array_t *x2, usmarr_array_t *out,
                        usmarr_array_t **result)
{
    usmarr__clear_error();
    int rc = usmarr__check_product("outer", x1, x2, out, result, 1);
    if (rc)
        return rc;
    if (x1->ndim != 1 || x2->ndim != 1)
        return usmarr__fail(USMARR_ERROR_SHAPE_MISMATCH, "outer: %s has %d dims; both operands must be 1-D",
                            x1->ndim != 1 ? "x1" : "x2", x1->ndim != 1 ? x1->ndim : x2->ndim);
    usmarr_array_t *column = NULL, *row = NULL;
    int one = 1, zero = 0;
    rc = usmarr_array_expand_dims(x1, 1, &one, &column);
    if (!rc)
        rc = usmarr_array_expand_dims(x2, 1, &zero, &row);
    if (!rc)
        rc = usmarr_multiply(column, row, out, result);
    usmarr_array_release(column);
    usmarr_array_release(row);
    return rc;
}

/* The component i of the 3-vectors of `a` along `axis`: a view without that axis. */
static int component(const usmarr_array_t *a, int axis, int i, usmarr_array_t **view)
{
    int64_t shape[USMARR_MAX_NDIM], strides[USMARR_MAX_NDIM];
    int n = 0;
    for (int d = 0; d < a->ndim; d++)
        if (d != axis) {
            shape[n] = a->shape[d];
            strides[n++] = a->strides[d];
        }
    return usmarr__view_new(a, a->dtype, n, shape, strides, a->offset + i * a->strides[axis], false, view);
}

/* The vectors of x along `axis`: a start, a stride between vectors and one between
 * components; false where the other dims do not walk one arithmetic sequence. */
static bool vectors_of(const usmarr_array_t *x, int axis, void **start, cl_long2 *s)
{
    int64_t step;
    if (!usmarr__dims_stride(x, axis, &step))
        return false;
    *start = usmarr_array_data(x);
    *s = (cl_long2){{step, x->strides[axis]}};
    return true;
}

/* The cross products in one launch of usmarr_cross, where c, a and b have the result's
 * dtype (real, not bool nor float16) and each walks its vectors with one stride; false
 * (nothing done) otherwise. */
static bool cross_kernel(usmarr_array_t *c, const usmarr_array_t *a, const usmarr_array_t *b, int axis, int *rc)
{
    usmarr_dtype_t dt = c->dtype;
    usmarr_kind_t kind = usmarr_dtype_kind(dt);
    void *pc, *pa, *pb;
    cl_long2 sc, sa, sb;
    if (a->dtype != dt || b->dtype != dt || kind == USMARR_KIND_COMPLEX || dt == USMARR_BOOL || dt == USMARR_FLOAT16 ||
        !vectors_of(c, axis, &pc, &sc) || !vectors_of(a, axis, &pa, &sa) || !vectors_of(b, axis, &pb, &sb))
        return false;
    cl_long n = usmarr_array_size(c) / 3;
    const struct usmarr__karg args[] = {USMARR__ARG_PTR(pc), USMARR__ARG_PTR(pa), USMARR__ARG_PTR(pb), USMARR__ARG(n),
                                        USMARR__ARG(sc),     USMARR__ARG(sa),     USMARR__ARG(sb)};
    *rc = usmarr__vector_launch(c->memory->context, dt, "usmarr_cross", n, USMARR__NARGS(args), args);
    return true;
}

int usmarr_linalg_cross(const usmarr_array_t *x1, const usmarr_array_t *x2, int axis, usmarr_array_t *out,
                        usmarr_array_t **result)
{
    usmarr__clear_error();
    int rc = usmarr__check_product("cross", x1, x2, out, result, 1);
    if (rc)
        return rc;
    int nd;
    int64_t shape[USMARR_MAX_NDIM];
    if ((rc = usmarr__linalg_batch_broadcast("cross", x1->ndim, x1->shape, x2->ndim, x2->shape, &nd, shape)))
        return rc;
    /* as vecdot: a negative axis counts from the end of each operand, a non-negative one
     * needs operands of the same number of dims (NumPy counts it in each operand) */
    int mind = x1->ndim < x2->ndim ? x1->ndim : x2->ndim;
    if (axis < 0 ? axis < -mind : x1->ndim != x2->ndim || axis >= nd)
        return usmarr__fail(USMARR_ERROR_INDEX,
                            "cross: axis=%d is out of range: x1 has %d dims, x2 has %d (a negative axis must be >= "
                            "-%d; a non-negative one needs equal dims)",
                            axis, x1->ndim, x2->ndim, mind);
    int ax = axis < 0 ? axis + nd : axis;
    int a1 = ax - (nd - x1->ndim), a2 = ax - (nd - x2->ndim);
    int64_t e1 = a1 >= 0 ? x1->shape[a1] : 1, e2 = a2 >= 0 ? x2->shape[a2] : 1;
    if (e1 != 3 || e2 != 3)
        return usmarr__fail(USMARR_ERROR_SHAPE_MISMATCH,
                            "cross: the vectors along axis %d have %lld elements in x1 and %lld in x2; both need 3",
                            axis, (long long)e1, (long long)e2);
    usmarr_dtype_t dt;
    if ((rc = usmarr_promote_types(x1->dtype, x2->dtype, &dt)))
        return rc;
    const usmarr_array_t *inputs[2] = {x1, x2};
    usmarr_array_t *target = NULL, *a = NULL, *b = NULL;
    if ((rc = usmarr__result_begin(x1, inputs, 2, dt, nd, shape, out, result, &target)))
        return rc;
    rc = usmarr_array_broadcast_to(x1, nd, shape, &a);
    if (!rc)
        rc = usmarr_array_broadcast_to(x2, nd, shape, &b);
    if (!rc && cross_kernel(target, a, b, ax, &rc)) {
        usmarr_array_release(a);
        usmarr_array_release(b);
        return usmarr__result_end(rc, target, out, result);
    }
    /* c_i = a_j b_k - a_k b_j, (i, j, k) the cyclic orders */
    for (int i = 0; i < 3 && !rc; i++) {
        int j = (i + 1) % 3, k = (i + 2) % 3;
        usmarr_array_t *aj = NULL, *bk = NULL, *ak = NULL, *bj = NULL, *p = NULL, *q = NULL, *ci = NULL;
        rc = component(a, ax, j, &aj);
        if (!rc)
            rc = component(b, ax, k, &bk);
        if (!rc)
            rc = component(a, ax, k, &ak);
        if (!rc)
            rc = component(b, ax, j, &bj);
        if (!rc)
            rc = component(target, ax, i, &ci);
        if (!rc)
            rc = usmarr_multiply(aj, bk, NULL, &p);
        if (!rc)
            rc = usmarr_multiply(ak, bj, NULL, &q);
        if (!rc)
            rc = usmarr_subtract(p, q, ci, NULL);
        usmarr_array_t *all[] = {aj, bk, ak, bj, p, q, ci};
        for (int t = 0; t < 7; t++)
            usmarr_array_release(all[t]);
    }
    usmarr_array_release(a);
    usmarr_array_release(b);
    return usmarr__result_end(rc, target, out, result);
}
