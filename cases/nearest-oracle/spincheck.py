#!/usr/bin/env python3
"""spincheck.py MODEL.pml ...: interp.py's state graph against stock SPIN's pan.

For each model, two comparisons with a plain `gcc -DSAFETY -DNOREDUCE` pan (no
pancause):
 * states: the model without its ltl formula and with every assert made to pass
   (`assert(e)` -> `assert((e) || 1)`, so that it reads what it read) against
   pan -A -E's "states, stored"; the interpreter's states are counted as pan
   stores them: only those without a pending move (pan stores no state inside an
   atomic sequence its process still holds, nor between a rendezvous' send and
   its receive), and projected on the variables pan keeps (pan.h's "hidden
   variable"s out).  Not compared (printed as None) where that changed model's
   pan.m merges what interp.py does not predict or resets a dead local: without
   its never claim SPIN may merge more (a local assignment after a `true` guard).
 * error: whether a violation is reachable (an assert, an invalid end state, the
   ltl formula) in the interpreter (gen.py's test) and whether stock pan finds
   one on the model as it is.
Prints one line per model and a summary; exit 1 when any differs.
`spincheck.py --candidates SEED N DIR` checks gen.py's raw candidates instead
(candidates(): those without a violation or a successful run too).  Written to
validate NEAREST_GEN_RICH2's constructs (rendezvous inside atomic sequences,
channel operations opening if/do options, never claims with rendezvous, two-field
channels with constant receives) and NEAREST_GEN_MERGE's merged atomic sequences
against SPIN (the generator variable in the environment, as for gen.py).  The
merges themselves are checked where gen.py draws a model (merges_predicted); the
state counts cannot see them (pan stores no state inside an atomic sequence).
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile

from interp import VIOL, Model, PromelaError

HIDDEN_RE = re.compile(r"/\* hidden variable: \*/\s*\w+\s+(\w+)")


def pan(text, args, tmp):
    with open(os.path.join(tmp, "model.pml"), "w") as f:
        f.write(text)
    for f in os.listdir(tmp):
        if f.endswith(".trail"):
            os.remove(os.path.join(tmp, f))
    p = subprocess.run(["spin", "-a", "model.pml"], cwd=tmp, capture_output=True, text=True)
    if p.returncode:
        raise RuntimeError("spin -a: " + p.stdout + p.stderr)
    p = subprocess.run(["gcc", "-O0", "-DSAFETY", "-DNOREDUCE", "-o", "pan", "pan.c"], cwd=tmp,
                       capture_output=True, text=True)
    if p.returncode:
        raise RuntimeError("gcc: " + p.stderr[-2000:])
    out = subprocess.run(["./pan", "-m100000", "-w20"] + args, cwd=tmp, capture_output=True,
                         text=True, timeout=120).stdout
    with open(os.path.join(tmp, "pan.h")) as f:
        hidden = set(HIDDEN_RE.findall(f.read()))
    return out, hidden


def interp_states(text, hidden):
    m = Model(text)
    kept = [i for i, v in enumerate(m.vars) if v not in hidden]
    g = m.graph(limit=200000)
    stored = {(s[0], tuple(s[1][i] for i in kept)) for s in g
              if not m.token or s[1][-1] is None}
    return len(stored)


def load_gen():
    """This directory's gen.py (interp.py put the causality oracle's first on the path)."""
    import importlib.util
    spec = importlib.util.spec_from_file_location(
        "nr_gen", os.path.join(os.path.dirname(os.path.abspath(__file__)), "gen.py"))
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    return gen


def comparable(free, tmp):
    """Whether pan.m of the changed model (no claim, asserts passing) merges only
    what interp.py predicts and resets no dead local: without its never claim SPIN
    may merge more (a local assignment after a `true` guard), and then the counts
    are not comparable."""
    gen = load_gen()
    with open(os.path.join(tmp, "pan.m")) as f:
        whole = f.read()
    parts = re.split(r"/\* (PROC|CLAIM) ", whole)
    procs = "".join(parts[k + 1] for k in range(1, len(parts), 2) if parts[k] == "PROC")
    return "/* dead " not in procs and gen.merges_predicted(whole, Model(free))


def check(path):
    with open(path) as f:
        text = f.read()
    tmp = tempfile.mkdtemp(prefix="nr-spincheck-")
    try:
        # states: no claim, asserts pass
        free = re.sub(r"\nltl [^\n]*\n", "\n", text)
        free = re.sub(r"assert\(([^;{}]*)\)", r"assert((\1) || 1)", free)
        out, hidden = pan(free, ["-A", "-E", "-c0"], tmp)
        m = re.search(r"(\d+) states, stored", out)
        spin_n = int(m.group(1)) if m else None
        mine_n = interp_states(free, hidden) if comparable(free, tmp) else None
        if mine_n is None:
            spin_n = None  # "states spin None interp None": not comparable
        # error: the model as it is
        out, _ = pan(text, [], tmp)
        m = re.search(r"errors: (\d+)", out)
        spin_err = m is not None and int(m.group(1)) > 0
        model = Model(text)
        g = model.graph(limit=200000)
        mine_err = any(model.bad(s) or any(x.target == VIOL for x in st) for s, st in g.items())
        return spin_n, mine_n, spin_err, mine_err
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def candidates(seed0, n, out):
    """n raw candidates of gen.py (RICH2 when in the environment), from seed0 on:
    the first of each seed that the interpreter reads, within gen.py's bound, and
    that SPIN accepts (no merged statement, no dead-variable reset), whether or not
    a violation is reachable or a successful run exists (gen.py's other filters),
    written to out/cN.pml; their paths."""
    import random
    gen = load_gen()
    paths = []
    for seed in range(seed0, seed0 + n):
        r = random.Random(seed)
        for _ in range(200):
            text = gen.Gen(r, r.random() < 0.25).model()
            try:
                m = Model(text)
                m.graph(limit=gen.MAX_STATES)
            except PromelaError:
                continue
            if len(m.kept) == len(m.vars) and gen.spin_accepts(text, m):
                p = os.path.join(out, "c%d.pml" % seed)
                with open(p, "w") as f:
                    f.write(text)
                paths.append(p)
                break
    return paths


def main(argv):
    bad = 0
    if len(argv) > 1 and argv[1] == "--candidates":
        # spincheck.py --candidates SEED N DIR: gen.py's raw candidates (candidates())
        os.makedirs(argv[4], exist_ok=True)
        argv = argv[:1] + candidates(int(argv[2]), int(argv[3]), argv[4])
    for path in argv[1:]:
        try:
            sn, mn, se, me = check(path)
        except (PromelaError, RuntimeError, subprocess.TimeoutExpired) as e:
            print("%s: not checked: %s" % (path, str(e)[:200]))
            bad += 1
            continue
        ok = sn == mn and se == me
        bad += not ok
        print("%s %s: states spin %s interp %s; error spin %s interp %s" %
              ("ok  " if ok else "DIFF", path, sn, mn, se, me))
    print("%d of %d differ" % (bad, len(argv) - 1))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
