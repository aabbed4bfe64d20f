/* Creation functions and host transfers, checked against plain host loops. */
#include "../harness/common.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

static const usmarr_usm_kind_t kinds[] = {USMARR_USM_DEVICE, USMARR_USM_SHARED, USMARR_USM_HOST};

/* Reads an array's elements in C order from the raw bytes of its whole USM block, so the
 * oracle does not rely on copy_to_host's gather. */
static void raw_elements(const usmarr_array_t *a, void *out)
{
    usmarr_memory_t *m = usmarr_array_memory(a);
    size_t bytes = usmarr_memory_size(m), item = usmarr_array_itemsize(a);
    unsigned char *all = malloc(bytes ? bytes : 1);
    ck_assert_ok(usmarr_memory_copy_to_host(m, 0, all, bytes));
    int nd = usmarr_array_ndim(a);
    const int64_t *shape = usmarr_array_shape(a), *st = usmarr_array_strides(a);
    int64_t n = usmarr_array_size(a), idx[16] = {0};
    for (int64_t j = 0; j < n; j++) {
        int64_t e = usmarr_array_offset(a);
        for (int k = 0; k < nd; k++)
            e += idx[k] * st[k];
        memcpy((char *)out + j * item, all + e * item, item);
        for (int k = nd - 1; k >= 0; k--) {
            if (++idx[k] < shape[k])
                break;
            idx[k] = 0;
        }
    }
    free(all);
}

