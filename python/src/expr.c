/* Fused expressions: usmarr.Expression, one library expression (include/usmarr/expr.h).
 * usmarr.evaluate and usmarr.fuse (python/usmarr/_expr.py) are built on it; the functions
 * that fuse can record ask traced() first. */
#include "module.h"

#include <string.h>

/* usmarr.fuse's tracer among the arguments: it records the call instead, through its
 * method __usmarr_function__(name, args, kwargs), as NumPy's __array_function__ lets a type
 * take a function over.  Arrays and Python numbers are never tracers (no attribute lookup
 * on the common path).  Returns the tracer's result, or NULL without an exception when no
 * argument is a tracer (with one when the lookup or the call failed). */
PyObject *traced(const char *name, PyObject *const *args, Py_ssize_t nargs, PyObject *kwargs)
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
PyObject *traced_tuple(const char *name, PyObject *args, PyObject *kwargs)
{
    Py_ssize_t n = PyTuple_Size(args);
    PyObject *items[8];
    if (n > 8)
        return NULL;
    for (Py_ssize_t i = 0; i < n; i++)
        items[i] = PyTuple_GetItem(args, i);
    return traced(name, items, n, kwargs);
}

typedef struct {
    PyObject_HEAD
    usmarr_expr_t *expr;
} ExprObject;

static PyTypeObject *Expr_Type;

static void expr_dealloc(PyObject *self)
{
    usmarr_expr_release(((ExprObject *)self)->expr);
    PyTypeObject *type = Py_TYPE(self);
    PyObject_Free(self);
    Py_DECREF(type);
}

/* Expression(text, names=None) */
static PyObject *expr_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"text", "names", NULL};
    const char *text;
    PyObject *names_obj = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "s|O", keywords, &text, &names_obj))
        return NULL;
    const char **names = NULL;
    Py_ssize_t n = 0;
    PyObject *seq = NULL;
    if (names_obj != Py_None) {
        seq = PySequence_Tuple(names_obj);
        if (!seq)
            return NULL;
        n = PyTuple_Size(seq);
        names = PyMem_Calloc((size_t)(n ? n : 1), sizeof *names);
        if (!names) {
            Py_DECREF(seq);
            return PyErr_NoMemory();
        }
        for (Py_ssize_t i = 0; i < n; i++) {
            names[i] = PyUnicode_AsUTF8AndSize(PyTuple_GetItem(seq, i), NULL);
            if (!names[i]) {
                PyMem_Free(names);
                Py_DECREF(seq);
                return NULL;
            }
        }
    }
    usmarr_expr_t *expr = NULL;
    int rc = usmarr_expr_create(text, names, (size_t)n, &expr);
    PyMem_Free(names);
    Py_XDECREF(seq);
    if (rc)
        return py_error(rc);
    ExprObject *self = PyObject_New(ExprObject, type);
    if (!self) {
        usmarr_expr_release(expr);
        return NULL;
    }
    self->expr = expr;
    return (PyObject *)self;
}

static PyObject *expr_names(PyObject *self, void *unused)
{
    usmarr_expr_t *e = ((ExprObject *)self)->expr;
    size_t n = usmarr_expr_operand_count(e);
    PyObject *t = PyTuple_New((Py_ssize_t)n);
    for (size_t i = 0; t && i < n; i++) {
        PyObject *s = PyUnicode_FromString(usmarr_expr_operand_name(e, i));
        if (!s) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SetItem(t, (Py_ssize_t)i, s);
    }
    return t;
}

static PyObject *expr_canonical(PyObject *self, void *unused)
{
    return PyUnicode_FromString(usmarr_expr_canonical(((ExprObject *)self)->expr));
}

static PyObject *expr_reduction(PyObject *self, void *unused)
{
    const char *r = usmarr_expr_reduction(((ExprObject *)self)->expr);
    return r ? PyUnicode_FromString(r) : Py_NewRef(Py_None);
}

/* The positional arguments as operands: arrays, Python and NumPy scalars (weak and typed),
 * and anything asarray takes (placed on the first array's device). */
struct operands {
    Py_ssize_t n;
    usmarr_operand_t *ops;
    usmarr_array_t **owned;
};

static int operands_from(PyObject *args, const usmarr_array_t *like, struct operands *o)
{
    o->n = PyTuple_Size(args);
    o->ops = PyMem_Calloc((size_t)(o->n ? o->n : 1), sizeof *o->ops);
    o->owned = PyMem_Calloc((size_t)(o->n ? o->n : 1), sizeof *o->owned);
    if (!o->ops || !o->owned) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < o->n && !like; i++)
        if (array_check(PyTuple_GetItem(args, i)))
            like = array_of(PyTuple_GetItem(args, i));
    for (Py_ssize_t i = 0; i < o->n; i++) {
        PyObject *a = PyTuple_GetItem(args, i);
        if (array_check(a)) {
            o->ops[i].array = array_of(a);
            continue;
        }
        int s = scalar_from_object(a, &o->ops[i].scalar);
        if (s < 0)
            return -1;
        if (s == 0) {
            if (!(o->owned[i] = convert_operand(a, like)))
                return -1;
            o->ops[i].array = o->owned[i];
            if (!like)
                like = o->owned[i];
        }
    }
    return 0;
}

