#!/usr/bin/env python3
"""NumPy 2 oracles of the linalg_lu suite (tests/linalg/test_linalg_lu.c): det, slogdet,
inv, solve, cholesky, matrix_power, diagonal, trace, outer, cross, vector_norm and
matrix_norm.

Writes blocks to stdout:
    lucase NAME
    op FUNCTION ARGS...
    x DTYPE ; BASE SHAPE ; VIEW TEXT or - ; BROADCAST SHAPE or - ; T ; VALUES
    x ...                          (second operand, for solve, outer, cross)
    expect DTYPE ; SHAPE ; VALUES  (one line per result: slogdet has two)
    or: expect error
    end
An operand is a C-ordered base array of VALUES, indexed with VIEW TEXT (basic indexing),
broadcast to BROADCAST SHAPE, and with its last two axes swapped when T is 1.  Complex
values are written as real, imaginary pairs.  The ops and their ARGS:
    det | slogdet | inv | solve | cholesky UPPER | matrix_power N | diagonal OFFSET |
    trace OFFSET | outer | cross AXIS | vector_norm ORD KEEPDIMS NAXES AXES... (NAXES -1:
    all) | matrix_norm ORD KEEPDIMS    (ORD: a number, inf, -inf, fro)"""
import sys
import warnings

import numpy as np

warnings.simplefilter("ignore")

rng = np.random.default_rng(20261202)
FLOATS = ["float32", "float64", "complex64", "complex128"]


def values(dt, n):
    dt = np.dtype(dt)
    if dt == np.bool_:
        return rng.integers(0, 2, n).astype(dt)
    if dt.kind in "iu":
        return rng.integers(0 if dt.kind == "u" else -5, 6, n).astype(dt)
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


class O:
    """An operand: random values of `dt` in a base of shape `base`, or `data`."""

    def __init__(self, dt, base, view="-", bcast=None, t=False, data=None):
        self.dt, self.base, self.view, self.bcast, self.t = np.dtype(dt), tuple(base), view, bcast, t
        n = int(np.prod(base, dtype=np.int64))
        self.data = values(dt, n).reshape(base) if data is None else np.asarray(data, dtype=dt).reshape(base)

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


def emit(name, op, operands, fn):
    out = sys.stdout
    out.write("lucase %s\nop %s\n" % (name, op))
    for o in operands:
        out.write(o.line() + "\n")
    try:
        with np.errstate(all="ignore"):
            r = fn(*[o.array() for o in operands])
    except np.linalg.LinAlgError:
        out.write("expect error\nend\n")
        return
    for a in (r if isinstance(r, tuple) else (r,)):
        a = np.asarray(a)
        out.write("expect %s ; %s ; %s\n" % (a.dtype.name, " ".join(map(str, a.shape)), fmt(a)))
    out.write("end\n")


def spd(dt, shape):
    """Hermitian positive-definite matrices of `shape` (..., n, n), as a float base."""
    a = values(dt, int(np.prod(shape))).reshape(shape)
    n = shape[-1]
    return a @ np.conj(np.swapaxes(a, -1, -2)) + n * np.eye(n, dtype=dt)


L = np.linalg
# ---- det, slogdet, inv, solve: every dtype, small and large orders, stacks ---------------
for dt in FLOATS:
    for n in (1, 2, 3, 5, 8, 13, 32, 40):
        emit("det_%s_%d" % (dt, n), "det", [O(dt, (3, n, n))], L.det)
        emit("inv_%s_%d" % (dt, n), "inv", [O(dt, (2, n, n))], L.inv)
        emit("solve_%s_%d" % (dt, n), "solve", [O(dt, (2, n, n)), O(dt, (2, n, 3))], L.solve)
    emit("slogdet_%s" % dt, "slogdet", [O(dt, (4, 6, 6))], lambda a: tuple(L.slogdet(a)))
    emit("cholesky_%s" % dt, "cholesky 0", [O(dt, (2, 7, 7), data=spd(dt, (2, 7, 7)))], L.cholesky)
    emit("cholesky_upper_%s" % dt, "cholesky 1", [O(dt, (2, 7, 7), data=spd(dt, (2, 7, 7)))],
         lambda a: L.cholesky(a, upper=True))
    emit("cholesky_large_%s" % dt, "cholesky 0", [O(dt, (2, 70, 70), data=spd(dt, (2, 70, 70)))], L.cholesky)
    emit("cholesky_large_upper_%s" % dt, "cholesky 1", [O(dt, (36, 36), data=spd(dt, (36, 36)))],
         lambda a: L.cholesky(a, upper=True))
    emit("matrix_power_%s" % dt, "matrix_power 5", [O(dt, (2, 4, 4))], lambda a: L.matrix_power(a, 5))
    emit("matrix_power_neg_%s" % dt, "matrix_power -3", [O(dt, (2, 4, 4))], lambda a: L.matrix_power(a, -3))

