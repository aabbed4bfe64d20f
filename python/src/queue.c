/* usmarr.Queue and usmarr.Event (include/usmarr/queue.h, doc/python.md "Queues and
 * events"): a queue of a device, `with queue:` as the thread's current queue, markers as
 * events, waits on events; an event over any cl_event of the device's OpenCL context. */
#include "module.h"

#include <limits.h>

PyTypeObject *Queue_Type;
PyTypeObject *Event_Type;

/* The queues `with` replaced, per thread (a thread's current queue is the library's, per
 * thread too); each holds one reference, dropped when its block ends. */
#define MAX_WITH_DEPTH 64
static _Thread_local usmarr_queue_t *saved_queues[MAX_WITH_DEPTH];
static _Thread_local int with_depth;

/* The Device of a classmethod's only argument, device=None (format: "|O:name"). */
static DeviceObject *device_argument(PyObject *args, PyObject *kwargs, const char *format)
{
    static char *keywords[] = {"device", NULL};
    PyObject *device_obj = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, format, keywords, &device_obj))
        return NULL;
    return device_from_object(device_obj);
}

/* ---- usmarr.Event ------------------------------------------------------------------- */

/* Takes the reference to `event`. */
PyObject *event_wrap(cl_event event)
{
    EventObject *e = PyObject_New(EventObject, Event_Type);
    if (!e) {
        clReleaseEvent(event);
        return NULL;
    }
    e->event = event;
    return (PyObject *)e;
}

static void event_dealloc(PyObject *self)
{
    PyTypeObject *type = Py_TYPE(self);
    clReleaseEvent(((EventObject *)self)->event);
    PyObject_Free(self);
    Py_DECREF(type);
}

/* A cl_event handle from a Python integer: non-zero, at most a pointer's width. */
static int handle_from_object(PyObject *obj, const char *what, void **handle)
{
    if (!PyLong_Check(obj) || PyBool_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "usmarr: %s must be an integer handle, not %R", what, (PyObject *)Py_TYPE(obj));
        return -1;
    }
    unsigned long long value = PyLong_AsUnsignedLongLong(obj);
    if (value == (unsigned long long)-1 && PyErr_Occurred()) {
        PyErr_Clear();
        PyErr_Format(PyExc_ValueError, "usmarr: %s=%R is not a handle (0 < handle < 2**%d)", what, obj,
                     (int)(8 * sizeof(void *)));
        return -1;
    }
    if (value == 0 || value > UINTPTR_MAX) {
        PyErr_Format(PyExc_ValueError, "usmarr: %s=%R is not a handle (0 < handle < 2**%d)", what, obj,
                     (int)(8 * sizeof(void *)));
        return -1;
    }
    *handle = (void *)(uintptr_t)value;
    return 0;
}

/* Event(cl_event): wraps an application's event (an integer handle), retaining it. */
static PyObject *event_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"cl_event", NULL};
    PyObject *obj;
    void *handle;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O:Event", keywords, &obj))
        return NULL;
    if (Py_IS_TYPE(obj, Event_Type))
        handle = ((EventObject *)obj)->event;
    else if (handle_from_object(obj, "cl_event", &handle) < 0)
        return NULL;
    cl_int err = clRetainEvent((cl_event)handle);
    if (err != CL_SUCCESS)
        return py_error(usmarr_error_set(err, "clRetainEvent of cl_event=%p", handle));
    return event_wrap((cl_event)handle);
}

static cl_int event_status(cl_event event, cl_int *status)
{
    return clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof *status, status, NULL);
}

static PyObject *event_wait(PyObject *self, PyObject *unused)
{
    cl_event event = ((EventObject *)self)->event;
    cl_int err;
    Py_BEGIN_ALLOW_THREADS
    err = clWaitForEvents(1, &event);
    Py_END_ALLOW_THREADS
    if (err != CL_SUCCESS)
        return py_error(usmarr_error_set(err, "clWaitForEvents: the event's command failed or was aborted"));
    Py_RETURN_NONE;
}

