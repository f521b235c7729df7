#!/usr/bin/env python3
"""Fail when a test file exists that tests/meson.build does not list.

Unit tests sit in a folder per stage of src/ (or fetch/) and are listed as
'<stage>/<name>' for tests/unit/<stage>/test-<name>.c; CLI tests are
listed as '<name>' for tests/cli/test-<name>.py.
"""
import os
import sys


def path(kind, n):
    """The file of listed test `n`."""
    d, _, b = n.rpartition("/")
    ext = ".c" if kind == "unit" else ".py"
    return os.path.join("tests", kind, d, "test-" + b + ext)


root, unit, cli = sys.argv[1], sys.argv[2], sys.argv[3]
listed = {("unit", n) for n in unit.split(",") if n} | \
         {("cli", n) for n in cli.split(",") if n}
found = set()
misplaced = []
for kind, suffix in (("unit", ".c"), ("cli", ".py")):
    top = os.path.join(root, kind)
    for dirpath, _, names in os.walk(top):
        where = os.path.relpath(dirpath, top)
        for name in names:
            if not (name.startswith("test-") and name.endswith(suffix)):
                continue
            n = name[len("test-"):-len(suffix)]
            if kind == "cli" and where == ".":
                found.add((kind, n))
            elif kind == "unit" and where != "." and "/" not in where:
                found.add((kind, f"{where}/{n}"))
            else:
                misplaced.append(os.path.join("tests", kind, where, name))
missing = sorted(found - listed)
absent = sorted(listed - found)
for f in sorted(misplaced):
    print(f"{os.path.normpath(f)}: unit tests go in tests/unit/<stage>/, "
          "CLI tests in tests/cli/ (docs/architecture.md)", file=sys.stderr)
for kind, n in missing:
    print(f"{path(kind, n)}: not registered in tests/meson.build",
          file=sys.stderr)
for kind, n in absent:
    print(f"{path(kind, n)}: registered but missing", file=sys.stderr)
if misplaced or missing or absent:
    sys.exit(1)
