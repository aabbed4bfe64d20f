#!/usr/bin/env bash
# The README's first command: installs the dependencies (once per machine), builds
# libusmarr and runs the demo on the default USM device.
set -euo pipefail
cd "$(dirname "$0")/.."
t0=$(date +%s)
# Runs a step with its output in a log, shown only when it fails: setup prints its own
# progress, not the tools' notes (autoreconf's "installing ...", libtool's relinking, the
# kernels' progress).
quietly() {
  local log
  log=$(mktemp)
  "$@" >"$log" 2>&1 || { cat "$log"; rm -f "$log"; return 1; }
  rm -f "$log"
}
bash scripts/install-deps.sh packages
deps_dir=${USMARR_DEPS:-$HOME/.local/share/usmarr-deps}
vendors="$deps_dir/vendors" # install-deps.sh's vendors directory, wherever its drivers come from
# The library builds while install-deps.sh builds the drivers: PoCL's build leaves a core
# idle for about a minute (its configure step and its last links, one process each).
build_library() {
  if [ ! -f Makefile ] || [ configure.ac -nt Makefile ] || ! grep -q "OCL_VENDORS_DIR = $vendors\$" Makefile; then
    quietly autoreconf -fi
    # --enable-fuzz: install-deps.sh installed clang-15, so make check must run the fuzz targets.
    ./configure --quiet --with-ocl-vendors="$vendors" --enable-fuzz ${USMARR_CONFIGURE_FLAGS:-}
  fi
  make -j"$(nproc)" >/dev/null
}
build_log=$(mktemp)
build_library >"$build_log" 2>&1 &
build=$!
if ! bash scripts/install-deps.sh drivers; then
  wait "$build" || true
  rm -f "$build_log"
  exit 1
fi
t_deps=$(date +%s)
if ! wait "$build"; then
  cat "$build_log"
  rm -f "$build_log"
  echo "setup: building libusmarr failed"
  exit 1
fi
cat "$build_log" # the compilers' warnings, if any
rm -f "$build_log"
[ "$(cat "$deps_dir/vendors-dir")" = "$vendors" ] || { echo "setup: the vendors directory is not $vendors"; exit 1; }
t_build=$(date +%s)

# Make the USM devices and the library visible to every program, as the README promises:
# register each USM-capable driver of the vendors directory with the system's ICD loader
# (unless the same driver library is registered already) and install libusmarr, whose
# installation builds the kernels most programs meet first for every device into the
# system cache (doc/cache.md), so that first uses and the tests start warm.  Without root,
# they go into this user's cache instead.
if [ "$(id -u)" = 0 ]; then
  mkdir -p /etc/OpenCL/vendors
  for icd in "$vendors"/*.icd; do
    [ -e "$icd" ] || continue
    lib=$(cat "$icd")
    if grep -qxF "$lib" /etc/OpenCL/vendors/*.icd 2>/dev/null; then
      continue
    fi
    cp "$icd" "/etc/OpenCL/vendors/usmarr-$(basename "$icd")"
    echo "setup: registered $lib in /etc/OpenCL/vendors"
  done
  echo "setup: installing libusmarr and building the common kernels of every USM device (once per machine and library version)"
  quietly make install
  ldconfig
  echo "setup: installed libusmarr in $(sed -n 's/^prefix = //p' Makefile); cc prog.c \$(pkg-config --cflags --libs usmarr)"
else
  echo "setup: building the common kernels of every USM device into the kernel cache (once per machine and library version)"
  make prewarm
  echo "setup: not root, so nothing was registered or installed system-wide.  To use the USM devices"
  echo "setup: from your own programs, set (and, for the library, 'make install' into a prefix you own):"
  echo "export OCL_ICD_VENDORS=$vendors"
fi
t_install=$(date +%s)
make demo
t_end=$(date +%s)
# The times of this run, for `make bench` (setup-fresh-s): a fresh machine's is the figure.
printf 'total %s\ndeps %s\nbuild %s\ninstall %s\ndemo %s\nfresh %s\n' $((t_end - t0)) $((t_deps - t0)) \
  $((t_build - t_deps)) $((t_install - t_build)) $((t_end - t_install)) "$(cat "$deps_dir/last-run-fresh" 2>/dev/null || echo 0)" \
  > "$deps_dir/setup-times"
if grep -qx 'fresh 1' "$deps_dir/setup-times"; then cp "$deps_dir/setup-times" "$deps_dir/setup-times-fresh"; fi
echo "setup: done in $((t_end - t0)) s"
