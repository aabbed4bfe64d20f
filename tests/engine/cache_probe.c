/* See cache_probe.h. */
#include "cache_probe.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

const char probe_source[] = "kernel void usmarr_cache_probe(global int *y, int a)\n"
                            "{\n"
                            "    size_t i = get_global_id(0);\n"
                            "    y[i] = a * (int)i + OFFSET;\n"
                            "}\n";

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void options_of(int variant, char options[64]) { snprintf(options, 64, "-DOFFSET=%d", variant); }

struct usmarr__program_key probe_key(usmarr_context_t *ctx, int variant, char options[64])
{
    options_of(variant, options);
    cl_device_id device = usmarr_context_device(ctx);
    cl_platform_id platform = NULL;
    clGetDeviceInfo(device, CL_DEVICE_PLATFORM, sizeof platform, &platform, NULL);
    struct usmarr__program_key key = {probe_source, sizeof probe_source - 1, options, platform, device};
    return key;
}

static cl_int build(usmarr_context_t *ctx, int variant, cl_program program)
{
    char options[64];
    options_of(variant, options);
    cl_device_id device = usmarr_context_device(ctx);
    return clBuildProgram(program, 1, &device, options, NULL, NULL);
}

cl_int probe_compile(usmarr_context_t *ctx, int variant, cl_program *program)
{
    const char *source = probe_source;
    cl_int err;
    *program = clCreateProgramWithSource(usmarr_context_cl_context(ctx), 1, &source, NULL, &err);
    if (err != CL_SUCCESS)
        return err;
    err = build(ctx, variant, *program);
    if (err != CL_SUCCESS) {
        clReleaseProgram(*program);
        *program = NULL;
    }
    return err;
}

cl_int probe_from_binary(usmarr_context_t *ctx, int variant, const unsigned char *binary, size_t size,
                         cl_program *program)
{
    cl_int err, status = CL_SUCCESS;
    cl_device_id device = usmarr_context_device(ctx);
    *program = clCreateProgramWithBinary(usmarr_context_cl_context(ctx), 1, &device, &size, &binary, &status, &err);
    if (err == CL_SUCCESS && status != CL_SUCCESS)
        err = status;
    if (err == CL_SUCCESS)
        err = build(ctx, variant, *program);
    if (err != CL_SUCCESS && *program) {
        clReleaseProgram(*program);
        *program = NULL;
    }
    return err;
}

cl_int probe_binary(usmarr_context_t *ctx, cl_program program, unsigned char **binary, size_t *size)
{
    (void)ctx;
    *binary = NULL;
    *size = 0;
    cl_uint ndev = 0;
    cl_int err = clGetProgramInfo(program, CL_PROGRAM_NUM_DEVICES, sizeof ndev, &ndev, NULL);
    if (err != CL_SUCCESS)
        return err;
    if (ndev != 1)
        return CL_INVALID_PROGRAM;
    err = clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof *size, size, NULL);
    if (err != CL_SUCCESS || *size == 0)
        return err != CL_SUCCESS ? err : CL_INVALID_PROGRAM;
    *binary = malloc(*size);
    if (!*binary)
        return CL_OUT_OF_HOST_MEMORY;
    err = clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof *binary, binary, NULL);
    if (err != CL_SUCCESS) {
        free(*binary);
        *binary = NULL;
    }
    return err;
}

typedef cl_int(CL_API_CALL *set_arg_pointer_fn)(cl_kernel, cl_uint, const void *);

int probe_run(usmarr_context_t *ctx, cl_program program, int variant, int a)
{
    usmarr_memory_t *y = NULL;
    cl_kernel kernel = NULL;
    int *host = NULL;
    int rc = usmarr_memory_create(ctx, USMARR_USM_DEVICE, PROBE_N * sizeof(int), 0, &y);
    if (rc)
        return rc;
    int fill = -1;
    rc = usmarr_memory_fill(y, 0, &fill, sizeof fill, PROBE_N * sizeof(int));
    cl_int err = CL_SUCCESS;
    if (!rc)
        kernel = clCreateKernel(program, "usmarr_cache_probe", &err);
    cl_platform_id platform = NULL;
    if (!rc && err == CL_SUCCESS)
        err = clGetDeviceInfo(usmarr_context_device(ctx), CL_DEVICE_PLATFORM, sizeof platform, &platform, NULL);
    /* The SVM backend's memory is SVM: its own argument setter (doc/backend.md). */
    set_arg_pointer_fn set_pointer =
        usmarr_context_info(ctx)->backend == USMARR_BACKEND_SVM ? clSetKernelArgSVMPointer
        : platform ? (set_arg_pointer_fn)clGetExtensionFunctionAddressForPlatform(platform, "clSetKernelArgMemPointerINTEL")
                   : NULL;
    if (!rc && err == CL_SUCCESS)
        err = set_pointer ? set_pointer(kernel, 0, usmarr_memory_pointer(y)) : CL_INVALID_OPERATION;
    if (!rc && err == CL_SUCCESS)
        err = clSetKernelArg(kernel, 1, sizeof a, &a);
    size_t global = PROBE_N;
    if (!rc && err == CL_SUCCESS)
        err = clEnqueueNDRangeKernel(usmarr_context_queue(ctx), kernel, 1, NULL, &global, NULL, 0, NULL, NULL);
    if (!rc && err == CL_SUCCESS)
        err = clFinish(usmarr_context_queue(ctx));
    if (!rc && err != CL_SUCCESS)
        rc = err;
    if (!rc && !(host = malloc(PROBE_N * sizeof(int))))
        rc = USMARR_ERROR_OUT_OF_HOST_MEMORY;
    if (!rc)
        rc = usmarr_memory_copy_to_host(y, 0, host, PROBE_N * sizeof(int));
    for (int i = 0; !rc && i < PROBE_N; i++)
        if (host[i] != a * i + variant)
            rc = 1;
    free(host);
    if (kernel)
        clReleaseKernel(kernel);
    usmarr_memory_release(y);
    return rc;
}

int probe_obtain(usmarr_context_t *ctx, int variant, int a, enum probe_how *how, double *ms)
{
    char options[64];
    struct usmarr__program_key key = probe_key(ctx, variant, options);
    double t0 = now_ms();
    cl_program program = NULL;
    unsigned char *binary = NULL;
    size_t size = 0;
    int rc;
    if (usmarr__diskcache_load(&key, &binary, &size) == 0) {
        cl_int err = probe_from_binary(ctx, variant, binary, size, &program);
        free(binary);
        binary = NULL;
        if (err != CL_SUCCESS)
            usmarr__diskcache_discard(&key);
    }
    if (program) {
        *how = PROBE_LOADED;
        rc = probe_run(ctx, program, variant, a);
    } else {
        *how = PROBE_COMPILED;
        rc = probe_compile(ctx, variant, &program);
        if (!rc)
            rc = probe_run(ctx, program, variant, a);
        if (ms)
            *ms = now_ms() - t0; /* the store is not part of the path to a runnable kernel */
        if (!rc && probe_binary(ctx, program, &binary, &size) == CL_SUCCESS)
            usmarr__diskcache_store(&key, binary, size);
    }
    if (ms && *how == PROBE_LOADED)
        *ms = now_ms() - t0;
    free(binary);
    if (program)
        clReleaseProgram(program);
    return rc;
}
