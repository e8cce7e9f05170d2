#!/usr/bin/env python3
"""Random small instances for `pancause temporal`.

    gen.py SEED N OUTDIR

writes OUTDIR/t<SEED>-<k>/{SYS.hoa,case.json} for k = 0..N-1; the same SEED
always gives the same instances.  A system is a Mealy machine in HOA with
1-4 states, 1-2 inputs (i0, i1) and 1-2 outputs (o0, o1), input-enabled,
in about a third of the instances nondeterministic (two edges for one
input, or an output left open on an edge); the AP order is sometimes
shuffled.  The trace is a real system trace: an input lasso (prefix 0-2,
cycle 1-2) and a run on it, written with its outputs (sometimes with some
or all outputs omitted, only when that does not change the verdict).  The
effect is a random LTL formula (<= 5 operators) over the outputs and
sometimes the inputs, printed in Spot syntax (fully parenthesised, or with
Spot's precedence and alternative spellings).

case.json: {"trace", "effect", "relation", "expect"} where expect is the
reference's verdict: "cause" (about 80 %), "no-cause" (an input-equivalent
system trace violates the effect) or "no-effect" (the trace violates the
effect: exit 3).  Most "cause" instances have a non-trivial cause.
"""

import json
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True

import hoa  # noqa: E402
import ltl  # noqa: E402
import reference as R  # noqa: E402


# ------------------------------------------------------------ label output

def _merge_cubes(cubes, nvars):
    """cubes: set of tuples over {0,1,None}; merges pairs that differ in one
    fixed variable until nothing changes (enough for <= 4 variables)."""
    cubes = set(cubes)
    changed = True
    while changed:
        changed = False
        for c in sorted(cubes, key=repr):
            for j in range(nvars):
                if c[j] is None:
                    continue
                d = list(c)
                d[j] = 1 - c[j]
                d = tuple(d)
                if d in cubes:
                    e = list(c)
                    e[j] = None
                    cubes.discard(c)
                    cubes.discard(d)
                    cubes.add(tuple(e))
                    changed = True
                    break
            if changed:
                break
    # drop cubes covered by others
    def covers(a, b):
        return all(x is None or x == y for x, y in zip(a, b))
    out = [c for c in cubes if not any(o != c and covers(o, c) for o in cubes)]
    return sorted(out, key=repr)


def label_text(valuations, idxs, rng):
    """DNF label (HOA syntax) for a set of full valuations (bit masks) over
    the AP indices idxs."""
    cubes = {tuple(v >> i & 1 for i in idxs) for v in valuations}
    cubes = _merge_cubes(cubes, len(idxs))
    terms = []
    for c in cubes:
        lits = [('%d' % i) if b == 1 else ('!%d' % i)
                for i, b in zip(idxs, c) if b is not None]
        terms.append('&'.join(lits) if lits else 't')
    if len(terms) == 1:
        return terms[0]
    return ' | '.join(('(%s)' % t) if '&' in t and rng.random() < 0.5 else t for t in terms)


# ---------------------------------------------------------- LTL printing

_LEVEL = {'->': 1, '<->': 1, '|': 2, 'xor': 3, '&': 4, 'U': 5, 'R': 5, 'W': 5, 'M': 5}
_RIGHT = {'->', '<->', 'U', 'R', 'W', 'M'}


def to_spot(f, rng):
    """Minimal parentheses by Spot's precedence, random alternative
    spellings."""
    op = f[0]
    if op == 'ap':
        return f[1]
    if op in ('true', 'false'):
        return op
    if op in ('!', 'X', 'F', 'G'):
        inner = to_spot(f[1], rng)
        if f[1][0] in _LEVEL:
            inner = '(' + inner + ')'
        sp = {'F': rng.choice(['F ', '<>']), 'G': rng.choice(['G ', '[]']),
              'X': 'X ', '!': '!'}[op]
        return sp + inner
    lv = _LEVEL[op]

    def side(g, left):
        s = to_spot(g, rng)
        gl = _LEVEL.get(g[0], 9)
        need = gl < lv or (gl == lv and ((op in _RIGHT) == left))
        return '(' + s + ')' if need else s
    word = {'&': rng.choice(['&', '&&']), '|': rng.choice(['|', '||']),
            '->': '->', '<->': rng.choice(['<->', '<=>'])}.get(op, op)
    return side(f[1], True) + ' ' + word + ' ' + side(f[2], False)


