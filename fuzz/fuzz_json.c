/* Fuzz target: the JSON interface parser, usmarr_interface_from_json(), and what
 * usmarr_array_from_json() does with its result.
 *
 * Checks: success or USMARR_ERROR_PARSE with a detail, the output untouched on failure;
 * an accepted interface is well-formed and survives usmarr_interface_to_json() and a
 * second parse unchanged (the rendering is a fixed point).  Then the interface is
 * imported into a host stand-in context (fuzz/host_context.c): small `data` values are
 * moved into one 4 KiB stand-in allocation so that the span checks run against a real
 * block, larger ones stay foreign.  An import either fails with a documented code,
 * leaving nothing behind and not calling the release callback, or makes an array whose
 * every element lies inside the allocation (checked here in 128-bit arithmetic), whose
 * JSON export describes the same layout, and whose release calls the callback once. */
#include "fuzz.h"

#include <string.h>

#define BLOCK_BYTES 4096

static usmarr_memory_t *block;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fuzz_no_opencl_devices();
    if (usmarr_memory_create(fuzz_host_context(0), USMARR_USM_DEVICE, BLOCK_BYTES, 0, &block) != 0)
        abort();
    memset(usmarr_memory_pointer(block), 0x5a, BLOCK_BYTES);
    return 0;
}

static const void *const untouched = &untouched;

/* Parses `text`, which must be accepted when `must_parse`. */
static usmarr_interface_t *parse(const char *text, bool must_parse)
{
    usmarr_interface_t *iface = (usmarr_interface_t *)untouched;
    int rc = usmarr_interface_from_json(text, &iface);
    if (rc) {
        FUZZ_CHECK(!must_parse, "the library's own JSON is refused: %s", text);
        FUZZ_CHECK(rc == USMARR_ERROR_PARSE, "failed with %s", usmarr_error_name(rc));
        FUZZ_CHECK(strncmp(usmarr_last_error_detail(), "json", 4) == 0, "detail does not start with \"json\"");
        FUZZ_CHECK(iface == untouched, "a failed parse wrote its output");
        return NULL;
    }
    FUZZ_CHECK(iface && iface != untouched, "no interface");
    FUZZ_CHECK(iface->ndim >= 0 && iface->ndim <= USMARR_MAX_NDIM, "ndim=%d", iface->ndim);
    FUZZ_CHECK(iface->ndim == 0 || iface->shape, "shape NULL with ndim=%d", iface->ndim);
    FUZZ_CHECK(iface->typestr, "typestr NULL");
    FUZZ_CHECK(!iface->strides || (iface->nstrides >= 0 && iface->nstrides <= USMARR_MAX_NDIM), "nstrides=%d",
               iface->nstrides);
    FUZZ_CHECK(iface->syclobj.kind == USMARR_SYCLOBJ_NONE ||
                   (iface->syclobj.kind == USMARR_SYCLOBJ_SELECTOR && iface->syclobj.value.selector),
               "syclobj kind %d", (int)iface->syclobj.kind);
    return iface;
}

static bool same_list(int n, const int64_t *a, const int64_t *b) { return n == 0 || !memcmp(a, b, n * sizeof *a); }

static void check_same(const usmarr_interface_t *a, const usmarr_interface_t *b, const char *json)
{
    FUZZ_CHECK(a->ndim == b->ndim && same_list(a->ndim, a->shape, b->shape), "shape differs after %s", json);
    FUZZ_CHECK(!strcmp(a->typestr, b->typestr), "typestr differs after %s", json);
    FUZZ_CHECK(a->data == b->data && a->readonly == b->readonly, "data differs after %s", json);
    FUZZ_CHECK(!a->strides == !b->strides, "strides presence differs after %s", json);
    FUZZ_CHECK(!a->strides || (a->nstrides == b->nstrides && same_list(a->nstrides, a->strides, b->strides)),
               "strides differ after %s", json);
    FUZZ_CHECK(a->offset == b->offset && a->version == b->version, "offset or version differs after %s", json);
    FUZZ_CHECK(a->syclobj.kind == b->syclobj.kind, "syclobj kind differs after %s", json);
    FUZZ_CHECK(a->syclobj.kind != USMARR_SYCLOBJ_SELECTOR ||
                   !strcmp(a->syclobj.value.selector, b->syclobj.value.selector),
               "selector differs after %s", json);
}

static char *render(const usmarr_interface_t *iface)
{
    char *json = NULL;
    int rc = usmarr_interface_to_json(iface, &json);
    FUZZ_CHECK(rc == 0 && json, "a parsed interface does not render: %s", usmarr_error_name(rc));
    return json;
}

static int releases;
static void *released_pointer;
static void on_release(void *pointer, void *user_data)
{
    FUZZ_CHECK(user_data == &releases, "release got user_data %p", user_data);
    released_pointer = pointer;
    releases++;
}

