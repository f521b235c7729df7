#!/usr/bin/env python3
"""Options that mean the same on every command: --threads N on each
command that does parallel work (and only there), --maintainers FILE and
--find-maintainer-files wherever MAINTAINERS is read, --archive repeated
for several archives; and link's text report starts with its context as
the other reports do.  On the planted repository and list of
fixtures/gen/gen-review.py."""
import json
import os
import re
import signal
import subprocess
import sys
sys.path.insert(0, os.path.dirname(__file__))
from mstest import MAINTSTAT, run, ok, eq, done, tmpdir, gen_review  # noqa

tmp = tmpdir()
repo, mbox = gen_review(tmp)

# --- --threads: listed by exactly the commands that do parallel work ---
r = run("--help")
commands = re.findall(r"^  ([a-z]+) ", r.out.split("\nExamples:")[0], re.M)
PARALLEL = {"maintainers", "coverage", "activity", "areas", "recruit",
            "urgent",
            "retire",
            "identities", "store", "mail", "link", "review", "report",
            "pending", "people"}
for cmd in commands:
    args = [cmd, "stats"] if cmd == "mail" else [cmd]
    h = run(*args, "--help").out
    eq("--threads N" in h, cmd in PARALLEL,
       f"{cmd} --help {'lists' if cmd in PARALLEL else 'does not list'} "
       "--threads")
    if cmd in PARALLEL:
        ok("default 0: one per processor" in re.sub(r"\s+", " ", h),
           f"{cmd}: --threads says its default, the same words", h)
r = run("fetch", "--threads", "http://127.0.0.1:1/x/", "-o",
        os.path.join(tmp, "x.mbox"))
eq(r.rc, 2, "fetch has no --threads (its thread switch is --whole-threads)")

# --- --max-message-size, --max-index-size: only where mail is read ---
MAIL = {"maintainers", "activity", "urgent", "retire", "identities", "mail",
        "link", "review", "report", "pending", "people", "recruit"}
for cmd in commands + ["mail show", "store list"]:
    args = cmd.split() + (["stats"] if cmd == "mail" else [])
    h = run(*args, "--help").out
    eq(("--max-message-size MIB" in h, "--max-index-size MIB" in h),
       (cmd.split()[0] in MAIL,) * 2,
       f"{cmd} --help {'lists' if cmd.split()[0] in MAIL else 'does not list'}"
       " the limits of reading mail")
for cmd in ("sections", "entries", "coverage", "areas", "store"):
    r = run(cmd, "--max-message-size", "8", "--repo", repo)
    ok(r.rc == 2 and "unknown or incomplete option '--max-message-size'"
       in r.err, f"{cmd} refuses --max-message-size", r.err)
r = run("review", "--repo", repo, "--no-cache", "--archive", mbox,
        "--max-message-size", "8", "--max-index-size", "64", "--json")
eq(r.rc, 0, "review takes both limits")
r = run("review", "--repo", repo, "--no-cache", "--archive", mbox,
        "--max-index-size", "0")
ok(r.rc == 2 and "--max-index-size takes 1 to" in r.err,
   "review --max-index-size 0: a usage error", r.err)

# --- a usage error names the command typed, also where its options are
# review's (pending, report, people run review's parser and checks) ---
for cmd in ("review", "pending", "report", "people"):
    site = ["-o", os.path.join(tmp, "site")] if cmd == "report" else []
    r = run(cmd, "--repo", repo, "--no-cache", "--target", "0",
            "--archive", mbox, *site)
    ok(r.rc == 2 and f"Try 'maintstat {cmd} --help'" in r.err,
       f"{cmd} --target 0: its usage error points to its own help", r.err)

base = ["activity", "--repo", repo, "--no-cache", "--json",
        "--min-commits", "0"]
ref = run(*base)
eq(ref.rc, 0, "activity --json exits 0")
for n in ("1", "3", "0"):
    r = run(*base, "--threads", n)
    eq((r.rc, r.out), (0, ref.out), f"activity --threads {n}: the same "
       "report")
for bad in ("-1", "x", "1025", "99999999999999999999"):
    r = run(*base, "--threads", bad)
    ok(r.rc == 2 and "--threads" in r.err,
       f"--threads {bad}: a usage error naming the option", r.err)
