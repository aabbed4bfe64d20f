/* Host-allocation failure injection: a representative program (context, arrays, an
 * elementwise function, a reduction, JSON and DLPack export and import, a storage,
 * advanced indexing, a fused expression and its reduction, a linalg solve) runs
 * once with the Nth allocation made BY THE LIBRARY failing, for every N, and then again
 * with nothing failing, in the same process.  Every failing run must return
 * USMARR_ERROR_OUT_OF_HOST_MEMORY (no crash, no other code), leave no allocation of the
 * library behind, and the retry must succeed with the right results.
 *
 * malloc, calloc, realloc, posix_memalign, aligned_alloc, strdup, strndup and
 * open_memstream are interposed here; a call counts only when its caller is inside
 * libusmarr (its mapping, found through dladdr), so the drivers are never starved.  Every
 * run must also leave as many file descriptors open as before it (an unclosed FILE, DIR or
 * lock file of the library).  Built with LeakSanitizer where the compiler has it (the
 * interposers call the next malloc, which is LeakSanitizer's), so that memory the library
 * leaves behind through libc (a DIR's block, a path from realpath) is found too.
 * `alloc_fail [SELECTOR]`; exit 0 on success. */
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <usmarr.h>

static void *(*real_malloc)(size_t);
static void *(*real_calloc)(size_t, size_t);
static void *(*real_realloc)(void *, size_t);
static void (*real_free)(void *);
static FILE *(*real_open_memstream)(char **, size_t *);
static int (*real_posix_memalign)(void **, size_t, size_t);
static void *(*real_aligned_alloc)(size_t, size_t);

static long counted;  /* library allocations so far in this run */
static long fail_at;  /* 1-based index of the one to fail; 0: none */
static bool injected; /* a failure was injected in this run */
static uintptr_t injected_at; /* the failed call's return address */
/* Live blocks the library allocated (dense, unordered), to find what a failing run
 * leaves behind. */
enum { TRACKED = 1 << 16 };
static void *live[TRACKED];
static long live_count;

static uintptr_t lib_begin, lib_end, lib_base; /* libusmarr's mapping, from dladdr of one symbol */

/* The process's open file descriptors (the count's own included, the same every time). */
static int open_descriptors(void)
{
    DIR *d = opendir("/proc/self/fd");
    int n = 0;
    while (d && readdir(d))
        n++;
    if (d)
        closedir(d);
    return n;
}

static bool from_library(void *caller)
{
    return lib_begin && (uintptr_t)caller >= lib_begin && (uintptr_t)caller < lib_end;
}

/* True when this library allocation is the one to fail. */
static bool should_fail(void *caller)
{
    if (!from_library(caller))
        return false;
    counted++;
    if (fail_at && counted == fail_at) {
        injected = true;
        injected_at = (uintptr_t)caller;
        return true;
    }
    return false;
}

static void track(void *p, void *caller)
{
    if (!p || !from_library(caller))
        return;
    if (live_count < TRACKED)
        live[live_count++] = p;
}

static void untrack(void *p)
{
    if (!p || !live_count)
        return;
    for (long i = live_count - 1; i >= 0; i--)
        if (live[i] == p) {
            live[i] = live[--live_count];
            return;
        }
}

/* dlsym itself may call calloc before real_calloc is known: serve it from a static arena. */
static char bootstrap[4096];
static size_t bootstrap_used;

static void resolve(void)
{
    if (real_malloc)
        return;
    real_calloc = NULL;
    real_malloc = (void *(*)(size_t))dlsym(RTLD_NEXT, "malloc");
    real_calloc = (void *(*)(size_t, size_t))dlsym(RTLD_NEXT, "calloc");
    real_realloc = (void *(*)(void *, size_t))dlsym(RTLD_NEXT, "realloc");
    real_free = (void (*)(void *))dlsym(RTLD_NEXT, "free");
    real_open_memstream = (FILE * (*)(char **, size_t *)) dlsym(RTLD_NEXT, "open_memstream");
    real_posix_memalign = (int (*)(void **, size_t, size_t))dlsym(RTLD_NEXT, "posix_memalign");
    real_aligned_alloc = (void *(*)(size_t, size_t))dlsym(RTLD_NEXT, "aligned_alloc");
}

