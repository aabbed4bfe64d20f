"""usmarr.linalg's decompositions (python/src/linalg_decomp.c, python/usmarr/linalg.py over
include/usmarr/linalg.h): qr, svd, svdvals, eigh, eigvalsh, matrix_rank, pinv.  NumPy is the
oracle for values; the factors, which are not unique, are checked by their residuals."""

import pytest

import usmarr

np = pytest.importorskip("numpy")

DTYPES = ["float32", "float64", "complex64", "complex128"]


def host(shape, dtype, seed=0):
    rng = np.random.default_rng(seed)
    a = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        a = a + 1j * rng.standard_normal(shape)
    return a.astype(dtype)


def skip_without_fp64(dtype, fp64):
    if not fp64 and dtype in ("float64", "complex128"):
        pytest.skip("the device has no fp64")


def bound(dtype, n):
    """A small multiple of n eps."""
    eps = np.finfo(np.dtype(dtype)).eps
    return 10 * max(n, 1) * eps


def adjoint(a):
    return np.conj(np.swapaxes(a, -1, -2))


def residual(a, b):
    """max over the stack of |a - b| / max(|a|, tiny) (Frobenius)."""
    num = np.linalg.norm(a - b, axis=(-2, -1))
    den = np.maximum(np.linalg.norm(a, axis=(-2, -1)), np.finfo(np.float64).tiny)
    return float(np.max(num / den)) if num.size else 0.0


def identity_gap(q):
    k = q.shape[-1]
    return float(np.max(np.abs(adjoint(q) @ q - np.eye(k)))) if q.size else 0.0


SHAPES = [(4, 4), (3, 5, 4), (2, 4, 7), (1, 1), (2, 16, 8), (20, 20)]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("mode", ["reduced", "complete"])
def test_qr_residuals(dtype, shape, mode, fp64):
    skip_without_fp64(dtype, fp64)
    a = host(shape, dtype)
    res = usmarr.linalg.qr(usmarr.asarray(a), mode=mode)
    assert isinstance(res, usmarr.linalg.QRResult)
    q, r = res.Q.to_numpy(), res.R.to_numpy()
    eq, er = np.linalg.qr(a, mode=mode)
    assert q.shape == eq.shape and r.shape == er.shape and q.dtype == eq.dtype
    m, n = shape[-2:]
    assert identity_gap(q) <= bound(dtype, max(m, n))
    assert residual(a.astype(np.complex128), q.astype(np.complex128) @ r) <= bound(dtype, max(m, n))
    assert np.all(np.tril(r, -1) == 0)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", SHAPES + [(2, 80, 66), (70, 150)])  # from min(m, n) = 64: the bidiagonal route
@pytest.mark.parametrize("full", [False, True])
def test_svd_residuals_and_values(dtype, shape, full, fp64):
    skip_without_fp64(dtype, fp64)
    a = host(shape, dtype, 1)
    res = usmarr.linalg.svd(usmarr.asarray(a), full_matrices=full)
    assert isinstance(res, usmarr.linalg.SVDResult)
    u, s, vh = res.U.to_numpy(), res.S.to_numpy(), res.Vh.to_numpy()
    eu, es, evh = np.linalg.svd(a, full_matrices=full)
    assert u.shape == eu.shape and s.shape == es.shape and vh.shape == evh.shape
    assert s.dtype == es.dtype and u.dtype == eu.dtype
    m, n = shape[-2:]
    k = min(m, n)
    b = bound(dtype, max(m, n))
    np.testing.assert_allclose(s, es, rtol=0, atol=4 * b * float(np.max(es)))
    assert identity_gap(u) <= b and identity_gap(adjoint(vh)) <= b
    rebuilt = (u[..., :, :k] * s[..., None, :]) @ vh[..., :k, :]
    assert residual(a.astype(np.complex128), rebuilt) <= b
    np.testing.assert_allclose(usmarr.linalg.svdvals(usmarr.asarray(a)).to_numpy(), es, rtol=0,
                               atol=4 * b * float(np.max(es)))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(4, 4), (3, 6, 6), (1, 1), (2, 2, 16, 16)])
