/* The namespace's views, manipulation, gathers and scatters (include/usmarr/view.h): reshape,
 * permute_dims, ..., take, put, place, extract, nonzero, tril and triu, each one library
 * call.  (a[key] is array_index.c.) */
#include "module.h"

/* ---- manipulation ------------------------------------------------------------------------------------ */
static usmarr_array_t *array_arg(PyObject *obj)
{
    return convert_operand(obj, NULL);
}

/* reshape(x, /, shape, *, copy=None, order='C') */
PyObject *py_reshape(PyObject *self, PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"x", "shape", "copy", "order", NULL};
    PyObject *x, *shape_obj, *copy_obj = Py_None, *order_obj = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OO|$OO:reshape", keywords, &x, &shape_obj, &copy_obj, &order_obj))
        return NULL;
    int64_t shape[USMARR_MAX_NDIM];
    int ndim, copy = copy_obj == Py_None ? -1 : PyObject_IsTrue(copy_obj);
    usmarr_order_t order;
    if (shape_from_object(shape_obj, shape, &ndim) < 0 || order_from_object(order_obj, &order) < 0)
        return NULL;
    usmarr_array_t *a = array_arg(x), *r = NULL;
    if (!a)
        return NULL;
    int rc = usmarr_array_reshape(a, ndim, shape, order,
                                  copy < 0 ? USMARR_COPY_IF_NEEDED : copy ? USMARR_COPY_ALWAYS : USMARR_COPY_NEVER, &r);
    usmarr_array_release(a);
    if (rc == USMARR_ERROR_BAD_STATE) { /* the array API's error for copy=False */
        PyErr_Format(PyExc_ValueError, "usmarr.reshape: copy=False, but %s", usmarr_last_error_detail());
        return NULL;
    }
    return array_wrap_result(rc, r);
}

/* The functions that take an array and a list of axes: permute_dims, expand_dims, squeeze, flip. */
enum axes_op { AXES_PERMUTE, AXES_EXPAND, AXES_SQUEEZE, AXES_FLIP };
static PyObject *axes_call(enum axes_op op, PyObject *args, PyObject *kwargs, const char *format, char **keywords)
{
    PyObject *x, *axes_obj = op == AXES_EXPAND ? NULL : Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, format, keywords, &x, &axes_obj))
        return NULL;
    int axes[USMARR_MAX_NDIM], naxes = 0, zero = 0;
    const int *which = NULL;
    if (op == AXES_EXPAND && !axes_obj) {
        which = &zero;
        naxes = 1;
    } else if (axes_obj != Py_None) {
        if (axes_from_object(axes_obj, axes, &naxes, USMARR_MAX_NDIM) < 0)
            return NULL;
        which = axes;
    }
    usmarr_array_t *a = array_arg(x), *r = NULL;
    if (!a)
        return NULL;
    int rc;
    switch (op) {
    case AXES_PERMUTE:
        rc = which && naxes != usmarr_array_ndim(a)
                 ? usmarr_error_set(USMARR_ERROR_INVALID_ARGUMENT, "permute_dims: %d axes for %d dimensions", naxes,
                                    usmarr_array_ndim(a))
                 : usmarr_array_permute_dims(a, which, &r);
        break;
    case AXES_EXPAND:
        rc = usmarr_array_expand_dims(a, naxes, which, &r);
        break;
    case AXES_SQUEEZE:
        rc = usmarr_array_squeeze(a, naxes, which, &r);
        break;
    default:
        rc = usmarr_array_flip(a, naxes, which, &r);
        break;
    }
    usmarr_array_release(a);
    if (rc == USMARR_ERROR_INVALID_ARGUMENT)
        return py_axis_error(rc);
    return array_wrap_result(rc, r);
}

