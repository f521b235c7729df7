#!/usr/bin/env python3
"""Every documented command line runs as written: the examples of each
command's --help, of `maintstat help`, and the command lines of
README.md and docs/*.md, run by bash in a small world that has what
they name (a kernel-like tree at ~/linux and /usr/src/linux, the list
archives, the inboxes), each exiting 0 without an error.  Only the
lines that reach the network are left out (they are named).  retire's
series applies with the git am line its --help gives, and -o DIR is
--output-dir DIR for retire and report, as in git format-patch."""
import gzip
import os
import re
import subprocess
import sys
sys.path.insert(0, os.path.dirname(__file__))
from mstest import (MAINTSTAT, SOURCE_ROOT, done, eq, ok, run,  # noqa: E402
                    skip, tmpdir)

tmp = tmpdir()
home = os.path.join(tmp, "home")
linux = os.path.join(home, "linux")
os.makedirs(linux)

MAINT = """\
INFINIBAND SUBSYSTEM
M:\tJason Active <jason@example.org>
M:\tOld Timer <old@example.org>
L:\tlinux-rdma@vger.example.org
S:\tSupported
F:\tdrivers/infiniband/

ARM/FOO MACHINE SUPPORT
M:\tArm Person <arm@example.org>
S:\tMaintained
F:\tarch/arm/foo/

NETWORKING [TLS]
M:\tTina Tls <tina@example.org>
M:\tGone Away <gone@example.org>
S:\tMaintained
F:\tnet/tls/

DFU
M:\tDee Eff <dfu@example.org>
S:\tMaintained
F:\tdrivers/dfu/

NETWORKING [GENERAL]
M:\tNet Person <net@example.org>
S:\tMaintained
F:\tnet/

THE REST
M:\tLinus <linus@example.org>
S:\tBuried alive in reporters
F:\t*
F:\t*/
"""
FILES = ["drivers/infiniband/core/cma.c", "arch/arm/foo/board.c",
         "drivers/dfu/dfu.c",
         "net/tls/tls_main.c", "net/core/dev.c", "kernel/sched/core.c"]


