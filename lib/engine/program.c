/* The kernel engine: per-context program cache (memory -> disk -> source) and kernels.
 * Their arguments and launches are launch.c, the strided map launcher map.c.  Contract:
 * engine_internal.h. */
#include "engine_internal.h"
#include "diskcache.h"
#include "program_cache.h"


#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* True when USMARR_BUILD_LOG=1 (read once): builds keep their warnings and print their
 * logs to stderr (doc/engine.md).  Otherwise every build gets -w and prints nothing. */
static bool build_log_wanted(void);

/* ---- dtype tags ------------------------------------------------------------------------ */

static const char *const dtype_tags[] = {"b",   "i8",  "i16", "i32", "i64", "u8",  "u16", "u32",
                                         "u64", "f16", "f32", "f64", "c64", "c128", "x128"};
static const size_t dtype_bytes[] = {1, 1, 2, 4, 8, 1, 2, 4, 8, 2, 4, 8, 8, 16, 16};

const char *usmarr__dtype_tag(int dtype)
{
    return dtype >= 0 && dtype <= USMARR__BITS128 ? dtype_tags[dtype] : NULL;
}

size_t usmarr__dtype_bytes(int dtype) { return dtype >= 0 && dtype <= USMARR__BITS128 ? dtype_bytes[dtype] : 0; }

bool usmarr__dtype_vector_ok(int dtype)
{
    return dtype >= 0 && dtype < USMARR__BITS128 && dtype != USMARR_BOOL &&
           usmarr_dtype_kind((usmarr_dtype_t)dtype) != USMARR_KIND_COMPLEX;
}

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
    usmarr__diskcache_compile_unlock(p->lock_fd, p->lock_path);
    free(p->key);
    free(p->source);
    free(p->options);
    free(p->error_detail);
    free(p);
}

static void stores_take(struct usmarr__kernel_cache *cache, bool all);

/* The context's queue has been finished: every program still waiting is stored. */
static void kernel_cache_destroy(struct usmarr__kernel_cache *cache)
{
    if (!cache)
        return;
    stores_take(cache, true);
    for (int b = 0; b < CACHE_BUCKETS; b++) {
        for (struct program *p = cache->buckets[b], *next; p; p = next) {
            next = p->next;
            program_free(p);
        }
    }
    if (cache->standin)
        cache->blocking_free(cache->cl, cache->standin);
    cnd_destroy(&cache->built);
    mtx_destroy(&cache->waits_lock);
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
        if (mtx_init(&c->waits_lock, mtx_plain) != thrd_success) {
            cnd_destroy(&c->built);
            free(c);
            return usmarr__fail(USMARR_ERROR_OUT_OF_HOST_MEMORY, "kernel cache lock");
        }
        c->cl = ctx->cl;
        c->blocking_free = ctx->usm.blocking_free;
        ctx->kernels = c;
        ctx->kernels_free = kernel_cache_destroy;
    }
    *out = ctx->kernels;
    return 0;
}

/* USMARR_BUILD_LOG=1 (read once): warnings stay on and every build from source prints its
 * log to stderr.  Otherwise the compilers are told to keep quiet (-w): PoCL's clang
 * prints "N warnings generated." straight to the process's stderr, past the build log. */
static atomic_int build_log = -1;

static bool build_log_wanted(void) { return usmarr__env_switch(&build_log, "USMARR_BUILD_LOG"); }

/* The program's build log (malloc'd, "" when there is none; NULL when out of memory). */
static char *build_log_of(cl_program prog, cl_device_id device)
{
    size_t n = 0;
    if (clGetProgramBuildInfo(prog, device, CL_PROGRAM_BUILD_LOG, 0, NULL, &n) != CL_SUCCESS)
        n = 0;
    char *log = malloc(n + 1);
    if (log && (!n || clGetProgramBuildInfo(prog, device, CL_PROGRAM_BUILD_LOG, n, log, NULL) != CL_SUCCESS))
        n = 0;
    if (log) {
        log[n] = '\0';
        while (n && (log[n - 1] == '\n' || log[n - 1] == ' ' || log[n - 1] == '\0'))
            log[--n] = '\0';
    }
    return log;
}

