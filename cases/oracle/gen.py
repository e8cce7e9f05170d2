#!/usr/bin/env python3
"""Random small Promela models for the causality oracle.

    gen.py SEED OUTDIR      writes OUTDIR/model.pml (and prints its path)

The same SEED always gives the same model.  A model has 2-3 active
proctypes (one instance each), 2-4 global bool/byte variables, labelled
(events) and unlabelled (silent) statements: assignments, guards,
``if ... fi`` with guarded options and ``else``, bounded ``do`` loops
(counter, acyclic) and unbounded ones (cyclic state space, events that can
repeat without bound), ``d_step`` events with a guard and two effects,
bodies that repeat by ``goto`` (cyclic), some non-zero initial values,
labels unique across the model, and one kind of hazard:

  ltl       ``ltl h { [] !(p) }`` over the globals (asserts may appear too);
  assert    ``assert(...)`` statements (invalid end states are violations as
            well, as in pan without -E);
  deadlock  processes that wait on guards; ``end_*`` labels make some
            waiting locations valid end states.

Candidates are drawn from the seed until one has at most MAX_STATES states
(measured with the oracle's own interpreter, promela.py) so that brute
force stays instant.  Most models reach their hazard; some do not, on
purpose.
"""

import os
import random
import sys

from oracle import Oracle
from promela import Model

# ORACLE_GEN_MAX_STATES lets a longer exploratory run draw bigger models.
MAX_STATES = int(os.environ.get("ORACLE_GEN_MAX_STATES", "1500"))
# ORACLE_GEN_BIG=1: three processes with 3-6 statements each (exploration
# only: slower, and the default runs keep to the small models).
BIG = os.environ.get("ORACLE_GEN_BIG") == "1"
# ORACLE_GEN_LOCALS=1: every process has 1-2 local variables (plus its loop
# counters), and a good share of its statements are unlabelled and touch
# only them (local counters and flags, guards on locals), others copy
# locals into globals or back: the statements SPIN's partial order reduction
# treats as safe, so that `make pan POR=1` reduces something.  Without it the
# random draws, and so the models, are exactly those of the default.
LOCALS = os.environ.get("ORACLE_GEN_LOCALS") == "1"


