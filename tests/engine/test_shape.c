/* Kernel shapes (lib/engine/kernel_shape.c) and their tuner (lib/cache/tune.c): the text form
 * and USMARR_KERNEL_SHAPE, the tuned entry in the disk cache (stored, reloaded, a corrupt
 * or unreadable entry is a miss and is deleted, a forced shape still wins), the public
 * functions' failures, and correct results under every candidate the tuner may choose,
 * against host loops. */
#define _GNU_SOURCE /* nftw, memmem */
#include "../harness/common.h"
#include "test_cache.h"

#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

static char root[1024];
static char *saved_shape;

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    return remove(path);
}

/* A private cache directory in mode on (a tuned entry must never reach another test's
 * cache), and USMARR_KERNEL_SHAPE unset. */
static void setup(void)
{
    ck_assert(test_temp_dir(root, sizeof root, "usmarr-shape-test"));
    ck_assert_ok(usmarr_cache_set_directory(root));
    ck_assert_ok(usmarr_cache_set_mode(USMARR_CACHE_ON));
    const char *s = getenv("USMARR_KERNEL_SHAPE");
    saved_shape = s ? strdup(s) : NULL;
    unsetenv("USMARR_KERNEL_SHAPE");
}

static void teardown(void)
{
    if (saved_shape)
        setenv("USMARR_KERNEL_SHAPE", saved_shape, 1);
    else
        unsetenv("USMARR_KERNEL_SHAPE");
    free(saved_shape);
    saved_shape = NULL;
    ck_assert_ok(usmarr_cache_set_directory(NULL));
    const char *mode = getenv("USMARR_CACHE");
    ck_assert_ok(usmarr_cache_set_mode(mode && !strcmp(mode, "off")        ? USMARR_CACHE_OFF
                                       : mode && !strcmp(mode, "readonly") ? USMARR_CACHE_READONLY
                                                                           : USMARR_CACHE_ON));
    nftw(root, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

static void shape_of(usmarr_context_t *ctx, char *text, size_t size)
{
    ck_assert_ok(usmarr_cache_kernel_shape(ctx, text, size));
}

static bool ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), m = strlen(tail);
    return n >= m && !strcmp(s + n - m, tail);
}

/* The shape's fields without " (origin)". */
static void fields_of(const char *text, char *fields, size_t size)
{
    snprintf(fields, size, "%s", text);
    char *paren = strrchr(fields, '(');
    ck_assert_ptr_nonnull(paren);
    paren[-1] = 0;
}

/* ---- text and USMARR_KERNEL_SHAPE ------------------------------------------------------ */

START_TEST(test_shape_text_names_every_field_and_forcing_it_gives_it_back)
{
    usmarr_context_t *ctx = test_context();
    char text[512], fields[512], again[512];
    shape_of(ctx, text, sizeof text);
    ck_assert_msg(ends_with(text, " (table)"), "%s", text);
    const char *keys[] = {" contig=", " vecs=", " nt=", " rows=", " rowgroup=", " rowvec=", " copyvec=", " masks=", " tblock=", " tile=", " s2=", " tree=", " ptrval="};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        ck_assert_msg(strstr(text, keys[i]), "%s lacks %s", text, keys[i]);
    usmarr_context_release(ctx);

    /* The whole text forced: the same fields, origin forced. */
    fields_of(text, fields, sizeof fields);
    setenv("USMARR_KERNEL_SHAPE", fields, 1);
    ctx = test_context();
    shape_of(ctx, again, sizeof again);
    usmarr_context_release(ctx);
    ck_assert_msg(ends_with(again, " (forced)"), "%s", again);
    char forced[512];
    fields_of(again, forced, sizeof forced);
    ck_assert_str_eq(forced, fields);

    /* Fields alone apply over the table's shape; a table name resets to that entry. */
    setenv("USMARR_KERNEL_SHAPE", "masks=1 rowgroup=64x4 nt=8M", 1);
    ctx = test_context();
    shape_of(ctx, again, sizeof again);
    usmarr_context_release(ctx);
    ck_assert_msg(strstr(again, " masks=1 ") && strstr(again, " rowgroup=64x4 ") && strstr(again, " nt=8M "), "%s",
                  again);
    ck_assert_msg(!strncmp(again, fields, strcspn(fields, " ")), "%s: the name changed from %s", again, fields);
    setenv("USMARR_KERNEL_SHAPE", "generic s2=32", 1);
    ctx = test_context();
    shape_of(ctx, again, sizeof again);
    usmarr_context_release(ctx);
    ck_assert_msg(!strncmp(again, "generic ", 8) && strstr(again, " tile=1 ") && strstr(again, " s2=32 "), "%s",
                  again);

    /* Anything unreadable is ignored as a whole: the table's shape. */
    const char *bad[] = {"nonsense", "masks=2", "contig=vec8/64", "contig=one/100", "rowgroup=128x64",
                         "s2=3",     "tree=256/256", "nt=-1", "masks=1 gpu", "rows=1x", "rowvec=3", "tblock=2", "copyvec=5", "ptrval=2", "vecs=3", "vecs=32"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        setenv("USMARR_KERNEL_SHAPE", bad[i], 1);
        ctx = test_context();
        shape_of(ctx, again, sizeof again);
        usmarr_context_release(ctx);
        ck_assert_msg(!strcmp(again, text), "USMARR_KERNEL_SHAPE=%s gave %s, expected %s", bad[i], again, text);
    }
}
END_TEST

/* ---- operand addresses by value ------------------------------------------------------- */

