/* A host-memory stand-in for a device context (fuzz/fuzz.h).  The argument checks of
 * usmarr_array_create() and the interface import run against it at fuzzing speed, with
 * every allocation bounded and no driver in the process; the test suites cover the same
 * paths on real devices. */
#include "fuzz.h"

#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct allocation {
    cl_context cl;
    char *base;
    size_t size;
    cl_unified_shared_memory_type_intel type;
};

static struct allocation *live;
static size_t nlive, live_capacity;

/* The one fake cl_context handle: never dereferenced, only compared. */
static char other_cl_tag;

char *fuzz_string(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    if (!s)
        abort();
    memcpy(s, data, size);
    s[size] = '\0';
    return s;
}

static char empty_vendors[] = "/tmp/usmarr-fuzz-vendors-XXXXXX";

static void remove_empty_vendors(void) { rmdir(empty_vendors); }

void fuzz_no_opencl_devices(void)
{
    if (!mkdtemp(empty_vendors)) {
        perror("fuzz: mkdtemp");
        abort();
    }
    atexit(remove_empty_vendors);
    setenv("OCL_ICD_VENDORS", empty_vendors, 1);
    unsetenv("USMARR_DEVICE");
}

static struct allocation *find(cl_context cl, const void *pointer)
{
    for (size_t i = 0; i < nlive; i++)
        if (live[i].cl == cl && (const char *)pointer >= live[i].base &&
            (const char *)pointer < live[i].base + live[i].size)
            return &live[i];
    return NULL;
}

static void *allocate(cl_context cl, cl_unified_shared_memory_type_intel type, size_t size, cl_uint alignment,
                      cl_int *err)
{
    /* Like a driver: a power-of-two alignment or 0, and a failure above the limit. */
    if (size == 0 || (alignment & (alignment - 1))) {
        *err = CL_INVALID_VALUE;
        return NULL;
    }
    if (size > FUZZ_HOST_ALLOC_LIMIT) {
        *err = CL_OUT_OF_RESOURCES;
        return NULL;
    }
    size_t align = alignment > 4096 ? 4096 : alignment < 64 ? 64 : alignment;
    void *p = NULL;
    if (posix_memalign(&p, align, size) != 0) {
        *err = CL_OUT_OF_HOST_MEMORY;
        return NULL;
    }
    if (nlive == live_capacity) {
        live_capacity = live_capacity ? 2 * live_capacity : 16;
        live = realloc(live, live_capacity * sizeof *live);
        if (!live)
            abort();
    }
    live[nlive++] = (struct allocation){cl, p, size, type};
    *err = CL_SUCCESS;
    return p;
}

static void *CL_API_CALL host_alloc(cl_context cl, const cl_mem_properties_intel *properties, size_t size,
                                    cl_uint alignment, cl_int *err)
{
    (void)properties;
    return allocate(cl, CL_MEM_TYPE_HOST_INTEL, size, alignment, err);
}

static void *CL_API_CALL device_alloc(cl_context cl, cl_device_id device, const cl_mem_properties_intel *properties,
                                      size_t size, cl_uint alignment, cl_int *err)
{
    (void)device;
    (void)properties;
    return allocate(cl, CL_MEM_TYPE_DEVICE_INTEL, size, alignment, err);
}

static void *CL_API_CALL shared_alloc(cl_context cl, cl_device_id device, const cl_mem_properties_intel *properties,
                                      size_t size, cl_uint alignment, cl_int *err)
{
    (void)device;
    (void)properties;
    return allocate(cl, CL_MEM_TYPE_SHARED_INTEL, size, alignment, err);
}

static cl_int CL_API_CALL release(cl_context cl, void *pointer)
{
    if (!pointer)
        return CL_SUCCESS;
    for (size_t i = 0; i < nlive; i++)
        if (live[i].cl == cl && live[i].base == pointer) {
            free(pointer);
            live[i] = live[--nlive];
            return CL_SUCCESS;
        }
    FUZZ_CHECK(false, "the library freed %p, which is not a live allocation of its context", pointer);
    return CL_INVALID_VALUE;
}

