#!/usr/bin/env bash
# End-to-end tests of `pancause explain` with the real spin: makes trails
# with pan for the fixture models, then checks the command's JSON, table,
# NuSMV input, and its messages and exit codes on bad input.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
pc="$root/bin/pancause"
fix="$here/fixtures"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
pass=0 fail=0
if ! command -v spin >/dev/null; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y spin >/dev/null 2>&1 || { apt-get update >/dev/null 2>&1 && apt-get install -y spin >/dev/null 2>&1; } ||
        { echo "e2e_spin: spin is not installed and cannot be installed"; exit 1; }
fi

ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
# expect NAME WANT_RC WANT_TEXT -- command...   (WANT_TEXT must occur in stdout+stderr)
expect() {
    local name="$1" rc="$2" want="$3"
    shift 4
    local out
    out="$("$@" 2>&1)"
    local got=$?
    if [ "$got" != "$rc" ]; then bad "$name: exit $got, want $rc: $out"; return; fi
    case "$out" in *"$want"*) ok ;; *) bad "$name: output lacks '$want': $out" ;; esac
}

mktrail() { # dir model pan-args...
    local d="$1" m="$2"
    shift 2
    (cd "$d" && spin -a "$m" >/dev/null && cc -O1 -w -o pan pan.c && ./pan "$@" >/dev/null 2>&1)
    [ -s "$d/$m.trail" ] || { echo "no trail for $m"; exit 1; }
}

cp "$fix/procs.pml" "$fix/live.pml" "$work/"
cat >"$work/two.pml" <<'PML'
byte x;
bool b;
active proctype P() { do :: x < 6 -> x++ :: x == 3 -> b = true od }
ltl small { [] (x < 5) }
ltl never_b { [] !b }
PML
mktrail "$work" procs.pml -a
mktrail "$work" live.pml -a
mktrail "$work" two.pml -N small

# 1. a safety trail: the formula from the model's only ltl block
# (init's rendezvous rv!5 and Wk[2]'s rv?got are one position: step 6)
expect "procs json" 0 '{"formula": "[] ((s.f<6))", "status": "fails", "holds": false, "first_failure": 6, "loop_start": null, "dots": [{"step": 6, "variable": "s.f", "exact": null}]}' -- \
    "$pc" explain "$work/procs.pml" --json
# 2. an acceptance cycle is a lasso; no finite failure
expect "live json" 0 '"first_failure": null, "loop_start": 3' -- "$pc" explain "$work/live.pml" --json
n=$("$pc" explain "$work/live.pml" --json | grep -o '"step"' | wc -l)
[ "$n" = 14 ] && ok || bad "live: $n dots, want 14"
# 3. the table when stdout is not a terminal: plain markers
expect "table marker" 0 ' 6 | 7 *  <- first failure' -- "$pc" explain "$work/procs.pml"
expect "table loop" 0 '<- loop starts' -- "$pc" explain "$work/live.pml"
# 4. several ltl blocks: the trail's claim is the default; --ltl and --formula choose
expect "default claim" 0 '"formula": "[] ((x<5))"' -- "$pc" explain "$work/two.pml" --json
expect "--formula" 0 '"variable": "x"' -- "$pc" explain "$work/two.pml" --formula '[] (x <= 3)' --json
expect "--ltl other holds" 3 'nothing to explain' -- "$pc" explain "$work/two.pml" --ltl never_b
expect "--exact" 0 '"exact": true' -- "$pc" explain "$work/two.pml" --exact --json
expect "remote ref" 0 '"variable": "Wk[2]:got"' -- "$pc" explain "$work/procs.pml" --formula '[] (Wk[2]:got < 5)' --json
expect "channel length" 0 '"variable": "len(Wk[1]:lc)"' -- "$pc" explain "$work/procs.pml" --formula '[] (len(Wk[1]:lc) == 0)' --json
# 5. bad input: clear messages naming file and line, non-zero exit
expect "trail mismatch" 1 'trail does not match' -- "$pc" explain "$work/procs.pml" --trail "$work/live.pml.trail"
# a d_step is one move of pan: spin -t prints each of its statements (same step number),
# and they are one state of the trace, so x == 1, which no run of pan has, is no state
cat >"$work/ds.pml" <<'PML'
byte x = 0; byte y = 0;
active proctype A() {
  d_step { x = 1; x = 2 };
  y = 1
}
ltl p1 { [] (y == 0) }
ltl p2 { [] (x != 1) }
PML
mktrail "$work" ds.pml -a -N p1
expect "d_step: its inside is no state" 3 'nothing to explain' -- "$pc" explain "$work/ds.pml" --ltl p2
expect "d_step: the failure at the trail's step" 0 '"first_failure": 2' -- "$pc" explain "$work/ds.pml" --ltl p1 --json
# a trail of another model on which spin's replay goes on after "transition failed":
# the message names the step that failed and its line, not the end of the trail
cat >"$work/ma.pml" <<'PML'
byte x;
active proctype A() {
  do
  :: x < 2 -> Inc: x++
  :: x == 2 -> break
  od;
  assert(x != 2)
}
PML
cat >"$work/mb.pml" <<'PML'
chan c = [1] of { byte };
byte cnt;
active proctype A() {
  do
  :: atomic { cnt < 3 -> c!1 }
  :: cnt >= 3 -> break
  od
}
active proctype B() {
  do
  :: c?_ -> cnt++
  :: timeout -> break
  od
}
PML
mktrail "$work" ma.pml
expect "trail mismatch: the failed step" 1 'ma.pml.trail:6: trail does not match' -- \
    "$pc" explain "$work/mb.pml" --trail "$work/ma.pml.trail" --formula '[] (cnt < 5)'
