/* The namespace's sorting, searching and set functions (include/usmarr/sort.h): sort,
 * argsort, searchsorted, top_k, unique_values/_counts/_inverse/_all and isin, each one
 * library call.  The results of several arrays are the array API's named tuples
 * (UniqueAllResult, ...), made at import with collections.namedtuple. */
#include "module.h"

/* ---- the named tuples ------------------------------------------------------------------------------ */
enum { RESULT_UNIQUE_ALL, RESULT_UNIQUE_COUNTS, RESULT_UNIQUE_INVERSE, RESULT_TOP_K, RESULT_COUNT };
static const struct {
    const char *name, *fields;
} result_specs[RESULT_COUNT] = {
    [RESULT_UNIQUE_ALL] = {"UniqueAllResult", "values indices inverse_indices counts"},
    [RESULT_UNIQUE_COUNTS] = {"UniqueCountsResult", "values counts"},
    [RESULT_UNIQUE_INVERSE] = {"UniqueInverseResult", "values inverse_indices"},
    [RESULT_TOP_K] = {"TopKResult", "values indices"},
};
static PyObject *result_types[RESULT_COUNT];

int sort_init(PyObject *module)
{
    PyObject *collections = PyImport_ImportModule("collections");
    PyObject *namedtuple = collections ? PyObject_GetAttrString(collections, "namedtuple") : NULL;
    Py_XDECREF(collections);
    if (!namedtuple)
        return -1;
    int rc = 0;
    for (int i = 0; i < RESULT_COUNT && !rc; i++) {
        PyObject *kwargs = Py_BuildValue("{s:s}", "module", "usmarr");
        PyObject *args = Py_BuildValue("(ss)", result_specs[i].name, result_specs[i].fields);
        result_types[i] = kwargs && args ? PyObject_Call(namedtuple, args, kwargs) : NULL;
        Py_XDECREF(kwargs);
        Py_XDECREF(args);
        rc = result_types[i] ? PyModule_AddObjectRef(module, result_specs[i].name, result_types[i]) : -1;
    }
    Py_DECREF(namedtuple);
    return rc;
}

/* A named tuple of n arrays (references taken, released on failure); rc != 0 raises. */
static PyObject *result_tuple(int which, int rc, usmarr_array_t **arrays, int n)
{
    if (rc) {
        for (int i = 0; i < n; i++)
            usmarr_array_release(arrays[i]);
        return py_error(rc);
    }
    PyObject *items[4] = {NULL};
    int ok = 1;
    for (int i = 0; i < n; i++)
        ok &= (items[i] = array_wrap(arrays[i])) != NULL;
    PyObject *args = ok ? PyTuple_New(n) : NULL;
    for (int i = 0; i < n; i++) {
        if (args)
            PyTuple_SetItem(args, i, items[i]);
        else
            Py_XDECREF(items[i]);
    }
    if (!args)
        return NULL;
    PyObject *r = PyObject_Call(result_types[which], args, NULL);
    Py_DECREF(args);
    return r;
}

/* ---- arguments ------------------------------------------------------------------------------------- */
static int int_argument(PyObject *obj, int *value)
{
    long v = PyLong_AsLong(obj);
    if (v == -1 && PyErr_Occurred())
        return -1;
    if (v < -USMARR_MAX_NDIM - 1 || v > USMARR_MAX_NDIM + 1)
        v = v < 0 ? -USMARR_MAX_NDIM - 1 : USMARR_MAX_NDIM + 1; /* out of range either way: the library says so */
    *value = (int)v;
    return 0;
}

/* ---- sort, argsort ------------------------------------------------------------------------------- */
/* sort(x, /, *, axis=-1, descending=False, stable=True, out=None) and argsort(...): the
 * library's sorts are always stable, which stable=False allows. */
static PyObject *sort_call(PyObject *args, PyObject *kwargs, int indices)
{
    static char *keywords[] = {"x", "axis", "descending", "stable", "out", NULL};
    PyObject *x, *axis_obj = NULL, *out_obj = NULL;
    int descending = 0, stable = 1, axis = -1;
    usmarr_array_t *out;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, indices ? "O|$OppO:argsort" : "O|$OppO:sort", keywords, &x, &axis_obj,
                                     &descending, &stable, &out_obj) ||
        (axis_obj && int_argument(axis_obj, &axis) < 0) || out_from_object(out_obj, &out) < 0)
        return NULL;
    usmarr_array_t *a = convert_operand(x, NULL), *r = NULL;
    if (!a)
        return NULL;
    int rc = indices ? usmarr_argsort(a, axis, descending, out, &r) : usmarr_sort(a, axis, descending, out, &r);
    usmarr_array_release(a);
    return array_wrap_result(rc, r);
}

