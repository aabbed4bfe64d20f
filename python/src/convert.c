/* Python objects to arrays and back: Python scalars, nested sequences, the buffer
 * protocol, NumPy's array interface, the USM array interface, DLPack producers; host
 * copies for NumPy; and the small converters of arguments (USM kinds, orders, shapes, axes). */
#include "module.h"

#include <stdlib.h>
#include <string.h>

/* ---- arguments: USM kinds, orders, shapes, axes, out= ------------------------------------ */
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

/* ---- scalars ------------------------------------------------------------------------------ */
int scalar_from_object(PyObject *obj, usmarr_scalar_t *scalar)
{
    if (PyBool_Check(obj)) {
        *scalar = usmarr_scalar_bool(obj == Py_True);
        return 1;
    }
    if (PyLong_Check(obj)) {
        int overflow;
        long long v = PyLong_AsLongLongAndOverflow(obj, &overflow);
        if (v == -1 && PyErr_Occurred())
            return -1;
        if (!overflow) {
            *scalar = usmarr_scalar_int(v);
            return 1;
        }
        unsigned long long u = overflow > 0 ? PyLong_AsUnsignedLongLong(obj) : 0;
        if (overflow < 0 || (u == (unsigned long long)-1 && PyErr_Occurred())) {
            PyErr_Clear();
            PyErr_Format(PyExc_OverflowError, "usmarr: Python integer %R does not fit in 64 bits", obj);
            return -1;
        }
        *scalar = usmarr_scalar_uint(u);
        return 1;
    }
    if (PyFloat_Check(obj)) {
        *scalar = usmarr_scalar_float(PyFloat_AsDouble(obj));
        return 1;
    }
    if (PyComplex_Check(obj)) {
        *scalar = usmarr_scalar_complex(PyComplex_RealAsDouble(obj), PyComplex_ImagAsDouble(obj));
        return 1;
    }
    return 0;
}

static double half_to_double(uint16_t h)
{
    int sign = h >> 15, exponent = (h >> 10) & 0x1f, mantissa = h & 0x3ff;
    double v;
    if (exponent == 0)
        v = mantissa * 0x1p-24;
    else if (exponent == 31)
        v = mantissa ? (double)NAN : (double)INFINITY;
    else
        v = (1.0 + mantissa * 0x1p-10) * ((double)(1 << exponent) * 0x1p-15);
    return sign ? -v : v;
}

PyObject *scalar_to_object(const void *p, usmarr_dtype_t dtype)
{
    switch (dtype) {
    case USMARR_BOOL:
        return PyBool_FromLong(*(const uint8_t *)p);
    case USMARR_INT8:
        return PyLong_FromLong(*(const int8_t *)p);
    case USMARR_INT16:
        return PyLong_FromLong(*(const int16_t *)p);
    case USMARR_INT32:
        return PyLong_FromLong(*(const int32_t *)p);
    case USMARR_INT64:
        return PyLong_FromLongLong(*(const int64_t *)p);
    case USMARR_UINT8:
        return PyLong_FromUnsignedLong(*(const uint8_t *)p);
    case USMARR_UINT16:
        return PyLong_FromUnsignedLong(*(const uint16_t *)p);
    case USMARR_UINT32:
        return PyLong_FromUnsignedLong(*(const uint32_t *)p);
    case USMARR_UINT64:
        return PyLong_FromUnsignedLongLong(*(const uint64_t *)p);
    case USMARR_FLOAT16:
        return PyFloat_FromDouble(half_to_double(*(const uint16_t *)p));
    case USMARR_FLOAT32:
        return PyFloat_FromDouble(*(const float *)p);
    case USMARR_FLOAT64:
        return PyFloat_FromDouble(*(const double *)p);
    case USMARR_COMPLEX64:
        return PyComplex_FromDoubles(((const float *)p)[0], ((const float *)p)[1]);
    case USMARR_COMPLEX128:
        return PyComplex_FromDoubles(((const double *)p)[0], ((const double *)p)[1]);
    default:
        PyErr_SetString(PyExc_TypeError, "usmarr: invalid dtype");
        return NULL;
    }
}

PyObject *array_item(usmarr_array_t *array)
{
    _Alignas(16) unsigned char element[16];
    int rc = usmarr_array_copy_to_host(array, element, NULL);
    if (rc)
        return py_error(rc);
    return scalar_to_object(element, usmarr_array_dtype(array));
}

