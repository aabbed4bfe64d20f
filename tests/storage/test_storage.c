/* Storages (doc/storage.md): creation, parameters, aligned allocation, presets, kinds.
 * Oracles are host loops and address arithmetic written here, never the library. */
#include "../harness/common.h"
#include "test_storage.h"

#include <stdint.h>
#include <stdlib.h>

usmarr_storage_options_t storage_opts(usmarr_context_t *ctx, const char *axes, int n, const int64_t *shape)
{
    usmarr_storage_options_t o = USMARR_STORAGE_OPTIONS_INIT;
    o.context = ctx;
    o.axes = axes;
    o.nshape = n;
    for (int k = 0; k < n; k++)
        o.shape[k] = shape[k];
    return o;
}

void storage_read_side(const usmarr_array_t *a, void *out)
{
    usmarr_memory_t *m = usmarr_array_memory(a);
    size_t bytes = usmarr_memory_size(m), item = usmarr_array_itemsize(a);
    unsigned char *all = malloc(bytes ? bytes : 1);
    ck_assert_ok(usmarr_memory_copy_to_host(m, 0, all, bytes));
    int nd = usmarr_array_ndim(a);
    const int64_t *shape = usmarr_array_shape(a), *st = usmarr_array_strides(a);
    int64_t n = usmarr_array_size(a), idx[3] = {0, 0, 0};
    for (int64_t j = 0; j < n; j++) {
        int64_t e = usmarr_array_offset(a);
        for (int k = 0; k < nd; k++)
            e += idx[k] * st[k];
        memcpy((char *)out + j * (int64_t)item, all + e * (int64_t)item, item);
        for (int k = nd - 1; k >= 0; k--) {
            if (++idx[k] < shape[k])
                break;
            idx[k] = 0;
        }
    }
    free(all);
}

void storage_write_side(usmarr_array_t *a, const void *in)
{
    usmarr_memory_t *m = usmarr_array_memory(a);
    size_t bytes = usmarr_memory_size(m), item = usmarr_array_itemsize(a);
    unsigned char *all = malloc(bytes ? bytes : 1);
    ck_assert_ok(usmarr_memory_copy_to_host(m, 0, all, bytes));
    int nd = usmarr_array_ndim(a);
    const int64_t *shape = usmarr_array_shape(a), *st = usmarr_array_strides(a);
    int64_t n = usmarr_array_size(a), idx[3] = {0, 0, 0};
    for (int64_t j = 0; j < n; j++) {
        int64_t e = usmarr_array_offset(a);
        for (int k = 0; k < nd; k++)
            e += idx[k] * st[k];
        memcpy(all + e * (int64_t)item, (const char *)in + j * (int64_t)item, item);
        for (int k = nd - 1; k >= 0; k--) {
            if (++idx[k] < shape[k])
                break;
            idx[k] = 0;
        }
    }
    ck_assert_ok(usmarr_memory_copy_from_host(m, 0, all, bytes));
    free(all);
}

/* The layout the preset table gives (GT4Py's GDP 3), by the rule doc/storage.md states:
 * C = the axes in index order then the missing letters, F = its reverse, backends fixed. */
static void expected_layout(const char *preset, const char *axes, char out[4])
{
    if (!strcmp(preset, "gtx86") || !strcmp(preset, "gtcuda")) {
        strcpy(out, preset[2] == 'x' ? "IJK" : "KJI");
        return;
    }
    char c[4];
    size_t n = strlen(axes);
    memcpy(c, axes, n);
    for (const char *l = "IJK"; *l; l++)
        if (!strchr(axes, *l))
            c[n++] = *l;
    for (int k = 0; k < 3; k++)
        out[k] = preset[0] == 'C' ? c[k] : c[2 - k];
    out[3] = 0;
}

/* Checks one side of a storage against GT4Py's allocator, computed here. */
static void check_aligned_side(const usmarr_array_t *a, const char *axes, const char *layout, const int64_t *shape,
                               const int64_t *aligned_index, int64_t alignment, const char *what)
{
    int nd = (int)strlen(axes);
    int64_t item = (int64_t)usmarr_array_itemsize(a);
    int64_t blk = alignment > item ? alignment / item : 1;
    int order[3], m = 0;
    for (int l = 0; l < 3; l++)
        for (int k = 0; k < nd; k++)
            if (axes[k] == layout[l])
                order[m++] = k;
    int64_t expect[3], step = 1;
    for (int i = nd - 1; i >= 0; i--) {
        int k = order[i];
        int64_t ext = i == nd - 1 ? (shape[k] + blk - 1) / blk * blk : shape[k];
        expect[k] = step;
        step *= ext;
    }
    const int64_t *st = usmarr_array_strides(a);
    for (int k = 0; k < nd; k++)
        ck_assert_msg(st[k] == expect[k], "%s: stride[%d]=%lld, GT4Py's allocator gives %lld", what, k,
                      (long long)st[k], (long long)expect[k]);
    uintptr_t addr = (uintptr_t)usmarr_array_data(a);
    for (int k = 0; k < nd; k++)
        addr += (uintptr_t)(aligned_index[k] * st[k] * item);
    ck_assert_msg(addr % (uintptr_t)alignment == 0, "%s: element at the aligned index is at %p, not %lld-aligned",
                  what, (void *)addr, (long long)alignment);
    ck_assert_uint_eq(usmarr_memory_size(usmarr_array_memory(a)), (uint64_t)((step + blk - 1) * item));
}

