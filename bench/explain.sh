#!/usr/bin/env bash
# Benchmark for `pancause explain`: time against trace length.
#
# For traces of 12,500 to 100,000 steps (the model in tests/fixtures/bench.pml,
# whose ltl formula has 20 operators and first fails at the last step), it
# makes the trail with SPIN's pan, then times the whole command -- spin's
# replay of the trail included -- and prints the median of RUNS runs, the
# median of the replay alone, and the cost per step.  Linear growth shows as
# a constant per-step cost.  Not a test: timings depend on the machine.
#
# usage: bench/explain.sh [RUNS]      (needs spin and a C compiler)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
runs="${1:-5}"
pancause="$root/bin/pancause"
[ -x "$pancause" ] || make -s -C "$root" "$root/bin/pancause" >/dev/null
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

now_ms() { date +%s%N | awk '{ printf "%.1f", $1 / 1e6 }'; }
median() { sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

printf '%10s %12s %14s %16s %10s\n' steps "explain ms" "spin replay ms" "explain us/step" dots
for steps in 12500 25000 50000 100000; do
    d="$work/$steps"
    mkdir -p "$d"
    cp "$root/explain/tests/fixtures/bench.pml" "$d/bench.pml"
    # five SPIN steps per loop iteration: the guard and four assignments
    (cd "$d" && spin -DN=$((steps / 5)) -a bench.pml >/dev/null &&
        cc -O1 -o pan pan.c && ./pan -m$((steps * 3)) >/dev/null 2>&1 || true)
    [ -s "$d/bench.pml.trail" ] || { echo "no trail for $steps steps" >&2; exit 1; }
    # the model's N must match the trail: bake it into the copy spin replays
    sed -i "s/^#define N 20000/#define N $((steps / 5))/" "$d/bench.pml"
    t_ex=() t_sp=()
    for _ in $(seq "$runs"); do
        a=$(now_ms)
        "$pancause" explain "$d/bench.pml" --json >"$d/out.json"
        b=$(now_ms)
        (cd "$d" && spin -t -p -g -l -w -b -k bench.pml.trail bench.pml >/dev/null)
        c=$(now_ms)
        t_ex+=("$(awk -v a="$a" -v b="$b" 'BEGIN { print b - a }')")
        t_sp+=("$(awk -v a="$b" -v b="$c" 'BEGIN { print b - a }')")
    done
    m_ex=$(printf '%s\n' "${t_ex[@]}" | median)
    m_sp=$(printf '%s\n' "${t_sp[@]}" | median)
    ndots=$(grep -o '"step"' "$d/out.json" | wc -l)
    printf '%10d %12.1f %14.1f %16.2f %10d\n' "$steps" "$m_ex" "$m_sp" \
        "$(awk -v m="$m_ex" -v s="$steps" 'BEGIN { print m * 1000 / s }')" "$ndots"
done
echo "formula: $(grep '^ltl' "$root/explain/tests/fixtures/bench.pml")"
