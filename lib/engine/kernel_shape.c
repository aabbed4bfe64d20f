/* Kernel shapes per device: the table of what was measured per driver, the profile's
 * limits, shapes as text, and the tuner's choice per device in the disk cache.
 *
 * A shape is written as its base name and every field that the tuner may change:
 *
 *      pocl-cpu contig=vec16/64 nt=8M rows=1 rowgroup=128x2 rowvec=64 copyvec=0 vecs=4 masks=1 tblock=1 tile=0 s2=32
 *      tree=0 ptrval=0
 *
 * (doc/engine.md, "Kernel shapes per device").  USMARR_KERNEL_SHAPE takes the same text,
 * whole or in part (a name, fields, or a name then fields), and the tuner stores it as the
 * payload of a disk-cache entry keyed like the programs (device, driver, library version),
 * so that every later context on that device starts with it. */
#include "engine_internal.h"
#include "diskcache.h"
#include "program_cache.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The table's shape of that name (not NUL-terminated: `length` bytes), or NULL. */
static const struct usmarr__kernel_shape *kernel_shape_named(const char *name, size_t length);

/* The device's tuned shape from the disk cache over *shape (origin "tuned"); false on a
 * miss (no entry, a corrupt one -- deleted --, one this library cannot read, cache off). */
static bool kernel_shape_load(cl_platform_id platform, cl_device_id device,
                              struct usmarr__kernel_shape *shape);

/* The device's profile and the context's kernel shape: what the engine's context hook
 * (below) fills in every new context.  The latter reads ctx->info and ctx->profile. */
static void device_profile_query(cl_device_id device, struct usmarr__device_profile *profile);
static void kernel_shape_choose(const usmarr_context_t *ctx, struct usmarr__kernel_shape *shape);

/* ---- kernel shapes per device ------------------------------------------------------------
 * Measured on the two CPU drivers at hand (doc/engine.md, "Kernel shapes per device"):
 * - PoCL 6.0: 16-vector loads and stores in groups of 64 is the fastest contiguous shape,
 *   four runs of 16 elements a work-item, and non-temporal stores beyond the caches (a
 *   64 MiB copy 2.5 against 3.5 ms with plain stores on a 2-core EPYC); its 16x16
 *   work-groups of the plain 2-D kernel beat the local-memory tile on transposes (~1.4-2x).
 * - Intel's CPU runtime vectorises across work-items itself: an explicit 16-vector per
 *   work-item stops that (and a run-time switch around vector bodies is not hoisted), so
 *   16M float32 add ran 57-110 ms in the PoCL shape and 8-10 ms with one element per
 *   work-item.  Strides it cannot see become gathers: compiling inner strides of 1 and 0
 *   into the kernel took a broadcast add from 18 to 8 ms and a[::2, ::3] from 9.7 to
 *   2.7 ms (with 128x2 groups), and a transpose ran 21-40 ms in 16x16 groups against
 *   77-125 ms through the tile; in 32x32 groups (a quarter as many groups to schedule)
 *   it took half the time of 16x16 on a Xeon with AVX-512.  Each USM pointer argument
 *   costs it about 0.7 us a launch (it ties the launch to the allocation), a third of a
 *   16-element add: its maps take their operands' addresses by value (ptrval).  Its
 *   non-temporal stores are fast only where its own vectoriser is told to leave the
 *   16-vector kernel alone (cl/map.cl's vec_type_hint): 16M float32 add 7.1-8.3 ms against
 *   10.2-12.7 ms with plain stores, a 64 MiB copy 1.5-1.75 times memcpy's speed to 2.5-3.1.
 * - On both, rows of 16-vectors along the inner axis in groups of 256 (rowvec), strided
 *   copies as 16-vectors in groups of 64 (copyvec) and transposes in blocks (tblock) are
 *   what the tuner chose on a 2-core AVX-512 EPYC, and a context that was never tuned
 *   starts with them: a broadcast add of 4096x4096 + a row took 2.6 times as long on PoCL
 *   with the rows as scalars.
 * Other devices keep the shapes the engine had before this choice was made per device
 * (not measured). */
