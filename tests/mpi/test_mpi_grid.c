/* Process grids: decomposition, Cartesian communicator, neighbours, local storages, and
 * argument errors that every rank reports alike. */
#include "mpi_common.h"
#include "mpi_oracle.h"

#include <stdlib.h>

static usmarr_mpi_grid_options_t grid_options(int64_t ni, int64_t nj, int64_t nk, int64_t halo)
{
    usmarr_mpi_grid_options_t o = USMARR_MPI_GRID_OPTIONS_INIT;
    o.shape[0] = ni;
    o.shape[1] = nj;
    o.shape[2] = nk;
    o.halo[0] = o.halo[1] = o.halo[2] = halo;
    return o;
}

/* Every rank's block, gathered: the blocks tile the domain, each as oracle_block says. */
START_TEST(test_mpi_grid_blocks_tile_the_domain_as_dims_create_chooses)
{
    usmarr_mpi_grid_options_t o = grid_options(13, 10, 7, 1);
    usmarr_mpi_grid_t *grid = NULL;
    ck_assert_ok_all(MPI_COMM_WORLD, usmarr_mpi_grid_create(MPI_COMM_WORLD, &o, &grid));
    int dims[3] = {0, 0, 0};
    MPI_Dims_create(test_world_size, 3, dims);
    ck_assert_int_eq(usmarr_mpi_grid_size(grid), test_world_size);
    ck_assert_int_eq(usmarr_mpi_grid_rank(grid), test_world_rank);
    ck_assert_mem_eq(usmarr_mpi_grid_dims(grid), dims, sizeof dims);
    int coords[3];
    MPI_Cart_coords(usmarr_mpi_grid_comm(grid), usmarr_mpi_grid_rank(grid), 3, coords);
    ck_assert_mem_eq(usmarr_mpi_grid_coords(grid), coords, sizeof coords);
    int64_t covered = 0;
    for (int r = 0; r < test_world_size; r++) {
        int64_t start[3], shape[3], expect_start[3], expect_shape[3];
        int rc[3];
        ck_assert_ok(usmarr_mpi_grid_block(grid, r, start, shape));
        MPI_Cart_coords(usmarr_mpi_grid_comm(grid), r, 3, rc);
        for (int a = 0; a < 3; a++) {
            oracle_block(o.shape[a], dims[a], rc[a], &expect_start[a], &expect_shape[a]);
            ck_assert_int_eq(start[a], expect_start[a]);
            ck_assert_int_eq(shape[a], expect_shape[a]);
        }
        covered += shape[0] * shape[1] * shape[2];
        if (r == test_world_rank) {
            ck_assert_mem_eq(usmarr_mpi_grid_local_start(grid), start, sizeof start);
            ck_assert_mem_eq(usmarr_mpi_grid_local_shape(grid), shape, sizeof shape);
        }
    }
    ck_assert_int_eq(covered, 13 * 10 * 7);
    ck_assert_int_eq(usmarr_mpi_grid_shape(grid)[0], 13);
    ck_assert_int_eq(usmarr_mpi_grid_halo(grid)[2], 1);
    usmarr_mpi_grid_release(grid);
}
END_TEST

/* Neighbours against MPI_Cart_shift on the grid's own communicator, periodic or not. */
START_TEST(test_mpi_grid_neighbors_match_cart_shift_and_wrap_where_periodic)
{
    for (int variant = 0; variant < 2; variant++) {
        usmarr_mpi_grid_options_t o = grid_options(8, 8, 8, 1);
        o.dims[0] = test_world_size; /* every rank on the I axis */
        o.dims[1] = o.dims[2] = 1;
        o.periodic[0] = variant == 1;
        o.periodic[2] = true;
        usmarr_mpi_grid_t *grid = NULL;
        ck_assert_ok_all(MPI_COMM_WORLD, usmarr_mpi_grid_create(MPI_COMM_WORLD, &o, &grid));
        ck_assert(usmarr_mpi_grid_periodic(grid)[0] == (variant == 1));
        for (int a = 0; a < 3; a++) {
            int lower, upper, got;
            MPI_Cart_shift(usmarr_mpi_grid_comm(grid), a, 1, &lower, &upper);
            int offset[3] = {0, 0, 0};
            offset[a] = -1;
            ck_assert_ok(usmarr_mpi_grid_neighbor(grid, offset, &got));
            ck_assert_int_eq(got, lower);
            offset[a] = 1;
            ck_assert_ok(usmarr_mpi_grid_neighbor(grid, offset, &got));
            ck_assert_int_eq(got, upper);
        }
        int corner[3] = {1, 0, -1}, got = -5;
        ck_assert_ok(usmarr_mpi_grid_neighbor(grid, corner, &got));
        int last = test_world_rank == test_world_size - 1;
        ck_assert_int_eq(got, last && !variant ? MPI_PROC_NULL : (test_world_rank + 1) % test_world_size);
        usmarr_mpi_grid_release(grid);
    }
}
END_TEST

