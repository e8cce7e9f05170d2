#!/usr/bin/env bash
# bench/table1.sh [RUNS] - the paper's Table 1, measured side by side in one run.
#
# For each case (railway, airbag) and each search (DFS, BFS):
#   MC   stock pan: pan.c compiled as SPIN's documentation says (gcc -O2, POR on,
#        -DBFS for BFS), run with -c0 (whole state space, all errors, no trail)
#   PAN  the ./pan that `make pan` builds, run the same way without -C
#   CC1  ./pan -C --no-ac2
#   CC2  ./pan -C  (make pan keeps pan's partial order reduction, events and asserts
#        visible to it: README "Partial order reduction")
#   CCN  ./pan -C from `make pan POR=0`: no reduction, the paper's setting
# all with the same -m and -w.  Prints the median wall time and peak resident
# memory of RUNS runs (default 5, taken round robin) and the ratios to MC.  Not a
# test: the machine is shared, so read medians and ratios, not single numbers.
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
RUNS=${1:-5}
PANOPTS="-m100000 -w20"
[ -x /usr/bin/time ] || { echo "needs GNU time: apt-get install -y time" >&2; exit 1; }
make -s -C "$ROOT" -j2 lib programs >/dev/null
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT

median() { sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

# one DIR RUN CMD...: one timed run, appended to $W/RUN.t (seconds) and $W/RUN.m (KB)
one() {
    local dir=$1 run=$2
    shift 2
    (cd "$dir" && /usr/bin/time -f "%e %M" -o "$W/one" "$@" >/dev/null 2>&1) || true
    read -r s kb <"$W/one"
    echo "$s" >>"$W/$run.t"
    echo "$kb" >>"$W/$run.m"
}

printf '%-8s %-4s %-4s %9s %9s %8s %8s\n' case srch run seconds MB time/MC mem/MC
for case in railway airbag; do
    for search in dfs bfs; do
        d="$W/$case-$search"
        mkdir -p "$d"
        cp "$ROOT/cases/$case/$case.pml" "$d/"
        flag="" bfs=""
        [ $search = bfs ] && flag="-DBFS" bfs="BFS=1"
        (cd "$d" && spin -a "$case.pml" >/dev/null && gcc -O2 -w $flag -o mc pan.c &&
            make -s -f "$ROOT/Makefile" pan $bfs >/dev/null)
        mkdir -p "$d/nopor"
        cp "$ROOT/cases/$case/$case.pml" "$d/nopor/"
        (cd "$d/nopor" && spin -a "$case.pml" >/dev/null &&
            make -s -f "$ROOT/Makefile" pan POR=0 $bfs >/dev/null)
        rm -f "$W"/*.t "$W"/*.m
        # Round robin: each run of MC is next to a run of the others, so that a busy
        # moment of the shared machine hits all alike.
        for _ in $(seq "$RUNS"); do
            one "$d" MC ./mc -c0 $PANOPTS
            one "$d" PAN ./pan -c0 $PANOPTS
            one "$d" CC1 ./pan -C --no-ac2 $PANOPTS
            one "$d" CC2 ./pan -C $PANOPTS
            one "$d/nopor" CCN ./pan -C $PANOPTS
        done
        mt=$(median <"$W/MC.t") mm=$(awk '{print $1/1024}' "$W/MC.m" | median)
        for run in MC PAN CC1 CC2 CCN; do
            t=$(median <"$W/$run.t") m=$(awk '{print $1/1024}' "$W/$run.m" | median)
            printf '%-8s %-4s %-4s %9.2f %9.1f %8.2f %8.2f\n' "$case" "$search" "$run" "$t" "$m" \
                "$(awk -v a="$t" -v b="$mt" 'BEGIN {print (b > 0 ? a / b : 0)}')" \
                "$(awk -v a="$m" -v b="$mm" 'BEGIN {print (b > 0 ? a / b : 0)}')"
        done
    done
done
echo "($RUNS runs each, medians; $(nproc) cores; $(uname -m); $(date -u +%Y-%m-%d))"
