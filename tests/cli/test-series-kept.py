#!/usr/bin/env python3
"""urgent --by and report keep their intervals in the store as activity
--by does (src/metrics/activity-series.c; one row per command and unit,
"urgent-series:UNIT" and "report-series:month"): a warm run reads every
interval, a new commit computes only the intervals it changes, a damaged
row is computed again from the damage on, --no-cache reads and writes
nothing, and every report equals --no-cache's byte for byte.
MS_SERIES_TRACE=1 makes maintstat say on stderr how many intervals it read
from the store and how many it computed."""
import os
import re
import sqlite3
import struct
import subprocess
import sys
import time
sys.path.insert(0, os.path.dirname(__file__))
from mstest import (run, ok, eq, done, git_commit, planted_clone,  # noqa
                    gen_review, tmpdir, model_row, model_put,
                    series_windows, refuse_model_writes, SERIES_WIN_HEAD)

TRACE = {"MS_SERIES_TRACE": "1"}


def trace(err):
    m = re.search(r"maintstat: series: (\d+) intervals, (\d+) from the "
                  r"store, (\d+) computed", err)
    return tuple(int(x) for x in m.groups()) if m else None


def digests(got):
    m = re.search(r"; records digests (\w+)", got.err)
    return m.group(1) if m else None


row, put_row, windows = model_row, model_put, series_windows
WIN_HEAD = SERIES_WIN_HEAD