/* Whether `p` is a live USM allocation of the context, asked of the driver. */
static bool block_alive(usmarr_context_t *ctx, const void *p)
{
    typedef cl_int(CL_API_CALL * info_fn)(cl_context, const void *, cl_mem_info_intel, size_t, void *, size_t *);
    cl_platform_id platform;
    clGetDeviceInfo(usmarr_context_device(ctx), CL_DEVICE_PLATFORM, sizeof platform, &platform, NULL);
    info_fn info = (info_fn)clGetExtensionFunctionAddressForPlatform(platform, "clGetMemAllocInfoINTEL");
    cl_unified_shared_memory_type_intel type = CL_MEM_TYPE_UNKNOWN_INTEL;
    cl_int err = info(usmarr_context_cl_context(ctx), p, CL_MEM_ALLOC_TYPE_INTEL, sizeof type, &type, NULL);
    return err == CL_SUCCESS && type != CL_MEM_TYPE_UNKNOWN_INTEL;
}

/* With ptrval the maps pass their operands' addresses by value, so the driver's blocking
 * free no longer knows that queued work uses a block: a released block that queued maps
 * write must stay allocated until they are done.  Released (the pool off, so that the
 * release frees it) while a marker after the maps has not completed, it is still
 * allocated; after a finish it is freed.  On the SVM backend the field is refused (the
 * maps keep their pointer arguments) and its own blocking free waits. */
START_TEST(test_shape_ptrval_maps_are_done_before_their_block_is_freed)
{
    const char *pool = getenv("USMARR_POOL_BYTES");
    char *saved_pool = pool ? strdup(pool) : NULL;
    setenv("USMARR_KERNEL_SHAPE", "ptrval=1", 1);
    setenv("USMARR_POOL_BYTES", "0", 1);
    usmarr_context_t *ctx = test_context();
    if (saved_pool)
        setenv("USMARR_POOL_BYTES", saved_pool, 1);
    else
        unsetenv("USMARR_POOL_BYTES");
    free(saved_pool);
    char text[512];
    shape_of(ctx, text, sizeof text);
    bool svm = usmarr_context_info(ctx)->backend == USMARR_BACKEND_SVM;
    ck_assert_msg(strstr(text, svm ? " ptrval=0 " : " ptrval=1 "), "%s", text);

    int64_t n = 8 << 20;
    usmarr_array_t *a, *out;
    ck_assert_ok(usmarr_array_empty(ctx, 1, &n, USMARR_FLOAT32, USMARR_ORDER_C, USMARR_USM_DEVICE, &a));
    ck_assert_ok(usmarr_array_empty(ctx, 1, &n, USMARR_FLOAT32, USMARR_ORDER_C, USMARR_USM_DEVICE, &out));
    ck_assert_ok(usmarr_array_fill(a, usmarr_scalar_float(0.5)));
    ck_assert_ok(usmarr_context_finish(ctx));
    for (int i = 0; i < 8; i++) /* tens of milliseconds of work into `out` */
        ck_assert_ok(usmarr_exp(a, out, NULL));
    cl_event marker;
    ck_assert_int_eq(clEnqueueMarkerWithWaitList(usmarr_context_queue(ctx), 0, NULL, &marker), CL_SUCCESS);
    void *p = usmarr_array_data(out);
    usmarr_array_release(out); /* freed once the maps are done, without waiting now */
    cl_int status = CL_QUEUED;
    ck_assert_int_eq(clGetEventInfo(marker, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL),
                     CL_SUCCESS);
    ck_assert_msg(status == CL_COMPLETE || svm || block_alive(ctx, p),
                  "the block was freed while the maps writing it were still running (status %d)", (int)status);
    ck_assert_ok(usmarr_context_finish(ctx));
    ck_assert_int_eq(clGetEventInfo(marker, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL),
                     CL_SUCCESS);
    ck_assert_int_eq(status, CL_COMPLETE);
    ck_assert(svm || !block_alive(ctx, p)); /* and freed by the finish */
    clReleaseEvent(marker);

    usmarr_array_release(a);
    usmarr_context_release(ctx);
}
END_TEST

/* ---- the tuned entry ------------------------------------------------------------------ */

/* The cache file that holds the tuned shape: the one entry whose key names it. */
static bool shape_entry(char *path, size_t size)
{
    static const char marker[] = "usmarr kernel shape";
    DIR *d = opendir(root);
    ck_assert_ptr_nonnull(d);
    struct dirent *e;
    bool found = false;
    while (!found && (e = readdir(d))) {
        if (!strstr(e->d_name, ".clbin"))
            continue;
        snprintf(path, size, "%s/%s", root, e->d_name);
        FILE *f = fopen(path, "rb");
        ck_assert_ptr_nonnull(f);
        char buf[4096];
        size_t n = fread(buf, 1, sizeof buf, f);
        fclose(f);
        found = memmem(buf, n, marker, sizeof marker - 1) != NULL;
    }
    closedir(d);
    return found;
}

/* Replaces `from` by `to` (same length) in the entry's payload and seals it again with a
 * valid checksum (the layout of doc/cache.md, "Entries"), as a writer would have. */
static void rewrite_payload(const char *path, const char *from, const char *to)
{
    size_t size;
    unsigned char *data = cache_read_file(path, &size);
    ck_assert_uint_eq(strlen(from), strlen(to));
    unsigned char *at = memmem(data, size - 16, from, strlen(from));
    ck_assert_msg(at != NULL, "%s not in the entry", from);
    memcpy(at, to, strlen(to));
    XXH128_canonical_t sum;
    XXH128_canonicalFromHash(&sum, XXH3_128bits(data, size - 16));
    memcpy(data + size - 16, &sum, 16);
    cache_write_file(path, data, size);
    free(data);
}

