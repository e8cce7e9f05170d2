#!/usr/bin/env bash
# The railway crossing example end to end, on a fresh Debian machine:
# installs spin, libbsd-dev and check when missing (as root), builds pancause,
# generates pan.c from railway.pml, builds ./pan with the causality hooks and runs
# `./pan -C`.  Extra arguments go to pan (e.g. --json out.json, --no-ac2).
# Set BFS=1 for the breadth-first search.
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
missing=()
command -v spin >/dev/null || missing+=(spin)
command -v gcc >/dev/null || missing+=(gcc)
command -v make >/dev/null || missing+=(make)
command -v pkg-config >/dev/null || missing+=(pkg-config)
[ -e /usr/include/bsd/bitstring.h ] || missing+=(libbsd-dev)
[ -e /usr/include/check.h ] || missing+=(check)
if [ ${#missing[@]} -gt 0 ]; then
    echo "installing ${missing[*]}"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
fi
make -s -C "$ROOT" -j2 lib programs
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
cp "$ROOT/cases/railway/railway.pml" "$W/"
cd "$W"
spin -a railway.pml
make -s -f "$ROOT/Makefile" pan ${BFS:+BFS=$BFS}
./pan -C "$@"
