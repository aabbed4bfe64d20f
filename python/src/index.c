/* a[key] and a[key] = value with NumPy's indexing.
 *
 * Basic keys (integers, slices, None, ...) are one usmarr_array_index() call: a view.
 * Advanced keys reduce to the library's gathers and scatters: a boolean mask over the whole
 * array is extract()/place(); other masks become integer arrays through nonzero(); one
 * integer array is take()/put() along its axis of the basic view; several are checked and
 * normalised by a take() from an arange, combined into one flat index with elementwise
 * multiply/add, and used on the view whose indexed axes are moved together and merged. */
#include "module.h"

#include <string.h>

enum item_kind { ITEM_BASIC, ITEM_ARRAY, ITEM_MASK };

struct key_item {
    enum item_kind kind;
    usmarr_index_item_t basic; /* ITEM_BASIC */
    usmarr_array_t *array;     /* ITEM_ARRAY (integers) or ITEM_MASK (bool), owned */
};

struct key {
    int count;
    int advanced; /* arrays or masks present */
    struct key_item items[USMARR_MAX_INDEX_ITEMS];
};

static void key_clear(struct key *k)
{
    for (int i = 0; i < k->count; i++)
        usmarr_array_release(k->items[i].array);
    k->count = 0;
}

static int parse_item(PyObject *obj, const usmarr_array_t *like, struct key_item *item, int *advanced)
{
    memset(item, 0, sizeof *item);
    if (obj == Py_None) {
        item->basic = usmarr_index_newaxis();
        return 0;
    }
    if (obj == Py_Ellipsis) {
        item->basic = usmarr_index_ellipsis();
        return 0;
    }
    if (PySlice_Check(obj)) {
        Py_ssize_t start, stop, step;
        if (PySlice_Unpack(obj, &start, &stop, &step) < 0)
            return -1;
        int64_t s = start, e = stop, st = step;
        PyObject *a = PyObject_GetAttrString(obj, "start"), *b = PyObject_GetAttrString(obj, "stop");
        int has_start = a && a != Py_None, has_stop = b && b != Py_None;
        Py_XDECREF(a);
        Py_XDECREF(b);
        item->basic = usmarr_index_slice(has_start ? &s : NULL, has_stop ? &e : NULL, &st);
        return 0;
    }
    int is_array = array_check(obj);
    if (!PyBool_Check(obj) && (PyLong_Check(obj) || (is_array && usmarr_array_ndim(array_of(obj)) == 0 &&
                                                      usmarr_dtype_kind(usmarr_array_dtype(array_of(obj))) >= USMARR_KIND_INT &&
                                                      usmarr_dtype_kind(usmarr_array_dtype(array_of(obj))) <= USMARR_KIND_UINT) ||
                               (!is_array && !PySequence_Check(obj) && PyIndex_Check(obj)))) {
        PyObject *index = PyNumber_Index(obj);
        if (!index)
            return -1;
        long long v = PyLong_AsLongLong(index);
        Py_DECREF(index);
        if (v == -1 && PyErr_Occurred())
            return -1;
        item->basic = usmarr_index_integer(v);
        return 0;
    }
    if (!is_array && !PyBool_Check(obj) && !PyList_Check(obj) && !PyTuple_Check(obj) && !PyObject_CheckBuffer(obj) &&
        !PyObject_HasAttrString(obj, "__array_interface__") &&
        !PyObject_HasAttrString(obj, "__sycl_usm_array_interface__")) {
        PyErr_Format(PyExc_IndexError, "usmarr: only integers, slices (`:`), ellipsis (`...`), None and integer "
                                       "or boolean arrays are valid indices, not %R",
                     obj);
        return -1;
    }
    item->array = convert_operand(obj, like);
    if (!item->array)
        return -1;
    usmarr_kind_t kind = usmarr_dtype_kind(usmarr_array_dtype(item->array));
    if (kind == USMARR_KIND_BOOL) {
        item->kind = ITEM_MASK;
    } else if (kind == USMARR_KIND_INT || kind == USMARR_KIND_UINT) {
        item->kind = ITEM_ARRAY;
    } else {
        PyErr_Format(PyExc_IndexError, "usmarr: arrays used as indices must be of integer or boolean type, not %s",
                     usmarr_dtype_name(usmarr_array_dtype(item->array)));
        return -1;
    }
    *advanced = 1;
    return 0;
}

