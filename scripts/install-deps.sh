#!/usr/bin/env bash
# Installs everything libusmarr needs on Debian 12 and guarantees a USM-capable
# OpenCL CPU device.  Idempotent: a second run on the same machine takes seconds.
#
# Output: an OpenCL vendors directory holding only USM-capable ICDs, $USMARR_DEPS/vendors,
# whose path is written to $USMARR_DEPS/vendors-dir (and printed).  Tests and the demo
# point OCL_ICD_VENDORS at it so Debian's USM-less PoCL 3.1 never shadows the USM one.
#
# Usage: install-deps.sh [packages|drivers]: the Debian packages alone, or the OpenCL
# drivers alone (PoCL, Intel's runtime, the vendors directory); both without an argument.
# scripts/setup.sh runs the two apart and builds the library while the drivers build.
set -euo pipefail
phase=${1:-all}
case $phase in all | packages | drivers) ;; *) echo "usage: $0 [packages|drivers]" >&2; exit 2 ;; esac

here=$(cd "$(dirname "$0")" && pwd)
if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi
USMARR_DEPS=${USMARR_DEPS:-$HOME/.local/share/usmarr-deps}
POCL_VERSION=6.0
# This project's changes to PoCL's source (scripts/pocl-*.patch, each says why) and to its
# build (POCL_CMAKE_OPTIONS), and their revision, part of the install's name: raised with
# any change to them, so that a machine holding an older build builds PoCL again.
POCL_PATCHES="pocl-prefix-pch.patch pocl-binary-specialized.patch pocl-unity-build.patch"
# PoCL links every work-group function it compiles (a kernel's first launch at a local
# size) into a shared object with a linker process of its own; gold does it in about half
# the time of binutils' default ld (doc/cache.md, "PoCL as the setup builds it").
# It builds as a unity build, its sources compiled in batches (scripts/pocl-unity-build.patch
# says why); _GNU_SOURCE for every C file, since a batch's first file decides what the
# system headers declare for the rest.
# Its configure step links two test programs against LLVM's and Clang's libraries, 18 of
# its 26 s on one core; the results are given instead (LLVM_LINK_TEST, CLANG_LINK_TEST:
# the packages above provide those libraries, and the build links them anyway).
POCL_CMAKE_OPTIONS="-DEXTRA_HOST_LD_FLAGS=-fuse-ld=gold -DCMAKE_UNITY_BUILD=ON -DCMAKE_C_FLAGS=-D_GNU_SOURCE
  -DLLVM_LINK_TEST=1 -DCLANG_LINK_TEST=1"
POCL_PATCH_REVISION=3
LLVM_VERSION=15
log() { printf 'install-deps: %s\n' "$*"; }
t0=$(date +%s)
fresh=0 # set when this run installed or built something (scripts/setup.sh records it)

packages=(
  build-essential autoconf automake libtool pkg-config make
  ocl-icd-libopencl1 ocl-icd-opencl-dev ocl-icd-dev opencl-c-headers clinfo
  check libxxhash-dev libdlpack-dev python3 python3-numpy python3-pip dpkg-dev doxygen
  # The Python package (python/): its C headers, and pytest for make check; venv, setuptools
  # and wheel for make check's pip install ./python (python/install-check.sh).
  python3-dev python3-pytest python3-venv python3-setuptools python3-wheel
  # libusmarr-mpi and its tests (mpirun on this machine's cores, no network).
  openmpi-bin libopenmpi-dev
  # PoCL build and run time: it calls clang and a linker (binutils' gold) for every kernel.
  cmake binutils llvm-${LLVM_VERSION}-dev clang-${LLVM_VERSION} libclang-${LLVM_VERSION}-dev
  libclang-cpp${LLVM_VERSION}-dev libhwloc-dev
  # The fuzz targets (doc/fuzzing.md): libFuzzer and the sanitizer runtimes of clang-15.
  libclang-common-${LLVM_VERSION}-dev
  # ThreadSanitizer's runtime for gcc (tests/reliability/tsan-check.sh, --enable-tsan).
  libtsan2
)
if [ "$phase" != drivers ]; then
  missing=()
  for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    fresh=1
    log "installing Debian packages: ${missing[*]}"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  else
    log "Debian packages: all ${#packages[@]} present"
  fi
fi
mkdir -p "$USMARR_DEPS"
if [ "$phase" = packages ]; then
  echo "$fresh" > "$USMARR_DEPS/last-run-fresh"
  exit 0
fi

probe="$USMARR_DEPS/usm-probe"
if [ ! -x "$probe" ] || [ "$here/usm-probe.c" -nt "$probe" ]; then
  cc -O1 -o "$probe" "$here/usm-probe.c" -lOpenCL
fi

# probe_vendors DIR: prints one line per USM-capable device, exit 0 if any.
probe_vendors() { OCL_ICD_VENDORS="$1" "$probe"; }

