#!/bin/sh
# Usage: numpy-oracle.sh PYTHON DIR
# Prints the Python interpreter that runs the tests' NumPy oracles (tests/gen/gen_*.py), which
# follow NumPy 2 (doc/ops.md), with mpmath for the accuracy suite's references
# (tests/gen/gen_accuracy_cases.py).  PYTHON itself when it has NumPy 2 or newer and mpmath;
# otherwise a private virtual environment DIR (made once, in the build tree) with both
# from PyPI (an environment made before the accuracy suite gets mpmath added); if that cannot
# be made (no network, no venv module), PYTHON with a warning: its NumPy 1 oracles differ
# from NumPy 2's in a few documented places, and the tests that depend on NumPy 2 or mpmath
# say that they were skipped.
py=$1
dir=$2
is2='import sys, numpy; sys.exit(int(numpy.__version__.split(".")[0]) < 2)'
if "$py" -c "$is2" 2>/dev/null && "$py" -c 'import mpmath' 2>/dev/null; then
    echo "$py"
    exit 0
fi
if test -x "$dir/bin/python" && "$dir/bin/python" -c "$is2" 2>/dev/null; then
    if ! "$dir/bin/python" -c 'import mpmath' 2>/dev/null; then
        echo "numpy-oracle: installing mpmath from PyPI into $dir (once)" >&2
        "$dir/bin/python" -m pip install -q --disable-pip-version-check mpmath >&2 ||
            echo "numpy-oracle: WARNING: could not install mpmath; the accuracy suite will say it was skipped" >&2
    fi
    echo "$dir/bin/python"
    exit 0
fi
echo "numpy-oracle: installing NumPy 2 and mpmath from PyPI into $dir (once)" >&2
rm -rf "$dir"
if "$py" -m venv "$dir" >&2 && "$dir/bin/python" -m pip install -q --disable-pip-version-check 'numpy>=2' mpmath >&2 &&
    "$dir/bin/python" -c "$is2"; then
    echo "$dir/bin/python"
    exit 0
fi
rm -rf "$dir"
v=$("$py" -c 'import numpy; print(numpy.__version__)' 2>/dev/null)
cat >&2 <<MSG
numpy-oracle: WARNING: could not install NumPy 2 from PyPI into $dir.
numpy-oracle: the test oracles fall back to $py with NumPy ${v:-(none)}; NumPy 2 is the
numpy-oracle: reference, so the cases where NumPy 1 and 2 differ (complex special values and
numpy-oracle: branch cuts, tests/gen/gen_complex_cases.py) are skipped with a message.
MSG
echo "$py"