static int parse_key(PyObject *key, const usmarr_array_t *like, struct key *k)
{
    k->count = 0;
    k->advanced = 0;
    if (!PyTuple_Check(key))
        return parse_item(key, like, &k->items[k->count++], &k->advanced);
    Py_ssize_t n = PyTuple_Size(key);
    if (n > USMARR_MAX_INDEX_ITEMS) {
        PyErr_Format(PyExc_IndexError, "usmarr: %zd index items, at most %d", n, USMARR_MAX_INDEX_ITEMS);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        if (parse_item(PyTuple_GetItem(key, i), like, &k->items[k->count++], &k->advanced) < 0) {
            key_clear(k);
            return -1;
        }
    }
    return 0;
}

/* ---- advanced keys ------------------------------------------------------------------------------ */
/* Masks become nonzero()'s integer arrays (a 0-d mask: a new axis, emptied when false). */
static int expand_masks(struct key *k, int *empty_axis_item)
{
    *empty_axis_item = -1;
    for (int i = 0; i < k->count; i++) {
        struct key_item *it = &k->items[i];
        if (it->kind != ITEM_MASK)
            continue;
        int nd = usmarr_array_ndim(it->array);
        if (nd == 0) {
            PyObject *truth = array_item(it->array);
            if (!truth)
                return -1;
            if (truth == Py_False)
                *empty_axis_item = i;
            Py_DECREF(truth);
            usmarr_array_release(it->array);
            it->array = NULL;
            it->kind = ITEM_BASIC;
            it->basic = usmarr_index_newaxis();
            continue;
        }
        if (k->count - 1 + nd > USMARR_MAX_INDEX_ITEMS) {
            PyErr_SetString(PyExc_IndexError, "usmarr: too many index items after expanding a mask");
            return -1;
        }
        usmarr_array_t *indices[USMARR_MAX_NDIM];
        int rc = usmarr_nonzero(it->array, indices);
        if (rc)
            return py_fail(rc);
        usmarr_array_release(it->array);
        memmove(&k->items[i + nd], &k->items[i + 1], (size_t)(k->count - i - 1) * sizeof *it);
        for (int j = 0; j < nd; j++)
            k->items[i + j] = (struct key_item){.kind = ITEM_ARRAY, .array = indices[j]};
        k->count += nd - 1;
        i += nd - 1;
    }
    return 0;
}

/* The gather/scatter plan of an advanced key. */
struct plan {
    usmarr_array_t *view;    /* the basic view, advanced positions kept as full axes */
    usmarr_array_t *merged;  /* view with the advanced axes moved together and merged (maybe a copy) */
    usmarr_array_t *moved;   /* view with the advanced axes moved together (a view of the array) */
    usmarr_array_t *index;   /* the flat index into the merged axis */
    int axis;                /* where the merged axis (and the result's index dims) sit */
};

static void plan_clear(struct plan *p)
{
    usmarr_array_release(p->view);
    usmarr_array_release(p->merged);
    usmarr_array_release(p->moved);
    usmarr_array_release(p->index);
    memset(p, 0, sizeof *p);
}

