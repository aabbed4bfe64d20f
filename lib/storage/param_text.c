/* The storage parameters given as text: axes, layout, device and managed values.  The
 * lowest module of the storage layer: params.c and preset.c validate with it. */
#include "storage_internal.h"

#include <string.h>

int usmarr__storage_check_axes(const char *axes, const char *what)
{
    if (!axes)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s is NULL", what);
    size_t n = strnlen(axes, USMARR_STORAGE_MAX_NDIM + 1);
    if (n > USMARR_STORAGE_MAX_NDIM)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s=\"%.16s\" is too long: at most %d letters of \"IJK\"",
                            what, axes, USMARR_STORAGE_MAX_NDIM);
    bool seen[3] = {false, false, false};
    for (size_t k = 0; k < n; k++) {
        int l = usmarr__storage_letter(axes[k]);
        if (l < 0)
            return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s=\"%s\": '%c' is not one of the letters I, J, K",
                                what, axes, axes[k]);
        if (seen[l])
            return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s=\"%s\": '%c' appears twice", what, axes, axes[k]);
        seen[l] = true;
    }
    return 0;
}

int usmarr__storage_check_layout(const char *layout, const char *what)
{
    if (!layout)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s is NULL", what);
    size_t n = strnlen(layout, 4);
    int rc = n == 3 ? usmarr__storage_check_axes(layout, what) : 0;
    if (n != 3 || rc)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT,
                            "%s=\"%.8s\" is not a permutation of \"IJK\" (the layout always names all 3 axes)", what,
                            layout);
    return 0;
}

int usmarr__storage_parse_device(const char *device, const char *what, int *value)
{
    if (!device)
        *value = 0;
    else if (!strcmp(device, "gpu") || !strcmp(device, "device"))
        *value = 1;
    else
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s=\"%.32s\" is not NULL, \"gpu\" or \"device\"", what,
                            device);
    return 0;
}

int usmarr__storage_parse_managed(const char *managed, const char *what, int *value)
{
    if (!managed)
        *value = 0;
    else if (!strcmp(managed, "none"))
        *value = USMARR__MANAGED_NONE;
    else if (!strcmp(managed, "gt4py"))
        *value = USMARR__MANAGED_GT4PY;
    else if (!strcmp(managed, "cuda") || !strcmp(managed, "shared"))
        *value = USMARR__MANAGED_CUDA;
    else
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT,
                            "%s=\"%.32s\" is not NULL, \"none\", \"gt4py\", \"cuda\" or \"shared\"", what, managed);
    return 0;
}
