#!/usr/bin/env python3
"""NumPy 2 oracles of the fft suite (tests/fft/test_fft.c): the transforms of numpy.fft
(pocketfft), fftfreq, rfftfreq, fftshift and ifftshift.

Writes blocks to stdout:
    fcase NAME
    op FN N AXIS NORM                       (fft, ifft, rfft, irfft, hfft, ihfft; N or -)
    op FN NORM ; AXES or - ; S or -         (fftn, ifftn, rfftn, irfftn)
    op fftfreq N D DTYPE | op rfftfreq N D DTYPE | op fftshift AXES or - | op ifftshift ...
    x DTYPE ; BASE SHAPE ; VIEW TEXT or - ; VALUES
    expect DTYPE ; SHAPE ; TOL ; VALUES
    end
The operand is a C-ordered base array of VALUES indexed with VIEW TEXT (basic indexing;
"T" reverses the axes).  Complex values are real, imaginary pairs.  The expected values
of a transform are NumPy's of the same input values in float64 / complex128 (so that they
measure the error of the dtype's own arithmetic), the dtype and shape NumPy's result's in
the input's dtype.  TOL is log2(N) eps ||expected||_2 / sqrt(size) (N the transform's
size, eps the result's): by Parseval, ||expected||_2 is the input's norm times the
normalisation, so TOL is the error bound c log2(N) eps ||x||_2 of an FFT spread over the
outputs, with c for the test to choose.  TOL 0 asks for the exact values (frequencies,
shifts); TOL -1 (special values) for NaN and infinity where NumPy has them, the expected
values being then NumPy's in the input's dtype.  A positive TOL with NaN among the
expected values asks for NaN exactly there and the finite ones within TOL."""
import math
import sys
import warnings

import numpy as np

warnings.simplefilter("ignore")

rng = np.random.default_rng(20261202)
out = sys.stdout
names = set()


def values(dt, shape):
    n = int(np.prod(shape, dtype=np.int64))
    dt = np.dtype(dt)
    if dt.kind == "f":
        return rng.uniform(-1, 1, n).astype(dt).reshape(shape)
    return (rng.uniform(-1, 1, n) + 1j * rng.uniform(-1, 1, n)).astype(dt).reshape(shape)


def fmt(a, digits=None):
    """Values as text: exact (repr) for 64-bit values, 9 significant digits (exact) for
    32-bit ones, `digits` digits when given (expected values of 32-bit results)."""
    a = np.asarray(a).ravel()
    if digits is None and a.dtype in (np.float32, np.complex64):
        digits = 9
    one = repr if digits is None else (lambda v: "%.*g" % (digits, v))
    if a.dtype.kind == "c":
        return " ".join("%s %s" % (one(float(v.real)), one(float(v.imag))) for v in a)
    return " ".join(one(float(v)) for v in a)


def view_of(base, view):
    if view == "-":
        return base
    if view == "T":
        return base.T
    return eval("base[%s]" % view)


def wide(a):
    return a.astype(np.complex128 if a.dtype.kind == "c" else np.float64)


def emit(name, opline, dt, shape, view, base, expected, tol, res_dtype):
    """One case; `expected` holds the values (float64 / complex128 for a transform),
    `res_dtype` is NumPy's result dtype for the input's."""
    assert name not in names, name
    names.add(name)
    single = np.dtype(res_dtype) in (np.float32, np.complex64)
    out.write("fcase %s\nop %s\n" % (name, opline))
    out.write("x %s ; %s ; %s ; %s\n" % (np.dtype(dt).name, " ".join(map(str, shape)), view, fmt(base)))
    out.write("expect %s ; %s ; %r ; %s\nend\n" % (np.dtype(res_dtype).name, " ".join(map(str, expected.shape)), tol,
                                                fmt(expected, 11 if single and tol else None)))


def tolerance(res_dtype, exact, size):
    eps = np.finfo(res_dtype).eps
    if exact.size == 0:
        return 0.0
    return float(math.log2(max(size, 2)) * eps * np.linalg.norm(exact.ravel()) / math.sqrt(exact.size))


def one(name, fn, dt, shape, n=None, axis=-1, norm="backward", view="-", data=None, special=False):
    base = values(dt, shape) if data is None else data
    x = view_of(base, view)
    f = getattr(np.fft, fn)
    got = f(x, n=n, axis=axis, norm=norm)
    exact = got if special else f(wide(x), n=n, axis=axis, norm=norm)
    size = n if n is not None else (2 * (x.shape[axis] - 1) if fn in ("irfft", "hfft") else x.shape[axis])
    tol = -1.0 if special else tolerance(got.dtype, exact, size)
    emit(name, "%s %s %d %s" % (fn, "-" if n is None else n, axis, norm), dt, shape, view, base, exact, tol,
         got.dtype)


