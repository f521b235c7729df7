#!/usr/bin/env python3
"""maintstat urgent on the planted repository of fixtures/gen/gen-repo.py:
exactly DELTA (no maintainer), EPSILON (maintainer never seen) and ZETA
(maintainer idle for years), with their de-facto committers."""
import os
import subprocess
import sys
sys.path.insert(0, os.path.dirname(__file__))
from mstest import run, ok, eq, done, tmpdir, FIXTURES  # noqa: E402

tmp = tmpdir()
repo = os.path.join(tmp, "planted.git")
subprocess.run([sys.executable, os.path.join(FIXTURES, "gen", "gen-repo.py"),
                repo], check=True)


def names(text):
    return [l[len("Subsystem "):] for l in text.splitlines()
            if l.startswith("Subsystem ")]


DELTA, EPS, ZETA = ("DELTA BUSY WITHOUT MAINTAINER", "EPSILON NEVER SEEN",
                    "ZETA IDLE")

r = run("urgent", "--repo", repo)
eq(r.rc, 0, "urgent exits 0")
eq(names(r.out), [DELTA, EPS, ZETA], "the three planted entries, busiest "
   "first")
want = """\
Subsystem DELTA BUSY WITHOUT MAINTAINER
  Commits 60 since 2023-06-01
  No maintainer listed
  Committed by:
    [45]: Carl Committer <carl@example.org>
    [15]: Dana Deputy <dana@example.org>

Subsystem EPSILON NEVER SEEN
  Commits 55 since 2023-06-01
  Maintainer Nora Never <nora@example.org>: never seen in the history
  Committed by:
    [40]: Sam Signer <sam@example.org>
    [15]: Ted Tree <ted@example.org>

Subsystem ZETA IDLE
  Commits 52 since 2023-06-01
  Maintainer Zed Idle <zed@example.org>: last active here 2022-"""
ok(r.out.startswith(want), "text report: counts, reasons and the "
   "de-facto committers (a bot's commits go to the last Signed-off-by)",
   r.out)
ok(r.out.endswith("  Committed by:\n    [52]: Quinn Quick "
                  "<quinn@example.org>\n"), "Quinn commits ZETA", r.out)

r = run("urgent", "--repo", repo, "--never")
eq(names(r.out), [EPS], "--never: only EPSILON")
r = run("urgent", "--repo", repo, "--nomaint")
eq(names(r.out), [DELTA], "--nomaint: only DELTA")
r = run("urgent", "--repo", repo, "--months", "36")
eq(names(r.out), [DELTA, EPS], "--months 36: Zed counts as active")
r = run("urgent", "--repo", repo, "--min-commits", "56")
eq(names(r.out), [DELTA], "--min-commits 56")
r = run("urgent", "--repo", repo, "--since", "2024-03-01")
ok(all(n in (DELTA, EPS, ZETA) for n in names(r.out)) and
   len(names(r.out)) < 3, "--since narrows the window", r.out)

r = run("urgent", "--repo", repo, "--json")
eq(r.rc, 0, "--json exits 0")
j = r.json()
eq(j["schema_version"], 1, "schema_version")
eq(j["window"]["since"], "2023-06-01T12:00:00+00:00",
   "one year before the newest commit")
eq([(e["name"], e["commits"], e["reason"]) for e in j["entries"]],
   [(DELTA, 60, "no_maintainer"), (EPS, 55, "never"),
    (ZETA, 52, "inactive")], "JSON entries")
eq([(c["email"], c["count"]) for c in j["entries"][1]["committers"]],
   [("sam@example.org", 40), ("ted@example.org", 15)], "JSON committers")
eq(j["entries"][1]["maintainers"],
   [{"name": "Nora Never", "email": "nora@example.org",
     "last_activity": None, "seen_anywhere": False}],
   "JSON maintainers of EPSILON")
ok(j["entries"][2]["maintainers"][0]["last_activity"].startswith("2022-"),
   "JSON: Zed last active in 2022")

r = run("urgent", "--repo", repo, "--never", "--nomaint")
eq(r.rc, 2, "--never and --nomaint exclude each other")
r = run("urgent", "--repo", tmp)
eq(r.rc, 1, "not a git repository: exit 1")
ok("not a git repository" in r.err, "...said so", r.err)
r = run("urgent", "--repo", repo, "--rev", "nope")
eq(r.rc, 1, "unknown revision: exit 1")
r = run("urgent", "--repo", repo, "--months", "many")
eq(r.rc, 2, "--months takes a number")

subprocess.run(["rm", "-rf", tmp])
done()
