#!/usr/bin/env python3
"""maintstat sections and coverage on fixtures/maintainers: the planted
facts of its README, a bare git repository of the same tree, and every
bad-input case with its message and exit code."""
import os
import random
import shutil
import subprocess
import sys
sys.path.insert(0, os.path.dirname(__file__))
from mstest import SCHEMA, run, ok, eq, done, tmpdir, FIXTURES  # noqa: E402

FIX = os.path.join(FIXTURES, "maintainers")
FILES = ["drivers/alpha/core.c", "drivers/alpha/main.c",
         "drivers/alpha/legacy/old.c", "drivers/beta/b1.c",
         "drivers/beta/b2.c", "include/linux/beta.h", "arch/sun8i/board.c",
         "lib/orphan.c", "lib/other.c", "README"]

tree = tmpdir()
shutil.copy(os.path.join(FIX, "MAINTAINERS"), tree)
for f in FILES:
    os.makedirs(os.path.join(tree, os.path.dirname(f)), exist_ok=True)
    with open(os.path.join(tree, f), "w") as fp:
        fp.write(f"/* {f} */\n")

# --- sections -------------------------------------------------------------
r = run("sections", "--tree", tree, "--json", "drivers/alpha/core.c",
        "./drivers//alpha/legacy/old.c", "drivers/beta", "arch/sun8i/board.c")
eq(r.rc, 0, "sections exits 0")
eq(r.err, "", "no warnings on a good file")
doc = r.json()
eq(doc["schema_version"], SCHEMA, "schema_version")
got = {p["path"]: p["sections"] for p in doc["paths"]}
eq(got.get("drivers/alpha/core.c"),
   ["ALPHA DRIVER CORE", "ALPHA DRIVER", "THE REST"], "deepest entry first")
eq(got.get("drivers/alpha/legacy/old.c"), ["THE REST"],
   "X: drops ALPHA DRIVER; path normalized like canonpath")
eq(got.get("drivers/beta/"), ["BETA SUBSYSTEM", "BETA TOO", "THE REST"],
   "a directory gets a slash; equal depths in file order")
eq(got.get("arch/sun8i/board.c"), ["NAMES BY REGEX", "THE REST"], "N: regex")

r = run("sections", tree, "drivers/alpha/main.c")
eq(r.rc, 0, "TREE as first argument")
eq(r.out, "drivers/alpha/main.c\n  ALPHA DRIVER\n  THE REST\n\n",
   "text: one block per path, entry names only")
r = run("sections", "--tree", tree, "--full", "drivers/alpha/core.c")
ok("    M:\tCarol Core <carol@example.com>" in r.out, "--full shows fields",
   r.out)
r = run("sections", "--tree", tree, "--json", "-",
        stdin=b"lib/orphan.c\n\nREADME\n")
eq([p["path"] for p in r.json()["paths"]], ["lib/orphan.c", "README"],
   "'-' reads paths from stdin, blank lines skipped")
r = run("sections", "--tree", tree)
eq(r.rc, 2, "no path is a usage error")
r = run("sections", tree)
eq(r.rc, 2, "TREE without paths is a usage error")
ok("no PATH given after the tree" in r.err and tree in r.err,
   "TREE without paths: the missing PATH is named", r.err)
r = run("sections", "--tree", tree, "--json", "drivers/alpha/nosuch.c",
        "README")
eq(r.rc, 0, "a missing path among good ones: exit 0")
ok("'drivers/alpha/nosuch.c' is not a file or directory" in r.err,
   "the missing path is warned about", r.err)
eq([p["path"] for p in r.json()["paths"]], ["README"],
   "only the paths of the tree are answered")
r = run("sections", "--tree", tree, "drivers/alpha/nosuch.c", "../etc")
eq(r.rc, 1, "nothing in the tree: exit 1")
ok("none of the paths is in the tree" in r.err, "said so", r.err)

# --- coverage ---------------------------------------------------------------
r = run("coverage", "--tree", tree, "--json")
eq(r.rc, 0, "coverage exits 0")
c = r.json()
eq(c["files_total"], len(FILES) + 1, "files_total counts MAINTAINERS too")
eq(c["catch_all_entries"], ["THE REST"], "THE REST is the catch-all")
eq(sorted(c["uncovered"]["file_list"]),
   ["MAINTAINERS", "README", "drivers/alpha/legacy/old.c", "lib/orphan.c",
    "lib/other.c"], "uncovered files")
eq(c["uncovered"]["count"], 5, "uncovered count")
eq(c["uncovered"]["by_directory"][0], {"dir": "", "count": 2},
   "by_directory: most first, ties by name")
