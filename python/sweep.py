"""The sweep (make bench-sweep): every elementwise function of each dtype class at 4M
elements, and the reductions, scans, statistics and array functions over a 2048 x 2048
array along each kind of axis (all, the outer one, the inner one), each timed against
NumPy on the same machine.  A line per case: NumPy's time, the library's, and their ratio
(NumPy / library: above 1 the library is faster).  The last lines count the cases below 1.

    USMARR_DEVICE=opencl:cpu:1 python3 python/sweep.py [--repeat N] [--filter TEXT]

Times are the minimum of N rounds (background load only ever adds time); a library call
is timed to its result's first element on the host, which waits for the queue.
"""

import argparse
import time
import warnings

import numpy as np

import usmarr

warnings.simplefilter("ignore")
N = 1 << 22
SIDE = 2048

# name in usmarr -> NumPy's, for the elementwise table's functions (None: the same name)
UNARY = {"negative": None, "positive": None, "abs": "absolute", "sign": None, "reciprocal": None,
         "square": None, "sqrt": None, "cbrt": None, "exp": None, "exp2": None, "expm1": None, "log": None,
         "log2": None, "log10": None, "log1p": None, "sin": None, "cos": None, "tan": None, "asin": "arcsin",
         "acos": "arccos", "atan": "arctan", "sinh": None, "cosh": None, "tanh": None, "asinh": "arcsinh",
         "acosh": "arccosh", "atanh": "arctanh", "floor": None, "ceil": None, "trunc": None, "round": "rint",
         "isnan": None, "isinf": None, "isfinite": None, "signbit": None, "logical_not": None,
         "bitwise_invert": "invert"}
BINARY = {"add": None, "subtract": None, "multiply": None, "divide": "true_divide", "floor_divide": None,
          "remainder": None, "pow": "power", "maximum": None, "minimum": None, "fmax": None, "fmin": None,
          "atan2": "arctan2", "hypot": None, "copysign": None, "nextafter": None, "logaddexp": None,
          "equal": None, "not_equal": None, "less": None, "less_equal": None, "greater": None,
          "greater_equal": None, "logical_and": None, "logical_or": None, "logical_xor": None,
          "bitwise_and": None, "bitwise_or": None, "bitwise_xor": None, "left_shift": None, "right_shift": None}
FLOAT_ONLY = {"sqrt", "cbrt", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sin", "cos", "tan", "asin",
              "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "isnan", "isinf", "isfinite",
              "signbit", "divide", "atan2", "hypot", "copysign", "nextafter", "logaddexp", "reciprocal"}
INT_ONLY = {"bitwise_invert", "bitwise_and", "bitwise_or", "bitwise_xor", "left_shift", "right_shift"}


def sync(r):
    if isinstance(r, tuple):
        r = r[0]
    if getattr(r, "ndim", 0):
        np.asarray(r.reshape(-1)[:1])
    elif r is not None:
        np.asarray(r)


def best(fn, repeat):
    sync(fn())  # warm: programs compiled, blocks pooled
    t = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        sync(fn())
        t = min(t, time.perf_counter() - start)
    return t


results = []


def case(name, numpy_fn, lib_fn, repeat, flt):
    if flt and flt not in name:
        return
    try:
        tn, tl = best(numpy_fn, repeat), best(lib_fn, repeat)
    except Exception as e:  # a case the library refuses is reported, not fatal
        print("%-40s error: %s" % (name, str(e).splitlines()[0][:80]), flush=True)
        return
    results.append((name, tn / tl))
    print("%-40s numpy %9.3f ms  lib %9.3f ms  ratio %6.2f" % (name, tn * 1e3, tl * 1e3, tn / tl), flush=True)


def inputs(dtype, rng):
    if dtype == "bool":
        return rng.random(N) < 0.5, rng.random(N) < 0.5
    if np.dtype(dtype).kind in "iu":
        return rng.integers(1, 100, N).astype(dtype), rng.integers(1, 8, N).astype(dtype)
    return rng.uniform(0.1, 0.9, N).astype(dtype), rng.uniform(0.1, 0.9, N).astype(dtype)


def elementwise(args, rng):
    for dtype in ("float32", "float64", "int32", "bool"):
        x, y = inputs(dtype, rng)
        ax, ay = usmarr.asarray(x), usmarr.asarray(y)
        kind = np.dtype(dtype).kind
        for table, arity in ((UNARY, 1), (BINARY, 2)):
            for name, npname in table.items():
                if (kind != "f" and name in FLOAT_ONLY) or (kind == "f" and name in INT_ONLY):
                    continue
                if kind == "b" and not (name.startswith("logical") or name in ("equal", "not_equal", "bitwise_and")):
                    continue
                nf, lf = getattr(np, npname or name), getattr(usmarr, name)
                if arity == 1:
                    case("%s %s" % (name, dtype), lambda: nf(x), lambda: lf(ax), args.repeat, args.filter)
                else:
                    case("%s %s" % (name, dtype), lambda: nf(x, y), lambda: lf(ax, ay), args.repeat, args.filter)
        if kind == "f":
            case("x**2 %s" % dtype, lambda: x ** 2, lambda: ax ** 2, args.repeat, args.filter)
            # the shape of scikit-learn's StandardScaler's (X - mean)**2: a launch's size
            xs = x[:4000 * 64].reshape(4000, 64).copy()
            axs = usmarr.asarray(xs)
            case("x**2 %s (4000, 64)" % dtype, lambda: xs ** 2, lambda: axs ** 2, args.repeat, args.filter)


