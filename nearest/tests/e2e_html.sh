#!/usr/bin/env bash
# The --html page of pancause nearest in a real headless Chromium: the page must
# render one lane row per aligned pair and per unaligned step, mark the changed
# actions, deleted and inserted steps, and list every Δ with the slice highlighted,
# as many of each as the JSON of the same run says, and a lasso's loop on b's lane
# (every step of the loop barred, its first and last marked), and the marks of
# --with-explain / --with-causes (explain's dots, pan -C's cause events) on a's lane.  The page's script writes what
# the browser drew into <pre id="nr-summary">; this test reads it from the DOM
# Chromium dumps.  A page with a row or a Δ taken out must fail the check.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
pc="$root/bin/pancause"
fix="$here/fixtures"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

if ! command -v chromium >/dev/null; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y chromium >/dev/null 2>&1 || { apt-get update >/dev/null 2>&1 && apt-get install -y chromium >/dev/null 2>&1; } || {
        echo "e2e_html: cannot install chromium"; exit 1; }
fi

browse() { # browse PAGE > DOM
    timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
        --disable-background-networking --disable-component-update --disable-sync \
        --user-data-dir="$(mktemp -d -p "$work")" --virtual-time-budget=5000 --dump-dom "file://$1" 2>/dev/null
}

# check NAME PAGE JSON: what the browser drew is what the JSON says
check() {
    browse "$2" >"$work/$1.dom"
    python3 - "$work/$1.dom" "$3" "$1" "${@:4}" <<'PY'
import html, json, re, sys
dom, j, name = open(sys.argv[1]).read(), json.load(open(sys.argv[2])), sys.argv[3]
m = re.search(r'<pre id="nr-summary"[^>]*>(.*?)</pre>', dom, re.S)
if not m or not m.group(1).strip():
    sys.exit(f"{name}: no summary in the DOM (script did not run?)")
got = dict(kv.split("=") for kv in html.unescape(m.group(1)).split())
got = {k: int(v) for k, v in got.items()}
c = j["counts"]
want = {"rows": len(j["alignment"]) + c["deleted"] + c["inserted"],
        "aligned": len(j["alignment"]) - c["da"], "action": c["da"], "deleted": c["deleted"],
        "inserted": c["inserted"], "deltas": len(j["deltas"]), "slice": len(j["slice"])}
b = j["b"]  # a lasso's loop: every b step from loop_step on barred, its ends marked
lasso = bool(b.get("lasso"))
want.update({"loop": len(b["steps"]) - b["loop_step"] + 1 if lasso else 0,
             "loop_start": int(lasso), "loop_end": int(lasso)})
# the other explanations (--with-explain/--with-causes): as many marks drawn on a's lane
# as the page's own list holds, each in an a cell of the step it names
mk = re.search(r'<script type="application/json" id="nr-marks">(.*?)</script>', dom, re.S)
marks = json.loads(html.unescape(mk.group(1))) if mk else []
want.update({"dots": sum(m["kind"] == "dot" for m in marks),
             "causes": sum(m["kind"] == "cause" for m in marks)})
for m in marks:
    cell = re.search(r'<td class="step a[^"]*" data-step="%d"[^>]*>(.*?)</td>' % m["step"], dom, re.S)
    if not cell or m["label"] not in cell.group(1):
        sys.exit(f"{name}: mark {m} not drawn in a's step {m['step']}")
if len(sys.argv) > 4:  # the tools' own outputs: every dot and every cause event is there
    ex, cz = json.load(open(sys.argv[4])), json.load(open(sys.argv[5]))
    if want["dots"] != len(ex["dots"]):
        sys.exit(f"{name}: {want['dots']} dots marked, pancause explain has {len(ex['dots'])}")
    events = sum(len(c["occurrences"]) for c in cz["causes"])
    if want["causes"] != events or not marks:
        sys.exit(f"{name}: {want['causes']} cause events marked, pan -C's causes have {events}")
errors = [f"{k}: drew {got.get(k)}, want {v}" for k, v in want.items() if got.get(k) != v]
if want["rows"] == 0 or want["deltas"] == 0:
    errors.append("nothing to draw: a useless test case")
if errors:
    sys.exit(f"{name}: " + "; ".join(errors))
PY
    [ $? = 0 ] && ok || bad "$1"
}