START_TEST(test_shape_tuned_entry_is_stored_reloaded_and_forcing_still_wins)
{
    usmarr_context_t *ctx = test_context();
    char table[512], tuned[512], text[512], path[PATH_MAX];
    shape_of(ctx, table, sizeof table);
    ck_assert(!shape_entry(path, sizeof path));
    /* A budget spent before the first question: the table's values, stored as tuned. */
    char report[2048];
    ck_assert_ok(usmarr_cache_tune(ctx, 1e-9, report, sizeof report));
    ck_assert_msg(strstr(report, "not timed") && strstr(report, "chosen: "), "%s", report);
    shape_of(ctx, tuned, sizeof tuned);
    ck_assert_msg(ends_with(tuned, " (tuned)"), "%s", tuned);
    usmarr_context_release(ctx);
    ck_assert(shape_entry(path, sizeof path));

    /* A later context reads it back, fields and all. */
    const char *flip = strstr(tuned, " masks=0 ") ? " masks=0 " : " masks=1 ";
    const char *flipped = flip[7] == '0' ? " masks=1 " : " masks=0 ";
    rewrite_payload(path, flip, flipped);
    ctx = test_context();
    shape_of(ctx, text, sizeof text);
    usmarr_context_release(ctx);
    ck_assert_msg(ends_with(text, " (tuned)") && strstr(text, flipped), "%s after storing %s", text, flipped);

    /* USMARR_KERNEL_SHAPE still wins over the stored choice. */
    setenv("USMARR_KERNEL_SHAPE", flip + 1, 1);
    ctx = test_context();
    shape_of(ctx, text, sizeof text);
    usmarr_context_release(ctx);
    unsetenv("USMARR_KERNEL_SHAPE");
    ck_assert_msg(ends_with(text, " (forced)") && strstr(text, flip), "%s", text);

    /* A valid entry whose payload this library cannot read is a miss, and is deleted. */
    rewrite_payload(path, flipped, " masks=7 ");
    ctx = test_context();
    shape_of(ctx, text, sizeof text);
    usmarr_context_release(ctx);
    ck_assert_str_eq(text, table);
    ck_assert(!shape_entry(path, sizeof path));
}
END_TEST

START_TEST(test_shape_corrupt_tuned_entry_is_a_miss_and_is_deleted)
{
    char table[512], text[512], path[PATH_MAX];
    for (int damage = 0; damage < 2; damage++) {
        usmarr_context_t *ctx = test_context();
        shape_of(ctx, table, sizeof table);
        ck_assert_ok(usmarr_cache_tune(ctx, 1e-9, NULL, 0));
        usmarr_context_release(ctx);
        ck_assert(shape_entry(path, sizeof path));
        if (damage == 0)
            cache_flip_middle(path);
        else
            ck_assert_int_eq(truncate(path, 40), 0);
        ctx = test_context();
        shape_of(ctx, text, sizeof text);
        usmarr_context_release(ctx);
        ck_assert_msg(!strcmp(text, table), "damage %d: %s, expected %s", damage, text, table);
        struct stat st;
        ck_assert_msg(stat(path, &st) != 0, "damage %d: the entry is still there", damage);
    }
}
END_TEST

START_TEST(test_shape_public_functions_reject_bad_arguments)
{
    usmarr_context_t *ctx = test_context();
    char text[512], before[512], report[64];
    shape_of(ctx, before, sizeof before);
    ck_assert_fails_with(usmarr_cache_tune(NULL, 1, NULL, 0), USMARR_ERROR_INVALID_ARGUMENT, "context");
    const double budgets[] = {0, -1, 3601, NAN, INFINITY};
    for (size_t i = 0; i < sizeof budgets / sizeof budgets[0]; i++)
        ck_assert_fails_with(usmarr_cache_tune(ctx, budgets[i], NULL, 0), USMARR_ERROR_INVALID_ARGUMENT,
                             "budget_seconds");
    ck_assert_fails_with(usmarr_cache_tune(ctx, 1, NULL, 5), USMARR_ERROR_INVALID_ARGUMENT, "report");
    ck_assert_ok(usmarr_cache_set_mode(USMARR_CACHE_READONLY));
    strcpy(report, "unchanged");
    ck_assert_fails_with(usmarr_cache_tune(ctx, 1, report, sizeof report), USMARR_ERROR_BAD_STATE, "readonly");
    ck_assert_str_eq(report, "unchanged");
    ck_assert_ok(usmarr_cache_set_mode(USMARR_CACHE_OFF));
    ck_assert_fails_with(usmarr_cache_tune(ctx, 1, NULL, 0), USMARR_ERROR_BAD_STATE, "off");
    ck_assert_ok(usmarr_cache_set_mode(USMARR_CACHE_ON));
    shape_of(ctx, text, sizeof text);
    ck_assert_str_eq(text, before);

    ck_assert_fails_with(usmarr_cache_kernel_shape(NULL, text, sizeof text), USMARR_ERROR_INVALID_ARGUMENT, "context");
    ck_assert_fails_with(usmarr_cache_kernel_shape(ctx, NULL, 10), USMARR_ERROR_INVALID_ARGUMENT, "buffer");
    char small[8] = "xxxxxxx";
    ck_assert_fails_with(usmarr_cache_kernel_shape(ctx, small, sizeof small), USMARR_ERROR_INVALID_ARGUMENT, "size=8");
    ck_assert_str_eq(small, "xxxxxxx");
    /* Exactly long enough works. */
    ck_assert_ok(usmarr_cache_kernel_shape(ctx, text, strlen(before) + 1));
    ck_assert_str_eq(text, before);

    size_t n = 0;
    while (usmarr_cache_tune_candidate(n))
        n++;
    ck_assert_uint_ge(n, 8);
    ck_assert_ptr_null(usmarr_cache_tune_candidate(n));
    ck_assert_ptr_null(usmarr_cache_tune_candidate((size_t)-1));
    usmarr_context_release(ctx);
}
END_TEST

