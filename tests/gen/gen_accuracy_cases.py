#!/usr/bin/python3
"""Higher-precision references for the accuracy suite (tests/ops/test_accuracy.c).

Run as `$NUMPY_ORACLE tests/gen/gen_accuracy_cases.py > tests/accuracy_cases.txt` (the build
does it before `make check`, with scripts/numpy-oracle.sh's Python, which has NumPy 2 and
mpmath).  For every floating and complex elementwise function and each of its dtypes, the
inputs are the places where such functions are hard: near 0 and 1, near |z| = 1, near the
overflow and underflow thresholds, huge and tiny magnitudes, subnormals, both zeros,
infinities and NaN, the branch cuts from both sides, near the poles and the zeros of the
function, large arguments of the trigonometric functions, and log-uniform random points of
every magnitude (a fixed seed).  The reference is mpmath's value at 3 to 4 times the
dtype's precision (an independent method: arbitrary-precision arithmetic), written as a
double-double (hi + lo); NumPy 2's result on the same input is written beside it, so that
the test measures NumPy with the same yardstick.

Where mpmath has no answer the reference is NumPy's own special value: for inputs with an
infinite or NaN part or a zero (a complex one: both parts zero), and the sign of a result
that is exactly zero (mpmath has no signed zeros), with the library's documented departures
(doc/ops.md): complex expm1 of infinite or NaN parts is exp(z) - 1 and of x + 0j is expm1(x) + 0j
with y's zero, tanh(+-inf + yj) takes
the zero's sign from y (tan likewise from x), and nextafter(x, x) is the second operand in
float16 too.  nextafter's reference is computed exactly from the bits.  A zero part of a
complex input on a branch cut picks the side of its sign: mpmath evaluates there at
+-2^-4000 instead.

Lines (fields separated by single spaces):
  numpy VERSION / mpmath VERSION
  acc OP DTYPE NARGS N          N point lines follow, each
  p X [Y] REF NPY               inputs, reference and NumPy's result; a real value is C-parsable
                                text ("0x1.8p+1", "-0x0p+0", "nan", "-inf"), a complex one
                                "RE:IM"; a reference part is "HI,LO" (HI + LO, both doubles),
                                or "0x0p+0,u" for a nonzero value below the doubles
"""
import random
import struct
import sys
import warnings

import numpy as np

try:
    import mpmath
    from mpmath import mp
except ImportError:  # scripts/numpy-oracle.sh installs it; without it the suite says it skipped
    mpmath = None

warnings.simplefilter("ignore")
out = sys.stdout
NAN, INF = float("nan"), float("inf")
REAL = ["float16", "float32", "float64"]
CPLX = ["complex64", "complex128"]
PREC = {"float16": 64, "float32": 96, "float64": 192, "complex64": 96, "complex128": 192}
rng = random.Random(20261126)

# mpmath's function of each elementwise function (None: computed otherwise)
def _cbrt(x):
    return mp.sign(x) * mp.cbrt(abs(x)) if not isinstance(x, mpmath.mpc) else None


UNARY = {
    "sqrt": mp.sqrt, "cbrt": _cbrt, "exp": mp.exp, "exp2": lambda x: mp.power(2, x), "expm1": mp.expm1,
    "log": mp.log, "log2": lambda x: mp.log(x) / mp.log(2), "log10": lambda x: mp.log(x) / mp.log(10),
    "log1p": mp.log1p, "sin": mp.sin, "cos": mp.cos, "tan": mp.tan, "asin": mp.asin, "acos": mp.acos,
    "atan": mp.atan, "sinh": mp.sinh, "cosh": mp.cosh, "tanh": mp.tanh, "asinh": mp.asinh, "acosh": mp.acosh,
    "atanh": mp.atanh, "reciprocal": lambda x: 1 / x, "square": lambda x: x * x, "abs": abs,
    "sign": lambda z: z / abs(z),
} if mpmath else {}
BINARY = {
    "add": lambda x, y: x + y, "subtract": lambda x, y: x - y, "multiply": lambda x, y: x * y,
    "divide": lambda x, y: x / y, "pow": mp.power, "atan2": mp.atan2, "hypot": mp.hypot,
    "logaddexp": lambda x, y: max(x, y) + mp.log1p(mp.exp(-abs(x - y))), "nextafter": None,
} if mpmath else {}
NUMPY = {"asin": "arcsin", "acos": "arccos", "atan": "arctan", "asinh": "arcsinh", "acosh": "arccosh",
         "atanh": "arctanh", "pow": "power", "atan2": "arctan2", "abs": "absolute", "divide": "true_divide"}
