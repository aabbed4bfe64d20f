/* logsumexp, reduce_hypot, the cumulative functions (sum, prod, logsumexp, include_initial)
 * and diff against NumPy 2 (tests/stats_cases.txt, written by tests/gen/gen_stats_cases.py):
 * every dtype; C, reversed (negative strides) and step-2 layouts, broadcast inputs (zero
 * strides), 0-d, zero-size, lengths that span several work-groups and the split path;
 * results new and into `out`; special values and huge magnitudes; complex products past an
 * overflow; and the failure paths. */
#include "../harness/common.h"

#include "../harness/case_file.h"

#include <math.h>
#include <stdlib.h>

static const char *cases_path(void)
{
    const char *p = getenv("USMARR_STATS_CASES");
    return p && *p ? p : "tests/stats_cases.txt";
}

/* An array on the host: dtype, shape and C-ordered elements. */
struct host {
    usmarr_dtype_t d;
    int ndim;
    int64_t shape[USMARR_MAX_NDIM], n;
    unsigned char *data;
};

/* Hexadecimal little-endian elements from p into h->data (h->d, h->n set). */
static void parse_elements(const char *p, struct host *h)
{
    size_t isz = usmarr_dtype_size(h->d), part = usmarr_dtype_kind(h->d) == USMARR_KIND_COMPLEX ? isz / 2 : isz;
    int64_t parts = h->n * (int64_t)(isz / part), k = 0;
    h->data = malloc((size_t)h->n * isz + 1);
    char *end;
    for (; k < parts; k++) {
        uint64_t v = strtoull(p, &end, 16);
        ck_assert_msg(end != p, "short element list (%lld of %lld)", (long long)k, (long long)parts);
        memcpy(h->data + (size_t)k * part, &v, part);
        p = end;
    }
}

/* "TAG DTYPE NDIM SHAPE... V..." */
static void parse_array(const char *line, const char *tag, struct host *h)
{
    size_t tl = strlen(tag);
    ck_assert_msg(line && !strncmp(line, tag, tl) && line[tl] == ' ', "expected a \"%s\" line", tag);
    char dname[16];
    int used;
    ck_assert_int_eq(sscanf(line + tl, " %15s %d%n", dname, &h->ndim, &used), 2);
    h->d = case_dtype_named(dname);
    char *p = (char *)line + tl + used;
    h->n = 1;
    for (int i = 0; i < h->ndim; i++)
        h->n *= h->shape[i] = strtoll(p, &p, 10);
    parse_elements(p, h);
}

/* One block: its header and the lines by tag. */
struct block {
    char *head, *in, *bcast, *pre, *app, *exp;
    bool has_tol;
    double atol, rtol;
};

static bool read_block(FILE *f, const char *keyword, struct block *b)
{
    char *line = NULL;
    size_t cap = 0, kl = strlen(keyword);
    memset(b, 0, sizeof *b);
    while (getline(&line, &cap, f) > 0) {
        if (strncmp(line, keyword, kl) || line[kl] != ' ')
            continue;
        b->head = strdup(line);
        while (getline(&line, &cap, f) > 0 && strncmp(line, "end", 3)) {
            char **slot = !strncmp(line, "in ", 3)      ? &b->in
                          : !strncmp(line, "bcast ", 6) ? &b->bcast
                          : !strncmp(line, "pre ", 4)   ? &b->pre
                          : !strncmp(line, "app ", 4)   ? &b->app
                          : !strncmp(line, "exp ", 4)   ? &b->exp
                                                        : NULL;
            if (slot)
                *slot = strdup(line);
            else if (!strncmp(line, "tol ", 4))
                b->has_tol = sscanf(line + 4, "%lg %lg", &b->atol, &b->rtol) == 2;
        }
        free(line);
        return true;
    }
    free(line);
    return false;
}

static void free_block(struct block *b)
{
    free(b->head);
    free(b->in);
    free(b->bcast);
    free(b->pre);
    free(b->app);
    free(b->exp);
}

enum layout { LAYOUT_C, LAYOUT_REVERSED, LAYOUT_STEP, LAYOUT_COUNT };
static const char *const layout_names[] = {"C", "reversed", "step-2"};