# ---- dtypes promoted: integers and bool compute in float64 ----------------------------------
emit("det_int32", "det", [O("int32", (4, 4))], L.det)
emit("inv_int64", "inv", [O("int64", (3, 3), data=[[2, 1, 0], [1, 3, 1], [0, 1, 4]])], L.inv)
emit("solve_mixed", "solve", [O("float32", (3, 3)), O("float64", (3,))], L.solve)
emit("matrix_power_int", "matrix_power 3", [O("int32", (3, 3))], lambda a: L.matrix_power(a, 3))
emit("matrix_power_zero", "matrix_power 0", [O("float32", (2, 3, 3))], lambda a: L.matrix_power(a, 0))

# ---- layouts: F order, negative strides, offsets, broadcast stacks ---------------------------
emit("det_transposed", "det", [O("float64", (3, 5, 5), t=True)], L.det)
emit("det_negative_strides", "det", [O("float64", (3, 6, 6), view="::-1, ::-1, ::-1")], L.det)
emit("det_offset_strided", "det", [O("float64", (4, 9, 9), view="1:, 1::2, 2::2")], L.det)
emit("det_broadcast", "det", [O("float64", (1, 4, 4), bcast=(3, 4, 4))], L.det)
emit("inv_negative_offset", "inv", [O("complex128", (2, 7, 8), view=":, ::-1, 1:")], L.inv)
emit("solve_vector_rhs", "solve", [O("float64", (3, 4, 4)), O("float64", (4,))], L.solve)
emit("solve_broadcast_batch", "solve", [O("float64", (2, 1, 4, 4)), O("float64", (3, 4, 2))], L.solve)
emit("solve_rhs_transposed", "solve", [O("float64", (5, 5)), O("float64", (3, 5), t=True)], L.solve)
emit("solve_stack_rhs_2d", "solve", [O("float32", (3, 4, 4)), O("float32", (4, 6))], L.solve)
emit("cholesky_transposed", "cholesky 0", [O("float64", (5, 5), t=True, data=spd("float64", (5, 5)))], L.cholesky)

