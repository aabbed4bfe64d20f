"""The operations of the differential test against NumPy 2 (tests/scripts/fuzz_numpy.py):
each draws its arguments from rng, appends its text to log, checks usmarr against NumPy
(run_both) and returns usmarr's result array for the next operation, or None."""
import numpy as np

import usmarr as xp
import usmarr.storage as xs
from fuzz_numpy_core import (DTYPES, Pair, broadcast_partner, deliberate, make_pair, make_special_pair, math_tol,
                             random_shape, run_both, values, weak_scalar)


# ---- elementwise ------------------------------------------------------------------------------------
UNARY_EXACT = ["negative", "positive", "abs", "square", "floor", "ceil", "trunc", "round", "isnan", "isinf",
               "isfinite", "logical_not", "bitwise_invert", "conj", "real", "imag", "sign", "signbit"]
UNARY_MATH = ["sqrt", "exp", "expm1", "log", "log1p", "log2", "log10", "sin", "cos", "tan", "asin", "acos", "atan",
              "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "cbrt", "exp2", "reciprocal"]
BINARY_EXACT = ["add", "subtract", "multiply", "maximum", "minimum", "fmax", "fmin", "equal", "not_equal", "less",
                "less_equal", "greater", "greater_equal", "logical_and", "logical_or", "logical_xor", "bitwise_and",
                "bitwise_or", "bitwise_xor", "left_shift", "right_shift", "floor_divide", "remainder", "copysign",
                "nextafter"]
BINARY_MATH = ["divide", "pow", "atan2", "hypot", "logaddexp"]
NUMPY_NAME = {"asin": "arcsin", "acos": "arccos", "atan": "arctan", "asinh": "arcsinh", "acosh": "arccosh",
              "atanh": "arctanh", "atan2": "arctan2", "pow": "power", "bitwise_invert": "invert",
              "divide": "true_divide", "real": "real", "imag": "imag"}


def np_fn(name):
    return getattr(np, NUMPY_NAME.get(name, name))


def nonfinite(a):
    a = np.asarray(a)
    return a.dtype.kind in "fc" and not np.all(np.isfinite(a))


def log1p_small_parts(z, r):
    """NumPy's complex log1p with the real part of every z with x > -1/2 and parts below 2 in size
    taken from log|1 + z| = log1p(2x + x^2 + y^2) / 2 in long double: NumPy's log(hypot(1 + x, y))
    loses the digits that 1 + x rounds away (500 ulp at |z| = 1e-3)."""
    w = np.asarray(z).astype(np.clongdouble)
    x, y = w.real, w.imag
    small = np.isfinite(w) & (x > -0.5) & (np.maximum(np.abs(x), np.abs(y)) < 2)
    re = np.longdouble(0.5) * np.log1p(x * (x + 2) + y * y)
    out = np.array(r, copy=True)
    out.real = np.where(small, re.astype(out.real.dtype), out.real)
    return out


def op_unary(rng, p, log):
    name = rng.choice(UNARY_EXACT + UNARY_MATH)
    fix = None
    if name == "log1p" and p.n.dtype.kind == "c" and deliberate("complex-log1p-small"):
        fix = lambda r: log1p_small_parts(p.n, r)  # noqa: E731
    if name == "reciprocal" and p.n.dtype.kind in "iu" and deliberate("integer-reciprocal-zero"):
        fix = lambda r: np.where(p.n == 0, 0, r).astype(r.dtype)  # noqa: E731
    if name == "round" and p.n.dtype.kind == "b" and deliberate("round-bool"):
        fix = lambda r: r.astype(bool)  # noqa: E731
    if (name in ("expm1", "tanh", "tan") and p.n.dtype.kind == "c" and nonfinite(p.n)
            and deliberate("complex-special-values")):
        return None
    if name == "sign" and p.n.dtype.kind == "c" and magnitude_out_of_range(p.n) and deliberate("complex-sign-extremes"):
        return None
    contiguous = name == "square" and p.n.dtype.kind == "c" and deliberate("complex-multiply-fused")
    tol = "exact" if name in UNARY_EXACT else "math"
    if name == "sign" and p.n.dtype.kind == "c":
        tol = ("ulp", 4)  # z / |z|
    if name == "abs" and p.n.dtype.kind == "c":
        tol = "math"  # hypot
    log.append("%s(x)" % name)
    fnn, fnu = np_fn(name), getattr(xp, name)
    x_n = np.ascontiguousarray(p.n) if contiguous else p.n
    r = run_both(name, lambda: np.asarray(fnn(x_n)).copy(), lambda: fnu(p.u), tol, fix=fix)
    return r and r[1]


def magnitude_out_of_range(z):
    """Whether a finite complex z has |z| below the smallest normal or above the largest finite
    value of its dtype (where NumPy's z / hypot(z) keeps few digits or gives 0)."""
    z = np.asarray(z)
    fi = np.finfo(z.real.dtype)
    m = np.abs(z.astype(np.clongdouble))
    return bool(np.any(np.isfinite(m) & (m > 0) & ((m < fi.smallest_normal) | (m > fi.max))))


def pow_overflows(a, b):
    """Whether a complex power of finite operands has an infinite or NaN part in NumPy."""
    try:
        with np.errstate(all="ignore"):
            r = np.asarray(np.power(a, b))
            fin = np.isfinite(np.asarray(a)) & np.isfinite(np.asarray(b))
            return bool(np.any(np.broadcast_to(fin, r.shape) & ~np.isfinite(r)))
    except Exception:  # noqa: BLE001 (NumPy refuses: the check compares the errors)
        return False


def op_binary(rng, p, log, partner=None):
    name = rng.choice(BINARY_EXACT + BINARY_MATH)
    if partner is not None:
        other_n, other_u, other_text = partner.n, partner.u, partner.text
    elif rng.random() < 0.35:
        other_n = other_u = weak_scalar(rng)
        other_text = repr(other_n)
    else:
        q = broadcast_partner(rng, p, rng.choice(DTYPES) if rng.random() < 0.4 else p.n.dtype.name)
        other_n, other_u, other_text = q.n, q.u, q.text
    first = rng.random() < 0.8
    a_n, b_n = (p.n, other_n) if first else (other_n, p.n)
    a_u, b_u = (p.u, other_u) if first else (other_u, p.u)
    fnn, fnu = np_fn(name), getattr(xp, name)
    try:
        res = np.result_type(a_n, b_n)
    except Exception:  # noqa: BLE001 (no common dtype: both must raise)
        res = None
    tol = "exact" if name in BINARY_EXACT else "math"
    if name == "pow" and res is not None and res.kind == "c":
        tol = ("ulp", 4096)  # exp(b log a): the error of log a grows with b
        if pow_overflows(a_n, b_n) and deliberate("complex-pow-overflow-direction"):
            return None
    if name in ("floor_divide", "remainder") and res is not None and res.kind == "f":
        tol = ("ulp", 1)
    fix = None
    if name == "nextafter" and res == np.float16 and deliberate("nextafter-float16-equal"):
        fix = lambda r: np.where(np.asarray(a_n) == np.asarray(b_n), np.asarray(b_n, r.dtype), r).astype(r.dtype)  # noqa: E731
    zero_sign = not (name in ("maximum", "minimum", "fmax", "fmin") and deliberate("min-max-zero-sign"))
    if name == "multiply" and res is not None and res.kind == "c" and deliberate("complex-multiply-fused"):
        a_n, b_n = (np.ascontiguousarray(v) if isinstance(v, np.ndarray) else v for v in (a_n, b_n))
    log.append("%s(%s, %s)" % (name, "x" if first else other_text, other_text if first else "x"))
    r = run_both(name, lambda: np.asarray(fnn(a_n, b_n)).copy(), lambda: fnu(a_u, b_u), tol, zero_sign, fix)
    return r and r[1]


def op_specials(rng, p, log):
    """An elementwise function of an array of 32 to 80 elements whose special values (NaN,
    infinities, signed zeros, subnormals, the extremes, integer zeros and limits) sit next to
    ordinary ones in every 16-lane vector, against another such array or a scalar.  The chain
    goes on from its result."""
    dtype = rng.choice(["float16", "float32", "float64", "complex64", "complex128", "float32", "complex64",
                        rng.choice(DTYPES)])
    n = rng.randint(32, 80)
    shape = rng.choice([(n,), (2, n // 2), (n // 4, 4)])
    q = make_special_pair(rng, dtype, shape)
    log.append(q.text)
    if rng.random() < 0.45:
        return op_unary(rng, q, log)
    other = rng.choice([dtype, dtype, rng.choice(DTYPES)])
    partner = make_special_pair(rng, other, shape[rng.randint(0, len(shape) - 1):])
    return op_binary(rng, q, log, partner if rng.random() < 0.8 else None)


# ---- reductions and statistics ----------------------------------------------------------------------
def reduce_tol(p, name):
    d = p.n.dtype
    if d.kind in "biu" and name not in ("mean", "var", "std"):
        return "exact"
    real = np.float64 if d.kind in "biu" else (d.type(0).real.dtype)
    eps = float(np.finfo(np.float32 if real == np.float16 else real).eps)
    fin = np.isfinite(p.n)
    mag = float(np.max(np.abs(p.n[fin].astype(np.float64)))) if np.any(fin) else 1.0
    n = max(p.n.size, 1)
    if name in ("var", "std"):
        return ("abs", 64 * n * eps * max(mag, 1.0) * max(mag, 1.0) + (1e-3 if real == np.float16 else 0))
    if name in ("prod", "cumulative_prod"):
        return ("ulp", 4 * n)
    base = 16 * n * eps * max(mag, 1e-30)
    if real == np.float16 and deliberate("float16-accumulates-in-float32"):
        base += n * float(np.finfo(np.float16).eps) * max(mag, 1e-30)
    return ("abs", base)


def random_axis(rng, nd, several):
    if not nd or rng.random() < 0.3:
        return None
    axis = rng.randint(-nd, nd - 1)
    if several and nd > 1 and rng.random() < 0.3:
        axis = tuple(sorted({axis % nd, rng.randrange(nd)}))
    return axis


def mean_parts(x, **kw):
    """The mean of complex x as the library computes it: each part of the sum divided by the count."""
    s = np.asarray(np.sum(x, **kw))
    n = x.size // s.size if s.size else 0
    r = np.empty_like(s)
    with np.errstate(all="ignore"):
        r.real, r.imag = s.real / n, s.imag / n
    return r


def reduced_count(x, axis):
    """The number of elements each result of a reduction over `axis` (None, int or tuple) takes."""
    axes = range(x.ndim) if axis is None else (axis,) if isinstance(axis, int) else axis
    return int(np.prod([x.shape[a] for a in axes], dtype=np.int64))


def equal_elements_var(x, r, axis, nkw):
    """NumPy's var or std r with the library's rule for slices of equal finite elements (doc/ops.md):
    their deviations are 0 (var 0, or 0/0 = NaN past the count), where NumPy's mean of them may
    round away from the element.  The rule applies where NumPy's mean is finite."""
    x = np.asarray(x)
    if x.size == 0 or x.dtype.kind not in "fc":
        return r
    kd = {"axis": axis, "keepdims": nkw.get("keepdims", False)}
    with np.errstate(all="ignore"):
        parts = [x.real, x.imag] if x.dtype.kind == "c" else [x]
        equal = np.all(np.isfinite(x), **kd)
        for a in parts:
            equal &= np.max(a, **kd) == np.min(a, **kd)
        equal &= np.isfinite(np.mean(x.astype(np.float32) if x.dtype == np.float16 else x, **kd))
        left = reduced_count(x, axis) - nkw.get("ddof", 0)
        zero = np.zeros((), np.asarray(r).dtype) / (left if left > 0 else 0)
    return np.asarray(np.where(equal, zero, r)).astype(np.asarray(r).dtype)


def op_reduce(rng, p, log):
    name = rng.choice(["sum", "prod", "min", "max", "mean", "var", "std", "argmin", "argmax", "all", "any",
                       "count_nonzero"])
    nd = p.n.ndim
    axis = random_axis(rng, nd, name not in ("argmin", "argmax"))
    if name in ("var", "std", "mean") and p.n.dtype.kind == "b":
        return None
    if name == "prod" and p.n.dtype.kind in "fc" and p.n.size > 20:
        return None
    if name == "prod" and p.n.dtype.kind == "c" and nonfinite(p.n) and deliberate("complex-prod-infinities"):
        return None
    kw = {}
    if rng.random() < 0.3:
        kw["keepdims"] = True
    if axis is not None:
        kw["axis"] = axis
    nkw = dict(kw)
    fix = None
    if name in ("var", "std") and rng.random() < 0.6:  # 1, or at, about or past the count (NumPy divides by 0)
        count = reduced_count(p.n, axis)
        kw["correction"] = nkw["ddof"] = max(0.5, rng.choice([1, 1, count, count + 0.5, count + rng.randint(1, 9),
                                                                count - 0.5, 2 * count + 1.5]))
    if name in ("var", "std") and deliberate("var-equal-elements"):
        fix = lambda r: equal_elements_var(p.n, r, axis, nkw)  # noqa: E731
    tol = "exact" if name in ("min", "max", "argmin", "argmax", "all", "any", "count_nonzero") else reduce_tol(p, name)
    log.append("%s(x, %s)" % (name, kw))
    fnn = getattr(np, name)
    if name == "mean" and p.n.dtype.kind == "c" and deliberate("complex-mean-parts"):
        fnn = mean_parts
    if name in ("var", "std") and p.n.dtype == np.float16 and deliberate("float16-accumulates-in-float32"):
        fnn = lambda x, **k: getattr(np, name)(x.astype(np.float32), **k).astype(np.float16)  # noqa: E731
    r = run_both(name, lambda: np.asarray(fnn(p.n, **nkw)), lambda: getattr(xp, name)(p.u, **kw), tol,
                 zero_sign=name in ("min", "max"), fix=fix)
    return r and (r[1] if isinstance(r[1], xp.Array) else None)


def op_stats(rng, p, log):
    """The cumulative functions and dpctl's logsumexp / reduce_hypot / cumulative_logsumexp,
    against NumPy's ufunc reduce and accumulate of logaddexp and hypot."""
    name = rng.choice(["cumulative_sum", "cumulative_prod", "logsumexp", "reduce_hypot", "cumulative_logsumexp"])
    nd = p.n.ndim
    if name.startswith("cumulative"):
        if nd == 0:
            return None
        axis = rng.randint(-nd, nd - 1) if nd > 1 or rng.random() < 0.5 else None
        initial = rng.random() < 0.3
        kw = {"axis": axis, "include_initial": initial}
    else:
        kw = {"axis": random_axis(rng, nd, True), "keepdims": rng.random() < 0.3}
    if (name == "cumulative_prod" and p.n.dtype.kind == "c" and nonfinite(p.n)
            and deliberate("complex-prod-infinities")):
        return None
    if name in ("logsumexp", "reduce_hypot", "cumulative_logsumexp"):
        if p.n.dtype.kind not in "f":
            return None  # dpctl's real-only functions; NumPy's ufunc loops differ in the result dtype of integers
        uf = np.logaddexp if "logsumexp" in name else np.hypot
        mag = max(1.0, float(np.max(np.abs(p.n[np.isfinite(p.n)]).astype(np.float64), initial=1.0)))
        eps = float(np.finfo(np.float32 if p.n.dtype == np.float16 else p.n.dtype).eps)
        tol = ("abs", max(p.n.size, 1) * mag * (8 * eps + (1e-3 if p.n.dtype == np.float16 else 0)))

        def fnn():
            x = p.n
            if name == "cumulative_logsumexp":
                ax = 0 if kw["axis"] is None else kw["axis"]
                r = uf.accumulate(x.astype(np.float64), axis=ax).astype(x.dtype)
                if kw["include_initial"]:
                    shape = list(r.shape)
                    shape[ax] = 1
                    r = np.concatenate([np.full(shape, -np.inf, x.dtype), r], axis=ax)
                return r
            r = uf.reduce(x.astype(np.float64), axis=kw["axis"], keepdims=kw["keepdims"],
                          initial=-np.inf if uf is np.logaddexp else 0.0)  # (exact beside any element)
            return np.asarray(r).astype(x.dtype)
    else:
        fnn = lambda: getattr(np, name)(p.n, **kw)  # noqa: E731
        tol = reduce_tol(p, name)
    log.append("%s(x, %s)" % (name, kw))
    r = run_both(name, fnn, lambda: getattr(xp, name)(p.u, **kw), tol, zero_sign=False)
    return r and r[1]


def op_products(rng, p, log):
    """prod of more than 20 complex elements and cumulative_prod, their lines growing past the
    largest finite value part way (on a CPU device: a GPU's kernel shape multiplies in another
    order, doc/ops.md) or staying finite.  prod takes C-ordered lines (NumPy reduces other
    layouts in memory order); cumulative_prod any view.  The chain goes on from the scan."""
    dtype = rng.choice(["complex64", "complex128"])
    n = rng.randint(21, 120)
    lines = rng.randint(1, 3)
    shape, axis = rng.choice([((n,), 0), ((n,), None), ((lines, n), 1), ((lines, n), -1), ((n, lines), 0)])
    top = float(np.log(np.finfo(np.float32 if dtype == "complex64" else np.float64).max))
    overflow = ":cpu:" in xp.get_device().selector and rng.random() < 0.75
    grow = (4 if overflow else 0.9) * top / n  # |product| passes the largest finite value half way, or never
    m = np.array([np.exp(rng.uniform(0, grow)) for _ in range(int(np.prod(shape)))])
    t = np.array([rng.uniform(-np.pi, np.pi) for _ in range(m.size)])
    x_n = np.empty(m.size, dtype)
    x_n.real, x_n.imag = m * np.cos(t), m * np.sin(t)
    x_n = x_n.reshape(shape)
    q = Pair(x_n, xp.asarray(x_n), "%s%s with |x| up to exp(%.3g)" % (dtype, shape, grow))
    log.append(q.text)
    nm = max(n, 1)
    log.append("prod(x, axis=%s)" % axis)
    run_both("prod", lambda: np.asarray(np.prod(q.n, axis=axis)), lambda: xp.prod(q.u, axis=axis), ("ulp", 4 * nm))
    ax = 0 if axis is None else axis
    initial = rng.random() < 0.3
    if rng.random() < 0.3:  # a reversed view: accumulation follows the logical order
        q = Pair(np.flip(q.n, axis=ax), xp.flip(q.u, axis=ax), "flip(x, %d)" % ax)
        log.append(q.text)
    log.append("cumulative_prod(x, axis=%d, include_initial=%s)" % (ax, initial))
    r = run_both("cumulative_prod", lambda: np.cumulative_prod(q.n, axis=ax, include_initial=initial),
                 lambda: xp.cumulative_prod(q.u, axis=ax, include_initial=initial), ("ulp", 4 * nm))
    return r and r[1]


# ---- indexing and assignment ------------------------------------------------------------------------
def random_key(rng, shape, kind, unique=False):
    """A key for shape, as NumPy's: basic (slices, integers, None, ...), integer arrays on one or
    two axes (broadcast together), or a boolean mask over the leading axes."""
    nd = len(shape)
    if kind == "basic":
        key = []
        for s in shape:
            c = rng.random()
            if c < 0.4:
                key.append(slice(rng.randint(-s - 1, s + 1), rng.randint(-s - 1, s + 1), rng.choice([1, 2, -1, -3])))
            elif c < 0.6 and s:
                key.append(rng.randint(-s, s - 1))
            else:
                key.append(slice(None))
        if key and rng.random() < 0.3:
            key = key[:rng.randint(0, len(key))] + [Ellipsis]
        if rng.random() < 0.2:
            key.insert(rng.randint(0, len(key)), None)
        return tuple(key)
    if kind == "int":
        axes = [rng.randrange(nd)] if unique else sorted(rng.sample(range(nd), min(nd, rng.choice([1, 1, 2]))))
        m = rng.randint(0, 4)
        key = [slice(None)] * (axes[-1] + 1)
        for k, ax in enumerate(axes):
            s = shape[ax]
            if not s:
                picks = []
            elif unique:  # (repeated targets of an assignment: the last write wins in NumPy, any in the standard)
                picks = [v - s if rng.random() < 0.5 else v for v in rng.sample(range(s), min(m, s))]
            else:
                picks = [rng.randint(-s, s - 1) for _ in range(m if k == 0 else 1)]
                if rng.random() < 0.05:
                    picks = [s + 3]
            key[ax] = np.array(picks, np.int64)
        return tuple(key)
    lead = rng.randint(1, nd)
    return (np.array([rng.random() < 0.5 for _ in range(int(np.prod(shape[:lead], dtype=np.int64)))],
                     bool).reshape(shape[:lead]),)


def key_u(key):
    return tuple(xp.asarray(k) if isinstance(k, np.ndarray) else k for k in key)


def key_text(key):
    def one(k):
        if k is None:
            return "None"
        if k is Ellipsis:
            return "..."
        if isinstance(k, slice):
            return "%s:%s:%s" % tuple("" if v is None else v for v in (k.start, k.stop, k.step))
        if isinstance(k, np.ndarray):
            return "%s%s" % (k.dtype.name, k.tolist())
        return repr(k)
    return "[%s]" % ", ".join(one(k) for k in key)


def op_index(rng, p, log):
    nd = p.n.ndim
    kind = rng.choice(["basic", "basic", "int", "mask", "take", "take_along_axis", "nonzero"])
    if nd == 0 and kind != "basic":
        return None
    if kind in ("basic", "int", "mask"):
        key = random_key(rng, p.n.shape, kind)
        log.append("x%s" % key_text(key))
        r = run_both("getitem", lambda: np.asarray(p.n[key]).copy(), lambda: p.u[key_u(key)])
    elif kind == "take":
        ax = rng.randrange(nd)
        s = p.n.shape[ax]
        idx = np.array([rng.randint(-s, s - 1) for _ in range(rng.randint(0, 4))] if s else [], np.int64)
        log.append("take(x, %s, axis=%d)" % (idx.tolist(), ax))
        r = run_both("take", lambda: np.take(p.n, idx, axis=ax), lambda: xp.take(p.u, xp.asarray(idx), axis=ax))
    elif kind == "take_along_axis":
        ax = rng.randint(-nd, nd - 1)
        shape = list(p.n.shape)
        s = shape[ax]
        shape[ax] = rng.randint(0, 3)
        if not s:
            shape[ax] = 0
        idx = np.array([rng.randint(-s, s - 1) for _ in range(int(np.prod(shape)))] if s else [],
                       np.int64).reshape(shape)
        log.append("take_along_axis(x, %s, axis=%d)" % (key_text((idx,)), ax))
        r = run_both("take_along_axis", lambda: np.take_along_axis(p.n, idx, axis=ax),
                     lambda: xp.take_along_axis(p.u, xp.asarray(idx), axis=ax))
    else:
        log.append("nonzero(x)")
        r = run_both("nonzero", lambda: np.nonzero(p.n), lambda: xp.nonzero(p.u))
        return None
    return r and r[1]


def in_range(v, dtype):
    """Whether every value of float or complex v converts to integer dtype as C defines it."""
    x = np.real(v).astype(np.float64)
    info = np.iinfo(dtype)
    return bool(np.all(np.isfinite(x) & (x > float(info.min) - 1) & (x < float(info.max) + 1)))


def op_setitem(rng, p, log):
    """x[key] = value on a copy (through a reversed view half the time): a Python scalar of the
    array's kind, or an array that broadcasts to the selection."""
    nd = p.n.ndim
    kind = rng.choice(["basic", "int", "mask"]) if nd else "basic"
    n = np.array(p.n, copy=True)
    u = xp.asarray(n)
    tn, tu, text = n, u, "x"
    if nd and rng.random() < 0.5:
        tn, tu, text = n[::-1], u[::-1], "x[::-1]"
    key = random_key(rng, tn.shape, kind, unique=True)
    try:
        sel = tn[key].shape
    except IndexError:
        return None  # an out-of-range key: getitem checks the errors
    if rng.random() < 0.5:
        vn = vu = values(rng, p.n.dtype.name, 1)[0].item()
        vtext = repr(vn)
    else:
        q = make_pair(rng, p.n.dtype.name if rng.random() < 0.8 else rng.choice(DTYPES),
                      sel[rng.randint(0, len(sel)):] if sel else ())
        vn, vu, vtext = q.n, q.u, q.text
    log.append("%s%s = %s" % (text, key_text(key), vtext))
    if isinstance(vn, np.ndarray) and kind == "mask" and vn.ndim > 1 and deliberate("mask-assignment-dims"):
        return None
    if (isinstance(vn, np.ndarray) and sel == () and vn.ndim and vn.size == 1 and p.n.dtype == np.bool_
            and deliberate("bool-element-from-array")):
        return None
    if (isinstance(vn, np.ndarray) and vn.dtype.kind in "fc" and p.n.dtype.kind in "iu"
            and not in_range(vn, p.n.dtype) and deliberate("float-to-int-out-of-range")):
        return None
    if isinstance(vn, np.ndarray) and kind != "basic" and 0 in sel and deliberate("empty-assignment-shapes"):
        try:
            np.empty(sel)[...] = vn
        except ValueError:
            return None

    def set_n():
        tn[key] = vn
        return n

    def set_u():
        tu[key_u(key)] = vu
        return u
    # (NumPy's exception kinds for an assignment's shapes vary: TypeError for a mask and a 2-d value)
    r = run_both("setitem", set_n, set_u, any_error=True)
    return r and r[1]


# ---- sorting, searching and sets --------------------------------------------------------------------
def op_sort(rng, p, log):
    nd = p.n.ndim
    name = rng.choice(["sort", "argsort", "searchsorted", "unique_values", "unique_counts", "unique_inverse",
                       "unique_all", "isin"])
    zs = not deliberate("sort-zero-sign")
    if name in ("sort", "argsort"):
        if nd == 0:
            return None
        axis = rng.randint(-nd, nd - 1)
        desc = rng.random() < 0.3
        log.append("%s(x, axis=%d, descending=%s)" % (name, axis, desc))
        if name == "sort":
            def fnn():
                r = np.sort(p.n, axis=axis)
                return np.flip(r, axis=axis) if desc else r
            r = run_both(name, fnn, lambda: xp.sort(p.u, axis=axis, descending=desc), zero_sign=zs)
        else:
            def fnn():  # the stable descending order: ties keep their order
                if not desc:
                    return np.argsort(p.n, axis=axis, kind="stable")
                m = p.n.shape[axis]
                rev = np.flip(p.n, axis=axis)
                return m - 1 - np.flip(np.argsort(rev, axis=axis, kind="stable"), axis=axis)
            r = run_both(name, fnn, lambda: xp.argsort(p.u, axis=axis, descending=desc, stable=True))
        return r and r[1]
    flat_n = p.n.reshape(-1)
    flat_u = xp.reshape(p.u, (-1,))
    if name == "searchsorted":
        if p.n.dtype.kind == "c":
            return None
        srt = np.sort(flat_n)
        keys = values(rng, p.n.dtype.name, rng.randint(0, 6)).reshape(rng.choice([(-1,), (-1, 1)]))
        side = rng.choice(["left", "right"])
        log.append("searchsorted(sort(x), %s, side=%s)" % (keys.tolist(), side))
        r = run_both(name, lambda: np.searchsorted(srt, keys, side=side),
                     lambda: xp.searchsorted(xp.asarray(srt), xp.asarray(keys), side=side))
        return r and r[1]
    if name == "isin":
        other = values(rng, rng.choice([p.n.dtype.name, rng.choice(DTYPES)]), rng.randint(0, 6))
        inv = rng.random() < 0.3
        log.append("isin(x, %s%s)" % (other.tolist(), ", invert=True" if inv else ""))
        r = run_both(name, lambda: np.isin(p.n, other, invert=inv), lambda: xp.isin(p.u, xp.asarray(other), invert=inv))
        return r and r[1]
    log.append("%s(x)" % name)
    fnn, fnu = getattr(np, name), getattr(xp, name)
    if name == "unique_values":
        run_both(name, lambda: np.sort(fnn(flat_n)), lambda: fnu(flat_u), zero_sign=zs)
    elif name == "unique_counts":
        run_both(name, lambda: tuple(fnn(flat_n)), lambda: tuple(fnu(flat_u)), zero_sign=zs)
    else:  # (values, [first occurrences,] inverse in x's shape[, counts])
        run_both(name, lambda: nan_order(tuple(fnn(p.n)), p.n), lambda: nan_order(tuple(fnu(p.u)), p.n), zero_sign=zs)
    return None


def nan_order(result, x):
    """unique_inverse's or unique_all's result with its NaN values (each one distinct) in the
    order of the NaN elements of x in C order: which NaN of x goes to which NaN value is
    unspecified (the standard and NumPy), so both sides are put in this one order."""
    r = [np.array(a.to_numpy() if isinstance(a, xp.Array) else a) for a in result]
    slots = np.flatnonzero(np.isnan(r[0]))
    where = np.flatnonzero(np.isnan(x.reshape(-1)))
    if len(slots) == len(where) and len(slots):
        inverse = r[-1] if len(r) == 2 else r[2]
        inverse.reshape(-1)[where] = slots
        if len(r) == 4:
            r[1][slots] = where
    return tuple(r)


# ---- linear algebra ---------------------------------------------------------------------------------
def op_linalg(rng, p, log):
    d = p.n.dtype.name
    name = rng.choice(["matmul", "matmul", "tensordot", "vecdot", "matrix_transpose"])
    if name == "matrix_transpose":
        if p.n.ndim < 2:
            return None
        log.append("matrix_transpose(x)")
        r = run_both(name, lambda: np.matrix_transpose(p.n).copy(), lambda: xp.matrix_transpose(p.u))
        return r and r[1]
    if d == "bool":
        return None
    k = rng.randint(1, 5)
    m, n = rng.randint(0, 4), rng.randint(0, 4)
    batch = random_shape(rng, rng.randint(0, 2), lo=1)
    a_shape = rng.choice([(k,), batch + (m, k)])
    b_shape = rng.choice([(k,), (k, n), tuple(1 if rng.random() < 0.5 else s for s in batch) + (k, n)])
    a = make_pair(rng, d, a_shape, special=False)
    b = make_pair(rng, rng.choice([d, d, rng.choice(DTYPES[1:])]), b_shape, special=False)

    def tol(x, y):  # k products, each within the product of the operands' largest magnitudes
        res = np.result_type(x.n, y.n)
        real = np.float64 if res.name in ("float64", "complex128") else np.float32
        big = max(float(np.max(np.abs(v.n.astype(np.complex128)), initial=1.0)) for v in (x, y))
        return "exact" if res.kind in "iu" else ("abs", 64 * k * float(np.finfo(real).eps) * big * big +
                                                 (0.1 if res.name == "float16" else 0))
    if name == "matmul":
        log.append("matmul(%s, %s)" % (a.text, b.text))
        r = run_both(name, lambda: np.matmul(a.n, b.n), lambda: xp.matmul(a.u, b.u), tol(a, b))
    elif name == "tensordot":
        log.append("tensordot(%s, %s, 1)" % (a.text, b.text))
        r = run_both(name, lambda: np.tensordot(a.n, b.n, 1), lambda: xp.tensordot(a.u, b.u, axes=1), tol(a, b))
    else:
        c = make_pair(rng, d, a.n.shape[rng.randint(0, a.n.ndim - 1):], special=False)
        log.append("vecdot(%s, %s)" % (a.text, c.text))
        r = run_both(name, lambda: np.vecdot(a.n, c.n), lambda: xp.vecdot(a.u, c.u), tol(a, c))
    return r and r[1]


# ---- manipulation -----------------------------------------------------------------------------------
def op_manip(rng, p, log):
    nd = p.n.ndim
    name = rng.choice(["reshape", "flip", "roll", "concat", "stack", "squeeze", "where", "clip", "astype", "diff",
                       "repeat", "tile", "tril", "triu", "moveaxis", "broadcast_to"])
    if name == "reshape":
        shape = (-1,) if rng.random() < 0.5 else tuple(reversed(p.n.shape))
        log.append("reshape(x, %s)" % (shape,))
        r = run_both(name, lambda: np.reshape(p.n, shape).copy(), lambda: xp.reshape(p.u, shape))
    elif name == "flip":
        ax = None if nd == 0 or rng.random() < 0.3 else rng.randint(-nd, nd - 1)
        log.append("flip(x, %s)" % ax)
        r = run_both(name, lambda: np.flip(p.n, axis=ax).copy(), lambda: xp.flip(p.u, axis=ax))
    elif name == "roll":
        sh = rng.randint(-7, 7)
        ax = None if nd == 0 or rng.random() < 0.4 else rng.randint(-nd, nd - 1)
        log.append("roll(x, %d, %s)" % (sh, ax))
        r = run_both(name, lambda: np.roll(p.n, sh, axis=ax), lambda: xp.roll(p.u, sh, axis=ax))
    elif name in ("concat", "stack"):
        if name == "concat" and nd == 0:
            return None
        q = make_pair(rng, rng.choice([p.n.dtype.name, rng.choice(DTYPES)]), p.n.shape)
        ax = 0 if nd == 0 else rng.randint(-nd, nd - 1)
        log.append("%s([x, %s], axis=%d)" % (name, q.text, ax))
        fnn = np.concatenate if name == "concat" else np.stack
        r = run_both(name, lambda: fnn([p.n, q.n], axis=ax), lambda: getattr(xp, name)([p.u, q.u], axis=ax))
    elif name == "squeeze":
        axes = tuple(i for i, s in enumerate(p.n.shape) if s == 1)
        if not axes:
            return None
        log.append("squeeze(x, %s)" % (axes,))
        r = run_both(name, lambda: np.squeeze(p.n, axis=axes).copy(), lambda: xp.squeeze(p.u, axis=axes))
    elif name == "where":
        c = make_pair(rng, "bool", p.n.shape)
        if rng.random() < 0.3:
            v = weak_scalar(rng)
            if (p.n.dtype.kind in "iu" and type(v) is int and not np.iinfo(p.n.dtype).min <= v <= np.iinfo(p.n.dtype).max
                    and deliberate("where-weak-int-out-of-range")):
                return None
            q = Pair(v, v, repr(v))
        else:
            q = broadcast_partner(rng, p, rng.choice(DTYPES))
        log.append("where(%s, x, %s)" % (c.text, q.text))
        r = run_both(name, lambda: np.where(c.n, p.n, q.n), lambda: xp.where(c.u, p.u, q.u))
    elif name == "clip":
        if p.n.dtype.kind in "bc":
            return None
        lo, hi = sorted(values(rng, p.n.dtype.name, 2, special=False).tolist())
        log.append("clip(x, %r, %r)" % (lo, hi))
        lo_n, hi_n = np.asarray(lo, p.n.dtype), np.asarray(hi, p.n.dtype)
        r = run_both(name, lambda: np.clip(p.n, lo_n, hi_n), lambda: xp.clip(p.u, xp.asarray(lo_n), xp.asarray(hi_n)))
    elif name == "astype":
        to = rng.choice(DTYPES)
        src = p.n
        if np.dtype(to).kind in "iu" and src.dtype.kind in "fc" and deliberate("float-to-int-out-of-range"):
            info = np.iinfo(to)
            s = src.real if src.dtype.kind == "c" else src
            if not np.all(np.isfinite(s) & (s > info.min - 1.0) & (s < info.max + 1.0)):
                return None
        log.append("astype(x, %s)" % to)
        r = run_both(name, lambda: src.astype(to), lambda: xp.astype(p.u, getattr(xp, to)))
    elif name == "diff":
        if nd == 0 or p.n.dtype.kind == "b":
            return None
        ax = rng.randint(-nd, nd - 1)
        n = rng.randint(1, 2)
        log.append("diff(x, n=%d, axis=%d)" % (n, ax))
        r = run_both(name, lambda: np.diff(p.n, n=n, axis=ax), lambda: xp.diff(p.u, n=n, axis=ax))
    elif name == "repeat":
        k = rng.randint(0, 3)
        ax = None if nd == 0 or rng.random() < 0.4 else rng.randint(-nd, nd - 1)
        log.append("repeat(x, %d, axis=%s)" % (k, ax))
        r = run_both(name, lambda: np.repeat(p.n, k, axis=ax), lambda: xp.repeat(p.u, k, axis=ax))
    elif name == "tile":
        reps = tuple(rng.randint(0, 2) for _ in range(rng.randint(1, 3)))
        log.append("tile(x, %s)" % (reps,))
        r = run_both(name, lambda: np.tile(p.n, reps), lambda: xp.tile(p.u, reps))
    elif name in ("tril", "triu"):
        if nd < 2:
            return None
        k = rng.randint(-2, 2)
        log.append("%s(x, %d)" % (name, k))
        r = run_both(name, lambda: getattr(np, name)(p.n, k), lambda: getattr(xp, name)(p.u, k=k))
    elif name == "moveaxis":
        if nd == 0:
            return None
        src, dst = rng.randint(-nd, nd - 1), rng.randint(-nd, nd - 1)
        log.append("moveaxis(x, %d, %d)" % (src, dst))
        r = run_both(name, lambda: np.moveaxis(p.n, src, dst).copy(), lambda: xp.moveaxis(p.u, src, dst))
    else:
        target = (rng.randint(0, 2),) + tuple(1 if s == 1 and rng.random() < 0.5 else s for s in p.n.shape)
        target = tuple(rng.randint(2, 3) if s == 1 and rng.random() < 0.5 else s for s in target)
        log.append("broadcast_to(x, %s)" % (target,))
        r = run_both(name, lambda: np.broadcast_to(p.n, target).copy(), lambda: xp.broadcast_to(p.u, target))
    return r and r[1]


# ---- storages ---------------------------------------------------------------------------------------
def op_storage(rng, p, log):
    if p.n.ndim == 0 or p.n.ndim > 3 or p.n.dtype.kind not in "fi" or p.n.dtype.itemsize < 4:
        return None
    axes = "IJK"[:p.n.ndim]
    host = np.ascontiguousarray(p.n)
    s = xs.storage(host, axes=axes)
    name = rng.choice(["add", "multiply", "sqrt", "sum", "maximum", "negative"])
    log.append("storage(x, axes=%s).%s" % (axes, name))
    if name in ("add", "multiply", "maximum"):
        fn = getattr(np, name)
        run_both("storage-" + name, lambda: fn(host, host[..., ::-1].copy()),
                 lambda: fn(s, xs.storage(host[..., ::-1].copy(), axes=axes)),
                 zero_sign=not (name == "maximum" and deliberate("min-max-zero-sign")))
    elif name == "sum":
        ax = rng.randrange(p.n.ndim)
        run_both("storage-sum", lambda: np.sum(host, axis=ax), lambda: np.sum(s, axis=ax), reduce_tol(p, "sum"))
    else:
        fn = getattr(np, name)
        run_both("storage-" + name, lambda: fn(host), lambda: fn(s), math_tol(host.dtype))
    return None


# ---- chains -----------------------------------------------------------------------------------------
OPS = [(op_unary, 3), (op_binary, 4), (op_specials, 2), (op_reduce, 3), (op_stats, 1), (op_products, 0.5), (op_index, 3),
       (op_setitem, 2), (op_sort, 2), (op_linalg, 1), (op_manip, 3), (op_storage, 1)]


def one_chain(rng, log):
    p = make_pair(rng, rng.choice(DTYPES))
    log.append(p.text)
    run_both("asarray", lambda: np.asarray(p.n), lambda: p.u)
    for _ in range(rng.randint(1, 4)):
        op = rng.choices([o for o, _ in OPS], weights=[w for _, w in OPS])[0]
        u = op(rng, p, log)
        if isinstance(u, xp.Array):  # the next operation starts from usmarr's result, on both sides
            p = Pair(u.to_numpy(), u, "x")
