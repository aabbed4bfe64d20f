/* arange, linspace and eye.  arange and linspace: n values start + i * step in double (the last one `stop` itself for
 * linspace's endpoint), converted as a scalar is (usmarr__scalar_store: integers truncate
 * and must fit).  Large ramps of the real dtypes run as a map on the device (cl/ramp.cl),
 * after the host has converted their first and last values: a ramp is monotonic and so is
 * the conversion, so every value between fits when both ends do.  The rest (small ramps, a
 * tail shorter than a row, float16, complex, a device without fp64, an end that does not
 * fit, whose error the host's loop then reports) is written on the host and copied.
 * eye: zeros, then a fill of the diagonal as a strided view. */
#include "engine_internal.h"

#include <math.h>
#include <stdlib.h>

#define ROW 4096               /* the map's row: values in2 = 0 .. ROW - 1 */
#define DEVICE_MIN (1 << 16)   /* ramps shorter than this are written on the host */

/* value i of the ramp */
static double value_at(int64_t i, int64_t n, double start, double step, const double *last, bool floor_values)
{
    double y = last && i == n - 1 ? *last : start + (double)i * step;
    return floor_values ? floor(y) : y;
}

/* Values [lo, hi) of the ramp written into a's memory from a host buffer. */
static int host_values(usmarr_array_t *a, int64_t lo, int64_t hi, int64_t n, double start, double step,
                       const double *last, bool floor_values, const char *what)
{
    if (hi <= lo)
        return 0;
    size_t item = usmarr_dtype_size(a->dtype);
    char *staging = malloc((size_t)(hi - lo) * item);
    if (!staging)
        return usmarr__fail(USMARR_ERROR_OUT_OF_HOST_MEMORY, "host staging buffer of %lld bytes",
                            (long long)((hi - lo) * (int64_t)item));
    int rc = 0;
    for (int64_t i = lo; i < hi && !rc; i++)
        rc = usmarr__scalar_store(usmarr_scalar_float(value_at(i, n, start, step, last, floor_values)), a->dtype,
                                  staging + (i - lo) * (int64_t)item, what);
    if (!rc)
        rc = usmarr_memory_copy_from_host(a->memory, (size_t)lo * item, staging, (size_t)(hi - lo) * item);
    free(staging);
    return rc;
}

/* A float64 array of `count` values 0, step, 2 step, ... (the map's row bases and in-row
 * indices: integers, exact in double; doubles rather than int64, whose conversion costs
 * more than the rest of the body on Intel's runtime). */
static int counter(usmarr_context_t *ctx, int64_t count, int64_t step, usmarr_array_t **out)
{
    int rc = usmarr_array_empty(ctx, 1, &count, USMARR_FLOAT64, USMARR_ORDER_C, USMARR_USM_DEVICE, out);
    if (!rc && (rc = host_values(*out, 0, count, count, 0, (double)step, NULL, false, "index"))) {
        usmarr_array_release(*out);
        *out = NULL;
    }
    return rc;
}

/* Values [0, rows * ROW) of the ramp by the device. */
static int device_values(usmarr_array_t *a, int64_t rows, double start, double step, bool floor_values)
{
    usmarr_context_t *ctx = a->memory->context;
    usmarr_array_t *bases = NULL, *within = NULL;
    int rc = counter(ctx, rows, ROW, &bases);
    if (!rc)
        rc = counter(ctx, ROW, 1, &within);
    struct usmarr__map m = usmarr__map_init("ramp", floor_values ? "-DRAMP_FLOOR=1" : NULL, 1, 2);
    m.ndim = 2;
    m.shape[0] = rows;
    m.shape[1] = ROW;
    if (!rc) {
        m.operands[0] = (struct usmarr__operand){usmarr_array_data(a), a->dtype, {ROW, 1}};
        m.operands[1] = (struct usmarr__operand){usmarr_array_data(bases), USMARR_FLOAT64, {1, 0}};
        m.operands[2] = (struct usmarr__operand){usmarr_array_data(within), USMARR_FLOAT64, {0, 1}};
        m.nscalars = 2;
        usmarr_scalar_t s0 = usmarr_scalar_float(start), s1 = usmarr_scalar_float(step);
        if (!(rc = usmarr__scalar_arg_set(&m.scalars[0], USMARR_FLOAT64, &s0)) &&
            !(rc = usmarr__scalar_arg_set(&m.scalars[1], USMARR_FLOAT64, &s1)))
            rc = usmarr__map_launch(ctx, &m);
    }
    usmarr_array_release(bases);
    usmarr_array_release(within);
    return rc;
}

/* Whether the device writes the first `count` values: a real dtype other than float16 and
 * bool, fp64 on the device, and both ends converted without error. */
static bool device_writes(const usmarr_array_t *a, int64_t count, int64_t n, double start, double step,
                          const double *last, bool floor_values, const char *what)
{
    usmarr_kind_t kind = usmarr_dtype_kind(a->dtype);
    if (count < DEVICE_MIN || !a->memory->context->info.fp64 || a->dtype == USMARR_FLOAT16 ||
        (kind != USMARR_KIND_FLOAT && kind != USMARR_KIND_INT && kind != USMARR_KIND_UINT))
        return false;
    unsigned char probe[16];
    return !usmarr__scalar_store(usmarr_scalar_float(value_at(0, n, start, step, last, floor_values)), a->dtype, probe,
                                 what) &&
           !usmarr__scalar_store(usmarr_scalar_float(value_at(count - 1, n, start, step, last, floor_values)),
                                 a->dtype, probe, what);
}

