"""usmarr.linalg: the array API's linear algebra extension, as far as the library has it.

The functions are calls of the library (include/usmarr/linalg.h): matmul, tensordot, vecdot
and matrix_transpose (also in the main namespace); qr, svd, svdvals, eigh, eigvalsh,
matrix_rank and pinv, whose several results come back as NumPy 2's named tuples (QRResult,
SVDResult, EighResult).  The rest of the extension (cholesky, det, inv, ...) is not in the
library (doc/array-api-tests.md lists the skipped tests)."""

from typing import NamedTuple

from . import _usmarr
from ._usmarr import Array, matmul, matrix_transpose, tensordot, vecdot  # noqa: F401

__all__ = ["matmul", "matrix_transpose", "tensordot", "vecdot", "qr", "svd", "svdvals", "eigh", "eigvalsh",
           "matrix_rank", "pinv", "QRResult", "SVDResult", "EighResult"]


class QRResult(NamedTuple):
    Q: Array
    R: Array


class SVDResult(NamedTuple):
    U: Array
    S: Array
    Vh: Array


class EighResult(NamedTuple):
    eigenvalues: Array
    eigenvectors: Array


def qr(x, /, *, mode="reduced"):
    """The QR decomposition of each matrix of x: QRResult(Q, R); mode 'reduced' or 'complete'."""
    return QRResult(*_usmarr._linalg_qr(x, mode))


def svd(x, /, *, full_matrices=True):
    """The singular value decomposition of each matrix of x: SVDResult(U, S, Vh), S descending."""
    return SVDResult(*_usmarr._linalg_svd(x, full_matrices))


def svdvals(x, /):
    """The singular values of each matrix of x, descending."""
    return _usmarr._linalg_svdvals(x)


def eigh(x, /):
    """Eigenvalues (ascending) and eigenvectors of each Hermitian matrix of x (its lower
    triangle is read): EighResult(eigenvalues, eigenvectors)."""
    return EighResult(*_usmarr._linalg_eigh(x))


def eigvalsh(x, /):
    """The eigenvalues of each Hermitian matrix of x, ascending."""
    return _usmarr._linalg_eigvalsh(x)


def matrix_rank(x, /, *, rtol=None):
    """The number of singular values above rtol times the largest (default max(m, n) eps), int64."""
    return _usmarr._linalg_matrix_rank(x, rtol)


def pinv(x, /, *, rtol=None):
    """The pseudo-inverse of each matrix of x over the singular values above rtol times the largest."""
    return _usmarr._linalg_pinv(x, rtol)
