#!/usr/bin/python3
"""NumPy oracle for the sorting tests (tests/ops/test_sort.c).

Run as `$PYTHON_NUMPY tests/gen/gen_sort_cases.py > tests/sort_cases.txt` (the build does it
before `make check`).  NumPy, never the library, computes every expected result.

Elements are written as the hexadecimal integer of their bytes (little-endian; 128 bits
for complex128), so NaN payloads, -0.0 and float16 travel exactly.  Blocks:

  sort NAME DTYPE NDIM SHAPE... AXIS DESCENDING
  in V...          the input, C order
  val V...         NumPy's stable sort along AXIS (descending: flip(sort(flip(x))))
  arg I...         NumPy's stable argsort (descending: the array API's, as above)
  end
  search NAME DTYPE N M SIDE SORTER       SIDE 0 left, 1 right; SORTER 0/1
  a V...           the sorted array (unsorted when SORTER is 1)
  v V...           the keys
  sorter I...      (only with SORTER 1)
  exp I...         NumPy's searchsorted
  end
"""
import sys

import numpy as np

out = sys.stdout
rng = np.random.default_rng(20261125)

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16", "float32",
          "float64", "complex64", "complex128"]
UINT = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}


def hexes(a):
    a = np.ascontiguousarray(a)
    if a.dtype == np.complex64:
        bits = a.view(np.uint64)
    elif a.dtype == np.complex128:
        w = a.view(np.uint64).reshape(-1, 2)
        return " ".join("%x" % (int(lo) | int(hi) << 64) for lo, hi in w)
    else:
        bits = a.view(UINT[a.dtype.itemsize])
    return " ".join("%x" % int(b) for b in bits.ravel())


def values(dtype, n, kind):
    """n values of dtype with duplicates; kind: random, sorted, reversed, special"""
    dt = np.dtype(dtype)
    if dt == np.bool_:
        a = rng.integers(0, 2, n).astype(np.bool_)
    elif dt.kind in "iu":
        info = np.iinfo(dt)
        if kind == "wide":
            a = rng.integers(info.min, info.max, n, dtype=dt, endpoint=True)
        else:
            lo = max(info.min, -50)
            a = rng.integers(lo, lo + 100, n).astype(dt)
            a[rng.random(n) < 0.05] = info.max
            a[rng.random(n) < 0.05] = info.min
    else:
        real = {np.dtype(np.complex64): np.float32, np.dtype(np.complex128): np.float64}.get(dt, dt)
        a = (rng.integers(-20, 20, n) / 4).astype(real)
        specials = np.array([np.nan, -np.nan, np.inf, -np.inf, 0.0, -0.0], dtype=real)
        mask = rng.random(n) < 0.15
        a[mask] = rng.choice(specials, mask.sum())
        if kind == "wide":
            a = (rng.standard_normal(n) * 1e3).astype(real)
        if dt.kind == "c":
            b = (rng.integers(-4, 4, n) / 2).astype(real)
            m2 = rng.random(n) < 0.1
            b[m2] = np.nan
            b[rng.random(n) < 0.05] = -0.0
            # from the parts: a + 1j*b would turn a NaN imaginary part into nan+nanj, and
            # R+nanj (finite or infinite R) must be among the cases
            c = np.empty(n, dt)
            c.real = a
            c.imag = b
            a = c
    if kind == "sorted":
        a = np.sort(a, kind="stable")
    elif kind == "reversed":
        a = np.sort(a, kind="stable")[::-1].copy()
    return a


def sort_case(name, a, axis, desc):
    if desc:
        val = np.flip(np.sort(np.flip(a, axis), axis=axis, kind="stable"), axis)
        n = a.shape[axis]
        arg = n - 1 - np.flip(np.argsort(np.flip(a, axis), axis=axis, kind="stable"), axis)
    else:
        val = np.sort(a, axis=axis, kind="stable")
        arg = np.argsort(a, axis=axis, kind="stable")
    out.write("sort %s %s %d %s %d %d\n" % (name, a.dtype.name, a.ndim, " ".join(map(str, a.shape)), axis, int(desc)))
    out.write("in %s\nval %s\narg %s\nend\n" % (hexes(a), hexes(val), " ".join(map(str, arg.ravel()))))


