/* Private declarations of the storage layer (lib/storage/).  Never installed.
 * The layer sits on top of arrays, views and the operations; nothing below it includes
 * this header. */
#ifndef USMARR_STORAGE_INTERNAL_H
#define USMARR_STORAGE_INTERNAL_H

#include "../interop/interop_internal.h"
#include "../ops/ops_internal.h"

/* One per managed host/device pair, shared by every view of it. */
struct usmarr_sync_state {
    atomic_int refcount; /* handles: each storage of the pair holds one; users may hold more */
    atomic_int storages; /* storages of the pair alive; 0 = the pair was released */
    atomic_int value;    /* usmarr_sync_t */
    mtx_t lock;          /* one transfer at a time; guards the fields below */
    /* The pair's full extent: a transfer moves these bytes whole, so that every view,
     * whatever sub-region it shows, sees the other side's data afterwards.  Valid while
     * `storages` > 0 (the storages keep the blocks alive). */
    char *host_begin;
    char *device_begin;
    size_t span_bytes;
};

struct usmarr_storage {
    atomic_int refcount;
    int ndim;
    char axes[USMARR_STORAGE_MAX_NDIM + 1];
    char layout[4];
    usmarr_storage_kind_t kind;
    usmarr_dtype_t dtype;
    int64_t halo[USMARR_STORAGE_MAX_NDIM][2];
    int64_t aligned_index[USMARR_STORAGE_MAX_NDIM];
    int64_t alignment; /* bytes */
    /* The sides, laid out alike (same shape and strides).  HOST: host only; DEVICE:
     * device only; SHARED: one array in both fields (one reference each); MANAGED: two
     * arrays over two blocks plus `sync`. */
    usmarr_array_t *host;
    usmarr_array_t *device;
    usmarr_sync_state_t *sync;
};

/* Fully resolved creation parameters (after preset, wrapped buffer and fallbacks). */
struct usmarr__storage_params {
    usmarr_context_t *context;
    usmarr_dtype_t dtype;
    int ndim;
    char axes[USMARR_STORAGE_MAX_NDIM + 1];
    int64_t shape[USMARR_STORAGE_MAX_NDIM];
    int64_t halo[USMARR_STORAGE_MAX_NDIM][2];
    int64_t aligned_index[USMARR_STORAGE_MAX_NDIM];
    int64_t alignment; /* bytes */
    char layout[4];
    usmarr_storage_kind_t kind;
};

/* What the second source of parameters says (the search order: explicit options,
 * then the preset, then this, then the fallbacks): a `_like` prototype or the wrapped or
 * copied buffers.  Unknown fields: NULL, -1 or 0. */
struct usmarr__storage_source {
    usmarr_context_t *context;
    int dtype;                    /* -1 unknown */
    const char *axes;             /* NULL unknown */
    int ndim;                     /* -1 unknown */
    const int64_t *shape;         /* ndim extents in axes order, or NULL */
    const int64_t (*halo)[2];     /* ndim pairs, or NULL */
    const int64_t *aligned_index; /* ndim entries, or NULL */
    int64_t alignment;            /* bytes; 0 unknown */
    const char *layout;           /* NULL unknown */
    int device, managed;          /* as usmarr__storage_parse_device/_managed; 0 unknown */
};

/* ---- storage.c ------------------------------------------------------------------------ */

/* The arguments of a call on one side of a storage (`device`: the device side): storage
 * and its out argument given, and that side present (`instead`, may be NULL, names the
 * call to use otherwise). */
USMARR_INTERNAL int usmarr__storage_check_side(const usmarr_storage_t *storage, const void *out, const char *out_name,
                                               bool device, const char *instead);

/* A storage over the given sides (taken: released on failure too) with the metadata of
 * `p` (its context and shape must be the arrays'); `sync` (borrowed, may be NULL) is
 * attached: retained and its storages count incremented. */
USMARR_INTERNAL int usmarr__storage_assemble(const struct usmarr__storage_params *p, usmarr_array_t *host,
                                             usmarr_array_t *device, usmarr_sync_state_t *sync,
                                             usmarr_storage_t **out);

/* A storage view over `base`'s memory: new per-side arrays (taken: the new storage owns
 * the references passed in; for a shared storage pass the same array twice with two
 * references), axes and metadata; kind, dtype, alignment, layout and sync state
 * (attached) come from `base`. */
USMARR_INTERNAL int usmarr__storage_view_new(const usmarr_storage_t *base, const char *axes,
                                             usmarr_array_t *host, usmarr_array_t *device,
                                             const int64_t (*halo)[2], const int64_t *aligned_index,
                                             usmarr_storage_t **out);

/* ---- params.c ------------------------------------------------------------------------- */

/* Resolves options against the preset, `source` (may be NULL) and the fallbacks, and
 * validates the result (axes, shape, halo, aligned index, alignment against the itemsize,
 * layout, kind, dtype on the context).  Details name "options.<field>". */
USMARR_INTERNAL int usmarr__storage_resolve(const usmarr_storage_options_t *options,
                                            const struct usmarr__storage_source *source,
                                            struct usmarr__storage_params *params);

/* Validates an axes string ("IJK" sub-sequence, any order, no duplicates); `what` names
 * the argument in the detail. */
USMARR_INTERNAL int usmarr__storage_check_axes(const char *axes, const char *what);
/* Validates a layout: a length-3 permutation of "IJK". */
USMARR_INTERNAL int usmarr__storage_check_layout(const char *layout, const char *what);
/* The layout strides describe: the axes by decreasing |stride| (ties in index order),
 * then the missing letters in "IJK" order. */
