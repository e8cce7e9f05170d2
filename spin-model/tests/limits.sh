#!/usr/bin/env bash
# Limits end a causality check with the causes found so far, marked incomplete,
# never with a crash: pan's depth limit (-m), pan running out of memory while it
# searches (ulimit -v sweep on the airbag model), the analysis running out of memory
# or budget (krebs.2's histories grow fast; a copy of the BEEM model is kept here),
# several reasons at once, the pans whose searches -C cannot vouch for, and never
# claims whose shape a safety search cannot vouch for.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
fails=0
check() { # check NAME CONDITION-RESULT
    if [ "$2" = 0 ]; then echo "ok   $1"; else echo "FAIL $1"; fails=$((fails + 1)); fi
}
# run VMEM_KB ARGS...: ./pan -C under ulimit -v; sets rc, writes out.txt, out.json
run() {
    local vmem=$1
    shift
    rm -f out.json
    (ulimit -v "$vmem" && exec ./pan -C --json out.json "$@") >out.txt 2>err.txt
    rc=$?
}
# Exit 0, no crash, a report, JSON that agrees with the text on completeness.
sane() {
    local name=$1
    [ $rc = 0 ] && grep -q "causes\? of the hazard\|hazard is not reachable\|hazard was not reached\|no cause was found before" out.txt
    check "$name: exit 0 and a report (rc $rc)" $?
    if grep -q INCOMPLETE out.txt; then
        python3 -c 'import json,sys; sys.exit(json.load(open("out.json"))["complete"] is not False)'
    else
        python3 -c 'import json,sys; sys.exit(json.load(open("out.json"))["complete"] is not True)'
    fi
    check "$name: JSON says the same about completeness" $?
}

mkdir "$W/airbag" && cd "$W/airbag" || exit 1
cp "$ROOT/cases/airbag/airbag.pml" .
spin -a airbag.pml >/dev/null && make -s -f "$ROOT/Makefile" pan >/dev/null || exit 1
expected=$(grep -c . "$ROOT/cases/airbag/expected")

run 4000000 -w20 -m30
sane "depth limit -m30"
grep -q "INCOMPLETE: the search depth limit" out.txt
check "depth limit -m30: says why it is incomplete" $?

for mb in 20 28 36 44 52; do
    run $((mb * 1024)) -w20 -m100000
    sane "pan under ulimit -v ${mb} MB"
    n=$(grep -cE '^  [0-9]+\. ' out.txt)
    grep -q "INCOMPLETE" out.txt || [ "$n" -ge 5 ]
    check "pan under ulimit -v ${mb} MB: incomplete, or all causes ($n)" $?
done

run 4000000 -w20 -m30 --budget 1000
sane "depth limit and budget together"
python3 -c 'import json,sys; r=json.load(open("out.json"))["incomplete_reasons"]; sys.exit(not (len(r) >= 2 and any("depth" in x for x in r) and any("budget" in x for x in r)))'
check "depth limit and budget: both reasons named (so the advice to raise -m is not all)" $?

# krebs.2 (BEEM, a copy kept in fixtures/): a history search that grows fast
mkdir "$W/krebs" && cd "$W/krebs" || exit 1
cp "$ROOT/spin-model/tests/fixtures/krebs.2.pml" .
spin -a krebs.2.pml >/dev/null && make -s -f "$ROOT/Makefile" pan >/dev/null || exit 1
run 350000 -m1000000 -w22 --budget 0
sane "krebs.2, analysis under ulimit -v 350 MB"
grep -q "INCOMPLETE: out of memory" out.txt
check "krebs.2: ran out of memory and says so" $?
run 4000000 -m1000000 -w22 --budget 100000
sane "krebs.2 --budget 100000"
grep -q "INCOMPLETE: the analysis hit its budget (--budget) in phase 'history search'" out.txt
check "krebs.2 --budget: says the budget ended it, and in which phase" $?
python3 -c 'import json,sys; sys.exit(json.load(open("out.json"))["hazard"] is not True)'
check "krebs.2 --budget: the hazard is reachable, even though no cause was found yet" $?
! grep -q "not reachable" out.txt
check "krebs.2 --budget: the text does not call the hazard unreachable" $?

