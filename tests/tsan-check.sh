#!/bin/sh
# Runs tests/tsan/stress (the thread-stress program built with ThreadSanitizer) on the
# first USM device and fails on a wrong result or on any ThreadSanitizer report.
# tests/tsan.supp may only name driver frames (PoCL, Intel's runtime, the ICD loader).
set -u
srcdir=${srcdir:-.}
prog=tests/tsan/stress
[ -x "$prog" ] || { echo "tsan-check: $prog was not built"; exit 1; }
log=tests/tsan/stress.log
# halt_on_error=0: every report is counted, not only the first.
TSAN_OPTIONS="suppressions=$srcdir/tests/tsan.supp halt_on_error=0 exitcode=66 history_size=4 ${TSAN_OPTIONS:-}" \
    "$prog" ${USMARR_TSAN_DEVICE:-opencl:cpu:0} >"$log" 2>&1
rc=$?
cat "$log"
reports=$(grep -c '^WARNING: ThreadSanitizer' "$log")
if grep -q '^stress: context: ' "$log" && [ "${USMARR_REQUIRE_DEVICE:-0}" != 1 ]; then
    echo "tsan-check: no device; skipping"
    exit 77
fi
echo "tsan-check: exit status $rc, $reports ThreadSanitizer report(s)"
[ "$rc" = 0 ] && [ "$reports" = 0 ]
