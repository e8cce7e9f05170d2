#!/usr/bin/env bash
# e2e_spin.sh - `pancause temporal MODEL.pml`: Promela arbiters (models/) whose
# causes must equal the HOA arbiters' causes by cause checking (--check:
# synthesis plus the equivalence test), with a trail of stock pan -a, without a
# trail (the lasso found here), and from the ltl formula or --effect; then bad
# input: an input that is no variable, a trail that is no acceptance cycle, a
# formula that holds on the trail (exit 3, as explain), a model that is not
# input-enabled, an effect over an expression.  Needs spin and cc.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=${PANCAUSE:-$root/bin/pancause}
models=$root/temporal/tests/models
hoa=$root/cases/temporal-oracle/instances
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
n=0
cp "$models"/*.pml "$work"/
cd "$work" || exit 1

# expect NAME STATUS PATTERN -- ARGS: the exit status and a line of the output
expect() {
    local name=$1 want=$2 pat=$3
    shift 4
    n=$((n + 1))
    out=$("$bin" temporal "$@" 2>&1)
    rc=$?
    if [ $rc -ne "$want" ] || ! grep -qE -- "$pat" <<<"$out"; then
        echo "FAIL $name: exit $rc (want $want), output:"
        sed 's/^/    /' <<<"$out" | head -8
        fail=$((fail + 1))
    else
        echo "ok   $name"
    fi
}

# a trail of stock pan -a for the unfair arbiter's `granted0` (<> g0)
mkdir trail && cp unfair2.pml trail/ && (cd trail && spin -a unfair2.pml >/dev/null &&
    cc -O0 -w -o pan pan.c && ./pan -a -N granted0 >/dev/null 2>&1)
[ -f trail/unfair2.pml.trail ] || { echo "FAIL: stock pan -a made no trail"; exit 1; }
cp trail/unfair2.pml.trail unfair2.trail

# the HOA arbiter's cause of G !g0, for comparison: G r1 (the paper's r_prio)
expect "HOA unfair arbiter: G r1" 0 'description: G r1 ' -- \
    --system "$hoa/arbiter-unfair-2.hoa" --trace 'cycle{r0&r1&!g0&g1}' --effect 'G !g0'
for rel in subset full; do
    expect "unfair2.pml --effect 'G !g0' ($rel): G r1 as for the HOA" 0 'check: G r1 IS the cause' -- \
        unfair2.pml --inputs r0,r1 --trail unfair2.trail --effect 'G !g0' --relation $rel \
        --check 'G r1'
done
expect "unfair2.pml ltl granted0 (<> g0) on pan -a's trail: G r1" 0 'check: G r1 IS the cause' -- \
    unfair2.pml --inputs r0,r1 --trail unfair2.trail --ltl granted0 --check 'G r1'
expect "unfair2.pml: F G r1 is not the cause of G !g0" 4 'is NOT the cause' -- \
    unfair2.pml --inputs r0,r1 --trail unfair2.trail --ltl granted0 --check 'F G r1'
expect "unfair2.pml --effect 'F G !g0': F G r1" 0 'check: F G r1 IS the cause' -- \
    unfair2.pml --inputs r0,r1 --trail unfair2.trail --effect 'F G !g0' --check 'F G r1'
# without a trail the lasso is found here: no requests at all, and the cause
# is then that client 0 never requests, as for the HOA arbiter on that trace
expect "unfair2.pml without a trail: a lasso found here" 0 'check: G !r0 IS the cause' -- \
    unfair2.pml --inputs r0,r1 --ltl granted0 --check 'G !r0'
expect "HOA unfair arbiter without requests: G !r0" 0 'check: G !r0 IS the cause' -- \
    --system "$hoa/arbiter-unfair-2.hoa" --trace 'cycle{!r0&!r1&!g0&!g1}' --effect 'G !g0' \
    --check 'G !r0'
"$bin" temporal unfair2.pml --inputs r0,r1 --trail unfair2.trail --effect 'G !g0' \
    --hoa pml.hoa >/dev/null 2>&1
expect "the written HOA is the HOA arbiter's cause" 0 'check: .* IS the cause' -- \
    --system "$hoa/arbiter-unfair-2.hoa" --trace 'cycle{r0&r1&!g0&g1}' --effect 'G !g0' \
    --check-hoa pml.hoa
expect "JSON output" 0 '"cause_exists": true' -- \
    unfair2.pml --inputs r0,r1 --trail unfair2.trail --effect 'G !g0' --json
for rel in subset full; do
    expect "spurious2.pml (d_steps, no end label) ($rel): true as for the HOA" 0 \
        'check: true IS the cause' -- spurious2.pml --inputs r0,r1 --relation $rel --check true
done
expect "HOA spurious arbiter: true" 0 'check: true IS the cause' -- \
    --system "$hoa/arbiter-spurious-2.hoa" --trace 'cycle{r0&r1&g0&!g1;r0&r1&!g0&g1}' \
    --effect 'F g0' --check true

# bad input
expect "an input that is no variable" 1 'the input rx is no variable' -- \
    unfair2.pml --inputs r0,rx --effect 'G !g0'
expect "an effect proposition that is no variable" 1 "proposition gx is no variable" -- \
    unfair2.pml --inputs r0,r1 --effect 'G !gx'
sed '/^-1:-1:-1$/d' unfair2.trail >nocycle.trail
expect "a trail without a cycle" 1 'not an acceptance cycle: no -1:-1:-1' -- \
    unfair2.pml --inputs r0,r1 --trail nocycle.trail --ltl granted0
head -n -1 unfair2.trail >short.trail
expect "a cycle that does not close" 1 'not an acceptance cycle: the system' -- \
    unfair2.pml --inputs r0,r1 --trail short.trail --ltl granted0
printf -- '-1:-1:-1\n1:0:99\n' >alien.trail
expect "a move that is no move of the model" 1 'alien.trail:2: move 0:99 is no move' -- \
    unfair2.pml --inputs r0,r1 --trail alien.trail --ltl granted0
# stock pan's safety trail of this very model (an assert): named as no acceptance cycle,
# not as a trail of another model (fourth probe P4-6)
cat >assert.pml <<'PML'
bool r0, g0;
active proctype P() {
end:
  do
  :: atomic { if :: r0 = true :: r0 = false fi; g0 = r0 }
  :: atomic { r0 = true; g0 = false; assert(false) }
  od
}
ltl l { [] <> g0 }
PML
spin -a assert.pml >/dev/null 2>&1 && cc -DNOCLAIM -w -o span pan.c && ./span >/dev/null 2>&1
expect "an assertion's trail" 1 'assert.pml.trail: not an acceptance cycle: no -1:-1:-1' -- \
    assert.pml --inputs r0 --trail assert.pml.trail
printf 'hello\n' >text.trail
expect "a trail that is no trail" 1 'text.trail:1: not a trail line' -- \
    unfair2.pml --inputs r0,r1 --trail text.trail --ltl granted0
expect "the formula holds on the trail: exit 3" 3 'holds on the trace.*nothing to explain' -- \
    unfair2.pml --inputs r0,r1 --trail unfair2.trail --ltl granted1
expect "no ltl formula of that name" 1 "no ltl formula named 'nope' \(it has: granted0, granted1\)" -- \
    unfair2.pml --inputs r0,r1 --ltl nope
expect "several ltl formulas, none chosen" 1 'several ltl formulas' -- unfair2.pml --inputs r0,r1
expect "not input-enabled" 1 'not input-enabled: from pan.s state 0 .* no step reads the inputs' -- \
    notenabled.pml --inputs r0,r1
expect "an expression as a proposition" 1 "the model's variables, true when nonzero" -- \
    unfair2.pml --inputs r0,r1 --effect 'G (g0 == 0)'
expect "--inputs required" 2 'inputs a,b,... is required' -- unfair2.pml
expect "--system with a model" 2 'do not apply' -- unfair2.pml --inputs r0 --system x.hoa
rm -f out.hoa
expect "no half-written HOA on failure" 1 'no variable' -- \
    unfair2.pml --inputs rx --effect 'G !g0' --hoa out.hoa
[ -e out.hoa ] && { echo "FAIL: out.hoa written by a failed run"; fail=$((fail + 1)); }
# $SPIN names the spin that runs (relative to where pancause starts: it was `spin`
# from PATH); a failing one is named with its output
printf '#!/bin/sh\necho "spin: out of memory" >&2\nexit 1\n' >fakespin && chmod +x fakespin
n=$((n + 1))
out=$(SPIN=./fakespin "$bin" temporal unfair2.pml --inputs r0,r1 --ltl granted0 2>&1)
rc=$?
if [ $rc -ne 0 ] && grep -q 'spin -a' <<<"$out" && grep -q 'out of memory' <<<"$out"; then
    echo "ok   a failing \$SPIN is named"
else
    echo "FAIL a failing \$SPIN: exit $rc, output:"; sed 's/^/    /' <<<"$out" | head -5; fail=$((fail + 1))
fi
echo "$n checks, $fail failed"
[ $fail -eq 0 ]
