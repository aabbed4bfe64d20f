"""Linear algebra of the array API as compositions of the library's broadcasting multiply
and sum (the library has no matrix product kernel; see doc/python.md)."""

import math as _math

from . import _usmarr


def matrix_transpose(x, /):
    """The last two axes exchanged (a view)."""
    if x.ndim < 2:
        raise ValueError("usmarr.matrix_transpose: x needs at least 2 dimensions")
    return _usmarr.swapaxes(x, -1, -2)


def matmul(x1, x2, /):
    """The matrix product with NumPy's rules for 1-d operands and batch broadcasting."""
    x1 = _usmarr.asarray(x1)
    x2 = _usmarr.asarray(x2, device=x1.device)
    if x1.ndim == 0 or x2.ndim == 0:
        raise ValueError("usmarr.matmul: 0-d operands are not allowed")
    a = _usmarr.expand_dims(x1, axis=0) if x1.ndim == 1 else x1
    b = _usmarr.expand_dims(x2, axis=-1) if x2.ndim == 1 else x2
    if a.shape[-1] != b.shape[-2]:
        raise ValueError(f"usmarr.matmul: shapes {x1.shape} and {x2.shape} do not align")
    # (..., n, k, 1) * (..., 1, k, m) summed over k
    product = _usmarr.multiply(_usmarr.expand_dims(a, axis=-1), _usmarr.expand_dims(b, axis=-3))
    r = _usmarr.sum(product, axis=-2, dtype=product.dtype)
    if x1.ndim == 1:
        r = _usmarr.squeeze(r, axis=-2)
    if x2.ndim == 1:
        r = _usmarr.squeeze(r, axis=-1)
    return r


def vecdot(x1, x2, /, *, axis=-1):
    """sum(conj(x1) * x2) along an axis, the operands broadcast."""
    x1 = _usmarr.asarray(x1)
    x2 = _usmarr.asarray(x2, device=x1.device)
    if x1.shape[axis] != x2.shape[axis]:
        raise ValueError("usmarr.vecdot: the contracted axes differ in size")
    c = _usmarr.conj(x1) if x1.dtype.kind == "c" else x1
    product = _usmarr.multiply(c, x2)
    return _usmarr.sum(product, axis=axis, dtype=product.dtype)


def tensordot(x1, x2, /, *, axes=2):
    """Contraction over axes of x1 and x2 (an int or two sequences), as a matmul."""
    if isinstance(axes, int):
        if axes < 0:
            raise ValueError("usmarr.tensordot: axes must be non-negative")
        a1 = list(range(x1.ndim - axes, x1.ndim))
        a2 = list(range(axes))
    else:
        a1, a2 = [list(a) if not isinstance(a, int) else [a] for a in axes]
    a1 = [a % x1.ndim for a in a1]
    a2 = [a % x2.ndim for a in a2]
    free1 = [a for a in range(x1.ndim) if a not in a1]
    free2 = [a for a in range(x2.ndim) if a not in a2]
    # explicit sizes: a -1 is ambiguous for zero-size operands
    k = _math.prod(x1.shape[a] for a in a1)
    m = _math.prod(x1.shape[a] for a in free1)
    n = _math.prod(x2.shape[a] for a in free2)
    left = _usmarr.reshape(_usmarr.permute_dims(x1, tuple(free1 + a1)), (m, k))
    right = _usmarr.reshape(_usmarr.permute_dims(x2, tuple(a2 + free2)), (k, n))
    r = matmul(left, right)
    return _usmarr.reshape(r, tuple(x1.shape[a] for a in free1) + tuple(x2.shape[a] for a in free2))
