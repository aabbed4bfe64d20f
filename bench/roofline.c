/* The machine's limit for streaming kernels, measured in the same run as the cases that
 * are held against it (bench_roofline.c): a C loop over every core (one thread per core,
 * the widest vector loads and stores the CPU has, plain and non-temporal) and a raw OpenCL
 * kernel of the same shape on the device under test, launched directly on USM arrays the
 * library allocated.  Each gives one pass at a time, so that a case can interleave them
 * with its own passes. */
#include "bench.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define BENCH_X86 1
#endif

#define N BENCH_STREAM_N

/* ---- the C loop ------------------------------------------------------------------------- */

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

/* One chunk [lo, hi) of the stream, 16 elements a step (N and the chunks are multiples of 64). */
#define STREAM_CHUNK_BODY(vec, load, store_plain, store_nt, add, mul, splat, width)                         \
    {                                                                                                      \
        vec s = splat(l->s);                                                                               \
        for (size_t i = lo; i < hi; i += (width)) {                                                        \
            vec c = l->kind == BENCH_STREAM_FILL ? s : load(l->a + i);                                     \
            if (l->kind == BENCH_STREAM_ADD)                                                               \
                c = add(c, load(l->b + i));                                                                \
            else if (l->kind == BENCH_STREAM_TRIAD)                                                        \
                c = add(c, mul(s, load(l->b + i)));                                                        \
            if (l->nontemporal)                                                                            \
                store_nt(l->c + i, c);                                                                     \
            else                                                                                           \
                store_plain(l->c + i, c);                                                                  \
        }                                                                                                  \
    }

#ifdef BENCH_X86
__attribute__((target("avx512f"))) static void chunk_avx512(const struct loop *l, size_t lo, size_t hi)
{
    STREAM_CHUNK_BODY(__m512, _mm512_load_ps, _mm512_store_ps, _mm512_stream_ps, _mm512_add_ps, _mm512_mul_ps,
                      _mm512_set1_ps, 16)
    _mm_sfence();
}
__attribute__((target("avx"))) static void chunk_avx(const struct loop *l, size_t lo, size_t hi)
{
    STREAM_CHUNK_BODY(__m256, _mm256_load_ps, _mm256_store_ps, _mm256_stream_ps, _mm256_add_ps, _mm256_mul_ps,
                      _mm256_set1_ps, 8)
    _mm_sfence();
}
static void chunk_sse(const struct loop *l, size_t lo, size_t hi)
{
    STREAM_CHUNK_BODY(__m128, _mm_load_ps, _mm_store_ps, _mm_stream_ps, _mm_add_ps, _mm_mul_ps, _mm_set1_ps, 4)
    _mm_sfence();
}
#else
#define SCALAR_LOAD(p) (*(p))
#define SCALAR_STORE(p, v) (*(p) = (v))
#define SCALAR_ADD(x, y) ((x) + (y))
#define SCALAR_MUL(x, y) ((x) * (y))
#define SCALAR_SPLAT(x) (x)
static void chunk_plain(const struct loop *l, size_t lo, size_t hi)
{
    STREAM_CHUNK_BODY(float, SCALAR_LOAD, SCALAR_STORE, SCALAR_STORE, SCALAR_ADD, SCALAR_MUL, SCALAR_SPLAT, 1)
}
#endif

typedef void (*chunk_fn)(const struct loop *l, size_t lo, size_t hi);

/* The widest vectors this CPU runs, and their name for the detail line. */
static chunk_fn widest_chunk(const char **isa)
{
#ifdef BENCH_X86
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f")) {
        *isa = "AVX-512";
        return chunk_avx512;
    }
    if (__builtin_cpu_supports("avx")) {
        *isa = "AVX";
        return chunk_avx;
    }
    *isa = "SSE";
    return chunk_sse;
#else
    *isa = "scalar";
    return chunk_plain;
#endif
}

/* Threads take 256 KiB chunks as they come free, as an OpenCL runtime hands out work-groups,
 * so that a thread another process delays does not hold up the pass. */
#define CHUNK (64 << 10)

