/* The kernel engine's declarations for the other folders of lib/: programs and kernels
 * and their launches, maps and iteration-space simplification, kernel shapes, results,
 * copies, the disk cache's settings.  How programs, maps and custom kernels work, with
 * examples: doc/engine.md.  The program cache's and the disk cache's own types are in
 * program_cache.h and diskcache.h, private to lib/engine/.  Never installed. */
#ifndef USMARR_ENGINE_INTERNAL_H
#define USMARR_ENGINE_INTERNAL_H

#include "../core/core_internal.h"

#include <pthread.h>

#define USMARR__MAX_OPERANDS 8 /* outputs + inputs of one map */
#define USMARR__MAX_SCALARS 8  /* by-value scalars of one map */

/* Internal dtype beyond the public 14: 16 opaque bytes (bit-exact copies of 16-byte
 * elements).  Copies of 1/2/4/8-byte elements use u8/u16/u32/u64. */
#define USMARR__BITS128 ((int)USMARR_DTYPE_COUNT)

/* The prelude's tag of a dtype ("f32", "c128", "x128"); NULL for an invalid one. */
USMARR_INTERNAL const char *usmarr__dtype_tag(int dtype);
/* Size in bytes of a dtype including USMARR__BITS128; 0 for an invalid one. */
USMARR_INTERNAL size_t usmarr__dtype_bytes(int dtype);
/* Whether the prelude has a 16-vector form of the dtype (cl/prelude.cl's USMARR_VEC_OK):
 * every dtype but bool, the complex ones and USMARR__BITS128. */
USMARR_INTERNAL bool usmarr__dtype_vector_ok(int dtype);
/* The unsigned (or x128) dtype that moves `itemsize` bytes unchanged; -1 if none. */
USMARR_INTERNAL int usmarr__bits_dtype(size_t itemsize);

/* ---- programs and kernels -------------------------------------------------------- */

typedef struct usmarr__kernel usmarr__kernel_t;

/* The kernel `kernel_name` of program (family, defines): cl/prelude.cl + cl/<family>.cl,
 * built with `defines` (NULL = "").  *out is borrowed and lives with the context.
 * Returns 0, USMARR_ERROR_INVALID_ARGUMENT (unknown family), USMARR_ERROR_BUILD (the
 * detail carries the start of the build log) or an OpenCL error. */
USMARR_INTERNAL int usmarr__kernel_get(usmarr_context_t *ctx, const char *family, const char *defines,
                                       const char *kernel_name, usmarr__kernel_t **out);
/* The same for a generated program: prelude + parts[0, nparts) (section 2, "Generated
 * programs"); `family` names it in messages, `defines` must identify the parts. */
struct usmarr__source_part;
USMARR_INTERNAL int usmarr__kernel_get_generated(usmarr_context_t *ctx, const char *family,
                                                 const struct usmarr__source_part *parts, int nparts,
                                                 const char *defines, const char *kernel_name,
                                                 usmarr__kernel_t **out);
/* The underlying cl_kernel (borrowed). */
USMARR_INTERNAL cl_kernel usmarr__kernel_cl(const usmarr__kernel_t *k);

/* The context's queue lock: hold it from the first argument to the enqueue. */
USMARR_INTERNAL void usmarr__queue_lock(usmarr_context_t *ctx);
USMARR_INTERNAL void usmarr__queue_unlock(usmarr_context_t *ctx);

/* One argument of usmarr__kernel_launch(), as clSetKernelArg reads it: a USM pointer
 * (size 0; NULL for an empty array is allowed), `size` bytes by value, or (value NULL)
 * `size` bytes of local memory.  USMARR__ARG_ADDRESS(p) passes a USM pointer's address
 * as a ulong to a kernel that makes it a pointer itself (cl/map.cl, USMARR_PTR_VALUE):
 * the launcher then lets the kernel reach USM indirectly, and a later USM free of the
 * context first finishes the queue, since the driver no longer ties the launch to the
 * allocation. */
struct usmarr__karg {
    size_t size;
    const void *value;
};
#define USMARR__KARG_ADDRESS ((size_t)-1)
#define USMARR__ARG_PTR(p) ((struct usmarr__karg){0, (p)})
#define USMARR__ARG_ADDRESS(p) ((struct usmarr__karg){USMARR__KARG_ADDRESS, (p)})
#define USMARR__ARG(v) ((struct usmarr__karg){sizeof(v), &(v)})
#define USMARR__ARG_BYTES(p, n) ((struct usmarr__karg){(n), (p)})
#define USMARR__ARG_LOCAL(n) ((struct usmarr__karg){(n), NULL})
#define USMARR__NARGS(args) ((int)(sizeof(args) / sizeof((args)[0])))
/* The one kernel launcher.  Under the queue lock: sets args[0..nargs-1] as arguments
 * 0..nargs-1 (only those that differ from the kernel's last launch) and enqueues on the
 * context's queue; `local` may be NULL.  After the first launch of a program compiled
 * from source it also finishes the queue and stores the program's binary in the disk
 * cache.  Errors carry a detail naming the kernel and the argument. */
