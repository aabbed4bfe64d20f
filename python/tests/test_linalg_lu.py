"""usmarr.linalg's LU and Cholesky family, its small functions and norms, and the NumPy-style
diagonal, trace, outer and cross of the main namespace, against numpy.linalg."""

import numpy as np
import pytest

import usmarr
import usmarr.linalg as la

rng = np.random.default_rng(7)
FLOATS = ["float32", "float64", "complex64", "complex128"]


def host(shape, dtype):
    a = rng.uniform(-1, 1, shape)
    if np.dtype(dtype).kind == "c":
        a = a + 1j * rng.uniform(-1, 1, shape)
    return a.astype(dtype)


def tol(dtype):
    return 2e-3 if np.dtype(dtype) in (np.float32, np.complex64) else 1e-9


def check(got, want, dtype):
    got = got.to_numpy() if hasattr(got, "to_numpy") else np.asarray(got)
    assert got.shape == np.shape(want)
    np.testing.assert_allclose(got, want, rtol=tol(dtype), atol=tol(dtype) * (1 + np.max(np.abs(want), initial=0)))


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("n", [1, 3, 8, 20, 40])
def test_det_inv_solve_match_numpy(dtype, n):
    a = host((3, n, n), dtype) + n * np.eye(n, dtype=dtype)
    b = host((3, n, 2), dtype)
    x = usmarr.asarray(a)
    d = la.det(x)
    assert d.dtype == usmarr.asarray(a[0, 0]).dtype
    check(d, np.linalg.det(a), dtype)
    check(la.inv(x), np.linalg.inv(a), dtype)
    check(la.solve(x, usmarr.asarray(b)), np.linalg.solve(a, b), dtype)
    s = la.slogdet(x)
    want = np.linalg.slogdet(a)
    check(s.sign, want[0], dtype)
    check(s.logabsdet, want[1], dtype)


@pytest.mark.parametrize("dtype", FLOATS)
def test_cholesky_lower_and_upper(dtype):
    a = host((2, 6, 6), dtype)
    a = a @ np.conj(np.swapaxes(a, -1, -2)) + 6 * np.eye(6)
    x = usmarr.asarray(a)
    lower = np.linalg.cholesky(a)
    check(la.cholesky(x), lower, dtype)
    check(la.cholesky(x, upper=True), np.conj(np.swapaxes(lower, -1, -2)), dtype)


def test_solve_rhs_rules():
    a = host((2, 4, 4), "float64") + 4 * np.eye(4)
    v = host((4,), "float64")
    r = la.solve(usmarr.asarray(a), usmarr.asarray(v))
    assert r.shape == (2, 4)
    check(r, np.linalg.solve(a, v[None, :, None])[..., 0], "float64")
    m = host((3, 1, 4, 2), "float64")
    r = la.solve(usmarr.asarray(a), usmarr.asarray(m))
    assert r.shape == (3, 2, 4, 2)
    check(r, np.linalg.solve(a, m), "float64")


def test_layouts_and_integer_promotion():
    base = host((4, 9, 10), "float64")
    view = base[1:, ::-2, 1::2]
    check(la.det(usmarr.asarray(base)[1:, ::-2, 1::2]), np.linalg.det(view), "float64")
    t = usmarr.matrix_transpose(usmarr.asarray(base[:, :, 1:]))
    check(la.inv(t), np.linalg.inv(np.swapaxes(base[:, :, 1:], -1, -2)), "float64")
    ints = np.array([[2, 1], [1, 3]], dtype=np.int32)
    d = la.det(usmarr.asarray(ints))
    assert d.dtype == usmarr.float64
    check(d, np.linalg.det(ints), "float64")


def test_singular_raises_linalgerror_naming_the_matrix():
    a = np.stack([np.eye(3), np.zeros((3, 3))])
    with pytest.raises(la.LinAlgError, match="matrix 1 of the stack"):
        la.inv(usmarr.asarray(a))
    assert issubclass(la.LinAlgError, ValueError)
    with pytest.raises(ValueError):
        la.solve(usmarr.asarray(a), usmarr.asarray(np.ones(3)))
    with pytest.raises(la.LinAlgError, match="not positive definite"):
        la.cholesky(usmarr.asarray(np.array([[1.0, 2.0], [2.0, 1.0]])))
    assert la.det(usmarr.asarray(a)).to_numpy()[1] == 0


def test_zero_size():
    assert la.det(usmarr.asarray(np.zeros((2, 0, 0)))).to_numpy().tolist() == [1.0, 1.0]
    assert la.inv(usmarr.asarray(np.zeros((0, 3, 3)))).shape == (0, 3, 3)
    s = la.slogdet(usmarr.asarray(np.zeros((0, 0))))
    assert float(s.sign.to_numpy()) == 1 and float(s.logabsdet.to_numpy()) == 0


