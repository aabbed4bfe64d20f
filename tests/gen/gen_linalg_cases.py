#!/usr/bin/env python3
"""NumPy oracles of the linalg suite (tests/ops/test_linalg.c): matmul, tensordot, vecdot.

Writes blocks to stdout:
    lcase NAME
    op matmul | op tensordot N PAIRS [AXES1...] [AXES2...] | op vecdot AXIS
    x DTYPE ; BASE SHAPE ; VIEW TEXT or - ; BROADCAST SHAPE or - ; T ; VALUES
    x ...                         (second operand)
    expect DTYPE ; SHAPE ; VALUES (or: expect error CODE)
    end
An operand is a C-ordered base array of VALUES, indexed with VIEW TEXT (basic indexing),
broadcast to BROADCAST SHAPE, and with its last two axes swapped when T is 1.  Complex
values are written as real, imaginary pairs; bool as 0/1.  vecdot is computed as
sum(conj(x1) * x2, axis) in the promoted dtype (NumPy 2's definition; this also runs on
NumPy 1, which lacks np.vecdot)."""
import sys
import warnings

import numpy as np

warnings.simplefilter("ignore")  # NumPy's degrees-of-freedom warning for var with ddof >= N

rng = np.random.default_rng(20261125)


def values(dt, n, wide=False):
    dt = np.dtype(dt)
    if dt == np.bool_:
        return rng.integers(0, 2, n).astype(dt)
    if dt.kind == "u":
        return rng.integers(0, 200 if wide else 10, n).astype(dt)
    if dt.kind == "i":
        return rng.integers(-100 if wide else -5, 101 if wide else 6, n).astype(dt)
    if dt == np.float16:
        return rng.integers(-3, 4, n).astype(dt)
    if dt.kind == "f":
        return rng.uniform(-1, 1, n).astype(dt)
    return (rng.uniform(-1, 1, n) + 1j * rng.uniform(-1, 1, n)).astype(dt)


def fmt(a):
    a = np.asarray(a).ravel()
    if a.dtype.kind == "c":
        return " ".join("%r %r" % (float(v.real), float(v.imag)) for v in a)
    if a.dtype.kind == "f":
        return " ".join(repr(float(v)) for v in a)
    return " ".join(str(int(v)) for v in a)


class Operand:
    def __init__(self, dt, base, view="-", bcast=None, t=False, wide=False):
        self.dt, self.base, self.view, self.bcast, self.t = np.dtype(dt), base, view, bcast, t
        self.data = values(dt, int(np.prod(base, dtype=np.int64)), wide).reshape(base)

    def array(self):
        a = self.data
        if self.view != "-":
            a = eval("a[%s]" % self.view)
        if self.bcast is not None:
            a = np.broadcast_to(a, self.bcast)
        if self.t:
            a = np.swapaxes(a, -1, -2)
        return a

    def line(self):
        return "x %s ; %s ; %s ; %s ; %d ; %s" % (
            self.dt.name, " ".join(map(str, self.base)), self.view,
            "-" if self.bcast is None else " ".join(map(str, self.bcast)), int(self.t), fmt(self.data))


def emit(name, opline, x1, x2, result):
    out = sys.stdout
    out.write("lcase %s\nop %s\n%s\n" % (name, opline, x1.line()))
    if x2 is not None:
        out.write("%s\n" % x2.line())
    out.write("expect %s ; %s ; %s\nend\n" % (result.dtype.name, " ".join(map(str, result.shape)), fmt(result)))


def mm(name, x1, x2):
    emit(name, "matmul", x1, x2, np.matmul(x1.array(), x2.array()))


def vecdot(name, x1, x2, axis):
    a, b = x1.array(), x2.array()
    dt = np.promote_types(a.dtype, b.dtype)
    wide = np.float32 if dt == np.float16 else dt  # NumPy's half dot: float32 products and sum
    r = np.sum(np.conj(a).astype(wide) * b.astype(wide), axis=axis if axis >= 0 else axis, dtype=wide)
    emit(name, "vecdot %d" % axis, x1, x2, np.asarray(r, dtype=dt))


