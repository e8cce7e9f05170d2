#!/usr/bin/env bash
# Limits end a causality check with the causes found so far, marked incomplete,
# never with a crash: pan's depth limit (-m), pan running out of memory while it
# searches (ulimit -v sweep on the airbag model), and the analysis running out of
# memory (bakery.1's histories explode; a copy of the BEEM model is kept here).
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
    [ $rc = 0 ] && grep -q "causes\? of the hazard\|hazard is not reachable" out.txt
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

mkdir "$W/bakery" && cd "$W/bakery" || exit 1
cp "$ROOT/spin-model/tests/fixtures/bakery.1.pml" .
spin -a bakery.1.pml >/dev/null && make -s -f "$ROOT/Makefile" pan >/dev/null || exit 1
run 300000 -m100000 --budget 0
sane "bakery.1, analysis under ulimit -v 300 MB"
grep -q "INCOMPLETE: out of memory" out.txt
check "bakery.1: the analysis ran out of memory and says so" $?
run 4000000 -m100000 --budget 100000
sane "bakery.1 --budget 100000"
grep -q "INCOMPLETE: the analysis hit its budget (--budget) in phase" out.txt
check "bakery.1 --budget: says the budget ended it" $?

echo "limits: $fails failed"
[ $fails = 0 ]