expect "missing trail" 1 'cannot read trail' -- "$pc" explain "$work/procs.pml" --trail "$work/nope.trail"
expect "unknown variable" 1 "unknown variable 'nosuch'" -- "$pc" explain "$work/procs.pml" --formula '[] (nosuch > 0)'
expect "a label reference to a proctype the model lacks" 1 "'P[0]@crit': proctype P has no label crit" -- \
    "$pc" explain "$work/procs.pml" --formula '[] !(P[0]@crit)'
expect "formula syntax" 1 'column 9: expected an expression' -- "$pc" explain "$work/procs.pml" --formula '[] (x < )'
expect "unknown on finite" 3 'does not falsify' -- "$pc" explain "$work/procs.pml" --formula '[] (s.f < 100)'
expect "holds on lasso" 3 'nothing to explain: the formula' -- "$pc" explain "$work/live.pml" --formula '[] (n < 4)'
expect "unknown ltl" 1 "no ltl formula named 'zz' (it has: small, never_b)" -- "$pc" explain "$work/two.pml" --ltl zz
# remote label references P[pid]@L and P@L (SPIN's own mutual exclusion idiom): each
# process's location at every trace position, checked against SPIN itself: at each
# position, `spin -t -uD` lists every running process with its state after D - 1 steps
# (D - 1 the position's step number; 0 for the initial state), and `spin -d` gives the
# labels' states.  at.pml starts processes,
# has a d_step, a process that ends and a pid used again.
mkdir -p "$work/at" && cp "$fix/at.pml" "$work/at/" && mktrail "$work/at" at.pml -a
f='[] !(A@M && B@N && (A@L + A[0]@M + B@K + B[1]@K + B[1]@N) >= 0)'
(cd "$work/at" && "$pc" explain at.pml --formula "$f" >table.txt 2>&1 &&
    spin -t -p -g -l -w -b -k at.pml.trail at.pml >replay.txt 2>&1 && spin -d at.pml >sym.txt &&
    for d in $(grep -oE '^ *[0-9]+:' replay.txt | tr -d ' :' | uniq | awk '{print $1 + 1}') 1; do
        spin -t -u"$d" -g -l -w -b -k at.pml.trail at.pml >"u$d.txt" 2>&1
    done)
python3 - "$work/at" <<'PY' && ok || bad "P@L: explain's locations differ from SPIN's dumps"
import re, sys, os
d = sys.argv[1]
rows = [l.split("|") for l in open(f"{d}/table.txt") if re.match(r"^ *\d+ \|", l)]
head = [h.strip() for h in next(l for l in open(f"{d}/table.txt") if l.startswith("step")).split("|")]
labels = {}
for l in open(f"{d}/sym.txt"):
    m = re.match(r"label\t(\w+)\t(\d+)\t<(\w+)", l)
    if m:
        labels[(m.group(3), m.group(1))] = int(m.group(2))
# the positions: the initial state (-u1: the claim's first move), then one per step line
# (a d_step's lines share their step number)
depths = [1] + [int(x) + 1 for x in dict.fromkeys(re.findall(r"(?m)^ *(\d+):\s+proc", open(f"{d}/replay.txt").read()))]
def listing(dep):
    text = open(f"{d}/u{dep}.txt").read().split("#processes:")[1]
    return {int(m.group(1)): (m.group(2), int(m.group(3)))
            for m in re.finditer(r"proc +(\d+) \((\w+):\d+\)[^\n]*\(state (\d+)\)", text)}
