/* doc/mpi.md's example: heat diffusion on a periodic 48^3 domain split over the
 * MPI ranks, each step exchanging halos while the core of the domain is computed.
 *
 *     mpicc heat_mpi.c $(pkg-config --cflags --libs usmarr-mpi) -o heat_mpi
 *     mpirun -np 4 ./heat_mpi
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <usmarr_mpi.h>

#define N 48
#define STEPS 20
#define ALPHA 0.1

static int rank;

#define CHECK(call)                                                                                \
    do {                                                                                           \
        int rc_ = (call);                                                                          \
        if (rc_) {                                                                                 \
            fprintf(stderr, "rank %d: %s: %s: %s\n", rank, #call, usmarr_error_name(rc_),          \
                    usmarr_last_error_detail());                                                   \
            MPI_Abort(MPI_COMM_WORLD, 1);                                                          \
        }                                                                                          \
    } while (0)

/* A view of `a` over the box [begin, begin+extent) shifted by (di, dj, dk). */
static usmarr_array_t *view(const usmarr_array_t *a, const int64_t *begin, const int64_t *extent, int di, int dj,
                            int dk)
{
    int shift[3] = {di, dj, dk};
    usmarr_index_item_t items[3];
    for (int d = 0; d < 3; d++) {
        int64_t start = begin[d] + shift[d], stop = start + extent[d];
        items[d] = usmarr_index_slice(&start, &stop, NULL);
    }
    usmarr_array_t *v = NULL;
    CHECK(usmarr_array_index(a, items, 3, &v));
    return v;
}

static void apply(const char *name, const usmarr_array_t *x, const usmarr_array_t *y, double scalar,
                  usmarr_array_t *out)
{
    usmarr_operand_t ops[2] = {{.array = x}, {.array = y}};
    if (!y)
        ops[1] = (usmarr_operand_t){.scalar = usmarr_scalar_float(scalar)};
    CHECK(usmarr_elementwise(name, ops, 2, out, NULL));
}

