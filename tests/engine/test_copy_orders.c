/* Copies where order matters (an overlapping source, the orders of new arrays), NaN and
 * out-of-range float-to-int casts, fills of strided views, and the copy functions'
 * failures: the rest of the copy suite (test_copy.c), against host oracles. */
#include "copy_blocks.h"

/* ---- overlap ---------------------------------------------------------------------------- */

static void fill_iota_i32(usmarr_memory_t *m, int n, int32_t *h)
{
    for (int i = 0; i < n; i++)
        h[i] = i * 10 + 1;
    ck_assert_ok(usmarr_memory_copy_from_host(m, 0, h, (size_t)n * 4));
}

START_TEST(test_copy_overlapping_source_is_read_first)
{
    usmarr_context_t *ctx = test_context();
    enum { N = 1000 };
    int32_t h[N], got[N];
    usmarr_memory_t *m;
    ck_assert_ok(usmarr_memory_create(ctx, USMARR_USM_DEVICE, N * 4, 0, &m));
    /* a[1:] = a[:-1] and a[:-1] = a[1:] */
    for (int dir = 0; dir < 2; dir++) {
        fill_iota_i32(m, N, h);
        struct layout lo = {.ndim = 1, .shape = {N - 1}, .strides = {1}, .offset = 0};
        struct layout hi = {.ndim = 1, .shape = {N - 1}, .strides = {1}, .offset = 1};
        usmarr_array_t *dst = array_on(m, USMARR_INT32, dir ? &lo : &hi), *src = array_on(m, USMARR_INT32, dir ? &hi : &lo);
        ck_assert_ok(usmarr_array_copy_into(dst, src));
        ck_assert_ok(usmarr_memory_copy_to_host(m, 0, got, N * 4));
        int bad = 0;
        for (int i = 0; i < N - 1; i++)
            bad += got[dir ? i : i + 1] != h[dir ? i + 1 : i];
        ck_assert_int_eq(bad, 0);
        usmarr_array_release(dst);
        usmarr_array_release(src);
    }
    /* In-place transpose of a square: a[...] = a.T */
    fill_iota_i32(m, 900, h);
    struct layout c = {.ndim = 2, .shape = {30, 30}, .strides = {30, 1}};
    struct layout t = {.ndim = 2, .shape = {30, 30}, .strides = {1, 30}};
    usmarr_array_t *a = array_on(m, USMARR_INT32, &c), *at = array_on(m, USMARR_INT32, &t);
    ck_assert_ok(usmarr_array_copy_into(a, at));
    ck_assert_ok(usmarr_memory_copy_to_host(m, 0, got, 900 * 4));
    int bad = 0;
    for (int i = 0; i < 30; i++)
        for (int j = 0; j < 30; j++)
            bad += got[i * 30 + j] != h[j * 30 + i];
    ck_assert_int_eq(bad, 0);
    /* Reversal in place: a[::-1] = a */
    fill_iota_i32(m, N, h);
    struct layout fwd = {.ndim = 1, .shape = {N}, .strides = {1}};
    struct layout rev = {.ndim = 1, .shape = {N}, .strides = {-1}, .offset = N - 1};
    usmarr_array_t *f = array_on(m, USMARR_INT32, &fwd), *r = array_on(m, USMARR_INT32, &rev);
    ck_assert_ok(usmarr_array_copy_into(r, f));
    ck_assert_ok(usmarr_memory_copy_to_host(m, 0, got, N * 4));
    for (int i = 0; i < N; i++)
        bad += got[i] != h[N - 1 - i];
    ck_assert_int_eq(bad, 0);
    /* Interleaved but disjoint: a[::2] = a[1::2] (no element shared). */
    fill_iota_i32(m, N, h);
    struct layout even = {.ndim = 1, .shape = {N / 2}, .strides = {2}, .offset = 0};
    struct layout odd = {.ndim = 1, .shape = {N / 2}, .strides = {2}, .offset = 1};
    usmarr_array_t *ev = array_on(m, USMARR_INT32, &even), *od = array_on(m, USMARR_INT32, &odd);
    ck_assert_ok(usmarr_array_copy_into(ev, od));
    ck_assert_ok(usmarr_memory_copy_to_host(m, 0, got, N * 4));
    for (int i = 0; i < N; i++)
        bad += got[i] != h[i % 2 ? i : i + 1];
    ck_assert_int_eq(bad, 0);
    /* A cast between overlapping views of one block: float32 view <- int32 view shifted. */
    fill_iota_i32(m, N, h);
    struct layout shifted = {.ndim = 1, .shape = {N - 3}, .strides = {1}, .offset = 3};
    struct layout base = {.ndim = 1, .shape = {N - 3}, .strides = {1}, .offset = 0};
    usmarr_array_t *fv = array_on(m, USMARR_FLOAT32, &base), *iv = array_on(m, USMARR_INT32, &shifted);
    ck_assert_ok(usmarr_array_copy_into(fv, iv));
    float gotf[N];
    ck_assert_ok(usmarr_memory_copy_to_host(m, 0, gotf, N * 4));
    for (int i = 0; i < N - 3; i++)
        bad += gotf[i] != (float)h[i + 3];
    ck_assert_int_eq(bad, 0);
    usmarr_array_release(fv);
    usmarr_array_release(iv);
    usmarr_array_release(ev);
    usmarr_array_release(od);
    usmarr_array_release(f);
    usmarr_array_release(r);
    usmarr_array_release(a);
    usmarr_array_release(at);
    usmarr_memory_release(m);
    usmarr_context_release(ctx);
}
END_TEST

