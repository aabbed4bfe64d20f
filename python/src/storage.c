/* Storages (include/usmarr/storage.h) for Python: the handle type
 * usmarr._usmarr._Storage and one function per library call.  The class
 * usmarr.storage.Storage (python/usmarr/storage.py) puts NumPy's protocols
 * (__array_ufunc__, __array_function__, the array interfaces) over these calls. */
#include "module.h"

#include <string.h>

typedef struct {
    PyObject_HEAD
    usmarr_storage_t *storage;
} StorageObject;

static PyTypeObject *Storage_Type;

static void storage_dealloc(PyObject *self)
{
    PyTypeObject *type = Py_TYPE(self);
    usmarr_storage_release(((StorageObject *)self)->storage);
    PyObject_Free(self);
    Py_DECREF(type);
}

static PyType_Slot storage_slots[] = {
    {Py_tp_dealloc, storage_dealloc},
    {Py_tp_doc, "A library storage (a handle; usmarr.storage.Storage is the class to use)."},
    {0, NULL},
};
static PyType_Spec storage_spec = {"usmarr._Storage", sizeof(StorageObject), 0, Py_TPFLAGS_DEFAULT, storage_slots};

/* Takes the reference; rc != 0 raises. */
static PyObject *storage_result(int rc, usmarr_storage_t *storage)
{
    if (rc)
        return py_error(rc);
    StorageObject *s = PyObject_New(StorageObject, Storage_Type);
    if (!s) {
        usmarr_storage_release(storage);
        return NULL;
    }
    s->storage = storage;
    return (PyObject *)s;
}

static usmarr_storage_t *storage_of(PyObject *obj)
{
    if (!PyObject_TypeCheck(obj, Storage_Type)) {
        PyErr_Format(PyExc_TypeError, "usmarr: a storage handle is needed, not %R", obj);
        return NULL;
    }
    return ((StorageObject *)obj)->storage;
}

/* ---- the options: a dict of the storage keyword arguments ---------------------------------- */
static int opt_string(PyObject *kw, const char *key, const char **value)
{
    PyObject *v = kw ? PyDict_GetItemString(kw, key) : NULL;
    if (!v || v == Py_None)
        return 0;
    if (!PyUnicode_Check(v)) {
        PyErr_Format(PyExc_TypeError, "usmarr.storage: %s must be a str, not %R", key, v);
        return -1;
    }
    *value = PyUnicode_AsUTF8AndSize(v, NULL);
    return *value ? 0 : -1;
}

static int opt_ints(PyObject *kw, const char *key, int64_t *values, int *n)
{
    PyObject *v = kw ? PyDict_GetItemString(kw, key) : NULL;
    if (!v || v == Py_None)
        return 0;
    return shape_from_object(v, values, n);
}

/* halo: ((lower, upper), ...) or (width, ...) for both sides */
static int opt_halo(PyObject *kw, usmarr_storage_options_t *o)
{
    PyObject *v = kw ? PyDict_GetItemString(kw, "halo") : NULL;
    if (!v || v == Py_None)
        return 0;
    Py_ssize_t n = PySequence_Check(v) ? PySequence_Size(v) : -1;
    if (n < 0) {
        if (!PyErr_Occurred())
            PyErr_Format(PyExc_TypeError, "usmarr.storage: halo must be a sequence, not %R", v);
        return -1;
    }
    int rc = 0;
    if (n > USMARR_STORAGE_MAX_NDIM) {
        PyErr_Format(PyExc_ValueError, "usmarr.storage: halo has %zd entries, at most %d", n,
                     USMARR_STORAGE_MAX_NDIM);
        rc = -1;
    }
    for (Py_ssize_t i = 0; !rc && i < n; i++) {
        PyObject *e = PySequence_GetItem(v, i);
        long long lower = 0, upper = 0;
        if (!e) {
            rc = -1;
        } else if (PyLong_Check(e)) {
            lower = upper = PyLong_AsLongLong(e);
        } else if (!PyArg_ParseTuple(e, "LL", &lower, &upper)) {
            rc = -1;
        }
        Py_XDECREF(e);
        if (PyErr_Occurred())
            rc = -1;
        o->halo[i][0] = lower;
        o->halo[i][1] = upper;
    }
    o->nhalo = (int)n;
    return rc;
}