r = run("mail", "stats", "--no-cache", "--threads", "2", "--json", mbox)
r1 = run("mail", "stats", "--no-cache", "--json", mbox)
eq((r.rc, r.out), (0, r1.out), "mail stats --threads 2: the same counts")
r = run("coverage", "--repo", repo, "--threads", "1", "--json")
r1 = run("coverage", "--repo", repo, "--json")
eq((r.rc, r.out), (0, r1.out), "coverage --threads 1: the same report")


def tasks_mid_walk(args):
    """Run maintstat to a known point of its walk and count its threads
    there: the store's first commit of records (MS_TEST_STOP_AT_COMMIT=1
    stops the run with SIGSTOP).  The walk's workers run at most 4,096
    commits (its WINDOW) ahead of what the store has taken, so with
    12,000 commits none can have finished there, and all were started
    before the first record was delivered.  (39ec896: with 3,000 commits,
    under ASan, they had all finished before that commit; sampling /proc
    while the run goes on misses them on a fast machine.)"""
    db = os.path.join(tmp, "tasks.sqlite")
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(db + suffix):
            os.unlink(db + suffix)
    p = subprocess.Popen([MAINTSTAT, *args, "--db", db],
                         stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL,
                         env=dict(os.environ, MS_TEST_STOP_AT_COMMIT="1"))
    _, status = os.waitpid(p.pid, os.WUNTRACED)
    n = 0
    if os.WIFSTOPPED(status):
        n = len(os.listdir(f"/proc/{p.pid}/task"))
        p.send_signal(signal.SIGKILL)
    p.wait()
    return n


# the walk starts exactly N diff workers, besides the main thread and
# the revwalk thread (and glib's own): never more than N + 3 at once
big = os.path.join(tmp, "big")
subprocess.run(["git", "init", "-q", big], check=True)
MAINT = b"BIG\nM:\tB <b@example.org>\nF:\tf/\n"


def blob(path, data):
    return b"M 100644 inline %s\ndata %d\n%s\n" % (path.encode(), len(data),
                                                 data)


stream = []
for i in range(12000):
    msg = b"c%d" % i
    stream.append(b"commit refs/heads/master\nmark :%d\n" % (i + 1) +
                  b"committer B <b@example.org> %d +0000\n" % (1600000000 + i)
                  + b"data %d\n%s\n" % (len(msg), msg) +
                  (b"from :%d\n" % i if i else b"") +
                  blob(f"f/{i % 50}.c", b"%d" % i) +
                  (blob("MAINTAINERS", MAINT) if not i else b""))
subprocess.run(["git", "-C", big, "fast-import", "--quiet"],
               input=b"".join(stream), check=True)
subprocess.run(["git", "-C", big, "reset", "-q", "--hard", "master"],
               check=True)
one = tasks_mid_walk(["activity", "--repo", big, "--threads", "1"])
four = tasks_mid_walk(["activity", "--repo", big, "--threads", "4"])
ok(0 < one <= 4, f"--threads 1: at most 4 threads at once (saw {one})")
ok(four >= one + 3, f"--threads 4: three more workers (saw {four} "
   f"against {one})")

# --- --maintainers FILE, --find-maintainer-files ---
alt = os.path.join(tmp, "ALT-MAINTAINERS")
with open(alt, "w") as f:
    f.write("ALTERNATIVE FOO\nM:\tAlt Person <alt@example.org>\n"
            "S:\tMaintained\nF:\tdrivers/foo/\n")
for cmd, extra in (("activity", ["--min-commits", "0"]),
                   ("urgent", ["--min-commits", "0", "--nomaint"]),
                   ("identities", []),
                   ("review", ["--archive", mbox])):
    r = run(cmd, "--repo", repo, "--no-cache", "--maintainers", alt,
            "--json", *extra)
    eq(r.rc, 0, f"{cmd} --maintainers FILE exits 0")
    text = r.out
    if cmd == "identities":
        r = run(cmd, "--repo", repo, "--no-cache", "--maintainers", alt)
        text = r.out
    ok("FOO DRIVER" not in text,
       f"{cmd} --maintainers: the revision's entries are not read", text)
    if cmd in ("activity", "review"):
        names = [e["name"] for e in json.loads(r.out)["entries"]]
        eq(names, ["ALTERNATIVE FOO"], f"{cmd} --maintainers: the file's "
           "entry")
