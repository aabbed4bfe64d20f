#!/usr/bin/python3
"""NumPy oracle for the fused-expression tests (tests/ops/test_expr.c).

Run as `$PYTHON_NUMPY tests/gen/gen_expr_cases.py > tests/expr_cases.txt`.  Random
expression trees over random dtypes, layouts and scalars are evaluated by NumPy 2 exactly
as Python evaluates the same text (operators on Python numbers by Python, everything else
by NumPy's ufuncs with weak scalars); the library must give the same dtype and values.

Tolerances come from a sensitivity run: the tree is evaluated twice more with every
inexact function's result (transcendentals, division) scaled by 1 +- 16 ulp of its
dtype; an element may differ from NumPy's by twice the larger change plus 4 ulp of the
result, or not at all when no inexact function feeds it.  Elements whose class (NaN,
inf, a bool or integer value) the scaling changes are not checked.

Blocks (read with tests/harness/case_file.c), one per case:
  case <n>
  text <expression>
  op <name> array <dtype> <ndim> <shape...> <layout> <values in C order...>
      layout: c (C order), f (F order), r (every axis reversed: negative strides),
      s (every other element of a longer last axis)
  op <name> weak <bool|int|uint|float|complex> <value>
  op <name> typed <dtype> <value>
  want <dtype> <ndim> <shape...> <values...>      or   want error <CODE>
  tol <per-element absolute tolerance, -1 unchecked...>   (absent: exact)
  out <none | fresh DTYPE | inplace NAME>
  reduce <name> <naxes|all> <axes...> <keepdims 0|1>   (reduction cases: the text's root)
  end
Values: integers in decimal, floats in hex (exact), complex as re:im, nan, inf, -inf.
"""
import operator
import random
import sys
import warnings

import numpy as np

from gen_ops_cases import fmt  # one value format for every NumPy case file

warnings.simplefilter("ignore")
np.seterr(all="ignore")
out = sys.stdout
rng = random.Random(20241126)

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float16", "float32", "float64", "complex64", "complex128"]
FLOATS = [0.0, -0.0, 1.5, -2.25, 3.0, 0.5, float("nan"), float("inf"), -float("inf"), 100.0, 1e-3, -7.0, 0.75]


def fmt_float(f):
    return fmt(f, "f8")


def pool(dt):
    d = np.dtype(dt)
    if d.kind == "b":
        return [False, True]
    if d.kind in "iu":
        info = np.iinfo(d)
        base = [0, 1, 2, 3, 5, 7, 100, info.max, info.max - 1]
        if d.kind == "i":
            base += [-1, -2, -7, info.min, info.min + 1]
        return [v for v in base if info.min <= v <= info.max]
    if d.kind == "f":
        return FLOATS
    return [complex(a, b) for a, b in [(0, 0), (1.5, -0.5), (-2, 0.25), (0.5, 3), (float("nan"), 1), (float("inf"), 0),
                                       (-1, -1), (3, 0)]]


def array_of(dt, shape):
    p = pool(dt)
    n = int(np.prod(shape))
    return np.array([rng.choice(p) for _ in range(n)], dtype=dt).reshape(shape)


# ---- the functions trees are built from -------------------------------------------------------
# (name, numpy function, arity, exact, predicate on the argument dtypes)
def real_float(*ds):
    return all(d.kind == "f" for d in ds)


def numeric(*ds):
    return all(d.kind != "b" for d in ds)


def not_complex(*ds):
    return all(d.kind != "c" for d in ds)


def ints(*ds):
    return all(d.kind in "iub" for d in ds)


def anything(*ds):
    return True