/* ---- new arrays: orders --------------------------------------------------------------- */

/* Order K as NumPy 2 keeps the input's memory order: the strides of np.copy(x, order="K")
 * (in elements) for views x of float32 blocks (the views as NumPy made them). */
START_TEST(test_copy_order_k_keeps_memory_order_as_numpy)
{
    usmarr_context_t *ctx = test_context();
    static const struct {
        int ndim;
        int64_t shape[5], strides[5], want[5];
    } cases[] = {
        /* (3, 1, 5, 4, 3) transposed (2, 0, 4, 1, 3): a size-1 axis among the others */
        {5, {5, 3, 3, 1, 4}, {12, 60, 1, 60, 3}, {12, 60, 1, 60, 3}},
        {3, {3, 1, 4}, {4, 0, 1}, {4, 4, 1}},    /* x[:, None, :]: C-contiguous, so C */
        {3, {4, 1, 3}, {1, 0, 4}, {1, 4, 4}},    /* x.T[:, None, :]: F-contiguous, so F */
        {2, {3, 4}, {0, 1}, {1, 3}},             /* a broadcast row */
        {2, {3, 2}, {-4, 2}, {2, 1}},            /* x[::-1, ::2] */
        {3, {3, 1, 4}, {1, 3, 3}, {1, 3, 3}},    /* (4, 1, 3) transposed (2, 1, 0) */
        {3, {1, 4, 2}, {4, 1, 12}, {4, 1, 4}},   /* x[:, :1, :] of (2, 3, 4) transposed (1, 2, 0) */
        {3, {2, 3, 4}, {1, 8, 2}, {1, 8, 2}},    /* axes in the order 1, 2, 0 */
    };
    usmarr_memory_t *m = block_with_palette(ctx, USMARR_FLOAT32, 256);
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        struct layout l = {.ndim = cases[c].ndim, .block = 256};
        for (int d = 0; d < l.ndim; d++) {
            l.shape[d] = cases[c].shape[d];
            l.strides[d] = cases[c].strides[d];
            if (l.strides[d] < 0)
                l.offset -= l.strides[d] * (l.shape[d] - 1);
        }
        usmarr_array_t *x = array_on(m, USMARR_FLOAT32, &l), *r[3] = {NULL, NULL, NULL};
        ck_assert_ok(usmarr_array_copy(x, USMARR_ORDER_K, NULL, &r[0]));
        ck_assert_ok(usmarr_array_astype(x, USMARR_INT16, USMARR_ORDER_K, NULL, &r[1]));
        ck_assert_ok(usmarr_array_empty_like(x, -1, USMARR_ORDER_K, 0, &r[2]));
        for (int k = 0; k < 3; k++) {
            for (int d = 0; d < l.ndim; d++)
                ck_assert_msg(usmarr_array_strides(r[k])[d] == cases[c].want[d],
                              "case %zu result %d: strides[%d]=%lld, NumPy %lld", c, k, d,
                              (long long)usmarr_array_strides(r[k])[d], (long long)cases[c].want[d]);
            usmarr_array_release(r[k]);
        }
        usmarr_array_release(x);
    }
    usmarr_memory_release(m);
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_copy_and_astype_orders_c_f_a_k)
{
    usmarr_context_t *ctx = test_context();
    /* src: a (4, 5, 6) float32 view with strides (1, -4, 20) (F-like, flipped middle). */
    usmarr_memory_t *m = block_with_palette(ctx, USMARR_FLOAT32, 120);
    struct layout sl = {.ndim = 3, .shape = {4, 5, 6}, .strides = {1, -4, 20}, .offset = 16, .block = 120};
    usmarr_array_t *src = array_on(m, USMARR_FLOAT32, &sl);
    struct {
        usmarr_order_t order;
        int64_t strides[3];
    } cases[] = {{USMARR_ORDER_C, {30, 6, 1}},
                 {USMARR_ORDER_F, {1, 4, 20}},
                 {USMARR_ORDER_A, {30, 6, 1}},
                 {USMARR_ORDER_K, {1, 4, 20}}};
    for (int c = 0; c < 4; c++) {
        for (int cast = 0; cast < 2; cast++) {
            usmarr_array_t *r = NULL;
            if (cast)
                ck_assert_ok(usmarr_array_astype(src, USMARR_INT16, cases[c].order, NULL, &r));
            else
                ck_assert_ok(usmarr_array_copy(src, cases[c].order, NULL, &r));
            usmarr_dtype_t dt = cast ? USMARR_INT16 : USMARR_FLOAT32;
            ck_assert_int_eq(usmarr_array_dtype(r), dt);
            for (int d = 0; d < 3; d++)
                ck_assert_int_eq(usmarr_array_strides(r)[d], cases[c].strides[d]);
            ck_assert(usmarr_array_flags(r) & USMARR_FLAG_WRITABLE);
            unsigned char got[120 * 4];
            int bad = 0;
            ck_assert_ok(usmarr_memory_copy_to_host(usmarr_array_memory(r), 0, got, 120 * isz(dt)));
            for (int i = 0; i < 4; i++)
                for (int j = 0; j < 5; j++)
                    for (int k = 0; k < 6; k++) {
                        int64_t qs = 16 + i * 1 - j * 4 + k * 20;
                        int64_t qd = i * cases[c].strides[0] + j * cases[c].strides[1] + k * cases[c].strides[2];
                        bad += !same_value(dt, got + qd * (int64_t)isz(dt),
                                           cast_expected[USMARR_FLOAT32][dt][pal_at(qs)]);
                    }
            ck_assert_int_eq(bad, 0);
            usmarr_array_release(r);
        }
    }
    /* A: an F-contiguous source stays F. */
    int64_t fs[] = {3, 4};
    struct layout f = contiguous(2, fs, 'F');
    usmarr_array_t *fa = array_on(m, USMARR_FLOAT32, &f), *r;
    ck_assert_ok(usmarr_array_copy(fa, USMARR_ORDER_A, NULL, &r));
    ck_assert_int_eq(usmarr_array_strides(r)[0], 1);
    ck_assert_int_eq(usmarr_array_strides(r)[1], 3);
    ck_assert(usmarr_array_flags(r) & USMARR_FLAG_F_CONTIGUOUS);
    usmarr_array_release(r);
    /* Into out: result is out, retained. */
    usmarr_memory_t *om = block_with_sentinel(ctx, USMARR_FLOAT32, 12);
    int64_t cs[] = {3, 4};
    struct layout cl = contiguous(2, cs, 'C');
    usmarr_array_t *out = array_on(om, USMARR_FLOAT32, &cl), *res = NULL;
    ck_assert_ok(usmarr_array_copy(fa, USMARR_ORDER_K, out, &res));
    ck_assert_ptr_eq(res, out);
    ck_assert_int_eq(usmarr_array_refcount(out), 2);
    usmarr_array_release(res);
    ck_assert_ok(usmarr_array_astype(fa, USMARR_FLOAT32, USMARR_ORDER_K, out, NULL));
    usmarr_array_release(out);
    usmarr_memory_release(om);
    usmarr_array_release(fa);
    usmarr_array_release(src);
    usmarr_memory_release(m);
    usmarr_context_release(ctx);
}
END_TEST

