/* Storage views and indexing (basic: storage views; advanced: plain arrays), reinterpret,
 * transpose, copy, export and the debug dump.  Values are checked against host loops
 * over the raw blocks; halo and aligned-index results against a brute-force count. */
#include "../harness/common.h"
#include "test_storage.h"

#include <stdlib.h>

/* An IJK float64 storage of `shape` whose element (i,j,k) holds 10000i + 100j + k. */
static usmarr_storage_t *numbered(usmarr_context_t *ctx, const int64_t *shape, const int64_t (*halo)[2],
                                  const char *device, const char *managed)
{
    usmarr_storage_options_t o = storage_opts(ctx, "IJK", 3, shape);
    o.alignment = 64;
    o.device = device;
    o.managed = managed;
    if (halo) {
        o.nhalo = 3;
        memcpy(o.halo, halo, sizeof o.halo);
    }
    usmarr_storage_t *s;
    ck_assert_ok(usmarr_storage_empty(&o, &s));
    int64_t n = shape[0] * shape[1] * shape[2];
    double *v = malloc((size_t)n * sizeof *v);
    for (int64_t i = 0; i < shape[0]; i++)
        for (int64_t j = 0; j < shape[1]; j++)
            for (int64_t k = 0; k < shape[2]; k++)
                v[(i * shape[1] + j) * shape[2] + k] = (double)(10000 * i + 100 * j + k);
    usmarr_array_t *a;
    if (usmarr_storage_kind(s) == USMARR_STORAGE_DEVICE)
        ck_assert_ok(usmarr_storage_device_array(s, true, &a));
    else
        ck_assert_ok(usmarr_storage_host_array(s, true, &a));
    storage_write_side(a, v);
    free(v);
    return s;
}

/* The values a storage view shows, in C order, read from its current side. */
static void view_values(usmarr_storage_t *s, double *out)
{
    usmarr_array_t *a;
    if (usmarr_storage_kind(s) == USMARR_STORAGE_DEVICE)
        ck_assert_ok(usmarr_storage_device_array(s, false, &a));
    else
        ck_assert_ok(usmarr_storage_host_array(s, false, &a));
    storage_read_side(a, out);
}

