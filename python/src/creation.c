/* The namespace's creation and manipulation functions, each one library call. */
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

/* ---- manipulation ------------------------------------------------------------------------------------ */
static usmarr_array_t *array_arg(PyObject *obj)
{
    return convert_operand(obj, NULL);
}

/* reshape(x, /, shape, *, copy=None, order='C') */
static PyObject *py_reshape(PyObject *self, PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"x", "shape", "copy", "order", NULL};
    PyObject *x, *shape_obj, *copy_obj = Py_None, *order_obj = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OO|$OO:reshape", keywords, &x, &shape_obj, &copy_obj, &order_obj))
        return NULL;
    int64_t shape[USMARR_MAX_NDIM];
    int ndim, copy = copy_obj == Py_None ? -1 : PyObject_IsTrue(copy_obj);
    usmarr_order_t order;
    if (shape_from_object(shape_obj, shape, &ndim) < 0 || order_from_object(order_obj, &order) < 0)
        return NULL;
    usmarr_array_t *a = array_arg(x), *r = NULL;
    if (!a)
        return NULL;
    int rc = usmarr_array_reshape(a, ndim, shape, order,
                                  copy < 0 ? USMARR_COPY_IF_NEEDED : copy ? USMARR_COPY_ALWAYS : USMARR_COPY_NEVER, &r);
    usmarr_array_release(a);
    if (rc == USMARR_ERROR_BAD_STATE) { /* the array API's error for copy=False */
        PyErr_Format(PyExc_ValueError, "usmarr.reshape: copy=False, but %s", usmarr_last_error_detail());
        return NULL;
    }
    return array_wrap_result(rc, r);
}

/* The functions that take an array and a list of axes: permute_dims, expand_dims, squeeze, flip. */
enum axes_op { AXES_PERMUTE, AXES_EXPAND, AXES_SQUEEZE, AXES_FLIP };
static PyObject *axes_call(enum axes_op op, PyObject *args, PyObject *kwargs, const char *format, char **keywords)
{
    PyObject *x, *axes_obj = op == AXES_EXPAND ? NULL : Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, format, keywords, &x, &axes_obj))
        return NULL;
    int axes[USMARR_MAX_NDIM], naxes = 0, zero = 0;
    const int *which = NULL;
    if (op == AXES_EXPAND && !axes_obj) {
        which = &zero;
        naxes = 1;
    } else if (axes_obj != Py_None) {
        if (axes_from_object(axes_obj, axes, &naxes, USMARR_MAX_NDIM) < 0)
            return NULL;
        which = axes;
    }
    usmarr_array_t *a = array_arg(x), *r = NULL;
    if (!a)
        return NULL;
    int rc;
    switch (op) {
    case AXES_PERMUTE:
        rc = which && naxes != usmarr_array_ndim(a)
                 ? usmarr_error_set(USMARR_ERROR_INVALID_ARGUMENT, "permute_dims: %d axes for %d dimensions", naxes,
                                    usmarr_array_ndim(a))
                 : usmarr_array_permute_dims(a, which, &r);
        break;
    case AXES_EXPAND:
        rc = usmarr_array_expand_dims(a, naxes, which, &r);
        break;
    case AXES_SQUEEZE:
        rc = usmarr_array_squeeze(a, naxes, which, &r);
        break;
    default:
        rc = usmarr_array_flip(a, naxes, which, &r);
        break;
    }
    usmarr_array_release(a);
    if (rc == USMARR_ERROR_INVALID_ARGUMENT)
        return py_axis_error(rc);
    return array_wrap_result(rc, r);
}

static char *kw_axes[] = {"x", "axes", NULL};
static char *kw_axis[] = {"x", "axis", NULL};
static PyObject *py_permute_dims(PyObject *s, PyObject *a, PyObject *k) { return axes_call(AXES_PERMUTE, a, k, "OO:permute_dims", kw_axes); }
static PyObject *py_expand_dims(PyObject *s, PyObject *a, PyObject *k) { return axes_call(AXES_EXPAND, a, k, "O|O:expand_dims", kw_axis); }
static PyObject *py_squeeze(PyObject *s, PyObject *a, PyObject *k) { return axes_call(AXES_SQUEEZE, a, k, "O|O:squeeze", kw_axis); }
static PyObject *py_flip(PyObject *s, PyObject *a, PyObject *k) { return axes_call(AXES_FLIP, a, k, "O|$O:flip", kw_axis); }