/* The logical array h in a layout (0-d and empty arrays: C only), broadcast to `bshape`
 * when bndim >= 0. */
static usmarr_array_t *make(usmarr_context_t *ctx, const struct host *h, enum layout lay, int bndim,
                            const int64_t *bshape)
{
    size_t isz = usmarr_dtype_size(h->d);
    usmarr_array_t *a = NULL, *v = NULL;
    if (lay == LAYOUT_C || h->ndim == 0 || h->n == 0) {
        ck_assert_ok(usmarr_array_from_host(ctx, h->ndim, h->shape, h->d, h->data, NULL, USMARR_USM_DEVICE, &v));
    } else if (lay == LAYOUT_REVERSED) {
        unsigned char *buf = malloc((size_t)h->n * isz);
        for (int64_t i = 0; i < h->n; i++)
            memcpy(buf + i * isz, h->data + (h->n - 1 - i) * isz, isz);
        ck_assert_ok(usmarr_array_from_host(ctx, h->ndim, h->shape, h->d, buf, NULL, USMARR_USM_DEVICE, &a));
        int axes[USMARR_MAX_NDIM];
        for (int i = 0; i < h->ndim; i++)
            axes[i] = i;
        ck_assert_ok(usmarr_array_flip(a, h->ndim, axes, &v));
        free(buf);
    } else {
        int64_t big[USMARR_MAX_NDIM];
        memcpy(big, h->shape, sizeof(int64_t) * (size_t)h->ndim);
        big[h->ndim - 1] *= 2;
        unsigned char *buf = malloc((size_t)h->n * isz * 2);
        for (int64_t i = 0; i < h->n; i++) {
            memcpy(buf + 2 * i * isz, h->data + i * isz, isz);
            memset(buf + (2 * i + 1) * isz, 0x5a, isz);
        }
        ck_assert_ok(usmarr_array_from_host(ctx, h->ndim, big, h->d, buf, NULL, USMARR_USM_DEVICE, &a));
        ck_assert_ok(usmarr_array_getitem_text(a, "..., ::2", NULL, 0, NULL, &v));
        free(buf);
    }
    usmarr_array_release(a);
    if (bndim >= 0) {
        usmarr_array_t *b = NULL;
        ck_assert_ok(usmarr_array_broadcast_to(v, bndim, bshape, &b));
        usmarr_array_release(v);
        v = b;
    }
    return v;
}

static double half_to_double(uint16_t h)
{
    int e = (h >> 10) & 31, m = h & 1023;
    double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(m + 1024, e - 25);
    return h & 0x8000 ? -v : v;
}

/* Part k of element i as a double (floating dtypes). */
static double part_value(usmarr_dtype_t d, const unsigned char *p)
{
    size_t size = usmarr_dtype_size(d), part = usmarr_dtype_kind(d) == USMARR_KIND_COMPLEX ? size / 2 : size;
    if (part == 2) {
        uint16_t h;
        memcpy(&h, p, 2);
        return half_to_double(h);
    }
    if (part == 4) {
        float f;
        memcpy(&f, p, 4);
        return f;
    }
    double x;
    memcpy(&x, p, 8);
    return x;
}

static bool close_enough(double got, double want, double atol, double rtol)
{
    if (isnan(want) || isnan(got))
        return isnan(want) && isnan(got);
    if (isinf(want) || isinf(got))
        return got == want;
    return fabs(got - want) <= atol + rtol * fabs(want);
}

/* r against the "exp" line: dtype, shape and values (exactly, NaN == NaN and -0 == 0, or
 * within the block's tolerance). */
