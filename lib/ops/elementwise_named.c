/* The named elementwise functions (usmarr_add, usmarr_sin, ...): one wrapper a row of the
 * table (cl/elementwise.cl) over the dispatcher of elementwise.c, and allclose. */
#include "ops_internal.h"

#include <string.h>

#define USMARR_ELEMENTWISE_TABLE_ONLY
#include "../../cl/elementwise.cl"

/* the table's row numbers, as elementwise.c numbers its rows */
enum op_index {
#define ENUM_(ID, name, arity, loops, out, flags, vec, expr, vexpr) OP_##ID,
    USMARR_ELEMENTWISE_OPS(ENUM_)
#undef ENUM_
};

#define WRAP_1_(ID, name)                                                                                   \
    int usmarr_##name(const usmarr_array_t *x, usmarr_array_t *out, usmarr_array_t **result)                \
    {                                                                                                        \
        usmarr__clear_error();                                                                               \
        if (!x)                                                                                              \
            return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, #name ": x is NULL");                         \
        usmarr_operand_t o[1] = {{.array = x}};                                                              \
        return usmarr__elementwise_call(OP_##ID, o, 1, out, result);                                                         \
    }
#define WRAP_2_(ID, name)                                                                                   \
    int usmarr_##name(const usmarr_array_t *x1, const usmarr_array_t *x2, usmarr_array_t *out,             \
                      usmarr_array_t **result)                                                               \
    {                                                                                                        \
        usmarr__clear_error();                                                                               \
        if (!x1 || !x2)                                                                                      \
            return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, #name ": %s is NULL", !x1 ? "x1" : "x2");     \
        usmarr_operand_t o[2] = {{.array = x1}, {.array = x2}};                                              \
        return usmarr__elementwise_call(OP_##ID, o, 2, out, result);                                                         \
    }
#define WRAP_3_(ID, name)                                                                                   \
    int usmarr_##name(const usmarr_array_t *x1, const usmarr_array_t *x2, const usmarr_array_t *x3,        \
                      usmarr_array_t *out, usmarr_array_t **result)                                          \
    {                                                                                                        \
        usmarr__clear_error();                                                                               \
        if (!x1 || !x2 || !x3)                                                                               \
            return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, #name ": %s is NULL",                         \
                                !x1 ? "the first array" : !x2 ? "the second array" : "the third array");     \
        usmarr_operand_t o[3] = {{.array = x1}, {.array = x2}, {.array = x3}};                               \
        return usmarr__elementwise_call(OP_##ID, o, 3, out, result);                                                         \
    }
#define WRAP_W_ WRAP_3_
#define WRAP_C_(ID, name) /* usmarr_isclose, in elementwise.c: the function has parameters */
#define WRAP_(ID, name, arity, loops, out, flags, vec, expr, vexpr) WRAP_##arity##_(ID, name)
USMARR_ELEMENTWISE_OPS(WRAP_)
#undef WRAP_

int usmarr_allclose(const usmarr_array_t *a, const usmarr_array_t *b, double rtol, double atol, bool equal_nan,
                    bool *result)
{
    usmarr__clear_error();
    if (!result)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "allclose: result is NULL");
    usmarr_array_t *close = NULL, *all = NULL;
    unsigned char value = 0;
    int rc = usmarr_isclose(a, b, rtol, atol, equal_nan, NULL, &close);
    if (!rc)
        rc = usmarr_all(close, 0, NULL, false, NULL, &all);
    if (!rc)
        rc = usmarr_array_copy_to_host(all, &value, NULL);
    usmarr_array_release(all);
    usmarr_array_release(close);
    if (!rc)
        *result = value != 0;
    return rc;
}

/* ---- the table by name --------------------------------------------------------------------- */

int usmarr_elementwise(const char *name, const usmarr_operand_t *operands, size_t noperands, usmarr_array_t *out,
                       usmarr_array_t **result)
{
    usmarr__clear_error();
    if (!name)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "name is NULL");
    int i = usmarr__elementwise_find(name, strlen(name));
    if (i < 0)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "name=\"%.64s\" is not an elementwise function", name);
    return usmarr__elementwise_call(i, operands, noperands, out, result);
}

int usmarr_elementwise_arity(const char *name)
{
    int i = name ? usmarr__elementwise_find(name, strlen(name)) : -1;
    return i < 0 ? -1 : usmarr__elementwise_op(i)->arity;
}

const char *usmarr_elementwise_name(int index)
{
    const struct usmarr__ew_op *op = usmarr__elementwise_op(index);
    return op ? op->name : NULL;
}
