"""LTL for the temporal-causality oracle (stdlib only).

* parse(text): Spot's LTL syntax into a tuple AST.
    atoms: identifiers ([A-Za-z_][A-Za-z0-9_.]*, not an operator word) or
           "double quoted"; true/1, false/0
    unary: ! ~ X F G [] <>       (bind tighter than every binary operator;
                                  ! tightest, then X, then F/G)
    binary, loosest first:  -> => <-> <=> (right-assoc, one level)
                            | || \\/ + ;  xor ^ ;  & && /\\ * ;
                            U R V W M (right-assoc)
  This is Spot's precedence table (its parser's %left/%right list).
* holds(ast, prefix, cycle): truth of a formula at position 0 of the lasso
  word prefix.cycle^omega (letters are sets of AP names), by fixpoints
  computed directly on the AST -- no automaton involved.  Used to check the
  tableau below and every witness the oracle produces.
* Tableau(ast, ap_index): a transition-based generalised Buchi automaton for
  the formula (states are sets of NNF obligations; one acceptance mark per
  U-subformula; a transition carries mark j unless it postponed U-formula
  j).  Letters are bit masks over the system's AP indices.
"""

import re

# ---------------------------------------------------------------- parsing

_TOK = re.compile(r"""
    \s*(?:
      (?P<lp>\() | (?P<rp>\)) |
      (?P<eq><->|<=>|<-->) | (?P<imp>->|=>|-->) |
      (?P<box>\[\]) | (?P<dia><>) |
      (?P<or>\|\||\||\\/|\+) | (?P<and>&&|&|/\\|\*) | (?P<xor>\^) |
      (?P<not>!|~) |
      (?P<q>"[^"]*") |
      (?P<id>[A-Za-z_][A-Za-z0-9_.]*) |
      (?P<num>[01])
    )""", re.X)

_UNARY_WORDS = {'X': 'X', 'F': 'F', 'G': 'G'}
_BIN_WORDS = {'U': 'U', 'R': 'R', 'V': 'R', 'W': 'W', 'M': 'M'}


class LTLError(ValueError):
    pass


def _tokens(s):
    out = []
    pos = 0
    s = s.rstrip()
    while pos < len(s):
        m = _TOK.match(s, pos)
        if not m or m.end() == pos:
            raise LTLError("cannot read LTL at %r" % s[pos:pos + 20])
        pos = m.end()
        kind = m.lastgroup
        val = m.group(kind)
        if kind == 'id':
            if val in _UNARY_WORDS:
                out.append(('un', _UNARY_WORDS[val]))
            elif val in _BIN_WORDS:
                out.append(('bin', _BIN_WORDS[val]))
            elif val in ('true',):
                out.append(('const', True))
            elif val in ('false',):
                out.append(('const', False))
            elif val == 'xor':
                out.append(('xor', val))
            else:
                out.append(('ap', val))
        elif kind == 'q':
            out.append(('ap', val[1:-1]))
        elif kind == 'num':
            out.append(('const', val == '1'))
        elif kind == 'box':
            out.append(('un', 'G'))
        elif kind == 'dia':
            out.append(('un', 'F'))
        elif kind == 'not':
            out.append(('un', '!'))
        else:
            out.append((kind, val))
    out.append(('eof', None))
    return out


class _Parser:
    def __init__(self, text):
        self.t = _tokens(text)
        self.i = 0

    def peek(self):
        return self.t[self.i]

    def next(self):
        tok = self.t[self.i]
        self.i += 1
        return tok

    def parse(self):
        f = self.equiv()
        if self.peek()[0] != 'eof':
            raise LTLError("unexpected %r" % (self.peek()[1],))
        return f

    def equiv(self):                       # -> <-> : right-assoc, one level
        left = self.orr()
        k = self.peek()[0]
        if k in ('imp', 'eq'):
            self.next()
            right = self.equiv()
            return ('->' if k == 'imp' else '<->', left, right)
        return left

    def orr(self):
        f = self.xor()
        while self.peek()[0] == 'or':
            self.next()
            f = ('|', f, self.xor())
        return f

    def xor(self):
        f = self.andd()
        while self.peek()[0] == 'xor':
            self.next()
            f = ('xor', f, self.andd())
        return f

    def andd(self):
        f = self.until()
        while self.peek()[0] == 'and':
            self.next()
            f = ('&', f, self.until())
        return f

    def until(self):                       # U R W M: right-assoc
        left = self.unary()
        if self.peek()[0] == 'bin':
            op = self.next()[1]
            right = self.until()
            return (op, left, right)
        return left

    def unary(self):
        tok = self.peek()
        if tok[0] == 'un':
            self.next()
            return (tok[1], self.unary())
        return self.atom()

    def atom(self):
        tok = self.next()
        if tok[0] == 'lp':
            f = self.equiv()
            if self.next()[0] != 'rp':
                raise LTLError("missing )")
            return f
        if tok[0] == 'ap':
            return ('ap', tok[1])
        if tok[0] == 'const':
            return ('true',) if tok[1] else ('false',)
        raise LTLError("unexpected %r" % (tok[1],))


