#!/usr/bin/env python3
"""Brute-force causality oracle: oracle.py [--no-ac2] MODEL.pml [OUT.json]

Independent reference for pan -C.  It builds the state graph of the model
with its own Promela interpreter (promela.py), and applies the definitions
of the README's "Method" section literally to the *traces* of the model:

  bad runs    finite runs from the initial state whose last step is their
              first violation;
  good runs   finite violation-free runs ending in a *settled* state (no
              violation reachable from it by silent steps alone);
  B, G        the sets of traces (event sequences) of bad / good runs.

Every condition depends only on B and G, never on how states are
identified.  B and G are regular languages: the trace of a run is the
sequence of event labels along a path of the (finite) state graph with
silent steps erased, so the subset construction over silent closures gives
a deterministic automaton ("trace DFA") whose configuration after a word w
is the set of non-violating states some run with trace w can be in.  Then
  w in G  iff  that set contains a settled state;
  w in B  iff  the last event of w (or, for the empty word, the initial
               silent closure) can step, directly or by further silent
               steps, into a violation.
Both tests are exact for *every* finite run, whatever the cycles of the
state graph (silent cycles are absorbed by the closure).

What is enumerated, and why that is enough (cyclic models included)
-------------------------------------------------------------------
The sets B and G are infinite when the model has cycles with events, so
they are not listed whole; the definitions only ever need finitely many
traces, and these are computed exactly:

1. AC3 holds for a bad trace iff its event multiset (= its set of
   occurrence variables) is minimal among the multisets of B.  The minimal
   multisets of B are found by a search over pairs (DFA configuration,
   multiset so far) that drops a pair when a pair with the same
   configuration and a smaller-or-equal multiset was already kept.  That is
   exact: any continuation of the dropped pair is also a continuation of the
   kept one with a smaller-or-equal multiset.  It terminates: for each of
   the finitely many configurations the kept multisets form a sequence with
   no element >= an earlier one, which is finite by Dickson's lemma.
2. The bad traces with a minimal multiset m are finitely many (length |m|);
   all of them are enumerated word by word.
3. AC2(1) for such a trace: some good trace with a strictly smaller
   multiset, i.e. a shorter word; all words with multiset <= m are
   enumerated.
4. AC2(2) (Def. 10): G(sigma) is the set of good words whose restriction
   to ev(sigma) is sigma, with at least one extra occurrence.  The
   restriction keeps the first k_E occurrences of each event E (k_E =
   its count in sigma), so a small deterministic automaton (position j in
   sigma) checks it while reading a word, and every later occurrence is an
   extra one, in gap j.  Q(sigma'') is the multiset of extras.  The minimal
   Q are found by the same Dickson-pruned search as in 1 over (DFA
   configuration, j, extras); for each minimal Q all words of G(sigma)
   with exactly those extras are enumerated (finitely many, length
   |sigma| + |Q|) and each of their extra occurrences prohibits its event
   in its gap.
5. Causes, OC1 and ambiguity are then computed from these finite sets.

Output (the JSON keys pan -C --json writes; see cases/oracle/README.md):
  {"causes": [{"occurrences", "absent_intervals", "ordered", "events",
               "absent", "witness"}],
   "ambiguous": [{"trace"}], "uncaused": [{"trace"}], "counts": {...}}
"""

import json
import sys
from collections import Counter, deque

from promela import Model, PromelaError


