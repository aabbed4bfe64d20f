#!/bin/sh
# make check's layering check (tests/scripts/layers.py, doc/architecture.md): the folders
# of lib/ in rank order, no circles among the library's files, one internal header per
# folder of lib/ that other folders include.
srcdir=${srcdir:-.}
exec "${PYTHON_NUMPY:-python3}" "$srcdir/tests/scripts/layers.py" "$srcdir" .
