#!/usr/bin/env bash
# Partial order reduction (on in `make pan`, off with POR=0; README "Partial order
# reduction"): with
# every event and assert made visible to pan's reduction, the causes (events, orders,
# non-occurrences, ambiguity, uncaused traces) are those of the unreduced search, DFS
# and BFS, on models where the reduction bites (BEEM protocols with a few labelled
# steps, fixtures/por/; airbag), with AC2(2) and without; and on models where SPIN's own
# reduction drops runs (fixtures/por/: pids reused after `run`, remote references;
# fixtures/xrxs/: a broken xr declaration).  A POR build still refuses --nearest,
# whose answer may be an interleaving the reduction dropped.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
. "$ROOT/spin-model/tests/check.sh"
same() { python3 "$ROOT/cases/oracle/compare.py" "$1" "$2" >"$W/diff.txt"; }
states() { python3 -c 'import json,sys; print(int(json.load(open(sys.argv[1]))["stats"]["states"]))' "$1"; }
# CAUSAL_ONLY=1: every run here is ./pan -C, so the stock copy need not be compiled.
mk() { make -s -f "$ROOT/Makefile" pan CAUSAL_ONLY=1 "$@" >/dev/null 2>&1; }

reduced=0
for m in "$ROOT"/spin-model/tests/fixtures/por/*.pml "$ROOT/cases/airbag/airbag.pml"; do
    n=$(basename "$m" .pml)
    for search in dfs bfs; do
        flag=
        [ $search = bfs ] && flag="BFS=1"
        d="$W/$n-$search"
        mkdir -p "$d" && cd "$d" && cp "$m" . && spin -a "$n.pml" >/dev/null 2>&1 || exit 1
        mk $flag POR=0 && ./pan -C -m1000000 --json off.json >/dev/null 2>&1 &&
            ./pan -C -m1000000 --no-ac2 --json off1.json >/dev/null 2>&1 &&
            mk $flag && ./pan -C -m1000000 --json on.json >/dev/null 2>&1 &&
            ./pan -C -m1000000 --no-ac2 --json on1.json >/dev/null 2>&1
        check "$n $search: built and ran with and without POR" test $? = 0 || continue
        check "$n $search: same causes with POR, non-occurrences included ($(states on.json) of $(states off.json) states)" same off.json on.json
        check "$n $search: same causes with POR and --no-ac2" same off1.json on1.json
        [ "$(states on.json)" -lt "$(states off.json)" ] && reduced=$((reduced + 1))
    done
done
# xr/xs declarations broken by a monitor (fixtures/xrxs/xr_len.pml): the DFS build
# says INCOMPLETE naming pan's "partial order reduction invalid"; the BFS build, where
# pan does not check the declarations, makes the channel's operations visible and
# gives POR=0's cause, complete
d="$W/xr_len" && mkdir -p "$d" && cd "$d" && cp "$ROOT/spin-model/tests/fixtures/xrxs/xr_len.pml" . &&
    spin -a xr_len.pml >/dev/null 2>&1 || exit 1
mk && ./pan -C --json dfs.json >/dev/null 2>&1
check "xr_len dfs: incomplete, naming the broken xr/xs declaration" python3 -c '
import json, sys
j = json.load(open("dfs.json"))
sys.exit(j["complete"] or not any("xr or xs" in r for r in j["incomplete_reasons"]))'
mk BFS=1 POR=0 && ./pan -C --json off.json >/dev/null 2>&1 && mk BFS=1 && ./pan -C --json on.json >/dev/null 2>&1
check "xr_len bfs: the cause of POR=0, complete" same off.json on.json
check "xr_len bfs: the hazard found" python3 -c '
import json, sys
j = json.load(open("on.json"))
sys.exit(not (j["complete"] and j["hazard"] and len(j["causes"]) == 1))'
# -DXUSAFE removes DFS's check too (fifth probe P5-1): the operations are visible as in
# BFS, and the DFS build gives POR=0's cause, complete
mk PANFLAGS=-DXUSAFE && ./pan -C --json xu.json >/dev/null 2>&1 && mk POR=0 && ./pan -C --json off.json >/dev/null 2>&1
check "xr_len dfs -DXUSAFE: the cause of POR=0, complete" same off.json xu.json
check "xr_len dfs -DXUSAFE: the hazard found, complete" python3 -c '
import json, sys
j = json.load(open("xu.json"))
sys.exit(not (j["complete"] and j["hazard"] and len(j["causes"]) == 1))'
# xr/xs channels polled (len), used inside atomic sequences and d_steps, or by a
# sorted send (the sixth probe, P6-1, P6-2, P6-4): BFS and -DXUSAFE give POR=0's causes,
# and DFS (pan checks the declarations) names the breach, INCOMPLETE
for n in xr_ownlen xs_atomic xs_dstep xs_sorted; do
    d="$W/$n" && mkdir -p "$d" && cd "$d" && cp "$ROOT/spin-model/tests/fixtures/xrxs/$n.pml" . &&
        spin -a $n.pml >/dev/null 2>&1 || exit 1
    mk BFS=1 POR=0 && ./pan -C --json off.json >/dev/null 2>&1 && mk BFS=1 && ./pan -C --json bfs.json >/dev/null 2>&1
    check "$n bfs: the causes of POR=0" same off.json bfs.json
    mk POR=0 && ./pan -C --json off.json >/dev/null 2>&1 && mk PANFLAGS=-DXUSAFE && ./pan -C --json xu.json >/dev/null 2>&1
    check "$n dfs -DXUSAFE: the causes of POR=0" same off.json xu.json
    mk && ./pan -C --json dfs.json >/dev/null 2>&1
    check "$n dfs: incomplete, naming the broken xr/xs declaration" python3 -c '
import json, sys
j = json.load(open("dfs.json"))
sys.exit(j["complete"] or not any("xr or xs" in r for r in j["incomplete_reasons"]))'
done
# brp.1 and needham.1 have atomic sequences that can block midway at a rendezvous,
# where no move into a channel operation is preselected (sm_glue.c.inc,
# sm_pan_visible): their depth-first searches are not reduced any more
check "the reduction bites: fewer states on 8 of the 10 runs ($reduced)" test "$reduced" -ge 8

# An atomic sequence that blocks midway at a rendezvous send (fixtures/por-atomic/):
# the reduction must not lose the run that ends there (the trace Qo is ambiguous).
# The same with the channel reached through a global channel variable (fifth probe P5-6:
# assigned, received over a channel, reassigned): names no longer say which queue.
for n in atomic_rv_block alias_rv chanpass_rv assign_rv; do
    m="$ROOT/spin-model/tests/fixtures/por-atomic/$n.pml"
    d="$W/$n" && mkdir -p "$d" && cd "$d" && cp "$m" . &&
        spin -a $n.pml >/dev/null 2>&1 && mk POR=0 &&
        ./pan -C --json off.json >/dev/null 2>&1 && mk && ./pan -C --json on.json >/dev/null 2>&1
    check "$n: built and ran with and without POR" test $? = 0
    check "$n: same result with POR" same off.json on.json
    check "$n: the trace Qo is ambiguous, with POR too" python3 -c \
        'import json,sys; sys.exit(json.load(open("on.json"))["ambiguous"] != [{"trace": ["Qo"]}])'
done

cd "$W/airbag-dfs" || exit 1
printf 'airbag.pml:1:1\n' >airbag.pml.trail
./pan -C --nearest airbag.pml.trail >out.txt 2>&1
check "a POR build refuses --nearest (exit $?)" grep -q "rebuild it with 'make pan POR=0'" out.txt
make -s -f "$ROOT/Makefile" pan POR=2 >out.txt 2>&1
check "POR takes 1 or 0 only (exit $?)" grep -q "POR must be 1" out.txt

finish por
