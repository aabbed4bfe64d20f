"""usmarr: N-dimensional strided arrays in OpenCL Unified Shared Memory.

The Python array API standard (2024.12, with 2025.12's additions) over the C library libusmarr.  Every function is a
call of the library (through the C extension ``usmarr._usmarr``) or a short composition of
such calls; no function loops over elements in Python.
"""

from ._usmarr import *  # noqa: F401,F403
from ._usmarr import (Array, Device, UsmarrError, abs, add, all, any, argmax, argmin,  # noqa: F401
                      asarray, astype, broadcast_arrays, broadcast_to, can_cast, concat, equal,
                      expand_dims, full, greater_equal, imag, isnan, less_equal, logical_and,
                      maximum, mean, minimum, multiply, nonzero, permute_dims, real, reshape,
                      sqrt, square, subtract, sum, swapaxes, where, zeros, zeros_like)
from . import _usmarr
from ._usmarr import bool as _bool_dtype, int8, int16, int32, int64, uint8, uint16, uint32, uint64
from ._usmarr import float16, float32, float64, complex64, complex128
from ._info import __array_namespace_info__, finfo, iinfo, isdtype  # noqa: F401
from . import linalg  # noqa: F401
from . import fft  # noqa: F401
from ._sorting import unique_all, unique_counts, unique_inverse, unique_values  # noqa: F401
from ._stats import (cumulative_logsumexp, cumulative_prod, cumulative_sum, diff, logsumexp,  # noqa: F401
                     reduce_hypot)
from ._expr import Expression, evaluate, fuse  # noqa: F401

import builtins as _builtins
import math as _math
import operator as _operator

__array_api_version__ = "2024.12"
__version__ = _usmarr.library_version

bool = _bool_dtype
e = _math.e
inf = _math.inf
nan = _math.nan
pi = _math.pi
newaxis = None


def broadcast_shapes(*shapes):
    """The shape that arrays of `shapes` broadcast to (the standard's 2025.12 function, NumPy's
    `broadcast_shapes`): shape arithmetic only, no array is made."""
    result = []
    for k, shape in enumerate(shapes):
        shape = tuple(_operator.index(n) for n in shape)
        if _builtins.any(n < 0 for n in shape):
            raise ValueError("usmarr.broadcast_shapes: shape %r of argument %d has a negative extent" % (shape, k))
        lead = len(shape) - len(result)
        if lead > 0:
            result = list(shape[:lead]) + result
        for i, n in enumerate(shape[_builtins.max(lead, 0):]):
            j = len(result) - len(shape) + _builtins.max(lead, 0) + i
            if result[j] == 1:
                result[j] = n
            elif n != 1 and n != result[j]:
                raise ValueError("usmarr.broadcast_shapes: shape mismatch: argument %d has shape %r, which does not "
                                 "broadcast with %r (the shape of the arguments before it)" % (k, shape, tuple(result)))
    return tuple(result)


def clip(x, /, min=None, max=None):
    """Clamps x to [min, max]; either bound may be None.  The dtype stays x's."""
    if min is None and max is None:
        return asarray(x, copy=True)
    if min is None:
        return _usmarr.minimum(x, max)
    if max is None:
        return _usmarr.maximum(x, min)
    return _usmarr.clip(x, min, max)




# ---- linear algebra where NumPy has it in its main namespace (NumPy's signatures) ------------

def diagonal(a, offset=0, axis1=0, axis2=1):
    """NumPy's `diagonal`: the diagonal `offset` of the matrices in axes (axis1, axis2), as a
    view whose last dim is the diagonal (usmarr.linalg.diagonal works on the last two axes)."""
    return linalg.diagonal(_usmarr.moveaxis(a, (axis1, axis2), (-2, -1)), offset=offset)


def trace(a, offset=0, axis1=0, axis2=1, dtype=None):
    """NumPy's `trace`: the sum of diagonal `offset` of the matrices in axes (axis1, axis2)."""
    return linalg.trace(_usmarr.moveaxis(a, (axis1, axis2), (-2, -1)), offset=offset, dtype=dtype)


def outer(a, b):
    """NumPy's `outer`: the outer product of a and b, each flattened first."""
    return linalg.outer(_usmarr.reshape(a, (-1,)), _usmarr.reshape(b, (-1,)))


def cross(a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
    """NumPy's `cross` of 3-vectors: the vectors along axisa of a and axisb of b (or `axis`
    for all three), the result's along axisc."""
    if axis is not None:
        axisa = axisb = axisc = axis
    r = linalg.cross(_usmarr.moveaxis(a, axisa, -1), _usmarr.moveaxis(b, axisb, -1), axis=-1)
    return _usmarr.moveaxis(r, -1, axisc)