def tensordot(name, x1, x2, n, axes1=None, axes2=None):
    if axes1 is None:
        r, opline = np.tensordot(x1.array(), x2.array(), n), "tensordot %d 0" % n
    else:
        r = np.tensordot(x1.array(), x2.array(), (axes1, axes2))
        opline = "tensordot %d 1 %s %s" % (n, " ".join(map(str, axes1)), " ".join(map(str, axes2)))
    emit(name, opline, x1, x2, r)


O = Operand
DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16", "float32",
          "float64", "complex64", "complex128"]

# every dtype: a small product (naive kernel) and one with full tiles plus both edges
for dt in DTYPES:
    mm("small_%s" % dt, O(dt, (5, 7)), O(dt, (7, 3)))
    mm("tiles_%s" % dt, O(dt, (19, 23)), O(dt, (23, 37)))
mm("wrap_int8", O("int8", (9, 20), wide=True), O("int8", (20, 17), wide=True))
mm("wrap_uint8", O("uint8", (9, 20), wide=True), O("uint8", (20, 17), wide=True))
# mixed dtypes promote
mm("mixed_int8_float32", O("int8", (9, 6)), O("float32", (6, 18)))
mm("mixed_int32_uint8", O("int32", (16, 6)), O("uint8", (6, 16)))
mm("mixed_float32_complex128", O("float32", (4, 6)), O("complex128", (6, 5)))
# 1-D operands
mm("vec_mat", O("float32", (7,)), O("float32", (7, 20)))
mm("mat_vec", O("float64", (20, 7)), O("float64", (7,)))
mm("vec_vec", O("int32", (9,)), O("int32", (9,)))
mm("vec_batch", O("float32", (5,)), O("float32", (3, 5, 18)))
mm("batch_vec", O("float32", (3, 17, 5)), O("float32", (5,)))
# matrix @ vector of floats: one fused sum along rows of 300 and 1000
mm("mat_vec_long_f32", O("float32", (40, 300)), O("float32", (300,)))
mm("batch_vec_long_f64", O("float64", (2, 9, 1000)), O("float64", (1000,)))
# batches broadcast
mm("batch_bcast", O("float32", (3, 1, 9, 5)), O("float32", (4, 5, 17)))
mm("batch_bcast_tiled", O("float32", (2, 1, 16, 8)), O("float32", (1, 3, 8, 32)))
mm("batch_2d_rhs", O("float64", (2, 9, 20)), O("float64", (20, 17)))
mm("batch_2d_lhs", O("int32", (18, 6)), O("int32", (5, 6, 16)))
mm("batch_16", O("float32", (64, 16, 16)), O("float32", (64, 16, 16)))
# the batched kernel (lib/linalg/matmul.c): up to 64 blocks of 8 or 6 rows by one vector a
# work-group (fewer while there are under 4 groups per compute unit), so batch sizes around
# 16 and 32 matrices of 16 rows and a batch of 520 one-block matrices; non-square shapes,
# right edges (N % 16, N % 8 columns), one-row and 31-row matrices, each dtype it takes
for nb in (1, 15, 16, 17, 31, 32, 33, 63, 65):
    mm("bt_16x16_batch%d" % nb, O("float32", (nb, 16, 16)), O("float32", (nb, 16, 16)))
mm("bt_full_groups_int16", O("int16", (520, 8, 4)), O("int16", (520, 4, 16)))  # 520 blocks: groups of 64 and a tail
mm("bt_f32_5x7x20", O("float32", (9, 5, 7)), O("float32", (9, 7, 20)))
mm("bt_f32_12x3x16", O("float32", (40, 12, 3)), O("float32", (40, 3, 16)))
mm("bt_f32_1x16x33", O("float32", (17, 1, 16)), O("float32", (17, 16, 33)))
mm("bt_f32_31x32x17", O("float32", (5, 31, 32)), O("float32", (5, 32, 17)))
mm("bt_f32_18x40x48", O("float32", (3, 18, 40)), O("float32", (3, 40, 48)))
mm("bt_f64_16x16", O("float64", (33, 16, 16)), O("float64", (33, 16, 16)))
mm("bt_f64_7x9x13", O("float64", (20, 7, 9)), O("float64", (20, 9, 13)))
for dt in ("int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64"):
    mm("bt_%s_12x16x20" % dt, O(dt, (11, 12, 16), wide=True), O(dt, (11, 16, 20), wide=True))
