"""The state graph of a small Promela model, step by step, for the nearest oracle.

Written from the README's definitions ("The closest successful execution:
definitions"), not from pancause's C.  The parser is the causality oracle's
(cases/oracle/promela.py, itself independent of the C and checked against
stock SPIN); the control-flow automata and the step semantics are built here
again, because the distance needs what that oracle's interpreter does not
keep: which process moved, from which control location, by which transition,
and the source line SPIN prints for it.

A state is (locs, vals): one location per process (DEAD once it executed its
-end- step) and one value per variable of Model.vars: the globals, the global
channels (a channel's value is the tuple of its messages), then each process's
locals, named as pancause names them, `P0(0):x` (None once the process died:
the variable no longer exists).  A model with an atomic sequence or a
rendezvous channel has one more slot at the end of vals, no variable (never in
Model.kept): which move pan must take next (Model.steps).  A step is a Step
record: pid, loc (its control location), k (which transition of that
location; "die" for -end-), line (the line `spin -t -p` prints for it), event
(its user label or None), target (a state, or VIOL when the step itself
violates: a failing assert).  The subset and the SPIN semantics are the
causality oracle's (see its README): statements v = e, v++, v--, guards,
assert, skip, if/do with else, break, goto, d_step; labels name locations;
end* labels make valid end locations; one `ltl { [] e }` checked where pan's
never claim moves (then invalid end states are not checked, as pan does with a
never claim): in every state without a pending move, not inside an atomic
sequence its process still holds nor between a rendezvous' send and its receive
(pan.c gives the claim no move after a move with t->atom&2 or with boq set;
found 2026-11-27: a state inside an atomic sequence was checked, so a model
whose atomic sequence passes through a state the formula forbids had, for this
file, a violation pan never reports).  Added here (gen.py's NEAREST_GEN_RICH
models): process-local variables (declared at the start of a body; a process
sees its own locals, then the globals), global channels `chan q = [k] of { T }`
with one field: `q!e` (executable while fewer than k messages), `q?v` (while
not empty; takes the oldest), `len(q)` in expressions; rendezvous channels
(k = 0: the send is a step only when another process can receive now, the
message then waits in the channel and the next step is one of those receives,
as pan moves; the send and the receive are two steps, as in SPIN's trail), and
`atomic { ... }` over basic statements (after a step into its inside only that
process moves while it can; where it blocks any process may, and it holds
atomicity again when it moves on inside).  NEAREST_GEN_RICH2 (2026-11-27;
promela.py's Parser reads it): channels of two fields (`chan q = [k] of { byte, byte }`,
a message the tuple of its fields), `q!e1,e2`, receives whose fields are
variables or constants (`q?1,v`: a buffered one is executable when the oldest
message's field is 1, a rendezvous send only when some other process stands at
a receive that takes its message), rendezvous operations inside atomic
sequences (pan.c: after a rendezvous send no process holds atomicity until the
receive; the receiver holds it after the receive when it moved inside an atomic
sequence of its own, else nobody does; the sender holds it again once it moves
on inside; a send that no receive can take is no step, so an atomic sequence
blocked at one loses atomicity there), channel operations opening if/do
options, and never claims with rendezvous channels (the claim does not move
mid-handshake).  NEAREST_GEN_MERGE: SPIN's statement merging inside atomic
sequences (promela.merge_chains: a guard, a receive, an unlabelled assignment or assert,
and a send in a model that declares no rendezvous channel take the unlabelled
assignments and asserts right after them into their move, Automaton.tails; a send
heading a move is a buffered one, enabled while its channel is not full, and the
tail runs after it has appended its message; the first statement
decides whether the move runs, and which of the move's reads count where is
slice_ref.py's R13: until session 17 only the first statement's, as pancause
then read a merged transition; a step's lines are the first statement's and
each merged one's, st["line"], which gen.py puts on lines of their own in half
of its MERGE models).  Not modelled
(gen.py draws no such model): merging outside atomic sequences and
dead-variable resets (-o1); `else` beside an option that opens with a channel
operation is refused by SPIN itself ("dubious use of 'else' combined with
i/o").  Checked against stock pan's "states, stored" (SAFETY, NOREDUCE, -A -E,
asserts made to pass here) on the 27 models without ltl of rich seeds 1-30
(2026-11-26): equal on 26, counting the states without a pending move (pan
stores no state inside an atomic sequence or in the middle of a rendezvous); on
the other (seed 15) pan hides a global that only its own assignments read,
which this graph keeps (its states then count twice; a value SPIN hides is no
variable for the distance: reference.py reads pan.h). spincheck.py makes that
comparison, projected on what pan keeps, and compares whether a violation is
reachable with stock pan's search (2026-11-27): RICH2 seeds 1-300 and 299 raw
RICH2 candidates (gen.py's draws before its violation and success filters, 120
of them without a violation; one more was over its bound), all equal; MERGE
seeds 1-40 and 150 raw MERGE candidates (70 without a violation, 26 with a
merged move), all equal.
NEAREST_GEN_NESTED (2026-11-28): an `ltl` of one of the two nested safety
formulas `[] ((p) -> [] !(q))` and `[] ((p) -> ((!(q) U (r)) || [] !(q)))` (the
causality oracle's parser reads them) is followed by a monitor of this file's
own, written from the formulas' meaning (Model._monitor), over the states pan's
claim looks at (the same as for `[] e`: Model.checked); its bit is one more slot
of vals, no variable, so two runs at one model state with different pasts of p
and r are two states (as pan's combined graph has them: README "Never claims").
"""