typedef cl_int(CL_API_CALL *set_pointer_fn)(cl_kernel kernel, cl_uint index, const void *pointer);

struct bench_roofline {
    struct loop loop;
    chunk_fn chunk;
    const char *isa;
    float *arrays[3];
    pthread_t tid[256];
    int started;
    /* the raw kernels: on three N-element float32 arrays of the library's, plain and
     * with non-temporal stores (NULL where the device does not build them) */
    usmarr_context_t *ctx;
    usmarr_array_t *device[3];
    cl_program programs[2];
    cl_kernel kernels[2][BENCH_STREAM_JOB + 1]; /* the kinds, then the case's job */
    set_pointer_fn set_pointer;
};

static void run_share(struct bench_roofline *rl)
{
    struct loop *l = &rl->loop;
    for (size_t lo; (lo = atomic_fetch_add(&l->next, CHUNK)) < (size_t)N;)
        rl->chunk(l, lo, lo + CHUNK < (size_t)N ? lo + CHUNK : (size_t)N);
}

static void *worker_main(void *arg)
{
    struct bench_roofline *rl = arg;
    for (;;) {
        pthread_barrier_wait(&rl->loop.start);
        if (rl->loop.stop)
            return NULL;
        run_share(rl);
        pthread_barrier_wait(&rl->loop.done);
    }
}

/* bench.h */
int bench_roofline_loop(struct bench_roofline *rl, enum bench_stream kind, bool nontemporal, double *seconds)
{
    struct loop *l = &rl->loop;
    l->kind = kind;
    l->nontemporal = nontemporal;
    atomic_store(&l->next, 0);
    double t0 = bench_now();
    pthread_barrier_wait(&l->start);
    run_share(rl);
    pthread_barrier_wait(&l->done);
    *seconds = bench_now() - t0;
    return 0;
}

/* An N-float array in huge pages where the kernel gives them on request, as the library's
 * large USM blocks get them (usmarr__advise_huge_pages): with 4 KiB pages three streams
 * miss the TLB. */
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

static int open_loop(struct bench_roofline *rl)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    struct loop *l = &rl->loop;
    l->s = 3.0f;
    l->threads = cores < 1 ? 1 : cores > 256 ? 256 : (int)cores;
    rl->chunk = widest_chunk(&rl->isa);
    for (int k = 0; k < 3; k++)
        if (!(rl->arrays[k] = stream_array()))
            return -1;
    /* Every page written, the sources with values that differ: a page never written maps
     * the kernel's one zero page, and a loop that reads it reads from the caches. */
    for (size_t i = 0; i < (size_t)N; i++) {
        rl->arrays[0][i] = (float)(i & 1023);
        rl->arrays[1][i] = 0.5f + (float)(i & 7);
        rl->arrays[2][i] = 0;
    }
    l->a = rl->arrays[0];
    l->b = rl->arrays[1];
    l->c = rl->arrays[2];
    pthread_barrier_init(&l->start, NULL, (unsigned)l->threads);
    pthread_barrier_init(&l->done, NULL, (unsigned)l->threads);
    for (rl->started = 1; rl->started < l->threads; rl->started++)
        if (pthread_create(&rl->tid[rl->started], NULL, worker_main, rl))
            break;
    if (rl->started < l->threads) {
        fprintf(stderr, "bench: the C roofline loop could not start its %d threads\n", l->threads);
        return -1;
    }
    return 0;
}

static void close_loop(struct bench_roofline *rl)
{
    struct loop *l = &rl->loop;
    if (rl->started) {
        l->stop = true;
        if (rl->started == l->threads)
            pthread_barrier_wait(&l->start);
        for (int i = 1; i < rl->started; i++)
            pthread_join(rl->tid[i], NULL);
        pthread_barrier_destroy(&l->start);
        pthread_barrier_destroy(&l->done);
    }
    for (int k = 0; k < 3; k++)
        free(rl->arrays[k]);
}

/* ---- the raw kernels -------------------------------------------------------------------- */

/* One work-item per 16 elements, as the C loop's widest vector: the four kinds on the
 * loop's shapes (a, b, c, s), then each case's own job on the case's arrays (a, b, c, out;
 * bench_roofline_job). */
