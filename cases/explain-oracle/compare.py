#!/usr/bin/env python3
"""Differential test of `pancause explain` against reference.py.

    compare.py [--bin BIN] [-j JOBS] [--keep DIR | --no-keep] [--report FILE]
               [--lenient-holds] FILE.smv|DIR ...

For each NuSMV file (a directory stands for its *.smv files), runs the
reference in-process and

    BIN explain --nusmv FILE --json            (default mode)
    BIN explain --nusmv FILE --json --exact    (exact mode)

BIN: --bin, else $PANCAUSE, else <repo>/bin/pancause.  Records are matched
in order (a specification the reference calls holding or unknown may lack a
record, see below).  Checks, per failing specification:
  first_failure  equal in both modes (k on the infinite word; null for an
                 infinite failure)
  loop_start     equal in both modes
  exact          the dots with "exact": true are exactly the reference's
                 causes; no dot has "exact": null
  default        the dots contain every reference cause (extra dots are
                 counted, not failed); no dot has "exact" other than null
  exit status    0
A specification that holds: a record with "holds": true and no dots (exit
status 0 or 3); --lenient-holds also accepts no record (the tool's
behaviour before it printed such records; exit status 3 if nothing else in
the file is explained).  A finite trace with
value unknown: no record (or one with holds false, first_failure and
loop_start null, no dots), exit status 3 (0 if other specs are explained).

Prints one line per failing case (the file, the differences, a repro
command), then a summary; exit status 1 on any failure.  Failing cases are
kept in DIR/<case>/ (default: $TMPDIR/explain-oracle-failures) with the
input, both outputs, the reference's JSON, report.txt and repro.sh.
"""

import json
import os
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True  # keep the source tree clean
sys.path.insert(0, HERE)
import reference as ref  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(HERE))
DEFAULT_BIN = os.path.join(ROOT, "bin", "pancause")
TIMEOUT = 60


def run_c(binary, path, exact):
    cmd = [binary, "explain", "--nusmv", path, "--json"] + (["--exact"] if exact else [])
    t0 = time.time()
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=TIMEOUT, universal_newlines=True)
        rc, out, err = p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        rc, out, err = "timeout", "", "timeout after %d s" % TIMEOUT
    recs, bad = [], None
    for line in out.splitlines():
        if not line.strip():
            continue
        try:
            recs.append(json.loads(line))
        except ValueError:
            bad = line
    return {"cmd": cmd, "rc": rc, "stdout": out, "stderr": err, "records": recs,
            "bad_json": bad, "time": time.time() - t0}


def dotset(rec, want_exact=None):
    out = set()
    for d in rec.get("dots", []):
        if want_exact is None or d.get("exact") is want_exact:
            out.add((d["step"], d["variable"]))
    return out


def fmt(pairs):
    return "{" + ", ".join("<%d,%s>" % p for p in sorted(pairs)) + "}"


def compare_case(path, binary, lenient_holds=False):
    """Returns a dict: path, diffs [(category, text)], stats, outputs."""
    diffs = []
    stats = {"causes": 0, "default_dots": 0, "extra": 0, "specs": 0}
    t0 = time.time()
    try:
        refrecs = ref.explain_file(path)
    except ref.InputError as e:
        return {"path": path, "diffs": [("reference-error", str(e))], "stats": stats,
                "ref": None, "c": {}, "ref_time": time.time() - t0}
    ref_time = time.time() - t0
    outs = {"default": run_c(binary, path, False), "exact": run_c(binary, path, True)}
    any_fail = any(r["status"] == "fails" for r in refrecs)
    for mode, o in outs.items():
        if o["bad_json"] is not None:
            diffs.append(("c-output", "%s: not JSON: %r" % (mode, o["bad_json"][:80])))
        if o["rc"] not in (0, 3):
            diffs.append(("c-exit", "%s: exit status %s: %s" % (mode, o["rc"], o["stderr"].strip()[:200])))
        elif any_fail and o["rc"] != 0:
            diffs.append(("c-exit", "%s: exit status %s although a spec fails: %s"
                          % (mode, o["rc"], o["stderr"].strip()[:200])))
        elif not any_fail and o["rc"] != 3 and not (o["rc"] == 0 and o["records"]):
            diffs.append(("c-exit", "%s: exit status %s, nothing to explain" % (mode, o["rc"])))
        recs = list(o["records"])
        i = 0
        for r in refrecs:
            st = r["status"]
            nxt = recs[i] if i < len(recs) else None
            if st == "fails":
                if mode == "default":
                    stats["specs"] += 1
                if nxt is None:
                    diffs.append(("missing-record", "%s: no record for failing %s" % (mode, r["formula"])))
                    continue
                i += 1
                compare_fail(mode, r, nxt, diffs, stats)
            elif st == "holds":
                if nxt is not None and nxt.get("holds") is True:
                    i += 1
                    if nxt.get("dots"):
                        diffs.append(("holds-dots", "%s: %s holds but dots %s" % (mode, r["formula"], fmt(dotset(nxt)))))
                elif nxt is not None and "holds" not in nxt and len(refrecs) == 1:
                    i += 1
                    diffs.append(("holds-explained", "%s: %s holds, tool explains it: first_failure %s, loop_start %s, dots %s"
                                  % (mode, r["formula"], nxt.get("first_failure"), nxt.get("loop_start"), fmt(dotset(nxt)))))
                elif not lenient_holds:
                    diffs.append(("holds-no-record", "%s: %s holds, no record with \"holds\": true (exit %s)"
                                  % (mode, r["formula"], o["rc"])))
            else:  # unknown
                if nxt is not None and nxt.get("holds") is not True and nxt.get("first_failure") is None \
                        and nxt.get("loop_start") is None:
                    i += 1
                    if nxt.get("dots"):
                        diffs.append(("unknown-dots", "%s: %s unknown but dots %s" % (mode, r["formula"], fmt(dotset(nxt)))))
                elif nxt is not None and len(refrecs) == 1:
                    i += 1
                    diffs.append(("unknown-explained", "%s: value of %s unknown, tool says %s"
                                  % (mode, r["formula"], json.dumps(nxt))))
        if i < len(recs):
            diffs.append(("extra-record", "%s: %d records more than expected" % (mode, len(recs) - i)))
    return {"path": path, "diffs": diffs, "stats": stats, "ref": refrecs,
            "c": outs, "ref_time": ref_time}


