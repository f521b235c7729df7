#!/usr/bin/env python3
"""review --by: a planted list where FOO DRIVER's time to first response
doubles in a known month (10 h in January 2024, 20 h in February, nothing
in March), BAR's patches only in February.  --by month shows it, an empty
month is null, the intervals' patches add up to the window's; --by
quarter and year; the tree's .mailmap joins a maintainer's second
address; --by release between the tags of a repository (an -rc
tag and a tag outside the glob ignored); bad --by values are usage
errors."""
import os
import subprocess
import sys
sys.path.insert(0, os.path.dirname(__file__))
from mstest import run, ok, eq, done, tmpdir  # noqa: E402

tmp = tmpdir()
MAINT = """\
FOO DRIVER
M:	Fay Foo <fay@example.org>
S:	Maintained
F:	drivers/foo/

BAR DRIVER
M:	Bo Bar <bo@example.org>
S:	Maintained
F:	drivers/bar/
"""
tree = os.path.join(tmp, "tree")
for f in ("drivers/foo/foo.c", "drivers/bar/bar.c"):
    os.makedirs(os.path.dirname(os.path.join(tree, f)), exist_ok=True)
    with open(os.path.join(tree, f), "w") as fp:
        fp.write("int x;\n")
with open(os.path.join(tree, "MAINTAINERS"), "w") as fp:
    fp.write(MAINT)
# Bo answers from home: the tree's .mailmap joins it to his listed address
with open(os.path.join(tree, ".mailmap"), "w") as fp:
    fp.write("Bo Bar <bo@example.org> <bo@home.example.net>\n")

DAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]


def date(y, m, d, h):
    import datetime as dt
    t = dt.datetime(y, m, d, h, 0, 0)
    return "%s, %d %s %d %02d:00:00 +0000" % (
        DAYS[t.weekday()], d, ["Jan", "Feb", "Mar", "Apr"][m - 1], y, h)


msgs = []


def patch(mid, who, subj, path, y, m, d, h):
    msgs.append("""\
From %s Mon Jan  1 00:00:00 2024
From: %s
Subject: [PATCH] %s
Date: %s
Message-ID: <%s>

A change.

Signed-off-by: %s
---
 %s | 2 +-
 1 file changed

diff --git a/%s b/%s
--- a/%s
+++ b/%s
@@ -1 +1 @@
-int x;
+int y; /* %s */
""" % ("x@y", who, subj, date(y, m, d, h), mid, who, path, path, path,
       path, path, mid))


def reply(mid, to, who, y, m, d, h):
    msgs.append("""\
From %s Mon Jan  1 00:00:00 2024
From: %s
Subject: Re: a patch
Date: %s
Message-ID: <%s>
In-Reply-To: <%s>
References: <%s>

Looks fine, thanks.
""" % ("x@y", who, date(y, m, d, h), mid, to, to))


FAY = "Fay Foo <fay@example.org>"
# January: four FOO patches, each answered by Fay after 10 hours
for i in range(4):
    patch("foo-jan-%d@x" % i, "Ann Author <ann@example.com>",
          "foo: january change %d" % i, "drivers/foo/foo.c",
          2024, 1, 3 + 5 * i, 8)
    reply("re-foo-jan-%d@x" % i, "foo-jan-%d@x" % i, FAY,
          2024, 1, 3 + 5 * i, 18)
# February: four FOO patches, answered after 20 hours (doubled)
for i in range(4):
    patch("foo-feb-%d@x" % i, "Ann Author <ann@example.com>",
          "foo: february change %d" % i, "drivers/foo/foo.c",
          2024, 2, 2 + 5 * i, 2)
    reply("re-foo-feb-%d@x" % i, "foo-feb-%d@x" % i, FAY,
          2024, 2, 2 + 5 * i, 22)
# BAR: two February patches, one answered after 4 hours
for i in range(2):
    patch("bar-feb-%d@x" % i, "Ben Sender <ben@example.com>",
          "bar: change %d" % i, "drivers/bar/bar.c", 2024, 2, 10 + i, 1)