class TraceDFA:
    """Subset construction over silent closures of the model's state graph."""

    def __init__(self, model):
        self.model = model
        graph = model.explore()
        self.graph = graph
        VIOL = model.VIOL
        self.VIOL = VIOL
        bad = {s: model.is_bad_state(s) for s in graph}
        self.bad = bad
        self.events = model.events
        self.eidx = {e: i for i, e in enumerate(self.events)}
        # states from which a violation is reachable by silent steps alone
        # (a violating state itself included); least fixpoint
        silent_pred = {s: [] for s in graph}
        doomed = set()
        work = []
        for s, succ in graph.items():
            if bad[s]:
                doomed.add(s)
                work.append(s)
                continue
            for ev, t in succ:
                if ev is None:
                    if t == VIOL:
                        if s not in doomed:
                            doomed.add(s)
                            work.append(s)
                    else:
                        silent_pred[t].append(s)
        while work:
            t = work.pop()
            for s in silent_pred[t]:
                if not bad[s] and s not in doomed:
                    doomed.add(s)
                    work.append(s)
        # a run may end in any settled state; Model.may_end can exclude some
        # (not in the middle of a rendezvous; ORACLE_RV_END=1 allows it)
        ends = getattr(model, "may_end", None)
        self.settled = {s for s in graph if not bad[s] and s not in doomed
                        and (ends is None or ends(s))}
        self.n_states = len(graph)
        self._cfg_ids = {}
        self._cfgs = []
        self._cfg_good = []
        self._cfg_silentbad = []
        self._delta = {}
        init = model.init
        if bad[init]:
            self.eps_bad = True
            self.init_cfg = self._intern(frozenset())
        else:
            c = self._closure([init])
            self.init_cfg = self._intern(c)
            self.eps_bad = self._cfg_silentbad[self.init_cfg]
        self.eps_good = self._cfg_good[self.init_cfg]

    def _closure(self, states):
        seen = set(states)
        todo = list(states)
        while todo:
            s = todo.pop()
            for ev, t in self.graph[s]:
                if ev is None and t != self.VIOL and not self.bad[t] and t not in seen:
                    seen.add(t)
                    todo.append(t)
        return frozenset(seen)

    def _intern(self, cfg):
        i = self._cfg_ids.get(cfg)
        if i is None:
            i = len(self._cfgs)
            self._cfg_ids[cfg] = i
            self._cfgs.append(cfg)
            self._cfg_good.append(any(s in self.settled for s in cfg))
            sb = False
            for s in cfg:
                for ev, t in self.graph[s]:
                    if ev is None and (t == self.VIOL or self.bad[t]):
                        sb = True
            self._cfg_silentbad.append(sb)
        return i

    def good(self, c):
        return self._cfg_good[c]

    def step(self, c, e):
        """(next configuration or None, whether w.e is a bad trace)."""
        key = (c, e)
        r = self._delta.get(key)
        if r is not None:
            return r
        targets = []
        hit = False
        for s in self._cfgs[c]:
            for ev, t in self.graph[s]:
                if ev == e:
                    if t == self.VIOL or self.bad[t]:
                        hit = True
                    else:
                        targets.append(t)
        if targets:
            nc = self._intern(self._closure(targets))
            hit = hit or self._cfg_silentbad[nc]
        else:
            nc = None
        r = (nc, hit)
        self._delta[key] = r
        return r

    def run(self, word):
        """(configuration after word or None, word in B)."""
        c, hit = self.init_cfg, self.eps_bad
        if self.eps_bad and not word:
            return (None, True)
        for e in word:
            if c is None:
                return (None, False)
            c, hit = self.step(c, e)
        return (c, hit)


def leq(a, b):
    return all(x <= y for x, y in zip(a, b))


def add(v, i):
    return v[:i] + (v[i] + 1,) + v[i + 1:]


def minimal(vectors):
    vs = set(vectors)
    return sorted(v for v in vs if not any(w != v and leq(w, v) for w in vs))