static PyObject *py_sort(PyObject *self, PyObject *args, PyObject *kwargs) { return sort_call(args, kwargs, 0); }
static PyObject *py_argsort(PyObject *self, PyObject *args, PyObject *kwargs) { return sort_call(args, kwargs, 1); }

/* ---- searchsorted ---------------------------------------------------------------------------------- */
/* searchsorted(x1, x2, /, *, side='left', sorter=None, out=None): a sorter of another
 * integer dtype is converted to int64 (NumPy takes any integer sorter). */
static PyObject *py_searchsorted(PyObject *self, PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"x1", "x2", "side", "sorter", "out", NULL};
    PyObject *x1, *x2, *side_obj = NULL, *sorter_obj = Py_None, *out_obj = NULL;
    usmarr_array_t *out;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OO|$OOO:searchsorted", keywords, &x1, &x2, &side_obj, &sorter_obj,
                                     &out_obj) ||
        out_from_object(out_obj, &out) < 0)
        return NULL;
    usmarr_side_t side = USMARR_SIDE_LEFT;
    if (side_obj && PyUnicode_Check(side_obj) && PyUnicode_CompareWithASCIIString(side_obj, "right") == 0)
        side = USMARR_SIDE_RIGHT;
    else if (side_obj && !(PyUnicode_Check(side_obj) && PyUnicode_CompareWithASCIIString(side_obj, "left") == 0)) {
        PyErr_Format(PyExc_ValueError, "usmarr.searchsorted: side must be 'left' or 'right', not %R", side_obj);
        return NULL;
    }
    usmarr_array_t *a = convert_operand(x1, NULL), *v = a ? convert_operand(x2, a) : NULL, *sorter = NULL, *r = NULL;
    int rc = 0, converted = v != NULL;
    if (converted && sorter_obj != Py_None) {
        bool integral = false;
        converted = (sorter = convert_operand(sorter_obj, a)) != NULL;
        if (converted && usmarr_array_dtype(sorter) != USMARR_INT64 &&
            usmarr_isdtype(usmarr_array_dtype(sorter), "integral", &integral) == 0 && integral) {
            usmarr_array_t *cast = NULL;
            rc = usmarr_array_astype(sorter, USMARR_INT64, USMARR_ORDER_K, NULL, &cast);
            usmarr_array_release(sorter);
            sorter = cast;
        }
    }
    if (converted && !rc)
        rc = usmarr_searchsorted(a, v, side, sorter, out, &r);
    usmarr_array_release(a);
    usmarr_array_release(v);
    usmarr_array_release(sorter);
    if (!converted)
        return NULL;
    return array_wrap_result(rc, r);
}

/* ---- top_k ------------------------------------------------------------------------------------------- */
/* top_k(x, k, /, *, axis=-1, mode='largest'): TopKResult(values, indices); axis=None
 * works on the flattened x. */
static PyObject *py_top_k(PyObject *self, PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"x", "k", "axis", "mode", NULL};
    PyObject *x, *axis_obj = NULL, *mode_obj = NULL;
    long long k;
    int axis = -1;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OL|$OO:top_k", keywords, &x, &k, &axis_obj, &mode_obj) ||
        (axis_obj && axis_obj != Py_None && int_argument(axis_obj, &axis) < 0))
        return NULL;
    int largest = 1;
    if (mode_obj && PyUnicode_Check(mode_obj) && PyUnicode_CompareWithASCIIString(mode_obj, "smallest") == 0)
        largest = 0;
    else if (mode_obj && !(PyUnicode_Check(mode_obj) && PyUnicode_CompareWithASCIIString(mode_obj, "largest") == 0)) {
        PyErr_Format(PyExc_ValueError, "usmarr.top_k: mode must be 'largest' or 'smallest', not %R", mode_obj);
        return NULL;
    }
    usmarr_array_t *a = convert_operand(x, NULL), *r[2] = {NULL, NULL};
    if (!a)
        return NULL;
    int rc = 0;
    if (axis_obj == Py_None) {
        int64_t flat = -1;
        usmarr_array_t *reshaped = NULL;
        rc = usmarr_array_reshape(a, 1, &flat, USMARR_ORDER_C, USMARR_COPY_IF_NEEDED, &reshaped);
        usmarr_array_release(a);
        a = reshaped;
        axis = 0;
    }
    if (!rc)
        rc = usmarr_top_k(a, (int64_t)k, axis, largest, &r[0], &r[1]);
    usmarr_array_release(a);
    return result_tuple(RESULT_TOP_K, rc, r, 2);
}

