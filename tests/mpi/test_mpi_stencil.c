/* The oracle of the distributed layer: a 7-point heat diffusion and a 27-point box
 * stencil iterated on 1, 2, 4 (and, in the 8-rank run, 8) ranks, periodic and open axes,
 * gathered and compared bitwise with the same stencil run by a host loop on one process. */
#include "mpi_common.h"
#include "mpi_oracle.h"

#include <stdio.h>
#include <stdlib.h>

#define ALPHA 0.1

struct stencil_case {
    enum oracle_stencil stencil;
    bool periodic[3];
    const char *device; /* NULL: host storages; "gpu": managed pairs */
    bool overlap;       /* start the exchange, compute the core, wait, compute the shell */
};

/* A view of `a` over the box [begin, begin+extent), each axis shifted by `shift`. */
static usmarr_array_t *box(const usmarr_array_t *a, const int64_t begin[3], const int64_t extent[3], int si, int sj,
                           int sk)
{
    int shift[3] = {si, sj, sk};
    usmarr_index_item_t items[3];
    for (int d = 0; d < 3; d++) {
        int64_t start = begin[d] + shift[d], stop = start + extent[d];
        items[d] = usmarr_index_slice(&start, &stop, NULL);
    }
    usmarr_array_t *view = NULL;
    ck_assert_ok(usmarr_array_index(a, items, 3, &view));
    return view;
}

static void binary(const char *name, const usmarr_array_t *x, const usmarr_array_t *y, usmarr_array_t *out)
{
    usmarr_operand_t ops[2] = {{.array = x}, {.array = y}};
    ck_assert_ok(usmarr_elementwise(name, ops, 2, out, NULL));
}

static void scaled(const char *name, const usmarr_array_t *x, double value, usmarr_array_t *out)
{
    usmarr_operand_t ops[2] = {{.array = x}, {.scalar = usmarr_scalar_float(value)}};
    ck_assert_ok(usmarr_elementwise(name, ops, 2, out, NULL));
}

/* next = stencil(cur) over the box of output points (halo-inclusive coordinates), with
 * the operations in oracle_stencil_run()'s order. */
static void apply_box(enum oracle_stencil stencil, usmarr_array_t *cur, usmarr_array_t *next, const int64_t begin[3],
                      const int64_t extent[3])
{
    if (extent[0] * extent[1] * extent[2] == 0)
        return;
    usmarr_context_t *ctx = usmarr_array_context(cur);
    usmarr_array_t *t = NULL, *out = box(next, begin, extent, 0, 0, 0), *c = box(cur, begin, extent, 0, 0, 0);
    ck_assert_ok(usmarr_array_empty(ctx, 3, extent, USMARR_FLOAT64, USMARR_ORDER_C, USMARR_USM_DEVICE, &t));
    if (stencil == ORACLE_HEAT7) {
        static const int offsets[6][3] = {{-1, 0, 0}, {1, 0, 0}, {0, -1, 0}, {0, 1, 0}, {0, 0, -1}, {0, 0, 1}};
        usmarr_array_t *w = box(cur, begin, extent, -1, 0, 0), *e = box(cur, begin, extent, 1, 0, 0);
        binary("add", w, e, t);
        usmarr_array_release(w);
        usmarr_array_release(e);
        for (int n = 2; n < 6; n++) {
            usmarr_array_t *v = box(cur, begin, extent, offsets[n][0], offsets[n][1], offsets[n][2]);
            binary("add", t, v, t);
            usmarr_array_release(v);
        }
        usmarr_array_t *six = NULL;
        ck_assert_ok(usmarr_array_empty(ctx, 3, extent, USMARR_FLOAT64, USMARR_ORDER_C, USMARR_USM_DEVICE, &six));
        scaled("multiply", c, 6.0, six);
        binary("subtract", t, six, t);
        scaled("multiply", t, ALPHA, t);
        binary("add", c, t, out);
        usmarr_array_release(six);
    } else {
        int n = 0;
        usmarr_array_t *first = NULL;
        for (int di = -1; di <= 1; di++)
            for (int dj = -1; dj <= 1; dj++)
                for (int dk = -1; dk <= 1; dk++, n++) {
                    usmarr_array_t *v = box(cur, begin, extent, di, dj, dk);
                    if (n == 0)
                        first = usmarr_array_retain(v);
                    else
                        binary("add", n == 1 ? first : t, v, t);
                    usmarr_array_release(v);
                }
        usmarr_array_release(first);
        scaled("multiply", t, 1.0 / 27.0, out);
    }
    usmarr_array_release(t);
    usmarr_array_release(c);
    usmarr_array_release(out);
}

