#!/usr/bin/env python3
"""scram_check.py TREE.xml TREE.json: does a real fault tree tool read our MEF as we do?

Runs SCRAM (Debian's `scram`, the tool the Open-PSA MEF schema comes from) on the
MEF file pancause wrote and compares with the fault tree JSON pancause wrote for the
same causes:

  * minimal cut sets: SCRAM's MOCUS products must be exactly the JSON's
    minimal_cut_sets (as sets of basic-event ids);
  * with probabilities: SCRAM's rare-event top probability (--mocus) must equal the
    JSON's rare_event, and its exact BDD probability (--bdd) the JSON's exact value,
    within 1e-9 relative.

Exit 0 when they agree, 1 with the differences printed, 2 when SCRAM rejects the
file (its message printed).
"""
import json
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET


def scram(args, mef):
    with tempfile.NamedTemporaryFile(suffix=".xml") as out:
        r = subprocess.run(["scram", *args, mef, "-o", out.name], capture_output=True, text=True)
        if r.returncode != 0:
            print(f"SCRAM rejects {mef}:\n{r.stdout}{r.stderr}")
            sys.exit(2)
        return ET.parse(out.name).getroot()


def products(report):
    sop = report.find("./results/sum-of-products")
    sets = set()
    for p in sop.findall("product"):
        sets.add(frozenset(e.get("name") for e in p.findall("basic-event")))
    return sets, float(sop.get("probability")) if sop.get("probability") else None


def close(a, b):
    return abs(a - b) <= 1e-9 * max(abs(a), abs(b), 1e-300)


def main():
    mef, ours_path = sys.argv[1], sys.argv[2]
    ours = json.load(open(ours_path))
    want = {frozenset(s) for s in ours["minimal_cut_sets"]}
    top = ours.get("top_probability")
    problems = []
    rep = scram(["--mocus", "--probability", "true"] if top else ["--mocus"], mef)
    got, rare = products(rep)
    if got != want:
        problems.append(f"cut sets differ: SCRAM {sorted(map(sorted, got))}, "
                        f"ours {sorted(map(sorted, want))}")
    if top:
        if rare is None or not close(rare, top["rare_event"]):
            problems.append(f"rare-event probability: SCRAM {rare}, ours {top['rare_event']}")
        if top["exact"] is not None:
            _, exact = products(scram(["--bdd", "--probability", "true"], mef))
            if exact is None or not close(exact, top["exact"]):
                problems.append(f"exact probability: SCRAM {exact}, ours {top['exact']}")
    for p in problems:
        print(f"{mef}: {p}")
    if not problems:
        print(f"{mef}: SCRAM agrees ({len(want)} minimal cut sets"
              f"{', probabilities' if top else ''})")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
