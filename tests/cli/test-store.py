#!/usr/bin/env python3
"""The incremental store: results identical with and without it, cold and
warm, and every bad case (damaged file, newer schema, locked database,
SIGKILL mid-write, changed extraction version) ends in the same results."""
import os
import re
import signal
import email.utils
import fcntl
import sqlite3
import struct
import subprocess
import sys
import termios
import time

sys.path.insert(0, os.path.dirname(__file__))
from mstest import *  # noqa: E402,F403

GEN = os.path.join(SOURCE_ROOT, "tests", "bench", "gen-history.py")
tmp = tmpdir()


# an identity of its own: the machine may have none configured
GIT_ENV = dict(os.environ, GIT_AUTHOR_NAME="Store Test",
               GIT_AUTHOR_EMAIL="store.test@example.org",
               GIT_COMMITTER_NAME="Store Test",
               GIT_COMMITTER_EMAIL="store.test@example.org")


def git(gitdir, *args, stdin=None):
    return subprocess.run(["git", "--git-dir", gitdir, *args], input=stdin,
                          capture_output=True, check=True,
                          env=GIT_ENV).stdout


def gen(path, commits, append=False, seed=7):
    subprocess.run([sys.executable, GEN, "--seed", str(seed), "--commits",
                    str(commits), *(["--append"] if append else []), path],
                   check=True)


def skewed(path):
    """A small history whose dates disagree with its shape: equal commit
    dates, a child older than its parent, merges of branches forked long
    before, so that only the revwalk's exact tie rules give its order."""
    subprocess.run(["git", "init", "-q", "--bare", path], check=True)
    out = []
    mark = 0
    times = [1000, 1000, 900, 1000, 1200, 1100, 1100, 1100, 800, 1300,
             1300, 1250, 1300, 1300, 700, 1400]
    tips = {}
    for n, t in enumerate(times):
        branch = "refs/heads/" + ("master" if n % 3 else f"side{n % 2}")
        mark += 1
        msg = (f"change {n}\n\nReviewed-by: R{n} <r{n}@example.org>\n"
               f"Signed-off-by: A{n} <a{n}@example.org>\n").encode()
        out.append(f"commit {branch}\nmark :{mark}\n"
                   f"author A{n} <a{n}@example.org> {t} +0000\n"
                   f"committer C <c@example.org> {t} +0000\n"
                   f"data {len(msg)}\n".encode() + msg)
        if branch in tips:
            out.append(f"from :{tips[branch]}\n".encode())
        elif "master" in tips:
            out.append(f"from :{tips['master']}\n".encode())
        if branch.endswith("master"):
            for side in ("refs/heads/side0", "refs/heads/side1"):
                if side in tips and n % 4 == 1:
                    out.append(f"merge :{tips[side]}\n".encode())
        out.append(f"M 100644 inline dir{n % 4}/f{n}.c\n".encode() +
                   f"data 2\n{n % 10}\n".encode())
        out.append(b"\n")
        tips[branch] = mark
    subprocess.run(["git", "--git-dir", path, "fast-import", "--quiet"],
                   input=b"".join(out), check=True)
    subprocess.run(["git", "--git-dir", path, "symbolic-ref", "HEAD",
                    "refs/heads/master"], check=True)


def log(repo, *extra, db=None, env=None):
    args = ["store", "log", "--repo", repo, *extra]
    if db:
        return run(*args, "--db", db, env=env)
    return run_reused(*args, "--no-cache", env=env)


def same_as_uncached(repo, db, what, *extra):
    want = log(repo, *extra)
    got = log(repo, *extra, db=db)
    ok(want.rc == 0 and got.rc == 0 and got.out == want.out, what,
       f"rc {got.rc}/{want.rc}\n{got.err}\n" +
       first_diff(want.out, got.out))
    return got


def first_diff(a, b):
    al, bl = a.splitlines(), b.splitlines()
    for i, (x, y) in enumerate(zip(al, bl)):
        if x != y:
            return f"line {i + 1}:\n  without store: {x}\n  with store:    {y}"
    return f"lengths {len(al)} and {len(bl)}"


def db_query(db, sql):
    c = sqlite3.connect(db)
    try:
        return c.execute(sql).fetchall()
    finally:
        c.close()


# -- identical results: generated history, cold, warm, then grown ----------
repo = os.path.join(tmp, "gen.git")
gen(repo, 400)
db = os.path.join(tmp, "gen.sqlite")
cold = same_as_uncached(repo, db, "cold store: same log as without it")
ok("walked 404 delivered 400 merges-skipped 4" in cold.out,
   "the planted history: 400 commits and 4 merges",
   cold.out.splitlines()[-1:])
same_as_uncached(repo, db, "warm store: same log")
same_as_uncached(repo, db, "warm store: same log with --merges", "--merges")
same_as_uncached(repo, db, "warm store: same with --no-paths", "--no-paths")
same_as_uncached(repo, db, "warm store: same from an older --rev",
                 "--rev", "master~37")
same_as_uncached(repo, db, "warm store: same JSON", "--json")
same_as_uncached(repo, db, "one worker thread: same log", "--threads", "1")
gen(repo, 40, append=True)
grown = same_as_uncached(repo, db, "after new commits: same log")
eq(db_query(db, "SELECT count(*) FROM commits")[0][0], 444,
   "the store holds each commit once (440 and 4 merges)")
head = git(repo, "rev-parse", "HEAD").decode().strip()
eq(db_query(db, "SELECT commit_id FROM refs WHERE rev = 'HEAD'"),
   [(head,)], "the last commit walked from HEAD is remembered")

# a planted fact read straight from the store's views
fact = db_query(db, "SELECT count(*) FROM commit_trailers WHERE "
                "token = 'Signed-off-by'")[0][0]
want = sum(1 for line in grown.out.splitlines()
           if line.startswith("trailer Signed-off-by:"))
eq(fact, want + db_query(db, "SELECT count(*) FROM commit_trailers t "
                         "JOIN commits c ON c.id = t.commit_id WHERE "
                         "t.token = 'Signed-off-by' AND "
                         "instr(c.parents, ' ') > 0")[0][0],
   "commit_trailers view: as many Signed-off-by as the log shows")
eq(db_query(db, "SELECT count(*) FROM commit_paths")[0][0] -
   db_query(db, "SELECT count(*) FROM commit_paths p JOIN commits c ON "
            "c.id = p.commit_id WHERE instr(c.parents, ' ') > 0")[0][0],
   sum(1 for line in grown.out.splitlines() if line.startswith("path ")),
   "commit_paths view: the touched paths of the log")

# -- rewritten history reuses records by commit id --------------------------
rewritten = os.path.join(tmp, "rewritten.git")
subprocess.run(["git", "clone", "-q", "--bare", repo, rewritten], check=True)
git(rewritten, "update-ref", "refs/heads/master", "master~10")
before = db_query(db, "SELECT count(*) FROM commits")[0][0]
same_as_uncached(rewritten, db, "a rewound copy: same log from one store")
eq(db_query(db, "SELECT count(*) FROM commits")[0][0], before,
   "a rewound copy adds no records")

# -- dates that disagree with the shape ------------------------------------
sk = os.path.join(tmp, "skewed.git")
skewed(sk)
skdb = os.path.join(tmp, "skewed.sqlite")
same_as_uncached(sk, skdb, "skewed dates, cold: same order", "--merges")
same_as_uncached(sk, skdb, "skewed dates, warm: same order", "--merges")
for rev in ("side0", "side1", "master~2", "side0~1"):
    same_as_uncached(sk, skdb, f"skewed dates, warm from {rev}: same order",
                     "--merges", "--rev", rev)

# -- extraction version: stale and damaged records are extracted again -----
c = sqlite3.connect(db)
c.execute("UPDATE commits SET version = 0, paths = '[\"bogus\"]' "
          "WHERE seq % 5 = 0")
