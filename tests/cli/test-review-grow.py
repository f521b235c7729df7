#!/usr/bin/env python3
"""`review` and `pending` on a public-inbox that grows between runs sharing
a store: what the review map derived from the stored messages' bodies
(K: answers, earlier versions named in changelogs, lists, sibling
projects) is kept with the mail snapshot, so a warm run hands the map only
the new messages.  Every report equals a cold run's (--no-cache), text and
JSON.  The stored bodies are deleted to prove the old messages are not
read again; a changed K: line and --foreign-subject must not take the
kept answers."""
import json
import os
import shutil
import sqlite3
import sys
sys.path.insert(0, os.path.dirname(__file__))
from mstest import run, ok, eq, done, tmpdir, result_drop  # noqa: E402
import gitinbox  # noqa: E402

tmp = tmpdir()
tree = os.path.join(tmp, "tree")
os.makedirs(os.path.join(tree, "drivers"))
open(os.path.join(tree, "drivers", "x.c"), "w").close()


def write_maintainers(k):
    with open(os.path.join(tree, "MAINTAINERS"), "w") as f:
        f.write("DRIVERS\nM:\tMa Int <ma@example.com>\n"
                "L:\tdrivers@lists.example.org\nF:\tdrivers/\n\n"
                f"FROB\nM:\tFro Bo <fb@example.com>\nK:\t{k}\n\n"
                "THE REST\nM:\tR <r@example.com>\nF:\t*\nF:\t*/\n")


write_maintainers(r"\bfrobnicate\b")


def patch(n, day, version=1, cc="drivers@lists.example.org", link=None):
    v = "v%d " % version if version > 1 else ""
    changelog = (f"---\nChanges in v{version}:\n- Link to v{version - 1}: "
                 f"https://lore.kernel.org/r/{link}\n\n" if link else "---\n")
    body = "frobnicate(x);" if n % 4 == 0 else f"int v{n} = {version};"
    return (f"From: P{n} <p{n}@example.com>\n"
            "To: Ma Int <ma@example.com>\n"
            f"Cc: {cc}\n"
            f"Subject: [PATCH {v}{n}/1] drivers: change {n}\n"
            f"Message-ID: <p{n}v{version}@example.com>\n"
            f"Date: Mon, {day:02d} Jan 2023 {n % 24:02d}:00:00 +0000\n\n"
            f"change {n}\n\nSigned-off-by: P{n} <p{n}@example.com>\n"
            f"{changelog}"
            "diff --git a/drivers/x.c b/drivers/x.c\n"
            "--- a/drivers/x.c\n+++ b/drivers/x.c\n@@ -0,0 +1 @@\n"
            f"+{body}\n")


def reply(n, day, text, frm="Ma Int <ma@example.com>", version=1):
    v = "v%d " % version if version > 1 else ""
    return (f"From: {frm}\n"
            f"Subject: Re: [PATCH {v}{n}/1] drivers: change {n}\n"
            f"Message-ID: <r{n}-{day}@example.com>\n"
            f"In-Reply-To: <p{n}v{version}@example.com>\n"
            f"Date: Mon, {day:02d} Jan 2023 23:00:00 +0000\n\n"
            f"> change {n}\n\n{text}\n")


def ty(day, n):
    """A b4 ty notice answering stored patch n."""
    return ("From: Ma Int <ma@example.com>\n"
            f"Subject: Re: [PATCH {n}/1] drivers: change {n}\n"
            f"Message-ID: <ty{day}-{n}@example.com>\n"
            f"In-Reply-To: <p{n}v1@example.com>\n"
            f"Date: Mon, {day:02d} Jan 2023 22:00:00 +0000\n\n"
            f"On Mon, 2 Jan 2023, P wrote:\n> change {n}\n\n"
            f"Applied, thanks!\n\n[1/1] drivers: change {n}\n"
            f"      commit: {n:040x}\n\nBest regards,\n")


old = []
for n in range(24):
    # some went to another project's list too
    old.append(patch(n, 1 + n % 10, cc="other@vger.kernel.org"
                     if n % 5 == 1 else "drivers@lists.example.org"))
    if n % 3 == 0:
        old.append(reply(n, 2 + n % 10, "Looks good."))
