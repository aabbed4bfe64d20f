/* Halo exchange: a distinct value planted in every inner point of every rank, then every
 * halo cell of every rank checked against the host oracle, over periodic and open axes,
 * faces and corners, halo widths, dtypes, axes orders, layouts and storage kinds; and the
 * errors every rank must report alike. */
#include "mpi_common.h"
#include "mpi_oracle.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define SENTINEL (-3.0)

/* One storage of an exchange. */
struct field_spec {
    usmarr_dtype_t dtype;
    const char *axes;            /* NULL: "IJK" */
    const char *layout;          /* NULL: the default */
    const char *device, *managed;
    bool own_halo;               /* use `halo` instead of the grid's */
    int64_t halo[3][2];          /* I, J, K */
    bool plant_on_host;          /* a managed pair: plant through the host side (host dirty) */
};

/* SCHEDULED_QUEUE: start_on and wait_on a queue of the test's own, without events (the pack
 * waits for the queue's earlier work); SCHEDULED_EVENTS: on a queue held by an unsignalled
 * user event, the pack waiting for a marker of the queue that planted the fields. */
enum exchange_mode { BLOCKING_PLAN, NONBLOCKING_PLAN, ONE_SHOT, SCHEDULED_QUEUE, SCHEDULED_EVENTS };

static usmarr_mpi_grid_options_t grid_options(int64_t ni, int64_t nj, int64_t nk, int64_t halo, bool pi, bool pj,
                                              bool pk)
{
    usmarr_mpi_grid_options_t o = USMARR_MPI_GRID_OPTIONS_INIT;
    int64_t shape[3] = {ni, nj, nk};
    bool periodic[3] = {pi, pj, pk};
    for (int a = 0; a < 3; a++) {
        o.shape[a] = shape[a];
        o.periodic[a] = periodic[a];
        o.halo[a] = halo;
    }
    return o;
}

/* Where axis a (I, J, K) sits in the storage's axes. */
static void positions(const char *axes, int position[3])
{
    for (int a = 0; a < 3; a++)
        position[a] = (int)(strchr(axes, "IJK"[a]) - axes);
}

static usmarr_storage_t *make_storage(usmarr_context_t *ctx, const usmarr_mpi_grid_t *grid,
                                      const struct field_spec *f)
{
    usmarr_storage_options_t o = test_storage_options(ctx, f->dtype);
    o.axes = f->axes;
    o.layout = f->layout;
    if (f->device || f->managed) { /* else test_storage_options()'s default */
        o.device = f->device;
        o.managed = f->managed;
    }
    if (f->own_halo) {
        int position[3];
        positions(f->axes ? f->axes : "IJK", position);
        o.nhalo = 3;
        for (int a = 0; a < 3; a++) {
            o.halo[position[a]][0] = f->halo[a][0];
            o.halo[position[a]][1] = f->halo[a][1];
        }
    }
    usmarr_storage_t *s = NULL;
    int rc = usmarr_mpi_grid_storage(grid, &o, &s);
    ck_assert_msg(rc == 0, "grid storage: %s: %s", usmarr_error_name(rc), usmarr_last_error_detail());
    return s;
}

static struct oracle_domain domain_of(const usmarr_mpi_grid_t *grid, const struct field_spec *f)
{
    struct oracle_domain d;
    for (int a = 0; a < 3; a++) {
        d.shape[a] = usmarr_mpi_grid_shape(grid)[a];
        d.periodic[a] = usmarr_mpi_grid_periodic(grid)[a];
        d.start[a] = usmarr_mpi_grid_local_start(grid)[a];
        d.extent[a] = usmarr_mpi_grid_local_shape(grid)[a];
        d.halo[a][0] = f->own_halo ? f->halo[a][0] : usmarr_mpi_grid_halo(grid)[a];
        d.halo[a][1] = f->own_halo ? f->halo[a][1] : usmarr_mpi_grid_halo(grid)[a];
    }
    return d;
}

/* The flat index, in the storage's axes order, of the I, J, K cell l. */
static int64_t storage_index(const int64_t *shape, const int position[3], const int64_t l[3])
{
    int64_t at[3];
    for (int a = 0; a < 3; a++)
        at[position[a]] = l[a];
    return (at[0] * shape[1] + at[1]) * shape[2] + at[2];
}

/* Moves an I, J, K ordered field into (or out of) the storage's axes order. */
static void reorder(const struct oracle_domain *d, const char *axes, const int64_t *shape, const double *from,
                    double *to, bool into_storage)
{
    int position[3];
    positions(axes, position);
    int64_t l[3], n = 0, m[3];
    for (int a = 0; a < 3; a++)
        m[a] = d->extent[a] + d->halo[a][0] + d->halo[a][1];
    for (l[0] = 0; l[0] < m[0]; l[0]++)
        for (l[1] = 0; l[1] < m[1]; l[1]++)
            for (l[2] = 0; l[2] < m[2]; l[2]++, n++) {
                int64_t s = storage_index(shape, position, l);
                if (into_storage)
                    to[s] = from[n];
                else
                    to[n] = from[s];
            }
}

static int64_t cells(const struct oracle_domain *d)
{
    int64_t n = 1;
    for (int a = 0; a < 3; a++)
        n *= d->extent[a] + d->halo[a][0] + d->halo[a][1];
    return n;
}