/* The inner domain (1..n per axis) minus its core (2..n-1): at most six slabs. */
static void apply_shell(enum oracle_stencil stencil, usmarr_array_t *cur, usmarr_array_t *next, const int64_t n[3])
{
    int64_t lo[3] = {1, 1, 1}, hi[3] = {n[0] + 1, n[1] + 1, n[2] + 1}; /* the part not yet covered */
    for (int a = 0; a < 3; a++) {
        for (int side = 0; side < 2 && lo[a] < hi[a]; side++) {
            int64_t begin[3], extent[3];
            for (int d = 0; d < 3; d++) {
                begin[d] = lo[d];
                extent[d] = hi[d] - lo[d];
            }
            begin[a] = side ? hi[a] - 1 : lo[a];
            extent[a] = 1;
            apply_box(stencil, cur, next, begin, extent);
            if (side)
                hi[a]--;
            else
                lo[a]++;
        }
    }
}

static void run_case(MPI_Comm comm, usmarr_context_t *ctx, const struct stencil_case *c, const int64_t shape[3],
                     int steps)
{
    usmarr_mpi_grid_options_t go = USMARR_MPI_GRID_OPTIONS_INIT;
    for (int a = 0; a < 3; a++) {
        go.shape[a] = shape[a];
        go.periodic[a] = c->periodic[a];
        go.halo[a] = 1;
    }
    usmarr_mpi_grid_t *grid = NULL;
    ck_assert_ok_all(comm, usmarr_mpi_grid_create(comm, &go, &grid));
    int rank = usmarr_mpi_grid_rank(grid);
    int64_t count = shape[0] * shape[1] * shape[2];
    int64_t m[3] = {shape[0] + 2, shape[1] + 2, shape[2] + 2};
    double *initial = malloc(sizeof(double) * (size_t)count);
    oracle_initial(shape, initial);
    usmarr_array_t *global = NULL;
    if (rank == 0)
        ck_assert_ok(usmarr_array_from_host(ctx, 3, shape, USMARR_FLOAT64, initial, NULL, USMARR_USM_HOST, &global));
    usmarr_storage_options_t so = test_storage_options(ctx, USMARR_FLOAT64);
    so.device = c->device;
    usmarr_storage_t *fields[2] = {NULL, NULL};
    usmarr_mpi_exchange_t *plans[2] = {NULL, NULL};
    unsigned flags = c->stencil == ORACLE_BOX27 ? USMARR_MPI_CORNERS : USMARR_MPI_FACES;
    for (int f = 0; f < 2; f++) {
        ck_assert_ok(usmarr_mpi_grid_storage(grid, &so, &fields[f]));
        ck_assert_ok_all(comm, usmarr_mpi_exchange_create(grid, 1, &fields[f], flags, &plans[f]));
    }
    ck_assert_ok_all(comm, usmarr_mpi_scatter(grid, 0, global, fields[0]));
    const int64_t *n = usmarr_mpi_grid_local_shape(grid);
    for (int step = 0; step < steps; step++) {
        int from = step % 2;
        usmarr_array_t *cur = NULL, *next = NULL;
        bool host = c->device == NULL;
        ck_assert_ok_all(comm, usmarr_mpi_exchange_start(plans[from]));
        ck_assert_ok(host ? usmarr_storage_host_array(fields[from], false, &cur)
                          : usmarr_storage_device_array(fields[from], false, &cur));
        ck_assert_ok(host ? usmarr_storage_host_array(fields[1 - from], true, &next)
                          : usmarr_storage_device_array(fields[1 - from], true, &next));
        if (c->overlap) {
            int64_t core_begin[3] = {2, 2, 2}, core[3];
            for (int a = 0; a < 3; a++)
                core[a] = n[a] > 2 ? n[a] - 2 : 0;
            apply_box(c->stencil, cur, next, core_begin, core);
            ck_assert_ok_all(comm, usmarr_mpi_exchange_wait(plans[from]));
            apply_shell(c->stencil, cur, next, n);
        } else {
            ck_assert_ok_all(comm, usmarr_mpi_exchange_wait(plans[from]));
            int64_t all_begin[3] = {1, 1, 1};
            apply_box(c->stencil, cur, next, all_begin, n);
        }
    }
    usmarr_array_t *result = NULL;
    if (rank == 0)
        ck_assert_ok(usmarr_array_zeros(ctx, 3, shape, USMARR_FLOAT64, USMARR_ORDER_C, USMARR_USM_HOST, &result));
    ck_assert_ok_all(comm, usmarr_mpi_gather(grid, 0, fields[steps % 2], result));
    bool same = true;
    if (rank == 0) {
        double *u = calloc((size_t)(m[0] * m[1] * m[2]), sizeof(double)), *got = malloc(sizeof(double) * (size_t)count);
        for (int64_t i = 0; i < shape[0]; i++)
            for (int64_t j = 0; j < shape[1]; j++)
                memcpy(&u[((i + 1) * m[1] + j + 1) * m[2] + 1], &initial[(i * shape[1] + j) * shape[2]],
                       sizeof(double) * (size_t)shape[2]);
        oracle_stencil_run(c->stencil, shape, c->periodic, steps, ALPHA, u);
        ck_assert_ok(usmarr_array_copy_to_host(result, got, NULL));
        for (int64_t i = 0; same && i < shape[0]; i++)
            for (int64_t j = 0; same && j < shape[1]; j++)
                same = !memcmp(&u[((i + 1) * m[1] + j + 1) * m[2] + 1], &got[(i * shape[1] + j) * shape[2]],
                               sizeof(double) * (size_t)shape[2]);
        free(u);
        free(got);
    }
    ck_assert_all_msg(comm, same, "%s on %d ranks, periodic (%d,%d,%d)%s: the gathered field differs from the "
                                  "single-process one",
                      c->stencil == ORACLE_HEAT7 ? "heat" : "box27", usmarr_mpi_grid_size(grid), c->periodic[0],
                      c->periodic[1], c->periodic[2], c->overlap ? ", overlapped" : "");
    for (int f = 0; f < 2; f++) {
        usmarr_mpi_exchange_release(plans[f]);
        usmarr_storage_release(fields[f]);
    }
    usmarr_array_release(result);
    usmarr_array_release(global);
    free(initial);
    usmarr_mpi_grid_release(grid);
}

