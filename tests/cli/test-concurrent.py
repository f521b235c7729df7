#!/usr/bin/env python3
"""Runs that start cold on one store at once (issue 41, item 2): six
`mail stats` of one mbox, six of one public-inbox v2 inbox, six `review`
runs, all through one store.  Each run reads the whole archive; the store
must keep one copy of it, so that every later run counts each message
once.  On main 2f54260 the store kept 11,000-30,000 of 5,000 messages."""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(__file__))
from mstest import MAINTSTAT, run, ok, eq, done, tmpdir  # noqa: E402

T = tmpdir()
N = 5000          # enough for several batches of 1,000 a run writes
RUNS = 6


def message(i, prefix):
    return (f"From: Person {i % 50} <p{i % 50}@example.org>\n"
            f"Subject: [PATCH] change {i}\n"
            f"Date: Mon, 1 Jan 2024 00:00:00 +0000\n"
            f"Message-ID: <{prefix}{i}@example.org>\n\nbody {i}\n")


mbox = os.path.join(T, "list.mbox")
with open(mbox, "w") as f:
    for i in range(N):
        f.write("From x@y Mon Jan  1 00:00:00 2024\n" + message(i, "m") +
                "\n")


def epoch(root, n, msgs):
    """A v2 epoch of one commit per message, through git fast-import."""
    repo = os.path.join(root, "git", f"{n}.git")
    subprocess.run(["git", "init", "-q", "--bare", repo], check=True)
    out = []
    for k, m in enumerate(msgs):
        out.append(f"commit refs/heads/master\nmark :{k + 1}\n"
                   "committer c <c@x> 1578301200 +0000\ndata 1\nm\n")
        if k:
            out.append(f"from :{k}\n")
        out.append(f"M 100644 inline m\ndata {len(m)}\n{m}\n")
    subprocess.run(["git", "--git-dir", repo, "fast-import", "--quiet"],
                   input="".join(out).encode(), check=True)
    subprocess.run(["git", "--git-dir", repo, "symbolic-ref", "HEAD",
                    "refs/heads/master"], check=True)


inbox = os.path.join(T, "inbox")
epoch(inbox, 0, [message(i, "v") for i in range(N // 2)])
epoch(inbox, 1, [message(i, "v") for i in range(N // 2, N)])

tree = os.path.join(T, "tree")
os.makedirs(tree)
with open(os.path.join(tree, "MAINTAINERS"), "w") as f:
    f.write("ALPHA\nM:\tPerson 1 <p1@example.org>\nS:\tMaintained\n"
            "F:\talpha/\n")


def at_once(args):
    """RUNS runs of args started together; their (rc, stdout, stderr)."""
    ps = [subprocess.Popen([MAINTSTAT, *args], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE) for _ in range(RUNS)]
    got = []
    for p in ps:
        out, err = p.communicate(timeout=300)
        got.append((p.returncode, out.decode(), err.decode()))
    return got


def first_line(text):
    return text.split("\n", 1)[0]


for name, archive in (("mbox", mbox), ("v2 inbox", inbox)):
    db = os.path.join(T, f"{name[:2]}.sqlite")
    got = at_once(["mail", "stats", "--db", db, archive])
    eq([(rc, first_line(out), err) for rc, out, err in got],
       [(0, f"messages: {N}", "")] * RUNS,
       f"{name}: six cold runs at once each count {N} messages, silently")
    r = run("mail", "stats", "--db", db, archive)
    eq((r.rc, first_line(r.out)), (0, f"messages: {N}"),
       f"{name}: the store holds one copy (a later run counts {N})")

# review reads bodies: its runs write the archive too, and a later
# `mail stats` through the same store counts what they kept
db = os.path.join(T, "review.sqlite")
for name, archive in (("mbox", mbox), ("v2 inbox", inbox)):
    got = at_once(["review", "--tree", tree, "--archive", archive, "--db",
                   db])
    lines = [[x for x in out.split("\n") if x.startswith("Archives:")]
             for _, out, _ in got]
    eq([(rc, err) for rc, _, err in got], [(0, "")] * RUNS,
       f"review of the {name}: six cold runs at once exit 0")
    ok(all(x and f"({N:,} messages" in x[0] for x in lines),
       f"review of the {name}: each run's Archives: line counts {N:,}",
       lines)
    r = run("mail", "stats", "--db", db, archive)
    eq((r.rc, first_line(r.out)), (0, f"messages: {N}"),
       f"review of the {name}: the store holds one copy")
    r = run("review", "--tree", tree, "--archive", archive, "--db", db)
    ok(r.rc == 0 and f"({N:,} messages" in r.out,
       f"review of the {name}: a later run's Archives: line counts {N:,}",
       r.out + r.err)

done()
