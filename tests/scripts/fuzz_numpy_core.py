"""The values, views and comparisons of the differential test against NumPy 2
(tests/scripts/fuzz_numpy.py): the same random array made in NumPy and in usmarr, and one
check of an operation in both."""
import numpy as np

import usmarr as xp
import usmarr.storage as xs

DTYPES = ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "float16", "float32",
          "float64", "complex64", "complex128"]

# The library's deliberate differences from NumPy 2: the names this script uses, each a row of
# the table "Deliberate differences" in doc/reliability.md with its reason.
DELIBERATE = {"min-max-zero-sign", "nextafter-float16-equal", "integer-reciprocal-zero", "float-to-int-out-of-range",
              "sort-zero-sign", "float16-accumulates-in-float32", "complex-special-values", "round-bool",
              "complex-mean-parts", "where-weak-int-out-of-range",
              "mask-assignment-dims", "empty-assignment-shapes", "complex-prod-infinities", "complex-log1p-small",
              "bool-element-from-array", "complex-pow-overflow-direction", "var-equal-elements",
              "complex-multiply-fused", "complex-sign-extremes"}


def deliberate(name):
    """Marks a place where a deliberate difference is applied (the name must be in DELIBERATE)."""
    assert name in DELIBERATE, name
    return True


class Difference(Exception):
    pass


CHECKS = [0]


# ---- values, arrays and views -----------------------------------------------------------------------
def values(rng, dtype, n, special=True):
    d = np.dtype(dtype)
    if d.kind == "b":
        return np.array([rng.random() < 0.5 for _ in range(n)], d)
    if d.kind in "iu":
        info = np.iinfo(d)
        pool = [0, 1, 2, 3, 7, 100, int(info.max), int(info.max) - 1, int(info.min)] + ([-1, -2, -7, -100] if d.kind == "i"
                                                                                       else [200, 255])
        v = [rng.choice(pool) if rng.random() < 0.3 else rng.randint(max(int(info.min), -50), min(int(info.max), 50))
             for _ in range(n)]
        return np.array(v, np.int64 if d.kind == "i" else np.uint64).astype(d)
    fi = np.finfo(d)
    pool = [0.0, -0.0, 1.0, -1.0, 0.5, 2.0, -3.25, 1e-3, 100.0]
    if special:
        pool += [float("inf"), -float("inf"), float("nan"), float(fi.smallest_subnormal), float(fi.max) / 2]

    def one():
        if rng.random() < 0.3:
            return rng.choice(pool)
        return round(rng.uniform(-8, 8), 3) if rng.random() < 0.5 else rng.uniform(-3, 3)

    if d.kind == "c":
        return np.array([complex(one(), one()) for _ in range(n)], d)
    return np.array([one() for _ in range(n)], np.float64).astype(d)


def special_values(rng, dtype, n):
    """n values, every group of 16 (a 16-lane vector) holding special ones beside ordinary ones:
    NaN, both infinities, both zeros, subnormals and the dtype's extremes (complex: in either
    part, beside an ordinary other part); zeros (divisors) and the limits for integers."""
    d = np.dtype(dtype)
    if d.kind == "b":
        return values(rng, dtype, n)
    if d.kind in "iu":
        info = np.iinfo(d)
        specials = [0, 0, int(info.max), int(info.min), 1] + ([-1] if d.kind == "i" else [])
        ordinary = [rng.randint(max(int(info.min), -50), min(int(info.max), 50)) for _ in range(n)]
        kind = np.int64 if d.kind == "i" else np.uint64
    else:
        fi = np.finfo(d.type(0).real.dtype if d.kind == "c" else d)
        sub, tiny, top = float(fi.smallest_subnormal), float(fi.smallest_normal), float(fi.max)
        specials = [float("nan"), float("inf"), -float("inf"), 0.0, -0.0, sub, -sub, 3 * sub, tiny - sub, tiny, top,
                    -top, float(fi.eps), 1.0]
        ordinary = [rng.uniform(-8, 8) for _ in range(n)]
        kind = np.float64
    pick = [rng.random() < 0.35 for _ in range(n)]
    for g in range(0, n, 16):  # a special and an ordinary value in every vector
        k = rng.randrange(g, min(g + 16, n))
        pick[k] = True
        pick[k - 1 if k > g else min(k + 1, n - 1)] = False
    if d.kind == "c":
        v = [complex(rng.choice(specials) if pick[i] and rng.random() < 0.7 else ordinary[i],
                     rng.choice(specials) if pick[i] and rng.random() < 0.5 else rng.uniform(-8, 8)) for i in range(n)]
        return np.array(v, d)
    return np.array([rng.choice(specials) if pick[i] else ordinary[i] for i in range(n)], kind).astype(d)


