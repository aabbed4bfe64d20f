/* Benchmarks of storages, each against a reference measured in the same
 * run and interleaved with it round by round, so that drift hits both alike:
 *   storage-sync        a managed 256^3 float64 pair, host_to_device then device_to_host,
 *                       vs two clEnqueueMemcpyINTEL of the same bytes between the same buffers
 *   storage-named-add   IJ (2048^2, float32) + K (64) -> IJK vs the same add on plain
 *                       arrays broadcast by hand (both write a preallocated result)
 *   storage-zeros-halo  zeros of a 64-byte aligned 256^3 float64 storage with halo 3 vs
 *                       usmarr_array_zeros of the padded shape
 *   storage-clean-op    an add on clean managed pairs (out a managed pair) vs the same add
 *                       on their device arrays: the storage layer's overhead */
#include "bench.h"

#include <CL/cl_ext.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef cl_int(CL_API_CALL *memcpy_fn)(cl_command_queue, cl_bool, void *, const void *, size_t, cl_uint,
                                       const cl_event *, cl_event *);

typedef int (*step_fn)(void *arg);

/* Medians of `a(arg)` and `b(arg)` (each followed by a finish), alternating over `rounds`
 * rounds after one warm-up of each. */
static int interleave(const struct bench_env *env, int rounds, step_fn a, step_fn b, void *arg, double *ta,
                      double *tb)
{
    double sa[64], sb[64];
    rounds = rounds > 64 ? 64 : rounds < 1 ? 1 : rounds;
    for (int i = -1; i < rounds; i++) {
        double t0 = bench_now();
        BENCH_OK(a(arg));
        BENCH_OK(usmarr_context_finish(env->ctx));
        double t1 = bench_now();
        BENCH_OK(b(arg));
        BENCH_OK(usmarr_context_finish(env->ctx));
        double t2 = bench_now();
        if (i >= 0) {
            sa[i] = t1 - t0;
            sb[i] = t2 - t1;
        }
    }
    *ta = bench_median(sa, rounds);
    *tb = bench_median(sb, rounds);
    return 0;
}

static usmarr_storage_options_t options(usmarr_context_t *ctx, const char *axes, int ndim, const int64_t *shape,
                                        usmarr_dtype_t dtype, const char *device, const char *managed)
{
    usmarr_storage_options_t o = USMARR_STORAGE_OPTIONS_INIT;
    o.context = ctx;
    o.axes = axes;
    o.dtype = (int)dtype;
    o.nshape = ndim;
    memcpy(o.shape, shape, sizeof(int64_t) * (size_t)ndim);
    o.device = device;
    o.managed = managed;
    return o;
}

/* ---- 1. managed pair transfers vs raw USM copies ---------------------------------------- */

struct sync_args {
    usmarr_storage_t *s;
    memcpy_fn copy;
    cl_command_queue queue;
    void *host, *device;
    size_t bytes;
};

static int sync_lib(void *p)
{
    struct sync_args *x = p;
    int rc = usmarr_storage_host_to_device(x->s, true);
    return rc ? rc : usmarr_storage_device_to_host(x->s, true);
}

static int sync_raw(void *p)
{
    struct sync_args *x = p;
    cl_int err = x->copy(x->queue, CL_TRUE, x->device, x->host, x->bytes, 0, NULL, NULL);
    return err ? err : x->copy(x->queue, CL_TRUE, x->host, x->device, x->bytes, 0, NULL, NULL);
}

static int run_sync(const struct bench_env *env, struct bench_result *r)
{
    int64_t shape[3] = {256, 256, 256};
    usmarr_storage_options_t o = options(env->ctx, "IJK", 3, shape, USMARR_FLOAT64, "gpu", "gt4py");
    struct sync_args x = {0};
    BENCH_OK(usmarr_storage_zeros(&o, &x.s));
    usmarr_array_t *h, *d;
    BENCH_OK(usmarr_storage_host_array(x.s, false, &h));
    BENCH_OK(usmarr_storage_device_array(x.s, false, &d));
    x.host = usmarr_array_data(h);
    x.device = usmarr_array_data(d);
    x.bytes = (size_t)usmarr_storage_nbytes(x.s);
    x.queue = usmarr_context_queue(env->ctx);
    cl_platform_id platform;
    clGetDeviceInfo(usmarr_context_device(env->ctx), CL_DEVICE_PLATFORM, sizeof platform, &platform, NULL);
    x.copy = (memcpy_fn)clGetExtensionFunctionAddressForPlatform(platform, "clEnqueueMemcpyINTEL");
    double lib = 0, raw = 0;
    int rc = x.copy ? interleave(env, env->repeat, sync_lib, sync_raw, &x, &lib, &raw) : -1;
    usmarr_storage_release(x.s);
    if (rc)
        return rc;
    r->ratio = raw / lib;
    snprintf(r->detail, sizeof r->detail,
             "host_to_device + device_to_host of %.0f MiB: library %.2f ms, two clEnqueueMemcpyINTEL %.2f ms",
             (double)x.bytes / (1 << 20), lib * 1e3, raw * 1e3);
    return 0;
}

