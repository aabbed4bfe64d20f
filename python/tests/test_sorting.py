"""The sorting, searching and set functions of the namespace (python/src/sort.c over
include/usmarr/sort.h): sort, argsort, searchsorted, top_k, unique_values/_counts/_inverse/_all,
isin.  NumPy is the oracle (its stable sorts; np.unique with equal_nan=False, NaNs distinct as
the array API says)."""

import pytest

import usmarr

np = pytest.importorskip("numpy")

REAL_DTYPES = ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "float16", "float32",
               "float64"]


def sample(dtype, shape, seed=0):
    """Values with many duplicates (stability shows), NaNs, infinities and signed zeros."""
    rng = np.random.default_rng(seed)
    n = int(np.prod(shape))
    if dtype == "bool":
        return rng.integers(0, 2, n).astype(bool).reshape(shape)
    if np.dtype(dtype).kind in "iu":
        info = np.iinfo(dtype)
        values = rng.integers(0, 7, n).astype(dtype)
        values[::11] = info.max
        values[3::13] = info.min
        return values.reshape(shape)
    values = rng.integers(-4, 5, n).astype(dtype) / np.asarray(2, dtype)
    special = np.array([np.nan, -np.nan, np.inf, -np.inf, -0.0, 0.0], dtype=dtype)
    values[::7] = special[np.arange(len(values[::7])) % len(special)]
    return values.reshape(shape)


def skip_without_fp64(dtype, fp64):
    if dtype in ("float64", "complex128") and not fp64:
        pytest.skip("the device has no fp64")


def descending_argsort(x, axis):
    # the array API's stable descending order: flip(argsort(flip(x))) mapped back
    n = x.shape[axis]
    return n - 1 - np.flip(np.argsort(np.flip(x, axis), axis=axis, kind="stable"), axis)


def assert_same(got, expected):
    assert got.dtype == expected.dtype and got.shape == expected.shape
    np.testing.assert_array_equal(got, expected)


# ---- sort, argsort -----------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", REAL_DTYPES)
def test_sort_and_argsort_every_real_dtype_against_numpy_stable(dtype, fp64):
    skip_without_fp64(dtype, fp64)
    host = sample(dtype, (1000,))
    a = usmarr.asarray(host)
    expected = np.argsort(host, kind="stable")
    assert_same(usmarr.argsort(a).to_numpy(), expected)  # equal keys keep their order
    got = usmarr.sort(a).to_numpy()
    np.testing.assert_array_equal(got, host[expected])
    assert got.dtype == host.dtype


@pytest.mark.parametrize("dtype", ["int32", "float32", "float64"])
@pytest.mark.parametrize("axis", [0, 1, -1, -3])
def test_sort_descending_along_every_axis_of_a_strided_view(dtype, axis, fp64):
    skip_without_fp64(dtype, fp64)
    base = sample(dtype, (6, 10, 34), seed=1)
    host = base[::-1, 1::2, ::3]  # negative and non-unit strides
    a = usmarr.asarray(base)[::-1, 1::2, ::3]
    for descending in (False, True):
        expected = (descending_argsort(host, axis) if descending
                    else np.argsort(host, axis=axis, kind="stable"))
        assert_same(usmarr.argsort(a, axis=axis, descending=descending).to_numpy(), expected)
        np.testing.assert_array_equal(usmarr.sort(a, axis=axis, descending=descending).to_numpy(),
                                      np.take_along_axis(host, expected, axis))


def test_sort_descending_puts_nans_first_and_keeps_equal_keys_in_order():
    host = np.array([1.0, np.nan, 3.0, 1.0, -np.nan, 3.0, -0.0, 0.0], dtype=np.float32)
    a = usmarr.asarray(host)
    idx = usmarr.argsort(a, descending=True).to_numpy()
    assert_same(idx, np.array([1, 4, 2, 5, 0, 3, 6, 7]))
    got = usmarr.sort(a, descending=True).to_numpy()
    assert np.isnan(got[:2]).all() and list(got[2:6]) == [3, 3, 1, 1]
    assert list(got[6:]) == [0, 0]  # equal; argsort keeps their input order (idx above)
    # stable=False is allowed (the library's sorts are always stable)
    assert_same(usmarr.argsort(a, descending=True, stable=False).to_numpy(), idx)