# ---- special values and failures -------------------------------------------------------------
sing = np.array([[1, 2, 3], [2, 4, 6], [1, 0, 1]], dtype=np.float64)
emit("det_singular", "det", [O("float64", (3, 3), data=sing)], L.det)
emit("slogdet_singular", "slogdet", [O("float64", (3, 3), data=sing)], lambda a: tuple(L.slogdet(a)))
emit("det_zero_matrix", "det", [O("float32", (2, 3, 3), data=np.zeros((2, 3, 3)))], L.det)
emit("inv_singular", "inv", [O("float64", (2, 3, 3), data=np.stack([np.eye(3), sing]))], L.inv)
emit("solve_singular", "solve", [O("float64", (3, 3), data=sing), O("float64", (3, 1))], L.solve)
big = values("float64", 40 * 40).reshape(40, 40)
big[7] = 2 * big[3]
emit("inv_singular_large", "inv", [O("float64", (2, 40, 40), data=np.stack([np.eye(40), big]))], L.inv)
emit("det_singular_large", "det", [O("float64", (40, 40), data=np.zeros((40, 40)))], L.det)
emit("cholesky_not_pd_large", "cholesky 0", [O("float64", (40, 40), data=-np.eye(40))], L.cholesky)
# small entries on the diagonal: elimination without the right pivots loses every digit
piv = values("float64", 48 * 48).reshape(48, 48)
piv[np.arange(48), np.arange(48)] = 1e-13
emit("solve_needs_pivots_small", "solve", [O("float64", (12, 12), data=piv[:12, :12]), O("float64", (12, 2))], L.solve)
emit("solve_needs_pivots_large", "solve", [O("float64", (48, 48), data=piv), O("float64", (48, 2))], L.solve)
emit("cholesky_not_pd", "cholesky 0", [O("float64", (2, 2), data=[[1, 2], [2, 1]])], L.cholesky)
emit("cholesky_nan", "cholesky 0", [O("float64", (2, 2), data=[[np.nan, 0], [0, 1]])], L.cholesky)
nanm = np.array([[1, np.nan, 0], [0, 1, 0], [0, 0, 1]])
emit("det_nan", "det", [O("float64", (3, 3), data=nanm)], L.det)
emit("det_inf", "det", [O("float64", (2, 2), data=[[np.inf, 1], [1, 1]])], L.det)
emit("inv_nan", "inv", [O("float64", (3, 3), data=nanm)], L.inv)
for dt in FLOATS:  # partial products past the dtype's range, a final det within it
    emit("det_scaled_partials_%s" % dt, "det", [O(dt, (4, 4), data=np.diag([1e30, 1e30, 1e-30, 3.0]))], L.det)
    emit("slogdet_scaled_partials_%s" % dt, "slogdet", [O(dt, (4, 4), data=np.diag([1e30, -1e30, 1e-30, 3.0]))],
         lambda a: tuple(L.slogdet(a)))
emit("det_overflow", "det", [O("float64", (3, 3), data=np.eye(3) * 1e200)], L.det)
emit("det_underflow", "det", [O("float64", (3, 3), data=np.eye(3) * 1e-200)], L.det)
emit("det_ill_conditioned", "det", [O("float64", (6, 6), data=1 / (np.arange(6)[:, None] + np.arange(6) + 1))],
     L.det)
emit("inv_hilbert", "inv", [O("float64", (5, 5), data=1 / (np.arange(5)[:, None] + np.arange(5) + 1))], L.inv)
# zero-size matrices and stacks
emit("det_0x0", "det", [O("float64", (2, 0, 0))], L.det)
emit("slogdet_0x0", "slogdet", [O("float64", (0, 0))], lambda a: tuple(L.slogdet(a)))
emit("det_empty_stack", "det", [O("float64", (0, 3, 3))], L.det)
emit("inv_0x0", "inv", [O("float32", (3, 0, 0))], L.inv)
emit("solve_empty_stack", "solve", [O("float64", (0, 2, 2)), O("float64", (0, 2, 1))], L.solve)
emit("solve_zero_rhs", "solve", [O("float64", (2, 2)), O("float64", (2, 0))], L.solve)
emit("cholesky_0x0", "cholesky 0", [O("float64", (0, 0))], L.cholesky)

# ---- diagonal, trace, outer, cross -----------------------------------------------------------
for off in (0, 1, -2, 5, -7):
    emit("diagonal_%d" % off, "diagonal %d" % off, [O("float32", (2, 4, 6))], lambda a, o=off: np.diagonal(a, o, -2, -1))
    emit("trace_%d" % off, "trace %d -" % off, [O("int32", (2, 4, 6))],
         lambda a, o=off: np.trace(a, o, -2, -1))
emit("diagonal_negative_strides", "diagonal 1", [O("complex128", (3, 5, 4), view="::-1, ::-2, 1:")],
     lambda a: np.diagonal(a, 1, -2, -1))
