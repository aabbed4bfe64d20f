/* The NumPy case files written by tests/gen/gen_index_cases.py (and gen_storage_cases.py):
 * blocks of lines headed by "<keyword> <name>" and closed by "end".  Shared by the view,
 * manip and storage_ops suites. */
#ifndef USMARR_TESTS_CASE_FILE_H
#define USMARR_TESTS_CASE_FILE_H

#include <usmarr.h>

#define CASE_MAX_LINES 16

struct case_entry {
    char *lines[CASE_MAX_LINES]; /* the lines between the header and "end" */
    int nlines;
    char name[64];
};

/* USMARR_INDEX_CASES, else tests/index_cases.txt (generated in the build directory). */
const char *case_file_path(void);

/* Reads up to `max` blocks headed by `keyword` (e.g. "case", "mcase") into a calloc'ed
 * array; blocks of other keywords are skipped.  An unreadable file gives no cases, so
 * that the caller's assertion names the path. */
struct case_entry *case_file_load(const char *keyword, int max, int *count);
/* The same from another case file in this format (tests/storage_cases.txt). */
struct case_entry *case_file_load_from(const char *path, const char *keyword, int max, int *count);
/* The same from `file` in the build's tests directory (USMARR_TEST_BUILDDIR, else tests). */
struct case_entry *case_file_load_built(const char *file, const char *keyword, int max, int *count);

/* The dtype whose usmarr_dtype_name() is `name`; an unknown name fails the test. */
usmarr_dtype_t case_dtype_named(const char *name);
/* Splits `line` (modified) at ";" into at most `max` fields, spaces trimmed. */
int case_fields(char *line, char **f, int max);
/* Reads at most `max` whitespace-separated integers of `s` into `v`; returns how many. */
int case_ints(const char *s, int64_t *v, int max);
/* The elements of a "<tag> v v v" line into `dst`: elements of `size` bytes given as the
 * hexadecimal integer of their bytes (little-endian, 16-byte ones included), or decimal
 * int64 when size is 0; returns the count.  A line of another tag fails the test. */
int64_t case_values(char *line, const char *tag, void *dst, size_t size);

#endif
