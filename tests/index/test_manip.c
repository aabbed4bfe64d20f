/* Rearranging copies (concat, stack, roll, repeat, tile) and advanced indexing (take,
 * put, take_along_axis, extract, place, nonzero) against NumPy: the "mcase" entries of
 * tests/index_cases.txt (tests/gen/gen_index_cases.py).  Hand-written checks follow for what
 * the file cannot say: error details, out arrays, read-only targets, the device-side
 * raise, the pod-backed results. */
#include "../harness/common.h"

#include "../harness/case_file.h"

#include <stdio.h>
#include <stdlib.h>

#define MAX_CASES 512

static struct case_entry *cases;
static int ncases;

static void load_cases(void)
{
    if (!cases)
        cases = case_file_load("mcase", MAX_CASES, &ncases);
}

static void to_dtype(usmarr_dtype_t dt, double v, void *dst)
{
    switch (dt) {
    case USMARR_BOOL: *(uint8_t *)dst = v != 0; break;
    case USMARR_INT8: *(int8_t *)dst = (int8_t)v; break;
    case USMARR_INT16: *(int16_t *)dst = (int16_t)v; break;
    case USMARR_INT32: *(int32_t *)dst = (int32_t)v; break;
    case USMARR_INT64: *(int64_t *)dst = (int64_t)v; break;
    case USMARR_UINT8: *(uint8_t *)dst = (uint8_t)v; break;
    case USMARR_UINT16: *(uint16_t *)dst = (uint16_t)v; break;
    case USMARR_UINT32: *(uint32_t *)dst = (uint32_t)v; break;
    case USMARR_UINT64: *(uint64_t *)dst = (uint64_t)v; break;
    case USMARR_FLOAT32: *(float *)dst = (float)v; break;
    case USMARR_FLOAT64: *(double *)dst = v; break;
    default: ck_abort_msg("dtype %s not used by the cases", usmarr_dtype_name(dt));
    }
}

static double from_dtype(usmarr_dtype_t dt, const void *src)
{
    switch (dt) {
    case USMARR_BOOL: return *(const uint8_t *)src;
    case USMARR_INT8: return *(const int8_t *)src;
    case USMARR_INT16: return *(const int16_t *)src;
    case USMARR_INT32: return *(const int32_t *)src;
    case USMARR_INT64: return (double)*(const int64_t *)src;
    case USMARR_UINT8: return *(const uint8_t *)src;
    case USMARR_UINT16: return *(const uint16_t *)src;
    case USMARR_UINT32: return *(const uint32_t *)src;
    case USMARR_UINT64: return (double)*(const uint64_t *)src;
    case USMARR_FLOAT32: return *(const float *)src;
    case USMARR_FLOAT64: return *(const double *)src;
    default: ck_abort_msg("dtype %s not used by the cases", usmarr_dtype_name(dt));
    }
    return 0;
}

/* "input DTYPE NDIM SHAPE... N VALUES... | TEXT" */
static usmarr_array_t *make_input(usmarr_context_t *ctx, char *line)
{
    char *p = line + 6, name[32];
    int used;
    ck_assert_int_eq(sscanf(p, "%31s %n", name, &used), 1);
    p += used;
    usmarr_dtype_t dt = case_dtype_named(name);
    int nd = (int)strtol(p, &p, 10);
    int64_t shape[USMARR_MAX_NDIM];
    for (int k = 0; k < nd; k++)
        shape[k] = strtoll(p, &p, 10);
    int64_t n = strtoll(p, &p, 10);
    size_t isz = usmarr_dtype_size(dt);
    unsigned char *host = malloc((size_t)(n ? n : 1) * isz);
    for (int64_t i = 0; i < n; i++)
        to_dtype(dt, strtod(p, &p), host + i * isz);
    usmarr_array_t *base, *view;
    ck_assert_ok(usmarr_array_from_host(ctx, nd, shape, dt, host, NULL, USMARR_USM_DEVICE, &base));
    free(host);
    char *text = strchr(p, '|');
    ck_assert_ptr_nonnull(text);
    text += 1;
    while (*text == ' ')
        text++;
    if (!strcmp(text, "T"))
        ck_assert_ok(usmarr_array_transpose(base, &view));
    else
        ck_assert_ok(usmarr_array_index_text(base, text, &view));
    usmarr_array_release(base);
    return view;
}

static int axis_of(char **p)
{
    while (**p == ' ')
        (*p)++;
    if (!strncmp(*p, "none", 4)) {
        *p += 4;
        return USMARR_AXIS_NONE;
    }
    return (int)strtol(*p, p, 10);
}

static usmarr_index_mode_t mode_of(const char *p)
{
    while (*p == ' ')
        p++;
    return !strncmp(p, "wrap", 4) ? USMARR_INDEX_MODE_WRAP
           : !strncmp(p, "clip", 4) ? USMARR_INDEX_MODE_CLIP
                                    : USMARR_INDEX_MODE_RAISE;
}

