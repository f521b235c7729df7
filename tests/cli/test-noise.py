#!/usr/bin/env python3
"""Warnings a person reads on every run are few: names that join many
addresses into one person are told in one line a run, with their count
and the command that lists them, not one line each (Xen printed eight on
every run); -q silences everything but errors."""
import os
import subprocess
import sys
sys.path.insert(0, os.path.dirname(__file__))
from mstest import run, ok, eq, done, tmpdir  # noqa: E402

tmp = tmpdir()
tree = os.path.join(tmp, "tree")
os.makedirs(os.path.join(tree, "foo"))
with open(os.path.join(tree, "MAINTAINERS"), "w") as f:
    f.write("FOO\nM:\tAnn Many <ann0@a.example>\nF:\tfoo/\n")
git = ["git", "-C", tree]
subprocess.run(git + ["init", "-q"], check=True)
n = 0
for name, user in (("Ann Many", "ann"), ("Bob Many", "bob"),
                   ("Cy Many", "cy")):
    for k in range(8 if user == "cy" else 6):
        n += 1
        with open(os.path.join(tree, "foo", "a.c"), "a") as f:
            f.write(f"int x{n};\n")
        env = dict(os.environ, GIT_AUTHOR_NAME=name,
                   GIT_COMMITTER_NAME=name,
                   GIT_AUTHOR_EMAIL=f"{user}{k}@{user}{k}.example",
                   GIT_COMMITTER_EMAIL=f"{user}{k}@{user}{k}.example")
        subprocess.run(git + ["add", "."], check=True)
        subprocess.run(git + ["commit", "-q", "-m", f"c{n}"], check=True,
                       env=env)

r = run("activity", "--repo", tree, "--no-cache")
eq(r.rc, 0, "activity exits 0")
lines = [l for l in r.err.splitlines() if "into one person" in l]
eq(len(lines), 1, "one line for the three names that join many addresses")
ok(lines and "3 names" in lines[0] and "'cy many', 8" in lines[0]
   and "maintstat identities" in lines[0],
   "...with their count, the largest, and the command that lists them",
   lines)
r = run("activity", "--repo", tree, "--no-cache", "-q")
eq((r.rc, r.err), (0, ""), "-q: nothing on stderr")
r = run("identities", "--repo", tree, "--no-cache")
ok(all(f"{p} Many" in r.out for p in ("Ann", "Bob", "Cy")),
   "identities lists the three", r.out[:500])
done()