static PyObject *event_done(PyObject *self, void *unused)
{
    cl_int status, err = event_status(((EventObject *)self)->event, &status);
    if (err != CL_SUCCESS)
        return py_error(usmarr_error_set(err, "clGetEventInfo(CL_EVENT_COMMAND_EXECUTION_STATUS)"));
    if (status < 0)
        return py_error(usmarr_error_set(status, "the event's command failed (execution status %d)", (int)status));
    return PyBool_FromLong(status == CL_COMPLETE);
}

static PyObject *event_handle(PyObject *self, void *unused)
{
    return PyLong_FromVoidPtr(((EventObject *)self)->event);
}

/* elapsed_time(end): milliseconds from this event's end to `end`'s (both waited for), as
 * CuPy's get_elapsed_time: the two must be profiled commands (markers of a queue made with
 * profiling=True). */
static PyObject *event_elapsed_time(PyObject *self, PyObject *end)
{
    if (!Py_IS_TYPE(end, Event_Type)) {
        PyErr_Format(PyExc_TypeError, "usmarr: Event.elapsed_time(end): end must be a usmarr.Event, not %R",
                     (PyObject *)Py_TYPE(end));
        return NULL;
    }
    cl_event events[2] = {((EventObject *)self)->event, ((EventObject *)end)->event};
    cl_ulong times[2];
    cl_int err;
    Py_BEGIN_ALLOW_THREADS
    err = clWaitForEvents(2, events);
    Py_END_ALLOW_THREADS
    if (err != CL_SUCCESS)
        return py_error(usmarr_error_set(err, "clWaitForEvents: an event's command failed or was aborted"));
    for (int i = 0; i < 2; i++) {
        err = clGetEventProfilingInfo(events[i], CL_PROFILING_COMMAND_END, sizeof times[i], &times[i], NULL);
        if (err != CL_SUCCESS)
            return py_error(usmarr_error_set(err, "the %s event has no profiling information (a marker of a queue "
                                                  "made with usmarr.Queue(profiling=True) has)",
                                             i ? "end" : "start"));
    }
    return PyFloat_FromDouble(((double)times[1] - (double)times[0]) * 1e-6);
}

/* set(): completes a user event (Event.user), releasing the work that waits for it. */
static PyObject *event_set(PyObject *self, PyObject *unused)
{
    cl_event event = ((EventObject *)self)->event;
    cl_command_type type;
    cl_int err = clGetEventInfo(event, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL);
    if (err == CL_SUCCESS && type != CL_COMMAND_USER) {
        PyErr_SetString(PyExc_ValueError, "usmarr: Event.set(): only a user event (Event.user) can be set");
        return NULL;
    }
    if (err == CL_SUCCESS)
        err = clSetUserEventStatus(event, CL_COMPLETE);
    if (err != CL_SUCCESS)
        return py_error(usmarr_error_set(err, "clSetUserEventStatus(CL_COMPLETE): a user event is set once"));
    Py_RETURN_NONE;
}

/* Event.user(device=None): a user event of the device's OpenCL context, set by set(). */
static PyObject *event_user(PyObject *cls, PyObject *args, PyObject *kwargs)
{
    DeviceObject *device = device_argument(args, kwargs, "|O:user");
    if (!device)
        return NULL;
    cl_int err;
    cl_event event = clCreateUserEvent(usmarr_context_cl_context(device->context), &err);
    if (err != CL_SUCCESS)
        return py_error(usmarr_error_set(err, "clCreateUserEvent"));
    return event_wrap(event);
}

static PyObject *event_repr(PyObject *self)
{
    cl_int status;
    const char *state = event_status(((EventObject *)self)->event, &status) != CL_SUCCESS ? "unknown"
                        : status == CL_COMPLETE                                           ? "done"
                        : status < 0                                                      ? "failed"
                                                                                          : "pending";
    return PyUnicode_FromFormat("usmarr.Event(cl_event=%p, %s)", ((EventObject *)self)->event, state);
}

