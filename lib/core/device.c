/* Device enumeration, USM capability queries and filter selectors. */
#include "core_internal.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PLATFORMS 32
#define MAX_DEVICES 64

static void device_string(cl_device_id device, cl_device_info what, char *out, size_t size)
{
    out[0] = '\0';
    if (clGetDeviceInfo(device, what, size, out, NULL) != CL_SUCCESS)
        out[0] = '\0';
    out[size - 1] = '\0';
}

static uint64_t device_u64(cl_device_id device, cl_device_info what)
{
    cl_ulong v = 0;
    if (clGetDeviceInfo(device, what, sizeof v, &v, NULL) != CL_SUCCESS)
        return 0;
    return v;
}

static uint64_t device_bitfield(cl_device_id device, cl_device_info what)
{
    cl_bitfield v = 0;
    if (clGetDeviceInfo(device, what, sizeof v, &v, NULL) != CL_SUCCESS)
        return 0;
    return v;
}

static bool has_extension(const char *extensions, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = extensions; (p = strstr(p, name)) != NULL; p += n)
        if ((p == extensions || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
            return true;
    return false;
}

/* USMARR_USM_KINDS=device[,shared][,host]: the library treats a device as offering only
 * the kinds listed (the capabilities of the others read 0), so that what a device with
 * device USM alone does is testable on any device.  An unknown kind makes the device
 * unusable with a reason that says so. */
static void apply_usm_kinds(usmarr_device_info_t *info)
{
    const char *env = getenv("USMARR_USM_KINDS");
    if (!env || !*env)
        return;
    bool host = false, shared = false;
    for (const char *p = env; *p;) {
        size_t n = strcspn(p, ",");
        if (n == 4 && !strncmp(p, "host", 4)) {
            host = true;
        } else if (n == 6 && !strncmp(p, "shared", 6)) {
            shared = true;
        } else if (!(n == 6 && !strncmp(p, "device", 6))) {
            info->usable = false;
            snprintf(info->reason, sizeof info->reason,
                     "USMARR_USM_KINDS=\"%.60s\": \"%.*s\" is not device, shared or host", env, (int)(n < 20 ? n : 20),
                     p);
            return;
        }
        p += n + (p[n] == ',');
    }
    if (!host && info->host_mem_caps) {
        info->host_mem_caps = 0;
        info->kinds_limited = true;
    }
    if (!shared && (info->single_device_shared_caps || info->cross_device_shared_caps || info->shared_system_caps)) {
        info->single_device_shared_caps = info->cross_device_shared_caps = info->shared_system_caps = 0;
        info->kinds_limited = true;
    }
}

int usmarr__device_describe(cl_platform_id platform, unsigned platform_index, cl_device_id device,
                             unsigned device_index, usmarr_device_info_t *info)
{
    memset(info, 0, sizeof *info);
    info->platform_index = platform_index;
    info->device_index = device_index;
    clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof info->platform_name, info->platform_name, NULL);
    clGetPlatformInfo(platform, CL_PLATFORM_VERSION, sizeof info->platform_version, info->platform_version, NULL);
    info->platform_name[sizeof info->platform_name - 1] = '\0';
    info->platform_version[sizeof info->platform_version - 1] = '\0';
    device_string(device, CL_DEVICE_NAME, info->device_name, sizeof info->device_name);
    device_string(device, CL_DEVICE_VENDOR, info->device_vendor, sizeof info->device_vendor);
    device_string(device, CL_DEVICE_VERSION, info->device_version, sizeof info->device_version);
    device_string(device, CL_DRIVER_VERSION, info->driver_version, sizeof info->driver_version);
    clGetDeviceInfo(device, CL_DEVICE_TYPE, sizeof info->type, &info->type, NULL);
    info->max_alloc_size = device_u64(device, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
    info->global_mem_size = device_u64(device, CL_DEVICE_GLOBAL_MEM_SIZE);

    size_t ext_size = 0;
    char *ext = NULL;
    if (clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, 0, NULL, &ext_size) == CL_SUCCESS) {
        if (!(ext = calloc(ext_size + 1, 1)))
            return usmarr__fail(USMARR_ERROR_OUT_OF_HOST_MEMORY, "the extension list of device \"%s\"",
                                info->device_name);
        clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, ext_size, ext, NULL);
    }
    cl_device_fp_config fp64 = 0;
    clGetDeviceInfo(device, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof fp64, &fp64, NULL);
    info->fp64 = fp64 != 0 || (ext && has_extension(ext, "cl_khr_fp64"));
    info->fp16 = ext && has_extension(ext, "cl_khr_fp16");
    bool usm = ext && has_extension(ext, "cl_intel_unified_shared_memory");
    free(ext);

    /* The backend: the USM extension where the device has it, else OpenCL 2.0 SVM where
     * the device has coarse-grained buffer SVM; USMARR_USM_BACKEND=usm|svm insists. */
    info->svm_caps = device_bitfield(device, CL_DEVICE_SVM_CAPABILITIES);
    bool svm = info->svm_caps & CL_DEVICE_SVM_COARSE_GRAIN_BUFFER;
    const char *want = getenv("USMARR_USM_BACKEND");
    if (want && *want && strcmp(want, "usm") && strcmp(want, "svm")) {
        snprintf(info->reason, sizeof info->reason, "USMARR_USM_BACKEND=\"%.60s\" is not usm or svm", want);
        return 0;
    }
    if ((want && !strcmp(want, "svm")) || (!usm && svm && !(want && !strcmp(want, "usm")))) {
        if (!svm) {
            snprintf(info->reason, sizeof info->reason,
                     "USMARR_USM_BACKEND=svm: no coarse-grained buffer SVM (CL_DEVICE_SVM_CAPABILITIES 0x%llx)",
                     (unsigned long long)info->svm_caps);
            return 0;
        }
        info->backend = USMARR_BACKEND_SVM;
        info->device_mem_caps = CL_UNIFIED_SHARED_MEMORY_ACCESS_INTEL;
        if (info->svm_caps & CL_DEVICE_SVM_FINE_GRAIN_BUFFER)
            info->single_device_shared_caps = CL_UNIFIED_SHARED_MEMORY_ACCESS_INTEL;
        info->usable = true;
        apply_usm_kinds(info);
        return 0;
    }
    struct usmarr__usm_api api;
    const char *missing = NULL;
    if (!usm) {
        snprintf(info->reason, sizeof info->reason,
                 "no cl_intel_unified_shared_memory extension and no coarse-grained buffer SVM");
        return 0;
    }
    if (!usmarr__usm_api_load(platform, &api, &missing)) {
        snprintf(info->reason, sizeof info->reason, "platform does not export %s", missing);
        return 0;
    }
    info->host_mem_caps = device_bitfield(device, CL_DEVICE_HOST_MEM_CAPABILITIES_INTEL);
    info->device_mem_caps = device_bitfield(device, CL_DEVICE_DEVICE_MEM_CAPABILITIES_INTEL);
    info->single_device_shared_caps = device_bitfield(device, CL_DEVICE_SINGLE_DEVICE_SHARED_MEM_CAPABILITIES_INTEL);
    info->cross_device_shared_caps = device_bitfield(device, CL_DEVICE_CROSS_DEVICE_SHARED_MEM_CAPABILITIES_INTEL);
    info->shared_system_caps = device_bitfield(device, CL_DEVICE_SHARED_SYSTEM_MEM_CAPABILITIES_INTEL);
    if (!(info->device_mem_caps & CL_UNIFIED_SHARED_MEMORY_ACCESS_INTEL)) {
        snprintf(info->reason, sizeof info->reason, "device USM not accessible (capabilities 0x%llx)",
                 (unsigned long long)info->device_mem_caps);
        return 0;
    }
    info->usable = true;
    apply_usm_kinds(info);
    return 0;
}

