/* Private declarations of the operations modules (promote.c, elementwise.c, reduce.c). */
#ifndef USMARR_OPS_INTERNAL_H
#define USMARR_OPS_INTERNAL_H

#include "../index/index_internal.h"

/* ---- elementwise.c, reduce.c ------------------------------------------------------ */
/* The dtype usmarr_elementwise(name, operands, noperands, NULL, ...) would give its
 * result, without launching anything (name, arity and scalars are checked).  For callers
 * that allocate the result themselves (the storage layer's aligned results). */
USMARR_INTERNAL int usmarr__elementwise_result_dtype(const char *name, const usmarr_operand_t *operands,
                                                     size_t noperands, usmarr_dtype_t *result);
/* The elementwise table (cl/elementwise.cl, read by elementwise.c), for fused expressions. */
enum usmarr__ew_out { USMARR__EW_SAME, USMARR__EW_BOOL, USMARR__EW_REAL };
struct usmarr__ew_op {
    const char *name;
    const char *id;   /* the kernel's case label, "EW_ID_<ID>" */
    int arity;        /* 1, 2 or 3 */
    bool where;       /* operand 0 is a condition of any dtype */
    unsigned loops;   /* bit per usmarr_dtype_t */
    enum usmarr__ew_out out;
    unsigned flags;
    bool vec;         /* vexpr works on 16-vectors */
    bool params;      /* isclose's rtol/atol/equal_nan */
    const char *expr; /* the table's OpenCL C expression of one element from a (b, c) */
    const char *vexpr;
};
/* Function `index` of the table; NULL past the last. */
USMARR_INTERNAL const struct usmarr__ew_op *usmarr__elementwise_op(int index);
/* usmarr_elementwise() of the table's row `index` (the named wrappers, elementwise_named.c). */
USMARR_INTERNAL int usmarr__elementwise_call(int index, const usmarr_operand_t *operands, size_t noperands,
                                             usmarr_array_t *out, usmarr_array_t **result);
/* The index of the function named by name[0, len); -1 when none is. */
USMARR_INTERNAL int usmarr__elementwise_find(const char *name, size_t len);
/* What a call of function `index` over `operands` (its arity of them; scalars checked)
 * runs: NumPy 2's weak integers out of range of a comparison or logical function may
 * change the function and clamp the scalar, so *planned_op and planned[] give the call to
 * make, *loop and *res its computation and result dtypes.  Of the arrays only the dtype
 * is read (a fused expression's intermediate values stand in as arrays).  Errors as
 * usmarr_elementwise(): USMARR_ERROR_BAD_DTYPE, USMARR_ERROR_OVERFLOW. */
USMARR_INTERNAL int usmarr__elementwise_plan(int index, const usmarr_operand_t *operands, int *planned_op,
                                             usmarr_operand_t *planned, usmarr_dtype_t *loop, usmarr_dtype_t *res);
/* USMARR_ERROR_INVALID_ARGUMENT when `planned_op` is pow over a signed integer loop dtype
 * and the exponent (a scalar, or an array's least element) is negative, as NumPy 2's
 * ValueError; 0 otherwise.  Only for calls that compute an element. */
USMARR_INTERNAL int usmarr__elementwise_check_exponent(int planned_op, usmarr_dtype_t loop,
                                                       const usmarr_operand_t *exponent);
/* The array an elementwise result is written to when `out` is not written directly: on
 * the USM kind of `out` (else `first`, the first array input), C order unless `first`
 * is F-contiguous with `ndim` dims and there is no out. */
USMARR_INTERNAL int usmarr__elementwise_target(usmarr_context_t *ctx, const usmarr_array_t *first,
                                               const usmarr_array_t *out, usmarr_dtype_t dtype, int ndim,
                                               const int64_t *shape, usmarr_array_t **target);
/* Whether the element ranges of a and b share bytes. */
USMARR_INTERNAL bool usmarr__ranges_meet(const usmarr_array_t *a, const usmarr_array_t *b);
/* Whether `in`, broadcast to out's shape, visits exactly out's elements in the same
 * order (reading element i before writing element i is then safe in place). */
