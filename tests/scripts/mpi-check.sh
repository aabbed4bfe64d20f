#!/bin/sh
# Runs the MPI test suites under mpirun: 4 ranks (the suites split them into
# communicators of 1, 2 and 4 ranks), the exchange suite again in the device-only and
# SVM modes, then 8 ranks for the stencil oracle.  With
# --bench PROGRAM ARGS it launches that benchmark instead, on one rank per core (2 to 4;
# USMARR_BENCH_RANKS overrides).
#
# Without MPI (configure found none) the tests are skipped, or fail when
# USMARR_REQUIRE_DEVICE=1 asks for a complete run, as missing devices do.
if [ "${USMARR_HAVE_MPI:-yes}" != yes ] || [ -z "$USMARR_MPIRUN" ]; then
  if [ "$USMARR_REQUIRE_DEVICE" = 1 ]; then
    echo "mpi-check: USMARR_REQUIRE_DEVICE=1 but libusmarr-mpi was not built: configure found no MPI" \
         "(Debian: apt-get install openmpi-bin libopenmpi-dev, then ./configure again)" >&2
    exit 1
  fi
  echo "mpi-check: no MPI; skipping the distributed tests"
  exit 77
fi

flags=""
if "$USMARR_MPIRUN" --version 2>&1 | grep -q "Open MPI\|OpenRTE"; then
  # More ranks than cores; no binding (the OpenCL runtime has its own threads); shared
  # memory only, without the single-copy mechanism containers forbid (ptrace); ob1
  # instead of probing for network libraries; ranks yield while they wait.
  flags="--oversubscribe --bind-to none --mca btl self,vader --mca pml ob1"
  flags="$flags --mca btl_vader_single_copy_mechanism none --mca mpi_yield_when_idle 1"
  [ "$(id -u)" = 0 ] && flags="$flags --allow-run-as-root"
fi

# A rank that fails an assertion before a collective would leave the others waiting:
# the time limit turns such a hang into a failure.
run() {
  np=$1
  shift
  echo "mpi-check: $USMARR_MPIRUN -np $np $*"
  timeout "${USMARR_MPI_TIMEOUT:-300}" "$USMARR_MPIRUN" $flags -np "$np" "$@"
}

if [ "$1" = --bench ]; then
  shift
  # One rank per core, 2 to 4: more ranks than cores measure the scheduler (ranks and
  # their OpenCL threads taking turns), not the exchange.
  cores=$(nproc 2>/dev/null || echo 4)
  ranks=$((cores < 2 ? 2 : cores > 4 ? 4 : cores))
  run "${USMARR_BENCH_RANKS:-$ranks}" "$@"
  exit $?
fi

# Containers often give /dev/shm 64 MB: the tests' shared-memory segments go to /tmp.
case "$flags" in *vader*) flags="$flags --mca btl_vader_backing_directory /tmp" ;; esac

builddir="${USMARR_TEST_BUILDDIR:-tests}"
run 4 "$builddir/mpi_runner" || exit 1
# The exchange without host USM (device staging bounced through host memory, the
# default storages on the device): tests/runner's device-only and SVM modes.
(export USMARR_USM_KINDS=device CK_RUN_SUITE=mpi_exchange; run 4 "$builddir/mpi_runner") || exit 1
(export USMARR_USM_BACKEND=svm CK_RUN_SUITE=mpi_exchange; run 4 "$builddir/mpi_runner") || exit 1
run 8 "$builddir/mpi_runner" --ranks 8 || exit 1
run 4 "$builddir/../examples/heat_mpi" || exit 1
exit 0
