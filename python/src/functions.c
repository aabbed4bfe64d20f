/* The namespace's computing functions: every elementwise function of the library, made at
 * import from the library's own table (usmarr_elementwise_name), the reductions from one
 * table, and the type rules, gathers and scatters.  Each is one library call. */
#include "module.h"

#include <stdio.h>
#include <string.h>

/* ---- elementwise: one dispatcher, one PyMethodDef per library entry -------------------------------- */
#define MAX_ELEMENTWISE 160
static PyMethodDef elementwise_defs[MAX_ELEMENTWISE];
static char elementwise_docs[MAX_ELEMENTWISE][256]; /* each with its text signature (inspect.signature) */
static const char *elementwise_names[MAX_ELEMENTWISE];
static int elementwise_arity[MAX_ELEMENTWISE];

/* usmarr.fuse's tracer among the arguments: it records the call instead, through its
 * method __usmarr_function__(name, args, kwargs), as NumPy's __array_function__ lets a type
 * take a function over.  Arrays and Python numbers are never tracers (no attribute lookup
 * on the common path).  Returns the tracer's result, or NULL without an exception when no
 * argument is a tracer (with one when the lookup or the call failed). */
static PyObject *traced(const char *name, PyObject *const *args, Py_ssize_t nargs, PyObject *kwargs)
{
    for (Py_ssize_t i = 0; i < nargs; i++) {
        PyObject *a = args[i];
        if (array_check(a) || PyLong_CheckExact(a) || PyFloat_CheckExact(a) || PyBool_Check(a) ||
            PyComplex_CheckExact(a) || a == Py_None)
            continue;
        PyObject *method = PyObject_GetAttrString(a, "__usmarr_function__");
        if (!method) {
            if (!PyErr_ExceptionMatches(PyExc_AttributeError))
                return NULL;
            PyErr_Clear();
            continue;
        }
        PyObject *tuple = PyTuple_New(nargs), *r = NULL;
        for (Py_ssize_t k = 0; tuple && k < nargs; k++)
            PyTuple_SetItem(tuple, k, Py_NewRef(args[k]));
        if (tuple)
            r = PyObject_CallFunction(method, "sOO", name, tuple, kwargs ? kwargs : Py_None);
        Py_XDECREF(tuple);
        Py_DECREF(method);
        return r ? r : (PyErr_Occurred() ? NULL : Py_NewRef(Py_None));
    }
    return NULL;
}

/* The same for a METH_VARARGS | METH_KEYWORDS function. */
static PyObject *traced_tuple(const char *name, PyObject *args, PyObject *kwargs)
{
    Py_ssize_t n = PyTuple_Size(args);
    PyObject *items[8];
    if (n > 8)
        return NULL;
    for (Py_ssize_t i = 0; i < n; i++)
        items[i] = PyTuple_GetItem(args, i);
    return traced(name, items, n, kwargs);
}

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

int functions_add_elementwise(PyObject *module)
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

/* ---- reductions: one table --------------------------------------------------------------------------- */
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
    int rc = 0;
    /* dtype=: compute in it (the array API's sum/prod/cumulative_sum dtype argument). */
    if (dtype >= 0 && dtype != (int)usmarr_array_dtype(input))
        rc = usmarr_array_astype(input, (usmarr_dtype_t)dtype, USMARR_ORDER_K, NULL, &cast);
    if (!rc)
        rc = usmarr_reduce(name, cast ? cast : input, naxes, which, keepdims, out == Py_None ? NULL : array_of(out), &r);
    if (!rc && dtype >= 0 && out == Py_None && (int)usmarr_array_dtype(r) != dtype) {
        usmarr_array_t *converted = NULL;
        rc = usmarr_array_astype(r, (usmarr_dtype_t)dtype, USMARR_ORDER_K, NULL, &converted);
        usmarr_array_release(r);
        r = converted;
    }
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
    int rc = 0;
    if (dtype >= 0 && dtype != (int)usmarr_array_dtype(input))
        rc = usmarr_array_astype(input, (usmarr_dtype_t)dtype, USMARR_ORDER_K, NULL, &cast);
    if (!rc)
        rc = usmarr_cumulative_sum(cast ? cast : input, which, NULL, &r);
    if (!rc && dtype >= 0 && (int)usmarr_array_dtype(r) != dtype) {
        usmarr_array_t *converted = NULL;
        rc = usmarr_array_astype(r, (usmarr_dtype_t)dtype, USMARR_ORDER_K, NULL, &converted);
        usmarr_array_release(r);
        r = converted;
    }
    usmarr_array_release(input);
    usmarr_array_release(cast);
    return array_wrap_result(rc, r);
}

/* ---- type rules ----------------------------------------------------------------------------------------- */
static int dtype_or_array(PyObject *obj, int *dtype)
{
    if (array_check(obj)) {
        *dtype = usmarr_array_dtype(array_of(obj));
        return 0;
    }
    if (dtype_from_object(obj, dtype) < 0)
        return -1;
    if (*dtype < 0) {
        PyErr_SetString(PyExc_TypeError, "usmarr: None is not a dtype");
        return -1;
    }
    return 0;
}

