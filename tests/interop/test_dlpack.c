/* DLPack: export, import, round trips of every dtype, ownership, refusals.  The oracle is
 * the byte pattern written into each block and gathered on the host through the tensor's
 * own fields (data, byte_offset, strides), as a consumer reads it. */
#include "../harness/common.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <threads.h>

#if defined(__has_include)
#if __has_include(<dlpack/dlpack.h>)
#include <dlpack/dlpack.h>
#define HAVE_SYSTEM_DLPACK 1
#endif
#endif

/* DLPack's codes, written out independently of the library's table. */
static const struct {
    usmarr_dtype_t dtype;
    uint8_t code, bits;
} expected_types[] = {
    {USMARR_BOOL, 6, 8},      {USMARR_INT8, 0, 8},      {USMARR_INT16, 0, 16},     {USMARR_INT32, 0, 32},
    {USMARR_INT64, 0, 64},    {USMARR_UINT8, 1, 8},     {USMARR_UINT16, 1, 16},    {USMARR_UINT32, 1, 32},
    {USMARR_UINT64, 1, 64},   {USMARR_FLOAT16, 2, 16},  {USMARR_FLOAT32, 2, 32},   {USMARR_FLOAT64, 2, 64},
    {USMARR_COMPLEX64, 5, 64}, {USMARR_COMPLEX128, 5, 128},
};
#define NTYPES (sizeof expected_types / sizeof expected_types[0])

/* ---- counting deleters ------------------------------------------------------------------ */

static int deleter_calls;
static void (*wrapped_deleter)(usmarr_dl_managed_tensor_versioned_t *);
static void (*wrapped_legacy_deleter)(usmarr_dl_managed_tensor_t *);

static void counting_deleter(usmarr_dl_managed_tensor_versioned_t *t)
{
    deleter_calls++;
    wrapped_deleter(t);
}

static void counting_legacy_deleter(usmarr_dl_managed_tensor_t *t)
{
    deleter_calls++;
    wrapped_legacy_deleter(t);
}

/* Counts the calls of an exported tensor's deleter from now on (one tensor at a time). */
static usmarr_dl_managed_tensor_versioned_t *counted(usmarr_dl_managed_tensor_versioned_t *t)
{
    wrapped_deleter = t->deleter;
    t->deleter = counting_deleter;
    deleter_calls = 0;
    return t;
}

static usmarr_dl_managed_tensor_t *counted_legacy(usmarr_dl_managed_tensor_t *t)
{
    wrapped_legacy_deleter = t->deleter;
    t->deleter = counting_legacy_deleter;
    deleter_calls = 0;
    return t;
}

/* ---- arrays with a known byte pattern --------------------------------------------------- */

enum { ELEMENTS = 26, OFFSET = 18 };
static const int64_t shape2[] = {3, 4}, strides2[] = {-9, 2}; /* element (i,j) at 18 - 9i + 2j */

static unsigned char pattern_byte(usmarr_dtype_t dtype, size_t k)
{
    return dtype == USMARR_BOOL ? (unsigned char)(k % 3 == 0) : (unsigned char)(k * 7 + 3);
}

/* A (3,4) array with strides (-9, 2) and offset 18 over a fresh block of 26 elements of
 * `kind` holding the pattern; `bytes` receives the block's bytes. */
static usmarr_array_t *patterned(usmarr_context_t *ctx, usmarr_dtype_t dtype, usmarr_usm_kind_t kind,
                                 unsigned char *bytes)
{
    size_t item = usmarr_dtype_size(dtype), size = ELEMENTS * item;
    for (size_t k = 0; k < size; k++)
        bytes[k] = pattern_byte(dtype, k);
    usmarr_memory_t *m;
    ck_assert_ok(usmarr_memory_create(ctx, kind, size, 0, &m));
    ck_assert_ok(usmarr_memory_copy_from_host(m, 0, bytes, size));
    usmarr_array_options_t o = USMARR_ARRAY_OPTIONS_INIT;
    o.ndim = 2;
    o.shape = shape2;
    o.dtype = dtype;
    o.buffer = USMARR_BUFFER_MEMORY;
    o.memory = m;
    o.strides = strides2;
    o.offset = OFFSET;
    usmarr_array_t *a;
    ck_assert_ok(usmarr_array_create(&o, &a));
    usmarr_memory_release(m);
    return a;
}

/* Element (i,j) of the pattern, C order, into `out`. */
static void pattern_elements(const unsigned char *bytes, size_t item, unsigned char *out)
{
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 4; j++)
            memcpy(out + (size_t)(i * 4 + j) * item, bytes + (size_t)(OFFSET - 9 * i + 2 * j) * item, item);
}

/* What a consumer reads through a 2-d tensor whose bytes start at `base` (the tensor's
 * `data`, or a host copy of its allocation): element (i,j) at byte_offset + (i*s0 +
 * j*s1) * itemsize. */
static void consumer_gather(const usmarr_dl_tensor_t *t, const unsigned char *base, unsigned char *out)
{
    size_t item = (size_t)t->dtype.bits / 8;
    for (int64_t i = 0; i < t->shape[0]; i++)
        for (int64_t j = 0; j < t->shape[1]; j++)
            memcpy(out + (size_t)(i * t->shape[1] + j) * item,
                   base + t->byte_offset + (i * t->strides[0] + j * t->strides[1]) * (int64_t)item, item);
}

static bool dtype_usable(usmarr_context_t *ctx, usmarr_dtype_t d)
{
    return usmarr_context_info(ctx)->fp64 || (d != USMARR_FLOAT64 && d != USMARR_COMPLEX128);
}

/* The device_id DLPack should carry: the test device's index among the usable devices. */
static int expected_device_id(void)
{
    usmarr_device_info_t *list;
    size_t n;
    ck_assert_ok(usmarr_devices_list(&list, &n));
    int usable = 0, found = -1;
    for (size_t i = 0; i < n; i++) {
        if (list[i].usable && !strcmp(list[i].selector, test_selector))
            found = usable;
        usable += list[i].usable;
    }
    usmarr_devices_free(list);
    ck_assert_int_ge(found, 0);
    return found;
}

/* ---- tests ------------------------------------------------------------------------------- */

