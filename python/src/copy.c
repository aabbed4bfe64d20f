/* The namespace's astype (include/usmarr/copy.h), one library call. */
#include "module.h"

/* astype(x, dtype, /, *, copy=True, device=None) */
static PyObject *py_astype(PyObject *self, PyObject *args, PyObject *kwargs)
{
    PyObject *t = traced_tuple("astype", args, kwargs);
    if (t || PyErr_Occurred())
        return t;
    static char *keywords[] = {"x", "dtype", "copy", "device", NULL};
    PyObject *x, *dtype_obj, *device_obj = Py_None;
    int copy = 1, dtype;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OO|$pO:astype", keywords, &x, &dtype_obj, &copy, &device_obj) ||
        dtype_from_object(dtype_obj, &dtype) < 0)
        return NULL;
    if (!array_check(x)) {
        PyErr_SetString(PyExc_TypeError, "usmarr.astype: x must be a usmarr.Array");
        return NULL;
    }
    DeviceObject *device = device_obj == Py_None ? NULL : device_from_object(device_obj);
    if (device_obj != Py_None && !device)
        return NULL;
    return array_wrap_like(x, convert_to_array(x, device, dtype, copy ? 1 : -1, 0));
}

#define KW (METH_VARARGS | METH_KEYWORDS)
#define FN(f) (PyCFunction)(void (*)(void))(f)
PyMethodDef copy_methods[] = {
    {"astype", FN(py_astype), KW, "astype(x, dtype, /, *, copy=True, device=None)\n--\n\n"},
    {NULL},
};