def many(name, fn, dt, shape, s=None, axes=None, norm="backward", view="-"):
    base = values(dt, shape)
    x = view_of(base, view)
    f = getattr(np.fft, fn)
    got = f(x, s=s, axes=axes, norm=norm)
    exact = f(wide(x), s=s, axes=axes, norm=norm)
    size = int(np.prod([got.shape[a] if fn != "rfftn" else x.shape[a] for a in
                        (axes if axes is not None else range(-len(s) if s else -x.ndim, 0))]))
    emit(name, "%s %s ; %s ; %s" % (fn, norm, "-" if axes is None else " ".join(map(str, axes)),
                                    "-" if s is None else " ".join(map(str, s))),
         dt, shape, view, base, exact, tolerance(got.dtype, exact, size), got.dtype)


# ---- complex transforms at power-of-two, composite, prime and Bluestein lengths ----------
LENGTHS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 13, 15, 16, 17, 25, 31, 32, 37, 49, 64, 97, 100, 120, 128, 210, 243,
           256, 343, 360, 512, 625, 1000, 1009, 1024, 2048, 2310, 4096]
for n in LENGTHS:
    for dt in ("complex64", "complex128"):
        one("fft_%s_%d" % (dt, n), "fft", dt, (n,))
        one("ifft_%s_%d" % (dt, n), "ifft", dt, (n,))
one("fft_complex64_16384", "fft", "complex64", (16384,))
# four-step lengths (beyond one work-group's local memory): batches along either axis, real
# transforms through pairs of reals in both directions
one("fft_four_step_rows_c64", "fft", "complex64", (3, 8192))
one("ifft_four_step_cols_c128", "ifft", "complex128", (6000, 3), axis=0)
one("rfft_four_step_float32", "rfft", "float32", (16384,))
one("rfft_four_step_float64_strided", "rfft", "float64", (2, 20000), view=":, ::-1")
one("irfft_four_step_complex64", "irfft", "complex64", (8193,), n=16384)
one("irfft_four_step_complex128", "irfft", "complex128", (10001,), n=20000)
one("fft_complex64_65537", "fft", "complex64", (65537,))
one("ifft_complex128_10007", "ifft", "complex128", (10007,))
one("fft_complex128_3_pow_5_times_32", "fft", "complex128", (3 ** 5 * 32,))
# batches of short transforms, one long one per row
one("fft_batch_rows_c64", "fft", "complex64", (200, 24))
one("fft_batch_rows_prime_c64", "fft", "complex64", (64, 101))
one("fft_batch_cols_c64", "fft", "complex64", (96, 40), axis=0)
one("fft_batch_cols_bluestein_c128", "ifft", "complex128", (53, 24), axis=0)
# real input promoted
for dt in ("float32", "float64"):
    for n in (1, 7, 16, 45, 1009):
        one("fft_real_%s_%d" % (dt, n), "fft", dt, (n,))
# norms
for norm in ("backward", "ortho", "forward"):
    for fn in ("fft", "ifft", "rfft", "irfft", "hfft", "ihfft"):
        cx = fn in ("fft", "ifft", "irfft", "hfft")
        for n in (12, 37):
            one("%s_norm_%s_%d" % (fn, norm, n), fn, "complex128" if cx else "float64", (n,), norm=norm)
            one("%s_norm_%s_%d_single" % (fn, norm, n), fn, "complex64" if cx else "float32", (n,), norm=norm)

# ---- real transforms ---------------------------------------------------------------------
for n in (1, 2, 3, 4, 5, 8, 9, 16, 31, 64, 74, 100, 127, 1000, 1009, 2018, 4096):
    one("rfft_float32_%d" % n, "rfft", "float32", (n,))
    one("rfft_float64_%d" % n, "rfft", "float64", (n,))
    one("ihfft_float64_%d" % n, "ihfft", "float64", (n,))
for n in (2, 3, 4, 5, 8, 9, 16, 31, 64, 74, 100, 127, 1000, 1009, 2018, 4096):
    m = n // 2 + 1
    one("irfft_complex64_%d" % n, "irfft", "complex64", (m,), n=n)
    one("irfft_complex128_%d" % n, "irfft", "complex128", (m,), n=n)
    one("hfft_complex128_%d" % n, "hfft", "complex128", (m,), n=n)
