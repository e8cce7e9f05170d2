#!/usr/bin/env python3
"""Independent reference for the Δ-slice of `pancause nearest` (README: "The Δ-slice.").

    slice_ref.py MODEL.pml TRAIL --check CJSON [--verbose]

reference.py checks the distance and that pancause's b is a nearest successful
run.  b is not unique, so its slice can only be checked relative to the b and
the alignment pancause chose: this file takes both from pancause's JSON (CJSON:
"alignment", "good_trail", "b".lasso) as given, follows a and b with the
interpreter (interp.py, through reference.py's replay and follow), recomputes
the Δs and the slice from the README's text (not from the C), and compares:
the same Δs (kind, steps, variable, values, line), the same Δs in the slice,
the same slice_lines and slice_via.  Exit 1 on a mismatch, saying what differs.
batch.py runs it on each model once reference.py's check has passed.

How: the alignment is walked forward as rows (between two pairs a's skipped
steps, then b's inserted ones, then the pair); the Δs are a changed action per
pair whose transitions differ, a deleted (inserted) step per unpaired step of a
(b), a value Δ per variable and maximal run of consecutive pairs where it has
the same two different values in the states before the steps, and a value
"when a ends" (a's last state against b's when a ends) for each variable a seed
reads there.  The slice is everything the seeds depend on (Slicer.seeds,
Slicer.deps: one comment per rule), walked to a fixed point.  A step writes
the variables whose value it changes (a send its channel, a receive its channel
and its variable); a statement reads the identifiers of its text, resolved in
its process's scope (its locals, then the globals and channels) and kept by
SPIN: `len(q)` reads q, and R10 says what a send and a receive read.  Values
are compared as pancause's JSON writes them (show): a channel's messages each
in brackets (`[2] [1]`, `empty`), a dead process's local `absent`.  An atomic
sequence's statements are steps like any other (README: one step per statement,
as pan moves), and a rendezvous is two: the send writes the channel (pan keeps
the message there until the receive), the receive empties it and writes its
variable.

Readings where the README leaves a choice, or says less than pancause does;
each agreed with pancause on all 569 generated models with an answer of gen.py
seeds 1-700, and the seed in brackets is one that rules out the other reading:
 R1  "Wrote" is "changed the value": `y = y`, or `x = 0` when x is 0, writes
     nothing (13).
 R2  An assignment does not read its target (405); a d_step reads every
     identifier of its statements, the assigned ones included ("a d_step from its
     source lines", 360).
 R3  A decision is an option of an if/do (a transition from a location with
     several) or a condition statement; a d_step is none, even one opening with a
     condition (80).
 R4  A value Δ ends where either value changes ("value of x: 0 in a, 1 in b",
     125).
 R5  "Its process's last changed action" (of an unpaired step, 658) and "its
     process's earlier divergence" (of a changed action, 373) count only while the
     process has taken no aligned step since.
 R6  A decision taken alike also depends on the value Δs of its reads at its
     pair (69).
 R7  A never claim gets the seeds of an invalid end state too (b's next step of
     each process after a's end, 3; the last Δ of each process standing elsewhere,
     210) besides the values when a ends of the claim's variables; and for both,
     every step of a after the last pair (b leaves it out) is a seed (178, 230, 70).
 R8  An invalid end state also seeds the values when a ends of what b's next
     steps read (1) and of what a waiting process's statements read there (70,
     360), every option of a waiting if/do included (308; until 2026-11-26 the C
     read those only where SPIN declared them at the state itself, not behind its
     IF/DO pseudo-transitions: 36, 116).
 R9  The text fallback ("a pair whose text names none of the changed variables
     seeds every difference there") applies to a's violating assert.
 Channels (NEAREST_GEN_RICH models, 2026-11-26; each model named is a few lines
 quoted here, written by hand to tell the two readings apart):
 R10 A send `q!e` reads q and e (its text; without q: s.pml, `q!1; q!2; x = 1`
     against `assert(x == 0)`, pancause's slice has the first send); a receive
     `q?v` reads q, not v (r.pml: `y = 3` before `q?y` is not in the slice).
 R11 A send or receive is a decision (README: a statement that may block) also
     when it is reached as the write of a value a decision taken alike read: it
     then goes on as a decision taken alike, to the writes of what it reads,
     where the README's "a write reached so goes no further" would stop (h.pml,
     `y = 1; q!y; (len(q) > 0); x = 1`: pancause's slice has `y = 1`; rich seed
     17).  The README says nothing of writes that are decisions; this follows
     pancause.  Since merged moves (R13) it is both: as the write, the value Δs
     of what every statement of its move reads; as the decision, the writes of
     what its first statement reads (m5.pml below).
 R12 A value Δ's line is that of the step that wrote the variable at its
     origin: b's where the origin is a changed action whose b step alone writes
     it (an option opening with `q!e` against one opening with a guard: RICH2
     models, 2026-11-27; before them no option opened with a write).  pancause
     gave the a step's line there, a statement that does not touch the variable
     (`if :: (x == 0) :: q!1 fi; x = 1; assert(len(q) == 1)`: the value Δ of q
     on `(x == 0)`'s line; RICH2 seeds 99, 138, 180, 211, 283, 309, 328, 378,
     408), until the commit "nearest: a value Δ born at a changed action shows
     the line of the side that wrote it" (2026-11-27); a mismatch of that shape
     is still named "R12" in the message.  Since session 18 (2026-11-27,
     README "Merged statements", *Which of them a Δ names*): within that move,
     the line of the statement that wrote the variable, the LAST of its
     statements, first or merged, whose text writes the variable's declared
     name (an assignment's target; a receive's channel and the variables it
     stores into; a send's channel: gen.py's subset has no arrays, fields,
     polls or `q?<x>`); where no text does (a d_step, a process's -end- that
     makes its locals absent), the move's first statement's line, and the Δ
     then stands for all the move's lines (R14).  The text decides, not the
     value (R1 decides only which move wrote it): MERGE seed 80013's x is
     written by the move `x = x % 3; y = y % 3; x = x; x = y` (lines 25-28),
     and its value Δ names line 28, not 25.  Hand model m6.pml (hand/, as m7
     and m8): `if :: z = 1 :: z = 0 fi; atomic { (y == 0); x = 1; x = z;
     x = x; y = 1 }; assert(x == 0)`: x's value Δ names `x = x`, not
     `(y == 0)` (before session 18), `x = 1` (the first text that writes x)
     nor `x = z` (the last statement that changed x's value).  A mismatch
     where pancause names the move's first line says "R12 before session 18".
 Merged moves (NEAREST_GEN_MERGE models; README "Merged statements", session 17,
 2026-11-27; a step's move is its first statement and the assignments and
 asserts SPIN merged after it inside an atomic sequence, interp.py's tails):
 R13 What a move reads splits in two.  Its first statement's reads are what a
     changed action and a decision taken alike depend on (R6 and the writes in
     a of what it read), and what the seeds of an invalid end state read in b's
     next step and in a waiting process's statements (the first statement
     decides whether the move runs: README).  Every statement's reads, the
     merged ones included, are what a value written at an aligned pair with the
     same action depends on (its origin's value Δs at that pair, of both moves'
     statements), what a write reached from a decision taken alike goes on to,
     and what a's violating step seeds (an assert merged into its move).  A
     receive reached as such a write (R11) goes on as a decision too, by its
     first statement's reads (m5.pml).  The README does not say which reads b's next step's
     and a waiting process's seeds take; the first statement's is this file's
     reading (those seeds say why the process could move, or not).  Hand
     models, each statement of the atomic sequence on a line of its own:
     m2.pml, `if :: z = 1 :: z = 0 fi; atomic { (y == 0); x = z; y = 1 };
     assert(x == 0)`: pancause's slice has z's choice and z's value Δ, reached
     from x's value Δ through the merged `x = z` (the first statement's reads
     alone reach neither); m3.pml, `if :: z = 1; w = 1 :: z = 0 fi; atomic {
     (w == 0); y = z; y = 0 }` under --run-to-end (an invalid end state, b's
     next step the atomic move): pancause makes a value when a ends of w only,
     none of z, which only the merged `y = z` reads; m4.pml, `if :: u = 1 ::
     u = 0 fi; atomic { (t == 0); v = u / 2 + 1; t = 0 }; (v == 1); (u == 0);
     x = 1` beside `(x == 1)` under --run-to-end: the decision `(v == 1)`,
     taken alike, reaches the atomic move as v's write, and from it u's value
     Δ at that pair, which only the merged `v = u / 2 + 1` reads; m5.pml, the
     same with `q!1; atomic { q?v; t = u + 1 }` for the atomic move and
     `(x == 1); (t < 9)` beside it: the receive, reached as v's write, goes on
     as a decision (R11) and also to u's value Δ at its pair, which only its
     merged statement reads (this file first read R11 as the decision alone,
     the first statement's reads: pancause's slice had u's Δ, the reference's
     not).
 R14 A step's lines are its first statement's (pancause's JSON `line`) and its
     merged statements' lines.  Since session 18 (2026-11-27) slice_lines
     holds, for each Δ in the slice: a value Δ's writer statement's line
     (R12), all its move's lines where no text names the writer; a changed
     action's two steps and a deleted or inserted step, every line of the
     move (the runs took other moves there, each whole); steps taken alike
     add the lines of their roles (R16).  Until then every line of each Δ's
     step and of each step taken alike, and a Δ's `line` its step's first
     line (m2.pml: x's value Δ named `(y == 0)`'s line and slice_lines had
     `x = z` and `y = 1` too; now `x = z`'s line alone, from that Δ).
     m6.pml's slice_lines: both options' lines (the changed action), `x = x`
     (x's Δ) and nothing else of the atomic move (before: all five lines).
 R15 (not the slice: B of session 17) each step's `merged` list in the JSON is
     its move's tail, in order: the same lines, and texts equal up to blanks and
     parentheses (SPIN prints `x = (y%3)`); absent, not empty, where the move
     merges nothing.  Also on a's violating step whose move stops at a merged
     assert: the list is the move's statements, as pan.m lists them, not only
     those run before the violation (m1.pml, `atomic { (y == 0); x = z + 1;
     assert(x < 2); y = 3 }` after another process's `z = 1`: pancause lists
     all three, `y = 3` too, as `spin -t -p` prints it after the failed assert).
 Roles of steps taken alike (README "Merged statements", session 18,
 2026-11-27):
 R16 A step taken alike adds to slice_lines the lines of the roles in which a
     chain reaches it, its dependences unchanged (R11, R13): reached as the
     decision an unaligned step in the slice waited for (its control), its
     first statement's line; reached as the write, in a, of a variable v that
     a decision taken alike in the slice read (a send or receive reached so
     is such a decision too, R11), v's writer statement's line (R12), and its
     first statement's line too when that statement is a decision (R3: an
     option, a condition, a send, a receive; a guard whose move wrote v), and
     every line of the move where no text names v's writer (a d_step).  A
     step reached in several roles, or as the write of several variables,
     adds the union; slice_via counts it once.  "When that statement is
     itself a decision" is read as the first statement (README: "a guard
     whose move wrote the value"), not the writer: for a send or receive that
     wrote v itself the two coincide.  Hand models: m7.pml, `atomic { (t ==
     0); w = 5; v = 1; t = 2 }` in P, `atomic { (v == 1); y = 3 }; end: x = 1`
     in Q, `(y == 3); assert(x == 0)` in R: b deletes Q's `x = 1`, whose
     control is Q's atomic move (lines: `(v == 1)` alone, not `y = 3`), and
     that guard's read of v reaches P's atomic move as v's write (lines:
     `v = 1` and its guard `(t == 0)`, not `w = 5` nor `t = 2`); m8.pml, the
     same with P's move `atomic { w = 5; v = 1; w = 6 }`, whose first
     statement is no decision: `v = 1`'s line alone.  Before session 18 both
     steps added every line of their moves.
 Nested safety formulas (NEAREST_GEN_NESTED, 2026-11-28):
 R17 What "the claim's violating move reads" is for a claim that guesses: the
     identifiers of the guard of the claim statement that violates at a's end,
     in SPIN's claim text (`spin -f '!(...)'`): from its start state `(p) &&
     (q)` (for unless `!(r) && (p) && (q)`), from the state it watches from once
     it guessed p `(q)` (for unless `!(r) && (q)`), which it is in where the
     monitor was set before a's last state; and for unless, where a passed an
     earlier violation, from accept_S2 / T0_S2 `(q)`.  The README: the combined
     graph's move names one member's, not which, when several violate; each
     reading that applies is tried and the first that agrees taken
     (nested_claim_reads).
 Hand models m6-m8 are in hand/ (`batch.py 0 --files hand/*.pml`; m6 and m8
 run there with pancause's default weights, m7 with random ones; all three
 were also run by hand with the default weights, and each fails the reading
 before session 18).

Written before the C agreed: its first runs found four defects in pancause's
slice, fixed on 2026-11-26 (README "The Δ-slice"): a never claim's violating move
after a's last step made the values at a's end one step old; the origin of a value
at a's end was taken from b's steps after it; a condemned state under a claim took
every differing global as read; a waiting if/do's guards were read only where SPIN
declared them at the state itself.  No difference is tolerated now.
"""

