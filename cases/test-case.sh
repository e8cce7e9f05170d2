#!/usr/bin/env bash
# test-case.sh CASE [pan options]: one case end to end.  Copies cases/CASE/CASE.pml
# to a temporary directory, runs spin -a, builds pan for DFS and for BFS, runs
# ./pan -C with and without AC2(2) and compares each JSON result with
# cases/CASE/expected (cases/check-expected.py).  Leaves the work directory in
# $KEEP if set (the railway test runs further checks there).
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
CASE=$1
shift
W=${KEEP:-$(mktemp -d)}
[ -n "${KEEP:-}" ] || trap 'rm -rf "$W"' EXIT
cp "$ROOT/cases/$CASE/$CASE.pml" "$W/"
cd "$W" || exit 1
spin -a "$CASE.pml" >/dev/null || exit 1
rc=0
for search in dfs bfs; do
    flag=""
    [ $search = bfs ] && flag="BFS=1"
    make -s -f "$ROOT/Makefile" pan $flag >/dev/null || { echo "make pan $flag failed"; exit 1; }
    for ac2 in on off; do
        opt=""
        [ $ac2 = off ] && opt="--no-ac2"
        if ! ./pan -C $opt "$@" --json out.json >out.txt 2>&1; then
            echo "pan -C $opt failed"
            tail -20 out.txt
            rc=1
            continue
        fi
        python3 "$ROOT/cases/check-expected.py" "$ROOT/cases/$CASE/expected" out.json $opt || rc=1
    done
done
exit $rc
