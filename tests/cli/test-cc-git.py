#!/usr/bin/env python3
"""maintstat maintainers answers get_maintainer.pl's git options (--git,
the git fallback, --git-all-signature-types, --git-min-signatures,
--git-max-maintainers, --git-min-percent, --git-since,
--git-chief-penguins, --remove-duplicates, --rolestats) with the bytes
of the kernel's script itself, run on the same git work tree.

The tree is a git repository built here: commits by several people with
Signed-off-by/Reviewed-by/Acked-by/Tested-by lines (indented, without an
address, a chief penguin's, a .get_maintainer.ignore'd one, a .mailmap'd
one, one name with two addresses), a commit with no signature at all, a
rename (--follow), a binary file, a commit older than --git-since, a
merge; files matched exactly by a maintained entry (no fallback), too
deep for it (fallback), and by nothing.  The oracle is linux-source-6.1's
script, with Perl's random order among equal counts made the address
order (mstest.get_maintainer_tiebreak), as maintstat orders them.

Run as test-cc-git-xen.py (MS_CC_GIT_DIALECT=xen), the same tree and
questions go to Xen's fork ($MS_XEN_SCRIPT), whose git code is older
(no authors or line counts, merges counted, no .get_maintainer.ignore,
no git fallback unless asked, which then takes MAINTAINERS files too),
with that fork's own switches.

Run as test-cc-git-qemu.py (MS_CC_GIT_DIALECT=qemu), the oracle is
QEMU's own script ($MS_QEMU_SCRIPT, by default get_maintainer-qemu.pl
in $MS_CACHE, which `make check` installs: scripts/qemu-script.sh; the
test is skipped, saying so, without it), on the same history under a
QEMU MAINTAINERS (no catch-all entry, so that its fallback, taken only
when no address is found, shows), with that script's switches.
"""
import concurrent.futures
import os
import shutil
import subprocess
import sys
import tempfile
import time
sys.path.insert(0, os.path.dirname(__file__))
from mstest import (MAINTSTAT, ok, eq, done, skip_all, tmpdir,  # noqa: E402
                    get_maintainer_tiebreak, get_maintainer_batch,
                    sanitized_sample)

XEN = os.environ.get("MS_CC_GIT_DIALECT") == "xen"
QEMU = os.environ.get("MS_CC_GIT_DIALECT") == "qemu"
LINUX = os.environ.get("MS_LINUX_TREE")
PL = LINUX and os.path.join(LINUX, "scripts", "get_maintainer.pl")
if XEN:
    PL = os.environ.get("MS_XEN_SCRIPT",
                        "/work/shared/data/get_maintainer-xen.pl")
if QEMU:
    PL = os.environ.get("MS_QEMU_SCRIPT", os.path.join(
        os.environ.get("MS_CACHE") or os.path.expanduser(
            "~/.cache/maintstat-dev"), "get_maintainer-qemu.pl"))
if not PL or not os.path.exists(PL) or not shutil.which("perl"):
    skip_all(f"no get_maintainer.pl ({PL}; $MS_LINUX_TREE, "
             "$MS_XEN_SCRIPT, $MS_QEMU_SCRIPT: scripts/qemu-script.sh "
             "installs QEMU's) or no perl")

tmp = tmpdir()
T = os.path.join(tmp, "tree")
os.makedirs(os.path.join(T, "scripts"))
shutil.copy(PL, os.path.join(T, "scripts", "get_maintainer.pl"))
oracle = os.path.join(tmp, "get_maintainer.pl")
with open(PL) as f:
    script = get_maintainer_tiebreak(f.read())
with open(oracle, "w") as f:
    f.write(script)
batch = os.path.join(tmp, "get_maintainer-batch.pl")
with open(batch, "w") as f:
    f.write(get_maintainer_batch(script))

NOW = int(time.time())
DAY = 86400


def git(*args, env=None):
    return subprocess.run(["git", "-C", T, *args], check=True, env=env,
                          capture_output=True).stdout