eq({d["dir"]: d["count"] for d in c["uncovered"]["by_directory"]},
   {"": 2, "lib": 2, "drivers/alpha/legacy": 1}, "by_directory counts")
eq(c["entries_without_files"], ["NO PATTERNS AT ALL"],
   "entries without F:/N:")
stale = [(s["entry"], s["key"], s["pattern"], s["line"])
         for s in c["stale_patterns"]]
eq(stale, [("BETA SUBSYSTEM", "F", "drivers/removed-long-ago/", 29)],
   "stale pattern with its line")
ok(c["stale_patterns"][0]["file"].endswith("MAINTAINERS"), "stale: file")
# overlaps: one row per entry; plain nesting left out unless asked
ov = {(o["entry"], x["name"]): (x["shared_files"], x["share"])
      for o in c["overlaps"] for x in o["others"]}
eq(ov.get(("BETA TOO", "BETA SUBSYSTEM")), (2, 1.0),
   "BETA TOO's files are all in BETA SUBSYSTEM")
eq(ov.get(("BETA SUBSYSTEM", "BETA TOO")), (2, 2 / 3),
   "2 of BETA SUBSYSTEM's 3 files are in BETA TOO")
ok(("ALPHA DRIVER CORE", "ALPHA DRIVER") not in ov,
   "an entry inside a broader entry's directory is left out", c["overlaps"])
eq((c["overlapping_entries"], c["nested_entries_left_out"]), (2, 1),
   "2 overlapping entries, 1 nested one left out")
eq(len(c["overlaps"]), len({o["entry"] for o in c["overlaps"]}),
   "each entry once, however many others hold its files")
r = run("coverage", "--tree", tree, "--json", "--all-overlaps")
c2 = r.json()
ov = {(o["entry"], x["name"]): (x["shared_files"], x["nested"])
      for o in c2["overlaps"] for x in o["others"]}
eq(ov.get(("ALPHA DRIVER CORE", "ALPHA DRIVER")), (1, True),
   "--all-overlaps: the nested entry, marked nested")
ok(("ALPHA DRIVER", "ALPHA DRIVER CORE") not in ov,
   "1 of 2 is not 'mostly' (over half)")
r = run("coverage", "--tree", tree)
ok("Files covered by no entry but catch-all ones: 5" in r.out,
   "text report", r.out)
ok("another entry: 2 (and 1 inside a broader entry's directory, left out"
   in r.out, "text: the overlap count is of entries, nesting named", r.out)
r = run("coverage", "--tree", tree, "--limit", "1")
ok(r.out.count(" files (") == 1 and "... and 1 more not shown (--limit)"
   in r.out, "--limit 1: one overlap, and how many were left out", r.out)
r = run("coverage", "--tree", tree, "--limit", "1", "--json")
eq(len(r.json()["overlaps"]), 1, "--limit applies to JSON when given")
r = run("coverage", tree, "--overlap-share", "1.5")
eq(r.rc, 2, "--overlap-share out of range is a usage error")

# --- the same tree as a bare git repository --------------------------------
work = tmpdir()
genv = dict(os.environ, GIT_AUTHOR_NAME="T", GIT_AUTHOR_EMAIL="t@example.com",
            GIT_COMMITTER_NAME="T", GIT_COMMITTER_EMAIL="t@example.com")


def git(*args, cwd=tree):
    subprocess.run(["git", *args], cwd=cwd, env=genv, check=True,
                   capture_output=True)


git("init", "-q")
git("add", "-A")
git("commit", "-qm", "one")
os.remove(os.path.join(tree, "lib/other.c"))
git("add", "-A")
git("commit", "-qm", "two")
bare = os.path.join(work, "bare.git")
git("clone", "-q", "--bare", tree, bare, cwd=work)
r = run("coverage", "--repo", bare, "--json")
eq(r.rc, 0, "coverage --repo on a bare repository")
eq(r.json()["files_total"], len(FILES), "HEAD has one file fewer")
r = run("coverage", "--repo", bare, "--rev", "HEAD~1", "--json")
eq(r.json()["files_total"], len(FILES) + 1, "--rev HEAD~1")
r = run("sections", "--repo", bare, "--json", "drivers/beta")
eq(r.json()["paths"][0]["path"], "drivers/beta/",
   "--repo: directories known from the git tree")
r = run("coverage", "--repo", bare, "--rev", "no-such-rev")
eq(r.rc, 1, "unknown revision exits 1")
ok("no-such-rev" in r.err and r.err.startswith("maintstat: "),
   "unknown revision named", r.err)
