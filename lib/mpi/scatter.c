/* Scatter and gather between a global array on one rank and the local storages: one
 * body for both directions, blocks packed on the device into staging, one MPI_Scatterv
 * or MPI_Gatherv. */
#include "mpi_internal.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

static const char axis_names[3] = {'I', 'J', 'K'};

/* Staging for `bytes`: USM of the context, plus a host copy when that USM is device-only. */
struct staging {
    usmarr_memory_t *memory;
    void *bounce;
};

static int staging_create(usmarr_context_t *context, size_t bytes, struct staging *s)
{
    usmarr_usm_kind_t kind = usmarr__mpi_staging_kind(context);
    int rc = usmarr_memory_create(context, kind, bytes ? bytes : 1, 64, &s->memory);
    if (!rc && kind == USMARR_USM_DEVICE && !(s->bounce = malloc(bytes ? bytes : 1)))
        rc = usmarr_error_set(USMARR_ERROR_OUT_OF_HOST_MEMORY, "a host copy of %zu staging bytes", bytes);
    return rc;
}

static void *staging_host(const struct staging *s) { return s->bounce ? s->bounce : usmarr_memory_pointer(s->memory); }

static void staging_free(struct staging *s)
{
    usmarr_memory_release(s->memory);
    free(s->bounce);
}

/* Moves the staging to (or from) the host copy, when there is one. */
static int staging_sync(struct staging *s, size_t bytes, bool to_host)
{
    if (!s->bounce || !bytes)
        return 0;
    return to_host ? usmarr_memory_copy_to_host(s->memory, 0, s->bounce, bytes)
                   : usmarr_memory_copy_from_host(s->memory, 0, s->bounce, bytes);
}

/* Argument checks of one rank. */
static int check_local(const usmarr_mpi_grid_t *grid, int root, const usmarr_array_t *global,
                       const usmarr_storage_t *local, bool gather, int64_t *elements)
{
    int64_t halo[3][2], domain[3];
    int rc = usmarr__mpi_storage_describe(local, "local", halo, domain);
    if (rc)
        return rc;
    for (int a = 0; a < 3; a++)
        if (domain[a] != grid->local_shape[a])
            return usmarr_error_set(USMARR_ERROR_SHAPE_MISMATCH,
                                    "local: domain (%lld,%lld,%lld) (I,J,K) differs from this rank's block "
                                    "(%lld,%lld,%lld)",
                                    (long long)domain[0], (long long)domain[1], (long long)domain[2],
                                    (long long)grid->local_shape[0], (long long)grid->local_shape[1],
                                    (long long)grid->local_shape[2]);
    if (root < 0 || root >= grid->size)
        return usmarr_error_set(USMARR_ERROR_INVALID_ARGUMENT, "root=%d outside [0, %d)", root, grid->size);
    /* Scatterv counts and displacements are ints, in elements. */
    *elements = grid->shape[0] * grid->shape[1] * grid->shape[2];
    if (*elements > INT_MAX)
        return usmarr_error_set(USMARR_ERROR_OVERFLOW, "the global domain has %lld elements, above INT_MAX",
                                (long long)*elements);
    if (grid->rank != root)
        return 0;
    if (!global)
        return usmarr_error_set(USMARR_ERROR_INVALID_ARGUMENT, "global is NULL on the root rank %d", root);
    const char *axes = usmarr_storage_axes(local);
    const int64_t *shape = usmarr_array_shape(global);
    if (usmarr_array_ndim(global) != 3)
        return usmarr_error_set(USMARR_ERROR_SHAPE_MISMATCH, "global has %d dimensions, the domain 3",
                                usmarr_array_ndim(global));
    for (int p = 0; p < 3; p++) {
        int a = (int)((const char *)memchr(axis_names, axes[p], 3) - axis_names);
        if (shape[p] != grid->shape[a])
            return usmarr_error_set(USMARR_ERROR_SHAPE_MISMATCH,
                                    "global shape[%d]=%lld, the global domain has %lld points on axis %c "
                                    "(global is indexed like the storage, axes \"%s\")",
                                    p, (long long)shape[p], (long long)grid->shape[a], axis_names[a], axes);
    }
    if (usmarr_array_context(global) != usmarr_storage_context(local))
        return usmarr_error_set(USMARR_ERROR_CONTEXT_MISMATCH, "global and local belong to different contexts");
    if (gather && !(usmarr_array_flags(global) & USMARR_FLAG_WRITABLE))
        return usmarr_error_set(USMARR_ERROR_READ_ONLY, "global is read-only");
    return 0;
}

