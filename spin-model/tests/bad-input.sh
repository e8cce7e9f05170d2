#!/usr/bin/env bash
# Bad input gets a clear message and a non-zero exit, and leaves nothing half-built:
# missing pan.c, a pan.c from another SPIN or with another shape or of another model
# (other cpp options, edited since spin -a), a model without
# events, an unknown or refused option, an unwritable JSON path.  An unreachable
# hazard is no error: pan -C says so and exits 0.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
fails=0
expect() { # expect NAME WANT_RC PATTERN COMMAND...
    local name=$1 want=$2 pat=$3
    shift 3
    "$@" >"$W/out" 2>&1
    local got=$?
    if [ "$got" != "$want" ] || ! grep -q -- "$pat" "$W/out"; then
        echo "FAIL $name: exit $got (want $want), output:"
        sed 's/^/    /' "$W/out" | head -20
        fails=$((fails + 1))
    else
        echo "ok   $name"
    fi
}
mk() { make -s -f "$ROOT/Makefile" pan "$@"; }

# pan.c of another model than spin -d reads (make-pan.sh compares the states and
# lines of `spin -a` made again): made with `spin -DNAME -a`, or the model edited
# after `spin -a`.  The labels would land on other statements: refused, no pan built;
# SPINFLAGS passes the same options.
mkdir "$W/defines" && cd "$W/defines" || exit 1
printf 'byte x, y;\nactive proctype A() {\n#ifdef FEATURE\n  Fa: x = 1;\n#endif\n  Lb: y = 1;\n  Lc: y = 2;\n  assert(!(x == 1 && y == 2))\n}\n' >m.pml
spin -DFEATURE -a m.pml >/dev/null
expect "pan.c made with spin -DNAME, make pan without it" 2 "SPINFLAGS=" mk
[ ! -e pan ] || { echo "FAIL: a pan was built"; fails=$((fails + 1)); }
expect "the same, with SPINFLAGS=-DFEATURE" 0 "built ./pan" mk SPINFLAGS=-DFEATURE
expect "SPINFLAGS: the cause has Fa" 0 "Fa .& Lb .& Lc" ./pan -C
# $SPIN is the spin make pan runs (relative to where make starts); one that is not
# there is named
rm -f pan
expect "SPIN that does not exist" 2 "SPIN=.*/nospin: no such program" env SPIN=./nospin make -s -f "$ROOT/Makefile" pan SPINFLAGS=-DFEATURE
printf '#!/bin/sh\necho "$1" >>"%s/spin.log"\nexec spin "$@"\n' "$PWD" >myspin && chmod +x myspin
expect "a relative SPIN runs spin -d and the check" 0 "built ./pan" env SPIN=./myspin make -s -f "$ROOT/Makefile" pan SPINFLAGS=-DFEATURE
expect "spin -d and spin -a both through SPIN" 0 "^2$" grep -c -x -e -DFEATURE spin.log
rm -f pan && spin -a m.pml >/dev/null && sed -i 's/^  Lb: y = 1;/  Lz: x = 0;\n  Lb: y = 1;/' m.pml
expect "model edited after spin -a" 2 "the model changed since 'spin -a'" mk
[ ! -e pan ] || { echo "FAIL: a pan was built from a stale pan.c"; fails=$((fails + 1)); }
# an edit inside a line (a constant) keeps the states and lines: the statements' texts
# tell (the seventh probe's P7-5 was built and explained a model that was not there)
spin -a m.pml >/dev/null && sed -i 's/^  Lc: y = 2;/  Lc: y = 3;/' m.pml
expect "model edited inside a line after spin -a" 2 "the model changed since 'spin -a'" mk
[ ! -e pan ] || { echo "FAIL: a pan was built from a stale pan.c (edit inside a line)"; fails=$((fails + 1)); }

# a syntax error in an ltl block: spin -d fails, and SPIN's message (on its stdout,
# among the symbols) names the file and line (SPIN counts the ltl's line as the next)
printf 'bool p;\nactive proctype A() { L: p = true }\nltl h { [] (p -> ) }\n' >syn.pml
cp pan.c pan.c.keep && cp pan.h pan.h.keep && sed -i 's/"m.pml"/"syn.pml"/' pan.h
expect "syntax error in an ltl block: SPIN's message" 2 "syn.pml:4, Error: syntax error" mk
mv pan.c.keep pan.c && mv pan.h.keep pan.h

