#!/usr/bin/env python3
"""The manners every command shares: a closed standard output (| head) ends
quietly with status 0; -q/--quiet silences warnings but not errors; each
distinct warning is printed once; warnings about a revision's MAINTAINERS
name it REV:MAINTAINERS:LINE; Xen's V: field is known; durations and dates
mean the same in every option."""
import os
import subprocess
import sys
sys.path.insert(0, os.path.dirname(__file__))
from mstest import MAINTSTAT, run, ok, eq, done, tmpdir  # noqa: E402

tmp = tmpdir()
tree = os.path.join(tmp, "tree")
os.makedirs(os.path.join(tree, "drivers", "foo"))
MAINT = ("FOO DRIVER\n"
         "M:\tFay <fay@example.org>\n"
         "Z:\tnot a field\n"          # line 3: unknown
         "F:\tdrivers/foo/\n"
         "\n"
         "XEN HYPERVISOR\n"
         "M:\tXen <x@example.org>\n"
         "V:\txen-maintainers-1\n"     # Xen's version field
         "F:\txen/\n")
with open(os.path.join(tree, "MAINTAINERS"), "w") as f:
    f.write(MAINT)
with open(os.path.join(tree, "drivers", "foo", "foo.c"), "w") as f:
    f.write("int foo;\n")
# Xen's entry has a file (an entry without one gets no verdict), which
# Xen never touched
os.makedirs(os.path.join(tree, "xen"))
with open(os.path.join(tree, "xen", "xen.c"), "w") as f:
    f.write("int xen;\n")
git = ["git", "-C", tree, "-c", "user.name=Fay", "-c",
       "user.email=fay@example.org"]
subprocess.run(git + ["init", "-q"], check=True)
subprocess.run(git + ["add", "."], check=True)
subprocess.run(git + ["commit", "-q", "-m", "one"], check=True)
subprocess.run(git + ["tag", "v1"], check=True)

# Warnings: named, once, V: known, silenced by -q
r = run("sections", "--tree", tree, "drivers/foo/foo.c")
eq(r.rc, 0, "sections exits 0 with a warning")
ok("MAINTAINERS:3: unknown field 'Z:'" in r.err, "the unknown field is "
   "named with file:line", r.err)
ok("'V:'" not in r.err, "Xen's V: is not an unknown field", r.err)
r = run("sections", "--tree", tree, "--maintainers",
        os.path.join(tree, "MAINTAINERS"), "--maintainers",
        os.path.join(tree, "MAINTAINERS"), "drivers/foo/foo.c")
eq(r.err.count("unknown field 'Z:'"), 1,
   "the same warning twice is printed once")
for q in ("-q", "--quiet"):
    r = run("sections", q, "--tree", tree, "drivers/foo/foo.c")
    eq((r.rc, r.err), (0, ""), f"{q}: no warnings")
    ok("FOO DRIVER" in r.out, f"{q}: the report is still printed")
r = run("sections", "-q", "--tree", os.path.join(tmp, "nope"), "x.c")
ok(r.rc == 1 and r.err.startswith("maintstat: "),
   "-q: an error is still printed", r.err)
r = run("sections", "--repo", tree, "--rev", "v1", "drivers/foo/foo.c")
ok("v1:MAINTAINERS:3: unknown field" in r.err,
   "a revision's MAINTAINERS is named REV:MAINTAINERS:LINE", r.err)
ok(tree not in r.err, "...not by a work-tree path", r.err)
r = run("sections", "--repo", tree, "drivers/foo/foo.c")
ok("HEAD:MAINTAINERS:3: unknown field" in r.err,
   "without --rev: HEAD:MAINTAINERS:LINE", r.err)
r = run("activity", "--repo", tree, "--no-cache")
eq(r.err.count("unknown field 'Z:'"), 1,
   "activity: the warning once, though MAINTAINERS is read twice")