const char *usmarr_backend_name(usmarr_backend_t backend)
{
    return backend == USMARR_BACKEND_USM ? "usm" : backend == USMARR_BACKEND_SVM ? "svm" : "unknown";
}

static const char *type_name(cl_device_type type)
{
    if (type & CL_DEVICE_TYPE_GPU)
        return "gpu";
    if (type & CL_DEVICE_TYPE_ACCELERATOR)
        return "accelerator";
    if (type & CL_DEVICE_TYPE_CPU)
        return "cpu";
    return "custom";
}

/* A parsed selector: each field is "any" when absent. */
struct selector {
    cl_device_type type; /* 0 = any */
    long number;         /* -1 = any */
};

static int parse_selector(const char *text, struct selector *sel)
{
    sel->type = 0;
    sel->number = -1;
    char buf[128];
    size_t len = strlen(text);
    if (len >= sizeof buf)
        return usmarr__fail(USMARR_ERROR_BAD_SELECTOR, "selector is %zu characters long; the limit is %zu", len,
                            sizeof buf - 1);
    memcpy(buf, text, len + 1);
    int part_index = 0;
    bool seen_backend = false, seen_type = false;
    char *save = NULL;
    /* strtok_r drops empty parts; reject them explicitly first. */
    if (len == 0 || buf[0] == ':' || buf[len - 1] == ':' || strstr(buf, "::"))
        return usmarr__fail(USMARR_ERROR_BAD_SELECTOR, "selector \"%s\": empty part", text);
    for (char *part = strtok_r(buf, ":", &save); part; part = strtok_r(NULL, ":", &save), part_index++) {
        for (char *c = part; *c; c++)
            *c = (char)tolower((unsigned char)*c);
        if (part_index > 2)
            return usmarr__fail(USMARR_ERROR_BAD_SELECTOR, "selector \"%s\": more than three parts at \"%s\"",
                                text, part);
        if (sel->number >= 0)
            return usmarr__fail(USMARR_ERROR_BAD_SELECTOR,
                                "selector \"%s\": part \"%s\" follows the device number", text, part);
        if (isdigit((unsigned char)part[0])) {
            char *end;
            long n = strtol(part, &end, 10);
            if (*end || n > 1000000)
                return usmarr__fail(USMARR_ERROR_BAD_SELECTOR, "selector \"%s\": bad device number \"%s\"", text,
                                    part);
            sel->number = n;
        } else if (!seen_backend && !seen_type && (!strcmp(part, "opencl") || !strcmp(part, "*"))) {
            seen_backend = true;
        } else if (!seen_type && (!strcmp(part, "cpu") || !strcmp(part, "gpu") || !strcmp(part, "accelerator") ||
                                  !strcmp(part, "*"))) {
            seen_type = true;
            sel->type = !strcmp(part, "cpu")   ? CL_DEVICE_TYPE_CPU
                        : !strcmp(part, "gpu") ? CL_DEVICE_TYPE_GPU
                        : part[0] == 'a'       ? CL_DEVICE_TYPE_ACCELERATOR
                                               : 0;
        } else if (!strcmp(part, "level_zero") || !strcmp(part, "cuda") || !strcmp(part, "hip") ||
                   !strcmp(part, "host")) {
            return usmarr__fail(USMARR_ERROR_BAD_SELECTOR,
                                "selector \"%s\": backend or type \"%s\" is not supported (only opencl, cpu, gpu, "
                                "accelerator)",
                                text, part);
        } else {
            return usmarr__fail(USMARR_ERROR_BAD_SELECTOR,
                                "selector \"%s\": unknown or misplaced part \"%s\" (expected "
                                "[opencl][:cpu|gpu|accelerator][:N])",
                                text, part);
        }
    }
    return 0;
}