def commit(files, msg, author, when, remove=(), move=()):
    """One commit by `author` ("Name <addr>") `when` days ago."""
    name, email = author[:-1].split(" <")
    for src, dst in move:
        os.makedirs(os.path.join(T, os.path.dirname(dst)), exist_ok=True)
        git("mv", src, dst)
    for path, content in files.items():
        full = os.path.join(T, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "wb" if isinstance(content, bytes) else "w") as f:
            f.write(content)
        git("add", path)
    for path in remove:
        git("rm", "-q", path)
    date = f"@{NOW - when * DAY} +0000"
    env = dict(os.environ, GIT_AUTHOR_NAME=name, GIT_AUTHOR_EMAIL=email,
               GIT_COMMITTER_NAME="Committer", GIT_COMMITTER_EMAIL="c@x.org",
               GIT_AUTHOR_DATE=date, GIT_COMMITTER_DATE=date)
    git("commit", "-q", "--allow-empty", "-m", msg, env=env)


git("init", "-q", "-b", "main")
for f in ("COPYING", "CREDITS", "Kbuild", "Makefile", "README"):
    with open(os.path.join(T, f), "w") as fh:
        fh.write("x\n")
for f in ("VERSION",):  # QEMU's script's top_of_tree() wants these
    with open(os.path.join(T, f), "w") as fh:
        fh.write("x\n")
for d in ("Documentation", "arch", "include", "init", "ipc", "kernel",
          "fs", "docs", "linux-user", "system"):
    os.makedirs(os.path.join(T, d), exist_ok=True)
MAINT = ("FOO DRIVER\n"
         "M:\tAlice <alice@example.org>\n"
         "L:\tfoo@lists.example.org\n"
         "S:\tMaintained\n"
         "F:\tdrivers/foo/\n"
         "\n"
         "ODD FIXES\n"
         "M:\tOddie <odd@example.org>\n"
         "S:\tOdd Fixes\n"
         "F:\tdrivers/odd/\n"
         "\n"
         "THE REST\n"
         "M:\tLinus Torvalds <torvalds@linux-foundation.org>\n"
         "L:\tlinux-kernel@vger.kernel.org\n"
         "S:\tBuried\n"
         + ("V:\txen-maintainers-1\n" if XEN else "") +
         "F:\t*\n"
         "F:\t*/\n")
if QEMU:
    # QEMU's: no catch-all entry (its fallback is for an answer without
    # any address), names cut at 20 and their parentheses dropped
    MAINT = ("QEMU Maintainers\n================\n\n"
             "Foo driver\n"
             "M: Alice <alice@example.org>\n"
             "L: foo@lists.example.org\n"
             "S: Maintained\n"
             "F: drivers/foo/\n"
             "\n"
             "Odd fixes (legacy) boards\n"
             "M: Oddie <odd@example.org>\n"
             "R: Rita <rita@example.org>\n"
             "S: Odd Fixes\n"
             "F: drivers/odd/\n")
commit({"MAINTAINERS": MAINT,
        ".mailmap": "Alice <alice@example.org> <alice@old.example.org>\n"
                    "Dave Dee <dave@example.org> Dave <dave@work.example>\n",
        ".get_maintainer.ignore": "# never Cc\nIggy <iggy@example.org>\n",
        ".gitattributes": "*.dat binary\n"},
       "Start\n\nSigned-off-by: Alice <alice@old.example.org>",
       "Alice <alice@old.example.org>", 500)
commit({"drivers/foo/foo.c": "a\nb\nc\n",
        "drivers/foo/sub/deep.c": "1\n2\n",
        "lib/old.c": "old\nold\nold\nold\n",
        "drivers/foo/fw.bin": b"\0fw\n", "drivers/foo/table.dat": "t\n"},
       "Add foo\n\nSigned-off-by: Frank <frank@example.org>",
       "Frank <frank@example.org>", 400)
commit({"drivers/foo/sub/deep.c": "1\n2\n3\n"},
       "deep: more\n\n    Signed-off-by: Indented <ind@example.org>\n"
       "Signed-off-by: noaddress\n"
       "Tested-by: Tess <tess@example.org>\n"
       "Reviewed-by: Linus Torvalds <torvalds@linux-foundation.org>\n"
       "Signed-off-by: Dave <dave@work.example>",
       "Dave <dave@work.example>", 200)
