/* Runs every suite on every usable USM device found (OCL_ICD_VENDORS decides which
 * platforms are visible).  USMARR_REQUIRE_DEVICE=1 turns "no device" into a failure;
 * otherwise the run is skipped (exit 77).  USMARR_TEST_DEVICE=SEL restricts the run to
 * one device.  Tests run unforked so that per-context kernel caches are reused. */
#include "common.h"
#include "suites.h"

#include <stdio.h>
#include <stdlib.h>

const char *test_selector;

usmarr_context_t *test_context(void)
{
    usmarr_context_t *ctx = NULL;
    int rc = usmarr_context_create(test_selector, &ctx);
    ck_assert_msg(rc == 0, "context on %s: %s: %s", test_selector, usmarr_strerror(rc), usmarr_last_error_detail());
    return ctx;
}


int main(void)
{
    usmarr_device_info_t *devs = NULL;
    size_t n = 0;
    int rc = usmarr_devices_list(&devs, &n);
    if (rc) {
        fprintf(stderr, "runner: listing devices failed: %s: %s\n", usmarr_strerror(rc), usmarr_last_error_detail());
        return 1;
    }
    const char *only = getenv("USMARR_TEST_DEVICE");
    const char *require = getenv("USMARR_REQUIRE_DEVICE");
    int failed = 0, devices_tested = 0, total = 0;
    for (size_t i = 0; i < n; i++) {
        if (!devs[i].usable) {
            printf("runner: skipping %s / %s: %s\n", devs[i].platform_name, devs[i].device_name, devs[i].reason);
            continue;
        }
        if (only && *only && strcmp(only, devs[i].selector))
            continue;
        test_selector = devs[i].selector;
        printf("runner: testing %s / %s as \"%s\"\n", devs[i].platform_name, devs[i].device_name, test_selector);
        SRunner *sr = NULL;
#define ADD_(name)                                  \
    if (!sr)                                        \
        sr = srunner_create(suite_##name());        \
    else                                            \
        srunner_add_suite(sr, suite_##name());
        TEST_SUITES(ADD_)
#undef ADD_
        srunner_set_fork_status(sr, CK_NOFORK);
        srunner_run_all(sr, CK_NORMAL);
        failed += srunner_ntests_failed(sr);
        total += srunner_ntests_run(sr);
        srunner_free(sr);
        devices_tested++;
    }
    usmarr_devices_free(devs);
    if (devices_tested == 0) {
        if (require && !strcmp(require, "1")) {
            fprintf(stderr, "runner: USMARR_REQUIRE_DEVICE=1 but no usable USM device was found "
                            "(OCL_ICD_VENDORS=%s)\n",
                    getenv("OCL_ICD_VENDORS") ? getenv("OCL_ICD_VENDORS") : "(unset)");
            return 1;
        }
        printf("runner: no usable USM device; skipping (set USMARR_REQUIRE_DEVICE=1 to fail instead)\n");
        return 77;
    }
    printf("runner: %d device(s), %d test runs\n", devices_tested, total);
    printf("runner: %d passed, %d failed\n", total - failed, failed);
    return failed ? 1 : 0;
}