def write(rel, text):
    path = os.path.join(linux, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


write("MAINTAINERS", MAINT)
write("CREDITS", "N: Someone\nE: someone@example.org\nD: Things\n\n")
for f in FILES:
    write(f, f"/* {f} */\n")
git = ["git", "-C", linux]
subprocess.run(git + ["init", "-q"], check=True)
subprocess.run(git + ["config", "user.name", "Ex Ample"], check=True)
subprocess.run(git + ["config", "user.email", "ex@example.org"], check=True)
subprocess.run(git + ["add", "."], check=True)
subprocess.run(git + ["commit", "-q", "-m", "Initial import"], check=True)
# commits of the last months by the active maintainers, reviewed
people = [("Jason Active", "jason@example.org", FILES[0]),
          ("Arm Person", "arm@example.org", FILES[1]),
          ("Dee Eff", "dfu@example.org", FILES[2]),
          ("Tina Tls", "tina@example.org", FILES[3]),
          ("Net Person", "net@example.org", FILES[4])]
n = 0
for rnd in range(12):
    for name, email, path in people:
        n += 1
        with open(os.path.join(linux, path), "a") as f:
            f.write(f"int x{n};\n")
        env = dict(os.environ, GIT_AUTHOR_NAME=name, GIT_AUTHOR_EMAIL=email,
                   GIT_COMMITTER_NAME=name, GIT_COMMITTER_EMAIL=email)
        subprocess.run(git + ["commit", "-q", "-a", "-m",
                              f"{path.split('/')[0]}: change {n}\n\n"
                              f"Reviewed-by: Rex <rex@example.net>\n"
                              f"Signed-off-by: {name} <{email}>"],
                       check=True, env=env)
subprocess.run(git + ["tag", "v6.1"], check=True)
# areas --repo u-boot.git: a bare mirror, in the directory the lines run in
subprocess.run(["git", "clone", "-q", "--bare", linux,
                os.path.join(linux, "u-boot.git")], check=True)


def mbox(msgs):
    out = ""
    for i, (mid, subject, body) in enumerate(msgs):
        out += (f"From x@y Mon Jan  2 00:00:00 2023\n"
                f"From: Pat Patcher <pat@example.net>\n"
                f"To: linux-rdma@vger.example.org\n"
                f"Date: Mon, {2 + i} Oct 2023 10:00:00 +0000\n"
                f"Message-ID: <{mid}>\nSubject: {subject}\n\n{body}\n\n")
    return out


PATCH = """\
---
 drivers/infiniband/core/cma.c | 1 +
 1 file changed, 1 insertion(+)

diff --git a/drivers/infiniband/core/cma.c b/drivers/infiniband/core/cma.c
--- a/drivers/infiniband/core/cma.c
+++ b/drivers/infiniband/core/cma.c
@@ -1 +1,2 @@
 /* drivers/infiniband/core/cma.c */
+int y;
--
2.40.0"""
LIST = mbox([("1234@example.org", "[PATCH] RDMA/cma: add y", PATCH),
             ("2345@example.org", "Re: [PATCH] RDMA/cma: add y",
              "Reviewed-by: Jason Active <jason@example.org>")])
for name in ("linux-rdma-2023.mbox.gz", "rdma.mbox.gz"):
    with gzip.open(os.path.join(linux, name), "wt") as f:
        f.write(LIST)
for d in (os.path.join(home, ".local", "share", "maintstat", "inboxes",
                       "ltp"),
          os.path.join(home, ".local", "share", "maintstat", "inboxes",
                       "linux-rdma"),
          os.path.join(home, "inboxes", "ltp")):
    os.makedirs(d)
    with open(os.path.join(d, "list.mbox"), "w") as f:
        f.write(LIST)
os.symlink(linux, os.path.join(linux, "linux-6.1"))
# people's --employers file, in gitdm's domain-map format
with open(os.path.join(linux, "domain-map"), "w") as f:
    f.write("example.org\tExample Inc.\n")


def help_examples(*cmd):
    r = run(*cmd, "--help") if cmd else run("--help")
    m = re.search(r"^Examples:\n(.*)", r.out, re.M | re.S)
    return [l[2:] for l in m.group(1).splitlines()] if m else []


def doc_lines(path):
    """The command lines of a Markdown file: the indented or fenced code
    lines that run maintstat ('$ maintstat ...' or 'maintstat ...')."""
    out = []
    fenced = False
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("```"):
                fenced = not fenced
                continue
            if not (fenced or line.startswith("    ")):
                continue
            s = line.strip()
            if s.startswith("$ "):
                s = s[2:]
            if re.match(r"maintstat [a-z-]", s):
                out.append(s)
    return out


def join_continuations(lines):
    out = []
    for l in lines:
        if out and out[-1].endswith("\\"):
            out[-1] = out[-1][:-1].rstrip() + " " + l.strip()
        else:
            out.append(l)
    return out


commands = re.findall(r"^  ([a-z]+)  ", run("help").out, re.M)
ok(len(commands) >= 14, "maintstat help lists the commands")
lines = [("maintstat --help", l) for l in help_examples()]
for c in commands + ["mail stats", "mail show", "store list"]:
    lines += [(f"{c} --help", l) for l in help_examples(*c.split())]
docs = ["README.md"] + [os.path.join("docs", d) for d in
                        sorted(os.listdir(os.path.join(SOURCE_ROOT, "docs")))
                        if d.endswith(".md")]
for d in docs:
    lines += [(d, l) for l in doc_lines(os.path.join(SOURCE_ROOT, d))]
ok(len(lines) >= 35, "the examples are found", len(lines))

bindir = os.path.join(tmp, "bin")
os.makedirs(bindir)
os.symlink(MAINTSTAT, os.path.join(bindir, "maintstat"))
env = dict(os.environ, HOME=home, PATH=bindir + ":" + os.environ["PATH"],
           XDG_CACHE_HOME=os.path.join(tmp, "cache"))
seen = set()
ran = 0
for where, cmd in [(w, c) for w, l in [(w, join_continuations(
        [x for ww, x in lines if ww == w])) for w in dict(lines)]
        for c in l]:
    if cmd in seen:
        continue
    seen.add(cmd)
    # placeholders of a synopsis, not a command line
    if re.search(r"<command>|\bURL\b|\[options\]|\bCMD\b|\.\.\.", cmd):
        continue
    what = f"{where}: {cmd}"
    if re.search(r"https?://", cmd) or "--check-urls" in cmd:
        skip(what, "reaches the network")
        continue
    line = cmd.replace("/usr/src/linux-6.1", linux).replace(
        "/usr/src/linux", linux)
    p = subprocess.run(["bash", "-o", "pipefail", "-c", line], cwd=linux,
                       env=env, capture_output=True, text=True, timeout=300)
    ran += 1
    errors = [l for l in p.stderr.splitlines()
              if l.startswith("maintstat: ") and
              not l.startswith("maintstat: warning: ")]
    ok(p.returncode == 0 and not errors, f"runs as written: {what}",
       f"exit {p.returncode}\n{p.stderr[-1500:]}")
    if cmd.startswith("maintstat retire"):
        od = os.path.join(linux, "outgoing")
        patches = sorted(os.listdir(od)) if os.path.isdir(od) else []
        ok(len(patches) >= 2 and patches[0] == "0000-cover-letter.patch",
           "retire wrote a cover letter and patches", patches)
    if "git am" in cmd:
        log = subprocess.run(git + ["log", "-1", "--format=%s"],
                             capture_output=True, text=True).stdout
        ok(log.startswith("MAINTAINERS: "),
           "git am applied retire's series", log)
ok(ran >= 30, f"{ran} command lines ran")

# -o DIR is --output-dir DIR for the commands that write several files
out = os.path.join(tmp, "o-retire")
r = run("retire", "--repo", linux, "--rev", "v6.1", "--no-cache",
        "--min-commits", "10", "-o", out, "TLS")
ok(r.rc == 0 and os.path.exists(os.path.join(out, "0000-cover-letter.patch")),
   "retire -o DIR writes the series there", r.err)
out = os.path.join(tmp, "o-report")
r = run("report", "--archive", os.path.join(linux, "rdma.mbox.gz"),
        "--tree", linux, "--no-cache", "-o", out)
ok(r.rc == 0 and os.path.exists(os.path.join(out, "index.html")),
   "report -o DIR writes the site there", r.err)
ok("-o, --output-dir DIR" in run("retire", "--help").out and
   "-o, --output-dir DIR" in run("report", "--help").out,
   "both --help say -o")
done()
