"""A small, independent interpreter of the Promela subset that gen.py writes.

It builds the explicit state graph of a model the way SPIN's pan sees it
(compiled with -DNOREDUCE, no partial order reduction), with every
transition tagged by its event (the user label of its source location) or
None (silent).  It does not use SPIN.

The subset
----------
* global declarations: ``byte``/``bool``/``int``/``short`` names with
  optional constant initialisers (bool is stored as one bit, byte as 8 bits,
  as in pan's state vector);
* ``active proctype Name() { ... }`` (one instance each, pid = order of
  declaration), optionally starting with local declarations (same form as
  the globals): each instance has its own copy, part of the state,
  initialised when the process is created (no step); statements see the
  globals and their own process's locals (a local may not reuse a global's
  name); the ltl formula sees the globals (and channels) only;
* statements: ``v = e``, ``v++``, ``v--``, expression statements (guards,
  executable iff non-zero), ``assert(e)``, ``skip`` (= the guard ``1``),
  ``if :: seq ... fi``, ``do :: seq ... od``, ``else``, ``break``,
  ``goto L``, ``d_step { ... }`` over guards, assignments and asserts (one
  indivisible step, executable iff its first statement is);
  ``;`` and ``->`` are both separators;
* labels ``L: stmt``; a label names the *location* where the statement
  starts.  ``end*`` labels mark valid end locations; ``end*``,
  ``progress*`` and ``accept*`` labels are not events;
* ``ltl NAME { [] e }`` (a safety invariant; ``[] !(p)`` is the usual form);
* channels (ORACLE_GEN_CHAN models): global ``chan q = [k] of { t }`` or
  ``{ t1, t2 }`` (k >= 1 buffered, k = 0 rendezvous), ``q!e`` / ``q!e1,e2``,
  ``q?v``, ``q?CONST``, ``q?v,CONST`` ..., and ``len(q)``, ``empty(q)``,
  ``nempty(q)``, ``full(q)``, ``nfull(q)`` in expressions (the ltl formula
  may use them too); semantics in Model's docstring.  spec["chans"] keeps
  (name, k, first field's type) and statements keep "e"/"v" for the first
  field, as the nearest oracle (cases/nearest-oracle/interp.py, which
  imports this parser) reads them.

* ``atomic { ... }`` over guards, assignments, asserts, sends and receives
  (ORACLE_GEN_ATOMIC models; the nearest oracle parses it here too): after a
  move into its inside the process holds atomicity (vals' last slot) and
  moves alone while it can; where it has no executable statement it loses
  atomicity (every process may move; it regains it when it moves on inside);
  a rendezvous send passes the turn to the receive and nobody holds
  atomicity after it unless the receiver moved into an atomic sequence of
  its own; the never claim does not check a state where a process holds
  atomicity or a handshake is under way; no run ends in a state where a
  process holds atomicity (ATOMIC_RUNS_END); SPIN's statement merging inside
  atomic sequences is modelled (merge_chains; gen.py keeps only models whose
  pan.m merges exactly that).  README "Atomic sequences".

* ``{ A } unless { B }`` (ORACLE_GEN_UNLESS models; README "Unless"): while
  the process is at a location of A (its entry included, nested statements
  and the escapes of inner unless included), B's first statement is tried
  first and, when executable, moves instead of A's statements (the escape's
  move carries the label of B's entry, which SPIN allows none on, so it is
  silent); nested: the outermost executable escape moves, except at the entry
  of a *labelled* unless, where every executable escape of every level may
  (pan.t's escape tags); when A ends normally the process goes on after the
  unless, unwatched.  No statement merging inside A (SPIN merges none there).
  Not modelled: pan -J (innermost first), an unless inside an atomic
  sequence or d_step, an escape headed by a send or receive;
* ``local byte g;`` (a global, SPIN's hint for its reduction: a plain global
  here), ``xr q; xs q;`` at the top of a proctype (hints: no semantics), and
  the receive poll ``q?[c]`` in expressions (true iff q's head matches).

SPIN semantics modelled here (checked against stock pan by crosscheck.py):
* one step = one basic statement of one process (interleaving);
* the options of ``if``/``do`` all start at the location of the compound;
  their first statements are the transitions out of it; ``else`` is
  executable iff no other option of the same compound is;
* ``break`` and the end of an option are jumps, not steps (SPIN optimises
  them away); a ``break`` or a compound as the *first* statement of an option
  is rejected (SPIN treats those specially);
* a process that reached its closing brace executes the silent ``-end-``
  step (it dies) only once every process with a higher pid has died, as in
  pan (this only matters for state counts);
* ``assert(e)`` is always executable; when ``e`` is false the step is an
  assertion violation;
* without an ``ltl`` block: a state with no executable step in which some
  live process is neither at its end nor at an ``end*`` location is an
  invalid end state (a violation);
* with an ``ltl`` block ``[] e``: the never claim checks ``e`` in every state
  before the system moves (including the initial state and final states:
  pan lets the claim stutter), so a state where ``e`` is false is a
  violation; invalid end states are not checked (pan: "disabled by never
  claim"); assertions in processes still are;
* channels: a buffered send is executable iff the channel is not full, a
  receive iff it is not empty and the head matches its constants; a
  rendezvous is two steps, the send (only when a receive can take the
  message at once) into a mid-rendezvous state where only those receives
  move (Model's docstring).
"""

import os
import re

RESERVED_PREFIXES = ("end", "progress", "accept")

# Whether a run may end in the middle of a rendezvous (after the send, before
# the receive).  No (README "Executions, events, hazards", since 2026-11-27):
# SPIN executes the handshake as one step, pan as two.  ORACLE_RV_END=1 says
# yes, as pan -C did before, to see where that decision matters (pan then
# disagrees).
RV_RUNS_END = os.environ.get("ORACLE_RV_END", "0") == "1"
# Whether a (good) run may end inside an atomic sequence while its process
# holds atomicity.  No (README "Atomic sequences"): pan's never claim does not
# look at such a state and every other process is frozen there, so it is no
# state a SPIN run stops in, as between a rendezvous' send and its receive.
# ORACLE_ATOMIC_END=1 says yes, as pan -C does (2026-11-27), to see where
# that decision matters.
ATOMIC_RUNS_END = os.environ.get("ORACLE_ATOMIC_END", "0") == "1"


class PromelaError(Exception):
    pass


# ---------------------------------------------------------------- lexer

_TOKEN_RE = re.compile(
    r"""
    (?P<ws>\s+|/\*.*?\*/|//[^\n]*)
  | (?P<num>\d+)
  | (?P<id>[A-Za-z_][A-Za-z_0-9]*)
  | (?P<op>::|->|==|!=|<=|>=|&&|\|\||\+\+|--|\[\]|[;:(){}=<>+\-*/%!,\[\]?])
    """,
    re.S | re.X,
)


def tokenize(text):
    toks = []
    pos = 0
    while pos < len(text):
        m = _TOKEN_RE.match(text, pos)
        if not m:
            line = text.count("\n", 0, pos) + 1
            raise PromelaError("line %d: cannot read %r" % (line, text[pos:pos + 20]))
        pos = m.end()
        if m.lastgroup == "ws":
            continue
        line = text.count("\n", 0, m.start()) + 1
        if m.lastgroup == "num":
            toks.append(("num", int(m.group()), line))
        elif m.lastgroup == "id":
            toks.append(("id", m.group(), line))
        else:
            toks.append(("op", m.group(), line))
    toks.append(("eof", None, 0))
    return toks


