#!/usr/bin/env python3
"""activity --by and urgent --by on the planted repository of
fixtures/gen/gen-repo.py: the intervals' commits add up to the window's
(the planted counts of --truth), an interval without commits is null,
ZETA's Zed is active only 2-3 years before the end and Quinn commits in
the last year, DELTA's 60 commits spread over quarters; bad --by values
are usage errors."""
import json
import os
import subprocess
import sys
sys.path.insert(0, os.path.dirname(__file__))
from mstest import run, ok, eq, done, tmpdir, FIXTURES  # noqa: E402

tmp = tmpdir()
repo = os.path.join(tmp, "planted.git")
truth_file = os.path.join(tmp, "truth.json")
subprocess.run([sys.executable, os.path.join(FIXTURES, "gen", "gen-repo.py"),
                repo, "--truth", truth_file], check=True)
with open(truth_file) as fp:
    truth = json.load(fp)

r = run("activity", "--repo", repo, "--by", "month", "--json", "--no-cache")
eq(r.rc, 0, "activity --by month exits 0")
ents = {e["name"]: e for e in r.json()["entries"]}
for name, t in truth["entries"].items():
    s = ents[name]["intervals"]
    eq(sum(x["commits"] or 0 for x in s), t["commits"],
       name + ": the months' commits add up to the planted count")
    eq(sum(x["reviewed"] or 0 for x in s), t["reviewed"],
       name + ": and the reviewed ones")
g = ents["GAMMA BY KEYWORD"]["intervals"]
eq(len(g), 61, "five years and a day: 61 months")
ok(any(x["commits"] is None and x["people"] is None for x in g),
   "a month without commits is null")
eq(g[0]["start"][:10], "2019-06-01", "months start on the 1st (UTC)")

# a window that starts and ends inside a month: the first and last
# intervals are given as counted, cut by the window (docs/json.md), in
# JSON and in the text's first column
r = run("activity", "--repo", repo, "--by", "month", "--json", "--no-cache",
        "--since", "2020-03-15", "--until", "2020-06-10", "GAMMA BY KEYWORD")
doc = r.json()
s = doc["entries"][0]["intervals"]
eq([(x["start"][:10], x["end"][:10]) for x in s],
   [("2020-03-15", "2020-04-01"), ("2020-04-01", "2020-05-01"),
    ("2020-05-01", "2020-06-01"), ("2020-06-01", "2020-06-11")],
   "months cut by the window: 15 March to 10 June (end exclusive)")
eq((s[0]["start"], s[-1]["end"][11:]), (doc["window"]["since"], "00:00:00"
                                        "+00:00"),
   "the first starts where the window does, the last ends after its day")
r = run("activity", "--repo", repo, "--by", "month", "--no-cache",
        "--since", "2020-03-15", "--until", "2020-06-10", "GAMMA BY KEYWORD")
eq([l.split()[0] for l in r.out.splitlines() if l.startswith("    2020")],
   ["2020-03-15", "2020-04-01", "2020-05-01", "2020-06-01"],
   "text: the first row starts on the window's first day")

r = run("activity", "--repo", repo, "--by", "year", "--json", "--no-cache",
        "ZETA IDLE")
z = r.json()["entries"][0]["intervals"]
eq([x["start"][:4] for x in z], ["2019", "2020", "2021", "2022", "2023",
                                  "2024"], "years 2019-2024")
zed = {x["start"][:4]: x["people"][0]["authored"] for x in z if x["people"]}
ok(zed.get("2021", 0) + zed.get("2022", 0) == 5 and
   not zed.get("2023") and not zed.get("2024"),
   "Zed authored his 5 commits in 2021-2022, nothing since", zed)
ok(all(x["top_committers"][0]["email"] == "quinn@example.org"
       for x in z if x["start"][:4] in ("2023", "2024")),
   "Quinn commits ZETA's changes in 2023 and 2024")
r = run("activity", "--repo", repo, "--by", "year", "--no-cache",
        "ZETA IDLE")
rows = [l.split() for l in r.out.splitlines() if l.startswith("    20")]
eq(len(rows), 6, "text: one row a year")

r = run("urgent", "--repo", repo, "--by", "quarter", "--json", "--no-cache")
eq(r.rc, 0, "urgent --by quarter exits 0")
u = {e["name"]: e for e in r.json()["entries"]}
d = u["DELTA BUSY WITHOUT MAINTAINER"]["intervals"]
eq(sum(x["commits"] or 0 for x in d), 60, "DELTA: 60 commits over quarters")
ok(all(x["top_committers"][0]["email"] == "carl@example.org"
       for x in d if x["commits"]), "Carl commits most in every quarter")

r = run("activity", "--repo", repo, "--by", "fortnight")
eq(r.rc, 2, "--by fortnight: usage error")
# ZETA's Zed was last active two years before the end: urgent with a 6m
# cutoff (the default is 5y, as for every command since schema 4).
r = run("urgent", "--repo", repo, "--by", "release", "--json", "--no-cache",
        "--inactive-after", "6m")
eq(r.rc, 0, "--by release without tags: one interval")
eq([len(e["intervals"]) for e in r.json()["entries"]], [1, 1, 1],
   "one interval per entry")
done()
