/* Storage operations (doc/storage.md): named-axes broadcasting, output parameters, reductions by
 * letter, domain views in operations, region assignment and managed pairs, against NumPy
 * (tests/storage_cases.txt, written by tests/gen/gen_storage_cases.py), plus one test per
 * example of GT4Py's storage proposal, GDP 3 (host loops as the oracle), and the failure
 * paths. */
#include "../harness/common.h"

#include "storage_cases.h"

#include <stdio.h>
#include <stdlib.h>

/* ---- reading the case file ---------------------------------------------------------------- */

#define MAX_CASES 512

static struct case_entry *cases;
static int ncases;

static void load_cases(void)
{
    const char *path = getenv("USMARR_STORAGE_CASES");
    if (!path || !*path)
        path = "tests/storage_cases.txt";
    if (!cases)
        cases = case_file_load_from(path, "scase", MAX_CASES, &ncases);
    ck_assert_msg(ncases > 0, "no cases read from %s (make check writes it with $PYTHON_NUMPY "
                              "tests/gen/gen_storage_cases.py; set USMARR_STORAGE_CASES to run from elsewhere)", path);
}

/* Runs every case whose name starts with `prefix` (and not with `except`, when given). */
static int run_cases(const char *prefix, const char *except)
{
    load_cases();
    usmarr_context_t *ctx = test_context();
    int ran = 0;
    for (int i = 0; i < ncases; i++) {
        if (strncmp(cases[i].name, prefix, strlen(prefix)) || (except && !strncmp(cases[i].name, except, strlen(except))))
            continue;
        storage_cases_run(ctx, &cases[i]);
        ran++;
    }
    usmarr_context_release(ctx);
    return ran;
}

START_TEST(test_storage_ops_elementwise_cases_match_numpy)
{
    ck_assert_int_gt(run_cases("ew-", "ew-every-"), 40);
}
END_TEST

START_TEST(test_storage_ops_reduction_cases_match_numpy)
{
    ck_assert_int_gt(run_cases("red-", NULL), 10);
}
END_TEST

START_TEST(test_storage_ops_assignment_cases_match_numpy)
{
    ck_assert_int_gt(run_cases("asg-", NULL), 8);
}
END_TEST

/* Every name of the dispatcher's table has a case, and each runs on storages. */
START_TEST(test_storage_ops_every_elementwise_function_works_on_storages)
{
    load_cases();
    for (int i = 0; usmarr_elementwise_name(i); i++) {
        char want[64];
        snprintf(want, sizeof want, "ew-every-%s", usmarr_elementwise_name(i));
        bool found = false;
        for (int k = 0; k < ncases && !found; k++)
            found = !strcmp(cases[k].name, want);
        ck_assert_msg(found, "no case %s in the NumPy oracle for %s", want, usmarr_elementwise_name(i));
    }
    ck_assert_int_ge(run_cases("ew-every-", NULL), 70);
}
END_TEST

/* ---- GDP 3's examples and the rest, with host loops as the oracle ------------------------- */

/* A float64 storage of `kind` ("host", "device", "shared", "managed") whose element at
 * C-order position p holds base + p. */
static usmarr_storage_t *iota(usmarr_context_t *ctx, const char *axes, const int64_t *shape, const char *kind,
                              double base)
{
    struct spec s;
    memset(&s, 0, sizeof s);
    s.dtype = USMARR_FLOAT64;
    snprintf(s.axes, sizeof s.axes, "%s", axes);
    s.ndim = (int)strlen(axes);
    s.size = 1;
    for (int k = 0; k < s.ndim; k++)
        s.size *= s.shape[k] = shape[k];
    s.alignment = 8;
    snprintf(s.layout, sizeof s.layout, "IJK");
    snprintf(s.kind, sizeof s.kind, "%s", kind);
    snprintf(s.state, sizeof s.state, "clean");
    double *v = malloc(sizeof(double) * (size_t)s.size);
    for (int64_t p = 0; p < s.size; p++)
        v[p] = base + (double)p;
    s.values = (unsigned char *)v;
    usmarr_storage_t *st = storage_cases_make(ctx, &s);
    free(v);
    return st;
}