# ---------------------------------------------------------------- parser
# Expressions are tuples: ("num", n) | ("var", name) | (op, a) | (op, a, b)
# Statements are dicts: {"k": kind, "labels": [...], ...}

_BINARY_LEVELS = [
    ["||"],
    ["&&"],
    ["==", "!="],
    ["<", "<=", ">", ">="],
    ["+", "-"],
    ["*", "/", "%"],
]

TYPES = {"bool": 1, "bit": 1, "byte": 8, "short": 16, "int": 32}
CHAN_FUNCS = ("len", "empty", "nempty", "full", "nfull")


class Parser:
    def __init__(self, text):
        self.toks = tokenize(text)
        self.i = 0

    def peek(self, k=0):
        return self.toks[self.i + k]

    def next(self):
        t = self.toks[self.i]
        self.i += 1
        return t

    def is_op(self, s, k=0):
        t = self.peek(k)
        return t[0] == "op" and t[1] == s

    def is_id(self, s=None, k=0):
        t = self.peek(k)
        return t[0] == "id" and (s is None or t[1] == s)

    def expect_op(self, s):
        t = self.next()
        if t[0] != "op" or t[1] != s:
            raise PromelaError("line %d: expected %r, got %r" % (t[2], s, t[1]))

    def comma_list(self, item):
        """item() once, then again after each ','."""
        out = [item()]
        while self.is_op(","):
            self.next()
            out.append(item())
        return out

    def expect_id(self, s=None):
        t = self.next()
        if t[0] != "id" or (s is not None and t[1] != s):
            raise PromelaError("line %d: expected %s, got %r" % (t[2], s or "a name", t[1]))
        return t[1]

    # -- expressions
    def expr(self, level=0):
        if level == len(_BINARY_LEVELS):
            return self.unary()
        a = self.expr(level + 1)
        while self.peek()[0] == "op" and self.peek()[1] in _BINARY_LEVELS[level]:
            op = self.next()[1]
            b = self.expr(level + 1)
            a = (op, a, b)
        return a

    def unary(self):
        if self.is_op("!"):
            self.next()
            return ("!", self.unary())
        if self.is_op("-"):
            self.next()
            return ("neg", self.unary())
        if self.is_op("("):
            self.next()
            e = self.expr()
            self.expect_op(")")
            return e
        t = self.next()
        if t[0] == "num":
            return ("num", t[1])
        if t[0] == "id" and self.is_op("?") and self.is_op("[", 1):
            # q?[args]: a receive poll (ORACLE_GEN_XRXS): true iff q?args
            # could be executed now; it changes nothing
            self.next()
            self.next()
            args = self.comma_list(self.recv_arg)
            self.expect_op("]")
            return ("poll", t[1], tuple(args))
        if t[0] == "id" and t[1] in CHAN_FUNCS and self.is_op("("):
            # len(q): the number of messages in channel q; empty(q), nempty(q),
            # full(q), nfull(q): its predicates (ORACLE_GEN_CHAN models; the
            # nearest oracle's use len)
            self.next()
            ch = self.expect_id()
            self.expect_op(")")
            return (t[1], ch)
        if t[0] == "id":
            if t[1] == "true":
                return ("num", 1)
            if t[1] == "false":
                return ("num", 0)
            return ("var", t[1])
        raise PromelaError("line %d: unexpected %r in expression" % (t[2], t[1]))

    # -- statements
    def sequence(self, closers):
        stmts = []
        while True:
            while self.is_op(";") or self.is_op("->"):
                self.next()
            t = self.peek()
            if t[0] == "eof" or (t[0] == "op" and t[1] in closers) or (
                    t[0] == "id" and t[1] in closers):
                break
            stmts.append(self.step())
            if not (self.is_op(";") or self.is_op("->")):
                t = self.peek()
                if not ((t[0] == "op" and t[1] in closers) or (t[0] == "id" and t[1] in closers)):
                    raise PromelaError("line %d: expected ';' or '->', got %r" % (t[2], t[1]))
        return stmts

    def step(self):
        labels = []
        while self.is_id() and self.is_op(":", 1):
            labels.append(self.next()[1])
            self.next()
        line = self.peek()[2]
        st = self.stmt()
        st["line"] = line
        while self.is_id("unless"):
            # A unless B (ORACLE_GEN_UNLESS; README "Unless"): B's first
            # statement has priority over every statement of A while the process
            # is inside A.  The labels before A belong to the whole, which
            # starts where A starts.
            self.next()
            esc = self.step()
            st.setdefault("labels", [])
            st = {"k": "unless", "body": [st], "esc": [esc], "line": line}
        st["labels"] = labels
        return st

    def options(self, closer):
        opts = []
        while self.is_op("::"):
            self.next()
            opts.append(self.sequence(["::", closer]))
        if not opts:
            raise PromelaError("line %d: %s without options" % (self.peek()[2], closer))
        self.expect_id(closer)
        return opts

    def stmt(self):
        t = self.peek()
        if t[0] == "op" and t[1] == "{":
            # { seq }: a plain block (the body or escape of an unless)
            self.next()
            body = self.sequence(["}"])
            self.expect_op("}")
            return {"k": "block", "body": body}
        if t[0] == "id":
            w = t[1]
            if w == "if":
                self.next()
                return {"k": "if", "opts": self.options("fi")}
            if w == "do":
                self.next()
                return {"k": "do", "opts": self.options("od")}
            if w == "break":
                self.next()
                return {"k": "break"}
            if w == "goto":
                self.next()
                return {"k": "goto", "target": self.expect_id()}
            if w == "d_step":
                self.next()
                self.expect_op("{")
                body = self.sequence(["}"])
                self.expect_op("}")
                for st in body:
                    if st["k"] not in ("expr", "assign", "assert") or st["labels"]:
                        raise PromelaError("line %d: only unlabelled guards, assignments and "
                                           "asserts inside d_step" % st["line"])
                return {"k": "dstep", "body": body}
            if w == "else":
                self.next()
                return {"k": "else"}
            if w == "skip":
                self.next()
                return {"k": "expr", "e": ("num", 1)}
            if w == "assert":
                self.next()
                self.expect_op("(")
                e = self.expr()
                self.expect_op(")")
                return {"k": "assert", "e": e}
            if w == "atomic" and self.is_op("{", 1):
                # atomic { ... } over basic statements (Proc.compile_seq; the
                # nearest oracle parses it here too)
                self.next()
                self.next()
                body = self.sequence(["}"])
                self.expect_op("}")
                return {"k": "atomic", "body": body}
            if self.is_op("!", 1) and not self.is_op("=", 2):
                # q!e or q!e1,e2: send on a channel ("e" is the first field, as
                # the nearest oracle reads it; "es" all of them)
                self.next()
                self.next()
                es = self.comma_list(self.expr)
                return {"k": "send", "ch": w, "e": es[0], "es": es}
            if self.is_op("?", 1) and not self.is_op("[", 2):
                # q?v, q?CONST, q?a,b: receive; "args" lists each field as
                # ("var", name) (stored there) or ("num", c) (the message's field
                # must equal c); "v" is the first field's variable (None if a
                # constant), as the nearest oracle reads it
                self.next()
                self.next()
                args = self.comma_list(self.recv_arg)
                return {"k": "recv", "ch": w, "args": args,
                        "v": args[0][1] if args[0][0] == "var" else None}
            if self.is_op("=", 1):
                self.next()
                self.next()
                return {"k": "assign", "v": w, "e": self.expr()}
            if self.is_op("++", 1) or self.is_op("--", 1):
                self.next()
                op = self.next()[1]
                return {"k": "assign", "v": w, "e": ("+" if op == "++" else "-", ("var", w), ("num", 1))}
        return {"k": "expr", "e": self.expr()}

    def recv_arg(self):
        """A receive's field: a variable, or a constant the message must match."""
        t = self.next()
        if t[0] == "num":
            return ("num", t[1])
        if t[0] == "op" and t[1] == "-" and self.peek()[0] == "num":
            return ("num", -self.next()[1])
        if t[0] == "id" and t[1] in ("true", "false"):
            return ("num", 1 if t[1] == "true" else 0)
        if t[0] == "id":
            return ("var", t[1])
        raise PromelaError("line %d: unexpected %r in a receive" % (t[2], t[1]))

    def declaration(self):
        """``type name [= const] {, name [= const]} ;`` -> [(name, type, init)]."""
        ty = self.next()[1]
        out = []
        while True:
            name = self.expect_id()
            init = 0
            if self.is_op("="):
                self.next()
                init = eval_expr(self.expr(), {})
            out.append((name, ty, init))
            if self.is_op(","):
                self.next()
                continue
            break
        self.expect_op(";")
        return out

    def ltl_body(self):
        """What follows ``[]`` in an ltl formula: an expression e (the
        invariant ``[] e``), or one of the two nested safety formulas
        (ORACLE_GEN_NESTED, README "Nested safety formulas"), returned as
        ("nested", "after", p, q, None) for ``[] ((p) -> [] !(q))`` and
        ("nested", "unless", p, q, r) for
        ``[] ((p) -> ((!(q) U (r)) || [] !(q)))``."""
        start = self.i
        if self.is_op("("):
            self.next()
            p = self.expr()
            if self.is_op("->"):
                self.next()
                if self.is_op("[]"):
                    self.next()
                    nq = self.expr()
                    self.expect_op(")")
                    if nq[0] != "!":
                        raise PromelaError("ltl: [] (p -> [] !(q)) wants !(q)")
                    return ("nested", "after", p, nq[1], None)
                self.expect_op("(")
                self.expect_op("(")
                nq = self.expr()
                self.expect_id("U")
                r = self.expr()
                self.expect_op(")")
                self.expect_op("||")
                self.expect_op("[]")
                nq2 = self.expr()
                self.expect_op(")")
                self.expect_op(")")
                if nq[0] != "!" or nq != nq2:
                    raise PromelaError("ltl: [] (p -> ((!(q) U (r)) || [] !(q))) wants the "
                                       "same !(q) twice")
                return ("nested", "unless", p, nq[1], r)
            self.i = start
        return self.expr()

    def spec(self):
        model = {"vars": [], "procs": [], "ltl": None, "chans": [], "chan_fields": {}}
        while self.peek()[0] != "eof":
            t = self.peek()
            if t[0] == "id" and t[1] == "local" and self.peek(1)[0] == "id" and \
                    self.peek(1)[1] in TYPES:
                # local byte g;: a global that SPIN's reduction takes for one
                # process's own (ORACLE_GEN_LOCALS2); a plain global here
                self.next()
                decl = self.declaration()
                model["vars"] += decl
                model.setdefault("local_globals", []).extend(d[0] for d in decl)
            elif t[0] == "id" and t[1] in TYPES:
                model["vars"] += self.declaration()
            elif t[0] == "id" and t[1] == "chan":
                # chan q = [k] of { type [, type] }: a global channel; k = 0 is a
                # rendezvous.  spec["chans"] keeps (name, k, first field's type),
                # as the nearest oracle reads it; spec["chan_fields"][name] lists
                # every field's type
                self.next()
                name = self.expect_id()
                self.expect_op("=")
                self.expect_op("[")
                t2 = self.next()
                if t2[0] != "num":
                    raise PromelaError("line %d: channel capacity must be a number" % t2[2])
                self.expect_op("]")
                self.expect_id("of")
                self.expect_op("{")
                fields = self.comma_list(self.expect_id)
                for ty in fields:
                    if ty not in TYPES:
                        raise PromelaError("line %d: channel field type %s" % (t2[2], ty))
                self.expect_op("}")
                self.expect_op(";")
                model["chans"].append((name, t2[1], fields[0]))
                model["chan_fields"][name] = fields
            elif t[0] == "id" and t[1] == "active":
                self.next()
                self.expect_id("proctype")
                name = self.expect_id()
                self.expect_op("(")
                self.expect_op(")")
                self.expect_op("{")
                local = []
                xrxs = []
                while self.is_id() and (self.peek()[1] in TYPES or self.peek()[1] in ("xr", "xs")):
                    if self.peek()[1] in TYPES:
                        local += self.declaration()
                        continue
                    # xr q; / xs q, r;: channel assertions (ORACLE_GEN_XRXS):
                    # hints to pan's partial order reduction, no semantics here
                    kw = self.next()[1]
                    xrxs += [(kw, c) for c in self.comma_list(self.expect_id)]
                    self.expect_op(";")
                body = self.sequence(["}"])
                self.expect_op("}")
                model["procs"].append({"name": name, "body": body, "locals": local,
                                       "xrxs": xrxs})
            elif t[0] == "id" and t[1] == "ltl":
                self.next()
                if self.is_id():
                    self.next()
                self.expect_op("{")
                self.expect_op("[]")
                inv = self.ltl_body()
                self.expect_op("}")
                if model["ltl"] is not None:
                    raise PromelaError("only one ltl formula is supported")
                model["ltl"] = inv
            elif t[0] == "op" and t[1] == ";":
                self.next()
            else:
                raise PromelaError("line %d: unsupported construct %r" % (t[2], t[1]))
        if not model["procs"]:
            raise PromelaError("no active proctype")
        return model


