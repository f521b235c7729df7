#!/usr/bin/env python3
"""Who was listed in each entry when the window began (listed_late,
src/metrics/activity-listing.c): MAINTAINERS as of the newest commit
dated before the window's start, an entry whose file did not exist then
looked for among every MAINTAINERS file of that commit.  A run on a
store says what the --no-cache run says, cold and after a new commit.

The history: the planted one, XBOARD (Bob) in board/old/x/MAINTAINERS
an hour before the window begins, then in its newest commit Larry Late
joins ALPHA DRIVER, board/old/x/ moves to board/new/x/ and ZBOARD (Carol)
comes in board/new/z/.  Larry and Carol are newly listed; Ivan and Bob
(his entry found in its old file, among every MAINTAINERS file then) are
judged."""
import calendar
import os
import subprocess
import sys
sys.path.insert(0, os.path.dirname(__file__))
from mstest import run, ok, eq, done, planted_clone  # noqa

NEWEST = 1717243200          # the planted history's last commit date
# an hour before the window begins (5 years before the newest commit)
BEFORE_WINDOW = calendar.timegm((2019, 6, 1, 11, 0, 0))
ENTRIES = ["ALPHA DRIVER", "XBOARD", "ZBOARD"]

tmp, _, work = planted_clone()
db = os.path.join(tmp, "store.sqlite")


def git(*args, date=None):
    env = dict(os.environ, GIT_AUTHOR_NAME="Test",
               GIT_AUTHOR_EMAIL="t@example.com", GIT_COMMITTER_NAME="Test",
               GIT_COMMITTER_EMAIL="t@example.com",
               GIT_CONFIG_GLOBAL="/dev/null", GIT_CONFIG_NOSYSTEM="1")
    if date is not None:
        env.update(GIT_AUTHOR_DATE=f"@{date} +0000",
                   GIT_COMMITTER_DATE=f"@{date} +0000")
    return subprocess.run(["git", "-C", work, *args], env=env, check=True,
                          capture_output=True, text=True).stdout


def write(path, text):
    full = os.path.join(work, path)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "w") as f:
        f.write(text)


def board(name, who):
    return (f"{name}\nM:\t{who}\nS:\tMaintained\nF:\tdrivers/alpha/\n")


write("board/old/x/MAINTAINERS",
      board("XBOARD", "Bob Board <bob@example.org>"))
git("add", "-A")
git("commit", "-qm", "XBOARD", date=BEFORE_WINDOW)
mpath = os.path.join(work, "MAINTAINERS")
ivan = "M:\tIvan Inactive <ivan@example.org>\n"
with open(mpath) as f:
    text = f.read()
with open(mpath, "w") as f:
    f.write(text.replace(ivan, ivan + "M:\tLarry Late <larry@example.org>\n",
                         1))
os.makedirs(os.path.join(work, "board", "new"))
git("mv", "board/old/x", "board/new/x")
write("board/new/z/MAINTAINERS",
      board("ZBOARD", "Carol Card <carol@example.org>"))
git("add", "-A")
git("commit", "-qm", "Larry joins ALPHA, XBOARD moves, ZBOARD", date=NEWEST)


def activity(*extra, store=True, cmd="activity"):
    cache = ["--db", db] if store else ["--no-cache"]
    entries = ENTRIES if cmd == "activity" else []
    return run(cmd, "--repo", work, "--json", "--find-maintainer-files",
               *cache, *extra, *entries)


def verdicts(r):
    """{email: (inactive, listed_late)} of the people of the entries."""
    if r.rc != 0:
        return r.err
    return {p["email"]: (p["inactive"], p["listed_late"])
            for e in r.json()["entries"] for p in e["people"]}


def same(what, *extra, cmd="activity"):
    """The --db run's report, which must equal --no-cache's."""
    want = activity(*extra, store=False, cmd=cmd)
    got = activity(*extra, cmd=cmd)
    ok(want.rc == 0 and got.rc == 0 and got.out == want.out,
       f"{what}: the report equals --no-cache's", got.err + want.err)
    return got


# ---- cold, then warm after a new commit ----

cold = same("cold")
expect = {"alice@example.org": (False, False),
          "ivan@example.org": (True, False),
          "larry@example.org": (False, True),
          "rita@example.org": (False, False),
          "bob@example.org": (True, False),
          "carol@example.org": (False, True)}
got = verdicts(cold)
eq({k: got.get(k) for k in expect} if isinstance(got, dict) else got,
   expect, "cold: Larry and Carol listed late, Ivan and Bob (his entry "
   "where its file was) judged inactive")
same("warm, nothing new")

# a new commit an hour after the newest: the window starts an hour later,
# after the same commit
git("commit", "-q", "--allow-empty", "-m", "new", date=NEWEST + 3600)
warm = same("warm after a new commit")
eq(verdicts(warm), verdicts(cold), "warm after a new commit: the same "
   "verdicts")
same("urgent", cmd="urgent")

# review --repo loads the same model for its listed people's verdicts
LAB = ["--archive", os.path.join(tmp, "alpha.mbox")]
with open(LAB[1], "w") as f:
    f.write("From x@y Thu Jan  1 00:00:00 1970\n"
            "From: Pat Sender <pat@example.net>\nSubject: [PATCH] alpha: fix\n"
            "Date: Mon, 1 Apr 2024 10:00:00 +0000\n"
            "Message-ID: <alpha-1@example.net>\n\nA fix.\n---\n"
            "diff --git a/drivers/alpha/a.c b/drivers/alpha/a.c\n"
            "--- a/drivers/alpha/a.c\n+++ b/drivers/alpha/a.c\n"
            "@@ -1 +1 @@\n-x\n+y\n")
same("review", *LAB, cmd="review")
same("review --inactive-after 4y", *LAB, "--inactive-after", "4y",
     cmd="review")
done()
