/* Fuzz target: the argument checks of usmarr_array_create().
 *
 * The input is text, `key=value` words separated by white space (unknown words are
 * ignored), so that seeds are readable and a crashing input can be read in a report:
 *
 *   context=none|a|b   a: the stand-in context with float64 (default), b: another one
 *                      without float64 (fuzz/host_context.c)
 *   ndim=N             default: the number of shape values
 *   shape=N,N,...      or shape=null (a NULL pointer)
 *   strides=N,N,...    default: none (NULL)
 *   dtype=N  typestr=TEXT  buffer=device|shared|host|memory|array|N
 *   memory=block|none  the block for buffer=memory (4 KiB on context a)
 *   array=rw|ro|immutable|none   an array over that block, for buffer=array
 *   offset=N  order=C|F|A|K|N  alignment=N  copy=0|1  read_only=0|1  immutable=0|1
 *
 * Shape and strides are passed in heap blocks of exactly the length the call may read
 * (ndim entries, padded with 1; the given entries when ndim is out of range), so an
 * over-read is an AddressSanitizer report.
 *
 * Checks: a failure has a documented code and a detail, leaves the output untouched and
 * frees whatever it allocated; a success matches an independent computation (128-bit)
 * of the layout: the dtype, shape and strides asked for, every element inside the block,
 * a new allocation sized to the exact span with the offset the constructor documents,
 * no two elements of a new allocation with explicit strides at the same address, aligned
 * data, exact contiguity flags and the access flags the options and the source imply. */
#include "fuzz.h"

#include <ctype.h>
#include <errno.h>
#include <string.h>

#define BLOCK_BYTES 4096
#define MAX_VALUES 80

static usmarr_memory_t *block;
static usmarr_array_t *sources[3]; /* rw, read-only, immutable arrays over the block */

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fuzz_no_opencl_devices();
    if (usmarr_memory_create(fuzz_host_context(0), USMARR_USM_DEVICE, BLOCK_BYTES, 0, &block) != 0)
        abort();
    unsigned char *bytes = usmarr_memory_pointer(block);
    for (int i = 0; i < BLOCK_BYTES; i++)
        bytes[i] = (unsigned char)(i * 7 + 1);
    for (int s = 0; s < 3; s++) {
        usmarr_array_options_t o = USMARR_ARRAY_OPTIONS_INIT;
        int64_t n = BLOCK_BYTES / 8;
        o.ndim = 1;
        o.shape = &n;
        o.buffer = USMARR_BUFFER_MEMORY;
        o.memory = block;
        o.read_only = s == 1;
        o.immutable = s == 2;
        if (usmarr_array_create(&o, &sources[s]) != 0)
            abort();
    }
    return 0;
}

struct request {
    usmarr_array_options_t o;
    bool ndim_given, shape_null, strides_given;
    int nshape, nstrides;
    int64_t shape[MAX_VALUES], strides[MAX_VALUES];
    char *typestr;
};

static int64_t integer(const char *s)
{
    errno = 0;
    long long v = strtoll(s, NULL, 10); /* saturates at the int64 limits */
    return (int64_t)v;
}

static int list(const char *s, int64_t *values)
{
    int n = 0;
    while (*s && n < MAX_VALUES) {
        values[n++] = integer(s);
        const char *comma = strchr(s, ',');
        if (!comma)
            break;
        s = comma + 1;
    }
    return n;
}

static int word(const char *value, const char *const *words, int nwords, int otherwise)
{
    for (int i = 0; i < nwords; i++)
        if (!strcmp(value, words[i]))
            return i;
    return isdigit((unsigned char)value[0]) || value[0] == '-' ? (int)integer(value) : otherwise;
}