static PyGetSetDef event_getset[] = {
    {"done", event_done, NULL, "whether the event's command has completed (without waiting)", NULL},
    {"cl_event", event_handle, NULL, "the cl_event handle, as an integer (the event keeps its reference)", NULL},
    {NULL},
};

static PyMethodDef event_methods[] = {
    {"wait", event_wait, METH_NOARGS, "wait($self, /)\n--\n\nWaits on the host until the event completes."},
    {"elapsed_time", event_elapsed_time, METH_O,
     "elapsed_time($self, end, /)\n--\n\nMilliseconds from this event's end to end's, from OpenCL profiling "
     "(markers of a Queue(profiling=True)); waits for both."},
    {"set", event_set, METH_NOARGS, "set($self, /)\n--\n\nCompletes a user event (Event.user)."},
    {"user", (PyCFunction)(void (*)(void))event_user, METH_VARARGS | METH_KEYWORDS | METH_CLASS,
     "user(device=None)\n--\n\nA user event of the device's OpenCL context: work that waits for it waits until "
     "set() is called."},
    {NULL},
};

static PyType_Slot event_slots[] = {
    {Py_tp_new, event_new}, {Py_tp_dealloc, event_dealloc}, {Py_tp_repr, event_repr},
    {Py_tp_getset, event_getset}, {Py_tp_methods, event_methods},
    {Py_tp_doc, "Event(cl_event)\n--\n\nAn OpenCL event: a queue's marker, a user event, or an application's "
                "cl_event (an integer handle, retained)."},
    {0, NULL},
};
static PyType_Spec event_spec = {"usmarr.Event", sizeof(EventObject), 0, Py_TPFLAGS_DEFAULT, event_slots};

/* ---- usmarr.Queue ------------------------------------------------------------------- */

/* Takes the reference to `queue`. */
PyObject *queue_wrap(usmarr_queue_t *queue)
{
    QueueObject *q = PyObject_New(QueueObject, Queue_Type);
    if (!q) {
        usmarr_queue_release(queue);
        return NULL;
    }
    q->queue = queue;
    return (PyObject *)q;
}

/* Queue(device=None, *, profiling=False, cl_queue=None) */
static PyObject *queue_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"device", "profiling", "cl_queue", NULL};
    PyObject *device_obj = Py_None, *handle_obj = Py_None;
    int profiling = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|O$pO:Queue", keywords, &device_obj, &profiling, &handle_obj))
        return NULL;
    DeviceObject *device = device_from_object(device_obj);
    if (!device)
        return NULL;
    void *handle = NULL;
    if (handle_obj != Py_None) {
        if (handle_from_object(handle_obj, "cl_queue", &handle) < 0)
            return NULL;
        if (profiling) {
            PyErr_SetString(PyExc_ValueError, "usmarr: Queue(cl_queue=..., profiling=True): an adopted queue "
                                              "profiles as the application made it");
            return NULL;
        }
    }
    usmarr_queue_t *queue;
    int rc = handle ? usmarr_queue_adopt(device->context, (cl_command_queue)handle, &queue)
                    : usmarr_queue_create(device->context, profiling ? USMARR_QUEUE_PROFILING : 0, &queue);
    if (rc)
        return py_error(rc);
    return queue_wrap(queue);
}

static void queue_dealloc(PyObject *self)
{
    PyTypeObject *type = Py_TYPE(self);
    usmarr_queue_release(((QueueObject *)self)->queue);
    PyObject_Free(self);
    Py_DECREF(type);
}

static PyObject *queue_marker(PyObject *self, PyObject *unused)
{
    cl_event event;
    int rc = usmarr_queue_marker(((QueueObject *)self)->queue, &event);
    if (rc)
        return py_error(rc);
    return event_wrap(event);
}

