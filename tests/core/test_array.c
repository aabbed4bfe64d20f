/* The array descriptor: the constructor's worked examples (those of dpctl's usm_ndarray),
 * its rules, a randomized property test against a brute-force oracle, and a table of bad inputs. */
#include "../harness/common.h"

#include <stdint.h>
#include <stdlib.h>

/* ---- independent oracle: enumerate every element ------------------------------------ */

struct oracle {
    int64_t count;       /* number of elements */
    int64_t min, max;    /* displacement range (relative to the offset) */
    bool c, f;           /* C/F contiguity by the definition "element k in C (F) order sits at k" */
    bool unique;         /* no two index tuples share an element */
};

/* Visits every index tuple by an odometer, in C order and in F order, without using any
 * stride formula beyond "displacement = sum(i[k] * strides[k])". */
static void oracle_eval(int nd, const int64_t *shape, const int64_t *strides, struct oracle *o)
{
    int64_t n = 1;
    for (int k = 0; k < nd; k++)
        n *= shape[k];
    o->count = n;
    o->min = 0;
    o->max = -1;
    o->c = o->f = true;
    o->unique = true;
    if (n == 0)
        return;
    int64_t *seen = malloc(sizeof(int64_t) * (size_t)n);
    for (int pass = 0; pass < 2; pass++) {
        int64_t idx[16] = {0};
        for (int64_t j = 0; j < n; j++) {
            int64_t d = 0;
            for (int k = 0; k < nd; k++)
                d += idx[k] * strides[k];
            if (pass == 0) {
                if (j == 0 || d < o->min)
                    o->min = d;
                if (j == 0 || d > o->max)
                    o->max = d;
                if (d != j)
                    o->c = false;
                seen[j] = d;
            } else if (d != j) {
                o->f = false;
            }
            /* advance: C order moves the last index fastest, F order the first */
            for (int t = 0; t < nd; t++) {
                int k = pass == 0 ? nd - 1 - t : t;
                if (++idx[k] < shape[k])
                    break;
                idx[k] = 0;
            }
        }
    }
    for (int64_t a = 0; a < n && o->unique; a++)
        for (int64_t b = a + 1; b < n; b++)
            if (seen[a] == seen[b]) {
                o->unique = false;
                break;
            }
    free(seen);
}

static unsigned rng_state = 12345u;
static unsigned rnd(unsigned n)
{
    rng_state = rng_state * 1103515245u + 12345u;
    return (rng_state >> 8) % n;
}

/* ---- the constructor's worked examples ------------------------------------------- */

/* Buffer element of each array element in C order of the index, by the strided formula
 * buf[offset + sum(strides[k] * i[k])]. */
static void landing(const usmarr_array_t *a, int64_t *out)
{
    int nd = usmarr_array_ndim(a);
    const int64_t *shape = usmarr_array_shape(a), *strides = usmarr_array_strides(a);
    int64_t n = usmarr_array_size(a);
    char *base = usmarr_memory_pointer(usmarr_array_memory(a));
    char *data = usmarr_array_data(a);
    int64_t item = (int64_t)usmarr_array_itemsize(a);
    int64_t idx[8] = {0};
    for (int64_t j = 0; j < n; j++) {
        int64_t d = 0;
        for (int k = 0; k < nd; k++)
            d += idx[k] * strides[k];
        out[j] = (data - base) / item + d;
        for (int k = nd - 1; k >= 0; k--) {
            if (++idx[k] < shape[k])
                break;
            idx[k] = 0;
        }
    }
}