static void decode(char *text, struct request *r)
{
    static const char *const contexts[] = {"none", "a", "b"};
    static const char *const buffers[] = {"device", "shared", "host", "memory", "array"};
    static const char *const blocks[] = {"none", "block"};
    static const char *const arrays[] = {"none", "rw", "ro", "immutable"};
    usmarr_array_options_t defaults = USMARR_ARRAY_OPTIONS_INIT;
    r->o = defaults;
    r->o.context = fuzz_host_context(0);
    r->o.memory = block;
    r->o.array = sources[0];
    char *save = NULL;
    for (char *w = strtok_r(text, " \t\r\n", &save); w; w = strtok_r(NULL, " \t\r\n", &save)) {
        char *value = strchr(w, '=');
        if (!value)
            continue;
        *value++ = '\0';
        if (!strcmp(w, "context")) {
            int c = word(value, contexts, 3, 1);
            r->o.context = c == 1 ? fuzz_host_context(0) : c == 2 ? fuzz_host_context(1) : NULL;
        } else if (!strcmp(w, "ndim")) {
            r->o.ndim = (int)integer(value);
            r->ndim_given = true;
        } else if (!strcmp(w, "shape")) {
            r->shape_null = !strcmp(value, "null");
            r->nshape = r->shape_null ? 0 : list(value, r->shape);
        } else if (!strcmp(w, "strides")) {
            r->strides_given = strcmp(value, "none") != 0;
            r->nstrides = r->strides_given ? list(value, r->strides) : 0;
        } else if (!strcmp(w, "dtype")) {
            r->o.dtype = (usmarr_dtype_t)integer(value);
        } else if (!strcmp(w, "typestr")) {
            r->typestr = value;
        } else if (!strcmp(w, "buffer")) {
            r->o.buffer = (usmarr_buffer_t)word(value, buffers, 5, 0);
        } else if (!strcmp(w, "memory")) {
            r->o.memory = word(value, blocks, 2, 1) == 1 ? block : NULL;
        } else if (!strcmp(w, "array")) {
            int a = word(value, arrays, 4, 1);
            r->o.array = a >= 1 && a <= 3 ? sources[a - 1] : NULL;
        } else if (!strcmp(w, "offset")) {
            r->o.offset = integer(value);
        } else if (!strcmp(w, "order")) {
            r->o.order = isdigit((unsigned char)value[0]) || value[0] == '-' ? (usmarr_order_t)integer(value)
                                                                               : (usmarr_order_t)value[0];
        } else if (!strcmp(w, "alignment")) {
            r->o.alignment = (size_t)strtoull(value, NULL, 10);
        } else if (!strcmp(w, "copy")) {
            r->o.copy = integer(value) != 0;
        } else if (!strcmp(w, "read_only")) {
            r->o.read_only = integer(value) != 0;
        } else if (!strcmp(w, "immutable")) {
            r->o.immutable = integer(value) != 0;
        }
    }
    if (!r->ndim_given)
        r->o.ndim = r->nshape;
}

/* A heap block of exactly the entries the call may read: `ndim` when it is valid. */
static int64_t *exact(const struct request *r, const int64_t *given, int ngiven)
{
    int len = r->o.ndim >= 0 && r->o.ndim <= USMARR_MAX_NDIM ? r->o.ndim : ngiven;
    int64_t *v = malloc(len ? (size_t)len * sizeof *v : 1);
    if (!v)
        abort();
    for (int k = 0; k < len; k++)
        v[k] = k < ngiven ? given[k] : 1;
    return v;
}

static usmarr_memory_t *source_block(const usmarr_array_options_t *o)
{
    if (o->buffer == USMARR_BUFFER_MEMORY)
        return o->memory;
    return o->buffer == USMARR_BUFFER_ARRAY && o->array ? usmarr_array_memory(o->array) : NULL;
}

/* No two elements of `a` share an address (small arrays only: it walks every element). */
static void check_no_aliasing(const usmarr_array_t *a, __int128 lo, __int128 hi, __int128 count)
{
    if (count > 4096)
        return;
    size_t span = (size_t)(hi - lo + 1);
    unsigned char *seen = calloc(span, 1);
    int ndim = usmarr_array_ndim(a);
    const int64_t *shape = usmarr_array_shape(a), *strides = usmarr_array_strides(a);
    int64_t index[USMARR_MAX_NDIM] = {0};
    for (__int128 e = 0; e < count; e++) {
        __int128 at = -lo;
        for (int k = 0; k < ndim; k++)
            at += (__int128)index[k] * strides[k];
        FUZZ_CHECK(!seen[at], "two elements share element %lld of a new allocation", (long long)at);
        seen[at] = 1;
        for (int k = ndim - 1; k >= 0 && ++index[k] == shape[k]; k--)
            index[k] = 0;
    }
    free(seen);
}