static char *kw_axes[] = {"x", "axes", NULL};
static char *kw_axis[] = {"x", "axis", NULL};
static PyObject *py_permute_dims(PyObject *s, PyObject *a, PyObject *k) { return axes_call(AXES_PERMUTE, a, k, "OO:permute_dims", kw_axes); }
static PyObject *py_expand_dims(PyObject *s, PyObject *a, PyObject *k) { return axes_call(AXES_EXPAND, a, k, "O|O:expand_dims", kw_axis); }
static PyObject *py_squeeze(PyObject *s, PyObject *a, PyObject *k) { return axes_call(AXES_SQUEEZE, a, k, "O|O:squeeze", kw_axis); }
static PyObject *py_flip(PyObject *s, PyObject *a, PyObject *k) { return axes_call(AXES_FLIP, a, k, "O|$O:flip", kw_axis); }

/* moveaxis(x, source, destination, /) */
static PyObject *py_moveaxis(PyObject *self, PyObject *args)
{
    PyObject *x, *src_obj, *dst_obj;
    int src[USMARR_MAX_NDIM], dst[USMARR_MAX_NDIM], ns, nd;
    if (!PyArg_ParseTuple(args, "OOO:moveaxis", &x, &src_obj, &dst_obj) ||
        axes_from_object(src_obj, src, &ns, USMARR_MAX_NDIM) < 0 || axes_from_object(dst_obj, dst, &nd, USMARR_MAX_NDIM) < 0)
        return NULL;
    if (ns != nd) {
        PyErr_Format(PyExc_ValueError, "usmarr.moveaxis: %d source axes but %d destinations", ns, nd);
        return NULL;
    }
    usmarr_array_t *a = array_arg(x), *r = NULL;
    if (!a)
        return NULL;
    int rc = usmarr_array_moveaxis(a, ns, src, dst, &r);
    usmarr_array_release(a);
    return array_wrap_result(rc, r);
}

/* swapaxes(x, axis1, axis2, /) */
static PyObject *py_swapaxes(PyObject *self, PyObject *args)
{
    PyObject *x;
    int a1, a2;
    if (!PyArg_ParseTuple(args, "Oii:swapaxes", &x, &a1, &a2))
        return NULL;
    usmarr_array_t *a = array_arg(x), *r = NULL;
    if (!a)
        return NULL;
    int rc = usmarr_array_swapaxes(a, a1, a2, &r);
    usmarr_array_release(a);
    return array_wrap_result(rc, r);
}

/* broadcast_to(x, /, shape) */
static PyObject *py_broadcast_to(PyObject *self, PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"x", "shape", NULL};
    PyObject *x, *shape_obj;
    int64_t shape[USMARR_MAX_NDIM];
    int ndim;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OO:broadcast_to", keywords, &x, &shape_obj) ||
        shape_from_object(shape_obj, shape, &ndim) < 0)
        return NULL;
    usmarr_array_t *a = array_arg(x), *r = NULL;
    if (!a)
        return NULL;
    int rc = usmarr_array_broadcast_to(a, ndim, shape, &r);
    usmarr_array_release(a);
    return array_wrap_result(rc, r);
}

/* A Python sequence of arrays as library arrays (all on the first one's device). */
static int array_list(PyObject *seq, usmarr_array_t ***arrays, int *count)
{
    PyObject *fast = PySequence_Tuple(seq);
    if (!fast)
        return -1;
    Py_ssize_t n = PyTuple_Size(fast);
    *arrays = calloc(n ? (size_t)n : 1, sizeof **arrays);
    if (!*arrays) {
        Py_DECREF(fast);
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        (*arrays)[i] = convert_operand(PyTuple_GetItem(fast, i), i ? (*arrays)[0] : NULL);
        if (!(*arrays)[i]) {
            for (Py_ssize_t j = 0; j < i; j++)
                usmarr_array_release((*arrays)[j]);
            free(*arrays);
            Py_DECREF(fast);
            return -1;
        }
    }
    Py_DECREF(fast);
    *count = (int)n;
    return 0;
}

