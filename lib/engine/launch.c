/* Kernel launches: arguments (each kernel remembers what it was last given, so a repeated
 * launch sets only what changed), the work-group check and the enqueue, after whose first
 * launch a program waiting for it is stored (program.c).  Contract: engine_internal.h. */
#include "engine_internal.h"
#include "program_cache.h"

#include <string.h>

cl_kernel usmarr__kernel_cl(const usmarr__kernel_t *k) { return k->kernel; }

void usmarr__queue_lock(usmarr_context_t *ctx) { mtx_lock(&ctx->queue_lock); }
void usmarr__queue_unlock(usmarr_context_t *ctx) { mtx_unlock(&ctx->queue_lock); }

/* True when argument `index` already holds these bytes (size 0: the pointer `value`, set
 * after the context's last free, `frees`). */
static bool arg_is(const usmarr__kernel_t *k, cl_uint index, size_t size, const void *value, unsigned frees)
{
    if (index >= KERNEL_ARG_SLOTS || size > KERNEL_ARG_BYTES || !k->args[index].known || k->args[index].size != size)
        return false;
    if (!size)
        return k->args[index].frees == frees && !memcmp(k->args[index].bytes, &value, sizeof value);
    return !memcmp(k->args[index].bytes, value, size);
}

static void arg_set(usmarr__kernel_t *k, cl_uint index, size_t size, const void *value, unsigned frees, bool ok)
{
    if (index >= KERNEL_ARG_SLOTS)
        return;
    struct kernel_arg_slot *slot = &k->args[index];
    slot->known = ok && size <= KERNEL_ARG_BYTES;
    if (!slot->known)
        return;
    slot->size = (unsigned char)size;
    slot->frees = frees;
    if (size)
        memcpy(slot->bytes, value, size);
    else
        memcpy(slot->bytes, &value, sizeof value);
}

/* clSetKernelArg with an error detail naming the kernel and the index; a NULL `value`
 * is `size` bytes of local memory. */
static int set_arg(usmarr__kernel_t *k, cl_uint index, size_t size, const void *value)
{
    if (value && size && arg_is(k, index, size, value, 0))
        return 0;
    cl_int err = clSetKernelArg(k->kernel, index, size, value);
    arg_set(k, index, size, value, 0, err == CL_SUCCESS && value && size);
    if (err != CL_SUCCESS)
        return usmarr__fail(err, "clSetKernelArg(%s, %u, %zu bytes): %s", k->name, index, size,
                            usmarr_error_name(err));
    return 0;
}

/* clSetKernelArgMemPointerINTEL (or its SVM twin); `pointer` may point anywhere inside a
 * USM allocation of the context, or be NULL. */
static int set_arg_pointer(usmarr_context_t *ctx, usmarr__kernel_t *k, cl_uint index, const void *pointer)
{
    if (!pointer) {
        int rc = usmarr__standin_pointer(ctx, &pointer);
        if (rc)
            return rc;
    }
    unsigned frees = atomic_load(&ctx->usm_frees); /* the caller holds the queue lock: no free now */
    if (arg_is(k, index, 0, pointer, frees))
        return 0;
    cl_int err = ctx->usm.set_kernel_arg_pointer(k->kernel, index, pointer);
    arg_set(k, index, 0, pointer, frees, err == CL_SUCCESS);
    if (err != CL_SUCCESS)
        return usmarr__fail(err, "clSetKernelArgMemPointerINTEL(%s, %u, %p): %s", k->name, index, pointer,
                            usmarr_error_name(err));
    return 0;
}

/* A work-group beyond the device's limits: NVIDIA's OpenCL reports one over
 * CL_DEVICE_MAX_WORK_ITEM_SIZES as CL_INVALID_KERNEL_ARGS, PoCL's CPU device takes 4096
 * a dimension; checked here against the profile (which the gpu shape forced on a CPU
 * gives NVIDIA's limits), with a detail that names the limit. */
static int check_group(const usmarr_context_t *ctx, const usmarr__kernel_t *k, cl_uint work_dim, const size_t *local)
{
    size_t items = 1;
    for (cl_uint d = 0; local && d < work_dim && d < 3; d++) {
        if (local[d] > ctx->profile.max_items[d])
            return usmarr__fail(CL_INVALID_WORK_ITEM_SIZE,
                                "%s: local[%u]=%zu exceeds the device's CL_DEVICE_MAX_WORK_ITEM_SIZES[%u]=%zu", k->name,
                                d, local[d], d, ctx->profile.max_items[d]);
        items *= local[d];
    }
    if (items > ctx->profile.max_group)
        return usmarr__fail(CL_INVALID_WORK_GROUP_SIZE,
                            "%s: a work-group of %zu items exceeds the device's CL_DEVICE_MAX_WORK_GROUP_SIZE=%zu",
                            k->name, items, ctx->profile.max_group);
    return 0;
}

