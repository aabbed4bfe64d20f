/* unstack and meshgrid (doc/indexing.md): views and broadcast copies. */
#include "index_internal.h"

#include <string.h>

int usmarr_unstack(const usmarr_array_t *x, int axis, usmarr_array_t **views, size_t capacity, size_t *count)
{
    usmarr__clear_error();
    if (!x || !count)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "unstack: %s is NULL", x ? "count" : "x");
    int ax = axis < 0 ? axis + x->ndim : axis;
    if (ax < 0 || ax >= x->ndim)
        return usmarr__fail(USMARR_ERROR_INDEX, "unstack: axis=%d is out of range for %d dims", axis, x->ndim);
    int64_t n = x->shape[ax];
    *count = (size_t)n;
    if ((size_t)n > capacity || (n > 0 && !views))
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "unstack: %lld views do not fit capacity=%zu",
                            (long long)n, views ? capacity : 0);
    usmarr_index_item_t items[USMARR_MAX_NDIM];
    for (int d = 0; d < ax; d++)
        items[d] = usmarr_index_slice(NULL, NULL, NULL);
    for (int64_t i = 0; i < n; i++) {
        items[ax] = usmarr_index_integer(i);
        int rc = usmarr_array_index(x, items, (size_t)ax + 1, &views[i]);
        if (rc) {
            for (int64_t j = 0; j < i; j++) {
                usmarr_array_release(views[j]);
                views[j] = NULL;
            }
            return rc;
        }
    }
    return 0;
}

int usmarr_meshgrid(int count, const usmarr_array_t *const *arrays, const char *indexing, usmarr_array_t **results)
{
    usmarr__clear_error();
    if (!arrays || !results || !indexing)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "meshgrid: %s is NULL",
                            !arrays ? "arrays" : !results ? "results" : "indexing");
    if (count < 1 || count > USMARR_MAX_NDIM)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "meshgrid: count=%d is outside [1, %d]", count,
                            USMARR_MAX_NDIM);
    bool xy = !strcmp(indexing, "xy");
    if (!xy && strcmp(indexing, "ij"))
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "meshgrid: indexing=\"%.16s\" is neither \"xy\" nor \"ij\"",
                            indexing);
    int64_t shape[USMARR_MAX_NDIM];
    int rc;
    for (int i = 0; i < count; i++) {
        if (!arrays[i])
            return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "meshgrid: arrays[%d] is NULL", i);
        if (i && (rc = usmarr__same_context(arrays[i], "an input", arrays[0], "arrays[0]")))
            return rc;
    }
    /* dimension of the grid that input i runs along */
    int pos[USMARR_MAX_NDIM];
    for (int i = 0; i < count; i++)
        pos[i] = xy && count >= 2 && i < 2 ? 1 - i : i;
    for (int i = 0; i < count; i++)
        shape[pos[i]] = usmarr_array_size(arrays[i]);
    for (int i = 0; i < count; i++)
        results[i] = NULL;
    rc = 0;
    for (int i = 0; i < count && !rc; i++) {
        int64_t one[USMARR_MAX_NDIM];
        for (int d = 0; d < count; d++)
            one[d] = d == pos[i] ? shape[d] : 1;
        usmarr_array_t *flat = NULL, *b = NULL;
        rc = usmarr_array_reshape(arrays[i], count, one, USMARR_ORDER_C, USMARR_COPY_IF_NEEDED, &flat);
        if (!rc)
            rc = usmarr_array_broadcast_to(flat, count, shape, &b);
        if (!rc)
            rc = usmarr_array_copy(b, USMARR_ORDER_C, NULL, &results[i]);
        usmarr_array_release(flat);
        usmarr_array_release(b);
    }
    if (rc)
        for (int i = 0; i < count; i++) {
            usmarr_array_release(results[i]);
            results[i] = NULL;
        }
    return rc;
}
