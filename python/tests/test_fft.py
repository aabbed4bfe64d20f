"""usmarr.fft (python/usmarr/fft.py and python/src/fft.c over include/usmarr/fft.h): every
function of the array API's fft extension, its signatures, dtypes, shapes and values.
numpy.fft is the oracle (its results in float64, so the checks measure the library's error
in its own precision)."""

import inspect
import math

import pytest

import usmarr

np = pytest.importorskip("numpy")

NAMES = ["fft", "ifft", "fftn", "ifftn", "rfft", "irfft", "rfftn", "irfftn", "hfft", "ihfft", "fftfreq", "rfftfreq",
         "fftshift", "ifftshift"]


def host(shape, dtype, seed=0):
    rng = np.random.default_rng(seed)
    if np.dtype(dtype).kind == "c":
        return (rng.uniform(-1, 1, shape) + 1j * rng.uniform(-1, 1, shape)).astype(dtype)
    return rng.uniform(-1, 1, shape).astype(dtype)


def needs(dtype, fp64):
    if not fp64 and np.dtype(dtype) in (np.float64, np.complex128):
        pytest.skip("the device has no fp64")


def close(got, expected, dtype, size):
    """Within 8 log2(N) eps of the expected values' RMS (the C suite's bound)."""
    got = got.to_numpy()
    assert got.shape == expected.shape
    eps = np.finfo(np.dtype(dtype)).eps
    scale = np.linalg.norm(expected.ravel()) / math.sqrt(max(expected.size, 1))
    assert np.max(np.abs(got - expected), initial=0) <= 8 * math.log2(max(size, 2)) * eps * max(scale, 1e-300)


def test_namespace_has_every_function():
    assert sorted(usmarr.fft.__all__) == sorted(NAMES)
    for name in NAMES:
        assert callable(getattr(usmarr.fft, name))