# ---------------------------------------------------------------- expressions

def eval_expr(e, env):
    k = e[0]
    if k == "num":
        return e[1]
    if k == "var":
        if e[1] not in env:
            raise PromelaError("unknown variable %s" % e[1])
        return env[e[1]]
    if k == "poll":  # q?[args]: the head matches args' constants
        q = env.get(e[1])
        if not isinstance(q, tuple):
            raise PromelaError("poll of %s, which is no channel" % e[1])
        return int(bool(q) and all(a[0] == "var" or a[1] == f for a, f in zip(e[2], q[0])))
    if k in CHAN_FUNCS:  # a channel's value is the tuple of its messages
        if e[1] not in env or not isinstance(env[e[1]], tuple):
            raise PromelaError("%s of %s, which is no channel" % (k, e[1]))
        n = len(env[e[1]])
        if k == "len":
            return n
        if k in ("empty", "nempty"):
            return int((n == 0) == (k == "empty"))
        # full/nfull need the capacity: Model.env puts it under ("cap", q)
        cap = env.get(("cap", e[1]))
        if cap is None:
            raise PromelaError("%s of %s: capacity unknown" % (k, e[1]))
        return int((n >= cap) == (k == "full"))
    if k == "!":
        return 0 if eval_expr(e[1], env) else 1
    if k == "neg":
        return -eval_expr(e[1], env)
    a = eval_expr(e[1], env)
    if k == "&&":
        return 1 if (a and eval_expr(e[2], env)) else 0
    if k == "||":
        return 1 if (a or eval_expr(e[2], env)) else 0
    b = eval_expr(e[2], env)
    if k == "+":
        return a + b
    if k == "-":
        return a - b
    if k == "*":
        return a * b
    if k in ("/", "%"):
        if b == 0:
            raise PromelaError("division by zero")
        q = abs(a) // abs(b) * (1 if (a >= 0) == (b >= 0) else -1)  # C truncation
        return q if k == "/" else a - q * b
    return 1 if {"==": a == b, "!=": a != b, "<": a < b, "<=": a <= b,
                 ">": a > b, ">=": a >= b}[k] else 0