@pytest.mark.parametrize("n", [-3, -1, 0, 1, 2, 5])
def test_matrix_power(n):
    a = host((2, 4, 4), "float64") + 2 * np.eye(4)
    check(la.matrix_power(usmarr.asarray(a), n), np.linalg.matrix_power(a, n), "float64")
    ints = rng.integers(-3, 4, (3, 3)).astype(np.int64)
    if n >= 0:
        r = la.matrix_power(usmarr.asarray(ints), n)
        assert r.dtype == usmarr.int64
        np.testing.assert_array_equal(r.to_numpy(), np.linalg.matrix_power(ints, n))


def test_diagonal_trace_outer_cross():
    a = host((2, 4, 6), "float32")
    x = usmarr.asarray(a)
    for off in (0, 2, -1, 9):
        check(la.diagonal(x, offset=off), np.diagonal(a, off, -2, -1), "float32")
        check(la.trace(x, offset=off), np.trace(a, off, -2, -1), "float32")
    i = rng.integers(-5, 5, (3, 3)).astype(np.int32)
    t = la.trace(usmarr.asarray(i))
    assert t.dtype == usmarr.int64 and int(t.to_numpy()) == np.trace(i)
    assert la.trace(usmarr.asarray(i), dtype=usmarr.float32).dtype == usmarr.float32
    u, v = host((5,), "float64"), host((3,), "float64")
    check(la.outer(usmarr.asarray(u), usmarr.asarray(v)), np.outer(u, v), "float64")
    p, q = host((4, 3), "complex128"), host((3,), "complex128")
    check(la.cross(usmarr.asarray(p), usmarr.asarray(q)), np.cross(p, q), "complex128")
    check(la.cross(usmarr.asarray(p.T.copy()), usmarr.asarray(p.T.copy()[:, ::-1]), axis=0),
          np.cross(p.T, p.T[:, ::-1], axis=0), "complex128")
    with pytest.raises(ValueError):
        la.cross(usmarr.asarray(host((4, 2), "float64")), usmarr.asarray(host((4, 2), "float64")))


def test_main_namespace_has_numpys_signatures():
    a = host((4, 5, 3), "float64")
    x = usmarr.asarray(a)
    check(usmarr.diagonal(x), np.diagonal(a), "float64")
    check(usmarr.diagonal(x, 1, 1, 2), np.diagonal(a, 1, 1, 2), "float64")
    check(usmarr.trace(x), np.trace(a), "float64")
    check(usmarr.outer(x, usmarr.asarray(a[0])), np.outer(a, a[0]), "float64")
    b = host((3, 4, 5), "float64")
    check(usmarr.cross(x, usmarr.asarray(b), axisa=-1, axisb=0, axisc=1), np.cross(a, b, axisa=-1, axisb=0, axisc=1),
          "float64")
    assert not hasattr(usmarr, "vector_norm") and not hasattr(usmarr, "matrix_norm")


@pytest.mark.parametrize("dtype", FLOATS + ["int32"])
@pytest.mark.parametrize("ord", [2, 1, np.inf, -np.inf, 0, 3, -1, 0.5])
def test_vector_norm(dtype, ord):
    a = host((3, 4, 5), "float64").astype(dtype) if dtype == "int32" else host((3, 4, 5), dtype)
    if dtype == "int32":
        a = rng.integers(-5, 6, (3, 4, 5)).astype(dtype)
    x = usmarr.asarray(a)
    want = np.linalg.norm(a.ravel(), ord)
    check(la.vector_norm(x, ord=ord), want, "float64" if dtype == "int32" else dtype)
    want = np.linalg.norm(a, ord, axis=1, keepdims=True)
    check(la.vector_norm(x, axis=1, keepdims=True, ord=ord), want, "float64" if dtype == "int32" else dtype)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("ord", ["fro", 1, -1, np.inf, -np.inf])
def test_matrix_norm(dtype, ord):
    a = host((2, 3, 4), dtype)
    r = la.matrix_norm(usmarr.asarray(a), ord=ord)
    check(r, np.linalg.norm(a, ord, axis=(-2, -1)), dtype)
    r = la.matrix_norm(usmarr.asarray(a), ord=ord, keepdims=True)
    check(r, np.linalg.norm(a, ord, axis=(-2, -1), keepdims=True), dtype)


def test_bad_arguments():
    with pytest.raises(ValueError, match="square"):
        la.det(usmarr.asarray(host((2, 3), "float64")))
    with pytest.raises(ValueError, match="at least 2"):
        la.inv(usmarr.asarray(host((3,), "float64")))
    with pytest.raises(ValueError, match="ord"):
        la.matrix_norm(usmarr.asarray(host((3, 3), "float64")), ord=3)
    with pytest.raises(ValueError, match="ord"):
        la.vector_norm(usmarr.asarray(host((3,), "float64")), ord="fro")
    with pytest.raises(TypeError):
        la.matrix_power(usmarr.asarray(host((3, 3), "float64")), 1.5)