START_TEST(test_dlpack_dtype_codes_match_dlpack_for_every_dtype)
{
    for (size_t k = 0; k < NTYPES; k++) {
        usmarr_dl_data_type_t t;
        usmarr_dtype_t back;
        ck_assert_ok(usmarr_dtype_to_dlpack(expected_types[k].dtype, &t));
        ck_assert_uint_eq(t.code, expected_types[k].code);
        ck_assert_uint_eq(t.bits, expected_types[k].bits);
        ck_assert_uint_eq(t.lanes, 1);
        ck_assert_uint_eq(t.bits, 8 * usmarr_dtype_size(expected_types[k].dtype));
        ck_assert_ok(usmarr_dtype_from_dlpack(t, &back));
        ck_assert_int_eq(back, expected_types[k].dtype);
    }
    usmarr_dtype_t d;
    usmarr_dl_data_type_t t;
    ck_assert_fails_with(usmarr_dtype_from_dlpack((usmarr_dl_data_type_t){USMARR_DL_BFLOAT, 16, 1}, &d),
                         USMARR_ERROR_BAD_DTYPE, "kDLBfloat");
    ck_assert_fails_with(usmarr_dtype_from_dlpack((usmarr_dl_data_type_t){USMARR_DL_FLOAT, 32, 4}, &d),
                         USMARR_ERROR_BAD_DTYPE, "lanes=4");
    ck_assert_fails_with(usmarr_dtype_from_dlpack((usmarr_dl_data_type_t){USMARR_DL_INT, 24, 1}, &d),
                         USMARR_ERROR_BAD_DTYPE, "bits=24");
    ck_assert_fails_with(usmarr_dtype_from_dlpack((usmarr_dl_data_type_t){USMARR_DL_BOOL, 1, 1}, &d),
                         USMARR_ERROR_BAD_DTYPE, "kDLBool");
    ck_assert_fails_with(usmarr_dtype_from_dlpack((usmarr_dl_data_type_t){3, 64, 1}, &d), USMARR_ERROR_BAD_DTYPE,
                         "kDLOpaqueHandle");
    ck_assert_fails_with(usmarr_dtype_from_dlpack((usmarr_dl_data_type_t){200, 8, 1}, &d), USMARR_ERROR_BAD_DTYPE,
                         "code=200");
    ck_assert_fails_with(usmarr_dtype_from_dlpack((usmarr_dl_data_type_t){0, 8, 1}, NULL),
                         USMARR_ERROR_INVALID_ARGUMENT, "dtype");
    ck_assert_fails_with(usmarr_dtype_to_dlpack(USMARR_DTYPE_COUNT, &t), USMARR_ERROR_BAD_DTYPE, "dtype=14");
    ck_assert_fails_with(usmarr_dtype_to_dlpack((usmarr_dtype_t)-1, &t), USMARR_ERROR_BAD_DTYPE, "dtype=-1");
    ck_assert_fails_with(usmarr_dtype_to_dlpack(USMARR_INT8, NULL), USMARR_ERROR_INVALID_ARGUMENT, "type");
}
END_TEST

START_TEST(test_dlpack_structs_have_dlpacks_layout)
{
    /* DLPack 1.x's ABI on LP64 (the library also asserts it at compile time). */
    if (sizeof(void *) == 8) {
        ck_assert_uint_eq(sizeof(usmarr_dl_tensor_t), 48);
        ck_assert_uint_eq(offsetof(usmarr_dl_tensor_t, byte_offset), 40);
        ck_assert_uint_eq(offsetof(usmarr_dl_managed_tensor_versioned_t, flags), 24);
        ck_assert_uint_eq(offsetof(usmarr_dl_managed_tensor_versioned_t, dl_tensor), 32);
        ck_assert_uint_eq(sizeof(usmarr_dl_managed_tensor_versioned_t), 80);
    }
#ifdef HAVE_SYSTEM_DLPACK
    /* The system's dlpack.h (0.6 on Debian 12) agrees on everything it has. */
    ck_assert_uint_eq(sizeof(DLDevice), sizeof(usmarr_dl_device_t));
    ck_assert_uint_eq(sizeof(DLDataType), sizeof(usmarr_dl_data_type_t));
    ck_assert_uint_eq(offsetof(DLDataType, lanes), offsetof(usmarr_dl_data_type_t, lanes));
    ck_assert_uint_eq(sizeof(DLTensor), sizeof(usmarr_dl_tensor_t));
    ck_assert_uint_eq(offsetof(DLTensor, device), offsetof(usmarr_dl_tensor_t, device));
    ck_assert_uint_eq(offsetof(DLTensor, ndim), offsetof(usmarr_dl_tensor_t, ndim));
    ck_assert_uint_eq(offsetof(DLTensor, dtype), offsetof(usmarr_dl_tensor_t, dtype));
    ck_assert_uint_eq(offsetof(DLTensor, shape), offsetof(usmarr_dl_tensor_t, shape));
    ck_assert_uint_eq(offsetof(DLTensor, strides), offsetof(usmarr_dl_tensor_t, strides));
    ck_assert_uint_eq(offsetof(DLTensor, byte_offset), offsetof(usmarr_dl_tensor_t, byte_offset));
    ck_assert_uint_eq(sizeof(DLManagedTensor), sizeof(usmarr_dl_managed_tensor_t));
    ck_assert_uint_eq(offsetof(DLManagedTensor, manager_ctx), offsetof(usmarr_dl_managed_tensor_t, manager_ctx));
    ck_assert_uint_eq(offsetof(DLManagedTensor, deleter), offsetof(usmarr_dl_managed_tensor_t, deleter));
    ck_assert_int_eq(kDLCPU, USMARR_DL_CPU);
    ck_assert_int_eq(kDLInt, USMARR_DL_INT);
    ck_assert_int_eq(kDLUInt, USMARR_DL_UINT);
    ck_assert_int_eq(kDLFloat, USMARR_DL_FLOAT);
    ck_assert_int_eq(kDLBfloat, USMARR_DL_BFLOAT);
    ck_assert_int_eq(kDLComplex, USMARR_DL_COMPLEX);
#if defined(DLPACK_MAJOR_VERSION) && DLPACK_MAJOR_VERSION >= 1
    ck_assert_int_eq(kDLBool, USMARR_DL_BOOL); /* from 0.8 */
    ck_assert_int_eq(kDLOneAPI, USMARR_DL_ONEAPI);
    ck_assert_uint_eq(sizeof(DLManagedTensorVersioned), sizeof(usmarr_dl_managed_tensor_versioned_t));
    ck_assert_uint_eq(offsetof(DLManagedTensorVersioned, flags), offsetof(usmarr_dl_managed_tensor_versioned_t, flags));
    ck_assert_uint_eq(offsetof(DLManagedTensorVersioned, dl_tensor),
                      offsetof(usmarr_dl_managed_tensor_versioned_t, dl_tensor));
    ck_assert_uint_eq(DLPACK_FLAG_BITMASK_READ_ONLY, USMARR_DL_FLAG_READ_ONLY);
    ck_assert_uint_eq(DLPACK_FLAG_BITMASK_IS_COPIED, USMARR_DL_FLAG_IS_COPIED);
#endif
#endif
}
END_TEST

