#!/usr/bin/env python3
"""Hostile input, round three (issue 41, with issue 35's symlinked file and
issue 40's used report directory): a tampered store, links out of a tree,
FIFOs, javascript: links, quoting of headers, escapes on stderr, costly
K: patterns, unbounded standard input.  Each check plants the attack and
asserts what must hold; none passes on main 43c3d31."""
import os
import resource
import sqlite3
import subprocess
import sys
from email.utils import getaddresses

sys.path.insert(0, os.path.dirname(__file__))
from mstest import (MAINTSTAT, SOURCE_ROOT, run, ok, eq, done,  # noqa: E402
                    tmpdir)
from gitinbox import add_messages, git as igit  # noqa: E402

T = tmpdir()
GEN = os.path.join(SOURCE_ROOT, "tests", "bench", "gen-history.py")
mbox_lab = os.path.join(SOURCE_ROOT, "fixtures", "mail", "lab.mbox")


def write(path, text, mode="w"):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, mode) as f:
        f.write(text)


def killed_by_signal(r):
    return r.rc < 0 or r.rc > 2


# -- 1. the store is untrusted --------------------------------------------
repo = os.path.join(T, "gen.git")
subprocess.run([sys.executable, GEN, "--seed", "3", "--commits", "60", repo],
               check=True)
plain = run("store", "log", "--repo", repo, "--no-cache")
db = os.path.join(T, "s.sqlite")
r = run("store", "log", "--repo", repo, "--db", db)
eq((r.rc, r.out), (0, plain.out), "a store is made")


def tampered(sql):
    path = os.path.join(T, "t.sqlite")
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(path + suffix):
            os.unlink(path + suffix)
    with open(db, "rb") as f, open(path, "wb") as g:
        g.write(f.read())
    c = sqlite3.connect(path)
    c.executescript(sql)
    c.commit()
    c.close()
    return path


neg = tampered("PRAGMA user_version = -100000")
for cmd in (["activity", "--repo", repo], ["store", "log", "--repo", repo],
            ["store", "info", "--repo", repo]):
    r = run(*cmd, "--db", neg)
    ok(r.rc == 1 and r.err.startswith("maintstat: ") and
       "schema version" in r.err,
       f"{cmd[0]} on a store of a negative schema version: refused, "
       "exit 1", f"rc {r.rc}\n{r.err[-400:]}")
huge = tampered("PRAGMA user_version = 2147483647")
r = run("activity", "--repo", repo, "--db", huge)
ok(r.rc in (1, 2) and "newer than" in r.err,
   "a huge schema version: refused as newer", f"rc {r.rc}\n{r.err}")
# offsets beyond any git writes (UBSan: signed overflow printing them)
bad = tampered("UPDATE commits SET author_tz = 2147483647 WHERE seq = "
               "(SELECT min(seq) + 5 FROM commits)")
r = run("store", "log", "--repo", repo, "--db", bad)
ok(r.rc == 1 and "damaged" in r.err,
   "a record with an impossible time zone is damage", f"rc {r.rc}\n{r.err}")
r = run("store", "log", "--repo", repo, "--db", bad)
eq((r.rc, r.out), (0, plain.out), "... and the next run rebuilds the store")
bad = tampered("UPDATE commits SET committer_time = 9223372036854775807, "
               "author_time = -9223372036854775807")
r = run("link", "--repo", repo, "--db", bad, "--archive",
        mbox_lab)
ok(not killed_by_signal(r), "link with times at the ends of int64: no crash",
   f"rc {r.rc}\n{r.err[-600:]}")

# -- 4. paths through links, and issue 35's symlinked file ---------------
tree = os.path.join(T, "tree")
secret = os.path.join(T, "secret")
write(os.path.join(secret, "creds"),
      "SECRET ENTRY\nM:\tSpy <spy@example.org>\nF:\t*\n")
write(os.path.join(tree, "MAINTAINERS"),
      "FOO\nM:\tFoo Bar <foo@example.org>\nS:\tMaintained\nF:\tsrc/\n"
      "K:\tfrobnicate\n\n"
      "RISCV\nR:\tAnn Rev <ann@example.org>\nS:\tSupported\n"
      "F:\txen/arch/riscv/\n\n"
      "THE REST\nM:\tRest <rest@example.org>\nS:\tBuried alive\n"
      "F:\t*\nF:\t*/\n")
