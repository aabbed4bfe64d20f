/* JSON rendering of the USM array interface, and a strict hand-written parser for it.
 * The parser trusts nothing: every read is bounds-checked against the terminating NUL,
 * recursion is limited, numbers are range-checked, and errors carry a byte position. */
#include "interop_internal.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

USMARR_INTERNAL int usmarr__device_select(const char *selector, cl_platform_id *platform, cl_device_id *device);

#define JSON_MAX_DEPTH 32
#define JSON_MAX_TEXT_STRING 255

/* A parsed interface owns its storage; `iface` comes first so the public pointer is the
 * allocation. */
struct owned_interface {
    usmarr_interface_t iface;
    int64_t shape[USMARR_MAX_NDIM];
    int64_t strides[USMARR_MAX_NDIM];
    char typestr[16];
    char selector[JSON_MAX_TEXT_STRING + 1];
};

void usmarr_string_free(char *string) { free(string); }

void usmarr_interface_free(usmarr_interface_t *iface) { free((struct owned_interface *)iface); }

/* ---- rendering ------------------------------------------------------------------------ */

static void put_json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(f, "\\%c", *p);
        else if (*p < 0x20)
            fprintf(f, "\\u%04x", *p);
        else
            fputc(*p, f);
    }
    fputc('"', f);
}

/* The selector of a device: the usable device whose own selector resolves to it. */
static int queue_selector(cl_command_queue q, char *out, size_t size)
{
    cl_device_id dev = NULL;
    if (!q || clGetCommandQueueInfo(q, CL_QUEUE_DEVICE, sizeof dev, &dev, NULL) != CL_SUCCESS)
        return USMARR_ERROR_NO_DEVICE;
    return usmarr__device_selector(dev, out, size, NULL);
}

int usmarr_interface_to_json(const usmarr_interface_t *iface, char **json)
{
    usmarr__clear_error();
    if (!iface || !json)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s is NULL", !iface ? "iface" : "json");
    if (iface->ndim < 0 || iface->ndim > USMARR_MAX_NDIM)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "ndim=%d is outside [0, %d]", iface->ndim,
                            USMARR_MAX_NDIM);
    if (iface->ndim > 0 && !iface->shape)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "shape is NULL with ndim=%d", iface->ndim);
    if (iface->strides && (iface->nstrides < 0 || iface->nstrides > USMARR_MAX_NDIM))
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "nstrides=%d is outside [0, %d]", iface->nstrides,
                            USMARR_MAX_NDIM);
    if (!iface->typestr)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "typestr is NULL");
    char qsel[64];
    int rc_;
    const char *selector = NULL;
    switch (iface->syclobj.kind) {
    case USMARR_SYCLOBJ_SELECTOR:
        selector = iface->syclobj.value.selector;
        break;
    case USMARR_SYCLOBJ_CONTEXT:
        if (!iface->syclobj.value.context)
            return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "syclobj.context is NULL");
        if (!iface->syclobj.value.context->info.selector[0])
            return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "syclobj.context's device has no selector");
        selector = iface->syclobj.value.context->info.selector;
        break;
    case USMARR_SYCLOBJ_QUEUE:
        rc_ = queue_selector(iface->syclobj.value.queue, qsel, sizeof qsel);
        if (rc_ == USMARR_ERROR_NO_DEVICE)
            return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "syclobj.queue names no usable device");
        if (rc_)
            return rc_;
        selector = qsel;
        break;
    default:
        break;
    }
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return usmarr__fail(USMARR_ERROR_OUT_OF_HOST_MEMORY, "JSON text");
    fputs("{\"shape\": [", f);
    for (int k = 0; k < iface->ndim; k++)
        fprintf(f, "%s%" PRId64, k ? ", " : "", iface->shape[k]);
    fputs("], \"typestr\": ", f);
    put_json_string(f, iface->typestr);
    fprintf(f, ", \"data\": [%" PRIuPTR ", %s], \"strides\": ", (uintptr_t)iface->data,
            iface->readonly ? "true" : "false");
    if (iface->strides) {
        fputc('[', f);
        for (int k = 0; k < iface->nstrides; k++)
            fprintf(f, "%s%" PRId64, k ? ", " : "", iface->strides[k]);
        fputc(']', f);
    } else {
        fputs("null", f);
    }
    fprintf(f, ", \"offset\": %" PRId64 ", \"syclobj\": ", iface->offset);
    if (selector)
        put_json_string(f, selector);
    else
        fputs("null", f);
    /* Never pretend: memory of the SVM backend is OpenCL SVM, not the USM extension's. */
    if (iface->syclobj.kind == USMARR_SYCLOBJ_CONTEXT &&
        iface->syclobj.value.context->info.backend == USMARR_BACKEND_SVM)
        fputs(", \"memory\": \"opencl-svm\"", f);
    fprintf(f, ", \"version\": %d}", iface->version);
    if (fclose(f) != 0 || !text) {
        free(text);
        return usmarr__fail(USMARR_ERROR_OUT_OF_HOST_MEMORY, "JSON text");
    }
    *json = text;
    return 0;
}

