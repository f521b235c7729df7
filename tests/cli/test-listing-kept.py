#!/usr/bin/env python3
"""Who was listed in each entry when the window began (listed_late) is
kept in the store (src/metrics/activity-listing.c, rows of kind
"activity-listing"), keyed by the commit it was read at: a run after new
commits whose window starts after the same commit reads no old
MAINTAINERS blob or tree, and says what the --no-cache run says.  A
damaged row (the store's CRC, or the row's own contents) is read from git
again; a store that refuses the row gives a
warning and exit 0.  MS_LISTING_TRACE=1 makes maintstat say on stderr,
as it frees the model, at which commit the listing was read and how many
files (and trees of every file) came from the store and from git.

The history: the planted one, XBOARD (Bob) in board/old/x/MAINTAINERS
an hour before the window begins, then in its newest commit Larry Late
joins ALPHA DRIVER, board/old/x/ moves to board/new/x/ and ZBOARD (Carol)
comes in board/new/z/.  Larry and Carol are newly listed; Ivan and Bob
(his entry found in its old file, among every MAINTAINERS file then) are
judged."""
import calendar
import os
import re
import sqlite3
import subprocess
import sys
sys.path.insert(0, os.path.dirname(__file__))
from mstest import (run, ok, eq, done, planted_clone, model_row,  # noqa
                    model_put, refuse_model_writes)

TRACE = {"MS_LISTING_TRACE": "1"}
KIND = "activity-listing"
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


def trace(err):
    """(commit, from the store, from git, saved) of the trace, or None."""
    m = re.search(r"maintstat: listing: at (\S+): (\d+) from the store, "
                  r"(\d+) read from git(, saved)?\n", err)
    return (m.group(1), int(m.group(2)), int(m.group(3)),
            bool(m.group(4))) if m else None


def activity(*extra, store=True, cmd="activity"):
    cache = ["--db", db] if store else ["--no-cache"]
    entries = ENTRIES if cmd == "activity" else []
    return run(cmd, "--repo", work, "--json", "--find-maintainer-files",
               *cache, *extra, *entries, env=TRACE)


def verdicts(r):
    """{email: (inactive, listed_late)} of the people of the entries."""
    if r.rc != 0:
        return r.err
    return {p["email"]: (p["inactive"], p["listed_late"])
            for e in r.json()["entries"] for p in e["people"]}


def start_commit(r):
    """The commits dated last before the window's start (git's view),
    for the trace to name one of."""
    start = int(subprocess.run(["date", "-d", r.json()["active_since"],
                                "+%s"], check=True, capture_output=True,
                               text=True).stdout)
    dated = [line.split() for line in git("log", "--format=%H %ct")
             .splitlines()]
    best = max(int(t) for _, t in dated if int(t) < start)
    return {h for h, t in dated if int(t) == best}


def same(what, *extra, cmd="activity"):
    """The --db run's report equals --no-cache's; both traces."""
    want = activity(*extra, store=False, cmd=cmd)
    got = activity(*extra, cmd=cmd)
    ok(want.rc == 0 and got.rc == 0 and got.out == want.out,
       f"{what}: the report equals --no-cache's", got.err + want.err)
    t = trace(want.err)
    ok(t is not None and t[1] == 0 and t[2] > 0 and not t[3],
       f"{what}: --no-cache reads git, nothing from the store, keeps "
       "nothing", want.err)
    return trace(got.err), got


# ---- cold, then warm after a new commit ----

t, cold = same("cold")
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
rev = t[0] if t else None
ok(t is not None and t[0] in start_commit(cold) and t[1] == 0 and
   t[2] >= 3 and t[3], "cold: the commit before the window's start, its "
   "MAINTAINERS and board files and its tree read from git, and saved", t)
saved = model_row(db, KIND)
ok(saved is not None, "kept as " + KIND)
t, _ = same("warm, nothing new")
eq(t, (rev, t[1] if t else None, 0, False) if t else None,
   "warm, nothing new: nothing read from git, nothing saved again")
ok(t is not None and t[1] >= 3, "  every set from the store", t)
eq(model_row(db, KIND), saved, "  the row as it was")

# a new commit an hour after the newest: the window starts an hour later,
# after the same commit
git("commit", "-q", "--allow-empty", "-m", "new", date=NEWEST + 3600)
t, warm = same("warm after a new commit")
eq(verdicts(warm), verdicts(cold), "warm after a new commit: the same "
   "verdicts")
ok(t is not None and t[0] == rev and t[0] in start_commit(warm),
   "  the window starts after the same commit", (t, rev))
ok(t is not None and t[2] == 0 and t[1] >= 3 and not t[3],
   "  no old MAINTAINERS blob or tree read: every set from the store", t)

# the verdict follows the row, not git: a row (its check made right)
# that lists Larry in ALPHA DRIVER then makes him judged like Ivan


def checked(body):
    """A row of `body` (model_put() gives it the CRC the store checks)."""
    return body


def nrows():
    c = sqlite3.connect(db)
    n = c.execute("SELECT count(*) FROM models WHERE kind = ?",
                  (KIND,)).fetchone()[0]
    c.close()
    return n


def varint(n):
    out = b""
    while True:
        out += bytes([(n & 0x7f) | (0x80 if n >> 7 else 0)])
        n >>= 7
        if not n:
            return out


