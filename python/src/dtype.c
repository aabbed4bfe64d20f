/* usmarr.dtype: the 14 element types as objects (dtype_object), a dtype argument in any of
 * its spellings to the library's usmarr_dtype_t (dtype_from_object), and the namespace's
 * type rules (include/usmarr/dtype.h): can_cast, result_type, promote_types, isdtype and
 * the numbers of finfo and iinfo, each one library call. */
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

#define KW (METH_VARARGS | METH_KEYWORDS)
#define FN(f) (PyCFunction)(void (*)(void))(f)
static PyMethodDef dtype_methods[] = {
    {"can_cast", FN(py_can_cast), METH_VARARGS, "can_cast(from_, to, casting='safe', /)\n--\n\n"},
    {"result_type", FN(py_result_type), METH_VARARGS, "result_type(*arrays_and_dtypes)\n--\n\n"},
    {"promote_types", FN(py_promote_types), METH_VARARGS, "promote_types(a, b, /)\n--\n\n"},
    {"_finfo", FN(py_finfo), METH_O, "_finfo(dtype, /): (bits, eps, max, min, smallest_normal, dtype)"},
    {"_iinfo", FN(py_iinfo), METH_O, "_iinfo(dtype, /): (bits, min, max, dtype)"},
    {"isdtype", FN(py_isdtype), KW, "isdtype(dtype, kind)\n--\n\nkind: a kind name, a dtype or a tuple of them"},
    {NULL},
};

/* The dtype type, its 14 objects (usmarr.float32, ...) and the type rules, added to `module`. */
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
    return PyModule_AddFunctions(m, dtype_methods);
}
