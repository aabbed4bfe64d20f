/* Storage parameters: checking strides against a layout, and resolving the creation
 * options in the search order (explicit, preset, buffer or prototype, fallback). */
#include "storage_internal.h"

#include <stdlib.h>
#include <string.h>

/* The layout a preset's rule gives for `axes`: a permutation of "IJK" is itself; "C" is
 * the axes in index order followed by the missing letters in "IJK" order (first index
 * largest stride); "F" is the reverse of the "C" layout. */
static void storage_layout_from_rule(const char *rule, const char *axes, char layout[4]);



static void storage_layout_from_rule(const char *rule, const char *axes, char layout[4])
{
    if (strcmp(rule, "C") && strcmp(rule, "F")) {
        memcpy(layout, rule, 4);
        return;
    }
    char c[4];
    size_t n = strlen(axes);
    memcpy(c, axes, n);
    for (const char *l = "IJK"; *l; l++)
        if (!memchr(axes, *l, n))
            c[n++] = *l;
    for (int k = 0; k < 3; k++)
        layout[k] = rule[0] == 'C' ? c[k] : c[2 - k];
    layout[3] = 0;
}

void usmarr__storage_layout_from_strides(const char *axes, const int64_t *strides, char layout[4])
{
    int n = (int)strlen(axes), order[USMARR_STORAGE_MAX_NDIM];
    for (int k = 0; k < n; k++)
        order[k] = k;
    for (int i = 1; i < n; i++) /* stable insertion sort by decreasing |stride| */
        for (int j = i; j > 0 && llabs(strides[order[j]]) > llabs(strides[order[j - 1]]); j--) {
            int t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
    char sorted[4];
    for (int k = 0; k < n; k++)
        sorted[k] = axes[order[k]];
    sorted[n] = 0;
    storage_layout_from_rule("C", sorted, layout);
}

int usmarr__storage_check_strides(const char *axes, const char *layout, const int64_t *shape, const int64_t *strides,
                                  const char *what)
{
    int order[USMARR_STORAGE_MAX_NDIM], m = 0;
    for (int l = 0; l < 3; l++) {
        const char *p = strchr(axes, layout[l]);
        if (!p)
            continue;
        int k = (int)(p - axes);
        if (shape[k] == 0)
            return 0; /* nothing to address */
        if (shape[k] > 1)
            order[m++] = k;
    }
    int64_t reach = 0; /* what the smaller axes reach; fits: the span was checked by the caller */
    for (int i = m - 1; i >= 0; i--) {
        int k = order[i];
        int64_t s = llabs(strides[k]);
        if (s <= reach) {
            if (i < m - 1 && s < llabs(strides[order[i + 1]]))
                return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT,
                                    "%s[%d]=%lld (axis %c) is smaller than %s[%d]=%lld (axis %c), contrary to "
                                    "layout=\"%s\" (largest stride first)",
                                    what, k, (long long)strides[k], axes[k], what, order[i + 1],
                                    (long long)strides[order[i + 1]], axes[order[i + 1]], layout);
            return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT,
                                "%s[%d]=%lld (axis %c) makes elements alias: with layout=\"%s\" it must exceed %lld, "
                                "the reach of the smaller strides",
                                what, k, (long long)strides[k], axes[k], layout, (long long)reach);
        }
        reach += s * (shape[k] - 1);
    }
    return 0;
}



/* Picks the ndim values of a per-axis option given with `given` entries: ndim entries
 * in axes order, or (for fewer than 3 axes) 3 entries in "IJK" order. */
static int per_axis(const char *what, int given, const int64_t *values, const char *axes, int ndim, int64_t *out)
{
    if (given == ndim) {
        for (int k = 0; k < ndim; k++)
            out[k] = values[k];
        return 0;
    }
    if (given == 3) {
        for (int k = 0; k < ndim; k++)
            out[k] = values[usmarr__storage_letter(axes[k])];
        return 0;
    }
    return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "options.n%s=%d: give %d entries (one per axis of \"%s\") or 3",
                        what, given, ndim, axes);
}