/* ---- set functions ------------------------------------------------------------------------------------- */
/* unique_values(x, /), unique_counts, unique_inverse, unique_all: one dispatcher; the
 * results of several arrays are the named tuples (result_specs above). */
enum unique_kind { UNIQUE_VALUES, UNIQUE_COUNTS, UNIQUE_INVERSE, UNIQUE_ALL };
static PyObject *unique_call(PyObject *x, enum unique_kind kind)
{
    static const struct {
        int result, count;
    } shapes[] = {[UNIQUE_VALUES] = {-1, 1},
                  [UNIQUE_COUNTS] = {RESULT_UNIQUE_COUNTS, 2},
                  [UNIQUE_INVERSE] = {RESULT_UNIQUE_INVERSE, 2},
                  [UNIQUE_ALL] = {RESULT_UNIQUE_ALL, 4}};
    usmarr_array_t *a = convert_operand(x, NULL), *r[4] = {NULL, NULL, NULL, NULL};
    if (!a)
        return NULL;
    int rc;
    switch (kind) {
    case UNIQUE_VALUES:
        rc = usmarr_unique_values(a, &r[0]);
        break;
    case UNIQUE_COUNTS:
        rc = usmarr_unique_counts(a, &r[0], &r[1]);
        break;
    case UNIQUE_INVERSE:
        rc = usmarr_unique_inverse(a, &r[0], &r[1]);
        break;
    default:
        rc = usmarr_unique_all(a, &r[0], &r[1], &r[2], &r[3]);
        break;
    }
    usmarr_array_release(a);
    if (shapes[kind].result < 0)
        return array_wrap_result(rc, r[0]);
    return result_tuple(shapes[kind].result, rc, r, shapes[kind].count);
}

static PyObject *py_unique_values(PyObject *self, PyObject *x) { return unique_call(x, UNIQUE_VALUES); }
static PyObject *py_unique_counts(PyObject *self, PyObject *x) { return unique_call(x, UNIQUE_COUNTS); }
static PyObject *py_unique_inverse(PyObject *self, PyObject *x) { return unique_call(x, UNIQUE_INVERSE); }
static PyObject *py_unique_all(PyObject *self, PyObject *x) { return unique_call(x, UNIQUE_ALL); }

/* isin(x1, x2, /, *, invert=False, out=None) */
static PyObject *py_isin(PyObject *self, PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"x1", "x2", "invert", "out", NULL};
    PyObject *x1, *x2, *out_obj = NULL;
    int invert = 0;
    usmarr_array_t *out;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OO|$pO:isin", keywords, &x1, &x2, &invert, &out_obj) ||
        out_from_object(out_obj, &out) < 0)
        return NULL;
    usmarr_array_t *a = convert_operand(x1, NULL), *t = a ? convert_operand(x2, a) : NULL, *r = NULL;
    int rc = a && t ? usmarr_isin(a, t, invert, out, &r) : 0;
    usmarr_array_release(a);
    usmarr_array_release(t);
    if (!a || !t)
        return NULL;
    return array_wrap_result(rc, r);
}

#define KW (METH_VARARGS | METH_KEYWORDS)
#define FN(f) (PyCFunction)(void (*)(void))(f)
PyMethodDef sort_methods[] = {
    {"sort", FN(py_sort), KW, "sort(x, /, *, axis=-1, descending=False, stable=True, out=None)\n--\n\n"},
    {"argsort", FN(py_argsort), KW, "argsort(x, /, *, axis=-1, descending=False, stable=True, out=None)\n--\n\n"},
    {"searchsorted", FN(py_searchsorted), KW, "searchsorted(x1, x2, /, *, side='left', sorter=None, out=None)\n--\n\n"},
    {"top_k", FN(py_top_k), KW, "top_k(x, k, /, *, axis=-1, mode='largest')\n--\n\nTopKResult(values, indices)"},
    {"unique_values", FN(py_unique_values), METH_O, "unique_values(x, /)\n--\n\n"},
    {"unique_counts", FN(py_unique_counts), METH_O, "unique_counts(x, /)\n--\n\nUniqueCountsResult(values, counts)"},
    {"unique_inverse", FN(py_unique_inverse), METH_O,
     "unique_inverse(x, /)\n--\n\nUniqueInverseResult(values, inverse_indices)"},
    {"unique_all", FN(py_unique_all), METH_O,
     "unique_all(x, /)\n--\n\nUniqueAllResult(values, indices, inverse_indices, counts)"},
    {"isin", FN(py_isin), KW, "isin(x1, x2, /, *, invert=False, out=None)\n--\n\n"},
    {NULL},
};
