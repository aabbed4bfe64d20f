/* Views and view manipulation against NumPy (tests/index_cases.txt, written by
 * tests/gen/gen_index_cases.py), plus the behaviours NumPy cannot express in that file. */
#include "../harness/common.h"

#include "../harness/case_file.h"

#include <stdio.h>
#include <stdlib.h>

/* ---- the NumPy cases ------------------------------------------------------------------ */

#define MAX_CASES 1024

static struct case_entry *cases;
static int ncases;

static void load_cases(void)
{
    if (!cases)
        cases = case_file_load("case", MAX_CASES, &ncases);
}

/* Reads n int64 from *p. */
static void read_ints(char **p, int n, int64_t *out)
{
    for (int i = 0; i < n; i++)
        out[i] = strtoll(*p, p, 10);
}

static int read_int(char **p) { return (int)strtol(*p, p, 10); }

static int code_from_name(const char *name)
{
    static const int codes[] = {USMARR_ERROR_INDEX, USMARR_ERROR_INVALID_ARGUMENT, USMARR_ERROR_SHAPE_MISMATCH,
                                USMARR_ERROR_PARSE, USMARR_ERROR_BAD_STATE};
    char full[64];
    snprintf(full, sizeof full, "USMARR_ERROR_%s", name);
    for (size_t i = 0; i < sizeof codes / sizeof *codes; i++)
        if (!strcmp(usmarr_error_name(codes[i]), full))
            return codes[i];
    ck_abort_msg("unknown error name %s", name);
    return 0;
}

/* Applies one "op ..." line. */
static int apply_op(usmarr_array_t *a, char *line, usmarr_array_t **out)
{
    char *p = line + 3;
    int64_t shape[USMARR_MAX_NDIM];
    int axes[USMARR_MAX_NDIM], axes2[USMARR_MAX_NDIM];
    if (!strncmp(p, "index ", 6))
        return usmarr_array_index_text(a, p + 6, out);
    if (!strncmp(p, "index", 5))
        return usmarr_array_index_text(a, "", out);
    if (!strncmp(p, "reshape ", 8)) {
        char order = p[8];
        p += 9;
        int nd = read_int(&p);
        read_ints(&p, nd, shape);
        return usmarr_array_reshape(a, nd, shape, (usmarr_order_t)order, USMARR_COPY_IF_NEEDED, out);
    }
    if (!strncmp(p, "broadcast ", 10)) {
        p += 10;
        int nd = read_int(&p);
        read_ints(&p, nd, shape);
        return usmarr_array_broadcast_to(a, nd, shape, out);
    }
    if (!strncmp(p, "swapaxes ", 9)) {
        p += 9;
        int a1 = read_int(&p), a2 = read_int(&p);
        return usmarr_array_swapaxes(a, a1, a2, out);
    }
    char word[16];
    int used = 0;
    ck_assert_int_eq(sscanf(p, "%15s %n", word, &used), 1);
    p += used;
    int n = read_int(&p);
    for (int i = 0; i < n; i++)
        axes[i] = read_int(&p);
    if (!strcmp(word, "moveaxis")) {
        for (int i = 0; i < n; i++)
            axes2[i] = read_int(&p);
        return usmarr_array_moveaxis(a, n, axes, axes2, out);
    }
    if (!strcmp(word, "permute"))
        return n < 0 ? usmarr_array_transpose(a, out) : usmarr_array_permute_dims(a, axes, out);
    if (!strcmp(word, "expand"))
        return usmarr_array_expand_dims(a, n, axes, out);
    if (!strcmp(word, "squeeze"))
        return usmarr_array_squeeze(a, n < 0 ? 0 : n, n < 0 ? NULL : axes, out);
    if (!strcmp(word, "flip"))
        return usmarr_array_flip(a, n < 0 ? 0 : n, n < 0 ? NULL : axes, out);
    ck_abort_msg("unknown op line %s", line);
    return -1;
}

/* The elements of `a` in C order, gathered on the host from a copy of its whole block
 * (so the check does not rely on any library copy path). */