def test_eigh_residuals_and_values(dtype, shape, fp64):
    skip_without_fp64(dtype, fp64)
    a = host(shape, dtype, 2)
    res = usmarr.linalg.eigh(usmarr.asarray(a))  # the lower triangle is read, as NumPy's
    assert isinstance(res, usmarr.linalg.EighResult)
    w, v = res.eigenvalues.to_numpy(), res.eigenvectors.to_numpy()
    ew, ev = np.linalg.eigh(a)
    assert w.dtype == ew.dtype and v.dtype == ev.dtype and v.shape == ev.shape
    n = shape[-1]
    b = bound(dtype, n)
    np.testing.assert_allclose(w, ew, rtol=0, atol=4 * b * float(np.max(np.abs(ew))))
    h = np.tril(a) + adjoint(np.tril(a, -1))
    h = h - 1j * np.imag(h) * np.eye(n) if np.iscomplexobj(h) else h
    assert residual(h.astype(np.complex128), (h @ v) - v * w[..., None, :] + h) <= b
    assert identity_gap(v) <= b
    np.testing.assert_allclose(usmarr.linalg.eigvalsh(usmarr.asarray(a)).to_numpy(), ew, rtol=0,
                               atol=4 * b * float(np.max(np.abs(ew))))


def test_layouts_give_the_same_decomposition(fp64):
    dtype = "float64" if fp64 else "float32"
    base = host((3, 9, 12), dtype, 3)
    for index in ((slice(None), slice(None, None, -2), slice(1, None, 2)), (slice(None), slice(2, 8), slice(None, None, -1))):
        a = usmarr.asarray(base)[index]
        expected = base[index]
        if index[1].start == 2:  # F order
            a, expected = usmarr.matrix_transpose(a), np.swapaxes(expected, -1, -2)
        np.testing.assert_allclose(usmarr.linalg.svdvals(a).to_numpy(), np.linalg.svd(expected, compute_uv=False),
                                   rtol=0, atol=bound(dtype, 12) * 40)
        q, r = usmarr.linalg.qr(a)
        assert residual(expected, q.to_numpy() @ r.to_numpy()) <= bound(dtype, 12)


def test_rank_deficient_and_ill_conditioned(fp64):
    dtype = "float64" if fp64 else "float32"
    rng = np.random.default_rng(4)
    x = (rng.standard_normal((5, 8, 2)) @ rng.standard_normal((5, 2, 6))).astype(dtype)
    assert usmarr.linalg.matrix_rank(usmarr.asarray(x)).to_numpy().tolist() == [2] * 5
    u, s, vh = usmarr.linalg.svd(usmarr.asarray(x))
    assert identity_gap(u.to_numpy()) <= bound(dtype, 8) and identity_gap(adjoint(vh.to_numpy())) <= bound(dtype, 8)
    eps = np.finfo(np.dtype(dtype)).eps
    expected = np.linalg.pinv(x, rcond=8 * eps)
    np.testing.assert_allclose(usmarr.linalg.pinv(usmarr.asarray(x)).to_numpy(), expected, rtol=0,
                               atol=1e3 * eps * float(np.max(np.abs(expected))))
    ill = np.diag(np.logspace(0, -5, 6)).astype(dtype)
    np.testing.assert_allclose(usmarr.linalg.svdvals(usmarr.asarray(ill)).to_numpy(), np.logspace(0, -5, 6),
                               rtol=100 * eps)


def test_matrix_rank_and_pinv_rtol(fp64):
    dtype = "float64" if fp64 else "float32"
    x = np.stack([np.diag([4.0, 1e-3, 0]), np.diag([2.0, 1.0, 1e-6])]).astype(dtype)
    a = usmarr.asarray(x)
    rank = usmarr.linalg.matrix_rank(a)
    assert rank.dtype == usmarr.int64 and rank.to_numpy().tolist() == [2, 3 if fp64 else 2]
    assert usmarr.linalg.matrix_rank(a, rtol=1e-2).to_numpy().tolist() == [1, 2]
    per = usmarr.asarray(np.array([1e-4, 0.6], dtype=dtype))
    assert usmarr.linalg.matrix_rank(a, rtol=per).to_numpy().tolist() == [2, 1]
    p = usmarr.linalg.pinv(a, rtol=per).to_numpy()
    np.testing.assert_allclose(p, np.stack([np.diag([0.25, 1e3, 0]), np.diag([0.5, 0, 0])]), rtol=1e-5)


