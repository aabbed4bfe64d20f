/* Reader and runner of the storage operations' NumPy cases (tests/storage_cases.txt,
 * written by tests/gen/gen_storage_cases.py; the format is described there). */
#include "storage_cases.h"
#include "../harness/common.h"
#include "../ops/ops_cases.h"

#include <stdio.h>
#include <stdlib.h>

#define MAX_FIELDS 1024

struct cursor {
    const char *name; /* the case, for messages */
    char *f[MAX_FIELDS];
    int n, i;
};

static void cursor_split(struct cursor *c, const char *name, char *line)
{
    c->name = name;
    c->n = ops_cases_split(line, c->f, MAX_FIELDS);
    c->i = 0;
}

static const char *next(struct cursor *c)
{
    ck_assert_msg(c->i < c->n, "%s: a line of the case file ends early", c->name);
    return c->f[c->i++];
}

static int64_t next_int(struct cursor *c) { return strtoll(next(c), NULL, 10); }

static void parse_values(struct cursor *c, usmarr_dtype_t dtype, int64_t n, unsigned char **values)
{
    size_t isz = usmarr_dtype_size(dtype);
    *values = calloc((size_t)n + 1, isz);
    for (int64_t i = 0; i < n; i++)
        ops_cases_parse_value(next(c), dtype, *values + (size_t)i * isz);
}

/* SPEC, or (expect ok) the same without DOMAIN. */
static void parse_spec(struct cursor *c, struct spec *s, bool with_domain)
{
    memset(s, 0, sizeof *s);
    const char *dt = next(c);
    int d = ops_cases_dtype(dt);
    ck_assert_msg(d >= 0, "%s: unknown dtype %s", c->name, dt);
    s->dtype = (usmarr_dtype_t)d;
    const char *axes = next(c);
    snprintf(s->axes, sizeof s->axes, "%s", strcmp(axes, "-") ? axes : "");
    s->ndim = (int)strlen(s->axes);
    s->size = 1;
    for (int k = 0; k < s->ndim; k++)
        s->size *= s->shape[k] = next_int(c);
    for (int k = 0; k < s->ndim; k++) {
        s->halo[k][0] = next_int(c);
        s->halo[k][1] = next_int(c);
    }
    for (int k = 0; k < s->ndim; k++)
        s->aligned[k] = next_int(c);
    s->alignment = next_int(c);
    snprintf(s->layout, sizeof s->layout, "%s", next(c));
    snprintf(s->kind, sizeof s->kind, "%s", next(c));
    snprintf(s->state, sizeof s->state, "%s", next(c));
    s->domain = with_domain ? (int)next_int(c) : 0;
    parse_values(c, s->dtype, s->size, &s->values);
}

/* ---- storages from specs ------------------------------------------------------------------- */

static const char *const kind_names[] = {"", "host", "device", "shared", "managed"};

static void write_side(usmarr_storage_t *st, bool host, const void *bytes)
{
    usmarr_array_t *a;
    ck_assert_ok(host ? usmarr_storage_host_array(st, true, &a) : usmarr_storage_device_array(st, true, &a));
    ck_assert_ok(usmarr_array_copy_from_host(a, bytes, NULL));
}

/* Plants the values: a managed pair gets them on the side its state names and other
 * bytes on the other side, so that reading the stale side shows in the results. */
static void plant(usmarr_storage_t *st, const struct spec *s)
{
    size_t bytes = (size_t)s->size * usmarr_dtype_size(s->dtype);
    unsigned char *poison = malloc(bytes + 1);
    memset(poison, 0x5a, bytes + 1);
    switch (usmarr_storage_kind(st)) {
    case USMARR_STORAGE_HOST: write_side(st, true, s->values); break;
    case USMARR_STORAGE_MANAGED: {
        bool on_host = !strcmp(s->state, "host"), clean = !strcmp(s->state, "clean");
        write_side(st, !on_host, clean ? s->values : poison);
        ck_assert_ok(usmarr_storage_set_synchronized(st));
        write_side(st, on_host, s->values);
        if (clean)
            ck_assert_ok(usmarr_storage_set_synchronized(st));
        break;
    }
    default: write_side(st, false, s->values); break;
    }
    free(poison);
}

usmarr_storage_t *storage_cases_make(usmarr_context_t *ctx, const struct spec *s)
{
    usmarr_storage_options_t o = USMARR_STORAGE_OPTIONS_INIT;
    o.context = ctx;
    o.dtype = (int)s->dtype;
    o.axes = s->axes;
    o.nshape = o.nhalo = o.naligned_index = s->ndim;
    memcpy(o.shape, s->shape, sizeof o.shape);
    memcpy(o.halo, s->halo, sizeof o.halo);
    memcpy(o.aligned_index, s->aligned, sizeof o.aligned_index);
    o.alignment = s->alignment;
    o.layout = s->layout;
    if (strcmp(s->kind, "host")) {
        o.device = "gpu";
        o.managed = !strcmp(s->kind, "device") ? "none" : !strcmp(s->kind, "shared") ? "cuda" : "gt4py";
    }
    usmarr_storage_t *st = NULL;
    ck_assert_ok(usmarr_storage_empty(&o, &st));
    plant(st, s);
    if (s->domain) {
        usmarr_storage_t *v = NULL;
        ck_assert_ok(usmarr_storage_domain_view(st, &v));
        usmarr_storage_release(st);
        st = v;
    }
    return st;
}