static void check_result(usmarr_array_t *r, const struct block *b, const char *what)
{
    struct host w;
    parse_array(b->exp, "exp", &w);
    ck_assert_msg(usmarr_array_dtype(r) == w.d, "%s: dtype %s, NumPy says %s", what,
                  usmarr_dtype_name(usmarr_array_dtype(r)), usmarr_dtype_name(w.d));
    ck_assert_msg(usmarr_array_ndim(r) == w.ndim, "%s: %d dims, NumPy says %d", what, usmarr_array_ndim(r), w.ndim);
    for (int i = 0; i < w.ndim; i++)
        ck_assert_msg(usmarr_array_shape(r)[i] == w.shape[i], "%s: extent %d is %lld, NumPy says %lld", what, i,
                      (long long)usmarr_array_shape(r)[i], (long long)w.shape[i]);
    size_t isz = usmarr_dtype_size(w.d);
    unsigned char *got = malloc((size_t)w.n * isz + 1);
    ck_assert_ok(usmarr_array_copy_to_host(r, got, NULL));
    usmarr_kind_t kind = usmarr_dtype_kind(w.d);
    bool flt = kind == USMARR_KIND_FLOAT || kind == USMARR_KIND_COMPLEX;
    size_t part = kind == USMARR_KIND_COMPLEX ? isz / 2 : isz;
    for (int64_t i = 0; i < w.n; i++) {
        const unsigned char *g = got + i * isz, *e = w.data + i * isz;
        if (!flt) {
            ck_assert_msg(!memcmp(g, e, isz), "%s: element %lld differs from NumPy's", what, (long long)i);
            continue;
        }
        for (size_t off = 0; off < isz; off += part) {
            double gv = part_value(w.d, g + off), ev = part_value(w.d, e + off);
            double atol = b->has_tol ? b->atol : 0, rtol = b->has_tol ? b->rtol : 0;
            ck_assert_msg(close_enough(gv, ev, atol, rtol), "%s: element %lld%s is %.17g, NumPy says %.17g", what,
                          (long long)i, off ? " (imaginary part)" : "", gv, ev);
        }
    }
    free(got);
    free(w.data);
}

/* The header's "NAME ... DTYPE NDIM SHAPE..." after the keyword; returns the rest. */
static char *parse_head(const struct block *b, const char *keyword, bool with_op, char *name, char *op,
                        struct host *h)
{
    char dname[16];
    int used;
    const char *p0 = b->head + strlen(keyword);
    if (with_op)
        ck_assert_int_eq(sscanf(p0, " %95s %15s %15s %d%n", name, op, dname, &h->ndim, &used), 4);
    else
        ck_assert_int_eq(sscanf(p0, " %95s %15s %d%n", name, dname, &h->ndim, &used), 3);
    h->d = case_dtype_named(dname);
    char *p = (char *)p0 + used;
    h->n = 1;
    for (int i = 0; i < h->ndim; i++)
        h->n *= h->shape[i] = strtoll(p, &p, 10);
    ck_assert_msg(b->in && !strncmp(b->in, "in ", 3), "%s: no \"in\" line", name);
    parse_elements(b->in + 3, h);
    return p;
}

static int parse_bcast(const struct block *b, int64_t *shape)
{
    if (!b->bcast)
        return -1;
    char *p = b->bcast + 6;
    int n = (int)strtol(p, &p, 10);
    for (int i = 0; i < n; i++)
        shape[i] = strtoll(p, &p, 10);
    return n;
}

/* An empty array of the "exp" line's dtype and shape, for the `out` runs. */
static usmarr_array_t *out_like(usmarr_context_t *ctx, const struct block *b)
{
    struct host w;
    parse_array(b->exp, "exp", &w);
    usmarr_array_t *o = NULL;
    ck_assert_ok(usmarr_array_empty(ctx, w.ndim, w.shape, w.d, USMARR_ORDER_C, USMARR_USM_DEVICE, &o));
    free(w.data);
    return o;
}

/* Runs `keyword`'s blocks through `run` (every layout; C also into out); the count. */
typedef int (*run_fn)(const struct block *b, const char *op, usmarr_array_t *x, char *rest, usmarr_array_t *out,
                      usmarr_array_t **r, int variant);
