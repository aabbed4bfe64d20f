#!/bin/sh
# Usage: numpy2-dpctl.sh PYTHON
# Installs dpctl and dpnp from PyPI, at the pinned versions below, into PYTHON, the tests'
# NumPy 2 environment, for python/tests_numpy2/test_dpctl.py and python/tests/test_interop.py
# (python/run-sklearn-tests.sh runs both).  dpctl's wheel brings Intel's SYCL runtime, which
# sees the OpenCL devices of OCL_ICD_VENDORS; dpnp, where dpctl.tensor lives since dpctl
# 0.22, brings oneMKL, OpenMP and a second OpenCL runtime (together about 860 MB of wheels,
# 2.5 GB installed).  Quiet, and a no-op when the pinned versions are there (numpy2-pip.sh).
exec sh "$(dirname "$0")/numpy2-pip.sh" "$1" numpy2-dpctl dpctl==0.22.1 dpnp==0.20.0
