#!/usr/bin/env bash
# names.sh - what events are called (README "Labelling events"): L alone, Proc.L when L
# is a label of several proctypes, init.L for init's (SPIN's ":init:" is no name a
# formula can hold: the seventh probe's P7-1 printed such causes as "(formula
# unavailable: out of memory)", and the fault tree and HTML writers failed), also
# through an inline that init and a proctype both call.  Every output is written and
# names them alike, in the default, POR=0 and BFS builds; the witness trail replays to
# the assertion; `pancause nearest --with-causes` puts init's events on a's steps.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
fails=0
ok() { echo "ok   $*"; }
bad() { echo "FAIL $*"; fails=$((fails + 1)); }
WANT='init.L .& init.LI .& P.L .& P.LI .& M'

for build in default POR=0 BFS=1; do
    d="$W/$build" && mkdir -p "$d/tr" && cp "$ROOT/spin-model/tests/fixtures/names_init.pml" "$d/"
    args=""
    [ $build != default ] && args=$build
    (cd "$d" && spin -a names_init.pml >/dev/null &&
        CAUSAL_ONLY=1 make -s -f "$ROOT/Makefile" pan $args >/dev/null 2>&1) ||
        { bad "$build: make pan"; continue; }
    (cd "$d" && ./pan -C --json o.json --trails tr --html r.html --fault-tree ft.xml \
        --fault-tree ft.dot >out.txt 2>&1)
    rc=$?
    if [ $rc = 0 ] && grep -qxF "  1. $WANT" "$d/out.txt" && ! grep -q unavailable "$d/out.txt" &&
        grep -q "causal order: init.L < init.LI, init.LI < P.L, P.L < P.LI, P.LI < M" "$d/out.txt"; then
        ok "$build: the cause is $WANT"
    else
        bad "$build: exit $rc, cause:"; grep -A2 "^  1\." "$d/out.txt" | sed 's/^/    /'
    fi
    python3 - "$d/o.json" "$WANT" <<'PY' && ok "$build: JSON names init's events" || bad "$build: JSON"
import json, sys
r = json.load(open(sys.argv[1]))
c = r["causes"]
ok = (r["complete"] and len(c) == 1 and c[0]["eol"] == sys.argv[2]
      and sorted(c[0]["events"]) == sorted(["init.L", "init.LI", "P.L", "P.LI", "M"])
      and len(c[0]["occurrences"]) == 5 and len(c[0]["ordered"]) == 10)  # a total order of five
sys.exit(0 if ok else 1)
PY
    if grep -q 'name="init_LI"' "$d/ft.xml" && grep -q 'init.LI' "$d/ft.dot" &&
        grep -q 'init.L .&amp; init.LI' "$d/r.html"; then
        ok "$build: fault trees and HTML written"
    else
        bad "$build: fault trees or HTML"
    fi
    t=$(ls "$d"/tr/*.trail 2>/dev/null | head -1)
    if [ -n "$t" ] && (cd "$d" && spin -t -p -k "$t" names_init.pml 2>&1) | grep -q "assertion violated"; then
        ok "$build: the witness trail replays to the assertion"
    else
        bad "$build: trail"
    fi
done

# nearest: a's steps carry the cause's events of init (matched by process and location)
d="$W/near" && mkdir -p "$d" && cp "$ROOT/spin-model/tests/fixtures/names_init.pml" "$d/"
(cd "$d" && "$ROOT/build/bin/pancause" nearest names_init.pml --html n.html --with-causes \
    >out.txt 2>&1)
if grep -q '"label": "1:init.L"' "$d/n.html" && grep -q '"label": "1:init.LI"' "$d/n.html" &&
    ! grep -q 'not a cause of this counterexample' "$d/n.html"; then
    ok "nearest --with-causes: init.L and init.LI on a's steps"
else
    bad "nearest --with-causes: init's events not on a's steps"
fi

echo "$fails failed"
[ $fails = 0 ]