bad = 0
for k, r in enumerate(rows):
    where = listing(depths[int(r[0])])
    for col, cell in zip(head[1:], r[1:]):
        m = re.match(r"(\w+)(?:\[(\d+)\])?@(\w+)$", col)
        pt, pid, lab = m.group(1), m.group(2), m.group(3)
        if pid is None:
            pids = sorted(p for p, (t, s) in where.items() if t == pt)
            pid = pids[0] if pids else None
        else:
            pid = int(pid)
        want = int(pid in where and where[pid] == (pt, labels[(pt, lab)]))
        got = int(cell.split()[0])
        if want != got:
            bad += 1
            print(f"position {r[0]}: {col} = {got}, SPIN's dump says {want}")
print(f"{len(rows)} positions x {len(head) - 1} columns")
sys.exit(1 if bad or len(rows) < 10 else 0)
PY
# the model's own ltl: the mutual exclusion of a broken lock, both at crit at the end
cat >"$work/mutex.pml" <<'PML'
bool want[2];
byte turn;
active [2] proctype P() {
    do
    :: want[_pid] = true;
       (turn == _pid || !want[1 - _pid]);
crit:  skip;
       want[_pid] = false;
       turn = 1 - _pid
    od
}
ltl mutex { [] !(P[0]@crit && P[1]@crit) }
PML
mktrail "$work" mutex.pml -a
expect "mutex: both processes at crit at the first failure" 0 '"dots": [{"step": ' -- "$pc" explain "$work/mutex.pml" --json
n=$("$pc" explain "$work/mutex.pml" --json | grep -oE '"variable": "P\[[01]\]@crit"' | sort -u | wc -l)
[ "$n" = 2 ] && ok || bad "mutex: dots on $n of P[0]@crit, P[1]@crit"
expect "a label the proctype lacks" 1 "'P[0]@nope': proctype P has no label nope" -- \
    "$pc" explain "$work/mutex.pml" --formula '[] !(P[0]@nope)'
expect "a pid that runs another proctype" 1 "pid 0 runs proctype A, not B" -- \
    "$pc" explain "$work/at/at.pml" --formula '[] !(B[0]@K)'
expect "'@' needs a label" 1 "expected a label name after '@'" -- \
    "$pc" explain "$work/mutex.pml" --formula '[] !(P[0]@)'
printf 'active proctype P() { int x; x = ; }\n' >"$work/broken.pml"
cp "$work/procs.pml.trail" "$work/broken.pml.trail"
expect "model syntax" 1 'broken.pml:1' -- "$pc" explain "$work/broken.pml"
expect "usage" 2 'give either a SPIN model' -- "$pc" explain
expect "help" 0 'usage: pancause explain' -- "$pc" explain --help
# a process's locals before its first move: spin -t prints a local only when its process
# moves; they come from SPIN's dump right after the step that starts the process (third
# probe H3: the model's own formula was refused, and this one failed at step 3, not 1)
cat >"$work/late.pml" <<'PML'
byte go = 0;
proctype P() { byte y = 5; go == 2; y = 7 }
init { run P(); go = 1; go = 2 }
ltl p1 { [] (go < 2) }
ltl p2 { (P[1]:y != 5) U (go == 2) }
ltl p3 { [] (P[1]:y != 5) }
PML
mktrail "$work" late.pml -a -N p1
expect "local before its process moves: U" 0 '"first_failure": 1, "loop_start": null, "dots": [{"step": 0, "variable": "go", "exact": null}, {"step": 1, "variable": "go", "exact": null}, {"step": 1, "variable": "P[1]:y", "exact": null}]' -- \
    "$pc" explain "$work/late.pml" --ltl p2 --json
expect "local before its process moves: G" 0 ' 1 | 5 *     <- first failure' -- \
    "$pc" explain "$work/late.pml" --ltl p3
