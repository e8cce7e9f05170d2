#!/usr/bin/env bash
# The railway case end to end: spin -a, make pan (DFS and BFS), ./pan -C with and
# without AC2(2), each result compared with cases/railway/expected.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
cp "$ROOT/cases/railway/railway.pml" "$W/"
cd "$W" || exit 1
spin -a railway.pml >/dev/null || exit 1
rc=0
for search in dfs bfs; do
    flag=""
    [ $search = bfs ] && flag="BFS=1"
    make -s -f "$ROOT/Makefile" pan $flag >/dev/null || { echo "make pan $flag failed"; exit 1; }
    for ac2 in on off; do
        opt=""
        [ $ac2 = off ] && opt="--no-ac2"
        ./pan -C $opt --json out.json >out.txt 2>&1 || { echo "pan -C $opt failed"; cat out.txt; rc=1; continue; }
        python3 "$ROOT/cases/check-expected.py" "$ROOT/cases/railway/expected" out.json $opt || rc=1
        grep -q "2 causes of the hazard" out.txt || { echo "text report lacks the causes"; rc=1; }
    done
    if [ $search = dfs ]; then
        ./pan -C >out.txt 2>&1
        grep -q "does not occur: Cl between Cc and Tc" out.txt || { echo "no non-occurrence in text"; rc=1; }
    fi
done
# Once more with the library under AddressSanitizer and UBSan (hooks and analysis).
make -s -f "$ROOT/Makefile" SAN=1 pan >/dev/null || { echo "make SAN=1 pan failed"; exit 1; }
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1 ./pan -C --json out.json >out.txt 2>&1 ||
    { echo "sanitized pan -C failed"; tail -30 out.txt; rc=1; }
python3 "$ROOT/cases/check-expected.py" "$ROOT/cases/railway/expected" out.json || rc=1
exit $rc
