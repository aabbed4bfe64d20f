/* The NumPy case files written by tests/gen/gen_index_cases.py (and gen_storage_cases.py):
 * blocks of lines headed by "<keyword> <name>" and closed by "end".  Shared by the view,
 * manip and storage_ops suites. */
#ifndef USMARR_TESTS_CASE_FILE_H
#define USMARR_TESTS_CASE_FILE_H

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

#endif
