/* Export: the device side as the USM array interface (struct and JSON), the host side as
 * NumPy's __array_interface__ (JSON), and the debug dump.  An exported writable side may
 * be written by whoever receives it, so exporting marks a managed pair dirty on that
 * side (after making it current). */
#include "storage_internal.h"

#include <inttypes.h>
#include <stdlib.h>

int usmarr_storage_device_interface(usmarr_storage_t *storage, usmarr_interface_t *iface)
{
    usmarr__clear_error();
    int rc = usmarr__storage_check_side(storage, iface, "iface", true, "usmarr_storage_host_json");
    usmarr_array_t *a;
    if (!rc)
        rc = usmarr_storage_device_array(storage, storage->device->flags & USMARR_FLAG_WRITABLE, &a);
    return rc ? rc : usmarr_interface_export(a, iface);
}

int usmarr_storage_device_json(usmarr_storage_t *storage, char **json)
{
    usmarr__clear_error();
    if (!json)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "json is NULL");
    usmarr_interface_t iface;
    int rc = usmarr_storage_device_interface(storage, &iface);
    return rc ? rc : usmarr_interface_to_json(&iface, json);
}

int usmarr_storage_host_json(usmarr_storage_t *storage, char **json)
{
    usmarr__clear_error();
    int rc = usmarr__storage_check_side(storage, json, "json", false, "usmarr_storage_device_json");
    usmarr_array_t *a;
    if (!rc)
        rc = usmarr_storage_host_array(storage, storage->host->flags & USMARR_FLAG_WRITABLE, &a);
    if (rc)
        return rc;
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return usmarr__fail(USMARR_ERROR_OUT_OF_HOST_MEMORY, "JSON text");
    /* NumPy's array interface (version 3): a pointer to element [0,...], strides in
     * bytes, null strides for C-contiguous data. */
    int64_t item = (int64_t)usmarr_dtype_size(a->dtype);
    fputs("{\"shape\": [", f);
    for (int k = 0; k < a->ndim; k++)
        fprintf(f, "%s%" PRId64, k ? ", " : "", a->shape[k]);
    fprintf(f, "], \"typestr\": \"%s\", \"data\": [%" PRIuPTR ", %s], \"strides\": ", usmarr_dtype_typestr(a->dtype),
            (uintptr_t)usmarr_array_data(a), (a->flags & USMARR_FLAG_WRITABLE) ? "false" : "true");
    if (a->flags & USMARR_FLAG_C_CONTIGUOUS) {
        fputs("null", f);
    } else {
        fputc('[', f);
        for (int k = 0; k < a->ndim; k++)
            fprintf(f, "%s%" PRId64, k ? ", " : "", a->strides[k] * item);
        fputc(']', f);
    }
    fputs(", \"version\": 3}", f);
    if (fclose(f) != 0 || !text) {
        free(text);
        return usmarr__fail(USMARR_ERROR_OUT_OF_HOST_MEMORY, "JSON text");
    }
    *json = text;
    return 0;
}

/* ---- debug dump ------------------------------------------------------------------------------- */

static const char *kind_name(usmarr_storage_kind_t kind)
{
    switch (kind) {
    case USMARR_STORAGE_HOST:
        return "host (USM host)";
    case USMARR_STORAGE_DEVICE:
        return "device (USM device)";
    case USMARR_STORAGE_SHARED:
        return "shared (USM shared, synchronised by the driver)";
    default:
        return "managed (USM host + USM device, synchronised by the library)";
    }
}

static const char *sync_name(int value)
{
    return value == USMARR_SYNC_CLEAN        ? "clean"
           : value == USMARR_SYNC_HOST_DIRTY ? "host dirty"
                                             : "device dirty";
}

static int dump(const usmarr_storage_t *s, FILE *f)
{
    const usmarr_array_t *a = s->host ? s->host : s->device;
    fputs("------ usmarr storage\n", f);
    fprintf(f, " address: %p\n refcount: %d\n", (const void *)s, usmarr_storage_refcount(s));
    fprintf(f, " kind: %s\n dtype: %s (itemsize %zu)\n axes: \"%s\"\n ndim: %d\n shape: ", kind_name(s->kind),
            usmarr_dtype_name(s->dtype), usmarr_dtype_size(s->dtype), s->axes, s->ndim);
    usmarr__put_tuple(f, s->ndim, a->shape);
    fputs("\n strides: ", f);
    usmarr__put_tuple(f, s->ndim, a->strides);
    fputs(" elements\n halo: (", f);
    for (int k = 0; k < s->ndim; k++)
        fprintf(f, "%s(%" PRId64 ", %" PRId64 ")", k ? ", " : "", s->halo[k][0], s->halo[k][1]);
    fputs(s->ndim == 1 ? ",)\n aligned_index: " : ")\n aligned_index: ", f);
    usmarr__put_tuple(f, s->ndim, s->aligned_index);
    fprintf(f, "\n alignment: %" PRId64 " bytes\n layout: \"%s\" (largest stride first)\n nbytes: %" PRId64
               " (padding excluded)\n",
            s->alignment, s->layout, usmarr_storage_nbytes(s));
    if (s->sync) {
        usmarr_sync_state_t *st = s->sync;
        fprintf(f, " sync state:\n  address: %p\n  state: %s\n  refcount: %d\n  storages of the pair: %d\n"
                   "  span: %zu bytes (host %p, device %p)\n",
                (void *)st, sync_name(atomic_load(&st->value)), USMARR__REFCOUNT(st),
                atomic_load(&st->storages), st->span_bytes, (void *)st->host_begin, (void *)st->device_begin);
    } else {
        fputs(" sync state: none (only a managed pair has one)\n", f);
    }
    int rc = 0;
    if (s->host) {
        fputs(s->host == s->device ? " host and device side (one allocation):\n" : " host side:\n", f);
        rc = usmarr_array_debug_print(s->host, f);
    }
    if (!rc && s->device && s->device != s->host) {
        fputs(" device side:\n", f);
        rc = usmarr_array_debug_print(s->device, f);
    }
    fputs("------\n", f);
    return rc;
}

int usmarr_storage_debug_print(const usmarr_storage_t *storage, FILE *out)
{
    usmarr__clear_error();
    if (!storage || !out)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s is NULL", !storage ? "storage" : "out");
    int rc = dump(storage, out);
    if (!rc && ferror(out))
        rc = usmarr__fail(USMARR_ERROR_IO, "writing the dump to out failed");
    return rc;
}

static int dump_of(const void *storage, FILE *f) { return dump(storage, f); }

int usmarr_storage_debug_string(const usmarr_storage_t *storage, char **text)
{
    usmarr__clear_error();
    return usmarr__text_of(dump_of, storage, "storage", "debug string", text);
}
