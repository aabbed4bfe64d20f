/* The kernel engine: per-context program cache (memory -> disk -> source), kernel
 * arguments and launches, and the generic strided map launcher.  Contract: engine.h. */
#include "engine.h"

#include "diskcache.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- dtype tags ------------------------------------------------------------------------ */

static const char *const dtype_tags[] = {"b",   "i8",  "i16", "i32", "i64", "u8",  "u16", "u32",
                                         "u64", "f16", "f32", "f64", "c64", "c128", "x128"};
static const size_t dtype_bytes[] = {1, 1, 2, 4, 8, 1, 2, 4, 8, 2, 4, 8, 8, 16, 16};

const char *usmarr__dtype_tag(int dtype)
{
    return dtype >= 0 && dtype <= USMARR__BITS128 ? dtype_tags[dtype] : NULL;
}

size_t usmarr__dtype_bytes(int dtype) { return dtype >= 0 && dtype <= USMARR__BITS128 ? dtype_bytes[dtype] : 0; }

int usmarr__bits_dtype(size_t itemsize)
{
    switch (itemsize) {
    case 1:
        return USMARR_UINT8;
    case 2:
        return USMARR_UINT16;
    case 4:
        return USMARR_UINT32;
    case 8:
        return USMARR_UINT64;
    case 16:
        return USMARR__BITS128;
    default:
        return -1;
    }
}

/* ---- embedded sources -------------------------------------------------------------------- */

struct usmarr__cl_source {
    const char *name;
    const char *text;
    size_t size;
};
USMARR_INTERNAL extern const struct usmarr__cl_source usmarr__cl_sources[];

/* Appends family `name` to buf (growing it).  USMARR_KERNEL_DIR overrides the embedded
 * text with <dir>/<name>.cl. */
static int append_source(char **buf, size_t *len, const char *name)
{
    const char *text = NULL;
    size_t size = 0;
    char *file_text = NULL;
    const char *dir = getenv("USMARR_KERNEL_DIR");
    if (dir && *dir) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s.cl", dir, name);
        FILE *f = fopen(path, "rb");
        if (!f)
            return usmarr__fail(USMARR_ERROR_IO, "USMARR_KERNEL_DIR=%s: cannot open %s: %s", dir, path,
                                strerror(errno));
        fseek(f, 0, SEEK_END);
        long n = ftell(f);
        fseek(f, 0, SEEK_SET);
        file_text = n >= 0 ? malloc((size_t)n + 1) : NULL;
        if (!file_text || fread(file_text, 1, (size_t)n, f) != (size_t)n) {
            fclose(f);
            free(file_text);
            return usmarr__fail(USMARR_ERROR_IO, "cannot read %s", path);
        }
        fclose(f);
        text = file_text;
        size = (size_t)n;
    } else {
        for (const struct usmarr__cl_source *s = usmarr__cl_sources; s->name; s++) {
            if (!strcmp(s->name, name)) {
                text = s->text;
                size = s->size;
                break;
            }
        }
        if (!text)
            return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "family=\"%s\" is not a kernel source (cl/%s.cl)",
                                name, name);
    }
    char *grown = realloc(*buf, *len + size + 2);
    if (!grown) {
        free(file_text);
        return usmarr__fail(USMARR_ERROR_OUT_OF_HOST_MEMORY, "kernel source");
    }
    memcpy(grown + *len, text, size);
    *len += size;
    grown[(*len)++] = '\n';
    grown[*len] = '\0';
    *buf = grown;
    free(file_text);
    return 0;
}

/* ---- the per-context cache ------------------------------------------------------------- */

/* PROGRAM_RETRY: the last build ran out of memory; the next asker builds again (a
 * transient failure must not fail the kernel for the rest of the context's life). */
enum program_state { PROGRAM_BUILDING, PROGRAM_READY, PROGRAM_FAILED, PROGRAM_RETRY };

struct usmarr__kernel {
    cl_kernel kernel;
    struct program *program;
    struct usmarr__kernel *next;
    char name[];
};

struct program {
    struct program *next;
    uint64_t hash;
    char *key; /* "family\001map\001options" */
    enum program_state state;
    int error;          /* PROGRAM_FAILED: the code */
    char *error_detail; /* PROGRAM_FAILED: the detail */
    cl_program program;
    char *source;
    char *options;
    atomic_bool store_pending; /* compiled from source, binary not yet stored */
    struct usmarr__kernel *kernels;
};

#define CACHE_BUCKETS 256
#define FAST_SLOTS 64

/* The launch fast path: a map's signature -> its kernel, so that a repeated launch skips
 * building the options string and the program lookup (tiny copies are latency-bound). */
struct fast_entry {
    char family[32];
    char defines[96];
    int counts[4]; /* nout, nin, nscalars, class */
    int dtypes[USMARR__MAX_OPERANDS + USMARR__MAX_SCALARS];
    unsigned vary_mask;
    uint32_t vary_dtypes;
    usmarr__kernel_t *kernel;
};

