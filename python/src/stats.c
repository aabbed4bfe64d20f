/* The namespace's statistics (include/usmarr/stats.h): var and std, and what
 * python/usmarr/_stats.py wraps: _stats_reduce (logsumexp, reduce_hypot), _cumulative
 * (sum, prod, logsumexp with include_initial) and _diff.  Keyword parsing and dtype=
 * handling of those live in _stats.py. */
#include "module.h"

#include <string.h>

/* _stats_reduce(name, x, axis=None, keepdims=False) */
static PyObject *py_stats_reduce(PyObject *self, PyObject *args, PyObject *kwargs)
{
    (void)self;
    static char *keywords[] = {"name", "x", "axis", "keepdims", NULL};
    const char *name;
    PyObject *x, *axis = Py_None;
    int keepdims = 0, axes[USMARR_MAX_NDIM], naxes = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "sO|Op:_stats_reduce", keywords, &name, &x, &axis, &keepdims))
        return NULL;
    if (axis != Py_None && axes_from_object(axis, axes, &naxes, USMARR_MAX_NDIM) < 0)
        return NULL;
    usmarr_array_t *input = convert_operand(x, NULL), *r = NULL;
    if (!input)
        return NULL;
    int rc = usmarr_reduce(name, input, naxes, axis == Py_None ? NULL : axes, keepdims, NULL, &r);
    usmarr_array_release(input);
    return array_wrap_result(rc, r);
}

/* _cumulative(op, x, axis=None, include_initial=False): op 0 sum, 1 prod, 2 logsumexp */
static PyObject *py_cumulative(PyObject *self, PyObject *args, PyObject *kwargs)
{
    (void)self;
    static char *keywords[] = {"op", "x", "axis", "include_initial", NULL};
    int op, include_initial = 0, axis = 0;
    PyObject *x, *axis_obj = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "iO|Op:_cumulative", keywords, &op, &x, &axis_obj,
                                     &include_initial))
        return NULL;
    if (axis_obj != Py_None) {
        axis = (int)PyLong_AsLong(axis_obj);
        if (axis == -1 && PyErr_Occurred())
            return NULL;
    }
    usmarr_array_t *input = convert_operand(x, NULL), *r = NULL;
    if (!input)
        return NULL;
    int rc = usmarr_cumulative((usmarr_cumulative_t)op, input, axis_obj == Py_None ? NULL : &axis, include_initial,
                               NULL, &r);
    usmarr_array_release(input);
    return array_wrap_result(rc, r);
}

/* _diff(x, axis, n, prepend, append): prepend/append None or arrays (or scalars) */
static PyObject *py_diff(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *x, *pre_obj, *app_obj;
    int axis, n;
    if (!PyArg_ParseTuple(args, "OiiOO:_diff", &x, &axis, &n, &pre_obj, &app_obj))
        return NULL;
    usmarr_array_t *input = convert_operand(x, NULL), *pre = NULL, *app = NULL, *r = NULL;
    if (!input)
        return NULL;
    int rc = 0;
    if (pre_obj != Py_None && !(pre = convert_operand(pre_obj, input)))
        goto fail;
    if (app_obj != Py_None && !(app = convert_operand(app_obj, input)))
        goto fail;
    rc = usmarr_diff(input, axis, n, pre, app, NULL, &r);
    usmarr_array_release(input);
    usmarr_array_release(pre);
    usmarr_array_release(app);
    return rc == USMARR_ERROR_INVALID_ARGUMENT && strstr(usmarr_last_error_detail(), "axis=") ? py_axis_error(rc)
                                                                                             : array_wrap_result(rc, r);
fail:
    usmarr_array_release(input);
    usmarr_array_release(pre);
    return NULL;
}

/* var(x, /, *, axis=None, correction=0.0, keepdims=False, out=None) and std(...) */
static PyObject *moment_call(PyObject *args, PyObject *kwargs, int root)
{
    static char *keywords[] = {"x", "axis", "correction", "keepdims", "out", NULL};
    PyObject *x, *axis_obj = Py_None, *out_obj = NULL;
    double correction = 0.0;
    int keepdims = 0, naxes = 0, axes[USMARR_MAX_NDIM];
    usmarr_array_t *out;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, root ? "O|$OdpO:std" : "O|$OdpO:var", keywords, &x, &axis_obj,
                                     &correction, &keepdims, &out_obj) ||
        out_from_object(out_obj, &out) < 0 ||
        (axis_obj != Py_None && axes_from_object(axis_obj, axes, &naxes, USMARR_MAX_NDIM) < 0))
        return NULL;
    usmarr_array_t *a = convert_operand(x, NULL), *r = NULL;
    if (!a)
        return NULL;
    const int *which = axis_obj == Py_None ? NULL : axes;
    int rc = root ? usmarr_std(a, naxes, which, correction, keepdims, out, &r)
                  : usmarr_var(a, naxes, which, correction, keepdims, out, &r);
    usmarr_array_release(a);
    return array_wrap_result(rc, r);
}

static PyObject *py_var(PyObject *self, PyObject *args, PyObject *kwargs) { return moment_call(args, kwargs, 0); }
static PyObject *py_std(PyObject *self, PyObject *args, PyObject *kwargs) { return moment_call(args, kwargs, 1); }

#define FN(f) (PyCFunction)(void (*)(void))(f)
PyMethodDef stats_methods[] = {
    {"var", FN(py_var), METH_VARARGS | METH_KEYWORDS, "var(x, /, *, axis=None, correction=0.0, keepdims=False, out=None)\n--\n\n"},
    {"std", FN(py_std), METH_VARARGS | METH_KEYWORDS, "std(x, /, *, axis=None, correction=0.0, keepdims=False, out=None)\n--\n\n"},
    {"_stats_reduce", FN(py_stats_reduce), METH_VARARGS | METH_KEYWORDS, "_stats_reduce(name, x, axis, keepdims)"},
    {"_cumulative", FN(py_cumulative), METH_VARARGS | METH_KEYWORDS, "_cumulative(op, x, axis, include_initial)"},
    {"_diff", FN(py_diff), METH_VARARGS, "_diff(x, axis, n, prepend, append)"},
    {NULL, NULL, 0, NULL},
};
