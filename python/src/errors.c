/* The exceptions: usmarr.UsmarrError and one subclass per Python exception a library code
 * resembles; py_error and its kin raise a library failure as one of them.  The bottom of
 * the module's sources: it calls no other. */
#include "module.h"

#include <string.h>

/* One base class, usmarr.UsmarrError, and one subclass per Python exception a library
 * code resembles, so that `except IndexError` works as it does with NumPy. */
static PyObject *error_base;
enum { ERR_VALUE, ERR_INDEX, ERR_TYPE, ERR_MEMORY, ERR_OVERFLOW, ERR_RUNTIME, ERR_BUFFER, ERR_AXIS, ERR_LINALG, ERR_COUNT };
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
    [ERR_LINALG] = {"usmarr.linalg.LinAlgError", &PyExc_ValueError}, /* as NumPy's; usmarr.linalg offers it */
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
    case USMARR_ERROR_LINALG:
        return ERR_LINALG;
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

static PyObject *py_strerror(PyObject *self, PyObject *arg)
{
    long code = PyLong_AsLong(arg);
    if (code == -1 && PyErr_Occurred())
        return NULL;
    return PyUnicode_FromString(usmarr_strerror((int)code));
}


static PyMethodDef errors_methods[] = {
    {"strerror", py_strerror, METH_O, "strerror(code, /)\n--\n\nThe library's description of a status code."},
    {NULL},
};

/* UsmarrError and its subclasses, and strerror, added to `module`. */
int errors_init(PyObject *m)
{
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
        if (!error_classes[i] || PyModule_AddObjectRef(m, strrchr(error_specs[i].name, '.') + 1, error_classes[i]) < 0)
            return -1;
    }
    return PyModule_AddFunctions(m, errors_methods);
}