/* ---- host copies for NumPy ------------------------------------------------------------------ */
PyObject *array_to_numpy(usmarr_array_t *array)
{
    PyObject *numpy = PyImport_ImportModule("numpy");
    if (!numpy)
        return NULL;
    PyObject *shape = tuple_from_int64(usmarr_array_shape(array), usmarr_array_ndim(array));
    PyObject *host = shape ? PyObject_CallMethod(numpy, "empty", "Os", shape, usmarr_dtype_typestr(usmarr_array_dtype(array)))
                           : NULL;
    Py_XDECREF(shape);
    Py_DECREF(numpy);
    if (!host)
        return NULL;
    Py_buffer view;
    if (PyObject_GetBuffer(host, &view, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0) {
        Py_DECREF(host);
        return NULL;
    }
    int rc = usmarr_array_copy_to_host(array, view.buf, NULL);
    PyBuffer_Release(&view);
    if (rc) {
        Py_DECREF(host);
        return py_error(rc);
    }
    return host;
}

/* A copy on another device or of another USM kind, through the host (two contexts never
 * meet in one library call). */
PyObject *array_transfer(usmarr_array_t *array, DeviceObject *device, usmarr_usm_kind_t kind)
{
    usmarr_usm_kind_t own = usmarr_array_usm_kind(array);
    if (kind == USMARR_USM_UNKNOWN)
        kind = own;
    if (usmarr_array_context(array) == device->context && kind == own)
        return array_wrap(usmarr_array_retain(array));
    usmarr_array_t *r = NULL;
    int rc;
    if (usmarr_array_context(array) == device->context) {
        rc = usmarr_array_empty_like(array, -1, USMARR_ORDER_K, kind, &r);
        if (!rc)
            rc = usmarr_array_copy_into(r, array);
        return array_wrap_result(rc, r);
    }
    size_t bytes = (size_t)usmarr_array_nbytes(array);
    void *staging = malloc(bytes ? bytes : 1);
    if (!staging)
        return PyErr_NoMemory();
    rc = usmarr_array_copy_to_host(array, staging, NULL);
    if (!rc)
        rc = usmarr_array_from_host(device->context, usmarr_array_ndim(array), usmarr_array_shape(array),
                                    usmarr_array_dtype(array), staging, NULL, kind, &r);
    free(staging);
    return array_wrap_result(rc, r);
}

/* ---- nested sequences of Python scalars ---------------------------------------------------- */
struct nested {
    int ndim;
    int64_t shape[USMARR_MAX_NDIM];
    usmarr_kind_t kind;
    int has_negative, has_big; /* integers: below 0, above INT64_MAX */
    int foreign;               /* an element that is not a Python scalar */
};

static int nested_scan(PyObject *obj, int depth, struct nested *n)
{
    if (depth < n->ndim) {
        if (!(PyList_Check(obj) || PyTuple_Check(obj)) || PySequence_Size(obj) != n->shape[depth]) {
            PyErr_SetString(PyExc_ValueError, "usmarr: nested sequences of different lengths (a ragged array)");
            return -1;
        }
        for (Py_ssize_t i = 0; i < n->shape[depth]; i++) {
            PyObject *item = PySequence_GetItem(obj, i);
            int rc = item ? nested_scan(item, depth + 1, n) : -1;
            Py_XDECREF(item);
            if (rc < 0)
                return -1;
        }
        return 0;
    }
    if (PyList_Check(obj) || PyTuple_Check(obj)) {
        PyErr_SetString(PyExc_ValueError, "usmarr: nested sequences of different depths (a ragged array)");
        return -1;
    }
    usmarr_kind_t k;
    if (PyBool_Check(obj))
        k = USMARR_KIND_BOOL;
    else if (PyLong_Check(obj)) {
        k = USMARR_KIND_INT;
        int overflow;
        long long v = PyLong_AsLongLongAndOverflow(obj, &overflow);
        if (overflow > 0)
            n->has_big = 1;
        else if (overflow < 0 || v < 0)
            n->has_negative = 1;
    } else if (PyFloat_Check(obj))
        k = USMARR_KIND_FLOAT;
    else if (PyComplex_Check(obj))
        k = USMARR_KIND_COMPLEX;
    else {
        n->foreign = 1;
        return 0;
    }
    if (k > n->kind)
        n->kind = k;
    return 0;
}

static int nested_fill(PyObject *obj, int depth, const struct nested *n, usmarr_dtype_t dtype, char **cursor)
{
    if (depth < n->ndim) {
        for (Py_ssize_t i = 0; i < n->shape[depth]; i++) {
            PyObject *item = PySequence_GetItem(obj, i);
            int rc = item ? nested_fill(item, depth + 1, n, dtype, cursor) : -1;
            Py_XDECREF(item);
            if (rc < 0)
                return -1;
        }
        return 0;
    }
    switch (dtype) {
    case USMARR_BOOL:
        *(uint8_t *)*cursor = obj == Py_True;
        break;
    case USMARR_INT64:
        *(int64_t *)*cursor = PyLong_AsLongLong(obj);
        break;
    case USMARR_UINT64:
        *(uint64_t *)*cursor = PyLong_AsUnsignedLongLong(obj);
        break;
    case USMARR_FLOAT64:
        *(double *)*cursor = PyFloat_AsDouble(obj);
        break;
    default:
        ((double *)*cursor)[0] = PyComplex_RealAsDouble(obj);
        ((double *)*cursor)[1] = PyComplex_ImagAsDouble(obj);
        break;
    }
    if (PyErr_Occurred())
        return -1;
    *cursor += usmarr_dtype_size(dtype);
    return 0;
}

/* 1: converted into *array; 0: elements that are not Python scalars (the caller tries
 * NumPy); -1: error. */
static int from_nested(PyObject *obj, DeviceObject *device, usmarr_usm_kind_t kind, usmarr_array_t **array)
{
    struct nested n = {0};
    PyObject *level = Py_NewRef(obj);
    while (PyList_Check(level) || PyTuple_Check(level)) {
        if (n.ndim == USMARR_MAX_NDIM) {
            Py_DECREF(level);
            PyErr_Format(PyExc_ValueError, "usmarr: nested sequences deeper than %d", USMARR_MAX_NDIM);
            return -1;
        }
        Py_ssize_t len = PySequence_Size(level);
        n.shape[n.ndim++] = len;
        if (len == 0)
            break;
        PyObject *first = PySequence_GetItem(level, 0);
        Py_DECREF(level);
        if (!first)
            return -1;
        level = first;
    }
    Py_DECREF(level);
    if (nested_scan(obj, 0, &n) < 0)
        return -1;
    if (n.foreign)
        return 0;
    int64_t count = 1;
    for (int i = 0; i < n.ndim; i++)
        count *= n.shape[i];
    usmarr_dtype_t dtype = n.kind == USMARR_KIND_BOOL      ? USMARR_BOOL
                           : n.kind == USMARR_KIND_INT     ? (n.has_big ? USMARR_UINT64 : USMARR_INT64)
                           : n.kind == USMARR_KIND_FLOAT   ? USMARR_FLOAT64
                                                           : USMARR_COMPLEX128;
    if (count == 0)
        dtype = USMARR_FLOAT64; /* NumPy's dtype of [] */
    if (n.has_big && n.has_negative && n.kind == USMARR_KIND_INT) {
        PyErr_SetString(PyExc_OverflowError, "usmarr: integers beyond int64 mixed with negative ones");
        return -1;
    }
    char *buffer = malloc(count * usmarr_dtype_size(dtype) + 1), *cursor = buffer;
    if (!buffer) {
        PyErr_NoMemory();
        return -1;
    }
    int rc = count ? nested_fill(obj, 0, &n, dtype, &cursor) : 0;
    if (rc == 0) {
        rc = usmarr_array_from_host(device->context, n.ndim, n.shape, dtype, buffer, NULL, kind, array);
        if (rc)
            rc = py_fail(rc);
    }
    free(buffer);
    return rc < 0 ? -1 : 1;
}

/* ---- the buffer protocol and NumPy's array interface --------------------------------------- */
static int dtype_from_format(const char *format, Py_ssize_t itemsize, usmarr_dtype_t *dtype)
{
    const char *f = format ? format : "B";
    if (*f == '<' || *f == '=' || *f == '@' || *f == '|')
        f++;
    else if ((*f == '>' || *f == '!') && itemsize > 1)
        return -1;
    static const struct {
        const char *code;
        usmarr_kind_t kind;
    } codes[] = {{"?", USMARR_KIND_BOOL}, {"b", USMARR_KIND_INT},  {"h", USMARR_KIND_INT},  {"i", USMARR_KIND_INT},
                 {"l", USMARR_KIND_INT},  {"q", USMARR_KIND_INT},  {"n", USMARR_KIND_INT},  {"B", USMARR_KIND_UINT},
                 {"H", USMARR_KIND_UINT}, {"I", USMARR_KIND_UINT}, {"L", USMARR_KIND_UINT}, {"Q", USMARR_KIND_UINT},
                 {"N", USMARR_KIND_UINT}, {"e", USMARR_KIND_FLOAT}, {"f", USMARR_KIND_FLOAT}, {"d", USMARR_KIND_FLOAT},
                 {"Zf", USMARR_KIND_COMPLEX}, {"Zd", USMARR_KIND_COMPLEX}};
    for (size_t i = 0; i < sizeof codes / sizeof *codes; i++) {
        if (strcmp(f, codes[i].code) != 0)
            continue;
        for (int d = 0; d < USMARR_DTYPE_COUNT; d++)
            if (usmarr_dtype_kind(d) == codes[i].kind && (Py_ssize_t)usmarr_dtype_size(d) == itemsize)
                return *dtype = d, 0;
    }
    return -1;
}

static int from_host_layout(DeviceObject *device, int ndim, const Py_ssize_t *shape, const Py_ssize_t *byte_strides,
                            usmarr_dtype_t dtype, const void *data, usmarr_usm_kind_t kind, usmarr_array_t **array)
{
    int64_t extents[USMARR_MAX_NDIM], strides[USMARR_MAX_NDIM];
    int64_t itemsize = (int64_t)usmarr_dtype_size(dtype);
    if (ndim > USMARR_MAX_NDIM) {
        PyErr_Format(PyExc_ValueError, "usmarr: %d dimensions, at most %d", ndim, USMARR_MAX_NDIM);
        return -1;
    }
    for (int i = 0; i < ndim; i++) {
        extents[i] = shape[i];
        if (byte_strides) {
            if (byte_strides[i] % itemsize) {
                PyErr_Format(PyExc_ValueError, "usmarr: stride %zd bytes of axis %d is not a whole number of "
                                               "%lld-byte elements",
                             byte_strides[i], i, (long long)itemsize);
                return -1;
            }
            strides[i] = byte_strides[i] / itemsize;
        }
    }
    int rc = usmarr_array_from_host(device->context, ndim, extents, dtype, data, byte_strides ? strides : NULL, kind,
                                    array);
    return rc ? py_fail(rc) : 0;
}

static int from_buffer(PyObject *obj, DeviceObject *device, usmarr_usm_kind_t kind, usmarr_array_t **array)
{
    Py_buffer view;
    if (PyObject_GetBuffer(obj, &view, PyBUF_RECORDS_RO) < 0)
        return -1;
    usmarr_dtype_t dtype;
    int rc;
    if (dtype_from_format(view.format, view.itemsize, &dtype) < 0) {
        PyErr_Format(PyExc_TypeError, "usmarr: buffer format '%s' (itemsize %zd) has no usmarr dtype",
                     view.format ? view.format : "B", view.itemsize);
        rc = -1;
    } else {
        Py_ssize_t one = view.len / (view.itemsize ? view.itemsize : 1);
        rc = from_host_layout(device, view.ndim, view.ndim ? view.shape : &one, view.strides, dtype, view.buf, kind,
                              array);
    }
    PyBuffer_Release(&view);
    return rc;
}

static int from_array_interface(PyObject *obj, DeviceObject *device, usmarr_usm_kind_t kind, usmarr_array_t **array)
{
    PyObject *dict = PyObject_GetAttrString(obj, "__array_interface__");
    if (!dict)
        return -1;
    int rc = -1;
    PyObject *shape = PyDict_Check(dict) ? PyDict_GetItemString(dict, "shape") : NULL;
    PyObject *typestr = PyDict_Check(dict) ? PyDict_GetItemString(dict, "typestr") : NULL;
    PyObject *data = PyDict_Check(dict) ? PyDict_GetItemString(dict, "data") : NULL;
    PyObject *strides = PyDict_Check(dict) ? PyDict_GetItemString(dict, "strides") : NULL;
    if (!shape || !typestr || !PyUnicode_Check(typestr) || !data || !PyTuple_Check(data) || PyTuple_Size(data) != 2) {
        PyErr_Format(PyExc_TypeError, "usmarr: %R has an __array_interface__ without shape, typestr and a "
                                      "(pointer, read-only) data tuple",
                     obj);
        goto done;
    }
    usmarr_dtype_t dtype;
    int lib = usmarr_dtype_from_typestr(PyUnicode_AsUTF8AndSize(typestr, NULL), &dtype);
    if (lib) {
        py_error(lib);
        goto done;
    }
    int64_t extents[USMARR_MAX_NDIM], byte_strides[USMARR_MAX_NDIM];
    Py_ssize_t s[USMARR_MAX_NDIM], bs[USMARR_MAX_NDIM];
    int ndim, nstrides = 0;
    if (shape_from_object(shape, extents, &ndim) < 0)
        goto done;
    if (strides && strides != Py_None && shape_from_object(strides, byte_strides, &nstrides) < 0)
        goto done;
    for (int i = 0; i < ndim; i++)
        s[i] = (Py_ssize_t)extents[i], bs[i] = (Py_ssize_t)byte_strides[i];
    void *pointer = PyLong_AsVoidPtr(PyTuple_GetItem(data, 0));
    if (PyErr_Occurred())
        goto done;
    rc = from_host_layout(device, ndim, s, nstrides ? bs : NULL, dtype, pointer, kind, array);
done:
    Py_DECREF(dict);
    return rc;
}

/* ---- the USM array interface: zero copy ------------------------------------------------------ */
static void release_owner(void *pointer, void *owner)
{
    PyGILState_STATE state = PyGILState_Ensure();
    Py_DECREF((PyObject *)owner);
    PyGILState_Release(state);
}

/* The calling thread's current queue on the producer's context waits for the work enqueued
 * on the producer so far (a marker; nothing waits on the host).  0, or -1 with an exception. */
static int order_after(usmarr_queue_t *producer)
{
    usmarr_queue_t *consumer = usmarr_queue_current(usmarr_queue_context(producer));
    if (usmarr_queue_cl(consumer) == usmarr_queue_cl(producer))
        return 0;
    cl_event marker;
    int rc = usmarr_queue_marker(producer, &marker);
    if (!rc) {
        rc = usmarr_queue_wait(consumer, 1, &marker);
        clReleaseEvent(marker);
    }
    return rc ? py_fail(rc) : 0;
}

static int from_usm_interface(PyObject *obj, DeviceObject *device, usmarr_array_t **array)
{
    PyObject *dict = PyObject_GetAttrString(obj, "__sycl_usm_array_interface__");
    if (!dict)
        return -1;
    int rc = -1;
    usmarr_queue_t *producer = NULL;
    usmarr_interface_t iface = {0};
    int64_t shape[USMARR_MAX_NDIM], strides[USMARR_MAX_NDIM];
    PyObject *v;
    if (!PyDict_Check(dict) || !(v = PyDict_GetItemString(dict, "shape")) || shape_from_object(v, shape, &iface.ndim) < 0 ||
        !(v = PyDict_GetItemString(dict, "typestr")) || !PyUnicode_Check(v) ||
        !(iface.typestr = PyUnicode_AsUTF8AndSize(v, NULL)) || !(v = PyDict_GetItemString(dict, "data")) ||
        !PyTuple_Check(v) || PyTuple_Size(v) != 2) {
        if (!PyErr_Occurred())
            PyErr_Format(PyExc_TypeError, "usmarr: %R has a malformed __sycl_usm_array_interface__ (shape, typestr "
                                          "and a (pointer, read-only) data tuple are required)",
                         obj);
        goto done;
    }
    iface.shape = shape;
    /* dpctl writes '|' ("not applicable") as the byte order of every type; NumPy reads it
     * as native, and so does this module (the library itself takes only '<' or '='). */
    char typestr[16];
    if (iface.typestr[0] == '|' && strlen(iface.typestr) < sizeof typestr) {
        strcpy(typestr, iface.typestr);
        typestr[0] = '=';
        iface.typestr = typestr;
    }
    iface.data = PyLong_AsVoidPtr(PyTuple_GetItem(v, 0));
    iface.readonly = PyObject_IsTrue(PyTuple_GetItem(v, 1)) == 1;
    if (PyErr_Occurred())
        goto done;
    if ((v = PyDict_GetItemString(dict, "strides")) && v != Py_None) {
        if (shape_from_object(v, strides, &iface.nstrides) < 0)
            goto done;
        iface.strides = strides;
    }
    if ((v = PyDict_GetItemString(dict, "offset")) && v != Py_None) {
        iface.offset = PyLong_AsLongLong(v);
        if (PyErr_Occurred())
            goto done;
    }
    v = PyDict_GetItemString(dict, "version");
    iface.version = v ? (int)PyLong_AsLong(v) : 0;
    if (PyErr_Occurred())
        goto done;
    v = PyDict_GetItemString(dict, "syclobj");
    if (v && Py_IS_TYPE(v, Queue_Type)) {
        /* usmarr's own: the queue that last wrote the memory, on its device */
        producer = ((QueueObject *)v)->queue;
        if (!device && !(device = device_of_context(usmarr_queue_context(producer))))
            goto done;
    } else if (v && is_sycl_queue(v)) {
        /* a dpctl queue writes the memory: the host waits for it, as from_dlpack does */
        PyObject *waited = PyObject_CallMethod(v, "wait", NULL);
        if (!waited)
            goto done;
        Py_DECREF(waited);
    }
    if (v && PyUnicode_Check(v)) {
        /* A selector names the device; its context in this process is the shared one. */
        device = device_from_object(v);
        if (!device)
            goto done;
        iface.syclobj.kind = USMARR_SYCLOBJ_SELECTOR;
        iface.syclobj.value.selector = PyUnicode_AsUTF8AndSize(v, NULL);
    } else if (!device) {
        /* A SYCL object (dpctl's SyclQueue, SyclContext or SyclDevice): its device's filter
         * selector, which names the same device here (doc/python.md, interoperability). */
        PyObject *sycl_device = v && !PyObject_HasAttrString(v, "filter_string")
                                    ? PyObject_GetAttrString(v, "sycl_device")
                                    : Py_XNewRef(v);
        PyObject *selector = sycl_device ? PyObject_GetAttrString(sycl_device, "filter_string") : NULL;
        Py_XDECREF(sycl_device);
        PyErr_Clear();
        device = device_from_object(selector && PyUnicode_Check(selector) ? selector : NULL);
        Py_XDECREF(selector);
        if (!device)
            goto done;
    }
    Py_INCREF(obj);
    int lib = usmarr_interface_import(&iface, device->context, release_owner, obj, array);
    if (lib) {
        Py_DECREF(obj);
        py_error(lib);
        rc = lib == USMARR_ERROR_FOREIGN_POINTER ? -2 : -1;
        goto done;
    }
    rc = 0;
    if (producer && usmarr_queue_context(producer) == device->context && (rc = order_after(producer)) < 0) {
        usmarr_array_release(*array);
        *array = NULL;
    }
done:
    Py_DECREF(dict);
    return rc;
}

/* ---- the converter ---------------------------------------------------------------------------- */
usmarr_array_t *convert_to_array(PyObject *obj, DeviceObject *device, int dtype, int copy, usmarr_usm_kind_t kind)
{
    usmarr_array_t *r = NULL;
    int fresh = 0, rc;
    usmarr_scalar_t scalar;
    int s = 0;
    if (array_check(obj)) {
        r = usmarr_array_retain(array_of(obj));
    } else if (PyObject_HasAttrString(obj, "__sycl_usm_array_interface__")) {
        int got = from_usm_interface(obj, device, &r);
        /* USM of another OpenCL context (dpctl's own): DLPack, which copies through the host. */
        if (got == -2 && copy != 0 && PyObject_HasAttrString(obj, "__dlpack__")) {
            PyErr_Clear();
            r = convert_dlpack(obj, device, copy, kind);
            fresh = 1;
            got = r ? 0 : -1;
        }
        if (got < 0)
            return NULL;
    } else if ((s = scalar_from_object(obj, &scalar)) != 0) {
        if (s < 0 || (!device && !(device = device_from_object(NULL))))
            return NULL;
        rc = usmarr_array_full(device->context, 0, NULL, scalar, dtype, USMARR_ORDER_C, kind, &r);
        if (rc)
            return (void)py_error(rc), NULL;
        fresh = 1;
    } else {
        if (!device && !(device = device_from_object(NULL)))
            return NULL;
        if (copy == 0 && (PyObject_CheckBuffer(obj) || PyObject_HasAttrString(obj, "__array_interface__") ||
                          PyList_Check(obj) || PyTuple_Check(obj))) {
            /* Buffers, NumPy's array interface and sequences are host memory: always copied. */
            PyErr_Format(PyExc_ValueError, "usmarr: asarray(copy=False) of %R needs a copy (host memory is "
                                           "copied into USM; pass copy=None or True)",
                         (PyObject *)Py_TYPE(obj));
            return NULL;
        }
        if (PyObject_CheckBuffer(obj)) {
            rc = from_buffer(obj, device, kind, &r);
        } else if (PyObject_HasAttrString(obj, "__array_interface__")) {
            rc = from_array_interface(obj, device, kind, &r);
        } else if (PyObject_HasAttrString(obj, "__dlpack__")) {
            r = convert_dlpack(obj, device, copy, kind);
            rc = r ? 0 : -1;
            fresh = copy == 1;
        } else if (PyList_Check(obj) || PyTuple_Check(obj)) {
            rc = from_nested(obj, device, kind, &r);
            if (rc == 0) { /* arrays or NumPy scalars inside: let NumPy gather them */
                PyObject *numpy = PyImport_ImportModule("numpy");
                PyObject *host = numpy ? PyObject_CallMethod(numpy, "asarray", "O", obj) : NULL;
                Py_XDECREF(numpy);
                rc = host ? from_buffer(host, device, kind, &r) : -1;
                Py_XDECREF(host);
            } else if (rc == 1) {
                rc = 0;
            }
        } else {
            PyErr_Format(PyExc_TypeError, "usmarr: cannot make an array of %R (a usmarr.Array, a Python scalar or "
                                          "sequence, a buffer, or an object with __sycl_usm_array_interface__, "
                                          "__array_interface__ or __dlpack__ is needed)",
                         obj);
            return NULL;
        }
        if (rc < 0)
            return NULL;
        if (r && !fresh)
            fresh = !(PyObject_HasAttrString(obj, "__dlpack__") && !PyObject_CheckBuffer(obj) &&
                      !PyObject_HasAttrString(obj, "__array_interface__"));
    }
    /* The device, USM kind and dtype asked for, copying only when needed (or asked). */
    usmarr_array_t *next = NULL;
    if ((device && usmarr_array_context(r) != device->context) ||
        (kind && kind != usmarr_array_usm_kind(r))) {
        if (copy == 0)
            goto refuse;
        PyObject *moved = array_transfer(r, device ? device : device_of_context(usmarr_array_context(r)), kind);
        usmarr_array_release(r);
        if (!moved)
            return NULL;
        r = usmarr_array_retain(array_of(moved));
        Py_DECREF(moved);
        fresh = 1;
    }
    if (dtype >= 0 && dtype != (int)usmarr_array_dtype(r)) {
        if (copy == 0)
            goto refuse;
        rc = usmarr_array_astype(r, (usmarr_dtype_t)dtype, USMARR_ORDER_K, NULL, &next);
        usmarr_array_release(r);
        if (rc)
            return (void)py_error(rc), NULL;
        r = next;
        fresh = 1;
    }
    if (copy == 1 && !fresh) {
        rc = usmarr_array_copy(r, USMARR_ORDER_K, NULL, &next);
        usmarr_array_release(r);
        if (rc)
            return (void)py_error(rc), NULL;
        r = next;
    }
    return r;
refuse:
    usmarr_array_release(r);
    PyErr_SetString(PyExc_ValueError, "usmarr: asarray(copy=False) needs a copy (another device, USM kind or dtype)");
    return NULL;
}

usmarr_array_t *convert_operand(PyObject *obj, const usmarr_array_t *like)
{
    DeviceObject *device = like ? device_of_context(usmarr_array_context(like)) : NULL;
    if (like && !device)
        return NULL;
    return convert_to_array(obj, device, -1, -1, 0);
}

int convert_operands(PyObject *first, PyObject *second, const usmarr_array_t *like, usmarr_array_t **a,
                     usmarr_array_t **b)
{
    *a = convert_operand(first, like);
    *b = *a ? convert_operand(second, like ? like : *a) : NULL;
    if (*b)
        return 0;
    usmarr_array_release(*a);
    *a = NULL;
    return -1;
}

