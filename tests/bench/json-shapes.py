#!/usr/bin/env python3
"""json-shapes.py - every JSON key whose value has two shapes (issue 34).

    tests/bench/json-shapes.py PATH...

PATH is a JSON document or a directory searched for them (*.json.out
of tests/bench/corpus.sh, a report's data/*.json).  Prints each key
name whose value shape differs between documents or places: its type,
a list's elements' types, a record's members (tests/cli/jsonshape.py
says how they are compared; tests/cli/test-json-keys.py applies the same
to every command on the fixtures).  Exit 1 when some key has two shapes.
"""
import json
import os
import sys
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "cli"))
import jsonshape  # noqa: E402

paths = sys.argv[1:]
files = []
for p in paths:
    if os.path.isdir(p):
        for d, _, names in os.walk(p):
            files += [os.path.join(d, n) for n in names
                      if n.endswith(".json.out") or n.endswith(".json")]
    else:
        files.append(p)
acc = {}
for f in sorted(files):
    try:
        with open(f, encoding="utf-8") as fh:
            doc = json.load(fh)
    except (OSError, ValueError):
        continue
    jsonshape.collect(doc, os.path.basename(f), acc)
bad = jsonshape.conflicts(acc)
for k, places in bad:
    print(f"{k}:")
    for s, ps in places:
        more = f" (+{len(ps) - 3} more)" if len(ps) > 3 else ""
        print(f"    {jsonshape.show(s)[:160]}")
        print(f"        {'; '.join(ps[:3])}{more}")
print(f"{len(bad)} keys with two shapes in {len(files)} documents",
      file=sys.stderr)
sys.exit(1 if bad else 0)