struct usmarr__kernel_cache {
    cnd_t built; /* broadcast when a program leaves PROGRAM_BUILDING */
    struct program *buckets[CACHE_BUCKETS];
    struct usmarr__engine_stats stats; /* under kernels_lock, but for `launches`: */
    atomic_ullong launches;
    void *scratch; /* host USM for the 17+-dim map class */
    size_t scratch_size;
    cl_context cl; /* to free the scratch block */
    usmarr__free_fn blocking_free;
    struct fast_entry fast[FAST_SLOTS];
};

static uint64_t hash_string(const char *s)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a: enough for an in-memory table */
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void program_free(struct program *p)
{
    for (struct usmarr__kernel *k = p->kernels, *next; k; k = next) {
        next = k->next;
        clReleaseKernel(k->kernel);
        free(k);
    }
    if (p->program)
        clReleaseProgram(p->program);
    free(p->key);
    free(p->source);
    free(p->options);
    free(p->error_detail);
    free(p);
}

void usmarr__kernel_cache_destroy(struct usmarr__kernel_cache *cache)
{
    if (!cache)
        return;
    for (int b = 0; b < CACHE_BUCKETS; b++) {
        for (struct program *p = cache->buckets[b], *next; p; p = next) {
            next = p->next;
            program_free(p);
        }
    }
    if (cache->scratch)
        cache->blocking_free(cache->cl, cache->scratch);
    cnd_destroy(&cache->built);
    free(cache);
}

/* Called with kernels_lock held. */
static int cache_of(usmarr_context_t *ctx, struct usmarr__kernel_cache **out)
{
    if (!ctx->kernels) {
        struct usmarr__kernel_cache *c = calloc(1, sizeof *c);
        if (!c)
            return usmarr__fail(USMARR_ERROR_OUT_OF_HOST_MEMORY, "kernel cache");
        if (cnd_init(&c->built) != thrd_success) {
            free(c);
            return usmarr__fail(USMARR_ERROR_OUT_OF_HOST_MEMORY, "kernel cache condition");
        }
        c->cl = ctx->cl;
        c->blocking_free = ctx->usm.blocking_free;
        ctx->kernels = c;
    }
    *out = ctx->kernels;
    return 0;
}

/* Builds `p` (outside the lock): disk cache, else source.  Sets p->program or returns an
 * error with the detail recorded. */
static int program_build(usmarr_context_t *ctx, struct program *p, bool *loaded)
{
    struct usmarr__program_key key = {p->source, strlen(p->source), p->options, ctx->platform, ctx->device};
    unsigned char *binary = NULL;
    size_t size = 0;
    cl_int err;
    *loaded = false;
    if (usmarr__diskcache_load(&key, &binary, &size) == 0) {
        double t0 = now_ms();
        const unsigned char *bins[1] = {binary};
        cl_int status = CL_SUCCESS;
        cl_program prog = clCreateProgramWithBinary(ctx->cl, 1, &ctx->device, &size, bins, &status, &err);
        if (err == CL_SUCCESS && status == CL_SUCCESS)
            err = clBuildProgram(prog, 1, &ctx->device, p->options, NULL, NULL);
        else if (err == CL_SUCCESS)
            err = status;
        free(binary);
        if (err == CL_SUCCESS) {
            usmarr__diskcache_trace("build-binary", &key, now_ms() - t0);
            p->program = prog;
            *loaded = true;
            return 0;
        }
        if (prog)
            clReleaseProgram(prog);
        usmarr__diskcache_discard(&key);
    }
    double t0 = now_ms();
    const char *src = p->source;
    cl_program prog = clCreateProgramWithSource(ctx->cl, 1, &src, NULL, &err);
    if (err != CL_SUCCESS)
        return usmarr__cl_fail(err, "clCreateProgramWithSource");
    err = clBuildProgram(prog, 1, &ctx->device, p->options, NULL, NULL);
    if (err != CL_SUCCESS) {
        char log[700] = "";
        size_t n = 0;
        clGetProgramBuildInfo(prog, ctx->device, CL_PROGRAM_BUILD_LOG, sizeof log - 1, log, &n);
        if (n == 0) {
            /* The log is longer than the buffer: fetch it whole, keep the start. */
            clGetProgramBuildInfo(prog, ctx->device, CL_PROGRAM_BUILD_LOG, 0, NULL, &n);
            char *whole = n ? malloc(n) : NULL;
            if (whole && clGetProgramBuildInfo(prog, ctx->device, CL_PROGRAM_BUILD_LOG, n, whole, NULL) == CL_SUCCESS)
                snprintf(log, sizeof log, "%s", whole);
            free(whole);
        }
        clReleaseProgram(prog);
        return usmarr__fail(USMARR_ERROR_BUILD, "program %s (options \"%s\"): %s: %s", p->key, p->options,
                            usmarr_error_name(err), log);
    }
    usmarr__diskcache_trace("compile", &key, now_ms() - t0);
    p->program = prog;
    atomic_store(&p->store_pending, true);
    return 0;
}

/* What a program is made of: prelude + family [+ map], and for grouped maps one
 * instantiation per dtype of `vary_dtypes` given to the operands of `vary_mask`. */
struct recipe {
    const char *family;
    bool map;
    const char *options;
    unsigned vary_mask;
    uint32_t vary_dtypes;
};

