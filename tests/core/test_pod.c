/* The pod allocator (usmarr/pod.h) on USM blocks, tested on its own (no arrays, no kernels). */
#include "../harness/common.h"

#include <CL/cl_ext.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

static const usmarr_usm_kind_t kinds[] = {USMARR_USM_DEVICE, USMARR_USM_SHARED, USMARR_USM_HOST};

static void put_bytes(usmarr_memory_t *m, size_t begin, size_t n, unsigned seed)
{
    unsigned char *buf = malloc(n ? n : 1);
    for (size_t i = 0; i < n; i++)
        buf[i] = (unsigned char)(seed + i * 7u);
    ck_assert_ok(usmarr_memory_copy_from_host(m, begin, buf, n));
    free(buf);
}

static void check_bytes(usmarr_memory_t *m, size_t begin, size_t n, unsigned seed)
{
    unsigned char *buf = malloc(n ? n : 1);
    ck_assert_ok(usmarr_memory_copy_to_host(m, begin, buf, n));
    for (size_t i = 0; i < n; i++)
        ck_assert_msg(buf[i] == (unsigned char)(seed + i * 7u), "byte %zu of [%zu, +%zu) is %u", i, begin, n, buf[i]);
    free(buf);
}

static size_t driver_alloc_size(usmarr_context_t *ctx, const void *pointer)
{
    typedef cl_int(CL_API_CALL * info_fn)(cl_context, const void *, cl_mem_info_intel, size_t, void *, size_t *);
    cl_platform_id platform;
    clGetDeviceInfo(usmarr_context_device(ctx), CL_DEVICE_PLATFORM, sizeof platform, &platform, NULL);
    info_fn info = (info_fn)clGetExtensionFunctionAddressForPlatform(platform, "clGetMemAllocInfoINTEL");
    size_t size = 0;
    ck_assert_int_eq(info(usmarr_context_cl_context(ctx), pointer, CL_MEM_ALLOC_SIZE_INTEL, sizeof size, &size, NULL),
                     CL_SUCCESS);
    return size;
}

/* Whether the allocation holding `pointer` reaches `n` bytes past it.  The driver is the
 * oracle on the USM path; SVM has no allocation query, so there the library's own table
 * answers, through a wrap (out of bounds when the allocation is shorter). */
static bool alloc_reaches(usmarr_context_t *ctx, void *pointer, size_t n)
{
    if (usmarr_context_info(ctx)->backend != USMARR_BACKEND_SVM)
        return driver_alloc_size(ctx, pointer) >= n;
    usmarr_memory_t *w = NULL;
    int rc = usmarr_memory_wrap(ctx, pointer, n, NULL, NULL, &w);
    ck_assert_msg(rc == 0 || rc == USMARR_ERROR_OUT_OF_BOUNDS, "%s", usmarr_last_error_detail());
    usmarr_memory_release(w);
    return rc == 0;
}

