#!/usr/bin/env python3
"""SPIN's statement merging inside atomic sequences against promela.merge_chains.

    mergecheck.py                  the rule's experiments (README "Statement merging")
    mergecheck.py --random N [SEED]  N random atomic sequences besides

Each experiment is a small model: one process P whose body is the experiment, a
process Q receiving on every channel, and the channel declarations.  `spin -a`
writes pan.m; the moves of P are read from it (`promela.pan_m_chains`: per line,
how many statements each move takes along) and compared with the expected
moves written below and with what promela.merge_chains predicts (the
generators' check, gen.merges_predicted, on the same model).  The random mode
draws atomic sequences of 2-5 guards, assignments (`v = e`, `v++`, `v--`),
asserts, sends and receives, some labelled, over one or two channels of
capacity 0-2, and wants merge_chains' prediction to equal pan.m on each.
Needs `spin`; no pan is compiled.  Last line: "N agree, M differ" (exit 1 when
M > 0).
"""

import itertools
import os
import random
import shutil
import subprocess
import sys
import tempfile

from promela import Model, chains_agree, pan_m_chains

BUF = "chan q = [1] of { byte }; chan r = [2] of { byte };"
RV = "chan q = [0] of { byte }; chan r = [0] of { byte };"
MIXED = "chan q = [1] of { byte }; chan r = [0] of { byte };"

# (channels, P's body, [statements each move on an atomic sequence's line takes
# along, in order]): what pan.m of SPIN 6.5.2 merges, found by these experiments
# (2026-11-28)
EXPERIMENTS = [
    # a buffered send takes the unlabelled assignments and asserts after it ...
    (BUF, "atomic { q!y+2; y = 2 }", [1]),
    (BUF, "atomic { q!1; y = 2; z = 3; assert(b) }", [3]),
    (BUF, "atomic { q!1; y++; z-- }", [2]),
    (BUF, "atomic { q!1; assert(y == 0) }", [1]),
    (BUF, "L: atomic { q!1; y = 2 }", [1]),            # the atomic's label: no matter
    (BUF, "atomic { (b); L: q!1; z = 2 }", [0, 1]),    # nor the send's own
    (BUF, "atomic { (b); q!1; y = 2 }", [0, 1]),
    (BUF, "atomic { y = 1; q!1; z = 2 }", [0, 1]),
    (BUF, "atomic { q?y; r!y; z = 1 }", [0, 1]),
    (BUF, "atomic { q!1; y = 1; r!2; z = 2 }", [1, 1]),
    # ... but no guard, send or labelled statement
    (BUF, "atomic { q!1; (y > 0) }", [0, 0]),
    (BUF, "atomic { q!1; r!2; z = 2 }", [0, 1]),
    (BUF, "atomic { q!1; L: y = 2 }", [0, 0]),
    (BUF, "atomic { q!1; y = 1; L: assert(b) }", [1, 0]),
    # no send takes anything along in a model that declares a rendezvous channel,
    # whichever channel the send is on
    (RV, "atomic { q!y+2; y = 2 }", [0, 0]),
    (RV, "atomic { y = 1; q!1; z = 2 }", [0, 0, 0]),
    (MIXED, "atomic { q!y+2; y = 2 }", [0, 0]),
    (MIXED, "atomic { r!y+2; y = 2 }", [0, 0]),
    (MIXED, "atomic { q!1; y = 1; z = 2 }", [0, 1]),   # the assignments: their own chain
    # guards, receives and unlabelled assignments and asserts head chains, labelled or
    # not (guards and receives), with or without a rendezvous channel
    (BUF, "atomic { (b); L: (y == 0); z = 2 }", [0, 1]),
    (BUF, "atomic { (b); L: q?y; z = 2 }", [0, 1]),
    (MIXED, "atomic { q?y; z = 2 }", [1]),
    (BUF, "L: atomic { y = 1; z = 2 }", [1]),
    (BUF, "atomic { assert(b); y = 1 }", [1]),
    (BUF, "atomic { q!1; skip; y = 1 }", [0, 1]),       # skip is the guard (1)
    # a labelled assignment or assert heads no chain; the run after it is one
    (BUF, "atomic { (b); L: y = 2; z = 3 }", [0, 0, 0]),
    (BUF, "atomic { (b); L: y = 2; z = 3; b = 0 }", [0, 0, 1]),
    (BUF, "atomic { y = 1; L: assert(b); z = 3 }", [0, 0, 0]),
    # merged jumps (the end of an option) are not counted (pan_m_chains)
    # (each atomic sequence on a line of its own, as the generators write them)
    (BUF, "do\n\t:: atomic { q!1; y = 2 }\n\t:: atomic { r!1; z = 2 }\n\t"
          ":: (b) -> break\n\tod", [1, 1]),
    (BUF, "if\n\t:: (b) ->\n\t\tif\n\t\t:: atomic { q!1; y = 2 }\n\t\t"
          ":: atomic { (y == 1); z = 1 }\n\t\tfi\n\t:: else\n\tfi", [1, 1]),
    (BUF, "L: atomic { (b); y = 1 };\n\tgoto L", [1]),
]