int usmarr_array_to_json(const usmarr_array_t *array, char **json)
{
    usmarr_interface_t iface;
    int rc = usmarr_interface_export(array, &iface);
    if (!rc && !json)
        rc = usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "json is NULL");
    return rc ? rc : usmarr_interface_to_json(&iface, json);
}

/* ---- parsing ---------------------------------------------------------------------------- */

struct parser {
    const char *s;
    size_t pos;
};

static int perr(const struct parser *p, const char *format, ...) __attribute__((format(printf, 2, 3)));
static int perr(const struct parser *p, const char *format, ...)
{
    char why[200];
    va_list ap;
    va_start(ap, format);
    vsnprintf(why, sizeof why, format, ap);
    va_end(ap);
    if (p->s[p->pos] == '\0')
        return usmarr__fail(USMARR_ERROR_PARSE, "json at byte %zu (end of text): %s", p->pos, why);
    return usmarr__fail(USMARR_ERROR_PARSE, "json at byte %zu ('%c'): %s", p->pos,
                        (p->s[p->pos] >= 0x20 && p->s[p->pos] < 0x7f) ? p->s[p->pos] : '?', why);
}

static char peek(const struct parser *p) { return p->s[p->pos]; }

static void skip_ws(struct parser *p)
{
    while (peek(p) == ' ' || peek(p) == '\t' || peek(p) == '\n' || peek(p) == '\r')
        p->pos++;
}

static int expect(struct parser *p, char c)
{
    skip_ws(p);
    if (peek(p) != c)
        return perr(p, "expected '%c'", c);
    p->pos++;
    return 0;
}

