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
import re
import shutil
import subprocess
import sys
import tempfile

from oracle import Oracle
from promela import PAN_M_MERGE, Model, chains_agree, pan_m_chains, pan_m_moves

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
# ORACLE_GEN_CHAN=1: the processes also communicate through 1-2 global
# channels, buffered (capacity 1-2) or rendezvous, of one byte field (a fifth
# of them with a second, bool, field): labelled and silent sends (constants
# or globals) and receives (into a local or global byte, or matching a
# constant), guards on the received values, len/empty/nempty/full/nfull
# guards on buffered channels, receives and sends as options of if and do,
# processes waiting at a receive as (valid or invalid) end states, and now
# and then len(q) in the hazard.  Each rendezvous channel has its senders and
# its receivers in different processes.  Without it the draws, and so the
# models, are exactly those of the default.
CHAN = os.environ.get("ORACLE_GEN_CHAN") == "1"
# ORACLE_GEN_ATOMIC=1 (implies ORACLE_GEN_CHAN's channels): a share of the
# simple statements become atomic sequences of two or three basic statements
# (guards, assignments, buffered and rendezvous sends and receives, now and
# then an assert), e.g. `atomic { (a == 1); q!0 }`, `atomic { q?m; b = 1 }`,
# `atomic { a = 1; (b == 0); c = 2 }`, sometimes labelled on the atomic (its
# first statement's event) and on inner guards, sends and receives.  They may
# block midway (a guard waiting on another process, a full channel, a
# rendezvous nobody takes) and lose atomicity there.  A model is kept only
# when SPIN's pan.m merges exactly what promela.merge_chains predicts and
# nothing else (merges_predicted): the unlabelled assignments and asserts after
# a guard, a receive or an assignment, and after a send in a model that
# declares no rendezvous channel.  Without it the draws, and so the default
# and ORACLE_GEN_CHAN models, are exactly those of before.
ATOMIC = os.environ.get("ORACLE_GEN_ATOMIC") == "1"
CHAN = CHAN or ATOMIC
# ORACLE_GEN_NESTED=1: an ltl hazard is one of two nested safety formulas whose
# SPIN never claim is nondeterministic (README "Nested safety formulas"):
# ``[] ((p) -> [] !(q))`` or ``[] ((p) -> ((!(q) U (r)) || [] !(q)))``, q drawn
# as the invariant's p is, p (the trigger) and r (the release) one atom each,
# set here and there like the hazard's ingredients.  Without it the draws, and
# so the models, are exactly those of before.
NESTED = os.environ.get("ORACLE_GEN_NESTED") == "1"
# ORACLE_GEN_NARROW=1 (with ORACLE_GEN_CHAN=1): a third of the receives of a
# byte field store it in a bool (a received 2 becomes 0).  Stock pan undoes
# such a receive wrongly (it puts the truncated value back: top-level README,
# "A receive into a narrower variable"), so crosscheck.py cannot vouch for
# these models; pan -C puts the message back and must agree with the oracle.
NARROW = CHAN and os.environ.get("ORACLE_GEN_NARROW") == "1"
# ORACLE_GEN_UNLESS=1: some process bodies (a run of their statements) and
# some if/do option bodies (after the option's guard) become
# ``L: { body } unless { (g == 1) -> E: c = 2 }``: an escape headed by a guard
# on a global, now and then nested (an unless inside the body of another).
# SPIN refuses a label on the escape's guard ("cannot jump to the guard of an
# escape") and on the first statement inside a block ("label placed
# incorrectly"), so the escape's first move is silent and a label of the
# body's first statement goes before the block.  Without it the draws, and so
# every other family's models, are exactly those of before.
UNLESS = os.environ.get("ORACLE_GEN_UNLESS") == "1"
# ORACLE_GEN_LOCALS2=1: a share of the globals is declared with SPIN's
# ``local`` tag (``local byte a;``), the hint that one process alone uses
# them, which pan's reduction believes and nothing checks; here every process
# may read and write them as before, so a move SPIN takes as safe names a
# global that others use (pancause makes such moves visible).
LOCALS2 = os.environ.get("ORACLE_GEN_LOCALS2") == "1"
# ORACLE_GEN_XRXS=1 (implies ORACLE_GEN_CHAN's channels): every channel has
# exactly one sender and one receiver process, which declare it ``xs`` and
# ``xr`` (both, or one of them), and the channel polls are those pan's DFS
# accepts: the declaring side polls freely (len, empty, nempty, full, nfull,
# q?[c]), the other side of a declared channel only with nfull (the sender of
# an xr channel) or nempty (the receiver of an xs one), a third process and the
# ltl formula not at all (pan: "xr assertion violated", README "xr/xs").
XRXS = os.environ.get("ORACLE_GEN_XRXS") == "1"
CHAN = CHAN or XRXS