/* wait(events): the queue's later work waits for every event of the sequence (usmarr.Event
 * objects or integer cl_event handles). */
static PyObject *queue_wait(PyObject *self, PyObject *events)
{
    if (Py_IS_TYPE(events, Event_Type) || PyLong_Check(events) || PyUnicode_Check(events) ||
        !PySequence_Check(events)) {
        PyErr_Format(PyExc_TypeError, "usmarr: Queue.wait(events): events must be a sequence of usmarr.Event or "
                                      "integer cl_event handles, not %R (wrap one event in a list)",
                     (PyObject *)Py_TYPE(events));
        return NULL;
    }
    PyObject *items = PySequence_List(events); /* holds the events until the wait is enqueued */
    Py_ssize_t n = items ? PyList_Size(items) : -1;
    cl_event *list = n < 0 ? NULL : PyMem_Malloc(sizeof *list * (size_t)(n ? n : 1));
    if (!list) {
        Py_XDECREF(items);
        return n < 0 ? NULL : PyErr_NoMemory();
    }
    int failed = 0;
    for (Py_ssize_t i = 0; !failed && i < n; i++) {
        PyObject *item = PyList_GetItem(items, i);
        char what[32];
        snprintf(what, sizeof what, "events[%zd]", i);
        if (Py_IS_TYPE(item, Event_Type))
            list[i] = ((EventObject *)item)->event;
        else
            failed = handle_from_object(item, what, (void **)&list[i]) < 0;
    }
    int rc = failed ? 0 : usmarr_queue_wait(((QueueObject *)self)->queue, (size_t)n, list);
    PyMem_Free(list);
    Py_DECREF(items);
    if (failed)
        return NULL;
    if (rc)
        return py_error(rc);
    Py_RETURN_NONE;
}

static PyObject *queue_synchronize(PyObject *self, PyObject *unused)
{
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = usmarr_queue_finish(((QueueObject *)self)->queue);
    Py_END_ALLOW_THREADS
    if (rc)
        return py_error(rc);
    Py_RETURN_NONE;
}

static PyObject *queue_enter(PyObject *self, PyObject *unused)
{
    if (with_depth == MAX_WITH_DEPTH) {
        PyErr_Format(PyExc_RuntimeError, "usmarr: `with queue:` nested deeper than %d blocks", MAX_WITH_DEPTH);
        return NULL;
    }
    usmarr_queue_t *previous = usmarr_queue_retain(usmarr_queue_get_current());
    int rc = usmarr_queue_set_current(((QueueObject *)self)->queue);
    if (rc) {
        usmarr_queue_release(previous);
        return py_error(rc);
    }
    saved_queues[with_depth++] = previous;
    return Py_NewRef(self);
}

/* Restores the queue current before the block, whatever ended it (an exception passes on). */
static PyObject *queue_exit(PyObject *self, PyObject *args)
{
    if (with_depth == 0) {
        PyErr_SetString(PyExc_RuntimeError, "usmarr: Queue.__exit__ without a matching __enter__ in this thread");
        return NULL;
    }
    usmarr_queue_t *previous = saved_queues[--with_depth];
    saved_queues[with_depth] = NULL;
    int rc = usmarr_queue_set_current(previous);
    usmarr_queue_release(previous);
    if (rc)
        return py_error(rc);
    Py_RETURN_FALSE;
}

static PyObject *queue_get(PyObject *self, void *what)
{
    usmarr_queue_t *queue = ((QueueObject *)self)->queue;
    if (what)
        return PyLong_FromVoidPtr(usmarr_queue_cl(queue));
    return Py_XNewRef((PyObject *)device_of_context(usmarr_queue_context(queue)));
}

