/* The namespace's linear algebra (include/usmarr/linalg.h): matmul, tensordot, vecdot and
 * matrix_transpose, each one library call; usmarr.linalg (python/usmarr/linalg.py) offers
 * the same functions.  The extension's own functions (det, inv, solve, ...) live in the
 * submodule usmarr._usmarr._linalg, which python/usmarr/linalg.py re-exports, so that they
 * do not enter the main namespace. */
#include "module.h"

#include <math.h>

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

/* ---- the extension (usmarr._usmarr._linalg) ------------------------------------------------ */

/* f(x, /) for a function of one stack with the result convention */
static PyObject *unary(PyObject *x, int (*fn)(const usmarr_array_t *, usmarr_array_t *, usmarr_array_t **))
{
    usmarr_array_t *a = convert_operand(x, NULL), *r = NULL;
    if (!a)
        return NULL;
    int rc = fn(a, NULL, &r);
    usmarr_array_release(a);
    return array_wrap_result(rc, r);
}

static PyObject *py_det(PyObject *self, PyObject *x)
{
    return unary(x, usmarr_linalg_det);
}

static PyObject *py_inv(PyObject *self, PyObject *x)
{
    return unary(x, usmarr_linalg_inv);
}

/* slogdet(x, /): the pair (sign, logabsdet); linalg.py names it */
static PyObject *py_slogdet(PyObject *self, PyObject *x)
{
    usmarr_array_t *a = convert_operand(x, NULL), *sign = NULL, *logabs = NULL;
    if (!a)
        return NULL;
    int rc = usmarr_linalg_slogdet(a, &sign, &logabs);
    usmarr_array_release(a);
    if (rc)
        return py_error(rc);
    PyObject *s = array_wrap(sign), *l = array_wrap(logabs);
    PyObject *pair = s && l ? PyTuple_Pack(2, s, l) : NULL;
    Py_XDECREF(s);
    Py_XDECREF(l);
    return pair;
}

/* solve(x1, x2, /) */
static PyObject *py_solve(PyObject *self, PyObject *args)
{
    PyObject *x1, *x2;
    usmarr_array_t *a, *b, *r = NULL;
    if (!PyArg_ParseTuple(args, "OO:solve", &x1, &x2) || convert_operands(x1, x2, NULL, &a, &b) < 0)
        return NULL;
    int rc = usmarr_linalg_solve(a, b, NULL, &r);
    usmarr_array_release(a);
    usmarr_array_release(b);
    return array_wrap_result(rc, r);
}

/* cholesky(x, /, *, upper=False) */
static PyObject *py_cholesky(PyObject *self, PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"x", "upper", NULL};
    PyObject *x;
    int upper = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|$p:cholesky", keywords, &x, &upper))
        return NULL;
    usmarr_array_t *a = convert_operand(x, NULL), *r = NULL;
    if (!a)
        return NULL;
    int rc = usmarr_linalg_cholesky(a, upper, NULL, &r);
    usmarr_array_release(a);
    return array_wrap_result(rc, r);
}

/* matrix_power(x, n, /) */
static PyObject *py_matrix_power(PyObject *self, PyObject *args)
{
    PyObject *x;
    long long n;
    if (!PyArg_ParseTuple(args, "OL:matrix_power", &x, &n))
        return NULL;
    usmarr_array_t *a = convert_operand(x, NULL), *r = NULL;
    if (!a)
        return NULL;
    int rc = usmarr_linalg_matrix_power(a, n, NULL, &r);
    usmarr_array_release(a);
    return array_wrap_result(rc, r);
}

/* diagonal(x, /, *, offset=0): a view */
static PyObject *py_diagonal(PyObject *self, PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"x", "offset", NULL};
    PyObject *x;
    long long offset = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|$L:diagonal", keywords, &x, &offset))
        return NULL;
    usmarr_array_t *a = convert_operand(x, NULL), *r = NULL;
    if (!a)
        return NULL;
    int rc = usmarr_linalg_diagonal(a, offset, &r);
    usmarr_array_release(a);
    return array_wrap_result(rc, r);
}

