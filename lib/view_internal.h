/* Private helpers of the view layer and the rearranging operations above it.  Calls go
 * one way: view.c (views, shapes) <- result.c (the result convention) <- advanced.c
 * (indexed copies) <- manip.c (rearranging copies).  Never installed. */
#ifndef USMARR_VIEW_INTERNAL_H
#define USMARR_VIEW_INTERNAL_H

#include "internal.h"

/* NumPy's repr of a shape into buf: "()", "(5,)", "(2, 3)"; truncated with "..." when long. */
USMARR_INTERNAL const char *usmarr__format_shape(int ndim, const int64_t *shape, char *buf, size_t size);
#define USMARR__SHAPE_BUF 160

/* Normalises `axis` in [-ndim, ndim) to [0, ndim); USMARR_ERROR_INVALID_ARGUMENT naming
 * `argname` and the dimension otherwise. */
USMARR_INTERNAL int usmarr__normalize_axis(int axis, int ndim, const char *argname, int *out);

/* Checks index items (kinds, zero steps, one ellipsis) and counts them: the axes they
 * consume, the position of the ellipsis and of the first new axis (-1: none). */
USMARR_INTERNAL int usmarr__index_scan(const usmarr_index_item_t *items, size_t count, int *consumed, long *ellipsis,
                                       long *newaxis);

/* A view over `base`'s block with the given layout, inheriting base's access flags
 * (minus USMARR_FLAG_WRITABLE when `read_only`). */
USMARR_INTERNAL int usmarr__view_new(const usmarr_array_t *base, usmarr_dtype_t dtype, int ndim, const int64_t *shape,
                                     const int64_t *strides, int64_t offset, bool read_only, usmarr_array_t **out);

/* Element count of a shape, overflow-checked. */
USMARR_INTERNAL int usmarr__shape_size(int ndim, const int64_t *shape, int64_t *size);

/* USMARR_ERROR_CONTEXT_MISMATCH unless a and b share a context (result.c). */
USMARR_INTERNAL int usmarr__same_context(const usmarr_array_t *a, const char *aname, const usmarr_array_t *b,
                                         const char *bname);

/* The result convention (doc/engine.md, result.c): `target` is `out` (checked: context, writable,
 * shape, dtype castable same_kind) retained, or a new C-ordered array of `like`'s USM
 * kind.  When `out` shares memory with one of the `ninputs` inputs, `target` is a
 * temporary that usmarr__result_end() copies into `out` (inputs are then read completely
 * before `out` is written).  usmarr__result_end() hands the result to `result` on success,
 * releases what is not handed over, and returns `rc` (or the final copy's error). */
USMARR_INTERNAL int usmarr__result_begin(const usmarr_array_t *like, const usmarr_array_t *const *inputs, int ninputs,
                                         usmarr_dtype_t dtype, int ndim, const int64_t *shape, usmarr_array_t *out,
                                         usmarr_array_t **result, usmarr_array_t **target);
USMARR_INTERNAL int usmarr__result_end(int rc, usmarr_array_t *target, usmarr_array_t *out, usmarr_array_t **result);

/* repeat with one count per element: a take() with host-built indices (advanced.c). */
USMARR_INTERNAL int usmarr__repeat_by_take(const usmarr_array_t *a, const int64_t *repeats, int axis, int64_t total,
                                           usmarr_array_t *out, usmarr_array_t **result);

/* On a CPU device, advises transparent huge pages for a large fresh USM range (>= 4 MiB),
 * as NumPy does for large arrays: first touches then fault 2 MiB at a time (pod.c). */
USMARR_INTERNAL void usmarr__advise_huge_pages(usmarr_context_t *context, void *pointer, size_t size);

/* Raise-mode cells and index maps of advanced.c, for getitem.c (and put_along_axis).
 * Cells: a 16-byte host-USM pair (flag, bad value in the index dtype), zeroed; the
 * operands give them to a map as two stride-0 outputs; the verdict waits for the queue
 * and fails "index V is out of bounds for axis AXIS with size N (WHAT)" when the flag is
 * set.  usmarr__index_check runs OP_CHECK over `ind` alone and gives the verdict.
 * usmarr__index_map launches OP_<op> (GATHER or SCATTER) with ops[0] written, ops[1] the
 * indices, ops[2] read, scalars n and stride, and with `cells` the fused check. */
struct usmarr__operand;
/* The argument checks of put and put_along_axis: non-NULL, one context, `a` writable,
 * integer indices, a known mode. */
USMARR_INTERNAL int usmarr__check_put(const usmarr_array_t *a, const usmarr_array_t *indices,
                                      const usmarr_array_t *values, usmarr_index_mode_t mode);
/* A writable 1-D alias of `a` in C order: a view of `a` itself when it is C-contiguous, else
 * of a C-ordered copy (*copy, NULL otherwise) that the caller copies back into `a` after
 * writing and releases, with *flat, in any case. */
USMARR_INTERNAL int usmarr__flat_alias(usmarr_array_t *a, usmarr_array_t **flat, usmarr_array_t **copy);
USMARR_INTERNAL int usmarr__index_cells_new(usmarr_context_t *ctx, usmarr_memory_t **cells);
USMARR_INTERNAL void usmarr__index_cells_operands(usmarr_memory_t *cells, const usmarr_array_t *ind,
                                                  struct usmarr__operand *flag, struct usmarr__operand *value);
USMARR_INTERNAL int usmarr__index_cells_verdict(usmarr_memory_t *cells, const usmarr_array_t *ind, int64_t n,
                                                int axis, const char *what);
USMARR_INTERNAL int usmarr__index_check(const usmarr_array_t *ind, int64_t n, int axis, const char *what);
USMARR_INTERNAL int usmarr__index_map(usmarr_context_t *ctx, const char *op, usmarr_index_mode_t mode,
                                      const usmarr_array_t *ind, int nd, const int64_t *shape,
                                      struct usmarr__operand *ops, int64_t n, int64_t stride, usmarr_memory_t *cells);

/* getitem.c's rows kernel, for take() too: target row e (contiguous, `len` elements of
 * target's dtype, which is src's) = the `len` contiguous source elements from
 * src[norm(ind[e * istride]) * stride], e < m; `mode` normalises (raise: checked before,
 * or with `cells` in the same pass). */
USMARR_INTERNAL int usmarr__take_rows(const usmarr_array_t *src, const usmarr_array_t *ind, int64_t istride, int64_t m,
                                      usmarr_array_t *target, int64_t len, int64_t n, int64_t stride,
                                      usmarr_index_mode_t mode, usmarr_memory_t *cells);

#endif
