#!/usr/bin/env python3
"""Fail when a test file exists that tests/meson.build does not list."""
import os
import sys

root, unit, cli = sys.argv[1], sys.argv[2], sys.argv[3]
listed = {("unit", n) for n in unit.split(",") if n} | \
         {("cli", n) for n in cli.split(",") if n}
found = set()
for kind, suffix in (("unit", ".c"), ("cli", ".py")):
    for name in os.listdir(os.path.join(root, kind)):
        if name.startswith("test-") and name.endswith(suffix):
            found.add((kind, name[len("test-"):-len(suffix)]))
missing = sorted(found - listed)
absent = sorted(listed - found)
if missing or absent:
    for kind, n in missing:
        print(f"tests/{kind}/test-{n}: not registered in tests/meson.build",
              file=sys.stderr)
    for kind, n in absent:
        print(f"tests/{kind}/test-{n}: registered but missing", file=sys.stderr)
    sys.exit(1)
