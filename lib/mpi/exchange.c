/* Halo exchange plans: which neighbours, which boxes of which storages, where in the
 * staging buffers; start packs and posts, wait receives and unpacks.  Packing and
 * unpacking are one copy plan each (usmarr_copy_plan_create): one kernel for all the
 * boxes of all the storages, whatever their number.  A direction whose neighbour is this
 * rank (a periodic axis it has alone) sends no message: a third copy plan, run on the
 * plan's queue after the sends are posted, copies its border layers straight into the
 * opposite halo while the messages travel.
 *
 * Ordering, as GHEX schedules an exchange on the user's stream: the pack runs on the
 * caller's queue (after its earlier work), or on the plan's own queue after the caller's
 * events; the host waits for the pack alone; the unpack runs on the plan's queue and the
 * caller's queue waits for it. */
#include "mpi_internal.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DIRECTIONS 26
#define STAGING_ALIGNMENT 64 /* bytes: every piece starts on a cache line (and any itemsize) */

static const char axis_names[3] = {'I', 'J', 'K'};

/* One storage's piece of one direction's messages: the box it is packed from (inner
 * border layers), the box it is unpacked into (halo), and the staging views. */
struct piece {
    int64_t send_begin[3], send_extent[3];
    int64_t recv_begin[3], recv_extent[3];
    size_t send_offset, recv_offset; /* bytes in the staging blocks */
    usmarr_array_t *send_stage, *recv_stage;
    /* views of the storage's side, per side: 0 = where the storage lives (device side of
     * a pair), 1 = the host side of a host-dirty managed pair */
    usmarr_array_t *send_region[2], *recv_region[2];
};

struct direction {
    int offset[3];
    int neighbor;
    int send_tag, recv_tag; /* a message is tagged with the direction its sender sent it in */
    size_t send_offset, send_bytes, recv_offset, recv_bytes;
};

struct snapshot {
    usmarr_dtype_t dtype;
    int memory_order[3]; /* I, J, K axis numbers, outermost first */
    int64_t halo[3][2];
    int64_t domain[3];
    int side; /* the side the running exchange works on */
    int planned_side; /* the side the copy plans were made for; -1: none yet */
    bool views_built[2];
};

struct usmarr_mpi_exchange {
    usmarr_mpi_grid_t *grid;
    usmarr_context_t *context;
    int count;
    usmarr_storage_t **storages;
    struct snapshot *snapshots;
    int ndirections;
    struct direction directions[MAX_DIRECTIONS];
    struct piece *pieces; /* [direction * count + storage] */
    usmarr_memory_t *send_memory, *recv_memory;
    usmarr_copy_plan_t *pack, *unpack; /* region -> staging, staging -> region */
    usmarr_copy_plan_t *wrap;          /* region -> region, towards this rank */
    usmarr_queue_t *queue;             /* the plan's own: packs, copies to this rank, unpacks */
    size_t send_size, recv_size;
    void *send_bounce, *recv_bounce; /* host copies when staging is device USM */
    MPI_Request requests[2 * MAX_DIRECTIONS];
    int nrequests;
    bool started;
    int64_t bytes_sent;
};

static size_t round_up(size_t n) { return (n + STAGING_ALIGNMENT - 1) / STAGING_ALIGNMENT * STAGING_ALIGNMENT; }

/* Whether direction d's neighbour is this rank: no message, no staging. */
static bool local(const usmarr_mpi_exchange_t *x, int d) { return x->directions[d].neighbor == x->grid->rank; }

