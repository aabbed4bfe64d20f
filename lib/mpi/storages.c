/* How the distributed layer sees a storage: its halo and domain in the grid's I, J, K
 * order, the side a transfer works on, and the contiguous staging views data moves
 * through. */
#include "mpi_internal.h"

#include <CL/cl_ext.h>
#include <string.h>

/* position[a]: where axis a (I, J, K) sits in the storage's axes; false unless the axes
 * are a permutation of "IJK". */
static bool axis_positions(const char *axes, int position[3])
{
    static const char letters[3] = {'I', 'J', 'K'};
    if (!axes || strlen(axes) != 3)
        return false;
    for (int a = 0; a < 3; a++) {
        const char *at = strchr(axes, letters[a]);
        if (!at)
            return false;
        position[a] = (int)(at - axes);
    }
    return true;
}

int usmarr__mpi_storage_describe(const usmarr_storage_t *storage, const char *what, int64_t halo[3][2],
                                 int64_t domain[3])
{
    int position[3];
    if (!storage)
        return usmarr_error_set(USMARR_ERROR_INVALID_ARGUMENT, "%s is NULL", what);
    if (usmarr_storage_ndim(storage) != 3 || !axis_positions(usmarr_storage_axes(storage), position))
        return usmarr_error_set(USMARR_ERROR_INVALID_ARGUMENT,
                                "%s has axes \"%s\": a distributed storage has all three of I, J, K", what,
                                usmarr_storage_axes(storage) ? usmarr_storage_axes(storage) : "");
    const int64_t *shape = usmarr_storage_shape(storage);
    const int64_t(*h)[2] = usmarr_storage_halo(storage);
    for (int a = 0; a < 3; a++) {
        int p = position[a];
        halo[a][0] = h[p][0];
        halo[a][1] = h[p][1];
        domain[a] = shape[p] - h[p][0] - h[p][1];
    }
    return 0;
}

int usmarr__mpi_field_open(usmarr_storage_t *storage, bool write, const char *what, struct usmarr__mpi_field *field)
{
    memset(field, 0, sizeof *field);
    int rc = usmarr__mpi_storage_describe(storage, what, field->halo, field->domain);
    if (rc)
        return rc;
    field->dtype = usmarr_storage_dtype(storage);
    usmarr_array_t *side = NULL;
    usmarr_storage_kind_t kind = usmarr_storage_kind(storage);
    if (kind == USMARR_STORAGE_MANAGED) {
        /* A host-dirty pair is worked on where its data is: pushing it would move the
         * whole field for the sake of its halo. */
        usmarr_sync_t state = USMARR_SYNC_CLEAN;
        rc = usmarr_sync_state_get(usmarr_storage_sync_state(storage), &state);
        field->host_side = !rc && state == USMARR_SYNC_HOST_DIRTY;
    }
    if (!rc && (kind == USMARR_STORAGE_HOST || field->host_side))
        rc = usmarr_storage_host_array(storage, write, &side);
    else if (!rc)
        rc = usmarr_storage_device_array(storage, write, &side);
    if (rc)
        return rc;
    int position[3];
    axis_positions(usmarr_storage_axes(storage), position);
    return usmarr_array_permute_dims(side, position, &field->array);
}

void usmarr__mpi_field_close(struct usmarr__mpi_field *field)
{
    usmarr_array_release(field->array);
    field->array = NULL;
}

usmarr_usm_kind_t usmarr__mpi_staging_kind(usmarr_context_t *context)
{
    const usmarr_device_info_t *info = usmarr_context_info(context);
    if (info && (info->host_mem_caps & CL_UNIFIED_SHARED_MEMORY_ACCESS_INTEL))
        return USMARR_USM_HOST;
    if (info && (info->single_device_shared_caps & CL_UNIFIED_SHARED_MEMORY_ACCESS_INTEL))
        return USMARR_USM_SHARED;
    return USMARR_USM_DEVICE;
}

int usmarr__mpi_wait_queue(usmarr_queue_t *queue)
{
    cl_event marker;
    int rc = usmarr_queue_marker(queue, &marker);
    if (rc)
        return rc;
    cl_int err = clWaitForEvents(1, &marker);
    clReleaseEvent(marker);
    return err ? usmarr_error_set(err, "clWaitForEvents: the copies into the staging failed") : 0;
}

void usmarr__mpi_memory_order(const usmarr_storage_t *storage, int order[3])
{
    const char *layout = usmarr_storage_layout(storage);
    for (int k = 0; k < 3; k++) {
        const char *letter = layout && strlen(layout) == 3 ? strchr("IJK", layout[k]) : NULL;
        order[k] = letter ? (int)(letter - "IJK") : k;
    }
}

int usmarr__mpi_staging_view(usmarr_memory_t *memory, size_t byte_offset, usmarr_dtype_t dtype,
                             const int64_t shape[3], const int order[3], usmarr_array_t **view)
{
    static const int c_order[3] = {0, 1, 2};
    order = order ? order : c_order;
    int64_t stored_shape[3];
    int axes[3];
    for (int k = 0; k < 3; k++) {
        stored_shape[k] = shape[order[k]];
        axes[order[k]] = k; /* axis a of the view is stored axis k */
    }
    usmarr_array_options_t o = USMARR_ARRAY_OPTIONS_INIT;
    o.ndim = 3;
    o.shape = stored_shape;
    o.dtype = dtype;
    o.buffer = USMARR_BUFFER_MEMORY;
    o.memory = memory;
    o.offset = (int64_t)(byte_offset / usmarr_dtype_size(dtype));
    usmarr_array_t *stored = NULL;
    int rc = usmarr_array_create(&o, &stored);
    if (!rc)
        rc = usmarr_array_permute_dims(stored, axes, view);
    usmarr_array_release(stored);
    return rc;
}

int usmarr__mpi_box_view(const usmarr_array_t *array, const int64_t begin[3], const int64_t extent[3],
                         usmarr_array_t **view)
{
    usmarr_index_item_t items[3];
    for (int a = 0; a < 3; a++) {
        int64_t stop = begin[a] + extent[a];
        items[a] = usmarr_index_slice(&begin[a], &stop, NULL);
    }
    return usmarr_array_index(array, items, 3, view);
}
