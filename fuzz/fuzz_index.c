/* Fuzz target: usmarr_index_parse() on arbitrary text.
 *
 * Beyond "never crashes, never reads past the NUL" it checks the documented contract:
 * success or USMARR_ERROR_PARSE with a column in the detail and count 0; accepted items
 * are well-formed (no zero step, at most one ellipsis, no negative '@N'); the capacity is honoured exactly
 * (item buffers are heap blocks of exactly that many items); and the items, written
 * back as canonical text, parse to the same items. */
#include "fuzz.h"

#include <inttypes.h>
#include <string.h>

/* Parses `text` into a heap block of exactly `capacity` items. */
static int parse(const char *text, size_t capacity, usmarr_index_item_t **items, size_t *count)
{
    *items = malloc(capacity ? capacity * sizeof **items : 1);
    if (!*items)
        abort();
    *count = 12345;
    int rc = usmarr_index_parse(text, *items, capacity, count);
    if (rc) {
        FUZZ_CHECK(rc == USMARR_ERROR_PARSE, "\"%s\" failed with %s", text, usmarr_error_name(rc));
        FUZZ_CHECK(*count == 0, "a failed parse left count=%zu", *count);
        FUZZ_CHECK(strstr(usmarr_last_error_detail(), "column") || strstr(usmarr_last_error_detail(), "capacity"),
                   "the detail names no column");
    } else {
        FUZZ_CHECK(*count <= capacity, "count=%zu exceeds capacity %zu", *count, capacity);
    }
    return rc;
}

static bool same_item(const usmarr_index_item_t *a, const usmarr_index_item_t *b)
{
    if (a->kind != b->kind)
        return false;
    if (a->kind == USMARR_INDEX_INTEGER || a->kind == USMARR_INDEX_ARRAY)
        return a->index == b->index;
    if (a->kind != USMARR_INDEX_SLICE)
        return true;
    return a->has_start == b->has_start && a->has_stop == b->has_stop && a->has_step == b->has_step &&
           (!a->has_start || a->start == b->start) && (!a->has_stop || a->stop == b->stop) && a->step == b->step;
}

/* The canonical text of an index: "1, -2:, ::3, None, ...". */
static char *render(const usmarr_index_item_t *items, size_t count)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        abort();
    for (size_t i = 0; i < count; i++) {
        const usmarr_index_item_t *it = &items[i];
        if (i)
            fputs(", ", f);
        switch (it->kind) {
        case USMARR_INDEX_INTEGER:
            fprintf(f, "%" PRId64, it->index);
            break;
        case USMARR_INDEX_SLICE:
            if (it->has_start)
                fprintf(f, "%" PRId64, it->start);
            fputc(':', f);
            if (it->has_stop)
                fprintf(f, "%" PRId64, it->stop);
            if (it->has_step)
                fprintf(f, ":%" PRId64, it->step);
            break;
        case USMARR_INDEX_NEWAXIS:
            fputs("None", f);
            break;
        case USMARR_INDEX_ARRAY:
            fprintf(f, "@%" PRId64, it->index);
            break;
        default:
            fputs("...", f);
            break;
        }
    }
    if (fclose(f) != 0)
        abort();
    return text;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_string(data, size);
    usmarr_index_item_t *items;
    size_t n;
    if (parse(text, USMARR_MAX_INDEX_ITEMS, &items, &n) == 0) {
        int ellipses = 0;
        for (size_t i = 0; i < n; i++) {
            const usmarr_index_item_t *it = &items[i];
            FUZZ_CHECK(it->kind >= USMARR_INDEX_INTEGER && it->kind <= USMARR_INDEX_ARRAY, "item %zu kind %d", i,
                       (int)it->kind);
            FUZZ_CHECK(it->kind != USMARR_INDEX_ARRAY || it->index >= 0, "item %zu: array @%" PRId64, i, it->index);
            FUZZ_CHECK(it->kind != USMARR_INDEX_SLICE || it->step != 0, "item %zu has step 0", i);
            FUZZ_CHECK(it->kind != USMARR_INDEX_SLICE || it->has_step || it->step == 1,
                       "item %zu: omitted step is %" PRId64, i, it->step);
            ellipses += it->kind == USMARR_INDEX_ELLIPSIS;
        }
        FUZZ_CHECK(ellipses <= 1, "%d ellipses accepted", ellipses);

        /* Exactly n items fit in a capacity of n and not in n - 1. */
        usmarr_index_item_t *again;
        size_t m;
        FUZZ_CHECK(parse(text, n, &again, &m) == 0 && m == n, "\"%s\" fails with capacity %zu", text, n);
        free(again);
        if (n > 0) {
            FUZZ_CHECK(parse(text, n - 1, &again, &m) != 0, "%zu items fit in capacity %zu", n, n - 1);
            free(again);
        }

        /* The canonical text parses to the same items. */
        char *canonical = render(items, n);
        FUZZ_CHECK(parse(canonical, n, &again, &m) == 0 && m == n, "canonical text \"%s\" of \"%s\" is refused",
                   canonical, text);
        for (size_t i = 0; i < n; i++)
            FUZZ_CHECK(same_item(&items[i], &again[i]), "item %zu of \"%s\" differs after \"%s\"", i, text, canonical);
        free(again);
        free(canonical);
    }
    free(items);
    free(text);
    return 0;
}