static int run_cases(const char *keyword, bool with_op, run_fn run)
{
    usmarr_context_t *ctx = test_context();
    FILE *f = fopen(cases_path(), "r");
    ck_assert_msg(f != NULL, "cannot open the NumPy oracle %s (make check generates it with $PYTHON_NUMPY "
                             "tests/gen/gen_stats_cases.py; set USMARR_STATS_CASES to run from elsewhere)", cases_path());
    struct block b;
    int cases = 0;
    while (read_block(f, keyword, &b)) {
        char name[96], op[16] = "";
        struct host h;
        char *rest = parse_head(&b, keyword, with_op, name, op, &h);
        struct host w;
        parse_array(b.exp, "exp", &w);
        free(w.data);
        if (test_dtype_skipped(ctx, h.d) || test_dtype_skipped(ctx, w.d)) {
            free(h.data);
            free_block(&b);
            continue;
        }
        int64_t bshape[USMARR_MAX_NDIM];
        int bndim = parse_bcast(&b, bshape);
        for (int lay = 0; lay < LAYOUT_COUNT; lay++) {
            char what[160];
            snprintf(what, sizeof what, "%s (%s layout)", name, layout_names[lay]);
            usmarr_array_t *x = make(ctx, &h, (enum layout)lay, bndim, bshape), *r = NULL;
            ck_assert_ok(run(&b, op, x, rest, NULL, &r, lay));
            check_result(r, &b, what);
            usmarr_array_release(r);
            if (lay == LAYOUT_C) { /* into out */
                usmarr_array_t *o = out_like(ctx, &b);
                r = NULL;
                ck_assert_ok(run(&b, op, x, rest, o, &r, lay));
                ck_assert_ptr_eq(r, o);
                usmarr_array_release(r);
                snprintf(what, sizeof what, "%s (into out)", name);
                check_result(o, &b, what);
                usmarr_array_release(o);
            }
            ck_assert_int_eq(usmarr_array_refcount(x), 1);
            usmarr_array_release(x);
        }
        free(h.data);
        free_block(&b);
        cases++;
    }
    fclose(f);
    usmarr_context_release(ctx);
    return cases;
}

/* rest: "NAXES AXES... KEEPDIMS"; variant 1 goes through usmarr_reduce(name, ...) */
static int run_red(const struct block *b, const char *op, usmarr_array_t *x, char *rest, usmarr_array_t *out,
                   usmarr_array_t **r, int variant)
{
    (void)b;
    int axes[USMARR_MAX_NDIM], naxes = (int)strtol(rest, &rest, 10);
    for (int i = 0; i < naxes; i++)
        axes[i] = (int)strtol(rest, &rest, 10);
    bool keep = strtol(rest, &rest, 10) != 0;
    const int *ax = naxes < 0 ? NULL : axes;
    if (variant == 1)
        return usmarr_reduce(op, x, naxes, ax, keep, out, r);
    if (!strcmp(op, "prod"))
        return usmarr_prod(x, naxes, ax, keep, out, r);
    return !strcmp(op, "logsumexp") ? usmarr_logsumexp(x, naxes, ax, keep, out, r)
                                    : usmarr_reduce_hypot(x, naxes, ax, keep, out, r);
}

/* rest: "AXIS INIT"; the named functions in the C layout, usmarr_cumulative() otherwise */
static int run_cum(const struct block *b, const char *op, usmarr_array_t *x, char *rest, usmarr_array_t *out,
                   usmarr_array_t **r, int variant)
{
    (void)b;
    while (*rest == ' ')
        rest++;
    int axis = 0;
    bool none = *rest == 'N';
    if (none)
        rest++;
    else
        axis = (int)strtol(rest, &rest, 10);
    bool init = strtol(rest, &rest, 10) != 0;
    const int *ap = none ? NULL : &axis;
    usmarr_cumulative_t c = !strcmp(op, "sum")    ? USMARR_CUMULATIVE_SUM
                            : !strcmp(op, "prod") ? USMARR_CUMULATIVE_PROD
                                                  : USMARR_CUMULATIVE_LOGSUMEXP;
    if (variant == LAYOUT_C) {
        if (c == USMARR_CUMULATIVE_SUM && !init)
            return usmarr_cumulative_sum(x, ap, out, r);
        if (c == USMARR_CUMULATIVE_PROD)
            return usmarr_cumulative_prod(x, ap, init, out, r);
        if (c == USMARR_CUMULATIVE_LOGSUMEXP)
            return usmarr_cumulative_logsumexp(x, ap, init, out, r);
    }
    return usmarr_cumulative(c, x, ap, init, out, r);
}