static bool is_contiguous(const usmarr_array_t *a, bool fortran)
{
    int ndim = usmarr_array_ndim(a);
    const int64_t *shape = usmarr_array_shape(a), *strides = usmarr_array_strides(a);
    __int128 expect = 1;
    for (int i = 0; i < ndim; i++)
        if (shape[i] == 0)
            return true;
    for (int i = 0; i < ndim; i++) {
        int k = fortran ? i : ndim - 1 - i;
        if (shape[k] == 1)
            continue;
        if (strides[k] != expect)
            return false;
        expect *= shape[k];
    }
    return true;
}

static void check_created(const struct request *r, const usmarr_array_t *a, usmarr_dtype_t dtype)
{
    const usmarr_array_options_t *o = &r->o;
    FUZZ_CHECK(usmarr_array_refcount(a) == 1, "refcount %d", usmarr_array_refcount(a));
    FUZZ_CHECK(usmarr_array_dtype(a) == dtype && usmarr_array_ndim(a) == o->ndim, "dtype or ndim differs");
    int ndim = o->ndim;
    const int64_t *shape = usmarr_array_shape(a), *strides = usmarr_array_strides(a);
    __int128 item = (__int128)usmarr_dtype_size(dtype), lo = 0, hi = 0, count = 1;
    for (int k = 0; k < ndim; k++) {
        FUZZ_CHECK(shape[k] == o->shape[k], "shape[%d]=%lld, asked %lld", k, (long long)shape[k],
                   (long long)o->shape[k]);
        FUZZ_CHECK(!o->strides || strides[k] == o->strides[k], "strides[%d] differs", k);
        count *= shape[k];
        __int128 d = (__int128)strides[k] * (shape[k] - 1);
        *(d < 0 ? &lo : &hi) += d;
    }
    if (!o->strides)
        FUZZ_CHECK(is_contiguous(a, o->order == USMARR_ORDER_F), "not %c-contiguous without strides",
                   o->order == USMARR_ORDER_F ? 'F' : 'C');
    usmarr_memory_t *m = usmarr_array_memory(a), *source = source_block(o);
    __int128 offset = usmarr_array_offset(a);
    bool allocates = o->buffer == USMARR_BUFFER_DEVICE || o->buffer == USMARR_BUFFER_SHARED || o->buffer == USMARR_BUFFER_HOST;
    if (allocates) {
        FUZZ_CHECK(usmarr_memory_refcount(m) == 1, "new block shared");
        FUZZ_CHECK(usmarr_memory_kind(m) == (usmarr_usm_kind_t)(USMARR_USM_DEVICE + (int)o->buffer), "kind %d",
                   (int)usmarr_memory_kind(m));
        FUZZ_CHECK(usmarr_memory_size(m) == (count > 0 ? (size_t)((hi - lo + 1) * item) : 0),
                   "a new block of %zu bytes for a span of %lld elements", usmarr_memory_size(m),
                   (long long)(count > 0 ? hi - lo + 1 : 0));
        FUZZ_CHECK(offset == (count > 0 ? -lo : 0), "offset %lld for a new block, expected %lld", (long long)offset,
                   (long long)-lo);
        if (o->strides && count > 0)
            check_no_aliasing(a, lo, hi, count);
    } else if (o->copy) {
        FUZZ_CHECK(m != source && usmarr_memory_size(m) == BLOCK_BYTES &&
                       usmarr_memory_kind(m) == usmarr_memory_kind(source),
                   "the copy is not a block like the source");
        FUZZ_CHECK(!memcmp(usmarr_memory_pointer(m), usmarr_memory_pointer(source), BLOCK_BYTES),
                   "the copy's bytes differ");
    } else {
        FUZZ_CHECK(m == source, "the array is not over the source block");
    }
    if (!allocates)
        FUZZ_CHECK(offset == o->offset, "offset %lld, asked %lld", (long long)offset, (long long)o->offset);
    if (count > 0) {
        FUZZ_CHECK(offset + lo >= 0 && (offset + hi + 1) * item <= (__int128)usmarr_memory_size(m),
                   "elements [%lld, %lld] of %d bytes leave the %zu-byte block", (long long)(offset + lo),
                   (long long)(offset + hi), (int)item, usmarr_memory_size(m));
        FUZZ_CHECK((uintptr_t)usmarr_array_data(a) % usmarr_dtype_alignment(dtype) == 0, "misaligned data");
    }
    unsigned flags = usmarr_array_flags(a);
    FUZZ_CHECK(!(flags & USMARR_FLAG_C_CONTIGUOUS) == !is_contiguous(a, false), "C flag wrong");
    FUZZ_CHECK(!(flags & USMARR_FLAG_F_CONTIGUOUS) == !is_contiguous(a, true), "F flag wrong");
    unsigned source_flags = o->buffer == USMARR_BUFFER_ARRAY && !o->copy ? usmarr_array_flags(o->array)
                                                                         : USMARR_FLAG_WRITABLE;
    bool writable = !o->read_only && !o->immutable && (source_flags & USMARR_FLAG_WRITABLE);
    bool immutable = o->immutable || (source_flags & USMARR_FLAG_IMMUTABLE);
    FUZZ_CHECK(!(flags & USMARR_FLAG_WRITABLE) == !writable, "writable=%d, expected %d",
               !!(flags & USMARR_FLAG_WRITABLE), writable);
    FUZZ_CHECK(!(flags & USMARR_FLAG_IMMUTABLE) == !immutable, "immutable=%d, expected %d",
               !!(flags & USMARR_FLAG_IMMUTABLE), immutable);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_string(data, size);
    struct request r = {0};
    decode(text, &r);
    int64_t *shape = r.shape_null ? NULL : exact(&r, r.shape, r.nshape);
    int64_t *strides = r.strides_given ? exact(&r, r.strides, r.nstrides) : NULL;
    char *typestr = r.typestr ? strdup(r.typestr) : NULL;
    r.o.shape = shape;
    r.o.strides = strides;
    r.o.typestr = typestr;

    size_t live = fuzz_host_live_allocations();
    int block_refs = usmarr_memory_refcount(block);
    usmarr_array_t *array = (usmarr_array_t *)&live;
    int rc = usmarr_array_create(&r.o, &array);
    if (rc) {
        FUZZ_CHECK(rc == USMARR_ERROR_INVALID_ARGUMENT || rc == USMARR_ERROR_BAD_DTYPE ||
                       rc == USMARR_ERROR_UNSUPPORTED || rc == USMARR_ERROR_OVERFLOW ||
                       rc == USMARR_ERROR_OUT_OF_BOUNDS || rc == USMARR_ERROR_CONTEXT_MISMATCH ||
                       rc == USMARR_ERROR_ALLOCATION,
                   "failed with %s", usmarr_error_name(rc));
        FUZZ_CHECK_DETAIL(rc);
        FUZZ_CHECK(array == (usmarr_array_t *)&live, "a failed call wrote its output");
        FUZZ_CHECK(r.o.ndim >= 0 || rc == USMARR_ERROR_INVALID_ARGUMENT, "ndim=%d gave %s", r.o.ndim,
                   usmarr_error_name(rc));
    } else {
        FUZZ_CHECK(r.o.ndim >= 0 && r.o.ndim <= USMARR_MAX_NDIM, "ndim=%d accepted", r.o.ndim);
        usmarr_dtype_t dtype = r.o.dtype;
        if (typestr)
            FUZZ_CHECK(usmarr_dtype_from_typestr(typestr, &dtype) == 0, "accepted typestr \"%s\"", typestr);
        check_created(&r, array, dtype);
        usmarr_array_release(array);
    }
    FUZZ_CHECK(fuzz_host_live_allocations() == live && usmarr_memory_refcount(block) == block_refs,
               "the call left %zu allocation(s) and %d block reference(s) behind", fuzz_host_live_allocations() - live,
               usmarr_memory_refcount(block) - block_refs);
    free(typestr);
    free(strides);
    free(shape);
    free(text);
    return 0;
}
