/**
 * @file usmarr_mpi.h
 * @brief libusmarr-mpi: storages distributed over MPI processes, with halo exchange.
 *
 * A global I/J/K domain is split into blocks over a three-dimensional process grid;
 * every rank holds its block in an ordinary storage (usmarr/storage.h) whose halo
 * mirrors the neighbours' inner points after a halo exchange.  Link with
 * `-lusmarr-mpi -lusmarr` and MPI (pkg-config: `usmarr-mpi`); `doc/mpi.md`
 * is the guide, with a stencil loop to copy.
 *
 * Conventions, beyond usmarr.h's:
 * - **Collective calls.** Functions marked *collective* must be called by every rank of
 *   the grid's communicator, in the same order.  They check their arguments across
 *   ranks before any data moves, and a failure on any rank (a bad argument, halo widths
 *   or dtypes that differ between ranks, an allocation) makes the call fail on **every**
 *   rank with the same code and a detail that names the rank that failed first, e.g.
 *   "rank 2: storages[0] halo (1,1) on axis J differs between ranks (1 to 2)".  No rank
 *   is left waiting.
 * - **Blocks.** Along each axis the N points are split into P blocks of N/P points,
 *   the first N%P blocks one larger; every block must hold at least one point and at
 *   least the halo width.  Ranks are placed row-major over (I, J, K) coordinates,
 *   as MPI_Cart_create places them.
 * - **Halos at the domain's edge.** On a periodic axis the halo wraps around; on a
 *   non-periodic axis the halo beyond the global domain is never written by an
 *   exchange: it holds whatever boundary values the program put there.
 * - **MPI errors** are returned as ::USMARR_ERROR_MPI with MPI's error string in the
 *   detail (the library's communicator has MPI_ERRORS_RETURN).
 * - Thread safety: one thread per rank calls into a grid and its exchanges at a time
 *   (MPI_THREAD_FUNNELED is enough).
 */
#ifndef USMARR_MPI_H
#define USMARR_MPI_H

#include <mpi.h>
#include <usmarr.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Opaque process grid: a global domain, its decomposition, periodicity, halo width and
 *  the Cartesian communicator; reference counted. */
typedef struct usmarr_mpi_grid usmarr_mpi_grid_t;

/** Opaque exchange plan: the storages whose halos one exchange fills, the neighbours,
 *  the packing regions and the staging buffers. */
typedef struct usmarr_mpi_exchange usmarr_mpi_exchange_t;

/** @brief The parameters of usmarr_mpi_grid_create(); every array is in I, J, K order.
 *  Start from ::USMARR_MPI_GRID_OPTIONS_INIT.  A 2-D or 1-D domain has extent 1 and
 *  halo 0 on the missing axes. */
typedef struct usmarr_mpi_grid_options {
    int64_t shape[3]; /**< the global domain's inner points per axis, each at least 1 */
    /** processes per axis; 0 leaves the axis to MPI_Dims_create (or to @p comm's
     *  Cartesian topology when it has one).  The product must be the number of ranks. */
    int dims[3];
    bool periodic[3]; /**< wrap the halo around on this axis */
    int64_t halo[3];  /**< halo width per axis, both sides: the default of grid storages */
} usmarr_mpi_grid_options_t;

/** Nothing set: shape must still be given. */
#define USMARR_MPI_GRID_OPTIONS_INIT { { 0, 0, 0 }, { 0, 0, 0 }, { false, false, false }, { 0, 0, 0 } }

/** Exchange flags. */
enum usmarr_mpi_exchange_flags {
    /** Faces only: the six neighbours sharing a face (7-point stencils). */
    USMARR_MPI_FACES = 0,
    /** Faces, edges and corners: all 26 neighbours (27-point stencils). */
    USMARR_MPI_CORNERS = 1u << 0
};

/* ---------------------------------------------------------------------------------- */
/** @name Process grids
 * @{ */

