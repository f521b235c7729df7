#!/usr/bin/env python3
"""maintstat maintainers --self-test=sections,patterns against the
kernel's get_maintainer.pl (linux-source-6.1's) on a git work tree built
here, whose MAINTAINERS plants each case of its self_test(): duplicate
section headers (the same, and one that begins an earlier one), sections
without an address (and orphaned or obsolete ones, which need none),
without a status, without an F: or N:, a header whose next field is
blank, '#' lines, F:/X: patterns that match (files, globs, '?', a
directory named with and without its '/', a file only in the work tree
and not in git, an alternation whose left side matches nothing) and
that do not.  Byte for byte; then what maintstat
refuses as the script does (another option, an argument, a
.get_maintainer.conf); then the links and scm checks, which run wget and
git ls-remote as the script does, on links to a server on 127.0.0.1 and
local repositories.
"""
import http.server
import os
import shutil
import socket
import subprocess
import sys
import threading
sys.path.insert(0, os.path.dirname(__file__))
from mstest import MAINTSTAT, ok, eq, done, skip_all, tmpdir  # noqa: E402

LINUX = os.environ.get("MS_LINUX_TREE")
PL = LINUX and os.path.join(LINUX, "scripts", "get_maintainer.pl")
if not PL or not os.path.exists(PL) or not shutil.which("perl"):
    skip_all("no linux-source tree ($MS_LINUX_TREE) or no perl")



class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


tmp = tmpdir()
T = os.path.join(tmp, "tree")
MAINT = """List of maintainers
-------------------

	Preamble: an indented line.

ALPHA DRIVER
M:	Alice <alice@example.org>
S:	Maintained
F:	drivers/alpha/
F:	drivers/alpha
F:	drivers/alpha/*.c
F:	drivers/alpha/a?pha.h
X:	drivers/alpha/none/
F:	drivers/alpha/untracked.c

ALPHA DRIVER
L:	alpha@lists.example.org
S:	Supported
F:	drivers/gone/

ALPHA
M:	a@example.org
S:	Odd Fixes
N:	alpha

BETA THING
S:	Orphan
F:	lib/beta.c

GAMMA THING
S:	Obsolete
F:	lib/gamma*

DELTA THING
M:	d@example.org
F:	lib/delta.c
F:	lib/delta.h

EPSILON
R:	e@example.org
S:	Maintained

# a comment, then a section without anything useful
ZETA
S:	Maintained
F:	lib/zeta.c

ETA
K:	\\beta\\b
M:	e@example.org
S:	Maintained
F:	include/linux/eta.h
F:	Documentation/eta.rst

THETA
S:	
M:	t@example.org
F:	lib/theta.c
IOTA
M:	i@example.org
S:	Maintained
F:	lib/io?a.[ch]
F:	lib/.hidden
F:	nothing|lib/delta.c
X:	lib/iota/
"""
FILES = ["drivers/alpha/alpha.c", "drivers/alpha/alpha.h",
         "drivers/alpha/sub/x.c", "lib/beta.c", "lib/delta.c",
         "lib/theta.c", "lib/iota.c", "include/linux/eta.h"]
os.makedirs(T)
for f in FILES + ["MAINTAINERS"]:
    os.makedirs(os.path.join(T, os.path.dirname(f)), exist_ok=True)
    with open(os.path.join(T, f), "w") as fh:
        fh.write(MAINT if f == "MAINTAINERS" else "x\n")
subprocess.run(["git", "-C", T, "init", "-q"], check=True)
subprocess.run(["git", "-C", T, "add", "-A"], check=True)
with open(os.path.join(T, "drivers/alpha/untracked.c"), "w") as fh:
    fh.write("not in git\n")


def script(*args, cwd=T):
    p = subprocess.run(["perl", PL, *args], cwd=cwd, capture_output=True)
    return p.returncode, p.stdout.decode()


def ms(*args, tree=T):
    p = subprocess.run([MAINTSTAT, "maintainers", "--tree", tree, *args],
                       capture_output=True)
    return p.returncode, p.stdout.decode(), p.stderr.decode()


for which in ("sections,patterns", "sections", "patterns", "patterns "
              "sections", "nothing"):
    rc, want = script(f"--self-test={which}")
    got = ms(f"--self-test={which}")
    eq((got[0], got[1]), (0, want), f"--self-test={which}: the script's "
       f"{want.count(chr(10))} lines")
rc, want = script("--self-test=sections,patterns")
for planted in ("duplicate section header\tALPHA DRIVER",
                "duplicate section header\tALPHA\n",
                "without email address\tZETA", "without status \tDELTA",
                "without file pattern\tEPSILON", "no file matches\tX:",
                "no file matches\tF:\tdrivers/alpha/untracked.c",
                "no file matches\tF:\tlib/.hidden"):
    ok(planted in want, f"the script says '{planted.strip()}'", want)