static int append_text(char **buf, size_t *len, const char *text)
{
    size_t n = strlen(text);
    char *grown = realloc(*buf, *len + n + 1);
    if (!grown)
        return usmarr__fail(USMARR_ERROR_OUT_OF_HOST_MEMORY, "kernel source");
    memcpy(grown + *len, text, n + 1);
    *len += n;
    *buf = grown;
    return 0;
}

static int make_source(const struct recipe *r, char **source)
{
    size_t len = 0;
    int rc = append_source(source, &len, "prelude");
    if (rc || !r->vary_mask) {
        if (!rc)
            rc = append_source(source, &len, r->family);
        if (!rc && r->map)
            rc = append_source(source, &len, "map");
        return rc;
    }
    for (int d = 0; d <= USMARR__BITS128 && !rc; d++) {
        if (!(r->vary_dtypes & (1u << d)))
            continue;
        char defs[512];
        int n = snprintf(defs, sizeof defs, "#define USMARR_VARIANT %s\n", usmarr__dtype_tag(d));
        for (int k = 0; k < USMARR__MAX_OPERANDS; k++)
            if (r->vary_mask & (1u << k))
                n += snprintf(defs + n, sizeof defs - (size_t)n, "#define D%d %s\n", k, usmarr__dtype_tag(d));
        rc = append_text(source, &len, defs);
        if (!rc)
            rc = append_source(source, &len, r->family);
        if (!rc)
            rc = append_source(source, &len, "map");
        n = snprintf(defs, sizeof defs, "#undef USMARR_VARIANT\n#undef USMARR_MAP_BODY\n#undef USMARR_MAP_VBODY\n");
        for (int k = 0; k < USMARR__MAX_OPERANDS; k++)
            if (r->vary_mask & (1u << k))
                n += snprintf(defs + n, sizeof defs - (size_t)n, "#undef D%d\n", k);
        if (!rc)
            rc = append_text(source, &len, defs);
    }
    return rc;
}

/* The program of a recipe, single-flight.  Returns it READY or an error. */
static int program_get(usmarr_context_t *ctx, const struct recipe *r, struct program **out)
{
    const char *family = r->family, *options = r->options;
    size_t klen = strlen(family) + strlen(options) + 40;
    char stack_key[512];
    char *key = klen <= sizeof stack_key ? stack_key : malloc(klen);
    if (!key)
        return usmarr__fail(USMARR_ERROR_OUT_OF_HOST_MEMORY, "kernel key");
    snprintf(key, klen, "%s\001%s\001%s\001%x:%x", family, r->map ? "map" : "", options, r->vary_mask,
             (unsigned)r->vary_dtypes);
    uint64_t h = hash_string(key);
    int rc = 0;
    mtx_lock(&ctx->kernels_lock);
    struct usmarr__kernel_cache *cache = NULL;
    rc = cache_of(ctx, &cache);
    if (rc)
        goto unlock;
    struct program **bucket = &cache->buckets[h % CACHE_BUCKETS];
    struct program *p;
    for (p = *bucket; p; p = p->next)
        if (p->hash == h && !strcmp(p->key, key))
            break;
    if (p) {
        while (p->state == PROGRAM_BUILDING)
            cnd_wait(&cache->built, &ctx->kernels_lock);
        if (p->state != PROGRAM_RETRY) {
            if (p->state == PROGRAM_FAILED)
                rc = usmarr__fail(p->error, "%s", p->error_detail ? p->error_detail : "kernel build failed");
            else
                cache->stats.memory_hits++;
            *out = p;
            goto unlock;
        }
        p->state = PROGRAM_BUILDING; /* this asker builds it again */
    } else {
        /* First asker: insert a BUILDING entry, build outside the lock. */
        p = calloc(1, sizeof *p);
        if (!p || !(p->key = strdup(key))) {
            free(p);
            rc = usmarr__fail(USMARR_ERROR_OUT_OF_HOST_MEMORY, "program entry");
            goto unlock;
        }
        p->hash = h;
        p->state = PROGRAM_BUILDING;
        atomic_init(&p->store_pending, false);
        p->next = *bucket;
        *bucket = p;
    }
    mtx_unlock(&ctx->kernels_lock);

    rc = make_source(r, &p->source);
    if (!rc && !(p->options = strdup(options)))
        rc = usmarr__fail(USMARR_ERROR_OUT_OF_HOST_MEMORY, "build options");
    bool loaded = false;
    if (!rc)
        rc = program_build(ctx, p, &loaded);

    mtx_lock(&ctx->kernels_lock);
    if (rc == USMARR_ERROR_OUT_OF_HOST_MEMORY || rc == CL_OUT_OF_HOST_MEMORY || rc == CL_OUT_OF_RESOURCES) {
        p->state = PROGRAM_RETRY;
        free(p->source), p->source = NULL;
        free(p->options), p->options = NULL;
    } else if (rc) {
        p->state = PROGRAM_FAILED;
        p->error = rc;
        p->error_detail = strdup(usmarr_last_error_detail());
    } else {
        p->state = PROGRAM_READY;
        if (loaded)
            cache->stats.loaded++;
        else
            cache->stats.compiled++;
    }
    cnd_broadcast(&cache->built);
    *out = p;
unlock:
    mtx_unlock(&ctx->kernels_lock);
    if (key != stack_key)
        free(key);
    return rc;
}