START_TEST(test_dlpack_device_is_oneapi_with_the_selector_ordinal)
{
    usmarr_context_t *ctx = test_context(), *again;
    usmarr_array_t *a;
    int64_t n = 4;
    ck_assert_ok(usmarr_array_zeros(ctx, 1, &n, USMARR_INT32, USMARR_ORDER_C, USMARR_USM_DEVICE, &a));
    usmarr_dl_device_t dev;
    ck_assert_ok(usmarr_array_dlpack_device(a, &dev));
    /* kDLOneAPI; kDLOpenCL for the SVM backend's memory */
    ck_assert_int_eq(dev.device_type, usmarr_context_info(ctx)->backend == USMARR_BACKEND_SVM ? 4 : 14);
    ck_assert_int_eq(dev.device_id, expected_device_id());
    /* dpctl's reading: the selector "<device_id>" names the same device. */
    char sel[16];
    snprintf(sel, sizeof sel, "%d", (int)dev.device_id);
    ck_assert_ok(usmarr_context_create(sel, &again));
    ck_assert_ptr_eq(usmarr_context_device(again), usmarr_context_device(ctx));
    usmarr_context_release(again);
    ck_assert_fails_with(usmarr_array_dlpack_device(NULL, &dev), USMARR_ERROR_INVALID_ARGUMENT, "array");
    ck_assert_fails_with(usmarr_array_dlpack_device(a, NULL), USMARR_ERROR_INVALID_ARGUMENT, "device");
    usmarr_array_release(a);
    usmarr_context_release(ctx);
}
END_TEST

