#!/usr/bin/env python3
"""Writes the paper's benchmark instances into instances/ (deterministic).

    make_instances.py [OUTDIR]        (default: instances/ next to this file)

Systems are written from the descriptions in Finkbeiner, Frenkel, Metzger,
Siber, "Synthesis of Temporal Causality" (CAV 2024) as HOA Mealy machines:
an edge s -[A & out]-> s' is the paper's FSM step from s on input A to s'
with the outputs l(s') (the paper skips the label of the initial state).

  arbiter-spurious-N (N=1..4)  Sect. 6.1.1 / Table 1: grants round robin to
      all clients regardless of requests; N states.
  arbiter-unfair-N (N=2..4)   prioritised client r{N-1}: when it requests it
      gets the grant; otherwise the first requesting client from a
      round-robin pointer over clients 0..N-2 gets it and the pointer moves
      past it; N-1 states.
  arbiter-full-N (N=1..4)     only grants pending requests (a request stays
      pending until granted), mutual exclusion, round robin from a pointer
      over all clients; state = (pending set, pointer), reachable part.
  fig1                        the system of Fig. 1 (reconstructed from the
      figure's labels and the text of Sect. 1.1, 3.1 and Example 2).
  fig4                        the faulty circuit of Fig. 4(a) / Example 3.

The paper's systems were not published with it in this form; state counts
of the arbiters differ from Table 1's |T| (recorded in the manifest).
instances.tsv has one row per (instance, relation).
"""

import itertools
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True

import hoa  # noqa: E402
from gen import _merge_cubes  # noqa: E402


def write_mealy(path, name, inputs, outputs, nstates, step):
    """step(state, frozenset of true inputs) -> (frozenset of true outputs,
    next state).  Deterministic Mealy machine, all inputs enabled."""
    aps = inputs + outputs
    idx = {a: i for i, a in enumerate(aps)}
    groups = {}
    for s in range(nstates):
        for bits in itertools.product([0, 1], repeat=len(inputs)):
            A = frozenset(a for a, b in zip(inputs, bits) if b)
            outs, dst = step(s, A)
            groups.setdefault((s, dst, outs), set()).add(bits)
    edges = []
    for (s, dst, outs), cubes in sorted(groups.items(), key=lambda kv: (kv[0][0], kv[0][1], sorted(kv[0][2]))):
        merged = _merge_cubes(cubes, len(inputs))
        terms = []
        for c in merged:
            lits = [('%d' % idx[a]) if b == 1 else ('!%d' % idx[a])
                    for a, b in zip(inputs, c) if b is not None]
            terms.append('&'.join(lits))
        inlab = ' | '.join('(%s)' % t if '&' in t and len(terms) > 1 else t
                           for t in terms if t) if all(terms) else ''
        outlab = '&'.join(('%d' % idx[o]) if o in outs else ('!%d' % idx[o]) for o in outputs)
        if inlab and outlab:
            lab = ('(%s)&%s' % (inlab, outlab)) if len(terms) > 1 else '%s&%s' % (inlab, outlab)
        else:
            lab = inlab or outlab or 't'
        edges.append((s, lab, dst))
    hoa.write(path, name, aps, [idx[o] for o in outputs], nstates, 0, edges)


def letter(true_aps, all_aps):
    return '&'.join(a if a in true_aps else '!' + a for a in all_aps)


def spurious(n):
    inputs = ['r%d' % k for k in range(n)]
    outputs = ['g%d' % k for k in range(n)]

    def step(s, A):
        return frozenset(['g%d' % s]), (s + 1) % n
    trace = 'cycle{%s}' % ';'.join(
        letter(set(inputs) | {'g%d' % t}, inputs + outputs) for t in range(n))
    return inputs, outputs, n, step, trace


def unfair(n):
    inputs = ['r%d' % k for k in range(n)]
    outputs = ['g%d' % k for k in range(n)]
    prio = n - 1
    m = n - 1                                  # non-prioritised clients 0..m-1

    def step(p, A):
        if 'r%d' % prio in A:
            return frozenset(['g%d' % prio]), p
        for j in range(m):
            k = (p + j) % m
            if 'r%d' % k in A:
                return frozenset(['g%d' % k]), (k + 1) % m
        return frozenset(), p
    trace = 'cycle{%s}' % letter(set(inputs) | {'g%d' % prio}, inputs + outputs)
    return inputs, outputs, m, step, trace


