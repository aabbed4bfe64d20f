#!/usr/bin/python3
"""NumPy oracle for the promotion, elementwise and reduction tests.

Run as `$PYTHON_NUMPY tests/gen/gen_ops_cases.py > tests/ops_cases.txt` (the build does it
before `make check`).  NumPy, never the library, computes every expected value; the
library's tests only read this file.  NumPy 2 is the reference (scripts/numpy-oracle.sh
provides it); under NumPy 1.24, its opt-in NEP 50 ("weak") promotion state gives NumPy 2's
scalar rules.

Line formats (one case per line, fields separated by single spaces):
  promote A B R                      np.promote_types(A, B) == R
  cancast FROM TO CASTING 0|1        np.can_cast
  weak A KIND VALUE R|overflow       np.asarray(A-typed) + python scalar VALUE of KIND
  values DTYPE N v0 ... vN-1         the input vector of DTYPE used by the cases below
  ew OP NIN D0 [D1 [D2]] R N e0 ...  OP over inputs values[Dk] (input k rotated by
                                     ROT[k] elements) gives dtype R and values e0...,
                                     or R is "error" (NumPy has no loop: TypeError) or
                                     "valueerror" (a negative integer exponent)
  weakop OP D POS KIND VALUE R|overflow|valueerror N e0 ...
                                     OP(values[D], python scalar VALUE) (the scalar first
                                     for POS 0), NumPy 2's rule for out-of-range integers
Values are written as C-parsable text: integers in decimal, floats as %a hex (exact),
complex as re:im, "nan", "inf", "-inf".
"""
import sys
import warnings

import numpy as np

if hasattr(np, "_set_promotion_state"):  # NumPy 1.24-1.26; NumPy 2 always promotes so
    np._set_promotion_state("weak")
warnings.simplefilter("ignore")
NUMPY1 = int(np.__version__.split(".")[0]) < 2  # the fallback oracle (scripts/numpy-oracle.sh)

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float16", "float32", "float64", "complex64", "complex128"]
CASTINGS = ["no", "equiv", "safe", "same_kind", "unsafe"]

out = sys.stdout


def promotion():
    for a in DTYPES:
        for b in DTYPES:
            out.write("promote %s %s %s\n" % (a, b, np.promote_types(a, b).name))
    for a in DTYPES:
        for b in DTYPES:
            for c in CASTINGS:
                out.write("cancast %s %s %s %d\n" % (a, b, c, int(np.can_cast(a, b, c))))
    scalars = [("bool", "1", True), ("bool", "0", False), ("int", "1", 1), ("int", "-1", -1),
               ("int", "127", 127), ("int", "128", 128), ("int", "-129", -129), ("int", "255", 255),
               ("int", "256", 256), ("int", "65536", 65536), ("int", "-2147483649", -2147483649),
               ("int", "4294967296", 4294967296), ("int", "-9223372036854775808", -9223372036854775808),
               ("uint", "18446744073709551615", 18446744073709551615),
               ("uint", "9223372036854775808", 9223372036854775808), ("uint", "5", 5),
               ("float", "1.5", 1.5), ("complex", "1:2", 1 + 2j)]
    for a in DTYPES:
        for kind, text, v in scalars:
            try:
                r = (np.zeros(1, a) + v).dtype.name
            except OverflowError:
                r = "overflow"
            out.write("weak %s %s %s %s\n" % (a, kind, text, r))
    # scalar-only promotion
    for kind, text, v in scalars:
        try:
            r = np.result_type(v).name
        except OverflowError:
            r = "overflow"
        out.write("weakonly %s %s %s\n" % (kind, text, r))


# ---- elementwise ---------------------------------------------------------------------------
N = 16
NAN, INF = float("nan"), float("inf")
FLOATS = [0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.5, -2.5, 3.75, -7.25, 0.1, 100.0, NAN, INF, -INF, 1e-3]
COMPLEX = [0j, 1 + 0.5j, -1 + 0.2j, 0.5j, -0.5j, 0.5 + 0.25j, -1.5 + 2j, 2 - 0.5j, -0.75 - 1.25j, 3 + 1j,
           0.1 + 0.2j, -2 - 2j, 1 + 1j, -0.3 + 0.6j, 2.5 + 0.1j, 2.5j]