reply("re-bar-0@x", "bar-feb-0@x", "Bo Bar <bo@home.example.net>",
      2024, 2, 10, 5)
mbox = os.path.join(tmp, "list.mbox")
with open(mbox, "w") as fp:
    fp.write("\n".join(msgs))

WIN = ["--since", "2024-01-01", "--until", "2024-03-31"]
r = run("review", "--tree", tree, "--archive", mbox, *WIN, "--by", "month",
        "--json", "--no-cache")
eq(r.rc, 0, "review --by month exits 0")
j = r.json()
ents = {e["name"]: e for e in j["entries"]}
foo = ents["FOO DRIVER"]
eq(foo["patches"], 8, "FOO: 8 patches in the window")
s = foo["intervals"]
eq([x["start"][:10] for x in s], ["2024-01-01", "2024-02-01", "2024-03-01"],
   "three months")
eq([x["end"][:10] for x in s], ["2024-02-01", "2024-03-01", "2024-04-01"],
   "each ends where the next starts")
eq([x["patches"] for x in s], [4, 4, None], "FOO patches per month; March "
   "null")
eq(s[0]["time_to_first_response"]["median_hours"], 10.0,
   "January: median first response 10 h")
eq(s[1]["time_to_first_response"]["median_hours"], 20.0,
   "February: doubled to 20 h")
eq(s[2]["time_to_first_response"], None, "March: null, not 0")
eq(s[1]["people"][0]["email"], "fay@example.org", "Fay listed in February")
eq(s[1]["people"][0]["replied"], 4, "Fay answered February's 4")
eq(s[1]["people"][0]["median_latency_hours"], 20.0, "... after 20 h")
for name, e in ents.items():
    eq(sum(x["patches"] or 0 for x in e["intervals"]), e["patches"],
       name + ": the months' patches add up to the window's")
    eq(sum(x["replied"] or 0 for x in e["intervals"]), e["replied"],
       name + ": and so do the replied ones")
bar = ents["BAR DRIVER"]["intervals"]
eq([x["patches"] for x in bar], [None, 2, None], "BAR: February only")
eq(bar[1]["replied"], 1, "BAR: one answered")
eq(bar[1]["replied_by_listed"], 1, "BAR: by Bo, from his home address "
   "(the tree's .mailmap)")
eq(bar[1]["people"][0]["replied"], 1, "Bo's reply counted as his")

r = run("review", "--tree", tree, "--archive", mbox, *WIN, "--by", "month",
        "--no-cache", "FOO DRIVER")
eq(r.rc, 0, "text --by month exits 0")
rows = [l.split() for l in r.out.splitlines() if l.startswith("    2024-")]
eq([x[:2] for x in rows], [["2024-01-01", "4"], ["2024-02-01", "4"],
                           ["2024-03-01", "-"]], "text: one row a month")
eq(rows[0][5], "10.0h", "text: January's median")
eq(rows[1][5], "20.0h", "text: February's median")

# a window cut inside months: the first and last intervals say where
r = run("review", "--tree", tree, "--archive", mbox, "--since", "2024-01-10",
        "--until", "2024-02-10", "--by", "month", "--json", "--no-cache",
        "FOO DRIVER")
s = r.json()["entries"][0]["intervals"]
eq([(x["start"][:10], x["end"][:10], x["patches"]) for x in s],
   [("2024-01-10", "2024-02-01", 2), ("2024-02-01", "2024-02-11", 2)],
   "months cut by the window: from 10 January, to 10 February inclusive")
r = run("review", "--tree", tree, "--archive", mbox, "--since", "2024-01-10",
        "--until", "2024-02-10", "--by", "month", "--no-cache", "FOO DRIVER")
eq([l.split()[0] for l in r.out.splitlines() if l.startswith("    2024-")],
   ["2024-01-10", "2024-02-01"], "text: the first row starts on the 10th")
