#!/usr/bin/env python3
"""Random differential test: oracle against pan -C, DFS and BFS.

    batch.py [-j JOBS] [--keep DIR] [--files F.pml ...] N [SEED0]

For the models gen.py writes for seeds SEED0 .. SEED0+N-1: run the oracle
(with and without AC2(2)), build pan with causality checking twice
(``make -f ROOT/Makefile pan`` and ``... pan BFS=1``, PAN_CFLAGS=-O0), run
``./pan -w19 -C --json out.json`` and ``./pan -w19 -C --no-ac2 --json out2.json`` with
each, and compare the four results canonically with the oracle's
(compare.py).  Then the DFS pan again with each pruning of the history
search switched off (``--no-prune superset``, ``dominance``, ``merge``,
``all``, and ``all --no-ac2``; see NOPRUNE_RUNS for the budgets): each
result must equal both the oracle's and the pruned run's.  An unpruned run
that stops at its budget is skipped, not failed.  ORACLE_PRUNE_EVERY=K
(default 1) does the unpruned runs only for seeds divisible by K.
The default builds keep pan's partial order reduction (as `make pan` does);
ORACLE_POR=1 adds two builds without it (``POR=0`` and ``BFS=1 POR=0``),
compared with the oracle like the others, and counts the models whose DFS
search the reduction made smaller (ORACLE_GEN_LOCALS=1 draws models where it
does; on the default models, globals only, it reduces nothing).

Models with atomic sequences (ORACLE_GEN_ATOMIC=1): a BFS result that
pancause marks INCOMPLETE because pan's BFS matched a state stored in the
other search mode (inside and outside an atomic sequence), or because the
never claim did not check a state where an atomic sequence blocked, is not
compared; the DFS build's are.

Models with a rendezvous channel (ORACLE_GEN_CHAN=1 draws them; given files
may have them): pan's BFS does not explore every interleaving around a
rendezvous, and pancause says so (README, decisions: "pan's BFS with
rendezvous").  So the BFS builds of such a model are not compared with the
oracle; each runs once (with AC2(2)) and must say ``"complete": false`` with
an ``incomplete_reason`` that names the rendezvous.  Their DFS builds, and
every build of a model with buffered channels only, are compared as above.

Models with a nested safety formula (ORACLE_GEN_NESTED=1 draws them; given
files may have them: ``[] ((p) -> [] !(q))``, ``[] ((p) -> ((!(q) U (r)) ||
[] !(q)))``, README "Nested safety formulas"): their SPIN never claim is
nondeterministic, and a pan -C that says INCOMPLETE for that (or for any
reason but the accepted ones: rendezvous or another-mode BFS above, the
unpruned runs' budget) fails the model, causes equal or not, so that such a
campaign says whether pan -C is complete and exact on them.

A mismatching model is kept in DIR/seedN/ (default
$TMPDIR/oracle-failures) with the oracle's and pan's JSON and a repro.sh.
Prints a diff per failing model, a line counting the unpruned runs
(compared, skipped at their budget), and finally the single line
"N passed, M failed"; exit status 1 on any failure.
"""

import argparse
import collections
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
# ORACLE_POR=1 adds the builds without pan's partial order reduction (make pan POR=0),
# DFS and BFS, AC2(2) included: the evidence README "Partial order reduction" cites
# beside its argument that the reduction keeps the causes, non-occurrences included.
if os.environ.get("ORACLE_POR") == "1":
    BUILDS += [("dfs-nopor", " POR=0"), ("bfs-nopor", " BFS=1 POR=0")]
RUNS = [("ac2", "", "out.json"), ("noac2", " --no-ac2", "out2.json")]
# pan's default hash table (-w24, 128 MB) costs more time to allocate than
# these models take to search; -w19 is plenty for < 10,000 states and keeps
# the search exhaustive (no bitstate).
PAN_OPTS = "-w19"

