#include "../harness/common.h"

#include <CL/cl_ext.h>
#include <stdint.h>
#include <stdlib.h>

static const usmarr_usm_kind_t kinds[] = {USMARR_USM_DEVICE, USMARR_USM_SHARED, USMARR_USM_HOST};

START_TEST(test_memory_each_kind_allocates_copies_and_fills)
{
    usmarr_context_t *ctx = test_context();
    usmarr_usm_kind_t kind = kinds[_i];
    TEST_NEEDS_KIND(ctx, kind);
    enum { N = 4099 }; /* odd size: no accidental multiple of a vector width */
    usmarr_memory_t *a, *b;
    ck_assert_ok(usmarr_memory_create(ctx, kind, N * 4, 64, &a));
    ck_assert_ok(usmarr_memory_create(ctx, kind, N * 4, 0, &b));
    ck_assert_int_eq(usmarr_memory_kind(a), kind);
    ck_assert_uint_eq(usmarr_memory_size(a), N * 4);
    ck_assert_ptr_eq(usmarr_memory_context(a), ctx);
    ck_assert_uint_eq((uintptr_t)usmarr_memory_pointer(a) % 64, 0);
    /* The driver agrees about what we allocated (on the SVM backend, which keeps its own
     * table, a wrap of the pointer asks the table). */
    if (usmarr_context_info(ctx)->backend == USMARR_BACKEND_SVM) {
        usmarr_memory_t *w;
        ck_assert_ok(usmarr_memory_wrap(ctx, usmarr_memory_pointer(a), N * 4, NULL, NULL, &w));
        ck_assert_int_eq(usmarr_memory_kind(w), kind);
        usmarr_memory_release(w);
    } else {
        cl_unified_shared_memory_type_intel type = 0;
        typedef cl_int(CL_API_CALL * info_fn)(cl_context, const void *, cl_mem_info_intel, size_t, void *, size_t *);
        cl_platform_id platform;
        clGetDeviceInfo(usmarr_context_device(ctx), CL_DEVICE_PLATFORM, sizeof platform, &platform, NULL);
        info_fn info = (info_fn)clGetExtensionFunctionAddressForPlatform(platform, "clGetMemAllocInfoINTEL");
        ck_assert_int_eq(info(usmarr_context_cl_context(ctx), usmarr_memory_pointer(a), CL_MEM_ALLOC_TYPE_INTEL,
                              sizeof type, &type, NULL),
                         CL_SUCCESS);
        ck_assert_uint_eq(type, kind == USMARR_USM_DEVICE   ? CL_MEM_TYPE_DEVICE_INTEL
                                : kind == USMARR_USM_SHARED ? CL_MEM_TYPE_SHARED_INTEL
                                                            : CL_MEM_TYPE_HOST_INTEL);
    }

    int32_t *host = malloc(N * 4), *back = malloc(N * 4);
    for (int i = 0; i < N; i++)
        host[i] = i * 7 - 1000;
    ck_assert_ok(usmarr_memory_copy_from_host(a, 0, host, N * 4));
    ck_assert_ok(usmarr_memory_copy(b, 0, a, 0, N * 4));
    memset(back, 0, N * 4);
    ck_assert_ok(usmarr_memory_copy_to_host(b, 0, back, N * 4));
    for (int i = 0; i < N; i++)
        ck_assert_int_eq(back[i], i * 7 - 1000);
    /* Partial copies at offsets. */
    ck_assert_ok(usmarr_memory_copy(b, 8, a, 400, 40));
    ck_assert_ok(usmarr_memory_copy_to_host(b, 0, back, 64));
    ck_assert_int_eq(back[0], host[0]);
    ck_assert_int_eq(back[1], host[1]);
    for (int i = 0; i < 10; i++)
        ck_assert_int_eq(back[2 + i], host[100 + i]);
    ck_assert_int_eq(back[12], host[12]);
    /* Fill a sub-range with a 4-byte pattern, the rest stays. */
    int32_t pattern = -77;
    ck_assert_ok(usmarr_memory_fill(a, 16, &pattern, 4, 4 * 1000));
    ck_assert_ok(usmarr_memory_copy_to_host(a, 0, back, N * 4));
    for (int i = 0; i < N; i++)
        ck_assert_int_eq(back[i], (i >= 4 && i < 1004) ? -77 : host[i]);
    /* Patterns of 1, 2, 8, 16 bytes. */
    for (size_t ps = 1; ps <= 16; ps *= 2) {
        unsigned char pat[16];
        for (size_t k = 0; k < ps; k++)
            pat[k] = (unsigned char)(0x10 + k);
        ck_assert_ok(usmarr_memory_fill(b, 0, pat, ps, 1024));
        ck_assert_ok(usmarr_memory_copy_to_host(b, 0, back, 1024));
        for (size_t k = 0; k < 1024; k++)
            ck_assert_uint_eq(((unsigned char *)back)[k], 0x10 + k % ps);
    }
    free(host);
    free(back);
    usmarr_memory_release(a);
    usmarr_memory_release(b);
    usmarr_context_release(ctx);
}
END_TEST

