/* usmarr.Array: a Python handle on one library array.  The type: its slot table and the
 * slots (attributes, the USM and NumPy array interfaces, operators, each one library call,
 * conversions to Python scalars, methods), but for a[key] (array_index.c) and __dlpack__
 * (dlpack.c).  Array_Type and array_wrap are array_wrap.c's, below every source that
 * returns arrays, as the layering check wants. */
#include "module.h"

#include <string.h>

static void array_dealloc(PyObject *self)
{
    PyTypeObject *type = Py_TYPE(self);
    usmarr_array_release(((ArrayObject *)self)->array);
    freefunc free_slot = (freefunc)PyType_GetSlot(type, Py_tp_free);
    free_slot(self);
    Py_DECREF(type);
}

/* usmarr.Array(shape, dtype=float64, buffer='device', strides=None, offset=0, order='C',
 *              device=None, read_only=False): the array constructor. */
static PyObject *array_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"shape", "dtype", "buffer", "strides", "offset", "order", "device", "read_only", NULL};
    PyObject *shape_obj, *dtype_obj = NULL, *buffer_obj = NULL, *strides_obj = NULL, *order_obj = NULL,
                         *device_obj = NULL;
    long long offset = 0;
    int read_only = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|OOOLOOp:Array", keywords, &shape_obj, &dtype_obj, &buffer_obj,
                                     &strides_obj, &offset, &order_obj, &device_obj, &read_only))
        return NULL;
    usmarr_array_options_t o = USMARR_ARRAY_OPTIONS_INIT;
    int64_t shape[USMARR_MAX_NDIM], strides[USMARR_MAX_NDIM];
    int dtype, nstrides = 0;
    if (shape_from_object(shape_obj, shape, &o.ndim) < 0 || dtype_from_object(dtype_obj, &dtype) < 0 ||
        order_from_object(order_obj, &o.order) < 0)
        return NULL;
    if (strides_obj && strides_obj != Py_None) {
        if (shape_from_object(strides_obj, strides, &nstrides) < 0)
            return NULL;
        if (nstrides != o.ndim) {
            PyErr_Format(PyExc_ValueError, "usmarr.Array: %d strides for %d dimensions", nstrides, o.ndim);
            return NULL;
        }
        o.strides = strides;
    }
    o.shape = shape;
    o.dtype = dtype < 0 ? USMARR_FLOAT64 : (usmarr_dtype_t)dtype;
    o.offset = offset;
    o.read_only = read_only;
    usmarr_array_t *source = NULL;
    if (buffer_obj == NULL || buffer_obj == Py_None || PyUnicode_Check(buffer_obj)) {
        usmarr_usm_kind_t kind;
        if (usm_kind_from_object(buffer_obj, &kind) < 0)
            return NULL;
        DeviceObject *device = device_from_object(device_obj);
        if (!device)
            return NULL;
        o.context = device->context;
        o.buffer = kind == USMARR_USM_SHARED ? USMARR_BUFFER_SHARED
                   : kind == USMARR_USM_HOST ? USMARR_BUFFER_HOST
                                             : USMARR_BUFFER_DEVICE;
    } else {
        /* An array or anything with __sycl_usm_array_interface__: share its block. */
        source = convert_to_array(buffer_obj, NULL, -1, 0, 0);
        if (!source)
            return NULL;
        o.buffer = USMARR_BUFFER_ARRAY;
        o.array = source;
    }
    usmarr_array_t *array;
    int rc = usmarr_array_create(&o, &array);
    usmarr_array_release(source);
    if (rc)
        return py_error(rc);
    allocfunc alloc = (allocfunc)PyType_GetSlot(type, Py_tp_alloc);
    ArrayObject *self = (ArrayObject *)alloc(type, 0);
    if (!self) {
        usmarr_array_release(array);
        return NULL;
    }
    self->array = array;
    return (PyObject *)self;
}

/* ---- attributes ------------------------------------------------------------------------- */
enum array_attr {
    ATTR_SHAPE, ATTR_NDIM, ATTR_SIZE, ATTR_DTYPE, ATTR_STRIDES, ATTR_OFFSET, ATTR_ITEMSIZE, ATTR_NBYTES,
    ATTR_DEVICE, ATTR_USM_TYPE, ATTR_T, ATTR_MT, ATTR_REAL, ATTR_IMAG, ATTR_POINTER, ATTR_C_CONTIGUOUS,
    ATTR_F_CONTIGUOUS, ATTR_WRITABLE
};