import json
import sys

from interp import VIOL, Step, eval_expr, expr_vars
from reference import NoFit, PromelaError, follow, load, read_trail, replay

class Run:
    """One run as the interpreter followed it: steps, the states before them and
    its last state (None when its last step violates)."""

    def __init__(self, steps, states, final):
        self.steps, self.states, self.final = steps, states, final

    def __len__(self):
        return len(self.steps)

    def before(self, k):
        return self.states[k] if k < len(self.steps) else self.final

    def after(self, k):
        return self.before(k + 1)


class Slicer:
    """The Δs and the slice of a against b under one alignment (pairs of 0-based
    step indices).  kind: 'assert' (a's last step violates), 'claim' (the never
    claim, after a's last state), 'invalid-end'."""

    def __init__(self, model, a, b, pairs, lines_a, lines_b, kind, claim_vars=None):
        self.m, self.a, self.b, self.pairs = model, a, b, pairs
        self.lines_a, self.lines_b = lines_a, lines_b
        self.kind = kind
        # what the never claim's violating move reads (R17): the invariant's
        # identifiers, or for a nested formula those of one violating branch's guard
        if claim_vars is None:
            claim_vars = expr_vars(model.ltl) if model.ltl is not None else set()
        self.claim_vars = claim_vars
        self.kept = [model.vars[i] for i in model.kept]
        self.idx = {v: i for i, v in enumerate(model.vars)}
        self._rows()
        self.locs_end = self.a_end_state[0]
        self._deltas()

    # ------------------------------------------------------------ steps
    def trans(self, x):
        return None if x.k == "die" else self.m.procs[x.pid].trans[x.loc][x.k]

    def tail(self, x):
        """The statements SPIN merged into step x's move, in order (merge_chains:
        assignments and asserts after the first statement inside an atomic
        sequence); [] for a move that merges nothing."""
        if x.k == "die":
            return []
        return self.m.procs[x.pid].tails.get((x.loc, x.k), [])

    def reads(self, x, merged=False):
        """The kept variables a step's first statement reads (R2), identifiers
        resolved in its process's scope (its locals, then the globals and
        channels); with merged, what all the statements of its move read, its
        merged ones too (R13: an assignment's right-hand side, an assert's
        condition)."""
        t = self.trans(x)
        if t is None:
            return set()
        js = set(self.m.trans_reads(x.pid, t[0], t[1], True))
        if merged:
            for st in self.tail(x):
                js |= self.m.resolve(x.pid, expr_vars(st["e"]))
        return {self.m.vars[j] for j in js} & set(self.kept)

    def step_lines(self, in_a, k):
        """A step's lines (R14): its first statement's line (pancause's, as the
        JSON names it) and its merged statements' lines."""
        run, lines = (self.a, self.lines_a) if in_a else (self.b, self.lines_b)
        return [lines[k]] + [st["line"] for st in self.tail(run.steps[k])]

    def text_writes(self, pid, kind, pay, v):
        """Whether a statement's text writes variable v (R12, session 18): an
        assignment its target, a receive the fields it stores into and its
        channel (every receive of gen.py's subset removes its message: no poll
        `q?[x]`, no `q?<x>`), a send its channel; names resolved in process
        pid's scope (v is the variable as pancause names it: `P0(0):x` for a
        local x).  A condition, an else, an assert write nothing; a d_step
        (its text names no writer: README) is handled by writer_line."""
        j = self.idx[v]
        names = set()
        if kind == "assign":
            names = {pay[0]}
        elif kind == "send":
            names = {pay[0]}
        elif kind == "recv":
            names = {pay[0]} | {a[1] for a in pay[1] if a[0] == "var"}
        return j in self.m.resolve(pid, names)

    def writer_line(self, in_a, k, v):
        """(line, named): the line of the statement of step k's move (of a, or
        of b) that wrote v, the last of its statements, first or merged, whose
        text writes v (R12, session 18), named True; where no text says so (a
        d_step, a process's -end- making its locals absent), the move's first
        statement's line, named False: the Δ then stands for all the move's
        lines (R14)."""
        run, lines = (self.a, self.lines_a) if in_a else (self.b, self.lines_b)
        x = run.steps[k]
        t = self.trans(x)
        if t is None or t[0] == "dstep":
            return lines[k], False
        found = lines[k] if self.text_writes(x.pid, t[0], t[1], v) else None
        for st in self.tail(x):
            if st["k"] == "assign" and self.text_writes(x.pid, "assign", (st["v"],), v):
                found = st["line"]
        return (lines[k], False) if found is None else (found, True)

    def writer_lines(self, in_a, k, v):
        """The lines a value Δ written by step k adds to slice_lines (R14): its
        writer statement's line, every line of the move where no text names
        the writer."""
        line, named = self.writer_line(in_a, k, v)
        return [line] if named else self.step_lines(in_a, k)

    def decision(self, x):
        """An option, or a statement that may block (R3)."""
        t = self.trans(x)
        if t is None:
            return False
        return len(self.m.procs[x.pid].trans[x.loc]) > 1 or \
            t[0] in ("expr", "else", "send", "recv")

    def val(self, s, v):
        return s[1][self.idx[v]]

    def differ(self, s, t):
        return {v for v in self.kept if self.val(s, v) != self.val(t, v)}

    def writes(self, run, k):
        """The variables step k of run writes: those whose value it changes (R1)."""
        s, t = run.before(k), run.after(k)
        return set() if t is None or t == VIOL else self.differ(s, t)

    # ------------------------------------------------------------ rows
    def _rows(self):
        rows, pi, pj = [], 0, 0
        for i, j in self.pairs + [(len(self.a), len(self.b))]:
            rows += [("del", k, None) for k in range(pi, i)]
            rows += [("ins", None, k) for k in range(pj, j)]
            if i < len(self.a):
                rows.append(("pair", i, j))
            pi, pj = i + 1, j + 1
        self.rows = rows
        self.row_of_a = {r[1]: n for n, r in enumerate(rows) if r[1] is not None}
        self.row_of_b = {r[2]: n for n, r in enumerate(rows) if r[2] is not None}
        na = len(self.a)
        self.a_end = self.row_of_a[na - 1] if na else -1  # the row of a's last step
        self.jb_end = sum(1 for r in rows[:self.a_end + 1] if r[2] is not None)
        self.b_at_end = self.b.before(self.jb_end)  # b's state when a ends
        # a's state when it ends: its last state (before its last step, an assert)
        self.a_end_state = self.a.final if self.a.final is not None else \
            (self.a.states[-1] if na else self.m.init)

    def pid(self, n):
        _, i, j = self.rows[n]
        return self.a.steps[i].pid if i is not None else self.b.steps[j].pid

    def changed_action(self, n):
        kind, i, j = self.rows[n]
        return kind == "pair" and self.a.steps[i].k != self.b.steps[j].k

    def row_writes(self, n):
        _, i, j = self.rows[n]
        return (self.writes(self.a, i) if i is not None else set()) | \
            (self.writes(self.b, j) if j is not None else set())

    # ------------------------------------------------------------ Δs
    def _deltas(self):
        ds, self.row_delta, self.value_at, self.end_values = [], {}, {}, {}
        running = {}  # variable -> its value Δ at the previous pair
        for n, (kind, i, j) in enumerate(self.rows):
            if kind != "pair":
                self.row_delta[n] = len(ds)
                x = self.a.steps[i] if kind == "del" else self.b.steps[j]
                ds.append({"kind": "deleted" if kind == "del" else "inserted",
                           "step_a": None if i is None else i + 1,
                           "step_b": None if j is None else j + 1, "variable": None,
                           "row": n, "pid": x.pid})
                continue
            sa, sb = self.a.before(i), self.b.before(j)
            now = {}
            for v in sorted(self.differ(sa, sb), key=self.idx.get):
                d = running.get(v)
                if d is not None and (ds[d]["value_a"], ds[d]["value_b"]) == \
                        (self.val(sa, v), self.val(sb, v)):
                    ds[d]["steps"] += 1  # the same two values go on (R4)
                else:
                    d = len(ds)
                    ds.append({"kind": "value", "step_a": i + 1, "step_b": j + 1,
                               "variable": v, "steps": 1, "before": n,
                               "value_a": self.val(sa, v), "value_b": self.val(sb, v)})
                now[v] = self.value_at[(n, v)] = d
            running = now
            if self.changed_action(n):
                self.row_delta[n] = len(ds)
                ds.append({"kind": "action", "step_a": i + 1, "step_b": j + 1,
                           "variable": None, "row": n, "pid": self.a.steps[i].pid})
        self.deltas = ds

    def end_delta(self, v):
        """The value of v when a ends, a Δ created when something reads it there."""
        if v not in self.end_values:
            self.end_values[v] = len(self.deltas)
            self.deltas.append({
                "kind": "value", "step_a": len(self.a) or None, "step_b": self.jb_end or None,
                "variable": v, "steps": 0, "end": True,
                "before": self.a_end + 1,
                "value_a": self.val(self.a_end_state, v), "value_b": self.val(self.b_at_end, v)})
        return ("d", self.end_values[v])

    def step_of(self, d):
        """The step whose line a Δ names, (in a?, 0-based index): its own (a's of
        a changed action); a value Δ's origin's, a's step where it wrote the
        variable, else b's (R12); None for a value Δ without an origin."""
        if d["kind"] == "inserted":
            return False, d["step_b"] - 1
        if d["kind"] != "value":
            return True, d["step_a"] - 1
        o = self.origin(d["variable"], d["before"])
        if o is None:
            return None
        _, i, j = self.rows[o]
        if i is not None and d["variable"] in self.writes(self.a, i):
            return True, i
        return False, j

    def line_of(self, d):
        """A Δ's line (R12): a value Δ's, its writer statement's in its origin's
        move (the move's first statement's where no text names the writer); any
        other Δ's, its step's first statement's (a's of a changed action)."""
        st = self.step_of(d)
        if st is None:
            return None
        if d["kind"] == "value":
            return self.writer_line(st[0], st[1], d["variable"])[0]
        return (self.lines_a if st[0] else self.lines_b)[st[1]]

    def line_of_first(self, d):
        """The reading before session 18: a value Δ names its origin's move's first
        line, also where a merged statement wrote the variable; None where the
        two readings agree."""
        st = self.step_of(d)
        if st is None or d["kind"] != "value":
            return None
        line = (self.lines_a if st[0] else self.lines_b)[st[1]]
        return None if line == self.line_of(d) else line

    def line_of_pair_a(self, d):
        """R12's other reading: a value Δ whose origin is a changed action takes
        the a step's line (the action's), even where b's step alone wrote the
        variable; None where the two readings agree."""
        if d["kind"] != "value":
            return None
        o = self.origin(d["variable"], d["before"])
        if o is None or not self.changed_action(o):
            return None
        line = self.lines_a[self.rows[o][1]]
        return None if line == self.line_of(d) else line

    # ------------------------------------------------------------ dependences
    def origin(self, v, before):
        """The last row before row `before` that writes v in either run."""
        for n in range(before - 1, -1, -1):
            if v in self.row_writes(n):
                return n
        return None

    def values_at(self, n, vs, fallback=False):
        """The value Δs at pair row n of the variables vs; with fallback, when vs
        names none of those that differ there, every value Δ there (R9)."""
        out = [("d", self.value_at[(n, v)]) for v in sorted(vs) if (n, v) in self.value_at]
        if not out and fallback:
            out = [("d", d) for (m, _), d in sorted(self.value_at.items()) if m == n]
        return out

    def as_node(self, n, step_kind):
        """Row n reached as a dependence: its Δ, or (a pair taken alike) a step."""
        return ("d", self.row_delta[n]) if n in self.row_delta else (step_kind, n)

    def last_changed_action(self, n, pid):
        """pid's last changed action before row n while pid took no aligned step
        since (R5)."""
        for k in range(n - 1, -1, -1):
            if self.pid(k) == pid:
                if self.changed_action(k):
                    return [("d", self.row_delta[k])]
                if self.rows[k][0] == "pair":
                    return []
        return []

    def last_delta(self, n, pid):
        """pid's last Δ (changed action, deleted or inserted step) before row n."""
        for k in range(n - 1, -1, -1):
            if k in self.row_delta and self.pid(k) == pid:
                return [("d", self.row_delta[k])]
        return []

    def last_decision(self, n, in_a, pid):
        """The row of pid's last decision before row n in run a (in_a) or b."""
        _, i, j = self.rows[n]
        run, k0, rows = (self.a, i, self.row_of_a) if in_a else (self.b, j, self.row_of_b)
        for k in range(k0 - 1, -1, -1):
            if run.steps[k].pid == pid and self.decision(run.steps[k]):
                return rows[k]
        return None

    def origin_node(self, n):
        """A value's origin row n: a deleted or inserted step or a changed action is
        that Δ; an aligned pair with the same action, the value Δs there of what
        any statement of the two moves reads, merged ones included (R13)."""
        if n in self.row_delta:
            return [("d", self.row_delta[n])]
        _, i, j = self.rows[n]
        return self.values_at(n, self.reads(self.a.steps[i], True) |
                              self.reads(self.b.steps[j], True))

    def deps(self, node):
        kind, x = node
        if kind == "d":
            d = self.deltas[x]
            if d["kind"] == "value":
                # a value Δ depends on the step that last wrote the variable in either run
                o = self.origin(d["variable"], d["before"])
                return [] if o is None else self.origin_node(o)
            n = d["row"]
            _, i, j = self.rows[n]
            out = self.last_changed_action(n, d["pid"])
            if d["kind"] == "action":
                # a changed action: the value Δs of what its two statements read, and
                # its process's earlier divergence
                return out + self.values_at(n, self.reads(self.a.steps[i]) |
                                            self.reads(self.b.steps[j]))
            # a deleted or inserted step: its process's last changed action and its
            # control, its process's last decision in the run it ran in
            k = self.last_decision(n, d["kind"] == "deleted", d["pid"])
            return out + ([] if k is None else [self.as_node(k, "dec")])
        # a step taken alike: ("dec", row) reached as an unaligned step's control,
        # ("wr", (row, variable)) as the write in a of a variable a decision taken
        # alike read (R16: the role decides its lines, not its dependences)
        x = x[0] if kind == "wr" else x
        i = self.rows[x][1]
        rd = self.reads(self.a.steps[i])
        # a write reached from a decision: the value Δs of its reads, every statement
        # of its move (R13: what it wrote depends on them)
        out = self.values_at(x, self.reads(self.a.steps[i], True)) if kind == "wr" else []
        if kind == "wr" and self.trans(self.a.steps[i])[0] not in ("send", "recv"):
            return out  # and no further
        # a decision taken alike, or a send or receive reached as a write, which is a
        # decision itself (it may block) and goes on as one too (R11): the writes in a
        # of the values its condition (its first statement, R13) read (as steps taken
        # alike unless Δs), and the value Δs of its reads there (R6)
        out += [nd for nd in self.values_at(x, rd) if nd not in out]
        for v in sorted(rd):
            for k in range(i - 1, -1, -1):
                if v in self.writes(self.a, k):
                    n = self.row_of_a[k]
                    out.append(("d", self.row_delta[n]) if n in self.row_delta else
                               ("wr", (n, v)))
                    break
        return out

    # ------------------------------------------------------------ seeds
    def seeds(self):
        out, end_vars = [], set()
        diff_end = self.differ(self.a_end_state, self.b_at_end)
        if self.kind == "assert":
            # a's violating step: its value Δs and changed action when b executes it
            # too, else its deletion
            n = self.a_end
            if self.rows[n][0] == "del":
                return [("d", self.row_delta[n])]
            # (what every statement of its move reads: an assert merged into it, R13)
            out = self.values_at(n, self.reads(self.a.steps[self.rows[n][1]], True), True)
            return out + ([("d", self.row_delta[n])] if n in self.row_delta else [])
        # a bad last state (R7): every step of a after the last pair
        for n in range(self.a_end, -1, -1):
            if self.rows[n][0] == "pair":
                break
            out.append(("d", self.row_delta[n]))
        if self.kind == "claim":
            # the never claim: the differing variables its violating move reads
            end_vars |= self.claim_vars & diff_end
        # b's next step of each process after a's end (and what it reads there, R8)
        seen = set()
        for n in range(self.a_end + 1, len(self.rows)):
            kind, _, j = self.rows[n]
            if kind == "ins" and self.b.steps[j].pid not in seen:
                seen.add(self.b.steps[j].pid)
                out.append(("d", self.row_delta[n]))
                end_vars |= self.reads(self.b.steps[j]) & diff_end
        # each process standing elsewhere at a's end than in b there: its last Δ
        for pid in range(len(self.m.procs)):
            if self.locs_end[pid] != self.b_at_end[0][pid]:
                out += self.last_delta(self.a_end + 1, pid)
        if self.kind == "invalid-end":
            # a process waiting at a's end: what the statements it waits on read, every
            # option of a waiting if/do included (R8)
            for pid, loc in enumerate(self.a_end_state[0]):
                trs = self.m.procs[pid].trans[loc] if loc >= 0 else []
                for k, tr in enumerate(trs):
                    end_vars |= self.reads(Step(pid, loc, k, tr[3], None, None)) & diff_end
        return out + [self.end_delta(v) for v in sorted(end_vars, key=self.idx.get)]

    def slice(self):
        """(indices of the Δs in the slice, rows of its steps taken alike, its lines);
        self.why maps each node to the node it was reached from."""
        todo, self.why = [(nd, "seed") for nd in self.seeds()], {}
        while todo:
            nd, parent = todo.pop()
            if nd not in self.why:
                self.why[nd] = parent
                todo += [(x, nd) for x in self.deps(nd)]
        dl = sorted(x for k, x in self.why if k == "d")
        steps = sorted({x[0] if k == "wr" else x for k, x in self.why if k != "d"})
        lines = set()
        # a step taken alike adds the lines of the roles in which a chain reaches it
        # (R16): as an unaligned step's control, its first statement's line; as the
        # write of v, v's writer statement's line, with the first statement's line
        # when that is a decision (R3: a guard, an option, a send, a receive), every
        # line of the move where no text names the writer
        for k, x in self.why:
            if k == "dec":
                lines.add(self.lines_a[self.rows[x][1]])
            elif k == "wr":
                n, v = x
                i = self.rows[n][1]
                line, named = self.writer_line(True, i, v)
                if not named:
                    lines.update(self.step_lines(True, i))
                    continue
                lines.add(line)
                if self.decision(self.a.steps[i]):
                    lines.add(self.lines_a[i])
        # each Δ (R14): a value Δ its writer statement's line (every line of the
        # move where no text names the writer); a changed action's two steps and a
        # deleted or inserted step, every line of the move
        for x in dl:
            d = self.deltas[x]
            st = self.step_of(d)
            if st is None:
                continue
            if d["kind"] == "value":
                lines.update(self.writer_lines(st[0], st[1], d["variable"]))
                continue
            lines.update(self.step_lines(*st))
            if d["kind"] == "action":
                lines.update(self.step_lines(False, d["step_b"] - 1))
        lines.discard(None)
        return dl, steps, sorted(lines)