USMARR_INTERNAL bool usmarr__exact_alias(const usmarr_array_t *in, const usmarr_array_t *out);
/* The dtype usmarr_reduce(name, x of `dtype`, ...) gives; an unknown name fails. */
USMARR_INTERNAL int usmarr__reduce_result_dtype(const char *name, usmarr_dtype_t dtype, usmarr_dtype_t *result);
/* The same for `name`, a function with reduction `like`'s result dtype (the cumulative ones):
 * complex input to a real-only one (logsumexp) fails naming `name`. */
USMARR_INTERNAL int usmarr__reduce_dtype_like(const char *like, usmarr_dtype_t dtype, const char *name,
                                              usmarr_dtype_t *result);
/* The cumulative kernel usmarr_reduce_<name> over `lines` C-ordered lines of n elements of
 * `dtype` at `in` into lines of n + init at `out`, a line a work-item (reduce.c). */
USMARR_INTERNAL int usmarr__cumulative_lines(usmarr_context_t *ctx, const char *name, usmarr_dtype_t dtype,
                                             void *in, void *out, int64_t lines, int64_t n, bool init);

/* x copied in C order with its axes ordered (kept..., reduced...) (`reduced`: a mask over
 * x's axes), then an (nkept, nred) matrix; perm (NULL: not wanted) receives the order. */
USMARR_INTERNAL int usmarr__copy_reduced_last(const usmarr_array_t *x, const bool *reduced, int *perm,
                                              usmarr_array_t **copy);
/* `out` for the result (dtype `res`, shape (ndim, shape)) of `name` on x: x's context,
 * writable, that shape, and a dtype `res` casts to under `casting` (USMARR_CASTING_NO:
 * `res` itself, else USMARR_ERROR_BAD_DTYPE; others: USMARR_ERROR_CASTING). */
USMARR_INTERNAL int usmarr__check_out(const usmarr_array_t *x, const usmarr_array_t *out, usmarr_dtype_t res, int ndim,
                                      const int64_t *shape, usmarr_casting_t casting, const char *name);

/* ---- fused expressions (expr_parse.c, expr_fold.c, expr_build.c, expr_eval.c) ------- */

enum usmarr__xkind {
    USMARR__X_OPERAND, /* operand `op` */
    USMARR__X_LITERAL, /* `value`: weak, or typed (a cast number) */
    USMARR__X_CALL,    /* elementwise function `op` of args[0, nargs) */
    USMARR__X_CAST     /* args[0] converted to dtype `op` */
};

/* One node of an expression; nodes are stored arguments first (every node after the nodes
 * it reads), so one pass in order evaluates the tree. */
struct usmarr__xnode {
    enum usmarr__xkind kind;
    int op;
    int nargs;
    int args[3];
    int column;            /* of its token in the text, 1-based (messages) */
    bool from_operator;    /* written as an operator: folded when its operands are weak values */
    usmarr_scalar_t value; /* USMARR__X_LITERAL */
};

struct usmarr__xspec; /* a generated program of the expression (expr_build.c) */
struct usmarr__xsig;  /* a resolved signature and its program (expr_build.c) */

struct usmarr_expr {
    atomic_int refcount;
    int nnodes;
    struct usmarr__xnode *nodes; /* the root is the last */
    int reduction;               /* -1, or the usmarr__reduce_name() index applied to the root */
    size_t noperands;
    char **names;
    char *text, *canonical;
    mtx_t lock; /* guards specs and sigs */
    struct usmarr__xspec *specs;
    struct usmarr__xsig *sigs;
};

/* One pass of the parser (expr_parse.c) over `text`: with `nodes` NULL it only checks and
 * counts (*nnodes); else it fills nodes[0, *nnodes) and, when `names` is NULL, the names
 * met in order of first appearance (seen[], seen_len[], *nseen; room for *nnodes each).
 * *reduction: -1, or the reduction the whole expression is.  USMARR_ERROR_PARSE naming
 * the column and the token. */
USMARR_INTERNAL int usmarr__expr_parse(const char *text, const char *const *names, size_t nnames,
                                       struct usmarr__xnode *nodes, int *nnodes, int *reduction, const char **seen,
                                       size_t *seen_len, size_t *nseen);