/* next = (1 - 6 ALPHA) u + ALPHA * (sum of the six neighbours) on a box of inner points. */
static void heat(usmarr_array_t *u, usmarr_array_t *next, const int64_t *begin, const int64_t *extent)
{
    static const int nb[6][3] = {{-1, 0, 0}, {1, 0, 0}, {0, -1, 0}, {0, 1, 0}, {0, 0, -1}, {0, 0, 1}};
    if (extent[0] * extent[1] * extent[2] == 0)
        return;
    usmarr_array_t *c = view(u, begin, extent, 0, 0, 0), *out = view(next, begin, extent, 0, 0, 0), *t = NULL;
    CHECK(usmarr_array_zeros_like(c, -1, USMARR_ORDER_C, USMARR_USM_DEVICE, &t));
    for (int k = 0; k < 6; k++) {
        usmarr_array_t *v = view(u, begin, extent, nb[k][0], nb[k][1], nb[k][2]);
        apply("add", t, v, 0, t);
        usmarr_array_release(v);
    }
    apply("multiply", t, NULL, ALPHA, t);
    apply("multiply", c, NULL, 1.0 - 6.0 * ALPHA, out);
    apply("add", out, t, 0, out);
    usmarr_array_release(t);
    usmarr_array_release(out);
    usmarr_array_release(c);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    usmarr_context_t *ctx = NULL;
    CHECK(usmarr_context_create(NULL, &ctx)); /* USMARR_DEVICE=opencl:gpu:0 picks another */

    /* The global domain, split by MPI_Dims_create over the ranks, periodic, halo 1. */
    usmarr_mpi_grid_options_t go = USMARR_MPI_GRID_OPTIONS_INIT;
    for (int a = 0; a < 3; a++) {
        go.shape[a] = N;
        go.periodic[a] = true;
        go.halo[a] = 1;
    }
    usmarr_mpi_grid_t *grid = NULL;
    CHECK(usmarr_mpi_grid_create(MPI_COMM_WORLD, &go, &grid));

    /* Two device storages of this rank's block plus halo, and a plan for each. */
    usmarr_storage_options_t so = USMARR_STORAGE_OPTIONS_INIT;
    so.context = ctx;
    so.dtype = USMARR_FLOAT64;
    so.device = "gpu";
    so.managed = "none";
    usmarr_storage_t *field[2];
    usmarr_mpi_exchange_t *plan[2];
    for (int f = 0; f < 2; f++) {
        CHECK(usmarr_mpi_grid_storage(grid, &so, &field[f]));
        CHECK(usmarr_mpi_exchange_create(grid, 1, &field[f], USMARR_MPI_FACES, &plan[f]));
    }

    /* Rank 0 holds the initial field (a hot cube) and scatters it. */
    int64_t shape[3] = {N, N, N};
    usmarr_array_t *global = NULL;
    double total_before = 0;
    if (rank == 0) {
        double *host = calloc(N * N * N, sizeof *host);
        for (int i = 8; i < 16; i++)
            for (int j = 8; j < 16; j++)
                for (int k = 8; k < 16; k++)
                    host[(i * N + j) * N + k] = 1.0;
        total_before = 8 * 8 * 8;
        CHECK(usmarr_array_from_host(ctx, 3, shape, USMARR_FLOAT64, host, NULL, USMARR_USM_HOST, &global));
        free(host);
    }
    CHECK(usmarr_mpi_scatter(grid, 0, global, field[0]));

    /* Each step: start the exchange, compute the core (it needs no halo), wait, then the
     * shell next to the halo. */
    const int64_t *n = usmarr_mpi_grid_local_shape(grid);
    int64_t core_begin[3] = {2, 2, 2}, core[3];
    for (int a = 0; a < 3; a++)
        core[a] = n[a] > 2 ? n[a] - 2 : 0;
    for (int step = 0; step < STEPS; step++) {
        int cur = step % 2;
        usmarr_array_t *u = NULL, *next = NULL;
        CHECK(usmarr_mpi_exchange_start(plan[cur]));
        CHECK(usmarr_storage_device_array(field[cur], false, &u));
        CHECK(usmarr_storage_device_array(field[1 - cur], true, &next));
        heat(u, next, core_begin, core);
        CHECK(usmarr_mpi_exchange_wait(plan[cur]));
        for (int a = 0; a < 3; a++) /* two slabs per axis around the core */
            for (int side = 0; side < 2; side++) {
                int64_t begin[3], extent[3];
                for (int d = 0; d < 3; d++) {
                    begin[d] = d < a ? 2 : 1;
                    extent[d] = d < a ? core[d] : n[d];
                }
                begin[a] = side ? n[a] : 1;
                extent[a] = side && n[a] == 1 ? 0 : 1;
                heat(u, next, begin, extent);
            }
    }

    /* Gather the result on rank 0: periodic diffusion keeps the total heat. */
    CHECK(usmarr_mpi_gather(grid, 0, field[STEPS % 2], global));
    int failed = 0;
    if (rank == 0) {
        usmarr_array_t *sum = NULL;
        double total = 0;
        CHECK(usmarr_sum(global, 0, NULL, false, NULL, &sum)); /* no axes: all of them */
        CHECK(usmarr_array_copy_to_host(sum, &total, NULL));
        printf("heat_mpi: %d ranks, %d steps on %d^3: total heat %.12g (started at %.12g)\n",
               usmarr_mpi_grid_size(grid), STEPS, N, total, total_before);
        failed = fabs(total - total_before) > 1e-9 * total_before;
        usmarr_array_release(sum);
    }
    for (int f = 0; f < 2; f++) {
        usmarr_mpi_exchange_release(plan[f]);
        usmarr_storage_release(field[f]);
    }
    usmarr_array_release(global);
    usmarr_mpi_grid_release(grid);
    usmarr_context_release(ctx);
    MPI_Bcast(&failed, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return failed;
}