def show(v):
    """A value as pancause's JSON writes it: a channel's messages each in
    brackets, space-separated, a message's fields comma-separated (an empty
    channel: "empty"); a variable that does not exist (its process died):
    "absent"."""
    if isinstance(v, tuple):  # a message of several fields: [1,2] (RICH2)
        return " ".join("[%s]" % (",".join(map(str, m)) if isinstance(m, tuple) else m)
                        for m in v) if v else "empty"
    return "absent" if v is None else str(v)


def render(e):
    """An expression as SPIN prints it, near enough for merged_text: every binary
    operation in parentheses."""
    k = e[0]
    if k == "num":
        return str(e[1])
    if k == "var":
        return e[1]
    if len(e) == 2 and k in ("!", "neg"):
        return ("!" if k == "!" else "-") + render(e[1])
    if len(e) == 2:  # len(q) and the other channel functions
        return "%s(%s)" % (k, e[1])
    return "(%s%s%s)" % (render(e[1]), k, render(e[2]))


def merged_text(st):
    """A merged statement's text (an assignment or an assert), as SPIN prints it."""
    if st["k"] == "assert":
        return "assert(%s)" % render(st["e"])
    return "%s = %s" % (st["v"], render(st["e"]))


def same_text(x, y):
    """Texts equal up to blanks and parentheses (SPIN's own bracketing is not
    what is checked here)."""
    def norm(t):
        return "".join(ch for ch in t if ch not in " \t()")
    return norm(x) == norm(y)


