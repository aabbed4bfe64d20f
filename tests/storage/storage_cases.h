/* Reader and runner of the storage operations' NumPy cases (tests/storage_cases.txt,
 * written by tests/gen/gen_storage_cases.py), for tests/storage/test_storage_ops.c. */
#ifndef USMARR_TESTS_STORAGE_CASES_H
#define USMARR_TESTS_STORAGE_CASES_H

#include <usmarr.h>

#include "../harness/case_file.h"

/* A storage as the generator describes it (SPEC in gen_storage_cases.py). */
struct spec {
    usmarr_dtype_t dtype;
    char axes[4], layout[4], kind[16], state[16];
    int ndim, domain;
    int64_t shape[3], halo[3][2], aligned[3], alignment, size;
    unsigned char *values;
};

/* A storage of `s` (kind, parameters, values planted as the spec's state says), or its
 * domain view when the spec says so. */
usmarr_storage_t *storage_cases_make(usmarr_context_t *ctx, const struct spec *s);
/* The storage's elements in C order of its axes, from its host side when it has one. */
void storage_cases_read(usmarr_storage_t *st, void *buf);
/* The sync state of a managed pair. */
usmarr_sync_t storage_cases_sync(const usmarr_storage_t *st);
/* Runs one case block and checks its expectation (fails the test on a mismatch). */
void storage_cases_run(usmarr_context_t *ctx, struct case_entry *ce);

#endif
