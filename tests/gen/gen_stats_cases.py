#!/usr/bin/python3
"""NumPy oracle for the statistics tests of tests/ops/test_stats.c: logsumexp, reduce_hypot,
the cumulative functions (sum, prod, logsumexp, include_initial) and diff.

Run as `$PYTHON_NUMPY tests/gen/gen_stats_cases.py > tests/stats_cases.txt` (the build does it
before `make check`).  NumPy 2, never the library, computes every expected result.

Elements are written as the hexadecimal integer of their bytes (little-endian), so NaN,
-0.0, infinities and float16 travel exactly.  Blocks, each closed by "end":

  red NAME OP DTYPE NDIM SHAPE... NAXES AXES... KEEPDIMS    OP logsumexp|reduce_hypot;
                                                           NAXES -1: axes NULL (all)
  cum NAME OP DTYPE NDIM SHAPE... AXIS INIT                 OP sum|prod|logsumexp; AXIS N: NULL
  pred ... / pcum ...     as red (OP prod) and cum (OP prod): complex products whose
                          lines overflow part way, NumPy's own results in the dtype
                          (the elements multiplied in turn, each product rounded), exact
  diff NAME DTYPE NDIM SHAPE... AXIS N                      then optional pre/app lines
  bcast NDIM SHAPE...     (optional) the input is broadcast to this shape (zero strides)
  in V...                 the input (the header's shape), C order
  pre DTYPE NDIM SHAPE... V...    / app ...   diff's prepend / append
  exp DTYPE NDIM SHAPE... V...    the expected result
  tol ATOL RTOL           float results: |got - exp| <= ATOL + RTOL |exp| (NaN == NaN,
                          infinities exact); absent: exact
"""
import sys

import numpy as np

out = sys.stdout
rng = np.random.default_rng(20261125)
UINT = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64, 16: np.uint64}
REAL = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16", "float32",
        "float64"]
ALL = REAL + ["complex64", "complex128"]


def hexes(a):
    a = np.ascontiguousarray(a)
    if a.dtype.kind == "c":
        a = a.view(a.real.dtype)
    return " ".join("%x" % int(b) for b in a.view(UINT[a.dtype.itemsize]).ravel())


def arr(tag, a):
    return "%s %s %d %s %s" % (tag, a.dtype.name, a.ndim, " ".join(str(s) for s in a.shape), hexes(a))


def values(dtype, shape, kind="plain"):
    dt = np.dtype(dtype)
    n = int(np.prod(shape))
    if dt == np.bool_:
        a = rng.integers(0, 2, n).astype(np.bool_)
    elif dt.kind in "iu":
        if kind == "wide":
            info = np.iinfo(dt)
            a = rng.integers(info.min, info.max, n, dtype=dt, endpoint=True)
        elif kind == "prod":
            a = rng.integers(0 if dt.kind == "u" else -3, 4, n).astype(dt)
        else:
            a = rng.integers(0 if dt.kind == "u" else -40, 60, n).astype(dt)
    else:
        real = np.dtype(dt.char.lower()) if dt.kind == "c" else dt
        if kind == "prod":
            a = rng.uniform(0.7, 1.3, n)
        elif kind == "big":
            top = {2: 6e4, 4: 3e38, 8: 1e308}[real.itemsize]
            a = rng.uniform(-1, 1, n) * top
        elif kind == "neg":  # large negative, exp underflows
            a = rng.uniform(-1, 1, n) - {2: 100, 4: 200, 8: 800}[real.itemsize]
        else:
            a = rng.standard_normal(n) * 4
        a = a.astype(real)
        if kind == "overflow":  # |product| grows past the largest finite value half way along the last axis
            line = shape[-1] if len(shape) else 1
            a = np.exp(rng.uniform(0, 4 * np.log(float(np.finfo(real).max)) / line, n))
        if kind == "special":
            specials = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0], dtype=real)
            m = rng.random(n) < 0.2
            a[m] = rng.choice(specials, m.sum())
        if dt.kind == "c" and kind == "overflow":  # magnitude a, any angle
            t = rng.uniform(-np.pi, np.pi, n)
            a, b = (a * np.cos(t)).astype(real), (a * np.sin(t)).astype(real)
            c = np.empty(n, dt)
            c.real = a
            c.imag = b
            a = c
        elif dt.kind == "c":
            b = (rng.standard_normal(n) * (0.3 if kind == "prod" else 4)).astype(real)
            c = np.empty(n, dt)
            c.real = a
            c.imag = b
            a = c
    return a.reshape(shape)


