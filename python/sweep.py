"""The sweep (make bench-sweep): every elementwise function of each dtype class (float32,
float64, int32, bool, complex64, complex128) at 4M elements, and the reductions, scans,
statistics, creation, manipulation, indexing, search and set functions over a 2048 x 2048
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
# the functions defined for complex numbers (NumPy's and the library's), and the complex-only ones
COMPLEX = {"negative", "positive", "abs", "sign", "reciprocal", "square", "sqrt", "exp", "expm1", "log", "log2",
           "log10", "log1p", "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh",
           "atanh", "isnan", "isinf", "isfinite", "add", "subtract", "multiply", "divide", "pow", "equal",
           "not_equal", "logical_not", "logical_and", "logical_or", "logical_xor"}
COMPLEX_ONLY = {"conj": None, "real": None, "imag": None}
# real() and imag() return a new array (the array API's; x.real is the view), NumPy's a view
NEW_ARRAY = {"real", "imag"}


def sync(r):
    if isinstance(r, (tuple, list)):
        r = r[-1]
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
    if np.dtype(dtype).kind == "c":
        x, y = (rng.uniform(0.1, 0.9, (2, N)) for _ in range(2))
        return (x[0] + 1j * x[1]).astype(dtype), (y[0] + 1j * y[1]).astype(dtype)
    return rng.uniform(0.1, 0.9, N).astype(dtype), rng.uniform(0.1, 0.9, N).astype(dtype)


def elementwise(args, rng):
    for dtype in ("float32", "float64", "int32", "bool", "complex64", "complex128"):
        x, y = inputs(dtype, rng)
        ax, ay = usmarr.asarray(x), usmarr.asarray(y)
        kind = np.dtype(dtype).kind
        for table, arity in ((UNARY, 1), (BINARY, 2), (COMPLEX_ONLY, 1)):
            for name, npname in table.items():
                if kind == "c":
                    if name not in COMPLEX and table is not COMPLEX_ONLY:
                        continue
                elif table is COMPLEX_ONLY or (name in FLOAT_ONLY if kind != "f" else name in INT_ONLY):
                    continue
                if kind == "b" and not (name.startswith("logical") or name in ("equal", "not_equal", "bitwise_and")):
                    continue
                nf, lf = getattr(np, npname or name), getattr(usmarr, name)
                if name in NEW_ARRAY:
                    case("%s %s" % (name, dtype), lambda: nf(x).copy(), lambda: lf(ax), args.repeat, args.filter)
                elif arity == 1:
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
    more(args, rng, x, d, b, i, ax, ad, ab, ai)


def more(args, rng, x, d, b, i, ax, ad, ab, ai):
    """The rest of the public functions: further scans and reductions, creation,
    manipulation, indexing, search, set and products."""
    r, f = args.repeat, args.filter
    for axis in (0, 1):
        case("cumulative_prod float32 axis %d" % axis, lambda: np.cumprod(x, axis=axis),
             lambda: usmarr.cumulative_prod(ax, axis=axis), r, f)
    case("cumulative_logsumexp float64 axis 1", lambda: np.logaddexp.accumulate(d, axis=1),
         lambda: usmarr.cumulative_logsumexp(ad, axis=1), r, f)
    for axis in (None, 0, 1):
        case("reduce_hypot float32 %s" % ("all" if axis is None else "axis %d" % axis),
             lambda: np.hypot.reduce(x, axis=axis), lambda: usmarr.reduce_hypot(ax, axis=axis), r, f)
        case("sum float64 %s" % ("all" if axis is None else "axis %d" % axis), lambda: np.sum(d, axis=axis),
             lambda: usmarr.sum(ad, axis=axis), r, f)
    case("sort float32 axis 0", lambda: np.sort(x, axis=0), lambda: usmarr.sort(ax, axis=0), r, f)
    case("argsort float32 axis 0", lambda: np.argsort(x, axis=0), lambda: usmarr.argsort(ax, axis=0), r, f)
    case("top_k float32 8 axis 1", lambda: np.take_along_axis(x, np.argpartition(x, -8, axis=1)[:, -8:], axis=1),
         lambda: usmarr.top_k(ax, 8, axis=1), r, f)
    case("zeros float32", lambda: np.zeros((SIDE, SIDE), np.float32), lambda: usmarr.zeros((SIDE, SIDE)), r, f)
    case("full float64", lambda: np.full((SIDE, SIDE), 1.5), lambda: usmarr.full((SIDE, SIDE), 1.5,
         dtype=usmarr.float64), r, f)
    case("arange float32", lambda: np.arange(N, dtype=np.float32), lambda: usmarr.arange(N, dtype=usmarr.float32), r, f)
    case("linspace float64", lambda: np.linspace(0, 1, N), lambda: usmarr.linspace(0, 1, N), r, f)
    case("eye float32", lambda: np.eye(SIDE, dtype=np.float32), lambda: usmarr.eye(SIDE, dtype=usmarr.float32), r, f)
    case("tril float32", lambda: np.tril(x), lambda: usmarr.tril(ax), r, f)
    case("diagonal float32 copy", lambda: np.diagonal(x).copy(), lambda: usmarr.asarray(usmarr.diagonal(ax),
         copy=True), r, f)
    case("trace float32", lambda: np.trace(x), lambda: usmarr.trace(ax), r, f)
    case("moveaxis copy float32", lambda: np.ascontiguousarray(np.moveaxis(x.reshape(64, 32, SIDE), 0, 2)),
         lambda: usmarr.asarray(usmarr.moveaxis(ax.reshape((64, 32, SIDE)), 0, 2), copy=True), r, f)
    case("roll float32 axis 1", lambda: np.roll(x, 3, axis=1), lambda: usmarr.roll(ax, 3, axis=1), r, f)
    case("roll float32 flat", lambda: np.roll(x, 3), lambda: usmarr.roll(ax, 3), r, f)
    case("diff float32 axis 1", lambda: np.diff(x, axis=1), lambda: usmarr.diff(ax, axis=1), r, f)
    case("diff float32 axis 0", lambda: np.diff(x, axis=0), lambda: usmarr.diff(ax, axis=0), r, f)
    case("tile float32 (1, 2)", lambda: np.tile(x, (1, 2)), lambda: usmarr.tile(ax, (1, 2)), r, f)
    case("repeat float32 2 axis 1", lambda: np.repeat(x, 2, axis=1), lambda: usmarr.repeat(ax, 2, axis=1), r, f)
    case("concat float32 axis 0", lambda: np.concatenate([x, x], axis=0), lambda: usmarr.concat([ax, ax], axis=0), r, f)
    case("stack float32 axis 2", lambda: np.stack([x, x], axis=2), lambda: usmarr.stack([ax, ax], axis=2), r, f)
    case("broadcast_to copy float32", lambda: np.broadcast_to(x[0], (SIDE, SIDE)).copy(),
         lambda: usmarr.broadcast_to(ax[0], (SIDE, SIDE)).copy(), r, f)
    case("broadcast_to astype float32 (order K)", lambda: np.broadcast_to(x[0], (SIDE, SIDE)).astype(np.float32),
         lambda: usmarr.broadcast_to(ax[0], (SIDE, SIDE)).astype(usmarr.float32), r, f)
    idx = rng.integers(0, SIDE, (SIDE, SIDE))
    aidx = usmarr.asarray(idx)
    case("take float32 axis 1", lambda: np.take(x, idx[0], axis=1), lambda: usmarr.take(ax, aidx[0], axis=1), r, f)
    case("take_along_axis float32 axis 1", lambda: np.take_along_axis(x, idx, axis=1),
         lambda: usmarr.take_along_axis(ax, aidx, axis=1), r, f)
    flat = idx.reshape(-1)[:SIDE * 16]
    aflat = usmarr.asarray(flat)
    case("put float32 flat", lambda: np.put(x.copy(), flat, 1.0), lambda: usmarr.put(usmarr.asarray(ax, copy=True),
         aflat, 1.0), r, f)
    def masked_store(v, m):
        c = v.copy()
        c[m] = 0
        return c

    case("x[b] = 0 float32", lambda: masked_store(x, b), lambda: masked_store(ax, ab), r, f)
    case("place float32", lambda: np.place(x.copy(), b, [0.0]), lambda: usmarr.place(usmarr.asarray(ax, copy=True),
         ab, usmarr.asarray([0.0], dtype=usmarr.float32)), r, f)
    case("extract float32", lambda: np.extract(b, x), lambda: usmarr.extract(ab, ax), r, f)
    case("nonzero bool", lambda: np.nonzero(b), lambda: usmarr.nonzero(ab), r, f)
    xs = np.sort(x.reshape(-1))
    axs = usmarr.asarray(xs)
    q = x[:256].reshape(-1)
    aq = usmarr.asarray(q)
    case("searchsorted float32 512K in 4M", lambda: np.searchsorted(xs, q), lambda: usmarr.searchsorted(axs, aq), r, f)
    small = i[0, :256].copy()
    asmall = usmarr.asarray(small)
    case("isin int32 in 256", lambda: np.isin(i, small), lambda: usmarr.isin(ai, asmall), r, f)
    case("isclose float32", lambda: np.isclose(x, x + 1e-6), lambda: usmarr.isclose(ax, ax + 1e-6), r, f)
    case("allclose float32", lambda: np.allclose(x, x), lambda: usmarr.allclose(ax, ax), r, f)
    for name in ("unique_counts", "unique_inverse", "unique_all"):
        npf = {"unique_counts": lambda: np.unique(i, return_counts=True),
               "unique_inverse": lambda: np.unique(i, return_inverse=True),
               "unique_all": lambda: np.unique(i, return_index=True, return_inverse=True, return_counts=True)}[name]
        case("%s int32" % name, npf, lambda: getattr(usmarr, name)(ai), r, f)
    v3 = x[:, :3].copy()
    av3 = usmarr.asarray(v3)
    case("cross float32 (2048, 3)", lambda: np.cross(v3, v3[::-1]), lambda: usmarr.cross(av3, av3[::-1]), r, f)
    case("outer float32 2048", lambda: np.outer(x[0], x[1]), lambda: usmarr.outer(ax[0], ax[1]), r, f)
    case("vecdot float32 axis 1", lambda: np.vecdot(x, x), lambda: usmarr.vecdot(ax, ax), r, f)
    case("tensordot float32 axes 1 (512)", lambda: np.tensordot(x[:512, :512], x[:512, :512], axes=1),
         lambda: usmarr.tensordot(ax[:512, :512], ax[:512, :512], axes=1), r, f)
    case("matmul float64 512", lambda: d[:512, :512] @ d[:512, :512], lambda: ad[:512, :512] @ ad[:512, :512], r, f)
    case("matvec float32 2048", lambda: x @ x[0], lambda: ax @ ax[0], r, f)
    case("matvec float32 2048 (K, 1)", lambda: x @ x[:, :1], lambda: ax @ ax[:, :1], r, f)
    case("vecmat float32 2048", lambda: x[0] @ x, lambda: ax[0] @ ax, r, f)
    case("meshgrid float32 2048", lambda: [m.copy() for m in np.meshgrid(x[0], x[1])],
         lambda: [usmarr.asarray(m, copy=True) for m in usmarr.meshgrid(ax[0], ax[1])], r, f)


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
