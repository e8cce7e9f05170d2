#!/usr/bin/env python3
"""Brute-force reference for the red dots of `pancause explain`.

Written from the paper (Beer et al., Explaining Counterexamples Using
Causality, Definitions 1-4) and explain/README.md only, independently of the
C sources.  Standard library only.

    reference.py FILE.smv [--naive]

reads a NuSMV counterexample file and prints JSON Lines, one record per
LTL specification (CTL specifications are skipped, as the C tool does):

    {"formula": F, "holds": bool, "first_failure": k|null,
     "loop_start": l|null, "causes": [[step, variable], ...],
     "status": "fails"|"holds"|"unknown", "shown_states": m}

shown_states: the number of distinct states shown (NuSMV's repeated last
state of a lasso not counted), absent for an `is true` spec.

status "unknown": a finite trace on which the value of F is unknown
(Definition 2): nothing to explain, but F does not hold either.

Method (see README.md):
  * Definition 2 with a Hintikka-set tableau of the formula (closure over X
    and U after rewriting F, G, V), one automaton for F and !F: its fair
    states (those starting an accepting run) are computed once, a prefix is
    FALSE iff no fair state whose run starts with F true survives reading it.
  * Satisfaction of a lasso by direct fixpoint evaluation (bit-parallel over
    the lasso's positions).
  * Definition 4 by enumeration of the contingency sets A: for an infinite
    failure, literally over all subsets of the bottom-valued pairs; for a
    finite failure, by a layered search over the words pi^A[0..k] that is
    equivalent to enumerating all A (--naive: literal enumeration).
"""

import json
import re
import sys

# ---------------------------------------------------------------------------
# Formula syntax (NuSMV LTL over propositions)

class InputError(Exception):
    pass


class SkipSpec(Exception):
    """A specification the tool does not explain (CTL)."""


_TOK = re.compile(r"""\s*(?:
    (?P<op><->|->|!=|<=|>=|[!&|()=<>])
  | (?P<num>-?0[us]?[bBoOdDhH][0-9]*_[0-9a-fA-F_]+|-?[0-9]+)
  | (?P<id>[A-Za-z_][A-Za-z0-9_$\#]*(?:\[[0-9]+\])*(?:\.[A-Za-z_][A-Za-z0-9_$\#]*(?:\[[0-9]+\])*)*)
  )""", re.X)

CTL_WORDS = {"A", "E", "AG", "AF", "AX", "EG", "EF", "EX", "AU", "EU"}
PAST_WORDS = {"Y", "Z", "H", "O", "S", "T"}
KEYWORDS = {"TRUE", "FALSE", "X", "G", "F", "U", "V", "xor", "xnor", "mod"}


def tokenize(text):
    toks = []
    pos = 0
    text = text.rstrip()
    while pos < len(text):
        m = _TOK.match(text, pos)
        if not m or m.end() == pos:
            raise InputError("cannot read formula at %r" % text[pos:pos + 10])
        pos = m.end()
        if m.group("op"):
            toks.append(m.group("op"))
        elif m.group("num"):
            toks.append(("num", m.group("num")))
        else:
            toks.append(m.group("id"))
    return toks


def parse_value(text):
    """A value of a NuSMV trace or formula: bool, int, or symbol (str)."""
    if text == "TRUE":
        return True
    if text == "FALSE":
        return False
    m = re.fullmatch(r"(-?)0([us]?)([bBoOdDhH])([0-9]*)_([0-9a-fA-F_]+)", text)
    if m:
        base = {"b": 2, "o": 8, "d": 10, "h": 16}[m.group(3).lower()]
        v = int(m.group(5).replace("_", ""), base)
        return -v if m.group(1) else v
    if re.fullmatch(r"-?[0-9]+", text):
        return int(text)
    return ("sym", text)