def full(n):
    inputs = ['r%d' % k for k in range(n)]
    outputs = ['g%d' % k for k in range(n)]

    def fsm(state, A):
        pend, p = state
        pend = pend | frozenset(int(a[1:]) for a in A)
        for j in range(n):
            k = (p + j) % n
            if k in pend:
                return frozenset(['g%d' % k]), (pend - {k}, (k + 1) % n)
        return frozenset(), (frozenset(), p)
    # reachable states, numbered in BFS order
    init = (frozenset(), 0)
    states = [init]
    num = {init: 0}
    i = 0
    while i < len(states):
        st = states[i]
        i += 1
        for bits in itertools.product([0, 1], repeat=n):
            A = frozenset(a for a, b in zip(inputs, bits) if b)
            _, nxt = fsm(st, A)
            if nxt not in num:
                num[nxt] = len(states)
                states.append(nxt)

    def step(s, A):
        outs, nxt = fsm(states[s], A)
        return outs, num[nxt]
    trace = 'cycle{%s}' % ';'.join(
        letter(set(inputs) | {'g%d' % t}, inputs + outputs) for t in range(n))
    return inputs, outputs, len(states), step, trace


def fig1():
    """Fig. 1: states A={} (initial), B={e}, C={e}, D={} ; edges
    A -x&!y-> B, A -y-> C, A -!x&!y-> D, B -x-> B, B -!x-> D, C -T-> D,
    D -x-> B, D -!x-> D.  (The eight edge labels of the figure are exactly
    x&!y, !x, x, y, T, x, !x&!y, !x.)"""
    label = {0: frozenset(), 1: frozenset(['e']), 2: frozenset(['e']), 3: frozenset()}

    def step(s, A):
        x, y = 'x' in A, 'y' in A
        if s == 0:
            d = 1 if x and not y else (2 if y else 3)
        elif s == 1:
            d = 1 if x else 3
        elif s == 2:
            d = 3
        else:
            d = 1 if x else 3
        return label[d], d
    return ['x', 'y'], ['e'], 4, step, 'cycle{x&!y&e}'


def fig4():
    """Fig. 4(a): s0={} (initial) -!i0-> s0, s0 -i0-> s1={o4}, s1 -T-> s1."""
    def step(s, A):
        d = 1 if s == 1 or 'i0' in A else 0
        return (frozenset(['o4']) if d == 1 else frozenset()), d
    # the paper's pi = {i2}{}{i0,o4}({i2,o4})^omega
    trace = '!i0&i2&!o4;!i0&!i2&!o4;i0&!i2&o4;cycle{!i0&i2&o4}'
    return ['i0', 'i2'], ['o4'], 2, step, trace


# name, builder, effect, paper cause (LTL over inputs), paper |T|,
# paper times (full, subset), paper NBA sizes (full, subset), source
TABLE1 = []
for n, T, tf, ts, sf, ss in [(1, 1, '0.11', '0.11', '1', '1'), (2, 2, '0.11', '0.11', '1', '1'),
                             (3, 3, '0.21', '0.11', '1', '1'), (4, 4, 'TO', '0.11', '-', '1')]:
    TABLE1.append(('arbiter-spurious-%d' % n, ('spurious', n), 'F g0', 'true', T,
                   (tf, ts), (sf, ss), 'Table 1 (Spurious %d)' % n))
for n, T, tf, ts, sf, ss in [(2, 2, '0.11', '0.11', '1', '1'), (3, 4, '0.16', '0.11', '1', '1'),
                             (4, 6, 'TO', '0.11', '-', '1')]:
    TABLE1.append(('arbiter-unfair-%d' % n, ('unfair', n), 'G !g0', 'G r%d' % (n - 1), T,
                   (tf, ts), (sf, ss), 'Table 1 (Unfair %d); r_prio = r%d' % (n, n - 1)))
