/* Shared by the MPI test suites (tests/mpi/test_mpi_*.c), which tests/scripts/mpi-check.sh runs under
 * mpirun: every rank runs every test; a test that needs fewer ranks splits them off. */
#ifndef USMARR_TESTS_MPI_COMMON_H
#define USMARR_TESTS_MPI_COMMON_H

#include <stdbool.h>
#include <string.h>
#include <usmarr_mpi.h> /* first: it sets CL_TARGET_OPENCL_VERSION */
#include <CL/cl_ext.h> /* CL_UNIFIED_SHARED_MEMORY_ACCESS_INTEL */

#include "../harness/check_usmarr.h"

/* Every MPI suite, one line each: X(module). */
#define TEST_MPI_SUITES(X) \
    X(mpi_grid)            \
    X(mpi_exchange)        \
    X(mpi_scatter)         \
    X(mpi_stencil)

#define TEST_MPI_DECLARE_SUITE_(name) Suite *suite_##name(void);
TEST_MPI_SUITES(TEST_MPI_DECLARE_SUITE_)
#undef TEST_MPI_DECLARE_SUITE_

/* The device under test and the world. */
extern const char *test_selector;
extern int test_world_rank, test_world_size;
/* 0, or the only rank count the stencil suite runs on (the runner's --ranks N). */
extern int test_only_ranks;
usmarr_context_t *test_context(void);

/* A communicator of the first n ranks of the world: MPI_COMM_NULL on the others, and on
 * every rank when the world is smaller (the test then does nothing).  Collective. */
MPI_Comm test_comm_first(int n);
/* Frees a communicator from test_comm_first() (MPI_COMM_NULL: no-op). */
void test_comm_free(MPI_Comm *comm);

/* True on every rank of comm when `ok` holds on all of them (collective). */
bool test_all(MPI_Comm comm, bool ok);

/* Asserts on every rank of comm: the ranks where cond fails say why, the others that
 * another rank failed, so that no rank goes on alone into a collective. */
#define ck_assert_all_msg(comm, cond, ...)                                                         \
    do {                                                                                           \
        bool ok_ = (cond);                                                                         \
        bool all_ = test_all((comm), ok_);                                                         \
        if (!ok_)                                                                                  \
            ck_abort_msg(__VA_ARGS__);                                                             \
        ck_assert_msg(all_, "another rank failed: %s", #cond);                                     \
    } while (0)

#define ck_assert_all(comm, cond) ck_assert_all_msg(comm, cond, "failed: %s", #cond)

#define ck_assert_ok_all(comm, call)                                                               \
    do {                                                                                           \
        int rc_ = (call);                                                                          \
        ck_assert_all_msg(comm, rc_ == 0, "%s failed: %s (%d): %s", #call, usmarr_error_name(rc_),  \
                          rc_, usmarr_last_error_detail());                                        \
    } while (0)

/* A call that must fail with `code` on every rank, with `needle` in the detail. */
#define ck_assert_fails_all(comm, call, code, needle)                                              \
    do {                                                                                           \
        int rc_ = (call);                                                                          \
        ck_assert_all_msg(comm, rc_ == (code) && strstr(usmarr_last_error_detail(), (needle)),     \
                          "%s returned %s (%d), expected %s; detail \"%s\" should mention \"%s\"", \
                          #call, usmarr_error_name(rc_), rc_, #code, usmarr_last_error_detail(),   \
                          (needle));                                                               \
    } while (0)


/* Storage options with the context and dtype set (the grid sets shape and halo). */
usmarr_storage_options_t test_storage_options(usmarr_context_t *ctx, usmarr_dtype_t dtype);

/* Writes `values` (float64, the storage's full extent in its axes order, C order) into
 * a storage, converting to its dtype: into the host side when `host_side`, else into the
 * device side (a host storage has only the host side). */
void test_storage_write(usmarr_storage_t *storage, const double *values, bool host_side);
/* Reads a storage's full extent, converted to float64, from the side that holds the
 * newest data (without changing its sync state). */
void test_storage_read(usmarr_storage_t *storage, double *values);

#endif