/* Python's value of operator `op` (an elementwise function) over the weak values
 * args[0, nargs) (expr_fold.c): 0 with *result, 1 when Python has no such operation on
 * these values (the caller reports it), or USMARR_ERROR_OVERFLOW when an integer result
 * leaves 64 bits.  `why` gets a short reason on failure. */
USMARR_INTERNAL int usmarr__expr_fold(int op, const usmarr_scalar_t *args, int nargs, usmarr_scalar_t *result,
                                      const char **why);
/* A growing string (expr_build.c): `failed` once an allocation failed. */
struct usmarr__text {
    char *s;
    size_t len, cap;
    bool failed;
};
USMARR_INTERNAL void usmarr__text_put(struct usmarr__text *t, const char *format, ...)
    __attribute__((format(printf, 2, 3)));

/* What one application of an expression runs (expr_build.c): the arrays it reads (kernel
 * inputs 1..nin, operand indices), its by-value scalars and the generated program, which
 * the expression owns (valid while it lives). */
enum usmarr__xtarget {
    USMARR__XT_MAP,   /* a map writing operand 0 (engine_internal.h, section 2) */
    USMARR__XT_REDUCE /* the element loader of cl/reduce.cl (R_ELEM) */
};
struct usmarr__xplan {
    usmarr_dtype_t result; /* the value's dtype, before any reduction */
    int nin;
    int inputs[USMARR__MAX_OPERANDS];
    int nscalars;
    struct usmarr__scalar_arg scalars[USMARR__MAX_SCALARS];
    const struct usmarr__source_part *parts;
    int nparts;
    const char *defines; /* -DUSMARR_EXPR=<digest of the parts> */
};
/* The dtype the expression gives these operands (checked by the caller), as
 * usmarr_expr_result_dtype(); with `ctx`, also refuses fp64 work the device cannot do. */
USMARR_INTERNAL int usmarr__expr_types(const usmarr_expr_t *e, const usmarr_operand_t *operands, usmarr_context_t *ctx,
                                       usmarr_dtype_t *result);
/* The plan of one application: types as usmarr__expr_types(), then the program for
 * `target` (a map storing `out_dtype`; a reduction's loader), generated or found in the
 * expression's cache. */
USMARR_INTERNAL int usmarr__expr_plan(usmarr_expr_t *e, const usmarr_operand_t *operands, usmarr_context_t *ctx,
                                      enum usmarr__xtarget target, usmarr_dtype_t out_dtype, struct usmarr__xplan *plan);
/* Frees an expression's caches of programs and signatures (expr_build.c). */
USMARR_INTERNAL void usmarr__expr_caches_free(usmarr_expr_t *e);

/* ---- reductions by name (reduce.c), for fused reductions ---------------------------- */
/* The name of reduction `index`; NULL past the last. */
USMARR_INTERNAL const char *usmarr__reduce_name(int index);

/* The value of a fused expression as the input of a reduction: its dtype and (broadcast)
 * shape, the arrays its loader reads (each broadcast to `shape`) and its generated
 * program, whose R_ELEM replaces the reduction's load (cl/reduce.cl). */
struct usmarr__reduce_fused {
    usmarr_context_t *ctx;
    usmarr_dtype_t dtype;
    int ndim;
    int64_t shape[USMARR_MAX_NDIM];
    int nin;
    struct usmarr__operand in[USMARR__MAX_OPERANDS];
    const usmarr_memory_t *memory[USMARR__MAX_OPERANDS]; /* their blocks (out must be none of them) */
    int nscalars;
    const struct usmarr__scalar_arg *scalars;
    const struct usmarr__source_part *parts;
    int nparts;
    const char *defines;
    usmarr_usm_kind_t kind; /* of a new result */
};
/* usmarr_reduce(name, <the fused value>, naxes, axes, keepdims, out, result) in one pass
 * over the operands (reduce.c).  Returns 1, having written nothing, when the layout needs
 * more than two kept or two reduced dims after merging (the caller evaluates the value
 * into an array and reduces that). */