#define SHAPE_DEFAULTS .rows_x = 128, .rows_y = 2, .origin = "table"
static const struct usmarr__kernel_shape shape_pocl = {.name = "pocl-cpu", .contig_group = 64, .vecs = 4,
                                                       .nt_bytes = (uint64_t)8 << 20, .rows_max_stride = 1,
                                                       .rowvec = 256, .copyvec = 64, .tblock = true,
                                                       .s2_edge = 16, SHAPE_DEFAULTS};
static const struct usmarr__kernel_shape shape_intel_cpu = {.name = "intel-cpu", .contig_one = true, .contig_group = 256,
                                                            .nt_bytes = (uint64_t)8 << 20, .rows_max_stride = 8,
                                                            .stride_masks = true, .rowvec = 256, .copyvec = 64,
                                                            .tblock = true, .s2_edge = 32, .ptrval = true,
                                                            SHAPE_DEFAULTS};
static const struct usmarr__kernel_shape shape_generic = {
    .name = "generic", .contig_group = 64, .rows_max_stride = 1, .tile = true, .s2_edge = 16, SHAPE_DEFAULTS};
/* GPUs (not measured: no GPU was at hand, doc/engine.md): one element per work-item in
 * groups of 256 (neighbouring work-items, neighbouring addresses), transposes through the
 * local-memory tile, reductions as work-group trees (sized from the profile below). */
static const struct usmarr__kernel_shape shape_gpu = {.name = "gpu", .contig_one = true, .contig_group = 256,
                                                      .rows_max_stride = 1, .tile = true, .tree_group = 256,
                                                      .tree_cols = 32, .s2_edge = 16, .scan_group = 256,
                                                      .matmul_blocked = true, SHAPE_DEFAULTS};
static const struct usmarr__kernel_shape *const shape_table[] = {&shape_pocl, &shape_intel_cpu, &shape_generic,
                                                                 &shape_gpu};

static size_t floor_pow2(size_t v)
{
    size_t p = 1;
    while (p * 2 <= v)
        p *= 2;
    return v ? p : 0;
}

/* The gpu shape's reduction work-groups from the profile: at most 256 items, within the
 * device's group limit and its local memory (an accumulator of up to 16 bytes and an
 * 8-byte index per item, cl/reduce.cl); outputs side by side = the preferred multiple (32 when not known), leaving at
 * least 2 rows.  0 (the per-output loops) when the device cannot hold a tree of 4. */
static void size_tree(const struct usmarr__device_profile *p, struct usmarr__kernel_shape *shape)
{
    size_t g = floor_pow2(shape->tree_group < p->max_group ? shape->tree_group : p->max_group);
    while (g >= 4 && (cl_ulong)g * 24 > p->local_mem)
        g /= 2;
    if (g < 4) {
        shape->tree_group = shape->tree_cols = 0;
        return;
    }
    size_t cols = p->group_multiple ? floor_pow2(p->group_multiple) : 32;
    if (cols > g / 2)
        cols = g / 2;
    shape->tree_group = (unsigned)g;
    shape->tree_cols = (unsigned)cols;
}

static const struct usmarr__kernel_shape *kernel_shape_named(const char *name, size_t length)
{
    for (size_t i = 0; i < sizeof shape_table / sizeof shape_table[0]; i++)
        if (strlen(shape_table[i]->name) == length && !strncmp(name, shape_table[i]->name, length))
            return shape_table[i];
    return NULL;
}

void usmarr__kernel_shape_default(const usmarr_context_t *ctx, struct usmarr__kernel_shape *shape)
{
    cl_device_type type = ctx->profile.type;
    if (strstr(ctx->info.platform_name, "Portable Computing Language") && (type & CL_DEVICE_TYPE_CPU))
        *shape = shape_pocl;
    else if (strstr(ctx->info.platform_name, "Intel(R) OpenCL") && (type & CL_DEVICE_TYPE_CPU))
        *shape = shape_intel_cpu;
    else if (type & CL_DEVICE_TYPE_GPU)
        *shape = shape_gpu;
    else
        *shape = shape_generic;
}