/* Whether the device, in its USM mode, can make the storage: a managed pair needs host
 * USM, a "cuda"-managed storage shared USM (USMARR_USM_KINDS=device and the SVM backend
 * offer neither: the exchange then runs on the other storages). */
static bool storage_offered(usmarr_context_t *ctx, const struct field_spec *f)
{
    const usmarr_device_info_t *info = usmarr_context_info(ctx);
    if (f->managed && !strcmp(f->managed, "cuda"))
        return info->single_device_shared_caps & CL_UNIFIED_SHARED_MEMORY_ACCESS_INTEL;
    if (f->device && !f->managed)
        return info->host_mem_caps & CL_UNIFIED_SHARED_MEMORY_ACCESS_INTEL;
    return true;
}

static cl_int event_status(cl_event event)
{
    cl_int status = CL_QUEUED;
    ck_assert_int_eq(clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL),
                     CL_SUCCESS);
    return status;
}

/* An exchange scheduled on a queue of the test's own (usmarr_mpi_exchange_start_on and
 * wait_on).  With events, that queue is held by a user event throughout: start_on and
 * wait_on return all the same (the host waits for the pack alone, never for the queue),
 * work the queue enqueues after wait_on waits for the unpack, and the gate's release lets
 * it run. */
static void scheduled_exchange(MPI_Comm comm, usmarr_context_t *ctx, usmarr_mpi_exchange_t *x, bool events)
{
    usmarr_queue_t *queue = NULL;
    ck_assert_ok(usmarr_queue_create(ctx, 0, &queue));
    cl_event gate = NULL, planted = NULL, unpacked = NULL, after = NULL;
    if (events) {
        cl_int err;
        gate = clCreateUserEvent(usmarr_context_cl_context(ctx), &err);
        ck_assert_int_eq(err, CL_SUCCESS);
        ck_assert_ok(usmarr_queue_wait(queue, 1, &gate));
        ck_assert_ok(usmarr_queue_marker(usmarr_queue_current(ctx), &planted));
    }
    ck_assert_ok_all(comm, usmarr_mpi_exchange_start_on(x, queue, events ? 1 : 0, events ? &planted : NULL));
    ck_assert_ok_all(comm, usmarr_mpi_exchange_wait_on(x, queue, &unpacked));
    ck_assert_ok(usmarr_queue_marker(queue, &after));
    if (events) {
        ck_assert_msg(event_status(after) != CL_COMPLETE, "the held queue ran past its user event");
        ck_assert_int_eq(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
    }
    ck_assert_int_eq(clWaitForEvents(1, &after), CL_SUCCESS);
    ck_assert_int_eq(event_status(unpacked), CL_COMPLETE);
    clReleaseEvent(after);
    clReleaseEvent(unpacked);
    if (events) {
        clReleaseEvent(planted);
        clReleaseEvent(gate);
    }
    usmarr_queue_release(queue);
}

/* Plants, exchanges, and checks every cell of every field on every rank of comm (the
 * fields the device can make). */
static void check_planted_exchange(MPI_Comm comm, const usmarr_mpi_grid_options_t *go, int nfields,
                                   const struct field_spec *specs, unsigned flags, enum exchange_mode mode)
{
    if (comm == MPI_COMM_NULL)
        return;
    usmarr_context_t *ctx = test_context();
    struct field_spec offered[8];
    int noffered = 0;
    for (int f = 0; f < nfields; f++)
        if (storage_offered(ctx, &specs[f]))
            offered[noffered++] = specs[f];
    specs = offered;
    nfields = noffered;
    usmarr_mpi_grid_t *grid = NULL;
    ck_assert_ok_all(comm, usmarr_mpi_grid_create(comm, go, &grid));
    usmarr_storage_t *storages[8];
    struct oracle_domain domains[8];
    for (int f = 0; f < nfields; f++) {
        storages[f] = make_storage(ctx, grid, &specs[f]);
        domains[f] = domain_of(grid, &specs[f]);
        int64_t n = cells(&domains[f]);
        double *ijk = malloc(sizeof(double) * (size_t)n), *stored = malloc(sizeof(double) * (size_t)n);
        oracle_plant(&domains[f], SENTINEL, ijk);
        reorder(&domains[f], usmarr_storage_axes(storages[f]), usmarr_storage_shape(storages[f]), ijk, stored, true);
        test_storage_write(storages[f], stored, specs[f].plant_on_host);
        free(ijk);
        free(stored);
    }
    usmarr_mpi_exchange_t *x = NULL;
    if (mode == ONE_SHOT) {
        ck_assert_ok_all(comm, usmarr_mpi_halo_exchange(grid, nfields, storages, flags));
    } else if (mode == SCHEDULED_QUEUE || mode == SCHEDULED_EVENTS) {
        ck_assert_ok_all(comm, usmarr_mpi_exchange_create(grid, nfields, storages, flags, &x));
        scheduled_exchange(comm, ctx, x, mode == SCHEDULED_EVENTS);
    } else {
        ck_assert_ok_all(comm, usmarr_mpi_exchange_create(grid, nfields, storages, flags, &x));
        ck_assert_ok_all(comm, usmarr_mpi_exchange_start(x));
        if (mode == NONBLOCKING_PLAN) {
            /* Work on the field while the messages travel (the halo is written only by wait). */
            usmarr_array_t *side = NULL, *copy = NULL;
            ck_assert_ok(usmarr_storage_kind(storages[0]) == USMARR_STORAGE_HOST
                             ? usmarr_storage_host_array(storages[0], false, &side)
                             : usmarr_storage_device_array(storages[0], false, &side));
            ck_assert_ok(usmarr_array_copy(side, USMARR_ORDER_C, NULL, &copy));
            usmarr_array_release(copy);
        }
        ck_assert_ok_all(comm, usmarr_mpi_exchange_wait(x));
    }
    int64_t wrong = 0;
    char first[256] = "";
    for (int f = 0; f < nfields; f++) {
        int64_t n = cells(&domains[f]);
        double *expect = malloc(sizeof(double) * (size_t)n), *got = malloc(sizeof(double) * (size_t)n),
               *stored = malloc(sizeof(double) * (size_t)n);
        if (usmarr_storage_kind(storages[f]) == USMARR_STORAGE_MANAGED) {
            usmarr_sync_t state;
            usmarr_sync_t expect_state = specs[f].plant_on_host ? USMARR_SYNC_HOST_DIRTY : USMARR_SYNC_DEVICE_DIRTY;
            ck_assert_all_msg(comm,
                              !usmarr_sync_state_get(usmarr_storage_sync_state(storages[f]), &state) &&
                                  state == expect_state,
                              "field %d: sync state %d after the exchange, expected %d", f, (int)state,
                              (int)expect_state);
        }
        oracle_after_exchange(&domains[f], flags & USMARR_MPI_CORNERS, SENTINEL, expect);
        test_storage_read(storages[f], stored);
        reorder(&domains[f], usmarr_storage_axes(storages[f]), usmarr_storage_shape(storages[f]), stored, got, false);
        for (int64_t i = 0; i < n; i++)
            if (got[i] != expect[i] && wrong++ == 0)
                snprintf(first, sizeof first, "field %d (%s), I,J,K-flat cell %lld: %g, expected %g", f,
                         usmarr_dtype_name(specs[f].dtype), (long long)i, got[i], expect[i]);
        free(expect);
        free(got);
        free(stored);
    }
    ck_assert_all_msg(comm, wrong == 0, "%lld wrong cells, first: %s", (long long)wrong, first);
    /* A managed pair read through its host side afterwards sees the exchanged halo too. */
    for (int f = 0; f < nfields; f++) {
        if (usmarr_storage_kind(storages[f]) != USMARR_STORAGE_MANAGED || specs[f].plant_on_host)
            continue;
        int64_t n = cells(&domains[f]);
        double *expect = malloc(sizeof(double) * (size_t)n), *got = malloc(sizeof(double) * (size_t)n);
        usmarr_array_t *host = NULL, *converted = NULL;
        ck_assert_ok(usmarr_storage_host_array(storages[f], false, &host));
        ck_assert_ok(usmarr_array_astype(host, USMARR_FLOAT64, USMARR_ORDER_C, NULL, &converted));
        ck_assert_ok(usmarr_array_copy_to_host(converted, got, NULL));
        oracle_after_exchange(&domains[f], flags & USMARR_MPI_CORNERS, SENTINEL, expect);
        double *ijk = malloc(sizeof(double) * (size_t)n);
        reorder(&domains[f], usmarr_storage_axes(storages[f]), usmarr_storage_shape(storages[f]), got, ijk, false);
        ck_assert_all_msg(comm, !memcmp(ijk, expect, sizeof(double) * (size_t)n),
                          "field %d: the host side of the pair differs after the exchange", f);
        usmarr_array_release(converted);
        free(ijk);
        free(expect);
        free(got);
    }
    usmarr_mpi_exchange_release(x);
    for (int f = 0; f < nfields; f++)
        usmarr_storage_release(storages[f]);
    usmarr_mpi_grid_release(grid);
    usmarr_context_release(ctx);
}

static const struct field_spec f64 = {.dtype = USMARR_FLOAT64};

START_TEST(test_mpi_exchange_faces_periodic_everywhere)
{
    usmarr_mpi_grid_options_t go = grid_options(9, 8, 7, 1, true, true, true);
    check_planted_exchange(MPI_COMM_WORLD, &go, 1, &f64, USMARR_MPI_FACES, BLOCKING_PLAN);
}
END_TEST

START_TEST(test_mpi_exchange_corners_open_axes_halo_two)
{
    usmarr_mpi_grid_options_t go = grid_options(10, 9, 8, 2, false, false, false);
    struct field_spec f = {.dtype = USMARR_INT32};
    check_planted_exchange(MPI_COMM_WORLD, &go, 1, &f, USMARR_MPI_CORNERS, BLOCKING_PLAN);
}
END_TEST

/* Scheduled on a queue, with and without events: the same halos as the blocking plan,
 * open and periodic axes, corners, two dtypes. */
START_TEST(test_mpi_exchange_scheduled_on_a_queue_fills_the_same_halos)
{
    usmarr_mpi_grid_options_t go = grid_options(10, 9, 8, 2, true, false, true);
    struct field_spec f[2] = {{.dtype = USMARR_FLOAT64}, {.dtype = USMARR_INT16}};
    check_planted_exchange(MPI_COMM_WORLD, &go, 2, f, USMARR_MPI_CORNERS,
                           _i ? SCHEDULED_EVENTS : SCHEDULED_QUEUE);
}
END_TEST

/* Four dtypes in one exchange, asymmetric halos per storage, mixed periodicity. */
START_TEST(test_mpi_exchange_several_dtypes_and_asymmetric_halos_at_once)
{
    usmarr_mpi_grid_options_t go = grid_options(11, 9, 6, 1, true, false, true);
    struct field_spec f[4] = {
        {.dtype = USMARR_FLOAT64},
        {.dtype = USMARR_INT16, .own_halo = true, .halo = {{1, 2}, {2, 1}, {0, 1}}},
        {.dtype = USMARR_FLOAT32, .own_halo = true, .halo = {{0, 0}, {1, 1}, {1, 0}}},
        {.dtype = USMARR_INT64, .own_halo = true, .halo = {{2, 2}, {0, 0}, {1, 1}}},
    };
    check_planted_exchange(MPI_COMM_WORLD, &go, 4, f, USMARR_MPI_CORNERS, BLOCKING_PLAN);
    check_planted_exchange(MPI_COMM_WORLD, &go, 4, f, USMARR_MPI_FACES, ONE_SHOT);
}
END_TEST

START_TEST(test_mpi_exchange_axes_orders_layouts_and_alignment)
{
    usmarr_mpi_grid_options_t go = grid_options(8, 10, 9, 1, false, true, false);
    struct field_spec f[3] = {
        {.dtype = USMARR_FLOAT64, .axes = "KJI"},
        {.dtype = USMARR_FLOAT32, .layout = "KJI"},
        {.dtype = USMARR_INT32, .axes = "JKI", .layout = "JIK", .own_halo = true, .halo = {{1, 2}, {1, 1}, {2, 0}}},
    };
    check_planted_exchange(MPI_COMM_WORLD, &go, 3, f, USMARR_MPI_CORNERS, BLOCKING_PLAN);
}
END_TEST

/* Host, device, shared and managed storages (clean, device dirty and host dirty). */
START_TEST(test_mpi_exchange_every_storage_kind_keeps_its_sync_state)
{
    usmarr_mpi_grid_options_t go = grid_options(9, 9, 8, 1, true, false, true);
    struct field_spec f[5] = {
        {.dtype = USMARR_FLOAT64},
        {.dtype = USMARR_FLOAT64, .device = "gpu", .managed = "none"},
        {.dtype = USMARR_FLOAT64, .device = "gpu", .managed = "cuda"},
        {.dtype = USMARR_FLOAT64, .device = "gpu"},
        {.dtype = USMARR_FLOAT64, .device = "gpu", .plant_on_host = true},
    };
    check_planted_exchange(MPI_COMM_WORLD, &go, 5, f, USMARR_MPI_CORNERS, BLOCKING_PLAN);
    check_planted_exchange(MPI_COMM_WORLD, &go, 5, f, USMARR_MPI_FACES, NONBLOCKING_PLAN);
}
END_TEST

/* One rank periodic with itself, and two ranks whose both neighbours are one rank (each
 * its own test: a test runs at most one sub-communicator phase, so that a failure on the
 * ranks inside never leaves the others waiting in a later collective). */
START_TEST(test_mpi_exchange_one_and_two_ranks_wrap_onto_themselves)
{
    int n = _i + 1;
    MPI_Comm comm = test_comm_first(n);
    usmarr_mpi_grid_options_t go = grid_options(6, 5, 4, 1, true, true, true);
    go.dims[0] = n;
    go.dims[1] = go.dims[2] = 1;
    check_planted_exchange(comm, &go, 1, &f64, USMARR_MPI_CORNERS, NONBLOCKING_PLAN);
    go.periodic[1] = false;
    struct field_spec f = {.dtype = USMARR_INT32, .own_halo = true, .halo = {{2, 1}, {1, 1}, {1, 2}}};
    check_planted_exchange(comm, &go, 1, &f, USMARR_MPI_CORNERS, BLOCKING_PLAN);
    test_comm_free(&comm);
}
END_TEST

/* The whole world along a single axis. */
START_TEST(test_mpi_exchange_all_ranks_along_one_axis)
{
    usmarr_mpi_grid_options_t go = grid_options(3 * test_world_size + 1, 4, 3, 1, true, false, false);
    go.dims[0] = test_world_size;
    go.dims[1] = go.dims[2] = 1;
    check_planted_exchange(MPI_COMM_WORLD, &go, 1, &f64, USMARR_MPI_CORNERS, BLOCKING_PLAN);
}
END_TEST

/* One plan, exchanged again after the inner values change: on a host storage, and on a
 * managed pair planted through the host and the device side in turn (the exchange then
 * works on the side that was written: its copies are made again for that side). */
START_TEST(test_mpi_exchange_plan_is_reused_across_steps)
{
    usmarr_context_t *ctx = test_context();
    if (_i && !storage_offered(ctx, &(struct field_spec){.device = "gpu"})) {
        usmarr_context_release(ctx);
        return;
    }
    usmarr_mpi_grid_options_t go = grid_options(7, 6, 9, 1, true, true, false);
    usmarr_mpi_grid_t *grid = NULL;
    ck_assert_ok_all(MPI_COMM_WORLD, usmarr_mpi_grid_create(MPI_COMM_WORLD, &go, &grid));
    static const struct field_spec pair = {.dtype = USMARR_FLOAT64, .device = "gpu"};
    const struct field_spec *spec = _i ? &pair : &f64;
    usmarr_storage_t *s = make_storage(ctx, grid, spec);
    struct oracle_domain d = domain_of(grid, spec);
    int64_t n = cells(&d);
    double *planted = malloc(sizeof(double) * (size_t)n), *expect = malloc(sizeof(double) * (size_t)n),
           *got = malloc(sizeof(double) * (size_t)n);
    usmarr_mpi_exchange_t *x = NULL;
    ck_assert_ok_all(MPI_COMM_WORLD, usmarr_mpi_exchange_create(grid, 1, &s, USMARR_MPI_CORNERS, &x));
    for (int step = 0; step < 4; step++) {
        /* Step k plants value * (k + 1): the halo must follow. */
        oracle_plant(&d, SENTINEL, planted);
        oracle_after_exchange(&d, true, SENTINEL, expect);
        for (int64_t i = 0; i < n; i++) {
            planted[i] = planted[i] == SENTINEL ? SENTINEL : planted[i] * (step + 1);
            expect[i] = expect[i] == SENTINEL ? SENTINEL : expect[i] * (step + 1);
        }
        test_storage_write(s, planted, _i && step % 2);
        ck_assert_ok_all(MPI_COMM_WORLD, usmarr_mpi_exchange_start(x));
        ck_assert_ok_all(MPI_COMM_WORLD, usmarr_mpi_exchange_wait(x));
        test_storage_read(s, got);
        ck_assert_all_msg(MPI_COMM_WORLD, !memcmp(got, expect, sizeof(double) * (size_t)n), "step %d differs", step);
    }
    usmarr_mpi_exchange_release(x);
    free(planted);
    free(expect);
    free(got);
    usmarr_storage_release(s);
    usmarr_mpi_grid_release(grid);
    usmarr_context_release(ctx);
}
END_TEST

/* The bytes a rank sends, from the neighbours it has: face areas times the halo width. */
START_TEST(test_mpi_exchange_bytes_counts_the_faces_sent)
{
    usmarr_context_t *ctx = test_context();
    usmarr_mpi_grid_options_t go = grid_options(12, 6, 5, 2, false, true, false);
    go.dims[0] = test_world_size;
    go.dims[1] = go.dims[2] = 1;
    usmarr_mpi_grid_t *grid = NULL;
    ck_assert_ok_all(MPI_COMM_WORLD, usmarr_mpi_grid_create(MPI_COMM_WORLD, &go, &grid));
    usmarr_storage_t *s = make_storage(ctx, grid, &f64);
    usmarr_mpi_exchange_t *x = NULL;
    ck_assert_ok_all(MPI_COMM_WORLD, usmarr_mpi_exchange_create(grid, 1, &s, USMARR_MPI_FACES, &x));
    const int64_t *n = usmarr_mpi_grid_local_shape(grid);
    int64_t i_neighbors = (test_world_rank > 0) + (test_world_rank < test_world_size - 1);
    int64_t expect = 8 * 2 * (i_neighbors * n[1] * n[2] + 2 * n[0] * n[2]); /* J is periodic, K open with 1 rank */
    ck_assert_int_eq(usmarr_mpi_exchange_bytes(x), expect);
    ck_assert_int_eq(usmarr_mpi_exchange_bytes(NULL), 0);
    usmarr_mpi_exchange_release(x);
    usmarr_mpi_exchange_release(NULL);
    usmarr_storage_release(s);
    usmarr_mpi_grid_release(grid);
    usmarr_context_release(ctx);
}
END_TEST

/* Halo widths or dtypes that differ between ranks, a halo wider than the narrowest block,
 * one rank's storage of another domain, counts and flags: every rank fails alike. */
START_TEST(test_mpi_exchange_mismatches_fail_on_every_rank)
{
    usmarr_context_t *ctx = test_context();
    usmarr_mpi_grid_options_t go = grid_options(4 * test_world_size + 3, 8, 6, 1, true, false, false);
    go.dims[0] = test_world_size;
    go.dims[1] = go.dims[2] = 1;
    usmarr_mpi_grid_t *grid = NULL;
    ck_assert_ok_all(MPI_COMM_WORLD, usmarr_mpi_grid_create(MPI_COMM_WORLD, &go, &grid));
    usmarr_mpi_exchange_t *x = NULL;
    bool last = test_world_rank == test_world_size - 1;
    char needle[128];
    if (test_world_size > 1) {
        struct field_spec wide = {.dtype = USMARR_FLOAT64, .own_halo = true, .halo = {{1, 1}, {last ? 2 : 1, 1}, {1, 1}}};
        usmarr_storage_t *s = make_storage(ctx, grid, &wide);
        ck_assert_fails_all(MPI_COMM_WORLD, usmarr_mpi_exchange_create(grid, 1, &s, USMARR_MPI_FACES, &x),
                            USMARR_ERROR_MPI, "storages[0] lower halo width on axis J differs between ranks (1 to 2)");
        usmarr_storage_release(s);
        struct field_spec typed = {.dtype = last ? USMARR_FLOAT32 : USMARR_FLOAT64};
        s = make_storage(ctx, grid, &typed);
        ck_assert_fails_all(MPI_COMM_WORLD, usmarr_mpi_exchange_create(grid, 1, &s, USMARR_MPI_CORNERS, &x),
                            USMARR_ERROR_MPI, "storages[0] dtype differs between ranks (float32 to float64)");
        usmarr_storage_release(s);
        struct field_spec laid = {.dtype = USMARR_FLOAT64, .layout = last ? "KJI" : "IJK"};
        s = make_storage(ctx, grid, &laid);
        ck_assert_fails_all(MPI_COMM_WORLD, usmarr_mpi_exchange_create(grid, 1, &s, USMARR_MPI_FACES, &x),
                            USMARR_ERROR_MPI, "storages[0] layout differs between ranks");
        usmarr_storage_t *pair[2] = {s, s};
        ck_assert_fails_all(MPI_COMM_WORLD, usmarr_mpi_exchange_create(grid, last ? 2 : 1, pair, 0, &x),
                            USMARR_ERROR_MPI, "count differs between ranks (1 to 2)");
        usmarr_storage_release(s);
    }
    /* A halo one wider than the narrowest block along I (the last one). */
    int64_t last_start[3], last_shape[3];
    ck_assert_ok(usmarr_mpi_grid_block(grid, test_world_size - 1, last_start, last_shape));
    struct field_spec too_wide = {.dtype = USMARR_FLOAT64, .own_halo = true,
                                  .halo = {{last_shape[0] + 1, 1}, {1, 1}, {1, 1}}};
    usmarr_storage_t *s = make_storage(ctx, grid, &too_wide);
    snprintf(needle, sizeof needle, "lower halo=%lld on axis I is wider than the narrowest block (%lld points)",
             (long long)last_shape[0] + 1, (long long)last_shape[0]);
    ck_assert_fails_all(MPI_COMM_WORLD, usmarr_mpi_exchange_create(grid, 1, &s, USMARR_MPI_FACES, &x),
                        USMARR_ERROR_SHAPE_MISMATCH, needle);
    usmarr_storage_release(s);
    /* One rank hands in a storage of another grid's block. */
    usmarr_mpi_grid_options_t other = go;
    other.shape[1] = 9;
    usmarr_mpi_grid_t *grid2 = NULL;
    ck_assert_ok_all(MPI_COMM_WORLD, usmarr_mpi_grid_create(MPI_COMM_WORLD, &other, &grid2));
    s = make_storage(ctx, last ? grid2 : grid, &f64);
    snprintf(needle, sizeof needle, "rank %d: storages[0]: domain", test_world_size - 1);
    ck_assert_fails_all(MPI_COMM_WORLD, usmarr_mpi_exchange_create(grid, 1, &s, USMARR_MPI_FACES, &x),
                        USMARR_ERROR_SHAPE_MISMATCH, needle);
    usmarr_storage_release(s);
    usmarr_mpi_grid_release(grid2);
    s = make_storage(ctx, grid, &f64);
    ck_assert_fails_all(MPI_COMM_WORLD, usmarr_mpi_exchange_create(grid, 1, &s, 4, &x), USMARR_ERROR_INVALID_ARGUMENT,
                        "flags=0x4");
    ck_assert_fails_all(MPI_COMM_WORLD, usmarr_mpi_exchange_create(grid, 0, &s, 0, &x), USMARR_ERROR_INVALID_ARGUMENT,
                        "count=0");
    ck_assert_fails_all(MPI_COMM_WORLD, usmarr_mpi_exchange_create(grid, 1, NULL, 0, &x),
                        USMARR_ERROR_INVALID_ARGUMENT, "storages is NULL");
    ck_assert_fails_all(MPI_COMM_WORLD, usmarr_mpi_exchange_create(grid, 1, &s, 0, NULL),
                        USMARR_ERROR_INVALID_ARGUMENT, "exchange is NULL");
    ck_assert_fails_all(MPI_COMM_WORLD, usmarr_mpi_halo_exchange(grid, 1, &s, 8), USMARR_ERROR_INVALID_ARGUMENT,
                        "flags=0x8");
    ck_assert_fails_with(usmarr_mpi_exchange_create(NULL, 1, &s, 0, &x), USMARR_ERROR_INVALID_ARGUMENT, "grid");
    ck_assert_ptr_null(x);
    /* A plane storage ("IJ") and storages of two contexts. */
    usmarr_storage_options_t plane = test_storage_options(ctx, USMARR_FLOAT64);
    plane.axes = "IJ";
    plane.nshape = 2;
    plane.shape[0] = plane.shape[1] = 4;
    usmarr_storage_t *flat = NULL;
    ck_assert_ok(usmarr_storage_zeros(&plane, &flat));
    usmarr_storage_t *mixed[2] = {s, flat};
    ck_assert_fails_all(MPI_COMM_WORLD, usmarr_mpi_exchange_create(grid, 2, mixed, 0, &x),
                        USMARR_ERROR_INVALID_ARGUMENT, "storages[1] has axes \"IJ\"");
    usmarr_storage_release(flat);
    usmarr_context_t *ctx2 = test_context();
    mixed[1] = make_storage(ctx2, grid, &f64);
    ck_assert_fails_all(MPI_COMM_WORLD, usmarr_mpi_exchange_create(grid, 2, mixed, 0, &x),
                        USMARR_ERROR_CONTEXT_MISMATCH, "storages[1]");
    usmarr_storage_release(mixed[1]);
    usmarr_context_release(ctx2);
    usmarr_storage_release(s);
    usmarr_mpi_grid_release(grid);
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_mpi_exchange_start_and_wait_check_their_state)
{
    usmarr_context_t *ctx = test_context();
    usmarr_mpi_grid_options_t go = grid_options(8, 8, 8, 1, true, true, true);
    usmarr_mpi_grid_t *grid = NULL;
    ck_assert_ok_all(MPI_COMM_WORLD, usmarr_mpi_grid_create(MPI_COMM_WORLD, &go, &grid));
    usmarr_storage_t *s = make_storage(ctx, grid, &f64);
    usmarr_mpi_exchange_t *x = NULL;
    ck_assert_ok_all(MPI_COMM_WORLD, usmarr_mpi_exchange_create(grid, 1, &s, 0, &x));
    ck_assert_fails_with(usmarr_mpi_exchange_wait(x), USMARR_ERROR_BAD_STATE, "not started");
    ck_assert_ok_all(MPI_COMM_WORLD, usmarr_mpi_exchange_start(x));
    ck_assert_fails_with(usmarr_mpi_exchange_start(x), USMARR_ERROR_BAD_STATE, "already started");
    ck_assert_ok_all(MPI_COMM_WORLD, usmarr_mpi_exchange_wait(x));
    ck_assert_fails_with(usmarr_mpi_exchange_start(NULL), USMARR_ERROR_INVALID_ARGUMENT, "exchange");
    ck_assert_fails_with(usmarr_mpi_exchange_wait(NULL), USMARR_ERROR_INVALID_ARGUMENT, "exchange");
    /* The scheduled calls check their queue and events before anything moves. */
    usmarr_queue_t *queue = usmarr_queue_current(ctx), *foreign = NULL;
    usmarr_context_t *ctx2 = test_context();
    ck_assert_ok(usmarr_queue_create(ctx2, 0, &foreign));
    cl_event unpacked = (cl_event)1;
    ck_assert_fails_with(usmarr_mpi_exchange_start_on(NULL, queue, 0, NULL), USMARR_ERROR_INVALID_ARGUMENT,
                         "exchange");
    ck_assert_fails_with(usmarr_mpi_exchange_start_on(x, NULL, 0, NULL), USMARR_ERROR_INVALID_ARGUMENT, "queue");
    ck_assert_fails_with(usmarr_mpi_exchange_start_on(x, queue, 2, NULL), USMARR_ERROR_INVALID_ARGUMENT,
                         "nevents=2");
    ck_assert_fails_with(usmarr_mpi_exchange_start_on(x, foreign, 0, NULL), USMARR_ERROR_CONTEXT_MISMATCH,
                         "another context");
    ck_assert_fails_with(usmarr_mpi_exchange_wait_on(x, queue, &unpacked), USMARR_ERROR_BAD_STATE, "not started");
    ck_assert_ptr_null(unpacked);
    ck_assert_fails_with(usmarr_mpi_exchange_wait_on(NULL, queue, NULL), USMARR_ERROR_INVALID_ARGUMENT,
                         "exchange");
    ck_assert_ok_all(MPI_COMM_WORLD, usmarr_mpi_exchange_start_on(x, queue, 0, NULL));
    ck_assert_fails_with(usmarr_mpi_exchange_start_on(x, queue, 0, NULL), USMARR_ERROR_BAD_STATE,
                         "already started");
    ck_assert_fails_with(usmarr_mpi_exchange_wait_on(x, NULL, NULL), USMARR_ERROR_INVALID_ARGUMENT, "queue");
    ck_assert_fails_with(usmarr_mpi_exchange_wait_on(x, foreign, NULL), USMARR_ERROR_CONTEXT_MISMATCH,
                         "another context");
    ck_assert_ok_all(MPI_COMM_WORLD, usmarr_mpi_exchange_wait_on(x, queue, NULL));
    ck_assert_ok(usmarr_queue_finish(queue));
    usmarr_queue_release(foreign);
    usmarr_context_release(ctx2);
    /* A halo changed under the plan is caught before anything is sent. */
    int64_t halo[3][2] = {{1, 1}, {1, 1}, {0, 1}};
    ck_assert_ok(usmarr_storage_set_halo(s, 3, halo));
    ck_assert_fails_with(usmarr_mpi_exchange_start(x), USMARR_ERROR_BAD_STATE, "halo changed");
    /* Released while started: the messages are still waited for. */
    int64_t back[3][2] = {{1, 1}, {1, 1}, {1, 1}};
    ck_assert_ok(usmarr_storage_set_halo(s, 3, back));
    ck_assert_ok_all(MPI_COMM_WORLD, usmarr_mpi_exchange_start(x));
    usmarr_mpi_exchange_release(x);
    usmarr_storage_release(s);
    usmarr_mpi_grid_release(grid);
    usmarr_context_release(ctx);
}
END_TEST

/* Every rank makes the same plan at once with a private, empty kernel cache: one rank
 * compiles the copy kernel while the others wait for the disk cache's compile lock.  The
 * compiling rank must not keep the lock past its call: it goes on into the plan's
 * collective agreement, where it would wait for ranks that wait for its lock (a stall of
 * the lock's whole 120 s wait on each, then a compile on each).  So every create returns
 * within seconds, and each program is compiled and stored by one rank only (a plan's
 * programs are stored when built, their launch coming after the call). */
START_TEST(test_mpi_exchange_plans_made_together_on_a_cold_cache_compile_once)
{
    char dir[PATH_MAX] = "";
    if (test_world_rank == 0 && !test_temp_dir(dir, sizeof dir, "usmarr-mpi-cache"))
        dir[0] = '\0';
    MPI_Bcast(dir, sizeof dir, MPI_CHAR, 0, MPI_COMM_WORLD);
    ck_assert_all(MPI_COMM_WORLD, dir[0] != '\0');
    usmarr_cache_stats_t before, after;
    ck_assert_ok(usmarr_cache_get_stats(&before));
    usmarr_cache_mode_t mode = before.mode;
    ck_assert_ok(usmarr_cache_set_directory(dir));
    ck_assert_ok(usmarr_cache_set_mode(USMARR_CACHE_ON));
    usmarr_context_t *ctx = test_context(); /* a new context: its programs come from the disk cache */
    usmarr_mpi_grid_options_t go = grid_options(8, 8, 8, 1, true, true, true);
    usmarr_mpi_grid_t *grid = NULL;
    ck_assert_ok_all(MPI_COMM_WORLD, usmarr_mpi_grid_create(MPI_COMM_WORLD, &go, &grid));
    usmarr_storage_t *s = make_storage(ctx, grid, &f64);
    ck_assert_ok(usmarr_cache_get_stats(&before));
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    usmarr_mpi_exchange_t *x = NULL;
    ck_assert_ok_all(MPI_COMM_WORLD, usmarr_mpi_exchange_create(grid, 1, &s, USMARR_MPI_FACES, &x));
    double took = MPI_Wtime() - t0;
    ck_assert_all_msg(MPI_COMM_WORLD, took < 60, "usmarr_mpi_exchange_create took %.1f s", took);
    ck_assert_ok_all(MPI_COMM_WORLD, usmarr_mpi_exchange_start(x));
    ck_assert_ok_all(MPI_COMM_WORLD, usmarr_mpi_exchange_wait(x));
    ck_assert_ok(usmarr_cache_get_stats(&after));
    long long stores = (long long)(after.stores - before.stores), all_stores = 0;
    MPI_Allreduce(&stores, &all_stores, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    ck_assert_all_msg(MPI_COMM_WORLD, all_stores == 1, "the copy program was stored %lld times by the ranks",
                      all_stores);
    usmarr_mpi_exchange_release(x);
    usmarr_storage_release(s);
    usmarr_mpi_grid_release(grid);
    usmarr_context_release(ctx);
    MPI_Barrier(MPI_COMM_WORLD);
    if (test_world_rank == 0) {
        ck_assert_ok(usmarr_cache_clear(NULL));
        ck_assert_int_eq(rmdir(dir), 0);
    }
    ck_assert_ok(usmarr_cache_set_directory(NULL));
    ck_assert_ok(usmarr_cache_set_mode(mode));
}
END_TEST

Suite *suite_mpi_exchange(void)
{
    Suite *s = suite_create("mpi_exchange");
    TCase *tc = tcase_create("exchange");
    tcase_add_test(tc, test_mpi_exchange_faces_periodic_everywhere);
    tcase_add_test(tc, test_mpi_exchange_corners_open_axes_halo_two);
    tcase_add_loop_test(tc, test_mpi_exchange_scheduled_on_a_queue_fills_the_same_halos, 0, 2);
    tcase_add_test(tc, test_mpi_exchange_several_dtypes_and_asymmetric_halos_at_once);
    tcase_add_test(tc, test_mpi_exchange_axes_orders_layouts_and_alignment);
    tcase_add_test(tc, test_mpi_exchange_every_storage_kind_keeps_its_sync_state);
    tcase_add_loop_test(tc, test_mpi_exchange_one_and_two_ranks_wrap_onto_themselves, 0, 2);
    tcase_add_test(tc, test_mpi_exchange_all_ranks_along_one_axis);
    tcase_add_loop_test(tc, test_mpi_exchange_plan_is_reused_across_steps, 0, 2);
    tcase_add_test(tc, test_mpi_exchange_bytes_counts_the_faces_sent);
    tcase_add_test(tc, test_mpi_exchange_mismatches_fail_on_every_rank);
    tcase_add_test(tc, test_mpi_exchange_start_and_wait_check_their_state);
    tcase_add_test(tc, test_mpi_exchange_plans_made_together_on_a_cold_cache_compile_once);
    suite_add_tcase(s, tc);
    return s;
}