import os
import sys
from collections import namedtuple

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "oracle"))
from promela import Parser, PromelaError, eval_expr, merge_chains, store  # noqa: E402

RESERVED = ("end", "progress", "accept")
SEND_READS_CHAN = True  # a send's text names its channel: slice_ref.py's R10
DEAD = -1
VIOL = "VIOL"

Step = namedtuple("Step", "pid loc k line event target")


class Automaton:
    """One proctype: locations 0..n-1 (0 initial, END the closing brace);
    trans[loc] = list of (kind, payload, dst, lines), lines = the source lines
    SPIN may print for the step (a d_step: its own and its first statement's)."""

    def __init__(self, name, body, rendezvous):
        self.name = name
        self.rendezvous = rendezvous  # the model declares a rendezvous channel (merge_chains)
        self.trans, self.labels, self.gotos = [], [], {}
        self.inner = set()  # locations inside an atomic sequence (after its first statement)
        # SPIN's statement merging inside atomic sequences (merge_chains): (loc, k) -> the
        # statements pan executes after transition k of loc in the same move; line ->
        # the number of statements each transition of an atomic sequence on that line
        # takes along, in source order (gen.py compares it with pan.m)
        self.tails, self.line_chains = {}, {}
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
            elif k == "send":  # (channel, its fields' expressions)
                self.trans[src].append(("send", (st["ch"], tuple(st["es"])), dst,
                                        (st["line"],)))
            elif k == "recv":  # (channel, its fields: ("var", v) or ("num", c))
                self.trans[src].append(("recv", (st["ch"], tuple(st["args"])), dst,
                                        (st["line"],)))
            elif k == "atomic":
                for inner in st["body"]:
                    if inner["k"] not in ("expr", "assign", "send", "recv", "assert") or \
                            inner["labels"]:
                        raise PromelaError("line %d: only unlabelled basic statements inside "
                                           "atomic" % inner["line"])
                first = len(self.trans)
                body = merge_chains(st["body"], self.rendezvous)
                for x in body:  # keyed by each move's own line (its first statement's)
                    self.line_chains.setdefault(x["line"], []).append(
                        len(x["tail"]) if x["k"] == "chain" else 0)
                self._seq(body, src, dst, brk)
                self.inner |= set(range(first, len(self.trans)))
            elif k == "chain":  # the head's transition, taking the tail along
                self._seq([st["head"]], src, dst, brk)
                self.tails[(src, len(self.trans[src]) - 1)] = st["tail"]
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
    if e[0] in ("var", "len"):  # len(q) reads the channel q
        return {e[1]}
    if e[0] == "num":
        return set()
    out = set()
    for sub in e[1:]:
        out |= expr_vars(sub)
    return out