/* LeakSanitizer (when built with it) records 10 frames of every allocation: make check runs
 * it with fast unwinding and tests/reliability/lsan-drivers.supp, which needs only the
 * allocation's caller; unwound slowly for tests/reliability/lsan.supp, 10 frames reach the
 * driver functions it names and keep the run short. */
const char *__lsan_default_options(void);
const char *__lsan_default_options(void)
{
    return "malloc_context_size=10";
}

void *malloc(size_t size)
{
    resolve();
    void *caller = __builtin_return_address(0);
    if (should_fail(caller)) {
        errno = ENOMEM;
        return NULL;
    }
    void *p = real_malloc(size);
    track(p, caller);
    return p;
}

void *calloc(size_t n, size_t size)
{
    if (!real_calloc) {
        if (real_malloc == NULL && bootstrap_used + n * size <= sizeof bootstrap) {
            void *p = bootstrap + bootstrap_used;
            bootstrap_used += (n * size + 15) & ~(size_t)15;
            return p;
        }
        resolve();
    }
    void *caller = __builtin_return_address(0);
    if (should_fail(caller)) {
        errno = ENOMEM;
        return NULL;
    }
    void *p = real_calloc(n, size);
    track(p, caller);
    return p;
}

void *realloc(void *old, size_t size)
{
    resolve();
    void *caller = __builtin_return_address(0);
    if (should_fail(caller)) {
        errno = ENOMEM;
        return NULL;
    }
    void *p = real_realloc(old, size);
    if (p) {
        bool was = false;
        for (long i = 0; old && i < live_count; i++)
            if (live[i] == old) {
                live[i] = p;
                was = true;
                break;
            }
        if (!was)
            track(p, caller);
    }
    return p;
}

void free(void *p)
{
    if ((char *)p >= bootstrap && (char *)p < bootstrap + sizeof bootstrap)
        return;
    resolve();
    untrack(p);
    real_free(p);
}

char *strdup(const char *s)
{
    resolve();
    void *caller = __builtin_return_address(0);
    if (should_fail(caller)) {
        errno = ENOMEM;
        return NULL;
    }
    size_t n = strlen(s) + 1;
    char *p = real_malloc(n);
    if (p)
        memcpy(p, s, n);
    track(p, caller);
    return p;
}

int posix_memalign(void **out, size_t alignment, size_t size)
{
    resolve();
    void *caller = __builtin_return_address(0);
    if (should_fail(caller))
        return ENOMEM;
    int rc = real_posix_memalign(out, alignment, size);
    if (!rc)
        track(*out, caller);
    return rc;
}

void *aligned_alloc(size_t alignment, size_t size)
{
    resolve();
    void *caller = __builtin_return_address(0);
    if (should_fail(caller)) {
        errno = ENOMEM;
        return NULL;
    }
    void *p = real_aligned_alloc(alignment, size);
    track(p, caller);
    return p;
}

char *strndup(const char *s, size_t max)
{
    resolve();
    void *caller = __builtin_return_address(0);
    if (should_fail(caller)) {
        errno = ENOMEM;
        return NULL;
    }
    size_t n = strnlen(s, max);
    char *p = real_malloc(n + 1);
    if (p) {
        memcpy(p, s, n);
        p[n] = 0;
    }
    track(p, caller);
    return p;
}

FILE *open_memstream(char **buffer, size_t *size)
{
    resolve();
    if (should_fail(__builtin_return_address(0))) {
        errno = ENOMEM;
        return NULL;
    }
    return real_open_memstream(buffer, size); /* its buffer is libc's to grow */
}

/* ---- the representative program ------------------------------------------------------ */

enum { N = 257 };

/* Creates and drops a context of its own (the creation path), then works on `ctx`, which
 * the failing run and its retry share: a failure must not stay in the context. */