USMARR_INTERNAL int usmarr__kernel_launch(usmarr_context_t *ctx, usmarr__kernel_t *k, int nargs,
                                          const struct usmarr__karg *args, cl_uint work_dim, const size_t *global,
                                          const size_t *local);
/* The same for a caller that already holds the queue lock. */
USMARR_INTERNAL int usmarr__kernel_launch_locked(usmarr_context_t *ctx, usmarr__kernel_t *k, int nargs,
                                                 const struct usmarr__karg *args, cl_uint work_dim,
                                                 const size_t *global, const size_t *local);

/* Engine statistics of a context (tests and benchmarks): programs compiled from source,
 * loaded from the disk cache, found in memory. */
struct usmarr__engine_stats {
    uint64_t compiled, loaded, memory_hits, launches;
};
USMARR_INTERNAL void usmarr__engine_stats(usmarr_context_t *ctx, struct usmarr__engine_stats *stats);

/* ---- iteration-space simplification (simplify.c) ------------------------------------ */

/* One iteration space: a shape and, per operand, strides (elements) and the element
 * offset of index [0,...,0] relative to the operand's pointer.  Operand 0 is the primary
 * output whose strides decide the order. */
struct usmarr__iter {
    int ndim;
    int nops;
    int64_t shape[USMARR_MAX_NDIM];
    int64_t strides[USMARR__MAX_OPERANDS][USMARR_MAX_NDIM];
    int64_t offsets[USMARR__MAX_OPERANDS];
};

/* In place, preserving the set of (address of operand 0, ..., address of operand n-1)
 * tuples visited: drops size-1 dims (a zero-size space becomes ndim 1, shape {0});
 * flips dims whose strides are all <= 0 (moving the offsets); orders dims by |stride| of
 * operand 0, then 1, ... (largest first, so the last dim is the output's fastest); merges
 * neighbours that are jointly contiguous; flips an outer dim in which operand 0 alone moves
 * forwards (the others backwards or not at all).  A one-element space ends with ndim 0. */
USMARR_INTERNAL void usmarr__simplify(struct usmarr__iter *it);

/* ---- maps ---------------------------------------------------------------------------- */

/* One part of a generated program: the family file cl/<family>.cl when `family` is set
 * (several joined by '+', as a program's family), else `text` (section 2, "Generated programs"). */
struct usmarr__source_part {
    const char *family;
    const char *text;
};

struct usmarr__operand {
    void *data;                        /* element [0,...,0]: base + offset*itemsize (USM) */
    int dtype;                         /* a usmarr_dtype_t or USMARR__BITS128 */
    int64_t strides[USMARR_MAX_NDIM];  /* per dim of the map's shape, in elements */
};

/* A by-value scalar: dtype and the value in the scalar's compute representation
 * (see usmarr__scalar_arg_set). */
struct usmarr__scalar_arg {
    int dtype;
    size_t size;
    _Alignas(16) unsigned char bytes[16];
};

struct usmarr__map {
    const char *family;  /* cl/<family>.cl defines USMARR_MAP_BODY */
    const char *defines; /* family options, e.g. "-DOP=add"; NULL or "" for none */
    int nout, nin;       /* operands[0, nout) are written, [nout, nout+nin) read */
    int ndim;
    int64_t shape[USMARR_MAX_NDIM];
    struct usmarr__operand operands[USMARR__MAX_OPERANDS];
    int nscalars;
    struct usmarr__scalar_arg scalars[USMARR__MAX_SCALARS];
    unsigned flags; /* USMARR__MAP_* */
    /* Grouping, to cut cold compile cost (optional, 0 = one program per dtype combination).
     * The program then holds one instantiation of the family for every dtype in
     * vary_dtypes (a bit set over usmarr_dtype_t and USMARR__BITS128), given to all the
     * operands in vary_mask (bit k = operand k) at once; those operands must have one dtype
     * from the set.  E.g. casts could vary the output over all 14 dtypes: 14 programs (one
     * per source dtype) instead of 196; but PoCL's binary of such a program then carries
     * the work-group function of the first variant launched only.  Family files are then
     * included once per variant:
     * guard anything that is not a macro (helper functions) with an include guard. */
    unsigned vary_mask;
    uint32_t vary_dtypes;
    /* A generated map (section 2, "Generated programs"): parts[0, nparts) in place of
     * cl/<family>.cl; NULL and 0 for a family file. */
    const struct usmarr__source_part *parts;
    int nparts;
};