/* Runs the op; results go to res[] (nres of them). */
static int run_op(char *line, usmarr_array_t **in, int nin, usmarr_array_t **res, int *nres)
{
    char *p = line + 3;
    *nres = 1;
    const usmarr_array_t *const *cin = (const usmarr_array_t *const *)in;
    if (!strncmp(p, "concat", 6)) {
        p += 6;
        return usmarr_concat(nin, cin, axis_of(&p), NULL, &res[0]);
    }
    if (!strncmp(p, "stack", 5)) {
        p += 5;
        return usmarr_stack(nin, cin, axis_of(&p), NULL, &res[0]);
    }
    if (!strncmp(p, "roll ", 5)) {
        p += 5;
        int n = (int)strtol(p, &p, 10);
        int64_t shifts[8];
        int axes[8];
        for (int i = 0; i < n; i++)
            shifts[i] = strtoll(p, &p, 10);
        while (*p == ' ')
            p++;
        bool none = !strncmp(p, "none", 4);
        for (int i = 0; i < n && !none; i++)
            axes[i] = (int)strtol(p, &p, 10);
        return usmarr_roll(in[0], n, shifts, none ? NULL : axes, NULL, &res[0]);
    }
    if (!strncmp(p, "repeat ", 7)) {
        p += 7;
        int n = (int)strtol(p, &p, 10);
        int64_t reps[16];
        for (int i = 0; i < n; i++)
            reps[i] = strtoll(p, &p, 10);
        return usmarr_repeat(in[0], n, reps, axis_of(&p), NULL, &res[0]);
    }
    if (!strncmp(p, "tile ", 5)) {
        p += 5;
        int n = (int)strtol(p, &p, 10);
        int64_t reps[16];
        for (int i = 0; i < n; i++)
            reps[i] = strtoll(p, &p, 10);
        return usmarr_tile(in[0], n, reps, NULL, &res[0]);
    }
    if (!strncmp(p, "take_along ", 11)) {
        p += 11;
        int axis = axis_of(&p);
        return usmarr_take_along_axis(in[0], in[1], axis, mode_of(p), NULL, &res[0]);
    }
    if (!strncmp(p, "take ", 5)) {
        p += 5;
        int axis = axis_of(&p);
        return usmarr_take(in[0], in[1], axis, mode_of(p), NULL, &res[0]);
    }
    if (!strncmp(p, "put ", 4)) {
        p += 4;
        int axis = axis_of(&p);
        int rc = usmarr_put(in[0], in[1], in[2], axis, mode_of(p));
        res[0] = usmarr_array_retain(in[0]);
        return rc;
    }
    if (!strncmp(p, "getitem ", 8))
        return usmarr_array_getitem_text(in[0], p + 8, cin + 1, (size_t)nin - 1, NULL, &res[0]);
    if (!strncmp(p, "setitem ", 8)) {
        int rc = usmarr_array_setitem_text(in[0], p + 8, cin + 1, (size_t)nin - 2, in[nin - 1]);
        res[0] = usmarr_array_retain(in[0]);
        return rc;
    }
    if (!strncmp(p, "put_along ", 10)) {
        p += 10;
        int axis = axis_of(&p);
        int rc = usmarr_put_along_axis(in[0], in[1], in[2], axis, mode_of(p));
        res[0] = usmarr_array_retain(in[0]);
        return rc;
    }
    if (!strcmp(p, "extract"))
        return usmarr_extract(in[0], in[1], &res[0]);
    if (!strcmp(p, "place")) {
        int rc = usmarr_place(in[0], in[1], in[2]);
        res[0] = usmarr_array_retain(in[0]);
        return rc;
    }
    if (!strcmp(p, "nonzero")) {
        *nres = usmarr_array_ndim(in[0]);
        return usmarr_nonzero(in[0], res);
    }
    ck_abort_msg("unknown op %s", line);
    return -1;
}

static int code_named(const char *name)
{
    static const int codes[] = {USMARR_ERROR_INDEX, USMARR_ERROR_INVALID_ARGUMENT, USMARR_ERROR_SHAPE_MISMATCH,
                                USMARR_ERROR_BAD_DTYPE, USMARR_ERROR_CASTING};
    char full[64];
    snprintf(full, sizeof full, "USMARR_ERROR_%s", name);
    for (size_t i = 0; i < sizeof codes / sizeof *codes; i++)
        if (!strcmp(usmarr_error_name(codes[i]), full))
            return codes[i];
    ck_abort_msg("unknown error %s", name);
    return 0;
}

/* "expect ok DTYPE NDIM SHAPE... N VALUES..." against `r`. */
static void check_result(const char *cname, const usmarr_array_t *r, char *line)
{
    char *p = line + 10, name[32];
    int used;
    ck_assert_int_eq(sscanf(p, "%31s %n", name, &used), 1);
    p += used;
    usmarr_dtype_t dt = case_dtype_named(name);
    ck_assert_msg(usmarr_array_dtype(r) == dt, "%s: dtype %s, NumPy %s", cname, usmarr_dtype_name(usmarr_array_dtype(r)),
                  name);
    int nd = (int)strtol(p, &p, 10);
    ck_assert_msg(usmarr_array_ndim(r) == nd, "%s: ndim %d, NumPy %d", cname, usmarr_array_ndim(r), nd);
    for (int k = 0; k < nd; k++) {
        int64_t e = strtoll(p, &p, 10);
        ck_assert_msg(usmarr_array_shape(r)[k] == e, "%s: shape[%d] %lld, NumPy %lld", cname, k,
                      (long long)usmarr_array_shape(r)[k], (long long)e);
    }
    int64_t n = strtoll(p, &p, 10);
    ck_assert_int_eq(usmarr_array_size(r), n);
    size_t isz = usmarr_dtype_size(dt);
    unsigned char *host = malloc((size_t)(n ? n : 1) * isz);
    ck_assert_ok(usmarr_array_copy_to_host(r, host, NULL));
    for (int64_t i = 0; i < n; i++) {
        double want = strtod(p, &p), got = from_dtype(dt, host + i * isz);
        ck_assert_msg(got == want, "%s: element %lld is %g, NumPy %g", cname, (long long)i, got, want);
    }
    free(host);
}

