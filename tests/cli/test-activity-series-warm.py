#!/usr/bin/env python3
"""activity --by on a warm store: each interval is kept in the store with
the digest of the records up to its end, and a run computes only the
intervals that can have changed (src/metrics/activity-series.c).
MS_SERIES_TRACE=1 makes maintstat say on stderr how many intervals it read
from the store and how many it computed.  Every report (JSON and text,
--by month, year and release) equals --no-cache's: nothing new (all
read), a new commit (the last interval, and the first, whose start moves
with --until), a merged branch or a commit of old dates (from its month
on), a .mailmap, --mailmap,
MAINTAINERS or option change (all), a damaged or deleted saved interval
(from it on), and a store that refuses the write (a warning)."""
import os
import re
import sqlite3
import struct
import subprocess
import sys
import time
sys.path.insert(0, os.path.dirname(__file__))
from mstest import (run, ok, eq, done, git_commit, planted_clone,  # noqa
                    model_row, model_put, series_windows,
                    refuse_model_writes, SERIES_WIN_HEAD,
                    SERIES_LEN_AT)

tmp, repo, work = planted_clone()
branch = subprocess.run(["git", "-C", work, "rev-parse", "--abbrev-ref",
                         "HEAD"], check=True, capture_output=True,
                        text=True).stdout.strip()
db = os.path.join(tmp, "store.sqlite")
when = [1717300000]          # after the planted history's last commit
TRACE = {"MS_SERIES_TRACE": "1"}


def git(*args, env=None):
    subprocess.run(["git", "-C", work, *args], check=True, env=env,
                   stdout=subprocess.DEVNULL)


def git_out(*args):
    return subprocess.run(["git", "-C", work, *args], check=True,
                          capture_output=True, text=True).stdout.strip()


def commit(path, content, msg, name="Nu Newcomer", email="nu@example.org",
           date=None, adate=None):
    if date is None:
        when[0] += 3600
        date = when[0]
    git_commit(work, path, content, msg, name, email, date, adate)


def push():
    git("push", "-q", "-f", "origin", "HEAD:refs/heads/main")
    git("push", "-q", "-f", "--tags", "origin")


def trace(err):
    m = re.search(r"maintstat: series: (\d+) intervals, (\d+) from the "
                  r"store, (\d+) computed", err)
    return tuple(int(x) for x in m.groups()) if m else None


def digests(got):
    """How the run had its records digests: "saved" (the row was saved
    from the same records) or "computed" (from the records)."""
    m = re.search(r"; records digests (\w+)", got.err)
    return m.group(1) if m else None


def series(what, by="month", *extra, fmt="--json", db_=None):
    """The --db run's report equals --no-cache's; its trace: (intervals,
    served, computed)."""
    f = [fmt] if fmt else []
    want = run("activity", "--repo", repo, *f, "--no-cache", "--by", by,
               *extra, env=TRACE)
    got = run("activity", "--repo", repo, *f, "--db", db_ or db, "--by",
              by, *extra, env=TRACE)
    ok(want.rc == 0 and got.rc == 0 and got.out == want.out,
       f"{what}: --by {by} {fmt} equals --no-cache's", got.err + want.err)
    t = trace(want.err)
    ok(t is not None and t[1] == 0 and t[2] == t[0],
       f"{what}: --no-cache reads nothing from the store", want.err)
    return trace(got.err), got


def row(kind="activity-series:month"):
    return model_row(db, kind)


def put_row(data, kind="activity-series:month"):
    model_put(db, kind, data)


windows = series_windows
WIN_HEAD, LEN_AT = SERIES_WIN_HEAD, SERIES_LEN_AT


def month_index(report, t):
    """The index of the month holding time `t` (UTC) in the series."""
    s = report.json()["entries"][0]["series"]
    return [x["start"][:7] for x in s].index(
        time.strftime("%Y-%m", time.gmtime(t)))


# tags, for --by release: three releases
git("tag", "v1.0", git_out("rev-list", "-1", "--before=2020-06-01", "HEAD"))
git("tag", "v2.0", git_out("rev-list", "-1", "--before=2022-06-01", "HEAD"))
push()

# ---- cold, then warm with nothing new: every interval from the store
for by in ("month", "year", "release"):
    t, _ = series("cold", by)
    ok(t is not None and t[1] == 0 and t[2] == t[0] and t[0] > 0,
       f"cold --by {by}: every interval computed", t)
    for fmt in ("--json", ""):
        t, got = series("warm, nothing new", by, fmt=fmt)
        ok(t is not None and t[1] == t[0] and t[2] == 0,
           f"warm --by {by} {fmt}: every interval from the store", t)
        eq(digests(got), "saved", f"warm --by {by} {fmt}: the records "
           "digests as saved, not computed")
        eq([x for x in got.err.splitlines()
            if not x.startswith("maintstat: series: ")], [],
           f"warm --by {by} {fmt}: nothing on stderr but the trace")