LENGTHS = [1, 2, 3, 23, 24, 25, 63, 64, 65, 255, 256, 257, 1000]
BIG = [16383, 16384, 16385, 40000, 70001]

for dt in DTYPES:
    for n in LENGTHS:
        for desc in (False, True):
            sort_case("%s_n%d" % (dt, n), values(dt, n, "random"), 0, desc)
    for kind in ("sorted", "reversed", "wide"):
        for desc in (False, True):
            sort_case("%s_%s" % (dt, kind), values(dt, 300, kind), 0, desc)
    for axis in (0, 1, -1):
        sort_case("%s_2d_axis%d" % (dt, axis), values(dt, 7 * 33, "random").reshape(7, 33), axis, axis == 1)
    for axis in (0, 1, 2):
        sort_case("%s_3d_axis%d" % (dt, axis), values(dt, 4 * 5 * 6, "random").reshape(4, 5, 6), axis, False)
for dt, big in (("float32", BIG), ("int64", [16385, 40000]), ("uint8", [16385]), ("complex64", [40000]),
                ("complex128", [16385, 40000])):
    for n in big:
        sort_case("%s_big%d" % (dt, n), values(dt, n, "random"), 0, n == 40000)
sort_case("float32_rows", values("float32", 300 * 40, "random").reshape(300, 40), 1, False)

# the radix passes of long rows (cl/sort_radix.cl): several rows whose skipped digits
# differ (all equal; only the lowest digit varies: an odd number of passes; every digit
# varies), rows read across, lengths not a multiple of a block, every digit of wide keys
# (complex128: 16), the unique benchmark's values (two passes of three)
mixed = np.stack([np.full(17000, 7, np.int32), rng.integers(0, 2048, 17000).astype(np.int32),
                  values("int32", 17000, "wide")])
for desc in (False, True):
    sort_case("int32_rows_mixed_digits", mixed, 1, desc)
    sort_case("float32_big_equal", np.full(20000, -2.5, np.float32), 0, desc)
sort_case("float32_big_axis0", values("float32", 20000 * 3, "random").reshape(20000, 3), 0, False)
sort_case("int32_big_thousand", rng.integers(0, 1000, 70001).astype(np.int32), 0, False)
for dt, n in (("float64", 30001), ("float16", 20000), ("int8", 16500), ("bool", 16500), ("complex128", 40000)):
    sort_case("%s_big_wide" % dt, values(dt, n, "wide"), 0, dt == "float64")
sort_case("complex128_big_rows", values("complex128", 2 * 16500, "random").reshape(2, 16500), 1, True)


def search_case(name, dt, n, m, side, use_sorter):
    a = values(dt, n, "random")
    v = np.concatenate([values(dt, m - min(m, n), "random"), a[: min(m, n)]])
    sorter = None
    if use_sorter:
        sorter = np.argsort(a, kind="stable")
        exp = np.searchsorted(a, v, side=side, sorter=sorter)
    else:
        a = np.sort(a)
        exp = np.searchsorted(a, v, side=side)
    out.write("search %s %s %d %d %d %d\n" % (name, dt, n, m, int(side == "right"), int(use_sorter)))
    out.write("a %s\nv %s\n" % (hexes(a), hexes(v)))
    if use_sorter:
        out.write("sorter %s\n" % " ".join(map(str, sorter)))
    out.write("exp %s\nend\n" % " ".join(map(str, exp)))


for dt in DTYPES:
    for n in (1, 5, 64, 1000):
        for side in ("left", "right"):
            for use_sorter in (False, True):
                search_case("%s_n%d_%s_%d" % (dt, n, side, use_sorter), dt, n, 50, side, use_sorter)