/* ---- the documented rule for NumPy's undefined casts (doc/engine.md, "Casting") ---------- */

START_TEST(test_copy_nan_and_out_of_range_float_to_int_rule)
{
    usmarr_context_t *ctx = test_context();
    const float in[] = {NAN, INFINITY, -INFINITY, 300.0f, -300.0f, -1.5f, 2.9f, -2.9f, 3e9f, -3e9f, 1e20f, -0.5f};
    enum { N = sizeof in / sizeof in[0] };
    const int8_t want_i8[N] = {0, 127, -128, 127, -128, -1, 2, -2, 127, -128, 127, 0};
    const uint8_t want_u8[N] = {0, 255, 0, 255, 0, 0, 2, 0, 255, 0, 255, 0};
    const int32_t want_i32[N] = {0, INT32_MAX, INT32_MIN, 300, -300, -1, 2, -2, INT32_MAX, INT32_MIN, INT32_MAX, 0};
    const uint64_t want_u64[N] = {0, UINT64_MAX, 0, 300, 0, 0, 2, 0, 3000000000u, 0, UINT64_MAX, 0};
    int64_t shape[] = {N};
    usmarr_array_t *a;
    ck_assert_ok(usmarr_array_from_host(ctx, 1, shape, USMARR_FLOAT32, in, NULL, USMARR_USM_DEVICE, &a));
    usmarr_array_t *r;
    int8_t g8[N];
    ck_assert_ok(usmarr_array_astype(a, USMARR_INT8, USMARR_ORDER_K, NULL, &r));
    ck_assert_ok(usmarr_array_copy_to_host(r, g8, NULL));
    usmarr_array_release(r);
    uint8_t gu8[N];
    ck_assert_ok(usmarr_array_astype(a, USMARR_UINT8, USMARR_ORDER_K, NULL, &r));
    ck_assert_ok(usmarr_array_copy_to_host(r, gu8, NULL));
    usmarr_array_release(r);
    int32_t g32[N];
    ck_assert_ok(usmarr_array_astype(a, USMARR_INT32, USMARR_ORDER_K, NULL, &r));
    ck_assert_ok(usmarr_array_copy_to_host(r, g32, NULL));
    usmarr_array_release(r);
    uint64_t gu64[N];
    ck_assert_ok(usmarr_array_astype(a, USMARR_UINT64, USMARR_ORDER_K, NULL, &r));
    ck_assert_ok(usmarr_array_copy_to_host(r, gu64, NULL));
    usmarr_array_release(r);
    for (int i = 0; i < N; i++) {
        ck_assert_msg(g8[i] == want_i8[i], "int8 %d: %g -> %d", i, in[i], g8[i]);
        ck_assert_msg(gu8[i] == want_u8[i], "uint8 %d: %g -> %d", i, in[i], gu8[i]);
        ck_assert_msg(g32[i] == want_i32[i], "int32 %d: %g -> %d", i, in[i], g32[i]);
        ck_assert_msg(gu64[i] == want_u64[i], "uint64 %d: %g -> %llu", i, in[i], (unsigned long long)gu64[i]);
    }
    usmarr_array_release(a);
    usmarr_context_release(ctx);
}
END_TEST