/* ---- every candidate gives correct results -------------------------------------------- */

static usmarr_array_t *from_host(usmarr_context_t *ctx, int ndim, const int64_t *shape, usmarr_dtype_t dtype,
                                 const void *data)
{
    usmarr_array_t *a;
    ck_assert_ok(usmarr_array_from_host(ctx, ndim, shape, dtype, data, NULL, USMARR_USM_DEVICE, &a));
    return a;
}

static usmarr_array_t *view_of(const usmarr_array_t *base, int ndim, const int64_t *shape, const int64_t *strides,
                               int64_t offset)
{
    usmarr_array_options_t o = USMARR_ARRAY_OPTIONS_INIT;
    o.ndim = ndim;
    o.shape = shape;
    o.strides = strides;
    o.offset = offset;
    o.dtype = usmarr_array_dtype(base);
    o.buffer = USMARR_BUFFER_ARRAY;
    o.array = base;
    usmarr_array_t *v;
    ck_assert_ok(usmarr_array_create(&o, &v));
    return v;
}

static bool same_float(double got, double want)
{
    return (isnan(got) && isnan(want)) || (got == want && signbit(got) == signbit(want));
}

static const float specials[] = {NAN, INFINITY, -INFINITY, -0.0f, 1e-45f, -1e-40f, 3.4e38f};
#define NSPECIAL (sizeof specials / sizeof specials[0])

/* a + b over n float32 (large enough for the non-temporal variant), into a fresh array and
 * into a view one element in (never aligned for it). */
static void check_contig(usmarr_context_t *ctx, const char *label)
{
    const int64_t n = (2 << 20) + 5, n1 = n - 1, one = 1;
    float *a = malloc(sizeof(float) * (size_t)n), *b = malloc(sizeof(float) * (size_t)n);
    float *got = malloc(sizeof(float) * (size_t)n);
    for (int64_t i = 0; i < n; i++) {
        a[i] = (float)(i % 1000) * 0.5f;
        b[i] = i % 997 == 0 ? specials[(i / 997) % NSPECIAL] : (float)(i % 7) - 3.0f;
    }
    usmarr_array_t *x = from_host(ctx, 1, &n, USMARR_FLOAT32, a), *y = from_host(ctx, 1, &n, USMARR_FLOAT32, b);
    usmarr_array_t *z, *w;
    ck_assert_ok(usmarr_array_zeros(ctx, 1, &n, USMARR_FLOAT32, USMARR_ORDER_C, USMARR_USM_DEVICE, &w));
    usmarr_array_t *shifted = view_of(w, 1, &n1, &one, 1), *xs = view_of(x, 1, &n1, &one, 0),
                   *ys = view_of(y, 1, &n1, &one, 0);
    ck_assert_ok(usmarr_add(x, y, NULL, &z));
    ck_assert_ok(usmarr_array_copy_to_host(z, got, NULL));
    for (int64_t i = 0; i < n; i++)
        if (!same_float(got[i], a[i] + b[i]))
            ck_abort_msg("%s: add[%lld] = %g, expected %g", label, (long long)i, got[i], a[i] + b[i]);
    ck_assert_ok(usmarr_add(xs, ys, shifted, NULL));
    ck_assert_ok(usmarr_array_copy_to_host(w, got, NULL));
    ck_assert_msg(got[0] == 0, "%s: shifted add wrote before its start", label);
    for (int64_t i = 1; i < n; i++)
        if (!same_float(got[i], a[i - 1] + b[i - 1]))
            ck_abort_msg("%s: shifted add[%lld] = %g", label, (long long)i, got[i]);
    ck_assert_ok(usmarr_array_copy_into(w, y));
    ck_assert_ok(usmarr_array_copy_to_host(w, got, NULL));
    ck_assert_msg(!memcmp(got, b, sizeof(float) * (size_t)n), "%s: copy differs", label);
    usmarr_array_release(z);
    /* A function whose vector form stores a variable (exp's overflow-safe helper). */
    ck_assert_ok(usmarr_exp(y, NULL, &z));
    ck_assert_ok(usmarr_array_copy_to_host(z, got, NULL));
    for (int64_t i = 0; i < n; i++) {
        double want = exp((double)b[i]);
        if (!((isnan(got[i]) && isnan(want)) || got[i] == want || fabs(got[i] - want) <= 4e-7 * fabs(want) + 1e-45))
            ck_abort_msg("%s: exp[%lld] = %g, expected %g", label, (long long)i, got[i], want);
    }
    usmarr_array_release(z);
    usmarr_array_t *all[] = {x, y, w, shifted, xs, ys};
    for (size_t i = 0; i < 6; i++)
        usmarr_array_release(all[i]);
    free(a), free(b), free(got);

    /* Bytes (16 to a vector) and float64 (128 bytes to a vector), copied and cast. */
    const int64_t nb = (8 << 20) + 7, nd = (1 << 20) + 3;
    unsigned char *u = malloc((size_t)nb), *ug = malloc((size_t)nb);
    for (int64_t i = 0; i < nb; i++)
        u[i] = (unsigned char)(i * 7 + 3);
    usmarr_array_t *ua = from_host(ctx, 1, &nb, USMARR_UINT8, u), *ub;
    ck_assert_ok(usmarr_array_copy(ua, USMARR_ORDER_C, NULL, &ub));
    ck_assert_ok(usmarr_array_copy_to_host(ub, ug, NULL));
    ck_assert_msg(!memcmp(u, ug, (size_t)nb), "%s: uint8 copy differs", label);
    usmarr_array_release(ua), usmarr_array_release(ub);
    free(u), free(ug);
    double *dg = malloc(sizeof(double) * (size_t)nd);
    int32_t *iv = malloc(sizeof(int32_t) * (size_t)nd);
    for (int64_t i = 0; i < nd; i++)
        iv[i] = (int32_t)(i * 2654435761u);
    usmarr_array_t *ia = from_host(ctx, 1, &nd, USMARR_INT32, iv), *da;
    ck_assert_ok(usmarr_array_astype(ia, USMARR_FLOAT64, USMARR_ORDER_C, NULL, &da));
    ck_assert_ok(usmarr_array_copy_to_host(da, dg, NULL));
    for (int64_t i = 0; i < nd; i++)
        if (dg[i] != (double)iv[i])
            ck_abort_msg("%s: astype[%lld] = %g", label, (long long)i, dg[i]);
    usmarr_array_release(ia), usmarr_array_release(da);
    free(dg), free(iv);
}

