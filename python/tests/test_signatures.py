"""inspect.signature of every public callable of the package, as CPython's builtins have one
(a __text_signature__ in the C functions' docstrings): scikit-learn reads
inspect.signature(xp.sum) to learn whether sum takes dtype.  The array API standard's
functions (2024.12; isin and broadcast_shapes from 2025.12) have the standard's parameters,
from a table written from its signatures (array_api_stubs)."""

import inspect
import types

import pytest

import usmarr
import usmarr.linalg
import usmarr.storage

MODULES = [usmarr, usmarr.linalg, usmarr.storage]

# The standard's signatures of the functions the package has ("linalg." for usmarr.linalg,
# "Array." for methods, "info." for the inspection namespace's).
STANDARD = {
    "abs": "(x, /)",
    "acos": "(x, /)",
    "acosh": "(x, /)",
    "add": "(x1, x2, /)",
    "all": "(x, /, *, axis=None, keepdims=False)",
    "any": "(x, /, *, axis=None, keepdims=False)",
    "arange": "(start, /, stop=None, step=1, *, dtype=None, device=None)",
    "argmax": "(x, /, *, axis=None, keepdims=False)",
    "argmin": "(x, /, *, axis=None, keepdims=False)",
    "argsort": "(x, /, *, axis=-1, descending=False, stable=True)",
    "asarray": "(obj, /, *, dtype=None, device=None, copy=None)",
    "asin": "(x, /)",
    "asinh": "(x, /)",
    "astype": "(x, dtype, /, *, copy=True, device=None)",
    "atan": "(x, /)",
    "atan2": "(x1, x2, /)",
    "atanh": "(x, /)",
    "bitwise_and": "(x1, x2, /)",
    "bitwise_invert": "(x, /)",
    "bitwise_left_shift": "(x1, x2, /)",
    "bitwise_or": "(x1, x2, /)",
    "bitwise_right_shift": "(x1, x2, /)",
    "bitwise_xor": "(x1, x2, /)",
    "broadcast_arrays": "(*arrays)",
    "broadcast_shapes": "(*shapes)",  # 2025.12
    "broadcast_to": "(x, /, shape)",
    "can_cast": "(from_, to, /)",
    "ceil": "(x, /)",
    "clip": "(x, /, min=None, max=None)",
    "concat": "(arrays, /, *, axis=0)",
    "conj": "(x, /)",
    "copysign": "(x1, x2, /)",
    "cos": "(x, /)",
    "cosh": "(x, /)",
    "count_nonzero": "(x, /, *, axis=None, keepdims=False)",
    "cumulative_prod": "(x, /, *, axis=None, dtype=None, include_initial=False)",
    "cumulative_sum": "(x, /, *, axis=None, dtype=None, include_initial=False)",
    "diff": "(x, /, *, axis=-1, n=1, prepend=None, append=None)",
    "divide": "(x1, x2, /)",
    "empty": "(shape, *, dtype=None, device=None)",
    "empty_like": "(x, /, *, dtype=None, device=None)",
    "equal": "(x1, x2, /)",
    "exp": "(x, /)",
    "expand_dims": "(x, /, *, axis=0)",
    "expm1": "(x, /)",
    "eye": "(n_rows, n_cols=None, /, *, k=0, dtype=None, device=None)",
    "finfo": "(type, /)",
    "flip": "(x, /, *, axis=None)",
    "floor": "(x, /)",
    "floor_divide": "(x1, x2, /)",
    "from_dlpack": "(x, /, *, device=None, copy=None)",
    "full": "(shape, fill_value, *, dtype=None, device=None)",
    "full_like": "(x, /, fill_value, *, dtype=None, device=None)",
    "greater": "(x1, x2, /)",
    "greater_equal": "(x1, x2, /)",
    "hypot": "(x1, x2, /)",
    "iinfo": "(type, /)",
    "imag": "(x, /)",
    "isdtype": "(dtype, kind)",
    "isfinite": "(x, /)",
    "isin": "(x1, x2, /, *, invert=False)",  # 2025.12
    "isinf": "(x, /)",
    "isnan": "(x, /)",
    "less": "(x1, x2, /)",
    "less_equal": "(x1, x2, /)",
    "linalg.cholesky": "(x, /, *, upper=False)",
    "linalg.cross": "(x1, x2, /, *, axis=-1)",
    "linalg.det": "(x, /)",
    "linalg.diagonal": "(x, /, *, offset=0)",
    "linalg.inv": "(x, /)",
    "linalg.matmul": "(x1, x2, /)",
    "linalg.matrix_norm": "(x, /, *, keepdims=False, ord='fro')",
    "linalg.matrix_power": "(x, n, /)",
    "linalg.outer": "(x1, x2, /)",
    "linalg.slogdet": "(x, /)",
    "linalg.solve": "(x1, x2, /)",
    "linalg.trace": "(x, /, *, offset=0, dtype=None)",
    "linalg.vector_norm": "(x, /, *, axis=None, keepdims=False, ord=2)",
    "linalg.matrix_transpose": "(x, /)",
    "linalg.tensordot": "(x1, x2, /, *, axes=2)",
    "linalg.vecdot": "(x1, x2, /, *, axis=-1)",
    "linspace": "(start, stop, /, num, *, dtype=None, device=None, endpoint=True)",
    "log": "(x, /)",
    "log10": "(x, /)",
    "log1p": "(x, /)",
    "log2": "(x, /)",
    "logaddexp": "(x1, x2, /)",
    "logical_and": "(x1, x2, /)",
    "logical_not": "(x, /)",
    "logical_or": "(x1, x2, /)",
    "logical_xor": "(x1, x2, /)",
    "matmul": "(x1, x2, /)",
    "matrix_transpose": "(x, /)",
    "max": "(x, /, *, axis=None, keepdims=False)",
    "maximum": "(x1, x2, /)",
    "mean": "(x, /, *, axis=None, keepdims=False)",
    "meshgrid": "(*arrays, indexing='xy')",
    "min": "(x, /, *, axis=None, keepdims=False)",
    "minimum": "(x1, x2, /)",
    "moveaxis": "(x, source, destination, /)",
    "multiply": "(x1, x2, /)",
    "negative": "(x, /)",
    "nextafter": "(x1, x2, /)",
    "nonzero": "(x, /)",
    "not_equal": "(x1, x2, /)",
    "ones": "(shape, *, dtype=None, device=None)",
    "ones_like": "(x, /, *, dtype=None, device=None)",
    "permute_dims": "(x, /, axes)",
    "positive": "(x, /)",
    "pow": "(x1, x2, /)",
    "prod": "(x, /, *, axis=None, dtype=None, keepdims=False)",
    "real": "(x, /)",
    "reciprocal": "(x, /)",
    "remainder": "(x1, x2, /)",
    "repeat": "(x, repeats, /, *, axis=None)",
    "reshape": "(x, /, shape, *, copy=None)",
    "result_type": "(*arrays_and_dtypes)",
    "roll": "(x, /, shift, *, axis=None)",
    "round": "(x, /)",
    "searchsorted": "(x1, x2, /, *, side='left', sorter=None)",
    "sign": "(x, /)",
    "signbit": "(x, /)",
    "sin": "(x, /)",
    "sinh": "(x, /)",
    "sort": "(x, /, *, axis=-1, descending=False, stable=True)",
    "sqrt": "(x, /)",
    "square": "(x, /)",
    "squeeze": "(x, /, axis)",
    "stack": "(arrays, /, *, axis=0)",
    "std": "(x, /, *, axis=None, correction=0.0, keepdims=False)",
    "subtract": "(x1, x2, /)",
    "sum": "(x, /, *, axis=None, dtype=None, keepdims=False)",
    "take": "(x, indices, /, *, axis=None)",
    "take_along_axis": "(x, indices, /, *, axis=-1)",
    "tan": "(x, /)",
    "tanh": "(x, /)",
    "tensordot": "(x1, x2, /, *, axes=2)",
    "tile": "(x, repetitions, /)",
    "tril": "(x, /, *, k=0)",
    "triu": "(x, /, *, k=0)",
    "trunc": "(x, /)",
    "unique_all": "(x, /)",
    "unique_counts": "(x, /)",
    "unique_inverse": "(x, /)",
    "unique_values": "(x, /)",
    "unstack": "(x, /, *, axis=0)",
    "var": "(x, /, *, axis=None, correction=0.0, keepdims=False)",
    "vecdot": "(x1, x2, /, *, axis=-1)",
    "where": "(condition, x1, x2, /)",
    "zeros": "(shape, *, dtype=None, device=None)",
    "zeros_like": "(x, /, *, dtype=None, device=None)",
    "__array_namespace_info__": "()",
    "info.capabilities": "()",
    "info.default_device": "()",
    "info.default_dtypes": "(*, device=None)",
    "info.devices": "()",
    "info.dtypes": "(*, device=None, kind=None)",
    "Array.to_device": "(self, device, /, *, stream=None)",
    "Array.__array_namespace__": "(self, /, *, api_version=None)",
    "Array.__dlpack__": "(self, /, *, stream=None, max_version=None, dl_device=None, copy=None)",
    "Array.__dlpack_device__": "(self, /)",
}

