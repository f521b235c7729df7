#!/usr/bin/env python3
"""Mistakes of the same kind get the same answer: a window with no commit
is a usage error (status 2) whether it lies outside the history or in a
gap of it, as --since 2030 and --until 1990 are; a negative
--min-commits is refused by urgent as by activity and retire; an
urgent selection that keeps nothing says so rather than print a header
and nothing; and an option name has one meaning and one default in
every command's --help (issue 40: --min-commits was 0, 50 and 100, and
a threshold of cutting areas)."""
import os
import re
import subprocess
import sys
sys.path.insert(0, os.path.dirname(__file__))
from mstest import (run, ok, eq, done, tmpdir, FIXTURES,  # noqa: E402
                    SOURCE_ROOT)

tmp = tmpdir()
repo = os.path.join(tmp, "planted.git")
subprocess.run([sys.executable, os.path.join(FIXTURES, "gen", "gen-repo.py"),
                repo], check=True)

for cmd in ("activity", "urgent", "retire"):
    extra = (["--no-credits", "--output-dir", os.path.join(tmp, "out")]
             if cmd == "retire" else [])
    r = run(cmd, "--repo", repo, "--no-cache", "--min-commits", "-5",
            *extra)
    eq(r.rc, 2, f"{cmd} --min-commits -5: a usage error")
    ok("--min-commits" in r.err, f"{cmd}: ...naming --min-commits", r.err)

r = run("urgent", "--repo", repo, "--no-cache", "--never", "--min-commits",
        "1000")
eq(r.rc, 0, "urgent --never with nothing left: status 0")
ok(r.out.rstrip().endswith("No entry matches (--never, --min-commits "
                           "1000)."), "...and it says no entry matches",
   r.out)
r = run("urgent", "--repo", repo, "--no-cache", "--never", "--min-commits",
        "1000", "--json")
eq(r.json()["entries"], [], "...JSON: no entries")

# a history with a gap: 2000, then 2020
gap = os.path.join(tmp, "gap")
os.makedirs(gap)
with open(os.path.join(gap, "MAINTAINERS"), "w") as f:
    f.write("FOO\nM:\tFay <fay@example.org>\nF:\tfoo/\n")
os.makedirs(os.path.join(gap, "foo"))
git = ["git", "-C", gap, "-c", "user.name=Fay", "-c",
       "user.email=fay@example.org"]
subprocess.run(git + ["init", "-q"], check=True)
for year in (2000, 2020):
    with open(os.path.join(gap, "foo", "a.c"), "a") as f:
        f.write(f"int y{year};\n")
    subprocess.run(git + ["add", "."], check=True)
    env = dict(os.environ, GIT_AUTHOR_DATE=f"{year}-06-01T12:00:00Z",
               GIT_COMMITTER_DATE=f"{year}-06-01T12:00:00Z")
    subprocess.run(git + ["commit", "-q", "-m", f"y{year}"], check=True,
                   env=env)
for cmd in ("activity", "urgent", "identities"):
    codes = []
    for window in (["--since", "2030"], ["--until", "1990"],
                   ["--since", "2005", "--until", "2006"]):
        r = run(cmd, "--repo", gap, "--no-cache", *window)
        codes.append(r.rc)
        ok(r.err.startswith("maintstat: ") and "--help" in r.err,
           f"{cmd} {' '.join(window)}: a usage error's message", r.err)
    eq(codes, [2, 2, 2], f"{cmd}: a window without commits is a usage "
       "error, after, before or inside the history")
# --limit: docs/cli.md names the commands that take it, as --help says
with open(os.path.join(SOURCE_ROOT, "docs", "cli.md")) as f:
    m = re.search(r"The commands that take it: ([a-z, ]+)\.",
                  " ".join(f.read().split()))
named = sorted(m.group(1).replace(",", " ").split()) if m else None
commands = re.findall(r"^  ([a-z]+)  ", run("help").out, re.M)
helps = {c: " ".join(run(c, "--help").out.split()) for c in commands}
eq(sorted(c for c in commands if "--limit" in helps[c]), named,
   "docs/cli.md names the commands that take --limit")
# the verdicts' thresholds: one default per name, whichever command
for opt in ("--min-commits", "--inactive-after", "--split-commits",
            "--ignore-after", "--target"):
    said = {}
    for c, h in helps.items():
        m = re.search(r" " + opt + r" [A-Z]+ (.*?)(?= -[-a-z])", h)
        if m:
            d = re.search(r"default:? ([^;)]*)\)", m.group(1))
            said.setdefault(d.group(1) if d else None, []).append(c)
    ok(len(said) == 1, f"{opt}: one default in every command", str(said))
for cmd in ("areas", "recruit"):
    eq(run(cmd, "--min-commits", "5", "--help").rc, 2,
       f"{cmd}: its threshold is --split-commits, not --min-commits")
done()
