"""Storages (GT4Py's GDP 3) as a NumPy duck array (doc/python.md, doc/storage.md).

A :class:`Storage` is a library storage (include/usmarr/storage.h): up to three axes named by
"IJK" letters, a halo, an aligned index, an alignment in bytes, a layout, and a kind (host,
device, shared, or a managed host/device pair whose sync state the library tracks).  NumPy
functions reach the library through ``__array_ufunc__`` (elementwise functions with the
storages' named-axes broadcasting, and ufunc reductions) and ``__array_function__``; each is
one call of the library.  What neither covers raises NumPy's ``TypeError`` (no silent host
fallback), except ``numpy.asarray(storage)``, which is a view of the host side.
"""

import builtins as _builtins
import sys as _sys

from . import _usmarr

__all__ = ["Storage", "empty", "zeros", "ones", "full", "empty_like", "zeros_like", "ones_like",
           "full_like", "storage", "as_storage", "evaluate"]

# NumPy ufunc names that the library spells otherwise (the rest are the same words).
_RENAMED = {"absolute": "abs", "arccos": "acos", "arccosh": "acosh", "arcsin": "asin", "arcsinh": "asinh",
            "arctan": "atan", "arctanh": "atanh", "arctan2": "atan2", "power": "pow", "conjugate": "conj",
            "invert": "bitwise_invert", "bitwise_not": "bitwise_invert"}
# ufunc.reduce: the library's reduction of the same meaning.
_REDUCTIONS = {"add": "sum", "multiply": "prod", "maximum": "max", "minimum": "min", "logical_and": "all",
               "logical_or": "any"}


def _handle(x):
    return x._h if isinstance(x, Storage) else x