static PyObject *array_get(PyObject *self, void *what)
{
    usmarr_array_t *a = array_of(self), *view = NULL;
    int nd = usmarr_array_ndim(a), rc;
    switch ((enum array_attr)(intptr_t)what) {
    case ATTR_SHAPE:
        return tuple_from_int64(usmarr_array_shape(a), nd);
    case ATTR_NDIM:
        return PyLong_FromLong(nd);
    case ATTR_SIZE:
        return PyLong_FromLongLong(usmarr_array_size(a));
    case ATTR_DTYPE:
        return Py_NewRef(dtype_object(usmarr_array_dtype(a)));
    case ATTR_STRIDES:
        return tuple_from_int64(usmarr_array_strides(a), nd);
    case ATTR_OFFSET:
        return PyLong_FromLongLong(usmarr_array_offset(a));
    case ATTR_ITEMSIZE:
        return PyLong_FromSize_t(usmarr_array_itemsize(a));
    case ATTR_NBYTES:
        return PyLong_FromLongLong(usmarr_array_nbytes(a));
    case ATTR_DEVICE:
        return Py_XNewRef((PyObject *)device_of_context(usmarr_array_context(a)));
    case ATTR_USM_TYPE:
        return PyUnicode_FromString(usmarr_usm_kind_name(usmarr_array_usm_kind(a)));
    case ATTR_T:
        if (nd > 2) {
            PyErr_SetString(PyExc_ValueError, "usmarr: .T is for arrays of at most 2 dimensions; use "
                                              "permute_dims() or .mT");
            return NULL;
        }
        rc = usmarr_array_transpose(a, &view);
        return array_wrap_result(rc, view);
    case ATTR_MT:
        if (nd < 2) {
            PyErr_SetString(PyExc_ValueError, "usmarr: .mT needs at least 2 dimensions");
            return NULL;
        }
        rc = usmarr_array_swapaxes(a, -1, -2, &view);
        return array_wrap_result(rc, view);
    case ATTR_REAL:
        rc = usmarr_array_real(a, &view);
        return array_wrap_result(rc, view);
    case ATTR_IMAG:
        rc = usmarr_array_imag(a, &view);
        return array_wrap_result(rc, view);
    case ATTR_POINTER:
        return PyLong_FromVoidPtr(usmarr_array_data(a));
    case ATTR_C_CONTIGUOUS:
        return PyBool_FromLong(usmarr_array_flags(a) & USMARR_FLAG_C_CONTIGUOUS);
    case ATTR_F_CONTIGUOUS:
        return PyBool_FromLong(usmarr_array_flags(a) & USMARR_FLAG_F_CONTIGUOUS);
    case ATTR_WRITABLE:
        return PyBool_FromLong(usmarr_array_flags(a) & USMARR_FLAG_WRITABLE);
    }
    Py_RETURN_NONE;
}

/* The interface's syclobj: the queue that last wrote the array (usmarr_array_queue).  The
 * device's own queue is named by the device's filter selector, the one form of it that
 * dpctl reads (it takes a SyclQueue, a SyclContext, their capsules or a string), and such
 * a consumer cannot order itself after that queue: the host waits for the writes first, as
 * __dlpack__(stream=None) does.  Another queue is given as a usmarr.Queue, after which a
 * consumer orders itself (usmarr's own import does); dpctl refuses that (doc/python.md). */
static PyObject *suai_syclobj(usmarr_array_t *array)
{
    usmarr_context_t *ctx = usmarr_array_context(array);
    usmarr_queue_t *writer = usmarr_array_queue(array);
    if (usmarr_queue_cl(writer) != usmarr_context_queue(ctx))
        return queue_wrap(usmarr_queue_retain(writer));
    if (array_wait_for_writes(array) < 0)
        return NULL;
    return PyUnicode_FromString(usmarr_context_info(ctx)->selector);
}

