/* usmarr.Device: one library context per OpenCL device, and the module's device functions
 * (get_device, devices, adopt_device). */
#include "module.h"

#include <string.h>

PyTypeObject *Device_Type;

/* One Device (one library context) per OpenCL device, made on first use and kept for the
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

/* ---- the module's device functions ---------------------------------------------------- */
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

static PyMethodDef device_functions[] = {
    {"adopt_device", (PyCFunction)(void (*)(void))py_adopt_device, METH_VARARGS | METH_KEYWORDS,
     "adopt_device(cl_context, cl_device, cl_queue=None)\n--\n\nA Device over another runtime's OpenCL context "
     "(handles as integers); the first Device of its selector."},
    {"get_device", py_get_device, METH_VARARGS,
     "get_device(selector=None, /)\n--\n\nThe Device a filter selector names (None: the default device)."},
    {"devices", py_devices, METH_NOARGS, "devices()\n--\n\nEvery usable USM device, as Device objects."},
    {NULL},
};

/* The Device type and the device functions, added to `module`. */
int device_init(PyObject *m)
{
    device_list = PyList_New(0);
    device_aliases = PyDict_New();
    if (!device_list || !device_aliases)
        return -1;
    Device_Type = (PyTypeObject *)PyType_FromSpec(&device_spec);
    if (!Device_Type || PyModule_AddObjectRef(m, "Device", (PyObject *)Device_Type) < 0)
        return -1;
    return PyModule_AddFunctions(m, device_functions);
}