/* trace(x, /, *, offset=0, dtype=None) */
static PyObject *py_trace(PyObject *self, PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"x", "offset", "dtype", NULL};
    PyObject *x, *dtype_obj = Py_None;
    long long offset = 0;
    int dtype;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|$LO:trace", keywords, &x, &offset, &dtype_obj) ||
        dtype_from_object(dtype_obj, &dtype) < 0)
        return NULL;
    usmarr_array_t *a = convert_operand(x, NULL), *r = NULL;
    if (!a)
        return NULL;
    int rc = usmarr_linalg_trace(a, offset, dtype, NULL, &r);
    usmarr_array_release(a);
    return array_wrap_result(rc, r);
}

/* outer(x1, x2, /) */
static PyObject *py_outer(PyObject *self, PyObject *args)
{
    PyObject *x1, *x2;
    usmarr_array_t *a, *b, *r = NULL;
    if (!PyArg_ParseTuple(args, "OO:outer", &x1, &x2) || convert_operands(x1, x2, NULL, &a, &b) < 0)
        return NULL;
    int rc = usmarr_linalg_outer(a, b, NULL, &r);
    usmarr_array_release(a);
    usmarr_array_release(b);
    return array_wrap_result(rc, r);
}

/* cross(x1, x2, /, *, axis=-1) */
static PyObject *py_cross(PyObject *self, PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"x1", "x2", "axis", NULL};
    PyObject *x1, *x2;
    int axis = -1;
    usmarr_array_t *a, *b, *r = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OO|$i:cross", keywords, &x1, &x2, &axis) ||
        convert_operands(x1, x2, NULL, &a, &b) < 0)
        return NULL;
    int rc = usmarr_linalg_cross(a, b, axis, NULL, &r);
    usmarr_array_release(a);
    usmarr_array_release(b);
    return rc == USMARR_ERROR_INDEX ? (usmarr_array_release(r), py_axis_error(USMARR_ERROR_INVALID_ARGUMENT))
                                    : array_wrap_result(rc, r);
}

/* A real number or +-inf for ord; -1 with an exception. */
static int ord_from_object(PyObject *obj, const char *fn, double *ord)
{
    if (PyBool_Check(obj) || !PyNumber_Check(obj) || PyComplex_Check(obj)) {
        PyErr_Format(PyExc_ValueError, "usmarr.linalg.%s: ord must be a real number, not %R", fn, obj);
        return -1;
    }
    *ord = PyFloat_AsDouble(obj);
    return *ord == -1 && PyErr_Occurred() ? -1 : 0;
}

/* vector_norm(x, /, *, axis=None, keepdims=False, ord=2) */
static PyObject *py_vector_norm(PyObject *self, PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"x", "axis", "keepdims", "ord", NULL};
    PyObject *x, *axis = Py_None, *ord_obj = NULL;
    int keepdims = 0, axes[USMARR_MAX_NDIM], naxes = 0;
    double ord = 2;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|$OpO:vector_norm", keywords, &x, &axis, &keepdims, &ord_obj) ||
        (ord_obj && ord_from_object(ord_obj, "vector_norm", &ord) < 0) ||
        (axis != Py_None && axes_from_object(axis, axes, &naxes, USMARR_MAX_NDIM) < 0))
        return NULL;
    usmarr_array_t *a = convert_operand(x, NULL), *r = NULL;
    if (!a)
        return NULL;
    int rc = usmarr_linalg_vector_norm(a, naxes, axis == Py_None ? NULL : axes, keepdims, ord, NULL, &r);
    usmarr_array_release(a);
    return rc == USMARR_ERROR_INDEX ? (usmarr_array_release(r), py_axis_error(USMARR_ERROR_INVALID_ARGUMENT))
                                    : array_wrap_result(rc, r);
}