# a process started inside an atomic sequence, after another start, and a pid reused:
# both Q die and Q(5) takes pid 1 again: z = 5 until it moves, never (not the old z = 9)
cat >"$work/reuse.pml" <<'PML'
byte n = 0;
proctype Q(byte a) { byte z = a; n == 1 -> z = 9 }
init { atomic { run Q(3); run Q(4) }; n = 1; (_nr_pr <= 2); n = 2; run Q(5); n = 3 }
ltl p1 { [] (n < 3) }
PML
mktrail "$work" reuse.pml -a
"$pc" explain "$work/reuse.pml" --all-vars >"$work/reuse.out" 2>&1
# the last row: n = 3, the new Q[1] has z = 5 and a = 5
grep -Eq '\| 3 \* +\| 5 +\| 5 ' "$work/reuse.out" && ok || bad "pid reuse: $(cat "$work/reuse.out")"
grep -Eq '^ +2 \| 0 +\| 3 +\| 3 +\| 4 +\| 4' "$work/reuse.out" && ok || bad "atomic starts: $(cat "$work/reuse.out")"
# channels SPIN never prints: a global queue before its first use, a rendezvous channel
cat >"$work/chq.pml" <<'PML'
chan q = [2] of { byte };
chan c = [0] of { byte };
byte x = 0;
active proctype A() { x = 1; c!7; x = 2; q!1 }
active proctype B() { c?_ }
ltl p { [] (x < 2 || len(q) > 0) }
PML
mktrail "$work" chq.pml -a
# (c!7 and c?_ are one position: the failure is at 4)
expect "empty channel: len 0" 0 '"first_failure": 4, "loop_start": null, "dots": [{"step": 4, "variable": "x", "exact": null}, {"step": 4, "variable": "len(q)", "exact": null}]' -- \
    "$pc" explain "$work/chq.pml" --json
expect "rendezvous channel: len 0" 3 'nothing to explain' -- \
    "$pc" explain "$work/chq.pml" --formula '[] (len(c) == 0)'
# The eighth probe's findings, each against pan itself: a formula pan proves (errors: 0)
# must not be explained as failing, and pan's own trail of a model's formula must be.
# pan_errors DIR MODEL PAN-ARGS...: the number of errors pan reports (no reduction, as
# the probe ran it).
pan_errors() {
    local d="$1" m="$2"
    shift 2
    (cd "$d" && spin -a "$m" >/dev/null && cc -O1 -w -DNOREDUCE -o pan pan.c &&
        ./pan "$@" 2>&1 | sed -n 's/.*errors: \([0-9]*\).*/\1/p')
}
# P8-1: a process that has ended reads 0 in pan (delproc zeroes its slot), shown '-'
mkdir -p "$work/p81" "$work/p81n"
cat >"$work/p81/e5.pml" <<'PML'
bool flag;
active proctype M() { timeout; flag = 1 }
active proctype Wk() { byte loc; loc = 7 }
ltl p1 { [] (flag -> Wk[1]:loc == 7) }
PML
sed 's/== 7/!= 7/' "$work/p81/e5.pml" >"$work/p81n/e5n.pml"
[ "$(pan_errors "$work/p81" e5.pml -a)" = 1 ] && ok || bad "P8-1: pan finds no trail for == 7"
[ "$(pan_errors "$work/p81n" e5n.pml -a)" = 0 ] && ok || bad "P8-1: pan does not prove != 7"
expect "P8-1: pan's trail of the model's formula is explained" 0 ' 4 | 1 *  | - *' -- \
    "$pc" explain "$work/p81/e5.pml"
expect "P8-1: a formula pan proves is not explained as failing" 3 'nothing to explain' -- \
    "$pc" explain "$work/p81/e5.pml" --formula '[] (flag -> Wk[1]:loc != 7)'
expect "P8-1: the local is undefined from the process's end" 0 '"first_failure": 2' -- \
    "$pc" explain "$work/p81/e5.pml" --formula '[] (Wk[1]:loc == 7 -> X (Wk[1]:loc == 7))' --json
# P8-3: the state between a rendezvous send and its receive is no position
mkdir -p "$work/p83"
cat >"$work/p83/e11.pml" <<'PML'
chan c = [0] of { byte };
byte g;
active proctype S() { c!1; after: g = 1 }
active proctype R() { byte v; before: c?v; done: g = 2 }
ltl p1 { [] !(S[0]@after && R[1]@before) }
ltl p2 { [] (g != 2) }
PML
[ "$(pan_errors "$work/p83" e11.pml -a -N p1)" = 0 ] && ok || bad "P8-3: pan does not prove p1"
mktrail "$work/p83" e11.pml -a -N p2
expect "P8-3: no position between a rendezvous's send and receive" 3 'nothing to explain' -- \
    "$pc" explain "$work/p83/e11.pml" --ltl p1
expect "P8-3: the handshake is one position" 0 '"first_failure": 2' -- \
    "$pc" explain "$work/p83/e11.pml" --ltl p2 --json