static int options_from(PyObject *kw, usmarr_storage_options_t *o)
{
    *o = (usmarr_storage_options_t)USMARR_STORAGE_OPTIONS_INIT;
    PyObject *v;
    if (opt_string(kw, "defaults", &o->defaults) < 0 || opt_string(kw, "axes", &o->axes) < 0 ||
        opt_string(kw, "layout", &o->layout) < 0 || opt_string(kw, "device", &o->device) < 0 ||
        opt_string(kw, "managed", &o->managed) < 0 || opt_ints(kw, "shape", o->shape, &o->nshape) < 0 ||
        opt_ints(kw, "aligned_index", o->aligned_index, &o->naligned_index) < 0 || opt_halo(kw, o) < 0)
        return -1;
    if (kw && (v = PyDict_GetItemString(kw, "dtype")) && dtype_from_object(v, &o->dtype) < 0)
        return -1;
    if (kw && (v = PyDict_GetItemString(kw, "alignment")) && v != Py_None) {
        o->alignment = PyLong_AsLongLong(v);
        if (PyErr_Occurred())
            return -1;
    }
    /* The USM device (a usmarr Device or selector; default: the library's). */
    DeviceObject *device = device_from_object(kw ? PyDict_GetItemString(kw, "usm_device") : NULL);
    if (!device)
        return -1;
    o->context = device->context;
    return 0;
}

/* _storage_new(fill, options, value=None, like=None): empty/zeros/ones/full and their _like
 * forms; fill is "empty", "zeros", "ones" or "full". */
static PyObject *py_storage_new(PyObject *self, PyObject *args)
{
    const char *fill;
    PyObject *kw, *value = Py_None, *like = Py_None;
    if (!PyArg_ParseTuple(args, "sO!|OO:_storage_new", &fill, &PyDict_Type, &kw, &value, &like))
        return NULL;
    usmarr_storage_options_t o;
    if (options_from(kw, &o) < 0)
        return NULL;
    usmarr_scalar_t scalar = {0};
    if (strcmp(fill, "full") == 0 && scalar_from_object(value, &scalar) <= 0) {
        if (!PyErr_Occurred())
            PyErr_Format(PyExc_TypeError, "usmarr.storage.full: fill_value must be a scalar, not %R", value);
        return NULL;
    }
    usmarr_storage_t *proto = NULL, *r = NULL;
    if (like != Py_None && !(proto = storage_of(like)))
        return NULL;
    int rc;
    Py_BEGIN_ALLOW_THREADS
    if (strcmp(fill, "zeros") == 0)
        rc = proto ? usmarr_storage_zeros_like(proto, &o, &r) : usmarr_storage_zeros(&o, &r);
    else if (strcmp(fill, "ones") == 0)
        rc = proto ? usmarr_storage_ones_like(proto, &o, &r) : usmarr_storage_ones(&o, &r);
    else if (strcmp(fill, "full") == 0)
        rc = proto ? usmarr_storage_full_like(proto, &o, scalar, &r) : usmarr_storage_full(&o, scalar, &r);
    else
        rc = proto ? usmarr_storage_empty_like(proto, &o, &r) : usmarr_storage_empty(&o, &r);
    Py_END_ALLOW_THREADS
    return storage_result(rc, r);
}

/* _storage_from(data, options, copy): GT4Py's storage(data) from anything usmarr.asarray
 * takes (NumPy arrays, usmarr arrays, sequences). */
static PyObject *py_storage_from(PyObject *self, PyObject *args)
{
    PyObject *data, *kw;
    int copy;
    if (!PyArg_ParseTuple(args, "OO!p:_storage_from", &data, &PyDict_Type, &kw, &copy))
        return NULL;
    usmarr_storage_options_t o;
    if (options_from(kw, &o) < 0)
        return NULL;
    /* Host data goes to host USM (the library takes the storage's kind from a buffer whose
     * options do not say); usmarr arrays pass as they are. */
    usmarr_usm_kind_t kind = array_check(data) || PyObject_HasAttrString(data, "__sycl_usm_array_interface__") || o.device
                                 ? 0
                                 : USMARR_USM_HOST;
    usmarr_array_t *a = convert_to_array(data, device_of_context(o.context), -1, -1, kind);
    if (!a)
        return NULL;
    usmarr_storage_buffer_t buffer = {.array = a};
    usmarr_storage_t *r = NULL;
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = usmarr_storage_from(&o, &buffer, NULL, copy, &r);
    Py_END_ALLOW_THREADS
    usmarr_array_release(a);
    return storage_result(rc, r);
}

