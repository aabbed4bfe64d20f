"""usmarr.linalg: the array API's linear algebra extension, as far as the library has it.

The functions are the main namespace's (each one call of the library, include/usmarr/linalg.h):
matmul, tensordot, vecdot and matrix_transpose.  The rest of the extension (cholesky, det, inv,
svd, ...) is not in the library (doc/array-api-tests.md lists the skipped tests)."""

from ._usmarr import matmul, matrix_transpose, tensordot, vecdot  # noqa: F401

__all__ = ["matmul", "matrix_transpose", "tensordot", "vecdot"]