static int casting_from_object(PyObject *obj, usmarr_casting_t *casting)
{
    static const char *names[] = {"no", "equiv", "safe", "same_kind", "unsafe"};
    *casting = USMARR_CASTING_SAFE;
    if (!obj)
        return 0;
    for (int i = 0; i < 5; i++)
        if (PyUnicode_Check(obj) && PyUnicode_CompareWithASCIIString(obj, names[i]) == 0)
            return *casting = (usmarr_casting_t)i, 0;
    PyErr_Format(PyExc_ValueError, "usmarr: casting must be 'no', 'equiv', 'safe', 'same_kind' or 'unsafe', not %R", obj);
    return -1;
}

/* can_cast(from_, to, /, casting='safe') */
static PyObject *py_can_cast(PyObject *self, PyObject *args)
{
    PyObject *from, *to, *casting_obj = NULL;
    int a, b;
    usmarr_casting_t casting;
    if (!PyArg_ParseTuple(args, "OO|O:can_cast", &from, &to, &casting_obj) || dtype_or_array(from, &a) < 0 ||
        dtype_or_array(to, &b) < 0 || casting_from_object(casting_obj, &casting) < 0)
        return NULL;
    return PyBool_FromLong(usmarr_can_cast((usmarr_dtype_t)a, (usmarr_dtype_t)b, casting));
}

/* result_type(*arrays_and_dtypes): Python scalars take part as weak scalars. */
static PyObject *py_result_type(PyObject *self, PyObject *args)
{
    Py_ssize_t n = PyTuple_Size(args);
    if (n > 64) {
        PyErr_SetString(PyExc_ValueError, "usmarr.result_type: at most 64 operands");
        return NULL;
    }
    usmarr_dtype_t dtypes[64];
    usmarr_scalar_t scalars[64];
    size_t ndtypes = 0, nscalars = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *o = PyTuple_GetItem(args, i);
        int s = scalar_from_object(o, &scalars[nscalars]), d;
        if (s < 0)
            return NULL;
        if (s) {
            nscalars++;
            continue;
        }
        if (dtype_or_array(o, &d) < 0)
            return NULL;
        dtypes[ndtypes++] = (usmarr_dtype_t)d;
    }
    usmarr_dtype_t r;
    int rc = usmarr_result_type(dtypes, ndtypes, scalars, nscalars, &r);
    if (rc)
        return py_error(rc);
    return Py_NewRef(dtype_object(r));
}

static PyObject *py_promote_types(PyObject *self, PyObject *args)
{
    PyObject *x, *y;
    int a, b;
    if (!PyArg_ParseTuple(args, "OO:promote_types", &x, &y) || dtype_or_array(x, &a) < 0 || dtype_or_array(y, &b) < 0)
        return NULL;
    usmarr_dtype_t r;
    int rc = usmarr_promote_types((usmarr_dtype_t)a, (usmarr_dtype_t)b, &r);
    if (rc)
        return py_error(rc);
    return Py_NewRef(dtype_object(r));
}

/* _finfo(dtype, /): (bits, eps, max, min, smallest_normal, dtype) of usmarr_finfo */
static PyObject *py_finfo(PyObject *self, PyObject *dtype_obj)
{
    int dtype;
    usmarr_finfo_t info;
    if (dtype_or_array(dtype_obj, &dtype) < 0)
        return NULL;
    int rc = usmarr_finfo((usmarr_dtype_t)dtype, &info);
    if (rc)
        return py_error(rc);
    return Py_BuildValue("(iddddO)", info.bits, info.eps, info.max, info.min, info.smallest_normal,
                         dtype_object(info.dtype));
}

/* _iinfo(dtype, /): (bits, min, max, dtype) of usmarr_iinfo */
static PyObject *py_iinfo(PyObject *self, PyObject *dtype_obj)
{
    int dtype;
    usmarr_iinfo_t info;
    if (dtype_or_array(dtype_obj, &dtype) < 0)
        return NULL;
    int rc = usmarr_iinfo((usmarr_dtype_t)dtype, &info);
    if (rc)
        return py_error(rc);
    return Py_BuildValue("(iLKO)", info.bits, (long long)info.min, (unsigned long long)info.max,
                         dtype_object(info.dtype));
}

/* isdtype(dtype, kind): kind a kind name, a dtype, or a tuple of them (joined with commas,
 * the library's form of the tuple) */
