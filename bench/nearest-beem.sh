#!/usr/bin/env bash
# bench/nearest-beem.sh [MODEL...] - `pancause nearest` on the BEEM models as a new user
# runs it, by default and with --run-to-end, side by side in one run.
#
# For each model (default: every *.pml in $BEEM_DIR, /work/shared/bench/beem; a MODEL
# is a name such as bakery.1 or a path), in a scratch directory of its own:
#   SETTLED  pancause nearest MODEL.pml --json ... -- -m1000000 -w26 (stock pan's first
#            counterexample; b may stop once settled, the default)
#   TO-END   the same with --run-to-end (b ends in a valid end state, or is a lasso)
# each with NEAREST_TIMEOUT seconds (default 600).  One row per model and variant: the
# exit status, wall seconds (pancause nearest as a whole: spin -a, both builds, stock
# pan, pan -C --nearest), |a|, |b|, whether b is a lasso, d, the number of Δs and of
# slice lines, or the refusal's reason.  Not a test: a measurement to read (README
# "--run-to-end: runs as SPIN sees them").
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BEEM_DIR=${BEEM_DIR:-/work/shared/bench/beem}
TIMEOUT=${NEAREST_TIMEOUT:-600}
command -v spin >/dev/null || { echo "needs spin on PATH" >&2; exit 1; }
make -s -C "$ROOT" -j2 lib programs >/dev/null || exit 1
models=("$@")
[ ${#models[@]} -gt 0 ] || models=("$BEEM_DIR"/*.pml)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf "%-18s %-8s %3s %7s %6s %6s %-5s %6s %6s %5s  %s\n" model variant rc seconds a b lasso d deltas lines note
for m in "${models[@]}"; do
    [ -f "$m" ] || m="$BEEM_DIR/$m.pml"
    name=$(basename "$m" .pml)
    for v in SETTLED TO-END; do
        d="$work/$name.$v"
        mkdir -p "$d"
        cp "$m" "$d/"
        opt=()
        [ "$v" = TO-END ] && opt=(--run-to-end)
        s=$(date +%s.%N)
        (cd "$d" && timeout "$TIMEOUT" "$ROOT/bin/pancause" nearest "$name.pml" "${opt[@]}" \
            --json out.json -- -m1000000 -w26 >out.txt 2>&1)
        rc=$?
        e=$(date +%s.%N)
        python3 - "$d" "$name" "$v" "$rc" "$(echo "$e - $s" | bc)" <<'PY'
import json, os, sys
d, name, v, rc, secs = sys.argv[1:]
row = "%-18s %-8s %3s %7.1f" % (name, v, rc, float(secs))
try:
    j = json.load(open(os.path.join(d, "out.json")))
    print("%s %6d %6d %-5s %6d %6d %5d  %s" % (
        row, len(j["a"]["steps"]), len(j["b"]["steps"]), "yes" if j["b"]["lasso"] else "no",
        j["distance"], len(j["deltas"]), len(j["slice_lines"]),
        "" if j["exact"] else "not exact"))
except (OSError, ValueError, KeyError):
    why = [ln for ln in open(os.path.join(d, "out.txt"), errors="replace")
           if "nearest:" in ln and "counterexample is used" not in ln]
    print("%s %6s %6s %-5s %6s %6s %5s  %s" % (row, "-", "-", "-", "-", "-", "-",
                                                (why[-1].strip() if why else "?")[:90]))
PY
    done
done
