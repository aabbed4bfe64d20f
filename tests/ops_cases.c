/* Reader for the NumPy oracle file. */
#include "ops_cases.h"
#include "common.h"

#include <stdio.h>
#include <stdlib.h>

FILE *ops_cases_open(void)
{
    const char *path = getenv("USMARR_OPS_CASES");
    if (!path || !*path)
        path = "tests/ops_cases.txt";
    FILE *f = fopen(path, "r");
    ck_assert_msg(f != NULL, "cannot open the NumPy oracle %s (make check generates it with $PYTHON_NUMPY "
                             "tests/gen_ops_cases.py; set USMARR_OPS_CASES to run from elsewhere)", path);
    return f;
}

int ops_cases_split(char *line, char **fields, int max)
{
    int n = 0;
    char *save = NULL;
    for (char *tok = strtok_r(line, " \n", &save); tok && n < max; tok = strtok_r(NULL, " \n", &save))
        fields[n++] = tok;
    return n;
}

int ops_cases_dtype(const char *name)
{
    static const char *const names[USMARR_DTYPE_COUNT] = {
        "bool",   "int8",    "int16",   "int32",   "int64",   "uint8",     "uint16",
        "uint32", "uint64",  "float16", "float32", "float64", "complex64", "complex128",
    };
    for (int i = 0; i < USMARR_DTYPE_COUNT; i++)
        if (!strcmp(names[i], name))
            return i;
    return -1;
}
