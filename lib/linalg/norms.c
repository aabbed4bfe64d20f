/* vector_norm and matrix_norm (doc/linalg.md): compositions of the elementwise functions
 * and the reductions on |x| in the real floating dtype.  matrix_norm's orders 2, -2 and
 * nuc need the singular values: section 4 of linalg_internal.h (the decompositions). */
#include "linalg_internal.h"

#include <math.h>

/* The real floating dtype of a norm of `dtype`: the compute dtype, complex to its real. */
static usmarr_dtype_t norm_dtype(const usmarr_context_t *ctx, usmarr_dtype_t dtype)
{
    usmarr_dtype_t dt = usmarr__linalg_dtype(ctx, dtype);
    return dt == USMARR_COMPLEX64 ? USMARR_FLOAT32 : dt == USMARR_COMPLEX128 ? USMARR_FLOAT64 : dt;
}

/* |x| as a new array of the norm dtype `rdt`. */
static int magnitudes(const usmarr_array_t *x, usmarr_dtype_t rdt, usmarr_array_t **a)
{
    if (usmarr_dtype_kind(x->dtype) == USMARR_KIND_COMPLEX)
        return usmarr_abs(x, NULL, a);
    usmarr_array_t *f = NULL;
    int rc = usmarr_array_astype(x, rdt, USMARR_ORDER_K, NULL, &f);
    if (!rc)
        rc = usmarr_abs(f, NULL, a);
    usmarr_array_release(f);
    return rc;
}

/* x ** p, p a weak float scalar. */
static int power(const usmarr_array_t *x, double p, usmarr_array_t **r)
{
    usmarr_operand_t ops[2] = {{x, {0}}, {NULL, usmarr_scalar_float(p)}};
    return usmarr_elementwise("pow", ops, 2, NULL, r);
}

/* The vector norm of order `ord` of the magnitudes `a` over axes (NULL: all). */
static int reduce_norm(const usmarr_array_t *a, int naxes, const int *axes, bool keepdims, double ord,
                       usmarr_array_t **r)
{
    usmarr_array_t *t = NULL, *s = NULL;
    int rc;
    if (isinf(ord))
        return (ord > 0 ? usmarr_max : usmarr_min)(a, naxes, axes, keepdims, NULL, r);
    if (ord == 0) { /* the count of nonzero elements, in the norm's dtype */
        rc = usmarr_count_nonzero(a, naxes, axes, keepdims, NULL, &t);
        if (!rc)
            rc = usmarr_array_astype(t, a->dtype, USMARR_ORDER_K, NULL, r);
        usmarr_array_release(t);
        return rc;
    }
    if (ord == 1)
        return usmarr_sum(a, naxes, axes, keepdims, NULL, r);
    rc = ord == 2 ? usmarr_square(a, NULL, &t) : power(a, ord, &t);
    if (!rc)
        rc = usmarr_sum(t, naxes, axes, keepdims, NULL, &s);
    if (!rc)
        rc = ord == 2 ? usmarr_sqrt(s, NULL, r) : power(s, 1 / ord, r);
    usmarr_array_release(t);
    usmarr_array_release(s);
    return rc;
}

/* Hands `value` over through the result convention. */
static int deliver(const char *fn, const usmarr_array_t *x, usmarr_array_t *value, usmarr_array_t *out,
                   usmarr_array_t **result)
{
    struct usmarr__linalg_result r;
    int rc = usmarr__linalg_result_begin(fn, x, &x, 1, value->dtype, value->ndim, value->shape, out, result, &r);
    if (rc)
        return rc;
    return usmarr__linalg_result_end(0, value, &r);
}

int usmarr_linalg_vector_norm(const usmarr_array_t *x, int naxes, const int *axes, bool keepdims, double ord,
                              usmarr_array_t *out, usmarr_array_t **result)
{
    usmarr__clear_error();
    usmarr_dtype_t dt;
    int rc = usmarr__linalg_check("vector_norm", x, "x", 0, false, &dt);
    if (rc)
        return rc;
    if (isnan(ord))
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "vector_norm: ord is NaN");
    if (!out && !result)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "vector_norm: result is NULL and there is no out");
    usmarr_array_t *a = NULL, *v = NULL;
    rc = magnitudes(x, norm_dtype(x->memory->context, x->dtype), &a);
    if (!rc)
        rc = reduce_norm(a, naxes, axes, keepdims, ord, &v);
    if (!rc)
        rc = deliver("vector_norm", x, v, out, result);
    usmarr_array_release(a);
    usmarr_array_release(v);
    return rc;
}

int usmarr_linalg_matrix_norm(const usmarr_array_t *x, usmarr_matrix_norm_t ord, bool keepdims, usmarr_array_t *out,
                              usmarr_array_t **result)
{
    usmarr__clear_error();
    usmarr_dtype_t dt;
    int rc = usmarr__linalg_check("matrix_norm", x, "x", 2, false, &dt);
    if (rc)
        return rc;
    if (!out && !result)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "matrix_norm: result is NULL and there is no out");
    int last2[2] = {-2, -1};
    usmarr_array_t *a = NULL, *s = NULL, *v = NULL, *sq = NULL;
    rc = magnitudes(x, norm_dtype(x->memory->context, x->dtype), &a);
    if (rc)
        return rc;
    switch (ord) {
    case USMARR_NORM_FRO: rc = reduce_norm(a, 2, last2, keepdims, 2, &v); break;
    case USMARR_NORM_ONE:
    case USMARR_NORM_MINUS_ONE:
    case USMARR_NORM_INF:
    case USMARR_NORM_MINUS_INF: {
        /* 1: the largest column sum; inf: the largest row sum; the negative orders the least */
        bool columns = ord == USMARR_NORM_ONE || ord == USMARR_NORM_MINUS_ONE;
        bool largest = ord == USMARR_NORM_ONE || ord == USMARR_NORM_INF;
        int sum_axis = columns ? -2 : -1, pick_axis = columns ? -1 : -2;
        rc = usmarr_sum(a, 1, &sum_axis, true, NULL, &s);
        if (!rc)
            rc = (largest ? usmarr_max : usmarr_min)(s, 1, &pick_axis, true, NULL, &sq);
        if (!rc && !keepdims)
            rc = usmarr_array_squeeze(sq, 2, last2, &v);
        else if (!rc)
            v = usmarr_array_retain(sq);
        break;
    }
    case USMARR_NORM_NUC:
    case USMARR_NORM_TWO:
    case USMARR_NORM_MINUS_TWO: /* the singular values' (svd.c), which delivers its result itself */
        usmarr_array_release(a);
        return usmarr__matrix_norm_singular(x,
                                            ord == USMARR_NORM_NUC   ? USMARR__NORM_NUCLEAR
                                            : ord == USMARR_NORM_TWO ? USMARR__NORM_2
                                                                     : USMARR__NORM_MINUS_2,
                                            keepdims, out, result);
    default: rc = usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "matrix_norm: ord %d is not a usmarr_matrix_norm_t", (int)ord);
    }
    if (!rc)
        rc = deliver("matrix_norm", x, v, out, result);
    usmarr_array_release(a);
    usmarr_array_release(s);
    usmarr_array_release(sq);
    usmarr_array_release(v);
    return rc;
}