/* The storage's float64 elements (a new buffer). */
static double *elements(usmarr_storage_t *st)
{
    int64_t n = 1;
    for (int k = 0; k < usmarr_storage_ndim(st); k++)
        n *= usmarr_storage_shape(st)[k];
    double *v = malloc(sizeof(double) * (size_t)(n ? n : 1));
    storage_cases_read(st, v);
    return v;
}

static void assert_shape(usmarr_storage_t *st, const char *axes, int ndim, const int64_t *shape)
{
    ck_assert_str_eq(usmarr_storage_axes(st), axes);
    ck_assert_int_eq(usmarr_storage_ndim(st), ndim);
    for (int k = 0; k < ndim; k++)
        ck_assert_int_eq(usmarr_storage_shape(st)[k], shape[k]);
}

static usmarr_storage_operand_t st_op(const usmarr_storage_t *s) { return (usmarr_storage_operand_t){.storage = s}; }
static usmarr_storage_operand_t arr_op(const usmarr_array_t *a) { return (usmarr_storage_operand_t){.array = a}; }

/* GDP 3, Broadcasting: "adding an IJ field A of shape (2, 3) with a K field B of shape
 * (4,) will result in an IJK field C of shape (2, 3, 4), with C[i,j,k] = A[i,j]+B[k]". */
START_TEST(test_storage_ops_ij_2x3_plus_k_4_gives_ijk_2x3x4)
{
    usmarr_context_t *ctx = test_context();
    int64_t sa[2] = {2, 3}, sb[1] = {4}, sc[3] = {2, 3, 4};
    usmarr_storage_t *a = iota(ctx, "IJ", sa, "host", 0), *b = iota(ctx, "K", sb, "host", 100), *c = NULL;
    usmarr_storage_operand_t ops[2] = {st_op(a), st_op(b)};
    ck_assert_ok(usmarr_storage_elementwise("add", ops, 2, NULL, &c));
    assert_shape(c, "IJK", 3, sc);
    double *va = elements(a), *vb = elements(b), *vc = elements(c);
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 3; j++)
            for (int k = 0; k < 4; k++)
                ck_assert_double_eq(vc[(i * 3 + j) * 4 + k], va[i * 3 + j] + vb[k]);
    free(va);
    free(vb);
    free(vc);
    usmarr_storage_release(a);
    usmarr_storage_release(b);
    usmarr_storage_release(c);
    usmarr_context_release(ctx);
}
END_TEST

/* GDP 3, Universal Functions: "taking the sum over the K axis of an IJK storage will
 * result in an IJ storage" (the axis named by its letter). */
START_TEST(test_storage_ops_sum_over_k_of_ijk_gives_ij)
{
    usmarr_context_t *ctx = test_context();
    int64_t shape[3] = {2, 3, 4};
    usmarr_storage_t *s = iota(ctx, "IJK", shape, "managed", 1), *r = NULL;
    ck_assert_ok(usmarr_storage_reduce("sum", s, "K", NULL, &r));
    assert_shape(r, "IJ", 2, shape);
    double *v = elements(s), *vr = elements(r);
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 3; j++) {
            double sum = 0;
            for (int k = 0; k < 4; k++)
                sum += v[(i * 3 + j) * 4 + k];
            ck_assert_double_eq(vr[i * 3 + j], sum);
        }
    free(v);
    free(vr);
    usmarr_storage_release(s);
    usmarr_storage_release(r);
    usmarr_context_release(ctx);
}
END_TEST

/* GDP 3, __setitem__: "stor_out[key] = stor2d would be equivalent to
 * np.positive(stor2d, out=stor_out[key])". */
