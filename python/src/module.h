/* Declarations shared by the sources of the usmarr._usmarr extension module, bottom first:
 * a source calls only the ones listed above it (make check's layering check).  Types and
 * their helpers first, then the namespace, one file per public header it binds.
 *
 * errors.c    the exceptions (UsmarrError and its subclasses), py_error, strerror
 * array_wrap.c Array_Type and array_wrap: the Array objects every source returns
 * device.c    usmarr.Device (one library context each), get_device, devices, adopt_device
 * queue.c     queue.h: usmarr.Queue (`with queue:`, markers, waits) and usmarr.Event
 * dlpack.c    __dlpack__, __dlpack_device__ and a producer's capsule to an array
 * convert.c   argument conversion: Python objects to arrays and back (scalars, sequences,
 *             buffers, interfaces, DLPack), USM kinds, orders, shapes, axes, out=
 * dtype.c     usmarr.dtype and its 14 objects; dtype.h: can_cast, result_type, isdtype, ...
 * expr.c      expr.h: usmarr.Expression (usmarr.evaluate, usmarr.fuse); fuse's tracer
 * ops.c       ops.h: the elementwise functions from the library's table, isclose, allclose
 * reduce.c    reduce.h: sum, prod, mean, min, max, argmin, argmax, all, any, cumulative_sum
 * copy.c      copy.h: astype
 * creation.c  array.h: empty, zeros, ones, full (and _like), arange, linspace, eye
 * view.c      view.h: reshape and the other manipulations, take, put, place, extract,
 *             nonzero, tril, triu
 * array_index.c a[key] and a[key] = value with NumPy's indexing (the Array's mapping slots)
 * linalg.c    linalg.h: matmul, tensordot, vecdot, matrix_transpose
 * linalg_decomp.c linalg.h: qr, svd, svdvals, eigh, eigvalsh, matrix_rank, pinv
 * fft.c       fft.h: the transforms, frequencies and shifts, for usmarr.fft (fft.py)
 * stats.c     stats.h: var, std, logsumexp, the cumulative functions, diff
 * sort.c      sort.h: sorting, searching and set functions
 * storage.c   storage.h: storages, a handle type and one function per library call
 * interop.c   interop.h, dlpack.h: asarray, from_dlpack
 * bench.c     the C baseline of python/bench.py
 * array.c     usmarr.Array: the type with all its slots (attributes, protocols, operators)
 * module.c    PyInit only: every source's types and functions added to the module
 */
#ifndef USMARR_PY_MODULE_H
#define USMARR_PY_MODULE_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <usmarr.h>

/* An array: one reference to a library array. */
typedef struct {
    PyObject_HEAD
    usmarr_array_t *array;
} ArrayObject;

/* A device: one context of the library; one object per device, shared by its arrays. */
typedef struct {
    PyObject_HEAD
    usmarr_context_t *context;
    PyObject *selector; /* str, the device's own filter selector */
} DeviceObject;

/* A queue: one reference to a library queue. */
typedef struct {
    PyObject_HEAD
    usmarr_queue_t *queue;
} QueueObject;

/* An event: one reference to a cl_event. */
typedef struct {
    PyObject_HEAD
    cl_event event;
} EventObject;

/* A dtype: one of the 14 element types. */
typedef struct {
    PyObject_HEAD
    usmarr_dtype_t num;
} DTypeObject;

extern PyTypeObject *Array_Type;
extern PyTypeObject *Device_Type;
extern PyTypeObject *DType_Type;
extern PyTypeObject *Queue_Type;
extern PyTypeObject *Event_Type;

/* errors.c */
int errors_init(PyObject *module);                 /* UsmarrError and its subclasses, strerror */
PyObject *py_error(int code);                      /* raises a library failure; returns NULL */
PyObject *py_axis_error(int code);                 /* the same, INVALID_ARGUMENT as UsmarrAxisError */
PyObject *py_buffer_error(int code);               /* the same, UNSUPPORTED as BufferError (DLPack export) */
int py_fail(int code);                             /* the same, returns -1 */

/* array_wrap.c */
PyObject *array_wrap(usmarr_array_t *array);       /* takes the reference; NULL -> NULL */
/* array_wrap, except that the array `obj` wraps comes back as `obj` itself (asarray and
 * astype without a copy return their input, as NumPy's and the standard's do) */
PyObject *array_wrap_like(PyObject *obj, usmarr_array_t *array);
PyObject *array_wrap_result(int rc, usmarr_array_t *array); /* rc != 0 -> exception */
static inline int array_check(PyObject *o) { return Py_IS_TYPE(o, Array_Type) || PyObject_TypeCheck(o, Array_Type); }
static inline usmarr_array_t *array_of(PyObject *o) { return ((ArrayObject *)o)->array; }

/* device.c */
int device_init(PyObject *module);                 /* usmarr.Device, get_device, devices, adopt_device */
DeviceObject *device_of_context(usmarr_context_t *context); /* borrowed; NULL with exception */
DeviceObject *device_from_object(PyObject *obj);   /* None -> default; borrowed */