def compare_merged(sl, c):
    """B (2026-11-27): each step's `merged` list in pancause's JSON against the
    interpreter's chain tails (merge_chains): the same statements, lines and texts
    in order, and no list where the move merges nothing (R15)."""
    errors = []
    for side, run in (("a", sl.a), ("b", sl.b)):
        for k, x in enumerate(run.steps):
            mine = [(st["line"], merged_text(st)) for st in sl.tail(x)]
            cs = c[side]["steps"][k]
            if "merged" not in cs:
                if mine:
                    errors.append("%s step %d: no merged list, the reference's %s" % (
                        side, k + 1, mine))
                continue
            theirs = [(m.get("line"), m.get("text", "")) for m in cs["merged"]]
            if not mine or [ln for ln, _ in mine] != [ln for ln, _ in theirs] or \
                    not all(same_text(t, u) for (_, t), (_, u) in zip(mine, theirs)):
                errors.append("%s step %d: merged %s, the reference's %s" % (
                    side, k + 1, theirs, mine))
    return errors


def key(d):
    """A Δ's identity across the two lists."""
    return (d["kind"], d.get("step_a"), d.get("step_b"), d.get("variable"),
            d["kind"] == "value" and d.get("steps") == 0)


def compare(sl, c):
    """The mismatches between the Slicer's Δs and slice and pancause's JSON c."""
    errors = []
    dl, steps, lines = sl.slice()
    mine = {key(d): n for n, d in enumerate(sl.deltas)}
    theirs = {key(d): n for n, d in enumerate(c["deltas"])}
    if set(mine) != set(theirs):
        errors.append("Δs: only pancause's %s; only the reference's %s" % (
            sorted(set(theirs) - set(mine), key=str), sorted(set(mine) - set(theirs), key=str)))
    for k in sorted(set(mine) & set(theirs), key=str):
        d, cd = sl.deltas[mine[k]], c["deltas"][theirs[k]]
        if d["kind"] == "value":
            if d["steps"] != cd["steps"]:
                errors.append("Δ %s lasts %d pairs, pancause %d" % (k, d["steps"], cd["steps"]))
            if (show(d["value_a"]), show(d["value_b"])) != (cd["value_a"], cd["value_b"]):
                errors.append("Δ %s: values %s|%s, pancause %s|%s" % (
                    k, d["value_a"], d["value_b"], cd["value_a"], cd["value_b"]))
        if sl.line_of(d) != cd["line"]:
            errors.append("Δ %s: line %s, pancause %s%s" % (
                k, sl.line_of(d), cd["line"],
                " (R12: its origin is a changed action whose b step alone wrote it; "
                "pancause gives the a step's line)" if sl.line_of_pair_a(d) == cd["line"]
                else " (R12 before session 18: the writing move's first line, not the line "
                "of its statement that wrote the variable)" if sl.line_of_first(d) == cd["line"]
                else ""))
    my_slice = {key(sl.deltas[x]) for x in dl}
    their_slice = {key(c["deltas"][x]) for x in c["slice"]}
    if my_slice != their_slice:
        errors.append("slice: only pancause's %s; only the reference's %s" % (
            sorted(their_slice - my_slice, key=str), sorted(my_slice - their_slice, key=str)))
    if lines != sorted(c["slice_lines"]):
        errors.append("slice_lines %s, pancause %s" % (lines, c["slice_lines"]))
    if len(steps) != c.get("slice_via"):
        errors.append("slice_via %d (steps taken alike at a|b %s), pancause %s" % (
            len(steps), [(sl.rows[n][1] + 1, sl.rows[n][2] + 1) for n in steps],
            c.get("slice_via")))
    return errors