/* Checks one rank's arguments; fills the snapshots.  Nothing crosses ranks yet. */
static int check_local(const usmarr_mpi_grid_t *grid, int count, usmarr_storage_t *const *storages, unsigned flags,
                       struct snapshot *snap, usmarr_context_t **context)
{
    if (count < 1)
        return usmarr_error_set(USMARR_ERROR_INVALID_ARGUMENT, "count=%d is below 1", count);
    if (!storages)
        return usmarr_error_set(USMARR_ERROR_INVALID_ARGUMENT, "storages is NULL");
    if (flags & ~(unsigned)USMARR_MPI_CORNERS)
        return usmarr_error_set(USMARR_ERROR_INVALID_ARGUMENT, "flags=0x%x has unknown bits (known: 0x%x)", flags,
                                (unsigned)USMARR_MPI_CORNERS);
    for (int i = 0; i < count; i++) {
        char what[32];
        snprintf(what, sizeof what, "storages[%d]", i);
        int rc = usmarr__mpi_storage_describe(storages[i], what, snap[i].halo, snap[i].domain);
        if (rc)
            return rc;
        snap[i].dtype = usmarr_storage_dtype(storages[i]);
        usmarr__mpi_memory_order(storages[i], snap[i].memory_order);
        if (i == 0)
            *context = usmarr_storage_context(storages[0]);
        else if (usmarr_storage_context(storages[i]) != *context)
            return usmarr_error_set(USMARR_ERROR_CONTEXT_MISMATCH,
                                    "storages[%d] belongs to another context than storages[0]", i);
        for (int a = 0; a < 3; a++) {
            if (snap[i].domain[a] != grid->local_shape[a])
                return usmarr_error_set(USMARR_ERROR_SHAPE_MISMATCH,
                                        "%s: domain (%lld,%lld,%lld) (I,J,K) differs from this rank's block "
                                        "(%lld,%lld,%lld)",
                                        what, (long long)snap[i].domain[0], (long long)snap[i].domain[1],
                                        (long long)snap[i].domain[2], (long long)grid->local_shape[0],
                                        (long long)grid->local_shape[1], (long long)grid->local_shape[2]);
            for (int side = 0; side < 2; side++)
                if (snap[i].halo[a][side] > grid->min_block[a])
                    return usmarr_error_set(USMARR_ERROR_SHAPE_MISMATCH,
                                            "%s: %s halo=%lld on axis %c is wider than the narrowest block "
                                            "(%lld points)",
                                            what, side ? "upper" : "lower", (long long)snap[i].halo[a][side],
                                            axis_names[a], (long long)grid->min_block[a]);
        }
    }
    return 0;
}

/* Count, flags, dtypes, halos and layouts must be equal on every rank (the layout orders
 * the staging: sender and receiver must agree on it). */
static int compare_across_ranks(MPI_Comm comm, int count, unsigned flags, const struct snapshot *snap)
{
    int64_t header[2] = {count, flags}, min = 0, max = 0;
    int i = usmarr__mpi_compare(comm, 2, header, &min, &max);
    if (i == USMARR_MPI_COMPARE_FAILED)
        return USMARR_ERROR_MPI;
    if (i >= 0)
        return usmarr_error_set(USMARR_ERROR_MPI, "%s differs between ranks (%lld to %lld)", i ? "flags" : "count",
                                (long long)min, (long long)max);
    int64_t *values = malloc(sizeof(int64_t) * 8 * (size_t)count);
    int rc = 0;
    if (!values)
        return usmarr_error_set(USMARR_ERROR_OUT_OF_HOST_MEMORY, "%d storages", count);
    for (int s = 0; s < count; s++) {
        int64_t *v = values + 8 * s;
        v[0] = snap[s].dtype;
        for (int a = 0; a < 3; a++) {
            v[1 + 2 * a] = snap[s].halo[a][0];
            v[2 + 2 * a] = snap[s].halo[a][1];
        }
        v[7] = snap[s].memory_order[0] * 9 + snap[s].memory_order[1] * 3 + snap[s].memory_order[2];
    }
    i = usmarr__mpi_compare(comm, 8 * count, values, &min, &max);
    if (i == USMARR_MPI_COMPARE_FAILED)
        rc = USMARR_ERROR_MPI;
    else if (i >= 0 && i % 8 == 0)
        rc = usmarr_error_set(USMARR_ERROR_MPI, "storages[%d] dtype differs between ranks (%s to %s)", i / 8,
                              usmarr_dtype_name((usmarr_dtype_t)min), usmarr_dtype_name((usmarr_dtype_t)max));
    else if (i >= 0 && i % 8 == 7)
        rc = usmarr_error_set(USMARR_ERROR_MPI, "storages[%d] layout differs between ranks", i / 8);
    else if (i >= 0)
        rc = usmarr_error_set(USMARR_ERROR_MPI, "storages[%d] %s halo width on axis %c differs between ranks "
                                                "(%lld to %lld)",
                              i / 8, (i % 8 - 1) % 2 ? "upper" : "lower", axis_names[(i % 8 - 1) / 2],
                              (long long)min, (long long)max);
    free(values);
    return rc;
}