# pan's own limits on -C: parallel searches and bounded context switching refused, BFS
# with rendezvous incomplete
mkdir "$W/needham" && cd "$W/needham" || exit 1
cp "$ROOT/spin-model/tests/fixtures/needham.1.pml" .
spin -a needham.1.pml >/dev/null || exit 1
for f in -DNCORE=2 -DBFS_PAR -DBCS -DNP -DTRIX -DP_RAND; do
    make -s -f "$ROOT/Makefile" pan PANFLAGS="$f" >/dev/null 2>&1 || { check "make pan $f" 1; continue; }
    ./pan -C >out.txt 2>&1
    rc=$?
    [ $rc = 2 ] && grep -q "pan: -C: this pan was built with" out.txt && ! grep -q "causality checking (" out.txt
    check "pan $f: -C refused before any search (exit $rc)" $?
    ./pan -m10000 >/dev/null 2>&1
    check "pan $f: stock pan still runs" $?
done
# a trace assertion: pan checks it apart from the moves pancause records (it said
# complete, 0 causes, before 2026-11-27): refused; stock pan still finds the violation
mkdir "$W/trace" && cd "$W/trace" || exit 1
cp "$ROOT/spin-model/tests/fixtures/trace_assert.pml" . && spin -a trace_assert.pml >/dev/null || exit 1
make -s -f "$ROOT/Makefile" pan >/dev/null 2>&1 || exit 1
./pan -C >out.txt 2>&1
rc=$?
[ $rc = 2 ] && grep -q "trace or notrace assertion" out.txt && ! grep -q "causality checking (" out.txt
check "trace assertion: -C refused before any search (exit $rc)" $?
./pan 2>&1 | grep -q "event_trace error"
check "trace assertion: stock pan finds the violation" $?
cd "$W/needham" || exit 1
make -s -f "$ROOT/Makefile" pan BFS=1 >/dev/null 2>&1 || exit 1
run 4000000
sane "needham.1 BFS (rendezvous)"
grep -q "INCOMPLETE: .*rendezvous" out.txt
check "needham.1 BFS: a breadth-first run with rendezvous is not called complete" $?

# fixture NAME: a scratch directory with spin-model/tests/fixtures/NAME.pml, after
# spin -a; build [BFS=1]: pan -C from it
fixture() {
    mkdir "$W/$1" && cd "$W/$1" || exit 1
    cp "$ROOT/spin-model/tests/fixtures/$1.pml" . && spin -a "$1.pml" >/dev/null || exit 1
}
build() { make -s -f "$ROOT/Makefile" pan "$@" >/dev/null 2>&1 || exit 1; }

# -m: a state at depth maxdepth-1 with no move is not checked for an end state by pan's
# DFS, so a deadlock there is a depth cut (fifth probe P5-7); one level more finds it
fixture depth_last
build
run 4000000 -m3
sane "depth_last -m3"
grep -q "INCOMPLETE: the search depth limit (-m) was reached" out.txt
check "depth_last -m3: a deadlock at depth maxdepth-1 is a depth cut, not 'not reachable'" $?
run 4000000 -m4
! grep -q INCOMPLETE out.txt && grep -q "1\. Aa .& Ab" out.txt
check "depth_last -m4: complete, the cause Aa .& Ab" $?
# a d_step that blocks midway: a model error pan stops at, named as such (P5-4)
fixture dstep_block
build
run 4000000
sane dstep_block
grep -q "INCOMPLETE: a d_step of the model blocked after its first statement" out.txt &&
    ! grep -q "a limit of pan's" out.txt
check "dstep_block: the reason names the model's d_step, not a limit of pan's" $?
# -q in BFS: a state where every process ended is checked for empty channels as in DFS
# (SPIN's bfs() skips it; fifth probe P5-2)
fixture strict_end
for b in "" BFS=1 POR=0; do
    build $b
    run 4000000 -q
    ! grep -q INCOMPLETE out.txt && grep -q "1\. As & Bs" out.txt
    check "strict_end ${b:-DFS} -q: complete, the cause As & Bs" $?
done
# BFS: a state pan stored inside an atomic sequence and matches outside it is not
# expanded again: incomplete, with that reason; the DFS build is complete
fixture bfs_atomic_mode
build BFS=1
run 4000000
sane "bfs_atomic_mode BFS"
grep -q "INCOMPLETE: .*matched a state it had stored in another search mode" out.txt
check "bfs_atomic_mode BFS: a state matched in another mode makes it incomplete, and says so" $?
build BFS=1 PANFLAGS=-DMA=64
run 4000000
grep -q "INCOMPLETE: .*matched a state it had stored in another search mode" out.txt
check "bfs_atomic_mode BFS -DMA: the same (g_store() tells the glue it matched; it said complete before)" $?
build
run 4000000
sane "bfs_atomic_mode DFS"
! grep -q "INCOMPLETE" out.txt
check "bfs_atomic_mode DFS: complete" $?

