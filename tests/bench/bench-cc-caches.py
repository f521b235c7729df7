#!/usr/bin/env python3
"""bench-cc-caches.py TREE PATCH - what each value `maintainers --git`
keeps in the store saves (docs/performance.md, "The caches").

On a warm store of its own, ROUNDS times in turn for: nothing deleted,
then each kind of KINDS (default gm-dates2, gm-log1): a warm
run (which puts back what the previous round deleted), the kind's values
deleted, and the timed run, which must compute them again.  Prints the
best and median CPU (user + system of maintstat and its children: git,
maintstat-full) per kind, and fails if any run's output differs from the
first's.

Env: MAINTSTAT (default build/maintstat), ROUNDS (default 5), KINDS.
"""
import glob
import os
import resource
import sqlite3
import statistics
import subprocess
import sys
import tempfile

root = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
if len(sys.argv) != 3:
    sys.exit(__doc__)
TREE, PATCH = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
MS = os.path.realpath(os.environ.get(
    "MAINTSTAT", os.path.join(root, "build/maintstat")))
ROUNDS = int(os.environ.get("ROUNDS", "5"))
KINDS = os.environ.get("KINDS", "gm-dates2 gm-log1").split()
XDG = tempfile.TemporaryDirectory(prefix="bench-cc-caches-")
ENV = dict(os.environ, XDG_CACHE_HOME=XDG.name)
CMD = [MS, "maintainers", "--tree", TREE, "--git", PATCH]


def run():
    """(cpu milliseconds, stdout) of one run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    r = subprocess.run(CMD, env=ENV, capture_output=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if r.returncode:
        sys.exit(f"bench: {CMD} failed: {r.stderr.decode()}")
    return ((after.ru_utime - before.ru_utime +
             after.ru_stime - before.ru_stime) * 1000, r.stdout)


def delete(db, kind):
    c = sqlite3.connect(db)
    c.execute("DELETE FROM model_chunks WHERE kind = ?", (kind,))
    c.execute("DELETE FROM models WHERE kind = ?", (kind,))
    c.commit()
    c.close()


_, first = run()
db = glob.glob(os.path.join(XDG.name, "maintstat", "*.sqlite"))[0]
cpu = {}
for _ in range(ROUNDS):
    for kind in [None] + KINDS:
        run()
        if kind:
            delete(db, kind)
        ms, out = run()
        if out != first:
            sys.exit(f"bench: the output differs with {kind} deleted")
        cpu.setdefault(kind or "nothing", []).append(ms)
print(f"{TREE}, {PATCH}, {ROUNDS} rounds, load "
      f"{os.getloadavg()[0]:.1f}; deleted before the run:")
for kind, v in cpu.items():
    print(f"{kind:10} CPU best {min(v):7.1f} ms, median "
          f"{statistics.median(v):7.1f} ms; same output")