static int32_t *gather(const usmarr_array_t *a, int64_t *count)
{
    usmarr_memory_t *m = usmarr_array_memory(a);
    size_t bytes = usmarr_memory_size(m);
    int32_t *block = malloc(bytes ? bytes : 4);
    if (bytes)
        ck_assert_ok(usmarr_memory_copy_to_host(m, 0, block, bytes));
    int nd = usmarr_array_ndim(a);
    const int64_t *shape = usmarr_array_shape(a), *strides = usmarr_array_strides(a);
    int64_t n = usmarr_array_size(a);
    int32_t *vals = malloc((size_t)(n ? n : 1) * 4);
    int64_t idx[USMARR_MAX_NDIM] = {0};
    for (int64_t e = 0; e < n; e++) {
        int64_t pos = usmarr_array_offset(a);
        for (int k = 0; k < nd; k++)
            pos += idx[k] * strides[k];
        ck_assert_msg(pos >= 0 && (size_t)(pos + 1) * 4 <= bytes, "element %lld at %lld outside the block",
                      (long long)e, (long long)pos);
        vals[e] = block[pos];
        for (int k = nd - 1; k >= 0; k--) {
            if (++idx[k] < shape[k])
                break;
            idx[k] = 0;
        }
    }
    free(block);
    *count = n;
    return vals;
}

START_TEST(test_view_numpy_cases)
{
    load_cases();
    ck_assert_msg(ncases > 0, "no cases read from %s (run tests/gen/gen_index_cases.py)", case_file_path());
    if (_i >= ncases)
        return;
    struct case_entry *c = &cases[_i];
    usmarr_context_t *ctx = test_shared_context();
    char *p = c->lines[0];
    ck_assert_msg(!strncmp(p, "base ", 5), "%s: no base line", c->name);
    p += 5;
    int nd = read_int(&p);
    int64_t shape[USMARR_MAX_NDIM], strides[USMARR_MAX_NDIM];
    read_ints(&p, nd, shape);
    read_ints(&p, nd, strides);
    int64_t offset, block;
    read_ints(&p, 1, &offset);
    read_ints(&p, 1, &block);
    int writable = read_int(&p);
    usmarr_memory_t *m;
    ck_assert_ok(usmarr_memory_create(ctx, USMARR_USM_DEVICE, (size_t)block * 4, 0, &m));
    int32_t *host = malloc((size_t)block * 4);
    for (int64_t i = 0; i < block; i++)
        host[i] = (int32_t)i;
    ck_assert_ok(usmarr_memory_copy_from_host(m, 0, host, (size_t)block * 4));
    free(host);
    usmarr_array_options_t o = USMARR_ARRAY_OPTIONS_INIT;
    o.context = ctx;
    o.ndim = nd;
    o.shape = shape;
    o.strides = strides;
    o.offset = offset;
    o.dtype = USMARR_INT32;
    o.buffer = USMARR_BUFFER_MEMORY;
    o.memory = m;
    o.read_only = !writable;
    usmarr_array_t *a;
    ck_assert_ok(usmarr_array_create(&o, &a));
    int rc = 0;
    int line = 1;
    for (; line < c->nlines && !strncmp(c->lines[line], "op ", 3); line++) {
        usmarr_array_t *next = NULL;
        rc = apply_op(a, c->lines[line], &next);
        if (rc) {
            ck_assert_ptr_null(next);
            break;
        }
        usmarr_array_release(a);
        a = next;
    }
    if (rc)
        line++; /* the expect line follows the failing op's line... */
    while (line < c->nlines && strncmp(c->lines[line], "expect ", 7))
        line++;
    ck_assert_msg(line < c->nlines, "%s: no expect line", c->name);
    p = c->lines[line] + 7;
    if (!strncmp(p, "error ", 6)) {
        int want = code_from_name(p + 6);
        ck_assert_msg(rc == want, "%s: got %s (%s), NumPy fails with %s", c->name, usmarr_error_name(rc),
                      usmarr_last_error_detail(), p + 6);
        ck_assert_msg(strlen(usmarr_last_error_detail()) > 0, "%s: no detail", c->name);
        usmarr_array_release(a);
        usmarr_memory_release(m);
        usmarr_context_release(ctx);
        return;
    }
    ck_assert_msg(rc == 0, "%s: failed with %s: %s; NumPy succeeds", c->name, usmarr_error_name(rc),
                  usmarr_last_error_detail());
    p += 3;
    int rnd = read_int(&p);
    int64_t rshape[USMARR_MAX_NDIM], rstrides[USMARR_MAX_NDIM], roffset;
    read_ints(&p, rnd, rshape);
    read_ints(&p, rnd, rstrides);
    read_ints(&p, 1, &roffset);
    int cflag = read_int(&p), fflag = read_int(&p), wflag = read_int(&p), shares = read_int(&p);
    int64_t nvals;
    read_ints(&p, 1, &nvals);
    ck_assert_msg(usmarr_array_ndim(a) == rnd, "%s: ndim %d, NumPy %d", c->name, usmarr_array_ndim(a), rnd);
    for (int k = 0; k < rnd; k++) {
        ck_assert_msg(usmarr_array_shape(a)[k] == rshape[k], "%s: shape[%d] %lld, NumPy %lld", c->name, k,
                      (long long)usmarr_array_shape(a)[k], (long long)rshape[k]);
        if (rshape[k] > 1 && nvals > 0)
            ck_assert_msg(usmarr_array_strides(a)[k] == rstrides[k], "%s: strides[%d] %lld, NumPy %lld", c->name, k,
                          (long long)usmarr_array_strides(a)[k], (long long)rstrides[k]);
    }
    unsigned flags = usmarr_array_flags(a);
    ck_assert_msg(!!(flags & USMARR_FLAG_C_CONTIGUOUS) == cflag, "%s: C-contiguous %d, NumPy %d", c->name,
                  !!(flags & USMARR_FLAG_C_CONTIGUOUS), cflag);
    ck_assert_msg(!!(flags & USMARR_FLAG_F_CONTIGUOUS) == fflag, "%s: F-contiguous %d, NumPy %d", c->name,
                  !!(flags & USMARR_FLAG_F_CONTIGUOUS), fflag);
    ck_assert_msg(!!(flags & USMARR_FLAG_WRITABLE) == wflag, "%s: writable %d, NumPy %d", c->name,
                  !!(flags & USMARR_FLAG_WRITABLE), wflag);
    if (shares >= 0) {
        bool same_block = usmarr_memory_pointer(usmarr_array_memory(a)) == usmarr_memory_pointer(m);
        ck_assert_msg(same_block == (shares == 1), "%s: %s, NumPy %s", c->name, same_block ? "a view" : "a copy",
                      shares ? "a view" : "a copy");
        if (shares == 1)
            ck_assert_msg(usmarr_array_offset(a) == roffset, "%s: offset %lld, NumPy %lld", c->name,
                          (long long)usmarr_array_offset(a), (long long)roffset);
    }
    int64_t n;
    int32_t *vals = gather(a, &n);
    ck_assert_msg(n == nvals, "%s: %lld elements, NumPy %lld", c->name, (long long)n, (long long)nvals);
    for (int64_t i = 0; i < n; i++) {
        int64_t want;
        read_ints(&p, 1, &want);
        ck_assert_msg(vals[i] == want, "%s: element %lld is %d, NumPy %lld", c->name, (long long)i, vals[i],
                      (long long)want);
    }
    free(vals);
    usmarr_array_release(a);
    usmarr_memory_release(m);
    usmarr_context_release(ctx);
}
END_TEST

