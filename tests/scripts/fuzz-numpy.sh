#!/bin/sh
# The differential test against NumPy 2 (doc/reliability.md): tests/scripts/fuzz_numpy.py over
# the Python package this build made, on every device the package lists (or
# USMARR_TEST_DEVICE's), side by side, one line per device.
#   fuzz-numpy.sh [SEED [COUNT [FIRST]]]   (default: $FUZZ_NUMPY_SEED, $FUZZ_NUMPY_COUNT, 0)
# Each device runs chains FIRST to FIRST+COUNT-1, or with FUZZ_NUMPY_SPLIT=1 (make check)
# the devices share them in turn, a consecutive part each, so that every chain runs once.
# Skips (77) when the module was not built or no NumPy 2 is at hand, unless
# USMARR_REQUIRE_DEVICE=1, which makes either a failure.
fail() {
    echo "fuzz-numpy: $*"
    if [ "${USMARR_REQUIRE_DEVICE:-0}" = 1 ]; then exit 1; fi
    exit 77
}
seed=${1:-${FUZZ_NUMPY_SEED:-1}}
count=${2:-${FUZZ_NUMPY_COUNT:-200}}
first=${3:-0}
top_builddir=${USMARR_TOP_BUILDDIR:-$(pwd)}
top_srcdir=${USMARR_TOP_SRCDIR:-${srcdir:-.}}
[ "${USMARR_HAVE_PYTHON:-no}" = yes ] ||
    fail "configure found no C headers for Python, so the module was not built"
[ -e "$top_builddir/python/usmarr/_usmarr.abi3.so" ] || fail "python/usmarr/_usmarr.abi3.so was not built"
[ -s "$top_builddir/tests/numpy-oracle" ] || fail "tests/numpy-oracle was not made (make check makes it)"
python=$(cat "$top_builddir/tests/numpy-oracle")
"$python" -c 'import sys, numpy; sys.exit(int(numpy.__version__.split(".")[0]) < 2)' 2>/dev/null ||
    fail "$python has no NumPy 2, the reference (scripts/numpy-oracle.sh)"
PYTHONPATH="$top_builddir/python${PYTHONPATH:+:$PYTHONPATH}"
LD_LIBRARY_PATH="$top_builddir/lib/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
PYTHONDONTWRITEBYTECODE=1
export PYTHONPATH LD_LIBRARY_PATH PYTHONDONTWRITEBYTECODE
devices=${USMARR_TEST_DEVICE:-$("$python" -c 'import usmarr; print(" ".join(d.selector for d in usmarr.devices()))')}
[ -n "$devices" ] || fail "no device"
set -- $devices
ndevices=$#
split=${FUZZ_NUMPY_SPLIT:-0}
per=$(((count + ndevices - 1) / ndevices))
# The devices run side by side, each into a log of its own, printed in the devices' order.
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
k=0
for device in $devices; do
    start=$first
    n=$count
    if [ "$split" = 1 ]; then
        start=$((first + k * per))
        n=$((first + count - start))
        [ "$n" -gt "$per" ] && n=$per
    fi
    k=$((k + 1))
    [ "$n" -gt 0 ] || continue
    { "$python" "$top_srcdir/tests/scripts/fuzz_numpy.py" --seed "$seed" --count "$n" --first "$start" \
        --device "$device" --doc "$top_srcdir/doc/reliability.md" >"$logs/$k" 2>&1; echo $? >"$logs/$k.status"; } &
done
wait
status=0
k=0
for device in $devices; do
    k=$((k + 1))
    [ -e "$logs/$k.status" ] || continue
    printf '%s: ' "$device"
    cat "$logs/$k"
    [ "$(cat "$logs/$k.status")" = 0 ] || status=1
done
exit $status