START_TEST(test_mpi_grid_adopts_a_cartesian_communicator_and_rejects_another_shape)
{
    int dims[3] = {0, 0, 0}, periods[3] = {1, 0, 1};
    MPI_Dims_create(test_world_size, 3, dims);
    MPI_Comm cart;
    MPI_Cart_create(MPI_COMM_WORLD, 3, dims, periods, 0, &cart);
    usmarr_mpi_grid_options_t o = grid_options(9, 9, 9, 1);
    usmarr_mpi_grid_t *grid = NULL;
    ck_assert_ok_all(cart, usmarr_mpi_grid_create(cart, &o, &grid));
    ck_assert_mem_eq(usmarr_mpi_grid_dims(grid), dims, sizeof dims);
    ck_assert(usmarr_mpi_grid_periodic(grid)[0] && !usmarr_mpi_grid_periodic(grid)[1]);
    usmarr_mpi_grid_release(grid);
    /* Dims that contradict the topology: every rank is told. */
    o.dims[0] = dims[0] == 1 ? 2 : 1;
    o.dims[1] = o.dims[2] = 0;
    grid = NULL;
    ck_assert_fails_all(cart, usmarr_mpi_grid_create(cart, &o, &grid), USMARR_ERROR_INVALID_ARGUMENT,
                        "not this grid's communicator");
    ck_assert_ptr_null(grid);
    o.dims[0] = 0;
    o.periodic[1] = true;
    ck_assert_fails_all(cart, usmarr_mpi_grid_create(cart, &o, &grid), USMARR_ERROR_INVALID_ARGUMENT,
                        "not this grid's communicator");
    MPI_Comm plane;
    int plane_dims[2] = {0, 0}, plane_periods[2] = {0, 0};
    MPI_Dims_create(test_world_size, 2, plane_dims);
    MPI_Cart_create(MPI_COMM_WORLD, 2, plane_dims, plane_periods, 0, &plane);
    o.periodic[1] = false;
    ck_assert_fails_all(plane, usmarr_mpi_grid_create(plane, &o, &grid), USMARR_ERROR_INVALID_ARGUMENT,
                        "2-dimensional Cartesian");
    MPI_Comm_free(&plane);
    MPI_Comm_free(&cart);
}
END_TEST