eq(series("warm", "release")[0][0], 3, "--by release: three releases")
nmonths = series("warm", "month")[0][0]
saved = row()
t, _ = series("--no-cache run", "month")
ok(row() == saved, "--no-cache writes nothing, and the warm run rewrites "
   "nothing when nothing changed")

# ---- a new commit: the last month, and the first (the window's start is
# five years before its end, which moved)
commit("drivers/alpha/new.c", "x\n", "alpha: new\n\n"
       "Reviewed-by: Ria Reviewer <ria@example.net>\n")
push()
t, got = series("after a new commit", "month")
eq(t, (nmonths, nmonths - 2, 2), "after a new commit: the first and the "
   "last month computed, the others from the store")
eq(digests(got), "computed", "after a new commit: the records digests "
   "computed from the records")
t, got = series("and again", "month")
eq(t, (nmonths, nmonths, 0), "and then every month from the store")
eq(digests(got), "saved", "... with the records digests as saved")
since = "--since=2019-07-01"
series("a fixed --since, cold", "month", since)
commit("drivers/alpha/new2.c", "y\n", "alpha: new 2\n")
push()
t, _ = series("a fixed --since, after a new commit", "month", since)
eq(t[1:], (t[0] - 1, 1), "with a fixed --since only the last month is "
   "computed")
# a later --since inside the first month: the months are cut as before
# but the first one starts later, its commits are counted again
times = sorted(int(x) for x in git_out("log", "--format=%ct").split())
first = [x for x in times if x >= 1561939200][:2]      # from 2019-07-01
later = time.strftime("%Y-%m-%d", time.gmtime(first[1]))
ok(first[0] < first[1] - 86400 and later[:7] == "2019-07",
   "two commits in July 2019, days apart", first)
t, _ = series("a later --since", "month", "--since=" + later)
eq(t[1:], (t[0] - 1, 1), "a later --since in the first month: the first "
   "month counted again")
t, _ = series("back to --since 2019-07-01", "month", since)
eq(t[1:], (t[0] - 1, 1), "and back: the first month counted again")
# an old author date: it counts where its commit date is
commit("drivers/alpha/new3.c", "z\n", "alpha: new 3\n",
       name="Alice Active", email="alice@example.org", adate=1600000000)
push()
t, _ = series("an old author date", "month", since)
eq(t[1:], (t[0] - 1, 1), "a new commit with an old author date: only the "
   "last month")
t, _ = series("year, after new commits", "year")
eq(t[1:], (t[0] - 2, 2), "--by year after new commits: the first and the "
   "last year")

# ---- a merged branch of old commit dates: from its month on
old = git_out("rev-list", "-1", "--before=2021-06-01", "HEAD")
git("checkout", "-q", "-b", "side", old)
odate = int(git_out("log", "-1", "--format=%ct", old)) + 86400
commit("drivers/alpha/side.c", "s\n", "alpha: side\n",
       name="Sid Side", email="sid@example.org", date=odate)
git("checkout", "-q", branch)
when[0] += 3600
menv = dict(os.environ, GIT_AUTHOR_NAME="M", GIT_AUTHOR_EMAIL="m@example.org",
            GIT_COMMITTER_NAME="M", GIT_COMMITTER_EMAIL="m@example.org",
            GIT_AUTHOR_DATE=f"@{when[0]} +0000",
            GIT_COMMITTER_DATE=f"@{when[0]} +0000")
git("merge", "-q", "--no-ff", "-m", "merge side", "side", env=menv)
push()
t, got = series("a merged branch of old dates", "month", since)
k = month_index(got, odate)
ok(0 < k < t[0] - 1, "the side commit falls in an old month", k)
eq(t[1:], (k, t[0] - k), "a merged branch of old dates: the months before "
   "its commit from the store, from its month on computed")

# ---- a new commit of an old commit date (before its parent's): the walk
# puts it among the commits of its date, and it changes its month on
early = 1600000000
commit("drivers/alpha/early.c", "e\n", "alpha: early\n", date=early)
push()
t, got = series("a commit of an old commit date", "month", since)
k = month_index(got, early)
eq(t[1:], (k, t[0] - k), "a new commit of an old commit date: the months "
   "before it from the store, from its month on computed")
git("reset", "-q", "--hard", "HEAD~1")
push()
t, _ = series("that commit gone again", "month", since)
eq(t[1:], (k, t[0] - k), "that commit gone again: from its month on "
   "computed")
t, _ = series("and again", "month", since)
eq(t[1:], (t[0], 0), "and then every month from the store")

# ---- what the key covers: any change computes every interval
commit(".mailmap",
       "Alice Active <alice@example.org> <alice@old.example.org>\n",
       "mailmap: alice\n")
