/* GT4Py's aligned allocation (its allocators module), in bytes:
 * - items per aligned block = max(1, alignment / itemsize);
 * - the contiguous (smallest-stride) dimension is padded up to whole blocks, and the
 *   strides are the dense strides of that padded shape in layout order;
 * - the block holds the padded size plus (items per block - 1) items of slack, and
 *   element [0,0,0] is placed so that the element at the aligned index starts on an
 *   `alignment`-byte address, whatever address the driver returned;
 * - the storage shows the requested shape: the padding is never part of it. */
#include "storage_internal.h"

#include <string.h>

/* Axis indices in layout order, largest stride first. */
static void layout_order(const struct usmarr__storage_params *p, int *order)
{
    int m = 0;
    for (int l = 0; l < 3; l++) {
        const char *q = strchr(p->axes, p->layout[l]);
        if (q && *q)
            order[m++] = (int)(q - p->axes);
    }
}

struct side_layout {
    int64_t strides[USMARR_STORAGE_MAX_NDIM];
    int64_t padded_size; /* elements of the padded box */
    int64_t block_items; /* the allocation, slack included */
    int64_t items_per_block;
    int64_t aligned_contiguous; /* the aligned index on the contiguous axis */
};

static int plan(const struct usmarr__storage_params *p, struct side_layout *s)
{
    int nd = p->ndim, order[USMARR_STORAGE_MAX_NDIM];
    int64_t item = (int64_t)usmarr_dtype_size(p->dtype);
    s->items_per_block = p->alignment > item ? p->alignment / item : 1;
    s->aligned_contiguous = 0;
    layout_order(p, order);
    int64_t padded[USMARR_STORAGE_MAX_NDIM];
    memcpy(padded, p->shape, sizeof padded);
    if (nd > 0) {
        int c = order[nd - 1];
        int64_t b = s->items_per_block, blocks = p->shape[c] / b + (p->shape[c] % b != 0);
        if (usmarr__mul_overflow(blocks, b, &padded[c]))
            return usmarr__fail(USMARR_ERROR_OVERFLOW, "shape[%d]=%lld padded to %lld-item blocks overflows", c,
                                (long long)p->shape[c], (long long)b);
        s->aligned_contiguous = p->aligned_index[c];
    }
    int64_t step = 1;
    bool empty = false;
    for (int i = nd - 1; i >= 0; i--) {
        int k = order[i];
        s->strides[k] = step;
        empty |= padded[k] == 0;
        /* Zero extents keep the strides of extent 1, as NumPy does. */
        if (usmarr__mul_overflow(step, padded[k] > 0 ? padded[k] : 1, &step))
            return usmarr__fail(USMARR_ERROR_OVERFLOW, "options.shape[%d]=%lld: the padded size overflows 64 bits", k,
                                (long long)p->shape[k]);
    }
    s->padded_size = empty ? 0 : step;
    int64_t bytes;
    if (usmarr__add_overflow(s->padded_size, empty ? 0 : s->items_per_block - 1, &s->block_items) ||
        usmarr__mul_overflow(s->block_items, item, &bytes))
        return usmarr__fail(USMARR_ERROR_OVERFLOW, "options.shape: %lld padded elements of %s overflow 64 bits of "
                                                   "bytes",
                            (long long)s->padded_size, usmarr_dtype_name(p->dtype));
    return 0;
}

/* One side: a fresh block of `usm` kind and an array over it whose aligned element sits
 * on an aligned address. */
static int allocate_side(const struct usmarr__storage_params *p, const struct side_layout *s, usmarr_usm_kind_t usm,
                         usmarr_array_t **out)
{
    size_t item = usmarr_dtype_size(p->dtype);
    usmarr_memory_t *m;
    /* Ask for itemsize alignment only (always honoured); the offset does the rest, so
     * alignments a driver would refuse (PoCL above 128 bytes) still work. */
    int rc = usmarr_memory_create(p->context, usm, (size_t)s->block_items * item, item, &m);
    if (rc)
        return rc;
    int64_t offset = 0, b = s->items_per_block;
    if (b > 1 && m->pointer) {
        int64_t mismatch = (int64_t)((uintptr_t)m->pointer % (uintptr_t)p->alignment) / (int64_t)item;
        int64_t halo_offset = (s->aligned_contiguous + b - 1) / b * b - s->aligned_contiguous;
        offset = ((halo_offset - mismatch) % b + b) % b;
    }
    rc = usmarr__array_new(m, p->dtype, p->ndim, p->shape, s->strides, offset, USMARR_FLAG_WRITABLE, out);
    usmarr_memory_release(m);
    return rc;
}

int usmarr__storage_allocate(const struct usmarr__storage_params *p, usmarr_storage_t **out)
{
    struct side_layout s;
    int rc = plan(p, &s);
    if (rc)
        return rc;
    usmarr_array_t *host = NULL, *device = NULL;
    usmarr_sync_state_t *sync = NULL;
    switch (p->kind) {
    case USMARR_STORAGE_HOST:
        rc = allocate_side(p, &s, USMARR_USM_HOST, &host);
        break;
    case USMARR_STORAGE_DEVICE:
        rc = allocate_side(p, &s, USMARR_USM_DEVICE, &device);
        break;
    case USMARR_STORAGE_SHARED:
        rc = allocate_side(p, &s, USMARR_USM_SHARED, &host);
        if (!rc)
            device = usmarr_array_retain(host);
        break;
    case USMARR_STORAGE_MANAGED:
        rc = allocate_side(p, &s, USMARR_USM_HOST, &host);
        if (!rc)
            rc = allocate_side(p, &s, USMARR_USM_DEVICE, &device);
        if (!rc)
            rc = usmarr__sync_state_new(USMARR_SYNC_CLEAN, usmarr_array_data(host), usmarr_array_data(device),
                                        (size_t)s.padded_size * usmarr_dtype_size(p->dtype), &sync);
        break;
    default:
        rc = usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "kind=%d is not a usmarr_storage_kind_t", (int)p->kind);
    }
    if (!rc)
        rc = usmarr__storage_assemble(p, host, device, sync, out);
    else {
        usmarr_array_release(host);
        usmarr_array_release(device);
    }
    usmarr_sync_state_release(sync);
    return rc;
}