class Oracle:
    def __init__(self, model, ac2=True, dfa=None):
        self.dfa = dfa or TraceDFA(model)
        self.ev = self.dfa.events
        self.ne = len(self.ev)
        self.ac2 = ac2
        self.zero = (0,) * self.ne

    # ---- 1. minimal multisets of bad traces (Dickson-pruned search)
    def minimal_bad_vectors(self):
        d = self.dfa
        if d.eps_bad:
            return [self.zero]
        accepted = []
        kept = {}
        queue = deque([(d.init_cfg, self.zero)])
        kept[d.init_cfg] = [self.zero]
        while queue:
            c, v = queue.popleft()
            if any(leq(a, v) for a in accepted):
                continue
            for i, e in enumerate(self.ev):
                nc, hit = d.step(c, e)
                nv = add(v, i)
                if hit:
                    accepted.append(nv)
                if nc is None or any(leq(a, nv) for a in accepted):
                    continue
                lst = kept.setdefault(nc, [])
                if any(leq(w, nv) for w in lst):
                    continue
                lst.append(nv)
                queue.append((nc, nv))
        return minimal(accepted)

    # ---- 2. all words with multiset exactly m that are bad
    def bad_words(self, m):
        d = self.dfa
        out = []
        if m == self.zero:
            if d.eps_bad:
                out.append(())
            return out

        def rec(c, v, w):
            for i, e in enumerate(self.ev):
                if v[i] >= m[i]:
                    continue
                nc, hit = d.step(c, e)
                nv = add(v, i)
                if nv == m:
                    if hit:
                        out.append(w + (e,))
                elif nc is not None:
                    rec(nc, nv, w + (e,))

        rec(d.init_cfg, self.zero, ())
        return out

    # ---- 3. AC2(1): a good word with a strictly smaller multiset
    def ac21(self, m):
        d = self.dfa
        if d.eps_bad:
            return False  # every run is bad: the empty run violates
        seen = set()

        def rec(c, v):
            if (c, v) in seen:
                return False
            seen.add((c, v))
            if v != m and d.good(c):
                return True
            for i, e in enumerate(self.ev):
                if v[i] >= m[i]:
                    continue
                nc, _ = d.step(c, e)
                if nc is not None and rec(nc, add(v, i)):
                    return True
            return False

        return rec(d.init_cfg, self.zero)

    # ---- 4. Def. 10: prohibited (event, gap) pairs for a red trace sigma
    def prohibited(self, sigma):
        d = self.dfa
        n = len(sigma)
        k = Counter(sigma)
        # count of each event in sigma[:j]
        pref = [Counter(sigma[:j]) for j in range(n + 1)]

        def move(j, e):
            """('sigma', j+1) | ('extra', j) | None (restriction != sigma)."""
            if pref[j][e] < k[e]:
                if j < n and sigma[j] == e:
                    return j + 1
                return None
            return "x"

        if d.eps_bad:
            return set()
        # minimal extras vectors
        accepted = []
        kept = {}
        kept[(d.init_cfg, 0, False)] = [self.zero]
        queue = deque([(d.init_cfg, 0, self.zero)])
        while queue:
            c, j, x = queue.popleft()
            if any(leq(a, x) for a in accepted):
                continue
            for i, e in enumerate(self.ev):
                mv = move(j, e)
                if mv is None:
                    continue
                nc, _ = d.step(c, e)
                if nc is None:
                    continue
                if mv == "x":
                    nj, nx = j, add(x, i)
                else:
                    nj, nx = mv, x
                if nj == n and nx != self.zero and d.good(nc):
                    accepted.append(nx)
                if any(leq(a, nx) for a in accepted):
                    continue
                # the class of nx != 0 is part of the key: acceptance needs
                # at least one extra, so a zero vector must not prune a
                # non-zero one (it would when sigma itself is good)
                lst = kept.setdefault((nc, nj, nx != self.zero), [])
                if any(leq(w, nx) for w in lst):
                    continue
                lst.append(nx)
                queue.append((nc, nj, nx))
        qs = minimal(accepted)
        prohibited = set()
        for q in qs:
            def rec(c, j, x, gaps):
                if j == n and x == q and d.good(c):
                    prohibited.update(gaps)
                for i, e in enumerate(self.ev):
                    mv = move(j, e)
                    if mv is None:
                        continue
                    if mv == "x":
                        if x[i] >= q[i]:
                            continue
                        nj, nx, ng = j, add(x, i), gaps + ((e, j),)
                    else:
                        nj, nx, ng = mv, x, gaps
                    nc, _ = d.step(c, e)
                    if nc is not None:
                        rec(nc, nj, nx, ng)

            rec(d.init_cfg, 0, self.zero, ())
        return prohibited

    # ---- 6. the event types every bad run has, straight from the state graph
    def in_every_bad_run(self):
        """The events E such that no run reaches a violation without an E step: per
        E, a search of the state graph that leaves E's moves out.  (Vacuous for a
        model without bad runs; analyse() asks only when there are causes.)"""
        d = self.dfa
        init = d.model.init
        if d.bad[init]:
            return []
        out = []
        for e in self.ev:
            seen, todo, hit = {init}, [init], False
            while todo and not hit:
                for ev, t in d.graph[todo.pop()]:
                    if ev == e:
                        continue
                    if t == d.VIOL or d.bad[t]:
                        hit = True
                        break
                    if t not in seen:
                        seen.add(t)
                        todo.append(t)
            if not hit:
                out.append(e)
        return sorted(out)

    # ---- 5. everything
    def analyse(self):
        d = self.dfa
        mins = self.minimal_bad_vectors()
        causes = {}
        ambiguous = set()
        uncaused = set()
        n_red = 0
        for m in mins:
            words = self.bad_words(m)
            assert words, "minimal vector without a word"
            if not self.ac21(m):
                for w in words:
                    uncaused.add(w)
                continue
            for w in words:
                n_red += 1
                names = occurrence_names(w)
                intervals = ()
                if self.ac2:
                    intervals = merge_intervals(w, names, self.prohibited(w))
                key = (tuple(sorted(Counter(w).items())), intervals)
                causes.setdefault(key, []).append(w)
                c, _ = d.run(w)
                if c is not None and d.good(c):
                    ambiguous.add(w)
        out_causes = []
        for (_, intervals), words in causes.items():
            names0 = occurrence_names(words[0])
            occs = sorted(names0)
            pos = []
            for w in words:
                nm = occurrence_names(w)
                pos.append({x: i for i, x in enumerate(nm)})
            ordered = sorted([x, y] for x in occs for y in occs
                             if x != y and all(p[x] < p[y] for p in pos))
            out_causes.append({
                "occurrences": occs,
                "absent_intervals": [
                    {"event": e, "after": a, "before": b} for (e, a, b) in intervals],
                "ordered": ordered,
                "events": sorted(set(words[0])),
                "absent": sorted({e for (e, _, _) in intervals}),
                "witness": list(min(words)),
                "traces": [list(w) for w in sorted(words)],
            })
        out_causes.sort(key=lambda c: (c["occurrences"], json.dumps(c["absent_intervals"])))
        # The reports' "in every cause": the causes' common events, vouched for as the
        # events of every bad run when no minimal bad trace is uncaused.  That claim is
        # checked here against the state graph itself (6.), on every model.
        common = sorted(set.intersection(*(set(c["events"]) for c in out_causes))) \
            if out_causes else []
        sure = bool(out_causes) and not uncaused
        if out_causes:
            every = self.in_every_bad_run()
            if (sure and every != common) or not set(every) <= set(common):
                raise RuntimeError("in every cause %s (%s), but every bad run has %s"
                                   % (common, "vouched" if sure else "not vouched", every))
        return {
            "in_every_cause": common,
            "in_every_bad_run": sure,
            "causes": out_causes,
            "ambiguous": [{"trace": list(w)} for w in sorted(ambiguous)],
            "uncaused": [{"trace": list(w)} for w in sorted(uncaused)],
            "counts": {"states": d.n_states, "red": n_red,
                       "minimal_bad_multisets": len(mins)},
        }


