"""Fused expressions: usmarr.evaluate (numexpr's spirit) and usmarr.fuse (cupy.fuse's).

Both build a usmarr.Expression, an elementwise expression (or a reduction of one) that the
library parses once and runs as one kernel per device, generated from the expression:
``evaluate("a * b + exp(c)")`` reads each array once and writes once where the same
expression in Python runs three kernels and writes two temporaries (doc/expressions.md).
"""

import sys

from . import _usmarr

Expression = _usmarr.Expression

_CACHE_SIZE = 256
_cache = {}


def _expression(text):
    e = _cache.get(text)
    if e is None:
        if len(_cache) >= _CACHE_SIZE:
            _cache.pop(next(iter(_cache)))
        e = _cache[text] = Expression(text)
    return e


def evaluate(ex, local_dict=None, global_dict=None, *, out=None, axis=None, keepdims=False):
    """Evaluates the expression text `ex` as one fused kernel.

    Names are looked up in `local_dict` and `global_dict`, by default the caller's locals
    and globals (numexpr's rule); arrays, Python numbers (weak scalars, as in NumPy 2) and
    NumPy scalars (typed) are operands.  An expression ending in a reduction
    (``"sum(a * b)"``) takes `axis` and `keepdims`.  The parsed expression is cached by its
    text; its kernels are cached by the library (memory and disk).
    """
    e = _expression(ex)
    frame = None
    if local_dict is None or global_dict is None:
        frame = sys._getframe(1)
    ld = frame.f_locals if local_dict is None else local_dict
    gd = frame.f_globals if global_dict is None else global_dict
    args = []
    for name in e.names:
        if name in ld:
            args.append(ld[name])
        elif name in gd:
            args.append(gd[name])
        else:
            raise NameError("name %r of the expression %r is not defined" % (name, ex))
    if e.reduction is None:
        if axis is not None or keepdims:
            raise TypeError("axis and keepdims apply to an expression that ends in a reduction")
        return e(*args, out=out)
    return e(*args, out=out, axis=axis, keepdims=keepdims)


# ---- usmarr.fuse: tracing a Python function into one expression ---------------------------------

_OPERATORS = {
    "add": "+", "subtract": "-", "multiply": "*", "divide": "/", "floor_divide": "//", "remainder": "%",
    "pow": "**", "bitwise_and": "&", "bitwise_or": "|", "bitwise_xor": "^", "left_shift": "<<",
    "right_shift": ">>", "less": "<", "less_equal": "<=", "greater": ">", "greater_equal": ">=", "equal": "==",
    "not_equal": "!=",
}
_REDUCTIONS = ("sum", "prod", "mean", "min", "max", "all", "any", "argmin", "argmax", "count_nonzero")


def _literal(v):
    if isinstance(v, bool):
        return "True" if v else "False"
    if isinstance(v, (int, float, complex)):
        return "(%r)" % v
    return None


class _Trace:
    """What one trace records: the operands' names, and the reduction at the end."""

    def __init__(self):
        self.reduction = None  # (axis, keepdims)