class Gen:
    def __init__(self, rng):
        self.rng = rng
        self.nlabels = 0
        self.nend = 0
        self.counters = []
        self.lvars = {}       # the locals of the process being written
        self.local_counters = set()
        self.chans = []       # ORACLE_GEN_CHAN: (name, capacity, field types)
        self.roles = []       # per process: [(channel name, "send" | "recv")]
        self.my_roles = []    # the roles of the process being written
        self.used_roles = set()  # those it played so far
        self.mvars = {}       # its locals that receives write (name -> type)
        self.xrxs = {}        # ORACLE_GEN_XRXS: channel -> {"xr", "xs"} declared
        self.pid = 0          # the process being written

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
        if ATOMIC and r.random() < 0.35:
            return self.atomic_stmt(prefix)
        if CHAN and self.chans and r.random() < 0.4:
            return self.chan_stmt(prefix)
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

    # -- channels (ORACLE_GEN_CHAN)
    def make_chans(self):
        """1-2 channels and the processes' roles on them; draws the number
        of processes too (returned)."""
        r = self.rng
        nprocs = 3 if BIG else r.randint(2, 3)
        self.roles = [[] for _ in range(nprocs)]
        for name in ["q", "r"][:1 if r.random() < 0.6 else 2]:
            cap = 0 if r.random() < 0.45 else r.randint(1, 2)
            fields = ["byte"] if r.random() < 0.8 else ["byte", "bool"]
            self.chans.append((name, cap, fields))
            snd = r.randrange(nprocs)
            rcv = r.choice([i for i in range(nprocs) if i != snd])
            self.roles[snd].append((name, "send"))
            self.roles[rcv].append((name, "recv"))
            others = [i for i in range(nprocs) if i not in (snd, rcv)]
            x = r.random()
            if XRXS:
                # one sender, one receiver; xr by the receiver, xs by the sender
                y = r.random()
                self.xrxs[name] = {"xr", "xs"} if y < 0.4 else {"xr"} if y < 0.7 else {"xs"}
                if cap == 0 and r.random() < 0.4:
                    # more buffered channels: the polls are on them
                    cap = r.randint(1, 2)
                    self.chans[-1] = (name, cap, fields)
                continue
            if others and x < 0.3:
                # a second sender (rendezvous: never a receiver too)
                self.roles[others[0]].append((name, "send"))
            elif others and x < 0.55 and (cap > 0 or (name, "send") not in self.roles[others[0]]):
                # a second receiver: two processes may take one message
                self.roles[others[0]].append((name, "recv"))
            if cap > 0 and r.random() < 0.2:
                # buffered: the receiver may send too (a process may read back
                # its own messages)
                self.roles[rcv].append((name, "send"))
        return nprocs

    def chan(self, name):
        return next(c for c in self.chans if c[0] == name)

    def field_value(self, ty, allow_var=True):
        """A constant, or now and then a global of that type, to send."""
        r = self.rng
        same = [v for v in self.vars if self.vars[v] == ty]
        if allow_var and same and r.random() < 0.3:
            return r.choice(same)
        if ty == "bool":
            return r.choice(["false", "true"])
        return str(r.choice([0, 1, 2]))

    def send_op(self, name):
        return "%s!%s" % (name, ",".join(self.field_value(t) for t in self.chan(name)[2]))

    def recv_op(self, name, const_p=0.35):
        """A receive: each field into a variable (a local of the process,
        now and then a global of the field's type) or matching a constant.
        Returns (text, [variables written])."""
        r = self.rng
        args, written = [], []
        for k, ty in enumerate(self.chan(name)[2]):
            if r.random() < const_p:
                args.append(self.field_value(ty, allow_var=False))
                continue
            if NARROW and ty == "byte" and r.random() < 0.35:
                # a bool takes a byte: 2 arrives as 0 (pan's 1-bit field)
                ty = "bool"
            # (one variable in two fields: SPIN refuses it)
            same = [v for v in self.vars if self.vars[v] == ty and v not in args]
            if same and r.random() < 0.35:
                v = r.choice(same)
            else:
                v = "m" if ty == "byte" else "n" if "n" not in args else "k"
                self.mvars[v] = ty
            args.append(v)
            written.append(v)
        return "%s?%s" % (name, ",".join(args)), written

    def value_guard(self, v, prefix):
        """A guard on a received value, or an if on it."""
        r = self.rng
        ty = self.mvars.get(v) or self.vars[v]
        c = r.choice([0, 1] if ty == "bool" else [0, 1, 2])
        if ty == "bool":
            atom = v if c else "!%s" % v
        else:
            atom = "%s == %d" % (v, c)
        if r.random() < 0.5:
            return ["%s(%s)" % (self.maybe_label(prefix, 0.3), atom)]
        opts = [("(%s)" % atom, [self.assign(prefix)])]
        opts.append(("else", [self.assign(prefix)]) if r.random() < 0.6
                    else ("true", [self.assign(prefix)]))
        return self.render("if", "fi", "", opts)

    def may_poll(self, name):
        """ORACLE_GEN_XRXS: the polls this process may make on channel name
        without breaking an xr/xs declaration (pan's DFS checks them)."""
        mine = {role for ch, role in self.roles[self.pid] if ch == name}
        decl = self.xrxs.get(name, set())
        if "recv" in mine:
            return ["nempty"] if "xs" in decl else ["len", "empty", "nempty", "full", "nfull", "poll"]
        if "send" in mine:
            return ["nfull"] if "xr" in decl else ["len", "empty", "nempty", "full", "nfull", "poll"]
        return [] if decl else ["len", "empty", "nempty", "full", "nfull", "poll"]

    def chan_guard(self):
        """A condition on a buffered channel's length."""
        r = self.rng
        if XRXS:
            cands = [(c, self.may_poll(c[0])) for c in self.chans if c[1] > 0]
            cands = [x for x in cands if x[1]]
            (name, cap, fields), ops = r.choice(cands)
            op = "poll" if "poll" in ops and r.random() < 0.3 else r.choice(ops)
            if op == "len":
                return "len(%s) %s %d" % (name, r.choice(["==", "<", ">"]), r.randint(0, cap))
            if op == "poll":
                return "%s?[%s]" % (name, ",".join(self.field_value(t, allow_var=False)
                                                  for t in fields))
            return "%s(%s)" % (op, name)
        name, cap, _ = r.choice([c for c in self.chans if c[1] > 0])
        x = r.random()
        if x < 0.4:
            return "len(%s) %s %d" % (name, r.choice(["==", "<", ">"]), r.randint(0, cap))
        return "%s(%s)" % (r.choice(["empty", "nempty", "full", "nfull"]), name)

    def chan_stmt(self, prefix, role=None):
        r = self.rng
        if role is None:
            buffered = [c for c in self.chans if c[1] > 0]
            if XRXS:
                buffered = [c for c in buffered if self.may_poll(c[0])]
            if buffered and (not self.my_roles or r.random() < (0.35 if XRXS else 0.12)):
                return ["%s(%s)" % (self.maybe_label(prefix, 0.3), self.chan_guard())]
            if not self.my_roles:
                return [self.assign(prefix)]
            role = r.choice(self.my_roles)
        self.used_roles.add(role)
        name, role = role
        if role == "send":
            out = ["%s%s" % (self.maybe_label(prefix, 0.65), self.send_op(name))]
        else:
            if self.kind == "deadlock" and r.random() < 0.3:
                self.nend += 1
                lab = "end_%d: " % self.nend
            else:
                lab = self.maybe_label(prefix, 0.65)
            op, written = self.recv_op(name, const_p=0.25)
            out = [lab + op]
            if written and r.random() < 0.5:
                out += self.value_guard(r.choice(written), prefix)
        if r.random() < 0.3:
            # what the communication enables: a hazard ingredient
            v, c = r.choice(self.hazard_atoms)
            out.append(self.assign(prefix, 0.5, v, c))
        return out

    def atomic_part(self, prefix, kind, label_p):
        """One statement of an atomic sequence: kind "guard", "assign", "send"
        or "recv" (the last two on one of the process's roles)."""
        r = self.rng
        lab = self.maybe_label(prefix, label_p) if label_p else ""
        if kind == "guard":
            return "%s(%s)" % (lab, self.cond())
        if kind == "assign":
            if r.random() < 0.5:
                v, c = r.choice(self.hazard_atoms)
                return "%s%s = %s" % (lab, v, self.const(v, c))
            return lab + self.assign(prefix, 0).split(": ")[-1]
        roles = [x for x in self.my_roles if x[1] == kind]
        role = r.choice(roles)
        self.used_roles.add(role)
        if kind == "send":
            return lab + self.send_op(role[0])
        return lab + self.recv_op(role[0], const_p=0.3)[0]

    def atomic_stmt(self, prefix):
        """An atomic sequence (ORACLE_GEN_ATOMIC): its statements' kinds, drawn
        from the shapes of BEEM's brp.1 and friends; an assignment or assert
        right after a guard, receive or assignment is merged by SPIN into that
        move (so it carries no label: it is no location of its own).  One right
        after a send keeps its chance of a label: unlabelled, SPIN merges it
        into the send's move in a model without rendezvous channels
        (promela.merge_chains), labelled it stays a move of its own."""
        r = self.rng
        kinds = ["send", "recv"]
        have = {k for _, k in self.my_roles}
        shapes = [["guard", "send"], ["recv", "assign"], ["assign", "guard", "assign"],
                  ["guard", "send", "assign"], ["recv", "send"], ["assign", "send"],
                  ["recv", "guard", "assign"], ["guard", "recv"], ["send", "guard"]]
        shapes = [sh for sh in shapes if all(k not in kinds or k in have for k in sh)]
        shape = r.choice(shapes)
        parts = []
        for n, k in enumerate(shape):
            merged = k == "assign" and n > 0 and shape[n - 1] != "send"
            label_p = 0 if merged else (0.55 if n == 0 else 0.35)
            parts.append(self.atomic_part(prefix, k, label_p))
        if self.kind == "assert" and r.random() < 0.25:
            parts.append("assert(!(%s))" % self.hazard)
        lab = ""
        if parts[0].split("(")[0].count(": "):
            # the first statement's label goes on the atomic (the same location)
            lab, parts[0] = parts[0].split(": ", 1)
            lab += ": "
        return ["%satomic { %s }" % (lab, "; ".join(parts))]

    def chan_option(self, prefix):
        """A channel operation as the guard of an if/do option (unlabelled:
        a label there is not in the subset; no else beside it: SPIN rejects
        "dubious use of 'else' combined with i/o")."""
        r = self.rng
        role = r.choice(self.my_roles)
        self.used_roles.add(role)
        name, role = role
        if role == "send":
            return self.send_op(name)
        return self.recv_op(name, const_p=0.5)[0]

    def option_body(self, prefix, depth):
        r = self.rng
        body = []
        for _ in range(r.randint(1, 2)):
            if depth < 1 and r.random() < 0.15:
                body += self.compound(prefix, depth + 1)
            else:
                body += self.simple(prefix)
        body = self.no_jump_into_dstep(prefix, body)
        if UNLESS and r.random() < 0.2:
            # the option's body after its guard, under an escape
            body = self.unless_stmt(prefix, body)
        return body

    @staticmethod
    def is_compound(st):
        return st.split("\n")[0].split(": ")[-1] in ("if", "do", "{")

    def no_jump_into_dstep(self, prefix, seq):
        """SPIN rejects a jump into a d_step ("jump into d_step sequence"):
        the end of an if/do jumps to the next statement, so no d_step there."""
        for i in range(1, len(seq)):
            if "d_step" in seq[i] and self.is_compound(seq[i - 1]):
                seq[i] = self.assign(prefix)
        return seq

    @staticmethod
    def starts_with_do(st):
        """Whether statement st (text) starts with a do loop, inside blocks."""
        for line in st.splitlines():
            line = re.sub(r"^([A-Za-z_]\w*): ", "", line.strip())
            if line != "{":
                return line == "do"
        return False

    def unless_stmt(self, prefix, body):
        """ORACLE_GEN_UNLESS: ``{ body } unless { escape }`` as one statement.
        The escape is headed by a guard on a global (SPIN allows no label
        there), then an assignment (often labelled: an event after the
        escape's silent first move), sometimes a second one, or nothing."""
        r = self.rng
        body = list(body)
        lab = ""
        m = re.match(r"([A-Za-z_]\w*): ", body[0])
        if m:
            # "label placed incorrectly" inside the block: it goes before it
            lab = m.group(0)
            body[0] = body[0][len(lab):]
            if self.starts_with_do(body[0]):
                # SPIN gives `L: { do ... od }` an entry state of its own that
                # the loop does not come back to (only the first round is L):
                # not modelled, so the label goes
                lab = ""
        g = r.choice(sorted(self.vars))
        if self.lvars and r.random() < 0.25:
            # (ORACLE_GEN_LOCALS) an escape the process itself enables: a
            # guard on one of its locals, which SPIN's reduction calls safe
            g = r.choice(sorted(self.lvars))
        esc = ["(%s)" % self.atom(g)]
        x = r.random()
        if x < 0.8:
            if r.random() < 0.5:
                v, c = r.choice(self.hazard_atoms)
                esc.append(self.assign(prefix, 0.6, v, c))
            else:
                esc.append(self.assign(prefix, 0.6))
            if x < 0.25:
                esc.append(self.assign(prefix, 0.4))
        lines = [lab + "{"]
        for n, st in enumerate(body):
            sl = st.splitlines()
            if n + 1 < len(body):
                sl[-1] += ";"
            lines.extend("  " + l for l in sl)
        lines.append("} unless {")
        lines.append("  " + " -> ".join([esc[0], "; ".join(esc[1:])]) if esc[1:] else "  " + esc[0])
        lines.append("}")
        return ["\n".join(lines)]

    def ifstmt(self, prefix, depth):
        r = self.rng
        lab = self.label(prefix) + ": " if r.random() < 0.15 else ""
        opts = []
        n = r.randint(2, 3)
        io = False
        for i in range(n):
            if CHAN and self.my_roles and r.random() < 0.35:
                guard = self.chan_option(prefix)
                io = True
            elif i == n - 1 and r.random() < 0.35 and not io:
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
            if CHAN and self.my_roles and r.random() < 0.5:
                # a loop that keeps sending or receiving
                g = self.chan_option(prefix)
                opts.append((g, [self.assign(prefix, p_label=0.5)]))
                continue
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

    def proc(self, name, prefix, pid=0):
        r = self.rng
        stmts = []
        self.lvars = {}
        self.pid = pid
        if CHAN:
            self.my_roles = self.roles[pid]
            self.used_roles = set()
            self.mvars = {}
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
        if CHAN:
            # and that the process plays each of its roles on the channels
            for role in self.my_roles:
                if role not in self.used_roles:
                    k = r.randint(0, len(stmts))
                    stmts[k:k] = self.chan_stmt(prefix, role)
        stmts = self.no_jump_into_dstep(prefix, stmts)
        if UNLESS and r.random() < 0.65:
            # a run of the body's statements under an escape, maybe nested
            i = r.randint(0, len(stmts) - 1)
            j = r.randint(i + 1, len(stmts))
            body = stmts[i:j]
            if len(body) >= 2 and r.random() < 0.35:
                k = r.randint(0, len(body) - 1)
                l = r.randint(k + 1, len(body))
                body[k:l] = self.unless_stmt(prefix, body[k:l])
                body = self.no_jump_into_dstep(prefix, body)
            stmts[i:j] = self.unless_stmt(prefix, body)
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
        if XRXS:
            for ch, role in sorted(set(self.my_roles)):
                kw = "xs" if role == "send" else "xr"
                if kw in self.xrxs.get(ch, ()):
                    lines.append("  %s %s;" % (kw, ch))
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
        if CHAN:
            # the variables its receives write
            for v, t in sorted(self.mvars.items()):
                lines.append("  %s %s;" % (t, v))
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
        if NESTED:
            self.kind = "ltl"  # every model gets a nested formula
        self.make_vars()
        nprocs = self.make_chans() if CHAN else None
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
        if CHAN and any(c[1] > 0 for c in self.chans) and r.random() < 0.2 and not XRXS:
            name, cap, _ = r.choice([c for c in self.chans if c[1] > 0])
            self.hazard = "(%s) && len(%s) == %d" % (self.hazard, name, r.randint(1, cap))
        if NESTED and self.kind == "ltl":
            self.nested_hazard()
        procs = []
        if nprocs is None:
            nprocs = 3 if BIG else r.randint(2, 3)
        for i, (name, prefix) in enumerate([("P", "P"), ("Q", "Q"), ("R", "R")][:nprocs]):
            procs.append(self.proc(name, prefix, i))
        if self.kind == "assert" and "assert" not in "".join(procs):
            procs.append("active proctype M() {\n  end_m: (%s) -> assert(false)\n}" % self.hazard)
        decl = []
        for name, cap, fields in self.chans:
            decl.append("chan %s = [%d] of { %s };" % (name, cap, ", ".join(fields)))
        local = set()
        if LOCALS2:
            # SPIN's `local` tag on some globals (at least one)
            local = {v for v in self.vars if r.random() < 0.5} or {r.choice(sorted(self.vars))}
        for v, t in self.vars.items():
            t = ("local " + t) if v in local else t
            if r.random() < 0.15:
                decl.append("%s %s = %s;" % (t, v, self.const(v, r.choice(self.dom(v)[1:]))))
            else:
                decl.append("%s %s;" % (t, v))
        for c in self.counters:
            if c not in self.local_counters:
                decl.append("byte %s;" % c)
        text = "/* generated by gen.py: hazard kind %s */\n" % self.kind
        text += "\n".join(decl) + "\n\n" + "\n\n".join(procs) + "\n"
        if self.kind == "ltl" and NESTED:
            text += "\nltl h { %s }\n" % self.formula
        elif self.kind == "ltl":
            text += "\nltl h { [] !(%s) }\n" % self.hazard
        return text

    def nested_hazard(self):
        """ORACLE_GEN_NESTED: the formula, over the hazard drawn as for the
        invariant (it becomes q) and a trigger p (and for the second shape a
        release r), one atom each on a global, mostly of a non-zero value so
        that it has to be set first; their atoms join the ingredients the
        processes set."""
        r = self.rng
        q = self.hazard
        # p on a variable q does not read, when there is one (else p -> [] !q
        # is often the invariant [] !(p && q) in disguise)
        free = [x for x in self.vars if x not in {a for a, _ in self.hazard_atoms}]
        v = r.choice(free or list(self.vars))
        c = r.choice([x for x in self.dom(v) if x != 0]) if r.random() < 0.85 else 0
        p = self.atom(v, c, False)
        self.hazard_atoms.append((v, c))
        # r neither on p's variable nor on q's (else the second shape is
        # degenerate: !(b) U (b) holds at once)
        qv = {a for a, _ in self.hazard_atoms[:-1]}
        ws = [x for x in self.vars if x != v and x not in qv]
        if r.random() < 0.35 or not ws:
            self.formula = "[] ((%s) -> [] !(%s))" % (p, q)
            return
        w = r.choice(ws)
        c = r.choice([x for x in self.dom(w) if x != 0])
        rel = self.atom(w, c, False)
        if r.random() < 0.6:
            self.hazard_atoms.append((w, c))
        self.formula = "[] ((%s) -> ((!(%s) U (%s)) || [] !(%s)))" % (p, q, rel, q)