/* The family part of a program's in-memory key ("family\001map\001options..."), for messages. */
static int family_length(const struct program *p) { return (int)strcspn(p->key, "\001"); }

static void print_build_log(const struct program *p, cl_program prog, cl_device_id device, double ms)
{
    char *log = build_log_of(prog, device);
    fprintf(stderr, "usmarr-build: program %.*s (options \"%s\"), %.1f ms%s\n%s%s", family_length(p), p->key,
            p->options, ms,
            log && *log ? ":" : ", empty log", log ? log : "", log && *log ? "\n" : "");
    free(log);
}

/* The options given to the compiler: the recipe's; float division and square root
 * correctly rounded (as NumPy's) where the device can (OpenCL's default allows 2.5 and
 * 3 ulp, and NVIDIA's GPUs use it); and -w unless the logs are wanted (the disk key holds
 * this final string). */
static char *effective_options(const usmarr_context_t *ctx, const char *options)
{
    const char *exact = ctx->profile.exact_divide ? "-cl-fp32-correctly-rounded-divide-sqrt" : "";
    const char *quiet = build_log_wanted() ? "" : "-w";
    size_t n = strlen(options) + strlen(exact) + strlen(quiet) + 3;
    char *s = malloc(n);
    if (s)
        snprintf(s, n, "%s%s%s%s%s", options, *options && *exact ? " " : "", exact,
                 (*options || *exact) && *quiet ? " " : "", quiet);
    return s;
}

static void release_lock(struct program *p)
{
    usmarr__diskcache_compile_unlock(p->lock_fd, p->lock_path);
    p->lock_fd = -1;
    p->lock_path = NULL;
}

/* Builds `p` from a binary of the disk cache: 0, or non-zero when there is none or it
 * does not build (then it is discarded). */
static int program_from_binary(usmarr_context_t *ctx, struct program *p, const struct usmarr__program_key *key)
{
    unsigned char *binary = NULL;
    size_t size = 0;
    if (usmarr__diskcache_load(key, &binary, &size) != 0)
        return -1;
    double t0 = now_ms();
    const unsigned char *bins[1] = {binary};
    cl_int status = CL_SUCCESS, err;
    cl_program prog = clCreateProgramWithBinary(ctx->cl, 1, &ctx->device, &size, bins, &status, &err);
    if (err == CL_SUCCESS && status == CL_SUCCESS)
        err = clBuildProgram(prog, 1, &ctx->device, p->options, NULL, NULL);
    else if (err == CL_SUCCESS)
        err = status;
    free(binary);
    if (err == CL_SUCCESS) {
        usmarr__diskcache_trace("build-binary", key, now_ms() - t0);
        p->program = prog;
        return 0;
    }
    if (prog)
        clReleaseProgram(prog);
    usmarr__diskcache_discard(key);
    return -1;
}

/* Stores the binary of a program compiled from source in the disk cache and releases its
 * compile lock (if still held). */
static void program_store(usmarr_context_t *ctx, struct program *p)
{
    /* Taking the binary can cost a compile (PoCL as Debian ships it compiles every kernel
     * of the program once more; doc/engine.md): only when it is going to be stored. */
    size_t size = 0;
    if (usmarr__diskcache_mode() == USMARR_CACHE_ON &&
        clGetProgramInfo(p->program, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL) == CL_SUCCESS && size) {
        unsigned char *binary = malloc(size);
        unsigned char *bins[1] = {binary};
        if (binary && clGetProgramInfo(p->program, CL_PROGRAM_BINARIES, sizeof bins, bins, NULL) == CL_SUCCESS) {
            struct usmarr__program_key key = {p->source, strlen(p->source), p->options, ctx->platform, ctx->device};
            usmarr__diskcache_store(&key, binary, size);
        }
        free(binary);
    }
    release_lock(p); /* other processes waiting for this program now find it */
}