static cl_int CL_API_CALL alloc_info(cl_context cl, const void *pointer, cl_mem_info_intel name, size_t size,
                                     void *value, size_t *size_ret)
{
    const struct allocation *a = find(cl, pointer);
    size_t need = name == CL_MEM_ALLOC_TYPE_INTEL       ? sizeof(cl_unified_shared_memory_type_intel)
                  : name == CL_MEM_ALLOC_BASE_PTR_INTEL ? sizeof(void *)
                  : name == CL_MEM_ALLOC_SIZE_INTEL     ? sizeof(size_t)
                                                        : 0;
    if (need == 0 || (value && size < need))
        return CL_INVALID_VALUE;
    if (size_ret)
        *size_ret = need;
    if (!value)
        return CL_SUCCESS;
    if (name == CL_MEM_ALLOC_TYPE_INTEL) {
        cl_unified_shared_memory_type_intel type = a ? a->type : CL_MEM_TYPE_UNKNOWN_INTEL;
        memcpy(value, &type, sizeof type);
    } else if (name == CL_MEM_ALLOC_BASE_PTR_INTEL) {
        void *base = a ? a->base : NULL;
        memcpy(value, &base, sizeof base);
    } else {
        size_t bytes = a ? a->size : 0;
        memcpy(value, &bytes, sizeof bytes);
    }
    return CL_SUCCESS;
}

static cl_int CL_API_CALL set_arg_pointer(cl_kernel kernel, cl_uint index, const void *pointer)
{
    (void)kernel;
    (void)index;
    (void)pointer;
    FUZZ_CHECK(false, "a fuzzed path launched a kernel on the host stand-in");
    return CL_INVALID_KERNEL;
}

/* memcpy, not memmove: a driver's USM copy of overlapping ranges is undefined, and
 * AddressSanitizer reports an overlap here. */
static cl_int CL_API_CALL copy(cl_command_queue queue, cl_bool blocking, void *dst, const void *src, size_t size,
                               cl_uint nwait, const cl_event *wait, cl_event *event)
{
    (void)queue;
    (void)blocking;
    (void)nwait;
    (void)wait;
    if (event)
        *event = NULL;
    memcpy(dst, src, size);
    return CL_SUCCESS;
}

static cl_int CL_API_CALL fill(cl_command_queue queue, void *dst, const void *pattern, size_t pattern_size,
                               size_t size, cl_uint nwait, const cl_event *wait, cl_event *event)
{
    (void)queue;
    (void)nwait;
    (void)wait;
    if (event)
        *event = NULL;
    for (size_t at = 0; at + pattern_size <= size; at += pattern_size)
        memcpy((char *)dst + at, pattern, pattern_size);
    return CL_SUCCESS;
}

static cl_int CL_API_CALL migrate(cl_command_queue queue, const void *pointer, size_t size,
                                  cl_mem_migration_flags flags, cl_uint nwait, const cl_event *wait, cl_event *event)
{
    (void)queue;
    (void)pointer;
    (void)size;
    (void)flags;
    (void)nwait;
    (void)wait;
    if (event)
        *event = NULL;
    return CL_SUCCESS;
}

static usmarr_context_t *make_context(cl_context cl, bool fp64)
{
    /* Zero-filled, so that fields this file does not know about start empty (a zeroed
     * mtx_t is an unlocked mutex in glibc). */
    usmarr_context_t *ctx = calloc(1, sizeof *ctx);
    if (!ctx || mtx_init(&ctx->queue_lock, mtx_plain) != thrd_success ||
        mtx_init(&ctx->kernels_lock, mtx_plain) != thrd_success)
        abort();
    atomic_init(&ctx->refcount, 1);
    ctx->cl = cl;
    ctx->usm = (struct usmarr__usm_api){
        .host_alloc = host_alloc,
        .device_alloc = device_alloc,
        .shared_alloc = shared_alloc,
        .free = release,
        .blocking_free = release,
        .alloc_info = alloc_info,
        .set_kernel_arg_pointer = set_arg_pointer,
        .memcpy = copy,
        .memfill = fill,
        .migrate = migrate,
    };
    usmarr_device_info_t *info = &ctx->info;
    snprintf(info->selector, sizeof info->selector, "opencl:cpu:%d", fp64 ? 0 : 1);
    snprintf(info->platform_name, sizeof info->platform_name, "usmarr fuzz");
    snprintf(info->device_name, sizeof info->device_name, "host stand-in%s", fp64 ? "" : " without fp64");
    info->type = CL_DEVICE_TYPE_CPU;
    info->usable = true;
    info->fp64 = fp64;
    /* Every USM kind offered (the memory layer refuses kinds whose capability reads 0). */
    info->host_mem_caps = info->device_mem_caps = info->single_device_shared_caps = CL_UNIFIED_SHARED_MEMORY_ACCESS_INTEL;
    info->max_alloc_size = FUZZ_HOST_MAX_ALLOC;
    info->global_mem_size = 4 * (uint64_t)FUZZ_HOST_MAX_ALLOC;
    return ctx;
}

usmarr_context_t *fuzz_host_context(int index)
{
    static usmarr_context_t *contexts[2];
    if (!contexts[index])
        contexts[index] = make_context(index ? (cl_context)(void *)&other_cl_tag : NULL, index == 0);
    return contexts[index];
}

size_t fuzz_host_live_allocations(void) { return nlive; }
