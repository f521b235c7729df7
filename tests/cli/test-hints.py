#!/usr/bin/env python3
"""What maintstat says after a mistake names things that exist: the
usage hint of a subcommand names it whole ('maintstat mail stats --help'),
`store` lists all four of its subcommands, `help` takes a subcommand, a
mistyped command gets git's "The most similar command is", and a
mistyped entry name is answered with the entries it is a misspelling of
(by the edit distance to a word of the name), with status 2 in every
command, `entries` too."""
import os
import subprocess
import sys
sys.path.insert(0, os.path.dirname(__file__))
from mstest import run, ok, eq, done, tmpdir  # noqa: E402

r = run("mail", "stats", "--jsonn", "x")
eq(r.rc, 2, "mail stats --jsonn: usage error")
ok("Try 'maintstat mail stats --help'" in r.err,
   "the hint names 'maintstat mail stats --help'", r.err)
r = run("mail", "show", "--frob")
ok("Try 'maintstat mail show --help'" in r.err,
   "the hint names 'maintstat mail show --help'", r.err)
r = run("store", "list", "--frob")
ok("Try 'maintstat store list --help'" in r.err,
   "the hint names 'maintstat store list --help'", r.err)
r = run("store")
eq(r.rc, 2, "store alone: usage error")
ok(all(f"'{s}'" in r.err for s in ("log", "info", "list", "prune")),
   "store alone names log, info, list and prune", r.err)
r = run("help", "mail", "stats")
eq(r.rc, 0, "help mail stats: status 0")
ok(r.out.startswith("Usage: maintstat mail stats"),
   "help mail stats is 'mail stats --help'", r.out[:200] + r.err)
r = run("help", "store", "prune")
ok(r.rc == 0 and "--older-than" in r.out, "help store prune", r.err)

for typo, want in (("secton", "sections"), ("revew", "review"),
                   ("maintainer", "maintainers"), ("urgnet", "urgent")):
    r = run(typo)
    eq(r.rc, 2, f"'{typo}': usage error")
    ok("The most similar command is\n\t" + want + "\n" in r.err,
       f"'{typo}': did you mean '{want}'", r.err)
r = run("zzzzzzzzzz")
ok(r.rc == 2 and "similar" not in r.err,
   "a word like no command: no proposal", r.err)

tmp = tmpdir()
tree = os.path.join(tmp, "tree")
os.makedirs(os.path.join(tree, "fs", "erofs"))
with open(os.path.join(tree, "MAINTAINERS"), "w") as f:
    for name, path in (("EROFS FILE SYSTEM", "fs/erofs/"),
                       ("KERNFS", "fs/kernfs/"), ("VRF", "net/vrf/"),
                       ("XFS FILESYSTEM", "fs/xfs/")):
        f.write(f"{name}\nM:\tFay <fay@example.org>\nS:\tMaintained\n"
                f"F:\t{path}\n\n")
with open(os.path.join(tree, "fs", "erofs", "super.c"), "w") as f:
    f.write("int erofs;\n")
git = ["git", "-C", tree, "-c", "user.name=Fay", "-c",
       "user.email=fay@example.org"]
subprocess.run(git + ["init", "-q"], check=True)
subprocess.run(git + ["add", "."], check=True)
subprocess.run(git + ["commit", "-q", "-m", "one"], check=True)

WANT = "did you mean:\n\tEROFS FILE SYSTEM\nTry"
r = run("entries", "--tree", tree, "EROFZ")
eq(r.rc, 2, "entries EROFZ: a usage error, status 2")
ok(WANT in r.err, "entries EROFZ: proposes EROFS FILE SYSTEM alone", r.err)
eq(r.out, "", "entries EROFZ: no table of nothing")
r = run("entries", "--tree", tree, "EROF*Z")
eq(r.rc, 2, "entries with a glob matching nothing: status 2")
for cmd in ("activity", "retire", "identities"):
    extra = ["--no-credits"] if cmd == "retire" else []
    r = run(cmd, "--repo", tree, "--no-cache", *extra, "EROFZ")
    eq(r.rc, 2, f"{cmd} EROFZ: status 2")
    ok(WANT in r.err, f"{cmd} EROFZ: proposes EROFS FILE SYSTEM", r.err)
done()