commit({"drivers/foo/sub/deep.c": "1\n3\n", "lib/orphan.c": "o\n"},
       "orphan: no signature at all", "Nosig Person <nosig@example.org>",
       150)
commit({"lib/new.c": "old\nold\nold\nnew\n"},
       "move it\n\nSigned-off-by: Gina <gina@example.org>\n"
       "Acked-by: Iggy <iggy@example.org>\n"
       "Reviewed-by: Dave Dee <dave@example.org>",
       "Gina <gina@example.org>", 100, remove=["lib/old.c"])
commit({"drivers/foo/sub/deep.c": "1\n3\n4\n", "drivers/foo/blob.bin":
        b"\0\1\2", "drivers/odd/odd.c": "odd\n"},
       "deep: again\n\nSigned-off-by: Dave Dee <dave@other.example>\n"
       "Acked-by: \"Alice\" <alice@old.example.org>\n"
       "Signed-off-by: Dave Dee <dave@other.example>",
       "Dave Dee <dave@other.example>", 50)
git("checkout", "-q", "-b", "side", "HEAD~1")
commit({"drivers/odd/side.c": "side\n", "lib/orphan.c": "o\np\n"},
       "side\n\nSigned-off-by: Sid <sid@example.org>",
       "Sid <sid@example.org>", 40)
git("checkout", "-q", "main")
git("merge", "-q", "--no-ff", "-m", "Merge side\n\nSigned-off-by: "
    "Merger <merge@example.org>", "side",
    env=dict(os.environ, GIT_AUTHOR_NAME="Merger",
             GIT_AUTHOR_EMAIL="merge@example.org",
             GIT_COMMITTER_NAME="Merger", GIT_COMMITTER_EMAIL="m@x.org",
             GIT_AUTHOR_DATE=f"@{NOW - 30 * DAY} +0000",
             GIT_COMMITTER_DATE=f"@{NOW - 30 * DAY} +0000"))
commit({"drivers/foo/foo.c": "a\nc\nd\n", "drivers/foo/fw.bin": b"\0fw2\n",
        "drivers/foo/table.dat": "t\nu\n"},
       "foo: fix\n\nSigned-off-by: Alice <alice@example.org>\n"
       "Signed-off-by: Frank <frank@example.org>\n"
       "Cc: Carl <carl@example.org>",
       "Alice <alice@old.example.org>", 20)
patch = os.path.join(tmp, "p.patch")
with open(patch, "wb") as f:
    f.write(git("format-patch", "-1", "--stdout", "HEAD~2"))
# A patch whose Fixes: lines name a commit with signers (a chief
# penguin's among them), one no one has, and the first one again: the
# script adds the named commit's signers as "blamed_fixes".
deep = git("log", "-1", "--format=%h", "--abbrev=12", "--grep=deep: more")
fixes = os.path.join(tmp, "fixes.patch")
commit({"lib/new.c": "old\nold\nnew\n"},
       f"new: fix\n\nFixes: {deep.decode().strip()} (\"deep: more\")\n"
       "Fixes: 0123456789ab (\"not in this tree\")\n"
       f"Fixes: {deep.decode().strip()[:8]}\n"
       "Signed-off-by: Gina <gina@example.org>",
       "Gina <gina@example.org>", 10)
with open(fixes, "wb") as f:
    f.write(git("format-patch", "-1", "--stdout", "HEAD"))
# --follow where a commit adds a file: a near copy of a file the commit
# keeps (a copy, followed into foo.c's history); a file added while the
# parent holds a blob the repository lacks (a partial clone's): git dies
# there, the script reads what it printed before.
commit({"drivers/foo/copy.c": "a\nc\nd\ne\n", "lib/gone.txt": "gone\n"},
       "copy foo\n\nSigned-off-by: Cora <cora@example.org>",
       "Cora <cora@example.org>", 8)