# Keyword-only parameters of the standard that the package also takes positionally, in
# NumPy's order, because code written for NumPy passes them so (scikit-learn's xp.diff(fps, 2)).
NUMPY_POSITIONAL = {
    "diff": {"n", "axis"},
    "expand_dims": {"axis"},
    "take_along_axis": {"axis"},
}


def _standard_signature(text):
    namespace = {}
    exec(f"def f{text}: pass", namespace)
    return inspect.signature(namespace["f"])


def _lookup(key):
    head, _, name = key.rpartition(".")
    owner = {"": usmarr, "linalg": usmarr.linalg, "Array": usmarr.Array,
             "info": usmarr.__array_namespace_info__()}[head]
    return getattr(owner, name)


def _public_callables():
    """(name, callable) of every public callable of the package's modules, and of the public
    methods of its classes; exceptions are left out (they take *args, and CPython's own
    have no signature either)."""
    found = {}
    for module in MODULES:
        for name in dir(module):
            obj = getattr(module, name)
            if name.startswith("_") or isinstance(obj, types.ModuleType) or not callable(obj):
                continue
            if isinstance(obj, type) and issubclass(obj, BaseException):
                continue
            found[f"{module.__name__}.{name}"] = obj
            if isinstance(obj, type) and obj.__module__.startswith("usmarr"):
                for method_name, method in vars(obj).items():
                    if callable(method) and (not method_name.startswith("_") or f"Array.{method_name}" in STANDARD):
                        found[f"{module.__name__}.{name}.{method_name}"] = getattr(obj, method_name)
    for key in STANDARD:
        found.setdefault(key, _lookup(key))
    return sorted(found.items())