BOOLS = [False, True, True, False, True, False, False, True, False, True, False, True, True, True, False, False]


def values(dt):
    d = np.dtype(dt)
    if d.kind == "b":
        return np.array(BOOLS, d)
    if d.kind == "i":
        info = np.iinfo(d)
        return np.array([0, 1, -1, 2, -2, 3, 7, -7, 5, 100, info.max, info.min, info.max - 1, info.min + 1, 13, -13], d)
    if d.kind == "u":
        info = np.iinfo(d)
        return np.array([0, 1, 2, 3, 7, 5, 100, info.max, info.max - 1, 13, 64, 8, 9, 31, 32, 200], d)
    if d.kind == "f":
        return np.array(FLOATS, d)
    return np.array(COMPLEX, d)


def operand(dt, k):
    return np.roll(values(dt), -5 * k)


def fmt(v, d):
    d = np.dtype(d)
    if d.kind == "b":
        return "1" if v else "0"
    if d.kind in "iu":
        return str(int(v))
    if d.kind == "f":
        return float(v).hex()
    return "%s:%s" % (float(v.real).hex(), float(v.imag).hex())


UNARY = {"negative": "negative", "positive": "positive", "abs": "absolute", "sign": "sign",
         "reciprocal": "reciprocal", "square": "square", "sqrt": "sqrt", "cbrt": "cbrt", "exp": "exp",
         "exp2": "exp2", "expm1": "expm1", "log": "log", "log2": "log2", "log10": "log10", "log1p": "log1p",
         "sin": "sin", "cos": "cos", "tan": "tan", "asin": "arcsin", "acos": "arccos", "atan": "arctan",
         "sinh": "sinh", "cosh": "cosh", "tanh": "tanh", "asinh": "arcsinh", "acosh": "arccosh",
         "atanh": "arctanh", "floor": "floor", "ceil": "ceil", "trunc": "trunc", "round": "rint",
         "conj": "conjugate", "real": None, "imag": None, "isnan": "isnan", "isinf": "isinf",
         "isfinite": "isfinite", "signbit": "signbit", "logical_not": "logical_not", "bitwise_invert": "invert"}
BINARY = {"add": "add", "subtract": "subtract", "multiply": "multiply", "divide": "true_divide",
          "floor_divide": "floor_divide", "remainder": "remainder", "pow": "power", "maximum": "maximum",
          "minimum": "minimum", "fmax": "fmax", "fmin": "fmin", "atan2": "arctan2", "hypot": "hypot",
          "copysign": "copysign", "nextafter": "nextafter", "logaddexp": "logaddexp", "equal": "equal", "not_equal": "not_equal",
          "less": "less", "less_equal": "less_equal", "greater": "greater", "greater_equal": "greater_equal",
          "logical_and": "logical_and", "logical_or": "logical_or", "logical_xor": "logical_xor",
          "bitwise_and": "bitwise_and", "bitwise_or": "bitwise_or", "bitwise_xor": "bitwise_xor",
          "left_shift": "left_shift", "right_shift": "right_shift", "isclose": "isclose"}


def unary(name, x):
    """NumPy, with the library's documented departures (doc/ops.md)."""
    k = x.dtype.kind
    if name in ("floor", "ceil", "trunc", "round") and k in "biu":
        return x.copy()  # array API: integers and bool unchanged
    if name == "real":
        return np.real(x).copy()
    if name == "imag":
        return np.imag(x).copy() if k == "c" else np.zeros_like(x)
    if name == "reciprocal" and k in "iu":
        # NumPy computes 1.0/x and casts: 1/0 is an undefined float->int cast (INT_MIN on x86
        # for int32/int64, 0 for narrower types); the library returns 0 throughout
        with np.errstate(all="ignore"):
            r = getattr(np, "reciprocal")(x)
        return np.where(x == 0, 0, r).astype(x.dtype)
    if name == "sign" and k == "c" and NUMPY1:
        a = np.abs(x)  # NumPy 1's sign of a complex is the sign of its first nonzero part
        return np.where(a == 0, 0, x / np.where(a == 0, 1, a)).astype(x.dtype)
    return getattr(np, UNARY[name])(x)


