/* Process grids: the global domain's decomposition into blocks, the Cartesian
 * communicator, neighbours, and each rank's local storage. */
#include "mpi_internal.h"

#include <stdlib.h>
#include <string.h>

static const char axis_names[3] = {'I', 'J', 'K'};

void usmarr__mpi_block(int64_t n, int parts, int index, int64_t *start, int64_t *extent)
{
    int64_t base = n / parts, extra = n % parts;
    *extent = base + (index < extra ? 1 : 0);
    *start = (int64_t)index * base + (index < extra ? index : extra);
}

/* Checks one rank's options without talking to the others. */
static int check_options(const usmarr_mpi_grid_options_t *o)
{
    for (int a = 0; a < 3; a++) {
        if (o->shape[a] < 1)
            return usmarr_error_set(USMARR_ERROR_INVALID_ARGUMENT, "options->shape[%d]=%lld (axis %c) is below 1", a,
                                    (long long)o->shape[a], axis_names[a]);
        if (o->dims[a] < 0)
            return usmarr_error_set(USMARR_ERROR_INVALID_ARGUMENT, "options->dims[%d]=%d (axis %c) is negative", a,
                                    o->dims[a], axis_names[a]);
        if (o->halo[a] < 0)
            return usmarr_error_set(USMARR_ERROR_INVALID_ARGUMENT, "options->halo[%d]=%lld (axis %c) is negative", a,
                                    (long long)o->halo[a], axis_names[a]);
    }
    return 0;
}

/* Every rank must pass the same options: compared field by field, so that the detail
 * names the one that differs. */
static int compare_options(MPI_Comm comm, const usmarr_mpi_grid_options_t *o)
{
    static const char *const field[4] = {"shape", "dims", "periodic", "halo"};
    int64_t values[12];
    for (int a = 0; a < 3; a++) {
        values[a] = o->shape[a];
        values[3 + a] = o->dims[a];
        values[6 + a] = o->periodic[a];
        values[9 + a] = o->halo[a];
    }
    int64_t min = 0, max = 0;
    int i = usmarr__mpi_compare(comm, 12, values, &min, &max);
    if (i == USMARR_MPI_COMPARE_FAILED)
        return USMARR_ERROR_MPI;
    if (i >= 0)
        return usmarr_error_set(USMARR_ERROR_MPI, "options->%s[%d] (axis %c) differs between ranks (%lld to %lld)",
                                field[i / 3], i % 3, axis_names[i % 3], (long long)min, (long long)max);
    return 0;
}

/* Fills dims (from comm's Cartesian topology or MPI_Dims_create) and checks them. */
static int choose_dims(MPI_Comm comm, int size, const usmarr_mpi_grid_options_t *o, int dims[3], int periods[3])
{
    int topology = MPI_UNDEFINED, err = MPI_Topo_test(comm, &topology);
    if (err != MPI_SUCCESS)
        return usmarr__mpi_fail(err, "MPI_Topo_test");
    for (int a = 0; a < 3; a++) {
        dims[a] = o->dims[a];
        periods[a] = o->periodic[a];
    }
    if (topology == MPI_CART) {
        int ndims = 0, cdims[3], cperiods[3], ccoords[3];
        if ((err = MPI_Cartdim_get(comm, &ndims)) != MPI_SUCCESS)
            return usmarr__mpi_fail(err, "MPI_Cartdim_get");
        if (ndims != 3)
            return usmarr_error_set(USMARR_ERROR_INVALID_ARGUMENT,
                                    "comm is not this grid's communicator: a %d-dimensional Cartesian topology, "
                                    "the grid has 3 axes", ndims);
        if ((err = MPI_Cart_get(comm, 3, cdims, cperiods, ccoords)) != MPI_SUCCESS)
            return usmarr__mpi_fail(err, "MPI_Cart_get");
        for (int a = 0; a < 3; a++) {
            if ((dims[a] && dims[a] != cdims[a]) || (periods[a] && !cperiods[a]))
                return usmarr_error_set(USMARR_ERROR_INVALID_ARGUMENT,
                                        "comm is not this grid's communicator: its Cartesian topology has dims "
                                        "(%d,%d,%d) periods (%d,%d,%d), options->dims[%d]=%d periodic[%d]=%d",
                                        cdims[0], cdims[1], cdims[2], cperiods[0], cperiods[1], cperiods[2], a,
                                        dims[a], a, periods[a]);
            dims[a] = cdims[a];
            periods[a] = cperiods[a];
        }
        return 0;
    }
    int64_t given = 1;
    bool all_given = true;
    for (int a = 0; a < 3; a++) {
        given *= dims[a] ? dims[a] : 1;
        all_given = all_given && dims[a];
    }
    /* MPI_Dims_create reports its errors on MPI_COMM_WORLD (fatal by default): catch them first. */
    if (all_given && given != size)
        return usmarr_error_set(USMARR_ERROR_INVALID_ARGUMENT,
                                "options->dims (%d,%d,%d) make %lld processes, the communicator has %d", dims[0],
                                dims[1], dims[2], (long long)given, size);
    if (given > size || size % given)
        return usmarr_error_set(USMARR_ERROR_INVALID_ARGUMENT,
                                "options->dims (%d,%d,%d) do not divide the communicator's %d ranks", dims[0],
                                dims[1], dims[2], size);
    if ((err = MPI_Dims_create(size, 3, dims)) != MPI_SUCCESS)
        return usmarr__mpi_fail(err, "MPI_Dims_create");
    return 0;
}

