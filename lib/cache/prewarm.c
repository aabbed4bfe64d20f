/* usmarr_cache_prewarm()'s workload: the operations most programs meet first, run once
 * on tiny arrays of every dtype, so that their kernels are compiled, launched (PoCL
 * finishes a binary at its first launch) and stored in the disk cache.  It goes through
 * the public operations rather than a list of kernel keys, so it compiles exactly what
 * those operations would and never goes stale when the engine's keys change. */
#include "cache_internal.h"

static const char *const unary_functions[] = {"negative", "abs", "sqrt", "exp", "log", "sin", "isnan"};
static const char *const binary_functions[] = {"add", "subtract", "multiply", "divide", "maximum", "less", "equal"};
static const char *const reductions[] = {"sum", "mean", "min", "max", "argmax", "any"};

/* A function that is not defined for a dtype (negative of bool, sqrt of an int that
 * promotes to a float the device lacks) is not a failure of the prewarm. */
static int tolerate(int rc)
{
    return rc == USMARR_ERROR_BAD_DTYPE || rc == USMARR_ERROR_UNSUPPORTED ? 0 : rc;
}

static int prewarm_dtype(usmarr_context_t *ctx, usmarr_dtype_t dtype)
{
    const int64_t shape[2] = {4, 8};
    const int axis0 = 0, swap[2] = {1, 0};
    usmarr_array_t *a = NULL, *t = NULL, *r = NULL;
    int rc = usmarr_array_ones(ctx, 2, shape, dtype, USMARR_ORDER_C, USMARR_USM_DEVICE, &a);
    if (!rc)
        rc = usmarr_array_permute_dims(a, swap, &t);
    if (!rc)
        rc = usmarr_array_copy(t, USMARR_ORDER_C, NULL, &r); /* the 2-D strided class */
    usmarr_array_release(r), r = NULL;
    for (int to = 0; !rc && to < USMARR_DTYPE_COUNT; to++) {
        rc = tolerate(usmarr_array_astype(a, (usmarr_dtype_t)to, USMARR_ORDER_K, NULL, &r));
        usmarr_array_release(r), r = NULL;
    }
    usmarr_operand_t ops[2] = {{.array = a}, {.array = t}};
    for (size_t i = 0; !rc && i < sizeof unary_functions / sizeof *unary_functions; i++) {
        rc = tolerate(usmarr_elementwise(unary_functions[i], ops, 1, NULL, &r));
        usmarr_array_release(r), r = NULL;
    }
    for (size_t i = 0; !rc && i < sizeof binary_functions / sizeof *binary_functions; i++) {
        ops[1].array = a;
        rc = tolerate(usmarr_elementwise(binary_functions[i], ops, 2, NULL, &r));
        usmarr_array_release(r), r = NULL;
    }
    for (size_t i = 0; !rc && i < sizeof reductions / sizeof *reductions; i++) {
        rc = tolerate(usmarr_reduce(reductions[i], a, 1, &axis0, false, NULL, &r));
        usmarr_array_release(r), r = NULL;
        if (!rc)
            rc = tolerate(usmarr_reduce(reductions[i], a, 0, NULL, false, NULL, &r));
        usmarr_array_release(r), r = NULL;
    }
    /* A first sort of a short row (the rows kernels; longer rows take the radix passes) in
     * the dtypes most sorted. */
    if (!rc && (dtype == USMARR_FLOAT32 || dtype == USMARR_FLOAT64 || dtype == USMARR_INT32 || dtype == USMARR_INT64)) {
        const int64_t n = 1000;
        usmarr_array_t *row = NULL;
        rc = usmarr_array_ones(ctx, 1, &n, dtype, USMARR_ORDER_C, USMARR_USM_DEVICE, &row);
        if (!rc)
            rc = tolerate(usmarr_sort(row, 0, false, NULL, &r));
        usmarr_array_release(r), r = NULL;
        usmarr_array_release(row);
    }
    usmarr_array_release(t);
    usmarr_array_release(a);
    return rc;
}

/* The dtypes USMARR_PREWARM_DTYPES names (a comma-separated list of dtype names), else
 * every dtype, as a mask of bits 1 << dtype. */
static int prewarm_dtypes(uint32_t *mask)
{
    const char *env = getenv("USMARR_PREWARM_DTYPES");
    *mask = (1u << USMARR_DTYPE_COUNT) - 1;
    if (!env)
        return 0;
    *mask = 0;
    for (const char *p = env;; p++) {
        size_t n = strcspn(p, ",");
        int d = usmarr__dtype_named(p, n);
        if (d < 0)
            return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT,
                                "USMARR_PREWARM_DTYPES=\"%s\": \"%.*s\" is not a dtype name (bool, int8 ... "
                                "complex128, comma-separated)",
                                env, (int)n, p);
        *mask |= 1u << d;
        p += n;
        if (!*p)
            return 0;
    }
}

/* Every operation here launches what it compiles before returning, so every program is
 * stored after its first launch (usmarr__store_after_launch_begin): the binaries the
 * system cache is filled with carry PoCL's work-group functions. */
int usmarr__engine_prewarm(usmarr_context_t *context)
{
    uint32_t mask;
    int rc = prewarm_dtypes(&mask);
    if (rc)
        return rc;
    usmarr__store_after_launch_begin();
    for (int d = 0; !rc && d < USMARR_DTYPE_COUNT; d++)
        if ((mask >> d & 1) && (context->info.fp64 || (d != USMARR_FLOAT64 && d != USMARR_COMPLEX128)))
            rc = prewarm_dtype(context, (usmarr_dtype_t)d);
    usmarr__store_after_launch_end();
    if (!rc)
        rc = usmarr_context_finish(context);
    usmarr__program_stores_poll(context); /* the launches have run: their programs are stored */
    return rc;
}
