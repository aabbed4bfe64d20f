/* Copy plans (lib/engine/copy_plan.c, cl/boxes.cl), checked byte for byte against host loops over
 * the same strides: every destination element, and every other byte of the destination
 * blocks left alone. */
#include "../harness/common.h"

#include <stdlib.h>
#include <string.h>

#define MAX_PAIRS 32

/* A block of device memory and what the host expects in it. */
struct block {
    usmarr_memory_t *memory;
    unsigned char *expect;
    size_t bytes;
};

/* One pair: a layout over a source block and one over a destination block. */
struct pair {
    usmarr_dtype_t dtype;
    int ndim;
    int64_t shape[3];
    int64_t src_strides[3], src_offset;
    int64_t dst_strides[3], dst_offset;
};

static usmarr_usm_kind_t kinds[3];
static int nkinds;

static void block_init(usmarr_context_t *ctx, struct block *b, size_t bytes, unsigned seed, int which)
{
    b->bytes = bytes;
    b->expect = malloc(bytes);
    for (size_t i = 0; i < bytes; i++)
        b->expect[i] = seed ? (unsigned char)((i * 131 + seed * 7 + (i >> 8)) % 251) : 0xA5;
    ck_assert_ok(usmarr_memory_create(ctx, kinds[which % nkinds], bytes, 0, &b->memory));
    ck_assert_ok(usmarr_memory_copy_from_host(b->memory, 0, b->expect, bytes));
}

static void block_check_and_free(struct block *b)
{
    unsigned char *got = malloc(b->bytes);
    ck_assert_ok(usmarr_memory_copy_to_host(b->memory, 0, got, b->bytes));
    for (size_t i = 0; i < b->bytes; i++)
        if (got[i] != b->expect[i])
            ck_abort_msg("byte %zu of %zu: got 0x%02x, want 0x%02x", i, b->bytes, got[i], b->expect[i]);
    free(got);
    free(b->expect);
    usmarr_memory_release(b->memory);
}

static usmarr_array_t *view(usmarr_memory_t *m, const struct pair *p, const int64_t *strides, int64_t offset)
{
    usmarr_array_options_t o = USMARR_ARRAY_OPTIONS_INIT;
    o.ndim = p->ndim;
    o.shape = p->shape;
    o.strides = strides;
    o.offset = offset;
    o.dtype = p->dtype;
    o.buffer = USMARR_BUFFER_MEMORY;
    o.memory = m;
    usmarr_array_t *a = NULL;
    ck_assert_ok(usmarr_array_create(&o, &a));
    return a;
}

/* The oracle: dst[i] = src[i] over the pair's index space, on the host copies. */
static void expect_copy(const struct pair *p, const struct block *src, struct block *dst)
{
    int64_t n[3] = {1, 1, 1}, s[3] = {0, 0, 0}, d[3] = {0, 0, 0};
    size_t size = usmarr_dtype_size(p->dtype);
    for (int k = 0; k < p->ndim; k++) {
        n[k] = p->shape[k];
        s[k] = p->src_strides[k];
        d[k] = p->dst_strides[k];
    }
    for (int64_t i = 0; i < n[0]; i++)
        for (int64_t j = 0; j < n[1]; j++)
            for (int64_t k = 0; k < n[2]; k++) {
                int64_t from = p->src_offset + i * s[0] + j * s[1] + k * s[2];
                int64_t to = p->dst_offset + i * d[0] + j * d[1] + k * d[2];
                memcpy(dst->expect + to * (int64_t)size, src->expect + from * (int64_t)size, size);
            }
}

/* Runs the pairs through one plan, pair i from block src[i] to block dst[i]. */
static void run_pairs(usmarr_context_t *ctx, int npairs, const struct pair *pairs, struct block *src, struct block *dst)
{
    usmarr_array_t *d[MAX_PAIRS] = {0}, *s[MAX_PAIRS] = {0};
    for (int i = 0; i < npairs; i++) {
        d[i] = view(dst[i].memory, &pairs[i], pairs[i].dst_strides, pairs[i].dst_offset);
        s[i] = view(src[i].memory, &pairs[i], pairs[i].src_strides, pairs[i].src_offset);
        expect_copy(&pairs[i], &src[i], &dst[i]);
    }
    usmarr_copy_plan_t *plan = NULL;
    ck_assert_ok(usmarr_copy_plan_create(ctx, npairs, d, (const usmarr_array_t *const *)s, &plan));
    for (int i = 0; i < npairs; i++) { /* the plan keeps what it needs */
        usmarr_array_release(d[i]);
        usmarr_array_release(s[i]);
    }
    ck_assert_ok(usmarr_copy_plan_run(plan));
    usmarr_copy_plan_release(plan);
}