def fres(dtype):
    """logsumexp/hypot result dtype: bool and integers float64"""
    dt = np.dtype(dtype)
    return np.dtype(np.float64) if dt.kind in "biu" else dt


def eps(dt):
    dt = np.dtype(dt)
    if dt.kind == "c":
        dt = np.dtype(dt.char.lower())
    return float(np.finfo(dt).eps)


def reduce_last(f, x, axes, keepdims):
    """f.reduce over a set of axes, through one flattened trailing axis"""
    nd = x.ndim
    ax = list(range(nd)) if axes is None else sorted(a % nd for a in axes)
    kept = [d for d in range(nd) if d not in ax]
    y = np.transpose(x, kept + ax).reshape([x.shape[d] for d in kept] + [int(np.prod([x.shape[d] for d in ax]))])
    r = f.reduce(y, axis=-1)
    if keepdims:
        r = r.reshape([1 if d in ax else x.shape[d] for d in range(nd)])
    return np.asarray(r)


def red(name, op, dtype, shape, axes, keepdims=False, kind="plain", bcast=None):
    x = values(dtype, shape, kind)
    logical = np.broadcast_to(x, bcast) if bcast else x
    f = np.logaddexp if op == "logsumexp" else np.hypot
    rdt = fres(dtype)
    with np.errstate(all="ignore"):
        want = reduce_last(f, logical.astype(np.float64), axes, keepdims).astype(rdt)
    n = max(1, logical.size // max(1, want.size))
    ax = "-1" if axes is None else "%d %s" % (len(axes), " ".join(str(a) for a in axes))
    out.write("red %s %s %s %d %s %s %d\n" % (name, op, dtype, len(shape), " ".join(map(str, shape)), ax,
                                              int(keepdims)))
    if bcast:
        out.write("bcast %d %s\n" % (len(bcast), " ".join(map(str, bcast))))
    out.write("in %s\n%s\n" % (hexes(x), arr("exp", want)))
    e = eps(rdt)
    out.write("tol %r %r\nend\n" % (8 * e, float(8 * e * (1 + np.sqrt(n)))))


def cum(name, op, dtype, shape, axis, init, kind="plain", bcast=None):
    x = values(dtype, shape, kind)
    logical = np.broadcast_to(x, bcast) if bcast else x
    src = logical.ravel() if axis is None else logical
    ax = 0 if axis is None else axis
    dt = np.dtype(dtype)
    with np.errstate(all="ignore"):
        if op == "logsumexp":
            rdt = fres(dtype)
            want = np.logaddexp.accumulate(src.astype(np.float64), axis=ax).astype(rdt)
            if init:
                shp = list(src.shape)
                shp[ax] = 1
                want = np.concatenate([np.full(shp, -np.inf, rdt), want], axis=ax)
        else:
            f = np.cumulative_sum if op == "sum" else np.cumulative_prod
            exact = dt.kind in "biu"
            want = f(src, axis=ax, include_initial=bool(init))
            if not exact:  # accumulated in float64 (complex128), rounded once
                hi = np.complex128 if dt.kind == "c" else np.float64
                want = f(src.astype(hi), axis=ax, include_initial=bool(init)).astype(want.dtype)
    out.write("cum %s %s %s %d %s %s %d\n" % (name, op, dtype, len(shape), " ".join(map(str, shape)),
                                             "N" if axis is None else str(axis), init))
    if bcast:
        out.write("bcast %d %s\n" % (len(bcast), " ".join(map(str, bcast))))
    out.write("in %s\n%s\n" % (hexes(x), arr("exp", want)))
    if want.dtype.kind in "fc":
        e = eps(want.dtype)
        n = src.shape[ax] if src.ndim else 1
        out.write("tol %r %r\n" % (float(8 * e * (1 + n)), float(8 * e * (1 + n))))
    out.write("end\n")


def products(name, dtype, shape, axis, init, x=None):
    """prod and cumulative_prod (blocks pred, pcum) of complex values whose product overflows
    part way along `axis` (the last): NumPy's results in the dtype itself, compared exactly."""
    x = values(dtype, shape, "overflow") if x is None else x
    with np.errstate(all="ignore"):
        want = np.asarray(np.prod(x, axis=axis))
        cwant = np.cumulative_prod(x.ravel() if axis is None else x, axis=0 if axis is None else axis,
                                   include_initial=bool(init))
    nd, shp = len(shape), " ".join(map(str, shape))
    ax = "-1" if axis is None else "1 %d" % axis
    out.write("pred %s prod %s %d %s %s 0\nin %s\n%s\nend\n" % (name, dtype, nd, shp, ax, hexes(x), arr("exp", want)))
    out.write("pcum %s prod %s %d %s %s %d\nin %s\n%s\nend\n" % (name, dtype, nd, shp,
                                                              "N" if axis is None else str(axis), init, hexes(x),
                                                              arr("exp", cwant)))


def diff(name, dtype, shape, axis, n, pre=None, app=None, kind="plain", bcast=None):
    x = values(dtype, shape, kind)
    logical = np.broadcast_to(x, bcast) if bcast else x
    kw = {}
    if pre is not None:
        kw["prepend"] = pre
    if app is not None:
        kw["append"] = app
    with np.errstate(all="ignore"):
        want = np.diff(logical, n=n, axis=axis, **kw)
    out.write("diff %s %s %d %s %d %d\n" % (name, dtype, len(shape), " ".join(map(str, shape)), axis, n))
    if bcast:
        out.write("bcast %d %s\n" % (len(bcast), " ".join(map(str, bcast))))
    out.write("in %s\n" % hexes(x))
    if pre is not None:
        out.write(arr("pre", np.asarray(pre)) + "\n")
    if app is not None:
        out.write(arr("app", np.asarray(app)) + "\n")
    out.write(arr("exp", want) + "\nend\n")


# ---- logsumexp and reduce_hypot ------------------------------------------------------------
for op in ("logsumexp", "reduce_hypot"):
    for dt in REAL:
        red("%s_%s_all" % (op, dt), op, dt, (37, 5), None)
        red("%s_%s_axis0" % (op, dt), op, dt, (37, 5), (0,))
        red("%s_%s_axis1_keep" % (op, dt), op, dt, (6, 300), (-1,), True)
    for dt in ("float16", "float32", "float64"):
        red("%s_%s_special" % (op, dt), op, dt, (9, 40), (1,), kind="special")
        red("%s_%s_big" % (op, dt), op, dt, (3, 50), (1,), kind="big")
        red("%s_%s_neg" % (op, dt), op, dt, (50, 3), (0,), kind="neg")
    red("%s_axes02" % op, op, "float32", (5, 30, 7), (0, 2))
    red("%s_axes1_3d" % op, op, "float64", (4, 9, 6), (1,), True)
    red("%s_long_f32" % op, op, "float32", (70001,), None)  # the split path
    red("%s_long_i32" % op, op, "int32", (3, 70000), (1,))
    red("%s_outer_f64" % op, op, "float64", (600, 130), (0,))
    red("%s_0d" % op, op, "float64", (), None)
    red("%s_0d_none" % op, op, "float32", (), (), False)
    red("%s_empty_axis" % op, op, "float32", (0, 5), (0,))
    red("%s_empty_kept" % op, op, "float64", (4, 0), (0,), True)
    red("%s_bcast" % op, op, "float32", (1, 70), (0,), bcast=(9, 70))
    red("%s_bcast_inner" % op, op, "float64", (6, 1), (1,), bcast=(6, 33))

# ---- cumulative ------------------------------------------------------------------------------
for op in ("sum", "prod", "logsumexp"):
    dts = REAL if op == "logsumexp" else ALL
    kind = "prod" if op == "prod" else "plain"
    for dt in dts:
        for init in (0, 1):
            cum("cum%s_%s_axis1_%d" % (op, dt, init), op, dt, (5, 33), 1, init, kind)
        cum("cum%s_%s_axis0_init" % (op, dt), op, dt, (21, 4), 0, 1, kind)
        cum("cum%s_%s_flat" % (op, dt), op, dt, (3, 4, 5), None, 1, kind)
    cum("cum%s_wide_i64" % op, op, "int64" if op != "logsumexp" else "float64", (4, 40), -1, 0,
        "wide" if op != "logsumexp" else "big")
    cum("cum%s_3d_mid" % op, op, "float32", (4, 7, 6), 1, 1, kind)
    cum("cum%s_long" % op, op, "float64", (2, 5000), 1, 1, kind)
    cum("cum%s_many_lines" % op, op, "float32", (3000, 3), 0, 0, kind)
    cum("cum%s_0d" % op, op, "float64", (), None, 1, kind)
    cum("cum%s_0d_noinit" % op, op, "int32" if op != "logsumexp" else "float32", (), None, 0, kind)
    cum("cum%s_empty" % op, op, "float32", (0, 3), 0, 1, kind)
    cum("cum%s_empty_noinit" % op, op, "float64", (3, 0), 1, 0, kind)
    cum("cum%s_empty_lines" % op, op, "float64", (0, 4), 1, 1, kind)
    cum("cum%s_bcast" % op, op, "float64", (1, 8), 0, 1, kind, bcast=(5, 8))
    if op != "prod":
        cum("cum%s_special" % op, op, "float64", (4, 30), 1, 0, "special")

# ---- complex products past an overflow --------------------------------------------------------
# (NumPy multiplies in turn; lines of at least 3 elements: a 2-element accumulate goes through
# NumPy's SIMD multiply, whose products are fused)
for dt in ("complex64", "complex128"):
    products("prod_overflow_%s_lines" % dt, dt, (4, 30), -1, 0)
    products("prod_overflow_%s_init" % dt, dt, (3, 30), 1, 1)
    products("prod_overflow_%s_all" % dt, dt, (120,), None, 0)
    products("prod_overflow_%s_long" % dt, dt, (2, 500), 1, 1)
    # the last product overflows: one part infinite, the other finite, infinite or NaN as the
    # rounded products give (x y - u v is inf - inf = NaN where a fused product is finite)
    real = np.float32 if dt == "complex64" else np.float64
    big = float(np.finfo(real).max) / 1.5
    last = np.array([[big * (1 + 1j), 2 + 1j], [big * (1 + 1j), 1.5 + 2j], [big * (-1 + 1j), 2 - 1j],
                     [big * 1j, 1 + 1e-3j], [big * (1 - 0.5j), 1.75 + 0.25j], [1 + 1j, big * (1 + 1j)]], dt)
    lead = values(dt, (6, 5), "prod")
    lead = (lead / np.abs(lead)).astype(dt)  # |product| about 1 before the last two
    products("prod_overflow_%s_last" % dt, dt, (6, 7), 1, 0, np.concatenate([lead, last], axis=1))

# ---- diff --------------------------------------------------------------------------------------
for dt in ALL:
    diff("diff_%s_1" % dt, dt, (6, 17), 1, 1)
    diff("diff_%s_2_axis0" % dt, dt, (9, 4), 0, 2)
diff("diff_u8_wrap", "uint8", (40,), 0, 1)
diff("diff_i8_wide3", "int8", (4, 30), -1, 3, kind="wide")
diff("diff_f32_special", "float32", (5, 20), 1, 1, kind="special")
diff("diff_n0", "int32", (3, 5), 1, 0)
diff("diff_n_len", "float64", (3, 5), 1, 5)
diff("diff_n_beyond", "float64", (3, 5), 1, 9)
diff("diff_empty", "float32", (0, 5), 1, 1)
diff("diff_empty_axis", "float32", (4, 0), 1, 2)
diff("diff_long", "float32", (2, 70000), 1, 1)
diff("diff_3d_mid", "int16", (3, 8, 5), 1, 2)
diff("diff_pre_0d", "int32", (4, 6), 1, 1, pre=np.array(7, np.int32))
diff("diff_app_0d_promote", "int8", (4, 6), 0, 1, app=np.array(-3, np.int64))
diff("diff_pre_app", "float32", (3, 5), 1, 2, pre=values("float32", (3, 2)), app=values("float64", (3, 1)))
diff("diff_pre_bool", "bool", (2, 9), 1, 1, pre=np.array([[True], [False]]))
diff("diff_app_axis0", "complex64", (2, 3), 0, 1, app=values("complex64", (3, 3)))
diff("diff_pre_n0", "uint16", (5,), 0, 0, pre=values("uint16", (2,)))  # n 0: x, prepend ignored
diff("diff_pre_empty_x", "float64", (0,), 0, 1, pre=values("float64", (3,)))
diff("diff_bcast", "float64", (1, 12), 1, 1, bcast=(4, 12))
diff("diff_bcast_axis0", "int32", (1, 6), 0, 1, bcast=(5, 6))
