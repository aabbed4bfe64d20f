/* Named-axes broadcasting of storage operations and the parameters of their results
 * (doc/storage.md: "Named-axes broadcasting", "Output parameters", "Plain arrays").
 *
 * Storages meet by their axis letters, never by position: an "IJ" (2,3) and a "K" (4)
 * make an "IJK" (2,3,4).  Each operand then becomes a view of its own array on the
 * result's axes (permuted, extent-1 dims for the letters it lacks) and the arrays'
 * dispatcher broadcasts those extent-1 dims as NumPy does: nothing is copied. */
#include "storage_internal.h"

#include <string.h>

/* "operands[i]", for messages (up to an expression's 8 operands). */
static const char *const operand_names[] = {"operands[0]", "operands[1]", "operands[2]", "operands[3]",
                                            "operands[4]", "operands[5]", "operands[6]", "operands[7]"};

static int letter_index(char c) { return c == 'I' ? 0 : c == 'J' ? 1 : c == 'K' ? 2 : -1; }

/* Position of letter `c` in `axes`, or -1. */
static int axis_of(const char *axes, char c)
{
    const char *p = c ? strchr(axes, c) : NULL;
    return p ? (int)(p - axes) : -1;
}

/* Whether every letter of `sub` is in `axes`. */
static bool contains(const char *axes, const char *sub)
{
    for (; *sub; sub++)
        if (axis_of(axes, *sub) < 0)
            return false;
    return true;
}

static bool same_shape(int n1, const int64_t *s1, int n2, const int64_t *s2)
{
    return n1 == n2 && !memcmp(s1, s2, sizeof(int64_t) * (size_t)n1);
}

/* The result's axes without `out`: the common axes when all storages agree;
 * else those of the first storage holding every other storage's letters; else the union
 * in "IJK" order. */
static void result_axes(const usmarr_storage_operand_t *operands, int n, char *axes)
{
    const char *first = NULL;
    bool agree = true;
    char all[USMARR_STORAGE_MAX_NDIM + 1] = "";
    int nall = 0;
    for (int i = 0; i < n; i++) {
        const usmarr_storage_t *s = operands[i].storage;
        if (!s)
            continue;
        if (!first)
            first = s->axes;
        agree = agree && !strcmp(first, s->axes);
        for (const char *c = s->axes; *c; c++)
            if (axis_of(all, *c) < 0 && nall < USMARR_STORAGE_MAX_NDIM) {
                all[nall++] = *c;
                all[nall] = 0;
            }
    }
    if (agree) {
        strcpy(axes, first);
        return;
    }
    for (int i = 0; i < n; i++)
        if (operands[i].storage && contains(operands[i].storage->axes, all)) {
            strcpy(axes, operands[i].storage->axes);
            return;
        }
    int k = 0;
    for (const char *c = "IJK"; *c; c++)
        if (axis_of(all, *c) >= 0)
            axes[k++] = *c;
    axes[k] = 0;
}

/* The letters of a plain array's dims, by the two allowed cases: the result's
 * (or a storage's) shape, or 3-D with each extent 1 or the result's on its letter (the
 * result's axes when it is 3-D, else "IJK", the letters the result lacks then of
 * extent 1).  A 0-d array broadcasts like a scalar. */
static int array_letters(const char *what, int i, const usmarr_array_t *a, const usmarr_storage_operand_t *operands,
                         int n, const usmarr_storage_t *out, const struct usmarr__named_shape *res, char *letters)
{
    letters[0] = 0;
    if (a->ndim == 0)
        return 0;
    if (same_shape(a->ndim, a->shape, res->ndim, res->shape)) {
        strcpy(letters, res->axes);
        return 0;
    }
    const usmarr_storage_t *shown = out;
    for (int j = 0; j < n; j++) {
        const usmarr_storage_t *s = operands[j].storage;
        if (s && same_shape(a->ndim, a->shape, s->ndim, usmarr_storage_shape(s))) {
            strcpy(letters, s->axes);
            return 0;
        }
        if (s && !shown)
            shown = s;
    }
    if (a->ndim == 3) {
        const char *l3 = res->ndim == 3 ? res->axes : "IJK";
        bool fits = true;
        for (int d = 0; d < 3 && fits; d++) {
            int r = axis_of(res->axes, l3[d]);
            fits = a->shape[d] == 1 || (r >= 0 && a->shape[d] == res->shape[r]);
        }
        if (fits) {
            strcpy(letters, l3);
            return 0;
        }
    }
    char s1[USMARR__SHAPE_BUF], s2[USMARR__SHAPE_BUF], s3[USMARR__SHAPE_BUF];
    return usmarr__fail(USMARR_ERROR_SHAPE_MISMATCH,
                        "%s: %s is an array of shape %s, which is neither the %s shape %s nor the result's shape "
                        "%s, nor 3-D with extents 1 or the result's",
                        what, operand_names[i], usmarr__format_shape(a->ndim, a->shape, s1, sizeof s1),
                        shown == out ? "out's" : "storage's",
                        usmarr__format_shape(shown ? shown->ndim : 0, shown ? usmarr_storage_shape(shown) : NULL, s2, sizeof s2),
                        usmarr__format_shape(res->ndim, res->shape, s3, sizeof s3));
}