static int make_plan(usmarr_array_t *array, struct key *k, struct plan *p)
{
    memset(p, 0, sizeof *p);
    int empty_item, rc;
    if (expand_masks(k, &empty_item) < 0)
        return -1;
    /* Basic view with every integer and array item as a full slice; note their axes. */
    usmarr_index_item_t items[USMARR_MAX_INDEX_ITEMS];
    int positions[USMARR_MAX_INDEX_ITEMS], nadv = 0, has_array = 0;
    usmarr_array_t *adv[USMARR_MAX_INDEX_ITEMS];
    int64_t ints[USMARR_MAX_INDEX_ITEMS];
    int is_int[USMARR_MAX_INDEX_ITEMS];
    for (int i = 0; i < k->count; i++)
        has_array |= k->items[i].kind == ITEM_ARRAY;
    int consumed = 0;
    for (int i = 0; i < k->count; i++) {
        const struct key_item *it = &k->items[i];
        if (it->kind == ITEM_BASIC && it->basic.kind == USMARR_INDEX_ELLIPSIS)
            continue;
        if (!(it->kind == ITEM_BASIC && it->basic.kind == USMARR_INDEX_NEWAXIS))
            consumed++;
    }
    int ndim = usmarr_array_ndim(array);
    if (consumed > ndim) {
        PyErr_Format(PyExc_IndexError, "usmarr: too many indices: %d for an array of %d dimensions", consumed, ndim);
        return -1;
    }
    int out_axis = 0, empty_axis = -1;
    for (int i = 0; i < k->count; i++) {
        const struct key_item *it = &k->items[i];
        int advanced = it->kind == ITEM_ARRAY || (has_array && it->basic.kind == USMARR_INDEX_INTEGER);
        if (advanced) {
            positions[nadv] = out_axis;
            adv[nadv] = it->array;
            is_int[nadv] = it->kind != ITEM_ARRAY;
            ints[nadv] = it->basic.index;
            nadv++;
            items[i] = usmarr_index_slice(NULL, NULL, NULL);
            out_axis++;
            continue;
        }
        items[i] = it->basic;
        if (i == empty_item)
            empty_axis = out_axis;
        if (it->basic.kind == USMARR_INDEX_ELLIPSIS)
            out_axis += ndim - consumed;
        else if (it->basic.kind != USMARR_INDEX_INTEGER)
            out_axis++;
    }
    rc = usmarr_array_index(array, items, (size_t)k->count, &p->view);
    if (rc)
        return py_fail(rc);
    if (empty_axis >= 0) { /* a false 0-d mask: its new axis has no elements */
        usmarr_index_item_t sel[USMARR_MAX_NDIM + 1];
        int64_t zero = 0;
        for (int i = 0; i < empty_axis; i++)
            sel[i] = usmarr_index_slice(NULL, NULL, NULL);
        sel[empty_axis] = usmarr_index_slice(&zero, &zero, NULL);
        usmarr_array_t *emptied;
        rc = usmarr_array_index(p->view, sel, (size_t)empty_axis + 1, &emptied);
        if (rc)
            return py_fail(rc);
        usmarr_array_release(p->view);
        p->view = emptied;
    }
    if (nadv == 0) {
        p->axis = -1;
        return 0;
    }
    usmarr_context_t *context = usmarr_array_context(array);
    const int64_t *vshape = usmarr_array_shape(p->view);
    /* Integers among arrays: 0-d int64 arrays. */
    usmarr_array_t *owned[USMARR_MAX_INDEX_ITEMS] = {0};
    for (int j = 0; j < nadv && !rc; j++)
        if (is_int[j]) {
            rc = usmarr_array_full(context, 0, NULL, usmarr_scalar_int(ints[j]), USMARR_INT64, USMARR_ORDER_C,
                                   USMARR_USM_UNKNOWN, &owned[j]);
            adv[j] = owned[j];
        }
    usmarr_array_t *b[USMARR_MAX_INDEX_ITEMS] = {0};
    if (!rc)
        rc = usmarr_broadcast_arrays(nadv, (const usmarr_array_t *const *)adv, b);
    for (int j = 0; j < nadv; j++)
        usmarr_array_release(owned[j]);
    if (rc)
        return py_fail(rc);
    if (nadv == 1) {
        p->index = b[0];
        p->axis = positions[0];
        p->moved = usmarr_array_retain(p->view);
        p->merged = usmarr_array_retain(p->view);
        return 0;
    }
    /* Each index checked and made non-negative by a take from arange(n), then combined
     * into one C-order flat index over the indexed axes. */
    usmarr_array_t *flat = NULL;
    int64_t stride = 1;
    for (int j = nadv - 1; j >= 0 && !rc; j--) {
        int64_t n = vshape[positions[j]];
        usmarr_array_t *range = NULL, *normal = NULL, *scaled = NULL, *sum = NULL;
        rc = usmarr_array_arange(context, 0, (double)n, 1, USMARR_INT64, USMARR_USM_UNKNOWN, &range);
        if (!rc)
            rc = usmarr_take(range, b[j], 0, USMARR_INDEX_MODE_RAISE, NULL, &normal);
        if (!rc && usmarr_array_size(b[j]) > 0 && n == 0)
            rc = usmarr_error_set(USMARR_ERROR_INDEX, "index into axis %d of size 0", positions[j]);
        usmarr_operand_t ops[2] = {{.array = normal}, {.array = NULL, .scalar = usmarr_scalar_int(stride)}};
        if (!rc)
            rc = usmarr_elementwise("multiply", ops, 2, NULL, &scaled);
        if (!rc && flat) {
            usmarr_operand_t add[2] = {{.array = flat}, {.array = scaled}};
            rc = usmarr_elementwise("add", add, 2, NULL, &sum);
            usmarr_array_release(flat);
            flat = sum;
        } else if (!rc) {
            flat = usmarr_array_retain(scaled);
        }
        usmarr_array_release(range);
        usmarr_array_release(normal);
        usmarr_array_release(scaled);
        stride *= n;
    }
    for (int j = 0; j < nadv; j++)
        usmarr_array_release(b[j]);
    if (rc) {
        usmarr_array_release(flat);
        return py_fail(rc);
    }
    p->index = flat;
    /* Move the indexed axes together: in place when adjacent, else to the front (NumPy). */
    int adjacent = 1;
    for (int j = 1; j < nadv; j++)
        adjacent &= positions[j] == positions[j - 1] + 1;
    int vnd = usmarr_array_ndim(p->view), perm[USMARR_MAX_NDIM], np = 0;
    p->axis = adjacent ? positions[0] : 0;
    for (int a = 0; a < p->axis; a++)
        perm[np++] = a;
    for (int j = 0; j < nadv; j++)
        perm[np++] = positions[j];
    for (int a = adjacent ? p->axis : 0; a < vnd; a++) {
        int taken = 0;
        for (int j = 0; j < nadv; j++)
            taken |= positions[j] == a;
        if (!taken)
            perm[np++] = a;
    }
    rc = usmarr_array_permute_dims(p->view, perm, &p->moved);
    if (rc)
        return py_fail(rc);
    int64_t mshape[USMARR_MAX_NDIM];
    const int64_t *oshape = usmarr_array_shape(p->moved);
    int mnd = 0;
    for (int a = 0; a < vnd; a++) {
        if (a > p->axis && a < p->axis + nadv)
            mshape[mnd - 1] *= oshape[a];
        else
            mshape[mnd++] = oshape[a];
    }
    rc = usmarr_array_reshape(p->moved, mnd, mshape, USMARR_ORDER_C, USMARR_COPY_IF_NEEDED, &p->merged);
    return rc ? py_fail(rc) : 0;
}

