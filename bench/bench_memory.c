/* Allocation and release: the cost of a release-heavy loop (frees are serialised with
 * enqueues under the context's queue lock) against the driver's own calls. */
#include "bench.h"

#include <CL/cl_ext.h>
#include <stdio.h>

typedef void *(CL_API_CALL *device_alloc_fn)(cl_context, cl_device_id, const cl_mem_properties_intel *, size_t,
                                             cl_uint, cl_int *);
typedef cl_int(CL_API_CALL *free_fn)(cl_context, void *);

enum { ROUNDS = 2000, ELEMENTS = 16384 };

/* usmarr_array_empty + usmarr_array_release of 64 KiB device arrays, vs
 * clDeviceMemAllocINTEL + clMemBlockingFreeINTEL of the same bytes, alternating in
 * blocks of 100 so that drift hits both alike. */
static int run_release_churn(const struct bench_env *env, struct bench_result *r)
{
    cl_context cl = usmarr_context_cl_context(env->ctx);
    cl_device_id dev = usmarr_context_device(env->ctx);
    cl_platform_id platform;
    if (clGetDeviceInfo(dev, CL_DEVICE_PLATFORM, sizeof platform, &platform, NULL) != CL_SUCCESS)
        return 1;
    device_alloc_fn alloc = (device_alloc_fn)clGetExtensionFunctionAddressForPlatform(platform, "clDeviceMemAllocINTEL");
    free_fn blocking_free = (free_fn)clGetExtensionFunctionAddressForPlatform(platform, "clMemBlockingFreeINTEL");
    if (!alloc || !blocking_free)
        return 1;
    const int64_t shape[1] = {ELEMENTS};
    double lib = 0, raw = 0;
    for (int block = 0; block < ROUNDS / 100; block++) {
        double t0 = bench_now();
        for (int i = 0; i < 100; i++) {
            usmarr_array_t *a = NULL;
            if (usmarr_array_empty(env->ctx, 1, shape, USMARR_FLOAT32, USMARR_ORDER_C, USMARR_USM_DEVICE, &a))
                return 1;
            usmarr_array_release(a);
        }
        double t1 = bench_now();
        for (int i = 0; i < 100; i++) {
            cl_int err = CL_SUCCESS;
            void *p = alloc(cl, dev, NULL, ELEMENTS * sizeof(float), 0, &err);
            if (!p || err != CL_SUCCESS)
                return 1;
            blocking_free(cl, p);
        }
        double t2 = bench_now();
        lib += t1 - t0;
        raw += t2 - t1;
    }
    r->ratio = lib / raw;
    snprintf(r->detail, sizeof r->detail, "library %.2f us, driver %.2f us per allocate + release (%d rounds)",
             lib / ROUNDS * 1e6, raw / ROUNDS * 1e6, ROUNDS);
    return 0;
}

const struct bench_case bench_memory[] = {
    {"release-churn-64KiB", "create + release of a 64 KiB device array vs clDeviceMemAllocINTEL + "
                            "clMemBlockingFreeINTEL (time ratio)",
     1.5, BENCH_AT_MOST, run_release_churn},
    {NULL},
};
