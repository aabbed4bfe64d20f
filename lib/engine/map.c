/* The generic strided map launcher: layout classes, the launch fast path and the
 * metadata of high-dimensional maps, on top of the program cache (program.c). */
#include "engine_internal.h"
#include "program_cache.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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

int usmarr__scalar_arg_int64(struct usmarr__scalar_arg *arg, int64_t value)
{
    usmarr_scalar_t s = usmarr_scalar_int(value);
    return usmarr__scalar_arg_set(arg, USMARR_INT64, &s);
}

enum map_class {
    CLASS_CONTIG, CLASS_TILE, CLASS_S1, CLASS_S2, CLASS_S3, CLASS_S8, CLASS_S16, CLASS_SBIG, CLASS_S2W, CLASS_S2V,
    CLASS_T16
};
static const char *const class_kernel[] = {"usmarr_map_contig", "usmarr_map_tile", "usmarr_map_s1",
                                           "usmarr_map_s2",     "usmarr_map_s3",   "usmarr_map_s8",
                                           "usmarr_map_s16",    "usmarr_map_sbig", "usmarr_map_s2w", "usmarr_map_s2v",
                                           "usmarr_map_t16"};

static int64_t abs64(int64_t v) { return v < 0 ? -v : v; }

/* The shape a map runs in: the context's, except that copies, casts and fills (families
 * without a run-time switch over functions) run contiguous and row maps as 16-vectors where
 * the shape's copyvec asks for it. */
static const struct usmarr__kernel_shape *map_shape(const usmarr_context_t *ctx, const struct usmarr__map *m,
                                                    struct usmarr__kernel_shape *copy)
{
    if (!ctx->shape.copyvec || (strcmp(m->family, "cast") && strcmp(m->family, "fill")))
        return &ctx->shape;
    *copy = ctx->shape;
    copy->contig_one = false;
    copy->contig_group = copy->rowvec = ctx->shape.copyvec;
    return copy;
}

/* The alignment of a 16-element vector of elements of size bytes, as the kernels' aligned
 * loads and whole-vector stores take it: the vector's size, at most 64 bytes (a cache
 * line, AVX-512's widest access). */
static size_t vector_align(size_t size)
{
    return 16 * size < 64 ? 16 * size : 64;
}

/* Whether operand k's first element starts such an aligned 16-element vector. */
static bool vector_aligned(const struct usmarr__map *m, const struct usmarr__iter *it, int k)
{
    size_t size = usmarr__dtype_bytes(m->operands[k].dtype);
    return ((uintptr_t)m->operands[k].data + (uintptr_t)it->offsets[k] * size) % vector_align(size) == 0;
}

/* The non-temporal variants of the contig and s2v classes: where the device's shape asks
 * for them, for outputs whose 16-element vectors are aligned (the stores of whole vectors
 * need it), in every row, of at least nt_bytes, or whose map moves at least 4 * nt_bytes in
 * all (32 MiB at the table's 8 MiB, the last-level cache of the machine measured): there
 * the output does not stay in the cache for its next reader anyway, and plain stores
 * evict the inputs.  A 4M float32 comparison (16 + 16 MiB in, a 4 MiB bool out) on PoCL:
 * 0.75-0.82 of its time with plain stores, in alternate processes under load.  Where the shape has one element per
 * work-item (a compiler that vectorises across work-items), only when every operand has a
 * 16-vector form (not bool, complex or the 16-byte copy type): the variant's 16-element
 * loop for the others ran 1.3 to 2.3 times slower than the plain kernel on Intel's runtime
 * (a 16M complex64 add, a 16M logical_and).  A bool input that the family's vector body
 * reads as a 16-vector (USMARR__MAP_BOOL_VECTORS: where's condition) is no such operand:
 * the 16M float32 where took 0.94-1.11 of the raw add kernel's time in the variant there,
 * against 1.56-2.33 one element per work-item with plain stores. */
