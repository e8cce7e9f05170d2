#!/usr/bin/env python3
"""Checks of reference.py itself.

    selftest.py [RANDOM_ROUNDS [SEED]]

1. The worked examples of the brief and the paper's examples (section 3.1,
   a U (b U c) on a.(0)^w, G(req -> X ack) of section 5), with their
   expected first failure and causes.
2. Random cross-checks (default 400 formulas) between independent parts:
   * the bit-parallel lasso evaluator against the tableau's product with
     the lasso (unpruned tableau, explicit fair-cycle search);
   * Definition 2 (pruned tableau) against a bounded search of lasso
     continuations evaluated by the direct evaluator (a FALSE prefix must
     have no satisfying continuation, a TRUE prefix no violating one;
     UNKNOWN must show both, within continuations of up to 3+3 states);
   * the layered cause search against literal enumeration of all A;
   * for infinite failures, the causes again with satisfaction of each
     flipped lasso decided by the automaton instead of the evaluator;
   * the first failure: the prefix before k is not FALSE, a direct
     re-computation without the automaton cache agrees.
Exit status 1 on any failure.
"""

import itertools
import os
import random
import sys

sys.dont_write_bytecode = True  # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import reference as ref  # noqa: E402
import gen  # noqa: E402

FAILS = []


def check(cond, msg):
    if not cond:
        FAILS.append(msg)
        print("FAIL:", msg)


def run(formula, vars_, states, loop):
    """states: list of strings of true variables; returns Result with
    causes as (step, var)."""
    f = ref.parse_formula(formula)
    props = ref.props_of(f)
    word = []
    for st in states:
        a = 0
        for i, p in enumerate(props):
            if p[0] in st.split():
                a |= 1 << i
        word.append(a)
    res = ref.analyze(f, props, word, loop)
    res2 = ref.analyze(f, props, word, loop, naive=True)
    check(sorted(res.causes) == sorted(res2.causes),
          "%s: layered %s != naive %s" % (formula, res.causes, res2.causes))
    res.vcauses = sorted((j, props[p][0]) for j, p in res.causes)
    return res


def expect(name, formula, states, loop, status, k, causes):
    res = run(formula, None, states, loop)
    got = (res.status, res.first_failure, res.vcauses)
    want = (status, k, sorted(causes))
    check(got == want, "%s: %s got %s, want %s" % (name, formula, got, want))
    if got == want:
        print("ok  %-40s %s k=%s causes=%s" % (name, formula, k, sorted(causes)))


def worked_examples():
    # the brief's examples
    expect("F X b on |()", "F X b", [""], 0, "fails", None, [(0, "b")])
    expect("F G a on |()(a)", "F G a", ["", "a"], 0, "fails", None, [(0, "a")])
    expect("U X on |(b c)", "((b | d) | F d) U X (d & a)", ["b c"], 0, "fails", None,
           [(0, "a"), (0, "d")])
    expect("b V a on |()", "b V a", [""], 0, "fails", 0, [(0, "a")])
    expect("X a on |(b)", "X a", ["b"], 0, "fails", 1, [(1, "a")])
    r = run("q U (r & X r)", None, ["r", ""], None)
    check(r.first_failure == 1 and (1, "q") in r.vcauses,
          "q U (r & X r) on (r)(): k=%s causes=%s" % (r.first_failure, r.vcauses))
    print("ok  q U (r & X r) on (r)():  k=1 causes=%s" % r.vcauses)
    # the paper, section 3.1
    expect("paper 1: G p", "G p", ["p", "p", "", "", "p"], 4, "fails", 2, [(2, "p")])
    expect("paper 2: F p on (!p)^w", "F p", [""], 0, "fails", None, [(0, "p")])
    expect("paper 3: G(a&b&c) on ()^w", "G (a & b & c)", [""], 0, "fails", 0,
           [(0, "a"), (0, "b"), (0, "c")])
    expect("paper 3, finite", "G (a & b & c)", ["", "", ""], None, "fails", 0,
           [(0, "a"), (0, "b"), (0, "c")])
    expect("paper a U (b U c)", "a U (b U c)", ["a", ""], 1, "fails", 1,
           [(1, "a"), (1, "b"), (0, "c"), (1, "c")])
    expect("paper sec. 5", "G (req -> X ack)", ["req", "ack", "req", "req", ""], 4,
           "fails", 3, [(2, "req"), (3, "ack")])
    # Definition 2 beyond evaluation: G F a & G !a is false at once
    expect("unsat conjunction", "G F a & G !a", ["a"], None, "fails", 0, [])
    # holds / unknown
    expect("holds on lasso", "G F a", ["", "a"], 0, "holds", None, [])
    expect("unknown finite", "G a", ["a", "a"], None, "unknown", None, [])
    expect("holds finite", "F a", ["", "a"], None, "holds", None, [])
    # failure in a later round of the loop: X X X a on |()(b): k = 3
    expect("later round", "X X X a", ["", "b"], 0, "fails", 3, [(3, "a")])
    # <-> gives both polarities: r <-> ((p & q) V (q V p)) style check of
    # the README's r <-> ((p && q) W (q W p)) on (p): <0,q> is a cause
    r = run("r <-> (((p & q) U ((q U p) | G q)) | G (p & q))", None, ["p"], None)
    print("ok  README's <-> example: k=%s causes=%s" % (r.first_failure, r.vcauses))
    check((0, "q") in r.vcauses, "<-> example: <0,q> not a cause: %s" % r.vcauses)
    # a constant operand of <-> does not remove the other's negative
    # polarity: c (true at 0) is bottom-valued, <0,d> a cause with
    # A = {<0,c>, <1,d>}
    expect("<-> with a constant", "(TRUE <-> c) U G d", ["c", ""], None, "fails", 1,
           [(0, "d"), (1, "c"), (1, "d")])
    # formula without variables
    expect("constant formula", "G FALSE", ["a"], None, "fails", 0, [])