run() { # run NAME MODEL [OPTIONS]: pancause nearest with --json and --html in $work/NAME/
    mkdir -p "$work/$1"
    cp "$2" "$work/$1/"
    "$pc" nearest "$work/$1/$(basename "$2")" --json "$work/$1/out.json" --html "$work/$1/out.html" \
        "${@:3}" >"$work/$1/out" 2>&1 || bad "$1: pancause nearest exit $?"
    check "$1" "$work/$1/out.html" "$work/$1/out.json"
}

run minmax "$fix/minmax.pml"      # a changed action, a deleted and an inserted step
run end "$fix/end.pml"            # an invalid end state
run railway "$root/cases/railway/railway.pml" # a never claim
run abp "$fix/abp.pml"            # a lasso: no finite successful run
run bakery1 "$fix/bakery1.pml"    # BEEM: b is a cut short at a settled state
grep -q 'id="cut-short"' "$work/bakery1.dom" && ! grep -q 'id="cut-short"' "$work/minmax.dom" && ok ||
    bad "bakery1: the drawn page does not note that b is a cut short (or minmax's does)"
run assume "$fix/minmax.pml" --assume 'least <= most' # --assume, which a breaks
grep -q '<p id="assume">.*<code>least &lt;= most</code>' "$work/assume.dom" &&
    grep -q 'id="assume-broken"' "$work/assume.dom" && ! grep -q 'id="assume' "$work/minmax.dom" && ok ||
    bad "assume: the drawn page does not show the assumption and that a breaks it (or minmax's does)"

# every explanation on one counterexample: the railway's ltl trail with explain's red
# dots and pan -C's causes (its statements are labelled), checked against the two
# tools run on their own
mkdir -p "$work/other" && cp "$root/cases/railway/railway.pml" "$work/other/"
(cd "$work/other" && spin -a railway.pml >/dev/null && cc -O1 -w -o pan pan.c && ./pan >/dev/null 2>&1 &&
    "$pc" explain railway.pml --json >explain.json 2>/dev/null &&
    make -s -f "$root/Makefile" pan >/dev/null 2>&1 && ./pan -C --json causes.json >/dev/null 2>&1)
"$pc" nearest "$work/other/railway.pml" --json "$work/other/out.json" --html "$work/other/out.html" \
    --with-explain --with-causes >"$work/other/out" 2>&1 || bad "other: pancause nearest exit $?"
grep -q 'explain dots and .* cause events marked' "$work/other/out" && ok || bad "other: marks not reported"
check other "$work/other/out.html" "$work/other/out.json" "$work/other/explain.json" "$work/other/causes.json"
# a page whose marks were not drawn fails: the drawing script taken out
sed 's/if(mk)JSON.parse/if(0)JSON.parse/' "$work/other/out.html" >"$work/nomarks.html"
before=$fail
check nomarks "$work/nomarks.html" "$work/other/out.json" >/dev/null 2>&1
if [ "$fail" -gt "$before" ]; then fail=$before; ok; else bad "a page with undrawn marks passed"; fi
# without --html the marks have nowhere to go: refused before any work
"$pc" nearest "$work/other/railway.pml" --with-explain >/dev/null 2>&1
[ $? -eq 2 ] && ok || bad "--with-explain without --html not refused (exit 2)"

# marks_are NAME PAGE WANT: the page's marks (its nr-marks list) are exactly WANT, a
# Python list of (a step, "dot" | "cause", label)
marks_are() {
    python3 - "$2" "$3" <<'PY' && ok || bad "$1: wrong marks"
import json, re, sys
m = re.search(r'<script type="application/json" id="nr-marks">(.*?)</script>', open(sys.argv[1]).read(), re.S)
got = sorted((x["step"], x["kind"], x["label"]) for x in json.loads(m.group(1))) if m else None
want = sorted(tuple(x) for x in eval(sys.argv[2]))
if got != want:
    sys.exit(f"marks {got}, want {want}")
PY
}

# a label on an `if` (BEEM's every label): pan -C's cause S .& T is a's own, its events
# on a's step 1 (the option's move out of S) and step 2 (third probe H2: matched by
# source line, SPIN's option line, neither was, and the page called it no cause of a)
mkdir -p "$work/iflabel" && cp "$fix/iflabel.pml" "$work/iflabel/"
"$pc" nearest "$work/iflabel/iflabel.pml" --json "$work/iflabel/out.json" --html "$work/iflabel/out.html" \
    --with-causes >"$work/iflabel/out" 2>&1 || bad "iflabel: pancause nearest exit $?"