/* queue.c */
int queue_init(PyObject *module);                  /* usmarr.Queue, usmarr.Event */
PyObject *queue_wrap(usmarr_queue_t *queue);       /* takes the reference */
PyObject *event_wrap(cl_event event);              /* takes the reference */

/* dlpack.c */
PyObject *array_dlpack(PyObject *self, PyObject *args, PyObject *kwargs);
PyObject *array_dlpack_device(PyObject *self, PyObject *unused);
usmarr_array_t *convert_dlpack(PyObject *obj, DeviceObject *device, int copy, usmarr_usm_kind_t kind);
int array_wait_for_writes(usmarr_array_t *array); /* the host waits for them; -1 with an exception */
int is_sycl_queue(PyObject *obj);                  /* a dpctl.SyclQueue (dpctl being optional) */
int sycl_queue_is_opencl(PyObject *queue);         /* 1, 0, or -1 with an exception */

/* convert.c */
int usm_kind_from_object(PyObject *obj, usmarr_usm_kind_t *kind); /* None -> 0 */
int order_from_object(PyObject *obj, usmarr_order_t *order);     /* None -> C */
int axes_from_object(PyObject *obj, int *axes, int *naxes, int max); /* int or sequence */
int shape_from_object(PyObject *obj, int64_t *shape, int *ndim);  /* int or sequence */
int out_from_object(PyObject *obj, usmarr_array_t **out);        /* None/NULL -> NULL; borrowed */
PyObject *tuple_from_int64(const int64_t *values, int n);
int scalar_from_object(PyObject *obj, usmarr_scalar_t *scalar); /* 1 scalar, 0 not, -1 error */
PyObject *scalar_to_object(const void *element, usmarr_dtype_t dtype);
/* Any supported object to an array (a new reference).  device NULL: the object's own or
 * the default; dtype -1: the object's own; copy -1 if needed, 0 never, 1 always. */
usmarr_array_t *convert_to_array(PyObject *obj, DeviceObject *device, int dtype, int copy,
                                 usmarr_usm_kind_t kind);
/* An array operand next to `like` (its device): arrays pass through retained. */
usmarr_array_t *convert_operand(PyObject *obj, const usmarr_array_t *like);
/* Two operands: `first` next to `like`, `second` next to `like` or, without it, next to
 * `first`; 0, or -1 with an exception and neither held. */
int convert_operands(PyObject *first, PyObject *second, const usmarr_array_t *like, usmarr_array_t **a,
                     usmarr_array_t **b);
PyObject *array_item(usmarr_array_t *array);      /* the single element as a Python scalar */
PyObject *array_to_numpy(usmarr_array_t *array);
PyObject *array_transfer(usmarr_array_t *array, DeviceObject *device, usmarr_usm_kind_t kind);

/* dtype.c */
int dtype_init(PyObject *module);                  /* usmarr.dtype, the 14 dtype objects, the type rules */
PyObject *dtype_object(usmarr_dtype_t dtype);     /* borrowed */
int dtype_from_object(PyObject *obj, int *dtype);  /* None -> -1; -1 with an exception */

/* expr.c */
int expr_init_type(PyObject *module);              /* usmarr.Expression */
/* usmarr.fuse's tracer among a function's arguments records the call: its result; NULL
 * without an exception when no argument is a tracer. */
PyObject *traced(const char *name, PyObject *const *args, Py_ssize_t nargs, PyObject *kwargs);
PyObject *traced_tuple(const char *name, PyObject *args, PyObject *kwargs); /* the same, METH_VARARGS */

/* ops.c */
int ops_init(PyObject *module);                    /* the elementwise functions, isclose, allclose */
PyObject *array_elementwise(const char *name, PyObject *const *args, int nargs, PyObject *out);

/* reduce.c, copy.c, creation.c, view.c: the namespace's method tables */
extern PyMethodDef reduce_methods[];
extern PyMethodDef copy_methods[];
extern PyMethodDef creation_methods[];
extern PyMethodDef view_methods[];
PyObject *py_reshape(PyObject *self, PyObject *args, PyObject *kwargs); /* view.c: also Array.reshape */

/* array_index.c */
PyObject *array_getitem(PyObject *self, PyObject *key);
int array_setitem(PyObject *self, PyObject *key, PyObject *value);

/* linalg.c, fft.c, stats.c, sort.c, storage.c, interop.c, bench.c */
extern PyMethodDef linalg_methods[];
int linalg_init(PyObject *m); /* usmarr._usmarr._linalg: the extension's functions */
extern PyMethodDef linalg_decomp_methods[]; /* linalg_decomp.c: qr, svd, eigh and their kin, in _linalg */
extern PyMethodDef fft_methods[];
extern PyMethodDef stats_methods[];
extern PyMethodDef sort_methods[];
int sort_init(PyObject *module);                   /* the named tuples of the set functions and top_k */
extern PyMethodDef storage_methods[];
int storage_init_type(PyObject *module);           /* usmarr.storage's handle type */
extern PyMethodDef interop_methods[];
extern PyMethodDef bench_methods[];

/* array.c */
int array_init_type(PyObject *module);             /* usmarr.Array */

#endif