START_TEST(test_create_zeros_ones_empty_each_kind)
{
    usmarr_context_t *ctx = test_context();
    usmarr_usm_kind_t kind = kinds[_i];
    TEST_NEEDS_KIND(ctx, kind);
    int64_t shape[] = {3, 5, 7};
    usmarr_array_t *z, *o, *e;
    ck_assert_ok(usmarr_array_zeros(ctx, 3, shape, USMARR_FLOAT32, USMARR_ORDER_C, kind, &z));
    ck_assert_ok(usmarr_array_ones(ctx, 3, shape, USMARR_INT16, USMARR_ORDER_F, kind, &o));
    ck_assert_ok(usmarr_array_empty(ctx, 3, shape, USMARR_COMPLEX64, 0, kind, &e));
    ck_assert_int_eq(usmarr_array_usm_kind(z), kind);
    ck_assert_uint_eq(usmarr_array_flags(o) & 3u, USMARR_FLAG_F_CONTIGUOUS);
    ck_assert_uint_eq(usmarr_array_flags(e) & 3u, USMARR_FLAG_C_CONTIGUOUS);
    ck_assert_uint_eq(usmarr_memory_size(usmarr_array_memory(e)), 105 * 8);
    float zf[105];
    int16_t oi[105];
    raw_elements(z, zf);
    raw_elements(o, oi);
    for (int i = 0; i < 105; i++) {
        ck_assert(zf[i] == 0.0f && !signbit(zf[i]));
        ck_assert_int_eq(oi[i], 1);
    }
    usmarr_array_release(z);
    usmarr_array_release(o);
    usmarr_array_release(e);
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_create_full_converts_like_numpy)
{
    usmarr_context_t *ctx = test_context();
    int64_t shape[] = {4};
    usmarr_array_t *a;
    struct {
        usmarr_scalar_t v;
        int dtype;
        usmarr_dtype_t want_dtype;
        unsigned char want[16];
        size_t n;
    } cases[] = {
        {usmarr_scalar_float(3.7), USMARR_INT32, USMARR_INT32, {3, 0, 0, 0}, 4},
        {usmarr_scalar_float(-3.7), USMARR_INT8, USMARR_INT8, {0xfd}, 1},
        {usmarr_scalar_int(-1), USMARR_INT16, USMARR_INT16, {0xff, 0xff}, 2},
        {usmarr_scalar_int(255), USMARR_UINT8, USMARR_UINT8, {0xff}, 1},
        {usmarr_scalar_float(0.5), USMARR_BOOL, USMARR_BOOL, {1}, 1},
        {usmarr_scalar_float(NAN), USMARR_BOOL, USMARR_BOOL, {1}, 1},
        {usmarr_scalar_complex(0, 2), USMARR_BOOL, USMARR_BOOL, {1}, 1},
        {usmarr_scalar_int(0), USMARR_BOOL, USMARR_BOOL, {0}, 1},
        {usmarr_scalar_float(1.0), USMARR_FLOAT16, USMARR_FLOAT16, {0x00, 0x3c}, 2},
        {usmarr_scalar_float(-2.0), USMARR_FLOAT16, USMARR_FLOAT16, {0x00, 0xc0}, 2},
        {usmarr_scalar_float(65504.0), USMARR_FLOAT16, USMARR_FLOAT16, {0xff, 0x7b}, 2},
        {usmarr_scalar_float(1e6), USMARR_FLOAT16, USMARR_FLOAT16, {0x00, 0x7c}, 2},       /* inf */
        {usmarr_scalar_float(0x1p-24), USMARR_FLOAT16, USMARR_FLOAT16, {0x01, 0x00}, 2},   /* smallest subnormal */
        {usmarr_scalar_float(1.0 + 0x1p-11), USMARR_FLOAT16, USMARR_FLOAT16, {0x00, 0x3c}, 2}, /* tie to even */
        {usmarr_scalar_float(1.0 + 3 * 0x1p-11), USMARR_FLOAT16, USMARR_FLOAT16, {0x02, 0x3c}, 2},
        {{.kind = USMARR_KIND_COMPLEX, .dtype = USMARR_COMPLEX128, .value.c = {1.5, 9}}, USMARR_FLOAT32, USMARR_FLOAT32,
         {0, 0, 0xc0, 0x3f}, 4}, /* a typed complex drops its imaginary part */
        {usmarr_scalar_bool(true), -1, USMARR_BOOL, {1}, 1},
        {usmarr_scalar_int(7), -1, USMARR_INT64, {7, 0, 0, 0, 0, 0, 0, 0}, 8},
        {usmarr_scalar_float(1.0), -1, USMARR_FLOAT64, {0, 0, 0, 0, 0, 0, 0xf0, 0x3f}, 8},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ck_assert_ok(usmarr_array_full(ctx, 1, shape, cases[i].v, cases[i].dtype, 0, USMARR_USM_DEVICE, &a));
        ck_assert_int_eq(usmarr_array_dtype(a), cases[i].want_dtype);
        unsigned char got[64];
        raw_elements(a, got);
        for (int e = 0; e < 4; e++)
            ck_assert_msg(!memcmp(got + e * cases[i].n, cases[i].want, cases[i].n), "case %zu element %d", i, e);
        usmarr_array_release(a);
    }
    /* A typed int64 scalar wraps into uint8 like astype; a weak one does not fit. */
    usmarr_scalar_t typed = usmarr_scalar_int(-1);
    typed.dtype = USMARR_INT64;
    ck_assert_ok(usmarr_array_full(ctx, 1, shape, typed, USMARR_UINT8, 0, 0, &a));
    unsigned char got[4];
    raw_elements(a, got);
    ck_assert_uint_eq(got[3], 255);
    usmarr_array_release(a);
    a = NULL;
    ck_assert_fails_with(usmarr_array_full(ctx, 1, shape, usmarr_scalar_int(-1), USMARR_UINT8, 0, 0, &a),
                         USMARR_ERROR_OVERFLOW, "value=-1 is out of bounds for uint8");
    ck_assert_fails_with(usmarr_array_full(ctx, 1, shape, usmarr_scalar_int(128), USMARR_INT8, 0, 0, &a),
                         USMARR_ERROR_OVERFLOW, "value=128");
    ck_assert_fails_with(usmarr_array_full(ctx, 1, shape, usmarr_scalar_uint(UINT64_MAX), USMARR_INT64, 0, 0, &a),
                         USMARR_ERROR_OVERFLOW, "int64");
    ck_assert_fails_with(usmarr_array_full(ctx, 1, shape, usmarr_scalar_float(NAN), USMARR_INT32, 0, 0, &a),
                         USMARR_ERROR_CASTING, "value=nan");
    ck_assert_fails_with(usmarr_array_full(ctx, 1, shape, usmarr_scalar_float(1e10), USMARR_INT32, 0, 0, &a),
                         USMARR_ERROR_OVERFLOW, "value=");
    usmarr_scalar_t weird = {.kind = (usmarr_kind_t)9, .dtype = -1};
    ck_assert_fails_with(usmarr_array_full(ctx, 1, shape, weird, USMARR_INT32, 0, 0, &a),
                         USMARR_ERROR_INVALID_ARGUMENT, "value.kind=9");
    /* a typed scalar whose kind contradicts its dtype, with and without a dtype to fill */
    usmarr_scalar_t contradicting = {.kind = USMARR_KIND_INT, .dtype = USMARR_FLOAT32, .value.i = 3};
    ck_assert_fails_with(usmarr_array_full(ctx, 1, shape, contradicting, -1, 0, 0, &a), USMARR_ERROR_INVALID_ARGUMENT,
                         "value.kind=USMARR_KIND_INT contradicts value.dtype=float32");
    ck_assert_fails_with(usmarr_array_full(ctx, 1, shape, contradicting, USMARR_INT64, 0, 0, &a),
                         USMARR_ERROR_INVALID_ARGUMENT, "contradicts");
    contradicting.dtype = 40;
    ck_assert_fails_with(usmarr_array_full(ctx, 1, shape, contradicting, USMARR_INT64, 0, 0, &a), USMARR_ERROR_BAD_DTYPE,
                         "value.dtype=40");
    /* a weak complex into a real dtype: NumPy 2's fill raises TypeError */
    for (int d = USMARR_INT8; d <= USMARR_FLOAT64; d++)
        ck_assert_fails_with(usmarr_array_full(ctx, 1, shape, usmarr_scalar_complex(1, 2), d, 0, 0, &a),
                             USMARR_ERROR_CASTING, "value=(1+2j) is complex and cannot be converted to");
    /* weak integers out of the dtype's range: NumPy 2's OverflowError */
    ck_assert_fails_with(usmarr_array_full(ctx, 1, shape, usmarr_scalar_int(300), USMARR_INT8, 0, 0, &a),
                         USMARR_ERROR_OVERFLOW, "value=300 is out of bounds for int8");
    ck_assert_fails_with(usmarr_array_full(ctx, 1, shape, usmarr_scalar_int(-1), USMARR_UINT64, 0, 0, &a),
                         USMARR_ERROR_OVERFLOW, "value=-1 is out of bounds for uint64");
    ck_assert_ptr_null(a);
    ck_assert_fails_with(usmarr_array_full(ctx, 1, shape, usmarr_scalar_int(1), 42, 0, 0, &a), USMARR_ERROR_BAD_DTYPE,
                         "dtype=42");
    ck_assert_fails_with(usmarr_array_full(NULL, 1, shape, usmarr_scalar_int(1), USMARR_INT8, 0, 0, &a),
                         USMARR_ERROR_INVALID_ARGUMENT, "context");
    ck_assert_ptr_null(a);
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_create_like_forms_follow_proto_and_overrides)
{
    usmarr_context_t *ctx = test_context();
    TEST_NEEDS_KIND(ctx, USMARR_USM_SHARED);
    if (!test_kind_offered(ctx, USMARR_USM_HOST)) {
        usmarr_context_release(ctx);
        return;
    }
    /* Proto: a (3,4) int32 with strides (1,-3) (F-like, one axis flipped) on shared. */
    usmarr_array_options_t o = USMARR_ARRAY_OPTIONS_INIT;
    int64_t shape[] = {3, 4}, strides[] = {1, -3};
    o.context = ctx;
    o.ndim = 2;
    o.shape = shape;
    o.strides = strides;
    o.dtype = USMARR_INT32;
    o.buffer = USMARR_BUFFER_SHARED;
    usmarr_array_t *p, *a;
    ck_assert_ok(usmarr_array_create(&o, &p));
    ck_assert_ok(usmarr_array_empty_like(p, -1, 0, 0, &a)); /* K: F-like, positive */
    ck_assert_int_eq(usmarr_array_dtype(a), USMARR_INT32);
    ck_assert_int_eq(usmarr_array_usm_kind(a), USMARR_USM_SHARED);
    ck_assert_int_eq(usmarr_array_strides(a)[0], 1);
    ck_assert_int_eq(usmarr_array_strides(a)[1], 3);
    usmarr_array_release(a);
    ck_assert_ok(usmarr_array_zeros_like(p, USMARR_FLOAT32, USMARR_ORDER_C, USMARR_USM_HOST, &a));
    ck_assert_int_eq(usmarr_array_dtype(a), USMARR_FLOAT32);
    ck_assert_int_eq(usmarr_array_usm_kind(a), USMARR_USM_HOST);
    ck_assert_int_eq(usmarr_array_strides(a)[0], 4);
    float f[12];
    raw_elements(a, f);
    for (int i = 0; i < 12; i++)
        ck_assert(f[i] == 0.0f);
    usmarr_array_release(a);
    ck_assert_ok(usmarr_array_ones_like(p, -1, USMARR_ORDER_A, 0, &a)); /* proto not contiguous: A is C */
    ck_assert_int_eq(usmarr_array_strides(a)[1], 1);
    usmarr_array_release(a);
    ck_assert_ok(usmarr_array_full_like(p, usmarr_scalar_float(-2.5), USMARR_FLOAT64, USMARR_ORDER_F, 0, &a));
    double d[12];
    raw_elements(a, d);
    for (int i = 0; i < 12; i++)
        ck_assert(d[i] == -2.5);
    ck_assert_uint_eq(usmarr_array_flags(a) & 3u, USMARR_FLAG_F_CONTIGUOUS);
    usmarr_array_release(a);
    a = NULL;
    ck_assert_fails_with(usmarr_array_full_like(p, usmarr_scalar_int(1 << 20), USMARR_INT8, 0, 0, &a),
                         USMARR_ERROR_OVERFLOW, "value=");
    ck_assert_fails_with(usmarr_array_empty_like(NULL, -1, 0, 0, &a), USMARR_ERROR_INVALID_ARGUMENT, "proto");
    ck_assert_fails_with(usmarr_array_zeros_like(p, -1, (usmarr_order_t)'Q', 0, &a), USMARR_ERROR_INVALID_ARGUMENT,
                         "order=");
    ck_assert_fails_with(usmarr_array_ones_like(p, 99, 0, 0, &a), USMARR_ERROR_BAD_DTYPE, "dtype=99");
    ck_assert_ptr_null(a);
    ck_assert_int_eq(usmarr_array_refcount(p), 1);
    usmarr_array_release(p);
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_create_host_round_trip_with_arbitrary_strides)
{
    usmarr_context_t *ctx = test_context();
    /* Host source: a (4,5) int32 view with strides (-7, 2) into a 64-element buffer. */
    int32_t src[64], back[64];
    for (int i = 0; i < 64; i++)
        src[i] = 1000 + i;
    int64_t shape[] = {4, 5}, hs[] = {-7, 2};
    const int32_t *origin = src + 21 + 1; /* element [0,0] */
    usmarr_array_t *a;
    ck_assert_ok(usmarr_array_from_host(ctx, 2, shape, USMARR_INT32, origin, hs, USMARR_USM_DEVICE, &a));
    int32_t got[20];
    raw_elements(a, got);
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 5; j++)
            ck_assert_int_eq(got[i * 5 + j], origin[i * -7 + j * 2]);
    /* To host with requested strides (F order with padding 6) into a sentinel buffer. */
    for (int i = 0; i < 64; i++)
        back[i] = -1;
    int64_t fs[] = {1, 6};
    ck_assert_ok(usmarr_array_copy_to_host(a, back, fs));
    for (int i = 0; i < 64; i++) {
        int r = i % 6, c = i / 6;
        if (r < 4 && c < 5)
            ck_assert_int_eq(back[i], origin[r * -7 + c * 2]);
        else
            ck_assert_int_eq(back[i], -1); /* padding untouched */
    }
    usmarr_array_release(a);
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_create_copy_into_strided_view_keeps_gaps)
{
    usmarr_context_t *ctx = test_context();
    usmarr_memory_t *m;
    ck_assert_ok(usmarr_memory_create(ctx, USMARR_USM_DEVICE, 40 * 8, 0, &m));
    int64_t init[40];
    for (int i = 0; i < 40; i++)
        init[i] = -i;
    ck_assert_ok(usmarr_memory_copy_from_host(m, 0, init, sizeof init));
    /* View (3,4) with strides (-10, 3) at offset 25: elements 25-10i+3j. */
    usmarr_array_options_t o = USMARR_ARRAY_OPTIONS_INIT;
    int64_t shape[] = {3, 4}, st[] = {-10, 3};
    o.ndim = 2;
    o.shape = shape;
    o.strides = st;
    o.offset = 25;
    o.dtype = USMARR_INT64;
    o.buffer = USMARR_BUFFER_MEMORY;
    o.memory = m;
    usmarr_array_t *v;
    ck_assert_ok(usmarr_array_create(&o, &v));
    int64_t host[12];
    for (int i = 0; i < 12; i++)
        host[i] = 100 + i;
    ck_assert_ok(usmarr_array_copy_from_host(v, host, NULL));
    int64_t all[40];
    ck_assert_ok(usmarr_memory_copy_to_host(m, 0, all, sizeof all));
    int64_t want[40];
    memcpy(want, init, sizeof want);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 4; j++)
            want[25 - 10 * i + 3 * j] = 100 + i * 4 + j;
    for (int i = 0; i < 40; i++)
        ck_assert_int_eq(all[i], want[i]);
    /* And back through the span + gather path. */
    int64_t out[12];
    ck_assert_ok(usmarr_array_copy_to_host(v, out, NULL));
    for (int i = 0; i < 12; i++)
        ck_assert_int_eq(out[i], 100 + i);
    /* Read-only arrays refuse. */
    ck_assert_ok(usmarr_array_make_read_only(v));
    ck_assert_fails_with(usmarr_array_copy_from_host(v, host, NULL), USMARR_ERROR_READ_ONLY, "array");
    ck_assert_fails_with(usmarr_array_copy_from_host(NULL, host, NULL), USMARR_ERROR_INVALID_ARGUMENT, "array");
    ck_assert_fails_with(usmarr_array_copy_to_host(v, NULL, NULL), USMARR_ERROR_INVALID_ARGUMENT, "host");
    usmarr_array_t *a = NULL;
    ck_assert_fails_with(usmarr_array_from_host(ctx, 2, shape, USMARR_INT64, NULL, NULL, 0, &a),
                         USMARR_ERROR_INVALID_ARGUMENT, "host");
    ck_assert_ptr_null(a);
    usmarr_array_release(v);
    usmarr_memory_release(m);
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_create_random_host_transfers_match_oracle)
{
    usmarr_context_t *ctx = test_context();
    unsigned seed = 99;
    for (int iter = 0; iter < 60; iter++) {
        seed = seed * 1103515245u + 12345u;
        int nd = (int)((seed >> 8) % 4);
        int64_t shape[3], hs[3], n = 1;
        for (int k = 0; k < nd; k++) {
            seed = seed * 1103515245u + 12345u;
            shape[k] = (seed >> 8) % 5;
            n *= shape[k];
        }
        /* Host layout: C order, padded by 2, then flip some axes. */
        int64_t step = 1, lo = 0;
        for (int k = nd - 1; k >= 0; k--) {
            seed = seed * 1103515245u + 12345u;
            bool flip = (seed >> 9) & 1;
            hs[k] = flip ? -step : step;
            if (flip && shape[k] > 0)
                lo += hs[k] * (shape[k] - 1);
            step *= shape[k] + 2;
        }
        int64_t total = step;
        uint16_t *buf = malloc(sizeof(uint16_t) * (size_t)total), *out = malloc(sizeof(uint16_t) * (size_t)total);
        for (int64_t i = 0; i < total; i++)
            buf[i] = (uint16_t)(i * 31 + iter);
        const uint16_t *origin = buf - lo;
        usmarr_array_t *a;
        usmarr_usm_kind_t kind = test_kind_offered(ctx, kinds[iter % 3]) ? kinds[iter % 3] : USMARR_USM_DEVICE;
        ck_assert_ok(usmarr_array_from_host(ctx, nd, shape, USMARR_UINT16, origin, hs, kind, &a));
        memset(out, 0, sizeof(uint16_t) * (size_t)total);
        ck_assert_ok(usmarr_array_copy_to_host(a, out - lo, hs));
        int64_t idx[3] = {0};
        for (int64_t j = 0; j < n; j++) {
            int64_t e = 0;
            for (int k = 0; k < nd; k++)
                e += idx[k] * hs[k];
            ck_assert_uint_eq(out[e - lo], origin[e]);
            for (int k = nd - 1; k >= 0; k--) {
                if (++idx[k] < shape[k])
                    break;
                idx[k] = 0;
            }
        }
        usmarr_array_release(a);
        free(buf);
        free(out);
    }
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_create_arange_linspace_eye)
{
    usmarr_context_t *ctx = test_context();
    usmarr_array_t *a;
    /* arange(2, 11, 3) int32 -> 2 5 8 */
    ck_assert_ok(usmarr_array_arange(ctx, 2, 11, 3, USMARR_INT32, 0, &a));
    ck_assert_int_eq(usmarr_array_size(a), 3);
    int32_t i3[3];
    ck_assert_ok(usmarr_array_copy_to_host(a, i3, NULL));
    ck_assert(i3[0] == 2 && i3[1] == 5 && i3[2] == 8);
    usmarr_array_release(a);
    /* arange(1, 0, -0.25) float64 -> 1 .75 .5 .25 */
    ck_assert_ok(usmarr_array_arange(ctx, 1, 0, -0.25, USMARR_FLOAT64, USMARR_USM_DEVICE, &a));
    double d[4];
    ck_assert_int_eq(usmarr_array_size(a), 4);
    ck_assert_ok(usmarr_array_copy_to_host(a, d, NULL));
    for (int i = 0; i < 4; i++)
        ck_assert(d[i] == 1 - 0.25 * i);
    usmarr_array_release(a);
    ck_assert_ok(usmarr_array_arange(ctx, 5, 1, 1, USMARR_INT8, 0, &a)); /* empty */
    ck_assert_int_eq(usmarr_array_size(a), 0);
    usmarr_array_release(a);
    a = NULL;
    ck_assert_fails_with(usmarr_array_arange(ctx, 0, 1, 0, USMARR_INT8, 0, &a), USMARR_ERROR_INVALID_ARGUMENT,
                         "step=0");
    ck_assert_fails_with(usmarr_array_arange(ctx, 0, 300, 1, USMARR_UINT8, 0, &a), USMARR_ERROR_OVERFLOW, "uint8");
    ck_assert_fails_with(usmarr_array_arange(ctx, 0, 3, 1, USMARR_BOOL, 0, &a), USMARR_ERROR_BAD_DTYPE, "bool");
    ck_assert_fails_with(usmarr_array_arange(ctx, 0, INFINITY, 1, USMARR_INT32, 0, &a), USMARR_ERROR_INVALID_ARGUMENT,
                         "finite");

    /* linspace(0, 1, 5) and without endpoint; oracle computed here as NumPy does */
    ck_assert_ok(usmarr_array_linspace(ctx, 0, 1, 5, true, USMARR_FLOAT32, 0, &a));
    float f[5];
    ck_assert_ok(usmarr_array_copy_to_host(a, f, NULL));
    for (int i = 0; i < 5; i++)
        ck_assert(f[i] == (float)(i * 0.25));
    usmarr_array_release(a);
    ck_assert_ok(usmarr_array_linspace(ctx, -1, 1, 4, false, USMARR_INT16, 0, &a));
    int16_t s[4];
    ck_assert_ok(usmarr_array_copy_to_host(a, s, NULL));
    ck_assert(s[0] == -1 && s[1] == -1 && s[2] == 0 && s[3] == 0); /* -1 -.5 0 .5 floored */
    usmarr_array_release(a);
    ck_assert_ok(usmarr_array_linspace(ctx, 3, 9, 1, true, USMARR_FLOAT64, 0, &a));
    ck_assert_ok(usmarr_array_copy_to_host(a, d, NULL));
    ck_assert(d[0] == 3);
    usmarr_array_release(a);
    ck_assert_fails_with(usmarr_array_linspace(ctx, 0, 1, -2, true, USMARR_FLOAT32, 0, &a),
                         USMARR_ERROR_INVALID_ARGUMENT, "num=-2");

    /* eye(3, 4, k=1) in F order */
    ck_assert_ok(usmarr_array_eye(ctx, 3, 4, 1, USMARR_UINT8, USMARR_ORDER_F, 0, &a));
    ck_assert_uint_eq(usmarr_array_flags(a) & 3u, USMARR_FLAG_F_CONTIGUOUS);
    uint8_t e[12];
    ck_assert_ok(usmarr_array_copy_to_host(a, e, NULL)); /* C order on the host */
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 4; j++)
            ck_assert_uint_eq(e[i * 4 + j], j == i + 1);
    usmarr_array_release(a);
    ck_assert_ok(usmarr_array_eye(ctx, 3, -1, -2, USMARR_COMPLEX64, 0, 0, &a));
    float c[18];
    ck_assert_ok(usmarr_array_copy_to_host(a, c, NULL));
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            ck_assert(c[2 * (i * 3 + j)] == (j == i - 2 ? 1.0f : 0.0f));
            ck_assert(c[2 * (i * 3 + j) + 1] == 0.0f);
        }
    usmarr_array_release(a);
    a = NULL;
    ck_assert_fails_with(usmarr_array_eye(ctx, -3, 2, 0, USMARR_UINT8, 0, 0, &a), USMARR_ERROR_INVALID_ARGUMENT, "n=-3");
    ck_assert_fails_with(usmarr_array_eye(ctx, INT64_C(1) << 40, INT64_C(1) << 40, 0, USMARR_UINT8, 0, 0, &a),
                         USMARR_ERROR_OVERFLOW, "n=");
    ck_assert_fails_with(usmarr_array_eye(ctx, 2, 2, 0, USMARR_UINT8, (usmarr_order_t)'K', 0, &a),
                         USMARR_ERROR_INVALID_ARGUMENT, "order=");
    ck_assert_ptr_null(a);
    usmarr_context_release(ctx);
}
END_TEST