void usmarr__kernel_shape_fit(const usmarr_context_t *ctx, struct usmarr__kernel_shape *shape)
{
    size_t max = ctx->profile.max_group;
    if (shape->vecs < 1)
        shape->vecs = 1;
    if (ctx->info.backend == USMARR_BACKEND_SVM) /* indirect access is USM's, not SVM's */
        shape->ptrval = false;
    if (shape->tree_group)
        size_tree(&ctx->profile, shape);
    if (shape->contig_group > max)
        shape->contig_group = (unsigned)floor_pow2(max);
    while (shape->s2_edge > 16 && (size_t)shape->s2_edge * shape->s2_edge > max)
        shape->s2_edge /= 2;
    while ((size_t)shape->rows_x * shape->rows_y > max && shape->rows_x > 1)
        shape->rows_x /= 2;
    if (shape->rowvec > max)
        shape->rowvec = (unsigned)floor_pow2(max);
    if (shape->copyvec > max)
        shape->copyvec = (unsigned)floor_pow2(max);
    /* scans stage 8 accumulators of up to 16 bytes per item in local memory (cl/scan.cl) */
    while (shape->scan_group > 32 && (shape->scan_group > max || shape->scan_group * 144ull > ctx->profile.local_mem))
        shape->scan_group /= 2;
    if (shape->scan_group && (shape->scan_group > max || shape->scan_group * 144ull > ctx->profile.local_mem))
        shape->scan_group = 0;
}

/* The device facts the kernel shapes are built on. */
static void device_profile_query(cl_device_id device, struct usmarr__device_profile *p)
{
    memset(p, 0, sizeof *p);
    if (clGetDeviceInfo(device, CL_DEVICE_TYPE, sizeof p->type, &p->type, NULL) != CL_SUCCESS)
        p->type = 0;
    if (clGetDeviceInfo(device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof p->compute_units, &p->compute_units, NULL) !=
        CL_SUCCESS)
        p->compute_units = 1;
    if (clGetDeviceInfo(device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof p->max_group, &p->max_group, NULL) != CL_SUCCESS)
        p->max_group = 1;
    size_t items[3] = {0, 0, 0};
    if (clGetDeviceInfo(device, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof items, items, NULL) != CL_SUCCESS)
        items[0] = items[1] = items[2] = 0;
    for (int d = 0; d < 3; d++)
        p->max_items[d] = items[d] ? items[d] : p->max_group;
    if (clGetDeviceInfo(device, CL_DEVICE_LOCAL_MEM_SIZE, sizeof p->local_mem, &p->local_mem, NULL) != CL_SUCCESS)
        p->local_mem = 0;
    if (clGetDeviceInfo(device, CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT, sizeof p->native_float, &p->native_float, NULL) !=
            CL_SUCCESS ||
        p->native_float == 0)
        p->native_float = 1;
    cl_device_fp_config fp32 = 0;
    if (clGetDeviceInfo(device, CL_DEVICE_SINGLE_FP_CONFIG, sizeof fp32, &fp32, NULL) != CL_SUCCESS)
        fp32 = 0;
    p->exact_divide = (fp32 & CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT) != 0;
    /* OpenCL 3.0 asks the device; older NVIDIA drivers answer with the warp size. */
    if (clGetDeviceInfo(device, CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, sizeof p->group_multiple,
                        &p->group_multiple, NULL) != CL_SUCCESS) {
        cl_uint warp = 0;
        p->group_multiple = 0;
        if (clGetDeviceInfo(device, CL_DEVICE_WARP_SIZE_NV, sizeof warp, &warp, NULL) == CL_SUCCESS)
            p->group_multiple = warp;
    }
    if (p->compute_units == 0)
        p->compute_units = 1;
    /* The gpu shape forced on a device that is not a GPU (the tests' stand-in) also takes
     * NVIDIA's limits, so that a launch a GPU would refuse fails there too: groups of at
     * most 1024 items and (1024, 1024, 64) per dimension, 48 KiB of local memory, warps of 32. */
    const char *force = getenv("USMARR_KERNEL_SHAPE");
    if (force && !strcmp(force, "gpu") && !(p->type & CL_DEVICE_TYPE_GPU)) {
        static const size_t nvidia_items[3] = {1024, 1024, 64};
        for (int d = 0; d < 3; d++)
            if (p->max_items[d] > nvidia_items[d])
                p->max_items[d] = nvidia_items[d];
        if (p->max_group > 1024)
            p->max_group = 1024;
        if (p->local_mem > 48 * 1024)
            p->local_mem = 48 * 1024;
        p->group_multiple = 32;
    }
}

