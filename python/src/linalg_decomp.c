/* The decompositions of usmarr.linalg (include/usmarr/linalg.h): qr, svd, svdvals, eigh,
 * eigvalsh, matrix_rank and pinv, each one library call, in the submodule _usmarr._linalg
 * (linalg.c); python/usmarr/linalg.py wraps several results in NumPy's named tuples. */
#include "module.h"

#include <string.h>

/* A tuple of the arrays of a successful call (references taken), or the call's exception. */
static PyObject *wrap_results(int rc, usmarr_array_t **arrays, int n)
{
    if (rc)
        return py_error(rc);
    PyObject *t = PyTuple_New(n);
    for (int i = 0; i < n; i++) {
        PyObject *a = t ? array_wrap(arrays[i]) : NULL;
        if (!a) {
            for (int j = i + (t ? 1 : 0); j < n; j++)
                usmarr_array_release(arrays[j]);
            Py_XDECREF(t);
            return NULL;
        }
        PyTuple_SetItem(t, i, a); /* steals a */
    }
    return t;
}

/* qr(x, mode): mode "reduced" or "complete" */
static PyObject *py_qr(PyObject *self, PyObject *args)
{
    PyObject *x;
    const char *mode;
    if (!PyArg_ParseTuple(args, "Os:qr", &x, &mode))
        return NULL;
    usmarr_qr_mode_t m;
    if (!strcmp(mode, "reduced"))
        m = USMARR_QR_REDUCED;
    else if (!strcmp(mode, "complete"))
        m = USMARR_QR_COMPLETE;
    else {
        PyErr_Format(PyExc_ValueError, "usmarr.linalg.qr: mode='%s' is neither 'reduced' nor 'complete'", mode);
        return NULL;
    }
    usmarr_array_t *a = convert_operand(x, NULL), *r[2] = {NULL, NULL};
    if (!a)
        return NULL;
    int rc = usmarr_linalg_qr(a, m, &r[0], &r[1]);
    usmarr_array_release(a);
    return wrap_results(rc, r, 2);
}

/* svd(x, full_matrices) */
static PyObject *py_svd(PyObject *self, PyObject *args)
{
    PyObject *x;
    int full;
    if (!PyArg_ParseTuple(args, "Op:svd", &x, &full))
        return NULL;
    usmarr_array_t *a = convert_operand(x, NULL), *r[3] = {NULL, NULL, NULL};
    if (!a)
        return NULL;
    int rc = usmarr_linalg_svd(a, full != 0, &r[0], &r[1], &r[2]);
    usmarr_array_release(a);
    return wrap_results(rc, r, 3);
}

/* eigh(x) */
static PyObject *py_eigh(PyObject *self, PyObject *x)
{
    usmarr_array_t *a = convert_operand(x, NULL), *r[2] = {NULL, NULL};
    if (!a)
        return NULL;
    int rc = usmarr_linalg_eigh(a, &r[0], &r[1]);
    usmarr_array_release(a);
    return wrap_results(rc, r, 2);
}

/* svdvals(x) and eigvalsh(x) */
static PyObject *values(PyObject *x, int (*fn)(const usmarr_array_t *, usmarr_array_t *, usmarr_array_t **))
{
    usmarr_array_t *a = convert_operand(x, NULL), *r = NULL;
    if (!a)
        return NULL;
    int rc = fn(a, NULL, &r);
    usmarr_array_release(a);
    return array_wrap_result(rc, r);
}

static PyObject *py_svdvals(PyObject *self, PyObject *x)
{
    return values(x, usmarr_linalg_svdvals);
}

static PyObject *py_eigvalsh(PyObject *self, PyObject *x)
{
    return values(x, usmarr_linalg_eigvalsh);
}

/* matrix_rank(x, rtol) and pinv(x, rtol): rtol None, a number or an array */
static PyObject *with_rtol(PyObject *args, const char *format,
                           int (*fn)(const usmarr_array_t *, const usmarr_array_t *, usmarr_array_t *,
                                     usmarr_array_t **))
{
    PyObject *x, *rtol_obj;
    if (!PyArg_ParseTuple(args, format, &x, &rtol_obj))
        return NULL;
    usmarr_array_t *a = convert_operand(x, NULL), *rtol = NULL, *r = NULL;
    if (!a)
        return NULL;
    if (rtol_obj != Py_None && !(rtol = convert_operand(rtol_obj, a))) {
        usmarr_array_release(a);
        return NULL;
    }
    int rc = fn(a, rtol, NULL, &r);
    usmarr_array_release(a);
    usmarr_array_release(rtol);
    return array_wrap_result(rc, r);
}

static PyObject *py_matrix_rank(PyObject *self, PyObject *args)
{
    return with_rtol(args, "OO:matrix_rank", usmarr_linalg_matrix_rank);
}

static PyObject *py_pinv(PyObject *self, PyObject *args)
{
    return with_rtol(args, "OO:pinv", usmarr_linalg_pinv);
}

PyMethodDef linalg_decomp_methods[] = {
    {"qr", py_qr, METH_VARARGS, "qr(x, mode, /)\n--\n\n(Q, R)"},
    {"svd", py_svd, METH_VARARGS, "svd(x, full_matrices, /)\n--\n\n(U, S, Vh)"},
    {"svdvals", py_svdvals, METH_O, "svdvals(x, /)\n--\n\n"},
    {"eigh", py_eigh, METH_O, "eigh(x, /)\n--\n\n(eigenvalues, eigenvectors)"},
    {"eigvalsh", py_eigvalsh, METH_O, "eigvalsh(x, /)\n--\n\n"},
    {"matrix_rank", py_matrix_rank, METH_VARARGS, "matrix_rank(x, rtol, /)\n--\n\n"},
    {"pinv", py_pinv, METH_VARARGS, "pinv(x, rtol, /)\n--\n\n"},
    {NULL},
};
