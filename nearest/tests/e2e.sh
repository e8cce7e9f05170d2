#!/usr/bin/env bash
# pancause nearest end to end, with real spin and pan: every kind of trail the issue
# names (stock pan's for an assertion, an invalid end state and a safety `ltl` claim,
# each from a plain `gcc pan.c` build with its partial order reduction, and the
# witness trails `./pan -C --trails` writes), the thesis' examples re-modelled
# (minmax, chapter 3; the mutex of section 9.3) with their asserted outputs, and bad
# input (a trail of another model, a model without a successful run, an acceptance
# cycle): a message naming the file, a non-zero exit, no output file.  Every good run
# written as a trail must replay with `spin -t` and not violate.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
pc="$root/bin/pancause"
fix="$here/fixtures"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

# stock NAME.pml [PAN OPTIONS]: stock SPIN's trail for the fixture, in $work/NAME/
stock() {
    local name=$1
    shift
    mkdir -p "$work/$name"
    cp "$fix/$name.pml" "$work/$name/"
    (cd "$work/$name" && spin -a "$name.pml" >/dev/null && cc -O1 -w -o pan pan.c &&
        ./pan "$@" >pan.out 2>&1)
    [ -s "$work/$name/$name.pml.trail" ] || bad "$name: stock pan wrote no trail"
}

# replays MODEL GOODTRAIL: spin -t follows the good run to its end without a violation
replays() {
    local model=$1 trail=$2 out
    out=$(cd "$(dirname "$model")" && spin -t -k "$trail" -p "$(basename "$model")" 2>&1)
    if ! grep -q 'trail ends after' <<<"$out"; then
        bad "$trail: spin -t did not replay it to its end: $(tail -3 <<<"$out")"
    elif grep -Eqi 'violated|invalid end|error' <<<"$out"; then
        bad "$trail: the good run violates: $(grep -Ei 'violated|invalid end|error' <<<"$out" | head -2)"
    else
        ok
    fi
}

# jq-less JSON checks: check_json FILE PYTHON-EXPRESSION (j is the document)
check_json() {
    python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); sys.exit(0 if eval(sys.argv[2]) else 1)' \
        "$1" "$2" || bad "$1: not $2"
}

# near NAME ARGS...: pancause nearest on $work/NAME/NAME.pml with its stock trail,
# JSON, HTML and good trail; the run must succeed and the good run replay
near() {
    local name=$1
    shift
    local d="$work/$name"
    if "$pc" nearest "$d/$name.pml" --json "$d/out.json" --html "$d/out.html" \
        --good-trail "$d/good.trail" "$@" >"$d/near.out" 2>&1; then ok; else
        bad "$name: pancause nearest exit $?: $(tail -5 "$d/near.out")"
        return
    fi
    for f in out.json out.html good.trail; do [ -s "$d/$f" ] || bad "$name: no $f"; done
    replays "$d/$name.pml" "$d/good.trail"
    check_json "$d/out.json" 'j["exact"] and j["distance"] >= 0 and len(j["deltas"]) > 0'
    # the JSON's fields (README): deltas with their keys, alignment, slice
    check_json "$d/out.json" 'all(set(("step_a","step_b","kind","variable","value_a","value_b","line")) <= set(x) for x in j["deltas"]) and "alignment" in j and "slice" in j'
}

# 1. an assertion: the thesis' minmax (chapter 3, Figure 3.1), its fault at line 32
#    (`most = input2` where `least = input2` is meant)
stock minmax
near minmax
check_json "$work/minmax/out.json" 'j["distance"] == 34'
check_json "$work/minmax/out.json" '32 in j["slice_lines"]'
grep -q 'changed action' "$work/minmax/near.out" && ok || bad "minmax: no changed action in the text"
# stopped by its budget: not exact, says how many nodes it expanded, still a real run
"$pc" nearest "$work/minmax/minmax.pml" --budget 3 --json "$work/minmax/b3.json" \
    --good-trail "$work/minmax/b3.trail" >"$work/minmax/b3.out" 2>&1 && ok || bad "minmax --budget 3: exit $?"
grep -q 'NOT EXACT: the search stopped at its budget of 3 expanded nodes' "$work/minmax/b3.out" && ok ||
    bad "minmax --budget 3: $(grep -m1 distance "$work/minmax/b3.out")"
check_json "$work/minmax/b3.json" 'not j["exact"] and j["distance"] >= 34 and j["lower_bound"] <= 34'
replays "$work/minmax/minmax.pml" "$work/minmax/b3.trail"

# --assume (README "--assume"): every state of b keeps to it, a does not have to (the
# note says where a breaks it), the distance can only grow, and SPIN's replay of b
# with its globals (-g) never shows least > most; refused: bad syntax (exit 2, the
# column), a name the model lacks and no run that keeps to it (exit 1), nothing written
d="$work/minmax"
"$pc" nearest "$d/minmax.pml" --assume 'least <= most' --assume 'input3 != 2' --json "$d/as.json" \
    --good-trail "$d/as.trail" >"$d/as.out" 2>&1 && ok || bad "minmax --assume: exit $?: $(tail -3 "$d/as.out")"