PUBLIC = _public_callables()


def test_the_walk_finds_the_namespace():
    names = dict(PUBLIC)
    assert len(PUBLIC) > 150
    for name in ("usmarr.sum", "usmarr.add", "usmarr.linalg.vecdot", "usmarr.storage.zeros", "usmarr.Array.to_device",
                 "usmarr.Array.to_numpy", "usmarr.Expression", "usmarr.diff"):
        assert name in names, name


@pytest.mark.parametrize("name, function", PUBLIC, ids=[name for name, _ in PUBLIC])
def test_every_public_callable_has_a_signature(name, function):
    inspect.signature(function)


def test_sum_takes_dtype_as_scikit_learn_asks():
    """scikit-learn's StandardScaler on float32: "dtype" in inspect.signature(xp.sum).parameters"""
    assert "dtype" in inspect.signature(usmarr.sum).parameters


@pytest.mark.parametrize("key", sorted(STANDARD))
def test_signature_is_the_standards(key):
    """The standard's parameters in its order, of its kinds, with its defaults.  The package
    may add parameters with defaults (out=, usm_type=, order=): keyword-only, or after the
    standard's positional ones.  A standard parameter without a default may have one."""
    want = list(_standard_signature(STANDARD[key]).parameters.values())
    have = inspect.signature(_lookup(key)).parameters
    numpy_positional = NUMPY_POSITIONAL.get(key, set())
    positional = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    for p in want:
        assert p.name in have, f"{key}: no parameter {p.name}, signature {inspect.signature(_lookup(key))}"
        q = have[p.name]
        if p.name in numpy_positional:
            assert (p.kind, q.kind) == (inspect.Parameter.KEYWORD_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD), key
        else:
            assert q.kind == p.kind, f"{key}: {p.name} is {q.kind.description}, the standard's is {p.kind.description}"
        if p.default is not inspect.Parameter.empty:
            assert q.default == p.default and type(q.default) is type(p.default), \
                f"{key}: {p.name}={q.default!r}, the standard's default is {p.default!r}"
    standard_names = [p.name for p in want]
    want_positional = [p.name for p in want if p.kind in positional or p.kind == inspect.Parameter.VAR_POSITIONAL]
    have_positional = [n for n, q in have.items() if q.kind in positional or q.kind == inspect.Parameter.VAR_POSITIONAL]
    assert have_positional[:len(want_positional)] == want_positional, f"{key}: positional parameters {have_positional}"
    for n, q in have.items():
        if n not in standard_names:
            assert q.default is not inspect.Parameter.empty or q.kind == inspect.Parameter.VAR_KEYWORD, \
                f"{key}: {n} is not the standard's and has no default"
