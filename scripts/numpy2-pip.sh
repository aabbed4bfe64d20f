#!/bin/sh
# Usage: numpy2-pip.sh PYTHON NAME PIN...
# Installs the pinned packages PIN... (name==version) from PyPI into PYTHON, the tests'
# NumPy 2 environment (tests/numpy-oracle, made by numpy-oracle.sh), for the suites of
# python/tests_numpy2; what numpy2-sklearn.sh and numpy2-dpctl.sh (NAME, in messages) share.
# Quiet, and a no-op when the pinned versions are there.  Only a virtual environment is
# changed: a system Python is left alone.  Exits 1, with a message, when they cannot be had
# (no network); the suite then says so.
py=$1
name=$2
shift 2
have="import sys, importlib.metadata as m
sys.exit(any(m.version(p.split('==')[0]) != p.split('==')[1] for p in sys.argv[1:]))"
"$py" -c "$have" "$@" 2>/dev/null && exit 0
if ! "$py" -c 'import sys; sys.exit(sys.prefix == sys.base_prefix)' 2>/dev/null; then
    echo "$name: $py is not a virtual environment; install $* into it by hand" >&2
    exit 1
fi
echo "$name: installing $* from PyPI into $py's environment (once)" >&2
if ! "$py" -m pip install -q --disable-pip-version-check "$@" >&2 || ! "$py" -c "$have" "$@"; then
    echo "$name: WARNING: could not install $*; python/run-sklearn-tests.sh will say so" >&2
    exit 1
fi
