#!/bin/sh
# The README's promise: after scripts/setup.sh, a program built with pkg-config against
# the INSTALLED library, and the installed `usmarr devices`, find a USM device with no
# OpenCL variables set.  Builds examples/readme.c that way and checks its output.
# Skips (77) when the library is not installed, unless USMARR_REQUIRE_DEVICE=1.
set -u
srcdir=${srcdir:-.}
fail() {
    echo "installed-example: $*"
    if [ "${USMARR_REQUIRE_DEVICE:-0}" = 1 ]; then exit 1; fi
    exit 77
}
command -v pkg-config >/dev/null 2>&1 || fail "pkg-config is missing"
pkg-config --exists usmarr || fail "libusmarr is not installed (scripts/setup.sh installs it when run as root)"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
# shellcheck disable=SC2046 # pkg-config's output is a list of flags
${CC:-cc} -o "$tmp/example" "$srcdir/examples/readme.c" $(pkg-config --cflags --libs usmarr) ||
    fail "building examples/readme.c with pkg-config failed"
out=$(env -u OCL_ICD_VENDORS -u OCL_ICD_FILENAMES "$tmp/example" 2>&1) ||
    fail "the example failed with a clean environment: $out"
[ "$out" = "17 15 13 11" ] || fail "the example printed \"$out\", expected \"17 15 13 11\""
echo "installed-example: $(pkg-config --modversion usmarr) from $(pkg-config --variable=libdir usmarr): $out"
tool="$(pkg-config --variable=prefix usmarr)/bin/usmarr"
devices=$(env -u OCL_ICD_VENDORS -u OCL_ICD_FILENAMES "$tool" devices 2>&1) ||
    fail "$tool devices failed with a clean environment: $devices"
echo "$devices" | grep -q 'usable  *yes' || fail "$tool devices lists no usable device: $devices"
echo "installed-example: $tool devices: $(echo "$devices" | grep -c 'usable  *yes') usable device(s)"
