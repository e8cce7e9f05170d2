#!/usr/bin/env bash
# The analysis' second thread changes nothing (README "Beyond one core"): by default
# `./pan -C` builds each minimal bad multiset's orders automaton on a second thread,
# from the history search on and ahead of the AC2(2) passes (causality/cc_cause.c); `--one-thread`
# builds them in turn on pan's thread.  On models with several multisets (airbag: 5,
# krebs.2: 13, BEEM bakery.3: 42), DFS and BFS, with and without AC2(2), and cut by
# --budget, both give the same JSON, every field but times and memory.  Run under
# TSan by hand (README "Tests"); here the results are compared.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
. "$ROOT/spin-model/tests/check.sh"
# same A.json B.json: equal but for the fields that measure time or memory
same() {
    python3 - "$1" "$2" <<'EOF'
import json, sys
VOLATILE = ("seconds", "mb", "bytes", "memory")
def strip(x):
    if isinstance(x, dict):
        return {k: strip(v) for k, v in x.items() if not any(t in k.lower() for t in VOLATILE)}
    if isinstance(x, list):
        return [strip(v) for v in x]
    return x
a, b = (strip(json.load(open(f))) for f in sys.argv[1:3])
sys.exit(0 if a == b and a["causes"] is not None else 1)
EOF
}
causes() { python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["causes"]))' "$1"; }

for m in "$ROOT/cases/airbag/airbag.pml" "$ROOT/spin-model/tests/fixtures/krebs.2.pml" \
    "$ROOT/spin-model/tests/fixtures/bakery.3.pml"; do
    n=$(basename "$m" .pml)
    for search in dfs bfs; do
        flag=
        [ $search = bfs ] && flag="BFS=1"
        d="$W/$n-$search"
        mkdir -p "$d" && cd "$d" && cp "$m" . && spin -a "$n.pml" >/dev/null 2>&1 || exit 1
        make -s -f "$ROOT/Makefile" pan CAUSAL_ONLY=1 $flag >/dev/null 2>&1 # only -C runs here
        check "$n $search: built" test $? = 0 || continue
        for opt in "" "--no-ac2"; do
            ./pan -C -m1000000 $opt --json two.json >/dev/null 2>&1 &&
                ./pan -C -m1000000 $opt --one-thread --json one.json >/dev/null 2>&1
            check "$n $search ${opt:-AC2(2)}: ran" test $? = 0 || continue
            check "$n $search ${opt:-AC2(2)}: --one-thread gives the same result ($(causes two.json) causes)" same two.json one.json
        done
    done
done
# a budget that cuts bakery.3's analysis short: the same partial result
cd "$W/bakery.3-dfs" && ./pan -C -m1000000 --budget 30000 --json two.json >out.txt 2>&1 &&
    ./pan -C -m1000000 --budget 30000 --one-thread --json one.json >/dev/null 2>&1
check "bakery.3 --budget 30000: ran" test $? = 0
check "bakery.3 --budget 30000: INCOMPLETE" grep -q INCOMPLETE out.txt
check "bakery.3 --budget 30000: --one-thread gives the same partial result" same two.json one.json
# the option is known to --help and refused nowhere else
check "--help names --one-thread" sh -c "./pan -C --help | grep -q -- --one-thread"
finish threads
