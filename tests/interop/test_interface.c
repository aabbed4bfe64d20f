/* The USM array interface: export, zero-copy import, JSON both ways, hostile text. */
#include "../harness/common.h"

#include <CL/cl_ext.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

struct release_count {
    int calls;
    usmarr_array_t *owner;
};

static void count_release(void *pointer, void *user)
{
    (void)pointer;
    struct release_count *r = user;
    r->calls++;
    usmarr_array_release(r->owner);
    r->owner = NULL;
}

/* W = USMArray((4, 2), 'i4', 'device', strides=(-5, -2)) filled with known values. */
static usmarr_array_t *make_w(usmarr_context_t *ctx, int32_t *values)
{
    usmarr_array_options_t o = USMARR_ARRAY_OPTIONS_INIT;
    int64_t shape[] = {4, 2}, strides[] = {-5, -2};
    o.context = ctx;
    o.ndim = 2;
    o.shape = shape;
    o.typestr = "<i4";
    o.strides = strides;
    usmarr_array_t *w;
    ck_assert_ok(usmarr_array_create(&o, &w));
    for (int i = 0; i < 8; i++)
        values[i] = 10 * i + 3;
    ck_assert_ok(usmarr_array_copy_from_host(w, values, NULL));
    return w;
}

START_TEST(test_interface_round_trip_interfaces_compare_equal)
{
    usmarr_context_t *ctx = test_context();
    int32_t v[8];
    usmarr_array_t *w = make_w(ctx, v), *w2;
    usmarr_interface_t wi, w2i;
    ck_assert_ok(usmarr_interface_export(w, &wi));
    ck_assert_int_eq(wi.version, 1);
    ck_assert_str_eq(wi.typestr, "<i4");
    ck_assert_ptr_eq(wi.data, usmarr_memory_pointer(usmarr_array_memory(w))); /* base, not element 0 */
    ck_assert_int_eq(wi.offset, 17);
    ck_assert_ptr_nonnull(wi.strides);
    ck_assert_int_eq(wi.nstrides, 2);
    ck_assert_int_eq(wi.strides[0], -5);
    ck_assert(!wi.readonly);
    ck_assert_int_eq(wi.syclobj.kind, USMARR_SYCLOBJ_CONTEXT);
    ck_assert_ptr_eq(wi.syclobj.value.context, ctx);
    /* W2 = USMArray(Wiface['shape'], dtype=Wiface['typestr'], buffer=W, strides=..., offset=...) */
    usmarr_array_options_t o = USMARR_ARRAY_OPTIONS_INIT;
    o.ndim = wi.ndim;
    o.shape = wi.shape;
    o.typestr = wi.typestr;
    o.buffer = USMARR_BUFFER_ARRAY;
    o.array = w;
    o.strides = wi.strides;
    o.offset = wi.offset;
    ck_assert_ok(usmarr_array_create(&o, &w2));
    ck_assert_ok(usmarr_interface_export(w2, &w2i));
    ck_assert(usmarr_interface_equal(&wi, &w2i));
    /* and equality can fail */
    w2i.offset = 16;
    ck_assert(!usmarr_interface_equal(&wi, &w2i));
    w2i.offset = 17;
    w2i.readonly = true;
    ck_assert(!usmarr_interface_equal(&wi, &w2i));
    ck_assert(!usmarr_interface_equal(&wi, NULL));
    ck_assert_fails_with(usmarr_interface_export(NULL, &wi), USMARR_ERROR_INVALID_ARGUMENT, "array");
    ck_assert_fails_with(usmarr_interface_export(w, NULL), USMARR_ERROR_INVALID_ARGUMENT, "iface");
    usmarr_array_release(w2);
    usmarr_array_release(w);
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_interface_import_negative_strides_offset_zero_copy)
{
    usmarr_context_t *ctx = test_context();
    int32_t v[8];
    usmarr_array_t *w = make_w(ctx, v), *imp;
    usmarr_interface_t wi;
    ck_assert_ok(usmarr_interface_export(w, &wi));
    struct release_count rc = {0, usmarr_array_retain(w)};
    ck_assert_ok(usmarr_interface_import(&wi, NULL, count_release, &rc, &imp));
    usmarr_array_release(w); /* the import keeps W's block alive through the callback */
    ck_assert_int_eq(rc.calls, 0);
    ck_assert_int_eq(usmarr_array_offset(imp), 17);
    ck_assert_int_eq(usmarr_array_strides(imp)[1], -2);
    ck_assert_ptr_eq(usmarr_memory_pointer(usmarr_array_memory(imp)), wi.data);
    ck_assert_uint_eq(usmarr_memory_size(usmarr_array_memory(imp)), 18 * 4);
    ck_assert_uint_ne(usmarr_array_flags(imp) & USMARR_FLAG_WRITABLE, 0);
    int32_t back[8];
    ck_assert_ok(usmarr_array_copy_to_host(imp, back, NULL));
    for (int i = 0; i < 8; i++)
        ck_assert_int_eq(back[i], v[i]);
    /* Zero copy: writing through the import is visible in the exporter's memory. */
    int32_t nv[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    ck_assert_ok(usmarr_array_copy_from_host(imp, nv, NULL));
    int32_t raw[18];
    ck_assert_ok(usmarr_memory_copy_to_host(usmarr_array_memory(imp), 0, raw, sizeof raw));
    ck_assert_int_eq(raw[17], 1);          /* [0,0] */
    ck_assert_int_eq(raw[17 - 2], 2);      /* [0,1] */
    ck_assert_int_eq(raw[17 - 15 - 2], 8); /* [3,1] */
    usmarr_array_release(imp);
    ck_assert_ok(usmarr_context_finish(ctx)); /* the release runs once the work on it is done */
    ck_assert_int_eq(rc.calls, 1);
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_interface_import_hand_made_inside_allocation)
{
    /* A foreign producer hands out data = allocation base + 64 bytes, strides (-4,) and
     * offset 0: elements at data, data-16, data-32, data-48 bytes: before `data` but
     * inside the allocation, so valid (dpctl started the buffer at the lowest element). */
    usmarr_context_t *ctx = test_context();
    usmarr_memory_t *m;
    ck_assert_ok(usmarr_memory_create(ctx, USMARR_USM_DEVICE, 256, 0, &m));
    float host[64];
    for (int i = 0; i < 64; i++)
        host[i] = (float)i;
    ck_assert_ok(usmarr_memory_copy_from_host(m, 0, host, sizeof host));
    int64_t shape[] = {4}, strides[] = {-4};
    usmarr_interface_t i = {.ndim = 1,
                            .shape = shape,
                            .typestr = "<f4",
                            .data = (char *)usmarr_memory_pointer(m) + 64,
                            .readonly = true,
                            .strides = strides,
                            .nstrides = 1,
                            .offset = 0,
                            .syclobj = {.kind = USMARR_SYCLOBJ_SELECTOR, .value.selector = test_selector},
                            .version = 1};
    usmarr_array_t *a;
    ck_assert_ok(usmarr_interface_import(&i, ctx, NULL, NULL, &a));
    ck_assert_ptr_eq(usmarr_memory_pointer(usmarr_array_memory(a)), usmarr_memory_pointer(m));
    ck_assert_int_eq(usmarr_array_offset(a), 16);
    ck_assert_uint_eq(usmarr_array_flags(a) & USMARR_FLAG_WRITABLE, 0); /* read-only import */
    float got[4];
    ck_assert_ok(usmarr_array_copy_to_host(a, got, NULL));
    for (int k = 0; k < 4; k++)
        ck_assert(got[k] == (float)(16 - 4 * k));
    ck_assert_fails_with(usmarr_array_copy_from_host(a, got, NULL), USMARR_ERROR_READ_ONLY, "read-only");
    usmarr_interface_t back;
    ck_assert_ok(usmarr_interface_export(a, &back));
    ck_assert(back.readonly);
    usmarr_array_release(a);
    /* With a non-zero offset: data = base, offset 16, same elements. */
    i.data = usmarr_memory_pointer(m);
    i.offset = 16;
    i.readonly = false;
    ck_assert_ok(usmarr_interface_import(&i, ctx, NULL, NULL, &a));
    ck_assert_ok(usmarr_array_copy_to_host(a, got, NULL));
    ck_assert(got[3] == 4.0f);
    usmarr_array_release(a);
    /* A queue as syclobj: without a context the import adopts the queue. */
    i.syclobj.kind = USMARR_SYCLOBJ_QUEUE;
    i.syclobj.value.queue = usmarr_context_queue(ctx);
    ck_assert_ok(usmarr_interface_import(&i, NULL, NULL, NULL, &a));
    ck_assert_ptr_eq(usmarr_context_cl_context(usmarr_array_context(a)), usmarr_context_cl_context(ctx));
    usmarr_array_release(a);
    usmarr_memory_release(m);
    usmarr_context_release(ctx);
}
END_TEST

static const char *another_device(void)
{
    static char sel[64];
    usmarr_device_info_t *d;
    size_t n;
    const char *found = NULL;
    if (usmarr_devices_list(&d, &n))
        return NULL;
    for (size_t k = 0; k < n && !found; k++)
        if (d[k].usable && strcmp(d[k].selector, test_selector) != 0) {
            snprintf(sel, sizeof sel, "%s", d[k].selector);
            found = sel;
        }
    usmarr_devices_free(d);
    return found;
}

START_TEST(test_interface_rejected_imports_name_the_problem_and_leak_nothing)
{
    usmarr_context_t *ctx = test_context(), *other = test_context();
    usmarr_memory_t *m, *om;
    ck_assert_ok(usmarr_memory_create(ctx, USMARR_USM_DEVICE, 128, 0, &m));
    ck_assert_ok(usmarr_memory_create(other, USMARR_USM_DEVICE, 128, 0, &om));
    char *base = usmarr_memory_pointer(m);
    int64_t shape[] = {4, 4}, neg[] = {2, -3}, good[] = {4, 1}, bad_shape[] = {4, -1};
    char stack[64];
    const char *elsewhere = another_device();
    struct {
        const char *name;
        usmarr_interface_t i;
        usmarr_context_t *ctx;
        int code;
        const char *needle;
    } cases[] = {
        {"version", {2, shape, "<f4", base, false, NULL, 0, 0, {USMARR_SYCLOBJ_NONE, {0}}, 2}, ctx,
         USMARR_ERROR_INVALID_ARGUMENT, "version=2"},
        {"typestr", {2, shape, ">f4", base, false, NULL, 0, 0, {USMARR_SYCLOBJ_NONE, {0}}, 1}, ctx,
         USMARR_ERROR_BAD_DTYPE, "typestr"},
        {"string typestr", {2, shape, "|S4", base, false, NULL, 0, 0, {USMARR_SYCLOBJ_NONE, {0}}, 1}, ctx,
         USMARR_ERROR_BAD_DTYPE, "not numeric"},
        {"strides length", {2, shape, "<f4", base, false, good, 1, 0, {USMARR_SYCLOBJ_NONE, {0}}, 1}, ctx,
         USMARR_ERROR_INVALID_ARGUMENT, "len(strides)=1"},
        {"ndim", {-1, shape, "<f4", base, false, NULL, 0, 0, {USMARR_SYCLOBJ_NONE, {0}}, 1}, ctx,
         USMARR_ERROR_INVALID_ARGUMENT, "ndim=-1"},
        {"negative extent", {2, bad_shape, "<f4", base, false, NULL, 0, 0, {USMARR_SYCLOBJ_NONE, {0}}, 1}, ctx,
         USMARR_ERROR_INVALID_ARGUMENT, "shape[1]=-1"},
        {"other context's pointer", {2, shape, "<f4", usmarr_memory_pointer(om), false, NULL, 0, 0,
                                     {USMARR_SYCLOBJ_CONTEXT, {.context = ctx}}, 1},
         NULL, USMARR_ERROR_FOREIGN_POINTER, "data="},
        {"stack pointer", {2, shape, "<f4", stack, false, NULL, 0, 0, {USMARR_SYCLOBJ_NONE, {0}}, 1}, ctx,
         USMARR_ERROR_FOREIGN_POINTER, "data="},
        {"null pointer", {2, shape, "<f4", NULL, false, NULL, 0, 0, {USMARR_SYCLOBJ_NONE, {0}}, 1}, ctx,
         USMARR_ERROR_FOREIGN_POINTER, "data is NULL"},
        {"past the end", {2, shape, "<f8", base, false, NULL, 0, 1, {USMARR_SYCLOBJ_NONE, {0}}, 1}, ctx,
         USMARR_ERROR_OUT_OF_BOUNDS, "offset=1"},
        {"before the allocation", {2, shape, "<f4", base, false, neg, 2, 8, {USMARR_SYCLOBJ_NONE, {0}}, 1}, ctx,
         USMARR_ERROR_OUT_OF_BOUNDS, "strides[1]=-3"},
        {"misaligned data", {2, shape, "<f4", base + 2, false, NULL, 0, 0, {USMARR_SYCLOBJ_NONE, {0}}, 1}, ctx,
         USMARR_ERROR_INVALID_ARGUMENT, "not a multiple"},
        {"no context for selector", {2, shape, "<f4", base, false, NULL, 0, 0,
                                     {USMARR_SYCLOBJ_SELECTOR, {.selector = "opencl:cpu:0"}}, 1},
         NULL, USMARR_ERROR_INVALID_ARGUMENT, "selector"},
        {"bad selector", {2, shape, "<f4", base, false, NULL, 0, 0, {USMARR_SYCLOBJ_SELECTOR, {.selector = "gpu:x:y"}},
                          1},
         ctx, USMARR_ERROR_BAD_SELECTOR, ""},
        {"context differs from syclobj", {2, shape, "<f4", base, false, NULL, 0, 0,
                                          {USMARR_SYCLOBJ_CONTEXT, {.context = other}}, 1},
         ctx, USMARR_ERROR_CONTEXT_MISMATCH, "context"},
        {"no context at all", {2, shape, "<f4", base, false, NULL, 0, 0, {USMARR_SYCLOBJ_NONE, {0}}, 1}, NULL,
         USMARR_ERROR_INVALID_ARGUMENT, "context is NULL"},
        {"bad syclobj kind", {2, shape, "<f4", base, false, NULL, 0, 0, {(usmarr_syclobj_kind_t)7, {0}}, 1}, ctx,
         USMARR_ERROR_INVALID_ARGUMENT, "syclobj.kind=7"},
        {"selector of another device", {2, shape, "<f4", base, false, NULL, 0, 0,
                                        {USMARR_SYCLOBJ_SELECTOR, {.selector = elsewhere}}, 1},
         ctx, USMARR_ERROR_CONTEXT_MISMATCH, "another device"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        if (!cases[k].i.syclobj.value.selector && cases[k].i.syclobj.kind == USMARR_SYCLOBJ_SELECTOR)
            continue; /* only one device here */
        struct release_count r = {0, NULL};
        usmarr_array_t *a = NULL;
        int rc = usmarr_interface_import(&cases[k].i, cases[k].ctx, count_release, &r, &a);
        ck_assert_msg(rc == cases[k].code, "%s: got %s, want %s (%s)", cases[k].name, usmarr_error_name(rc),
                      usmarr_error_name(cases[k].code), usmarr_last_error_detail());
        ck_assert_msg(strstr(usmarr_last_error_detail(), cases[k].needle) != NULL, "%s: \"%s\" lacks \"%s\"",
                      cases[k].name, usmarr_last_error_detail(), cases[k].needle);
        ck_assert_ptr_null(a);
        ck_assert_int_eq(r.calls, 0);
    }
    usmarr_array_t *a = NULL;
    ck_assert_fails_with(usmarr_interface_import(NULL, ctx, NULL, NULL, &a), USMARR_ERROR_INVALID_ARGUMENT, "iface");
    ck_assert_int_eq(usmarr_memory_refcount(m), 1);
    usmarr_memory_release(m);
    usmarr_memory_release(om);
    usmarr_context_release(ctx);
    usmarr_context_release(other);
}
END_TEST

START_TEST(test_interface_json_array_json_round_trip)
{
    usmarr_context_t *ctx = test_context();
    int32_t v[8];
    usmarr_array_t *w = make_w(ctx, v), *a;
    char *j1, *j2;
    ck_assert_ok(usmarr_array_to_json(w, &j1));
    char want[512];
    snprintf(want, sizeof want,
             "{\"shape\": [4, 2], \"typestr\": \"<i4\", \"data\": [%llu, false], \"strides\": [-5, -2], "
             "\"offset\": 17, \"syclobj\": \"%s\"%s, \"version\": 1}",
             (unsigned long long)(uintptr_t)usmarr_memory_pointer(usmarr_array_memory(w)), test_selector,
             usmarr_context_info(ctx)->backend == USMARR_BACKEND_SVM ? ", \"memory\": \"opencl-svm\"" : "");
    ck_assert_str_eq(j1, want);
    ck_assert_ok(usmarr_array_from_json(j1, ctx, NULL, NULL, &a));
    ck_assert_ok(usmarr_array_to_json(a, &j2));
    ck_assert_str_eq(j1, j2);
    int32_t back[8];
    ck_assert_ok(usmarr_array_copy_to_host(a, back, NULL));
    for (int i = 0; i < 8; i++)
        ck_assert_int_eq(back[i], v[i]);
    usmarr_array_release(a);
    usmarr_string_free(j2);
    /* Parsed interface fields, in another key order with unknown keys and whitespace. */
    usmarr_interface_t *pi;
    ck_assert_ok(usmarr_interface_from_json(" {\"version\":1,\"x\":{\"deep\":[1,2.5e3,null,\"\\u00e9\"]},"
                                            "\"syclobj\":null,\"typestr\":\"|u1\",\"data\":[0,true],"
                                            "\"shape\":[],\"offset\":-3}\n",
                                            &pi));
    ck_assert_int_eq(pi->ndim, 0);
    ck_assert_str_eq(pi->typestr, "|u1");
    ck_assert(pi->readonly);
    ck_assert_ptr_null(pi->strides);
    ck_assert_int_eq(pi->offset, -3);
    ck_assert_int_eq(pi->syclobj.kind, USMARR_SYCLOBJ_NONE);
    usmarr_interface_free(pi);
    /* C-contiguous arrays export strides null. */
    int64_t shape[] = {2, 3};
    ck_assert_ok(usmarr_array_zeros(ctx, 2, shape, USMARR_FLOAT32, 0, USMARR_USM_DEVICE, &a));
    ck_assert_ok(usmarr_array_to_json(a, &j2));
    ck_assert_ptr_nonnull(strstr(j2, "\"strides\": null"));
    ck_assert_ptr_nonnull(strstr(j2, "\"typestr\": \"<f4\""));
    usmarr_string_free(j2);
    usmarr_array_release(a);
    ck_assert_fails_with(usmarr_array_to_json(NULL, &j2), USMARR_ERROR_INVALID_ARGUMENT, "array");
    ck_assert_fails_with(usmarr_array_to_json(w, NULL), USMARR_ERROR_INVALID_ARGUMENT, "json");
    usmarr_interface_t bad = {.ndim = 2, .shape = NULL, .typestr = "<f4", .version = 1};
    ck_assert_fails_with(usmarr_interface_to_json(&bad, &j2), USMARR_ERROR_INVALID_ARGUMENT, "shape is NULL");
    ck_assert_fails_with(usmarr_interface_from_json(NULL, &pi), USMARR_ERROR_INVALID_ARGUMENT, "json");
    ck_assert_fails_with(usmarr_array_from_json("{}", ctx, NULL, NULL, &a), USMARR_ERROR_PARSE, "shape");
    usmarr_string_free(j1);
    usmarr_string_free(NULL);
    usmarr_interface_free(NULL);
    usmarr_array_release(w);
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_interface_json_parser_rejects_hostile_text)
{
    static const char *const bad[] = {
        "",
        "   ",
        "null",
        "[]",
        "{",
        "{\"shape\"",
        "{\"shape\":",
        "{\"shape\":[1,2",
        "{\"shape\":[1,2]",
        "{\"shape\":[1,2],}",
        "{\"shape\":[1,,2]}",
        "{\"shape\":[1.5], \"typestr\":\"<f4\", \"data\":[1,false], \"version\":1}",
        "{\"shape\":[1e3], \"typestr\":\"<f4\", \"data\":[1,false], \"version\":1}",
        "{\"shape\":[99999999999999999999], \"typestr\":\"<f4\", \"data\":[1,false], \"version\":1}",
        "{\"shape\":[9223372036854775808], \"typestr\":\"<f4\", \"data\":[1,false], \"version\":1}",
        "{\"shape\":[-9223372036854775809], \"typestr\":\"<f4\", \"data\":[1,false], \"version\":1}",
        "{\"shape\":[01], \"typestr\":\"<f4\", \"data\":[1,false], \"version\":1}",
        "{\"shape\":[1], \"typestr\":4, \"data\":[1,false], \"version\":1}",
        "{\"shape\":\"1\", \"typestr\":\"<f4\", \"data\":[1,false], \"version\":1}",
        "{\"shape\":[1], \"typestr\":\"<f4\", \"data\":[1,0], \"version\":1}",
        "{\"shape\":[1], \"typestr\":\"<f4\", \"data\":[-1,false], \"version\":1}",
        "{\"shape\":[1], \"typestr\":\"<f4\", \"data\":[18446744073709551616,false], \"version\":1}",
        "{\"shape\":[1], \"typestr\":\"<f4\", \"data\":[1,false,3], \"version\":1}",
        "{\"shape\":[1], \"typestr\":\"<f4\", \"data\":[1,false], \"version\":\"1\"}",
        "{\"shape\":[1], \"typestr\":\"<f4\", \"data\":[1,false], \"version\":99999999999}",
        "{\"shape\":[1], \"typestr\":\"<f4\", \"data\":[1,false]}",
        "{\"shape\":[1], \"typestr\":\"<f4\", \"data\":[1,false], \"version\":1} x",
        "{\"shape\":[1], \"shape\":[2], \"typestr\":\"<f4\", \"data\":[1,false], \"version\":1}",
        "{\"shape\":[1], \"typestr\":\"<f4\\u0000\", \"data\":[1,false], \"version\":1}",
        "{\"shape\":[1], \"typestr\":\"<f4\\q\", \"data\":[1,false], \"version\":1}",
        "{\"shape\":[1], \"typestr\":\"<f4\\u12\", \"data\":[1,false], \"version\":1}",
        "{\"shape\":[1], \"typestr\":\"a very long typestr indeed\", \"data\":[1,false], \"version\":1}",
        "{\"shape\":[1], \"typestr\":\"<f4\", \"data\":[1,false], \"version\":1, \"syclobj\":5}",
        "{\"shape\":[1], \"typestr\":\"<f4\", \"data\":[1,false], \"version\":1, \"strides\":[1,]}",
        "{\"shape\":[1], \"typestr\":\"<f4\", \"data\":[1,false], \"version\":1, \"x\":[1,2}",
        "{\"shape\":[1], \"typestr\":\"<f4\", \"data\":[1,false], \"version\":1, \"x\":tru}",
        "{\"shape\":[1], \"typestr\":\"<f4\", \"data\":[1,false], \"version\":1, \"x\":-}",
        "{\"shape\":[1], \"typestr\":\"<f4\", \"data\":[1,false], \"version\":1, \"x\":1.}",
        "{\"shape\":[1], \"typestr\":\"<f4\", \"data\":[1,false], \"version\":1, \"x\":1e}",
        "{\"shape\":[1], \"typestr\":\"tab\there\", \"data\":[1,false], \"version\":1}",
        "{shape:[1]}",
        "{'shape':[1]}",
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        usmarr_interface_t *i = NULL;
        int rc = usmarr_interface_from_json(bad[k], &i);
        ck_assert_msg(rc == USMARR_ERROR_PARSE, "case %zu (%s) gave %d", k, bad[k], rc);
        ck_assert_msg(strstr(usmarr_last_error_detail(), "json") != NULL, "case %zu: %s", k,
                      usmarr_last_error_detail());
        ck_assert_ptr_null(i);
    }
    /* Positions are reported. */
    usmarr_interface_t *i = NULL;
    ck_assert_fails_with(usmarr_interface_from_json("{\"shape\":[1,x]}", &i), USMARR_ERROR_PARSE, "byte 12");
    /* 65 dimensions is one too many. */
    char big[1024] = "{\"shape\":[";
    for (int k = 0; k < 65; k++)
        strcat(big, k ? ",1" : "1");
    strcat(big, "], \"typestr\":\"<f4\", \"data\":[1,false], \"version\":1}");
    ck_assert_fails_with(usmarr_interface_from_json(big, &i), USMARR_ERROR_PARSE, "more than 64");
    /* Deep nesting in an unknown value is refused, not recursed into. */
    size_t depth = 100000;
    char *deep = malloc(2 * depth + 64);
    strcpy(deep, "{\"x\":");
    size_t n = strlen(deep);
    memset(deep + n, '[', depth);
    memset(deep + n + depth, ']', depth);
    strcpy(deep + n + 2 * depth, "}");
    ck_assert_fails_with(usmarr_interface_from_json(deep, &i), USMARR_ERROR_PARSE, "nesting deeper");
    free(deep);
    ck_assert_ptr_null(i);
}
END_TEST

START_TEST(test_interface_json_truncations_and_mutations_never_crash)
{
    const char *good = "{\"shape\": [4, 2], \"typestr\": \"<i4\", \"data\": [140000000000, false], "
                       "\"strides\": [-5, -2], \"offset\": 17, \"syclobj\": \"opencl:cpu:0\", \"version\": 1}";
    usmarr_interface_t *i;
    ck_assert_ok(usmarr_interface_from_json(good, &i));
    ck_assert_int_eq(i->ndim, 2);
    ck_assert_int_eq(i->shape[1], 2);
    ck_assert_int_eq(i->nstrides, 2);
    ck_assert_int_eq(i->strides[0], -5);
    ck_assert_int_eq(i->offset, 17);
    ck_assert_ptr_eq(i->data, (void *)(uintptr_t)140000000000ULL);
    ck_assert_int_eq(i->syclobj.kind, USMARR_SYCLOBJ_SELECTOR);
    ck_assert_str_eq(i->syclobj.value.selector, "opencl:cpu:0");
    usmarr_interface_free(i);
    size_t len = strlen(good);
    char *buf = malloc(len + 1);
    /* Every proper prefix is malformed. */
    for (size_t cut = 0; cut < len; cut++) {
        memcpy(buf, good, cut);
        buf[cut] = '\0';
        i = NULL;
        int rc = usmarr_interface_from_json(buf, &i);
        ck_assert_msg(rc == USMARR_ERROR_PARSE, "prefix of %zu bytes gave %d", cut, rc);
        ck_assert_ptr_null(i);
    }
    /* Random byte mutations: either parse or fail with USMARR_ERROR_PARSE. */
    unsigned s = 2024;
    int accepted = 0;
    for (int iter = 0; iter < 5000; iter++) {
        memcpy(buf, good, len + 1);
        for (int m = 0; m < 1 + iter % 3; m++) {
            s = s * 1103515245u + 12345u;
            size_t at = (s >> 8) % len;
            s = s * 1103515245u + 12345u;
            buf[at] = (char)(1 + (s >> 8) % 255);
        }
        i = NULL;
        int rc = usmarr_interface_from_json(buf, &i);
        ck_assert_msg(rc == 0 || rc == USMARR_ERROR_PARSE, "mutation %d gave %d", iter, rc);
        if (rc == 0) {
            accepted++;
            usmarr_interface_free(i);
        }
    }
    ck_assert_int_lt(accepted, 5000);
    free(buf);
}
END_TEST

Suite *suite_interface(void);
Suite *suite_interface(void)
{
    Suite *s = suite_create("interface");
    TCase *t = tcase_create("core");
    tcase_set_timeout(t, 120);
    tcase_add_test(t, test_interface_round_trip_interfaces_compare_equal);
    tcase_add_test(t, test_interface_import_negative_strides_offset_zero_copy);
    tcase_add_test(t, test_interface_import_hand_made_inside_allocation);
    tcase_add_test(t, test_interface_rejected_imports_name_the_problem_and_leak_nothing);
    tcase_add_test(t, test_interface_json_array_json_round_trip);
    tcase_add_test(t, test_interface_json_parser_rejects_hostile_text);
    tcase_add_test(t, test_interface_json_truncations_and_mutations_never_crash);
    suite_add_tcase(s, t);
    return s;
}
