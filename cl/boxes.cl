// Copy plans (lib/engine/copy_plan.c): many 3-D boxes of any element size copied by one NDRange.
// The plan's table describes each box; every work-item copies a few rows of one box (or a
// segment of one long row), in the widest words that the addresses and strides allow
// (byte-vector loads were 2x slower on PoCL).  Boxes address their bytes from one of eight base pointers,
// so that no pointer is ever read from memory (no indirect USM or SVM access).

// One box, as lib/engine/copy_plan.c writes it: every field a long, strides and offsets in bytes.
typedef struct {
    long first_item;              // the box's items are [first_item, next box's first_item)
    long bases;                   // base index of the destination | source's << 8
    long dst_offset, src_offset;  // bytes from the bases to element [0, 0, 0]
    long itemsize;
    long shape[3];                // shape[2] is the innermost axis (a row)
    long dst_strides[3], src_strides[3];
    long seg;                     // elements of a row per item: shape[2] unless rows are split
    long nseg;                    // items per row (1: an item copies rows_per_item whole rows)
    long rows_per_item;
} usmarr_box;

// The pointers (dp, sp) one row on, and on to the next plane after a plane's last row
// (i1 counts the rows of the plane, n1 of them).
#define USMARR_NEXT_ROW(dp, sp, drow, srow, dplane, splane)                                          \
    do {                                                                                             \
        dp += drow;                                                                                  \
        sp += srow;                                                                                  \
        if (++i1 == n1) {                                                                            \
            i1 = 0;                                                                                  \
            dp += dplane;                                                                            \
            sp += splane;                                                                            \
        }                                                                                            \
    } while (0)

// Rows [row, row_end) of the box from (d, s), copied as words of type T, whose size
// divides every address, stride and the element size: a contiguous row is one run of
// words, a strided one `w` words per element.
#define USMARR_COPY_ROWS(T)                                                                          \
    do {                                                                                             \
        const long t = (long)sizeof(T), w = size / t, words = count * w;                             \
        const long dstep = ds2 / t, sstep = ss2 / t, drow = ds1 / t, srow = ss1 / t;                 \
        const long dplane = (ds0 - n1 * ds1) / t, splane = (ss0 - n1 * ss1) / t;                     \
        __global T *dw = (__global T *)d;                                                            \
        __global const T *sw = (__global const T *)s;                                                \
        for (; row < row_end; row++) {                                                               \
            if (contiguous)                                                                          \
                for (long k = 0; k < words; k++)                                                     \
                    dw[k] = sw[k];                                                                   \
            else                                                                                     \
                for (long i = 0; i < count; i++)                                                     \
                    for (long k = 0; k < w; k++)                                                     \
                        dw[i * dstep + k] = sw[i * sstep + k];                                       \
            USMARR_NEXT_ROW(dw, sw, drow, srow, dplane, splane);                                     \
        }                                                                                            \
    } while (0)

// Rows [row, row_end) of one word of type T each (a contiguous row of sizeof(T) bytes).
#define USMARR_COPY_SHORT(T)                                                                         \
    do {                                                                                             \
        const long dplane = ds0 - n1 * ds1, splane = ss0 - n1 * ss1;                                 \
        for (; row < row_end; row++) {                                                               \
            *(__global T *)d = *(__global const T *)s;                                               \
            USMARR_NEXT_ROW(d, s, ds1, ss1, dplane, splane);                                         \
        }                                                                                            \
    } while (0)

kernel __attribute__((reqd_work_group_size(16, 1, 1))) void usmarr_copy_boxes(
    __global const usmarr_box *table, long nboxes, long nitems, __global uchar *b0, __global uchar *b1,
    __global uchar *b2, __global uchar *b3, __global uchar *b4, __global uchar *b5, __global uchar *b6,
    __global uchar *b7)
{
    long item = get_global_id(0);
    if (item >= nitems)
        return;
    long lo = 0, hi = nboxes - 1; // the last box whose first item is <= item
    while (lo < hi) {
        long mid = (lo + hi + 1) >> 1;
        if (table[mid].first_item <= item)
            lo = mid;
        else
            hi = mid - 1;
    }
    __global const usmarr_box *b = &table[lo];
    __global uchar *bases[8] = {b0, b1, b2, b3, b4, b5, b6, b7};
    long local_item = item - b->first_item, n1 = b->shape[1], n2 = b->shape[2], size = b->itemsize;
    long row, row_end, first, count;
    if (b->nseg > 1) {
        row = local_item / b->nseg;
        row_end = row + 1;
        first = local_item % b->nseg * b->seg;
        count = min(b->seg, n2 - first);
    } else {
        row = local_item * b->rows_per_item;
        row_end = min(row + b->rows_per_item, b->shape[0] * n1);
        first = 0;
        count = n2;
    }
    long i0 = row / n1, i1 = row % n1;
    long ds0 = b->dst_strides[0], ds1 = b->dst_strides[1], ds2 = b->dst_strides[2];
    long ss0 = b->src_strides[0], ss1 = b->src_strides[1], ss2 = b->src_strides[2];
    __global uchar *d = bases[b->bases & 255] + b->dst_offset + i0 * ds0 + i1 * ds1 + first * ds2;
    __global const uchar *s = bases[(b->bases >> 8) & 255] + b->src_offset + i0 * ss0 + i1 * ss1 + first * ss2;
    bool contiguous = ds2 == size && ss2 == size;
    ulong rows_align = (ulong)d | (ulong)s | (ulong)ds0 | (ulong)ss0 | (ulong)ds1 | (ulong)ss1;
    ulong align = rows_align | (ulong)ds2 | (ulong)ss2 | (ulong)size;
    long row_bytes = count * size;
    // Short contiguous rows of 8, 16 or 32 bytes (a halo face across the fastest axis),
    // each row's start aligned to its length: one word each, no inner loop; the rows' own
    // lines are the cost.
    if (contiguous && row_bytes == 16 && !(rows_align & 15))
        USMARR_COPY_SHORT(ulong2);
    else if (contiguous && row_bytes == 8 && !(rows_align & 7))
        USMARR_COPY_SHORT(ulong);
    else if (contiguous && row_bytes == 32 && !(rows_align & 31))
        USMARR_COPY_SHORT(ulong4);
    else if (!(align & 7))
        USMARR_COPY_ROWS(ulong);
    else if (!(align & 3))
        USMARR_COPY_ROWS(uint);
    else if (!(align & 1))
        USMARR_COPY_ROWS(ushort);
    else
        USMARR_COPY_ROWS(uchar);
}