START_TEST(test_manip_numpy_cases)
{
    load_cases();
    ck_assert_msg(ncases > 0, "no mcase entries in %s (run tests/gen/gen_index_cases.py)", case_file_path());
    if (_i >= ncases)
        return;
    struct case_entry *c = &cases[_i];
    usmarr_context_t *ctx = test_shared_context();
    usmarr_array_t *in[8] = {NULL}, *res[USMARR_MAX_NDIM] = {NULL};
    int nin = 0, nres = 0, line = 0, rc;
    for (; line < c->nlines && !strncmp(c->lines[line], "input ", 6); line++)
        in[nin++] = make_input(ctx, c->lines[line]);
    ck_assert_msg(!strncmp(c->lines[line], "op ", 3), "%s: no op line", c->name);
    rc = run_op(c->lines[line++], in, nin, res, &nres);
    ck_assert_msg(line < c->nlines, "%s: no expectation", c->name);
    if (!strncmp(c->lines[line], "expect error ", 13)) {
        int want = code_named(c->lines[line] + 13);
        ck_assert_msg(rc == want, "%s: got %s (%s), NumPy fails (%s)", c->name, usmarr_error_name(rc),
                      usmarr_last_error_detail(), c->lines[line] + 13);
        if (!strncmp(c->lines[line - 1], "op put", 6)) {
            /* raise mode: nothing was written */
            ck_assert_ptr_nonnull(res[0]);
        }
    } else {
        ck_assert_msg(rc == 0, "%s: %s: %s", c->name, usmarr_error_name(rc), usmarr_last_error_detail());
        for (int i = 0; i < nres; i++, line++) {
            ck_assert_msg(line < c->nlines && !strncmp(c->lines[line], "expect ok ", 10), "%s: missing result %d",
                          c->name, i);
            check_result(c->name, res[i], c->lines[line]);
        }
    }
    for (int i = 0; i < nres; i++)
        usmarr_array_release(res[i]);
    for (int i = 0; i < nin; i++)
        usmarr_array_release(in[i]);
    usmarr_context_release(ctx);
}
END_TEST

/* ---- by hand ---------------------------------------------------------------------------- */

static usmarr_array_t *host_i32(usmarr_context_t *ctx, int nd, const int64_t *shape, const int32_t *values)
{
    usmarr_array_t *a;
    ck_assert_ok(usmarr_array_from_host(ctx, nd, shape, USMARR_INT32, values, NULL, USMARR_USM_DEVICE, &a));
    return a;
}

static usmarr_array_t *host_i64(usmarr_context_t *ctx, int64_t n, const int64_t *values)
{
    usmarr_array_t *a;
    ck_assert_ok(usmarr_array_from_host(ctx, 1, &n, USMARR_INT64, values, NULL, USMARR_USM_DEVICE, &a));
    return a;
}