/* __sycl_usm_array_interface__, exactly the interface's dictionary (doc/glossary.md). */
static PyObject *array_suai(PyObject *self, void *unused)
{
    usmarr_interface_t iface;
    int rc = usmarr_interface_export(array_of(self), &iface);
    if (rc)
        return py_error(rc);
    PyObject *syclobj = suai_syclobj(array_of(self));
    if (!syclobj)
        return NULL;
    PyObject *strides = iface.strides ? tuple_from_int64(iface.strides, iface.ndim) : Py_NewRef(Py_None);
    const usmarr_device_info_t *info = usmarr_context_info(usmarr_array_context(array_of(self)));
    PyObject *dict = Py_BuildValue("{s:N,s:s,s:(NO),s:N,s:L,s:N,s:i}", "shape", tuple_from_int64(iface.shape, iface.ndim),
                                   "typestr", iface.typestr, "data", PyLong_FromVoidPtr(iface.data),
                                   iface.readonly ? Py_True : Py_False, "strides", strides, "offset",
                                   (long long)iface.offset, "syclobj", syclobj, "version", iface.version);
    /* Never pretend (doc/backend.md): memory of the SVM backend is OpenCL SVM, as the
     * library's JSON export says too. */
    if (dict && info->backend == USMARR_BACKEND_SVM) {
        PyObject *memory = PyUnicode_FromString("opencl-svm");
        if (!memory || PyDict_SetItemString(dict, "memory", memory) < 0)
            Py_CLEAR(dict);
        Py_XDECREF(memory);
    }
    return dict;
}

/* NumPy's __array_interface__, for host-readable USM only (NumPy reads it in place). */
static PyObject *array_host_interface(PyObject *self, void *unused)
{
    usmarr_array_t *a = array_of(self);
    usmarr_usm_kind_t kind = usmarr_array_usm_kind(a);
    if (kind != USMARR_USM_HOST && kind != USMARR_USM_SHARED) {
        PyErr_Format(PyExc_AttributeError, "usmarr: %s USM is not host-accessible: no __array_interface__ "
                                           "(numpy.asarray() copies through __array__, or use to_numpy())",
                     usmarr_usm_kind_name(kind));
        return NULL;
    }
    int rc = usmarr_context_finish(usmarr_array_context(a)); /* the host sees finished elements */
    if (rc)
        return py_error(rc);
    int nd = usmarr_array_ndim(a);
    PyObject *strides = Py_NewRef(Py_None);
    if (!(usmarr_array_flags(a) & USMARR_FLAG_C_CONTIGUOUS)) {
        int64_t bytes[USMARR_MAX_NDIM];
        for (int i = 0; i < nd; i++)
            bytes[i] = usmarr_array_strides(a)[i] * (int64_t)usmarr_array_itemsize(a);
        Py_DECREF(strides);
        strides = tuple_from_int64(bytes, nd);
    }
    int read_only = !(usmarr_array_flags(a) & USMARR_FLAG_WRITABLE);
    return Py_BuildValue("{s:N,s:s,s:(NO),s:N,s:i}", "shape", tuple_from_int64(usmarr_array_shape(a), nd), "typestr",
                         usmarr_dtype_typestr(usmarr_array_dtype(a)), "data",
                         PyLong_FromVoidPtr(usmarr_array_size(a) ? usmarr_array_data(a) : NULL),
                         read_only ? Py_True : Py_False, "strides", strides, "version", 3);
}

#define ATTR(name, which, doc) {name, array_get, NULL, doc, (void *)(intptr_t)(which)}
static PyGetSetDef array_getset[] = {
    ATTR("shape", ATTR_SHAPE, "the extents, a tuple"),
    ATTR("ndim", ATTR_NDIM, "the number of dimensions"),
    ATTR("size", ATTR_SIZE, "the number of elements"),
    ATTR("dtype", ATTR_DTYPE, "the element type"),
    ATTR("strides", ATTR_STRIDES, "the strides in elements (as dpctl), a tuple"),
    ATTR("offset", ATTR_OFFSET, "elements from the memory block's base to element [0,...,0]"),
    ATTR("itemsize", ATTR_ITEMSIZE, "bytes per element"),
    ATTR("nbytes", ATTR_NBYTES, "size * itemsize"),
    ATTR("device", ATTR_DEVICE, "the Device the elements live on"),
    ATTR("usm_type", ATTR_USM_TYPE, "'device', 'shared' or 'host'"),
    ATTR("T", ATTR_T, "the transpose of a 0-, 1- or 2-d array (a view)"),
    ATTR("mT", ATTR_MT, "the last two axes exchanged (a view)"),
    ATTR("real", ATTR_REAL, "the real part (a view for complex arrays)"),
    ATTR("imag", ATTR_IMAG, "the imaginary part (a view for complex arrays)"),
    ATTR("_pointer", ATTR_POINTER, "the address of element [0,...,0]"),
    ATTR("c_contiguous", ATTR_C_CONTIGUOUS, "exactly C-contiguous"),
    ATTR("f_contiguous", ATTR_F_CONTIGUOUS, "exactly F-contiguous"),
    ATTR("writable", ATTR_WRITABLE, "whether writes are allowed"),
    {"__sycl_usm_array_interface__", array_suai, NULL, "the USM array interface", NULL},
    {"__array_interface__", array_host_interface, NULL, "NumPy's array interface (host and shared USM only)", NULL},
    {NULL},
};

