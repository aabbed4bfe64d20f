"""Fused expressions from Python (python/usmarr/_expr.py, include/usmarr/expr.h): Expression,
evaluate and fuse against NumPy 2 evaluating the same expression."""

import pytest

import usmarr

np = pytest.importorskip("numpy")


def _data(dtype, shape, seed=3):
    rng = np.random.default_rng(seed)
    if np.dtype(dtype).kind == "b":
        return rng.integers(0, 2, shape).astype(dtype)
    if np.dtype(dtype).kind in "iu":
        return rng.integers(0, 9, shape).astype(dtype)
    v = (rng.standard_normal(shape) * 3).astype(dtype)
    v.flat[:4] = [np.nan, np.inf, -np.inf, -0.0][: v.size]
    return v


def _close(got, want, rtol=1e-6):
    got = got.to_numpy() if isinstance(got, usmarr.Array) else got
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    assert got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=rtol, atol=0, equal_nan=True)


@pytest.mark.parametrize("dtypes", [("float32", "float32", "float32"), ("int8", "float16", "float32"),
                                    ("uint8", "int16", "float64")])
def test_evaluate_matches_numpy_with_the_callers_names(dtypes, fp64):
    if "float64" in dtypes and not fp64:
        pytest.skip("float64")
    na, nb, nc = (_data(d, (5, 7), seed=i) for i, d in enumerate(dtypes))
    a, b, c = usmarr.asarray(na), usmarr.asarray(nb), usmarr.asarray(nc[1:2])  # c broadcasts
    with np.errstate(all="ignore"):
        want = na * nb + np.exp(nc[1:2])
    _close(usmarr.evaluate("a * b + exp(c)"), want, rtol=1e-5)
    # explicit dictionaries; weak Python scalars keep the arrays' dtypes
    with np.errstate(all="ignore"):
        want2 = np.where(na > 0, na * 2, nb - 1)
    _close(usmarr.evaluate("a > 0 ? a * s : b - 1", {"a": a, "b": b, "s": 2}), want2)


def test_evaluate_reductions_take_axis_and_keepdims():
    na, nb = _data("float32", (6, 50)), _data("float32", (6, 50), seed=9)
    na, nb = np.nan_to_num(na, posinf=1, neginf=-1), np.nan_to_num(nb, posinf=1, neginf=-1)
    a, b = usmarr.asarray(na), usmarr.asarray(nb)
    _close(usmarr.evaluate("sum(a * b)", axis=1), np.sum(na * nb, axis=1), rtol=1e-4)
    _close(usmarr.evaluate("max(abs(a - b))", axis=0, keepdims=True), np.max(np.abs(na - nb), axis=0, keepdims=True))
    r = usmarr.evaluate("mean(a)")
    assert r.shape == () and abs(float(r) - float(np.mean(na))) < 1e-4
    with pytest.raises(TypeError, match="axis and keepdims"):
        usmarr.evaluate("a + b", axis=0)


def test_expression_object_names_canonical_form_and_errors():
    e = usmarr.Expression("x * y + exp( z )")
    assert e.names == ("x", "y", "z")
    assert e.canonical == "add(multiply($0,$1),exp($2))"
    assert e.reduction is None
    assert usmarr.Expression("sum(q)").reduction == "sum"
    assert usmarr.Expression("a + b", names=("b", "a")).canonical == "add($1,$0)"
    with pytest.raises(usmarr.UsmarrError, match="column 5: expected a value, found '\\*'"):
        usmarr.Expression("a * * b")
    with pytest.raises(NameError, match="'nope'"):
        usmarr.evaluate("nope + 1")
    a = usmarr.asarray(np.arange(4, dtype=np.int8))
    assert e.result_dtype(a, a, 1.5) == usmarr.float64
    with pytest.raises(usmarr.UsmarrError, match="300"):
        usmarr.Expression("a + 300")(usmarr.asarray(np.arange(4, dtype=np.uint8)))


def test_expression_out_and_in_place():
    na = np.arange(12, dtype=np.float32).reshape(3, 4)
    a = usmarr.asarray(na)
    e = usmarr.Expression("x * 2 + 1")
    out = usmarr.zeros((3, 4), dtype=usmarr.float64)
    assert e(a, out=out) is out
    _close(out, (na * 2 + 1).astype(np.float64))
    e(a, out=a)
    _close(a, na * 2 + 1)


def test_fuse_traces_once_per_signature_and_matches_numpy():
    calls = []

    @usmarr.fuse
    def f(a, b, c):
        calls.append(1)
        return a * b + usmarr.exp(c) - usmarr.where(a > 0, a, 0.5)

    na, nb, nc = (_data("float32", (4, 9), seed=s) for s in (1, 2, 3))
    a, b, c = usmarr.asarray(na), usmarr.asarray(nb), usmarr.asarray(nc)
    with np.errstate(all="ignore"):
        want = na * nb + np.exp(nc) - np.where(na > 0, na, np.float32(0.5))
    _close(f(a, b, c), want, rtol=1e-5)
    _close(f(a, b, c), want, rtol=1e-5)
    assert len(calls) == 1
    h = usmarr.asarray(na.astype(np.float16))
    f(h, h, h)  # another signature: traced again
    assert len(calls) == 2

    @usmarr.fuse()
    def dot(x, y):
        return usmarr.sum(x * y, axis=1)

    _close(dot(a, b), np.sum(na * nb, axis=1), rtol=1e-4)

    @usmarr.fuse
    def scaled(x, s):
        return (-x).astype(usmarr.float64) * s

    _close(scaled(a, 3), -na.astype(np.float64) * 3)


def test_fuse_refuses_what_it_cannot_trace():
    @usmarr.fuse
    def branches(x):
        return x if x > 0 else -x

    a = usmarr.asarray(np.ones(3, np.float32))
    with pytest.raises(TypeError, match="branches on an array's values"):
        branches(a)

    @usmarr.fuse
    def captures(x):
        return x + a

    with pytest.raises(TypeError, match="pass arrays as arguments"):
        captures(a)


def test_storage_evaluate_broadcasts_by_letter_and_reduces(usm_offered):
    if not usm_offered("host"):  # host storages need host USM; the refusal was checked
        return
    from usmarr import storage as st
    na = np.arange(6, dtype=np.float64).reshape(2, 3)
    nb = np.arange(1, 5, dtype=np.float64)
    a = st.storage(na, axes="IJ")
    b = st.storage(nb, axes="K")
    c = st.evaluate("a * b + 1")
    assert c.axes == "IJK" and c.shape == (2, 3, 4)
    np.testing.assert_array_equal(np.asarray(c), na[:, :, None] * nb[None, None, :] + 1)
    r = st.evaluate("sum(a * b)", axes="K")
    assert r.axes == "IJ"
    np.testing.assert_array_equal(np.asarray(r), (na[:, :, None] * nb).sum(axis=2))
