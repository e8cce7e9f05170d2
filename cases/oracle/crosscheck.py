#!/usr/bin/env python3
"""Cross-check the oracle's Promela interpreter against stock SPIN/pan.

    crosscheck.py N [SEED0]     generated models SEED0 .. SEED0+N-1
    crosscheck.py FILE.pml ...  given models

pan is used only as a second opinion on the interpreter, never as the
oracle.  For every model two facts must agree:

  states  the number of reachable states with violations ignored: pan
          compiled with -DNOREDUCE -DNOCLAIM and run with -A -E (failing
          asserts continue; the -end- steps of dying processes count, as in
          promela.py) against Model.explore_no_violations();
  hazard  whether a violation is reachable at all: plain pan
          (-DNOREDUCE, with the never claim) reports errors > 0 iff the
          oracle finds a bad trace.

A model with process-local variables has its state count taken from a
second ``spin -o1 -o3 -a``: by default SPIN resets dead locals to 0
(dataflow optimisation, -o1 turns it off) and merges chains of local
statements into one transition (-o3 turns it off); both keep the traces
but not the number of states.  The hazard fact uses plain ``spin -a``, so
those optimisations are checked too.

With ORACLE_GEN_ATOMIC=1 (atomic sequences, README "Atomic sequences") the
state count leaves out the states inside an atomic sequence whose process
holds atomicity (pan stores none), and a model with locals keeps SPIN's
statement merging (``spin -o1 -a``): Model merges inside atomic sequences
what pan.m merges.

With ORACLE_GEN_CHAN=1 (generated models with channels) the same two facts
check the interpreter's channels: pan stores no state in the middle of a
rendezvous, so those are not counted (Model.explore_no_violations), and SPIN
keeps a global that only a receive writes.  SPIN may print an error and still
write pan.c ("dubious use of 'else' combined with i/o"): that fails the
model.

With ORACLE_GEN_NESTED=1 (ltl hazards ``[] ((p) -> [] !(q))`` and ``[] ((p)
-> ((!(q) U (r)) || [] !(q)))``, README "Nested safety formulas") the hazard
fact checks the oracle's deterministic monitor against SPIN's own
(nondeterministic) never claim; pan finds these violations without -a (its
claim reports them by an assert), and the state count is taken without the
claim as for every model.

Prints one line per mismatch and finally "N passed, M failed".
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from gen import generate  # noqa: E402
from oracle import Oracle  # noqa: E402
from promela import Model  # noqa: E402


def sh(cmd, cwd):
    return subprocess.run(cmd, cwd=cwd, shell=True, capture_output=True, text=True, timeout=300)


def check(text, name, keep_dir=None):
    d = tempfile.mkdtemp(prefix="oracle-xc-")
    try:
        with open(os.path.join(d, "model.pml"), "w") as f:
            f.write(text)
        r = sh("spin -a model.pml", d)
        # SPIN may print an error (e.g. "dubious use of 'else' combined with
        # i/o") and still write pan.c and exit 0
        if r.returncode != 0 or not os.path.exists(os.path.join(d, "pan.c")) or \
                "Error" in r.stdout + r.stderr:
            return ["spin -a failed: %s" % (r.stdout + r.stderr).strip()[:300]]
        r = sh("gcc -w -O0 -DNOREDUCE -DNOCLAIM -o pan_nc pan.c && "
               "gcc -w -O0 -DNOREDUCE -o pan pan.c", d)
        if r.returncode != 0:
            return ["gcc failed: %s" % r.stderr[:300]]
        model = Model(text)
        errs = []
        if model.has_locals:
            # with atomic sequences statement merging stays on (-o3 would turn
            # it off): Model merges what SPIN merges inside them (gen.py checks)
            r = sh("mkdir raw && cp model.pml raw/ && cd raw && spin -o1%s -a model.pml && "
                   "gcc -w -O0 -DNOREDUCE -DNOCLAIM -o ../pan_nc pan.c"
                   % ("" if model.atomic else " -o3"), d)
            if r.returncode != 0:
                return ["spin -o1 -o3 / gcc failed: %s" % (r.stdout + r.stderr).strip()[:300]]
        r = sh("./pan_nc -A -E -m1000000", d)
        m = re.search(r"(\d+) states, stored", r.stdout)
        pan_states = int(m.group(1)) if m else None
        mine = model.explore_no_violations()
        if pan_states != mine:
            errs.append("states: pan %s, oracle %s" % (pan_states, mine))
        r = sh("./pan -m1000000", d)
        m = re.search(r"errors: (\d+)", r.stdout)
        pan_err = int(m.group(1)) if m else None
        o = Oracle(model)
        reach = bool(o.minimal_bad_vectors())
        if pan_err is None or (pan_err > 0) != reach:
            errs.append("hazard reachable: pan errors %s, oracle %s" % (pan_err, reach))
        if errs and keep_dir:
            dst = os.path.join(keep_dir, name)
            os.makedirs(dst, exist_ok=True)
            shutil.copy(os.path.join(d, "model.pml"), dst)
        return errs
    finally:
        shutil.rmtree(d, ignore_errors=True)


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    items = []
    if argv[1].endswith(".pml"):
        for p in argv[1:]:
            with open(p) as f:
                items.append((p, f.read()))
    else:
        n = int(argv[1])
        s0 = int(argv[2]) if len(argv) > 2 else 1
        items = [("seed%d" % s, None) for s in range(s0, s0 + n)]
    passed = failed = 0
    for name, text in items:
        if text is None:
            text = generate(int(name[4:]))
        errs = check(text, name, keep_dir=os.environ.get("CROSSCHECK_KEEP"))
        if errs:
            failed += 1
            for e in errs:
                print("%s: %s" % (name, e))
        else:
            passed += 1
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