USMARR_INTERNAL void usmarr__storage_layout_from_strides(const char *axes, const int64_t *strides, char layout[4]);
/* USMARR_ERROR_INVALID_ARGUMENT unless the strides order the axes as `layout` says and
 * no two elements alias: over the axes of extent > 1 in layout order, each |stride|
 * exceeds what the later (smaller) axes reach.  `what` names the strides. */
USMARR_INTERNAL int usmarr__storage_check_strides(const char *axes, const char *layout, const int64_t *shape,
                                                  const int64_t *strides, const char *what);
/* Position of `letter` in "IJK" (0, 1, 2), or -1. */
static inline int usmarr__storage_letter(char letter)
{
    return letter == 'I' ? 0 : letter == 'J' ? 1 : letter == 'K' ? 2 : -1;
}

/* `device`: NULL -> 0 (unset), "gpu"/"device" -> 1.  `managed`: NULL -> 0 (unset),
 * "none", "gt4py", "cuda"/"shared" -> the values below. */
enum { USMARR__MANAGED_NONE = 1, USMARR__MANAGED_GT4PY = 2, USMARR__MANAGED_CUDA = 3 };
USMARR_INTERNAL int usmarr__storage_parse_device(const char *device, const char *what, int *value);
USMARR_INTERNAL int usmarr__storage_parse_managed(const char *managed, const char *what, int *value);

/* ---- preset.c ------------------------------------------------------------------------- */

/* Looks a preset up; on failure the detail names `what` and lists the known names. */
USMARR_INTERNAL int usmarr__storage_preset_get(const char *name, usmarr_storage_preset_t *preset, const char *what);

/* ---- alloc.c -------------------------------------------------------------------------- */

/* Allocates a new storage for resolved parameters (aligned, padded, uninitialised; a
 * managed pair starts clean). */
USMARR_INTERNAL int usmarr__storage_allocate(const struct usmarr__storage_params *p, usmarr_storage_t **out);

/* ---- sync.c --------------------------------------------------------------------------- */

/* A new sync state (one reference, no storage attached yet) over a pair's span. */
USMARR_INTERNAL int usmarr__sync_state_new(usmarr_sync_t value, void *host_begin, void *device_begin,
                                           size_t span_bytes, usmarr_sync_state_t **out);
/* A storage starts or stops using a sync state (reference and storages count). */
USMARR_INTERNAL void usmarr__sync_state_attach(usmarr_sync_state_t *state);
USMARR_INTERNAL void usmarr__sync_state_detach(usmarr_sync_state_t *state);
/* Sets a managed pair's state after the library wrote one side; no-op for other kinds. */
USMARR_INTERNAL void usmarr__storage_mark(usmarr_storage_t *s, usmarr_sync_t value);
/* Makes the device side current (pushes a host-dirty pair); no-op for other kinds. */
USMARR_INTERNAL int usmarr__storage_sync_for_device(usmarr_storage_t *s);
/* Makes the host side current (pulls a device-dirty pair); no-op for other kinds. */
USMARR_INTERNAL int usmarr__storage_sync_for_host(usmarr_storage_t *s);

/* ---- named-axes broadcasting and output parameters (broadcast.c, storage_ops.c) ------------ */

/* The axes of an operation's result and their extents. */
struct usmarr__named_shape {
    int ndim;
    char axes[USMARR_STORAGE_MAX_NDIM + 1];
    int64_t shape[USMARR_STORAGE_MAX_NDIM];
};

/* The letters of one operand's dims ("" for scalars and 0-d arrays). */
typedef char usmarr__letters_t[USMARR_STORAGE_MAX_NDIM + 1];

/* Named-axes broadcasting for the `n` operands of operation `what`: the result's axes and
 * extents (from the storages by their letters, or `out`'s when given), and the letters
 * each operand's dims stand for (a plain array gets those of the result, of a storage of
 * its shape, or "IJK"-like ones when it is 3-D with extent-1 dims).  Conflicting extents
 * on one letter and arrays of no allowed shape are USMARR_ERROR_SHAPE_MISMATCH. */
USMARR_INTERNAL int usmarr__storage_broadcast(const char *what, const usmarr_storage_operand_t *operands, int n,
                                              const usmarr_storage_t *out, struct usmarr__named_shape *res,
                                              usmarr__letters_t *letters);

/* A view of `a`, whose dims stand for `letters`, on the axes of `res`: its extent-1 dims
 * of letters `res` lacks squeezed, the others permuted into `res`'s order, extent-1 dims
 * inserted for the letters it lacks (so the dispatcher broadcasts them).  `a` itself,
 * retained, when nothing changes. */
USMARR_INTERNAL int usmarr__storage_view_on(const usmarr_array_t *a, const char *letters,
                                            const struct usmarr__named_shape *res, usmarr_array_t **view);

/* The output parameters (doc/storage.md) of a result of `res` and `dtype` over the storage
 * operands: aligned index the per-axis maximum, alignment the least common multiple, halo
 * such that the domain is the intersection of the domains, layout, kind and context of
 * the first storage. */
USMARR_INTERNAL int usmarr__storage_output_params(const usmarr_storage_operand_t *operands, int n,
                                                  const struct usmarr__named_shape *res, usmarr_dtype_t dtype,
                                                  struct usmarr__storage_params *p);

/* `alignment` (bytes) made valid for `dtype`: kept when it and the itemsize divide one
 * another, else their least common multiple. */
USMARR_INTERNAL int64_t usmarr__storage_fit_alignment(int64_t alignment, usmarr_dtype_t dtype);

#endif