class Parser:
    """Precedence, lowest first: -> (right), <->, | xor xnor, &, U V
    (left), unary ! X G F; an atom is TRUE, FALSE, a variable or a
    comparison `var op value`."""

    def __init__(self, text):
        self.toks = tokenize(text)
        self.i = 0
        for t in self.toks:
            if isinstance(t, str) and t in CTL_WORDS:
                raise SkipSpec("CTL specification")
            if isinstance(t, str) and t in PAST_WORDS:
                raise InputError("past-time operator %s not supported" % t)

    def peek(self):
        return self.toks[self.i] if self.i < len(self.toks) else None

    def take(self, want=None):
        t = self.peek()
        if t is None or (want is not None and t != want):
            raise InputError("expected %s, got %r" % (want or "more input", t))
        self.i += 1
        return t

    def parse(self):
        e = self.imp()
        if self.peek() is not None:
            raise InputError("unexpected %r" % (self.peek(),))
        return e

    def imp(self):
        a = self.iff()
        if self.peek() == "->":
            self.take()
            return ("imp", a, self.imp())
        return a

    def iff(self):
        a = self.orx()
        while self.peek() == "<->":
            self.take()
            a = ("iff", a, self.orx())
        return a

    def orx(self):
        a = self.andx()
        while self.peek() in ("|", "xor", "xnor"):
            op = self.take()
            b = self.andx()
            a = ({"|": "or", "xor": "xor", "xnor": "xnor"}[op], a, b)
        return a

    def andx(self):
        a = self.until()
        while self.peek() == "&":
            self.take()
            a = ("and", a, self.until())
        return a

    def until(self):
        a = self.unary()
        while self.peek() in ("U", "V"):
            op = self.take()
            a = (op, a, self.unary())
        return a

    def unary(self):
        t = self.peek()
        if t == "!":
            self.take()
            return ("not", self.unary())
        if t in ("X", "G", "F"):
            self.take()
            return (t, self.unary())
        return self.atom()

    def atom(self):
        t = self.take()
        if t == "(":
            e = self.imp()
            self.take(")")
            return e
        if t == "TRUE":
            return ("const", True)
        if t == "FALSE":
            return ("const", False)
        if isinstance(t, str) and re.match(r"[A-Za-z_]", t) and t not in KEYWORDS:
            if self.peek() in ("=", "!=", "<", "<=", ">", ">="):
                op = self.take()
                v = self.take()
                if isinstance(v, tuple):
                    v = v[1]
                elif not re.match(r"[A-Za-z_]", v):
                    raise InputError("bad comparison value %r" % (v,))
                return ("prop", (t, op, parse_value(v)))
            return ("prop", (t, None, None))
        raise InputError("unexpected %r" % (t,))


def parse_formula(text):
    return Parser(text).parse()


def props_of(f, acc=None):
    if acc is None:
        acc = []
    if f[0] == "prop":
        if f[1] not in acc:
            acc.append(f[1])
    elif f[0] != "const":
        for c in f[1:]:
            props_of(c, acc)
    return acc


def to_text(f):
    """NuSMV text of an AST; binary subterms always parenthesized."""
    op = f[0]
    if op == "const":
        return "TRUE" if f[1] else "FALSE"
    if op == "prop":
        var, cmp, val = f[1]
        if cmp is None:
            return var
        return "%s %s %s" % (var, cmp, val[1] if isinstance(val, tuple) else val)
    def sub(g):
        s = to_text(g)
        return "(" + s + ")" if g[0] in BINOPS else s
    if op == "not":
        return "!" + sub(f[1])
    if op in ("X", "G", "F"):
        return op + " " + sub(f[1])
    return "%s %s %s" % (sub(f[1]), BINOPS[op], sub(f[2]))


BINOPS = {"and": "&", "or": "|", "imp": "->", "iff": "<->", "xor": "xor",
          "xnor": "xnor", "U": "U", "V": "V"}

# ---------------------------------------------------------------------------
# Definition 1: polarity and bottom values