static void array_list_free(usmarr_array_t **arrays, int count)
{
    for (int i = 0; i < count; i++)
        usmarr_array_release(arrays[i]);
    free(arrays);
}

/* broadcast_arrays(*arrays): a list of views */
static PyObject *py_broadcast_arrays(PyObject *self, PyObject *args)
{
    usmarr_array_t **arrays, **views;
    int count;
    if (array_list(args, &arrays, &count) < 0)
        return NULL;
    views = calloc(count ? (size_t)count : 1, sizeof *views);
    int rc = views ? usmarr_broadcast_arrays(count, (const usmarr_array_t *const *)arrays, views) : USMARR_ERROR_OUT_OF_HOST_MEMORY;
    array_list_free(arrays, count);
    if (rc) {
        free(views);
        return py_error(rc);
    }
    PyObject *list = PyList_New(count);
    for (int i = 0; i < count; i++) {
        PyObject *w = array_wrap(views[i]);
        if (list && w)
            PyList_SetItem(list, i, w);
        else
            Py_XDECREF(w);
    }
    free(views);
    return list;
}

/* A list (or tuple) of n new arrays, references taken (released on failure). */
static PyObject *wrap_arrays(usmarr_array_t **arrays, size_t n, int tuple)
{
    PyObject *seq = tuple ? PyTuple_New((Py_ssize_t)n) : PyList_New((Py_ssize_t)n);
    for (size_t i = 0; i < n; i++) {
        PyObject *w = seq ? array_wrap(arrays[i]) : (usmarr_array_release(arrays[i]), NULL);
        if (w && tuple)
            PyTuple_SetItem(seq, (Py_ssize_t)i, w);
        else if (w)
            PyList_SetItem(seq, (Py_ssize_t)i, w);
        else
            Py_CLEAR(seq);
    }
    return seq;
}

/* unstack(x, /, *, axis=0): a tuple of views */
static PyObject *py_unstack(PyObject *self, PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"x", "axis", NULL};
    PyObject *x;
    int axis = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|$i:unstack", keywords, &x, &axis))
        return NULL;
    usmarr_array_t *a = array_arg(x), **views = NULL;
    if (!a)
        return NULL;
    size_t count = 0;
    int rc = usmarr_unstack(a, axis, NULL, 0, &count); /* the count (and the axis check) first */
    if (rc == USMARR_ERROR_INVALID_ARGUMENT && count > 0) {
        views = calloc(count, sizeof *views);
        rc = views ? usmarr_unstack(a, axis, views, count, &count) : USMARR_ERROR_OUT_OF_HOST_MEMORY;
    }
    usmarr_array_release(a);
    PyObject *r = rc ? py_error(rc) : wrap_arrays(views, count, 1);
    free(views);
    return r;
}

/* meshgrid(*arrays, indexing='xy'): a list of new arrays */
static PyObject *py_meshgrid(PyObject *self, PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"indexing", NULL};
    const char *indexing = "xy";
    PyObject *empty = PyTuple_New(0);
    int ok = empty && PyArg_ParseTupleAndKeywords(empty, kwargs, "|$s:meshgrid", keywords, &indexing);
    Py_XDECREF(empty);
    if (!ok)
        return NULL;
    usmarr_array_t **arrays, *results[USMARR_MAX_NDIM];
    int count;
    if (array_list(args, &arrays, &count) < 0)
        return NULL;
    int rc = count ? usmarr_meshgrid(count, (const usmarr_array_t *const *)arrays, indexing, results) : 0;
    array_list_free(arrays, count);
    if (rc)
        return py_error(rc);
    return wrap_arrays(results, (size_t)count, 0);
}