c.commit()
c.close()
same_as_uncached(repo, db, "records of another extraction version are "
                 "rebuilt: same log")
with open(os.path.join(SOURCE_ROOT, "src", "store", "store.h")) as f:
    version = int(re.search(r"#define MS_STORE_COMMIT_VERSION (\d+)",
                            f.read()).group(1))
eq(db_query(db, f"SELECT count(*) FROM commits WHERE version != {version} "
            "OR paths LIKE '%bogus%'")[0][0], 0, "no stale record is left")

# -- a damaged parents column: checked, never a silently shorter history ----
for what, sql in (("cleared", "parents = ''"),
                  ("truncated", "parents = substr(parents, 1, 20)"),
                  ("altered", "parents = replace(parents, ' ', 'x')")):
    c = sqlite3.connect(db)
    c.execute(f"UPDATE commits SET {sql} WHERE seq % 7 = 3 AND "
              "parents != ''")
    c.commit()
    c.close()
    same_as_uncached(repo, db, f"a {what} parents column: the same log, "
                     "not a history cut short")

# -- a file maintstat did not create is never touched -----------------------
APP_ID = 0x4d537431          # PRAGMA application_id of every store
for name, content in (("garbage.sqlite",
                       b"this is not an SQLite database\n" * 200),
                      ("report.json", b'{"schema_version": 1}\n'),
                      ("MAINTAINERS", b"THE REST\nM:\tA <a@b>\nF:\t*\n")):
    bad = os.path.join(tmp, name)
    with open(bad, "wb") as f:
        f.write(content)
    r = log(repo, db=bad)
    eq(r.rc, 1, f"--db {name} (not a store): exit 1")
    ok("is not a maintstat store" in r.err and "refusing" in r.err,
       "... saying it is not a store", r.err)
    with open(bad, "rb") as f:
        eq(f.read(), content, "... and the file is untouched")
    eq(sorted(x for x in os.listdir(tmp) if x.startswith(name)), [name],
       "... and nothing is created beside it")
r = run("activity", "--repo", repo, "--db", bad)
eq((r.rc, open(bad, "rb").read()), (1, content),
   "activity --db MAINTAINERS: exit 1, the file untouched")
for what, sql in (("another program's SQLite database",
                  ["CREATE TABLE users (x)", "PRAGMA user_version = 3"]),
                 ("a database with another application id, even with our "
                  "table names", ["CREATE TABLE commits (x)",
                                  "CREATE TABLE refs (x)",
                                  "PRAGMA user_version = 1",
                                  "PRAGMA application_id = 1179011410"])):
    other = os.path.join(tmp, "other-app.sqlite")
    if os.path.exists(other):
        os.unlink(other)
    c = sqlite3.connect(other)
    for q in sql:
        c.execute(q)
    c.commit()
    c.close()
    before = open(other, "rb").read()
    r = log(repo, db=other)
    eq((r.rc, open(other, "rb").read() == before), (1, True),
       f"{what}: refused, untouched")
fifo = os.path.join(tmp, "fifo.sqlite")
os.mkfifo(fifo)
r = log(repo, db=fifo)
ok(r.rc == 1 and "not a regular file" in r.err,
   "--db FIFO: refused at once, not a hang", r.err)
eq(db_query(db, "PRAGMA application_id")[0][0], APP_ID,
   "a store carries maintstat's application id")

legacy = os.path.join(tmp, "legacy.sqlite")
log(repo, db=legacy)
c = sqlite3.connect(legacy)
c.execute("PRAGMA application_id = 0")       # as written before the id
c.commit()
c.close()
same_as_uncached(repo, legacy, "a store from before the application id is "
                 "still used")
eq(db_query(legacy, "PRAGMA application_id")[0][0], APP_ID,
   "... and stamped with the id")