USMARR_INTERNAL int usmarr__reduce_fused(const char *name, const struct usmarr__reduce_fused *fused, int naxes,
                                         const int *axes, bool keepdims, usmarr_array_t *out, usmarr_array_t **result);

/* ---- scans (scan.c, cl/scan.cl): the gpu shape's cumulative functions -------------- */
/* The sources of every reduction program: the row kernels and the cumulative lines, the
 * column and slab kernels, the trees (compiled only with -DR_TREE). */
#define USMARR__REDUCE_SOURCES "reduce+reduce_cols+reduce_tree"
/* The family and defines of the reduction program of a dtype on ctx's shape (the gpu
 * shape's holds the tree reductions and the scans). */
USMARR_INTERNAL const char *usmarr__reduce_family(const usmarr_context_t *ctx);
USMARR_INTERNAL void usmarr__reduce_defines(const usmarr_context_t *ctx, usmarr_dtype_t dtype, char *defines,
                                            size_t size);
/* `lines` lines of n contiguous elements of `dtype` at `in`, scanned with `op` ("sum",
 * "prod", "logsumexp") into lines of n + init elements at `out` (init: the identity
 * first), C order both.  Needs ctx->shape.scan_group.  `scratch`: device memory of
 * usmarr__scan_scratch_bytes() (NULL: allocated, and freed after the launches, a wait). */
USMARR_INTERNAL size_t usmarr__scan_scratch_bytes(const usmarr_context_t *ctx, int64_t lines, int64_t n);
USMARR_INTERNAL int usmarr__scan_lines(usmarr_context_t *ctx, const char *op, usmarr_dtype_t dtype, const void *in,
                                       void *out, int64_t lines, int64_t n, bool init, void *scratch);

/* ---- the gpu shape's radix sort (radix.c, cl/radix.cl) ----------------------------- */
/* Whether keys of `bits` bits sort through it on ctx's shape. */
USMARR_INTERNAL bool usmarr__radix_gpu(const usmarr_context_t *ctx, int bits);
/* The defines of its program ("sort+groupscan+radix"): sort.cl's plus the group and digit. */
USMARR_INTERNAL void usmarr__radix_defines(const usmarr_context_t *ctx, const char *sort_defines, char *defines,
                                           size_t size);
struct usmarr__sorted;
/* sort.c's sort_keys() through it: rows in[r*sr + i*se] into j->key (j->idx), or as
 * elements (indices with ARG) into out[r*osr + i*ose]; j's scratch blocks allocated. */
USMARR_INTERNAL int usmarr__radix_sort(struct usmarr__sorted *j, const void *in, int64_t sr, int64_t se, void *out,
                                       int64_t osr, int64_t ose);

/* ---- keys sorted on the device (sort.c), for the set functions (set.c) ------------ */

/* R rows of n keys, sorted in place by usmarr__sort_flat() (or sort.c's own path). */
struct usmarr__sorted {
    usmarr_context_t *ctx;
    char defines[96];     /* -DW -DKIND -DARG [-DDESC] [-DCANON] */
    char key_defines[96]; /* the same without indices: for kernels that read the sorted keys
                             (the set functions'), which do not change with ARG */
    int64_t rows, n;
    int key_bytes;        /* 4, 8, or 16 (complex128: a ulong2) */
    int bits;             /* the element's width: cl/sort.cl's W */
    void *key, *tkey, *idx, *tidx; /* keys and scratch; int64 indices with ARG */
    usmarr_memory_t *blocks[5]; /* key, tkey, idx, tidx, the radix passes' counts */
};

/* Every element of `x` (C order, any layout) as one row of canonical keys (-0.0 == 0.0),
 * sorted ascending and stably, with the flat C-order indices when `arg`.  On success the
 * caller releases `sorted` with usmarr__sorted_release(); a zero-size x gives n == 0 and
 * no blocks.  x's dtype must have a key; `what` names x in the error of an x longer than a
 * row may be (the radix passes count in 32 bits). */
USMARR_INTERNAL int usmarr__sort_flat(const usmarr_array_t *x, bool arg, const char *what, struct usmarr__sorted *sorted);
USMARR_INTERNAL void usmarr__sorted_release(struct usmarr__sorted *sorted);

#endif
