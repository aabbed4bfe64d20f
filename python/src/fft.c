/* The transforms (include/usmarr/fft.h), for usmarr.fft (python/usmarr/fft.py, which
 * gives them the standard's signatures): one function per kind of call, the transform
 * named by a string, each one library call. */
#include "module.h"

#include <string.h>

typedef int (*fft1_fn)(const usmarr_array_t *, const int64_t *, int, usmarr_fft_norm_t, usmarr_array_t *,
                       usmarr_array_t **);
typedef int (*fftn_fn)(const usmarr_array_t *, int, const int *, const int64_t *, usmarr_fft_norm_t, usmarr_array_t *,
                       usmarr_array_t **);

static const struct {
    const char *name;
    fft1_fn one;
    fftn_fn many;
} TRANSFORMS[] = {
    {"fft", usmarr_fft, NULL},       {"ifft", usmarr_ifft, NULL},   {"rfft", usmarr_rfft, NULL},
    {"irfft", usmarr_irfft, NULL},   {"hfft", usmarr_hfft, NULL},   {"ihfft", usmarr_ihfft, NULL},
    {"fftn", NULL, usmarr_fftn},     {"ifftn", NULL, usmarr_ifftn}, {"rfftn", NULL, usmarr_rfftn},
    {"irfftn", NULL, usmarr_irfftn},
};

static int norm_from_object(PyObject *obj, usmarr_fft_norm_t *norm)
{
    *norm = USMARR_FFT_NORM_BACKWARD;
    if (!obj || obj == Py_None)
        return 0;
    const char *s = PyUnicode_Check(obj) ? PyUnicode_AsUTF8AndSize(obj, NULL) : NULL;
    if (s && !strcmp(s, "backward"))
        return 0;
    if (s && !strcmp(s, "ortho")) {
        *norm = USMARR_FFT_NORM_ORTHO;
        return 0;
    }
    if (s && !strcmp(s, "forward")) {
        *norm = USMARR_FFT_NORM_FORWARD;
        return 0;
    }
    PyErr_Format(PyExc_ValueError, "usmarr.fft: norm=%R; it must be \"backward\", \"ortho\" or \"forward\"", obj);
    return -1;
}

static int transform_index(const char *name, bool many)
{
    for (int i = 0; i < (int)(sizeof TRANSFORMS / sizeof TRANSFORMS[0]); i++)
        if (!strcmp(TRANSFORMS[i].name, name) && (many ? TRANSFORMS[i].many != NULL : TRANSFORMS[i].one != NULL))
            return i;
    PyErr_Format(PyExc_ValueError, "usmarr.fft: no transform %s", name);
    return -1;
}

/* _fft(name, x, n, axis, norm, out): n None or an int */
static PyObject *py_fft(PyObject *self, PyObject *args)
{
    const char *name;
    PyObject *x, *n_obj, *norm_obj, *out_obj;
    int axis, k;
    usmarr_fft_norm_t norm;
    usmarr_array_t *out, *a, *r = NULL;
    int64_t n = 0;
    if (!PyArg_ParseTuple(args, "sOOiOO:_fft", &name, &x, &n_obj, &axis, &norm_obj, &out_obj) ||
        (k = transform_index(name, false)) < 0 || norm_from_object(norm_obj, &norm) < 0 ||
        out_from_object(out_obj, &out) < 0)
        return NULL;
    if (n_obj != Py_None) {
        long long v = PyLong_AsLongLong(n_obj);
        if (v == -1 && PyErr_Occurred())
            return NULL;
        n = v;
    }
    if (!(a = convert_operand(x, NULL)))
        return NULL;
    int rc = TRANSFORMS[k].one(a, n_obj == Py_None ? NULL : &n, axis, norm, out, &r);
    usmarr_array_release(a);
    return array_wrap_result(rc, r);
}