# BFS with a never claim: an atomic sequence that blocks leaves a state the claim
# never checks (stock pan's BFS reports no error where its DFS finds one): incomplete,
# with that reason, and no "not reachable"; the DFS build finds the hazard, complete
fixture bfs_claim_atomic
build BFS=1
run 4000000
sane "bfs_claim_atomic BFS"
grep -q "INCOMPLETE: .*does not let the never claim check a state where an atomic" out.txt &&
    grep -q "hazard was not reached, but the search is incomplete" out.txt &&
    ! grep -q "hazard is not reachable\|violation is reachable" out.txt
check "bfs_claim_atomic BFS: a blocked atomic state the claim did not check makes it incomplete" $?
build
run 4000000
sane "bfs_claim_atomic DFS"
! grep -q "INCOMPLETE" out.txt && grep -q "1 cause of the hazard" out.txt
check "bfs_claim_atomic DFS: complete, the hazard found" $?
run 4000000 -A
grep -q "note: -A turns off assertions, and the never claim h checks its property with one" err.txt
check "bfs_claim_atomic DFS -A: a note that -A turns the claim's assert off too" $?

# the never claim's shape (README "Known limits"): an accepting state on a cycle (a
# liveness formula: acceptance cycles are no violations a safety search sees):
# incomplete, with the reason, in text and JSON; so is a claim that can block (the model
# is not explored beyond it: claim_block, precedence); SPIN's `[] !x` claims are
# complete (bfs_claim_atomic above).
# A claim that can be in two states at once is exact since its branches are
# combined: spin-model/tests/claims.sh
# searched NAME: the fixture built as is, run by pan -C, the report sane
searched() {
    fixture "$1"
    build
    run 4000000
    sane "$1"
}
claim_reason() { # claim_reason WORDS: the JSON names a reason with those words
    python3 -c 'import json,sys; sys.exit(not any(sys.argv[1] in r for r in json.load(open("out.json"))["incomplete_reasons"]))' "$1"
}
searched live_claim
grep -q "INCOMPLETE: the never claim always_eventually has an accepting state on a cycle" out.txt &&
    claim_reason "has an accepting state on a cycle" && grep -q "1 cause of the hazard" out.txt
check "live_claim: a liveness claim makes it incomplete (text, JSON), the assertion's cause found" $?
grep -q "PANFLAGS=-DNOCLAIM" out.txt
check "live_claim: says how to leave the claim out" $?
build PANFLAGS=-DNOCLAIM
run 4000000
sane "live_claim without the claim"
! grep -q "INCOMPLETE" out.txt && grep -q "1 cause of the hazard" out.txt
check "live_claim -DNOCLAIM: complete, the same cause" $?
searched vectorsz
grep -q "INCOMPLETE: pan gave up its search with the error" out.txt &&
    python3 -c 'import json,sys; j=json.load(open("out.json")); sys.exit(j["hazard"] or len(j["causes"]) > 0)'
check "vectorsz: pan's fatal error is a reason, no hazard and no cause of it" $?
! grep -q "note: label" err.txt
check "vectorsz: no note blaming a label (the search never reached them)" $?
build PANFLAGS=-DMA=8
run 4000000
grep -q 'INCOMPLETE: pan gave up its search with the error.*"MA too small" for PANFLAGS=-DMA=N' out.txt &&
    ! grep -q "note: label" err.txt
check "vectorsz -DMA=8: pan's abort is the reason, MA named, no label notes (fourth probe P4-2)" $?