/* Ramps long enough for the device's map (lib/engine/sequence.c), with a tail shorter than
 * its row, against the host's start + i * step rounded twice (no fma) and converted as a C
 * cast converts; an end out of range fails as the short form does, naming the first bad value.
 * The longer ramps' results pass the non-temporal size, where the shapes with one element a
 * work-item take the rows of 16-vectors too. */
START_TEST(test_create_long_ramps_match_host_loop)
{
    usmarr_context_t *ctx = test_context();
    static const usmarr_dtype_t dtypes[] = {USMARR_FLOAT32, USMARR_FLOAT64, USMARR_INT32, USMARR_UINT16, USMARR_INT64};
    static const int64_t lengths[] = {70001, 2400001}; /* 17 rows of 4096 and a tail of 369; 585 and 3841 */
    void *raw = malloc(sizeof(double) * (size_t)lengths[1]);
    ck_assert_ptr_nonnull(raw);
    for (size_t t = 0; t < 2 * sizeof dtypes / sizeof dtypes[0]; t++) {
        const int64_t n = lengths[t % 2];
        usmarr_dtype_t dt = dtypes[t / 2];
        if (dt == USMARR_UINT16 && n > 65536) /* its values do not fit */
            continue;
        if (test_dtype_skipped(ctx, dt))
            continue;
        bool integer = dt != USMARR_FLOAT32 && dt != USMARR_FLOAT64;
        for (int linspace = 0; linspace < 2; linspace++) {
            double start = integer ? 3.7 : -1.0 / 3, step = integer ? 0.9 : 0.1;
            usmarr_array_t *a;
            if (linspace)
                ck_assert_ok(usmarr_array_linspace(ctx, start, start + step * (double)(n - 1), n, true, dt, 0, &a));
            else
                ck_assert_ok(usmarr_array_arange(ctx, start, start + step * (double)n - step / 2, step, dt, 0, &a));
            ck_assert_int_eq(usmarr_array_size(a), n);
            ck_assert_ok(usmarr_array_copy_to_host(a, raw, NULL));
            double last = start + step * (double)(n - 1);
            for (int64_t i = 0; i < n; i++) {
                volatile double product = (double)i * (linspace ? (last - start) / (double)(n - 1) : step);
                double y = linspace && i == n - 1 ? last : start + product;
                if (linspace && integer)
                    y = floor(y);
                double want = dt == USMARR_FLOAT32 ? (double)(float)y : integer ? trunc(y) : y;
                double got = dt == USMARR_FLOAT32   ? ((const float *)raw)[i]
                             : dt == USMARR_FLOAT64 ? ((const double *)raw)[i]
                             : dt == USMARR_INT32   ? ((const int32_t *)raw)[i]
                             : dt == USMARR_UINT16  ? ((const uint16_t *)raw)[i]
                                                    : (double)((const int64_t *)raw)[i];
                if (got != want)
                    ck_abort_msg("%s %s: element %lld is %.17g, want %.17g", usmarr_dtype_name(dt),
                                 linspace ? "linspace" : "arange", (long long)i, got, want);
            }
            usmarr_array_release(a);
        }
    }
    free(raw);
    usmarr_array_t *a = NULL;
    ck_assert_fails_with(usmarr_array_arange(ctx, 0, 70000, 1, USMARR_INT16, 0, &a), USMARR_ERROR_OVERFLOW,
                         "start + i*step=32768 ");
    ck_assert_fails_with(usmarr_array_linspace(ctx, -5, 69995, 70001, true, USMARR_UINT16, 0, &a),
                         USMARR_ERROR_OVERFLOW, "linspace value=-5 ");
    ck_assert_ptr_null(a);
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_create_empty_bad_arguments)
{
    usmarr_context_t *ctx = test_context();
    int64_t shape[] = {2, -3};
    usmarr_array_t *a = NULL;
    ck_assert_fails_with(usmarr_array_empty(ctx, 2, shape, USMARR_INT8, 0, 0, &a), USMARR_ERROR_INVALID_ARGUMENT,
                         "shape[1]=-3");
    ck_assert_fails_with(usmarr_array_zeros(ctx, 70, shape, USMARR_INT8, 0, 0, &a), USMARR_ERROR_INVALID_ARGUMENT,
                         "ndim=70");
    ck_assert_fails_with(usmarr_array_ones(ctx, 1, shape, USMARR_INT8, (usmarr_order_t)'A', 0, &a),
                         USMARR_ERROR_INVALID_ARGUMENT, "order=");
    ck_assert_fails_with(usmarr_array_empty(ctx, 1, shape, USMARR_INT8, 0, (usmarr_usm_kind_t)9, &a),
                         USMARR_ERROR_INVALID_ARGUMENT, "kind=9");
    ck_assert_fails_with(usmarr_array_empty(ctx, 1, shape, USMARR_INT8, 0, 0, NULL), USMARR_ERROR_INVALID_ARGUMENT,
                         "array");
    int64_t huge[] = {INT64_C(1) << 61};
    ck_assert_fails_with(usmarr_array_zeros(ctx, 1, huge, USMARR_INT64, 0, 0, &a), USMARR_ERROR_OVERFLOW, "overflow");
    ck_assert_ptr_null(a);
    usmarr_context_release(ctx);
}
END_TEST

Suite *suite_creation(void);
Suite *suite_creation(void)
{
    Suite *s = suite_create("creation");
    TCase *t = tcase_create("core");
    tcase_set_timeout(t, 120);
    tcase_add_loop_test(t, test_create_zeros_ones_empty_each_kind, 0, 3);
    tcase_add_test(t, test_create_full_converts_like_numpy);
    tcase_add_test(t, test_create_like_forms_follow_proto_and_overrides);
    tcase_add_test(t, test_create_host_round_trip_with_arbitrary_strides);
    tcase_add_test(t, test_create_copy_into_strided_view_keeps_gaps);
    tcase_add_test(t, test_create_random_host_transfers_match_oracle);
    tcase_add_test(t, test_create_arange_linspace_eye);
    tcase_add_test(t, test_create_long_ramps_match_host_loop);
    tcase_add_test(t, test_create_empty_bad_arguments);
    suite_add_tcase(s, t);
    return s;
}