for n, T, F_, GF_ in [(1, 1, ('0.11', '0.11', '2', '2'), ('0.11', '0.11', '2', '2')),
                      (2, 4, ('0.11', '0.11', '2', '2'), ('0.11', '0.11', '12', '4')),
                      (3, 11, ('0.16', '0.11', '2', '2'), ('2.04', '0.16', '215', '24')),
                      (4, 46, ('TO', '0.11', '-', '2'), ('TO', '33.22', '-', '214'))]:
    TABLE1.append(('arbiter-full-%d-F' % n, ('full', n), 'F g0', 'F r0', T,
                   F_[:2], F_[2:], 'Table 1 (Full %d, F g0)' % n))
    TABLE1.append(('arbiter-full-%d-GF' % n, ('full', n), 'G F g0', 'G F r0', T,
                   GF_[:2], GF_[2:], 'Table 1 (Full %d, G F g0)' % n))

OTHERS = [
    # name, builder, effect, relations -> paper cause, source
    ('fig1-Fe', ('fig1', 0), 'F e', {'subset': 'F x', 'full': '-'},
     'Sect. 1.1 (pi = {x,e}^omega, effect F e: the cause is F x)'),
    ('fig1-GFe', ('fig1', 0), 'G F e', {'subset': 'G F x', 'full': '-'},
     'Example 2 (effect G F e, cause G F x, relation subset)'),
    ('fig4', ('fig4', 0), '!((i2 U i0) <-> G F o4)',
     {'subset': '!i0 & X (!i0 & !i2 & X i0)', 'full': '-'},
     'Fig. 4 / Example 3 (neural-synthesis counterexample, A_C^subset)'),
]

BUILDERS = {'spurious': spurious, 'unfair': unfair, 'full': full,
            'fig1': lambda n: fig1(), 'fig4': lambda n: fig4()}

COLUMNS = ['name', 'system', 'trace', 'effect', 'relation', 'paper_cause', 'paper_T',
           'our_T', 'paper_time_s', 'paper_nba_states', 'source']


def main(argv):
    out = argv[1] if len(argv) > 1 else os.path.join(HERE, 'instances')
    os.makedirs(out, exist_ok=True)
    rows = []
    written = {}

    def system_for(key):
        if key in written:
            return written[key]
        kind, n = key
        inputs, outputs, ns, step, trace = BUILDERS[kind](n)
        if kind in ('spurious', 'unfair', 'full'):
            fname = 'arbiter-%s-%d.hoa' % (kind, n)
        else:
            fname = '%s.hoa' % kind
        write_mealy(os.path.join(out, fname), fname[:-4], inputs, outputs, ns, step)
        written[key] = (fname, trace, ns)
        return written[key]

    for name, key, effect, cause, T, times, sizes, src in TABLE1:
        fname, trace, ns = system_for(key)
        for rel, t, s in (('full', times[0], sizes[0]), ('subset', times[1], sizes[1])):
            rows.append([name, fname, trace, effect, rel, cause, str(T), str(ns), t, s, src])
    for name, key, effect, causes, src in OTHERS:
        fname, trace, ns = system_for(key)
        for rel in ('subset', 'full'):
            rows.append([name, fname, trace, effect, rel, causes[rel], '-', str(ns), '-', '-',
                         src if causes[rel] != '-' else src + '; no cause given for this relation'])
    with open(os.path.join(out, 'instances.tsv'), 'w') as fh:
        fh.write('# Paper instances (make_instances.py).  paper_cause: LTL over the inputs\n'
                 '# describing the cause (Table 1 / text; "-" = none given); paper_T: |T| in\n'
                 '# Table 1; our_T: states of our HOA; paper_time_s and paper_nba_states:\n'
                 '# Table 1 for this relation (TO = 60 s timeout).\n')
        fh.write('\t'.join(COLUMNS) + '\n')
        for r in rows:
            fh.write('\t'.join(r) + '\n')
    print('%d rows, %d systems in %s' % (len(rows), len(written), out))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