static int program(const char *selector, usmarr_context_t *ctx, bool check_results)
{
    usmarr_context_t *own = NULL;
    usmarr_array_t *a = NULL, *b = NULL, *c = NULL, *s = NULL, *back = NULL, *shared = NULL, *copied = NULL;
    usmarr_array_t *ind = NULL, *picked = NULL, *fused = NULL, *fused_sum = NULL, *mat = NULL, *rhs = NULL, *x = NULL;
    float mat_values[2][3][3] = {{{4, 1, 0}, {1, 3, 1}, {0, 1, 2}}, {{4, 1, 0}, {1, 3, 1}, {0, 1, 2}}};
    float rhs_values[3] = {1, 1, 1}, x_values[2][3] = {{0}};
    int64_t mat_shape[3] = {2, 3, 3};
    usmarr_expr_t *expr = NULL, *expr_sum = NULL;
    float fused_values[N], fused_total = 0;
    int64_t three = 3, ind_values[3] = {5, -1, 0};
    float picked_values[3] = {0};
    usmarr_dl_managed_tensor_versioned_t *tensor = NULL;
    usmarr_storage_t *st = NULL, *st2 = NULL;
    char *json = NULL;
    float host[N], out[N], from_dlpack[N], sum = 0;
    for (int i = 0; i < N; i++)
        host[i] = (float)(i % 13);
    int64_t shape[1] = {N};
    int rc = usmarr_context_create(selector, &own);
    usmarr_context_release(own);
    if (!rc)
        rc = usmarr_array_from_host(ctx, 1, shape, USMARR_FLOAT32, host, NULL, USMARR_USM_DEVICE, &a);
    if (!rc)
        rc = usmarr_array_index_text(a, "::2", &b);
    if (!rc)
        rc = usmarr_multiply(a, a, NULL, &c);
    if (!rc)
        rc = usmarr_sum(c, 0, NULL, false, NULL, &s);
    if (!rc)
        rc = usmarr_array_copy_to_host(s, &sum, NULL);
    if (!rc)
        rc = usmarr_array_copy_to_host(c, out, NULL);
    if (!rc)
        rc = usmarr_array_to_json(b, &json);
    if (!rc) {
        /* The import keeps the exporter alive; on failure the callback is not called. */
        rc = usmarr_array_from_json(json, ctx, usmarr_interface_release_array, usmarr_array_retain(b), &back);
        if (rc)
            usmarr_array_release(b);
    }
    if (!rc)
        rc = usmarr_array_to_dlpack(b, NULL, USMARR_DLPACK_COPY_NEVER, &tensor);
    if (!rc) {
        /* A failed import leaves the tensor to its owner. */
        rc = usmarr_array_from_dlpack(tensor, ctx, USMARR_DLPACK_COPY_NEVER, 0, &shared);
        if (rc)
            tensor->deleter(tensor);
    }
    if (!rc) /* device USM for the host: a host copy */
        rc = usmarr_array_to_dlpack(a, &(usmarr_dl_device_t){USMARR_DL_CPU, 0}, USMARR_DLPACK_COPY_IF_NEEDED,
                                    &tensor);
    if (!rc) {
        /* host memory: copied back into USM */
        rc = usmarr_array_from_dlpack(tensor, ctx, USMARR_DLPACK_COPY_IF_NEEDED, 0, &copied);
        if (rc)
            tensor->deleter(tensor);
    }
    if (!rc)
        rc = usmarr_array_copy_to_host(copied, from_dlpack, NULL);
    if (!rc) {
        usmarr_storage_options_t o = USMARR_STORAGE_OPTIONS_INIT;
        o.context = ctx;
        o.axes = "IK";
        o.nshape = 2, o.shape[0] = 3, o.shape[1] = 5;
        o.alignment = 32;
        rc = usmarr_storage_ones(&o, &st);
    }
    if (!rc) {
        usmarr_storage_operand_t ops[2] = {{.storage = st}, {.scalar = usmarr_scalar_int(2)}};
        rc = usmarr_storage_elementwise("add", ops, 2, NULL, &st2);
    }
    if (!rc) /* advanced indexing: a[ind] and c[ind] = sum */
        rc = usmarr_array_from_host(ctx, 1, &three, USMARR_INT64, ind_values, NULL, USMARR_USM_DEVICE, &ind);
    if (!rc)
        rc = usmarr_array_getitem_text(a, "@0", (const usmarr_array_t *const *)&ind, 1, NULL, &picked);
    if (!rc)
        rc = usmarr_array_copy_to_host(picked, picked_values, NULL);
    if (!rc)
        rc = usmarr_array_setitem_text(c, "@0", (const usmarr_array_t *const *)&ind, 1, s);
    if (!rc) /* a fused expression, and a fused reduction */
        rc = usmarr_expr_create("x * x + 1", NULL, 0, &expr);
    if (!rc)
        rc = usmarr_expr_apply(expr, (usmarr_operand_t[]){{.array = a}}, 1, NULL, &fused);
    if (!rc)
        rc = usmarr_array_copy_to_host(fused, fused_values, NULL);
    if (!rc)
        rc = usmarr_expr_create("sum(x * y)", NULL, 0, &expr_sum);
    if (!rc)
        rc = usmarr_expr_reduce(expr_sum, (usmarr_operand_t[]){{.array = b}, {.array = b}}, 2, 0, NULL, false, NULL,
                                &fused_sum);
    if (!rc)
        rc = usmarr_array_copy_to_host(fused_sum, &fused_total, NULL);
    if (!rc) /* a stack of linear systems: work stacks, a status word read back */
        rc = usmarr_array_from_host(ctx, 3, mat_shape, USMARR_FLOAT32, mat_values, NULL, USMARR_USM_DEVICE, &mat);
    if (!rc)
        rc = usmarr_array_from_host(ctx, 1, &three, USMARR_FLOAT32, rhs_values, NULL, USMARR_USM_DEVICE, &rhs);
    if (!rc)
        rc = usmarr_linalg_solve(mat, rhs, NULL, &x);
    if (!rc)
        rc = usmarr_array_copy_to_host(x, x_values, NULL);
    if (!rc && check_results) {
        const float want[3] = {2.0f / 9, 1.0f / 9, 4.0f / 9};
        for (int i = 0; i < 6 && !rc; i++)
            if (x_values[i / 3][i % 3] < want[i % 3] - 1e-5f || x_values[i / 3][i % 3] > want[i % 3] + 1e-5f) {
                fprintf(stderr, "alloc_fail: solve gave %g at %d, expected %g\n", x_values[i / 3][i % 3], i,
                        want[i % 3]);
                rc = -1;
            }
    }
    if (!rc && check_results) {
        float want = 0;
        for (int i = 0; i < N; i += 2)
            want += host[i] * host[i];
        if (fused_values[1] != host[1] * host[1] + 1 || fused_total != want) {
            fprintf(stderr, "alloc_fail: fused x * x + 1 gave %g, sum(b * b) %g (expected %g, %g)\n", fused_values[1],
                    fused_total, host[1] * host[1] + 1, want);
            rc = -1;
        }
    }
    if (!rc && check_results) {
        if (picked_values[0] != host[5] || picked_values[1] != host[N - 1] || picked_values[2] != host[0]) {
            fprintf(stderr, "alloc_fail: a[ind] gave %g %g %g\n", picked_values[0], picked_values[1],
                    picked_values[2]);
            rc = -1;
        }
    }
    if (!rc && check_results) {
        float want = 0;
        for (int i = 0; i < N; i++) {
            want += host[i] * host[i];
            if (out[i] != host[i] * host[i]) {
                fprintf(stderr, "alloc_fail: element %d is %g, expected %g\n", i, out[i], host[i] * host[i]);
                rc = -1;
                break;
            }
        }
        if (!rc && sum != want) {
            fprintf(stderr, "alloc_fail: sum %g, expected %g\n", sum, want);
            rc = -1;
        }
        if (!rc && (usmarr_array_ndim(back) != 1 || usmarr_array_shape(back)[0] != (N + 1) / 2)) {
            fprintf(stderr, "alloc_fail: the JSON round trip lost the view's shape\n");
            rc = -1;
        }
        if (!rc && (usmarr_array_strides(shared)[0] != 2 || memcmp(from_dlpack, host, sizeof host))) {
            fprintf(stderr, "alloc_fail: the DLPack round trips lost the view's strides or the values\n");
            rc = -1;
        }
    }
    usmarr_array_release(x);
    usmarr_array_release(rhs);
    usmarr_array_release(mat);
    usmarr_array_release(fused);
    usmarr_array_release(fused_sum);
    usmarr_expr_release(expr);
    usmarr_expr_release(expr_sum);
    usmarr_string_free(json);
    usmarr_storage_release(st2);
    usmarr_storage_release(st);
    usmarr_array_release(copied);
    usmarr_array_release(shared);
    usmarr_array_release(back);
    usmarr_array_release(picked);
    usmarr_array_release(ind);
    usmarr_array_release(s);
    usmarr_array_release(c);
    usmarr_array_release(b);
    usmarr_array_release(a);
    return rc;
}

