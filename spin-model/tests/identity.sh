#!/usr/bin/env bash
# The recorder names a state in three ways (README "Memory"): the id kept in pan's own
# hash table entry for the states pan stores, the system's turn after a claim move of
# such a state folded into it, and a 96-bit fingerprint for the rest (atomic steps,
# mid-rendezvous states, claim stutters).  A pan built with PANFLAGS=-DSM_NO_HEL
# fingerprints every state, as the recorder did before, and keeps the system's turn as
# a node of its own; --exact-states keys the unstored states by their full vectors
# (and folds); --trails keeps the system's turn too.  All must give the same causes
# and the same subset graph, DFS and BFS, on models with never claims, atomic sequences and rendezvous channels: the
# railway and airbag cases, a small claim + atomic + rendezvous fixture, a claim that
# blocks after some moves and ends after others (BFS's fold), and five BEEM
# models (copies of ../shared/bench/beem, which have deadlocks as their hazard).
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
FIX="$ROOT/spin-model/tests/fixtures"
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
fails=0

# compare A.json B.json NAME: causes, non-occurrences, orders, colours and completeness
compare() {
    python3 - "$1" "$2" <<'EOF'
import json, sys
def key(path):
    r = json.load(open(path))
    causes = sorted((c["eol"], json.dumps(c["absent_intervals"], sort_keys=True),
                     json.dumps(sorted(c["ordered"])), c["traces"], c["ambiguous"])
                    for c in r["causes"])
    counts = {k: v for k, v in r["counts"].items() if k != "history_nodes"}  # effort, not result
    return causes, counts, r["complete"], r["hazard"]
a, b = key(sys.argv[1]), key(sys.argv[2])
if a != b:
    print("    differ:\n    %s\n    %s" % (a, b))
    sys.exit(1)
EOF
}

# model NAME DIR FILE [SPINFLAGS]: builds both pans for DFS and BFS and compares
model() {
    local name=$1 dir=$2 file=$3 spinflags=${4:-}
    for search in dfs bfs; do
        local bfs=""
        [ $search = bfs ] && bfs="BFS=1"
        for kind in hel fp; do
            local d="$W/$name-$search-$kind" flags=""
            [ $kind = fp ] && flags="-DSM_NO_HEL"
            mkdir -p "$d" && cp "$dir/$file" "$d/" || return
            (cd "$d" && spin -a $spinflags "$file" >/dev/null &&
                CAUSAL_ONLY=1 make -s -f "$ROOT/Makefile" pan $bfs PANFLAGS="$flags" >/dev/null) ||
                { echo "FAIL $name $search: build ($kind)"; fails=$((fails + 1)); continue; }
            (cd "$d" && ./pan -C -w20 -m100000 --json out.json >out.txt 2>&1)
            if [ $kind = hel ]; then
                (cd "$d" && ./pan -C -w20 -m100000 --exact-states --json exact.json >/dev/null 2>&1)
                # --trails keeps the system's turn as a node (its edges name pan's moves)
                (cd "$d" && mkdir -p tr && ./pan -C -w20 -m100000 --trails tr --json trails.json >/dev/null 2>&1)
            fi
        done
        local h="$W/$name-$search-hel" f="$W/$name-$search-fp"
        if [ -s "$h/out.json" ] && [ -s "$f/out.json" ] && [ -s "$h/exact.json" ] &&
            [ -s "$h/trails.json" ] && compare "$h/out.json" "$f/out.json" &&
            compare "$h/out.json" "$h/exact.json" && compare "$h/out.json" "$h/trails.json"; then
            echo "ok   $name $search: $(grep -c '"eol"' "$h/out.json") causes alike in all four"
        else
            echo "FAIL $name $search"
            fails=$((fails + 1))
        fi
    done
}

# Two models at a time (the builds dominate); each writes its own log.
run_model() {
    fails=0
    model "$@" >"$W/$1.log" 2>&1
    echo $fails >"$W/$1.fails"
}
set -- "railway $ROOT/cases/railway railway.pml" "airbag $ROOT/cases/airbag airbag.pml -DNOISE=2" \
    "claim_atomic $FIX claim_atomic.pml" "claim_block $FIX claim_block.pml"
for m in firewire_link.1 needham.1 gear.1 adding.1 leader_filters.1; do
    set -- "$@" "$m $FIX $m.pml"
done
names=()
while [ $# -gt 0 ]; do
    read -ra a <<<"$1"
    names+=("${a[0]}")
    run_model "${a[@]}" &
    if [ $# -gt 1 ]; then
        read -ra b <<<"$2"
        names+=("${b[0]}")
        run_model "${b[@]}" &
        shift
    fi
    shift
    wait
done
total=0
for n in "${names[@]}"; do
    cat "$W/$n.log"
    total=$((total + $(cat "$W/$n.fails" 2>/dev/null || echo 1)))
done
# DFS and BFS print the same formulas, character for character: the clauses of a cause
# are ordered by event names, not by the ids in the order pan met the events (P4-10)
for search in dfs bfs; do
    d="$W/clause-$search"
    mkdir -p "$d" && cp "$FIX/clause_order.pml" "$d/" &&
        (cd "$d" && spin -a clause_order.pml >/dev/null &&
            CAUSAL_ONLY=1 make -s -f "$ROOT/Makefile" pan $([ $search = bfs ] && echo BFS=1) >/dev/null &&
            ./pan -C --json out.json >/dev/null 2>&1) || echo "FAIL clause_order $search: build or run"
done
if python3 -c '
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:])
ea, eb = [c["eol"] for c in a["causes"]], [c["eol"] for c in b["causes"]]
sys.exit(not (a["complete"] and b["complete"] and len(ea) == 32 and ea == eb))' \
    "$W/clause-dfs/out.json" "$W/clause-bfs/out.json"; then
    echo "ok   clause_order: DFS and BFS print the 32 formulas alike"
else
    echo "FAIL clause_order: DFS and BFS formulas differ"
    total=$((total + 1))
fi
echo "identity: $total failed"
[ $total -eq 0 ]