START_TEST(test_storage_reinterpret_IJK_10_20_30_as_KJI)
{
    usmarr_context_t *ctx = test_context();
    const int64_t shape[] = {10, 20, 30};
    const int64_t halo[3][2] = {{1, 2}, {3, 4}, {5, 6}};
    usmarr_storage_t *s = numbered(ctx, shape, halo, NULL, NULL), *r;
    ck_assert_ok(usmarr_storage_reinterpret(s, "KJI", &r));
    ck_assert_str_eq(usmarr_storage_axes(r), "KJI");
    /* The size in the K dimension changes from 30 to 10. */
    ck_assert_int_eq(usmarr_storage_shape(r)[0], 10);
    ck_assert_int_eq(usmarr_storage_shape(r)[2], 30);
    for (int k = 0; k < 3; k++) {
        ck_assert_int_eq(usmarr_storage_shape(r)[k], shape[k]);
        ck_assert_int_eq(usmarr_storage_strides(r)[k], usmarr_storage_strides(s)[k]);
        ck_assert_int_eq(usmarr_storage_halo(r)[k][0], halo[k][0]);
        ck_assert_int_eq(usmarr_storage_aligned_index(r)[k], halo[k][0]);
    }
    /* Same buffer; the layout names the same strides with the new letters. */
    ck_assert_str_eq(usmarr_storage_layout(s), "IJK");
    ck_assert_str_eq(usmarr_storage_layout(r), "KJI");
    usmarr_array_t *a, *b;
    ck_assert_ok(usmarr_storage_host_array(s, false, &a));
    ck_assert_ok(usmarr_storage_host_array(r, false, &b));
    ck_assert_ptr_eq(usmarr_array_data(a), usmarr_array_data(b));
    usmarr_storage_t *r2;
    ck_assert_ok(usmarr_storage_reinterpret(r, "IJK", &r2)); /* back again */
    ck_assert_str_eq(usmarr_storage_layout(r2), "IJK");
    usmarr_storage_release(r2);
    usmarr_storage_release(r);
    /* Fewer axes: "IJ" as "JK" maps I->J, J->K and the missing K onto the missing I. */
    usmarr_storage_t *plane;
    ck_assert_ok(usmarr_storage_index_text(s, ":, :, 0", &plane));
    ck_assert_ok(usmarr_storage_reinterpret(plane, "JK", &r));
    ck_assert_str_eq(usmarr_storage_layout(r), "JKI");
    usmarr_storage_release(r);
    usmarr_storage_release(plane);
    usmarr_storage_release(s);
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_storage_domain_view_0_0_0_is_the_first_inner_point)
{
    usmarr_context_t *ctx = test_context();
    const int64_t shape[] = {6, 7, 8};
    const int64_t halo[3][2] = {{1, 2}, {2, 1}, {3, 0}};
    const char *device[] = {NULL, "gpu", "gpu"}, *managed[] = {NULL, "none", "gt4py"};
    for (int kind = 0; kind < 3; kind++) {
        usmarr_storage_t *s = numbered(ctx, shape, halo, device[kind], managed[kind]), *d;
        ck_assert_ok(usmarr_storage_domain_view(s, &d));
        ck_assert_str_eq(usmarr_storage_axes(d), "IJK");
        const int64_t inner[] = {3, 4, 5};
        for (int k = 0; k < 3; k++) {
            ck_assert_int_eq(usmarr_storage_shape(d)[k], inner[k]);
            ck_assert_int_eq(usmarr_storage_halo(d)[k][0], 0);
            ck_assert_int_eq(usmarr_storage_halo(d)[k][1], 0);
            ck_assert_int_eq(usmarr_storage_aligned_index(d)[k], 0); /* it was the halo's corner */
        }
        ck_assert_int_eq(usmarr_storage_alignment(d), 64);
        ck_assert_str_eq(usmarr_storage_layout(d), "IJK");
        double v[60];
        view_values(d, v);
        ck_assert(v[0] == 10000 * 1 + 100 * 2 + 3); /* domain[0,0,0] is element (1,2,3) */
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 4; j++)
                for (int k = 0; k < 5; k++)
                    ck_assert(v[(i * 4 + j) * 5 + k] == 10000 * (i + 1) + 100 * (j + 2) + (k + 3));
        usmarr_storage_release(d);
        usmarr_storage_release(s);
    }
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_storage_integer_index_removes_its_letter_slice_keeps_it)
{
    usmarr_context_t *ctx = test_context();
    const int64_t shape[] = {4, 5, 6};
    const int64_t halo[3][2] = {{1, 1}, {2, 1}, {0, 2}};
    usmarr_storage_t *s = numbered(ctx, shape, halo, NULL, NULL), *v;
    usmarr_index_item_t items[] = {usmarr_index_integer(2), usmarr_index_slice(NULL, NULL, NULL),
                                   usmarr_index_slice(&(int64_t){1}, &(int64_t){4}, NULL)};
    ck_assert_ok(usmarr_storage_index(s, items, 3, &v));
    ck_assert_str_eq(usmarr_storage_axes(v), "JK");
    ck_assert_int_eq(usmarr_storage_ndim(v), 2);
    ck_assert_int_eq(usmarr_storage_shape(v)[0], 5);
    ck_assert_int_eq(usmarr_storage_shape(v)[1], 3);
    ck_assert_int_eq(usmarr_storage_halo(v)[0][0], 2); /* J untouched */
    ck_assert_int_eq(usmarr_storage_halo(v)[0][1], 1);
    ck_assert_int_eq(usmarr_storage_halo(v)[1][0], 0); /* K 1:4 of 6 with halo (0, 2): k=4,5 left out */
    ck_assert_int_eq(usmarr_storage_halo(v)[1][1], 0);
    double got[20];
    view_values(v, got);
    for (int j = 0; j < 5; j++)
        for (int k = 0; k < 3; k++)
            ck_assert(got[j * 3 + k] == 20000 + 100 * j + k + 1);
    usmarr_storage_release(v);
    /* Every axis an integer: a 0-d storage with axes "". */
    ck_assert_ok(usmarr_storage_index_text(s, "3, 4, 5", &v));
    ck_assert_str_eq(usmarr_storage_axes(v), "");
    ck_assert_int_eq(usmarr_storage_ndim(v), 0);
    view_values(v, got);
    ck_assert(got[0] == 30405);
    usmarr_storage_release(v);
    /* Ellipsis and negative integers. */
    ck_assert_ok(usmarr_storage_index_text(s, "..., -1", &v));
    ck_assert_str_eq(usmarr_storage_axes(v), "IJ");
    view_values(v, got);
    ck_assert(got[0] == 5);
    usmarr_storage_release(v);
    usmarr_storage_release(s);
    usmarr_context_release(ctx);
}
END_TEST

/* Brute force: the view's halo = selected points that were halo points, first-in-view
 * order (a negative step swaps the sides); aligned index = view position of the first
 * selected point at or past the old one in view order, or the length. */
static void brute_force(int64_t n, const int64_t halo[2], int64_t ai, int64_t first, int64_t len, int64_t step,
                        int64_t out_halo[2], int64_t *out_ai)
{
    out_halo[0] = out_halo[1] = 0;
    *out_ai = len;
    for (int64_t i = 0; i < len; i++) {
        int64_t p = first + i * step;
        bool low = p < halo[0], high = p >= n - halo[1];
        if (step > 0 ? low : high)
            out_halo[0]++;
        if (step > 0 ? high : low)
            out_halo[1]++;
        if (*out_ai == len && (step > 0 ? p >= ai : p <= ai))
            *out_ai = i;
    }
}