class _Tracer:
    """A value inside a fused function while it is traced: operators and the usmarr
    functions it meets write the expression's text instead of computing."""

    __slots__ = ("_text", "_trace", "_reduced")

    def __init__(self, text, trace, reduced=False):
        self._text = text
        self._trace = trace
        self._reduced = reduced

    def _arg(self, v):
        if isinstance(v, _Tracer):
            if v._trace is not self._trace:
                raise TypeError("usmarr.fuse: a value of another traced function")
            if v._reduced:
                raise TypeError("usmarr.fuse: a reduction may only be the function's result")
            return v._text
        t = _literal(v)
        if t is None:
            raise TypeError("usmarr.fuse: %r is neither an argument of the fused function nor a Python number "
                            "(pass arrays as arguments)" % (type(v).__name__,))
        return t

    def _call(self, name, args):
        return _Tracer("%s(%s)" % (name, ", ".join(self._arg(a) for a in args)), self._trace)

    def _binary(self, name, a, b):
        return _Tracer("(%s %s %s)" % (self._arg(a), _OPERATORS[name], self._arg(b)), self._trace)

    def __usmarr_function__(self, name, args, kwargs):
        kwargs = kwargs or {}
        if name in _REDUCTIONS:
            if self._trace.reduction is not None:
                raise TypeError("usmarr.fuse: one reduction, at the end of the function")
            axis, keepdims = kwargs.get("axis"), bool(kwargs.get("keepdims", False))
            unknown = set(kwargs) - {"axis", "keepdims"}
            if unknown:
                raise TypeError("usmarr.fuse: %s(...) with %s" % (name, ", ".join(sorted(unknown))))
            self._trace.reduction = (axis, keepdims)
            return _Tracer("%s(%s)" % (name, self._arg(args[0])), self._trace, True)
        if name == "astype":
            dtype = args[1] if len(args) > 1 else kwargs.get("dtype")
            return args[0].astype(dtype)
        if kwargs:
            raise TypeError("usmarr.fuse: %s(...) with keyword arguments" % name)
        return self._call(name, args)

    def astype(self, dtype, copy=True):
        return _Tracer("astype(%s, %s)" % (self._arg(self), str(dtype)), self._trace)

    def __bool__(self):
        raise TypeError("usmarr.fuse: the function branches on an array's values; use where(c, a, b)")

    def __neg__(self):
        return self._call("negative", (self,))

    def __pos__(self):
        return self._call("positive", (self,))

    def __invert__(self):
        return self._call("bitwise_invert", (self,))

    def __abs__(self):
        return self._call("abs", (self,))


def _operator(name, reflected):
    def method(self, other):
        return self._binary(name, other, self) if reflected else self._binary(name, self, other)
    return method


for _name, _sym in _OPERATORS.items():
    _dunder = {"add": "add", "subtract": "sub", "multiply": "mul", "divide": "truediv", "floor_divide": "floordiv",
               "remainder": "mod", "pow": "pow", "bitwise_and": "and", "bitwise_or": "or", "bitwise_xor": "xor",
               "left_shift": "lshift", "right_shift": "rshift", "less": "lt", "less_equal": "le", "greater": "gt",
               "greater_equal": "ge", "equal": "eq", "not_equal": "ne"}[_name]
    setattr(_Tracer, "__%s__" % _dunder, _operator(_name, False))
    if _name in ("add", "subtract", "multiply", "divide", "floor_divide", "remainder", "pow", "bitwise_and",
                 "bitwise_or", "bitwise_xor", "left_shift", "right_shift"):
        setattr(_Tracer, "__r%s__" % _dunder, _operator(_name, True))
_Tracer.__hash__ = None


class _Fused:
    """A function of arrays traced once per signature into one Expression."""

    def __init__(self, func):
        self._func = func
        self._traces = {}
        self.__name__ = getattr(func, "__name__", "fused")
        self.__doc__ = getattr(func, "__doc__", None)
        self.__wrapped__ = func

    def _signature(self, args):
        sig = []
        for a in args:
            if isinstance(a, _usmarr.Array):
                sig.append((a.dtype, a.ndim))
            else:
                sig.append(type(a))
        return tuple(sig)

    def _trace(self, n):
        trace = _Trace()
        names = ["x%d" % i for i in range(n)]
        result = self._func(*[_Tracer(name, trace) for name in names])
        if isinstance(result, _Tracer):
            text = result._text
        else:
            text = _literal(result)
            if text is None:
                raise TypeError("usmarr.fuse: the function returns %r, not one value of its arguments"
                                % type(result).__name__)
        return Expression(text, names), trace.reduction

    def __call__(self, *args):
        key = self._signature(args)
        entry = self._traces.get(key)
        if entry is None:
            entry = self._traces[key] = self._trace(len(args))
        expr, reduction = entry
        if reduction is None:
            return expr(*args)
        axis, keepdims = reduction
        return expr(*args, axis=axis, keepdims=keepdims)


def fuse(func=None, *, kernel_name=None):
    """Decorator: the function of arrays runs as one fused kernel, traced once per
    signature (the arguments' dtypes and ranks, the Python types of scalar arguments).

    Inside, use operators, the usmarr elementwise functions (usmarr.exp, usmarr.where, ...),
    x.astype(dtype) and Python numbers; the result may be one reduction (usmarr.sum(v,
    axis=...)) with a constant axis.  The function must not branch on array values.
    `kernel_name` is accepted for cupy.fuse's signature and ignored.
    """
    if func is None:
        return lambda f: _Fused(f)
    return _Fused(func)