/* The boxes of one storage for one direction.  Sending towards +1 on an axis fills the
 * neighbour's lower halo from my last inner layers; receiving from +1 fills my upper halo. */
static void layout_piece(const struct snapshot *s, const int offset[3], struct piece *p, size_t *send_bytes,
                         size_t *recv_bytes)
{
    int64_t send = 1, recv = 1;
    for (int a = 0; a < 3; a++) {
        int64_t lo = s->halo[a][0], hi = s->halo[a][1], n = s->domain[a];
        if (offset[a] == 0) {
            p->send_begin[a] = p->recv_begin[a] = lo;
            p->send_extent[a] = p->recv_extent[a] = n;
        } else if (offset[a] > 0) {
            p->send_begin[a] = lo + n - lo;
            p->send_extent[a] = lo;
            p->recv_begin[a] = lo + n;
            p->recv_extent[a] = hi;
        } else {
            p->send_begin[a] = lo;
            p->send_extent[a] = hi;
            p->recv_begin[a] = 0;
            p->recv_extent[a] = lo;
        }
        send *= p->send_extent[a];
        recv *= p->recv_extent[a];
    }
    *send_bytes = (size_t)send * usmarr_dtype_size(s->dtype);
    *recv_bytes = (size_t)recv * usmarr_dtype_size(s->dtype);
}

/* Neighbours, boxes and staging offsets of every direction; the message sizes. */
static int plan_directions(usmarr_mpi_exchange_t *x, unsigned flags)
{
    size_t send_at = 0, recv_at = 0;
    for (int d0 = -1; d0 <= 1; d0++)
        for (int d1 = -1; d1 <= 1; d1++)
            for (int d2 = -1; d2 <= 1; d2++) {
                int offset[3] = {d0, d1, d2}, nonzero = (d0 != 0) + (d1 != 0) + (d2 != 0), neighbor;
                if (nonzero == 0 || (nonzero > 1 && !(flags & USMARR_MPI_CORNERS)))
                    continue;
                if (usmarr_mpi_grid_neighbor(x->grid, offset, &neighbor) || neighbor == MPI_PROC_NULL)
                    continue;
                struct direction *d = &x->directions[x->ndirections];
                struct piece *pieces = &x->pieces[x->ndirections * x->count];
                memcpy(d->offset, offset, sizeof offset);
                d->neighbor = neighbor;
                d->send_tag = (d0 + 1) * 9 + (d1 + 1) * 3 + (d2 + 1);
                d->recv_tag = 26 - d->send_tag;
                d->send_offset = send_at;
                d->recv_offset = recv_at;
                for (int s = 0; s < x->count; s++) {
                    size_t send_bytes, recv_bytes;
                    layout_piece(&x->snapshots[s], offset, &pieces[s], &send_bytes, &recv_bytes);
                    x->bytes_sent += (int64_t)send_bytes;
                    pieces[s].send_offset = send_at;
                    pieces[s].recv_offset = recv_at;
                    if (!local(x, x->ndirections)) { /* staged: a message */
                        send_at += round_up(send_bytes);
                        recv_at += round_up(recv_bytes);
                    }
                }
                d->send_bytes = send_at - d->send_offset;
                d->recv_bytes = recv_at - d->recv_offset;
                if (d->send_bytes > INT_MAX || d->recv_bytes > INT_MAX)
                    return usmarr_error_set(USMARR_ERROR_OVERFLOW,
                                            "the message towards (%d,%d,%d) would be %zu bytes, above INT_MAX", d0,
                                            d1, d2, d->send_bytes > d->recv_bytes ? d->send_bytes : d->recv_bytes);
                x->ndirections++;
            }
    x->send_size = send_at;
    x->recv_size = recv_at;
    return 0;
}