def test_zero_size_follows_numpy():
    for shape in [(0, 3, 3), (3, 0), (0, 4), (2, 0, 0)]:
        x = np.zeros(shape, np.float32)
        a = usmarr.asarray(x)
        for mode in ("reduced", "complete"):
            q, r = usmarr.linalg.qr(a, mode=mode)
            eq, er = np.linalg.qr(x, mode=mode)
            assert q.shape == eq.shape and r.shape == er.shape
            np.testing.assert_array_equal(q.to_numpy(), eq)
        for full in (False, True):
            u, s, vh = usmarr.linalg.svd(a, full_matrices=full)
            eu, es, evh = np.linalg.svd(x, full_matrices=full)
            assert (u.shape, s.shape, vh.shape) == (eu.shape, es.shape, evh.shape)
        assert usmarr.linalg.pinv(a).shape == np.linalg.pinv(x).shape
        if shape[-1] == shape[-2]:
            w, v = usmarr.linalg.eigh(a)
            assert w.shape == shape[:-1] and v.shape == shape


def test_nonfinite_matrices_give_nan(fp64):
    x = host((3, 4, 4), "float32", 5)
    x[1, 2, 1] = np.nan
    x[2, 3, 3] = np.inf
    a = usmarr.asarray(x)
    s = usmarr.linalg.svdvals(a).to_numpy()
    assert np.all(np.isfinite(s[0])) and np.all(np.isnan(s[1:]))
    w = usmarr.linalg.eigvalsh(a).to_numpy()
    assert np.all(np.isfinite(w[0])) and np.all(np.isnan(w[1:]))
    q, r = usmarr.linalg.qr(a)
    assert np.all(np.isnan(r.to_numpy()[1:]))


def test_integer_input_promotes(fp64):
    q, r = usmarr.linalg.qr(usmarr.asarray(np.array([[3, 0], [4, 5]], np.int32)))
    assert q.dtype == (usmarr.float64 if fp64 else usmarr.float32)
    assert abs(abs(float(r.to_numpy()[0, 0])) - 5) < 1e-6


def test_failures_name_the_argument():
    a = usmarr.asarray(host((3, 4), "float32"))
    with pytest.raises(ValueError, match="mode"):
        usmarr.linalg.qr(a, mode="r")
    with pytest.raises(ValueError, match="at least 2"):
        usmarr.linalg.svd(usmarr.asarray(np.ones(3, np.float32)))
    with pytest.raises(ValueError, match="square"):
        usmarr.linalg.eigh(a)
    with pytest.raises(ValueError, match="square"):
        usmarr.linalg.eigvalsh(a)
    with pytest.raises(TypeError, match="rtol"):
        usmarr.linalg.matrix_rank(a, rtol=1j)
    with pytest.raises(ValueError, match="rtol"):
        usmarr.linalg.pinv(a, rtol=usmarr.ones((4, 1, 1)))
    with pytest.raises(ValueError, match="3 x 0"):
        usmarr.linalg.matrix_rank(usmarr.zeros((3, 0)))


def test_no_convergence_raises_linalgerror(monkeypatch):
    x = usmarr.asarray(host((3, 5, 5), "float32", 6))
    monkeypatch.setenv("USMARR_LINALG_SWEEPS", "1")  # the library's test hook: one sweep
    with pytest.raises(usmarr.linalg.LinAlgError, match="matrix 0 of the stack"):
        usmarr.linalg.eigh(x)
    with pytest.raises(ValueError, match="did not converge"):
        usmarr.linalg.svdvals(x)
    monkeypatch.delenv("USMARR_LINALG_SWEEPS")
    assert usmarr.linalg.svdvals(x).shape == (3, 5)


@pytest.mark.parametrize("ord", [2, -2, "nuc"])
@pytest.mark.parametrize("dtype", ["float32", "complex128"])
def test_matrix_norm_of_singular_values(ord, dtype, fp64):
    skip_without_fp64(dtype, fp64)
    a = host((3, 5, 4), dtype, 7)
    got = usmarr.linalg.matrix_norm(usmarr.asarray(a), ord=ord)
    expected = np.linalg.norm(a, ord=ord, axis=(-2, -1))
    np.testing.assert_allclose(got.to_numpy(), expected, rtol=bound(dtype, 5) * 8)
    kept = usmarr.linalg.matrix_norm(usmarr.asarray(a), ord=ord, keepdims=True)
    assert kept.shape == (3, 1, 1)
