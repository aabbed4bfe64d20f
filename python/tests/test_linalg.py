"""Linear algebra, the moments and the utilities of the namespace (python/src/linalg.c,
stats.c, view.c and dtype.c over include/usmarr/linalg.h, stats.h, view.h and dtype.h): matmul,
tensordot, vecdot, matrix_transpose, usmarr.linalg, var, std, unstack, meshgrid, finfo, iinfo,
isdtype.  NumPy is the oracle."""

import pytest

import usmarr

np = pytest.importorskip("numpy")


def host(shape, dtype, seed=0):
    rng = np.random.default_rng(seed)
    if np.dtype(dtype).kind == "c":
        return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype)
    if np.dtype(dtype).kind in "iu":
        return rng.integers(-3 if np.dtype(dtype).kind == "i" else 0, 4, shape).astype(dtype)
    if np.dtype(dtype).kind == "b":
        return rng.integers(0, 2, shape).astype(bool)
    return rng.standard_normal(shape).astype(dtype)


def skip_without_fp64(dtypes, fp64):
    if not fp64 and any(d in ("float64", "complex128") for d in dtypes):
        pytest.skip("the device has no fp64")


def tolerance(dtype):
    return {"float32": 1e-5, "complex64": 1e-5, "float16": 1e-2}.get(np.dtype(dtype).name, 1e-12)


def check(got, expected):
    got = got.to_numpy()
    assert got.shape == expected.shape and got.dtype == expected.dtype
    if expected.dtype.kind in "fc":
        np.testing.assert_allclose(got, expected, rtol=tolerance(expected.dtype), atol=tolerance(expected.dtype))
    else:
        np.testing.assert_array_equal(got, expected)


# ---- matmul -------------------------------------------------------------------------------------------------

SHAPES = [((5,), (5,)), ((3, 5), (5,)), ((5,), (5, 4)), ((3, 5), (5, 4)), ((2, 1, 3, 5), (4, 5, 2)), ((0, 3), (3, 2)),
          ((3, 0), (0, 2))]


@pytest.mark.parametrize("shapes", SHAPES)
@pytest.mark.parametrize("dtypes", [("float32", "float32"), ("int16", "int32"), ("complex64", "float32"),
                                    ("float64", "int8"), ("bool", "bool")])
def test_matmul_shapes_and_promotion_against_numpy(shapes, dtypes, fp64):
    skip_without_fp64(dtypes, fp64)
    a, b = host(shapes[0], dtypes[0], 1), host(shapes[1], dtypes[1], 2)
    expected = np.matmul(a, b)
    check(usmarr.matmul(usmarr.asarray(a), usmarr.asarray(b)), expected)
    check(usmarr.asarray(a) @ usmarr.asarray(b), expected)


def test_matmul_of_strided_views_and_into_out():
    base = host((8, 12), "float32", 3)
    a = usmarr.asarray(base)
    x1, x2 = a[::2, ::-3], a[1::2, 1::3].mT
    expected = base[::2, ::-3] @ base[1::2, 1::3].T
    out = usmarr.empty(expected.shape, dtype=usmarr.float32)
    r = usmarr.matmul(x1, x2, out=out)
    assert r._pointer == out._pointer
    check(out, expected)


def test_matmul_failures_name_the_shapes():
    a = usmarr.asarray(host((3, 4), "float32"))
    with pytest.raises(ValueError, match="4|3"):
        usmarr.matmul(a, a)
    with pytest.raises(ValueError):
        usmarr.matmul(a, usmarr.asarray(np.float32(2)))
    with pytest.raises(ValueError, match="shape"):
        usmarr.matmul(a, a.mT, out=usmarr.empty((4, 4), dtype=usmarr.float32))
    with pytest.raises(TypeError):
        usmarr.matmul(a, a.mT, out=usmarr.empty((3, 3), dtype=usmarr.int32))


# ---- tensordot, vecdot, matrix_transpose ---------------------------------------------------------------------