static int kernel_of(usmarr_context_t *ctx, struct program *p, const char *name, usmarr__kernel_t **out)
{
    int rc = 0;
    mtx_lock(&ctx->kernels_lock);
    struct usmarr__kernel *k;
    for (k = p->kernels; k; k = k->next)
        if (!strcmp(k->name, name))
            break;
    if (!k) {
        cl_int err;
        cl_kernel kernel = clCreateKernel(p->program, name, &err);
        if (err != CL_SUCCESS) {
            rc = err == CL_INVALID_KERNEL_NAME
                     ? usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "kernel_name=\"%s\" is not in program %s", name,
                                    p->key)
                     : usmarr__cl_fail(err, "clCreateKernel");
            goto unlock;
        }
        size_t n = strlen(name) + 1;
        k = malloc(sizeof *k + n);
        if (!k) {
            clReleaseKernel(kernel);
            rc = usmarr__fail(USMARR_ERROR_OUT_OF_HOST_MEMORY, "kernel entry");
            goto unlock;
        }
        k->kernel = kernel;
        k->program = p;
        memcpy(k->name, name, n);
        k->next = p->kernels;
        p->kernels = k;
    }
    *out = k;
unlock:
    mtx_unlock(&ctx->kernels_lock);
    return rc;
}

static int kernel_get(usmarr_context_t *ctx, const struct recipe *r, const char *name, usmarr__kernel_t **out)
{
    struct program *p;
    int rc = program_get(ctx, r, &p);
    return rc ? rc : kernel_of(ctx, p, name, out);
}

int usmarr__kernel_get(usmarr_context_t *ctx, const char *family, const char *defines, const char *kernel_name,
                       usmarr__kernel_t **out)
{
    if (!ctx || !family || !kernel_name || !out)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "usmarr__kernel_get: NULL argument");
    struct recipe r = {family, false, defines ? defines : "", 0, 0};
    return kernel_get(ctx, &r, kernel_name, out);
}

cl_kernel usmarr__kernel_cl(const usmarr__kernel_t *k) { return k->kernel; }

void usmarr__queue_lock(usmarr_context_t *ctx) { mtx_lock(&ctx->queue_lock); }
void usmarr__queue_unlock(usmarr_context_t *ctx) { mtx_unlock(&ctx->queue_lock); }

int usmarr__kernel_arg(usmarr__kernel_t *k, cl_uint index, size_t size, const void *value)
{
    cl_int err = clSetKernelArg(k->kernel, index, size, value);
    if (err != CL_SUCCESS)
        return usmarr__fail(err, "clSetKernelArg(%s, %u, %zu bytes): %s", k->name, index, size,
                            usmarr_error_name(err));
    return 0;
}

int usmarr__kernel_arg_pointer(usmarr_context_t *ctx, usmarr__kernel_t *k, cl_uint index, const void *pointer)
{
    cl_int err = ctx->usm.set_kernel_arg_pointer(k->kernel, index, pointer);
    if (err != CL_SUCCESS)
        return usmarr__fail(err, "clSetKernelArgMemPointerINTEL(%s, %u, %p): %s", k->name, index, pointer,
                            usmarr_error_name(err));
    return 0;
}

/* Stores the binary of a program compiled from source, once, after its first launch. */
static void store_binary(usmarr_context_t *ctx, struct program *p)
{
    /* Taking the binary makes PoCL compile every kernel of the program: only when it is
     * going to be stored. */
    if (usmarr__diskcache_mode() != USMARR_CACHE_ON || clFinish(ctx->queue) != CL_SUCCESS)
        return;
    size_t size = 0;
    if (clGetProgramInfo(p->program, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL) != CL_SUCCESS || !size)
        return;
    unsigned char *binary = malloc(size);
    unsigned char *bins[1] = {binary};
    if (binary && clGetProgramInfo(p->program, CL_PROGRAM_BINARIES, sizeof bins, bins, NULL) == CL_SUCCESS) {
        struct usmarr__program_key key = {p->source, strlen(p->source), p->options, ctx->platform, ctx->device};
        usmarr__diskcache_store(&key, binary, size);
    }
    free(binary);
}

int usmarr__kernel_enqueue(usmarr_context_t *ctx, usmarr__kernel_t *k, cl_uint work_dim, const size_t *global,
                           const size_t *local)
{
    cl_int err = clEnqueueNDRangeKernel(ctx->queue, k->kernel, work_dim, NULL, global, local, 0, NULL, NULL);
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
    if (atomic_load_explicit(&k->program->store_pending, memory_order_relaxed) &&
        atomic_exchange(&k->program->store_pending, false))
        store_binary(ctx, k->program);
    return 0;
}

void usmarr__engine_stats(usmarr_context_t *ctx, struct usmarr__engine_stats *stats)
{
    memset(stats, 0, sizeof *stats);
    mtx_lock(&ctx->kernels_lock);
    if (ctx->kernels) {
        *stats = ctx->kernels->stats;
        stats->launches = atomic_load_explicit(&ctx->kernels->launches, memory_order_relaxed);
    }
    mtx_unlock(&ctx->kernels_lock);
}