void storage_cases_read(usmarr_storage_t *st, void *buf)
{
    usmarr_array_t *a;
    if (usmarr_storage_kind(st) == USMARR_STORAGE_DEVICE)
        ck_assert_ok(usmarr_storage_device_array(st, false, &a));
    else
        ck_assert_ok(usmarr_storage_host_array(st, false, &a));
    ck_assert_ok(usmarr_array_copy_to_host(a, buf, NULL));
}

usmarr_sync_t storage_cases_sync(const usmarr_storage_t *st)
{
    usmarr_sync_t v = USMARR_SYNC_CLEAN;
    ck_assert_ok(usmarr_sync_state_get(usmarr_storage_sync_state(st), &v));
    return v;
}

/* Compares a storage with an `expect ok` line: every parameter, the sync state (before
 * reading, which pulls), then the values within `ulps`. */
static void check_expect(const char *name, usmarr_storage_t *st, struct cursor *c, double ulps)
{
    struct spec e;
    parse_spec(c, &e, false);
    ck_assert_msg(usmarr_storage_dtype(st) == e.dtype, "%s: dtype %s, NumPy %s", name,
                  usmarr_dtype_name(usmarr_storage_dtype(st)), usmarr_dtype_name(e.dtype));
    ck_assert_msg(!strcmp(usmarr_storage_axes(st), e.axes), "%s: axes \"%s\", expected \"%s\"", name,
                  usmarr_storage_axes(st), e.axes);
    ck_assert_int_eq(usmarr_storage_ndim(st), e.ndim);
    const int64_t *shape = usmarr_storage_shape(st), *aligned = usmarr_storage_aligned_index(st);
    const int64_t(*halo)[2] = usmarr_storage_halo(st);
    for (int k = 0; k < e.ndim; k++) {
        ck_assert_msg(shape[k] == e.shape[k], "%s: shape[%d]=%lld, expected %lld", name, k, (long long)shape[k],
                      (long long)e.shape[k]);
        ck_assert_msg(halo[k][0] == e.halo[k][0] && halo[k][1] == e.halo[k][1],
                      "%s: halo[%d]=(%lld, %lld), expected (%lld, %lld)", name, k, (long long)halo[k][0],
                      (long long)halo[k][1], (long long)e.halo[k][0], (long long)e.halo[k][1]);
        ck_assert_msg(aligned[k] == e.aligned[k], "%s: aligned_index[%d]=%lld, expected %lld", name, k,
                      (long long)aligned[k], (long long)e.aligned[k]);
    }
    ck_assert_msg(usmarr_storage_alignment(st) == e.alignment, "%s: alignment %lld, expected %lld", name,
                  (long long)usmarr_storage_alignment(st), (long long)e.alignment);
    ck_assert_msg(!strcmp(usmarr_storage_layout(st), e.layout), "%s: layout %s, expected %s", name,
                  usmarr_storage_layout(st), e.layout);
    ck_assert_msg(!strcmp(kind_names[usmarr_storage_kind(st)], e.kind), "%s: kind %s, expected %s", name,
                  kind_names[usmarr_storage_kind(st)], e.kind);
    if (!strcmp(e.kind, "managed")) {
        usmarr_sync_t want = !strcmp(e.state, "host") ? USMARR_SYNC_HOST_DIRTY
                             : !strcmp(e.state, "device") ? USMARR_SYNC_DEVICE_DIRTY
                                                          : USMARR_SYNC_CLEAN;
        ck_assert_msg(storage_cases_sync(st) == want, "%s: sync state %d, expected %s dirty", name, storage_cases_sync(st), e.state);
    }
    size_t isz = usmarr_dtype_size(e.dtype);
    unsigned char *got = calloc((size_t)e.size + 1, isz);
    storage_cases_read(st, got);
    for (int64_t i = 0; i < e.size; i++) {
        double gr, gi, wr, wi;
        ops_cases_load(e.dtype, got + i * (int64_t)isz, &gr, &gi);
        ops_cases_load(e.dtype, e.values + i * (int64_t)isz, &wr, &wi);
        ck_assert_msg(ops_cases_close(e.dtype, got + i * (int64_t)isz, e.values + i * (int64_t)isz, ulps),
                      "%s: element %lld is %.17g%+.17gj, NumPy %.17g%+.17gj", name, (long long)i, gr, gi, wr, wi);
    }
    free(got);
    free(e.values);
}

/* ---- running a case ----------------------------------------------------------------------- */

struct run {
    usmarr_storage_t *storages[4];
    usmarr_array_t *arrays[3];
    usmarr_storage_operand_t ops[3];
    int nops;
    usmarr_storage_t *out, *target;
};

