/* Part of usmarr.h: include <usmarr.h>, not this file. */
#ifndef USMARR_H_INSIDE
#error "include <usmarr.h> instead of usmarr/expr.h"
#endif
#ifndef USMARR_EXPR_H
#define USMARR_EXPR_H

/** @name Fused expressions
 *
 * A whole elementwise expression, `"a * b + exp(c)"`, parsed once and applied to any
 * operands as one kernel per device: each input is read once and the result written
 * once, where separate calls write a temporary per operation.  The kernel is generated as
 * OpenCL C from the expression and the elementwise functions' own table, compiled at
 * first use per device and cached like every other kernel (memory and disk).  The guide
 * is doc/expressions.md.
 *
 * **Grammar** (Python's precedence; C's `&&`, `||`, `!` and `? :` are accepted too):
 * operand names, numbers (`2`, `0x1f`, `2.5e-3`, `1j`), the constants `pi`, `inf`, `nan`,
 * `True`, `False`; every elementwise function of the library by its name (`exp(x)`,
 * `where(c, a, b)`, `clip(x, lo, hi)`, `maximum(a, b)`, ...); the operators, from the
 * loosest binding: `c ? a : b` and `a if c else b` (where), `or` `||`, `and` `&&`, `not`,
 * comparisons `< <= > >= == !=` (not chained), `|`, `^`, `&`, `<< >>`, `+ -`,
 * `* / // %`, unary `- + ~ !`, `**` (right to left); casts `float32(x)` or
 * `astype(x, float32)` (NumPy's unsafe casting).  A reduction may be the whole
 * expression: `sum(a * b)`, `max(abs(a - b))` (every reduction of usmarr_reduce():
 * sum, prod, mean, min, max, all, any, argmin, argmax, count_nonzero, logsumexp,
 * reduce_hypot).
 *
 * **Types** are NumPy 2's, exactly as the separate calls would give them: every
 * operation promotes its operands (weak scalars keep an array's dtype) and computes in
 * its own loop dtype, intermediate values keep their dtypes (an int8 sum of int8 values
 * wraps, a float16 intermediate is rounded to float16).  Numbers in the text are weak
 * (Python scalars); operators on numbers alone are folded as Python folds them
 * (`a * (2 * pi)` stays float32), functions of numbers alone compute in the numbers'
 * default dtypes (`exp(1.0)` is a float64 value, as NumPy's `np.exp(1.0)`).
 *
 * Work is enqueued on the context's in-order queue; the calls return without waiting.
 * An expression is immutable once created: several threads may apply it at once.
 * @{ */

/** A parsed expression (opaque, reference-counted). */
typedef struct usmarr_expr usmarr_expr_t;

/** @brief Parses @p text into an expression.
 *
 * @param text the expression (borrowed; copied)
 * @param names the operand names, in the order operands are passed to usmarr_expr_apply()
 *        (borrowed; copied), or NULL: the names of the text that are not constants, in
 *        the order of their first appearance
 * @param nnames the number of @p names (ignored when @p names is NULL); names the text
 *        does not use are allowed (their operands are checked but not read)
 * @param[out] expr the new expression, with one reference
 * @return 0 on success; on failure @p expr is set to NULL and nothing is allocated
 * @retval USMARR_ERROR_INVALID_ARGUMENT NULL @p text or @p expr, a NULL or malformed
 *         entry of @p names, a name given twice
 * @retval USMARR_ERROR_PARSE malformed text: the detail names the column and the token,
 *         e.g. `expression "a * * b" column 5: expected a value, found '*'`; also an
 *         unknown function or (with @p names) an unknown name, a call with the wrong
 *         number of arguments, a reduction inside the expression, constant arithmetic
 *         Python refuses (`1 // 0`) or that overflows 64-bit integers
 * @retval USMARR_ERROR_OUT_OF_HOST_MEMORY */
USMARR_API USMARR_NODISCARD int usmarr_expr_create(const char *text, const char *const *names, size_t nnames,
                                                   usmarr_expr_t **expr);

/** @brief Adds a reference.  @param expr an expression or NULL  @return @p expr */
USMARR_API usmarr_expr_t *usmarr_expr_retain(usmarr_expr_t *expr);

/** @brief Drops a reference; the last one frees the expression.  NULL is a no-op. */
USMARR_API void usmarr_expr_release(usmarr_expr_t *expr);

/** @brief The number of operands usmarr_expr_apply() takes.  @return 0 for NULL */
USMARR_API size_t usmarr_expr_operand_count(const usmarr_expr_t *expr);

/** @brief The name of operand @p index.
 *  @return a string owned by the expression, or NULL for NULL or an index out of range */
USMARR_API const char *usmarr_expr_operand_name(const usmarr_expr_t *expr, size_t index);

/** @brief The canonical form: operands as `$0`, `$1`, ..., operators as the functions'
 *  names, numbers exact (floats in C99 hex), no spaces: `"a*b + exp(c)"` is
 *  `"add(multiply($0,$1),exp($2))"`.  Expressions of one canonical form share their kernels.
 *  @return a string owned by the expression, or NULL for NULL */