def pan_moves(text, tmp):
    """P's moves in pan.m, {line: [taken along, ...]}; None if SPIN refuses."""
    with open(os.path.join(tmp, "m.pml"), "w") as f:
        f.write(text)
    p = subprocess.run(["spin", "-a", "m.pml"], cwd=tmp, capture_output=True, text=True)
    if p.returncode or "rror" in p.stdout + p.stderr:
        return None
    with open(os.path.join(tmp, "pan.m")) as f:
        return {line: ks for (proc, line), ks in pan_m_chains(f.read()).items()
                if proc == "P"}


def predicted(text):
    """merge_chains' moves of P, {line: [taken along, ...]}, and whether one of
    them is headed by a send."""
    m = Model(text)
    p = next(p for p in m.procs if p.name == "P")
    return dict(p.line_chains), any(p.trans[loc][k][0] == "send" for loc, k in p.tails)


def experiment_model(chans, body):
    names = [c.split("=")[0].split()[-1] for c in chans.split(";") if c.strip()]
    return ("%s\nbyte y; byte z; bool b;\nactive proctype P() {\n\t%s\n}\n"
            "active proctype Q() { byte m; do %s od }\n"
            % (chans, body, " ".join(":: %s?m" % n for n in names)))


def random_model(r):
    lab = itertools.count()
    caps = {"q": r.choice([0, 1, 2, 1]), "w": r.choice([0, 1, 2, 2])}
    chans = ["q", "w"] if r.random() < 0.5 else ["q"]

    def stmt(first):
        k = r.random()
        s = ("(%s %s %d)" % (r.choice("yzb"), r.choice(["==", "<", ">="]), r.randint(0, 2))
             if k < 0.2 else
             r.choice(["y = %d" % r.randint(0, 3), "z = y + 1", "b = !b", "y++", "z--"])
             if k < 0.5 else "assert(y < 3)" if k < 0.6 else
             "%s!%d" % (r.choice(chans), r.randint(0, 2)) if k < 0.8 else
             "%s?y" % r.choice(chans))
        # no label on an atomic sequence's first statement (SPIN: "placed incorrectly")
        return s if first or r.random() > 0.25 else "L%d: %s" % (next(lab), s)

    body = []
    for _ in range(r.randint(1, 3)):
        st = [stmt(i == 0) for i in range(r.randint(2, 5))]
        body.append("\t%satomic { %s }" % ("A%d: " % next(lab) if r.random() < 0.3 else "",
                                           "; ".join(st)))
    text = "\n".join("chan %s = [%d] of { byte };" % (c, caps[c]) for c in chans)
    text += "\nbyte y; byte z; bool b;\nactive proctype P() {\n" + ";\n".join(body) + "\n}\n"
    # the other ends in other processes (a rendezvous channel's sender is not its receiver)
    text += "active proctype Q() { byte m; do %s od }\n" % " ".join(":: %s?m" % c for c in chans)
    text += "active proctype R() { do %s od }\n" % " ".join(":: %s!0" % c for c in chans)
    return text


def main(argv):
    tmp = tempfile.mkdtemp(prefix="mergecheck-")
    ok = bad = sends = 0
    try:
        for chans, body, want in EXPERIMENTS:
            text = experiment_model(chans, body)
            pan = pan_moves(text, tmp)
            lines = text.split("\n")  # the moves on the atomic sequences' lines
            got = [k for line in sorted(pan) if "atomic" in lines[line - 1] for k in pan[line]]
            mine, _ = predicted(text)
            if got == want and chains_agree(pan, mine):
                ok += 1
            else:
                bad += 1
                print("DIFFER %s | %s: pan.m %s, expected %s, merge_chains %s" % (
                    chans, body, got, want, mine))
        if len(argv) > 1 and argv[1] == "--random":
            r = random.Random(int(argv[3]) if len(argv) > 3 else 1)
            for _ in range(int(argv[2])):
                text = random_model(r)
                try:
                    mine, by_send = predicted(text)
                except Exception:  # outside the subset (checked by Model)
                    continue
                sends += by_send
                pan = pan_moves(text, tmp)
                if pan is None:
                    continue
                if chains_agree(pan, mine):
                    ok += 1
                else:
                    bad += 1
                    print("DIFFER\n%span.m %s, merge_chains %s" % (text, pan, mine))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if sends:
        print("%d random models with a move headed by a send" % sends)
    print("%d agree, %d differ" % (ok, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