/* Long fills with wide patterns (filled in part, then doubled by copies where the runtime's
 * wide fill is slow; one repeated byte filled as that byte): every byte of a range of 1 MiB
 * + 384 at an offset, the bytes around it untouched. */
START_TEST(test_memory_long_wide_fills)
{
    usmarr_context_t *ctx = test_context();
    size_t span = (1u << 20) + 384, total = span + 256;
    unsigned char *back = malloc(total), zero = 0;
    usmarr_memory_t *m;
    ck_assert_ptr_nonnull(back);
    ck_assert_ok(usmarr_memory_create(ctx, USMARR_USM_DEVICE, total, 0, &m));
    /* patterns of 2 to 128 bytes, then 16 bytes of one repeated byte */
    static const size_t sizes[] = {2, 8, 32, 128, 16};
    for (size_t c = 0; c < sizeof sizes / sizeof sizes[0]; c++) {
        size_t ps = sizes[c];
        bool uniform = c == sizeof sizes / sizeof sizes[0] - 1;
        unsigned char pat[128];
        for (size_t k = 0; k < ps; k++)
            pat[k] = uniform ? 0xab : (unsigned char)(0x21 + 7 * k + ps);
        ck_assert_ok(usmarr_memory_fill(m, 0, &zero, 1, total));
        ck_assert_ok(usmarr_memory_fill(m, 128, pat, ps, span));
        ck_assert_ok(usmarr_memory_copy_to_host(m, 0, back, total));
        for (size_t k = 0; k < total; k++) {
            unsigned want = k >= 128 && k < 128 + span ? pat[(k - 128) % ps] : 0;
            if (back[k] != want)
                ck_abort_msg("pattern of %zu bytes: byte %zu is %u, want %u", ps, k, back[k], want);
        }
    }
    free(back);
    usmarr_memory_release(m);
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_memory_zero_size_block_is_well_defined)
{
    usmarr_context_t *ctx = test_context();
    usmarr_memory_t *m;
    ck_assert_ok(usmarr_memory_create(ctx, USMARR_USM_DEVICE, 0, 0, &m));
    ck_assert_uint_eq(usmarr_memory_size(m), 0);
    ck_assert_ptr_null(usmarr_memory_pointer(m));
    char c = 1;
    ck_assert_ok(usmarr_memory_copy_to_host(m, 0, &c, 0));
    ck_assert_ok(usmarr_memory_fill(m, 0, &c, 1, 0));
    ck_assert_fails_with(usmarr_memory_copy_to_host(m, 0, &c, 1), USMARR_ERROR_OUT_OF_BOUNDS, "0 bytes");
    usmarr_memory_release(m);
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_memory_block_outlives_its_context_handle)
{
    usmarr_context_t *ctx = test_context();
    usmarr_memory_t *m;
    ck_assert_ok(usmarr_memory_create(ctx, USMARR_USM_DEVICE, 1024, 0, &m));
    usmarr_context_release(ctx); /* the block still holds the context */
    int64_t v = 0x1122334455667788LL, out[128];
    ck_assert_ok(usmarr_memory_fill(m, 0, &v, 8, 1024));
    ck_assert_ok(usmarr_memory_copy_to_host(m, 0, out, 1024));
    for (int i = 0; i < 128; i++)
        ck_assert(out[i] == v);
    ck_assert_ptr_nonnull(usmarr_context_cl_context(usmarr_memory_context(m)));
    ck_assert_ptr_eq(usmarr_memory_retain(m), m);
    ck_assert_int_eq(usmarr_memory_refcount(m), 2);
    usmarr_memory_release(m);
    ck_assert_int_eq(usmarr_memory_refcount(m), 1);
    usmarr_memory_release(m);
    usmarr_memory_release(NULL);
}
END_TEST

