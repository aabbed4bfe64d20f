#!/usr/bin/python3
"""NumPy 2 oracle for the complex elementwise functions (tests/ops/test_complex.c).

Run as `$NUMPY_ORACLE tests/gen/gen_complex_cases.py > tests/complex_cases.txt` (the build does
it before `make check`, with scripts/numpy-oracle.sh's NumPy 2).  The inputs are the
places where complex functions are hard: the C99 Annex G table (every pair of real and
imaginary parts from +-0, finite, +-inf and NaN), the branch cuts with +0 and -0 on the
other axis and points next to them, tiny and huge magnitudes, and subnormals.

Line formats (fields separated by single spaces, values as in gen_ops_cases.py):
  numpy VERSION                  the NumPy that computed the file
  cin DTYPE N v0 ... vN-1        the inputs of DTYPE (complex64 or complex128)
  cx OP DTYPE R N e0 ... eN-1    unary OP over the inputs of DTYPE gives dtype R and e0...
  cpow DTYPE N y e0 ... eN-1     pow(inputs, y) for the exponent y, of DTYPE
"""
import sys
import warnings

import numpy as np

warnings.simplefilter("ignore")
out = sys.stdout
NAN, INF = float("nan"), float("inf")

UNARY = {"sqrt": "sqrt", "exp": "exp", "exp2": "exp2", "expm1": "expm1", "log": "log", "log2": "log2",
         "log10": "log10", "log1p": "log1p", "sin": "sin", "cos": "cos", "tan": "tan", "asin": "arcsin",
         "acos": "arccos", "atan": "arctan", "sinh": "sinh", "cosh": "cosh", "tanh": "tanh",
         "asinh": "arcsinh", "acosh": "arccosh", "atanh": "arctanh", "sign": "sign",
         "reciprocal": "reciprocal", "square": "square", "abs": "absolute"}
EXPONENTS = [0j, 1 + 0j, 2 + 0j, 3 + 0j, -1 + 0j, -2 + 0j, 0.5 + 0j, 2.5 + 1j, 1j, -0.5 - 2j, complex(INF, 0),
             complex(NAN, 0), complex(0, NAN)]


def inputs(dt):
    big, sub = (1e30, 1e-40) if dt == "complex64" else (1e300, 1e-310)
    hmax = float(np.finfo(np.float32 if dt == "complex64" else np.float64).max)
    parts = [0.0, -0.0, 0.75, -2.0, INF, -INF, NAN, -NAN]  # NaNs of both signs: NumPy's C library
    z = [complex(x, y) for x in parts for y in parts]  # reads some zeros' signs from them (the Annex G table)
    # branch cuts: the real axis beyond +-1 (asin, acos, atanh), below 1 (acosh), below 0
    # (sqrt, log); the imaginary axis beyond +-i (asinh, atan); with +0 and -0 and next to them
    for x in (1.0, 1.5, 3.0, 1e3, 0.25):
        for s in (1, -1):
            for y in (0.0, -0.0, 1e-7, -1e-7, 1e-30, -1e-30):
                z.append(complex(s * x, y))
                z.append(complex(y, s * x))
    # tiny magnitudes (the series regions of asin, asinh, atan, atanh, expm1, log1p)
    for t in (1e-5, 1e-10, 1e-20, 1e-30, 1e-150):
        z += [complex(t, 0.0), complex(-t, t), complex(0.0, -t), complex(t, 2 * t), complex(-3 * t, -0.0)]
    # huge finite magnitudes (no overflow in the inverse functions, sinh, cosh, tanh, exp)
    for h in (1e18, 1e30, 3e38, 1e150, 1e300, hmax):
        z += [complex(h, h), complex(-h, 1.0), complex(1.0, -h), complex(-h, -0.5 * h), complex(h, 0.0),
              complex(0.0, h)]
    for x in (20.0, 50.0, 88.5, 89.5, 100.0, 400.0, 709.5, 710.2, 1e4):
        z += [complex(x, 1.0), complex(-x, 2.0), complex(x, -0.0), complex(1.0, x), complex(-0.0, -x),
              complex(x, 1e-3), complex(x, INF), complex(x, 30.0)]
    # subnormals (and numbers whose hypot is one)
    z += [complex(sub, 0.0), complex(sub, sub), complex(-sub, 0.2 * sub), complex(0.0, -sub),
          complex(-sub, -0.0), complex(sub, 1.0), complex(3 * sub, 4 * sub), complex(1e-39, 1e-38),
          complex(2e-308, 1e-308), complex(5e-324, 0.0), complex(1e-45, -1e-45)]
    # ordinary points and the unit circle
    z += [complex(2, 3), complex(-0.5, 0.25), complex(0.3, -0.7), complex(10, -20), complex(-100, 0.5),
          complex(0.999, 1e-5), complex(1.0, 1e-5), complex(1.0001, 0.0), complex(0.6, 0.8), complex(-0.8, 0.6),
          complex(1.0, 1.0), complex(-1.0, -1.0), complex(0.5, 0.5), complex(1e-3, 1.0), complex(1.0, 1e-3)]
    return np.array(z, dt)


