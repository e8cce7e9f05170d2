#!/usr/bin/env bash
# e2e_outputs.sh - where `./pan -C` writes (issue 13): every output goes through
# u_write_file, so a regular file is written whole or not at all, while a device
# (/dev/stdout, /dev/full) or a symbolic link is written in place and never replaced
# by a regular file (as root that rename would succeed); every output location, the
# trails directory included, is checked before the search; a message names the path
# the user gave and the real reason, also for an unprivileged user (never the
# temporary file).  On the railway model, which takes well under a second.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
chmod 755 "$W"
fails=0
ok() { echo "ok   $*"; }
bad() { echo "FAIL $*"; fails=$((fails + 1)); }
# expect NAME WANT_RC PATTERN ARGS...: ./pan -C ARGS exits WANT_RC, says PATTERN; a
# refusal (exit 2) must come before the search
expect() {
    local name=$1 want=$2 pat=$3
    shift 3
    ./pan -C "$@" >"$W/out" 2>&1
    local got=$?
    if [ "$got" != "$want" ] || ! grep -q -- "$pat" "$W/out"; then
        bad "$name: exit $got (want $want):"
        head -5 "$W/out" | sed 's/^/    /'
    elif [ "$want" = 2 ] && grep -q "causality checking (" "$W/out"; then
        bad "$name: refused only after the search"
    else
        ok "$name"
    fi
}

cd "$W" || exit 1
cp "$ROOT/cases/railway/railway.pml" . && spin -a railway.pml >/dev/null &&
    make -s -f "$ROOT/Makefile" pan >/dev/null || { echo "make pan failed"; exit 1; }

# an output over the model or another output destroys it: refused before the search
# (the eighth probe's P8-2), the model intact
cp railway.pml keep.pml
expect "--json over the model" 2 "railway.pml is also the input railway.pml" --json ./railway.pml
cmp -s railway.pml keep.pml && ok "the model is intact" || bad "--json over the model: model changed"
expect "two outputs on one file" 2 "is also an output" --json same.json --fault-tree same.json
printf "Ca 0.1\n" >p.txt
expect "--json over the probabilities" 2 "p.txt is also the input p.txt" --probabilities p.txt --json p.txt
# a text report that cannot be written is an error, not exit 0 (P8-5)
./pan -C >/dev/full 2>"$W/err.txt"
rc=$?
[ $rc = 1 ] && grep -q "cannot write the standard output" "$W/err.txt" && ok "stdout on /dev/full: exit 1" ||
    bad "stdout on /dev/full: exit $rc"
# devices: written in place
./pan -C --json /dev/stdout >out.txt 2>&1
grep -q '"causes"' out.txt && [ -c /dev/full ] && ok "--json /dev/stdout: the JSON on stdout" ||
    bad "--json /dev/stdout"
expect "--json /dev/full: the device's own error" 1 "cannot write /dev/full: No space left on device" \
    --json /dev/full
[ -c /dev/full ] && ok "/dev/full is still a device" || bad "/dev/full was replaced"
# a symbolic link: its target is written, the link stays
echo old >target.json && ln -s target.json link.json
./pan -C --json link.json >/dev/null 2>&1
[ -L link.json ] && grep -q '"causes"' target.json && ok "--json through a symbolic link" ||
    bad "--json through a symbolic link: link replaced or target not written"
mkdir trails.d && ln -s trails.d trails.link
./pan -C --trails trails.link >/dev/null 2>&1
[ -L trails.link ] && ls trails.d | grep -q '^railway.pml1.trail$' && ok "--trails through a link" ||
    bad "--trails through a symbolic link"
# refused before the search, with the path and the reason
expect "--json a directory" 2 "cannot write trails.d: it is a directory" --json trails.d
expect "--json under a file" 2 "cannot write out.txt/x.json: out.txt is not a directory" \
    --json out.txt/x.json
expect "--trails a file" 2 "cannot write into out.txt: not a directory" --trails out.txt
expect "--trails missing" 2 "cannot write into nowhere: No such file or directory" --trails nowhere
expect "--fault-tree under a missing directory" 2 "cannot write no/t.dot: directory no" \
    --fault-tree no/t.dot
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
    nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups ./pan -C "$@" >"$W/out" 2>&1; }
    for opt in --json --html --fault-tree; do
        f=/root/out.json
        [ $opt = --html ] && f=/root/out.html
        [ $opt = --fault-tree ] && f=/root/out.dot
        nobody $opt $f
        rc=$?
        [ $rc = 2 ] && grep -q "cannot write $f: directory /root: Permission denied" "$W/out" &&
            ! grep -q tmp "$W/out" && ok "unprivileged $opt $f: refused, path and reason" ||
            { bad "unprivileged $opt $f (exit $rc)"; head -3 "$W/out"; }
    done
    nobody --trails /root
    [ $? = 2 ] && grep -q "cannot write into /root: Permission denied" "$W/out" &&
        ok "unprivileged --trails /root: refused" || { bad "unprivileged --trails /root"; head -3 "$W/out"; }
    mkdir ro && chmod 555 ro
    nobody --json ro/out.json
    [ $? = 2 ] && grep -q "cannot write ro/out.json: directory ro: Permission denied" "$W/out" &&
        ok "unprivileged --json into a read-only directory" || { bad "read-only directory"; head -3 "$W/out"; }
fi
[ -z "$(ls -a . trails.d | grep -E '\.tmp[A-Za-z0-9]{6}$')" ] && ok "no temporary file left" ||
    bad "temporary files left"

echo "$fails failed"
[ $fails -eq 0 ]