/* moveaxis(x, source, destination, /) */
static PyObject *py_moveaxis(PyObject *self, PyObject *args)
{
    PyObject *x, *src_obj, *dst_obj;
    int src[USMARR_MAX_NDIM], dst[USMARR_MAX_NDIM], ns, nd;
    if (!PyArg_ParseTuple(args, "OOO:moveaxis", &x, &src_obj, &dst_obj) ||
        axes_from_object(src_obj, src, &ns, USMARR_MAX_NDIM) < 0 || axes_from_object(dst_obj, dst, &nd, USMARR_MAX_NDIM) < 0)
        return NULL;
    if (ns != nd) {
        PyErr_Format(PyExc_ValueError, "usmarr.moveaxis: %d source axes but %d destinations", ns, nd);
        return NULL;
    }
    usmarr_array_t *a = array_arg(x), *r = NULL;
    if (!a)
        return NULL;
    int rc = usmarr_array_moveaxis(a, ns, src, dst, &r);
    usmarr_array_release(a);
    return array_wrap_result(rc, r);
}

/* swapaxes(x, axis1, axis2, /) */
static PyObject *py_swapaxes(PyObject *self, PyObject *args)
{
    PyObject *x;
    int a1, a2;
    if (!PyArg_ParseTuple(args, "Oii:swapaxes", &x, &a1, &a2))
        return NULL;
    usmarr_array_t *a = array_arg(x), *r = NULL;
    if (!a)
        return NULL;
    int rc = usmarr_array_swapaxes(a, a1, a2, &r);
    usmarr_array_release(a);
    return array_wrap_result(rc, r);
}

/* broadcast_to(x, /, shape) */
static PyObject *py_broadcast_to(PyObject *self, PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"x", "shape", NULL};
    PyObject *x, *shape_obj;
    int64_t shape[USMARR_MAX_NDIM];
    int ndim;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OO:broadcast_to", keywords, &x, &shape_obj) ||
        shape_from_object(shape_obj, shape, &ndim) < 0)
        return NULL;
    usmarr_array_t *a = array_arg(x), *r = NULL;
    if (!a)
        return NULL;
    int rc = usmarr_array_broadcast_to(a, ndim, shape, &r);
    usmarr_array_release(a);
    return array_wrap_result(rc, r);
}

/* A Python sequence of arrays as library arrays (all on the first one's device). */
static int array_list(PyObject *seq, usmarr_array_t ***arrays, int *count)
{
    PyObject *fast = PySequence_Tuple(seq);
    if (!fast)
        return -1;
    Py_ssize_t n = PyTuple_Size(fast);
    *arrays = calloc(n ? (size_t)n : 1, sizeof **arrays);
    if (!*arrays) {
        Py_DECREF(fast);
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        (*arrays)[i] = convert_operand(PyTuple_GetItem(fast, i), i ? (*arrays)[0] : NULL);
        if (!(*arrays)[i]) {
            for (Py_ssize_t j = 0; j < i; j++)
                usmarr_array_release((*arrays)[j]);
            free(*arrays);
            Py_DECREF(fast);
            return -1;
        }
    }
    Py_DECREF(fast);
    *count = (int)n;
    return 0;
}

static void array_list_free(usmarr_array_t **arrays, int count)
{
    for (int i = 0; i < count; i++)
        usmarr_array_release(arrays[i]);
    free(arrays);
}

/* broadcast_arrays(*arrays): a list of views */
static PyObject *py_broadcast_arrays(PyObject *self, PyObject *args)
{
    usmarr_array_t **arrays, **views;
    int count;
    if (array_list(args, &arrays, &count) < 0)
        return NULL;
    views = calloc(count ? (size_t)count : 1, sizeof *views);
    int rc = views ? usmarr_broadcast_arrays(count, (const usmarr_array_t *const *)arrays, views) : USMARR_ERROR_OUT_OF_HOST_MEMORY;
    array_list_free(arrays, count);
    if (rc) {
        free(views);
        return py_error(rc);
    }
    PyObject *list = PyList_New(count);
    for (int i = 0; i < count; i++) {
        PyObject *w = array_wrap(views[i]);
        if (list && w)
            PyList_SetItem(list, i, w);
        else
            Py_XDECREF(w);
    }
    free(views);
    return list;
}

/* A list (or tuple) of n new arrays, references taken (released on failure). */
static PyObject *wrap_arrays(usmarr_array_t **arrays, size_t n, int tuple)
{
    PyObject *seq = tuple ? PyTuple_New((Py_ssize_t)n) : PyList_New((Py_ssize_t)n);
    for (size_t i = 0; i < n; i++) {
        PyObject *w = seq ? array_wrap(arrays[i]) : (usmarr_array_release(arrays[i]), NULL);
        if (w && tuple)
            PyTuple_SetItem(seq, (Py_ssize_t)i, w);
        else if (w)
            PyList_SetItem(seq, (Py_ssize_t)i, w);
        else
            Py_CLEAR(seq);
    }
    return seq;
}