check_json "$d/as.json" 'j["assume"] == ["least <= most", "input3 != 2"] and j["exact"] and j["distance"] > 34 and j["assume_broken_by_a"] == 5'
grep -q 'a itself breaks --assume in its state before step 5' "$d/as.out" && ok || bad "minmax --assume: no note that a breaks it"
replays "$d/minmax.pml" "$d/as.trail"
(cd "$d" && spin -t -k as.trail -p -g minmax.pml) | awk '
    /^\t\t[a-z0-9]+ = / { v[$1] = $3 }
    /^ *[0-9]+:/ || /trail ends/ { if (v["least"] + 0 > v["most"] + 0 || v["input3"] == 2) bad = 1 }
    END { exit bad }' && ok || bad "minmax --assume: b breaks its assumption"
"$pc" nearest "$d/minmax.pml" --assume 'least <= ' --json "$d/as2.json" >"$d/as2.out" 2>&1
rc=$?
[ $rc -eq 2 ] && grep -q 'column 10: expected an expression' "$d/as2.out" && [ ! -e "$d/as2.json" ] && ok ||
    bad "--assume with bad syntax: rc $rc, $(tail -1 "$d/as2.out")"
"$pc" nearest "$d/minmax.pml" --assume 'lest <= most' --json "$d/as3.json" >"$d/as3.out" 2>&1
rc=$?
[ $rc -eq 1 ] && grep -q 'no global variable or mtype lest' "$d/as3.out" && [ ! -e "$d/as3.json" ] && ok ||
    bad "--assume naming no variable: rc $rc, $(tail -1 "$d/as3.out")"
"$pc" nearest "$d/minmax.pml" --assume 'input1 == 1' --json "$d/as4.json" >"$d/as4.out" 2>&1
rc=$?
[ $rc -eq 1 ] && grep -q 'no successful run: every run of .* that keeps to its --assume' "$d/as4.out" &&
    [ ! -e "$d/as4.json" ] && ok || bad "--assume no run keeps to: rc $rc, $(tail -1 "$d/as4.out")"
# an assumption is not read between a rendezvous' send and its receive (P8-9): the
# same b as without it, d 42, where the handshake's middle state excluded every run
# that communicates (d 80, "exact")
stock assume_rv
d="$work/assume_rv"
"$pc" nearest "$d/assume_rv.pml" --json "$d/no.json" >/dev/null 2>&1 &&
    "$pc" nearest "$d/assume_rv.pml" --assume 'len(rv) == 0' --json "$d/rv.json" >"$d/rv.out" 2>&1 &&
    ok || bad "assume_rv: exit $?: $(tail -2 "$d/rv.out")"
check_json "$d/rv.json" 'j["exact"] and j["distance"] == 42 and j["distance"] == json.load(open("'"$d/no.json"'"))["distance"] and not j.get("assume_broken_by_a")'
# an output over the model, its trail or another output: refused before any work, the
# model intact (the eighth probe's P8-2: --json model.pml replaced it, exit 0)
cp "$d/assume_rv.pml" "$d/keep.pml"
"$pc" nearest "$d/assume_rv.pml" --json "$d/assume_rv.pml" >"$d/ov.out" 2>&1
rc=$?
[ $rc -eq 2 ] && grep -q "is also the input" "$d/ov.out" && cmp -s "$d/keep.pml" "$d/assume_rv.pml" &&
    ok || bad "--json over the model: rc $rc, $(tail -1 "$d/ov.out")"
"$pc" nearest "$d/assume_rv.pml" --good-trail "$d/assume_rv.pml.trail" >"$d/ov.out" 2>&1
[ $? -eq 2 ] && grep -q "is also the input" "$d/ov.out" && ok || bad "--good-trail over a's trail"
"$pc" nearest "$d/assume_rv.pml" --json "$d/o.json" --good-trail "$d/o.json" >"$d/ov.out" 2>&1
[ $? -eq 2 ] && grep -q "is also an output" "$d/ov.out" && ok || bad "two outputs on one file"
# a model that #includes a file beside it (P8-8): its directory is on cpp's path
mkdir -p "$work/include dir" && cp "$fix/include/inc.pml" "$fix/include/defs.h" "$work/include dir/"
"$pc" nearest "$work/include dir/inc.pml" --json "$work/include dir/o.json" >"$work/inc.out" 2>&1 &&
    ok || bad "#include beside the model: exit $?: $(tail -2 "$work/inc.out")"
check_json "$work/include dir/o.json" 'j["exact"] and j["distance"] == 4'
# the model named as the user gave it (the printed replay works from their directory,
# P8-7d), and a model with a NUL byte named as such (P8-7f)
(cd "$work/include dir" && "$pc" nearest ./inc.pml --good-trail g.trail >rel.out 2>&1) &&
    grep -q "replay: spin -t -k .*/g.trail -p ./inc.pml)" "$work/include dir/rel.out" && ok ||
    bad "the replay hint does not name the model as given: $(grep 'good run' "$work/include dir/rel.out")"
printf 'byte x;\nactive proctype A() { x = 1 }\n\0' >"$work/nul.pml"
"$pc" nearest "$work/nul.pml" >"$work/nul.out" 2>&1
[ $? -ne 0 ] && grep -q "contains a NUL byte" "$work/nul.out" && ok || bad "a NUL byte: $(cat "$work/nul.out")"
# the text report on a full device: exit 1 with the reason (P8-5)
"$pc" nearest "$d/assume_rv.pml" >/dev/full 2>"$d/full.err"
rc=$?
[ $rc -eq 1 ] && grep -q "cannot write the standard output" "$d/full.err" && ok ||
    bad "stdout on /dev/full: rc $rc"