COVERAGE = {}


# SPIN 6.5.2's never claims for the two nested formulas (`spin -f '!([] ((p) ->
# [] !(q)))'` and `spin -f '!([] ((p) -> ((!(q) U (r)) || [] !(q))))'`), for R17
# only: per claim state its moves (guard as the atoms it needs, "1" where it is
# `(1)`; target, or None for the check `atomic { (g) -> assert(!(g)) }`).  The
# monitor (interp.py) decides violation; this table says which statement did.
NOT_R = "!r"
SPIN_CLAIMS = {
    "after": {
        "T0_init": [(("p", "q"), None), (("p",), "T0_S4"), ((), "T0_init")],
        "T0_S4": [(("q",), None), ((), "T0_S4")],
    },
    "unless": {
        "T0_init": [((NOT_R, "p", "q"), "accept_S11"), ((NOT_R, "p", "q"), None),
                    ((NOT_R, "p"), "T0_S14"), ((NOT_R, "p", "q"), "accept_S2"),
                    ((), "T0_init")],
        "accept_S11": [((NOT_R,), "accept_S11"), ((NOT_R, "q"), None)],
        "accept_S2": [(("q",), None), ((), "T0_S2")],
        "T0_S14": [((NOT_R, "q"), "accept_S11"), ((NOT_R, "q"), None),
                   ((NOT_R,), "T0_S14"), ((NOT_R, "q"), "accept_S2")],
        "T0_S2": [(("q",), None), ((), "T0_S2")],
    },
}