/* Every block must hold one point and the halo: the narrowest is the last one. */
static int check_blocks(const usmarr_mpi_grid_options_t *o, const int dims[3], int64_t min_block[3])
{
    for (int a = 0; a < 3; a++) {
        int64_t start = 0, extent = 0;
        usmarr__mpi_block(o->shape[a], dims[a], dims[a] - 1, &start, &extent);
        min_block[a] = extent;
        if (extent < 1 || extent < o->halo[a])
            return usmarr_error_set(USMARR_ERROR_SHAPE_MISMATCH,
                                    "axis %c: %lld points over %d processes make blocks of %lld points, "
                                    "narrower than %s (halo=%lld)",
                                    axis_names[a], (long long)o->shape[a], dims[a], (long long)extent,
                                    extent < 1 ? "one point" : "the halo", (long long)o->halo[a]);
    }
    return 0;
}

static void free_comms(struct usmarr_mpi_grid *g)
{
    if (g->cart != MPI_COMM_NULL)
        MPI_Comm_free(&g->cart);
    if (g->private != MPI_COMM_NULL)
        MPI_Comm_free(&g->private);
}

int usmarr_mpi_grid_create(MPI_Comm comm, const usmarr_mpi_grid_options_t *options, usmarr_mpi_grid_t **grid)
{
    usmarr_error_set(0, NULL);
    if (!grid)
        return usmarr_error_set(USMARR_ERROR_INVALID_ARGUMENT, "grid is NULL");
    *grid = NULL;
    int inter = 0, err;
    if (comm == MPI_COMM_NULL)
        return usmarr_error_set(USMARR_ERROR_INVALID_ARGUMENT, "comm is MPI_COMM_NULL");
    if ((err = MPI_Comm_test_inter(comm, &inter)) != MPI_SUCCESS)
        return usmarr__mpi_fail(err, "comm: MPI_Comm_test_inter");
    if (inter)
        return usmarr_error_set(USMARR_ERROR_INVALID_ARGUMENT, "comm is an intercommunicator");

    struct usmarr_mpi_grid *g = calloc(1, sizeof *g);
    if (g)
        g->cart = g->private = MPI_COMM_NULL; /* not 0 in every MPI */
    MPI_Comm work = MPI_COMM_NULL;
    int rc = 0, agreed;
    /* The checks talk over a duplicate that returns errors, never over the user's comm. */
    if ((err = MPI_Comm_dup(comm, &work)) != MPI_SUCCESS) {
        free(g);
        return usmarr__mpi_fail(err, "MPI_Comm_dup");
    }
    MPI_Comm_set_errhandler(work, MPI_ERRORS_RETURN);
    if (!g)
        rc = usmarr_error_set(USMARR_ERROR_OUT_OF_HOST_MEMORY, "grid of %zu bytes", sizeof *g);
    else if (!options)
        rc = usmarr_error_set(USMARR_ERROR_INVALID_ARGUMENT, "options is NULL");
    else
        rc = check_options(options);
    if ((rc = usmarr__mpi_agree(work, rc)))
        goto done;
    if ((rc = compare_options(work, options)))
        goto done;

    int size = 0, periods[3];
    MPI_Comm_size(work, &size);
    rc = choose_dims(comm, size, options, g->dims, periods);
    if (!rc)
        rc = check_blocks(options, g->dims, g->min_block);
    /* Every rank computes the same, but an MPI failure may be local: agree anyway. */
    if ((rc = usmarr__mpi_agree(work, rc)))
        goto done;
    if ((err = MPI_Cart_create(work, 3, g->dims, periods, 0, &g->cart)) == MPI_SUCCESS)
        err = MPI_Comm_dup(g->cart, &g->private);
    rc = err == MPI_SUCCESS ? 0 : usmarr__mpi_fail(err, "MPI_Cart_create");
    if (!rc) {
        MPI_Comm_set_errhandler(g->private, MPI_ERRORS_RETURN);
        MPI_Comm_rank(g->cart, &g->rank);
        MPI_Comm_size(g->cart, &g->size);
        if ((err = MPI_Cart_coords(g->cart, g->rank, 3, g->coords)) != MPI_SUCCESS)
            rc = usmarr__mpi_fail(err, "MPI_Cart_coords");
    }
    if ((agreed = usmarr__mpi_agree(work, rc))) {
        rc = agreed;
        goto done;
    }
    atomic_init(&g->refcount, 1);
    for (int a = 0; a < 3; a++) {
        g->periodic[a] = periods[a];
        g->shape[a] = options->shape[a];
        g->halo[a] = options->halo[a];
        usmarr__mpi_block(g->shape[a], g->dims[a], g->coords[a], &g->local_start[a], &g->local_shape[a]);
    }
    *grid = g;
    g = NULL;
done:
    if (g) {
        free_comms(g);
        free(g);
    }
    MPI_Comm_free(&work);
    return rc;
}