# -- a damaged store: moved aside, never deleted -----------------------------
trunc = os.path.join(tmp, "trunc.sqlite")
log(repo, db=trunc)
run("store", "info", "--db", trunc)          # checkpoints the WAL
size = os.path.getsize(trunc)
with open(trunc, "r+b") as f:
    f.truncate(size // 2)
with open(trunc, "rb") as f:
    damaged = f.read()
r = same_as_uncached(repo, trunc, "a truncated store: same log")
ok("damaged" in r.err and "moved it aside" in r.err,
   "... with a warning that it was damaged and moved aside", r.err)
aside = [x for x in os.listdir(tmp) if x.startswith("trunc.sqlite.corrupt-")
         and not x.endswith("-wal")]
ok(len(aside) == 1, "... the damaged file kept as FILE.corrupt-<time>",
   aside)
if aside:
    with open(os.path.join(tmp, aside[0]), "rb") as f:
        eq(f.read(), damaged, "... byte for byte")
same_as_uncached(repo, trunc, "... and next time it is used as usual")

# -- read-only commands and failed runs leave no store -----------------------
missing = os.path.join(tmp, "missing.sqlite")
r = run("store", "info", "--db", missing)
ok(r.rc == 1 and "no store at" in r.err and not os.path.exists(missing),
   "store info on a missing store: exit 1, nothing created", r.err)
cache = os.path.join(tmp, "failcache")
r = run("activity", "--repo", repo, "--archive",
        os.path.join(tmp, "no-such.mbox"), env={"XDG_CACHE_HOME": cache})
eq(r.rc, 1, "activity with a missing archive fails")
left = [f for _, _, fs in os.walk(cache) for f in fs] \
    if os.path.isdir(cache) else []
eq(left, [], "... and leaves no empty store in the cache")

# -- a newer schema ---------------------------------------------------------
newer = os.path.join(tmp, "newer.sqlite")
c = sqlite3.connect(newer)
c.execute(f"PRAGMA application_id = {APP_ID}")
c.execute("PRAGMA user_version = 99")
c.execute("CREATE TABLE future (x)")
c.commit()
c.close()
r = same_as_uncached(repo, newer, "a store from a newer maintstat: same log")
ok("newer than this maintstat" in r.err and "schema version 99" in r.err,
   "... with a warning naming the versions", r.err)
eq(db_query(newer, "PRAGMA user_version")[0][0], 99,
   "... and the newer store is left untouched")

# -- a locked database ------------------------------------------------------
locked = os.path.join(tmp, "locked.sqlite")
c = sqlite3.connect(locked)                  # an empty store, to fill
c.execute(f"PRAGMA application_id = {APP_ID}")
c.commit()
c.close()
holder = sqlite3.connect(locked, isolation_level=None)
holder.execute("BEGIN IMMEDIATE")
t0 = time.time()
r = log(repo, "--db-wait", "1", db=locked)
waited = time.time() - t0
holder.execute("ROLLBACK")
holder.close()
eq(r.rc, 1, "a store locked by another run: exit 1 after the wait")
ok("is busy: another maintstat run is using it" in r.err,
   "... with a clear message", r.err)
ok(waited >= 0.9, "... having waited for it", waited)
same_as_uncached(repo, locked, "once free, the same store works")

# -- concurrent runs --------------------------------------------------------
conc = os.path.join(tmp, "concurrent.sqlite")
env = dict(os.environ)
outs = [(open(os.path.join(tmp, f"conc{i}.out"), "w+"),
         open(os.path.join(tmp, f"conc{i}.err"), "w+")) for i in range(2)]
# the first one's reader is stalled, as a pager would be: its writes to
# the store must not block the other
rpipe, wpipe = os.pipe()
procs = [subprocess.Popen([MAINTSTAT, "store", "log", "--repo", repo, "--db",
                           conc, "--db-wait", "20"], stdout=wpipe,
                          stderr=outs[0][1], env=env),
         subprocess.Popen([MAINTSTAT, "store", "log", "--repo", repo, "--db",
                           conc, "--db-wait", "20"], stdout=outs[1][0],
                          stderr=outs[1][1], env=env)]
os.close(wpipe)
procs[1].wait()
with os.fdopen(rpipe, "rb") as f:
    first = f.read().decode()
procs[0].wait()
want = log(repo).out
got = [first]
for o, e in outs[1:]:
    o.seek(0)
    got.append(o.read())
errs = []
for o, e in outs:
    e.seek(0)
    errs.append(e.read())
ok(all(p.returncode == 0 for p in procs) and all(g == want for g in got),
   "two runs filling one store at once, one of them stalled: both right",
   errs)
eq(db_query(conc, "PRAGMA integrity_check"), [("ok",)],
   "... and the database is sound")

# A new file starts in rollback mode; runs that switch it to WAL at once
# got SQLITE_BUSY without any wait (the race behind the check above).
# (`store info` no longer creates a store: a two-commit history does)
tiny = os.path.join(tmp, "tiny.git")
gen(tiny, 2, seed=5)
busy = []
# the race is the normal build's to find (all 15 rounds); under ASan, where
# each of these runs costs 0.32 s of CPU (0.06 s normally), one round in 3
rounds = sanitized_sample(range(15), 3, "rounds of 6 runs creating a store")
for i in rounds:
    fresh = os.path.join(tmp, f"fresh{i}.sqlite")
    ps = [subprocess.Popen([MAINTSTAT, "store", "log", "--repo", tiny,
                            "--db", fresh, "--db-wait", "20"],
                           stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE) for _ in range(6)]
    for p in ps:
        err = p.communicate()[1].decode()
        if p.returncode != 0:
            busy.append(err)
eq(busy, [], "runs creating one new store at once all wait their turn "
   f"({len(rounds)} times 6 runs)")
eq(db_query(os.path.join(tmp, "fresh0.sqlite"), "PRAGMA journal_mode"),
   [("wal",)], "... and the store is in WAL mode")

# A reader stalled while records are delivered from a warm store holds no
# lock: a run adding new history meanwhile is not kept waiting.
stall = os.path.join(tmp, "stall.git")
subprocess.run(["git", "clone", "-q", "--bare", repo, stall], check=True)
sdb = os.path.join(tmp, "stall.sqlite")
log(stall, db=sdb)
rpipe, wpipe = os.pipe()
stalled = subprocess.Popen([MAINTSTAT, "store", "log", "--repo", stall,
                            "--db", sdb], stdout=wpipe,
                           stderr=subprocess.DEVNULL)
os.close(wpipe)


def blocked_writing(pid, rfd):
    """Whether `pid` is blocked writing to its standard output, the full
    pipe whose read end is `rfd`: a known point, not a sleep raced against
    the machine's speed.  Some thread of it is in write(1, ...) (Linux's
    /proc/PID/task/*/syscall) and less than one page of the pipe is
    free."""
    size = fcntl.fcntl(rfd, 1032)                   # F_GETPIPE_SZ
    unread = struct.unpack("i", fcntl.ioctl(rfd, termios.FIONREAD,
                                            b"\0" * 4))[0]
    if unread < size - 4096:
        return False
    for t in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{t}/syscall") as f:
                if f.read().split()[:2] == ["1", "0x1"]:
                    return True
        except OSError:
            pass
    return False


for _ in range(6000):
    if stalled.poll() is not None or blocked_writing(stalled.pid, rpipe):
        break
    time.sleep(0.01)
ok(stalled.poll() is None and blocked_writing(stalled.pid, rpipe),
   "a reader of a warm store blocked mid-delivery on its full pipe")
gen(stall, 30, append=True, seed=9)
t0 = time.time()
r = log(stall, "--db-wait", "5", db=sdb)
waited = time.time() - t0
with os.fdopen(rpipe, "rb") as f:
    f.read()
stalled.wait()
ok(r.rc == 0 and r.out == log(stall).out and waited < 4,
   "a reader stalled mid-delivery does not block a run adding new commits",
   f"rc {r.rc} after {waited:.1f} s\n{r.err}")
ok(stalled.returncode == 0, "... and the stalled run completes afterwards")

# -- SIGKILL mid-walk ---------------------------------------------------------
# Each run stops itself (MS_TEST_STOP_AT_COMMIT=N: SIGSTOP just before the
# store's N-th commit, its records written and not committed) and is
# killed there: a known point, not a sleep raced against the machine's
# speed (a cold walk of these 3,000 commits commits 5 times).
big = os.path.join(tmp, "big.git")
gen(big, 3000, seed=11)
want = log(big).out
kdb = os.path.join(tmp, "killed.sqlite")


def stopped_and_killed(args, stop):
    """Run maintstat `args` to its stop point and kill it there; whether it
    got there (False: it ended first)."""
    p = subprocess.Popen([MAINTSTAT, *args], stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL,
                         env=dict(os.environ,
                                  MS_TEST_STOP_AT_COMMIT=str(stop)))
    _, status = os.waitpid(p.pid, os.WUNTRACED)
    if os.WIFSTOPPED(status):
        p.send_signal(signal.SIGKILL)
    p.wait()
    return os.WIFSTOPPED(status)


killed = 0
for i, stop in enumerate((1, 3, 1, 2, 1, 1)):
    killed += stopped_and_killed(["store", "log", "--repo", big, "--db",
                                  kdb], stop)
    if i == 2:
        # later kills hit a store that must also grow incrementally
        gen(big, 200, append=True, seed=11)
        want = log(big).out
    integrity = db_query(kdb, "PRAGMA integrity_check")
    if integrity != [("ok",)]:
        break
eq(integrity, [("ok",)], "after SIGKILLs the database is sound")
eq(killed, 6, "every run was killed mid-walk, where it stopped")
r = log(big, db=kdb)
ok(r.rc == 0 and r.out == want, "after SIGKILLs: the same log as a clean "
   "run", r.err + first_diff(want, r.out))

# -- the default place ------------------------------------------------------
cache = os.path.join(tmp, "xdg")
run("store", "log", "--repo", repo, env={"XDG_CACHE_HOME": cache})
r = run("store", "info", "--repo", repo,
        env={"XDG_CACHE_HOME": cache})
files = os.listdir(os.path.join(cache, "maintstat")) \
    if os.path.isdir(os.path.join(cache, "maintstat")) else []
ok(r.rc == 0 and any(f.startswith("gen-") and f.endswith(".sqlite")
                     for f in files),
   "default store: $XDG_CACHE_HOME/maintstat/<name>-<hash>.sqlite", files)
r2 = run("store", "info", "--repo", repo + "/",
         env={"XDG_CACHE_HOME": cache})
eq(r2.out.splitlines()[0], r.out.splitlines()[0],
   "the same repository spelt differently: the same store")

# -- the commands that read history: activity and urgent -------------------
planted = os.path.join(tmp, "planted.git")
subprocess.run([sys.executable, os.path.join(FIXTURES, "gen", "gen-repo.py"),
                planted], check=True)
pdb = os.path.join(tmp, "planted.sqlite")


def report_same(what, *args):
    want = run_reused(*args, "--no-cache")
    for state in ("cold" if not os.path.exists(pdb) else "warm", "warm"):
        got = run(*args, "--db", pdb)
        ok(want.rc == 0 and got.rc == 0 and got.out == want.out,
           f"{what}, {state} store: the same report as without it",
           got.err + want.err + first_diff(want.out, got.out))


report_same("activity", "activity", "--repo", planted)
report_same("activity --json", "activity", "--repo", planted, "--json")
report_same("activity --merges", "activity", "--repo", planted, "--merges")
report_same("urgent", "urgent", "--repo", planted, "--json")
# new history: a maintainer's commit on top, and a review of it
tip = git(planted, "rev-parse", "HEAD").decode().strip()
msg = b"alpha: a new change\n\nReviewed-by: Rex External <rex@example.com>\n"
stream = (b"commit refs/heads/master\n"
          b"author Zed New <zed@example.org> 1717300000 +0000\n"
          b"committer Zed New <zed@example.org> 1717300000 +0000\n" +
          f"data {len(msg)}\n".encode() + msg +
          f"from {tip}\n".encode() +
          b"M 100644 inline drivers/alpha/new.c\ndata 2\nx\n\n")
git(planted, "fast-import", "--quiet", stdin=stream)
git(planted, "symbolic-ref", "HEAD", "refs/heads/master")
report_same("activity after a new commit", "activity", "--repo", planted,
            "--json")
report_same("urgent after a new commit", "urgent", "--repo", planted)

# activity saves its whole model: a warm run over the same commit with the
# same options reads it instead of walking
eq(db_query(pdb, "SELECT count(*) FROM models WHERE kind = 'activity'"),
   [(1,)], "activity saved its model in the store")
c = sqlite3.connect(pdb)
c.execute("DELETE FROM commits")
c.commit()
c.close()
report_same("activity from the saved model", "activity", "--repo", planted,
            "--json")
eq(db_query(pdb, "SELECT count(*) FROM commits"), [(0,)],
   "... which walked no history (the records stay deleted)")
full = db_query(pdb, "SELECT length(data) FROM models")[0][0]
c = sqlite3.connect(pdb)
c.execute("UPDATE models SET data = substr(data, 1, 100)")
c.commit()
c.close()
report_same("activity with a cut-short saved model", "activity", "--repo",
            planted, "--json")
eq(db_query(pdb, "SELECT length(data) FROM models")[0][0], full,
   "... which was saved again whole")
aliases = os.path.join(tmp, "store-aliases")
with open(aliases, "w") as f:
    f.write("zed@example.org rex@example.com\n")
ok(run("activity", "--repo", planted, "--json", "--aliases", aliases,
       "--no-cache").out != run("activity", "--repo", planted, "--json",
                                "--no-cache").out,
   "the aliases change the report (Zed's own review no longer counts)")
report_same("activity with aliases: not the model saved without",
            "activity", "--repo", planted, "--json", "--aliases", aliases)
report_same("activity --no-plus-fold: not the model saved with it",
            "activity", "--repo", planted, "--json", "--no-plus-fold")

# the path -> entries answers outlive the model: a run after new commits
# matches only new paths.  Plant a wrong answer (every path in no entry)
# and a new commit: the report shows it was read, so it is used.
def add_commit(repo, path, content, msg, maint=None):
    tip = git(repo, "rev-parse", "HEAD").decode().strip()
    body = msg.encode()
    st = (b"commit refs/heads/master\n"
          b"author Zed New <zed@example.org> 1717400000 +0000\n"
          b"committer Zed New <zed@example.org> 1717400000 +0000\n" +
          f"data {len(body)}\n".encode() + body +
          f"from {tip}\n".encode() +
          f"M 100644 inline {path}\ndata {len(content)}\n".encode() +
          content + b"\n")
    if maint is not None:
        st += (f"M 100644 inline MAINTAINERS\ndata {len(maint)}\n".encode()
               + maint + b"\n")
    git(repo, "fast-import", "--quiet", stdin=st)


def paths_blob(db):
    rows = db_query(db, "SELECT key, data FROM models "
                    "WHERE kind = 'activity-paths'")
    return rows[0] if rows else (None, b"")


pkey, pdata = paths_blob(pdb)
ok(pkey is not None and b"drivers/alpha/new.c" in pdata,
   "activity keeps its path -> entries answers in the store")


def get_var(data, at):
    n, shift = 0, 0
    while True:
        n |= (data[at] & 0x7f) << shift
        at, shift = at + 1, shift + 7
        if not data[at - 1] & 0x80:
            return n, at


# records (format 2:): a count, that many entries, as many depths
# (signed varints), the path (varints, bytes.h); the row is replaced with
# its CRC recomputed (mstest.model_put)
emptied, at = bytearray(), 0
while at < len(pdata):
    n, at = get_var(pdata, at)
    for _ in range(2 * n):
        _, at = get_var(pdata, at)
    start = at
    n, at = get_var(pdata, at)
    emptied += b"\0" + pdata[start:at + n]
    at += n
model_put(pdb, "activity-paths", bytes(emptied))
add_commit(planted, "drivers/alpha/newer.c", b"y", "alpha: newer\n")
got = run("activity", "--repo", planted, "--json", "--db", pdb)
want = run("activity", "--repo", planted, "--json", "--no-cache")
ok(got.rc == 0 and got.out != want.out,
   "a run after a new commit takes the saved answers (planted: none)",
   got.err)
model_put(pdb, "activity-paths", pdata[:len(pdata) // 2])
c = sqlite3.connect(pdb)
c.execute("DELETE FROM models WHERE kind = 'activity'")
c.commit()
c.close()
report_same("activity with cut-short path answers", "activity", "--repo",
            planted, "--json")
# a MAINTAINERS change makes other answers: not the saved ones
maint = git(planted, "show", "HEAD:MAINTAINERS")
add_commit(planted, "drivers/alpha/newest.c", b"z", "maintainers: move\n",
           maint=maint.replace(b"drivers/alpha/", b"drivers/alpha/*.h"))
report_same("activity after a MAINTAINERS change", "activity", "--repo",
            planted, "--json")
ok(paths_blob(pdb)[0] not in (None, pkey),
   "... under another key (the MAINTAINERS changed)")
joins = db_query(pdb, "SELECT count(*) FROM models "
                 "WHERE kind = 'activity-maint-joins'")
eq(joins, [(1,)], "the changes of address found are kept too")

# the saved model restores who is who: joins by MAINTAINERS changes of
# address, by equal names, the first commit each address was seen in
irepo = os.path.join(tmp, "ident.git")
subprocess.run([sys.executable, os.path.join(FIXTURES, "gen",
                                             "gen-ident.py"), irepo],
               check=True)
idb = os.path.join(tmp, "ident.sqlite")
ident_runs = [("activity", "--repo", irepo, "--json"),
              ("identities", "--repo", irepo, "--json"),
              ("identities", "--repo", irepo, "--no-name-join")]
ident_want = [run(*args, "--no-cache") for args in ident_runs]
ok(all(w.rc == 0 for w in ident_want) and
   "maintainers-history" in ident_want[1].out and
   '"name"' in ident_want[1].out,
   "the planted identities join by MAINTAINERS history and by name",
   "".join(w.err for w in ident_want))
for state in ("cold", "warm"):
    if state == "warm":
        c = sqlite3.connect(idb)
        c.execute("DELETE FROM commits")
        c.commit()
        c.close()
    for args, want in zip(ident_runs, ident_want):
        got = run(*args, "--db", idb)
        ok(got.rc == 0 and got.out == want.out,
           f"{' '.join(args[:1] + args[3:])}, {state} store: the same "
           "report as without it", got.err + first_diff(want.out, got.out))
eq(db_query(idb, "SELECT count(*) FROM commits"), [(0,)],
   "... the warm runs read the saved model, walking no history")

# link and review walk history through the store too
rgen = os.path.join(tmp, "review-gen")
subprocess.run([sys.executable, os.path.join(FIXTURES, "gen",
                                             "gen-review.py"), rgen],
               check=True)
rrepo, rmbox = os.path.join(rgen, "repo"), os.path.join(rgen, "list.mbox")
rdb = os.path.join(tmp, "review.sqlite")
for cmd in ("link", "review"):
    want = run(cmd, "--repo", rrepo, "--archive", rmbox, "--json",
               "--no-cache")
    for state in ("cold", "warm"):
        got = run(cmd, "--repo", rrepo, "--archive", rmbox, "--json",
                  "--db", rdb)
        ok(want.rc == 0 and got.rc == 0 and got.out == want.out,
           f"{cmd}, {state} store: the same report as without it",
           got.err + want.err + first_diff(want.out, got.out))
# review --tree (no repository) reads the list through the store too
tdb = os.path.join(tmp, "review-tree.sqlite")
want = run("review", "--tree", rrepo, "--archive", rmbox, "--json",
           "--no-cache")
for state in ("cold", "warm"):
    got = run("review", "--tree", rrepo, "--archive", rmbox, "--json",
              "--db", tdb)
    ok(want.rc == 0 and got.rc == 0 and got.out == want.out,
       f"review --tree, {state} store: the same report as without it",
       got.err + want.err + first_diff(want.out, got.out))
ok(os.path.exists(tdb) and
   db_query(tdb, "SELECT count(*) FROM messages")[0][0] > 0,
   "... and --tree's store holds the list's messages")
# link stored the messages without their bodies; review matches K:
# patterns against bodies, so it read the list again, keeping them
eq(db_query(rdb, "SELECT bodies FROM inboxes"), [(1,)],
   "review keeps the bodies of the list's messages in the store")
eq(db_query(rdb, "SELECT count(*) FROM messages m JOIN message_bodies b "
            "ON b.seq = m.seq WHERE b.body IS NOT NULL")[0][0],
   db_query(rdb, "SELECT count(*) FROM messages")[0][0],
   "... one for every message")
c = sqlite3.connect(rdb)
c.execute("UPDATE message_bodies SET body = body || char(10) || "
          "'+int bar_magic;' || char(10)")
# the map's answers kept with the mail snapshot would answer instead
c.execute("DELETE FROM models WHERE kind = 'mail-snapshot'")
c.commit()
c.close()
result_drop(rdb)    # the finished result (cli-result.h) would answer first
planted = run("review", "--repo", rrepo, "--archive", rmbox, "--json",
              "--db", rdb)
ok(planted.rc == 0 and planted.out != run(
    "review", "--repo", rrepo, "--archive", rmbox, "--json",
    "--no-cache").out, "a warm review reads the bodies from the store "
   "(a planted K: match shows)", planted.err)
os.utime(rmbox, (1000000000, 1000000000))   # a changed file: read again
for cmd in ("review", "link"):
    want = run(cmd, "--repo", rrepo, "--archive", rmbox, "--json",
               "--no-cache")
    got = run(cmd, "--repo", rrepo, "--archive", rmbox, "--json", "--db",
              rdb)
    ok(want.rc == 0 and got.rc == 0 and got.out == want.out,
       f"{cmd} after the list changed: the same report",
       got.err + want.err + first_diff(want.out, got.out))

# activity, urgent and retire --archive read the list through the store
adb = os.path.join(tmp, "activity-list.sqlite")
for args in (("activity", "--inactive-after", "2024-03-11"),
             ("urgent", "--months", "0", "--min-commits", "1")):
    want = run(*args, "--repo", rrepo, "--archive", rmbox, "--json",
               "--no-cache")
    for state in ("cold", "warm"):
        got = run(*args, "--repo", rrepo, "--archive", rmbox, "--json",
                  "--db", adb)
        ok(want.rc == 0 and got.rc == 0 and got.out == want.out and
           "\"list\"" in got.out,
           f"{args[0]} --archive, {state} store: the same report",
           got.err + want.err + first_diff(want.out, got.out))
eq(db_query(adb, "SELECT count(*) FROM messages")[0][0],
   db_query(rdb, "SELECT count(*) FROM messages")[0][0],
   "... and the store holds the list's messages")

# link reads a public-inbox archive through the repository's store too:
# a generated history and the list that posted it, then 1% more of both
GEN_INBOX = os.path.join(SOURCE_ROOT, "tests", "bench", "gen-inbox.py")
lrepo, linbox = os.path.join(tmp, "lgen.git"), os.path.join(tmp, "lgen-inbox")
gen(lrepo, 300, seed=3)
subprocess.run([sys.executable, GEN_INBOX, lrepo, linbox], check=True)
ldb = os.path.join(tmp, "lgen.sqlite")


def link_same(what, db=None):
    """link through the store = --no-cache.  These checks are of what the
    store keeps per message, link and snapshot, so a finished result
    saved by an earlier run (cli-result.h, tested in test-link-warm.py)
    is dropped first."""
    args = ["link", "--repo", lrepo, "--archive", linbox, "--json"]
    result_drop(db or ldb)
    want = run_reused(*args, "--no-cache")
    got = run(*args, "--db", db or ldb)
    ok(want.rc == 0 and got.rc == 0 and got.out == want.out and
       got.err == want.err, what,
       got.err + want.err + first_diff(want.out, got.out))
    return got


r = link_same("link on a public-inbox archive, cold store: same report")
ok(r.json()["counts"]["unlinked"] == 0 and
   r.json()["counts"]["commits"] == 300,
   "... every generated commit linked to its posting", r.out[-400:])
eq(db_query(ldb, "SELECT count(*) FROM messages")[0][0], 600,
   "... and the store holds the 600 messages of the list")
eq(db_query(ldb, "SELECT count(*), count(DISTINCT state) FROM links "
            "WHERE flags = 0 AND version > 0 AND message_id IS NOT NULL"),
   [(300, 1)], "the links table holds the 300 links, of one message set")


# link's mail snapshot: a value of the store's cache (kind
# "mail-snapshot", keyed "INBOX:KIND"): its mark (the last record's seq,
# the records' count and bytes, the newest epoch; 64-bit little-endian
# each), then the index (src/store/store-snapshots.c)
SNAP_MARK = "<qqQq"


def snap_row(db=None):
    """(key, [seq, count, bytes, epoch], index) of the snapshot, or None."""
    r = db_query(db or ldb, "SELECT key, data FROM models WHERE kind = "
                 "'mail-snapshot' ORDER BY used DESC, rowid DESC")
    if not r:
        return None
    return (r[0][0], list(struct.unpack_from(SNAP_MARK, r[0][1])),
            r[0][1][32:])


def snap_put(key, mark, index, db=None):
    """The snapshot replaced, the CRC the store checks made right
    (mstest.model_put): what is tested is the reader's own checks."""
    model_put(db or ldb, "mail-snapshot", struct.pack(SNAP_MARK, *mark) +
              index, key)


def snap():
    """[(count, epoch, index over 1000 bytes)] of the snapshot."""
    r = snap_row()
    return [(r[1][1], r[1][3], int(len(r[2]) > 1000))] if r else []


eq(snap(), [(600, 0, 1)],
   "the mail index of the 600 messages is saved as a snapshot")
eq(db_query(ldb, "SELECT count(*) FROM commit_patchids WHERE version = "
            "1 AND length(patch_id) = 40")[0][0], 300,
   "the store holds the patch-id of each of the 300 commits")
link_same("link, warm store: same report")
# the archive named through a symbolic link, or relative to another
# directory: one inbox in the store, its messages and snapshot shared
alias = os.path.join(tmp, "lgen-alias")
os.symlink(linbox, alias)
for name, archive, cwd in (("a symbolic link", alias, None),
                           ("a relative path", os.path.basename(linbox),
                            tmp)):
    want = run_reused("link", "--repo", lrepo, "--archive", linbox,
                      "--json", "--no-cache")
    got = run("link", "--repo", lrepo, "--archive", archive, "--json",
              "--db", ldb, cwd=cwd)
    ok(got.rc == 0 and got.out == want.out,
       "the archive through %s: same report" % name,
       got.err + first_diff(want.out, got.out))
    eq(db_query(ldb, "SELECT count(*), (SELECT count(*) FROM messages), "
                "(SELECT count(*) FROM models WHERE kind = "
                "'mail-snapshot') FROM inboxes"),
       [(1, 600, 1)], "... one inbox, its 600 messages and its snapshot")
c = sqlite3.connect(ldb)
c.execute("UPDATE commit_patchids SET version = 0, patch_id = '0' || "
          "substr(patch_id, 2) WHERE rowid % 7 = 0")
c.execute("DELETE FROM links")
c.commit()
c.close()
link_same("patch-ids of another version are computed again: same report")
eq(db_query(ldb, "SELECT count(*) FROM commit_patchids WHERE version != "
            "1")[0][0], 0, "... and replaced")
# links are computed every run (the last-resort pass depends on what every
# commit took); a wrong stored row is corrected, and only it rewritten
c = sqlite3.connect(ldb)
victim = c.execute("SELECT commit_id FROM links ORDER BY commit_id "
                   "LIMIT 1").fetchone()[0]
c.execute("UPDATE links SET method = 'subject', state = 'x' WHERE "
          "commit_id = ?", (victim,))
c.commit()
c.close()
link_same("a wrong stored link does not change the report")
eq(db_query(ldb, "SELECT method FROM links WHERE commit_id = '%s'"
            % victim), [("author-date",)], "... and it is corrected")
eq(db_query(ldb, "SELECT count(*) FROM links WHERE state = 'x'")[0][0], 0,
   "... rows of an unknown message set deleted")
c = sqlite3.connect(ldb)
c.execute("UPDATE links SET version = 0 WHERE commit_id = ?", (victim,))
c.commit()
c.close()
link_same("a link of another linking version is computed again: same "
          "report")
# new commits only: their links are added, the others kept
gen(lrepo, 2, append=True, seed=3)
link_same("link after new commits: same report")
eq(db_query(ldb, "SELECT count(*), count(DISTINCT state) FROM links")[0],
   (302, 1), "... the new commits' links added to the same message set")
gen(lrepo, 1, append=True, seed=3)
subprocess.run([sys.executable, GEN_INBOX, lrepo, linbox], check=True)
link_same("link after 1% new commits and messages: same report")
eq(db_query(ldb, "SELECT count(*) FROM messages")[0][0], 606,
   "... only the new messages were added")
eq([(r[1][1], int(r[1][0] < db_query(ldb, "SELECT max(seq) FROM "
                                       "messages")[0][0]))
    for r in [snap_row()]], [(600, 1)],
   "... and the snapshot kept: the 6 after it are replayed from their "
   "records until they pass 1/32 of it")
eq(db_query(ldb, "SELECT substr(state, 1, 4), count(*) FROM links GROUP "
            "BY 1 ORDER BY 1"), [("600:", 300), ("606:", 3)],
   "... only the rows of the 3 commits the new messages post changed")
# a new message an old commit can be found by (an earlier version of
# its posting, same subject and sender) makes that commit be linked again
old = git(lrepo, "log", "--reverse", "--no-merges", "--skip=10", "-1",
          "--format=%H%x00%an%x00%ae%x00%at%x00%s", "master").decode()
oid, oname, oemail, otime, osubj = old.strip().split("\0")
epoch0 = os.path.join(linbox, "git", "0.git")


def inbox_append(raw):
    """Add one message to the generated inbox's epoch 0, as public-inbox
    does: a commit whose tree holds it as `m`."""
    blob = git(epoch0, "hash-object", "-w", "--stdin", stdin=raw).decode()
    tree = git(epoch0, "mktree", stdin=f"100644 blob {blob.strip()}\tm\n"
               .encode()).decode().strip()
    tip = git(epoch0, "commit-tree", tree, "-p", "master", "-m",
              "m").decode()
    git(epoch0, "update-ref", "refs/heads/master", tip.strip())


inbox_append((f"From: {oname} <{oemail}>\nSubject: [PATCH] {osubj}\n"
              f"Date: {email.utils.formatdate(int(otime) - 86400)}\n"
              f"Message-ID: <resend-10@example.org>\n\nAn earlier version."
              f"\n---\ndiff --git a/README b/README\n--- a/README\n"
              f"+++ b/README\n@@ -1 +1 @@\n-old\n+new\n").encode())
r = link_same("a new earlier version of an old commit's posting: same "
              "report")
eq([x["earlier"] for x in r.json()["links"] if x["commit"] == oid],
   [["resend-10@example.org"]], "... that commit's link changed (its "
   "new earlier version shows)")
eq(db_query(ldb, "SELECT substr(state, 1, 4) FROM links WHERE "
            "commit_id = ?".replace("?", f"'{oid}'")), [("607:",)],
   "... and only it", )
eq(db_query(ldb, "SELECT count(*) FROM commit_links WHERE method = "
            "'author-date' AND posted IS NOT NULL")[0][0], 303,
   "the commit_links view joins each link to its commit and message")

# the mail snapshot: used when it applies, replaced when it does not


# it is read instead of the records: records changed behind maintstat's
# back (in a copy) do not show, as they would in a read of the records
sdb = os.path.join(tmp, "lgen-copy.sqlite")
src_db, c = sqlite3.connect(ldb), sqlite3.connect(sdb)
src_db.backup(c)
src_db.close()
c.execute("UPDATE messages SET message_id = 'z' || message_id WHERE seq <= "
          "?", (snap_row(sdb)[1][0],))
c.commit()
c.close()
want = link_same("the snapshot is what a warm run reads (records altered "
                 "under it do not show)", db=sdb)
c = sqlite3.connect(sdb)
c.execute("DELETE FROM models WHERE kind = 'mail-snapshot'")
c.commit()
c.close()
result_drop(sdb)
got = run("link", "--repo", lrepo, "--archive", linbox, "--json", "--db",
          sdb)
ok(got.rc == 0 and got.out != want.out and "\"z" in got.out,
   "... without it, the (altered) records are read", got.err)
key, mark, index = snap_row()
c = sqlite3.connect(ldb)
c.execute("UPDATE models SET crc = crc + 1 WHERE kind = 'mail-snapshot'")
c.commit()
c.close()
link_same("a mail snapshot whose CRC does not hold is ignored: same report")
eq(snap(), [(607, 0, 1)], "... and replaced")
snap_put(key, mark, b"\0")
link_same("a damaged mail snapshot is ignored: same report")
eq(snap(), [(607, 0, 1)], "... and replaced")
snap_put(key, mark, index[:len(index) // 2])
link_same("a truncated mail snapshot is ignored: same report")
eq(snap(), [(607, 0, 1)], "... and replaced")
# (garbage inside a string of the snapshot, its structure intact, is the
# store's CRC to refuse: "whose CRC does not hold" above)
inbox_id, kind = key.split(":")
other = f"{inbox_id}:{int(kind) + 1}"
c = sqlite3.connect(ldb)
c.execute("UPDATE models SET key = ? WHERE kind = 'mail-snapshot'", (other,))
c.commit()
c.close()
snap_put(other, mark, index)
link_same("a snapshot of another kind (format) is not read: same report")
eq(snap_row()[0], key, "... and one of this kind saved")
key, mark, index = snap_row()
snap_put(key, [mark[0], mark[1] - 1, mark[2], mark[3]], index)
link_same("a snapshot that no longer matches the records: same report")
eq(snap(), [(607, 0, 1)], "... and replaced")
# new mail in an epoch before the snapshot's last one: found part-way
# through the read, which starts again without the snapshot
key, mark, index = snap_row()
snap_put(key, mark[:3] + [5], index)
inbox_append(b"From: Late <late@example.org>\nSubject: Re: late\n"
             b"Date: Mon, 1 Jan 2024 00:00:00 +0000\nMessage-ID: "
             b"<late-1@example.org>\n\nA late reply.\n")
link_same("new mail in an epoch before the snapshot's: same report")
eq(snap(), [(608, 0, 1)], "... and the snapshot replaced")


def add_mail(i):
    inbox_append((f"From: Late <late@example.org>\nSubject: Re: late {i}\n"
                  f"Date: Mon, 1 Jan 2024 00:00:00 +0000\nMessage-ID: "
                  f"<late-more-{i}@example.org>\nIn-Reply-To: "
                  f"<late-1@example.org>\n\nMore.\n").encode())


# saved again only once the messages after it pass 1/32 of it (19 here)
for i in range(19):
    add_mail(i)
link_same("19 new messages after the snapshot: same report")
eq(snap(), [(608, 0, 1)], "... the snapshot kept (they are replayed)")
add_mail(19)
link_same("a 20th: same report")
eq(snap(), [(628, 0, 1)], "... and the snapshot saved again, with them")
# link killed at random points (the records, links and the snapshot being
# written) leaves a store the next run uses, with a clean run's report
kldb = os.path.join(tmp, "lkilled.sqlite")
lkilled = 0
for i, stop in enumerate((1, 2, 3, 5, 8, 1, 2, 4)):
    lkilled += stopped_and_killed(["link", "--repo", lrepo, "--archive",
                                   linbox, "--json", "--db", kldb], stop)
    if i == 4:
        add_mail(100)
    integrity = db_query(kldb, "PRAGMA integrity_check")
    if integrity != [("ok",)]:
        break
eq(integrity, [("ok",)], "after SIGKILLs of link the database is sound")
# the first run is cold and commits: it always stops, and is killed; the
# later ones stop only when they have that many commits left to make
ok(lkilled > 0, f"the link runs were killed part-way ({lkilled} of 8)")
link_same("after SIGKILLs: the same link report as a clean run", db=kldb)
# records of another extraction version make the inbox be read again:
# the snapshot goes with them.  (In the copy, the snapshot was made from
# the altered records; the records read again are the archive's.)
c = sqlite3.connect(sdb)
c.execute("UPDATE messages SET version = 0")
c.commit()
c.close()
link_same("records of another version: the inbox read again, the "
          "snapshot made from the old ones not used", db=sdb)

# -- the mail side: public-inbox epochs -------------------------------------
SEP = b"From mboxrd@z Thu Jan  1 00:00:00 1970\n"


def split_mbox(path):
    with open(path, "rb") as f:
        data = f.read()
    out = []
    for i, p in enumerate(data.split(b"\n" + SEP)):
        if i == 0:
            p = p[len(SEP):]
        out.append(p if p.endswith(b"\n") else p + b"\n")
    return out


def inbox_commit(repo, name, raw, parent):
    env = dict(os.environ, GIT_AUTHOR_NAME="a", GIT_AUTHOR_EMAIL="a@x",
               GIT_COMMITTER_NAME="a", GIT_COMMITTER_EMAIL="a@x",
               GIT_AUTHOR_DATE="1700000000 +0000",
               GIT_COMMITTER_DATE="1700000000 +0000")

    def g(*args, input=None):
        return subprocess.run(["git", "--git-dir", repo, *args], input=input,
                              capture_output=True, env=env,
                              check=True).stdout.decode().strip()
    blob = g("hash-object", "-w", "--stdin", input=raw)
    tree = g("mktree", input=f"100644 blob {blob}\t{name}\n".encode())
    c = g("commit-tree", tree, "-m", "msg", *(["-p", parent] if parent
                                             else []))
    g("update-ref", "refs/heads/master", c)
    return c


def add_epoch_messages(inbox, epoch, raws, deletion_at_end=False):
    repo = os.path.join(inbox, "git", f"{epoch}.git")
    if not os.path.isdir(repo):
        subprocess.run(["git", "init", "-q", "--bare", repo], check=True)
        subprocess.run(["git", "--git-dir", repo, "symbolic-ref", "HEAD",
                        "refs/heads/master"], check=True)
    r = subprocess.run(["git", "--git-dir", repo, "rev-parse", "-q",
                        "--verify", "master"], capture_output=True)
    parent = r.stdout.decode().strip() or None
    for raw in raws:
        parent = inbox_commit(repo, "m", raw, parent)
    if deletion_at_end:
        parent = inbox_commit(repo, "d", raws[-1], parent)


mails = []
for name in ("rules.mbox", "lab.mbox", "parse.mbox"):
    mails += split_mbox(os.path.join(FIXTURES, "mail", name))
inbox = os.path.join(tmp, "inbox-v2")
add_epoch_messages(inbox, 0, mails[:15])
add_epoch_messages(inbox, 1, mails[15:30], deletion_at_end=True)
mdb = os.path.join(tmp, "mail.sqlite")


def stats_same(what, archive, db):
    """`mail stats` of `archive` through store `db` equals --no-cache's:
    the report and its warnings."""
    want = run_reused("mail", "stats", "--json", archive, "--no-cache")
    got = run("mail", "stats", "--json", archive, "--db", db)
    ok(want.rc == 0 and got.rc == 0 and got.out == want.out and
       got.err == want.err, what,
       got.err + want.err + first_diff(want.out, got.out))
    return got


def mail_same(what):
    return stats_same(what, inbox, mdb)


mail_same("mail stats, cold store: the same report and warnings")
mail_same("mail stats, warm store: the same report and warnings")
eq(db_query(mdb, "SELECT count(*) FROM messages")[0][0], 30,
   "the store holds the 30 messages of both epochs")
add_epoch_messages(inbox, 1, mails[30:40])
add_epoch_messages(inbox, 2, mails[40:])
mail_same("mail stats after new mail in epoch 1 and a new epoch 2")
eq(db_query(mdb, "SELECT count(*) FROM messages")[0][0], len(mails),
   "each message stored once")
heads = [f"{e}:" + git(os.path.join(inbox, "git", f"{e}.git"), "rev-parse",
                       "master").decode().strip() for e in range(3)]
eq(run("mail", "stats", "--json", inbox, "--db", mdb).json()["archives"][0]
   .get("heads"), heads, "the last commit of every epoch, deletions "
   "included, as an uncached read reports it")
eq([tuple(r) for r in db_query(mdb, "SELECT epoch, head FROM inbox_epochs "
                               "ORDER BY epoch")],
   [(e, h.split(":")[1]) for e, h in enumerate(heads)],
   "the store remembers the last commit read per epoch")
c = sqlite3.connect(mdb)
c.execute("UPDATE messages SET version = 0, subject = 'bogus' "
          "WHERE seq = 3")
c.commit()
c.close()
mail_same("messages of another extraction version: inbox read again, "
          "same report")
with open(os.path.join(SOURCE_ROOT, "src", "store", "store.h")) as f:
    mail_version = int(re.search(r"#define MS_STORE_MAIL_VERSION (\d+)",
                                 f.read()).group(1))
eq(db_query(mdb, "SELECT count(*) FROM messages WHERE subject = 'bogus'"
            f" OR version != {mail_version}")[0][0], 0,
   "no stale message is left")
ok(db_query(mdb, "SELECT count(*) FROM mail_messages WHERE kind = "
            "'patch'")[0][0] > 0, "the mail_messages view names kinds")
r = run("mail", "stats", "--json", inbox, "--db", mdb, "--after",
        heads[0].split(":")[1])
ok(r.rc == 0 and r.json()["messages"] == len(mails) - 15,
   "--after reads around the store", r.err)

# mbox files are stored whole: unchanged files are handed out from the
# store, changed ones read again
import gzip  # noqa: E402
import shutil  # noqa: E402
mdir = os.path.join(tmp, "mboxes")
os.makedirs(os.path.join(mdir, "sub"))
for name in ("rules.mbox", "lab.mbox"):
    shutil.copy(os.path.join(FIXTURES, "mail", name), mdir)
for name in ("truncated.mbox", "year-9999.mbox"):
    shutil.copy(os.path.join(FIXTURES, "mail", "broken", name),
                os.path.join(mdir, "sub"))
with open(os.path.join(FIXTURES, "mail", "parse.mbox"), "rb") as f, \
        gzip.open(os.path.join(mdir, "sub", "parse.mbox.gz"), "wb") as g:
    g.write(f.read())
with open(os.path.join(mdir, "README"), "w") as f:
    f.write("not a mailbox\n")
single = os.path.join(mdir, "rules.mbox")
xdb = os.path.join(tmp, "mbox.sqlite")


def mbox_same(what, archive):
    return stats_same(what, archive, xdb)


mbox_same("an mbox file, cold store: the same report and warnings", single)
mbox_same("an mbox file, warm store: the same report and warnings", single)
r = mbox_same("a directory of mbox, .gz and other files, cold store: the "
              "same report and warnings", mdir)
ok("README" in r.err and "skipped" in r.err, "... the non-mbox file "
   "skipped with the same warning", r.err)
mbox_same("a directory of mbox files, warm store: the same report", mdir)
want_msgs = run_reused("mail", "stats", "--json", mdir,
                       "--no-cache").json()[
    "messages"]
eq(db_query(xdb, "SELECT count(*) FROM messages m JOIN inboxes i ON "
            "i.id = m.inbox WHERE i.path LIKE '%mboxes%'")[0][0], want_msgs,
   "each message of the directory stored once")
# the warm read comes from the store: a planted change shows
c = sqlite3.connect(xdb)
c.execute("UPDATE messages SET kind = 7 WHERE inbox = (SELECT id FROM "
          "inboxes WHERE path LIKE '%mboxes/lab.mbox')")
c.commit()
c.close()
r = run("mail", "stats", "--json", mdir, "--db", xdb)
ok(r.rc == 0 and r.json()["bots"] >= 21, "a warm read hands out the "
   "stored messages (planted kinds show)", r.out[:300])
# a changed file is read again: appended mail, and a touched file
os.utime(os.path.join(mdir, "lab.mbox"), (1000000000, 1000000000))
mbox_same("a touched mbox file is read again: the same report", mdir)
with open(os.path.join(FIXTURES, "mail", "parse.mbox"), "rb") as f:
    extra = f.read()
with open(single, "ab") as f:
    f.write(extra)
mbox_same("an mbox file with new mail appended: the same report", mdir)
mbox_same("... and warm again", mdir)
ok(db_query(xdb, "SELECT count(*) FROM mbox_files")[0][0] >= 5,
   "the store records each mbox file read whole", None)

# a store of schema version 1 (before the mail side) is rebuilt: emptied
# (everything in it is derived), filled again, the same log
v1db = os.path.join(tmp, "v1.sqlite")
c = sqlite3.connect(v1db)
c.executescript(open(os.path.join(FIXTURES, "store",
                                  "schema-1.sql")).read())
c.close()
r = same_as_uncached(sk, v1db, "a schema-1 store: rebuilt, same log",
                     "--merges")
with open(os.path.join(SOURCE_ROOT, "src", "store", "store.h")) as f:
    schema = int(re.search(r"#define MS_STORE_SCHEMA_VERSION (\d+)",
                           f.read()).group(1))
eq(db_query(v1db, "PRAGMA user_version")[0][0], schema,
   "... now at the current schema version")
eq(db_query(v1db, "SELECT count(*) FROM commits WHERE id = "
            "'0000000000000000000000000000000000000000'")[0][0], 0,
   "... its planted record (no repository has it) gone")
ok(db_query(v1db, "SELECT count(*) FROM commits")[0][0] > 0,
   "... the repository's records stored again", None)
same_as_uncached(sk, v1db, "... and warm: the same log", "--merges")

# -- usage ------------------------------------------------------------------
eq(run("store").rc, 2, "store without a subcommand: usage error")
eq(run("store", "frob", "--repo", repo).rc, 2, "unknown subcommand: usage")
eq(run("store", "log", cwd=tmp).rc, 2,
   "store log without --repo outside a git repository: usage error")
r = run("store", "log", "--repo", os.path.join(tmp, "nope"), "--no-cache")
ok(r.rc == 1 and "not a git repository" in r.err,
   "not a repository: exit 1 with the reason", r.err)
r = run("store", "log", "--repo", repo, "--rev", "nosuch", "--db",
        os.path.join(tmp, "x.sqlite"))
ok(r.rc == 1 and "unknown revision 'nosuch'" in r.err,
   "unknown revision through the store: the same error", r.err)

# -- store list | prune: the stores of the cache directory, nothing else -----
cache = tmpdir()
cenv = {"XDG_CACHE_HOME": cache}
# the lists of work trees `maintainers` keeps there (tree.h) count too
wt = os.path.join(cache, "wt")
os.makedirs(os.path.join(wt, "board", "a"))
subprocess.run(["git", "init", "-q", wt], check=True)
with open(os.path.join(wt, "MAINTAINERS"), "w") as f:
    f.write("THE REST\nM:\tRest <rest@example.org>\nS:\tBuried\nF:\t*\n")
with open(os.path.join(wt, ".get_maintainer.conf"), "w") as f:
    f.write("--find-maintainer-files\n")
made = time.time()
r = run("store", "list", "--json", env=cenv)
eq((r.rc, r.json().get("stores") if r.rc == 0 else r.err), (0, []),
   "store list: no cache directory yet, no stores")
eq(run("store", "log", "--repo", repo, env=cenv).rc, 0,
   "a run makes a store")
sdir = os.path.join(cache, "maintstat")
mine = [x for x in os.listdir(sdir) if x.endswith(".sqlite")]
eq(len(mine), 1, "... one store file")
old = os.path.join(sdir, "old-0123456789abcdef.sqlite")
shutil.copy(os.path.join(sdir, mine[0]), old)
aside = os.path.join(sdir, "x-0123456789abcdef.sqlite.corrupt-20260101")
shutil.copy(os.path.join(sdir, mine[0]), aside)
other = os.path.join(sdir, "notes-0123456789abcdef.txt")
with open(other, "w") as f:
    f.write("mine\n")
ancient = time.time() - 200 * 86400
# a directory changed less than 2 s before a walk is not trusted
time.sleep(max(0.0, made + 3.1 - time.time()))
eq(run("maintainers", "--tree", wt, "--no-git", "--no-git-fallback",
       "MAINTAINERS", env=cenv).rc, 0, "maintainers in a work tree")
lists = [x for x in os.listdir(sdir) if x.endswith(".list")]
eq(len(lists), 1, "... keeps its list")
oldlist = os.path.join(sdir, "tree-0123456789abcdef.list")
notlist = os.path.join(sdir, "tree-0123456789ABCDEF.list")
for p in (oldlist, notlist):
    shutil.copy(os.path.join(sdir, lists[0]), p)
for p in (old, other, oldlist, notlist):
    os.utime(p, (ancient, ancient))
r = run("store", "list", "--json", env=cenv)
eq(sorted(os.path.basename(s["path"]) for s in r.json()["stores"]),
   sorted([mine[0], os.path.basename(old), os.path.basename(aside),
           lists[0], os.path.basename(oldlist)]),
   "store list: every store, the moved-aside one too, the trees' lists, "
   "nothing else")
r = run("store", "prune", "--dry-run", "--json", env=cenv)
eq(sorted(os.path.basename(s["path"]) for s in r.json()["removed"]),
   sorted([os.path.basename(old), os.path.basename(aside),
           os.path.basename(oldlist)]),
   "store prune --dry-run: the unused and the damaged, a list too")
ok(os.path.exists(old) and os.path.exists(aside), "... nothing removed")
os.utime(os.path.join(sdir, lists[0]), (ancient, ancient))
eq(run("maintainers", "--tree", wt, "--no-git", "--no-git-fallback",
       "MAINTAINERS", env=cenv).rc, 0, "maintainers again takes the list")
r = run("store", "prune", "--older-than", "30d", env=cenv)
eq(r.rc, 0, "store prune exits 0")
eq(sorted(os.listdir(sdir)), sorted([mine[0], os.path.basename(other),
                                     lists[0], os.path.basename(notlist)]),
   "... removed them; the used store, the list just taken and the "
   "files it did not make stay")
eq(run("store", "list", "extra", env=cenv).rc, 2,
   "store list with an argument: usage error")
eq(run("store", "prune", "--older-than", "soon", env=cenv).rc, 2,
   "store prune --older-than soon: usage error")

done()
