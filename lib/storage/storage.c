/* The storage object: creation (empty, zeros, ones, full and their _like forms), life
 * cycle, accessors, the halo setter, and access to the sides. */
#include "storage_internal.h"

#include <stdlib.h>
#include <string.h>



usmarr_storage_t *usmarr_storage_retain(usmarr_storage_t *storage) { return USMARR__RETAIN(storage); }

void usmarr_storage_release(usmarr_storage_t *storage)
{
    if (!USMARR__RELEASE_LAST(storage))
        return;
    /* Detach first: once the last storage of a pair is gone its span is never touched. */
    usmarr__sync_state_detach(storage->sync);
    usmarr_array_release(storage->host);
    usmarr_array_release(storage->device);
    free(storage);
}

int usmarr_storage_refcount(const usmarr_storage_t *storage)
{
    return USMARR__REFCOUNT(storage);
}

/* ---- accessors ------------------------------------------------------------------------- */

static const usmarr_array_t *any_side(const usmarr_storage_t *s) { return s->host ? s->host : s->device; }

int usmarr_storage_ndim(const usmarr_storage_t *s) { return s ? s->ndim : -1; }
const char *usmarr_storage_axes(const usmarr_storage_t *s) { return s ? s->axes : NULL; }
const int64_t *usmarr_storage_shape(const usmarr_storage_t *s) { return s ? any_side(s)->shape : NULL; }
const int64_t *usmarr_storage_strides(const usmarr_storage_t *s) { return s ? any_side(s)->strides : NULL; }
usmarr_dtype_t usmarr_storage_dtype(const usmarr_storage_t *s) { return s ? s->dtype : USMARR_DTYPE_COUNT; }
int64_t usmarr_storage_nbytes(const usmarr_storage_t *s) { return s ? usmarr_array_nbytes(any_side(s)) : 0; }
usmarr_storage_kind_t usmarr_storage_kind(const usmarr_storage_t *s) { return s ? s->kind : (usmarr_storage_kind_t)0; }
usmarr_context_t *usmarr_storage_context(const usmarr_storage_t *s)
{
    return s ? any_side(s)->memory->context : NULL;
}
const int64_t (*usmarr_storage_halo(const usmarr_storage_t *s))[2] { return s ? (const int64_t (*)[2])s->halo : NULL; }
const int64_t *usmarr_storage_aligned_index(const usmarr_storage_t *s) { return s ? s->aligned_index : NULL; }
int64_t usmarr_storage_alignment(const usmarr_storage_t *s) { return s ? s->alignment : 0; }
const char *usmarr_storage_layout(const usmarr_storage_t *s) { return s ? s->layout : NULL; }

void usmarr_storage_halo_symmetric(usmarr_storage_options_t *options, int ndim, const int64_t *width)
{
    if (!options || ndim < 0 || ndim > USMARR_STORAGE_MAX_NDIM || (ndim && !width))
        return;
    options->nhalo = ndim;
    for (int k = 0; k < ndim; k++)
        options->halo[k][0] = options->halo[k][1] = width[k];
}

int usmarr_storage_set_halo(usmarr_storage_t *storage, int nhalo, const int64_t (*halo)[2])
{
    usmarr__clear_error();
    if (!storage)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "storage is NULL");
    if (nhalo != storage->ndim)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "nhalo=%d: the storage has %d axes (\"%s\")", nhalo,
                            storage->ndim, storage->axes);
    if (nhalo && !halo)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "halo is NULL with nhalo=%d", nhalo);
    const int64_t *shape = usmarr_storage_shape(storage);
    for (int k = 0; k < nhalo; k++) {
        if (halo[k][0] < 0 || halo[k][1] < 0)
            return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "halo[%d]=(%lld, %lld) is negative", k,
                                (long long)halo[k][0], (long long)halo[k][1]);
        if (halo[k][0] > shape[k] || halo[k][1] > shape[k] - halo[k][0])
            return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT,
                                "halo[%d]=(%lld, %lld) is larger than shape[%d]=%lld (axis %c)", k,
                                (long long)halo[k][0], (long long)halo[k][1], k, (long long)shape[k],
                                storage->axes[k]);
    }
    for (int k = 0; k < nhalo; k++) {
        storage->halo[k][0] = halo[k][0];
        storage->halo[k][1] = halo[k][1];
    }
    return 0;
}