@pytest.mark.parametrize("axes", [0, 1, 2, ([1, 0], [0, 1]), ([-1], [0]), ((2,), (1,))])
def test_tensordot_axes_as_a_count_or_pairs(axes):
    a, b = host((3, 4, 5), "float32", 4), host((4, 3, 5, 2), "float32", 5)
    if axes == 1:
        a, b = host((3, 4, 5), "float32", 4), host((5, 2), "float32", 5)
    elif axes == 2:
        a, b = host((3, 4, 5), "float32", 4), host((4, 5, 2), "float32", 5)
    elif axes == ([-1], [0]):
        b = host((5, 3), "float32", 5)
    elif axes == ((2,), (1,)):
        b = host((2, 5), "float32", 5)
    check(usmarr.tensordot(usmarr.asarray(a), usmarr.asarray(b), axes=axes), np.tensordot(a, b, axes=axes))


def test_tensordot_default_and_failures():
    a, b = host((2, 3, 4), "int32", 6), host((3, 4, 5), "int32", 7)
    check(usmarr.tensordot(usmarr.asarray(a), usmarr.asarray(b)), np.tensordot(a, b))
    with pytest.raises(ValueError, match="axes"):
        usmarr.tensordot(usmarr.asarray(a), usmarr.asarray(b), axes=-1)
    with pytest.raises(ValueError):
        usmarr.tensordot(usmarr.asarray(a), usmarr.asarray(b), axes=([0], [0]))  # extents 2 and 3
    with pytest.raises(ValueError, match="axes"):
        usmarr.tensordot(usmarr.asarray(a), usmarr.asarray(b), axes=([0, 1], [0]))
    with pytest.raises(TypeError, match="axes"):
        usmarr.tensordot(usmarr.asarray(a), usmarr.asarray(b), axes="x")


@pytest.mark.parametrize("dtype", ["float32", "complex64", "int32"])
def test_vecdot_conjugates_the_first_operand_and_broadcasts(dtype):
    a, b = host((4, 1, 6), dtype, 8), host((3, 6), dtype, 9)
    expected = np.sum(np.conj(a) * b, axis=-1)
    check(usmarr.vecdot(usmarr.asarray(a), usmarr.asarray(b)), expected.astype(np.result_type(a, b)))
    a2, b2 = host((6, 2), dtype, 10), host((6, 2), dtype, 11)
    check(usmarr.vecdot(usmarr.asarray(a2), usmarr.asarray(b2), axis=0),
          np.sum(np.conj(a2) * b2, axis=0).astype(np.result_type(a2, b2)))


def test_vecdot_failures():
    a = usmarr.asarray(host((3, 4), "float32"))
    with pytest.raises(ValueError):
        usmarr.vecdot(a, usmarr.asarray(host((3, 5), "float32")))
    with pytest.raises(IndexError, match="axis"):
        usmarr.vecdot(a, a, axis=2)


def test_matrix_transpose_is_a_view_and_usmarr_linalg_is_the_same_functions():
    base = host((2, 3, 4), "float32")
    a = usmarr.asarray(base)
    t = usmarr.matrix_transpose(a)
    assert t.shape == (2, 4, 3) and t._pointer == a._pointer
    np.testing.assert_array_equal(t.to_numpy(), np.swapaxes(base, -1, -2))
    with pytest.raises(ValueError):
        usmarr.matrix_transpose(usmarr.asarray(base[0, 0]))
    for name in ("matmul", "tensordot", "vecdot", "matrix_transpose"):
        assert getattr(usmarr.linalg, name) is getattr(usmarr, name)
    assert not hasattr(usmarr, "cholesky")  # the extension's own functions stay in usmarr.linalg


