/* Independent answers for the MPI suites: plain host loops, no library calls. */
#ifndef USMARR_TESTS_MPI_ORACLE_H
#define USMARR_TESTS_MPI_ORACLE_H

#include <stdbool.h>
#include <stdint.h>

/* One rank's view of a decomposed domain, in I, J, K order. */
struct oracle_domain {
    int64_t shape[3];       /* global inner points */
    bool periodic[3];
    int64_t start[3];       /* the rank's block */
    int64_t extent[3];
    int64_t halo[3][2];     /* (lower, upper) */
};

/* The block of `index` among `parts` over n points: the first n%parts one larger. */
void oracle_block(int64_t n, int parts, int index, int64_t *start, int64_t *extent);

/* The value planted at a global inner point: 1 + its C-order linear index (distinct,
 * exact in every dtype the tests use). */
double oracle_planted(const int64_t shape[3], const int64_t global[3]);

/* The planted field of a rank before an exchange: inner points planted, halo cells
 * `sentinel`; `out` has the rank's full extent (halo included) in I, J, K C order. */
void oracle_plant(const struct oracle_domain *d, double sentinel, double *out);

/* What an exchange leaves in the same field: each halo cell holds the planted value of
 * the global point it mirrors (wrapping periodic axes) when a neighbour sends it (faces
 * always, edges and corners only with `corners`), else still `sentinel`. */
void oracle_after_exchange(const struct oracle_domain *d, bool corners, double sentinel, double *out);

enum oracle_stencil { ORACLE_HEAT7, ORACLE_BOX27 };

/* Deterministic initial values of the n[0]*n[1]*n[2] inner points, C order. */
void oracle_initial(const int64_t n[3], double *inner);

/* Iterates a stencil `steps` times on one process: `u` is the global field with a halo
 * of 1, (n+2) points per axis, C order; the halo is zero on non-periodic axes and
 * re-wrapped before every step on periodic ones.  The operations and their order are
 * the ones tests/mpi/test_mpi_stencil.c enqueues: the results must agree bitwise. */
void oracle_stencil_run(enum oracle_stencil stencil, const int64_t n[3], const bool periodic[3], int steps,
                        double alpha, double *u);

#endif