/* ---- the mapping protocol -------------------------------------------------------------------------- */
static int key_basic_items(const struct key *k, usmarr_index_item_t *items)
{
    for (int i = 0; i < k->count; i++)
        items[i] = k->items[i].basic;
    return k->count;
}

/* A mask of the array's whole shape: the one-call extract()/place() path. */
static int whole_mask(usmarr_array_t *array, const struct key *k)
{
    if (k->count != 1 || k->items[0].kind != ITEM_MASK)
        return 0;
    usmarr_array_t *m = k->items[0].array;
    int nd = usmarr_array_ndim(m);
    return nd > 0 && nd == usmarr_array_ndim(array) &&
           memcmp(usmarr_array_shape(m), usmarr_array_shape(array), (size_t)nd * sizeof(int64_t)) == 0;
}

PyObject *array_getitem(PyObject *self, PyObject *key)
{
    usmarr_array_t *array = array_of(self), *result = NULL;
    struct key k;
    int rc;
    if (parse_key(key, array, &k) < 0)
        return NULL;
    if (!k.advanced) {
        usmarr_index_item_t items[USMARR_MAX_INDEX_ITEMS];
        int n = key_basic_items(&k, items);
        rc = usmarr_array_index(array, items, (size_t)n, &result);
        return array_wrap_result(rc, result);
    }
    if (whole_mask(array, &k)) {
        rc = usmarr_extract(k.items[0].array, array, &result);
        key_clear(&k);
        return array_wrap_result(rc, result);
    }
    struct plan p;
    rc = make_plan(array, &k, &p);
    key_clear(&k);
    if (rc == 0) {
        if (p.axis < 0)
            result = usmarr_array_retain(p.view);
        else if ((rc = usmarr_take(p.merged, p.index, p.axis, USMARR_INDEX_MODE_RAISE, NULL, &result)) != 0)
            py_error(rc);
    }
    plan_clear(&p);
    return rc ? NULL : array_wrap(result);
}