def polarities(f, pidx):
    """pol[p] = set of polarities (+1/-1) of the occurrences of prop p."""
    pol = [set() for _ in pidx]

    def walk(g, ps):
        op = g[0]
        if op == "prop":
            pol[pidx[g[1]]].update(ps)
        elif op == "const":
            pass
        elif op == "not":
            walk(g[1], {-p for p in ps})
        elif op == "imp":
            walk(g[1], {-p for p in ps})
            walk(g[2], ps)
        elif op in ("iff", "xor", "xnor"):
            both = ps | {-p for p in ps}
            walk(g[1], both)
            walk(g[2], both)
        else:  # and or X G F U V keep polarity
            for c in g[1:]:
                walk(c, ps)
    walk(f, {1})
    return pol


def bottom_mask(letter, pol):
    m = 0
    for p, ps in enumerate(pol):
        val = (letter >> p) & 1
        if (not val and 1 in ps) or (val and -1 in ps):
            m |= 1 << p
    return m

# ---------------------------------------------------------------------------
# Lasso satisfaction: direct fixpoint evaluation, bit-parallel over positions

def lasso_eval(f, pidx, word, loop):
    """Set (bitmask over positions 0..m-1) where f holds on the lasso
    word[0..loop-1] (word[loop..m-1])^omega."""
    m = len(word)
    full = (1 << m) - 1
    propbits = [0] * len(pidx)
    for j, a in enumerate(word):
        for p in range(len(pidx)):
            if (a >> p) & 1:
                propbits[p] |= 1 << j
    return _lasso_eval(f, pidx, propbits, m, loop, full)


def _lasso_eval(f, pidx, propbits, m, l, full):
    def nxt(x):
        return (x >> 1) | (((x >> l) & 1) << (m - 1))

    def ev(g):
        op = g[0]
        if op == "prop":
            return propbits[pidx[g[1]]]
        if op == "const":
            return full if g[1] else 0
        if op == "not":
            return full & ~ev(g[1])
        if op == "X":
            return nxt(ev(g[1]))
        if op == "F":
            a = ev(g[1])
            y = 0
            while True:
                y2 = a | nxt(y)
                if y2 == y:
                    return y
                y = y2
        if op == "G":
            a = ev(g[1])
            y = full
            while True:
                y2 = a & nxt(y)
                if y2 == y:
                    return y
                y = y2
        a = ev(g[1])
        b = ev(g[2])
        if op == "and":
            return a & b
        if op == "or":
            return a | b
        if op == "imp":
            return (full & ~a) | b
        if op in ("iff", "xnor"):
            return full & ~(a ^ b)
        if op == "xor":
            return a ^ b
        if op == "U":      # least fixpoint of b | (a & X y)
            y = 0
            while True:
                y2 = b | (a & nxt(y))
                if y2 == y:
                    return y
                y = y2
        if op == "V":      # greatest fixpoint of b & (a | X y)
            y = full
            while True:
                y2 = b & (a | nxt(y))
                if y2 == y:
                    return y
                y = y2
        raise AssertionError(op)
    return ev(f)


def lasso_sat(f, pidx, word, loop):
    return bool(lasso_eval(f, pidx, word, loop) & 1)

# ---------------------------------------------------------------------------
# Tableau automaton for Definition 2

def to_core(f, pidx):
    """Core syntax: p c not and or imp iff xor X U (F, G, V, xnor rewritten)."""
    op = f[0]
    if op == "prop":
        return ("p", pidx[f[1]])
    if op == "const":
        return ("c", f[1])
    if op == "not":
        return ("not", to_core(f[1], pidx))
    if op == "X":
        return ("X", to_core(f[1], pidx))
    if op == "F":
        return ("U", ("c", True), to_core(f[1], pidx))
    if op == "G":
        return ("not", ("U", ("c", True), ("not", to_core(f[1], pidx))))
    a = to_core(f[1], pidx)
    b = to_core(f[2], pidx)
    if op == "V":
        return ("not", ("U", ("not", a), ("not", b)))
    if op == "xnor":
        return ("iff", a, b)
    return (op, a, b)