/* 2-D: a broadcast row, a[::2, ::3], a transpose and sums over either axis. */
static void check_2d(usmarr_context_t *ctx, const char *label)
{
    enum { R = 150, C = 390 };
    static float a[R * C], row[C], got[R * C];
    for (int i = 0; i < R * C; i++)
        a[i] = (float)((i * 37) % 101) - 50.0f;
    for (int j = 0; j < C; j++)
        row[j] = j % 50 == 0 ? specials[(j / 50) % NSPECIAL] : (float)j;
    const int64_t sh[2] = {R, C}, rsh = C;
    usmarr_array_t *x = from_host(ctx, 2, sh, USMARR_FLOAT32, a), *r = from_host(ctx, 1, &rsh, USMARR_FLOAT32, row);
    usmarr_array_t *z;
    ck_assert_ok(usmarr_add(x, r, NULL, &z));
    ck_assert_ok(usmarr_array_copy_to_host(z, got, NULL));
    for (int i = 0; i < R; i++)
        for (int j = 0; j < C; j++)
            if (!same_float(got[i * C + j], a[i * C + j] + row[j]))
                ck_abort_msg("%s: broadcast [%d,%d] = %g", label, i, j, got[i * C + j]);
    usmarr_array_release(z);

    /* A column broadcast (an inner stride of 0): with the row above and the strided add
     * below, each stride that a shape with masks=1 compiles in, on enough elements for it. */
    const int64_t csh[2] = {R, C}, cst[2] = {C, 0};
    usmarr_array_t *col = view_of(x, 2, csh, cst, 0);
    ck_assert_ok(usmarr_add(x, col, NULL, &z));
    ck_assert_ok(usmarr_array_copy_to_host(z, got, NULL));
    for (int i = 0; i < R; i++)
        for (int j = 0; j < C; j++)
            if (!same_float(got[i * C + j], a[i * C + j] + a[i * C]))
                ck_abort_msg("%s: column broadcast [%d,%d] = %g", label, i, j, got[i * C + j]);
    usmarr_array_release(z), usmarr_array_release(col);

    const int64_t ssh[2] = {R / 2, C / 3}, sst[2] = {2 * C, 3};
    usmarr_array_t *s = view_of(x, 2, ssh, sst, 1), *sc;
    ck_assert_ok(usmarr_array_copy(s, USMARR_ORDER_C, NULL, &sc));
    ck_assert_ok(usmarr_array_copy_to_host(sc, got, NULL));
    for (int i = 0; i < R / 2; i++)
        for (int j = 0; j < C / 3; j++)
            if (got[i * (C / 3) + j] != a[1 + 2 * i * C + 3 * j])
                ck_abort_msg("%s: slice [%d,%d]", label, i, j);
    usmarr_array_release(s), usmarr_array_release(sc);

    const int axes[2] = {1, 0};
    usmarr_array_t *t, *tc;
    ck_assert_ok(usmarr_array_permute_dims(x, axes, &t));
    ck_assert_ok(usmarr_array_copy(t, USMARR_ORDER_C, NULL, &tc));
    ck_assert_ok(usmarr_array_copy_to_host(tc, got, NULL));
    for (int i = 0; i < C; i++)
        for (int j = 0; j < R; j++)
            if (got[i * R + j] != a[j * C + i])
                ck_abort_msg("%s: transpose [%d,%d]", label, i, j);
    usmarr_array_release(t), usmarr_array_release(tc);

    /* a[::2] + a[1::2] in 1-D (strided inputs, a contiguous output). */
    const int64_t hn = R * C / 2, two = 2;
    usmarr_array_t *ha = view_of(x, 1, &hn, &two, 0), *hb = view_of(x, 1, &hn, &two, 1), *hz;
    ck_assert_ok(usmarr_add(ha, hb, NULL, &hz));
    ck_assert_ok(usmarr_array_copy_to_host(hz, got, NULL));
    for (int64_t i = 0; i < hn; i++)
        if (got[i] != a[2 * i] + a[2 * i + 1])
            ck_abort_msg("%s: strided add [%lld]", label, (long long)i);
    usmarr_array_release(ha), usmarr_array_release(hb), usmarr_array_release(hz);
    /* The same ending on a whole run (a[1::2]'s last element is x's last), and in 2-D rows
     * of 192 (whole runs) and of 195 (a tail) of x[:, ::2] + x[:, 1::2]. */
    const int64_t hw = R * C / 2 - 2; /* 1828 runs of 16 */
    ha = view_of(x, 1, &hw, &two, 4), hb = view_of(x, 1, &hw, &two, 5);
    ck_assert_ok(usmarr_add(ha, hb, NULL, &hz));
    ck_assert_ok(usmarr_array_copy_to_host(hz, got, NULL));
    for (int64_t i = 0; i < hw; i++)
        if (got[i] != a[2 * i + 4] + a[2 * i + 5])
            ck_abort_msg("%s: strided add of whole runs [%lld]", label, (long long)i);
    usmarr_array_release(ha), usmarr_array_release(hb), usmarr_array_release(hz);
    for (int64_t w = 192; w <= 195; w += 3) {
        const int64_t rsh2[2] = {R, w}, rst2[2] = {C, 2};
        ha = view_of(x, 2, rsh2, rst2, 0), hb = view_of(x, 2, rsh2, rst2, 1);
        ck_assert_ok(usmarr_add(ha, hb, NULL, &hz));
        ck_assert_ok(usmarr_array_copy_to_host(hz, got, NULL));
        for (int i = 0; i < R; i++)
            for (int64_t j = 0; j < w; j++)
                if (got[i * w + j] != a[i * C + 2 * j] + a[i * C + 2 * j + 1])
                    ck_abort_msg("%s: rows of %lld, strided add [%d,%lld]", label, (long long)w, i, (long long)j);
        usmarr_array_release(ha), usmarr_array_release(hb), usmarr_array_release(hz);
    }

    for (int axis = 0; axis < 2; axis++) {
        usmarr_array_t *m;
        ck_assert_ok(usmarr_sum(x, 1, &axis, false, NULL, &m));
        ck_assert_ok(usmarr_array_copy_to_host(m, got, NULL));
        int n = axis == 0 ? C : R;
        for (int k = 0; k < n; k++) {
            double want = 0; /* small integers: exact in any order */
            for (int l = 0; l < (axis == 0 ? R : C); l++)
                want += axis == 0 ? a[l * C + k] : a[k * C + l];
            if (got[k] != (float)want)
                ck_abort_msg("%s: sum over axis %d [%d] = %g, expected %g", label, axis, k, got[k], want);
        }
        usmarr_array_release(m);
    }
    usmarr_array_release(x), usmarr_array_release(r);
}

