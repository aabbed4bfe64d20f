"""usmarr.linalg: the array API's linear algebra extension.

Each function is one call of the library (include/usmarr/linalg.h, doc/linalg.md):
matmul, tensordot, vecdot and matrix_transpose as in the main namespace, and the
extension's functions on stacks of matrices.  A singular matrix (inv, solve) or one that is
not positive definite (cholesky) raises LinAlgError, a ValueError as NumPy's; so does a
Jacobi iteration (eigh, svd) that has not converged within its sweep limit.  Several
results come back as NumPy 2's named tuples (SlogdetResult, QRResult, EighResult,
SVDResult)."""

from collections import namedtuple as _namedtuple

from ._usmarr import LinAlgError, matmul, matrix_transpose, tensordot, vecdot  # noqa: F401
from ._usmarr import _linalg

SlogdetResult = _namedtuple("SlogdetResult", ["sign", "logabsdet"])
QRResult = _namedtuple("QRResult", ["Q", "R"])
EighResult = _namedtuple("EighResult", ["eigenvalues", "eigenvectors"])
SVDResult = _namedtuple("SVDResult", ["U", "S", "Vh"])

cholesky = _linalg.cholesky
cross = _linalg.cross
det = _linalg.det
diagonal = _linalg.diagonal
inv = _linalg.inv
matrix_norm = _linalg.matrix_norm
matrix_power = _linalg.matrix_power
outer = _linalg.outer
solve = _linalg.solve
eigvalsh = _linalg.eigvalsh
svdvals = _linalg.svdvals
trace = _linalg.trace
vector_norm = _linalg.vector_norm


def slogdet(x, /):
    """The sign and the natural log of the absolute value of each determinant, as the named
    pair SlogdetResult(sign, logabsdet)."""
    return SlogdetResult(*_linalg.slogdet(x))


def qr(x, /, *, mode="reduced"):
    """The QR decomposition of each matrix of x, QRResult(Q, R); mode 'reduced' or 'complete'."""
    return QRResult(*_linalg.qr(x, mode))


def eigh(x, /):
    """Eigenvalues (ascending) and eigenvectors of each Hermitian matrix of x (its lower
    triangle is read), EighResult(eigenvalues, eigenvectors)."""
    return EighResult(*_linalg.eigh(x))


def svd(x, /, *, full_matrices=True):
    """The singular value decomposition of each matrix of x, SVDResult(U, S, Vh), S descending."""
    return SVDResult(*_linalg.svd(x, full_matrices))


def matrix_rank(x, /, *, rtol=None):
    """The number of singular values above rtol times the largest (default max(m, n) eps),
    int64; rtol a number or an array that broadcasts against the stack."""
    return _linalg.matrix_rank(x, rtol)


def pinv(x, /, *, rtol=None):
    """The pseudo-inverse of each matrix of x over the singular values above rtol times the
    largest (default max(m, n) eps)."""
    return _linalg.pinv(x, rtol)


__all__ = ["EighResult", "LinAlgError", "QRResult", "SVDResult", "SlogdetResult", "cholesky", "cross", "det",
           "diagonal", "eigh", "eigvalsh", "inv", "matmul", "matrix_norm", "matrix_power", "matrix_rank",
           "matrix_transpose", "outer", "pinv", "qr", "slogdet", "solve", "svd", "svdvals", "tensordot", "trace",
           "vecdot", "vector_norm"]