/* ---- fill ------------------------------------------------------------------------------- */

START_TEST(test_fill_strided_views_every_dtype)
{
    usmarr_context_t *ctx = test_context();
    bool fp64 = usmarr_context_info(ctx)->fp64;
    for (int t = 0; t < USMARR_DTYPE_COUNT; t++) {
        usmarr_dtype_t dt = (usmarr_dtype_t)t;
        if (!fp64 && (dt == USMARR_FLOAT64 || dt == USMARR_COMPLEX128))
            continue;
        /* A (7, 9) view with strides (-20, 2) over 160 elements, and a contiguous 100. */
        struct layout views[] = {{.ndim = 2, .shape = {7, 9}, .strides = {-20, 2}, .offset = 121, .block = 160},
                                 {.ndim = 1, .shape = {100}, .strides = {1}, .offset = 0, .block = 100}};
        for (int v = 0; v < 2; v++) {
            usmarr_memory_t *m = block_with_sentinel(ctx, dt, views[v].block);
            usmarr_array_t *a = array_on(m, dt, &views[v]);
            ck_assert_ok(usmarr_array_fill(a, usmarr_scalar_int(5)));
            size_t n = (size_t)views[v].block * isz(dt);
            unsigned char *got = malloc(n), *want = malloc(n);
            memset(want, 0xA5, n);
            /* 5 in dtype t: independent host encoding. */
            unsigned char five[16] = {0};
            switch (dt) {
            case USMARR_BOOL: five[0] = 1; break;
            case USMARR_FLOAT16: five[0] = 0x00; five[1] = 0x45; break; /* 5.0 = 0x4500 */
            case USMARR_FLOAT32: { float f = 5; memcpy(five, &f, 4); break; }
            case USMARR_FLOAT64: { double d = 5; memcpy(five, &d, 8); break; }
            case USMARR_COMPLEX64: { float f[2] = {5, 0}; memcpy(five, f, 8); break; }
            case USMARR_COMPLEX128: { double d[2] = {5, 0}; memcpy(five, d, 16); break; }
            default: five[0] = 5; break; /* little-endian integers */
            }
            for (int64_t i = 0; i < views[v].shape[0]; i++)
                for (int64_t j = 0; j < (views[v].ndim > 1 ? views[v].shape[1] : 1); j++) {
                    int64_t q = views[v].offset + i * views[v].strides[0] + (views[v].ndim > 1 ? j * views[v].strides[1] : 0);
                    memcpy(want + q * (int64_t)isz(dt), five, isz(dt));
                }
            ck_assert_ok(usmarr_memory_copy_to_host(m, 0, got, n));
            ck_assert_msg(!memcmp(got, want, n), "fill %s view %d", usmarr_dtype_name(dt), v);
            free(got);
            free(want);
            usmarr_array_release(a);
            usmarr_memory_release(m);
        }
    }
    usmarr_context_release(ctx);
}
END_TEST

