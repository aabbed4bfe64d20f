"""The set functions for complex128, which the library's sort keys (64 bits) do not cover:
a composition of library calls.  Three stable argsorts (by the imaginary part, by the real
part, by the NaN class) give NumPy's order for complex numbers, R+Rj < R+nanj < nan+Rj <
nan+nanj with numbers lexicographic; the runs of equal values then come from not_equal,
nonzero and a cumulative sum.  Every other dtype is one call of the C functions
(python/src/sort.c), and so is complex128 once the library takes it: the composition runs
only when the library refuses complex128 as unsupported."""

from . import _usmarr

_complex128 = _usmarr.complex128


def _complex128_unique(x, *, indices=False, inverse=False, counts=False):
    """(values, indices, inverse_indices, counts), None where not asked for."""
    n = x.size
    flat = _usmarr.reshape(x, (n,))
    real, imag = _usmarr.real(flat), _usmarr.imag(flat)
    order = _usmarr.argsort(imag)
    order = _usmarr.take(order, _usmarr.argsort(_usmarr.take(real, order)))
    nan_class = _usmarr.add(_usmarr.multiply(_usmarr.astype(_usmarr.isnan(real), _usmarr.int8), 2),
                            _usmarr.astype(_usmarr.isnan(imag), _usmarr.int8))
    order = _usmarr.take(order, _usmarr.argsort(_usmarr.take(nan_class, order)))
    ordered = _usmarr.take(flat, order)
    # a run starts where a value differs from the one before (NaNs differ from everything)
    head = _usmarr.concat([_usmarr.full((min(n, 1),), True, device=x.device),
                           _usmarr.not_equal(ordered[1:], ordered[:-1])])
    values = _usmarr.extract(head, ordered)
    starts = _usmarr.nonzero(head)[0] if indices or counts else None
    first = _usmarr.take(order, starts) if indices else None
    run_counts = None
    if counts:
        ends = _usmarr.concat([starts[1:], _usmarr.full((min(n, 1),), n, dtype=_usmarr.int64, device=x.device)])
        run_counts = _usmarr.subtract(ends, starts)
    inverse_indices = None
    if inverse:
        runs = _usmarr.subtract(_usmarr._cumulative_sum(head, axis=0), 1)
        inverse_indices = _usmarr.empty((n,), dtype=_usmarr.int64, device=x.device)
        _usmarr.put(inverse_indices, order, runs)
        inverse_indices = _usmarr.reshape(inverse_indices, x.shape)
    return values, first, inverse_indices, run_counts


def _library_or_composition(library_function, x, compose):
    """The library's call, or the composition where it refuses x only because it is
    complex128 (its sort keys stop at 64 bits)."""
    try:
        return library_function(x)
    except _usmarr.UsmarrError as e:
        if not (isinstance(x, _usmarr.Array) and x.dtype == _complex128
                and getattr(e, "name", "") == "USMARR_ERROR_UNSUPPORTED"):
            raise
    return compose()


def unique_values(x, /):
    """The distinct elements of x, sorted (NaNs each distinct)."""
    return _library_or_composition(_usmarr.unique_values, x, lambda: _complex128_unique(x)[0])


def unique_counts(x, /):
    """UniqueCountsResult(values, counts)."""
    return _library_or_composition(_usmarr.unique_counts, x, lambda: _usmarr.UniqueCountsResult(
        *_complex128_unique(x, counts=True)[::3]))


def unique_inverse(x, /):
    """UniqueInverseResult(values, inverse_indices): values[inverse_indices] == x."""
    return _library_or_composition(_usmarr.unique_inverse, x, lambda: _usmarr.UniqueInverseResult(
        *_complex128_unique(x, inverse=True)[::2]))


def unique_all(x, /):
    """UniqueAllResult(values, indices, inverse_indices, counts)."""
    return _library_or_composition(_usmarr.unique_all, x, lambda: _usmarr.UniqueAllResult(
        *_complex128_unique(x, indices=True, inverse=True, counts=True)))