USMARR_API const char *usmarr_expr_canonical(const usmarr_expr_t *expr);

/** @brief The reduction the expression ends in ("sum", ...), or NULL for none or NULL. */
USMARR_API const char *usmarr_expr_reduction(const usmarr_expr_t *expr);

/** @brief The dtype usmarr_expr_apply() gives these operands (of a reduction: the
 *  reduction's result dtype), without launching anything.
 *  @param expr the expression
 *  @param operands usmarr_expr_operand_count() operands (borrowed): arrays, weak or typed scalars
 *  @param noperands their number
 *  @param[out] dtype the result dtype
 *  @return 0 on success, or the type errors of usmarr_expr_apply() */
USMARR_API USMARR_NODISCARD int usmarr_expr_result_dtype(const usmarr_expr_t *expr, const usmarr_operand_t *operands,
                                                         size_t noperands, usmarr_dtype_t *dtype);

/** @brief Evaluates the expression over @p operands in one kernel.
 *
 * Operands are arrays of any strides (broadcast together as NumPy does) and weak or typed
 * scalars (::usmarr_operand_t).  The result convention and the checks of @p out are
 * usmarr_elementwise()'s: @p out may be one of the inputs (in place), an input sharing
 * memory with @p out in another way is read completely first.  An expression that ends
 * in a reduction reduces every axis (usmarr_expr_reduce() picks axes).
 *
 * @param expr the expression (borrowed)
 * @param operands usmarr_expr_operand_count() operands (borrowed)
 * @param noperands their number
 * @param out NULL, or the array to write
 * @param[out] result the result array, or @p out retained; may be NULL when @p out is given
 * @return 0 on success
 * @retval USMARR_ERROR_INVALID_ARGUMENT NULL @p expr or @p operands, a wrong
 *         @p noperands, no array and no @p out, NULL @p result without @p out, a scalar
 *         of an unknown kind or of a kind its dtype contradicts, a negative weak scalar
 *         exponent of an integer power
 * @retval USMARR_ERROR_BAD_DTYPE a function is not defined for the dtype it gets (the
 *         detail names it and the column), or a scalar's dtype is not a dtype
 * @retval USMARR_ERROR_OVERFLOW a weak integer scalar out of range of the dtype it meets
 * @retval USMARR_ERROR_UNSUPPORTED more than 7 array operands or 8 scalar operands
 *         (kernel arguments), or fp64 work on a device without fp64
 * @retval USMARR_ERROR_CONTEXT_MISMATCH, USMARR_ERROR_SHAPE_MISMATCH,
 *         USMARR_ERROR_READ_ONLY, USMARR_ERROR_CASTING, USMARR_ERROR_ALLOCATION,
 *         USMARR_ERROR_BUILD as for usmarr_elementwise(); USMARR_ERROR_EMPTY and the
 *         axes errors as for usmarr_reduce() for a reduction */
USMARR_API USMARR_NODISCARD int usmarr_expr_apply(const usmarr_expr_t *expr, const usmarr_operand_t *operands,
                                                  size_t noperands, usmarr_array_t *out, usmarr_array_t **result);

/** @brief Evaluates an expression that ends in a reduction (`"sum(a * b)"`) over the
 *  given axes, in one pass that reads each input once and writes no intermediate array.
 *
 * Axes as usmarr_reduce(): over the operands' broadcast shape, @p axes NULL for all
 * (then @p naxes is ignored), negative values counting from the end.  Accuracy is the
 * reduction engine's (the same accumulation as usmarr_reduce() of the evaluated array).
 *
 * @param expr the expression (borrowed); it must end in a reduction
 * @param operands usmarr_expr_operand_count() operands (borrowed)
 * @param noperands their number
 * @param naxes the number of @p axes
 * @param axes the axes to reduce, or NULL for all
 * @param keepdims keep reduced axes as size-1 dims
 * @param out NULL, or the array to write (the result's shape)
 * @param[out] result the result, or @p out retained; may be NULL when @p out is given
 * @return 0 on success
 * @retval USMARR_ERROR_INVALID_ARGUMENT the expression has no reduction, or as
 *         usmarr_expr_apply() and usmarr_reduce()
 * @retval USMARR_ERROR_INDEX an axis out of range
 * @retval USMARR_ERROR_EMPTY min, max, argmin or argmax of an empty selection
 * @retval USMARR_ERROR_SHAPE_MISMATCH operands that do not broadcast, @p out not of the
 *         result's shape
 * @return or the other errors of usmarr_expr_apply() */
USMARR_API USMARR_NODISCARD int usmarr_expr_reduce(const usmarr_expr_t *expr, const usmarr_operand_t *operands,
                                                   size_t noperands, int naxes, const int *axes, bool keepdims,
                                                   usmarr_array_t *out, usmarr_array_t **result);

/** @} */

#endif