old.append(patch(30, 12, cc="linux-foo@vger.kernel.org"))
# the new mail: a reply to an old patch, a v2 in a new thread that
# names its v1 (superseding a stored patch), a b4 ty notice naming
# patches of other threads, and new patches
new = [reply(5, 20, "Reviewed-by: Ma Int <ma@example.com>"),
       patch(3, 21, version=2, link="p3v1@example.com"),
       ty(22, 2), ty(22, 7),
       patch(40, 23), patch(44, 23), reply(10, 24, "NAK, not this.")]

inbox = os.path.join(tmp, "inbox")
ep = os.path.join(inbox, "git", "0.git")
os.makedirs(ep)
gitinbox.git(ep, "init", "-q", "--bare")
gitinbox.git(ep, "symbolic-ref", "HEAD", "refs/heads/master")


def add(msgs):
    """One commit per message adding it as blob 'm', after the branch's
    tip, in one git fast-import (a git command per object cost the test
    a third of its time)."""
    try:
        tip = gitinbox.git(ep, "rev-parse", "--verify", "-q",
                           "refs/heads/master")
    except Exception:
        tip = None
    out = []
    for k, m in enumerate(msgs):
        m = m.encode()
        out.append(f"commit refs/heads/master\nmark :{k + 1}\n"
                   "committer c <c@x> 1578301200 +0000\ndata 1\nm\n"
                   .encode())
        if k or tip:
            out.append(f"from {':%d' % k if k else tip}\n".encode())
        out.append(b"M 100644 inline m\ndata %d\n%s\n" % (len(m), m))
    gitinbox.git(ep, "fast-import", "--quiet", stdin=b"".join(out))


COMMANDS = [("review", False), ("review", True), ("pending", False),
            ("pending", True)]


def report(cmd, js, store, *extra):
    args = [cmd, "--tree", tree, "--archive", inbox, *extra,
            *(["--json"] if js else []),
            *(["--no-cache"] if store is None else ["--db", store])]
    r = run(*args)
    ok(r.rc == 0, " ".join(args[:1] + list(extra)) + " exits 0", r.err)
    return r.out


def snapshots(store):
    con = sqlite3.connect(store)
    n = con.execute("SELECT count(*) FROM models WHERE kind = "
                    "'mail-snapshot'").fetchone()[0]
    con.close()
    return n


def no_bodies(store):
    """Delete the stored bodies: a run that read the old messages again
    would map them without their K: lines and changelogs."""
    con = sqlite3.connect(store)
    con.execute("DELETE FROM message_bodies")
    con.commit()
    con.close()


add(old)
# the branch packed, and packed again after the new mail: the result kept
# for the old state must not be served for the new one (the epoch's head
# is read from packed-refs)
gitinbox.git(ep, "pack-refs", "--all")
store = os.path.join(tmp, "s.sqlite")
# the cold runs' answers, until the inbox or the tree changes
want = {(cmd, js): report(cmd, js, None) for cmd, js in COMMANDS}
eq(report("review", False, store), want["review", False],
   "review text: cold with a store equals --no-cache")
eq(snapshots(store), 1, "the map's answers are kept with the snapshot")

# nothing new, the results dropped: the old messages' answers come from
# the snapshot, not from their (deleted) bodies (the same run with the
# bodies kept could not tell)
shutil.copy(store, store + ".nb")
no_bodies(store + ".nb")
for cmd, js in COMMANDS:
    result_drop(store + ".nb")
    eq(report(cmd, js, store + ".nb"), want[cmd, js],
       f"{cmd} {js and '--json' or 'text'}: warm without the bodies "
       "equals --no-cache")

# after new mail, from a copy of the store each (the first run after the
# mail is the one that resumes): each command and format without the old
# bodies, and one format of each command with them
KEYED = [("review", True), ("pending", False)]
add(new)
gitinbox.git(ep, "pack-refs", "--all")
want = {(cmd, js): report(cmd, js, None) for cmd, js in COMMANDS}
for cmd, js in COMMANDS:
    for name in ("", ".nb") if (cmd, js) in KEYED else (".nb",):
        s = f"{store}{name}.{cmd}{js}"
        shutil.copy(store + name, s)
        if name:
            no_bodies(s)
        eq(report(cmd, js, s), want[cmd, js],
           f"{cmd} {js and '--json' or 'text'} after new mail equals "
           f"--no-cache{name and ' (old bodies deleted)'}")