static void operands_free(struct operands *o)
{
    for (Py_ssize_t i = 0; o->owned && i < o->n; i++)
        usmarr_array_release(o->owned[i]);
    PyMem_Free(o->ops);
    PyMem_Free(o->owned);
}

/* expr(*operands, out=None, axis=None, keepdims=False) */
static PyObject *expr_call(PyObject *self, PyObject *args, PyObject *kwargs)
{
    usmarr_expr_t *e = ((ExprObject *)self)->expr;
    PyObject *out = Py_None, *axis = Py_None, *keepdims_obj = Py_False;
    if (kwargs) {
        PyObject *key, *value;
        Py_ssize_t pos = 0;
        while (PyDict_Next(kwargs, &pos, &key, &value)) {
            if (!PyUnicode_CompareWithASCIIString(key, "out"))
                out = value;
            else if (!PyUnicode_CompareWithASCIIString(key, "axis"))
                axis = value;
            else if (!PyUnicode_CompareWithASCIIString(key, "keepdims"))
                keepdims_obj = value;
            else
                return PyErr_Format(PyExc_TypeError, "an Expression got an unexpected keyword argument %R", key);
        }
    }
    bool reduction = usmarr_expr_reduction(e) != NULL;
    if (!reduction && (axis != Py_None || keepdims_obj != Py_False))
        return PyErr_Format(PyExc_TypeError, "axis and keepdims apply to an expression that ends in a reduction (%s)",
                            usmarr_expr_canonical(e));
    usmarr_array_t *out_array = NULL;
    if (out_from_object(out, &out_array) < 0)
        return NULL;
    int keepdims = PyObject_IsTrue(keepdims_obj);
    int axes[USMARR_MAX_NDIM], naxes = 0;
    if (keepdims < 0 || (axis != Py_None && axes_from_object(axis, axes, &naxes, USMARR_MAX_NDIM) < 0))
        return NULL;
    struct operands o = {0};
    PyObject *ret = NULL;
    if (operands_from(args, out_array, &o) == 0) {
        usmarr_array_t *result = NULL;
        int rc = reduction ? usmarr_expr_reduce(e, o.ops, (size_t)o.n, naxes, axis == Py_None ? NULL : axes,
                                                keepdims != 0, out_array, &result)
                           : usmarr_expr_apply(e, o.ops, (size_t)o.n, out_array, &result);
        if (rc)
            py_error(rc);
        else if (out_array) {
            usmarr_array_release(result);
            ret = Py_NewRef(out);
        } else {
            ret = array_wrap(result);
        }
    }
    operands_free(&o);
    return ret;
}

static PyObject *expr_result_dtype(PyObject *self, PyObject *args)
{
    struct operands o = {0};
    PyObject *ret = NULL;
    if (operands_from(args, NULL, &o) == 0) {
        usmarr_dtype_t d;
        int rc = usmarr_expr_result_dtype(((ExprObject *)self)->expr, o.ops, (size_t)o.n, &d);
        ret = rc ? py_error(rc) : Py_XNewRef(dtype_object(d));
    }
    operands_free(&o);
    return ret;
}

static PyObject *expr_repr(PyObject *self)
{
    return PyUnicode_FromFormat("usmarr.Expression(%s)", usmarr_expr_canonical(((ExprObject *)self)->expr));
}

static PyGetSetDef expr_getset[] = {
    {"names", expr_names, NULL, "the operand names, in the order the operands are passed", NULL},
    {"canonical", expr_canonical, NULL, "the canonical form (operands as $0, $1, ...; expressions of one form share "
                                        "their kernels)", NULL},
    {"reduction", expr_reduction, NULL, "the reduction the expression ends in, or None", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyMethodDef expr_methods[] = {
    {"result_dtype", expr_result_dtype, METH_VARARGS, "result_dtype($self, /, *operands)\n--\n\nThe dtype a call gives"},
    {NULL, NULL, 0, NULL},
};

static PyType_Slot expr_slots[] = {
    {Py_tp_new, expr_new},
    {Py_tp_dealloc, expr_dealloc},
    {Py_tp_call, expr_call},
    {Py_tp_repr, expr_repr},
    {Py_tp_getset, expr_getset},
    {Py_tp_methods, expr_methods},
    {Py_tp_doc, "Expression(text, names=None)\n--\n\nAn elementwise expression (or a reduction of one) parsed once, "
                "called with its operands as one fused kernel: Expression('a * b + exp(c)')(x, y, z)."},
    {0, NULL},
};

static PyType_Spec expr_spec = {"usmarr.Expression", sizeof(ExprObject), 0, Py_TPFLAGS_DEFAULT, expr_slots};

int expr_init_type(PyObject *module)
{
    Expr_Type = (PyTypeObject *)PyType_FromSpec(&expr_spec);
    if (!Expr_Type)
        return -1;
    return PyModule_AddObjectRef(module, "Expression", (PyObject *)Expr_Type);
}