# no --since: the window starts with the oldest message, not at 1970
r = run("review", "--tree", tree, "--archive", mbox, "--json", "--no-cache",
        "FOO DRIVER")
eq(r.json()["window"]["since"][:10], "2024-01-03",
   "no --since: the window's since is the oldest message's date")

for by, n in (("quarter", [8]), ("year", [8])):
    r = run("review", "--tree", tree, "--archive", mbox, *WIN, "--by", by,
            "--json", "--no-cache", "FOO DRIVER")
    eq([x["patches"] for x in r.json()["entries"][0]["intervals"]], n,
       "--by %s: one interval, all patches" % by)

# releases: a repository with the same files, tagged
repo = os.path.join(tmp, "repo")
env = dict(os.environ, GIT_AUTHOR_NAME="T", GIT_AUTHOR_EMAIL="t@x",
           GIT_COMMITTER_NAME="T", GIT_COMMITTER_EMAIL="t@x")


def git(*a, date=None):
    e = dict(env)
    if date:
        e["GIT_AUTHOR_DATE"] = e["GIT_COMMITTER_DATE"] = date
    subprocess.run(["git", "-C", repo, *a], check=True, env=e,
                   capture_output=True)


subprocess.run(["cp", "-r", tree, repo], check=True)
git("init", "-q", "-b", "main")
git("add", ".")
git("commit", "-q", "-m", "base", date="2024-01-01T00:00:00Z")
git("tag", "v1.0")
git("commit", "-q", "--allow-empty", "-m", "rc", date="2024-01-20T00:00:00Z")
git("tag", "v1.1-rc1")
git("commit", "-q", "--allow-empty", "-m", "other",
    date="2024-01-25T00:00:00Z")
git("tag", "other-1")
git("commit", "-q", "--allow-empty", "-m", "rel", date="2024-02-01T00:00:00Z")
git("tag", "-a", "-m", "Release 1.1", "v1.1")
r = run("review", "--repo", repo, "--archive", mbox, *WIN, "--by",
        "release", "--json", "--no-cache", "FOO DRIVER")
eq(r.rc, 0, "--by release exits 0", )
s = r.json()["entries"][0]["intervals"]
eq([x.get("release") for x in s], ["v1.1", None],
   "intervals end at v1.1 (v1.0 before the window, -rc and other-1 not "
   "releases) and at the window's end")
eq([x["patches"] for x in s], [4, 4], "January's patches before v1.1")
eq(s[0]["start"][:10], "2024-01-01", "the first starts with the window")

# with --repo an interval with commits but no patch is shown (its
# commits), and its responsiveness over no patch is null, as the whole
# entry's is (docs/review.md), not the library's -1
r = run("review", "--repo", repo, "--archive", mbox, *WIN, "--by", "month",
        "--json", "--no-cache", "BAR DRIVER")
s = r.json()["entries"][0]["intervals"]
eq((s[0]["patches"], s[0]["commits"]), (0, 1),
   "--repo --by month: BAR's January has a commit and no patch")
eq(s[0]["responsiveness"], None, "its responsiveness over no patch: null")

r = run("review", "--repo", repo, "--archive", mbox, *WIN, "--by",
        "release", "--release-tags", "other-*", "--json", "--no-cache",
        "FOO DRIVER")
eq([x.get("release") for x in r.json()["entries"][0]["intervals"]],
   ["other-1", None], "--release-tags chooses the tags")

r = run("review", "--tree", tree, "--archive", mbox, "--by", "week")
eq(r.rc, 2, "--by week: usage error")
ok("week" in r.err, "the bad unit named", r.err)
r = run("review", "--tree", tree, "--archive", mbox, "--by", "release")
eq(r.rc, 2, "--by release without --repo: usage error")
r = run("review", "--tree", tree, "--archive", mbox, "--since", "1900-01-01",
        "--by", "month", "--no-cache")
eq(r.rc, 2, "a window of centuries by month is refused")
ok("intervals" in r.err, "saying why", r.err)
done()
