#!/bin/sh
# doc/python.md's user path, `pip install ./python`, against this build's library (not
# installed): pip builds the package from a copy of python/ into a fresh virtual environment
# with the system's setuptools (no network), pkg-config finding lib/ of the build tree; the
# module is imported and adds two arrays on the default device with no PYTHONPATH,
# LD_LIBRARY_PATH or OCL_ICD_VENDORS (unless no driver is registered system-wide, where
# scripts/setup.sh has the user export it).  A failed build or import fails; no venv module
# or no module built by configure skips (77), unless USMARR_REQUIRE_DEVICE=1.
set -u
top_builddir=${USMARR_TOP_BUILDDIR:-$(pwd)}
top_srcdir=${USMARR_TOP_SRCDIR:-${srcdir:-.}}
python=${USMARR_PYTHON:-python3}
skip() {
    echo "install-check: $*"
    if [ "${USMARR_REQUIRE_DEVICE:-0}" = 1 ]; then exit 1; fi
    exit 77
}
fail() {
    echo "install-check: $*"
    exit 1
}
[ "${USMARR_HAVE_PYTHON:-no}" = yes ] ||
    skip "configure found no C headers for $python (Debian: python3-dev), so pip cannot build the module either"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
"$python" -m venv --system-site-packages --without-pip "$tmp/venv" >"$tmp/log" 2>&1 ||
    skip "$python -m venv failed (Debian: python3-venv): $(cat "$tmp/log")"
# The package's files only (pip builds in the tree it is given; the source tree stays clean).
mkdir -p "$tmp/python/src" "$tmp/python/usmarr" "$tmp/pkgconfig"
(cd "$top_srcdir/python" && cp setup.py pyproject.toml README.md python.mk "$tmp/python/" &&
    cp src/*.c src/*.h "$tmp/python/src/" && cp usmarr/*.py "$tmp/python/usmarr/") || fail "cannot copy python/"
cat >"$tmp/pkgconfig/usmarr.pc" <<PC
Name: usmarr
Description: libusmarr in the build tree
Version: 0
Cflags: -I$top_srcdir/include -I$top_builddir/include
Libs: -L$top_builddir/lib/.libs -lusmarr
PC
PKG_CONFIG_PATH="$tmp/pkgconfig" CFLAGS=-O0 "$python" -m pip --python "$tmp/venv/bin/python" install -q \
    --no-build-isolation --no-deps --no-index --disable-pip-version-check "$tmp/python" >"$tmp/log" 2>&1 ||
    fail "pip install ./python failed: $(cat "$tmp/log")"
if ls /etc/OpenCL/vendors/*.icd >/dev/null 2>&1; then vendors=; else vendors=${OCL_ICD_VENDORS:-}; fi
run() {
    (cd "$tmp" && env -i PATH=/usr/bin:/bin HOME="${HOME:-$tmp}" ${vendors:+OCL_ICD_VENDORS=$vendors} \
        "$tmp/venv/bin/python" -c "$1" 2>&1)
}
where=$(run 'import usmarr; print(usmarr._usmarr.__file__)') || fail "import usmarr failed: $where"
case $where in
"$tmp/venv/"*) ;;
*) fail "import usmarr found $where, not the virtual environment's" ;;
esac
out=$(run 'import usmarr; x = usmarr.asarray([1, 2, 3]); print(int(usmarr.sum(x + x)))')
if [ "$out" != 12 ]; then
    devices=$(run 'import usmarr; print(len(usmarr.devices()))')
    [ "$devices" = 0 ] && skip "no USM device with a clean environment"
    fail "sum(x + x) of [1, 2, 3] printed \"$out\", expected 12"
fi
echo "install-check: pip install ./python into a fresh venv: sum(x + x) = $out on the default device"