r = run("coverage", "--repo", tree + "/lib")
eq(r.rc, 1, "not a git repository exits 1")
ok("not a git repository" in r.err, "not a repository: said so", r.err)
r = run("coverage", "--tree", tree, "--repo", bare)
eq(r.rc, 2, "--tree with --repo is a usage error")

# --- bad input ----------------------------------------------------------------
empty = tmpdir()
r = run("coverage", "--tree", empty)
eq(r.rc, 1, "missing MAINTAINERS exits 1")
ok("cannot find 'MAINTAINERS'" in r.err, "missing MAINTAINERS named", r.err)
ok("--maintainers FILE" in r.err and "--find-maintainer-files" in r.err,
   "... and the options that name another (LTP has none at its top)",
   r.err)
r = run("coverage", "--tree", "/nonexistent/tree")
eq(r.rc, 1, "missing tree exits 1")
ok("cannot open tree '/nonexistent/tree'" in r.err, "tree named", r.err)
r = run("coverage", "--tree", os.path.join(tree, "README"))
eq(r.rc, 1, "a file as tree exits 1")
ok("Not a directory" in r.err, "not a directory", r.err)
r = run("sections", "--tree", tree, "--maintainers", "/nonexistent/M", "x")
eq(r.rc, 1, "missing --maintainers file exits 1")
ok("'/nonexistent/M'" in r.err, "missing --maintainers file named", r.err)

broken = os.path.join(FIX, "broken")
r = run("sections", "--tree", tree, "--json", "--maintainers",
        os.path.join(broken, "keys-before-entry"), "drivers/alpha/main.c")
eq(r.rc, 0, "keys before any entry: the run goes on")
ok("keys-before-entry:1: field before any entry name skipped" in r.err,
   "keys before entry: file:line", r.err)
eq(r.json()["paths"][0]["sections"], ["GOOD ENTRY"], "later entry used")

os.makedirs(os.path.join(tree, "arch/beta"), exist_ok=True)
with open(os.path.join(tree, "arch/beta/x.c"), "w") as fp:
    fp.write("/* matched by N: only */\n")
r = run("sections", "--tree", tree, "--json", "--maintainers",
        os.path.join(broken, "invalid-regex"), "arch/beta/x.c")
eq(r.rc, 0, "invalid N: regex: the run goes on")
ok("invalid-regex:7: invalid N: regex 'sun[4-9' skipped" in r.err,
   "invalid regex: file:line", r.err)
eq(r.json()["paths"][0]["sections"], ["BAD REGEX"], "the other N: works")

gen = tmpdir()
rnd = random.Random(42)
garbage = os.path.join(gen, "binary-garbage")
with open(garbage, "wb") as f:
    f.write(bytes(rnd.randrange(256) for _ in range(4096)) + b"\0\0\0")
r = run("sections", "--tree", tree, "--maintainers", garbage, "README")
eq(r.rc, 0, "binary garbage does not crash")
ok("no entries found" in r.err, "binary garbage: said so", r.err)
ok("binary-garbage:" in r.err, "binary garbage: file named", r.err)

longf = os.path.join(gen, "long-line")
with open(longf, "w") as f:
    f.write("LONG\nM:\tA <a@example.com>\nK:\t" + "x" * 70000 +
            "\nF:\tdrivers/alpha/\n")
r = run("sections", "--tree", tree, "--json", "--maintainers", longf,
        "drivers/alpha/main.c")
ok("long-line:3: line longer than 64 KiB skipped" in r.err, "long line",
   r.err)
eq(r.json()["paths"][0]["sections"], ["LONG"], "F: after the long line")

r = run("sections", "--tree", tree, "--json", "--maintainers",
        os.path.join(FIX, "MAINTAINERS"), "--maintainers",
        os.path.join(broken, "invalid-regex"), "drivers/alpha/core.c")
eq(r.json()["paths"][0]["sections"],
   ["ALPHA DRIVER CORE", "ALPHA DRIVER", "GOOD ENTRY", "THE REST"],
   "--maintainers is repeatable")

for d in (tree, work, empty, gen):
    shutil.rmtree(d, ignore_errors=True)
# --- regex backtracking: explicit limits, reported once, taken as unknown --
import time  # noqa: E402
bt = tmpdir()
with open(os.path.join(bt, "MAINTAINERS"), "w") as f:
    f.write("CATASTROPHIC\nM:\tA <a@example.com>\nN:\t(.*a){25}$\n\n"
            "CLASS\nM:\tB <b@example.com>\nF:\tdrivers/(*a){25}c\n\n"
            "PLAIN\nM:\tC <c@example.com>\nF:\tdrivers/\n")