def damage(db, kind, w):
    """Flip a bit in the middle of saved window w's body; the row as it
    was."""
    data = row(db, kind)
    at, ln = windows(data)[w]
    bad = bytearray(data)
    bad[at + WIN_HEAD + ln // 2] ^= 0x40
    put_row(db, kind, bytes(bad))
    return data


# ---- urgent --by, on the planted history ----

tmp, repo, work = planted_clone()
db = os.path.join(tmp, "store.sqlite")
when = [1717300000]          # after the planted history's last commit
UKIND = "urgent-series:month"


def commit(path, content, msg, name="Nu Newcomer", email="nu@example.org",
           date=None):
    if date is None:
        when[0] += 3600
        date = when[0]
    git_commit(work, path, content, msg, name, email, date)
    subprocess.run(["git", "-C", work, "push", "-q", "-f", "origin",
                    "HEAD:refs/heads/main"], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def urgent(what, by="month", *extra, fmt="--json", cmd="urgent"):
    """The --db run's report equals --no-cache's; its trace."""
    f = [fmt] if fmt else []
    want = run(cmd, "--repo", repo, *f, "--no-cache", "--by", by, *extra,
               env=TRACE)
    got = run(cmd, "--repo", repo, *f, "--db", db, "--by", by, *extra,
              env=TRACE)
    ok(want.rc == 0 and got.rc == 0 and got.out == want.out,
       f"{what}: {cmd} --by {by} {fmt} equals --no-cache's",
       got.err + want.err)
    t = trace(want.err)
    ok(t is not None and t[1] == 0 and t[2] == t[0],
       f"{what}: --no-cache reads nothing from the store", want.err)
    return trace(got.err), got


t, got = urgent("cold")
ok(t is not None and t[0] > 1 and t[1:] == (0, t[0]),
   "cold urgent --by month: every month computed", t)
ok(got.json()["entries"] and any(
    x["commits"] for x in got.json()["entries"][0]["series"] if x["commits"]),
   "the series of the first entry has commits (the comparison covers it)")
nmonths = t[0]
for fmt in ("--json", ""):
    t, got = urgent("warm, nothing new", fmt=fmt)
    eq(t, (nmonths, nmonths, 0), f"warm urgent --by month {fmt}: every "
       "month from the store")
    eq(digests(got), "saved", f"warm urgent {fmt}: the records digests as "
       "saved")
    eq([x for x in got.err.splitlines()
        if not x.startswith("maintstat: series: ")], [],
       f"warm urgent {fmt}: nothing on stderr but the trace")
saved = row(db, UKIND)
ok(saved is not None, "the months are kept as " + UKIND)
urgent("a --no-cache run")
ok(row(db, UKIND) == saved, "--no-cache writes nothing, and the warm run "
   "rewrites nothing when nothing changed")
t, _ = urgent("year, cold", "year")
ok(t is not None and t[1:] == (0, t[0]), "urgent --by year: its own row, "
   "every year computed", t)
t, _ = urgent("year, warm", "year")
ok(t is not None and t[1:] == (t[0], 0), "urgent --by year warm: every year "
   "from the store", t)
# the selection and the inactivity cutoff are applied to the window's
# entries: the intervals are the same
for opt in (["--never"], ["--nomaint"], ["--min-commits", "0"],
            ["--inactive-after", "2y"], ["--months", "3"]):
    t, _ = urgent(" ".join(opt), "month", *opt)
    eq(t, (nmonths, nmonths, 0), f"urgent {' '.join(opt)}: every month from "
       "the store")

# activity keeps its own row: neither replaces the other
t, _ = urgent("activity, cold", "month", cmd="activity")
ok(t is not None and t[1:] == (0, t[0]), "activity --by month computes its "
   "own months", t)
t, _ = urgent("urgent after activity")
eq(t, (nmonths, nmonths, 0), "urgent after activity: every month still "
   "from the store")
t, _ = urgent("activity after urgent", "month", cmd="activity")
ok(t is not None and t[1:] == (t[0], 0), "activity after urgent: every "
   "month from the store", t)

# a new commit: the last month, and the first (the window's start is a
# year before its end, which moved)
commit("drivers/delta/new.c", "x\n", "delta: new\n")
t, got = urgent("after a new commit")
eq(digests(got), "computed", "after a new commit: the records digests "
   "computed")
eq(t, (nmonths, nmonths - 2, 2), "after a new commit: the first and the "
   "last month computed, the others from the store")
for fmt in ("--json", ""):
    t, _ = urgent("and again", fmt=fmt)
    eq(t, (nmonths, nmonths, 0), f"and then every month from the store "
       f"{fmt}")
# a fixed --since: only the month of the new commit
since = "--since=2023-03-01"
urgent("a fixed --since, cold", "month", since)
commit("drivers/delta/new2.c", "y\n", "delta: new 2\n")
t, _ = urgent("a fixed --since, after a new commit", "month", since)
ok(t is not None and t[1:] == (t[0] - 1, 1), "with a fixed --since only "
   "the last month is computed", t)
# the last commit made again by someone else, at the same dates: as many
# records as before in every month, other records in the last
ct = subprocess.run(["git", "-C", work, "log", "-1", "--format=%ct %at"],
                    check=True, capture_output=True, text=True).stdout.split()
subprocess.run(["git", "-C", work, "commit", "-q", "--amend", "--no-edit",
                "--reset-author"], check=True, env=dict(
                    os.environ, GIT_AUTHOR_NAME="Dana Deputy",
                    GIT_AUTHOR_EMAIL="dana@example.org",
                    GIT_COMMITTER_NAME="Dana Deputy",
                    GIT_COMMITTER_EMAIL="dana@example.org",
                    GIT_AUTHOR_DATE=f"@{ct[1]} +0000",
                    GIT_COMMITTER_DATE=f"@{ct[0]} +0000"))
subprocess.run(["git", "-C", work, "push", "-q", "-f", "origin",
                "HEAD:refs/heads/main"], check=True,
               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
t, got = urgent("the last commit made again by another", "month", since)
ok(t is not None and t[1:] == (t[0] - 1, 1), "the last commit made again "
   "by another, as many records: the last month computed", t)
eq(digests(got), "computed", "... the records digests computed, not taken "
   "from the windows of as many records")

# damage: from the damaged month on
t, _ = urgent("before the damage", "month", since)
kept = damage(db, UKIND, 6)
t, _ = urgent("a damaged month", "month", since)
ok(t is not None and t[1:] == (6, t[0] - 6), "a damaged 7th month: the 6 "
   "before from the store, from it on computed", t)
ok(row(db, UKIND) == kept, "... and saved again as it was")
# a damaged records count (the digests are found by it): from it on
data = row(db, UKIND)
at = windows(data)[3][0]
put_row(db, UKIND, data[:at + 96] + struct.pack("<I", struct.unpack_from(
    "<I", data, at + 96)[0] + 1) + data[at + 100:])
t, got = urgent("a damaged records count", "month", since)
ok(t is not None and t[1:] == (3, t[0] - 3), "a damaged 4th records count: "
   "the 3 before from the store, from it on computed", t)
eq(digests(got), "computed", "... and the records digests computed")
ok(row(db, UKIND) == kept, "... and saved again as it was")
c = sqlite3.connect(db)
c.execute("DELETE FROM models WHERE kind = ?", (UKIND,))
c.commit()
c.close()
t, _ = urgent("the row deleted", "month", since)
ok(t is not None and t[1:] == (0, t[0]), "the row deleted: every month "
   "computed", t)
# a store that refuses the write: a warning, the right report
refuse_model_writes(db, "urgent-series:*")
t, got = urgent("a store that refuses the write", "quarter", since)
ok("maintstat: warning: the time series was not kept in the store: " in
   got.err and "refused" in got.err, "... says it was not kept", got.err)
eq(got.rc, 0, "... and exits 0")

# ---- report, on gen-review's repository and list ----

rtmp = tmpdir()
grepo, mbox = gen_review(rtmp)
rdb = os.path.join(rtmp, "store.sqlite")
RKIND = "report-series:month"
nsite = [0]


def site(d):
    """Every file of the site under `d`: relative path -> bytes."""
    out = {}
    for dirpath, _, files in os.walk(d):
        for f in files:
            p = os.path.join(dirpath, f)
            with open(p, "rb") as fp:
                out[os.path.relpath(p, d)] = fp.read()
    return out


def report(what, *extra, db_=None):
    """The --db run's site equals --no-cache's, file for file; its
    trace and site."""
    nsite[0] += 1
    dirs = [os.path.join(rtmp, f"site-{nsite[0]}-{k}") for k in "wg"]
    args = ["report", "--repo", grepo, "--archive", mbox, *extra]
    want = run(*args, "--no-cache", "--output-dir", dirs[0], env=TRACE)
    got = run(*args, "--db", db_ or rdb, "--output-dir", dirs[1],
              env=TRACE)
    ws, gs = site(dirs[0]), site(dirs[1])
    ok(want.rc == 0 and got.rc == 0 and len(ws) > 5 and ws == gs,
       f"{what}: report's site equals --no-cache's, file for file",
       got.err + want.err + str(sorted(k for k in ws if ws[k] !=
                                       gs.get(k))))
    t = trace(want.err)
    ok(t is not None and t[1] == 0 and t[2] == t[0],
       f"{what}: --no-cache reads nothing from the store", want.err)
    report.digests = digests(got)
    report.noise = [x for x in got.err.splitlines()
                    if not x.startswith("maintstat: series: ")]
    return trace(got.err), gs


def timeline(s, name):
    import json
    for k, v in s.items():
        if k.startswith("data/entry-"):
            d = json.loads(v)
            if d["entry"]["name"] == name:
                return d["git_timeline"]
    return None


def gcommit(path, content, msg, name, email, date):
    git_commit(grepo, path, content, msg, name, email, date)


def mail(frm, date, subject, body="A note.\n", msgid=None):
    global nmail
    nmail += 1
    msgid = msgid or f"<added-{nmail}@example.org>"
    with open(mbox, "a") as f:
        f.write(f"From mboxrd@z Thu Jan  1 00:00:00 1970\nFrom: {frm}\n"
                f"To: foo@lists.example.org\nDate: {date}\n"
                f"Subject: {subject}\nMessage-Id: {msgid}\n\n{body}\n")


nmail = 0
nodb = os.path.join(rtmp, "nothing.sqlite")
r = run("report", "--repo", grepo, "--archive", mbox, "--no-cache", "--db",
        nodb, "--output-dir", os.path.join(rtmp, "nc"), env=TRACE)
ok(r.rc == 0 and row(nodb, RKIND) is None, "report --no-cache --db FILE "
   "keeps no month in FILE", r.err)
t, s = report("cold")
ok(t is not None and t[0] > 1 and t[1:] == (0, t[0]), "cold report: every "
   "month computed", t)
months = t[0]
tl = timeline(s, "FOO DRIVER")
ok(tl and sum(sum(p["authored"]) + sum(p["committed"]) + sum(p["tags"])
              for p in tl["people"]) > 0,
   "FOO DRIVER's git timeline has activity (the comparison covers it)", tl)
eq(len(tl["months"]) if tl else None, months, "one interval a month of the "
   "timeline")
t, _ = report("warm, nothing new")
eq(t, (months, months, 0), "warm report: every month from the store")
eq(report.noise, [], "warm report: nothing on stderr but the trace")
saved = row(rdb, RKIND)
ok(saved is not None, "the months are kept as " + RKIND)
report("a --no-cache run")
ok(row(rdb, RKIND) == saved, "--no-cache writes nothing, and the warm run "
   "rewrites nothing when nothing changed")
# activity --by month of the same repository keeps its own row
act = run("activity", "--repo", grepo, "--db", rdb, "--by", "month",
          "--json", env=TRACE)
ok(act.rc == 0 and trace(act.err) and trace(act.err)[1] == 0,
   "activity --by month on the same store computes its own months",
   act.err)
t, _ = report("report after activity")
eq(t, (months, months, 0), "report after activity: every month still from "
   "the store")
t, _ = report("report, an entry asked for", "FOO DRIVER")
ok(t is not None and t[1:] == (0, t[0]), "report of one entry (other "
   "entries asked for): every month computed", t)
t, _ = report("report, an entry asked for, again", "FOO DRIVER")
ok(t is not None and t[1:] == (t[0], 0), "... and then from the store", t)
report("back to every entry")

# new mail from a known address: the people are the same
mail("Linus Root <linus@example.org>", "Wed, 20 Mar 2024 10:00:00 +0000",
     "Re: a question")
t, _ = report("new mail from a known sender")
eq(t, (months, months, 0), "new mail from a known sender: every month from "
   "the store")
eq(report.digests, "saved", "... and the records digests as saved")
# new mail joining an address to a committer by name: the key changes
mail("Carol Coder <carol@newhome.example>", "Wed, 20 Mar 2024 11:00:00 +0000",
     "Re: another question")
t, s = report("new mail from a committer's new address")
eq(t, (months, 0, months), "new mail joining an address to a committer: "
   "every month computed")
t, _ = report("and again")
eq(t, (months, months, 0), "and then every month from the store")

# a new commit in the last month: only that month
eq(timeline(s, "FOO DRIVER")["months"][-1], "2024-04", "the last month is "
   "April 2024 (the newest mail)")
gcommit("drivers/foo/april.c", "a\n", "foo: april\n", "Fay Foo",
        "fay@example.org", 1712300000)           # 2024-04-05
t, s = report("a new commit in the last month")
eq(report.digests, "computed", "a new commit: the records digests computed")
eq(t, (months, months - 1, 1), "a new commit in the last month: only it "
   "computed")
eq(timeline(s, "FOO DRIVER")["people"][0]["authored"][-1], 1,
   "Fay's April commit is in the last month")
# a new commit of an old date: from its month on
old = 1697000000                                  # 2023-10-11
gcommit("drivers/foo/october.c", "o\n", "foo: october\n", "Rob Review",
        "rob@example.org", old)
t, s = report("a new commit of an old date")
k = timeline(s, "FOO DRIVER")["months"].index(
    time.strftime("%Y-%m", time.gmtime(old)))
ok(0 < k < months - 1, "the old commit falls in an old month", k)
eq(t, (months, k, months - k), "a new commit of an old date: the months "
   "before it from the store, from its month on computed")

# damage: from the damaged month on
report("before the damage")
kept = damage(rdb, RKIND, 4)
t, _ = report("a damaged month")
eq(t, (months, 4, months - 4), "a damaged 5th month: the 4 before from the "
   "store, from it on computed")
ok(row(rdb, RKIND) == kept, "... and saved again as it was")
done()