static const char *const kernel_source =
    "#ifdef NONTEMPORAL\n"
    "#define STORE(p, v) __builtin_nontemporal_store((v), (p))\n"
    "#else\n"
    "#define STORE(p, v) (*(p) = (v))\n"
    "#endif\n"
    "#define KIND(name) kernel void name(global const float16 *restrict a, global const float16 *restrict b,\\\n"
    "                                    global float16 *restrict c, float s)\n"
    "KIND(copy) { size_t i = get_global_id(0); STORE(c + i, a[i]); }\n"
    "KIND(add) { size_t i = get_global_id(0); STORE(c + i, a[i] + b[i]); }\n"
    "KIND(triad) { size_t i = get_global_id(0); STORE(c + i, a[i] + s * b[i]); }\n"
    "KIND(fill) { size_t i = get_global_id(0); STORE(c + i, (float16)s); }\n"
    "#define JOB(name, ta, tc) kernel void name(global const ta *restrict a, global const float16 *restrict b,\\\n"
    "                                           global const tc *restrict c, global float16 *restrict out)\\\n"
    "    { size_t i = get_global_id(0); STORE(out + i, name##_(a, b, c, i)); }\n"
    "#define job_copy_(a, b, c, i) a[i]\n"
    "#define job_astype_(a, b, c, i) convert_float16(a[i])\n"
    "#define job_fill_(a, b, c, i) (float16)1.5f\n"
    "#define job_add_(a, b, c, i) (a[i] + b[i])\n"
    "#define job_exp_(a, b, c, i) exp(a[i])\n"
    "#define job_broadcast_(a, b, c, i) (a[i] + b[i % 256])\n"
    "#define EVEN(p, i) (float16)(p[2 * i].even, p[2 * i + 1].even)\n"
    "#define job_strided_(a, b, c, i) (EVEN(a, i) + EVEN(b, i))\n"
    "#define job_where_(a, b, c, i) select(b[i], a[i], convert_int16(c[i] != (char16)0))\n"
    "#define job_expr_(a, b, c, i) (a[i] * b[i] + exp(c[i]))\n"
    "JOB(job_copy, float16, float16) JOB(job_astype, double16, float16) JOB(job_fill, float16, float16)\n"
    "JOB(job_add, float16, float16) JOB(job_exp, float16, float16) JOB(job_broadcast, float16, float16)\n"
    "JOB(job_strided, float16, float16) JOB(job_where, float16, char16) JOB(job_expr, float16, float16)\n";

static int open_kernels(const struct bench_env *env, struct bench_roofline *rl)
{
    static const char *const names[BENCH_STREAM_KINDS] = {"copy", "add", "triad", "fill"};
    rl->ctx = env->ctx;
    int64_t n = N;
    int rc = 0;
    /* written, as the loop's, the sources with different values */
    for (int i = 0; i < 3 && !rc; i++) {
        rc = usmarr_array_empty(env->ctx, 1, &n, USMARR_FLOAT32, USMARR_ORDER_C, USMARR_USM_DEVICE, &rl->device[i]);
        if (!rc)
            rc = usmarr_array_fill(rl->device[i], usmarr_scalar_float(0.5 + i));
    }
    if (!rc)
        rc = usmarr_context_finish(env->ctx);
    if (rc)
        return bench_fail(rc, "the raw roofline kernels' arrays");
    cl_context clctx = usmarr_context_cl_context(env->ctx);
    cl_device_id dev = usmarr_context_device(env->ctx);
    const usmarr_device_info_t *info = usmarr_context_info(env->ctx);
    rl->set_pointer = clSetKernelArgSVMPointer;
    if (info->backend == USMARR_BACKEND_USM) {
        cl_platform_id platform;
        clGetDeviceInfo(dev, CL_DEVICE_PLATFORM, sizeof platform, &platform, NULL);
        rl->set_pointer =
            (set_pointer_fn)clGetExtensionFunctionAddressForPlatform(platform, "clSetKernelArgMemPointerINTEL");
    }
    if (!rl->set_pointer) {
        fprintf(stderr, "bench: the platform has no clSetKernelArgMemPointerINTEL\n");
        return -1;
    }
    cl_float s = 3.0f;
    for (int v = 0; v < 2; v++) {
        cl_int err;
        const char *source = kernel_source;
        cl_program program = clCreateProgramWithSource(clctx, 1, &source, NULL, &err);
        if (err)
            return bench_fail(err, "clCreateProgramWithSource of the raw kernels");
        rl->programs[v] = program;
        if (clBuildProgram(program, 1, &dev, v ? "-DNONTEMPORAL" : "", NULL, NULL)) {
            clReleaseProgram(program);
            rl->programs[v] = NULL;
            if (!v) {
                fprintf(stderr, "bench: the raw roofline kernels do not build on this device\n");
                return -1;
            }
            continue; /* no non-temporal stores on this device */
        }
        for (int k = 0; k < BENCH_STREAM_KINDS && !err; k++) {
            rl->kernels[v][k] = clCreateKernel(program, names[k], &err);
            for (cl_uint i = 0; i < 3 && !err; i++)
                err = rl->set_pointer(rl->kernels[v][k], i, usmarr_array_data(rl->device[i]));
            if (!err)
                err = clSetKernelArg(rl->kernels[v][k], 3, sizeof s, &s);
        }
        if (err)
            return bench_fail(err, "a raw roofline kernel");
    }
    return 0;
}

