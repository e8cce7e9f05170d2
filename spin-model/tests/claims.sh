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

# --nearest reads the recorded graph, whose good runs include the waiting branch:
# it still says it cannot vouch for the answer (nearest/tests/e2e.sh checks the text).
spin -a nondet_claim.pml >/dev/null && make -s -f "$ROOT/Makefile" pan POR=0 >/dev/null 2>&1
./pan -C --json out.json >/dev/null 2>&1
rm -f nondet_claim.pml.trail
gcc -O2 -DNOREDUCE -o stock pan.c 2>/dev/null && ./stock >/dev/null 2>&1
[ -s nondet_claim.pml.trail ] && ./pan -C --nearest nondet_claim.pml.trail >near.txt 2>&1
grep -q "can be in two states at once" near.txt && grep -q "b itself may violate" near.txt
check "nondet_claim --nearest: not exact, with the claim's reason" test $? = 0

finish claims
