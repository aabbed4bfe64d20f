#!/usr/bin/env bash
# The README's first command: installs the dependencies (once per machine), builds
# libusmarr and runs the demo on the default USM device.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
vendors=$(cat "${USMARR_DEPS:-$HOME/.local/share/usmarr-deps}/vendors-dir")
if [ ! -f Makefile ] || [ configure.ac -nt Makefile ] || ! grep -q "OCL_VENDORS_DIR = $vendors\$" Makefile; then
  autoreconf -fi >/dev/null
  # --enable-fuzz: install-deps.sh installed clang-15, so make check must run the fuzz targets.
  ./configure --quiet --with-ocl-vendors="$vendors" --enable-fuzz ${USMARR_CONFIGURE_FLAGS:-}
fi
make -j"$(nproc)" >/dev/null
# Compile the kernels most programs meet first, for every device, into the disk cache
# (~/.cache/usmarr): about two minutes once, so that first uses and the tests start warm.
echo "setup: prewarming the kernel cache for every USM device (once per machine and library version)"
make prewarm
make demo
