#!/usr/bin/env python3
"""Fault localisation of `pancause nearest` on bench/faults, scored as Groce's thesis
does (section 5.2, after Renieris & Reiss): the fraction of the program a user need
not read, walking breadth-first through the program dependence graph (PDG) from the
report until a layer holds the faulty line.

    nearest_faults.py [--keep DIR] [--run-to-end] [--weights Wp,Wa,Wc] [NAME ...]   (bench/nearest-faults.sh runs it)

For each benchmark of bench/faults/faults.tsv (default: all): `pancause nearest
NAME.pml --json out.json -- -m100000 [pan_flags]` explains stock pan's counterexample;
the report R is the slice's source lines (`slice_lines`).  One row per model: whether
the slice contains the faulty line, the score 1 - |BFS*|/|PDG|, beside it the thesis'
two other columns of Table 5.1 (`deltas`: the report before slicing, every line of a
delta in either run; `trail`: the counterexample's own lines, the baseline a user has
without explanation; both with the statements SPIN merged into a step, as `spin -t -p`
shows them, as the slice has them since 2026-11-27), exactness, time and the slice's lines; then the means, over all
models and over those with a successful run.  A model without a successful run,
or whose search fails, scores 0 with the faulty line not found.

The PDG is built from SPIN's own tables for the faulty model (`spin -o3 -a`, statement
merging off, so that every statement has a transition of its own: with merging, a
statement merged into its predecessor's transition sits in an unreachable state and
got no edge at all; pan.t's transitions with their home states and statement texts,
pan.c's per-state source lines, pan.h's variables), per proctype:
  * nodes: the source lines that hold a statement of a process (not the never claim,
    not the control transitions IF, DO, goto, break, ATOMIC, -end-);
  * control dependence: the textbook one on pan.t's control flow graph (states, their
    transitions, an exit after -end- and from states that cannot reach it): Y depends on
    branch X when Y post-dominates a successor of X but not X; the predicate of an if/do
    branch is the set of its options' first statements (their guards);
  * data dependence: a local's definitions reach its uses by reaching definitions along
    the control flow graph; a global's every definition reaches every use (another
    process, or another instance, may interleave anywhere);
  * definitions and uses from the statement texts: `v = e` defines v and uses e (and
    v's subscripts), `c?x` uses c and defines c and x, `c!e` uses e and defines c,
    anything else uses every variable it names; a d_step's text is its source lines.
The walk follows an edge in either direction (a report line's own dependences and its
dependents are both one step away), as Renieris & Reiss and Cleve & Zeller count it.
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
FAULTS = os.path.join(HERE, "faults")

CONTROL = re.compile(r"^(IF|DO|ATOMIC|\.\(goto\)|goto .*|break|-end-|D_STEP\d*_?|else)$")
IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
KEYWORDS = {"true", "false", "skip", "else", "assert", "printf", "printm", "run", "len",
            "empty", "nempty", "full", "nfull", "eval", "timeout", "np_", "_pid", "_nr_pr",
            "_last", "enabled", "goto", "break", "atomic", "d_step", "if", "fi", "do", "od"}


# ---------------------------------------------------------------- SPIN's tables

def spin_tables(model_path, work):
    shutil.copy(model_path, os.path.join(work, "model.pml"))
    subprocess.run(["spin", "-o3", "-a", "model.pml"], cwd=work, capture_output=True, timeout=120)
    pan_c = open(os.path.join(work, "pan.c")).read()
    pan_t = open(os.path.join(work, "pan.t")).read()
    pan_h = open(os.path.join(work, "pan.h")).read()
    src = {}
    for m in re.finditer(r"short src_ln(\d+) \[\] = \{(.*?)\};", pan_c, re.S):
        src[int(m.group(1))] = [int(x) for x in re.findall(r"-?\d+", m.group(2))]
    files = {}  # proctype -> [(file, lo, hi)]
    for m in re.finditer(r"S_F_MAP src_file(\d+) \[\] = \{(.*?)\};", pan_c, re.S):
        files[int(m.group(1))] = [(f, int(a), int(b)) for f, a, b in
                                  re.findall(r'\{ "([^"]*)", (\d+), (\d+) \}', m.group(2))]
    trans = []  # (proctype, home state, next state, text)
    cur = None
    for ln in pan_t.splitlines():
        if "settr(" not in ln or "settr(int" in ln or ln.startswith("settr("):
            continue
        m = re.search(r"trans\[\s*(\w+)\]\[\s*(\d+)\]", ln)
        if m:
            cur = (int(m.group(1)), int(m.group(2))) if m.group(1).isdigit() else None
        elif "T->nxt" not in ln:
            continue
        if cur is None:
            continue
        a = re.search(r'settr\((\d+),\s*\w+,\s*(\d+),[^"]*"((?:[^"\\]|\\.)*)"', ln)
        if a:
            trans.append((cur[0], cur[1], int(a.group(2)), a.group(3).replace('\\"', '"')))
    claim = None
    m = re.search(r"#define VERI\s+(\d+)", pan_h)
    if m:
        claim = int(m.group(1))
    state = re.search(r"typedef struct State \{(.*?)\} State;", pan_h, re.S).group(1)
    globals_ = set(re.findall(r"^\s*(?:uchar|short|int|unsigned|char|struct \w+)\s+(\w+)",
                              state, re.M)) - {"_nr_pr", "_nr_qs", "_a_t", "_cnt", "_vsz",
                                               "_last", "_ctx", "_event", "sv", "_ids_"}
    globals_ |= set(re.findall(r"unsigned (\w+) :", state))
    locals_ = {}
    for m in re.finditer(r"typedef struct P(\d+) \{(.*?)\} P\d+;", pan_h, re.S):
        body = re.sub(r"unsigned _\w+\s*:\s*\d+;", "", m.group(2))
        locals_[int(m.group(1))] = set(re.findall(r"(\w+)(?:\[\d+\])?;", body))
    source = open(model_path).read().splitlines()
    return src, files, trans, claim, globals_, locals_, source


def in_model(files, p, s):
    return any(f == "model.pml" and lo <= s <= hi for f, lo, hi in files.get(p, []))


def dstep_text(source, line):
    """A d_step's body from its first line to the matching brace."""
    text, depth, started = [], 0, False
    for ln in source[line - 1:]:
        for ch in ln:
            if ch == "{":
                depth += 1
                started = True
            elif ch == "}":
                depth -= 1
        text.append(ln)
        if started and depth <= 0:
            break
    return " ".join(text)


