#!/usr/bin/python3
"""NumPy oracle for the lane test (tests/ops/test_lanes.c): no element's result may depend
on the values next to it in a vector.

Run as `$NUMPY_ORACLE tests/gen/gen_lane_cases.py > tests/lane_cases.txt` (the build does it
before `make check`).  For every unary and binary elementwise function and every real dtype
it computes in, a few ordinary inputs, and for each of them the inputs that the test puts
next to it: every special value of the dtype (both zeros, both infinities, NaN, the least
subnormals, the least normal, the extremes, a huge trigonometric argument, the poles at -1
and 1; for integers 0, 1, -1 and the limits) in each operand in turn and in both.  The test
builds 16-element blocks from them (an ordinary element among special ones, a special one
among ordinary ones, an ordinary one among all the specials) and checks each element
against the same element computed alone and against NumPy's value written here.

Lines (fields separated by single spaces; values as gen_ops_cases.py writes them):
  lane OP DTYPE NIN RDTYPE NORD     NORD ordinary inputs follow, each as
  o X [Y] R NSPEC                     the input, NumPy's result, then NSPEC lines
  s X [Y] R                           of the inputs put next to it, with NumPy's results
"""
import sys
import warnings

import numpy as np

from gen_ops_cases import BINARY, UNARY, binary, fmt, unary

warnings.simplefilter("ignore")
out = sys.stdout
NAN, INF = float("nan"), float("inf")
FLOATS = ["float16", "float32", "float64"]
INTS = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]
# functions of floats only, of integers only, and those the test leaves to their own suites
FLOAT_ONLY = {"sqrt", "cbrt", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sin", "cos", "tan",
              "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "divide", "atan2",
              "hypot", "copysign", "nextafter", "logaddexp", "signbit"}
INT_ONLY = {"bitwise_invert", "bitwise_and", "bitwise_or", "bitwise_xor", "left_shift", "right_shift"}
LEFT_OUT = {"isclose"}  # its tolerances are scalars: the elementwise suite covers it

# ordinary inputs in each function's domain (the first for the rest)
ORDINARY_UNARY = {
    "default": [0.1, 0.7, 1.5, -2.25, 3.0],
    "sqrt": [0.1, 0.7, 1.5, 2.25, 3.0], "log": [0.1, 0.7, 1.5, 2.25, 3.0], "log2": [0.1, 0.7, 1.5, 2.25, 3.0],
    "log10": [0.1, 0.7, 1.5, 2.25, 3.0], "log1p": [0.1, -0.3, 1.5, 2.25, 3.0], "acosh": [1.25, 1.5, 2.25, 3.0, 10.0],
    "asin": [0.1, -0.3, 0.7], "acos": [0.1, -0.3, 0.7], "atanh": [0.1, -0.3, 0.7],
    "sin": [0.001, 0.5, -2.0, 10.0], "cos": [0.001, 0.5, -2.0, 10.0], "tan": [0.001, 0.5, -2.0, 10.0],
}
ORDINARY_BINARY = {
    "default": [(0.1, 0.001), (7.5, 2.0), (-7.5, 2.0), (1.5, -0.25)],
    "pow": [(1.5, 2.0), (0.7, -1.5), (2.0, 0.5), (3.0, 3.0)],
}
INT_ORDINARY_UNARY = [7, -3, 100]
INT_ORDINARY_BINARY = [(7, 2), (-7, 3), (100, -9)]


def specials(dt):
    d = np.dtype(dt)
    if d.kind == "f":
        fi = np.finfo(d)
        huge = 6e4 if d.itemsize == 2 else 1e6
        return [0.0, -0.0, INF, -INF, NAN, float(fi.smallest_subnormal), -float(fi.smallest_subnormal),
                float(fi.smallest_normal), float(fi.max), -float(fi.max), huge, -1.0, 1.0]
    ii = np.iinfo(d)
    return [0, 1, int(ii.max)] + ([-1, int(ii.min)] if d.kind == "i" else [])


def ordinary(op, dt, arity):
    kind = np.dtype(dt).kind
    if kind == "f":
        table = ORDINARY_UNARY if arity == 1 else ORDINARY_BINARY
        return table.get(op, table["default"])
    v = INT_ORDINARY_UNARY if arity == 1 else INT_ORDINARY_BINARY
    if kind == "u":
        v = [abs(x) for x in v] if arity == 1 else [(abs(x), abs(y)) for x, y in v]
    if op in ("left_shift", "right_shift"):
        v = [(x, 3) for x, _ in v]
    if op == "pow":  # NumPy refuses negative integer exponents
        v = [(x, abs(y) % 6) for x, y in v]
    return v


def neighbours(op, dt, o, arity):
    """The inputs put next to the ordinary input o: the specials in each operand and both."""
    s = specials(dt)
    if arity == 1:
        return [(v,) for v in s]
    x, y = o
    if op == "pow" and np.dtype(dt).kind in "iu":  # NumPy refuses negative integer exponents
        return [(v, y) for v in s] + [(x, v) for v in s if v >= 0] + [(v, v) for v in s if v >= 0]
    return [(v, y) for v in s] + [(x, v) for v in s] + [(v, v) for v in s]


def compute(op, dt, ins, arity):
    arrays = [np.array([t[k] for t in ins], dt) for k in range(arity)]
    return np.asarray(unary(op, *arrays) if arity == 1 else binary(op, *arrays))


def emit(op, dt, arity):
    ords = [o if arity > 1 else (o,) for o in ordinary(op, dt, arity)]
    try:
        r = compute(op, dt, ords, arity)
    except TypeError:  # NumPy has no loop for this dtype
        return
    rdt = r.dtype
    out.write("lane %s %s %d %s %d\n" % (op, dt, arity, rdt.name, len(ords)))
    for o, ro in zip(ords, r):
        nb = neighbours(op, dt, o, arity)
        rn = compute(op, dt, nb, arity)
        out.write("o %s %s %d\n" % (" ".join(fmt(v, dt) for v in np.array(o, dt)), fmt(ro, rdt), len(nb)))
        for t, rt in zip(nb, rn):
            out.write("s %s %s\n" % (" ".join(fmt(v, dt) for v in np.array(t, dt)), fmt(rt, rdt)))


def main():
    for arity, table in ((1, UNARY), (2, BINARY)):
        for op in table:
            if op in LEFT_OUT:
                continue
            for dt in FLOATS + INTS:
                kind = np.dtype(dt).kind
                if (kind == "f" and op in INT_ONLY) or (kind != "f" and op in FLOAT_ONLY):
                    continue
                emit(op, dt, arity)


if __name__ == "__main__":
    main()