static void kernel_shape_choose(const usmarr_context_t *ctx, struct usmarr__kernel_shape *shape)
{
    /* The platform's table entry, then (in order) a shape forced by USMARR_KERNEL_SHAPE (a
     * name, fields over a name or over the table's entry: benchmarks compare them on one
     * device, the tests run every tuner candidate and the gpu shape on the CPU), or the
     * tuner's choice for this device from the disk cache (below). */
    usmarr__kernel_shape_default(ctx, shape);
    const char *force = getenv("USMARR_KERNEL_SHAPE");
    if (force && *force && usmarr__kernel_shape_parse(force, shape, shape) == 0)
        shape->origin = "forced";
    else
        kernel_shape_load(ctx->platform, ctx->device, shape);
    usmarr__kernel_shape_fit(ctx, shape);
}

/* Each new context's device profile and kernel shape (core calls this hook, registered
 * when the library is loaded, before it returns the context). */
static void context_created(usmarr_context_t *ctx)
{
    device_profile_query(ctx->device, &ctx->profile);
    kernel_shape_choose(ctx, &ctx->shape);
}

__attribute__((constructor)) static void context_hook_register(void)
{
    usmarr__context_hook_register(context_created);
}

void usmarr__kernel_shape_set(usmarr_context_t *ctx, const struct usmarr__kernel_shape *shape)
{
    mtx_lock(&ctx->kernels_lock);
    ctx->shape = *shape;
    usmarr__kernel_shape_fit(ctx, &ctx->shape);
    if (ctx->kernels) /* the fast path's signatures do not hold the shape */
        memset(ctx->kernels->fast, 0, sizeof ctx->kernels->fast);
    mtx_unlock(&ctx->kernels_lock);
}

/* What the entry's key is made of besides the device: a fixed text in place of a program
 * source.  Bump the number when the payload's meaning changes, or the way the tuner
 * chooses (2: median ratios of interleaved rounds, large operands beyond the LLC; a shape
 * chosen by the minima of format 1 could keep plain stores for outputs beyond the caches). */
static const char SHAPE_KEY_SOURCE[] = "usmarr kernel shape, entry format 2\n";
#define SHAPE_TEXT_MAX 512

static bool pow2_in(unsigned long v, unsigned long lo, unsigned long hi)
{
    return v >= lo && v <= hi && (v & (v - 1)) == 0;
}

/* A decimal number (no sign) with an optional K/M/G suffix (powers of 1024). */
static bool parse_size(const char *s, size_t n, uint64_t *out)
{
    uint64_t v = 0;
    size_t i = 0;
    for (; i < n && s[i] >= '0' && s[i] <= '9'; i++) {
        if (v > (UINT64_C(1) << 40))
            return false;
        v = v * 10 + (uint64_t)(s[i] - '0');
    }
    if (i == 0)
        return false;
    if (i < n) {
        const char *units = "KMG";
        const char *u = i + 1 == n ? strchr(units, s[i]) : NULL;
        if (!u || !s[i])
            return false;
        v <<= 10 * (unsigned)(u - units + 1);
    }
    if (v > (UINT64_C(1) << 40))
        return false;
    *out = v;
    return true;
}

/* "a/b" or "axb" with unsigned decimal parts; `sep` is the separator. */
static bool parse_pair(const char *s, size_t n, char sep, unsigned long *a, unsigned long *b)
{
    char buf[64];
    if (n >= sizeof buf)
        return false;
    memcpy(buf, s, n);
    buf[n] = 0;
    char *end;
    if (buf[0] < '0' || buf[0] > '9')
        return false;
    *a = strtoul(buf, &end, 10);
    if (*end != sep || end[1] < '0' || end[1] > '9')
        return false;
    *b = strtoul(end + 1, &end, 10);
    return *end == 0;
}

