/* The bottom of usmarr._usmarr: exceptions, dtype and device objects, the context cache,
 * the Array type's object and array_wrap, the small argument converters every other source
 * uses, and the module-level device functions.  It calls no other source of the module. */
#include "module.h"

#include <string.h>

PyTypeObject *DType_Type;
PyTypeObject *Device_Type;
PyTypeObject *Array_Type; /* made by array.c's array_init_type */

/* ---- exceptions ------------------------------------------------------------------------
 * One base class, usmarr.UsmarrError, and one subclass per Python exception a library
 * code resembles, so that `except IndexError` works as it does with NumPy. */
static PyObject *error_base;
enum { ERR_VALUE, ERR_INDEX, ERR_TYPE, ERR_MEMORY, ERR_OVERFLOW, ERR_RUNTIME, ERR_BUFFER, ERR_AXIS, ERR_COUNT };
static PyObject *error_classes[ERR_COUNT];
static const struct {
    const char *name;
    PyObject **builtin, **also;
} error_specs[ERR_COUNT] = {
    [ERR_VALUE] = {"usmarr.UsmarrValueError", &PyExc_ValueError},
    [ERR_INDEX] = {"usmarr.UsmarrIndexError", &PyExc_IndexError},
    [ERR_TYPE] = {"usmarr.UsmarrTypeError", &PyExc_TypeError},
    [ERR_MEMORY] = {"usmarr.UsmarrMemoryError", &PyExc_MemoryError},
    [ERR_OVERFLOW] = {"usmarr.UsmarrOverflowError", &PyExc_OverflowError},
    [ERR_RUNTIME] = {"usmarr.UsmarrRuntimeError", &PyExc_RuntimeError},
    [ERR_BUFFER] = {"usmarr.UsmarrBufferError", &PyExc_BufferError},
    [ERR_AXIS] = {"usmarr.UsmarrAxisError", &PyExc_ValueError, &PyExc_IndexError}, /* as NumPy's AxisError */
};

static int error_class_of(int code)
{
    switch (code) {
    case USMARR_ERROR_INDEX:
        return ERR_INDEX;
    case USMARR_ERROR_BAD_DTYPE:
    case USMARR_ERROR_CASTING:
        return ERR_TYPE;
    case USMARR_ERROR_OUT_OF_HOST_MEMORY:
    case USMARR_ERROR_ALLOCATION:
        return ERR_MEMORY;
    case USMARR_ERROR_OVERFLOW:
        return ERR_OVERFLOW;
    case USMARR_ERROR_INVALID_ARGUMENT:
    case USMARR_ERROR_SHAPE_MISMATCH:
    case USMARR_ERROR_PARSE:
    case USMARR_ERROR_READ_ONLY:
    case USMARR_ERROR_EMPTY:
    case USMARR_ERROR_BAD_STATE:
    case USMARR_ERROR_CONTEXT_MISMATCH:
    case USMARR_ERROR_OUT_OF_BOUNDS:
    case USMARR_ERROR_FOREIGN_POINTER:
        return ERR_VALUE;
    default:
        return ERR_RUNTIME;
    }
}

static PyObject *raise_as(int code, PyObject *cls)
{
    const char *detail = usmarr_last_error_detail();
    PyObject *message = *detail ? PyUnicode_FromFormat("%s: %s", usmarr_strerror(code), detail)
                                : PyUnicode_FromString(usmarr_strerror(code));
    if (!message)
        return NULL;
    PyObject *exc = PyObject_CallFunctionObjArgs(cls, message, NULL);
    Py_DECREF(message);
    if (!exc)
        return NULL;
    PyObject *v;
    if ((v = PyLong_FromLong(code)) != NULL) {
        PyObject_SetAttrString(exc, "code", v);
        Py_DECREF(v);
    }
    if ((v = PyUnicode_FromString(usmarr_error_name(code))) != NULL) {
        PyObject_SetAttrString(exc, "name", v);
        Py_DECREF(v);
    }
    if ((v = PyUnicode_FromString(detail)) != NULL) {
        PyObject_SetAttrString(exc, "detail", v);
        Py_DECREF(v);
    }
    PyErr_SetObject(cls, exc);
    Py_DECREF(exc);
    return NULL;
}

PyObject *py_error(int code)
{
    return raise_as(code, error_classes[error_class_of(code)]);
}