emit("trace_float64", "trace 0 -", [O("float64", (5, 5), t=True)], lambda a: np.trace(a))
emit("trace_dtype", "trace 0 float32", [O("int16", (3, 3, 3))], lambda a: np.trace(a, 0, -2, -1, dtype=np.float32))
emit("trace_bool", "trace 0 -", [O("bool", (4, 4))], lambda a: np.trace(a))
emit("trace_complex", "trace -1 -", [O("complex64", (2, 3, 3))], lambda a: np.trace(a, -1, -2, -1))
emit("outer_float", "outer", [O("float32", (5,)), O("float64", (3,))], np.outer)
emit("outer_int_strided", "outer", [O("int8", (9,), view="::-3"), O("int32", (4,))], np.outer)
emit("outer_complex", "outer", [O("complex64", (2,)), O("float32", (0,))], np.outer)
emit("cross_last", "cross -1", [O("float64", (4, 3)), O("float64", (4, 3))], np.cross)
emit("cross_axis0", "cross 0", [O("float32", (3, 5)), O("float32", (3, 5))], lambda a, b: np.cross(a, b, axis=0))
emit("cross_broadcast", "cross -1", [O("int32", (2, 1, 3)), O("int64", (4, 3))], np.cross)
emit("cross_complex_strided", "cross 1", [O("complex128", (2, 6, 2), view=":, ::2"), O("complex128", (1, 3, 1))],
     lambda a, b: np.cross(a, b, axis=1))

# ---- vector_norm, matrix_norm -------------------------------------------------------------------
for dt in FLOATS + ["int32"]:
    for ord in ("2", "1", "inf", "-inf", "0", "3", "-1", "0.5"):
        emit("vector_norm_%s_%s" % (dt, ord), "vector_norm %s 0 -1" % ord, [O(dt, (3, 4))],
             lambda a, o=float(ord): L.vector_norm(a, ord=o))
    for ord in ("fro", "1", "-1", "inf", "-inf"):
        emit("matrix_norm_%s_%s" % (dt, ord), "matrix_norm %s 0" % ord, [O(dt, (2, 3, 4))],
             lambda a, o=ord: L.matrix_norm(a, ord=o if o == "fro" else float(o)))
emit("vector_norm_axes", "vector_norm 2 1 2 0 2", [O("float64", (3, 4, 5))],
     lambda a: L.vector_norm(a, axis=(0, 2), keepdims=True))
emit("vector_norm_axis_neg", "vector_norm 1 0 1 -1", [O("complex64", (3, 4), t=True)],
     lambda a: L.vector_norm(a, axis=-1, ord=1))
emit("vector_norm_special", "vector_norm 2 0 -1",
     [O("float64", (5,), data=[np.nan, 1, 2, np.inf, 0])], lambda a: L.vector_norm(a))
emit("vector_norm_inf_values", "vector_norm inf 0 -1", [O("float64", (3,), data=[-np.inf, 1, 2])],
     lambda a: L.vector_norm(a, ord=np.inf))
emit("vector_norm_empty", "vector_norm 2 0 -1", [O("float32", (0, 3))], lambda a: L.vector_norm(a))
emit("vector_norm_zero_neg_ord", "vector_norm -2 0 -1", [O("float64", (3,), data=[0, 1, 2])],
     lambda a: L.vector_norm(a, ord=-2))
emit("matrix_norm_keepdims", "matrix_norm inf 1", [O("float64", (2, 3, 4), view="::-1")],
     lambda a: L.matrix_norm(a, ord=np.inf, keepdims=True))
emit("matrix_norm_fro_keepdims", "matrix_norm fro 1", [O("complex128", (3, 3))],
     lambda a: L.matrix_norm(a, keepdims=True))
emit("matrix_norm_nan", "matrix_norm 1 0", [O("float64", (2, 2), data=[[np.nan, 1], [1, 1]])],
     lambda a: L.matrix_norm(a, ord=1))

