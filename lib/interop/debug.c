/* The debug_repr dump of an array (after DyND's), and NumPy-like printing of the values. */
#include "interop_internal.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void usmarr__put_tuple(FILE *f, int n, const int64_t *v)
{
    fputc('(', f);
    for (int k = 0; k < n; k++)
        fprintf(f, "%s%" PRId64, k ? ", " : "", v[k]);
    fputs(n == 1 ? ",)" : ")", f);
}

static void dump(const usmarr_array_t *a, FILE *f)
{
    const usmarr_memory_t *m = a->memory;
    const usmarr_context_t *c = m->context;
    fputs("------ usmarr array\n", f);
    fprintf(f, " address: %p\n", (const void *)a);
    fprintf(f, " refcount: %d\n", usmarr_array_refcount(a));
    fprintf(f, " dtype: %s (typestr %s, %zu bytes, alignment %zu)\n", usmarr_dtype_name(a->dtype),
            usmarr_dtype_typestr(a->dtype), usmarr_dtype_size(a->dtype), usmarr_dtype_alignment(a->dtype));
    fprintf(f, " flags: 0x%x (%s%s%s%s%s)\n", a->flags, a->flags & USMARR_FLAG_C_CONTIGUOUS ? "c_contiguous " : "",
            a->flags & USMARR_FLAG_F_CONTIGUOUS ? "f_contiguous " : "",
            a->flags & USMARR_FLAG_READABLE ? "read_access " : "",
            a->flags & USMARR_FLAG_WRITABLE ? "write_access " : "",
            a->flags & USMARR_FLAG_IMMUTABLE ? "immutable " : "");
    fprintf(f, " ndim: %d\n shape: ", a->ndim);
    usmarr__put_tuple(f, a->ndim, a->shape);
    fputs("\n strides: ", f);
    usmarr__put_tuple(f, a->ndim, a->strides);
    fprintf(f, " elements\n offset: %" PRId64 " elements\n", a->offset);
    fprintf(f, " size: %" PRId64 " elements, %" PRId64 " bytes\n", usmarr_array_size(a), usmarr_array_nbytes(a));
    fprintf(f, " data:\n  pointer: %p (element [0,...,0])\n", usmarr_array_data(a));
    fprintf(f, " memory block:\n  address: %p\n  kind: %s\n  base: %p\n  size: %zu bytes\n  refcount: %d\n",
            (const void *)m, usmarr_usm_kind_name(m->kind), m->pointer, m->size, usmarr_memory_refcount(m));
    fprintf(f, "  owner: %s\n", m->foreign ? "foreign (wrapped, released by its owner)" : "libusmarr (USM free)");
    const char *selector = c->info.selector[0] ? c->info.selector : "no selector";
    fprintf(f, " context:\n  address: %p\n  refcount: %d\n  device: %s (%s)\n  platform: %s\n", (const void *)c,
            USMARR__REFCOUNT(c), c->info.device_name,
            selector, c->info.platform_name);
    fputs("------\n", f);
}

int usmarr_array_debug_print(const usmarr_array_t *array, FILE *out)
{
    usmarr__clear_error();
    if (!array || !out)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s is NULL", !array ? "array" : "out");
    dump(array, out);
    return ferror(out) ? usmarr__fail(USMARR_ERROR_IO, "writing the dump to out failed") : 0;
}

int usmarr__text_of(int (*write)(const void *object, FILE *f), const void *object, const char *name,
                    const char *what, char **text)
{
    if (!object || !text)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s is NULL", !object ? name : "text");
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return usmarr__fail(USMARR_ERROR_OUT_OF_HOST_MEMORY, "%s", what);
    int rc = write(object, f);
    if (fclose(f) != 0 || !buf)
        rc = rc ? rc : usmarr__fail(USMARR_ERROR_OUT_OF_HOST_MEMORY, "%s", what);
    if (rc) {
        free(buf);
        return rc;
    }
    *text = buf;
    return 0;
}

static int dump_text(const void *array, FILE *f)
{
    dump(array, f);
    return 0;
}

int usmarr_array_debug_string(const usmarr_array_t *array, char **text)
{
    usmarr__clear_error();
    return usmarr__text_of(dump_text, array, "array", "debug string", text);
}

/* ---- values ----------------------------------------------------------------------------- */

static void format_real(double v, char *out, size_t size)
{
    if (isnan(v)) {
        snprintf(out, size, "nan");
        return;
    }
    if (isinf(v)) {
        snprintf(out, size, v < 0 ? "-inf" : "inf");
        return;
    }
    snprintf(out, size, "%.8g", v);
    if (!strpbrk(out, ".e")) /* NumPy marks integral floats with a trailing point */
        strncat(out, ".", size - strlen(out) - 1);
}

/* An integer element of `size` bytes, widened (host byte order, any alignment). */
static uint64_t load_unsigned(const unsigned char *p, size_t size)
{
    uint8_t v8;
    uint16_t v16;
    uint32_t v32;
    uint64_t v64;
    switch (size) {
    case 1:
        memcpy(&v8, p, 1);
        return v8;
    case 2:
        memcpy(&v16, p, 2);
        return v16;
    case 4:
        memcpy(&v32, p, 4);
        return v32;
    default:
        memcpy(&v64, p, 8);
        return v64;
    }
}

static int64_t load_signed(const unsigned char *p, size_t size)
{
    uint64_t u = load_unsigned(p, size);
    if (size < 8 && (u >> (8 * size - 1)) & 1)
        u |= ~UINT64_C(0) << (8 * size); /* sign-extend from the element's width */
    return (int64_t)u;
}

