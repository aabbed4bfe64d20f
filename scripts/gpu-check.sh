#!/bin/bash
# The whole check on a machine with an NVIDIA GPU (doc/gpu.md, "Running the GPU check").
#
#   scripts/gpu-check.sh --pack DIR   on the build machine, after `make` and `make tests/runner
#                                     tests/cache_child` with the case files: copies what
#                                     the check needs into DIR (the real binaries of .libs/,
#                                     the case files gzipped, the Python package and tests,
#                                     this script, libOpenCL/libsubunit/libxxhash)
#   DIR/scripts/gpu-check.sh [LOGDIR] on the GPU machine: runs the check, writing at most
#                                     eight logs into LOGDIR (default $OUT, else ./gpu-logs)
#
# The check: NVIDIA's OpenCL made visible through a vendors folder of its own (no .icd file
# points at /usr/lib/libnvidia-opencl.so.1 there), `usmarr devices`, the benchmark against
# CuPy (bench/cupy.py, when CuPy imports), every C suite as its own job on the GPU
# (USMARR_TEST_DEVICE=opencl:gpu:0, CK_EXCLUDE_TAGS=host-usm: NVIDIA's OpenCL has no host
# or shared USM), the jobs side by side, each under `timeout -s KILL`, with an empty kernel
# cache (the library's and NVIDIA's) and its time and compile count, then pytest.
#
# Settings: USMARR_GPU_SELECTOR (opencl:gpu:0), USMARR_GPU_JOBS (parallel suite jobs, the
# number of processors), USMARR_GPU_SUITE_TIMEOUT (seconds per suite, 300),
# USMARR_GPU_PYTEST_TIMEOUT (seconds, 600), USMARR_GPU_BENCH_TIMEOUT (seconds, 900),
# USMARR_GPU_SUITES (a comma list; all),
# USMARR_GPU_SKIP (words: bench, suites, pytest), USMARR_GPU_PYTEST (after: once the suites
# are done; beside: as one more job beside them, when the lease is short),
# USMARR_GPU_NVIDIA_LIB (the driver library).
set -u

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)

