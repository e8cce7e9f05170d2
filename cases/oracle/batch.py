#!/usr/bin/env python3
"""Random differential test: oracle against pan -C, DFS and BFS.

    batch.py [-j JOBS] [--keep DIR] [--files F.pml ...] N [SEED0]

For the models gen.py writes for seeds SEED0 .. SEED0+N-1: run the oracle
(with and without AC2(2)), build pan with causality checking twice
(``make -f ROOT/Makefile pan`` and ``... pan BFS=1``, PAN_CFLAGS=-O0), run
``./pan -w19 -C --json out.json`` and ``./pan -w19 -C --no-ac2 --json out2.json`` with
each, and compare the four results canonically with the oracle's
(compare.py).  A mismatching model is kept in DIR/seedN/ (default
$TMPDIR/oracle-failures) with the oracle's and pan's JSON and a repro.sh.
Prints a diff per failing model and finally the single line
"N passed, M failed"; exit status 1 on any failure.
"""

import argparse
import concurrent.futures
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, HERE)

from compare import canon, diff  # noqa: E402
from gen import generate  # noqa: E402
from oracle import Oracle  # noqa: E402
from promela import Model  # noqa: E402

PAN_TIMEOUT = 120

BUILDS = [("dfs", ""), ("bfs", " BFS=1")]
RUNS = [("ac2", "", "out.json"), ("noac2", " --no-ac2", "out2.json")]
# pan's default hash table (-w24, 128 MB) costs more time to allocate than
# these models take to search; -w19 is plenty for < 10,000 states and keeps
# the search exhaustive (no bitstate).
PAN_OPTS = "-w19"


def sh(cmd, cwd, timeout=PAN_TIMEOUT):
    try:
        r = subprocess.run(cmd, cwd=cwd, shell=True, capture_output=True, text=True,
                           timeout=timeout)
        return r.returncode, r.stdout + r.stderr
    except subprocess.TimeoutExpired:
        return -1, "timeout after %ds: %s" % (timeout, cmd)


def build_cmd(extra):
    return "spin -a model.pml && make -s -f %s/Makefile pan%s PAN_CFLAGS=-O0" % (ROOT, extra)


def one(seed, keep):
    """Returns (seed, list of report lines); [] = passed."""
    try:
        return _one(seed, keep)
    except Exception as e:  # an oracle or generator crash is a failure too
        import traceback
        return seed, ["oracle side crashed: %r" % (e,)] + [
            "  " + l for l in traceback.format_exc().splitlines()]