/* Enumerates all devices into a freshly allocated list; `ids` receives the matching
 * platform and device ids when non-NULL. */
static int enumerate(usmarr_device_info_t **out, cl_platform_id **platforms_out, cl_device_id **ids_out,
                     size_t *count)
{
    cl_platform_id platforms[MAX_PLATFORMS];
    cl_uint np = 0;
    *out = NULL;
    *count = 0;
    cl_int err = clGetPlatformIDs(MAX_PLATFORMS, platforms, &np);
    if (err == CL_PLATFORM_NOT_FOUND_KHR || np == 0)
        return 0;
    if (err != CL_SUCCESS)
        return usmarr__cl_fail(err, "clGetPlatformIDs");
    if (np > MAX_PLATFORMS)
        np = MAX_PLATFORMS;
    usmarr_device_info_t *list = calloc(MAX_PLATFORMS * MAX_DEVICES, sizeof *list);
    cl_platform_id *plist = calloc(MAX_PLATFORMS * MAX_DEVICES, sizeof *plist);
    cl_device_id *dlist = calloc(MAX_PLATFORMS * MAX_DEVICES, sizeof *dlist);
    if (!list || !plist || !dlist) {
        free(list);
        free(plist);
        free(dlist);
        return usmarr__fail(USMARR_ERROR_OUT_OF_HOST_MEMORY, "device list");
    }
    size_t n = 0;
    int rc = 0;
    for (cl_uint p = 0; p < np; p++) {
        cl_device_id devices[MAX_DEVICES];
        cl_uint nd = 0;
        if (clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, MAX_DEVICES, devices, &nd) != CL_SUCCESS)
            continue;
        if (nd > MAX_DEVICES)
            nd = MAX_DEVICES;
        for (cl_uint d = 0; d < nd; d++) {
            if ((rc = usmarr__device_describe(platforms[p], p, devices[d], d, &list[n])) != 0)
                goto done;
            plist[n] = platforms[p];
            dlist[n] = devices[d];
            n++;
        }
    }
    /* Selectors: "opencl:<type>:<k>" where k counts usable devices of that type. */
    unsigned per_type[4] = {0};
    for (size_t i = 0; i < n; i++) {
        const char *t = type_name(list[i].type);
        unsigned slot = t[0] == 'g' ? 0 : t[0] == 'a' ? 1 : t[0] == 'c' && t[1] == 'p' ? 2 : 3;
        if (list[i].usable)
            snprintf(list[i].selector, sizeof list[i].selector, "opencl:%s:%u", t, per_type[slot]++);
    }
    *out = list;
    *count = n;
    if (platforms_out)
        *platforms_out = plist;
    else
        free(plist);
    if (ids_out)
        *ids_out = dlist;
    else
        free(dlist);
    return 0;
