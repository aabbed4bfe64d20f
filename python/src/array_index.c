/* usmarr.Array's a[key] and a[key] = value (its mapping slots, in array.c's table) with
 * NumPy's indexing.
 *
 * Basic keys (integers, slices, None, ...) are one usmarr_array_index() call: a view.
 * Advanced keys (integer or boolean arrays anywhere in the key) are one
 * usmarr_array_getitem() / usmarr_array_setitem() call, each array an '@j' item: the
 * library applies NumPy's rules (broadcasting, where the index dimensions go, masks). */
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

/* ---- the mapping protocol -------------------------------------------------------------------------- */
static int key_basic_items(const struct key *k, usmarr_index_item_t *items)
{
    for (int i = 0; i < k->count; i++)
        items[i] = k->items[i].basic;
    return k->count;
}

/* An advanced key as the library's index: arrays and masks become '@j' items naming
 * arrays[j]; usmarr_array_getitem()/_setitem() do the rest, NumPy's rules included. */
static int key_advanced_items(const struct key *k, usmarr_index_item_t *items, const usmarr_array_t **arrays,
                              size_t *narrays)
{
    *narrays = 0;
    for (int i = 0; i < k->count; i++) {
        if (k->items[i].kind == ITEM_BASIC) {
            items[i] = k->items[i].basic;
        } else {
            items[i] = usmarr_index_array((int64_t)*narrays);
            arrays[(*narrays)++] = k->items[i].array;
        }
    }
    return k->count;
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
    usmarr_index_item_t items[USMARR_MAX_INDEX_ITEMS];
    const usmarr_array_t *arrays[USMARR_MAX_INDEX_ITEMS];
    size_t narrays;
    int n = key_advanced_items(&k, items, arrays, &narrays);
    rc = usmarr_array_getitem(array, items, (size_t)n, arrays, narrays, NULL, &result);
    key_clear(&k);
    return array_wrap_result(rc, result);
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

/* a[key] = value for a basic key: a scalar fills the view; an array goes through
 * usmarr_array_setitem, which drops the value's leading extent-1 axes beyond the
 * selection as NumPy does (a view's copy_into would refuse them). */
static int assign(usmarr_array_t *array, const usmarr_index_item_t *items, size_t n, PyObject *value)
{
    usmarr_scalar_t s;
    int k = scalar_from_object(value, &s), rc;
    if (k < 0)
        return -1;
    if (k == 1) {
        usmarr_array_t *view = NULL;
        rc = usmarr_array_index(array, items, n, &view);
        if (!rc)
            rc = usmarr_array_fill(view, s);
        usmarr_array_release(view);
        return rc ? py_fail(rc) : 0;
    }
    usmarr_array_t *v = convert_operand(value, array);
    if (!v)
        return -1;
    rc = usmarr_array_setitem(array, items, n, NULL, 0, v);
    usmarr_array_release(v);
    return rc ? py_fail(rc) : 0;
}

int array_setitem(PyObject *self, PyObject *key, PyObject *value)
{
    usmarr_array_t *array = array_of(self);
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
        return assign(array, items, (size_t)n, value);
    }
    usmarr_array_t *values = value_array(array, value);
    if (!values) {
        key_clear(&k);
        return -1;
    }
    usmarr_index_item_t items[USMARR_MAX_INDEX_ITEMS];
    const usmarr_array_t *arrays[USMARR_MAX_INDEX_ITEMS];
    size_t narrays;
    int n = key_advanced_items(&k, items, arrays, &narrays);
    rc = usmarr_array_setitem(array, items, (size_t)n, arrays, narrays, values);
    key_clear(&k);
    usmarr_array_release(values);
    return rc ? py_fail(rc) : 0;
}
