"""The cumulative functions (array API 2024.12 signatures, with include_initial), diff, and
dpctl's logsumexp / reduce_hypot / cumulative_logsumexp: thin wrappers of usmarr/stats.h
(doc/ops.md)."""

import operator as _operator

from . import _usmarr

_SUM, _PROD, _LOGSUMEXP = 0, 1, 2


def _cumulative(op, name, x, axis, dtype, include_initial):
    if axis is None and x.ndim > 1:
        raise ValueError(f"usmarr.{name}: axis is required for arrays of more than one dimension")
    if dtype is not None and x.dtype != dtype:
        x = _usmarr.astype(x, dtype)
    r = _usmarr._cumulative(op, x, axis=0 if axis is None and x.ndim == 1 else axis,
                            include_initial=bool(include_initial))
    if dtype is not None and r.dtype != dtype:
        r = _usmarr.astype(r, dtype)
    return r


def cumulative_sum(x, /, *, axis=None, dtype=None, include_initial=False):
    """The cumulative sum along an axis (required for arrays of more than one dimension);
    include_initial starts every line with 0."""
    return _cumulative(_SUM, "cumulative_sum", x, axis, dtype, include_initial)


def cumulative_prod(x, /, *, axis=None, dtype=None, include_initial=False):
    """The cumulative product along an axis (required for arrays of more than one dimension);
    include_initial starts every line with 1."""
    return _cumulative(_PROD, "cumulative_prod", x, axis, dtype, include_initial)


def cumulative_logsumexp(x, /, *, axis=None, dtype=None, include_initial=False):
    """dpctl's cumulative_logsumexp (NumPy's logaddexp.accumulate); include_initial starts
    every line with -inf.  Real dtypes only; integers give float64."""
    return _cumulative(_LOGSUMEXP, "cumulative_logsumexp", x, axis, dtype, include_initial)


def _reduce(name, x, axis, dtype, keepdims):
    if dtype is not None and x.dtype != dtype:
        x = _usmarr.astype(x, dtype)
    return _usmarr._stats_reduce(name, x, axis=axis, keepdims=bool(keepdims))


def logsumexp(x, /, *, axis=None, dtype=None, keepdims=False):
    """dpctl's logsumexp: log(sum(exp(x))) over the axes, without overflow (NumPy's
    logaddexp.reduce).  Real dtypes only; integers give float64."""
    return _reduce("logsumexp", x, axis, dtype, keepdims)


def reduce_hypot(x, /, *, axis=None, dtype=None, keepdims=False):
    """dpctl's reduce_hypot: sqrt(sum(x**2)) over the axes, without overflow (NumPy's
    hypot.reduce).  Real dtypes only; integers give float64."""
    return _reduce("reduce_hypot", x, axis, dtype, keepdims)


def _integer(function, name, value):
    try:
        return _operator.index(value)
    except TypeError:
        raise TypeError(f"usmarr.{function}: {name} must be an integer, not {type(value).__name__}") from None


def diff(x, /, n=1, axis=-1, *, prepend=None, append=None):
    """The n-th discrete difference along an axis (array API 2024.12, NumPy's diff).  n and
    axis are the standard's keywords and also NumPy's positional arguments, in NumPy's order
    (diff(x, 2), diff(x, 1, 0)); prepend and append are keywords only."""
    return _usmarr._diff(x, _integer("diff", "axis", axis), _integer("diff", "n", n), prepend, append)