def defs_uses(text):
    """(defined, used) identifiers of one statement's text."""
    def idents(s):
        out, i = set(), 0
        for m in IDENT.finditer(s):
            rest = s[m.end():].lstrip()
            before = s[:m.start()].rstrip()
            if rest.startswith("(") or before.endswith(".") or m.group() in KEYWORDS:
                continue
            out.add(m.group())
        return out
    if "?" in text and "!" not in text.split("?")[0]:
        ch, args = text.split("?", 1)
        return idents(args) | idents(ch), idents(ch)
    if "!" in text and not text.startswith("!") and "!=" not in text.split("!")[1][:1]:
        ch, args = text.split("!", 1)
        if IDENT.fullmatch(ch.strip()):
            return idents(ch), idents(args) | idents(ch)
    m = re.match(r"\s*([A-Za-z_]\w*)(.*?)\s=\s(.*)$", text)
    if m and "==" not in text[:m.end(2) + 2]:
        return {m.group(1)}, idents(m.group(2)) | idents(m.group(3))
    return set(), idents(text)


def dstep_defs_uses(body):
    d, u = set(), set()
    for st in re.split(r";|->", body.split("{", 1)[-1].rsplit("}", 1)[0]):
        st = st.strip()
        m = re.match(r"([A-Za-z_]\w*)\s*(\+\+|--)$", st)
        if m:
            d.add(m.group(1))
            u.add(m.group(1))
            continue
        dd, uu = defs_uses(st)
        d |= dd
        u |= uu
    return d, u