class Tableau:
    """States: a letter (bits 0..P-1) and a truth value for every
    elementary X-formula (X psi, and X(psi U chi) for each until); every
    subformula's value follows from these by the expansion laws.  s -> s'
    iff each X psi of s equals psi's value in s'.  Fairness: for each
    psi U chi, infinitely often !(psi U chi) | chi.  Every word has exactly
    one fair run, and it labels each state with the true values, so the
    fair runs starting with phi true (false) accept exactly L(phi)
    (L(!phi))."""

    def __init__(self, f, pidx):
        self.P = P = len(pidx)
        core = to_core(f, pidx)
        nodes, index = [], {}

        def visit(n):
            if n in index:
                return
            for c in n[1:]:
                if isinstance(c, tuple):
                    visit(c)
            index[n] = len(nodes)
            nodes.append(n)
        visit(core)
        for n in list(nodes):
            if n[0] == "U":
                visit(("X", n))
        xs = [n for n in nodes if n[0] == "X"]
        xbit = {n: i for i, n in enumerate(xs)}
        self.nx = nx = len(xs)
        N = 1 << (P + nx)
        self.nstates = N
        if N > (1 << 16):
            raise InputError("formula too large for the reference tableau")
        full = (1 << N) - 1
        # bit-parallel over states: vals[node] = bitmask over states
        def state_mask(bit):
            # the states whose bit `bit` is set
            block = 1 << bit
            m = ((1 << block) - 1) << block
            length = 2 * block
            while length < N:
                m |= m << length
                length *= 2
            return m & full
        vals = {}
        for n in nodes:
            op = n[0]
            if op == "p":
                v = state_mask(n[1])
            elif op == "c":
                v = full if n[1] else 0
            elif op == "not":
                v = full & ~vals[n[1]]
            elif op == "X":
                v = state_mask(P + xbit[n])
            elif op == "U":
                v = vals[n[2]] | (vals[n[1]] & state_mask(P + xbit[("X", n)]))
            else:
                a, b = vals[n[1]], vals[n[2]]
                v = {"and": a & b, "or": a | b, "imp": (full & ~a) | b,
                     "iff": full & ~(a ^ b), "xor": a ^ b}[op]
            vals[n] = v
        # req[s] = X-part a predecessor of s must have
        argmasks = [vals[x[1]] for x in xs]
        req = [0] * N
        for s in range(N):
            r = 0
            for i, am in enumerate(argmasks):
                if (am >> s) & 1:
                    r |= 1 << i
            req[s] = r
        self.req = req
        L = 1 << P
        # states with a given X-part r: r << P | letter, letter in 0..L-1
        by_req = {}
        for s in range(N):
            by_req.setdefault(req[s], []).append(s)
        fairsets = [full & (~vals[n] | vals[n[2]]) for n in nodes if n[0] == "U"]
        fair = self._fair_states(N, P, L, req, by_req, fairsets)
        self.fair = fair
        phi = vals[core]
        self.fairsets = fairsets
        self.phi_mask = phi
        # Deterministic automaton over sets R of X-parts (the X-parts of the
        # fair states the runs can be in after the prefix read so far).
        self.init = [[0] * L, [0] * L]    # [neg/pos][letter] -> R
        self.nxt = [dict() for _ in range(L)]   # letter -> {r: R'}
        for s in range(N):
            if not (fair >> s) & 1:
                continue
            a = s & (L - 1)
            x = s >> P
            self.init[(phi >> s) & 1][a] |= 1 << x
            d = self.nxt[a]
            d[req[s]] = d.get(req[s], 0) | (1 << x)
        self.cache = {}

    @staticmethod
    def _fair_states(N, P, L, req, by_req, fairsets):
        # successors of s: by_req[s >> P] (all states whose req is s's X-part)
        succ_of_x = lambda s: by_req.get(s >> P, ())
        index = [-1] * N
        low = [0] * N
        onstack = [False] * N
        stack = []
        counter = 0
        good = []
        for root in range(N):
            if index[root] >= 0:
                continue
            work = [(root, iter(succ_of_x(root)))]
            index[root] = low[root] = counter
            counter += 1
            stack.append(root)
            onstack[root] = True
            while work:
                v, it = work[-1]
                advanced = False
                for w in it:
                    if index[w] < 0:
                        index[w] = low[w] = counter
                        counter += 1
                        stack.append(w)
                        onstack[w] = True
                        work.append((w, iter(succ_of_x(w))))
                        advanced = True
                        break
                    elif onstack[w]:
                        if index[w] < low[v]:
                            low[v] = index[w]
                if advanced:
                    continue
                work.pop()
                if work:
                    u = work[-1][0]
                    if low[v] < low[u]:
                        low[u] = low[v]
                if low[v] == index[v]:
                    comp = []
                    while True:
                        w = stack.pop()
                        onstack[w] = False
                        comp.append(w)
                        if w == v:
                            break
                    cm = 0
                    for w in comp:
                        cm |= 1 << w
                    nontrivial = len(comp) > 1 or (req[v] == v >> P)
                    if nontrivial and all(cm & fs for fs in fairsets):
                        good.extend(comp)
        # backward closure: predecessors of s' are the states with X-part req[s']
        fair = 0
        done_x = set()
        queue = list(good)
        for s in good:
            fair |= 1 << s
        while queue:
            s = queue.pop()
            r = req[s]
            if r in done_x:
                continue
            done_x.add(r)
            for a in range(L):
                p = (r << P) | a
                if not (fair >> p) & 1:
                    fair |= 1 << p
                    queue.append(p)
        return fair

    def step(self, R, a, pos=True):
        """R after reading letter a; R None = nothing read yet."""
        if R is None:
            return self.init[1 if pos else 0][a]
        if R == 0:
            return 0
        key = (R, a)
        c = self.cache.get(key)
        if c is not None:
            return c
        d = self.nxt[a]
        out = 0
        r = R
        while r:
            low = r & -r
            x = low.bit_length() - 1
            out |= d.get(x, 0)
            r ^= low
        self.cache[key] = out
        return out

    def run(self, letters, pos=True):
        R = None
        for a in letters:
            R = self.step(R, a, pos)
            if R == 0:
                return 0
        return R

    def value(self, letters):
        """Definition 2 on a non-empty finite word: 'T', 'F' or '?'."""
        if self.run(letters, True) == 0:
            return "F"
        if self.run(letters, False) == 0:
            return "T"
        return "?"

    def lasso_accepts(self, word, loop):
        """Automaton-based lasso check, independent of lasso_eval and of
        the fair-state computation (used by selftest): is there a run of
        the product of the (unpruned) tableau with the lasso, starting with
        phi true, that ends in a cycle meeting every fairness set?"""
        P = self.P
        m = len(word)
        nodes = [(j, (x << P) | word[j]) for j in range(m) for x in range(1 << self.nx)]

        def succ(n):
            j, s = n
            j2 = j + 1 if j + 1 < m else loop
            x = s >> P
            return [(j2, s2) for s2 in ((x2 << P) | word[j2] for x2 in range(1 << self.nx))
                    if self.req[s2] == x]
        reach = {}
        for n in nodes:
            seen = set()
            st = [n]
            while st:
                u = st.pop()
                for w in succ(u):
                    if w not in seen:
                        seen.add(w)
                        st.append(w)
            reach[n] = seen          # reachable in one or more steps

        def in_good_cycle(n):
            if n not in reach[n]:
                return False
            comp = [w for w in reach[n] if n in reach[w]]
            return all(any((fs >> w[1]) & 1 for w in comp) for fs in self.fairsets)
        good = {n for n in nodes if in_good_cycle(n)}
        for x in range(1 << self.nx):
            s = (x << P) | word[0]
            if (self.phi_mask >> s) & 1 and ((0, s) in good or reach[(0, s)] & good):
                return True
        return False