REAL_UNARY = ["sqrt", "cbrt", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sin", "cos", "tan", "asin",
              "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "reciprocal", "square"]
REAL_BINARY = ["add", "subtract", "multiply", "divide", "pow", "atan2", "hypot", "logaddexp", "nextafter"]
CPLX_UNARY = ["sqrt", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sin", "cos", "tan", "asin", "acos",
              "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "reciprocal", "square", "abs", "sign"]
CPLX_BINARY = ["add", "subtract", "multiply", "divide", "pow"]
BRANCH_CUTS = {"sqrt", "log", "log2", "log10", "log1p", "asin", "acos", "atan", "asinh", "acosh", "atanh", "pow"}


# ---- inputs --------------------------------------------------------------------------------------
def finfo(dt):
    return np.finfo(np.dtype(dt).char.lower() if np.dtype(dt).kind == "c" else dt)


def real_dtype(dt):
    return {"complex64": "float32", "complex128": "float64"}.get(dt, dt)


def log_uniform(dt, n, lo=None, hi=None):
    """n values of random sign, mantissa and exponent over [2^lo, 2^hi)."""
    fi = finfo(dt)
    lo = fi.minexp - fi.nmant if lo is None else lo
    hi = fi.maxexp if hi is None else hi
    return [rng.choice((1, -1)) * rng.uniform(1, 2) * 2.0 ** rng.randrange(lo, hi) for _ in range(n)]


def near(x, dt, k=3):
    """x and its k neighbours on each side in dt."""
    d = np.dtype(real_dtype(dt)).type
    v, lo, hi = [d(x)], d(x), d(x)
    for _ in range(k):
        lo, hi = np.nextafter(lo, d(-INF)), np.nextafter(hi, d(INF))
        v += [lo, hi]
    return [float(t) for t in v]


def basic(dt):
    fi = finfo(dt)
    tiny, sub, big = float(fi.smallest_normal), float(fi.smallest_subnormal), float(fi.max)
    v = [0.0, -0.0, sub, -sub, 3 * sub, tiny - sub, tiny, -tiny, 1.0, -1.0, 0.5, -0.5, 2.0, -2.0, big, -big,
         INF, -INF, NAN, 1e-30, 1e-10, 1e-5, 0.1, 3.0, 10.0, 100.0, 1e5, 1e10, 1e30, 1e100, 1e300]
    v += near(1.0, dt) + near(-1.0, dt) + near(0.5, dt) + near(2.0, dt)
    v += log_uniform(dt, 80) + log_uniform(dt, 40, -8, 8)
    return v


def special_points(op, dt):
    fi = finfo(dt)
    big = float(fi.max)
    lmax, lmin = float(np.log(big)), float(np.log(float(fi.smallest_subnormal)))
    v = []
    if op in ("exp", "expm1", "sinh", "cosh"):
        v += near(lmax, dt, 4) + near(lmin, dt, 2) + near(-lmax, dt) + near(lmax + float(np.log(2)), dt)
        v += [rng.uniform(-lmax, lmax) for _ in range(60)]
    if op == "exp2":
        v += near(float(fi.maxexp), dt) + near(float(fi.minexp - fi.nmant), dt) + [rng.uniform(-30, 30) for _ in range(40)]
    if op in ("log", "log2", "log10", "log1p"):
        for c in ((0.0, 1.0) if op == "log1p" else (1.0,)):
            v += near(c, dt, 8) + [c + d for d in (1e-8, -1e-8, 1e-4, -1e-4, 1e-12, -1e-12)]
        if op == "log1p":
            v += near(-1.0 + float(fi.eps), dt, 3) + [-0.5, -0.9, -0.999999]
        v += [rng.uniform(0.5, 2) for _ in range(60)]
    if op in ("sin", "cos", "tan"):
        d = np.dtype(real_dtype(dt)).type
        for k in (1, 2, 3, 4, 5, 10, 100, 1000, 10 ** 5):
            v += near(float(d(k * np.pi / 2)), dt, 1) + [-float(d(k * np.pi / 2))]
        v += [1e6, 1e10, 1e15, 1e22, 2.0 ** 50, 2.0 ** 60, 2.0 ** 100, 2.0 ** 500, 2.0 ** 1000, big, 1e-20]
        v += [rng.uniform(-100, 100) for _ in range(60)] + log_uniform(dt, 40, 0, 60)
    if op in ("asin", "acos", "atanh", "tanh", "atan"):
        for c in (1.0, -1.0):
            v += near(c, dt, 6) + [c * (1 - 1e-8), c * (1 - 1e-4)]
        v += [rng.uniform(-1, 1) for _ in range(80)] + near(0.5, dt) + [1e-8, -1e-8]
    if op in ("asinh", "acosh"):
        v += near(1.0, dt, 8) + [1 + 1e-8, 1 + 1e-4, 1e8, 1e15, 1e150] + [rng.uniform(1, 10) for _ in range(60)]
    if op in ("sqrt", "cbrt", "reciprocal", "square"):
        v += log_uniform(dt, 60)
    return v


def real_inputs(op, dt):
    v = basic(dt) + special_points(op, dt)
    return np.array(v, np.float64).astype(dt)


def real_pairs(op, dt):
    fi = finfo(dt)
    big, tiny, sub = float(fi.max), float(fi.smallest_normal), float(fi.smallest_subnormal)
    specials = [0.0, -0.0, 1.0, -1.0, 2.0, 0.5, big, -big, tiny, sub, -sub, INF, -INF, NAN, 3.0, -7.5]
    pairs = [(a, b) for a in specials for b in specials]
    r = lambda: log_uniform(dt, 1)[0]
    pairs += [(r(), r()) for _ in range(120)]
    pairs += [(a, b) for a, b in zip(log_uniform(dt, 60, -4, 4), log_uniform(dt, 60, -4, 4))]
    if op == "pow":
        pairs += [(x, y) for x in near(1.0, dt, 4) for y in (1e3, -1e3, 1e6, 2.0 ** 20, 0.5, 1 / 3.0)]
        pairs += [(rng.uniform(0, 4), rng.uniform(-30, 30)) for _ in range(80)]
        pairs += [(-rng.uniform(0, 4), float(rng.randrange(-30, 30))) for _ in range(40)]
        pairs += [(2.0, float(k)) for k in (fi.maxexp - 1, fi.minexp - fi.nmant, fi.minexp - 1)]
        pairs += [(10.0, float(k)) for k in range(-30, 31, 7)] + [(0.5, 1074.0), (tiny, 0.5), (big, 0.5), (sub, 0.5)]
        # results next to the overflow, the least normal and the least subnormal: y log x
        # large, where an error in log x is multiplied by y
        edges = [np.log(big) - 1e-6, np.log(big) + 1e-6, np.log(big) - 0.3, np.log(tiny) + 0.2,
                 np.log(sub) + 0.2, np.log(sub) - 0.2]
        ys = [(b, float(t / np.log(b))) for b in (0.3, 0.99, 1.7, 123.0, 1e-5) for t in edges]
        pairs += ys + [(-b, 2 * np.floor(y / 2) + 1) for b, y in ys]  # negative bases, odd exponents
    if op == "atan2":
        pairs += [(rng.choice((1, -1)) * 10 ** rng.uniform(-30, 30), rng.choice((1, -1)) * 10 ** rng.uniform(-30, 30))
                  for _ in range(100)]
        pairs += [(1e-300, -1.0), (-1e-300, -1.0), (1.0, -1e-300), (big, sub), (sub, -big)]
    if op == "hypot":
        pairs += [(big, big), (big / 2, big / 2), (sub, sub), (tiny, sub), (3 * sub, 4 * sub), (1e200, 1e-200),
                  (INF, NAN), (NAN, -INF), (3.0, 4.0)]
        pairs += [(x, y) for x, y in zip(log_uniform(dt, 60), log_uniform(dt, 60))]
    if op == "logaddexp":
        pairs += [(x, x + d) for x in (0.0, 1.0, -700.0, 700.0, 80.0, -80.0, 10.0) for d in (0.0, 1e-8, 1e-3, 1.0, 30.0,
                                                                                             -40.0, 800.0)]
        pairs += [(rng.uniform(-100, 100), rng.uniform(-100, 100)) for _ in range(80)]
    if op in ("add", "subtract"):
        pairs += [(x, -x * (1 + 2.0 ** -k)) for x in (1.0, 3.0, 1e10) for k in (10, 20, 40, 52)]
    if op in ("multiply", "divide"):
        pairs += [(big / 3, 7.0), (tiny, 0.25), (sub, 2.0 ** 40), (1e200, 1e200), (1e-200, 1e-200), (big, 0.5)]
    if op == "nextafter":
        pairs += [(a, b) for a in (sub, -sub, tiny, -tiny, tiny - sub, big, 1.0) for b in (INF, -INF, 0.0, -0.0, NAN)]
    x = np.array([p[0] for p in pairs], np.float64).astype(dt)
    y = np.array([p[1] for p in pairs], np.float64).astype(dt)
    return x, y


def cplx_inputs(op, dt):
    rd = real_dtype(dt)
    fi = finfo(dt)
    big, tiny, sub = float(fi.max), float(fi.smallest_normal), float(fi.smallest_subnormal)
    parts = [0.0, -0.0, 0.75, -2.0, INF, -INF, NAN, 1e-30, sub, big]
    z = [complex(a, b) for a in parts for b in parts]
    # near |z| = 1: radii 1 +- a few ulp and 1 +- 1e-8, any angle (where |z|^2 - 1 cancels)
    for _ in range(80):
        t = rng.uniform(-np.pi, np.pi)
        r = rng.choice([1.0, 1 + 1e-8, 1 - 1e-8, 1 + 3e-16, 1 - 5e-16, 1 + 1e-6, 1 - 2e-7])
        z.append(complex(r * np.cos(t), r * np.sin(t)))
    z += [complex(0.7315027593275921, -0.6818384505292723), complex(0.6146777, 0.78877836), complex(0.6, 0.8),
          complex(-0.8, 0.6), complex(1.0, 1e-8), complex(1.0, 1e-20), complex(1 - 1e-10, 1e-5), complex(1e-8, 1.0)]
    # branch cuts (with both zeros and points next to them), poles and zeros of the functions
    for x in (1.0, 1.5, 3.0, 1e3, 1e20, 0.25, 0.999999):
        for s in (1, -1):
            for y in (0.0, -0.0, 1e-7, -1e-7, 1e-30, -1e-30, tiny, -tiny):
                z += [complex(s * x, y), complex(y, s * x)]
    # tiny, huge, mixed and subnormal magnitudes; then random magnitudes and angles
    for a in (1e-300, 1e-150, 1e-40, 1e-20, 1e-8, 1e8, 1e20, 1e38, 1e150, 1e300, big / 4, sub, 5 * sub, tiny):
        z += [complex(a, a), complex(-a, 0.5 * a), complex(a, -3.0), complex(1.0, a), complex(a, 1e-3 * a)]
    z += [complex(1e300, 1e-300), complex(1e-300, 1e300), complex(big, tiny), complex(tiny, -big)]
    z += [complex(x, y) for x, y in zip(log_uniform(rd, 60), log_uniform(rd, 60))]
    z += [complex(x, y) for x, y in zip(log_uniform(rd, 60, -6, 6), log_uniform(rd, 60, -6, 6))]
    if op == "log1p":  # near |1 + z| = 1, where 2x + x^2 + y^2 cancels: |z| about 1e-3 and other sizes
        own = random.Random(20261127)  # (the other functions' random points stay as they were)
        for _ in range(80):
            t = own.choice([1e-3, -1e-3, 2e-3, 1e-4, 1e-6, 1e-9, 0.05, 0.4, 1.0, -1.2, 2.0]) * own.uniform(0.5, 1.5)
            r = own.choice([1.0, 1 + 3e-16, 1 - 5e-16, 1 + 1e-12, 1 - 1e-9])
            e = own.choice([0.0, 1e-16, -3e-16, 1e-15, -2e-15, 1e-14])  # x off the circle by a few ulp
            z.append(complex((r * np.cos(t) - 1) * (1 + e), r * np.sin(t)))
        z += [complex(1e-3 * np.cos(t), 1e-3 * np.sin(t)) for t in [own.uniform(-np.pi, np.pi) for _ in range(40)]]
        # where fma(x, 2 + x, y^2) with a rounded 2 + x keeps no digit (|z| about 1e-3, complex128)
        z += [complex(-1.0299755995678039e-06, -0.0014352526391844301), complex(-3.482653232979299e-06, 0.002639184407555686),
              complex(-4.438539945135186e-07, 0.000942182462169971), complex(-2.570856899174947e-07, 0.0007170573991961435)]
    if op in ("exp", "expm1", "exp2", "sinh", "cosh", "tanh", "sin", "cos", "tan"):
        lmax = float(np.log(big))
        z += [complex(lmax + d, y) for d in (-1.0, 0.3, 0.69, 1.0) for y in (0.5, 3.0, -1e-5)]
        z += [complex(rng.uniform(-3, 3), rng.uniform(-50, 50)) for _ in range(40)]
        z += [complex(y, x) for x, y in zip([rng.uniform(-lmax, lmax) for _ in range(20)], [1.0] * 20)]
    return np.array(z, np.complex128).astype(dt)


def cplx_pairs(dt):
    z = cplx_inputs("pow", dt)
    w = np.roll(z, 7)
    extra = [(complex(0.5, 0.5), complex(2.0, 0.0)), (complex(1 + 1e-8, 1e-8), complex(1e4, 1.0)),
             (complex(2.0, 0.0), complex(0.5, 0.0)), (complex(-8.0, 0.0), complex(1 / 3.0, 0.0)),
             (complex(0.5, 0.0), complex(INF, 0.0)), (complex(1e-3, 1e-3), complex(3.0, 0.0))]
    z = np.concatenate([z, np.array([p[0] for p in extra], dt)])
    w = np.concatenate([w, np.array([p[1] for p in extra], dt)])
    return z, w


# ---- references ----------------------------------------------------------------------------------
def mpval(v, cut):
    """mpmath's value of an input part; a zero on a branch cut becomes +-2^-4000."""
    v = float(v)
    if v == 0 and cut:
        return mp.mpf(2) ** -4000 * (-1 if np.signbit(v) else 1)
    return mp.mpf(v)


def hexf(x):
    x = float(x)
    if x != x:
        return "-nan" if np.signbit(x) else "nan"
    return x.hex()


def part_ref(r, npy):
    """HI,LO of an mpmath real, or NumPy's special value where mpmath has none (an infinity,
    NaN); an exact zero takes the sign of NumPy's zero (mpmath's zeros have no sign)."""
    if r is not None and r == 0:
        return "%s,0x0p+0" % hexf(np.copysign(0.0, npy) if npy == 0 else 0.0)
    if r is None or not mp.isfinite(r):
        return "%s,0x0p+0" % hexf(npy)
    hi = float(r)
    if hi == 0:  # a nonzero value below the doubles: a zero of either sign is as near
        return "0x0p+0,u"
    if hi in (INF, -INF):
        return "%s,0x0p+0" % hexf(hi)
    return "%s,%s" % (hexf(hi), hexf(float(r - mp.mpf(hi))))


def nextafter_bits(x, y, dt):
    """nextafter from the bits: the oracle is independent of any math library."""
    fmt, ufmt, nbits = {"float16": ("e", "H", 16), "float32": ("f", "I", 32), "float64": ("d", "Q", 64)}[dt]
    if x != x or y != y:
        return NAN
    if x == y:
        return y
    if x == 0:
        u = 1 if y > 0 else (1 << (nbits - 1)) | 1
    else:
        u = struct.unpack(ufmt, struct.pack(fmt, x))[0]
        u = u + 1 if (x < y) == (x > 0) else u - 1
    return struct.unpack(fmt, struct.pack(ufmt, u))[0]


def evaluate(fn, m, dt):
    """fn(*m) at rising precision until two evaluations agree to the last bit of a
    double-double (and an exactly zero part holds up to 2048 bits): mpmath does not raise
    its precision for every cancellation (atanh of 1e150 + 1e147j is exactly 0 + pi/2 j at
    192 and 384 bits, 9.99999e-151 + pi/2 j from 1024 bits on)."""
    prec, last = PREC[dt], None
    while True:
        with mp.workprec(prec):
            r = fn(*m)
        parts = [r.real, r.imag] if isinstance(r, mpmath.mpc) else [r]
        if not all(mp.isfinite(v) for v in parts):
            return r
        key = []
        for v in parts:
            hi = float(v) if mp.isfinite(v) else v
            key.append((hi, float(v - hi) if mp.isfinite(v) and abs(hi) != INF else 0.0))
        if (key == last and (prec >= 2048 or all(v != 0 for v in parts))) or prec >= 8192:
            return r
        last, prec = key, prec * 2


def out_of_range(r, dt):
    """A complex result with a part beyond the dtype's range or below its normal numbers.
    complex pow's points there are left to the complex suite (tests/ops/test_complex.c):
    the signs of such a part follow the cosine or sine of an angle that b log a gives only
    to a few ulps, where the part's magnitude does not tell them."""
    fi = finfo(dt)
    return any(abs(v) > fi.max or (v != 0 and abs(v) < fi.smallest_normal) for v in (r.real, r.imag))


def departures(op, args, r):
    """The library's documented departures from NumPy's special values (doc/ops.md)."""
    z = args[0]
    if op == "expm1" and np.iscomplexobj(z):
        s = np.isfinite(z.real) & (z.imag == 0)
        r[s] = np.array([complex(a, b) for a, b in zip(np.expm1(z.real[s]), z.imag[s])], r.dtype)
        s = ~(np.isfinite(z.real) & np.isfinite(z.imag)) | (z.real > (88.0 if z.dtype == np.complex64 else 709.0))
        e = np.exp(z[s])
        r[s] = np.array([complex(a, b) for a, b in zip(e.real - 1, e.imag)], r.dtype)
    if op == "tanh" and np.iscomplexobj(z):
        s = np.isinf(z.real) & np.isfinite(z.imag)
        r[s] = np.array([complex(np.copysign(1, a), np.copysign(0, b)) for a, b in zip(z.real[s], z.imag[s])], r.dtype)
    if op == "tan" and np.iscomplexobj(z):
        s = np.isinf(z.imag) & np.isfinite(z.real)
        r[s] = np.array([complex(np.copysign(0, a), np.copysign(1, b)) for a, b in zip(z.real[s], z.imag[s])], r.dtype)
    return r


def emit(op, dt, args):
    fn = getattr(np, NUMPY.get(op, op))
    with np.errstate(all="ignore"):
        npy = np.asarray(fn(*args))
    ref_np = departures(op, args, npy.copy())
    cplx_in = np.iscomplexobj(args[0])
    cut = op in BRANCH_CUTS and cplx_in
    mp.prec = PREC[dt]
    lines = []
    for i in range(args[0].size):
        vals = [a[i] for a in args]
        special = any(not (np.isfinite(v.real) and np.isfinite(v.imag)) or v == 0 for v in vals)
        r = None
        if op == "nextafter":
            r = mp.mpf(nextafter_bits(float(vals[0]), float(vals[1]), dt))
            if r == 0 or not mp.isfinite(r):
                ref_np[i] = float(r) if r == r else NAN
                if r == 0:
                    ref_np[i] = np.copysign(0.0, nextafter_bits(float(vals[0]), float(vals[1]), dt))
        elif not special:
            fn = UNARY[op] if len(vals) == 1 else BINARY[op]
            try:
                # at a pole or a branch point on a cut mpmath's side value would be finite
                exact = [mpmath.mpc(mpval(v.real, False), mpval(v.imag, False)) if cplx_in else mpval(v, False)
                         for v in vals]
                r = evaluate(fn, exact, dt)
                if cut and all(mp.isfinite(t) for t in ([r.real, r.imag] if isinstance(r, mpmath.mpc) else [r])):
                    r = evaluate(fn, [mpmath.mpc(mpval(v.real, cut), mpval(v.imag, cut)) for v in vals], dt)
            except (ValueError, ZeroDivisionError, OverflowError):
                r = None
            if op == "pow" and cplx_in and r is not None and out_of_range(r, dt):
                continue
        if cplx_in and npy.dtype.kind == "c":
            if r is not None and not isinstance(r, mpmath.mpc):
                r = mpmath.mpc(r)
            rr = (part_ref(r.real if r is not None else None, ref_np[i].real) + ":" +
                  part_ref(r.imag if r is not None else None, ref_np[i].imag))
            nv = "%s:%s" % (hexf(npy[i].real), hexf(npy[i].imag))
        else:
            if isinstance(r, mpmath.mpc):  # a real function of a real input taken complex by mpmath
                r = r.real if r.imag == 0 else mp.nan
            rr = part_ref(r, ref_np[i])
            nv = hexf(npy[i])
        ins = " ".join("%s:%s" % (hexf(v.real), hexf(v.imag)) if cplx_in else hexf(v) for v in vals)
        lines.append("p %s %s %s\n" % (ins, rr, nv))
    out.write("acc %s %s %d %d\n" % (op, dt, len(args), len(lines)))
    out.writelines(lines)


def main():
    out.write("numpy %s\n" % np.__version__)
    if mpmath is None:
        out.write("mpmath missing\n")
        return
    out.write("mpmath %s\n" % mpmath.__version__)
    for dt in REAL:
        for op in REAL_UNARY:
            emit(op, dt, [real_inputs(op, dt)])
        for op in REAL_BINARY:
            emit(op, dt, list(real_pairs(op, dt)))
    for dt in CPLX:
        for op in CPLX_UNARY:
            emit(op, dt, [cplx_inputs(op, dt)])
        for op in CPLX_BINARY:
            emit(op, dt, list(cplx_pairs(dt)))


if __name__ == "__main__":
    main()
