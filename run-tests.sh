#!/usr/bin/env bash
# run-tests.sh - every test of pancause, on a fresh Debian machine.
#
# Installs what is missing (spin, libbsd, Check, the compilers' helpers, clang for the
# fuzzers, Graphviz, xmllint, Chromium and SCRAM for the reports), builds with -Werror
# (plain and sanitized), then runs: the Check unit tests, the same under
# AddressSanitizer + UBSan, the format check; then, in two lanes side by side (below),
# the railway and airbag cases end to end (DFS and BFS, with and without AC2(2)), the
# bad-input, limit, POR and report tests, the differential tests against the
# brute-force oracles, the explain end-to-end tests and oracle, the temporal causes'
# paper instances, bad input and differential test, the nearest search end to end, in
# Chromium and against its brute-force reference, and every libFuzzer harness for a
# short while (fuzz/smoke.sh).  Prints one closing line "N passed, M failed" over all
# suites and exits non-zero on any failure.
#
# Environment: ORACLE_MODELS (default 250) models for the oracle comparison;
# ORACLE_SEED (default 1, also the explain oracle's seed); EXPLAIN_CASES (default
# 1000) cases for the explain oracle; TEMPORAL_ORACLE_N (default 100) and
# TEMPORAL_ORACLE_SEED (default 1) for the temporal-cause oracle; NEAREST_MODELS
# (default 200) for the nearest oracle (seed ORACLE_SEED); POR_ORACLE_MODELS (default
# 30) models with process-local variables for the partial order reduction oracle
# (seeds ORACLE_SEED + 5000 ..); CHAN_ORACLE_MODELS (default 80) models with channels
# (seeds ORACLE_SEED + 11000 ..); ATOMIC_ORACLE_MODELS (default 60) models with atomic
# sequences (seeds ORACLE_SEED + 15000 ..); ATOMIC_POR_ORACLE_MODELS (default 20) models
# with atomic sequences and locals, POR on and off (seeds ORACLE_SEED + 17000 ..);
# ATOMIC_NARROW_POR_ORACLE_MODELS (default 20) the same with narrowing receives (seeds
# ORACLE_SEED + 22020 ..: with the default seed they hold 22034, where the reduction
# lost a run ending in a blocked atomic sequence);
# NESTED_ORACLE_MODELS (default 40) models with the nested safety formulas
# [] (p -> [] !q) and [] (p -> (!q U r || [] !q)), whose never claims guess, over
# channels and atomic sequences (seeds ORACLE_SEED + 26000 ..);
# NEAREST_RICH_MODELS (default 60) nearest-oracle
# models with locals, channels, rendezvous and atomic sequences, DFS builds (seeds
# ORACLE_SEED + 7000 ..); NEAREST_RICH2_MODELS (default 30) and NEAREST_MERGE_MODELS
# (default 20) nearest-oracle models with two-field channels, rendezvous inside atomic
# sequences and claims beside rendezvous, and with merged atomic steps, DFS builds
# (seeds ORACLE_SEED + 8000 .. and + 9000 ..); NEAREST_NESTED_MODELS (default 20)
# nearest-oracle models whose hazard is a nested safety formula (a never claim that
# guesses), every fourth a BFS build (seeds ORACLE_SEED + 10000 ..);
# UNLESS_POR_ORACLE_MODELS (default 20) oracle models with unless, local globals, xr/xs
# channels, atomic sequences and locals, POR on = off (seeds ORACLE_SEED + 43000 ..); FUZZ_TIME
# (default 20) seconds per fuzzer.
set -u
cd "$(dirname "$0")"
ROOT=$(pwd)

