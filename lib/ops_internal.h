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

#endif