/** @brief Decomposes a global domain over the ranks of @p comm (collective).
 *
 * Every rank passes the same options (checked).  When @p comm has a three-dimensional
 * Cartesian topology the grid adopts its dims and periods: options whose non-zero dims
 * differ from the topology's, or that ask for a period the topology lacks, are an error
 * on every rank ("comm is not this grid's communicator").  The
 * grid works on its own Cartesian communicator (usmarr_mpi_grid_comm()) plus a private
 * duplicate for its traffic, so user messages never mix with the library's.
 *
 * @param comm an intracommunicator (borrowed; the grid keeps duplicates)
 * @param options the domain, process grid, periodicity and halo
 * @param[out] grid the new grid, with one reference
 * @return 0 on success, the same on every rank
 * @retval USMARR_ERROR_INVALID_ARGUMENT NULL argument, MPI_COMM_NULL or an
 *         intercommunicator (local failure: only that rank returns), an extent below 1,
 *         negative dims or halo, dims whose product is not the number of ranks, a
 *         Cartesian @p comm of another shape, dims or periods
 * @retval USMARR_ERROR_SHAPE_MISMATCH a block smaller than one point or than the halo
 *         (the detail names the axis, the block and the width)
 * @retval USMARR_ERROR_MPI the options differ between ranks (the detail names the
 *         field), or an MPI call failed */
USMARR_API USMARR_NODISCARD int usmarr_mpi_grid_create(MPI_Comm comm, const usmarr_mpi_grid_options_t *options,
                                                       usmarr_mpi_grid_t **grid);
/** @brief Adds a reference.
 *  @param grid a grid, or NULL
 *  @return @p grid */
USMARR_API usmarr_mpi_grid_t *usmarr_mpi_grid_retain(usmarr_mpi_grid_t *grid);
/** @brief Drops a reference; the last one frees the grid's communicators (call it
 *  before MPI_Finalize).
 *  @param grid a grid, or NULL (no-op) */
USMARR_API void usmarr_mpi_grid_release(usmarr_mpi_grid_t *grid);
/** @brief The grid's Cartesian communicator (borrowed; lives with the grid).
 *  @param grid the grid
 *  @return the communicator, MPI_COMM_NULL for NULL */
USMARR_API MPI_Comm usmarr_mpi_grid_comm(const usmarr_mpi_grid_t *grid);
/** @brief The calling process's rank in usmarr_mpi_grid_comm().
 *  @param grid the grid
 *  @return the rank, -1 for NULL */
USMARR_API int usmarr_mpi_grid_rank(const usmarr_mpi_grid_t *grid);
/** @brief The number of ranks.
 *  @param grid the grid
 *  @return the size, 0 for NULL */
USMARR_API int usmarr_mpi_grid_size(const usmarr_mpi_grid_t *grid);
/** @brief Processes per axis.
 *  @param grid the grid
 *  @return 3 entries, I, J, K (borrowed), NULL for NULL */
USMARR_API const int *usmarr_mpi_grid_dims(const usmarr_mpi_grid_t *grid);
/** @brief The calling rank's coordinates in the process grid.
 *  @param grid the grid
 *  @return 3 entries (borrowed), NULL for NULL */
USMARR_API const int *usmarr_mpi_grid_coords(const usmarr_mpi_grid_t *grid);
/** @brief Periodicity per axis.
 *  @param grid the grid
 *  @return 3 entries (borrowed), NULL for NULL */
USMARR_API const bool *usmarr_mpi_grid_periodic(const usmarr_mpi_grid_t *grid);
/** @brief The global domain's extents.
 *  @param grid the grid
 *  @return 3 entries (borrowed), NULL for NULL */
USMARR_API const int64_t *usmarr_mpi_grid_shape(const usmarr_mpi_grid_t *grid);
/** @brief The grid's halo width per axis.
 *  @param grid the grid
 *  @return 3 entries (borrowed), NULL for NULL */
USMARR_API const int64_t *usmarr_mpi_grid_halo(const usmarr_mpi_grid_t *grid);
/** @brief The calling rank's block extents, inner points only.
 *  @param grid the grid
 *  @return 3 entries (borrowed), NULL for NULL */
USMARR_API const int64_t *usmarr_mpi_grid_local_shape(const usmarr_mpi_grid_t *grid);
/** @brief The global index of the calling rank's first inner point.
 *  @param grid the grid
 *  @return 3 entries (borrowed), NULL for NULL */
USMARR_API const int64_t *usmarr_mpi_grid_local_start(const usmarr_mpi_grid_t *grid);