# ... and in a repository with no MAINTAINERS at all (LTP has none)
bare = os.path.join(tmp, "nomaint")
os.makedirs(os.path.join(bare, "drivers", "foo"))
with open(os.path.join(bare, "drivers", "foo", "a.c"), "w") as f:
    f.write("int a;\n")
for args in (["init", "-q"], ["add", "-A"],
             ["-c", "user.name=Alt Person", "-c", "user.email=alt@example.org",
              "commit", "-q", "-m", "foo: a"]):
    subprocess.run(["git", "-C", bare] + args, check=True)
for cmd, extra in (("activity", ["--min-commits", "0"]),
                   ("urgent", ["--min-commits", "0", "--nomaint"]),
                   ("identities", []),
                   ("review", ["--archive", mbox])):
    r = run(cmd, "--repo", bare, "--no-cache", "--maintainers", alt,
            "--json", *extra)
    ok(r.rc == 0, f"{cmd} --maintainers FILE in a repository without "
       "MAINTAINERS exits 0", r.err)
# retire writes patches to the revision's MAINTAINERS: without one it
# stops, saying so
r = run("retire", "--repo", bare, "--no-cache", "--maintainers", alt,
        "--min-commits", "0", "--no-credits", "--from", "A <a@example.org>",
        "--output-dir", tmp)
ok(r.rc == 1 and "has no file 'MAINTAINERS'" in r.err, "retire without "
   "the revision's MAINTAINERS: exit 1, named", r.err)
r = run("activity", "--repo", repo, "--no-cache", "--maintainers", alt,
        "--min-commits", "0")
ok(f"MAINTAINERS: {alt}" in r.out, "activity's context names the file",
   r.out[:400])
# the saved model of a warm run is not reused for other MAINTAINERS
db = os.path.join(tmp, "store.sqlite")
r1 = run("activity", "--repo", repo, "--db", db, "--json")
r2 = run("activity", "--repo", repo, "--db", db, "--json",
         "--maintainers", alt)
r3 = run("activity", "--repo", repo, "--db", db, "--json")
eq([e["name"] for e in json.loads(r2.out)["entries"]], ["ALTERNATIVE FOO"],
   "warm run with --maintainers: the file's entries, not the saved model")
eq(r3.out, r1.out, "and without it again: the revision's")
r = run("activity", "--repo", repo, "--no-cache", "--maintainers",
        os.path.join(tmp, "nonexistent"))
ok(r.rc == 1 and "nonexistent" in r.err, "a missing --maintainers file: "
   "exit 1, named", r.err)

sub = os.path.join(tmp, "sub")
subprocess.run(["git", "clone", "-q", repo, sub], check=True)
os.makedirs(os.path.join(sub, "drivers", "foo"), exist_ok=True)
with open(os.path.join(sub, "drivers", "foo", "MAINTAINERS"), "w") as f:
    f.write("FOO SUBDRIVER\nM:\tSub Person <sub@example.org>\n"
            "S:\tMaintained\nF:\tdrivers/foo/\n")
g = ["git", "-C", sub, "-c", "user.name=T", "-c", "user.email=t@example.org"]
subprocess.run(g + ["add", "."], check=True)
subprocess.run(g + ["commit", "-q", "-m", "sub MAINTAINERS"], check=True)
for cmd, extra in (("activity", ["--min-commits", "0"]),
                   ("review", ["--archive", mbox])):
    r = run(cmd, "--repo", sub, "--no-cache", "--json", *extra)
    names = [e["name"] for e in r.json()["entries"]]
    ok("FOO SUBDRIVER" not in names, f"{cmd}: a */MAINTAINERS is not read "
       "by default")
    r = run(cmd, "--repo", sub, "--no-cache", "--json",
            "--find-maintainer-files", *extra)
    names = [e["name"] for e in r.json()["entries"]]
    ok("FOO SUBDRIVER" in names and "FOO DRIVER" in names,
       f"{cmd} --find-maintainer-files: drivers/foo/MAINTAINERS too",
       names)