/* The index of the direction -offset of direction d.  Where d leads to this rank, so does
 * -offset (every axis d moves along is periodic and has this rank alone): it is planned. */
static int opposite(const usmarr_mpi_exchange_t *x, int d)
{
    const int *o = x->directions[d].offset;
    int e = 0;
    while (e < x->ndirections - 1 && (x->directions[e].offset[0] != -o[0] || x->directions[e].offset[1] != -o[1] ||
                                      x->directions[e].offset[2] != -o[2]))
        e++;
    return e;
}

/* Staging blocks and the contiguous views of every piece. */
static int allocate_staging(usmarr_mpi_exchange_t *x)
{
    usmarr_usm_kind_t kind = usmarr__mpi_staging_kind(x->context);
    int rc = usmarr_memory_create(x->context, kind, x->send_size, STAGING_ALIGNMENT, &x->send_memory);
    if (!rc)
        rc = usmarr_memory_create(x->context, kind, x->recv_size, STAGING_ALIGNMENT, &x->recv_memory);
    if (!rc && kind == USMARR_USM_DEVICE) {
        x->send_bounce = malloc(x->send_size ? x->send_size : 1);
        x->recv_bounce = malloc(x->recv_size ? x->recv_size : 1);
        if (!x->send_bounce || !x->recv_bounce)
            rc = usmarr_error_set(USMARR_ERROR_OUT_OF_HOST_MEMORY, "host copies of %zu + %zu staging bytes",
                                  x->send_size, x->recv_size);
    }
    for (int d = 0; !rc && d < x->ndirections; d++)
        for (int s = 0; !rc && !local(x, d) && s < x->count; s++) {
            /* A piece is stored in the storage's memory order: the box's rows stay rows (a
             * K face is rows of halo-width elements, copied whole), and both ends derive
             * the same order from the same layout. */
            struct piece *p = &x->pieces[d * x->count + s];
            const int *order = x->snapshots[s].memory_order;
            rc = usmarr__mpi_staging_view(x->send_memory, p->send_offset, x->snapshots[s].dtype, p->send_extent,
                                          order, &p->send_stage);
            if (!rc)
                rc = usmarr__mpi_staging_view(x->recv_memory, p->recv_offset, x->snapshots[s].dtype, p->recv_extent,
                                              order, &p->recv_stage);
        }
    return rc;
}

static void free_plan(usmarr_mpi_exchange_t *x)
{
    if (!x)
        return;
    /* The unpacking (and a pack after the caller's events) runs on the plan's queue, and
     * the staging blocks were recorded for the queue they were made on: their release
     * would wait for that queue alone and free them under kernels still running. */
    if (x->queue)
        clFinish(usmarr_queue_cl(x->queue));
    for (int i = 0; x->pieces && i < MAX_DIRECTIONS * x->count; i++) {
        struct piece *p = &x->pieces[i];
        usmarr_array_release(p->send_stage);
        usmarr_array_release(p->recv_stage);
        for (int side = 0; side < 2; side++) {
            usmarr_array_release(p->send_region[side]);
            usmarr_array_release(p->recv_region[side]);
        }
    }
    free(x->pieces);
    usmarr_copy_plan_release(x->pack);
    usmarr_copy_plan_release(x->unpack);
    usmarr_copy_plan_release(x->wrap);
    usmarr_queue_release(x->queue);
    usmarr_memory_release(x->send_memory);
    usmarr_memory_release(x->recv_memory);
    free(x->send_bounce);
    free(x->recv_bounce);
    for (int s = 0; x->storages && s < x->count; s++)
        usmarr_storage_release(x->storages[s]);
    free(x->storages);
    free(x->snapshots);
    usmarr_mpi_grid_release(x->grid);
    free(x);
}

