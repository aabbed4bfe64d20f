/* Device-wide scans of lines (cl/scan.cl), the gpu shape's cumulative functions: reduce
 * the tiles, scan the tiles' totals, scan each tile with its carry.  Also the defines of
 * the gpu shape's reduction program, which holds the trees (cl/reduce.cl) and the scans, so
 * that a dtype costs one compile. */
#include "ops_internal.h"

#include <stdio.h>
#include <string.h>

#define SCAN_V 8 /* elements per work-item of a tile (cl/scan.cl SCAN_V) */
#define SCAN_ACC_MAX 16 /* the widest accumulator: a pair of doubles, complex128 */

const char *usmarr__reduce_family(const usmarr_context_t *ctx)
{
    return ctx->shape.scan_group ? USMARR__REDUCE_SOURCES "+scan" : USMARR__REDUCE_SOURCES;
}

void usmarr__reduce_defines(const usmarr_context_t *ctx, usmarr_dtype_t dtype, char *defines, size_t size)
{
    int n = snprintf(defines, size, "-DD1=%s%s", usmarr__dtype_tag(dtype),
                     usmarr_dtype_kind(dtype) == USMARR_KIND_UINT ? " -DR_UNSIGNED" : "");
    if (ctx->shape.tree_group && n > 0 && (size_t)n < size) /* one program per dtype in this shape too */
        n += snprintf(defines + n, size - (size_t)n, " -DR_TREE=%u", ctx->shape.tree_group);
    if (ctx->shape.scan_group && n > 0 && (size_t)n < size)
        snprintf(defines + n, size - (size_t)n, " -DSCAN_G=%u", ctx->shape.scan_group);
}

size_t usmarr__scan_scratch_bytes(const usmarr_context_t *ctx, int64_t lines, int64_t n)
{
    int64_t tile = (int64_t)ctx->shape.scan_group * SCAN_V, tiles = (n + tile - 1) / tile;
    return (size_t)(lines * tiles) * SCAN_ACC_MAX;
}

int usmarr__scan_lines(usmarr_context_t *ctx, const char *op, usmarr_dtype_t dtype, const void *in, void *out,
                       int64_t lines, int64_t n, bool init, void *scratch)
{
    if (lines <= 0 || n <= 0)
        return 0;
    char defines[96], name[3][48];
    usmarr__reduce_defines(ctx, dtype, defines, sizeof defines);
    static const char *const pass[3] = {"reduce", "carry", "tile"};
    usmarr__kernel_t *k[3];
    int rc = 0;
    for (int i = 0; i < 3 && !rc; i++) {
        snprintf(name[i], sizeof name[i], "usmarr_scan_%s_%s", pass[i], op);
        rc = usmarr__kernel_get(ctx, usmarr__reduce_family(ctx), defines, name[i], &k[i]);
    }
    if (rc)
        return rc;
    size_t group = ctx->shape.scan_group;
    int64_t tile = (int64_t)group * SCAN_V, tiles = (n + tile - 1) / tile;
    usmarr_memory_t *own = NULL;
    if (!scratch) {
        if ((rc = usmarr_memory_create(ctx, USMARR_USM_DEVICE, usmarr__scan_scratch_bytes(ctx, lines, n), 0, &own)))
            return rc;
        scratch = own->pointer;
    }
    cl_long ln = n, lt = tiles, li = init;
    const struct usmarr__karg reduce_args[] = {USMARR__ARG_PTR(in), USMARR__ARG_PTR(scratch), USMARR__ARG(ln),
                                               USMARR__ARG(lt)};
    const struct usmarr__karg carry_args[] = {USMARR__ARG_PTR(scratch), USMARR__ARG(lt)};
    const struct usmarr__karg tile_args[] = {USMARR__ARG_PTR(in), USMARR__ARG_PTR(out), USMARR__ARG_PTR(scratch),
                                             USMARR__ARG(ln),     USMARR__ARG(lt),       USMARR__ARG(li)};
    size_t local[2] = {group, 1}, tiles_global[2] = {(size_t)tiles * group, (size_t)lines},
           lines_global[2] = {group, (size_t)lines};
    rc = usmarr__kernel_launch(ctx, k[0], USMARR__NARGS(reduce_args), reduce_args, 2, tiles_global, local);
    if (!rc)
        rc = usmarr__kernel_launch(ctx, k[1], USMARR__NARGS(carry_args), carry_args, 2, lines_global, local);
    if (!rc)
        rc = usmarr__kernel_launch(ctx, k[2], USMARR__NARGS(tile_args), tile_args, 2, tiles_global, local);
    usmarr_memory_release(own); /* waits for the launches */
    return rc;
}