/* The tuner over a disk cache that holds the candidates' programs already (the test
 * below compiled them): a small budget times the first questions, the rest are reported
 * as not timed, and the choice is the device's for later contexts. */
static void check_tuner_keeps_its_choice(void)
{
    usmarr_context_t *ctx = test_context();
    char report[4096], text[512], again[512];
    ck_assert_ok(usmarr_cache_tune(ctx, 0.2, report, sizeof report));
    ck_assert_msg(strstr(report, "rows of 16-vectors: rowvec=") && strstr(report, " ms") && strstr(report, " *") &&
                      strstr(report, "reductions: ") && strstr(report, "chosen: "),
                  "%s", report);
    shape_of(ctx, text, sizeof text);
    ck_assert_msg(ends_with(text, " (tuned)"), "%s", text);
    /* The report names the chosen shape. */
    char fields[512];
    fields_of(text, fields, sizeof fields);
    ck_assert_msg(strstr(report, fields), "%s does not name %s", report, fields);
    usmarr_context_release(ctx);
    ctx = test_context();
    shape_of(ctx, again, sizeof again);
    usmarr_context_release(ctx);
    ck_assert_str_eq(again, text);
}

/* A shape with one element per work-item, rows of 16-vectors and non-temporal stores from
 * 1 KiB: small outputs take the non-temporal contig and s2v kernels (float32, int8, where
 * with a bool condition, logical_and of bool as words), the plain ones where an operand
 * has no 16-vector form (complex64, equal of bool), and rows of
 * 16-vectors only with those stores (lib/engine/map.c, use_nt and vector_rows). */