write(os.path.join(tree, "src", "a.c"), "int a;\n")
cfg = os.path.join(tree, "xen", "arch", "riscv", "configs")
write(os.path.join(cfg, "tiny64_defconfig"), "CONFIG_RISCV=y\n")
os.symlink("tiny64_defconfig", os.path.join(cfg, "riscv64_defconfig"))
os.symlink("../secret", os.path.join(tree, "d"))
os.symlink(os.path.join(secret, "creds"), os.path.join(tree, "out-link"))

riscv = "xen/arch/riscv/configs/riscv64_defconfig"
r = run("sections", tree, riscv)
eq((r.rc, r.out), (0, f"{riscv}\n  RISCV\n  THE REST\n\n"),
   "sections follows a symlinked file inside the tree (issue 35)")
r = run("maintainers", "--tree", tree, riscv)
ok(r.rc == 0 and "Ann Rev <ann@example.org> (reviewer:RISCV)" in r.out,
   "maintainers follows it too", f"rc {r.rc}\n{r.out}{r.err}")
for path in ("d/creds", "out-link"):
    r = run("sections", tree, path)
    ok(r.rc == 1 and "SECRET" not in r.out,
       f"sections: '{path}' (a link out of the tree) is no file of it",
       f"rc {r.rc}\n{r.out}{r.err}")
write(os.path.join(tree, ".get_maintainer.conf"), "--mpath d/creds\n")
r = run("coverage", tree)
ok(r.rc != 0 and "SECRET" not in r.out + r.err and "Spy" not in r.out,
   ".get_maintainer.conf --mpath through a link out: not read",
   f"rc {r.rc}\n{r.out}{r.err}")
write(os.path.join(tree, ".get_maintainer.conf"), "--mpath out-link\n")
r = run("coverage", tree)
ok(r.rc != 0 and "SECRET" not in r.out + r.err,
   "... nor a link to a file outside", f"rc {r.rc}\n{r.out}{r.err}")
os.unlink(os.path.join(tree, ".get_maintainer.conf"))
# a MAINTAINERS that is a link inside the tree is followed
inner = os.path.join(T, "inner")
write(os.path.join(inner, "docs", "MAINTAINERS.real"),
      open(os.path.join(tree, "MAINTAINERS")).read())
write(os.path.join(inner, "src", "a.c"), "int a;\n")
os.symlink("docs/MAINTAINERS.real", os.path.join(inner, "MAINTAINERS"))
r = run("sections", inner, "src/a.c")
eq((r.rc, r.out), (0, "src/a.c\n  FOO\n  THE REST\n\n"),
   "a symlinked MAINTAINERS inside the tree is read")

# -- 6. FIFOs never hang the reader ---------------------------------------
fifo = os.path.join(T, "fifo")
write(os.path.join(fifo, "MAINTAINERS"),
      open(os.path.join(tree, "MAINTAINERS")).read())
write(os.path.join(fifo, "src", "a.c"), "int a;\n")
for name in (".get_maintainer.conf", ".mailmap",
             "scripts/get_maintainer.pl"):
    os.makedirs(os.path.dirname(os.path.join(fifo, name)), exist_ok=True)
    os.mkfifo(os.path.join(fifo, name))
try:
    r = run("maintainers", "--tree", fifo, "src/a.c", timeout=30)
    ok(r.rc == 0 and "foo@example.org" in r.out,
       "FIFOs named .get_maintainer.conf, .mailmap, get_maintainer.pl: "
       "no hang", f"rc {r.rc}\n{r.out}{r.err}")
except subprocess.TimeoutExpired:
    ok(False, "FIFOs in the tree: no hang", "still reading after 30 s")

# -- 7. only http(s) list URLs become links --------------------------------
mbox = os.path.join(T, "list.mbox")
write(mbox, "From dev Mon Jan  6 09:00:00 2020\n"
      "From: Dev One <dev@example.org>\nTo: list@example.org\n"
      "Subject: [PATCH] src: frobnicate\nDate: Mon, 6 Jan 2020 09:00:00 "
      "+0000\nMessage-ID: <p1@example.org>\n\n"
      "---\n src/a.c | 1 +\n\ndiff --git a/src/a.c b/src/a.c\n"
      "--- a/src/a.c\n+++ b/src/a.c\n@@ -1 +1,2 @@\n int a;\n+int b;\n")
