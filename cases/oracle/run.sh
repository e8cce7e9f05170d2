#!/bin/sh
# Differential test of pan -C against the brute-force oracle.
#   cases/oracle/run.sh [N [SEED]]
# N random models (default 250: about 2.3 s of CPU per model, so 5 minutes
# on 2 idle cores), seeds SEED ..
# SEED+N-1 (default: 1; CI may pass a varying seed).  Last line of output:
# "N passed, M failed"; non-zero exit on any failure.
# ORACLE_GEN_CHAN=1: models with channels (buffered and rendezvous; about
# 1.3 s of CPU per model, 100 models in 80 s on 2 idle cores); the BFS build
# of a rendezvous model must say INCOMPLETE and is not compared (README).
# ORACLE_GEN_NESTED=1: ltl hazards [] (p -> [] !q) and [] (p -> (!q U r || [] !q)),
# whose SPIN never claims are nondeterministic; a pan -C result that says
# INCOMPLETE on them fails the model (README "Nested safety formulas").
# ORACLE_GEN_UNLESS=1, ORACLE_GEN_LOCALS2=1, ORACLE_GEN_XRXS=1: unless escapes,
# globals declared `local`, xr/xs channels and polls (README "Unless, `local`
# globals, xr/xs"); use them with ORACLE_POR=1.
# Combines with the other ORACLE_GEN_* switches (all are read by gen.py).
here=$(cd "$(dirname "$0")" && pwd)
exec python3 "$here/batch.py" -j "${ORACLE_JOBS:-2}" "${1:-250}" "${2:-1}"
