#!/usr/bin/env bash
# e2e_report.sh - the report module end to end with real spin, pan, Graphviz, xmllint,
# SCRAM and headless Chromium: fault trees (.dot rendered to SVG and PNG, Open-PSA MEF validated
# against the schema in fixtures/, .json), trails replayed by `spin -k` and `./pan -r`
# (a bad trail reaches the violation, a good one does not), the HTML report as the
# browser renders it, probabilities, and bad inputs (unknown extension, malformed
# probability file, unwritable path: clear error, non-zero exit, nothing half-written).
# Cases: railway (never claim, two PAND causes with a non-occurrence, shared events)
# and cases/pand (assert, one PAND and one AND gate sharing Sf), DFS and BFS.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
RNG=$ROOT/report/tests/fixtures/opsa-mef-fault-tree.rng
need=()
command -v dot >/dev/null || need+=(graphviz)
command -v xmllint >/dev/null || need+=(libxml2-utils)
command -v chromium >/dev/null || need+=(chromium)
command -v scram >/dev/null || need+=(scram)
if [ ${#need[@]} -gt 0 ]; then
    export DEBIAN_FRONTEND=noninteractive
    { apt-get install -y -qq "${need[@]}" || { apt-get update -qq && apt-get install -y -qq "${need[@]}"; }; } \
        >/dev/null 2>&1 || { echo "cannot install ${need[*]}"; exit 1; }
fi
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
fails=0
ok() { echo "ok   $*"; }
bad() { echo "FAIL $*"; fails=$((fails + 1)); }
check() { # check NAME COMMAND...
    local name=$1
    shift
    if "$@"; then ok "$name"; else bad "$name"; fi
}
browse() { # browse OUT.dom PAGE: the DOM after the page's script ran
    timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
        --disable-background-networking --disable-component-update --disable-sync \
        --user-data-dir="$(mktemp -d -p "$W")" --dump-dom "file://$2" >"$1" 2>/dev/null
}

# The page's own count of what the browser rendered must match the JSON's causes and
# the tree's gates and basic events.
html_ok() { # html_ok DOM OUT.JSON TREE.JSON
    python3 - "$@" <<'PY'
import json, re, sys
dom = open(sys.argv[1]).read()
out, tree = json.load(open(sys.argv[2])), json.load(open(sys.argv[3]))
m = re.search(r'<pre id="pc-summary">([^<]*)</pre>', dom)
if not m:
    sys.exit("no rendered summary")
got = dict(kv.split("=") for kv in m.group(1).split())
n = len(out["causes"])
want = {"causes": n, "gates": n, "timelines": n, "or": 1,
        "pand": sum(g["type"] == "pand" for g in tree["gates"]),
        "basic": len(tree["basic_events"]),
        "conditions": sum(len(g["absent"]) for g in tree["gates"])}
bad = {k: (got.get(k), v) for k, v in want.items() if int(got.get(k, -1)) != v}
if bad or n == 0:
    sys.exit("rendered vs expected: %s" % bad)
for c in out["causes"]:
    if c["eol_unicode"].replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;") not in dom:
        sys.exit("cause missing: " + c["eol"])
m = re.search(r'<p id="in-every-cause" data-sure="(yes|no)">(.*?)</p>', dom)
if n >= 2 and out["in_every_cause"]:
    if not m or sorted(re.findall(r"<b>([^<]*)</b>", m.group(2))) != sorted(out["in_every_cause"]) \
            or (m.group(1) == "yes") != out["in_every_bad_run"]:
        sys.exit("events in every cause: page %s, JSON %s" % (m and m.groups(), out["in_every_cause"]))
PY
}

# Tree shape from the JSON tree: gate kinds, shared events.
tree_ok() { # tree_ok TREE.JSON OUT.JSON "pand and ..." SHARED
    python3 - "$@" <<'PY'
import json, sys
tree, out = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
kinds = sorted(g["type"] for g in tree["gates"])
if kinds != sorted(sys.argv[3].split()):
    sys.exit("gate kinds %s" % kinds)
for g, c in zip(tree["gates"], out["causes"]):
    if g["eol"] != c["eol"] or sorted(g["inputs"]) != sorted(c["events"]):
        sys.exit("gate %s does not match its cause" % g["name"])
    if (g["type"] == "pand") != bool(c["ordered"]):
        sys.exit("PAND exactly where an order is causal")
names = [b["name"] for b in tree["basic_events"]]
if len(names) != len(set(names)):
    sys.exit("a basic event twice")
shared = sys.argv[4]
if sum(shared in g["inputs"] for g in tree["gates"]) < 2:
    sys.exit(shared + " is not shared")
PY
}

replays() { # replays MODEL OUT.JSON: every trail reaches the violation, good ones do not
    local model=$1 json=$2 t
    for t in $(python3 -c 'import json,sys; [print(c["trail"]) for c in json.load(open(sys.argv[1]))["causes"]]' "$json"); do
        spin -k "$t" -p "$model" >rep.txt 2>&1
        grep -q -e "assertion violated" -e "never claim" -e "invalid end state" rep.txt || return 1
        ./pan -r "$t" >rep.txt 2>&1
        grep -q -e "assertion violated" -e "claim violated" -e "invalid end state" rep.txt || return 1
    done
    for t in $(python3 -c 'import json,sys; [print(c["good_trail"]) for c in json.load(open(sys.argv[1]))["causes"] if c["good_witness"]]' "$json"); do
        spin -k "$t" -p "$model" >rep.txt 2>&1
        grep -q "trail ends after" rep.txt || return 1
        ! grep -q -e "violated" -e "invalid end state" rep.txt || return 1
    done
    [ -n "$(python3 -c 'import json,sys; print("".join(c["trail"] or "" for c in json.load(open(sys.argv[1]))["causes"]))' "$json")" ]
}

# ---- railway: never claim, DFS (and its BFS trails below) ----
mkdir "$W/railway" && cd "$W/railway" || exit 1
cp "$ROOT/cases/railway/railway.pml" .
spin -a railway.pml >/dev/null && make -s -f "$ROOT/Makefile" pan >/dev/null || { echo "make pan failed"; exit 1; }
printf '# railway\nTa 0.9\nCa 0.3\nCc 0.8\nGc 0.5\nGf 0.01\nTc 0.9\n' >p.txt
./pan -C --json out.json --trails . --fault-tree tree.dot --html report.html --probabilities p.txt >out.txt 2>&1 ||
    bad "railway: pan -C with every report option"
./pan -C --fault-tree tree.xml --probabilities p.txt >/dev/null 2>&1 && ./pan -C --fault-tree tree.json >/dev/null 2>&1 ||
    bad "railway: .xml/.json trees"
check "railway: text report names the trails" grep -q "trail: railway.pml1.trail" out.txt
check "railway: tree JSON gates PAND PAND, Ca shared" tree_ok tree.json out.json "pand pand" Ca
check "railway: .dot has 2 PAND gates, 6 basic events, 2 conditions" \
    test "$(grep -c 'peripheries=2' tree.dot) $(grep -c 'shape=circle' tree.dot) $(grep -c 'style=dashed, label' tree.dot)" = "2 6 2"
check "railway: dot renders SVG" sh -c 'dot -Tsvg tree.dot >tree.svg && grep -q PAND tree.svg'
check "railway: dot renders PNG" sh -c 'dot -Tpng tree.dot >tree.png && [ "$(head -c 4 tree.png | tail -c 3)" = PNG ]'
check "railway: MEF validates against the schema" xmllint --noout --relaxng "$RNG" tree.xml
check "railway: MEF carries the probabilities and PAND order" \
    sh -c 'grep -q "<float value=\"0.01\"/>" tree.xml && grep -c "name=\"pand-order\"" tree.xml | grep -qx 2'
./pan >/dev/null 2>&1 # stock pan's own trail, for its header lines
check "railway: trail header as stock pan writes it" \
    test "$(head -2 railway.pml1.trail)" = "$(head -2 railway.pml.trail)"
check "railway: trails replay (spin -k, ./pan -r) to the violation; good trails do not" replays railway.pml out.json
mkdir bfs && cp railway.pml bfs/ && (cd bfs && spin -a railway.pml >/dev/null &&
    make -s -f "$ROOT/Makefile" pan BFS=1 >/dev/null && ./pan -C --json out.json --trails . >/dev/null 2>&1) ||
    bad "railway BFS: pan -C --trails"
bfs_replays() { (cd bfs && replays railway.pml out.json); }
check "railway BFS: trails (never claim moves included) replay to the violation" bfs_replays
browse report.dom "$PWD/report.html"
check "railway: HTML in Chromium shows every cause, the tree, the timelines" html_ok report.dom out.json tree.json
check "railway: HTML computes the top-event probability" grep -q 'id="p-exact">0.098172<' report.dom
sed 's#<svg id="fault-tree".*</svg>##' report.html >notree.html
browse notree.dom "$PWD/notree.html"
if html_ok notree.dom out.json tree.json 2>/dev/null; then bad "browser check passes without the tree"; else ok "railway: the browser check fails without the tree"; fi
python3 -c 'import re,sys; s=open("report.html").read(); open("nocause.html","w").write(re.sub(r"<div class=\"cause\" id=\"cause-2\">.*?</svg>\n</div>", "", s, flags=re.S))'
browse nocause.dom "$PWD/nocause.html"
if html_ok nocause.dom out.json tree.json 2>/dev/null; then bad "browser check passes without cause 2"; else ok "railway: the browser check fails without a cause"; fi
timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$(mktemp -d -p "$W")" --window-size=1200,1800 --screenshot="$PWD/shot.png" \
    "file://$PWD/report.html" >/dev/null 2>&1
check "railway: screenshot" test -s shot.png
[ -n "${PC_SCREENSHOT:-}" ] && cp shot.png "$PC_SCREENSHOT"

# ---- pand: assert, PAND + AND sharing Sf, DFS and BFS ----
for search in dfs bfs; do
    mkdir "$W/pand-$search" && cd "$W/pand-$search" || exit 1
    cp "$ROOT/cases/pand/pand.pml" .
    flag=""
    [ $search = bfs ] && flag="BFS=1"
    spin -a pand.pml >/dev/null && make -s -f "$ROOT/Makefile" pan $flag >/dev/null || { bad "pand: make pan $flag"; continue; }
    ./pan -C --json out.json --trails . --fault-tree tree.json >out.txt 2>&1 || bad "pand $search: pan -C"
    ./pan -C --fault-tree tree.xml >/dev/null 2>&1
    check "pand $search: one PAND (Sf < Ps), one AND, Sf shared" tree_ok tree.json out.json "and pand" Sf
    check "pand $search: MEF validates" xmllint --noout --relaxng "$RNG" tree.xml
    check "pand $search: trails replay to the assertion" replays pand.pml out.json
done

# ---- a real fault tree tool reads every MEF written above: SCRAM ----
scram_ok() { python3 "$ROOT/report/tests/scram_check.py" "$@" >scram.txt 2>&1 || { cat scram.txt; return 1; }; }
(cd "$W/railway" && ./pan -C --fault-tree treep.json --probabilities p.txt >/dev/null 2>&1) ||
    bad "railway: tree JSON with probabilities"
check "railway: SCRAM's cut sets and probabilities (MOCUS, BDD) are ours" \
    sh -c "cd '$W/railway' && python3 '$ROOT/report/tests/scram_check.py' tree.xml treep.json"
for search in dfs bfs; do
    check "pand $search: SCRAM's cut sets are ours" \
        sh -c "cd '$W/pand-$search' && python3 '$ROOT/report/tests/scram_check.py' tree.xml tree.json"
done
mkdir "$W/single" && cd "$W/single" || exit 1
cp "$ROOT/report/tests/fixtures/single.pml" . && spin -a single.pml >/dev/null &&
    make -s -f "$ROOT/Makefile" pan >/dev/null || bad "single: make pan"
printf 'Ov 0.001\nLk 0.01\nPw 0.2\n' >p.txt
./pan -C --fault-tree tree.xml --probabilities p.txt >out.txt 2>&1 &&
    ./pan -C --fault-tree tree.json --probabilities p.txt >/dev/null 2>&1 || bad "single: pan -C"
check "single: a one-event cause is a gate MEF (and SCRAM) accept" \
    sh -c "xmllint --noout --relaxng '$RNG' tree.xml 2>/dev/null && grep -c '<and>' tree.xml | grep -qx 1"
check "single: SCRAM's cut sets and probabilities are ours" scram_ok tree.xml tree.json
check "single: the text report gives the top-event probability" \
    grep -q "probability of the hazard (2 minimal cut sets.*: 0.00299" out.txt

# an incomplete result (-m cuts the deep cause off): its probability is no bound, and
# every fault tree file says the gates may not be all causes (the fourth probe, P4-4)
mkdir "$W/deep" && cd "$W/deep" || exit 1
cp "$ROOT/report/tests/fixtures/deep.pml" . && spin -a deep.pml >/dev/null &&
    make -s -f "$ROOT/Makefile" pan >/dev/null || bad "deep: make pan"
printf 'Fa 0.01\nFb 0.2\n' >p.txt
./pan -C -m20 --probabilities p.txt --fault-tree t.xml --fault-tree t.json --fault-tree t.dot \
    --html r.html >out.txt 2>&1 || bad "deep: pan -C -m20"
check "deep -m20: the text calls the probability no bound" \
    grep -q "ignored: no bound, since the result is incomplete): 0.01 " out.txt
check "deep -m20: the HTML too" grep -q "no bound either: causes may be missing" r.html
check "deep -m20: the tree JSON says incomplete, not all causes, no upper bound" python3 -c '
import json; d = json.load(open("t.json"))
assert d["complete"] is False and d["all_causes"] is False and d["incomplete_reasons"]
assert d["top_probability"]["upper_bound"] is False'
check "deep -m20: MEF says complete=false and validates" \
    sh -c "xmllint --noout --relaxng '$RNG' t.xml 2>/dev/null && grep -q 'name=\"complete\" value=\"false\"' t.xml"
check "deep -m20: the picture says NOT ALL CAUSES" sh -c 'grep -q "NOT ALL CAUSES" t.dot && dot -Tsvg t.dot | grep -q "NOT ALL CAUSES"'
./pan -C --probabilities p.txt --fault-tree t2.json >out2.txt 2>&1 || bad "deep: pan -C"
check "deep complete: both causes, an upper bound of 0.208" \
    sh -c 'grep -q "ignored: an upper bound): 0.208 " out2.txt && python3 -c "import json,sys; d = json.load(open(\"t2.json\")); sys.exit(not (d[\"complete\"] and d[\"top_probability\"][\"upper_bound\"]))"'

# a hazard reached by a run without a cause: the tree's top is an OR over an undeveloped
# input, not the constant false (fourth probe P4-9); no probability is computed for it
mkdir "$W/uncaused" && cd "$W/uncaused" || exit 1
cp "$ROOT/report/tests/fixtures/uncaused.pml" . && spin -a uncaused.pml >/dev/null &&
    make -s -f "$ROOT/Makefile" pan >/dev/null || bad "uncaused: make pan"
printf 'L 0.5\n' >p.txt
./pan -C --probabilities p.txt --fault-tree t.xml --fault-tree t.json --fault-tree t.dot >out.txt 2>&1 ||
    bad "uncaused: pan -C"
check "uncaused: MEF validates, its top is the undeveloped event, not false" \
    sh -c "xmllint --noout --relaxng '$RNG' t.xml 2>/dev/null && grep -q '<basic-event name=\"pancause_uncaused\"/>' t.xml && ! grep -q 'constant value=\"false\"' t.xml"
check "uncaused: the JSON top names it" python3 -c '
import json; d = json.load(open("t.json")); assert d["top"]["inputs"] == ["pancause_uncaused"] and d["top"]["uncaused"] and not d["all_causes"]'
check "uncaused: the picture has it" sh -c 'grep -q "pancause_uncaused \[shape=diamond" t.dot && dot -Tsvg t.dot >/dev/null'
check "uncaused: no probability computed" grep -q "probability of the hazard: not computed (no probability for runs that reach the hazard without a cause" out.txt

# ---- bad inputs ----
cd "$W/railway" || exit 1
refused() { # refused NAME EXIT PATTERN ARGS...: exits EXIT, says PATTERN, before any search
    local name=$1 code=$2 pat=$3
    shift 3
    ./pan -C "$@" >bad.txt 2>&1
    local rc=$?
    if [ $rc -ne "$code" ] || ! grep -q -e "$pat" bad.txt; then
        bad "$name (exit $rc)"
        head -5 bad.txt
    elif [ "$code" = 2 ] && grep -q "causality checking (" bad.txt; then
        bad "$name: the search ran"
    else ok "$name"; fi
}
refused "unknown fault tree extension" 2 "unknown format" --fault-tree t.svg
refused "--html needs .html" 2 "name it FILE.html" --html r.txt
printf 'Ta 0.9\nGf high\n' >bad1.txt
refused "malformed probability: file:line" 2 "bad1.txt:2: probability of Gf" --probabilities bad1.txt --html r.html
printf 'Ta 0.9\nGf 0.1 0.2\n' >bad2.txt
refused "malformed probability line" 2 "bad2.txt:2: expected" --probabilities bad2.txt --html r.html
printf 'Ta 2\n' >bad3.txt
refused "probability outside [0,1]" 2 "bad3.txt:1:" --probabilities bad3.txt --fault-tree t.dot
refused "missing probability file" 2 "cannot read" --probabilities nope.txt --html r.html
# output paths are checked before the search (exit 2, no search), not after it
refused "unwritable fault tree" 2 "cannot write /nonexistent/t.dot" --fault-tree /nonexistent/t.dot
refused "unwritable HTML" 2 "cannot write /nonexistent/r.html" --html /nonexistent/r.html
refused "unwritable trails" 2 "cannot write into /nonexistent" --trails /nonexistent
check "nothing half-written (no temporary files, no partial outputs)" \
    sh -c '! ls | grep -q -e "\.tmp[0-9]" -e "^t\.svg$" -e "^r\.txt$"'

# ---- once under AddressSanitizer + UBSan ----
make -s -f "$ROOT/Makefile" SAN=1 pan >/dev/null || bad "make SAN=1 pan"
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1 ./pan -C --json out.json --trails . \
    --fault-tree t.xml --html r.html --probabilities p.txt >san.txt 2>&1 &&
    ! grep -q -e "ERROR: AddressSanitizer" -e "runtime error" san.txt
check "sanitized pan -C with every report option" test $? = 0

echo "$fails failed"
[ $fails -eq 0 ]
