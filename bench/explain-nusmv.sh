#!/usr/bin/env bash
# bench/explain-nusmv.sh [RUNS] - `pancause explain --json` on long NuSMV traces.
#
# Makes NuSMV counterexamples of 12,500 to 100,000 steps over 10 variables (8
# Booleans, 2 integers) with a 20-operator formula, and prints for each length
# the median wall time of RUNS runs (default 5), the cost per step, peak memory
# and the number of dots.  Two shapes: a safety trace whose formula first
# fails at the last step (finite failure), and a lasso whose formula fails
# only on the infinite word (an F G formula: infinite failure).  Issue 13's
# target is 0.3 s for the 100,000-step safety trace.  Not a test: timings
# depend on the (shared) machine.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
runs="${1:-5}"
pc="$root/bin/pancause"
[ -x "$pc" ] || make -s -C "$root" -j2 all >/dev/null
[ -x /usr/bin/time ] || { echo "needs GNU time: apt-get install -y time" >&2; exit 1; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

gen() { # gen STEPS SHAPE FILE
    python3 - "$1" "$2" "$3" <<'PY'
import sys
n, shape, out = int(sys.argv[1]), sys.argv[2], sys.argv[3]
names = ["req", "ack", "busy", "err", "ok", "reset", "done", "grant"]
if shape == "safety":
    f = ("G ((req -> (ack | !busy | (!err U ok))) & (err -> (!ok U (reset | done)))"
         " & !(done & busy) & (cnt < %d) & (lvl <= 3))" % (n - 1))
else:
    f = "F G ((req -> X ack) & (cnt >= 0) & !(err & grant) & (lvl < 3 | ok) & !(done & busy))"
with open(out, "w") as o:
    o.write("-- specification %s  is false\n" % f)
    o.write("-- as demonstrated by the following execution sequence\n")
    o.write("Trace Description: LTL Counterexample\nTrace Type: Counterexample\n")
    prev = None
    loop = n - 8 if shape == "lasso" else -1
    for i in range(n):
        j = i if loop < 0 or i < loop else loop + (i - loop) % 7
        v = {"req": j % 5 == 0, "ack": j % 5 == 0 and shape == "safety", "busy": j % 7 == 0,
             "err": False, "ok": True, "reset": False, "done": False, "grant": j % 3 == 0,
             "cnt": i if shape == "safety" else j, "lvl": j % 3}
        if i == loop:
            o.write("  -- Loop starts here\n")
        o.write("  -> State: 1.%d <-\n" % (i + 1))
        for k, x in v.items():
            if prev is None or prev[k] != x:
                o.write("    %s = %s\n" % (k, ("TRUE" if x else "FALSE") if isinstance(x, bool) else x))
        prev = v
    if loop >= 0:  # NuSMV repeats the loop start state
        o.write("  -> State: 1.%d <-\n" % (n + 1))
        j = loop
        v2 = {"req": j % 5 == 0, "ack": False, "busy": j % 7 == 0, "err": False, "ok": True,
              "reset": False, "done": False, "grant": j % 3 == 0, "cnt": j, "lvl": j % 3}
        for k, x in v2.items():
            if prev[k] != x:
                o.write("    %s = %s\n" % (k, ("TRUE" if x else "FALSE") if isinstance(x, bool) else x))
PY
}

median() { sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
printf '%-7s %8s %10s %10s %8s %8s\n' shape steps "median s" "us/step" "peak MB" dots
for shape in safety lasso; do
    for n in 12500 25000 50000 100000; do
        f="$work/$shape$n.smv"
        gen "$n" "$shape" "$f"
        : >"$work/t"
        for _ in $(seq "$runs"); do
            /usr/bin/time -f "%e %M" -o "$work/one" "$pc" explain --nusmv "$f" --json >"$work/out" || true
            cat "$work/one" >>"$work/t"
        done
        s=$(awk '{print $1}' "$work/t" | median)
        mb=$(awk '{print $2 / 1024}' "$work/t" | median)
        dots=$(grep -o '"step"' "$work/out" | wc -l)
        printf '%-7s %8d %10.3f %10.2f %8.1f %8d\n' "$shape" "$n" "$s" \
            "$(awk -v s="$s" -v n="$n" 'BEGIN {print s * 1e6 / n}')" "$mb" "$dots"
    done
done