/* The region views of one storage on one side, made the first time that side is used. */
static int build_views(usmarr_mpi_exchange_t *x, int s, const struct usmarr__mpi_field *field, int side)
{
    int rc = 0;
    for (int d = 0; !rc && d < x->ndirections; d++) {
        struct piece *p = &x->pieces[d * x->count + s];
        rc = usmarr__mpi_box_view(field->array, p->send_begin, p->send_extent, &p->send_region[side]);
        if (!rc)
            rc = usmarr__mpi_box_view(field->array, p->recv_begin, p->recv_extent, &p->recv_region[side]);
    }
    if (!rc)
        x->snapshots[s].views_built[side] = true;
    return rc;
}

/* Picks each storage's side (marking it written when `write`: the halo will change) and
 * checks that its halo is still the plan's. */
static int open_sides(usmarr_mpi_exchange_t *x, bool write)
{
    int rc = 0;
    for (int s = 0; !rc && s < x->count; s++) {
        struct snapshot *snap = &x->snapshots[s];
        struct usmarr__mpi_field field;
        char what[32];
        snprintf(what, sizeof what, "storages[%d]", s);
        rc = usmarr__mpi_field_open(x->storages[s], write, what, &field);
        if (!rc && memcmp(field.halo, snap->halo, sizeof field.halo))
            rc = usmarr_error_set(USMARR_ERROR_BAD_STATE, "%s: the halo changed since the exchange plan was made",
                                  what);
        if (!rc) {
            snap->side = field.host_side ? 1 : 0;
            if (!snap->views_built[snap->side])
                rc = build_views(x, s, &field, snap->side);
        }
        usmarr__mpi_field_close(&field);
    }
    return rc;
}

/* The packing and unpacking plans for the storages' current sides, made again only when
 * a side changed (a managed pair that became host dirty, or clean again). */
static int plan_copies(usmarr_mpi_exchange_t *x)
{
    bool current = x->pack != NULL;
    for (int s = 0; current && s < x->count; s++)
        current = x->snapshots[s].planned_side == x->snapshots[s].side;
    if (current)
        return 0;
    usmarr_copy_plan_release(x->pack);
    usmarr_copy_plan_release(x->unpack);
    usmarr_copy_plan_release(x->wrap);
    x->pack = x->unpack = x->wrap = NULL;
    int n = x->ndirections * x->count, nstaged = 0, nwrap = 0;
    usmarr_array_t **arrays = malloc(sizeof *arrays * (size_t)(6 * n + 1));
    if (!arrays)
        return usmarr_error_set(USMARR_ERROR_OUT_OF_HOST_MEMORY, "copy lists of %d pieces", n);
    /* packing: border layers into the staging; unpacking: staging into halos; wrapping,
     * towards this rank: border layers straight into the halo on the other side (what the
     * opposite direction receives) */
    usmarr_array_t **stage_out = arrays, **region_in = arrays + n, **region_out = arrays + 2 * n,
                   **stage_in = arrays + 3 * n, **wrap_out = arrays + 4 * n, **wrap_in = arrays + 5 * n;
    for (int i = 0; i < n; i++) {
        const struct piece *p = &x->pieces[i];
        int d = i / x->count, s = i % x->count, side = x->snapshots[s].side;
        if (local(x, d)) {
            wrap_out[nwrap] = x->pieces[opposite(x, d) * x->count + s].recv_region[side];
            wrap_in[nwrap++] = p->send_region[side];
            continue;
        }
        stage_out[nstaged] = p->send_stage;
        region_in[nstaged] = p->send_region[side];
        region_out[nstaged] = p->recv_region[side];
        stage_in[nstaged++] = p->recv_stage;
    }
    int rc = usmarr_copy_plan_create(x->context, nstaged, stage_out, (const usmarr_array_t *const *)region_in,
                                     &x->pack);
    if (!rc)
        rc = usmarr_copy_plan_create(x->context, nstaged, region_out, (const usmarr_array_t *const *)stage_in,
                                     &x->unpack);
    if (!rc)
        rc = usmarr_copy_plan_create(x->context, nwrap, wrap_out, (const usmarr_array_t *const *)wrap_in, &x->wrap);
    free(arrays);
    for (int s = 0; !rc && s < x->count; s++)
        x->snapshots[s].planned_side = x->snapshots[s].side;
    return rc;
}

