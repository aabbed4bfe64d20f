"""min, max, sum, prod and mean along an outer axis of 128 or more contiguous columns (the 16-lane
column kernels) against NumPy: NaN wins and stays, infinities, every integer range, ragged
edges."""

import numpy as np
import pytest

import usmarr

SHAPES = [((300, 200), 0), ((7, 130), 0), ((5, 129, 3), 0), ((64, 256), 0), ((3, 1000), 0), ((2, 50, 300), (0, 1))]


def values(dtype, shape, rng):
    if np.dtype(dtype).kind == "f":
        x = rng.standard_normal(shape).astype(dtype)
        flat = x.reshape(-1)
        idx = rng.choice(flat.size, flat.size // 20, replace=False)
        third = len(idx) // 3
        flat[idx[:third]] = np.nan
        flat[idx[third:2 * third]] = np.inf
        flat[idx[2 * third:]] = -np.inf
        return x
    info = np.iinfo(dtype)
    return rng.integers(info.min, info.max, shape, dtype=dtype, endpoint=True)


@pytest.mark.parametrize("dtype", ["float32", "float64", "int8", "int32", "uint8", "uint64"])
@pytest.mark.parametrize("name", ["min", "max"])
def test_min_max_along_outer_axes_match_numpy(dtype, name, fp64):
    if dtype == "float64" and not fp64:
        pytest.skip("no fp64")
    rng = np.random.default_rng(5)
    for shape, axis in SHAPES:
        x = values(dtype, shape, rng)
        want = getattr(np, name)(x, axis=axis)
        got = np.asarray(getattr(usmarr, name)(usmarr.asarray(x), axis=axis))
        assert got.dtype == want.dtype
        assert np.array_equal(got, want, equal_nan=np.dtype(dtype).kind == "f"), (shape, axis)
        if np.dtype(dtype).kind == "f":
            assert np.isnan(got).any()  # the NaN rule is exercised


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", ["sum", "prod", "mean"])
def test_sum_prod_mean_along_outer_axes_match_numpy(dtype, name, fp64):
    if dtype == "float64" and not fp64:
        pytest.skip("no fp64")
    rng = np.random.default_rng(6)
    seen_nan = seen_inf = False
    for shape, axis in SHAPES:
        x = values(dtype, shape, rng)
        x[np.isfinite(x)] = rng.uniform(0.5, 1.5, np.isfinite(x).sum())  # products stay finite
        with np.errstate(all="ignore"):
            want = getattr(np, name)(x, axis=axis)
        got = np.asarray(getattr(usmarr, name)(usmarr.asarray(x), axis=axis))
        assert got.dtype == want.dtype
        np.testing.assert_allclose(got, want, rtol=8 * np.finfo(dtype).eps, atol=0, equal_nan=True)
        seen_nan, seen_inf = seen_nan or np.isnan(got).any(), seen_inf or np.isinf(got).any()
    assert seen_nan and seen_inf  # the special values are exercised