def test_sort_complex64_in_numpys_order():
    # numbers lexicographic < R+nanj (by R) < nan+Rj (by imaginary part) < nan+nanj
    host = np.array([1 + 2j, complex(-1, np.nan), complex(np.nan, 0), complex(np.nan, np.nan), -1 + 5j, 1 + 1j,
                     complex(np.nan, -2), complex(np.inf, np.nan), 0 - 1j, complex(-np.inf, 3), complex(2, np.nan),
                     1 + 1j], dtype=np.complex64)
    a = usmarr.asarray(host)
    assert_same(usmarr.argsort(a).to_numpy(), np.argsort(host, kind="stable"))
    np.testing.assert_array_equal(usmarr.sort(a).to_numpy(), np.sort(host, kind="stable"))
    assert_same(usmarr.argsort(a, descending=True).to_numpy(), descending_argsort(host, 0))
    v = np.array([complex(0, np.nan), complex(np.nan, 1), 1 + 1j], dtype=np.complex64)
    assert_same(usmarr.searchsorted(usmarr.sort(a), usmarr.asarray(v)).to_numpy(),
                np.searchsorted(np.sort(host), v))


def test_sort_into_out_and_in_place():
    host = sample("float32", (3, 50), seed=2)
    a = usmarr.asarray(host)
    out = usmarr.empty((3, 50), dtype=usmarr.int64)
    r = usmarr.argsort(a, axis=0, out=out)
    assert r is out or r._pointer == out._pointer
    assert_same(out.to_numpy(), np.argsort(host, axis=0, kind="stable"))
    usmarr.sort(a, out=a)
    np.testing.assert_array_equal(a.to_numpy(), np.sort(host, kind="stable"))


def test_sort_failures_name_the_argument():
    a = usmarr.asarray(np.arange(6, dtype=np.float32).reshape(2, 3))
    with pytest.raises(IndexError, match="axis"):
        usmarr.sort(a, axis=2)
    with pytest.raises(IndexError, match="axis"):
        usmarr.argsort(usmarr.asarray(np.float32(1)))
    with pytest.raises(ValueError, match="shape"):
        usmarr.sort(a, out=usmarr.empty((3, 2), dtype=usmarr.float32))
    with pytest.raises(TypeError):
        usmarr.argsort(a, out=usmarr.empty((2, 3), dtype=usmarr.int32))
    with pytest.raises(TypeError, match="out must be a usmarr.Array"):
        usmarr.sort(a, out=np.empty((2, 3), np.float32))
    np.testing.assert_array_equal(a.to_numpy(), np.arange(6, dtype=np.float32).reshape(2, 3))  # unchanged


# ---- searchsorted --------------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", ["int16", "uint32", "float32", "float64"])
def test_searchsorted_both_sides_against_numpy(dtype, fp64):
    skip_without_fp64(dtype, fp64)
    keys = sample(dtype, (400,), seed=3)
    sorted_host = np.sort(keys, kind="stable")
    v = sample(dtype, (5, 30), seed=4)  # any shape of keys, present and absent values, NaNs
    a = usmarr.asarray(sorted_host)
    for side in ("left", "right"):
        assert_same(usmarr.searchsorted(a, usmarr.asarray(v), side=side).to_numpy(),
                    np.searchsorted(sorted_host, v, side=side))


def test_searchsorted_with_a_sorter_of_any_integer_dtype():
    host = sample("float32", (300,), seed=5)
    v = np.array([-2.0, -0.0, 0.5, 1.0, np.inf, np.nan], dtype=np.float32)
    order = np.argsort(host, kind="stable")
    a = usmarr.asarray(host)
    for sorter_dtype in (np.int64, np.int32, np.uint16):
        sorter = usmarr.asarray(order.astype(sorter_dtype))
        for side in ("left", "right"):
            assert_same(usmarr.searchsorted(a, usmarr.asarray(v), side=side, sorter=sorter).to_numpy(),
                        np.searchsorted(host, v, side=side, sorter=order))