def binary(name, x, y):
    if name == "pow":  # a negative integer exponent raises ValueError, as in the library
        r = np.power(x, y)
        if NUMPY1 and r.dtype.kind == "c":  # NumPy 2: 0 ** b is 0 for Re b > 0 (NumPy 1: NaN)
            r = np.where((np.asarray(x) == 0) & (np.asarray(y).real > 0), 0, r).astype(r.dtype)
        return r
    return getattr(np, BINARY[name])(x, y)


def emit(op, ins, fn):
    head = "ew %s %d %s" % (op, len(ins), " ".join(i.dtype.name for i in ins))
    try:
        r = np.asarray(fn(*ins))
    except TypeError:  # NumPy's _UFuncNoLoopError is a TypeError
        out.write(head + " error\n")
        return
    except ValueError:  # integers to negative integer powers
        out.write(head + " valueerror\n")
        return
    out.write("%s %s %d %s\n" % (head, r.dtype.name, r.size, " ".join(fmt(v, r.dtype) for v in r.ravel())))


def elementwise():
    for dt in DTYPES:
        v = values(dt)
        out.write("values %s %d %s\n" % (dt, N, " ".join(fmt(x, dt) for x in v)))
    for name in UNARY:
        for dt in DTYPES:
            emit(name, [operand(dt, 0)], lambda x, n=name: unary(n, x))
    for name in BINARY:
        for dt in DTYPES:
            emit(name, [operand(dt, 0), operand(dt, 1)], lambda x, y, n=name: binary(n, x, y))
    # promotion pairs: every mixed pair for one function of each result rule
    for name in ("add", "less"):
        for a in DTYPES:
            for b in DTYPES:
                if a != b:
                    emit(name, [operand(a, 0), operand(b, 1)], lambda x, y, n=name: binary(n, x, y))
    # signed integer bases with unsigned (never negative) exponents: the powers themselves
    for a, b in (("int8", "uint8"), ("int16", "uint16"), ("int32", "uint32"), ("int64", "uint8"), ("uint8", "int8")):
        emit("pow", [operand(a, 0), operand(b, 1)], lambda x, y: binary("pow", x, y))
    for name in ("divide", "maximum", "floor_divide", "left_shift", "copysign", "logical_and"):
        for a, b in (("int8", "uint8"), ("int16", "float32"), ("uint64", "int64"), ("float16", "int8"),
                     ("bool", "int32"), ("uint8", "float16"), ("float32", "complex64"), ("int32", "float64")):
            emit(name, [operand(a, 0), operand(b, 1)], lambda x, y, n=name: binary(n, x, y))
    # weak integer scalars out of range: comparisons and logical functions still answer (NumPy 2;
    # NumPy 1 has no such rule, and then no cases)
    for name in [] if NUMPY1 else ["less", "less_equal", "greater", "greater_equal", "equal", "not_equal", "logical_and",
                 "logical_or", "logical_xor", "add", "maximum", "pow", "logaddexp", "hypot", "atan2", "copysign",
                 "divide", "floor_divide"]:
        for dt in ("int8", "uint8", "int16", "uint32", "int64", "uint64", "bool", "float32"):
            for kind, text, v in (("int", "-3", -3), ("int", "300", 300), ("int", "-129", -129),
                                  ("int", "4294967296", 4294967296), ("int", "-9223372036854775808", -(1 << 63)),
                                  ("uint", "18446744073709551615", (1 << 64) - 1), ("int", "5", 5)):
                for pos in (0, 1):
                    head = "weakop %s %s %d %s %s" % (name, dt, pos, kind, text)
                    x = values(dt)
                    try:
                        r = np.asarray(binary(name, v, x) if pos == 0 else binary(name, x, v))
                    except OverflowError:
                        out.write(head + " overflow\n")
                        continue
                    except ValueError:
                        out.write(head + " valueerror\n")
                        continue
                    out.write("%s %s %d %s\n" % (head, r.dtype.name, r.size, " ".join(fmt(e, r.dtype) for e in r)))
    for c in ("bool", "float32", "int64", "complex64"):
        for dt in ("float32", "int8", "complex128", "bool", "uint16", "float16"):
            emit("where", [operand(c, 0), operand(dt, 1), operand(dt, 2)], lambda c_, x, y: np.where(c_, x, y))
    for dt in ("float32", "int16", "uint8", "float64", "bool", "int64"):
        emit("clip", [operand(dt, 0), operand(dt, 1), operand(dt, 2)],
             lambda x, lo, hi: np.minimum(np.maximum(x, lo), hi))