# The DFS pan once more per pruning switched off: (name, pan options, the run
# of RUNS whose oracle and pruned results it must equal).  Unpruned searches
# of cyclic models do not end (superset/dominance off: the multisets grow
# along event cycles), so each has a budget of history nodes; pan then says
# "incomplete" and the run is skipped.  Finished runs of the generated models
# need at most about 11,000 nodes.  --no-prune dominance (merging still on)
# costs time quadratic in the nodes explored (pan compares each new history
# with every one kept at its state: 200,000 nodes ~1 s, 2,000,000 ~250 s), so
# it gets a tenth of the budget.
PRUNE_BUDGET = 2000000
NOPRUNE_RUNS = [
    ("np-superset", "--no-prune superset --budget %d" % PRUNE_BUDGET, "ac2"),
    ("np-dominance", "--no-prune dominance --budget %d" % (PRUNE_BUDGET // 10), "ac2"),
    ("np-merge", "--no-prune merge --budget %d" % PRUNE_BUDGET, "ac2"),
    ("np-rows", "--no-prune rows --budget %d" % PRUNE_BUDGET, "ac2"),
    ("np-all", "--no-prune all --budget %d" % PRUNE_BUDGET, "ac2"),
    ("np-all-noac2", "--no-prune all --no-ac2 --budget %d" % PRUNE_BUDGET, "noac2"),
]


def prune_every():
    """ORACLE_PRUNE_EVERY=K: the unpruned runs only for seeds divisible by K."""
    v = os.environ.get("ORACLE_PRUNE_EVERY", "1")
    try:
        k = int(v)
    except ValueError:
        k = 0
    if k < 1:
        raise SystemExit("ORACLE_PRUNE_EVERY must be a positive integer, not %r" % v)
    return k


def sh(cmd, cwd, timeout=PAN_TIMEOUT):
    try:
        r = subprocess.run(cmd, cwd=cwd, shell=True, capture_output=True, text=True,
                           timeout=timeout)
        return r.returncode, r.stdout + r.stderr
    except subprocess.TimeoutExpired:
        return -1, "timeout after %ds: %s" % (timeout, cmd)


def build_cmd(extra):
    return "spin -a model.pml && make -s -f %s/Makefile pan%s PAN_CFLAGS=-O0 CAUSAL_ONLY=1" % (ROOT, extra)


def one(seed, keep, every=1):
    """Returns (seed, list of report lines, number of unpruned runs compared,
    names of the unpruned runs skipped at their budget, and with ORACLE_POR=1 whether
    the reduction bit); [] = passed."""
    try:
        return _one(seed, keep, every)
    # an oracle or generator crash is a failure of this seed, not of the batch: gen.py
    # exits (SystemExit) when it finds no small model, which would otherwise end the
    # pool and lose every other seed's result
    except (Exception, SystemExit) as e:
        import traceback
        return seed, ["oracle side crashed: %r" % (e,)] + [
            "  " + l for l in traceback.format_exc().splitlines()], 0, []


def load_json(path):
    """(parsed JSON, None) or (None, why not)."""
    try:
        with open(path) as f:
            return json.load(f), None
    except (OSError, ValueError) as e:
        return None, str(e)


def rendezvous_incomplete(got, anywhere=False):
    """A BFS result on a rendezvous model: what pancause must say (its first
    reason; anywhere: any of them, for a nested formula, whose other reasons
    are reported apart)."""
    if got.get("complete") is not False:
        return False
    if anywhere:
        return any("rendezvous" in w for w in reasons(got))
    return "rendezvous" in (got.get("incomplete_reason") or "")


def atomic_mode_incomplete(got):
    """A BFS result on a model with atomic sequences that pancause marks
    incomplete because pan's BFS matched a state stored in the other search
    mode (README, decisions: "pan's BFS matches a state stored in another
    mode"), or because its never claim did not check a state where an atomic
    sequence blocked ("pan's BFS skips the claim where an atomic sequence
    blocks"): not compared (the DFS build is)."""
    why = got.get("incomplete_reasons") or [got.get("incomplete_reason") or ""]
    return got.get("complete") is False and any(
        "another search mode" in w or "let the never claim check" in w for w in why)


def budget_hit(got, strict=False):
    """An unpruned run stopped at its budget (strict: for that reason alone)."""
    if got.get("complete") is not False:
        return False
    if strict:
        return all("budget" in w for w in reasons(got))
    return "budget" in (got.get("incomplete_reason") or "")


def reasons(got):
    return got.get("incomplete_reasons") or [got.get("incomplete_reason") or "?"]


def incomplete_line(what, got, same=None):
    """A nested-formula model: pan -C must give a complete result (same:
    whether its causes nonetheless equal the oracle's)."""
    return "  %s: pan says INCOMPLETE on a nested safety formula (a failure%s): %s" % (
        what, "" if same is None else ", causes %s the oracle's" % ("equal" if same else "differ from"),
        "; ".join(w if len(w) <= 150 else w[:150] + "..." for w in reasons(got)))


def _one(seed, keep, every):
    if isinstance(seed, str):  # a given model file
        with open(seed) as f:
            text = f.read()
    else:
        text = generate(seed)
    model = Model(text)
    rendezvous = model.has_rendezvous
    # a nested safety formula: every incomplete result but the accepted ones fails
    nested = model.nested is not None
    o = Oracle(model, ac2=True)
    expected = {
        "ac2": o.analyse(),
        "noac2": Oracle(model, ac2=False, dfa=o.dfa).analyse(),
    }
    work = tempfile.mkdtemp(prefix="oracle-")
    report = []
    pan_json = {}
    compared, skipped = 0, []
    atomic_bfs_skips = set()
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
            bfs_rv = rendezvous and bname.startswith("bfs")
            for rname, rflag, jname in RUNS:
                if bfs_rv and rname != "ac2":
                    continue
                rc, out = sh("./pan %s -C%s --json %s" % (PAN_OPTS, rflag, jname), d)
                jp = os.path.join(d, jname)
                if rc != 0 or not os.path.exists(jp):
                    report.append("  %s %s: ./pan -w19 -C%s exited %d: %s"
                                  % (bname, rname, rflag, rc, out.strip()[-600:]))
                    continue
                got, err = load_json(jp)
                if got is None:
                    report.append("  %s %s: unreadable JSON: %s" % (bname, rname, err))
                    continue
                pan_json[(bname, rname)] = got
                if bfs_rv:
                    # not compared: pan's BFS skips interleavings around a rendezvous
                    if not rendezvous_incomplete(got, anywhere=nested):
                        report.append("  %s %s: a rendezvous model, but pan's BFS result does not "
                                      "say INCOMPLETE because of it (complete %r, reason %r)"
                                      % (bname, rname, got.get("complete"),
                                         got.get("incomplete_reason")))
                    elif nested:
                        # the BFS reasons accepted here; any other fails
                        other = [w for w in reasons(got) if "rendezvous" not in w
                                 and not atomic_mode_incomplete(
                                     {"complete": False, "incomplete_reasons": [w]})]
                        if other:
                            report.append(incomplete_line("%s %s" % (bname, rname),
                                                          {"incomplete_reasons": other}))
                    continue
                if bname.startswith("bfs") and model.atomic and atomic_mode_incomplete(got):
                    other = [w for w in reasons(got) if not atomic_mode_incomplete(
                        {"complete": False, "incomplete_reasons": [w]})]
                    if nested and other:
                        report.append(incomplete_line("%s %s" % (bname, rname),
                                                      {"incomplete_reasons": other}))
                    atomic_bfs_skips.add(bname)
                    continue
                lines = diff(canon(expected[rname]), canon(got))
                if got.get("complete") is False and nested:
                    report.append(incomplete_line("%s %s" % (bname, rname), got, not lines))
                elif got.get("complete") is False:
                    lines.insert(0, "  (pan says the search is incomplete)")
                if lines:
                    report.append("  %s %s (./pan -w19 -C%s):" % (bname, rname, rflag))
                    report.extend("  " + l for l in lines)
            if bname == "dfs" and (not isinstance(seed, int) or seed % every == 0):
                nc, ns = unpruned(d, expected, pan_json, report, nested)
                compared += nc
                skipped += ns
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
                             "seed": seed if isinstance(seed, int) else 0,
                             "builds": " ".join(b for b, _ in BUILDS
                                                if not (rendezvous and b.startswith("bfs"))),
                             "noprune_runs": REPRO_NOPRUNE_RUNS,
                             "noprune_compare": REPRO_NOPRUNE_COMPARE % {"oracle": HERE}}
                if not isinstance(seed, int):
                    r = "\n".join(l for l in r.splitlines() if "gen.py" not in l) + "\n"
                f.write(r)
            with open(os.path.join(dst, "report.txt"), "w") as f:
                f.write("\n".join(report) + "\n")
            report.insert(0, "model kept in %s (sh %s/repro.sh)" % (dst, dst))
        # counted by main(): what kind of channels the model has
        if model.atomic and not rendezvous:
            skipped.append("(ATOMIC bfs incomplete)" if atomic_bfs_skips else "(ATOMIC bfs compared)")
        if nested:
            skipped.append("(NESTED %s)" % model.nested[0])
            if any("INCOMPLETE on a nested" in l for l in report):
                skipped.append("(NESTED incomplete)")
        skipped.append("(CHAN rendezvous)" if rendezvous else
                       "(CHAN buffered)" if model.chans else "(CHAN none)")
        if ("dfs-nopor", "ac2") in pan_json and ("dfs", "ac2") in pan_json:
            st = lambda k: pan_json[k].get("stats", {}).get("states", 0)  # noqa: E731
            skipped.append("(POR reduced the states)" if st(("dfs", "ac2")) < st(("dfs-nopor", "ac2"))
                           else "(POR reduced nothing)")
            # summed by main() as counts: the DFS builds' stored states
            skipped += ["(POR states off)"] * st(("dfs-nopor", "ac2"))
            skipped += ["(POR states on)"] * st(("dfs", "ac2"))
        return seed, report, compared, skipped
    finally:
        shutil.rmtree(work, ignore_errors=True)


def unpruned(d, expected, pan_json, report, nested=False):
    """The NOPRUNE_RUNS in the DFS build's directory d, each compared with the
    oracle and with the pruned run; returns (number compared, names of those
    skipped at their budget).  nested (a nested safety formula): a run
    incomplete for any reason but its budget fails."""
    compared, skipped = 0, []
    for name, opts, base in NOPRUNE_RUNS:
        cmd = "./pan %s -C %s --json %s.json" % (PAN_OPTS, opts, name)
        rc, out = sh(cmd, d)
        got, err = load_json(os.path.join(d, name + ".json"))
        if rc != 0 or got is None:
            why = out.strip() if rc != 0 else "unreadable JSON: %s" % err
            report.append("  dfs %s: %s exited %d: %s" % (name, cmd, rc, why[-600:]))
            continue
        pan_json[("dfs", name)] = got
        quiet = False  # a nested formula's incomplete run: said once, here
        if nested and got.get("complete") is False and not budget_hit(got, strict=True):
            report.append(incomplete_line("dfs %s" % name, got))
            quiet = True
        elif budget_hit(got):
            skipped.append(name)
            continue
        compared += 1
        mine = canon(got)
        against = [("the oracle", "oracle", expected[base])]
        if ("dfs", base) in pan_json:  # else the pruned run's failure is reported
            against.append(("the pruned run", "pruned", pan_json[("dfs", base)]))
        for what, short, other in against:
            lines = diff(canon(other), mine, names=(short, name))
            if got.get("complete") is False and not quiet:
                lines.insert(0, "  (pan says the search is incomplete: %s)"
                             % got.get("incomplete_reason"))
            if lines:
                report.append("  dfs %s vs %s (%s):" % (name, what, cmd))
                report.extend("  " + l for l in lines)
    return compared, skipped


REPRO = """#!/bin/sh
# Reproduce the oracle/pan comparison of seed %(seed)d (run in this directory).
set -x
%(genenv)spython3 %(oracle)s/gen.py %(seed)d gen && cmp gen/model.pml model.pml
python3 %(oracle)s/oracle.py model.pml oracle.ac2.json
python3 %(oracle)s/oracle.py --no-ac2 model.pml oracle.noac2.json
for b in %(builds)s; do
  case $b in dfs) f=;; bfs) f="BFS=1";; dfs-nopor) f="POR=0";; bfs-nopor) f="BFS=1 POR=0";; esac
  mkdir -p $b && cp model.pml $b/ && (cd $b && spin -a model.pml &&
    make -s -f %(root)s/Makefile pan $f PAN_CFLAGS=-O0 &&
    ./pan -w19 -C --json out.json && ./pan -w19 -C --no-ac2 --json out2.json)
  python3 %(oracle)s/compare.py oracle.ac2.json $b/out.json
  python3 %(oracle)s/compare.py oracle.noac2.json $b/out2.json
done
# The DFS pan with each pruning of the history search switched off: its causes
# must equal the oracle's and the pruned run's (unless pan says the search hit
# its --budget: "complete": false).
(cd dfs && %(noprune_runs)s)
%(noprune_compare)s"""

REPRO_NOPRUNE_RUNS = " ;\n  ".join(
    "./pan %s -C %s --json %s.json" % (PAN_OPTS, opts, name) for name, opts, _ in NOPRUNE_RUNS)
REPRO_NOPRUNE_COMPARE = "".join(
    "python3 %%(oracle)s/compare.py oracle.%s.json dfs/%s.json\n"
    "python3 %%(oracle)s/compare.py dfs/%s dfs/%s.json\n"
    % (base, name, "out.json" if base == "ac2" else "out2.json", name)
    for name, _, base in NOPRUNE_RUNS)


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
    every = prune_every()
    # Build the library once, serially: the per-model `make pan` must only link.
    rc, out = sh("make -s -f %s/Makefile lib" % ROOT, ROOT, timeout=600)
    if rc != 0:
        print(out)
        print("0 passed, %d failed" % a.n)
        return 1
    t0 = time.time()
    passed = failed = compared = 0
    skipped = collections.Counter()
    with concurrent.futures.ProcessPoolExecutor(max_workers=a.jobs) as ex:
        futs = [ex.submit(one, s, a.keep, every)
                for s in files + list(range(a.seed, a.seed + a.n))]
        for fut in futs:
            seed, report, nc, ns = fut.result()
            compared += nc
            skipped.update(ns)
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
    por = {n: skipped.pop(n) for n in list(skipped) if n.startswith("(POR")}
    chan = {n: skipped.pop(n) for n in list(skipped) if n.startswith("(CHAN")}
    if chan.get("(CHAN rendezvous)") or chan.get("(CHAN buffered)"):
        print("channels: %d models with a rendezvous (BFS must say INCOMPLETE, not compared), "
              "%d with buffered channels only, %d without channels"
              % (chan.get("(CHAN rendezvous)", 0), chan.get("(CHAN buffered)", 0),
                 chan.get("(CHAN none)", 0)))
    atom = {n: skipped.pop(n) for n in list(skipped) if n.startswith("(ATOMIC")}
    if atom:
        print("atomic sequences, buffered channels only: %d models' BFS results compared, %d "
              "INCOMPLETE (a state matched in another search mode, or one the claim did not check: "
              "not compared, DFS is)"
              % (atom.get("(ATOMIC bfs compared)", 0), atom.get("(ATOMIC bfs incomplete)", 0)))
    nest = {n: skipped.pop(n) for n in list(skipped) if n.startswith("(NESTED")}
    if nest:
        print("nested safety formulas: %d models [] (p -> [] !q), %d [] (p -> (!q U r || [] !q)); "
              "pan -C said INCOMPLETE (a failure) on %d"
              % (nest.get("(NESTED after)", 0), nest.get("(NESTED unless)", 0),
                 nest.get("(NESTED incomplete)", 0)))
    if por:
        off, on = por.get("(POR states off)", 0), por.get("(POR states on)", 0)
        print("partial order reduction: %d models reduced, %d not; DFS stored %d states "
              "with POR, %d without (%.0f%%)"
              % (por.get("(POR reduced the states)", 0), por.get("(POR reduced nothing)", 0),
                 on, off, 100.0 * on / off if off else 0))
    print("unpruned runs (--no-prune, DFS%s): %d compared, %d skipped (budget)%s"
          % (", seeds divisible by %d" % every if every > 1 else "", compared,
             sum(skipped.values()),
             "".join("%s%s %d" % (", " if i else ": ", n, skipped[n])
                     for i, n in enumerate(sorted(skipped)))))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
