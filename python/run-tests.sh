#!/bin/sh
# make check's Python suite: pytest over python/tests against the extension module this
# build made (python/usmarr in the build tree) and the library in lib/.libs.
# Skips (77) when the module was not built or pytest is missing, unless
# USMARR_REQUIRE_DEVICE=1, which makes either a failure.
fail() {
    echo "python: $*"
    if [ "${USMARR_REQUIRE_DEVICE:-0}" = 1 ]; then exit 1; fi
    exit 77
}
top_builddir=${USMARR_TOP_BUILDDIR:-$(pwd)}
top_srcdir=${USMARR_TOP_SRCDIR:-${srcdir:-.}}
python=${USMARR_PYTHON:-python3}
[ "${USMARR_HAVE_PYTHON:-no}" = yes ] ||
    fail "configure found no C headers for $python (Debian: python3-dev), so the module was not built"
[ -e "$top_builddir/python/usmarr/_usmarr.abi3.so" ] || fail "python/usmarr/_usmarr.abi3.so was not built"
"$python" -c 'import pytest' 2>/dev/null || fail "pytest is missing for $python (Debian: python3-pytest)"
# One device: the one the C suites were narrowed to, else the library's default.
if [ -n "${USMARR_TEST_DEVICE:-}" ]; then USMARR_DEVICE=$USMARR_TEST_DEVICE; export USMARR_DEVICE; fi
PYTHONPATH="$top_builddir/python${PYTHONPATH:+:$PYTHONPATH}"
LD_LIBRARY_PATH="$top_builddir/lib/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
PYTHONDONTWRITEBYTECODE=1 # a read-only source tree (make distcheck) stays clean
export PYTHONPATH LD_LIBRARY_PATH PYTHONDONTWRITEBYTECODE
exec "$python" -m pytest -q -p no:cacheprovider -W error::pytest.PytestUnraisableExceptionWarning \
    --rootdir="$top_srcdir/python" "$top_srcdir/python/tests" ${USMARR_PYTEST_ARGS:-}