/* Export + zero-copy import of every dtype on every USM kind, negative strides. */
START_TEST(test_dlpack_round_trip_every_dtype_and_kind_zero_copy)
{
    usmarr_context_t *ctx = test_context();
    int device_id = expected_device_id();
    static const usmarr_usm_kind_t kinds[] = {USMARR_USM_DEVICE, USMARR_USM_SHARED, USMARR_USM_HOST};
    for (size_t k = 0; k < NTYPES; k++) {
        usmarr_dtype_t d = expected_types[k].dtype;
        if (!dtype_usable(ctx, d))
            continue;
        size_t item = usmarr_dtype_size(d);
        for (size_t q = 0; q < 3; q++) {
            unsigned char bytes[ELEMENTS * 16], expect[12 * 16], got[12 * 16];
            if (!test_kind_offered(ctx, kinds[q]))
                continue;
            usmarr_array_t *a = patterned(ctx, d, kinds[q], bytes), *b;
            pattern_elements(bytes, item, expect);
            usmarr_dl_managed_tensor_versioned_t *t;
            ck_assert_ok(usmarr_array_to_dlpack(a, NULL, USMARR_DLPACK_COPY_NEVER, &t));
            counted(t);
            const usmarr_dl_tensor_t *dl = &t->dl_tensor;
            ck_assert_uint_eq(t->version.major, 1);
            ck_assert_uint_eq(t->flags, 0);
            ck_assert_ptr_nonnull(t->manager_ctx);
            ck_assert_int_eq(dl->device.device_type, usmarr_context_info(ctx)->backend == USMARR_BACKEND_SVM
                                                         ? USMARR_DL_OPENCL
                                                         : USMARR_DL_ONEAPI);
            ck_assert_int_eq(dl->device.device_id, device_id);
            ck_assert_int_eq(dl->ndim, 2);
            ck_assert_uint_eq(dl->dtype.code, expected_types[k].code);
            ck_assert_uint_eq(dl->dtype.bits, expected_types[k].bits);
            ck_assert_uint_eq(dl->dtype.lanes, 1);
            ck_assert_int_eq(dl->shape[0], 3);
            ck_assert_int_eq(dl->shape[1], 4);
            ck_assert_int_eq(dl->strides[0], -9);
            ck_assert_int_eq(dl->strides[1], 2);
            /* dpctl's convention: data is the allocation, byte_offset reaches element 0. */
            ck_assert_ptr_eq(dl->data, usmarr_memory_pointer(usmarr_array_memory(a)));
            ck_assert_uint_eq(dl->byte_offset, OFFSET * item);
            consumer_gather(dl, bytes, got);
            ck_assert_mem_eq(got, expect, 12 * item);
            ck_assert_int_eq(usmarr_array_refcount(a), 2); /* the tensor's reference */

            ck_assert_ok(usmarr_array_from_dlpack(t, ctx, USMARR_DLPACK_COPY_NEVER, 0, &b));
            ck_assert_int_eq(deleter_calls, 0);
            ck_assert_ptr_eq(usmarr_memory_pointer(usmarr_array_memory(b)),
                             usmarr_memory_pointer(usmarr_array_memory(a)));
            ck_assert_int_eq(usmarr_array_dtype(b), d);
            ck_assert_int_eq(usmarr_array_offset(b), OFFSET);
            ck_assert_int_eq(usmarr_array_strides(b)[0], -9);
            ck_assert_int_eq(usmarr_array_strides(b)[1], 2);
            ck_assert_uint_ne(usmarr_array_flags(b) & USMARR_FLAG_WRITABLE, 0);
            ck_assert_int_eq(usmarr_array_usm_kind(b), kinds[q]);
            memset(got, 0, sizeof got);
            ck_assert_ok(usmarr_array_copy_to_host(b, got, NULL));
            ck_assert_mem_eq(got, expect, 12 * item);
            /* Shared memory: a write through the import is the exporter's. */
            unsigned char one[16];
            memcpy(one, expect + 11 * item, item);
            ck_assert_ok(usmarr_memory_copy_from_host(usmarr_array_memory(b), (size_t)OFFSET * item, one, item));
            ck_assert_ok(usmarr_array_copy_to_host(a, got, NULL));
            ck_assert_mem_eq(got, one, item);

            usmarr_array_release(b);
            ck_assert_ok(usmarr_context_finish(ctx)); /* the deleter runs once the work on it is done */
            ck_assert_int_eq(deleter_calls, 1);
            ck_assert_int_eq(usmarr_array_refcount(a), 1);
            usmarr_array_release(a);
        }
    }
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_dlpack_zero_d_and_zero_size_round_trip)
{
    usmarr_context_t *ctx = test_context();
    TEST_NEEDS_KIND(ctx, USMARR_USM_HOST);
    /* 0-d: no shape, no strides, one element. */
    usmarr_array_t *a, *b;
    double v = 2.5, back = 0;
    ck_assert_ok(usmarr_array_from_host(ctx, 0, NULL, USMARR_FLOAT32, &(float){2.5f}, NULL, USMARR_USM_DEVICE, &a));
    usmarr_dl_managed_tensor_versioned_t *t;
    ck_assert_ok(usmarr_array_to_dlpack(a, NULL, USMARR_DLPACK_COPY_IF_NEEDED, &t));
    counted(t);
    ck_assert_int_eq(t->dl_tensor.ndim, 0);
    ck_assert_ptr_null(t->dl_tensor.shape);
    ck_assert_ptr_null(t->dl_tensor.strides);
    ck_assert_ok(usmarr_array_from_dlpack(t, ctx, USMARR_DLPACK_COPY_NEVER, 0, &b));
    ck_assert_int_eq(usmarr_array_ndim(b), 0);
    float f = 0;
    ck_assert_ok(usmarr_array_copy_to_host(b, &f, NULL));
    back = f;
    ck_assert(back == v);
    usmarr_array_release(b);
    ck_assert_ok(usmarr_context_finish(ctx)); /* the deleter runs once the work on it is done */
    ck_assert_int_eq(deleter_calls, 1);
    usmarr_array_release(a);

    /* Zero-size: shape (0, 3); the import is a fresh empty array and the tensor goes back
     * at once. */
    int64_t shape[] = {0, 3};
    ck_assert_ok(usmarr_array_empty(ctx, 2, shape, USMARR_INT16, USMARR_ORDER_C, USMARR_USM_DEVICE, &a));
    ck_assert_ok(usmarr_array_to_dlpack(a, NULL, USMARR_DLPACK_COPY_NEVER, &t));
    counted(t);
    ck_assert_int_eq(t->dl_tensor.shape[0], 0);
    ck_assert_int_eq(t->dl_tensor.shape[1], 3);
    ck_assert_ok(usmarr_array_from_dlpack(t, ctx, USMARR_DLPACK_COPY_NEVER, 0, &b));
    ck_assert_int_eq(deleter_calls, 1);
    ck_assert_int_eq(usmarr_array_size(b), 0);
    ck_assert_int_eq(usmarr_array_shape(b)[1], 3);
    ck_assert_int_eq(usmarr_array_dtype(b), USMARR_INT16);
    ck_assert_int_eq(usmarr_array_refcount(a), 1);
    usmarr_array_release(b);
    /* A zero-size host tensor with no data at all, never copied: fine too. */
    struct {
        usmarr_dl_managed_tensor_versioned_t t;
        int64_t shape[1];
    } h = {.t = {.version = {1, 0}, .dl_tensor = {.device = {USMARR_DL_CPU, 0}, .ndim = 1, .dtype = {2, 64, 1}}},
           .shape = {0}};
    h.t.dl_tensor.shape = h.shape;
    ck_assert_ok(usmarr_array_from_dlpack(&h.t, ctx, USMARR_DLPACK_COPY_NEVER, USMARR_USM_HOST, &b));
    ck_assert_int_eq(usmarr_array_size(b), 0);
    ck_assert_int_eq(usmarr_array_usm_kind(b), USMARR_USM_HOST);
    usmarr_array_release(b);
    usmarr_array_release(a);
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_dlpack_read_only_is_flagged_and_honoured_on_import)
{
    usmarr_context_t *ctx = test_context();
    unsigned char bytes[ELEMENTS * 4], expect[12 * 4], got[12 * 4];
    usmarr_array_t *a = patterned(ctx, USMARR_INT32, USMARR_USM_DEVICE, bytes), *b;
    pattern_elements(bytes, 4, expect);
    ck_assert_ok(usmarr_array_make_read_only(a));
    usmarr_dl_managed_tensor_versioned_t *t;
    ck_assert_ok(usmarr_array_to_dlpack(a, NULL, USMARR_DLPACK_COPY_NEVER, &t));
    ck_assert_uint_eq(t->flags, USMARR_DL_FLAG_READ_ONLY);
    counted(t);
    ck_assert_ok(usmarr_array_from_dlpack(t, ctx, USMARR_DLPACK_COPY_NEVER, 0, &b));
    ck_assert_uint_eq(usmarr_array_flags(b) & USMARR_FLAG_WRITABLE, 0);
    ck_assert_fails_with(usmarr_array_copy_from_host(b, expect, NULL), USMARR_ERROR_READ_ONLY, "read-only");
    usmarr_array_release(b);
    ck_assert_ok(usmarr_context_finish(ctx)); /* the deleter runs once the work on it is done */
    ck_assert_int_eq(deleter_calls, 1);

    /* The legacy struct cannot say read-only: refused, or copied when allowed. */
    usmarr_dl_managed_tensor_t *l;
    ck_assert_fails_with(usmarr_array_to_dlpack_unversioned(a, NULL, USMARR_DLPACK_COPY_NEVER, &l),
                         USMARR_ERROR_READ_ONLY, "read-only");
    ck_assert_int_eq(usmarr_array_refcount(a), 1);
    ck_assert_ok(usmarr_array_to_dlpack_unversioned(a, NULL, USMARR_DLPACK_COPY_IF_NEEDED, &l));
    counted_legacy(l);
    ck_assert_ptr_ne(l->dl_tensor.data, usmarr_memory_pointer(usmarr_array_memory(a)));
    ck_assert_int_eq(usmarr_array_refcount(a), 1); /* a copy holds its own array */
    ck_assert_ok(usmarr_array_from_dlpack_unversioned(l, ctx, USMARR_DLPACK_COPY_NEVER, 0, &b));
    ck_assert_uint_ne(usmarr_array_flags(b) & USMARR_FLAG_WRITABLE, 0);
    ck_assert_ok(usmarr_array_copy_to_host(b, got, NULL));
    ck_assert_mem_eq(got, expect, sizeof expect);
    usmarr_array_release(b);
    ck_assert_ok(usmarr_context_finish(ctx)); /* the deleter runs once the work on it is done */
    ck_assert_int_eq(deleter_calls, 1);
    usmarr_array_release(a);
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_dlpack_deleter_drops_the_reference_and_frees_the_block)
{
    usmarr_context_t *ctx = test_context();
    TEST_NEEDS_KIND(ctx, USMARR_USM_SHARED);
    unsigned char bytes[ELEMENTS * 8];
    usmarr_array_t *a = patterned(ctx, USMARR_FLOAT64, USMARR_USM_SHARED, bytes);
    usmarr_memory_t *m = usmarr_memory_retain(usmarr_array_memory(a));
    ck_assert_int_eq(usmarr_memory_refcount(m), 2);
    usmarr_dl_managed_tensor_versioned_t *t;
    ck_assert_ok(usmarr_array_to_dlpack(a, NULL, USMARR_DLPACK_COPY_IF_NEEDED, &t));
    counted(t);
    usmarr_array_release(a); /* the tensor alone keeps the array, and so the block, alive */
    ck_assert_int_eq(usmarr_memory_refcount(m), 2);
    t->deleter(t);
    ck_assert_int_eq(deleter_calls, 1);
    ck_assert_int_eq(usmarr_memory_refcount(m), 1); /* the array died with the tensor */
    usmarr_memory_release(m);

    /* The legacy deleter does the same. */
    a = patterned(ctx, USMARR_UINT8, USMARR_USM_DEVICE, bytes);
    m = usmarr_memory_retain(usmarr_array_memory(a));
    usmarr_dl_managed_tensor_t *l;
    ck_assert_ok(usmarr_array_to_dlpack_unversioned(a, NULL, USMARR_DLPACK_COPY_NEVER, &l));
    ck_assert_ptr_eq(l->dl_tensor.data, usmarr_memory_pointer(m));
    usmarr_array_release(a);
    ck_assert_int_eq(usmarr_memory_refcount(m), 2);
    l->deleter(l);
    ck_assert_int_eq(usmarr_memory_refcount(m), 1);
    usmarr_memory_release(m);
    usmarr_context_release(ctx);
}
END_TEST