need_pkgs=()
have() { command -v "$1" >/dev/null 2>&1; }
have spin || need_pkgs+=(spin)
have gcc || need_pkgs+=(gcc)
have make || need_pkgs+=(make)
have pkg-config || need_pkgs+=(pkg-config)
have python3 || need_pkgs+=(python3)
have clang-format || need_pkgs+=(clang-format)
have objcopy || need_pkgs+=(binutils)
[ -e /usr/include/bsd/sys/tree.h ] || need_pkgs+=(libbsd-dev)
[ -e /usr/include/check.h ] || need_pkgs+=(check)
[ -e /usr/include/xxhash.h ] || need_pkgs+=(libxxhash-dev)
# apt_install PKG...: one apt-get for what is missing (apt-get update first when the
# package lists do not know them); non-zero when it fails.
apt_install() {
    [ $# -gt 0 ] || return 0
    echo "== installing $*"
    export DEBIAN_FRONTEND=noninteractive
    { apt-get install -y -qq "$@" || { apt-get update -qq && apt-get install -y -qq "$@"; }; } \
        >/dev/null 2>&1
}
apt_install "${need_pkgs[@]}" || { echo "could not install ${need_pkgs[*]}"; exit 1; }
# What single suites need (each also installs it when run alone): installed here, once,
# because the suites run in two lanes and two apt-gets at once would fight for dpkg's
# lock.  A package that cannot be installed fails only the suites that need it.
suite_pkgs=()
have clang || suite_pkgs+=(clang)
have dot || suite_pkgs+=(graphviz)
have xmllint || suite_pkgs+=(libxml2-utils)
have chromium || suite_pkgs+=(chromium)
have scram || suite_pkgs+=(scram)
apt_install "${suite_pkgs[@]}" ||
    echo "could not install ${suite_pkgs[*]}: the suites that need them will fail"

# Suites run in three phases.  The first builds everything (plain and sanitized, so
# that no later `make pan` writes into build/ or build-san/) and runs the unit tests,
# one suite at a time.  Then two lanes run side by side, since the machine has two
# cores and most end-to-end suites use one: lane A the differential tests and the
# fuzzers (two jobs each), lane B the end-to-end suites (one process each; every
# suite that starts Chromium is in lane B, so no two browsers share a profile).  A
# suite's output is printed whole when it ends, under a lock, so the lanes' blocks do
# not interleave; each block ends with the suite's verdict and seconds.
LOGS=$(mktemp -d)
lane_b_pid=
# On exit (also when killed), lane B stops before its log directory goes.
cleanup() {
    if [ -n "$lane_b_pid" ]; then
        kill "$lane_b_pid" 2>/dev/null
        wait "$lane_b_pid" 2>/dev/null
    fi
    rm -rf "$LOGS"
}
trap cleanup EXIT
: >"$LOGS/verdicts"
suite() { # suite NAME COMMAND...: runs one suite, records its verdict, prints its block
    local name=$1 t0=$SECONDS verdict=ok log
    shift
    log=$(mktemp "$LOGS/suite.XXXXXX")
    "$@" >"$log" 2>&1 || verdict=FAILED
    {
        flock 9
        printf '\n==== %s\n' "$name"
        cat "$log"
        printf -- '---- %s: %s (%d s)\n' "$name" "$verdict" $((SECONDS - t0))
        printf '%s\t%s\n' "$verdict" "$name" >>"$LOGS/verdicts"
    } 9>"$LOGS/lock"
    rm -f "$log"
}

JOBS=2
suite "build (-Werror; plain and ASan+UBSan)" sh -c "make -s -j$JOBS all && make -s -j$JOBS SAN=1 all"
suite "unit tests (Check)" make -s -j$JOBS check
suite "unit tests under ASan+UBSan" env ASAN_OPTIONS=detect_leaks=1 make -s -j$JOBS SAN=1 check
suite "clang-format" make -s format-check

lane_a() {
    suite "oracle: ${ORACLE_MODELS:-250} random models, DFS and BFS" \
        cases/oracle/run.sh "${ORACLE_MODELS:-250}" "${ORACLE_SEED:-1}"
    suite "oracle: ${CHAN_ORACLE_MODELS:-80} models with channels, buffered and rendezvous (DFS; BFS must say INCOMPLETE with rendezvous)" \
        env ORACLE_GEN_CHAN=1 cases/oracle/run.sh "${CHAN_ORACLE_MODELS:-80}" "$((${ORACLE_SEED:-1} + 11000))"
    suite "oracle: ${NESTED_ORACLE_MODELS:-40} models with nested safety formulas (never claims that guess), channels and atomic sequences" \
        env ORACLE_GEN_NESTED=1 ORACLE_GEN_ATOMIC=1 cases/oracle/run.sh "${NESTED_ORACLE_MODELS:-40}" \
        "$((${ORACLE_SEED:-1} + 26000))"
    suite "oracle: ${ATOMIC_ORACLE_MODELS:-60} models with atomic sequences over channels (DFS; BFS where complete)" \
        env ORACLE_GEN_ATOMIC=1 cases/oracle/run.sh "${ATOMIC_ORACLE_MODELS:-60}" "$((${ORACLE_SEED:-1} + 15000))"
    suite "oracle: ${POR_ORACLE_MODELS:-30} models with locals, POR on = off = oracle (AC2(2) too)" \
        env ORACLE_POR=1 ORACLE_GEN_LOCALS=1 ORACLE_PRUNE_EVERY=1000000 \
        cases/oracle/run.sh "${POR_ORACLE_MODELS:-30}" "$((${ORACLE_SEED:-1} + 5000))"
    suite "oracle: ${ATOMIC_POR_ORACLE_MODELS:-20} models with atomic sequences and locals, POR on = off = oracle" \
        env ORACLE_GEN_ATOMIC=1 ORACLE_POR=1 ORACLE_GEN_LOCALS=1 ORACLE_PRUNE_EVERY=1000000 \
        cases/oracle/run.sh "${ATOMIC_POR_ORACLE_MODELS:-20}" "$((${ORACLE_SEED:-1} + 17000))"
    suite "oracle: ${ATOMIC_NARROW_POR_ORACLE_MODELS:-20} models with atomic sequences, narrowing receives and locals, POR on = off = oracle" \
        env ORACLE_GEN_ATOMIC=1 ORACLE_GEN_NARROW=1 ORACLE_POR=1 ORACLE_GEN_LOCALS=1 ORACLE_PRUNE_EVERY=1000000 \
        cases/oracle/run.sh "${ATOMIC_NARROW_POR_ORACLE_MODELS:-20}" "$((${ORACLE_SEED:-1} + 22020))"
    suite "oracle: ${UNLESS_POR_ORACLE_MODELS:-20} models with unless, local globals, xr/xs channels, atomic sequences and locals, POR on = off = oracle" \
        env ORACLE_GEN_UNLESS=1 ORACLE_GEN_LOCALS2=1 ORACLE_GEN_XRXS=1 ORACLE_GEN_ATOMIC=1 ORACLE_POR=1 \
        ORACLE_GEN_LOCALS=1 ORACLE_PRUNE_EVERY=1000000 \
        cases/oracle/run.sh "${UNLESS_POR_ORACLE_MODELS:-20}" "$((${ORACLE_SEED:-1} + 43000))"
    suite "oracle: SPIN's statement merging inside atomic sequences = promela.merge_chains (its experiments, 100 random)" \
        python3 cases/oracle/mergecheck.py --random 100 "${ORACLE_SEED:-1}"
    suite "explain oracle: ${EXPLAIN_CASES:-1000} random formulas and traces against Definitions 1-4" \
        sh cases/explain-oracle/run.sh "${EXPLAIN_CASES:-1000}" "${ORACLE_SEED:-1}"
    suite "temporal oracle: ${TEMPORAL_ORACLE_N:-100} random instances x 2 relations" \
        bash temporal/tests/e2e_oracle.sh
    suite "nearest oracle: ${NEAREST_MODELS:-200} random models, exact distance, b replayed" \
        cases/nearest-oracle/run.sh "${NEAREST_MODELS:-200}" "${ORACLE_SEED:-1}"
    suite "nearest oracle: ${NEAREST_RICH_MODELS:-60} models with locals, channels, rendezvous, atomic (DFS)" \
        env NEAREST_GEN_RICH=1 NEAREST_BFS=0 cases/nearest-oracle/run.sh "${NEAREST_RICH_MODELS:-60}" \
        "$((${ORACLE_SEED:-1} + 7000))"
    suite "nearest oracle: ${NEAREST_RICH2_MODELS:-30} models with two-field channels, rendezvous in atomic, claims (DFS)" \
        env NEAREST_GEN_RICH2=1 NEAREST_BFS=0 cases/nearest-oracle/run.sh "${NEAREST_RICH2_MODELS:-30}" \
        "$((${ORACLE_SEED:-1} + 8000))"
    suite "nearest oracle: ${NEAREST_MERGE_MODELS:-20} models with merged atomic steps (DFS)" \
        env NEAREST_GEN_MERGE=1 NEAREST_BFS=0 cases/nearest-oracle/run.sh "${NEAREST_MERGE_MODELS:-20}" \
        "$((${ORACLE_SEED:-1} + 9000))"
    suite "nearest oracle: ${NEAREST_NESTED_MODELS:-20} models with nested safety formulas (never claims that guess)" \
        env NEAREST_GEN_NESTED=1 cases/nearest-oracle/run.sh "${NEAREST_NESTED_MODELS:-20}" \
        "$((${ORACLE_SEED:-1} + 10000))"
    suite "fuzzers: ${FUZZ_TIME:-20} s each, no crash, leak or timeout" fuzz/smoke.sh "${FUZZ_TIME:-20}"
}

lane_b() {
    suite "railway end to end" bash cases/railway/test.sh
    suite "airbag end to end (the paper's five causes)" bash cases/airbag/test.sh
    suite "bad input" bash spin-model/tests/bad-input.sh
    suite "pan without -C is stock pan" bash spin-model/tests/stock.sh
    suite "pan -C prints each violated property once (stock -c0: one per change)" \
        bash spin-model/tests/errors.sh
    suite "pan -C puts back what a narrowing receive took (SPIN's unrecv does not)" \
        bash spin-model/tests/unrecv.sh
    suite "limits: depth, memory, budget end with causes so far" bash spin-model/tests/limits.sh
    suite "never claims that guess: branches combined, causes exact, trails replay" \
        bash spin-model/tests/claims.sh
    suite "event names (init.L, Proc.L) in every output and build" bash spin-model/tests/names.sh
    suite "state identity: pan's table, siblings, fingerprints agree" bash spin-model/tests/identity.sh
    suite "partial order reduction keeps the causes, non-occurrences included" bash spin-model/tests/por.sh
    suite "the analysis' second thread changes nothing (--one-thread = default)" bash spin-model/tests/threads.sh
    suite "fault trees, trails, HTML report" bash report/tests/e2e_report.sh
    suite "output paths: devices and links in place, checked before the search" \
        bash report/tests/e2e_outputs.sh
    if grep -q '^explain-e2e:' explain/explain.mk 2>/dev/null; then
        suite "explain end to end" make -s explain-e2e
    fi
    suite "temporal: the paper's causes (Table 1, sections 1-4) by cause checking" \
        bash temporal/tests/e2e_paper.sh
    suite "temporal: bad input, exit statuses, nothing half-written" bash temporal/tests/e2e_errors.sh
    suite "temporal: SPIN models (Promela arbiters = HOA arbiters by cause checking; bad models, trails)" \
        bash temporal/tests/e2e_spin.sh
    suite "nearest end to end: stock and witness trails, the thesis' examples, bad input" \
        bash nearest/tests/e2e.sh
    suite "nearest HTML in headless Chromium" bash nearest/tests/e2e_html.sh
    : >"$LOGS/lane-b.done"
}

if grep -qE '^FAILED[[:space:]]build' "$LOGS/verdicts"; then
    echo
    echo "the build failed: the other suites are not run (they would rebuild it, two at once)"
else
    lane_b &
    lane_b_pid=$!
    lane_a
    wait "$lane_b_pid"
    lane_b_pid=
    # a lane B that died leaves suites without a verdict: that is a failure too
    [ -e "$LOGS/lane-b.done" ] ||
        printf 'FAILED\t%s\n' "lane B (it stopped before its last suite)" >>"$LOGS/verdicts"
fi

passed=$(grep -c '^ok' "$LOGS/verdicts")
failed=$(grep -c '^FAILED' "$LOGS/verdicts")
failures=()
while IFS=$'\t' read -r v name; do [ "$v" = ok ] || failures+=("$name"); done <"$LOGS/verdicts"
echo
[ "$failed" -eq 0 ] || printf 'failed suites: %s\n' "${failures[*]}"
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
