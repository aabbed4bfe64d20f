/* The namespace's asarray and from_dlpack (include/usmarr/interop.h, dlpack.h): any
 * supported object, or a DLPack producer, to an array. */
#include "module.h"

/* asarray(obj, /, *, dtype=None, device=None, copy=None, usm_type=None) */
static PyObject *py_asarray(PyObject *self, PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"obj", "dtype", "device", "copy", "usm_type", NULL};
    PyObject *obj, *dtype_obj = Py_None, *device_obj = Py_None, *copy_obj = Py_None, *usm_obj = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|$OOOO:asarray", keywords, &obj, &dtype_obj, &device_obj, &copy_obj,
                                     &usm_obj))
        return NULL;
    int dtype, copy = copy_obj == Py_None ? -1 : PyObject_IsTrue(copy_obj);
    usmarr_usm_kind_t kind;
    if (copy_obj != Py_None && copy < 0)
        return NULL;
    if (dtype_from_object(dtype_obj, &dtype) < 0 || usm_kind_from_object(usm_obj, &kind) < 0)
        return NULL;
    DeviceObject *device = NULL;
    if (device_obj != Py_None && !(device = device_from_object(device_obj)))
        return NULL;
    return array_wrap_like(obj, convert_to_array(obj, device, dtype, copy, kind));
}

/* from_dlpack(x, /, *, device=None, copy=None) */
static PyObject *py_from_dlpack(PyObject *self, PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"x", "device", "copy", NULL};
    PyObject *x, *device_obj = Py_None, *copy_obj = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|$OO:from_dlpack", keywords, &x, &device_obj, &copy_obj))
        return NULL;
    int copy = copy_obj == Py_None ? -1 : PyObject_IsTrue(copy_obj);
    if (copy_obj != Py_None && copy < 0)
        return NULL;
    DeviceObject *device = NULL;
    if (device_obj != Py_None && !(device = device_from_object(device_obj)))
        return NULL;
    if (!PyObject_HasAttrString(x, "__dlpack__")) {
        PyErr_Format(PyExc_TypeError, "usmarr.from_dlpack: %R has no __dlpack__", x);
        return NULL;
    }
    if (array_check(x)) /* our own arrays: the same memory block, no capsule round trip */
        return array_wrap(convert_to_array(x, device, -1, copy, 0));
    return array_wrap(convert_dlpack(x, device, copy, 0));
}

#define KW (METH_VARARGS | METH_KEYWORDS)
#define FN(f) (PyCFunction)(void (*)(void))(f)
PyMethodDef interop_methods[] = {
    {"asarray", FN(py_asarray), KW, "asarray(obj, /, *, dtype=None, device=None, copy=None, usm_type=None)\n--\n\n"},
    {"from_dlpack", FN(py_from_dlpack), KW, "from_dlpack(x, /, *, device=None, copy=None)\n--\n\n"},
    {NULL},
};
