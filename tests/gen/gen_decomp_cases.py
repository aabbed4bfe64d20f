#!/usr/bin/env python3
"""NumPy oracles of the decomp suite (tests/linalg/test_decomp.c): qr, eigh, svd and what
builds on them.

Writes blocks to stdout:
    dcase NAME
    x DTYPE ; SHAPE ; VALUES      (a C-ordered stack of matrices)
    sv VALUES                     (NumPy's singular values, descending, per matrix)
    ev VALUES or -                (NumPy's eigvalsh of the lower triangle; - when not square)
    rank VALUES or -              (NumPy's matrix_rank, default rtol; - when empty)
    pinv VALUES or -              (NumPy's pinv, default rtol; - where it is ill-conditioned)
    end
Complex values are written as real, imaginary pairs.  The suite checks the values, and the
residuals of qr, eigh and svd on every layout of x; a matrix with a NaN or an infinity
expects NaN values (the library's rule; NumPy may raise instead), written here."""
import numpy as np

rng = np.random.default_rng(20261202)
EPS = {"float32": np.finfo(np.float32).eps, "float64": np.finfo(np.float64).eps}


def fmt(a):
    a = np.asarray(a).ravel()
    if a.dtype.kind == "c":
        return " ".join("%r %r" % (float(v.real), float(v.imag)) for v in a)
    if a.dtype.kind == "f":
        return " ".join(repr(float(v)) for v in a)
    return " ".join(str(int(v)) for v in a)


def random(dt, shape):
    a = rng.uniform(-1, 1, shape)
    if np.dtype(dt).kind == "c":
        a = a + 1j * rng.uniform(-1, 1, shape)
    return a


def with_singular_values(dt, batch, m, n, sv):
    """Matrices U diag(sv) Vᴴ with random orthonormal U, V."""
    k = min(m, n)
    out = np.zeros(batch + (m, n), dtype=np.complex128 if np.dtype(dt).kind == "c" else np.float64)
    for idx in np.ndindex(*batch):
        u, _ = np.linalg.qr(random(dt, (m, m)))
        v, _ = np.linalg.qr(random(dt, (n, n)))
        out[idx] = (u[:, :k] * sv) @ v[:k, :].conj()
    return out


def case(name, dt, a, pinv=True):
    a = np.asarray(a).astype(dt)
    m, n = a.shape[-2:]
    bad = ~np.isfinite(a).all(axis=(-2, -1))
    empty = a.size == 0
    good = np.where(bad[..., None, None], 0, a)
    sv = np.linalg.svd(good, compute_uv=False) if not empty else np.zeros(a.shape[:-2] + (min(m, n),))
    sv = np.where(bad[..., None], np.nan, sv)
    print("dcase %s_%s" % (name, dt))
    print("x %s ; %s ; %s" % (dt, " ".join(map(str, a.shape)), fmt(a)))
    print("sv %s" % fmt(sv.astype(np.float64)))
    if m == n:
        lower = np.tril(np.ones((m, n), dtype=bool))
        bad_lower = ~(np.isfinite(a) | ~lower).all(axis=(-2, -1))  # eigvalsh reads the lower triangle
        ev = np.linalg.eigvalsh(np.where(bad_lower[..., None, None], 0, a)) if not empty else np.zeros(a.shape[:-1])
        ev = np.where(bad_lower[..., None], np.nan, ev)
        print("ev %s" % fmt(ev.astype(np.float64)))
    else:
        print("ev -")
    if not empty and not bad.any():
        print("rank %s" % fmt(np.linalg.matrix_rank(a)))
    else:
        print("rank -")
    if pinv and not bad.any():
        # the array API's default rtol, max(m, n) eps (NumPy's pinv defaults to 1e-15)
        print("pinv %s" % fmt(np.linalg.pinv(a, rtol=max(m, n) * np.finfo(a.dtype).eps)))
    else:
        print("pinv -")
    print("end")


