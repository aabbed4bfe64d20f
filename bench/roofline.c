/* The machine's limit for streaming kernels, measured in the same run as the cases that
 * are held against it (bench_roofline.c): a C loop over every core (one thread per core,
 * plain and non-temporal stores) and a raw OpenCL kernel of the same shape on the device
 * under test, launched directly on USM arrays the library allocated. */
#include "bench.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#if defined(__SSE__)
#include <xmmintrin.h>
#endif

#define N (16 << 20)

/* The widest vector the compiler gives without target flags: GCC's vector extensions
 * lower it to whatever the build's ISA has. */
typedef float vec16 __attribute__((vector_size(64)));

struct loop {
    const float *a, *b;
    float *c;
    float s;
    enum bench_stream kind;
    bool nontemporal;
    int threads;
    atomic_size_t next; /* the first element of the next chunk not yet taken */
    pthread_barrier_t start, done;
    bool stop;
};

struct worker {
    struct loop *loop;
};

static void stream_plain(const struct loop *l, size_t lo, size_t hi)
{
    for (size_t i = lo; i < hi; i += 16) {
        vec16 a, b, c;
        memcpy(&a, l->a + i, sizeof a);
        switch (l->kind) {
        case BENCH_STREAM_COPY:
            c = a;
            break;
        case BENCH_STREAM_ADD:
            memcpy(&b, l->b + i, sizeof b);
            c = a + b;
            break;
        default:
            memcpy(&b, l->b + i, sizeof b);
            c = a + l->s * b;
            break;
        }
        memcpy(l->c + i, &c, sizeof c);
    }
}

/* Stores that bypass the caches: the arrays are far beyond the last-level cache, so the
 * read-for-ownership of plain stores is traffic the result does not need. */
static void stream_nontemporal(const struct loop *l, size_t lo, size_t hi)
{
#if defined(__SSE__)
    __m128 s = _mm_set1_ps(l->s);
    for (size_t i = lo; i < hi; i += 4) {
        __m128 a = _mm_load_ps(l->a + i), c;
        if (l->kind == BENCH_STREAM_COPY)
            c = a;
        else if (l->kind == BENCH_STREAM_ADD)
            c = _mm_add_ps(a, _mm_load_ps(l->b + i));
        else
            c = _mm_add_ps(a, _mm_mul_ps(s, _mm_load_ps(l->b + i)));
        _mm_stream_ps(l->c + i, c);
    }
    _mm_sfence();
#else
    stream_plain(l, lo, hi);
#endif
}

/* Threads take 256 KiB chunks as they come free, as an OpenCL runtime hands out work-groups,
 * so that a thread another process delays does not hold up the pass. */
#define CHUNK (64 << 10)

static void run_share(struct loop *l)
{
    for (size_t lo; (lo = atomic_fetch_add(&l->next, CHUNK)) < (size_t)N;) {
        size_t hi = lo + CHUNK < (size_t)N ? lo + CHUNK : (size_t)N;
        if (l->nontemporal)
            stream_nontemporal(l, lo, hi);
        else
            stream_plain(l, lo, hi);
    }
}

static void *worker_main(void *arg)
{
    struct worker *w = arg;
    for (;;) {
        pthread_barrier_wait(&w->loop->start);
        if (w->loop->stop)
            return NULL;
        run_share(w->loop);
        pthread_barrier_wait(&w->loop->done);
    }
}

/* The fastest of `repeat` passes of the loop over all threads (the calling thread is the
 * first): the limit is what the machine reaches, and other processes only ever add time. */
static double time_loop(struct loop *l, int repeat)
{
    double fastest = 1e30;
    for (int i = -1; i < repeat; i++) {
        atomic_store(&l->next, 0);
        double t0 = bench_now();
        pthread_barrier_wait(&l->start);
        run_share(l);
        pthread_barrier_wait(&l->done);
        double t = bench_now() - t0;
        if (i >= 0 && t < fastest)
            fastest = t;
    }
    return fastest;
}

/* An N-float array in huge pages where the kernel gives them on request, as the USM
 * allocators' large blocks get them: with 4 KiB pages three streams miss the TLB. */
static float *stream_array(void)
{
    size_t bytes = (size_t)N * 4;
    float *p = aligned_alloc(2 << 20, bytes);
#ifdef MADV_HUGEPAGE
    if (p)
        madvise(p, bytes, MADV_HUGEPAGE);
#endif
    return p;
}

