#!/usr/bin/env bash
# bench/beem.sh [RUNS] [MODEL...] - causality checking on the BEEM models, side by side
# with stock pan in one run.
#
# For each Promela model (default: every *.pml in $BEEM_DIR, /work/shared/bench/beem;
# a MODEL is a name such as bakery.1 or a path), in a scratch directory of its own:
#   MC    stock pan as a user builds it: gcc -O2 -DSAFETY pan.c (POR on), -c0
#   MCNR  the same with -DNOREDUCE: the unreduced state space (make pan POR=0)
#   DFS   ./pan -C --json dfs.json from `make pan PANFLAGS=-DSAFETY` (POR on, as MC)
#   BFS   ./pan -C --json bfs.json from `make pan BFS=1 PANFLAGS=-DSAFETY`
# all with -m1000000 -w26 (as in $BEEM_DIR/README.md).  Each run gets BEEM_TIMEOUT
# seconds (default 120) and BEEM_MEMLIM MB of virtual memory (default half the
# machine's; 0 = no limit).  RUNS (default 3) runs per variant, taken round robin
# (MC MCNR DFS BFS, MC MCNR DFS BFS, ...) so that a busy moment of the shared machine
# hits all alike; the table shows medians.  A variant that times out or crashes is not
# run again for that model (pan is deterministic) and its cell says so.  DFS=BFS
# compares the two JSON results with cases/oracle/compare.py.
#
# One row per model, a summary line, and a TSV of the raw numbers (per-run times and
# peaks as comma lists) in BEEM_TSV (default: a temporary file whose path is printed).
# BEEM_KEEP=1 keeps the scratch directories (outputs, JSON) and prints where.
# Not a test: the machine is shared, so read medians and ratios, not single numbers.
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
RUNS=3
if [ $# -gt 0 ] && [[ $1 =~ ^[0-9]+$ ]]; then
    RUNS=$1
    shift
fi
[ "$RUNS" -ge 1 ] || { echo "RUNS must be at least 1" >&2; exit 2; }
DIR=${BEEM_DIR:-/work/shared/bench/beem}
TMO=${BEEM_TIMEOUT:-120}
MEMLIM=${BEEM_MEMLIM:-$(awk '/^MemTotal:/ {print int($2 / 2048)}' /proc/meminfo)}
OPTS=(-m1000000 -w26)
[ -x /usr/bin/time ] || { echo "needs GNU time: apt-get install -y time" >&2; exit 1; }
command -v spin >/dev/null || { echo "needs spin on PATH" >&2; exit 1; }

MODELS=()
if [ $# -gt 0 ]; then
    for a in "$@"; do
        if [ -f "$a" ]; then MODELS+=("$(cd "$(dirname "$a")" && pwd)/$(basename "$a")")
        elif [ -f "$DIR/$a.pml" ]; then MODELS+=("$DIR/$a.pml")
        elif [ -f "$DIR/$a" ]; then MODELS+=("$DIR/$a")
        else echo "no model $a (neither a file nor $DIR/$a.pml)" >&2; exit 2
        fi
    done
else
    for f in "$DIR"/*.pml; do [ -f "$f" ] && MODELS+=("$f"); done
fi
[ ${#MODELS[@]} -gt 0 ] || { echo "no models in $DIR" >&2; exit 2; }

START=$(date +%s)
make -s -C "$ROOT" -j2 lib programs >/dev/null
W=$(mktemp -d)
if [ "${BEEM_KEEP:-0}" = 1 ]; then
    echo "(scratch directories kept in $W)"
else
    trap 'rm -rf "$W"' EXIT
fi
TSV=${BEEM_TSV:-$(mktemp --suffix=.tsv /tmp/beem.XXXXXX)}

median() { sort -g | awk '{a[NR]=$1} END {if (NR) print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
fdiv() { awk -v a="$1" -v b="$2" 'BEGIN {if (b < 0.01) b = 0.01; printf "%.1f", a / b}'; }

# one M V SUBDIR CMD...: one run of variant V in $M/SUBDIR under time, timeout and
# the memory limit.  Appends seconds to $M/V.t, KB to $M/V.m, the status (ok,
# timeout, sigN, exitN) to $M/V.s; output in $M/V.out; a run that is not ok marks V
# dead ($M/V.dead) so that it is not run again.
one() {
    local m=$1 v=$2 sub=$3 rc=0 st s kb
    shift 3
    [ -e "$m/$v.dead" ] && return 0
    rm -f "$m/$v.time"
    # pan -C writes its JSON by rename, so a run that is killed leaves none; keep the
    # last ok run's result aside and put it back if this run is not ok.
    [ -e "$m/$sub/$sub.json" ] && mv -f "$m/$sub/$sub.json" "$m/$sub/$sub.json.prev"
    (
        cd "$m/$sub"
        [ "$MEMLIM" -gt 0 ] && ulimit -v $((MEMLIM * 1024))
        exec /usr/bin/time -f "%e %M" -o "$m/$v.time" timeout -k 5 "$TMO" "$@"
    ) >"$m/$v.out" 2>&1 || rc=$?
    read -r s kb < <(tail -n 1 "$m/$v.time" 2>/dev/null || echo "0 0")
    if grep -q "terminated by signal" "$m/$v.time" 2>/dev/null; then
        st=sig$(sed -n 's/.*terminated by signal \([0-9]*\).*/\1/p' "$m/$v.time")
    elif [ $rc = 124 ] || [ $rc = 137 ]; then
        st=timeout
    else
        case $v in
            MC | NR) grep -q "states, stored" "$m/$v.out" && st=ok || st=exit$rc ;;
            *) [ -s "$m/$sub/$sub.json" ] && st=ok || st=exit$rc ;;
        esac
    fi
    echo "$s" >>"$m/$v.t"
    echo "$kb" >>"$m/$v.m"
    echo "$st" >>"$m/$v.s"
    [ "$st" = ok ] || : >"$m/$v.dead"
    if [ "$st" != ok ] && [ -e "$m/$sub/$sub.json.prev" ]; then
        mv -f "$m/$sub/$sub.json.prev" "$m/$sub/$sub.json"
    fi
    rm -f "$m/$sub/$sub.json.prev"
}