/* ---- operators -------------------------------------------------------------------------- */
/* Whether an operator should try an operand at all (else NotImplemented, so that Python
 * asks the other side). */
static int operand_supported(PyObject *o)
{
    if (array_check(o) || PyBool_Check(o) || PyLong_Check(o) || PyFloat_Check(o) || PyComplex_Check(o) ||
        PyList_Check(o) || PyTuple_Check(o) || PyObject_CheckBuffer(o))
        return 1;
    return PyObject_HasAttrString(o, "__sycl_usm_array_interface__") || PyObject_HasAttrString(o, "__array_interface__") ||
           PyObject_HasAttrString(o, "__dlpack__");
}

static PyObject *binary(const char *name, PyObject *a, PyObject *b)
{
    if (!operand_supported(a) || !operand_supported(b))
        Py_RETURN_NOTIMPLEMENTED;
    PyObject *args[2] = {a, b};
    return array_elementwise(name, args, 2, NULL);
}

static PyObject *inplace(const char *name, PyObject *a, PyObject *b)
{
    if (!operand_supported(b))
        Py_RETURN_NOTIMPLEMENTED;
    PyObject *args[2] = {a, b};
    return array_elementwise(name, args, 2, a);
}

static PyObject *unary(const char *name, PyObject *a)
{
    return array_elementwise(name, &a, 1, NULL);
}

#define BINARY(op, name)                                                                                         \
    static PyObject *array_##op(PyObject *a, PyObject *b) { return binary(name, a, b); }                     \
    static PyObject *array_i##op(PyObject *a, PyObject *b) { return inplace(name, a, b); }
BINARY(add, "add")
BINARY(sub, "subtract")
BINARY(mul, "multiply")
BINARY(truediv, "divide")
BINARY(floordiv, "floor_divide")
BINARY(mod, "remainder")
BINARY(and, "bitwise_and")
BINARY(or, "bitwise_or")
BINARY(xor, "bitwise_xor")
BINARY(lshift, "left_shift")
BINARY(rshift, "right_shift")
/* x ** p for a float or complex array and a Python number p: NumPy's shortcuts, whose results
 * are those functions' (sqrt for 0.5: -0 stays -0 and -inf gives NaN, where power gives +0
 * and inf; square and reciprocal also for complex arrays); every other case is power. */
static const char *pow_shortcut(PyObject *a, PyObject *b)
{
    if (!array_check(a) || !(PyFloat_CheckExact(b) || PyLong_CheckExact(b)))
        return NULL;
    usmarr_kind_t k = usmarr_dtype_kind(usmarr_array_dtype(array_of(a)));
    if (k != USMARR_KIND_FLOAT && k != USMARR_KIND_COMPLEX)
        return NULL;
    double p = PyFloat_AsDouble(b);
    if (p == -1 && PyErr_Occurred()) { /* an int beyond a double: no shortcut */
        PyErr_Clear();
        return NULL;
    }
    return p == 0.5 ? "sqrt" : p == 2 ? "square" : p == -1 ? "reciprocal" : NULL;
}