/* On the root: packs (scatter) or unpacks (gather) every rank's block of the global
 * array, in I, J, K order, at its displacement in the staging. */
static int root_blocks(const usmarr_mpi_grid_t *grid, const usmarr_array_t *global, const usmarr_storage_t *local,
                       usmarr_dtype_t dtype, usmarr_memory_t *memory, bool gather, int *counts, int *displs)
{
    int position[3];
    const char *axes = usmarr_storage_axes(local);
    for (int a = 0; a < 3; a++)
        position[a] = (int)(strchr(axes, axis_names[a]) - axes);
    usmarr_array_t *ordered = NULL;
    int rc = usmarr_array_permute_dims(global, position, &ordered);
    int64_t at = 0;
    for (int r = 0; !rc && r < grid->size; r++) {
        int64_t start[3], shape[3];
        usmarr_array_t *box = NULL, *stage = NULL;
        rc = usmarr_mpi_grid_block(grid, r, start, shape);
        if (!rc)
            rc = usmarr__mpi_box_view(ordered, start, shape, &box);
        if (!rc)
            rc = usmarr__mpi_staging_view(memory, (size_t)at * usmarr_dtype_size(dtype), dtype, shape, NULL, &stage);
        if (!rc)
            rc = gather ? usmarr_array_copy_into(box, stage) : usmarr_array_copy_into(stage, box);
        counts[r] = (int)(shape[0] * shape[1] * shape[2]);
        displs[r] = (int)at;
        at += counts[r];
        usmarr_array_release(stage);
        usmarr_array_release(box);
    }
    usmarr_array_release(ordered);
    return rc;
}