/* __dlpack__'s failures to export (a copy that copy=False forbids, a dl_device the memory
 * cannot be offered on) are BufferError, as the array API standard asks. */
PyObject *py_buffer_error(int code)
{
    return raise_as(code, error_classes[code == USMARR_ERROR_UNSUPPORTED ? ERR_BUFFER : error_class_of(code)]);
}

/* The axis functions' bad axes: ValueError and IndexError at once, as NumPy's AxisError. */
PyObject *py_axis_error(int code)
{
    return raise_as(code, error_classes[code == USMARR_ERROR_INVALID_ARGUMENT ? ERR_AXIS : error_class_of(code)]);
}

int py_fail(int code)
{
    py_error(code);
    return -1;
}

/* ---- dtypes ------------------------------------------------------------------------- */
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

/* ---- devices -------------------------------------------------------------------------
 * One Device (one library context) per OpenCL device, made on first use and kept for the
 * life of the process: arrays of one device must share one context to meet in one call. */
static PyObject *device_list;     /* [Device] */
static PyObject *device_aliases;  /* {selector text as asked: Device} */

static void device_dealloc(PyObject *self)
{
    DeviceObject *d = (DeviceObject *)self;
    PyTypeObject *type = Py_TYPE(self);
    usmarr_context_release(d->context);
    Py_XDECREF(d->selector);
    PyObject_Free(self);
    Py_DECREF(type);
}

DeviceObject *device_of_context(usmarr_context_t *context)
{
    Py_ssize_t n = PyList_Size(device_list);
    for (Py_ssize_t i = 0; i < n; i++) {
        DeviceObject *d = (DeviceObject *)PyList_GetItem(device_list, i);
        if (d->context == context)
            return d;
    }
    DeviceObject *d = PyObject_New(DeviceObject, Device_Type);
    if (!d)
        return NULL;
    d->context = usmarr_context_retain(context);
    d->selector = PyUnicode_FromString(usmarr_context_info(context)->selector);
    if (!d->selector || PyList_Append(device_list, (PyObject *)d) < 0) {
        Py_DECREF(d);
        return NULL;
    }
    Py_DECREF(d); /* the list holds it */
    return d;
}

static DeviceObject *device_from_selector(PyObject *text)
{
    PyObject *found = PyDict_GetItemWithError(device_aliases, text);
    if (found)
        return (DeviceObject *)found;
    if (PyErr_Occurred())
        return NULL;
    const char *selector = text == Py_None ? NULL : PyUnicode_AsUTF8AndSize(text, NULL);
    if (text != Py_None && !selector)
        return NULL;
    usmarr_context_t *context;
    int rc = usmarr_context_create(selector, &context);
    if (rc)
        return (DeviceObject *)py_error(rc);
    /* The same device asked for by another name shares the first context. */
    const char *own = usmarr_context_info(context)->selector;
    Py_ssize_t n = PyList_Size(device_list);
    DeviceObject *d = NULL;
    for (Py_ssize_t i = 0; i < n && !d; i++) {
        DeviceObject *e = (DeviceObject *)PyList_GetItem(device_list, i);
        if (strcmp(usmarr_context_info(e->context)->selector, own) == 0)
            d = e;
    }
    if (!d)
        d = device_of_context(context);
    usmarr_context_release(context);
    if (!d || PyDict_SetItem(device_aliases, text, (PyObject *)d) < 0)
        return NULL;
    return d;
}

DeviceObject *device_from_object(PyObject *obj)
{
    if (obj == NULL || obj == Py_None)
        return device_from_selector(Py_None);
    if (Py_IS_TYPE(obj, Device_Type))
        return (DeviceObject *)obj;
    if (PyUnicode_Check(obj))
        return device_from_selector(obj);
    if (array_check(obj))
        return device_of_context(usmarr_array_context(array_of(obj)));
    PyErr_Format(PyExc_TypeError, "usmarr: device must be a usmarr.Device, a filter selector string "
                                  "('opencl:cpu:0') or None, not %R", obj);
    return NULL;
}

static PyObject *device_repr(PyObject *self)
{
    return PyUnicode_FromFormat("usmarr.Device(%R)", ((DeviceObject *)self)->selector);
}

static PyObject *device_get(PyObject *self, void *what)
{
    DeviceObject *d = (DeviceObject *)self;
    const usmarr_device_info_t *info = usmarr_context_info(d->context);
    switch ((int)(intptr_t)what) {
    case 0:
        return Py_NewRef(d->selector);
    case 1:
        return PyUnicode_FromString(info->device_name);
    case 2:
        return PyUnicode_FromString(info->platform_name);
    case 3:
        return PyBool_FromLong(info->fp64);
    default:
        return PyBool_FromLong(info->fp16);
    }
}

