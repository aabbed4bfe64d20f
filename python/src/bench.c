/* The C side of python/bench.py: the same library calls timed in a C loop, in the same
 * process and on the same arrays, so that the Python figures have their own baseline. */
#include "module.h"

#include <time.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* _bench_add(a, b, iterations): seconds per usmarr_add(a, b) + finish + release. */
static PyObject *py_bench_add(PyObject *self, PyObject *args)
{
    PyObject *a, *b;
    long iterations;
    if (!PyArg_ParseTuple(args, "O!O!l:_bench_add", Array_Type, &a, Array_Type, &b, &iterations))
        return NULL;
    usmarr_context_t *context = usmarr_array_context(array_of(a));
    int rc = 0;
    double start = now();
    for (long i = 0; i < iterations && !rc; i++) {
        usmarr_array_t *r = NULL;
        rc = usmarr_add(array_of(a), array_of(b), NULL, &r);
        if (!rc)
            rc = usmarr_context_finish(context);
        usmarr_array_release(r);
    }
    double elapsed = now() - start;
    if (rc)
        return py_error(rc);
    return PyFloat_FromDouble(elapsed / (double)(iterations > 0 ? iterations : 1));
}

PyMethodDef bench_methods[] = {
    {"_bench_add", py_bench_add, METH_VARARGS, "_bench_add(a, b, iterations): seconds per add + finish in C"},
    {NULL},
};
