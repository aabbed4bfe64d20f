#include "case_file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *case_file_path(void)
{
    const char *path = getenv("USMARR_INDEX_CASES");
    return path && *path ? path : "tests/index_cases.txt";
}

struct case_entry *case_file_load(const char *keyword, int max, int *count)
{
    return case_file_load_from(case_file_path(), keyword, max, count);
}

struct case_entry *case_file_load_from(const char *path, const char *keyword, int max, int *count)
{
    struct case_entry *cases = calloc((size_t)max, sizeof *cases);
    *count = 0;
    FILE *f = fopen(path, "r");
    if (!f || !cases)
        return cases;
    size_t klen = strlen(keyword);
    char *line = NULL;
    size_t cap = 0;
    struct case_entry *c = NULL;
    while (getline(&line, &cap, f) > 0) {
        line[strcspn(line, "\n")] = 0;
        if (!strncmp(line, keyword, klen) && line[klen] == ' ') {
            if (*count == max)
                break;
            c = &cases[(*count)++];
            snprintf(c->name, sizeof c->name, "%s", line + klen + 1);
        } else if (!strcmp(line, "end")) {
            c = NULL;
        } else if (c && c->nlines < CASE_MAX_LINES) {
            c->lines[c->nlines++] = strdup(line);
        }
    }
    free(line);
    fclose(f);
    return cases;
}
