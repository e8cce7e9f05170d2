#!/bin/sh
# Differential test of `pancause temporal` against the reference.
#   cases/temporal-oracle/run.sh [N [SEED]]
# Generates N random instances (default 100) from SEED (default 1) with
# gen.py into a temporary directory and runs compare.py on them (both
# relations, TEMPORAL_JOBS=2 jobs in parallel), then on the paper instances
# of instances/instances.tsv.  BIN: $PANCAUSE, else <repo>/bin/pancause.
# Last line: "N passed, M failed"; exit status 1 on any failure (the
# generated instances are then kept and their directory printed).
here=$(cd "$(dirname "$0")" && pwd)
n=${1:-100}
seed=${2:-1}
dir=$(mktemp -d "${TMPDIR:-/tmp}/temporal-oracle.XXXXXX") || exit 2
python3 "$here/gen.py" "$seed" "$n" "$dir" >/dev/null || exit 2
python3 "$here/compare.py" -j "${TEMPORAL_JOBS:-2}" --error-cases \
    --manifest "$here/instances/instances.tsv" "$dir"
rc=$?
if [ $rc -eq 0 ]; then
    rm -rf "$dir"
else
    echo "instances kept in $dir"
fi
exit $rc