/* Queue.current(device=None): the queue the calling thread's operations on the device use. */
static PyObject *queue_current(PyObject *cls, PyObject *args, PyObject *kwargs)
{
    DeviceObject *device = device_argument(args, kwargs, "|O:current");
    if (!device)
        return NULL;
    return queue_wrap(usmarr_queue_retain(usmarr_queue_current(device->context)));
}

static PyObject *queue_richcompare(PyObject *a, PyObject *b, int op)
{
    if (!Py_IS_TYPE(b, Queue_Type) || (op != Py_EQ && op != Py_NE))
        Py_RETURN_NOTIMPLEMENTED;
    int same = usmarr_queue_cl(((QueueObject *)a)->queue) == usmarr_queue_cl(((QueueObject *)b)->queue);
    return PyBool_FromLong(op == Py_EQ ? same : !same);
}

static Py_hash_t queue_hash(PyObject *self)
{
    Py_hash_t h = (Py_hash_t)(uintptr_t)usmarr_queue_cl(((QueueObject *)self)->queue);
    return h == -1 ? -2 : h;
}

static PyObject *queue_repr(PyObject *self)
{
    usmarr_queue_t *queue = ((QueueObject *)self)->queue;
    return PyUnicode_FromFormat("usmarr.Queue(%s, cl_queue=%p)",
                                usmarr_context_info(usmarr_queue_context(queue))->selector, usmarr_queue_cl(queue));
}

static PyGetSetDef queue_getset[] = {
    {"device", queue_get, NULL, "the queue's usmarr.Device", NULL},
    {"cl_queue", queue_get, NULL, "the cl_command_queue handle, as an integer (the queue keeps its reference)",
     (void *)1},
    {NULL},
};

static PyMethodDef queue_methods[] = {
    {"marker", queue_marker, METH_NOARGS,
     "marker($self, /)\n--\n\nAn Event that completes when the work enqueued so far has completed."},
    {"wait", queue_wait, METH_O,
     "wait($self, events, /)\n--\n\nThe work enqueued from now on waits for the events (usmarr.Event or integer "
     "cl_event handles); returns at once."},
    {"synchronize", queue_synchronize, METH_NOARGS,
     "synchronize($self, /)\n--\n\nWaits on the host until the work enqueued so far has completed."},
    {"current", (PyCFunction)(void (*)(void))queue_current, METH_VARARGS | METH_KEYWORDS | METH_CLASS,
     "current(device=None)\n--\n\nThe queue this thread's operations on the device use: the innermost "
     "`with queue:` of that device, else the device's own queue."},
    {"__enter__", queue_enter, METH_NOARGS, NULL},
    {"__exit__", queue_exit, METH_VARARGS, NULL},
    {NULL},
};

static PyType_Slot queue_slots[] = {
    {Py_tp_new, queue_new}, {Py_tp_dealloc, queue_dealloc}, {Py_tp_repr, queue_repr},
    {Py_tp_richcompare, queue_richcompare}, {Py_tp_hash, queue_hash}, {Py_tp_getset, queue_getset},
    {Py_tp_methods, queue_methods},
    {Py_tp_doc, "Queue(device=None, *, profiling=False, cl_queue=None)\n--\n\nAn in-order queue of a device: a "
                "new one, or an application's cl_command_queue (an integer handle).  `with queue:` makes it the "
                "thread's current queue for the block."},
    {0, NULL},
};
static PyType_Spec queue_spec = {"usmarr.Queue", sizeof(QueueObject), 0, Py_TPFLAGS_DEFAULT, queue_slots};

int queue_init(PyObject *m)
{
    Event_Type = (PyTypeObject *)PyType_FromSpec(&event_spec);
    if (!Event_Type || PyModule_AddObjectRef(m, "Event", (PyObject *)Event_Type) < 0)
        return -1;
    Queue_Type = (PyTypeObject *)PyType_FromSpec(&queue_spec);
    if (!Queue_Type || PyModule_AddObjectRef(m, "Queue", (PyObject *)Queue_Type) < 0)
        return -1;
    return 0;
}