/* ---- maps -------------------------------------------------------------------------------- */

struct usmarr__map usmarr__map_init(const char *family, const char *defines, int nout, int nin)
{
    struct usmarr__map m;
    memset(&m, 0, sizeof m);
    m.family = family;
    m.defines = defines;
    m.nout = nout;
    m.nin = nin;
    return m;
}

int usmarr__operand_from_array(const usmarr_array_t *a, int ndim, const int64_t *shape, struct usmarr__operand *op)
{
    if (a->ndim > ndim)
        return usmarr__fail(USMARR_ERROR_SHAPE_MISMATCH, "an array of %d dims does not broadcast to %d dims",
                            a->ndim, ndim);
    int lead = ndim - a->ndim;
    for (int d = 0; d < ndim; d++) {
        if (d < lead) {
            op->strides[d] = 0;
            continue;
        }
        int64_t n = a->shape[d - lead];
        if (n == shape[d])
            op->strides[d] = a->strides[d - lead];
        else if (n == 1)
            op->strides[d] = 0;
        else
            return usmarr__fail(USMARR_ERROR_SHAPE_MISMATCH,
                                "shape[%d]=%lld does not broadcast to %lld (dim %d of the target)", d - lead,
                                (long long)n, (long long)shape[d], d);
    }
    op->dtype = a->dtype;
    op->data = a->memory->pointer ? (char *)a->memory->pointer + a->offset * (int64_t)usmarr_dtype_size(a->dtype)
                                  : NULL;
    return 0;
}

int usmarr__scalar_arg_set(struct usmarr__scalar_arg *arg, int dtype, const usmarr_scalar_t *value)
{
    memset(arg, 0, sizeof *arg);
    arg->dtype = dtype;
    if (dtype < 0 || dtype >= (int)USMARR_DTYPE_COUNT)
        return usmarr__fail(USMARR_ERROR_BAD_DTYPE, "scalar dtype=%d is not a usmarr_dtype_t", dtype);
    int rc = usmarr__scalar_store(*value, (usmarr_dtype_t)dtype, arg->bytes, "scalar");
    if (rc)
        return rc;
    arg->size = usmarr_dtype_size((usmarr_dtype_t)dtype);
    if (dtype == USMARR_FLOAT16) { /* kernels take float16 scalars as float */
        uint16_t h;
        memcpy(&h, arg->bytes, sizeof h);
        float f = (float)usmarr__half_to_double(h);
        memcpy(arg->bytes, &f, sizeof f);
        arg->size = sizeof f;
    }
    return 0;
}

enum map_class { CLASS_CONTIG, CLASS_TILE, CLASS_S1, CLASS_S2, CLASS_S3, CLASS_S8, CLASS_S16, CLASS_SBIG, CLASS_S2W };
static const char *const class_kernel[] = {"usmarr_map_contig", "usmarr_map_tile", "usmarr_map_s1",
                                           "usmarr_map_s2",     "usmarr_map_s3",   "usmarr_map_s8",
                                           "usmarr_map_s16",    "usmarr_map_sbig", "usmarr_map_s2w"};

static int64_t abs64(int64_t v) { return v < 0 ? -v : v; }

/* The tiled class pays off on Intel's CPU runtime but not on PoCL's CPU device, where a
 * 16x16 work-group of the plain 2-D kernel already blocks the accesses and runs the
 * 4096^2 float32 transpose ~1.4-2x faster than the local-memory tile (doc/benchmarks.md). */
static bool tile_pays_off(const usmarr_context_t *ctx)
{
    return !strstr(ctx->info.platform_name, "Portable Computing Language");
}

static enum map_class choose_class(const usmarr_context_t *ctx, const struct usmarr__map *m,
                                   const struct usmarr__iter *it)
{
    int nops = it->nops;
    if (it->ndim == 0)
        return CLASS_CONTIG;
    if (it->ndim == 1) {
        bool contig = true;
        for (int k = 0; k < nops; k++)
            contig &= it->strides[k][0] == 1;
        return contig ? CLASS_CONTIG : CLASS_S1;
    }
    if (it->ndim == 2) {
        /* Transposes: the input's fastest axis is the output's slower one. */
        if (m->nout == 1 && m->nin == 1 && !(m->flags & USMARR__MAP_NO_TILE) && tile_pays_off(ctx) && it->shape[0] >= 16 &&
            it->shape[1] >= 16 && it->strides[1][0] != 0 && abs64(it->strides[1][0]) < abs64(it->strides[1][1]))
            return CLASS_TILE;
        /* Long rows that every operand walks contiguously (or broadcasts): wide groups. */
        bool rows = it->shape[1] >= 128;
        for (int k = 0; k < nops; k++)
            rows &= abs64(it->strides[k][1]) <= 1;
        return rows ? CLASS_S2W : CLASS_S2;
    }
    if (it->ndim == 3)
        return CLASS_S3;
    if (it->ndim <= 8)
        return CLASS_S8;
    if (it->ndim <= 16)
        return CLASS_S16;
    return CLASS_SBIG;
}

