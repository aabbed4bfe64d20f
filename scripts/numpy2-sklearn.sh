#!/bin/sh
# Usage: numpy2-sklearn.sh PYTHON
# Installs scikit-learn, SciPy, array-api-compat and pytest from PyPI, at the pinned versions
# below, into PYTHON, the tests' NumPy 2 environment (tests/numpy-oracle, made by
# numpy-oracle.sh), for python/run-sklearn-tests.sh; as bench/bench_expr.c installs numexpr.
# Quiet, and a no-op when the pinned versions are there (numpy2-pip.sh).
exec sh "$(dirname "$0")/numpy2-pip.sh" "$1" numpy2-sklearn scikit-learn==1.9.1 scipy==1.17.1 \
    array-api-compat==1.16.0 pytest==9.2.0