@pytest.mark.parametrize("name", ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"])
def test_one_axis_signature(name):
    params = inspect.signature(getattr(usmarr.fft, name)).parameters
    assert list(params) == ["x", "n", "axis", "norm"]
    assert params["x"].kind is inspect.Parameter.POSITIONAL_ONLY
    assert params["n"].default is None and params["axis"].default == -1 and params["norm"].default == "backward"


@pytest.mark.parametrize("dtype,res", [("float32", "complex64"), ("complex64", "complex64"),
                                       ("float64", "complex128"), ("complex128", "complex128")])
@pytest.mark.parametrize("n", [1, 7, 16, 60, 97, 1009])
def test_fft_ifft_values(dtype, res, n, fp64):
    needs(dtype, fp64)
    x = host((3, n), dtype, n)
    a = usmarr.asarray(x)
    r = usmarr.fft.fft(a)
    assert r.dtype == getattr(usmarr, res)
    close(r, np.fft.fft(x.astype(np.complex128)), res, n)
    close(usmarr.fft.ifft(a, axis=-1), np.fft.ifft(x.astype(np.complex128)), res, n)


@pytest.mark.parametrize("norm", ["backward", "ortho", "forward"])
def test_norms(norm, fp64):
    needs("complex128", fp64)
    x = host((24,), "complex128", 1)
    a = usmarr.asarray(x)
    close(usmarr.fft.fft(a, norm=norm), np.fft.fft(x, norm=norm), "complex128", 24)
    close(usmarr.fft.ifft(a, norm=norm), np.fft.ifft(x, norm=norm), "complex128", 24)
    close(usmarr.fft.hfft(a, norm=norm), np.fft.hfft(x, norm=norm), "complex128", 46)
    xr = host((24,), "float64", 2)
    close(usmarr.fft.ihfft(usmarr.asarray(xr), norm=norm), np.fft.ihfft(xr, norm=norm), "complex128", 24)


def test_lengths_crop_and_pad(fp64):
    needs("complex128", fp64)
    x = host((5, 20), "complex128", 3)
    a = usmarr.asarray(x)
    for n in (7, 20, 33):
        close(usmarr.fft.fft(a, n=n), np.fft.fft(x, n=n), "complex128", n)
        close(usmarr.fft.ifft(a, n=n, axis=0), np.fft.ifft(x, n=n, axis=0), "complex128", n)


@pytest.mark.parametrize("n", [2, 9, 16, 31, 100])
def test_real_transforms(n, fp64):
    x = host((4, n), "float32", n)
    r = usmarr.fft.rfft(usmarr.asarray(x))
    assert r.dtype == usmarr.complex64 and r.shape == (4, n // 2 + 1)
    close(r, np.fft.rfft(x.astype(np.float64)), "complex64", n)
    c = host((4, n // 2 + 1), "complex64", n + 1)
    i = usmarr.fft.irfft(usmarr.asarray(c), n=n)
    assert i.dtype == usmarr.float32 and i.shape == (4, n)
    close(i, np.fft.irfft(c.astype(np.complex128), n=n), "float32", n)
    h = usmarr.fft.hfft(usmarr.asarray(c), n=n)
    close(h, np.fft.hfft(c.astype(np.complex128), n=n), "float32", n)


def test_several_axes(fp64):
    needs("complex128", fp64)
    x = host((6, 5, 8), "complex128", 4)
    a = usmarr.asarray(x)
    close(usmarr.fft.fftn(a), np.fft.fftn(x), "complex128", 240)
    close(usmarr.fft.ifftn(a, axes=(0, 2)), np.fft.ifftn(x, axes=(0, 2)), "complex128", 48)
    close(usmarr.fft.fftn(a, s=(4, 10), axes=(2, 0)), np.fft.fftn(x, s=(4, 10), axes=(2, 0)), "complex128", 40)
    close(usmarr.fft.fftn(a, s=(-1, 9)), np.fft.fftn(x, s=(5, 9)), "complex128", 45)
    xr = host((6, 5, 8), "float64", 5)
    r = usmarr.fft.rfftn(usmarr.asarray(xr))
    close(r, np.fft.rfftn(xr), "complex128", 240)
    back = usmarr.fft.irfftn(r, s=(6, 5, 8))
    close(back, xr, "float64", 240)
    close(usmarr.fft.irfftn(r, s=(-1, -1, -1)), np.fft.irfftn(r.to_numpy(), s=(6, 5, 8)), "float64", 240)
    with pytest.raises(ValueError):
        usmarr.fft.fftn(a, s=(4, 4), axes=(0,))


def test_views(fp64):
    needs("complex128", fp64)
    x = host((8, 12), "complex128", 6)
    a = usmarr.asarray(x)
    close(usmarr.fft.fft(a[::-1, 1::2], axis=0), np.fft.fft(x[::-1, 1::2], axis=0), "complex128", 8)
    close(usmarr.fft.fft(a.mT), np.fft.fft(x.T), "complex128", 8)


def test_frequencies():
    for n in (1, 2, 5, 8, 11):
        for d in (1.0, 0.25, 3.0):
            f = usmarr.fft.fftfreq(n, d=d, dtype=usmarr.float32)
            assert f.dtype == usmarr.float32 and f.shape == (n,)
            np.testing.assert_array_equal(f.to_numpy(), np.fft.fftfreq(n, d).astype(np.float32))
            r = usmarr.fft.rfftfreq(n, d=d, dtype=usmarr.float32)
            np.testing.assert_array_equal(r.to_numpy(), np.fft.rfftfreq(n, d).astype(np.float32))
    f = usmarr.fft.fftfreq(6)
    assert f.dtype == usmarr.__array_namespace_info__().default_dtypes()["real floating"]
    assert f.device == usmarr.get_device()


def test_shifts():
    x = host((4, 5), "float32", 7)
    a = usmarr.asarray(x)
    np.testing.assert_array_equal(usmarr.fft.fftshift(a).to_numpy(), np.fft.fftshift(x))
    np.testing.assert_array_equal(usmarr.fft.ifftshift(a, axes=(1,)).to_numpy(), np.fft.ifftshift(x, axes=(1,)))
    np.testing.assert_array_equal(usmarr.fft.fftshift(a, axes=0).to_numpy(), np.fft.fftshift(x, axes=0))


def test_failures():
    a = usmarr.asarray(host((4, 6), "complex64"))
    r = usmarr.asarray(host((4, 6), "float32"))
    with pytest.raises(usmarr.UsmarrError, match="n=0 must be >= 1"):
        usmarr.fft.fft(a, n=0)
    with pytest.raises(ValueError, match="norm"):
        usmarr.fft.fft(a, norm="unitary")
    with pytest.raises(usmarr.UsmarrError, match="needs a complex dtype"):
        usmarr.fft.irfft(r)
    with pytest.raises(usmarr.UsmarrError, match="needs a real floating-point dtype"):
        usmarr.fft.rfft(a)
    with pytest.raises(IndexError, match="axis=2"):
        usmarr.fft.fft(a, axis=2)
    with pytest.raises(usmarr.UsmarrError, match="axes"):
        usmarr.fft.fftn(a, axes=(0, 0))
    with pytest.raises(usmarr.UsmarrError, match="dtype int32"):
        usmarr.fft.fft(usmarr.asarray(np.arange(4, dtype=np.int32)))
    with pytest.raises(usmarr.UsmarrError, match="n=0"):
        usmarr.fft.fftfreq(0)