# ---- set functions -------------------------------------------------------------------
#   unique NAME DTYPE NDIM SHAPE...
#   in V... / values V... / indices I... / inverse I... / counts I...   (NaNs distinct)
#   isin NAME XDTYPE N TDTYPE M INVERT
#   x V... / t V... / exp 0|1...
def unique_case(name, a):
    vals, idx, inv, cnt = np.unique(a, return_index=True, return_inverse=True, return_counts=True, equal_nan=False)
    out.write("unique %s %s %d %s\n" % (name, a.dtype.name, a.ndim, " ".join(map(str, a.shape))))
    out.write("in %s\nvalues %s\n" % (hexes(a), hexes(vals)))
    for tag, arr in (("indices", idx), ("inverse", inv), ("counts", cnt)):
        out.write("%s %s\n" % (tag, " ".join(map(str, np.asarray(arr).ravel()))))
    out.write("end\n")


for dt in DTYPES:
    for n in (1, 2, 25, 257, 1000):
        unique_case("%s_n%d" % (dt, n), values(dt, n, "random"))
    unique_case("%s_2d" % dt, values(dt, 6 * 35, "random").reshape(6, 35))
    unique_case("%s_wide" % dt, values(dt, 500, "wide"))
unique_case("int32_big", rng.integers(0, 1000, 140000).astype(np.int32))
unique_case("float32_big", values("float32", 140000, "random"))
# integers spanning a short range (a table of counts, lib/ops/set.c): several blocks of
# the table, values at the ends of the wide dtypes (the smallest plus a place wraps), one
# value, and a range just over what the elements allow (sorted instead)
unique_case("int32_blocks", rng.integers(-7000, 7000, 9000).astype(np.int32))
unique_case("int64_near_min", np.iinfo(np.int64).min + rng.integers(0, 300, 2000))
unique_case("int64_near_max", np.iinfo(np.int64).max - rng.integers(0, 300, 2000))
unique_case("uint64_near_max", (np.uint64(np.iinfo(np.uint64).max) - rng.integers(0, 300, 2000).astype(np.uint64)))
unique_case("int64_across_zero", rng.integers(-1000, 1000, 3000).reshape(30, 100))
unique_case("uint32_one_value", np.full((40, 7), 4000000000, np.uint32))
unique_case("int32_sparse", np.concatenate([rng.integers(0, 5, 100), [4 * 100 + 65536 + 5]]).astype(np.int32))


def isin_case(name, x, t, invert):
    exp = np.isin(x, t, invert=invert)
    out.write("isin %s %s %d %s %d %d\n" % (name, x.dtype.name, x.size, t.dtype.name, t.size, int(invert)))
    out.write("x %s\nt %s\nexp %s\nend\n" % (hexes(x), hexes(t), " ".join(str(int(b)) for b in exp.ravel())))


for dt in DTYPES:
    for n, m in ((1, 1), (50, 7), (300, 40), (1000, 1000)):
        isin_case("%s_%d_%d" % (dt, n, m), values(dt, n, "random"), values(dt, m, "random"), n == 50)
isin_case("int32_in_float64", values("int32", 200, "random"), values("float64", 30, "random"), False)
isin_case("uint8_in_int16", values("uint8", 200, "random"), values("int16", 30, "random"), True)
isin_case("complex64_in_complex128", values("complex64", 200, "random"), values("complex128", 60, "random"), False)
isin_case("float64_in_complex128", values("float64", 200, "random"), values("complex128", 60, "random"), True)
# test elements within a short range (a table of flags) at the ends of the wide dtypes,
# where the difference from the smallest one wraps, and across signedness
low = np.iinfo(np.int64).min
isin_case("int64_near_min", np.concatenate([low + rng.integers(0, 40, 300), [np.iinfo(np.int64).max, -1, 0]]),
          low + rng.integers(0, 30, 20), False)
top = np.uint64(np.iinfo(np.uint64).max)
near_top = np.concatenate([top - rng.integers(0, 40, 300).astype(np.uint64), np.array([0, 1], np.uint64)])
isin_case("uint64_near_max", near_top, (top - rng.integers(0, 30, 20).astype(np.uint64)).astype(np.uint64), True)
isin_case("uint32_in_int32", np.concatenate([rng.integers(0, 100, 300), [2**32 - 1, 2**31]]).astype(np.uint32),
          rng.integers(-50, 50, 25).astype(np.int32), False)