/* Flags of a map. */
#define USMARR__MAP_NO_TILE 1u /* never use the tiled class */
/* the family's vector body reads its bool inputs as 16-lane vectors (where's condition):
 * such a map may take the non-temporal 16-vector variant where the shape has one element
 * per work-item (use_nt in map.c) */
#define USMARR__MAP_BOOL_VECTORS 2u

/* A map with its counts set and everything else zero. */
USMARR_INTERNAL struct usmarr__map usmarr__map_init(const char *family, const char *defines, int nout, int nin);

/* Fills `op` for array `a` broadcast (NumPy rules, right-aligned, zero strides) to
 * shape[ndim].  USMARR_ERROR_SHAPE_MISMATCH when it does not broadcast. */
USMARR_INTERNAL int usmarr__operand_from_array(const usmarr_array_t *a, int ndim, const int64_t *shape,
                                               struct usmarr__operand *op);

/* Converts `value` to `dtype` as NumPy would (usmarr__scalar_store: a weak integer out of
 * range or a non-finite float into an integer dtype fails) and stores it in the compute
 * representation of `dtype` (float16 as float) for a by-value kernel argument. */
USMARR_INTERNAL int usmarr__scalar_arg_set(struct usmarr__scalar_arg *arg, int dtype, const usmarr_scalar_t *value);
/* usmarr__scalar_arg_set() of an int64 value (index arithmetic: divisors, extents). */
USMARR_INTERNAL int usmarr__scalar_arg_int64(struct usmarr__scalar_arg *arg, int64_t value);

/* Simplifies, keys, gets the kernel and enqueues it (asynchronously).  A zero-size map
 * enqueues nothing.  Errors: USMARR_ERROR_INVALID_ARGUMENT (bad counts, dtypes, ndim),
 * USMARR_ERROR_BUILD, OpenCL errors. */
USMARR_INTERNAL int usmarr__map_launch(usmarr_context_t *ctx, const struct usmarr__map *map);

/* Which layout class the map would use (kernel name, e.g. "usmarr_map_s2"), after
 * simplification; for tests and benchmarks. */
USMARR_INTERNAL const char *usmarr__map_class(usmarr_context_t *ctx, const struct usmarr__map *map);

/* ---- kernel shapes (kernel_shape.c; the tuner is lib/cache/tune.c) ----------------------
 * ctx->shape (core_internal.h) says how the map launcher and the reductions shape their
 * kernels on the context's device.  usmarr__kernel_shape_choose() (called at context
 * creation) takes the platform's table entry, then a shape forced by USMARR_KERNEL_SHAPE,
 * else the tuner's choice stored for the device in the disk cache.  As text (the forced
 * variable's syntax and the disk entry's payload):
 *      <name> contig=vec16/64 nt=8M rows=1 rowgroup=128x2 rowvec=64 copyvec=0 vecs=1 masks=1 tblock=1 tile=0
 *      s2=32 tree=0 ptrval=0
 * any part of it (a table name, then fields). */

/* The table's shape for the context's platform and device type (no limits applied). */
USMARR_INTERNAL void usmarr__kernel_shape_default(const usmarr_context_t *ctx, struct usmarr__kernel_shape *shape);
/* Applies the device profile's limits (group sizes, local memory, the reductions' trees). */
USMARR_INTERNAL void usmarr__kernel_shape_fit(const usmarr_context_t *ctx, struct usmarr__kernel_shape *shape);
/* Sets ctx->shape (fitted) and forgets the launch fast path's kernels, which were chosen
 * under the old shape.  Not while other threads launch on the context. */
USMARR_INTERNAL void usmarr__kernel_shape_set(usmarr_context_t *ctx, const struct usmarr__kernel_shape *shape);
/* `text` over `base` into *out (out may be base): 0, or -1 (out untouched) when a name is
 * unknown or not first, a field unknown or a value out of range. */
USMARR_INTERNAL int usmarr__kernel_shape_parse(const char *text, const struct usmarr__kernel_shape *base,
                                               struct usmarr__kernel_shape *out);