# SPIN's "dubious use of 'else' combined with i/o" is an Error: line SPIN verifies past:
# a note, and the model's cause (P5-8: refused before)
mkdir "$W/elserecv" && cd "$W/elserecv" || exit 1
cp "$ROOT/spin-model/tests/fixtures/else_recv.pml" . && spin -a else_recv.pml >/dev/null 2>&1
expect "else beside a receive: built, SPIN's message as a note" 0 "pancause: note: spin: else_recv.pml:.*dubious use of 'else'" mk
expect "else beside a receive: the cause" 0 "1. Ai & !Bs ]& Ai" ./pan -C

mkdir "$W/empty" && cd "$W/empty" || exit 1
expect "missing pan.c" 2 "no pan.c in" mk
[ ! -e pan ] || { echo "FAIL: a pan was left behind"; fails=$((fails + 1)); }

# a global no statement reads is a C variable in pan ("hidden"); named like a variable
# of pan's own search (t: its transition pointer) it would be overwritten there
# (./pan -C crashed): refused, naming the model's line, and no pan built
mkdir "$W/hidden" && cd "$W/hidden" || exit 1
printf 'byte v;\nbyte t;\nactive proctype P() { t = 1; (v == 1) }\n' >h.pml && spin -a h.pml >/dev/null
expect "hidden global named like pan's t" 2 "h.pml:2: the global variable 't' is never read" mk
[ ! -e pan ] || { echo "FAIL: a pan was built with a hidden t"; fails=$((fails + 1)); }
printf 'byte v;\nbyte x;\nactive proctype P() { x = 1; (v == 1) }\n' >h.pml && spin -a h.pml >/dev/null
expect "hidden global of another name builds" 0 "built ./pan" mk
printf 'byte v;\nbyte t;\nactive proctype P() { (v == 1) }\n' >h.pml && spin -a h.pml >/dev/null
expect "hidden t that nothing assigns builds" 0 "built ./pan" mk

mkdir "$W/old" && cd "$W/old" || exit 1
cp "$ROOT/cases/railway/railway.pml" . && spin -a railway.pml >/dev/null
sed -i 's/Spin Version 6.5.2/Spin Version 5.2.5/' pan.h
expect "pan.c from another SPIN" 2 "tested with SPIN 6.5.2 only" mk

mkdir "$W/shape" && cd "$W/shape" || exit 1
cp "$ROOT/cases/railway/railway.pml" . && spin -a railway.pml >/dev/null
sed -i 's/^Down:$/Down_moved:/' pan.c
expect "pan.c of another shape" 2 "anchor 'Down:' found 0 times" mk
[ ! -e pan ] || { echo "FAIL: a pan was built from a pan.c of the wrong shape"; fails=$((fails + 1)); }

mkdir "$W/shape-h" && cd "$W/shape-h" || exit 1
cp "$ROOT/cases/railway/railway.pml" . && spin -a railway.pml >/dev/null
sed -i 's/^struct H_el {$/struct H_el { \/\* edited \*\//' pan.h
expect "pan.h of another shape" 2 "pan.h does not have the shape" mk
[ ! -e pan ] && [ ! -e .pancause/pan_cause.c ] ||
    { echo "FAIL: something was built from a pan.h of the wrong shape"; fails=$((fails + 1)); }

mkdir "$W/badlabel" && cd "$W/badlabel" || exit 1
printf 'bool g, f;\nactive proctype P() {\n  if\n  :: Gc: g = true\n  :: Gf: f = true\n  fi\n}\nltl h { [] !f }\n' >m.pml
spin -a m.pml >/dev/null
expect "label SPIN drops (first statement of an option)" 2 "m.pml:4) label Gc placed incorrectly" mk
[ ! -e pan ] || { echo "FAIL: a pan was built from a model with errors"; fails=$((fails + 1)); }

mkdir "$W/nolabels" && cd "$W/nolabels" || exit 1
printf 'byte x;\nactive proctype P() { x = 1; x = 2; assert(x < 2) }\n' >m.pml
spin -a m.pml >/dev/null && mk >/dev/null
expect "model without events" 1 "has no events" ./pan -C

mkdir "$W/safe" && cd "$W/safe" || exit 1
printf 'byte x;\nactive proctype P() { A: x = 1; B: x = 2; assert(x < 3) }\n' >m.pml
spin -a m.pml >/dev/null && mk >/dev/null
expect "unreachable hazard" 0 "the hazard is not reachable" ./pan -C
expect "unknown option" 2 "unknown option --frobnicate" ./pan -C --frobnicate

