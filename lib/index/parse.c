/* NumPy index text ("1, ::-2, ..., None") into index items.  A hand-written scanner over
 * a NUL-terminated string: every read is at or before the NUL, every error names the
 * column. */
#include "index_internal.h"

#include <stdio.h>
#include <string.h>

usmarr_index_item_t usmarr_index_integer(int64_t index)
{
    usmarr_index_item_t it = {.kind = USMARR_INDEX_INTEGER, .index = index};
    return it;
}

usmarr_index_item_t usmarr_index_slice(const int64_t *start, const int64_t *stop, const int64_t *step)
{
    usmarr_index_item_t it = {.kind = USMARR_INDEX_SLICE, .step = 1};
    if (start) {
        it.start = *start;
        it.has_start = true;
    }
    if (stop) {
        it.stop = *stop;
        it.has_stop = true;
    }
    if (step) {
        it.step = *step;
        it.has_step = true;
    }
    return it;
}

usmarr_index_item_t usmarr_index_newaxis(void)
{
    usmarr_index_item_t it = {.kind = USMARR_INDEX_NEWAXIS};
    return it;
}

usmarr_index_item_t usmarr_index_ellipsis(void)
{
    usmarr_index_item_t it = {.kind = USMARR_INDEX_ELLIPSIS};
    return it;
}

usmarr_index_item_t usmarr_index_array(int64_t position)
{
    usmarr_index_item_t it = {.kind = USMARR_INDEX_ARRAY, .index = position};
    return it;
}

struct scanner {
    const char *text;
    const char *p;
};

/* Describes the character at `at` for messages: 'x', "the end", or a byte in hex. */
static void describe(const char *at, char *buf, size_t size)
{
    unsigned char c = (unsigned char)*at;
    if (c == 0)
        snprintf(buf, size, "the end");
    else if (c >= 0x20 && c < 0x7f)
        snprintf(buf, size, "'%c'", c);
    else
        snprintf(buf, size, "byte 0x%02x", c);
}

/* Fails with "index "<text>" column N: <message>, found <what is at `at`>".  Long texts
 * are shown as a window around the column; non-printable bytes as '?'. */
static int parse_fail(const struct scanner *s, const char *at, const char *message)
{
    size_t column = (size_t)(at - s->text) + 1;
    size_t len = strlen(s->text);
    size_t from = column > 40 ? column - 40 : 0;
    size_t to = len - from > 80 ? from + 80 : len;
    char shown[96];
    size_t n = 0;
    for (size_t i = from; i < to && n + 1 < sizeof shown; i++) {
        unsigned char c = (unsigned char)s->text[i];
        shown[n++] = (c >= 0x20 && c < 0x7f) ? (char)c : '?';
    }
    shown[n] = 0;
    char found[32];
    describe(at, found, sizeof found);
    return usmarr__fail(USMARR_ERROR_PARSE, "index \"%s%s%s\" column %zu: %s, found %s", from ? "..." : "", shown,
                        to < len ? "..." : "", column, message, found);
}

static void skip_space(struct scanner *s)
{
    while (*s->p == ' ' || *s->p == '\t' || *s->p == '\n' || *s->p == '\r')
        s->p++;
}

static bool is_digit(char c) { return c >= '0' && c <= '9'; }
static bool is_word(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || is_digit(c) || c == '_'; }

/* An optional integer at the current position: true and *value when one was read;
 * false with *rc == 0 when none starts here; *rc set on a malformed or huge one. */
static bool scan_integer(struct scanner *s, int64_t *value, int *rc)
{
    *rc = 0;
    const char *start = s->p;
    const char *q = s->p;
    bool negative = false;
    if (*q == '+' || *q == '-') {
        negative = *q == '-';
        q++;
        while (*q == ' ' || *q == '\t')
            q++;
        if (!is_digit(*q)) {
            *rc = parse_fail(s, q, "expected digits after the sign");
            return false;
        }
    }
    if (!is_digit(*q))
        return false;
    /* Accumulate negatively so that INT64_MIN fits. */
    int64_t v = 0;
    for (; is_digit(*q); q++) {
        int d = *q - '0';
        if (v < (INT64_MIN + d) / 10) {
            *rc = parse_fail(s, start, "the integer does not fit in 64 bits");
            return false;
        }
        v = v * 10 - d;
    }
    if (is_word(*q)) {
        *rc = parse_fail(s, q, "expected the integer to end");
        return false;
    }
    if (!negative) {
        if (v == INT64_MIN) {
            *rc = parse_fail(s, start, "the integer does not fit in 64 bits");
            return false;
        }
        v = -v;
    }
    *value = v;
    s->p = q;
    return true;
}