int usmarr_mpi_exchange_create(usmarr_mpi_grid_t *grid, int count, usmarr_storage_t *const *storages, unsigned flags,
                               usmarr_mpi_exchange_t **exchange)
{
    usmarr_error_set(0, NULL);
    if (!grid)
        return usmarr_error_set(USMARR_ERROR_INVALID_ARGUMENT, "grid is NULL");
    if (exchange)
        *exchange = NULL;
    usmarr_mpi_exchange_t *x = calloc(1, sizeof *x);
    struct snapshot *snap = count > 0 ? calloc((size_t)count, sizeof *snap) : NULL;
    usmarr_context_t *context = NULL;
    int rc;
    if (!x || (count > 0 && !snap))
        rc = usmarr_error_set(USMARR_ERROR_OUT_OF_HOST_MEMORY, "an exchange plan for %d storages", count);
    else if (!exchange)
        rc = usmarr_error_set(USMARR_ERROR_INVALID_ARGUMENT, "exchange is NULL");
    else
        rc = check_local(grid, count, storages, flags, snap, &context);
    if ((rc = usmarr__mpi_agree(grid->private, rc)) || (rc = compare_across_ranks(grid->private, count, flags, snap))) {
        free(snap);
        free(x);
        return rc;
    }
    x->grid = usmarr_mpi_grid_retain(grid);
    x->context = context;
    x->count = count;
    x->snapshots = snap;
    x->storages = calloc((size_t)count, sizeof *x->storages);
    x->pieces = calloc((size_t)(MAX_DIRECTIONS * count), sizeof *x->pieces);
    if (!x->storages || !x->pieces)
        rc = usmarr_error_set(USMARR_ERROR_OUT_OF_HOST_MEMORY, "an exchange plan for %d storages", count);
    for (int s = 0; !rc && s < count; s++) {
        x->storages[s] = usmarr_storage_retain(storages[s]);
        snap[s].planned_side = -1;
    }
    if (!rc)
        rc = plan_directions(x, flags);
    if (!rc)
        rc = allocate_staging(x);
    if (!rc)
        rc = usmarr_queue_create(context, 0, &x->queue);
    /* The copy plans for the sides the storages are on now (nothing is marked written);
     * start makes them again only if a side has changed by then. */
    if (!rc)
        rc = open_sides(x, false);
    if (!rc)
        rc = plan_copies(x);
    if ((rc = usmarr__mpi_agree(grid->private, rc))) {
        free_plan(x);
        return rc;
    }
    *exchange = x;
    return 0;
}

/* Frees the request slots after a failure half-way through posting. */
static void cancel_posted(usmarr_mpi_exchange_t *x)
{
    for (int i = 0; i < x->nrequests; i++) {
        MPI_Cancel(&x->requests[i]);
        MPI_Request_free(&x->requests[i]);
    }
    x->nrequests = 0;
}

/* Makes `queue` this thread's current one, so that the copies and transfers of the library
 * run on it; returns the queue to restore (retained), through `previous`. */
static int enter_queue(usmarr_queue_t *queue, usmarr_queue_t **previous)
{
    *previous = usmarr_queue_retain(usmarr_queue_get_current());
    int rc = usmarr_queue_set_current(queue);
    if (rc) {
        usmarr_queue_release(*previous);
        *previous = NULL;
    }
    return rc;
}

/* The current queue as it was before enter_queue; rc passes through. */
static int leave_queue(usmarr_queue_t *previous, int rc)
{
    int restored = usmarr_queue_set_current(previous);
    usmarr_queue_release(previous);
    return rc ? rc : restored;
}