static void add_operand(usmarr_context_t *ctx, struct run *r, struct cursor *c, const char *what)
{
    usmarr_storage_operand_t *o = &r->ops[r->nops];
    memset(o, 0, sizeof *o);
    if (!strcmp(what, "storage")) {
        struct spec s;
        parse_spec(c, &s, true);
        o->storage = r->storages[r->nops] = storage_cases_make(ctx, &s);
        free(s.values);
    } else if (!strcmp(what, "array")) {
        int d = ops_cases_dtype(next(c)), nd = (int)next_int(c);
        int64_t shape[3] = {1, 1, 1}, n = 1;
        for (int k = 0; k < nd; k++)
            n *= shape[k] = next_int(c);
        unsigned char *v;
        parse_values(c, (usmarr_dtype_t)d, n, &v);
        ck_assert_ok(usmarr_array_from_host(ctx, nd, shape, (usmarr_dtype_t)d, v, NULL, USMARR_USM_DEVICE,
                                            &r->arrays[r->nops]));
        o->array = r->arrays[r->nops];
        free(v);
    } else {
        const char *dt = next(c), *kind = next(c), *text = next(c);
        o->scalar = !strcmp(kind, "float")  ? usmarr_scalar_float(strtod(text, NULL))
                    : !strcmp(kind, "bool") ? usmarr_scalar_bool(atoi(text) != 0)
                                            : usmarr_scalar_int(strtoll(text, NULL, 10));
        if (strcmp(dt, "weak"))
            o->scalar.dtype = ops_cases_dtype(dt);
    }
    r->nops++;
}

void storage_cases_run(usmarr_context_t *ctx, struct case_entry *ce)
{
    struct run r;
    memset(&r, 0, sizeof r);
    struct cursor c;
    char kind[16] = "", fname[32] = "", arg[64] = "";
    double ulps = 0;
    usmarr_storage_t *res = NULL;
    int rc = 0;
    bool called = false;
    for (int l = 0; l < ce->nlines; l++) {
        char *line = strdup(ce->lines[l]);
        cursor_split(&c, ce->name, line);
        const char *word = next(&c);
        if (!strcmp(word, "call")) {
            snprintf(kind, sizeof kind, "%s", next(&c));
            if (strcmp(kind, "assign"))
                snprintf(fname, sizeof fname, "%s", next(&c));
            snprintf(arg, sizeof arg, "%s", next(&c));
            ulps = !strcmp(kind, "ew") ? strtod(arg, NULL) : 0;
        } else if (!strcmp(word, "out") || !strcmp(word, "target")) {
            struct spec s;
            parse_spec(&c, &s, true);
            *(!strcmp(word, "out") ? &r.out : &r.target) = storage_cases_make(ctx, &s);
            free(s.values);
        } else if (strcmp(word, "expect")) {
            add_operand(ctx, &r, &c, word);
        } else {
            if (!called) {
                if (!strcmp(kind, "ew")) {
                    rc = usmarr_storage_elementwise(fname, r.ops, r.nops, r.out, &res);
                } else if (!strcmp(kind, "reduce")) {
                    const char *axes = !strcmp(arg, "-") ? NULL : !strcmp(arg, "=") ? "" : arg;
                    rc = usmarr_storage_reduce(fname, r.ops[0].storage, axes, r.out, &res);
                } else {
                    usmarr_index_item_t items[USMARR_MAX_INDEX_ITEMS];
                    size_t nitems = 0;
                    ck_assert_ok(usmarr_index_parse(strcmp(arg, "-") ? arg : "", items, USMARR_MAX_INDEX_ITEMS, &nitems));
                    rc = usmarr_storage_assign(r.target, items, nitems, &r.ops[0]);
                }
                called = true;
            }
            const char *how = next(&c);
            if (!strcmp(how, "error")) {
                char code[64], needle[256] = "";
                snprintf(code, sizeof code, "USMARR_ERROR_%s", next(&c));
                for (int k = c.i, len = 0; k < c.n; k++)
                    len += snprintf(needle + len, sizeof needle - (size_t)len, k > c.i ? " %s" : "%s", c.f[k]);
                ck_assert_msg(rc != 0 && !strcmp(usmarr_error_name(rc), code), "%s: returned %s, expected %s (%s)",
                              ce->name, usmarr_error_name(rc), code, usmarr_last_error_detail());
                ck_assert_msg(strstr(usmarr_last_error_detail(), needle), "%s: detail \"%s\" lacks \"%s\"", ce->name,
                              usmarr_last_error_detail(), needle);
                ck_assert_ptr_null(res);
            } else {
                ck_assert_msg(rc == 0, "%s: %s: %s", ce->name, usmarr_error_name(rc), usmarr_last_error_detail());
                if (r.out)
                    ck_assert_ptr_eq(res, r.out);
                check_expect(ce->name, r.target ? r.target : r.out ? r.out : res, &c, ulps);
            }
        }
        free(line);
    }
    usmarr_storage_release(res);
    usmarr_storage_release(r.out);
    usmarr_storage_release(r.target);
    for (int i = 0; i < 3; i++) {
        usmarr_storage_release(r.storages[i]);
        usmarr_array_release(r.arrays[i]);
    }
}