states = {p["message_id"]: (p["state"], p["versions"]) for e in
          json.loads(want["review", True])["entries"]
          for p in e["patch_list"]}
eq(states["p3v1@example.com"][1], ["p3v1@example.com", "p3v2@example.com"],
   "the new v2 in a thread of its own is a version of the stored patch")
eq([states["p%dv1@example.com" % n][0] for n in (2, 7, 10)],
   ["accepted"] * 2 + ["rejected"],
   "new b4 ty notices accept stored patches; a NAK rejects")

# the same as an mbox file that grows (plain and .gz, a gzip member
# appended): its stored messages are handed out (resumed from its last
# stored message, which the new bytes did not continue), and the map's
# answers come with the snapshot.  Over 2 MiB: smaller files are read
# again whole.
BIG = ("From: Log <log@example.com>\nSubject: a long log\n"
       "Message-ID: <log@example.com>\n"
       "Date: Sun, 01 Jan 2023 00:00:00 +0000\n\n" +
       "".join("log line %06d of a long test log\n" % i
               for i in range(65000)))


def mbox(msgs):
    return "".join("From x@y Mon Jan  2 10:00:00 2023\n" + m + "\n"
                   for m in msgs).encode()


for gz in (False, True):
    import gzip
    path = os.path.join(tmp, "list.mbox" + (".gz" if gz else ""))
    pack = (lambda b: gzip.compress(b, mtime=0)) if gz else (lambda b: b)
    with open(path, "wb") as f:
        f.write(pack(mbox([BIG] + old)))
    ms = os.path.join(tmp, "m%d.sqlite" % gz)
    MBOX = [("review", True), ("pending", False)]

    def mreport(cmd, js, store):
        args = [cmd, "--tree", tree, "--archive", path,
                *(["--json"] if js else []),
                *(["--no-cache"] if store is None else ["--db", store])]
        r = run(*args)
        ok(r.rc == 0, " ".join(args[:1]) + " on an mbox exits 0", r.err)
        return r.out

    mreport("review", True, ms)  # the snapshot every command takes
    with open(path, "ab") as f:
        f.write(pack(mbox(new)))
    for cmd, js in MBOX:
        s = f"{ms}.{cmd}{js}"
        shutil.copy(ms, s)
        no_bodies(s)
        eq(mreport(cmd, js, s), mreport(cmd, js, None),
           f"{'.gz' if gz else 'mbox'}: {cmd} {js and '--json' or 'text'} "
           "after new mail equals --no-cache (old bodies deleted)")
    con = sqlite3.connect(f"{ms}.reviewTrue")
    eq(con.execute("SELECT count(*) FROM messages").fetchone()[0],
       len(old) + len(new) + 1, "each message stored once")
    con.close()

# answers made under other K: patterns, or without --foreign-subject,
# are not taken.  Each command starts from a copy of the store whose
# snapshot holds the other answers (the first run replaces it), in one
# format each: text and JSON print the same computed review.
result_drop(store)
write_maintainers(r"\bint\b")
for cmd, js in KEYED:
    s = f"{store}.k.{cmd}"
    shutil.copy(store, s)
    eq(report(cmd, js, s), report(cmd, js, None),
       f"{cmd} {js and '--json' or 'text'}: after a K: change equals "
       "--no-cache")
for cmd, js in KEYED:
    eq(report(cmd, js, f"{store}.k.{cmd}", "--foreign-subject", "change 1"),
       report(cmd, js, None, "--foreign-subject", "change 1"),
       f"{cmd} {js and '--json' or 'text'} --foreign-subject equals "
       "--no-cache")

# a kept result, then the epoch's head moves (packed-refs again) with a
# message that leaves the window as it was (--until): only the head says
# the archive changed, and the result kept for the old head is not served
s = store + ".head"
shutil.copy(store, s)
report("pending", True, s, "--until", "2023-02-01")
add([reply(11, 25, "NAK, not this either.")])
gitinbox.git(ep, "pack-refs", "--all")
moved = report("pending", True, None, "--until", "2023-02-01")
eq(report("pending", True, s, "--until", "2023-02-01"), moved,
   "pending --json: the head moved in packed-refs, not the kept result")
done()