/* matrix_norm(x, /, *, keepdims=False, ord='fro') */
static PyObject *py_matrix_norm(PyObject *self, PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"x", "keepdims", "ord", NULL};
    PyObject *x, *ord_obj = NULL;
    int keepdims = 0;
    usmarr_matrix_norm_t ord = USMARR_NORM_FRO;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|$pO:matrix_norm", keywords, &x, &keepdims, &ord_obj))
        return NULL;
    if (ord_obj && PyUnicode_Check(ord_obj)) {
        if (!PyUnicode_CompareWithASCIIString(ord_obj, "fro"))
            ord = USMARR_NORM_FRO;
        else if (!PyUnicode_CompareWithASCIIString(ord_obj, "nuc"))
            ord = USMARR_NORM_NUC;
        else
            return PyErr_Format(PyExc_ValueError, "usmarr.linalg.matrix_norm: ord %R is not 'fro', 'nuc' or a number",
                                ord_obj);
    } else if (ord_obj) {
        double v;
        if (ord_from_object(ord_obj, "matrix_norm", &v) < 0)
            return NULL;
        ord = v == 1 ? USMARR_NORM_ONE : v == -1 ? USMARR_NORM_MINUS_ONE : v == 2 ? USMARR_NORM_TWO
            : v == -2 ? USMARR_NORM_MINUS_TWO : v == INFINITY ? USMARR_NORM_INF : v == -INFINITY ? USMARR_NORM_MINUS_INF
                      : (usmarr_matrix_norm_t)-1;
        if ((int)ord == -1)
            return PyErr_Format(PyExc_ValueError,
                                "usmarr.linalg.matrix_norm: ord %R is not one of 'fro', 'nuc', 1, -1, 2, -2, inf, -inf",
                                ord_obj);
    }
    usmarr_array_t *a = convert_operand(x, NULL), *r = NULL;
    if (!a)
        return NULL;
    int rc = usmarr_linalg_matrix_norm(a, ord, keepdims, NULL, &r);
    usmarr_array_release(a);
    return array_wrap_result(rc, r);
}

static PyMethodDef extension_methods[] = {
    {"det", py_det, METH_O, "det(x, /)\n--\n\nThe determinant of each matrix of the stack."},
    {"slogdet", py_slogdet, METH_O, "slogdet(x, /)\n--\n\nThe pair (sign, logabsdet) of each determinant."},
    {"inv", py_inv, METH_O, "inv(x, /)\n--\n\nThe inverse of each matrix of the stack."},
    {"solve", py_solve, METH_VARARGS, "solve(x1, x2, /)\n--\n\nThe solution of x1 @ x = x2 (x2 a stack of matrices unless 1-D)."},
    {"cholesky", FN(py_cholesky), KW, "cholesky(x, /, *, upper=False)\n--\n\nThe Cholesky factor of each matrix."},
    {"matrix_power", py_matrix_power, METH_VARARGS, "matrix_power(x, n, /)\n--\n\nEach matrix raised to the integer power n."},
    {"diagonal", FN(py_diagonal), KW, "diagonal(x, /, *, offset=0)\n--\n\nThe diagonal of each matrix, a view."},
    {"trace", FN(py_trace), KW, "trace(x, /, *, offset=0, dtype=None)\n--\n\nThe sum of each matrix's diagonal."},
    {"outer", py_outer, METH_VARARGS, "outer(x1, x2, /)\n--\n\nThe outer product of two vectors."},
    {"cross", FN(py_cross), KW, "cross(x1, x2, /, *, axis=-1)\n--\n\nThe cross product of 3-vectors along axis."},
    {"vector_norm", FN(py_vector_norm), KW,
     "vector_norm(x, /, *, axis=None, keepdims=False, ord=2)\n--\n\nThe vector norm over axis."},
    {"matrix_norm", FN(py_matrix_norm), KW,
     "matrix_norm(x, /, *, keepdims=False, ord='fro')\n--\n\nThe matrix norm of each matrix."},
    {NULL},
};

static struct PyModuleDef extension_def = {
    PyModuleDef_HEAD_INIT, "usmarr._usmarr._linalg", "The linear algebra extension's functions.", -1, extension_methods,
    NULL, NULL, NULL, NULL,
};

/* usmarr._usmarr._linalg, added to `m` */
int linalg_init(PyObject *m)
{
    PyObject *sub = PyModule_Create(&extension_def);
    if (!sub)
        return -1;
    int rc = PyModule_AddFunctions(sub, linalg_decomp_methods);
    if (!rc)
        rc = PyModule_AddObjectRef(m, "_linalg", sub);
    Py_DECREF(sub);
    return rc;
}
