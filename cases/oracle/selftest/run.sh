#!/bin/sh
# Self-tests of the oracle: each selftest/NAME.pml has hand-derived
# expectations NAME.expected.json (with AC2(2)) and NAME.noac2.expected.json
# (--no-ac2).  Prints "N passed, M failed"; exit status 1 on any failure.
here=$(cd "$(dirname "$0")" && pwd)
oracle=$here/..
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
for m in "$here"/*.pml; do
    n=$(basename "$m" .pml)
    for mode in "" noac2; do
        exp=$here/$n${mode:+.$mode}.expected.json
        flag=${mode:+--no-ac2}
        if python3 "$oracle/oracle.py" $flag "$m" "$tmp/out.json" &&
           python3 "$oracle/compare.py" "$exp" "$tmp/out.json" > "$tmp/diff"; then
            pass=$((pass + 1))
        else
            fail=$((fail + 1))
            echo "FAIL $n ${flag:-(ac2)}"
            cat "$tmp/diff"
        fi
    done
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