START_TEST(test_pod_growth_keeps_data_and_moves_the_block)
{
    usmarr_context_t *ctx = test_context();
    TEST_NEEDS_KIND(ctx, kinds[_i]);
    usmarr_memory_t *m;
    ck_assert_ok(usmarr_memory_create_pod(ctx, kinds[_i], 0, &m));
    ck_assert_int_eq(usmarr_memory_pod_state(m), USMARR_POD_BUILDING);
    ck_assert_int_eq(usmarr_memory_kind(m), kinds[_i]);
    ck_assert_uint_eq(usmarr_memory_size(m), 0);
    size_t begin, end;
    ck_assert_ok(usmarr_memory_pod_allocate(m, 100, 4, &begin, &end));
    ck_assert_uint_eq(begin, 0);
    ck_assert_uint_eq(end, 100);
    ck_assert_uint_eq(usmarr_memory_size(m), 100);
    put_bytes(m, begin, 100, 3);
    void *first = usmarr_memory_pointer(m);
    bool moved = false;
    /* Grow by doubling up to 1 MiB: each step keeps everything written so far. */
    size_t written = 100;
    for (size_t size = 200; size <= (1u << 20); size *= 2) {
        ck_assert_ok(usmarr_memory_pod_resize(m, size, &begin, &end));
        ck_assert_uint_eq(begin, 0);
        ck_assert_uint_eq(end, size);
        ck_assert_uint_eq(usmarr_memory_size(m), size);
        moved |= usmarr_memory_pointer(m) != first;
        check_bytes(m, 0, written, 3);
    }
    ck_assert_msg(moved, "growing from 100 bytes to 1 MiB never moved the block");
    ck_assert_ok(usmarr_memory_pod_finalize(m));
    ck_assert_int_eq(usmarr_memory_pod_state(m), USMARR_POD_FINALIZED);
    check_bytes(m, 0, written, 3);
    usmarr_memory_release(m);
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_pod_several_allocations_keep_offsets_alignment_and_data)
{
    usmarr_context_t *ctx = test_context();
    usmarr_memory_t *m;
    ck_assert_ok(usmarr_memory_create_pod(ctx, USMARR_USM_DEVICE, 64, &m));
    size_t b1, e1, b2, e2, b3, e3;
    ck_assert_ok(usmarr_memory_pod_allocate(m, 13, 1, &b1, &e1));
    put_bytes(m, b1, 13, 11);
    ck_assert_ok(usmarr_memory_pod_allocate(m, 40, 64, &b2, &e2));
    ck_assert_uint_eq(b2, 64);
    ck_assert_uint_eq(e2, 104);
    ck_assert_uint_eq(((uintptr_t)usmarr_memory_pointer(m) + b2) % 64, 0);
    put_bytes(m, b2, 40, 99);
    /* Grow the second far past the capacity: the first keeps offset and bytes. */
    ck_assert_ok(usmarr_memory_pod_resize(m, 10000, &b2, &e2));
    ck_assert_uint_eq(b2, 64);
    ck_assert_uint_eq(e2, 10064);
    check_bytes(m, b1, 13, 11);
    check_bytes(m, b2, 40, 99);
    /* A zero-byte allocation, then a 128-aligned one. */
    ck_assert_ok(usmarr_memory_pod_allocate(m, 0, 0, &b3, &e3));
    ck_assert_uint_eq(b3, 10064);
    ck_assert_uint_eq(e3, b3);
    ck_assert_ok(usmarr_memory_pod_allocate(m, 5, 128, &b3, &e3));
    ck_assert_uint_eq(b3 % 128, 0);
    ck_assert_uint_eq(((uintptr_t)usmarr_memory_pointer(m) + b3) % 128, 0);
    put_bytes(m, b3, 5, 1);
    ck_assert_ok(usmarr_memory_pod_finalize(m));
    ck_assert_uint_eq(usmarr_memory_size(m), e3);
    check_bytes(m, b1, 13, 11);
    check_bytes(m, b2, 40, 99);
    check_bytes(m, b3, 5, 1);
    usmarr_memory_release(m);
    usmarr_context_release(ctx);
}
END_TEST

