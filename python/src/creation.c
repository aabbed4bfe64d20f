/* The namespace's creation functions (include/usmarr/array.h), each one library call. */
#include "module.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>

typedef int (*create_fn)(usmarr_context_t *, int, const int64_t *, usmarr_dtype_t, usmarr_order_t, usmarr_usm_kind_t,
                         usmarr_array_t **);
typedef int (*like_fn)(const usmarr_array_t *, int, usmarr_order_t, usmarr_usm_kind_t, usmarr_array_t **);

/* Where a new array goes: device, USM kind, dtype and order from the usual keywords. */
struct placement {
    DeviceObject *device;
    usmarr_usm_kind_t kind;
    int dtype;
    usmarr_order_t order;
};

static int placement_parse(PyObject *device, PyObject *usm_type, PyObject *dtype, PyObject *order, struct placement *p)
{
    if (dtype_from_object(dtype, &p->dtype) < 0 || usm_kind_from_object(usm_type, &p->kind) < 0 ||
        order_from_object(order, &p->order) < 0)
        return -1;
    p->device = device && device != Py_None ? device_from_object(device) : NULL;
    return device && device != Py_None && !p->device ? -1 : 0;
}

static DeviceObject *placement_device(struct placement *p)
{
    return p->device ? p->device : device_from_object(NULL);
}

/* empty/zeros/ones(shape, *, dtype=None, device=None, usm_type=None, order='C') */
static PyObject *create_call(create_fn fn, PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"shape", "dtype", "device", "usm_type", "order", NULL};
    PyObject *shape_obj, *dtype = NULL, *device = NULL, *usm = NULL, *order = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|$OOOO", keywords, &shape_obj, &dtype, &device, &usm, &order))
        return NULL;
    struct placement p;
    int64_t shape[USMARR_MAX_NDIM];
    int ndim;
    if (shape_from_object(shape_obj, shape, &ndim) < 0 || placement_parse(device, usm, dtype, order, &p) < 0)
        return NULL;
    DeviceObject *d = placement_device(&p);
    if (!d)
        return NULL;
    usmarr_array_t *r = NULL;
    int rc = fn(d->context, ndim, shape, p.dtype < 0 ? USMARR_FLOAT64 : (usmarr_dtype_t)p.dtype, p.order, p.kind, &r);
    return array_wrap_result(rc, r);
}

/* empty_like/zeros_like/ones_like(x, /, *, dtype=None, device=None, usm_type=None, order='K') */
static PyObject *like_call(like_fn fn, create_fn plain, PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"x", "dtype", "device", "usm_type", "order", NULL};
    PyObject *x, *dtype = NULL, *device = NULL, *usm = NULL, *order = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|$OOOO", keywords, &x, &dtype, &device, &usm, &order))
        return NULL;
    struct placement p;
    if (placement_parse(device, usm, dtype, order, &p) < 0)
        return NULL;
    if (!order)
        p.order = USMARR_ORDER_K;
    usmarr_array_t *proto = convert_operand(x, NULL), *r = NULL;
    if (!proto)
        return NULL;
    int rc;
    if (p.device && p.device->context != usmarr_array_context(proto)) {
        usmarr_dtype_t dt = p.dtype < 0 ? usmarr_array_dtype(proto) : (usmarr_dtype_t)p.dtype;
        rc = plain(p.device->context, usmarr_array_ndim(proto), usmarr_array_shape(proto), dt,
                   p.order == USMARR_ORDER_F ? USMARR_ORDER_F : USMARR_ORDER_C,
                   p.kind ? p.kind : usmarr_array_usm_kind(proto), &r);
    } else {
        rc = fn(proto, p.dtype, p.order, p.kind, &r);
    }
    usmarr_array_release(proto);
    return array_wrap_result(rc, r);
}