static PyObject *array_pow(PyObject *a, PyObject *b, PyObject *mod)
{
    const char *shortcut = pow_shortcut(a, b);
    return shortcut ? unary(shortcut, a) : binary("pow", a, b);
}
static PyObject *array_ipow(PyObject *a, PyObject *b, PyObject *mod) { return inplace("pow", a, b); }
static PyObject *array_neg(PyObject *a) { return unary("negative", a); }
static PyObject *array_pos(PyObject *a) { return unary("positive", a); }
static PyObject *array_abs(PyObject *a) { return unary("abs", a); }
static PyObject *array_invert(PyObject *a) { return unary("bitwise_invert", a); }

/* @: one call of usmarr_matmul, the operands on the device of the one that is an Array. */
static PyObject *array_matmul(PyObject *a, PyObject *b)
{
    if (!operand_supported(a) || !operand_supported(b))
        Py_RETURN_NOTIMPLEMENTED;
    const usmarr_array_t *like = array_check(a) ? array_of(a) : array_of(b);
    usmarr_array_t *x1 = convert_operand(a, like), *x2 = x1 ? convert_operand(b, like) : NULL, *r = NULL;
    int rc = x1 && x2 ? usmarr_matmul(x1, x2, NULL, &r) : 0;
    usmarr_array_release(x1);
    usmarr_array_release(x2);
    if (!x1 || !x2)
        return NULL;
    return array_wrap_result(rc, r);
}

static PyObject *array_richcompare(PyObject *a, PyObject *b, int op)
{
    static const char *names[] = {
        [Py_LT] = "less", [Py_LE] = "less_equal", [Py_EQ] = "equal",
        [Py_NE] = "not_equal", [Py_GT] = "greater", [Py_GE] = "greater_equal",
    };
    return binary(names[op], a, b);
}

/* ---- conversions to Python scalars ------------------------------------------------------ */
static PyObject *array_scalar(PyObject *self, const char *what)
{
    if (usmarr_array_size(array_of(self)) != 1) {
        PyErr_Format(PyExc_TypeError, "usmarr: only arrays of one element convert to %s (shape %R)", what,
                     array_get(self, (void *)ATTR_SHAPE));
        return NULL;
    }
    return array_item(array_of(self));
}

static int array_bool(PyObject *self)
{
    PyObject *v = array_scalar(self, "bool");
    if (!v)
        return -1;
    int r = PyObject_IsTrue(v);
    Py_DECREF(v);
    return r;
}

static PyObject *array_int(PyObject *self)
{
    PyObject *v = array_scalar(self, "int");
    if (!v || PyLong_Check(v))
        return v;
    PyObject *r = PyComplex_Check(v) ? NULL : PyNumber_Long(v);
    if (!r && !PyErr_Occurred())
        PyErr_SetString(PyExc_TypeError, "usmarr: a complex array does not convert to int");
    Py_DECREF(v);
    return r;
}

static PyObject *array_float(PyObject *self)
{
    PyObject *v = array_scalar(self, "float");
    if (!v || PyFloat_Check(v))
        return v;
    PyObject *r = PyComplex_Check(v) ? NULL : PyNumber_Float(v);
    if (!r && !PyErr_Occurred())
        PyErr_SetString(PyExc_TypeError, "usmarr: a complex array does not convert to float");
    Py_DECREF(v);
    return r;
}

static PyObject *array_index(PyObject *self)
{
    usmarr_kind_t kind = usmarr_dtype_kind(usmarr_array_dtype(array_of(self)));
    if (kind != USMARR_KIND_INT && kind != USMARR_KIND_UINT) {
        PyErr_SetString(PyExc_TypeError, "usmarr: only integer arrays can be used as an index");
        return NULL;
    }
    return array_scalar(self, "an index");
}

static PyObject *array_complex(PyObject *self, PyObject *unused)
{
    PyObject *v = array_scalar(self, "complex");
    if (!v || PyComplex_Check(v))
        return v;
    PyObject *r = PyObject_CallFunctionObjArgs((PyObject *)&PyComplex_Type, v, NULL);
    Py_DECREF(v);
    return r;
}

static Py_ssize_t array_length(PyObject *self)
{
    usmarr_array_t *a = array_of(self);
    if (usmarr_array_ndim(a) == 0) {
        PyErr_SetString(PyExc_TypeError, "len() of a 0-d usmarr.Array");
        return -1;
    }
    return (Py_ssize_t)usmarr_array_shape(a)[0];
}