commit({"lib/late.c": "late\n"}, "late\n\nSigned-off-by: Lou <lou@example.org>",
       "Lou <lou@example.org>", 6)
commit({}, "gone\n\nSigned-off-by: Cora <cora@example.org>",
       "Cora <cora@example.org>", 4, remove=["lib/gone.txt"])
gone = git("rev-parse", "HEAD~1:lib/gone.txt").decode().strip()
os.remove(os.path.join(T, ".git", "objects", gone[:2], gone[2:]))
# Blamed commits whose logs git must rename among several files (two
# renamed and one of them changed), and whose numstat names an '@'
# after a "by:" (with --git-all-signature-types the script takes that
# line for a signer's), in a commit that also deletes a file (git's
# renames could pair them: git says).
commit({"lib/a.c": "a\n", "lib/b.c": "b\n"},
       "ab\n\nSigned-off-by: Abe <abe@example.org>",
       "Abe <abe@example.org>", 3)
commit({"lib/two/b.c": "b\nc\n"},
       "two\n\nSigned-off-by: Rena <rena@example.org>",
       "Rena <rena@example.org>", 2,
       move=[("lib/a.c", "lib/two/a.c"), ("lib/b.c", "lib/two/b.c")])
commit({"lib/two/b.c": "b\nc\nd\n", "lib/two/by:z@example.org": "z\n"},
       "zed\n\nSigned-off-by: Zed <zed@example.org>",
       "Zed <zed@example.org>", 1)
commit({"lib/two/b.c": "b\nc\nd\ne\n", "lib/two/by:y@example.org": "y\n",
        "lib/two/c.c": "c\n"},
       "yan\n\nSigned-off-by: Yan <yan@example.org>",
       "Yan <yan@example.org>", 1, remove=["lib/two/a.c"])

FILES = ["drivers/foo/foo.c", "drivers/foo/sub/deep.c", "lib/new.c",
         "lib/orphan.c", "drivers/foo/blob.bin", "drivers/odd/odd.c",
         "MAINTAINERS", "drivers/foo/fw.bin", "drivers/foo/table.dat",
         "drivers/foo/copy.c", "lib/late.c"]
SINCE = time.strftime("%Y-%m-%d", time.gmtime(NOW - 180 * DAY))
SETS = [
    [],
    ["--git"],
    ["--git", "--git-since", SINCE, "--non"],
    ["--git", f"--git-since={SINCE}", "--git-all-signature-types"],
    ["--git", "--git-min-signatures", "2", "--git-min-percent", "40"],
    ["--git", "--git-max-maintainers", "1", "--git-chief-penguins"],
    ["--git", "--noremove-duplicates", "--nomailmap"],
    ["--nogit-fallback", "--norolestats", "--nofixes"],
    ["--git-blame"],
    ["--git-blame", "--nogit-blame-signatures", "--git-chief-penguins",
     "--git-all-signature-types", "--norolestats", "--git-min-percent",
     "30"],
    ["--git", "--git-since", "2-years-ago", "--roles", "--norolestats"],
]
if XEN:
    # the fork's switches: no --fixes; no role statistics, duplicates
    # kept and no git fallback unless asked
    SETS = [
        [],
        ["--git"],
        ["--git", "--rolestats"],
        ["--git", "--git-since", SINCE, "--non", "--rolestats"],
        ["--git", f"--git-since={SINCE}", "--git-all-signature-types",
         "--rolestats", "--remove-duplicates"],
        ["--git", "--git-min-signatures", "2", "--git-min-percent", "40",
         "--rolestats"],
        ["--git", "--git-max-maintainers", "1", "--git-chief-penguins",
         "--remove-duplicates"],
        ["--git-fallback", "--rolestats", "--remove-duplicates"],
        ["--git-fallback", "--nodrop_the_rest_supporter"],
        ["--git-blame", "--rolestats"],
        ["--git-blame", "--nogit-blame-signatures", "--git-chief-penguins",
         "--git-all-signature-types", "--rolestats", "--git-min-percent",
         "30"],
        ["--git", "--git-since", "2-years-ago", "--roles"],
    ]
