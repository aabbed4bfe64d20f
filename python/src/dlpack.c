/* DLPack: __dlpack__ and __dlpack_device__ of usmarr.Array, and a producer's capsule to an
 * array (from_dlpack is in convert.c), as thin calls of the library's export and import
 * (include/usmarr/dlpack.h, doc/interop.md); __dlpack__'s stream orders the array's
 * writes for the consumer (doc/python.md, "Queues and events"). */
#include "module.h"

#include <string.h>

static const char versioned_name[] = "dltensor_versioned";
static const char legacy_name[] = "dltensor";

/* A capsule nobody consumed still owns its tensor. */
static void versioned_destructor(PyObject *capsule)
{
    if (!PyCapsule_IsValid(capsule, versioned_name))
        return;
    usmarr_dl_managed_tensor_versioned_t *t = PyCapsule_GetPointer(capsule, versioned_name);
    if (t && t->deleter)
        t->deleter(t);
}

static void legacy_destructor(PyObject *capsule)
{
    if (!PyCapsule_IsValid(capsule, legacy_name))
        return;
    usmarr_dl_managed_tensor_t *t = PyCapsule_GetPointer(capsule, legacy_name);
    if (t && t->deleter)
        t->deleter(t);
}

static int copy_mode(PyObject *copy, usmarr_dlpack_copy_t *mode)
{
    if (copy == NULL || copy == Py_None) {
        *mode = USMARR_DLPACK_COPY_IF_NEEDED;
        return 0;
    }
    int truth = PyObject_IsTrue(copy);
    if (truth < 0)
        return -1;
    *mode = truth ? USMARR_DLPACK_COPY_ALWAYS : USMARR_DLPACK_COPY_NEVER;
    return 0;
}

/* Waits on the host for the work that wrote the array: the thread's current queue is
 * ordered after the queue that last wrote its block, and a marker of it waited for. */
int array_wait_for_writes(usmarr_array_t *array)
{
    usmarr_queue_t *queue = usmarr_queue_current(usmarr_array_context(array));
    cl_event marker = NULL;
    int rc = usmarr_array_record_queue(array, queue);
    if (!rc)
        rc = usmarr_queue_marker(queue, &marker);
    cl_int err = CL_SUCCESS;
    if (!rc) {
        Py_BEGIN_ALLOW_THREADS
        err = clWaitForEvents(1, &marker);
        Py_END_ALLOW_THREADS
        clReleaseEvent(marker);
    }
    if (!rc && err != CL_SUCCESS)
        rc = usmarr_error_set(err, "clWaitForEvents: the work that wrote the array failed");
    return rc ? py_fail(rc) : 0;
}

/* Whether `stream` is a dpctl.SyclQueue (told by its type, dpctl being optional). */
int is_sycl_queue(PyObject *obj)
{
    PyObject *type = (PyObject *)Py_TYPE(obj);
    PyObject *name = PyObject_GetAttrString(type, "__name__"), *module = PyObject_GetAttrString(type, "__module__");
    const char *where = module && PyUnicode_Check(module) ? PyUnicode_AsUTF8AndSize(module, NULL) : NULL;
    int yes = name && PyUnicode_Check(name) && PyUnicode_CompareWithASCIIString(name, "SyclQueue") == 0 && where &&
              strncmp(where, "dpctl", 5) == 0 && (where[5] == '\0' || where[5] == '.');
    Py_XDECREF(name);
    Py_XDECREF(module);
    PyErr_Clear();
    return yes;
}

/* Whether a dpctl.SyclQueue runs on OpenCL (its backend's name). */
int sycl_queue_is_opencl(PyObject *queue)
{
    PyObject *backend = PyObject_GetAttrString(queue, "backend");
    PyObject *name = backend ? PyObject_GetAttrString(backend, "name") : NULL;
    Py_XDECREF(backend);
    if (!name)
        return -1;
    int opencl = PyUnicode_Check(name) && PyUnicode_CompareWithASCIIString(name, "opencl") == 0;
    Py_DECREF(name);
    return opencl;
}

/* Orders the array's writes for the consumer `stream` names, as DLPack asks of a producer
 * on this device type: None, the consumer's queue unknown: the writes are complete on
 * return; -1: nothing; a usmarr.Queue: that queue waits for them (nothing waits on the
 * host); an OpenCL dpctl.SyclQueue: complete on return (dpctl gives no native queue to
 * order on the device).  0 or -1 with an exception. */