def compare_fail(mode, r, c, diffs, stats):
    causes = {tuple(x) for x in r["causes"]}
    if c.get("holds") is True:
        diffs.append(("fail-says-holds", "%s: %s fails, tool says it holds" % (mode, r["formula"])))
        return
    if c.get("first_failure") != r["first_failure"]:
        hint = ""
        k, l, m = r["first_failure"], r["loop_start"], r.get("shown_states")
        if k is not None and l is not None and m and k >= m \
                and c.get("first_failure") == l + (k - l) % (m - l):
            hint = " (folded into the loop's first round)"
        diffs.append(("first_failure", "%s: first_failure %s, reference %s%s"
                      % (mode, c.get("first_failure"), r["first_failure"], hint)))
    if c.get("loop_start") != r["loop_start"]:
        diffs.append(("loop_start", "%s: loop_start %s, reference %s"
                      % (mode, c.get("loop_start"), r["loop_start"])))
    dots = dotset(c)
    if mode == "exact":
        nulls = {(d["step"], d["variable"]) for d in c.get("dots", []) if d.get("exact") is None}
        if nulls:
            diffs.append(("exact-undecided", "exact: undecided dots %s" % fmt(nulls)))
        yes = dotset(c, True)
        if yes - causes:
            diffs.append(("exact-extra", "exact: not causes but exact true %s (reference causes %s)"
                          % (fmt(yes - causes), fmt(causes))))
        if causes - yes:
            miss = causes - yes
            parts = [("marked false", miss & dotset(c, False)), ("undecided", miss & nulls),
                     ("no dot", miss - dots)]
            diffs.append(("exact-missing", "exact: causes not marked exact true %s (%s)"
                          % (fmt(miss), ", ".join("%s %s" % (n, fmt(s)) for n, s in parts if s))))
    else:
        stats["causes"] += len(causes)
        stats["default_dots"] += len(dots)
        stats["extra"] += len(dots - causes)
        if causes - dots:
            diffs.append(("default-missing", "default: causes without a dot %s (dots %s)"
                          % (fmt(causes - dots), fmt(dots))))
        bad = [d for d in c.get("dots", []) if d.get("exact") is not None]
        if bad:
            diffs.append(("default-exact", "default: dots with exact set"))