/* _fftn(name, x, s, axes, norm, out): s and axes None or sequences of one length */
static PyObject *py_fftn(PyObject *self, PyObject *args)
{
    const char *name;
    PyObject *x, *s_obj, *axes_obj, *norm_obj, *out_obj;
    int k, axes[USMARR_MAX_NDIM], naxes = -1, ns = -1;
    int64_t s[USMARR_MAX_NDIM];
    usmarr_fft_norm_t norm;
    usmarr_array_t *out, *a, *r = NULL;
    if (!PyArg_ParseTuple(args, "sOOOOO:_fftn", &name, &x, &s_obj, &axes_obj, &norm_obj, &out_obj) ||
        (k = transform_index(name, true)) < 0 || norm_from_object(norm_obj, &norm) < 0 ||
        out_from_object(out_obj, &out) < 0)
        return NULL;
    if (axes_obj != Py_None && axes_from_object(axes_obj, axes, &naxes, USMARR_MAX_NDIM) < 0)
        return NULL;
    if (s_obj != Py_None && shape_from_object(s_obj, s, &ns) < 0)
        return NULL;
    if (ns >= 0 && naxes >= 0 && ns != naxes) {
        PyErr_Format(PyExc_ValueError, "usmarr.fft.%s: s has %d lengths and axes %d axes; they must match", name, ns,
                     naxes);
        return NULL;
    }
    if (!(a = convert_operand(x, NULL)))
        return NULL;
    int count = naxes >= 0 ? naxes : ns;
    int rc = TRANSFORMS[k].many(a, count, naxes >= 0 ? axes : NULL, ns >= 0 ? s : NULL, norm, out, &r);
    usmarr_array_release(a);
    return array_wrap_result(rc, r);
}

/* _fftfreq(n, d, dtype, device, onesided) */
static PyObject *py_fftfreq(PyObject *self, PyObject *args)
{
    long long n;
    double d;
    PyObject *dtype_obj, *device_obj;
    int onesided, dtype;
    if (!PyArg_ParseTuple(args, "LdOOp:_fftfreq", &n, &d, &dtype_obj, &device_obj, &onesided) ||
        dtype_from_object(dtype_obj, &dtype) < 0)
        return NULL;
    DeviceObject *device = device_from_object(device_obj);
    if (!device)
        return NULL;
    if (dtype < 0)
        dtype = usmarr_context_info(device->context)->fp64 ? USMARR_FLOAT64 : USMARR_FLOAT32;
    usmarr_array_t *r = NULL;
    int rc = (onesided ? usmarr_rfftfreq : usmarr_fftfreq)(device->context, n, d, (usmarr_dtype_t)dtype,
                                                           USMARR_USM_DEVICE, &r);
    return array_wrap_result(rc, r);
}

/* _fftshift(x, axes, inverse): axes None or a sequence (or an int) */
static PyObject *py_fftshift(PyObject *self, PyObject *args)
{
    PyObject *x, *axes_obj;
    int inverse, axes[USMARR_MAX_NDIM], naxes = -1;
    if (!PyArg_ParseTuple(args, "OOp:_fftshift", &x, &axes_obj, &inverse) ||
        (axes_obj != Py_None && axes_from_object(axes_obj, axes, &naxes, USMARR_MAX_NDIM) < 0))
        return NULL;
    usmarr_array_t *a = convert_operand(x, NULL), *r = NULL;
    if (!a)
        return NULL;
    int rc = (inverse ? usmarr_ifftshift : usmarr_fftshift)(a, naxes, naxes >= 0 ? axes : NULL, NULL, &r);
    usmarr_array_release(a);
    return array_wrap_result(rc, r);
}

PyMethodDef fft_methods[] = {
    {"_fft", py_fft, METH_VARARGS, "_fft(name, x, n, axis, norm, out)\n--\n\nOne axis (usmarr.fft)"},
    {"_fftn", py_fftn, METH_VARARGS, "_fftn(name, x, s, axes, norm, out)\n--\n\nSeveral axes (usmarr.fft)"},
    {"_fftfreq", py_fftfreq, METH_VARARGS, "_fftfreq(n, d, dtype, device, onesided)\n--\n\n(usmarr.fft)"},
    {"_fftshift", py_fftshift, METH_VARARGS, "_fftshift(x, axes, inverse)\n--\n\n(usmarr.fft)"},
    {NULL},
};
