"""usmarr.fft: the array API's fft extension (2024.12) over the library's transforms
(include/usmarr/fft.h, doc/fft.md).

Every function is one library call.  Inputs are floating-point arrays (a real input to a
complex transform is promoted, float32 to complex64); results keep the input's precision.
`norm` is "backward" (the default), "ortho" or "forward".  In `s`, -1 stands for the
input's extent along the axis (for irfftn's last axis: 2 (m - 1))."""

import operator as _operator

from . import _usmarr

__all__ = ["fft", "ifft", "fftn", "ifftn", "rfft", "irfft", "rfftn", "irfftn", "hfft", "ihfft", "fftfreq",
           "rfftfreq", "fftshift", "ifftshift"]


def _one(name, x, n, axis, norm):
    if n is not None:
        n = _operator.index(n)
    return _usmarr._fft(name, x, n, _operator.index(axis), norm, None)


def _many(name, x, s, axes, norm):
    if s is not None:
        s = [_operator.index(v) for v in s]
        if axes is not None:
            axes = [_operator.index(a) for a in axes]
            if len(s) != len(axes):
                raise ValueError("usmarr.fft.%s: s has %d lengths and axes %d axes; they must match"
                                 % (name, len(s), len(axes)))
        if any(v == -1 for v in s):
            nd = x.ndim
            ax = axes if axes is not None else list(range(nd - len(s), nd))
            for i, v in enumerate(s):
                if v == -1:
                    m = x.shape[ax[i]]
                    s[i] = 2 * (m - 1) if name == "irfftn" and i == len(s) - 1 else m
    return _usmarr._fftn(name, x, s, axes, norm, None)


def fft(x, /, *, n=None, axis=-1, norm="backward"):
    """The one-dimensional discrete Fourier transform along `axis` (length `n`: cropped or
    zero-padded input)."""
    return _one("fft", x, n, axis, norm)


def ifft(x, /, *, n=None, axis=-1, norm="backward"):
    """The inverse of fft."""
    return _one("ifft", x, n, axis, norm)


def fftn(x, /, *, s=None, axes=None, norm="backward"):
    """The n-dimensional transform over `axes` (all, or the last len(s)), lengths `s`."""
    return _many("fftn", x, s, axes, norm)


def ifftn(x, /, *, s=None, axes=None, norm="backward"):
    """The inverse of fftn."""
    return _many("ifftn", x, s, axes, norm)


def rfft(x, /, *, n=None, axis=-1, norm="backward"):
    """The transform of a real input: its n/2 + 1 non-negative frequencies."""
    return _one("rfft", x, n, axis, norm)


def irfft(x, /, *, n=None, axis=-1, norm="backward"):
    """The inverse of rfft: a real result of length n (default 2 (m - 1))."""
    return _one("irfft", x, n, axis, norm)


def rfftn(x, /, *, s=None, axes=None, norm="backward"):
    """rfft along the last of `axes`, then fft along the others."""
    return _many("rfftn", x, s, axes, norm)


def irfftn(x, /, *, s=None, axes=None, norm="backward"):
    """The inverse of rfftn."""
    return _many("irfftn", x, s, axes, norm)


def hfft(x, /, *, n=None, axis=-1, norm="backward"):
    """The transform of a Hermitian signal given by its first half: a real result."""
    return _one("hfft", x, n, axis, norm)


def ihfft(x, /, *, n=None, axis=-1, norm="backward"):
    """The inverse of hfft."""
    return _one("ihfft", x, n, axis, norm)


def fftfreq(n, /, *, d=1.0, dtype=None, device=None):
    """The sample frequencies [0, 1, ..., -(n//2), ..., -1] / (d n); dtype: the default
    real floating-point dtype of the device unless given."""
    return _usmarr._fftfreq(_operator.index(n), float(d), dtype, device, False)


def rfftfreq(n, /, *, d=1.0, dtype=None, device=None):
    """The sample frequencies [0, 1, ..., n//2] / (d n) of rfft."""
    return _usmarr._fftfreq(_operator.index(n), float(d), dtype, device, True)


def fftshift(x, /, *, axes=None):
    """Rolls each axis (all when None) by half its extent: the zero frequency to the middle."""
    return _usmarr._fftshift(x, axes, False)


def ifftshift(x, /, *, axes=None):
    """The inverse of fftshift."""
    return _usmarr._fftshift(x, axes, True)
