#!/usr/bin/env python3
"""The history walk against git log, commit by commit.

On a generated kernel-like repository (fixtures/gen/gen-repo.py, with
the linux-source-6.1 layout when $MS_LINUX_TREE is set), repacked as a
served clone is, plus a commit whose objects are loose: every commit
`ms_history_walk` delivers, in order, with its touched paths, must be
what `git log --no-merges --raw --no-renames` prints, with one worker
and with two.  The walk reads trees through several object databases
(src/history/git-walk.c, count_parts()); this is what proves the routing loses
or invents nothing.  Uses tests/bench/bench-walk --list.
"""
import os
import subprocess
import sys

from mstest import FIXTURES, done, eq, ok, tmpdir

BENCH = os.path.join(os.environ.get("MS_BUILD_ROOT", "build"), "tests",
                     "bench-walk")
TREE = os.environ.get("MS_LINUX_TREE")


def git(repo, *args, stdin=None, env=None):
    return subprocess.run(["git", "--git-dir", repo, *args], input=stdin,
                          capture_output=True, check=True, env=env,
                          text=True).stdout


def git_log(repo):
    """[(id, sorted paths)] in git log's order."""
    out = git(repo, "log", "--no-merges", "--raw", "--no-renames",
              "--no-abbrev", "--format=%x00%H", "HEAD")
    commits = []
    for block in out.split("\0")[1:]:
        lines = block.strip("\n").split("\n")
        paths = [ln.split("\t", 1)[1] for ln in lines[1:] if ln]
        commits.append((lines[0], sorted(paths)))
    return commits


def walk(repo, threads):
    p = subprocess.run([BENCH, "--list", repo, "HEAD", str(threads)],
                       capture_output=True, text=True)
    if p.returncode != 0:
        return None, p.stderr
    commits = []
    for line in p.stdout.splitlines():
        f = line.split("\t")
        commits.append((f[0], sorted(f[1:])))
    return commits, p.stderr


d = tmpdir()
repo = os.path.join(d, "repo.git")
gen = [sys.executable, os.path.join(FIXTURES, "gen", "gen-repo.py"),
       "--commits", "2500", "--merges-every", "40", "--repack", repo]
if TREE:
    gen[2:2] = ["--layout", TREE]
subprocess.run(gen, check=True, stdout=subprocess.DEVNULL)

# One more commit, its objects loose, an hour after the newest: a new
# file in a new directory and an edit deep in an existing one.
when = "@%d +0000" % (int(git(repo, "log", "-1", "--format=%ct")) + 3600)
env = dict(os.environ, GIT_INDEX_FILE=os.path.join(d, "index"),
           GIT_AUTHOR_NAME="Loose Author", GIT_AUTHOR_EMAIL="l@example.org",
           GIT_COMMITTER_NAME="Loose Author",
           GIT_COMMITTER_EMAIL="l@example.org", GIT_AUTHOR_DATE=when,
           GIT_COMMITTER_DATE=when)
path = git(repo, "ls-tree", "-r", "--name-only", "HEAD").splitlines()[-1]
git(repo, "read-tree", "HEAD", env=env)
for name, text in (("newdir/sub/file.c", "new\n"), (path, "changed\n")):
    blob = git(repo, "hash-object", "-w", "--stdin", stdin=text).strip()
    git(repo, "update-index", "--add", "--cacheinfo",
        "100644,%s,%s" % (blob, name), env=env)
tree = git(repo, "write-tree", env=env).strip()
commit = git(repo, "commit-tree", tree, "-p", "HEAD", "-m",
             "loose: one new, one changed", env=env).strip()
git(repo, "update-ref", "HEAD", commit)
packs = [f for f in os.listdir(os.path.join(repo, "objects", "pack"))
         if f.endswith(".pack")]
ok(len(packs) == 1 and
   os.path.isdir(os.path.join(repo, "objects", commit[:2])),
   "one pack of history and a loose commit")

want = git_log(repo)
ok(len(want) > 2000, "git log lists the history (%d commits)" % len(want))
eq(want[0], (commit, sorted(["newdir/sub/file.c", path])),
   "git log's newest commit is the loose one")
for threads in (1, 2):
    got, err = walk(repo, threads)
    ok(got is not None, "bench-walk with %d worker(s) runs" % threads, err)
    if got is None:
        continue
    eq(len(got), len(want), "%d worker(s): as many commits" % threads)
    bad = [(g, w) for g, w in zip(got, want) if g != w]
    ok(not bad, "%d worker(s): every commit and its paths equal git "
       "log's, in order" % threads,
       "first difference: %r" % (bad[0],) if bad else None)
    eq(err, "", "%d worker(s): no warnings" % threads)

done()