static PyObject *device_finish(PyObject *self, PyObject *unused)
{
    int rc = usmarr_context_finish(((DeviceObject *)self)->context);
    if (rc)
        return py_error(rc);
    Py_RETURN_NONE;
}

static PyGetSetDef device_getset[] = {
    {"selector", device_get, NULL, "the filter selector that picks this device", (void *)0},
    {"name", device_get, NULL, "the OpenCL device name", (void *)1},
    {"platform", device_get, NULL, "the OpenCL platform name", (void *)2},
    {"has_fp64", device_get, NULL, "whether float64 and complex128 are supported", (void *)3},
    {"has_fp16", device_get, NULL, "whether the device has cl_khr_fp16", (void *)4},
    {NULL},
};

static PyMethodDef device_methods[] = {
    {"finish", device_finish, METH_NOARGS, "finish($self, /)\n--\n\nWaits for all work enqueued on the device's queue."},
    {NULL},
};

static PyType_Slot device_slots[] = {
    {Py_tp_dealloc, device_dealloc}, {Py_tp_repr, device_repr}, {Py_tp_getset, device_getset},
    {Py_tp_methods, device_methods},
    {Py_tp_doc, "A USM device: one library context (an OpenCL context, device and in-order queue)."},
    {0, NULL},
};
static PyType_Spec device_spec = {"usmarr.Device", sizeof(DeviceObject), 0, Py_TPFLAGS_DEFAULT, device_slots};

/* ---- arrays ----------------------------------------------------------------------------
 * Every source that returns arrays wraps them here; array.c fills the type's slots. */
PyObject *array_wrap(usmarr_array_t *array)
{
    if (!array)
        return NULL;
    ArrayObject *self = PyObject_New(ArrayObject, Array_Type);
    if (!self) {
        usmarr_array_release(array);
        return NULL;
    }
    self->array = array;
    return (PyObject *)self;
}

PyObject *array_wrap_like(PyObject *obj, usmarr_array_t *array)
{
    if (array && array_check(obj) && array == array_of(obj)) {
        usmarr_array_release(array);
        return Py_NewRef(obj);
    }
    return array_wrap(array);
}

PyObject *array_wrap_result(int rc, usmarr_array_t *array)
{
    if (rc) {
        usmarr_array_release(array);
        return py_error(rc);
    }
    return array_wrap(array);
}

/* ---- small converters ------------------------------------------------------------------ */
int usm_kind_from_object(PyObject *obj, usmarr_usm_kind_t *kind)
{
    *kind = USMARR_USM_UNKNOWN;
    if (obj == NULL || obj == Py_None)
        return 0;
    static const char *names[] = {"device", "shared", "host"};
    if (PyUnicode_Check(obj))
        for (int i = 0; i < 3; i++)
            if (PyUnicode_CompareWithASCIIString(obj, names[i]) == 0)
                return *kind = (usmarr_usm_kind_t)(i + 1), 0;
    PyErr_Format(PyExc_ValueError, "usmarr: usm_type must be 'device', 'shared' or 'host', not %R", obj);
    return -1;
}

int order_from_object(PyObject *obj, usmarr_order_t *order)
{
    *order = USMARR_ORDER_C;
    if (obj == NULL || obj == Py_None)
        return 0;
    const char *s = PyUnicode_Check(obj) ? PyUnicode_AsUTF8AndSize(obj, NULL) : NULL;
    if (s && strlen(s) == 1 && strchr("CFAKcfak", s[0])) {
        *order = (usmarr_order_t)(s[0] & ~0x20);
        return 0;
    }
    PyErr_Format(PyExc_ValueError, "usmarr: order must be 'C', 'F', 'A' or 'K', not %R", obj);
    return -1;
}

static int int_from_object(PyObject *obj, int64_t *value, const char *what)
{
    PyObject *index = PyNumber_Index(obj);
    if (!index) {
        PyErr_Format(PyExc_TypeError, "usmarr: %s must be integers, not %R", what, obj);
        return -1;
    }
    long long v = PyLong_AsLongLong(index);
    Py_DECREF(index);
    if (v == -1 && PyErr_Occurred())
        return -1;
    *value = v;
    return 0;
}

