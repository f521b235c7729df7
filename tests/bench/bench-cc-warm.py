#!/usr/bin/env python3
"""bench-cc-warm.py TREE PATCH [BASELINE] - a warm `maintstat maintainers`
on a git work tree (U-Boot's: its .get_maintainer.conf says --git and
--find-maintainer-files), against a named baseline build.

Runs, alternating the two builds RUNS times each (after one warm-up run
of each, which fills its store), three command lines:
  default     maintainers --tree TREE PATCH       (what the tree's conf asks)
  --git       maintainers --tree TREE --git PATCH
  no git      maintainers --tree TREE --no-git --no-git-fallback PATCH
and prints for each the best and median CPU (user + system of the
process and its children: the quick program, maintstat-full, git) and
wall time, the page faults (minor, of all the processes: on a virtual machine
each costs 15-35 us, and they hardly vary from run to run), the ratios
this / baseline, and whether both builds printed the same bytes.  BASELINE is
a maintstat binary (maintstat-full beside it), e.g. a build of main;
without it only this build is measured.  CPU time grows with the
machine's load, so compare the two builds of one run, not runs.

Each build keeps its own store (XDG_CACHE_HOME in a temporary
directory per build): a newer build rebuilds a shared store to a schema
the older one refuses, which then runs git for every file (5 s).

Env: MAINTSTAT (default build/maintstat), RUNS (default 7).
"""
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

root = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
if len(sys.argv) < 3:
    sys.exit(__doc__)
TREE, PATCH = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
builds = [("this", os.path.realpath(os.environ.get(
    "MAINTSTAT", os.path.join(root, "build/maintstat"))))]
if len(sys.argv) > 3:
    builds.append(("baseline", os.path.realpath(sys.argv[3])))
RUNS = int(os.environ.get("RUNS", "7"))
CASES = [("default", []), ("--git", ["--git"]),
         ("no git", ["--no-git", "--no-git-fallback"])]


CACHES = tempfile.TemporaryDirectory(prefix="bench-cc-warm-")


def run(ms, extra):
    """(cpu seconds, wall seconds, stdout, page faults) of one run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.monotonic()
    env = dict(os.environ, XDG_CACHE_HOME=os.path.join(
        CACHES.name, str(abs(hash(ms)))))
    r = subprocess.run([ms, "maintainers", "--tree", TREE, *extra, PATCH],
                       env=env,
                       capture_output=True)
    wall = time.monotonic() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if r.returncode:
        sys.exit(f"{ms} failed: {r.stderr.decode(errors='replace')}")
    cpu = (after.ru_utime - before.ru_utime +
           after.ru_stime - before.ru_stime)
    return cpu, wall, r.stdout, after.ru_minflt - before.ru_minflt


print(f"tree {TREE}, patch {PATCH} "
      f"({open(PATCH, errors='replace').read().count('diff --git')} files), "
      f"{RUNS} runs each, load {os.getloadavg()[0]:.1f}")
for name, extra in CASES:
    got = {}
    outs = {}
    for label, ms in builds:
        outs[label] = run(ms, extra)[2]      # warm-up: fills the store
        got[label] = []
    for _ in range(RUNS):
        for label, ms in builds:
            cpu, wall, out, faults = run(ms, extra)
            got[label].append((cpu, wall, faults))
            if out != outs[label]:
                sys.exit(f"{label}: the answer changed between runs")
    same = ""
    if len(builds) > 1:
        same = ("same bytes" if outs["this"] == outs["baseline"]
                else "DIFFERENT answers")
    med = {}
    for label, _ in builds:
        cpu = sorted(g[0] for g in got[label])
        wall = sorted(g[1] for g in got[label])
        med[label] = (statistics.median(cpu), statistics.median(wall),
                      statistics.median(g[2] for g in got[label]))
        print(f"{name:8} {label:8} CPU best {cpu[0] * 1000:6.1f} ms, "
              f"median {med[label][0] * 1000:6.1f} ms; "
              f"wall best {wall[0] * 1000:6.1f} ms, "
              f"median {med[label][1] * 1000:6.1f} ms; "
              f"faults {med[label][2]:.0f}")
    if same:
        r = [t / b for t, b in zip(med["this"], med["baseline"])]
        print(f"{name:8} {same}; this / baseline (medians): CPU "
              f"{r[0]:.2f}, wall {r[1]:.2f}, faults {r[2]:.2f}")