START_TEST(test_storage_ops_stor_out_key_assign_equals_positive_with_out)
{
    usmarr_context_t *ctx = test_context();
    int64_t so[3] = {4, 5, 6}, s2[2] = {2, 5};
    usmarr_storage_t *o1 = iota(ctx, "IJK", so, "managed", 0), *o2 = iota(ctx, "IJK", so, "managed", 0);
    usmarr_storage_t *stor2d = iota(ctx, "IJ", s2, "host", 1000), *region = NULL;
    usmarr_index_item_t key[3];
    size_t nkey = 0;
    ck_assert_ok(usmarr_index_parse("1:3, :, 0", key, 3, &nkey));
    usmarr_storage_operand_t value = st_op(stor2d);
    ck_assert_ok(usmarr_storage_assign(o1, key, nkey, &value));
    ck_assert_ok(usmarr_storage_index(o2, key, nkey, &region));
    ck_assert_ok(usmarr_storage_elementwise("positive", &value, 1, region, NULL));
    ck_assert_int_eq(storage_cases_sync(o1), storage_cases_sync(o2));
    double *v1 = elements(o1), *v2 = elements(o2), *vs = elements(stor2d);
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 5; j++)
            for (int k = 0; k < 6; k++) {
                int p = (i * 5 + j) * 6 + k;
                double want = i >= 1 && i < 3 && k == 0 ? vs[(i - 1) * 5 + j] : (double)p;
                ck_assert_double_eq(v1[p], want);
                ck_assert_double_eq(v2[p], want);
            }
    free(v1);
    free(v2);
    free(vs);
    usmarr_storage_release(region);
    usmarr_storage_release(o1);
    usmarr_storage_release(o2);
    usmarr_storage_release(stor2d);
    usmarr_context_release(ctx);
}
END_TEST

/* GDP 3, Mixing Types, first case: "the array has the same shape as the input storage". */
START_TEST(test_storage_ops_mixing_types_array_of_the_storage_shape)
{
    usmarr_context_t *ctx = test_context();
    int64_t shape[2] = {3, 2};
    usmarr_storage_t *s = iota(ctx, "JI", shape, "device", 0), *r = NULL;
    double host[6] = {10, 20, 30, 40, 50, 60};
    usmarr_array_t *a;
    ck_assert_ok(usmarr_array_from_host(ctx, 2, shape, USMARR_FLOAT64, host, NULL, USMARR_USM_DEVICE, &a));
    usmarr_storage_operand_t ops[2] = {st_op(s), arr_op(a)};
    ck_assert_ok(usmarr_storage_elementwise("multiply", ops, 2, NULL, &r));
    assert_shape(r, "JI", 2, shape);
    double *v = elements(r);
    for (int p = 0; p < 6; p++)
        ck_assert_double_eq(v[p], p * host[p]);
    free(v);
    usmarr_array_release(a);
    usmarr_storage_release(s);
    usmarr_storage_release(r);
    usmarr_context_release(ctx);
}
END_TEST

/* GDP 3, Mixing Types, second case: "the array has a 3d shape where dimensions with
 * shape 1 in the array are broadcast". */
START_TEST(test_storage_ops_mixing_types_3d_array_with_size_1_dims_broadcasts)
{
    usmarr_context_t *ctx = test_context();
    int64_t shape[3] = {2, 3, 4}, ashape[3] = {2, 1, 4};
    usmarr_storage_t *s = iota(ctx, "IJK", shape, "host", 0), *r = NULL;
    double host[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    usmarr_array_t *a;
    ck_assert_ok(usmarr_array_from_host(ctx, 3, ashape, USMARR_FLOAT64, host, NULL, USMARR_USM_DEVICE, &a));
    usmarr_storage_operand_t ops[2] = {arr_op(a), st_op(s)};
    ck_assert_ok(usmarr_storage_elementwise("subtract", ops, 2, NULL, &r));
    assert_shape(r, "IJK", 3, shape);
    double *v = elements(r);
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 3; j++)
            for (int k = 0; k < 4; k++)
                ck_assert_double_eq(v[(i * 3 + j) * 4 + k], host[i * 4 + k] - (double)((i * 3 + j) * 4 + k));
    free(v);
    /* any other shape is refused, naming both */
    int64_t bad[2] = {4, 3};
    double bad_host[12] = {0};
    usmarr_array_t *b;
    ck_assert_ok(usmarr_array_from_host(ctx, 2, bad, USMARR_FLOAT64, bad_host, NULL, USMARR_USM_DEVICE, &b));
    ops[0] = arr_op(b);
    usmarr_storage_t *none = NULL;
    ck_assert_fails_with(usmarr_storage_elementwise("subtract", ops, 2, NULL, &none), USMARR_ERROR_SHAPE_MISMATCH,
                         "array of shape (4, 3), which is neither the storage's shape (2, 3, 4)");
    ck_assert_ptr_null(none);
    usmarr_array_release(a);
    usmarr_array_release(b);
    usmarr_storage_release(s);
    usmarr_storage_release(r);
    usmarr_context_release(ctx);
}
END_TEST