/* Runs `c` on the rank count of loop iteration i: 1, 2 and 4 ranks, or only the count
 * the runner was started for (8).  One sub-communicator per test: a failure inside it
 * never leaves the other ranks waiting in a later collective. */
static void run_on_rank_count(const struct stencil_case *c, int i)
{
    static const int64_t shape[3] = {10, 9, 7};
    static const int counts[3] = {1, 2, 4};
    if (test_only_ranks && i > 0)
        return;
    MPI_Comm comm = test_comm_first(test_only_ranks ? test_only_ranks : counts[i]);
    if (comm != MPI_COMM_NULL) {
        usmarr_context_t *ctx = test_context();
        run_case(comm, ctx, c, shape, 4);
        usmarr_context_release(ctx);
    }
    test_comm_free(&comm);
}

START_TEST(test_mpi_stencil_heat_periodic)
{
    struct stencil_case c = {ORACLE_HEAT7, {true, true, true}, "gpu", false};
    run_on_rank_count(&c, _i);
}
END_TEST

START_TEST(test_mpi_stencil_heat_open_axes_on_host_storages)
{
    struct stencil_case c = {ORACLE_HEAT7, {false, false, false}, NULL, false};
    run_on_rank_count(&c, _i);
}
END_TEST

START_TEST(test_mpi_stencil_heat_overlapped_with_the_exchange)
{
    struct stencil_case c = {ORACLE_HEAT7, {false, true, false}, "gpu", true};
    run_on_rank_count(&c, _i);
}
END_TEST

START_TEST(test_mpi_stencil_box27_mixed_periodicity)
{
    struct stencil_case c = {ORACLE_BOX27, {true, false, true}, "gpu", false};
    run_on_rank_count(&c, _i);
}
END_TEST

START_TEST(test_mpi_stencil_box27_open_axes)
{
    struct stencil_case c = {ORACLE_BOX27, {false, false, false}, "gpu", false};
    run_on_rank_count(&c, _i);
}
END_TEST

START_TEST(test_mpi_stencil_box27_periodic_overlapped_on_host_storages)
{
    struct stencil_case c = {ORACLE_BOX27, {true, true, true}, NULL, true};
    run_on_rank_count(&c, _i);
}
END_TEST

Suite *suite_mpi_stencil(void)
{
    Suite *s = suite_create("mpi_stencil");
    TCase *tc = tcase_create("stencil");
    tcase_add_loop_test(tc, test_mpi_stencil_heat_periodic, 0, 3);
    tcase_add_loop_test(tc, test_mpi_stencil_heat_open_axes_on_host_storages, 0, 3);
    tcase_add_loop_test(tc, test_mpi_stencil_heat_overlapped_with_the_exchange, 0, 3);
    tcase_add_loop_test(tc, test_mpi_stencil_box27_mixed_periodicity, 0, 3);
    tcase_add_loop_test(tc, test_mpi_stencil_box27_open_axes, 0, 3);
    tcase_add_loop_test(tc, test_mpi_stencil_box27_periodic_overlapped_on_host_storages, 0, 3);
    suite_add_tcase(s, tc);
    return s;
}
