/* Error codes, their names and texts, and the per-thread failure detail. */
#include "base_internal.h"

#include <stdarg.h>
#include <string.h>

static _Thread_local char last_detail[1024];

#define OPENCL_ERROR_LIST(X)                                                                  \
    X(CL_DEVICE_NOT_FOUND, "no device of the requested type")                                  \
    X(CL_DEVICE_NOT_AVAILABLE, "device not available")                                         \
    X(CL_COMPILER_NOT_AVAILABLE, "compiler not available")                                     \
    X(CL_MEM_OBJECT_ALLOCATION_FAILURE, "memory object allocation failure")                    \
    X(CL_OUT_OF_RESOURCES, "out of device resources")                                          \
    X(CL_OUT_OF_HOST_MEMORY, "OpenCL out of host memory")                                      \
    X(CL_PROFILING_INFO_NOT_AVAILABLE, "profiling info not available")                         \
    X(CL_MEM_COPY_OVERLAP, "overlapping copy")                                                 \
    X(CL_IMAGE_FORMAT_MISMATCH, "image format mismatch")                                       \
    X(CL_IMAGE_FORMAT_NOT_SUPPORTED, "image format not supported")                             \
    X(CL_BUILD_PROGRAM_FAILURE, "program build failure")                                       \
    X(CL_MAP_FAILURE, "map failure")                                                           \
    X(CL_MISALIGNED_SUB_BUFFER_OFFSET, "misaligned sub-buffer offset")                         \
    X(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, "a waited-for event failed")               \
    X(CL_COMPILE_PROGRAM_FAILURE, "compile program failure")                                   \
    X(CL_LINKER_NOT_AVAILABLE, "linker not available")                                         \
    X(CL_LINK_PROGRAM_FAILURE, "link program failure")                                         \
    X(CL_DEVICE_PARTITION_FAILED, "device partition failed")                                   \
    X(CL_KERNEL_ARG_INFO_NOT_AVAILABLE, "kernel argument info not available")                  \
    X(CL_INVALID_VALUE, "invalid value")                                                       \
    X(CL_INVALID_DEVICE_TYPE, "invalid device type")                                           \
    X(CL_INVALID_PLATFORM, "invalid platform")                                                 \
    X(CL_INVALID_DEVICE, "invalid device")                                                     \
    X(CL_INVALID_CONTEXT, "invalid context")                                                   \
    X(CL_INVALID_QUEUE_PROPERTIES, "invalid queue properties")                                 \
    X(CL_INVALID_COMMAND_QUEUE, "invalid command queue")                                       \
    X(CL_INVALID_HOST_PTR, "invalid host pointer")                                             \
    X(CL_INVALID_MEM_OBJECT, "invalid memory object")                                          \
    X(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, "invalid image format descriptor")                   \
    X(CL_INVALID_IMAGE_SIZE, "invalid image size")                                             \
    X(CL_INVALID_SAMPLER, "invalid sampler")                                                   \
    X(CL_INVALID_BINARY, "invalid program binary")                                             \
    X(CL_INVALID_BUILD_OPTIONS, "invalid build options")                                       \
    X(CL_INVALID_PROGRAM, "invalid program")                                                   \
    X(CL_INVALID_PROGRAM_EXECUTABLE, "invalid program executable")                             \
    X(CL_INVALID_KERNEL_NAME, "invalid kernel name")                                           \
    X(CL_INVALID_KERNEL_DEFINITION, "invalid kernel definition")                               \
    X(CL_INVALID_KERNEL, "invalid kernel")                                                     \
    X(CL_INVALID_ARG_INDEX, "invalid kernel argument index")                                   \
    X(CL_INVALID_ARG_VALUE, "invalid kernel argument value")                                   \
    X(CL_INVALID_ARG_SIZE, "invalid kernel argument size")                                     \
    X(CL_INVALID_KERNEL_ARGS, "kernel arguments not set")                                      \
    X(CL_INVALID_WORK_DIMENSION, "invalid work dimension")                                     \
    X(CL_INVALID_WORK_GROUP_SIZE, "invalid work-group size")                                   \
    X(CL_INVALID_WORK_ITEM_SIZE, "invalid work-item size")                                     \
    X(CL_INVALID_GLOBAL_OFFSET, "invalid global offset")                                       \
    X(CL_INVALID_EVENT_WAIT_LIST, "invalid event wait list")                                   \
    X(CL_INVALID_EVENT, "invalid event")                                                       \
    X(CL_INVALID_OPERATION, "invalid operation")                                               \
    X(CL_INVALID_GL_OBJECT, "invalid GL object")                                               \
    X(CL_INVALID_BUFFER_SIZE, "invalid buffer size")                                           \
    X(CL_INVALID_MIP_LEVEL, "invalid mip level")                                               \
    X(CL_INVALID_GLOBAL_WORK_SIZE, "invalid global work size")                                 \
    X(CL_INVALID_PROPERTY, "invalid property")                                                 \
    X(CL_INVALID_IMAGE_DESCRIPTOR, "invalid image descriptor")                                 \
    X(CL_INVALID_COMPILER_OPTIONS, "invalid compiler options")                                 \
    X(CL_INVALID_LINKER_OPTIONS, "invalid linker options")                                     \
    X(CL_INVALID_DEVICE_PARTITION_COUNT, "invalid device partition count")                     \
    X(CL_INVALID_PIPE_SIZE, "invalid pipe size")                                               \
    X(CL_INVALID_DEVICE_QUEUE, "invalid device queue")                                         \
    X(CL_INVALID_SPEC_ID, "invalid specialization id")                                         \
    X(CL_MAX_SIZE_RESTRICTION_EXCEEDED, "size restriction exceeded")

const char *usmarr_strerror(int code)
{
    switch (code) {
#define LIB_TEXT_(name, value, text) \
    case name:                        \
        return text;
        USMARR_ERROR_LIST(LIB_TEXT_)
#undef LIB_TEXT_
#define CL_TEXT_(name, text) \
    case name:               \
        return text;
        OPENCL_ERROR_LIST(CL_TEXT_)
#undef CL_TEXT_
    default:
        return "unknown error code";
    }
}

const char *usmarr_error_name(int code)
{
    switch (code) {
#define LIB_NAME_(name, value, text) \
    case name:                        \
        return #name;
        USMARR_ERROR_LIST(LIB_NAME_)
#undef LIB_NAME_
#define CL_NAME_(name, text) \
    case name:               \
        return #name;
        OPENCL_ERROR_LIST(CL_NAME_)
#undef CL_NAME_
    default:
        return "UNKNOWN";
    }
}

const char *usmarr_last_error_detail(void) { return last_detail; }

void usmarr__clear_error(void) { last_detail[0] = '\0'; }

int usmarr_error_set(int code, const char *format, ...)
{
    if (!format) {
        last_detail[0] = '\0';
        return code;
    }
    va_list ap;
    va_start(ap, format);
    vsnprintf(last_detail, sizeof last_detail, format, ap);
    va_end(ap);
    return code;
}

int usmarr__fail(int code, const char *format, ...)
{
    va_list ap;
    va_start(ap, format);
    vsnprintf(last_detail, sizeof last_detail, format, ap);
    va_end(ap);
    return code;
}

int usmarr__cl_fail(cl_int err, const char *what)
{
    return usmarr__fail(err, "%s: %s (%d)", what, usmarr_error_name(err), (int)err);
}
