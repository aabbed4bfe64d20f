/* The namespace's elementwise functions (include/usmarr/ops.h): every elementwise function
 * of the library, made at import from the library's own table (usmarr_elementwise_name),
 * and isclose and allclose.  Each is one library call.  isclose's Python scalars follow
 * NumPy's weak rule next to the other operand (a float scalar beside a float32 array is
 * float32). */
#include "module.h"

#include <stdio.h>
#include <string.h>

/* One library call of an elementwise function: its operands arrays (used as they are),
 * Python scalars (weak) or anything asarray takes (placed next to the first array). */
PyObject *array_elementwise(const char *name, PyObject *const *args, int nargs, PyObject *out)
{
    usmarr_operand_t operands[3];
    usmarr_array_t *owned[3] = {NULL, NULL, NULL};
    const usmarr_array_t *like = out && array_check(out) ? array_of(out) : NULL;
    PyObject *ret = NULL;
    if (nargs > 3) {
        PyErr_Format(PyExc_TypeError, "usmarr.%s takes at most 3 operands", name);
        return NULL;
    }
    if (out && !array_check(out)) {
        PyErr_Format(PyExc_TypeError, "usmarr.%s: out must be a usmarr.Array, not %R", name, out);
        return NULL;
    }
    for (int i = 0; i < nargs && !like; i++)
        if (array_check(args[i]))
            like = array_of(args[i]);
    for (int i = 0; i < nargs; i++) {
        operands[i].array = NULL;
        if (array_check(args[i])) {
            operands[i].array = array_of(args[i]);
            continue;
        }
        int s = scalar_from_object(args[i], &operands[i].scalar);
        if (s < 0)
            goto done;
        if (s == 0) {
            owned[i] = convert_operand(args[i], like);
            if (!owned[i])
                goto done;
            operands[i].array = owned[i];
            if (!like)
                like = owned[i];
        }
    }
    usmarr_array_t *result = NULL;
    int rc = usmarr_elementwise(name, operands, (size_t)nargs, out ? array_of(out) : NULL, &result);
    if (rc) {
        py_error(rc);
    } else if (out) {
        usmarr_array_release(result);
        ret = Py_NewRef(out);
    } else {
        ret = array_wrap(result);
    }
done:
    for (int i = 0; i < nargs; i++)
        usmarr_array_release(owned[i]);
    return ret;
}

/* ---- elementwise: one dispatcher, one PyMethodDef per library entry -------------------------------- */
#define MAX_ELEMENTWISE 160
static PyMethodDef elementwise_defs[MAX_ELEMENTWISE];
static char elementwise_docs[MAX_ELEMENTWISE][256]; /* each with its text signature (inspect.signature) */
static const char *elementwise_names[MAX_ELEMENTWISE];
static int elementwise_arity[MAX_ELEMENTWISE];

/* usmarr.<name>(x1, ..., /, *, out=None); self is the entry's index. */
static PyObject *elementwise_call(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    long i = PyLong_AsLong(self);
    PyObject *out = NULL;
    if (kwnames) {
        Py_ssize_t nkw = PyTuple_Size(kwnames);
        for (Py_ssize_t k = 0; k < nkw; k++) {
            PyObject *name = PyTuple_GetItem(kwnames, k);
            if (PyUnicode_CompareWithASCIIString(name, "out") != 0) {
                PyErr_Format(PyExc_TypeError, "usmarr.%s() got an unexpected keyword argument %R", elementwise_names[i],
                             name);
                return NULL;
            }
            out = args[nargs + k] == Py_None ? NULL : args[nargs + k];
        }
    }
    if (nargs != elementwise_arity[i]) {
        PyErr_Format(PyExc_TypeError, "usmarr.%s() takes %d positional arguments, %zd given", elementwise_names[i],
                     elementwise_arity[i], nargs);
        return NULL;
    }
    PyObject *t = traced(elementwise_names[i], args, nargs, NULL);
    if (t || PyErr_Occurred())
        return t;
    return array_elementwise(elementwise_names[i], args, (int)nargs, out);
}