static void offered_kinds(usmarr_context_t *ctx)
{
    static const usmarr_usm_kind_t all[3] = {USMARR_USM_DEVICE, USMARR_USM_HOST, USMARR_USM_SHARED};
    nkinds = 0;
    for (int k = 0; k < 3; k++)
        if (test_kind_offered(ctx, all[k]))
            kinds[nkinds++] = all[k];
}

/* A 3-D array of (n+2h)^3 elements, C order: the faces, edges and corners a halo exchange
 * packs (width h) into contiguous staging, and unpacks back, for every element size; with
 * an even n the faces across the fastest axis are rows of 8, 16 and 32 bytes aligned to
 * their size (the kernel's one-word rows), with an odd one they are not. */
START_TEST(test_copy_plan_halo_boxes_every_itemsize)
{
    usmarr_context_t *ctx = test_context();
    offered_kinds(ctx);
    static const usmarr_dtype_t dtypes[] = {USMARR_INT8, USMARR_INT16, USMARR_FLOAT32, USMARR_FLOAT64,
                                            USMARR_COMPLEX128};
    const int64_t h = 2;
    for (size_t tn = 0; tn < 2 * sizeof dtypes / sizeof *dtypes; tn++) {
        const size_t t = tn % (sizeof dtypes / sizeof *dtypes);
        const int64_t n = tn < sizeof dtypes / sizeof *dtypes ? 9 : 8, e = n + 2 * h;
        size_t size = usmarr_dtype_size(dtypes[t]);
        struct pair pairs[MAX_PAIRS];
        struct block src[MAX_PAIRS], dst[MAX_PAIRS], field, staging;
        block_init(ctx, &field, (size_t)(e * e * e) * size, 1 + (unsigned)t, (int)t);
        block_init(ctx, &staging, (size_t)(6 * h * n * n + 12 * h * h * n + 8 * h * h * h) * size, 0, (int)t + 1);
        int np = 0;
        int64_t at = 0;
        for (int o0 = -1; o0 <= 1; o0++) /* every direction except (0,0,0) */
            for (int o1 = -1; o1 <= 1; o1++)
                for (int o2 = -1; o2 <= 1; o2++) {
                    int off[3] = {o0, o1, o2};
                    if (!o0 && !o1 && !o2)
                        continue;
                    struct pair *p = &pairs[np];
                    p->dtype = dtypes[t];
                    p->ndim = 3;
                    p->src_offset = 0;
                    p->dst_offset = at;
                    for (int a = 0; a < 3; a++) {
                        p->shape[a] = off[a] ? h : n;
                        p->src_offset += (off[a] > 0 ? n : h) * (a == 0 ? e * e : a == 1 ? e : 1);
                        p->src_strides[a] = a == 0 ? e * e : a == 1 ? e : 1;
                    }
                    p->dst_strides[2] = 1;
                    p->dst_strides[1] = p->shape[2];
                    p->dst_strides[0] = p->shape[1] * p->shape[2];
                    at += p->shape[0] * p->shape[1] * p->shape[2];
                    src[np] = field;
                    dst[np] = staging;
                    np++;
                }
        ck_assert_int_eq(at * (int64_t)size, (int64_t)staging.bytes);
        run_pairs(ctx, np, pairs, src, dst); /* 26 boxes, two blocks: one launch */
        block_check_and_free(&staging);
        block_check_and_free(&field);
    }
    usmarr_context_release(ctx);
}
END_TEST

/* Layouts a halo never has: negative and transposed strides, strided rows, long rows cut
 * into segments with odd tails, rows of every tail length, size-1 and empty pairs, and
 * more memory blocks than one kernel takes (so several launches); a second run reads the
 * sources again. */