/* The real value of a float16/32/64 element. */
static double load_real(usmarr_dtype_t t, const unsigned char *p)
{
    if (t == USMARR_FLOAT16) {
        uint16_t h;
        memcpy(&h, p, 2);
        return usmarr__half_to_double(h);
    }
    if (t == USMARR_FLOAT32) {
        float v;
        memcpy(&v, p, 4);
        return v;
    }
    double v;
    memcpy(&v, p, 8);
    return v;
}

static void format_element(usmarr_dtype_t t, const unsigned char *p, char *out, size_t size)
{
    size_t width = usmarr_dtype_size(t);
    switch (usmarr_dtype_kind(t)) {
    case USMARR_KIND_BOOL:
        snprintf(out, size, "%s", *p ? "True" : "False");
        return;
    case USMARR_KIND_INT:
        snprintf(out, size, "%" PRId64, load_signed(p, width));
        return;
    case USMARR_KIND_UINT:
        snprintf(out, size, "%" PRIu64, load_unsigned(p, width));
        return;
    case USMARR_KIND_FLOAT:
        format_real(load_real(t, p), out, size);
        return;
    default: { /* complex: two reals of half the width */
        usmarr_dtype_t part = t == USMARR_COMPLEX64 ? USMARR_FLOAT32 : USMARR_FLOAT64;
        double re = load_real(part, p), im = load_real(part, p + width / 2);
        char r[40], i[40];
        format_real(re, r, sizeof r);
        format_real(fabs(im), i, sizeof i);
        snprintf(out, size, "%s%s%sj", r, signbit(im) ? "-" : "+", i);
        return;
    }
    }
}

struct printer {
    const usmarr_array_t *a;
    const unsigned char *values; /* C-contiguous host copy */
    int64_t cstrides[USMARR_MAX_NDIM];
    bool summarise;
    int width;
    FILE *f;
};

static bool shown(const struct printer *pr, int dim, int64_t i)
{
    int64_t n = pr->a->shape[dim];
    return !pr->summarise || n <= 2 * USMARR_PRINT_EDGEITEMS || i < USMARR_PRINT_EDGEITEMS ||
           i >= n - USMARR_PRINT_EDGEITEMS;
}

/* Visits every shown element (to measure the width, f == NULL) or prints. */
static void walk(struct printer *pr, int dim, int64_t linear, bool print)
{
    const usmarr_array_t *a = pr->a;
    size_t item = usmarr_dtype_size(a->dtype);
    if (dim == a->ndim) {
        char text[96];
        format_element(a->dtype, pr->values + linear * (int64_t)item, text, sizeof text);
        int len = (int)strlen(text);
        if (print)
            fprintf(pr->f, "%*s", pr->width, text);
        else if (len > pr->width)
            pr->width = len;
        return;
    }
    if (print)
        fputc('[', pr->f);
    int64_t n = a->shape[dim];
    bool first = true;
    for (int64_t i = 0; i < n; i++) {
        if (!shown(pr, dim, i)) {
            if (print) {
                if (dim == a->ndim - 1)
                    fputs(" ...", pr->f);
                else {
                    fputc('\n', pr->f);
                    fprintf(pr->f, "%*s...", dim + 1, "");
                }
            }
            i = n - USMARR_PRINT_EDGEITEMS - 1;
            continue;
        }
        if (print && !first) {
            if (dim == a->ndim - 1)
                fputc(' ', pr->f);
            else {
                for (int k = dim; k < a->ndim - 1; k++)
                    fputc('\n', pr->f);
                fprintf(pr->f, "%*s", dim + 1, "");
            }
        }
        first = false;
        walk(pr, dim + 1, linear + i * pr->cstrides[dim], print);
    }
    if (print)
        fputc(']', pr->f);
}

static int values_text(const usmarr_array_t *a, FILE *f)
{
    struct printer pr = {.a = a, .f = f};
    int64_t n = usmarr_array_size(a);
    size_t item = usmarr_dtype_size(a->dtype);
    usmarr__contiguous_strides(a->ndim, a->shape, USMARR_ORDER_C, pr.cstrides);
    unsigned char *values = malloc(n > 0 ? (size_t)n * item : 1);
    if (!values)
        return usmarr__fail(USMARR_ERROR_OUT_OF_HOST_MEMORY, "host copy of %" PRId64 " elements", n);
    int rc = usmarr__array_read(a, values, NULL);
    if (rc) {
        free(values);
        return rc;
    }
    pr.values = values;
    pr.summarise = n > USMARR_PRINT_THRESHOLD;
    if (n == 0) {
        fputs("[]", f); /* as NumPy prints any empty array */
    } else {
        walk(&pr, 0, 0, false);
        walk(&pr, 0, 0, true);
    }
    free(values);
    return 0;
}

static int values_text_of(const void *array, FILE *f) { return values_text(array, f); }

int usmarr_array_to_string(const usmarr_array_t *array, char **text)
{
    usmarr__clear_error();
    return usmarr__text_of(values_text_of, array, "array", "value string", text);
}

int usmarr_array_print(const usmarr_array_t *array, FILE *out)
{
    usmarr__clear_error();
    if (!array || !out)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s is NULL", !array ? "array" : "out");
    char *text;
    int rc = usmarr_array_to_string(array, &text);
    if (rc)
        return rc;
    fputs(text, out);
    fputc('\n', out);
    free(text);
    return ferror(out) ? usmarr__fail(USMARR_ERROR_IO, "writing to out failed") : 0;
}