# an atomic sequence's inside stays positions, with a note when the first failure is
# there and the trail's never claim did not see it (pan proves p1)
cat >"$work/p83/e28.pml" <<'PML'
byte x, y;
chan r = [0] of { byte };
chan c = [1] of { byte };
active proctype A() { atomic { x = 1; c!1; x = 0 }; y = 1 }
ltl p1 { [] (x == 0) }
ltl p2 { [] (y == 0) }
PML
[ "$(pan_errors "$work/p83" e28.pml -a -N p1)" = 0 ] && ok || bad "P8-3: pan does not prove x == 0"
mktrail "$work/p83" e28.pml -a -N p2
expect "P8-3: a failure inside an atomic sequence is noted" 0 \
    'note: The first failure is at step 1, a state inside an atomic sequence' -- \
    "$pc" explain "$work/p83/e28.pml" --ltl p1
"$pc" explain "$work/p83/e28.pml" --ltl p2 --json | grep -q '"note"' &&
    bad "P8-3: a note on a failure the claim saw" || ok
# P8-6: struct locals by their true pid (SPIN prints B(2):t.f for pid 1 under a claim)
mkdir -p "$work/p86"
cat >"$work/p86/e19.pml" <<'PML'
typedef S { byte f };
byte x;
proctype B(byte v) { S t; byte w = v; t.f = v; x = x + 1 }
init { atomic { run B(5); run B(7) }; x == 2 }
ltl p1 { [] (x != 2) }
PML
mktrail "$work/p86" e19.pml -a
expect "P8-6: B[2]:t.f is process 2's (7 throughout)" 3 'nothing to explain' -- \
    "$pc" explain "$work/p86/e19.pml" --formula '[] (B[2]:t.f != 5)'
expect "P8-6: B[1]:t.f is process 1's" 0 '"variable": "B[1]:t.f"' -- \
    "$pc" explain "$work/p86/e19.pml" --formula '[] (B[1]:t.f != 5)' --json
expect "P8-6: no process 3" 1 "unknown variable 'B[3]:t.f'" -- \
    "$pc" explain "$work/p86/e19.pml" --formula '[] (B[3]:t.f != 5)'
# every local at every position against SPIN's own dumps (`spin -t -uD`), whose struct
# names are corrected by the process line they are printed under, and a process the
# dump does not list reads '-': with a never claim (ends.pml) and without (ends_a.pml)
mkdir -p "$work/ends"
cp "$fix/ends.pml" "$work/ends/"
sed -e 's/^ltl.*//' -e 's/n = 9/n = 9; assert(n < 9)/' -e 's/_nr_pr <= 2/_nr_pr == 1/' \
    "$fix/ends.pml" >"$work/ends/ends_a.pml"
mktrail "$work/ends" ends.pml -a
mktrail "$work/ends" ends_a.pml
for m in ends ends_a; do
    python3 - "$work/ends" "$m.pml" "$pc" <<'PY' && ok || bad "$m: explain's locals differ from SPIN's dumps"
import re, subprocess, sys
d, model, pc = sys.argv[1:4]
def run(*a):
    return subprocess.run(a, cwd=d, capture_output=True, text=True).stdout
table = run(pc, "explain", model, "--all-vars", "--formula", "[] (n < 9)")
head = [h.strip() for h in next(l for l in table.splitlines() if l.startswith("step")).split("|")]
rows = [[c.strip().split(" ")[0] for c in l.split("|")] for l in table.splitlines()
        if re.match(r"^ *\d+ \|", l)]
# the positions: the initial state, then one per step line, except a d_step's statements
# (one step number) and a rendezvous's receive (after a "Sent" line), which join the
# position before; each read from the dump after the position's last step
replay = run("spin", "-t", "-p", "-s", "-g", "-l", "-w", "-b", "-k", model + ".trail", model)
depths, last, sent, after = [1], None, False, False
for l in replay.split("spin: trail ends")[0].splitlines():
    m = re.match(r"^ *(\d+):\s+proc\s+(.*)", l)
    if not m:
        continue
    if " Sent " in l and "(state " not in l:
        sent = True
        continue
    key = (m.group(1), m.group(2).split(")")[0])
    if after or key == last:
        depths[-1] = int(m.group(1)) + 1
    else:
        depths.append(int(m.group(1)) + 1)
    last, after, sent = key, sent, False