/* An int or a sequence of ints into values[max]; returns the count or -1. */
static int ints_from_object(PyObject *obj, int64_t *values, int max, const char *what)
{
    if (!PySequence_Check(obj) || PyUnicode_Check(obj)) {
        if (int_from_object(obj, values, what) < 0)
            return -1;
        return 1;
    }
    Py_ssize_t n = PySequence_Size(obj);
    if (n < 0)
        return -1;
    if (n > max) {
        PyErr_Format(PyExc_ValueError, "usmarr: %s has %zd entries, at most %d allowed", what, n, max);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PySequence_GetItem(obj, i);
        if (!item)
            return -1;
        int rc = int_from_object(item, &values[i], what);
        Py_DECREF(item);
        if (rc < 0)
            return -1;
    }
    return (int)n;
}

int shape_from_object(PyObject *obj, int64_t *shape, int *ndim)
{
    int n = ints_from_object(obj, shape, USMARR_MAX_NDIM, "shape");
    if (n < 0)
        return -1;
    *ndim = n;
    return 0;
}

int axes_from_object(PyObject *obj, int *axes, int *naxes, int max)
{
    int64_t values[USMARR_MAX_NDIM + 1];
    int n = ints_from_object(obj, values, max < USMARR_MAX_NDIM ? max : USMARR_MAX_NDIM, "axes");
    if (n < 0)
        return -1;
    for (int i = 0; i < n; i++) {
        if (values[i] < -USMARR_MAX_NDIM - 1 || values[i] > USMARR_MAX_NDIM) {
            PyErr_Format(PyExc_IndexError, "usmarr: axis %lld is out of range", (long long)values[i]);
            return -1;
        }
        axes[i] = (int)values[i];
    }
    *naxes = n;
    return 0;
}

/* An out= argument: None (or absent) is NULL, else it must be an Array (borrowed). */
int out_from_object(PyObject *obj, usmarr_array_t **out)
{
    *out = NULL;
    if (!obj || obj == Py_None)
        return 0;
    if (!array_check(obj)) {
        PyErr_Format(PyExc_TypeError, "usmarr: out must be a usmarr.Array, not %R", obj);
        return -1;
    }
    *out = array_of(obj);
    return 0;
}

PyObject *tuple_from_int64(const int64_t *values, int n)
{
    PyObject *t = PyTuple_New(n);
    if (!t)
        return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *v = PyLong_FromLongLong(values[i]);
        if (!v) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SetItem(t, i, v);
    }
    return t;
}

PyObject *module_attr(const char *name)
{
    PyObject *package = PyImport_ImportModule("usmarr");
    if (!package)
        return NULL;
    PyObject *attr = PyObject_GetAttrString(package, name);
    Py_DECREF(package);
    return attr;
}

/* ---- module-level functions ---------------------------------------------------------- */
static PyObject *py_get_device(PyObject *self, PyObject *args)
{
    PyObject *selector = Py_None;
    if (!PyArg_ParseTuple(args, "|O:get_device", &selector))
        return NULL;
    return Py_XNewRef((PyObject *)device_from_object(selector));
}

static PyObject *py_devices(PyObject *self, PyObject *unused)
{
    usmarr_device_info_t *info;
    size_t count;
    int rc = usmarr_devices_list(&info, &count);
    if (rc)
        return py_error(rc);
    PyObject *list = PyList_New(0);
    for (size_t i = 0; list && i < count; i++) {
        if (!info[i].usable)
            continue;
        PyObject *text = PyUnicode_FromString(info[i].selector);
        DeviceObject *d = text ? device_from_selector(text) : NULL;
        Py_XDECREF(text);
        if (!d || PyList_Append(list, (PyObject *)d) < 0)
            Py_CLEAR(list);
    }
    usmarr_devices_free(info);
    return list;
}

/* adopt_device(cl_context, cl_device, cl_queue=None): a Device over an application's OpenCL
 * objects (their addresses, as integers), for USM another runtime (dpctl's SYCL context)
 * allocated: one call of usmarr_context_adopt.  The first Device of its selector becomes
 * the one that selector names from then on. */
