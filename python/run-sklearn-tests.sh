#!/bin/sh
# make check's scikit-learn suite: pytest over python/tests_numpy2 with the tests' NumPy 2
# environment (tests/numpy-oracle; scikit-learn put there by scripts/numpy2-sklearn.sh, and
# dpctl and dpnp, for test_dpctl.py and python/tests/test_interop.py's exchanges with
# dpnp.tensor arrays, by scripts/numpy2-dpctl.sh: without them those tests skip)
# against the extension module this build made and the library in lib/.libs, with
# SCIPY_ARRAY_API=1 as scikit-learn's array API dispatch needs.  Skips (77) when the module
# was not built or scikit-learn, SciPy or pytest is missing, unless USMARR_REQUIRE_DEVICE=1,
# which makes either a failure.
fail() {
    echo "python-sklearn: $*"
    if [ "${USMARR_REQUIRE_DEVICE:-0}" = 1 ]; then exit 1; fi
    exit 77
}
top_builddir=${USMARR_TOP_BUILDDIR:-$(pwd)}
top_srcdir=${USMARR_TOP_SRCDIR:-${srcdir:-.}}
[ "${USMARR_HAVE_PYTHON:-no}" = yes ] ||
    fail "configure found no C headers for Python (Debian: python3-dev), so the module was not built"
[ -e "$top_builddir/python/usmarr/_usmarr.abi3.so" ] || fail "python/usmarr/_usmarr.abi3.so was not built"
[ -s "$top_builddir/tests/numpy-oracle" ] || fail "tests/numpy-oracle is missing (make check makes it)"
python=$(cat "$top_builddir/tests/numpy-oracle")
"$python" -c 'import numpy, scipy, sklearn, pytest' 2>/dev/null ||
    fail "scikit-learn, SciPy or pytest is missing for $python (scripts/numpy2-sklearn.sh $python installs them)"
if [ -n "${USMARR_TEST_DEVICE:-}" ]; then USMARR_DEVICE=$USMARR_TEST_DEVICE; export USMARR_DEVICE; fi
SCIPY_ARRAY_API=1
PYTHONPATH="$top_builddir/python${PYTHONPATH:+:$PYTHONPATH}"
LD_LIBRARY_PATH="$top_builddir/lib/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
PYTHONDONTWRITEBYTECODE=1 # a read-only source tree (make distcheck) stays clean
export SCIPY_ARRAY_API PYTHONPATH LD_LIBRARY_PATH PYTHONDONTWRITEBYTECODE
# test_interop.py in a process of its own: test_dpctl.py adopts dpctl's context, which then
# answers its device's selector for the rest of a process (doc/python.md)
"$python" -m pytest -q -p no:cacheprovider -W error::pytest.PytestUnraisableExceptionWarning \
    --rootdir="$top_srcdir/python" "$top_srcdir/python/tests_numpy2" ${USMARR_PYTEST_ARGS:-} || exit 1
exec "$python" -m pytest -q -p no:cacheprovider -W error::pytest.PytestUnraisableExceptionWarning \
    --rootdir="$top_srcdir/python" "$top_srcdir/python/tests/test_interop.py" ${USMARR_PYTEST_ARGS:-}