one("irfft_default_n", "irfft", "complex128", (9,))
one("hfft_default_n", "hfft", "complex64", (9,))
one("rfft_batch_rows", "rfft", "float32", (50, 30))
one("rfft_batch_cols_odd", "rfft", "float64", (27, 40), axis=0)
one("irfft_batch_cols", "irfft", "complex64", (9, 33), n=16, axis=0)

# ---- lengths: crop and zero-pad ---------------------------------------------------------
one("fft_crop", "fft", "complex128", (20,), n=13)
one("fft_pad", "fft", "complex128", (13,), n=20)
one("fft_pad_bluestein", "fft", "complex64", (30,), n=41)
one("rfft_crop_even", "rfft", "float64", (21,), n=16)
one("rfft_pad_odd", "rfft", "float64", (10,), n=15)
one("rfft_pad_even_from_odd", "rfft", "float32", (9,), n=12)
one("irfft_crop_input", "irfft", "complex128", (20,), n=10)
one("irfft_pad_input", "irfft", "complex128", (4,), n=15)
one("hfft_pad_input", "hfft", "complex128", (3,), n=12)
one("ihfft_crop", "ihfft", "float64", (11,), n=6)
one("fft_pad_empty_axis", "fft", "complex64", (3, 0), n=4)

# ---- views: strided, offset, negative strides, any axis ----------------------------------
one("fft_view_negative_stride", "fft", "complex128", (17,), view="::-1")
one("fft_view_step", "fft", "complex64", (40,), view="3::3")
one("fft_view_cols_strided", "fft", "complex128", (12, 10), axis=0, view="1:11, ::-2")
one("fft_view_transposed", "fft", "complex64", (6, 20), axis=-1, view="T")
one("fft_view_3d_middle", "fft", "complex128", (4, 9, 5), axis=1, view="::-1, :, 1:")
one("fft_view_3d_first_batches_split", "ifft", "complex64", (6, 7, 8), axis=0, view=":, ::2, ::3")
one("rfft_view_negative", "rfft", "float64", (10, 16), axis=1, view=":, ::-1")
one("rfft_view_cols", "rfft", "float32", (16, 6), axis=0, view="::-1, 1:")
one("irfft_view", "irfft", "complex128", (7, 9), axis=1, n=14, view="::2, ::-1")
one("hfft_view_3d", "hfft", "complex64", (5, 3, 4), axis=0, n=8, view=":, ::-1, :")
one("rfft_4d_axis2", "rfft", "float64", (2, 3, 10, 2), axis=2)
one("fft_batch_empty", "fft", "complex64", (0, 8))

# ---- several axes ------------------------------------------------------------------------
many("fftn_all", "fftn", "complex128", (6, 5, 4))
many("fftn_single_all", "fftn", "complex64", (8, 12))
many("fft2_like", "fftn", "complex64", (3, 16, 16), axes=(-2, -1))
many("fftn_axes_s", "fftn", "complex128", (5, 6, 7), axes=(2, 0), s=(4, 9))
many("fftn_s_last", "fftn", "complex128", (5, 6, 7), s=(3, 8))
many("ifftn_ortho", "ifftn", "complex128", (4, 10), norm="ortho")
many("ifftn_view", "ifftn", "complex64", (9, 8), view="::-2, 1:")
many("rfftn_all", "rfftn", "float64", (6, 8, 5))
many("rfftn_axes", "rfftn", "float32", (6, 8, 5), axes=(0, 1))
many("rfftn_s", "rfftn", "float64", (6, 8), s=(5, 10))
many("irfftn_all", "irfftn", "complex128", (6, 5))
many("irfftn_s", "irfftn", "complex128", (6, 5, 4), axes=(1, 2), s=(7, 9))
many("irfftn_forward", "irfftn", "complex64", (4, 6), norm="forward")
many("fftn_real_input", "fftn", "float32", (7, 9))