struct release_record {
    void *pointer;
    int calls;
};

static void record_release(void *pointer, void *user)
{
    struct release_record *r = user;
    r->pointer = pointer;
    r->calls++;
}

START_TEST(test_memory_wrap_validates_foreign_pointers)
{
    usmarr_context_t *ctx = test_context(), *other = test_context();
    usmarr_memory_t *owner, *foreign, *wrapped = NULL;
    ck_assert_ok(usmarr_memory_create(ctx, USMARR_USM_DEVICE, 4096, 0, &owner));
    ck_assert_ok(usmarr_memory_create(other, USMARR_USM_DEVICE, 4096, 0, &foreign));
    char *base = usmarr_memory_pointer(owner);
    struct release_record rec = {0};

    ck_assert_fails_with(usmarr_memory_wrap(ctx, NULL, 16, NULL, NULL, &wrapped), USMARR_ERROR_FOREIGN_POINTER,
                         "pointer is NULL");
    ck_assert_fails_with(usmarr_memory_wrap(ctx, usmarr_memory_pointer(foreign), 16, record_release, &rec, &wrapped),
                         USMARR_ERROR_FOREIGN_POINTER, "not a USM allocation of this context");
    char stack[16];
    ck_assert_fails_with(usmarr_memory_wrap(ctx, stack, 16, NULL, NULL, &wrapped), USMARR_ERROR_FOREIGN_POINTER,
                         "pointer");
    ck_assert_fails_with(usmarr_memory_wrap(ctx, base + 4000, 200, record_release, &rec, &wrapped),
                         USMARR_ERROR_OUT_OF_BOUNDS, "4096 bytes");
    ck_assert_fails_with(usmarr_memory_wrap(NULL, base, 16, NULL, NULL, &wrapped), USMARR_ERROR_INVALID_ARGUMENT,
                         "context");
    ck_assert_ptr_null(wrapped);
    ck_assert_int_eq(rec.calls, 0); /* failed wraps never call the release callback */

    ck_assert_ok(usmarr_memory_wrap(ctx, base + 1024, 3072, record_release, &rec, &wrapped));
    ck_assert_int_eq(usmarr_memory_kind(wrapped), USMARR_USM_DEVICE);
    int32_t v = 99, out;
    ck_assert_ok(usmarr_memory_fill(wrapped, 0, &v, 4, 4));
    ck_assert_ok(usmarr_memory_copy_to_host(owner, 1024, &out, 4));
    ck_assert_int_eq(out, 99);
    usmarr_memory_release(wrapped);
    ck_assert_ok(usmarr_context_finish(ctx)); /* the release ran after the fill, at the latest now */
    ck_assert_int_eq(rec.calls, 1);
    ck_assert_ptr_eq(rec.pointer, base + 1024);
    usmarr_memory_release(owner);
    usmarr_memory_release(foreign);
    usmarr_context_release(ctx);
    usmarr_context_release(other);
}
END_TEST

/* Pointer check through the driver: is `p` a live allocation of the context?  (On the
 * SVM backend, whose allocations the driver cannot be asked about, through the library's
 * table: a wrap of one byte.) */
