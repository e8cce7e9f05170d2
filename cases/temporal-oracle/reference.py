#!/usr/bin/env python3
"""Independent reference for `pancause temporal` (stdlib only).

Decides membership of an input lasso sigma in the temporal cause of an
LTL effect E on a lasso trace pi of a system (Finkbeiner, Frenkel, Metzger,
Siber, "Synthesis of Temporal Causality", CAV 2024, Sect. 5.1):

    D = { rho in (2^I)^omega | for all system traces tau:
                               tau|I <=_pi rho  implies  tau |= E }

D is the cause if pi|I is in D, and there is no cause otherwise (then D is
empty).  sigma is NOT in D iff some sigma' <=_pi sigma has a system run whose
trace violates E.  That is decided exactly by an accepting-cycle search
(Tarjan SCCs) in the finite product

    (position in pi, position in sigma) x system state x tableau state of !E
    [x phase bit, for the relation `full`]

whose edges choose sigma'(k) among the letters allowed by the relation at
the joint position k, a system edge readable with sigma'(k) (the letter is
sigma'(k) plus the edge's outputs), and a tableau transition on that letter.

Usage:
  reference.py --system SYS.hoa --trace T --effect E [--relation subset|full]
               (--member LASSO [--witness] | --enumerate N | --info)
"""

import argparse
import itertools
import json
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True

import hoa  # noqa: E402
import ltl  # noqa: E402


class InputError(ValueError):
    pass


# ------------------------------------------------------------------ system

class System:
    """A Mealy machine read from HOA: a trace is the sequence of letters
    (full valuations of the APs) satisfying the labels of the edges of an
    infinite run.  Letters are bit masks over the HOA's AP indices."""

    def __init__(self, aut):
        if aut.acc[0] != 't':
            raise InputError("system acceptance must be `t` (every run accepted)")
        if aut.controllable is None:
            raise InputError("system has no controllable-AP: line")
        self.aut = aut
        self.aps = list(aut.aps)
        self.index = {a: i for i, a in enumerate(self.aps)}
        if len(self.index) != len(self.aps):
            raise InputError("duplicate AP names")
        self.outputs = sorted(set(aut.controllable))
        for o in self.outputs:
            if o >= len(self.aps):
                raise InputError("controllable-AP index out of range")
        self.inputs = [i for i in range(len(self.aps)) if i not in self.outputs]
        self.in_mask = sum(1 << i for i in self.inputs)
        self.out_mask = sum(1 << i for i in self.outputs)
        self.nstates = aut.nstates
        self.start = list(dict.fromkeys(aut.start))
        if not self.start:
            raise InputError("system has no initial state")
        # succ[q][input valuation] = list of (output valuation, dst)
        self.in_vals = [self.spread(k, self.inputs) for k in range(1 << len(self.inputs))]
        self.out_vals = [self.spread(k, self.outputs) for k in range(1 << len(self.outputs))]
        self.succ = []
        for q in range(self.nstates):
            table = {}
            for iv in self.in_vals:
                lst = []
                for ov in self.out_vals:
                    for lab, dst, _ in aut.edges.get(q, []):
                        if hoa.eval_label(lab, iv | ov) and (ov, dst) not in lst:
                            lst.append((ov, dst))
                table[iv] = lst
            self.succ.append(table)

    @staticmethod
    def spread(k, idxs):
        m = 0
        for j, i in enumerate(idxs):
            if k >> j & 1:
                m |= 1 << i
        return m

    def input_enabled(self):
        bad = []
        for q in range(self.nstates):
            for iv in self.in_vals:
                if not self.succ[q][iv]:
                    bad.append((q, iv))
        return bad

    def names(self, mask):
        return {a for i, a in enumerate(self.aps) if mask >> i & 1}

    def letter_str(self, mask, which=None):
        """Conjunction of literals over the APs in `which` (default: inputs)."""
        idxs = self.inputs if which is None else which
        if not idxs:
            return 'true'
        return '&'.join(self.aps[i] if mask >> i & 1 else '!' + self.aps[i] for i in idxs)

    def lasso_str(self, prefix, cycle, which=None):
        parts = [self.letter_str(m, which) for m in prefix]
        parts.append('cycle{%s}' % ';'.join(self.letter_str(m, which) for m in cycle))
        return ';'.join(parts)


