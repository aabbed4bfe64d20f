#!/usr/bin/python3
"""NumPy oracle for the promotion, elementwise and reduction tests.

Run as `$PYTHON_NUMPY tests/gen_ops_cases.py > tests/ops_cases.txt` (the build does it
before `make check`).  NumPy, never the library, computes every expected value; the
library's tests only read this file.  NumPy 1.24's opt-in NEP 50 ("weak") promotion state
gives NumPy 2's scalar rules.

Line formats (one case per line, fields separated by single spaces):
  promote A B R                      np.promote_types(A, B) == R
  cancast FROM TO CASTING 0|1        np.can_cast
  weak A KIND VALUE R|overflow       np.asarray(A-typed) + python scalar VALUE of KIND
  values DTYPE N v0 ... vN-1         the input vector of DTYPE used by the cases below
  ew OP NIN D0 [D1 [D2]] R N e0 ...  OP over inputs values[Dk] (input k rotated by
                                     ROT[k] elements) gives dtype R and values e0...
Values are written as C-parsable text: integers in decimal, floats as %a hex (exact),
complex as re:im, "nan", "inf", "-inf".
"""
import sys
import warnings

import numpy as np

np._set_promotion_state("weak")
warnings.simplefilter("ignore")

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float16", "float32", "float64", "complex64", "complex128"]
CASTINGS = ["no", "equiv", "safe", "same_kind", "unsafe"]

out = sys.stdout


def promotion():
    for a in DTYPES:
        for b in DTYPES:
            out.write("promote %s %s %s\n" % (a, b, np.promote_types(a, b).name))
    for a in DTYPES:
        for b in DTYPES:
            for c in CASTINGS:
                out.write("cancast %s %s %s %d\n" % (a, b, c, int(np.can_cast(a, b, c))))
    scalars = [("bool", "1", True), ("bool", "0", False), ("int", "1", 1), ("int", "-1", -1),
               ("int", "127", 127), ("int", "128", 128), ("int", "-129", -129), ("int", "255", 255),
               ("int", "256", 256), ("int", "65536", 65536), ("int", "-2147483649", -2147483649),
               ("int", "4294967296", 4294967296), ("int", "-9223372036854775808", -9223372036854775808),
               ("uint", "18446744073709551615", 18446744073709551615),
               ("uint", "9223372036854775808", 9223372036854775808), ("uint", "5", 5),
               ("float", "1.5", 1.5), ("complex", "1:2", 1 + 2j)]
    for a in DTYPES:
        for kind, text, v in scalars:
            try:
                r = (np.zeros(1, a) + v).dtype.name
            except OverflowError:
                r = "overflow"
            out.write("weak %s %s %s %s\n" % (a, kind, text, r))
    # scalar-only promotion
    for kind, text, v in scalars:
        try:
            r = np.result_type(v).name
        except OverflowError:
            r = "overflow"
        out.write("weakonly %s %s %s\n" % (kind, text, r))


def main():
    promotion()


if __name__ == "__main__":
    main()
