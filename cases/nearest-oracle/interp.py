"""The state graph of a small Promela model, step by step, for the nearest oracle.

Written from the README's definitions ("The closest successful execution:
definitions"), not from pancause's C.  The parser is the causality oracle's
(cases/oracle/promela.py, itself independent of the C and checked against
stock SPIN); the control-flow automata and the step semantics are built here
again, because the distance needs what that oracle's interpreter does not
keep: which process moved, from which control location, by which transition,
and the source line SPIN prints for it.

A state is (locs, vals): one location per process (DEAD once it executed its
-end- step) and one value per global.  A step is a Step record:
pid, loc (its control location), k (which transition of that location; "die"
for -end-), line (the line `spin -t -p` prints for it), event (its user label
or None), target (a state, or VIOL when the step itself violates: a failing
assert).  The subset and the SPIN semantics are the causality oracle's (see
its README): statements v = e, v++, v--, guards, assert, skip, if/do with
else, break, goto, d_step; labels name locations; end* labels make valid end
locations; one `ltl { [] e }` checked in every state (then invalid end states
are not checked, as pan does with a never claim).
"""

import os
import sys
from collections import namedtuple

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "oracle"))
from promela import Parser, PromelaError, eval_expr, store  # noqa: E402

RESERVED = ("end", "progress", "accept")
DEAD = -1
VIOL = "VIOL"

Step = namedtuple("Step", "pid loc k line event target")


class Automaton:
    """One proctype: locations 0..n-1 (0 initial, END the closing brace);
    trans[loc] = list of (kind, payload, dst, lines), lines = the source lines
    SPIN may print for the step (a d_step: its own and its first statement's)."""

    def __init__(self, name, body):
        self.name = name
        self.trans, self.labels, self.gotos = [], [], {}
        entry = self._new()
        self.END = self._new()
        self._seq(body, entry, self.END, None)
        self._resolve()

    def _new(self):
        self.trans.append([])
        self.labels.append([])
        return len(self.trans) - 1

    def _resolve(self):
        where = {lab: loc for loc, labs in enumerate(self.labels) for lab in labs}

        def target(loc):
            seen = set()
            while loc in self.gotos:
                if loc in seen or self.gotos[loc] not in where:
                    raise PromelaError("%s: bad goto" % self.name)
                seen.add(loc)
                loc = where[self.gotos[loc]]
            return loc

        for trs in self.trans:
            for i, (kind, pay, dst, lines) in enumerate(trs):
                trs[i] = (kind, pay, target(dst), lines)

    def _seq(self, stmts, entry, exit_, brk):
        n = len(stmts)
        if n == 0:
            raise PromelaError("%s: empty sequence" % self.name)
        locs = [None] * (n + 1)
        locs[0], locs[n] = entry, exit_
        for i in range(n - 1, 0, -1):
            k = stmts[i]["k"]
            if k in ("break", "goto"):
                if i != n - 1 or stmts[i]["labels"]:
                    raise PromelaError("line %d: jump not last or labelled" % stmts[i]["line"])
                if k == "break":
                    if brk is None:
                        raise PromelaError("line %d: break outside do" % stmts[i]["line"])
                    locs[i] = brk
                else:
                    locs[i] = self._new()
                    self.gotos[locs[i]] = stmts[i]["target"]
            else:
                locs[i] = self._new()
        if stmts[0]["k"] in ("break", "goto"):
            raise PromelaError("line %d: jump first in a sequence" % stmts[0]["line"])
        for i, st in enumerate(stmts):
            k = st["k"]
            if k in ("break", "goto"):
                continue
            src, dst = locs[i], locs[i + 1]
            for lab in st["labels"]:
                if lab not in self.labels[src]:
                    self.labels[src].append(lab)
            if k in ("if", "do"):
                for opt in st["opts"]:
                    first = opt[0]
                    if first["k"] in ("if", "do", "break") or first["labels"]:
                        raise PromelaError("line %d: option not in the subset" % first["line"])
                    if k == "if":
                        self._seq(opt, src, dst, brk)
                    else:
                        self._seq(opt, src, src, dst)
                if sum(t[0] == "else" for t in self.trans[src]) > 1:
                    raise PromelaError("line %d: two else" % st["line"])
            elif k == "else":
                self.trans[src].append(("else", None, dst, (st["line"],)))
            elif k in ("expr", "assert"):
                self.trans[src].append((k, st["e"], dst, (st["line"],)))
            elif k == "assign":
                self.trans[src].append(("assign", (st["v"], st["e"]), dst, (st["line"],)))
            elif k == "dstep":
                lines = (st["line"], st["body"][0]["line"])
                self.trans[src].append(("dstep", st["body"], dst, lines))
            else:
                raise PromelaError("unknown statement %r" % k)

    def event(self, loc):
        evs = [lab for lab in self.labels[loc] if not lab.startswith(RESERVED)]
        return evs[0] if evs else None

    def valid_end(self, loc):
        return loc == self.END or any(lab.startswith("end") for lab in self.labels[loc])


def expr_vars(e):
    if e[0] == "var":
        return {e[1]}
    if e[0] == "num":
        return set()
    out = set()
    for sub in e[1:]:
        out |= expr_vars(sub)
    return out