for url in ("javascript:alert(1)//", "data:text/html,x", "JAVASCRIPT:x"):
    r = run("review", "--archive", mbox, "--tree", tree, "--list-url", url,
            "--no-cache", "--json")
    ok(r.rc == 2 and "http" in r.err and url not in r.out,
       f"--list-url {url}: refused, saying http(s)", f"rc {r.rc}\n{r.err}")
r = run("review", "--archive", mbox, "--tree", tree, "--list-url",
        "https://lore.example.org/list", "--no-cache")
eq(r.rc, 0, "--list-url https://...: taken")
# a fetched inbox whose remote is javascript: gives no links
inbox = os.path.join(T, "inbox.git")
subprocess.run(["git", "init", "-q", "--bare", inbox], check=True)
add_messages(inbox, ["m1@example.org"])
igit(inbox, "config", "remote.origin.url", "javascript:alert(document.cookie)")
r = run("review", "--archive", inbox, "--tree", tree, "--no-cache",
        "--json")
ok(r.rc == 0 and "javascript" not in r.out,
   "a remote.origin.url of javascript: becomes no link",
   f"rc {r.rc}\n{r.err}")

# -- 9. display names quoted in the headers maintstat writes --------------
planted = os.path.join(T, "planted.git")
subprocess.run([sys.executable, os.path.join(SOURCE_ROOT, "fixtures", "gen",
                                             "gen-repo.py"), planted],
               check=True, capture_output=True)
work = os.path.join(T, "work")
genv = dict(os.environ, GIT_AUTHOR_NAME="T", GIT_AUTHOR_EMAIL="t@example.com",
            GIT_COMMITTER_NAME="T", GIT_COMMITTER_EMAIL="t@example.com",
            GIT_AUTHOR_DATE="2019-06-01T11:00:00+00:00",
            GIT_COMMITTER_DATE="2019-06-01T11:00:00+00:00")
subprocess.run(["git", "clone", "-q", planted, work], check=True)
mpath = os.path.join(work, "MAINTAINERS")
evil = '"Ivan, attacker@evil.example, Jr" <ivan@example.org>'
text = open(mpath).read()
ok("Ivan Inactive <ivan@example.org>" in text, "the planted Ivan is listed")
write(mpath, text.replace("Ivan Inactive <ivan@example.org>", evil))
for args in (["add", "-A"], ["commit", "-qm", "a name with commas"],
             ["config", "user.name", "Repo, User"],
             ["config", "user.email", "repo@example.org"]):
    subprocess.run(["git", *args], cwd=work, env=genv, check=True)
out = os.path.join(T, "series")
r = run("retire", "--repo", work, "--min-commits", "10", "--output-dir", out,
        "--no-cache", "--no-credits")
ok(r.rc == 0, "retire on the names with commas", r.err)
ccs, froms = [], []
for f in sorted(os.listdir(out)) if r.rc == 0 else []:
    for line in open(os.path.join(out, f)):
        if line.startswith("Cc: ") and "ivan@" in line:
            ccs.append(line[4:].strip())
        if line.startswith("From: "):
            froms.append(line[6:].strip())
ok(ccs and all(getaddresses([c]) == [("Ivan, attacker@evil.example, Jr",
                                      "ivan@example.org")] for c in ccs),
   "retire's Cc: lines keep a name with commas one recipient", ccs)
ok(froms and all(getaddresses([f]) == [("Repo, User", "repo@example.org")]
                 for f in froms),
   "... and so does its From: header", froms[:2])

# -- 3. retire: a full disk leaves no partial series ------------------------
# (an injected failure: MS_TEST_FULL_AFTER=N makes the N-th file written
# fail with ENOSPC, as a full disk would)
full = os.path.join(T, "full-series")
r = run("retire", "--repo", work, "--min-commits", "10", "--output-dir",
        full, "--no-cache", "--no-credits", env={"MS_TEST_FULL_AFTER": "3"})
left = os.listdir(full) if os.path.isdir(full) else []
ok(r.rc == 1 and "No space left" in r.err and left == [],
   "retire on a full disk: exit 1, no cover letter without its patches",
   f"rc {r.rc}\n{r.err}\n{left}")
eq([f for f in os.listdir(T) if ".tmp-" in f], [],
   "... and nothing left beside the directory")
os.makedirs(full, exist_ok=True)
write(os.path.join(full, "notes.txt"), "mine\n")
victim = os.path.join(T, "victim")
write(victim, "precious\n")
cover = os.path.join(full, "0000-cover-letter.patch")
if os.path.lexists(cover):     # the old code wrote it on a "full" disk
    os.unlink(cover)
