#!/usr/bin/env python3
"""Random (formula, trace) cases for the explain oracle, as NuSMV output.

    gen.py SEED N OUTDIR [-j JOBS]

writes OUTDIR/case0000.smv .. case{N-1}.smv.  Case i depends only on (SEED,
i), so the same arguments always give the same files, whatever JOBS.

Each case: 1-3 Boolean variables from {a,b,c,d}; a formula with 1-7
operators over ! & | -> <-> xor xnor X G F U V (and rarely TRUE/FALSE); a
finite trace of 1-5 states or a lasso of 1-4 shown states with its loop
start anywhere.  Kept (by rejection): about 93% cases that fail by the
reference (finite or infinite failure), biased toward several causes and
causes that need a contingency; about 5% that hold (one in five written as
`is true` without a trace); about 2% finite traces whose value is unknown.
"""

import os
import random
import sys

sys.dont_write_bytecode = True  # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import reference as ref  # noqa: E402

VARS = ["a", "b", "c", "d"]
UNARY = ["not", "X", "G", "F"]
BINARY = ["and", "or", "imp", "iff", "xor", "xnor", "U", "V"]
HOLD_FRACTION = 0.05
UNKNOWN_FRACTION = 0.02

HEADER = """*** This is NuSMV 2.6.0 (compiled on Wed Oct 14 15:37:51 2015)
*** Enabled addons are: compass
*** For more information on NuSMV see <http://nusmv.fbk.eu>
"""


def rand_formula(rng, vars_, nops):
    if nops == 0:
        if rng.random() < 0.04:
            return ("const", rng.random() < 0.5)
        return ("prop", (rng.choice(vars_), None, None))
    if rng.random() < 0.4:
        op = rng.choice(UNARY)
        return (op, rand_formula(rng, vars_, nops - 1))
    op = rng.choice(BINARY + ["U", "V", "U", "and", "or"])
    left = rng.randint(0, nops - 1)
    return (op, rand_formula(rng, vars_, left), rand_formula(rng, vars_, nops - 1 - left))


def rand_case(rng):
    nv = rng.choice([1, 2, 2, 3, 3])
    vars_ = sorted(rng.sample(VARS, nv))
    nops = rng.randint(1, 7)
    f = rand_formula(rng, vars_, nops)
    density = rng.choice([0.3, 0.5, 0.5, 0.7])
    if rng.random() < 0.5:
        n = rng.randint(1, 5)
        loop = None
    else:
        n = rng.randint(1, 4)
        loop = rng.randrange(n)
    states = [{v: rng.random() < density for v in vars_} for _ in range(n)]
    return vars_, f, states, loop


def analyze_case(vars_, f, states, loop):
    props = ref.props_of(f)
    word = []
    for st in states:
        a = 0
        for i, p in enumerate(props):
            if st[p[0]]:
                a |= 1 << i
        word.append(a)
    return ref.analyze(f, props, word, loop)


def write_case(path, vars_, f, states, loop, verdict="false"):
    text = ref.to_text(f)
    out = [HEADER.rstrip("\n")]
    out.append("-- specification %s  is %s" % (text, verdict))
    if verdict == "false":
        out.append("-- as demonstrated by the following execution sequence")
        out.append("Trace Description: LTL Counterexample ")
        out.append("Trace Type: Counterexample ")
        shown = list(states) + ([states[loop]] if loop is not None else [])
        prev = None
        for j, st in enumerate(shown):
            if loop is not None and j == loop:
                out.append("  -- Loop starts here")
            out.append("  -> State: 1.%d <-" % (j + 1))
            for v in vars_:
                if prev is None or prev[v] != st[v]:
                    out.append("    %s = %s" % (v, "TRUE" if st[v] else "FALSE"))
            prev = st
    with open(path, "w") as fh:
        fh.write("\n".join(out) + "\n")


def make_case(seed, i):
    rng = random.Random("explain-oracle:%d:%d" % (seed, i))
    r = rng.random()
    want = "holds" if r < HOLD_FRACTION else \
        "unknown" if r < HOLD_FRACTION + UNKNOWN_FRACTION else "fails"
    for _attempt in range(100000):
        vars_, f, states, loop = rand_case(rng)
        if want == "unknown" and loop is not None:
            continue
        try:
            res = analyze_case(vars_, f, states, loop)
        except ref.InputError:
            continue
        if res.status != want:
            continue
        if want == "fails":
            nc = len(res.causes)
            contingent = len(res.causes) > len(res.but_for)
            weight = 1.0 if (nc >= 3 or contingent) else 0.5 if nc == 2 else 0.15
            if rng.random() >= weight:
                continue
        verdict = "false"
        if want == "holds" and rng.random() < 0.2:
            verdict = "true"
        return vars_, f, states, loop, verdict
    raise RuntimeError("no case found for seed %d, %d" % (seed, i))


def _job(args):
    seed, i, outdir = args
    vars_, f, states, loop, verdict = make_case(seed, i)
    write_case(os.path.join(outdir, "case%04d.smv" % i), vars_, f, states, loop, verdict)
    return i


def main(argv):
    args = list(argv[1:])
    jobs = 1
    if "-j" in args:
        k = args.index("-j")
        jobs = int(args[k + 1])
        del args[k:k + 2]
    if len(args) != 3:
        print("usage: gen.py SEED N OUTDIR [-j JOBS]", file=sys.stderr)
        return 2
    seed, n, outdir = int(args[0]), int(args[1]), args[2]
    os.makedirs(outdir, exist_ok=True)
    work = [(seed, i, outdir) for i in range(n)]
    if jobs > 1:
        import multiprocessing
        with multiprocessing.Pool(jobs) as pool:
            for _ in pool.imap_unordered(_job, work, chunksize=8):
                pass
    else:
        for w in work:
            _job(w)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