names = [f"drivers/{'a' * 40}{i}b.c" for i in range(30)]
os.makedirs(os.path.join(bt, "drivers"))
for n in names:
    open(os.path.join(bt, n), "w").close()
t0 = time.time()
r = run("sections", "--tree", bt, "--json", *names)
took = time.time() - t0
eq(r.rc, 0, "a catastrophic N:/F: regex: sections still answers")
ok(took < 20, f"  promptly ({took:.1f} s for 30 paths)")
warn = [line for line in r.err.splitlines() if "too costly" in line]
ok(len(warn) == 2, "  each costly pattern reported once", r.err)
ok(any("MAINTAINERS:3:" in w and "N: pattern" in w and "30 paths" in w
       for w in warn), "  N: with its file:line and how many paths", r.err)
ok(any("MAINTAINERS:7:" in w and "F: pattern" in w for w in warn),
   "  F: with its file:line", r.err)
if r.rc == 0:
    got = {p["path"]: p["sections"] for p in r.json()["paths"]}
    ok(all("CATASTROPHIC" in got.get(n, []) for n in names),
       "  an unknown match is taken as a match, not as 'no match'",
       got.get(names[0]))

# --- paths from the tree's own files stay inside it -----------------------
outside = tmpdir()
secret = os.path.join(outside, "secret")
os.makedirs(secret)
with open(os.path.join(secret, "file"), "w") as f:
    f.write("TOP SECRET LINE one\nTOP SECRET LINE two\n")
inner = os.path.join(outside, "tree")
os.makedirs(os.path.join(inner, "drivers"))
open(os.path.join(inner, "drivers", "x.c"), "w").close()
shutil.copy(os.path.join(FIX, "MAINTAINERS"), inner)
for what, conf, link in (
        ("--mpath ../secret/file", "--mpath ../secret/file\n", None),
        ("--mpath=/abs/path", f"--mpath={secret}/file\n", None),
        ("--mpath to a link out of the tree", "--mpath LINKED\n",
         os.path.join(secret, "file"))):
    with open(os.path.join(inner, ".get_maintainer.conf"), "w") as f:
        f.write(conf)
    lp = os.path.join(inner, "LINKED")
    if os.path.lexists(lp):
        os.unlink(lp)
    if link:
        os.symlink(link, lp)
    r = run("sections", "--tree", inner, "drivers/x.c")
    ok(r.rc == 1 and "TOP SECRET" not in r.out + r.err,
       f".get_maintainer.conf {what}: refused, nothing of the file printed",
       r.out + r.err)

# --- a MAINTAINERS file deeper than PATH_MAX (4,096 bytes) ----------------
deep = tmpdir()
shutil.copy(os.path.join(FIX, "MAINTAINERS"), deep)
os.makedirs(os.path.join(deep, "drivers"))
open(os.path.join(deep, "drivers", "x.c"), "w").close()
fd = os.open(deep, os.O_RDONLY)
for _ in range(25):                      # 25 x 201 bytes of path
    os.mkdir("d" * 200, dir_fd=fd)
    nfd = os.open("d" * 200, os.O_RDONLY, dir_fd=fd)
    os.close(fd)
    fd = nfd
wfd = os.open("MAINTAINERS", os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fd)
os.write(wfd, b"DEEP DOWN\nM:\tDeep <deep@example.com>\nF:\tdeep/\n")
os.close(wfd)
os.close(fd)
r = run("entries", "--tree", deep, "--find-maintainer-files")
ok(r.rc == 0 and "DEEP DOWN" in r.out and "ALPHA DRIVER" in r.out,
   "--find-maintainer-files reads a MAINTAINERS deeper than PATH_MAX",
   (r.rc, r.err[:300]))

# --- a MAINTAINERS of hundreds of MiB would take gigabytes: refused ----------
huge = tmpdir()
os.makedirs(os.path.join(huge, "drivers"))
open(os.path.join(huge, "drivers", "x.c"), "w").close()
with open(os.path.join(huge, "MAINTAINERS"), "w") as f:
    f.write("HUGE\nM:\tH <h@example.com>\n")
    line = "F:\tdrivers/%s\n" % ("x" * 90)
    f.write(line * (33 * 1024 * 1024 // len(line) + 1))
r = run("sections", "--tree", huge, "drivers/x.c")
ok(r.rc == 1 and "over the 32 MiB" in r.err and "Traceback" not in r.err,
   "a 33 MiB MAINTAINERS: exit 1, named, not gigabytes of index",
   (r.rc, r.err[:300]))

done()