/* ---- 2. named-axes add vs hand-broadcast arrays ------------------------------------------ */

struct add_args {
    usmarr_storage_operand_t ops[2];
    usmarr_storage_t *out;
    usmarr_array_t *a, *b, *c;
    const char *name;
};

static int add_storage(void *p)
{
    struct add_args *x = p;
    return usmarr_storage_elementwise(x->name, x->ops, 2, x->out, NULL);
}

static int add_arrays(void *p)
{
    struct add_args *x = p;
    usmarr_operand_t ops[2] = {{.array = x->a}, {.array = x->b}};
    return usmarr_elementwise(x->name, ops, 2, x->c, NULL);
}

static int run_named_add(const struct bench_env *env, struct bench_result *r)
{
    int64_t sij[2] = {2048, 2048}, sk[1] = {64}, sijk[3] = {2048, 2048, 64};
    usmarr_storage_options_t oij = options(env->ctx, "IJ", 2, sij, USMARR_FLOAT32, "gpu", "none");
    usmarr_storage_options_t ok = options(env->ctx, "K", 1, sk, USMARR_FLOAT32, "gpu", "none");
    usmarr_storage_options_t oijk = options(env->ctx, "IJK", 3, sijk, USMARR_FLOAT32, "gpu", "none");
    usmarr_storage_t *ij, *k;
    struct add_args x = {.name = "add"};
    BENCH_OK(usmarr_storage_full(&oij, usmarr_scalar_float(1.5), &ij));
    BENCH_OK(usmarr_storage_full(&ok, usmarr_scalar_float(2.5), &k));
    BENCH_OK(usmarr_storage_empty(&oijk, &x.out));
    x.ops[0].storage = ij;
    x.ops[1].storage = k;
    /* the same data as plain arrays, broadcast by hand: (2048, 2048, 1) + (1, 1, 64) */
    usmarr_array_t *aij, *ak;
    int one = 2, zero[2] = {0, 1};
    BENCH_OK(usmarr_storage_device_array(ij, false, &aij));
    BENCH_OK(usmarr_storage_device_array(k, false, &ak));
    BENCH_OK(usmarr_array_expand_dims(aij, 1, &one, &x.a));
    BENCH_OK(usmarr_array_expand_dims(ak, 2, zero, &x.b));
    BENCH_OK(usmarr_array_empty(env->ctx, 3, sijk, USMARR_FLOAT32, USMARR_ORDER_C, USMARR_USM_DEVICE, &x.c));
    double lib = 0, ref = 0;
    int rc = interleave(env, env->repeat, add_storage, add_arrays, &x, &lib, &ref);
    usmarr_array_release(x.a);
    usmarr_array_release(x.b);
    usmarr_array_release(x.c);
    usmarr_storage_release(x.out);
    usmarr_storage_release(ij);
    usmarr_storage_release(k);
    if (rc)
        return rc;
    r->ratio = ref / lib;
    snprintf(r->detail, sizeof r->detail, "IJ + K -> IJK (2048x2048x64 float32): storages %.2f ms, arrays %.2f ms",
             lib * 1e3, ref * 1e3);
    return 0;
}

/* ---- 3. zeros of an aligned storage with halo vs zeros of the padded array ---------------- */

struct zeros_args {
    usmarr_storage_options_t o;
    usmarr_context_t *ctx;
    int64_t padded[3];
};

static int zeros_storage(void *p)
{
    struct zeros_args *x = p;
    usmarr_storage_t *s;
    int rc = usmarr_storage_zeros(&x->o, &s);
    usmarr_storage_release(s);
    return rc;
}

