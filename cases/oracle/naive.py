#!/usr/bin/env python3
"""A second, naive reading of the definitions, to check oracle.py itself.

    naive.py N [SEED0]      compare naive and oracle.py on the generated
                            models with an acyclic state graph among seeds
                            SEED0 .. SEED0+N-1

For an acyclic state graph the sets B and G of bad and good traces are
finite: they are listed completely (every path from the initial state),
and Defs. 9-11 as the README states them are applied with plain set
operations over all pairs of traces: no pruned search, no automaton over
traces.  Only the state graph, the violations and the settled states are
shared with oracle.py (promela.py and TraceDFA's fixpoint).

With ORACLE_GEN_NESTED=1 it also checks, on every path of each acyclic model
(up to 300,000 path steps), that the one-bit monitor of the nested formula
(promela.Model) flags exactly the states where the formula read literally
over the checked states (some i <= j ...) first fails (nested_paths).
"""

import os
import sys
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from compare import canon, diff  # noqa: E402
from gen import generate  # noqa: E402
from oracle import Oracle, TraceDFA, merge_intervals, occurrence_names  # noqa: E402
from promela import Model  # noqa: E402


class Cyclic(Exception):
    pass


def trace_sets(dfa):
    g, bad, settled, VIOL = dfa.graph, dfa.bad, dfa.settled, dfa.VIOL
    memo = {}
    onstack = set()

    def suffixes(s):
        """(bad suffixes, good suffixes) of the runs from non-bad state s."""
        if s in memo:
            return memo[s]
        if s in onstack:
            raise Cyclic()
        onstack.add(s)
        bs, gs = set(), set()
        if s in settled:
            gs.add(())
        for ev, t in g[s]:
            pre = (ev,) if ev is not None else ()
            if t == VIOL or bad[t]:
                bs.add(pre)
                continue
            b2, g2 = suffixes(t)
            bs.update(pre + w for w in b2)
            gs.update(pre + w for w in g2)
        onstack.discard(s)
        memo[s] = (bs, gs)
        return memo[s]

    if bad[dfa.model.init]:
        return {()}, set()
    return suffixes(dfa.model.init)


def lt(a, b):
    """ev(a) strictly included in ev(b), as multisets."""
    return a != b and all(b[e] >= n for e, n in a.items())


def restrict(w, k):
    seen = Counter()
    out = []
    for e in w:
        seen[e] += 1
        if seen[e] <= k[e]:
            out.append(e)
    return tuple(out)


def naive(model, ac2=True):
    dfa = TraceDFA(model)
    B, G = trace_sets(dfa)
    evB = {w: Counter(w) for w in B}
    evG = {w: Counter(w) for w in G}
    causes = {}
    ambiguous, uncaused = set(), set()
    for s in B:
        es = evB[s]
        if any(lt(evB[b], es) for b in B):
            continue  # AC3 fails
        if not any(lt(evG[g], es) for g in G):
            uncaused.add(s)
            continue
        names = occurrence_names(s)
        ivs = ()
        if ac2:
            cand = [g for g in G if lt(es, evG[g]) and restrict(g, es) == s]
            Q = {g: evG[g] - es for g in cand}
            prohibited = set()
            for g in cand:
                if any(lt(Q[h], Q[g]) for h in cand):
                    continue  # not minimal
                seen, j = Counter(), 0
                for e in g:
                    seen[e] += 1
                    if seen[e] <= es[e]:
                        j += 1
                    else:
                        prohibited.add((e, j))
            ivs = merge_intervals(s, names, prohibited)
        causes.setdefault((tuple(sorted(es.items())), ivs), []).append(s)
        if s in G:
            ambiguous.add(s)
    out = []
    for (_, ivs), words in causes.items():
        occs = occurrence_names(words[0])
        pos = [{x: i for i, x in enumerate(occurrence_names(w))} for w in words]
        out.append({
            "occurrences": sorted(occs),
            "absent_intervals": [{"event": e, "after": a, "before": b} for e, a, b in ivs],
            "ordered": [[x, y] for x in occs for y in occs
                        if x != y and all(p[x] < p[y] for p in pos)],
        })
    return {"causes": out, "ambiguous": [{"trace": list(w)} for w in ambiguous],
            "uncaused": [{"trace": list(w)} for w in uncaused]}


class TooMany(Exception):
    pass


def literal_violation(kind, seen):
    """The nested formula read literally over the checked states so far, a
    list of (p, q, r) truth values, the last one the current state: some i <=
    j = the last with p at i, q at j (and, for "unless", r false at i .. j)."""
    j = len(seen) - 1
    if not seen or not seen[j][1]:
        return False
    for i in range(j + 1):
        if seen[i][0] and (kind == "after" or not any(x[2] for x in seen[i:j + 1])):
            return True
    return False


def nested_paths(model, limit=300000):
    """ORACLE_GEN_NESTED: on every path from the initial state up to its first
    violation, Model.is_bad_state (the one-bit monitor in the state) must say
    what the literal reading says of the states the claim checks
    (literal_violation).  Returns the number of mismatches; raises Cyclic or
    TooMany (more than limit path steps)."""
    from promela import eval_expr
    kind, p, q, r = model.nested
    graph = model.explore()
    steps = [0]
    bad_paths = []

    def rec(s, seen, onpath):
        steps[0] += 1
        if steps[0] > limit:
            raise TooMany()
        if s in onpath:
            raise Cyclic()
        locs, vals = s
        if model.claim_checks(vals):
            env = model.env(vals)
            seen = seen + [tuple(bool(eval_expr(e, env)) if e is not None else False
                                 for e in (p, q, r))]
        lit = literal_violation(kind, seen) if model.claim_checks(vals) else False
        if lit != model.is_bad_state(s):
            bad_paths.append((s, lit))
            return
        if lit:
            return  # the run ends at its first violation
        onpath.add(s)
        for ev, t in graph[s]:
            if t != model.VIOL:
                rec(t, seen, onpath)
        onpath.discard(s)

    rec(model.init, [], set())
    return len(bad_paths)


def main(argv):
    n = int(argv[1]) if len(argv) > 1 else 100
    s0 = int(argv[2]) if len(argv) > 2 else 1
    checked = failed = skipped = 0
    paths = [0, 0]  # nested formulas: monitors checked on every path, models skipped
    for seed in range(s0, s0 + n):
        model = Model(generate(seed))
        if model.nested is not None:
            try:
                nbad = nested_paths(model)
                checked += 1
                paths[0] += 1
                if nbad:
                    failed += 1
                    print("seed %d: the monitor and the literal reading of the formula differ "
                          "at %d states along some path" % (seed, nbad))
            except (Cyclic, TooMany):
                paths[1] += 1
        for ac2 in (True, False):
            try:
                a = naive(model, ac2)
            except Cyclic:
                skipped += 1
                break
            b = Oracle(model, ac2).analyse()
            lines = diff(canon(a), canon(b), names=("naive", "oracle"))
            checked += 1
            if lines:
                failed += 1
                print("seed %d%s:" % (seed, "" if ac2 else " --no-ac2"))
                print("\n".join(lines))
    print("(%d cyclic models skipped)" % skipped, file=sys.stderr)
    if sum(paths):
        print("(nested formulas: the monitor checked on every path of %d models, %d cyclic or "
              "with too many paths skipped)" % tuple(paths), file=sys.stderr)
    print("%d passed, %d failed" % (checked - failed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