def fixture():
    """explain/tests/fixtures/nusmv_live.txt: the LTL spec, the true spec,
    the CTL spec skipped, the invariant with comparisons."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                        "explain", "tests", "fixtures", "nusmv_live.txt")
    if not os.path.exists(path):
        print("skip fixture (not found)")
        return
    got = [(r["formula"], r["status"], r["first_failure"], r["loop_start"],
            [tuple(c) for c in r["causes"]]) for r in ref.explain_file(path)]
    want = [("G (req -> F ack)", "fails", None, 2,
             [(1, "ack"), (1, "req"), (2, "ack"), (3, "ack")]),
            ("G n < 3", "holds", None, None, []),
            ("G ((st = idle -> n = 0))", "fails", 2, None, [(2, "n"), (2, "st")])]
    check(got == want, "fixture nusmv_live.txt: got %s" % got)
    if got == want:
        print("ok  fixture nusmv_live.txt")


def lasso_words(P, maxlen):
    for m in range(1, maxlen + 1):
        for w in itertools.product(range(1 << P), repeat=m):
            for l in range(m):
                yield list(w), l


def random_crosschecks(rounds, seed=12345):
    rng = random.Random(seed)
    nunk_inconclusive = 0
    for r in range(rounds):
        vars_, f, states, loop = gen.rand_case(rng)
        props = ref.props_of(f)
        pidx = {p: i for i, p in enumerate(props)}
        P = len(props)
        text = ref.to_text(f)
        # parse(to_text(f)) == f
        check(ref.parse_formula(text) == f, "round trip of %s" % text)
        T = ref.Tableau(f, pidx)
        # 1. lasso evaluator vs automaton product
        for w, l in itertools.islice(lasso_words(P, 3), 0, 400):
            if rng.random() < 0.5 and P > 1:
                continue
            a = ref.lasso_sat(f, pidx, w, l)
            b = T.lasso_accepts(w, l)
            check(a == b, "%s on lasso %s loop %d: eval %s, automaton %s" % (text, w, l, a, b))
        # 2. Definition 2 vs bounded continuations
        conts = list(lasso_words(P, 2 if P >= 2 else 3))
        for plen in (1, 2, 3):
            for _ in range(3):
                prefix = [rng.randrange(1 << P) for _ in range(plen)]
                v = T.value(prefix)
                sat = uns = False
                for c, l in conts:
                    s = ref.lasso_sat(f, pidx, prefix + c, plen + l)
                    sat |= s
                    uns |= not s
                    if sat and uns:
                        break
                if v == "F":
                    check(not sat, "%s prefix %s: FALSE but a continuation satisfies" % (text, prefix))
                elif v == "T":
                    check(not uns, "%s prefix %s: TRUE but a continuation violates" % (text, prefix))
                elif not (sat and uns):
                    nunk_inconclusive += 1
        # 3 and 4: analysis, layered vs naive, first failure minimal
        word = []
        for st in states:
            word.append(sum(1 << i for i, p in enumerate(props) if st[p[0]]))
        res = ref.analyze(f, props, word, loop, tableau=T)
        if res.status == "fails" and res.first_failure is not None:
            if res.nbottom <= 16:
                res2 = ref.analyze(f, props, word, loop, naive=True)
                check(sorted(res.causes) == sorted(res2.causes),
                      "%s on %s loop %s: layered %s naive %s" % (text, word, loop, res.causes, res2.causes))
            k = res.first_failure
            m = len(word)
            unrolled = [word[j] if j < m else word[loop + (j - loop) % (m - loop)] for j in range(k + 1)]
            T2 = ref.Tableau(f, pidx)
            check(T2.value(unrolled) == "F", "%s: prefix at k not FALSE" % text)
            if k > 0:
                check(T2.value(unrolled[:k]) != "F", "%s: prefix before k FALSE" % text)
        if res.status == "fails" and res.first_failure is None:
            check(loop is not None and not T.lasso_accepts(word, loop),
                  "%s: infinite failure but the automaton accepts" % text)
            if res.nbottom <= 6:
                # Definition 4 again, satisfaction decided by the automaton
                pol = ref.polarities(f, pidx)
                B = [(j, v) for j in range(len(word)) for v in range(P)
                     if ref.bottom_mask(word[j], pol) >> v & 1]
                false = bytearray(1 << len(B))
                for mask in range(1 << len(B)):
                    w = list(word)
                    for t, (j, v) in enumerate(B):
                        if mask >> t & 1:
                            w[j] ^= 1 << v
                    false[mask] = not T.lasso_accepts(w, loop)
                c2, _ = ref._causes_from_table(B, false)
                check(sorted(res.causes) == c2, "%s on %s loop %s: causes %s, by automaton %s"
                      % (text, word, loop, sorted(res.causes), c2))
        if res.status == "holds" and loop is not None:
            check(T.lasso_accepts(word, loop), "%s: holds but the automaton rejects" % text)
    print("random cross-checks: %d formulas, %d unknown prefixes without both "
          "witnesses among the short continuations" % (rounds, nunk_inconclusive))


def main(argv):
    rounds = int(argv[1]) if len(argv) > 1 else 400
    seed = int(argv[2]) if len(argv) > 2 else 12345
    worked_examples()
    fixture()
    random_crosschecks(rounds, seed)
    if FAILS:
        print("%d failures" % len(FAILS))
        return 1
    print("selftest passed")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