/* ---- failures of every public function ------------------------------------------------ */

START_TEST(test_copy_failures)
{
    usmarr_context_t *ctx = test_context(), *other = test_context();
    int64_t s[] = {4, 5}, s2[] = {3, 5};
    usmarr_array_t *a, *b, *c, *ro, *x;
    ck_assert_ok(usmarr_array_zeros(ctx, 2, s, USMARR_FLOAT32, USMARR_ORDER_C, USMARR_USM_DEVICE, &a));
    ck_assert_ok(usmarr_array_zeros(ctx, 2, s2, USMARR_FLOAT32, USMARR_ORDER_C, USMARR_USM_DEVICE, &b));
    ck_assert_ok(usmarr_array_zeros(ctx, 2, s, USMARR_INT32, USMARR_ORDER_C, USMARR_USM_DEVICE, &c));
    ck_assert_ok(usmarr_array_zeros(ctx, 2, s, USMARR_FLOAT32, USMARR_ORDER_C, USMARR_USM_DEVICE, &ro));
    ck_assert_ok(usmarr_array_make_read_only(ro));
    ck_assert_ok(usmarr_array_zeros(other, 2, s, USMARR_FLOAT32, USMARR_ORDER_C, USMARR_USM_DEVICE, &x));
    usmarr_array_t *r = NULL;

    ck_assert_fails_with(usmarr_array_copy(NULL, USMARR_ORDER_C, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT, "a is NULL");
    ck_assert_fails_with(usmarr_array_copy(a, USMARR_ORDER_C, NULL, NULL), USMARR_ERROR_INVALID_ARGUMENT, "result");
    ck_assert_fails_with(usmarr_array_copy(a, (usmarr_order_t)'Q', NULL, &r), USMARR_ERROR_INVALID_ARGUMENT, "order");
    ck_assert_fails_with(usmarr_array_copy(a, USMARR_ORDER_C, x, &r), USMARR_ERROR_CONTEXT_MISMATCH, "contexts");
    ck_assert_fails_with(usmarr_array_copy(a, USMARR_ORDER_C, ro, &r), USMARR_ERROR_READ_ONLY, "out");
    ck_assert_fails_with(usmarr_array_copy(a, USMARR_ORDER_C, c, &r), USMARR_ERROR_BAD_DTYPE, "int32");
    ck_assert_fails_with(usmarr_array_copy(a, USMARR_ORDER_C, b, &r), USMARR_ERROR_SHAPE_MISMATCH, "broadcast");

    ck_assert_fails_with(usmarr_array_astype(NULL, USMARR_INT8, USMARR_ORDER_C, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT,
                         "a is NULL");
    ck_assert_fails_with(usmarr_array_astype(a, (usmarr_dtype_t)99, USMARR_ORDER_C, NULL, &r), USMARR_ERROR_BAD_DTYPE,
                         "dtype=99");
    ck_assert_fails_with(usmarr_array_astype(a, USMARR_INT8, (usmarr_order_t)0, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT,
                         "order");
    ck_assert_fails_with(usmarr_array_astype(a, USMARR_INT8, USMARR_ORDER_C, c, &r), USMARR_ERROR_BAD_DTYPE, "int8");
    ck_assert_fails_with(usmarr_array_astype(a, USMARR_INT32, USMARR_ORDER_C, x, &r), USMARR_ERROR_CONTEXT_MISMATCH,
                         "contexts");
    ck_assert_fails_with(usmarr_array_astype(a, USMARR_FLOAT32, USMARR_ORDER_C, ro, &r), USMARR_ERROR_READ_ONLY, "out");
    ck_assert_fails_with(usmarr_array_astype(a, USMARR_FLOAT32, USMARR_ORDER_C, b, &r), USMARR_ERROR_SHAPE_MISMATCH,
                         "broadcast");

    ck_assert_fails_with(usmarr_array_copy_into(NULL, a), USMARR_ERROR_INVALID_ARGUMENT, "dst is NULL");
    ck_assert_fails_with(usmarr_array_copy_into(a, NULL), USMARR_ERROR_INVALID_ARGUMENT, "src is NULL");
    ck_assert_fails_with(usmarr_array_copy_into(a, x), USMARR_ERROR_CONTEXT_MISMATCH, "contexts");
    ck_assert_fails_with(usmarr_array_copy_into(ro, a), USMARR_ERROR_READ_ONLY, "dst");
    ck_assert_fails_with(usmarr_array_copy_into(b, a), USMARR_ERROR_SHAPE_MISMATCH, "broadcast");

    ck_assert_fails_with(usmarr_array_fill(NULL, usmarr_scalar_int(1)), USMARR_ERROR_INVALID_ARGUMENT, "a is NULL");
    ck_assert_fails_with(usmarr_array_fill(ro, usmarr_scalar_int(1)), USMARR_ERROR_READ_ONLY, "a is a read-only");
    usmarr_scalar_t bad = usmarr_scalar_int(1);
    bad.kind = (usmarr_kind_t)42;
    ck_assert_fails_with(usmarr_array_fill(a, bad), USMARR_ERROR_INVALID_ARGUMENT, "value.kind=42");
    usmarr_scalar_t typed = {.kind = USMARR_KIND_INT, .dtype = USMARR_FLOAT32, .value.i = 1};
    ck_assert_fails_with(usmarr_array_fill(a, typed), USMARR_ERROR_INVALID_ARGUMENT,
                         "value.kind=USMARR_KIND_INT contradicts value.dtype=float32");
    typed.dtype = 77;
    ck_assert_fails_with(usmarr_array_fill(a, typed), USMARR_ERROR_BAD_DTYPE, "value.dtype=77");
    usmarr_array_t *i8;
    ck_assert_ok(usmarr_array_zeros(ctx, 2, s, USMARR_INT8, USMARR_ORDER_C, USMARR_USM_DEVICE, &i8));
    ck_assert_fails_with(usmarr_array_fill(i8, usmarr_scalar_int(300)), USMARR_ERROR_OVERFLOW, "300");
    ck_assert_fails_with(usmarr_array_fill(c, usmarr_scalar_float(NAN)), USMARR_ERROR_CASTING, "nan");
    /* A failed call leaves its inputs unchanged. */
    ck_assert_int_eq(usmarr_array_refcount(a), 1);
    ck_assert_ptr_null(r);
    usmarr_array_release(i8);
    usmarr_array_release(a);
    usmarr_array_release(b);
    usmarr_array_release(c);
    usmarr_array_release(ro);
    usmarr_array_release(x);
    usmarr_context_release(other);
    usmarr_context_release(ctx);
}
END_TEST

void copy_orders_add_tests(TCase *tc)
{
    tcase_add_test(tc, test_copy_overlapping_source_is_read_first);
    tcase_add_test(tc, test_copy_and_astype_orders_c_f_a_k);
    tcase_add_test(tc, test_copy_order_k_keeps_memory_order_as_numpy);
    tcase_add_test(tc, test_copy_nan_and_out_of_range_float_to_int_rule);
    tcase_add_test(tc, test_fill_strided_views_every_dtype);
    tcase_add_test(tc, test_copy_failures);
}
