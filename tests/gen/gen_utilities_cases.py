#!/usr/bin/python3
"""NumPy oracle for tril/triu and isclose/allclose (tests/index/test_utilities.c).

Run as `$PYTHON_NUMPY tests/gen/gen_utilities_cases.py > tests/utilities_cases.txt` (the build
does it before `make check`).  NumPy, never the library, computes every expected result.

Elements are written as the hexadecimal integer of their bytes (little-endian; 128 bits
for complex128), so NaN payloads, -0.0 and float16 travel exactly; tolerances as C99
hexadecimal floats.  Blocks:

  tri NAME DTYPE NDIM SHAPE... K LOWER     np.tril(x, k) (LOWER 1) or np.triu(x, k)
  in V...                                  x, C order
  exp V...                                 the result, C order
  end
  close NAME ADTYPE ANDIM ASHAPE... BDTYPE BNDIM BSHAPE... RTOL ATOL EQUAL_NAN
  a V...
  b V...
  exp 0|1...                               np.isclose(a, b, rtol, atol, equal_nan), C order
  all 0|1                                  np.allclose(...)
  end
"""
import sys

import numpy as np

out = sys.stdout
rng = np.random.default_rng(20261126)

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16", "float32",
          "float64", "complex64", "complex128"]
UINT = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}


def hexes(a):
    a = np.ascontiguousarray(a)
    if a.dtype.itemsize == 16:
        w = a.view(np.uint64).reshape(-1, 2)
        return " ".join("%x" % (int(lo) | int(hi) << 64) for lo, hi in w)
    return " ".join("%x" % int(b) for b in a.view(UINT[a.dtype.itemsize]).ravel())


def shape_text(a):
    return "%d %s" % (a.ndim, " ".join(map(str, a.shape)))


# ---- tril / triu ------------------------------------------------------------------------
def nonzero_values(dt, shape):
    """Values without zeros (a zeroed element must show), negative ones where the dtype has them."""
    n = int(np.prod(shape))
    d = np.dtype(dt)
    if d.kind == "b":
        return np.ones(shape, bool)
    if d.kind in "iu":
        v = rng.integers(1, 100, n)
        if d.kind == "i":
            v = v * rng.choice([-1, 1], n)
        return v.astype(d).reshape(shape)
    v = rng.integers(1, 200, n) / 8 * rng.choice([-1, 1], n)
    if d.kind == "c":
        v = v + 1j * (rng.integers(1, 50, n) / 4)
    return v.astype(d).reshape(shape)


def tri_case(name, x, k, lower):
    r = np.tril(x, k) if lower else np.triu(x, k)
    out.write("tri %s %s %s %d %d\n" % (name, x.dtype.name, shape_text(x), k, int(lower)))
    out.write("in %s\nexp %s\nend\n" % (hexes(x), hexes(r)))


for dt in DTYPES:
    x = nonzero_values(dt, (4, 5))
    for k in (-5, -4, -2, -1, 0, 1, 3, 4, 6):
        for lower in (True, False):
            tri_case("%s_4x5_k%d" % (dt, k), x, k, lower)
    tri_case("%s_batch" % dt, nonzero_values(dt, (2, 3, 5)), 1, True)
    tri_case("%s_batch" % dt, nonzero_values(dt, (2, 3, 5)), -1, False)
for shape in ((5, 4), (1, 1), (1, 6), (6, 1), (2, 2, 3, 4), (3, 1, 4, 4)):
    for k in (-2, 0, 2):
        for lower in (True, False):
            tri_case("float32_%s_k%d" % ("x".join(map(str, shape)), k), nonzero_values("float32", shape), k, lower)
tri_case("float32_70x300", nonzero_values("float32", (70, 300)), -3, True)
tri_case("complex128_40x130", nonzero_values("complex128", (40, 130)), 100, False)
tri_case("int16_batch_large", nonzero_values("int16", (3, 50, 70)), 5, True)