static bool launch_complete(cl_event launch)
{
    cl_int status = CL_COMPLETE;
    return clGetEventInfo(launch, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL) != CL_SUCCESS ||
           status <= CL_COMPLETE; /* an error status counts as done: the binary is as built */
}

/* How long a first launch is waited for before its store is left to later polls: far
 * above a first launch's work-group compile (0.1-0.5 s on PoCL, seconds on a loaded
 * machine: another process waits for the compile lock meanwhile), below the compile
 * lock's own wait (120 s). */
#define LAUNCH_WAIT_MS 60000.0

/* Whether `launch` completes within LAUNCH_WAIT_MS, polled (clWaitForEvents cannot give up). */
static bool launch_wait(cl_event launch)
{
    double t0 = now_ms();
    long nap_ns = 20000;
    while (!launch_complete(launch)) {
        if (now_ms() - t0 > LAUNCH_WAIT_MS)
            return false;
        nanosleep(&(struct timespec){0, nap_ns}, NULL);
        nap_ns = nap_ns < 1000000 ? nap_ns * 2 : nap_ns;
    }
    return true;
}

/* The launch is not waited for where the application holds the queue: behind its own
 * events (usmarr_queue_wait: ctx->app_wait not complete yet) that it may set only after
 * this call returns, a wait would never end; and otherwise for LAUNCH_WAIT_MS at most (a
 * queue held by other means).  Past the wait the compile lock is released (program_build
 * says why it is never kept past the call: a process that asks meanwhile compiles the
 * program itself) and the store is left to usmarr__program_stores_poll.  Called with the
 * queue lock held. */
void usmarr__program_launched(usmarr_context_t *ctx, struct program *p, cl_event launch)
{
    struct usmarr__kernel_cache *cache = ctx->kernels;
    if (launch) {
        clFlush(usmarr__queue_of(ctx));
        bool held = ctx->app_wait && !launch_complete(ctx->app_wait);
        if (held || !launch_wait(launch)) {
            mtx_lock(&cache->waits_lock);
            int n = atomic_load(&cache->nwaits);
            if (n < STORE_WAITS_MAX) {
                cache->waits[n] = (struct store_wait){ctx, p, launch};
                atomic_store(&cache->nwaits, n + 1);
                release_lock(p);
                mtx_unlock(&cache->waits_lock);
                return;
            }
            mtx_unlock(&cache->waits_lock);
        }
        clReleaseEvent(launch);
    }
    program_store(ctx, p); /* completed, failed, or no room to wait: as it is now */
}

/* Takes the waits whose launch has completed (or all of them, `all`) out of the list, then
 * stores their programs outside its lock. */
static void stores_take(struct usmarr__kernel_cache *cache, bool all)
{
    struct store_wait done[STORE_WAITS_MAX];
    int ndone = 0, kept = 0;
    mtx_lock(&cache->waits_lock);
    int n = atomic_load(&cache->nwaits);
    for (int i = 0; i < n; i++) {
        if (all || launch_complete(cache->waits[i].launch))
            done[ndone++] = cache->waits[i];
        else
            cache->waits[kept++] = cache->waits[i];
    }
    atomic_store(&cache->nwaits, kept);
    mtx_unlock(&cache->waits_lock);
    for (int i = 0; i < ndone; i++) {
        program_store(done[i].ctx, done[i].p);
        clReleaseEvent(done[i].launch);
    }
}

void usmarr__program_stores_poll(usmarr_context_t *ctx)
{
    if (ctx->kernels && atomic_load_explicit(&ctx->kernels->nwaits, memory_order_relaxed))
        stores_take(ctx->kernels, false);
}

