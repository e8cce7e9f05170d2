#!/usr/bin/env python3
"""check-expected.py EXPECTED RESULT.json [--no-ac2]

Compares the causes pan -C wrote as JSON with a case's `expected` file (format: see
cases/railway/expected).  Exits 1 and prints both sides when they differ.  Test
tooling only (Python standard library)."""
import json
import sys


def closure(pairs):
    s = set(pairs)
    changed = True
    while changed:
        changed = False
        for (a, b) in list(s):
            for (c, d) in list(s):
                if b == c and (a, d) not in s:
                    s.add((a, d))
                    changed = True
    return s


def interval(words):
    # "Cl between Cc and Tc" | "Cl before Tc" | "Cl after Cc" | "Cl anywhere"
    ev, how = words[0], words[1]
    if how == "between":
        return (ev, words[2], words[4])
    if how == "before":
        return (ev, None, words[2])
    if how == "after":
        return (ev, words[2], None)
    if how == "anywhere":
        return (ev, None, None)
    raise SystemExit("bad absent line: " + " ".join(words))


def parse_expected(path, ac2):
    causes, cur = [], None
    for raw in open(path, encoding="utf-8"):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if line == "cause":
            cur = {"events": (), "absent": set(), "orders": set()}
            causes.append(cur)
            continue
        key, _, rest = line.partition(":")
        words = rest.split()
        if key == "events":
            cur["events"] = tuple(sorted(words))
        elif key == "absent":
            if ac2:
                cur["absent"].add(interval(words))
        elif key == "orders":
            cur["orders"] = closure(tuple(w.split("<")) for w in words)
        else:
            raise SystemExit("%s: unknown line: %s" % (path, raw.strip()))
    return sorted((c["events"], sorted(c["absent"], key=str), sorted(c["orders"])) for c in causes)


def parse_result(path):
    data = json.load(open(path, encoding="utf-8"))
    out = []
    for c in data["causes"]:
        ab = {(a["event"], a["after"], a["before"]) for a in c["absent_intervals"]}
        out.append((tuple(sorted(c["occurrences"])), sorted(ab, key=str),
                    sorted(tuple(p) for p in c["ordered"])))
    return sorted(out), data


def main():
    if len(sys.argv) < 3:
        raise SystemExit(__doc__)
    ac2 = "--no-ac2" not in sys.argv[3:]
    want = parse_expected(sys.argv[1], ac2)
    got, data = parse_result(sys.argv[2])
    problems = []
    if not data.get("complete"):
        problems.append("result is marked incomplete: %s" % data.get("incomplete_reason"))
    if data.get("ambiguous"):
        problems.append("ambiguous traces reported: %s" % data["ambiguous"])
    if got != want:
        problems.append("causes differ\n  expected: %s\n  got:      %s" % (want, got))
    # the events every cause has: from the expected causes, vouched for every bad run
    # (a complete result without uncaused traces; README "Reading the output")
    def types(occ):  # E_1, E_2 are occurrences of E; a lone step_2 is a label
        base = [e.rsplit("_", 1)[0] if e.rsplit("_", 1)[-1].isdigit() else None for e in occ]
        return {b if b is not None and base.count(b) > 1 else e for e, b in zip(occ, base)}
    common = sorted(set.intersection(*(types(c[0]) for c in want))) if want else []
    every = (sorted(data.get("in_every_cause", [])), data.get("in_every_bad_run"))
    # the cases list no uncaused trace, so a complete result with causes vouches
    if every != (common, bool(want)):
        problems.append("in every cause: expected %s (vouched), got %s (vouched: %s)"
                        % (common, every[0], every[1]))
    if problems:
        print("\n".join(problems))
        sys.exit(1)
    print("ok: %d causes as expected (%s, AC2(2) %s)" % (len(got), data["search"], "on" if ac2 else "off"))


main()