# explain's dot after a rendezvous lands on the step whose value it explains
stock rv_marks -a
"$pc" nearest "$work/rv_marks/rv_marks.pml" --html "$work/rv_marks/n.html" --with-explain \
    >"$work/rv_marks/out" 2>&1 && grep -q '{"step": 6, "kind": "dot", "label": "g"}' "$work/rv_marks/n.html" &&
    ok || bad "rv_marks: explain's dot not on a's step 6 (g = 2)"
# SIGTERM (timeout, a CI runner) and SIGHUP stop pan and remove the scratch directory
# (the eighth probe's P8-12: pan ran on, orphaned, and the directory stayed)
for sig in TERM HUP; do
    mkdir -p "$work/sig$sig" && cp "$fix/brp1.pml" "$work/sig$sig/m.pml"
    (cd "$work/sig$sig" && exec setsid "$pc" nearest m.pml --run-to-end -- -m1000000 >out 2>&1) &
    npid=$!
    child="" scratch=""
    for _ in $(seq 1 600); do
        child=$(pgrep -P "$npid" -x pan | head -1)
        [ -n "$child" ] && scratch=$(readlink "/proc/$child/cwd") && [ -n "$scratch" ] && break
        kill -0 "$npid" 2>/dev/null || break
        sleep 0.1
    done
    if [ -z "$child" ]; then
        bad "SIG$sig: no pan started"
        wait "$npid"
        continue
    fi
    kill -"$sig" "$npid"
    wait "$npid" 2>/dev/null
    rc=$?
    sleep 0.5
    if ! kill -0 "$child" 2>/dev/null && [ ! -e "$scratch" ] && [ $rc -ge 128 ]; then ok; else
        bad "SIG$sig: rc $rc, pan $(kill -0 "$child" 2>/dev/null && echo alive), scratch $scratch $([ -e "$scratch" ] && echo left)"
        kill "$child" 2>/dev/null
    fi
done

# 2. the thesis' mutex (section 9.3): the explanation points at the missing lock call
#    on line 24 as the thesis' Figure 9.3 does: the branch before it taken the other
#    way (line 22 against 23) and the owner's assignment right after it deleted
stock mutex
near mutex
check_json "$work/mutex/out.json" '23 in j["slice_lines"] and 22 in j["slice_lines"]'
check_json "$work/mutex/out.json" 'any(x["kind"] == "deleted" and x["line"] == 25 for x in j["deltas"])'

# a struct (typedef) variable and a channel of structs: decoded, the field p.x differs
stock typedef
near typedef --run-to-end
check_json "$work/typedef/out.json" 'any(x["variable"] == "p.x" and x["value_a"] == "1" and x["value_b"] == "0" for x in j["deltas"])'
# a search its budget stops after it has found b at its lower bound has proved b nearest:
# exact (third probe H6: "NOT EXACT ... no run is nearer than 12" for a b at 12).  typedef's
# search finds its b at 15 after 25 expansions; at 22 every node left is at f = 15 already.
d="$work/typedef"
"$pc" nearest "$d/typedef.pml" --budget 22 --json "$d/b22.json" >"$d/b22.out" 2>&1 || bad "typedef --budget 22: exit $?"
check_json "$d/b22.json" 'j["exact"] and j["stopped_by"] == "budget" and j["distance"] == j["lower_bound"] == 15 and j["alignment_minimal"]'
grep -q 'distance d(a, b) = 15 (exact: no successful run is nearer; the search stopped at its budget' "$d/b22.out" &&
    ! grep -q 'NOT EXACT' "$d/b22.out" && ok || bad "typedef --budget 22: $(grep -m1 'distance d' "$d/b22.out")"

# 3. an invalid end state: the slice holds the choice that leads into it
stock end
near end
check_json "$work/end/out.json" 'j["a"]["ends"].startswith("invalid end state")'
check_json "$work/end/out.json" '12 in j["slice_lines"] and 21 in j["slice_lines"]'

# 3b. an invalid end state at a blocked rendezvous send: the trail is accepted as the
#     run it is (pan undid the send: no step of a), and b ends after B's end, not in
#     the mid-rendezvous state of a send
stock rendezvous
near rendezvous
check_json "$work/rendezvous/out.json" 'j["distance"] == 2 and len(j["a"]["steps"]) == 3 and j["b"]["ends"].startswith("a valid end")'

# 3c. an invalid end state at an if without an open guard, b ending settled there
stock blocked
near blocked
check_json "$work/blocked/out.json" '12 in j["slice_lines"]'

# 3d. an invalid end state that b avoids by moving the waiting process on earlier
#     (inserted steps only): the slice holds them (it was empty before)
stock moved_on
near moved_on
check_json "$work/moved_on/out.json" 'j["a"]["ends"].startswith("invalid end state") and j["counts"]["da"] == 0'
check_json "$work/moved_on/out.json" '{66, 70} <= set(j["slice_lines"])'