START_TEST(test_storage_index_moves_and_clips_halo_and_aligned_index)
{
    usmarr_context_t *ctx = test_context();
    const int64_t shape[] = {12, 3, 3};
    const int64_t halo[3][2] = {{3, 2}, {0, 0}, {0, 0}};
    usmarr_storage_t *s = numbered(ctx, shape, halo, NULL, NULL);
    const char *texts[] = {"1:10", "4:", ":5", "::2", "1::3", "::-1", "10:0:-2", "7:2:-1", "5:6", "6:6", "-3:", "::-5"};
    /* (first, length, step) of each slice over 12 elements, by Python's rules */
    const int64_t sl[][3] = {{1, 9, 1}, {4, 8, 1}, {0, 5, 1}, {0, 6, 2}, {1, 4, 3}, {11, 12, -1},
                             {10, 5, -2}, {7, 5, -1}, {5, 1, 1}, {6, 0, 1}, {9, 3, 1}, {11, 3, -5}};
    for (size_t t = 0; t < sizeof texts / sizeof *texts; t++) {
        usmarr_storage_t *v;
        ck_assert_ok(usmarr_storage_index_text(s, texts[t], &v));
        int64_t want_halo[2], want_ai;
        brute_force(12, halo[0], 3, sl[t][0], sl[t][1], sl[t][2], want_halo, &want_ai);
        ck_assert_int_eq(usmarr_storage_shape(v)[0], sl[t][1]);
        ck_assert_msg(usmarr_storage_halo(v)[0][0] == want_halo[0] && usmarr_storage_halo(v)[0][1] == want_halo[1],
                      "[%s]: halo (%lld, %lld), expected (%lld, %lld)", texts[t],
                      (long long)usmarr_storage_halo(v)[0][0], (long long)usmarr_storage_halo(v)[0][1],
                      (long long)want_halo[0], (long long)want_halo[1]);
        ck_assert_msg(usmarr_storage_aligned_index(v)[0] == want_ai, "[%s]: aligned index %lld, expected %lld",
                      texts[t], (long long)usmarr_storage_aligned_index(v)[0], (long long)want_ai);
        usmarr_storage_release(v);
    }
    usmarr_storage_release(s);
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_storage_index_views_share_memory_with_every_kind)
{
    usmarr_context_t *ctx = test_context();
    const int64_t shape[] = {3, 4, 5};
    const char *device[] = {NULL, "gpu", "gpu", "gpu"}, *managed[] = {NULL, "none", "cuda", "gt4py"};
    for (int kind = 0; kind < 4; kind++) {
        usmarr_storage_t *s = numbered(ctx, shape, NULL, device[kind], managed[kind]), *v;
        ck_assert_ok(usmarr_storage_index_text(s, "1, ::-1, 2:4", &v));
        ck_assert_int_eq(usmarr_storage_kind(v), usmarr_storage_kind(s));
        usmarr_array_t *a;
        bool device_only = kind == 1;
        ck_assert_ok(device_only ? usmarr_storage_device_array(v, true, &a) : usmarr_storage_host_array(v, true, &a));
        double w[8];
        for (int i = 0; i < 8; i++)
            w[i] = -1.0 - i;
        storage_write_side(a, w);
        double all[60];
        view_values(s, all); /* through the base: the same memory (a managed pair syncs) */
        for (int j = 0; j < 4; j++)
            for (int k = 0; k < 2; k++)
                ck_assert(all[(1 * 4 + (3 - j)) * 5 + (k + 2)] == -1.0 - (j * 2 + k));
        ck_assert(all[0] == 0.0);
        usmarr_storage_release(v);
        usmarr_storage_release(s);
    }
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_storage_transpose_accepts_an_axes_string)
{
    usmarr_context_t *ctx = test_context();
    const int64_t shape[] = {2, 3, 4};
    const int64_t halo[3][2] = {{0, 1}, {1, 1}, {2, 0}};
    usmarr_storage_t *s = numbered(ctx, shape, halo, "gpu", "gt4py"), *t;
    ck_assert_ok(usmarr_storage_transpose(s, "KIJ", &t));
    ck_assert_str_eq(usmarr_storage_axes(t), "KIJ");
    ck_assert_str_eq(usmarr_storage_layout(t), "IJK"); /* strides per letter unchanged */
    const int perm[] = {2, 0, 1};
    for (int k = 0; k < 3; k++) {
        ck_assert_int_eq(usmarr_storage_shape(t)[k], shape[perm[k]]);
        ck_assert_int_eq(usmarr_storage_strides(t)[k], usmarr_storage_strides(s)[perm[k]]);
        ck_assert_int_eq(usmarr_storage_halo(t)[k][0], halo[perm[k]][0]);
        ck_assert_int_eq(usmarr_storage_halo(t)[k][1], halo[perm[k]][1]);
        ck_assert_int_eq(usmarr_storage_aligned_index(t)[k], halo[perm[k]][0]);
    }
    double v[24];
    view_values(t, v);
    for (int k = 0; k < 4; k++)
        for (int i = 0; i < 2; i++)
            for (int j = 0; j < 3; j++)
                ck_assert(v[(k * 2 + i) * 3 + j] == 10000 * i + 100 * j + k);
    ck_assert_ptr_eq(usmarr_storage_sync_state(t), usmarr_storage_sync_state(s));
    usmarr_storage_release(t);
    ck_assert_ok(usmarr_storage_transpose(s, NULL, &t)); /* NULL reverses */
    ck_assert_str_eq(usmarr_storage_axes(t), "KJI");
    ck_assert_int_eq(usmarr_storage_shape(t)[0], 4);
    usmarr_storage_release(t);
    usmarr_storage_release(s);
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_storage_copy_keeps_every_parameter)
{
    usmarr_context_t *ctx = test_context();
    const int64_t shape[] = {5, 4, 3};
    const int64_t halo[3][2] = {{1, 2}, {0, 1}, {1, 1}};
    const char *device[] = {NULL, "gpu", "gpu", "gpu"}, *managed[] = {NULL, "none", "cuda", "gt4py"};
    for (int kind = 0; kind < 4; kind++) {
        usmarr_storage_t *s = numbered(ctx, shape, halo, device[kind], managed[kind]), *c;
        ck_assert_ok(usmarr_storage_copy(s, &c));
        ck_assert_int_eq(usmarr_storage_kind(c), usmarr_storage_kind(s));
        ck_assert_int_eq(usmarr_storage_dtype(c), USMARR_FLOAT64);
        ck_assert_str_eq(usmarr_storage_axes(c), "IJK");
        ck_assert_str_eq(usmarr_storage_layout(c), usmarr_storage_layout(s));
        ck_assert_int_eq(usmarr_storage_alignment(c), 64);
        for (int k = 0; k < 3; k++) {
            ck_assert_int_eq(usmarr_storage_shape(c)[k], shape[k]);
            ck_assert_int_eq(usmarr_storage_strides(c)[k], usmarr_storage_strides(s)[k]);
            ck_assert_int_eq(usmarr_storage_halo(c)[k][0], halo[k][0]);
            ck_assert_int_eq(usmarr_storage_halo(c)[k][1], halo[k][1]);
            ck_assert_int_eq(usmarr_storage_aligned_index(c)[k], halo[k][0]);
        }
        if (kind == 3) { /* a host-dirty pair copies as a host-dirty pair */
            usmarr_sync_t v;
            ck_assert_ok(usmarr_sync_state_get(usmarr_storage_sync_state(c), &v));
            ck_assert_int_eq(v, USMARR_SYNC_HOST_DIRTY);
            ck_assert_ptr_ne(usmarr_storage_sync_state(c), usmarr_storage_sync_state(s));
        }
        double a[60], b[60];
        view_values(s, a);
        view_values(c, b);
        for (int i = 0; i < 60; i++)
            ck_assert(a[i] == b[i] && a[i] == (double)(10000 * (i / 12) + 100 * (i / 3 % 4) + i % 3));
        usmarr_storage_release(s);
        view_values(c, b); /* the copy owns its memory */
        ck_assert(b[59] == 40302);
        usmarr_storage_t *d, *dc;
        ck_assert_ok(usmarr_storage_domain_view(c, &d));
        ck_assert_ok(usmarr_storage_copy(d, &dc)); /* a copy of a view is a new aligned storage */
        ck_assert_int_eq(usmarr_storage_shape(dc)[0], 2);
        ck_assert_int_eq(usmarr_storage_halo(dc)[0][0], 0);
        view_values(dc, b);
        ck_assert(b[0] == 10001); /* element (1, 0, 1) */
        usmarr_storage_release(dc);
        usmarr_storage_release(d);
        usmarr_storage_release(c);
    }
    usmarr_context_release(ctx);
}
END_TEST