done: /* a device could not be described: nothing is returned */
    free(list);
    free(plist);
    free(dlist);
    return rc;
}

/* Index of the device a selector picks in a list, or -1. NULL/"" = default rule. */
static int pick(const usmarr_device_info_t *list, size_t n, const char *selector, size_t *index)
{
    const char *env = getenv("USMARR_DEVICE");
    if ((!selector || !*selector) && env && *env)
        selector = env;
    if (selector && *selector) {
        struct selector sel;
        int rc = parse_selector(selector, &sel);
        if (rc)
            return rc;
        long k = 0;
        for (size_t i = 0; i < n; i++) {
            if (!list[i].usable || (sel.type && !(list[i].type & sel.type)))
                continue;
            if (sel.number < 0 || k == sel.number) {
                *index = i;
                return 0;
            }
            k++;
        }
        return usmarr__fail(USMARR_ERROR_NO_DEVICE, "selector \"%s\" matches none of the %ld usable device(s)%s",
                            selector, k, selector == env ? " (from USMARR_DEVICE)" : "");
    }
    static const cl_device_type preference[] = {CL_DEVICE_TYPE_GPU, CL_DEVICE_TYPE_ACCELERATOR, CL_DEVICE_TYPE_CPU,
                                                CL_DEVICE_TYPE_ALL};
    for (size_t t = 0; t < sizeof preference / sizeof preference[0]; t++)
        for (size_t i = 0; i < n; i++)
            if (list[i].usable && (list[i].type & preference[t])) {
                *index = i;
                return 0;
            }
    return usmarr__fail(USMARR_ERROR_NO_DEVICE, "none of the %zu OpenCL device(s) exposes "
                                                "cl_intel_unified_shared_memory (see `usmarr devices`)",
                        n);
}

int usmarr_devices_list(usmarr_device_info_t **devices, size_t *count)
{
    usmarr__clear_error();
    if (!devices || !count)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s is NULL", devices ? "count" : "devices");
    int rc = enumerate(devices, NULL, NULL, count);
    if (rc)
        return rc;
    size_t def;
    if (pick(*devices, *count, NULL, &def) == 0)
        (*devices)[def].is_default = true;
    usmarr__clear_error();
    return 0;
}

void usmarr_devices_free(usmarr_device_info_t *devices) { free(devices); }

/* Resolves a selector to platform + device; used by usmarr_context_create. */
USMARR_INTERNAL int usmarr__device_select(const char *selector, cl_platform_id *platform, cl_device_id *device);
int usmarr__device_select(const char *selector, cl_platform_id *platform, cl_device_id *device)
{
    usmarr_device_info_t *list;
    cl_platform_id *plist = NULL;
    cl_device_id *dlist = NULL;
    size_t n, index;
    if (selector && *selector) {
        struct selector sel;
        int rc = parse_selector(selector, &sel); /* report syntax before enumeration */
        if (rc)
            return rc;
    }
    int rc = enumerate(&list, &plist, &dlist, &n);
    if (rc)
        return rc;
    rc = pick(list, n, selector, &index);
    if (rc == 0) {
        *platform = plist[index];
        *device = dlist[index];
    }
    free(list);
    free(plist);
    free(dlist);
    return rc;
}

int usmarr__device_selector(cl_device_id device, char *out, size_t size, int *ordinal)
{
    usmarr_device_info_t *list;
    cl_device_id *ids = NULL;
    size_t n;
    int rc = enumerate(&list, NULL, &ids, &n);
    if (rc)
        return rc;
    rc = USMARR_ERROR_NO_DEVICE;
    int usable = 0; /* the number the selector "N" gives this device */
    for (size_t i = 0; i < n && rc; i++) {
        if (ids[i] == device && list[i].usable) {
            snprintf(out, size, "%s", list[i].selector);
            if (ordinal)
                *ordinal = usable;
            rc = 0;
        }
        usable += list[i].usable;
    }
    free(list);
    free(ids);
    return rc;
}
