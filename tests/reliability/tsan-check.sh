#!/bin/sh
# Runs tests/tsan/stress (the thread-stress program built with ThreadSanitizer) on the
# first USM device and fails on a wrong result or on any ThreadSanitizer report.
# tests/reliability/tsan.supp may only name driver frames (PoCL, Intel's runtime, the ICD loader).
set -u
srcdir=${srcdir:-.}
prog=tests/tsan/stress
[ -x "$prog" ] || { echo "tsan-check: $prog was not built"; exit 1; }
log=tests/tsan/stress.log
# Load PoCL alone when the vendors directory names it: another driver in the process
# (Intel's runtime unlocks a destroyed mutex in its exit handler) would report its own
# defects.
if [ -z "${USMARR_TSAN_DEVICE:-}" ] && [ -n "${OCL_ICD_VENDORS:-}" ]; then
    pocl=$(grep -l 'libpocl' "$OCL_ICD_VENDORS"/*.icd 2>/dev/null | head -n 1)
    if [ -n "$pocl" ]; then
        mkdir -p tests/tsan/vendors && cp "$pocl" tests/tsan/vendors/
        OCL_ICD_VENDORS=$(pwd)/tests/tsan/vendors
        export OCL_ICD_VENDORS
    fi
fi
# halt_on_error=0: every report is counted, not only the first.  Two runs: through the USM
# extension, then through the SVM backend (its allocation table is shared by the threads).
TSAN_OPTIONS="suppressions=$srcdir/tests/reliability/tsan.supp halt_on_error=0 exitcode=66 history_size=4 ${TSAN_OPTIONS:-}" \
    "$prog" ${USMARR_TSAN_DEVICE:-opencl:cpu:0} >"$log" 2>&1
rc=$?
if [ "$rc" = 0 ] && ! grep -q '^stress: context: ' "$log"; then
    echo "tsan-check: again through the SVM backend (USMARR_USM_BACKEND=svm)" >>"$log"
    USMARR_USM_BACKEND=svm \
    TSAN_OPTIONS="suppressions=$srcdir/tests/reliability/tsan.supp halt_on_error=0 exitcode=66 history_size=4 ${TSAN_OPTIONS:-}" \
        "$prog" ${USMARR_TSAN_DEVICE:-opencl:cpu:0} >>"$log" 2>&1
    rc=$?
fi
cat "$log"
reports=$(grep -c '^WARNING: ThreadSanitizer' "$log")
if grep -q '^stress: context: ' "$log" && [ "${USMARR_REQUIRE_DEVICE:-0}" != 1 ]; then
    echo "tsan-check: no device; skipping"
    exit 77
fi
echo "tsan-check: exit status $rc, $reports ThreadSanitizer report(s)"
[ "$rc" = 0 ] && [ "$reports" = 0 ]