def spin_a(text):
    """spin -a on text in a scratch directory: (its completed process, pan.m's
    text or None, whether pan.c was written)."""
    tmp = tempfile.mkdtemp(prefix="oracle-gen-")
    try:
        with open(os.path.join(tmp, "model.pml"), "w") as f:
            f.write(text)
        p = subprocess.run(["spin", "-a", "model.pml"], cwd=tmp, capture_output=True,
                           text=True, timeout=60)
        pan_m = None
        if os.path.exists(os.path.join(tmp, "pan.m")):
            with open(os.path.join(tmp, "pan.m")) as f:
                pan_m = f.read()
        return p, pan_m, os.path.exists(os.path.join(tmp, "pan.c"))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def spin_accepts(text):
    """Whether spin -a writes pan.c without an error message (SPIN prints
    some errors, e.g. a label it cannot place in an unless, and exits 1;
    others and still writes pan.c)."""
    p, _, pan_c = spin_a(text)
    return p.returncode == 0 and "rror" not in p.stdout + p.stderr and pan_c


def local_merges(text, model):
    """ORACLE_GEN_LOCALS2: whether SPIN's pan.m merges, outside what
    promela.merge_chains models (atomic sequences), a statement that names a
    global declared ``local``.  SPIN believes the tag there too: it merges
    `(!c); assert(a != 1)` with a, c `local` into one move, although another
    process writes a, which removes interleavings the oracle keeps (and a
    `do :: true -> b = 2 ...` becomes a self-loop pan refuses to run).  Such
    candidates are dropped: found/local_merge.pml (README "local globals")."""
    local = set(re.findall(r"^local \w+ (\w+)", text, re.M))
    if not local:
        return False
    _, pan_m, _ = spin_a(text)
    if pan_m is None:
        return True
    mine = {(p.name, line) for p in model.procs for line in p.line_chains}
    for name, line, body in pan_m_moves(pan_m):
        if (name, line) in mine:
            continue
        for t in PAN_M_MERGE.findall(body):
            if set(re.findall(r"[A-Za-z_]\w*", t)) & local:
                return True
    return False