def occurrence_names(w):
    """Display names of the occurrences of w, in order: E if E occurs once
    in w, else E_1, E_2, ..."""
    total = Counter(w)
    seen = Counter()
    out = []
    for e in w:
        seen[e] += 1
        out.append(e if total[e] == 1 else "%s_%d" % (e, seen[e]))
    return out


def _none_first(x):
    return (0, "") if x is None else (1, x)


def merge_intervals(w, names, prohibited):
    """Per event type, merge the prohibited gaps into maximal runs of
    consecutive gaps; gap g lies after the g-th event of w (0 = start).
    An interval [a, b] is printed after names[a-1] (None if a == 0) and
    before names[b] (None if b == len(w))."""
    n = len(w)
    by_event = {}
    for e, g in prohibited:
        by_event.setdefault(e, set()).add(g)
    out = []
    for e, gaps in by_event.items():
        gs = sorted(gaps)
        start = prev = gs[0]
        runs = []
        for g in gs[1:]:
            if g == prev + 1:
                prev = g
                continue
            runs.append((start, prev))
            start = prev = g
        runs.append((start, prev))
        for a, b in runs:
            out.append((e, names[a - 1] if a > 0 else None, names[b] if b < n else None))
    out.sort(key=lambda t: (t[0], _none_first(t[1]), _none_first(t[2])))
    return tuple(out)


def main(argv):
    args = [a for a in argv[1:] if not a.startswith("--")]
    flags = [a for a in argv[1:] if a.startswith("--")]
    for f in flags:
        if f not in ("--no-ac2",):
            print("oracle.py: unknown option %s" % f, file=sys.stderr)
            return 2
    if len(args) not in (1, 2):
        print(__doc__.splitlines()[0], file=sys.stderr)
        return 2
    try:
        with open(args[0]) as f:
            model = Model(f.read())
    except (OSError, PromelaError) as e:
        print("oracle.py: %s: %s" % (args[0], e), file=sys.stderr)
        return 2
    res = Oracle(model, ac2="--no-ac2" not in flags).analyse()
    text = json.dumps(res, indent=1, sort_keys=True)
    if len(args) == 2:
        with open(args[1], "w") as f:
            f.write(text + "\n")
    else:
        print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