def dump(dep):
    text = run("spin", "-t", "-u%d" % dep, "-g", "-l", "-w", "-b", "-k", model + ".trail", model)
    vals, owner = {}, None
    for l in text.split("#processes:")[1].splitlines():
        m = re.match(r"^ *\d+:\s+proc +(\d+) \((\S+?):\d+\)", l)
        if m:
            owner = (int(m.group(1)), m.group(2))
            continue
        m = re.match(r"^\t\t(:init:|\w+)\((\d+)\):(\S+) = (\S+)", l)
        if m and owner and m.group(1) == owner[1]:
            vals["%s[%d]:%s" % (m.group(1).replace(":init:", "init"), owner[0], m.group(3))] = m.group(4)
    return vals
bad = 0
for r in rows:
    vals = dump(depths[int(r[0])])
    for col, cell in zip(head[1:], r[1:]):
        if ":" in col and not col.startswith("len("):
            want = vals.get(col, "-")
            if want != cell:
                bad += 1
                print(f"{model} position {r[0]}: {col} = {cell}, SPIN's dump says {want}")
print(f"{model}: {len(rows)} positions x {len(head) - 1} columns")
sys.exit(1 if bad or len(rows) < 10 or "W[1]:t.f" not in head or "init[0]:s.f" not in head else 0)
PY
done
# P8-10: mtype symbols compare by SPIN's numbers (each declaration numbered from its last:
# red 3, green 2, blue 1, then cyan 5, magenta 4; `mtype:m` from 1 on its own)
mkdir -p "$work/p810" "$work/p810n"
cat >"$work/p810/e25.pml" <<'PML'
mtype = { red, green, blue };
mtype = { cyan, magenta };
mtype:fruit = { apple, pear };
mtype col = green;
mtype:fruit fr = pear;
active proctype A() { col = red; fr = apple; col = cyan; col = blue }
ltl p { [] (col <= green) }
ltl q { [] (col >= blue && col != magenta && fr <= apple) }
ltl r { [] (col < magenta) }
PML
cp "$work/p810/e25.pml" "$work/p810n/"
[ "$(pan_errors "$work/p810n" e25.pml -a -N q)" = 0 ] && ok || bad "P8-10: pan does not prove q"
mktrail "$work/p810n" e25.pml -a -N r
mktrail "$work/p810" e25.pml -a -N p
expect "P8-10: pan's own trail of col <= green" 0 '"first_failure": 1' -- \
    "$pc" explain "$work/p810/e25.pml" --ltl p --json
expect "P8-10: a formula over mtype order pan proves" 3 'nothing to explain' -- \
    "$pc" explain "$work/p810/e25.pml" --ltl q
expect "P8-10: a second declaration numbers after the first" 0 '"first_failure": 3' -- \
    "$pc" explain "$work/p810n/e25.pml" --ltl r --json
# --spin: a relative path, and a spin that fails is named with its own message
cp "$(command -v spin)" "$work/myspin"
printf '#!/bin/sh\necho "spin: out of memory" >&2\nexit 1\n' >"$work/fakespin"
chmod +x "$work/fakespin"
expect "relative --spin" 0 'first failure' -- sh -c "cd '$work' && '$pc' explain late.pml --ltl p3 --spin ./myspin"
expect "failing spin" 1 'failed with exit status 1: spin: out of memory' -- \
    "$pc" explain "$work/late.pml" --ltl p3 --spin "$work/fakespin"
# 6. NuSMV: every false LTL specification, CTL skipped with a reason
expect "nusmv" 0 'skipping' -- "$pc" explain --nusmv "$fix/nusmv_live.txt" --json
n=$("$pc" explain --nusmv "$fix/nusmv_live.txt" --json 2>/dev/null | wc -l)
[ "$n" = 4 ] && ok || bad "nusmv: $n records, want 4 (one per specification)"
"$pc" explain --nusmv "$fix/nusmv_live.txt" --json 2>/dev/null | sed -n 2p | grep -q '"formula": "G n < 3", "status": "holds", "holds": true' &&
    ok || bad "nusmv: the true specification's record is line 2"
"$pc" explain --nusmv "$fix/nusmv_live.txt" --json 2>/dev/null | sed -n 3p | grep -q '"status": "skipped"' &&
    ok || bad "nusmv: the CTL specification's record is line 3, skipped"
expect "nusmv malformed" 1 'nusmv_bad_line.txt:4:' -- "$pc" explain --nusmv "$fix/nusmv_bad_line.txt"

echo "e2e_spin: $pass passed, $fail failed"
[ "$fail" = 0 ]