static const usmarr_dtype_t align_dtypes[] = {USMARR_INT8, USMARR_FLOAT16, USMARR_FLOAT32, USMARR_FLOAT64,
                                              USMARR_COMPLEX128};

START_TEST(test_storage_alignment_address_every_preset_dtype_halo)
{
    usmarr_context_t *ctx = test_context();
    const char *presets[] = {"C", "F", "gtx86", "gtcuda"};
    const int64_t alignments[] = {1, 1, 64, 256};
    const char *axes_list[] = {"IJK", "KJI", "JK", "I"};
    const int64_t halos[][2] = {{0, 0}, {1, 1}, {3, 3}, {2, 5}};
    const int64_t shape3[] = {11, 7, 13};
    for (int p = 0; p < 4; p++)
        for (size_t d = 0; d < sizeof align_dtypes / sizeof *align_dtypes; d++)
            for (int h = 0; h < 4; h++)
                for (int x = 0; x < 4; x++) {
                    const char *axes = axes_list[x];
                    int nd = (int)strlen(axes);
                    usmarr_storage_options_t o = storage_opts(ctx, axes, nd, shape3);
                    o.defaults = presets[p];
                    o.dtype = (int)align_dtypes[d];
                    o.nhalo = nd;
                    for (int k = 0; k < nd; k++) {
                        o.halo[k][0] = halos[h][0];
                        o.halo[k][1] = halos[h][1];
                    }
                    usmarr_storage_t *s;
                    ck_assert_ok(usmarr_storage_empty(&o, &s));
                    char layout[4], what[96];
                    expected_layout(presets[p], axes, layout);
                    ck_assert_str_eq(usmarr_storage_layout(s), layout);
                    ck_assert_int_eq(usmarr_storage_alignment(s), alignments[p]);
                    int64_t ai[3], n = 1;
                    for (int k = 0; k < nd; k++) {
                        ai[k] = halos[h][0];
                        ck_assert_int_eq(usmarr_storage_aligned_index(s)[k], ai[k]);
                        n *= shape3[k];
                    }
                    ck_assert_int_eq(usmarr_storage_nbytes(s), n * (int64_t)usmarr_dtype_size(align_dtypes[d]));
                    snprintf(what, sizeof what, "preset %s %s axes %s halo (%lld,%lld)", presets[p],
                             usmarr_dtype_name(align_dtypes[d]), axes, (long long)halos[h][0],
                             (long long)halos[h][1]);
                    usmarr_array_t *side;
                    if (usmarr_storage_kind(s) != USMARR_STORAGE_DEVICE) {
                        ck_assert_ok(usmarr_storage_host_array(s, false, &side));
                        check_aligned_side(side, axes, layout, shape3, ai, alignments[p], what);
                    }
                    if (usmarr_storage_kind(s) != USMARR_STORAGE_HOST) {
                        ck_assert_ok(usmarr_storage_device_array(s, false, &side));
                        check_aligned_side(side, axes, layout, shape3, ai, alignments[p], what);
                    }
                    ck_assert_int_eq(usmarr_storage_kind(s),
                                     p == 3 ? USMARR_STORAGE_MANAGED : USMARR_STORAGE_HOST);
                    usmarr_storage_release(s);
                }
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_storage_alignment_gt4py_example_float64_64_bytes_halo_3)
{
    /* storage.md: float64, alignment 64 bytes, halo 3, IJK (10,10,10): K pads 10 -> 16
     * and element (3,3,3) is 64-byte aligned. */
    usmarr_context_t *ctx = test_context();
    const int64_t shape[] = {10, 10, 10}, width[] = {3, 3, 3};
    usmarr_storage_options_t o = storage_opts(ctx, "IJK", 3, shape);
    o.alignment = 64;
    usmarr_storage_halo_symmetric(&o, 3, width);
    for (int kind = 0; kind < 4; kind++) {
        const char *device[] = {NULL, "gpu", "gpu", "gpu"}, *managed[] = {NULL, "none", "cuda", "gt4py"};
        o.device = device[kind];
        o.managed = managed[kind];
        usmarr_storage_t *s;
        ck_assert_ok(usmarr_storage_zeros(&o, &s));
        ck_assert_int_eq(usmarr_storage_kind(s), kind + 1);
        const int64_t *st = usmarr_storage_strides(s);
        ck_assert_int_eq(st[0], 160);
        ck_assert_int_eq(st[1], 16);
        ck_assert_int_eq(st[2], 1);
        ck_assert_int_eq(usmarr_storage_nbytes(s), 8000);
        usmarr_array_t *sides[2] = {NULL, NULL};
        if (kind != 1)
            ck_assert_ok(usmarr_storage_host_array(s, false, &sides[0]));
        if (kind != 0)
            ck_assert_ok(usmarr_storage_device_array(s, false, &sides[1]));
        for (int i = 0; i < 2; i++) {
            if (!sides[i])
                continue;
            uintptr_t p = (uintptr_t)usmarr_array_data(sides[i]) + (3 * 160 + 3 * 16 + 3) * 8;
            ck_assert_uint_eq(p % 64, 0);
            ck_assert_int_eq(usmarr_array_shape(sides[i])[2], 10); /* padding never visible */
        }
        usmarr_storage_release(s);
    }
    usmarr_context_release(ctx);
}
END_TEST