START_TEST(test_mpi_grid_bad_options_fail_on_every_rank)
{
    usmarr_mpi_grid_t *grid = NULL;
    usmarr_mpi_grid_options_t o = grid_options(8, 8, 8, 1);
    ck_assert_fails_with(usmarr_mpi_grid_create(MPI_COMM_WORLD, &o, NULL), USMARR_ERROR_INVALID_ARGUMENT, "grid");
    ck_assert_fails_with(usmarr_mpi_grid_create(MPI_COMM_NULL, &o, &grid), USMARR_ERROR_INVALID_ARGUMENT,
                         "MPI_COMM_NULL");
    ck_assert_fails_all(MPI_COMM_WORLD, usmarr_mpi_grid_create(MPI_COMM_WORLD, NULL, &grid),
                        USMARR_ERROR_INVALID_ARGUMENT, "options is NULL");
    /* One rank's bad options fail everyone, naming that rank. */
    o.shape[1] = test_world_rank == test_world_size - 1 ? 0 : 8;
    char needle[64];
    snprintf(needle, sizeof needle, "rank %d: options->shape[1]=0", test_world_size - 1);
    ck_assert_fails_all(MPI_COMM_WORLD, usmarr_mpi_grid_create(MPI_COMM_WORLD, &o, &grid),
                        USMARR_ERROR_INVALID_ARGUMENT, needle);
    o = grid_options(8, 8, 8, 1);
    o.dims[2] = -1;
    ck_assert_fails_all(MPI_COMM_WORLD, usmarr_mpi_grid_create(MPI_COMM_WORLD, &o, &grid),
                        USMARR_ERROR_INVALID_ARGUMENT, "options->dims[2]=-1");
    o.dims[2] = 0;
    o.halo[0] = -2;
    ck_assert_fails_all(MPI_COMM_WORLD, usmarr_mpi_grid_create(MPI_COMM_WORLD, &o, &grid),
                        USMARR_ERROR_INVALID_ARGUMENT, "options->halo[0]=-2");
    /* Options that differ between ranks (valid on each). */
    o = grid_options(8, 8, 8, 1);
    o.halo[1] = test_world_rank == 0 ? 2 : 1;
    if (test_world_size > 1)
        ck_assert_fails_all(MPI_COMM_WORLD, usmarr_mpi_grid_create(MPI_COMM_WORLD, &o, &grid), USMARR_ERROR_MPI,
                            "options->halo[1] (axis J) differs between ranks (1 to 2)");
    o = grid_options(8, 8, 8, 1);
    o.dims[0] = test_world_size + 1;
    o.dims[1] = o.dims[2] = 1;
    ck_assert_fails_all(MPI_COMM_WORLD, usmarr_mpi_grid_create(MPI_COMM_WORLD, &o, &grid),
                        USMARR_ERROR_INVALID_ARGUMENT, "the communicator has");
    o.dims[1] = 0;
    ck_assert_fails_all(MPI_COMM_WORLD, usmarr_mpi_grid_create(MPI_COMM_WORLD, &o, &grid),
                        USMARR_ERROR_INVALID_ARGUMENT, "do not divide");
    /* Blocks narrower than the halo, or empty. */
    o = grid_options(2 * test_world_size, 8, 8, 3);
    o.dims[0] = test_world_size;
    o.dims[1] = o.dims[2] = 1;
    ck_assert_fails_all(MPI_COMM_WORLD, usmarr_mpi_grid_create(MPI_COMM_WORLD, &o, &grid),
                        USMARR_ERROR_SHAPE_MISMATCH, "narrower than the halo");
    o = grid_options(8, 8, 8, 0);
    o.dims[0] = test_world_size;
    o.dims[1] = o.dims[2] = 1;
    o.shape[0] = test_world_size - 1;
    if (test_world_size > 1)
        ck_assert_fails_all(MPI_COMM_WORLD, usmarr_mpi_grid_create(MPI_COMM_WORLD, &o, &grid),
                            USMARR_ERROR_SHAPE_MISMATCH, "narrower than one point");
    ck_assert_ptr_null(grid);
}
END_TEST

START_TEST(test_mpi_grid_accessors_and_lookups)
{
    usmarr_mpi_grid_options_t o = grid_options(6, 5, 4, 1);
    usmarr_mpi_grid_t *grid = NULL;
    ck_assert_ok_all(MPI_COMM_WORLD, usmarr_mpi_grid_create(MPI_COMM_WORLD, &o, &grid));
    ck_assert_ptr_eq(usmarr_mpi_grid_retain(grid), grid);
    usmarr_mpi_grid_release(grid);
    ck_assert(usmarr_mpi_grid_comm(NULL) == MPI_COMM_NULL);
    ck_assert_int_eq(usmarr_mpi_grid_rank(NULL), -1);
    ck_assert_int_eq(usmarr_mpi_grid_size(NULL), 0);
    ck_assert_ptr_null(usmarr_mpi_grid_dims(NULL));
    ck_assert_ptr_null(usmarr_mpi_grid_local_shape(NULL));
    ck_assert_ptr_null(usmarr_mpi_grid_retain(NULL));
    usmarr_mpi_grid_release(NULL);
    int64_t start[3], shape[3];
    int offset[3] = {0, 2, 0}, rank;
    ck_assert_fails_with(usmarr_mpi_grid_block(grid, test_world_size, start, shape), USMARR_ERROR_INDEX, "rank=");
    ck_assert_fails_with(usmarr_mpi_grid_block(grid, -1, start, shape), USMARR_ERROR_INDEX, "rank=-1");
    ck_assert_fails_with(usmarr_mpi_grid_block(NULL, 0, start, shape), USMARR_ERROR_INVALID_ARGUMENT, "grid");
    ck_assert_fails_with(usmarr_mpi_grid_block(grid, 0, start, NULL), USMARR_ERROR_INVALID_ARGUMENT, "shape");
    ck_assert_fails_with(usmarr_mpi_grid_neighbor(grid, offset, &rank), USMARR_ERROR_INVALID_ARGUMENT, "offset[1]=2");
    ck_assert_fails_with(usmarr_mpi_grid_neighbor(grid, NULL, &rank), USMARR_ERROR_INVALID_ARGUMENT, "offset");
    ck_assert_fails_with(usmarr_mpi_grid_neighbor(NULL, offset, &rank), USMARR_ERROR_INVALID_ARGUMENT, "grid");
    usmarr_mpi_grid_release(grid);
}
END_TEST