def rand_formula(rng, outs, ins, budget):
    """Random formula with at most `budget` operators."""
    def atom():
        if ins and rng.random() < 0.25:
            return ('ap', rng.choice(ins))
        if rng.random() < 0.03:
            return (rng.choice(['true', 'false']),)
        return ('ap', rng.choice(outs))

    def rec(b):
        if b <= 0 or rng.random() < 0.2:
            return atom()
        for _ in range(20):
            op = rng.choice(['F', 'G', 'X', 'F', 'G', '!', '&', '|', '->', '<->',
                             'U', 'R', 'W', 'M', 'GF', 'FG'])
            if op == 'GF' and b >= 2:
                return ('G', ('F', rec(b - 2)))
            if op == 'FG' and b >= 2:
                return ('F', ('G', rec(b - 2)))
            if op in ('F', 'G', 'X', '!'):
                sub = rec(b - 1)
                if sub[0] == op and op != 'X' or (op == '!' and sub[0] in ('true', 'false')):
                    continue
                return (op, sub)
            if op in ('GF', 'FG'):
                continue
            k = rng.randint(0, b - 1)
            left, right = rec(k), rec(b - 1 - k)
            if left == right or left[0] in ('true', 'false') or right[0] in ('true', 'false'):
                continue
            return (op, left, right)
        return atom()
    return rec(budget)


# -------------------------------------------------------------- instance

def make_system(rng):
    nin = rng.randint(1, 2)
    nout = rng.randint(1, 2)
    nst = rng.randint(1, 4)
    names = ['i%d' % k for k in range(nin)] + ['o%d' % k for k in range(nout)]
    if rng.random() < 0.4:
        rng.shuffle(names)
    ins = [i for i, n in enumerate(names) if n.startswith('i')]
    outs = [i for i, n in enumerate(names) if n.startswith('o')]
    nondet = rng.random() < 0.35

    def spread(k, idxs):
        return sum(1 << i for j, i in enumerate(idxs) if k >> j & 1)
    ivs = [spread(k, ins) for k in range(1 << nin)]
    ovs = [spread(k, outs) for k in range(1 << nout)]
    trans = set()                     # (src, full valuation, dst)
    # a "mode" per state makes outputs depend on state more than on chance
    for q in range(nst):
        for iv in ivs:
            dst = rng.randrange(nst)
            ov = rng.choice(ovs)
            trans.add((q, iv | ov, dst))
            if nondet and rng.random() < 0.3:
                kind = rng.random()
                if kind < 0.4 and nst > 1:      # another successor
                    trans.add((q, iv | rng.choice(ovs), rng.randrange(nst)))
                elif kind < 0.7:                # another output, same target
                    trans.add((q, iv | rng.choice(ovs), dst))
                else:                           # one output left open
                    o = rng.choice(outs)
                    trans.add((q, (iv | ov) ^ (1 << o), dst))
    edges = []
    for q in range(nst):
        for dst in range(nst):
            vals = [v for (s, v, d) in trans if s == q and d == dst]
            if vals:
                edges.append((q, label_text(vals, list(range(len(names))), rng), dst))
    if rng.random() < 0.3:
        rng.shuffle(edges)
    return names, outs, nst, edges