class Model:
    """The state graph.  self.vars are the variables of a state, in pan's sense
    (README "Variables"), in order: the globals, then the global channels, then
    each process's locals, named as pancause names them, `P0(0):x`; self.gvars
    the globals alone (what an ltl formula or --assume may name).  A process's
    statements see the globals, the channels and its own locals (scopes[pid]:
    name -> index in vars).  A local's value is None once its process died (the
    variable no longer exists; README: a variable that exists in one state and
    not in the other differs).  A channel's value is the tuple of its messages."""

    def __init__(self, text):
        spec = Parser(text).spec()
        self.gvars = [v[0] for v in spec["vars"]]
        self.vars = list(self.gvars)
        self.types = {v[0]: v[1] for v in spec["vars"]}
        inits = [store(v[1], v[2]) for v in spec["vars"]]
        self.chans = {}  # name -> (capacity, field type, or a tuple of them (several fields))
        for name, cap, _ in spec.get("chans", []):
            fields = spec["chan_fields"][name]
            ty = fields[0] if len(fields) == 1 else tuple(fields)
            if name in self.types:
                raise PromelaError("channel %s: name used twice" % name)
            self.chans[name] = (cap, ty)
            self.vars.append(name)
            self.types[name] = "chan"
            inits.append(())
        gscope = {v: j for j, v in enumerate(self.vars)}
        self.scopes, self.local_slots = [], []
        for pid, p in enumerate(spec["procs"]):
            scope, mine = dict(gscope), []
            for name, ty, init in p.get("locals", []):
                if name in scope:
                    raise PromelaError("%s: local %s hides a global or repeats" % (p["name"], name))
                slot = "%s(%d):%s" % (p["name"], pid, name)
                scope[name] = len(self.vars)
                mine.append(len(self.vars))
                self.vars.append(slot)
                self.types[slot] = ty
                inits.append(store(ty, init))
            self.scopes.append(scope)
            self.local_slots.append(tuple(mine))
        rendezvous = any(cap == 0 for cap, _ in self.chans.values())
        self.procs = [Automaton(p["name"], p["body"], rendezvous) for p in spec["procs"]]
        for pid, p in enumerate(self.procs):  # channel operations fit their channels
            for trs in p.trans:
                for kind, pay, _, _ in trs:
                    if kind not in ("send", "recv"):
                        continue
                    ch, fields = pay
                    if ch not in self.chans or self.scopes[pid].get(ch) is None:
                        raise PromelaError("%s: %s is no channel" % (p.name, ch))
                    ty = self.chans[ch][1]
                    if len(fields) != (1 if isinstance(ty, str) else len(ty)):
                        raise PromelaError("%s: %s takes %d fields" % (p.name, ch, len(fields)))
                    if kind == "recv" and any(
                            a[0] == "var" and (a[1] not in self.scopes[pid] or
                                               self.types[self.vars[self.scopes[pid][a[1]]]]
                                               == "chan") for a in fields):
                        raise PromelaError("%s: a receive into no variable" % p.name)
        # with an atomic sequence or a rendezvous channel, vals ends with one more
        # slot, no variable (never in kept, no name in a scope): the move pan must
        # take next, None (any), ("a", pid) (pid holds atomicity) or ("rv", j,
        # sender) (the receive of the rendezvous offered on channel vars[j])
        self.token = any(p.inner for p in self.procs) or \
            any(cap == 0 for cap, _ in self.chans.values())
        # NEAREST_GEN_NESTED: a nested safety formula (its own deterministic
        # monitor, _monitor) has one more slot in vals after the variables and
        # before the token, no variable (never in kept, no name in a scope)
        ltl = spec["ltl"]
        self.nested = ltl[1:] if ltl is not None and ltl[0] == "nested" else None
        self.ltl = ltl if self.nested is None else None  # the invariant e of [] e
        self.mon = None
        if self.nested is not None:
            self.mon = len(inits)
            inits.append(False)
        if self.token:
            inits.append(None)
        self.init_vals = tuple(inits)
        self.init = self._monitor((tuple(0 for _ in self.procs), self.init_vals))
        self.init_vals = self.init[1]
        # SPIN keeps only the globals something reads (the others are "hidden"); it
        # keeps every local and channel
        read = set(expr_vars(self.ltl)) if self.ltl is not None else set()
        for e in (self.nested or ())[1:]:
            read |= expr_vars(e) if e is not None else set()
        for pid, p in enumerate(self.procs):
            for trs in p.trans:
                for kind, pay, _, _ in trs:
                    read |= {self.vars[j] for j in self.trans_reads(pid, kind, pay)}
            for tail in p.tails.values():  # a merged statement's reads count too
                for st in tail:
                    read |= {self.vars[j] for j in self.resolve(pid, expr_vars(st["e"]))}
        nglob = len(self.gvars)
        self.kept = [i for i, v in enumerate(self.vars) if i >= nglob or v in read]

    def resolve(self, pid, names):
        """The indices in vars of the identifiers names, in process pid's scope."""
        sc = self.scopes[pid]
        return {sc[n] for n in names if n in sc}

    def trans_reads(self, pid, kind, pay, dstep_targets=False):
        """The variables (indices) a transition's statement text reads: an
        assignment not its target, a send its expression (and, as a channel
        operation, not its channel), a receive nothing; a d_step its guards'
        and right-hand sides' identifiers, and its targets too with
        dstep_targets."""
        names = set()
        if kind in ("expr", "assert"):
            names = expr_vars(pay)
        elif kind == "assign":
            names = expr_vars(pay[1])
        elif kind == "send":
            for e in pay[1]:
                names |= expr_vars(e)
            names |= {pay[0]} if SEND_READS_CHAN else set()
        elif kind == "recv":
            names = {pay[0]}
        elif kind == "dstep":
            for st in pay:
                names |= expr_vars(st["e"])
                if dstep_targets and st["k"] == "assign":
                    names.add(st["v"])
        return self.resolve(pid, names)

    def env(self, vals, pid=None):
        """Names -> values as process pid sees them (pid None: the globals)."""
        if pid is None:
            return dict(zip(self.gvars, vals))
        return {v: vals[j] for v, j in self.scopes[pid].items()}

    def nvars(self, s):
        """|V(s)|: the kept variables that exist in s."""
        return sum(1 for i in self.kept if s[1][i] is not None)

    def steps(self, s):
        """Every step from s, in a fixed order.  SPIN's atomic: after a step of
        pid into an atomic sequence's inside, only pid moves while it can (when
        it blocks there, any process may: atomicity is lost until pid moves
        again).  A rendezvous (capacity 0): the send is a step (the message waits
        in the channel) only when another process can receive it now, and then
        the next step is one of those receives (README: a rendezvous handshake is
        one step per statement, as pan moves)."""
        tok = s[1][-1] if self.token else None
        if tok is not None and tok[0] == "a":
            own = self._steps(s, only=tok[1])
            if own:
                return self._watched([self._norm(x) for x in own])
        out = self._steps(s, rv=tok if tok is not None and tok[0] == "rv" else None)
        return self._watched([self._norm(x) for x in out] if self.token else out)

    def _watched(self, out):
        """The steps with the nested formula's monitor updated in their targets."""
        if self.nested is None:
            return out
        return [x if x.target == VIOL else x._replace(target=self._monitor(x.target))
                for x in out]

    def checked(self, s):
        """Whether pan's never claim looks at state s: not inside an atomic
        sequence its process still holds, nor between a rendezvous' send and its
        receive (bad's comment); the initial state and every other state it does."""
        return not (self.token and s[1][-1] is not None)

    def _monitor(self, s):
        """s with the nested formula's monitor updated for s itself, written from
        the formula's meaning (README "Never claims"; not from the C nor from SPIN's
        claim).  Over the checked states c_0 c_1 ... of a run, a finite prefix
        c_0 .. c_j violates
          after  [] (p -> [] !q):               iff p holds in some c_i and q in
                 some c_k, i <= k <= j (one state may be both);
          unless [] (p -> ((!q U r) || [] !q)):  iff p holds in some c_i and q in
                 some c_k, i <= k <= j, with r false in every one of c_i .. c_k
                 (p -> !q W r: an r at c_k itself releases, as U's witness);
        so one bit after c_j says all the future needs: after, "p held in some
        c_i, i <= j"; unless, "p held in some c_i, i <= j, and r in none of
        c_i .. c_j".  It is m_j = (m_(j-1) or p(c_j)) [and not r(c_j)], and c_j
        is the run's first violation iff m_j and q(c_j) (bad).  A state the claim
        does not look at keeps the bit it came in with."""
        if self.nested is None or not self.checked(s):
            return s
        kind, p, _, r = self.nested
        locs, vals = s
        env = self.env(vals)
        m = bool(vals[self.mon]) or bool(eval_expr(p, env))
        if kind == "unless" and m and eval_expr(r, env):
            m = False
        if m == vals[self.mon]:
            return s
        return (locs, vals[:self.mon] + (m,) + vals[self.mon + 1:])

    def _norm(self, x):
        """A step into an atomic sequence's inside where its process then blocks
        holds no atomicity (pan breaks it there and stores the state as any
        other): its token is None, so that state is the one reached otherwise."""
        t = x.target
        if t != VIOL and t[1][-1] is not None and t[1][-1][0] == "a" and \
                not self._steps(t, only=t[1][-1][1]):
            return x._replace(target=(t[0], t[1][:-1] + (None,)))
        return x

    def _steps(self, s, only=None, rv=None):
        out = self._steps1(s, only, rv)
        if not any(p.tails for p in self.procs):
            return out
        return [x if x.k == "die" or (x.loc, x.k) not in self.procs[x.pid].tails else
                x._replace(target=self._tail(x.pid, self.procs[x.pid].tails[(x.loc, x.k)],
                                             x.target)) for x in out]

    def _tail(self, pid, tail, t):
        """The state after a merged move's tail (merge_chains): its assignments in
        order, or VIOL where one of its asserts fails."""
        if t == VIOL:
            return VIOL
        locs, vals = t
        nv = list(vals)
        scope = self.scopes[pid]
        env = self.env(vals, pid)
        for st in tail:
            if st["k"] == "assert":
                if not eval_expr(st["e"], env):
                    return VIOL
                continue
            j = scope[st["v"]]
            nv[j] = env[st["v"]] = store(self.types[self.vars[j]], eval_expr(st["e"], env))
        return (locs, tuple(nv))

    def _steps1(self, s, only=None, rv=None):
        locs, vals = s
        out = []
        for pid, p in enumerate(self.procs):
            loc = locs[pid]
            if loc == DEAD or (only is not None and pid != only):
                continue
            if loc == p.END:
                if rv is None and all(x == DEAD for x in locs[pid + 1:]):
                    nl = locs[:pid] + (DEAD,) + locs[pid + 1:]
                    nv = list(vals)
                    for j in self.local_slots[pid]:
                        nv[j] = None  # its locals leave the state vector
                    out.append(Step(pid, loc, "die", None, None, (nl, self._tok(nv, None))))
                continue
            env = self.env(vals, pid)
            scope = self.scopes[pid]
            ev = p.event(loc)
            trs = p.trans[loc]
            if rv is not None:  # only the receives of the offered message
                for k, (kind, pay, dst, lines) in enumerate(trs):
                    if kind == "recv" and scope[pay[0]] == rv[1] and pid != rv[2] and \
                            self._matches(pay[1], vals[rv[1]][0]):
                        nl = locs[:pid] + (dst,) + locs[pid + 1:]
                        out.append(Step(pid, loc, k, lines, ev, self._recv(s, pid, pay, nl)))
                continue
            other = any(self._enabled(kind, pay, env, s, pid)
                        for kind, pay, _, _ in trs if kind != "else")
            for k, (kind, pay, dst, lines) in enumerate(trs):
                nl = locs[:pid] + (dst,) + locs[pid + 1:]
                nxt = ("a", pid) if dst in p.inner else None
                if kind == "else":
                    if not other:
                        out.append(Step(pid, loc, k, lines, ev, (nl, self._tok(vals, nxt))))
                elif not self._enabled(kind, pay, env, s, pid):
                    continue
                elif kind == "expr":
                    out.append(Step(pid, loc, k, lines, ev, (nl, self._tok(vals, nxt))))
                elif kind == "assert":
                    tgt = (nl, self._tok(vals, nxt)) if eval_expr(pay, env) else VIOL
                    out.append(Step(pid, loc, k, lines, ev, tgt))
                elif kind == "assign":
                    var, e = pay
                    if var not in scope:
                        raise PromelaError("unknown variable %s" % var)
                    j = scope[var]
                    nv = list(vals)
                    nv[j] = store(self.types[self.vars[j]], eval_expr(e, env))
                    out.append(Step(pid, loc, k, lines, ev, (nl, self._tok(nv, nxt))))
                elif kind == "send":
                    ch = pay[0]
                    j = scope[ch]
                    nv = list(vals)
                    nv[j] = vals[j] + (self._message(ch, pay[1], env),)
                    if self.chans[ch][0] == 0:
                        nxt = ("rv", j, pid)
                    out.append(Step(pid, loc, k, lines, ev, (nl, self._tok(nv, nxt))))
                elif kind == "recv":
                    out.append(Step(pid, loc, k, lines, ev, self._recv(s, pid, pay, nl)))
                elif kind == "dstep":
                    t = self._dstep(pid, pay, env, nl, vals)
                    out.append(Step(pid, loc, k, lines, ev,
                                    t if t == VIOL else (t[0], self._tok(t[1], nxt))))
        return out

    def mid_rendezvous(self, s):
        """Whether s is between a rendezvous' send and its receive: no run ends
        there (pan never stops there; reference.py: good_end)."""
        return self.token and s[1][-1] is not None and s[1][-1][0] == "rv"

    def holds_atomic(self, s):
        """Whether a process holds atomicity in s (inside its atomic sequence, not
        blocked there): no run ends there either (README "Good runs": SPIN executes
        the sequence as one step and the never claim does not look inside it;
        reference.py: good_end)."""
        return self.token and s[1][-1] is not None and s[1][-1][0] == "a"

    def _tok(self, vals, tok):
        if not self.token:
            return tuple(vals)
        return tuple(vals[:-1]) + (tok,)

    def _message(self, ch, es, env):
        """The message a send of the expressions es puts in channel ch: a value
        (one field) or a tuple of values (several), each stored as its field's
        type."""
        ty = self.chans[ch][1]
        if isinstance(ty, str):
            if len(es) != 1:
                raise PromelaError("send of %d fields on %s, which has 1" % (len(es), ch))
            return store(ty, eval_expr(es[0], env))
        if len(es) != len(ty):
            raise PromelaError("send of %d fields on %s, which has %d" % (len(es), ch, len(ty)))
        return tuple(store(t, eval_expr(e, env)) for t, e in zip(ty, es))

    @staticmethod
    def _fields(msg):
        return msg if isinstance(msg, tuple) else (msg,)

    def _matches(self, args, msg):
        """Whether a receive with fields args takes msg: each constant field
        equals the message's (SPIN compares the field as stored)."""
        fs = self._fields(msg)
        if len(fs) != len(args):
            raise PromelaError("receive of %d fields from a channel of %d" % (len(args), len(fs)))
        return all(a[0] == "var" or a[1] == f for a, f in zip(args, fs))

    def _recv(self, s, pid, pay, nl):
        ch, args = pay
        scope = self.scopes[pid]
        j = scope[ch]
        nv = list(s[1])
        msg = nv[j][0]
        nv[j] = nv[j][1:]
        for a, f in zip(args, self._fields(msg)):
            if a[0] == "var":
                jv = scope[a[1]]
                nv[jv] = store(self.types[self.vars[jv]], f)
        nxt = ("a", pid) if nl[pid] in self.procs[pid].inner else None
        return (nl, self._tok(nv, nxt))

    def _enabled(self, kind, pay, env, s=None, pid=None):
        if kind == "expr":
            return bool(eval_expr(pay, env))
        if kind == "dstep":
            first = pay[0]
            return first["k"] != "expr" or bool(eval_expr(first["e"], env))
        if kind == "send":
            cap = self.chans[pay[0]][0]
            if cap == 0:  # a rendezvous: some other process can receive it now
                msg = self._message(pay[0], pay[1], env)
                return any(self._can_receive(s, r, pay[0], msg) for r in range(len(self.procs))
                           if r != pid)
            return len(env[pay[0]]) < cap
        if kind == "recv":
            # a rendezvous receive moves only as the second half of a handshake; a
            # buffered one takes the oldest message, when its constants match it
            q = env[pay[0]]
            return self.chans[pay[0]][0] > 0 and len(q) > 0 and self._matches(pay[1], q[0])
        return kind in ("assign", "assert")

    def _can_receive(self, s, r, ch, msg):
        """Whether process r stands at a receive on ch that takes msg."""
        loc = s[0][r]
        p = self.procs[r]
        if loc == DEAD or loc == p.END:
            return False
        j = self.scopes[r].get(ch)
        return any(kind == "recv" and self.scopes[r][pay[0]] == j and self._matches(pay[1], msg)
                   for kind, pay, _, _ in p.trans[loc])

    def _dstep(self, pid, body, env, nl, vals):
        e2 = dict(env)
        for k, st in enumerate(body):
            if st["k"] == "expr":
                if not eval_expr(st["e"], e2):
                    raise PromelaError("line %d: d_step blocks inside" % st["line"])
            elif st["k"] == "assert":
                if not eval_expr(st["e"], e2):
                    return VIOL
            else:
                j = self.scopes[pid][st["v"]]
                e2[st["v"]] = store(self.types[self.vars[j]], eval_expr(st["e"], e2))
        nv = list(vals)
        for v, j in self.scopes[pid].items():
            nv[j] = e2[v]
        return (nl, tuple(nv))

    def bad(self, s):
        """The state itself is a violation: the ltl invariant is false there
        (the claim checks every state), or, without ltl, no step is possible
        and some live process is neither at its end nor at an end* label."""
        locs, vals = s
        if self.nested is not None:
            # the first checked state where q holds with the monitor (after that
            # state) set: a bad prefix of the nested formula (_monitor)
            return self.checked(s) and vals[self.mon] and \
                bool(eval_expr(self.nested[2], self.env(vals)))
        if self.ltl is not None:
            # pan's claim moves only between whole moves: not inside an atomic
            # sequence its process still holds, nor between a rendezvous' send and
            # its receive (pan.c: a move with t->atom&2 or boq set keeps the claim's
            # turn away), so those states are never checked
            if self.token and vals[-1] is not None:
                return False
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