/* concat(arrays, /, *, axis=0) and stack(arrays, /, *, axis=0) */
static PyObject *join_call(PyObject *args, PyObject *kwargs, int stack)
{
    static char *keywords[] = {"arrays", "axis", NULL};
    PyObject *seq, *axis_obj = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|$O", keywords, &seq, &axis_obj))
        return NULL;
    int axis = 0;
    if (axis_obj == Py_None && !stack)
        axis = USMARR_AXIS_NONE;
    else if (axis_obj && (axis = (int)PyLong_AsLong(axis_obj)) == -1 && PyErr_Occurred())
        return NULL;
    usmarr_array_t **arrays, *r = NULL;
    int count;
    if (array_list(seq, &arrays, &count) < 0)
        return NULL;
    int rc = stack ? usmarr_stack(count, (const usmarr_array_t *const *)arrays, axis, NULL, &r)
                   : usmarr_concat(count, (const usmarr_array_t *const *)arrays, axis, NULL, &r);
    array_list_free(arrays, count);
    return array_wrap_result(rc, r);
}

static PyObject *py_concat(PyObject *s, PyObject *a, PyObject *k) { return join_call(a, k, 0); }
static PyObject *py_stack(PyObject *s, PyObject *a, PyObject *k) { return join_call(a, k, 1); }

/* roll(x, /, shift, *, axis=None) */
static PyObject *py_roll(PyObject *self, PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"x", "shift", "axis", NULL};
    PyObject *x, *shift_obj, *axis_obj = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OO|$O:roll", keywords, &x, &shift_obj, &axis_obj))
        return NULL;
    int64_t shifts[USMARR_MAX_NDIM];
    int axes[USMARR_MAX_NDIM], nshifts, naxes = 0;
    if (shape_from_object(shift_obj, shifts, &nshifts) < 0)
        return NULL;
    if (axis_obj != Py_None) {
        if (axes_from_object(axis_obj, axes, &naxes, USMARR_MAX_NDIM) < 0)
            return NULL;
        if (nshifts == 1 && naxes > 1)
            for (int i = 1; i < naxes; i++)
                shifts[i] = shifts[0];
        else if (naxes != nshifts) {
            PyErr_Format(PyExc_ValueError, "usmarr.roll: %d shifts for %d axes", nshifts, naxes);
            return NULL;
        }
    }
    usmarr_array_t *a = array_arg(x), *r = NULL;
    if (!a)
        return NULL;
    int rc = usmarr_roll(a, axis_obj == Py_None ? nshifts : naxes, shifts, axis_obj == Py_None ? NULL : axes, NULL, &r);
    usmarr_array_release(a);
    return array_wrap_result(rc, r);
}

/* repeat(x, repeats, /, *, axis=None): repeats an int or an integer array */
static PyObject *py_repeat(PyObject *self, PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"x", "repeats", "axis", NULL};
    PyObject *x, *repeats_obj, *axis_obj = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OO|$O:repeat", keywords, &x, &repeats_obj, &axis_obj))
        return NULL;
    int axis = USMARR_AXIS_NONE;
    if (axis_obj != Py_None && (axis = (int)PyLong_AsLong(axis_obj)) == -1 && PyErr_Occurred())
        return NULL;
    usmarr_array_t *a = array_arg(x), *r = NULL, *counts = NULL, *counts64 = NULL;
    if (!a)
        return NULL;
    int64_t one, *repeats = &one, nrepeats = 1;
    int rc = 0;
    if (PyLong_Check(repeats_obj)) {
        one = PyLong_AsLongLong(repeats_obj);
        if (one == -1 && PyErr_Occurred()) {
            usmarr_array_release(a);
            return NULL;
        }
    } else {
        /* The counts decide the result's shape: they are read on the host. */
        counts = convert_operand(repeats_obj, a);
        if (!counts) {
            usmarr_array_release(a);
            return NULL;
        }
        nrepeats = usmarr_array_size(counts);
        repeats = malloc((size_t)(nrepeats ? nrepeats : 1) * sizeof *repeats);
        rc = repeats ? usmarr_array_astype(counts, USMARR_INT64, USMARR_ORDER_C, NULL, &counts64)
                     : USMARR_ERROR_OUT_OF_HOST_MEMORY;
        if (!rc)
            rc = usmarr_array_copy_to_host(counts64, repeats, NULL);
    }
    if (!rc)
        rc = usmarr_repeat(a, nrepeats, repeats, axis, NULL, &r);
    if (repeats != &one)
        free(repeats);
    usmarr_array_release(counts);
    usmarr_array_release(counts64);
    usmarr_array_release(a);
    return array_wrap_result(rc, r);
}