data = model_row(db, KIND)
alpha = b"Alice Active <alice@example.org>\nIvan Inactive <ivan@example.org>\n"
at = data.find(alpha)
ok(at > 0 and data[at - 1] < 128 and
   data[at:at + data[at - 1]].endswith(b"<rita@example.org>\n"),
   "the row holds ALPHA DRIVER's M: and R: values then, their length "
   "before them", data[at - 40:at + 120])
values = data[at:at + data[at - 1]]
larry = values.replace(alpha, alpha + b"Larry Late <larry@example.org>\n")
model_put(db, KIND, checked(data[:at - 1] + varint(len(larry)) + larry +
                            data[at + len(values):]))
r = activity()
v = verdicts(r)
eq(v.get("larry@example.org") if isinstance(v, dict) else v, (True, False),
   "a row listing Larry then: he is judged (the row is what is read)")
eq(trace(r.err)[2] if trace(r.err) else r.err, 0, "  nothing from git")


# ---- damage: read from git again, the same report, the row rewritten ----

def damaged(what, bad, crc=None):
    model_put(db, KIND, bad, crc=crc)
    t, r = same(what)
    ok(t is not None and t[2] > 0 and t[3], f"{what}: read from git again "
       "and saved", t)
    eq(verdicts(r), verdicts(cold), f"{what}: the verdicts of --no-cache")
    fixed = model_row(db, KIND)
    t, _ = same(f"{what}, next run")
    ok(t is not None and t[2] == 0, f"{what}: the next run reads the "
       "rewritten row", t)
    return fixed


model_put(db, KIND, data)
good = data
flip = bytearray(good)
flip[len(good) // 2] ^= 0x20
# damage as a disk does it: the bytes change, the store's CRC does not
damaged("a flipped bit", bytes(flip), crc=1)
damaged("a truncated row", good[:len(good) - 7], crc=1)
damaged("a wrong CRC", good, crc=1)
# damage under a right check: the contents are checked too
damaged("an empty row", b"")
damaged("bytes after the last set", checked(good + b"\0"))
damaged("values not ended by a newline", checked(
    good.replace(b"<rita@example.org>\n", b"<rita@example.org>,", 1)))
damaged("more sets than the row holds", checked(bytes([good[0] + 1]) +
                                                good[1:]))


# ---- a store that refuses the row ----

c = sqlite3.connect(db)
c.execute("DELETE FROM models WHERE kind = ?", (KIND,))
c.commit()
c.close()
refuse_model_writes(db, KIND)
t, r = same("a store refusing the row")
warn = [x for x in r.err.splitlines() if "was not kept in the store" in x]
eq(len(warn), 1, "  one warning that it was not kept")
ok(warn and warn[0].startswith("maintstat: warning: who was listed in each "
                               "entry when the window began was not kept "
                               "in the store: "), "  saying what", r.err)
ok(t is not None and t[2] > 0 and not t[3], "  read from git, not saved", t)
eq(model_row(db, KIND), None, "  no row")
c = sqlite3.connect(db)
c.execute("DROP TRIGGER refuse")
c.commit()
c.close()

# ---- other commands: a row per commit, shared ----

t, _ = same("activity, the store writable again")
ok(t is not None and t[3], "  the row saved", t)
t, _ = same("urgent", cmd="urgent")
ok(t is not None and t[2] == 0 and t[1] >= 3 and nrows() == 1,
   "urgent's window starts after the same commit: activity's row serves "
   "it (a row per commit, whichever command read it)", t)
t, _ = same("urgent, warm", cmd="urgent")
ok(t is not None and t[2] == 0, "urgent, warm: nothing from git", t)
t, _ = same("activity after urgent")
ok(t is not None and t[2] == 0, "activity reads the row still", t)

# review --repo loads the same model for its listed people's verdicts: its
# own row, and after a new commit (its kept result no longer applies)
# nothing read from git
LAB = ["--archive", os.path.join(tmp, "alpha.mbox")]
with open(LAB[1], "w") as f:
    f.write("From x@y Thu Jan  1 00:00:00 1970\n"
            "From: Pat Sender <pat@example.net>\nSubject: [PATCH] alpha: fix\n"
            "Date: Mon, 1 Apr 2024 10:00:00 +0000\n"
            "Message-ID: <alpha-1@example.net>\n\nA fix.\n---\n"
            "diff --git a/drivers/alpha/a.c b/drivers/alpha/a.c\n"
            "--- a/drivers/alpha/a.c\n+++ b/drivers/alpha/a.c\n"
            "@@ -1 +1 @@\n-x\n+y\n")
t, _ = same("review", *LAB, cmd="review")
ok(t is not None and t[2] == 0 and t[1] >= 3 and nrows() == 1,
   "review's cutoff is activity's (ms_verdict_window()): activity's row "
   "serves it", t)
t, _ = same("review --inactive-after 4y", *LAB, "--inactive-after", "4y",
            cmd="review")
ok(t is not None and t[2] > 0 and t[3] and nrows() == 2,
   "review's window starts elsewhere: a row of its own beside it", t)
git("commit", "-q", "--allow-empty", "-m", "newer", date=NEWEST + 7200)
t, _ = same("review after a new commit", *LAB, cmd="review")
ok(t is not None and t[2] == 0 and t[1] >= 3,
   "review after a new commit: nothing from git", t)
done()