static int order_for_stream(usmarr_array_t *array, PyObject *stream)
{
    if (stream == Py_None)
        return array_wait_for_writes(array);
    if (PyLong_Check(stream) && !PyBool_Check(stream)) {
        int overflow;
        long value = PyLong_AsLongAndOverflow(stream, &overflow);
        if (value == -1 && !overflow && !PyErr_Occurred())
            return 0;
        if (!PyErr_Occurred())
            PyErr_Format(PyExc_ValueError, "usmarr: __dlpack__(stream=%R): an integer stream must be -1 (no "
                                           "synchronisation); pass a usmarr.Queue to order a queue after the "
                                           "array's writes, or None to wait for them",
                         stream);
        return -1;
    }
    if (Py_IS_TYPE(stream, Queue_Type)) {
        usmarr_queue_t *queue = ((QueueObject *)stream)->queue;
        if (usmarr_queue_context(queue) != usmarr_array_context(array)) {
            PyErr_Format(PyExc_ValueError, "usmarr: __dlpack__(stream=%R): the queue belongs to another device than "
                                           "the array (%s)",
                         stream, usmarr_context_info(usmarr_array_context(array))->selector);
            return -1;
        }
        int rc = usmarr_array_record_queue(array, queue);
        return rc ? py_fail(rc) : 0;
    }
    if (is_sycl_queue(stream)) {
        int opencl = sycl_queue_is_opencl(stream);
        if (opencl < 0)
            return -1;
        if (!opencl) {
            PyObject *backend = PyObject_GetAttrString(stream, "backend");
            PyErr_Format(PyExc_BufferError, "usmarr: __dlpack__(stream=%R): a dpctl.SyclQueue of backend %R: "
                                            "only an OpenCL queue shares the array's device",
                         stream, backend ? backend : Py_None);
            Py_XDECREF(backend);
            return -1;
        }
        return array_wait_for_writes(array);
    }
    PyErr_Format(PyExc_TypeError, "usmarr: __dlpack__(stream=%R): stream must be None, -1, a usmarr.Queue or an "
                                  "OpenCL dpctl.SyclQueue",
                 stream);
    return -1;
}

PyObject *array_dlpack(PyObject *self, PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"stream", "max_version", "dl_device", "copy", NULL};
    PyObject *stream = Py_None, *max_version = Py_None, *dl_device = Py_None, *copy = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|$OOOO:__dlpack__", keywords, &stream, &max_version, &dl_device,
                                     &copy))
        return NULL;
    usmarr_dlpack_copy_t mode;
    usmarr_dl_device_t device, *want = NULL;
    if (copy_mode(copy, &mode) < 0)
        return NULL;
    if (dl_device != Py_None) {
        if (!PyArg_ParseTuple(dl_device, "ii:dl_device", &device.device_type, &device.device_id))
            return NULL;
        want = &device;
    }
    long major = 0;
    if (max_version != Py_None) {
        PyObject *first = PySequence_Check(max_version) ? PySequence_GetItem(max_version, 0) : NULL;
        major = first ? PyLong_AsLong(first) : -1;
        Py_XDECREF(first);
        if (major == -1 && PyErr_Occurred())
            return NULL;
    }
    if (order_for_stream(array_of(self), stream) < 0)
        return NULL;
    int rc;
    /* A consumer that names no version (or only 0.x) gets the legacy struct. */
    if (major >= 1) {
        usmarr_dl_managed_tensor_versioned_t *t;
        Py_BEGIN_ALLOW_THREADS
        rc = usmarr_array_to_dlpack(array_of(self), want, mode, &t);
        Py_END_ALLOW_THREADS
        if (rc)
            return py_buffer_error(rc);
        PyObject *capsule = PyCapsule_New(t, versioned_name, versioned_destructor);
        if (!capsule)
            t->deleter(t);
        return capsule;
    }
    usmarr_dl_managed_tensor_t *t;
    Py_BEGIN_ALLOW_THREADS
    rc = usmarr_array_to_dlpack_unversioned(array_of(self), want, mode, &t);
    Py_END_ALLOW_THREADS
    if (rc)
        return py_buffer_error(rc);
    PyObject *capsule = PyCapsule_New(t, legacy_name, legacy_destructor);
    if (!capsule)
        t->deleter(t);
    return capsule;
}

PyObject *array_dlpack_device(PyObject *self, PyObject *unused)
{
    usmarr_dl_device_t device;
    int rc = usmarr_array_dlpack_device(array_of(self), &device);
    if (rc)
        return py_error(rc);
    return Py_BuildValue("(ii)", device.device_type, device.device_id);
}

/* Calls obj.__dlpack__ as a DLPack 1.x consumer, falling back to the legacy call for
 * producers that take no arguments (NumPy before 2.1). */
