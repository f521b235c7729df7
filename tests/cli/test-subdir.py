#!/usr/bin/env python3
"""From a subdirectory of a tree, the MAINTAINERS commands find the tree
as activity finds the repository (the enclosing git work tree, else the
nearest directory above holding MAINTAINERS), and take a path argument
from the current directory as git does ('sched/core.c', '../net/x.c',
'.'), while paths on standard input stay the tree's (git diff
--name-only prints those)."""
import os
import subprocess
import sys
sys.path.insert(0, os.path.dirname(__file__))
from mstest import run, ok, eq, done, tmpdir  # noqa: E402


def make(top, with_git):
    for d in ("kernel/sched", "net/tls"):
        os.makedirs(os.path.join(top, d))
    with open(os.path.join(top, "MAINTAINERS"), "w") as f:
        f.write("SCHEDULER\nM:\tIngo <mingo@example.org>\nS:\tMaintained\n"
                "F:\tkernel/sched/\n\nTLS\nM:\tTina <t@example.org>\n"
                "S:\tMaintained\nF:\tnet/tls/\n")
    for p in ("kernel/sched/core.c", "net/tls/tls_main.c"):
        with open(os.path.join(top, p), "w") as f:
            f.write("int x;\n")
    if with_git:
        subprocess.run(["git", "-C", top, "init", "-q"], check=True)


for with_git in (True, False):
    top = os.path.join(tmpdir(), "linux")
    make(top, with_git)
    kind = "git work tree" if with_git else "tree without git"
    sub = os.path.join(top, "kernel")
    r = run("maintainers", "sched/core.c", cwd=sub)
    eq((r.rc, r.out), (0, "Ingo <mingo@example.org> "
                          "(maintainer:SCHEDULER)\n"),
       f"{kind}: maintainers sched/core.c from kernel/")
    r = run("sections", "../net/tls/tls_main.c", cwd=sub)
    eq((r.rc, r.out), (0, "net/tls/tls_main.c\n  TLS\n\n"),
       f"{kind}: sections ../net/tls/tls_main.c from kernel/")
    r = run("sections", ".", cwd=os.path.join(sub, "sched"))
    eq((r.rc, r.out.splitlines()[:2]), (0, ["kernel/sched/",
                                           "  SCHEDULER"]),
       f"{kind}: sections . from kernel/sched/")
    r = run("sections", "-", stdin=b"net/tls/tls_main.c\n", cwd=sub)
    eq((r.rc, r.out), (0, "net/tls/tls_main.c\n  TLS\n\n"),
       f"{kind}: a path on stdin is the tree's")
    r = run("entries", "--no-files", cwd=sub)
    eq((r.rc, r.out.splitlines()[-1:]), (0, ["2 of 2 entries"]),
       f"{kind}: entries from kernel/")
done()