/** @brief Any rank's block.
 *  @param grid the grid
 *  @param rank a rank of the grid's communicator
 *  @param[out] start the global index of its first point (3 entries)
 *  @param[out] shape its extents (3 entries)
 *  @return 0 on success
 *  @retval USMARR_ERROR_INVALID_ARGUMENT a NULL argument
 *  @retval USMARR_ERROR_INDEX @p rank outside [0, size) */
USMARR_API USMARR_NODISCARD int usmarr_mpi_grid_block(const usmarr_mpi_grid_t *grid, int rank, int64_t start[3],
                                                      int64_t shape[3]);
/** @brief The rank of a neighbour: @p offset is (-1, 0 or 1) per axis; periodic axes wrap.
 *  @param grid the grid
 *  @param offset 3 entries, each -1, 0 or 1
 *  @param[out] rank the neighbour's rank, or MPI_PROC_NULL past a non-periodic edge
 *  @return 0 on success
 *  @retval USMARR_ERROR_INVALID_ARGUMENT a NULL argument or an entry outside [-1, 1] */
USMARR_API USMARR_NODISCARD int usmarr_mpi_grid_neighbor(const usmarr_mpi_grid_t *grid, const int offset[3],
                                                         int *rank);

/** @brief The calling rank's local storage (local, not collective).
 *
 * The grid sets `shape` (the block plus the halo on both sides) and, unless @p options
 * sets one, the `halo` (the grid's width); everything else (context, dtype, preset,
 * alignment, layout, device, managed) comes from @p options as in
 * usmarr_storage_zeros(), which creates it: the halo starts as zeros.  `axes`, when set,
 * must name all three axes in any order ("KJI"); the default is "IJK".
 * @param grid the grid
 * @param options the storage parameters (borrowed); `shape` must be unset
 * @param[out] storage the new storage
 * @return 0 on success
 * @retval USMARR_ERROR_INVALID_ARGUMENT NULL argument, @p options sets shape, axes that
 *         are not a permutation of "IJK"
 * Other errors as usmarr_storage_zeros(). */
USMARR_API USMARR_NODISCARD int usmarr_mpi_grid_storage(const usmarr_mpi_grid_t *grid,
                                                        const usmarr_storage_options_t *options,
                                                        usmarr_storage_t **storage);

/** @} */

/* ---------------------------------------------------------------------------------- */
/** @name Halo exchange
 *
 * An exchange plan fills the halo of one or several storages (dtypes may differ) from
 * the neighbours' inner points: the storage's own halo widths per side (equal on every
 * rank, at most the narrowest block) decide how many layers move.  Each storage must
 * have all three axes (any order) and a domain (shape minus halo) equal to the rank's
 * block; its dtype, halo and layout must be the same on every rank; all storages of one
 * plan share one context.
 *
 * Data moves through contiguous USM staging buffers, host USM where the device has it so
 * that MPI reads and writes them directly (else shared USM, else device USM plus a host
 * copy).  Halos are packed and unpacked on the device by the strided-copy engine
 * (usmarr_array_copy_into() from strided views), one launch per storage and direction;
 * a piece is stored with its thin (halo-width) axes outermost and the storage's
 * contiguous rows innermost.  All storages' pieces for one neighbour travel as one
 * message.
 *
 * Storage kinds: host, device and shared storages are exchanged where they live.  A
 * managed host/device pair is exchanged on its device side (pushing a host-dirty pair
 * first would move the whole field, so a host-dirty pair is instead exchanged on its
 * host side); the side written becomes the dirty one, as any write through
 * usmarr_storage_device_array() or usmarr_storage_host_array() does.
 * @{ */

/** @brief Builds an exchange plan (collective).
 *
 * Checks every storage on every rank and across ranks (dtypes, halos, flags and count
 * must agree), allocates the staging buffers and the packing views.  Nothing moves yet.
 * @param grid the grid (the plan retains it)
 * @param count number of storages, at least 1
 * @param storages @p count storages (the plan retains them)
 * @param flags ::USMARR_MPI_FACES or ::USMARR_MPI_CORNERS
 * @param[out] exchange the new plan
 * @return 0 on success, the same on every rank
 * @retval USMARR_ERROR_INVALID_ARGUMENT NULL argument, count below 1, unknown flags, a
 *         storage without all three axes
 * @retval USMARR_ERROR_SHAPE_MISMATCH a storage's domain differs from the rank's block,
 *         or its halo is wider than the narrowest block on that axis
 * @retval USMARR_ERROR_CONTEXT_MISMATCH storages of different contexts
 * @retval USMARR_ERROR_MPI count, flags, a dtype, a halo width or a layout differs between
 *         ranks (the detail names the storage, the axis and the values), or an MPI call
 *         failed
 * @retval USMARR_ERROR_OVERFLOW one message would exceed INT_MAX bytes
 * @retval USMARR_ERROR_ALLOCATION the staging buffers could not be allocated */