static int call_deleter(void *tensor)
{
    usmarr_dl_managed_tensor_versioned_t *t = tensor;
    t->deleter(t);
    return 0;
}

START_TEST(test_dlpack_deleter_runs_on_another_thread)
{
    usmarr_context_t *ctx = test_context();
    enum { TENSORS = 8 };
    unsigned char bytes[ELEMENTS * 4];
    usmarr_array_t *a = patterned(ctx, USMARR_FLOAT32, USMARR_USM_DEVICE, bytes);
    usmarr_memory_t *m = usmarr_memory_retain(usmarr_array_memory(a));
    usmarr_dl_managed_tensor_versioned_t *t[TENSORS];
    thrd_t threads[TENSORS];
    for (int k = 0; k < TENSORS; k++)
        ck_assert_ok(usmarr_array_to_dlpack(a, NULL, USMARR_DLPACK_COPY_NEVER, &t[k]));
    ck_assert_int_eq(usmarr_array_refcount(a), 1 + TENSORS);
    usmarr_array_release(a);
    for (int k = 0; k < TENSORS; k++)
        ck_assert_int_eq(thrd_create(&threads[k], call_deleter, t[k]), thrd_success);
    for (int k = 0; k < TENSORS; k++)
        ck_assert_int_eq(thrd_join(threads[k], NULL), thrd_success);
    ck_assert_int_eq(usmarr_memory_refcount(m), 1); /* the last deleter freed the array */
    usmarr_memory_release(m);
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_dlpack_host_readable_usm_as_kdlcpu_zero_copy)
{
    usmarr_context_t *ctx = test_context();
    TEST_NEEDS_KIND(ctx, USMARR_USM_HOST);
    TEST_NEEDS_KIND(ctx, USMARR_USM_SHARED);
    static const usmarr_usm_kind_t kinds[] = {USMARR_USM_HOST, USMARR_USM_SHARED};
    usmarr_dl_device_t cpu = {USMARR_DL_CPU, 0};
    for (size_t q = 0; q < 2; q++) {
        unsigned char bytes[ELEMENTS * 8], expect[12 * 8], got[12 * 8];
        usmarr_array_t *a = patterned(ctx, USMARR_COMPLEX64, kinds[q], bytes), *b;
        pattern_elements(bytes, 8, expect);
        usmarr_dl_managed_tensor_versioned_t *t;
        ck_assert_ok(usmarr_array_to_dlpack(a, &cpu, USMARR_DLPACK_COPY_NEVER, &t));
        counted(t);
        ck_assert_int_eq(t->dl_tensor.device.device_type, USMARR_DL_CPU);
        ck_assert_int_eq(t->dl_tensor.device.device_id, 0);
        ck_assert_uint_eq(t->flags, 0);
        /* A host consumer reads the USM directly. */
        consumer_gather(&t->dl_tensor, t->dl_tensor.data, got);
        ck_assert_mem_eq(got, expect, sizeof expect);
        /* kDLCPU memory that is USM of the context comes back without a copy. */
        ck_assert_ok(usmarr_array_from_dlpack(t, ctx, USMARR_DLPACK_COPY_NEVER, 0, &b));
        ck_assert_ptr_eq(usmarr_memory_pointer(usmarr_array_memory(b)), t->dl_tensor.data);
        usmarr_array_release(b);
        ck_assert_ok(usmarr_context_finish(ctx)); /* the deleter runs once the work on it is done */
        ck_assert_int_eq(deleter_calls, 1);
        usmarr_array_release(a);
    }
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_dlpack_device_usm_as_kdlcpu_is_a_host_copy)
{
    usmarr_context_t *ctx = test_context();
    usmarr_dl_device_t cpu = {USMARR_DL_CPU, 0};
    unsigned char bytes[ELEMENTS * 2], expect[12 * 2];
    usmarr_array_t *a = patterned(ctx, USMARR_FLOAT16, USMARR_USM_DEVICE, bytes);
    pattern_elements(bytes, 2, expect);
    usmarr_dl_managed_tensor_versioned_t *t;
    ck_assert_fails_with(usmarr_array_to_dlpack(a, &cpu, USMARR_DLPACK_COPY_NEVER, &t), USMARR_ERROR_UNSUPPORTED,
                         "device USM");
    ck_assert_ok(usmarr_array_make_read_only(a)); /* a copy is the consumer's: writable */
    ck_assert_ok(usmarr_array_to_dlpack(a, &cpu, USMARR_DLPACK_COPY_IF_NEEDED, &t));
    ck_assert_uint_eq(t->flags, USMARR_DL_FLAG_IS_COPIED);
    ck_assert_int_eq(t->dl_tensor.device.device_type, USMARR_DL_CPU);
    ck_assert_uint_eq(t->dl_tensor.byte_offset, 0);
    ck_assert_int_eq(t->dl_tensor.strides[0], 4);
    ck_assert_int_eq(t->dl_tensor.strides[1], 1);
    ck_assert_mem_eq(t->dl_tensor.data, expect, sizeof expect);
    ck_assert_int_eq(usmarr_array_refcount(a), 1);
    t->deleter(t);
    usmarr_array_release(a);
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_dlpack_copy_always_gives_independent_memory)
{
    usmarr_context_t *ctx = test_context();
    TEST_NEEDS_KIND(ctx, USMARR_USM_SHARED);
    unsigned char bytes[ELEMENTS * 8], expect[12 * 8], got[12 * 8], zeros[8] = {0};
    usmarr_array_t *a = patterned(ctx, USMARR_INT64, USMARR_USM_DEVICE, bytes), *b;
    pattern_elements(bytes, 8, expect);
    usmarr_dl_managed_tensor_versioned_t *t;
    ck_assert_ok(usmarr_array_to_dlpack(a, NULL, USMARR_DLPACK_COPY_ALWAYS, &t));
    ck_assert_uint_eq(t->flags, USMARR_DL_FLAG_IS_COPIED);
    ck_assert_ptr_ne(t->dl_tensor.data, usmarr_memory_pointer(usmarr_array_memory(a)));
    ck_assert_int_eq(t->dl_tensor.strides[0], 4); /* C-contiguous copy */
    ck_assert_int_eq(usmarr_array_refcount(a), 1);
    /* Import with a copy too: the tensor goes back at once. */
    counted(t);
    ck_assert_ok(usmarr_array_from_dlpack(t, ctx, USMARR_DLPACK_COPY_ALWAYS, USMARR_USM_SHARED, &b));
    ck_assert_int_eq(deleter_calls, 1);
    ck_assert_int_eq(usmarr_array_usm_kind(b), USMARR_USM_SHARED);
    ck_assert_ok(usmarr_array_copy_to_host(b, got, NULL));
    ck_assert_mem_eq(got, expect, sizeof expect);
    /* Writing the copy leaves the original alone. */
    ck_assert_ok(usmarr_memory_copy_from_host(usmarr_array_memory(b), 0, zeros, 8));
    ck_assert_ok(usmarr_array_copy_to_host(a, got, NULL));
    ck_assert_mem_eq(got, expect, sizeof expect);
    usmarr_array_release(b);
    usmarr_array_release(a);
    usmarr_context_release(ctx);
}
END_TEST