# 4. a safety ltl claim (the railway crossing's no_collision), stock pan's trail
mkdir -p "$work/railway"
cp "$root/cases/railway/railway.pml" "$work/railway/"
(cd "$work/railway" && spin -a railway.pml >/dev/null && cc -O1 -w -o pan pan.c && ./pan >pan.out 2>&1)
if [ -s "$work/railway/railway.pml.trail" ]; then
    near railway
    check_json "$work/railway/out.json" '"claim" in j["a"]["ends"] or "never" in j["a"]["ends"]'
else
    bad "railway: stock pan wrote no trail"
fi

# 4c. a BEEM model (bakery.1: cyclic, every location labelled, no end labels): by
#     default b is a without its last step (the state before the deadlock is settled:
#     only a labelled move leads on); with --run-to-end b may not stop there and, no
#     valid end state being reachable, is a lasso that spin -t replays with its cycle
stock bakery1
near bakery1
check_json "$work/bakery1/out.json" 'not j["run_to_end"] and j["counts"]["deleted"] == 1 and j["counts"]["inserted"] == 0 and len(j["b"]["steps"]) + 1 == len(j["a"]["steps"])'
d="$work/bakery1"
if "$pc" nearest "$d/bakery1.pml" --run-to-end --json "$d/rte.json" --good-trail "$d/rte.trail" \
    >"$d/rte.out" 2>&1; then ok; else bad "bakery1 --run-to-end: exit $?: $(tail -3 "$d/rte.out")"; fi
check_json "$d/rte.json" 'j["run_to_end"] and j["b"]["lasso"] is True and j["exact"] and j["distance"] > j["weights"]["wc"]'
check_json "$d/out.json" 'j["cut_short"]'
check_json "$d/rte.json" 'not j["cut_short"]'
check_json "$work/minmax/out.json" 'not j["cut_short"]'
grep -q 'id="cut-short"' "$d/out.html" && ! grep -q 'id="cut-short"' "$work/minmax/out.html" && ok ||
    bad "bakery1: the page does not note that b is a cut short (or minmax's does)"
grep -q 'note: b is a cut short' "$d/near.out" && ! grep -q 'cut short' "$d/rte.out" &&
    grep -q 'no valid end state is reachable, --run-to-end' "$d/rte.out" && ok ||
    bad "bakery1: the text does not say that b is a cut short (or says it of the lasso)"
(cd "$d" && spin -t -k rte.trail -p bakery1.pml) >"$d/rte.replay" 2>&1
grep -q 'START OF CYCLE' "$d/rte.replay" && ! grep -Eqi 'violated|invalid end' "$d/rte.replay" && ok ||
    bad "bakery1 --run-to-end: the lasso does not replay with its cycle"
# --bfs with a trail (pan's breadth-first build, without the stock copy: the make line
# has both BFS=1 and CAUSAL_ONLY=1, and its argv once overflowed), under ASan+UBSan
# when that build is there; the same distance as the depth-first build
san="$root/build-san/bin/pancause"
[ -x "$san" ] || san=$pc
if ASAN_OPTIONS=detect_leaks=1 "$san" nearest "$d/bakery1.pml" --bfs --trail "$d/bakery1.pml.trail" \
    --json "$d/bfs.json" >"$d/bfs.out" 2>&1; then ok; else bad "bakery1 --bfs: exit $?: $(tail -3 "$d/bfs.out")"; fi
python3 -c 'import json,sys; a,b=(json.load(open(f)) for f in sys.argv[1:]); sys.exit(a["distance"] != b["distance"])' \
    "$d/out.json" "$d/bfs.json" && ok || bad "bakery1 --bfs: another distance than the depth-first build"
# a model whose every run deadlocks: by default b stops at the settled initial state;
# with --run-to-end there is no successful run: refused, nothing written
stock stuck
near stuck
check_json "$work/stuck/out.json" 'len(j["b"]["steps"]) == 0'
"$pc" nearest "$work/stuck/stuck.pml" --run-to-end --json "$work/stuck/rte.json" >"$work/stuck/rte.out" 2>&1
rc=$?
grep -q 'valid end state (--run-to-end)' "$work/stuck/rte.out" && [ $rc -eq 1 ] && [ ! -e "$work/stuck/rte.json" ] && ok ||
    bad "stuck --run-to-end: rc $rc, $(tail -2 "$work/stuck/rte.out")"

# 4d. --run-to-end where the nearest lasso loops while a process is blocked inside an
#     atomic sequence (it lost atomicity in a state pan had stored before): the
#     reference's distance, 49, exact, and the lasso replays with its cycle
stock lasso_atomic
d="$work/lasso_atomic"
if "$pc" nearest "$d/lasso_atomic.pml" --run-to-end --json "$d/out.json" --good-trail "$d/good.trail" \
    >"$d/near.out" 2>&1; then ok; else bad "lasso_atomic: exit $?: $(tail -3 "$d/near.out")"; fi
check_json "$d/out.json" 'j["b"]["lasso"] is True and j["exact"] and j["distance"] == 49'
(cd "$d" && spin -t -k good.trail -p lasso_atomic.pml) >"$d/replay.out" 2>&1
grep -q 'START OF CYCLE' "$d/replay.out" && ! grep -Eqi 'violated|invalid end' "$d/replay.out" && ok ||
    bad "lasso_atomic: the lasso does not replay with its cycle"

