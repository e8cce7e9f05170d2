#!/usr/bin/env bash
# bench/growth.sh [RUNS] [NOISE...] - how causality checking grows with the model.
#
# The airbag model (cases/airbag/airbag.pml) with its sensors' noise range NOISE
# (spin -DNOISE=N; the paper's size is NOISE=4): the state space grows about as
# (NOISE+1)^2.  For each size it prints pan's stored states, then MC (stock pan,
# -c0) and CC2 (./pan -C from `make pan`, which keeps pan's partial order reduction
# as stock pan does: README "Partial order reduction") wall seconds and peak MB,
# medians of RUNS runs (default 1), their ratios, and how many causes -C found (five
# at every size, or the run is wrong); then CCN: ./pan -C from `make pan POR=0` (no
# reduction), its seconds, MB and time ratio to MC.  Same -m and -w for all.  Not a test: the machine is shared; read ratios.
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
RUNS=${1:-1}
shift || true
SIZES=${*:-4 8 16 32 40}
[ -x /usr/bin/time ] || { echo "needs GNU time: apt-get install -y time" >&2; exit 1; }
make -s -C "$ROOT" -j2 lib programs >/dev/null
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
median() { sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
measure() { # measure CMD...: "median_seconds median_MB" over RUNS runs; output of the last in $W/out
    : >"$W/t" && : >"$W/m"
    for _ in $(seq "$RUNS"); do
        /usr/bin/time -f "%e %M" -o "$W/one" "$@" >"$W/out" 2>&1 || true
        read -r s kb <"$W/one"
        echo "$s" >>"$W/t"
        echo "$kb" >>"$W/m"
    done
    echo "$(median <"$W/t") $(awk '{print $1/1024}' "$W/m" | median)"
}
printf '%6s %10s %12s %8s %8s %8s %8s %7s %7s %6s %8s %8s %7s\n' NOISE states transitions MC_s \
    CC2_s MC_MB CC2_MB time/MC mem/MC causes CCN_s CCN_MB CCN/MC
for n in $SIZES; do
    d="$W/n$n"
    mkdir -p "$d"
    cp "$ROOT/cases/airbag/airbag.pml" "$d/"
    cd "$d"
    spin -DNOISE="$n" -a airbag.pml >/dev/null
    gcc -O2 -w -o mc pan.c
    make -s -f "$ROOT/Makefile" pan >/dev/null
    mkdir -p nopor && cp airbag.pml nopor/
    (cd nopor && spin -DNOISE="$n" -a airbag.pml >/dev/null &&
        make -s -f "$ROOT/Makefile" pan POR=0 >/dev/null)
    # -w: a hash table of about the state count ((NOISE+1)^2 * 6700 states); -m: above
    # the depth the DFS reaches.  pan touches both in full, MC and CC2 alike.
    w=$(awk -v n="$n" 'BEGIN {s = (n + 1) ^ 2 * 6700; w = 18; while (2 ^ w < s) w++; print w}')
    opts="-m500000 -w$w"
    read -r mt mm < <(measure ./mc -c0 $opts)
    read -r pt pm < <(cd nopor && measure ./pan -C $opts)
    read -r ct cm < <(measure ./pan -C $opts)
    states=$(awk '/states, stored/ {print $1; exit}' "$W/out")
    grep -q "max search depth too small" "$W/out" && states="$states(-m!)"
    trans=$(awk '/transitions \(= stored/ {print $1; exit}' "$W/out")
    causes=$(grep -cE '^  [0-9]+\. ' "$W/out" || true)
    grep -q INCOMPLETE "$W/out" && causes="$causes(incomplete)"
    printf '%6s %10s %12s %8.2f %8.2f %8.1f %8.1f %7.2f %7.2f %6s %8.2f %8.1f %7.2f\n' "$n" \
        "$states" "$trans" "$mt" "$ct" "$mm" "$cm" "$(awk -v a="$ct" -v b="$mt" 'BEGIN {print a / b}')" \
        "$(awk -v a="$cm" -v b="$mm" 'BEGIN {print a / b}')" "$causes" "$pt" "$pm" \
        "$(awk -v a="$pt" -v b="$mt" 'BEGIN {print a / b}')"
    cd "$W"
    rm -rf "$d"
done
echo "(states and transitions: ./pan -C's search, with pan's partial order reduction as MC;"
echo " $RUNS run(s) each, medians; $(nproc) cores; $(uname -m); $(date -u +%Y-%m-%d))"