def merges_predicted(text, model):
    """ORACLE_GEN_ATOMIC: whether SPIN accepts the model and its pan.m merges
    exactly what promela.merge_chains predicts: on each line of an atomic
    sequence the same moves taking the same numbers of statements along (the
    order of pan.m's cases may differ), and no merge on any other line; merged
    jumps (the end of an if/do option after a chain) do not count
    (promela.pan_m_chains)."""
    p, pan_m, _ = spin_a(text)
    if p.returncode != 0 or "rror" in p.stdout + p.stderr or pan_m is None:
        return False
    chains = pan_m_chains(pan_m)
    mine = {(p.name, line): ks for p in model.procs for line, ks in p.line_chains.items()}
    return chains_agree(chains, mine)


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
        if ATOMIC and not m.atomic:
            continue
        # keep only a quarter of the models whose hazard is unreachable or
        # reachable without any event (no cause at all): they test little
        mins = Oracle(m).minimal_bad_vectors()
        if (not mins or mins == [(0,) * len(m.events)]) and rng.random() < 0.75:
            continue
        if ATOMIC and not merges_predicted(text, m):
            continue
        if (UNLESS or XRXS or LOCALS2) and not ATOMIC and not spin_accepts(text):
            continue
        if UNLESS and not any(p.escapes for p in m.procs):
            continue
        if LOCALS2 and local_merges(text, m):
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
