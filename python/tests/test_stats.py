"""logsumexp, reduce_hypot, the cumulative functions with include_initial, and diff
against NumPy 2 (python/usmarr/_stats.py over usmarr/stats.h)."""

import pytest

import usmarr

np = pytest.importorskip("numpy")


def _cumulative(f, a, axis, include_initial, identity):
    """NumPy's cumsum/cumprod with the array API's include_initial (NumPy >= 2.1 has
    cumulative_sum; the suite also runs on NumPy 1)"""
    r = f(a, axis=axis)
    if include_initial:
        shape = list(r.shape)
        shape[axis] = 1
        r = np.concatenate([np.full(shape, identity, r.dtype), r], axis=axis)
    return r


def _data(dtype, shape, seed=7):
    rng = np.random.default_rng(seed)
    if np.dtype(dtype).kind == "b":
        return rng.integers(0, 2, shape).astype(dtype)
    if np.dtype(dtype).kind in "iu":
        return rng.integers(0, 9, shape).astype(dtype)
    return (rng.standard_normal(shape) * 3).astype(dtype)


@pytest.mark.parametrize("dtype", ["int32", "float32", "float64", "bool"])
@pytest.mark.parametrize("axis", [None, 0, 1, (0, 1)])
def test_logsumexp_and_reduce_hypot_match_numpy(dtype, axis, fp64):
    if not fp64:
        pytest.skip("float64")
    a = _data(dtype, (7, 40))
    x = usmarr.asarray(a)
    hi = a.astype(np.float64)
    ax = axis if axis is not None else (0, 1)
    for f, ref in ((usmarr.logsumexp, np.logaddexp), (usmarr.reduce_hypot, np.hypot)):
        want = ref.reduce(hi, axis=ax, keepdims=True)
        r = f(x, axis=axis, keepdims=True)
        assert r.dtype == (usmarr.float32 if dtype == "float32" else usmarr.float64)
        np.testing.assert_allclose(r.to_numpy(), want, rtol=1e-5 if dtype == "float32" else 1e-12)


def test_logsumexp_and_hypot_do_not_overflow(fp64):
    if not fp64:
        pytest.skip("float64")
    x = usmarr.asarray(np.array([1000.0, 1000.0, -np.inf]))
    assert float(usmarr.logsumexp(x).to_numpy()) == pytest.approx(1000 + np.log(2))
    y = usmarr.asarray(np.array([1e300, 1e300]))
    assert float(usmarr.reduce_hypot(y).to_numpy()) == pytest.approx(np.hypot(1e300, 1e300))
    assert np.isneginf(usmarr.logsumexp(usmarr.asarray(np.zeros((0,), np.float64))).to_numpy())


def test_logsumexp_rejects_complex():
    with pytest.raises(usmarr.UsmarrError):
        usmarr.logsumexp(usmarr.asarray(np.ones(3, np.complex64)))


@pytest.mark.parametrize("include_initial", [False, True])
@pytest.mark.parametrize("dtype", ["int8", "uint16", "float32", "complex64", "bool"])
def test_cumulative_sum_and_prod_match_numpy(dtype, include_initial):
    a = _data(dtype, (4, 9))
    if np.dtype(dtype).kind == "c":
        a = a + 0.5j
    x = usmarr.asarray(a)
    for f, ref, identity in ((usmarr.cumulative_sum, np.cumsum, 0), (usmarr.cumulative_prod, np.cumprod, 1)):
        for axis in (0, 1, -1):
            want = _cumulative(ref, a, axis, include_initial, identity)
            r = f(x, axis=axis, include_initial=include_initial)
            assert r.shape == want.shape
            assert r.dtype.name == want.dtype.name
            np.testing.assert_allclose(r.to_numpy(), want, rtol=1e-5)
    one = _data(dtype, (11,))
    np.testing.assert_allclose(usmarr.cumulative_sum(usmarr.asarray(one), include_initial=include_initial).to_numpy(),
                               _cumulative(np.cumsum, one, 0, include_initial, 0), rtol=1e-5)


def test_cumulative_functions_need_an_axis_beyond_1d_and_take_dtype():
    x = usmarr.asarray(np.ones((2, 3), np.int8))
    with pytest.raises(ValueError):
        usmarr.cumulative_prod(x)
    r = usmarr.cumulative_sum(x, axis=1, dtype=usmarr.float32, include_initial=True)
    assert r.dtype == usmarr.float32
    np.testing.assert_array_equal(r.to_numpy(), [[0, 1, 2, 3]] * 2)


def test_cumulative_logsumexp_matches_logaddexp_accumulate(fp64):
    if not fp64:
        pytest.skip("float64")
    a = _data("float64", (3, 50))
    r = usmarr.cumulative_logsumexp(usmarr.asarray(a), axis=1, include_initial=True).to_numpy()
    want = np.logaddexp.accumulate(a, axis=1)
    assert np.isneginf(r[:, 0]).all()
    np.testing.assert_allclose(r[:, 1:], want, rtol=1e-12)


@pytest.mark.parametrize("dtype", ["int16", "uint8", "float32", "bool", "complex64"])
@pytest.mark.parametrize("n", [0, 1, 2, 12])
def test_diff_matches_numpy(dtype, n):
    a = _data(dtype, (5, 10))
    x = usmarr.asarray(a)
    for axis in (0, -1):
        want = np.diff(a, n=n, axis=axis)
        r = usmarr.diff(x, axis=axis, n=n)
        assert r.shape == want.shape and r.dtype.name == want.dtype.name
        np.testing.assert_array_equal(r.to_numpy(), want)


def test_diff_takes_numpy_positional_n_and_axis():
    """NumPy's diff(a, n=1, axis=-1) order positionally (scikit-learn's roc_auc_score calls
    xp.diff(fps, 2)) as well as the standard's keywords; prepend and append are keywords."""
    a = _data("int32", (4, 6))
    x = usmarr.asarray(a)
    for args, kwargs in (((2,), {}), ((1, 0), {}), ((3,), {"axis": 0}), ((), {"axis": 0, "n": 2})):
        want = np.diff(a, *args, **kwargs)
        r = usmarr.diff(x, *args, **kwargs)
        assert r.shape == want.shape, (args, kwargs)
        np.testing.assert_array_equal(r.to_numpy(), want)
    with pytest.raises(TypeError):
        usmarr.diff(x, 1, -1, usmarr.asarray(a[:, :1]))
    with pytest.raises(TypeError, match="usmarr.diff: n must be an integer, not float"):
        usmarr.diff(x, 2.0)
    with pytest.raises(TypeError, match="usmarr.diff: axis must be an integer, not str"):
        usmarr.diff(x, axis="0")


def test_diff_prepend_append_and_errors():
    a = np.arange(12, dtype=np.int32).reshape(3, 4) ** 2
    x = usmarr.asarray(a)
    pre = np.full((3, 2), 5, np.int64)
    r = usmarr.diff(x, axis=1, prepend=usmarr.asarray(pre), append=usmarr.asarray(np.array(-1, np.int32)))
    want = np.diff(a, axis=1, prepend=pre, append=np.array(-1, np.int32))
    assert r.dtype == usmarr.int64
    np.testing.assert_array_equal(r.to_numpy(), want)
    with pytest.raises(usmarr.UsmarrError):
        usmarr.diff(x, n=-1)
    with pytest.raises(usmarr.UsmarrError):
        usmarr.diff(x, axis=1, prepend=usmarr.asarray(np.ones((2, 1), np.int32)))
    with pytest.raises((ValueError, IndexError)):
        usmarr.diff(x, axis=2)
