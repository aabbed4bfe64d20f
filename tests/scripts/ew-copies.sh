#!/bin/sh
# make check's check that cl/elementwise.cl and its helpers (cl/elementwise_funcs.cl) can
# be copied once per dtype into one program, as fused expressions do
# (tests/scripts/ew_copies.py, doc/engine.md).
srcdir=${srcdir:-.}
exec "${PYTHON_NUMPY:-python3}" "$srcdir/tests/scripts/ew_copies.py" "$srcdir"