def nested_claim_reads(model, sa, final):
    """R17 (NEAREST_GEN_NESTED): the identifiers the never claim's violating move
    may read at a's last state, one set per statement of SPIN's claim
    (SPIN_CLAIMS) that violates there: the claim's branches are followed along
    a's checked states (each takes every move whose guard holds, the check
    excepted; a passes bad states, reference.follow, so branches go on where
    another violated); at a's last state each branch's check whose guard holds
    violates, and where no process can move there pan lets the claim move alone
    again (its stutter), so the branches it reaches at that same state count
    too (gen.py's nested seed 148: stock pan's trail ends with the claim
    entering accept_S2 on `(!r && p && q)` and then checking `(q)` in the same
    state).  Where several statements violate, the README says the combined
    graph's move names one member's, not which: each reading is accepted
    (check).  Guards' identifiers are what the README calls the claim
    statement's reads."""
    kind, p, q, r = model.nested
    atoms = {"p": p, "q": q, NOT_R: r}
    table = SPIN_CLAIMS[kind]

    def holds(guard, env):
        return all((not eval_expr(r, env)) if a == NOT_R else eval_expr(atoms[a], env)
                   for a in guard)

    def reads(guard):
        return set().union(*(expr_vars(atoms[a]) for a in guard))

    def move(members, env):
        return {t for c in members for g, t in table[c] if t is not None and holds(g, env)}

    members = {"T0_init"}
    for st in sa:
        if model.checked(st):
            members = move(members, model.env(st[1]))
    env = model.env(final[1])
    alts, seen = [], set()
    stutter = not model.steps(final)
    while True:
        for c in sorted(members - seen):
            for g, t in table[c]:
                if t is None and holds(g, env) and reads(g) not in alts:
                    alts.append(reads(g))
        seen |= members
        nxt = move(members, env)
        if not stutter or nxt <= seen:
            break
        members = nxt
    if not alts:
        raise NoFit("a's last state violates no statement of SPIN's claim")
    return alts


