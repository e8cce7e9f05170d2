#!/usr/bin/env bash
# fuzz/smoke.sh - runs each libFuzzer harness of fuzz/ for a while, two at a time,
# and fails on any crash, leak, timeout (10 s per input) or memory blow-up (2 GB).
#
#   fuzz/smoke.sh [SECONDS] [TARGET...]
#
# SECONDS per target, wall time (default $FUZZ_TIME, else 30); TARGETs are the harness names
# without fz_ (default: every fuzz/fz_*.c).  Installs clang when missing, builds the
# harnesses (make fuzz), starts each from its seeds in fuzz/corpus/<target>/ (never
# written: what it finds goes to a scratch corpus) with fuzz/dict/<target>.dict when
# there is one, and prints one line per target from libFuzzer's final statistics:
# executions, coverage (cov: edges, ft: features) and corpus size.  A failing input
# is kept in build-fuzz/artifacts/ and the line says how to replay it.  run-tests.sh
# runs this as a suite; README "Fuzzing" says how to run long campaigns.
set -u
cd "$(dirname "$0")/.." || exit 1
ROOT=$(pwd)
secs=${1:-${FUZZ_TIME:-30}}
[ $# -gt 0 ] && shift
if [ $# -gt 0 ]; then
    targets=("$@")
else
    targets=()
    for f in fuzz/fz_*.c; do
        t=${f#fuzz/fz_}
        targets+=("${t%.c}")
    done
fi

if ! command -v clang >/dev/null 2>&1; then
    echo "== installing clang"
    export DEBIAN_FRONTEND=noninteractive
    { apt-get update -qq && apt-get install -y -qq clang; } >/dev/null 2>&1 ||
        { echo "fuzz/smoke.sh: clang is missing and cannot be installed"; exit 1; }
fi
make -s -j2 fuzz || { echo "fuzz/smoke.sh: make fuzz failed"; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$ROOT/build-fuzz/artifacts"
# One harness's run; its status line (and, on failure, the first error and where the
# input is kept) goes to $work/$t.out, printed in target order once all have run.
fuzz_one() {
    local t=$1 bin="$ROOT/build-fuzz/fz_$1" rc done_line runs a
    [ -x "$bin" ] || { echo "fz_$t: no such harness"; return 1; }
    mkdir -p "$work/$t"
    local dict=()
    [ -f "fuzz/dict/$t.dict" ] && dict=(-dict="fuzz/dict/$t.dict")
    "$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
        "${dict[@]}" -artifact_prefix="$work/$t-" "$work/$t" "fuzz/corpus/$t" >"$work/$t.log" 2>&1
    rc=$?
    done_line=$(grep -E '^#[0-9]+[[:space:]]+DONE' "$work/$t.log" | tail -1)
    runs=$(sed -n 's/^stat::number_of_executed_units: //p' "$work/$t.log" | tail -1)
    if [ $rc -eq 0 ]; then
        echo "fz_$t: ok, ${runs:-?} runs in ${secs} s; ${done_line#*DONE   }"
        return 0
    fi
    echo "fz_$t: FAILED (exit $rc)"
    grep -E -m1 -A12 'ERROR: |runtime error|fuzz check failed|Timeout|out-of-memory' "$work/$t.log"
    for a in "$work/$t"-*; do
        [ -e "$a" ] || continue
        cp "$a" "$ROOT/build-fuzz/artifacts/"
        echo "  input kept: build-fuzz/artifacts/${a##*/}  (replay: build-fuzz/fz_$t build-fuzz/artifacts/${a##*/})"
    done
    return 1
}

# FUZZ_JOBS harnesses at a time (default 2, the machine's cores): each still gets its
# SECONDS of wall time, so the suite's wall time halves (with other work on the cores
# each harness gets less CPU in them).
at_once=${FUZZ_JOBS:-2}
for t in "${targets[@]}"; do
    while [ "$(jobs -rp | wc -l)" -ge "$at_once" ]; do wait -n; done
    (fuzz_one "$t" >"$work/$t.out" 2>&1; echo $? >"$work/$t.rc") &
done
wait
failed=0
for t in "${targets[@]}"; do
    cat "$work/$t.out"
    [ "$(cat "$work/$t.rc" 2>/dev/null)" = 0 ] || failed=1
done
[ $failed -eq 0 ]