static PyObject *py_empty(PyObject *s, PyObject *a, PyObject *k) { return create_call(usmarr_array_empty, a, k); }
static PyObject *py_zeros(PyObject *s, PyObject *a, PyObject *k) { return create_call(usmarr_array_zeros, a, k); }
static PyObject *py_ones(PyObject *s, PyObject *a, PyObject *k) { return create_call(usmarr_array_ones, a, k); }
static PyObject *py_empty_like(PyObject *s, PyObject *a, PyObject *k)
{
    return like_call(usmarr_array_empty_like, usmarr_array_empty, a, k);
}
static PyObject *py_zeros_like(PyObject *s, PyObject *a, PyObject *k)
{
    return like_call(usmarr_array_zeros_like, usmarr_array_zeros, a, k);
}
static PyObject *py_ones_like(PyObject *s, PyObject *a, PyObject *k)
{
    return like_call(usmarr_array_ones_like, usmarr_array_ones, a, k);
}

/* A fill value: a Python scalar, or a one-element array read back. */
static int fill_value(PyObject *obj, usmarr_scalar_t *value)
{
    int s = scalar_from_object(obj, value);
    if (s != 0)
        return s < 0 ? -1 : 0;
    if (array_check(obj) && usmarr_array_size(array_of(obj)) == 1) {
        PyObject *item = array_item(array_of(obj));
        s = item ? scalar_from_object(item, value) : -1;
        Py_XDECREF(item);
        if (s > 0)
            value->dtype = (int)usmarr_array_dtype(array_of(obj)); /* a typed scalar */
        return s > 0 ? 0 : -1;
    }
    PyErr_Format(PyExc_TypeError, "usmarr: fill_value must be a Python scalar or a one-element array, not %R", obj);
    return -1;
}

/* full(shape, fill_value, *, dtype=None, device=None, usm_type=None, order='C') */
static PyObject *py_full(PyObject *self, PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"shape", "fill_value", "dtype", "device", "usm_type", "order", NULL};
    PyObject *shape_obj, *value_obj, *dtype = NULL, *device = NULL, *usm = NULL, *order = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OO|$OOOO:full", keywords, &shape_obj, &value_obj, &dtype, &device,
                                     &usm, &order))
        return NULL;
    struct placement p;
    int64_t shape[USMARR_MAX_NDIM];
    int ndim;
    usmarr_scalar_t value;
    if (shape_from_object(shape_obj, shape, &ndim) < 0 || placement_parse(device, usm, dtype, order, &p) < 0 ||
        fill_value(value_obj, &value) < 0)
        return NULL;
    DeviceObject *d = placement_device(&p);
    if (!d)
        return NULL;
    usmarr_array_t *r = NULL;
    int rc = usmarr_array_full(d->context, ndim, shape, value, p.dtype, p.order, p.kind, &r);
    return array_wrap_result(rc, r);
}

/* full_like(x, /, fill_value, *, dtype=None, device=None, usm_type=None, order='K') */
static PyObject *py_full_like(PyObject *self, PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"x", "fill_value", "dtype", "device", "usm_type", "order", NULL};
    PyObject *x, *value_obj, *dtype = NULL, *device = NULL, *usm = NULL, *order = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OO|$OOOO:full_like", keywords, &x, &value_obj, &dtype, &device, &usm,
                                     &order))
        return NULL;
    struct placement p;
    usmarr_scalar_t value;
    if (placement_parse(device, usm, dtype, order, &p) < 0 || fill_value(value_obj, &value) < 0)
        return NULL;
    usmarr_array_t *proto = convert_operand(x, NULL), *r = NULL;
    if (!proto)
        return NULL;
    int rc;
    int dt = p.dtype < 0 ? (int)usmarr_array_dtype(proto) : p.dtype;
    if (p.device && p.device->context != usmarr_array_context(proto))
        rc = usmarr_array_full(p.device->context, usmarr_array_ndim(proto), usmarr_array_shape(proto), value, dt,
                               USMARR_ORDER_C, p.kind ? p.kind : usmarr_array_usm_kind(proto), &r);
    else
        rc = usmarr_array_full_like(proto, value, dt, order ? p.order : USMARR_ORDER_K, p.kind, &r);
    usmarr_array_release(proto);
    return array_wrap_result(rc, r);
}

/* int64 arange of Python ints beyond 2**53, which the library's double arguments would round:
 * the exact values as arange(n) * step + start in the library's int64 arithmetic. */