static int check_creation_args(usmarr_context_t *ctx, usmarr_dtype_t dtype, usmarr_array_t **array)
{
    if (!ctx || !array)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s is NULL", !ctx ? "context" : "array");
    return usmarr__check_dtype_supported(ctx, dtype, "dtype");
}

/* The 1-d array of the n values. */
static int ramp(usmarr_context_t *context, usmarr_dtype_t dtype, usmarr_usm_kind_t kind, int64_t n, double start,
                double step, const double *last, bool floor_values, const char *what, usmarr_array_t **array)
{
    usmarr_array_t *a;
    int rc = usmarr_array_empty(context, 1, &n, dtype, USMARR_ORDER_C, kind, &a);
    if (rc)
        return rc;
    int64_t ramped = last ? n - 1 : n; /* the last value of linspace's endpoint is stop */
    int64_t rows = ramped / ROW, done = 0;
    if (device_writes(a, rows * ROW, n, start, step, last, floor_values, what)) {
        rc = device_values(a, rows, start, step, floor_values);
        done = rows * ROW;
    }
    if (!rc)
        rc = host_values(a, done, n, n, start, step, last, floor_values, what);
    if (rc) {
        usmarr_array_release(a);
        return rc;
    }
    *array = a;
    return 0;
}

int usmarr_array_arange(usmarr_context_t *context, double start, double stop, double step, usmarr_dtype_t dtype,
                        usmarr_usm_kind_t kind, usmarr_array_t **array)
{
    usmarr__clear_error();
    int rc = check_creation_args(context, dtype, array);
    if (rc)
        return rc;
    if (!isfinite(start) || !isfinite(stop) || !isfinite(step))
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "start=%g, stop=%g, step=%g must all be finite", start,
                            stop, step);
    if (step == 0)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "step=0 gives no progress from start to stop");
    if (dtype == USMARR_BOOL)
        return usmarr__fail(USMARR_ERROR_BAD_DTYPE, "dtype=bool has no arange (as in NumPy)");
    double len = ceil((stop - start) / step);
    if (!(len > 0))
        len = 0;
    if (len > 0x1p62)
        return usmarr__fail(USMARR_ERROR_OVERFLOW, "(stop - start) / step = %g elements is too many", len);
    return ramp(context, dtype, kind, (int64_t)len, start, step, NULL, false, "start + i*step", array);
}
int usmarr_array_linspace(usmarr_context_t *context, double start, double stop, int64_t num, bool endpoint,
                          usmarr_dtype_t dtype, usmarr_usm_kind_t kind, usmarr_array_t **array)
{
    usmarr__clear_error();
    int rc = check_creation_args(context, dtype, array);
    if (rc)
        return rc;
    if (num < 0)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "num=%lld is negative", (long long)num);
    if (!isfinite(start) || !isfinite(stop))
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "start=%g and stop=%g must be finite", start, stop);
    int64_t div = endpoint ? num - 1 : num;
    double step = div > 0 ? (stop - start) / (double)div : 0;
    /* NumPy 2 rounds towards -inf for integer dtypes */
    bool integer = usmarr_dtype_kind(dtype) == USMARR_KIND_INT || usmarr_dtype_kind(dtype) == USMARR_KIND_UINT;
    return ramp(context, dtype, kind, num, start, step, endpoint && num > 1 ? &stop : NULL, integer, "linspace value",
                array);
}

int usmarr_array_eye(usmarr_context_t *context, int64_t n, int64_t m, int64_t k, usmarr_dtype_t dtype,
                     usmarr_order_t order, usmarr_usm_kind_t kind, usmarr_array_t **array)
{
    usmarr__clear_error();
    int rc = check_creation_args(context, dtype, array);
    if (rc)
        return rc;
    if (m < 0)
        m = n;
    if (n < 0)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "n=%lld is negative", (long long)n);
    int64_t count, shape[2] = {n, m};
    if (usmarr__mul_overflow(n, m, &count))
        return usmarr__fail(USMARR_ERROR_OVERFLOW, "n=%lld times m=%lld overflows", (long long)n, (long long)m);
    usmarr_array_t *a, *diagonal = NULL;
    if ((rc = usmarr_array_zeros(context, 2, shape, dtype, order, kind, &a)))
        return rc;
    /* the diagonal from (i0, j0): a step of one row and one column (none where k is
     * beyond the matrix, also where -k would overflow) */
    int64_t i0 = 0, j0 = 0, len = 0;
    if (k < 0 ? k > -n : k < m) {
        i0 = k < 0 ? -k : 0;
        j0 = k > 0 ? k : 0;
        len = n - i0 < m - j0 ? n - i0 : m - j0;
    }
    int64_t step = a->strides[0] + a->strides[1];
    if (len > 0 &&
        !(rc = usmarr__array_new(a->memory, dtype, 1, &len, &step, i0 * a->strides[0] + j0 * a->strides[1],
                                 USMARR_FLAG_WRITABLE, &diagonal)))
        rc = usmarr_array_fill(diagonal, usmarr_scalar_bool(true));
    usmarr_array_release(diagonal);
    if (rc) {
        usmarr_array_release(a);
        return rc;
    }
    *array = a;
    return 0;
}