/* _storage_info(s): the parameters as a dict */
static PyObject *py_storage_info(PyObject *self, PyObject *obj)
{
    usmarr_storage_t *s = storage_of(obj);
    if (!s)
        return NULL;
    static const char *const kinds[] = {"", "host", "device", "shared", "managed"};
    int n = usmarr_storage_ndim(s);
    const int64_t(*halo)[2] = usmarr_storage_halo(s);
    PyObject *halo_obj = PyTuple_New(n);
    for (int i = 0; halo_obj && i < n; i++)
        if (PyTuple_SetItem(halo_obj, i, Py_BuildValue("(LL)", (long long)halo[i][0], (long long)halo[i][1])) < 0)
            Py_CLEAR(halo_obj);
    if (!halo_obj)
        return NULL;
    usmarr_sync_t sync = USMARR_SYNC_CLEAN;
    usmarr_sync_state_t *state = usmarr_storage_sync_state(s);
    if (state && usmarr_sync_state_get(state, &sync))
        return py_error(USMARR_ERROR_BAD_STATE);
    static const char *const syncs[] = {"clean", "host_dirty", "device_dirty"};
    return Py_BuildValue("{s:N,s:s,s:N,s:N,s:O,s:N,s:L,s:s,s:s,s:L,s:O,s:s}", "shape",
                         tuple_from_int64(usmarr_storage_shape(s), n), "axes", usmarr_storage_axes(s), "strides",
                         tuple_from_int64(usmarr_storage_strides(s), n), "halo", halo_obj, "dtype",
                         dtype_object(usmarr_storage_dtype(s)), "aligned_index",
                         tuple_from_int64(usmarr_storage_aligned_index(s), n), "alignment",
                         (long long)usmarr_storage_alignment(s), "layout", usmarr_storage_layout(s), "kind",
                         kinds[usmarr_storage_kind(s)], "nbytes", (long long)usmarr_storage_nbytes(s), "device",
                         (PyObject *)device_of_context(usmarr_storage_context(s)), "sync",
                         state ? syncs[sync] : "none");
}

/* _storage_side(s, device, write): the host (device false) or device side as a usmarr.Array */
static PyObject *py_storage_side(PyObject *self, PyObject *args)
{
    PyObject *obj;
    int device, write;
    if (!PyArg_ParseTuple(args, "Opp:_storage_side", &obj, &device, &write))
        return NULL;
    usmarr_storage_t *s = storage_of(obj);
    if (!s)
        return NULL;
    usmarr_array_t *a = NULL;
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = device ? usmarr_storage_device_array(s, write, &a) : usmarr_storage_host_array(s, write, &a);
    Py_END_ALLOW_THREADS
    if (rc)
        return py_error(rc);
    return array_wrap(usmarr_array_retain(a)); /* borrowed from the storage: our own reference */
}

/* An operand: a storage handle, a usmarr.Array, or a Python scalar. */
static int operand_from(PyObject *obj, usmarr_storage_operand_t *op, usmarr_array_t **hold, usmarr_context_t *ctx)
{
    memset(op, 0, sizeof *op);
    if (PyObject_TypeCheck(obj, Storage_Type)) {
        op->storage = ((StorageObject *)obj)->storage;
        return 0;
    }
    int s = scalar_from_object(obj, &op->scalar);
    if (s)
        return s < 0 ? -1 : 0;
    *hold = convert_to_array(obj, device_of_context(ctx), -1, -1, 0);
    op->array = *hold;
    return *hold ? 0 : -1;
}

/* Every operand of the tuple (at most 8; arrays go to the first storage's device). */
static int operands_from_tuple(PyObject *ops, usmarr_storage_operand_t *operands, usmarr_array_t **hold)
{
    Py_ssize_t n = PyTuple_Size(ops);
    usmarr_context_t *ctx = NULL;
    for (Py_ssize_t i = 0; i < n && !ctx; i++)
        if (PyObject_TypeCheck(PyTuple_GetItem(ops, i), Storage_Type))
            ctx = usmarr_storage_context(((StorageObject *)PyTuple_GetItem(ops, i))->storage);
    for (Py_ssize_t i = 0; i < n; i++)
        if (operand_from(PyTuple_GetItem(ops, i), &operands[i], &hold[i], ctx) < 0)
            return -1;
    return 0;
}

