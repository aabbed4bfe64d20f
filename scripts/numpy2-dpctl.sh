#!/bin/sh
# Usage: numpy2-dpctl.sh PYTHON
# Installs dpctl from PyPI, at the pinned version below, into PYTHON, the tests' NumPy 2
# environment, for python/tests_numpy2/test_dpctl.py (python/run-sklearn-tests.sh runs it).
# dpctl's wheel brings Intel's SYCL runtime (wheels of about 250 MB, 920 MB installed), which
# sees the OpenCL devices of OCL_ICD_VENDORS.  dpnp, where dpctl.tensor lives since dpctl
# 0.22, is not installed: its oneMKL, OpenMP and second OpenCL runtime add 610 MB of wheels.
# Quiet, and a no-op when the pinned version is there (numpy2-pip.sh).
exec sh "$(dirname "$0")/numpy2-pip.sh" "$1" numpy2-dpctl dpctl==0.22.1