/* tile(x, repetitions, /) */
static PyObject *py_tile(PyObject *self, PyObject *args)
{
    PyObject *x, *reps_obj;
    int64_t reps[USMARR_MAX_NDIM];
    int nreps;
    if (!PyArg_ParseTuple(args, "OO:tile", &x, &reps_obj) || shape_from_object(reps_obj, reps, &nreps) < 0)
        return NULL;
    usmarr_array_t *a = array_arg(x), *r = NULL;
    if (!a)
        return NULL;
    int rc = usmarr_tile(a, nreps, reps, NULL, &r);
    usmarr_array_release(a);
    return array_wrap_result(rc, r);
}

/* ---- gathers and scatters -------------------------------------------------------------------------------- */
static int mode_from_object(PyObject *obj, usmarr_index_mode_t *mode)
{
    static const char *names[] = {"raise", "wrap", "clip"};
    *mode = USMARR_INDEX_MODE_RAISE;
    if (!obj)
        return 0;
    for (int i = 0; i < 3; i++)
        if (PyUnicode_Check(obj) && PyUnicode_CompareWithASCIIString(obj, names[i]) == 0)
            return *mode = (usmarr_index_mode_t)i, 0;
    PyErr_Format(PyExc_ValueError, "usmarr: mode must be 'raise', 'wrap' or 'clip', not %R", obj);
    return -1;
}

static int axis_or_none(PyObject *obj, int *axis)
{
    if (!obj || obj == Py_None) {
        *axis = USMARR_AXIS_NONE;
        return 0;
    }
    long v = PyLong_AsLong(obj);
    if (v == -1 && PyErr_Occurred())
        return -1;
    *axis = (int)v;
    return 0;
}

/* take(x, indices, /, *, axis=None, mode='raise') and take_along_axis(x, indices, /, axis=-1, *, mode='raise') */
static PyObject *take_call(PyObject *args, PyObject *kwargs, int along)
{
    static char *keywords[] = {"x", "indices", "axis", "mode", NULL};
    PyObject *x, *indices, *axis_obj = NULL, *mode_obj = NULL;
    usmarr_index_mode_t mode;
    int axis;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, along ? "OO|O$O:take_along_axis" : "OO|$OO:take", keywords, &x,
                                     &indices, &axis_obj, &mode_obj) ||
        mode_from_object(mode_obj, &mode) < 0 || axis_or_none(axis_obj, &axis) < 0)
        return NULL;
    usmarr_array_t *a, *i, *r = NULL;
    if (convert_operands(x, indices, NULL, &a, &i) < 0)
        return NULL;
    int rc = 0;
    if (along && !axis_obj)
        axis = -1;
    if (!along && axis == USMARR_AXIS_NONE) {
        if (usmarr_array_ndim(a) != 1)
            rc = usmarr_error_set(USMARR_ERROR_INVALID_ARGUMENT, "take: axis=None needs a 1-d array, x has %d dimensions",
                                  usmarr_array_ndim(a));
        axis = 0;
    }
    if (!rc)
        rc = along ? usmarr_take_along_axis(a, i, axis, mode, NULL, &r) : usmarr_take(a, i, axis, mode, NULL, &r);
    usmarr_array_release(a);
    usmarr_array_release(i);
    return array_wrap_result(rc, r);
}

static PyObject *py_take(PyObject *self, PyObject *args, PyObject *kwargs) { return take_call(args, kwargs, 0); }
static PyObject *py_take_along_axis(PyObject *self, PyObject *args, PyObject *kwargs) { return take_call(args, kwargs, 1); }