static usmarr_array_t *int64_array(usmarr_context_t *ctx, int nd, const int64_t *shape, const int64_t *values)
{
    usmarr_array_t *a;
    ck_assert_ok(usmarr_array_from_host(ctx, nd, shape, USMARR_INT64, values, NULL, USMARR_USM_DEVICE, &a));
    return a;
}

START_TEST(test_storage_advanced_indexing_gives_a_plain_array)
{
    usmarr_context_t *ctx = test_context();
    const int64_t shape[] = {3, 4, 5};
    const char *device[] = {NULL, "gpu", "gpu"}, *managed[] = {NULL, "none", "gt4py"};
    for (int kind = 0; kind < 3; kind++) {
        usmarr_storage_t *s = numbered(ctx, shape, NULL, device[kind], managed[kind]);
        /* A boolean mask array: the selected elements in C order, 1-d. */
        bool m[60];
        int64_t count = 0;
        for (int i = 0; i < 60; i++)
            count += m[i] = (i * 7) % 5 == 1;
        usmarr_array_t *mask, *r;
        ck_assert_ok(usmarr_array_from_host(ctx, 3, shape, USMARR_BOOL, m, NULL, USMARR_USM_DEVICE, &mask));
        ck_assert_ok(usmarr_storage_get_mask(s, NULL, mask, &r));
        ck_assert_int_eq(usmarr_array_ndim(r), 1);
        ck_assert_int_eq(usmarr_array_shape(r)[0], count);
        double got[60];
        ck_assert_ok(usmarr_array_copy_to_host(r, got, NULL));
        for (int i = 0, n = 0; i < 60; i++)
            if (m[i])
                ck_assert(got[n++] == 10000 * (i / 20) + 100 * (i / 5 % 4) + i % 5);
        usmarr_array_release(r);
        /* A mask storage with permuted axes ("KJI") selects by letter. */
        const int64_t kji[] = {5, 4, 3};
        usmarr_storage_options_t o = storage_opts(ctx, "KJI", 3, kji);
        o.dtype = USMARR_BOOL;
        usmarr_storage_t *ms;
        ck_assert_ok(usmarr_storage_zeros(&o, &ms));
        usmarr_array_t *mh;
        ck_assert_ok(usmarr_storage_host_array(ms, true, &mh));
        bool mk[60] = {false};
        mk[(4 * 4 + 1) * 3 + 2] = true; /* K=4, J=1, I=2 */
        mk[(0 * 4 + 3) * 3 + 0] = true; /* K=0, J=3, I=0 */
        storage_write_side(mh, mk);
        ck_assert_ok(usmarr_storage_get_mask(s, ms, NULL, &r));
        ck_assert_int_eq(usmarr_array_shape(r)[0], 2);
        ck_assert_ok(usmarr_array_copy_to_host(r, got, NULL));
        ck_assert(got[0] == 300);   /* (0,3,0) first in the storage's C order */
        ck_assert(got[1] == 20104); /* (2,1,4) */
        usmarr_array_release(r);
        /* One integer array per axis, broadcast together, negatives from the end. */
        const int64_t ishape[] = {2, 1}, jshape[] = {3}, kshape[] = {1, 3};
        const int64_t iv[] = {0, -1}, jv[] = {1, 3, -4}, kv[] = {4, 0, -2};
        usmarr_array_t *ind[3] = {int64_array(ctx, 2, ishape, iv), int64_array(ctx, 1, jshape, jv),
                                  int64_array(ctx, 2, kshape, kv)};
        ck_assert_ok(usmarr_storage_get_indices(s, (const usmarr_array_t *const *)ind, &r));
        ck_assert_int_eq(usmarr_array_ndim(r), 2);
        ck_assert_int_eq(usmarr_array_shape(r)[0], 2);
        ck_assert_int_eq(usmarr_array_shape(r)[1], 3);
        ck_assert_ok(usmarr_array_copy_to_host(r, got, NULL));
        for (int a = 0; a < 2; a++)
            for (int b = 0; b < 3; b++) {
                int64_t i = (iv[a] + 3) % 3, j = (jv[b] + 4) % 4, k = (kv[b] + 5) % 5;
                ck_assert(got[a * 3 + b] == 10000 * i + 100 * j + k);
            }
        usmarr_array_release(r);
        const int64_t bad[] = {0, 4, 1};
        usmarr_array_t *keep = ind[1];
        ind[1] = int64_array(ctx, 1, jshape, bad);
        r = NULL;
        ck_assert_fails_with(usmarr_storage_get_indices(s, (const usmarr_array_t *const *)ind, &r),
                             USMARR_ERROR_INDEX, "indices[1] (axis J): index 4 is out of bounds");
        ck_assert_ptr_null(r);
        usmarr_array_release(ind[1]);
        ind[1] = keep;
        ck_assert_fails_with(usmarr_storage_get_mask(s, ms, mask, &r), USMARR_ERROR_INVALID_ARGUMENT, "exactly one");
        ck_assert_fails_with(usmarr_storage_get_mask(s, NULL, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT, "exactly one");
        ck_assert_fails_with(usmarr_storage_get_mask(NULL, ms, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT, "storage");
        ck_assert_fails_with(usmarr_storage_get_mask(s, ms, NULL, NULL), USMARR_ERROR_INVALID_ARGUMENT, "result");
        usmarr_storage_t *plane;
        ck_assert_ok(usmarr_storage_index_text(ms, "0", &plane));
        ck_assert_fails_with(usmarr_storage_get_mask(s, plane, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT,
                             "mask_storage has axes \"JI\"");
        usmarr_array_t *small;
        ck_assert_ok(usmarr_array_from_host(ctx, 3, (const int64_t[]){3, 4, 4}, USMARR_BOOL, m, NULL,
                                            USMARR_USM_DEVICE, &small));
        ck_assert_fails_with(usmarr_storage_get_mask(s, NULL, small, &r), USMARR_ERROR_SHAPE_MISMATCH, "(3, 4, 4)");
        usmarr_array_release(small);
        usmarr_storage_release(plane);
        ck_assert_fails_with(usmarr_storage_get_indices(s, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT, "indices");
        ck_assert_fails_with(usmarr_storage_get_indices(NULL, (const usmarr_array_t *const *)ind, &r),
                             USMARR_ERROR_INVALID_ARGUMENT, "storage");
        ck_assert_fails_with(usmarr_storage_get_indices(s, (const usmarr_array_t *const *)ind, NULL),
                             USMARR_ERROR_INVALID_ARGUMENT, "result");
        usmarr_array_t *holes[3] = {ind[0], NULL, ind[2]};
        ck_assert_fails_with(usmarr_storage_get_indices(s, (const usmarr_array_t *const *)holes, &r),
                             USMARR_ERROR_INVALID_ARGUMENT, "indices[1] (axis J) is NULL");
        ck_assert_ptr_null(r);
        for (int k = 0; k < 3; k++)
            usmarr_array_release(ind[k]);
        usmarr_array_release(mask);
        usmarr_storage_release(ms);
        usmarr_storage_release(s);
    }
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_storage_index_reinterpret_transpose_copy_fail_cleanly)
{
    usmarr_context_t *ctx = test_context();
    const int64_t shape[] = {3, 4, 5};
    usmarr_storage_t *s = numbered(ctx, shape, NULL, NULL, NULL);
    usmarr_storage_t *v = (usmarr_storage_t *)&v;
    usmarr_storage_t *const untouched = v;
    usmarr_index_item_t items[] = {usmarr_index_integer(0), usmarr_index_newaxis()};
    ck_assert_fails_with(usmarr_storage_index(s, items, 2, &v), USMARR_ERROR_INVALID_ARGUMENT,
                         "items[1]: a new axis has no axis letter");
    items[0] = usmarr_index_integer(3);
    ck_assert_fails_with(usmarr_storage_index(s, items, 1, &v), USMARR_ERROR_INDEX,
                         "index 3 is out of bounds for axis 0 (I) with size 3");
    ck_assert_fails_with(usmarr_storage_index_text(s, "0, 0, 0, 0", &v), USMARR_ERROR_INVALID_ARGUMENT,
                         "4 items index a storage of 3 axes");
    ck_assert_fails_with(usmarr_storage_index_text(s, "..., 1, ...", &v), USMARR_ERROR_PARSE, "at most one '...'");
    ck_assert_fails_with(usmarr_storage_index_text(s, "1:2:0", &v), USMARR_ERROR_PARSE, "step");
    items[0] = usmarr_index_slice(NULL, NULL, &(int64_t){0});
    ck_assert_fails_with(usmarr_storage_index(s, items, 1, &v), USMARR_ERROR_INVALID_ARGUMENT, "step must not be zero");
    ck_assert_fails_with(usmarr_storage_index_text(s, "1:x", &v), USMARR_ERROR_PARSE, "column");
    ck_assert_fails_with(usmarr_storage_index(s, NULL, 1, &v), USMARR_ERROR_INVALID_ARGUMENT, "items is NULL");
    ck_assert_fails_with(usmarr_storage_index(NULL, items, 0, &v), USMARR_ERROR_INVALID_ARGUMENT, "storage");
    ck_assert_fails_with(usmarr_storage_index(s, items, 0, NULL), USMARR_ERROR_INVALID_ARGUMENT, "view");
    ck_assert_fails_with(usmarr_storage_domain_view(NULL, &v), USMARR_ERROR_INVALID_ARGUMENT, "storage");
    ck_assert_fails_with(usmarr_storage_domain_view(s, NULL), USMARR_ERROR_INVALID_ARGUMENT, "view");
    ck_assert_fails_with(usmarr_storage_reinterpret(s, "KJ", &v), USMARR_ERROR_INVALID_ARGUMENT,
                         "axes=\"KJ\" has 2 letters, the storage has 3");
    ck_assert_fails_with(usmarr_storage_reinterpret(s, "KKI", &v), USMARR_ERROR_INVALID_ARGUMENT, "appears twice");
    ck_assert_fails_with(usmarr_storage_reinterpret(s, NULL, &v), USMARR_ERROR_INVALID_ARGUMENT, "axes is NULL");
    ck_assert_fails_with(usmarr_storage_reinterpret(NULL, "IJK", &v), USMARR_ERROR_INVALID_ARGUMENT, "storage");
    ck_assert_fails_with(usmarr_storage_transpose(s, "KJ", &v), USMARR_ERROR_INVALID_ARGUMENT,
                         "axes=\"KJ\" is not a permutation of \"IJK\"");
    ck_assert_fails_with(usmarr_storage_transpose(s, "IJL", &v), USMARR_ERROR_INVALID_ARGUMENT, "'L'");
    ck_assert_fails_with(usmarr_storage_transpose(NULL, NULL, &v), USMARR_ERROR_INVALID_ARGUMENT, "storage");
    usmarr_storage_t *plane;
    ck_assert_ok(usmarr_storage_index_text(s, ":, 0", &plane));
    ck_assert_fails_with(usmarr_storage_transpose(plane, "KJ", &v), USMARR_ERROR_INVALID_ARGUMENT,
                         "not a permutation of \"IK\"");
    usmarr_storage_t *point;
    ck_assert_ok(usmarr_storage_index_text(s, "0, 0, 0", &point));
    usmarr_array_t *none = NULL, *r = NULL;
    ck_assert_fails_with(usmarr_storage_get_indices(point, (const usmarr_array_t *const *)&none, &r),
                         USMARR_ERROR_INVALID_ARGUMENT, "storage is 0-d");
    ck_assert_ptr_null(r);
    usmarr_storage_release(point);
    ck_assert_fails_with(usmarr_storage_copy(NULL, &v), USMARR_ERROR_INVALID_ARGUMENT, "storage");
    ck_assert_fails_with(usmarr_storage_copy(s, NULL), USMARR_ERROR_INVALID_ARGUMENT, "copy");
    ck_assert_ptr_eq(v, untouched);
    ck_assert_int_eq(usmarr_storage_refcount(s), 1);
    usmarr_storage_release(plane);
    usmarr_storage_release(s);
    usmarr_context_release(ctx);
}
END_TEST

/* ---- export and the dump --------------------------------------------------------------------- */

START_TEST(test_storage_array_interfaces_host_side_and_device_side)
{
    usmarr_context_t *ctx = test_context();
    const int64_t shape[] = {2, 3, 4};
    usmarr_storage_t *s = numbered(ctx, shape, NULL, "gpu", "gt4py");
    usmarr_sync_t st;
    /* Host side: NumPy's __array_interface__, strides in bytes (padded K: 8 items). */
    char *json;
    ck_assert_ok(usmarr_storage_host_json(s, &json));
    usmarr_array_t *h;
    ck_assert_ok(usmarr_storage_host_array(s, false, &h));
    char want[256];
    snprintf(want, sizeof want,
             "{\"shape\": [2, 3, 4], \"typestr\": \"<f8\", \"data\": [%llu, false], \"strides\": [192, 64, 8], "
             "\"version\": 3}",
             (unsigned long long)(uintptr_t)usmarr_array_data(h));
    ck_assert_str_eq(json, want);
    usmarr_string_free(json);
    ck_assert_ok(usmarr_sync_state_get(usmarr_storage_sync_state(s), &st));
    ck_assert_int_eq(st, USMARR_SYNC_HOST_DIRTY); /* handed out writable */
    /* Device side: the USM array interface, after pushing the host's news. */
    usmarr_interface_t iface;
    ck_assert_ok(usmarr_storage_device_interface(s, &iface));
    usmarr_array_t *d;
    ck_assert_ok(usmarr_storage_device_array(s, false, &d));
    ck_assert_ptr_eq(iface.data, usmarr_memory_pointer(usmarr_array_memory(d)));
    ck_assert_int_eq(iface.offset, usmarr_array_offset(d));
    ck_assert_int_eq(iface.strides[1], 8);
    ck_assert_ok(usmarr_sync_state_get(usmarr_storage_sync_state(s), &st));
    ck_assert_int_eq(st, USMARR_SYNC_DEVICE_DIRTY);
    double v[24];
    storage_read_side(d, v);
    ck_assert(v[23] == 10203);
    ck_assert_ok(usmarr_storage_device_json(s, &json));
    ck_assert_ptr_nonnull(strstr(json, "\"strides\": [24, 8, 1]"));
    ck_assert_ptr_nonnull(strstr(json, "\"version\": 1"));
    usmarr_array_t *back;
    ck_assert_ok(usmarr_array_from_json(json, ctx, NULL, NULL, &back)); /* round trip, no copy */
    ck_assert_ptr_eq(usmarr_array_data(back), usmarr_array_data(d));
    usmarr_array_release(back);
    usmarr_string_free(json);
    usmarr_storage_release(s);
    /* A host storage has no device interface and a device storage no host interface. */
    s = numbered(ctx, shape, NULL, NULL, NULL);
    json = (char *)&st;
    ck_assert_fails_with(usmarr_storage_device_json(s, &json), USMARR_ERROR_UNSUPPORTED, "host storage");
    ck_assert_fails_with(usmarr_storage_device_interface(s, &iface), USMARR_ERROR_UNSUPPORTED, "host storage");
    usmarr_storage_t *c;
    ck_assert_ok(usmarr_storage_index_text(s, "0, 0", &c)); /* 1-d, C-contiguous: null strides */
    ck_assert_ok(usmarr_storage_host_json(c, &json));
    ck_assert_ptr_nonnull(strstr(json, "\"strides\": null"));
    usmarr_string_free(json);
    usmarr_storage_release(c);
    usmarr_storage_release(s);
    s = numbered(ctx, shape, NULL, "gpu", "none");
    json = (char *)&st;
    ck_assert_fails_with(usmarr_storage_host_json(s, &json), USMARR_ERROR_UNSUPPORTED, "device storage");
    ck_assert_ptr_eq(json, (char *)&st);
    ck_assert_fails_with(usmarr_storage_host_json(NULL, &json), USMARR_ERROR_INVALID_ARGUMENT, "storage");
    ck_assert_fails_with(usmarr_storage_host_json(s, NULL), USMARR_ERROR_INVALID_ARGUMENT, "json");
    ck_assert_fails_with(usmarr_storage_device_json(s, NULL), USMARR_ERROR_INVALID_ARGUMENT, "json");
    ck_assert_fails_with(usmarr_storage_device_interface(NULL, &iface), USMARR_ERROR_INVALID_ARGUMENT, "storage");
    ck_assert_fails_with(usmarr_storage_device_interface(s, NULL), USMARR_ERROR_INVALID_ARGUMENT, "iface");
    usmarr_storage_release(s);
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_storage_debug_print_shows_parameters_and_sync_state)
{
    usmarr_context_t *ctx = test_context();
    const int64_t shape[] = {2, 3, 4};
    const int64_t halo[3][2] = {{0, 1}, {1, 1}, {2, 0}};
    usmarr_storage_t *s = numbered(ctx, shape, halo, "gpu", "gt4py");
    char *text;
    ck_assert_ok(usmarr_storage_debug_string(s, &text));
    const char *needles[] = {"------ usmarr storage", "kind: managed", "axes: \"IJK\"", "shape: (2, 3, 4)",
                             "halo: ((0, 1), (1, 1), (2, 0))", "aligned_index: (0, 1, 2)", "alignment: 64 bytes",
                             "layout: \"IJK\"", "nbytes: 192", "state: host dirty", "storages of the pair: 1",
                             " host side:", " device side:", "kind: device", "kind: host"};
    for (size_t i = 0; i < sizeof needles / sizeof *needles; i++)
        ck_assert_msg(strstr(text, needles[i]), "dump lacks \"%s\":\n%s", needles[i], text);
    usmarr_string_free(text);
    FILE *f = tmpfile();
    ck_assert_ok(usmarr_storage_debug_print(s, f));
    ck_assert_int_gt(ftell(f), 500);
    fclose(f);
    ck_assert_fails_with(usmarr_storage_debug_print(NULL, stdout), USMARR_ERROR_INVALID_ARGUMENT, "storage");
    ck_assert_fails_with(usmarr_storage_debug_print(s, NULL), USMARR_ERROR_INVALID_ARGUMENT, "out");
    ck_assert_fails_with(usmarr_storage_debug_string(NULL, &text), USMARR_ERROR_INVALID_ARGUMENT, "storage");
    ck_assert_fails_with(usmarr_storage_debug_string(s, NULL), USMARR_ERROR_INVALID_ARGUMENT, "text");
    usmarr_storage_release(s);
    usmarr_context_release(ctx);
}
END_TEST

void storage_add_view_tests(TCase *t)
{
    tcase_add_test(t, test_storage_reinterpret_IJK_10_20_30_as_KJI);
    tcase_add_test(t, test_storage_domain_view_0_0_0_is_the_first_inner_point);
    tcase_add_test(t, test_storage_integer_index_removes_its_letter_slice_keeps_it);
    tcase_add_test(t, test_storage_index_moves_and_clips_halo_and_aligned_index);
    tcase_add_test(t, test_storage_index_views_share_memory_with_every_kind);
    tcase_add_test(t, test_storage_transpose_accepts_an_axes_string);
    tcase_add_test(t, test_storage_copy_keeps_every_parameter);
    tcase_add_test(t, test_storage_advanced_indexing_gives_a_plain_array);
    tcase_add_test(t, test_storage_index_reinterpret_transpose_copy_fail_cleanly);
    tcase_add_test(t, test_storage_array_interfaces_host_side_and_device_side);
    tcase_add_test(t, test_storage_debug_print_shows_parameters_and_sync_state);
}