/* Programs compiled from source whose store waits for their first launch: those built
 * between usmarr__store_after_launch_begin() and _end() in this thread (at most
 * DEFERRED_MAX at once, beyond which a program is stored when built). */
enum { DEFERRED_MAX = 32 };
static _Thread_local int defer_depth;
static _Thread_local int ndeferred;
static _Thread_local struct deferred_store {
    usmarr_context_t *ctx;
    struct program *p;
} deferred[DEFERRED_MAX];

void usmarr__store_after_launch_begin(void) { defer_depth++; }

/* Stores, as built, what the region compiled and did not launch, releasing its locks. */
void usmarr__store_after_launch_end(void)
{
    if (--defer_depth > 0)
        return;
    for (int i = 0; i < ndeferred; i++)
        if (atomic_exchange(&deferred[i].p->store_pending, false))
            program_store(deferred[i].ctx, deferred[i].p);
    ndeferred = 0;
}

/* Whether `p`'s store can wait for its first launch in this thread's region: drops the
 * entries already stored, then adds `p` where there is room. */
static bool defer_store(usmarr_context_t *ctx, struct program *p)
{
    if (defer_depth <= 0)
        return false;
    int kept = 0;
    for (int i = 0; i < ndeferred; i++)
        if (atomic_load(&deferred[i].p->store_pending))
            deferred[kept++] = deferred[i];
    ndeferred = kept;
    if (ndeferred == DEFERRED_MAX)
        return false;
    deferred[ndeferred++] = (struct deferred_store){ctx, p};
    return true;
}

/* Builds `p` (outside the lock): disk cache, else source.  Sets p->program or returns an
 * error with the detail recorded.  A compile from source holds the disk cache's compile
 * lock until its binary is stored or, at the latest, its first launch is enqueued, so
 * that other processes asking for the same program wait for it instead of compiling it
 * too.  The binary is stored once the program's first launch has run where the caller
 * launches it before returning (a region of usmarr__store_after_launch_begin/_end): on
 * PoCL only that binary carries the work-group function the launch compiled (the driver
 * serialises a program's binary once, at the first request).  Everywhere else it is
 * stored right after the build, so that the lock is never held past the call: a process that returned to its caller holding it could
 * wait for the waiting process (MPI ranks meeting in a collective between building a
 * plan's kernel and launching it), and both would stall until the wait gave up. */
static int program_build(usmarr_context_t *ctx, struct program *p, bool *loaded)
{
    struct usmarr__program_key key = {p->source, strlen(p->source), p->options, ctx->platform, ctx->device};
    cl_int err;
    *loaded = program_from_binary(ctx, p, &key) == 0;
    if (*loaded)
        return 0;
    bool waited = false;
    int lock = usmarr__diskcache_compile_lock(&key, &p->lock_path, &waited);
    if (waited && program_from_binary(ctx, p, &key) == 0) {
        usmarr__diskcache_compile_unlock(lock, p->lock_path);
        p->lock_path = NULL;
        *loaded = true;
        return 0;
    }
    p->lock_fd = lock;
    double t0 = now_ms();
    const char *src = p->source;
    cl_program prog = clCreateProgramWithSource(ctx->cl, 1, &src, NULL, &err);
    if (err != CL_SUCCESS) {
        release_lock(p);
        return usmarr__cl_fail(err, "clCreateProgramWithSource");
    }
    err = clBuildProgram(prog, 1, &ctx->device, p->options, NULL, NULL);
    if (build_log_wanted())
        print_build_log(p, prog, ctx->device, now_ms() - t0);
    if (err != CL_SUCCESS) {
        char *log = build_log_of(prog, ctx->device);
        clReleaseProgram(prog);
        release_lock(p);
        int rc = usmarr__fail(USMARR_ERROR_BUILD, "program %.*s (options \"%s\"): %s: %s", family_length(p),
                              p->key, p->options,
                              usmarr_error_name(err), log ? log : "(no log: out of memory)");
        free(log);
        return rc;
    }
    usmarr__diskcache_trace("compile", &key, now_ms() - t0);
    p->program = prog;
    if (usmarr__diskcache_mode() == USMARR_CACHE_ON && strstr(ctx->info.platform_name, "Portable Computing Language") &&
        defer_store(ctx, p))
        atomic_store(&p->store_pending, true); /* the lock is kept until then */
    else
        program_store(ctx, p);
    return 0;
}