static int check_map(const struct usmarr__map *m)
{
    if (!m->family)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "map family is NULL");
    if (m->nout < 1 || m->nin < 0 || m->nout + m->nin > USMARR__MAX_OPERANDS)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "map nout=%d nin=%d: need nout >= 1 and at most %d operands",
                            m->nout, m->nin, USMARR__MAX_OPERANDS);
    if (m->nscalars < 0 || m->nscalars > USMARR__MAX_SCALARS)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "map nscalars=%d outside [0, %d]", m->nscalars,
                            USMARR__MAX_SCALARS);
    if (m->ndim < 0 || m->ndim > USMARR_MAX_NDIM)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "map ndim=%d outside [0, %d]", m->ndim, USMARR_MAX_NDIM);
    for (int k = 0; k < m->nout + m->nin; k++)
        if (!usmarr__dtype_tag(m->operands[k].dtype))
            return usmarr__fail(USMARR_ERROR_BAD_DTYPE, "map operand %d: dtype=%d", k, m->operands[k].dtype);
    for (int j = 0; j < m->nscalars; j++)
        if (!usmarr__dtype_tag(m->scalars[j].dtype))
            return usmarr__fail(USMARR_ERROR_BAD_DTYPE, "map scalar %d: dtype=%d", j, m->scalars[j].dtype);
    if (m->vary_mask) {
        int first = -1;
        for (int k = 0; k < m->nout + m->nin; k++) {
            if (!(m->vary_mask & (1u << k)))
                continue;
            if (first < 0)
                first = k;
            if (m->operands[k].dtype != m->operands[first].dtype || !(m->vary_dtypes & (1u << m->operands[k].dtype)))
                return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT,
                                    "map vary_mask=%#x: operand %d has dtype %d, not operand %d's or outside "
                                    "vary_dtypes=%#x",
                                    m->vary_mask, k, m->operands[k].dtype, first, (unsigned)m->vary_dtypes);
        }
        if (first < 0 || (m->vary_mask >> (m->nout + m->nin)))
            return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "map vary_mask=%#x names no or missing operands",
                                m->vary_mask);
    }
    return 0;
}

static void map_iter(const struct usmarr__map *m, struct usmarr__iter *it)
{
    it->ndim = m->ndim;
    it->nops = m->nout + m->nin;
    memcpy(it->shape, m->shape, sizeof(int64_t) * (size_t)m->ndim);
    for (int k = 0; k < it->nops; k++) {
        memcpy(it->strides[k], m->operands[k].strides, sizeof(int64_t) * (size_t)m->ndim);
        it->offsets[k] = 0;
    }
    usmarr__simplify(it);
}

const char *usmarr__map_class(usmarr_context_t *ctx, const struct usmarr__map *m)
{
    if (check_map(m))
        return NULL;
    struct usmarr__iter it;
    map_iter(m, &it);
    return class_kernel[choose_class(ctx, m, &it)];
}

/* Work-group sizes are fixed per class (reqd_work_group_size in cl/map.cl): PoCL compiles
 * a work-group function per local size (~0.1-0.2 s each), so sizes that followed the
 * shape would cost a compile for every new shape. */
static void wg16x16(size_t *local)
{
    local[0] = 16;
    local[1] = 16;
}

static size_t round_up(int64_t n, size_t m) { return ((size_t)n + m - 1) / m * m; }

/* The 17+-dim class's metadata block: host USM, grown as needed, reused (the launch
 * finishes before the lock is released, so it is never overwritten while in use). */
static int scratch_reserve(usmarr_context_t *ctx, size_t bytes, void **out)
{
    mtx_lock(&ctx->kernels_lock);
    struct usmarr__kernel_cache *c = ctx->kernels;
    int rc = 0;
    if (c->scratch_size < bytes) {
        cl_int err = CL_SUCCESS;
        void *p = ctx->usm.host_alloc(ctx->cl, NULL, bytes, 64, &err);
        if (!p || err != CL_SUCCESS) {
            rc = usmarr__fail(USMARR_ERROR_ALLOCATION, "host USM of %zu bytes for map metadata: %s", bytes,
                              usmarr_error_name(err));
        } else {
            if (c->scratch) /* the caller holds the queue lock: frees are serialised with enqueues */
                ctx->usm.blocking_free(ctx->cl, c->scratch);
            c->scratch = p;
            c->scratch_size = bytes;
        }
    }
    *out = c->scratch;
    mtx_unlock(&ctx->kernels_lock);
    return rc;
}

static bool fast_signature(const struct usmarr__map *m, int cls, struct fast_entry *e, unsigned *slot)
{
    size_t dl = m->defines ? strlen(m->defines) : 0, fl = strlen(m->family);
    if (dl >= sizeof e->defines || fl >= sizeof e->family)
        return false;
    memset(e, 0, sizeof *e);
    memcpy(e->family, m->family, fl);
    if (dl)
        memcpy(e->defines, m->defines, dl);
    e->counts[0] = m->nout;
    e->counts[1] = m->nin;
    e->counts[2] = m->nscalars;
    e->counts[3] = cls;
    uint64_t h = (uint64_t)fl * 31u + (unsigned char)e->family[0] + (unsigned)cls;
    for (int k = 0; k < m->nout + m->nin; k++) {
        e->dtypes[k] = m->operands[k].dtype;
        h = h * 131u + (unsigned)m->operands[k].dtype;
    }
    for (int j = 0; j < m->nscalars; j++) {
        e->dtypes[USMARR__MAX_OPERANDS + j] = m->scalars[j].dtype;
        h = h * 131u + (unsigned)m->scalars[j].dtype;
    }
    e->vary_mask = m->vary_mask;
    e->vary_dtypes = m->vary_dtypes;
    h = h * 131u + dl + (dl ? (unsigned char)e->defines[dl - 1] : 0);
    *slot = (unsigned)(h % FAST_SLOTS);
    return true;
}