static int hexval(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* Parses a string; stores it (ASCII only: other code points are refused for stored
 * strings) when `out` is non-NULL. */
static int parse_string(struct parser *p, char *out, size_t cap)
{
    skip_ws(p);
    if (peek(p) != '"')
        return perr(p, "expected a string");
    p->pos++;
    size_t n = 0;
    for (;;) {
        unsigned char c = (unsigned char)peek(p);
        if (c == '\0')
            return perr(p, "unterminated string");
        if (c < 0x20)
            return perr(p, "control character in string");
        if (c == '"') {
            p->pos++;
            break;
        }
        unsigned code = c;
        if (c == '\\') {
            p->pos++;
            char e = peek(p);
            switch (e) {
            case '"':
            case '\\':
            case '/':
                code = (unsigned char)e;
                break;
            case 'b':
                code = '\b';
                break;
            case 'f':
                code = '\f';
                break;
            case 'n':
                code = '\n';
                break;
            case 'r':
                code = '\r';
                break;
            case 't':
                code = '\t';
                break;
            case 'u': {
                code = 0;
                for (int i = 1; i <= 4; i++) {
                    int h = hexval(p->s[p->pos + 1]);
                    if (h < 0) {
                        p->pos++;
                        return perr(p, "bad \\u escape");
                    }
                    p->pos++;
                    code = code * 16 + (unsigned)h;
                }
                break;
            }
            default:
                return perr(p, "bad escape");
            }
        }
        if (out) {
            if (code == 0 || code >= 0x80)
                return perr(p, "only printable ASCII is accepted here");
            if (n + 1 >= cap)
                return perr(p, "string longer than %zu characters", cap - 1);
            out[n++] = (char)code;
        }
        p->pos++;
    }
    if (out)
        out[n] = '\0';
    return 0;
}

/* A JSON number that must be an integer.  Negative values must fit int64; with
 * `as_unsigned` non-negative ones may use the full uint64 range. */
static int parse_integer(struct parser *p, bool as_unsigned, int64_t *sval, uint64_t *uval, const char *what)
{
    skip_ws(p);
    size_t start = p->pos;
    bool neg = false;
    if (peek(p) == '-') {
        neg = true;
        p->pos++;
    }
    if (peek(p) < '0' || peek(p) > '9')
        return perr(p, "expected an integer for %s", what);
    if (peek(p) == '0' && p->s[p->pos + 1] >= '0' && p->s[p->pos + 1] <= '9')
        return perr(p, "leading zero in %s", what);
    uint64_t v = 0;
    bool overflow = false;
    while (peek(p) >= '0' && peek(p) <= '9') {
        unsigned d = (unsigned)(peek(p) - '0');
        if (v > (UINT64_MAX - d) / 10)
            overflow = true;
        else
            v = v * 10 + d;
        p->pos++;
    }
    if (peek(p) == '.' || peek(p) == 'e' || peek(p) == 'E')
        return perr(p, "%s must be an integer", what);
    if (neg && as_unsigned) {
        p->pos = start;
        return perr(p, "%s must not be negative", what);
    }
    uint64_t limit = neg ? (uint64_t)INT64_MAX + 1 : as_unsigned ? UINT64_MAX : (uint64_t)INT64_MAX;
    if (overflow || v > limit) {
        p->pos = start;
        return perr(p, "%s is out of range", what);
    }
    if (uval)
        *uval = v;
    if (sval)
        *sval = neg ? (int64_t)((uint64_t)0 - v) : (int64_t)v;
    return 0;
}

static int parse_literal(struct parser *p, const char *word)
{
    size_t n = strlen(word);
    if (strncmp(p->s + p->pos, word, n) != 0)
        return perr(p, "expected '%s'", word);
    p->pos += n;
    return 0;
}

static int parse_bool(struct parser *p, bool *out, const char *what)
{
    skip_ws(p);
    if (peek(p) == 't') {
        *out = true;
        return parse_literal(p, "true");
    }
    if (peek(p) == 'f') {
        *out = false;
        return parse_literal(p, "false");
    }
    return perr(p, "expected true or false for %s", what);
}

static bool at_null(struct parser *p)
{
    skip_ws(p);
    return strncmp(p->s + p->pos, "null", 4) == 0;
}

/* Skips any JSON value (for unknown keys), depth-limited. */
static int skip_value(struct parser *p, int depth)
{
    if (depth > JSON_MAX_DEPTH)
        return perr(p, "nesting deeper than %d", JSON_MAX_DEPTH);
    skip_ws(p);
    char c = peek(p);
    int rc;
    if (c == '"')
        return parse_string(p, NULL, 0);
    if (c == 't')
        return parse_literal(p, "true");
    if (c == 'f')
        return parse_literal(p, "false");
    if (c == 'n')
        return parse_literal(p, "null");
    if (c == '[' || c == '{') {
        char close = c == '[' ? ']' : '}';
        p->pos++;
        skip_ws(p);
        if (peek(p) == close) {
            p->pos++;
            return 0;
        }
        for (;;) {
            if (c == '{') {
                if ((rc = parse_string(p, NULL, 0)) || (rc = expect(p, ':')))
                    return rc;
            }
            if ((rc = skip_value(p, depth + 1)))
                return rc;
            skip_ws(p);
            if (peek(p) == ',') {
                p->pos++;
                continue;
            }
            if (peek(p) == close) {
                p->pos++;
                return 0;
            }
            return perr(p, "expected ',' or '%c'", close);
        }
    }
    if (c == '-' || (c >= '0' && c <= '9')) {
        /* Full number grammar, value ignored. */
        if (c == '-')
            p->pos++;
        if (peek(p) < '0' || peek(p) > '9')
            return perr(p, "bad number");
        while (peek(p) >= '0' && peek(p) <= '9')
            p->pos++;
        if (peek(p) == '.') {
            p->pos++;
            if (peek(p) < '0' || peek(p) > '9')
                return perr(p, "bad number");
            while (peek(p) >= '0' && peek(p) <= '9')
                p->pos++;
        }
        if (peek(p) == 'e' || peek(p) == 'E') {
            p->pos++;
            if (peek(p) == '+' || peek(p) == '-')
                p->pos++;
            if (peek(p) < '0' || peek(p) > '9')
                return perr(p, "bad number");
            while (peek(p) >= '0' && peek(p) <= '9')
                p->pos++;
        }
        return 0;
    }
    return perr(p, "expected a value");
}

static int parse_int_list(struct parser *p, int64_t *vals, int *count, const char *what)
{
    int rc = expect(p, '[');
    if (rc)
        return rc;
    int n = 0;
    skip_ws(p);
    if (peek(p) == ']') {
        p->pos++;
        *count = 0;
        return 0;
    }
    for (;;) {
        if (n >= USMARR_MAX_NDIM)
            return perr(p, "%s has more than %d entries", what, USMARR_MAX_NDIM);
        if ((rc = parse_integer(p, false, &vals[n], NULL, what)))
            return rc;
        n++;
        skip_ws(p);
        if (peek(p) == ',') {
            p->pos++;
            continue;
        }
        if (peek(p) == ']') {
            p->pos++;
            break;
        }
        return perr(p, "expected ',' or ']' in %s", what);
    }
    *count = n;
    return 0;
}

enum { K_SHAPE, K_TYPESTR, K_DATA, K_STRIDES, K_OFFSET, K_SYCLOBJ, K_VERSION, K_COUNT };
static const char *const key_names[K_COUNT] = {"shape", "typestr", "data", "strides", "offset", "syclobj", "version"};

static int parse_member(struct parser *p, int key, struct owned_interface *o)
{
    usmarr_interface_t *i = &o->iface;
    int rc;
    switch (key) {
    case K_SHAPE:
        rc = parse_int_list(p, o->shape, &i->ndim, "shape");
        i->shape = o->shape;
        return rc;
    case K_TYPESTR:
        i->typestr = o->typestr;
        return parse_string(p, o->typestr, sizeof o->typestr);
    case K_DATA: {
        uint64_t ptr;
        if ((rc = expect(p, '[')) || (rc = parse_integer(p, true, NULL, &ptr, "data[0]")))
            return rc;
#if UINTPTR_MAX < UINT64_MAX
        if (ptr > UINTPTR_MAX)
            return perr(p, "data[0] does not fit a pointer");
#endif
        i->data = (void *)(uintptr_t)ptr;
        if ((rc = expect(p, ',')) || (rc = parse_bool(p, &i->readonly, "data[1]")))
            return rc;
        return expect(p, ']');
    }
    case K_STRIDES:
        if (at_null(p)) {
            i->strides = NULL;
            i->nstrides = 0;
            return parse_literal(p, "null");
        }
        i->strides = o->strides;
        return parse_int_list(p, o->strides, &i->nstrides, "strides");
    case K_OFFSET:
        return parse_integer(p, false, &i->offset, NULL, "offset");
    case K_SYCLOBJ:
        if (at_null(p)) {
            i->syclobj.kind = USMARR_SYCLOBJ_NONE;
            return parse_literal(p, "null");
        }
        i->syclobj.kind = USMARR_SYCLOBJ_SELECTOR;
        i->syclobj.value.selector = o->selector;
        return parse_string(p, o->selector, sizeof o->selector);
    default: {
        int64_t v;
        if ((rc = parse_integer(p, false, &v, NULL, "version")))
            return rc;
        if (v < INT32_MIN || v > INT32_MAX)
            return perr(p, "version is out of range");
        i->version = (int)v;
        return 0;
    }
    }
}

int usmarr_interface_from_json(const char *json, usmarr_interface_t **iface)
{
    usmarr__clear_error();
    if (!json || !iface)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s is NULL", !json ? "json" : "iface");
    struct owned_interface *o = calloc(1, sizeof *o);
    if (!o)
        return usmarr__fail(USMARR_ERROR_OUT_OF_HOST_MEMORY, "interface");
    struct parser p = {json, 0};
    bool seen[K_COUNT] = {false};
    int rc = expect(&p, '{');
    skip_ws(&p);
    if (!rc && peek(&p) == '}') {
        p.pos++;
    } else {
        while (!rc) {
            char key[JSON_MAX_TEXT_STRING + 1];
            size_t key_pos;
            skip_ws(&p);
            key_pos = p.pos;
            /* Unknown keys may be long or non-ASCII: skip them without storing. */
            struct parser probe = p;
            if (parse_string(&probe, key, sizeof key) != 0) {
                if ((rc = parse_string(&p, NULL, 0)) || (rc = expect(&p, ':')) || (rc = skip_value(&p, 2)))
                    break;
            } else {
                p = probe;
                int k = 0;
                while (k < K_COUNT && strcmp(key, key_names[k]) != 0)
                    k++;
                if ((rc = expect(&p, ':')))
                    break;
                if (k < K_COUNT) {
                    if (seen[k]) {
                        p.pos = key_pos;
                        rc = perr(&p, "duplicate key \"%s\"", key);
                        break;
                    }
                    seen[k] = true;
                    rc = parse_member(&p, k, o);
                } else {
                    rc = skip_value(&p, 2);
                }
                if (rc)
                    break;
            }
            skip_ws(&p);
            if (peek(&p) == ',') {
                p.pos++;
                continue;
            }
            if (peek(&p) == '}') {
                p.pos++;
                break;
            }
            rc = perr(&p, "expected ',' or '}'");
        }
    }
    if (!rc) {
        skip_ws(&p);
        if (peek(&p) != '\0')
            rc = perr(&p, "trailing text after the object");
    }
    static const int required[] = {K_SHAPE, K_TYPESTR, K_DATA, K_VERSION};
    for (size_t r = 0; !rc && r < sizeof required / sizeof required[0]; r++)
        if (!seen[required[r]])
            rc = usmarr__fail(USMARR_ERROR_PARSE, "json: required key \"%s\" is missing", key_names[required[r]]);
    if (rc) {
        free(o);
        return rc;
    }
    *iface = &o->iface;
    return 0;
}

int usmarr_array_from_json(const char *json, usmarr_context_t *context, usmarr_release_fn release, void *user_data,
                           usmarr_array_t **array)
{
    usmarr_interface_t *iface;
    int rc = usmarr_interface_from_json(json, &iface);
    if (rc)
        return rc;
    rc = usmarr_interface_import(iface, context, release, user_data, array);
    usmarr_interface_free(iface);
    return rc;
}