/* libusmarr-mpi sees libusmarr through its public API only, so the core's reference-count
 * helper (lib/core/core_internal.h) is not at hand: the grid counts in these two. */
usmarr_mpi_grid_t *usmarr_mpi_grid_retain(usmarr_mpi_grid_t *grid)
{
    if (grid)
        atomic_fetch_add(&grid->refcount, 1);
    return grid;
}

void usmarr_mpi_grid_release(usmarr_mpi_grid_t *grid)
{
    if (!grid || atomic_fetch_sub(&grid->refcount, 1) != 1)
        return;
    free_comms(grid);
    free(grid);
}

MPI_Comm usmarr_mpi_grid_comm(const usmarr_mpi_grid_t *grid) { return grid ? grid->cart : MPI_COMM_NULL; }
int usmarr_mpi_grid_rank(const usmarr_mpi_grid_t *grid) { return grid ? grid->rank : -1; }
int usmarr_mpi_grid_size(const usmarr_mpi_grid_t *grid) { return grid ? grid->size : 0; }
const int *usmarr_mpi_grid_dims(const usmarr_mpi_grid_t *grid) { return grid ? grid->dims : NULL; }
const int *usmarr_mpi_grid_coords(const usmarr_mpi_grid_t *grid) { return grid ? grid->coords : NULL; }
const bool *usmarr_mpi_grid_periodic(const usmarr_mpi_grid_t *grid) { return grid ? grid->periodic : NULL; }
const int64_t *usmarr_mpi_grid_shape(const usmarr_mpi_grid_t *grid) { return grid ? grid->shape : NULL; }
const int64_t *usmarr_mpi_grid_halo(const usmarr_mpi_grid_t *grid) { return grid ? grid->halo : NULL; }
const int64_t *usmarr_mpi_grid_local_shape(const usmarr_mpi_grid_t *grid) { return grid ? grid->local_shape : NULL; }
const int64_t *usmarr_mpi_grid_local_start(const usmarr_mpi_grid_t *grid) { return grid ? grid->local_start : NULL; }