/* What a program is made of: prelude + family [+ map], and for grouped maps one
 * instantiation per dtype of `vary_dtypes` given to the operands of `vary_mask`. */

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

/* A family may name several sources joined by '+' ("complex+elementwise"), appended in order. */
static int append_family(char **buf, size_t *len, const char *family)
{
    char name[64];
    int rc = 0;
    for (const char *p = family; !rc && *p;) {
        size_t n = strcspn(p, "+");
        if (n >= sizeof name)
            return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "family=\"%s\": a part is longer than %zu", family,
                                sizeof name - 1);
        memcpy(name, p, n);
        name[n] = 0;
        rc = append_source(buf, len, name);
        p += n + (p[n] == '+');
    }
    return rc;
}

static int make_source(const struct recipe *r, char **source)
{
    size_t len = 0;
    int rc = append_source(source, &len, "prelude");
    if (!rc && r->parts) { /* a generated program: its parts in place of the family file */
        for (int i = 0; !rc && i < r->nparts; i++)
            rc = r->parts[i].family ? append_family(source, &len, r->parts[i].family)
                                    : append_text(source, &len, r->parts[i].text);
        if (!rc && r->map)
            rc = append_source(source, &len, "map");
        return rc;
    }
    if (rc || !r->vary_mask) {
        if (!rc)
            rc = append_family(source, &len, r->family);
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
            rc = append_family(source, &len, r->family);
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
    for (int i = 0; i < r->nparts; i++) /* a generated program's parts are part of its key */
        klen += 2 + strlen(r->parts[i].family ? r->parts[i].family : r->parts[i].text);
    char stack_key[512];
    char *key = klen <= sizeof stack_key ? stack_key : malloc(klen);
    if (!key)
        return usmarr__fail(USMARR_ERROR_OUT_OF_HOST_MEMORY, "kernel key");
    size_t kl = (size_t)snprintf(key, klen, "%s\001%s\001%s\001%x:%x", family, r->map ? "map" : "", options,
                                 r->vary_mask, (unsigned)r->vary_dtypes);
    for (int i = 0; i < r->nparts; i++)
        kl += (size_t)snprintf(key + kl, klen - kl, "\002%s%s", r->parts[i].family ? "@" : "",
                               r->parts[i].family ? r->parts[i].family : r->parts[i].text);
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
        p->lock_fd = -1;
        p->next = *bucket;
        *bucket = p;
    }
    mtx_unlock(&ctx->kernels_lock);

    rc = make_source(r, &p->source);
    if (!rc && !(p->options = effective_options(ctx, options)))
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
                     ? usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "kernel_name=\"%s\" is not in program %.*s", name,
                                    family_length(p), p->key)
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
        k->indirect = false;
        memset(k->args, 0, sizeof k->args);
        memcpy(k->name, name, n);
        k->next = p->kernels;
        p->kernels = k;
    }
    *out = k;
unlock:
    mtx_unlock(&ctx->kernels_lock);
    return rc;
}

int usmarr__recipe_kernel(usmarr_context_t *ctx, const struct recipe *r, const char *name,
                          usmarr__kernel_t **out)
{
    struct program *p;
    int rc = program_get(ctx, r, &p);
    return rc ? rc : kernel_of(ctx, p, name, out);
}

