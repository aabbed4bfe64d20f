/* Where operands meet: whether two arrays' elements share bytes, whether an input may be
 * read in place of the output it aliases, and the array a result goes to (elementwise.c
 * and the fused expressions, expr_eval.c). */
#include "ops_internal.h"

/* Element byte range [lo, hi) of an array; false for no elements. */
static bool byte_range(const usmarr_array_t *a, uintptr_t *lo, uintptr_t *hi)
{
    int64_t dmin, dmax;
    if (!a->memory->pointer || !usmarr__array_span(a, &dmin, &dmax))
        return false;
    int64_t isz = (int64_t)usmarr_dtype_size(a->dtype);
    uintptr_t base = (uintptr_t)a->memory->pointer;
    *lo = base + (uintptr_t)((a->offset + dmin) * isz);
    *hi = base + (uintptr_t)((a->offset + dmax + 1) * isz);
    return true;
}

bool usmarr__ranges_meet(const usmarr_array_t *a, const usmarr_array_t *b)
{
    uintptr_t alo, ahi, blo, bhi;
    if (a->memory != b->memory || !byte_range(a, &alo, &ahi) || !byte_range(b, &blo, &bhi))
        return false;
    return alo < bhi && blo < ahi;
}

/* `in`, broadcast to `shape`, visits exactly the elements of `out` in the same order, so
 * reading element i before writing element i is safe in place. */
bool usmarr__exact_alias(const usmarr_array_t *in, const usmarr_array_t *out)
{
    struct usmarr__operand o;
    if (usmarr_dtype_size(in->dtype) != usmarr_dtype_size(out->dtype) ||
        usmarr__operand_from_array(in, out->ndim, out->shape, &o))
        return false;
    if ((char *)in->memory->pointer + in->offset * (int64_t)usmarr_dtype_size(in->dtype) !=
        (char *)out->memory->pointer + out->offset * (int64_t)usmarr_dtype_size(out->dtype))
        return false;
    for (int d = 0; d < out->ndim; d++)
        if (out->shape[d] > 1 && o.strides[d] != out->strides[d])
            return false;
    return true;
}

/* A new writable array of `dtype` and `shape` on the same kind of USM as `like`. */
static int new_array(usmarr_context_t *ctx, const usmarr_array_t *like, usmarr_dtype_t dtype, int ndim,
                     const int64_t *shape, usmarr_order_t order, usmarr_array_t **out)
{
    usmarr_usm_kind_t kind = like && like->memory->kind != USMARR_USM_UNKNOWN ? like->memory->kind : USMARR_USM_DEVICE;
    return usmarr__array_empty_like_layout(ctx, dtype, ndim, shape, order, kind, out);
}

int usmarr__elementwise_target(usmarr_context_t *ctx, const usmarr_array_t *first, const usmarr_array_t *out,
                               usmarr_dtype_t dtype, int ndim, const int64_t *shape, usmarr_array_t **target)
{
    usmarr_order_t order = USMARR_ORDER_C;
    if (!out && first && first->ndim == ndim && ndim > 1 && (first->flags & USMARR_FLAG_F_CONTIGUOUS) &&
        !(first->flags & USMARR_FLAG_C_CONTIGUOUS))
        order = USMARR_ORDER_F;
    return new_array(ctx, out ? out : first, dtype, ndim, shape, order, target);
}