# ---- isclose / allclose -------------------------------------------------------------------
def close_pair(dt_a, dt_b, n, rtol, atol, specials):
    """b random, a = b moved by multiples of the tolerance around the boundary (both sides),
    some equal, with infinities and NaNs (complex: in either part) when `specials`."""
    db = np.dtype(dt_b)
    real_b = np.float64 if db.kind != "c" else (np.float32 if db == np.complex64 else np.float64)
    if db.kind == "b":
        b = rng.integers(0, 2, n).astype(bool)
    elif db.kind in "iu":
        info = np.iinfo(db)
        b = rng.integers(max(info.min, -1000), min(info.max, 1000), n).astype(db)
        b[: min(n, 3)] = [info.min, info.max, 0][: min(n, 3)]
    else:
        b = (rng.standard_normal(n) * 10.0 ** rng.integers(-3, 4, n)).astype(real_b)
        if db.kind == "c":
            b = b + 1j * (rng.standard_normal(n) * 10.0 ** rng.integers(-3, 4, n)).astype(real_b)
        b = b.astype(db)
    bb = b.astype(np.complex128 if db.kind == "c" else np.float64)
    tol = atol + rtol * np.abs(bb)
    factor = rng.choice([0.0, 0.25, 0.9, 1.1, 2.0, 50.0], n) * rng.choice([-1, 1], n)
    direction = np.exp(1j * rng.uniform(0, 2 * np.pi, n)) if np.dtype(dt_a).kind == "c" else 1.0
    a = bb + factor * tol * direction
    da = np.dtype(dt_a)
    if da.kind == "b":
        a = rng.integers(0, 2, n).astype(bool)
    elif da.kind in "iu":
        info = np.iinfo(da)
        a = np.array([min(max(int(round(v)), int(info.min)), int(info.max)) for v in np.real(a)], dtype=da)
    elif da.kind == "c":
        a = a.astype(da)
    else:
        a = np.real(a).astype(da)
    if specials and da.kind in "fc" and db.kind in "fc":
        sp = [np.inf, -np.inf, np.nan, 1.0]
        for i in range(0, n - 1, 7):
            va, vb = rng.choice(sp), rng.choice(sp)
            if da.kind == "c" and rng.random() < 0.5:
                va = complex(rng.choice([1.0, np.inf, np.nan]), rng.choice([1.0, np.inf, np.nan, -np.inf]))
            if db.kind == "c" and rng.random() < 0.5:
                vb = complex(rng.choice([1.0, np.inf, np.nan]), rng.choice([1.0, np.inf, np.nan, -np.inf]))
            a[i] = va if da.kind == "c" else np.real(va)
            b[i] = vb if db.kind == "c" else np.real(vb)
        a[n - 1] = b[n - 1] = np.nan
    return a, b


def close_case(name, a, b, rtol, atol, equal_nan):
    with np.errstate(all="ignore"):
        r = np.isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan)
        alls = np.allclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan)
    out.write("close %s %s %s %s %s %s %s %d\n" % (name, a.dtype.name, shape_text(a), b.dtype.name, shape_text(b),
                                                 float(rtol).hex(), float(atol).hex(), int(equal_nan)))
    out.write("a %s\nb %s\nexp %s\nall %d\nend\n" % (hexes(a), hexes(b), " ".join(str(int(v)) for v in
                                                                                  np.ravel(r)), int(alls)))


TOLS = [(1e-5, 1e-8), (1e-3, 0.5), (0.0, 0.0), (0.1, 0.0)]
for dt in DTYPES:
    for rtol, atol in TOLS:
        for equal_nan in (False, True):
            a, b = close_pair(dt, dt, 64, rtol, atol, True)
            close_case("%s_r%g_a%g_%d" % (dt, rtol, atol, equal_nan), a, b, rtol, atol, equal_nan)
for da, db in (("int8", "float16"), ("float16", "int8"), ("float32", "float16"), ("float16", "float32"),
               ("float32", "float64"), ("float64", "float32"), ("complex64", "float64"), ("float32", "complex128"),
               ("int64", "float32"), ("uint8", "int8"), ("bool", "float32"), ("int32", "uint64"),
               ("complex64", "complex128"), ("bool", "int16")):
    for rtol, atol in TOLS[:2]:
        a, b = close_pair(da, db, 64, rtol, atol, True)
        close_case("%s_%s_r%g" % (da, db, rtol), a, b, rtol, atol, False)
# every pair of equal values is close (allclose true), even with zero tolerances
for dt in ("int8", "float32", "complex64", "uint64"):
    b = close_pair(dt, dt, 50, 0, 0, False)[1]
    close_case("%s_equal" % dt, b.copy(), b, 0.0, 0.0, False)
# broadcasting, 0-d, zero-size, several work-groups
a, b = close_pair("float32", "float32", 60, 1e-3, 1e-6, True)
close_case("broadcast_3x1x4_5x4", a[:12].reshape(3, 1, 4), b[:20].reshape(5, 4), 1e-3, 1e-6, False)
close_case("scalar_vs_vector", np.array(b[0]), a[:7], 1e-3, 1e-6, True)
close_case("zero_size", np.zeros((0, 3), np.float64), np.ones(3, np.float64), 1e-5, 1e-8, False)
a, b = close_pair("float32", "float32", 20001, 1e-4, 1e-7, True)
close_case("float32_big", a, b, 1e-4, 1e-7, True)
a, b = close_pair("float64", "complex128", 5000, 1e-6, 0.0, True)
close_case("float64_complex128_big", a, b, 1e-6, 0.0, False)
