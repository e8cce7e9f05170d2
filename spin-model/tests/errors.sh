#!/usr/bin/env bash
# pan -C reports every violation (it adds -c0), and pan's uerror prints a line each
# time the violated property differs from the last one: a model whose assertions
# fail in turn printed one line per violation before the causes (bench/faults'
# readers_writers1: 103,296 lines).  ./pan -C and `pancause nearest` print each
# message once, the first time pan meets it, and pan's "errors:" count is stock's.
# pancause's own messages (stderr) follow pan's statistics (stdout) in one file.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
. "$ROOT/spin-model/tests/check.sh"
cd "$W" || exit 1
cp "$ROOT/spin-model/tests/fixtures/alternating.pml" m.pml
spin -a m.pml >/dev/null && gcc -O0 -w -o stock pan.c || exit 1
lines() { grep -c '^pan:[0-9]*: ' "$1"; }
messages() { sed -n 's/^pan:[0-9]*: \(.*\) (at depth [0-9]*)$/\1/p' "$1" | sort; }
errors() { sed -n 's/.*errors: \([0-9]*\)$/\1/p' "$1"; }
./stock -c0 >stock.out 2>&1
printf '%s\n' 'assertion violated (x!=3)' 'assertion violated (y!=3)' >want
check "stock pan -c0 repeats messages ($(lines stock.out) lines: the fixture alternates)" \
    test "$(lines stock.out)" -gt 2
check "stock pan -c0 meets the two messages" cmp -s want <(messages stock.out | uniq)
for v in dfs bfs; do
    mkdir "$v" && cp m.pml "$v/" && cd "$v" || exit 1
    spin -a m.pml >/dev/null || exit 1
    flag=
    [ $v = bfs ] && flag="BFS=1"
    make -s -f "$ROOT/Makefile" pan $flag >/dev/null 2>&1 || exit 1
    ./pan -C >out.txt 2>&1
    check "$v: pan -C prints each message once" cmp -s ../want <(messages out.txt)
    [ $v = dfs ] && check "dfs: pan's error count is stock's ($(errors out.txt))" \
        test "$(errors out.txt)" = "$(errors ../stock.out)"
    # stdout into a file is fully buffered: pancause's note on stderr (no labels here)
    # comes after pan's statistics, as on a terminal, not inside them
    stats=$(grep -n 'unreached in proctype watch_y' out.txt | cut -d: -f1)
    note=$(grep -n 'has no events' out.txt | cut -d: -f1)
    check "$v: pancause's note after pan's statistics (lines ${stats:-none}, ${note:-none})" \
        test "${note:-0}" -gt "${stats:-999999}"
    cd "$W" || exit 1
done
"$ROOT/bin/pancause" nearest m.pml >near.out 2>&1
rc=$?
check "nearest answers (exit $rc)" test $rc = 0
check "nearest: pan's lines, each message once" cmp -s want <(messages near.out)
finish errors
