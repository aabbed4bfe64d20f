// Copy plans (lib/copy_plan.c): many 3-D boxes of any element size copied by one NDRange.
// The plan's table describes each box; every work-item copies a few rows of one box (or a
// segment of one long row).  Boxes address their bytes from one of eight base pointers,
// so that no pointer is ever read from memory (no indirect USM or SVM access).

// One box, as lib/copy_plan.c writes it: every field a long, strides and offsets in bytes.
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

// `bytes` contiguous bytes at any alignment: 64-byte blocks, then 16, 8, 4, 2, 1.
static void copy_run(__global uchar *d, __global const uchar *s, long bytes)
{
    long k = 0;
    for (; k + 64 <= bytes; k += 64) {
        uchar16 a = vload16(0, s + k), b = vload16(1, s + k), c = vload16(2, s + k), e = vload16(3, s + k);
        vstore16(a, 0, d + k);
        vstore16(b, 1, d + k);
        vstore16(c, 2, d + k);
        vstore16(e, 3, d + k);
    }
    for (; k + 16 <= bytes; k += 16)
        vstore16(vload16(0, s + k), 0, d + k);
    if (bytes - k >= 8) {
        vstore8(vload8(0, s + k), 0, d + k);
        k += 8;
    }
    if (bytes - k >= 4) {
        vstore4(vload4(0, s + k), 0, d + k);
        k += 4;
    }
    if (bytes - k >= 2) {
        vstore2(vload2(0, s + k), 0, d + k);
        k += 2;
    }
    if (bytes - k >= 1)
        d[k] = s[k];
}

#define USMARR_COPY_STRIDED(load, store)                    \
    for (long i = 0; i < n; i++)                            \
        store(load(0, s + i * ss), 0, d + i * ds)
#define USMARR_LOAD1(o, p) (*(p))
#define USMARR_STORE1(v, o, p) (*(p) = (v))

// n elements of `itemsize` bytes, `ds`/`ss` bytes apart (any sign, any alignment).
static void copy_strided(__global uchar *d, __global const uchar *s, long n, long ds, long ss, long itemsize)
{
    switch (itemsize) {
    case 1: USMARR_COPY_STRIDED(USMARR_LOAD1, USMARR_STORE1); break;
    case 2: USMARR_COPY_STRIDED(vload2, vstore2); break;
    case 4: USMARR_COPY_STRIDED(vload4, vstore4); break;
    case 8: USMARR_COPY_STRIDED(vload8, vstore8); break;
    default: USMARR_COPY_STRIDED(vload16, vstore16); break;
    }
}

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
    for (; row < row_end; row++) {
        if (contiguous)
            copy_run(d, s, count * size);
        else
            copy_strided(d, s, count, ds2, ss2, size);
        d += ds1;
        s += ss1;
        if (++i1 == n1) { // the next row starts the next plane
            i1 = 0;
            d += ds0 - n1 * ds1;
            s += ss0 - n1 * ss1;
        }
    }
}