# 70 labels x 240 processes: more event types than an edge's 14-bit event field holds
mkdir "$W/manyevents" && cd "$W/manyevents" || exit 1
python3 -c "
print('byte x;')
print('active [240] proctype P() {')
for i in range(70): print('  L%d: x = %d;' % (i, i % 200))
print('  assert(x < 250)')
print('}')" >m.pml
spin -a m.pml >/dev/null && mk PANFLAGS=-DVECTORSZ=4096 >/dev/null
expect "more event types than an edge holds" 1 "more than 16383 events" ./pan -C -m100000 --json out.json
[ ! -e out.json ] || { echo "FAIL: a JSON was written"; fails=$((fails + 1)); }
# pan stops before its first state (240 processes overflow VECTORSZ): -C says so, exit 1
printf 'byte x;\nactive [240] proctype P() { L0: x = 1; L1: x = 2 }\n' >v.pml
spin -a v.pml >/dev/null && mk >/dev/null
expect "pan stops before its search" 1 "pan stopped before its search began" ./pan -C --json out.json
[ ! -e out.json ] || { echo "FAIL: a JSON was written"; fails=$((fails + 1)); }
cd "$W/safe" || exit 1
expect "refused option -a" 2 "safety search" ./pan -C -a
expect "-w64 (pan crashes from -w63 on)" 2 "-w40 is the most" ./pan -C -w64
expect "--json without a file" 2 "needs a file name" ./pan -C --json
expect "unwritable --json path (refused before the search)" 2 "cannot write" ./pan -C --json "$W/no/such/dir/out.json"
ls "$W/no/such/dir" >/dev/null 2>&1 && { echo "FAIL: partial output"; fails=$((fails + 1)); }
expect "help" 0 "--no-ac2" ./pan -C --help

mkdir "$W/depth" && cd "$W/depth" || exit 1
cp "$ROOT/cases/railway/railway.pml" . && spin -a railway.pml >/dev/null && mk >/dev/null
expect "depth limit makes the result incomplete" 0 "INCOMPLETE: the search depth limit" \
    ./pan -C -m8 --json d.json
grep -q '"complete": false' d.json || { echo "FAIL: JSON does not say incomplete"; fails=$((fails + 1)); }

# a label that names no move (on a goto: SPIN jumps over it) is a note with its line; the
# labels SPIN writes into never claims (T0_init of an ltl block, selected or not) are not
# the user's and get none (the fourth probe, P4-1: a note on another claim's T0_init)
mkdir "$W/idle" && cd "$W/idle" || exit 1
cat >idle.pml <<'PML'
byte x;
active proctype A() {
  L: x = 1;
  G: goto done;
done:
  assert(x == 0)
}
ltl never_two { [] (x != 2) }
ltl never_three { [] (x != 3) }
PML
spin -a idle.pml >/dev/null && mk >/dev/null
expect "idle label: a note with its line" 0 "note: label G (idle.pml:4, proctype A) names no move" \
    ./pan -C -N never_three
grep -q "T0_init" "$W/out" && { echo "FAIL: a note on a never claim's label"; fails=$((fails + 1)); }
expect "idle label: the other claim selected" 0 "note: label G" ./pan -C -N never_two
grep -q "T0_init" "$W/out" && { echo "FAIL: a note on a never claim's label"; fails=$((fails + 1)); }
# two labels on one statement: the move is the first's event, and the note says so (the
# seventh probe's P7-4: it blamed a goto, a d_step or dead code)
mkdir "$W/twolab" && cd "$W/twolab" || exit 1
printf 'byte g;\nactive proctype A() { byte l; L1: L2: g = 1; l = 1; assert(g == 0) }\nactive proctype B() { LB: g = 0 }\n' >twolab.pml
spin -a twolab.pml >/dev/null && mk >/dev/null
expect "two labels: the second is named as the first's" 0 \
    "note: label L2 (twolab.pml:2, proctype A) is a second label of the statement labelled L1" ./pan -C
grep -q "names no move" "$W/out" && { echo "FAIL: two labels: the goto note"; fails=$((fails + 1)); }

# a division by zero in a move: pan does not check divisors and dies of SIGFPE (stock
# pan too); pan -C names the move's line, writes nothing and exits 1 (seventh probe P7-6)
mkdir "$W/div0" && cd "$W/div0" || exit 1
printf 'byte g;\nactive proctype A() { byte x; LA: x = 6 %% g }\n' >div0.pml
spin -a div0.pml >/dev/null && mk >/dev/null
expect "division by zero: the move's line, exit 1" 1 \
    "an arithmetic error (a division or modulo by zero) in a move of proctype A at div0.pml:2" \
    ./pan -C --json out.json
[ ! -e out.json ] || { echo "FAIL: division by zero: out.json written"; fails=$((fails + 1)); }

[ $fails -eq 0 ]