static void close_kernels(struct bench_roofline *rl)
{
    for (int v = 0; v < 2; v++) {
        for (int k = 0; k <= BENCH_STREAM_JOB; k++)
            if (rl->kernels[v][k])
                clReleaseKernel(rl->kernels[v][k]);
        if (rl->programs[v])
            clReleaseProgram(rl->programs[v]);
    }
    for (int i = 0; i < 3; i++)
        usmarr_array_release(rl->device[i]);
}

/* bench.h */
int bench_roofline_job(struct bench_roofline *rl, const char *name, usmarr_array_t *const args[4])
{
    for (int v = 0; v < 2; v++) {
        if (!rl->programs[v])
            continue;
        cl_int err;
        cl_kernel k = clCreateKernel(rl->programs[v], name, &err);
        for (cl_uint i = 0; i < 4 && !err; i++)
            err = rl->set_pointer(k, i, usmarr_array_data(args[i] ? args[i] : args[3]));
        if (err) {
            if (k)
                clReleaseKernel(k);
            return bench_fail(err, "the raw kernel of the case's job");
        }
        rl->kernels[v][BENCH_STREAM_JOB] = k;
    }
    return 0;
}

/* bench.h */
int bench_roofline_kernel(struct bench_roofline *rl, enum bench_stream kind, bool nontemporal, double *seconds)
{
    cl_kernel kernel = rl->kernels[nontemporal][kind];
    *seconds = -1;
    if (!kernel)
        return 0;
    cl_command_queue q = usmarr_context_queue(rl->ctx);
    size_t global = N / 16;
    double t0 = bench_now();
    cl_int err = clEnqueueNDRangeKernel(q, kernel, 1, NULL, &global, NULL, 0, NULL, NULL);
    if (!err)
        err = clFinish(q);
    *seconds = bench_now() - t0;
    return err ? bench_fail(err, "a raw roofline kernel") : 0;
}

/* ---- both ------------------------------------------------------------------------------ */

/* bench.h */
void bench_roofline_close(struct bench_roofline *rl)
{
    if (!rl)
        return;
    close_loop(rl);
    close_kernels(rl);
    free(rl);
}

/* bench.h */
int bench_roofline_open(const struct bench_env *env, struct bench_roofline **out)
{
    *out = NULL;
    struct bench_roofline *rl = calloc(1, sizeof *rl);
    if (!rl)
        return -1;
    int rc = open_loop(rl);
    if (!rc)
        rc = open_kernels(env, rl);
    if (rc) {
        bench_roofline_close(rl);
        return rc;
    }
    *out = rl;
    return 0;
}

/* bench.h */
int bench_roofline_threads(const struct bench_roofline *rl, const char **isa)
{
    *isa = rl->isa;
    return rl->loop.threads;
}
