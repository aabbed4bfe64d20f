"""tril, triu, isclose and allclose of the namespace (python/src/view.c and
ops.c over include/usmarr/view.h and ops.h).  NumPy is the oracle."""

import pytest

import usmarr

np = pytest.importorskip("numpy")


@pytest.mark.parametrize("dtype", ["float32", "int16", "bool", "complex64", "uint8"])
@pytest.mark.parametrize("shape", [(4, 5), (5, 3), (2, 3, 4), (2, 1, 3, 3)])
@pytest.mark.parametrize("k", [-2, 0, 1, 7])
def test_tril_triu_match_numpy(device, dtype, shape, k):
    x = np.arange(1, int(np.prod(shape)) + 1).reshape(shape).astype(dtype)
    a = usmarr.asarray(x, device=device)
    np.testing.assert_array_equal(usmarr.tril(a, k=k).to_numpy(), np.tril(x, k))
    np.testing.assert_array_equal(usmarr.triu(a, k=k).to_numpy(), np.triu(x, k))
    assert usmarr.tril(a).dtype == a.dtype


def test_tril_refuses_fewer_than_two_dims(device):
    with pytest.raises(Exception, match="at least 2"):
        usmarr.tril(usmarr.asarray([1.0, 2.0], device=device))


def test_isclose_allclose_match_numpy(device):
    b = np.array([1.0, 2.0, np.inf, -np.inf, np.nan, 0.0, 1e10], np.float32)
    a = np.array([1.0 + 1e-6, 2.1, np.inf, np.inf, np.nan, 1e-9, 1.00001e10], np.float32)
    ua, ub = usmarr.asarray(a, device=device), usmarr.asarray(b, device=device)
    for kwargs in ({}, {"rtol": 0.1}, {"atol": 1e-8, "equal_nan": True}):
        got = usmarr.isclose(ua, ub, **kwargs).to_numpy()
        np.testing.assert_array_equal(got, np.isclose(a, b, **kwargs))
        assert usmarr.allclose(ua, ub, **kwargs) == np.allclose(a, b, **kwargs)
    np.testing.assert_array_equal(usmarr.isclose(ua, 2.1, 0.0, 1e-7).to_numpy(), np.isclose(a, 2.1, 0.0, 1e-7))
    assert usmarr.allclose(ua[:2], ua[:2])
    assert usmarr.isclose(ua, ub).dtype == usmarr.bool
