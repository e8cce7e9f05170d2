#!/usr/bin/env bash
# The railway case end to end: DFS and BFS, with and without AC2(2), against
# cases/railway/expected (cases/test-case.sh); then the text report, and one run
# with the library under AddressSanitizer and UBSan (hooks and analysis).
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
export KEEP
KEEP=$(mktemp -d)
trap 'rm -rf "$KEEP"' EXIT
rc=0
bash "$ROOT/cases/test-case.sh" railway || rc=1
cd "$KEEP" || exit 1
make -s -f "$ROOT/Makefile" pan >/dev/null || exit 1
./pan -C >out.txt 2>&1
grep -q "2 causes of the hazard" out.txt || { echo "text report lacks the causes"; rc=1; }
grep -q "does not occur: Cl between Cc and Tc" out.txt || { echo "no non-occurrence in text"; rc=1; }
make -s -f "$ROOT/Makefile" SAN=1 pan >/dev/null || { echo "make SAN=1 pan failed"; exit 1; }
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1 ./pan -C --json out.json >out.txt 2>&1 ||
    { echo "sanitized pan -C failed"; tail -30 out.txt; rc=1; }
python3 "$ROOT/cases/check-expected.py" "$ROOT/cases/railway/expected" out.json || rc=1
exit $rc
