#!/usr/bin/env python3
"""Shrink a model on which pan -C and the oracle disagree.

    minimize.py MODEL.pml [--bfs] [--no-por] [--no-ac2] [-o OUT.pml]

--no-por builds pan without its partial order reduction (make pan POR=0), as
batch.py's ORACLE_POR=1 adds; by default pan keeps it, as `make pan` does.

Greedy line-based delta debugging: repeatedly try to delete one line, or a
whole compound statement (its ``if``/``do`` line up to the matching
``fi``/``od``), or a whole proctype; keep a deletion when the result is
still in the oracle's subset, spin -a accepts it, SPIN's pan.m merges
statements exactly as the oracle predicts (gen.merges_predicted), and pan -C
still disagrees with the oracle.  Also tries to drop labels (making a step
silent).  Prints the smallest model found (and writes it with -o).
Models with channels (ORACLE_GEN_CHAN) shrink the same way; with
ORACLE_RV_END=1 in the environment it shrinks a model on which pan and that
variant of the oracle disagree (README, "Channels").
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, HERE)

from compare import canon, diff  # noqa: E402
from gen import merges_predicted  # noqa: E402
from oracle import Oracle  # noqa: E402
from promela import Model  # noqa: E402

POR = ""  # " POR=0" with --no-por


def fails(text, bfs, ac2, work):
    try:
        model = Model(text)
        if not model.events:
            return False
        # a deletion that lets SPIN merge statements the oracle does not merge (a
        # dropped label, a statement gone from between two assignments) would give
        # a disagreement of the oracle's making: the generators keep only models
        # whose pan.m merges what promela.merge_chains predicts, and so must this
        if not merges_predicted(text, model):
            return False
        exp = Oracle(model, ac2=ac2).analyse()
    except Exception:
        return False
    d = tempfile.mkdtemp(dir=work)
    try:
        with open(os.path.join(d, "model.pml"), "w") as f:
            f.write(text)
        cmd = ("spin -a model.pml >/dev/null 2>&1 && make -s -f %s/Makefile pan%s PAN_CFLAGS=-O0 CAUSAL_ONLY=1 "
               ">/dev/null 2>&1 && ./pan -C%s --json out.json >/dev/null 2>&1"
               % (ROOT, (" BFS=1" if bfs else "") + POR, "" if ac2 else " --no-ac2"))
        r = subprocess.run(cmd, cwd=d, shell=True, timeout=120)
        if r.returncode != 0:
            return False
        import json
        with open(os.path.join(d, "out.json")) as f:
            got = json.load(f)
        return bool(diff(canon(exp), canon(got)))
    except Exception:
        return False
    finally:
        shutil.rmtree(d, ignore_errors=True)


def candidates(lines):
    n = len(lines)
    # whole proctypes
    for i, l in enumerate(lines):
        if l.startswith("active proctype"):
            j = i
            while j < n and lines[j] != "}":
                j += 1
            yield lines[:i] + lines[j + 1:]
    # compound statements, then single lines
    for i, l in enumerate(lines):
        s = l.strip()
        m = re.match(r"^(\w+: )?(if|do)$", s)
        if m:
            depth, j = 0, i
            while j < n:
                t = lines[j].strip().rstrip(";")
                if re.match(r"^(\w+: )?(if|do)$", t):
                    depth += 1
                elif t in ("fi", "od"):
                    depth -= 1
                    if depth == 0:
                        break
                j += 1
            yield lines[:i] + lines[j + 1:]
    for i, l in enumerate(lines):
        if l.strip() and not l.startswith(("active", "}", "ltl", "/*")):
            yield lines[:i] + lines[i + 1:]
            m = re.match(r"^(\s*(?::: \S+ -> )?)(\w+): (.*)$", l)
            if m and not m.group(2).startswith("end"):
                yield lines[:i] + [m.group(1) + m.group(3)] + lines[i + 1:]


def fixup(lines):
    """Drop a ';' left before a closing brace/fi/od/option, and an option
    whose body became empty."""
    out = []
    for i, l in enumerate(lines):
        nxt = lines[i + 1].strip() if i + 1 < len(lines) else ""
        if l.rstrip().endswith(";") and (nxt in ("}", "fi", "od", "fi;", "od;") or nxt.startswith("::")):
            l = l.rstrip()[:-1]
        out.append(l)
    return out


def main(argv):
    ap = argparse.ArgumentParser()
    ap.add_argument("model")
    ap.add_argument("--bfs", action="store_true")
    ap.add_argument("--no-ac2", action="store_true")
    ap.add_argument("--no-por", action="store_true")
    ap.add_argument("-o")
    a = ap.parse_args(argv[1:])
    if a.no_por:
        global POR
        POR = " POR=0"
    with open(a.model) as f:
        lines = f.read().splitlines()
    if a.bfs and Model("\n".join(lines) + "\n").has_rendezvous:
        # pan's BFS is INCOMPLETE there by design (README, "Channels")
        print("minimize.py: --bfs on a model with a rendezvous channel: pan's BFS is not "
              "complete there, shrink against the DFS build", file=sys.stderr)
        return 2
    work = tempfile.mkdtemp(prefix="oracle-min-")
    try:
        if not fails("\n".join(lines) + "\n", a.bfs, not a.no_ac2, work):
            print("minimize.py: the model does not fail", file=sys.stderr)
            return 1
        changed = True
        while changed:
            changed = False
            for cand in candidates(lines):
                cand = fixup(cand)
                if cand != lines and fails("\n".join(cand) + "\n", a.bfs, not a.no_ac2, work):
                    lines = cand
                    changed = True
                    print("  %d lines" % len(lines), file=sys.stderr)
                    break
    finally:
        shutil.rmtree(work, ignore_errors=True)
    text = "\n".join(lines) + "\n"
    if a.o:
        with open(a.o, "w") as f:
            f.write(text)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