# 4b. a cyclic protocol without any finite successful run (abp-like, its fault at line
#     49): b is a lasso, its loop marked in the JSON, the text and the trail (pan's
#     -1:-1:-1, which spin -t replays as <<<<<START OF CYCLE>>>>>)
stock abp
near abp
check_json "$work/abp/out.json" 'j["b"]["lasso"] is True and 1 <= j["b"]["loop_step"] <= len(j["b"]["steps"])'
grep -q -- '-1:-1:-1' "$work/abp/good.trail" && ok || bad "abp: no cycle mark in the good trail"
grep -q 'a lasso' "$work/abp/near.out" && grep -q '<- loop starts' "$work/abp/near.out" && ok ||
    bad "abp: the text does not mark the loop"
(cd "$work/abp" && spin -t -k good.trail -g -l -p abp.pml) >"$work/abp/replay.out" 2>&1
grep -q 'START OF CYCLE' "$work/abp/replay.out" && ok || bad "abp: spin -t shows no cycle start"
# the loop returns to where it starts: the values spin -t prints at the loop's start
# and at the trail's end are the same (every global and local it prints)
python3 - "$work/abp/replay.out" <<'PY' && ok || bad "abp: the loop does not come back to its start"
import re, sys
out = open(sys.argv[1]).read()
head, _, loop = out.partition("START OF CYCLE")
def last_values(text):
    v = {}
    for name, val in re.findall(r"^\s+(\w+(?:\(\d+\):\w+)?) = (\S+)$", text, re.M):
        v[name] = val
    return v
a = last_values(head)
b = last_values(loop.split("trail ends after")[0]) or a
sys.exit(0 if loop and all(b.get(k, a[k]) == a[k] for k in a) else 1)
PY
# --assume on locals (P[pid]:x, P:x) and a channel's length, in a lasso: b keeps to
# them (SPIN's replay with locals never shows sender's msg above 0; the b found without it does)
d="$work/abp"
"$pc" nearest "$d/abp.pml" --assume 'sender[0]:msg < 1' --assume 'len(m_to_r) == 0 || receiver:expect == 0' \
    --json "$d/as.json" --good-trail "$d/as.trail" >"$d/as.out" 2>&1 && ok || bad "abp --assume: exit $?: $(tail -3 "$d/as.out")"
check_json "$d/as.json" 'len(j["assume"]) == 2 and j["b"]["lasso"] is True and j["exact"] and j["distance"] > 97'
(cd "$d" && spin -t -k as.trail -g -l -p abp.pml) >"$d/as.replay" 2>&1
grep -q 'START OF CYCLE' "$d/as.replay" && ! grep -q 'sender(0):msg = [1-9]' "$d/as.replay" && ok ||
    bad "abp --assume: b's replay breaks sender[0]:msg < 1"
grep -q 'sender(0):msg = [1-9]' "$d/replay.out" && ok ||
    bad "abp: the b found without --assume keeps to it too, so the check above proves nothing"
"$pc" nearest "$d/abp.pml" --assume 'msg < 2' >"$d/as2.out" 2>&1
[ $? -eq 1 ] && grep -q 'msg is local to sender: name its process, sender\[pid\]:msg' "$d/as2.out" && ok ||
    bad "abp --assume on a local without its process: $(grep -m1 assume "$d/as2.out")"

# 5. the witness trails of ./pan -C --trails (one per cause), each explained
(cd "$work/railway" && make -s -f "$root/Makefile" pan >/dev/null 2>&1 &&
    mkdir -p wit && ./pan -C --trails wit >wit.out 2>&1)