def store(ty, v):
    """Value as pan's state vector keeps it (unsigned bit fields / C ints)."""
    bits = TYPES[ty]
    if ty in ("bool", "bit", "byte"):
        return v & ((1 << bits) - 1)
    v &= (1 << bits) - 1
    return v - (1 << bits) if v >> (bits - 1) else v


# ---------------------------------------------------------------- automata

class Proc:
    """Control-flow automaton of one proctype: locations 0..n-1, 0 initial,
    END the closing brace; trans[loc] = list of (kind, payload, dst)."""

    def __init__(self, name, body, rendezvous):
        self.name = name
        # whether the model declares a rendezvous channel (merge_chains)
        self.rendezvous = rendezvous
        self.trans = []
        self.labels = []  # per location: list of label names
        self.lines = []
        self.gotos = {}
        # atomic sequences: the locations after an atomic sequence's first
        # statement (where its process holds atomicity once it moved there);
        # (loc, index of the transition) -> the statements SPIN merges into
        # that move (merge_chains); line -> per move of an atomic sequence on
        # that line, how many statements it takes along (gen.py compares it
        # with pan.m)
        self.inner = set()
        self.tails = {}
        self.line_chains = {}
        # unless (README "Unless"): loc -> the entry locations of the escapes
        # that watch it, outermost first (SPIN's priority without -J);
        # unless_depth > 0 while an unless body is compiled (SPIN merges no
        # statements there, atomic sequences included)
        self.escapes = {}
        self.unless_depth = 0
        self.pinned = set()
        entry = self.new_loc()
        self.END = self.new_loc()
        self.compile_seq(body, entry, self.END, None)
        self.resolve_gotos()
        # (self.pinned: the locations where all escapes are one group)

    def resolve_gotos(self):
        where = {}
        for loc, labs in enumerate(self.labels):
            for lab in labs:
                where[lab] = loc

        def target(loc):
            seen = set()
            while loc in self.gotos:
                if loc in seen:
                    raise PromelaError("%s: goto loop without a statement" % self.name)
                seen.add(loc)
                lab = self.gotos[loc]
                if lab not in where:
                    raise PromelaError("%s: goto to unknown label %s" % (self.name, lab))
                loc = where[lab]
            return loc

        for trs in self.trans:
            for k, (kind, pay, dst) in enumerate(trs):
                trs[k] = (kind, pay, target(dst))

    def new_loc(self):
        self.trans.append([])
        self.labels.append([])
        return len(self.trans) - 1

    def compile_seq(self, stmts, entry, exit_, brk):
        n = len(stmts)
        if n == 0:
            raise PromelaError("%s: empty sequence" % self.name)
        # entry location of every statement; a break is a jump to brk
        locs = [None] * (n + 1)
        locs[n] = exit_
        for i in range(n - 1, 0, -1):
            if stmts[i]["k"] in ("break", "goto"):
                if i != n - 1:
                    raise PromelaError("line %d: statements after %s" % (stmts[i]["line"],
                                                                         stmts[i]["k"]))
                if stmts[i]["labels"]:
                    raise PromelaError("line %d: labelled jump" % stmts[i]["line"])
                if stmts[i]["k"] == "break":
                    if brk is None:
                        raise PromelaError("line %d: break outside do" % stmts[i]["line"])
                    locs[i] = brk
                else:
                    # the label may come later: a placeholder, resolved at the end
                    locs[i] = self.new_loc()
                    self.gotos[locs[i]] = stmts[i]["target"]
            else:
                locs[i] = self.new_loc()
        locs[0] = entry
        if stmts[0]["k"] in ("break", "goto"):
            raise PromelaError("line %d: %s as first statement of a sequence "
                               "is not in the subset" % (stmts[0]["line"], stmts[0]["k"]))
        for i, st in enumerate(stmts):
            if st["k"] in ("break", "goto"):
                continue
            src, dst = locs[i], locs[i + 1]
            for lab in st["labels"]:
                if lab in self.labels[src]:
                    continue
                self.labels[src].append(lab)
            if st["k"] in ("if", "do"):
                for opt in st["opts"]:
                    first = opt[0]
                    if first["k"] in ("if", "do", "break", "unless", "block"):
                        raise PromelaError("line %d: %s as first statement of an option is "
                                           "not in the subset" % (first["line"], first["k"]))
                    if first["labels"]:
                        raise PromelaError("line %d: label on the first statement of an option "
                                           "is not in the subset" % first["line"])
                    if st["k"] == "if":
                        self.compile_seq(opt, src, dst, brk)
                    else:
                        self.compile_seq(opt, src, src, dst)
                elses = [t for t in self.trans[src] if t[0] == "else"]
                if len(elses) > 1:
                    raise PromelaError("line %d: more than one else" % st["line"])
            elif st["k"] == "block":
                self.compile_seq(st["body"], src, dst, brk)
            elif st["k"] == "unless":
                # the body from src to dst; every location of it (src, the
                # locations its compilation creates, those of inner unless
                # escapes included) is watched by the escape, whose entry is a
                # location of its own that also ends at dst.  An enclosing
                # unless, compiled around this one, puts its escape in front.
                if src == dst:
                    raise PromelaError("line %d: empty unless body" % st["line"])
                first = len(self.trans)
                self.unless_depth += 1
                self.compile_seq(st["body"], src, dst, brk)
                self.unless_depth -= 1
                body = {src} | set(range(first, len(self.trans)))
                body.discard(dst)
                esc = self.new_loc()
                self.compile_seq(st["esc"], esc, dst, brk)
                head = st["esc"][0]
                while head["k"] == "block":
                    head = head["body"][0]
                if head["k"] not in ("expr", "assign", "assert", "dstep"):
                    raise PromelaError("line %d: an escape starts with a guard, an assignment "
                                       "or an assert in the subset" % st["line"])
                for loc in body:
                    self.escapes.setdefault(loc, []).insert(0, esc)
                if st["labels"]:
                    # SPIN 6.5.2: the entry of a *labelled* unless is a state
                    # of its own whose transitions pan.t copies from the body's
                    # first state, and there every escape copy carries the same
                    # escape tag (pan -d prints one "org" for all), so pan
                    # explores every executable escape of every level there,
                    # none of the body's moves if one is (README "Unless";
                    # pan -d and stock pan's state counts, VERBOSE traces)
                    self.pinned.add(src)
            elif st["k"] == "else":
                self.trans[src].append(("else", None, dst))
            elif st["k"] == "expr":
                self.trans[src].append(("expr", st["e"], dst))
            elif st["k"] == "assert":
                self.trans[src].append(("assert", st["e"], dst))
            elif st["k"] == "assign":
                self.trans[src].append(("assign", (st["v"], st["e"]), dst))
            elif st["k"] == "dstep":
                self.trans[src].append(("dstep", st["body"], dst))
            elif st["k"] == "atomic":
                for inner in st["body"]:
                    if inner["k"] not in ("expr", "assign", "send", "recv", "assert"):
                        raise PromelaError("line %d: only guards, assignments, asserts, sends "
                                           "and receives inside atomic" % inner["line"])
                if self.inner & {src, dst}:
                    raise PromelaError("line %d: nested atomic" % st["line"])
                # (SPIN merges nothing inside an unless body: checked with
                # spin -a, pan.m has no merge there; gen.py's merges_predicted)
                body = st["body"] if self.unless_depth else merge_chains(
                    st["body"], self.rendezvous)
                self.line_chains.setdefault(st["line"], []).extend(
                    len(x["tail"]) if x["k"] == "chain" else 0 for x in body)
                first = len(self.trans)
                self.compile_seq(body, src, dst, brk)
                self.inner |= set(range(first, len(self.trans)))
            elif st["k"] == "chain":
                # the head's move, taking the tail along (merge_chains)
                self.compile_seq([st["head"]], src, dst, brk)
                self.tails[(src, len(self.trans[src]) - 1)] = tuple(st["tail"])
            elif st["k"] == "send":
                self.trans[src].append(("send", (st["ch"], tuple(st["es"])), dst))
            elif st["k"] == "recv":
                self.trans[src].append(("recv", (st["ch"], tuple(st["args"])), dst))
            else:
                raise PromelaError("unknown statement %r" % st["k"])

    def event_of(self, loc):
        evs = [l for l in self.labels[loc] if not l.startswith(RESERVED_PREFIXES)]
        if len(evs) > 1:
            raise PromelaError("%s: several event labels on one location: %s" % (self.name, evs))
        return evs[0] if evs else None

    def valid_end(self, loc):
        return loc == self.END or any(l.startswith("end") for l in self.labels[loc])


