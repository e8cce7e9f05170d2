#!/usr/bin/env python3
"""Canonical comparison of two causality results (oracle or pan -C --json).

    compare.py EXPECTED.json ACTUAL.json     exit 0 iff equal, else print a diff

Compared (everything else in the files is ignored):
  causes     the set of (occurrences, absent_intervals, ordered), each part
             order-insensitive;
  ambiguous  the set of traces;
  uncaused   the set of event *multisets* (different traces may witness
             the same set);
  common     in_every_cause with in_every_bad_run (the events every cause has,
             and whether every bad run is vouched to have them), where both
             files have them; the vouching only between complete results (an
             incomplete one never vouches).
"""

import json
import sys


def _interval(iv):
    return (iv["event"], iv.get("after"), iv.get("before"))


def _nf(x):
    return (0, "") if x is None else (1, x)


def canon(d):
    causes = set()
    for c in d.get("causes", []):
        occ = tuple(sorted(c.get("occurrences", [])))
        ivs = tuple(sorted((_interval(i) for i in c.get("absent_intervals", [])),
                           key=lambda t: (t[0], _nf(t[1]), _nf(t[2]))))
        ordered = tuple(sorted(tuple(p) for p in c.get("ordered", [])))
        causes.add((occ, ivs, ordered))
    ambiguous = {tuple(a["trace"]) for a in d.get("ambiguous", [])}
    uncaused = {tuple(sorted(u["trace"])) for u in d.get("uncaused", [])}
    common = None
    if "in_every_cause" in d:
        common = (tuple(sorted(d["in_every_cause"])),
                  bool(d.get("in_every_bad_run")) if d.get("complete", True) else None)
    return {"causes": causes, "ambiguous": ambiguous, "uncaused": uncaused, "common": common}


def show_cause(c):
    occ, ivs, ordered = c
    parts = ["{%s}" % ", ".join(occ)]
    for e, a, b in ivs:
        parts.append("not %s in (%s, %s)" % (e, a or "start", b or "end"))
    parts.append("ordered: %s" % (" ".join("%s<%s" % p for p in ordered) or "-"))
    return "; ".join(parts)


def diff(expected, actual, names=("oracle", "pan")):
    """Lines describing the differences of two canonical results ([] if equal)."""
    out = []
    for key in ("causes", "ambiguous", "uncaused"):
        a, b = expected[key], actual[key]
        for x in sorted(a - b, key=repr):
            out.append("  %s only in %s: %s" % (key, names[0],
                                                show_cause(x) if key == "causes" else list(x)))
        for x in sorted(b - a, key=repr):
            out.append("  %s only in %s: %s" % (key, names[1],
                                                show_cause(x) if key == "causes" else list(x)))
    a, b = expected.get("common"), actual.get("common")
    if a is not None and b is None:  # pan writes the key always
        out.append("  in every cause: %s has %s, %s none" % (names[0], list(a[0]), names[1]))
    if a is not None and b is not None and (
            a[0] != b[0] or (a[1] is not None and b[1] is not None and a[1] != b[1])):
        out.append("  in every cause: %s %s (vouched: %s), %s %s (vouched: %s)"
                   % (names[0], list(a[0]), a[1], names[1], list(b[0]), b[1]))
    return out


def load(path):
    with open(path) as f:
        return canon(json.load(f))


def main(argv):
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    lines = diff(load(argv[1]), load(argv[2]), names=(argv[1], argv[2]))
    for l in lines:
        print(l)
    return 1 if lines else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
