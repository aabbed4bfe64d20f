/* Scatter and gather between a global array on one rank and the local storages: every
 * point lands in its rank's domain (halos untouched) and comes back where it was. */
#include "mpi_common.h"
#include "mpi_oracle.h"

#include <stdio.h>
#include <stdlib.h>

static usmarr_mpi_grid_t *make_grid(MPI_Comm comm, int64_t ni, int64_t nj, int64_t nk)
{
    usmarr_mpi_grid_options_t o = USMARR_MPI_GRID_OPTIONS_INIT;
    o.shape[0] = ni;
    o.shape[1] = nj;
    o.shape[2] = nk;
    o.halo[0] = o.halo[1] = o.halo[2] = 1;
    usmarr_mpi_grid_t *grid = NULL;
    ck_assert_ok_all(comm, usmarr_mpi_grid_create(comm, &o, &grid));
    return grid;
}

/* The planted global field (1 + linear I, J, K index), laid out in `axes` order. */
static double *global_values(const int64_t shape[3], const char *axes, int64_t global_shape[3])
{
    int position[3];
    for (int a = 0; a < 3; a++) {
        position[a] = (int)(strchr(axes, "IJK"[a]) - axes);
        global_shape[position[a]] = shape[a];
    }
    double *v = malloc(sizeof(double) * (size_t)(shape[0] * shape[1] * shape[2]));
    int64_t g[3];
    for (g[0] = 0; g[0] < shape[0]; g[0]++)
        for (g[1] = 0; g[1] < shape[1]; g[1]++)
            for (g[2] = 0; g[2] < shape[2]; g[2]++) {
                int64_t at[3];
                for (int a = 0; a < 3; a++)
                    at[position[a]] = g[a];
                v[(at[0] * global_shape[1] + at[1]) * global_shape[2] + at[2]] = oracle_planted(shape, g);
            }
    return v;
}

/* Checks that the storage holds its block of the planted field times `scale`, with a zero halo. */
static int64_t count_wrong_local(usmarr_mpi_grid_t *grid, usmarr_storage_t *s, double scale)
{
    const int64_t *shape = usmarr_storage_shape(s);
    const char *axes = usmarr_storage_axes(s);
    double *got = malloc(sizeof(double) * (size_t)(shape[0] * shape[1] * shape[2]));
    test_storage_read(s, got);
    int position[3];
    for (int a = 0; a < 3; a++)
        position[a] = (int)(strchr(axes, "IJK"[a]) - axes);
    int64_t wrong = 0, l[3];
    for (l[0] = 0; l[0] < shape[position[0]]; l[0]++)
        for (l[1] = 0; l[1] < shape[position[1]]; l[1]++)
            for (l[2] = 0; l[2] < shape[position[2]]; l[2]++) {
                int64_t at[3], g[3];
                bool inner = true;
                for (int a = 0; a < 3; a++) {
                    at[position[a]] = l[a];
                    g[a] = usmarr_mpi_grid_local_start(grid)[a] + l[a] - 1;
                    inner = inner && l[a] >= 1 && l[a] <= usmarr_mpi_grid_local_shape(grid)[a];
                }
                double expect = inner ? oracle_planted(usmarr_mpi_grid_shape(grid), g) * scale : 0.0;
                wrong += got[(at[0] * shape[1] + at[1]) * shape[2] + at[2]] != expect;
            }
    free(got);
    return wrong;
}