START_TEST(test_copy_plan_odd_layouts_and_many_blocks)
{
    usmarr_context_t *ctx = test_context();
    offered_kinds(ctx);
    struct pair pairs[MAX_PAIRS] = {
        /* reversed rows into a transposed destination */
        {USMARR_FLOAT32, 2, {5, 7}, {7, -1}, 6, {1, 5}, 0},
        /* strided innermost axis (every third int16), negative outer stride */
        {USMARR_INT16, 3, {3, 4, 6}, {-72, 18, 3}, 144, {24, 6, 1}, 0},
        /* one long row: 1001 float64 = 8008 bytes, cut into 2048-byte segments */
        {USMARR_FLOAT64, 1, {1001}, {1}, 3, {1}, 5},
        /* short rows of 1..31 bytes: every tail of the 16/8/4/2/1 copies */
        {USMARR_INT8, 2, {31, 31}, {40, 1}, 1, {31, 1}, 0},
        {USMARR_INT8, 2, {4, 19}, {23, 1}, 2, {19, 1}, 0},
        /* long rows of complex128 with a gap between them */
        {USMARR_COMPLEX128, 2, {3, 300}, {301, 1}, 0, {300, 1}, 0},
        /* zero-size and one-element pairs */
        {USMARR_FLOAT32, 2, {0, 5}, {5, 1}, 0, {5, 1}, 0},
        {USMARR_UINT64, 1, {1}, {1}, 7, {1}, 2},
        /* a broadcast source (stride 0) */
        {USMARR_INT32, 2, {6, 10}, {0, 1}, 4, {10, 1}, 0},
    };
    int np = 9;
    for (; np < 18; np++) { /* more pairs, each on its own blocks: 18 pairs, 36 blocks */
        pairs[np] = pairs[np % 9];
        pairs[np].dst_offset += np % 3;
    }
    struct block src[MAX_PAIRS], dst[MAX_PAIRS];
    for (int round = 0; round < 2; round++) {
        for (int i = 0; i < np; i++) {
            size_t size = usmarr_dtype_size(pairs[i].dtype);
            block_init(ctx, &src[i], 4096 * size, (unsigned)(3 + i + 20 * round), i);
            block_init(ctx, &dst[i], 4096 * size, 0, i + 1);
        }
        run_pairs(ctx, np, pairs, src, dst);
        for (int i = 0; i < np; i++) {
            block_check_and_free(&dst[i]);
            block_check_and_free(&src[i]);
        }
    }
    usmarr_context_release(ctx);
}
END_TEST