# ---------------------------------------------------------------- the PDG

def pdg(model_path, work):
    src, files, trans, claim, globals_, locals_, source = spin_tables(model_path, work)
    edges = {}

    def edge(a, b):
        if a != b:
            edges.setdefault(a, set()).add(b)
            edges.setdefault(b, set()).add(a)

    nodes = set()
    by_proc = {}
    for p, s, nxt, text in trans:
        if p == claim or not in_model(files, p, s) or p not in src:
            continue
        by_proc.setdefault(p, []).append((s, nxt, text))
    gdefs, guses = {}, {}  # global var -> lines
    for p, tl in by_proc.items():
        line = lambda s: src[p][s] if s < len(src[p]) else 0  # noqa: E731
        succ, stmts, chains = {}, {}, {}
        for s, nxt, text in tl:
            if text in ("IF", "DO"):
                if nxt:
                    succ.setdefault(s, set()).add(nxt)
                    chains.setdefault(s, set()).add(nxt)
                continue
            if nxt:
                succ.setdefault(s, set()).add(nxt)
            if CONTROL.match(text) and not text.startswith("D_STEP") and text != "else":
                continue
            stmts.setdefault(s, []).append(text)
            nodes.add(line(s))
        states = set(succ) | {t for v in succ.values() for t in v} | set(stmts)
        EXIT = -1
        # states that cannot reach an end get an edge to the exit (loops without exit)
        pred = {}
        for s, ts in succ.items():
            for t in ts:
                pred.setdefault(t, set()).add(s)
        reach = {s for s in states if not succ.get(s)}
        work_ = list(reach)
        while work_:
            t = work_.pop()
            for s in pred.get(t, ()):
                if s not in reach:
                    reach.add(s)
                    work_.append(s)
        full = {s: set(succ.get(s, ())) | ({EXIT} if not succ.get(s) or s not in reach else set())
                for s in states}
        allnodes = states | {EXIT}
        pdom = {s: set(allnodes) for s in states}
        pdom[EXIT] = {EXIT}
        changed = True
        while changed:
            changed = False
            for s in states:
                new = {s} | set.intersection(*(pdom[t] for t in full[s]))
                if new != pdom[s]:
                    pdom[s] = new
                    changed = True
        # control dependence: Y in pdom(succ) \ strict pdom(X), X a branch
        for x in states:
            if len(full[x]) < 2:
                continue
            guards = [line(o) for o in chains.get(x, ()) if o in stmts] or \
                     ([line(x)] if x in stmts else [])
            for t in full[x]:
                if t == EXIT:
                    continue
                for y in pdom[t] - (pdom[x] - {x}):
                    if y == EXIT or y not in stmts:
                        continue
                    for g in guards:
                        edge(g, line(y))
        # data dependence
        du = {}
        for s, texts in stmts.items():
            d, u = set(), set()
            for t in texts:
                if t.startswith("D_STEP"):
                    dd, uu = dstep_defs_uses(dstep_text(source, int(t[6:] or line(s))))
                else:
                    dd, uu = defs_uses(t)
                d |= dd
                u |= uu
            du[s] = (d, u)
            for v in d:
                if v in globals_ and v not in locals_.get(p, ()):
                    gdefs.setdefault(v, set()).add(line(s))
            for v in u:
                if v in globals_ and v not in locals_.get(p, ()):
                    guses.setdefault(v, set()).add(line(s))
        loc = locals_.get(p, set())
        IN = {s: set() for s in states}
        OUT = {s: set() for s in states}
        changed = True
        while changed:
            changed = False
            for s in states:
                i = set()
                for q in pred.get(s, ()):
                    i |= OUT[q]
                d = du.get(s, (set(), set()))[0] & loc
                o = {(v, w) for v, w in i if v not in d} | {(v, s) for v in d}
                if i != IN[s] or o != OUT[s]:
                    IN[s], OUT[s] = i, o
                    changed = True
        for s, (d, u) in du.items():
            for v, w in IN[s]:
                if v in u:
                    edge(line(w), line(s))
    for v, ds in gdefs.items():
        for a in ds:
            for b in guses.get(v, ()):
                edge(a, b)
    nodes.discard(0)
    return nodes, edges


