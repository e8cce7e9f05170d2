#!/usr/bin/env bash
# pan stays pan: without -C the pan that `make pan` builds prints what stock pan
# (pan.c compiled as SPIN's documentation says) prints, writes the same trail, and
# keeps -C's meaning of columnated replay when a trail file follows it.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
cd "$W" || exit 1
cp "$ROOT/cases/railway/railway.pml" .
spin -a railway.pml >/dev/null || exit 1
gcc -O2 -w -o stock pan.c || exit 1
make -s -f "$ROOT/Makefile" pan >/dev/null || exit 1
strip_time() { grep -v -e 'elapsed time' -e 'pan: rate' -e '^pan: wrote' "$1"; }
fails=0
same() { # same NAME ARGS...: stock and ./pan agree on output and exit code
    local name=$1
    shift
    ./stock "$@" >s.out 2>&1
    local a=$?
    [ -n "$SEARCH" ] && mv railway.pml.trail s.trail
    ./pan "$@" >p.out 2>&1
    local b=$?
    [ -n "$SEARCH" ] && mv railway.pml.trail p.trail
    if [ $a != $b ] || ! diff <(strip_time s.out) <(strip_time p.out) >diff.out; then
        echo "FAIL $name (exit $a vs $b)"
        head -20 diff.out
        fails=$((fails + 1))
    else
        echo "ok   $name"
    fi
}
SEARCH=1 same "search" -m1000
SEARCH=
cmp -s s.trail p.trail && echo "ok   same trail" || { echo "FAIL trail differs"; fails=$((fails + 1)); }
cp s.trail railway.pml.trail
same "replay -r" -r
cp s.trail railway.pml.trail
same "columnated replay -C FILE" -C railway.pml.trail
same "state tables -d" -d
[ $fails -eq 0 ]