if QEMU:
    # its switches: no --fixes, no --git-chief-penguins; role statistics,
    # duplicates removed and the fallback on by default
    SETS = [
        [],
        ["--git"],
        ["--git", "--git-since", SINCE, "--non"],
        ["--git", f"--git-since={SINCE}", "--git-all-signature-types"],
        ["--git", "--git-min-signatures", "2", "--git-min-percent", "40"],
        ["--git", "--git-max-maintainers", "1"],
        ["--git", "--noremove-duplicates", "--nomailmap"],
        ["--nogit-fallback", "--norolestats"],
        ["--git-blame"],
        ["--git-blame", "--nogit-blame-signatures",
         "--git-all-signature-types", "--norolestats", "--git-min-percent",
         "30"],
        ["--git", "--git-since", "2-years-ago", "--roles", "--norolestats"],
        ["--git-fallback", "--noremove-duplicates", "--subsystem"],
    ]
# each file alone (one script process answers them all), all together,
# and a patch
INPUTS = [["-f", f] for f in FILES] + [["-f", *FILES[1:]], [patch],
                                       [fixes]]


def script_says(args, inp):
    p = subprocess.run(["perl", oracle, *args, *inp], cwd=T,
                       capture_output=True)
    return p.stdout


def script_each(args):
    """The script's answers for each of FILES alone, from one process.
    (A queue file of its own: two sets are asked at once.)"""
    fd, q = tempfile.mkstemp(dir=tmp, prefix="queue")
    with os.fdopen(fd, "w") as f:
        f.write("".join(x + "\n" for x in FILES))
    p = subprocess.run(["perl", batch, *args, "-f"], cwd=T,
                       capture_output=True, env=dict(os.environ,
                                                     ORACLE_QUEUE=q))
    return p.stdout.split(b"\0\n")[:len(FILES)]


def ms_says(args, inp):
    p = subprocess.run([MAINTSTAT, "maintainers", "--tree", T, *args, *inp],
                       capture_output=True)
    return p.stdout, p.returncode, p.stderr


def compare(args):
    wants = script_each(args) + [script_says(args, i) for i in
                                 INPUTS[len(FILES):]]
    out = []
    for inp, want in zip(INPUTS, wants):
        got, rc, err = ms_says(args, inp)
        if got != want or rc != 0:
            out.append((args, inp, want, got, rc, err))
    return out


# an ASan run costs ten times a normal one's start: it is put every other
# set (the normal build's suite puts them all)
SETS = sanitized_sample(SETS, 2, "the sets of options")
bad = []
n = len(SETS) * len(INPUTS)
with concurrent.futures.ThreadPoolExecutor(2) as ex:
    for b in ex.map(compare, SETS):
        bad += b
for args, inp, want, got, rc, err in bad[:5]:
    print(f"# {args} {inp}: exit {rc} {err!r}\n# script:\n"
          + "".join(f"#   {l}\n" for l in want.decode().splitlines())
          + "# maintstat:\n"
          + "".join(f"#   {l}\n" for l in got.decode().splitlines()))
eq(len(bad), 0, f"git options: answers that differ from the script's, of "
   f"{n} ({len(SETS)} sets of options x {len(INPUTS)} inputs)")
# the planted facts show up, so the comparison compares something
if QEMU:
    out = script_says([], ["-f", "lib/new.c"]).decode()
    ok("commit_signer:" in out and "authored:" not in out, "QEMU's "
       "fallback for a file no entry names: its signers, no authors", out)
    out = script_says([], ["-f", "drivers/odd/odd.c"]).decode()
    ok("(odd fixer:Odd fixes legacy...)" in out, "QEMU's script drops "
       "the parentheses of a name it cuts", out)
if XEN or QEMU:
    out = script_says(["--git", "--git-all-signature-types", "--rolestats"],
                      ["-f", "drivers/foo/sub/deep.c"]).decode()
    ok("commit_signer:" in out and "Tess" in out and "authored:" not in
       out, "the fork's --git answer has signers, no authors", out)
    out = script_says(["--git-blame", "--rolestats"], [patch]).decode()
    ok("(modified commits:" in out, "the fork's --git-blame of a patch "
       "has the signers of the commits its lines came from", out)