# ---------------------------------------------------------------------------
# The analysis

def submasks(m):
    s = m
    out = []
    while True:
        out.append(s)
        if s == 0:
            break
        s = (s - 1) & m
    return out


class Result:
    def __init__(self):
        self.status = None        # fails / holds / unknown
        self.first_failure = None
        self.loop = None
        self.causes = []          # list of (step, prop index)
        self.but_for = []         # causes critical already with A = {}
        self.nbottom = 0


def analyze(f, props, word, loop, naive=False, tableau=None):
    """f: AST; props: list of prop keys (index = bit); word: letters of the
    displayed states (without NuSMV's repeated last state); loop: l or None.
    Returns a Result (causes as (step, prop index))."""
    pidx = {p: i for i, p in enumerate(props)}
    T = tableau or Tableau(f, pidx)
    pol = polarities(f, pidx)
    res = Result()
    res.loop = loop
    m = len(word)
    if m == 0:
        raise InputError("empty trace")
    # first failure
    k = None
    if loop is None:
        R = None
        for j, a in enumerate(word):
            R = T.step(R, a)
            if R == 0:
                k = j
                break
    else:
        R = None
        seen = set()
        j = 0
        while True:
            pos = j if j < m else loop + (j - loop) % (m - loop)
            R = T.step(R, word[pos])
            if R == 0:
                k = j
                break
            if pos >= loop:
                key = (pos, R)
                if key in seen:
                    break
                seen.add(key)
            j += 1

    def letter_at(j):
        return word[j] if j < m else word[loop + (j - loop) % (m - loop)]

    if k is not None:
        res.status = "fails"
        res.first_failure = k
        letters = [letter_at(j) for j in range(k + 1)]
        bots = [bottom_mask(a, pol) for a in letters]
        res.nbottom = sum(bin(b).count("1") for b in bots)
        if naive:
            res.causes, res.but_for = finite_causes_naive(T, letters, bots)
        else:
            res.causes, res.but_for = finite_causes(T, letters, bots)
        return res
    if loop is None:
        res.status = "holds" if T.run(word, False) == 0 else "unknown"
        return res
    if lasso_sat(f, pidx, word, loop):
        res.status = "holds"
        return res
    res.status = "fails"
    bots = [bottom_mask(a, pol) for a in word]
    res.nbottom = sum(bin(b).count("1") for b in bots)
    res.causes, res.but_for = lasso_causes(f, pidx, word, loop, bots)
    return res