static bool use_nt(const struct usmarr__kernel_shape *sh, enum map_class cls, const struct usmarr__map *m,
                   const struct usmarr__iter *it)
{
    if (!sh->nt_bytes || (cls != CLASS_CONTIG && cls != CLASS_S2V) || it->ndim < 1 ||
        it->shape[it->ndim - 1] < 16)
        return false;
    for (int k = 0; sh->contig_one && k < m->nout + m->nin; k++) {
        usmarr_dtype_t d = m->operands[k].dtype;
        if (!usmarr__dtype_vector_ok(d) && !(k >= m->nout && d == USMARR_BOOL && (m->flags & USMARR__MAP_BOOL_VECTORS)))
            return false;
    }
    uint64_t bytes = 0, moved = 0, count = (uint64_t)it->shape[0] * (it->ndim == 2 ? (uint64_t)it->shape[1] : 1);
    for (int k = 0; k < m->nout + m->nin; k++) {
        size_t size = usmarr__dtype_bytes(m->operands[k].dtype);
        bool whole = true; /* an input read once per element, not broadcast */
        for (int d = 0; d < it->ndim; d++)
            whole &= it->strides[k][d] != 0;
        moved += whole ? count * size : 0;
        if (k >= m->nout)
            continue;
        if (!vector_aligned(m, it, k) || (it->ndim == 2 && (uint64_t)it->strides[k][0] * size % vector_align(size)))
            return false;
        bytes += count * size;
    }
    return bytes >= sh->nt_bytes || moved >= 4 * sh->nt_bytes;
}

/* Whether the 16-vector contig kernel may load and store every operand as an aligned
 * vector (map.cl, USMARR_ALIGNED): each starts on a multiple of its 16-element vector's
 * size, at most 64 bytes.  PoCL's loads through an unaligned vector type are vmovups, and
 * where the body selects between loaded values (where, the lane tests of exp) they fold
 * into masked loads, which an aligned vmovaps makes cheaper: the 16M float32 where on
 * PoCL took 1.31-1.70 times the raw typed kernel's time with the unaligned loads and
 * 1.02-1.14 with aligned ones, the same source otherwise, interleaved in one process. */
static bool vectors_aligned(const struct usmarr__kernel_shape *sh, enum map_class cls, bool nt,
                            const struct usmarr__map *m, const struct usmarr__iter *it)
{
    if (cls != CLASS_CONTIG || it->ndim != 1 || it->shape[0] < 16 || (sh->contig_one && !nt))
        return false;
    for (int k = 0; k < m->nout + m->nin; k++)
        if (!vector_aligned(m, it, k))
            return false;
    return true;
}

/* The runs of 16 elements a work-item of the 16-vector contig and s2v kernels: the shape's
 * vecs, counted in elements of 4 bytes, so that a map whose widest operand is narrower
 * takes as many bytes a work-item as a float32 map (bool and int8 four times the runs,
 * int16 and float16 twice).  4M elements, medians of 15 alternations in one process under
 * load, bytes a work-item over elements: PoCL add of int8 0.90, a bool copy 0.91, equal
 * of bool 1.00; Intel's runtime (its copies run as 16-vectors) a bool copy 0.65. */
static unsigned map_runs(const struct usmarr__kernel_shape *sh, const struct usmarr__map *m)
{
    size_t widest = 1;
    for (int k = 0; k < m->nout + m->nin; k++) {
        size_t b = usmarr__dtype_bytes(m->operands[k].dtype);
        widest = b > widest ? b : widest;
    }
    unsigned vecs = sh->vecs > 1 ? sh->vecs : 1;
    return widest < 4 ? vecs * (unsigned)(4 / widest) : vecs;
}

/* Rows of 16-vectors (where the shape has them): every inner stride is 1, or 0, 2, 3, -1, -2
 * or -3 for an input (a negative one read forwards, lanes reversed: a flip's copy took 1.9
 * ms as scalars on PoCL against NumPy's 1.2).  Where the shape has one element per
 * work-item (a compiler that vectorises across work-items), only with non-temporal stores:
 * on Intel's runtime the plain rows ran 4 to 40 times slower than s1 and s2w (a[::2] +
 * b[::2] and a broadcast add of 64K to 2M elements), the non-temporal ones 1.4 to 1.5
 * times faster (8M elements and more). */