/* Checks a queue and event list of start_on and wait_on. */
static int check_queue(const usmarr_mpi_exchange_t *x, usmarr_queue_t *queue, size_t nevents, const cl_event *events)
{
    if (!queue)
        return usmarr_error_set(USMARR_ERROR_INVALID_ARGUMENT, "queue is NULL");
    if (usmarr_queue_context(queue) != x->context)
        return usmarr_error_set(USMARR_ERROR_CONTEXT_MISMATCH, "queue belongs to another context than the storages");
    if (nevents && !events)
        return usmarr_error_set(USMARR_ERROR_INVALID_ARGUMENT, "events is NULL with nevents=%zu", nevents);
    return 0;
}

/* Packs into the staging and waits for the pack alone: on `queue` after its earlier work
 * without events, else on the plan's queue after the events (the caller's queue runs on). */
static int pack(usmarr_mpi_exchange_t *x, usmarr_queue_t *queue, size_t nevents, const cl_event *events)
{
    usmarr_queue_t *on = nevents ? x->queue : queue, *previous;
    int rc = nevents ? usmarr_queue_wait(x->queue, nevents, events) : 0;
    if (rc || (rc = enter_queue(on, &previous)))
        return rc;
    rc = usmarr_copy_plan_run(x->pack);
    /* MPI reads the staging from the host: the packing kernel must be done.  A transfer
     * to host memory returns when it is. */
    if (!rc && x->send_bounce)
        rc = usmarr_memory_copy_to_host(x->send_memory, 0, x->send_bounce, x->send_size);
    else if (!rc)
        rc = usmarr__mpi_wait_queue(on);
    /* Without events the pack waited for the caller's earlier work: the unpack, on the
     * plan's queue, needs no order against it. */
    return leave_queue(previous, rc);
}

int usmarr_mpi_exchange_start_on(usmarr_mpi_exchange_t *x, usmarr_queue_t *queue, size_t nevents,
                                 const cl_event *events)
{
    usmarr_error_set(0, NULL);
    if (!x)
        return usmarr_error_set(USMARR_ERROR_INVALID_ARGUMENT, "exchange is NULL");
    if (x->started)
        return usmarr_error_set(USMARR_ERROR_BAD_STATE, "the exchange is already started: wait for it first");
    int rc = check_queue(x, queue, nevents, events), err = MPI_SUCCESS;
    if (!rc)
        rc = open_sides(x, true);
    if (!rc)
        rc = plan_copies(x);
    MPI_Comm comm = x->grid->private;
    char *recv_base = x->recv_bounce ? x->recv_bounce : usmarr_memory_pointer(x->recv_memory);
    char *send_base = x->send_bounce ? x->send_bounce : usmarr_memory_pointer(x->send_memory);
    x->nrequests = 0;
    /* Receives first, so that a fast neighbour's message lands in place. */
    for (int d = 0; !rc && err == MPI_SUCCESS && d < x->ndirections; d++) {
        const struct direction *dir = &x->directions[d];
        if (dir->recv_bytes) /* none towards this rank */
            err = MPI_Irecv(recv_base + dir->recv_offset, (int)dir->recv_bytes, MPI_BYTE, dir->neighbor,
                            dir->recv_tag, comm, &x->requests[x->nrequests++]);
    }
    if (!rc && err == MPI_SUCCESS)
        rc = pack(x, queue, nevents, events);
    for (int d = 0; !rc && err == MPI_SUCCESS && d < x->ndirections; d++) {
        const struct direction *dir = &x->directions[d];
        if (dir->send_bytes)
            err = MPI_Isend(send_base + dir->send_offset, (int)dir->send_bytes, MPI_BYTE, dir->neighbor,
                            dir->send_tag, comm, &x->requests[x->nrequests++]);
    }
    /* The copies towards this rank run on the plan's queue while the messages travel; the
     * unpacking follows them there. */
    usmarr_queue_t *previous;
    if (!rc && err == MPI_SUCCESS && !(rc = enter_queue(x->queue, &previous)))
        rc = leave_queue(previous, usmarr_copy_plan_run(x->wrap));
    if (err != MPI_SUCCESS)
        rc = usmarr__mpi_fail(err, "posting the halo messages");
    if (rc) {
        cancel_posted(x);
        return rc;
    }
    x->started = true;
    return 0;
}