static PyObject *py_isdtype(PyObject *self, PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"dtype", "kind", NULL};
    PyObject *dtype_obj, *kind;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OO:isdtype", keywords, &dtype_obj, &kind))
        return NULL;
    if (!PyObject_TypeCheck(dtype_obj, DType_Type)) {
        PyErr_Format(PyExc_TypeError, "usmarr.isdtype: %R is not a usmarr dtype", dtype_obj);
        return NULL;
    }
    if (PyTuple_Check(kind) && PyTuple_Size(kind) == 0)
        Py_RETURN_FALSE; /* of no kind */
    PyObject *items = PyTuple_Check(kind) ? Py_NewRef(kind) : PyTuple_Pack(1, kind);
    PyObject *names = items ? PyList_New(0) : NULL;
    for (Py_ssize_t i = 0; names && i < PyTuple_Size(items); i++) {
        PyObject *item = PyTuple_GetItem(items, i), *name = NULL;
        if (PyUnicode_Check(item) && PyUnicode_FindChar(item, ',', 0, PyUnicode_GetLength(item), 1) < 0)
            name = Py_NewRef(item);
        else if (PyObject_TypeCheck(item, DType_Type))
            name = PyUnicode_FromString(usmarr_dtype_name(((DTypeObject *)item)->num));
        else
            PyErr_Format(PyExc_TypeError, "usmarr.isdtype: kind must be a kind name, a dtype or a tuple of them, not %R",
                         item);
        if (!name || PyList_Append(names, name) < 0)
            Py_CLEAR(names);
        Py_XDECREF(name);
    }
    Py_XDECREF(items);
    PyObject *comma = names ? PyUnicode_FromString(",") : NULL;
    PyObject *joined = comma ? PyUnicode_Join(comma, names) : NULL;
    Py_XDECREF(comma);
    Py_XDECREF(names);
    const char *text = joined ? PyUnicode_AsUTF8AndSize(joined, NULL) : NULL;
    bool result = false;
    int rc = text ? usmarr_isdtype(((DTypeObject *)dtype_obj)->num, text, &result) : 0;
    Py_XDECREF(joined);
    if (!text)
        return NULL;
    if (rc)
        return py_error(rc);
    return PyBool_FromLong(result);
}

/* astype(x, dtype, /, *, copy=True, device=None) */
static PyObject *py_astype(PyObject *self, PyObject *args, PyObject *kwargs)
{
    PyObject *t = traced_tuple("astype", args, kwargs);
    if (t || PyErr_Occurred())
        return t;
    static char *keywords[] = {"x", "dtype", "copy", "device", NULL};
    PyObject *x, *dtype_obj, *device_obj = Py_None;
    int copy = 1, dtype;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OO|$pO:astype", keywords, &x, &dtype_obj, &copy, &device_obj) ||
        dtype_from_object(dtype_obj, &dtype) < 0)
        return NULL;
    if (!array_check(x)) {
        PyErr_SetString(PyExc_TypeError, "usmarr.astype: x must be a usmarr.Array");
        return NULL;
    }
    DeviceObject *device = device_obj == Py_None ? NULL : device_from_object(device_obj);
    if (device_obj != Py_None && !device)
        return NULL;
    return array_wrap_like(x, convert_to_array(x, device, dtype, copy ? 1 : -1, 0));
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

#define KW (METH_VARARGS | METH_KEYWORDS)
#define FN(f) (PyCFunction)(void (*)(void))(f)
PyMethodDef functions_methods[] = {
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
    {"can_cast", FN(py_can_cast), METH_VARARGS, "can_cast(from_, to, casting='safe', /)\n--\n\n"},
    {"result_type", FN(py_result_type), METH_VARARGS, "result_type(*arrays_and_dtypes)\n--\n\n"},
    {"promote_types", FN(py_promote_types), METH_VARARGS, "promote_types(a, b, /)\n--\n\n"},
    {"_finfo", FN(py_finfo), METH_O, "_finfo(dtype, /): (bits, eps, max, min, smallest_normal, dtype)"},
    {"_iinfo", FN(py_iinfo), METH_O, "_iinfo(dtype, /): (bits, min, max, dtype)"},
    {"isdtype", FN(py_isdtype), KW, "isdtype(dtype, kind)\n--\n\nkind: a kind name, a dtype or a tuple of them"},
    {"astype", FN(py_astype), KW, "astype(x, dtype, /, *, copy=True, device=None)\n--\n\n"},
    {"take", FN(py_take), KW, "take(x, indices, /, *, axis=None, mode='raise')\n--\n\n"},
    {"take_along_axis", FN(py_take_along_axis), KW, "take_along_axis(x, indices, /, axis=-1, *, mode='raise')\n--\n\n"},
    {"put", FN(py_put), KW, "put(x, indices, values, /, *, axis=None, mode='raise')\n--\n\nIn place"},
    {"place", FN(py_place), METH_VARARGS, "place(x, mask, values, /)\n--\n\nIn place"},
    {"extract", FN(py_extract), METH_VARARGS, "extract(condition, x, /)\n--\n\n"},
    {"nonzero", FN(py_nonzero), METH_O, "nonzero(x, /)\n--\n\nA tuple of int64 index arrays"},
    {"asarray", FN(py_asarray), KW, "asarray(obj, /, *, dtype=None, device=None, copy=None, usm_type=None)\n--\n\n"},
    {"from_dlpack", FN(py_from_dlpack), KW, "from_dlpack(x, /, *, device=None, copy=None)\n--\n\n"},
    {NULL},
};