def score(nodes, edges, report, faulty):
    """1 - |BFS*| / |PDG|, and whether the report itself holds the faulty line."""
    layer = set(report) & nodes
    if not layer:
        return 0.0
    while faulty not in layer:
        nxt = set(layer)
        for n in layer:
            nxt |= edges.get(n, set())
        nxt &= nodes | {faulty}
        if nxt == layer:
            return 0.0
        layer = nxt
    return 1.0 - len(layer) / len(nodes | {faulty})


# ---------------------------------------------------------------- the benchmarks

def instances(model_path):
    """The processes a model starts besides init: `active [N] proctype` counts N, a
    `run` statement one (none of bench/faults runs a process in a loop).  One means
    a sequential program, the setting of the thesis' TCAS study."""
    with open(model_path) as f:
        text = re.sub(r"/\*.*?\*/|//[^\n]*", " ", f.read(), flags=re.S)
    n = len(re.findall(r"\brun\s+\w+\s*\(", text))
    for m in re.finditer(r"\bactive\s*(?:\[\s*(\d+)\s*\])?\s*proctype", text):
        n += int(m.group(1) or 1)
    return n


def breakdown(ans):
    """One line: hits and mean score by kind of model and of fault, over the models
    with a successful run (what stands in the way of the targets, README)."""
    groups = [("sequential", lambda x: x["procs"] <= 1), ("concurrent", lambda x: x["procs"] > 1),
              ("dropped statement", lambda x: x["kind"] == "dropped"),
              ("other faults", lambda x: x["kind"] != "dropped")]
    parts = []
    for name, pick in groups:
        g = [x for x in ans if pick(x)]
        if g:
            parts.append("%s %d: %d hits, mean %.3f" %
                         (name, len(g), sum(x["found"] for x in g), sum(x["score"] for x in g) / len(g)))
    return "; ".join(parts)


def rows(names):
    with open(os.path.join(FAULTS, "faults.tsv")) as f:
        lines = [ln.rstrip("\n").split("\t") for ln in f if ln.strip()]
    head = lines[0]
    out = [dict(zip(head, ln)) for ln in lines[1:]]
    return [r for r in out if not names or r["name"] in names]


