/* Prints one line per OpenCL device that exposes cl_intel_unified_shared_memory and
 * can allocate and free shared USM; exits 0 when at least one does.  Used by
 * install-deps.sh to decide whether an ICD is usable; not part of the library. */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <stdio.h>
#include <string.h>

typedef void *(CL_API_CALL *shared_alloc_fn)(cl_context, cl_device_id, const cl_mem_properties_intel *,
                                             size_t, cl_uint, cl_int *);
typedef cl_int(CL_API_CALL *blocking_free_fn)(cl_context, void *);

int main(void)
{
    cl_platform_id platforms[16];
    cl_uint np = 0;
    int found = 0;
    if (clGetPlatformIDs(16, platforms, &np) != CL_SUCCESS || np == 0) {
        fprintf(stderr, "usm-probe: no OpenCL platform\n");
        return 1;
    }
    for (cl_uint p = 0; p < np && p < 16; p++) {
        char pname[256] = "";
        clGetPlatformInfo(platforms[p], CL_PLATFORM_NAME, sizeof pname, pname, NULL);
        shared_alloc_fn salloc = (shared_alloc_fn)clGetExtensionFunctionAddressForPlatform(
            platforms[p], "clSharedMemAllocINTEL");
        blocking_free_fn bfree = (blocking_free_fn)clGetExtensionFunctionAddressForPlatform(
            platforms[p], "clMemBlockingFreeINTEL");
        cl_device_id devices[16];
        cl_uint nd = 0;
        if (clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, 16, devices, &nd) != CL_SUCCESS)
            continue;
        for (cl_uint d = 0; d < nd && d < 16; d++) {
            char dname[256] = "", ext[16384] = "";
            clGetDeviceInfo(devices[d], CL_DEVICE_NAME, sizeof dname, dname, NULL);
            clGetDeviceInfo(devices[d], CL_DEVICE_EXTENSIONS, sizeof ext, ext, NULL);
            if (!strstr(ext, "cl_intel_unified_shared_memory") || !salloc || !bfree) {
                fprintf(stderr, "usm-probe: %s / %s: no USM\n", pname, dname);
                continue;
            }
            cl_int err;
            cl_context ctx = clCreateContext(NULL, 1, &devices[d], NULL, NULL, &err);
            if (err != CL_SUCCESS)
                continue;
            int *ptr = salloc(ctx, devices[d], NULL, 64, 0, &err);
            if (ptr && err == CL_SUCCESS) {
                ptr[0] = 42;
                if (ptr[0] == 42) {
                    printf("%s / %s\n", pname, dname);
                    found = 1;
                }
                bfree(ctx, ptr);
            }
            clReleaseContext(ctx);
        }
    }
    return found ? 0 : 1;
}