FUNCS = [
    ("negative", np.negative, 1, True, numeric), ("abs", np.abs, 1, True, anything),
    ("square", np.square, 1, True, anything), ("sign", np.sign, 1, True, numeric),
    ("floor", np.floor, 1, True, real_float), ("ceil", np.ceil, 1, True, real_float),
    ("trunc", np.trunc, 1, True, real_float), ("round", np.rint, 1, True, real_float),
    ("conj", np.conj, 1, True, numeric), ("isnan", np.isnan, 1, True, anything),
    ("isfinite", np.isfinite, 1, True, anything), ("signbit", np.signbit, 1, True, real_float),
    ("logical_not", np.logical_not, 1, True, anything), ("bitwise_invert", np.invert, 1, True, ints),
    ("sqrt", np.sqrt, 1, False, anything), ("exp", np.exp, 1, False, anything), ("log", np.log, 1, False, anything),
    ("sin", np.sin, 1, False, not_complex), ("tanh", np.tanh, 1, False, not_complex),
    ("expm1", np.expm1, 1, False, not_complex), ("log1p", np.log1p, 1, False, not_complex),
    ("cbrt", np.cbrt, 1, False, not_complex),
    ("maximum", np.maximum, 2, True, anything), ("minimum", np.minimum, 2, True, anything),
    ("fmax", np.fmax, 2, True, anything), ("fmin", np.fmin, 2, True, anything),
    ("copysign", np.copysign, 2, True, real_float), ("logical_xor", np.logical_xor, 2, True, anything),
    ("hypot", np.hypot, 2, False, not_complex), ("atan2", np.arctan2, 2, False, not_complex),
    ("logaddexp", np.logaddexp, 2, False, not_complex),
    ("where", np.where, 3, True, anything), ("clip", np.clip, 3, True, not_complex),
]
OPERATORS = [("+", operator.add, True, anything), ("-", operator.sub, True, anything),
             ("*", operator.mul, True, anything), ("/", operator.truediv, False, anything),
             ("//", operator.floordiv, False, not_complex), ("%", operator.mod, False, not_complex),
             ("&", operator.and_, True, ints), ("|", operator.or_, True, ints), ("^", operator.xor, True, ints),
             ("<", operator.lt, True, not_complex), ("<=", operator.le, True, not_complex),
             ("==", operator.eq, True, anything), ("!=", operator.ne, True, anything),
             (">", operator.gt, True, not_complex), (">=", operator.ge, True, not_complex)]
CASTS = ["float16", "float32", "float64", "complex64", "int16", "int32", "bool"]


def dtype_of(v):
    if isinstance(v, bool):
        return np.dtype(bool)
    if isinstance(v, int):
        return np.dtype(np.int64)
    if isinstance(v, float):
        return np.dtype(np.float64)
    if isinstance(v, complex):
        return np.dtype(np.complex128)
    return np.asarray(v).dtype


def is_python(v):
    return isinstance(v, (bool, int, float, complex))