# cell M V: the table cell of V's time: median seconds of its ok runs, or the first
# status that was not ok.  mb M V: median peak MB of the ok runs, or ">peak" at the
# kill.  list M V EXT: the raw per-run values, comma separated.
cell() {
    local bad
    [ -s "$1/$2.s" ] || { echo "-"; return; }
    bad=$(grep -v -m1 '^ok$' "$1/$2.s" || true)
    if [ -n "$bad" ]; then echo "$bad"; else printf '%.2f\n' "$(median <"$1/$2.t")"; fi
}
mb() {
    [ -s "$1/$2.m" ] || { echo "-"; return; }
    if grep -qv '^ok$' "$1/$2.s"; then
        awk 'BEGIN {m = 0} $1 > m {m = $1} END {printf ">%.0f\n", m / 1024}' "$1/$2.m"
    else
        awk '{print $1 / 1024}' "$1/$2.m" | median | awk '{printf "%.0f\n", $1}'
    fi
}
list() { [ -s "$1/$2.$3" ] && paste -sd, "$1/$2.$3" || echo "-"; }

short() { case $1 in timeout) echo t ;; sig*) echo x ;; *) echo - ;; esac; }

# jfields FILE: complete(y/n) causes states history_nodes reason, tab separated
jfields() {
    python3 - "$1" <<'EOF' 2>/dev/null || printf -- '-\t-\t-\t-\tunreadable json\n'
import json, sys
d = json.load(open(sys.argv[1]))
r = (d.get("incomplete_reason") or "").replace("\t", " ").replace("\n", " ")
print("\t".join(str(x) for x in ("y" if d.get("complete") else "n", len(d.get("causes") or []),
      d.get("stats", {}).get("states", "-"), d.get("counts", {}).get("history_nodes", "-"), r or "-")))
EOF
}

row() { printf '%-16s %-18s %6s %6s %5s %5s %7s %7s %7s %7s %11s %7s %6s\n' "$@"; }
row model "states CC [MC]" errors causes cmpl DFS= MC_s MCNR_s DFS_s BFS_s "ratio" CC_MB MC_MB
row "" "" "(NR)" "(DFS)" "D/B" "BFS" "" "" "" "" "DFS/MC,max" "(DFS)" ""
printf 'model\tstates_dfs\tstates_bfs\tstates_mc\tstates_mcnr\terrors_mc\terrors_mcnr\tcauses_dfs\tcauses_bfs\tcomplete_dfs\tcomplete_bfs\treason_dfs\treason_bfs\thistory_dfs\thistory_bfs\tdfs_eq_bfs\tmc_s\tmcnr_s\tdfs_s\tbfs_s\tmc_mb\tmcnr_mb\tdfs_mb\tbfs_mb\tpass_time\tmc_runs_s\tmcnr_runs_s\tdfs_runs_s\tbfs_runs_s\tmc_runs_kb\tmcnr_runs_kb\tdfs_runs_kb\tbfs_runs_kb\tmc_status\tmcnr_status\tdfs_status\tbfs_status\n' >"$TSV"