static int transfer(usmarr_mpi_grid_t *grid, int root, usmarr_array_t *global, usmarr_storage_t *local, bool gather)
{
    usmarr_error_set(0, NULL);
    if (!grid)
        return usmarr_error_set(USMARR_ERROR_INVALID_ARGUMENT, "grid is NULL");
    MPI_Comm comm = grid->private;
    int64_t elements = 0;
    int rc = check_local(grid, root, global, local, gather, &elements);
    if ((rc = usmarr__mpi_agree(comm, rc)))
        return rc;
    usmarr_dtype_t dtype = usmarr_storage_dtype(local);
    int64_t values[2] = {root, dtype}, min = 0, max = 0;
    int differs = usmarr__mpi_compare(comm, 2, values, &min, &max);
    if (differs == USMARR_MPI_COMPARE_FAILED)
        return USMARR_ERROR_MPI;
    if (differs == 0)
        return usmarr_error_set(USMARR_ERROR_INVALID_ARGUMENT, "root differs between ranks (%lld to %lld)",
                                (long long)min, (long long)max);
    if (differs == 1)
        return usmarr_error_set(USMARR_ERROR_MPI, "local dtype differs between ranks (%s to %s)",
                                usmarr_dtype_name((usmarr_dtype_t)min), usmarr_dtype_name((usmarr_dtype_t)max));

    size_t itemsize = usmarr_dtype_size(dtype);
    usmarr_context_t *context = usmarr_storage_context(local);
    bool is_root = grid->rank == root;
    int64_t mine = grid->local_shape[0] * grid->local_shape[1] * grid->local_shape[2];
    struct staging all = {0}, own = {0};
    struct usmarr__mpi_field field = {0};
    usmarr_array_t *domain = NULL, *stage = NULL;
    int *counts = is_root ? calloc(2 * (size_t)grid->size, sizeof *counts) : NULL;
    MPI_Datatype element = MPI_DATATYPE_NULL;
    if (is_root && !counts)
        rc = usmarr_error_set(USMARR_ERROR_OUT_OF_HOST_MEMORY, "counts of %d ranks", grid->size);
    if (!rc && is_root)
        rc = staging_create(context, (size_t)elements * itemsize, &all);
    if (!rc)
        rc = staging_create(context, (size_t)mine * itemsize, &own);
    if (!rc)
        rc = usmarr__mpi_field_open(local, !gather, "local", &field);
    if (!rc) {
        int64_t begin[3] = {field.halo[0][0], field.halo[1][0], field.halo[2][0]};
        rc = usmarr__mpi_box_view(field.array, begin, grid->local_shape, &domain);
    }
    if (!rc)
        rc = usmarr__mpi_staging_view(own.memory, 0, dtype, grid->local_shape, NULL, &stage);
    int err = MPI_Type_contiguous((int)itemsize, MPI_BYTE, &element);
    if (err == MPI_SUCCESS)
        err = MPI_Type_commit(&element);
    if (!rc && err != MPI_SUCCESS)
        rc = usmarr__mpi_fail(err, "MPI_Type_contiguous");
    /* Every rank is ready (or none goes on): the collective below must not be half-entered. */
    if ((rc = usmarr__mpi_agree(comm, rc)))
        goto done;
    if (gather) {
        rc = usmarr_array_copy_into(stage, domain);
        if (!rc)
            rc = usmarr__mpi_wait_queue(usmarr_queue_current(context));
        if (!rc)
            rc = staging_sync(&own, (size_t)mine * itemsize, true);
        if ((rc = usmarr__mpi_agree(comm, rc)))
            goto done;
        if (is_root)
            for (int r = 0; r < grid->size; r++) {
                int64_t start[3], shape[3];
                if (usmarr_mpi_grid_block(grid, r, start, shape) == 0) {
                    counts[r] = (int)(shape[0] * shape[1] * shape[2]);
                    counts[grid->size + r] = r ? counts[grid->size + r - 1] + counts[r - 1] : 0;
                }
            }
        err = MPI_Gatherv(staging_host(&own), (int)mine, element, staging_host(&all), counts,
                          counts ? counts + grid->size : NULL, element, root, comm);
        if (err != MPI_SUCCESS)
            rc = usmarr__mpi_fail(err, "MPI_Gatherv");
        if (!rc && is_root)
            rc = staging_sync(&all, (size_t)elements * itemsize, false);
        if (!rc && is_root)
            rc = root_blocks(grid, global, local, dtype, all.memory, true, counts, counts + grid->size);
    } else {
        if (is_root)
            rc = root_blocks(grid, global, local, dtype, all.memory, false, counts, counts + grid->size);
        if (!rc && is_root)
            rc = usmarr__mpi_wait_queue(usmarr_queue_current(context));
        if (!rc && is_root)
            rc = staging_sync(&all, (size_t)elements * itemsize, true);
        /* The root's packing may fail: the others must not wait in MPI_Scatterv for it. */
        if ((rc = usmarr__mpi_agree(comm, rc)))
            goto done;
        err = MPI_Scatterv(staging_host(&all), counts, counts ? counts + grid->size : NULL, element,
                           staging_host(&own), (int)mine, element, root, comm);
        if (err != MPI_SUCCESS)
            rc = usmarr__mpi_fail(err, "MPI_Scatterv");
        if (!rc)
            rc = staging_sync(&own, (size_t)mine * itemsize, false);
        if (!rc)
            rc = usmarr_array_copy_into(domain, stage);
    }
    /* The copies out of the staging are only enqueued: the staging's release waits for them
     * (doc/async.md, "Lifetimes"), and whoever reads the result waits for its queue. */
    rc = usmarr__mpi_agree(comm, rc);
done:
    if (element != MPI_DATATYPE_NULL)
        MPI_Type_free(&element);
    usmarr_array_release(stage);
    usmarr_array_release(domain);
    usmarr__mpi_field_close(&field);
    staging_free(&own);
    staging_free(&all);
    free(counts);
    return rc;
}

int usmarr_mpi_scatter(usmarr_mpi_grid_t *grid, int root, const usmarr_array_t *global, usmarr_storage_t *local)
{
    /* The global array is only read on this path. */
    return transfer(grid, root, (usmarr_array_t *)global, local, false);
}

int usmarr_mpi_gather(usmarr_mpi_grid_t *grid, int root, usmarr_storage_t *local, usmarr_array_t *global)
{
    return transfer(grid, root, global, local, true);
}