/* A plan runs as often as asked, reading the sources' current values each time. */
START_TEST(test_copy_plan_reruns_read_current_values)
{
    usmarr_context_t *ctx = test_context();
    int64_t shape[2] = {8, 300};
    usmarr_array_t *a = NULL, *b = NULL;
    ck_assert_ok(usmarr_array_zeros(ctx, 2, shape, USMARR_FLOAT64, USMARR_ORDER_C, USMARR_USM_DEVICE, &a));
    ck_assert_ok(usmarr_array_zeros(ctx, 2, shape, USMARR_FLOAT64, USMARR_ORDER_F, USMARR_USM_DEVICE, &b));
    usmarr_copy_plan_t *plan = NULL;
    ck_assert_ok(usmarr_copy_plan_create(ctx, 1, &b, (const usmarr_array_t *const *)&a, &plan));
    ck_assert_ptr_eq(usmarr_copy_plan_retain(plan), plan);
    usmarr_copy_plan_release(plan);
    ck_assert_int_eq(usmarr_array_refcount(a), 2); /* the plan holds one */
    static double host[8 * 300], got[8 * 300];
    for (int step = 1; step <= 3; step++) {
        for (int i = 0; i < 8 * 300; i++)
            host[i] = step * 10000.0 + i;
        ck_assert_ok(usmarr_array_copy_from_host(a, host, NULL));
        ck_assert_ok(usmarr_copy_plan_run(plan));
        ck_assert_ok(usmarr_array_copy_to_host(b, got, NULL));
        for (int i = 0; i < 8; i++)
            for (int j = 0; j < 300; j++)
                ck_assert_double_eq(got[i * 300 + j], host[i * 300 + j]); /* read back in C order */
    }
    usmarr_copy_plan_release(plan);
    usmarr_array_release(a);
    usmarr_array_release(b);
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_copy_plan_failures)
{
    usmarr_context_t *ctx = test_context(), *other = test_context();
    int64_t s[] = {4, 5}, s2[] = {5, 4}, big[] = {2, 2, 2, 2};
    int64_t gaps[] = {64, 16, 4, 1};
    usmarr_array_t *a, *b, *c, *ro, *x, *wide, *strided4 = NULL;
    ck_assert_ok(usmarr_array_zeros(ctx, 2, s, USMARR_FLOAT32, USMARR_ORDER_C, USMARR_USM_DEVICE, &a));
    ck_assert_ok(usmarr_array_zeros(ctx, 2, s2, USMARR_FLOAT32, USMARR_ORDER_C, USMARR_USM_DEVICE, &b));
    ck_assert_ok(usmarr_array_zeros(ctx, 2, s, USMARR_INT32, USMARR_ORDER_C, USMARR_USM_DEVICE, &c));
    ck_assert_ok(usmarr_array_zeros(ctx, 2, s, USMARR_FLOAT32, USMARR_ORDER_C, USMARR_USM_DEVICE, &ro));
    ck_assert_ok(usmarr_array_make_read_only(ro));
    ck_assert_ok(usmarr_array_zeros(other, 2, s, USMARR_FLOAT32, USMARR_ORDER_C, USMARR_USM_DEVICE, &x));
    ck_assert_ok(usmarr_array_zeros(ctx, 4, big, USMARR_FLOAT32, USMARR_ORDER_C, USMARR_USM_DEVICE, &wide));
    {
        usmarr_memory_t *m = NULL;
        ck_assert_ok(usmarr_memory_create(ctx, USMARR_USM_DEVICE, 4 * 128, 0, &m));
        usmarr_array_options_t o = USMARR_ARRAY_OPTIONS_INIT;
        o.ndim = 4;
        o.shape = big;
        o.strides = gaps; /* no two axes merge: four axes */
        o.dtype = USMARR_FLOAT32;
        o.buffer = USMARR_BUFFER_MEMORY;
        o.memory = m;
        ck_assert_ok(usmarr_array_create(&o, &strided4));
        usmarr_memory_release(m);
    }
    usmarr_copy_plan_t *p = NULL;
    const usmarr_array_t *const *src = (const usmarr_array_t *const *)&a;

    ck_assert_fails_with(usmarr_copy_plan_create(NULL, 1, &b, src, &p), USMARR_ERROR_INVALID_ARGUMENT, "context");
    ck_assert_fails_with(usmarr_copy_plan_create(ctx, 1, &b, src, NULL), USMARR_ERROR_INVALID_ARGUMENT, "plan");
    ck_assert_fails_with(usmarr_copy_plan_create(ctx, -1, &b, src, &p), USMARR_ERROR_INVALID_ARGUMENT, "count=-1");
    ck_assert_fails_with(usmarr_copy_plan_create(ctx, 1, NULL, src, &p), USMARR_ERROR_INVALID_ARGUMENT,
                         "destinations is NULL");
    ck_assert_fails_with(usmarr_copy_plan_create(ctx, 1, &b, NULL, &p), USMARR_ERROR_INVALID_ARGUMENT,
                         "sources is NULL");
    usmarr_array_t *null_array = NULL;
    ck_assert_fails_with(usmarr_copy_plan_create(ctx, 1, &null_array, src, &p), USMARR_ERROR_INVALID_ARGUMENT,
                         "destinations[0] is NULL");
    ck_assert_fails_with(usmarr_copy_plan_create(ctx, 1, &x, src, &p), USMARR_ERROR_CONTEXT_MISMATCH, "another context");
    ck_assert_fails_with(usmarr_copy_plan_create(ctx, 1, &ro, src, &p), USMARR_ERROR_READ_ONLY, "destinations[0]");
    ck_assert_fails_with(usmarr_copy_plan_create(ctx, 1, &c, src, &p), USMARR_ERROR_BAD_DTYPE, "int32");
    ck_assert_fails_with(usmarr_copy_plan_create(ctx, 1, &b, src, &p), USMARR_ERROR_SHAPE_MISMATCH, "pair 0");
    ck_assert_fails_with(usmarr_copy_plan_create(ctx, 1, &wide, (const usmarr_array_t *const *)&strided4, &p),
                         USMARR_ERROR_UNSUPPORTED, "4 axes");
    ck_assert_fails_with(usmarr_copy_plan_run(NULL), USMARR_ERROR_INVALID_ARGUMENT, "plan is NULL");
    usmarr_copy_plan_release(NULL);
    ck_assert_ptr_null(usmarr_copy_plan_retain(NULL));
    /* A failed call leaves its inputs unchanged; an empty plan runs and copies nothing. */
    ck_assert_ptr_null(p);
    ck_assert_int_eq(usmarr_array_refcount(a), 1);
    ck_assert_int_eq(usmarr_array_refcount(wide), 1);
    ck_assert_ok(usmarr_copy_plan_create(ctx, 0, NULL, NULL, &p));
    ck_assert_ok(usmarr_copy_plan_run(p));
    usmarr_copy_plan_release(p);
    usmarr_array_t *all[] = {a, b, c, ro, x, wide, strided4};
    for (size_t i = 0; i < sizeof all / sizeof *all; i++)
        usmarr_array_release(all[i]);
    usmarr_context_release(other);
    usmarr_context_release(ctx);
}
END_TEST

Suite *suite_copy_plan(void)
{
    Suite *s = suite_create("copy_plan");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_copy_plan_halo_boxes_every_itemsize);
    tcase_add_test(tc, test_copy_plan_odd_layouts_and_many_blocks);
    tcase_add_test(tc, test_copy_plan_reruns_read_current_values);
    tcase_add_test(tc, test_copy_plan_failures);
    suite_add_tcase(s, tc);
    return s;
}
