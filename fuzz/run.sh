#!/bin/sh
# Runs the libFuzzer targets built in fuzz/ (doc/fuzzing.md) for a bounded time each and
# fails on a crash, a sanitizer report, a leak, a timeout or a broken property.
#
# usage (from the build directory): fuzz/run.sh [SECONDS [TARGET...]]
#   SECONDS  per target (default: $USMARR_FUZZ_SECONDS, else 10)
#   TARGET   index, typestr, json or create (default: all four)
# `make check` runs it as a test; `make fuzz FUZZ_SECONDS=N` runs it for longer.  New
# inputs go to fuzz/work/TARGET, crashing ones to fuzz/artifacts, logs to fuzz/logs; the
# seeds in the source tree's fuzz/corpus/TARGET are only read.
set -u
seconds=${1:-${USMARR_FUZZ_SECONDS:-10}}
[ $# -gt 0 ] && shift
targets=${*:-index typestr json create}
srcdir=${srcdir:-$(dirname "$0")/..}

missing=
for t in $targets; do
    [ -x "fuzz/fuzz_$t" ] || missing="$missing $t"
done
if [ -n "$missing" ]; then
    if [ "${USMARR_REQUIRE_FUZZ:-0}" = 1 ]; then
        echo "fuzz: FAILED: target(s)$missing not built (--disable-fuzz, or configure found no clang with libFuzzer; Debian: clang-15)"
        exit 1
    fi
    echo "fuzz: skipped: target(s)$missing not built (--disable-fuzz, or configure found no clang with libFuzzer; Debian: clang-15)"
    exit 77
fi

# Symbolised stacks: the llvm-symbolizer next to the clang that built the targets.
if [ -z "${ASAN_SYMBOLIZER_PATH:-}" ]; then
    for cc in ${FUZZ_CC:-} clang-15 clang; do
        path=$(command -v "$cc" 2>/dev/null) || continue
        symbolizer=$(dirname "$(readlink -f "$path")")/llvm-symbolizer
        if [ -x "$symbolizer" ]; then
            ASAN_SYMBOLIZER_PATH=$symbolizer
            export ASAN_SYMBOLIZER_PATH
            break
        fi
    done
fi
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=1
UBSAN_OPTIONS=${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}print_stacktrace=1:halt_on_error=1
export ASAN_OPTIONS UBSAN_OPTIONS

mkdir -p fuzz/artifacts fuzz/logs
failed=0
for t in $targets; do
    mkdir -p "fuzz/work/$t"
    log=fuzz/logs/$t.log
    dict=
    [ -f "$srcdir/fuzz/dict/$t.dict" ] && dict=-dict=$srcdir/fuzz/dict/$t.dict
    "fuzz/fuzz_$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -use_value_profile=1 \
        -print_final_stats=1 -artifact_prefix="fuzz/artifacts/$t-" $dict \
        "fuzz/work/$t" "$srcdir/fuzz/corpus/$t" >"$log" 2>&1
    rc=$?
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
    seeds=$(ls "$srcdir/fuzz/corpus/$t" | wc -l)
    found=$(ls "fuzz/work/$t" | wc -l)
    if [ $rc -eq 0 ]; then
        echo "fuzz: $t: ${runs:-?} runs in $seconds s (${rate:-?}/s), corpus $seeds seeds + $found found: ok"
    else
        failed=1
        echo "fuzz: $t: FAILED (exit $rc) after ${runs:-?} runs; the end of $log:"
        tail -n 60 "$log" | sed 's/^/  /'
        artifact=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tail -n 1)
        if [ -n "$artifact" ]; then
            echo "fuzz: $t: the input is $artifact; reproduce with: fuzz/fuzz_$t $artifact"
            echo "fuzz: once fixed, add it to the seeds: cp $artifact $srcdir/fuzz/corpus/$t/"
        fi
    fi
done
exit $failed