def load_system(path):
    try:
        return System(hoa.read(path))
    except hoa.HOAError as e:
        raise InputError("system: %s" % e)


# ------------------------------------------------------------ lasso words

def parse_word(text, system, inputs_only=False):
    """Spot word syntax -> (prefix, cycle); each letter (in_mask, out_pos,
    out_neg).  Unmentioned inputs are false, unmentioned outputs free."""
    text = text.strip()
    if 'cycle{' not in text or not text.endswith('}'):
        raise InputError("trace must end in cycle{...}: %r" % text)
    k = text.index('cycle{')
    pre = text[:k].strip()
    cyc = text[k + len('cycle{'):-1]
    if pre and not pre.endswith(';'):
        raise InputError("missing ';' before cycle{ in %r" % text)
    pre_letters = [p for p in pre[:-1].split(';')] if pre else []
    cyc_letters = cyc.split(';')
    if not cyc.strip():
        raise InputError("empty cycle in %r" % text)

    def letter(s):
        s = s.strip()
        if not s:
            raise InputError("empty letter in %r" % text)
        try:
            f = ltl.parse(s)
        except ltl.LTLError as e:
            raise InputError("letter %r: %s" % (s, e))
        pos, neg = 0, 0
        lits = []

        def conj(g):
            if g[0] == '&':
                conj(g[1])
                conj(g[2])
            elif g[0] == 'true':
                pass
            elif g[0] == 'ap':
                lits.append((g[1], True))
            elif g[0] == '!' and g[1][0] == 'ap':
                lits.append((g[1][1], False))
            else:
                raise InputError("letter %r is not a conjunction of literals" % s)
        conj(f)
        for name, val in lits:
            if name not in system.index:
                raise InputError("unknown AP %r in trace" % name)
            bit = 1 << system.index[name]
            if inputs_only and not bit & system.in_mask:
                raise InputError("%r is not an input" % name)
            if val:
                pos |= bit
            else:
                neg |= bit
        if pos & neg:
            raise InputError("contradictory letter %r" % s)
        return (pos & system.in_mask, pos & system.out_mask, neg & system.out_mask)

    return [letter(s) for s in pre_letters], [letter(s) for s in cyc_letters]


def parse_input_lasso(text, system):
    p, c = parse_word(text, system, inputs_only=True)
    return [l[0] for l in p], [l[0] for l in c]