/* Iteration over the first axis (the sequence protocol, for `for row in a`). */
static PyObject *array_sq_item(PyObject *self, Py_ssize_t i)
{
    PyObject *key = PyLong_FromSsize_t(i);
    if (!key)
        return NULL;
    PyObject *r = array_getitem(self, key);
    Py_DECREF(key);
    return r;
}

/* ---- text --------------------------------------------------------------------------------- */
static PyObject *array_str(PyObject *self)
{
    char *text;
    int rc = usmarr_array_to_string(array_of(self), &text);
    if (rc)
        return py_error(rc);
    PyObject *s = PyUnicode_FromString(text);
    usmarr_string_free(text);
    return s;
}

/* NumPy's repr of the values (through a host copy) with "Array" for "array"; without NumPy
 * the library's own printing. */
static PyObject *array_repr(PyObject *self)
{
    PyObject *host = array_to_numpy(array_of(self));
    if (!host) {
        PyErr_Clear();
        PyObject *text = array_str(self);
        if (!text)
            return NULL;
        PyObject *r = PyUnicode_FromFormat("Array(%U, dtype=%s)", text, usmarr_dtype_name(usmarr_array_dtype(array_of(self))));
        Py_DECREF(text);
        return r;
    }
    PyObject *text = PyObject_Repr(host);
    Py_DECREF(host);
    if (!text)
        return NULL;
    PyObject *tail = PyUnicode_Substring(text, 1, PyUnicode_GetLength(text));
    Py_DECREF(text);
    if (!tail)
        return NULL;
    PyObject *r = PyUnicode_FromFormat("A%U", tail);
    Py_DECREF(tail);
    return r;
}

/* ---- methods ------------------------------------------------------------------------------ */
static PyObject *array_to_device(PyObject *self, PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"device", "stream", "usm_type", NULL};
    PyObject *device_obj, *stream = Py_None, *usm_obj = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|$OO:to_device", keywords, &device_obj, &stream, &usm_obj))
        return NULL;
    DeviceObject *device = device_from_object(device_obj);
    usmarr_usm_kind_t kind;
    if (!device || usm_kind_from_object(usm_obj, &kind) < 0)
        return NULL;
    return array_transfer(array_of(self), device, kind);
}

static PyObject *array_to_numpy_method(PyObject *self, PyObject *unused) { return array_to_numpy(array_of(self)); }

static PyObject *array_dunder_array(PyObject *self, PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"dtype", "copy", NULL};
    PyObject *dtype = Py_None, *copy = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|OO:__array__", keywords, &dtype, &copy))
        return NULL;
    if (copy == Py_False) {
        PyErr_SetString(PyExc_ValueError, "usmarr: __array__ always copies to the host (copy=False refused)");
        return NULL;
    }
    PyObject *host = array_to_numpy(array_of(self));
    if (!host || dtype == Py_None)
        return host;
    PyObject *r = PyObject_CallMethod(host, "astype", "O", dtype);
    Py_DECREF(host);
    return r;
}

static PyObject *array_copy_method(PyObject *self, PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"order", NULL};
    PyObject *order_obj = NULL;
    usmarr_order_t order;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|O:copy", keywords, &order_obj) ||
        order_from_object(order_obj, &order) < 0)
        return NULL;
    usmarr_array_t *r = NULL;
    int rc = usmarr_array_copy(array_of(self), order, NULL, &r);
    return array_wrap_result(rc, r);
}

static PyObject *array_astype_method(PyObject *self, PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"dtype", "order", "copy", NULL};
    PyObject *dtype_obj, *order_obj = NULL;
    int copy = 1, dtype;
    usmarr_order_t order;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|Op:astype", keywords, &dtype_obj, &order_obj, &copy) ||
        dtype_from_object(dtype_obj, &dtype) < 0 || order_from_object(order_obj, &order) < 0)
        return NULL;
    if (!copy && (dtype < 0 || dtype == (int)usmarr_array_dtype(array_of(self))))
        return Py_NewRef(self);
    usmarr_array_t *r = NULL;
    int rc = usmarr_array_astype(array_of(self), dtype < 0 ? usmarr_array_dtype(array_of(self)) : (usmarr_dtype_t)dtype,
                                 order == USMARR_ORDER_C && !order_obj ? USMARR_ORDER_K : order, NULL, &r);
    return array_wrap_result(rc, r);
}