/* The array API's names for functions the library names as NumPy does. */
static const struct {
    const char *alias, *name;
} elementwise_aliases[] = {
    {"bitwise_left_shift", "left_shift"},
    {"bitwise_right_shift", "right_shift"},
};

/* The array API's parameter names: x for one operand, x1 and x2 for two, where's own. */
static const char *elementwise_parameters(const char *name, int arity)
{
    if (!strcmp(name, "where"))
        return "condition, x1, x2";
    if (!strcmp(name, "clip"))
        return "x, min, max";
    return arity == 1 ? "x" : arity == 2 ? "x1, x2" : arity == 3 ? "x1, x2, x3" : NULL;
}

static int add_elementwise(PyObject *module, int index, const char *python_name)
{
    PyMethodDef *def = &elementwise_defs[index];
    const char *parameters = elementwise_parameters(elementwise_names[index], elementwise_arity[index]);
    if (!parameters) {
        PyErr_Format(PyExc_RuntimeError, "usmarr: the library's elementwise %s takes %d operands", python_name,
                     elementwise_arity[index]);
        return -1;
    }
    snprintf(elementwise_docs[index], sizeof elementwise_docs[index],
             "%s(%s, /, *, out=None)\n--\n\nThe library's elementwise function of this name: arrays or Python "
             "scalars (weak, as in the array API), out= an array to write.",
             python_name, parameters);
    def->ml_name = python_name;
    def->ml_meth = (PyCFunction)(void (*)(void))elementwise_call;
    def->ml_flags = METH_FASTCALL | METH_KEYWORDS;
    def->ml_doc = elementwise_docs[index];
    PyObject *self = PyLong_FromLong(index);
    PyObject *f = self ? PyCFunction_NewEx(def, self, NULL) : NULL;
    Py_XDECREF(self);
    if (!f)
        return -1;
    int rc = PyModule_AddObjectRef(module, python_name, f);
    Py_DECREF(f);
    return rc;
}

static int add_elementwise_table(PyObject *module)
{
    int count = 0;
    for (const char *name; (name = usmarr_elementwise_name(count)) != NULL; count++) {
        if (count >= MAX_ELEMENTWISE - (int)(sizeof elementwise_aliases / sizeof *elementwise_aliases)) {
            PyErr_SetString(PyExc_RuntimeError, "usmarr: the library lists more elementwise functions than expected");
            return -1;
        }
        elementwise_names[count] = name;
        elementwise_arity[count] = usmarr_elementwise_arity(name);
        if (add_elementwise(module, count, name) < 0)
            return -1;
    }
    int next = count;
    for (size_t a = 0; a < sizeof elementwise_aliases / sizeof *elementwise_aliases; a++) {
        int arity = usmarr_elementwise_arity(elementwise_aliases[a].name);
        if (arity < 0 || strcmp(elementwise_aliases[a].alias, elementwise_aliases[a].name) == 0)
            continue;
        elementwise_names[next] = elementwise_aliases[a].name;
        elementwise_arity[next] = arity;
        if (add_elementwise(module, next++, elementwise_aliases[a].alias) < 0)
            return -1;
    }
    return PyModule_AddIntConstant(module, "elementwise_count", count);
}

/* ---- isclose, allclose ---------------------------------------------------------------------------- */
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
static PyMethodDef ops_methods[] = {
    {"isclose", FN(py_isclose), KW, "isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False)\n--\n\nNumPy's isclose"},
    {"allclose", FN(py_allclose), KW, "allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False)\n--\n\nNumPy's allclose"},
    {NULL},
};

/* The elementwise functions, then isclose and allclose (over the table's entries of those
 * names, if it has any), added to `module`. */
int ops_init(PyObject *module)
{
    if (add_elementwise_table(module) < 0)
        return -1;
    return PyModule_AddFunctions(module, ops_methods);
}