static bool is_value(const char *v, size_t n, const char *word) { return strlen(word) == n && !strncmp(v, word, n); }

/* The 0-or-1 field of `s` named `key` (`kn` bytes), or NULL. */
static bool *flag_field(struct usmarr__kernel_shape *s, const char *key, size_t kn)
{
    const struct {
        const char *name;
        bool *field;
    } flags[] = {{"masks", &s->stride_masks}, {"tile", &s->tile}, {"tblock", &s->tblock}, {"ptrval", &s->ptrval}};
    for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
        if (is_value(key, kn, flags[i].name))
            return flags[i].field;
    return NULL;
}

/* One `key=value` field into `s`; false when the key is unknown or the value out of range. */
static bool parse_field(const char *key, size_t kn, const char *v, size_t vn, struct usmarr__kernel_shape *s)
{
    unsigned long a, b;
    char lead[8];
    if (is_value(key, kn, "contig")) {
        const char *slash = memchr(v, '/', vn);
        if (!slash || (size_t)(slash - v) >= sizeof lead)
            return false;
        memcpy(lead, v, (size_t)(slash - v));
        lead[slash - v] = 0;
        uint64_t g;
        if (!parse_size(slash + 1, vn - (size_t)(slash - v) - 1, &g) || !pow2_in(g, 1, 4096))
            return false;
        if (strcmp(lead, "one") && strcmp(lead, "vec16"))
            return false;
        s->contig_one = !strcmp(lead, "one");
        s->contig_group = (unsigned)g;
        return true;
    }
    if (is_value(key, kn, "nt"))
        return parse_size(v, vn, &s->nt_bytes);
    if (is_value(key, kn, "rows")) {
        uint64_t stride;
        if (!parse_size(v, vn, &stride) || stride > 4096)
            return false;
        s->rows_max_stride = (int)stride;
        return true;
    }
    if (is_value(key, kn, "rowgroup")) {
        if (!parse_pair(v, vn, 'x', &a, &b) || !pow2_in(a, 1, 4096) || !pow2_in(b, 1, 4096) || a * b > 4096)
            return false;
        s->rows_x = (unsigned)a;
        s->rows_y = (unsigned)b;
        return true;
    }
    bool *flag = flag_field(s, key, kn);
    if (flag) {
        if (!is_value(v, vn, "0") && !is_value(v, vn, "1"))
            return false;
        *flag = v[0] == '1';
        return true;
    }
    if (is_value(key, kn, "rowvec") || is_value(key, kn, "copyvec")) {
        uint64_t g;
        if (!parse_size(v, vn, &g) || (g && !pow2_in(g, 1, 4096)))
            return false;
        *(is_value(key, kn, "rowvec") ? &s->rowvec : &s->copyvec) = (unsigned)g;
        return true;
    }
    if (is_value(key, kn, "vecs")) {
        uint64_t k;
        if (!parse_size(v, vn, &k) || !pow2_in(k, 1, 16))
            return false;
        s->vecs = (unsigned)k;
        return true;
    }
    if (is_value(key, kn, "s2")) {
        uint64_t e;
        if (!parse_size(v, vn, &e) || !pow2_in(e, 4, 64))
            return false;
        s->s2_edge = (unsigned)e;
        return true;
    }
    if (is_value(key, kn, "tree")) {
        if (is_value(v, vn, "0")) {
            s->tree_group = s->tree_cols = 0;
            return true;
        }
        if (!parse_pair(v, vn, '/', &a, &b) || !pow2_in(a, 4, 1024) || !pow2_in(b, 1, a / 2))
            return false;
        s->tree_group = (unsigned)a;
        s->tree_cols = (unsigned)b;
        return true;
    }
    return false;
}

int usmarr__kernel_shape_parse(const char *text, const struct usmarr__kernel_shape *base,
                               struct usmarr__kernel_shape *out)
{
    struct usmarr__kernel_shape s = *base;
    const char *p = text;
    bool first = true;
    for (;;) {
        while (*p == ' ' || *p == '\t' || *p == ',' || *p == '\n')
            p++;
        if (!*p)
            break;
        size_t n = strcspn(p, " \t,\n");
        const char *eq = memchr(p, '=', n);
        if (!eq) { /* a name: only first */
            const struct usmarr__kernel_shape *named = first ? kernel_shape_named(p, n) : NULL;
            if (!named)
                return -1;
            s = *named;
        } else if (!parse_field(p, (size_t)(eq - p), eq + 1, n - (size_t)(eq - p) - 1, &s)) {
            return -1;
        }
        first = false;
        p += n;
    }
    if (first)
        return -1;
    *out = s;
    return 0;
}