/* On a managed pair the operation runs where the newest data is and costs no transfer:
 * host-dirty inputs stay host dirty (read on the host side), a clean pair stays clean,
 * a device-dirty one stays device dirty; the result is dirty on the side written. */
START_TEST(test_storage_ops_managed_pairs_run_where_the_data_is)
{
    usmarr_context_t *ctx = test_context();
    int64_t sa[2] = {3, 4}, sb[1] = {2};
    usmarr_storage_t *a = iota(ctx, "IJ", sa, "managed", 0), *b = iota(ctx, "K", sb, "managed", 10), *r = NULL;
    usmarr_storage_operand_t ops[2] = {st_op(a), st_op(b)};

    /* clean: on the device, nothing copied */
    ck_assert_ok(usmarr_storage_elementwise("add", ops, 2, NULL, &r));
    ck_assert_int_eq(storage_cases_sync(a), USMARR_SYNC_CLEAN);
    ck_assert_int_eq(storage_cases_sync(b), USMARR_SYNC_CLEAN);
    ck_assert_int_eq(storage_cases_sync(r), USMARR_SYNC_DEVICE_DIRTY);
    usmarr_storage_release(r);

    /* both host dirty: on the host side */
    ck_assert_ok(usmarr_storage_set_host_modified(a));
    ck_assert_ok(usmarr_storage_set_host_modified(b));
    ck_assert_ok(usmarr_storage_elementwise("add", ops, 2, NULL, &r));
    ck_assert_int_eq(storage_cases_sync(a), USMARR_SYNC_HOST_DIRTY);
    ck_assert_int_eq(storage_cases_sync(b), USMARR_SYNC_HOST_DIRTY);
    ck_assert_int_eq(storage_cases_sync(r), USMARR_SYNC_HOST_DIRTY);
    usmarr_storage_release(r);

    /* one host dirty, one clean: on the device, the host-dirty one pushed first */
    ck_assert_ok(usmarr_storage_set_synchronized(b));
    ck_assert_ok(usmarr_storage_elementwise("add", ops, 2, NULL, &r));
    ck_assert_int_eq(storage_cases_sync(a), USMARR_SYNC_CLEAN);
    ck_assert_int_eq(storage_cases_sync(r), USMARR_SYNC_DEVICE_DIRTY);
    double *v = elements(r);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 4; j++)
            for (int k = 0; k < 2; k++)
                ck_assert_double_eq(v[(i * 4 + j) * 2 + k], (double)(i * 4 + j) + 10 + k);
    free(v);

    /* a device-dirty input and an out that is host dirty: the device side; out pushed
     * first, then device dirty; the input is not pulled */
    ck_assert_ok(usmarr_storage_set_device_modified(a));
    ck_assert_ok(usmarr_storage_set_host_modified(r));
    ck_assert_ok(usmarr_storage_elementwise("subtract", ops, 2, r, NULL));
    ck_assert_int_eq(storage_cases_sync(a), USMARR_SYNC_DEVICE_DIRTY);
    ck_assert_int_eq(storage_cases_sync(r), USMARR_SYNC_DEVICE_DIRTY);

    /* a reduction of a host-dirty pair runs on the host side: r = (i*4 + j) - (10 + k) */
    usmarr_storage_t *m = NULL;
    ck_assert_ok(usmarr_storage_device_to_host(r, false));
    ck_assert_ok(usmarr_storage_set_host_modified(r));
    ck_assert_ok(usmarr_storage_reduce("max", r, "IJ", NULL, &m));
    ck_assert_int_eq(storage_cases_sync(r), USMARR_SYNC_HOST_DIRTY);
    ck_assert_int_eq(storage_cases_sync(m), USMARR_SYNC_HOST_DIRTY);
    v = elements(m);
    ck_assert_double_eq(v[0], 11.0 - 10.0);
    ck_assert_double_eq(v[1], 11.0 - 11.0);
    free(v);
    usmarr_storage_release(m);
    usmarr_storage_release(r);
    usmarr_storage_release(a);
    usmarr_storage_release(b);
    usmarr_context_release(ctx);
}
END_TEST

