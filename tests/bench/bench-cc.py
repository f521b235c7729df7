#!/usr/bin/env python3
"""bench-cc.py [TREE] - how fast `maintstat maintainers` answers for a patch
touching 50 files across 20 entries, against the kernel's own
scripts/get_maintainer.pl --no-git --no-git-fallback on the same patch.

The patch is generated (deterministically, seed 17): 20 entries of
MAINTAINERS with at least 3 files each are picked, and 50 of their files
get a one-line change.  Each side runs RUNS times; the figures are user +
system CPU seconds of the child (what the machine spends, whatever its
load) and wall-clock time, best of RUNS.  The target of issue 17 is under
50 ms for maintstat.

Env: MAINTSTAT (default build/maintstat), RUNS (default 5).
"""
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time

root = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
TREE = sys.argv[1] if len(sys.argv) > 1 else os.environ.get(
    "MS_LINUX_TREE", os.path.expanduser(
        "~/.cache/maintstat-dev/linux-source-6.1"))
MS = os.path.realpath(os.environ.get("MAINTSTAT",
                                     os.path.join(root, "build/maintstat")))
RUNS = int(os.environ.get("RUNS", "5"))
if not os.path.exists(os.path.join(TREE, "MAINTAINERS")):
    sys.exit(f"bench: no MAINTAINERS in {TREE}")

# entries with a few files each, from maintstat itself
r = subprocess.run([MS, "entries", "--tree", TREE, "--json"],
                   capture_output=True, check=True)
entries = [e for e in json.loads(r.stdout)["entries"]
           if 3 <= e["files"] <= 200 and e["name"] != "THE REST"]
rnd = random.Random(17)
chosen = rnd.sample(entries, 20)
files = []
# the files of the chosen entries: ask sections for a sample of the tree
allfiles = []
for dp, dn, fn in os.walk(TREE):
    for f in fn:
        allfiles.append(os.path.relpath(os.path.join(dp, f), TREE))
allfiles.sort()
r = subprocess.run([MS, "sections", "--tree", TREE, "--json", "-"],
                   input="\n".join(allfiles).encode(), capture_output=True)
by_entry = {}
for p in json.loads(r.stdout)["paths"]:
    if p["sections"]:
        by_entry.setdefault(p["sections"][0], []).append(p["path"])
names = [e["name"] for e in chosen if by_entry.get(e["name"])]
for n in names:
    files.append(rnd.choice(by_entry[n]))
pool = [f for n in names for f in by_entry[n] if f not in files]
files += rnd.sample(pool, 50 - len(files))
files.sort()

patch = []
for f in files:
    patch.append(f"diff --git a/{f} b/{f}\n--- a/{f}\n+++ b/{f}\n"
                 "@@ -1,1 +1,1 @@\n-old line\n+new line\n")
tmp = tempfile.mkdtemp(prefix="bench-cc-")
pf = os.path.join(tmp, "fifty.patch")
with open(pf, "w") as f:
    f.write("Subject: [PATCH] bench: fifty files\n\n---\n" + "".join(patch))


def best(cmd, cwd=None):
    wall, cpu, out = 1e9, 1e9, None
    for _ in range(RUNS):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.monotonic()
        p = subprocess.run(cmd, cwd=cwd, capture_output=True)
        t1 = time.monotonic()
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        c = (after.ru_utime - before.ru_utime) + \
            (after.ru_stime - before.ru_stime)
        wall, cpu, out = min(wall, t1 - t0), min(cpu, c), p.stdout
    return wall, cpu, out


ms_wall, ms_cpu, ms_out = best([MS, "maintainers", "--tree", TREE, pf])
fl_wall, fl_cpu, _ = best([MS, "sections", "--tree", TREE, "README"])
# the same answer from the full program (every stage's libraries loaded):
# what `maintstat maintainers` cost before the quick program
FULL = os.path.join(os.path.dirname(MS), "maintstat-full")
fu_wall, fu_cpu, fu_out = best([FULL, "maintainers", "--tree", TREE, pf])
gm_wall, gm_cpu, gm_out = best(["perl", "scripts/get_maintainer.pl",
                                "--no-git", "--no-git-fallback", pf],
                               cwd=TREE)
n_entries = len(json.loads(subprocess.run(
    [MS, "maintainers", "--tree", TREE, "--json", pf],
    capture_output=True).stdout)["entries"])
print(f"patch: {len(files)} files, {len(names)} entries chosen, "
      f"{n_entries} entries matched (with the broader ones)")
print(f"baseline get_maintainer.pl --no-git --no-git-fallback: "
      f"cpu {gm_cpu * 1000:.0f} ms, wall {gm_wall * 1000:.0f} ms")
print(f"maintstat maintainers:                             "
      f"cpu {ms_cpu * 1000:.0f} ms, wall {ms_wall * 1000:.0f} ms")
print(f"maintstat-full maintainers (all libraries):        "
      f"cpu {fu_cpu * 1000:.0f} ms, wall {fu_wall * 1000:.0f} ms; "
      f"same output: {'yes' if fu_out == ms_out else 'NO'}")
print(f"floor: maintstat sections README (tree, MAINTAINERS, index): "
      f"cpu {fl_cpu * 1000:.0f} ms, wall {fl_wall * 1000:.0f} ms")
# get_maintainer.pl lists entries that match a file equally deep in Perl's
# hash order, which changes from run to run (PERL_HASH_SEED): compare with
# a copy whose ties go by file order, as the conformance test's oracle
# and maintstat do
TIE = "sort {$hash{$b} <=> $hash{$a}} keys %hash"
with open(os.path.join(TREE, "scripts", "get_maintainer.pl")) as f:
    script = f.read()
if TIE in script:
    stable = os.path.join(tmp, "get_maintainer.pl")
    with open(stable, "w") as f:
        f.write(script.replace(TIE, "sort {$hash{$b} <=> $hash{$a} || "
                               "$a <=> $b} keys %hash"))
    gm_out = subprocess.run(["perl", stable, "--no-git",
                             "--no-git-fallback", pf], cwd=TREE,
                            capture_output=True).stdout
print(f"ratio (cpu): {gm_cpu / ms_cpu:.1f}x faster; same output (ties "
      f"by file order): {'yes' if ms_out == gm_out else 'NO'}")
print(f"target 50 ms (cpu): {'met' if ms_cpu < 0.05 else 'missed'}")