USMARR_API USMARR_NODISCARD int usmarr_mpi_exchange_create(usmarr_mpi_grid_t *grid, int count,
                                                           usmarr_storage_t *const *storages, unsigned flags,
                                                           usmarr_mpi_exchange_t **exchange);
/** @brief Starts an exchange on the calling thread's current queue of the storages'
 *  context: usmarr_mpi_exchange_start_on() with that queue and no events.  Returns
 *  without waiting for the neighbours: compute on the inner domain meanwhile (it must not
 *  write the halo regions nor the border layers being sent).
 *  Every rank of the grid calls it (neighbours wait for each other's messages).
 *  @param exchange the plan
 *  @return 0 on success
 *  @retval USMARR_ERROR_INVALID_ARGUMENT NULL
 *  @retval USMARR_ERROR_BAD_STATE the plan is already started, or a storage's halo changed
 *          since the plan was made
 *  @retval USMARR_ERROR_MPI an MPI call failed
 *  Other errors as usmarr_array_copy_into(). */
USMARR_API USMARR_NODISCARD int usmarr_mpi_exchange_start(usmarr_mpi_exchange_t *exchange);
/** @brief Completes a started exchange on the calling thread's current queue:
 *  usmarr_mpi_exchange_wait_on() with that queue, then waits on the host for the unpack
 *  alone (not for the queue's other work), so that the halos can be read from any side
 *  when it returns.
 *  @param exchange the plan
 *  @return 0 on success
 *  @retval USMARR_ERROR_INVALID_ARGUMENT NULL
 *  @retval USMARR_ERROR_BAD_STATE the plan is not started
 *  @retval USMARR_ERROR_MPI an MPI call failed
 *  Other errors as usmarr_array_copy_into(). */
USMARR_API USMARR_NODISCARD int usmarr_mpi_exchange_wait(usmarr_mpi_exchange_t *exchange);
/** @brief Starts an exchange scheduled on a queue, as GHEX's `schedule_exchange`: the
 *  packing runs on the plan's own queue after @p events (with none: after the work
 *  enqueued on @p queue so far), the host waits for the packing alone (a marker after it),
 *  posts the receives and sends and returns.  @p queue is never waited for as a whole, so
 *  work enqueued on it before (a stencil over the inner domain) keeps running while the
 *  messages travel.  The copies towards this rank (a periodic axis the rank has alone)
 *  are enqueued on the plan's queue too.
 *  @param exchange the plan
 *  @param queue a queue of the storages' context
 *  @param nevents how many events the packing waits for (0: @p queue's work so far)
 *  @param events the events that complete the writes of the border layers (borrowed)
 *  @return 0 on success
 *  @retval USMARR_ERROR_INVALID_ARGUMENT a NULL @p exchange or @p queue, NULL @p events
 *          with @p nevents > 0
 *  @retval USMARR_ERROR_CONTEXT_MISMATCH @p queue belongs to another context
 *  Other errors as usmarr_mpi_exchange_start() and usmarr_queue_wait(). */
USMARR_API USMARR_NODISCARD int usmarr_mpi_exchange_start_on(usmarr_mpi_exchange_t *exchange, usmarr_queue_t *queue,
                                                             size_t nevents, const cl_event *events);
/** @brief Completes an exchange on a queue, as GHEX's `schedule_wait`: waits on the host
 *  for the messages, enqueues the unpacking on the plan's queue and makes @p queue wait
 *  for it (usmarr_queue_wait()), then returns without waiting for the device: the work
 *  enqueued on @p queue from now on sees the halos.
 *  @param exchange the plan
 *  @param queue a queue of the storages' context
 *  @param[out] event NULL, or receives the unpack's marker (release it with
 *         clReleaseEvent()): other queues may wait for it
 *  @return 0 on success
 *  @retval USMARR_ERROR_INVALID_ARGUMENT a NULL @p exchange or @p queue
 *  @retval USMARR_ERROR_CONTEXT_MISMATCH @p queue belongs to another context
 *  @retval USMARR_ERROR_BAD_STATE the plan is not started
 *  Other errors as usmarr_mpi_exchange_wait(). */