DEAD = -1  # location of a process that executed -end-


def merge_chains(body, rendezvous):
    """An atomic sequence's statements as SPIN's pan.m moves them (statement
    merging, on by default).  rendezvous: whether the model declares a
    rendezvous channel (any `[0]`, used or not).  Inside an atomic sequence the
    unlabelled assignments (`v = e`, `v++`, `v--`) and asserts right after a
    statement H run in H's move when H is
      * a guard (skip too) or a receive, labelled or not;
      * a send, labelled or not, on a buffered channel, but only in a model that
        declares no rendezvous channel at all: SPIN (pangen5.c, since 4.1.3)
        merges after no send as soon as the model has one, whatever channel the
        send is on (`q!1; y = 2` on `q = [1]` is one move, two when a `chan r =
        [0]` is declared anywhere);
      * an unlabelled assignment or assert itself: a run of two or more of them
        is one move, headed by its first (after a labelled one, or after a
        statement that takes none along, the run that follows is a move of its
        own: `(b); L: y = 2; z = 3; c = 0` is `(b)`, `L: y = 2`, `z = 3; c = 0`).
    A labelled assignment or assert takes nothing along and is taken by nothing;
    a d_step is not in an atomic sequence.  Evidence (spin -a, pan.m's `/*
    merge: */` lines, 2026-11-28): cases/oracle/README.md "Statement merging".
    Such a run is one {"k": "chain", "head", "tail"}.  Merging outside atomic
    sequences (local-only statements; a local assignment right after an atomic
    sequence, which SPIN merges into its last statement's move) is not modelled.
    Both oracles' gen.py keep only models whose pan.m merges exactly this
    (pan_m_chains); both interpreters read it here."""
    def heads(st):
        if st["k"] == "chain" or st["k"] in ("expr", "recv"):
            return True
        if st["k"] == "send":
            return not rendezvous
        return st["k"] in ("assign", "assert") and not st["labels"]

    out = []
    for st in body:
        prev = out[-1] if out else None
        if prev is not None and st["k"] in ("assign", "assert") and not st["labels"] and \
                heads(prev):
            if prev["k"] == "chain":
                prev["tail"].append(st)
            else:
                out[-1] = {"k": "chain", "head": prev, "tail": [st], "line": prev["line"],
                           "labels": prev["labels"]}
        else:
            out.append(st)
    return out


PAN_M_CASE = re.compile(r"case \d+: // STATE \d+ - [^\n]*?:(\d+) - \[")
PAN_M_MERGE = re.compile(r"/\* merge: (.*?)\(\d+, \d+, \d+\) \*/")


def pan_m_chains(pan_m):
    """What SPIN's pan.m merged, for the generators' check against merge_chains:
    the processes' moves, {(proctype, line): [how many statements each move on
    that line takes along (merged), in pan.m's order]}.  A merged jump (`.(goto)`,
    the end of an if/do option; `goto :b0`, a break; `goto L`) is not counted: pan
    merges the jumps that follow a chain's last statement (`do :: atomic { (b); y
    = 1 } od` takes `y = 1` and `.(goto)`), which moves the process where the
    interpreters' compiled jump already puts it (they make no step of a jump), and
    `spin -t -p` leaves them out as pancause does.  Anything merged after such a
    jump (a local assignment after the if/do) still counts."""
    out = {}
    for name, line, body in pan_m_moves(pan_m):
        taken = [t for t in PAN_M_MERGE.findall(body)
                 if not (t.startswith(".(goto)") or t.startswith("goto "))]
        out.setdefault((name, line), []).append(len(taken))
    return out


def pan_m_moves(pan_m):
    """The processes' moves in SPIN's pan.m (never claims left out), in its order:
    (proctype, source line, the case's code)."""
    parts = re.split(r"/\* (PROC|CLAIM) ", pan_m)
    for kind, part in zip(parts[1::2], parts[2::2]):
        if kind != "PROC":
            continue
        name = part.split()[0]
        cases = PAN_M_CASE.split(part)
        for k in range(1, len(cases), 2):
            yield name, int(cases[k]), cases[k + 1]


def chains_agree(pan, mine, ordered=False):
    """Whether pan.m's moves (pan_m_chains, or one process's {line: [...]})
    merge exactly what merge_chains predicts (mine, keyed alike): on each
    predicted line the same moves taking the same numbers along (in pan.m's
    order when ordered, else in any), and no merge on any other line (the -end-
    move's line has none).  The generators' and mergecheck.py's one test."""
    for key, ks in pan.items():
        if key in mine:
            if (ks != mine[key]) if ordered else (sorted(ks) != sorted(mine[key])):
                return False
        elif any(ks):
            return False
    return True