class Storage:
    """A storage of the library; make one with the module's functions (empty, zeros, storage...)."""

    __slots__ = ("_h",)

    def __init__(self, handle):
        if not isinstance(handle, _usmarr._Storage):
            raise TypeError("usmarr.storage.Storage: use empty(), zeros(), storage() or as_storage() to make one")
        self._h = handle

    # ---- parameters ------------------------------------------------------------------------
    def _info(self, key):
        return _usmarr._storage_info(self._h)[key]

    shape = property(lambda self: self._info("shape"), doc="the full extent per axis, halo included")
    axes = property(lambda self: self._info("axes"), doc="the axis letters, e.g. 'IJK'")
    strides = property(lambda self: self._info("strides"), doc="strides in elements, axes order")
    halo = property(lambda self: self._info("halo"), doc="(lower, upper) per axis")
    dtype = property(lambda self: self._info("dtype"))
    aligned_index = property(lambda self: self._info("aligned_index"))
    alignment = property(lambda self: self._info("alignment"), doc="bytes")
    layout = property(lambda self: self._info("layout"), doc="three letters, largest stride first")
    kind = property(lambda self: self._info("kind"), doc="'host', 'device', 'shared' or 'managed'")
    nbytes = property(lambda self: self._info("nbytes"))
    device = property(lambda self: self._info("device"), doc="the usmarr.Device of its USM")
    sync_state = property(lambda self: self._info("sync"),
                          doc="'clean', 'host_dirty' or 'device_dirty' for a managed pair, else 'none'")
    ndim = property(lambda self: len(self._info("shape")))

    def __repr__(self):
        i = _usmarr._storage_info(self._h)
        return (f"usmarr.storage.Storage(axes={i['axes']!r}, shape={i['shape']}, dtype={i['dtype']}, "
                f"kind={i['kind']!r}, halo={i['halo']})")

    # ---- the two sides ---------------------------------------------------------------------
    def host_array(self, write=True):
        """The host side as a usmarr.Array (a device-dirty pair is pulled first; write marks it host dirty)."""
        return _usmarr._storage_side(self._h, False, write)

    def device_array(self, write=True):
        """The device side as a usmarr.Array (a host-dirty pair is pushed first; write marks it device dirty)."""
        return _usmarr._storage_side(self._h, True, write)

    def __array__(self, dtype=None, copy=None):
        import numpy
        host = numpy.asarray(self.host_array(True))  # a view of host USM: NumPy may write to it
        if dtype is not None and numpy.dtype(dtype) != host.dtype:
            return host.astype(dtype)
        return host.copy() if copy else host

    @property
    def __array_interface__(self):
        return self.host_array(True).__array_interface__

    @property
    def __sycl_usm_array_interface__(self):
        if self.kind == "host":
            raise AttributeError("usmarr.storage: a host storage has no device side")
        return self.device_array(True).__sycl_usm_array_interface__

    # ---- views and copies ------------------------------------------------------------------
    def domain_view(self):
        return Storage(_usmarr._storage_view("domain", self._h))

    def transpose(self, axes=None):
        return Storage(_usmarr._storage_view("transpose", self._h, axes))

    def reinterpret(self, axes):
        return Storage(_usmarr._storage_view("reinterpret", self._h, axes))

    def copy(self):
        return Storage(_usmarr._storage_view("copy", self._h))

    T = property(transpose)

    def __getitem__(self, key):
        return Storage(_usmarr._storage_view("index", self._h, _index_text(key)))

    def __setitem__(self, key, value):
        _usmarr._storage_elementwise("positive", (_handle(value),), self[key]._h)

    # ---- synchronisation of a managed pair -------------------------------------------------
    def synchronize(self):
        _usmarr._storage_sync(self._h, "synchronize")

    def host_to_device(self):
        _usmarr._storage_sync(self._h, "host_to_device")

    def device_to_host(self):
        _usmarr._storage_sync(self._h, "device_to_host")

    def set_host_modified(self):
        _usmarr._storage_sync(self._h, "host_modified")

    def set_device_modified(self):
        _usmarr._storage_sync(self._h, "device_modified")

    def set_synchronized(self):
        _usmarr._storage_sync(self._h, "synchronized")

    # ---- NumPy's protocols -----------------------------------------------------------------
    def __array_ufunc__(self, ufunc, method, *inputs, out=None, **kwargs):
        axis = kwargs.pop("axis", 0) if method == "reduce" else None  # ufunc.reduce: axis 0 by default
        if kwargs:
            return NotImplemented
        if out is not None:
            if len(out) != 1 or not isinstance(out[0], Storage):
                return NotImplemented
            out = out[0]
        if method == "__call__":
            name = _RENAMED.get(ufunc.__name__, ufunc.__name__)
            if not hasattr(_usmarr, name):
                return NotImplemented
            r = _usmarr._storage_elementwise(name, tuple(_handle(x) for x in inputs), _handle(out))
            return out if out is not None else Storage(r)
        if method == "reduce" and len(inputs) == 1 and isinstance(inputs[0], Storage):
            name = _REDUCTIONS.get(ufunc.__name__)
            if name is None:
                return NotImplemented
            return inputs[0]._reduce(name, axis, out)
        return NotImplemented

    def _reduce(self, name, axis, out):
        letters = None
        if axis is not None:
            axes = self.axes
            letters = "".join(axes[a] for a in ((axis,) if isinstance(axis, int) else axis))
        r = _usmarr._storage_reduce(name, self._h, letters, _handle(out))
        return out if out is not None else Storage(r)

    def __array_function__(self, func, types, args, kwargs):
        impl = _FUNCTIONS.get(getattr(func, "__name__", None))
        if impl is None or not _builtins.all(issubclass(t, Storage) or t.__module__.startswith("numpy")
                                              for t in types):
            return NotImplemented
        return impl(*args, **kwargs)

    # ---- operators: the same calls as the ufuncs -------------------------------------------
    def _binary(self, name, other, reflected=False):
        ops = (_handle(other), self._h) if reflected else (self._h, _handle(other))
        return Storage(_usmarr._storage_elementwise(name, ops))

    def _inplace(self, name, other):
        _usmarr._storage_elementwise(name, (self._h, _handle(other)), self._h)
        return self

    __add__ = lambda s, o: s._binary("add", o)
    __radd__ = lambda s, o: s._binary("add", o, True)
    __iadd__ = lambda s, o: s._inplace("add", o)
    __sub__ = lambda s, o: s._binary("subtract", o)
    __rsub__ = lambda s, o: s._binary("subtract", o, True)
    __isub__ = lambda s, o: s._inplace("subtract", o)
    __mul__ = lambda s, o: s._binary("multiply", o)
    __rmul__ = lambda s, o: s._binary("multiply", o, True)
    __imul__ = lambda s, o: s._inplace("multiply", o)
    __truediv__ = lambda s, o: s._binary("divide", o)
    __rtruediv__ = lambda s, o: s._binary("divide", o, True)
    __itruediv__ = lambda s, o: s._inplace("divide", o)
    __pow__ = lambda s, o: s._binary("pow", o)
    __lt__ = lambda s, o: s._binary("less", o)
    __le__ = lambda s, o: s._binary("less_equal", o)
    __gt__ = lambda s, o: s._binary("greater", o)
    __ge__ = lambda s, o: s._binary("greater_equal", o)
    __eq__ = lambda s, o: s._binary("equal", o)
    __ne__ = lambda s, o: s._binary("not_equal", o)
    __hash__ = None

    def __neg__(self):
        return Storage(_usmarr._storage_elementwise("negative", (self._h,)))

    def __abs__(self):
        return Storage(_usmarr._storage_elementwise("abs", (self._h,)))


