#!/usr/bin/env python3
"""Entry selection, the same in every command taking ENTRY arguments
(activity, retire, review): exact, case-insensitive, unique prefix, unique
substring, --file PATH; an unknown or ambiguous name exits 2 with up to
five candidates.  The repository is built here from fixtures/maintainers."""
import os
import shutil
import subprocess
import sys
sys.path.insert(0, os.path.dirname(__file__))
from mstest import run, ok, eq, done, tmpdir, FIXTURES  # noqa: E402

repo = tmpdir()
shutil.copy(os.path.join(FIXTURES, "maintainers", "MAINTAINERS"), repo)
for f in ("drivers/alpha/core.c", "drivers/beta/b1.c", "README"):
    os.makedirs(os.path.join(repo, os.path.dirname(f)), exist_ok=True)
    with open(os.path.join(repo, f), "w") as fp:
        fp.write("x\n")
env = dict(os.environ, GIT_AUTHOR_NAME="A", GIT_AUTHOR_EMAIL="a@example.com",
           GIT_COMMITTER_NAME="A", GIT_COMMITTER_EMAIL="a@example.com",
           GIT_AUTHOR_DATE="2024-01-01T00:00:00Z",
           GIT_COMMITTER_DATE="2024-01-01T00:00:00Z")
for cmd in (["init", "-q", "-b", "main"], ["add", "."],
            ["commit", "-q", "-m", "init"]):
    subprocess.run(["git", *cmd], cwd=repo, env=env, check=True)


def selected(*args):
    r = run("activity", "--repo", repo, "--no-cache", "--json", *args)
    names = [e["name"] for e in r.json()["entries"]] if r.rc == 0 else None
    return r, names


r, names = selected("ALPHA DRIVER")
eq(names, ["ALPHA DRIVER"], "an exact name")
r, names = selected("alpha driver")
eq(names, ["ALPHA DRIVER"],
   "case-insensitive equality wins over being a prefix of another name")
r, names = selected("alpha driver c")
eq(names, ["ALPHA DRIVER CORE"], "a unique prefix")
r, names = selected("regex")
eq(names, ["NAMES BY REGEX"], "a unique substring")
r, names = selected("--file", "drivers/alpha/core.c")
eq(sorted(names or []), ["ALPHA DRIVER", "ALPHA DRIVER CORE", "THE REST"],
   "--file PATH: the entries of the path")
r, names = selected("--file", "drivers/alpha/core.c", "alpha driver")
eq(len(names or []), 3, "an entry chosen twice is listed once")

r, _ = selected("beta")
eq(r.rc, 2, "an ambiguous prefix exits 2")
ok("ambiguous" in r.err and "BETA SUBSYSTEM" in r.err and
   "BETA TOO" in r.err, "...and lists the candidates", r.err)
r, _ = selected("ALPHA DRIVR")
eq(r.rc, 2, "an unknown name exits 2")
ok("no entry 'ALPHA DRIVR'" in r.err and "did you mean" in r.err and
   "\tALPHA DRIVER\n" in r.err, "...proposing the nearest name", r.err)
r, _ = selected("REGEX NAMES DRIVER")
eq(r.rc, 2, "words in another order exit 2")
ok("did you mean:\n\tNAMES BY REGEX\n" in r.err and r.err.count("\n\t") == 1,
   "...proposing only the entry sharing its distinctive words (as "
   "'MLX5 CORE VDPA DRIVER' proposes 'MELLANOX MLX5 core VPI driver', not "
   "'EXYNOS DP DRIVER')", r.err)
r, _ = selected("qqqqqqqqqqqqqqqqqqqqqqqq")
eq(r.rc, 2, "a name near nothing exits 2")
ok("did you mean" not in r.err, "...with no proposal", r.err)
r, _ = selected("e")
eq(r.rc, 2, "a one-letter substring of many exits 2")
ok(r.err.count("\n\t") == 5, "at most five candidates", r.err)

r = run("retire", "--repo", repo, "--no-cache", "--output-dir", tmpdir(), "regex")
ok(r.rc in (0, 1) and "no entry" not in r.err,
   "retire takes the same names", r.err)
r = run("review", "--tree", repo, "--archive", "/nonexistent", "beta")
eq(r.rc, 2, "review: an ambiguous name exits 2")
shutil.rmtree(repo, ignore_errors=True)
done()
