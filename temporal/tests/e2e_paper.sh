#!/usr/bin/env bash
# e2e_paper.sh - `pancause temporal` on the paper's instances
# (cases/temporal-oracle/instances/instances.tsv: the arbiters of Table 1 for
# n = 1..4 and the examples of sections 1.1, 3 and 4): every cause the paper
# reports is confirmed by cause checking (--check: synthesis plus the
# equivalence test, section 6.2) for the row's relation, and every cause
# automaton is no larger than CORP's (Table 1's NBA size, where the paper gives
# one).  Prints one line per row; exit status 1 on any failure.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=${PANCAUSE:-$root/bin/pancause}
dir=$root/cases/temporal-oracle/instances
fail=0
rows=0
while IFS=$'\t' read -r name system trace effect relation cause paper_T our_T time nba source; do
    case $name in '#'* | name | '') continue ;; esac
    rows=$((rows + 1))
    args=(temporal --system "$dir/$system" --trace "$trace" --effect "$effect"
        --relation "$relation" --json)
    [ "$cause" != - ] && args+=(--check "$cause")
    out=$("$bin" "${args[@]}" 2>&1)
    rc=$?
    read -r states is_cause desc < <(python3 -c '
import json, sys
j = json.loads(sys.argv[1])
c = j.get("check")
print(j["states"], "-" if c is None else str(c["is_cause"]).lower(), j["description"] or "-")
' "$out" 2>/dev/null || echo "? ? ?")
    verdict=ok
    if [ $rc -ne 0 ]; then
        verdict="FAIL (exit $rc)"
    elif [ "$cause" != - ] && [ "$is_cause" != true ]; then
        verdict="FAIL (not the paper's cause)"
    elif [[ $nba =~ ^[0-9]+$ ]] && [ "$states" -gt "$nba" ]; then
        verdict="FAIL ($states states, CORP $nba)"
    fi
    printf '%-20s %-6s %-28s states %-4s (CORP %-3s) %s\n' "$name" "$relation" \
        "${cause}" "$states" "$nba" "$verdict"
    if [ "$verdict" != ok ]; then
        fail=$((fail + 1))
        echo "    $bin ${args[*]}"
        echo "    $out" | head -5
    fi
done <"$dir/instances.tsv"
echo "$rows rows, $fail failed"
[ $fail -eq 0 ] && [ $rows -ge 30 ]