static int resolve_kind(const usmarr_storage_options_t *o, const usmarr_storage_preset_t *preset,
                        const struct usmarr__storage_source *src, usmarr_storage_kind_t *kind)
{
    int device, managed, pd = 0, pm = 0;
    int rc = usmarr__storage_parse_device(o->device, "options.device", &device);
    if (!rc)
        rc = usmarr__storage_parse_managed(o->managed, "options.managed", &managed);
    if (!rc && preset)
        rc = usmarr__storage_parse_device(preset->device, "preset device", &pd);
    if (!rc && preset)
        rc = usmarr__storage_parse_managed(preset->managed, "preset managed", &pm);
    if (rc)
        return rc;
    if (!device)
        device = pd ? pd : src ? src->device : 0;
    if (!managed)
        managed = pm ? pm : src && src->managed ? src->managed : USMARR__MANAGED_GT4PY;
    /* `managed` only has effect with a device buffer. */
    *kind = !device                            ? USMARR_STORAGE_HOST
            : managed == USMARR__MANAGED_NONE ? USMARR_STORAGE_DEVICE
            : managed == USMARR__MANAGED_CUDA ? USMARR_STORAGE_SHARED
                                              : USMARR_STORAGE_MANAGED;
    return 0;
}

/* The USM kinds a storage kind needs, as usmarr__usm_kind_offered() words the refusal
 * (the capability query and its value), prefixed with the option that asked for it. */
static int check_kind_supported(usmarr_context_t *ctx, usmarr_storage_kind_t kind)
{
    bool host = kind == USMARR_STORAGE_HOST || kind == USMARR_STORAGE_MANAGED;
    usmarr_usm_kind_t need = host ? USMARR_USM_HOST : kind == USMARR_STORAGE_SHARED ? USMARR_USM_SHARED : USMARR_USM_DEVICE;
    if (usmarr__usm_kind_offered(ctx, need) == 0)
        return 0;
    char detail[512];
    snprintf(detail, sizeof detail, "%s", usmarr_last_error_detail());
    return usmarr__fail(USMARR_ERROR_UNSUPPORTED, "%s: a %s storage needs %s USM; %s",
                        host ? "options.device/managed" : "options.managed=\"cuda\"",
                        kind == USMARR_STORAGE_HOST ? "host" : kind == USMARR_STORAGE_MANAGED ? "managed" : "shared",
                        usmarr_usm_kind_name(need), detail);
}