def make_special_pair(rng, dtype, shape):
    """A Pair of special_values (at least 32 of them in practice), C-ordered or reversed."""
    n = special_values(rng, dtype, int(np.prod(shape, dtype=np.int64))).reshape(shape)
    u = xp.asarray(n)
    text = "specials:%s%s" % (dtype, shape)
    if n.ndim and rng.random() < 0.25:
        n, u, text = n[::-1], u[::-1], text + "[::-1]"
    return Pair(n, u, text)


def random_shape(rng, ndim=None, lo=0):
    ndim = rng.randint(0, 4) if ndim is None else ndim
    return tuple(rng.choice([lo, 1, 2, 3, 4, 5]) if rng.random() < 0.2 else rng.randint(max(lo, 1), 5)
                 for _ in range(ndim))


class Pair:
    """The same value in NumPy (n) and usmarr (u), with a description of how it was made."""

    def __init__(self, n, u, text):
        self.n, self.u, self.text = n, u, text


def make_pair(rng, dtype, shape=None, special=True):
    shape = random_shape(rng) if shape is None else shape
    n = values(rng, dtype, int(np.prod(shape, dtype=np.int64)), special).reshape(shape)
    u = xp.asarray(n)
    text = "%s%s" % (dtype, shape)
    # a view: steps and negative strides, a transpose, a new axis, a broadcast
    if n.ndim and rng.random() < 0.5:
        key = tuple(slice(None, None, rng.choice([1, 2, -1, -2])) for _ in range(n.ndim))
        n, u, text = n[key], u[key], text + "[%s]" % ",".join("::%d" % k.step for k in key)
    if n.ndim > 1 and rng.random() < 0.4:
        perm = list(range(n.ndim))
        rng.shuffle(perm)
        n, u, text = np.permute_dims(n, perm), xp.permute_dims(u, tuple(perm)), text + ".permute%s" % (tuple(perm),)
    if rng.random() < 0.15 and n.ndim < 4:
        ax = rng.randint(0, n.ndim)
        n, u, text = np.expand_dims(n, ax), xp.expand_dims(u, axis=ax), text + ".expand(%d)" % ax
    if rng.random() < 0.15 and n.ndim < 4:
        target = (rng.randint(1, 3),) + n.shape
        n, u, text = np.broadcast_to(n, target), xp.broadcast_to(u, target), text + ".broadcast%s" % (target,)
    return Pair(n, u, text)


def broadcast_partner(rng, p, dtype):
    """Another operand that broadcasts with p: its shape, a trailing part, or with ones."""
    shape = list(p.n.shape)
    k = rng.randint(0, len(shape))
    shape = shape[k:]
    shape = [1 if rng.random() < 0.3 else s for s in shape]
    return make_pair(rng, dtype, tuple(shape))


def weak_scalar(rng):
    kind = rng.choice(["int", "int", "float", "bool", "complex"])
    if kind == "int":
        return rng.choice([0, 1, -1, 2, 3, -7, 100, 127, 255, 300, -129, 2 ** 31 - 1, 2 ** 40])
    if kind == "float":
        return rng.choice([0.0, -0.0, 0.5, -1.5, 2.0, 1e10, float("inf"), float("nan")])
    if kind == "bool":
        return rng.random() < 0.5
    return complex(rng.choice([0.0, 1.0, -0.5]), rng.choice([0.0, 2.0, -1.0]))


# ---- comparison --------------------------------------------------------------------------------------
# the bound of "math": the transcendental functions, in ulp of the result dtype (doc/ops.md's bounds)
ULPS = {"float16": 1, "float32": 8, "float64": 8, "complex64": 64, "complex128": 64}


def math_tol(dtype):
    d = np.dtype(dtype)
    return ("ulp", ULPS.get(d.name, 8)) if d.kind in "fc" else "exact"


def to_numpy(r):
    if isinstance(r, xp.Array):
        return r.to_numpy()
    if isinstance(r, xs.Storage):
        return np.array(np.asarray(r))
    return r


def exc_kind(e):
    kinds = {k for k in (IndexError, OverflowError, TypeError, ValueError, ZeroDivisionError) if isinstance(e, k)}
    return kinds or {RuntimeError}