def one(r, keep):
    work = tempfile.mkdtemp(prefix="nearest-faults-")
    try:
        model = os.path.join(FAULTS, r["file"])
        faulty = int(r["faulty_line"])
        nodes, edges = pdg(model, work)
        flags = (r.get("pan_flags") or "").split()
        out = os.path.join(work, "out.json")
        t0 = time.time()
        p = subprocess.run([os.path.join(ROOT, "bin", "pancause"), "nearest", model, "--json",
                            out] + EXTRA + ["--", "-m100000"] + flags, cwd=work, capture_output=True,
                           text=True, timeout=600)
        secs = time.time() - t0
        res = {"name": r["name"], "line": faulty, "kind": r["kind"], "error": r["error"],
               "pdg": len(nodes | {faulty}), "seconds": secs, "procs": instances(model)}
        if p.returncode or not os.path.exists(out):
            msg = [ln for ln in (p.stderr + p.stdout).splitlines() if "nearest:" in ln]
            res.update(found=False, score=0.0, dscore=0.0, dfound=False, ascore=None, slice=[],
                       status=(msg[-1] if msg else
                                                                  "exit %d" % p.returncode))
            return res
        j = json.load(open(out))
        sl = j["slice_lines"]
        # a step's lines: its own and those of the statements SPIN merged into it
        def lines(run, step):
            st = j[run]["steps"][step - 1]
            return [st["line"]] + [x["line"] for x in st.get("merged", [])]
        dl = set()
        for d in j["deltas"]:
            dl |= {d[k] for k in ("line", "line_b") if d.get(k)}
            if d["kind"] in ("action", "deleted"):
                dl |= set(lines("a", d["step_a"]))
            if d["kind"] in ("action", "inserted"):
                dl |= set(lines("b", d["step_b"]))
        dl = sorted(dl - {0})
        al = sorted({ln for k in range(len(j["a"]["steps"])) for ln in lines("a", k + 1) if ln})
        res.update(found=faulty in sl, score=score(nodes, edges, sl, faulty), slice=sl,
                   dscore=score(nodes, edges, dl, faulty), dfound=faulty in dl,
                   ascore=score(nodes, edges, al, faulty),
                   distance=j["distance"], exact=j["exact"], status="ok",
                   deltas=len(j["deltas"]), nslice=len(j["slice"]))
        if keep:
            shutil.copy(out, os.path.join(keep, r["name"] + ".json"))
        return res
    finally:
        shutil.rmtree(work, ignore_errors=True)


EXTRA = []  # options for every `pancause nearest` (--run-to-end)


def main(argv):
    args = argv[1:]
    keep = None
    if "--run-to-end" in args:
        args.remove("--run-to-end")
        EXTRA.append("--run-to-end")
    if "--weights" in args:  # the same weights for every model (README: tried, not kept)
        k = args.index("--weights")
        EXTRA.extend(["--weights", args[k + 1]])
        del args[k:k + 2]
    if "--keep" in args:
        k = args.index("--keep")
        keep = args[k + 1]
        os.makedirs(keep, exist_ok=True)
        del args[k:k + 2]
    todo = rows(set(args))
    jobs = int(os.environ.get("JOBS", "2"))
    with ThreadPoolExecutor(jobs) as ex:
        res = list(ex.map(lambda r: one(r, keep), todo))
    print("%-20s %4s %-10s %-17s %5s %5s %6s %6s %6s %-5s %5s  %s" %
          ("name", "line", "kind", "error", "PDG", "found", "score", "deltas", "trail", "exact",
           "secs", "slice lines"))
    for x in res:
        print("%-20s %4d %-10s %-17s %5d %5s %6.3f %6.3f %6s %-5s %5.1f  %s" %
              (x["name"], x["line"], x["kind"], x["error"], x["pdg"],
               "yes" if x["found"] else "no", x["score"], x["dscore"],
               "-" if x["ascore"] is None else "%.3f" % x["ascore"],
               {True: "yes", False: "no"}.get(x.get("exact"), "-"), x["seconds"],
               " ".join(map(str, x["slice"])) if x["status"] == "ok" else x["status"][:60]))
    n = len(res)
    if n:
        found = sum(x["found"] for x in res)
        mean = sum(x["score"] for x in res) / n
        print("\n%d models: faulty line in the slice for %d (%.0f%%); mean score %.3f" %
              (n, found, 100.0 * found / n, mean))
        ans = [x for x in res if x["status"] == "ok"]
        if ans:
            m = len(ans)
            print("%d with a successful run: slice %d hits (%.0f%%), mean %.3f; all deltas "
                  "%d hits, mean %.3f; the counterexample itself mean %.3f" %
                  (m, sum(x["found"] for x in ans), 100.0 * sum(x["found"] for x in ans) / m,
                   sum(x["score"] for x in ans) / m, sum(x["dfound"] for x in ans),
                   sum(x["dscore"] for x in ans) / m, sum(x["ascore"] for x in ans) / m))
            print("  of these, " + breakdown(ans))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
