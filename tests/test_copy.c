#include "common.h"
START_TEST(test_copy_placeholder) {}
END_TEST
Suite *suite_copy(void)
{
    Suite *s = suite_create("copy");
    TCase *tc = tcase_create("copy");
    tcase_add_test(tc, test_copy_placeholder);
    suite_add_tcase(s, tc);
    return s;
}
