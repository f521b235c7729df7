#!/usr/bin/env python3
"""The quick maintstat keeps the tree's list (the walk
--find-maintainer-files needs: U-Boot's .get_maintainer.conf asks for
it) in a file of its cache directory, and takes it instead of walking
while every directory still answers stat() as it did: a MAINTAINERS file
added in a new directory, or in one the list has, is found, one removed
is gone (the list's own checks are tests/unit/maintainers/test-tree.c's).  The answers are compared with those of a run that
cannot take a list (a cache directory of its own, emptied each time)."""
import glob
import os
import subprocess
import sys
import time
sys.path.insert(0, os.path.dirname(__file__))
from mstest import run, ok, eq, done, tmpdir  # noqa: E402

tmp = tmpdir()
T = os.path.join(tmp, "tree")
KEPT = os.path.join(tmp, "cache")
FRESH = os.path.join(tmp, "fresh")


def write(path, text):
    full = os.path.join(T, path)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "w") as f:
        f.write(text)


write("MAINTAINERS", "THE REST\nM:\tRest <rest@example.org>\nS:\tBuried\n"
      "F:\t*\nF:\t*/\n")
write(".get_maintainer.conf", "--find-maintainer-files\n")
write("board/a/MAINTAINERS", "BOARD A\nM:\tAnn <ann@example.org>\n"
      "S:\tMaintained\nF:\tboard/a/\n")
for d in ("board/a", "board/b", "board/c", "drivers/x"):
    write(f"{d}/file.c", "x\n")
subprocess.run(["git", "init", "-q", T], check=True)
made = time.time()
ARGS = ["maintainers", "--tree", T, "--no-git", "--no-git-fallback",
        "board/a/file.c", "board/b/file.c", "board/c/file.c"]


def kept():
    return glob.glob(os.path.join(KEPT, "maintstat", "tree-*.list"))


def fresh():
    for f in glob.glob(os.path.join(FRESH, "maintstat", "*")):
        os.remove(f)
    return run(*ARGS, env={"XDG_CACHE_HOME": FRESH})


def answer():
    r = run(*ARGS, env={"XDG_CACHE_HOME": KEPT})
    want = fresh()
    eq((r.rc, r.out), (0, want.out), "the answer of a run that walks")
    return r.out


# a directory changed less than two seconds before the walk is not
# trusted: a list is kept only when the tree is older than that
first = answer()
ok("Ann" in first, "board/a's MAINTAINERS read", first)
eq(kept(), [], "a tree changed within two seconds: no list kept")
# (whole seconds: 3 after the last change is always past the two)
time.sleep(max(0.0, made + 3.1 - time.time()))
eq(answer(), first, "the same answer, from a walk")
eq(len(kept()), 1, "... whose list is kept in a file of the cache "
   "directory")
ino = os.stat(kept()[0]).st_ino
eq(answer(), first, "the same answer, from the kept list")
eq(os.stat(kept()[0]).st_ino, ino, "... which was taken, not written "
   "again (a walk would replace it)")

write("board/d/MAINTAINERS", "BOARDS\nM:\tDee <dee@example.org>\n"
      "S:\tMaintained\nF:\tboard/\n")
ok("Dee" in answer(), "a MAINTAINERS in a new directory: found")
write("board/c/MAINTAINERS", "BOARD C\nM:\tCid <cid@example.org>\n"
      "S:\tMaintained\nF:\tboard/c/\n")
ok("Cid" in answer(), "a MAINTAINERS added to a directory of the list: "
   "found")
os.remove(os.path.join(T, "board/c/MAINTAINERS"))
ok("Cid" not in answer(), "... and removed: gone")

done()
