# spin-model/tests/check.sh - sourced by the test scripts of spin-model/tests (por.sh, claims.sh,
# threads.sh, unrecv.sh): their one pass/fail tally, so that each says only what it tests.
#   check NAME COMMAND...   runs COMMAND; prints "ok   NAME" or "FAIL NAME", counts a failure
#   finish NAME             prints "NAME: N failed"; the script's exit status (0 iff none)
fails=0
check() {
    local name=$1
    shift
    if "$@"; then echo "ok   $name"; else echo "FAIL $name"; fails=$((fails + 1)); fi
}
finish() {
    echo "$1: $fails failed"
    [ "$fails" -eq 0 ]
}