def finite_causes(T, letters, bots):
    """Definition 4 for the failure at k = len(letters) - 1.  For candidate
    <i,v>, the contingencies A correspond exactly to the words w with
    w[j] = letters[j] ^ (a subset of bots[j]), v unflipped at i; <i,v> is a
    cause iff for some such w, w[0..k] is FALSE and w with v flipped at i is
    not.  Searched layer by layer over pairs of automaton states."""
    k = len(letters) - 1
    allowed = [[a ^ f for f in submasks(b)] for a, b in zip(letters, bots)]
    fwd = [{None}]
    for j in range(k + 1):
        fwd.append({T.step(R, a) for R in fwd[j] for a in allowed[j]})
    causes, but_for = [], []
    for i in range(k + 1):
        for v in range(T.P):
            bit = 1 << v
            if not bots[i] & bit:
                continue
            pairs = set()
            for R in fwd[i]:
                for a in allowed[i]:
                    if (a ^ letters[i]) & bit:
                        continue
                    B = T.step(R, a ^ bit)
                    if B:
                        pairs.add((T.step(R, a), B))
            for j in range(i + 1, k + 1):
                if not pairs:
                    break
                new = set()
                for (A, B) in pairs:
                    for b in allowed[j]:
                        B2 = T.step(B, b)
                        if B2:
                            new.add((T.step(A, b), B2))
                pairs = new
            if any(A == 0 for A, _ in pairs):
                causes.append((i, v))
                w = list(letters)
                w[i] ^= bit
                if T.run(w) != 0:
                    but_for.append((i, v))
    return causes, but_for


