#!/usr/bin/env bash
# The --html viewer in a real headless Chromium: the page must render every
# red dot, the trace's signals and the shaded loop.  The page writes what it
# drew as JSON into <pre id="ex-summary">; this test reads it from the DOM
# Chromium dumps after running the page's script, and counts the dot
# elements itself.  A screenshot is left at $EX_SCREENSHOT (if set) for a
# look by eye.
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

browse() { # what file.html [extra args]
    local what="$1" page="$2"
    shift 2
    timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
        --disable-background-networking --disable-component-update --disable-sync \
        --user-data-dir="$(mktemp -d -p "$work")" --virtual-time-budget=5000 "$@" "--$what" "file://$page" 2>/dev/null
}

# check NAME PAGE JSONFILE: the summary must show every dot of the JSON output
check() {
    local name="$1" page="$2" json="$3"
    browse dump-dom "$page" >"$work/$name.dom"
    python3 - "$work/$name.dom" "$json" "$name" <<'PY'
import html, json, re, sys
dom, name = open(sys.argv[1]).read(), sys.argv[3]
# one JSON record per specification; the page has a view per explained one
want = [r for r in map(json.loads, open(sys.argv[2])) if r["status"].startswith("fails")]
m = re.search(r'<pre id="ex-summary"[^>]*>(.*?)</pre>', dom, re.S)
if not m:
    sys.exit(f"{name}: no summary in the DOM (script did not run?)")
summary = json.loads(html.unescape(m.group(1)))
views = summary["views"]
errors = []
if len(views) != len(want):
    errors.append(f"{len(views)} views, want {len(want)}")
circles = len(re.findall(r'<circle class="dot', dom))
total = 0
for v, w in zip(views, want):
    total += v["dots_drawn"]
    if v["dots_total"] != len(w["dots"]) or v["dots_drawn"] != len(w["dots"]):
        errors.append(f"{v['formula']}: drew {v['dots_drawn']} of {len(w['dots'])} dots")
    if not v["trace_drawn"] or v["signals"] < 1:
        errors.append(f"{v['formula']}: trace not drawn")
    if (w["loop_start"] is not None) != v["loop_shaded"]:
        errors.append(f"{v['formula']}: loop shading {v['loop_shaded']}, loop_start {w['loop_start']}")
if circles != total or total == 0:
    errors.append(f"{circles} dot elements in the DOM, want {total} (> 0)")
if errors:
    sys.exit(f"{name}: " + "; ".join(errors))
PY
    [ $? = 0 ] && ok || bad "$name"
}

cp "$fix/live.pml" "$work/"
(cd "$work" && spin -a live.pml >/dev/null && cc -O1 -w -o pan pan.c && ./pan -a >/dev/null 2>&1)
"$pc" explain "$work/live.pml" --json --html "$work/live.html" >"$work/live.json" || bad "pancause live"
check live "$work/live.html" "$work/live.json"
"$pc" explain --nusmv "$fix/nusmv_live.txt" --exact --json --html "$work/smv.html" >"$work/smv.json" 2>/dev/null || bad "pancause nusmv"
check nusmv "$work/smv.html" "$work/smv.json"

# a page without dots must fail the check: the test can tell
sed -E 's/"dots": ?\[[^]]*\]/"dots": []/g' "$work/live.html" >"$work/nodots.html"
before=$fail
check nodots "$work/nodots.html" "$work/live.json" >/dev/null 2>&1
if [ "$fail" -gt "$before" ]; then fail=$before; ok; else bad "a page without dots passed the check"; fi

timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$(mktemp -d -p "$work")" --virtual-time-budget=5000 --window-size=1100,480 \
    --screenshot="$work/live.png" "file://$work/live.html" >/dev/null 2>&1
if [ -s "$work/live.png" ]; then ok; else bad "no screenshot"; fi
if [ -n "${EX_SCREENSHOT:-}" ] && [ -s "$work/live.png" ]; then cp "$work/live.png" "$EX_SCREENSHOT"; fi

echo "e2e_html: $pass passed, $fail failed"
[ "$fail" = 0 ]