/* Loop index: kind = _i % 3; _i / 3 == 1 forces the moving trim (non-CPU devices' way). */
START_TEST(test_pod_shrink_keeps_prefix_and_finalize_trims_the_allocation)
{
    usmarr_context_t *ctx = test_context();
    TEST_NEEDS_KIND(ctx, kinds[_i % 3]);
    bool move = _i / 3 == 1, cpu = (usmarr_context_info(ctx)->type & CL_DEVICE_TYPE_CPU) != 0;
    usmarr_memory_t *m;
    ck_assert_ok(usmarr_memory_create_pod(ctx, kinds[_i % 3], 0, &m));
    size_t begin, end, bound = (size_t)1 << 20;
    ck_assert_ok(usmarr_memory_pod_allocate(m, bound, 16, &begin, &end)); /* the upper bound */
    ck_assert(alloc_reaches(ctx, usmarr_memory_pointer(m), bound));
    put_bytes(m, begin, bound, 7); /* touch every page of it */
    put_bytes(m, begin, 1000, 42);
    void *before = usmarr_memory_pointer(m);
    ck_assert_ok(usmarr_memory_pod_resize(m, 1000, &begin, &end)); /* what was needed */
    ck_assert_uint_eq(end, 1000);
    ck_assert_ptr_eq(usmarr_memory_pointer(m), before); /* shrinking never moves */
    ck_assert_uint_eq(usmarr_memory_size(m), 1000);
    check_bytes(m, 0, 1000, 42);
    if (move)
        setenv("USMARR_POD_TRIM", "move", 1);
    ck_assert_ok(usmarr_memory_pod_finalize(m));
    unsetenv("USMARR_POD_TRIM");
    ck_assert_uint_eq(usmarr_memory_size(m), 1000);
    if (move || !cpu) {
        ck_assert(alloc_reaches(ctx, usmarr_memory_pointer(m), 1000));
        ck_assert(!alloc_reaches(ctx, usmarr_memory_pointer(m), 1001));
    } else {
        /* In place: same pointer, and the slack's pages are no longer resident. */
        ck_assert_ptr_eq(usmarr_memory_pointer(m), before);
        size_t page = (size_t)sysconf(_SC_PAGESIZE);
        uintptr_t first = ((uintptr_t)before + 1000 + page - 1) / page * page;
        uintptr_t last = ((uintptr_t)before + bound) / page * page;
        size_t npages = (last - first) / page, resident = 0;
        unsigned char *vec = malloc(npages);
        ck_assert_int_eq(mincore((void *)first, last - first, vec), 0);
        for (size_t i = 0; i < npages; i++)
            resident += vec[i] & 1;
        free(vec);
        ck_assert_msg(resident == 0, "%zu of %zu slack pages still resident after finalize", resident, npages);
    }
    check_bytes(m, 0, 1000, 42);
    /* A finalized block is an ordinary block for copies. */
    usmarr_memory_t *plain;
    ck_assert_ok(usmarr_memory_create(ctx, USMARR_USM_DEVICE, 1000, 0, &plain));
    ck_assert_ok(usmarr_memory_copy(plain, 0, m, 0, 1000));
    check_bytes(plain, 0, 1000, 42);
    usmarr_memory_release(plain);
    usmarr_memory_release(m);
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_pod_finalize_of_an_empty_block_gives_null_and_zero)
{
    usmarr_context_t *ctx = test_context();
    TEST_NEEDS_KIND(ctx, USMARR_USM_SHARED);
    usmarr_memory_t *m;
    ck_assert_ok(usmarr_memory_create_pod(ctx, USMARR_USM_SHARED, 4096, &m));
    ck_assert_ptr_nonnull(usmarr_memory_pointer(m));
    ck_assert_uint_eq(usmarr_memory_size(m), 0);
    ck_assert_ok(usmarr_memory_pod_finalize(m));
    ck_assert_uint_eq(usmarr_memory_size(m), 0);
    usmarr_memory_release(m);
    /* The moving trim ends with no allocation at all. */
    ck_assert_ok(usmarr_memory_create_pod(ctx, USMARR_USM_SHARED, 4096, &m));
    setenv("USMARR_POD_TRIM", "move", 1);
    ck_assert_ok(usmarr_memory_pod_finalize(m));
    unsetenv("USMARR_POD_TRIM");
    ck_assert_ptr_null(usmarr_memory_pointer(m));
    ck_assert_uint_eq(usmarr_memory_size(m), 0);
    usmarr_memory_release(m);
    /* Never allocated at all. */
    ck_assert_ok(usmarr_memory_create_pod(ctx, USMARR_USM_DEVICE, 0, &m));
    ck_assert_ok(usmarr_memory_pod_finalize(m));
    ck_assert_ptr_null(usmarr_memory_pointer(m));
    usmarr_memory_release(m);
    /* Released while still building: nothing leaks. */
    ck_assert_ok(usmarr_memory_create_pod(ctx, USMARR_USM_DEVICE, 100, &m));
    size_t b, e;
    ck_assert_ok(usmarr_memory_pod_allocate(m, 5000, 8, &b, &e));
    usmarr_memory_release(m);
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_pod_api_table_typical_sequence)
{
    /* The allocator's typical sequence: allocate a guess, double while producing, shrink, finalize. */
    usmarr_context_t *ctx = test_context();
    TEST_NEEDS_KIND(ctx, USMARR_USM_SHARED);
    usmarr_memory_t *m;
    ck_assert_ok(usmarr_memory_create_pod(ctx, USMARR_USM_SHARED, 0, &m));
    const usmarr_pod_allocator_api_t *api = usmarr_memory_pod_allocator_api(m);
    ck_assert_ptr_nonnull(api);
    size_t begin, end;
    ck_assert_ok(api->allocate(m, 16, 8, &begin, &end));
    size_t produced = 0, target = 3000;
    unsigned char *host = malloc(target);
    for (size_t i = 0; i < target; i++)
        host[i] = (unsigned char)(i * 13 + 5);
    while (produced < target) {
        size_t chunk = target - produced < 16 ? target - produced : 16;
        if (begin + produced + chunk > end)
            ck_assert_ok(api->resize(m, 2 * (end - begin), &begin, &end));
        ck_assert_ok(usmarr_memory_copy_from_host(m, begin + produced, host + produced, chunk));
        produced += chunk;
    }
    ck_assert_uint_eq(end - begin, 4096);
    ck_assert_ok(api->resize(m, produced, &begin, &end));
    ck_assert_ok(api->finalize(m));
    ck_assert_uint_eq(usmarr_memory_size(m), target);
    unsigned char *back = malloc(target);
    ck_assert_ok(usmarr_memory_copy_to_host(m, 0, back, target));
    ck_assert_mem_eq(back, host, target);
    free(host);
    free(back);
    usmarr_memory_release(m);
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_pod_use_after_finalize_is_rejected)
{
    usmarr_context_t *ctx = test_context();
    usmarr_memory_t *m;
    ck_assert_ok(usmarr_memory_create_pod(ctx, USMARR_USM_DEVICE, 0, &m));
    size_t begin, end;
    ck_assert_ok(usmarr_memory_pod_allocate(m, 64, 8, &begin, &end));
    ck_assert_ok(usmarr_memory_pod_finalize(m));
    void *p = usmarr_memory_pointer(m);
    size_t b2 = 99, e2 = 99;
    ck_assert_fails_with(usmarr_memory_pod_allocate(m, 8, 8, &b2, &e2), USMARR_ERROR_BAD_STATE, "finalized");
    ck_assert_uint_eq(b2, 99);
    ck_assert_fails_with(usmarr_memory_pod_resize(m, 128, &begin, &end), USMARR_ERROR_BAD_STATE, "finalized");
    ck_assert_uint_eq(end, 64);
    ck_assert_fails_with(usmarr_memory_pod_finalize(m), USMARR_ERROR_BAD_STATE, "finalized");
    const usmarr_pod_allocator_api_t *api = usmarr_memory_pod_allocator_api(m);
    ck_assert_ptr_nonnull(api);
    ck_assert_fails_with(api->allocate(m, 8, 8, &b2, &e2), USMARR_ERROR_BAD_STATE, "finalized");
    ck_assert_ptr_eq(usmarr_memory_pointer(m), p);
    ck_assert_uint_eq(usmarr_memory_size(m), 64);
    usmarr_memory_release(m);
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_pod_errors_name_the_argument_and_leave_the_block_unchanged)
{
    usmarr_context_t *ctx = test_context();
    usmarr_memory_t *m = NULL, *plain;
    size_t begin, end;
    ck_assert_fails_with(usmarr_memory_create_pod(NULL, USMARR_USM_DEVICE, 0, &m), USMARR_ERROR_INVALID_ARGUMENT,
                         "context");
    ck_assert_fails_with(usmarr_memory_create_pod(ctx, USMARR_USM_DEVICE, 0, NULL), USMARR_ERROR_INVALID_ARGUMENT,
                         "memory");
    ck_assert_fails_with(usmarr_memory_create_pod(ctx, (usmarr_usm_kind_t)7, 0, &m), USMARR_ERROR_INVALID_ARGUMENT,
                         "kind=7");
    ck_assert_fails_with(usmarr_memory_create_pod(ctx, USMARR_USM_DEVICE, SIZE_MAX / 2, &m), USMARR_ERROR_ALLOCATION,
                         "maximum allocation");
    ck_assert_ptr_null(m);

    /* Ordinary blocks are not pod blocks. */
    ck_assert_ok(usmarr_memory_create(ctx, USMARR_USM_DEVICE, 64, 0, &plain));
    ck_assert_ptr_null(usmarr_memory_pod_allocator_api(plain));
    ck_assert_ptr_nonnull(strstr(usmarr_last_error_detail(), "not a pod block"));
    ck_assert_ptr_null(usmarr_memory_pod_allocator_api(NULL));
    ck_assert_int_eq(usmarr_memory_pod_state(plain), USMARR_POD_NONE);
    ck_assert_int_eq(usmarr_memory_pod_state(NULL), USMARR_POD_NONE);
    ck_assert_fails_with(usmarr_memory_pod_allocate(plain, 8, 8, &begin, &end), USMARR_ERROR_INVALID_ARGUMENT,
                         "not a pod block");
    ck_assert_fails_with(usmarr_memory_pod_finalize(plain), USMARR_ERROR_INVALID_ARGUMENT, "not a pod block");
    usmarr_memory_release(plain);

    ck_assert_ok(usmarr_memory_create_pod(ctx, USMARR_USM_DEVICE, 0, &m));
    ck_assert_fails_with(usmarr_memory_pod_allocate(NULL, 8, 8, &begin, &end), USMARR_ERROR_INVALID_ARGUMENT,
                         "memory is NULL");
    ck_assert_fails_with(usmarr_memory_pod_allocate(m, 8, 8, NULL, &end), USMARR_ERROR_INVALID_ARGUMENT, "out_begin");
    ck_assert_fails_with(usmarr_memory_pod_allocate(m, 8, 8, &begin, NULL), USMARR_ERROR_INVALID_ARGUMENT, "out_end");
    ck_assert_fails_with(usmarr_memory_pod_allocate(m, 8, 12, &begin, &end), USMARR_ERROR_INVALID_ARGUMENT,
                         "alignment=12");
    ck_assert_fails_with(usmarr_memory_pod_allocate(m, 8, 256, &begin, &end), USMARR_ERROR_INVALID_ARGUMENT,
                         "alignment=256");
    ck_assert_fails_with(usmarr_memory_pod_allocate(m, SIZE_MAX / 2, 8, &begin, &end), USMARR_ERROR_ALLOCATION,
                         "maximum allocation");
    ck_assert_uint_eq(usmarr_memory_size(m), 0);

    ck_assert_ok(usmarr_memory_pod_allocate(m, 32, 8, &begin, &end));
    put_bytes(m, begin, 32, 5);
    ck_assert_fails_with(usmarr_memory_pod_allocate(m, SIZE_MAX - 8, 1, &begin, &end), USMARR_ERROR_OVERFLOW,
                         "overflow");
    /* Resizing anything but the most recent allocation. */
    size_t b = begin, e = end + 1;
    ck_assert_fails_with(usmarr_memory_pod_resize(m, 64, &b, &e), USMARR_ERROR_INVALID_ARGUMENT,
                         "not the most recent allocation");
    ck_assert_uint_eq(e, end + 1);
    size_t b2, e2;
    ck_assert_ok(usmarr_memory_pod_allocate(m, 8, 8, &b2, &e2));
    ck_assert_fails_with(usmarr_memory_pod_resize(m, 64, &begin, &end), USMARR_ERROR_INVALID_ARGUMENT,
                         "[begin=0, end=32) is not the most recent allocation [32, 40)");
    ck_assert_fails_with(usmarr_memory_pod_resize(m, 64, NULL, &e2), USMARR_ERROR_INVALID_ARGUMENT, "inout_begin");
    ck_assert_fails_with(usmarr_memory_pod_resize(m, 64, &b2, NULL), USMARR_ERROR_INVALID_ARGUMENT, "inout_end");
    ck_assert_fails_with(usmarr_memory_pod_resize(m, SIZE_MAX / 2, &b2, &e2), USMARR_ERROR_ALLOCATION,
                         "maximum allocation");
    ck_assert_uint_eq(e2, 40);
    ck_assert_fails_with(usmarr_memory_pod_resize(m, SIZE_MAX - 8, &b2, &e2), USMARR_ERROR_OVERFLOW, "overflow");
    ck_assert_uint_eq(usmarr_memory_size(m), 40);
    check_bytes(m, begin, 32, 5);

    /* A shared unfinished block refuses to move, shrink or finalize. */
    usmarr_memory_retain(m);
    ck_assert_fails_with(usmarr_memory_pod_resize(m, 16, &b2, &e2), USMARR_ERROR_BAD_STATE, "refcount 2");
    ck_assert_fails_with(usmarr_memory_pod_allocate(m, 16, 8, &b, &e), USMARR_ERROR_BAD_STATE, "shared");
    ck_assert_fails_with(usmarr_memory_pod_finalize(m), USMARR_ERROR_BAD_STATE, "shared");
    usmarr_memory_release(m);
    ck_assert_int_eq(usmarr_memory_pod_state(m), USMARR_POD_BUILDING);
    ck_assert_fails_with(usmarr_memory_pod_finalize(NULL), USMARR_ERROR_INVALID_ARGUMENT, "memory is NULL");
    ck_assert_fails_with(usmarr_memory_pod_resize(NULL, 1, &b2, &e2), USMARR_ERROR_INVALID_ARGUMENT, "memory is NULL");
    ck_assert_ok(usmarr_memory_pod_finalize(m));
    usmarr_memory_release(m);
    usmarr_context_release(ctx);
}
END_TEST

Suite *suite_pod(void)
{
    Suite *s = suite_create("pod");
    TCase *tc = tcase_create("allocator");
    tcase_add_loop_test(tc, test_pod_growth_keeps_data_and_moves_the_block, 0, 3);
    tcase_add_test(tc, test_pod_several_allocations_keep_offsets_alignment_and_data);
    tcase_add_loop_test(tc, test_pod_shrink_keeps_prefix_and_finalize_trims_the_allocation, 0, 6);
    tcase_add_test(tc, test_pod_finalize_of_an_empty_block_gives_null_and_zero);
    tcase_add_test(tc, test_pod_api_table_typical_sequence);
    tcase_add_test(tc, test_pod_use_after_finalize_is_rejected);
    tcase_add_test(tc, test_pod_errors_name_the_argument_and_leave_the_block_unchanged);
    suite_add_tcase(s, tc);
    return s;
}