static PyObject *array_fill_method(PyObject *self, PyObject *value)
{
    usmarr_scalar_t s;
    int k = scalar_from_object(value, &s);
    if (k <= 0) {
        if (k == 0)
            PyErr_Format(PyExc_TypeError, "usmarr: fill() takes a Python scalar, not %R", value);
        return NULL;
    }
    int rc = usmarr_array_fill(array_of(self), s);
    if (rc)
        return py_error(rc);
    Py_RETURN_NONE;
}

static PyObject *array_finish(PyObject *self, PyObject *unused)
{
    int rc = usmarr_context_finish(usmarr_array_context(array_of(self)));
    if (rc)
        return py_error(rc);
    Py_RETURN_NONE;
}

static PyObject *array_debug_repr(PyObject *self, PyObject *unused)
{
    char *text;
    int rc = usmarr_array_debug_string(array_of(self), &text);
    if (rc)
        return py_error(rc);
    PyObject *s = PyUnicode_FromString(text);
    usmarr_string_free(text);
    return s;
}

static PyObject *array_item_method(PyObject *self, PyObject *unused) { return array_scalar(self, "a Python scalar"); }

static PyObject *array_namespace(PyObject *self, PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"api_version", NULL};
    PyObject *version = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|$O:__array_namespace__", keywords, &version))
        return NULL;
    if (version != Py_None && PyUnicode_Check(version) &&
        PyUnicode_CompareWithASCIIString(version, "2023.12") != 0 &&
        PyUnicode_CompareWithASCIIString(version, "2022.12") != 0 &&
        PyUnicode_CompareWithASCIIString(version, "2021.12") != 0) {
        PyErr_Format(PyExc_ValueError, "usmarr implements the array API 2023.12, not %R", version);
        return NULL;
    }
    return PyImport_ImportModule("usmarr");
}

/* a.reshape(*shape, copy=None): usmarr.reshape(a, shape, copy=copy) */
static PyObject *array_reshape_method(PyObject *self, PyObject *args, PyObject *kwargs)
{
    Py_ssize_t n = PyTuple_Size(args);
    PyObject *shape = n == 1 ? Py_NewRef(PyTuple_GetItem(args, 0)) : Py_NewRef(args);
    PyObject *call_args = PyTuple_Pack(2, self, shape);
    Py_DECREF(shape);
    PyObject *r = call_args ? py_reshape(NULL, call_args, kwargs) : NULL;
    Py_XDECREF(call_args);
    return r;
}

static PyObject *array_self(PyObject *self, PyObject *args) { return Py_NewRef(self); }

static PyMethodDef array_methods[] = {
    {"to_device", (PyCFunction)(void (*)(void))array_to_device, METH_VARARGS | METH_KEYWORDS,
     "to_device($self, device, /, *, stream=None, usm_type=None)\n--\n\nThis array on another device (a copy), or itself"},
    {"to_numpy", array_to_numpy_method, METH_NOARGS, "to_numpy($self, /)\n--\n\nA NumPy copy on the host"},
    {"__array__", (PyCFunction)(void (*)(void))array_dunder_array, METH_VARARGS | METH_KEYWORDS,
     "__array__($self, /, dtype=None, copy=None)\n--\n\nA NumPy copy on the host"},
    {"copy", (PyCFunction)(void (*)(void))array_copy_method, METH_VARARGS | METH_KEYWORDS, "copy($self, /, order='C')\n--\n\nA copy in that order"},
    {"astype", (PyCFunction)(void (*)(void))array_astype_method, METH_VARARGS | METH_KEYWORDS,
     "astype($self, /, dtype, order='K', copy=True)\n--\n\nAs usmarr.astype, in that order"},
    {"reshape", (PyCFunction)(void (*)(void))array_reshape_method, METH_VARARGS | METH_KEYWORDS,
     "reshape($self, /, *shape, copy=None)\n--\n\nAs usmarr.reshape"},
    {"fill", array_fill_method, METH_O, "fill($self, value, /)\n--\n\nEvery element set to a Python scalar"},
    {"finish", array_finish, METH_NOARGS, "finish($self, /)\n--\n\nWaits for the work enqueued on the array's device"},
    {"debug_repr", array_debug_repr, METH_NOARGS, "debug_repr($self, /)\n--\n\nThe library's dump of the descriptor"},
    {"item", array_item_method, METH_NOARGS, "item($self, /)\n--\n\nThe one element as a Python scalar"},
    {"__complex__", array_complex, METH_NOARGS, NULL},
    {"__copy__", array_self, METH_NOARGS, NULL},
    {"__array_namespace__", (PyCFunction)(void (*)(void))array_namespace, METH_VARARGS | METH_KEYWORDS,
     "__array_namespace__($self, /, *, api_version=None)\n--\n\nThe usmarr module"},
    {"__dlpack__", (PyCFunction)(void (*)(void))array_dlpack, METH_VARARGS | METH_KEYWORDS,
     "__dlpack__($self, /, *, stream=None, max_version=None, dl_device=None, copy=None)\n--\n\nA DLPack capsule"},
    {"__dlpack_device__", array_dlpack_device, METH_NOARGS, "__dlpack_device__($self, /)\n--\n\nThe tuple (device type, device id)"},
    {NULL},
};