static int measure_loops(struct bench_roofline *rl, int repeat)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    struct loop l = {.s = 3.0f, .threads = cores < 1 ? 1 : cores > 256 ? 256 : (int)cores};
    float *a = stream_array(), *b = stream_array(), *c = stream_array();
    pthread_t tid[256];
    struct worker w[256];
    int started = 0, rc = -1;
    if (!a || !b || !c)
        goto out;
    for (size_t i = 0; i < (size_t)N; i++) {
        a[i] = (float)(i & 1023);
        b[i] = 0.5f;
        c[i] = 0;
    }
    l.a = a;
    l.b = b;
    l.c = c;
    pthread_barrier_init(&l.start, NULL, (unsigned)l.threads);
    pthread_barrier_init(&l.done, NULL, (unsigned)l.threads);
    for (started = 1; started < l.threads; started++) {
        w[started] = (struct worker){&l};
        if (pthread_create(&tid[started], NULL, worker_main, &w[started]))
            break;
    }
    if (started == l.threads) {
        for (int k = 0; k < BENCH_STREAM_KINDS; k++) {
            l.kind = (enum bench_stream)k;
            l.nontemporal = false;
            rl->loop_plain[k] = time_loop(&l, repeat);
            l.nontemporal = true;
            rl->loop_nontemporal[k] = time_loop(&l, repeat);
        }
        rc = 0;
    }
    l.stop = true;
    if (started == l.threads)
        pthread_barrier_wait(&l.start);
    for (int i = 1; i < started; i++)
        pthread_join(tid[i], NULL);
    pthread_barrier_destroy(&l.start);
    pthread_barrier_destroy(&l.done);
    rl->threads = l.threads;
out:
    if (rc)
        fprintf(stderr, "bench: the C roofline loop could not start its %d threads\n", l.threads);
    free(a);
    free(b);
    free(c);
    return rc;
}

/* One work-item per 16 elements, as the C loop's widest vector. */
static const char *const kernel_source =
    "#ifdef NONTEMPORAL\n"
    "#define STORE(p, v) __builtin_nontemporal_store((v), (p))\n"
    "#else\n"
    "#define STORE(p, v) (*(p) = (v))\n"
    "#endif\n"
    "kernel void copy(global const float16 *restrict a, global const float16 *restrict b,\n"
    "                 global float16 *restrict c, float s)\n"
    "{ size_t i = get_global_id(0); STORE(c + i, a[i]); }\n"
    "kernel void add(global const float16 *restrict a, global const float16 *restrict b,\n"
    "                global float16 *restrict c, float s)\n"
    "{ size_t i = get_global_id(0); STORE(c + i, a[i] + b[i]); }\n"
    "kernel void triad(global const float16 *restrict a, global const float16 *restrict b,\n"
    "                  global float16 *restrict c, float s)\n"
    "{ size_t i = get_global_id(0); STORE(c + i, a[i] + s * b[i]); }\n";

typedef cl_int(CL_API_CALL *set_pointer_fn)(cl_kernel kernel, cl_uint index, const void *pointer);

/* bench.h: one raw kernel of each kind, built with `options`, on three N-element float32
 * arrays of the library's. */
struct bench_raw {
    usmarr_context_t *ctx;
    usmarr_array_t *arrays[3];
    cl_program program;
    cl_kernel kernels[BENCH_STREAM_KINDS];
};

void bench_raw_close(struct bench_raw *raw)
{
    if (!raw)
        return;
    for (int k = 0; k < BENCH_STREAM_KINDS; k++)
        if (raw->kernels[k])
            clReleaseKernel(raw->kernels[k]);
    if (raw->program)
        clReleaseProgram(raw->program);
    for (int i = 0; i < 3; i++)
        usmarr_array_release(raw->arrays[i]);
    free(raw);
}

/* bench.h */
int bench_raw_open(const struct bench_env *env, bool nontemporal, struct bench_raw **out)
{
    static const char *const names[BENCH_STREAM_KINDS] = {"copy", "add", "triad"};
    *out = NULL;
    struct bench_raw *raw = calloc(1, sizeof *raw);
    if (!raw)
        return -1;
    raw->ctx = env->ctx;
    int64_t n = N;
    int rc = 0;
    for (int i = 0; i < 3 && !rc; i++) {
        rc = usmarr_array_empty(env->ctx, 1, &n, USMARR_FLOAT32, USMARR_ORDER_C, USMARR_USM_DEVICE, &raw->arrays[i]);
        if (!rc)
            rc = usmarr_array_fill(raw->arrays[i], usmarr_scalar_float(0.5 + i));
    }
    if (!rc)
        rc = usmarr_context_finish(env->ctx);
    if (rc) {
        bench_raw_close(raw);
        return bench_fail(rc, "the raw roofline kernels' arrays");
    }
    cl_context clctx = usmarr_context_cl_context(env->ctx);
    cl_device_id dev = usmarr_context_device(env->ctx);
    const usmarr_device_info_t *info = usmarr_context_info(env->ctx);
    set_pointer_fn set_pointer = clSetKernelArgSVMPointer;
    if (info->backend == USMARR_BACKEND_USM) {
        cl_platform_id platform;
        clGetDeviceInfo(dev, CL_DEVICE_PLATFORM, sizeof platform, &platform, NULL);
        set_pointer =
            (set_pointer_fn)clGetExtensionFunctionAddressForPlatform(platform, "clSetKernelArgMemPointerINTEL");
    }
    if (!set_pointer) {
        fprintf(stderr, "bench: the platform has no clSetKernelArgMemPointerINTEL\n");
        bench_raw_close(raw);
        return -1;
    }
    cl_int err;
    const char *source = kernel_source;
    raw->program = clCreateProgramWithSource(clctx, 1, &source, NULL, &err);
    if (err) {
        raw->program = NULL;
        bench_raw_close(raw);
        return bench_fail(err, "clCreateProgramWithSource of the raw kernels");
    }
    if (clBuildProgram(raw->program, 1, &dev, nontemporal ? "-DNONTEMPORAL" : "", NULL, NULL)) {
        bench_raw_close(raw); /* not built: no such kernels on this device */
        return 0;
    }
    cl_float s = 3.0f;
    for (int k = 0; k < BENCH_STREAM_KINDS && !err; k++) {
        raw->kernels[k] = clCreateKernel(raw->program, names[k], &err);
        for (cl_uint i = 0; i < 3 && !err; i++)
            err = set_pointer(raw->kernels[k], i, usmarr_array_data(raw->arrays[i]));
        if (!err)
            err = clSetKernelArg(raw->kernels[k], 3, sizeof s, &s);
    }
    if (err) {
        bench_raw_close(raw);
        return bench_fail(err, "a raw roofline kernel");
    }
    *out = raw;
    return 0;
}