def scale(v, k):
    """v with its inexact value scaled by 1 + k * 16 ulp of its dtype (k = -1, 0, 1)."""
    if k == 0 or is_python(v):
        return v
    d = np.asarray(v).dtype
    if d.kind not in "fc":
        return v
    eps = {2: 2.0 ** -6, 4: 2.0 ** -19, 8: 2.0 ** -48, 16: 2.0 ** -48}[d.itemsize if d.kind == "f" else d.itemsize // 2]
    r = np.multiply(v, np.asarray(1 + k * eps, dtype=d if d.kind == "f" else np.dtype("f%d" % (d.itemsize // 2))))
    return r.astype(d) if isinstance(r, np.ndarray) else d.type(r)


class Node:
    """A subtree: its text, whether it was written as an operator, and its value under
    the three scalings (None for a subtree NumPy refuses)."""

    def __init__(self, text, values, operator_form=False):
        self.text = text
        self.values = values
        self.operator_form = operator_form


def apply(fn, exact, children):
    vals = []
    for k in (0, 1, -1):
        args = [c.values[k] for c in children]
        r = fn(*args)
        vals.append(r if exact else scale(r, k))
    return {0: vals[0], 1: vals[1], -1: vals[2]}


def leaf(env, names):
    r = rng.random()
    if r < 0.65 and names:
        n = rng.choice(names)
        return Node(n, {k: env[n] for k in (0, 1, -1)})
    if r < 0.9:
        v = rng.choice([2, 3, -1, 0.5, 2.5, True, 1.5, 7, 0])
        t = repr(v)
        return Node(t if not (isinstance(v, (int, float)) and v < 0) else "(%s)" % t, {k: v for k in (0, 1, -1)})
    d = rng.choice(["float32", "int16", "float64"])
    v = rng.choice([1.5, 2, 3])
    return Node("%s(%r)" % (d, v), {k: np.dtype(d).type(v) for k in (0, 1, -1)})


def grow(env, names, depth):
    for _ in range(40):
        if depth == 0 or rng.random() < 0.15:
            return leaf(env, names)
        r = rng.random()
        try:
            if r < 0.45:
                sym, fn, exact, ok = rng.choice(OPERATORS)
                a, b = grow(env, names, depth - 1), grow(env, names, depth - 1)
                if not ok(dtype_of(a.values[0]), dtype_of(b.values[0])):
                    continue
                wrap = lambda c: "(%s)" % c.text if c.operator_form else c.text
                node = Node("%s %s %s" % (wrap(a), sym, wrap(b)), apply(fn, exact, [a, b]), True)
            elif r < 0.52:
                a = grow(env, names, depth - 1)
                if dtype_of(a.values[0]).kind == "b" or is_python(a.values[0]):
                    continue
                node = Node("-(%s)" % a.text, apply(operator.neg, True, [a]), True)
            elif r < 0.6:
                a = grow(env, names, depth - 1)
                d = rng.choice(CASTS)
                if dtype_of(a.values[0]).kind in "fc" and np.dtype(d).kind in "iu":
                    continue  # NaN and inf to integers: NumPy's cast is undefined there
                if dtype_of(a.values[0]).kind == "c" and np.dtype(d).kind != "c":
                    continue  # NumPy warns and drops the imaginary part; the library does as well
                conv = lambda x, d=d: np.asarray(x).astype(d) if not is_python(x) else np.dtype(d).type(x)
                node = Node("%s(%s)" % (d, a.text), apply(conv, True, [a]))
            else:
                name, fn, arity, exact, ok = rng.choice(FUNCS)
                args = [grow(env, names, depth - 1) for _ in range(arity)]
                ds = [dtype_of(c.values[0]) for c in args]
                if not ok(*(ds[1:] if name == "where" else ds)):
                    continue
                node = Node("%s(%s)" % (name, ", ".join(c.text for c in args)), apply(fn, exact, args))
        except (ValueError, ZeroDivisionError, OverflowError, TypeError):
            continue
        return node
    return leaf(env, names)


def shapes(n):
    base = rng.choice([(3, 4), (2, 3, 4), (5,), (4, 6)])
    out = []
    for _ in range(n):
        s = list(base)
        r = rng.random()
        if r < 0.2 and len(s) > 1:
            s = s[1:]  # leading dims broadcast
        elif r < 0.35:
            s[rng.randrange(len(s))] = 1
        out.append(tuple(s))
    return out


def write_array(name, a):
    layout = rng.choice("cfrs") if a.ndim else "c"
    out.write("op %s array %s %d %s %s %s\n" % (name, a.dtype.name, a.ndim, " ".join(map(str, a.shape)), layout,
                                              " ".join(fmt(v, a.dtype) for v in a.ravel())))


def write_want(r, vals):
    r = np.asarray(r)
    out.write("want %s %d %s %s\n" % (r.dtype.name, r.ndim, " ".join(map(str, r.shape)),
                                       " ".join(fmt(v, r.dtype) for v in r.ravel())))
    tol = tolerance(r, [np.asarray(vals[1]), np.asarray(vals[-1])])
    if tol is not None:
        out.write("tol %s\n" % " ".join(t if isinstance(t, str) else fmt_float(t) for t in tol))


def ulp(d, x):
    d = np.dtype(d)
    real = np.dtype("f%d" % (d.itemsize // 2)) if d.kind == "c" else d
    return float(np.spacing(real.type(min(abs(x), float(np.finfo(real).max)))))


def tolerance(r, scaled):
    """Per element: None (exact everywhere), else a list of absolute tolerances."""
    flat = r.ravel()
    others = [np.broadcast_to(s, r.shape).ravel() for s in scaled]
    if all(np.array_equal(o.astype(r.dtype), flat, equal_nan=r.dtype.kind in "fc") for o in others):
        return None
    tol = []
    for i, v in enumerate(flat):
        if r.dtype.kind not in "fc":
            tol.append(0.0 if all(o[i] == v for o in others) else "-1")
            continue
        ov = [complex(o[i]) for o in others]
        cv = complex(v)
        special = lambda z: (z != z, abs(z) == float("inf"))
        if any(special(z) != special(cv) for z in ov):
            tol.append("-1")
        elif cv != cv or abs(cv) == float("inf"):
            tol.append(0.0)
        else:
            dev = max(abs(z - cv) for z in ov)
            tol.append(2 * dev + 4 * ulp(r.dtype, abs(cv)))
    return tol


def case(n, reduce_case=False):
    nops = rng.randrange(1, 5)
    names = ["a", "b", "c", "d"][:nops]
    env, ops_lines = {}, []
    for name, shape in zip(names, shapes(nops)):
        r = rng.random()
        if r < 0.12:
            v = rng.choice([2, -3, 0.25, True, 1e300, 300])
            env[name] = v
            kind = "bool" if isinstance(v, bool) else "int" if isinstance(v, int) else "float"
            ops_lines.append("op %s weak %s %s" % (name, kind, fmt(v, {"bool": "?", "int": "i8", "float": "f8"}[kind])))
        elif r < 0.18:
            d = rng.choice(["float32", "int8", "float64", "uint16"])
            v = np.dtype(d).type(rng.choice([3, 1, 2]))
            env[name] = v
            ops_lines.append("op %s typed %s %s" % (name, d, fmt(v, d)))
        else:
            env[name] = array_of(rng.choice(DTYPES), shape)
            ops_lines.append(("array", name))
    node = grow(env, names, rng.randrange(2, 5))
    text = node.text
    r0 = node.values[0]
    if is_python(r0) or text in names or "(" not in text and " " not in text:
        return False  # numbers alone are Python's; a bare operand computes nothing
    out.write("case %d\n" % n)
    out.write("text %s\n" % text)
    for line in ops_lines:
        if isinstance(line, tuple):
            write_array(line[1], env[line[1]])
        else:
            out.write(line + "\n")
    if np.asarray(r0).ndim == 0 and not any(isinstance(env[k], np.ndarray) for k in names):
        out.write("out fresh %s\n" % np.asarray(r0).dtype.name)
    elif rng.random() < 0.2:
        out.write("out fresh %s\n" % np.asarray(r0).dtype.name)
    write_want(r0, node.values)
    out.write("end\n")
    return True


REDUCTIONS = {
    "sum": np.sum, "prod": np.prod, "mean": np.mean, "min": np.min, "max": np.max, "any": np.any, "all": np.all,
    "argmin": np.argmin, "argmax": np.argmax, "count_nonzero": np.count_nonzero,
    "logsumexp": np.logaddexp.reduce, "reduce_hypot": np.hypot.reduce,
}


def reduce_tolerance(name, v, r, scaled, axes, keepdims):
    """Per element of r: NumPy's accumulation differs from the library's in order and
    accumulator width, so sums get n * eps of the sum of magnitudes besides the
    sensitivity of the inexact functions (scaled: the reduction of the scaled values)."""
    r = np.asarray(r)
    if r.dtype.kind not in "fc":
        same = all(np.array_equal(np.asarray(s), r) for s in scaled)
        return None if same else ["0" if all(np.asarray(s).ravel()[i] == x for s in scaled) else "-1"
                                  for i, x in enumerate(r.ravel())]
    real = np.dtype("f%d" % (r.dtype.itemsize // 2)) if r.dtype.kind == "c" else r.dtype
    eps = float(np.finfo(real).eps)
    n = max(1, np.asarray(v).size // max(1, r.size))
    av = np.abs(np.asarray(v).astype(np.complex128 if r.dtype.kind == "c" else np.float64))
    with np.errstate(all="ignore"):
        mag = np.sum(av, axis=axes, keepdims=keepdims) if name in ("sum", "mean") else np.abs(np.asarray(r, np.complex128))
        if name == "mean":
            mag = mag / n
    mag = np.broadcast_to(np.asarray(mag, np.float64), r.shape).ravel()
    tol = []
    for i, x in enumerate(r.ravel()):
        cx = complex(x)
        ov = [complex(np.broadcast_to(np.asarray(s), r.shape).ravel()[i]) for s in scaled]
        special = lambda z: (z != z, abs(z) == float("inf"))
        if any(special(z) != special(cx) for z in ov) or mag[i] != mag[i] or mag[i] == float("inf"):
            tol.append("-1" if cx == cx and abs(cx) != float("inf") else fmt_float(0.0))
            continue
        if cx != cx or abs(cx) == float("inf"):
            tol.append(fmt_float(0.0))
            continue
        dev = max(abs(z - cx) for z in ov)
        tol.append(fmt_float(2 * dev + (4 * n + 8) * eps * max(mag[i], abs(cx)) + 4 * ulp(r.dtype, abs(cx))))
    return tol


def reduce_case(n):
    nops = rng.randrange(1, 4)
    names = ["a", "b", "c"][:nops]
    env = {}
    for name, shape in zip(names, shapes(nops)):
        env[name] = array_of(rng.choice(DTYPES), shape)
    node = grow(env, names, rng.randrange(1, 4))
    v = node.values[0]
    if is_python(v) or np.asarray(v).ndim == 0:
        return False
    name = rng.choice(list(REDUCTIONS))
    nd = np.asarray(v).ndim
    kind = np.asarray(v).dtype.kind
    if name in ("logsumexp", "reduce_hypot") and kind != "f":
        return False  # the library's are defined for real values, of float dtypes (ints: float64)
    if name in ("argmin", "argmax"):
        axes = None if rng.random() < 0.4 else rng.randrange(nd)
    else:
        axes = None if rng.random() < 0.3 else tuple(sorted(rng.sample(range(nd), rng.randrange(1, nd + 1))))
    keepdims = rng.random() < 0.3
    fn = REDUCTIONS[name]
    try:
        if name in ("logsumexp", "reduce_hypot"):
            call = lambda x: fn(np.asarray(x).ravel() if axes is None else x, axis=0 if axes is None else axes,
                                keepdims=keepdims)
            if axes is None and keepdims:
                return False
        else:
            call = lambda x: fn(x, axis=axes, keepdims=keepdims)
        r = call(v)
        scaled = [call(node.values[1]), call(node.values[-1])]
    except (ValueError, TypeError):
        return False
    out.write("case %d\n" % n)
    out.write("text %s(%s)\n" % (name, node.text))
    for nm in names:
        write_array(nm, env[nm])
    ax = [] if axes is None else [axes] if isinstance(axes, int) else list(axes)
    out.write("reduce %s %s %d\n" % ("all" if axes is None else len(ax), " ".join(map(str, ax)), int(keepdims)))
    r = np.asarray(r)
    out.write("want %s %d %s %s\n" % (r.dtype.name, r.ndim, " ".join(map(str, r.shape)),
                                       " ".join(fmt(x, r.dtype) for x in r.ravel())))
    tol = reduce_tolerance(name, v, r, scaled, axes if not isinstance(axes, int) else (axes,), keepdims)
    if tol is not None:
        out.write("tol %s\n" % " ".join(tol))
    out.write("end\n")
    return True


def error_case(n, text, ops, code):
    out.write("case %d\ntext %s\n" % (n, text))
    for line in ops:
        out.write(line + "\n")
    out.write("want error %s\nend\n" % code)


def main():
    n = 0
    while n < 24:
        if case(n):
            n += 1
    while n < 44:
        if reduce_case(n):
            n += 1
    # NumPy refuses these: the library names the function and the dtype
    error_case(n, "a + sqrt(b) - (a & 3)", ["op a array float32 1 3 c 0x1p+0 0x1p+1 0x1.8p+1",
                                            "op b array int8 1 3 c 1 2 3"], "USMARR_ERROR_BAD_DTYPE")
    error_case(n + 1, "a * b + 300", ["op a array uint8 1 2 c 1 2", "op b array uint8 1 2 c 3 4"],
               "USMARR_ERROR_OVERFLOW")
    error_case(n + 2, "-(a > 0)", ["op a array float32 1 2 c 0x1p+0 -0x1p+0"], "USMARR_ERROR_BAD_DTYPE")


if __name__ == "__main__":
    main()