/* Scatter from `root`, check, scale the local fields by 2 on the device, gather, check. */
static void round_trip(MPI_Comm comm, const char *axes, const char *device, usmarr_dtype_t global_dtype,
                       usmarr_dtype_t local_dtype, int root_from_end)
{
    if (comm == MPI_COMM_NULL)
        return;
    usmarr_context_t *ctx = test_context();
    usmarr_mpi_grid_t *grid = make_grid(comm, 9, 7, 6);
    int root = usmarr_mpi_grid_size(grid) - 1 - root_from_end;
    bool is_root = usmarr_mpi_grid_rank(grid) == root;
    int64_t global_shape[3];
    double *values = global_values(usmarr_mpi_grid_shape(grid), axes, global_shape);
    usmarr_array_t *host_values = NULL, *global = NULL, *back = NULL;
    if (is_root) {
        ck_assert_ok(usmarr_array_from_host(ctx, 3, global_shape, USMARR_FLOAT64, values, NULL, USMARR_USM_DEVICE,
                                            &host_values));
        ck_assert_ok(usmarr_array_astype(host_values, global_dtype, USMARR_ORDER_C, NULL, &global));
        ck_assert_ok(usmarr_array_zeros(ctx, 3, global_shape, global_dtype, USMARR_ORDER_F, USMARR_USM_SHARED, &back));
    }
    usmarr_storage_options_t so = test_storage_options(ctx, local_dtype);
    so.axes = axes;
    so.device = device;
    usmarr_storage_t *s = NULL;
    ck_assert_ok(usmarr_mpi_grid_storage(grid, &so, &s));
    ck_assert_ok_all(comm, usmarr_mpi_scatter(grid, root, global, s));
    int64_t wrong = count_wrong_local(grid, s, 1.0);
    ck_assert_all_msg(comm, wrong == 0, "%lld wrong points after the scatter", (long long)wrong);
    /* Double the whole local storage (halo zeros stay zeros) on its device side. */
    usmarr_array_t *side = NULL;
    ck_assert_ok(usmarr_storage_kind(s) == USMARR_STORAGE_HOST ? usmarr_storage_host_array(s, true, &side)
                                                               : usmarr_storage_device_array(s, true, &side));
    usmarr_operand_t ops[2] = {{.array = side}, {.scalar = usmarr_scalar_int(2)}};
    ck_assert_ok(usmarr_elementwise("multiply", ops, 2, side, NULL));
    ck_assert_ok_all(comm, usmarr_mpi_gather(grid, root, s, back));
    if (is_root) {
        int64_t n = global_shape[0] * global_shape[1] * global_shape[2];
        usmarr_array_t *converted = NULL;
        double *got = malloc(sizeof(double) * (size_t)n);
        ck_assert_ok(usmarr_array_astype(back, USMARR_FLOAT64, USMARR_ORDER_C, NULL, &converted));
        ck_assert_ok(usmarr_array_copy_to_host(converted, got, NULL));
        int64_t bad = 0;
        for (int64_t i = 0; i < n; i++)
            bad += got[i] != 2 * values[i];
        usmarr_array_release(converted);
        free(got);
        wrong = bad;
    }
    ck_assert_all_msg(comm, wrong == 0, "%lld wrong points after the gather", (long long)wrong);
    free(values);
    usmarr_array_release(back);
    usmarr_array_release(global);
    usmarr_array_release(host_values);
    usmarr_storage_release(s);
    usmarr_mpi_grid_release(grid);
    usmarr_context_release(ctx);
}

START_TEST(test_mpi_scatter_gather_round_trip)
{
    round_trip(MPI_COMM_WORLD, "IJK", NULL, USMARR_FLOAT64, USMARR_FLOAT64, 0);
}
END_TEST

START_TEST(test_mpi_scatter_gather_other_axes_root_kinds_and_casts)
{
    round_trip(MPI_COMM_WORLD, "KJI", "gpu", USMARR_FLOAT32, USMARR_FLOAT64, test_world_size - 1);
    round_trip(MPI_COMM_WORLD, "JIK", "gpu", USMARR_INT64, USMARR_INT32, test_world_size > 2 ? 1 : 0);
}
END_TEST

START_TEST(test_mpi_scatter_gather_on_one_and_two_ranks)
{
    MPI_Comm comm = test_comm_first(_i + 1);
    round_trip(comm, "IKJ", NULL, USMARR_INT32, USMARR_FLOAT32, 0);
    test_comm_free(&comm);
}
END_TEST

