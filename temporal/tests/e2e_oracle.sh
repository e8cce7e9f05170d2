#!/usr/bin/env bash
# e2e_oracle.sh - the differential test of `pancause temporal` against the
# independent Python reference (cases/temporal-oracle/: exact membership by
# product search, written from the paper): TEMPORAL_ORACLE_N random instances
# (default 100) from TEMPORAL_ORACLE_SEED (default 1), each under both
# relations, every input lasso up to the length bound compared with the cause
# automaton; then the paper's instances and the exit-status cases.  Last line
# "N passed, M failed"; failing instances are kept and named.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
export PANCAUSE=${PANCAUSE:-$root/bin/pancause}
exec "$root/cases/temporal-oracle/run.sh" "${TEMPORAL_ORACLE_N:-100}" "${TEMPORAL_ORACLE_SEED:-1}"