# --- several archives: --archive A --archive B reads both ---
with open(mbox, "rb") as f:
    msgs = re.split(rb"(?m)^(?=From )", f.read())
msgs = [m for m in msgs if m]
half = len(msgs) // 2
a, b = os.path.join(tmp, "a.mbox"), os.path.join(tmp, "b.mbox")
with open(a, "wb") as f:
    f.write(b"".join(msgs[:half]))
with open(b, "wb") as f:
    f.write(b"".join(msgs[half:]))
for cmd in ("review", "link"):
    whole = run(cmd, "--repo", repo, "--no-cache", "--json",
                "--archive", mbox)
    two = run(cmd, "--repo", repo, "--no-cache", "--json",
              "--archive", a, "--archive", b)
    eq(two.rc, 0, f"{cmd} with two --archive exits 0")
    strip = lambda d: {k: v for k, v in d.items() if k != "list_url"}  # noqa
    eq(strip(two.json()), strip(whole.json()),
       f"{cmd}: the two halves give the report of the whole archive")
r = run("mail", "stats", "--no-cache", "--json", a, b)
eq(r.json()["messages"], len(msgs), "mail stats A B: every message")
r = run("review", "--repo", repo, "--no-cache", "--archive", a, b)
ok(r.rc == 2 and "--archive" in r.err,
   "review --archive A B: B is no entry; the message says to repeat "
   "--archive", r.err)

# --- --limit N on the commands whose rows are the answer: the first N
# rows in the command's order, in text and JSON; text says how many
# were left out; by default every row ---
def rows_of(cmd, doc):
    if cmd == "link":
        return [("l", x["commit"]) for x in doc["links"]] + \
            [("u", x) for x in doc["unlinked_commits"]]
    key = "people" if cmd == "identities" else "entries"
    return [x.get("email", x.get("name")) for x in doc[key]]


for cmd, extra in (("link", ["--archive", mbox]),
                   ("activity", ["--min-commits", "0"]),
                   ("urgent", ["--min-commits", "0", "--inactive-after",
                               "1d"]),
                   ("identities", [])):
    args = [cmd, "--repo", repo, "--no-cache", *extra]
    full = run(*args, "--json")
    eq(full.rc, 0, f"{cmd} --json exits 0")
    every = rows_of(cmd, full.json()) if full.rc == 0 else []
    ok(len(every) > 2, f"{cmd}: more than 2 rows to cut", every)
    cut = run(*args, "--json", "--limit", "2")
    eq(rows_of(cmd, cut.json()) if cut.rc == 0 else cut.err, every[:2],
       f"{cmd} --limit 2 --json: the first 2 rows")
    text = run(*args, "--limit", "2")
    ok(text.rc == 0 and f"... and {len(every) - 2} more not shown "
       "(--limit)" in text.out, f"{cmd} --limit 2: text says how many "
       "were left out", text.out[-400:] + text.err)
    whole = run(*args)
    ok(whole.rc == 0 and "not shown" not in whole.out,
       f"{cmd}: every row by default", whole.out[-300:])

# --- link's text starts with its context ---
r = run("link", "--repo", repo, "--no-cache", "--archive", mbox)
eq(r.rc, 0, "link exits 0")
head = r.out.split("\n\n")[0]
ok(head.startswith(f"Archives: {mbox} (") and " messages, " in head,
   "link: the archive, its messages and their dates first", head)
ok(f"\nRepository {repo} at HEAD (" in head, "  the repository and revision",
   head)
ok("\nWindow: commits dated the first commit to the last (UTC)" in head,
   "  the window", head)
ok("\nMethods: link-trailer, " in head, "  the methods", head)
r = run("link", "--repo", repo, "--no-cache", "--archive", mbox,
        "--since", "2020-01-01", "--ignore-link-trailers")
ok("Window: commits dated 2020-01-01 to the last (UTC)" in r.out and
   "(trailers ignored)" in r.out, "link: --since and "
   "--ignore-link-trailers in the context", r.out[:500])
done()