int usmarr__storage_resolve(const usmarr_storage_options_t *o, const struct usmarr__storage_source *src,
                            struct usmarr__storage_params *p)
{
    memset(p, 0, sizeof *p);
    usmarr_storage_preset_t preset, *pre = NULL;
    int rc;
    if (o->defaults) {
        if ((rc = usmarr__storage_preset_get(o->defaults, &preset, "options.defaults")))
            return rc;
        pre = &preset;
    }
    p->context = o->context ? o->context : src ? src->context : NULL;
    if (!p->context)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "options.context is NULL and no buffer or prototype "
                                                           "gives one");
    /* dtype */
    if (o->dtype >= 0)
        p->dtype = (usmarr_dtype_t)o->dtype;
    else if (o->dtype != -1)
        return usmarr__fail(USMARR_ERROR_BAD_DTYPE, "options.dtype=%d is not -1 (unset) or a usmarr_dtype_t",
                            o->dtype);
    else
        p->dtype = src && src->dtype >= 0 ? (usmarr_dtype_t)src->dtype : USMARR_FLOAT64;
    if ((rc = usmarr__check_dtype_supported(p->context, p->dtype, "options.dtype")))
        return rc;
    /* axes */
    const char *axes = o->axes ? o->axes : src && src->axes ? src->axes : "IJK";
    if ((rc = usmarr__storage_check_axes(axes, o->axes ? "options.axes" : "axes")))
        return rc;
    strcpy(p->axes, axes);
    int nd = p->ndim = (int)strlen(axes);
    if (!o->axes && src && src->ndim >= 0 && src->ndim != nd)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT,
                            "options.axes is unset and its fallback \"%s\" has %d axes, but the buffer has %d "
                            "dimensions",
                            axes, nd, src->ndim);
    /* shape */
    if (o->nshape) {
        if ((rc = per_axis("shape", o->nshape, o->shape, axes, nd, p->shape)))
            return rc;
    } else if (src && src->shape && src->ndim == nd) {
        memcpy(p->shape, src->shape, (size_t)nd * sizeof *p->shape);
    } else if (nd > 0) {
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "options.nshape=0: shape is required (no buffer gives it)");
    }
    for (int k = 0; k < nd; k++)
        if (p->shape[k] < 0)
            return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "options.shape[%d]=%lld is negative", k,
                                (long long)p->shape[k]);
    /* halo */
    if (o->nhalo) {
        if (o->nhalo != nd)
            return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT,
                                "options.nhalo=%d: give one (lower, upper) pair per axis of \"%s\" (%d)", o->nhalo,
                                axes, nd);
        memcpy(p->halo, o->halo, (size_t)nd * sizeof *p->halo);
    } else if (src && src->halo) {
        memcpy(p->halo, src->halo, (size_t)nd * sizeof *p->halo);
    }
    for (int k = 0; k < nd; k++) {
        const int64_t *h = p->halo[k];
        if (h[0] < 0 || h[1] < 0)
            return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "options.halo[%d]=(%lld, %lld) is negative", k,
                                (long long)h[0], (long long)h[1]);
        if (h[0] > p->shape[k] || h[1] > p->shape[k] - h[0])
            return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT,
                                "options.halo[%d]=(%lld, %lld) is larger than shape[%d]=%lld (axis %c)", k,
                                (long long)h[0], (long long)h[1], k, (long long)p->shape[k], axes[k]);
    }
    /* aligned index: explicit, the source's, else the halo's lower corner */
    if (o->naligned_index) {
        if ((rc = per_axis("aligned_index", o->naligned_index, o->aligned_index, axes, nd, p->aligned_index)))
            return rc;
    } else {
        for (int k = 0; k < nd; k++)
            p->aligned_index[k] = src && src->aligned_index ? src->aligned_index[k] : p->halo[k][0];
    }
    for (int k = 0; k < nd; k++)
        if (p->aligned_index[k] < 0 || p->aligned_index[k] > p->shape[k])
            return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT,
                                "options.aligned_index[%d]=%lld is outside [0, %lld] (shape[%d], axis %c)", k,
                                (long long)p->aligned_index[k], (long long)p->shape[k], k, axes[k]);
    /* alignment, in bytes: it and the itemsize must divide one another */
    if (o->alignment < 0)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "options.alignment=%lld is negative (0 = unset)",
                            (long long)o->alignment);
    p->alignment = o->alignment ? o->alignment : pre ? pre->alignment : src && src->alignment ? src->alignment : 1;
    int64_t item = (int64_t)usmarr_dtype_size(p->dtype);
    if (p->alignment % item && item % p->alignment)
        return usmarr__fail(USMARR_ERROR_UNSUPPORTED,
                            "%salignment=%lld bytes and the itemsize %lld of %s do not divide one another",
                            o->alignment ? "options." : pre ? "the preset's " : "", (long long)p->alignment,
                            (long long)item, usmarr_dtype_name(p->dtype));
    /* layout */
    if (o->layout) {
        if ((rc = usmarr__storage_check_layout(o->layout, "options.layout")))
            return rc;
        strcpy(p->layout, o->layout);
    } else if (pre) {
        storage_layout_from_rule(pre->layout, axes, p->layout);
    } else if (src && src->layout) {
        strcpy(p->layout, src->layout);
    } else {
        strcpy(p->layout, "IJK");
    }
    if ((rc = resolve_kind(o, pre, src, &p->kind)))
        return rc;
    return check_kind_supported(p->context, p->kind);
}
