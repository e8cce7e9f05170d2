#!/bin/bash
# Verify the fault benchmarks listed in faults.tsv (run from anywhere).
#
#   ./check.sh            check every row
#   ./check.sh NAME...    check only these rows
#   JOBS=N ./check.sh     run N rows in parallel (default: number of CPUs)
#
# For each row: NAME.pml differs from NAME.correct.pml in exactly one line, the
# faulty_line; that line reads correct_line in NAME.correct.pml; stock SPIN finds
# no error in NAME.correct.pml ("errors: 0") and at least one in NAME.pml, whose
# first error (pan's "pan:1:" line) is of the stated kind: "assertion violated"
# (not an array-index error) for assert, "invalid end state" for
# invalid-end-state.  Each model is checked with
#     spin -a M && gcc -O2 -DSAFETY [-D... from pan_flags] -o pan pan.c && ./pan -m100000 [other pan_flags]
# Prints a table; exit status 0 when every row passes, 1 otherwise.
set -u
here=$(cd "$(dirname "$0")" && pwd)
manifest=$here/faults.tsv
for tool in spin gcc; do
    command -v $tool >/dev/null || { echo "check.sh: $tool not found" >&2; exit 2; }
done
[ -f "$manifest" ] || { echo "check.sh: no $manifest" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/faults-check.XXXXXX")
trap 'rm -rf "$work"' EXIT

# run_pan MODEL DIR FLAGS: prints "errors<TAB>states<TAB>first error line"
run_pan() {
    local model=$1 dir=$2 flags=$3 cflags="" rflags="" f
    for f in $flags; do
        case $f in -D*) cflags="$cflags $f" ;; *) rflags="$rflags $f" ;; esac
    done
    mkdir -p "$dir" && cd "$dir" || return
    cp "$model" model.pml
    if ! spin -a model.pml >spin.out 2>&1; then
        printf 'spin-failed\t-\t%s\n' "$(head -1 spin.out)"; return
    fi
    if ! gcc -O2 -DSAFETY $cflags -o pan pan.c >gcc.out 2>&1; then
        printf 'gcc-failed\t-\t%s\n' "$(head -1 gcc.out)"; return
    fi
    timeout 300 ./pan -m100000 $rflags >pan.out 2>&1
    local errors states first
    errors=$(sed -n 's/.*errors: \([0-9]*\).*/\1/p' pan.out | head -1)
    states=$(awk '/states, stored/ {print $1; exit}' pan.out)
    first=$(grep -m1 '^pan:1:' pan.out | sed 's/ (at depth [0-9]*)$//')
    printf '%s\t%s\t%s\n' "${errors:-none}" "${states:--}" "$first"
}

# check_row LINE: prints one tab-separated result line
check_row() {
    local name file line kind error correct desc flags
    IFS=$'\t' read -r name file line kind error correct desc flags <<<"$1"
    local problems=() correct_file=$here/$name.correct.pml faulty_file=$here/$file
    local ce="-" fe="-" cs="-" fs="-" msg=""
    if [ ! -f "$correct_file" ] || [ ! -f "$faulty_file" ]; then
        problems+=("missing file")
    else
        # the diff must be exactly one changed line, at faulty_line
        local d
        d=$(diff "$correct_file" "$faulty_file" | grep -v '^[<>-]')
        [ "$d" = "${line}c${line}" ] || problems+=("diff is '$(echo $d)', want ${line}c${line}")
        local was
        was=$(sed -n "${line}p" "$correct_file" | sed 's/^[[:space:]]*//; s/[[:space:]]*$//')
        [ "$was" = "$correct" ] || problems+=("correct line $line is '$was'")
        local r
        r=$(run_pan "$correct_file" "$work/$name.correct" "$flags")
        IFS=$'\t' read -r ce cs _ <<<"$r"
        [ "$ce" = 0 ] || problems+=("correct model: errors $ce")
        r=$(run_pan "$faulty_file" "$work/$name.faulty" "$flags")
        IFS=$'\t' read -r fe fs msg <<<"$r"
        case $fe in
            ''|*[!0-9]*) problems+=("faulty model: errors $fe") ;;
            0) problems+=("faulty model: no error") ;;
        esac
        case $error in
            assert)
                [[ $msg == *"assertion violated"* && $msg != *"invalid array index"* ]] ||
                    problems+=("first error is not an assertion violation") ;;
            invalid-end-state)
                [[ $msg == *"invalid end state"* ]] ||
                    problems+=("first error is not an invalid end state") ;;
            *) problems+=("unknown error kind '$error'") ;;
        esac
    fi
    local status=PASS
    if [ ${#problems[@]} -gt 0 ]; then
        status=$(printf '%s; ' "${problems[@]}")
        status="FAIL: ${status%; }"
    fi
    msg=${msg#pan:1: }
    [ ${#msg} -le 40 ] || msg="${msg:0:37}..."
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' \
        "$name" "$line" "$kind" "$error" "$ce" "$cs" "$fe" "$fs" "$msg" "$status"
}
export -f check_row run_pan
export here work

rows=$work/rows
tail -n +2 "$manifest" | grep -v '^[[:space:]]*$' >"$rows"
if [ $# -gt 0 ]; then
    pat=$(printf '%s\n' "$@" | sed 's/.*/^&\t/')
    grep -f <(echo "$pat") "$rows" >"$rows.sel" || true
    mv "$rows.sel" "$rows"
    [ -s "$rows" ] || { echo "check.sh: no such benchmark: $*" >&2; exit 2; }
fi

jobs=${JOBS:-$(nproc 2>/dev/null || echo 1)}
while IFS= read -r r; do
    printf '%s\0' "$r"
done <"$rows" | xargs -0 -P "$jobs" -I{} bash -c 'check_row "$1"' _ {} >"$work/results"

{
    printf 'name\tline\tkind\terror\tcorrect:errors\tstates\tfaulty:errors\tstates\tfirst error (faulty)\tstatus\n'
    # keep the manifest's order
    while IFS=$'\t' read -r name _; do
        grep -m1 "^$name	" "$work/results"
    done <"$rows"
} | column -t -s $'\t'

total=$(wc -l <"$rows")
passed=$(grep -c $'\tPASS$' "$work/results")
echo
echo "$passed of $total benchmarks pass"
[ "$passed" -eq "$total" ]