START_TEST(test_mpi_grid_storage_has_the_block_plus_halo_in_any_axes_order)
{
    usmarr_context_t *ctx = test_context();
    usmarr_mpi_grid_options_t o = grid_options(11, 7, 5, 2);
    o.halo[2] = 1;
    usmarr_mpi_grid_t *grid = NULL;
    ck_assert_ok_all(MPI_COMM_WORLD, usmarr_mpi_grid_create(MPI_COMM_WORLD, &o, &grid));
    const int64_t *n = usmarr_mpi_grid_local_shape(grid);
    usmarr_storage_options_t so = test_storage_options(ctx, USMARR_FLOAT32);
    so.alignment = 64;
    so.layout = "KJI";
    usmarr_storage_t *s = NULL;
    ck_assert_ok(usmarr_mpi_grid_storage(grid, &so, &s));
    ck_assert_str_eq(usmarr_storage_axes(s), "IJK");
    ck_assert_str_eq(usmarr_storage_layout(s), "KJI");
    ck_assert_int_eq(usmarr_storage_alignment(s), 64);
    ck_assert_int_eq(usmarr_storage_dtype(s), USMARR_FLOAT32);
    ck_assert_int_eq(usmarr_storage_shape(s)[0], n[0] + 4);
    ck_assert_int_eq(usmarr_storage_shape(s)[2], n[2] + 2);
    ck_assert_int_eq(usmarr_storage_halo(s)[1][1], 2);
    ck_assert_int_eq(usmarr_storage_halo(s)[2][0], 1);
    usmarr_storage_release(s);
    /* Axes "KJI": shape and halo follow the letters. */
    so.axes = "KJI";
    so.nhalo = 3;
    so.halo[0][0] = 0; /* K */
    so.halo[0][1] = 1;
    so.halo[1][0] = so.halo[1][1] = 1; /* J */
    so.halo[2][0] = so.halo[2][1] = 2; /* I */
    ck_assert_ok(usmarr_mpi_grid_storage(grid, &so, &s));
    ck_assert_int_eq(usmarr_storage_shape(s)[0], n[2] + 1);
    ck_assert_int_eq(usmarr_storage_shape(s)[1], n[1] + 2);
    ck_assert_int_eq(usmarr_storage_shape(s)[2], n[0] + 4);
    usmarr_storage_release(s);
    so.axes = "IJ";
    ck_assert_fails_with(usmarr_mpi_grid_storage(grid, &so, &s), USMARR_ERROR_INVALID_ARGUMENT, "permutation");
    so.axes = "IJI";
    ck_assert_fails_with(usmarr_mpi_grid_storage(grid, &so, &s), USMARR_ERROR_INVALID_ARGUMENT, "permutation");
    so.axes = NULL;
    so.nshape = 3;
    ck_assert_fails_with(usmarr_mpi_grid_storage(grid, &so, &s), USMARR_ERROR_INVALID_ARGUMENT, "nshape");
    ck_assert_fails_with(usmarr_mpi_grid_storage(grid, NULL, &s), USMARR_ERROR_INVALID_ARGUMENT, "options");
    ck_assert_fails_with(usmarr_mpi_grid_storage(NULL, &so, &s), USMARR_ERROR_INVALID_ARGUMENT, "grid");
    so.nshape = 0;
    so.dtype = 99;
    ck_assert_int_ne(usmarr_mpi_grid_storage(grid, &so, &s), 0); /* the storage layer's error */
    ck_assert_ptr_null(s);
    usmarr_mpi_grid_release(grid);
    usmarr_context_release(ctx);
}
END_TEST

Suite *suite_mpi_grid(void)
{
    Suite *s = suite_create("mpi_grid");
    TCase *tc = tcase_create("grid");
    tcase_add_test(tc, test_mpi_grid_blocks_tile_the_domain_as_dims_create_chooses);
    tcase_add_test(tc, test_mpi_grid_neighbors_match_cart_shift_and_wrap_where_periodic);
    tcase_add_test(tc, test_mpi_grid_adopts_a_cartesian_communicator_and_rejects_another_shape);
    tcase_add_test(tc, test_mpi_grid_bad_options_fail_on_every_rank);
    tcase_add_test(tc, test_mpi_grid_accessors_and_lookups);
    tcase_add_test(tc, test_mpi_grid_storage_has_the_block_plus_halo_in_any_axes_order);
    suite_add_tcase(s, tc);
    return s;
}
