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
  make install >/dev/null
  ldconfig
  echo "setup: installed libusmarr in $(sed -n 's/^prefix = //p' Makefile); cc prog.c \$(pkg-config --cflags --libs usmarr)"
else
  echo "setup: building the common kernels of every USM device into the kernel cache (once per machine and library version)"
  make prewarm
  echo "setup: not root, so nothing was registered or installed system-wide.  To use the USM devices"
  echo "setup: from your own programs, set (and, for the library, 'make install' into a prefix you own):"
  echo "export OCL_ICD_VENDORS=$vendors"
fi
make demo
