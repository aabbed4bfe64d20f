"""x ** p and pow(x, p) against NumPy: NumPy's ** takes the shortcuts sqrt, square and
reciprocal for the exponents 0.5, 2 and -1 on float and complex arrays, whose special
values differ from power's (sqrt(-0) is -0, power's +0); the library's power computes
the exponents 2, 1, 0, -1 and 0.5 without pow, with power's values."""

import numpy as np
import pytest

import usmarr

SPECIAL = [0.0, -0.0, np.inf, -np.inf, np.nan, 5e-324, -5e-324, 1.5, -1.5, 0.7, -3.0, 1e300, -1e-300, 2.0]


def same(got, want):
    """Equal values, the sign of zeros and infinities included, and NaN where NumPy has it."""
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype
    nan = np.isnan(want.real)
    np.testing.assert_array_equal(np.signbit(got.real)[~nan], np.signbit(want.real)[~nan])
    np.testing.assert_allclose(got, want, rtol=4 * np.finfo(want.real.dtype).eps, atol=0)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("p", [2, 2.0, 0.5, -1, -1.0, 1, 0, 3, -0.5])
def test_power_operator_and_function_on_special_values(dtype, p, fp64):
    if dtype == "float64" and not fp64:
        pytest.skip("no fp64")
    x = np.array(SPECIAL * 3, dtype)  # 42 elements: two vectors of 16 and a tail
    with np.errstate(all="ignore"):
        # power's own values through an exponent array: NumPy 2.4's power takes the sqrt
        # shortcut for a scalar 0.5 as its ** does, 1.24's does not
        want_op, want_fn = x ** p, np.power(x, np.full_like(x, p))
    a = usmarr.asarray(x)
    same(np.asarray(a ** p), want_op)
    same(np.asarray(usmarr.pow(a, p)), want_fn)


@pytest.mark.parametrize("p", [2, 0.5, -1])
def test_power_operator_on_complex_takes_numpys_shortcuts(p):
    z = np.array([1 + 2j, -0.5 + 0.25j, 3 - 1j, -2j, 0j, 1e3 + 1e3j] * 3, np.complex64)
    with np.errstate(all="ignore"):
        want = z ** p
    same(np.asarray(usmarr.asarray(z) ** p), want)


def test_power_of_negative_bases_with_integer_exponents():
    x = np.linspace(-4, 4, 4099)
    y = np.resize([3.0, 2.0, -2.0, 5.0, 0.5, -7.0, 1.0, 4.0], x.size)
    with np.errstate(all="ignore"):
        want = np.power(x, y)
    np.testing.assert_allclose(np.asarray(usmarr.pow(usmarr.asarray(x), usmarr.asarray(y))), want, rtol=1e-14)
    assert np.isnan(want).sum() > 0  # negative bases to 0.5 are NaN there and here