/* The value as an array of the destination's dtype on its device. */
static usmarr_array_t *value_array(usmarr_array_t *dest, PyObject *value)
{
    usmarr_scalar_t s;
    int k = scalar_from_object(value, &s);
    if (k < 0)
        return NULL;
    if (k == 0)
        return convert_operand(value, dest);
    usmarr_array_t *r;
    int rc = usmarr_array_full(usmarr_array_context(dest), 0, NULL, s, usmarr_array_dtype(dest), USMARR_ORDER_C,
                               USMARR_USM_UNKNOWN, &r);
    return rc ? (usmarr_array_t *)py_error(rc) : r;
}

static int assign(usmarr_array_t *view, PyObject *value)
{
    usmarr_scalar_t s;
    int k = scalar_from_object(value, &s), rc;
    if (k < 0)
        return -1;
    if (k == 1) {
        rc = usmarr_array_fill(view, s);
        return rc ? py_fail(rc) : 0;
    }
    usmarr_array_t *v = convert_operand(value, view);
    if (!v)
        return -1;
    rc = usmarr_array_copy_into(view, v);
    usmarr_array_release(v);
    return rc ? py_fail(rc) : 0;
}

int array_setitem(PyObject *self, PyObject *key, PyObject *value)
{
    usmarr_array_t *array = array_of(self), *view = NULL;
    struct key k;
    int rc;
    if (!value) {
        PyErr_SetString(PyExc_TypeError, "usmarr: array elements cannot be deleted");
        return -1;
    }
    if (!(usmarr_array_flags(array) & USMARR_FLAG_WRITABLE))
        return py_fail(usmarr_error_set(USMARR_ERROR_READ_ONLY, "assignment destination is read-only"));
    if (parse_key(key, array, &k) < 0)
        return -1;
    if (!k.advanced) {
        usmarr_index_item_t items[USMARR_MAX_INDEX_ITEMS];
        int n = key_basic_items(&k, items);
        rc = usmarr_array_index(array, items, (size_t)n, &view);
        if (rc)
            return py_fail(rc);
        rc = assign(view, value);
        usmarr_array_release(view);
        return rc;
    }
    usmarr_array_t *values = value_array(array, value);
    if (!values) {
        key_clear(&k);
        return -1;
    }
    if (whole_mask(array, &k)) {
        usmarr_array_t *flat = NULL;
        int64_t minus_one = -1;
        rc = usmarr_array_reshape(values, 1, &minus_one, USMARR_ORDER_C, USMARR_COPY_IF_NEEDED, &flat);
        if (!rc)
            rc = usmarr_place(array, k.items[0].array, flat);
        usmarr_array_release(flat);
        usmarr_array_release(values);
        key_clear(&k);
        return rc ? py_fail(rc) : 0;
    }
    struct plan p;
    rc = make_plan(array, &k, &p);
    key_clear(&k);
    if (rc == 0 && p.axis < 0) {
        int lib = usmarr_array_copy_into(p.view, values);
        if (lib)
            rc = py_fail(lib);
    } else if (rc == 0) {
        int lib = usmarr_put(p.merged, p.index, values, p.axis, USMARR_INDEX_MODE_RAISE);
        /* Merging the axes copied: write the scattered copy back through the moved view. */
        if (!lib && usmarr_array_memory(p.merged) != usmarr_array_memory(p.moved)) {
            usmarr_array_t *back = NULL;
            lib = usmarr_array_reshape(p.merged, usmarr_array_ndim(p.moved), usmarr_array_shape(p.moved),
                                       USMARR_ORDER_C, USMARR_COPY_NEVER, &back);
            if (!lib)
                lib = usmarr_array_copy_into(p.moved, back);
            usmarr_array_release(back);
        }
        if (lib)
            rc = py_fail(lib);
    }
    plan_clear(&p);
    usmarr_array_release(values);
    return rc;
}
