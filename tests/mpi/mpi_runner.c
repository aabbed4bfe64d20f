/* Runs the MPI suites on every rank, on every usable USM device (or USMARR_TEST_DEVICE's).
 * `--ranks N` runs only the tests that need N ranks (tests/scripts/mpi-check.sh's 8-rank run).
 * Rank 0 prints Check's report; every other rank prints its own failures.  The exit
 * status is the same on every rank: failure if any rank failed. */
#include "mpi_common.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

const char *test_selector;
int test_world_rank, test_world_size, test_only_ranks;

usmarr_context_t *test_context(void)
{
    usmarr_context_t *ctx = NULL;
    int rc = usmarr_context_create(test_selector, &ctx);
    ck_assert_msg(rc == 0, "context on %s: %s: %s", test_selector, usmarr_strerror(rc), usmarr_last_error_detail());
    return ctx;
}

MPI_Comm test_comm_first(int n)
{
    MPI_Comm comm = MPI_COMM_NULL;
    int color = test_world_size >= n && test_world_rank < n ? 0 : MPI_UNDEFINED;
    MPI_Comm_split(MPI_COMM_WORLD, color, test_world_rank, &comm);
    return comm;
}

void test_comm_free(MPI_Comm *comm)
{
    if (*comm != MPI_COMM_NULL)
        MPI_Comm_free(comm);
}

/* The ranks' agreement waits asleep between polls: a rank that waits here while another
 * compiles a kernel cold would otherwise spin (MPI's shared-memory progress yields the CPU
 * in a loop of system calls), taking the cores that the compiling rank and the rest of a
 * parallel make check need. */
bool test_all(MPI_Comm comm, bool ok)
{
    int mine = ok, all = 0, done = 0;
    MPI_Request request;
    MPI_Iallreduce(&mine, &all, 1, MPI_INT, MPI_LAND, comm, &request);
    for (MPI_Test(&request, &done, MPI_STATUS_IGNORE); !done; MPI_Test(&request, &done, MPI_STATUS_IGNORE))
        nanosleep(&(struct timespec){.tv_nsec = 200000}, NULL);
    return all;
}

usmarr_storage_options_t test_storage_options(usmarr_context_t *ctx, usmarr_dtype_t dtype)
{
    usmarr_storage_options_t o = USMARR_STORAGE_OPTIONS_INIT;
    o.context = ctx;
    o.dtype = (int)dtype;
    /* Without host USM (USMARR_USM_KINDS=device, the SVM backend) the default host
     * storage becomes a device storage, so that the exchange's device-only path (device
     * staging bounced through host memory) runs the same tests. */
    if (!(usmarr_context_info(ctx)->host_mem_caps & CL_UNIFIED_SHARED_MEMORY_ACCESS_INTEL)) {
        o.device = "gpu";
        o.managed = "none";
    }
    return o;
}

void test_storage_write(usmarr_storage_t *storage, const double *values, bool host_side)
{
    usmarr_array_t *side = NULL, *source = NULL;
    bool host = host_side || usmarr_storage_kind(storage) == USMARR_STORAGE_HOST;
    int rc = host ? usmarr_storage_host_array(storage, true, &side) : usmarr_storage_device_array(storage, true, &side);
    if (!rc)
        rc = usmarr_array_from_host(usmarr_storage_context(storage), 3, usmarr_storage_shape(storage), USMARR_FLOAT64,
                                    values, NULL, USMARR_USM_DEVICE, &source);
    if (!rc)
        rc = usmarr_array_copy_into(side, source);
    if (!rc)
        rc = usmarr_context_finish(usmarr_storage_context(storage));
    usmarr_array_release(source);
    ck_assert_msg(rc == 0, "writing a storage: %s: %s", usmarr_error_name(rc), usmarr_last_error_detail());
}

