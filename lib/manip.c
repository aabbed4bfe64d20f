/* Copies that rearrange elements: roll, concat, stack, repeat, tile, and reshape's copy
 * path.  All data movement goes through the engine's strided copy (copy.c). */
#include "view_internal.h"

int usmarr__copy_in_order(const usmarr_array_t *a, usmarr_order_t order, usmarr_array_t **out)
{
    return usmarr_array_copy(a, order, NULL, out);
}
