"""Data type introspection of the array API: finfo, iinfo, isdtype and the inspection
namespace (__array_namespace_info__)."""

from . import _usmarr

_DTYPES = [_usmarr.bool, _usmarr.int8, _usmarr.int16, _usmarr.int32, _usmarr.int64, _usmarr.uint8,
           _usmarr.uint16, _usmarr.uint32, _usmarr.uint64, _usmarr.float16, _usmarr.float32,
           _usmarr.float64, _usmarr.complex64, _usmarr.complex128]


class finfo_object:
    """Machine limits of a floating-point dtype (complex: of its real part)."""

    def __init__(self, dtype, bits, eps, max, min, smallest_normal):
        self.dtype = dtype
        self.bits = bits
        self.eps = eps
        self.max = max
        self.min = min
        self.smallest_normal = smallest_normal
        self.tiny = smallest_normal

    def __repr__(self):
        return f"usmarr.finfo(dtype={self.dtype}, bits={self.bits}, eps={self.eps}, max={self.max})"


class iinfo_object:
    """Limits of an integer dtype."""

    def __init__(self, dtype, bits, min, max):
        self.dtype, self.bits, self.min, self.max = dtype, bits, min, max

    def __repr__(self):
        return f"usmarr.iinfo(dtype={self.dtype}, min={self.min}, max={self.max})"


def _dtype_of(type):
    if isinstance(type, _usmarr.Array):
        return type.dtype
    return _usmarr.asarray(0, dtype=type).dtype if not isinstance(type, _usmarr.dtype) else type


def finfo(type, /):
    """finfo(float dtype or array): bits, eps, max, min, smallest_normal, dtype (usmarr_finfo)."""
    bits, eps, max, min, smallest_normal, dtype = _usmarr._finfo(_dtype_of(type))
    return finfo_object(dtype, bits, eps, max, min, smallest_normal)


def iinfo(type, /):
    """iinfo(integer dtype or array): bits, min, max, dtype (usmarr_iinfo)."""
    bits, min, max, dtype = _usmarr._iinfo(_dtype_of(type))
    return iinfo_object(dtype, bits, min, max)


isdtype = _usmarr.isdtype


class Info:
    """The array API inspection namespace."""

    def capabilities(self):
        return {"boolean indexing": True, "data-dependent shapes": True, "max dimensions": _usmarr.MAX_NDIM}

    def default_device(self):
        return _usmarr.get_device()

    def devices(self):
        return _usmarr.devices()

    def default_dtypes(self, *, device=None):
        fp64 = (device or _usmarr.get_device()).has_fp64
        return {
            "real floating": _usmarr.float64 if fp64 else _usmarr.float32,
            "complex floating": _usmarr.complex128 if fp64 else _usmarr.complex64,
            "integral": _usmarr.int64,
            "indexing": _usmarr.int64,
        }

    def dtypes(self, *, device=None, kind=None):
        fp64 = (device or _usmarr.get_device()).has_fp64
        out = {}
        for d in _DTYPES:
            if not fp64 and d.name in ("float64", "complex128"):
                continue
            if d.name == "float16":
                continue  # not an array API dtype
            if kind is None or isdtype(d, kind):
                out[d.name] = d
        return out


def __array_namespace_info__():
    """The inspection namespace: capabilities, devices and dtypes."""
    return Info()
