/* Shared by the test suites: the device under test and small helpers. */
#ifndef USMARR_TESTS_COMMON_H
#define USMARR_TESTS_COMMON_H

#include <stdlib.h>
#include <string.h>
#include <usmarr.h>

#include "check_usmarr.h"
#include "suites.h"

/* Each tests/test_<module>.c defines suite_<module>(). */
#define TEST_DECLARE_SUITE_(name) Suite *suite_##name(void);
TEST_SUITES(TEST_DECLARE_SUITE_)
#undef TEST_DECLARE_SUITE_

/* Selector of the device the runner is currently testing ("opencl:cpu:0", ...). */
extern const char *test_selector;

/* A fresh context on the device under test; the test releases it. */
usmarr_context_t *test_context(void);

/* The context on the device under test that the tests of this process share (a
 * reference: the test releases it), for the loops over NumPy cases, which need no fresh
 * one: NVIDIA's OpenCL takes about 0.25 s to make a context (and longer with other
 * processes making theirs), so a context per case made those suites slow on a GPU. */
usmarr_context_t *test_shared_context(void);

/* A fresh context casts int32 to float32 through the engine (the cast program, compiled
 * or loaded), checked on the host; `round` varies the values.  For the cache and build
 * suites (tests/engine/test_cache_api.c). */
void test_cast_round(int round);

/* Every kernel-shape candidate of the tuner, grouped into as few forced shapes (texts for
 * USMARR_KERNEL_SHAPE) as set each candidate's fields once; returns how many (at most
 * `max`).  In tests/engine/test_shape.c. */
int test_shape_candidate_combos(char (*combos)[512], int max);

/* Whether the loops over every dtype take `d` on this run: USMARR_TEST_DTYPES, a
 * comma-separated list of dtype names, samples them (the runner's modes: their code paths
 * differ from a device run's by the kernel shape and the USM kinds, which one dtype per
 * element width and kind exercises, while each dtype's own code is the device run's);
 * unset, every dtype. */
static inline bool test_dtype_sampled(usmarr_dtype_t d)
{
    const char *list = getenv("USMARR_TEST_DTYPES"), *name = usmarr_dtype_name(d);
    if (!list)
        return true;
    size_t n = strlen(name);
    for (const char *p = list; (p = strstr(p, name)); p += n)
        if ((p == list || p[-1] == ',') && (p[n] == ',' || !p[n]))
            return true;
    return false;
}

/* Whether a loop over every dtype leaves `d` out on this device: float64 and complex128
 * where the device has no fp64, and the dtypes USMARR_TEST_DTYPES does not sample. */
static inline bool test_dtype_skipped(usmarr_context_t *ctx, usmarr_dtype_t d)
{
    return (!usmarr_context_info(ctx)->fp64 && (d == USMARR_FLOAT64 || d == USMARR_COMPLEX128)) ||
           !test_dtype_sampled(d);
}

/* The least number of cases a loop over an oracle file must have run: `n`, or half of it
 * where the dtypes are sampled (test_dtype_sampled()). */
static inline int test_case_floor(int n)
{
    return getenv("USMARR_TEST_DTYPES") ? n / 2 : n;
}

/* Whether the device under test offers USM of `kind`.  When it does not (a device with
 * device USM alone, or the runner's USMARR_USM_KINDS=device mode), it first checks that
 * asking for that kind fails as it must: USMARR_ERROR_UNSUPPORTED, nothing allocated, and
 * a detail naming the device's capability query. */
static inline bool test_kind_offered(usmarr_context_t *ctx, usmarr_usm_kind_t kind)
{
    const usmarr_device_info_t *info = usmarr_context_info(ctx);
    uint64_t caps = kind == USMARR_USM_HOST     ? info->host_mem_caps
                    : kind == USMARR_USM_SHARED ? info->single_device_shared_caps
                                                : info->device_mem_caps;
    if (caps & 1) /* CL_UNIFIED_SHARED_MEMORY_ACCESS_INTEL */
        return true;
    usmarr_memory_t *m = NULL;
    ck_assert_int_eq(usmarr_memory_create(ctx, kind, 64, 0, &m), USMARR_ERROR_UNSUPPORTED);
    ck_assert_ptr_null(m);
    ck_assert_ptr_nonnull(strstr(usmarr_last_error_detail(), "_MEM_CAPABILITIES_INTEL is 0x0"));
    return false;
}

/* Ends a test that needs USM of `kind` (passing, after test_kind_offered()'s check of the
 * refusal) when the device lacks it; releases `ctx` then. */
#define TEST_NEEDS_KIND(ctx, kind)                                                             \
    do {                                                                                       \
        if (!test_kind_offered((ctx), (kind))) {                                               \
            usmarr_context_release(ctx);                                                       \
            return;                                                                            \
        }                                                                                      \
    } while (0)

#endif