def finite_causes_naive(T, letters, bots):
    """Literal Definition 4: every subset A of the bottom-valued pairs."""
    B = [(j, v) for j in range(len(letters)) for v in range(T.P) if bots[j] >> v & 1]
    nb = len(B)
    if nb > 22:
        raise InputError("too many bottom-valued pairs for --naive")
    false = bytearray(1 << nb)
    for mask in range(1 << nb):
        w = list(letters)
        for t in range(nb):
            if mask >> t & 1:
                j, v = B[t]
                w[j] ^= 1 << v
        false[mask] = T.run(w) == 0
    return _causes_from_table(B, false)


def _causes_from_table(B, false):
    causes, but_for = [], []
    n = 1 << len(B)
    for t, pair in enumerate(B):
        bit = 1 << t
        for mask in range(n):
            if not mask & bit and false[mask] and not false[mask | bit]:
                causes.append(pair)
                break
        if false[0] and not false[bit]:
            but_for.append(pair)
    return sorted(causes), sorted(but_for)


def lasso_causes(f, pidx, word, loop, bots):
    """Infinite failure: pairs at displayed positions 0..m-1; flipping a
    loop position flips it in every round.  Every subset A of the
    bottom-valued pairs is tried."""
    m = len(word)
    P = len(pidx)
    full = (1 << m) - 1
    B = [(j, v) for j in range(m) for v in range(P) if bots[j] >> v & 1]
    nb = len(B)
    if nb > 22:
        raise InputError("too many bottom-valued pairs (%d) for the lasso search" % nb)
    base = [0] * P
    for j, a in enumerate(word):
        for v in range(P):
            if a >> v & 1:
                base[v] |= 1 << j
    false = bytearray(1 << nb)
    # Gray-code walk: one flip per step
    pb = list(base)
    mask = 0
    for g in range(1 << nb):
        if g:
            t = (g & -g).bit_length() - 1
            mask ^= 1 << t
            j, v = B[t]
            pb[v] ^= 1 << j
        false[mask] = not (_lasso_eval(f, pidx, pb, m, loop, full) & 1)
    return _causes_from_table(B, false)

# ---------------------------------------------------------------------------
# NuSMV counterexample files

class Spec:
    def __init__(self, text, kind, verdict, line):
        self.text = text          # formula text as printed
        self.kind = kind          # specification / invariant
        self.verdict = verdict    # "true" / "false"
        self.line = line
        self.states = []          # list of dict var -> value (displayed)
        self.loop_marks = []      # displayed indices with a loop marker
        self.ctl = False