push()
series("a .mailmap change, cold", "month", since)
t, _ = series("a .mailmap change", "month", since)
eq(t[1:], (t[0], 0), "(warm again)")
commit(".mailmap", "Alice A. Active <alice@example.org>\n", "mailmap: name\n")
push()
t, _ = series("a .mailmap change of a canonical name", "month", since)
eq(t[1:], (0, t[0]), "a .mailmap change: every month computed")
mm = os.path.join(tmp, "extra.mailmap")
with open(mm, "w") as f:
    f.write("Bob Busy <bob@example.org> <bob@else.example.org>\n")
t, _ = series("--mailmap", "month", since, "--mailmap", mm)
eq(t[1:], (0, t[0]), "--mailmap FILE: every month computed")
with open(mm, "w") as f:
    f.write("Bob Busy <bob@example.org> <bob@other.example.org>\n")
t, _ = series("--mailmap changed", "month", since, "--mailmap", mm)
eq(t[1:], (0, t[0]), "a changed --mailmap FILE: every month computed")
series("back to no --mailmap", "month", since)
with open(os.path.join(work, "MAINTAINERS")) as f:
    text = f.read()
commit("MAINTAINERS", text.replace("\nS:", "\nR:\tNia Newcomer "
                                   "<nia@example.com>\nS:", 1),
       "MAINTAINERS: a reviewer\n")
push()
t, _ = series("a MAINTAINERS change", "month", since)
eq(t[1:], (0, t[0]), "a MAINTAINERS change: every month computed")
for opt in ("--merges", "--no-name-join", "--no-plus-fold"):
    t, _ = series(opt, "month", since, opt)
    eq(t[1:], (0, t[0]), f"{opt}: every month computed")
series("back to no option", "month", since)
entry = run("activity", "--repo", repo, "--json", "--no-cache").json()[
    "entries"][1]["name"]
t, _ = series("one entry", "month", since, entry)
eq(t[1:], (0, t[0]), "one entry asked for: every month computed")
t, _ = series("one entry, again", "month", since, entry)
eq(t[1:], (t[0], 0), "... and then from the store")
# --inactive-after judges the whole window, not the intervals (each one's
# own start is its threshold): the months are read
t, _ = series("--inactive-after", "month", since, entry,
              "--inactive-after", "1y")
eq(t[1:], (t[0], 0), "--inactive-after: the months from the store")
t, _ = series("--until", "month", since, entry, "--until", "2023-06-15")
ok(t[1] == t[0] - 1 and t[2] == 1, "an earlier --until: its last month "
   "(cut short) computed, the ones before from the store", t)

# ---- damage: a saved interval is computed again, never shown
t, _ = series("cold for the damage", "month", since, entry)
data = row()
wins = windows(data)
at, ln = wins[20]
bad = bytearray(data)
bad[at + WIN_HEAD + ln // 2] ^= 0x40
put_row(bytes(bad))
t, _ = series("a damaged interval", "month", since, entry)
eq(t[1:], (20, t[0] - 20), "a damaged 21st month: the 20 before from the "
   "store, from it on computed")
ok(row() == data, "... and saved again as it was")
# window 21 made of window 20's body: it reads as a window, but its check
# does not hold
bad = bytearray(data)
(a20, l20), (a21, l21) = wins[19], wins[20]
bad[a21:a21 + WIN_HEAD + l21] = (data[a21:a21 + LEN_AT] +
                                 struct.pack("<I", l20) +
                                 data[a20 + WIN_HEAD:a20 + WIN_HEAD + l20])
put_row(bytes(bad))
t, _ = series("another window's body", "month", since, entry)
eq(t[1:], (20, t[0] - 20), "a 21st month with the 20th's body: from it on "
   "computed")
# a window that claims more bytes than the row has
bad = bytearray(data)
bad[wins[5][0] + LEN_AT:wins[5][0] + WIN_HEAD] = struct.pack("<I",
                                                            len(data))
put_row(bytes(bad))
t, _ = series("a window longer than the row", "month", since, entry)
eq(t[1:], (5, t[0] - 5), "a window longer than the row: from it on "
   "computed")
# the last ten windows cut off
put_row(data[:wins[-10][0]])
t, _ = series("the last ten windows gone", "month", since, entry)
eq(t[1:], (t[0] - 10, 10), "the last ten windows gone: they are computed")
ok(row() == data, "... and saved again")
c = sqlite3.connect(db)
c.execute("DELETE FROM models WHERE kind = 'activity-series:month'")
c.commit()
c.close()
t, _ = series("the saved series deleted", "month", since, entry)
eq(t[1:], (0, t[0]), "the saved series deleted: every month computed")

# ---- a store that refuses the write: a warning, the right report
refuse_model_writes(db, "activity-series:*")
t, got = series("a store that refuses the write", "year", since)
ok("maintstat: warning: the time series was not kept in the store: " in
   got.err and "refused" in got.err, "... says it was not kept", got.err)
eq(got.rc, 0, "... and exits 0")
done()