/* Reducing every axis gives a 0-d storage (axes ""), which broadcasts against any other. */
START_TEST(test_storage_ops_full_reduction_gives_0d_storage_that_broadcasts)
{
    usmarr_context_t *ctx = test_context();
    int64_t shape[2] = {2, 3};
    usmarr_storage_t *s = iota(ctx, "JK", shape, "host", 1), *t = NULL, *r = NULL;
    ck_assert_ok(usmarr_storage_reduce("sum", s, NULL, NULL, &t));
    ck_assert_str_eq(usmarr_storage_axes(t), "");
    ck_assert_int_eq(usmarr_storage_ndim(t), 0);
    usmarr_storage_operand_t ops[2] = {st_op(t), st_op(s)};
    ck_assert_ok(usmarr_storage_elementwise("subtract", ops, 2, NULL, &r));
    assert_shape(r, "JK", 2, shape);
    double *v = elements(r);
    for (int p = 0; p < 6; p++)
        ck_assert_double_eq(v[p], 21.0 - (1 + p));
    free(v);
    usmarr_storage_release(r);
    ck_assert_ok(usmarr_storage_reduce("mean", s, "", NULL, &r));
    ck_assert_int_eq(usmarr_storage_ndim(r), 0);
    usmarr_storage_release(r);
    usmarr_storage_release(t);
    usmarr_storage_release(s);
    usmarr_context_release(ctx);
}
END_TEST

