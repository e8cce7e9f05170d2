#!/usr/bin/env bash
# e2e_errors.sh - `pancause temporal` on bad input and usage: every case ends
# with a message naming what is wrong (file:line:column for HOA), the
# documented exit status, and nothing half-written: --hoa's file is neither
# created nor touched when the run fails.  Also --check's two answers (exit 0
# yes, exit 4 no with a separating word).  Exit status 1 on any failure.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=${PANCAUSE:-$root/bin/pancause}
inst=$root/cases/temporal-oracle/instances
tmp=$(mktemp -d "${TMPDIR:-/tmp}/temporal-e2e.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail=0
n=0

# expect NAME STATUS PATTERN ARGS...: exit status and a pattern in stdout+stderr
expect() {
    local name=$1 want=$2 pat=$3
    shift 3
    n=$((n + 1))
    local out rc
    out=$("$bin" temporal "$@" 2>&1)
    rc=$?
    if [ $rc -ne "$want" ] || ! grep -qE -- "$pat" <<<"$out"; then
        echo "FAIL $name: exit $rc (want $want), output:"
        echo "$out" | head -5 | sed 's/^/    /'
        fail=$((fail + 1))
    else
        echo "ok   $name"
    fi
}

F1=(--system "$inst/fig1.hoa" --trace 'cycle{x&!y&e}')
cat >"$tmp/bad.hoa" <<'EOF'
HOA: v1
States: 2
Start: 0
AP: 2 "i" "o"
controllable-AP: 1
Acceptance: 0 t
--BODY--
State: 0
[0 & | 1] 1
--END--
EOF
cat >"$tmp/partial.hoa" <<'EOF'
HOA: v1
States: 1
Start: 0
AP: 2 "i" "o"
controllable-AP: 1
Acceptance: 0 t
--BODY--
State: 0
[0 & 1] 0
--END--
EOF
cat >"$tmp/effect.hoa" <<'EOF'
HOA: v1
States: 2
Start: 1
AP: 1 "e"
acc-name: Buchi
Acceptance: 1 Inf(0)
--BODY--
State: 0 {0}
[t] 0
State: 1
[0] 0
[!0] 1
--END--
EOF

expect "malformed HOA names line and column" 1 "bad.hoa:9:6: a label" \
    --system "$tmp/bad.hoa" --trace 'cycle{i}' --effect 'F o'
expect "system not input-enabled" 1 "state 0 has no edge for the input !i" \
    --system "$tmp/partial.hoa" --trace 'cycle{i&o}' --effect 'F o'
expect "missing system file" 1 "nonexistent" \
    --system "$tmp/nonexistent.hoa" --trace 'cycle{i}' --effect 'F o'
expect "trace that is no run of the system" 1 "not a run of the system .*first 1 letters" \
    --system "$inst/fig1.hoa" --trace 'cycle{x&!y&!e}' --effect 'F e'
expect "effect violated on the trace: nothing to explain" 3 "nothing to explain" \
    "${F1[@]}" --effect 'G !e'
expect "unknown input name in the effect" 1 "unknown atomic proposition 'z'" \
    "${F1[@]}" --effect 'F z'
expect "unknown name in the trace" 1 "the trace: column 9: unknown atomic proposition 'z'" \
    --system "$inst/fig1.hoa" --trace 'cycle{x&z}' --effect 'F e'
expect "malformed effect" 1 "the effect: column 5" "${F1[@]}" --effect 'F (e'
expect "candidate over an output" 1 "e is an output" "${F1[@]}" --effect 'F e' --check 'F e'
expect "unknown name in the candidate" 1 "unknown atomic proposition 'w'" \
    "${F1[@]}" --effect 'F e' --check 'F w'
A4=(--system "$inst/arbiter-full-4.hoa" --effect 'G F g0' --relation full
    --trace 'cycle{r0&r1&r2&r3&g0&!g1&!g2&!g3;r0&r1&r2&r3&!g0&g1&!g2&!g3;r0&r1&r2&r3&!g0&!g1&g2&!g3;r0&r1&r2&r3&!g0&!g1&!g2&g3}')
echo keep >"$tmp/out.hoa"
expect "construction over the state budget" 1 "exceeds 40 states" \
    "${A4[@]}" --budget 40 --hoa "$tmp/out.hoa"
n=$((n + 1))
if [ "$(cat "$tmp/out.hoa")" = keep ] && ! ls -A "$tmp" | grep -q '\.tmp'; then
    echo "ok   nothing written on failure"
else
    echo "FAIL the failed run changed $tmp/out.hoa or left a temporary file"
    fail=$((fail + 1))
fi
expect "output path is a directory" 1 "cannot write|directory" "${F1[@]}" --effect 'F e' --hoa "$tmp"
n=$((n + 1))
"$bin" temporal "${F1[@]}" --effect 'F e' >/dev/full 2>"$tmp/full.err"
if [ $? -eq 1 ] && grep -q "cannot write the standard output" "$tmp/full.err"; then
    echo "ok   the report on a full device: exit 1"
else echo "FAIL the report on a full device"; fail=$((fail + 1)); fi
# --hoa over an input destroys it: refused before any work (the eighth probe's P8-2)
cp "$inst/fig1.hoa" "$tmp/sys.hoa"
expect "--hoa over the system" 2 "is also the input" --system "$tmp/sys.hoa" \
    --trace 'cycle{x&!y&e}' --effect 'F e' --hoa "$tmp/sys.hoa"
n=$((n + 1))
if cmp -s "$inst/fig1.hoa" "$tmp/sys.hoa"; then echo "ok   the system file intact"; else
    echo "FAIL --hoa over the system changed it"; fail=$((fail + 1)); fi
expect "no --effect" 2 "effect" "${F1[@]}"
expect "bad --relation" 2 "subset or full" "${F1[@]}" --effect 'F e' --relation closest
expect "bad --budget" 2 "positive number" "${F1[@]}" --effect 'F e' --budget -3
expect "unknown option" 2 "unexpected argument" "${F1[@]}" --effect 'F e' --frobnicate
expect "--help" 0 "usage: pancause temporal" --help

# --check: yes (exit 0), no (exit 4) with a word in one language only
expect "check: the paper's cause" 0 "F x IS the cause" "${F1[@]}" --effect 'F e' --check 'F x'
expect "check: y | F x is too general (section 1.1)" 4 \
    "is NOT the cause: .* is in the candidate but not in the cause" \
    "${F1[@]}" --effect 'F e' --check 'y | F x'
expect "check: G x is too specific" 4 "is in the cause but not in the candidate" \
    "${F1[@]}" --effect 'F e' --check 'G x'
# an effect given as an automaton (CORP's alternative to LTL), same cause
expect "effect as HOA" 0 "description: F x " "${F1[@]}" --effect-hoa "$tmp/effect.hoa"
# the written automaton is the cause, and JSON names it
"$bin" temporal "${F1[@]}" --effect 'F e' --hoa "$tmp/cause.hoa" --json >"$tmp/out.json"
n=$((n + 1))
if grep -q '"hoa": "'"$tmp/cause.hoa"'"' "$tmp/out.json" && grep -q '^States: 2$' "$tmp/cause.hoa"; then
    echo "ok   --hoa writes the cause, JSON names it"
else
    echo "FAIL --hoa/--json"
    fail=$((fail + 1))
fi
echo "$n checks, $fail failed"
[ $fail -eq 0 ]