def parse(text):
    if not text or not text.strip():
        raise LTLError("empty formula")
    return _Parser(text).parse()


def aps(f, acc=None):
    if acc is None:
        acc = set()
    if f[0] == 'ap':
        acc.add(f[1])
    for sub in f[1:]:
        if isinstance(sub, tuple):
            aps(sub, acc)
    return acc


_PREC = {'->': 1, '<->': 1, '|': 2, 'xor': 3, '&': 4, 'U': 5, 'R': 5, 'W': 5, 'M': 5}


def to_str(f):
    """Fully parenthesised Spot syntax (round-trips through parse)."""
    op = f[0]
    if op == 'ap':
        return f[1] if re.fullmatch(r'[a-z_][A-Za-z0-9_]*', f[1]) and \
            f[1] not in ('true', 'false', 'xor') else '"%s"' % f[1]
    if op == 'true':
        return 'true'
    if op == 'false':
        return 'false'
    if op in ('!', 'X', 'F', 'G'):
        inner = to_str(f[1])
        if f[1][0] in _PREC:
            inner = '(' + inner + ')'
        return op + ' ' + inner if op != '!' else '!' + inner
    return '(' + to_str(f[1]) + ' ' + op + ' ' + to_str(f[2]) + ')'


def size(f):
    """Number of operators."""
    if f[0] in ('ap', 'true', 'false'):
        return 0
    return 1 + sum(size(s) for s in f[1:])


# ------------------------------------------------- direct lasso evaluation

def holds(f, prefix, cycle):
    """Truth of f at position 0 of prefix.cycle^omega (letters: sets of
    AP names)."""
    word = list(prefix) + list(cycle)
    n = len(word)
    if not cycle:
        raise ValueError("empty cycle")
    succ = [i + 1 for i in range(n)]
    succ[-1] = len(prefix)
    memo = {}

    def ev(g):
        if g in memo:
            return memo[g]
        op = g[0]
        if op == 'true':
            r = [True] * n
        elif op == 'false':
            r = [False] * n
        elif op == 'ap':
            r = [g[1] in word[i] for i in range(n)]
        elif op == '!':
            a = ev(g[1])
            r = [not x for x in a]
        elif op in ('&', '|', '->', '<->', 'xor'):
            a, b = ev(g[1]), ev(g[2])
            fn = {'&': lambda x, y: x and y, '|': lambda x, y: x or y,
                  '->': lambda x, y: (not x) or y,
                  '<->': lambda x, y: x == y, 'xor': lambda x, y: x != y}[op]
            r = [fn(a[i], b[i]) for i in range(n)]
        elif op == 'X':
            a = ev(g[1])
            r = [a[succ[i]] for i in range(n)]
        else:
            # fixpoints: val = base(i) or (step(i) and val[succ i])  (least)
            #            val = base(i) and (step(i) or val[succ i])  (greatest)
            if op == 'F':
                b = ev(g[1]); a = [True] * n; least = True
            elif op == 'G':
                b = ev(g[1]); a = [False] * n; least = False
            elif op == 'U':
                a, b = ev(g[1]), ev(g[2]); least = True
            elif op == 'M':      # a M b = b U (a & b)
                x, y = ev(g[1]), ev(g[2])
                a = y; b = [x[i] and y[i] for i in range(n)]; least = True
            elif op == 'R':      # gfp: b & (a | X val)
                a, b = ev(g[1]), ev(g[2]); least = False
            elif op == 'W':      # a W b = gfp: b | (a & X val)
                a, b = ev(g[1]), ev(g[2])
                r = [True] * n
                for _ in range(n + 1):
                    r = [b[i] or (a[i] and r[succ[i]]) for i in range(n)]
                memo[g] = r
                return r
            else:
                raise LTLError("unknown operator %r" % (op,))
            if least:
                r = [False] * n
                for _ in range(n + 1):
                    r = [b[i] or (a[i] and r[succ[i]]) for i in range(n)]
            else:
                r = [True] * n
                for _ in range(n + 1):
                    r = [b[i] and (a[i] or r[succ[i]]) for i in range(n)]
        memo[g] = r
        return r

    return ev(f)[0]


# --------------------------------------------------------- NNF and tableau