def canonical(prefix, cycle):
    """Unique representation of prefix.cycle^omega: primitive cycle,
    shortest prefix."""
    prefix, cycle = list(prefix), list(cycle)
    n = len(cycle)
    for d in range(1, n + 1):
        if n % d == 0 and cycle == cycle[:d] * (n // d):
            cycle = cycle[:d]
            break
    while prefix and prefix[-1] == cycle[-1]:
        cycle = [prefix.pop()] + cycle[:-1]
    return tuple(prefix), tuple(cycle)


def enumerate_lassos(letters, maxlen):
    """All distinct ultimately periodic words with a representation of
    prefix+cycle length <= maxlen, canonical, ordered by (length, text)."""
    seen = set()
    out = []
    for total in range(1, maxlen + 1):
        for clen in range(1, total + 1):
            plen = total - clen
            for word in itertools.product(letters, repeat=total):
                key = canonical(word[:plen], word[plen:])
                if key not in seen:
                    seen.add(key)
                    out.append(key)
    out.sort(key=lambda k: (len(k[0]) + len(k[1]), len(k[1]), k))
    return out


def at(lasso, t):
    p, c = lasso
    return p[t] if t < len(p) else c[(t - len(p)) % len(c)]


def joint_bounds(*lassos):
    P = max(len(l[0]) for l in lassos)
    L = 1
    for l in lassos:
        L = L * len(l[1]) // math.gcd(L, len(l[1]))
    return P, L


def leq(relation, in_mask, pi, close, far):
    """close <=_pi far on input lassos (masks), straight from the
    definitions: subset = changes(pi, close) within changes(pi, far); full =
    subset and, for every input changed infinitely often by close, close and
    far agree on that input everywhere."""
    P, L = joint_bounds(pi, close, far)
    for t in range(P + L):
        a, c, f = at(pi, t), at(close, t), at(far, t)
        if (a ^ c) & ~(a ^ f) & in_mask:
            return False
    if relation == 'subset':
        return True
    bit = 1
    m = in_mask
    while m:
        if m & 1:
            inf = any((at(pi, t) ^ at(close, t)) & bit for t in range(P, P + L))
            if inf and any((at(close, t) ^ at(far, t)) & bit for t in range(P + L)):
                return False
        m >>= 1
        bit <<= 1
    return True


# ------------------------------------------------------------------ search

def _submasks(m):
    s = m
    while True:
        yield s
        if s == 0:
            return
        s = (s - 1) & m


def _accepting_cycle(init, succ_fn, tab, node_ok):
    """Explores the reachable graph from `init`; returns a witness (prefix
    edges, cycle edges) of an SCC with an internal edge, all tableau marks on
    internal edges and node_ok(node) -- or None.  Edges: (dst, marks, info)."""
    adj = {}
    order = []
    stack = list(dict.fromkeys(init))
    seen = set(stack)
    parent = {n: None for n in stack}
    while stack:
        u = stack.pop()
        order.append(u)
        out = succ_fn(u)
        adj[u] = out
        for v, _, info in out:
            if v not in seen:
                seen.add(v)
                parent[v] = (u, info)
                stack.append(v)
    full = tab.all_marks
    for comp in hoa._sccs(order, adj):
        if not node_ok(comp[0]):
            continue
        cset = set(comp)
        marks = 0
        internal = False
        for u in comp:
            for v, m, _ in adj[u]:
                if v in cset:
                    internal = True
                    marks |= m
        if internal and marks & full == full:
            return _witness(comp, cset, adj, parent, full)
    return None


def _witness(comp, cset, adj, parent, full):
    root = comp[0]
    pre = []
    n = root
    while parent[n] is not None:
        u, info = parent[n]
        pre.append((u, info, n))
        n = u
    pre.reverse()

    def bfs(src, goal):
        """shortest path inside the SCC from src to a node satisfying goal
        (an edge predicate); returns list of edges (u, info, v)."""
        from collections import deque
        prev = {src: None}
        dq = deque([src])
        while dq:
            u = dq.popleft()
            for v, m, info in adj[u]:
                if v not in cset:
                    continue
                if goal(u, v, m):
                    path = [(u, info, v, m)]
                    x = u
                    while prev[x] is not None:
                        pu, pinfo, pm = prev[x]
                        path.append((pu, pinfo, x, pm))
                        x = pu
                    path.reverse()
                    return path
                if v not in prev:
                    prev[v] = (u, info, m)
                    dq.append(v)
        return None

    cyc = []
    cur = root
    got = 0
    need = full
    while True:
        missing = need & ~got
        if missing:
            j = missing & -missing
            path = bfs(cur, lambda u, v, m, j=j: m & j)
        elif not cyc:
            path = bfs(cur, lambda u, v, m: True)
        else:
            path = None
        if path is None:
            break
        for u, info, v, m in path:
            cyc.append((u, info, v))
            got |= m
        cur = cyc[-1][2]
        if not (need & ~got):
            break
    if cur != root:
        back = bfs(cur, lambda u, v, m: v == root)
        cyc.extend((u, info, v) for u, info, v, m in back)
    return pre, cyc


class Reference:
    def __init__(self, system, trace, effect, relation='subset'):
        if relation not in ('subset', 'full'):
            raise InputError("relation must be subset or full")
        self.sys = system
        self.relation = relation
        self.trace = parse_word(trace, system)
        try:
            self.effect = ltl.parse(effect)
        except ltl.LTLError as e:
            raise InputError("effect: %s" % e)
        for a in ltl.aps(self.effect):
            if a not in system.index:
                raise InputError("unknown AP %r in effect" % a)
        self.neg = Tableau_cache(('!', self.effect), system.index)
        self.pos = Tableau_cache(self.effect, system.index)
        p, c = self.trace
        self.pi = canonical([l[0] for l in p], [l[0] for l in c])
        self._member = {}

    # -- the trace itself -------------------------------------------------
    def trace_runs(self):
        """(consistent, has_run_satisfying_E, has_run_violating_E) over the
        system runs whose letters agree with the trace (inputs exactly,
        outputs where the trace mentions them)."""
        p, c = self.trace
        word = p + c
        n, lp = len(word), len(p)

        def run_search(tab):
            def succ(node):
                pos, q, S = node
                iv, opos, oneg = word[pos]
                npos = pos + 1 if pos + 1 < n else lp
                out = []
                for ov, dst in self.sys.succ[q][iv]:
                    if ov & oneg or opos & ~ov:
                        continue
                    letter = iv | ov
                    for S2, m in tab.step(S, letter):
                        out.append(((npos, dst, S2), m, letter))
                return out
            init = [(0, q, tab.init) for q in self.sys.start]
            return _accepting_cycle(init, succ, tab, lambda n: True)

        class _True:
            all_marks = 0
            init = frozenset()

            @staticmethod
            def step(S, letter):
                return [(S, 0)]
        consistent = run_search(_True) is not None
        if not consistent:
            return False, False, False
        return True, run_search(self.pos) is not None, run_search(self.neg) is not None

    def effect_status(self):
        cons, sat, vio = self.trace_runs()
        if not cons:
            return 'inconsistent'
        if sat and not vio:
            return 'holds'
        if vio and not sat:
            return 'violated'
        return 'ambiguous'

    # -- membership -------------------------------------------------------
    def violation(self, sigma):
        """None if sigma is in D, else a witness dict: sigma' <=_pi sigma
        and a system run on sigma' violating E."""
        sigma = canonical(*sigma)
        pi = self.pi
        S = self.sys
        tab = self.neg
        lp_pi, n_pi = len(pi[0]), len(pi[0]) + len(pi[1])
        lp_sg, n_sg = len(sigma[0]), len(sigma[0]) + len(sigma[1])
        pw = list(pi[0]) + list(pi[1])
        sw = list(sigma[0]) + list(sigma[1])
        P, L = joint_bounds(pi, sigma)
        infdiff = 0
        for t in range(P, P + L):
            infdiff |= at(pi, t) ^ at(sigma, t)
        infdiff &= S.in_mask

        if self.relation == 'subset':
            ks = [None]
        else:
            ks = list(_submasks(infdiff))

        for K in ks:
            constrained = 0 if K is None else infdiff & ~K

            def succ(node, K=K, constrained=constrained):
                ip, isg, q, St, ph = node
                a, b = pw[ip], sw[isg]
                diff = (a ^ b) & S.in_mask
                nip = ip + 1 if ip + 1 < n_pi else lp_pi
                nis = isg + 1 if isg + 1 < n_sg else lp_sg
                if K is None:
                    base, free = a, diff
                else:
                    base = a ^ (diff & K)
                    free = diff & ~K
                    if ph == 1:
                        free &= ~constrained
                phs = (ph,) if ph == 1 else (0, 1)
                out = []
                for d in _submasks(free):
                    v = base ^ d
                    for ov, dst in S.succ[q][v]:
                        letter = v | ov
                        for St2, m in tab.step(St, letter):
                            for ph2 in phs:
                                out.append(((nip, nis, dst, St2, ph2), m, letter))
                return out

            ph0 = 0 if constrained else 1
            init = [(0, 0, q, tab.init, ph0) for q in S.start]
            w = _accepting_cycle(init, succ, tab, lambda n: n[4] == 1)
            if w is not None:
                pre, cyc = w
                return {
                    'K': K,
                    'run_states': [e[0][2] for e in pre] + [e[0][2] for e in cyc]
                    + [cyc[-1][2][2]],
                    'letters_prefix': [e[1] for e in pre],
                    'letters_cycle': [e[1] for e in cyc],
                }
        return None

    def member(self, sigma):
        key = canonical(*sigma)
        r = self._member.get(key)
        if r is None:
            r = self.violation(key) is None
            self._member[key] = r
        return r

    def cause_exists(self):
        return self.member(self.pi)

    # -- certificate check (independent of the search) ----------------------
    def check_witness(self, sigma, w):
        """Checks a violation witness with the definitions only: the run is
        a run of the HOA, its trace violates E (direct lasso evaluation),
        and its input sequence sigma' satisfies sigma' <=_pi sigma."""
        S = self.sys
        states = w['run_states']
        letters = w['letters_prefix'] + w['letters_cycle']
        k = len(w['letters_prefix'])
        if not w['letters_cycle']:
            return 'empty cycle'
        if states[0] not in S.start:
            return 'run does not start in an initial state'
        if states[-1] != states[k]:
            return 'run lasso does not close'
        for i, l in enumerate(letters):
            if not any(dst == states[i + 1] and hoa.eval_label(lab, l)
                       for lab, dst, _ in S.aut.edges.get(states[i], [])):
                return 'step %d is not an edge of the system' % i
        if ltl.holds(self.effect, [S.names(l) for l in w['letters_prefix']],
                     [S.names(l) for l in w['letters_cycle']]):
            return 'the run satisfies the effect'
        close = ([l & S.in_mask for l in w['letters_prefix']],
                 [l & S.in_mask for l in w['letters_cycle']])
        if not leq(self.relation, S.in_mask, self.pi, close, canonical(*sigma)):
            return "sigma' is not <=_pi sigma"
        return None


def Tableau_cache(f, index):
    return ltl.Tableau(f, index)


# --------------------------------------------------------------------- CLI

def build(args):
    system = load_system(args.system)
    bad = system.input_enabled()
    if bad:
        q, iv = bad[0]
        raise InputError("system is not input-enabled (state %d, input %s)"
                         % (q, system.letter_str(iv)))
    return Reference(system, args.trace, args.effect, args.relation)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--system', required=True)
    ap.add_argument('--trace', required=True)
    ap.add_argument('--effect', required=True)
    ap.add_argument('--relation', default='subset', choices=['subset', 'full'])
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument('--member', metavar='LASSO')
    g.add_argument('--enumerate', type=int, metavar='N')
    g.add_argument('--info', action='store_true')
    ap.add_argument('--witness', action='store_true',
                    help='with --member: print and check a violation witness')
    args = ap.parse_args(argv)
    try:
        ref = build(args)
        S = ref.sys
        if args.info:
            st = ref.effect_status()
            info = {'effect_on_trace': st,
                    'cause_exists': ref.cause_exists() if st != 'inconsistent' else False,
                    'inputs': [S.aps[i] for i in S.inputs],
                    'outputs': [S.aps[i] for i in S.outputs],
                    'pi_inputs': S.lasso_str(*ref.pi),
                    'tableau_marks': len(ref.neg.untils)}
            print(json.dumps(info))
            return 0
        if args.member is not None:
            sigma = canonical(*parse_input_lasso(args.member, S))
            w = ref.violation(sigma)
            print('true' if w is None else 'false')
            if w is not None and args.witness:
                ins = S.inputs
                print("sigma' = %s" % S.lasso_str(*canonical(
                    [l & S.in_mask for l in w['letters_prefix']],
                    [l & S.in_mask for l in w['letters_cycle']])))
                print("run    = %s" % S.lasso_str(
                    w['letters_prefix'], w['letters_cycle'],
                    list(range(len(S.aps)))))
                print("states = %s" % ' '.join(map(str, w['run_states'])))
                if w['K'] is not None:
                    print("kept   = {%s}" % ','.join(S.aps[i] for i in ins if w['K'] >> i & 1))
                err = ref.check_witness(sigma, w)
                print('witness check: %s' % ('ok' if err is None else 'FAILED: ' + err))
            return 0
        letters = S.in_vals
        for lasso in enumerate_lassos(letters, args.enumerate):
            print('%s\t%s' % (S.lasso_str(*lasso), 'true' if ref.member(lasso) else 'false'))
        return 0
    except InputError as e:
        print('reference: %s' % e, file=sys.stderr)
        return 1


if __name__ == '__main__':
    sys.exit(main())
