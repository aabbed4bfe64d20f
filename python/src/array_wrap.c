/* The Array objects every source returns: Array_Type and array_wrap.  array.c makes the
 * type with its slots (array_init_type); this file sits below the sources that return or
 * accept arrays, array.c above them. */
#include "module.h"

PyTypeObject *Array_Type;

PyObject *array_wrap(usmarr_array_t *array)
{
    if (!array)
        return NULL;
    ArrayObject *self = PyObject_New(ArrayObject, Array_Type);
    if (!self) {
        usmarr_array_release(array);
        return NULL;
    }
    self->array = array;
    return (PyObject *)self;
}

PyObject *array_wrap_like(PyObject *obj, usmarr_array_t *array)
{
    if (array && array_check(obj) && array == array_of(obj)) {
        usmarr_array_release(array);
        return Py_NewRef(obj);
    }
    return array_wrap(array);
}

PyObject *array_wrap_result(int rc, usmarr_array_t *array)
{
    if (rc) {
        usmarr_array_release(array);
        return py_error(rc);
    }
    return array_wrap(array);
}