int usmarr__storage_broadcast(const char *what, const usmarr_storage_operand_t *operands, int n,
                              const usmarr_storage_t *out, struct usmarr__named_shape *res,
                              usmarr__letters_t *letters)
{
    /* the extent of each letter over the storages; extent 1 gives way, as in NumPy */
    int64_t extent[3] = {-1, -1, -1};
    int from[3] = {0, 0, 0};
    bool any = false;
    for (int i = 0; i < n; i++) {
        const usmarr_storage_t *s = operands[i].storage;
        letters[i][0] = 0;
        if (!s)
            continue;
        any = true;
        strcpy(letters[i], s->axes);
        for (int d = 0; d < s->ndim; d++) {
            int l = letter_index(s->axes[d]);
            int64_t m = usmarr_storage_shape(s)[d];
            if (extent[l] < 0 || extent[l] == 1) {
                extent[l] = m;
                from[l] = i;
            } else if (m != 1 && m != extent[l]) {
                return usmarr__fail(USMARR_ERROR_SHAPE_MISMATCH,
                                    "%s: axis %c has extent %lld in %s and %lld in %s (named axes broadcast "
                                    "by letter)",
                                    what, s->axes[d], (long long)extent[l], operand_names[from[l]], (long long)m,
                                    operand_names[i]);
            }
        }
    }

    if (out) {
        res->ndim = out->ndim;
        strcpy(res->axes, out->axes);
        memcpy(res->shape, usmarr_storage_shape(out), sizeof(int64_t) * (size_t)out->ndim);
        for (int i = 0; i < n; i++) {
            const usmarr_storage_t *s = operands[i].storage;
            for (int d = 0; s && d < s->ndim; d++) {
                int r = axis_of(out->axes, s->axes[d]);
                if (usmarr_storage_shape(s)[d] == 1 || (r >= 0 && usmarr_storage_shape(s)[d] == usmarr_storage_shape(out)[r]))
                    continue;
                if (r < 0)
                    return usmarr__fail(USMARR_ERROR_SHAPE_MISMATCH,
                                        "%s: %s has axis %c of extent %lld, which out (axes \"%s\") lacks", what,
                                        operand_names[i], s->axes[d], (long long)usmarr_storage_shape(s)[d], out->axes);
                return usmarr__fail(USMARR_ERROR_SHAPE_MISMATCH,
                                    "%s: axis %c has extent %lld in %s and %lld in out", what, s->axes[d],
                                    (long long)usmarr_storage_shape(s)[d], operand_names[i], (long long)usmarr_storage_shape(out)[r]);
            }
        }
    } else {
        if (!any)
            return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s: no operand is a storage and there is no out",
                                what);
        result_axes(operands, n, res->axes);
        res->ndim = (int)strlen(res->axes);
        for (int r = 0; r < res->ndim; r++)
            res->shape[r] = extent[letter_index(res->axes[r])];
    }

    for (int i = 0; i < n; i++) {
        const usmarr_array_t *a = operands[i].storage ? NULL : operands[i].array;
        int rc = a ? array_letters(what, i, a, operands, n, out, res, letters[i]) : 0;
        if (rc)
            return rc;
    }
    return 0;
}