/* _storage_elementwise(name, operands, out=None) */
static PyObject *py_storage_elementwise(PyObject *self, PyObject *args)
{
    const char *name;
    PyObject *ops, *out_obj = Py_None;
    if (!PyArg_ParseTuple(args, "sO!|O:_storage_elementwise", &name, &PyTuple_Type, &ops, &out_obj))
        return NULL;
    Py_ssize_t n = PyTuple_Size(ops);
    if (n < 1 || n > 3) {
        PyErr_Format(PyExc_ValueError, "usmarr.storage: %zd operands for %s (1 to 3)", n, name);
        return NULL;
    }
    usmarr_storage_t *out = out_obj == Py_None ? NULL : storage_of(out_obj);
    if (out_obj != Py_None && !out)
        return NULL;
    usmarr_storage_operand_t operands[3];
    usmarr_array_t *hold[3] = {NULL, NULL, NULL};
    PyObject *result = NULL;
    if (operands_from_tuple(ops, operands, hold) < 0)
        goto done;
    usmarr_storage_t *r = NULL;
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = usmarr_storage_elementwise(name, operands, (int)n, out, out ? NULL : &r);
    Py_END_ALLOW_THREADS
    if (out)
        result = rc ? py_error(rc) : Py_NewRef(out_obj);
    else
        result = storage_result(rc, r);
done:
    for (int i = 0; i < 3; i++)
        usmarr_array_release(hold[i]);
    return result;
}

/* _storage_evaluate(text, names, operands, axes=None, out=None): a fused expression over
 * storage operands (usmarr_storage_evaluate); axes as letters, for an expression that ends
 * in a reduction. */
static PyObject *py_storage_evaluate(PyObject *self, PyObject *args)
{
    const char *text, *axes = NULL;
    PyObject *names_obj, *ops, *out_obj = Py_None;
    if (!PyArg_ParseTuple(args, "sO!O!|zO:_storage_evaluate", &text, &PyTuple_Type, &names_obj, &PyTuple_Type, &ops,
                          &axes, &out_obj))
        return NULL;
    Py_ssize_t n = PyTuple_Size(ops);
    if (n > 8 || PyTuple_Size(names_obj) != n) {
        PyErr_Format(PyExc_ValueError, "usmarr.storage: %zd operands and %zd names (at most 8)", n,
                     PyTuple_Size(names_obj));
        return NULL;
    }
    usmarr_storage_t *out = out_obj == Py_None ? NULL : storage_of(out_obj);
    if (out_obj != Py_None && !out)
        return NULL;
    const char *names[8];
    for (Py_ssize_t i = 0; i < n; i++)
        if (!(names[i] = PyUnicode_AsUTF8AndSize(PyTuple_GetItem(names_obj, i), NULL)))
            return NULL;
    usmarr_storage_operand_t operands[8];
    usmarr_array_t *hold[8] = {NULL};
    usmarr_expr_t *expr = NULL;
    PyObject *result = NULL;
    int rc = usmarr_expr_create(text, names, (size_t)n, &expr);
    if (rc) {
        py_error(rc);
        goto done;
    }
    if (operands_from_tuple(ops, operands, hold) < 0)
        goto done;
    usmarr_storage_t *r = NULL;
    Py_BEGIN_ALLOW_THREADS
    rc = usmarr_storage_evaluate(expr, operands, (int)n, axes, out, out ? NULL : &r);
    Py_END_ALLOW_THREADS
    if (out)
        result = rc ? py_error(rc) : Py_NewRef(out_obj);
    else
        result = storage_result(rc, r);
done:
    for (int i = 0; i < 8; i++)
        usmarr_array_release(hold[i]);
    usmarr_expr_release(expr);
    return result;
}

/* _storage_reduce(name, s, axes=None, out=None): axes as letters */
static PyObject *py_storage_reduce(PyObject *self, PyObject *args)
{
    const char *name, *axes = NULL;
    PyObject *obj, *out_obj = Py_None;
    if (!PyArg_ParseTuple(args, "sO|zO:_storage_reduce", &name, &obj, &axes, &out_obj))
        return NULL;
    usmarr_storage_t *s = storage_of(obj), *out = NULL, *r = NULL;
    if (!s || (out_obj != Py_None && !(out = storage_of(out_obj))))
        return NULL;
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = usmarr_storage_reduce(name, s, axes, out, out ? NULL : &r);
    Py_END_ALLOW_THREADS
    if (out)
        return rc ? py_error(rc) : Py_NewRef(out_obj);
    return storage_result(rc, r);
}