mm("bt_mixed_int8_float64", O("int8", (6, 10, 5)), O("float64", (6, 5, 11)))
mm("bt_complex64_16x16", O("complex64", (18, 16, 16)), O("complex64", (18, 16, 16)))
mm("bt_complex128_5x7x9", O("complex128", (4, 5, 7)), O("complex128", (4, 7, 9)))
mm("bt_bcast_batch", O("float32", (3, 1, 12, 16)), O("float32", (1, 5, 16, 24)))
mm("bt_bcast_lhs_2d", O("float32", (16, 16)), O("float32", (70, 16, 16)))
mm("bt_bcast_zero_stride", O("float64", (1, 6, 8), bcast=(4, 6, 8)), O("float64", (4, 8, 8)))
mm("bt_lhs_transposed", O("float32", (20, 16, 16), t=True), O("float32", (20, 16, 16)))
mm("bt_rhs_transposed", O("float32", (20, 16, 16)), O("float32", (20, 17, 16), t=True))
mm("bt_both_transposed_int", O("int32", (7, 9, 12), t=True), O("int32", (7, 18, 9), t=True))
mm("bt_neg_strides", O("float32", (12, 16, 20), "::-2, ::-1, 2:"), O("float32", (6, 20, 16), ":, 1:-1, ::-1"))
mm("bt_strided_rows", O("float32", (8, 32, 16), ":, ::2"), O("float32", (8, 16, 40), ":, :, ::2"))
mm("bt_int8_wrap", O("int8", (5, 16, 30), wide=True), O("int8", (5, 30, 16), wide=True))
# layouts: negative strides, steps, transposed (F-ordered) operands, zero strides
mm("neg_strides", O("float32", (20, 30), "::-1, ::2"), O("float32", (15, 33), "::-1, ::-1"))
mm("transposed", O("float32", (24, 17), t=True), O("float32", (40, 24), t=True))
mm("transposed_int", O("int16", (24, 17), t=True), O("int16", (24, 40)))
mm("zero_stride_rows", O("float32", (1, 12), bcast=(17, 12)), O("float32", (12, 16)))
mm("zero_stride_batch", O("float32", (1, 9, 8), bcast=(5, 9, 8)), O("float32", (5, 8, 16)))
mm("strided_batch", O("float64", (6, 10, 12), "::2, 1:, ::-1"), O("float64", (3, 12, 10), ":, :, 1:"))
mm("complex_strided", O("complex64", (12, 10), "::-1, 1:"), O("complex64", (8, 9), t=True))
# zero-size and empty sums
mm("zero_rows", O("float32", (0, 5)), O("float32", (5, 3)))
mm("empty_k", O("float32", (4, 0)), O("float32", (0, 3)))
mm("empty_k_int", O("int32", (2, 4, 0)), O("int32", (0, 18)))
mm("zero_batch", O("float64", (0, 3, 4)), O("float64", (4, 2)))
# several work-groups
mm("large_f32", O("float32", (70, 130)), O("float32", (130, 90)))
mm("packed_int32", O("int32", (65, 70)), O("int32", (70, 67)))
mm("packed_batch_bcast", O("float32", (2, 1, 70, 80)), O("float32", (3, 80, 66)))
mm("packed_neg_transposed", O("float64", (90, 80), "::-1"), O("float64", (70, 80), ":, ::-1", t=True))
mm("packed_complex", O("complex64", (70, 64)), O("complex64", (64, 70)))
mm("large_f64", O("float64", (33, 40)), O("float64", (40, 41)))

tensordot("td_count2", O("float32", (3, 4, 5)), O("float32", (4, 5, 6)), 2)
tensordot("td_count1_int", O("int32", (3, 4)), O("int32", (4, 5)), 1)
tensordot("td_outer", O("float64", (3,)), O("float64", (4,)), 0)
tensordot("td_pairs", O("float32", (3, 4, 5)), O("float32", (5, 6, 3)), 2, [0, 2], [2, 0])
tensordot("td_pairs_neg", O("complex128", (2, 3, 4)), O("complex128", (4, 3)), 2, [-1, 1], [0, -1])
tensordot("td_full", O("int64", (3, 4)), O("int64", (3, 4)), 2)
tensordot("td_strided", O("float32", (6, 8), "::-1, ::2"), O("float32", (4, 5)), 1)
tensordot("td_mixed", O("int8", (3, 4)), O("float32", (4, 2)), 1)