def test_searchsorted_promotes_and_takes_a_strided_haystack():
    base = np.arange(40, dtype=np.int32)
    a = usmarr.asarray(base)[::3]
    v = np.array([[-1.5, 3.0], [3.5, 99.0]], dtype=np.float32)
    assert_same(usmarr.searchsorted(a, usmarr.asarray(v)).to_numpy(), np.searchsorted(base[::3], v))
    out = usmarr.empty((2, 2), dtype=usmarr.int64)
    usmarr.searchsorted(a, usmarr.asarray(v), side="right", out=out)
    assert_same(out.to_numpy(), np.searchsorted(base[::3], v, side="right"))


def test_searchsorted_failures():
    a = usmarr.asarray(np.arange(6, dtype=np.float32))
    v = usmarr.asarray(np.array([1.0], dtype=np.float32))
    with pytest.raises(ValueError, match="side"):
        usmarr.searchsorted(a, v, side="middle")
    with pytest.raises(ValueError, match="1-d|x1|a "):
        usmarr.searchsorted(usmarr.reshape(a, (2, 3)), v)
    with pytest.raises(ValueError, match="sorter"):
        usmarr.searchsorted(a, v, sorter=usmarr.asarray(np.arange(5)))
    with pytest.raises(TypeError, match="sorter"):
        usmarr.searchsorted(a, v, sorter=usmarr.asarray(np.arange(6, dtype=np.float32)))


# ---- top_k -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", ["largest", "smallest"])
def test_top_k_values_and_indices_against_a_stable_sort(mode):
    host = sample("float32", (4, 37), seed=6)
    a = usmarr.asarray(host)
    for axis, k in ((1, 5), (0, 3), (-1, 0), (-1, 37)):
        r = usmarr.top_k(a, k, axis=axis, mode=mode)
        order = descending_argsort(host, axis) if mode == "largest" else np.argsort(host, axis=axis, kind="stable")
        expected = np.take(order, np.arange(k), axis=axis)
        assert isinstance(r, usmarr.TopKResult) and r.values is r[0] and r.indices is r[1]
        assert_same(r.indices.to_numpy(), expected)
        np.testing.assert_array_equal(r.values.to_numpy(), np.take_along_axis(host, expected, axis))
    flat = usmarr.top_k(a, 4, axis=None, mode=mode)  # axis=None: the flattened array
    order = descending_argsort(host.ravel(), 0) if mode == "largest" else np.argsort(host.ravel(), kind="stable")
    assert_same(flat.indices.to_numpy(), order[:4])


def test_top_k_failures():
    a = usmarr.asarray(np.arange(6, dtype=np.int32))
    with pytest.raises(ValueError, match="k"):
        usmarr.top_k(a, 7)
    with pytest.raises(ValueError, match="k"):
        usmarr.top_k(a, -1)
    with pytest.raises(IndexError, match="axis"):
        usmarr.top_k(a, 1, axis=1)
    with pytest.raises(ValueError, match="mode"):
        usmarr.top_k(a, 1, mode="middle")


# ---- set functions ---------------------------------------------------------------------------------------


def numpy_unique(host):
    """The array API's unique_all from NumPy 1.24+: NaNs distinct, inverse of x's shape."""
    values, index, inverse, counts = np.unique(host.ravel(), return_index=True, return_inverse=True,
                                               return_counts=True, equal_nan=False)
    return values, index, inverse.reshape(host.shape), counts


@pytest.mark.parametrize("dtype", REAL_DTYPES + ["complex64"])
def test_unique_all_every_dtype_against_numpy(dtype, fp64):
    skip_without_fp64(dtype, fp64)
    if dtype == "complex64":  # NaNs in either part or both
        host = np.empty((12, 25), np.complex64)
        host.real = sample("float32", (12, 25), seed=7)
        host.imag = np.roll(sample("float32", (12, 25), seed=8), 3)
    else:
        host = sample(dtype, (12, 25), seed=7)
    values, index, inverse, counts = numpy_unique(host)
    r = usmarr.unique_all(usmarr.asarray(host))
    assert isinstance(r, usmarr.UniqueAllResult) and r._fields == ("values", "indices", "inverse_indices", "counts")
    got = r.values.to_numpy()
    assert got.dtype == host.dtype
    np.testing.assert_array_equal(got, values)  # sorted, every NaN its own value
    assert_same(r.counts.to_numpy(), counts.astype(np.int64))
    assert_same(r.inverse_indices.to_numpy(), inverse.astype(np.int64))
    assert_same(r.indices.to_numpy(), index.astype(np.int64))  # the first occurrence, C order