check iflabel "$work/iflabel/out.html" "$work/iflabel/out.json"
marks_are iflabel "$work/iflabel/out.html" '[(1, "cause", "1:S"), (2, "cause", "1:T")]'
! grep -q 'not a cause of this counterexample' "$work/iflabel/out.html" && ok ||
    bad "iflabel: the page calls a's own cause no cause of it"

# a process that ends in a (its -end- move a step of a): explain's dots at the first
# failure on a's step 4, where x = 2 makes it fail (third probe H5: both were dropped as
# "no step of a"); L1 and L2 on one line on steps 3 and 4; checked against the tools
mkdir -p "$work/ends" && cp "$fix/ends.pml" "$work/ends/"
(cd "$work/ends" && spin -a ends.pml >/dev/null && cc -O1 -w -o pan pan.c && ./pan -a >/dev/null 2>&1 &&
    "$pc" explain ends.pml --json >explain.json 2>/dev/null &&
    make -s -f "$root/Makefile" pan >/dev/null 2>&1 && ./pan -C --json causes.json >/dev/null 2>&1)
"$pc" nearest "$work/ends/ends.pml" --json "$work/ends/out.json" --html "$work/ends/out.html" \
    --with-explain --with-causes >"$work/ends/out" 2>&1 || bad "ends: pancause nearest exit $?"
check ends "$work/ends/out.html" "$work/ends/out.json" "$work/ends/explain.json" "$work/ends/causes.json"
marks_are ends "$work/ends/out.html" \
    '[(4, "dot", "x"), (4, "dot", "y"), (3, "cause", "1:L1"), (4, "cause", "1:L2"), (1, "cause", "1:M")]'
! grep -q 'no step of a' "$work/ends/out.html" && ok || bad "ends: a dot dropped as no step of a"

# $SPIN is the spin of every step, relative too (it was `spin -a`, the replay and
# `spin -d` from PATH, and only explain's dots from $SPIN): a spin that logs its
# options, named relative to the directory nearest starts in, gives the same marks
# and ran for spin -a, the replay (-t) and the symbol table (-d)
printf '#!/bin/sh\necho "$1" >>"%s/spin.log"\nexec "%s" "$@"\n' "$work/ends" "$(command -v spin)" \
    >"$work/ends/logspin" && chmod +x "$work/ends/logspin"
(cd "$work/ends" && SPIN=./logspin "$pc" nearest ends.pml --json env.json --html env.html \
    --with-explain --with-causes >env.out 2>&1) || bad "SPIN=./logspin: pancause nearest exit $?"
marks_are SPIN "$work/ends/env.html" \
    '[(4, "dot", "x"), (4, "dot", "y"), (3, "cause", "1:L1"), (4, "cause", "1:L2"), (1, "cause", "1:M")]'
for o in -a -t -d; do
    grep -qx -- "$o" "$work/ends/spin.log" 2>/dev/null && ok || bad "SPIN=./logspin: no spin $o ran through it"
done
printf '#!/bin/sh\necho "spin: out of memory" >&2\nexit 1\n' >"$work/ends/fakespin" && chmod +x "$work/ends/fakespin"
SPIN="$work/ends/fakespin" "$pc" nearest "$work/ends/ends.pml" >"$work/ends/fake.out" 2>&1
[ $? -ne 0 ] && grep -q 'spin -a ends.pml failed' "$work/ends/fake.out" && grep -q 'out of memory' "$work/ends/fake.out" &&
    ok || bad "a failing \$SPIN: not named"

# the check can fail: a page without its first deleted row, one without a Δ
sed '0,/<tr class="row row-deleted/s//<tr class="gone/' "$work/minmax/out.html" >"$work/norow.html"
sed '0,/<li class="delta/s//<li class="gone/' "$work/minmax/out.html" >"$work/nodelta.html"
for p in norow nodelta; do
    before=$fail
    check "$p" "$work/$p.html" "$work/minmax/out.json" >/dev/null 2>&1
    if [ "$fail" -gt "$before" ]; then fail=$before; ok; else bad "a page with a missing item passed ($p)"; fi
done

echo "nearest e2e_html: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