/* Waits for the messages and unpacks them on the plan's queue; `unpacked` receives a
 * marker after the unpacking.  `queue`, when not NULL, is made to wait for it. */
static int receive(usmarr_mpi_exchange_t *x, usmarr_queue_t *queue, cl_event *unpacked)
{
    *unpacked = NULL;
    if (!x->started)
        return usmarr_error_set(USMARR_ERROR_BAD_STATE, "the exchange is not started");
    int err = MPI_Waitall(x->nrequests, x->requests, MPI_STATUSES_IGNORE);
    x->nrequests = 0;
    x->started = false;
    if (err != MPI_SUCCESS)
        return usmarr__mpi_fail(err, "waiting for the halo messages (MPI_Waitall)");
    usmarr_queue_t *previous;
    int rc = enter_queue(x->queue, &previous);
    if (rc)
        return rc;
    if (x->recv_bounce)
        rc = usmarr_memory_copy_from_host(x->recv_memory, 0, x->recv_bounce, x->recv_size);
    if (!rc)
        rc = usmarr_copy_plan_run(x->unpack);
    rc = leave_queue(previous, rc);
    if (!rc)
        rc = usmarr_queue_marker(x->queue, unpacked);
    if (!rc && queue)
        rc = usmarr_queue_wait(queue, 1, unpacked);
    if (rc && *unpacked) {
        clReleaseEvent(*unpacked);
        *unpacked = NULL;
    }
    return rc;
}

int usmarr_mpi_exchange_wait_on(usmarr_mpi_exchange_t *x, usmarr_queue_t *queue, cl_event *event)
{
    usmarr_error_set(0, NULL);
    if (event)
        *event = NULL;
    if (!x)
        return usmarr_error_set(USMARR_ERROR_INVALID_ARGUMENT, "exchange is NULL");
    cl_event unpacked;
    int rc = check_queue(x, queue, 0, NULL);
    if (!rc)
        rc = receive(x, queue, &unpacked);
    if (!rc && event)
        *event = unpacked;
    else if (!rc)
        clReleaseEvent(unpacked);
    return rc;
}

int usmarr_mpi_exchange_start(usmarr_mpi_exchange_t *x)
{
    usmarr_error_set(0, NULL);
    if (!x)
        return usmarr_error_set(USMARR_ERROR_INVALID_ARGUMENT, "exchange is NULL");
    return usmarr_mpi_exchange_start_on(x, usmarr_queue_current(x->context), 0, NULL);
}

int usmarr_mpi_exchange_wait(usmarr_mpi_exchange_t *x)
{
    usmarr_error_set(0, NULL);
    if (!x)
        return usmarr_error_set(USMARR_ERROR_INVALID_ARGUMENT, "exchange is NULL");
    /* The halos readable from any side: the unpack done on return, so no queue needs to
     * wait for it, and the caller's other work is not waited for. */
    cl_event unpacked;
    int rc = receive(x, NULL, &unpacked);
    if (rc)
        return rc;
    cl_int err = clWaitForEvents(1, &unpacked);
    clReleaseEvent(unpacked);
    return err ? usmarr_error_set(err, "clWaitForEvents: the unpacking failed") : 0;
}

void usmarr_mpi_exchange_release(usmarr_mpi_exchange_t *x)
{
    if (!x)
        return;
    if (x->started)
        MPI_Waitall(x->nrequests, x->requests, MPI_STATUSES_IGNORE);
    free_plan(x);
}

int64_t usmarr_mpi_exchange_bytes(const usmarr_mpi_exchange_t *x) { return x ? x->bytes_sent : 0; }

int usmarr_mpi_halo_exchange(usmarr_mpi_grid_t *grid, int count, usmarr_storage_t *const *storages, unsigned flags)
{
    usmarr_mpi_exchange_t *x = NULL;
    int rc = usmarr_mpi_exchange_create(grid, count, storages, flags, &x);
    if (!rc)
        rc = usmarr_mpi_exchange_start(x);
    if (!rc)
        rc = usmarr_mpi_exchange_wait(x);
    usmarr_mpi_exchange_release(x);
    return rc;
}