/* The import's array must lie inside the allocation, as an independent computation says. */
static void check_imported(const usmarr_interface_t *iface, const usmarr_array_t *array)
{
    char *base = usmarr_memory_pointer(block);
    usmarr_dtype_t dtype;
    FUZZ_CHECK(usmarr_dtype_from_typestr(iface->typestr, &dtype) == 0, "imported with a bad typestr");
    FUZZ_CHECK(usmarr_array_dtype(array) == dtype && usmarr_array_ndim(array) == iface->ndim, "dtype or ndim");
    __int128 item = (__int128)usmarr_dtype_size(dtype), lo = 0, hi = 0, count = 1;
    const int64_t *strides = usmarr_array_strides(array);
    for (int k = 0; k < iface->ndim; k++) {
        FUZZ_CHECK(usmarr_array_shape(array)[k] == iface->shape[k], "shape[%d]", k);
        FUZZ_CHECK(!iface->strides || strides[k] == iface->strides[k], "strides[%d]", k);
        count *= iface->shape[k];
        __int128 d = (__int128)strides[k] * (iface->shape[k] - 1);
        if (d < 0)
            lo += d;
        else
            hi += d;
    }
    FUZZ_CHECK(usmarr_array_flags(array) & USMARR_FLAG_WRITABLE ? !iface->readonly : true, "read-only became writable");
    usmarr_memory_t *m = usmarr_array_memory(array);
    if (count == 0 && !iface->data)
        return;
    FUZZ_CHECK(m != block && usmarr_memory_pointer(m) == base && usmarr_memory_size(m) == BLOCK_BYTES,
               "the import does not wrap the whole allocation");
    __int128 delta = (char *)iface->data - base;
    FUZZ_CHECK(delta >= 0 && delta < BLOCK_BYTES && delta % item == 0, "data is %lld bytes into the block",
               (long long)delta);
    __int128 offset = (__int128)iface->offset + delta / item;
    FUZZ_CHECK(usmarr_array_offset(array) == offset, "offset %lld, expected %lld", (long long)usmarr_array_offset(array),
               (long long)offset);
    if (count > 0)
        FUZZ_CHECK(offset + lo >= 0 && (offset + hi + 1) * item <= BLOCK_BYTES,
                   "elements [%lld, %lld] of %d bytes leave the %d-byte block", (long long)(offset + lo),
                   (long long)(offset + hi), (int)item, BLOCK_BYTES);
}

static void import(const usmarr_interface_t *parsed)
{
    usmarr_interface_t iface = *parsed;
    uintptr_t data = (uintptr_t)iface.data;
    if (data < 2 * BLOCK_BYTES)
        iface.data = (char *)usmarr_memory_pointer(block) + data;
    size_t live = fuzz_host_live_allocations();
    int block_refs = usmarr_memory_refcount(block);
    usmarr_array_t *array = (usmarr_array_t *)untouched;
    releases = 0;
    int rc = usmarr_interface_import(&iface, fuzz_host_context(0), on_release, &releases, &array);
    if (rc) {
        FUZZ_CHECK(rc == USMARR_ERROR_INVALID_ARGUMENT || rc == USMARR_ERROR_BAD_DTYPE ||
                       rc == USMARR_ERROR_BAD_SELECTOR || rc == USMARR_ERROR_NO_DEVICE ||
                       rc == USMARR_ERROR_CONTEXT_MISMATCH || rc == USMARR_ERROR_FOREIGN_POINTER ||
                       rc == USMARR_ERROR_OUT_OF_BOUNDS || rc == USMARR_ERROR_OVERFLOW,
                   "import failed with %s", usmarr_error_name(rc));
        FUZZ_CHECK_DETAIL(rc);
        FUZZ_CHECK(array == untouched, "a failed import wrote its output");
        FUZZ_CHECK(releases == 0, "a failed import called the release callback");
        FUZZ_CHECK(fuzz_host_live_allocations() == live && usmarr_memory_refcount(block) == block_refs,
                   "a failed import left an allocation or a reference behind");
        return;
    }
    check_imported(&iface, array);

    /* Its export names the same layout. */
    char *json = NULL;
    rc = usmarr_array_to_json(array, &json);
    FUZZ_CHECK(rc == 0, "the imported array does not export: %s", usmarr_error_name(rc));
    usmarr_interface_t *back = parse(json, true);
    FUZZ_CHECK(back->ndim == iface.ndim && same_list(iface.ndim, back->shape, iface.shape), "export shape: %s", json);
    FUZZ_CHECK(back->offset == usmarr_array_offset(array) && back->readonly == iface.readonly, "export: %s", json);
    FUZZ_CHECK(back->data == usmarr_memory_pointer(usmarr_array_memory(array)), "export data: %s", json);
    usmarr_interface_free(back);
    usmarr_string_free(json);

    bool foreign = usmarr_memory_pointer(usmarr_array_memory(array)) != NULL;
    usmarr_array_release(array);
    FUZZ_CHECK(releases == (foreign ? 1 : 0), "release callback called %d times", releases);
    FUZZ_CHECK(!foreign || released_pointer == usmarr_memory_pointer(block), "release got %p", released_pointer);
    FUZZ_CHECK(fuzz_host_live_allocations() == live && usmarr_memory_refcount(block) == block_refs,
               "releasing the import left an allocation or a reference behind");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_string(data, size);
    usmarr_interface_t *iface = parse(text, false);
    if (iface) {
        char *json = render(iface);
        usmarr_interface_t *again = parse(json, true);
        check_same(iface, again, json);
        char *json2 = render(again);
        FUZZ_CHECK(!strcmp(json, json2), "the rendering is not a fixed point: %s then %s", json, json2);
        usmarr_string_free(json2);
        usmarr_interface_free(again);
        usmarr_string_free(json);
        import(iface);
        usmarr_interface_free(iface);
    }
    free(text);
    return 0;
}