START_TEST(test_storage_ops_rejects_bad_arguments)
{
    usmarr_context_t *ctx = test_context();
    int64_t sa[2] = {2, 3}, sk[1] = {5};
    usmarr_storage_t *a = iota(ctx, "IK", sa, "managed", 0), *k = iota(ctx, "K", sk, "host", 0), *r = NULL;
    usmarr_array_t *arr = NULL;
    ck_assert_ok(usmarr_array_zeros(ctx, 2, sa, USMARR_FLOAT64, USMARR_ORDER_C, USMARR_USM_DEVICE, &arr));
    usmarr_storage_operand_t ops[3] = {st_op(a), st_op(k), {.storage = a, .array = arr}};
    ck_assert_ok(usmarr_storage_set_host_modified(a));

    ck_assert_fails_with(usmarr_storage_elementwise(NULL, ops, 2, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT,
                         "name is NULL");
    ck_assert_fails_with(usmarr_storage_elementwise("plus", ops, 2, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT,
                         "\"plus\" is not an elementwise function");
    ck_assert_fails_with(usmarr_storage_elementwise("add", NULL, 2, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT,
                         "operands is NULL");
    ck_assert_fails_with(usmarr_storage_elementwise("add", ops, 1, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT,
                         "add takes 2 operands, noperands=1");
    ck_assert_fails_with(usmarr_storage_elementwise("add", ops, 2, NULL, NULL), USMARR_ERROR_INVALID_ARGUMENT,
                         "result is NULL and there is no out");
    ck_assert_fails_with(usmarr_storage_elementwise("add", ops + 1, 2, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT,
                         "operands[1] sets both storage and array");
    usmarr_storage_operand_t scalars[2] = {{.scalar = usmarr_scalar_int(1)}, {.scalar = usmarr_scalar_int(2)}};
    ck_assert_fails_with(usmarr_storage_elementwise("add", scalars, 2, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT,
                         "no operand is a storage and there is no out");
    /* conflicting extents on one letter: the detail names the letter and both extents */
    ck_assert_fails_with(usmarr_storage_elementwise("add", ops, 2, NULL, &r), USMARR_ERROR_SHAPE_MISMATCH,
                         "axis K has extent 3 in operands[0] and 5 in operands[1]");
    /* a storage as out of the wrong shape */
    ck_assert_fails_with(usmarr_storage_elementwise("negative", ops, 1, k, NULL), USMARR_ERROR_SHAPE_MISMATCH,
                         "operands[0] has axis I of extent 2, which out (axes \"K\") lacks");
    /* a result out cannot hold, found before any transfer */
    usmarr_storage_t *iout = NULL;
    usmarr_storage_options_t io = USMARR_STORAGE_OPTIONS_INIT;
    io.context = ctx;
    io.dtype = USMARR_INT32;
    io.axes = "IK";
    io.nshape = 2;
    memcpy(io.shape, sa, sizeof sa);
    ck_assert_ok(usmarr_storage_zeros(&io, &iout));
    ck_assert_fails_with(usmarr_storage_elementwise("sqrt", ops, 1, iout, NULL), USMARR_ERROR_CASTING,
                         "the float64 result cannot be cast to out's int32");
    ck_assert_fails_with(usmarr_storage_reduce("mean", a, "", iout, NULL), USMARR_ERROR_SHAPE_MISMATCH,
                         "out has axes \"IK\" where the result has \"\"");
    usmarr_storage_release(iout);
    ck_assert_ptr_null(r);
    /* failed calls leave the operands as they were (no transfer happened) */
    ck_assert_int_eq(storage_cases_sync(a), USMARR_SYNC_HOST_DIRTY);

    ck_assert_fails_with(usmarr_storage_reduce(NULL, a, "I", NULL, &r), USMARR_ERROR_INVALID_ARGUMENT, "name is NULL");
    ck_assert_fails_with(usmarr_storage_reduce("sum", NULL, "I", NULL, &r), USMARR_ERROR_INVALID_ARGUMENT,
                         "storage is NULL");
    ck_assert_fails_with(usmarr_storage_reduce("total", a, "I", NULL, &r), USMARR_ERROR_INVALID_ARGUMENT,
                         "\"total\" is not a reduction");
    ck_assert_fails_with(usmarr_storage_reduce("sum", a, "I", NULL, NULL), USMARR_ERROR_INVALID_ARGUMENT,
                         "result is NULL and there is no out");
    ck_assert_fails_with(usmarr_storage_reduce("sum", a, "J", NULL, &r), USMARR_ERROR_INVALID_ARGUMENT,
                         "'J', which is not an axis of the storage (axes \"IK\")");
    ck_assert_fails_with(usmarr_storage_reduce("sum", a, "IQ", NULL, &r), USMARR_ERROR_INVALID_ARGUMENT, "'Q'");
    ck_assert_fails_with(usmarr_storage_reduce("sum", a, "KK", NULL, &r), USMARR_ERROR_INVALID_ARGUMENT,
                         "repeats 'K'");
    ck_assert_fails_with(usmarr_storage_reduce("sum", a, "I", a, NULL), USMARR_ERROR_SHAPE_MISMATCH,
                         "out has axes \"IK\" where the result has \"K\"");
    ck_assert_ptr_null(r);

    usmarr_index_item_t items[1] = {usmarr_index_integer(7)};
    ck_assert_fails_with(usmarr_storage_assign(NULL, items, 1, ops), USMARR_ERROR_INVALID_ARGUMENT,
                         "storage is NULL");
    ck_assert_fails_with(usmarr_storage_assign(a, items, 1, NULL), USMARR_ERROR_INVALID_ARGUMENT, "value is NULL");
    ck_assert_fails_with(usmarr_storage_assign(a, items, 1, ops + 2), USMARR_ERROR_INVALID_ARGUMENT,
                         "sets both storage and array");
    int rc = usmarr_storage_assign(a, items, 1, ops + 1);
    ck_assert_int_eq(rc, USMARR_ERROR_INDEX);
    ck_assert_int_eq(storage_cases_sync(a), USMARR_SYNC_HOST_DIRTY);

    usmarr_array_release(arr);
    usmarr_storage_release(a);
    usmarr_storage_release(k);
    usmarr_context_release(ctx);
}
END_TEST

/* doc/storage.md, "Operations": the example runs as written. */
START_TEST(test_storage_ops_doc_example)
{
    usmarr_context_t *ctx = test_context();
    int64_t sa[2] = {2, 3}, sb[1] = {4}, sc[3] = {2, 3, 4};
    usmarr_storage_t *a = iota(ctx, "IJ", sa, "managed", 0), *b = iota(ctx, "K", sb, "managed", 100), *c, *column_sum;
    usmarr_storage_operand_t ops[2] = {{.storage = a}, {.storage = b}};
    ck_assert_ok(usmarr_storage_elementwise("add", ops, 2, NULL, &c));
    ck_assert_ok(usmarr_storage_reduce("sum", c, "K", NULL, &column_sum));
    usmarr_index_item_t key[USMARR_MAX_INDEX_ITEMS];
    size_t n;
    usmarr_storage_operand_t seven = {.scalar = usmarr_scalar_float(7.5)};
    ck_assert_ok(usmarr_index_parse("1, :, 0:2", key, USMARR_MAX_INDEX_ITEMS, &n));
    ck_assert_ok(usmarr_storage_assign(c, key, n, &seven));
    ck_assert_ok(usmarr_index_parse(":, :, 3", key, USMARR_MAX_INDEX_ITEMS, &n));
    ck_assert_ok(usmarr_storage_assign(c, key, n, &ops[0]));
    assert_shape(c, "IJK", 3, sc);
    assert_shape(column_sum, "IJ", 2, sa);
    double *v = elements(c), *s = elements(column_sum);
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 3; j++) {
            for (int k = 0; k < 4; k++) {
                double want = k == 3 ? i * 3 + j : i == 1 && k < 2 ? 7.5 : i * 3 + j + 100 + k;
                ck_assert_double_eq(v[(i * 3 + j) * 4 + k], want);
            }
            ck_assert_double_eq(s[i * 3 + j], 4.0 * (i * 3 + j) + 406);
        }
    free(v);
    free(s);
    usmarr_storage_release(column_sum);
    usmarr_storage_release(c);
    usmarr_storage_release(a);
    usmarr_storage_release(b);
    usmarr_context_release(ctx);
}
END_TEST

/* A fused expression over named-axes operands: IJ and K storages broadcast by letter, a
 * weak scalar, one kernel; a reduction of one over a letter (host loops as the oracle). */
START_TEST(test_storage_ops_expressions_broadcast_by_letter_and_reduce)
{
    usmarr_context_t *ctx = test_context();
    int64_t sa[2] = {2, 3}, sb[1] = {4}, sc[3] = {2, 3, 4};
    usmarr_storage_t *a = iota(ctx, "IJ", sa, "host", 0), *b = iota(ctx, "K", sb, "managed", 1), *c = NULL, *r = NULL;
    usmarr_expr_t *e = NULL, *sum = NULL;
    ck_assert_ok(usmarr_expr_create("where(a > b, a - b, b * s + 0.5)", NULL, 0, &e));
    usmarr_storage_operand_t ops[3] = {st_op(a), st_op(b), {.scalar = usmarr_scalar_int(3)}};
    ck_assert_ok(usmarr_storage_evaluate(e, ops, 3, NULL, NULL, &c));
    assert_shape(c, "IJK", 3, sc);
    double *va = elements(a), *vb = elements(b), *vc = elements(c);
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 3; j++)
            for (int k = 0; k < 4; k++) {
                double x = va[i * 3 + j], y = vb[k];
                ck_assert_double_eq(vc[(i * 3 + j) * 4 + k], x > y ? x - y : y * 3 + 0.5);
            }
    /* sum over K of a * b: an IJ storage; over every letter: 0-d */
    ck_assert_ok(usmarr_expr_create("sum(a * b)", NULL, 0, &sum));
    ck_assert_ok(usmarr_storage_evaluate(sum, ops, 2, "K", NULL, &r));
    assert_shape(r, "IJ", 2, sc);
    double *vr = elements(r);
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 3; j++) {
            double want = 0;
            for (int k = 0; k < 4; k++)
                want += va[i * 3 + j] * vb[k];
            ck_assert_double_eq(vr[i * 3 + j], want);
        }
    free(vr);
    usmarr_storage_release(r);
    r = NULL;
    ck_assert_ok(usmarr_storage_evaluate(sum, ops, 2, NULL, NULL, &r));
    ck_assert_int_eq(usmarr_storage_ndim(r), 0);
    vr = elements(r);
    ck_assert_double_eq(vr[0], (0 + 1 + 2 + 3 + 4 + 5) * (1 + 2 + 3 + 4));
    free(vr);
    /* into out: c again, in place of the where */
    ck_assert_ok(usmarr_storage_evaluate(e, ops, 3, "", c, NULL));
    /* failures */
    ck_assert_fails_with(usmarr_storage_evaluate(e, ops, 3, "K", NULL, &r), USMARR_ERROR_INVALID_ARGUMENT,
                         "does not end in a reduction");
    ck_assert_fails_with(usmarr_storage_evaluate(sum, ops, 2, "Q", NULL, &r), USMARR_ERROR_INVALID_ARGUMENT,
                         "names 'Q', which is not an axis of the operands (axes \"IJK\")");
    ck_assert_fails_with(usmarr_storage_evaluate(e, ops, 2, NULL, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT,
                         "takes 3 operands, noperands=2");
    ck_assert_fails_with(usmarr_storage_evaluate(NULL, ops, 2, NULL, NULL, &r), USMARR_ERROR_INVALID_ARGUMENT,
                         "expr is NULL");
    free(va);
    free(vb);
    free(vc);
    usmarr_expr_release(e);
    usmarr_expr_release(sum);
    usmarr_storage_release(a);
    usmarr_storage_release(b);
    usmarr_storage_release(c);
    usmarr_storage_release(r);
    usmarr_context_release(ctx);
}
END_TEST

Suite *suite_storage_ops(void)
{
    Suite *s = suite_create("storage_ops");
    const struct test_case_entry tests[] = {
        {"numpy-elementwise", test_storage_ops_elementwise_cases_match_numpy},
        {"numpy-reductions", test_storage_ops_reduction_cases_match_numpy},
        {"numpy-assignment", test_storage_ops_assignment_cases_match_numpy},
        {"every-function", test_storage_ops_every_elementwise_function_works_on_storages},
        {"seed-ij-plus-k", test_storage_ops_ij_2x3_plus_k_4_gives_ijk_2x3x4},
        {"seed-sum-over-k", test_storage_ops_sum_over_k_of_ijk_gives_ij},
        {"seed-setitem", test_storage_ops_stor_out_key_assign_equals_positive_with_out},
        {"seed-mixing-storage-shape", test_storage_ops_mixing_types_array_of_the_storage_shape},
        {"seed-mixing-3d", test_storage_ops_mixing_types_3d_array_with_size_1_dims_broadcasts},
        {"managed", test_storage_ops_managed_pairs_run_where_the_data_is},
        {"zero-d", test_storage_ops_full_reduction_gives_0d_storage_that_broadcasts},
        {"failures", test_storage_ops_rejects_bad_arguments},
        {"doc-example", test_storage_ops_doc_example},
        {"expressions", test_storage_ops_expressions_broadcast_by_letter_and_reduce},
    };
    test_add_tagged_cases(s, tests, sizeof tests / sizeof tests[0], TEST_TAG_HOST_USM);
    return s;
}