class Model:
    """The explicit state graph.

    A state is (locs tuple, values tuple).  succ(s) yields
    (event or None, target state or VIOL).  VIOL stands for a failing
    assert step (the step is the violation).

    The values are the globals, in order of declaration, then the global
    channels (each the tuple of its messages, oldest first, a message the
    tuple of its fields), then each process's locals (process by process,
    each in order of declaration): every process instance has its own copy,
    part of the state as in pan's state vector.  A process sees the globals,
    the channels and its own locals; the ltl formula sees the globals and the
    channels.  A process that dies (-end-) loses its locals: they are reset to
    0, as pan removes them from the vector.

    Channels (ORACLE_GEN_CHAN models).  ``q!e`` on a buffered channel is
    executable iff q holds fewer than its capacity; ``q?args`` iff q is not
    empty and each constant field of args equals the head's (it takes the
    head and stores its other fields in the variables).  A rendezvous
    (capacity 0) is two steps, as pan moves and as SPIN's trail shows them:
    the send is executable iff some *other* process is at a receive on that
    channel that matches the message; it moves the sender on and leaves the
    message in the channel (a *mid-rendezvous* state, vals holds it); there
    the only steps are the receives on that channel that match it (no other
    statement, no else, no -end-), each taking the message.  A send that no
    receive could follow is no step at all (pan tries it, finds no receive
    and undoes it), so a mid-rendezvous state always has a step: it is never
    an invalid end state.  Not in the subset (rejected): a process that both
    sends and receives on one rendezvous channel, channel operations inside
    d_step; ``else`` at a location with a send or receive is an error for
    SPIN too ("dubious use of 'else' combined with i/o")."""

    VIOL = "VIOL"

    def __init__(self, text):
        spec = Parser(text).spec()
        self.vars = [v[0] for v in spec["vars"]]  # the globals
        if len(set(self.vars)) != len(self.vars):
            raise PromelaError("duplicate variable")
        self.types = {v[0]: v[1] for v in spec["vars"]}
        # value slots: globals, then channels, then "Proc:x" per process and local
        self.slots = [v[0] for v in spec["vars"]]
        self.slot_types = [v[1] for v in spec["vars"]]
        inits = [store(v[1], v[2]) for v in spec["vars"]]
        self.chans = {}  # name -> (capacity, field types, slot)
        for name, cap, _ in spec.get("chans", []):
            if name in self.types or name in self.chans:
                raise PromelaError("channel %s: name used twice" % name)
            fields = tuple(spec["chan_fields"][name])
            self.chans[name] = (cap, fields, len(self.slots))
            self.slots.append(name)
            self.slot_types.append("chan")
            inits.append(())
        self.rv_slots = tuple(c[2] for c in self.chans.values() if c[0] == 0)
        self.caps = {("cap", n): c[0] for n, c in self.chans.items()}
        gscope = {v: j for j, v in enumerate(self.slots)}
        self.gscope = gscope
        self.scopes = []   # per process: visible name -> slot
        self.local_slots = []  # per process: its own slots
        for p in spec["procs"]:
            scope = dict(gscope)
            mine = []
            for name, ty, init in p.get("locals", []):
                if name in scope:
                    raise PromelaError("%s: local %s %s (the subset wants distinct names)" % (
                        p["name"], name, "declared twice" if name in mine else "hides a global"))
                scope[name] = len(self.slots)
                mine.append(len(self.slots))
                self.slots.append("%s:%s" % (p["name"], name))
                self.slot_types.append(ty)
                inits.append(store(ty, init))
            self.scopes.append(scope)
            self.local_slots.append(tuple(mine))
        # a nested safety formula (README "Nested safety formulas"): its
        # deterministic monitor is one more value slot, no variable (not in any
        # scope), after the locals and before the atomicity token
        ltl = spec["ltl"]
        self.nested = ltl[1:] if ltl is not None and ltl[0] == "nested" else None
        self.mon_slot = None
        if self.nested is not None:
            self.mon_slot = len(self.slots)
            self.slots.append("@monitor")
            self.slot_types.append("monitor")
            inits.append(0)
        rendezvous = any(cap == 0 for _, cap, _ in spec.get("chans", []))
        self.procs = [Proc(p["name"], p["body"], rendezvous) for p in spec["procs"]]
        # with an atomic sequence, vals ends with one more slot, no variable:
        # the pid of the process holding atomicity, or None (_steps)
        self.atomic = any(p.inner for p in self.procs)
        if self.atomic:
            inits.append(None)
        self._asserts_pass = False  # explore_no_violations: failing asserts go on
        self.init_vals = tuple(inits)
        # self.ltl: the invariant e of [] e, or None (no claim, or a nested one)
        self.ltl = ltl if self.nested is None else None
        if self.nested is not None:
            # the initial state is always checked (nobody holds atomicity,
            # no handshake is under way)
            self.init_vals = self._monitor_vals(self.init_vals)
        seen = {}
        for p in self.procs:
            for loc in range(len(p.trans)):
                for lab in p.labels[loc]:
                    if lab in seen:
                        raise PromelaError("label %s used twice (the subset wants unique labels)" % lab)
                    seen[lab] = p.name
        self._check_channel_ops()
        self.events = sorted(
            {p.event_of(l) for p in self.procs for l in range(len(p.trans))} - {None})
        self.init = (tuple(0 for _ in self.procs), self.init_vals)

    def _check_channel_ops(self):
        rv_roles = {}  # (rendezvous channel, process) -> {"send", "recv"}
        for i, p in enumerate(self.procs):
            for loc, trs in enumerate(p.trans):
                if any(t[0] == "else" for t in trs) and any(t[0] in ("send", "recv") for t in trs):
                    # SPIN: "dubious use of 'else' combined with i/o"
                    raise PromelaError("%s: else beside a send or receive" % p.name)
                for kind, pay, dst in trs:
                    if kind not in ("send", "recv"):
                        continue
                    ch, args = pay
                    if ch not in self.chans:
                        raise PromelaError("%s: %s is no channel" % (p.name, ch))
                    cap, fields, _ = self.chans[ch]
                    if len(args) != len(fields):
                        raise PromelaError("%s: %s has %d fields, not %d" % (
                            p.name, ch, len(fields), len(args)))
                    if kind == "recv":
                        names = [a[1] for a in args if a[0] == "var"]
                        if len(set(names)) < len(names):
                            # SPIN: "cannot use var in multiple msg fields"
                            raise PromelaError("%s: one variable in two fields of a receive"
                                               % p.name)
                        for a in args:
                            if a[0] == "var" and (a[1] not in self.scopes[i]
                                                  or self.slot_types[self.scopes[i][a[1]]] == "chan"):
                                raise PromelaError("%s: receive into %s, no variable" % (p.name, a[1]))
                    if cap == 0:
                        rv_roles.setdefault((ch, i), set()).add(kind)
        for (ch, i), roles in rv_roles.items():
            if len(roles) > 1:
                raise PromelaError("%s both sends and receives on rendezvous channel %s (not in "
                                   "the subset)" % (self.procs[i].name, ch))

    def env(self, vals, i=None):
        """Names -> values as process i sees them (i None: the globals and
        channels, what the ltl formula sees)."""
        scope = self.gscope if i is None else self.scopes[i]
        d = {v: vals[j] for v, j in scope.items()}
        if self.caps:
            d.update(self.caps)
        return d

    @property
    def has_locals(self):
        return any(self.local_slots)

    @property
    def has_rendezvous(self):
        return bool(self.rv_slots)

    def pending(self, vals):
        """The slot of the rendezvous channel whose handshake is under way
        (mid-rendezvous state), or None."""
        for j in self.rv_slots:
            if vals[j]:
                return j
        return None

    def mid_rendezvous(self, s):
        return s != self.VIOL and self.pending(s[1]) is not None

    def may_end(self, s):
        """Whether a (good) run may end in state s (RV_RUNS_END above; with
        ATOMIC_RUNS_END off, not inside an atomic sequence whose process holds
        atomicity either)."""
        if not (RV_RUNS_END or not self.mid_rendezvous(s)):
            return False
        return ATOMIC_RUNS_END or not self.holds_atomicity(s)

    def claim_checks(self, vals):
        """Whether pan's never claim checks the state with these values: not
        while a process holds atomicity, not between a rendezvous' send and
        its receive (the nearest oracle's interp.py, checked against pan)."""
        if self.atomic and vals[-1] is not None:
            return False
        return self.pending(vals) is None

    def _monitor_vals(self, vals):
        """vals with the nested formula's monitor updated for this state (if
        the claim checks it).  The monitor slot holds, after the checked
        states s_0 .. s_j of the run so far:
          after  (p -> [] !q):          whether p held in some s_i, i <= j;
          unless (p -> (!q U r || [] !q)): whether p held in some s_i, i <= j,
                 with r false in every one of s_i .. s_j;
        so s_j is the first violation iff q holds in s_j and the monitor
        (after s_j) is set (is_bad_state)."""
        if not self.claim_checks(vals):
            return vals
        kind, p, q, r = self.nested
        env = self.env(vals)
        m = vals[self.mon_slot] or bool(eval_expr(p, env))
        if kind == "unless" and m and eval_expr(r, env):
            m = False
        m = int(m)
        if m == vals[self.mon_slot]:
            return vals
        j = self.mon_slot
        return vals[:j] + (m,) + vals[j + 1:]

    def is_bad_state(self, s):
        """The violation that a state itself is: never claim or invalid end."""
        locs, vals = s
        if self.nested is not None:
            if not self.claim_checks(vals):
                return False
            return bool(vals[self.mon_slot]) and bool(eval_expr(self.nested[2], self.env(vals)))
        if self.ltl is not None:
            if not self.claim_checks(vals):
                # pan's claim does not move inside an atomic sequence its process
                # holds, nor between a rendezvous' send and its receive (the
                # nearest oracle's interp.py, checked against pan; before
                # 2026-11-28 only in models with atomic sequences, which mattered
                # only for an invariant reading len() of a rendezvous channel:
                # selftest/nested/rendezvous.pml)
                return False
            return not eval_expr(self.ltl, self.env(vals))
        if any(True for _ in self._steps(s, with_die=True)):
            return False
        return not all(loc == DEAD or p.valid_end(loc) for p, loc in zip(self.procs, locs))

    @staticmethod
    def _matches(args, msg):
        return all(a[0] == "var" or a[1] == f for a, f in zip(args, msg))

    def _message(self, ch, es, env):
        fields = self.chans[ch][1]
        return tuple(store(ty, eval_expr(e, env)) for ty, e in zip(fields, es))

    def _receive(self, vals, i, j, args):
        """vals after process i took the head of the channel in slot j."""
        nv = list(vals)
        msg = nv[j][0]
        nv[j] = nv[j][1:]
        for a, f in zip(args, msg):
            if a[0] == "var":
                k = self.scopes[i][a[1]]
                nv[k] = store(self.slot_types[k], f)
        return tuple(nv)

    def _can_receive(self, locs, sender, ch, msg):
        """Some process other than sender is at a receive on ch matching msg."""
        for r, p in enumerate(self.procs):
            loc = locs[r]
            if r == sender or loc == DEAD or loc == p.END:
                continue
            for kind, pay, dst in p.trans[loc]:
                if kind == "recv" and pay[0] == ch and self._matches(pay[1], msg):
                    return True
        return False

    def _enabled(self, kind, pay, env, locs, i):
        if kind == "expr":
            return bool(eval_expr(pay, env))
        if kind in ("assign", "assert"):
            return True
        if kind == "dstep":
            return self._dstep_enabled(pay, env)
        if kind == "send":
            ch, es = pay
            cap = self.chans[ch][0]
            if cap > 0:
                return len(env[ch]) < cap
            return self._can_receive(locs, i, ch, self._message(ch, es, env))
        if kind == "recv":
            ch, args = pay
            q = env[ch]
            # a rendezvous receive moves only as the second half of a handshake
            return self.chans[ch][0] > 0 and len(q) > 0 and self._matches(args, q[0])
        return False

    def _raw(self, s, with_die=True, only=None):
        """The steps of _steps as (pid, loc, index of the transition, event,
        target), before merged tails and atomicity (only: that process alone)."""
        locs, vals = s
        pend = self.pending(vals) if self.rv_slots else None
        if pend is not None:
            # mid-rendezvous: only the receives that complete the handshake
            ch = self.slots[pend]
            msg = vals[pend][0]
            for i, p in enumerate(self.procs):
                loc = locs[i]
                if loc == DEAD or loc == p.END:
                    continue
                ev = p.event_of(loc)
                for k, (kind, pay, dst) in enumerate(p.trans[loc]):
                    if kind == "recv" and pay[0] == ch and self._matches(pay[1], msg):
                        nl = locs[:i] + (dst,) + locs[i + 1:]
                        yield (i, loc, k, ev, (nl, self._receive(vals, i, pend, pay[1])))
            return
        for i, p in enumerate(self.procs):
            loc = locs[i]
            if loc == DEAD or (only is not None and i != only):
                continue
            if loc == p.END:
                if with_die and all(l == DEAD for l in locs[i + 1:]):
                    nv = list(vals)
                    for j in self.local_slots[i]:
                        nv[j] = 0
                    yield (i, loc, None, None, (locs[:i] + (DEAD,) + locs[i + 1:], tuple(nv)))
                continue
            env = self.env(vals, i)
            esc = self._escape_steps(i, loc, locs, vals, env) if p.escapes else None
            if esc:
                # an unless escape watching loc can move: it moves instead
                yield from esc
                continue
            yield from self._loc_steps(i, loc, locs, vals, env)

    def _escape_steps(self, i, loc, locs, vals, env=None):
        """The steps of the first escape (outermost first) watching process
        i's location loc that has any, as _raw yields them (from the escape's
        entry location, with its event), or []."""
        p = self.procs[i]
        env = env or self.env(vals, i)
        if loc in p.pinned:
            # one group: every executable escape of every level
            return [st for e in p.escapes[loc] for st in self._loc_steps(i, e, locs, vals, env)]
        for e in p.escapes.get(loc, ()):
            got = list(self._loc_steps(i, e, locs, vals, env))
            if got:
                return got
        return []

    def _loc_steps(self, i, loc, locs, vals, env):
        """The steps of process i's transitions out of location loc (its
        own location, or the entry of an escape watching it)."""
        if True:
            p = self.procs[i]
            scope = self.scopes[i]
            ev = p.event_of(loc)
            trs = p.trans[loc]
            enabled_other = any(self._enabled(kind, pay, env, locs, i)
                                for kind, pay, dst in trs if kind != "else")
            for k, (kind, pay, dst) in enumerate(trs):
                nl = locs[:i] + (dst,) + locs[i + 1:]
                if kind == "else":
                    if not enabled_other:
                        yield (i, loc, k, ev, (nl, vals))
                elif kind == "expr":
                    if eval_expr(pay, env):
                        yield (i, loc, k, ev, (nl, vals))
                elif kind == "assert":
                    if eval_expr(pay, env) or self._asserts_pass:
                        yield (i, loc, k, ev, (nl, vals))
                    else:
                        yield (i, loc, k, ev, self.VIOL)
                elif kind == "assign":
                    var, e = pay
                    if var not in scope:
                        raise PromelaError("unknown variable %s" % var)
                    j = scope[var]
                    nv = vals[:j] + (store(self.slot_types[j], eval_expr(e, env)),) + vals[j + 1:]
                    yield (i, loc, k, ev, (nl, nv))
                elif kind == "send":
                    if not self._enabled(kind, pay, env, locs, i):
                        continue
                    ch, es = pay
                    j = self.chans[ch][2]
                    nv = vals[:j] + (vals[j] + (self._message(ch, es, env),),) + vals[j + 1:]
                    yield (i, loc, k, ev, (nl, nv))
                elif kind == "recv":
                    if not self._enabled(kind, pay, env, locs, i):
                        continue
                    ch, args = pay
                    yield (i, loc, k, ev, (nl, self._receive(vals, i, self.chans[ch][2], args)))
                elif kind == "dstep":
                    if not self._dstep_enabled(pay, env):
                        continue
                    # one indivisible step: the whole body, in order
                    e2 = dict(env)
                    failed = False
                    for n, st in enumerate(pay):
                        if st["k"] == "expr":
                            if not eval_expr(st["e"], e2):
                                if n == 0:
                                    break
                                raise PromelaError("line %d: d_step blocks inside" % st["line"])
                        elif st["k"] == "assert":
                            if not eval_expr(st["e"], e2):
                                failed = True
                                break
                        else:
                            if st["v"] not in scope:
                                raise PromelaError("unknown variable %s" % st["v"])
                            e2[st["v"]] = store(self.slot_types[scope[st["v"]]],
                                                eval_expr(st["e"], e2))
                    if failed:
                        yield (i, loc, k, ev, self.VIOL)
                    else:
                        nv = list(vals)
                        for v, j in scope.items():
                            nv[j] = e2[v]
                        yield (i, loc, k, ev, (nl, tuple(nv)))

    def _steps(self, s, with_die=True):
        """(event or None, target or VIOL) for every step from s."""
        if self.nested is not None:
            # the monitor takes in each target state the claim checks
            for ev, t in self._steps_plain(s, with_die):
                yield (ev, t if t == self.VIOL else (t[0], self._monitor_vals(t[1])))
            return
        yield from self._steps_plain(s, with_die)

    def _steps_plain(self, s, with_die=True):
        if not self.atomic:
            for i, loc, k, ev, t in self._raw(s, with_die):
                yield (ev, t)
            return
        # atomic sequences: the process holding atomicity (the token, vals'
        # last slot) moves alone; it holds it only where it has a step
        # (_enter), so a state where it blocked has the token None
        tok = s[1][-1]
        for i, loc, k, ev, t in self._raw(s, with_die, only=tok):
            tail = self.procs[i].tails.get((loc, k)) if k is not None else None
            if tail and t != self.VIOL:
                t = self._tail(i, tail, t)
            yield (ev, self._enter(i, t))

    def _tail(self, i, tail, t):
        """The target after the statements SPIN merged into the move
        (merge_chains): assignments in order, VIOL at a failing assert."""
        locs, vals = t
        nv = list(vals)
        scope = self.scopes[i]
        env = self.env(tuple(nv), i)
        for st in tail:
            if st["k"] == "assert":
                if not eval_expr(st["e"], env) and not self._asserts_pass:
                    return self.VIOL
                continue
            if st["v"] not in scope:
                raise PromelaError("unknown variable %s" % st["v"])
            j = scope[st["v"]]
            nv[j] = env[st["v"]] = store(self.slot_types[j], eval_expr(st["e"], env))
        return (locs, tuple(nv))

    def _enter(self, i, t):
        """The token of the target of a move of process i: i when i moved
        to the inside of an atomic sequence and can move on from there, None
        otherwise (after a rendezvous send nobody holds atomicity until the
        receive; a process blocked inside its sequence has lost it: pan then
        stores the state as any other, and every process may move)."""
        if t == self.VIOL:
            return t
        locs, vals = t
        tok = None
        if locs[i] != DEAD and locs[i] in self.procs[i].inner and self.pending(vals) is None:
            cand = (locs, vals[:-1] + (i,))
            if any(True for _ in self._raw(cand, True, only=i)):
                tok = i
        if vals[-1] == tok:
            return t
        return (locs, vals[:-1] + (tok,))

    def holds_atomicity(self, s):
        """Whether some process holds atomicity in s (inside an atomic
        sequence, able to move on)."""
        return self.atomic and s != self.VIOL and s[1][-1] is not None

    @staticmethod
    def _dstep_enabled(body, env):
        first = body[0]
        return first["k"] != "expr" or bool(eval_expr(first["e"], env))

    def successors(self, s):
        return list(self._steps(s))

    def explore(self, limit=200000):
        """Every state reachable from init along non-violating steps (states
        that are violations themselves are kept and expanded too; the
        causality analysis never leaves them), with their successor lists."""
        graph = {}
        todo = [self.init]
        while todo:
            s = todo.pop()
            if s in graph:
                continue
            succ = []
            for ev, t in self._steps(s):
                succ.append((ev, t))
                if t != self.VIOL and t not in graph:
                    todo.append(t)
            graph[s] = succ
            if len(graph) > limit:
                raise PromelaError("more than %d states" % limit)
        return graph

    def explore_no_violations(self):
        """State count as pan -A -E with -DNOCLAIM sees it: failing asserts
        continue to their next location.  Mid-rendezvous states are not
        counted: pan does not store them."""
        seen = set()
        todo = [self.init]
        self._asserts_pass = self.atomic
        while todo:
            s = todo.pop()
            if s in seen:
                continue
            seen.add(s)
            locs, vals = s
            for i, p in enumerate(self.procs):
                if self.atomic:
                    break  # _asserts_pass makes failing asserts go on
                loc = locs[i]
                if loc in (DEAD,) or loc == p.END or self.pending(vals) is not None:
                    continue
                if p.escapes.get(loc) and self._escape_steps(i, loc, locs, vals):
                    continue  # the escape moves instead (it is in _steps)
                for kind, pay, dst in p.trans[loc]:
                    if kind == "dstep" and any(st["k"] == "assert" for st in pay):
                        raise PromelaError("assert inside d_step: no state count with -A")
                    if kind == "assert":
                        t = (locs[:i] + (dst,) + locs[i + 1:], vals)
                        if t not in seen:
                            todo.append(t)
            for ev, t in self._steps(s):
                if t != self.VIOL and t not in seen:
                    todo.append(t)
        self._asserts_pass = False
        # SPIN hides global variables that are never read (it only warns
        # "hidden variable"): they are not in pan's state vector, so pan
        # counts states that differ only in them once.  They cannot change
        # behaviour, so this matters for the state count only.  Locals and
        # channels are always kept (crosscheck.py compiles models with locals
        # with spin -o1 -o3, which keeps them in the vector as they are).
        read = set()
        for i, p in enumerate(self.procs):
            names = set()
            for trs in p.trans:
                for kind, pay, dst in trs:
                    if kind in ("expr", "assert"):
                        names |= expr_vars(pay)
                    elif kind == "assign":
                        names |= expr_vars(pay[1])
                    elif kind == "send":
                        for e in pay[1]:
                            names |= expr_vars(e)
                    elif kind == "recv":
                        # SPIN keeps a variable a receive writes (checked:
                        # no "hidden" warning for it)
                        names |= {a[1] for a in pay[1] if a[0] == "var"}
                    elif kind == "dstep":
                        for st in pay:
                            names |= expr_vars(st["e"])
            for tail in p.tails.values():  # merged statements read too
                for st in tail:
                    names |= expr_vars(st["e"])
            read |= {self.scopes[i][v] for v in names if v in self.scopes[i]}
        if self.ltl is not None:
            read |= {self.gscope[v] for v in expr_vars(self.ltl) if v in self.gscope}
        if self.nested is not None:
            for e in self.nested[1:]:
                if e is not None:
                    read |= {self.gscope[v] for v in expr_vars(e) if v in self.gscope}
        # (the monitor is no part of pan's state vector: pan_nc has no claim)
        keep = [j for j in range(len(self.slots))
                if (j in read or j >= len(self.vars)) and j != self.mon_slot]
        # pan stores no state between a rendezvous' send and its receive, nor
        # one inside an atomic sequence whose process holds atomicity
        return len({(locs, tuple(vals[j] for j in keep)) for locs, vals in seen
                    if self.pending(vals) is None
                    and not (self.atomic and vals[-1] is not None)})


def expr_vars(e):
    if e[0] == "var":
        return {e[1]}
    if e[0] == "num":
        return set()
    if e[0] in CHAN_FUNCS or e[0] == "poll":
        return {e[1]}  # reads the channel
    out = set()
    for sub in e[1:]:
        out |= expr_vars(sub)
    return out