static bool vector_rows(const struct usmarr__kernel_shape *sh, const struct usmarr__map *m,
                        const struct usmarr__iter *it)
{
    if (!sh->rowvec || (m->flags & USMARR__MAP_NO_TILE) || it->shape[it->ndim - 1] < 16)
        return false;
    for (int k = 0; k < it->nops; k++) {
        int64_t t = it->strides[k][it->ndim - 1];
        if (t != 1 && (t < -3 || t > 3 || k < m->nout))
            return false;
    }
    return !sh->contig_one || use_nt(sh, CLASS_S2V, m, it);
}

static enum map_class choose_class(const struct usmarr__kernel_shape *sh, const struct usmarr__map *m,
                                   const struct usmarr__iter *it)
{
    int nops = it->nops;
    if (it->ndim == 0)
        return CLASS_CONTIG;
    if (it->ndim == 1) {
        bool contig = true;
        for (int k = 0; k < nops; k++)
            contig &= it->strides[k][0] == 1;
        return contig ? CLASS_CONTIG : vector_rows(sh, m, it) ? CLASS_S2V : CLASS_S1;
    }
    if (it->ndim == 2) {
        /* Transposes: the input's fastest axis is the output's slower one (16x16 blocks in
         * registers where the input is contiguous along it and the output along the other). */
        bool one_to_one = m->nout == 1 && m->nin == 1 && !(m->flags & USMARR__MAP_NO_TILE);
        if (one_to_one && sh->tblock && it->shape[0] >= 16 && it->shape[1] >= 16 && it->strides[0][1] == 1 &&
            it->strides[1][0] == 1)
            return CLASS_T16;
        if (m->nout == 1 && m->nin == 1 && !(m->flags & USMARR__MAP_NO_TILE) && sh->tile && it->shape[0] >= 16 &&
            it->shape[1] >= 16 && it->strides[1][0] != 0 && abs64(it->strides[1][0]) < abs64(it->strides[1][1]))
            return CLASS_TILE;
        if (vector_rows(sh, m, it))
            return CLASS_S2V;
        /* Long rows that every operand walks (nearly) contiguously, or broadcasts: wide groups. */
        bool rows = it->shape[1] >= 128;
        for (int k = 0; k < nops; k++)
            rows &= abs64(it->strides[k][1]) <= sh->rows_max_stride;
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

/* Operands whose stride along NDRange axis 0 (the innermost dimension) is 1, 0 or 2, as bit
 * masks compiled into the strided kernels where the device's shape asks for it: `unit` holds
 * the stride-1 operands in bits 0-7 and the stride-2 ones in bits 8-15.  A compiler that
 * vectorises across work-items gathers where the stride is a run-time value; a[::2] + b[::2]
 * over 32M float32 took 17 ms that way on Intel's CPU runtime, 9.5 ms with the 2 compiled in.
 * Maps of fewer than MASKS_MIN_ELEMENTS elements take none: each combination of masks is a
 * program of its own (every function of the family, compiled again), and below it the
 * gain is within a few microseconds (a broadcast add over 16384 float32: 23 against 29
 * µs; over 4096 the same; over 65536, 37 against 98). */
#define MASKS_MIN_ELEMENTS 16384
static void stride_masks(const struct usmarr__kernel_shape *sh, enum map_class cls, const struct usmarr__iter *it,
                         unsigned *unit, unsigned *zero)
{
    *unit = *zero = 0;
    if (cls == CLASS_S2V) { /* the zero-stride inputs, which it broadcasts; in `unit`, those of
                               stride 2 or -2 (bits 0-7), 3 or -3 (bits 8-15), and the negative
                               ones (bits 16-23) */
        for (int k = 0; k < it->nops; k++) {
            int64_t t = it->strides[k][it->ndim - 1];
            *zero |= (unsigned)(t == 0) << k;
            *unit |= (unsigned)(abs64(t) == 2) << k | (unsigned)(abs64(t) == 3) << (k + 8) |
                     (unsigned)(t < 0) << (k + 16);
        }
        return;
    }
    if (!sh->stride_masks || cls == CLASS_CONTIG || cls == CLASS_TILE || cls == CLASS_T16 || it->ndim < 1)
        return;
    int64_t count = 1;
    for (int d = 0; d < it->ndim; d++)
        count *= it->shape[d];
    if (count < MASKS_MIN_ELEMENTS)
        return;
    for (int k = 0; k < it->nops; k++) {
        int64_t t = it->strides[k][it->ndim - 1];
        *unit |= (unsigned)(t == 1) << k | (unsigned)(t == 2) << (k + 8);
        *zero |= (unsigned)(t == 0) << k;
    }
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
    if (m->nparts < 0 || (m->nparts > 0) != (m->parts != NULL) || (m->parts && m->vary_mask))
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "map nparts=%d with parts %s and vary_mask=%#x",
                            m->nparts, m->parts ? "set" : "NULL", m->vary_mask);
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
    struct usmarr__kernel_shape copy;
    return class_kernel[choose_class(map_shape(ctx, m, &copy), m, &it)];
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

static void free_host(void *pointer, void *data)
{
    (void)data;
    free(pointer);
}

static bool fast_signature(const struct usmarr__map *m, enum map_class cls, const unsigned masks[3], struct fast_entry *e,
                           unsigned *slot)
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
    e->counts[3] = (int)cls;
    memcpy(e->masks, masks, sizeof e->masks);
    uint64_t h = (uint64_t)fl * 31u + (unsigned char)e->family[0] + (unsigned)cls;
    for (int j = 0; j < 3; j++)
        h = h * 131u + masks[j];
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
           !memcmp(a->counts, b->counts, sizeof a->counts) &&
           !memcmp(a->masks, b->masks, sizeof a->masks) && !memcmp(a->dtypes, b->dtypes, sizeof a->dtypes) &&
           a->vary_mask == b->vary_mask && a->vary_dtypes == b->vary_dtypes && !strcmp(a->defines, b->defines);
}

static int map_kernel(usmarr_context_t *ctx, const struct usmarr__kernel_shape *sh, const struct usmarr__map *m,
                      enum map_class cls, unsigned unit, unsigned zero, bool nt, bool aligned, unsigned runs,
                      usmarr__kernel_t **out)
{
    int nops = m->nout + m->nin;
    struct fast_entry sig;
    unsigned slot = 0;
    bool cacheable = fast_signature(m, cls, (const unsigned[3]){unit, zero, nt | aligned << 1 | runs << 2}, &sig, &slot);
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
    /* The device's shape; nothing is added where it is the default (PoCL's), so those
     * programs and their cached binaries stay as they were. */
    if (sh->ptrval)
        len += snprintf(options + len, sizeof options - (size_t)len, " -DUSMARR_PTR_VALUE");
    if (nt)
        len += snprintf(options + len, sizeof options - (size_t)len, " -DUSMARR_NT");
    else if (cls == CLASS_CONTIG && sh->contig_one)
        len += snprintf(options + len, sizeof options - (size_t)len, " -DUSMARR_CONTIG_ONE");
    if (aligned)
        len += snprintf(options + len, sizeof options - (size_t)len, " -DUSMARR_ALIGNED");
    if (cls == CLASS_CONTIG && sh->contig_group != 64)
        len += snprintf(options + len, sizeof options - (size_t)len, " -DUSMARR_CONTIG_GROUP=%u",
                        sh->contig_group);
    if ((cls == CLASS_S2V || (cls == CLASS_CONTIG && (nt || !sh->contig_one))) && runs > 1)
        len += snprintf(options + len, sizeof options - (size_t)len, " -DUSMARR_VPW=%u", runs);
    if (cls == CLASS_S2 && sh->s2_edge != 16)
        len += snprintf(options + len, sizeof options - (size_t)len, " -DUSMARR_S2_EDGE=%u", sh->s2_edge);
    if (cls == CLASS_S2V && sh->rowvec != 64)
        len += snprintf(options + len, sizeof options - (size_t)len, " -DUSMARR_ROWV_GROUP=%u", sh->rowvec);
    if (cls == CLASS_S2W && (sh->rows_x != 128 || sh->rows_y != 2))
        len += snprintf(options + len, sizeof options - (size_t)len, " -DUSMARR_ROWS_X=%u -DUSMARR_ROWS_Y=%u",
                        sh->rows_x, sh->rows_y);
    if (cls == CLASS_S2V && (unit || zero)) { /* unit: the stride-2, stride-3 and negative operands */
        len += snprintf(options + len, sizeof options - (size_t)len, " -DUSMARR_TWO=%u -DUSMARR_THREE=%u -DUSMARR_ZERO=%u",
                        unit & 255u, (unit >> 8) & 255u, zero);
        if (unit >> 16)
            len += snprintf(options + len, sizeof options - (size_t)len, " -DUSMARR_NEG=%u", unit >> 16);
    } else if (unit || zero) {
        len += snprintf(options + len, sizeof options - (size_t)len, " -DUSMARR_UNIT=%u -DUSMARR_ZERO=%u", unit & 255u,
                        zero);
        if (unit >> 8) /* the stride-2 operands */
            len += snprintf(options + len, sizeof options - (size_t)len, " -DUSMARR_TWO=%u", unit >> 8);
    }
    if (len >= (int)sizeof options)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "map defines too long (%d bytes, limit %zu)", len,
                            sizeof options - 1);
    char name[64];
    if (varying >= 0)
        snprintf(name, sizeof name, "%s_%s", class_kernel[cls], usmarr__dtype_tag(m->operands[varying].dtype));
    else
        snprintf(name, sizeof name, "%s", class_kernel[cls]);
    struct recipe recipe = {m->family, true, options, m->vary_mask, m->vary_dtypes, m->parts, m->nparts};
    int rc = usmarr__recipe_kernel(ctx, &recipe, name, out);
    if (!rc && cacheable) {
        sig.kernel = *out;
        mtx_lock(&ctx->kernels_lock);
        ctx->kernels->fast[slot] = sig;
        mtx_unlock(&ctx->kernels_lock);
    }
    return rc;
}