# ---- reductions ------------------------------------------------------------------------------
RSHAPES = [(), (5,), (3, 4), (2, 3, 4), (2, 3, 2, 3)]
RDTYPES = ["bool", "int8", "int32", "uint16", "uint64", "float16", "float32", "float64", "complex64"]
REDUCTIONS = ["sum", "prod", "mean", "min", "max", "argmin", "argmax", "all", "any", "count_nonzero"]


def rdata(dt, n):
    i = np.arange(n)
    d = np.dtype(dt)
    if d.kind == "b":
        return (i % 3 == 0)
    if d.kind == "i":
        return ((i * 7) % 11 - 5).astype(d)
    if d.kind == "u":
        return ((i * 7) % 11).astype(d)
    if d.kind == "f":
        return (((i * 3) % 8) * 0.125 + 0.5).astype(d)
    return ((((i * 3) % 8) * 0.125 + 0.5) + 1j * (((i * 5) % 4) * 0.25 - 0.25)).astype(d)


def arg_over(fn, x, axes, keepdims):
    kept = [a for a in range(x.ndim) if a not in axes]
    y = np.transpose(x, kept + list(axes)).reshape([x.shape[a] for a in kept] + [-1])
    r = fn(y, axis=-1)
    if keepdims:
        r = r.reshape([1 if a in axes else x.shape[a] for a in range(x.ndim)])
    return r


def reduction(op, x, axes, keepdims):
    if op in ("argmin", "argmax"):
        return arg_over(getattr(np, op), x, axes, keepdims)
    if op == "count_nonzero":
        r = np.count_nonzero(x, axis=axes, keepdims=keepdims)
        return np.asarray(r, np.int64)
    if op in ("min", "max"):
        return (np.amin if op == "min" else np.amax)(x, axis=axes, keepdims=keepdims)
    return getattr(np, op)(x, axis=axes, keepdims=keepdims)


def reductions():
    rid = 0
    for dt in RDTYPES:
        for shape in RSHAPES:
            n = int(np.prod(shape))
            x = rdata(dt, n).reshape(shape)
            out.write("rin %d %s %d %s %d %s\n" % (rid, dt, len(shape), " ".join(map(str, shape)), n,
                                                   " ".join(fmt(v, dt) for v in x.ravel())))
            nd = len(shape)
            for op in REDUCTIONS:
                for mask in range(1 << nd):
                    axes = tuple(a for a in range(nd) if mask >> a & 1)
                    keepdims = bool(mask % 2) if nd else False
                    with np.errstate(all="ignore"):
                        r = np.asarray(reduction(op, x, axes, keepdims))
                    out.write("red %d %s %d %s %d %s %d %s\n" % (
                        rid, op, len(axes), " ".join(map(str, axes)), int(keepdims), r.dtype.name, r.size,
                        " ".join(fmt(v, r.dtype) for v in r.ravel())))
            rid += 1
    # NaN propagation and first occurrence
    x = np.array([[1.0, np.nan, 0.5, np.nan], [2.0, 0.25, 0.25, 3.0], [3.0, 3.0, -1.0, -1.0]], np.float32)
    out.write("rin %d float32 2 3 4 12 %s\n" % (rid, " ".join(fmt(v, "float32") for v in x.ravel())))
    for op in ("min", "max", "argmin", "argmax", "sum"):
        for axes in ((), (0,), (1,), (0, 1)):
            r = np.asarray(reduction(op, x, axes, False))
            out.write("red %d %s %d %s 0 %s %d %s\n" % (rid, op, len(axes), " ".join(map(str, axes)), r.dtype.name,
                                                        r.size, " ".join(fmt(v, r.dtype) for v in r.ravel())))
    # cumulative sums
    for dt in ("bool", "int8", "uint32", "float32", "float64", "complex64"):
        x = rdata(dt, 24).reshape(2, 3, 4)
        for axis in (None, 0, 1, 2, -1):
            r = np.cumsum(x, axis=axis)
            out.write("cumsum %s %s %s %d %s\n" % (dt, "none" if axis is None else axis, r.dtype.name, r.size,
                                                   " ".join(fmt(v, r.dtype) for v in r.ravel())))


def main():
    promotion()
    elementwise()
    reductions()


if __name__ == "__main__":
    main()