# -DMA (pan's minimised automaton store: no hash-table entries) gives the default build's
# causes and completeness, DFS and BFS.  Until 2026-11-28 new_state()'s g_store() did not
# report to the glue, so an atomic sequence that blocked at a rendezvous kept atomicity in
# the recorded graph: good runs lost, false causal orders, called complete (fourth probe
# P4-8; -C refused -DMA meanwhile).  ma_atomic_rv is the probe's 5-line model, gear.1
# (BEEM) had 9 causes, 2 under -DMA.  DFS: pan's search is the same, so is everything but
# the timings; BFS: pan's queue proviso reads the hash entry (Lstate) that g_store() does
# not set, so pan expands more and the good traces met on the way may differ in number.
# same_json A B [KEY...]: the JSON results equal but for stats' timings and sizes and KEYs
same_json() {
    python3 - "$@" <<'PY'
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
for d in (a, b):
    d["stats"] = {k: d["stats"][k] for k in ("states", "transitions")}
    for k in sys.argv[3:]:
        d.pop(k)
sys.exit(a != b)
PY
}
for m in ma_atomic_rv gear.1; do
    fixture $m
    build CAUSAL_ONLY=1
    run 4000000 -m1000000
    mv out.json ref.json
    build CAUSAL_ONLY=1 PANFLAGS=-DMA=256
    run 4000000 -m1000000
    sane "$m -DMA"
    same_json ref.json out.json
    check "$m -DMA: the default build's causes and completeness, field by field (P4-8)" $?
    build CAUSAL_ONLY=1 BFS=1
    run 4000000 -m1000000
    mv out.json ref.json
    build CAUSAL_ONLY=1 BFS=1 PANFLAGS=-DMA=256
    run 4000000 -m1000000
    sane "$m BFS -DMA"
    same_json ref.json out.json stats counts
    check "$m BFS -DMA: the default BFS build's causes and completeness" $?
done
searched live_eventually
grep -q "INCOMPLETE: the never claim h has an accepting state on a cycle" out.txt
check "live_eventually: <> p (an accepting start state) is a liveness claim" $?
searched hidden
grep -q "INCOMPLETE: the model keeps data out of pan's states" out.txt
check "hidden: a hidden variable is a reason (pan joins runs that differ in it)" $?
# C data outside pan's state (the fourth probe, P4-3): a c_decl no c_track registers, a
# c_state "Hidden": a reason; registered (c_track "Matched"): complete, the one cause
for f in c_untracked c_hidden c_struct_var; do
    searched $f
    grep -q "INCOMPLETE: the model's C code may keep data out of pan's states" out.txt
    check "$f: C data outside pan's state is a reason" $?
done
searched c_tracked
! grep -q INCOMPLETE out.txt && grep -q "1 cause of the hazard" out.txt && grep -q "P\[0\].Inc & P\[1\].Inc" out.txt
check "c_tracked: C data registered with c_track: complete, P[0].Inc & P[1].Inc" $?
searched c_types
! grep -q INCOMPLETE out.txt && grep -q "1 cause of the hazard" out.txt && grep -q "P\[0\].Inc & P\[1\].Inc" out.txt
check "c_types: a c_decl of types only, the data in c_state Global: complete, P[0].Inc & P[1].Inc" $?
searched claim_block
grep -q "INCOMPLETE: the never claim .* can block on a run" out.txt
check "claim_block: a hand-written claim that blocks is a reason (the runs beyond are missing)" $?
searched split_claim
grep -q "INCOMPLETE: the never claim h checks its property in two steps" out.txt
check "split_claim: a claim whose check SPIN left unmerged (remote references) is a reason" $?
searched precedence
grep -q "INCOMPLETE: the never claim h can block on a run" out.txt
check "precedence: SPIN's claim for (!a U b) || [] !a blocks: a reason" $?
searched np_claim
grep -q "INCOMPLETE: the never claim p reads np_" out.txt && claim_reason "reads np_"
check "np_claim: a claim reading np_ (taken from pan's move, not its state) is a reason (P7-3)" $?
build BFS=1
run 4000000
grep -q "INCOMPLETE: the never claim p reads np_" out.txt && ! grep -q "not reachable" out.txt
check "np_claim BFS: the same reason, never \"not reachable\"" $?
# a global declared local that another proctype uses, on which SPIN merged a statement
# (the oracle's LOCALS2 finding): INCOMPLETE naming it; from spin -o3 -a (no merging)
# complete, with the model's own cause; a merge inside an atomic sequence is no reason
searched local_merge
grep -q "INCOMPLETE: the model declares the global a local" out.txt && claim_reason "declares the global a local"
check "local_merge: a merge on a misdeclared local global is a reason" $?
spin -o3 -a local_merge.pml >/dev/null && build && run 4000000
! grep -q INCOMPLETE out.txt && grep -q "1\. Qe .& Qf & Qe &\[ !Rp" out.txt
check "local_merge from spin -o3 -a: complete, Qe .& Qf & Qe &[ !Rp" $?
mkdir "$W/p6la" && cd "$W/p6la" && cp "$ROOT/spin-model/tests/fixtures/por/p6_local_atomic.pml" . &&
    spin -a p6_local_atomic.pml >/dev/null && build && run 4000000
! grep -q INCOMPLETE out.txt
check "p6_local_atomic: a local global merged inside an atomic sequence is no reason" $?

echo "limits: $fails failed"
[ $fails = 0 ]