/* put and place write into x, which must be an Array already. */
static int in_place_target(PyObject *x, const char *name)
{
    if (array_check(x))
        return 0;
    PyErr_Format(PyExc_TypeError, "usmarr.%s: x must be a usmarr.Array", name);
    return -1;
}

static PyObject *in_place_result(int rc)
{
    if (rc)
        return py_error(rc);
    Py_RETURN_NONE;
}

/* put(x, indices, values, /, *, axis=None, mode='raise'): in place */
static PyObject *py_put(PyObject *self, PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"x", "indices", "values", "axis", "mode", NULL};
    PyObject *x, *indices, *values, *axis_obj = NULL, *mode_obj = NULL;
    usmarr_index_mode_t mode;
    usmarr_array_t *i, *v;
    int axis;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOO|$OO:put", keywords, &x, &indices, &values, &axis_obj, &mode_obj) ||
        mode_from_object(mode_obj, &mode) < 0 || axis_or_none(axis_obj, &axis) < 0 || in_place_target(x, "put") < 0 ||
        convert_operands(indices, values, array_of(x), &i, &v) < 0)
        return NULL;
    int rc = usmarr_put(array_of(x), i, v, axis, mode);
    usmarr_array_release(i);
    usmarr_array_release(v);
    return in_place_result(rc);
}

/* place(x, mask, values, /): in place */
static PyObject *py_place(PyObject *self, PyObject *args)
{
    PyObject *x, *mask, *values;
    usmarr_array_t *m, *v;
    if (!PyArg_ParseTuple(args, "OOO:place", &x, &mask, &values) || in_place_target(x, "place") < 0 ||
        convert_operands(mask, values, array_of(x), &m, &v) < 0)
        return NULL;
    int rc = usmarr_place(array_of(x), m, v);
    usmarr_array_release(m);
    usmarr_array_release(v);
    return in_place_result(rc);
}

/* extract(condition, x, /) */
static PyObject *py_extract(PyObject *self, PyObject *args)
{
    PyObject *condition, *x;
    usmarr_array_t *a, *c, *r = NULL;
    if (!PyArg_ParseTuple(args, "OO:extract", &condition, &x) || convert_operands(x, condition, NULL, &a, &c) < 0)
        return NULL;
    int rc = usmarr_extract(c, a, &r);
    usmarr_array_release(a);
    usmarr_array_release(c);
    return array_wrap_result(rc, r);
}

/* nonzero(x, /): a tuple of int64 arrays */
static PyObject *py_nonzero(PyObject *self, PyObject *x)
{
    usmarr_array_t *a = convert_operand(x, NULL), *indices[USMARR_MAX_NDIM];
    if (!a)
        return NULL;
    int nd = usmarr_array_ndim(a);
    int rc = usmarr_nonzero(a, indices);
    usmarr_array_release(a);
    if (rc)
        return py_error(rc);
    PyObject *t = PyTuple_New(nd);
    for (int i = 0; i < nd; i++) {
        PyObject *w = array_wrap(indices[i]);
        if (!t || !w) {
            Py_XDECREF(w);
            for (int j = i + 1; j < nd; j++)
                usmarr_array_release(indices[j]);
            Py_XDECREF(t);
            return NULL;
        }
        PyTuple_SetItem(t, i, w);
    }
    return t;
}

/* ---- triangles --------------------------------------------------------------------------------------- */
/* tril(x, /, *, k=0) and triu(...) */
static PyObject *triangle_call(PyObject *args, PyObject *kwargs, int lower)
{
    static char *keywords[] = {"x", "k", "out", NULL};
    PyObject *x_obj, *out_obj = NULL;
    long long k = 0;
    usmarr_array_t *out, *r = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, lower ? "O|$LO:tril" : "O|$LO:triu", keywords, &x_obj, &k,
                                     &out_obj) ||
        out_from_object(out_obj, &out) < 0)
        return NULL;
    usmarr_array_t *x = convert_operand(x_obj, NULL);
    if (!x)
        return NULL;
    int rc = lower ? usmarr_tril(x, (int64_t)k, out, &r) : usmarr_triu(x, (int64_t)k, out, &r);
    usmarr_array_release(x);
    return array_wrap_result(rc, r);
}

