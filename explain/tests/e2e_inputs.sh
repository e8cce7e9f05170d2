#!/usr/bin/env bash
# End-to-end tests of `pancause explain` on bad input and odd output paths (issue
# 13): each bad file is exit 1 with a message naming FILE:LINE (or the column of a
# formula), never a crash or a silent guess; the --html path is checked before
# spin's replay; a device or a symbolic link given as --html is written in place,
# never replaced; as an unprivileged user the message names the path and the real
# reason.  Unit tests of the same readers: tests/test_inputs.c.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
pc="$root/bin/pancause"
fix="$here/fixtures"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
chmod 755 "$work"
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
# expect NAME WANT_RC WANT_TEXT -- command...   (WANT_TEXT must occur in stdout+stderr)
expect() {
    local name="$1" rc="$2" want="$3"
    shift 4
    local out
    out="$("$@" 2>&1)"
    local got=$?
    if [ "$got" != "$rc" ]; then bad "$name: exit $got, want $rc: ${out:0:300}"; return; fi
    case "$out" in *"$want"*) ok ;; *) bad "$name: output lacks '$want': ${out:0:300}" ;; esac
}

cp "$fix/procs.pml" "$work/"
(cd "$work" && spin -a procs.pml >/dev/null && cc -O1 -w -o pan pan.c && ./pan -a >/dev/null 2>&1)
[ -s "$work/procs.pml.trail" ] || { echo "e2e_inputs: no trail for procs.pml"; exit 1; }

# ---- trails and models ----
{ head -3 "$work/procs.pml.trail"; echo "3:0:oops"; tail -n +4 "$work/procs.pml.trail"; } >"$work/bad.trail"
expect "trail line" 1 "bad.trail:4: not a trail line: '3:0:oops'" -- \
    "$pc" explain "$work/procs.pml" --trail "$work/bad.trail"
printf '1:0:14\n\0\n' >"$work/nul.trail"
expect "NUL in trail" 1 "contains a NUL byte" -- "$pc" explain "$work/procs.pml" --trail "$work/nul.trail"
expect "trail is a directory" 1 "cannot read trail $work: is a directory" -- \
    "$pc" explain "$work/procs.pml" --trail "$work"
mkdir "$work/dir.pml"
expect "model is a directory" 1 "cannot read model $work/dir.pml: is a directory" -- \
    "$pc" explain "$work/dir.pml" --trail "$work/procs.pml.trail"

# ---- NuSMV files ----
smv() { printf -- '-- specification %s  is false\n  -> State: 1.1 <-\n%b' "$1" "$2" >"$work/$3"; }
smv "G a" '    a = TRUE\n  -> State: 1.2 <-\n    a = FAL\n' cut.smv
expect "NuSMV value cut mid-word" 1 "cut.smv:5: a = FAL is a symbolic value" -- \
    "$pc" explain --nusmv "$work/cut.smv"
smv "G (zz)" '    a = TRUE\n' unknown.smv
expect "NuSMV unknown variable" 1 "unknown.smv:1: formula 'G (zz)': unknown variable 'zz'" -- \
    "$pc" explain --nusmv "$work/unknown.smv"
smv "G a" '    a = TRUE\n  -- Loop starts here\n' loop.smv
expect "NuSMV loop without a state" 1 "loop.smv:4: '-- Loop starts here' with no state after it" -- \
    "$pc" explain --nusmv "$work/loop.smv"
expect "NuSMV file is a directory" 1 "pancause explain: $work:" -- "$pc" explain --nusmv "$work"
deep=$(printf '(%.0s' $(seq 30000))p$(printf ')%.0s' $(seq 30000))
smv "$deep" '    p = TRUE\n' deep.smv
expect "30,000 parentheses" 1 "formula nested deeper than 1000" -- "$pc" explain --nusmv "$work/deep.smv"
expect "deep --formula" 1 "formula nested deeper than 1000" -- \
    "$pc" explain "$work/procs.pml" --formula "$(printf 'X %.0s' $(seq 30000))p"

# ---- the --html path ----
out=$("$pc" explain "$work/procs.pml" --html /nonexistent/x.html 2>&1)
rc=$?
if [ $rc = 1 ] && [[ "$out" == *"cannot write /nonexistent/x.html: directory /nonexistent"* ]] &&
    [[ "$out" != *"first failure"* ]]; then ok; else bad "unwritable --html before the replay: exit $rc: $out"; fi
# Into a pipe whose reader reads to the end: a reader that quits early (grep -q)
# would end pancause by SIGPIPE under pipefail, as it ends cat (CI saw it once).
"$pc" explain "$work/procs.pml" --html /dev/stdout 2>/dev/null | cat >"$work/piped.html"
[ "${PIPESTATUS[0]}" = 0 ] && grep -q '<!DOCTYPE html>' "$work/piped.html" &&
    [ -L /dev/stdout ] && ok || bad "--html /dev/stdout"
printf 'old' >"$work/target.html"
ln -s target.html "$work/link.html"
"$pc" explain "$work/procs.pml" --html "$work/link.html" >/dev/null 2>&1
[ -L "$work/link.html" ] && grep -q '<!DOCTYPE html>' "$work/target.html" && ok ||
    bad "--html through a symbolic link: the link was replaced or the target not written"
out=$("$pc" explain "$work/procs.pml" --html /dev/full 2>&1)
[ $? = 1 ] && [[ "$out" == *"cannot write /dev/full: No space left on device"* ]] && [ -c /dev/full ] &&
    ok || bad "--html /dev/full: $out"
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
    nobody=(setpriv --reuid=65534 --regid=65534 --clear-groups)
    out=$("${nobody[@]}" "$pc" explain "$work/procs.pml" --trail "$work/procs.pml.trail" --html /root/x.html 2>&1)
    [ $? = 1 ] && [[ "$out" == *"cannot write /root/x.html: directory /root: Permission denied"* ]] &&
        [[ "$out" != *tmp* ]] && ok || bad "unprivileged --html /root/x.html: $out"
fi
[ -z "$(ls "$work" | grep -E '\.tmp[A-Za-z0-9]{6}$')" ] && ok || bad "temporary files left: $(ls "$work")"

echo "e2e_inputs: $pass passed, $fail failed"
[ $fail -eq 0 ]