def nnf(f, neg=False):
    """Negation normal form over true false ap nap & | X U R."""
    op = f[0]
    if op == 'true':
        return ('false',) if neg else ('true',)
    if op == 'false':
        return ('true',) if neg else ('false',)
    if op == 'ap':
        return ('nap', f[1]) if neg else ('ap', f[1])
    if op == '!':
        return nnf(f[1], not neg)
    if op == '&':
        return (('|' if neg else '&'), nnf(f[1], neg), nnf(f[2], neg))
    if op == '|':
        return (('&' if neg else '|'), nnf(f[1], neg), nnf(f[2], neg))
    if op == '->':
        return nnf(('|', ('!', f[1]), f[2]), neg)
    if op == '<->':
        a, b = f[1], f[2]
        return nnf(('|', ('&', a, b), ('&', ('!', a), ('!', b))), neg)
    if op == 'xor':
        a, b = f[1], f[2]
        return nnf(('|', ('&', a, ('!', b)), ('&', ('!', a), b)), neg)
    if op == 'X':
        return ('X', nnf(f[1], neg))
    if op == 'F':
        return nnf(('U', ('true',), f[1]), neg)
    if op == 'G':
        return nnf(('R', ('false',), f[1]), neg)
    if op == 'U':
        if neg:
            return ('R', nnf(f[1], True), nnf(f[2], True))
        return ('U', nnf(f[1]), nnf(f[2]))
    if op == 'R':
        if neg:
            return ('U', nnf(f[1], True), nnf(f[2], True))
        return ('R', nnf(f[1]), nnf(f[2]))
    if op == 'W':        # a W b = b R (a | b)
        return nnf(('R', f[2], ('|', f[1], f[2])), neg)
    if op == 'M':        # a M b = b U (a & b)
        return nnf(('U', f[2], ('&', f[1], f[2])), neg)
    raise LTLError("unknown operator %r" % (op,))


def _untils(f, acc):
    if f[0] == 'U' and f not in acc:
        acc.append(f)
    for sub in f[1:]:
        if isinstance(sub, tuple):
            _untils(sub, acc)
    return acc


class Tableau:
    """Transition-based generalised Buchi automaton of an LTL formula.

    States are frozensets of NNF formulas (obligations for the current
    position); the initial state is {nnf(f)}.  step(state, letter) yields
    (next_state, marks) for a letter given as a bit mask over AP indices;
    marks has bit j set unless the transition postponed self.untils[j].
    A run is accepting iff every mark occurs infinitely often.
    """

    def __init__(self, f, ap_index):
        self.root = nnf(f)
        self.ap_index = ap_index
        self.untils = _untils(self.root, [])
        self.uidx = {u: j for j, u in enumerate(self.untils)}
        self.all_marks = (1 << len(self.untils)) - 1
        self.init = frozenset([self.root])
        self._exp = {}
        self._step = {}

    def expand(self, state):
        """List of (pos_mask, neg_mask, next_state, marks)."""
        if state in self._exp:
            return self._exp[state]
        res = set()
        idx = self.ap_index

        def rec(todo, done, pos, neg, nxt, post):
            while todo:
                g = todo[-1]
                todo = todo[:-1]
                if g in done:
                    continue
                done = done | {g}
                op = g[0]
                if op == 'true':
                    continue
                if op == 'false':
                    return
                if op == 'ap':
                    bit = 1 << idx[g[1]]
                    if neg & bit:
                        return
                    pos |= bit
                    continue
                if op == 'nap':
                    bit = 1 << idx[g[1]]
                    if pos & bit:
                        return
                    neg |= bit
                    continue
                if op == '&':
                    todo = todo + [g[1], g[2]]
                    continue
                if op == 'X':
                    nxt = nxt | {g[1]}
                    continue
                if op == '|':
                    rec(todo + [g[1]], done, pos, neg, nxt, post)
                    rec(todo + [g[2]], done, pos, neg, nxt, post)
                    return
                if op == 'U':
                    rec(todo + [g[2]], done, pos, neg, nxt, post)
                    rec(todo + [g[1]], done, pos, neg, nxt | {g},
                        post | (1 << self.uidx[g]))
                    return
                if op == 'R':
                    rec(todo + [g[1], g[2]], done, pos, neg, nxt, post)
                    rec(todo + [g[2]], done, pos, neg, nxt | {g}, post)
                    return
                raise LTLError("bad NNF node %r" % (op,))
            res.add((pos, neg, frozenset(nxt), self.all_marks & ~post))

        rec(list(state), frozenset(), 0, 0, frozenset(), 0)
        out = sorted(res, key=lambda t: (t[0], t[1], sorted(map(repr, t[2])), t[3]))
        self._exp[state] = out
        return out

    def step(self, state, letter):
        key = (state, letter)
        r = self._step.get(key)
        if r is None:
            seen = set()
            r = []
            for pos, neg, nxt, marks in self.expand(state):
                if pos & ~letter or neg & letter:
                    continue
                if (nxt, marks) not in seen:
                    seen.add((nxt, marks))
                    r.append((nxt, marks))
            self._step[key] = r
        return r