def read_nusmv(path):
    with open(path) as fh:
        lines = fh.read().split("\n")
    specs = []
    cur = None
    in_input = False
    pending_loop = False
    spec_re = re.compile(r"^-- (specification|invariant) (.*?)\s+is (true|false)\s*$")
    state_re = re.compile(r"^\s*-> State: (\d+)\.(\d+) <-\s*$")
    input_re = re.compile(r"^\s*-> Input: (\d+)\.(\d+) <-\s*$")
    asg_re = re.compile(r"^\s*([^=\s][^=]*?)\s*=\s*(\S+)\s*$")
    for ln, line in enumerate(lines, 1):
        m = spec_re.match(line)
        if m:
            cur = Spec(m.group(2), m.group(1), m.group(3), ln)
            specs.append(cur)
            in_input = False
            pending_loop = False
            continue
        if cur is None:
            continue
        if line.startswith("Trace Description:") and "CTL" in line:
            cur.ctl = True
            continue
        if re.match(r"^\s*-- Loop starts here", line):
            pending_loop = True
            continue
        m = state_re.match(line)
        if m:
            prev = dict(cur.states[-1]) if cur.states else {}
            if pending_loop:
                cur.loop_marks.append(len(cur.states))
                pending_loop = False
            cur.states.append(prev)
            in_input = False
            continue
        if input_re.match(line):
            in_input = True
            continue
        if line.startswith("--") or line.startswith("***") or line.startswith("Trace ") \
                or not line.strip():
            continue
        m = asg_re.match(line)
        if m and cur.states and not in_input:
            cur.states[-1][m.group(1)] = parse_value(m.group(2))
            continue
        if m and in_input:
            continue
        if cur.states or line.startswith(" "):
            raise InputError("%s:%d: cannot read %r" % (path, ln, line))
    return specs


def prop_value(prop, state):
    var, op, val = prop
    if var not in state:
        raise InputError("variable %s not in the trace" % var)
    x = state[var]
    if op is None:
        if not isinstance(x, bool):
            raise InputError("variable %s is not Boolean" % var)
        return x
    if op == "=":
        return x == val
    if op == "!=":
        return x != val
    if not isinstance(x, int) or not isinstance(val, int):
        raise InputError("ordered comparison of non-integers in %s" % var)
    return {"<": x < val, "<=": x <= val, ">": x > val, ">=": x >= val}[op]


def explain_spec(spec, naive=False):
    """The JSON record (dict) for one Spec, or None if skipped."""
    text = spec.text
    if spec.kind == "invariant":
        text = "G (%s)" % text
    try:
        f = parse_formula(text)
    except SkipSpec:
        return None
    if spec.ctl:
        return None
    rec = {"formula": text}
    if spec.verdict == "true" and not spec.states:
        rec.update(holds=True, first_failure=None, loop_start=None, causes=[],
                   status="holds")
        return rec
    props = props_of(f)
    states = spec.states
    loop = None
    if spec.loop_marks:
        loop = spec.loop_marks[-1]
        if loop >= len(states) - 1:
            raise InputError("loop marker without a repeated state")
        states = states[:-1]      # NuSMV repeats the loop start at the end
    if not states:
        raise InputError("specification %r has no trace" % text)
    word = []
    for st in states:
        a = 0
        for i, p in enumerate(props):
            if prop_value(p, st):
                a |= 1 << i
        word.append(a)
    if loop is not None:
        last = spec.states[-1]
        if any(prop_value(p, last) != prop_value(p, spec.states[loop]) for p in props):
            raise InputError("last state does not repeat the loop start")
    r = analyze(f, props, word, loop, naive=naive)
    causes = sorted({(j, props[p][0]) for j, p in r.causes})
    rec.update(holds=r.status == "holds", first_failure=r.first_failure,
               loop_start=loop, causes=[list(c) for c in causes], status=r.status,
               shown_states=len(states))
    return rec


def explain_file(path, naive=False):
    specs = read_nusmv(path)
    out = []
    for s in specs:
        rec = explain_spec(s, naive=naive)
        if rec is None:
            print("reference.py: %s:%d: skipping CTL specification" % (path, s.line),
                  file=sys.stderr)
            continue
        out.append(rec)
    return out


def main(argv):
    args = [a for a in argv[1:] if not a.startswith("--")]
    naive = "--naive" in argv
    if len(args) != 1:
        print("usage: reference.py FILE.smv [--naive]", file=sys.stderr)
        return 2
    try:
        recs = explain_file(args[0], naive=naive)
    except (InputError, OSError) as e:
        print("reference.py: %s" % e, file=sys.stderr)
        return 1
    for r in recs:
        print(json.dumps(r))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
