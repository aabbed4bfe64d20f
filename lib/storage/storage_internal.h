/* Private declarations of the storage layer (lib/storage/).  Never installed.
 * The layer sits on top of arrays, views and the operations; nothing below it includes
 * this header. */
#ifndef USMARR_STORAGE_INTERNAL_H
#define USMARR_STORAGE_INTERNAL_H

#include "../internal.h"

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

/* A storage view over `base`'s memory: new per-side arrays (taken: the new storage owns
 * the references passed in), axes and metadata; kind, dtype, alignment, layout and sync
 * state (retained, storages count incremented) come from `base`. */
USMARR_INTERNAL int usmarr__storage_view_new(const usmarr_storage_t *base, const char *axes,
                                             usmarr_array_t *host, usmarr_array_t *device,
                                             const int64_t (*halo)[2], const int64_t *aligned_index,
                                             usmarr_storage_t **out);

/* Makes the device side current (pushes a host-dirty pair); no-op for other kinds. */
USMARR_INTERNAL int usmarr__storage_sync_for_device(usmarr_storage_t *s);
/* Makes the host side current (pulls a device-dirty pair); no-op for other kinds. */
USMARR_INTERNAL int usmarr__storage_sync_for_host(usmarr_storage_t *s);

/* Validates an axes string ("IJK" sub-sequence, any order, no duplicates); `what` names
 * the argument in the detail. */
USMARR_INTERNAL int usmarr__storage_check_axes(const char *axes, const char *what);

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

/* Allocates a new storage for resolved parameters (aligned, padded, uninitialised; a
 * managed pair starts clean). */
USMARR_INTERNAL int usmarr__storage_allocate(const struct usmarr__storage_params *p, usmarr_storage_t **out);

#endif