static PyObject *arange_exact_int64(DeviceObject *d, PyObject *const *values, usmarr_usm_kind_t kind)
{
    long long v[3] = {0, 0, 1};
    for (int i = 0; i < 3; i++)
        if (values[i] && (v[i] = PyLong_AsLongLong(values[i])) == -1 && PyErr_Occurred())
            return NULL;
    if (v[2] == 0) {
        PyErr_SetString(PyExc_ValueError, "usmarr.arange: step must not be zero");
        return NULL;
    }
    __int128 span = (__int128)v[1] - v[0], step = v[2];
    __int128 n = step > 0 ? (span > 0 ? (span + step - 1) / step : 0) : (span < 0 ? (span + step + 1) / step : 0);
    usmarr_array_t *counter = NULL;
    int rc = usmarr_array_arange(d->context, 0, (double)n, 1, USMARR_INT64, kind, &counter);
    if (rc)
        return py_error(rc);
    PyObject *r = array_wrap(counter), *scaled = NULL, *shifted = NULL;
    PyObject *step_obj = PyLong_FromLongLong(v[2]), *start_obj = PyLong_FromLongLong(v[0]);
    if (r && step_obj && start_obj) {
        PyObject *args[2] = {r, step_obj};
        if ((scaled = array_elementwise("multiply", args, 2, NULL)) != NULL) {
            args[0] = scaled;
            args[1] = start_obj;
            shifted = array_elementwise("add", args, 2, NULL);
        }
    }
    Py_XDECREF(r);
    Py_XDECREF(scaled);
    Py_XDECREF(step_obj);
    Py_XDECREF(start_obj);
    return shifted;
}

/* arange(start, /, stop=None, step=1, *, dtype=None, device=None, usm_type=None) */
static PyObject *py_arange(PyObject *self, PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"start", "stop", "step", "dtype", "device", "usm_type", NULL};
    PyObject *start_obj, *stop_obj = Py_None, *step_obj = NULL, *dtype = NULL, *device = NULL, *usm = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|OO$OOO:arange", keywords, &start_obj, &stop_obj, &step_obj, &dtype,
                                     &device, &usm))
        return NULL;
    struct placement p;
    if (placement_parse(device, usm, dtype, NULL, &p) < 0)
        return NULL;
    if (stop_obj == Py_None) {
        stop_obj = start_obj;
        start_obj = NULL;
    }
    PyObject *values[3] = {start_obj, stop_obj, step_obj};
    double v[3] = {0, 0, 1};
    int all_int = 1;
    for (int i = 0; i < 3; i++) {
        if (!values[i])
            continue;
        all_int &= PyLong_Check(values[i]) || array_check(values[i]);
        if (array_check(values[i]) && usmarr_dtype_kind(usmarr_array_dtype(array_of(values[i]))) >= USMARR_KIND_FLOAT)
            all_int = 0;
        v[i] = PyFloat_AsDouble(values[i]);
        if (v[i] == -1.0 && PyErr_Occurred())
            return NULL;
    }
    DeviceObject *d = placement_device(&p);
    if (!d)
        return NULL;
    usmarr_dtype_t dt = p.dtype >= 0 ? (usmarr_dtype_t)p.dtype : all_int ? USMARR_INT64 : USMARR_FLOAT64;
    int beyond_double = 0;
    for (int i = 0; i < 3; i++)
        beyond_double |= values[i] && PyLong_Check(values[i]) && fabs(v[i]) > 9007199254740992.0;
    if (dt == USMARR_INT64 && beyond_double)
        return arange_exact_int64(d, values, p.kind);
    usmarr_array_t *r = NULL;
    int rc = usmarr_array_arange(d->context, v[0], v[1], v[2], dt, p.kind, &r);
    return array_wrap_result(rc, r);
}

/* linspace(start, stop, /, num, *, dtype=None, device=None, endpoint=True, usm_type=None) */
static PyObject *py_linspace(PyObject *self, PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"start", "stop", "num", "dtype", "device", "endpoint", "usm_type", NULL};
    PyObject *dtype = NULL, *device = NULL, *usm = NULL, *start_obj, *stop_obj;
    long long num;
    int endpoint = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOL|$OOpO:linspace", keywords, &start_obj, &stop_obj, &num, &dtype,
                                     &device, &endpoint, &usm))
        return NULL;
    if (PyComplex_Check(start_obj) || PyComplex_Check(stop_obj)) {
        PyErr_SetString(PyExc_TypeError, "usmarr.linspace: complex endpoints are not supported by the library");
        return NULL;
    }
    double start = PyFloat_AsDouble(start_obj), stop = PyFloat_AsDouble(stop_obj);
    if (PyErr_Occurred())
        return NULL;
    struct placement p;
    if (placement_parse(device, usm, dtype, NULL, &p) < 0)
        return NULL;
    DeviceObject *d = placement_device(&p);
    if (!d)
        return NULL;
    usmarr_array_t *r = NULL;
    int rc = usmarr_array_linspace(d->context, start, stop, num, endpoint,
                                   p.dtype < 0 ? USMARR_FLOAT64 : (usmarr_dtype_t)p.dtype, p.kind, &r);
    return array_wrap_result(rc, r);
}