/* clEnqueueNDRangeKernel on the context's queue (the caller holds the queue lock).  The
 * first launch of a program whose store waited for it (store_pending) takes an event, by
 * which the program's binary is stored once that launch has run. */
static int enqueue(usmarr_context_t *ctx, usmarr__kernel_t *k, cl_uint work_dim, const size_t *global,
                   const size_t *local)
{
    int rc = check_group(ctx, k, work_dim, local);
    if (rc)
        return rc;
    bool first = atomic_load_explicit(&k->program->store_pending, memory_order_relaxed) &&
                 atomic_exchange(&k->program->store_pending, false);
    cl_event launch = NULL;
    cl_int err = clEnqueueNDRangeKernel(usmarr__queue_of(ctx), k->kernel, work_dim, NULL, global, local, 0, NULL,
                                        first ? &launch : NULL);
    if (first)
        usmarr__program_launched(ctx, k->program, err == CL_SUCCESS ? launch : NULL);
    else
        usmarr__program_stores_poll(ctx);
    if (err != CL_SUCCESS) {
        size_t g[3] = {0, 0, 0}, l[3] = {0, 0, 0};
        for (cl_uint d = 0; d < work_dim && d < 3; d++) {
            g[d] = global[d];
            l[d] = local ? local[d] : 0;
        }
        return usmarr__fail(err, "clEnqueueNDRangeKernel(%s, global %zux%zux%zu, local %zux%zux%zu): %s", k->name,
                            g[0], g[1], g[2], l[0], l[1], l[2], usmarr_error_name(err));
    }
    /* k came from the cache under kernels_lock, so the cache is there; launches run under
     * the queue lock, not kernels_lock, hence the atomic counter. */
    atomic_fetch_add_explicit(&ctx->kernels->launches, 1, memory_order_relaxed);
    return 0;
}

/* A USM address by value (USMARR__ARG_ADDRESS): the kernel is let reach host, device and
 * shared USM indirectly (once per kernel), and the context remembers that a launch did. */
static int set_arg_address(usmarr_context_t *ctx, usmarr__kernel_t *k, cl_uint index, const void *pointer)
{
    if (!k->indirect) {
        static const cl_kernel_exec_info flags[] = {CL_KERNEL_EXEC_INFO_INDIRECT_HOST_ACCESS_INTEL,
                                                    CL_KERNEL_EXEC_INFO_INDIRECT_DEVICE_ACCESS_INTEL,
                                                    CL_KERNEL_EXEC_INFO_INDIRECT_SHARED_ACCESS_INTEL};
        cl_bool yes = CL_TRUE;
        for (size_t f = 0; f < sizeof flags / sizeof flags[0]; f++) {
            cl_int err = clSetKernelExecInfo(k->kernel, flags[f], sizeof yes, &yes);
            if (err != CL_SUCCESS)
                return usmarr__fail(err, "clSetKernelExecInfo(%s, indirect USM access 0x%x): %s", k->name,
                                    (unsigned)flags[f], usmarr_error_name(err));
        }
        k->indirect = true;
    }
    ctx->indirect_launched = true;
    cl_ulong address = (cl_ulong)(uintptr_t)pointer;
    return set_arg(k, index, sizeof address, &address);
}

int usmarr__kernel_launch_locked(usmarr_context_t *ctx, usmarr__kernel_t *k, int nargs,
                                 const struct usmarr__karg *args, cl_uint work_dim, const size_t *global,
                                 const size_t *local)
{
    int rc = 0;
    for (int i = 0; !rc && i < nargs; i++)
        rc = args[i].size == USMARR__KARG_ADDRESS ? set_arg_address(ctx, k, (cl_uint)i, args[i].value)
             : args[i].size                       ? set_arg(k, (cl_uint)i, args[i].size, args[i].value)
                                                  : set_arg_pointer(ctx, k, (cl_uint)i, args[i].value);
    return rc ? rc : enqueue(ctx, k, work_dim, global, local);
}

int usmarr__kernel_launch(usmarr_context_t *ctx, usmarr__kernel_t *k, int nargs, const struct usmarr__karg *args,
                          cl_uint work_dim, const size_t *global, const size_t *local)
{
    usmarr__queue_lock(ctx);
    int rc = usmarr__kernel_launch_locked(ctx, k, nargs, args, work_dim, global, local);
    usmarr__queue_unlock(ctx);
    return rc;
}