vendors="$USMARR_DEPS/vendors"
rm -rf "$vendors.new"; mkdir -p "$vendors.new"
# add_icd FILE: into the new vendors directory, unless the same driver library is there
# already (step 1 can find a driver that steps 2 and 3 add, registered under another name).
add_icd() {
  if ! grep -qxF "$(cat "$1")" "$vendors.new"/*.icd 2>/dev/null; then cp "$1" "$vendors.new/"; fi
}

# Intel's CPU OpenCL runtime (step 3) from PyPI.  Its wheels are unpacked (not
# pip-installed) so nothing touches the system's Python; the runtime's own libOpenCL is
# dropped so the ICD loader stays Debian's.  It downloads in the background, while
# step 2 builds PoCL.
intel="$USMARR_DEPS/intel-opencl-rt"
fetch_intel() {
  log "trying Intel's CPU OpenCL runtime from PyPI (intel-opencl-rt, ~1 GB unpacked)"
  rm -rf "$intel.tmp"; mkdir -p "$intel.tmp/wheels" "$intel.tmp/x" "$intel.tmp/lib"
  if /usr/bin/python3 -m pip download -q --disable-pip-version-check -d "$intel.tmp/wheels" \
       intel-opencl-rt intel-cmplr-lib-rt >"$USMARR_DEPS/intel-pip.log" 2>&1; then
    for w in "$intel.tmp"/wheels/*.whl; do /usr/bin/python3 -m zipfile -e "$w" "$intel.tmp/x/"; done
    cp -a "$intel.tmp"/x/*.data/data/lib/. "$intel.tmp/lib/" 2>/dev/null || true
    rm -f "$intel.tmp"/lib/libOpenCL.so*
    rm -rf "$intel.tmp/wheels" "$intel.tmp/x" "$intel"; mv "$intel.tmp" "$intel"
  else
    rm -rf "$intel.tmp"
    log "intel-opencl-rt not available ($(tail -n1 "$USMARR_DEPS/intel-pip.log")); carrying on with PoCL alone"
  fi
}
intel_fetch=
if [ "${USMARR_SKIP_INTEL:-0}" != 1 ] && [ ! -e "$intel/lib/libintelocl.so" ]; then
  fresh=1
  fetch_intel &
  intel_fetch=$!
  trap 'wait "$intel_fetch" 2>/dev/null || true' EXIT # no download outlives a failed build
fi

# 1. Platforms already installed that expose USM are used as they are.  The drivers that
#    setup.sh registered itself (usmarr-*.icd) are steps 2 and 3's to choose: a PoCL
#    built before a change of its patches is built again.
for icd in /etc/OpenCL/vendors/*.icd; do
  [ -e "$icd" ] || continue
  case $(basename "$icd") in usmarr-*) continue ;; esac
  one=$(mktemp -d); cp "$icd" "$one/"
  if probe_vendors "$one" >/dev/null 2>&1; then
    log "system ICD $(basename "$icd") exposes USM: using it"
    add_icd "$icd"
  fi
  rm -rf "$one"
done

# 2. Otherwise PoCL 6.0 from Debian's own source package, built for this machine.
if ! ls "$vendors.new"/*.icd >/dev/null 2>&1; then
  cpu=$(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //' | tr -c 'A-Za-z0-9._-' '_' | tr -s _)
  # PoCL compiles its kernel library for the CPU LLVM names this machine's.  LLVM 15 does
  # not know CPUs newer than itself (an AMD family 1Ah reads "(unknown)") and PoCL's
  # configure stops there; such a CPU gets the widest generic x86-64 level its flags allow,
  # which also becomes part of the install's name.
  llc_cpu=$(llc-${LLVM_VERSION} --version 2>/dev/null | sed -n 's/^ *Host CPU: *//p')
  if [ -z "$llc_cpu" ] || [ "$llc_cpu" = "(unknown)" ] || [ "$llc_cpu" = generic ]; then
    flags=" $(grep -m1 '^flags' /proc/cpuinfo | sed 's/.*: //') "
    has() { local f; for f; do [[ $flags == *" $f "* ]] || return 1; done; }
    if has avx512f avx512bw avx512cd avx512dq avx512vl; then llc_cpu=x86-64-v4
    elif has avx2 bmi1 bmi2 fma movbe f16c; then llc_cpu=x86-64-v3
    elif has sse4_2 ssse3 popcnt; then llc_cpu=x86-64-v2
    else llc_cpu=x86-64; fi
    POCL_CMAKE_OPTIONS="$POCL_CMAKE_OPTIONS -DLLC_HOST_CPU=$llc_cpu"
    cpu="${cpu}-${llc_cpu}"
  fi
  prefix="$USMARR_DEPS/pocl-${POCL_VERSION}-p${POCL_PATCH_REVISION}-llvm${LLVM_VERSION}-${cpu}"
  icdfile="$USMARR_DEPS/pocl-usm.icd"
  echo "$prefix/lib/libpocl.so" > "$icdfile"
  one=$(mktemp -d); cp "$icdfile" "$one/"
  if [ -e "$prefix/lib/libpocl.so" ] && probe_vendors "$one" >/dev/null 2>&1; then
    log "PoCL ${POCL_VERSION} build in $prefix passes the probe: reusing it"
  else
    fresh=1
    log "building PoCL ${POCL_VERSION} into $prefix (several minutes, once per machine)"
    work="$USMARR_DEPS/pocl-src"; rm -rf "$work"; mkdir -p "$work/lists/partial" "$work/cache/archives/partial"
    # The mirror comes from this machine's own apt sources; trixie carries pocl 6.0.
    mirror=$(grep -hE '^URIs:' /etc/apt/sources.list.d/*.sources 2>/dev/null | awk '{print $2}' | grep -v security | head -n1)
    [ -n "$mirror" ] || mirror=$(grep -hE '^deb ' /etc/apt/sources.list 2>/dev/null | awk '{print $2}' | grep -v security | head -n1)
    [ -n "$mirror" ] || { log "no Debian mirror found in /etc/apt sources"; exit 1; }
    echo "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror trixie main" > "$work/sources.list"
    aptopts=(-o Dir::Etc::SourceList="$work/sources.list" -o Dir::Etc::SourceParts=/dev/null
             -o Dir::State::Lists="$work/lists" -o Dir::Cache::pkgcache="$work/cache/pkg.bin"
             -o Dir::Cache::srcpkgcache="$work/cache/srcpkg.bin" -o Dir::Cache::archives="$work/cache/archives"
             -o APT::Sandbox::User=root)
    apt-get "${aptopts[@]}" update -qq
    (cd "$work" && apt-get "${aptopts[@]}" source --download-only -qq pocl >/dev/null)
    tarball=$(ls "$work"/pocl_${POCL_VERSION}.orig.tar.* 2>/dev/null | head -n1)
    [ -n "$tarball" ] || { log "trixie no longer carries pocl ${POCL_VERSION}: $(ls "$work")"; exit 1; }
    mkdir -p "$work/src" && tar -xf "$tarball" -C "$work/src" --strip-components=1
    for p in $POCL_PATCHES; do
      patch -s -d "$work/src" -p1 < "$here/$p" || { log "scripts/$p does not apply to pocl ${POCL_VERSION}"; exit 1; }
    done
    cmake -S "$work/src" -B "$work/build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$prefix" \
      -DWITH_LLVM_CONFIG=/usr/bin/llvm-config-${LLVM_VERSION} -DENABLE_ICD=ON -DENABLE_TESTS=OFF \
      -DENABLE_EXAMPLES=OFF -DENABLE_POCLCC=OFF -DENABLE_SPIRV=OFF -DENABLE_HWLOC=ON $POCL_CMAKE_OPTIONS \
      >"$work/cmake.log" 2>&1 \
      || { tail -n 30 "$work/cmake.log"; exit 1; }
    make -C "$work/build" -j"$(nproc)" >"$work/make.log" 2>&1 || { tail -n 30 "$work/make.log"; exit 1; }
    make -C "$work/build" install >"$work/install.log" 2>&1 || { tail -n 30 "$work/install.log"; exit 1; }
    probe_vendors "$one" >/dev/null || { log "the fresh PoCL build fails the USM probe"; OCL_ICD_VENDORS="$one" "$probe" || true; exit 1; }
    rm -rf "$work"
  fi
  rm -rf "$one"
  add_icd "$icdfile"
fi

# 3. A second vendor where PyPI is reachable: Intel's CPU OpenCL runtime, downloaded
#    while step 2 builds (see fetch_intel above).
if [ "${USMARR_SKIP_INTEL:-0}" != 1 ]; then
  if [ -n "$intel_fetch" ]; then wait "$intel_fetch" || true; fi
  if [ -e "$intel/lib/libintelocl.so" ]; then
    echo "$intel/lib/libintelocl.so" > "$USMARR_DEPS/intel-cpu.icd"
    one=$(mktemp -d); cp "$USMARR_DEPS/intel-cpu.icd" "$one/"
    if probe_vendors "$one" >"$USMARR_DEPS/intel-probe.log" 2>&1; then
      add_icd "$USMARR_DEPS/intel-cpu.icd"
    else
      log "intel-opencl-rt unpacked but its probe failed: $(tail -n1 "$USMARR_DEPS/intel-probe.log"); not used"
    fi
    rm -rf "$one"
  fi
fi

rm -rf "$vendors"; mv "$vendors.new" "$vendors"
echo "$vendors" > "$USMARR_DEPS/vendors-dir"
# The drivers alone say fresh when they built something, the packages' word standing otherwise.
if [ "$phase" = all ] || [ "$fresh" = 1 ]; then echo "$fresh" > "$USMARR_DEPS/last-run-fresh"; fi
log "USM devices in $vendors:"
probe_vendors "$vendors" | sed 's/^/  /'
log "done in $(( $(date +%s) - t0 )) s"