/* A global array that is a strided view (every other plane of a bigger array). */
START_TEST(test_mpi_scatter_from_a_strided_view)
{
    usmarr_context_t *ctx = test_context();
    usmarr_mpi_grid_t *grid = make_grid(MPI_COMM_WORLD, 5, 6, 7);
    int64_t global_shape[3];
    double *values = global_values(usmarr_mpi_grid_shape(grid), "IJK", global_shape);
    usmarr_array_t *big = NULL, *view = NULL;
    if (test_world_rank == 0) {
        int64_t big_shape[3] = {10, 6, 7};
        ck_assert_ok(usmarr_array_zeros(ctx, 3, big_shape, USMARR_FLOAT64, USMARR_ORDER_C, USMARR_USM_DEVICE, &big));
        ck_assert_ok(usmarr_array_index_text(big, "1::2, :, ::-1", &view));
        int64_t flipped[3] = {6 * 7, 7, -1};
        ck_assert_ok(usmarr_array_copy_from_host(view, values + 6, flipped)); /* view[i, j, k] = values[i, j, 6 - k] */
        usmarr_array_release(view);
        ck_assert_ok(usmarr_array_index_text(big, "1::2, :, :", &view));
    }
    usmarr_storage_options_t so = test_storage_options(ctx, USMARR_FLOAT64);
    usmarr_storage_t *s = NULL;
    ck_assert_ok(usmarr_mpi_grid_storage(grid, &so, &s));
    ck_assert_ok_all(MPI_COMM_WORLD, usmarr_mpi_scatter(grid, 0, view, s));
    int64_t wrong = count_wrong_local(grid, s, 1.0);
    ck_assert_all_msg(MPI_COMM_WORLD, wrong == 0, "%lld wrong points", (long long)wrong);
    free(values);
    usmarr_array_release(view);
    usmarr_array_release(big);
    usmarr_storage_release(s);
    usmarr_mpi_grid_release(grid);
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_mpi_scatter_gather_errors_on_every_rank)
{
    usmarr_context_t *ctx = test_context();
    usmarr_mpi_grid_t *grid = make_grid(MPI_COMM_WORLD, 6, 5, 4);
    const int64_t *g = usmarr_mpi_grid_shape(grid);
    usmarr_array_t *global = NULL, *wrong_shape = NULL, *read_only = NULL;
    bool root = test_world_rank == 0, last = test_world_rank == test_world_size - 1;
    int64_t bad[3] = {g[0], g[1], g[2] + 1};
    ck_assert_ok(usmarr_array_zeros(ctx, 3, g, USMARR_FLOAT64, USMARR_ORDER_C, USMARR_USM_DEVICE, &global));
    ck_assert_ok(usmarr_array_zeros(ctx, 3, bad, USMARR_FLOAT64, USMARR_ORDER_C, USMARR_USM_DEVICE, &wrong_shape));
    ck_assert_ok(usmarr_array_zeros(ctx, 3, g, USMARR_FLOAT64, USMARR_ORDER_C, USMARR_USM_DEVICE, &read_only));
    ck_assert_ok(usmarr_array_make_read_only(read_only));
    usmarr_storage_options_t so = test_storage_options(ctx, USMARR_FLOAT64);
    usmarr_storage_t *s = NULL, *typed = NULL, *foreign = NULL, *plane = NULL;
    ck_assert_ok(usmarr_mpi_grid_storage(grid, &so, &s));
    so.dtype = last ? USMARR_INT32 : USMARR_FLOAT64;
    ck_assert_ok(usmarr_mpi_grid_storage(grid, &so, &typed));
    ck_assert_fails_all(MPI_COMM_WORLD, usmarr_mpi_scatter(grid, test_world_size, global, s),
                        USMARR_ERROR_INVALID_ARGUMENT, "root=");
    ck_assert_fails_all(MPI_COMM_WORLD, usmarr_mpi_gather(grid, -1, s, global), USMARR_ERROR_INVALID_ARGUMENT,
                        "root=-1");
    if (test_world_size > 1) {
        ck_assert_fails_all(MPI_COMM_WORLD, usmarr_mpi_scatter(grid, last ? 1 : 0, global, s),
                            USMARR_ERROR_INVALID_ARGUMENT, "root differs between ranks (0 to 1)");
        ck_assert_fails_all(MPI_COMM_WORLD, usmarr_mpi_scatter(grid, 0, global, typed), USMARR_ERROR_MPI,
                            "local dtype differs between ranks");
    }
    ck_assert_fails_all(MPI_COMM_WORLD, usmarr_mpi_scatter(grid, 0, NULL, s), USMARR_ERROR_INVALID_ARGUMENT,
                        "rank 0: global is NULL on the root rank 0");
    ck_assert_fails_all(MPI_COMM_WORLD, usmarr_mpi_gather(grid, 0, s, wrong_shape), USMARR_ERROR_SHAPE_MISMATCH,
                        "global shape[2]=");
    ck_assert_fails_all(MPI_COMM_WORLD, usmarr_mpi_gather(grid, 0, s, read_only), USMARR_ERROR_READ_ONLY,
                        "global is read-only");
    ck_assert_ok_all(MPI_COMM_WORLD, usmarr_mpi_scatter(grid, 0, read_only, s)); /* read-only is fine to read */
    /* Another context's global array on the root; another block's storage on the last rank. */
    usmarr_context_t *ctx2 = test_context();
    usmarr_array_t *elsewhere = NULL;
    ck_assert_ok(usmarr_array_zeros(ctx2, 3, g, USMARR_FLOAT64, USMARR_ORDER_C, USMARR_USM_DEVICE, &elsewhere));
    ck_assert_fails_all(MPI_COMM_WORLD, usmarr_mpi_scatter(grid, 0, elsewhere, s), USMARR_ERROR_CONTEXT_MISMATCH,
                        "different contexts");
    usmarr_mpi_grid_t *grid2 = make_grid(MPI_COMM_WORLD, 6, 5, 5);
    so.dtype = USMARR_FLOAT64;
    ck_assert_ok(usmarr_mpi_grid_storage(last ? grid2 : grid, &so, &foreign));
    char needle[64];
    snprintf(needle, sizeof needle, "rank %d: local: domain", test_world_size - 1);
    ck_assert_fails_all(MPI_COMM_WORLD, usmarr_mpi_scatter(grid, 0, global, foreign), USMARR_ERROR_SHAPE_MISMATCH,
                        needle);
    usmarr_storage_options_t po = test_storage_options(ctx, USMARR_FLOAT64);
    po.axes = "JK";
    po.nshape = 2;
    po.shape[0] = po.shape[1] = 3;
    ck_assert_ok(usmarr_storage_zeros(&po, &plane));
    ck_assert_fails_all(MPI_COMM_WORLD, usmarr_mpi_gather(grid, 0, plane, global), USMARR_ERROR_INVALID_ARGUMENT,
                        "all three");
    ck_assert_fails_all(MPI_COMM_WORLD, usmarr_mpi_gather(grid, 0, NULL, global), USMARR_ERROR_INVALID_ARGUMENT,
                        "local is NULL");
    ck_assert_fails_with(usmarr_mpi_scatter(NULL, 0, global, s), USMARR_ERROR_INVALID_ARGUMENT, "grid");
    ck_assert_fails_with(usmarr_mpi_gather(NULL, 0, s, global), USMARR_ERROR_INVALID_ARGUMENT, "grid");
    (void)root;
    usmarr_storage_release(plane);
    usmarr_storage_release(foreign);
    usmarr_mpi_grid_release(grid2);
    usmarr_array_release(elsewhere);
    usmarr_context_release(ctx2);
    usmarr_storage_release(typed);
    usmarr_storage_release(s);
    usmarr_array_release(read_only);
    usmarr_array_release(wrong_shape);
    usmarr_array_release(global);
    usmarr_mpi_grid_release(grid);
    usmarr_context_release(ctx);
}
END_TEST

Suite *suite_mpi_scatter(void)
{
    Suite *s = suite_create("mpi_scatter");
    TCase *tc = tcase_create("scatter");
    tcase_add_test(tc, test_mpi_scatter_gather_round_trip);
    tcase_add_test(tc, test_mpi_scatter_gather_other_axes_root_kinds_and_casts);
    tcase_add_loop_test(tc, test_mpi_scatter_gather_on_one_and_two_ranks, 0, 2);
    tcase_add_test(tc, test_mpi_scatter_from_a_strided_view);
    tcase_add_test(tc, test_mpi_scatter_gather_errors_on_every_rank);
    suite_add_tcase(s, tc);
    return s;
}