static bool driver_knows(usmarr_context_t *ctx, const void *p)
{
    if (usmarr_context_info(ctx)->backend == USMARR_BACKEND_SVM) {
        usmarr_memory_t *w = NULL;
        bool known = usmarr_memory_wrap(ctx, (void *)p, 1, NULL, NULL, &w) == 0;
        usmarr_memory_release(w);
        return known;
    }
    typedef cl_int(CL_API_CALL * info_fn)(cl_context, const void *, cl_mem_info_intel, size_t, void *, size_t *);
    cl_platform_id platform;
    clGetDeviceInfo(usmarr_context_device(ctx), CL_DEVICE_PLATFORM, sizeof platform, &platform, NULL);
    info_fn info = (info_fn)clGetExtensionFunctionAddressForPlatform(platform, "clGetMemAllocInfoINTEL");
    cl_unified_shared_memory_type_intel type = CL_MEM_TYPE_UNKNOWN_INTEL;
    cl_int err = info(usmarr_context_cl_context(ctx), p, CL_MEM_ALLOC_TYPE_INTEL, sizeof type, &type, NULL);
    return err == CL_SUCCESS && type != CL_MEM_TYPE_UNKNOWN_INTEL;
}

/* Released device blocks are reused for the next block of their size (and kept allocated
 * meanwhile); other sizes, foreign blocks and a pool of 0 bytes free as before. */
START_TEST(test_memory_released_device_blocks_are_pooled)
{
    const char *saved = getenv("USMARR_POOL_BYTES");
    char *restore = saved ? strdup(saved) : NULL;
    setenv("USMARR_POOL_BYTES", "1048576", 1);
    usmarr_context_t *ctx;
    ck_assert_ok(usmarr_context_create(test_selector, &ctx));
    usmarr_memory_t *a, *b, *c;
    ck_assert_ok(usmarr_memory_create(ctx, USMARR_USM_DEVICE, 4096, 0, &a));
    void *pa = usmarr_memory_pointer(a);
    usmarr_memory_release(a);
    ck_assert(driver_knows(ctx, pa)); /* kept, not freed */
    ck_assert_ok(usmarr_memory_create(ctx, USMARR_USM_DEVICE, 4000, 0, &c));
    ck_assert_ptr_ne(usmarr_memory_pointer(c), pa); /* another size: a fresh block */
    ck_assert_ok(usmarr_memory_create(ctx, USMARR_USM_DEVICE, 4096, 0, &b));
    ck_assert_ptr_eq(usmarr_memory_pointer(b), pa); /* the same size: the pooled block */
    /* A reused block works as a fresh one. */
    uint32_t in[1024], out[1024];
    for (int i = 0; i < 1024; i++)
        in[i] = (uint32_t)i * 2654435761u;
    ck_assert_ok(usmarr_memory_copy_from_host(b, 0, in, sizeof in));
    ck_assert_ok(usmarr_memory_copy_to_host(b, 0, out, sizeof out));
    ck_assert_mem_eq(in, out, sizeof in);
    /* Beyond the limit a released block is freed: 2 MiB does not fit into 1 MiB. */
    usmarr_memory_t *big;
    ck_assert_ok(usmarr_memory_create(ctx, USMARR_USM_DEVICE, 2 << 20, 0, &big));
    void *pbig = usmarr_memory_pointer(big);
    usmarr_memory_release(big);
    ck_assert_ok(usmarr_context_finish(ctx)); /* freed after its queue's work, at the latest now */
    ck_assert(!driver_knows(ctx, pbig));
    /* Filling the pool pushes the oldest block out: 300 KiB blocks, three fit. */
    usmarr_memory_t *m[4];
    void *pm[4];
    for (int i = 0; i < 4; i++) {
        ck_assert_ok(usmarr_memory_create(ctx, USMARR_USM_DEVICE, 300 << 10, 0, &m[i]));
        pm[i] = usmarr_memory_pointer(m[i]);
    }
    for (int i = 0; i < 4; i++)
        usmarr_memory_release(m[i]);
    ck_assert_ok(usmarr_context_finish(ctx));
    ck_assert(!driver_knows(ctx, pm[0]));
    ck_assert(driver_knows(ctx, pm[3]));
    usmarr_memory_release(b);
    usmarr_memory_release(c);
    usmarr_context_release(ctx);

    setenv("USMARR_POOL_BYTES", "0", 1); /* off: every release frees */
    ck_assert_ok(usmarr_context_create(test_selector, &ctx));
    ck_assert_ok(usmarr_memory_create(ctx, USMARR_USM_DEVICE, 4096, 0, &a));
    pa = usmarr_memory_pointer(a);
    usmarr_memory_release(a);
    ck_assert_ok(usmarr_context_finish(ctx));
    ck_assert(!driver_knows(ctx, pa));
    usmarr_context_release(ctx);
    if (restore)
        setenv("USMARR_POOL_BYTES", restore, 1);
    else
        unsetenv("USMARR_POOL_BYTES");
    free(restore);
}
END_TEST