def run_lasso(system, rng, in_prefix, in_cycle):
    """A lasso run on the input lasso with a random memoryless choice per
    (position, state); returns the full-letter lasso (canonical)."""
    word = in_prefix + in_cycle
    n, lp = len(word), len(in_prefix)
    choice = {}
    q = rng.choice(system.start)
    pos = 0
    seen = {}
    letters = []
    while (pos, q) not in seen:
        seen[(pos, q)] = len(letters)
        opts = system.succ[q][word[pos]]
        if (pos, q) not in choice:
            choice[(pos, q)] = rng.choice(opts)
        ov, dst = choice[(pos, q)]
        letters.append(word[pos] | ov)
        pos = pos + 1 if pos + 1 < n else lp
        q = dst
    k = seen[(pos, q)]
    return R.canonical(letters[:k], letters[k:])


def trace_text(system, prefix, cycle, omit_mask):
    which = [i for i in range(len(system.aps)) if not omit_mask >> i & 1]
    return system.lasso_str(prefix, cycle, which)


def make_instance(seed, k, outdir):
    rng = random.Random('%s:%d' % (seed, k))
    want = rng.random()
    want = 'cause' if want < 0.8 else ('no-cause' if want < 0.92 else 'no-effect')
    for attempt in range(400):
        names, outs, nst, edges = make_system(rng)
        d = os.path.join(outdir, 't%s-%d' % (seed, k))
        os.makedirs(d, exist_ok=True)
        sysf = os.path.join(d, 'SYS.hoa')
        hoa.write(sysf, 'gen %s %d' % (seed, k), names, outs, nst, 0, edges)
        system = R.load_system(sysf)
        assert not system.input_enabled()
        in_pre = [rng.choice(system.in_vals) for _ in range(rng.randint(0, 2))]
        in_cyc = [rng.choice(system.in_vals) for _ in range(rng.randint(1, 2))]
        pre, cyc = run_lasso(system, rng, in_pre, in_cyc)
        if len(pre) + len(cyc) > 6:
            continue
        omit = 0
        r = rng.random()
        if r < 0.2:
            omit = system.out_mask
        elif r < 0.3:
            omit = 1 << rng.choice(system.outputs)
        trace = trace_text(system, pre, cyc, omit)
        full_trace = trace_text(system, pre, cyc, 0)
        outn = [system.aps[i] for i in system.outputs]
        inn = [system.aps[i] for i in system.inputs]
        for tries in range(60):
            f = rand_formula(rng, outn, inn if rng.random() < 0.3 else [], rng.randint(1, 5))
            if ltl.size(f) > 5 or ltl.size(f) == 0:
                continue
            text = ltl.to_str(f) if rng.random() < 0.6 else to_spot(f, rng)
            assert ltl.parse(text) == f, text
            ref = R.Reference(system, trace, text, 'subset')
            st = ref.effect_status()
            if st == 'ambiguous':
                ref = R.Reference(system, full_trace, text, 'subset')
                st = ref.effect_status()
                if st == 'ambiguous':
                    continue
                tr = full_trace
            else:
                tr = trace
            if st == 'violated':
                verdict = 'no-effect'
            else:
                verdict = 'cause' if ref.cause_exists() else 'no-cause'
            if verdict != want and attempt < 300:
                continue
            if verdict == 'cause' and attempt < 300:
                lassos = R.enumerate_lassos(system.in_vals, 2)
                trivial = all(ref.member(l) for l in lassos)
                if trivial and rng.random() < 0.85:
                    continue
            case = {'trace': tr, 'effect': text,
                    'relation': rng.choice(['subset', 'full']),
                    'expect': verdict}
            with open(os.path.join(d, 'case.json'), 'w') as fh:
                json.dump(case, fh, indent=1)
                fh.write('\n')
            return d
    raise RuntimeError('no instance for seed %s:%d' % (seed, k))


def main(argv):
    if len(argv) != 4:
        print(__doc__.strip().split('\n\n')[1], file=sys.stderr)
        return 2
    seed, n, outdir = argv[1], int(argv[2]), argv[3]
    for k in range(n):
        print(make_instance(seed, k, outdir))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