os.symlink(victim, cover)
r = run("retire", "--repo", work, "--min-commits", "10", "--output-dir",
        full, "--no-cache", "--no-credits", "--force")
ok(r.rc == 0 and open(victim).read() == "precious\n" and
   not os.path.islink(os.path.join(full, "0000-cover-letter.patch")) and
   os.path.exists(os.path.join(full, "notes.txt")),
   "retire never writes through a link planted in --output-dir",
   f"rc {r.rc}\n{r.err}")

# -- 5. report: no link followed, no foreign directory, replaced whole ----
site = os.path.join(T, "site")


def report(*extra, env=None):
    return run("report", "--archive", mbox, "--tree", tree, "--no-cache",
               "--output-dir", site, *extra, env=env)


os.makedirs(site)
os.symlink(victim, os.path.join(site, "index.html"))
r = report()
ok(r.rc == 1 and open(victim).read() == "precious\n" and
   "no maintstat report" in r.err,
   "report into a directory of other files (a planted link): refused, "
   "nothing written through it", f"rc {r.rc}\n{r.err}")
os.unlink(os.path.join(site, "index.html"))
write(os.path.join(site, "index.html"), "<p>my own page</p>\n")
r = report()
ok(r.rc == 1 and open(os.path.join(site, "index.html")).read() ==
   "<p>my own page</p>\n", "a foreign index.html: refused, kept",
   f"rc {r.rc}\n{r.err}")
os.unlink(os.path.join(site, "index.html"))
r = report()
ok(r.rc == 0 and os.path.isfile(os.path.join(site, "data", "review.json")),
   "report into an empty directory", r.err)
write(os.path.join(site, "data", "entry-99.json"), "{}\n")
os.unlink(os.path.join(site, "entry-0.html")) if os.path.exists(
    os.path.join(site, "entry-0.html")) else None
os.symlink(victim, os.path.join(site, "entry-0.html"))
r = report()
ok(r.rc == 0 and open(victim).read() == "precious\n" and
   not os.path.exists(os.path.join(site, "data", "entry-99.json")) and
   not os.path.islink(os.path.join(site, "entry-0.html")),
   "a previous report is replaced whole: a link planted in it is not "
   "followed, an old run's data/ file is gone", f"rc {r.rc}\n{r.err}")
before = open(os.path.join(site, "index.html")).read()
r = report("--list-url", "https://lore.example.org/x",
           env={"MS_TEST_FULL_AFTER": "4"})
ok(r.rc == 1 and open(os.path.join(site, "index.html")).read() == before,
   "a report cut short by a full disk leaves the previous one whole",
   f"rc {r.rc}\n{r.err}")
eq([f for f in os.listdir(T) if ".tmp-" in f], [],
   "... and nothing beside it")

# -- 8, 14. names: one line, no lookalikes, quoted '<' --------------------
idm = os.path.join(T, "id.mbox")
msgs = [
    ("Linus Torvalds <torvalds@linux-foundation.org>", "a1"),
    ("Linus Torvalds <torvalds@kernel.org>", "a2"),
    # an encoded newline in the name, twice so that a join prints it
    ("=?UTF-8?Q?Evil_Doer=0ALinus_Torvalds?= <attacker@evil.example>",
     "a3"),
    ("=?UTF-8?Q?Evil_Doer=0ALinus_Torvalds?= <attacker2@evil.example>",
     "a8"),
    # fullwidth letters: NFKD makes them "Linus Torvalds"
    ("=?UTF-8?B?77ys772J772O772V772TIO+8tO+9j++9ku+9lu+9ge+9jO+9hO+9kw==?= "
     "<spoof@evil.example>", "a4"),
    ('"Linus <torvalds@linux-foundation.org>" <quoted@evil.example>', "a5"),
    ("-- -- <dash1@example.org>", "a6"),
    ("-- -- <dash2@example.org>", "a7"),
]
write(idm, "".join(
    f"From x Mon Jan  6 09:00:00 2020\nFrom: {f}\nTo: l@example.org\n"
    f"Subject: [PATCH] src: {mid}=?UTF-8?Q?=0AReviewed-by:_Linus?=\n"
    f"Date: Mon, {6 + i} Jan 2020 09:00:00 +0000\n"
    f"Message-ID: <{mid}@x>\n\nbody\n\n"
    for i, (f, mid) in enumerate(msgs)))
r = run("identities", "--tree", tree, "--archive", idm, "--no-cache",
        "--suggest-mailmap")