static int map_launch(usmarr_context_t *ctx, const struct usmarr__map *m);

/* The map's kernel is got and launched in one go: its program is stored after the launch. */
int usmarr__map_launch(usmarr_context_t *ctx, const struct usmarr__map *m)
{
    usmarr__store_after_launch_begin();
    int rc = map_launch(ctx, m);
    usmarr__store_after_launch_end();
    return rc;
}

/* A map's launch as its steps fill it: the work geometry, then the argument table (the
 * operands' pointers, the class's shape and one stride vector per operand, the scalars),
 * which points into `vectors`. */
struct map_call {
    size_t global[3], local[3];
    cl_uint work_dim;
    struct usmarr__karg args[2 * USMARR__MAX_OPERANDS + 2 + USMARR__MAX_SCALARS];
    cl_long16 vectors[1 + USMARR__MAX_OPERANDS]; /* shape, then each operand's strides */
    int nargs;
    int meta_arg; /* the 17+-dim class's metadata block, filled at launch; -1 none */
    cl_long n;    /* arguments passed by address live here, not on map_bind's stack */
    cl_int nd;
};

/* The class's work-groups and global range (the reqd_work_group_size of its kernel). */
static void map_geometry(const struct usmarr__kernel_shape *shp, enum map_class cls, bool nt, unsigned runs,
                         const struct usmarr__iter *it, struct map_call *c)
{
    size_t *global = c->global, *local = c->local;
    cl_long n = it->ndim == 0 ? 1 : it->shape[0], vecs = runs;
    int nd = it->ndim;
    for (int d = 0; d < 3; d++)
        global[d] = local[d] = 1;
    c->work_dim = 1;
    switch (cls) {
    case CLASS_CONTIG:
        local[0] = shp->contig_group; /* reqd_work_group_size of usmarr_map_contig */
        global[0] = round_up(shp->contig_one && !nt ? n : (n + 16 * vecs - 1) / (16 * vecs), local[0]);
        break;
    case CLASS_S1:
        local[0] = 256;
        global[0] = round_up(n, local[0]);
        break;
    case CLASS_S2:
    case CLASS_S2W:
    case CLASS_T16:
    case CLASS_TILE:
        c->work_dim = 2;
        if (cls == CLASS_T16) { /* reqd_work_group_size of usmarr_map_t16: one 16x16 block an item */
            local[0] = 8;
            local[1] = 1;
            global[0] = round_up((it->shape[1] + 15) / 16, 8);
            global[1] = (size_t)(it->shape[0] + 15) / 16;
        } else if (cls == CLASS_TILE) {
            local[0] = 32;
            local[1] = 8;
            global[0] = round_up(it->shape[1], 32);
            global[1] = round_up(it->shape[0], 32) / 4;
        } else {
            if (cls == CLASS_S2W) { /* reqd_work_group_size of usmarr_map_s2w */
                local[0] = shp->rows_x;
                local[1] = shp->rows_y;
            } else { /* reqd_work_group_size of usmarr_map_s2 */
                local[0] = local[1] = shp->s2_edge;
            }
            global[0] = round_up(it->shape[1], local[0]);
            global[1] = round_up(it->shape[0], local[1]);
        }
        break;
    case CLASS_S2V: {
        cl_long rows = it->ndim == 2 ? it->shape[0] : 1, len = it->shape[it->ndim - 1];
        c->work_dim = 2;
        local[0] = shp->rowvec; /* reqd_work_group_size of usmarr_map_s2v */
        global[0] = round_up((len + 16 * vecs - 1) / (16 * vecs), local[0]);
        global[1] = (size_t)rows;
        break;
    }
    case CLASS_S3:
        c->work_dim = 3;
        local[0] = 16;
        local[1] = 4;
        local[2] = 4;
        global[0] = round_up(it->shape[2], local[0]);
        global[1] = round_up(it->shape[1], local[1]);
        global[2] = round_up(it->shape[0], local[2]);
        break;
    case CLASS_S8:
    case CLASS_S16:
    case CLASS_SBIG: {
        int64_t outer = 1;
        for (int d = 0; d < nd - 2; d++)
            outer *= it->shape[d];
        c->work_dim = 3;
        wg16x16(local);
        local[2] = 1;
        global[0] = round_up(it->shape[nd - 1], local[0]);
        global[1] = round_up(it->shape[nd - 2], local[1]);
        global[2] = (size_t)outer;
        break;
    }
    }
}

