#include "case_file.h"

#include <check.h>
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

struct case_entry *case_file_load_built(const char *file, const char *keyword, int max, int *count)
{
    const char *dir = getenv("USMARR_TEST_BUILDDIR");
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir && *dir ? dir : "tests", file);
    return case_file_load_from(path, keyword, max, count);
}

usmarr_dtype_t case_dtype_named(const char *name)
{
    for (int d = 0; d < USMARR_DTYPE_COUNT; d++)
        if (!strcmp(usmarr_dtype_name((usmarr_dtype_t)d), name))
            return (usmarr_dtype_t)d;
    ck_abort_msg("unknown dtype %s", name);
    return USMARR_DTYPE_COUNT;
}

int case_fields(char *line, char **f, int max)
{
    int n = 0;
    char *save = NULL;
    for (char *t = strtok_r(line, ";\n", &save); t && n < max; t = strtok_r(NULL, ";\n", &save)) {
        while (*t == ' ')
            t++;
        for (size_t len = strlen(t); len > 0 && t[len - 1] == ' '; len--)
            t[len - 1] = '\0';
        f[n++] = t;
    }
    return n;
}

int case_ints(const char *s, int64_t *v, int max)
{
    int n = 0;
    char *end;
    for (long long x = strtoll(s, &end, 10); end != s && n < max; x = strtoll(s, &end, 10)) {
        v[n++] = x;
        s = end;
    }
    return n;
}

int64_t case_values(char *line, const char *tag, void *dst, size_t size)
{
    size_t tl = strlen(tag);
    ck_assert_msg(!strncmp(line, tag, tl) && (line[tl] == ' ' || line[tl] == '\n'), "expected a \"%s\" line", tag);
    char *p = line + tl, *end;
    int64_t n = 0;
    for (;;) {
        while (*p == ' ')
            p++;
        if (!*p || *p == '\n')
            break;
        if (size == 0) {
            ((int64_t *)dst)[n++] = strtoll(p, &end, 10);
        } else {
            size_t len = strspn(p, "0123456789abcdef");
            char high[17] = "0";
            if (len > 16) {
                memcpy(high, p, len - 16);
                high[len - 16] = 0;
            }
            uint64_t v[2] = {strtoull(p + (len > 16 ? len - 16 : 0), &end, 16), strtoull(high, NULL, 16)};
            memcpy((char *)dst + (size_t)n++ * size, v, size); /* little-endian */
        }
        p = end;
    }
    return n;
}