vecdot("vd_last", O("float32", (4, 7)), O("float32", (7,)), -1)
vecdot("vd_complex", O("complex64", (3, 5)), O("complex64", (3, 5)), -1)
vecdot("vd_complex128_axis0", O("complex128", (5, 4)), O("complex128", (5, 4)), 0)
vecdot("vd_axis_neg2", O("float64", (6, 3)), O("float64", (2, 6, 3)), -2)
h1, h2 = O("float16", (8, 64)), O("float16", (8, 64))  # non-integral halves: every product rounds in float16
h1.data = rng.uniform(-4, 4, h1.base).astype(np.float16)
h2.data = rng.uniform(-4, 4, h2.base).astype(np.float16)
vecdot("vd_float16_accumulates_in_float32", h1, h2, -1)
vecdot("vd_bcast", O("float32", (2, 1, 6)), O("float32", (3, 6)), -1)
vecdot("vd_int8_wrap", O("int8", (3, 40), wide=True), O("int8", (3, 40), wide=True), -1)
vecdot("vd_bool", O("bool", (4, 9)), O("bool", (4, 9)), -1)
vecdot("vd_uint16", O("uint16", (5, 8)), O("uint8", (8,)), -1)
vecdot("vd_strided", O("float32", (8, 10), "::-2, ::-1"), O("float32", (10,)), -1)
vecdot("vd_zero_len", O("float32", (3, 0)), O("float32", (3, 0)), -1)
vecdot("vd_large", O("float32", (3, 5000)), O("float32", (5000,)), -1)


def moments(fn, name, x, axes, correction, keepdims=False):
    a = x.array()
    if a.dtype == np.float16:  # computed in float32 and rounded once (doc/ops.md)
        r = getattr(np, fn)(a.astype(np.float32), axis=axes, ddof=correction, keepdims=keepdims).astype(np.float16)
    else:
        with np.errstate(all="ignore"):
            r = getattr(np, fn)(a, axis=axes, ddof=correction, keepdims=keepdims)
    r = np.asarray(r)
    ax = "-1" if axes is None else "%d %s" % (len(axes), " ".join(map(str, axes)))
    emit(name, "%s %r %d %s" % (fn, float(correction), int(keepdims), ax), x, None, r)


moments("var", "var_axis0_f32", O("float32", (33, 70)), (0,), 0)
moments("var", "var_axis1_ddof1_f32", O("float32", (33, 70)), (1,), 1)
moments("var", "var_all_f64", O("float64", (4, 5, 6)), None, 0)
moments("var", "var_axes02_keep_f64", O("float64", (4, 5, 6)), (0, 2), 1.5, True)
moments("var", "var_neg_axis_int32", O("int32", (7, 9)), (-1,), 0)
moments("var", "var_bool", O("bool", (6, 11)), (0,), 0)
moments("var", "var_uint8", O("uint8", (5, 40), wide=True), (1,), 1)
moments("var", "var_int64", O("int64", (50,), wide=True), None, 0)
moments("var", "var_f16", O("float16", (10, 12)), (0,), 0)
moments("var", "var_complex64", O("complex64", (8, 9)), (1,), 0)
moments("var", "var_complex128_all", O("complex128", (3, 4)), None, 1)
moments("var", "var_strided", O("float32", (20, 30), "::-2, ::3"), (0,), 0)
moments("var", "var_bcast", O("float32", (1, 17), bcast=(9, 17)), (0,), 0)
moments("var", "var_0d", O("float64", ()), None, 0)
moments("var", "var_empty_axis", O("float32", (3, 0)), (1,), 0)
moments("var", "var_zero_rows", O("float32", (0, 4)), (1,), 0)
moments("var", "var_ddof_too_big", O("float64", (3, 4)), (0,), 3)
moments("var", "var_ddof_beyond", O("float64", (3, 4)), (0,), 5)
moments("var", "var_large_axis0", O("float32", (1000, 300)), (0,), 0)
moments("var", "var_large_axis1", O("float32", (3, 100000)), (1,), 1)
moments("std", "std_axis0_f32", O("float32", (33, 70)), (0,), 0)
moments("std", "std_all_int16", O("int16", (6, 7)), None, 1)
moments("std", "std_complex64_keep", O("complex64", (5, 6)), (0,), 0, True)
moments("std", "std_f16", O("float16", (9, 4)), (1,), 1)
moments("std", "std_large", O("float64", (2000, 70)), (0, 1), 0)