START_TEST(test_manip_raise_is_found_on_device_and_put_writes_nothing)
{
    usmarr_context_t *ctx = test_context();
    int64_t s[1] = {6};
    int32_t vals[6] = {10, 11, 12, 13, 14, 15};
    usmarr_array_t *a = host_i32(ctx, 1, s, vals);
    /* Bad values at several places: every index but one is fine; the detail names 42. */
    int64_t idx[5] = {0, 5, -6, 42, 1};
    usmarr_array_t *ind = host_i64(ctx, 5, idx), *v, *r = NULL;
    int64_t s5[1] = {5};
    int32_t newvals[5] = {-1, -2, -3, -4, -5};
    v = host_i32(ctx, 1, s5, newvals);
    ck_assert_fails_with(usmarr_put(a, ind, v, 0, USMARR_INDEX_MODE_RAISE), USMARR_ERROR_INDEX,
                         "index 42 is out of bounds for axis 0 with size 6 (put: nothing was written)");
    int32_t back[6];
    ck_assert_ok(usmarr_array_copy_to_host(a, back, NULL));
    ck_assert_mem_eq(back, vals, sizeof vals);
    ck_assert_fails_with(usmarr_put(a, ind, v, USMARR_AXIS_NONE, USMARR_INDEX_MODE_RAISE), USMARR_ERROR_INDEX,
                         "index 42 is out of bounds");
    ck_assert_ok(usmarr_array_copy_to_host(a, back, NULL));
    ck_assert_mem_eq(back, vals, sizeof vals);
    ck_assert_fails_with(usmarr_take(a, ind, 0, USMARR_INDEX_MODE_RAISE, NULL, &r), USMARR_ERROR_INDEX,
                         "index 42 is out of bounds for axis 0 with size 6 (take)");
    ck_assert_ptr_null(r);
    /* Into the caller's out, raise checks first: out keeps its values. */
    usmarr_array_t *out5 = host_i32(ctx, 1, s5, newvals);
    ck_assert_fails_with(usmarr_take(a, ind, 0, USMARR_INDEX_MODE_RAISE, out5, NULL), USMARR_ERROR_INDEX,
                         "index 42 is out of bounds");
    int32_t o5[5];
    ck_assert_ok(usmarr_array_copy_to_host(out5, o5, NULL));
    ck_assert_mem_eq(o5, newvals, sizeof newvals);
    idx[3] = -1;
    usmarr_array_t *ind_ok = host_i64(ctx, 5, idx);
    ck_assert_ok(usmarr_take(a, ind_ok, 0, USMARR_INDEX_MODE_RAISE, out5, NULL));
    ck_assert_ok(usmarr_array_copy_to_host(out5, o5, NULL));
    const int32_t want5[5] = {10, 15, 10, 15, 11};
    ck_assert_mem_eq(o5, want5, sizeof want5);
    usmarr_array_release(ind_ok);
    usmarr_array_release(out5);
    /* Unsigned indices above INT64_MAX stay large. */
    uint64_t uidx[2] = {1, UINT64_MAX};
    int64_t two = 2;
    usmarr_array_t *uind;
    ck_assert_ok(usmarr_array_from_host(ctx, 1, &two, USMARR_UINT64, uidx, NULL, USMARR_USM_DEVICE, &uind));
    ck_assert_fails_with(usmarr_take(a, uind, 0, USMARR_INDEX_MODE_RAISE, NULL, &r), USMARR_ERROR_INDEX,
                         "index 18446744073709551615 is out of bounds");
    ck_assert_ok(usmarr_take(a, uind, 0, USMARR_INDEX_MODE_CLIP, NULL, &r));
    int32_t got[2];
    ck_assert_ok(usmarr_array_copy_to_host(r, got, NULL));
    ck_assert_int_eq(got[0], 11);
    ck_assert_int_eq(got[1], 15);
    usmarr_array_release(r);
    ck_assert_ok(usmarr_take(a, uind, 0, USMARR_INDEX_MODE_WRAP, NULL, &r)); /* UINT64_MAX % 6 == 3 */
    ck_assert_ok(usmarr_array_copy_to_host(r, got, NULL));
    ck_assert_int_eq(got[1], 13);
    usmarr_array_release(r);
    usmarr_array_release(uind);
    usmarr_array_release(v);
    usmarr_array_release(ind);
    usmarr_array_release(a);
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_manip_put_with_repeated_indices_keeps_the_last_value)
{
    /* NumPy's put keeps, of the values written to one element, the one whose index comes
     * last.  1M indices into 61 rows of a (61, 3) int32 array, every row written many
     * times all over the indices (many work-groups, a GPU's warps), in wrap mode with
     * negative indices, values their own positions; and a negatively strided view of a
     * 1-D array through the flat put.  Oracle: host loops in index order. */
    usmarr_context_t *ctx = test_context();
    enum { ROWS = 61, COLS = 3, N = 1 << 20 };
    int64_t *idx = malloc(sizeof(int64_t) * N);
    int32_t *vals = malloc(sizeof(int32_t) * N * COLS), want[ROWS * COLS], got[ROWS * COLS];
    for (int64_t i = 0; i < N; i++) {
        idx[i] = (int64_t)((i * 7919 + i / 4096) % (3 * ROWS)) - ROWS; /* [-61, 122): wrapped */
        for (int c = 0; c < COLS; c++)
            vals[i * COLS + c] = (int32_t)(i * COLS + c);
    }
    for (int k = 0; k < ROWS * COLS; k++)
        want[k] = -1;
    for (int64_t i = 0; i < N; i++) {
        int64_t row = ((idx[i] % ROWS) + ROWS) % ROWS;
        for (int c = 0; c < COLS; c++)
            want[row * COLS + c] = vals[i * COLS + c];
    }
    int64_t ashape[2] = {ROWS, COLS}, vshape[2] = {N, COLS};
    usmarr_array_t *a, *ind = host_i64(ctx, N, idx), *v = host_i32(ctx, 2, vshape, vals);
    ck_assert_ok(usmarr_array_full(ctx, 2, ashape, usmarr_scalar_int(-1), USMARR_INT32, USMARR_ORDER_C,
                                   USMARR_USM_DEVICE, &a));
    ck_assert_ok(usmarr_put(a, ind, v, 0, USMARR_INDEX_MODE_WRAP));
    ck_assert_ok(usmarr_array_copy_to_host(a, got, NULL));
    for (int k = 0; k < ROWS * COLS; k++)
        ck_assert_msg(got[k] == want[k], "put along axis 0: element (%d, %d) is %d, the last index's value %d",
                      k / COLS, k % COLS, got[k], want[k]);
    usmarr_array_release(a);
    usmarr_array_release(v);

    /* the flat put into a[::-1] of 61 elements, the values cycled (NumPy repeats them) */
    int64_t n1 = ROWS, nv = 1000;
    int32_t flat[ROWS], fwant[ROWS], fgot[ROWS];
    for (int k = 0; k < ROWS; k++)
        flat[k] = fwant[k] = -1;
    usmarr_array_t *base = host_i32(ctx, 1, &n1, flat), *rev, *vs = host_i32(ctx, 1, &nv, vals);
    usmarr_index_item_t back = usmarr_index_slice(NULL, NULL, &(int64_t){-1});
    ck_assert_ok(usmarr_array_index(base, &back, 1, &rev));
    ck_assert_ok(usmarr_put(rev, ind, vs, USMARR_AXIS_NONE, USMARR_INDEX_MODE_WRAP));
    for (int64_t i = 0; i < N; i++)
        fwant[ROWS - 1 - ((idx[i] % ROWS) + ROWS) % ROWS] = vals[i % nv];
    ck_assert_ok(usmarr_array_copy_to_host(base, fgot, NULL));
    for (int k = 0; k < ROWS; k++)
        ck_assert_msg(fgot[k] == fwant[k], "flat put into a[::-1]: element %d is %d, the last index's value %d", k,
                      fgot[k], fwant[k]);
    usmarr_array_release(rev);
    usmarr_array_release(base);
    usmarr_array_release(vs);
    usmarr_array_release(ind);
    free(vals);
    free(idx);
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_manip_out_arrays_and_argument_errors)
{
    usmarr_context_t *ctx = test_context();
    int64_t s23[2] = {2, 3}, s3[1] = {3}, s43[2] = {4, 3};
    int32_t v[6] = {1, 2, 3, 4, 5, 6};
    usmarr_array_t *a = host_i32(ctx, 2, s23, v), *b = host_i32(ctx, 2, s23, v), *r = NULL, *out;
    const usmarr_array_t *ab[2] = {a, b};
    /* out: a float64 (4, 3) array takes the int32 concat (same_kind casting). */
    ck_assert_ok(usmarr_array_zeros(ctx, 2, s43, USMARR_FLOAT64, USMARR_ORDER_F, USMARR_USM_DEVICE, &out));
    ck_assert_ok(usmarr_concat(2, ab, 0, out, NULL));
    double d[12];
    ck_assert_ok(usmarr_array_copy_to_host(out, d, NULL));
    for (int i = 0; i < 12; i++)
        ck_assert_double_eq(d[i], v[i % 6]);
    ck_assert_ok(usmarr_concat(2, ab, 0, out, &r));
    ck_assert_ptr_eq(r, out);
    usmarr_array_release(r);
    r = NULL;
    ck_assert_fails_with(usmarr_concat(2, ab, 1, out, &r), USMARR_ERROR_SHAPE_MISMATCH,
                         "out has shape (4, 3), the result has shape (2, 6)");
    usmarr_array_t *i8;
    ck_assert_ok(usmarr_array_zeros(ctx, 2, s43, USMARR_BOOL, USMARR_ORDER_C, USMARR_USM_DEVICE, &i8));
    ck_assert_fails_with(usmarr_concat(2, ab, 0, i8, &r), USMARR_ERROR_CASTING, "out has dtype bool");
    ck_assert_ok(usmarr_array_make_read_only(i8));
    ck_assert_fails_with(usmarr_stack(2, ab, 0, i8, &r), USMARR_ERROR_READ_ONLY, "out");
    ck_assert_fails_with(usmarr_concat(2, ab, 0, NULL, NULL), USMARR_ERROR_INVALID_ARGUMENT, "result");
    ck_assert_fails_with(usmarr_concat(0, ab, 0, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT, "count");
    const usmarr_array_t *anull[2] = {a, NULL};
    ck_assert_fails_with(usmarr_concat(2, anull, 0, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT, "arrays[1]");
    ck_assert_fails_with(usmarr_stack(2, anull, 0, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT, "arrays[1]");
    ck_assert_fails_with(usmarr_concat(2, ab, 0, NULL, NULL), USMARR_ERROR_INVALID_ARGUMENT, "result");
    int64_t shift = 1;
    int ax = 0;
    ck_assert_fails_with(usmarr_roll(NULL, 1, &shift, &ax, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT, "a is NULL");
    ck_assert_fails_with(usmarr_roll(a, 1, NULL, &ax, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT, "shifts");
    ck_assert_fails_with(usmarr_roll(a, 0, &shift, &ax, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT, "count=0");
    ck_assert_fails_with(usmarr_roll(a, 1, &shift, &ax, i8, &r), USMARR_ERROR_READ_ONLY, "out");
    ck_assert_fails_with(usmarr_repeat(NULL, 1, &shift, 0, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT, "a is NULL");
    ck_assert_fails_with(usmarr_repeat(a, 1, NULL, 0, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT, "repeats");
    ck_assert_fails_with(usmarr_repeat(a, 1, &shift, 2, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT, "axis=2");
    ck_assert_fails_with(usmarr_tile(NULL, 1, &shift, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT, "a is NULL");
    ck_assert_fails_with(usmarr_tile(a, 1, NULL, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT, "reps");
    ck_assert_fails_with(usmarr_tile(a, 65, &shift, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT, "nreps=65");
    ck_assert_fails_with(usmarr_tile(a, 1, &shift, out, &r), USMARR_ERROR_SHAPE_MISMATCH, "out has shape");
    /* tile and repeat into a strided out */
    usmarr_array_t *big, *bigv;
    int64_t s66[2] = {6, 6};
    ck_assert_ok(usmarr_array_zeros(ctx, 2, s66, USMARR_INT32, USMARR_ORDER_C, USMARR_USM_DEVICE, &big));
    ck_assert_ok(usmarr_array_index_text(big, "::-1, ::2", &bigv)); /* (6, 3) */
    int64_t reps[1] = {3};
    ck_assert_ok(usmarr_repeat(a, 1, reps, 0, bigv, NULL));
    int32_t g[36];
    ck_assert_ok(usmarr_array_copy_to_host(big, g, NULL));
    /* NumPy: z = zeros((6,6)); z[::-1, ::2] = repeat([[1,2,3],[4,5,6]], 3, 0) */
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < 6; j++)
            ck_assert_int_eq(g[i * 6 + j], j % 2 ? 0 : (5 - i) / 3 * 3 + j / 2 + 1);
    usmarr_array_release(bigv);
    usmarr_array_release(big);
    usmarr_array_release(i8);
    usmarr_array_release(out);
    /* take / put / take_along_axis argument errors */
    int64_t idx[2] = {0, 1};
    usmarr_array_t *ind = host_i64(ctx, 2, idx), *c3 = host_i32(ctx, 1, s3, v);
    ck_assert_fails_with(usmarr_take(NULL, ind, 0, USMARR_INDEX_MODE_RAISE, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT,
                         "a is NULL");
    ck_assert_fails_with(usmarr_take(a, NULL, 0, USMARR_INDEX_MODE_RAISE, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT,
                         "indices");
    ck_assert_fails_with(usmarr_take(a, ind, 0, (usmarr_index_mode_t)5, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT,
                         "mode=5");
    ck_assert_fails_with(usmarr_take(a, a, 0, USMARR_INDEX_MODE_RAISE, NULL, NULL), USMARR_ERROR_INVALID_ARGUMENT,
                         "result");
    ck_assert_fails_with(usmarr_take_along_axis(NULL, ind, 0, USMARR_INDEX_MODE_RAISE, NULL, &r),
                         USMARR_ERROR_INVALID_ARGUMENT, "a is NULL");
    ck_assert_fails_with(usmarr_take_along_axis(a, ind, 5, USMARR_INDEX_MODE_RAISE, NULL, &r),
                         USMARR_ERROR_INVALID_ARGUMENT, "axis=5");
    ck_assert_fails_with(usmarr_take_along_axis(a, a, USMARR_AXIS_NONE, USMARR_INDEX_MODE_RAISE, NULL, &r),
                         USMARR_ERROR_SHAPE_MISMATCH, "must be 1-d");
    ck_assert_fails_with(usmarr_put(NULL, ind, c3, 0, USMARR_INDEX_MODE_RAISE), USMARR_ERROR_INVALID_ARGUMENT,
                         "a is NULL");
    ck_assert_fails_with(usmarr_put(a, ind, NULL, 0, USMARR_INDEX_MODE_RAISE), USMARR_ERROR_INVALID_ARGUMENT,
                         "values");
    ck_assert_fails_with(usmarr_put(a, c3, c3, 0, (usmarr_index_mode_t)-1), USMARR_ERROR_INVALID_ARGUMENT, "mode=-1");
    ck_assert_fails_with(usmarr_put(a, ind, ind, 0, USMARR_INDEX_MODE_RAISE), USMARR_ERROR_SHAPE_MISMATCH,
                         "values of shape (2,) do not broadcast to the indexed shape (2, 3)");
    ck_assert_ok(usmarr_array_make_read_only(c3));
    ck_assert_fails_with(usmarr_put(c3, ind, c3, 0, USMARR_INDEX_MODE_RAISE), USMARR_ERROR_READ_ONLY, "a is a read-only");
    /* masks */
    ck_assert_fails_with(usmarr_extract(NULL, a, &r), USMARR_ERROR_INVALID_ARGUMENT, "condition");
    ck_assert_fails_with(usmarr_extract(a, a, NULL), USMARR_ERROR_INVALID_ARGUMENT, "result");
    ck_assert_fails_with(usmarr_extract(c3, a, &r), USMARR_ERROR_SHAPE_MISMATCH,
                         "condition of shape (3,) and a of shape (2, 3)");
    ck_assert_fails_with(usmarr_place(a, NULL, a), USMARR_ERROR_INVALID_ARGUMENT, "mask");
    ck_assert_fails_with(usmarr_place(c3, c3, c3), USMARR_ERROR_READ_ONLY, "a is a read-only");
    ck_assert_fails_with(usmarr_place(a, c3, c3), USMARR_ERROR_SHAPE_MISMATCH, "mask of shape (3,)");
    usmarr_array_t *rows[2];
    ck_assert_fails_with(usmarr_nonzero(NULL, rows), USMARR_ERROR_INVALID_ARGUMENT, "a is NULL");
    ck_assert_fails_with(usmarr_nonzero(a, NULL), USMARR_ERROR_INVALID_ARGUMENT, "indices");
    usmarr_array_t *zero_d;
    ck_assert_ok(usmarr_array_index_text(a, "0, 0", &zero_d));
    ck_assert_fails_with(usmarr_nonzero(zero_d, rows), USMARR_ERROR_INVALID_ARGUMENT, "0-d");
    ck_assert_ptr_null(r);
    usmarr_array_release(zero_d);
    usmarr_array_release(ind);
    usmarr_array_release(c3);
    usmarr_array_release(a);
    usmarr_array_release(b);
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_manip_out_sharing_memory_with_inputs_reads_inputs_first)
{
    usmarr_context_t *ctx = test_context();
    int64_t s8[1] = {8};
    int32_t v[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    usmarr_array_t *b = host_i32(ctx, 1, s8, v), *x, *y, *rev;
    ck_assert_ok(usmarr_array_index_text(b, ":4", &x));
    ck_assert_ok(usmarr_array_index_text(b, "4:", &y));
    ck_assert_ok(usmarr_array_index_text(b, "::-1", &rev));
    const usmarr_array_t *xy[2] = {x, y};
    /* NumPy: np.concatenate([b[:4], b[4:]], out=b[::-1]) leaves b == [7, 6, ..., 0] */
    ck_assert_ok(usmarr_concat(2, xy, 0, rev, NULL));
    int32_t got[8];
    ck_assert_ok(usmarr_array_copy_to_host(b, got, NULL));
    for (int i = 0; i < 8; i++)
        ck_assert_int_eq(got[i], 7 - i);
    /* In-place roll: np.roll(b, 3) written back into b. */
    int64_t shift = 3;
    usmarr_array_t *r = NULL;
    ck_assert_ok(usmarr_roll(b, 1, &shift, NULL, b, &r));
    ck_assert_ptr_eq(r, b);
    usmarr_array_release(r);
    ck_assert_ok(usmarr_array_copy_to_host(b, got, NULL));
    const int32_t rolled[8] = {2, 1, 0, 7, 6, 5, 4, 3};
    ck_assert_mem_eq(got, rolled, sizeof rolled);
    /* take into its own source: b[:] = b.take([7, 6, ..., 0]) */
    int64_t idx[8] = {7, 6, 5, 4, 3, 2, 1, 0};
    usmarr_array_t *ind = host_i64(ctx, 8, idx);
    ck_assert_ok(usmarr_take(b, ind, 0, USMARR_INDEX_MODE_RAISE, b, NULL));
    ck_assert_ok(usmarr_array_copy_to_host(b, got, NULL));
    for (int i = 0; i < 8; i++)
        ck_assert_int_eq(got[i], rolled[7 - i]);
    usmarr_array_release(ind);
    usmarr_array_release(x);
    usmarr_array_release(y);
    usmarr_array_release(rev);
    usmarr_array_release(b);
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_manip_other_context_is_rejected)
{
    usmarr_context_t *c1 = test_context(), *c2 = test_context();
    int64_t s[1] = {3};
    int32_t v[3] = {1, 2, 3};
    usmarr_array_t *a = host_i32(c1, 1, s, v), *b = host_i32(c2, 1, s, v), *r = NULL;
    const usmarr_array_t *ab[2] = {a, b};
    ck_assert_fails_with(usmarr_concat(2, ab, 0, NULL, &r), USMARR_ERROR_CONTEXT_MISMATCH, "arrays[1]");
    ck_assert_fails_with(usmarr_stack(2, ab, 0, NULL, &r), USMARR_ERROR_CONTEXT_MISMATCH, "arrays[1]");
    int64_t idx[1] = {0};
    usmarr_array_t *ind;
    ck_assert_ok(usmarr_array_from_host(c2, 1, idx, USMARR_INT64, idx, NULL, USMARR_USM_DEVICE, &ind));
    ck_assert_fails_with(usmarr_take(a, ind, 0, USMARR_INDEX_MODE_WRAP, NULL, &r), USMARR_ERROR_CONTEXT_MISMATCH,
                         "indices");
    ck_assert_fails_with(usmarr_put(a, ind, a, 0, USMARR_INDEX_MODE_WRAP), USMARR_ERROR_CONTEXT_MISMATCH, "indices");
    ck_assert_fails_with(usmarr_extract(b, a, &r), USMARR_ERROR_CONTEXT_MISMATCH, "condition");
    ck_assert_fails_with(usmarr_place(a, b, a), USMARR_ERROR_CONTEXT_MISMATCH, "mask");
    ck_assert_fails_with(usmarr_tile(a, 1, idx, b, &r), USMARR_ERROR_CONTEXT_MISMATCH, "out");
    ck_assert_ptr_null(r);
    usmarr_array_release(ind);
    usmarr_array_release(a);
    usmarr_array_release(b);
    usmarr_context_release(c1);
    usmarr_context_release(c2);
}
END_TEST

START_TEST(test_manip_extract_and_nonzero_results_live_in_finalized_pod_blocks)
{
    usmarr_context_t *ctx = test_context();
    int64_t s[2] = {3, 4};
    int32_t v[12] = {0, 5, 0, 7, 1, 0, 0, 0, 9, 9, 0, 2};
    usmarr_array_t *a = host_i32(ctx, 2, s, v), *e, *rows[2];
    ck_assert_ok(usmarr_extract(a, a, &e));
    ck_assert_int_eq(usmarr_memory_pod_state(usmarr_array_memory(e)), USMARR_POD_FINALIZED);
    ck_assert_uint_eq(usmarr_memory_size(usmarr_array_memory(e)), 6 * 4); /* trimmed */
    ck_assert_int_eq(usmarr_memory_refcount(usmarr_array_memory(e)), 1);
    ck_assert_ok(usmarr_nonzero(a, rows));
    usmarr_memory_t *m = usmarr_array_memory(rows[0]);
    ck_assert_ptr_eq(usmarr_array_memory(rows[1]), m);
    ck_assert_int_eq(usmarr_memory_pod_state(m), USMARR_POD_FINALIZED);
    ck_assert_uint_eq(usmarr_memory_size(m), 2 * 6 * 8);
    int64_t r0[6], r1[6];
    ck_assert_ok(usmarr_array_copy_to_host(rows[0], r0, NULL));
    ck_assert_ok(usmarr_array_copy_to_host(rows[1], r1, NULL));
    const int64_t w0[6] = {0, 0, 1, 2, 2, 2}, w1[6] = {1, 3, 0, 0, 1, 3};
    ck_assert_mem_eq(r0, w0, sizeof w0);
    ck_assert_mem_eq(r1, w1, sizeof w1);
    /* The block cannot be grown any more. */
    size_t b = 0, en = 0;
    ck_assert_fails_with(usmarr_memory_pod_allocate(m, 8, 8, &b, &en), USMARR_ERROR_BAD_STATE, "finalized");
    usmarr_array_release(rows[0]);
    usmarr_array_release(rows[1]);
    usmarr_array_release(e);
    usmarr_array_release(a);
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_manip_complex128_and_float16_move_bit_exact)
{
    usmarr_context_t *ctx = test_context();
    if (!usmarr_context_info(ctx)->fp64) {
        usmarr_context_release(ctx);
        return;
    }
    double z[8] = {1, -1, 2, -2, 3, -3, 4, -4}; /* 4 complex128 */
    int64_t n = 4, idx[3] = {3, 0, -1};
    usmarr_array_t *a, *ind = host_i64(ctx, 3, idx), *r, *rows[1];
    ck_assert_ok(usmarr_array_from_host(ctx, 1, &n, USMARR_COMPLEX128, z, NULL, USMARR_USM_DEVICE, &a));
    ck_assert_ok(usmarr_take(a, ind, 0, USMARR_INDEX_MODE_RAISE, NULL, &r));
    double got[6];
    ck_assert_ok(usmarr_array_copy_to_host(r, got, NULL));
    const double want[6] = {4, -4, 1, -1, 4, -4};
    ck_assert_mem_eq(got, want, sizeof want);
    usmarr_array_release(r);
    ck_assert_ok(usmarr_extract(a, a, &r)); /* complex non-zero is true */
    ck_assert_int_eq(usmarr_array_size(r), 4);
    usmarr_array_release(r);
    ck_assert_ok(usmarr_nonzero(a, rows));
    ck_assert_int_eq(usmarr_array_size(rows[0]), 4);
    usmarr_array_release(rows[0]);
    int64_t reps = 2;
    ck_assert_ok(usmarr_tile(a, 1, &reps, NULL, &r));
    double t[16];
    ck_assert_ok(usmarr_array_copy_to_host(r, t, NULL));
    ck_assert_mem_eq(t + 8, z, sizeof z);
    usmarr_array_release(r);
    usmarr_array_release(a);
    usmarr_array_release(ind);
    usmarr_context_release(ctx);
}
END_TEST

/* take along axis 0 of long rows (runs of 512 elements a work-item, non-temporal stores for
 * results beyond the caches), against a host loop: row lengths with and without a tail of
 * the 16-vectors and of the run, float32 and int8 (16-vectors of other widths), negative
 * and repeated indices in every mode, and a bad index in the same pass. */
START_TEST(test_manip_take_long_rows_against_host_loop)
{
    usmarr_context_t *ctx = test_context();
    static const int64_t lens[] = {256, 700, 1000, 2048};
    static const int64_t rows[] = {40, 40, 40, 1100}; /* 1100 x 2048 float32: 8.6 MiB */
    static const usmarr_dtype_t dts[] = {USMARR_FLOAT32, USMARR_INT8};
    for (int t = 0; t < 2; t++) {
        size_t isz = usmarr_dtype_size(dts[t]);
        for (int i = 0; i < 4; i++) {
            int64_t n = 37, len = lens[i], m = rows[i], shape[2] = {n, len};
            unsigned char *src = malloc((size_t)(n * len) * isz), *got = malloc((size_t)(m * len) * isz);
            for (int64_t q = 0; q < n * len * (int64_t)isz; q++)
                src[q] = (unsigned char)(q * 31 + q / 977);
            int64_t *idx = malloc((size_t)m * sizeof *idx);
            for (int64_t e = 0; e < m; e++)
                idx[e] = (e * 11) % (2 * n) - n; /* [-n, n): negative ones count from the end */
            usmarr_array_t *a, *ind = host_i64(ctx, m, idx), *r;
            ck_assert_ok(usmarr_array_from_host(ctx, 2, shape, dts[t], src, NULL, USMARR_USM_DEVICE, &a));
            for (int mode = 0; mode < 3; mode++) {
                ck_assert_ok(usmarr_take(a, ind, 0, (usmarr_index_mode_t)mode, NULL, &r));
                ck_assert_ok(usmarr_array_copy_to_host(r, got, NULL));
                int64_t bad = -1;
                for (int64_t e = 0; e < m && bad < 0; e++) {
                    int64_t v = idx[e];
                    int64_t row = mode == USMARR_INDEX_MODE_CLIP ? (v < 0 ? 0 : v) : (v + n) % n;
                    if (memcmp(got + e * len * (int64_t)isz, src + row * len * (int64_t)isz, (size_t)len * isz))
                        bad = e;
                }
                ck_assert_msg(bad < 0, "%s rows of %lld, mode %d: row %lld differs", usmarr_dtype_name(dts[t]),
                              (long long)len, mode, (long long)bad);
                usmarr_array_release(r);
            }
            idx[m - 3] = n; /* one past the end */
            usmarr_array_t *ind_bad = host_i64(ctx, m, idx);
            ck_assert_fails_with(usmarr_take(a, ind_bad, 0, USMARR_INDEX_MODE_RAISE, NULL, &r), USMARR_ERROR_INDEX,
                                 "index 37 is out of bounds for axis 0 with size 37 (take)");
            usmarr_array_release(ind_bad);
            usmarr_array_release(ind);
            usmarr_array_release(a);
            free(src);
            free(got);
            free(idx);
        }
    }
    usmarr_context_release(ctx);
}
END_TEST

Suite *suite_manip(void)
{
    load_cases();
    Suite *s = suite_create("manip");
    TCase *tc = tcase_create("numpy");
    tcase_add_loop_test(tc, test_manip_numpy_cases, 0, ncases > 0 ? ncases : 1);
    suite_add_tcase(s, tc);
    tc = tcase_create("behaviour");
    tcase_add_test(tc, test_manip_raise_is_found_on_device_and_put_writes_nothing);
    tcase_add_test(tc, test_manip_put_with_repeated_indices_keeps_the_last_value);
    tcase_add_test(tc, test_manip_out_arrays_and_argument_errors);
    tcase_add_test(tc, test_manip_out_sharing_memory_with_inputs_reads_inputs_first);
    tcase_add_test(tc, test_manip_other_context_is_rejected);
    tcase_add_test(tc, test_manip_extract_and_nonzero_results_live_in_finalized_pod_blocks);
    tcase_add_test(tc, test_manip_complex128_and_float16_move_bit_exact);
    tcase_add_test(tc, test_manip_take_long_rows_against_host_loop);
    suite_add_tcase(s, tc);
    return s;
}