# ---- --pack: the build tree's pieces, for the trip ----------------------------------------
if [ "${1:-}" = --pack ]; then
    dest=${2:?"--pack needs a folder"}
    build=${USMARR_BUILD_DIR:-$top}
    for f in lib/.libs/libusmarr.so.0 tests/.libs/runner tools/.libs/usmarr; do
        [ -e "$build/$f" ] || { echo "gpu-check: $build/$f is missing: run make and make tests/runner first"; exit 1; }
    done
    mkdir -p "$dest/lib/.libs" "$dest/tests/.libs" "$dest/tools/.libs" "$dest/scripts" "$dest/bench" \
        "$dest/gpu-libs" "$dest/python" || exit 1
    cp -L "$build/lib/.libs/libusmarr.so.0" "$dest/lib/.libs/" &&
        cp -L "$build/tests/.libs/runner" "$dest/tests/.libs/" &&
        cp -L "$build/tools/.libs/usmarr" "$dest/tools/.libs/" &&
        { [ ! -e "$build/tests/.libs/cache_child" ] || cp -L "$build/tests/.libs/cache_child" "$dest/tests/.libs/"; } &&
        cp "$here/gpu-check.sh" "$dest/scripts/" || exit 1
    [ -e "$top/bench/cupy.py" ] && cp "$top/bench/cupy.py" "$dest/bench/"
    rm -rf "$dest/cl" && cp -R "$top/cl" "$dest/cl" || exit 1 # the build suite compiles a kernel source
    for c in "$build"/tests/*_cases.txt; do
        [ -e "$c" ] && gzip -c "$c" > "$dest/tests/$(basename "$c").gz"
    done
    if [ -e "$build/python/usmarr/_usmarr.abi3.so" ]; then
        rm -rf "$dest/python/usmarr" "$dest/python/tests"
        cp -RL "$build/python/usmarr" "$top/python/tests" "$dest/python/" || exit 1
        find "$dest/python" -name __pycache__ -prune -exec rm -rf {} +
    fi
    # The shared libraries the binaries need beside the C library and libusmarr itself.
    for lib in libOpenCL.so.1 libsubunit.so.0 libxxhash.so.0; do
        path=$(ldd "$build/tests/.libs/runner" "$build/lib/.libs/libusmarr.so.0" 2>/dev/null |
            awk -v l="$lib" '$1 == l { print $3; exit }')
        [ -n "$path" ] && cp -L "$path" "$dest/gpu-libs/$lib"
    done
    echo "gpu-check: packed into $dest ($(du -sh "$dest" | cut -f1)); run $dest/scripts/gpu-check.sh there"
    exit 0
fi

# ---- the check ------------------------------------------------------------------------------
logs=${1:-${OUT:-$PWD/gpu-logs}}
mkdir -p "$logs" || exit 1
logs=$(cd "$logs" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/usmarr-gpu.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
selector=${USMARR_GPU_SELECTOR:-opencl:gpu:0}
jobs=${USMARR_GPU_JOBS:-$(nproc 2>/dev/null || echo 8)}
suite_timeout=${USMARR_GPU_SUITE_TIMEOUT:-300}
pytest_timeout=${USMARR_GPU_PYTEST_TIMEOUT:-600}
skip=" ${USMARR_GPU_SKIP:-} "
summary=$logs/summary.txt
: > "$summary"
say() { echo "$*" | tee -a "$summary"; }
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

# NVIDIA's OpenCL through a vendors folder of our own; Debian's loader and the libraries the
# binaries were linked with; the real binaries, not libtool's wrappers.
nvidia=${USMARR_GPU_NVIDIA_LIB:-}
if [ -z "$nvidia" ]; then
    for cand in /usr/lib/libnvidia-opencl.so.1 /usr/lib/x86_64-linux-gnu/libnvidia-opencl.so.1 \
        /usr/local/nvidia/lib64/libnvidia-opencl.so.1; do
        [ -e "$cand" ] && { nvidia=$cand; break; }
    done
fi
[ -n "$nvidia" ] || nvidia=$(ldconfig -p 2>/dev/null | awk '/libnvidia-opencl.so.1/ { print $NF; exit }')
mkdir -p "$work/vendors" "$work/cache" "$work/nvcache" "$work/run/tests"
if [ -n "$nvidia" ]; then
    echo "$nvidia" > "$work/vendors/nvidia.icd"
    OCL_ICD_VENDORS=$work/vendors
fi # else the caller's OCL_ICD_VENDORS (a trial of the script on another device)
LD_LIBRARY_PATH=$top/lib/.libs:$top/gpu-libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
USMARR_CACHE_DIR=$work/cache   # an empty kernel cache: the cold run
CUDA_CACHE_PATH=$work/nvcache  # and an empty one for NVIDIA's compiler
export LD_LIBRARY_PATH USMARR_CACHE_DIR CUDA_CACHE_PATH
[ -n "${OCL_ICD_VENDORS:-}" ] && export OCL_ICD_VENDORS

say "gpu-check: $(date -u '+%Y-%m-%d %H:%M UTC') on $(hostname)"
say "gpu-check: OpenCL driver ${nvidia:-not found}; $(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null || echo 'nvidia-smi: none')"
"$top/tools/.libs/usmarr" devices > "$logs/devices.log" 2>&1
say "gpu-check: usmarr devices (exit $?):"
sed 's/^/    /' "$logs/devices.log" | tee -a "$summary"

# The suites run in a folder of their own: the case files in tests/ there (where the suites
# look for them), unpacked, beside the cache suite's helper process.
for c in "$top"/tests/*_cases.txt.gz; do
    [ -e "$c" ] && gzip -dc "$c" > "$work/run/tests/$(basename "$c" .gz)"
done
for c in "$top"/tests/*_cases.txt "$top"/tests/.libs/cache_child; do
    [ -e "$c" ] && ln -sf "$c" "$work/run/tests/"
done
USMARR_TEST_BUILDDIR=$work/run/tests USMARR_TEST_SRCDIR=$top/tests
export USMARR_TEST_BUILDDIR USMARR_TEST_SRCDIR
cd "$work/run" || exit 1

python=${USMARR_GPU_PYTHON:-python3}
PYTHONPATH=$top/python${PYTHONPATH:+:$PYTHONPATH}
PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
export PYTHONPATH PYTHONDONTWRITEBYTECODE PYTHONUNBUFFERED

# ---- pytest ------------------------------------------------------------------------------------
run_pytest() {
    if [ -e "$top/python/usmarr/_usmarr.abi3.so" ] && "$python" -c 'import pytest' 2>/dev/null; then
        t0=$(now)
        USMARR_DEVICE=$selector timeout -s KILL "$pytest_timeout" "$python" -m pytest -q -p no:cacheprovider \
            --rootdir="$top/python" "$top/python/tests" > "$logs/pytest.log" 2>&1
        echo "gpu-check: pytest exit $? in $(since "$t0") s: $(tail -1 "$logs/pytest.log")" > "$work/pytest.summary"
    else
        echo "gpu-check: pytest not run (no python/usmarr/_usmarr.abi3.so or no pytest)" > "$work/pytest.summary"
    fi
}
# ---- the benchmark against CuPy (before the suites: a quiet GPU) ------------------------------
case $skip in
*" bench "*) say "gpu-check: benchmark skipped (USMARR_GPU_SKIP)" ;;
*)
    t0=$(now)
    USMARR_DEVICE=$selector timeout -s KILL "${USMARR_GPU_BENCH_TIMEOUT:-900}" "$python" "$top/bench/cupy.py" > "$logs/bench.log" 2>&1
    say "gpu-check: bench/cupy.py exit $? in $(since "$t0") s"
    grep '^bench:' "$logs/bench.log" | tee -a "$summary"
    ;;
esac

pytest_mode=${USMARR_GPU_PYTEST:-after}
case $skip in *" pytest "*) pytest_mode=skip ;; esac
if [ "$pytest_mode" = beside ]; then
    run_pytest &
    pytest_job=$!
fi

# ---- the C suites: one job each, side by side, cold cache ------------------------------------
run_suite() { # suite -> $work/suite-<name>.log, and one line of $work/times
    s=$1
    t0=$(now)
    USMARR_TEST_SUITES=$s USMARR_TEST_DEVICE=$selector CK_EXCLUDE_TAGS=host-usm USMARR_TEST_MODES=none \
        USMARR_CACHE_TRACE=1 timeout -s KILL "$suite_timeout" "$top/tests/.libs/runner" > "$work/suite-$s.log" 2>&1
    rc=$?
    t=$(since "$t0")
    compiled=$(grep -c '^usmarr-cache: compile' "$work/suite-$s.log")
    loaded=$(grep -c '^usmarr-cache: build-binary' "$work/suite-$s.log")
    result=$(grep -E '^[0-9]+%: Checks' "$work/suite-$s.log" | tail -1)
    [ $rc -eq 137 ] && result="KILLED after $suite_timeout s"
    printf '%-12s %7s s  exit %3d  compiled %4d  loaded %4d  %s\n' "$s" "$t" "$rc" "$compiled" "$loaded" \
        "${result:-no summary}" >> "$work/times"
}
case $skip in
*" suites "*) say "gpu-check: C suites skipped (USMARR_GPU_SKIP)" ;;
*)
    suites=${USMARR_GPU_SUITES:-$("$top/tests/.libs/runner" --list-suites 2>/dev/null)}
    [ -n "$suites" ] || { say "gpu-check: the runner lists no suites"; exit 1; }
    : > "$work/times"
    t0=$(now)
    pids=()
    for s in $(echo "$suites" | tr ',' ' '); do
        while :; do # at most $jobs suites at once
            live=0
            for p in "${pids[@]}"; do kill -0 "$p" 2>/dev/null && live=$((live + 1)); done
            [ $live -lt "$jobs" ] && break
            sleep 0.2
        done
        run_suite "$s" &
        pids+=($!)
    done
    for p in "${pids[@]}"; do wait "$p"; done
    say "gpu-check: C suites, $jobs jobs side by side, cold cache: $(since "$t0") s in all"
    sort -k2 -n -r "$work/times" | sed 's/^/    /' | tee -a "$summary"
    for s in $(echo "$suites" | tr ',' ' '); do
        echo "==== suite $s: $(grep "^$s " "$work/times")"
        grep -v '^usmarr-cache: ' "$work/suite-$s.log"
    done > "$logs/suites.log"
    grep -h '^usmarr-cache: compile' "$work"/suite-*.log | sort -t: -k3 -n -r | head -40 > "$logs/compiles.log"
    ;;
esac

case $pytest_mode in
skip) say "gpu-check: pytest skipped (USMARR_GPU_SKIP)" ;;
beside) wait "$pytest_job"; say "$(cat "$work/pytest.summary")" ;;
*) run_pytest; say "$(cat "$work/pytest.summary")" ;;
esac
say "gpu-check: logs in $logs"
