/* Helpers shared by the storage suite's files (tests/storage/test_storage*.c). */
#ifndef USMARR_TESTS_TEST_STORAGE_H
#define USMARR_TESTS_TEST_STORAGE_H

#include <usmarr.h>

#include "../harness/check_usmarr.h"

/* Options with the context, axes and `n` shape entries set, everything else unset. */
usmarr_storage_options_t storage_opts(usmarr_context_t *ctx, const char *axes, int n, const int64_t *shape);
/* Reads (writes) a side's elements in C index order through the raw bytes of its whole
 * block: the oracle never goes through the library's gathers or the sync logic. */
void storage_read_side(const usmarr_array_t *a, void *out);
void storage_write_side(usmarr_array_t *a, const void *in);

/* Each file of the suite adds its tests to a test case of suite_storage(). */
void storage_add_param_tests(TCase *t);
void storage_add_sync_tests(TCase *t);
void storage_add_view_tests(TCase *t);
void storage_add_wrap_tests(TCase *t);

#endif
