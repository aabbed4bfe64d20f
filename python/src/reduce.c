/* The namespace's reductions (include/usmarr/reduce.h) from one table, and cumulative_sum,
 * each one library call. */
#include "module.h"

static int parse_axes(PyObject *axis, int *axes, int *naxes, const int **which)
{
    *which = NULL;
    *naxes = 0;
    if (axis == Py_None)
        return 0;
    if (axes_from_object(axis, axes, naxes, USMARR_MAX_NDIM) < 0)
        return -1;
    *which = axes;
    return 0;
}

/* dtype= (the array API's sum, prod and cumulative_sum argument): the input computed in it,
 * *cast NULL when it has that dtype already (or dtype is -1, none asked) ... */
static int cast_to_dtype(usmarr_array_t *input, int dtype, usmarr_array_t **cast)
{
    *cast = NULL;
    if (dtype < 0 || dtype == (int)usmarr_array_dtype(input))
        return 0;
    return usmarr_array_astype(input, (usmarr_dtype_t)dtype, USMARR_ORDER_K, NULL, cast);
}

/* ... and the result in it too, where the library's rules gave another (rc passes through). */
static int result_in_dtype(int rc, int dtype, usmarr_array_t **r)
{
    if (rc || dtype < 0 || (int)usmarr_array_dtype(*r) == dtype)
        return rc;
    usmarr_array_t *converted = NULL;
    rc = usmarr_array_astype(*r, (usmarr_dtype_t)dtype, USMARR_ORDER_K, NULL, &converted);
    usmarr_array_release(*r);
    *r = converted;
    return rc;
}

/* usmarr.<reduction>(x, /, *, axis=None, keepdims=False, dtype=None, out=None) */
static PyObject *reduce_call(const char *name, PyObject *args, PyObject *kwargs)
{
    PyObject *t = traced_tuple(name, args, kwargs);
    if (t || PyErr_Occurred())
        return t;
    static char *keywords[] = {"x", "axis", "keepdims", "dtype", "out", "correction", NULL};
    PyObject *x, *axis = Py_None, *dtype_obj = Py_None, *out = Py_None, *correction = Py_None;
    int keepdims = 0, dtype, naxes;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|$OpOOO", keywords, &x, &axis, &keepdims, &dtype_obj, &out,
                                     &correction))
        return NULL;
    if (correction != Py_None) {
        PyErr_Format(PyExc_TypeError, "usmarr.%s() got an unexpected keyword argument 'correction'", name);
        return NULL;
    }
    int axes[USMARR_MAX_NDIM];
    const int *which;
    if (dtype_from_object(dtype_obj, &dtype) < 0 || parse_axes(axis, axes, &naxes, &which) < 0)
        return NULL;
    if (out != Py_None && !array_check(out)) {
        PyErr_SetString(PyExc_TypeError, "usmarr: out must be a usmarr.Array");
        return NULL;
    }
    usmarr_array_t *input = convert_operand(x, NULL), *cast = NULL, *r = NULL;
    if (!input)
        return NULL;
    int rc = cast_to_dtype(input, dtype, &cast);
    if (!rc)
        rc = usmarr_reduce(name, cast ? cast : input, naxes, which, keepdims, out == Py_None ? NULL : array_of(out), &r);
    if (out == Py_None)
        rc = result_in_dtype(rc, dtype, &r);
    usmarr_array_release(input);
    usmarr_array_release(cast);
    return array_wrap_result(rc, r);
}

#define REDUCTION(name)                                                                                            \
    static PyObject *py_##name(PyObject *self, PyObject *args, PyObject *kwargs) { return reduce_call(#name, args, kwargs); }
REDUCTION(sum)
REDUCTION(prod)
REDUCTION(mean)
REDUCTION(min)
REDUCTION(max)
REDUCTION(argmin)
REDUCTION(argmax)
REDUCTION(all)
REDUCTION(any)
REDUCTION(count_nonzero)

/* cumulative_sum(x, /, *, axis=None, dtype=None) */
static PyObject *py_cumulative_sum(PyObject *self, PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"x", "axis", "dtype", NULL};
    PyObject *x, *axis_obj = Py_None, *dtype_obj = Py_None;
    int dtype;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|$OO:cumulative_sum", keywords, &x, &axis_obj, &dtype_obj) ||
        dtype_from_object(dtype_obj, &dtype) < 0)
        return NULL;
    int axis = 0, *which = NULL;
    if (axis_obj != Py_None) {
        axis = PyLong_AsLong(axis_obj);
        if (axis == -1 && PyErr_Occurred())
            return NULL;
        which = &axis;
    }
    usmarr_array_t *input = convert_operand(x, NULL), *cast = NULL, *r = NULL;
    if (!input)
        return NULL;
    int rc = cast_to_dtype(input, dtype, &cast);
    if (!rc)
        rc = usmarr_cumulative_sum(cast ? cast : input, which, NULL, &r);
    rc = result_in_dtype(rc, dtype, &r);
    usmarr_array_release(input);
    usmarr_array_release(cast);
    return array_wrap_result(rc, r);
}

#define KW (METH_VARARGS | METH_KEYWORDS)
#define FN(f) (PyCFunction)(void (*)(void))(f)
PyMethodDef reduce_methods[] = {
    {"sum", FN(py_sum), KW, "sum(x, /, *, axis=None, dtype=None, keepdims=False, out=None)\n--\n\n"},
    {"prod", FN(py_prod), KW, "prod(x, /, *, axis=None, dtype=None, keepdims=False, out=None)\n--\n\n"},
    {"mean", FN(py_mean), KW, "mean(x, /, *, axis=None, keepdims=False, out=None)\n--\n\n"},
    {"min", FN(py_min), KW, "min(x, /, *, axis=None, keepdims=False, out=None)\n--\n\n"},
    {"max", FN(py_max), KW, "max(x, /, *, axis=None, keepdims=False, out=None)\n--\n\n"},
    {"argmin", FN(py_argmin), KW, "argmin(x, /, *, axis=None, keepdims=False, out=None)\n--\n\n"},
    {"argmax", FN(py_argmax), KW, "argmax(x, /, *, axis=None, keepdims=False, out=None)\n--\n\n"},
    {"all", FN(py_all), KW, "all(x, /, *, axis=None, keepdims=False, out=None)\n--\n\n"},
    {"any", FN(py_any), KW, "any(x, /, *, axis=None, keepdims=False, out=None)\n--\n\n"},
    {"count_nonzero", FN(py_count_nonzero), KW, "count_nonzero(x, /, *, axis=None, keepdims=False, out=None)\n--\n\n"},
    {"_cumulative_sum", FN(py_cumulative_sum), KW, "_cumulative_sum(x, /, *, axis=None, dtype=None)"},
    {NULL},
};
