/* Storage descriptors: assembling one from resolved parameters and its sides, and views
 * of an existing storage.  Below storage.c (creation) and alloc.c (aligned allocation),
 * which both build storages through it. */
#include "storage_internal.h"

#include <stdlib.h>
#include <string.h>

int usmarr__storage_assemble(const struct usmarr__storage_params *p, usmarr_array_t *host, usmarr_array_t *device,
                             usmarr_sync_state_t *sync, usmarr_storage_t **out)
{
    usmarr_storage_t *s = calloc(1, sizeof *s);
    if (!s) {
        usmarr_array_release(host);
        usmarr_array_release(device);
        return usmarr__fail(USMARR_ERROR_OUT_OF_HOST_MEMORY, "storage descriptor");
    }
    usmarr__ref_init(&s->refcount);
    s->ndim = p->ndim;
    memcpy(s->axes, p->axes, sizeof s->axes);
    memcpy(s->layout, p->layout, sizeof s->layout);
    s->kind = p->kind;
    s->dtype = p->dtype;
    memcpy(s->halo, p->halo, sizeof s->halo);
    memcpy(s->aligned_index, p->aligned_index, sizeof s->aligned_index);
    s->alignment = p->alignment;
    s->host = host;
    s->device = device;
    if (sync) {
        usmarr__sync_state_attach(sync);
        s->sync = sync;
    }
    *out = s;
    return 0;
}

int usmarr__storage_view_new(const usmarr_storage_t *base, const char *axes, usmarr_array_t *host,
                             usmarr_array_t *device, const int64_t (*halo)[2], const int64_t *aligned_index,
                             usmarr_storage_t **out)
{
    struct usmarr__storage_params p = {.dtype = base->dtype, .alignment = base->alignment, .kind = base->kind};
    p.ndim = (int)strlen(axes);
    memcpy(p.axes, axes, (size_t)p.ndim + 1);
    memcpy(p.layout, base->layout, sizeof p.layout);
    memcpy(p.halo, halo, (size_t)p.ndim * sizeof *p.halo);
    memcpy(p.aligned_index, aligned_index, (size_t)p.ndim * sizeof *p.aligned_index);
    return usmarr__storage_assemble(&p, host, device, base->sync, out);
}
