/* Errors that every rank sees: MPI failures as library codes, one status agreed by all
 * ranks, and values compared across ranks before any data moves. */
#include "mpi_internal.h"

#include <stdlib.h>
#include <string.h>

int usmarr__mpi_fail(int mpi_code, const char *what)
{
    char text[MPI_MAX_ERROR_STRING];
    int length = 0;
    if (MPI_Error_string(mpi_code, text, &length) != MPI_SUCCESS)
        snprintf(text, sizeof text, "MPI error %d", mpi_code);
    return usmarr_error_set(USMARR_ERROR_MPI, "%s: %s", what, text);
}

/* The detail travels with the code from the first failing rank, so that every rank
 * reports the same cause (a rank that failed later reports the first one too). */
struct agreed_failure {
    int code;
    char detail[768];
};

int usmarr__mpi_agree(MPI_Comm comm, int rc)
{
    int rank = 0, size = 0, first = 0;
    int err = MPI_Comm_rank(comm, &rank);
    if (err == MPI_SUCCESS)
        err = MPI_Comm_size(comm, &size);
    int mine = rc ? rank : size;
    if (err == MPI_SUCCESS)
        err = MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm);
    if (err != MPI_SUCCESS)
        return usmarr__mpi_fail(err, "agreeing on a status (MPI_Allreduce)");
    if (first == size)
        return 0;
    struct agreed_failure failure = {.code = rc};
    if (rank == first)
        snprintf(failure.detail, sizeof failure.detail, "%s", usmarr_last_error_detail());
    err = MPI_Bcast(&failure, (int)sizeof failure, MPI_BYTE, first, comm);
    if (err != MPI_SUCCESS)
        return usmarr__mpi_fail(err, "agreeing on a status (MPI_Bcast)");
    failure.detail[sizeof failure.detail - 1] = '\0';
    return usmarr_error_set(failure.code, "rank %d: %s", first, failure.detail);
}

int usmarr__mpi_compare(MPI_Comm comm, int n, const int64_t *values, int64_t *min, int64_t *max)
{
    /* One reduction gives both extremes: the minimum of (v, -v) is (min, -max). */
    int64_t stack[64] = {0};
    int64_t *in = n <= 16 ? stack : malloc(sizeof(int64_t) * 4 * (size_t)n);
    if (!in) {
        usmarr_error_set(USMARR_ERROR_OUT_OF_HOST_MEMORY, "comparing %d values across ranks", n);
        return USMARR_MPI_COMPARE_FAILED;
    }
    int64_t *out = in + 2 * n;
    for (int i = 0; i < n; i++) {
        in[i] = values[i];
        in[n + i] = -values[i];
    }
    int err = MPI_Allreduce(in, out, 2 * n, MPI_INT64_T, MPI_MIN, comm);
    int found = -1;
    if (err != MPI_SUCCESS) {
        usmarr__mpi_fail(err, "comparing values across ranks (MPI_Allreduce)");
        found = USMARR_MPI_COMPARE_FAILED;
    }
    for (int i = 0; found == -1 && i < n; i++) {
        if (out[i] != -out[n + i]) {
            found = i;
            *min = out[i];
            *max = -out[n + i];
        }
    }
    if (in != stack)
        free(in);
    return found;
}