static bool fast_equal(const struct fast_entry *a, const struct fast_entry *b)
{
    return a->kernel && !strcmp(a->family, b->family) &&
           !memcmp(a->counts, b->counts, sizeof a->counts) && !memcmp(a->dtypes, b->dtypes, sizeof a->dtypes) &&
           a->vary_mask == b->vary_mask && a->vary_dtypes == b->vary_dtypes && !strcmp(a->defines, b->defines);
}

static int map_kernel(usmarr_context_t *ctx, const struct usmarr__map *m, enum map_class cls, int nops,
                      usmarr__kernel_t **out)
{
    struct fast_entry sig;
    unsigned slot = 0;
    bool cacheable = fast_signature(m, (int)cls, &sig, &slot);
    if (cacheable) {
        /* ctx->kernels is read under the lock too: another thread's first launch may be
         * creating it right now. */
        mtx_lock(&ctx->kernels_lock);
        bool hit = ctx->kernels && fast_equal(&ctx->kernels->fast[slot], &sig);
        if (hit) {
            *out = ctx->kernels->fast[slot].kernel;
            ctx->kernels->stats.memory_hits++;
        }
        mtx_unlock(&ctx->kernels_lock);
        if (hit)
            return 0;
    }
    /* The key: family and its defines, counts and dtype tags (of the operands that do not
     * vary within the program).  Class, bucket and variant pick the kernel inside it. */
    char options[1024];
    int len = snprintf(options, sizeof options, "-DUSMARR_CLASS=%s -DUSMARR_NOUT=%d -DUSMARR_NIN=%d -DUSMARR_NSCALAR=%d",
                       class_kernel[cls] + strlen("usmarr_map_"), m->nout, m->nin, m->nscalars);
    int varying = -1;
    for (int k = 0; k < nops; k++) {
        if (m->vary_mask & (1u << k))
            varying = k;
        else
            len += snprintf(options + len, sizeof options - (size_t)len, " -DD%d=%s", k,
                            usmarr__dtype_tag(m->operands[k].dtype));
    }
    for (int j = 0; j < m->nscalars; j++)
        len += snprintf(options + len, sizeof options - (size_t)len, " -DS%d=%s", j,
                        usmarr__dtype_tag(m->scalars[j].dtype));
    if (m->defines && *m->defines)
        len += snprintf(options + len, sizeof options - (size_t)len, " %s", m->defines);
    if (len >= (int)sizeof options)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "map defines too long (%d bytes, limit %zu)", len,
                            sizeof options - 1);
    char name[64];
    if (varying >= 0)
        snprintf(name, sizeof name, "%s_%s", class_kernel[cls], usmarr__dtype_tag(m->operands[varying].dtype));
    else
        snprintf(name, sizeof name, "%s", class_kernel[cls]);
    struct recipe recipe = {m->family, true, options, m->vary_mask, m->vary_dtypes};
    int rc = kernel_get(ctx, &recipe, name, out);
    if (!rc && cacheable) {
        sig.kernel = *out;
        mtx_lock(&ctx->kernels_lock);
        ctx->kernels->fast[slot] = sig;
        mtx_unlock(&ctx->kernels_lock);
    }
    return rc;
}