START_TEST(test_array_u2_device_c_contiguous)
{
    usmarr_context_t *ctx = test_context();
    usmarr_array_options_t o = USMARR_ARRAY_OPTIONS_INIT;
    int64_t shape[] = {2, 3};
    o.context = ctx;
    o.ndim = 2;
    o.shape = shape;
    o.typestr = "u2";
    o.buffer = USMARR_BUFFER_DEVICE;
    usmarr_array_t *a;
    ck_assert_ok(usmarr_array_create(&o, &a));
    ck_assert_int_eq(usmarr_array_dtype(a), USMARR_UINT16);
    ck_assert_uint_eq(usmarr_memory_size(usmarr_array_memory(a)), 12);
    ck_assert_int_eq(usmarr_memory_kind(usmarr_array_memory(a)), USMARR_USM_DEVICE);
    ck_assert_int_eq(usmarr_array_offset(a), 0);
    ck_assert_int_eq(usmarr_array_strides(a)[0], 3);
    ck_assert_int_eq(usmarr_array_strides(a)[1], 1);
    ck_assert_uint_eq(usmarr_array_flags(a), USMARR_FLAG_C_CONTIGUOUS | USMARR_FLAG_WRITABLE | USMARR_FLAG_READABLE);
    int64_t at[6], want[6] = {0, 1, 2, 3, 4, 5};
    landing(a, at);
    for (int j = 0; j < 6; j++)
        ck_assert_int_eq(at[j], want[j]);
    ck_assert_int_eq(usmarr_array_refcount(a), 1);
    ck_assert_int_eq(usmarr_memory_refcount(usmarr_array_memory(a)), 1);
    usmarr_array_release(a);
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_array_i8_shared_strides_6_1_allocates_9_elements)
{
    usmarr_context_t *ctx = test_context();
    TEST_NEEDS_KIND(ctx, USMARR_USM_SHARED);
    usmarr_array_options_t o = USMARR_ARRAY_OPTIONS_INIT;
    int64_t shape[] = {2, 3}, strides[] = {6, 1};
    o.context = ctx;
    o.ndim = 2;
    o.shape = shape;
    o.typestr = "i8";
    o.buffer = USMARR_BUFFER_SHARED;
    o.strides = strides;
    usmarr_array_t *a;
    ck_assert_ok(usmarr_array_create(&o, &a));
    ck_assert_int_eq(usmarr_array_dtype(a), USMARR_INT64);
    ck_assert_uint_eq(usmarr_memory_size(usmarr_array_memory(a)), 9 * 8);
    ck_assert_int_eq(usmarr_memory_kind(usmarr_array_memory(a)), USMARR_USM_SHARED);
    ck_assert_int_eq(usmarr_array_offset(a), 0);
    ck_assert_uint_eq(usmarr_array_flags(a) & (USMARR_FLAG_C_CONTIGUOUS | USMARR_FLAG_F_CONTIGUOUS), 0);
    int64_t at[6], want[6] = {0, 1, 2, 6, 7, 8};
    landing(a, at);
    for (int j = 0; j < 6; j++)
        ck_assert_int_eq(at[j], want[j]);
    usmarr_array_release(a);
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_array_negative_strides_offset_autocomputed)
{
    /* dpctl: USMArray((2, 2), dtype='u1', buffer='host', strides=(2, -1)): 4 bytes, offset 1,
     * buf_flat = {a[0,1], a[0,0], a[1,1], a[1,0]}. */
    usmarr_context_t *ctx = test_context();
    TEST_NEEDS_KIND(ctx, USMARR_USM_HOST);
    usmarr_array_options_t o = USMARR_ARRAY_OPTIONS_INIT;
    int64_t shape[] = {2, 2}, strides[] = {2, -1};
    o.context = ctx;
    o.ndim = 2;
    o.shape = shape;
    o.typestr = "u1";
    o.buffer = USMARR_BUFFER_HOST;
    o.strides = strides;
    usmarr_array_t *a;
    ck_assert_ok(usmarr_array_create(&o, &a));
    ck_assert_uint_eq(usmarr_memory_size(usmarr_array_memory(a)), 4);
    ck_assert_int_eq(usmarr_memory_kind(usmarr_array_memory(a)), USMARR_USM_HOST);
    ck_assert_int_eq(usmarr_array_offset(a), 1);
    /* a[0,0], a[0,1], a[1,0], a[1,1] land on buffer elements 1, 0, 3, 2 */
    int64_t at[4], want[4] = {1, 0, 3, 2};
    landing(a, at);
    for (int j = 0; j < 4; j++)
        ck_assert_int_eq(at[j], want[j]);
    ck_assert_ptr_eq(usmarr_array_data(a), (char *)usmarr_memory_pointer(usmarr_array_memory(a)) + 1);
    usmarr_array_release(a);

    /* A 3-d layout with two negative strides: offset = -(sum of negative displacements). */
    int64_t shape3[] = {2, 3, 4}, strides3[] = {-12, 4, -1};
    o.ndim = 3;
    o.shape = shape3;
    o.strides = strides3;
    o.typestr = NULL;
    o.dtype = USMARR_FLOAT32;
    ck_assert_ok(usmarr_array_create(&o, &a));
    ck_assert_int_eq(usmarr_array_offset(a), 12 + 3);
    ck_assert_uint_eq(usmarr_memory_size(usmarr_array_memory(a)), 24 * 4);
    usmarr_array_release(a);
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_array_f8_view_strides_minus2_offset7_on_64_bytes)
{
    usmarr_context_t *ctx = test_context();
    usmarr_memory_t *mem;
    ck_assert_ok(usmarr_memory_create(ctx, USMARR_USM_DEVICE, 64, 0, &mem));
    usmarr_array_options_t o = USMARR_ARRAY_OPTIONS_INIT;
    int64_t shape[] = {4}, strides[] = {-2};
    o.ndim = 1;
    o.shape = shape;
    o.typestr = "f8";
    o.buffer = USMARR_BUFFER_MEMORY;
    o.memory = mem;
    o.strides = strides;
    o.offset = 7;
    usmarr_array_t *a;
    ck_assert_ok(usmarr_array_create(&o, &a));
    ck_assert_ptr_eq(usmarr_array_memory(a), mem);
    ck_assert_int_eq(usmarr_memory_refcount(mem), 2);
    ck_assert_int_eq(usmarr_array_offset(a), 7);
    /* buf_flat = {__, a[3], __, a[2], __, a[1], __, a[0]} */
    int64_t at[4], want[4] = {7, 5, 3, 1};
    landing(a, at);
    for (int j = 0; j < 4; j++)
        ck_assert_int_eq(at[j], want[j]);
    usmarr_array_release(a);
    /* One more element (offset 8) would pass the 64-byte end. */
    o.offset = 8;
    ck_assert_fails_with(usmarr_array_create(&o, &a), USMARR_ERROR_OUT_OF_BOUNDS, "offset=8");
    /* offset 5 reaches element -1. */
    o.offset = 5;
    ck_assert_fails_with(usmarr_array_create(&o, &a), USMARR_ERROR_OUT_OF_BOUNDS, "strides[0]=-2");
    ck_assert_int_eq(usmarr_memory_refcount(mem), 1);
    usmarr_memory_release(mem);
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_array_buffer_array_reuses_block)
{
    /* W = USMArray((4, 2), 'i4', 'device', strides=(-5, -2)); W2 over W with W's
     * strides and offset describes the same elements. */
    usmarr_context_t *ctx = test_context();
    usmarr_array_options_t o = USMARR_ARRAY_OPTIONS_INIT;
    int64_t shape[] = {4, 2}, strides[] = {-5, -2};
    o.context = ctx;
    o.ndim = 2;
    o.shape = shape;
    o.typestr = "i4";
    o.strides = strides;
    usmarr_array_t *w, *w2;
    ck_assert_ok(usmarr_array_create(&o, &w));
    ck_assert_int_eq(usmarr_array_offset(w), 15 + 2);
    ck_assert_uint_eq(usmarr_memory_size(usmarr_array_memory(w)), 18 * 4);
    usmarr_array_options_t o2 = USMARR_ARRAY_OPTIONS_INIT;
    o2.ndim = usmarr_array_ndim(w);
    o2.shape = usmarr_array_shape(w);
    o2.typestr = usmarr_dtype_typestr(usmarr_array_dtype(w));
    o2.buffer = USMARR_BUFFER_ARRAY;
    o2.array = w;
    o2.strides = usmarr_array_strides(w);
    o2.offset = usmarr_array_offset(w);
    ck_assert_ok(usmarr_array_create(&o2, &w2));
    ck_assert_ptr_eq(usmarr_array_memory(w2), usmarr_array_memory(w));
    ck_assert_ptr_eq(usmarr_array_data(w2), usmarr_array_data(w));
    ck_assert_uint_eq(usmarr_array_flags(w2), usmarr_array_flags(w));
    usmarr_array_release(w);
    /* w2 keeps the block alive */
    ck_assert_int_eq(usmarr_memory_refcount(usmarr_array_memory(w2)), 1);
    usmarr_array_release(w2);
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_array_order_f_and_zero_d)
{
    usmarr_context_t *ctx = test_context();
    usmarr_array_options_t o = USMARR_ARRAY_OPTIONS_INIT;
    int64_t shape[] = {2, 3, 4};
    o.context = ctx;
    o.ndim = 3;
    o.shape = shape;
    o.order = USMARR_ORDER_F;
    usmarr_array_t *a;
    ck_assert_ok(usmarr_array_create(&o, &a));
    ck_assert_int_eq(usmarr_array_dtype(a), USMARR_FLOAT64); /* the constructor's default |f8 */
    ck_assert_int_eq(usmarr_array_strides(a)[0], 1);
    ck_assert_int_eq(usmarr_array_strides(a)[1], 2);
    ck_assert_int_eq(usmarr_array_strides(a)[2], 6);
    ck_assert_uint_eq(usmarr_array_flags(a) & 3u, USMARR_FLAG_F_CONTIGUOUS);
    ck_assert_int_eq(usmarr_array_nbytes(a), 24 * 8);
    usmarr_array_release(a);
    /* 0-d: one element, both contiguities */
    o.ndim = 0;
    o.shape = NULL;
    ck_assert_ok(usmarr_array_create(&o, &a));
    ck_assert_int_eq(usmarr_array_size(a), 1);
    ck_assert_uint_eq(usmarr_memory_size(usmarr_array_memory(a)), 8);
    ck_assert_uint_eq(usmarr_array_flags(a) & 3u, 3u);
    usmarr_array_release(a);
    /* 32 dimensions of extent 1 and 2 */
    int64_t big[32];
    for (int k = 0; k < 32; k++)
        big[k] = k % 8 == 0 ? 2 : 1;
    o.ndim = 32;
    o.shape = big;
    o.dtype = USMARR_INT8;
    o.order = USMARR_ORDER_C;
    ck_assert_ok(usmarr_array_create(&o, &a));
    ck_assert_int_eq(usmarr_array_size(a), 16);
    ck_assert_uint_eq(usmarr_array_flags(a) & 3u, USMARR_FLAG_C_CONTIGUOUS);
    usmarr_array_release(a);
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_array_exact_flags_reject_overlapping_layouts)
{
    /* Shape (2,2,3), strides (5,4,1): a span test alone would call it C-contiguous. */
    usmarr_context_t *ctx = test_context();
    usmarr_memory_t *mem;
    ck_assert_ok(usmarr_memory_create(ctx, USMARR_USM_DEVICE, 1024, 0, &mem));
    usmarr_array_options_t o = USMARR_ARRAY_OPTIONS_INIT;
    o.dtype = USMARR_FLOAT32;
    o.buffer = USMARR_BUFFER_MEMORY;
    o.memory = mem;
    struct {
        int nd;
        int64_t shape[3], strides[3];
        unsigned cf;
    } cases[] = {
        {3, {2, 2, 3}, {5, 4, 1}, 0},
        {3, {2, 2, 3}, {6, 3, 1}, USMARR_FLAG_C_CONTIGUOUS},
        {3, {2, 1, 3}, {3, 99, 1}, USMARR_FLAG_C_CONTIGUOUS},    /* size-1 stride ignored */
        {3, {2, 1, 3}, {1, -7, 2}, USMARR_FLAG_F_CONTIGUOUS},
        {2, {1, 5}, {3, 1}, USMARR_FLAG_C_CONTIGUOUS | USMARR_FLAG_F_CONTIGUOUS}, /* one non-unit axis */
        {2, {5, 1}, {1, 0}, USMARR_FLAG_C_CONTIGUOUS | USMARR_FLAG_F_CONTIGUOUS},
        {2, {3, 0}, {-9, 4}, USMARR_FLAG_C_CONTIGUOUS | USMARR_FLAG_F_CONTIGUOUS}, /* zero-size */
        {2, {3, 2}, {0, 1}, 0},
        {1, {4}, {-1}, 0},
        {2, {2, 2}, {1, 1}, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        usmarr_array_t *a;
        o.ndim = cases[i].nd;
        o.shape = cases[i].shape;
        o.strides = cases[i].strides;
        o.offset = 20;
        ck_assert_ok(usmarr_array_create(&o, &a));
        ck_assert_msg((usmarr_array_flags(a) & 3u) == cases[i].cf, "case %zu: flags %u, want %u", i,
                      usmarr_array_flags(a) & 3u, cases[i].cf);
        usmarr_array_release(a);
    }
    usmarr_memory_release(mem);
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_array_random_layouts_match_oracle)
{
    usmarr_context_t *ctx = test_context();
    enum { BLOCK = 512 };
    usmarr_memory_t *mem;
    ck_assert_ok(usmarr_memory_create(ctx, USMARR_USM_DEVICE, BLOCK, 0, &mem));
    static const usmarr_dtype_t dts[] = {USMARR_INT8, USMARR_INT16, USMARR_FLOAT32, USMARR_FLOAT64,
                                         USMARR_COMPLEX128};
    int accepted = 0, rejected = 0, contiguous = 0, empty = 0, negative = 0;
    rng_state = 777u;
    for (int iter = 0; iter < 6000; iter++) {
        int nd = (int)rnd(5);
        int64_t shape[4], strides[4];
        for (int k = 0; k < nd; k++) {
            shape[k] = rnd(9) == 0 ? 0 : (int64_t)rnd(5) + 1;
            strides[k] = (int64_t)rnd(15) - 7;
        }
        /* Make a good share exactly contiguous, possibly with a flipped sign. */
        if (rnd(4) == 0) {
            int64_t st = 1;
            bool f = rnd(2);
            for (int t = 0; t < nd; t++) {
                int k = f ? t : nd - 1 - t;
                strides[k] = st;
                st *= shape[k] ? shape[k] : 1;
            }
        }
        usmarr_dtype_t dt = dts[rnd(5)];
        int64_t item = (int64_t)usmarr_dtype_size(dt);
        int64_t offset = (int64_t)rnd(80) - 20;
        struct oracle or;
        oracle_eval(nd, shape, strides, &or);
        bool valid = or.count == 0 || (offset + or.min >= 0 && (offset + or.max + 1) * item <= BLOCK);

        usmarr_array_options_t o = USMARR_ARRAY_OPTIONS_INIT;
        o.ndim = nd;
        o.shape = shape;
        o.strides = strides;
        o.offset = offset;
        o.dtype = dt;
        o.buffer = USMARR_BUFFER_MEMORY;
        o.memory = mem;
        usmarr_array_t *a = NULL;
        int rc = usmarr_array_create(&o, &a);
        if (!valid) {
            ck_assert_msg(rc == USMARR_ERROR_OUT_OF_BOUNDS, "iter %d: accepted an out-of-bounds layout (rc %d)",
                          iter, rc);
            ck_assert_ptr_null(a);
            rejected++;
            continue;
        }
        ck_assert_msg(rc == 0, "iter %d: rejected a valid layout: %s", iter, usmarr_last_error_detail());
        accepted++;
        unsigned f = usmarr_array_flags(a);
        ck_assert_msg(!!(f & USMARR_FLAG_C_CONTIGUOUS) == or.c, "iter %d: C flag %d, oracle %d", iter,
                      !!(f & USMARR_FLAG_C_CONTIGUOUS), or.c);
        ck_assert_msg(!!(f & USMARR_FLAG_F_CONTIGUOUS) == or.f, "iter %d: F flag", iter);
        ck_assert_int_eq(usmarr_array_size(a), or.count);
        contiguous += or.c || or.f;
        empty += or.count == 0;
        negative += or.min < 0;
        usmarr_array_release(a);
    }
    /* The generator really covered every class. */
    ck_assert_int_gt(accepted, 1000);
    ck_assert_int_gt(rejected, 500);
    ck_assert_int_gt(contiguous, 500);
    ck_assert_int_gt(empty, 200);
    ck_assert_int_gt(negative, 500);
    ck_assert_int_eq(usmarr_memory_refcount(mem), 1);
    usmarr_memory_release(mem);
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_array_random_allocations_size_exact_span)
{
    usmarr_context_t *ctx = test_context();
    rng_state = 4242u;
    int aliasing = 0, made = 0;
    for (int iter = 0; iter < 400; iter++) {
        int nd = (int)rnd(4);
        int64_t shape[3], strides[3];
        for (int k = 0; k < nd; k++) {
            shape[k] = rnd(10) == 0 ? 0 : (int64_t)rnd(4) + 1;
            strides[k] = (int64_t)rnd(25) - 12;
        }
        struct oracle or;
        oracle_eval(nd, shape, strides, &or);
        usmarr_array_options_t o = USMARR_ARRAY_OPTIONS_INIT;
        o.context = ctx;
        o.ndim = nd;
        o.shape = shape;
        o.strides = strides;
        o.dtype = USMARR_INT16;
        o.buffer = (usmarr_buffer_t)rnd(3);
        if (!test_kind_offered(ctx, o.buffer == USMARR_BUFFER_HOST     ? USMARR_USM_HOST
                                    : o.buffer == USMARR_BUFFER_SHARED ? USMARR_USM_SHARED
                                                                       : USMARR_USM_DEVICE))
            o.buffer = USMARR_BUFFER_DEVICE;
        usmarr_array_t *a = NULL;
        int rc = usmarr_array_create(&o, &a);
        if (!or.unique) {
            ck_assert_msg(rc == USMARR_ERROR_INVALID_ARGUMENT, "iter %d: allocated an aliasing layout", iter);
            ck_assert_msg(strstr(usmarr_last_error_detail(), "strides[") != NULL, "%s", usmarr_last_error_detail());
            aliasing++;
            continue;
        }
        if (rc == USMARR_ERROR_INVALID_ARGUMENT) /* interleaved but unique: allowed to refuse */
            continue;
        ck_assert_msg(rc == 0, "iter %d: %s", iter, usmarr_last_error_detail());
        made++;
        int64_t want_bytes = or.count ? (or.max - or.min + 1) * 2 : 0;
        ck_assert_int_eq((int64_t)usmarr_memory_size(usmarr_array_memory(a)), want_bytes);
        if (or.count)
            ck_assert_int_eq(usmarr_array_offset(a), -or.min);
        usmarr_array_release(a);
    }
    ck_assert_int_gt(aliasing, 20);
    ck_assert_int_gt(made, 100);
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_array_padded_permuted_layouts_always_allocate)
{
    usmarr_context_t *ctx = test_context();
    /* A permutation of a C layout with padding and sign flips never aliases. */
    int64_t shape[] = {3, 2, 4}, strides[] = {-1, 40, 5};
    usmarr_array_options_t o = USMARR_ARRAY_OPTIONS_INIT;
    o.context = ctx;
    o.ndim = 3;
    o.shape = shape;
    o.strides = strides;
    usmarr_array_t *a;
    ck_assert_ok(usmarr_array_create(&o, &a));
    ck_assert_int_eq(usmarr_array_offset(a), 2);
    ck_assert_uint_eq(usmarr_memory_size(usmarr_array_memory(a)), (2 + 40 + 15 + 1) * 8);
    usmarr_array_release(a);
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_array_read_only_and_immutable)
{
    usmarr_context_t *ctx = test_context();
    usmarr_array_options_t o = USMARR_ARRAY_OPTIONS_INIT;
    int64_t shape[] = {4};
    o.context = ctx;
    o.ndim = 1;
    o.shape = shape;
    o.read_only = true;
    usmarr_array_t *a, *b, *c;
    ck_assert_ok(usmarr_array_create(&o, &a));
    ck_assert_uint_eq(usmarr_array_flags(a) & (USMARR_FLAG_WRITABLE | USMARR_FLAG_READABLE), USMARR_FLAG_READABLE);
    /* A writable array over a read-only array's buffer stays read-only. */
    usmarr_array_options_t o2 = USMARR_ARRAY_OPTIONS_INIT;
    o2.ndim = 1;
    o2.shape = shape;
    o2.buffer = USMARR_BUFFER_ARRAY;
    o2.array = a;
    ck_assert_ok(usmarr_array_create(&o2, &b));
    ck_assert_uint_eq(usmarr_array_flags(b) & USMARR_FLAG_WRITABLE, 0);
    /* ... and one promised immutable over it is immutable (found by fuzz/fuzz_create). */
    o2.immutable = true;
    ck_assert_ok(usmarr_array_create(&o2, &c));
    ck_assert_uint_eq(usmarr_array_flags(c) & (USMARR_FLAG_WRITABLE | USMARR_FLAG_IMMUTABLE), USMARR_FLAG_IMMUTABLE);
    usmarr_array_release(c);
    o2.immutable = false;
    /* ... unless it copies the buffer. */
    o2.copy = true;
    ck_assert_ok(usmarr_array_create(&o2, &c));
    ck_assert_uint_ne(usmarr_array_flags(c) & USMARR_FLAG_WRITABLE, 0);
    ck_assert_ptr_ne(usmarr_array_memory(c), usmarr_array_memory(a));
    ck_assert_uint_eq(usmarr_memory_size(usmarr_array_memory(c)), 32);
    ck_assert_ok(usmarr_array_make_read_only(c));
    ck_assert_uint_eq(usmarr_array_flags(c) & USMARR_FLAG_WRITABLE, 0);
    ck_assert_fails_with(usmarr_array_make_read_only(NULL), USMARR_ERROR_INVALID_ARGUMENT, "array");
    usmarr_array_release(a);
    usmarr_array_release(b);
    usmarr_array_release(c);
    o.read_only = false;
    o.immutable = true;
    ck_assert_ok(usmarr_array_create(&o, &a));
    ck_assert_uint_eq(usmarr_array_flags(a) & (USMARR_FLAG_WRITABLE | USMARR_FLAG_IMMUTABLE), USMARR_FLAG_IMMUTABLE);
    usmarr_array_release(a);
    usmarr_array_release(NULL);
    ck_assert_ptr_null(usmarr_array_retain(NULL));
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_array_float64_on_device_without_fp64_is_an_error)
{
    usmarr_context_t *ctx = test_context();
    /* No device here lacks fp64, so pretend: the info block is the one the check reads. */
    usmarr_device_info_t *info = (usmarr_device_info_t *)usmarr_context_info(ctx);
    bool saved = info->fp64;
    info->fp64 = false;
    usmarr_array_options_t o = USMARR_ARRAY_OPTIONS_INIT;
    int64_t shape[] = {4};
    o.context = ctx;
    o.ndim = 1;
    o.shape = shape;
    usmarr_array_t *a = NULL;
    ck_assert_fails_with(usmarr_array_create(&o, &a), USMARR_ERROR_UNSUPPORTED, "dtype=float64");
    o.typestr = "<c16";
    ck_assert_fails_with(usmarr_array_create(&o, &a), USMARR_ERROR_UNSUPPORTED, "typestr=complex128");
    o.typestr = "<f2"; /* storage-only half works without cl_khr_fp16 */
    ck_assert_ok(usmarr_array_create(&o, &a));
    ck_assert_uint_eq(usmarr_memory_size(usmarr_array_memory(a)), 8);
    usmarr_array_release(a);
    info->fp64 = saved;
    usmarr_context_release(ctx);
}
END_TEST

/* ---- bad inputs ------------------------------------------------------------------- */

enum which { CTX_NONE, CTX_OWN, CTX_OTHER };

struct bad_case {
    const char *name;
    int ndim;
    int64_t shape[3];
    bool with_strides;
    int64_t strides[3];
    int64_t offset;
    int dtype;
    const char *typestr;
    int buffer;
    enum which ctx;
    int order;
    size_t alignment;
    int code;
    const char *needle;
};

START_TEST(test_array_bad_inputs_table)
{
    usmarr_context_t *ctx = test_context(), *other = test_context();
    usmarr_memory_t *mem;
    ck_assert_ok(usmarr_memory_create(ctx, USMARR_USM_DEVICE, 64, 0, &mem));
    const int64_t H = INT64_C(1) << 62;
    static const int F8 = USMARR_FLOAT64;
    const struct bad_case cases[] = {
        {"negative extent", 2, {3, -1}, false, {0}, 0, F8, NULL, USMARR_BUFFER_DEVICE, CTX_OWN, 0, 0,
         USMARR_ERROR_INVALID_ARGUMENT, "shape[1]=-1"},
        {"ndim too large", 65, {1}, false, {0}, 0, F8, NULL, USMARR_BUFFER_DEVICE, CTX_OWN, 0, 0,
         USMARR_ERROR_INVALID_ARGUMENT, "ndim=65"},
        {"ndim negative", -1, {1}, false, {0}, 0, F8, NULL, USMARR_BUFFER_DEVICE, CTX_OWN, 0, 0,
         USMARR_ERROR_INVALID_ARGUMENT, "ndim=-1"},
        {"element count overflows", 3, {H, 4, 2}, false, {0}, 0, F8, NULL, USMARR_BUFFER_DEVICE, CTX_OWN, 0, 0,
         USMARR_ERROR_OVERFLOW, "shape["},
        {"bytes overflow", 1, {H}, false, {0}, 0, F8, NULL, USMARR_BUFFER_DEVICE, CTX_OWN, 0, 0, USMARR_ERROR_OVERFLOW,
         "overflows"},
        {"displacement overflows", 2, {3, 3}, true, {H, 1}, 0, F8, NULL, USMARR_BUFFER_MEMORY, CTX_NONE, 0, 0,
         USMARR_ERROR_OVERFLOW, "strides[0]"},
        {"span overflows", 2, {3, 3}, true, {1, -H}, 0, F8, NULL, USMARR_BUFFER_DEVICE, CTX_OWN, 0, 0,
         USMARR_ERROR_OVERFLOW, "span"}, /* found by fuzz/fuzz_create, as the next */
        {"INT64_MIN stride", 2, {2, 2}, true, {INT64_MIN, 1}, 0, F8, NULL, USMARR_BUFFER_DEVICE, CTX_OWN, 0, 0,
         USMARR_ERROR_OVERFLOW, "span"},
        {"offset overflows", 1, {2}, true, {1}, INT64_MAX, F8, NULL, USMARR_BUFFER_MEMORY, CTX_NONE, 0, 0,
         USMARR_ERROR_OVERFLOW, "offset="},
        {"too big to allocate", 1, {H / 16}, false, {0}, 0, F8, NULL, USMARR_BUFFER_DEVICE, CTX_OWN, 0, 0,
         USMARR_ERROR_ALLOCATION, "size="},
        {"bad dtype", 1, {2}, false, {0}, 0, 99, NULL, USMARR_BUFFER_DEVICE, CTX_OWN, 0, 0, USMARR_ERROR_BAD_DTYPE,
         "dtype=99"},
        {"bad typestr", 1, {2}, false, {0}, 0, F8, ">f8", USMARR_BUFFER_DEVICE, CTX_OWN, 0, 0, USMARR_ERROR_BAD_DTYPE,
         "byte order"},
        {"string typestr", 1, {2}, false, {0}, 0, F8, "<U4", USMARR_BUFFER_DEVICE, CTX_OWN, 0, 0,
         USMARR_ERROR_BAD_DTYPE, "not numeric"},
        {"bad buffer", 1, {2}, false, {0}, 0, F8, NULL, 9, CTX_OWN, 0, 0, USMARR_ERROR_INVALID_ARGUMENT, "buffer=9"},
        {"bad order", 1, {2}, false, {0}, 0, F8, NULL, USMARR_BUFFER_DEVICE, CTX_OWN, 'X', 0,
         USMARR_ERROR_INVALID_ARGUMENT, "order="},
        {"bad alignment", 1, {2}, false, {0}, 0, F8, NULL, USMARR_BUFFER_DEVICE, CTX_OWN, 0, 24,
         USMARR_ERROR_INVALID_ARGUMENT, "alignment=24"},
        {"no context to allocate", 1, {2}, false, {0}, 0, F8, NULL, USMARR_BUFFER_HOST, CTX_NONE, 0, 0,
         USMARR_ERROR_INVALID_ARGUMENT, "context"},
        {"offset with allocation", 1, {2}, false, {0}, 3, F8, NULL, USMARR_BUFFER_DEVICE, CTX_OWN, 0, 0,
         USMARR_ERROR_INVALID_ARGUMENT, "offset=3"},
        {"zero stride in allocation", 2, {2, 3}, true, {0, 1}, 0, F8, NULL, USMARR_BUFFER_DEVICE, CTX_OWN, 0, 0,
         USMARR_ERROR_INVALID_ARGUMENT, "strides[0]=0"},
        {"overlap in allocation", 3, {2, 2, 3}, true, {5, 4, 1}, 0, F8, NULL, USMARR_BUFFER_DEVICE, CTX_OWN, 0, 0,
         USMARR_ERROR_INVALID_ARGUMENT, "strides[0]=5"},
        {"past the end", 1, {9}, false, {0}, 0, F8, NULL, USMARR_BUFFER_MEMORY, CTX_NONE, 0, 0,
         USMARR_ERROR_OUT_OF_BOUNDS, "buffer has 64"},
        {"before the start", 2, {2, 2}, true, {2, -1}, 0, F8, NULL, USMARR_BUFFER_MEMORY, CTX_NONE, 0, 0,
         USMARR_ERROR_OUT_OF_BOUNDS, "strides[1]=-1"},
        {"negative offset", 1, {2}, true, {1}, -1, F8, NULL, USMARR_BUFFER_MEMORY, CTX_NONE, 0, 0,
         USMARR_ERROR_OUT_OF_BOUNDS, "offset=-1"},
        {"other context", 1, {2}, false, {0}, 0, F8, NULL, USMARR_BUFFER_MEMORY, CTX_OTHER, 0, 0,
         USMARR_ERROR_CONTEXT_MISMATCH, "context"},
        {"memory missing", 1, {2}, false, {0}, 0, F8, NULL, -3, CTX_NONE, 0, 0, USMARR_ERROR_INVALID_ARGUMENT,
         "memory is NULL"},
        {"array missing", 1, {2}, false, {0}, 0, F8, NULL, USMARR_BUFFER_ARRAY, CTX_NONE, 0, 0,
         USMARR_ERROR_INVALID_ARGUMENT, "array is NULL"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const struct bad_case *c = &cases[i];
        usmarr_array_options_t o = USMARR_ARRAY_OPTIONS_INIT;
        o.ndim = c->ndim;
        o.shape = c->shape;
        o.strides = c->with_strides ? c->strides : NULL;
        o.offset = c->offset;
        o.dtype = (usmarr_dtype_t)c->dtype;
        o.typestr = c->typestr;
        o.buffer = c->buffer == -3 ? USMARR_BUFFER_MEMORY : (usmarr_buffer_t)c->buffer;
        o.memory = c->buffer == USMARR_BUFFER_MEMORY ? mem : NULL;
        o.context = c->ctx == CTX_OWN ? ctx : c->ctx == CTX_OTHER ? other : NULL;
        o.order = (usmarr_order_t)c->order;
        o.alignment = c->alignment;
        usmarr_array_t *a = NULL;
        int rc = usmarr_array_create(&o, &a);
        ck_assert_msg(rc == c->code, "%s: got %s, want %s (%s)", c->name, usmarr_error_name(rc),
                      usmarr_error_name(c->code), usmarr_last_error_detail());
        ck_assert_msg(strstr(usmarr_last_error_detail(), c->needle) != NULL, "%s: detail \"%s\" lacks \"%s\"",
                      c->name, usmarr_last_error_detail(), c->needle);
        ck_assert_ptr_null(a);
    }
    ck_assert_fails_with(usmarr_array_create(NULL, NULL), USMARR_ERROR_INVALID_ARGUMENT, "options");
    usmarr_array_options_t o = USMARR_ARRAY_OPTIONS_INIT;
    ck_assert_fails_with(usmarr_array_create(&o, NULL), USMARR_ERROR_INVALID_ARGUMENT, "array");
    o.ndim = 2;
    usmarr_array_t *a = NULL;
    ck_assert_fails_with(usmarr_array_create(&o, &a), USMARR_ERROR_INVALID_ARGUMENT, "shape is NULL");
    ck_assert_int_eq(usmarr_memory_refcount(mem), 1); /* failures took no reference */
    usmarr_memory_release(mem);
    usmarr_context_release(ctx);
    usmarr_context_release(other);
}
END_TEST

START_TEST(test_array_misaligned_wrapped_pointer_rejected)
{
    usmarr_context_t *ctx = test_context();
    usmarr_memory_t *owner, *odd;
    ck_assert_ok(usmarr_memory_create(ctx, USMARR_USM_DEVICE, 256, 0, &owner));
    ck_assert_ok(usmarr_memory_wrap(ctx, (char *)usmarr_memory_pointer(owner) + 2, 128, NULL, NULL, &odd));
    usmarr_array_options_t o = USMARR_ARRAY_OPTIONS_INIT;
    int64_t shape[] = {4};
    o.ndim = 1;
    o.shape = shape;
    o.dtype = USMARR_INT32;
    o.buffer = USMARR_BUFFER_MEMORY;
    o.memory = odd;
    usmarr_array_t *a = NULL;
    ck_assert_fails_with(usmarr_array_create(&o, &a), USMARR_ERROR_INVALID_ARGUMENT, "4-byte aligned");
    o.dtype = USMARR_INT16; /* 2-byte alignment is fine there */
    ck_assert_ok(usmarr_array_create(&o, &a));
    usmarr_array_release(a);
    usmarr_memory_release(odd);
    usmarr_memory_release(owner);
    usmarr_context_release(ctx);
}
END_TEST

Suite *suite_array(void);
Suite *suite_array(void)
{
    Suite *s = suite_create("array");
    TCase *t = tcase_create("core");
    tcase_set_timeout(t, 120);
    tcase_add_test(t, test_array_u2_device_c_contiguous);
    tcase_add_test(t, test_array_i8_shared_strides_6_1_allocates_9_elements);
    tcase_add_test(t, test_array_negative_strides_offset_autocomputed);
    tcase_add_test(t, test_array_f8_view_strides_minus2_offset7_on_64_bytes);
    tcase_add_test(t, test_array_buffer_array_reuses_block);
    tcase_add_test(t, test_array_order_f_and_zero_d);
    tcase_add_test(t, test_array_exact_flags_reject_overlapping_layouts);
    tcase_add_test(t, test_array_random_layouts_match_oracle);
    tcase_add_test(t, test_array_random_allocations_size_exact_span);
    tcase_add_test(t, test_array_padded_permuted_layouts_always_allocate);
    tcase_add_test(t, test_array_read_only_and_immutable);
    tcase_add_test(t, test_array_float64_on_device_without_fp64_is_an_error);
    tcase_add_test(t, test_array_bad_inputs_table);
    tcase_add_test(t, test_array_misaligned_wrapped_pointer_rejected);
    suite_add_tcase(s, t);
    return s;
}