static PyObject *request_capsule(PyObject *obj, PyObject *copy, int host)
{
    PyObject *method = PyObject_GetAttrString(obj, "__dlpack__");
    if (!method)
        return NULL;
    PyObject *kwargs = Py_BuildValue("{s:(ii)}", "max_version", USMARR_DL_MAJOR_VERSION, USMARR_DL_MINOR_VERSION);
    if (kwargs && copy && copy != Py_None)
        PyDict_SetItemString(kwargs, "copy", copy);
    PyObject *cpu = host ? Py_BuildValue("(ii)", USMARR_DL_CPU, 0) : NULL;
    if (kwargs && cpu)
        PyDict_SetItemString(kwargs, "dl_device", cpu);
    Py_XDECREF(cpu);
    PyObject *empty = PyTuple_New(0);
    PyObject *capsule = kwargs && empty ? PyObject_Call(method, empty, kwargs) : NULL;
    if (!capsule && PyErr_ExceptionMatches(PyExc_TypeError)) {
        PyErr_Clear();
        capsule = PyObject_Call(method, empty, NULL);
    }
    Py_XDECREF(empty);
    Py_XDECREF(kwargs);
    Py_DECREF(method);
    return capsule;
}

/* Imports one capsule; 0, a library code (no exception yet), or 1 with a Python exception. */
static int import_capsule(PyObject *obj, PyObject *capsule, DeviceObject *device, usmarr_dlpack_copy_t mode,
                          usmarr_usm_kind_t kind, usmarr_array_t **array)
{
    int rc;
    if (PyCapsule_IsValid(capsule, versioned_name)) {
        usmarr_dl_managed_tensor_versioned_t *t = PyCapsule_GetPointer(capsule, versioned_name);
        rc = usmarr_array_from_dlpack(t, device->context, mode, kind, array);
        if (!rc)
            PyCapsule_SetName(capsule, "used_dltensor_versioned");
    } else if (PyCapsule_IsValid(capsule, legacy_name)) {
        usmarr_dl_managed_tensor_t *t = PyCapsule_GetPointer(capsule, legacy_name);
        rc = usmarr_array_from_dlpack_unversioned(t, device->context, mode, kind, array);
        if (!rc)
            PyCapsule_SetName(capsule, "used_dltensor");
    } else {
        PyErr_Format(PyExc_TypeError, "usmarr: %R.__dlpack__() returned no unconsumed 'dltensor' or "
                                      "'dltensor_versioned' capsule",
                     obj);
        return 1;
    }
    return rc;
}

/* A dpctl array's producer queue (its sycl_queue) waited for: dpctl's __dlpack__ orders
 * nothing for stream=None, and takes no queue of ours.  0, or -1 with an exception. */
static int wait_for_producer(PyObject *obj)
{
    PyObject *queue = PyObject_GetAttrString(obj, "sycl_queue");
    if (!queue) {
        PyErr_Clear();
        return 0;
    }
    PyObject *done = is_sycl_queue(queue) ? PyObject_CallMethod(queue, "wait", NULL) : Py_NewRef(Py_None);
    Py_DECREF(queue);
    Py_XDECREF(done);
    return done ? 0 : -1;
}

usmarr_array_t *convert_dlpack(PyObject *obj, DeviceObject *device, int copy, usmarr_usm_kind_t kind)
{
    if (wait_for_producer(obj) < 0)
        return NULL;
    usmarr_dlpack_copy_t mode = copy < 0 ? USMARR_DLPACK_COPY_IF_NEEDED
                                : copy ? USMARR_DLPACK_COPY_ALWAYS
                                       : USMARR_DLPACK_COPY_NEVER;
    if (!device) {
        /* A kDLOneAPI producer's device id is the selector ordinal (doc/interop.md). */
        PyObject *where = PyObject_CallMethod(obj, "__dlpack_device__", NULL);
        int type = 0, id = 0;
        if (!where || !PyArg_ParseTuple(where, "ii", &type, &id)) {
            Py_XDECREF(where);
            return NULL;
        }
        Py_DECREF(where);
        PyObject *selector = type == USMARR_DL_ONEAPI ? PyUnicode_FromFormat("%d", id) : Py_NewRef(Py_None);
        device = selector ? device_from_object(selector) : NULL;
        Py_XDECREF(selector);
        if (!device)
            return NULL;
    }
    PyObject *copy_obj = copy < 0 ? Py_None : copy ? Py_True : Py_False;
    usmarr_array_t *array = NULL;
    /* First the producer's own memory; when that is USM of another OpenCL context (dpctl's),
     * and a copy is allowed, a host copy made by the producer (dl_device kDLCPU). */
    for (int host = 0; host < 2; host++) {
        PyObject *capsule = request_capsule(obj, host ? Py_True : copy_obj, host);
        if (!capsule)
            return NULL;
        int rc = import_capsule(obj, capsule, device, host ? USMARR_DLPACK_COPY_ALWAYS : mode, kind, &array);
        Py_DECREF(capsule);
        if (rc == 0)
            return array;
        if (rc == 1)
            return NULL;
        if (rc != USMARR_ERROR_FOREIGN_POINTER || mode == USMARR_DLPACK_COPY_NEVER || host)
            return (void)py_error(rc), NULL;
    }
    return NULL;
}