static int zeros_array(void *p)
{
    struct zeros_args *x = p;
    usmarr_array_t *a;
    int rc = usmarr_array_zeros(x->ctx, 3, x->padded, USMARR_FLOAT64, USMARR_ORDER_C, USMARR_USM_HOST, &a);
    usmarr_array_release(a);
    return rc;
}

static int run_zeros(const struct bench_env *env, struct bench_result *r)
{
    int64_t shape[3] = {256, 256, 256}, halo[3] = {3, 3, 3};
    struct zeros_args x = {.ctx = env->ctx};
    x.o = options(env->ctx, "IJK", 3, shape, USMARR_FLOAT64, NULL, NULL);
    x.o.alignment = 64;
    usmarr_storage_halo_symmetric(&x.o, 3, halo);
    /* the padded shape: the contiguous axis rounded up to whole 64-byte blocks */
    usmarr_storage_t *s;
    BENCH_OK(usmarr_storage_empty(&x.o, &s));
    const int64_t *st = usmarr_storage_strides(s);
    x.padded[0] = 256;
    x.padded[1] = st[0] / st[1];
    x.padded[2] = st[1];
    usmarr_storage_release(s);
    double lib = 0, ref = 0;
    BENCH_OK(interleave(env, env->repeat, zeros_storage, zeros_array, &x, &lib, &ref));
    r->ratio = ref / lib;
    snprintf(r->detail, sizeof r->detail,
             "256^3 float64, halo 3, 64-byte aligned: storage zeros %.2f ms, array zeros (%lld, %lld, %lld) %.2f ms",
             lib * 1e3, (long long)x.padded[0], (long long)x.padded[1], (long long)x.padded[2], ref * 1e3);
    return 0;
}

/* ---- 4. an operation on clean managed pairs vs on their device arrays ---------------------- */

static int run_clean_op(const struct bench_env *env, struct bench_result *r)
{
    int64_t shape[3] = {128, 128, 128};
    usmarr_storage_options_t o = options(env->ctx, "IJK", 3, shape, USMARR_FLOAT32, "gpu", "gt4py");
    usmarr_storage_t *a, *b;
    struct add_args x = {.name = "add"};
    BENCH_OK(usmarr_storage_full(&o, usmarr_scalar_float(1.5), &a));
    BENCH_OK(usmarr_storage_full(&o, usmarr_scalar_float(2.5), &b));
    BENCH_OK(usmarr_storage_zeros(&o, &x.out));
    BENCH_OK(usmarr_storage_synchronize(a));
    BENCH_OK(usmarr_storage_synchronize(b));
    x.ops[0].storage = a;
    x.ops[1].storage = b;
    BENCH_OK(usmarr_storage_device_array(a, false, &x.a));
    BENCH_OK(usmarr_storage_device_array(b, false, &x.b));
    BENCH_OK(usmarr_storage_device_array(x.out, false, &x.c));
    double lib = 0, ref = 0;
    int rc = interleave(env, env->repeat, add_storage, add_arrays, &x, &lib, &ref);
    usmarr_sync_t state = USMARR_SYNC_CLEAN;
    if (!rc)
        rc = usmarr_sync_state_get(usmarr_storage_sync_state(a), &state);
    usmarr_storage_release(a);
    usmarr_storage_release(b);
    usmarr_storage_release(x.out);
    if (rc)
        return rc;
    if (state != USMARR_SYNC_CLEAN) {
        fprintf(stderr, "bench: the input pair is no longer clean (%d)\n", (int)state);
        return 1;
    }
    r->ratio = lib / ref;
    snprintf(r->detail, sizeof r->detail,
             "128^3 float32 add, out given: managed pairs %.3f ms, their device arrays %.3f ms", lib * 1e3,
             ref * 1e3);
    return 0;
}

const struct bench_case bench_storage[] = {
    {"storage-sync", "managed 256^3 float64 pair host_to_device + device_to_host vs clEnqueueMemcpyINTEL", 0.9,
     BENCH_AT_LEAST, run_sync},
    {"storage-named-add", "IJ (2048^2 f32) + K (64) -> IJK vs plain arrays broadcast by hand", 0.95,
     BENCH_AT_LEAST, run_named_add},
    {"storage-zeros-halo", "zeros of an aligned 256^3 float64 storage, halo 3, vs array zeros of the padded shape",
     0.9, BENCH_AT_LEAST, run_zeros},
    {"storage-clean-op", "add on clean managed pairs vs on their device arrays (time ratio)", 1.05, BENCH_AT_MOST,
     run_clean_op},
    {NULL},
};