/* unstack(x, /, *, axis=0): a tuple of views */
static PyObject *py_unstack(PyObject *self, PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"x", "axis", NULL};
    PyObject *x;
    int axis = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|$i:unstack", keywords, &x, &axis))
        return NULL;
    usmarr_array_t *a = array_arg(x), **views = NULL;
    if (!a)
        return NULL;
    size_t count = 0;
    int rc = usmarr_unstack(a, axis, NULL, 0, &count); /* the count (and the axis check) first */
    if (rc == USMARR_ERROR_INVALID_ARGUMENT && count > 0) {
        views = calloc(count, sizeof *views);
        rc = views ? usmarr_unstack(a, axis, views, count, &count) : USMARR_ERROR_OUT_OF_HOST_MEMORY;
    }
    usmarr_array_release(a);
    PyObject *r = rc ? py_error(rc) : wrap_arrays(views, count, 1);
    free(views);
    return r;
}

/* meshgrid(*arrays, indexing='xy'): a list of new arrays */
static PyObject *py_meshgrid(PyObject *self, PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"indexing", NULL};
    const char *indexing = "xy";
    PyObject *empty = PyTuple_New(0);
    int ok = empty && PyArg_ParseTupleAndKeywords(empty, kwargs, "|$s:meshgrid", keywords, &indexing);
    Py_XDECREF(empty);
    if (!ok)
        return NULL;
    usmarr_array_t **arrays, *results[USMARR_MAX_NDIM];
    int count;
    if (array_list(args, &arrays, &count) < 0)
        return NULL;
    int rc = count ? usmarr_meshgrid(count, (const usmarr_array_t *const *)arrays, indexing, results) : 0;
    array_list_free(arrays, count);
    if (rc)
        return py_error(rc);
    return wrap_arrays(results, (size_t)count, 0);
}

/* concat(arrays, /, *, axis=0) and stack(arrays, /, *, axis=0) */
static PyObject *join_call(PyObject *args, PyObject *kwargs, int stack)
{
    static char *keywords[] = {"arrays", "axis", NULL};
    PyObject *seq, *axis_obj = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|$O", keywords, &seq, &axis_obj))
        return NULL;
    int axis = 0;
    if (axis_obj == Py_None && !stack)
        axis = USMARR_AXIS_NONE;
    else if (axis_obj && (axis = (int)PyLong_AsLong(axis_obj)) == -1 && PyErr_Occurred())
        return NULL;
    usmarr_array_t **arrays, *r = NULL;
    int count;
    if (array_list(seq, &arrays, &count) < 0)
        return NULL;
    int rc = stack ? usmarr_stack(count, (const usmarr_array_t *const *)arrays, axis, NULL, &r)
                   : usmarr_concat(count, (const usmarr_array_t *const *)arrays, axis, NULL, &r);
    array_list_free(arrays, count);
    return array_wrap_result(rc, r);
}

static PyObject *py_concat(PyObject *s, PyObject *a, PyObject *k) { return join_call(a, k, 0); }
static PyObject *py_stack(PyObject *s, PyObject *a, PyObject *k) { return join_call(a, k, 1); }

/* roll(x, /, shift, *, axis=None) */
static PyObject *py_roll(PyObject *self, PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"x", "shift", "axis", NULL};
    PyObject *x, *shift_obj, *axis_obj = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OO|$O:roll", keywords, &x, &shift_obj, &axis_obj))
        return NULL;
    int64_t shifts[USMARR_MAX_NDIM];
    int axes[USMARR_MAX_NDIM], nshifts, naxes = 0;
    if (shape_from_object(shift_obj, shifts, &nshifts) < 0)
        return NULL;
    if (axis_obj != Py_None) {
        if (axes_from_object(axis_obj, axes, &naxes, USMARR_MAX_NDIM) < 0)
            return NULL;
        if (nshifts == 1 && naxes > 1)
            for (int i = 1; i < naxes; i++)
                shifts[i] = shifts[0];
        else if (naxes != nshifts) {
            PyErr_Format(PyExc_ValueError, "usmarr.roll: %d shifts for %d axes", nshifts, naxes);
            return NULL;
        }
    }
    usmarr_array_t *a = array_arg(x), *r = NULL;
    if (!a)
        return NULL;
    int rc = usmarr_roll(a, axis_obj == Py_None ? nshifts : naxes, shifts, axis_obj == Py_None ? NULL : axes, NULL, &r);
    usmarr_array_release(a);
    return array_wrap_result(rc, r);
}