def check(model_path, trail_path, cjson, verbose=False):
    """The mismatches: [] when this file's Δs and slice are pancause's (CJSON); None
    when pancause gave no answer."""
    try:
        with open(cjson) as f:
            c = json.load(f)
    except OSError:  # pancause refused (reference.py has checked that it should)
        return None
    if "distance" not in c or "deltas" not in c:
        return None
    model, g, a, sa, a_final = load(model_path, trail_path)
    lasso = bool(c.get("b", {}).get("lasso"))
    b, sb, b_final = follow(model, g, replay(model_path, c["good_trail"], cycle_ok=lasso),
                            must_violate=False)
    ca, cb = c["a"]["steps"], c["b"]["steps"]
    if len(ca) != len(a) or len(cb) != len(b):
        return ["pancause's a/b have %d/%d steps, the interpreter's %d/%d" %
                (len(ca), len(cb), len(a), len(b))], []
    if a_final is None:
        kind = "assert"
    else:
        kind = "claim" if model.ltl is not None or model.nested is not None else "invalid-end"
    # a nested formula's claim: the reads of each branch that violates at a's end
    # (R17); the first reading that agrees is taken, else the first one's errors
    alts = [None]
    if kind == "claim" and model.nested is not None:
        claim, moves = read_trail(trail_path)
        if claim and moves and moves[-1][1] == 0:
            alts = nested_claim_reads(model, sa, a_final)
        else:  # a condemned last state (no claim move in the trail: BFS): R17
            alts = [set().union(*(expr_vars(e) for e in model.nested[1:] if e is not None))]
    for n, cv in enumerate(alts):
        sl = Slicer(model, Run(a, sa, a_final), Run(b, sb, b_final),
                    [(p["step_a"] - 1, p["step_b"] - 1) for p in c["alignment"]],
                    [s["line"] for s in ca], [s["line"] for s in cb], kind, cv)
        errors = compare_merged(sl, c) + compare(sl, c)
        if n == 0:
            first = sl, errors
        if not errors:
            break
    else:
        sl, errors = first
        if len(alts) > 1:
            errors.append("(R17: neither violating branch's reads, %s, agree)" %
                          " nor ".join(str(sorted(x)) for x in alts))
    # what the merged moves gave to check (batch.py sums it): steps of a and b whose
    # move merged statements, and lines in the slice that only a merged statement has
    merged = sum(1 for run in (sl.a, sl.b) for x in run.steps if sl.tail(x))
    heads = set(sl.lines_a) | set(sl.lines_b)
    own = sorted(set(c["slice_lines"]) - heads)
    COVERAGE.update(merged=merged, own=own)
    if verbose:
        dl, steps, lines = sl.slice()
        print("kind %s; rows %s" % (kind, sl.rows))
        for n, d in enumerate(sl.deltas):
            print("%s %2d %s line %s" % ("*" if n in dl else " ", n, d, sl.line_of(d)))
        print("steps taken alike:", [(sl.rows[n][1] + 1, sl.rows[n][2] + 1) for n in steps])
        print("reached from:", {"%s%s" % nd: p if p == "seed" else "%s%s" % p
                                for nd, p in sl.why.items()})
        print("lines:", lines)
    return errors


def main(argv):
    args = argv[1:]
    verbose = "--verbose" in args
    if verbose:
        args.remove("--verbose")
    if "--weights" in args:  # batch.py passes pancause's options; the slice needs none
        k = args.index("--weights")
        del args[k:k + 2]
    if "--check" not in args or args.index("--check") + 1 >= len(args):
        print(__doc__)
        return 2
    k = args.index("--check")
    cjson = args[k + 1]
    del args[k:k + 2]
    paths = [x for x in args if not x.startswith("--")]
    if len(paths) != 2:
        print(__doc__)
        return 2
    try:
        r = check(paths[0], paths[1], cjson, verbose)
    except (NoFit, PromelaError) as e:
        print("SLICE MISMATCH: cannot follow the runs: %s" % e)
        return 1
    if r is None:
        print("slice: nothing to check (pancause gave no answer)")
        return 0
    errors = r
    for e in errors:
        print("SLICE MISMATCH: " + e)
    if not errors:
        print("slice: agrees")
    if COVERAGE.get("merged"):
        print("merged: %d steps; slice lines only merged statements have: %s" % (
            COVERAGE["merged"], COVERAGE["own"]))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