/* rest: "AXIS N"; prepend/append from the block */
static int run_diff(const struct block *b, const char *op, usmarr_array_t *x, char *rest, usmarr_array_t *out,
                    usmarr_array_t **r, int variant)
{
    (void)op;
    (void)variant;
    int axis = (int)strtol(rest, &rest, 10), n = (int)strtol(rest, &rest, 10);
    usmarr_context_t *ctx = usmarr_array_context(x);
    usmarr_array_t *pa[2] = {NULL, NULL};
    const char *lines[2] = {b->pre, b->app}, *tags[2] = {"pre", "app"};
    for (int i = 0; i < 2; i++)
        if (lines[i]) {
            struct host h;
            parse_array(lines[i], tags[i], &h);
            ck_assert_ok(usmarr_array_from_host(ctx, h.ndim, h.shape, h.d, h.data, NULL, USMARR_USM_DEVICE, &pa[i]));
            free(h.data);
        }
    int rc = usmarr_diff(x, axis, n, pa[0], pa[1], out, r);
    for (int i = 0; i < 2; i++)
        if (pa[i]) {
            ck_assert_int_eq(usmarr_array_refcount(pa[i]), 1);
            usmarr_array_release(pa[i]);
        }
    return rc;
}

START_TEST(test_logsumexp_and_reduce_hypot_match_numpy)
{
    ck_assert_int_gt(run_cases("red", true, run_red), test_case_floor(90));
}
END_TEST

START_TEST(test_cumulative_functions_match_numpy_with_include_initial)
{
    ck_assert_int_gt(run_cases("cum", true, run_cum), test_case_floor(100));
}
END_TEST

START_TEST(test_diff_matches_numpy_with_n_prepend_and_append)
{
    ck_assert_int_gt(run_cases("diff", false, run_diff), test_case_floor(40));
}
END_TEST

/* Past an overflow a complex product's infinities and NaNs depend on the order of the
 * products: NumPy's, and the CPU kernel shapes', multiply the elements in turn, each part
 * from two rounded products (never fused).  The gpu shape's trees and tiles multiply in
 * another order (doc/ops.md), so the cases force a CPU shape, which every device runs. */
START_TEST(test_complex_products_past_an_overflow_match_numpy_exactly)
{
    const char *saved = getenv("USMARR_KERNEL_SHAPE");
    char *keep = saved ? strdup(saved) : NULL;
    setenv("USMARR_KERNEL_SHAPE", "generic", 1);
    int reductions = run_cases("pred", true, run_red), scans = run_cases("pcum", true, run_cum);
    if (keep)
        setenv("USMARR_KERNEL_SHAPE", keep, 1);
    else
        unsetenv("USMARR_KERNEL_SHAPE");
    free(keep);
    ck_assert_int_ge(reductions, 5); /* 5 a dtype; the modes and a device without fp64 take one */
    ck_assert_int_ge(scans, 5);
}
END_TEST