def _one(seed, keep):
    if isinstance(seed, str):  # a given model file
        with open(seed) as f:
            text = f.read()
    else:
        text = generate(seed)
    model = Model(text)
    o = Oracle(model, ac2=True)
    expected = {
        "ac2": o.analyse(),
        "noac2": Oracle(model, ac2=False, dfa=o.dfa).analyse(),
    }
    work = tempfile.mkdtemp(prefix="oracle-")
    report = []
    pan_json = {}
    try:
        for bname, bflag in BUILDS:
            d = os.path.join(work, bname)
            os.makedirs(d)
            with open(os.path.join(d, "model.pml"), "w") as f:
                f.write(text)
            rc, out = sh(build_cmd(bflag), d)
            if rc != 0 or not os.path.exists(os.path.join(d, "pan")):
                report.append("  %s: build failed: %s" % (bname, out.strip()[-600:]))
                continue
            for rname, rflag, jname in RUNS:
                rc, out = sh("./pan %s -C%s --json %s" % (PAN_OPTS, rflag, jname), d)
                jp = os.path.join(d, jname)
                if rc != 0 or not os.path.exists(jp):
                    report.append("  %s %s: ./pan -w19 -C%s exited %d: %s"
                                  % (bname, rname, rflag, rc, out.strip()[-600:]))
                    continue
                try:
                    with open(jp) as f:
                        got = json.load(f)
                except ValueError as e:
                    report.append("  %s %s: unreadable JSON: %s" % (bname, rname, e))
                    continue
                pan_json[(bname, rname)] = got
                lines = diff(canon(expected[rname]), canon(got))
                if got.get("complete") is False:
                    lines.insert(0, "  (pan says the search is incomplete)")
                if lines:
                    report.append("  %s %s (./pan -w19 -C%s):" % (bname, rname, rflag))
                    report.extend("  " + l for l in lines)
        if report:
            dst = os.path.join(keep, "seed%d" % seed if isinstance(seed, int)
                               else os.path.basename(seed).replace(".pml", ""))
            shutil.rmtree(dst, ignore_errors=True)
            os.makedirs(dst)
            with open(os.path.join(dst, "model.pml"), "w") as f:
                f.write(text)
            for rname, exp in expected.items():
                with open(os.path.join(dst, "oracle.%s.json" % rname), "w") as f:
                    json.dump(exp, f, indent=1, sort_keys=True)
            for (bname, rname), got in pan_json.items():
                with open(os.path.join(dst, "pan.%s.%s.json" % (bname, rname)), "w") as f:
                    json.dump(got, f, indent=1, sort_keys=True)
            with open(os.path.join(dst, "repro.sh"), "w") as f:
                genenv = "".join("%s=%s " % (k, v) for k, v in sorted(os.environ.items())
                                 if k.startswith("ORACLE_GEN_"))
                r = REPRO % {"root": ROOT, "oracle": HERE, "genenv": genenv,
                             "seed": seed if isinstance(seed, int) else 0}
                if not isinstance(seed, int):
                    r = "\n".join(l for l in r.splitlines() if "gen.py" not in l) + "\n"
                f.write(r)
            with open(os.path.join(dst, "report.txt"), "w") as f:
                f.write("\n".join(report) + "\n")
            report.insert(0, "model kept in %s (sh %s/repro.sh)" % (dst, dst))
        return seed, report
    finally:
        shutil.rmtree(work, ignore_errors=True)


REPRO = """#!/bin/sh
# Reproduce the oracle/pan comparison of seed %(seed)d (run in this directory).
set -x
%(genenv)spython3 %(oracle)s/gen.py %(seed)d gen && cmp gen/model.pml model.pml
python3 %(oracle)s/oracle.py model.pml oracle.ac2.json
python3 %(oracle)s/oracle.py --no-ac2 model.pml oracle.noac2.json
for b in dfs bfs; do
  mkdir -p $b && cp model.pml $b/ && (cd $b && spin -a model.pml &&
    if [ $b = bfs ]; then make -s -f %(root)s/Makefile pan BFS=1 PAN_CFLAGS=-O0;
    else make -s -f %(root)s/Makefile pan PAN_CFLAGS=-O0; fi &&
    ./pan -w19 -C --json out.json && ./pan -w19 -C --no-ac2 --json out2.json)
  python3 %(oracle)s/compare.py oracle.ac2.json $b/out.json
  python3 %(oracle)s/compare.py oracle.noac2.json $b/out2.json
done
"""


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--keep", default=os.path.join(tempfile.gettempdir(), "oracle-failures"))
    ap.add_argument("--files", nargs="+", default=[],
                    help="given models to compare as well (counted in the total)")
    ap.add_argument("n", type=int)
    ap.add_argument("seed", type=int, nargs="?", default=1)
    a = ap.parse_args(argv[1:])
    files = [os.path.abspath(p) for p in a.files]
    # Build the library once, serially: the per-model `make pan` must only link.
    rc, out = sh("make -s -f %s/Makefile lib" % ROOT, ROOT, timeout=600)
    if rc != 0:
        print(out)
        print("0 passed, %d failed" % a.n)
        return 1
    t0 = time.time()
    passed = failed = 0
    with concurrent.futures.ProcessPoolExecutor(max_workers=a.jobs) as ex:
        futs = [ex.submit(one, s, a.keep) for s in files + list(range(a.seed, a.seed + a.n))]
        for fut in futs:
            seed, report = fut.result()
            if report:
                failed += 1
                print("FAIL %s %s: %s" % ("seed" if isinstance(seed, int) else "model",
                                          seed, report[0]))
                for l in report[1:]:
                    print(l)
                sys.stdout.flush()
            else:
                passed += 1
    print("(%.0f s, %d jobs)" % (time.time() - t0, a.jobs), file=sys.stderr)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