sec = "".join(l for l in want.splitlines(True) if "section" in l)
ok("BETA" not in sec and "GAMMA" not in sec and "\tETA\n" not in sec,
   "... and no section warning for the orphaned, obsolete and complete "
   "sections", want)

# refused as the script refuses: exit 2, nothing printed
for args in (["--self-test=sections", "-f", "lib/beta.c"],
             ["--self-test", "sections"], ["--self-test=patterns", "--git"]):
    rc, _ = script(*args)
    got = ms(*args)
    ok(rc != 0 and got[0] == 2 and not got[1] and "does not allow" in
       got[2], f"{' '.join(args)}: refused, as by the script", got)
with open(os.path.join(T, ".get_maintainer.conf"), "w") as fh:
    fh.write("--nogit\n")
got = ms("--self-test=sections")
ok(got[0] == 2 and "does not allow" in got[2] and script(
   "--self-test=sections")[0] != 0, "... and with a .get_maintainer.conf",
   got)
os.remove(os.path.join(T, ".get_maintainer.conf"))
# the links and scm checks: the script's wget --spider and git ls-remote,
# on links to a server on 127.0.0.1 (a page, a missing one, a closed
# port) and local repositories (a branch, a missing one, no repository),
# values met twice, a T: malformed and one neither checks
srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Quiet)
threading.Thread(target=srv.serve_forever, daemon=True).start()
closed = socket.socket()
closed.bind(("127.0.0.1", 0))
U = f"http://127.0.0.1:{srv.server_address[1]}"
DEAD = f"http://127.0.0.1:{closed.getsockname()[1]}"
R = os.path.join(tmp, "remote")
subprocess.run(["git", "init", "-q", "-b", "main", R], check=True)
subprocess.run(["git", "-C", R, "-c", "user.name=R", "-c",
                "user.email=r@x.org", "commit", "-q", "--allow-empty",
                "-m", "r"], check=True)
L = os.path.join(tmp, "links")
os.makedirs(L)
with open(os.path.join(L, "page"), "w") as fh:
    fh.write("here\n")
os.chdir(L)    # the server serves the current directory
with open(os.path.join(L, "MAINTAINERS"), "w") as fh:
    fh.write(f"""LINKS
M:\tA <a@example.org>
S:\tMaintained
W:\t{U}/page
W:\t{U}/missing
Q:\t{DEAD}/gone
B:\t{U}/page
W:\tftp://example.org/not-http
B:\t{U}/missing?component=x&product=y
W:\t{U}/page #comment
W:\t{U}/missing
T:\tgit {R}
T:\tgit {R} main
T:\tgit {R} nosuch
T:\tgit {R} main (the main branch)
T:\tgit {tmp}/no-repo
T:\tcvs {R}
T:\tquilt {U}/page
T:\thg {U}/missing
T:\thg ftp://example.org/x
T:\tgit {R}
F:\tpage
""")
subprocess.run(["git", "-C", L, "init", "-q"], check=True)
subprocess.run(["git", "-C", L, "add", "-A"], check=True)
for which in ("links", "scm", "links,scm", ""):
    args = [f"--self-test={which}"] if which else ["--self-test"]
    rc, want = script(*args, cwd=L)
    got = ms(*args, tree=L)
    eq((got[0], got[1]), (0, want), f"{args[0]}: the script's "
       f"{want.count(chr(10))} lines")
rc, want = script("--self-test=links,scm", cwd=L)
for planted in (f"possible bad link\tW:\t{U}/missing",
                f"possible bad link\tQ:\t{DEAD}/gone",
                f"possible bad link\tT:\tgit {R} nosuch",
                f"possible bad link\tT:\tgit {tmp}/no-repo",
                "malformed entry\tT:\tcvs",
                f"possible bad link\tT:\thg {U}/missing"):
    ok(planted in want, f"the script says '{planted}'", want)
ok("product=y" not in want and "page #comment" in want and
   (f"/page\n" not in want or not shutil.which("wget")) and
   f"git {R}\n" not in want and
   f"main\n" not in want and "(the main branch)" in want, "... and no "
   "warning for what it reaches, nor for a link sh cuts at '&' (a "
   "branch and a note is sh's syntax error; without a character that "
   "makes Perl call sh, '#comment' is wget's second link)", want)
srv.shutdown()
closed.close()
# without a VCS the script matches patterns against "0": all warn
N = os.path.join(tmp, "novcs")
shutil.copytree(T, N, ignore=shutil.ignore_patterns(".git"))
rc, want = script("--self-test=patterns", cwd=N)
got = ms("--self-test=patterns", tree=N)
ok(want.count("no file matches") > 10 and (got[0], got[1]) == (0, want),
   "no VCS: every pattern warns, as the script's", (want, got))
done()
