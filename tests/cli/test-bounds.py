#!/usr/bin/env python3
"""Costs that grew faster than their input (issue 41, items 12 and 13):
one name written by thousands of addresses, with one pair of them kept
apart, and a MAINTAINERS file of millions of F: lines.  Each check plants
the shape and bounds the CPU time or the memory of the run; main 2f54260
took about a minute of CPU for the first."""
import os
import subprocess
import sys
import tempfile
import threading

sys.path.insert(0, os.path.dirname(__file__))
from mstest import MAINTSTAT, ok, eq, done, tmpdir  # noqa: E402

T = tmpdir()
ASAN = "asan" in os.environ.get("MAINTSTAT", "") or \
    "asan" in os.environ.get("MS_BUILD_ROOT", "")


def timed(args, timeout=120, stdin=None, cwd=None):
    """Run maintstat; (rc, stdout, stderr, CPU seconds, peak RSS in KiB)
    of that one run (os.wait4).  A run past `timeout` seconds of wall
    time is killed (rc None).  The peak counts this process's memory
    before the exec too: the test keeps its own small."""
    with tempfile.TemporaryFile() as o, tempfile.TemporaryFile() as e:
        p = subprocess.Popen([MAINTSTAT, *args], stdout=o, stderr=e,
                             stdin=stdin, cwd=cwd)
        timer = threading.Timer(timeout, p.kill)
        timer.start()
        _, status, ru = os.wait4(p.pid, 0)
        killed = not timer.is_alive()
        timer.cancel()
        p.returncode = os.waitstatus_to_exitcode(status)
        o.seek(0)
        e.seek(0)
        rc = None if killed else p.returncode
        return (rc, o.read().decode(), e.read().decode(),
                ru.ru_utime + ru.ru_stime, ru.ru_maxrss)


# -- 13a: one name, thousands of addresses, one pair kept apart ----------
# The pair reviewed each other's patches under one name: two people.
# Everyone else writes the name from an address of their own and joins
# the first of them by name.  Joining each address once weighed every
# address already joined: quadratic (12,000 senders: ~60 s of CPU).
N = 12000
names = os.path.join(T, "names")
os.makedirs(os.path.join(names, "tree"))
with open(os.path.join(names, "tree", "MAINTAINERS"), "w") as f:
    f.write("ALPHA\nM:\tWei Zhang <wz0@a.example>\nS:\tMaintained\n"
            "F:\talpha/\n")
DIFF = ("---\n alpha/a.c | 1 +\ndiff --git a/alpha/a.c b/alpha/a.c\n"
        "--- a/alpha/a.c\n+++ b/alpha/a.c\n@@ -1 +1,2 @@\n x\n+y\n")


def msg(mid, email, subject, body, irt=None):
    head = (f"From x@y Mon Jan  1 00:00:00 2024\nFrom: Wei Zhang <{email}>\n"
            f"To: list@example.org\nSubject: {subject}\n"
            f"Date: Mon, 1 Jan 2024 00:00:00 +0000\n"
            f"Message-ID: <{mid}@example.org>\n")
    if irt:
        head += f"In-Reply-To: <{irt}@example.org>\n"
    return head + "\n" + body + "\n"


with open(os.path.join(names, "list.mbox"), "w") as f:
    for me, other, p in (("wz0@a.example", "wz1@b.example", "pa"),
                         ("wz1@b.example", "wz0@a.example", "pb")):
        f.write(msg(p, me, f"[PATCH] alpha: {p}",
                    f"change\n\nSigned-off-by: Wei Zhang <{me}>\n{DIFF}"))
        f.write(msg(p + "-r", other, f"Re: [PATCH] alpha: {p}",
                    f"> change\n\nReviewed-by: Wei Zhang <{other}>\n",
                    irt=p))
    for i in range(2, N):
        f.write(msg(f"m{i}", f"wz{i}@c.example", f"note {i}", "x\n"))

rc, out, err, cpu, _ = timed(["identities", "--tree",
                              os.path.join(names, "tree"), "--archive",
                              os.path.join(names, "list.mbox"),
                              "--no-cache"], timeout=90)
eq(rc, 0, f"identities of {N:,} senders of one name exits 0 in time")
BOUND = 30 if ASAN else 10
ok(cpu < BOUND, f"{N:,} senders of one name: {cpu:.1f} s of CPU, under "
   f"{BOUND} s (near linear; was ~60 s)")
ok(f"the name 'wei zhang' joins {N - 1} addresses" in err,
   "every address but the kept-apart one joins the listed Wei Zhang", err)
ok("  not wz1@b.example: same name, another person (review of "
   "pa@example.org in pa-r@example.org; review of pb@example.org in "
   "pb-r@example.org)\n" in out and
   "Wei Zhang <wz1@b.example>\n" in out,
   "the pair that reviewed each other stays two people, with the evidence",
   out[-2000:])


# -- 12: MAINTAINERS of millions of fields -------------------------------
# 25 MB of one-line F: patterns (2.6 million) took 726 MB; a file of
# more than 200,000 fields (the kernel's has 17,466) is refused, at once.
big = os.path.join(T, "big")
os.makedirs(big)
with open(os.path.join(big, "MAINTAINERS"), "w") as f:
    f.write("BIG\nM:\tP <p@example.org>\nS:\tMaintained\n")
    for c in range(0, 2_600_000, 100_000):
        f.write("".join(f"F:\t{k:x}\n" for k in range(c, c + 100_000)))
rc, out, err, cpu, rss = timed(["entries", "--tree", big], timeout=120)
eq(rc, 1, "entries: a MAINTAINERS of 2.6 million F: lines is refused")
ok(err.startswith("maintstat: ") and "MAINTAINERS:" in err and
   "more than 200000 fields" in err and err.count("\n") == 1,
   "one line says where and why", err)
if not ASAN:
    ok(rss < 100 * 1024, f"and refusing it takes {rss // 1024} MB, under "
       "100 MB (it took 481-726 MB)")
# what is allowed stays cheap: 190,000 F: lines, ten times the kernel's
with open(os.path.join(big, "MAINTAINERS"), "w") as f:
    f.write("BIG\nM:\tP <p@example.org>\nS:\tMaintained\n")
    for c in range(0, 190_000, 10_000):
        f.write("".join(f"F:\t{k:x}\n" for k in range(c, c + 10_000)))
rc, out, err, cpu, rss = timed(["entries", "--tree", big], timeout=120)
eq(rc, 0, "entries: 190,000 F: lines are read")
if not ASAN:
    ok(rss < 100 * 1024, f"in {rss // 1024} MB, under 100 MB")

# -- 13b: standard input is bounded --------------------------------------
with open("/dev/zero", "rb") as z:
    rc, out, err, cpu, rss = timed(["maintainers", "-"], stdin=z,
                                   timeout=120,
                                   cwd=os.path.join(names, "tree"))
eq(rc, 1, "maintainers - < /dev/zero stops with exit 1")
ok("64 MiB" in err, "and says why", err)
if not ASAN:
    ok(rss < 200 * 1024, f"in {rss // 1024} MB, under 200 MB (it grew to "
       "2 GB)")

done()
