/* The gpu shape's radix sort (cl/radix.cl): a stable LSD sort of GR_BITS-bit digits, each
 * pass a histogram per tile, a device-wide scan of the (value, tile) counts of each row
 * (lib/ops/scan.c) and a stable scatter, every pass enqueued at once with nothing read back
 * between them.  sort.c calls it for the rows that its radix passes take on the CPU shapes
 * (rows longer than one work-group sorts, the set functions' row); keys of up to 64 bits
 * (complex128's 128-bit keys keep sort.c's passes). */
#include "ops_internal.h"

#include <stdio.h>

#define GR_BITS 6 /* 64 values a digit: cl/radix.cl's (value, item) table fits 48 KiB of local memory */
#define GR_V 8    /* keys per work-item of a tile (cl/radix.cl GR_V) */

void usmarr__radix_defines(const usmarr_context_t *ctx, const char *sort_defines, char *defines, size_t size)
{
    snprintf(defines, size, "%s -DSCAN_G=%u -DGR_BITS=%d", sort_defines, ctx->shape.scan_group, GR_BITS);
}

bool usmarr__radix_gpu(const usmarr_context_t *ctx, int bits)
{
    return ctx->shape.scan_group != 0 && bits <= 64;
}

int usmarr__radix_sort(struct usmarr__sorted *j, const void *in, int64_t sr, int64_t se, void *out, int64_t osr,
                       int64_t ose)
{
    usmarr_context_t *ctx = j->ctx;
    char defines[sizeof j->defines + 48];
    usmarr__radix_defines(ctx, j->defines, defines, sizeof defines);
    usmarr__kernel_t *hist_k, *scatter_k;
    int rc = usmarr__kernel_get(ctx, "sort+groupscan+radix", defines, "usmarr_gradix_hist", &hist_k);
    if (!rc)
        rc = usmarr__kernel_get(ctx, "sort+groupscan+radix", defines, "usmarr_gradix_scatter", &scatter_k);
    if (rc)
        return rc;
    size_t group = ctx->shape.scan_group;
    int64_t bins = (int64_t)1 << GR_BITS, tile = (int64_t)group * GR_V, tiles = (j->n + tile - 1) / tile;
    int digits = (j->bits + GR_BITS - 1) / GR_BITS;
    int64_t line = bins * tiles; /* one row's counts */
    usmarr_memory_t *hist = NULL, *offs = NULL, *scratch = NULL;
    if ((rc = usmarr_memory_create(ctx, USMARR_USM_DEVICE, (size_t)(j->rows * line) * 4, 0, &hist)) ||
        (rc = usmarr_memory_create(ctx, USMARR_USM_DEVICE, (size_t)(j->rows * (line + 1)) * 8, 0, &offs)) ||
        (rc = usmarr_memory_create(ctx, USMARR_USM_DEVICE, usmarr__scan_scratch_bytes(ctx, j->rows, line), 0,
                                   &scratch))) {
        usmarr_memory_release(hist);
        usmarr_memory_release(offs);
        return rc;
    }
    size_t local[2] = {group, 1}, global[2] = {(size_t)tiles * group, (size_t)j->rows};
    cl_long n = j->n, lt = tiles, to_out = out != NULL;
    for (int p = 0; p < digits && !rc; p++) {
        /* pass p writes ka when an even number of passes follows it, so the last writes ka */
        void *keys[2] = {j->key, j->tkey}, *idx[2] = {j->idx, j->tidx};
        int to = (digits - 1 - p) & 1, from = to ^ 1;
        cl_long lp = p, first = p == 0, last = to_out && p == digits - 1;
        const struct usmarr__karg hist_args[] = {USMARR__ARG_PTR(in),          USMARR__ARG(sr),  USMARR__ARG(se),
                                                 USMARR__ARG_PTR(keys[from]),  USMARR__ARG(n),   USMARR__ARG(lt),
                                                 USMARR__ARG(lp),              USMARR__ARG(first),
                                                 USMARR__ARG_PTR(hist->pointer)};
        const struct usmarr__karg scatter_args[] = {
            USMARR__ARG_PTR(in),         USMARR__ARG(sr),         USMARR__ARG(se),   USMARR__ARG_PTR(keys[from]),
            USMARR__ARG_PTR(idx[from]),  USMARR__ARG_PTR(keys[to]), USMARR__ARG_PTR(idx[to]), USMARR__ARG(n),
            USMARR__ARG(lt),             USMARR__ARG(lp),         USMARR__ARG(first), USMARR__ARG_PTR(offs->pointer),
            USMARR__ARG_PTR(out),        USMARR__ARG(osr),        USMARR__ARG(ose),  USMARR__ARG(last)};
        rc = usmarr__kernel_launch(ctx, hist_k, USMARR__NARGS(hist_args), hist_args, 2, global, local);
        if (!rc)
            rc = usmarr__scan_lines(ctx, "sum", USMARR_UINT32, hist->pointer, offs->pointer, j->rows, line, true,
                                    scratch->pointer);
        if (!rc)
            rc = usmarr__kernel_launch(ctx, scatter_k, USMARR__NARGS(scatter_args), scatter_args, 2, global, local);
    }
    usmarr_memory_release(hist); /* waits for the passes */
    usmarr_memory_release(offs);
    usmarr_memory_release(scratch);
    return rc;
}