class Model:
    def __init__(self, text):
        spec = Parser(text).spec()
        self.vars = [v[0] for v in spec["vars"]]
        self.types = {v[0]: v[1] for v in spec["vars"]}
        self.init_vals = tuple(store(v[1], v[2]) for v in spec["vars"])
        self.procs = [Automaton(p["name"], p["body"]) for p in spec["procs"]]
        self.ltl = spec["ltl"]
        self.init = (tuple(0 for _ in self.procs), self.init_vals)
        # SPIN keeps only variables something reads (the others are "hidden")
        read = set(expr_vars(self.ltl)) if self.ltl is not None else set()
        for p in self.procs:
            for trs in p.trans:
                for kind, pay, _, _ in trs:
                    if kind in ("expr", "assert"):
                        read |= expr_vars(pay)
                    elif kind == "assign":
                        read |= expr_vars(pay[1])
                    elif kind == "dstep":
                        for st in pay:
                            read |= expr_vars(st["e"])
        self.kept = [i for i, v in enumerate(self.vars) if v in read]

    def env(self, vals):
        return dict(zip(self.vars, vals))

    def steps(self, s):
        """Every step from s, in a fixed order."""
        locs, vals = s
        env = self.env(vals)
        out = []
        for pid, p in enumerate(self.procs):
            loc = locs[pid]
            if loc == DEAD:
                continue
            if loc == p.END:
                if all(x == DEAD for x in locs[pid + 1:]):
                    nl = locs[:pid] + (DEAD,) + locs[pid + 1:]
                    out.append(Step(pid, loc, "die", None, None, (nl, vals)))
                continue
            ev = p.event(loc)
            trs = p.trans[loc]
            other = any(self._enabled(kind, pay, env) for kind, pay, _, _ in trs if kind != "else")
            for k, (kind, pay, dst, lines) in enumerate(trs):
                nl = locs[:pid] + (dst,) + locs[pid + 1:]
                if kind == "else":
                    if not other:
                        out.append(Step(pid, loc, k, lines, ev, (nl, vals)))
                elif not self._enabled(kind, pay, env):
                    continue
                elif kind == "expr":
                    out.append(Step(pid, loc, k, lines, ev, (nl, vals)))
                elif kind == "assert":
                    tgt = (nl, vals) if eval_expr(pay, env) else VIOL
                    out.append(Step(pid, loc, k, lines, ev, tgt))
                elif kind == "assign":
                    var, e = pay
                    j = self.vars.index(var)
                    nv = vals[:j] + (store(self.types[var], eval_expr(e, env)),) + vals[j + 1:]
                    out.append(Step(pid, loc, k, lines, ev, (nl, nv)))
                elif kind == "dstep":
                    out.append(Step(pid, loc, k, lines, ev, self._dstep(pay, env, nl)))
        return out

    @staticmethod
    def _enabled(kind, pay, env):
        if kind == "expr":
            return bool(eval_expr(pay, env))
        if kind == "dstep":
            first = pay[0]
            return first["k"] != "expr" or bool(eval_expr(first["e"], env))
        return kind in ("assign", "assert")

    def _dstep(self, body, env, nl):
        e2 = dict(env)
        for k, st in enumerate(body):
            if st["k"] == "expr":
                if not eval_expr(st["e"], e2):
                    raise PromelaError("line %d: d_step blocks inside" % st["line"])
            elif st["k"] == "assert":
                if not eval_expr(st["e"], e2):
                    return VIOL
            else:
                e2[st["v"]] = store(self.types[st["v"]], eval_expr(st["e"], e2))
        return (nl, tuple(e2[v] for v in self.vars))

    def bad(self, s):
        """The state itself is a violation: the ltl invariant is false there
        (the claim checks every state), or, without ltl, no step is possible
        and some live process is neither at its end nor at an end* label."""
        locs, vals = s
        if self.ltl is not None:
            return not eval_expr(self.ltl, self.env(vals))
        if self.steps(s):
            return False
        return not self.valid_end(s)

    def valid_end(self, s):
        return all(loc == DEAD or p.valid_end(loc) for p, loc in zip(self.procs, s[0]))

    def graph(self, limit=100000):
        """Every state reachable without passing a violation, with its steps."""
        g = {}
        todo = [self.init]
        while todo:
            s = todo.pop()
            if s in g:
                continue
            st = self.steps(s)
            g[s] = st
            if len(g) > limit:
                raise PromelaError("more than %d states" % limit)
            if self.bad(s):
                continue  # a run's first violation ends it
            for x in st:
                if x.target != VIOL and x.target not in g:
                    todo.append(x.target)
        return g

    def safe_reach(self, g, bad=None):
        """The states reachable from the initial one through states that are not bad
        (bad: that test instead of self.bad), by steps that do not violate (where a
        successful run can be)."""
        bad = bad or self.bad
        reach, todo = set(), [self.init]
        while todo:
            s = todo.pop()
            if s in reach or bad(s):
                continue
            reach.add(s)
            todo += [x.target for x in g[s] if x.target != VIOL]
        return reach

    def settled_states(self, g):
        """States from which no violation is reachable by silent steps alone."""
        doom = {s for s in g if self.bad(s) or
                any(x.event is None and x.target == VIOL for x in g[s])}
        pred = {}
        for s, st in g.items():
            for x in st:
                if x.event is None and x.target != VIOL:
                    pred.setdefault(x.target, []).append(s)
        work = list(doom)
        while work:
            t = work.pop()
            for s in pred.get(t, ()):
                if s not in doom:
                    doom.add(s)
                    work.append(s)
        return {s for s in g if s not in doom}
