#!/usr/bin/env bash
# bench/nearest.sh [RUNS] - the speed of the exact nearest search beside plain pan's
# search of the same model, in one run.
#
# Two cases, each in a scratch directory of its own, pan built by `make pan POR=0` (no
# partial order reduction: the state graph the nearest search sees):
#   airbag  cases/airbag/airbag.pml, -m100000, the longest of the witness trails that
#           `./pan -C --trails` writes (the issue's "longest counterexample")
#   brp.3   $BEEM_DIR/brp.3.pml (1,053,765 states; BEEM_DIR defaults to
#           /work/shared/bench/beem), -m1000000 -w26, stock pan's first trail (an
#           invalid end state)
# Variants, RUNS (default 3) runs each, round robin so that a busy moment of the
# shared machine hits both alike:
#   PAN   stock pan on the same state space: gcc -O2 -DSAFETY -DNOREDUCE pan.c, -c0
#         (the full search, every error counted)
#   NEAR  ./pan -C --nearest TRAIL: the same search recording the graph and the
#         values, then the nearest search, the Δs and the report
# Prints per case the medians (seconds, peak MB by GNU time) and NEAR/PAN ratios;
# the target is a time ratio <= 5.  Not a test: the machine is shared, read medians.
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
RUNS=${1:-3}
DIR=${BEEM_DIR:-/work/shared/bench/beem}
[ -x /usr/bin/time ] || { echo "needs GNU time: apt-get install -y time" >&2; exit 1; }
command -v spin >/dev/null || { echo "needs spin on PATH" >&2; exit 1; }
make -s -C "$ROOT" -j2 lib programs >/dev/null
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT

median() { sort -g | awk '{a[NR]=$1} END {if (NR) print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {if (b < 0.01) b = 0.01; printf "%.2f", a / b}'; }

# prepare NAME MODEL OPTS...: pan and the trail in $W/NAME (the trail's path in
# $W/NAME/trail.path)
prepare() {
    local name=$1 model=$2 d="$W/$1"
    shift 2
    mkdir -p "$d"
    cp "$model" "$d/model.pml"
    (cd "$d" && spin -a model.pml >/dev/null && gcc -O2 -w -DSAFETY -DNOREDUCE -o pan-stock pan.c &&
        make -s -f "$ROOT/Makefile" pan POR=0 >/dev/null 2>&1) || { echo "$name: cannot build pan" >&2; exit 1; }
    if [ "$name" = airbag ]; then
        (cd "$d" && mkdir -p wit && ./pan -C --trails wit "$@" >/dev/null 2>&1) || true
        local best="" n=0 k
        for t in "$d"/wit/*.trail; do
            case $t in *.good.trail) continue ;; esac
            k=$(grep -c '^[0-9]' "$t")
            [ "$k" -gt "$n" ] && { n=$k; best=$t; }
        done
        [ -n "$best" ] || { echo "airbag: no witness trail" >&2; exit 1; }
        echo "$best" >"$d/trail.path"
    else
        (cd "$d" && ./pan "$@" >/dev/null 2>&1) || true
        [ -s "$d/model.pml.trail" ] || { echo "$name: stock pan wrote no trail" >&2; exit 1; }
        echo "$d/model.pml.trail" >"$d/trail.path"
    fi
    echo "$name: trail $(grep -c '^[0-9]' "$(cat "$d/trail.path")") moves"
}

# one NAME VARIANT CMD...: one timed run, seconds and KB appended to $W/NAME/VARIANT.tm
one() {
    local d="$W/$1" v=$2
    shift 2
    (cd "$d" && /usr/bin/time -f "%e %M" -o "$d/$v.time" "$@" >"$d/$v.out" 2>&1) || true
    cat "$d/$v.time" >>"$d/$v.tm"
}

declare -A OPTS=([airbag]="-m100000" [brp.3]="-m1000000 -w26")
declare -A MODEL=([airbag]="$ROOT/cases/airbag/airbag.pml" [brp.3]="$DIR/brp.3.pml")
CASES=(airbag brp.3)
for c in "${CASES[@]}"; do
    # shellcheck disable=SC2086
    prepare "$c" "${MODEL[$c]}" ${OPTS[$c]}
done
for r in $(seq "$RUNS"); do
    for c in "${CASES[@]}"; do
        t=$(cat "$W/$c/trail.path")
        # shellcheck disable=SC2086
        one "$c" PAN ./pan-stock -c0 ${OPTS[$c]}
        # shellcheck disable=SC2086
        one "$c" NEAR ./pan -C --nearest "$t" ${OPTS[$c]}
    done
done
printf '\n%-8s %-5s %9s %9s %9s %9s\n' case run seconds MB time/PAN mem/PAN
for c in "${CASES[@]}"; do
    d="$W/$c"
    ps=$(awk '{print $1}' "$d/PAN.tm" | median)
    pm=$(awk '{print $2 / 1024}' "$d/PAN.tm" | median)
    for v in PAN NEAR; do
        s=$(awk '{print $1}' "$d/$v.tm" | median)
        m=$(awk '{print $2 / 1024}' "$d/$v.tm" | median)
        printf '%-8s %-5s %9.2f %9.1f %9s %9s\n' "$c" "$v" "$s" "$m" "$(ratio "$s" "$ps")" "$(ratio "$m" "$pm")"
    done
    grep -E 'states, stored' "$d/PAN.out" | sed "s/^ */  $c: PAN  /"
    grep -E 'states, stored|^  (distance|search|a \(c|b \(s)|^pancause: nearest' "$d/NEAR.out" |
        sed "s/^ */  $c: NEAR /"
done
echo "target: NEAR time/PAN <= 5 (RUNS=$RUNS, medians)"