class Gen:
    def __init__(self, rng):
        self.rng = rng
        self.nlabels = 0
        self.nend = 0
        self.counters = []
        self.lvars = {}       # the locals of the process being written
        self.local_counters = set()

    # -- variables and expressions
    def make_vars(self):
        r = self.rng
        n = r.randint(2, 4)
        names = ["a", "b", "c", "d"][:n]
        self.vars = {}
        for v in names:
            self.vars[v] = "bool" if r.random() < 0.5 else "byte"

    def ty(self, v):
        return self.lvars[v] if v in self.lvars else self.vars[v]

    def dom(self, v):
        return [0, 1] if self.ty(v) == "bool" else [0, 1, 2]

    def const(self, v, c):
        if self.ty(v) == "bool":
            return "true" if c else "false"
        return str(c)

    def atom(self, v=None, c=None, neg=None):
        r = self.rng
        if v is None and self.lvars and r.random() < 0.35:
            v = r.choice(sorted(self.lvars))
        v = v or r.choice(list(self.vars))
        c = r.choice(self.dom(v)) if c is None else c
        if neg is None:
            neg = r.random() < 0.2
        if self.ty(v) == "bool":
            if c == 1:
                return "!%s" % v if neg else v
            return v if neg else "!%s" % v
        return "%s %s %d" % (v, "!=" if neg else "==", c)

    def cond(self):
        r = self.rng
        if r.random() < 0.6:
            return self.atom()
        return "%s %s %s" % (self.atom(), r.choice(["&&", "||"]), self.atom())

    # -- labels
    def label(self, prefix):
        self.nlabels += 1
        return "%s%s" % (prefix, "abcdefghijklmnopqrstuvwxyz"[(self.nlabels - 1) % 26])

    def maybe_label(self, prefix, p=0.6):
        if self.rng.random() < p:
            return self.label(prefix) + ": "
        return ""

    # -- statements (lists of strings, one per line, already indented)
    def assign(self, prefix, p_label=0.65, v=None, c=None):
        r = self.rng
        v = v or r.choice(list(self.vars))
        c = r.choice(self.dom(v)) if c is None else c
        return "%s%s = %s" % (self.maybe_label(prefix, p_label), v, self.const(v, c))

    def local_stmt(self, prefix, top=1.0):
        """A statement on the process's locals: mostly unlabelled and
        touching locals only (what SPIN's reduction calls safe), or copying
        between a local and a global."""
        r = self.rng
        v = r.choice(sorted(self.lvars))
        x = r.random() * top
        if x < 0.3:
            # a local counter or flag
            lab = self.maybe_label(prefix, 0.1)
            if self.lvars[v] == "bool":
                return "%s%s = !%s" % (lab, v, v)
            return "%s%s = (%s + 1) %% 3" % (lab, v, v)
        if x < 0.45:
            return "%s%s = %s" % (self.maybe_label(prefix, 0.1), v,
                                  self.const(v, r.choice(self.dom(v))))
        if x < 0.6:
            # a guard on a local
            return "(%s)" % self.atom(v)
        if x < 0.85:
            # a local copied into a global, often as an event
            same = [g for g in self.vars if self.vars[g] == self.lvars[v]]
            g = r.choice(same or list(self.vars))
            return "%s%s = %s" % (self.maybe_label(prefix, 0.5), g, v)
        # a global copied into a local
        g = r.choice(list(self.vars))
        return "%s%s = %s" % (self.maybe_label(prefix, 0.15), v, g)

    def simple(self, prefix):
        r = self.rng
        if self.lvars and r.random() < 0.45:
            return [self.local_stmt(prefix)]
        x = r.random()
        if x < 0.52:
            return [self.assign(prefix)]
        if x < 0.6:
            # one indivisible event with a guard and two effects
            v, w = r.choice(list(self.vars)), r.choice(list(self.vars))
            return ["%sd_step { (%s) -> %s = %s; %s = %s }" % (
                self.maybe_label(prefix, 0.8), self.cond(), v, self.const(v, r.choice(self.dom(v))),
                w, self.const(w, r.choice(self.dom(w))))]
        if x < 0.85 or self.kind != "deadlock":
            return ["%s(%s)" % (self.maybe_label(prefix, 0.4), self.cond())]
        self.nend += 1
        return ["end_%d: (%s)" % (self.nend, self.cond())]

    def option_body(self, prefix, depth):
        r = self.rng
        body = []
        for _ in range(r.randint(1, 2)):
            if depth < 1 and r.random() < 0.15:
                body += self.compound(prefix, depth + 1)
            else:
                body += self.simple(prefix)
        return self.no_jump_into_dstep(prefix, body)

    @staticmethod
    def is_compound(st):
        return st.split("\n")[0].split(": ")[-1] in ("if", "do")

    def no_jump_into_dstep(self, prefix, seq):
        """SPIN rejects a jump into a d_step ("jump into d_step sequence"):
        the end of an if/do jumps to the next statement, so no d_step there."""
        for i in range(1, len(seq)):
            if "d_step" in seq[i] and self.is_compound(seq[i - 1]):
                seq[i] = self.assign(prefix)
        return seq

    def ifstmt(self, prefix, depth):
        r = self.rng
        lab = self.label(prefix) + ": " if r.random() < 0.15 else ""
        opts = []
        n = r.randint(2, 3)
        for i in range(n):
            if i == n - 1 and r.random() < 0.35:
                guard = "else"
            elif r.random() < 0.4:
                guard = "true"
            else:
                guard = "(%s)" % self.cond()
            opts.append((guard, self.option_body(prefix, depth)))
        return self.render("if", "fi", lab, opts)

    @staticmethod
    def render(kw, end, lab, opts):
        """A compound statement as one multi-line string."""
        lines = [lab + kw]
        for guard, body in opts:
            if body == ["break"]:
                lines.append(":: %s -> break" % guard)
                continue
            lines.append(":: %s ->" % guard)
            for i, st in enumerate(body):
                sl = st.splitlines()
                if i + 1 < len(body):
                    sl[-1] += ";"
                lines.extend("     " + l for l in sl)
        lines.append(end)
        return ["\n".join(lines)]

    def bounded_do(self, prefix, depth):
        r = self.rng
        cnt = "i%d" % len(self.counters)
        self.counters.append(cnt)
        k = r.randint(1, 2) if r.random() < 0.6 else 2
        body = ["%s = %s + 1" % (cnt, cnt)] + self.option_body(prefix, depth + 1)
        opts = [("(%s < %d)" % (cnt, k), body)]
        if r.random() < 0.3:
            opts.append(("(%s)" % self.cond(), self.option_body(prefix, depth + 1)))
        opts.append(("else", ["break"]))
        return self.render("do", "od", "", opts)

    def cyclic_do(self, prefix, depth):
        r = self.rng
        lab = self.label(prefix) + ": " if r.random() < 0.2 else ""
        opts = []
        for _ in range(r.randint(1, 2)):
            g = "true" if r.random() < 0.5 else "(%s)" % self.cond()
            if self.lvars and r.random() < 0.5:
                # a silent local cycle: what the reduction's cycle proviso is for.
                # Not after `true`: SPIN merges `true -> y = !y` into one
                # transition back to the loop, which pan refuses to run
                # ("has unconditional self-loop").
                if g == "true":
                    g = "(%s)" % self.cond()
                opts.append((g, [self.local_stmt(prefix, 0.3).split(": ")[-1]]))
                continue
            opts.append((g, [self.assign(prefix, p_label=0.8)]))
        x = r.random()
        if x < 0.45:
            opts.append(("(%s)" % self.cond(), ["break"]))
        elif x < 0.8:
            opts.append(("true", ["break"]))
        return self.render("do", "od", lab, opts)

    def compound(self, prefix, depth):
        r = self.rng
        x = r.random()
        if x < 0.5:
            return self.ifstmt(prefix, depth)
        if x < 0.75 or self.cyclic_left <= 0:
            return self.bounded_do(prefix, depth)
        self.cyclic_left -= 1
        return self.cyclic_do(prefix, depth)

    def proc(self, name, prefix):
        r = self.rng
        stmts = []
        self.lvars = {}
        ncount = len(self.counters)
        if LOCALS:
            for v in ["x", "y"][:r.randint(1, 2)]:
                self.lvars[v] = "bool" if r.random() < 0.5 else "byte"
            # a prologue of silent local assignments
            for _ in range(r.randint(0, 2)):
                stmts.append(self.local_stmt(prefix, 0.45).split(": ")[-1])
        n = r.randint(3, 6) if BIG else r.randint(2, 4)
        for i in range(n):
            x = r.random()
            if x < 0.35:
                stmts += self.compound(prefix, 0)
            else:
                stmts += self.simple(prefix)
            if self.kind == "assert" and r.random() < 0.25:
                stmts.append("%sassert(!(%s))" % (self.maybe_label(prefix, 0.2), self.hazard))
            elif self.kind == "ltl" and r.random() < 0.04:
                stmts.append("assert(%s)" % self.cond())
        # make sure the hazard's ingredients get set somewhere
        if r.random() < 0.7:
            v, c = r.choice(self.hazard_atoms)
            stmts.insert(r.randint(0, len(stmts)), self.assign(prefix, 0.8, v, c))
        stmts = self.no_jump_into_dstep(prefix, stmts)
        if (self.goto_left > 0 and r.random() < 0.5 and not self.is_compound(stmts[0])
                and "d_step" not in stmts[0]):
            # the whole body repeats: goto back to its (labelled) first statement
            self.goto_left -= 1
            first = stmts[0]
            if ": " in first.split("(")[0].split("=")[0]:
                target = first.split(":")[0]
            else:
                target = self.label(prefix) if r.random() < 0.5 else "end_again%s" % prefix
                stmts[0] = "%s: %s" % (target, first)
            stmts.append("goto %s" % target)
        lines = ["active proctype %s() {" % name]
        if LOCALS:
            # the loop counters of this process are its locals too
            mine = self.counters[ncount:]
            self.local_counters |= set(mine)
            for v, t in self.lvars.items():
                init = " = %s" % self.const(v, 1) if r.random() < 0.2 else ""
                lines.append("  %s %s%s;" % (t, v, init))
            for c in mine:
                lines.append("  byte %s;" % c)
            self.lvars = {}
        for i, st in enumerate(stmts):
            sep = ";" if i + 1 < len(stmts) else ""
            sl = st.splitlines()
            for j, l in enumerate(sl):
                lines.append("  " + l + (sep if j == len(sl) - 1 else ""))
        lines.append("}")
        return "\n".join(lines)

    def model(self):
        r = self.rng
        self.kind = r.choice(["ltl", "ltl", "ltl", "assert", "assert", "deadlock"])
        self.make_vars()
        self.cyclic_left = 1 if r.random() < 0.5 else 0
        self.goto_left = 1 if r.random() < 0.25 else 0
        # hazard: a conjunction of one or two atoms
        vs = list(self.vars)
        r.shuffle(vs)
        self.hazard_atoms = []
        for v in vs[:r.randint(1, 2)]:
            c = r.choice([x for x in self.dom(v) if x != 0])
            self.hazard_atoms.append((v, c))
        self.hazard = (" || " if r.random() < 0.2 else " && ").join(
            self.atom(v, c, False) for v, c in self.hazard_atoms)
        procs = []
        for i, (name, prefix) in enumerate([("P", "P"), ("Q", "Q"), ("R", "R")][:3 if BIG else r.randint(2, 3)]):
            procs.append(self.proc(name, prefix))
        if self.kind == "assert" and "assert" not in "".join(procs):
            procs.append("active proctype M() {\n  end_m: (%s) -> assert(false)\n}" % self.hazard)
        decl = []
        for v, t in self.vars.items():
            if r.random() < 0.15:
                decl.append("%s %s = %s;" % (t, v, self.const(v, r.choice(self.dom(v)[1:]))))
            else:
                decl.append("%s %s;" % (t, v))
        for c in self.counters:
            if c not in self.local_counters:
                decl.append("byte %s;" % c)
        text = "/* generated by gen.py: hazard kind %s */\n" % self.kind
        text += "\n".join(decl) + "\n\n" + "\n\n".join(procs) + "\n"
        if self.kind == "ltl":
            text += "\nltl h { [] !(%s) }\n" % self.hazard
        return text


def generate(seed):
    rng = random.Random(seed)
    for _ in range(200):
        text = Gen(rng).model()
        try:
            m = Model(text)
            n = len(m.explore(limit=MAX_STATES))
        except Exception:
            continue
        if n > MAX_STATES or not m.events:
            continue
        # keep only a quarter of the models whose hazard is unreachable or
        # reachable without any event (no cause at all): they test little
        mins = Oracle(m).minimal_bad_vectors()
        if (not mins or mins == [(0,) * len(m.events)]) and rng.random() < 0.75:
            continue
        return text
    raise SystemExit("gen.py: no small model for seed %s" % seed)


def main(argv):
    if len(argv) != 3:
        print("usage: gen.py SEED OUTDIR", file=sys.stderr)
        return 2
    os.makedirs(argv[2], exist_ok=True)
    path = os.path.join(argv[2], "model.pml")
    with open(path, "w") as f:
        f.write(generate(int(argv[1])))
    print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