n=0
for t in "$work"/railway/wit/*.trail; do
    [ -e "$t" ] || break
    case $t in *.good.trail) continue ;; esac # the prevented runs, not counterexamples
    n=$((n + 1))
    out="$work/railway/wit$n"
    if "$pc" nearest "$work/railway/railway.pml" --trail "$t" --json "$out.json" \
        --good-trail "$out.good" >"$out.out" 2>&1; then ok; else bad "witness $t: exit $?"; fi
    replays "$work/railway/railway.pml" "$out.good"
done
[ "$n" -ge 2 ] && ok || bad "railway: $n witness trails, want the paper's 2"

# 6. the text report: both runs side by side with source lines, marks and the slice
grep -q '^  a (counterexample) .*b (successful run)' "$work/minmax/near.out" && ok || bad "minmax: no side-by-side header"
grep -Eq '^ +11 main\(0\) :32 most = input2 +-' "$work/minmax/near.out" && ok || bad "minmax: deleted step 11 not marked"
grep -q '^  slice: ' "$work/minmax/near.out" && ok || bad "minmax: no slice line"

# 7. bad input: a message naming the file, a non-zero exit, nothing written
refused() { # refused NAME WHAT MODEL ARGS...: must fail, name WHAT, write nothing
    local name=$1 what=$2 model=$3
    shift 3
    local d="$work/bad-$name"
    mkdir -p "$d"
    "$pc" nearest "$model" --json "$d/o.json" --html "$d/o.html" --good-trail "$d/o.trail" "$@" \
        >"$d/out" 2>&1
    local rc=$?
    [ $rc -ne 0 ] && ok || bad "$name: exit 0"
    grep -q -- "$what" "$d/out" && ok || bad "$name: message does not name $what: $(tail -3 "$d/out")"
    [ -z "$(ls -A "$d" | grep -v '^out$')" ] && ok || bad "$name: wrote $(ls "$d")"
}
# the minmax trail against the mutex model: not a run of it
refused misfit "minmax.pml.trail" "$work/mutex/mutex.pml" --trail "$work/minmax/minmax.pml.trail"
# every run violates
mkdir -p "$work/nosuccess" && cp "$fix/nosuccess.pml" "$work/nosuccess/"
refused nosuccess "nosuccess.pml" "$work/nosuccess/nosuccess.pml"
grep -q 'no successful run' "$work/bad-nosuccess/out" && ok || bad "nosuccess: reason not given"
# 7b. an atomic sequence blocked at a rendezvous send no one can take: every run
#     violates (the invalid end state after it counts), so there is no successful run;
#     stock pan's trail through such a state is accepted (it was refused as "no move")
for m in atomic_rv atomic_rv_trail; do
    stock $m
    refused $m "$m.pml" "$work/$m/$m.pml"
    grep -q 'no successful run' "$work/bad-$m/out" && ! grep -q 'no move of this model' "$work/bad-$m/out" &&
        ok || bad "$m: $(tail -2 "$work/bad-$m/out")"
done
# an acceptance cycle (pan -a on a liveness property)
stock live -a
refused live "live.pml.trail" "$work/live/live.pml" --trail "$work/live/live.pml.trail"
grep -qi 'acceptance\|cycle\|liveness' "$work/bad-live/out" && ok || bad "live: reason not given"
# ... whose cycle starts after some moves (the mark -1:-1:-1 among the moves)
stock live_late -a
refused live_late "live_late.pml.trail" "$work/live_late/live_late.pml" --trail "$work/live_late/live_late.pml.trail"
grep -q 'this trail is an acceptance cycle' "$work/bad-live_late/out" && ok || bad "live_late: $(tail -1 "$work/bad-live_late/out")"
# an assertion's trail in a model with a liveness ltl (spin-model/tests/fixtures): the
# claim's guesses can end runs that look settled, so the answer is not exact and the
# JSON names why; built without the claim (PANFLAGS=-DNOCLAIM, which make takes from
# the environment) the answer is exact
d="$work/live_claim" && mkdir -p "$d" && cp "$root/spin-model/tests/fixtures/live_claim.pml" "$d/"
"$pc" nearest "$d/live_claim.pml" --json "$d/o.json" >"$d/out" 2>&1 && ok || bad "live_claim: exit $?"
check_json "$d/o.json" 'not j["exact"] and any("accepting state on a cycle" in r for r in j["incomplete"])'
grep -q "INCOMPLETE graph: the never claim always_eventually" "$d/out" && ok || bad "live_claim: no reason in the text"
PANFLAGS=-DNOCLAIM "$pc" nearest "$d/live_claim.pml" --json "$d/nc.json" >"$d/nc.out" 2>&1 && ok ||
    bad "live_claim -DNOCLAIM: exit $?"
check_json "$d/nc.json" 'j["exact"] and j["incomplete"] == []'
# a trail that is not a trail at all
printf 'hello\n' >"$work/garbage.trail"
refused garbage "garbage.trail" "$work/minmax/minmax.pml" --trail "$work/garbage.trail"
# bad options: exit 2 before any work
"$pc" nearest "$work/minmax/minmax.pml" --weights 1,x >/dev/null 2>&1
[ $? -ne 0 ] && ok || bad "--weights 1,x accepted"
"$pc" nearest "$work/minmax/minmax.pml" --weights 1,2,3,4 >/dev/null 2>&1
[ $? -eq 2 ] && ok || bad "--weights 1,2,3,4 not refused before any work (exit 2)"

# BEEM's brp.1 (a copy): stock pan's trail (partial order reduction on) passes through
# a state where an atomic sequence blocked on a rendezvous receive, reached after pan
# had stored the same vector when another visit broke the atomic sequence; the
# recorder used to give that state no moves, so the trail did not fit the graph
mkdir -p "$work/brp1" && cp "$fix/brp1.pml" "$work/brp1/"
(cd "$work/brp1" && spin -a brp1.pml >/dev/null && cc -O1 -w -o pan pan.c && ./pan -m100000 >/dev/null 2>&1)
out=$("$pc" nearest "$work/brp1/brp1.pml" 2>&1)
[ $? = 0 ] && grep -q "distance d(a, b) = " <<<"$out" && ok ||
    bad "brp.1, stock trail through a broken atomic sequence: $(grep -m1 pancause <<<"$out")"

# stopped by its memory limit (README "--memlim"): the lasso search of brp.1 under
# --run-to-end takes gigabytes; at 20 MB it stops and reports its best run, says why,
# and that run replays with its cycle; a limit with no room for the search's first
# nodes is refused with nothing written; a limit that is no number is a usage error
d="$work/brp1"
if "$pc" nearest "$d/brp1.pml" --run-to-end --memlim 20 --json "$d/ml.json" --html "$d/ml.html" \
    --good-trail "$d/ml.trail" >"$d/ml.out" 2>&1; then ok; else
    bad "brp.1 --memlim 20: exit $?: $(tail -3 "$d/ml.out")"
fi
grep -q 'NOT EXACT: the search stopped when its memory ran short, at [0-9]* MB' "$d/ml.out" && ok ||
    bad "brp.1 --memlim 20: $(grep -m1 'distance d' "$d/ml.out")"
check_json "$d/ml.json" 'not j["exact"] and j["stopped_by"] == "memory" and j["lower_bound"] <= j["distance"] and j["b"]["lasso"]'
grep -q 'id="not-exact">NOT EXACT: the search stopped when its memory ran short' "$d/ml.html" && ok ||
    bad "brp.1 --memlim 20: the page does not say that memory stopped the search"
check_json "$work/minmax/b3.json" 'j["stopped_by"] == "budget"'
check_json "$work/minmax/out.json" 'j["exact"] and j["stopped_by"] is None'
(cd "$d" && spin -t -k ml.trail -p brp1.pml) >"$d/ml.replay" 2>&1
grep -q 'START OF CYCLE' "$d/ml.replay" && ! grep -Eqi 'violated|invalid end' "$d/ml.replay" && ok ||
    bad "brp.1 --memlim 20: the best lasso does not replay with its cycle"
"$pc" nearest "$d/brp1.pml" --run-to-end --memlim 0.01 --json "$d/ml0.json" >"$d/ml0.out" 2>&1
rc=$?
[ $rc = 1 ] && grep -q 'reached its memory limit (--memlim, 0.01 MB) before it had any run' \
    "$d/ml0.out" && [ ! -e "$d/ml0.json" ] && ok ||
    bad "brp.1 --memlim 0.01: exit $rc, $(grep -m1 'pancause' "$d/ml0.out")"
for v in lots "" -1 0x10 " 20" inf; do
    "$pc" nearest "$d/brp1.pml" --memlim "$v" >"$d/ml1.out" 2>&1
    rc=$?
    [ $rc = 2 ] && grep -q "memlim $v: give a number of megabytes, 0 .. 1e+09" "$d/ml1.out" && ok ||
        bad "--memlim '$v': exit $rc, $(tail -1 "$d/ml1.out")"
done
"$pc" nearest "$d/brp1.pml" --budget "" >"$d/bu1.out" 2>&1
rc=$?
[ $rc = 2 ] && grep -q "budget : give a number of search nodes" "$d/bu1.out" && ok ||
    bad "--budget '': exit $rc, $(tail -1 "$d/bu1.out")"
# a limit of a fraction of a byte is still a limit, not "none"
"$pc" nearest "$d/brp1.pml" --run-to-end --memlim 1e-7 >"$d/ml2.out" 2>&1
rc=$?
[ $rc = 1 ] && grep -q 'reached its memory limit (--memlim, 1e-07 MB)' "$d/ml2.out" && ok ||
    bad "--memlim 1e-7: exit $rc, $(grep -m1 pancause "$d/ml2.out")"
# a counterexample of 40,003 steps: the DP's table for the best run would take 1.6 GB,
# so under --memlim 1 b is measured by the search's own alignment, and said so
stock long -m200000
d="$work/long"
if /usr/bin/env time -f "%M" -o "$d/long.kb" "$pc" nearest "$d/long.pml" --memlim 1 \
    --json "$d/long.json" --good-trail "$d/long.good" -- -m200000 >"$d/long.out" 2>&1; then ok; else
    bad "long --memlim 1: exit $?: $(tail -3 "$d/long.out")"
fi
check_json "$d/long.json" 'not j["exact"] and j["stopped_by"] == "memory" and not j["alignment_minimal"] and j["lower_bound"] <= j["distance"]'
grep -q "measured by the search's own alignment" "$d/long.out" && ok ||
    bad "long --memlim 1: the text does not say how b was measured"
replays "$d/long.pml" "$d/long.good"

# a relative model with its stock trail beside it and no --trail: the trail is found
# there, not looked for in the scratch directory pan runs in
out=$(cd "$work/minmax" && "$pc" nearest minmax.pml 2>&1)
[ $? = 0 ] && grep -q "closest successful execution to .*minmax.pml.trail" <<<"$out" &&
    ! grep -q "no trail given" <<<"$out" && ok || bad "relative model, trail beside it: $out"

# no trail at all: stock pan's, made in the scratch directory, which is deleted; the
# reports say so and name no path there (third probe H9: they named the deleted file)
d="$work/notrail"
mkdir -p "$d" && cp "$fix/minmax.pml" "$d/"
out=$(cd "$d" && "$pc" nearest minmax.pml --json o.json --html o.html 2>&1)
[ $? = 0 ] && grep -q "closest successful execution to stock pan's counterexample (made by pancause nearest, not kept)" <<<"$out" &&
    ! grep -q "pancause-" <<<"$out" && ok || bad "no trail: the text names the deleted trail: $out"
check_json "$d/o.json" 'j["trail"] is None'
grep -q "not kept" "$d/o.html" && ! grep -q "pancause-nearest" "$d/o.html" && ok || bad "no trail: the HTML names the deleted trail"

# an INCOMPLETE graph (pan's BFS matched a state stored inside an atomic sequence
# outside it: spin-model/tests/fixtures/bfs_atomic_mode.pml) is never called exact: the
# search's least is over the graph only (RICH seed 51 printed "exact" there)
d="$work/bfsatomic"
mkdir -p "$d" && cp "$root/spin-model/tests/fixtures/bfs_atomic_mode.pml" "$d/"
(cd "$d" && spin -a bfs_atomic_mode.pml >/dev/null && cc -O1 -w -o span pan.c && ./span >/dev/null 2>&1 &&
    make -s -f "$root/Makefile" pan BFS=1 POR=0 >/dev/null 2>&1 &&
    ./pan -C --nearest bfs_atomic_mode.pml.trail --json out.json --html out.html >near.out 2>&1)
check_json "$d/out.json" 'not j["exact"] and j["stopped_by"] is None and len(j["incomplete"]) >= 1'
grep -q 'NOT EXACT: the least over the recorded graph, which is INCOMPLETE' "$d/near.out" &&
    ! grep -q 'exact: no successful run is nearer' "$d/near.out" && grep -q 'id="not-exact"' "$d/out.html" &&
    ok || bad "bfs_atomic_mode: an incomplete graph's result is called exact: $(grep -m1 'distance d' "$d/near.out")"

# statements SPIN merges into the move before them: every step of a and of b shows
# exactly the lines `spin -t -p` prints under that step's number (the step's own, then
# the merged ones, jumps left out), on the fixture and on two bench/faults models whose
# merged lines matter (sliding_window2's faulty line 38 runs inside a's step at line
# 37, hanoi3's 74 inside 73); the text report lists them under the step, and the
# slice names the merged lines of its steps; philosophers1's fault, the guard (i < N) of
# line 20, heads the move whose merged first = i (line 21) a decision taken alike read:
# the write brings its own guard into the slice, and not second = ... (line 22), which
# no decision on a chain read
merged_like_spin() { # DIR MODEL: a.json and b's good.trail against spin -t -p
    python3 - "$1" "$2" <<'PY'
import json, os, re, subprocess, sys
d, model = sys.argv[1:]
j = json.load(open(os.path.join(d, "out.json")))
def spin_lines(trail):
    out = subprocess.run(["spin", "-t", "-k", trail, "-p", model], cwd=d,
                         capture_output=True, text=True).stdout
    per = {}
    for m in re.finditer(r"^\s*(\d+):\s+proc\s+\d+ \(.*?\) \S+?:(\d+) \(state \d+\)\t\[", out, re.M):
        per.setdefault(int(m.group(1)), []).append(int(m.group(2)))
    return per
bad = []
for run, trail in (("a", model + ".trail"), ("b", "good.trail")):
    per = spin_lines(trail)
    for s in j[run]["steps"]:
        if s["text"].startswith("D_STEP") or s["text"] == "-end-":
            continue  # spin prints a d_step's statements, and "proc N terminates"
        ours = [s["line"]] + [x["line"] for x in s.get("merged", [])]
        if per.get(s["step"]) != ours:
            bad.append("%s step %d: spin -t -p %s, pancause %s" % (run, s["step"], per.get(s["step"]), ours))
print("\n".join(bad[:5]))
sys.exit(1 if bad else 0)
PY
}
d="$work/merged"
mkdir -p "$d" && cp "$fix/merged.pml" "$d/"
(cd "$d" && spin -a merged.pml >/dev/null && cc -O1 -w -o span pan.c && ./span >/dev/null 2>&1 &&
    "$pc" nearest merged.pml --json out.json --good-trail good.trail >near.out 2>&1) && ok ||
    bad "merged.pml: exit $?: $(tail -3 "$d/near.out")"
out=$(merged_like_spin "$d" merged.pml) && ok || bad "merged.pml: steps unlike spin -t -p: $out"
check_json "$d/out.json" 'j["a"]["steps"][0]["merged"] == [{"line": 12, "text": "a = 2"}] and \
    j["a"]["steps"][1]["merged"] == [{"line": 14, "text": "b = (a+1)"}] and \
    "merged" not in j["a"]["steps"][2] and {12, 14, 16, 17} <= set(j["slice_lines"])'
# a value Δ names the statement that wrote its variable (a = 2 on line 12 and b = a + 1
# on line 14, each merged into a move headed by another line: 11, 13)
check_json "$d/out.json" '[x["line"] for x in j["deltas"] if x["kind"] == "value"] == [12, 14, 19]'
grep -Eq '^ {7}worker\(0\) :12 a = 2 +worker\(0\) :16 a = 1' "$d/near.out" && ok ||
    bad "merged.pml: the text report does not list the merged statements under the step"
for f in sliding_window2:38: hanoi3:74: philosophers1:20:22; do
    name=${f%%:*} rest=${f#*:} line=${rest%:*} absent=${rest#*:} d="$work/$name"
    mkdir -p "$d" && cp "$root/bench/faults/$name.pml" "$d/"
    (cd "$d" && spin -a "$name.pml" >/dev/null && cc -O1 -w -o span pan.c && ./span >/dev/null 2>&1 &&
        "$pc" nearest "$name.pml" --json out.json --good-trail good.trail >near.out 2>&1) &&
        ok || bad "$name: exit $?: $(tail -3 "$d/near.out")"
    out=$(merged_like_spin "$d" "$name.pml") && ok || bad "$name: steps unlike spin -t -p: $out"
    check_json "$d/out.json" "$line in j['slice_lines']"
    [ -z "$absent" ] || check_json "$d/out.json" "$absent not in j['slice_lines']"
done

echo "nearest e2e: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