/* _storage_view(what, s, text=None): "copy", "domain", "transpose" (text: letters or None),
 * "reinterpret" (text: letters), "index" (text: NumPy's index text) */
static PyObject *py_storage_view(PyObject *self, PyObject *args)
{
    const char *what, *text = NULL;
    PyObject *obj;
    if (!PyArg_ParseTuple(args, "sO|z:_storage_view", &what, &obj, &text))
        return NULL;
    usmarr_storage_t *s = storage_of(obj), *r = NULL;
    if (!s)
        return NULL;
    int rc;
    if (strcmp(what, "copy") == 0)
        rc = usmarr_storage_copy(s, &r);
    else if (strcmp(what, "domain") == 0)
        rc = usmarr_storage_domain_view(s, &r);
    else if (strcmp(what, "transpose") == 0)
        rc = usmarr_storage_transpose(s, text, &r);
    else if (strcmp(what, "reinterpret") == 0)
        rc = usmarr_storage_reinterpret(s, text, &r);
    else if (strcmp(what, "index") == 0)
        rc = usmarr_storage_index_text(s, text ? text : "...", &r);
    else
        return PyErr_Format(PyExc_ValueError, "usmarr.storage: unknown view %R", PyTuple_GetItem(args, 0));
    return storage_result(rc, r);
}

/* _storage_sync(s, what): "synchronize", "host_to_device", "device_to_host", "host_modified",
 * "device_modified", "synchronized" */
static PyObject *py_storage_sync(PyObject *self, PyObject *args)
{
    const char *what;
    PyObject *obj;
    if (!PyArg_ParseTuple(args, "Os:_storage_sync", &obj, &what))
        return NULL;
    usmarr_storage_t *s = storage_of(obj);
    if (!s)
        return NULL;
    int rc;
    if (strcmp(what, "synchronize") == 0)
        rc = usmarr_storage_synchronize(s);
    else if (strcmp(what, "host_to_device") == 0)
        rc = usmarr_storage_host_to_device(s, true);
    else if (strcmp(what, "device_to_host") == 0)
        rc = usmarr_storage_device_to_host(s, true);
    else if (strcmp(what, "host_modified") == 0)
        rc = usmarr_storage_set_host_modified(s);
    else if (strcmp(what, "device_modified") == 0)
        rc = usmarr_storage_set_device_modified(s);
    else if (strcmp(what, "synchronized") == 0)
        rc = usmarr_storage_set_synchronized(s);
    else
        return PyErr_Format(PyExc_ValueError, "usmarr.storage: unknown sync operation %R", PyTuple_GetItem(args, 1));
    if (rc)
        return py_error(rc);
    Py_RETURN_NONE;
}

PyMethodDef storage_methods[] = {
    {"_storage_new", py_storage_new, METH_VARARGS, "_storage_new(fill, options, value=None, like=None)"},
    {"_storage_from", py_storage_from, METH_VARARGS, "_storage_from(data, options, copy)"},
    {"_storage_info", py_storage_info, METH_O, "_storage_info(s): the parameters as a dict"},
    {"_storage_side", py_storage_side, METH_VARARGS, "_storage_side(s, device, write): a side as an Array"},
    {"_storage_elementwise", py_storage_elementwise, METH_VARARGS, "_storage_elementwise(name, operands, out=None)"},
    {"_storage_reduce", py_storage_reduce, METH_VARARGS, "_storage_reduce(name, s, axes=None, out=None)"},
    {"_storage_evaluate", py_storage_evaluate, METH_VARARGS,
     "_storage_evaluate(text, names, operands, axes=None, out=None)"},
    {"_storage_view", py_storage_view, METH_VARARGS, "_storage_view(what, s, text=None)"},
    {"_storage_sync", py_storage_sync, METH_VARARGS, "_storage_sync(s, what)"},
    {NULL},
};

int storage_init_type(PyObject *module)
{
    Storage_Type = (PyTypeObject *)PyType_FromSpec(&storage_spec);
    if (!Storage_Type)
        return -1;
    return PyModule_AddObjectRef(module, "_Storage", (PyObject *)Storage_Type);
}