def test_unique_values_counts_inverse_agree_with_unique_all_on_a_strided_view():
    base = sample("int16", (30, 40), seed=9)
    host = base[::-2, 3::4]
    a = usmarr.asarray(base)[::-2, 3::4]
    values, _, inverse, counts = numpy_unique(host)
    assert_same(usmarr.unique_values(a).to_numpy(), values)
    c = usmarr.unique_counts(a)
    assert c._fields == ("values", "counts")
    assert_same(c.values.to_numpy(), values)
    assert_same(c.counts.to_numpy(), counts.astype(np.int64))
    i = usmarr.unique_inverse(a)
    assert i._fields == ("values", "inverse_indices")
    assert_same(i.values.to_numpy(), values)
    assert_same(i.inverse_indices.to_numpy(), inverse.astype(np.int64))
    assert_same(i.values.to_numpy()[i.inverse_indices.to_numpy()], host)


@pytest.mark.parametrize("span", [(1 << 22) - 1, 1 << 22])
def test_unique_functions_of_integers_at_the_table_limit(span):
    # integers spanning up to 2^22 values are counted in a table, one more value is sorted:
    # the largest table (several chunk tables, many blocks) and the sort agree with NumPy
    rng = np.random.default_rng(14)
    host = (rng.integers(0, span + 1, 1 << 20) - (1 << 21)).astype(np.int32)
    host[:2] = [-(1 << 21), span - (1 << 21)]
    values, index, inverse, counts = numpy_unique(host)
    c = usmarr.unique_counts(usmarr.asarray(host))
    assert_same(c.values.to_numpy(), values)
    assert_same(c.counts.to_numpy(), counts.astype(np.int64))
    r = usmarr.unique_all(usmarr.asarray(host))
    assert_same(r.indices.to_numpy(), index.astype(np.int64))
    assert_same(r.inverse_indices.to_numpy(), inverse.astype(np.int64))
    i = usmarr.unique_inverse(usmarr.asarray(host.reshape(1024, 1024).T))
    assert_same(i.inverse_indices.to_numpy(), numpy_unique(host.reshape(1024, 1024).T)[2].astype(np.int64))


def test_unique_nans_are_distinct_and_signed_zeros_one_value():
    host = np.array([np.nan, 0.0, -0.0, np.nan, 2.0, -np.nan, 2.0], dtype=np.float32)
    r = usmarr.unique_counts(usmarr.asarray(host))
    got = r.values.to_numpy()
    assert list(got[:2]) == [0.0, 2.0] and np.isnan(got[2:]).all() and len(got) == 5
    assert list(r.counts.to_numpy()) == [2, 2, 1, 1, 1]


def test_unique_of_empty_and_0d_arrays():
    empty = usmarr.unique_all(usmarr.asarray(np.zeros((0, 3), dtype=np.float32)))
    assert [x.shape for x in empty] == [(0,), (0,), (0, 3), (0,)]
    scalar = usmarr.unique_inverse(usmarr.asarray(np.int32(5)))
    assert scalar.values.to_numpy().tolist() == [5] and scalar.inverse_indices.shape == ()