int main(int argc, char **argv)
{
    const char *selector = argc > 1 ? argv[1] : "opencl:cpu:0";
    Dl_info info;
    if (!dladdr((void *)usmarr_strerror, &info) || !strstr(info.dli_fname, "libusmarr")) {
        fprintf(stderr, "alloc_fail: libusmarr must be a shared library here\n");
        return 1;
    }
    lib_base = (uintptr_t)info.dli_fbase;
    /* The library's text: from its base to the highest function we can name is not enough;
     * take the mapping from /proc/self/maps. */
    FILE *maps = fopen("/proc/self/maps", "r");
    char line[512];
    while (maps && fgets(line, sizeof line, maps)) {
        unsigned long lo, hi;
        char perms[8];
        if (sscanf(line, "%lx-%lx %7s", &lo, &hi, perms) == 3 && strstr(line, info.dli_fname) && perms[2] == 'x') {
            lib_begin = lo;
            lib_end = hi;
        }
    }
    if (maps)
        fclose(maps);
    if (!lib_begin) {
        fprintf(stderr, "alloc_fail: cannot find libusmarr's code in /proc/self/maps\n");
        return 1;
    }
    /* A first run compiles (or loads) the kernels and fills process-wide state, so that
     * what later runs leave behind is their own. */
    usmarr_context_t *ctx = NULL;
    int rc = usmarr_context_create(selector, &ctx);
    if (!rc)
        rc = program(selector, ctx, true);
    usmarr_context_release(ctx), ctx = NULL;
    if (rc) {
        fprintf(stderr, "alloc_fail: the program fails without injection: %s: %s\n", usmarr_error_name(rc),
                usmarr_last_error_detail());
        bool required = getenv("USMARR_REQUIRE_DEVICE") && !strcmp(getenv("USMARR_REQUIRE_DEVICE"), "1");
        return (rc == USMARR_ERROR_NO_DEVICE || rc == USMARR_ERROR_BAD_SELECTOR) && !required ? 77 : 1;
    }
    long baseline = live_count, failures = 0;
    int descriptors = open_descriptors();
    long n;
    for (n = 1;; n++) {
        if ((rc = usmarr_context_create(selector, &ctx)) != 0) {
            fprintf(stderr, "alloc_fail: context: %s\n", usmarr_error_name(rc));
            return 1;
        }
        counted = 0, injected = false, fail_at = n;
        rc = program(selector, ctx, false);
        fail_at = 0;
        if (!injected) {
            usmarr_context_release(ctx);
            break; /* the program made fewer than n allocations: every one was tried */
        }
        /* 0: an allocation the library can do without (the disk cache's key or path: a
         * miss, the kernel is compiled instead); anything else must be out-of-memory. */
        if (rc != USMARR_ERROR_OUT_OF_HOST_MEMORY && rc != 0) {
            fprintf(stderr, "alloc_fail: allocation %ld (called from libusmarr+0x%lx) failed: the program "
                            "returned %s (%d), not USMARR_ERROR_OUT_OF_HOST_MEMORY; detail: %s\n",
                    n, (unsigned long)(injected_at - lib_base), usmarr_error_name(rc), rc, usmarr_last_error_detail());
            failures++;
        }
        rc = program(selector, ctx, true);
        if (rc) {
            fprintf(stderr, "alloc_fail: allocation %ld failed, then the retry on the same context failed: %s: %s\n",
                    n, usmarr_error_name(rc), usmarr_last_error_detail());
            failures++;
        }
        usmarr_context_release(ctx), ctx = NULL;
        if (live_count != baseline) {
            fprintf(stderr, "alloc_fail: allocation %ld failed: %ld library allocation(s) left behind\n", n,
                    live_count - baseline);
            failures++;
            baseline = live_count;
        }
        int now_open = open_descriptors();
        if (now_open != descriptors) {
            fprintf(stderr, "alloc_fail: allocation %ld failed: %d file descriptor(s) left open\n", n,
                    now_open - descriptors);
            failures++;
            descriptors = now_open;
        }
        if (failures > 200)
            break;
    }
    printf("alloc_fail: %ld library allocation points on %s, each failed once then retried: %s\n", n - 1,
           selector, failures ? "FAILED" : "all gave out-of-host-memory and recovered");
    return failures ? 1 : 0;
}