def keep_failure(res, keepdir, binary):
    name = os.path.splitext(os.path.basename(res["path"]))[0]
    d = os.path.join(keepdir, name)
    os.makedirs(d, exist_ok=True)
    shutil.copy(res["path"], os.path.join(d, "case.smv"))
    with open(os.path.join(d, "report.txt"), "w") as fh:
        for cat, text in res["diffs"]:
            fh.write("%s: %s\n" % (cat, text))
    if res["ref"] is not None:
        with open(os.path.join(d, "reference.json"), "w") as fh:
            for r in res["ref"]:
                fh.write(json.dumps(r) + "\n")
    for mode, o in res["c"].items():
        with open(os.path.join(d, "c.%s.json" % mode), "w") as fh:
            fh.write(o["stdout"])
        with open(os.path.join(d, "c.%s.stderr" % mode), "w") as fh:
            fh.write("exit status %s\n%s" % (o["rc"], o["stderr"]))
    repro = os.path.join(d, "repro.sh")
    with open(repro, "w") as fh:
        fh.write("#!/bin/sh\n# re-run the reference and both modes of the tool on this case\n"
                 "here=$(cd \"$(dirname \"$0\")\" && pwd)\n"
                 "bin=${PANCAUSE:-%s}\n"
                 "echo '# reference'; python3 %s \"$here/case.smv\"\n"
                 "echo '# default'; \"$bin\" explain --nusmv \"$here/case.smv\" --json\n"
                 "echo '# exact'; \"$bin\" explain --nusmv \"$here/case.smv\" --json --exact\n"
                 "echo '# compare'; exec python3 %s --bin \"$bin\" --no-keep \"$here/case.smv\"\n"
                 % (binary, os.path.join(HERE, "reference.py"), os.path.join(HERE, "compare.py")))
    os.chmod(repro, 0o755)
    return repro


def _work(args):
    path, binary, lenient = args
    return compare_case(path, binary, lenient)


def main(argv):
    args = list(argv[1:])
    binary = os.environ.get("PANCAUSE") or DEFAULT_BIN
    jobs = 1
    keep = os.path.join(os.environ.get("TMPDIR", "/tmp"), "explain-oracle-failures")
    report = None
    lenient = False
    files = []
    while args:
        a = args.pop(0)
        if a == "--bin":
            binary = args.pop(0)
        elif a == "-j":
            jobs = int(args.pop(0))
        elif a == "--keep":
            keep = args.pop(0)
        elif a == "--report":
            report = args.pop(0)
        elif a == "--no-keep":
            keep = None
        elif a == "--lenient-holds":
            lenient = True
        elif a.startswith("-"):
            print(__doc__, file=sys.stderr)
            return 2
        elif os.path.isdir(a):
            files += sorted(os.path.join(a, f) for f in os.listdir(a) if f.endswith(".smv"))
        else:
            files.append(a)
    if not files:
        print("compare.py: no input files", file=sys.stderr)
        return 2
    if not os.access(binary, os.X_OK):
        print("compare.py: %s is not executable (make -s -j2 all)" % binary, file=sys.stderr)
        return 2
    binary = os.path.abspath(binary)
    t0 = time.time()
    work = [(f, binary, lenient) for f in files]
    if jobs > 1:
        import multiprocessing
        pool = multiprocessing.Pool(jobs)
        results = pool.imap(_work, work, chunksize=4)
    else:
        pool = None
        results = map(_work, work)
    npass = nfail = 0
    tot = {"causes": 0, "default_dots": 0, "extra": 0, "specs": 0}
    cats = {}
    ref_time = c_time = 0.0
    rep = open(report, "w") if report else None
    for res in results:
        for k in tot:
            tot[k] += res["stats"][k]
        ref_time += res["ref_time"]
        c_time += sum(o["time"] for o in res["c"].values())
        if rep:
            rep.write(json.dumps({"path": res["path"], "diffs": res["diffs"], "ref": res["ref"],
                                  "c": {m: {"rc": o["rc"], "records": o["records"],
                                            "stderr": o["stderr"]} for m, o in res["c"].items()}}) + "\n")
        if not res["diffs"]:
            npass += 1
            continue
        nfail += 1
        for c in {cat for cat, _ in res["diffs"]}:
            cats[c] = cats.get(c, 0) + 1
        line = "FAIL %s: %s" % (res["path"], "; ".join(t for _, t in res["diffs"]))
        if keep:
            line += "  [repro: sh %s]" % keep_failure(res, keep, binary)
        print(line)
        sys.stdout.flush()
    if pool:
        pool.close()
        pool.join()
    if rep:
        rep.close()
    elapsed = time.time() - t0
    pct = 100.0 * tot["extra"] / tot["default_dots"] if tot["default_dots"] else 0.0
    print("failing specifications: %d exact causes in all; default mode %d dots, %d extra (%.1f%%)"
          % (tot["causes"], tot["default_dots"], tot["extra"], pct))
    if cats:
        print("failures by kind: " + ", ".join("%s %d" % kv for kv in sorted(cats.items(), key=lambda x: -x[1])))
    if nfail and keep:
        print("failing cases kept in %s" % keep)
    print("time: %.1f s wall; reference %.1f s, tool %.1f s (CPU, summed over jobs)"
          % (elapsed, ref_time, c_time))
    print("cases: %d, passed: %d, failed: %d" % (npass + nfail, npass, nfail))
    return 1 if nfail else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
