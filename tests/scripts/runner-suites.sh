#!/bin/sh
# The runner's refusal of suite names it does not have (USMARR_TEST_SUITES): a failure
# before any device is listed, naming each unknown name and listing the suites, and no
# count of tests.  Needs no device.
set -u
runner=${USMARR_TOP_BUILDDIR:-.}/tests/runner
fail() {
    echo "runner-suites: $*"
    exit 1
}
# expect NAMES UNKNOWN: USMARR_TEST_SUITES=NAMES fails and names UNKNOWN (a quoted list).
expect() {
    out=$(USMARR_TEST_SUITES=$1 "$runner" 2>&1) && fail "USMARR_TEST_SUITES=$1: the runner exited with status 0: $out"
    case $out in
    *"names no suite $2; the suites are: $suites") ;;
    *) fail "USMARR_TEST_SUITES=$1: expected the unknown names $2 and the list of suites, got: $out" ;;
    esac
    case $out in
    *passed*) fail "USMARR_TEST_SUITES=$1: the runner counted tests: $out" ;;
    esac
}
suites=$("$runner" --list-suites) || fail "runner --list-suites failed"
case $suites in
error,*view*) ;;
*) fail "runner --list-suites printed \"$suites\"" ;;
esac
expect binary '"binary"'
expect view,binary,index,unary '"binary", "unary"'
expect view, '""'