int usmarr__storage_view_on(const usmarr_array_t *a, const char *letters, const struct usmarr__named_shape *res,
                            usmarr_array_t **view)
{
    if (a->ndim == 0 || !strcmp(letters, res->axes)) {
        *view = usmarr_array_retain((usmarr_array_t *)a);
        return 0;
    }
    usmarr_array_t *cur = usmarr_array_retain((usmarr_array_t *)a), *next = NULL;
    char have[USMARR_STORAGE_MAX_NDIM + 1];
    int rc = 0, count = 0, axes[USMARR_STORAGE_MAX_NDIM];

    /* letters the result lacks (extent 1, checked by the broadcast) go */
    int k = 0;
    for (int d = 0; letters[d]; d++) {
        if (axis_of(res->axes, letters[d]) < 0)
            axes[count++] = d;
        else
            have[k++] = letters[d];
    }
    have[k] = 0;
    if (count) {
        if ((rc = usmarr_array_squeeze(cur, count, axes, &next)))
            goto done;
        usmarr_array_release(cur);
        cur = next;
    }

    /* the rest in the result's order */
    int perm[USMARR_STORAGE_MAX_NDIM], np = 0;
    bool moved = false;
    for (int r = 0; r < res->ndim; r++) {
        int d = axis_of(have, res->axes[r]);
        if (d >= 0) {
            moved = moved || d != np;
            perm[np++] = d;
        }
    }
    if (moved) {
        if ((rc = usmarr_array_permute_dims(cur, perm, &next)))
            goto done;
        usmarr_array_release(cur);
        cur = next;
    }

    /* extent-1 dims where the result has letters this operand lacks */
    count = 0;
    for (int r = 0; r < res->ndim; r++)
        if (axis_of(have, res->axes[r]) < 0)
            axes[count++] = r;
    if (count && cur->ndim > 0) {
        if ((rc = usmarr_array_expand_dims(cur, count, axes, &next)))
            goto done;
        usmarr_array_release(cur);
        cur = next;
    }
    *view = cur;
    cur = NULL;
done:
    usmarr_array_release(cur);
    return rc;
}

/* Least common multiple, or -1 on overflow. */
static int64_t lcm(int64_t a, int64_t b)
{
    int64_t r;
    return usmarr__mul_overflow(a / usmarr__gcd(a, b), b, &r) ? -1 : r;
}

int64_t usmarr__storage_fit_alignment(int64_t alignment, usmarr_dtype_t dtype)
{
    int64_t size = (int64_t)usmarr_dtype_size(dtype);
    if (alignment % size == 0 || size % alignment == 0)
        return alignment;
    return lcm(alignment, size);
}

int usmarr__storage_output_params(const usmarr_storage_operand_t *operands, int n,
                                  const struct usmarr__named_shape *res, usmarr_dtype_t dtype,
                                  struct usmarr__storage_params *p)
{
    memset(p, 0, sizeof *p);
    const usmarr_storage_t *first = NULL;
    int64_t alignment = 1;
    for (int i = 0; i < n; i++) {
        const usmarr_storage_t *s = operands[i].storage;
        if (!s)
            continue;
        if (!first)
            first = s;
        alignment = lcm(alignment, s->alignment);
        if (alignment < 0)
            return usmarr__fail(USMARR_ERROR_OVERFLOW,
                                "the least common multiple of the operands' alignments overflows at operands[%d] "
                                "(alignment %lld)",
                                i, (long long)s->alignment);
    }
    p->context = usmarr_storage_context(first);
    p->dtype = dtype;
    p->ndim = res->ndim;
    strcpy(p->axes, res->axes);
    memcpy(p->shape, res->shape, sizeof(int64_t) * (size_t)res->ndim);
    p->alignment = usmarr__storage_fit_alignment(alignment, dtype);
    if (p->alignment < 0)
        return usmarr__fail(USMARR_ERROR_OVERFLOW, "the alignment %lld fitted to the %s itemsize overflows",
                            (long long)alignment, usmarr_dtype_name(dtype));
    memcpy(p->layout, first->layout, sizeof p->layout);
    p->kind = first->kind;

    for (int r = 0; r < res->ndim; r++) {
        int64_t m = res->shape[r], lo = 0, hi = m, aligned = 0;
        for (int i = 0; i < n; i++) {
            const usmarr_storage_t *s = operands[i].storage;
            int d = s ? axis_of(s->axes, res->axes[r]) : -1;
            if (d < 0)
                continue;
            aligned = s->aligned_index[d] > aligned ? s->aligned_index[d] : aligned;
            if (usmarr_storage_shape(s)[d] != m)
                continue; /* broadcast from extent 1: its domain spans the whole axis */
            lo = s->halo[d][0] > lo ? s->halo[d][0] : lo;
            hi = m - s->halo[d][1] < hi ? m - s->halo[d][1] : hi;
        }
        if (hi < lo) /* disjoint domains: an empty domain at the largest lower halo */
            hi = lo;
        p->halo[r][0] = lo;
        p->halo[r][1] = m - hi;
        p->aligned_index[r] = aligned > m ? m : aligned; /* an input broadcast from 1 may hold 1 */
    }
    return 0;
}