# cholesky at the private matrices' orders, whose loops have constant lengths (last: the
# cases above keep their random values)
for dt in FLOATS:
    for n in (4, 8, 16):
        emit("cholesky_%s_%d" % (dt, n), "cholesky 0", [O(dt, (11, n, n), data=spd(dt, (11, n, n)))], L.cholesky)
        emit("cholesky_upper_%s_%d" % (dt, n), "cholesky 1", [O(dt, (3, n, n), data=spd(dt, (3, n, n)))],
             lambda a: L.cholesky(a, upper=True))

# the kernels of one launch (last, so the cases above keep their random values): trace of
# float32 and float64 in usmarr_diagsum (16 strided sums: diagonals of 1, 15, 16, 17 and 40,
# a stack, negative strides, special values), cross in usmarr_cross (every real dtype it
# takes, strided and broadcast vectors, special values; an out-of-range int8 wraps)
for n in (1, 15, 16, 17, 40):
    emit("trace_f32_%d" % n, "trace 0 -", [O("float32", (n, n + 3))], lambda a: np.trace(a))
emit("trace_f64_stack", "trace 2 -", [O("float64", (3, 20, 25))], lambda a: np.trace(a, 2, -2, -1))
emit("trace_f32_neg_strides", "trace -1 -", [O("float32", (4, 30, 30), view="::-1, ::-1, ::2")],
     lambda a: np.trace(a, -1, -2, -1))
emit("trace_f64_stack_transposed", "trace 0 -", [O("float64", (2, 3, 18, 18), view=":, ::-1", t=True)],
     lambda a: np.trace(a, 0, -2, -1))
emit("trace_f32_empty", "trace 9 -", [O("float32", (2, 4, 6))], lambda a: np.trace(a, 9, -2, -1))
emit("trace_f64_special", "trace 0 -",
     [O("float64", (20, 20), data=np.where(np.eye(20) > 0, np.r_[np.nan, np.inf, -0.0] .repeat(7)[:20, None], 1.0))],
     lambda a: np.trace(a))
emit("trace_f32_inf", "trace 0 -", [O("float32", (17, 17), data=np.diag([np.inf] * 16 + [2.0]))], lambda a: np.trace(a))
emit("trace_f32_inf_minus_inf", "trace 0 -", [O("float32", (18, 18), data=np.diag([np.inf] * 17 + [-np.inf]))],
     lambda a: np.trace(a))
for dt in ("float32", "float64", "int8", "int16", "int32", "int64", "uint8", "uint32", "uint64"):
    emit("cross_kernel_%s" % dt, "cross -1", [O(dt, (37, 3)), O(dt, (37, 3))], np.cross)
emit("cross_kernel_int8_wrap", "cross -1", [O("int8", (4, 3), data=[[100, -100, 90]] * 4),
     O("int8", (4, 3), data=[[-90, 120, 100], [1, 2, 3], [127, -128, 0], [5, 5, 5]])], np.cross)
emit("cross_kernel_uint8_wrap", "cross 0", [O("uint8", (3, 4), data=np.arange(12) * 20),
     O("uint8", (3, 4), data=np.arange(12)[::-1] * 21)], lambda a, b: np.cross(a, b, axis=0))
emit("cross_kernel_strided", "cross 1", [O("float32", (5, 6, 4), view="::-1, ::2, 1:"), O("float32", (5, 3, 3))],
     lambda a, b: np.cross(a, b, axis=1))
emit("cross_kernel_broadcast", "cross -1", [O("float64", (2, 1, 3)), O("float64", (4, 3))], np.cross)
emit("cross_kernel_transposed", "cross 0", [O("float64", (6, 3), t=True), O("float64", (3, 6))],
     lambda a, b: np.cross(a, b, axis=0))
emit("cross_kernel_special", "cross -1",
     [O("float32", (4, 3), data=[[np.nan, 1, 2], [np.inf, 1, 0], [1e30, 1e30, 1e30], [-0.0, 0.0, 1]]),
      O("float32", (4, 3), data=[[1, 2, 3], [1, np.inf, 2], [1e30, -1e30, 3], [0.0, -0.0, 1]])], np.cross)
emit("cross_kernel_empty", "cross -1", [O("float32", (0, 3)), O("float32", (0, 3))], np.cross)