/* bench.h */
int bench_raw_pass(struct bench_raw *raw, enum bench_stream kind, double *seconds)
{
    cl_command_queue q = usmarr_context_queue(raw->ctx);
    size_t global = N / 16;
    double t0 = bench_now();
    cl_int err = clEnqueueNDRangeKernel(q, raw->kernels[kind], 1, NULL, &global, NULL, 0, NULL, NULL);
    if (!err)
        err = clFinish(q);
    *seconds = bench_now() - t0;
    return err ? bench_fail(err, "a raw roofline kernel") : 0;
}

/* The fastest of env->repeat launches + clFinish of each kernel, after one untimed; all
 * negative when the device does not build them (no non-temporal stores). */
static int time_kernels(const struct bench_env *env, bool nontemporal, double seconds[BENCH_STREAM_KINDS])
{
    for (int k = 0; k < BENCH_STREAM_KINDS; k++)
        seconds[k] = -1;
    struct bench_raw *raw;
    int rc = bench_raw_open(env, nontemporal, &raw);
    for (int k = 0; raw && k < BENCH_STREAM_KINDS && !rc; k++) {
        double fastest = 1e30, t;
        for (int i = -1; i < env->repeat && !rc; i++) {
            rc = bench_raw_pass(raw, (enum bench_stream)k, &t);
            if (i >= 0 && t < fastest)
                fastest = t;
        }
        if (!rc)
            seconds[k] = fastest;
    }
    bench_raw_close(raw);
    return rc;
}

static int measure_kernels(const struct bench_env *env, struct bench_roofline *rl)
{
    int rc = time_kernels(env, false, rl->kernel_plain);
    return rc ? rc : time_kernels(env, true, rl->kernel_nontemporal);
}

/* The faster of two times, a negative one (not measured) losing. */
static double faster(double a, double b) { return a > 0 && (b <= 0 || a < b) ? a : b; }

/* bench.h */
int bench_roofline_measure(const struct bench_env *env, const struct bench_roofline **out)
{
    static struct bench_roofline rl;
    static const usmarr_context_t *measured;
    struct bench_roofline now = {0};
    int rc = measure_loops(&now, env->repeat);
    if (!rc)
        rc = measure_kernels(env, &now);
    if (rc)
        return rc;
    if (measured != env->ctx) { /* the loops are the machine's, the kernels the device's */
        for (int k = 0; k < BENCH_STREAM_KINDS; k++)
            rl.kernel_plain[k] = rl.kernel_nontemporal[k] = -1;
        measured = env->ctx;
    }
    rl.threads = now.threads;
    for (int k = 0; k < BENCH_STREAM_KINDS; k++) {
        rl.loop_plain[k] = faster(now.loop_plain[k], rl.loop_plain[k]);
        rl.loop_nontemporal[k] = faster(now.loop_nontemporal[k], rl.loop_nontemporal[k]);
        rl.kernel_plain[k] = faster(now.kernel_plain[k], rl.kernel_plain[k]);
        rl.kernel_nontemporal[k] = faster(now.kernel_nontemporal[k], rl.kernel_nontemporal[k]);
    }
    *out = &rl;
    return 0;
}

/* bench.h */
double bench_roofline_seconds(const struct bench_roofline *rl, enum bench_stream kind, double bytes)
{
    static const double moved[BENCH_STREAM_KINDS] = {8.0 * N, 12.0 * N, 12.0 * N};
    return faster(rl->loop_plain[kind], rl->loop_nontemporal[kind]) * bytes / moved[kind];
}

/* bench.h */
double bench_roofline_kernel_seconds(const struct bench_roofline *rl, enum bench_stream kind, double bytes)
{
    static const double moved[BENCH_STREAM_KINDS] = {8.0 * N, 12.0 * N, 12.0 * N};
    double t = faster(rl->kernel_plain[kind], rl->kernel_nontemporal[kind]);
    return t > 0 ? t * bytes / moved[kind] : -1;
}