def hexf(x):
    """float.hex, with the sign of a NaN ("-nan"), which float.hex drops."""
    x = float(x)
    return ("-nan" if np.signbit(x) else "nan") if x != x else x.hex()


def fmt(v, d):
    if np.dtype(d).kind == "f":
        return hexf(v)
    return "%s:%s" % (hexf(v.real), hexf(v.imag))


def departures(op, z, r):
    """NumPy's results with the library's documented departures (doc/ops.md): the sign of a
    tiny or huge z is z/|z| of z scaled by a power of two first (NumPy's hypot of subnormal
    parts loses digits, of huge ones overflows); log1p of a tiny z keeps its digits and of a
    huge one does not overflow (NumPy's log(hypot(1 + x, y)) does neither), and expm1(x + 0j)
    has the imaginary part 0 where exp(x) overflows (NumPy's exp(x) * 0 is NaN) and past
    exp's overflow is exp(z) - 1 (NumPy's exp(x) sin y overflows where exp(z) does not); and
    the array API standard's special values: expm1 of an infinite or NaN part is exp(z) - 1
    (NumPy's formula makes inf * 0 NaN); tanh(+-inf + yj) for finite y is +-1 with a zero of
    y's sign, and tan(x +- inf j) = -i tanh(i z) correspondingly a zero of x's sign (C99 and
    NumPy take those zeros' signs from sin 2y)."""
    r = r.copy()
    x, y = z.real, z.imag
    if op == "sign":  # tiny or huge parts: NumPy's own value for z scaled by a power of two (exact)
        tiny = 2.0 ** (-60 if z.dtype == np.complex64 else -500)
        up = z.dtype.type(2.0 ** (48 if z.dtype == np.complex64 else 106))
        m = np.maximum(np.abs(x), np.abs(y))
        s = m < tiny
        r[s] = np.sign(z[s] * up)
        s = (m > 1 / tiny) & np.isfinite(m)
        r[s] = np.sign(z[s] / up)
    if op == "log1p":  # in complex128 (exact for complex64 inputs) with the same formulas
        w = z.astype(np.complex128)
        small = np.maximum(np.abs(w.real), np.abs(w.imag)) < 0.5
        big = np.maximum(np.abs(w.real), np.abs(w.imag)) > (1e30 if z.dtype == np.complex64 else 1e300)
        fix = (small | big) & np.isfinite(w.real) & np.isfinite(w.imag)
        re = np.where(small, 0.5 * np.log1p(w.real * (w.real + 2) + w.imag * w.imag),
                      np.log(np.hypot((w.real + 1) / 4, w.imag / 4)) + np.log(4.0))
        r[fix] = np.array([complex(a, b) for a, b in zip(re[fix], r.imag[fix])], z.dtype)
    if op == "expm1":
        fin = np.isfinite(x) & (y == 0)
        r[fin] = np.array([complex(a, b) for a, b in zip(np.expm1(x[fin]), y[fin])], z.dtype)
        special = ~(np.isfinite(x) & np.isfinite(y)) | (x > (88.0 if z.dtype == np.complex64 else 709.0))
        e = np.exp(z[special])
        r[special] = np.array([complex(a, b) for a, b in zip(e.real - 1, e.imag)], z.dtype)
    elif op == "tanh":
        at = np.isinf(x) & np.isfinite(y)
        r[at] = np.array([complex(np.copysign(1, a), np.copysign(0, b)) for a, b in zip(x[at], y[at])], z.dtype)
    elif op == "tan":
        at = np.isinf(y) & np.isfinite(x)
        r[at] = np.array([complex(np.copysign(0, a), np.copysign(1, b)) for a, b in zip(x[at], y[at])], z.dtype)
    return r


def main():
    out.write("numpy %s\n" % np.__version__)
    with np.errstate(all="ignore"):
        for dt in ("complex64", "complex128"):
            z = inputs(dt)
            out.write("cin %s %d %s\n" % (dt, z.size, " ".join(fmt(v, dt) for v in z)))
            for op, fn in UNARY.items():
                r = departures(op, z, getattr(np, fn)(z))
                out.write("cx %s %s %s %d %s\n" % (op, dt, r.dtype.name, r.size, " ".join(fmt(v, r.dtype) for v in r)))
            for y in EXPONENTS:
                r = np.power(z, np.asarray(y, dt))
                out.write("cpow %s %d %s %s\n" % (dt, r.size, fmt(np.asarray(y, dt)[()], dt),
                                                  " ".join(fmt(v, dt) for v in r)))


if __name__ == "__main__":
    main()
