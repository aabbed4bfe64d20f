/* The module usmarr._usmarr: PyInit only, the top of the module's sources.  Each source
 * below adds its own types and functions (module.h lists them, bottom first). */
#include "module.h"

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "usmarr._usmarr", "The C extension under the usmarr package.", -1, NULL, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__usmarr(void);

PyMODINIT_FUNC PyInit__usmarr(void)
{
    PyObject *m = PyModule_Create(&module_def);
    if (!m)
        return NULL;
    if (errors_init(m) < 0 || dtype_init(m) < 0 || device_init(m) < 0 || queue_init(m) < 0 || array_init_type(m) < 0 ||
        PyModule_AddFunctions(m, reduce_methods) < 0 || PyModule_AddFunctions(m, copy_methods) < 0 ||
        PyModule_AddFunctions(m, interop_methods) < 0 || PyModule_AddFunctions(m, view_methods) < 0 ||
        PyModule_AddFunctions(m, creation_methods) < 0 || PyModule_AddFunctions(m, bench_methods) < 0 ||
        storage_init_type(m) < 0 || PyModule_AddFunctions(m, storage_methods) < 0 || ops_init(m) < 0 ||
        PyModule_AddFunctions(m, sort_methods) < 0 || sort_init(m) < 0 || PyModule_AddFunctions(m, linalg_methods) < 0 ||
        linalg_init(m) < 0 || PyModule_AddFunctions(m, fft_methods) < 0 ||
        PyModule_AddFunctions(m, stats_methods) < 0 || expr_init_type(m) < 0)
        goto fail;
    if (PyModule_AddIntConstant(m, "MAX_NDIM", USMARR_MAX_NDIM) < 0 ||
        PyModule_AddStringConstant(m, "library_version", USMARR_VERSION_STRING) < 0)
        goto fail;
    return m;
fail:
    Py_DECREF(m);
    return NULL;
}