# ---- var, std -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "complex64", "bool"])
@pytest.mark.parametrize("axis", [None, 0, -1, (0, 2)])
@pytest.mark.parametrize("correction", [0, 1, 2.5])
def test_var_and_std_against_numpy(dtype, axis, correction, fp64):
    skip_without_fp64([dtype] if dtype in ("float64", "int32", "bool") else [], fp64)
    data = host((5, 4, 6), dtype, 12)
    a = usmarr.asarray(data)
    for keepdims in (False, True):
        expected_var = np.var(data, axis=axis, ddof=correction, keepdims=keepdims)
        expected_std = np.std(data, axis=axis, ddof=correction, keepdims=keepdims)
        check(usmarr.var(a, axis=axis, correction=correction, keepdims=keepdims), np.asarray(expected_var))
        check(usmarr.std(a, axis=axis, correction=correction, keepdims=keepdims), np.asarray(expected_std))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_var_and_std_of_long_rows_in_lanes_against_numpy(dtype, fp64):
    """Rows long enough for the 16-lane loop (and a tail): NaN and inf rows, a row of equal
    elements (exactly 0), all elements at once, and a reversed view (the loop over strides)."""
    skip_without_fp64([dtype] if dtype == "float64" else [], fp64)
    rng = np.random.default_rng(14)
    data = (rng.standard_normal((7, 1003)) * 3 + 1).astype(dtype)
    data[1, 500] = np.nan
    data[2, 17] = np.inf
    data[3] = 0.1
    data[4] = 0.1
    data[4, 300] = 0.2  # one element apart, in the lanes: not 0
    for view in (data, data[:, ::-1]):
        for axis in (1, None):
            with np.errstate(all="ignore"):
                want_var, want_std = np.var(view, axis=axis, ddof=1), np.std(view, axis=axis, ddof=1)
            got = usmarr.var(usmarr.asarray(view), axis=axis, correction=1).to_numpy()
            tol = 1e-5 if dtype == "float32" else 1e-12  # (NumPy's equal row: a rounding's tiny variance)
            np.testing.assert_allclose(got, want_var, rtol=tol, atol=tol, equal_nan=True)
            got = usmarr.std(usmarr.asarray(view), axis=axis, correction=1).to_numpy()
            np.testing.assert_allclose(got, want_std, rtol=tol, atol=tol ** 0.5, equal_nan=True)
            if axis == 1:
                assert got[3] == 0 and got[4] > 0  # equal elements: exactly 0, though their mean rounds


def test_var_of_a_strided_view_into_out_and_degenerate_counts():
    base = host((16, 9), "float32", 13)
    a = usmarr.asarray(base)[::-3, 1::2]
    out = usmarr.empty((6,), dtype=usmarr.float32)
    r = usmarr.var(a, axis=1, out=out)
    assert r._pointer == out._pointer
    check(out, np.var(base[::-3, 1::2], axis=1))
    # N <= correction: inf or NaN as NumPy (no warning from the library)
    got = usmarr.var(usmarr.asarray(np.array([1.0, 2.0], np.float32)), correction=2).to_numpy()
    assert np.isinf(got) or np.isnan(got)


def test_var_failures_name_the_argument():
    a = usmarr.asarray(host((3, 4), "float32"))
    with pytest.raises(ValueError, match="correction"):
        usmarr.var(a, correction=-1)
    with pytest.raises(ValueError, match="correction"):
        usmarr.std(a, correction=float("nan"))
    with pytest.raises(IndexError, match="axes"):
        usmarr.var(a, axis=2)
    with pytest.raises(ValueError):
        usmarr.std(a, axis=(0, 0))
    with pytest.raises(ValueError, match="shape"):
        usmarr.var(a, axis=0, out=usmarr.empty((3,), dtype=usmarr.float32))


# ---- unstack, meshgrid (include/usmarr/view.h) -------------------------------------------------------------


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_unstack_gives_views_along_the_axis(axis):
    base = host((3, 4, 2), "int32", 14)
    a = usmarr.asarray(base)
    parts = usmarr.unstack(a, axis=axis)
    assert isinstance(parts, tuple) and len(parts) == base.shape[axis]
    for got, expected in zip(parts, np.moveaxis(base, axis, 0)):
        np.testing.assert_array_equal(got.to_numpy(), expected)
    parts[0][...] = 99  # views: the write reaches a
    assert (np.take(a.to_numpy(), 0, axis=axis) == 99).all()
    assert usmarr.unstack(usmarr.asarray(np.zeros((0, 2), np.float32))) == ()
    with pytest.raises(IndexError, match="axis"):
        usmarr.unstack(a, axis=3)
    with pytest.raises(IndexError, match="axis"):
        usmarr.unstack(usmarr.asarray(np.int32(1)))