N=0 NCOMPLETE=0 NPASS=0 NSAME=0 NDIFF=0
for f in "${MODELS[@]}"; do
    name=$(basename "$f" .pml)
    base=$(basename "$f")
    m="$W/$name"
    mkdir -p "$m/mc" "$m/dfs" "$m/bfs"
    N=$((N + 1))
    for sub in mc dfs bfs; do cp "$f" "$m/$sub/"; done
    # Builds: a failure marks its variants dead with a status saying which step failed.
    if ! (cd "$m/mc" && timeout 600 spin -a "$base") >"$m/build-mc.log" 2>&1; then
        for v in MC NR; do echo spinerr >"$m/$v.s" && : >"$m/$v.dead"; done
    else
        for v in MC NR; do
            nr=""
            [ $v = NR ] && nr=-DNOREDUCE
            if ! (cd "$m/mc" && timeout 600 gcc -O2 -w -DSAFETY $nr -o "pan.${v,,}" pan.c) >>"$m/build-mc.log" 2>&1; then
                echo gccerr >"$m/$v.s" && : >"$m/$v.dead"
            fi
        done
    fi
    for v in DFS BFS; do
        sub=${v,,} bfs=""
        [ $v = BFS ] && bfs="BFS=1"
        (cd "$m/$sub" && timeout 600 spin -a "$base" && timeout 600 make -s -f "$ROOT/Makefile" pan $bfs PANFLAGS=-DSAFETY) \
            >"$m/build-$sub.log" 2>&1 || { echo makeerr >"$m/$v.s"; : >"$m/$v.dead"; }
    done
    # One untimed warm-up run: the first run after the builds is often slower (it
    # would flatter the ratios).
    [ -e "$m/MC.dead" ] || (cd "$m/mc" && timeout -k 5 "$TMO" ./pan.mc "${OPTS[@]}" -c0) >/dev/null 2>&1 || true
    for _ in $(seq "$RUNS"); do
        one "$m" MC mc ./pan.mc "${OPTS[@]}" -c0
        one "$m" NR mc ./pan.nr "${OPTS[@]}" -c0
        one "$m" DFS dfs ./pan -C "${OPTS[@]}" --json dfs.json
        one "$m" BFS bfs ./pan -C "${OPTS[@]}" --json bfs.json
    done

    # Stock pan's figures (from its last run's output).
    mcst=- nrst=- mcerr=- nrerr=-
    if [ -s "$m/MC.out" ]; then
        mcst=$(awk '/states, stored/ {print $1; exit}' "$m/MC.out")
        mcerr=$(sed -n 's/.*errors: \([0-9]*\).*/\1/p' "$m/MC.out" | head -n 1)
    fi
    if [ -s "$m/NR.out" ]; then
        nrst=$(awk '/states, stored/ {print $1; exit}' "$m/NR.out")
        nrerr=$(sed -n 's/.*errors: \([0-9]*\).*/\1/p' "$m/NR.out" | head -n 1)
        grep -q "max search depth too small" "$m/NR.out" && nrerr="$nrerr(-m!)"
    fi
    : "${mcst:=-}" "${nrst:=-}" "${mcerr:=-}" "${nrerr:=-}"
    # pancause's figures (from its JSON).
    dc=- dn=- ds=- dh=- dr=- bc=- bn=- bs=- bh=- br=-
    [ -s "$m/dfs/dfs.json" ] && IFS=$'\t' read -r dc dn ds dh dr < <(jfields "$m/dfs/dfs.json")
    [ -s "$m/bfs/bfs.json" ] && IFS=$'\t' read -r bc bn bs bh br < <(jfields "$m/bfs/bfs.json")
    # No result: the reason is the run's status; cmpl says t (timeout), x (crash) or -.
    [ "$dc" = - ] && dr=$(cell "$m" DFS) && dc=$(short "$dr")
    [ "$bc" = - ] && br=$(cell "$m" BFS) && bc=$(short "$br")
    same=-
    if [ -s "$m/dfs/dfs.json" ] && [ -s "$m/bfs/bfs.json" ]; then
        if python3 "$ROOT/cases/oracle/compare.py" "$m/dfs/dfs.json" "$m/bfs/bfs.json" >"$m/compare.out" 2>&1; then
            same=same NSAME=$((NSAME + 1))
        else
            same=diff NDIFF=$((NDIFF + 1))
        fi
    fi
    [ "$dc" = y ] && [ "$bc" = y ] && NCOMPLETE=$((NCOMPLETE + 1))

    mct=$(cell "$m" MC) nrt=$(cell "$m" NR) dt=$(cell "$m" DFS) bt=$(cell "$m" BFS)
    ratio=- pass=n
    if [[ $mct =~ ^[0-9.]+$ ]] && [[ $dt =~ ^[0-9.]+$ ]]; then
        ratio=$(fdiv "$dt" "$mct")
        if [[ $bt =~ ^[0-9.]+$ ]]; then
            mx=$(awk -v a="$dt" -v b="$bt" 'BEGIN {print (a > b ? a : b)}')
            ratio="$ratio,$(fdiv "$mx" "$mct")"
            pass=$(awk -v x="$mx" -v t="$mct" 'BEGIN {l = 20 * t; if (l < 60) l = 60; print (x < l ? "y" : "n")}')
        fi
    fi
    [ "$pass" = y ] && NPASS=$((NPASS + 1))
    # CC states: the DFS search's ('!' when it differs from stock pan -DNOREDUCE), or
    # the BFS search's ('b': pan's BFS also stores the states inside rendezvous).
    ccst=$ds
    [ "$ccst" != - ] && [ "$nrst" != - ] && [ "$ccst" != "$nrst" ] && ccst="$ccst!"
    [ "$ccst" = - ] && [ "$bs" != - ] && ccst="${bs}b"
    causes=$dn
    [ "$dn" != "$bn" ] && causes="$dn/$bn"

    # A row whose builds failed says so in the cells; keep the row short.
    row "$name" "$ccst [$mcst]" "$nrerr" "$causes" "$dc/$bc" "$same" "$mct" "$nrt" "$dt" "$bt" \
        "$ratio" "$(mb "$m" DFS)" "$(mb "$m" MC)"
    [ "$dc" = n ] && [ "$dr" != - ] && printf '%16s   DFS incomplete: %s\n' "" "$dr"
    [ "$bc" = n ] && [ "$br" != - ] && [ "$br" != "$dr" ] && printf '%16s   BFS incomplete: %s\n' "" "$br"
    printf '%s\n' "$name" "$ds" "$bs" "$mcst" "$nrst" "$mcerr" "$nrerr" "$dn" "$bn" "$dc" "$bc" "$dr" "$br" \
        "$dh" "$bh" "$same" "$mct" "$nrt" "$dt" "$bt" "$(mb "$m" MC)" "$(mb "$m" NR)" "$(mb "$m" DFS)" \
        "$(mb "$m" BFS)" "$pass" "$(list "$m" MC t)" "$(list "$m" NR t)" "$(list "$m" DFS t)" \
        "$(list "$m" BFS t)" "$(list "$m" MC m)" "$(list "$m" NR m)" "$(list "$m" DFS m)" \
        "$(list "$m" BFS m)" "$(list "$m" MC s)" "$(list "$m" NR s)" "$(list "$m" DFS s)" \
        "$(list "$m" BFS s)" | paste -sd '\t' >>"$TSV"
    [ "${BEEM_KEEP:-0}" = 1 ] || rm -rf "$m"
done
echo "$N models: complete in both searches $NCOMPLETE; both CC times under max(60 s, 20x MC) $NPASS;" \
    "DFS=BFS same $NSAME, diff $NDIFF, not compared $((N - NSAME - NDIFF))"
echo "(states: pancause's DFS (JSON stats.states; '!' = not stock pan -DNOREDUCE's; 'b' = BFS's)"
echo " [stock pan, POR]; errors: stock pan -DNOREDUCE -c0; causes: DFS (DFS/BFS if they differ);"
echo " cmpl: complete DFS/BFS (y, n, t = timed out, x = crashed); times: wall s, median of $RUNS run(s),"
echo " round robin; timeout = over ${TMO} s; MB: peak resident; -m1000000 -w26; memory limit ${MEMLIM} MB;"
echo " $(nproc) cores; $(uname -m); $(date -u +%Y-%m-%d); total wall $(($(date +%s) - START)) s)"
echo "(raw numbers: $TSV)"
