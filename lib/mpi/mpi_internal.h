/* Private declarations of libusmarr-mpi (lib/mpi/).  Never installed.  The layer uses
 * libusmarr through its public API only: it is a separate shared object. */
#ifndef USMARR_MPI_INTERNAL_H
#define USMARR_MPI_INTERNAL_H

#include "config.h"

#define USMARR_BUILDING_LIBRARY 1
#include "usmarr_mpi.h"

#include <stdatomic.h>

#define USMARR_MPI_INTERNAL __attribute__((visibility("hidden")))

/* The three axes, in the grid's I, J, K order. */
#define USMARR_MPI_AXES 3

struct usmarr_mpi_grid {
    atomic_int refcount;
    MPI_Comm cart;    /* the user-visible Cartesian communicator */
    MPI_Comm private; /* a duplicate for the library's own traffic (MPI_ERRORS_RETURN) */
    int rank, size;
    int dims[3], coords[3];
    bool periodic[3];
    int64_t shape[3], halo[3];
    int64_t local_start[3], local_shape[3];
    int64_t min_block[3]; /* the narrowest block per axis: the widest halo allowed */
};

/* ---- errors and cross-rank agreement (collective.c) ------------------------------- */

/* Records an MPI failure ("<what>: <MPI's text>") and returns USMARR_ERROR_MPI. */
USMARR_MPI_INTERNAL int usmarr__mpi_fail(int mpi_code, const char *what);

/* Every rank passes its own status; all get the status of the lowest failing rank, with
 * its detail prefixed "rank R: ".  0 when every rank succeeded. */
USMARR_MPI_INTERNAL int usmarr__mpi_agree(MPI_Comm comm, int rc);

/* Compares n values across ranks.  Returns -1 when all ranks agree, else the index of the
 * first value that differs, with its minimum and maximum over the ranks; < -1 is an MPI
 * failure code (already recorded: return USMARR_ERROR_MPI). */
USMARR_MPI_INTERNAL int usmarr__mpi_compare(MPI_Comm comm, int n, const int64_t *values, int64_t *min, int64_t *max);
#define USMARR_MPI_COMPARE_FAILED (-2)

/* ---- storages as the layer sees them (storages.c) ---------------------------------- */

/* One storage resolved for a transfer: the side that holds the newest data, viewed in
 * I, J, K index order, and its halo and domain in that order. */
struct usmarr__mpi_field {
    usmarr_array_t *array; /* the side, permuted to I, J, K (owned reference) */
    bool host_side;        /* the host side of a managed pair was chosen */
    usmarr_dtype_t dtype;
    int64_t halo[3][2];
    int64_t domain[3];
};

/* Checks that a storage has all three axes and fills `halo`/`domain` in I, J, K order
 * (no data access).  `what` names the argument in the detail. */
USMARR_MPI_INTERNAL int usmarr__mpi_storage_describe(const usmarr_storage_t *storage, const char *what,
                                                     int64_t halo[3][2], int64_t domain[3]);

/* Resolves the side a transfer works on (the device side unless a managed pair is host
 * dirty), marks it written when `write`, and returns it viewed in I, J, K order. */
USMARR_MPI_INTERNAL int usmarr__mpi_field_open(usmarr_storage_t *storage, bool write, const char *what,
                                               struct usmarr__mpi_field *field);
USMARR_MPI_INTERNAL void usmarr__mpi_field_close(struct usmarr__mpi_field *field);

/* The USM kind of staging buffers for a context: host where the device has host USM
 * (MPI reads it directly), else shared, else device (then bounced through malloc). */
USMARR_MPI_INTERNAL usmarr_usm_kind_t usmarr__mpi_staging_kind(usmarr_context_t *context);

/* Waits on the host for the work enqueued on `queue` so far (a marker after it), before
 * MPI reads staging from the host: nothing enqueued later, no other queue. */
USMARR_MPI_INTERNAL int usmarr__mpi_wait_queue(usmarr_queue_t *queue);

/* A contiguous 3-D array over `memory` at byte `byte_offset` (a multiple of the
 * itemsize), indexed in I, J, K order, whose elements are stored with axis order[0]
 * outermost and order[2] innermost (NULL: C order, K innermost). */
USMARR_MPI_INTERNAL int usmarr__mpi_staging_view(usmarr_memory_t *memory, size_t byte_offset, usmarr_dtype_t dtype,
                                                 const int64_t shape[3], const int order[3], usmarr_array_t **view);

/* The storage's memory order: the I, J, K axis numbers from the largest stride to the
 * smallest, read from its layout. */
USMARR_MPI_INTERNAL void usmarr__mpi_memory_order(const usmarr_storage_t *storage, int order[3]);

/* A view of `array` (3-D) over the box [begin, begin+extent) per axis. */
USMARR_MPI_INTERNAL int usmarr__mpi_box_view(const usmarr_array_t *array, const int64_t begin[3],
                                             const int64_t extent[3], usmarr_array_t **view);

/* ---- blocks (grid.c) ------------------------------------------------------------- */

/* Block `index` of `parts` over `n` points: the first n%parts blocks hold one more. */
USMARR_MPI_INTERNAL void usmarr__mpi_block(int64_t n, int parts, int index, int64_t *start, int64_t *extent);

#endif