def spacing(x, dtype):
    d = np.dtype(dtype)
    real = d.type(0).real.dtype if d.kind == "c" else d
    return np.spacing(np.abs(x).astype(real)).astype(np.float64)


def compare(name, want, got, tol, zero_sign=True):
    """Raises Difference unless got (usmarr's, as NumPy) is want within tol: 'exact', 'math' (a
    few ulp of the result dtype), ('ulp', k), or ('abs', atol).  A complex value with a NaN
    part is NaN as a whole (NumPy's isnan), whatever its other part."""
    if isinstance(want, tuple) or isinstance(want, list):
        if not isinstance(got, (tuple, list)) or len(got) != len(want):
            raise Difference("%s: %d results, NumPy %d" % (name, len(got) if isinstance(got, (tuple, list)) else 1,
                                                            len(want)))
        for i, (w, g) in enumerate(zip(want, got)):
            compare("%s[%d]" % (name, i), w, g, tol, zero_sign)
        return
    w, g = np.asarray(want), np.asarray(to_numpy(got))
    if w.shape != g.shape:
        raise Difference("%s: shape %s, NumPy %s" % (name, g.shape, w.shape))
    if w.dtype != g.dtype:
        raise Difference("%s: dtype %s, NumPy %s" % (name, g.dtype, w.dtype))
    if w.size == 0:
        return
    if tol == "math":
        tol = math_tol(w.dtype)
    if w.dtype.kind in "biu":
        bad = w != g
    else:
        parts = [(w.real, g.real), (w.imag, g.imag)] if w.dtype.kind == "c" else [(w, g)]
        bad = np.zeros(w.shape, bool)
        if w.dtype.kind == "c":
            wn, gn = np.isnan(w), np.isnan(g)
            bad |= wn != gn
            parts = [(np.where(wn | gn, 0, a), np.where(wn | gn, 0, b)) for a, b in parts]
        for a, b in parts:
            a64, b64 = a.astype(np.float64), b.astype(np.float64)
            nan = np.isnan(a64) | np.isnan(b64)
            bad |= np.isnan(a64) != np.isnan(b64)
            inf = ~nan & (np.isinf(a64) | np.isinf(b64))
            bad |= inf & (a64 != b64)
            fin = ~nan & ~inf
            if tol == "exact":
                bad |= fin & (a64 != b64)
            elif tol[0] == "ulp":
                bad |= fin & (np.abs(a64 - b64) > tol[1] * spacing(np.maximum(np.abs(a64), np.abs(b64)), w.dtype))
            else:
                bad |= fin & (np.abs(a64 - b64) > tol[1])
            if zero_sign:
                bad |= fin & (a64 == 0) & (b64 == 0) & (np.signbit(a64) != np.signbit(b64))
    if np.any(bad):
        i = tuple(int(k[0]) for k in np.nonzero(bad)) if w.ndim else ()
        raise Difference("%s: %d of %d values differ; at %s: %r, NumPy %r" % (name, int(np.sum(bad)), w.size, i,
                                                                             g[i], w[i]))


def run_both(name, fn_numpy, fn_usmarr, tol="exact", zero_sign=True, fix=None, any_error=False):
    """One check: both calls raise exceptions of one kind (of any kinds with any_error), or their
    results agree (compare).  fix(NumPy's result) applies a deliberate difference.  Returns
    (NumPy's, usmarr's) results, or None after exceptions."""
    CHECKS[0] += 1
    try:
        with np.errstate(all="ignore"):
            want = fn_numpy()
        want_exc = None
    except Exception as e:  # noqa: BLE001 (any NumPy refusal counts)
        want, want_exc = None, e
    try:
        got = fn_usmarr()
        got_exc = None
    except Exception as e:  # noqa: BLE001
        got, got_exc = None, e
    if want_exc or got_exc:
        if want_exc and got_exc and (any_error or exc_kind(want_exc) & exc_kind(got_exc)):
            return None
        if want_exc and got_exc:
            raise Difference("%s: raised %s (%s), NumPy %s (%s)" % (name, type(got_exc).__name__, got_exc,
                                                                  type(want_exc).__name__, want_exc))
        if want_exc:
            raise Difference("%s: no error, NumPy raised %s (%s)" % (name, type(want_exc).__name__, want_exc))
        raise Difference("%s: raised %s (%s), NumPy did not" % (name, type(got_exc).__name__, got_exc))
    if fix is not None:
        want = fix(want)
    compare(name, want, got, tol, zero_sign)
    return want, got