/* ---- behaviours checked by hand ----------------------------------------------------------- */

static usmarr_array_t *arange_i32(usmarr_context_t *ctx, int nd, const int64_t *shape)
{
    int64_t n = 1;
    for (int k = 0; k < nd; k++)
        n *= shape[k];
    usmarr_memory_t *m;
    ck_assert_ok(usmarr_memory_create(ctx, USMARR_USM_DEVICE, (size_t)(n ? n : 1) * 4, 0, &m));
    int32_t *host = malloc((size_t)(n ? n : 1) * 4);
    for (int64_t i = 0; i < n; i++)
        host[i] = (int32_t)i;
    ck_assert_ok(usmarr_memory_copy_from_host(m, 0, host, (size_t)n * 4));
    free(host);
    usmarr_array_options_t o = USMARR_ARRAY_OPTIONS_INIT;
    o.context = ctx;
    o.ndim = nd;
    o.shape = shape;
    o.dtype = USMARR_INT32;
    o.buffer = USMARR_BUFFER_MEMORY;
    o.memory = m;
    usmarr_array_t *a;
    ck_assert_ok(usmarr_array_create(&o, &a));
    usmarr_memory_release(m);
    return a;
}

START_TEST(test_view_shares_block_and_write_through_view_is_seen_in_base)
{
    usmarr_context_t *ctx = test_context();
    int64_t shape[2] = {4, 5};
    usmarr_array_t *a = arange_i32(ctx, 2, shape), *v1, *v2, *v3;
    int refs = usmarr_memory_refcount(usmarr_array_memory(a));
    ck_assert_ok(usmarr_array_index_text(a, "::-1, 1:", &v1));       /* (4, 4) */
    ck_assert_ok(usmarr_array_index_text(v1, "1:3, ::2", &v2));      /* (2, 2) rows 2,1 cols 1,3 */
    ck_assert_ok(usmarr_array_index_text(v2, "-1, None, ...", &v3)); /* (1, 2): row 1, cols 1,3 */
    ck_assert_ptr_eq(usmarr_array_memory(v3), usmarr_array_memory(a));
    ck_assert_int_eq(usmarr_memory_refcount(usmarr_array_memory(a)), refs + 3);
    /* Write through a 0-d view of the third view: v3[0, 1] is a[1, 3] (NumPy), position 8. */
    usmarr_array_t *v4;
    ck_assert_ok(usmarr_array_index_text(v3, "0, 1", &v4));
    ck_assert_int_eq(usmarr_array_ndim(v4), 0);
    int32_t v = -77;
    ck_assert_ok(usmarr_array_copy_from_host(v4, &v, NULL));
    usmarr_array_release(v4);
    int32_t back[20];
    ck_assert_ok(usmarr_memory_copy_to_host(usmarr_array_memory(a), 0, back, sizeof back));
    for (int i = 0; i < 20; i++)
        ck_assert_int_eq(back[i], i == 8 ? -77 : i);
    /* The base outlives nothing: releasing it first keeps the block alive for the views. */
    usmarr_array_release(a);
    usmarr_array_release(v1);
    usmarr_array_release(v2);
    ck_assert_int_eq(usmarr_memory_refcount(usmarr_array_memory(v3)), 1);
    usmarr_array_release(v3);
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_view_real_imag_double_strides_in_real_units)
{
    usmarr_context_t *ctx = test_context();
    /* complex64 (3, 4), then a strided, reversed view of it. */
    float host[24 * 2];
    for (int i = 0; i < 24; i++) {
        host[2 * i] = (float)i;
        host[2 * i + 1] = (float)(100 + i);
    }
    usmarr_memory_t *m;
    ck_assert_ok(usmarr_memory_create(ctx, USMARR_USM_DEVICE, sizeof host, 0, &m));
    ck_assert_ok(usmarr_memory_copy_from_host(m, 0, host, sizeof host));
    int64_t shape[2] = {4, 6};
    usmarr_array_options_t o = USMARR_ARRAY_OPTIONS_INIT;
    o.context = ctx;
    o.ndim = 2;
    o.shape = shape;
    o.dtype = USMARR_COMPLEX64;
    o.buffer = USMARR_BUFFER_MEMORY;
    o.memory = m;
    usmarr_array_t *a, *v, *re, *im;
    ck_assert_ok(usmarr_array_create(&o, &a));
    ck_assert_ok(usmarr_array_index_text(a, "1:, ::-2", &v)); /* (3, 3), strides (6, -2), offset 11 */
    ck_assert_ok(usmarr_array_real(v, &re));
    ck_assert_ok(usmarr_array_imag(v, &im));
    ck_assert_int_eq(usmarr_array_dtype(re), USMARR_FLOAT32);
    ck_assert_int_eq(usmarr_array_dtype(im), USMARR_FLOAT32);
    ck_assert_int_eq(usmarr_array_strides(re)[0], 12);
    ck_assert_int_eq(usmarr_array_strides(re)[1], -4);
    ck_assert_int_eq(usmarr_array_offset(re), 22);
    ck_assert_int_eq(usmarr_array_offset(im), 23);
    ck_assert_ptr_eq(usmarr_array_memory(re), m);
    ck_assert_uint_eq(usmarr_array_flags(re) & (USMARR_FLAG_C_CONTIGUOUS | USMARR_FLAG_F_CONTIGUOUS), 0);
    /* Host oracle: NumPy's a[1:, ::-2].real[i, j] is element (1+i, 5-2j)'s real part. */
    float block[48];
    ck_assert_ok(usmarr_memory_copy_to_host(m, 0, block, sizeof block));
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            int e = (1 + i) * 6 + (5 - 2 * j);
            ck_assert_float_eq(block[usmarr_array_offset(re) + i * 12 - j * 4], (float)e);
            ck_assert_float_eq(block[usmarr_array_offset(im) + i * 12 - j * 4], (float)(100 + e));
        }
    /* A contiguous complex128 row gives real parts with stride 2. */
    usmarr_array_release(re);
    usmarr_array_release(im);
    /* Read-only survives. */
    ck_assert_ok(usmarr_array_make_read_only(v));
    ck_assert_ok(usmarr_array_imag(v, &im));
    ck_assert_uint_eq(usmarr_array_flags(im) & USMARR_FLAG_WRITABLE, 0);
    usmarr_array_release(im);
    /* Real arrays: real is a view of the array, imag new read-only zeros. */
    int64_t s1[1] = {5};
    usmarr_array_t *r = arange_i32(ctx, 1, s1);
    ck_assert_ok(usmarr_array_real(r, &re));
    ck_assert_ptr_eq(usmarr_array_memory(re), usmarr_array_memory(r));
    ck_assert_int_eq(usmarr_array_dtype(re), USMARR_INT32);
    ck_assert_ok(usmarr_array_imag(r, &im));
    ck_assert_ptr_ne(usmarr_array_memory(im), usmarr_array_memory(r));
    ck_assert_uint_eq(usmarr_array_flags(im) & USMARR_FLAG_WRITABLE, 0);
    int32_t zeros[5] = {1, 1, 1, 1, 1};
    ck_assert_ok(usmarr_memory_copy_to_host(usmarr_array_memory(im), 0, zeros, sizeof zeros));
    for (int i = 0; i < 5; i++)
        ck_assert_int_eq(zeros[i], 0);
    usmarr_array_release(re);
    usmarr_array_release(im);
    usmarr_array_release(r);
    ck_assert_fails_with(usmarr_array_real(NULL, &re), USMARR_ERROR_INVALID_ARGUMENT, "array");
    ck_assert_fails_with(usmarr_array_imag(v, NULL), USMARR_ERROR_INVALID_ARGUMENT, "view");
    usmarr_array_release(v);
    usmarr_array_release(a);
    usmarr_memory_release(m);
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_view_broadcast_arrays_common_shape_and_errors_name_shapes)
{
    usmarr_context_t *ctx = test_context();
    int64_t s1[2] = {3, 1}, s2[1] = {4}, s3[2] = {3, 4}, s4[2] = {2, 4};
    usmarr_array_t *a = arange_i32(ctx, 2, s1), *b = arange_i32(ctx, 1, s2), *c = arange_i32(ctx, 2, s3);
    usmarr_array_t *d = arange_i32(ctx, 2, s4);
    const usmarr_array_t *in[3] = {a, b, c};
    usmarr_array_t *out[3] = {NULL, NULL, NULL};
    ck_assert_ok(usmarr_broadcast_arrays(3, in, out));
    for (int i = 0; i < 3; i++) {
        ck_assert_int_eq(usmarr_array_ndim(out[i]), 2);
        ck_assert_int_eq(usmarr_array_shape(out[i])[0], 3);
        ck_assert_int_eq(usmarr_array_shape(out[i])[1], 4);
        ck_assert_ptr_eq(usmarr_array_memory(out[i]), usmarr_array_memory(in[i]));
    }
    ck_assert_int_eq(usmarr_array_strides(out[0])[1], 0);
    ck_assert_int_eq(usmarr_array_strides(out[1])[0], 0);
    ck_assert_int_eq(usmarr_array_strides(out[1])[1], 1);
    /* Stretched views are read-only; the one that did not change keeps its access. */
    ck_assert_uint_eq(usmarr_array_flags(out[0]) & USMARR_FLAG_WRITABLE, 0);
    ck_assert_uint_eq(usmarr_array_flags(out[1]) & USMARR_FLAG_WRITABLE, 0);
    ck_assert_uint_ne(usmarr_array_flags(out[2]) & USMARR_FLAG_WRITABLE, 0);
    for (int i = 0; i < 3; i++)
        usmarr_array_release(out[i]);
    int nd;
    int64_t shape[USMARR_MAX_NDIM];
    ck_assert_ok(usmarr_broadcast_shapes(2, in, &nd, shape));
    ck_assert_int_eq(nd, 2);
    ck_assert_int_eq(shape[0], 3);
    ck_assert_int_eq(shape[1], 4);
    const usmarr_array_t *bad[3] = {a, c, d};
    out[0] = out[1] = out[2] = NULL;
    ck_assert_fails_with(usmarr_broadcast_arrays(3, bad, out), USMARR_ERROR_SHAPE_MISMATCH,
                         "arrays[0] of shape (3, 1) and arrays[2] of shape (2, 4) do not broadcast");
    ck_assert_ptr_null(out[0]);
    ck_assert_ptr_null(out[1]);
    ck_assert_fails_with(usmarr_broadcast_arrays(0, bad, out), USMARR_ERROR_INVALID_ARGUMENT, "count");
    ck_assert_fails_with(usmarr_broadcast_arrays(3, bad, NULL), USMARR_ERROR_INVALID_ARGUMENT, "views");
    const usmarr_array_t *with_null[2] = {a, NULL};
    ck_assert_fails_with(usmarr_broadcast_arrays(2, with_null, out), USMARR_ERROR_INVALID_ARGUMENT, "arrays[1]");
    ck_assert_fails_with(usmarr_broadcast_shapes(2, in, NULL, shape), USMARR_ERROR_INVALID_ARGUMENT, "ndim");
    ck_assert_fails_with(usmarr_broadcast_shapes(2, in, &nd, NULL), USMARR_ERROR_INVALID_ARGUMENT, "shape");
    ck_assert_fails_with(usmarr_broadcast_shapes(2, NULL, &nd, shape), USMARR_ERROR_INVALID_ARGUMENT, "arrays");
    usmarr_array_release(a);
    usmarr_array_release(b);
    usmarr_array_release(c);
    usmarr_array_release(d);
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_view_manipulation_errors_name_argument_and_shapes)
{
    usmarr_context_t *ctx = test_context();
    int64_t s[3] = {2, 3, 4};
    usmarr_array_t *a = arange_i32(ctx, 3, s), *v = NULL;
    int64_t to[2] = {4, 5}, bad[2] = {-1, -1}, neg[2] = {-3, 8};
    int axes[3] = {0, 1, 1}, dst[2] = {0, 1};
    /* reshape */
    ck_assert_fails_with(usmarr_array_reshape(a, 2, to, USMARR_ORDER_C, USMARR_COPY_IF_NEEDED, &v),
                         USMARR_ERROR_SHAPE_MISMATCH,
                         "cannot reshape an array of shape (2, 3, 4) (size 24) into shape (4, 5)");
    ck_assert_fails_with(usmarr_array_reshape(a, 2, bad, USMARR_ORDER_C, USMARR_COPY_IF_NEEDED, &v),
                         USMARR_ERROR_INVALID_ARGUMENT, "only one unknown dimension");
    ck_assert_fails_with(usmarr_array_reshape(a, 2, neg, USMARR_ORDER_C, USMARR_COPY_IF_NEEDED, &v),
                         USMARR_ERROR_INVALID_ARGUMENT, "shape[0]=-3 is negative");
    ck_assert_fails_with(usmarr_array_reshape(a, 2, to, USMARR_ORDER_K, USMARR_COPY_IF_NEEDED, &v),
                         USMARR_ERROR_INVALID_ARGUMENT, "order='K'");
    ck_assert_fails_with(usmarr_array_reshape(a, 2, to, USMARR_ORDER_C, (usmarr_copy_mode_t)9, &v),
                         USMARR_ERROR_INVALID_ARGUMENT, "copy=9");
    ck_assert_fails_with(usmarr_array_reshape(a, 65, to, USMARR_ORDER_C, USMARR_COPY_IF_NEEDED, &v),
                         USMARR_ERROR_INVALID_ARGUMENT, "ndim=65");
    ck_assert_fails_with(usmarr_array_reshape(a, 2, NULL, USMARR_ORDER_C, USMARR_COPY_IF_NEEDED, &v),
                         USMARR_ERROR_INVALID_ARGUMENT, "shape is NULL");
    ck_assert_fails_with(usmarr_array_reshape(NULL, 2, to, USMARR_ORDER_C, USMARR_COPY_IF_NEEDED, &v),
                         USMARR_ERROR_INVALID_ARGUMENT, "array");
    ck_assert_fails_with(usmarr_array_reshape(a, 2, to, USMARR_ORDER_C, USMARR_COPY_IF_NEEDED, NULL),
                         USMARR_ERROR_INVALID_ARGUMENT, "result");
    usmarr_array_t *t;
    ck_assert_ok(usmarr_array_transpose(a, &t));
    int64_t flat[1] = {-1};
    ck_assert_fails_with(usmarr_array_reshape(t, 1, flat, USMARR_ORDER_C, USMARR_COPY_NEVER, &v),
                         USMARR_ERROR_BAD_STATE, "needs a copy");
    /* ... while a view is fine with COPY_NEVER and COPY_ALWAYS never shares. */
    ck_assert_ok(usmarr_array_reshape(t, 1, flat, USMARR_ORDER_F, USMARR_COPY_NEVER, &v));
    ck_assert_ptr_eq(usmarr_array_memory(v), usmarr_array_memory(a));
    usmarr_array_release(v);
    usmarr_array_release(t);
    v = NULL;
    /* permute, swapaxes, moveaxis */
    ck_assert_fails_with(usmarr_array_permute_dims(a, axes, &v), USMARR_ERROR_INVALID_ARGUMENT,
                         "axes[2]=1 repeats axis 1");
    axes[2] = 3;
    ck_assert_fails_with(usmarr_array_permute_dims(a, axes, &v), USMARR_ERROR_INVALID_ARGUMENT,
                         "axes[2]=3 is out of bounds for an array of dimension 3");
    ck_assert_fails_with(usmarr_array_permute_dims(NULL, axes, &v), USMARR_ERROR_INVALID_ARGUMENT, "array");
    ck_assert_fails_with(usmarr_array_transpose(a, NULL), USMARR_ERROR_INVALID_ARGUMENT, "view");
    ck_assert_fails_with(usmarr_array_swapaxes(a, -4, 0, &v), USMARR_ERROR_INVALID_ARGUMENT, "axis1=-4");
    ck_assert_fails_with(usmarr_array_swapaxes(a, 0, 3, &v), USMARR_ERROR_INVALID_ARGUMENT, "axis2=3");
    ck_assert_fails_with(usmarr_array_swapaxes(NULL, 0, 1, &v), USMARR_ERROR_INVALID_ARGUMENT, "array");
    ck_assert_fails_with(usmarr_array_moveaxis(a, 2, axes, NULL, &v), USMARR_ERROR_INVALID_ARGUMENT,
                         "destination is NULL");
    ck_assert_fails_with(usmarr_array_moveaxis(a, 4, axes, dst, &v), USMARR_ERROR_INVALID_ARGUMENT, "count=4");
    ck_assert_fails_with(usmarr_array_moveaxis(a, -1, axes, dst, &v), USMARR_ERROR_INVALID_ARGUMENT, "count=-1");
    int src_bad[2] = {0, 5};
    ck_assert_fails_with(usmarr_array_moveaxis(a, 2, src_bad, dst, &v), USMARR_ERROR_INVALID_ARGUMENT, "source[1]=5");
    ck_assert_fails_with(usmarr_array_moveaxis(NULL, 2, src_bad, dst, &v), USMARR_ERROR_INVALID_ARGUMENT, "array");
    /* expand_dims, squeeze, flip */
    int e[2] = {0, 0};
    ck_assert_fails_with(usmarr_array_expand_dims(a, 2, e, &v), USMARR_ERROR_INVALID_ARGUMENT, "repeats");
    e[1] = 5;
    ck_assert_fails_with(usmarr_array_expand_dims(a, 2, e, &v), USMARR_ERROR_INVALID_ARGUMENT,
                         "axes[1]=5 is out of bounds for an array of dimension 5");
    ck_assert_fails_with(usmarr_array_expand_dims(a, 62, e, &v), USMARR_ERROR_INVALID_ARGUMENT, "count=62");
    ck_assert_fails_with(usmarr_array_expand_dims(a, 1, NULL, &v), USMARR_ERROR_INVALID_ARGUMENT, "axes is NULL");
    ck_assert_fails_with(usmarr_array_expand_dims(NULL, 1, e, &v), USMARR_ERROR_INVALID_ARGUMENT, "array");
    int sq[1] = {1};
    ck_assert_fails_with(usmarr_array_squeeze(a, 1, sq, &v), USMARR_ERROR_INVALID_ARGUMENT,
                         "cannot squeeze axis 1 of extent 3");
    ck_assert_fails_with(usmarr_array_squeeze(a, 4, sq, &v), USMARR_ERROR_INVALID_ARGUMENT, "count=4");
    ck_assert_fails_with(usmarr_array_squeeze(NULL, 0, NULL, &v), USMARR_ERROR_INVALID_ARGUMENT, "array");
    int fl[2] = {-1, 2};
    ck_assert_fails_with(usmarr_array_flip(a, 2, fl, &v), USMARR_ERROR_INVALID_ARGUMENT, "repeats axis 2");
    ck_assert_fails_with(usmarr_array_flip(a, 0, NULL, NULL), USMARR_ERROR_INVALID_ARGUMENT, "view");
    /* broadcast_to */
    int64_t b1[2] = {3, 4}, b2[3] = {2, -1, 4};
    ck_assert_fails_with(usmarr_array_broadcast_to(a, 2, b1, &v), USMARR_ERROR_SHAPE_MISMATCH,
                         "cannot broadcast an array of shape (2, 3, 4) to shape (3, 4)");
    ck_assert_fails_with(usmarr_array_broadcast_to(a, 3, b2, &v), USMARR_ERROR_INVALID_ARGUMENT,
                         "shape[1]=-1 is negative");
    ck_assert_fails_with(usmarr_array_broadcast_to(a, -1, b2, &v), USMARR_ERROR_INVALID_ARGUMENT, "ndim=-1");
    ck_assert_fails_with(usmarr_array_broadcast_to(a, 2, NULL, &v), USMARR_ERROR_INVALID_ARGUMENT, "shape is NULL");
    ck_assert_fails_with(usmarr_array_broadcast_to(NULL, 2, b1, &v), USMARR_ERROR_INVALID_ARGUMENT, "array");
    ck_assert_ptr_null(v);
    usmarr_array_release(a);
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_view_flags_recomputed_and_64_dims)
{
    usmarr_context_t *ctx = test_context();
    int64_t s[2] = {3, 4};
    usmarr_array_t *a = arange_i32(ctx, 2, s), *v, *w;
    ck_assert_ok(usmarr_array_index_text(a, "1", &v)); /* a row: C and F contiguous (1-D) */
    ck_assert_uint_eq(usmarr_array_flags(v) & 3u, 3u);
    usmarr_array_release(v);
    ck_assert_ok(usmarr_array_index_text(a, ":, 1", &v)); /* a column: neither */
    ck_assert_uint_eq(usmarr_array_flags(v) & 3u, 0u);
    usmarr_array_release(v);
    ck_assert_ok(usmarr_array_transpose(a, &v)); /* F only */
    ck_assert_uint_eq(usmarr_array_flags(v) & 3u, (unsigned)USMARR_FLAG_F_CONTIGUOUS);
    usmarr_array_release(v);
    /* 62 new axes fit, 63 do not. */
    int axes[USMARR_MAX_NDIM];
    for (int i = 0; i < USMARR_MAX_NDIM; i++)
        axes[i] = i;
    ck_assert_ok(usmarr_array_expand_dims(a, USMARR_MAX_NDIM - 2, axes, &v));
    ck_assert_int_eq(usmarr_array_ndim(v), USMARR_MAX_NDIM);
    ck_assert_ok(usmarr_array_index_text(v, "..., ::-1, 1:", &w));
    ck_assert_int_eq(usmarr_array_ndim(w), USMARR_MAX_NDIM);
    usmarr_array_release(w);
    ck_assert_fails_with(usmarr_array_index_text(v, "None, ...", &w), USMARR_ERROR_INVALID_ARGUMENT,
                         "more than USMARR_MAX_NDIM=64");
    ck_assert_ok(usmarr_array_squeeze(v, 0, NULL, &w));
    ck_assert_int_eq(usmarr_array_ndim(w), 2);
    usmarr_array_release(w);
    usmarr_array_release(v);
    usmarr_array_release(a);
    usmarr_context_release(ctx);
}
END_TEST

Suite *suite_view(void)
{
    load_cases();
    Suite *s = suite_create("view");
    TCase *tc = tcase_create("numpy");
    tcase_add_loop_test(tc, test_view_numpy_cases, 0, ncases > 0 ? ncases : 1);
    suite_add_tcase(s, tc);
    tc = tcase_create("views");
    tcase_add_test(tc, test_view_shares_block_and_write_through_view_is_seen_in_base);
    tcase_add_test(tc, test_view_real_imag_double_strides_in_real_units);
    tcase_add_test(tc, test_view_broadcast_arrays_common_shape_and_errors_name_shapes);
    tcase_add_test(tc, test_view_manipulation_errors_name_argument_and_shapes);
    tcase_add_test(tc, test_view_flags_recomputed_and_64_dims);
    suite_add_tcase(s, tc);
    return s;
}