/* eye(n_rows, n_cols=None, /, *, k=0, dtype=None, device=None, usm_type=None, order='C') */
static PyObject *py_eye(PyObject *self, PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"n_rows", "n_cols", "k", "dtype", "device", "usm_type", "order", NULL};
    long long n, k = 0;
    PyObject *m_obj = Py_None, *k_obj = NULL, *dtype = NULL, *device = NULL, *usm = NULL, *order = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "L|O$OOOOO:eye", keywords, &n, &m_obj, &k_obj, &dtype, &device,
                                     &usm, &order))
        return NULL;
    if (k_obj) {
        /* A diagonal beyond the matrix is all zeros: one that int64 cannot hold is clamped. */
        int over = 0;
        k = PyLong_AsLongLongAndOverflow(k_obj, &over);
        if (k == -1 && PyErr_Occurred())
            return NULL;
        if (over)
            k = over > 0 ? LLONG_MAX : LLONG_MIN;
    }
    long long m = m_obj == Py_None ? -1 : PyLong_AsLongLong(m_obj);
    if (m == -1 && PyErr_Occurred())
        return NULL;
    struct placement p;
    if (placement_parse(device, usm, dtype, order, &p) < 0)
        return NULL;
    DeviceObject *d = placement_device(&p);
    if (!d)
        return NULL;
    usmarr_array_t *r = NULL;
    int rc = usmarr_array_eye(d->context, n, m, k, p.dtype < 0 ? USMARR_FLOAT64 : (usmarr_dtype_t)p.dtype, p.order,
                              p.kind, &r);
    return array_wrap_result(rc, r);
}

#define KW (METH_VARARGS | METH_KEYWORDS)
#define FN(f) (PyCFunction)(void (*)(void))(f)
PyMethodDef creation_methods[] = {
    {"empty", FN(py_empty), KW, "empty(shape, *, dtype=None, device=None, usm_type=None, order='C')\n--\n\n"},
    {"zeros", FN(py_zeros), KW, "zeros(shape, *, dtype=None, device=None, usm_type=None, order='C')\n--\n\n"},
    {"ones", FN(py_ones), KW, "ones(shape, *, dtype=None, device=None, usm_type=None, order='C')\n--\n\n"},
    {"empty_like", FN(py_empty_like), KW, "empty_like(x, /, *, dtype=None, device=None, usm_type=None, order='K')\n--\n\n"},
    {"zeros_like", FN(py_zeros_like), KW, "zeros_like(x, /, *, dtype=None, device=None, usm_type=None, order='K')\n--\n\n"},
    {"ones_like", FN(py_ones_like), KW, "ones_like(x, /, *, dtype=None, device=None, usm_type=None, order='K')\n--\n\n"},
    {"full", FN(py_full), KW, "full(shape, fill_value, *, dtype=None, device=None, usm_type=None, order='C')\n--\n\n"},
    {"full_like", FN(py_full_like), KW, "full_like(x, /, fill_value, *, dtype=None, device=None, usm_type=None, order='K')\n--\n\n"},
    {"arange", FN(py_arange), KW, "arange(start, /, stop=None, step=1, *, dtype=None, device=None, usm_type=None)\n--\n\n"},
    {"linspace", FN(py_linspace), KW, "linspace(start, stop, /, num, *, dtype=None, device=None, endpoint=True, usm_type=None)\n--\n\n"},
    {"eye", FN(py_eye), KW, "eye(n_rows, n_cols=None, /, *, k=0, dtype=None, device=None, usm_type=None, order='C')\n--\n\n"},
    {NULL},
};