@pytest.mark.parametrize("indexing", ["xy", "ij"])
def test_meshgrid_against_numpy(indexing):
    inputs = [np.arange(3, dtype=np.float32), np.array([5, -1], np.int64), np.arange(4, dtype=np.uint8)]
    for n in (1, 2, 3):
        got = usmarr.meshgrid(*[usmarr.asarray(x) for x in inputs[:n]], indexing=indexing)
        expected = np.meshgrid(*inputs[:n], indexing=indexing)
        assert isinstance(got, list) and len(got) == n
        for g, e in zip(got, expected):
            assert g.shape == e.shape and g.dtype == usmarr.asarray(e).dtype and g.c_contiguous
            np.testing.assert_array_equal(g.to_numpy(), e)
    assert usmarr.meshgrid() == []
    with pytest.raises(ValueError, match="indexing"):
        usmarr.meshgrid(usmarr.asarray(inputs[0]), indexing="yx")


# ---- finfo, iinfo, isdtype (include/usmarr/dtype.h) -----------------------------------------------------


@pytest.mark.parametrize("name", ["float16", "float32", "float64", "complex64", "complex128"])
def test_finfo_against_numpy(name):
    got, expected = usmarr.finfo(getattr(usmarr, name)), np.finfo(name)
    assert got.bits == expected.bits and got.eps == float(expected.eps) and got.max == float(expected.max)
    assert got.min == float(expected.min) and got.smallest_normal == float(expected.smallest_normal)
    assert got.dtype == getattr(usmarr, np.dtype(expected.dtype).name)
    assert usmarr.finfo(usmarr.asarray(np.zeros(2, name))).bits == expected.bits  # an array works too


@pytest.mark.parametrize("name", ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"])
def test_iinfo_against_numpy(name):
    got, expected = usmarr.iinfo(getattr(usmarr, name)), np.iinfo(name)
    assert (got.bits, got.min, got.max) == (expected.bits, int(expected.min), int(expected.max))
    assert got.dtype == getattr(usmarr, name)


def test_finfo_iinfo_refuse_the_other_kinds():
    with pytest.raises(TypeError, match="finfo"):
        usmarr.finfo(usmarr.int32)
    with pytest.raises(TypeError, match="iinfo"):
        usmarr.iinfo(usmarr.float32)
    with pytest.raises(TypeError, match="iinfo"):
        usmarr.iinfo(usmarr.bool)


def test_isdtype_kinds_dtypes_and_tuples():
    kinds = {"bool": "b", "signed integer": "i", "unsigned integer": "u", "integral": "iu", "real floating": "f",
             "complex floating": "c", "numeric": "iufc"}
    for name in ("bool", "int8", "uint64", "float16", "float64", "complex64"):
        d = getattr(usmarr, name)
        for kind, letters in kinds.items():
            assert usmarr.isdtype(d, kind) == (np.dtype(name).kind in letters), (name, kind)
        assert usmarr.isdtype(d, d) and not usmarr.isdtype(d, usmarr.int32 if name != "int32" else usmarr.int8)
    assert usmarr.isdtype(usmarr.float32, ("bool", usmarr.float32))
    assert usmarr.isdtype(usmarr.int16, ("real floating", "signed integer"))
    assert not usmarr.isdtype(usmarr.int16, ())
    with pytest.raises(ValueError, match="kind"):
        usmarr.isdtype(usmarr.int8, "integer")
    with pytest.raises(TypeError, match="kind"):
        usmarr.isdtype(usmarr.int8, 3)
    with pytest.raises(TypeError, match="dtype"):
        usmarr.isdtype("int8", "integral")
