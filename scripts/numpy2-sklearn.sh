#!/bin/sh
# Usage: numpy2-sklearn.sh PYTHON
# Installs scikit-learn, SciPy, array-api-compat and pytest from PyPI, at the pinned versions
# below, into PYTHON, the tests' NumPy 2 environment (tests/numpy-oracle, made by
# numpy-oracle.sh), for python/run-sklearn-tests.sh; as bench/bench_expr.c installs numexpr.
# Quiet, and a no-op when the pinned versions are there.  Only a virtual environment is
# changed: a system Python is left alone.  Exits 1, with a message, when they cannot be had
# (no network); the suite then says so.
py=$1
pins="scikit-learn==1.9.1 scipy==1.17.1 array-api-compat==1.16.0 pytest==9.2.0"
have="import sys, importlib.metadata as m
sys.exit(any(m.version(p.split('==')[0]) != p.split('==')[1] for p in sys.argv[1:]))"
"$py" -c "$have" $pins 2>/dev/null && exit 0
if ! "$py" -c 'import sys; sys.exit(sys.prefix == sys.base_prefix)' 2>/dev/null; then
    echo "numpy2-sklearn: $py is not a virtual environment; install $pins into it by hand" >&2
    exit 1
fi
echo "numpy2-sklearn: installing $pins from PyPI into $py's environment (once)" >&2
if ! "$py" -m pip install -q --disable-pip-version-check $pins >&2 || ! "$py" -c "$have" $pins; then
    echo "numpy2-sklearn: WARNING: could not install $pins; python/run-sklearn-tests.sh will say so" >&2
    exit 1
fi