START_TEST(test_shape_nontemporal_variants_with_one_element_per_work_item)
{
    setenv("USMARR_KERNEL_SHAPE", "contig=one/256 rowvec=64 nt=1K", 1);
    usmarr_context_t *ctx = test_context();
    char text[512];
    shape_of(ctx, text, sizeof text);
    ck_assert_msg(strstr(text, "contig=one/256 nt=1K") && strstr(text, "rowvec=64"), "%s", text);
    enum { N = 4099, R = 64, C = 80 };
    static float a[N], b[N], got[N], m[R * C], row[C], mg[R * C];
    static int8_t ia[N], ib[N], ig[N];
    static float ca[2 * N], cb[2 * N], cg[2 * N];
    static bool ba[N], bb[N], bg[N];
    for (int i = 0; i < N; i++) {
        a[i] = i % 97 == 0 ? specials[(i / 97) % NSPECIAL] : (float)(i % 1000) * 0.25f;
        b[i] = (float)(i % 13) - 6.0f;
        ia[i] = (int8_t)(i * 7), ib[i] = (int8_t)(i * 3 + 100);
        ca[2 * i] = a[i], ca[2 * i + 1] = b[i], cb[2 * i] = b[i], cb[2 * i + 1] = -a[i];
        ba[i] = i % 3 != 0, bb[i] = i % 5 != 0;
    }
    for (int i = 0; i < R * C; i++)
        m[i] = (float)((i * 37) % 101) - 50.0f;
    for (int j = 0; j < C; j++)
        row[j] = j % 9 == 0 ? specials[(j / 9) % NSPECIAL] : (float)j * 0.5f;
    const int64_t n = N, half = N / 2 + 1, two = 2, sh[2] = {R, C}, rn = C;
    usmarr_array_t *x = from_host(ctx, 1, &n, USMARR_FLOAT32, a), *y = from_host(ctx, 1, &n, USMARR_FLOAT32, b), *z;
    ck_assert_ok(usmarr_add(x, y, NULL, &z));
    ck_assert_ok(usmarr_array_copy_to_host(z, got, NULL));
    for (int i = 0; i < N; i++)
        if (!same_float(got[i], a[i] + b[i]))
            ck_abort_msg("float32 add [%d] = %g, expected %g", i, got[i], a[i] + b[i]);
    usmarr_array_release(z);
    usmarr_array_t *xs = view_of(x, 1, &half, &two, 0), *ys = view_of(y, 1, &half, &two, 0);
    ck_assert_ok(usmarr_add(xs, ys, NULL, &z));
    ck_assert_ok(usmarr_array_copy_to_host(z, got, NULL));
    for (int i = 0; i < half; i++)
        if (!same_float(got[i], a[2 * i] + b[2 * i]))
            ck_abort_msg("a[::2] + b[::2] [%d] = %g, expected %g", i, got[i], a[2 * i] + b[2 * i]);
    usmarr_array_release(z), usmarr_array_release(xs), usmarr_array_release(ys);
    usmarr_array_t *mx = from_host(ctx, 2, sh, USMARR_FLOAT32, m), *r = from_host(ctx, 1, &rn, USMARR_FLOAT32, row);
    ck_assert_ok(usmarr_add(mx, r, NULL, &z));
    ck_assert_ok(usmarr_array_copy_to_host(z, mg, NULL));
    for (int i = 0; i < R; i++)
        for (int j = 0; j < C; j++)
            if (!same_float(mg[i * C + j], m[i * C + j] + row[j]))
                ck_abort_msg("broadcast add [%d,%d] = %g", i, j, mg[i * C + j]);
    usmarr_array_release(z), usmarr_array_release(mx), usmarr_array_release(r);
    usmarr_array_release(x), usmarr_array_release(y);

    x = from_host(ctx, 1, &n, USMARR_INT8, ia), y = from_host(ctx, 1, &n, USMARR_INT8, ib);
    ck_assert_ok(usmarr_add(x, y, NULL, &z));
    ck_assert_ok(usmarr_array_copy_to_host(z, ig, NULL));
    for (int i = 0; i < N; i++)
        ck_assert_msg(ig[i] == (int8_t)(uint8_t)((uint8_t)ia[i] + (uint8_t)ib[i]), "int8 add [%d] = %d", i, ig[i]);
    usmarr_array_release(z), usmarr_array_release(x), usmarr_array_release(y);

    x = from_host(ctx, 1, &n, USMARR_COMPLEX64, ca), y = from_host(ctx, 1, &n, USMARR_COMPLEX64, cb);
    ck_assert_ok(usmarr_add(x, y, NULL, &z));
    ck_assert_ok(usmarr_array_copy_to_host(z, cg, NULL));
    for (int i = 0; i < 2 * N; i++)
        if (!same_float(cg[i], ca[i] + cb[i]))
            ck_abort_msg("complex64 add part %d = %g, expected %g", i, cg[i], ca[i] + cb[i]);
    usmarr_array_release(z), usmarr_array_release(x), usmarr_array_release(y);

    x = from_host(ctx, 1, &n, USMARR_BOOL, ba), y = from_host(ctx, 1, &n, USMARR_BOOL, bb);
    ck_assert_ok(usmarr_logical_and(x, y, NULL, &z));
    ck_assert_ok(usmarr_array_copy_to_host(z, bg, NULL));
    for (int i = 0; i < N; i++)
        ck_assert_msg(bg[i] == (ba[i] && bb[i]), "logical_and [%d] = %d", i, bg[i]);
    usmarr_array_release(z);
    ck_assert_ok(usmarr_equal(x, y, NULL, &z));
    ck_assert_ok(usmarr_array_copy_to_host(z, bg, NULL));
    for (int i = 0; i < N; i++)
        ck_assert_msg(bg[i] == (ba[i] == bb[i]), "equal [%d] = %d", i, bg[i]);
    usmarr_array_release(z), usmarr_array_release(x), usmarr_array_release(y);

    /* where's bool condition is read as 16-lane vectors: the non-temporal variant */
    usmarr_array_t *cond = from_host(ctx, 1, &n, USMARR_BOOL, ba);
    x = from_host(ctx, 1, &n, USMARR_FLOAT32, a), y = from_host(ctx, 1, &n, USMARR_FLOAT32, b);
    ck_assert_ok(usmarr_where(cond, x, y, NULL, &z));
    ck_assert_ok(usmarr_array_copy_to_host(z, got, NULL));
    for (int i = 0; i < N; i++)
        if (!same_float(got[i], ba[i] ? a[i] : b[i]))
            ck_abort_msg("where [%d] = %g, expected %g", i, got[i], ba[i] ? a[i] : b[i]);
    usmarr_array_release(z), usmarr_array_release(x), usmarr_array_release(y), usmarr_array_release(cond);
    usmarr_context_release(ctx);
}
END_TEST

/* Non-temporal stores for a map whose output is below the shape's nt but which moves at
 * least four times it in all (lib/engine/map.c, use_nt): float32 comparisons and isnan into
 * bool in PoCL's shape, inputs at offsets 0-3 and lengths around the 16-element vectors. */