int usmarr__map_launch(usmarr_context_t *ctx, const struct usmarr__map *m)
{
    int rc = check_map(m);
    if (rc)
        return rc;
    int nops = m->nout + m->nin;
    struct usmarr__iter it;
    map_iter(m, &it);
    for (int d = 0; d < it.ndim; d++)
        if (it.shape[d] == 0)
            return 0;
    enum map_class cls = choose_class(ctx, m, &it);

    usmarr__kernel_t *k;
    rc = map_kernel(ctx, m, cls, nops, &k);
    if (rc)
        return rc;

    /* Operand pointers point at the first visited element after flips. */
    void *ptrs[USMARR__MAX_OPERANDS];
    for (int i = 0; i < nops; i++)
        ptrs[i] = (char *)m->operands[i].data +
                  it.offsets[i] * (int64_t)usmarr__dtype_bytes(m->operands[i].dtype);

    size_t global[3] = {1, 1, 1}, local[3] = {1, 1, 1};
    cl_uint work_dim = 1;
    void *meta = NULL;
    usmarr__queue_lock(ctx);
    /* Reserved under the queue lock: another thread may grow (free) the block otherwise. */
    if (cls == CLASS_SBIG)
        rc = scratch_reserve(ctx, sizeof(int64_t) * (size_t)it.ndim * (size_t)(nops + 1), &meta);
    cl_uint arg = 0;
    for (int i = 0; i < nops && !rc; i++)
        rc = usmarr__kernel_arg_pointer(ctx, k, arg++, ptrs[i]);
    switch (cls) {
    case CLASS_CONTIG: {
        cl_long n = it.ndim == 0 ? 1 : it.shape[0];
        if (!rc)
            rc = usmarr__kernel_arg(k, arg++, sizeof n, &n);
        local[0] = 64;
        global[0] = round_up((n + 15) / 16, local[0]);
        break;
    }
    case CLASS_S1: {
        cl_long n = it.shape[0];
        if (!rc)
            rc = usmarr__kernel_arg(k, arg++, sizeof n, &n);
        for (int i = 0; i < nops && !rc; i++) {
            cl_long t = it.strides[i][0];
            rc = usmarr__kernel_arg(k, arg++, sizeof t, &t);
        }
        local[0] = 256;
        global[0] = round_up(n, local[0]);
        break;
    }
    case CLASS_S2:
    case CLASS_S2W:
    case CLASS_TILE: {
        cl_long2 sh = {{it.shape[0], it.shape[1]}};
        if (!rc)
            rc = usmarr__kernel_arg(k, arg++, sizeof sh, &sh);
        for (int i = 0; i < nops && !rc; i++) {
            cl_long2 t = {{it.strides[i][0], it.strides[i][1]}};
            rc = usmarr__kernel_arg(k, arg++, sizeof t, &t);
        }
        work_dim = 2;
        if (cls == CLASS_TILE) {
            local[0] = 32;
            local[1] = 8;
            global[0] = round_up(it.shape[1], 32);
            global[1] = round_up(it.shape[0], 32) / 4;
        } else {
            if (cls == CLASS_S2W) { /* reqd_work_group_size of usmarr_map_s2w */
                local[0] = 128;
                local[1] = 2;
            } else {
                wg16x16(local);
            }
            global[0] = round_up(it.shape[1], local[0]);
            global[1] = round_up(it.shape[0], local[1]);
        }
        break;
    }
    case CLASS_S3: {
        cl_long4 sh = {{it.shape[0], it.shape[1], it.shape[2], 1}};
        if (!rc)
            rc = usmarr__kernel_arg(k, arg++, sizeof sh, &sh);
        for (int i = 0; i < nops && !rc; i++) {
            cl_long4 t = {{it.strides[i][0], it.strides[i][1], it.strides[i][2], 0}};
            rc = usmarr__kernel_arg(k, arg++, sizeof t, &t);
        }
        work_dim = 3;
        local[0] = 16;
        local[1] = 4;
        local[2] = 4;
        global[0] = round_up(it.shape[2], local[0]);
        global[1] = round_up(it.shape[1], local[1]);
        global[2] = round_up(it.shape[0], local[2]);
        break;
    }
    case CLASS_S8:
    case CLASS_S16:
    case CLASS_SBIG: {
        cl_int nd = it.ndim;
        if (!rc)
            rc = usmarr__kernel_arg(k, arg++, sizeof nd, &nd);
        if (cls == CLASS_SBIG) {
            int64_t *meta64 = meta;
            for (int i = -1; i < nops && meta64; i++)
                memcpy(meta64 + (size_t)nd * (size_t)(i + 1), i < 0 ? it.shape : it.strides[i],
                       sizeof(int64_t) * (size_t)nd);
            if (!rc)
                rc = usmarr__kernel_arg_pointer(ctx, k, arg++, meta);
        } else {
            int w = cls == CLASS_S8 ? 8 : 16;
            cl_long16 v; /* long8 is the first half of the same bytes */
            for (int d = 0; d < 16; d++)
                v.s[d] = d < nd ? it.shape[d] : 1;
            if (!rc)
                rc = usmarr__kernel_arg(k, arg++, sizeof(cl_long) * (size_t)w, &v);
            for (int i = 0; i < nops && !rc; i++) {
                for (int d = 0; d < 16; d++)
                    v.s[d] = d < nd ? it.strides[i][d] : 0;
                rc = usmarr__kernel_arg(k, arg++, sizeof(cl_long) * (size_t)w, &v);
            }
        }
        int64_t outer = 1;
        for (int d = 0; d < nd - 2; d++)
            outer *= it.shape[d];
        work_dim = 3;
        wg16x16(local);
        local[2] = 1;
        global[0] = round_up(it.shape[nd - 1], local[0]);
        global[1] = round_up(it.shape[nd - 2], local[1]);
        global[2] = (size_t)outer;
        break;
    }
    }
    for (int j = 0; j < m->nscalars && !rc; j++)
        rc = usmarr__kernel_arg(k, arg++, m->scalars[j].size, m->scalars[j].bytes);
    if (!rc)
        rc = usmarr__kernel_enqueue(ctx, k, work_dim, global, local);
    if (!rc && cls == CLASS_SBIG) {
        cl_int err = clFinish(ctx->queue);
        if (err != CL_SUCCESS)
            rc = usmarr__cl_fail(err, "clFinish");
    }
    usmarr__queue_unlock(ctx);
    return rc;
}