ok("v1:" not in r.err and "HEAD:MAINTAINERS:3" in r.err,
   "activity names HEAD:MAINTAINERS too", r.err)

# | head: a closed standard output ends quietly with status 0
paths = b"drivers/foo/foo.c\n" * 40000
for args in (["sections", "-q", "--tree", tree, "-"],
             ["sections", "-q", "--json", "--tree", tree, "-"]):
    p = subprocess.Popen([MAINTSTAT, *args], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    import threading
    t = threading.Thread(target=lambda: (p.stdin.write(paths),
                                         p.stdin.close()))
    t.start()
    first = p.stdout.readline()
    p.stdout.close()
    t.join()
    err = p.stderr.read()
    rc = p.wait(timeout=60)
    eq((rc, err, bool(first)), (0, b"", True),
       f"{' '.join(args[:2])} | head: status 0, nothing on stderr")
p = subprocess.run(f"'{MAINTSTAT}' help | head -1", shell=True,
                   capture_output=True, text=True)
eq((p.returncode, p.stderr), (0, ""), "maintstat help | head -1")

# durations and dates: one meaning in every option
for when in ("2099", "2099-01-01", "1y", "18m", "2w", "48h", "14d",
             "1 year ago", "6 months ago", "2 weeks ago", "v1"):
    r = run("activity", "--repo", tree, "--no-cache", "--since", when)
    ok((r.rc == 0 or "lies outside the history" in r.err)
       and "is neither" not in r.err and "not a duration" not in r.err,
       f"--since {when!r} is understood", r.err)
r = run("activity", "--repo", tree, "--no-cache", "--since", "2099")
eq(r.rc, 2, "a window after the history is a usage error")
ok("lies outside the history, which runs from" in r.err,
   "...naming the history's real range", r.err)
r = run("activity", "--repo", tree, "--no-cache", "--until", "1999")
eq(r.rc, 2, "a window before the history is a usage error")
r = run("activity", "--repo", tree, "--no-cache", "--json", "--until",
        "2099")
eq(r.rc, 0, "--until 2099: exit 0")
ok("after the last commit" in r.err and "ends there instead" in r.err,
   "--until 2099: a warning that the window ends at the last commit", r.err)
inactive = [p["name"] for e in r.json()["entries"] for p in e["people"]
            if p["inactive"]]
eq(inactive, ["Xen"], "--until 2099: Fay, who made the last commit, is not "
   "called inactive for the future (Xen never committed)")
for opt, cmd in (("--inactive-after", "activity"),
                 ("--inactive-after", "retire"),
                 ("--inactive-after", "urgent")):
    # one parser for every command: a date too (urgent took none)
    for d in ("5y", "18m", "2w", "14d", "48h", "2 weeks", "2020-01-01"):
        extra = ["--output-dir", tmp, "--force", "--no-credits",
                 "--min-commits", "0"] if cmd == "retire" else []
        r = run(cmd, "--repo", tree, "--no-cache", opt, d, *extra)
        eq(r.rc, 0, f"{cmd} {opt} {d}")
    extra = ["--no-credits"] if cmd == "retire" else []
    r = run(cmd, "--repo", tree, "--no-cache", opt, "5 parsecs", *extra)
    eq(r.rc, 2, f"{cmd} {opt} '5 parsecs' is a usage error")
    r = run(cmd, "--repo", tree, "--no-cache", opt, "100001y", *extra)
    eq(r.rc, 2, f"{cmd} {opt} 100001y: out of range, a usage error")
r1 = run("urgent", "--repo", tree, "--no-cache", "--json", "--months", "3")
r2 = run("urgent", "--repo", tree, "--no-cache", "--json",
         "--inactive-after", "3m")
eq((r1.rc, r1.out), (0, r2.out), "urgent --months 3 is --inactive-after 3m")
r = run("urgent", "--repo", tree, "--months", "3", "--inactive-after", "3m")
eq(r.rc, 2, "--months and --inactive-after together: a usage error")

done()
