/* placeholder */
extern int usmarr_test_cast_cases_placeholder;
int usmarr_test_cast_cases_placeholder;