static PyType_Slot array_slots[] = {
    {Py_tp_dealloc, array_dealloc},
    {Py_tp_new, array_new},
    {Py_tp_repr, array_repr},
    {Py_tp_str, array_str},
    {Py_tp_hash, PyObject_HashNotImplemented},
    {Py_tp_richcompare, array_richcompare},
    {Py_tp_getset, array_getset},
    {Py_tp_methods, array_methods},
    {Py_mp_subscript, array_getitem},
    {Py_mp_ass_subscript, array_setitem},
    {Py_mp_length, array_length},
    {Py_sq_length, array_length},
    {Py_sq_item, array_sq_item},
    {Py_nb_add, array_add},
    {Py_nb_subtract, array_sub},
    {Py_nb_multiply, array_mul},
    {Py_nb_true_divide, array_truediv},
    {Py_nb_floor_divide, array_floordiv},
    {Py_nb_remainder, array_mod},
    {Py_nb_power, array_pow},
    {Py_nb_and, array_and},
    {Py_nb_or, array_or},
    {Py_nb_xor, array_xor},
    {Py_nb_lshift, array_lshift},
    {Py_nb_rshift, array_rshift},
    {Py_nb_inplace_add, array_iadd},
    {Py_nb_inplace_subtract, array_isub},
    {Py_nb_inplace_multiply, array_imul},
    {Py_nb_inplace_true_divide, array_itruediv},
    {Py_nb_inplace_floor_divide, array_ifloordiv},
    {Py_nb_inplace_remainder, array_imod},
    {Py_nb_inplace_power, array_ipow},
    {Py_nb_inplace_and, array_iand},
    {Py_nb_inplace_or, array_ior},
    {Py_nb_inplace_xor, array_ixor},
    {Py_nb_inplace_lshift, array_ilshift},
    {Py_nb_inplace_rshift, array_irshift},
    {Py_nb_negative, array_neg},
    {Py_nb_positive, array_pos},
    {Py_nb_absolute, array_abs},
    {Py_nb_invert, array_invert},
    {Py_nb_matrix_multiply, array_matmul},
    {Py_nb_bool, array_bool},
    {Py_nb_int, array_int},
    {Py_nb_float, array_float},
    {Py_nb_index, array_index},
    {Py_tp_doc, "Array(shape, dtype=None, buffer='device', strides=None, offset=0, order='C', device=None, "
                "read_only=False)\n--\n\nAn N-dimensional strided array in USM (a usmarr_array_t; dtype None is float64).  buffer is a USM "
                "kind, or an array or USM-interface object whose memory block to use."},
    {0, NULL},
};
static PyType_Spec array_spec = {"usmarr.Array", sizeof(ArrayObject), 0, Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
                                 array_slots};

int array_init_type(PyObject *module)
{
    Array_Type = (PyTypeObject *)PyType_FromSpec(&array_spec);
    if (!Array_Type)
        return -1;
    /* NumPy's operators defer to ours (a numpy array + usmarr array is usmarr's add). */
    if (PyObject_SetAttrString((PyObject *)Array_Type, "__array_ufunc__", Py_None) < 0)
        return -1;
    return PyModule_AddObjectRef(module, "Array", (PyObject *)Array_Type);
}