USMARR_API USMARR_NODISCARD int usmarr_mpi_exchange_wait_on(usmarr_mpi_exchange_t *exchange, usmarr_queue_t *queue,
                                                            cl_event *event);
/** @brief Frees a plan (waiting first for a started exchange's messages).
 *  @param exchange a plan, or NULL (no-op) */
USMARR_API void usmarr_mpi_exchange_release(usmarr_mpi_exchange_t *exchange);
/** @brief Bytes this rank sends per exchange (diagnostics, benchmarks).
 *  @param exchange the plan
 *  @return the bytes, 0 for NULL */
USMARR_API int64_t usmarr_mpi_exchange_bytes(const usmarr_mpi_exchange_t *exchange);

/** @brief One blocking exchange (collective): usmarr_mpi_exchange_create(),
 *  usmarr_mpi_exchange_start(), usmarr_mpi_exchange_wait(), release.  For set-up and
 *  simple programs; a time-step loop keeps a plan instead.
 *  @param grid the grid
 *  @param count number of storages, at least 1
 *  @param storages @p count storages
 *  @param flags ::USMARR_MPI_FACES or ::USMARR_MPI_CORNERS
 *  @return 0 on success, the same on every rank; errors as usmarr_mpi_exchange_create(),
 *          usmarr_mpi_exchange_start() and usmarr_mpi_exchange_wait() */
USMARR_API USMARR_NODISCARD int usmarr_mpi_halo_exchange(usmarr_mpi_grid_t *grid, int count,
                                                         usmarr_storage_t *const *storages, unsigned flags);

/** @} */

/* ---------------------------------------------------------------------------------- */
/** @name Scatter and gather
 *
 * The global array is indexed like the storages (in their axes order) and covers the
 * global domain without halo; it lives on the root rank (any USM kind or strides, the
 * context of the storage there) and is ignored elsewhere.  Only inner points move: the
 * halos are untouched (exchange them afterwards).  Blocks travel packed, with one
 * MPI_Scatterv / MPI_Gatherv, and are packed and unpacked on the device.
 * @{ */

/** @brief Copies each rank's block of @p global (on @p root) into its local storage's
 *  domain (collective); values convert to the storage's dtype as usmarr_array_copy_into()
 *  converts them.
 *  @param grid the grid
 *  @param root the rank that holds @p global
 *  @param global on @p root: the global array; elsewhere ignored (may be NULL)
 *  @param local this rank's storage (its domain must be the rank's block)
 *  @return 0 on success, the same on every rank
 *  @retval USMARR_ERROR_INVALID_ARGUMENT NULL argument, @p root outside the grid or
 *          different between ranks, a storage without all three axes
 *  @retval USMARR_ERROR_SHAPE_MISMATCH @p global is not the global shape, or a storage's
 *          domain is not the rank's block
 *  @retval USMARR_ERROR_CONTEXT_MISMATCH @p global and the root's storage differ in context
 *  @retval USMARR_ERROR_MPI dtypes differ between ranks, or an MPI call failed
 *  @retval USMARR_ERROR_OVERFLOW more than INT_MAX elements */
USMARR_API USMARR_NODISCARD int usmarr_mpi_scatter(usmarr_mpi_grid_t *grid, int root, const usmarr_array_t *global,
                                                   usmarr_storage_t *local);
/** @brief Copies every rank's domain into its block of @p global on @p root (collective).
 *  @param grid the grid
 *  @param root the rank that receives @p global
 *  @param local this rank's storage (its domain must be the rank's block)
 *  @param global on @p root: the writable global array; elsewhere ignored (may be NULL)
 *  @return 0 on success, the same on every rank; other errors as usmarr_mpi_scatter()
 *  @retval USMARR_ERROR_READ_ONLY @p global is read-only */
USMARR_API USMARR_NODISCARD int usmarr_mpi_gather(usmarr_mpi_grid_t *grid, int root, usmarr_storage_t *local,
                                                  usmarr_array_t *global);

/** @} */

#ifdef __cplusplus
}
#endif
#endif /* USMARR_MPI_H */
