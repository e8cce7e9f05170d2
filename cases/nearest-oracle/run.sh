#!/bin/sh
# Differential test of `./pan -C --nearest` against the brute-force reference.
#   cases/nearest-oracle/run.sh [N [SEED]]
# N random models (default 200) from SEED (default 1; CI may pass a varying seed),
# two at a time (NEAREST_JOBS): for each, the C distance must equal the reference's
# minimal distance, C's good run, replayed by SPIN, must be a real successful run, and
# C's Δ-slice on it must be slice_ref.py's (batch.py says how).  Failing cases are kept, with a repro.sh, in
# ${TMPDIR:-/tmp}/nearest-oracle-failures/seedSEED/ (emptied first).  Last line:
# "N passed, M failed"; exit status 1 on any failure.  NEAREST_GEN_RICH=1,
# NEAREST_GEN_RICH2=1 or NEAREST_GEN_MERGE=1 in the environment: gen.py's richer
# models (gen.py says which).  NEAREST_GEN_NESTED=1 (alone or with those): every
# model's hazard a nested safety formula, [] (p -> [] !q) or
# [] (p -> (!q U r || [] !q)), whose SPIN never claim guesses; the reference
# follows it with a monitor of its own (interp.py, gen.py's docstring).
here=$(cd "$(dirname "$0")" && pwd)
n=${1:-200}
seed=${2:-1}
keep=${TMPDIR:-/tmp}/nearest-oracle-failures/seed$seed
rm -rf "$keep"
# with the merged-statement family, first the hand models (hand/*.pml: each separates
# a reading of README "Merged statements" that generated models rarely do, slice_ref.py
# R12, R14, R16)
if [ "${NEAREST_GEN_MERGE:-0}" = 1 ]; then
    echo "nearest oracle: the hand models hand/*.pml"
    python3 "$here/batch.py" 0 --files "$here"/hand/*.pml --keep "$keep-hand" || exit 1
fi
echo "nearest oracle: $n models from seed $seed (again: $0 $n $seed)"
exec python3 "$here/batch.py" "$n" "$seed" --keep "$keep"