if XEN:
    out = script_says(["--git-fallback", "--roles"],
                      ["-f", "drivers/foo/foo.c", "lib/new.c"]).decode()
    ok("commit_signer" in out and "Frank" not in out, "the fork's "
       "fallback: for lib/new.c, not for a file matched exactly", out)
out = script_says(["--git", "--git-all-signature-types"],
                  ["-f", "drivers/foo/sub/deep.c"]).decode()
if not XEN and not QEMU:
    ok("commit_signer:" in out and "Tess" in out and "authored:" in out
       and "added_lines:" in out, "the script's --git answer has "
       "signers, authors and line counts", out)
    out = script_says(["--git-all-signature-types"], [fixes]).decode()
    ok("blamed_fixes:1/1=100%" in out and "Tess" in out and "Dave Dee" in
       out and "Torvalds" not in out, "the script's answer to a patch with "
       "Fixes: lines has the fixed commit's signers, a chief penguin left "
       "out", out)
    out = script_says(["--git-blame"], [patch]).decode()
    ok("(modified commits:" in out, "the script's --git-blame of a patch "
       "has the signers of the commits its lines came from", out)
out = script_says(["--git-blame", "--rolestats"],
                  ["-f", "drivers/foo/sub/deep.c"]).decode()
ok("authored lines:" in out and "commits:" in out, "... and of a file, "
   "its blamed authors by lines and signers by commits", out)
out = script_says(["--git-fallback"], ["-f", "drivers/foo/foo.c"]).decode()
ok("commit_signer" not in out, "no fallback for a file matched exactly",
   out)

# A work tree whose .git is a file ("gitdir: ...", git worktree add, a
# submodule): the kernel's and QEMU's scripts take it (-e ".git"), Xen's
# wants a directory (-d ".git": no VCS, so no signers and no blame).
W = os.path.join(tmp, "worktree")
git("worktree", "add", "-q", "--detach", W, "HEAD")
for f in os.listdir(T):
    if f != ".git" and not os.path.exists(os.path.join(W, f)):
        (shutil.copytree if os.path.isdir(os.path.join(T, f)) else
         shutil.copy)(os.path.join(T, f), os.path.join(W, f))
shutil.copy(oracle, os.path.join(W, "scripts", "get_maintainer.pl"))
ok(os.path.isfile(os.path.join(W, ".git")), "the work tree's .git is a "
   "file")
wbad = []
wsigners = 0
for args in (["--git"], ["--git-blame"], []):
    for inp in (["-f", "drivers/foo/sub/deep.c"], ["-f", "lib/new.c"]):
        want = subprocess.run(["perl", "scripts/get_maintainer.pl", *args,
                               *inp], cwd=W, capture_output=True).stdout
        got = subprocess.run([MAINTSTAT, "maintainers", "--tree", W, *args,
                              *inp], capture_output=True).stdout
        wsigners += b"commit_signer" in want or b"commits:" in want
        if got != want:
            wbad.append((args, inp, want, got))
for args, inp, want, got in wbad[:3]:
    print(f"# {args} {inp}\n# script: {want!r}\n# maintstat: {got!r}")
eq(len(wbad), 0, "in a work tree whose .git is a file: answers that differ "
   "from the script's, of 6")
# and without any .git: no VCS for any of them (no fallback, no signers)
N = os.path.join(tmp, "novcs")
shutil.copytree(W, N, ignore=shutil.ignore_patterns(".git"))
for args in (["--git"], []):
    want = subprocess.run(["perl", "scripts/get_maintainer.pl", *args, "-f",
                           "lib/new.c"], cwd=N, capture_output=True).stdout
    got = subprocess.run([MAINTSTAT, "maintainers", "--tree", N, *args,
                          "-f", "lib/new.c"], capture_output=True).stdout
    eq(got, want, f"no .git, {args}: the script's answer")
ok(wsigners == 0 if XEN else wsigners > 0, "... where the script finds "
   "git (the kernel's, QEMU's) or does not (Xen's)", wsigners)