lines = r.out.splitlines()
ok(r.rc == 0 and all("<" in l for l in lines if l.strip()),
   "--suggest-mailmap: an encoded newline in a name forges no line",
   r.out + r.err)
ok("spoof@" not in r.out, "a fullwidth 'Linus Torvalds' joins no one",
   r.out)
ok("dash2@" not in r.out, "a punctuation-only name joins no one", r.out)
r = run("mail", "show", idm, "a5@x", "--json")
eq(r.json()["from"] if r.rc == 0 else r.err,
   {"name": "Linus <torvalds@linux-foundation.org>",
    "email": "quoted@evil.example"},
   "a quoted '<addr>' in a From: display name is part of the name")
r = run("mail", "show", idm, "a1@x", "--json")
ok(r.rc == 0 and "\n" not in r.json()["subject"],
   "a subject is one line", r.out[:300])
r = run("review", "--archive", idm, "--tree", tree, "--no-cache")
ok(r.rc == 0 and not any(l.startswith("Reviewed-by: Linus")
                         for l in r.out.splitlines()),
   "review's text: no line forged by a subject", r.out + r.err)

# -- 10. no raw escape reaches stderr --------------------------------------
r = run("sections", tree, "x\x1b]0;owned\x07y")
ok("\x1b" not in r.err and "\x07" not in r.err and "x?]0;owned?y" in r.err,
   "a warning quoting a path with ESC and BEL: sanitised", repr(r.err))
r = run("sections", tree, "--limit", "1\x1b[31m")
ok("\x1b" not in r.err, "an option value in an error: sanitised",
   repr(r.err))
r = run("no\x1b[2Jsuch")
ok(r.rc == 2 and "\x1b" not in r.err, "an unknown command: sanitised",
   repr(r.err))

# -- 11. K: patterns are bounded as N: ones --------------------------------
ktree = os.path.join(T, "ktree")
write(os.path.join(ktree, "MAINTAINERS"),
      "FOO\nM:\tFoo Bar <foo@example.org>\nS:\tMaintained\nF:\tsrc/\n\n"
      "SLOW\nM:\tSlow Poke <slow@example.org>\nS:\tMaintained\n"
      "K:\t(a|aa)+$\n\n"
      "THE REST\nM:\tRest <rest@example.org>\nS:\tBuried alive\n"
      "F:\t*\nF:\t*/\n")
write(os.path.join(ktree, "src", "a.c"), "int a;\n")
added = "".join("+" + "a" * 40 + "!\n" for _ in range(2000))
patch = os.path.join(T, "k.patch")
write(patch, "From: x <x@example.org>\nSubject: [PATCH] big\n\n---\n"
      "diff --git a/src/a.c b/src/a.c\n--- a/src/a.c\n+++ b/src/a.c\n"
      "@@ -1 +1,2001 @@\n int a;\n" + added)
try:
    r = run("maintainers", "--tree", ktree, patch, timeout=60)
    ok(r.rc == 0 and "foo@example.org" in r.out and
       "slow@" not in r.out and "K: pattern" in r.err and "too costly" in r.err,
       "a catastrophic K: pattern on 2,000 added lines: bounded, with a "
       "warning", f"rc {r.rc}\n{r.out}{r.err}")
except subprocess.TimeoutExpired:
    ok(False, "a catastrophic K: pattern: bounded", "not done in 60 s")

# -- 13. standard input is bounded -----------------------------------------


# 1 GiB of address space, so that the old unbounded read ends soon; an
# ASan build reserves terabytes of shadow and cannot run under the limit
with open(MAINTSTAT, "rb") as _f:
    ASAN = b"__asan_init" in _f.read()


def limited():
    if not ASAN:
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))


for cmd in (["maintainers", "--tree", tree, "-"], ["sections", tree, "-"]):
    with open("/dev/zero", "rb") as zero:
        try:
            p = subprocess.run([MAINTSTAT, *cmd], stdin=zero,
                               capture_output=True, timeout=120,
                               preexec_fn=limited)
            err = p.stderr.decode("utf-8", "replace")
            ok(p.returncode == 1 and "standard input" in err,
               f"{cmd[0]} - < /dev/zero: a bounded read and an error",
               f"rc {p.returncode}\n{err[-300:]}")
        except subprocess.TimeoutExpired:
            ok(False, f"{cmd[0]} - < /dev/zero ends", "still reading")

done()