isin_case("int8_in_int64", values("int8", 300, "random"), rng.integers(-60, 60, 25).astype(np.int64), True)


# ---- top_k ------------------------------------------------------------------------------
#   topk NAME DTYPE NDIM SHAPE... AXIS K LARGEST
#   in V... / val V... / idx I...      (the array API's top_k with ties in input order)
def topk_case(name, a, axis, k, largest):
    if largest:
        n = a.shape[axis]
        order = n - 1 - np.flip(np.argsort(np.flip(a, axis), axis=axis, kind="stable"), axis)
    else:
        order = np.argsort(a, axis=axis, kind="stable")
    idx = np.take(order, np.arange(k), axis=axis)
    val = np.take_along_axis(a, idx, axis=axis)
    out.write("topk %s %s %d %s %d %d %d\n" % (name, a.dtype.name, a.ndim, " ".join(map(str, a.shape)), axis, k,
                                               int(largest)))
    out.write("in %s\nval %s\nidx %s\nend\n" % (hexes(a), hexes(val), " ".join(map(str, idx.ravel()))))


for dt in DTYPES:
    topk_case("%s_1d" % dt, values(dt, 300, "random"), 0, 10, True)
    topk_case("%s_1d_small" % dt, values(dt, 300, "random"), 0, 7, False)
    topk_case("%s_2d_axis0" % dt, values(dt, 40 * 9, "random").reshape(40, 9), 0, 5, True)
    topk_case("%s_2d_axis1" % dt, values(dt, 9 * 40, "random").reshape(9, 40), 1, 40, False)
topk_case("float32_k0", values("float32", 50, "random"), 0, 0, True)
# the selection of up to 16 a row (cl/sort.cl usmarr_topk_rows) against the sort above it:
# ties across the k-th place, NaN and signed zeros, rows already in order or reversed,
# three dimensions (the middle axis is sorted), k = 1 and k = the row's length
for dt in ("float32", "float64", "int16", "uint64", "complex64", "complex128", "bool"):
    for k in (1, 16, 17):
        for largest in (True, False):
            topk_case("%s_sel_k%d" % (dt, k), values(dt, 12 * 50, "random").reshape(12, 50), 1, k, largest)
for kind in ("sorted", "reversed"):
    for largest in (True, False):
        topk_case("float32_%s_k8" % kind, values("float32", 400, kind), 0, 8, largest)
for axis in (0, 1, 2):
    topk_case("float32_3d_axis%d" % axis, values("float32", 6 * 7 * 8, "random").reshape(6, 7, 8), axis, 3, True)
# rows of 32-bit keys read 16 at a time: wide integers (no saturating extremes), and
# floats whose best k hold zeros of both signs, NaNs and infinities past the first span
for dt in ("int32", "uint32"):
    for largest in (True, False):
        topk_case("%s_wide_rows" % dt, values(dt, 6 * 80, "wide").reshape(6, 80), 1, 8, largest)
few = rng.choice(np.array([1.0, 2.0, 0.0, -0.0, np.nan, 3.0, -np.inf, np.inf], np.float32), 8 * 96,
                 p=[0.3, 0.3, 0.1, 0.1, 0.05, 0.05, 0.05, 0.05]).reshape(8, 96)
few[:, :16] = 2.0
for largest in (True, False):
    topk_case("float32_specials_late", few, 1, 12, largest)
topk_case("float16_all", values("float16", 5 * 9, "random").reshape(5, 9), 1, 9, False)
topk_case("float32_zeros_nan", np.array([[0.0, -0.0, np.nan, -np.nan, 0.0, -np.inf, np.inf, -0.0]] * 3, np.float32),
          1, 5, True)
topk_case("float32_zeros_nan_small", np.array([[-0.0, 0.0, np.nan, -np.inf, -0.0, 1.0]] * 2, np.float32), 1, 4, False)