@pytest.mark.parametrize("shape", [(3, 40), (1,), (), (0, 2)])
def test_unique_complex128_against_numpy(shape, fp64):
    # the library's own, or python/usmarr/_sorting.py's composition where it refuses complex128
    skip_without_fp64("complex128", fp64)
    rng = np.random.default_rng(12)
    n = int(np.prod(shape))
    host = (rng.integers(-2, 3, n) + 1j * rng.integers(-1, 2, n)).astype(np.complex128)
    host[::9] = np.nan
    host[4::9] = complex(1, np.nan)
    host[2::9] = complex(-0.0, 0.0)
    host = host.reshape(shape)
    values, index, inverse, counts = numpy_unique(host)
    r = usmarr.unique_all(usmarr.asarray(host))
    assert isinstance(r, usmarr.UniqueAllResult)
    np.testing.assert_array_equal(r.values.to_numpy(), values)
    assert_same(r.indices.to_numpy(), index.astype(np.int64))
    assert_same(r.inverse_indices.to_numpy(), inverse.astype(np.int64))
    assert_same(r.counts.to_numpy(), counts.astype(np.int64))
    np.testing.assert_array_equal(usmarr.unique_values(usmarr.asarray(host)).to_numpy(), values)
    c = usmarr.unique_counts(usmarr.asarray(host))
    assert isinstance(c, usmarr.UniqueCountsResult) and c.counts.to_numpy().tolist() == counts.tolist()
    i = usmarr.unique_inverse(usmarr.asarray(host))
    assert isinstance(i, usmarr.UniqueInverseResult)
    assert_same(i.inverse_indices.to_numpy(), inverse.astype(np.int64))


def test_unique_failures():
    for f in (usmarr.unique_values, usmarr.unique_counts, usmarr.unique_inverse, usmarr.unique_all):
        with pytest.raises(TypeError, match="cannot make an array"):
            f(object())


def test_complex128_sort_top_k_isin_match_numpy_or_are_refused_with_the_reason(fp64):
    # the library's sort keys for complex128 (128 bits) may be absent: then each call is
    # refused and says why; where they exist, the results are NumPy's
    skip_without_fp64("complex128", fp64)
    host = np.array([1 + 1j, complex(np.nan, 1), 0j, complex(2, np.nan), -1 + 3j, 1 + 1j, complex(-0.0, -1)])
    c = usmarr.asarray(host)
    order = np.argsort(host, kind="stable")
    cases = [
        (lambda: usmarr.sort(c), np.sort(host, kind="stable")),
        (lambda: usmarr.argsort(c), order),
        (lambda: usmarr.top_k(c, 2, mode="smallest").indices, order[:2]),
        (lambda: usmarr.isin(c, c[:3]), np.isin(host, host[:3])),
        (lambda: usmarr.searchsorted(c, c, sorter=usmarr.asarray(order)), np.searchsorted(host, host, sorter=order)),
    ]
    for call, expected in cases:
        try:
            got = call().to_numpy()
        except usmarr.UsmarrError as e:
            assert "complex128" in str(e) and e.name == "USMARR_ERROR_UNSUPPORTED"
            continue
        np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("dtypes", [("int32", "int32"), ("float32", "int16"), ("uint8", "int64"), ("float64", "float32")])
def test_isin_against_numpy(dtypes, fp64):
    skip_without_fp64("float64" if "float64" in dtypes else "", fp64)
    host = sample(dtypes[0], (7, 9), seed=10)
    test = sample(dtypes[1], (13,), seed=11)[::2]
    a, t = usmarr.asarray(host), usmarr.asarray(test)
    for invert in (False, True):
        assert_same(usmarr.isin(a, t, invert=invert).to_numpy(), np.isin(host, test, invert=invert))
    out = usmarr.empty((7, 9), dtype=usmarr.bool)
    usmarr.isin(a, t, out=out)
    assert_same(out.to_numpy(), np.isin(host, test))


def test_isin_nan_is_in_nothing():
    nan = np.array([np.nan, 1.0], dtype=np.float32)
    assert usmarr.isin(usmarr.asarray(nan), usmarr.asarray(nan)).to_numpy().tolist() == [False, True]


def test_isin_failures():
    a = usmarr.asarray(np.arange(6, dtype=np.int32))
    with pytest.raises(ValueError, match="shape"):
        usmarr.isin(a, a, out=usmarr.empty((5,), dtype=usmarr.bool))
    with pytest.raises(TypeError):
        usmarr.isin(a, a, out=usmarr.empty((6,), dtype=usmarr.int32))