int usmarr_mpi_grid_block(const usmarr_mpi_grid_t *grid, int rank, int64_t start[3], int64_t shape[3])
{
    if (!grid || !start || !shape)
        return usmarr_error_set(USMARR_ERROR_INVALID_ARGUMENT, "%s is NULL", !grid ? "grid" : !start ? "start" : "shape");
    if (rank < 0 || rank >= grid->size)
        return usmarr_error_set(USMARR_ERROR_INDEX, "rank=%d outside [0, %d)", rank, grid->size);
    /* Row-major over (I, J, K), as MPI_Cart_create without reordering places ranks. */
    int coords[3], rest = rank;
    for (int a = 2; a >= 0; a--) {
        coords[a] = rest % grid->dims[a];
        rest /= grid->dims[a];
    }
    for (int a = 0; a < 3; a++)
        usmarr__mpi_block(grid->shape[a], grid->dims[a], coords[a], &start[a], &shape[a]);
    return 0;
}

int usmarr_mpi_grid_neighbor(const usmarr_mpi_grid_t *grid, const int offset[3], int *rank)
{
    if (!grid || !offset || !rank)
        return usmarr_error_set(USMARR_ERROR_INVALID_ARGUMENT, "%s is NULL",
                                !grid ? "grid" : !offset ? "offset" : "rank");
    int coords[3];
    for (int a = 0; a < 3; a++) {
        if (offset[a] < -1 || offset[a] > 1)
            return usmarr_error_set(USMARR_ERROR_INVALID_ARGUMENT, "offset[%d]=%d is not -1, 0 or 1", a, offset[a]);
        coords[a] = grid->coords[a] + offset[a];
        if (coords[a] < 0 || coords[a] >= grid->dims[a]) {
            if (!grid->periodic[a]) {
                *rank = MPI_PROC_NULL;
                return 0;
            }
            coords[a] = (coords[a] + grid->dims[a]) % grid->dims[a];
        }
    }
    int r = 0;
    for (int a = 0; a < 3; a++)
        r = r * grid->dims[a] + coords[a];
    *rank = r;
    return 0;
}

int usmarr_mpi_grid_storage(const usmarr_mpi_grid_t *grid, const usmarr_storage_options_t *options,
                            usmarr_storage_t **storage)
{
    usmarr_error_set(0, NULL);
    if (!grid || !options || !storage)
        return usmarr_error_set(USMARR_ERROR_INVALID_ARGUMENT, "%s is NULL",
                                !grid ? "grid" : !options ? "options" : "storage");
    *storage = NULL;
    if (options->nshape)
        return usmarr_error_set(USMARR_ERROR_INVALID_ARGUMENT,
                                "options->nshape=%d: the grid sets the shape (block plus halo)", options->nshape);
    const char *axes = options->axes ? options->axes : "IJK";
    int position[3] = {-1, -1, -1};
    size_t n = strlen(axes);
    for (size_t i = 0; i < n && n == 3; i++) {
        const char *letter = memchr(axis_names, axes[i], 3);
        if (letter && position[letter - axis_names] < 0)
            position[letter - axis_names] = (int)i;
    }
    if (n != 3 || position[0] < 0 || position[1] < 0 || position[2] < 0)
        return usmarr_error_set(USMARR_ERROR_INVALID_ARGUMENT,
                                "options->axes=\"%s\" is not a permutation of \"IJK\" (a grid storage has all three)",
                                axes);
    usmarr_storage_options_t o = *options;
    o.axes = axes;
    o.nshape = 3;
    bool own_halo = o.nhalo != 0;
    if (!own_halo)
        o.nhalo = 3;
    for (int a = 0; a < 3; a++) {
        int p = position[a];
        if (!own_halo)
            o.halo[p][0] = o.halo[p][1] = grid->halo[a];
        if (o.halo[p][0] < 0 || o.halo[p][1] < 0)
            break; /* usmarr_storage_zeros() names it */
        o.shape[p] = grid->local_shape[a] + o.halo[p][0] + o.halo[p][1];
    }
    return usmarr_storage_zeros(&o, storage);
}
