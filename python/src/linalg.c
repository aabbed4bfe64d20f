/* The namespace's linear algebra (include/usmarr/linalg.h): matmul, tensordot, vecdot and
 * matrix_transpose, each one library call.  usmarr.linalg (python/usmarr/linalg.py) offers the same functions. */
#include "module.h"

/* matmul(x1, x2, /, *, out=None) */
static PyObject *py_matmul(PyObject *self, PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"x1", "x2", "out", NULL};
    PyObject *x1, *x2, *out_obj = NULL;
    usmarr_array_t *out, *a, *b, *r = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OO|$O:matmul", keywords, &x1, &x2, &out_obj) ||
        out_from_object(out_obj, &out) < 0 || convert_operands(x1, x2, NULL, &a, &b) < 0)
        return NULL;
    int rc = usmarr_matmul(a, b, out, &r);
    usmarr_array_release(a);
    usmarr_array_release(b);
    return array_wrap_result(rc, r);
}

/* tensordot(x1, x2, /, *, axes=2, out=None): axes an int, or two sequences of paired axes */
static PyObject *py_tensordot(PyObject *self, PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"x1", "x2", "axes", "out", NULL};
    PyObject *x1, *x2, *axes_obj = NULL, *out_obj = NULL;
    usmarr_array_t *out, *a, *b, *r = NULL;
    int axes1[USMARR_MAX_NDIM], axes2[USMARR_MAX_NDIM], n1 = 2, n2 = 0, pairs = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OO|$OO:tensordot", keywords, &x1, &x2, &axes_obj, &out_obj) ||
        out_from_object(out_obj, &out) < 0)
        return NULL;
    if (axes_obj && PyLong_Check(axes_obj)) {
        long v = PyLong_AsLong(axes_obj);
        if (v == -1 && PyErr_Occurred())
            return NULL;
        if (v < 0) {
            PyErr_Format(PyExc_ValueError, "usmarr.tensordot: axes=%ld must be non-negative", v);
            return NULL;
        }
        n1 = v > USMARR_MAX_NDIM ? USMARR_MAX_NDIM + 1 : (int)v; /* too many either way: the library says so */
    } else if (axes_obj) {
        PyObject *first = PySequence_Check(axes_obj) && PySequence_Size(axes_obj) == 2 ? PySequence_GetItem(axes_obj, 0)
                                                                                         : NULL;
        PyObject *second = first ? PySequence_GetItem(axes_obj, 1) : NULL;
        int rc = second ? axes_from_object(first, axes1, &n1, USMARR_MAX_NDIM) : -1;
        if (!rc)
            rc = axes_from_object(second, axes2, &n2, USMARR_MAX_NDIM);
        Py_XDECREF(first);
        Py_XDECREF(second);
        if (rc < 0) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_TypeError, "usmarr.tensordot: axes must be an int or a pair of axis sequences");
            return NULL;
        }
        if (n1 != n2) {
            PyErr_Format(PyExc_ValueError, "usmarr.tensordot: axes pairs %d axes of x1 with %d of x2", n1, n2);
            return NULL;
        }
        pairs = 1;
    }
    if (convert_operands(x1, x2, NULL, &a, &b) < 0)
        return NULL;
    int rc = usmarr_tensordot(a, b, n1, pairs ? axes1 : NULL, pairs ? axes2 : NULL, out, &r);
    usmarr_array_release(a);
    usmarr_array_release(b);
    return array_wrap_result(rc, r);
}

/* vecdot(x1, x2, /, *, axis=-1, out=None) */
static PyObject *py_vecdot(PyObject *self, PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"x1", "x2", "axis", "out", NULL};
    PyObject *x1, *x2, *out_obj = NULL;
    usmarr_array_t *out, *a, *b, *r = NULL;
    int axis = -1;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OO|$iO:vecdot", keywords, &x1, &x2, &axis, &out_obj) ||
        out_from_object(out_obj, &out) < 0 || convert_operands(x1, x2, NULL, &a, &b) < 0)
        return NULL;
    int rc = usmarr_vecdot(a, b, axis, out, &r);
    usmarr_array_release(a);
    usmarr_array_release(b);
    return array_wrap_result(rc, r);
}

/* matrix_transpose(x, /): a view */
static PyObject *py_matrix_transpose(PyObject *self, PyObject *x)
{
    usmarr_array_t *a = convert_operand(x, NULL), *r = NULL;
    if (!a)
        return NULL;
    int rc = usmarr_matrix_transpose(a, &r);
    usmarr_array_release(a);
    return array_wrap_result(rc, r);
}

#define KW (METH_VARARGS | METH_KEYWORDS)
#define FN(f) (PyCFunction)(void (*)(void))(f)
PyMethodDef linalg_methods[] = {
    {"matmul", FN(py_matmul), KW, "matmul(x1, x2, /, *, out=None)\n--\n\n"},
    {"tensordot", FN(py_tensordot), KW, "tensordot(x1, x2, /, *, axes=2, out=None)\n--\n\n"},
    {"vecdot", FN(py_vecdot), KW, "vecdot(x1, x2, /, *, axis=-1, out=None)\n--\n\n"},
    {"matrix_transpose", FN(py_matrix_transpose), METH_O, "matrix_transpose(x, /)\n--\n\nA view"},
    {NULL},
};