START_TEST(test_memory_bad_arguments_fail_and_leak_nothing)
{
    usmarr_context_t *ctx = test_context(), *other = test_context();
    usmarr_memory_t *m = NULL, *a, *b;
    const usmarr_device_info_t *info = usmarr_context_info(ctx);
    ck_assert_fails_with(usmarr_memory_create(ctx, USMARR_USM_DEVICE, (size_t)info->max_alloc_size + 1, 0, &m),
                         USMARR_ERROR_ALLOCATION, "CL_DEVICE_MAX_MEM_ALLOC_SIZE");
    ck_assert_fails_with(usmarr_memory_create(ctx, USMARR_USM_DEVICE, SIZE_MAX, 0, &m), USMARR_ERROR_ALLOCATION,
                         "size=");
    ck_assert_fails_with(usmarr_memory_create(ctx, (usmarr_usm_kind_t)7, 16, 0, &m), USMARR_ERROR_INVALID_ARGUMENT,
                         "kind=7");
    ck_assert_fails_with(usmarr_memory_create(ctx, USMARR_USM_HOST, 16, 48, &m), USMARR_ERROR_INVALID_ARGUMENT,
                         "alignment=48");
    ck_assert_fails_with(usmarr_memory_create(NULL, USMARR_USM_HOST, 16, 0, &m), USMARR_ERROR_INVALID_ARGUMENT,
                         "context");
    ck_assert_fails_with(usmarr_memory_create(ctx, USMARR_USM_HOST, 16, 0, NULL), USMARR_ERROR_INVALID_ARGUMENT,
                         "memory");
    ck_assert_ptr_null(m);

    ck_assert_ok(usmarr_memory_create(ctx, USMARR_USM_DEVICE, 64, 0, &a));
    ck_assert_ok(usmarr_memory_create(other, USMARR_USM_DEVICE, 64, 0, &b));
    char buf[128] = {0};
    ck_assert_fails_with(usmarr_memory_copy_from_host(a, 32, buf, 40), USMARR_ERROR_OUT_OF_BOUNDS, "64 bytes");
    ck_assert_fails_with(usmarr_memory_copy_to_host(a, 65, buf, 0), USMARR_ERROR_OUT_OF_BOUNDS, "64 bytes");
    ck_assert_fails_with(usmarr_memory_copy_to_host(a, 0, NULL, 4), USMARR_ERROR_INVALID_ARGUMENT, "destination");
    ck_assert_fails_with(usmarr_memory_copy_from_host(NULL, 0, buf, 4), USMARR_ERROR_INVALID_ARGUMENT, "memory");
    ck_assert_fails_with(usmarr_memory_copy(a, 0, b, 0, 8), USMARR_ERROR_CONTEXT_MISMATCH, "different");
    ck_assert_fails_with(usmarr_memory_copy(a, 0, a, 4, 8), USMARR_ERROR_INVALID_ARGUMENT, "overlap");
    ck_assert_fails_with(usmarr_memory_copy(a, 60, a, 0, 8), USMARR_ERROR_OUT_OF_BOUNDS, "destination");
    ck_assert_fails_with(usmarr_memory_copy(NULL, 0, a, 0, 8), USMARR_ERROR_INVALID_ARGUMENT, "destination");
    ck_assert_fails_with(usmarr_memory_fill(a, 0, buf, 3, 6), USMARR_ERROR_INVALID_ARGUMENT, "pattern_size=3");
    ck_assert_fails_with(usmarr_memory_fill(a, 0, buf, 256, 256), USMARR_ERROR_INVALID_ARGUMENT, "pattern_size=256");
    ck_assert_fails_with(usmarr_memory_fill(a, 2, buf, 4, 8), USMARR_ERROR_INVALID_ARGUMENT, "multiples");
    ck_assert_fails_with(usmarr_memory_fill(a, 0, NULL, 4, 8), USMARR_ERROR_INVALID_ARGUMENT, "pattern");
    ck_assert_fails_with(usmarr_memory_fill(a, 32, buf, 4, 64), USMARR_ERROR_OUT_OF_BOUNDS, "fill");
    /* Failed calls left the data alone. */
    int32_t fill = 5, back[16];
    ck_assert_ok(usmarr_memory_fill(a, 0, &fill, 4, 64));
    ck_assert_fails_with(usmarr_memory_copy_from_host(a, 0, buf, 128), USMARR_ERROR_OUT_OF_BOUNDS, "destination");
    ck_assert_ok(usmarr_memory_copy_to_host(a, 0, back, 64));
    for (int i = 0; i < 16; i++)
        ck_assert_int_eq(back[i], 5);
    ck_assert_str_eq(usmarr_usm_kind_name(USMARR_USM_HOST), "host");
    ck_assert_str_eq(usmarr_usm_kind_name((usmarr_usm_kind_t)9), "unknown");
    usmarr_memory_release(a);
    usmarr_memory_release(b);
    usmarr_context_release(ctx);
    usmarr_context_release(other);
}
END_TEST