/* The shape as text (every field, name first); snprintf's return value. */
USMARR_INTERNAL int usmarr__kernel_shape_format(const struct usmarr__kernel_shape *shape, char *buffer, size_t size);
/* Stores the device's tuned shape (a no-op unless the disk cache is on); -1 if unwritable. */
USMARR_INTERNAL int usmarr__kernel_shape_store(cl_platform_id platform, cl_device_id device,
                                               const struct usmarr__kernel_shape *shape);
/* The entry's file path (tests); false if unresolvable. */
USMARR_INTERNAL bool usmarr__kernel_shape_entry_path(cl_platform_id platform, cl_device_id device, char *buffer,
                                                     size_t size);

/* ---- results of operations (result.c) ------------------------------------------- */

/* USMARR_ERROR_CONTEXT_MISMATCH unless a and b share a context (result.c). */
USMARR_INTERNAL int usmarr__same_context(const usmarr_array_t *a, const char *aname, const usmarr_array_t *b,
                                         const char *bname);

/* The result convention (doc/engine.md, result.c): `target` is `out` (checked: context, writable,
 * shape, dtype castable same_kind) retained, or a new C-ordered array of `like`'s USM
 * kind.  When `out` shares memory with one of the `ninputs` inputs, `target` is a
 * temporary that usmarr__result_end() copies into `out` (inputs are then read completely
 * before `out` is written).  usmarr__result_end() hands the result to `result` on success,
 * releases what is not handed over, and returns `rc` (or the final copy's error). */
USMARR_INTERNAL int usmarr__result_begin(const usmarr_array_t *like, const usmarr_array_t *const *inputs, int ninputs,
                                         usmarr_dtype_t dtype, int ndim, const int64_t *shape, usmarr_array_t *out,
                                         usmarr_array_t **result, usmarr_array_t **target);
USMARR_INTERNAL int usmarr__result_end(int rc, usmarr_array_t *target, usmarr_array_t *out, usmarr_array_t **result);

/* ---- launches that store their programs (program.c) ------------------------------ */
/* A region (nestable, per thread) in which the caller launches every kernel it gets
 * before returning to its own caller: a program compiled from source there is stored in
 * the disk cache after its first launch, whose work-group function PoCL's binary then
 * carries, rather than when built.  _end stores, as built, what the region did not launch.
 * Nothing between the two may wait for another process (the compile lock is held). */
USMARR_INTERNAL void usmarr__store_after_launch_begin(void);
USMARR_INTERNAL void usmarr__store_after_launch_end(void);
/* A program launched in such a region is stored once that launch has completed, found by
 * this poll (every later launch on the context polls, and the context's release stores the
 * rest): cheap when nothing waits. */
USMARR_INTERNAL void usmarr__program_stores_poll(usmarr_context_t *ctx);

/* ---- settings and maintenance, behind the public usmarr_cache_* functions (cache.c) --- */

/* NULL: back to the default resolution.  The caller has validated `path`. */
USMARR_INTERNAL void usmarr__diskcache_set_directory(const char *path);
USMARR_INTERNAL void usmarr__diskcache_set_mode(usmarr_cache_mode_t mode);
USMARR_INTERNAL usmarr_cache_mode_t usmarr__diskcache_mode(void);
/* Resolves, creates (mode on) and checks the directory now rather than at the first
 * load or store.  True when the disk cache is usable in the current mode; otherwise
 * `reason` says why (mode off, or the failure that disabled it). */
USMARR_INTERNAL bool usmarr__diskcache_ready(char *reason, size_t reason_size);
/* The resolved directory into buffer[size] (*needed: its length + 1).  0; ERANGE when
 * the buffer is too small; ENOENT when no directory can be resolved (*why says why). */
USMARR_INTERNAL int usmarr__diskcache_directory(char *buffer, size_t size, size_t *needed, const char **why);
/* Counters plus a scan of the directory.  0, or an errno from the scan. */
USMARR_INTERNAL int usmarr__diskcache_stats(usmarr_cache_stats_t *stats);
/* The system cache directory into buffer[size] (*needed: its length + 1): 0; ERANGE when
 * the buffer is too small; ENOENT when there is none (*why says why: not configured, off,
 * missing, not safe to trust). */
USMARR_INTERNAL int usmarr__diskcache_system_directory(char *buffer, size_t size, size_t *needed, char *why,
                                                       size_t why_size);
/* Deletes every entry (and stale temporary files) of the directory; never other files.
 * 0, or an errno; `failed_path` then says what failed ("list <dir>", "delete <file>"). */
USMARR_INTERNAL int usmarr__diskcache_clear(size_t *removed, char *failed_path, size_t failed_path_size);

#endif