/* ---- the sides ------------------------------------------------------------------------- */

int usmarr__storage_check_side(const usmarr_storage_t *storage, const void *out, const char *out_name, bool device,
                               const char *instead)
{
    if (!storage || !out)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s is NULL", !storage ? "storage" : out_name);
    if (!(device ? storage->device : storage->host))
        return usmarr__fail(USMARR_ERROR_UNSUPPORTED, "storage is a %s storage: it has no %s side%s%s%s",
                            device ? "host" : "device", device ? "device" : "host", instead ? " (use " : "",
                            instead ? instead : "", instead ? ")" : "");
    return 0;
}

/* usmarr_storage_host_array and (`device`) usmarr_storage_device_array. */
static int side_array(usmarr_storage_t *storage, bool write, usmarr_array_t **array, bool device)
{
    usmarr__clear_error();
    int rc = usmarr__storage_check_side(storage, array, "array", device, NULL);
    if (!rc)
        rc = device ? usmarr__storage_sync_for_device(storage) : usmarr__storage_sync_for_host(storage);
    /* Queued kernels may still write the host side: the caller may read it right away. */
    if (!rc && !device)
        rc = usmarr_context_finish(storage->host->memory->context);
    if (rc)
        return rc;
    if (write)
        usmarr__storage_mark(storage, device ? USMARR_SYNC_DEVICE_DIRTY : USMARR_SYNC_HOST_DIRTY);
    *array = device ? storage->device : storage->host;
    return 0;
}

int usmarr_storage_host_array(usmarr_storage_t *storage, bool write, usmarr_array_t **array)
{
    return side_array(storage, write, array, false);
}

int usmarr_storage_device_array(usmarr_storage_t *storage, bool write, usmarr_array_t **array)
{
    return side_array(storage, write, array, true);
}

int usmarr_storage_host_data(usmarr_storage_t *storage, bool write, void **data)
{
    usmarr__clear_error();
    if (!data)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "data is NULL");
    usmarr_array_t *a;
    int rc = usmarr_storage_host_array(storage, write, &a);
    if (!rc)
        *data = usmarr_array_data(a);
    return rc;
}

/* ---- creation -------------------------------------------------------------------------- */

/* The bytes of a new side's padded box: from its first element to the end of its last
 * padded line, the outermost stride times its extent (the alignment slack around it is
 * not the storage's; a fill of just the box is faster where the block's size is odd). */
static size_t padded_box_bytes(const usmarr_array_t *a, size_t item)
{
    int64_t box = 1;
    for (int k = 0; k < a->ndim; k++) {
        if (a->shape[k] == 0)
            return 0;
        if (a->strides[k] * a->shape[k] > box)
            box = a->strides[k] * a->shape[k];
    }
    return (size_t)box * item;
}

/* Fills the padded box of each side of a new storage (one fill per side). */
static int fill_blocks(usmarr_storage_t *s, const unsigned char *pattern)
{
    size_t item = usmarr_dtype_size(s->dtype);
    usmarr_array_t *sides[2] = {s->host, s->device};
    for (int i = 0; i < 2; i++) {
        if (!sides[i] || (i == 1 && sides[1] == sides[0]))
            continue;
        size_t bytes = padded_box_bytes(sides[i], item);
        int rc = bytes ? usmarr_memory_fill(sides[i]->memory, (size_t)sides[i]->offset * item, pattern, item, bytes)
                       : 0;
        if (rc)
            return rc;
    }
    return 0;
}