START_TEST(test_stats2_functions_reject_bad_arguments)
{
    usmarr_context_t *ctx = test_context();
    float host[6] = {3, 1, 2, 5, 4, 0};
    int64_t shape[2] = {2, 3}, wide[2] = {2, 4}, col[2] = {3, 1}, two = 2;
    usmarr_array_t *x, *z, *c, *o, *oi, *ro, *p, *p1, *r = NULL;
    ck_assert_ok(usmarr_array_from_host(ctx, 2, shape, USMARR_FLOAT32, host, NULL, USMARR_USM_DEVICE, &x));
    ck_assert_ok(usmarr_array_from_host(ctx, 0, NULL, USMARR_FLOAT32, host, NULL, USMARR_USM_DEVICE, &z));
    ck_assert_ok(usmarr_array_empty(ctx, 2, shape, USMARR_COMPLEX64, USMARR_ORDER_C, USMARR_USM_DEVICE, &c));
    ck_assert_ok(usmarr_array_empty(ctx, 1, &two, USMARR_FLOAT32, USMARR_ORDER_C, USMARR_USM_DEVICE, &o));
    ck_assert_ok(usmarr_array_empty(ctx, 2, shape, USMARR_INT32, USMARR_ORDER_C, USMARR_USM_DEVICE, &oi));
    ck_assert_ok(usmarr_array_empty(ctx, 2, shape, USMARR_FLOAT32, USMARR_ORDER_C, USMARR_USM_DEVICE, &ro));
    ck_assert_ok(usmarr_array_make_read_only(ro));
    ck_assert_ok(usmarr_array_empty(ctx, 2, col, USMARR_FLOAT32, USMARR_ORDER_C, USMARR_USM_DEVICE, &p));
    ck_assert_ok(usmarr_array_empty(ctx, 1, &two, USMARR_FLOAT32, USMARR_ORDER_C, USMARR_USM_DEVICE, &p1));
    int ax1 = 1, ax2 = 2, ax0 = 0, axes[2] = {1, -1};
    /* logsumexp and reduce_hypot */
    ck_assert_fails_with(usmarr_logsumexp(NULL, 1, &ax1, false, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT,
                         "logsumexp: x is NULL");
    ck_assert_fails_with(usmarr_reduce_hypot(x, 1, &ax1, false, NULL, NULL), USMARR_ERROR_INVALID_ARGUMENT,
                         "reduce_hypot: result is NULL");
    ck_assert_fails_with(usmarr_logsumexp(x, 3, axes, false, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT,
                         "naxes=3 is outside [0, ndim=2]");
    ck_assert_fails_with(usmarr_logsumexp(x, 1, &ax2, false, NULL, &r), USMARR_ERROR_INDEX,
                         "axes[0]=2 is out of range for 2 dims");
    ck_assert_fails_with(usmarr_reduce_hypot(x, 2, axes, false, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT,
                         "axes[1]=-1 repeats an axis");
    ck_assert_fails_with(usmarr_logsumexp(c, 1, &ax1, false, NULL, &r), USMARR_ERROR_BAD_DTYPE,
                         "logsumexp: x is complex64; only real dtypes");
    ck_assert_fails_with(usmarr_reduce_hypot(c, 1, &ax1, false, NULL, &r), USMARR_ERROR_BAD_DTYPE, "complex64");
    ck_assert_fails_with(usmarr_logsumexp(x, 1, &ax0, false, o, NULL), USMARR_ERROR_SHAPE_MISMATCH,
                         "out has 1 dims and not the result's shape");
    ck_assert_fails_with(usmarr_reduce_hypot(x, 0, NULL, false, oi, NULL), USMARR_ERROR_SHAPE_MISMATCH, "out has");
    ck_assert_ok(usmarr_reduce_hypot(x, 1, &ax1, false, p1, &r)); /* the right out works */
    ck_assert_ptr_eq(r, p1);
    usmarr_array_release(r);
    r = NULL;
    usmarr_array_release(o);
    ck_assert_ok(usmarr_array_empty(ctx, 1, &two, USMARR_INT32, USMARR_ORDER_C, USMARR_USM_DEVICE, &o));
    ck_assert_fails_with(usmarr_logsumexp(x, 1, &ax1, false, o, NULL), USMARR_ERROR_CASTING,
                         "the float32 result cannot be cast to out's int32");
    usmarr_array_release(o);
    /* the cumulative functions */
    ck_assert_fails_with(usmarr_cumulative((usmarr_cumulative_t)7, x, &ax1, false, NULL, &r),
                         USMARR_ERROR_INVALID_ARGUMENT, "op=7 is not a usmarr_cumulative_t");
    ck_assert_fails_with(usmarr_cumulative((usmarr_cumulative_t)-1, x, &ax1, false, NULL, &r),
                         USMARR_ERROR_INVALID_ARGUMENT, "op=-1");
    ck_assert_fails_with(usmarr_cumulative_prod(NULL, &ax1, false, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT,
                         "cumulative_prod: x is NULL");
    ck_assert_fails_with(usmarr_cumulative_logsumexp(x, &ax1, true, NULL, NULL), USMARR_ERROR_INVALID_ARGUMENT,
                         "cumulative_logsumexp: result is NULL and there is no out");
    ck_assert_fails_with(usmarr_cumulative_sum(x, &ax2, NULL, &r), USMARR_ERROR_INDEX,
                         "cumulative_sum: axis=2 is out of range for 2 dims");
    ck_assert_fails_with(usmarr_cumulative(USMARR_CUMULATIVE_PROD, z, &ax0, false, NULL, &r), USMARR_ERROR_INDEX,
                         "axis=0 is out of range for 0 dims");
    ck_assert_fails_with(usmarr_cumulative_logsumexp(c, &ax1, false, NULL, &r), USMARR_ERROR_BAD_DTYPE,
                         "cumulative_logsumexp: x is complex64");
    /* include_initial: the result is (2, 4), not x's shape */
    ck_assert_fails_with(usmarr_cumulative_prod(x, &ax1, true, p, NULL), USMARR_ERROR_SHAPE_MISMATCH,
                         "cumulative_prod: out has 2 dims and not the result's shape");
    ck_assert_fails_with(usmarr_cumulative_prod(x, &ax1, false, oi, NULL), USMARR_ERROR_CASTING,
                         "cumulative_prod: the float32 result cannot be cast to out's int32");
    ck_assert_fails_with(usmarr_cumulative_logsumexp(x, &ax1, false, ro, NULL), USMARR_ERROR_READ_ONLY, "out");
    ck_assert_ok(usmarr_array_empty(ctx, 2, wide, USMARR_FLOAT32, USMARR_ORDER_C, USMARR_USM_DEVICE, &o));
    ck_assert_ok(usmarr_cumulative_prod(x, &ax1, true, o, NULL)); /* the right shape works */
    usmarr_array_release(o);
    /* diff */
    ck_assert_fails_with(usmarr_diff(NULL, 0, 1, NULL, NULL, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT,
                         "diff: x is NULL");
    ck_assert_fails_with(usmarr_diff(x, 0, 1, NULL, NULL, NULL, NULL), USMARR_ERROR_INVALID_ARGUMENT,
                         "diff: result is NULL");
    ck_assert_fails_with(usmarr_diff(z, 0, 1, NULL, NULL, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT,
                         "diff: x is 0-d");
    ck_assert_fails_with(usmarr_diff(x, 1, -1, NULL, NULL, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT,
                         "diff: n=-1 must be >= 0");
    ck_assert_fails_with(usmarr_diff(x, 2, 1, NULL, NULL, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT,
                         "diff: axis=2 is out of bounds for an array of dimension 2");
    ck_assert_fails_with(usmarr_diff(x, -3, 1, NULL, NULL, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT, "axis=-3");
    ck_assert_fails_with(usmarr_diff(x, 1, 1, p, NULL, NULL, &r), USMARR_ERROR_SHAPE_MISMATCH,
                         "diff: prepend of shape (3, 1) does not join x of shape (2, 3) along axis 1");
    ck_assert_fails_with(usmarr_diff(x, 1, 1, NULL, p1, NULL, &r), USMARR_ERROR_SHAPE_MISMATCH,
                         "append of shape (2,)");
    ck_assert_fails_with(usmarr_diff(x, 1, 1, NULL, NULL, p, NULL), USMARR_ERROR_SHAPE_MISMATCH,
                         "out has shape (3, 1), the result has shape (2, 2)");
    ck_assert_fails_with(usmarr_diff(x, 1, 0, NULL, NULL, oi, NULL), USMARR_ERROR_CASTING, "out has dtype int32");
    ck_assert_fails_with(usmarr_diff(x, 1, 0, NULL, NULL, ro, NULL), USMARR_ERROR_READ_ONLY, "out");
    ck_assert_ptr_null(r);
    /* nothing leaked, inputs unchanged */
    usmarr_array_t *arrays[] = {x, z, c, oi, ro, p, p1};
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++)
        ck_assert_int_eq(usmarr_array_refcount(arrays[i]), 1);
    float back[6];
    ck_assert_ok(usmarr_array_copy_to_host(x, back, NULL));
    ck_assert(!memcmp(back, host, sizeof host));
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++)
        usmarr_array_release(arrays[i]);
    usmarr_context_release(ctx);
}
END_TEST

Suite *suite_stats2(void);
Suite *suite_stats2(void)
{
    Suite *s = suite_create("stats2");
    const struct test_case_entry tests[] = {
        {"reductions", test_logsumexp_and_reduce_hypot_match_numpy},
        {"cumulative", test_cumulative_functions_match_numpy_with_include_initial},
        {"diff", test_diff_matches_numpy_with_n_prepend_and_append},
        {"products", test_complex_products_past_an_overflow_match_numpy_exactly},
        {"failures", test_stats2_functions_reject_bad_arguments},
    };
    test_add_cases(s, tests, sizeof tests / sizeof tests[0]);
    return s;
}
