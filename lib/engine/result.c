/* The result convention of the rearranging operations (doc/engine.md): write into `out`
 * or a new array, through a temporary when `out` shares memory with an input.  Used by
 * manip.c and take.c; below both, so that neither needs the other for it. */
#include "engine_internal.h"

int usmarr__same_context(const usmarr_array_t *a, const char *aname, const usmarr_array_t *b, const char *bname)
{
    if (a->memory->context->cl != b->memory->context->cl)
        return usmarr__fail(USMARR_ERROR_CONTEXT_MISMATCH, "%s and %s belong to different contexts", aname, bname);
    return 0;
}

static bool shares_block(const usmarr_array_t *a, const usmarr_array_t *b)
{
    return a->memory == b->memory || (a->memory->pointer && a->memory->pointer == b->memory->pointer);
}

static int new_result(const usmarr_array_t *like, usmarr_dtype_t dtype, int ndim, const int64_t *shape,
                      usmarr_array_t **target)
{
    usmarr_usm_kind_t kind = like->memory->kind == USMARR_USM_UNKNOWN ? USMARR_USM_DEVICE : like->memory->kind;
    int rc = usmarr__array_empty_like_layout(like->memory->context, dtype, ndim, shape, USMARR_ORDER_C, kind, target);
    if (!rc)
        usmarr__advise_huge_pages((*target)->memory->context, (*target)->memory->pointer, (*target)->memory->size);
    return rc;
}

int usmarr__result_begin(const usmarr_array_t *like, const usmarr_array_t *const *inputs, int ninputs,
                         usmarr_dtype_t dtype, int ndim, const int64_t *shape, usmarr_array_t *out,
                         usmarr_array_t **result, usmarr_array_t **target)
{
    *target = NULL;
    if (!out && !result)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "result is NULL (and out is NULL)");
    if (!out)
        return new_result(like, dtype, ndim, shape, target);
    int rc = usmarr__same_context(out, "out", like, "the input");
    if (!rc)
        rc = usmarr__check_writable(out, "out");
    if (rc)
        return rc;
    bool same = out->ndim == ndim;
    for (int k = 0; same && k < ndim; k++)
        same = out->shape[k] == shape[k];
    if (!same) {
        char s1[USMARR__SHAPE_BUF], s2[USMARR__SHAPE_BUF];
        return usmarr__fail(USMARR_ERROR_SHAPE_MISMATCH, "out has shape %s, the result has shape %s",
                            usmarr__format_shape(out->ndim, out->shape, s1, sizeof s1),
                            usmarr__format_shape(ndim, shape, s2, sizeof s2));
    }
    if (!usmarr_can_cast(dtype, out->dtype, USMARR_CASTING_SAME_KIND))
        return usmarr__fail(USMARR_ERROR_CASTING, "out has dtype %s; the %s result does not cast to it (same_kind)",
                            usmarr_dtype_name(out->dtype), usmarr_dtype_name(dtype));
    /* An out that shares memory with an input: compute into a temporary, as if every
     * input were read completely first (doc/engine.md), then copy. */
    for (int i = 0; i < ninputs; i++)
        if (inputs[i] && shares_block(out, inputs[i]))
            return new_result(like, out->dtype, ndim, shape, target);
    *target = usmarr_array_retain(out);
    return 0;
}

int usmarr__result_end(int rc, usmarr_array_t *target, usmarr_array_t *out, usmarr_array_t **result)
{
    if (!rc && out && target != out) {
        rc = usmarr_array_copy_into(out, target);
        usmarr_array_release(target);
        target = rc ? NULL : usmarr_array_retain(out);
    }
    if (rc || !result)
        usmarr_array_release(target);
    else
        *result = target;
    return rc;
}