/* ---- the presets' layout table: one test per cell ---------------------------------------- */

static void check_table_cell(const char *preset, const char *axes, const char *layout)
{
    usmarr_context_t *ctx = test_context();
    const int64_t shape[] = {4, 5, 6};
    usmarr_storage_options_t o = storage_opts(ctx, axes, 3, shape);
    o.defaults = preset;
    usmarr_storage_t *s;
    ck_assert_ok(usmarr_storage_empty(&o, &s));
    ck_assert_str_eq(usmarr_storage_layout(s), layout);
    /* The stride of axis layout[0] is the largest, of layout[2] the smallest (index k of
     * a letter is where it sits in axes). */
    const int64_t *st = usmarr_storage_strides(s);
    int big = (int)(strchr(axes, layout[0]) - axes), mid = (int)(strchr(axes, layout[1]) - axes),
        small = (int)(strchr(axes, layout[2]) - axes);
    ck_assert_int_gt(st[big], st[mid]);
    ck_assert_int_gt(st[mid], st[small]);
    ck_assert_int_eq(st[small], 1);
    usmarr_storage_release(s);
    usmarr_context_release(ctx);
}

#define LAYOUT_CELL(preset, axes, layout)                                                   \
    START_TEST(test_storage_layout_table_##preset##_axes_##axes)                       \
    {                                                                                       \
        check_table_cell(#preset, #axes, #layout);                                          \
    }                                                                                       \
    END_TEST
LAYOUT_CELL(F, IJK, KJI)
LAYOUT_CELL(C, IJK, IJK)
LAYOUT_CELL(gtx86, IJK, IJK)
LAYOUT_CELL(gtcuda, IJK, KJI)
LAYOUT_CELL(F, KJI, IJK)
LAYOUT_CELL(C, KJI, KJI)
LAYOUT_CELL(gtx86, KJI, IJK)
LAYOUT_CELL(gtcuda, KJI, KJI)

/* ---- the parameter rules ----------------------------------------------------------------- */

START_TEST(test_storage_fallbacks_float64_IJK_no_halo_alignment_1_layout_IJK_host)
{
    usmarr_context_t *ctx = test_context();
    const int64_t shape[] = {2, 3, 4};
    usmarr_storage_options_t o = USMARR_STORAGE_OPTIONS_INIT;
    o.context = ctx;
    o.nshape = 3;
    memcpy(o.shape, shape, sizeof shape);
    usmarr_storage_t *s;
    ck_assert_ok(usmarr_storage_empty(&o, &s));
    ck_assert_int_eq(usmarr_storage_dtype(s), USMARR_FLOAT64);
    ck_assert_str_eq(usmarr_storage_axes(s), "IJK");
    ck_assert_int_eq(usmarr_storage_ndim(s), 3);
    ck_assert_str_eq(usmarr_storage_layout(s), "IJK");
    ck_assert_int_eq(usmarr_storage_alignment(s), 1);
    ck_assert_int_eq(usmarr_storage_kind(s), USMARR_STORAGE_HOST);
    ck_assert_ptr_null(usmarr_storage_sync_state(s));
    for (int k = 0; k < 3; k++) {
        ck_assert_int_eq(usmarr_storage_shape(s)[k], shape[k]);
        ck_assert_int_eq(usmarr_storage_halo(s)[k][0], 0);
        ck_assert_int_eq(usmarr_storage_halo(s)[k][1], 0);
        ck_assert_int_eq(usmarr_storage_aligned_index(s)[k], 0);
    }
    ck_assert_int_eq(usmarr_storage_strides(s)[0], 12); /* dense C: alignment 1 pads nothing */
    ck_assert_int_eq(usmarr_storage_strides(s)[1], 4);
    ck_assert_ptr_eq(usmarr_storage_context(s), ctx);
    ck_assert_int_eq(usmarr_storage_refcount(s), 1);
    ck_assert_ptr_eq(usmarr_storage_retain(s), s);
    ck_assert_int_eq(usmarr_storage_refcount(s), 2);
    usmarr_storage_release(s);
    usmarr_storage_release(s);
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_storage_aligned_index_defaults_to_halo_lower)
{
    usmarr_context_t *ctx = test_context();
    const int64_t shape[] = {9, 8, 20};
    usmarr_storage_options_t o = storage_opts(ctx, "IJK", 3, shape);
    o.nhalo = 3;
    const int64_t halo[3][2] = {{1, 2}, {0, 3}, {5, 4}};
    memcpy(o.halo, halo, sizeof halo);
    o.alignment = 32;
    o.dtype = USMARR_FLOAT32;
    usmarr_storage_t *s;
    ck_assert_ok(usmarr_storage_empty(&o, &s));
    const int64_t want[] = {1, 0, 5};
    for (int k = 0; k < 3; k++) {
        ck_assert_int_eq(usmarr_storage_aligned_index(s)[k], want[k]);
        ck_assert_int_eq(usmarr_storage_halo(s)[k][0], halo[k][0]);
        ck_assert_int_eq(usmarr_storage_halo(s)[k][1], halo[k][1]);
    }
    usmarr_array_t *h;
    ck_assert_ok(usmarr_storage_host_array(s, false, &h));
    check_aligned_side(h, "IJK", "IJK", shape, want, 32, "halo-lower aligned index");
    usmarr_storage_release(s);
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_storage_shape_and_aligned_index_take_3_or_ndim_entries)
{
    usmarr_context_t *ctx = test_context();
    /* A "KI" storage: 3 entries are read by letter (I, J, K), the J entry ignored. */
    const int64_t shape3[] = {6, 999, 4}, shape2[] = {4, 6};
    usmarr_storage_options_t a = storage_opts(ctx, "KI", 3, shape3), b = storage_opts(ctx, "KI", 2, shape2);
    a.naligned_index = 3;
    a.aligned_index[0] = 2; /* I */
    a.aligned_index[1] = 77;
    a.aligned_index[2] = 1; /* K */
    b.naligned_index = 2;
    b.aligned_index[0] = 1;
    b.aligned_index[1] = 2;
    a.alignment = b.alignment = 16;
    usmarr_storage_t *sa, *sb;
    ck_assert_ok(usmarr_storage_empty(&a, &sa));
    ck_assert_ok(usmarr_storage_empty(&b, &sb));
    for (int k = 0; k < 2; k++) {
        ck_assert_int_eq(usmarr_storage_shape(sa)[k], shape2[k]);
        ck_assert_int_eq(usmarr_storage_shape(sb)[k], shape2[k]);
        ck_assert_int_eq(usmarr_storage_aligned_index(sa)[k], usmarr_storage_aligned_index(sb)[k]);
    }
    ck_assert_int_eq(usmarr_storage_aligned_index(sa)[0], 1);
    ck_assert_int_eq(usmarr_storage_aligned_index(sa)[1], 2);
    ck_assert_int_eq(usmarr_storage_ndim(sa), 2);
    usmarr_storage_t *bad = NULL;
    a.nshape = 1;
    ck_assert_fails_with(usmarr_storage_empty(&a, &bad), USMARR_ERROR_INVALID_ARGUMENT, "nshape=1");
    a.nshape = 3;
    a.naligned_index = 2;
    a.aligned_index[1] = 77;
    ck_assert_fails_with(usmarr_storage_empty(&a, &bad), USMARR_ERROR_INVALID_ARGUMENT, "aligned_index[1]=77");
    ck_assert_ptr_null(bad);
    usmarr_storage_release(sa);
    usmarr_storage_release(sb);
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_storage_explicit_parameters_override_the_preset)
{
    usmarr_context_t *ctx = test_context();
    const int64_t shape[] = {5, 6, 7};
    usmarr_storage_options_t o = storage_opts(ctx, "IJK", 3, shape);
    o.defaults = "gtcuda";
    o.layout = "JKI";
    o.alignment = 32;
    o.managed = "none";
    usmarr_storage_t *s;
    ck_assert_ok(usmarr_storage_empty(&o, &s));
    ck_assert_str_eq(usmarr_storage_layout(s), "JKI");
    ck_assert_int_eq(usmarr_storage_alignment(s), 32);
    ck_assert_int_eq(usmarr_storage_kind(s), USMARR_STORAGE_DEVICE); /* device "gpu" from the preset */
    const int64_t *st = usmarr_storage_strides(s);
    ck_assert_int_gt(st[1], st[2]);
    ck_assert_int_gt(st[2], st[0]);
    ck_assert_int_eq(st[0], 1);
    usmarr_storage_release(s);
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_storage_managed_defaults_to_gt4py_and_only_acts_with_a_device)
{
    usmarr_context_t *ctx = test_context();
    const int64_t shape[] = {3, 3, 3};
    usmarr_storage_options_t o = storage_opts(ctx, "IJK", 3, shape);
    usmarr_storage_t *s;
    o.device = "gpu";
    ck_assert_ok(usmarr_storage_empty(&o, &s));
    ck_assert_int_eq(usmarr_storage_kind(s), USMARR_STORAGE_MANAGED);
    usmarr_sync_t v = (usmarr_sync_t)-1;
    ck_assert_ok(usmarr_sync_state_get(usmarr_storage_sync_state(s), &v));
    ck_assert_int_eq(v, USMARR_SYNC_CLEAN);
    usmarr_array_t *h, *d;
    ck_assert_ok(usmarr_storage_host_array(s, false, &h));
    ck_assert_ok(usmarr_storage_device_array(s, false, &d));
    ck_assert_int_eq(usmarr_array_usm_kind(h), USMARR_USM_HOST);
    ck_assert_int_eq(usmarr_array_usm_kind(d), USMARR_USM_DEVICE);
    ck_assert_ptr_ne(usmarr_array_memory(h), usmarr_array_memory(d));
    usmarr_storage_release(s);
    o.device = NULL;
    o.managed = "cuda"; /* managed only has effect with device="gpu" */
    ck_assert_ok(usmarr_storage_empty(&o, &s));
    ck_assert_int_eq(usmarr_storage_kind(s), USMARR_STORAGE_HOST);
    usmarr_storage_release(s);
    o.device = "device";
    o.managed = "shared";
    ck_assert_ok(usmarr_storage_empty(&o, &s));
    ck_assert_int_eq(usmarr_storage_kind(s), USMARR_STORAGE_SHARED);
    ck_assert_ok(usmarr_storage_host_array(s, false, &h));
    ck_assert_ok(usmarr_storage_device_array(s, false, &d));
    ck_assert_ptr_eq(h, d);
    ck_assert_int_eq(usmarr_array_usm_kind(h), USMARR_USM_SHARED);
    ck_assert_ptr_null(usmarr_storage_sync_state(s));
    usmarr_storage_release(s);
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_storage_shape_is_required)
{
    usmarr_context_t *ctx = test_context();
    usmarr_storage_options_t o = USMARR_STORAGE_OPTIONS_INIT;
    o.context = ctx;
    usmarr_storage_t *s = NULL;
    ck_assert_fails_with(usmarr_storage_empty(&o, &s), USMARR_ERROR_INVALID_ARGUMENT, "shape is required");
    ck_assert_ptr_null(s);
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_storage_like_keeps_parameters_and_overrides_dtype)
{
    usmarr_context_t *ctx = test_context();
    const int64_t shape[] = {6, 5}, width[] = {2, 1};
    usmarr_storage_options_t o = storage_opts(ctx, "JI", 2, shape);
    o.dtype = USMARR_INT32;
    o.alignment = 64;
    o.layout = "KIJ";
    o.device = "gpu";
    usmarr_storage_halo_symmetric(&o, 2, width);
    usmarr_storage_t *p, *s;
    ck_assert_ok(usmarr_storage_full(&o, usmarr_scalar_int(9), &p));
    ck_assert_ok(usmarr_storage_ones_like(p, NULL, &s));
    ck_assert_int_eq(usmarr_storage_dtype(s), USMARR_INT32);
    ck_assert_str_eq(usmarr_storage_axes(s), "JI");
    ck_assert_str_eq(usmarr_storage_layout(s), "KIJ");
    ck_assert_int_eq(usmarr_storage_alignment(s), 64);
    ck_assert_int_eq(usmarr_storage_kind(s), USMARR_STORAGE_MANAGED);
    ck_assert_ptr_ne(usmarr_storage_sync_state(s), usmarr_storage_sync_state(p));
    for (int k = 0; k < 2; k++) {
        ck_assert_int_eq(usmarr_storage_shape(s)[k], shape[k]);
        ck_assert_int_eq(usmarr_storage_halo(s)[k][0], width[k]);
        ck_assert_int_eq(usmarr_storage_aligned_index(s)[k], width[k]);
        ck_assert_int_eq(usmarr_storage_strides(s)[k], usmarr_storage_strides(p)[k]);
    }
    int32_t got[30];
    usmarr_array_t *d;
    ck_assert_ok(usmarr_storage_device_array(s, false, &d));
    storage_read_side(d, got);
    for (int i = 0; i < 30; i++)
        ck_assert_int_eq(got[i], 1);
    usmarr_storage_release(s);
    usmarr_storage_options_t over = USMARR_STORAGE_OPTIONS_INIT;
    over.dtype = USMARR_FLOAT64;
    over.device = "gpu";
    over.managed = "none";
    ck_assert_ok(usmarr_storage_full_like(p, &over, usmarr_scalar_float(0.5), &s));
    ck_assert_int_eq(usmarr_storage_dtype(s), USMARR_FLOAT64);
    ck_assert_int_eq(usmarr_storage_kind(s), USMARR_STORAGE_DEVICE);
    double dv[30];
    ck_assert_ok(usmarr_storage_device_array(s, false, &d));
    storage_read_side(d, dv);
    for (int i = 0; i < 30; i++)
        ck_assert(dv[i] == 0.5);
    usmarr_storage_release(s);
    ck_assert_ok(usmarr_storage_zeros_like(p, NULL, &s));
    ck_assert_ok(usmarr_storage_host_array(s, false, &d));
    storage_read_side(d, got);
    for (int i = 0; i < 30; i++)
        ck_assert_int_eq(got[i], 0);
    usmarr_storage_release(s);
    ck_assert_ok(usmarr_storage_empty_like(p, NULL, &s));
    ck_assert_int_eq(usmarr_storage_nbytes(s), 120);
    usmarr_storage_release(s);
    ck_assert_int_eq(usmarr_storage_refcount(p), 1);
    usmarr_storage_release(p);
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_storage_like_cannot_override_shape_or_axes)
{
    usmarr_context_t *ctx = test_context();
    const int64_t shape[] = {2, 2, 2};
    usmarr_storage_options_t o = storage_opts(ctx, "IJK", 3, shape);
    usmarr_storage_t *p, *s = NULL;
    ck_assert_ok(usmarr_storage_empty(&o, &p));
    usmarr_storage_options_t over = USMARR_STORAGE_OPTIONS_INIT;
    over.nshape = 3;
    ck_assert_fails_with(usmarr_storage_empty_like(p, &over, &s), USMARR_ERROR_INVALID_ARGUMENT, "overrides.shape");
    over.nshape = 0;
    over.axes = "KJI";
    ck_assert_fails_with(usmarr_storage_zeros_like(p, &over, &s), USMARR_ERROR_INVALID_ARGUMENT, "overrides.axes");
    ck_assert_fails_with(usmarr_storage_ones_like(NULL, NULL, &s), USMARR_ERROR_INVALID_ARGUMENT, "proto");
    ck_assert_fails_with(usmarr_storage_full_like(p, NULL, usmarr_scalar_int(1), NULL), USMARR_ERROR_INVALID_ARGUMENT,
                         "storage");
    usmarr_storage_options_t int32 = USMARR_STORAGE_OPTIONS_INIT;
    int32.dtype = USMARR_INT32;
    ck_assert_fails_with(usmarr_storage_full_like(p, &int32, usmarr_scalar_float(1.0 / 0.0), &s),
                         USMARR_ERROR_CASTING, "value");
    ck_assert_ptr_null(s);
    ck_assert_int_eq(usmarr_storage_refcount(p), 1);
    usmarr_storage_release(p);
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_storage_nbytes_excludes_padding)
{
    usmarr_context_t *ctx = test_context();
    const int64_t shape[] = {3, 5, 7};
    usmarr_storage_options_t o = storage_opts(ctx, "IJK", 3, shape);
    o.alignment = 128;
    o.dtype = USMARR_FLOAT32;
    usmarr_storage_t *s;
    ck_assert_ok(usmarr_storage_empty(&o, &s));
    ck_assert_int_eq(usmarr_storage_nbytes(s), 3 * 5 * 7 * 4);
    ck_assert_int_eq(usmarr_storage_strides(s)[1], 32); /* K padded 7 -> 32 items */
    usmarr_array_t *h;
    ck_assert_ok(usmarr_storage_host_array(s, false, &h));
    ck_assert_uint_gt(usmarr_memory_size(usmarr_array_memory(h)), 3 * 5 * 7 * 4);
    usmarr_storage_release(s);
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_storage_halo_setter_changes_only_metadata)
{
    usmarr_context_t *ctx = test_context();
    const int64_t shape[] = {8, 8, 8}, width[] = {2, 2, 2};
    usmarr_storage_options_t o = storage_opts(ctx, "IJK", 3, shape);
    usmarr_storage_halo_symmetric(&o, 3, width);
    o.alignment = 64;
    usmarr_storage_t *s;
    ck_assert_ok(usmarr_storage_full(&o, usmarr_scalar_float(4.0), &s));
    usmarr_array_t *h;
    ck_assert_ok(usmarr_storage_host_array(s, false, &h));
    void *data = usmarr_array_data(h);
    int64_t strides[3];
    memcpy(strides, usmarr_storage_strides(s), sizeof strides);
    const int64_t halo[3][2] = {{0, 1}, {3, 0}, {4, 4}};
    ck_assert_ok(usmarr_storage_set_halo(s, 3, halo));
    for (int k = 0; k < 3; k++) {
        ck_assert_int_eq(usmarr_storage_halo(s)[k][0], halo[k][0]);
        ck_assert_int_eq(usmarr_storage_halo(s)[k][1], halo[k][1]);
        ck_assert_int_eq(usmarr_storage_aligned_index(s)[k], 2); /* no impact on the alignment */
        ck_assert_int_eq(usmarr_storage_strides(s)[k], strides[k]);
        ck_assert_int_eq(usmarr_storage_shape(s)[k], 8);
    }
    ck_assert_ok(usmarr_storage_host_array(s, false, &h));
    ck_assert_ptr_eq(usmarr_array_data(h), data);
    double v[512];
    storage_read_side(h, v);
    for (int i = 0; i < 512; i++)
        ck_assert(v[i] == 4.0);
    usmarr_storage_release(s);
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_storage_axes_JI_first_index_is_J)
{
    usmarr_context_t *ctx = test_context();
    const int64_t shape[] = {3, 4};
    usmarr_storage_options_t o = storage_opts(ctx, "JI", 2, shape);
    usmarr_storage_t *s;
    ck_assert_ok(usmarr_storage_empty(&o, &s));
    ck_assert_str_eq(usmarr_storage_axes(s), "JI");
    ck_assert_int_eq(usmarr_storage_ndim(s), 2);
    ck_assert_int_eq(usmarr_storage_shape(s)[0], 3); /* J */
    ck_assert_int_eq(usmarr_storage_shape(s)[1], 4); /* I */
    /* Layout fallback "IJK": I has the larger stride, wherever it is indexed. */
    ck_assert_int_eq(usmarr_storage_strides(s)[1], 3);
    ck_assert_int_eq(usmarr_storage_strides(s)[0], 1);
    usmarr_storage_release(s);
    usmarr_context_release(ctx);
}
END_TEST

/* ---- values and kinds --------------------------------------------------------------------- */

START_TEST(test_storage_zeros_ones_full_fill_every_kind_and_side)
{
    usmarr_context_t *ctx = test_context();
    const int64_t shape[] = {5, 3, 9}, width[] = {1, 1, 1};
    const char *device[] = {NULL, "gpu", "gpu", "gpu"}, *managed[] = {NULL, "none", "cuda", "gt4py"};
    for (int kind = 0; kind < 4; kind++) {
        usmarr_storage_options_t o = storage_opts(ctx, "KIJ", 3, shape);
        o.device = device[kind];
        o.managed = managed[kind];
        o.alignment = 64;
        o.dtype = USMARR_INT16;
        usmarr_storage_halo_symmetric(&o, 3, width);
        usmarr_storage_t *z, *one, *f;
        ck_assert_ok(usmarr_storage_zeros(&o, &z));
        ck_assert_ok(usmarr_storage_ones(&o, &one));
        ck_assert_ok(usmarr_storage_full(&o, usmarr_scalar_int(-300), &f));
        usmarr_storage_t *all[] = {z, one, f};
        const int16_t want[] = {0, 1, -300};
        for (int i = 0; i < 3; i++) {
            for (int which = 0; which < 2; which++) {
                usmarr_array_t *a;
                int rc = which ? usmarr_storage_device_array(all[i], false, &a)
                               : usmarr_storage_host_array(all[i], false, &a);
                if (rc) {
                    ck_assert_int_eq(rc, USMARR_ERROR_UNSUPPORTED);
                    ck_assert_int_eq(kind, which ? 0 : 1);
                    continue;
                }
                int16_t v[135];
                storage_read_side(a, v);
                for (int e = 0; e < 135; e++)
                    ck_assert_int_eq(v[e], want[i]);
            }
            usmarr_storage_release(all[i]);
        }
    }
    usmarr_context_release(ctx);
}
END_TEST

/* ---- doc/storage.md ------------------------------------------------------------------------ */

START_TEST(test_storage_doc_worked_example)
{
    usmarr_context_t *ctx = test_context();
    const int64_t width[] = {3, 3, 3};
    usmarr_storage_options_t o = USMARR_STORAGE_OPTIONS_INIT;
    o.context = ctx;
    o.defaults = "gtx86";
    o.axes = "IJK";
    o.nshape = 3;
    o.shape[0] = o.shape[1] = o.shape[2] = 10;
    usmarr_storage_halo_symmetric(&o, 3, width);
    usmarr_storage_t *field;
    ck_assert_ok(usmarr_storage_zeros(&o, &field));
    ck_assert_int_eq(usmarr_storage_strides(field)[0], 160);
    ck_assert_int_eq(usmarr_storage_strides(field)[1], 16);
    ck_assert_int_eq(usmarr_storage_strides(field)[2], 1);
    ck_assert_int_eq(usmarr_storage_nbytes(field), 8000);
    double *base;
    ck_assert_ok(usmarr_storage_host_data(field, false, (void **)&base));
    ck_assert_uint_eq((uintptr_t)(base + 3 * 160 + 3 * 16 + 3) % 64, 0);
    usmarr_storage_t *domain;
    ck_assert_ok(usmarr_storage_domain_view(field, &domain));
    double *p;
    ck_assert_ok(usmarr_storage_host_data(domain, true, (void **)&p));
    ck_assert_ptr_eq(p, base + 3 * 160 + 3 * 16 + 3);
    p[0] = 1.0;
    usmarr_storage_t *column;
    ck_assert_ok(usmarr_storage_index_text(field, "5, 5, :", &column));
    ck_assert_str_eq(usmarr_storage_axes(column), "K");
    ck_assert_int_eq(usmarr_storage_halo(column)[0][0], 3);
    ck_assert_int_eq(usmarr_storage_halo(column)[0][1], 3);
    o.device = "gpu";
    usmarr_storage_t *pair;
    ck_assert_ok(usmarr_storage_zeros(&o, &pair));
    ck_assert_ok(usmarr_storage_host_data(pair, true, (void **)&p));
    p[3 * 160 + 3 * 16 + 3] = 2.0;
    usmarr_array_t *device;
    ck_assert_ok(usmarr_storage_device_array(pair, false, &device));
    double v[1000];
    storage_read_side(device, v);
    ck_assert(v[333] == 2.0);
    usmarr_storage_release(column);
    usmarr_storage_release(domain);
    usmarr_storage_release(field);
    usmarr_storage_release(pair);
    usmarr_context_release(ctx);
}
END_TEST

/* Every storage kind on the device under test: created, filled and read back where the
 * device offers the USM kinds it needs (host: host USM; managed: host and device; shared:
 * shared), else refused with USMARR_ERROR_UNSUPPORTED naming the capability.  Untagged:
 * it also runs in the runner's device-USM-only mode, where the host-usm cases do not. */
START_TEST(test_storage_every_kind_works_or_is_refused_by_the_device)
{
    usmarr_context_t *ctx = test_context();
    const usmarr_device_info_t *info = usmarr_context_info(ctx);
    bool host = info->host_mem_caps & 1, shared = info->single_device_shared_caps & 1;
    static const struct {
        const char *device, *managed;
        usmarr_storage_kind_t kind;
        int needs; /* 1 host, 2 shared */
    } kinds[] = {{NULL, NULL, USMARR_STORAGE_HOST, 1},
                 {"gpu", "gt4py", USMARR_STORAGE_MANAGED, 1},
                 {"gpu", "cuda", USMARR_STORAGE_SHARED, 2},
                 {"gpu", "none", USMARR_STORAGE_DEVICE, 0}};
    const int64_t shape[] = {4, 5, 6}, width[] = {1, 2, 0};
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        usmarr_storage_options_t o = storage_opts(ctx, "IJK", 3, shape);
        o.device = kinds[k].device;
        o.managed = kinds[k].managed;
        usmarr_storage_halo_symmetric(&o, 3, width);
        usmarr_storage_t *st = NULL;
        int rc = usmarr_storage_full(&o, usmarr_scalar_float(2.5), &st);
        bool offered = kinds[k].needs == 1 ? host : kinds[k].needs == 2 ? shared : true;
        if (!offered) {
            ck_assert_msg(rc == USMARR_ERROR_UNSUPPORTED, "kind %zu: got %s", k, usmarr_error_name(rc));
            ck_assert_ptr_null(st);
            ck_assert_msg(strstr(usmarr_last_error_detail(), "_MEM_CAPABILITIES_INTEL is 0x0"), "kind %zu: %s", k,
                          usmarr_last_error_detail());
            continue;
        }
        ck_assert_msg(rc == 0, "kind %zu: %s", k, usmarr_last_error_detail());
        ck_assert_int_eq(usmarr_storage_kind(st), kinds[k].kind);
        usmarr_array_t *side;
        if (kinds[k].kind == USMARR_STORAGE_HOST)
            ck_assert_ok(usmarr_storage_host_array(st, false, &side));
        else
            ck_assert_ok(usmarr_storage_device_array(st, false, &side));
        int64_t n = usmarr_array_size(side);
        ck_assert_int_eq(n, 4 * 5 * 6); /* the shape includes the halo */
        double *v = malloc((size_t)n * sizeof *v);
        storage_read_side(side, v);
        for (int64_t i = 0; i < n; i++)
            ck_assert_msg(v[i] == 2.5, "kind %zu element %lld: %g", k, (long long)i, v[i]);
        free(v);
        usmarr_storage_release(st);
    }
    usmarr_context_release(ctx);
}
END_TEST

Suite *suite_storage(void);
Suite *suite_storage(void)
{
    Suite *s = suite_create("storage");
    TCase *t = tcase_create("core");
    tcase_set_timeout(t, 120);
    tcase_set_tags(t, TEST_TAG_HOST_USM);
    tcase_add_test(t, test_storage_alignment_address_every_preset_dtype_halo);
    tcase_add_test(t, test_storage_alignment_gt4py_example_float64_64_bytes_halo_3);
    tcase_add_test(t, test_storage_layout_table_F_axes_IJK);
    tcase_add_test(t, test_storage_layout_table_C_axes_IJK);
    tcase_add_test(t, test_storage_layout_table_gtx86_axes_IJK);
    tcase_add_test(t, test_storage_layout_table_gtcuda_axes_IJK);
    tcase_add_test(t, test_storage_layout_table_F_axes_KJI);
    tcase_add_test(t, test_storage_layout_table_C_axes_KJI);
    tcase_add_test(t, test_storage_layout_table_gtx86_axes_KJI);
    tcase_add_test(t, test_storage_layout_table_gtcuda_axes_KJI);
    tcase_add_test(t, test_storage_fallbacks_float64_IJK_no_halo_alignment_1_layout_IJK_host);
    tcase_add_test(t, test_storage_aligned_index_defaults_to_halo_lower);
    tcase_add_test(t, test_storage_shape_and_aligned_index_take_3_or_ndim_entries);
    tcase_add_test(t, test_storage_explicit_parameters_override_the_preset);
    tcase_add_test(t, test_storage_managed_defaults_to_gt4py_and_only_acts_with_a_device);
    tcase_add_test(t, test_storage_shape_is_required);
    tcase_add_test(t, test_storage_like_keeps_parameters_and_overrides_dtype);
    tcase_add_test(t, test_storage_like_cannot_override_shape_or_axes);
    tcase_add_test(t, test_storage_nbytes_excludes_padding);
    tcase_add_test(t, test_storage_halo_setter_changes_only_metadata);
    tcase_add_test(t, test_storage_axes_JI_first_index_is_J);
    tcase_add_test(t, test_storage_zeros_ones_full_fill_every_kind_and_side);
    tcase_add_test(t, test_storage_doc_worked_example);
    suite_add_tcase(s, t);
    t = tcase_create("presets and failures");
    tcase_set_timeout(t, 120);
    tcase_set_tags(t, TEST_TAG_HOST_USM);
    storage_add_param_tests(t);
    suite_add_tcase(s, t);
    t = tcase_create("sync");
    tcase_set_timeout(t, 120);
    tcase_set_tags(t, TEST_TAG_HOST_USM);
    storage_add_sync_tests(t);
    suite_add_tcase(s, t);
    t = tcase_create("views");
    tcase_set_timeout(t, 120);
    tcase_set_tags(t, TEST_TAG_HOST_USM);
    storage_add_view_tests(t);
    suite_add_tcase(s, t);
    t = tcase_create("kinds");
    tcase_set_timeout(t, 120);
    tcase_add_test(t, test_storage_every_kind_works_or_is_refused_by_the_device);
    suite_add_tcase(s, t);
    t = tcase_create("wrap");
    tcase_set_timeout(t, 120);
    tcase_set_tags(t, TEST_TAG_HOST_USM);
    storage_add_wrap_tests(t);
    suite_add_tcase(s, t);
    return s;
}