# A file's log is made from the store's history model and the objects,
# a file some commit of the window adds to a parent's tree too (--follow
# then looks for its source among all the parent's files), and the
# forks' log (no --no-merges, but --follow shows no merge): no `git log`
# runs; the store keeps each log: a second run prints the same bytes; a
# --git-since that a commit's date separates from the saved one makes it
# again.
bindir = os.path.join(tmp, "bin")
os.makedirs(bindir)
calls = os.path.join(tmp, "git-calls")
with open(os.path.join(bindir, "git"), "w") as f:
    f.write(f"#!/bin/sh\necho \"$*\" >> {calls}\n"
            f"exec {shutil.which('git')} \"$@\"\n")
os.chmod(os.path.join(bindir, "git"), 0o755)
env = dict(os.environ, PATH=bindir + os.pathsep + os.environ["PATH"],
           XDG_CACHE_HOME=os.path.join(tmp, "cache"))


def logged(args, inp=None, what="log", prog=MAINTSTAT):
    if os.path.exists(calls):
        os.remove(calls)
    p = subprocess.run([prog, "maintainers", "--tree", T, *args,
                        *(inp or ["-f", *FILES])], capture_output=True,
                       env=env)
    n = 0
    if os.path.exists(calls):
        # git -C TREE log ...
        n = sum(l.split()[2:3] == [what] for l in open(calls))
    return p.stdout, n


added = sum(any(l.strip() for l in git(
    "log", "--no-merges", "--diff-filter=A", "--since=1-year-ago",
    "--format=%P", "--", f).decode().splitlines()) for f in FILES)
first, n1 = logged(["--git"])
again, n2 = logged(["--git"])
eq((n1, n2), (0, 0), "git log for no file, then none (the store's)")
ok(added >= 3, "... although the window adds three of them", added)
ok(again == first == script_says(["--git"], ["-f", *FILES]),
   "... the same bytes, the script's")
log = subprocess.run(["git", "-C", T, "log", "--follow", "--numstat",
                      "--format=%s", "--", "drivers/foo/copy.c"],
                     capture_output=True).stdout.decode()
ok("drivers/foo/{foo.c => copy.c}" in log and "Add foo" in log, "git "
   "follows copy.c into foo.c's history", log)
late = subprocess.run(["git", "-C", T, "log", "--follow", "--", "lib/late.c"],
                      capture_output=True)
eq((late.returncode, late.stdout), (128, b""), "git dies on lib/late.c's "
   "log: its commit's parent holds a missing blob")
older, n3 = logged(["--git", "--git-since", "2-years-ago"])
ok(n3 == 0 and older == script_says(
    ["--git", "--git-since", "2-years-ago"], ["-f", *FILES]) and
   True, "another --git-since over older commits: the logs "
   "made again, the script's bytes", (n3, older))

# --git-blame's commits come from the objects too (git-blame.h): no `git
# blame` runs, for files or a patch's changed lines (a merge, a rename,
# a binary file among them), nor a `git log -1` for a blamed commit's
# signers and author (git-log.h) but the one whose blob is missing (git
# dies there), and the answer is the script's.
copy = git("log", "-1", "--format=%H", "--grep=copy foo").decode().strip()
for inp in (["-f", *FILES], [patch]):
    blamed, n4 = logged(["--git-blame", "--rolestats"], inp, "blame")
    logs = {l.split()[-1] for l in open(calls)
            if l.split()[2:3] == ["log"]} if os.path.exists(calls) else set()
    ok(n4 == 0 and logs <= {copy} and blamed == script_says(
        ["--git-blame", "--rolestats"], inp),
       f"--git-blame {inp[0]}: no git blame, no git log but {copy[:12]}'s, "
       "the script's bytes", (n4, logs, blamed))