/* The argument table: the operands' pointers, the class's shape and one stride vector
 * per operand (cl_long, long2, long4 padded, long8 or long16; the rank and a metadata
 * block for 17+ dims), the scalars. */
static void map_bind(const struct usmarr__kernel_shape *shp, enum map_class cls, const struct usmarr__map *m,
                     const struct usmarr__iter *it, struct map_call *c)
{
    int nops = m->nout + m->nin, nargs = 0;
    struct usmarr__karg *args = c->args;
    cl_long16 *vectors = c->vectors;
    /* Operand pointers point at the first visited element after flips. */
    for (int i = 0; i < nops; i++) {
        void *ptr = (char *)m->operands[i].data + it->offsets[i] * (int64_t)usmarr__dtype_bytes(m->operands[i].dtype);
        args[nargs++] = shp->ptrval ? USMARR__ARG_ADDRESS(ptr) : USMARR__ARG_PTR(ptr);
    }
    cl_long *n = &c->n;
    cl_int *nd = &c->nd, ndim = it->ndim;
    *n = it->ndim == 0 ? 1 : it->shape[0];
    *nd = ndim;
    int width = 0; /* elements of each shape/stride vector; 0: none by value */
    switch (cls) {
    case CLASS_CONTIG:
        args[nargs++] = USMARR__ARG(*n);
        break;
    case CLASS_S1:
        width = 1;
        break;
    case CLASS_S2:
    case CLASS_S2W:
    case CLASS_T16:
    case CLASS_TILE:
        width = 2;
        break;
    case CLASS_S2V: /* long2 (rows, row length), then each operand's row stride */
        vectors[0].s[0] = it->ndim == 2 ? it->shape[0] : 1;
        vectors[0].s[1] = it->shape[it->ndim - 1];
        args[nargs++] = USMARR__ARG_BYTES(&vectors[0], sizeof(cl_long) * 2);
        for (int i = 0; i < nops; i++) {
            vectors[i + 1].s[0] = it->ndim == 2 ? it->strides[i][0] : 0;
            args[nargs++] = USMARR__ARG_BYTES(&vectors[i + 1], sizeof(cl_long));
        }
        break;
    case CLASS_S3:
        width = 4; /* long4: the fourth extent 1, the fourth stride 0 */
        break;
    case CLASS_S8:
    case CLASS_S16:
    case CLASS_SBIG:
        args[nargs++] = USMARR__ARG(*nd);
        width = cls == CLASS_S8 ? 8 : cls == CLASS_S16 ? 16 : 0;
        break;
    }
    for (int i = -1; width && i < nops; i++) {
        for (int d = 0; d < width; d++)
            vectors[i + 1].s[d] = d >= ndim ? (i < 0) : i < 0 ? it->shape[d] : it->strides[i][d];
        args[nargs++] = USMARR__ARG_BYTES(&vectors[i + 1], sizeof(cl_long) * (size_t)width);
    }
    c->meta_arg = cls == CLASS_SBIG ? nargs++ : -1;
    for (int j = 0; j < m->nscalars; j++)
        args[nargs++] = USMARR__ARG_BYTES(m->scalars[j].bytes, m->scalars[j].size);
    c->nargs = nargs;
}