# ---- special values: NaN and infinity where NumPy has them -------------------------------
for dt in ("complex64", "complex128"):
    for n in (8, 12, 37):
        d = values(dt, (n,))
        d[n // 3] = complex("nan+1j")
        one("fft_nan_%s_%d" % (dt, n), "fft", dt, (n,), data=d, special=True)
        d = values(dt, (n,))
        d[1] = complex(float("inf"), 0)
        one("fft_inf_%s_%d" % (dt, n), "fft", dt, (n,), data=d, special=True)
d = values("float64", (16,))
d[3] = np.nan
one("rfft_nan", "rfft", "float64", (16,), data=d, special=True)
d = values("complex128", (9,))
d[2] = np.nan
one("irfft_nan", "irfft", "complex128", (9,), n=16, data=d, special=True)

# ---- lanes: a NaN in one signal of a batch changes that signal's outputs only ----------
# Batches run as vectors of several signals (cl/fft.cl, usmarr_fft_lanes): a signal with a
# NaN (both parts, so that every one of its outputs is NaN in any algorithm) beside finite
# ones, whose outputs must stay finite and right.  TOL is from the finite outputs.
def one_nan(name, fn, dt, shape, index, axis=-1, n=None):
    d = values(dt, shape)
    if np.dtype(dt).kind == "c":
        d[index] = complex("nan+nanj")
    else:  # two neighbours: a real transform of even length takes them as one complex value
        d[index] = np.nan
        d[tuple(i + (k == axis % d.ndim) for k, i in enumerate(index))] = np.nan
    f = getattr(np.fft, fn)
    got = f(d, n=n, axis=axis)
    exact = f(wide(d), n=n, axis=axis)
    finite = np.isfinite(exact)
    # every output of the NaN signal NaN (but a real signal's zero and Nyquist frequencies'
    # imaginary parts, 0 by definition), every other one finite
    assert np.isnan(exact.real).sum() == (~finite).sum() == exact.shape[axis], name
    size = n if n is not None else (2 * (d.shape[axis] - 1) if fn in ("irfft", "hfft") else d.shape[axis])
    emit(name, "%s %s %d backward" % (fn, "-" if n is None else n, axis), dt, shape, "-", d, exact,
         tolerance(got.dtype, exact[finite], size), got.dtype)


one_nan("lanes_nan_cols_c64", "fft", "complex64", (256, 24), (77, 5), axis=0)
one_nan("lanes_nan_rows_tail_c128", "fft", "complex128", (19, 96), (17, 40))
one_nan("lanes_nan_bluestein_rows_c64", "fft", "complex64", (17, 257), (3, 200))
one_nan("lanes_nan_bluestein_cols_c128", "ifft", "complex128", (101, 40), (50, 9), axis=0)
one_nan("lanes_nan_four_step_rows_c64", "fft", "complex64", (3, 8192), (1, 5000))
one_nan("lanes_nan_rfft_cols_f32", "rfft", "float32", (64, 30), (10, 7), axis=0)
one_nan("lanes_nan_irfft_rows_c64", "irfft", "complex64", (20, 33), (12, 4), n=64)

# ---- frequencies (exact) and shifts (exact) ---------------------------------------------
for fn in ("fftfreq", "rfftfreq"):
    for n in (1, 2, 3, 4, 5, 8, 9, 10, 17, 100, 1001):
        for d in (1.0, 0.1, 2.5, -0.3):
            for dt in ("float64", "float32"):
                res = getattr(np.fft, fn)(n, d).astype(dt)
                name = "%s_%d_%r_%s" % (fn, n, d, dt)
                assert name not in names
                names.add(name)
                out.write("fcase %s\nop %s %d %r %s\nexpect %s ; %d ; 0.0 ; %s\nend\n" % (
                    name, fn, n, d, dt, res.dtype.name, res.size, fmt(res)))
for fn in ("fftshift", "ifftshift"):
    for shape, axes, dt in (((7,), None, "float64"), ((8,), None, "complex64"), ((4, 5), None, "float32"),
                            ((4, 5), (1,), "float64"), ((3, 6, 5), (0, 2), "complex128"), ((3, 6, 5), (-1,), "float64"),
                            ((0, 4), None, "float64")):
        base = values(dt, shape)
        res = getattr(np.fft, fn)(base, axes=axes)
        name = "%s_%s_%s" % (fn, "x".join(map(str, shape)), "all" if axes is None else "_".join(map(str, axes)))
        out.write("fcase %s\nop %s %s\nx %s ; %s ; - ; %s\nexpect %s ; %s ; 0.0 ; %s\nend\n" % (
            name, fn, "-" if axes is None else " ".join(map(str, axes)), dt, " ".join(map(str, shape)), fmt(base),
            res.dtype.name, " ".join(map(str, res.shape)), fmt(res)))