def _index_text(key):
    """Basic indexing (integers, slices, ellipsis) as the library's index text."""
    def item(k):
        if k is Ellipsis:
            return "..."
        if isinstance(k, slice):
            return ":".join("" if v is None else str(int(v)) for v in (k.start, k.stop, k.step))
        if isinstance(k, int) or hasattr(k, "__index__"):
            return str(k.__index__())
        raise IndexError(f"usmarr.storage: only integers, slices and ... index a storage, not {k!r}")
    return ", ".join(item(k) for k in (key if isinstance(key, tuple) else (key,)))


def _options(kwargs, **given):
    options = {k: v for k, v in given.items() if v is not None}
    unknown = set(kwargs) - {"axes", "halo", "aligned_index", "alignment", "layout", "device", "managed", "defaults",
                             "usm_device"}
    if unknown:
        raise TypeError(f"usmarr.storage: unknown keyword arguments {sorted(unknown)}")
    options.update(kwargs)
    return options


def empty(shape, dtype=None, **kwargs):
    """empty(shape, dtype=float64, *, axes, halo, aligned_index, alignment, layout,
    device, managed, defaults); usm_device picks the usmarr.Device."""
    return Storage(_usmarr._storage_new("empty", _options(kwargs, shape=shape, dtype=dtype)))


def zeros(shape, dtype=None, **kwargs):
    return Storage(_usmarr._storage_new("zeros", _options(kwargs, shape=shape, dtype=dtype)))


def ones(shape, dtype=None, **kwargs):
    return Storage(_usmarr._storage_new("ones", _options(kwargs, shape=shape, dtype=dtype)))


def full(shape, fill_value, dtype=None, **kwargs):
    return Storage(_usmarr._storage_new("full", _options(kwargs, shape=shape, dtype=dtype), fill_value))


def _like(fill, data, dtype, kwargs, value=None):
    options = _options(kwargs, dtype=dtype)
    options.setdefault("usm_device", data.device)
    return Storage(_usmarr._storage_new(fill, options, value, data._h))


def empty_like(data, dtype=None, **kwargs):
    return _like("empty", data, dtype, kwargs)


def zeros_like(data, dtype=None, **kwargs):
    return _like("zeros", data, dtype, kwargs)


def ones_like(data, dtype=None, **kwargs):
    return _like("ones", data, dtype, kwargs)


def full_like(data, fill_value, dtype=None, **kwargs):
    return _like("full", data, dtype, kwargs, fill_value)


def storage(data, dtype=None, copy=True, **kwargs):
    """storage(data): a new aligned storage with a copy of data (copy=True), or
    data's USM wrapped (copy=False: a usmarr.Array or USM interface object of the context)."""
    return Storage(_usmarr._storage_from(data, _options(kwargs, dtype=dtype), copy))


def as_storage(data, **kwargs):
    """as_storage: data's USM wrapped without a copy."""
    return storage(data, copy=False, **kwargs)


def evaluate(ex, local_dict=None, global_dict=None, *, axes=None, out=None):
    """A fused expression over storages (usmarr_storage_evaluate, doc/expressions.md): one
    kernel, the storages broadcast by their axis letters.  Names come from `local_dict` and
    `global_dict`, by default the caller's locals and globals; `axes` (letters) for an
    expression that ends in a reduction: ``evaluate("sum(a * b)", axes="K")``."""
    names = _usmarr.Expression(ex).names
    frame = _sys._getframe(1) if local_dict is None or global_dict is None else None
    ld = frame.f_locals if local_dict is None else local_dict
    gd = frame.f_globals if global_dict is None else global_dict
    ops = []
    for name in names:
        if name in ld:
            ops.append(_handle(ld[name]))
        elif name in gd:
            ops.append(_handle(gd[name]))
        else:
            raise NameError("name %r of the expression %r is not defined" % (name, ex))
    r = _usmarr._storage_evaluate(ex, tuple(names), tuple(ops), axes, _handle(out))
    return out if out is not None else Storage(r)


def _reduction(name):
    def reduce(a, axis=None, out=None, keepdims=False):
        if keepdims:
            raise TypeError(f"usmarr.storage: {name} has no keepdims (a reduced axis leaves the storage's axes)")
        return a._reduce(name, axis, out)
    return reduce


_FUNCTIONS = {
    "sum": _reduction("sum"), "prod": _reduction("prod"), "max": _reduction("max"), "amax": _reduction("max"),
    "min": _reduction("min"), "amin": _reduction("min"), "all": _reduction("all"), "any": _reduction("any"),
    "mean": _reduction("mean"),
    "copy": lambda a, **kw: a.copy(),
    "transpose": lambda a, axes=None: a.transpose(None if axes is None else "".join(a.axes[i] for i in axes)),
    "empty_like": lambda a, dtype=None, **kw: empty_like(a, dtype),
    "zeros_like": lambda a, dtype=None, **kw: zeros_like(a, dtype),
    "ones_like": lambda a, dtype=None, **kw: ones_like(a, dtype),
    "full_like": lambda a, fill_value, dtype=None, **kw: full_like(a, fill_value, dtype),
}
