#!/usr/bin/env bash
# bench/por-beem.sh [K] [MODEL...] - partial order reduction on BEEM protocols labelled as
# a user would label them: K events (default 4) and the rest silent.
#
# BEEM's models label every control location, so every move is an event and pan's
# reduction, which never takes an event as a "safe" move (README "Partial order
# reduction"), reduces nothing there.  This script keeps the first K labels of each model
# as events (spin-model/tests/fixtures/por/relabel.py; the others become progress_
# labels, which only a non-progress search reads) and runs, one run each, in a scratch
# directory of its own, all with -m1000000 -w26:
#   MC    stock pan, gcc -O2 -DSAFETY pan.c (POR on), -c0
#   MCNR  the same with -DNOREDUCE
#   CC2   ./pan -C from `make pan PANFLAGS=-DSAFETY` (pan's reduction kept)
#   CCN   ./pan -C from `make pan POR=0 PANFLAGS=-DSAFETY` (no reduction)
# and prints the stored states and seconds of each, the time ratio CC2/MC, and whether
# CC2 and CCN give the same causes (cases/oracle/compare.py: events, orders,
# non-occurrences, ambiguity).  MODEL: a name such as brp.1 (default: every model of
# $BEEM_DIR, /work/shared/bench/beem).  Each run gets BEEM_TIMEOUT seconds (default 120).
# Not a test: the machine is shared; por.sh and the oracle are the tests.
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
K=4
if [ $# -gt 0 ] && [[ $1 =~ ^[0-9]+$ ]]; then
    K=$1
    shift
fi
DIR=${BEEM_DIR:-/work/shared/bench/beem}
TMO=${BEEM_TIMEOUT:-120}
OPTS=(-m1000000 -w26)
[ -x /usr/bin/time ] || { echo "needs GNU time: apt-get install -y time" >&2; exit 1; }
MODELS=()
if [ $# -gt 0 ]; then
    for a in "$@"; do MODELS+=("$DIR/$a.pml"); done
else
    for f in "$DIR"/*.pml; do [ -f "$f" ] && MODELS+=("$f"); done
fi
make -s -C "$ROOT" -j2 lib programs >/dev/null
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT

# run DIR NAME CMD...: one timed run; prints "seconds states" (states "-" on failure)
run() {
    local d=$1 name=$2
    shift 2
    (cd "$d" && /usr/bin/time -f "%e" -o "$name.time" timeout "$TMO" "$@" >"$name.out" 2>&1) || true
    local st
    st=$(awk '/states, stored/ {print $1; exit}' "$d/$name.out")
    echo "$(tail -1 "$d/$name.time" | awk '{print ($1 ~ /^[0-9.]+$/) ? $1 : "-"}') ${st:--}"
}

printf '%-17s %9s %9s %9s %9s %7s %7s %7s %7s %7s %s\n' model MC_st MCNR_st CC2_st CCN_st MC_s \
    MCNR_s CC2_s CCN_s CC2/MC causes
for f in "${MODELS[@]}"; do
    n=$(basename "$f" .pml)
    d="$W/$n"
    mkdir -p "$d/nopor"
    python3 "$ROOT/spin-model/tests/fixtures/por/relabel.py" "$f" "$K" >"$d/$n.pml"
    cp "$d/$n.pml" "$d/nopor/"
    if ! (cd "$d" && spin -a "$n.pml" >/dev/null 2>&1 && gcc -O2 -w -DSAFETY -o mc pan.c &&
        gcc -O2 -w -DSAFETY -DNOREDUCE -o mcnr pan.c &&
        make -s -f "$ROOT/Makefile" pan PANFLAGS=-DSAFETY >/dev/null 2>&1 &&
        cd nopor && spin -a "$n.pml" >/dev/null 2>&1 &&
        make -s -f "$ROOT/Makefile" pan POR=0 PANFLAGS=-DSAFETY >/dev/null 2>&1); then
        echo "$n: build failed"
        continue
    fi
    read -r mt ms < <(run "$d" mc ./mc -c0 "${OPTS[@]}")
    read -r nt ns < <(run "$d" mcnr ./mcnr -c0 "${OPTS[@]}")
    read -r ct cs < <(run "$d" cc ./pan -C --json cc.json "${OPTS[@]}")
    read -r xt xs < <(run "$d/nopor" cc ./pan -C --json cc.json "${OPTS[@]}")
    same=differ
    python3 "$ROOT/cases/oracle/compare.py" "$d/cc.json" "$d/nopor/cc.json" >/dev/null 2>&1 && same=same
    grep -q '"complete": false' "$d/cc.json" 2>/dev/null && same="$same(incomplete)"
    printf '%-17s %9s %9s %9s %9s %7s %7s %7s %7s %7s %s\n' "$n" "$ms" "$ns" "$cs" "$xs" "$mt" \
        "$nt" "$ct" "$xt" "$(awk -v a="$ct" -v b="$mt" 'BEGIN {print (b > 0 ? sprintf("%.2f", a / b) : "-")}')" \
        "$same"
done
echo "(K=$K events per model; one run each; $(nproc) cores; $(date -u +%Y-%m-%d))"