/* A kDLCPU tensor over plain host memory, with its own counting deleter. */
struct host_tensor {
    usmarr_dl_managed_tensor_versioned_t t;
    int64_t shape[2], strides[2];
    int deleted;
};

static void host_tensor_delete(usmarr_dl_managed_tensor_versioned_t *t)
{
    ((struct host_tensor *)t->manager_ctx)->deleted++;
}

static void host_tensor_init(struct host_tensor *h, void *data, uint64_t byte_offset)
{
    memset(h, 0, sizeof *h);
    h->t.version = (usmarr_dl_version_t){1, 0};
    h->t.manager_ctx = h;
    h->t.deleter = host_tensor_delete;
    h->shape[0] = 3;
    h->shape[1] = 4;
    h->strides[0] = -9;
    h->strides[1] = 2;
    h->t.dl_tensor = (usmarr_dl_tensor_t){.data = data,
                                          .device = {USMARR_DL_CPU, 0},
                                          .ndim = 2,
                                          .dtype = {USMARR_DL_UINT, 16, 1},
                                          .shape = h->shape,
                                          .strides = h->strides,
                                          .byte_offset = byte_offset};
}

START_TEST(test_dlpack_host_memory_is_copied_only_when_allowed)
{
    usmarr_context_t *ctx = test_context();
    TEST_NEEDS_KIND(ctx, USMARR_USM_HOST);
    uint16_t host[ELEMENTS], expect[12], got[12];
    for (int k = 0; k < ELEMENTS; k++)
        host[k] = (uint16_t)(1000 + 37 * k);
    pattern_elements((const unsigned char *)host, 2, (unsigned char *)expect);
    struct host_tensor h;
    host_tensor_init(&h, host, OFFSET * 2);
    usmarr_array_t *b;
    ck_assert_fails_with(usmarr_array_from_dlpack(&h.t, ctx, USMARR_DLPACK_COPY_NEVER, 0, &b),
                         USMARR_ERROR_FOREIGN_POINTER, "not USM of this context");
    ck_assert_int_eq(h.deleted, 0);
    ck_assert_ok(usmarr_array_from_dlpack(&h.t, ctx, USMARR_DLPACK_COPY_IF_NEEDED, 0, &b));
    ck_assert_int_eq(h.deleted, 1);
    ck_assert_int_eq(usmarr_array_usm_kind(b), USMARR_USM_DEVICE);
    ck_assert_uint_ne(usmarr_array_flags(b) & USMARR_FLAG_WRITABLE, 0);
    ck_assert_ok(usmarr_array_copy_to_host(b, got, NULL));
    ck_assert_mem_eq(got, expect, sizeof expect);
    usmarr_array_release(b);
    /* Read-only host memory copied: the copy is the caller's and writable. */
    host_tensor_init(&h, host, OFFSET * 2);
    h.t.flags = USMARR_DL_FLAG_READ_ONLY;
    ck_assert_ok(usmarr_array_from_dlpack(&h.t, ctx, USMARR_DLPACK_COPY_ALWAYS, USMARR_USM_HOST, &b));
    ck_assert_int_eq(h.deleted, 1);
    ck_assert_uint_ne(usmarr_array_flags(b) & USMARR_FLAG_WRITABLE, 0);
    ck_assert_ok(usmarr_array_copy_to_host(b, got, NULL));
    ck_assert_mem_eq(got, expect, sizeof expect);
    usmarr_array_release(b);
    /* Legacy struct, NULL strides (C-contiguous), NULL deleter. */
    usmarr_dl_managed_tensor_t l = {.dl_tensor = h.t.dl_tensor};
    l.dl_tensor.strides = NULL;
    l.dl_tensor.byte_offset = 0;
    ck_assert_ok(usmarr_array_from_dlpack_unversioned(&l, ctx, USMARR_DLPACK_COPY_IF_NEEDED, 0, &b));
    ck_assert_ok(usmarr_array_copy_to_host(b, got, NULL));
    ck_assert_mem_eq(got, host, sizeof got);
    usmarr_array_release(b);
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_dlpack_usm_of_another_context_is_refused)
{
    usmarr_context_t *ctx = test_context(), *other = test_context();
    unsigned char bytes[ELEMENTS * 4];
    usmarr_array_t *a = patterned(other, USMARR_FLOAT32, USMARR_USM_DEVICE, bytes), *b = NULL;
    usmarr_dl_managed_tensor_versioned_t *t;
    ck_assert_ok(usmarr_array_to_dlpack(a, NULL, USMARR_DLPACK_COPY_NEVER, &t));
    counted(t);
    for (int copy = 0; copy < 3; copy++)
        ck_assert_fails_with(usmarr_array_from_dlpack(t, ctx, (usmarr_dlpack_copy_t)copy, 0, &b),
                             USMARR_ERROR_FOREIGN_POINTER, "kDLOneAPI");
    ck_assert_ptr_null(b);
    ck_assert_int_eq(deleter_calls, 0); /* still the caller's */
    t->deleter(t);
    ck_assert_int_eq(deleter_calls, 1);
    usmarr_array_release(a);
    usmarr_context_release(other);
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_dlpack_export_failures_name_the_problem)
{
    usmarr_context_t *ctx = test_context();
    TEST_NEEDS_KIND(ctx, USMARR_USM_HOST);
    unsigned char bytes[ELEMENTS * 4];
    usmarr_array_t *a = patterned(ctx, USMARR_INT32, USMARR_USM_HOST, bytes);
    usmarr_dl_managed_tensor_versioned_t *t = NULL;
    usmarr_dl_managed_tensor_t *l = NULL;
    usmarr_dl_device_t dev;
    ck_assert_ok(usmarr_array_dlpack_device(a, &dev));
    ck_assert_fails_with(usmarr_array_to_dlpack(NULL, NULL, 0, &t), USMARR_ERROR_INVALID_ARGUMENT, "array");
    ck_assert_fails_with(usmarr_array_to_dlpack(a, NULL, 0, NULL), USMARR_ERROR_INVALID_ARGUMENT, "tensor");
    ck_assert_fails_with(usmarr_array_to_dlpack_unversioned(NULL, NULL, 0, &l), USMARR_ERROR_INVALID_ARGUMENT,
                         "array");
    ck_assert_fails_with(usmarr_array_to_dlpack_unversioned(a, NULL, 0, NULL), USMARR_ERROR_INVALID_ARGUMENT,
                         "tensor");
    ck_assert_fails_with(usmarr_array_to_dlpack(a, NULL, (usmarr_dlpack_copy_t)3, &t), USMARR_ERROR_INVALID_ARGUMENT,
                         "copy=3");
    ck_assert_fails_with(usmarr_array_to_dlpack(a, &(usmarr_dl_device_t){2, 0}, 0, &t), USMARR_ERROR_UNSUPPORTED,
                         "kDLCUDA");
    ck_assert_fails_with(usmarr_array_to_dlpack(a, &(usmarr_dl_device_t){USMARR_DL_CPU, 1}, 0, &t),
                         USMARR_ERROR_UNSUPPORTED, "device_id is 0");
    ck_assert_fails_with(usmarr_array_to_dlpack(a, &(usmarr_dl_device_t){dev.device_type, dev.device_id + 1}, 0, &t),
                         USMARR_ERROR_UNSUPPORTED, "not the array's device");
    bool svm = usmarr_context_info(ctx)->backend == USMARR_BACKEND_SVM; /* SVM exports kDLOpenCL */
    ck_assert_fails_with(usmarr_array_to_dlpack_unversioned(a, &(usmarr_dl_device_t){svm ? 14 : 4, 0}, 0, &l),
                         USMARR_ERROR_UNSUPPORTED, svm ? "(kDLOneAPI)" : "(kDLOpenCL)");
    ck_assert_ptr_null(t);
    ck_assert_ptr_null(l);
    ck_assert_int_eq(usmarr_array_refcount(a), 1);
    /* Asking for the array's own device explicitly is the same as NULL. */
    ck_assert_ok(usmarr_array_to_dlpack(a, &dev, USMARR_DLPACK_COPY_NEVER, &t));
    ck_assert_ptr_eq(t->dl_tensor.data, usmarr_memory_pointer(usmarr_array_memory(a)));
    t->deleter(t);
    usmarr_array_release(a);
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_dlpack_import_failures_name_the_problem_and_keep_the_tensor)
{
    usmarr_context_t *ctx = test_context();
    unsigned char bytes[ELEMENTS * 4];
    usmarr_array_t *a = patterned(ctx, USMARR_INT32, USMARR_USM_DEVICE, bytes), *b = NULL;
    usmarr_dl_managed_tensor_versioned_t *t;
    ck_assert_ok(usmarr_array_to_dlpack(a, NULL, USMARR_DLPACK_COPY_NEVER, &t));
    counted(t);
    usmarr_dl_tensor_t saved = t->dl_tensor;
    int64_t shape[USMARR_MAX_NDIM + 1] = {3, 4}, strides[USMARR_MAX_NDIM + 1] = {-9, 2};
    t->dl_tensor.shape = shape;
    t->dl_tensor.strides = strides;
#define REFUSED(code, needle)                                                                            \
    do {                                                                                                 \
        ck_assert_fails_with(usmarr_array_from_dlpack(t, ctx, USMARR_DLPACK_COPY_IF_NEEDED, 0, &b), code, \
                             needle);                                                                    \
        ck_assert_int_eq(deleter_calls, 0);                                                              \
        ck_assert_ptr_null(b);                                                                           \
    } while (0)
    ck_assert_fails_with(usmarr_array_from_dlpack(NULL, ctx, 0, 0, &b), USMARR_ERROR_INVALID_ARGUMENT, "tensor");
    ck_assert_fails_with(usmarr_array_from_dlpack(t, NULL, 0, 0, &b), USMARR_ERROR_INVALID_ARGUMENT, "context");
    ck_assert_fails_with(usmarr_array_from_dlpack(t, ctx, 0, 0, NULL), USMARR_ERROR_INVALID_ARGUMENT, "array");
    ck_assert_fails_with(usmarr_array_from_dlpack_unversioned(NULL, ctx, 0, 0, &b), USMARR_ERROR_INVALID_ARGUMENT,
                         "tensor");
    usmarr_dl_managed_tensor_t legacy = {.dl_tensor = t->dl_tensor};
    ck_assert_fails_with(usmarr_array_from_dlpack_unversioned(&legacy, NULL, 0, 0, &b),
                         USMARR_ERROR_INVALID_ARGUMENT, "context");
    ck_assert_fails_with(usmarr_array_from_dlpack_unversioned(&legacy, ctx, 0, 0, NULL),
                         USMARR_ERROR_INVALID_ARGUMENT, "array");
    legacy.dl_tensor.device.device_type = 10;
    ck_assert_fails_with(usmarr_array_from_dlpack_unversioned(&legacy, ctx, 0, 0, &b), USMARR_ERROR_UNSUPPORTED,
                         "kDLROCM");
    ck_assert_fails_with(usmarr_array_from_dlpack(t, ctx, (usmarr_dlpack_copy_t)-1, 0, &b),
                         USMARR_ERROR_INVALID_ARGUMENT, "copy=-1");
    ck_assert_fails_with(usmarr_array_from_dlpack(t, ctx, 0, (usmarr_usm_kind_t)7, &b), USMARR_ERROR_INVALID_ARGUMENT,
                         "kind=7");
    t->version.major = 2;
    REFUSED(USMARR_ERROR_UNSUPPORTED, "version=2.0");
    t->version.major = 1;
    t->dl_tensor.device.device_type = 2;
    REFUSED(USMARR_ERROR_UNSUPPORTED, "device_type=2 (kDLCUDA)");
    t->dl_tensor.device.device_type = 99;
    REFUSED(USMARR_ERROR_UNSUPPORTED, "device_type=99");
    t->dl_tensor.device = saved.device;
    t->dl_tensor.dtype = (usmarr_dl_data_type_t){USMARR_DL_BFLOAT, 16, 1};
    REFUSED(USMARR_ERROR_BAD_DTYPE, "kDLBfloat");
    t->dl_tensor.dtype = (usmarr_dl_data_type_t){USMARR_DL_INT, 32, 2};
    REFUSED(USMARR_ERROR_BAD_DTYPE, "lanes=2");
    t->dl_tensor.dtype = (usmarr_dl_data_type_t){9, 8, 1};
    REFUSED(USMARR_ERROR_BAD_DTYPE, "code=9");
    t->dl_tensor.dtype = saved.dtype;
    t->dl_tensor.ndim = -1;
    REFUSED(USMARR_ERROR_INVALID_ARGUMENT, "ndim=-1 is outside [0, 64]");
    t->dl_tensor.ndim = USMARR_MAX_NDIM + 1;
    REFUSED(USMARR_ERROR_INVALID_ARGUMENT, "ndim=65");
    t->dl_tensor.ndim = 2;
    t->dl_tensor.shape = NULL;
    REFUSED(USMARR_ERROR_INVALID_ARGUMENT, "shape is NULL");
    t->dl_tensor.shape = shape;
    shape[1] = -4;
    REFUSED(USMARR_ERROR_INVALID_ARGUMENT, "shape[1]=-4");
    shape[1] = INT64_MAX / 2;
    REFUSED(USMARR_ERROR_OVERFLOW, "");
    shape[1] = 4;
    strides[1] = 100; /* (0,3) at 18 + 300: past the 26-element allocation */
    REFUSED(USMARR_ERROR_OUT_OF_BOUNDS, "");
    strides[1] = 2;
    strides[0] = -100; /* (2,0) at 18 - 200: before the allocation */
    REFUSED(USMARR_ERROR_OUT_OF_BOUNDS, "");
    strides[0] = -9;
    t->dl_tensor.byte_offset = saved.byte_offset + 2; /* half an int32 */
    REFUSED(USMARR_ERROR_INVALID_ARGUMENT, "not a multiple");
    t->dl_tensor.byte_offset = saved.byte_offset;
    t->dl_tensor.data = NULL;
    REFUSED(USMARR_ERROR_INVALID_ARGUMENT, "data is NULL");
    t->dl_tensor.data = saved.data;
    t->dl_tensor.byte_offset = UINT64_MAX - 8;
    REFUSED(USMARR_ERROR_OVERFLOW, "byte_offset");
    t->dl_tensor.byte_offset = saved.byte_offset;
#undef REFUSED
    /* Unchanged, it imports. */
    ck_assert_ok(usmarr_array_from_dlpack(t, ctx, USMARR_DLPACK_COPY_NEVER, 0, &b));
    usmarr_array_release(b);
    ck_assert_ok(usmarr_context_finish(ctx)); /* the deleter runs once the work on it is done */
    ck_assert_int_eq(deleter_calls, 1);
    usmarr_array_release(a);
    usmarr_context_release(ctx);
}
END_TEST