/* repeat(x, repeats, /, *, axis=None): repeats an int or an integer array */
static PyObject *py_repeat(PyObject *self, PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"x", "repeats", "axis", NULL};
    PyObject *x, *repeats_obj, *axis_obj = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OO|$O:repeat", keywords, &x, &repeats_obj, &axis_obj))
        return NULL;
    int axis = USMARR_AXIS_NONE;
    if (axis_obj != Py_None && (axis = (int)PyLong_AsLong(axis_obj)) == -1 && PyErr_Occurred())
        return NULL;
    usmarr_array_t *a = array_arg(x), *r = NULL, *counts = NULL, *counts64 = NULL;
    if (!a)
        return NULL;
    int64_t one, *repeats = &one, nrepeats = 1;
    int rc = 0;
    if (PyLong_Check(repeats_obj)) {
        one = PyLong_AsLongLong(repeats_obj);
        if (one == -1 && PyErr_Occurred()) {
            usmarr_array_release(a);
            return NULL;
        }
    } else {
        /* The counts decide the result's shape: they are read on the host. */
        counts = convert_operand(repeats_obj, a);
        if (!counts) {
            usmarr_array_release(a);
            return NULL;
        }
        nrepeats = usmarr_array_size(counts);
        repeats = malloc((size_t)(nrepeats ? nrepeats : 1) * sizeof *repeats);
        rc = repeats ? usmarr_array_astype(counts, USMARR_INT64, USMARR_ORDER_C, NULL, &counts64)
                     : USMARR_ERROR_OUT_OF_HOST_MEMORY;
        if (!rc)
            rc = usmarr_array_copy_to_host(counts64, repeats, NULL);
    }
    if (!rc)
        rc = usmarr_repeat(a, nrepeats, repeats, axis, NULL, &r);
    if (repeats != &one)
        free(repeats);
    usmarr_array_release(counts);
    usmarr_array_release(counts64);
    usmarr_array_release(a);
    return array_wrap_result(rc, r);
}

/* tile(x, repetitions, /) */
static PyObject *py_tile(PyObject *self, PyObject *args)
{
    PyObject *x, *reps_obj;
    int64_t reps[USMARR_MAX_NDIM];
    int nreps;
    if (!PyArg_ParseTuple(args, "OO:tile", &x, &reps_obj) || shape_from_object(reps_obj, reps, &nreps) < 0)
        return NULL;
    usmarr_array_t *a = array_arg(x), *r = NULL;
    if (!a)
        return NULL;
    int rc = usmarr_tile(a, nreps, reps, NULL, &r);
    usmarr_array_release(a);
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
    {"reshape", FN(py_reshape), KW, "reshape(x, /, shape, *, copy=None, order='C')\n--\n\n"},
    {"permute_dims", FN(py_permute_dims), KW, "permute_dims(x, /, axes)\n--\n\n"},
    {"expand_dims", FN(py_expand_dims), KW, "expand_dims(x, /, axis=0)\n--\n\n"},
    {"squeeze", FN(py_squeeze), KW, "squeeze(x, /, axis=None)\n--\n\n"},
    {"flip", FN(py_flip), KW, "flip(x, /, *, axis=None)\n--\n\n"},
    {"moveaxis", FN(py_moveaxis), METH_VARARGS, "moveaxis(x, source, destination, /)\n--\n\n"},
    {"swapaxes", FN(py_swapaxes), METH_VARARGS, "swapaxes(x, axis1, axis2, /)\n--\n\n"},
    {"broadcast_to", FN(py_broadcast_to), KW, "broadcast_to(x, /, shape)\n--\n\n"},
    {"broadcast_arrays", FN(py_broadcast_arrays), METH_VARARGS, "broadcast_arrays(*arrays)\n--\n\nA list of views"},
    {"unstack", FN(py_unstack), KW, "unstack(x, /, *, axis=0)\n--\n\nA tuple of views"},
    {"meshgrid", FN(py_meshgrid), KW, "meshgrid(*arrays, indexing='xy')\n--\n\nA list of new arrays"},
    {"concat", FN(py_concat), KW, "concat(arrays, /, *, axis=0)\n--\n\n"},
    {"stack", FN(py_stack), KW, "stack(arrays, /, *, axis=0)\n--\n\n"},
    {"roll", FN(py_roll), KW, "roll(x, /, shift, *, axis=None)\n--\n\n"},
    {"repeat", FN(py_repeat), KW, "repeat(x, repeats, /, *, axis=None)\n--\n\n"},
    {"tile", FN(py_tile), METH_VARARGS, "tile(x, repetitions, /)\n--\n\n"},
    {NULL},
};
