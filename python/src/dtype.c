/* usmarr.dtype: the 14 element types as objects (dtype_object), and a dtype argument in any
 * of its spellings to the library's usmarr_dtype_t (dtype_from_object). */
#include "module.h"

#include <string.h>

PyTypeObject *DType_Type;

static PyObject *dtype_objects[USMARR_DTYPE_COUNT];

PyObject *dtype_object(usmarr_dtype_t dtype)
{
    return (unsigned)dtype < USMARR_DTYPE_COUNT ? dtype_objects[dtype] : Py_None;
}

static int dtype_from_name(const char *name, int *dtype)
{
    static const struct {
        const char *alias;
        usmarr_dtype_t dtype;
    } aliases[] = {{"bool_", USMARR_BOOL}, {"?", USMARR_BOOL},       {"int", USMARR_INT64},
                   {"float", USMARR_FLOAT64}, {"complex", USMARR_COMPLEX128}, {"half", USMARR_FLOAT16},
                   {"single", USMARR_FLOAT32}, {"double", USMARR_FLOAT64}, {"csingle", USMARR_COMPLEX64},
                   {"cdouble", USMARR_COMPLEX128}};
    for (int d = 0; d < USMARR_DTYPE_COUNT; d++)
        if (strcmp(name, usmarr_dtype_name(d)) == 0)
            return *dtype = d, 1;
    for (size_t i = 0; i < sizeof aliases / sizeof *aliases; i++)
        if (strcmp(name, aliases[i].alias) == 0)
            return *dtype = aliases[i].dtype, 1;
    usmarr_dtype_t parsed;
    if (usmarr_dtype_from_typestr(name, &parsed) == 0)
        return *dtype = parsed, 1;
    /* NumPy's one-letter codes without a byte order ("f4", "i8") */
    char with_order[32];
    if (strlen(name) < sizeof with_order - 1) {
        snprintf(with_order, sizeof with_order, "=%s", name);
        if (usmarr_dtype_from_typestr(with_order, &parsed) == 0)
            return *dtype = parsed, 1;
    }
    return 0;
}

int dtype_from_object(PyObject *obj, int *dtype)
{
    if (obj == NULL || obj == Py_None) {
        *dtype = -1;
        return 0;
    }
    if (Py_IS_TYPE(obj, DType_Type)) {
        *dtype = ((DTypeObject *)obj)->num;
        return 0;
    }
    if (obj == (PyObject *)&PyBool_Type)
        return *dtype = USMARR_BOOL, 0;
    if (obj == (PyObject *)&PyLong_Type)
        return *dtype = USMARR_INT64, 0;
    if (obj == (PyObject *)&PyFloat_Type)
        return *dtype = USMARR_FLOAT64, 0;
    if (obj == (PyObject *)&PyComplex_Type)
        return *dtype = USMARR_COMPLEX128, 0;
    PyObject *text = NULL;
    if (PyUnicode_Check(obj))
        text = Py_NewRef(obj);
    else if (PyType_Check(obj))
        text = PyObject_GetAttrString(obj, "__name__"); /* numpy.float32 and friends */
    else if (PyObject_HasAttrString(obj, "str"))
        text = PyObject_GetAttrString(obj, "str"); /* a numpy.dtype: its typestr */
    if (text && PyUnicode_Check(text)) {
        const char *s = PyUnicode_AsUTF8AndSize(text, NULL);
        int found = s ? dtype_from_name(s, dtype) : 0;
        Py_DECREF(text);
        if (found)
            return 0;
    } else {
        Py_XDECREF(text);
    }
    PyErr_Clear();
    PyErr_Format(PyExc_TypeError, "usmarr: data type %R not understood (one of the 14 dtypes: usmarr.float32, "
                                  "'float32', '<f4', float, numpy.float32, ...)",
                 obj);
    return -1;
}

static PyObject *dtype_repr(PyObject *self)
{
    return PyUnicode_FromFormat("usmarr.%s", usmarr_dtype_name(((DTypeObject *)self)->num));
}

static PyObject *dtype_str(PyObject *self) { return PyUnicode_FromString(usmarr_dtype_name(((DTypeObject *)self)->num)); }

static Py_hash_t dtype_hash(PyObject *self) { return 0x75736d00 + ((DTypeObject *)self)->num; }

static PyObject *dtype_richcompare(PyObject *self, PyObject *other, int op)
{
    if (op != Py_EQ && op != Py_NE)
        Py_RETURN_NOTIMPLEMENTED;
    int d;
    if (Py_IS_TYPE(other, DType_Type))
        d = ((DTypeObject *)other)->num;
    else if (dtype_from_object(other, &d) < 0 || d < 0) {
        PyErr_Clear();
        return Py_NewRef(op == Py_EQ ? Py_False : Py_True);
    }
    int equal = d == (int)((DTypeObject *)self)->num;
    return Py_NewRef((equal == (op == Py_EQ)) ? Py_True : Py_False);
}

static PyObject *dtype_get(PyObject *self, void *what)
{
    usmarr_dtype_t d = ((DTypeObject *)self)->num;
    switch ((int)(intptr_t)what) {
    case 0:
        return PyUnicode_FromString(usmarr_dtype_name(d));
    case 1:
        return PyLong_FromSize_t(usmarr_dtype_size(d));
    case 2:
        return PyUnicode_FromStringAndSize(&"biufc"[usmarr_dtype_kind(d)], 1);
    case 3:
        return PyUnicode_FromString(usmarr_dtype_typestr(d));
    default:
        return PyLong_FromLong(d);
    }
}

static PyGetSetDef dtype_getset[] = {
    {"name", dtype_get, NULL, "the dtype's name, 'float32'", (void *)0},
    {"itemsize", dtype_get, NULL, "bytes per element", (void *)1},
    {"kind", dtype_get, NULL, "'b', 'i', 'u', 'f' or 'c'", (void *)2},
    {"str", dtype_get, NULL, "the array-interface typestr, '<f4'", (void *)3},
    {"num", dtype_get, NULL, "the library's usmarr_dtype_t", (void *)4},
    {NULL},
};

static PyType_Slot dtype_slots[] = {
    {Py_tp_repr, dtype_repr},       {Py_tp_str, dtype_str},   {Py_tp_hash, dtype_hash},
    {Py_tp_richcompare, dtype_richcompare}, {Py_tp_getset, dtype_getset},
    {Py_tp_doc, "An element type of usmarr arrays (one of 14; compare with ==)."},
    {0, NULL},
};
static PyType_Spec dtype_spec = {"usmarr.dtype", sizeof(DTypeObject), 0, Py_TPFLAGS_DEFAULT, dtype_slots};


/* The dtype type and its 14 objects (usmarr.float32, ...), added to `module`. */
int dtype_init(PyObject *m)
{
    DType_Type = (PyTypeObject *)PyType_FromSpec(&dtype_spec);
    if (!DType_Type || PyModule_AddObjectRef(m, "dtype", (PyObject *)DType_Type) < 0)
        return -1;
    for (int d = 0; d < USMARR_DTYPE_COUNT; d++) {
        DTypeObject *o = PyObject_New(DTypeObject, DType_Type);
        if (!o)
            return -1;
        o->num = (usmarr_dtype_t)d;
        dtype_objects[d] = (PyObject *)o;
        if (PyModule_AddObjectRef(m, usmarr_dtype_name(d), (PyObject *)o) < 0)
            return -1;
    }
    return 0;
}
