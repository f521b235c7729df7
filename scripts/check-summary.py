#!/usr/bin/env python3
"""Sum the meson test logs of the given build directories into the one
closing line `make check` promises: 'N passed, N failed[, N skipped]',
each skip explained above it.  Exits 1 when anything failed."""
import json
import os
import sys

passed = failed = skipped = 0
skips = []
fails = []
for build in sys.argv[1:]:
    log = os.path.join(build, "meson-logs", "testlog.json")
    if not os.path.exists(log):
        print(f"check-summary: {log} missing: the {build} suite did not run")
        failed += 1
        continue
    with open(log) as f:
        for line in f:
            t = json.loads(line)
            name = f"{build}: {t['name']}"
            res = t["result"]
            if res in ("OK", "EXPECTEDFAIL"):
                passed += 1
            elif res == "SKIP":
                skipped += 1
                why = [l for l in (t.get("stdout") or "").splitlines()
                       if "SKIP" in l]
                skips.append(f"{name}: {why[-1] if why else 'skipped'}")
            else:
                failed += 1
                fails.append(f"{name}: {res}")
for s in skips:
    print(f"skipped {s}")
for s in fails:
    print(f"FAILED {s}")
line = f"{passed} passed, {failed} failed"
if skipped:
    line += f", {skipped} skipped"
print(line)
sys.exit(1 if failed else 0)