static PyObject *py_adopt_device(PyObject *self, PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"cl_context", "cl_device", "cl_queue", NULL};
    PyObject *ctx_obj, *dev_obj, *queue_obj = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OO|O:adopt_device", keywords, &ctx_obj, &dev_obj, &queue_obj))
        return NULL;
    void *cl_ctx = PyLong_AsVoidPtr(ctx_obj), *cl_dev = PyErr_Occurred() ? NULL : PyLong_AsVoidPtr(dev_obj);
    void *cl_queue = queue_obj == Py_None || PyErr_Occurred() ? NULL : PyLong_AsVoidPtr(queue_obj);
    if (PyErr_Occurred())
        return NULL;
    if (!cl_ctx || !cl_dev) {
        PyErr_SetString(PyExc_ValueError, "usmarr.adopt_device: cl_context and cl_device must be non-null handles");
        return NULL;
    }
    usmarr_context_t *context;
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = usmarr_context_adopt((cl_context)cl_ctx, (cl_device_id)cl_dev, (cl_command_queue)cl_queue, &context);
    Py_END_ALLOW_THREADS
    if (rc)
        return py_error(rc);
    DeviceObject *d = device_of_context(context);
    usmarr_context_release(context);
    if (!d)
        return NULL;
    int known = PyDict_Contains(device_aliases, d->selector);
    if (known < 0 || (!known && PyDict_SetItem(device_aliases, d->selector, (PyObject *)d) < 0))
        return NULL;
    return Py_NewRef((PyObject *)d);
}

static PyObject *py_strerror(PyObject *self, PyObject *arg)
{
    long code = PyLong_AsLong(arg);
    if (code == -1 && PyErr_Occurred())
        return NULL;
    return PyUnicode_FromString(usmarr_strerror((int)code));
}

static PyMethodDef base_methods[] = {
    {"adopt_device", (PyCFunction)(void (*)(void))py_adopt_device, METH_VARARGS | METH_KEYWORDS,
     "adopt_device(cl_context, cl_device, cl_queue=None)\n--\n\nA Device over another runtime's OpenCL context "
     "(handles as integers); the first Device of its selector."},
    {"get_device", py_get_device, METH_VARARGS,
     "get_device(selector=None, /)\n--\n\nThe Device a filter selector names (None: the default device)."},
    {"devices", py_devices, METH_NOARGS, "devices()\n--\n\nEvery usable USM device, as Device objects."},
    {"strerror", py_strerror, METH_O, "strerror(code, /)\n--\n\nThe library's description of a status code."},
    {NULL},
};

/* The exceptions, dtype and Device types and the 14 dtype objects, added to `module`. */
int base_init(PyObject *m)
{
    device_list = PyList_New(0);
    device_aliases = PyDict_New();
    if (!device_list || !device_aliases)
        return -1;
    error_base = PyErr_NewExceptionWithDoc("usmarr.UsmarrError",
                                           "A failure of the C library: code, name (USMARR_ERROR_*) and detail.",
                                           PyExc_Exception, NULL);
    if (!error_base || PyModule_AddObjectRef(m, "UsmarrError", error_base) < 0)
        return -1;
    for (int i = 0; i < ERR_COUNT; i++) {
        PyObject *bases = error_specs[i].also ? PyTuple_Pack(3, error_base, *error_specs[i].builtin, *error_specs[i].also)
                                              : PyTuple_Pack(2, error_base, *error_specs[i].builtin);
        error_classes[i] = bases ? PyErr_NewException(error_specs[i].name, bases, NULL) : NULL;
        Py_XDECREF(bases);
        if (!error_classes[i] || PyModule_AddObjectRef(m, strchr(error_specs[i].name, '.') + 1, error_classes[i]) < 0)
            return -1;
    }
    DType_Type = (PyTypeObject *)PyType_FromSpec(&dtype_spec);
    Device_Type = (PyTypeObject *)PyType_FromSpec(&device_spec);
    if (!DType_Type || !Device_Type || PyModule_AddObjectRef(m, "dtype", (PyObject *)DType_Type) < 0 ||
        PyModule_AddObjectRef(m, "Device", (PyObject *)Device_Type) < 0)
        return -1;
    for (int d = 0; d < USMARR_DTYPE_COUNT; d++) {
        DTypeObject *o = PyObject_New(DTypeObject, DType_Type);
        if (!o)
            return -1;
        o->num = (usmarr_dtype_t)d;
        dtype_objects[d] = (PyObject *)o;
        const char *name = usmarr_dtype_name(d);
        if (PyModule_AddObjectRef(m, name, (PyObject *)o) < 0)
            return -1;
    }
    return PyModule_AddFunctions(m, base_methods);
}
