/* Private to lib/engine/: the per-context program cache (program.c) and what the
 * launchers (launch.c, map.c) read of it: programs, their kernels, the fast path's
 * table, the recipes that name programs.  doc/engine.md, "Inside the engine". */
#ifndef USMARR_PROGRAM_CACHE_H
#define USMARR_PROGRAM_CACHE_H

#include "engine_internal.h"

/* ---- the per-context kernel cache (program.c, launch.c, map.c) -------------------- */

/* PROGRAM_RETRY: the last build ran out of memory; the next asker builds again (a
 * transient failure must not fail the kernel for the rest of the context's life). */
enum program_state { PROGRAM_BUILDING, PROGRAM_READY, PROGRAM_FAILED, PROGRAM_RETRY };

/* The values last set on a kernel's first arguments (under the queue lock), so that a
 * launch with the same pointers and sizes sets nothing again: on Intel's CPU runtime
 * setting three USM pointers and a length costs ~0.8 us, a quarter of a whole 16-element
 * launch.  `size` 0 with `known`: a USM pointer, valid while ctx->usm_frees == `frees`
 * (a new block at a freed block's address is another allocation to the driver). */
#define KERNEL_ARG_SLOTS 24
#define KERNEL_ARG_BYTES 16
struct kernel_arg_slot {
    bool known;
    unsigned char size;
    unsigned frees;
    unsigned char bytes[KERNEL_ARG_BYTES];
};

struct usmarr__kernel {
    cl_kernel kernel;
    struct program *program;
    struct usmarr__kernel *next;
    struct kernel_arg_slot args[KERNEL_ARG_SLOTS];
    bool indirect; /* its USM indirect-access flags are set (USMARR__ARG_ADDRESS) */
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
    atomic_bool store_pending; /* compiled from source, its store waiting for its first launch */
    int lock_fd;               /* the disk cache's compile lock, held until the store (or -1) */
    char *lock_path;
    struct usmarr__kernel *kernels;
};

#define CACHE_BUCKETS 256
#define FAST_SLOTS 64
#define STORE_WAITS_MAX 64

/* The launch fast path: a map's signature -> its kernel, so that a repeated launch skips
 * building the options string and the program lookup (tiny copies are latency-bound). */
struct fast_entry {
    char family[64];
    char defines[96];
    int counts[4];     /* nout, nin, nscalars, class */
    unsigned masks[3]; /* the strides compiled in (unit, zero) and the non-temporal variant */
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
    void *standin; /* a small device block passed for NULL pointer arguments (program.c) */
    cl_context cl; /* to free the standin block */
    usmarr__free_fn blocking_free;
    struct fast_entry fast[FAST_SLOTS];
    /* Programs launched once whose binary is stored when that launch completes (program.c,
     * usmarr__program_stores_poll): never waited for, since the application can hold the
     * queue behind its own events. */
    mtx_t waits_lock;
    atomic_int nwaits;
    struct store_wait {
        usmarr_context_t *ctx;
        struct program *p;
        cl_event launch;
    } waits[STORE_WAITS_MAX];
};

/* What identifies a program: its family, whether it is a map program, the build options
 * and the operands whose dtype varies within it. */
struct recipe {
    const char *family;
    bool map;
    const char *options;
    unsigned vary_mask;
    uint32_t vary_dtypes;
    const struct usmarr__source_part *parts; /* a generated program: these in place of the family file */
    int nparts;
};

/* The kernel `name` of the recipe's program, building the program (single-flight) on
 * first use. */
USMARR_INTERNAL int usmarr__recipe_kernel(usmarr_context_t *ctx, const struct recipe *r, const char *name,
                                          usmarr__kernel_t **out);

/* After the first launch of `p`, whose store waited for it (launch.c): `launch` is that
 * launch's event (NULL when the enqueue failed).  Releases the compile lock and stores the
 * binary now if the launch has completed, else when a later poll finds it completed. */
USMARR_INTERNAL void usmarr__program_launched(usmarr_context_t *ctx, struct program *p, cl_event launch);


/* The context's small device block that stands in for a NULL pointer argument (the
 * pointer of a zero-size array), allocated on first use: NVIDIA's OpenCL takes NULL at
 * clSetKernelArgSVMPointer and then fails the enqueue. */
USMARR_INTERNAL int usmarr__standin_pointer(usmarr_context_t *ctx, const void **pointer);

#endif
