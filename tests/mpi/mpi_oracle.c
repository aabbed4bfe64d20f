/* Host loops answering the MPI suites (see mpi_oracle.h). */
#include "mpi_oracle.h"

#include <stdlib.h>
#include <string.h>

void oracle_block(int64_t n, int parts, int index, int64_t *start, int64_t *extent)
{
    int64_t start_at = 0;
    for (int p = 0; p < index; p++)
        start_at += n / parts + (p < n % parts);
    *start = start_at;
    *extent = n / parts + (index < n % parts);
}

double oracle_planted(const int64_t shape[3], const int64_t g[3])
{
    return (double)(1 + (g[0] * shape[1] + g[1]) * shape[2] + g[2]);
}

static int64_t full_extent(const struct oracle_domain *d, int a) { return d->extent[a] + d->halo[a][0] + d->halo[a][1]; }

void oracle_plant(const struct oracle_domain *d, double sentinel, double *out)
{
    int64_t l[3], n = 0;
    for (l[0] = 0; l[0] < full_extent(d, 0); l[0]++)
        for (l[1] = 0; l[1] < full_extent(d, 1); l[1]++)
            for (l[2] = 0; l[2] < full_extent(d, 2); l[2]++) {
                int64_t g[3];
                bool inner = true;
                for (int a = 0; a < 3; a++) {
                    g[a] = d->start[a] + l[a] - d->halo[a][0];
                    inner = inner && l[a] >= d->halo[a][0] && l[a] < d->halo[a][0] + d->extent[a];
                }
                out[n++] = inner ? oracle_planted(d->shape, g) : sentinel;
            }
}

void oracle_after_exchange(const struct oracle_domain *d, bool corners, double sentinel, double *out)
{
    int64_t l[3], n = 0;
    for (l[0] = 0; l[0] < full_extent(d, 0); l[0]++)
        for (l[1] = 0; l[1] < full_extent(d, 1); l[1]++)
            for (l[2] = 0; l[2] < full_extent(d, 2); l[2]++) {
                int64_t g[3];
                int outside_block = 0;
                bool reachable = true;
                for (int a = 0; a < 3; a++) {
                    g[a] = d->start[a] + l[a] - d->halo[a][0];
                    outside_block += l[a] < d->halo[a][0] || l[a] >= d->halo[a][0] + d->extent[a];
                    if (g[a] < 0 || g[a] >= d->shape[a]) {
                        if (d->periodic[a])
                            g[a] = (g[a] + d->shape[a]) % d->shape[a];
                        else
                            reachable = false; /* beyond a non-periodic edge: nobody sends it */
                    }
                }
                if (outside_block > 1 && !corners)
                    reachable = false;
                out[n++] = outside_block == 0 || reachable ? oracle_planted(d->shape, g) : sentinel;
            }
}

void oracle_initial(const int64_t n[3], double *inner)
{
    /* A 64-bit LCG: values in [0, 1) with all 53 bits used, nothing special about them. */
    uint64_t state = 0x9E3779B97F4A7C15u;
    int64_t count = n[0] * n[1] * n[2];
    for (int64_t i = 0; i < count; i++) {
        state = state * 6364136223846793005u + 1442695040888963407u;
        inner[i] = (double)(state >> 11) / 9007199254740992.0;
    }
}

#define AT(u, m, i, j, k) (u)[((i) * (m)[1] + (j)) * (m)[2] + (k)]

/* Copies opposite inner layers into the halo of each periodic axis in turn, over the
 * full extent of the other axes, so that edges and corners wrap too. */
static void wrap_halo(const int64_t n[3], const bool periodic[3], double *u)
{
    int64_t m[3] = {n[0] + 2, n[1] + 2, n[2] + 2}, i[3];
    for (int a = 0; a < 3; a++) {
        if (!periodic[a])
            continue;
        for (i[0] = 0; i[0] < m[0]; i[0]++)
            for (i[1] = 0; i[1] < m[1]; i[1]++)
                for (i[2] = 0; i[2] < m[2]; i[2]++) {
                    if (i[a] != 0 && i[a] != m[a] - 1)
                        continue;
                    int64_t from[3] = {i[0], i[1], i[2]};
                    from[a] = i[a] == 0 ? n[a] : 1;
                    AT(u, m, i[0], i[1], i[2]) = AT(u, m, from[0], from[1], from[2]);
                }
    }
}

void oracle_stencil_run(enum oracle_stencil stencil, const int64_t n[3], const bool periodic[3], int steps,
                        double alpha, double *u)
{
    int64_t m[3] = {n[0] + 2, n[1] + 2, n[2] + 2};
    size_t bytes = sizeof(double) * (size_t)(m[0] * m[1] * m[2]);
    double *next = malloc(bytes);
    memcpy(next, u, bytes);
    for (int step = 0; step < steps; step++) {
        wrap_halo(n, periodic, u);
        for (int64_t i = 1; i <= n[0]; i++)
            for (int64_t j = 1; j <= n[1]; j++)
                for (int64_t k = 1; k <= n[2]; k++) {
                    double t;
                    if (stencil == ORACLE_HEAT7) {
                        t = AT(u, m, i - 1, j, k) + AT(u, m, i + 1, j, k);
                        t = t + AT(u, m, i, j - 1, k);
                        t = t + AT(u, m, i, j + 1, k);
                        t = t + AT(u, m, i, j, k - 1);
                        t = t + AT(u, m, i, j, k + 1);
                        double six = AT(u, m, i, j, k) * 6.0;
                        t = t - six;
                        t = t * alpha;
                        t = AT(u, m, i, j, k) + t;
                    } else {
                        /* The 27 points in lexicographic offset order. */
                        int first = 1;
                        t = 0;
                        for (int di = -1; di <= 1; di++)
                            for (int dj = -1; dj <= 1; dj++)
                                for (int dk = -1; dk <= 1; dk++) {
                                    double v = AT(u, m, i + di, j + dj, k + dk);
                                    t = first ? v : t + v;
                                    first = 0;
                                }
                        t = t * (1.0 / 27.0);
                    }
                    AT(next, m, i, j, k) = t;
                }
        for (int64_t i = 1; i <= n[0]; i++)
            for (int64_t j = 1; j <= n[1]; j++)
                memcpy(&AT(u, m, i, j, 1), &AT(next, m, i, j, 1), sizeof(double) * (size_t)n[2]);
    }
    free(next);
}