for dt in ["float32", "float64", "complex64", "complex128"]:
    real = "float32" if dt in ("float32", "complex64") else "float64"
    for shape in [(1, 1), (4, 4), (3, 5, 4), (2, 4, 7), (6, 8, 8), (2, 16, 8), (8, 6), (20, 20), (17, 33), (2, 2, 3, 3)]:
        case("random_" + "x".join(map(str, shape)), dt, random(dt, shape))
    # rank-deficient: a tall times a wide factor, and a matrix with exact zero rows
    case("rank2_2x6x5", dt, with_singular_values(dt, (2,), 6, 5, np.array([3.0, 1.0, 0, 0, 0])))
    case("rank3_5x5", dt, with_singular_values(dt, (), 5, 5, np.array([2.0, 1.5, 0.5, 0, 0])))
    z = random(dt, (4, 3))
    z[1:3] = 0
    case("zero_rows_4x3", dt, z)
    case("zeros_3x3", dt, np.zeros((3, 3)))
    # rank one with exact zeros below R's first row and round-off elsewhere (Jacobi must not
    # chase the round-off; the reflectors must not divide by subnormal norms)
    case("ones_20x20", dt, np.ones((20, 20)))
    if dt in ("float32", "complex128"):
        case("ones_70x70", dt, np.ones((70, 70)), pinv=False)
    # ill-conditioned: singular values over 7 decades (3 for float32)
    decades = 7 if real == "float64" else 3
    case("illcond_2x8x8", dt, with_singular_values(dt, (2,), 8, 8, np.logspace(0, -decades, 8)), pinv=False)
    # Hermitian (the suite's eigh residuals then hold for the whole matrix)
    h = random(dt, (3, 6, 6))
    case("hermitian_3x6x6", dt, h + np.conj(np.swapaxes(h, -1, -2)))
    # repeated eigenvalues and singular values
    case("identity_5x5", dt, np.eye(5))
    # special values
    nan = random(dt, (3, 3, 3))
    nan[1, 0, 2] = np.nan
    nan[2, 1, 1] = np.inf
    case("nonfinite_3x3x3", dt, nan)
    # the blocked QR (min(m, n) >= 128), tall and wide
    if dt == "float64":
        case("blocked_150x130", dt, random(dt, (150, 130)))
    if dt == "complex64":
        case("blocked_130x150", dt, random(dt, (130, 150)))
    # eigh of order >= 64: the blocked tridiagonal reduction, real and complex
    if dt in ("float32", "complex128"):
        h = random(dt, (2, 66, 66))
        case("eigh_large_2x66x66", dt, h, pinv=False)
    # eigh's blocked reduction (panels of 32 columns, the last one partial): a random matrix
    # and one with two eigenvalues of multiplicity 50 (orthogonal vectors within each)
    u, _ = np.linalg.qr(random(dt, (100, 100)))
    rep = (u * np.repeat([1.0, 2.0], 50)) @ u.conj().T
    blocked = np.stack([random(dt, (100, 100)), rep])
    case("eigh_blocked_2x100x100", dt, blocked, pinv=False)
    # a NaN in one matrix's lower triangle changes that matrix's results only
    if dt in ("float32", "float64"):
        blocked[1, 70, 3] = np.nan
        case("eigh_blocked_nan_2x100x100", dt, blocked, pinv=False)
    # svd of min(m, n) >= 64: QR of the tall form (the adjoint when wide), the bidiagonal
    # reduction (its last panel partial) and implicit QR; random, rank-deficient (zero
    # singular values, zero-shift sweeps), ill-conditioned and repeated singular values
    if dt in ("float64", "complex64"):
        case("svd_tall_160x100", dt, random(dt, (160, 100)))
        case("svd_illcond_100x100", dt, with_singular_values(dt, (), 100, 100, np.logspace(0, -decades, 100)),
             pinv=False)
    if dt in ("float32", "complex128"):
        case("svd_wide_100x160", dt, random(dt, (100, 160)))
        case("svd_repeated_100x160", dt, with_singular_values(dt, (), 100, 160, np.repeat([3.0, 1.0], 50)), pinv=False)
    if dt in ("float64", "complex128"):
        case("svd_rank40_160x100", dt, with_singular_values(dt, (), 160, 100, np.r_[np.linspace(2, 1, 40), [0] * 60]))
    # zero-size
    for shape in [(0, 3, 3), (3, 0), (0, 4), (2, 0, 0), (2, 3, 0)]:
        case("empty_" + "x".join(map(str, shape)), dt, np.zeros(shape))
