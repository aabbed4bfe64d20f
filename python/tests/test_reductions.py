"""min, max, sum, prod and mean along an outer axis of 128 or more contiguous columns (the 16-lane
column kernels) against NumPy: NaN wins and stays, infinities, every integer range, ragged
edges; every reduction along inner axes long enough for the 16-lane rows, over outer axes
and over all elements (split into parts), with ties, NaN and bool input."""

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


ROW_SHAPES = [((5, 2053), 1), ((4, 300), 0), ((300000,), None), ((3, 70, 40), (1, 2)), ((2, 100, 300), 0)]


@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "bool"])
@pytest.mark.parametrize("name", ["min", "max", "argmin", "argmax", "all", "any", "count_nonzero", "mean",
                                  "sum", "logsumexp"])
def test_every_reduction_in_rows_columns_and_parts_matches_numpy(dtype, name, fp64):
    if dtype == "float64" and not fp64:
        pytest.skip("no fp64")
    if name == "logsumexp" and dtype in ("int32", "bool"):
        pytest.skip("float input only here")
    rng = np.random.default_rng(7)
    for shape, axis in ROW_SHAPES:
        if name in ("argmin", "argmax") and isinstance(axis, tuple):
            continue  # one axis or all
        x = (rng.integers(-3, 4, shape) / 2).astype(dtype)  # few values: ties everywhere
        if np.dtype(dtype).kind == "f":
            flat = x.reshape(-1)
            flat[rng.choice(flat.size, 3, replace=False)] = np.nan
            flat[rng.choice(flat.size, 3, replace=False)] = np.inf
        for view in (x, x[..., ::-1]):  # and negative strides
            with np.errstate(all="ignore"):
                if name == "logsumexp":
                    want = np.logaddexp.reduce(view, axis=axis)
                elif name == "count_nonzero":
                    want = np.count_nonzero(view, axis=axis)
                else:
                    want = getattr(np, name)(view, axis=axis)
            got = np.asarray(getattr(usmarr, name)(usmarr.asarray(view), axis=axis))
            if name in ("mean", "sum", "logsumexp") and np.dtype(dtype).kind == "f":
                np.testing.assert_allclose(got, want, rtol=1e-5 if dtype == "float32" else 1e-12, equal_nan=True)
            else:
                assert np.array_equal(got, want, equal_nan=np.dtype(dtype).kind == "f" and name in ("min", "max")), (
                    shape, axis)