Suite *suite_dlpack(void);
Suite *suite_dlpack(void)
{
    Suite *s = suite_create("dlpack");
    TCase *t = tcase_create("core");
    tcase_set_timeout(t, 120);
    tcase_add_test(t, test_dlpack_dtype_codes_match_dlpack_for_every_dtype);
    tcase_add_test(t, test_dlpack_structs_have_dlpacks_layout);
    tcase_add_test(t, test_dlpack_device_is_oneapi_with_the_selector_ordinal);
    tcase_add_test(t, test_dlpack_round_trip_every_dtype_and_kind_zero_copy);
    tcase_add_test(t, test_dlpack_zero_d_and_zero_size_round_trip);
    tcase_add_test(t, test_dlpack_read_only_is_flagged_and_honoured_on_import);
    tcase_add_test(t, test_dlpack_deleter_drops_the_reference_and_frees_the_block);
    tcase_add_test(t, test_dlpack_deleter_runs_on_another_thread);
    tcase_add_test(t, test_dlpack_host_readable_usm_as_kdlcpu_zero_copy);
    tcase_add_test(t, test_dlpack_device_usm_as_kdlcpu_is_a_host_copy);
    tcase_add_test(t, test_dlpack_copy_always_gives_independent_memory);
    tcase_add_test(t, test_dlpack_host_memory_is_copied_only_when_allowed);
    tcase_add_test(t, test_dlpack_usm_of_another_context_is_refused);
    tcase_add_test(t, test_dlpack_export_failures_name_the_problem);
    tcase_add_test(t, test_dlpack_import_failures_name_the_problem_and_keep_the_tensor);
    suite_add_tcase(s, t);
    return s;
}
