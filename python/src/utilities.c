/* tril, triu, isclose and allclose (include/usmarr/view.h, ops.h), each one library call.
 * isclose's Python scalars follow NumPy's weak rule next to the other operand (a float
 * scalar beside a float32 array is float32). */
#include "module.h"

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

/* A Python bool, int, float or complex next to the array `other`: other's dtype when it
 * is inexact (the complex dtype of its precision for a complex scalar), else float64 or
 * complex128, as NumPy's isclose computes. */
static usmarr_array_t *close_operand(PyObject *obj, const usmarr_array_t *other)
{
    if (!other || !(PyBool_Check(obj) || PyLong_Check(obj) || PyFloat_Check(obj) || PyComplex_Check(obj)))
        return convert_operand(obj, other);
    usmarr_dtype_t od = usmarr_array_dtype(other);
    usmarr_kind_t k = usmarr_dtype_kind(od);
    bool inexact = k == USMARR_KIND_FLOAT || k == USMARR_KIND_COMPLEX;
    int dtype = inexact ? (int)od : USMARR_FLOAT64;
    if (PyComplex_Check(obj))
        dtype = od == USMARR_FLOAT16 || od == USMARR_FLOAT32 || od == USMARR_COMPLEX64 ? USMARR_COMPLEX64
                                                                                       : USMARR_COMPLEX128;
    DeviceObject *device = device_of_context(usmarr_array_context(other));
    return device ? convert_to_array(obj, device, dtype, -1, 0) : NULL;
}

static int close_operands(PyObject *a_obj, PyObject *b_obj, usmarr_array_t **a, usmarr_array_t **b)
{
    bool b_first = !array_check(a_obj) && array_check(b_obj);
    if (b_first) {
        *b = convert_operand(b_obj, NULL);
        *a = *b ? close_operand(a_obj, *b) : NULL;
    } else {
        *a = convert_operand(a_obj, NULL);
        *b = *a ? close_operand(b_obj, *a) : NULL;
    }
    if (*a && *b)
        return 0;
    usmarr_array_release(*a);
    usmarr_array_release(*b);
    return -1;
}

/* isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False) and allclose(...) */
static PyObject *close_call(PyObject *args, PyObject *kwargs, int all)
{
    static char *keywords[] = {"a", "b", "rtol", "atol", "equal_nan", NULL};
    PyObject *a_obj, *b_obj;
    double rtol = 1e-5, atol = 1e-8;
    int equal_nan = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, all ? "OO|ddp:allclose" : "OO|ddp:isclose", keywords, &a_obj,
                                     &b_obj, &rtol, &atol, &equal_nan))
        return NULL;
    usmarr_array_t *a, *b, *r = NULL;
    if (close_operands(a_obj, b_obj, &a, &b) < 0)
        return NULL;
    bool every = false;
    int rc = all ? usmarr_allclose(a, b, rtol, atol, equal_nan, &every)
                 : usmarr_isclose(a, b, rtol, atol, equal_nan, NULL, &r);
    usmarr_array_release(a);
    usmarr_array_release(b);
    if (all && !rc)
        return PyBool_FromLong(every);
    return array_wrap_result(rc, r);
}

static PyObject *py_isclose(PyObject *self, PyObject *args, PyObject *kwargs) { return close_call(args, kwargs, 0); }
static PyObject *py_allclose(PyObject *self, PyObject *args, PyObject *kwargs) { return close_call(args, kwargs, 1); }

#define KW (METH_VARARGS | METH_KEYWORDS)
#define FN(f) (PyCFunction)(void (*)(void))(f)
PyMethodDef utilities_methods[] = {
    {"tril", FN(py_tril), KW, "tril(x, /, *, k=0, out=None)\n--\n\nx with the elements above diagonal k zeroed"},
    {"triu", FN(py_triu), KW, "triu(x, /, *, k=0, out=None)\n--\n\nx with the elements below diagonal k zeroed"},
    {"isclose", FN(py_isclose), KW, "isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False)\n--\n\nNumPy's isclose"},
    {"allclose", FN(py_allclose), KW, "allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False)\n--\n\nNumPy's allclose"},
    {NULL},
};