START_TEST(test_shape_nontemporal_by_what_the_map_moves)
{
    setenv("USMARR_KERNEL_SHAPE", "pocl-cpu nt=1K", 1);
    usmarr_context_t *ctx = test_context();
    enum { N = 1011 };
    static float a[N], b[N];
    static bool got[N];
    for (int i = 0; i < N; i++) {
        a[i] = i % 61 == 0 ? specials[(i / 61) % NSPECIAL] : (float)(i % 17) - 8.0f;
        b[i] = (float)(i % 5) - 2.0f;
    }
    const int64_t n = N;
    usmarr_array_t *x = from_host(ctx, 1, &n, USMARR_FLOAT32, a), *y = from_host(ctx, 1, &n, USMARR_FLOAT32, b), *z;
    for (int64_t len = 1000; len <= 1007; len += 7)
        for (int64_t off = 0; off < 4; off++) {
            const int64_t one = 1;
            usmarr_array_t *xs = view_of(x, 1, &len, &one, off), *ys = view_of(y, 1, &len, &one, 3 - off);
            ck_assert_ok(usmarr_less(xs, ys, NULL, &z));
            ck_assert_ok(usmarr_array_copy_to_host(z, got, NULL));
            for (int64_t i = 0; i < len; i++)
                ck_assert_msg(got[i] == (a[off + i] < b[3 - off + i]), "less len %lld off %lld [%lld]", (long long)len,
                              (long long)off, (long long)i);
            usmarr_array_release(z);
            ck_assert_ok(usmarr_isnan(xs, NULL, &z));
            ck_assert_ok(usmarr_array_copy_to_host(z, got, NULL));
            for (int64_t i = 0; i < len; i++)
                ck_assert_msg(got[i] == isnan(a[off + i]), "isnan len %lld off %lld [%lld]", (long long)len,
                              (long long)off, (long long)i);
            usmarr_array_release(z), usmarr_array_release(xs), usmarr_array_release(ys);
        }
    usmarr_array_release(x), usmarr_array_release(y);
    usmarr_context_release(ctx);
}
END_TEST

/* Whether the candidate text `cand` sets a field that `combo` sets already. */
static bool shares_a_field(const char *combo, const char *cand)
{
    char keys[256];
    snprintf(keys, sizeof keys, "%s", cand);
    for (char *save = NULL, *tok = strtok_r(keys, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
        char *eq = strchr(tok, '=');
        ck_assert_ptr_nonnull(eq);
        eq[1] = 0; /* "key=" */
        char spaced[64];
        snprintf(spaced, sizeof spaced, " %s", tok);
        if (!strncmp(combo, tok, strlen(tok)) || strstr(combo, spaced))
            return true;
    }
    return false;
}

/* Every candidate's fields, in as few shapes as cover them all: each candidate joins the
 * first shape that does not set its fields yet (the questions' k-th candidates together). */
int test_shape_candidate_combos(char (*combos)[512], int max)
{
    int ncombos = 0;
    for (size_t i = 0; usmarr_cache_tune_candidate(i); i++) {
        const char *cand = usmarr_cache_tune_candidate(i);
        int k = 0;
        while (k < ncombos && shares_a_field(combos[k], cand))
            k++;
        ck_assert_int_lt(k, max);
        if (k == ncombos)
            combos[ncombos++][0] = 0;
        size_t used = strlen(combos[k]);
        snprintf(combos[k] + used, sizeof combos[k] - used, "%s%s", used ? " " : "", cand);
    }
    return ncombos;
}

/* Every candidate, in the shapes of test_shape_candidate_combos(); then the tuner, which
 * finds their programs compiled. */
START_TEST(test_shape_every_tuner_candidate_gives_correct_results_and_the_tuner_chooses)
{
    enum { MAX_COMBOS = 8 };
    char combos[MAX_COMBOS][512];
    int ncombos = test_shape_candidate_combos(combos, MAX_COMBOS);
    size_t ncand = 0;
    while (usmarr_cache_tune_candidate(ncand))
        ncand++;
    ck_assert_int_gt(ncand, 0);
    ck_assert_int_lt(ncombos, (int)ncand);
    for (int k = 0; k < ncombos; k++) {
        setenv("USMARR_KERNEL_SHAPE", combos[k], 1);
        usmarr_context_t *ctx = test_context();
        char text[512], label[1100];
        shape_of(ctx, text, sizeof text);
        ck_assert_msg(ends_with(text, " (forced)"), "candidates %s were not taken: %s", combos[k], text);
        snprintf(label, sizeof label, "candidates %.500s (%.500s)", combos[k], text);
        check_contig(ctx, label);
        check_2d(ctx, label);
        usmarr_context_release(ctx);
    }
    unsetenv("USMARR_KERNEL_SHAPE");
    check_tuner_keeps_its_choice();
}
END_TEST

Suite *suite_shape(void)
{
    Suite *s = suite_create("shape");
    const struct {
        const char *name;
        const TTest *test;
    } cases[] = {
        {"text", test_shape_text_names_every_field_and_forcing_it_gives_it_back},
        {"stored", test_shape_tuned_entry_is_stored_reloaded_and_forcing_still_wins},
        {"corrupt", test_shape_corrupt_tuned_entry_is_a_miss_and_is_deleted},
        {"arguments", test_shape_public_functions_reject_bad_arguments},
        {"ptrval", test_shape_ptrval_maps_are_done_before_their_block_is_freed},
        {"candidates", test_shape_every_tuner_candidate_gives_correct_results_and_the_tuner_chooses},
        {"nontemporal", test_shape_nontemporal_variants_with_one_element_per_work_item},
        {"nontemporal_moved", test_shape_nontemporal_by_what_the_map_moves},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        TCase *tc = tcase_create(cases[i].name);
        tcase_add_checked_fixture(tc, setup, teardown);
        tcase_set_timeout(tc, 0);
        /* compiling every candidate's programs: on the devices, not again in the runner's
         * modes (the suite unsets the forced gpu shape, so they would repeat a device run) */
        if (cases[i].test == test_shape_every_tuner_candidate_gives_correct_results_and_the_tuner_chooses)
            tcase_set_tags(tc, TEST_TAG_VARIANTS);
        tcase_add_test(tc, cases[i].test);
        suite_add_tcase(s, tc);
    }
    return s;
}
