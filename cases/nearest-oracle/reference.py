#!/usr/bin/env python3
"""Brute-force reference for `pancause nearest` (README: "The closest successful
execution: definitions"), written from the definitions without reading the C.

    reference.py MODEL.pml TRAIL [--weights WP,WA,WC] [--plain]
        prints JSON: {"distance": D, "wc": WC, "n": |a|, ...} or {"none": reason}
    reference.py MODEL.pml TRAIL --check CJSON [--weights ...]
        also checks pancause's answer (its JSON, with "good_trail" naming the
        good run's trail file and "alignment"): the good run replays in SPIN,
        never violates, ends settled or in a valid end state, its distance by
        the DP is pancause's distance, pancause's alignment costs exactly that,
        and the distance is the reference's minimum.  Exit 1 on a mismatch.

The counterexample a is the trail's run: `spin -t -p` replays it and the
interpreter (interp.py) follows it, step by step, by process and source line.
The variables of a state are interp.py's (README "Variables"): the globals SPIN
keeps, the channels (contents), and the locals of the processes alive there (a
dead process's locals do not exist: they differ from existing ones and not
from each other); Wc's default counts the most variables of a state of a.
The model subset is interp.py's, with NEAREST_GEN_RICH's locals, channels,
rendezvous and atomic sequences (and NEAREST_GEN_RICH2's two-field channels,
constant receives, rendezvous inside atomic sequences, channel operations as
option guards, never claims with rendezvous); SPIN is the semantics (a rendezvous send no
process can receive is no step, as in SPIN's trail), and a finite b does not end
between a rendezvous' send and its receive, nor inside an atomic sequence whose
process holds atomicity (good_end; it may end where such a sequence blocked and lost
atomicity).  Until 2026-11-27 b could end inside an atomic sequence, as pancause's b
did; the causality oracle's atomic models showed that such an end looks settled only
because every other process is frozen and the claim does not look (README "Good runs").
Successful runs b are enumerated by length from the initial state (never a
violating step, never a bad state), and for each prefix of b the textbook
alignment DP row (cost of aligning a[0..i) with the prefix, for every i) is
extended by one step; a prefix ending in a settled or valid end state is a
candidate with cost row[n].  Enumeration stops at the length L where
Wc * (L - |a|) >= best (a longer b has at least L - |a| unaligned steps).
Prunings, both exact: a prefix whose row is nowhere below the best so far
(rows never decrease along a run), and a prefix whose row is pointwise no
better than one already seen at the same state (the future of a prefix
depends on its state and row only).  --plain switches the second off.
With --check, pancause's good run, once this file has replayed it and found it
successful, bounds the search (upper_bound): the reference then searches only
for strictly nearer runs, and the minimum is still its own.  --plain switches
that off too.

Lassos (README: a successful lasso, only when no finite successful run
exists, i.e. no settled or valid end state is reachable without violating):
prefixes are enumerated the same way, each a stem or a stem to an anchor s
followed by part of a loop from s; a loop prefix that steps back into s is a
lasso, with the prefix's row[n] after that step as its distance d(a,
stem.loop).  Loop prefixes still extend after closing (longer loops are
lassos too).  The dominance pruning keys on (anchor, state); the length bound
is the same.

NEAREST_GEN_NESTED (a nested safety formula, whose SPIN claim guesses): a state is
bad where interp.py's monitor says the run's checked states so far violate the
formula, and the monitor's bit is part of the state (so "settled", the dominance
pruning and a lasso's return to its first state see it; a set of the claim's
states of pan's combined graph is one value of the bit).  The counterexample a may
pass bad states before its last (follow: stock pan's trail follows one branch of
the claim, which may go on where another violates).

With --run-to-end (README: the option of the same name) a finite successful run
must end in a valid end state: good_end drops "settled"; the rest is unchanged.

With --assume EXPR (README: "--assume EXPR", repeatable) every state of b satisfies
every EXPR: a state that breaks one is, for b, as bad as a violation (b_bad), in
the enumeration of finite runs and of lassos and in whether a finite successful
run exists; "settled" is unchanged (no violation reachable by silent steps).  The
expressions are parsed and evaluated by the causality oracle's Promela code, not
the C's.  pancause's b is checked state by state against them.

    reference.py MODEL.pml --random-assume SEED
        prints an assumption over MODEL's globals (those SPIN keeps; no local or
        channel), for batch.py:
        a value a global takes somewhere excluded, or a bound on it, or two such
        joined by || or &&; the initial state always satisfies it.  An empty line
        for a model with no finite successful run (random_assume says why).
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

from interp import DEAD, VIOL, Model, PromelaError
from promela import Parser, eval_expr

INF = float("inf")


class NoFit(Exception):
    pass


# ---------------------------------------------------------------- the trail

def read_trail(path, cycle_ok=False):
    """(claim: bool, moves [(step number, pr, tid)]); raises NoFit for a cycle
    mark (-1:-1:-1) unless cycle_ok (a lasso's good trail)."""
    claim, moves = False, []
    with open(path) as f:
        for ln in f:
            ln = ln.strip()
            if not ln:
                continue
            a, b, c = (int(x) for x in ln.split(":"))
            if a == -2:
                claim = True
            elif a == -1:
                if not cycle_ok:
                    raise NoFit("acceptance cycle trail")
            elif a >= 0:
                moves.append((a, b, c))
    return claim, moves


STEP_RE = re.compile(r"^\s*(\d+):\s+proc\s+(\d+)\s+\([^)]*\)\s+\S+:(\d+)\s+\(state \d+\)")
TERM_RE = re.compile(r"^\s*(\d+):\s+proc\s+(\d+)\s+terminates")


def replay(model_path, trail_path, cycle_ok=False):
    """The trail's process steps as [(pid, line or 'die')], from `spin -t -p`."""
    claim, moves = read_trail(trail_path, cycle_ok)
    tmp = tempfile.mkdtemp(prefix="nr-oracle-")
    try:
        shutil.copy(model_path, os.path.join(tmp, "model.pml"))
        shutil.copy(trail_path, os.path.join(tmp, "model.trail"))
        out = subprocess.run(["spin", "-t", "-p", "-k", "model.trail", "model.pml"], cwd=tmp,
                             capture_output=True, text=True, timeout=120).stdout
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    printed = {}
    for ln in out.splitlines():
        if "trail ends after" in ln:
            break
        m = STEP_RE.match(ln)
        if m:
            printed.setdefault(int(m.group(1)), (int(m.group(2)), int(m.group(3))))
            continue
        m = TERM_RE.match(ln)
        if m:
            printed.setdefault(int(m.group(1)), (int(m.group(2)), "die"))
    steps = []
    for num, pr, _ in moves:
        if claim and pr == 0:
            continue
        if num not in printed:
            raise NoFit("spin printed no process step %d" % num)
        pid, line = printed[num]
        if pid != pr - (1 if claim else 0):
            raise NoFit("step %d: process %d in spin's output, slot %d in the trail" % (num, pid, pr))
        steps.append((pid, line))
    return steps


HIDDEN_RE = re.compile(r"/\* hidden variable: \*/\s*\w+\s+(\w+)")


def hidden_vars(model_path):
    """The globals SPIN leaves out of the state vector (pan.h: "hidden variable")."""
    tmp = tempfile.mkdtemp(prefix="nr-oracle-")
    try:
        shutil.copy(model_path, os.path.join(tmp, "model.pml"))
        subprocess.run(["spin", "-a", "model.pml"], cwd=tmp, capture_output=True, timeout=120)
        with open(os.path.join(tmp, "pan.h")) as f:
            return set(HIDDEN_RE.findall(f.read()))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def follow(model, g, steps, must_violate):
    """The interpreter's run for the replayed steps: a list of Step records
    (the state before step i is states[i]).  must_violate: the last step or
    the last state violates and nothing before does; else nothing violates.
    With a nested formula (NEAREST_GEN_NESTED) the counterexample may pass bad
    states before its last: SPIN's claim guesses, and stock pan's trail follows
    one branch of it, which may go on where another branch violates (gen.py's
    nested seed 8: `(!r && p && q)` taken into an accepting state, not into the
    assert beside it, and the assert reached 9 steps later).  The trail is a
    (README "Counterexample a": the run of the trail file, which must end in a
    violation); it must still end in a bad state or a violating step."""
    pass_bad = must_violate and model.nested is not None
    def fits(x, pid, line):
        if x.pid != pid:
            return False
        if line == "die":
            return x.k == "die"
        return x.k != "die" and line in x.line

    def rec(s, i, acc, states):
        if i == len(steps):
            end_bad = model.bad(s)
            if must_violate and (end_bad or (acc and acc[-1].target == VIOL)):
                return acc, states
            if not must_violate and not end_bad:
                return acc, states
            return None
        if model.bad(s) and not pass_bad:
            return None
        pid, line = steps[i]
        for x in g.get(s) or model.steps(s):
            if not fits(x, pid, line):
                continue
            if x.target == VIOL:
                if must_violate and i == len(steps) - 1:
                    return acc + [x], states + [s]
                continue
            r = rec(x.target, i + 1, acc + [x], states + [s])
            if r:
                return r
        return None

    sys.setrecursionlimit(10000)
    r = rec(model.init, 0, [], [])
    if r is None:
        raise NoFit("the trail is no run of the model that %s" %
                    ("ends in its first violation" if must_violate else "never violates"))
    run, states = r
    final = None if run and run[-1].target == VIOL else (run[-1].target if run else model.init)
    return run, states, final


# ---------------------------------------------------------------- the distance

def diffs(model, s, t):
    (_, v1), (_, v2) = s, t
    return sum(v1[i] != v2[i] for i in model.kept)


def pair_cost(model, W, a, sa, x, sx):
    """Cost of aligning step a (from state sa) with step x (from sx), or None
    when their control locations differ.  A location is (pid, proctype, state);
    the generated models never reuse a pid for another proctype (no `run`), so
    the pid decides the proctype here."""
    if (a.pid, a.loc) != (x.pid, x.loc):
        return None
    return W[0] * diffs(model, sa, sx) + W[1] * (a.k != x.k)


def extend(model, W, a, sa, row, x, sx):
    """The DP row after one more step x of b."""
    new = [row[0] + W[2]]
    for i in range(1, len(row)):
        best = min(row[i] + W[2], new[i - 1] + W[2])
        c = pair_cost(model, W, a[i - 1], sa[i - 1], x, sx)
        if c is not None:
            best = min(best, row[i - 1] + c)
        new.append(best)
    return new


def distance(model, W, a, sa, b, sb):
    """d(a, b) by the textbook DP."""
    row = [i * W[2] for i in range(len(a) + 1)]
    for x, sx in zip(b, sb):
        row = extend(model, W, a, sa, row, x, sx)
    return row[-1]


def alignment_cost(model, W, a, sa, b, sb, pairs):
    """The cost of one given alignment (a list of (i, j)), or a reason it is none."""
    used_i, used_j, cost = set(), set(), 0
    last = (-1, -1)
    for i, j in pairs:
        if not (0 <= i < len(a) and 0 <= j < len(b)):
            return "pair (%d, %d) out of range" % (i, j)
        if i <= last[0] or j <= last[1]:
            return "pairs cross or repeat at (%d, %d)" % (i, j)
        last = (i, j)
        c = pair_cost(model, W, a[i], sa[i], b[j], sb[j])
        if c is None:
            return "pair (%d, %d): different control locations" % (i, j)
        cost += c
        used_i.add(i)
        used_j.add(j)
    return cost + W[2] * (len(a) - len(used_i) + len(b) - len(used_j))


# --run-to-end: a finite successful run must end in a valid end state; a settled state
# that is not one does not end it (lassos then answer where no valid end is reachable)
RUN_TO_END = False


# --assume: parsed expressions; every state of b satisfies them all
ASSUME = []


def parse_assume(text):
    p = Parser(text)
    e = p.expr()
    if p.peek()[0] != "eof":
        raise PromelaError("--assume %r: unexpected %r" % (text, p.peek()[1]))
    return e


def assume_ok(model, s):
    env = model.env(s[1])
    return all(eval_expr(e, env) for e in ASSUME)


def b_bad(model, s):
    """A state b may not be in: bad, or breaking an --assume."""
    return model.bad(s) or (bool(ASSUME) and not assume_ok(model, s))


def good_end(model, settled, s):
    if model.mid_rendezvous(s) or model.holds_atomic(s):
        # between a rendezvous' send and its receive no run ends: the handshake is
        # one SPIN event; pan never stops there (pancause agrees: rich seed 351);
        # nor inside an atomic sequence that holds atomicity (one SPIN step)
        return False
    if RUN_TO_END:
        return model.valid_end(s)
    return s in settled or model.valid_end(s)


def finite_exists(model, g):
    """Whether a settled or valid end state is reachable from the initial state
    through states that are not bad (nor break an --assume), by steps that do not
    violate."""
    settled = model.settled_states(g)
    return any(good_end(model, settled, s)
               for s in model.safe_reach(g, lambda s: b_bad(model, s)))


def nearest_lasso(model, g, W, a, sa, plain=False, bound=INF):
    """The least d(a, stem.loop) over successful lassos, with one attaining it:
    (best, steps as ((x, s), ...), index of the loop's first step) or (bound,
    None, None).  Straight from the definition: prefixes are stems (anchor None)
    or a stem to an anchor s followed by part of a loop (anchor s); any step of a
    stem at s may also be the loop's first step; a loop prefix back at its anchor
    is a lasso.  A prefix's future depends on (anchor, state, row) only, so the
    dominance pruning keys on (anchor, state)."""
    n = len(a)
    row0 = [i * W[2] for i in range(n + 1)]
    best, best_run, best_loop = bound, None, None
    seen = {}
    level = [(None, model.init, row0, (), None)]  # anchor, state, row, run, loop start
    length = 0
    while level:
        nxt = []
        for anc, s, row, run, start in level:
            if b_bad(model, s) or min(row) >= best:
                continue
            for x in g[s]:
                t = x.target
                if t == VIOL or b_bad(model, t):
                    continue
                new = extend(model, W, a, sa, row, x, s)
                if min(new) >= best:
                    continue
                # the stem goes on (or the loop goes on); and a stem's step may open a loop
                for anc2, start2 in ((anc, start), (s, len(run))) if anc is None else \
                        ((anc, start),):
                    if anc2 is not None and t == anc2 and new[n] < best:
                        best, best_run, best_loop = new[n], run + ((x, s),), start2
                    if not plain:
                        kept = seen.setdefault((anc2, t), [])
                        if any(all(r[i] <= new[i] for i in range(n + 1)) for r in kept):
                            continue
                        kept[:] = [r for r in kept if not all(new[i] <= r[i]
                                                               for i in range(n + 1))]
                        kept.append(new)
                    nxt.append((anc2, t, new, run + ((x, s),), start2))
        length += 1
        if W[2] > 0 and length > n and W[2] * (length - n) >= best:
            break
        if W[2] == 0 and length > n + 2 * len(g) + 2:
            break
        level = nxt
    return best, best_run, best_loop


def nearest(model, g, W, a, sa, plain=False, bound=INF):
    """The least d(a, b) over successful runs b, with one b attaining it.  bound:
    the distance of a successful run known already (pancause's b, checked by
    this file: upper_bound); only strictly nearer runs are then searched, and
    (bound, None) means none is."""
    settled = model.settled_states(g)
    n = len(a)
    row0 = [i * W[2] for i in range(n + 1)]
    best, best_run = bound, None
    seen = {}  # state -> rows kept there (for the dominance pruning)
    level = [(model.init, row0, ())]
    length = 0
    while level:
        nxt = []
        for s, row, run in level:
            if b_bad(model, s):
                continue
            if good_end(model, settled, s) and row[n] < best:
                best, best_run = row[n], run
            if min(row) >= best:
                continue
            if not plain:
                rows = seen.setdefault(s, [])
                if any(all(r[i] <= row[i] for i in range(n + 1)) for r in rows if r is not row):
                    continue
            for x in g[s]:
                if x.target == VIOL or b_bad(model, x.target):
                    continue
                new = extend(model, W, a, sa, row, x, s)
                if min(new) >= best:
                    continue
                if not plain:
                    rows = seen.setdefault(x.target, [])
                    if any(all(r[i] <= new[i] for i in range(n + 1)) for r in rows):
                        continue
                    rows[:] = [r for r in rows if not all(new[i] <= r[i] for i in range(n + 1))]
                    rows.append(new)
                nxt.append((x.target, new, run + ((x, s),)))
        length += 1
        if W[2] > 0 and length > n and W[2] * (length - n) >= best:
            break
        if W[2] == 0 and length > n + len(g) + 1:
            break  # no length bound from the cost: stop after every simple extension
        level = nxt
    return best, best_run


# ---------------------------------------------------------------- main

def load(model_path, trail_path, must_violate=True):
    with open(model_path) as f:
        model = Model(f.read())
    hidden = hidden_vars(model_path)
    model.kept = [i for i, v in enumerate(model.vars) if v not in hidden]
    g = model.graph()
    steps = replay(model_path, trail_path)
    run, states, final = follow(model, g, steps, must_violate)
    return model, g, run, states, final


def random_assume(model_path, seed):
    """An assumption for batch.py over the globals SPIN keeps: v != c, v <= c or
    v >= c that excludes a value v takes in some reachable state; sometimes two
    joined by || or &&.  The initial state satisfies it (else every answer is the
    trivial "no successful run").  None for a model without a finite successful
    run: the lasso enumeration is exponential in the distance, which an assumption
    raises (seed 397: over 300 s at d = 41, against d = 11 without); e2e.sh tests
    --assume on a lasso (abp)."""
    import random
    r = random.Random(seed)
    with open(model_path) as f:
        model = Model(f.read())
    hidden = hidden_vars(model_path)
    # globals only (an --assume names globals here; locals and channels are left out)
    kept = [i for i, v in enumerate(model.gvars) if v not in hidden]
    g = model.graph()
    if not finite_exists(model, g):
        return None
    init = model.init[1]

    def atom():
        """v op c that the initial state satisfies and some reachable state breaks,
        where v has such a value (else a condition every state satisfies)."""
        i = r.choice(kept)
        values = sorted({s[1][i] for s in g})
        v, x = model.vars[i], init[i]
        cands = ["%s != %d" % (v, c) for c in values if c != x]
        cands += ["%s <= %d" % (v, c) for c in values if x <= c < values[-1]]
        cands += ["%s >= %d" % (v, c) for c in values if values[0] < c <= x]
        return r.choice(cands) if cands else "%s == %d" % (v, x)

    # drawn again (10 times at most) while the assumption leaves no finite
    # successful run: the answer would be a lasso, which the docstring keeps out
    for _ in range(10):
        e = atom()
        if r.random() < 0.4:
            e = "%s %s %s" % (e, r.choice(("||", "&&")), atom())
        ASSUME[:] = [parse_assume(e)]
        ok = finite_exists(model, g)
        ASSUME[:] = []
        if ok:
            return e
    return None


def weights(arg, model, a_states, a_final):
    allstates = list(a_states) + ([a_final] if a_final is not None else [])
    # the largest |V(s)| over a's states: a dead process's locals are no variables
    wc = max(model.nvars(s) for s in allstates) + 2 if allstates else 2
    if arg is None:
        return (1, 1, wc)
    w = [int(x) for x in arg.split(",")]
    return (w[0], w[1], w[2] if len(w) > 2 else wc)


def main(argv):
    args = argv[1:]
    wopt = check = None
    plain = False
    if "--weights" in args:
        k = args.index("--weights")
        wopt = args[k + 1]
        del args[k:k + 2]
    if "--check" in args:
        k = args.index("--check")
        check = args[k + 1]
        del args[k:k + 2]
    if "--plain" in args:
        args.remove("--plain")
        plain = True
    if "--run-to-end" in args:
        args.remove("--run-to-end")
        global RUN_TO_END
        RUN_TO_END = True
    while "--assume" in args:
        k = args.index("--assume")
        ASSUME.append(parse_assume(args[k + 1]))
        del args[k:k + 2]
    if "--random-assume" in args:
        k = args.index("--random-assume")
        print(random_assume(args[0], int(args[k + 1])) or "")
        return 0
    model_path, trail_path = args
    try:
        model, g, a, sa, a_final = load(model_path, trail_path)
    except (NoFit, PromelaError) as e:
        print(json.dumps({"none": "bad trail: %s" % e}))
        return 0 if check is None else compare_refusal(check, "trail")
    W = weights(wopt, model, sa, a_final)
    lasso = not finite_exists(model, g)
    ub = upper_bound(model, g, W, a, sa, model_path, check, lasso) if check and not plain else None
    bound = INF if ub is None else ub[0]
    if lasso:
        best, run, loop = nearest_lasso(model, g, W, a, sa, plain, bound)
    else:
        best, run = nearest(model, g, W, a, sa, plain, bound)
        loop = None
    if ub is not None and run is None:
        best, run = ub  # nothing strictly nearer than pancause's b
    out = {"n": len(a), "wp": W[0], "wa": W[1], "wc": W[2], "nvars": len(model.kept),
           "bounded_by_pancause": ub is not None, "lasso": lasso}
    if loop is not None:
        out["loop_step"] = loop + 1
    if run is None:
        out["none"] = "no successful run"
    else:
        out["distance"] = best
        out["b_length"] = len(run)
    print(json.dumps(out))
    if check is None:
        return 0
    if run is None:
        return compare_refusal(check, "successful")
    return check_answer(model, g, W, a, sa, best, model_path, check, lasso)


def pancause_b(model, g, model_path, c, lasso):
    """pancause's good run from its JSON c, followed by the interpreter: (b, sb)
    when it is a successful run under this file's reading (a lasso when there is
    no finite successful run: the state before its loop_step-th step is its last
    state; else it ends settled or in a valid end state), or a string saying why
    it is none."""
    trail = c.get("good_trail")
    if not trail or not os.path.exists(trail):
        return "no good trail file"
    try:
        b, sb, final = follow(model, g, replay(model_path, trail, cycle_ok=lasso),
                              must_violate=False)
    except (NoFit, PromelaError) as e:
        return "good trail: %s" % e
    if ASSUME:
        for k, st in enumerate(list(sb) + [final]):
            if not assume_ok(model, st):
                return "pancause's b breaks --assume in its state %s" % (
                    "before step %d" % (k + 1) if k < len(sb) else "at its end")
    cb = c.get("b", {})
    if lasso:
        k = cb.get("loop_step")
        if not cb.get("lasso") or not isinstance(k, int) or not 1 <= k <= len(b):
            return "no finite successful run exists, but pancause's b is no lasso (%s)" % cb
        if sb[k - 1] != final:
            return "the lasso's loop (from step %d) does not return to its first state" % k
    else:
        if cb.get("lasso"):
            return "pancause gave a lasso, but a finite successful run exists"
        if not good_end(model, model.settled_states(g), final):
            return ("the good run ends in a state that is neither settled nor a valid "
                    "end state")
    return b, sb


def upper_bound(model, g, W, a, sa, model_path, cjson, lasso=False):
    """(d(a, b), b) for pancause's good run b when this file's own reading says it
    is a successful run (replayed by SPIN, followed by the interpreter: never
    violates, ends settled or in a valid end state), else None.  Its distance by
    the DP bounds the search, which then only looks for strictly nearer runs: the
    minimum is still this file's, and the search is much shorter on long trails
    (no run is kept whose row is nowhere below the bound).  check_answer checks
    the same b again and reports why when it is no successful run."""
    try:
        with open(cjson) as f:
            c = json.load(f)
    except (OSError, ValueError):
        return None
    r = pancause_b(model, g, model_path, c, lasso)
    if isinstance(r, str):
        return None
    b, sb = r
    return distance(model, W, a, sa, b, sb), tuple(zip(b, sb))


def compare_refusal(cjson, what):
    """pancause must have refused too (no JSON, or a JSON without a distance)."""
    try:
        with open(cjson) as f:
            c = json.load(f)
    except (OSError, ValueError):
        return 0
    if "distance" in c:
        print("MISMATCH: the reference finds no %s run, pancause a distance of %s" %
              (what, c["distance"]))
        return 1
    return 0


def check_answer(model, g, W, a, sa, best, model_path, cjson, lasso=False):
    try:
        with open(cjson) as f:
            c = json.load(f)
    except (OSError, ValueError) as e:
        print("MISMATCH: pancause gave no answer (%s); the reference's distance is %s" % (e, best))
        return 1
    errors = []
    if c.get("distance") != best:
        errors.append("distance %s, reference %s" % (c.get("distance"), best))
    r = pancause_b(model, g, model_path, c, lasso)
    if isinstance(r, str):
        errors.append(r)
    else:
        b, sb = r
        db = distance(model, W, a, sa, b, sb)
        if db != c.get("distance"):
            errors.append("d(a, b) of pancause's b is %s, pancause says %s" %
                          (db, c.get("distance")))
        pairs = [(p["step_a"] - 1, p["step_b"] - 1) for p in c.get("alignment", [])]
        ac = alignment_cost(model, W, a, sa, b, sb, pairs)
        if ac != c.get("distance"):
            errors.append("pancause's alignment costs %s, its distance is %s" %
                          (ac, c.get("distance")))
    for e in errors:
        print("MISMATCH: " + e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