static void format_size(uint64_t v, char *buf, size_t size)
{
    const char *units = "KMG";
    int u = 0;
    while (u < 3 && v && v % 1024 == 0) {
        v /= 1024;
        u++;
    }
    if (u)
        snprintf(buf, size, "%llu%c", (unsigned long long)v, units[u - 1]);
    else
        snprintf(buf, size, "%llu", (unsigned long long)v);
}

int usmarr__kernel_shape_format(const struct usmarr__kernel_shape *s, char *buffer, size_t size)
{
    char nt[32], tree[32];
    format_size(s->nt_bytes, nt, sizeof nt);
    if (s->tree_group)
        snprintf(tree, sizeof tree, "%u/%u", s->tree_group, s->tree_cols);
    else
        snprintf(tree, sizeof tree, "0");
    return snprintf(buffer, size,
                    "%s contig=%s/%u nt=%s rows=%d rowgroup=%ux%u rowvec=%u copyvec=%u vecs=%u masks=%d tblock=%d "
                    "tile=%d s2=%u tree=%s ptrval=%d",
                    s->name, s->contig_one ? "one" : "vec16", s->contig_group, nt, s->rows_max_stride, s->rows_x,
                    s->rows_y, s->rowvec, s->copyvec, s->vecs ? s->vecs : 1, (int)s->stride_masks, (int)s->tblock,
                    (int)s->tile, s->s2_edge, tree, (int)s->ptrval);
}

static struct usmarr__program_key shape_key(cl_platform_id platform, cl_device_id device)
{
    struct usmarr__program_key key = {SHAPE_KEY_SOURCE, sizeof SHAPE_KEY_SOURCE - 1, "", platform, device};
    return key;
}

static bool kernel_shape_load(cl_platform_id platform, cl_device_id device, struct usmarr__kernel_shape *shape)
{
    struct usmarr__program_key key = shape_key(platform, device);
    unsigned char *payload = NULL;
    size_t size = 0;
    /* Creating a context touches the disk only when the device was tuned: no directory is
     * created and no miss counted for the others. */
    char path[4096];
    if (usmarr__diskcache_mode() == USMARR_CACHE_OFF || !usmarr__diskcache_entry_path(&key, path, sizeof path) ||
        access(path, F_OK) != 0)
        return false;
    if (usmarr__diskcache_load(&key, &payload, &size) != 0)
        return false;
    char text[SHAPE_TEXT_MAX + 1];
    bool ok = size > 0 && size <= SHAPE_TEXT_MAX && !memchr(payload, 0, size);
    if (ok) {
        memcpy(text, payload, size);
        text[size] = 0;
        ok = usmarr__kernel_shape_parse(text, shape, shape) == 0;
    }
    free(payload);
    if (!ok) { /* a valid entry of this key that this library cannot read: a miss */
        usmarr__diskcache_discard(&key);
        return false;
    }
    shape->origin = "tuned";
    return true;
}

int usmarr__kernel_shape_store(cl_platform_id platform, cl_device_id device, const struct usmarr__kernel_shape *shape)
{
    char text[SHAPE_TEXT_MAX];
    int n = usmarr__kernel_shape_format(shape, text, sizeof text);
    if (n <= 0 || n >= (int)sizeof text)
        return -1;
    struct usmarr__program_key key = shape_key(platform, device);
    usmarr__diskcache_store(&key, (const unsigned char *)text, (size_t)n);
    return 0;
}

bool usmarr__kernel_shape_entry_path(cl_platform_id platform, cl_device_id device, char *buffer, size_t size)
{
    struct usmarr__program_key key = shape_key(platform, device);
    return usmarr__diskcache_entry_path(&key, buffer, size);
}
