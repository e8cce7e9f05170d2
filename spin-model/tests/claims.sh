#!/usr/bin/env bash
# Never claims that can be in two states at once on one run (SPIN's claims for
# [] (p -> [] !q) and the like): pan -C combines the claim's branches after the
# search (causality/cc_det.c, README "Never claims") and its result is complete and
# exact.  For each fixture and each build (DFS with the reduction, which the glue
# turns off for such claims; POR=0; BFS): complete in text and JSON, no AMBIGUOUS,
# exactly the expected causes (each worked out by hand in the fixture's comment),
# the note saying the branches were combined; and every cause's trail, written by
# --trails, replays in spin -t to the claim's violation.  nested_until's claim has an
# accepting state on a cycle that is entered only together with a failing check: no
# liveness reason either.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
. "$ROOT/spin-model/tests/check.sh"
# causes_are FORMULA...: the JSON's causes are exactly these EOL formulas
causes_are() {
    python3 - "$@" <<'PY'
import json, sys
j = json.load(open("out.json"))
got = sorted(c["eol"] for c in j["causes"])
sys.exit(got != sorted(sys.argv[1:]))
PY
}
# exact NAME BUILD-ARGS FORMULA...: build, run, check
exact() {
    local name=$1 build=$2
    shift 2
    rm -rf pan pan.c tr out.json
    mkdir tr
    spin -a "$name.pml" >/dev/null && make -s -f "$ROOT/Makefile" pan $build >/dev/null 2>&1
    ./pan -C --json out.json --trails tr >out.txt 2>err.txt
    rc=$?
    local what="$name (${build:-DFS, reduction on})"
    [ $rc = 0 ] && ! grep -q "INCOMPLETE\|AMBIGUOUS" out.txt &&
        python3 -c 'import json,sys; sys.exit(json.load(open("out.json"))["complete"] is not True)'
    check "$what: complete, no AMBIGUOUS (rc $rc)" test $? = 0
    causes_are "$@"
    check "$what: the causes are $*" test $? = 0
    grep -q "its branches were combined" err.txt
    check "$what: the note says the claim's branches were combined" test $? = 0
    local ok=0 n=0 ng=0
    for t in tr/*.trail; do
        cp "$t" "$name.pml.trail"
        spin -t -p "$name.pml" >replay.txt 2>&1
        grep -q "lost\|no matching stmnt" replay.txt && ok=1
        # the claim's violation: SPIN's claims fail an assert; a hand-written one
        # ends (its process stands at its end, "<valid end state>", after the replay)
        violated="assertion violated\|claim terminates\|proc  - (.*<valid end state>"
        case $t in
        *.good.trail) # a good run: the claim never reaches its end
            ng=$((ng + 1))
            ! grep -q "$violated" replay.txt || ok=1 ;;
        *)
            n=$((n + 1))
            grep -q "$violated" replay.txt || ok=1 ;;
        esac
    done
    [ $n = $# ] && [ $ok = 0 ]
    check "$what: the $n causes' trails replay in spin -t to the claim's violation, the $ng good ones without" test $? = 0
}

cd "$W" || exit 1
cp "$ROOT"/spin-model/tests/fixtures/{nondet_claim,nested_claim,nested_chain,nested_until,guess_end,det_claim}.pml .
cp "$ROOT"/spin-model/tests/fixtures/{nested_claim,nested_chain,nested_until,guess_end}_det.pml .
cp "$ROOT"/spin-model/tests/fixtures/lamport3_nested.pml .
for build in "" "POR=0" "BFS=1"; do
    exact nondet_claim "$build" "A .& C .& B"
    exact nested_claim "$build" "Pa & Qb"
    exact nested_chain "$build" "Ps .& Qs & Rs" "Qs &< !Qc >& Ps & Rs"
    exact nested_until "$build" "Ps .& Qs & !Rs ]& Qs" "Qs .& Ps & !Rs ]& Ps"
    exact guess_end "$build" "Ps .& Pc"
done

# A deterministic claim is read as recorded (no note), with the same cause as
# SPIN's nondeterministic claim for the same property (nondet_claim above).
spin -a det_claim.pml >/dev/null && make -s -f "$ROOT/Makefile" pan >/dev/null 2>&1
./pan -C --json out.json >out.txt 2>err.txt
! grep -q "INCOMPLETE\|AMBIGUOUS" out.txt && ! grep -q "branches were combined" err.txt &&
    causes_are "A .& C .& B"
check "det_claim: complete, read as recorded, the cause of nondet_claim" test $? = 0

# --nearest combines the claim's branches too (README "Never claims"): exact, at the
# distance a hand-written deterministic claim of the same property gives for the same
# counterexample (the *_det.pml fixtures; det_claim.pml is nondet_claim's property),
# and b replays in spin -t to its end.  The same a is given to both as stock pan's
# trail without the claim's moves (the nearest search finds those itself, as for
# pan's breadth-first trails); the guessing one is also given the whole trail, whose
# claim moves are the combined graph's one claim move (nr_trail.c's claim_edge).
# near_json FILE: exact, with nothing incomplete; prints the distance
near_json() {
    python3 - "$1" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
print(j["distance"] if j["exact"] and j["incomplete"] == [] else "not-exact")
PY
}
# replays NAME B-TRAIL: the good run replays in spin -t to its end without violation
replays() {
    cp "$2" "$1.pml.trail"
    spin -t "$1.pml" >replay.txt 2>&1
    grep -q "trail ends after" replay.txt &&
        ! grep -q "lost\|no matching stmnt\|assertion violated\|claim terminates" replay.txt
}
# near NAME DET BUILD: the checks above for fixture NAME against DET
near() {
    local name=$1 det=$2 build=$3 what="$1 --nearest ($3)"
    rm -f pan pan.c stock ./*.trail
    spin -a "$name.pml" >/dev/null && make -s -f "$ROOT/Makefile" pan $build >/dev/null 2>&1
    gcc -O2 -w -DNOREDUCE $(case $build in *BFS*) echo -DBFS ;; esac) -o stock pan.c &&
        ./stock >/dev/null 2>&1
    grep -v '^[0-9]*:0:' "$name.pml.trail" >a.trail # without the claim's moves
    ./pan -C --nearest "$name.pml.trail" --json full.json --good-trail b.trail >near.txt 2>&1
    local full free want
    full=$(near_json full.json 2>/dev/null)
    ./pan -C --nearest a.trail --json free.json >/dev/null 2>&1
    free=$(near_json free.json 2>/dev/null)
    rm -f pan pan.c
    spin -a "$det.pml" >/dev/null && make -s -f "$ROOT/Makefile" pan $build >/dev/null 2>&1
    ./pan -C --nearest a.trail --json det.json >/dev/null 2>&1
    want=$(python3 -c 'import json; print(json.load(open("det.json"))["distance"])' 2>/dev/null)
    [ -n "$want" ] && [ "$full" = "$want" ] && [ "$free" = "$want" ] &&
        ! grep -q "INCOMPLETE\|NOT EXACT" near.txt
    check "$what: exact, distance $full = $free (without the claim's moves) = $want ($det)" test $? = 0
    replays "$name" b.trail
    check "$what: b replays in spin -t to its end without violation" test $? = 0
}
for build in "POR=0" "POR=0 BFS=1"; do
    near nondet_claim det_claim "$build"
    near nested_claim nested_claim_det "$build"
    near nested_chain nested_chain_det "$build"
    near nested_until nested_until_det "$build"
    near guess_end guess_end_det "$build"
done

# BEEM's lamport.3 with a nested formula: read path by path, b was the counterexample
# itself (distance 0, its claim moves those of the branch that waited).  Now b is no
# violating run: fed back to pan -C --nearest as a trail it is not a counterexample,
# where a (the same way, without the claim's moves) is one.
rm -f pan pan.c stock ./*.trail
spin -a lamport3_nested.pml >/dev/null && make -s -f "$ROOT/Makefile" pan POR=0 >/dev/null 2>&1
gcc -O2 -w -DNOREDUCE -o stock pan.c && ./stock >/dev/null 2>&1
cp lamport3_nested.pml.trail full.trail
grep -v '^[0-9]*:0:' full.trail >a.trail
./pan -C --nearest full.trail --json near.json --good-trail b.trail >near.txt 2>&1
d=$(near_json near.json 2>/dev/null)
[ "$d" = 10 ]
check "lamport3_nested --nearest: exact, distance 10 (was 0, b = a)" test $? = 0
replays lamport3_nested b.trail
check "lamport3_nested --nearest: b replays in spin -t to its end without violation" test $? = 0
grep -v '^[0-9]*:0:' b.trail >b_free.trail
./pan -C --nearest b_free.trail >b_back.txt 2>&1
b_rc=$?
./pan -C --nearest a.trail >a_back.txt 2>&1
[ $b_rc != 0 ] && grep -q "not a counterexample" b_back.txt &&
    grep -q "distance d(a, b) = 10 (exact" a_back.txt
check "lamport3_nested --nearest: b is no violating run (refused as a counterexample; a is one)" test $? = 0

# a lasso whose loop closes where the claim's set grew on arrival: d = 17, exact (the
# nested family of the nearest oracle found 21, "exact")
cp "$ROOT/spin-model/tests/fixtures/lasso_nested.pml" . && rm -f pan pan.c ./*.trail
spin -a lasso_nested.pml >/dev/null && make -s -f "$ROOT/Makefile" pan POR=0 >/dev/null 2>&1
gcc -O2 -w -DNOREDUCE -o stock pan.c && ./stock -m10000 >/dev/null 2>&1
./pan -m10000 -C --nearest lasso_nested.pml.trail --json near.json --good-trail b.trail >near.txt 2>&1
d=$(near_json near.json 2>/dev/null)
[ "$d" = 17 ]
check "lasso_nested --nearest: exact, distance 17 (was 21)" test $? = 0

finish claims
