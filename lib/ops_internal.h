/* Private declarations of the operations modules (promote.c, elementwise.c, reduce.c). */
#ifndef USMARR_OPS_INTERNAL_H
#define USMARR_OPS_INTERNAL_H

#include "internal.h"

/* ---- promote.c ------------------------------------------------------------------ */
/* promote_types without argument checks (both must be valid dtypes). */
USMARR_INTERNAL usmarr_dtype_t usmarr__promote(usmarr_dtype_t a, usmarr_dtype_t b);
/* Validates a scalar's kind and dtype; `what` names it in messages. */
USMARR_INTERNAL int usmarr__scalar_check(const usmarr_scalar_t *s, const char *what);
/* USMARR_ERROR_OVERFLOW when a weak integer scalar does not fit an integer `dtype`. */
USMARR_INTERNAL int usmarr__weak_fits(const usmarr_scalar_t *s, usmarr_dtype_t dtype, const char *what);
/* result_type over dtypes and scalar pointers (scalars already in any order). */
USMARR_INTERNAL int usmarr__result_type(const usmarr_dtype_t *dtypes, size_t ndtypes,
                                        const usmarr_scalar_t *const *scalars, size_t nscalars,
                                        usmarr_dtype_t *result);

/* ---- elementwise.c, reduce.c ------------------------------------------------------ */
/* The dtype usmarr_elementwise(name, operands, noperands, NULL, ...) would give its
 * result, without launching anything (name, arity and scalars are checked).  For callers
 * that allocate the result themselves (the storage layer's aligned results). */
USMARR_INTERNAL int usmarr__elementwise_result_dtype(const char *name, const usmarr_operand_t *operands,
                                                     size_t noperands, usmarr_dtype_t *result);
/* The dtype usmarr_reduce(name, x of `dtype`, ...) gives; an unknown name fails. */
USMARR_INTERNAL int usmarr__reduce_result_dtype(const char *name, usmarr_dtype_t dtype, usmarr_dtype_t *result);

#endif
