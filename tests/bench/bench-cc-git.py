#!/usr/bin/env python3
"""bench-cc-git.py TREE [N] [--since DATE] [--patches K] [--blame] -
get_maintainer.pl's
git options on a real git work tree: how many of N files (every k-th of
the files that commits since DATE touched, sorted) and of K patches
(`git format-patch -1` of every k-th of the last 400 non-merge commits)
get from `maintstat maintainers --tree TREE` the bytes of the tree's own
scripts/get_maintainer.pl (with --git and --git-since DATE, on top of the
tree's .get_maintainer.conf), and what each costs: the script's time per
file and per patch, maintstat's, the ratio, and both on the largest patch
(cold and warm for maintstat).

The oracle is a copy of the script with Perl's hash order among equal
counts made the byte order (tests/cli/mstest.py), several MAINTAINERS
files read in sorted order, answering a queue in one process.

Each file's and patch's run has a `git` first in PATH that notes its
arguments, and the files whose answer ran `git log --follow` (the
script's log, not made from the history model) are counted; with
--blame the answers are --git-blame's too, and the `git blame` runs
counted, and the `git log -1` runs (a blamed commit's log, or a Fixes:
line's).

Env: MAINTSTAT (default build/maintstat).
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

root = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
os.environ.setdefault("MS_SOURCE_ROOT", root)
sys.path.insert(0, os.path.join(root, "tests", "cli"))
from mstest import get_maintainer_tiebreak, get_maintainer_batch  # noqa

ap = argparse.ArgumentParser()
ap.add_argument("tree")
ap.add_argument("n", nargs="?", type=int, default=200)
ap.add_argument("--since", default="2026-03-01")
ap.add_argument("--patches", type=int, default=20)
ap.add_argument("--blame", action="store_true")
args = ap.parse_args()
MS = os.path.realpath(os.environ.get("MAINTSTAT",
                                     os.path.join(root, "build/maintstat")))
TREE = os.path.abspath(args.tree)
OPTS = ["--git", "--git-since", args.since] + ["--git-blame"] * args.blame


def git(*a):
    return subprocess.run(["git", "-C", TREE, *a], check=True,
                          capture_output=True).stdout


touched = sorted({l for l in git("log", "--no-merges", "--format=",
                                 "--name-only", f"--since={args.since}")
                  .decode("utf-8", "replace").splitlines()
                  if l and os.path.isfile(os.path.join(TREE, l))})
step = max(1, len(touched) // args.n)
sample = touched[::step][:args.n]

with open(os.path.join(TREE, "scripts", "get_maintainer.pl")) as f:
    script = f.read()
script = script.replace("foreach my $file (@mfiles) {",
                        "foreach my $file (sort @mfiles) {")
script = get_maintainer_batch(get_maintainer_tiebreak(script))
work = tempfile.mkdtemp(prefix="bench-cc-git-")
batch = os.path.join(work, "get_maintainer-batch.pl")
with open(batch, "w") as f:
    f.write(script)


def oracle(questions, extra):
    q = os.path.join(work, "queue")
    with open(q, "w") as f:
        f.write("".join(x + "\n" for x in questions))
    t = time.monotonic()
    p = subprocess.run(["perl", batch, *OPTS, *extra], cwd=TREE,
                       capture_output=True,
                       env=dict(os.environ, ORACLE_QUEUE=q))
    return (p.stdout.split(b"\0\n")[:len(questions)],
            time.monotonic() - t)


calls = os.path.join(work, "git-calls")
os.makedirs(os.path.join(work, "bin"))
with open(os.path.join(work, "bin", "git"), "w") as f:
    f.write(f"#!/bin/sh\necho \"$*\" >> {calls}\n"
            f"exec {shutil.which('git')} \"$@\"\n")
os.chmod(os.path.join(work, "bin", "git"), 0o755)
ENV = dict(os.environ, PATH=os.path.join(work, "bin") + os.pathsep +
           os.environ["PATH"])
ran_git = ran_blame = ran_commit = 0


def ours(inp):
    global ran_git, ran_blame, ran_commit
    if os.path.exists(calls):
        os.remove(calls)
    t = time.monotonic()
    p = subprocess.run([MS, "maintainers", "--tree", TREE, *OPTS, *inp],
                       capture_output=True, env=ENV)
    t = time.monotonic() - t
    if os.path.exists(calls):
        ran_git += any(" log " in l and "--follow" in l for l in open(calls))
        ran_blame += sum(" blame " in l for l in open(calls))
        ran_commit += sum(" log " in l and " -1 " in l for l in open(calls))
    return p.stdout, t


want, t_script = oracle(sample, ["-f"])
bad, t_ours = [], 0.0
for f, w in zip(sample, want):
    got, t = ours(["-f", f])
    t_ours += t
    if got != w:
        bad.append((f, w, got))
n_signers = sum(b"commit_signer" in w for w in want)
print(f"files: {len(sample)} (of {len(touched)} touched since "
      f"{args.since}; {n_signers} answers with git signers)\n"
      f"file mismatches: {len(bad)}\n"
      f"files whose answer ran git log: {ran_git}\n"
      f"git blame runs: {ran_blame}\n"
      f"script: {t_script / max(1, len(sample)) * 1000:.0f} ms/file, "
      f"maintstat: {t_ours / max(1, len(sample)) * 1000:.0f} ms/file")

ids = git("log", "--no-merges", "--format=%H", "-400").decode().split()
pstep = max(1, len(ids) // max(1, args.patches))
patches = []
for i, c in enumerate(ids[::pstep][:args.patches]):
    p = os.path.join(work, f"p{i}.patch")
    with open(p, "wb") as f:
        f.write(git("format-patch", "-1", "--stdout", c))
    patches.append(p)
want, t_script = oracle(patches, [])
pbad, t_ours = [], 0.0
for p, w in zip(patches, want):
    got, t = ours([p])
    t_ours += t
    if got != w:
        pbad.append((p, w, got))
print(f"patches: {len(patches)}\npatch mismatches: {len(pbad)}\n"
      f"git blame runs, files and patches: {ran_blame}\n"
      f"git log -1 runs, files and patches: {ran_commit}\n"
      f"script: {t_script / max(1, len(patches)) * 1000:.0f} ms/patch, "
      f"maintstat: {t_ours / max(1, len(patches)) * 1000:.0f} ms/patch")
for what, w, got in (bad + pbad)[:3]:
    print(f"--- {what}\nscript:\n{w.decode(errors='replace')}"
          f"maintstat:\n{got.decode(errors='replace')}")

# the largest patch of the last 400 commits with at most 60 files
best, nfiles = None, 0
for c in ids:
    n = len(git("show", "--format=", "--name-only", c).split())
    if nfiles < n <= 60:
        best, nfiles = c, n
big = os.path.join(work, "big.patch")
with open(big, "wb") as f:
    f.write(git("format-patch", "-1", "--stdout", best))
(w,), t_script = oracle([big], [])
got, t_cold = ours([big])
got2, t_warm = ours([big])
print(f"largest patch: {best[:12]}, {nfiles} files: script "
      f"{t_script * 1000:.0f} ms, maintstat {t_cold * 1000:.0f} ms then "
      f"{t_warm * 1000:.0f} ms (ratio {t_script / t_warm:.1f}), "
      f"{'same bytes' if got == w and got2 == w else 'DIFFERENT'}")