/* Every creation function: resolve, allocate, fill when `value` is given. */
static int create(const usmarr_storage_options_t *o, const struct usmarr__storage_source *src,
                  const usmarr_scalar_t *value, usmarr_storage_t **out)
{
    struct usmarr__storage_params p;
    int rc = usmarr__storage_resolve(o, src, &p);
    unsigned char pattern[16];
    if (!rc && value) /* fail before allocating */
        rc = usmarr__scalar_store(*value, p.dtype, pattern, "value");
    usmarr_storage_t *s = NULL;
    if (!rc)
        rc = usmarr__storage_allocate(&p, &s);
    if (!rc && value)
        rc = fill_blocks(s, pattern);
    if (rc) {
        usmarr_storage_release(s);
        return rc;
    }
    *out = s;
    return 0;
}

static int plain(const usmarr_storage_options_t *o, const usmarr_scalar_t *value, usmarr_storage_t **out)
{
    usmarr__clear_error();
    if (!o || !out)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s is NULL", !o ? "options" : "storage");
    return create(o, NULL, value, out);
}

int usmarr_storage_empty(const usmarr_storage_options_t *options, usmarr_storage_t **storage)
{
    return plain(options, NULL, storage);
}

int usmarr_storage_zeros(const usmarr_storage_options_t *options, usmarr_storage_t **storage)
{
    usmarr_scalar_t zero = usmarr_scalar_bool(false);
    return plain(options, &zero, storage);
}

int usmarr_storage_ones(const usmarr_storage_options_t *options, usmarr_storage_t **storage)
{
    usmarr_scalar_t one = usmarr_scalar_bool(true);
    return plain(options, &one, storage);
}

int usmarr_storage_full(const usmarr_storage_options_t *options, usmarr_scalar_t value, usmarr_storage_t **storage)
{
    return plain(options, &value, storage);
}

static void kind_source(usmarr_storage_kind_t kind, int *device, int *managed)
{
    *device = kind == USMARR_STORAGE_HOST ? 0 : 1;
    *managed = kind == USMARR_STORAGE_DEVICE   ? USMARR__MANAGED_NONE
               : kind == USMARR_STORAGE_SHARED ? USMARR__MANAGED_CUDA
                                               : USMARR__MANAGED_GT4PY;
}

/* The _like forms: the prototype is the second source of every parameter. */
static int like(const usmarr_storage_t *proto, const usmarr_storage_options_t *overrides,
                const usmarr_scalar_t *value, usmarr_storage_t **out)
{
    usmarr__clear_error();
    if (!proto || !out)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s is NULL", !proto ? "proto" : "storage");
    usmarr_storage_options_t none = USMARR_STORAGE_OPTIONS_INIT;
    if (!overrides)
        overrides = &none;
    if (overrides->nshape || overrides->axes)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT,
                            "overrides.%s is set: a _like function takes the shape and axes of proto",
                            overrides->nshape ? "shape" : "axes");
    struct usmarr__storage_source src = {
        .context = usmarr_storage_context(proto),
        .dtype = (int)proto->dtype,
        .axes = proto->axes,
        .ndim = proto->ndim,
        .shape = usmarr_storage_shape(proto),
        .halo = (const int64_t (*)[2])proto->halo,
        .aligned_index = proto->aligned_index,
        .alignment = proto->alignment,
        .layout = proto->layout,
    };
    kind_source(proto->kind, &src.device, &src.managed);
    return create(overrides, &src, value, out);
}

int usmarr_storage_empty_like(const usmarr_storage_t *proto, const usmarr_storage_options_t *overrides,
                              usmarr_storage_t **storage)
{
    return like(proto, overrides, NULL, storage);
}

int usmarr_storage_zeros_like(const usmarr_storage_t *proto, const usmarr_storage_options_t *overrides,
                              usmarr_storage_t **storage)
{
    usmarr_scalar_t zero = usmarr_scalar_bool(false);
    return like(proto, overrides, &zero, storage);
}

int usmarr_storage_ones_like(const usmarr_storage_t *proto, const usmarr_storage_options_t *overrides,
                             usmarr_storage_t **storage)
{
    usmarr_scalar_t one = usmarr_scalar_bool(true);
    return like(proto, overrides, &one, storage);
}

int usmarr_storage_full_like(const usmarr_storage_t *proto, const usmarr_storage_options_t *overrides,
                             usmarr_scalar_t value, usmarr_storage_t **storage)
{
    return like(proto, overrides, &value, storage);
}
