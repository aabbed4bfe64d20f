#include "../harness/common.h"

#include <CL/cl_ext.h>
#include <stdlib.h>

START_TEST(test_context_selector_syntax_errors_name_the_bad_part)
{
    static const struct {
        const char *selector, *needle;
    } bad[] = {
        {"opencl:tpu", "tpu"},          {"cuda:gpu", "cuda"},        {"opencl::0", "empty part"},
        {":cpu", "empty part"},         {"cpu:", "empty part"},      {"0:cpu", "follows the device number"},
        {"opencl:cpu:0:1", "1"},        {"cpu:gpu", "gpu"},          {"opencl:cpu:x1", "x1"},
        {"cpu:99999999", "99999999"},   {"level_zero:gpu:0", "level_zero"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        usmarr_context_t *ctx = NULL;
        ck_assert_fails_with(usmarr_context_create(bad[i].selector, &ctx), USMARR_ERROR_BAD_SELECTOR,
                             bad[i].needle);
        ck_assert_ptr_null(ctx);
    }
}
END_TEST

START_TEST(test_context_selector_forms_pick_usable_devices)
{
    usmarr_device_info_t *devs;
    size_t n;
    ck_assert_ok(usmarr_devices_list(&devs, &n));
    size_t usable = 0, defaults = 0;
    for (size_t i = 0; i < n; i++) {
        usable += devs[i].usable;
        defaults += devs[i].is_default;
        if (!devs[i].usable) {
            ck_assert_str_ne(devs[i].reason, "");
            continue;
        }
        /* The listed selector names exactly this device. */
        usmarr_context_t *ctx;
        ck_assert_ok(usmarr_context_create(devs[i].selector, &ctx));
        ck_assert_str_eq(usmarr_context_info(ctx)->device_name, devs[i].device_name);
        ck_assert_str_eq(usmarr_context_info(ctx)->platform_name, devs[i].platform_name);
        usmarr_context_release(ctx);
    }
    ck_assert_uint_ge(usable, 1);
    ck_assert_uint_eq(defaults, 1);
    /* The forms of a CPU device where one is usable, else of a GPU (a GPU machine may show
     * NVIDIA's OpenCL alone). */
    bool have_cpu = false;
    for (size_t i = 0; i < n; i++)
        have_cpu |= devs[i].usable && (devs[i].type & CL_DEVICE_TYPE_CPU);
    const char *cpu_forms[] = {"cpu", "opencl:cpu", "opencl:cpu:0", "opencl:0", "opencl", "*:cpu", "CPU", "opencl:*:0"};
    const char *gpu_forms[] = {"gpu", "opencl:gpu", "opencl:gpu:0", "opencl:0", "opencl", "*:gpu", "GPU", "opencl:*:0"};
    const char **forms = have_cpu ? cpu_forms : gpu_forms;
    for (size_t f = 0; f < sizeof cpu_forms / sizeof cpu_forms[0]; f++) {
        usmarr_context_t *ctx = NULL;
        int rc = usmarr_context_create(forms[f], &ctx);
        ck_assert_msg(rc == 0, "%s: %s", forms[f], usmarr_last_error_detail());
        ck_assert_ptr_nonnull(ctx);
        usmarr_context_release(ctx);
    }
    usmarr_context_t *ctx = NULL;
    char sel[32];
    snprintf(sel, sizeof sel, "opencl:%zu", usable);
    ck_assert_fails_with(usmarr_context_create(sel, &ctx), USMARR_ERROR_NO_DEVICE, sel);
    usmarr_devices_free(devs);
}
END_TEST

START_TEST(test_context_default_follows_gpu_accelerator_cpu_and_env_override)
{
    usmarr_device_info_t *devs;
    size_t n;
    ck_assert_ok(usmarr_devices_list(&devs, &n));
    cl_device_type best = 0;
    const usmarr_device_info_t *def = NULL;
    for (size_t i = 0; i < n; i++) {
        if (devs[i].is_default)
            def = &devs[i];
        if (devs[i].usable && (devs[i].type & CL_DEVICE_TYPE_GPU))
            best = CL_DEVICE_TYPE_GPU;
        else if (devs[i].usable && (devs[i].type & CL_DEVICE_TYPE_ACCELERATOR) && best != CL_DEVICE_TYPE_GPU)
            best = CL_DEVICE_TYPE_ACCELERATOR;
        else if (devs[i].usable && !best)
            best = CL_DEVICE_TYPE_CPU;
    }
    ck_assert_ptr_nonnull(def);
    ck_assert_msg(def->type & best, "default type %lu, expected %lu", (unsigned long)def->type,
                  (unsigned long)best);
    usmarr_context_t *ctx;
    setenv("USMARR_DEVICE", test_selector, 1);
    ck_assert_ok(usmarr_context_create(NULL, &ctx));
    const usmarr_device_info_t *info = usmarr_context_info(ctx);
    int found = 0;
    for (size_t i = 0; i < n; i++)
        found |= !strcmp(devs[i].selector, test_selector) && !strcmp(devs[i].device_name, info->device_name) &&
                 !strcmp(devs[i].platform_name, info->platform_name);
    ck_assert_msg(found, "USMARR_DEVICE=%s picked %s", test_selector, info->platform_name);
    usmarr_context_release(ctx);
    setenv("USMARR_DEVICE", "opencl:gpu:7", 1);
    ctx = NULL;
    ck_assert_fails_with(usmarr_context_create("", &ctx), USMARR_ERROR_NO_DEVICE, "USMARR_DEVICE");
    unsetenv("USMARR_DEVICE");
    usmarr_devices_free(devs);
}
END_TEST

START_TEST(test_context_reports_capabilities)
{
    usmarr_context_t *ctx = test_context();
    const usmarr_device_info_t *info = usmarr_context_info(ctx);
    ck_assert(info->usable);
    ck_assert(info->device_mem_caps & CL_UNIFIED_SHARED_MEMORY_ACCESS_INTEL);
    if (info->kinds_limited) /* USMARR_USM_KINDS=device: the others read 0 */
        ck_assert(info->host_mem_caps == 0 && info->single_device_shared_caps == 0);
    ck_assert_uint_gt(info->max_alloc_size, 0);
    cl_ulong max_alloc;
    clGetDeviceInfo(usmarr_context_device(ctx), CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof max_alloc, &max_alloc, NULL);
    ck_assert_uint_eq(info->max_alloc_size, max_alloc);
    ck_assert_ptr_nonnull(usmarr_context_queue(ctx));
    ck_assert_ok(usmarr_context_finish(ctx));
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_context_adopt_retains_application_objects)
{
    usmarr_context_t *made = test_context();
    cl_context cl = usmarr_context_cl_context(made);
    cl_device_id dev = usmarr_context_device(made);
    cl_int err;
    cl_command_queue q = clCreateCommandQueueWithProperties(cl, dev, NULL, &err);
    ck_assert_int_eq(err, CL_SUCCESS);
    clRetainContext(cl);
    usmarr_context_release(made); /* now the application holds the only reference */
    usmarr_context_t *ctx;
    cl_uint before = 0, after = 0, qbefore = 0, qafter = 0;
    clGetContextInfo(cl, CL_CONTEXT_REFERENCE_COUNT, sizeof before, &before, NULL);
    clGetCommandQueueInfo(q, CL_QUEUE_REFERENCE_COUNT, sizeof qbefore, &qbefore, NULL);
    ck_assert_ok(usmarr_context_adopt(cl, dev, q, &ctx));
    ck_assert_ptr_eq(usmarr_context_queue(ctx), q);
    clGetContextInfo(cl, CL_CONTEXT_REFERENCE_COUNT, sizeof after, &after, NULL);
    clGetCommandQueueInfo(q, CL_QUEUE_REFERENCE_COUNT, sizeof qafter, &qafter, NULL);
    ck_assert_uint_eq(after, before + 1);
    ck_assert_uint_eq(qafter, qbefore + 1);
    clReleaseCommandQueue(q);
    clReleaseContext(cl); /* the adopted context keeps them alive */
    usmarr_memory_t *m;
    ck_assert_ok(usmarr_memory_create(ctx, USMARR_USM_DEVICE, 256, 0, &m));
    unsigned char pattern = 0x5a, out[256];
    ck_assert_ok(usmarr_memory_fill(m, 0, &pattern, 1, 256));
    ck_assert_ok(usmarr_memory_copy_to_host(m, 0, out, 256));
    for (int i = 0; i < 256; i++)
        ck_assert_uint_eq(out[i], 0x5a);
    usmarr_memory_release(m);
    usmarr_context_release(ctx);

    /* A NULL queue makes the library create one. */
    made = test_context();
    ck_assert_ok(usmarr_context_adopt(usmarr_context_cl_context(made), usmarr_context_device(made), NULL, &ctx));
    ck_assert_ptr_nonnull(usmarr_context_queue(ctx));
    ck_assert_ptr_ne(usmarr_context_queue(ctx), usmarr_context_queue(made));
    usmarr_context_release(ctx);
    usmarr_context_release(made);
}
END_TEST

START_TEST(test_context_adopt_rejects_bad_arguments)
{
    usmarr_context_t *a = test_context(), *b = test_context(), *ctx = NULL;
    ck_assert_fails_with(usmarr_context_adopt(NULL, usmarr_context_device(a), NULL, &ctx),
                         USMARR_ERROR_INVALID_ARGUMENT, "cl_ctx");
    ck_assert_fails_with(usmarr_context_adopt(usmarr_context_cl_context(a), NULL, NULL, &ctx),
                         USMARR_ERROR_INVALID_ARGUMENT, "device");
    ck_assert_fails_with(usmarr_context_adopt(usmarr_context_cl_context(a), usmarr_context_device(a), NULL, NULL),
                         USMARR_ERROR_INVALID_ARGUMENT, "context");
    ck_assert_fails_with(usmarr_context_adopt(usmarr_context_cl_context(a), usmarr_context_device(a),
                                              usmarr_context_queue(b), &ctx),
                         USMARR_ERROR_INVALID_ARGUMENT, "queue belongs to another context");
    cl_int err;
    cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
    cl_command_queue ooo = clCreateCommandQueueWithProperties(usmarr_context_cl_context(a), usmarr_context_device(a),
                                                              props, &err);
    if (err == CL_SUCCESS) {
        ck_assert_fails_with(usmarr_context_adopt(usmarr_context_cl_context(a), usmarr_context_device(a), ooo, &ctx),
                             USMARR_ERROR_INVALID_ARGUMENT, "out-of-order");
        clReleaseCommandQueue(ooo);
    }
    ck_assert_ptr_null(ctx);
    ck_assert_fails_with(usmarr_context_create(NULL, NULL), USMARR_ERROR_INVALID_ARGUMENT, "context");
    ck_assert_fails_with(usmarr_context_finish(NULL), USMARR_ERROR_INVALID_ARGUMENT, "context");
    ck_assert_fails_with(usmarr_devices_list(NULL, NULL), USMARR_ERROR_INVALID_ARGUMENT, "devices");
    usmarr_context_release(a);
    usmarr_context_release(b);
    usmarr_context_release(NULL);
    ck_assert_ptr_null(usmarr_context_retain(NULL));
}
END_TEST

/* Sets (value non-NULL) or clears an environment variable, returning its old value to
 * hand back to env_restore(): the runner's modes set USMARR_USM_KINDS/USMARR_USM_BACKEND,
 * and tests that change them must leave them as they found them. */
static char *env_swap(const char *name, const char *value)
{
    const char *old = getenv(name);
    char *saved = old ? strdup(old) : NULL;
    if (value)
        setenv(name, value, 1);
    else
        unsetenv(name);
    return saved;
}

static void env_restore(const char *name, char *saved)
{
    if (saved)
        setenv(name, saved, 1);
    else
        unsetenv(name);
    free(saved);
}

START_TEST(test_context_backend_names)
{
    ck_assert_str_eq(usmarr_backend_name(USMARR_BACKEND_USM), "usm");
    ck_assert_str_eq(usmarr_backend_name(USMARR_BACKEND_SVM), "svm");
    ck_assert_str_eq(usmarr_backend_name((usmarr_backend_t)42), "unknown");
    ck_assert_str_eq(usmarr_backend_name((usmarr_backend_t)-1), "unknown");
    usmarr_context_t *ctx = test_context();
    const char *want = getenv("USMARR_USM_BACKEND");
    if (want && !strcmp(want, "svm"))
        ck_assert_int_eq(usmarr_context_info(ctx)->backend, USMARR_BACKEND_SVM);
    usmarr_context_release(ctx);
}
END_TEST

/* A bad USMARR_USM_KINDS or USMARR_USM_BACKEND makes every device unusable with a reason
 * naming the variable and the bad word; selecting fails, and adopting a cl_context fails
 * with USMARR_ERROR_UNSUPPORTED and that reason. */
START_TEST(test_context_bad_backend_or_kinds_variable_makes_devices_unusable)
{
    static const struct {
        const char *name, *value, *needle;
    } bad[] = {
        {"USMARR_USM_KINDS", "device,gpu", "USMARR_USM_KINDS=\"device,gpu\": \"gpu\" is not device, shared or host"},
        {"USMARR_USM_KINDS", "hostess", "\"hostess\" is not device, shared or host"},
        {"USMARR_USM_BACKEND", "cuda", "USMARR_USM_BACKEND=\"cuda\" is not usm or svm"},
        {"USMARR_USM_BACKEND", "SVM", "USMARR_USM_BACKEND=\"SVM\" is not usm or svm"},
    };
    usmarr_context_t *made = test_context();
    for (size_t b = 0; b < sizeof bad / sizeof bad[0]; b++) {
        char *saved = env_swap(bad[b].name, bad[b].value);
        usmarr_device_info_t *devs;
        size_t n;
        ck_assert_ok(usmarr_devices_list(&devs, &n));
        size_t named = 0;
        for (size_t i = 0; i < n; i++) {
            ck_assert_msg(!devs[i].usable, "%s=%s: device %zu still usable", bad[b].name, bad[b].value, i);
            named += strstr(devs[i].reason, bad[b].needle) != NULL;
        }
        ck_assert_uint_ge(named, 1); /* at least the device under test says why */
        usmarr_devices_free(devs);
        usmarr_context_t *ctx = NULL;
        ck_assert_fails_with(usmarr_context_create(test_selector, &ctx), USMARR_ERROR_NO_DEVICE, test_selector);
        ck_assert_fails_with(usmarr_context_adopt(usmarr_context_cl_context(made), usmarr_context_device(made), NULL,
                                                  &ctx),
                             USMARR_ERROR_UNSUPPORTED, bad[b].needle);
        ck_assert_ptr_null(ctx);
        env_restore(bad[b].name, saved);
    }
    /* Restored: the device under test is usable again. */
    usmarr_context_t *ctx = NULL;
    ck_assert_ok(usmarr_context_create(test_selector, &ctx));
    usmarr_context_release(ctx);
    usmarr_context_release(made);
}
END_TEST

/* USMARR_USM_BACKEND=svm beside a context on the USM path (whatever the runner's mode):
 * the SVM context offers device USM, shared USM exactly where the driver reports
 * fine-grained buffer SVM, never host USM; its arithmetic matches a host loop; its own
 * allocations wrap (the range table answers), a pointer of the other context does not. */
START_TEST(test_context_svm_backend_beside_the_default)
{
    usmarr_context_t *base = test_context();
    cl_device_svm_capabilities caps = 0; /* the oracle: the driver itself */
    if (clGetDeviceInfo(usmarr_context_device(base), CL_DEVICE_SVM_CAPABILITIES, sizeof caps, &caps, NULL) !=
        CL_SUCCESS)
        caps = 0;
    char *saved = env_swap("USMARR_USM_BACKEND", "svm");
    usmarr_context_t *svm = NULL;
    int rc = usmarr_context_create(test_selector, &svm);
    if (!(caps & CL_DEVICE_SVM_COARSE_GRAIN_BUFFER)) {
        ck_assert_int_eq(rc, USMARR_ERROR_NO_DEVICE);
        ck_assert_fails_with(usmarr_context_adopt(usmarr_context_cl_context(base), usmarr_context_device(base), NULL,
                                                  &svm),
                             USMARR_ERROR_UNSUPPORTED, "no coarse-grained buffer SVM");
        env_restore("USMARR_USM_BACKEND", saved);
        usmarr_context_release(base);
        return;
    }
    ck_assert_msg(rc == 0, "%s", usmarr_last_error_detail());
    env_restore("USMARR_USM_BACKEND", saved);
    const usmarr_device_info_t *info = usmarr_context_info(svm);
    ck_assert_int_eq(info->backend, USMARR_BACKEND_SVM);
    ck_assert_uint_eq(info->svm_caps, caps);
    ck_assert_uint_eq(info->host_mem_caps, 0);
    usmarr_memory_t *m = NULL;
    ck_assert_fails_with(usmarr_memory_create(svm, USMARR_USM_HOST, 64, 0, &m), USMARR_ERROR_UNSUPPORTED,
                         "offers no host USM: CL_DEVICE_HOST_MEM_CAPABILITIES_INTEL is 0x0");
    ck_assert_ptr_null(m);
    bool fine = caps & CL_DEVICE_SVM_FINE_GRAIN_BUFFER;
    if (!info->kinds_limited)
        ck_assert_int_eq((info->single_device_shared_caps & CL_UNIFIED_SHARED_MEMORY_ACCESS_INTEL) != 0, fine);

    enum { N = 1000 };
    float x[N], y[N], z[N];
    for (int i = 0; i < N; i++) {
        x[i] = (float)i * 0.5f;
        y[i] = 1000.0f - (float)i;
    }
    int64_t shape = N;
    usmarr_array_t *a, *b, *c;
    ck_assert_ok(usmarr_array_from_host(svm, 1, &shape, USMARR_FLOAT32, x, NULL, USMARR_USM_DEVICE, &a));
    ck_assert_ok(usmarr_array_from_host(svm, 1, &shape, USMARR_FLOAT32, y, NULL, USMARR_USM_DEVICE, &b));
    ck_assert_ok(usmarr_add(a, b, NULL, &c));
    ck_assert_ok(usmarr_array_copy_to_host(c, z, NULL));
    for (int i = 0; i < N; i++)
        ck_assert_float_eq(z[i], x[i] + y[i]);
    /* The range table: the whole allocation and a range inside it wrap as device memory;
     * past its end is out of bounds; the other context's pointer is foreign here. */
    void *p = usmarr_memory_pointer(usmarr_array_memory(a));
    usmarr_memory_t *w;
    ck_assert_ok(usmarr_memory_wrap(svm, p, N * sizeof(float), NULL, NULL, &w));
    ck_assert_int_eq(usmarr_memory_kind(w), USMARR_USM_DEVICE);
    usmarr_memory_release(w);
    ck_assert_ok(usmarr_memory_wrap(svm, (char *)p + 400, 400, NULL, NULL, &w));
    usmarr_memory_release(w);
    w = NULL;
    ck_assert_fails_with(usmarr_memory_wrap(svm, (char *)p + 400, (size_t)1 << 20, NULL, NULL, &w),
                         USMARR_ERROR_OUT_OF_BOUNDS, "pointer");
    usmarr_memory_t *other;
    ck_assert_ok(usmarr_memory_create(base, USMARR_USM_DEVICE, 256, 0, &other));
    ck_assert_fails_with(usmarr_memory_wrap(svm, usmarr_memory_pointer(other), 256, NULL, NULL, &w),
                         USMARR_ERROR_FOREIGN_POINTER, "pointer");
    ck_assert_ptr_null(w);
    if (fine && !info->kinds_limited) { /* shared USM is fine-grained SVM: the host reads it directly */
        usmarr_memory_t *s;
        ck_assert_ok(usmarr_memory_create(svm, USMARR_USM_SHARED, N * sizeof(float), 0, &s));
        ck_assert_ok(usmarr_memory_copy(s, 0, usmarr_array_memory(c), 0, N * sizeof(float)));
        ck_assert_ok(usmarr_context_finish(svm));
        const float *host_view = usmarr_memory_pointer(s);
        for (int i = 0; i < N; i++)
            ck_assert_float_eq(host_view[i], x[i] + y[i]);
        usmarr_memory_release(s);
    }
    usmarr_memory_release(other);
    usmarr_array_release(a);
    usmarr_array_release(b);
    usmarr_array_release(c);
    usmarr_context_release(svm);
    usmarr_context_release(base);
}
END_TEST

Suite *suite_context(void)
{
    Suite *s = suite_create("context");
    TCase *tc = tcase_create("selectors");
    tcase_add_test(tc, test_context_selector_syntax_errors_name_the_bad_part);
    tcase_add_test(tc, test_context_selector_forms_pick_usable_devices);
    tcase_add_test(tc, test_context_default_follows_gpu_accelerator_cpu_and_env_override);
    suite_add_tcase(s, tc);
    tc = tcase_create("objects");
    tcase_add_test(tc, test_context_reports_capabilities);
    tcase_add_test(tc, test_context_adopt_retains_application_objects);
    tcase_add_test(tc, test_context_adopt_rejects_bad_arguments);
    suite_add_tcase(s, tc);
    tc = tcase_create("backends");
    tcase_add_test(tc, test_context_backend_names);
    tcase_add_test(tc, test_context_bad_backend_or_kinds_variable_makes_devices_unusable);
    tcase_add_test(tc, test_context_svm_backend_beside_the_default);
    suite_add_tcase(s, tc);
    return s;
}