START_TEST(test_memory_large_alignment_is_honoured_or_refused)
{
    usmarr_context_t *ctx = test_context();
    for (size_t k = 0; k < 3; k++)
        for (size_t alignment = 64; alignment <= 65536; alignment *= 4) {
            usmarr_memory_t *m = NULL;
            if (!test_kind_offered(ctx, kinds[k]))
                break;
            int rc = usmarr_memory_create(ctx, kinds[k], 1000, alignment, &m);
            if (rc == 0) {
                ck_assert_msg((uintptr_t)usmarr_memory_pointer(m) % alignment == 0, "%s USM at %p, alignment %zu",
                              usmarr_usm_kind_name(kinds[k]), usmarr_memory_pointer(m), alignment);
                usmarr_memory_release(m);
            } else {
                /* Never silently misaligned: a clear refusal that names the alignment. */
                ck_assert_int_eq(rc, USMARR_ERROR_UNSUPPORTED);
                ck_assert_ptr_null(m);
                char needle[32];
                snprintf(needle, sizeof needle, "alignment=%zu", alignment);
                ck_assert_msg(strstr(usmarr_last_error_detail(), needle), "%s", usmarr_last_error_detail());
            }
        }
    usmarr_context_release(ctx);
}
END_TEST

Suite *suite_memory(void)
{
    Suite *s = suite_create("memory");
    TCase *tc = tcase_create("blocks");
    tcase_add_loop_test(tc, test_memory_each_kind_allocates_copies_and_fills, 0, 3);
    tcase_add_test(tc, test_memory_long_wide_fills);
    tcase_add_test(tc, test_memory_zero_size_block_is_well_defined);
    tcase_add_test(tc, test_memory_block_outlives_its_context_handle);
    tcase_add_test(tc, test_memory_wrap_validates_foreign_pointers);
    tcase_add_test(tc, test_memory_bad_arguments_fail_and_leak_nothing);
    tcase_add_test(tc, test_memory_large_alignment_is_honoured_or_refused);
    tcase_add_test(tc, test_memory_released_device_blocks_are_pooled);
    suite_add_tcase(s, tc);
    return s;
}