void test_storage_read(usmarr_storage_t *storage, double *values)
{
    usmarr_array_t *side = NULL, *converted = NULL;
    usmarr_sync_t state = USMARR_SYNC_CLEAN;
    usmarr_storage_kind_t kind = usmarr_storage_kind(storage);
    int rc = 0;
    if (kind == USMARR_STORAGE_MANAGED)
        rc = usmarr_sync_state_get(usmarr_storage_sync_state(storage), &state);
    if (!rc && (kind == USMARR_STORAGE_HOST || state == USMARR_SYNC_HOST_DIRTY))
        rc = usmarr_storage_host_array(storage, false, &side);
    else if (!rc)
        rc = usmarr_storage_device_array(storage, false, &side);
    if (!rc)
        rc = usmarr_array_astype(side, USMARR_FLOAT64, USMARR_ORDER_C, NULL, &converted);
    if (!rc)
        rc = usmarr_array_copy_to_host(converted, values, NULL);
    usmarr_array_release(converted);
    ck_assert_msg(rc == 0, "reading a storage: %s: %s", usmarr_error_name(rc), usmarr_last_error_detail());
}

/* Prints this rank's failures (rank 0's are in Check's own report). */
static void print_failures(SRunner *sr)
{
    TestResult **failures = srunner_failures(sr);
    int n = srunner_ntests_failed(sr);
    for (int i = 0; i < n; i++)
        printf("mpi_runner: rank %d: %s:%d: %s: %s\n", test_world_rank, tr_lfile(failures[i]), tr_lno(failures[i]),
               tr_tcname(failures[i]), tr_msg(failures[i]));
    free(failures);
    fflush(stdout);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &test_world_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &test_world_size);
    /* Only the stencil suite has tests for more than 4 ranks. */
    bool only_wide = argc > 2 && !strcmp(argv[1], "--ranks");
    if (only_wide)
        test_only_ranks = atoi(argv[2]);
    usmarr_device_info_t *devs = NULL;
    size_t n = 0;
    if (usmarr_devices_list(&devs, &n)) {
        fprintf(stderr, "mpi_runner: listing devices failed: %s\n", usmarr_last_error_detail());
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    const char *only = getenv("USMARR_TEST_DEVICE");
    const char *require = getenv("USMARR_REQUIRE_DEVICE");
    int failed = 0, total = 0, devices_tested = 0;
    for (size_t i = 0; i < n; i++) {
        if (!devs[i].usable || (only && *only && strcmp(only, devs[i].selector)))
            continue;
        test_selector = devs[i].selector;
        if (test_world_rank == 0)
            printf("mpi_runner: %d ranks on %s / %s as \"%s\"\n", test_world_size, devs[i].platform_name,
                   devs[i].device_name, test_selector);
        SRunner *sr = srunner_create(only_wide ? suite_mpi_stencil() : suite_mpi_grid());
        if (!only_wide) {
            srunner_add_suite(sr, suite_mpi_exchange());
            srunner_add_suite(sr, suite_mpi_scatter());
            srunner_add_suite(sr, suite_mpi_stencil());
        }
        srunner_set_fork_status(sr, CK_NOFORK);
        srunner_run_all(sr, test_world_rank == 0 ? CK_NORMAL : CK_SILENT);
        if (test_world_rank != 0)
            print_failures(sr);
        failed += srunner_ntests_failed(sr);
        total += srunner_ntests_run(sr);
        srunner_free(sr);
        devices_tested++;
    }
    usmarr_devices_free(devs);
    int any_failed = 0, local = failed > 0 || (devices_tested == 0 && require && !strcmp(require, "1"));
    MPI_Allreduce(&local, &any_failed, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
    if (test_world_rank == 0) {
        if (devices_tested == 0)
            printf("mpi_runner: no usable USM device%s\n", local ? " (USMARR_REQUIRE_DEVICE=1: failing)" : "");
        else
            printf("mpi_runner: %d ranks, %d device(s), %d test runs per rank, %s\n", test_world_size, devices_tested,
                   total, any_failed ? "FAILED on some rank" : "all passed on every rank");
    }
    MPI_Finalize();
    return any_failed ? 1 : devices_tested ? 0 : 77;
}