static PyObject *py_tril(PyObject *self, PyObject *args, PyObject *kwargs) { return triangle_call(args, kwargs, 1); }
static PyObject *py_triu(PyObject *self, PyObject *args, PyObject *kwargs) { return triangle_call(args, kwargs, 0); }

#define KW (METH_VARARGS | METH_KEYWORDS)
#define FN(f) (PyCFunction)(void (*)(void))(f)
PyMethodDef view_methods[] = {
    {"reshape", FN(py_reshape), KW, "reshape(x, /, shape, *, copy=None, order='C')\n--\n\n"},
    {"permute_dims", FN(py_permute_dims), KW, "permute_dims(x, /, axes)\n--\n\n"},
    {"expand_dims", FN(py_expand_dims), KW, "expand_dims(x, /, axis=0)\n--\n\n"},
    {"squeeze", FN(py_squeeze), KW, "squeeze(x, /, axis=None)\n--\n\n"},
    {"flip", FN(py_flip), KW, "flip(x, /, *, axis=None)\n--\n\n"},
    {"moveaxis", FN(py_moveaxis), METH_VARARGS, "moveaxis(x, source, destination, /)\n--\n\n"},
    {"swapaxes", FN(py_swapaxes), METH_VARARGS, "swapaxes(x, axis1, axis2, /)\n--\n\n"},
    {"broadcast_to", FN(py_broadcast_to), KW, "broadcast_to(x, /, shape)\n--\n\n"},
    {"broadcast_arrays", FN(py_broadcast_arrays), METH_VARARGS, "broadcast_arrays(*arrays)\n--\n\nA list of views"},
    {"unstack", FN(py_unstack), KW, "unstack(x, /, *, axis=0)\n--\n\nA tuple of views"},
    {"meshgrid", FN(py_meshgrid), KW, "meshgrid(*arrays, indexing='xy')\n--\n\nA list of new arrays"},
    {"concat", FN(py_concat), KW, "concat(arrays, /, *, axis=0)\n--\n\n"},
    {"stack", FN(py_stack), KW, "stack(arrays, /, *, axis=0)\n--\n\n"},
    {"roll", FN(py_roll), KW, "roll(x, /, shift, *, axis=None)\n--\n\n"},
    {"repeat", FN(py_repeat), KW, "repeat(x, repeats, /, *, axis=None)\n--\n\n"},
    {"tile", FN(py_tile), METH_VARARGS, "tile(x, repetitions, /)\n--\n\n"},
    {"take", FN(py_take), KW, "take(x, indices, /, *, axis=None, mode='raise')\n--\n\n"},
    {"take_along_axis", FN(py_take_along_axis), KW, "take_along_axis(x, indices, /, axis=-1, *, mode='raise')\n--\n\n"},
    {"put", FN(py_put), KW, "put(x, indices, values, /, *, axis=None, mode='raise')\n--\n\nIn place"},
    {"place", FN(py_place), METH_VARARGS, "place(x, mask, values, /)\n--\n\nIn place"},
    {"extract", FN(py_extract), METH_VARARGS, "extract(condition, x, /)\n--\n\n"},
    {"nonzero", FN(py_nonzero), METH_O, "nonzero(x, /)\n--\n\nA tuple of int64 index arrays"},
    {"tril", FN(py_tril), KW, "tril(x, /, *, k=0, out=None)\n--\n\nx with the elements above diagonal k zeroed"},
    {"triu", FN(py_triu), KW, "triu(x, /, *, k=0, out=None)\n--\n\nx with the elements below diagonal k zeroed"},
    {NULL},
};