static bool starts_word(const char *p, const char *word)
{
    size_t n = strlen(word);
    return strncmp(p, word, n) == 0 && !is_word(p[n]);
}

static const char *const expect_item = "expected an integer, a slice, '...', 'None', 'newaxis' or '@N'";

/* One item at the current position (after white space). */
static int scan_item(struct scanner *s, usmarr_index_item_t *item)
{
    int rc;
    const char *at = s->p;
    if (strncmp(s->p, "...", 3) == 0) {
        s->p += 3;
        *item = usmarr_index_ellipsis();
        return 0;
    }
    static const char *const newaxis_words[] = {"None", "newaxis", "np.newaxis", "numpy.newaxis"};
    for (size_t w = 0; w < sizeof newaxis_words / sizeof *newaxis_words; w++) {
        if (starts_word(s->p, newaxis_words[w])) {
            s->p += strlen(newaxis_words[w]);
            *item = usmarr_index_newaxis();
            return 0;
        }
    }
    if (*s->p == '@') { /* an index array: @N, N a non-negative decimal integer */
        s->p++;
        int64_t position = 0;
        const char *digits = s->p;
        if (!is_digit(*digits))
            return parse_fail(s, digits, "expected the position of an index array after '@'");
        if (!scan_integer(s, &position, &rc))
            return rc;
        *item = usmarr_index_array(position);
        return 0;
    }
    int64_t values[3] = {0, 0, 1};
    bool present[3] = {false, false, false};
    present[0] = scan_integer(s, &values[0], &rc);
    if (rc)
        return rc;
    skip_space(s);
    if (*s->p != ':') {
        if (!present[0])
            return parse_fail(s, at, expect_item);
        *item = usmarr_index_integer(values[0]);
        return 0;
    }
    for (int part = 1; part < 3; part++) {
        if (*s->p != ':')
            break;
        s->p++;
        skip_space(s);
        const char *value_at = s->p;
        present[part] = scan_integer(s, &values[part], &rc);
        if (rc)
            return rc;
        if (part == 2 && present[2] && values[2] == 0)
            return parse_fail(s, value_at, "the slice step must not be zero");
        skip_space(s);
    }
    if (*s->p == ':')
        return parse_fail(s, s->p, "expected at most two ':' in a slice");
    *item = usmarr_index_slice(present[0] ? &values[0] : NULL, present[1] ? &values[1] : NULL,
                               present[2] ? &values[2] : NULL);
    return 0;
}

int usmarr_index_parse(const char *text, usmarr_index_item_t *items, size_t capacity, size_t *count)
{
    usmarr__clear_error();
    if (count)
        *count = 0;
    if (!text || !items || !count)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s is NULL", !text ? "text" : !items ? "items" : "count");
    struct scanner s = {text, text};
    size_t n = 0;
    const char *ellipsis_at = NULL;
    skip_space(&s);
    while (*s.p) {
        if (n == capacity)
            return parse_fail(&s, s.p, capacity ? "expected no more items (the capacity is exhausted)"
                                                 : "expected no items (capacity is 0)");
        const char *at = s.p;
        usmarr_index_item_t item;
        int rc = scan_item(&s, &item);
        if (rc)
            return rc;
        if (item.kind == USMARR_INDEX_ELLIPSIS) {
            if (ellipsis_at)
                return parse_fail(&s, at, "expected at most one '...' in an index");
            ellipsis_at = at;
        }
        items[n++] = item;
        skip_space(&s);
        if (*s.p == ',') {
            s.p++;
            skip_space(&s);
        } else if (*s.p) {
            return parse_fail(&s, s.p, "expected ',' or the end");
        }
    }
    *count = n;
    return 0;
}
