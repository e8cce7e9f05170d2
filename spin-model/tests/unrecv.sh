#!/usr/bin/env bash
# A receive into a variable narrower than the message field (README "Known limits"):
# SPIN's pan undoes `q?b` by putting b's value back into q, truncated when b is
# narrower than the field, so stock pan goes on from states no run reaches and
# reports errors `spin -t` cannot replay.  ./pan -C puts the message taken back
# (sm_glue.c.inc's sm_pan_unrecv), says so on stderr, and then searches as SPIN's
# semantics says: its DFS and BFS builds give the same causes, the hand-derived ones;
# `pancause nearest` refuses stock pan's impossible trail and names the reason.
# Models without such receives get no note (the railway, below; every other suite).
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
FIX="$ROOT/spin-model/tests/fixtures"
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
. "$ROOT/spin-model/tests/check.sh"
causes() { # the causes of a pan -C JSON as sorted event sets, one per line
    python3 -c 'import json,sys
for c in sorted(" ".join(sorted(e for e in c["events"])) for c in json.load(open(sys.argv[1]))["causes"]): print(c)' "$1"
}
complete() { python3 -c 'import json,sys; sys.exit(json.load(open(sys.argv[1]))["complete"] is not True)' "$1"; }

# 1. stock pan's first error on narrow_recv_first.pml is of a run that does not exist
mkdir "$W/first" && cd "$W/first" && cp "$FIX/narrow_recv_first.pml" m.pml || exit 1
spin -a m.pml >/dev/null && gcc -O0 -w -o stock pan.c || exit 1
./stock >stock.out 2>&1
check "stock pan reports the assertion (SPIN's unrecv)" grep -q "^pan:1: assertion violated (seen==2)" stock.out
spin -t m.pml >replay.out 2>&1
check "spin -t cannot replay it (no violation on the trail's run)" \
    bash -c '! grep -q "assertion violated" replay.out'
make -s -f "$ROOT/Makefile" pan >/dev/null 2>&1 || exit 1
./pan -C --json out.json >out.txt 2>err.txt
check "pan -C: the hazard is not reachable" grep -q "hazard is not reachable" out.txt
check "pan -C: complete" complete out.json
check "pan -C: the note on stderr" grep -q "narrower than the message field) 1 time" err.txt
rm -f m.pml.trail
"$ROOT/bin/pancause" nearest m.pml >near.out 2>&1
rc=$?
check "nearest refuses stock pan's trail (exit 1, got $rc)" test $rc = 1
check "nearest names the reason" grep -q "wrong after receives into narrower variables" near.out
check "nearest leaves nothing behind" test ! -e m.pml.nearest.trail

# 2. narrow_recv.pml: DFS = BFS = the two causes derived by hand
for s in dfs bfs; do
    mkdir "$W/$s" && cd "$W/$s" && cp "$FIX/narrow_recv.pml" . || exit 1
    spin -a narrow_recv.pml >/dev/null || exit 1
    flag=
    [ $s = bfs ] && flag="BFS=1"
    make -s -f "$ROOT/Makefile" pan $flag >/dev/null 2>&1 || exit 1
    ./pan -C --json out.json >out.txt 2>err.txt
    check "$s: complete" complete out.json
    check "$s: the note on stderr" grep -q "pancause: note: SPIN's pan undoes a receive" err.txt
    printf 'Drop Last Three Two\nKeep Last Three Two\n' >want.txt
    causes out.json >got.txt
    check "$s: the causes derived by hand ($(tr '\n' ';' <got.txt))" cmp -s want.txt got.txt
done

# 3. no note where no receive narrows
mkdir "$W/railway" && cd "$W/railway" && cp "$ROOT/cases/railway/railway.pml" . || exit 1
spin -a railway.pml >/dev/null && make -s -f "$ROOT/Makefile" pan >/dev/null 2>&1 || exit 1
./pan -C >out.txt 2>err.txt
check "railway: no note" bash -c '! grep -q "pancause: note" err.txt'

finish unrecv