/* The group of a kernel (cl/prelude.cl, "kernel groups") into buf: the word after
 * "usmarr_" ("usmarr_sort_rows_net" -> "sort", "usmarr_unique_write" -> "unique"); for the
 * reductions (cl/reduce.cl's R_KEEP) "reduce_" and the reduction, one group for its flat
 * and tree kernels ("usmarr_reduce_tree_sum" -> "reduce_sum", "usmarr_reduce_sum_cols" ->
 * "reduce_sum_cols") and one for the cumulative kernels ("reduce_cumulative"). */
static void kernel_group(const char *kernel_name, char *buf, size_t size)
{
    const char *g = strncmp(kernel_name, "usmarr_", 7) ? kernel_name : kernel_name + 7;
    if (strncmp(g, "reduce_", 7)) {
        snprintf(buf, size, "%.*s", (int)strcspn(g, "_"), g);
        return;
    }
    g += 7;
    if (!strncmp(g, "tree_", 5))
        g += 5;
    snprintf(buf, size, "reduce_%.*s", (int)(strncmp(g, "cumulative_", 11) ? strlen(g) : 10), g);
}

int usmarr__kernel_get(usmarr_context_t *ctx, const char *family, const char *defines, const char *kernel_name,
                       usmarr__kernel_t **out)
{
    if (!ctx || !family || !kernel_name || !out)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "usmarr__kernel_get: NULL argument");
    /* One program per kernel group: the family's defines and the group's. */
    char group[64], stack_options[512];
    kernel_group(kernel_name, group, sizeof group);
#define GROUP_OPTIONS(buf, size)                                                                      \
    snprintf(buf, size, "%s%s-DUSMARR_GROUPED -DUSMARR_GROUP_%s=1", defines ? defines : "",          \
             defines && *defines ? " " : "", group)
    size_t n = (size_t)GROUP_OPTIONS(NULL, 0) + 1;
    char *options = n <= sizeof stack_options ? stack_options : malloc(n);
    if (!options)
        return usmarr__fail(USMARR_ERROR_OUT_OF_HOST_MEMORY, "kernel options");
    GROUP_OPTIONS(options, n);
#undef GROUP_OPTIONS
    struct recipe r = {family, false, options, 0, 0, NULL, 0};
    int rc = usmarr__recipe_kernel(ctx, &r, kernel_name, out);
    if (options != stack_options)
        free(options);
    return rc;
}

int usmarr__kernel_get_generated(usmarr_context_t *ctx, const char *family, const struct usmarr__source_part *parts,
                                 int nparts, const char *defines, const char *kernel_name, usmarr__kernel_t **out)
{
    if (!ctx || !family || !parts || nparts < 1 || !kernel_name || !out)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "usmarr__kernel_get_generated: NULL argument or no parts");
    struct recipe r = {family, false, defines ? defines : "", 0, 0, parts, nparts};
    return usmarr__recipe_kernel(ctx, &r, kernel_name, out);
}

/* NVIDIA's enqueue fails with CL_INVALID_KERNEL_ARGS after a NULL SVM pointer argument;
 * kernels never dereference the block that stands in for it. */
int usmarr__standin_pointer(usmarr_context_t *ctx, const void **pointer)
{
    mtx_lock(&ctx->kernels_lock);
    struct usmarr__kernel_cache *c;
    int rc = cache_of(ctx, &c);
    if (!rc && !c->standin) {
        cl_int err = CL_SUCCESS;
        c->standin = ctx->usm.device_alloc(ctx->cl, ctx->device, NULL, 64, 0, &err);
        if (!c->standin || err != CL_SUCCESS) {
            c->standin = NULL;
            rc = usmarr__fail(USMARR_ERROR_ALLOCATION, "device USM of 64 bytes for empty pointer arguments: %s",
                              usmarr_error_name(err));
        }
    }
    if (!rc)
        *pointer = c->standin;
    mtx_unlock(&ctx->kernels_lock);
    return rc;
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
