"""usmarr.linalg: the array API's linear algebra extension.

Each function is one call of the library (include/usmarr/linalg.h, doc/linalg.md):
matmul, tensordot, vecdot and matrix_transpose as in the main namespace, and the
extension's functions on stacks of matrices.  A singular matrix (inv, solve) or one that is
not positive definite (cholesky) raises LinAlgError, a ValueError as NumPy's."""

from collections import namedtuple as _namedtuple

from ._usmarr import LinAlgError, matmul, matrix_transpose, tensordot, vecdot  # noqa: F401
from ._usmarr import _linalg

SlogdetResult = _namedtuple("SlogdetResult", ["sign", "logabsdet"])

cholesky = _linalg.cholesky
cross = _linalg.cross
det = _linalg.det
diagonal = _linalg.diagonal
inv = _linalg.inv
matrix_norm = _linalg.matrix_norm
matrix_power = _linalg.matrix_power
outer = _linalg.outer
solve = _linalg.solve
trace = _linalg.trace
vector_norm = _linalg.vector_norm


def slogdet(x, /):
    """The sign and the natural log of the absolute value of each determinant, as the named
    pair SlogdetResult(sign, logabsdet)."""
    return SlogdetResult(*_linalg.slogdet(x))


__all__ = ["LinAlgError", "cholesky", "cross", "det", "diagonal", "inv", "matmul", "matrix_norm", "matrix_power",
           "matrix_transpose", "outer", "slogdet", "solve", "tensordot", "trace", "vecdot", "vector_norm"]