/* Enqueues the kernel under the queue lock.  The 17+-dim class first copies its metadata
 * (shape, then strides) into a block of its own without waiting: the host copy is freed
 * and the block released once the launch has run (doc/async.md). */
static int map_enqueue(usmarr_context_t *ctx, usmarr__kernel_t *k, int nops, const struct usmarr__iter *it,
                       struct map_call *c)
{
    int rc = 0, nd = it->ndim;
    int64_t *host = NULL;
    usmarr_memory_t *block = NULL;
    cl_command_queue queue = usmarr__queue_of(ctx);
    size_t bytes = sizeof(int64_t) * (size_t)nd * (size_t)(nops + 1);
    if (c->meta_arg >= 0) {
        if (!(host = malloc(bytes)))
            return usmarr__fail(USMARR_ERROR_OUT_OF_HOST_MEMORY, "map metadata of %zu bytes", bytes);
        if ((rc = usmarr_memory_create(ctx, USMARR_USM_DEVICE, bytes, 64, &block))) {
            free(host);
            return rc;
        }
        for (int i = -1; i < nops; i++)
            memcpy(host + (size_t)nd * (size_t)(i + 1), i < 0 ? it->shape : it->strides[i],
                   sizeof(int64_t) * (size_t)nd);
        c->args[c->meta_arg] = USMARR__ARG_PTR(usmarr_memory_pointer(block));
    }
    usmarr__queue_lock(ctx);
    if (host) {
        cl_int err = ctx->usm.memcpy(queue, CL_FALSE, usmarr_memory_pointer(block), host, bytes, 0, NULL, NULL);
        if (err != CL_SUCCESS)
            rc = usmarr__cl_fail(err, "clEnqueueMemcpyINTEL of map metadata");
    }
    if (!rc)
        rc = usmarr__kernel_launch_locked(ctx, k, c->nargs, c->args, c->work_dim, c->global, c->local);
    usmarr__queue_unlock(ctx);
    if (host) {
        usmarr__defer_release(ctx, queue, free_host, host, NULL);
        usmarr_memory_release(block);
    }
    return rc;
}

/* Chooses the layout class and its kernel, then binds the arguments and launches. */
static int map_launch(usmarr_context_t *ctx, const struct usmarr__map *m)
{
    int rc = check_map(m);
    if (rc)
        return rc;
    struct usmarr__iter it;
    map_iter(m, &it);
    for (int d = 0; d < it.ndim; d++)
        if (it.shape[d] == 0)
            return 0;
    struct usmarr__kernel_shape copy;
    const struct usmarr__kernel_shape *shp = map_shape(ctx, m, &copy);
    enum map_class cls = choose_class(shp, m, &it);

    usmarr__kernel_t *k;
    unsigned unit, zero;
    stride_masks(shp, cls, &it, &unit, &zero);
    bool nt = use_nt(shp, cls, m, &it);
    unsigned runs = map_runs(shp, m);
    rc = map_kernel(ctx, shp, m, cls, unit, zero, nt, vectors_aligned(shp, cls, nt, m, &it), runs, &k);
    if (rc)
        return rc;

    struct map_call call;
    map_geometry(shp, cls, nt, runs, &it, &call);
    map_bind(shp, cls, m, &it, &call);
    return map_enqueue(ctx, k, m->nout + m->nin, &it, &call);
}