# Their logs too where the commit renames several files, and where its
# numstat line of a path with an '@' is a signer's to the script (the
# forks' log has no numstat: none is theirs, and git runs for none).
yan = git("log", "-1", "--format=%H", "--grep=yan").decode().strip()
left = set() if XEN or QEMU else {yan}
for args in (["--git-blame", "--rolestats"],
             ["--git-blame", "--rolestats", "--git-all-signature-types",
              "--git-max-maintainers", "9"]):
    got, _ = logged(args, ["-f", "lib/two/b.c"], "log")
    logs = {l.split()[-1] for l in open(calls) if " -1 " in l} \
        if os.path.exists(calls) else set()
    ok(logs == left and b"Rena" in got and got == script_says(
        args, ["-f", "lib/two/b.c"]), f"{args}: a commit renaming two "
       f"files, no git log -1 but {left}, the script's bytes", (logs, got))
ok((b"z@example.org (commits:" in got and b"y@example.org (commits:" in
    got) != (XEN or QEMU), "... where the script takes a numstat line "
   "for a signer (the kernel's) or has none (the forks')", got)

# A commit left to git (by the old code too: it adds two files and
# deletes one) is asked once a run, however many files (or hunks) blame
# it, and for its signers only: its author's log (no %b) is read for the
# GitAuthor line alone, made without numstat lines.
two = ["-f", "lib/two/b.c", "lib/two/c.c"]
if not XEN and not QEMU:
    got, _ = logged(["--git-blame", "--rolestats"], two, "log")
    runs = [l for l in open(calls) if " -1 " in l] \
        if os.path.exists(calls) else []
    ok(len(runs) == 1 and "%b" in runs[0] and got == script_says(
        ["--git-blame", "--rolestats"], two), f"two files blamed on "
       f"{yan[:12]}: its git log -1 once, for its signers, the script's "
       "bytes", (runs, got))

# A patch's Fixes: ids (a commit, its abbreviation, an id no commit has)
# are read from the objects too, with --git-blame or without: no `git
# log -1` in maintstat-full (the quick program runs git for them; the
# forks read no Fixes: lines).
FULL = os.path.join(os.path.dirname(MAINTSTAT), "maintstat-full")
if not XEN and not QEMU and os.path.exists(FULL):
    for args in ([], ["--git", "--git-all-signature-types"]):
        got, n5 = logged(args, [fixes], prog=FULL)
        ok(n5 == 0 and b"blamed_fixes" in got and got == script_says(
            args, [fixes]), f"Fixes: ids, {args}: no git log -1, the "
           "script's bytes", (n5, got))

# A work tree's file that differs from HEAD is blamed as git blames it
# (fake_working_tree_commit(): its lines HEAD does not give are the null
# id's, "Not Committed Yet", whose git log -1 prints nothing; the script
# counts them in its divisors): lines changed and added, lines added at
# the end only, a CR that nothing converts, a file the index adds (all
# its lines the null id's), one git does not know (git dies): no `git
# blame` runs, the script's bytes.
DIRTY = {"drivers/foo/sub/deep.c": "1\nX\n4\n5\n",
         "lib/new.c": "old\nold\nnew\nmore\nmore\n",
         "drivers/odd/odd.c": "odd\r\neven\r\n",
         "drivers/foo/foo.c": "a\nZ\nd\n",
         "lib/fresh.c": "fresh\n", "lib/untracked.c": "u\n"}
for path, content in DIRTY.items():
    with open(os.path.join(T, path), "w", newline="") as f:
        f.write(content)
git("add", "lib/fresh.c")
null = [f for f in DIRTY if any(
    l.startswith(b"0" * 40 + b" ") for l in subprocess.run(
        ["git", "-C", T, "blame", "-l", "--", f],
        capture_output=True).stdout.splitlines())]
eq(sorted(null), sorted(set(DIRTY) - {"lib/untracked.c"}), "git blames "
   "uncommitted lines on the null id (git dies on lib/untracked.c)")
for inp in (["-f", *DIRTY], [patch]):
    for args in (["--git-blame", "--rolestats"], ["--git-blame"]):
        got, n6 = logged(args, inp, "blame")
        ok(n6 == 0 and got == script_says(args, inp), f"{args} {inp[0]} "
           "in a dirty work tree: no git blame, the script's bytes",
           (n6, got))

done()