def arrays(args, rng):
    x = rng.standard_normal((SIDE, SIDE)).astype(np.float32)
    d = x.astype(np.float64)
    b = x > 0.5
    i = (x * 100).astype(np.int32)
    ax, ad, ab, ai = (usmarr.asarray(v) for v in (x, d, b, i))
    r = args.repeat
    reductions = [("sum", x, ax), ("prod", x, ax), ("min", x, ax), ("max", x, ax), ("mean", d, ad), ("var", d, ad),
                  ("std", x, ax), ("argmin", x, ax), ("argmax", x, ax), ("any", b, ab), ("all", b, ab),
                  ("count_nonzero", b, ab), ("sum", i, ai), ("max", i, ai)]
    for name, v, av in reductions:
        nf, lf = getattr(np, name), getattr(usmarr, name)
        for axis, label in ((None, "all"), (0, "axis 0"), (1, "axis 1")):
            case("%s %s %s" % (name, v.dtype, label), lambda: nf(v, axis=axis), lambda: lf(av, axis=axis), r,
                 args.filter)
    for axis in (0, 1):
        case("cumulative_sum float32 axis %d" % axis, lambda: np.cumulative_sum(x, axis=axis)
             if hasattr(np, "cumulative_sum") else np.cumsum(x, axis=axis),
             lambda: usmarr.cumulative_sum(ax, axis=axis), r, args.filter)
    case("logsumexp float32 axis 1", lambda: np.log(np.sum(np.exp(x), axis=1)),
         lambda: usmarr.logsumexp(ax, axis=1), r, args.filter)
    case("clip float32", lambda: np.clip(x, -0.5, 0.5), lambda: usmarr.clip(ax, -0.5, 0.5), r, args.filter)
    case("where float32", lambda: np.where(b, x, 0.0), lambda: usmarr.where(ab, ax, 0.0), r, args.filter)
    case("tile float32 (2, 1)", lambda: np.tile(x, (2, 1)), lambda: usmarr.tile(ax, (2, 1)), r, args.filter)
    case("repeat float32 2 axis 0", lambda: np.repeat(x, 2, axis=0), lambda: usmarr.repeat(ax, 2, axis=0), r,
         args.filter)
    idx = rng.integers(0, SIDE, SIDE)
    aidx = usmarr.asarray(idx)
    case("take float32 axis 0", lambda: np.take(x, idx, axis=0), lambda: usmarr.take(ax, aidx, axis=0), r, args.filter)
    case("transpose copy float32", lambda: np.ascontiguousarray(x.T), lambda: usmarr.asarray(ax.T, copy=True), r,
         args.filter)
    case("flip float32 copy", lambda: np.flip(x).copy(), lambda: usmarr.asarray(usmarr.flip(ax), copy=True), r,
         args.filter)
    case("concat float32 axis 1", lambda: np.concatenate([x, x], axis=1), lambda: usmarr.concat([ax, ax], axis=1), r,
         args.filter)
    case("stack float32", lambda: np.stack([x, x]), lambda: usmarr.stack([ax, ax]), r, args.filter)
    case("sort float32 axis 1", lambda: np.sort(x, axis=1), lambda: usmarr.sort(ax, axis=1), r, args.filter)
    case("argsort float32 axis 1", lambda: np.argsort(x, axis=1), lambda: usmarr.argsort(ax, axis=1), r, args.filter)
    case("unique_values int32", lambda: np.unique(i), lambda: usmarr.unique_values(ai), r, args.filter)
    case("matmul float32 1024", lambda: x[:1024, :1024] @ x[:1024, :1024],
         lambda: ax[:1024, :1024] @ ax[:1024, :1024], r, args.filter)
    case("astype float32->float64", lambda: x.astype(np.float64), lambda: ax.astype(usmarr.float64), r, args.filter)
    case("mask x[b] float32", lambda: x[b], lambda: ax[ab], r, args.filter)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--filter", default="")
    args = p.parse_args()
    dev = usmarr.get_device()
    print("sweep: %s, NumPy %s" % (dev, np.__version__), flush=True)
    rng = np.random.default_rng(20261202)
    elementwise(args, rng)
    arrays(args, rng)
    slow = [(n, q) for n, q in results if q < 1]
    print("sweep: %d cases, %d slower than NumPy" % (len(results), len(slow)))
    for n, q in sorted(slow, key=lambda t: t[1]):
        print("  slower: %-40s %.2f" % (n, q))


if __name__ == "__main__":
    main()
