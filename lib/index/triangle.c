/* tril and triu (doc/indexing.md): one map of cl/index.cl (OP_TRIANGLE) over the result,
 * x, and a third operand that gives each element its diagonal number j - i (plus rows - 1,
 * so that it is never negative): an int64 iota of rows + cols - 1 elements read with
 * stride -1 along the rows, +1 along the columns and 0 along the batch dims.  The engine
 * then handles every layout, batch dims and in-place calls; the only extra work is the
 * small iota. */
#include "index_internal.h"

#include <stdio.h>
#include <string.h>

static int triangle(const usmarr_array_t *x, int64_t k, bool lower, usmarr_array_t *out, usmarr_array_t **result,
                    const char *name)
{
    usmarr__clear_error();
    if (!x)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s: x is NULL", name);
    if (x->ndim < 2)
        return usmarr__fail(USMARR_ERROR_SHAPE_MISMATCH,
                            "%s: x has %d dims, at least 2 are needed (a matrix or a stack of them)", name, x->ndim);
    usmarr_array_t *target = NULL, *iota = NULL;
    int rc;
    if (out == x && out) { /* in place: each element is read before it is written */
        if ((rc = usmarr__check_writable(out, "out")))
            return rc;
        target = usmarr_array_retain(out);
    } else if ((rc = usmarr__result_begin(x, &x, 1, x->dtype, x->ndim, x->shape, out, result, &target))) {
        char detail[256];
        snprintf(detail, sizeof detail, "%s", usmarr_last_error_detail());
        return usmarr__fail(rc, "%s: %s", name, detail);
    }
    int nd = x->ndim;
    int64_t rows = x->shape[nd - 2], cols = x->shape[nd - 1];
    /* keep j - i <= k (tril) or >= k (triu); k clamped to [-rows, cols] says the same */
    int64_t kc = k < -rows ? -rows : k > cols ? cols : k;
    usmarr_scalar_t threshold = usmarr_scalar_int(kc + rows - 1);
    struct usmarr__map m = usmarr__map_init("index", lower ? "-DOP_TRIANGLE -DTRI_LOWER=1" : "-DOP_TRIANGLE", 1, 2);
    m.ndim = nd;
    memcpy(m.shape, x->shape, sizeof(int64_t) * (size_t)nd);
    m.nscalars = 1;
    if (usmarr_array_size(x) == 0 ||
        (rc = usmarr_array_arange(x->memory->context, 0, (double)(rows + cols - 1), 1, USMARR_INT64,
                                  USMARR_USM_DEVICE, &iota)) ||
        (rc = usmarr__operand_from_array(target, nd, x->shape, &m.operands[0])) ||
        (rc = usmarr__operand_from_array(x, nd, x->shape, &m.operands[1])) ||
        (rc = usmarr__scalar_arg_set(&m.scalars[0], USMARR_INT64, &threshold)))
        goto done;
    struct usmarr__operand *diag = &m.operands[2];
    memset(diag, 0, sizeof *diag);
    diag->dtype = USMARR_INT64;
    diag->data = (int64_t *)iota->memory->pointer + iota->offset + (rows - 1);
    diag->strides[nd - 2] = -1;
    diag->strides[nd - 1] = 1;
    rc = usmarr__map_launch(x->memory->context, &m);
done:
    usmarr_array_release(iota); /* waits for the map */
    return usmarr__result_end(rc, target, out, result);
}

int usmarr_tril(const usmarr_array_t *x, int64_t k, usmarr_array_t *out, usmarr_array_t **result)
{
    return triangle(x, k, true, out, result, "tril");
}

int usmarr_triu(const usmarr_array_t *x, int64_t k, usmarr_array_t *out, usmarr_array_t **result)
{
    return triangle(x, k, false, out, result, "triu");
}
