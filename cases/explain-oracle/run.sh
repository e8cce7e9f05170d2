#!/bin/sh
# Differential test of `pancause explain` against the Python reference.
#   cases/explain-oracle/run.sh [N [SEED]]
# N random cases (default 1000) from SEED (default 1; CI may pass a varying
# seed), generated into a temporary directory and compared, two jobs at a
# time (EXPLAIN_ORACLE_JOBS to change).  The tool is $PANCAUSE, else
# <repo>/bin/pancause.  Extra compare.py options may be passed in
# EXPLAIN_ORACLE_OPTS (e.g. --lenient-holds).  Failing cases are kept in
# ${TMPDIR:-/tmp}/explain-oracle-failures/seedSEED/ (emptied first).
# Last line of output: "cases: N, passed: P, failed: F"; exit status 1 on
# any failure, 2 if the test could not run.
here=$(cd "$(dirname "$0")" && pwd)
n=${1:-1000}
seed=${2:-1}
jobs=${EXPLAIN_ORACLE_JOBS:-2}
keep=${TMPDIR:-/tmp}/explain-oracle-failures/seed$seed
dir=$(mktemp -d "${TMPDIR:-/tmp}/explain-oracle.XXXXXX") || exit 2
trap 'rm -rf "$dir"' EXIT
trap 'exit 2' INT TERM
python3 "$here/gen.py" "$seed" "$n" "$dir" -j "$jobs" || exit 2
echo "generated $n cases from seed $seed (again: python3 $here/gen.py $seed $n DIR)"
rm -rf "$keep"
python3 "$here/compare.py" -j "$jobs" --keep "$keep" $EXPLAIN_ORACLE_OPTS "$dir"