# corrections past the count: NumPy divides by max(N - correction, 0), so a slice gives 0/0 = NaN
# where its deviations are all 0 (equal elements whose mean NumPy computes exactly, a NaN, an
# infinity beside its own sign) and inf where they are not; std the same through sqrt
def given(dt, data, view="-"):
    x = O(dt, np.shape(data), view)
    x.data = np.asarray(data, dtype=dt)
    return x


def special_slices(dt, n):
    """Slices (columns, n rows) of special values next to ordinary ones, for the reduction over
    axis 0 (16 outputs: the 16-lane kernel) and, transposed, over axis 1."""
    info = np.finfo(np.dtype(dt).char.lower() if np.dtype(dt).kind == "c" else dt)
    tiny, top = float(info.smallest_subnormal), float(info.max)
    cols = [[np.nan] + list(range(1, n)), [np.inf] * n, [np.inf] + list(range(1, n)), [-np.inf, np.inf] * (n // 2),
            [0.0, -0.0] * (n // 2), [tiny] * n, [tiny * k for k in range(1, n + 1)], [top] * n,
            [top, -top] + [0.0] * (n - 2), list(range(1, n + 1)), [0.5] * n, [1.0] * n, [-2.5] * n, [0.25 * k for k in range(n)],
            [np.nan] * n, [-0.0] * n]
    return np.array(cols, dtype=np.float64).T.astype(dt)


with np.errstate(all="ignore"):
    for fn in ("var", "std"):
        moments(fn, "%s_ones_int64_past_count" % fn, given("int64", np.ones((2, 4))), None, 9.5)
        moments(fn, "%s_complex64_past_count" % fn, O("complex64", (5, 4)), None, 21.5)
        moments(fn, "%s_complex64_axis0_past_count" % fn, O("complex64", (5, 4)), (0,), 5, True)
        # equal elements whose mean NumPy's sum gives exactly (and a sum of another order does not)
        moments(fn, "%s_equal_f32_at_count" % fn, given("float32", np.full((2, 4), 0.1)), None, 8)
        moments(fn, "%s_equal_f64_past_count" % fn, given("float64", np.full((2, 4), 0.7)), None, 9.5)
        moments(fn, "%s_equal_f32_in_count" % fn, given("float32", np.full((2, 4), 0.1)), None, 7.5)
        moments(fn, "%s_equal_c64_past_count" % fn, given("complex64", np.full((5, 4), 0.1 + 0.2j)), None, 20.5)
        moments(fn, "%s_equal_c128_axes02" % fn, given("complex128", np.full((6, 5, 4), 0.5 - 0.25j)), (0, 2), 24)
        for dt in ("float32", "float64"):
            s = special_slices(dt, 4)
            for corr in (3, 4, 5.5):
                moments(fn, "%s_special_%s_axis0_%g" % (fn, dt, corr), given(dt, s), (0,), corr)
                moments(fn, "%s_special_%s_axis1_%g" % (fn, dt, corr), given(dt, s.T.copy()), (1,), corr)
        cs = special_slices("float64", 4)
        moments(fn, "%s_special_complex128_axis1" % fn, given("complex128", cs.T + 1j * cs.T[::-1]), (1,), 4.5)

# the row and column kernels (lib/linalg/matmul.c; last, so the cases above keep their
# random values): rows of K = 1, 15, 16, 17, 32, 33 and 70 (16-element steps, pairs of
# them, a tail), contiguous and broadcast vectors, strided and reversed rows, K past 4096
# with many rows, special values; (M, K) @ (K, 1) as row dots and (K,) @ (K, N), (1, K) @
# (K, N) as column sums (N % 16 columns one at a time)
for k in (1, 15, 16, 17, 32, 33, 70):
    vecdot("vd_rows_f32_k%d" % k, O("float32", (19, k)), O("float32", (19, k)), -1)
    mm("mv_rows_f64_k%d" % k, O("float64", (21, k)), O("float64", (k,)))
    mm("mcol_f32_k%d" % k, O("float32", (23, k)), O("float32", (k, 1)))
    mm("vm_f32_k%d" % k, O("float32", (k,)), O("float32", (k, 40)))
vecdot("vd_rows_bcast_f64", O("float64", (3, 7, 40)), O("float64", (40,)), -1)
vecdot("vd_rows_strided_f32", O("float32", (30, 50), "::-3, 1:-1"), O("float32", (10, 48)), -1)
vecdot("vd_rows_long_f32", O("float32", (9, 5000)), O("float32", (9, 5000)), -1)
vecdot("vd_rows_0d_f64", O("float64", (20,)), O("float64", (20,)), -1)
vecdot("vd_rows_empty", O("float32", (0, 20)), O("float32", (0, 20)), -1)
mm("mv_rows_reversed_f32", O("float32", (20, 40), "::-1"), O("float32", (40,)))
mm("vm_f64_reversed", O("float64", (33,), "::-1"), O("float64", (33, 17)))
mm("vm_row_2d_f32", O("float32", (1, 64)), O("float32", (64, 130)))
mm("vm_f32_narrow", O("float32", (50,)), O("float32", (50, 5)))
mm("mcol_f32_strided", O("float32", (40, 30), "::2"), O("float32", (30, 1)))
sp = given("float32", np.array([[np.nan, 1, 2, 3] * 5, [np.inf, 1, 1, 1] * 5, [np.inf, -np.inf, 0, 0] * 5,
                                [1e30, 1e30, 0, 0] * 5, [-0.0, 0.0, 0, 0] * 5, [1, 2, 3, 4] * 5, [0] * 20, [2] * 20]))
vecdot("vd_rows_special", sp, given("float32", np.ones((8, 20))), -1)
mm("mv_rows_special", sp, given("float32", np.ones(20)))
mm("vm_special", given("float32", np.ones(8)), given("float32", sp.data.copy()))
mm("vm_special_inf_zero", given("float32", np.array([np.inf, 0, 1, 1, 1, 1, 1, 1])), given("float32", sp.data.copy()))
# whole 128-column blocks: two of them and an edge, rows of a wider matrix, a float64 one
mm("vm_f32_blocks", O("float32", (24,)), O("float32", (24, 300), ":, 3:-1"))
mm("vm_f64_blocks", O("float64", (9,), "::-1"), O("float64", (9, 256)))
# strided vectors and columns, read as contiguous copies
mm("mv_strided_vector_f32", O("float32", (30, 40)), O("float32", (40, 3), ":, 1"))
mm("mcol_strided_column_f64", O("float64", (25, 35)), O("float64", (35, 4), ":, 2:3"))
vecdot("vd_strided_vector_f32", O("float32", (50, 2), ":, 0"), O("float32", (9, 50)), -1)
# a product wider than two 128-column blocks (the gpu shape's cl/gemm.cl)
mm("packed_wide_f32", O("float32", (30, 40)), O("float32", (40, 300)))
# vector @ matrix over longer columns: a 256-column block and an edge, 16-column steps and
# a last N % 16, a strided vector, a (1, K) row, NaN and inf
mm("vm_parts_f64", O("float64", (200,)), O("float64", (200, 300)))
mm("vm_parts_f32_strided", O("float32", (300,), "::-2"), O("float32", (150, 37)))
mm("vm_parts_row_2d_f32", O("float32", (1, 129)), O("float32", (129, 16)))
vp = np.ones((100, 20))
vp[3, 0], vp[70, 1], vp[99, 2], vp[64, 3], vp[65, 3] = np.nan, np.inf, -np.inf, np.inf, -np.inf
mm("vm_parts_special", given("float32", np.ones(100)), given("float32", vp))
