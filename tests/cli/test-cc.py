#!/usr/bin/env python3
"""maintstat maintainers (who to Cc) on fixtures/maintainers: roles, lists,
order, switches, patches and mboxes, and the bad inputs: a patch with no
diff, a binary diff, a path outside the tree, a non-UTF-8 path, an mbox of
several patches (the union of their files)."""
import os
import shutil
import subprocess
import sys
sys.path.insert(0, os.path.dirname(__file__))
from mstest import SCHEMA, run, ok, eq, done, tmpdir, FIXTURES, MAINTSTAT  # noqa: E402,E501

FIX = os.path.join(FIXTURES, "maintainers")
FILES = ["drivers/alpha/core.c", "drivers/alpha/main.c",
         "drivers/alpha/legacy/old.c", "drivers/beta/b1.c",
         "include/linux/beta.h", "arch/sun8i/board.c", "lib/orphan.c",
         "README"]

tree = tmpdir()
shutil.copy(os.path.join(FIX, "MAINTAINERS"), tree)
for f in FILES:
    os.makedirs(os.path.join(tree, os.path.dirname(f)), exist_ok=True)
    with open(os.path.join(tree, f), "w") as fp:
        fp.write(f"/* {f} */\n")
work = tmpdir()


def mm(*args, stdin=None):
    return run("maintainers", "--tree", tree, *args, stdin=stdin)


ALICE = "Alice Example <alice@example.com>"
BOB = "Bob Reviewer <bob@example.com>"
LINUS = "Linus <torvalds@example.org>"
CAROL = "Carol Core <carol@example.com>"
ALPHA_L = "alpha@lists.example.org"
LKML = "linux-kernel@lists.example.org"

# --- paths ------------------------------------------------------------------
r = mm("drivers/alpha/main.c")
eq(r.rc, 0, "a path: exit 0")
eq(r.out, f"{ALICE} (maintainer:ALPHA DRIVER)\n"
   f"{BOB} (reviewer:ALPHA DRIVER)\n"
   f"{LINUS} (chief penguin:THE REST)\n"
   f"{ALPHA_L} (open list:ALPHA DRIVER)\n"
   f"{LKML} (open list)\n",
   "people then lists, roles from S:, THE REST's list without a name")

r = mm("drivers/alpha/core.c")
eq(r.out.splitlines()[:3],
   [f"{CAROL} (supporter:ALPHA DRIVER CORE)",
    f"{ALICE} (maintainer:ALPHA DRIVER)",
    f"{BOB} (reviewer:ALPHA DRIVER)"],
   "deepest entry first; S: Supported is 'supporter'")

r = mm("drivers/alpha/legacy/old.c")
eq(r.out, f"{LINUS} (chief penguin:THE REST)\n{LKML} (open list)\n",
   "an X: pattern drops the entry")

r = mm("drivers/alpha/main.c", "drivers/alpha/core.c")
eq(len([l for l in r.out.splitlines() if ALICE in l]), 1,
   "a person of two paths is listed once")

r = mm("--no-rolestats", "drivers/alpha/main.c")
eq(r.out, f"{ALICE}\n{BOB}\n{LINUS}\n{ALPHA_L}\n{LKML}\n", "--no-rolestats")
r = mm("--no-rolestats", "--separator", ", ", "--no-multiline",
       "drivers/alpha/main.c")
eq(r.out, f"{ALICE}, {BOB}, {LINUS}, {ALPHA_L}, {LKML}\n", "--no-multiline")
r = mm("--no-rolestats", "--separator", " | ", "drivers/alpha/main.c")
eq(r.out, f"{ALICE} | {BOB} | {LINUS} | {ALPHA_L} | {LKML}\n",
   "--separator joins on one line")
r = mm("--no-rolestats", "--no-l", "--no-r", "drivers/alpha/main.c")
eq(r.out, f"{ALICE}\n{LINUS}\n", "--no-l --no-r")
r = mm("--no-rolestats", "--no-m", "drivers/alpha/main.c")
eq(r.out, f"{BOB}\n{ALPHA_L}\n{LKML}\n", "--no-m")
r = mm("--no-rolestats", "--no-n", "--no-l", "drivers/alpha/main.c")
eq(r.out, "alice@example.com\nbob@example.com\ntorvalds@example.org\n",
   "--no-n: addresses only")
r = mm("--no-email", "--subsystem", "--status", "drivers/alpha/main.c")
eq(r.out, f"{ALPHA_L} (open list:ALPHA DRIVER)\n{LKML} (open list)\n"
   "Maintained\nBuried alive in reporters\nALPHA DRIVER\nTHE REST\n",
   "--no-email --subsystem --status")
r = mm("--no-email", "drivers/alpha/main.c")
eq(r.rc, 2, "--no-email alone is a usage error")
r = mm("--no-m", "--no-r", "--no-l", "drivers/alpha/main.c")
eq(r.rc, 2, "no email kind left is a usage error")
r = mm()
eq(r.rc, 2, "no argument is a usage error")

r = mm("--json", "drivers/alpha/main.c")
doc = r.json()
eq(doc["schema_version"], SCHEMA, "schema_version")
eq(doc["file_list"], ["drivers/alpha/main.c"], "JSON: the files looked up")
eq([(c["name"], c["email"], c["kind"], c["entry"]) for c in doc["cc"]],
   [("Alice Example", "alice@example.com", "maintainer", "ALPHA DRIVER"),
    ("Bob Reviewer", "bob@example.com", "reviewer", "ALPHA DRIVER"),
    ("Linus", "torvalds@example.org", "maintainer", "THE REST"),
    (None, ALPHA_L, "list", "ALPHA DRIVER"),
    (None, LKML, "list", "THE REST")], "JSON: each line's fields")
eq(doc["text"], f"{ALICE} (maintainer:ALPHA DRIVER)\n"
   f"{BOB} (reviewer:ALPHA DRIVER)\n{LINUS} (chief penguin:THE REST)\n"
   f"{ALPHA_L} (open list:ALPHA DRIVER)\n{LKML} (open list)\n",
   "JSON: the text get_maintainer.pl prints")
eq(doc["subsystem"], ["ALPHA DRIVER", "THE REST"], "JSON: the entries")

r = mm("--to-cc", "drivers/alpha/main.c")
import shlex  # noqa: E402
import subprocess  # noqa: E402
TO_CC = ["--to=alice@example.com", "--cc=bob@example.com",
         "--to=torvalds@example.org", f"--cc={ALPHA_L}", f"--cc={LKML}"]
eq(shlex.split(r.out), TO_CC, "--to-cc: --to for M: people, --cc for "
   "reviewers and lists, bare addresses")
# what `git send-email $(maintstat maintainers --to-cc ...)` gets
sh = subprocess.run(["sh", "-c", 'set -- $("$@"); printf "%s\\n" "$@"',
                     "sh", MAINTSTAT, "maintainers", "--tree", tree,
                     "--to-cc", "drivers/alpha/main.c"],
                    capture_output=True, text=True)
eq(sh.stdout.splitlines(), TO_CC, "--to-cc inside $(...): one word per "
   "argument, as through xargs")

# --- patches ------------------------------------------------------------------


def patch(name, body):
    p = os.path.join(work, name)
    with open(p, "wb") as f:
        f.write(body)
    return p


BETA = patch("beta.patch", b"""From 1 Mon Sep 17 00:00:00 2001
From: Someone <someone@example.net>
Subject: [PATCH] beta: fix

---
 drivers/beta/b1.c | 2 +-
diff --git a/drivers/beta/b1.c b/drivers/beta/b1.c
index 1111111..2222222 100644
--- a/drivers/beta/b1.c
+++ b/drivers/beta/b1.c
@@ -1,1 +1,1 @@
-old
+new
""")
r = mm("--no-rolestats", BETA)
eq(r.out, "Dan Beta <dan@example.com>\nEve Overlap <eve@example.com>\n"
   f"{LINUS}\n{LKML}\n", "a patch: the files of its diff")
r = mm("--no-rolestats", "-", stdin=open(BETA, "rb").read())
eq(r.out, "Dan Beta <dan@example.com>\nEve Overlap <eve@example.com>\n"
   f"{LINUS}\n{LKML}\n", "'-' detects a patch on stdin")
r = mm("--no-rolestats", "--no-l", "-",
       stdin=b"drivers/alpha/main.c\n\nlib/orphan.c\n")
eq(r.out, f"{ALICE}\n{BOB}\n{LINUS}\n", "'-' reads paths on stdin")

nodiff = patch("nodiff.patch", b"From: a@example.com\nSubject: hello\n\n"
               b"Just words, no diff.\n")
r = mm(nodiff)
eq(r.out, "", "a patch with no diff: nothing printed")
ok("doesn't appear to be a patch" in r.err and "nodiff.patch" in r.err,
   "a patch with no diff: warned, named", r.err)

binary = patch("binary.patch", b"""diff --git a/drivers/beta/blob.bin b/drivers/beta/blob.bin
new file mode 100644
index 0000000..e69de29
GIT binary patch
literal 4
LcmZQzWMT#Y01f~L

literal 0
HcmV?d00001

""")
r = mm("--no-rolestats", binary)
eq(r.rc, 0, "a binary diff: exit 0")
ok("Dan Beta <dan@example.com>" in r.out,
   "a binary diff: its file's entry is found", r.out)

mbox = patch("series.mbox", open(BETA, "rb").read() + b"""
From 2 Mon Sep 17 00:00:00 2001
From: Someone <someone@example.net>
Subject: [PATCH 2/2] alpha: fix

diff --git a/drivers/alpha/core.c b/drivers/alpha/core.c
--- a/drivers/alpha/core.c
+++ b/drivers/alpha/core.c
@@ -1,1 +1,1 @@
-a
+b
""")
r = mm("--no-rolestats", "--no-l", "--json", mbox)
eq(r.json()["file_list"], ["drivers/alpha/core.c", "drivers/beta/b1.c"],
   "an mbox of several patches: the union of their files, sorted")
eq(r.json()["text"], f"{CAROL}\n{ALICE}\n{BOB}\n{LINUS}\n"
   "Dan Beta <dan@example.com>\nEve Overlap <eve@example.com>\n",
   "an mbox: the people of every patch")

latin1 = patch("latin1.patch", b"""diff --git a/drivers/beta/caf\xe9.c b/drivers/beta/caf\xe9.c
--- a/drivers/beta/caf\xe9.c
+++ b/drivers/beta/caf\xe9.c
@@ -1,1 +1,1 @@
-a
+b
""")
r = mm("--no-rolestats", "--json", latin1)
eq(r.rc, 0, "a non-UTF-8 path in a patch: exit 0")
ok("Dan Beta <dan@example.com>" in r.json()["text"],
   "a non-UTF-8 path: matched bytewise", r.out)
ok(r.json()["file_list"][0].startswith("drivers/beta/caf"),
   "a non-UTF-8 path: valid JSON all the same", r.out)

outside = patch("outside.patch", b"""diff --git a/../../etc/passwd b/../../etc/passwd
--- a/../../etc/passwd
+++ b/../../etc/passwd
@@ -1,1 +1,1 @@
-a
+b
""")
r = mm("--no-rolestats", outside)
eq(r.rc, 0, "a patch naming a path outside the tree: exit 0")
eq(r.out, f"{LINUS}\n{LKML}\n", "outside the tree: only THE REST")

r = mm("../outside.c")
eq(r.rc, 1, "a path outside the tree: exit 1")
ok("'../outside.c' is neither a path of" in r.err, "named", r.err)
r = mm("--paths", "drivers/nosuch.c")
eq(r.rc, 1, "--paths with a missing path: exit 1")
ok("file 'drivers/nosuch.c' not found" in r.err, "named", r.err)
r = run("maintainers", "--tree", tree, b"caf\xe9.c".decode("latin-1"))
eq(r.rc, 1, "a non-UTF-8 path argument: exit 1, no crash")

# K: keywords on changed lines (planted: a K: entry)
kw = os.path.join(work, "MAINTAINERS.kw")
with open(os.path.join(FIX, "MAINTAINERS")) as f:
    text = f.read()
with open(kw, "w") as f:
    f.write(text + "\nKEYWORD WATCH\nM:\tKim Keyword <kim@example.com>\n"
            "S:\tMaintained\nK:\t\\bfrobnicate\\b\n")
kwpatch = patch("kw.patch", b"""Subject: [PATCH] lib: tidy

diff --git a/lib/orphan.c b/lib/orphan.c
--- a/lib/orphan.c
+++ b/lib/orphan.c
@@ -1,1 +1,2 @@
 frobnicate() context is not a change
+int frobnicate(void);
""")
r = mm("--maintainers", kw, "--no-rolestats", "--no-l", kwpatch)
eq(r.out, f"{LINUS}\nKim Keyword <kim@example.com>\n",
   "K: matched on an added line")
kwctx = patch("kwctx.patch", open(kwpatch, "rb").read().replace(
    b"+int frobnicate(void);\n", b"+int other(void);\n"))
r = mm("--maintainers", kw, "--no-rolestats", "--no-l", kwctx)
eq(r.out, f"{LINUS}\n", "K: not matched on a context line")
r = mm("--maintainers", kw, "--no-rolestats", "--no-l", "--no-keywords",
       kwpatch)
eq(r.out, f"{LINUS}\n", "--no-keywords")

# K: patterns are first matched once on all the lines they are tried on,
# joined (maint-cc.c, k_maybe()); only a miss there is taken, a hit is
# tried line by line as the script does (m/^[+-].*$value/x after the
# first "---"/"+++" line, m/$value/x before).  Each entry as the script
# answers (perl agrees): a wrong "no" from the joined text drops one.
kpats = [
    ("PLAIN", r"frob_b", True),
    ("NEVER", r"never_seen", False),
    ("WORDS", r"\bfrob_c\b", True),
    # its \s takes the line's own newline, then "$" is the line's end
    ("NEWLINE", r"frob_e\s$", True),
    # the last line, which has no newline
    ("LAST", r"tail_end$", True),
    # across two lines only, never one line alone
    ("ACROSS", r"frob_a\s+\+frob_b", False),
    # "^[+-].*never_here|ctx_only": the second branch on a context line
    ("BRANCH", r"never_here|ctx_only", True),
    ("CONTEXT", r"ctx_only", False),
    # before the first "---" line: the value alone, on any line
    ("MESSAGE", r"msg_word", True),
    ("CASELESS", r"(?i)FROB_B", True),
    # not joined: matched line by line only
    ("AHEAD", r"frob_b(?!\s)", False),
    ("BEHIND", r"(?<=\+)frob_b", True),
    ("START", r"(?<!\s)msg_word", True),
    ("TOP", r"\Amsg_word", True),
]
with open(kw, "w") as f:
    f.write(text)
    for name, pat, _ in kpats:
        f.write("\n%s\nM:\t%s <%s@example.com>\nS:\tMaintained\nK:\t%s\n"
                % (name, name.title(), name.lower(), pat))
body = "".join("+line %d;\n-old %d;\n" % (i, i) for i in range(400))
kbig = patch("kbig.patch", ("Subject: [PATCH] lib: many\n\nmsg_word\n---\n"
                            "diff --git a/lib/orphan.c b/lib/orphan.c\n"
                            "--- a/lib/orphan.c\n+++ b/lib/orphan.c\n"
                            "@@ -1,400 +1,406 @@\n ctx_only\n" + body +
                            "+frob_a\n+frob_b\n+x frob_c;\n+frob_e\n"
                            "+tail_end").encode())
r = mm("--maintainers", kw, "--no-rolestats", "--no-l", kbig)
eq(sorted(line.split()[0] for line in r.out.splitlines()
          if "example.com" in line),
   sorted(n.title() for n, _, m in kpats if m),
   "K: patterns on 800 changed lines: each as the script answers")

# --- Xen's brace alternations in F:/X: ----------------------------------------
xen = tmpdir()
for f in ("xen/common/kexec.c", "xen/common/kimage.c", "xen/common/other.c",
          "xen/common/kexecX.c", "xen/include/xen/kimage.h"):
    os.makedirs(os.path.join(xen, os.path.dirname(f)), exist_ok=True)
    open(os.path.join(xen, f), "w").close()
with open(os.path.join(xen, "MAINTAINERS"), "w") as f:
    f.write("KEXEC\nM:\tKay Exec <kay@example.org>\nS:\tSupported\n"
            "F:\txen/common/{kexec,kimage}.c\n"
            "F:\txen/include/xen/{kexec,kimage,kboot}.h\n"
            "X:\txen/common/{a,b,c,other}.c\n\n"
            "THE REST\nM:\tRest <rest@example.org>\nS:\tSupported\n"
            "F:\t*\nF:\t*/\n")
r = run("sections", "--json", xen, "xen/common/kexec.c", "xen/common/kimage.c",
        "xen/common/kexecX.c", "xen/include/xen/kimage.h")
eq([p["sections"] for p in r.json()["paths"]],
   [["KEXEC", "THE REST"], ["KEXEC", "THE REST"], ["THE REST"],
    ["KEXEC", "THE REST"]],
   "F: {a,b} and {a,b,c} are alternations, as Xen's get_maintainer.pl has")
r = run("maintainers", "--tree", xen, "--no-rolestats", "xen/common/other.c")
eq(r.out, "Rest <rest@example.org>\n", "X: {a,b,c,d} excludes as well")
os.makedirs(os.path.join(xen, "scripts"))
with open(os.path.join(xen, "scripts", "get_maintainer.pl"), "w") as f:
    f.write('my @penguin_chief = ();\n'
            'push(@penguin_chief, "Rest:rest\\@example.org");\n'
            '#push(@penguin_chief, "Kay Exec:kay\\@example.org");\n')
r = run("maintainers", "--tree", xen, "--no-rolestats",
        "xen/common/kexec.c")
eq(r.out, "Kay Exec <kay@example.org>\n",
   "the chief penguin of the tree's own get_maintainer.pl is dropped "
   "(U-Boot names Tom Rini), a commented one is not")
r = run("coverage", "--tree", xen, "--json")
eq(r.rc, 0, "coverage reads braces too")
shutil.rmtree(xen, ignore_errors=True)


# --- QEMU's get_maintainer.pl (dialect) -------------------------------------
# A tree whose scripts/get_maintainer.pl is QEMU's (it says "a QEMU source
# tree"): entries are named by the line above their fields (the underline
# of a title), names cut at 20 characters (17 and "..."), and the
# addresses of .ignoredmailmap never printed.
qemu = tmpdir()
DASHES = "-" * 30
with open(os.path.join(qemu, "MAINTAINERS"), "w") as f:
    f.write("QEMU Maintainers\n================\n\n"
            f"General Project Administration\n{DASHES}\n"
            "M: Peter Example <peter@example.org>\nF: docs/\n\n"
            "All patches CC here\nL: devel@lists.example.org\nF: *\n"
            "F: */\n\n"
            "ARM TCG CPUs with a long name\nM: Ann Arm <ann@example.org>\n"
            "M: Gone Away <gone@example.org>\n"
            "R: Rev Iewer <rev@example.org>\nL: arm@lists.example.org\n"
            "S: Maintained\nF: target/arm/\n")
with open(os.path.join(qemu, ".ignoredmailmap"), "w") as f:
    f.write("# addresses that bounce\nGone Away <gone@example.org>\n"
            "<ann@example.org>\n")
for d, body in (("scripts/get_maintainer.pl",
                 "die \"does not appear to be a QEMU source tree\";\n"),
                ("target/arm/cpu.c", "int cpu;\n"),
                ("docs/index.rst", "docs\n")):
    os.makedirs(os.path.join(qemu, os.path.dirname(d)), exist_ok=True)
    with open(os.path.join(qemu, d), "w") as f:
        f.write(body)
r = run("maintainers", "--tree", qemu, "target/arm/cpu.c")
eq((r.rc, r.out),
   (0, "Ann Arm <ann@example.org> (maintainer:ARM TCG CPUs with...)\n"
       "Rev Iewer <rev@example.org> (reviewer:ARM TCG CPUs with...)\n"
       "arm@lists.example.org (open list:ARM TCG CPUs with...)\n"
       "devel@lists.example.org (open list:All patches CC here)\n"),
   "qemu: names cut at 20, .ignoredmailmap's Name <addr> dropped, its "
   "bare <addr> not")
r = run("maintainers", "--tree", qemu, "--subsystem", "docs/index.rst")
eq(r.out, f"Peter Example <peter@example.org> (unknown:{'-' * 17}...)\n"
   "devel@lists.example.org (open list:All patches CC here)\n"
   f"{DASHES}\nAll patches CC here\n",
   "qemu: an entry under an underline is named by the underline")
r = run("maintainers", "--tree", qemu, "--dialect", "kernel",
        "target/arm/cpu.c", "docs/index.rst")
# the kernel's script names an entry by the line above its fields too
# (find_starting_index()): an underlined title by its underline, as
# DPDK's MAINTAINERS has them (all 7,105 DPDK files now answer as the
# kernel's script does; 24 of 1,000 did not)
KERNEL_ANSWER = (
    "Ann Arm <ann@example.org> (maintainer:ARM TCG CPUs with a long "
    "name)\nGone Away <gone@example.org> (maintainer:ARM TCG CPUs with a "
    "long name)\nRev Iewer <rev@example.org> (reviewer:ARM TCG CPUs with a "
    f"long name)\nPeter Example <peter@example.org> (unknown:{DASHES})\n"
    "arm@lists.example.org (open list:ARM TCG CPUs with a long name)\n"
    "devel@lists.example.org (open list:All patches CC here)\n")
eq(r.out, KERNEL_ANSWER,
   "--dialect kernel on the same tree: the kernel's answer")
KERNEL_PL = os.path.join(os.environ.get("MS_LINUX_TREE", "/nonexistent"),
                         "scripts", "get_maintainer.pl")
if os.path.exists(KERNEL_PL) and shutil.which("perl"):
    p = subprocess.run(["perl", KERNEL_PL, "--no-tree", "--no-git",
                        "--no-git-fallback", "-f", "target/arm/cpu.c",
                        "-f", "docs/index.rst"], cwd=qemu,
                       capture_output=True, text=True)
    eq(p.stdout, KERNEL_ANSWER, "... which is what the kernel's own "
       "get_maintainer.pl prints there")
r = run("maintainers", "--tree", tree, "--dialect", "qemu",
        "drivers/alpha/main.c")
ok(r.out.startswith(f"{ALICE} (maintainer:ALPHA DRIVER)\n") and
   "(chief penguin:THE REST)" in r.out,
   "--dialect qemu on a kernel-style tree: short names unchanged", r.out)
r = run("maintainers", "--tree", qemu, "--dialect", "barebox", "README")
eq(r.rc, 2, "--dialect: an unknown name is a usage error")
shutil.rmtree(qemu, ignore_errors=True)

# QEMU's script reads MAINTAINERS its own way: any byte before ':' makes a
# field (a "s:" line stays in its entry, where the kernel's starts a new
# section with it), a '#' line is a title (between two fields it ends the
# entry, and names the fields after it), a P: names the bare address
# under it, and addresses in a file (a .yaml one too) are read only with
# --file-emails, from the paths given, without the .mailmap.
qemu = tmpdir()
with open(os.path.join(qemu, "MAINTAINERS"), "w") as f:
    f.write("QEMU Maintainers\n================\n\nBoards\n------\n"
            "Board A\nM: Ann Arm <ann@example.org>\ns: Maintained\n"
            "F: hw/board/\n\n"
            "Board B\nM: Bea Bus <bea@example.org>\n"
            "# the bus driver is Carl's\nM: Carl Bus <carl@example.org>\n"
            "F: hw/bus/\n\n"
            "Board D\nP: Dee Person\nM: dee@example.org\nF: hw/dee/\n")
with open(os.path.join(qemu, ".mailmap"), "w") as f:
    f.write("Yam Mapped <yam@example.org>\n")
for d, body in (("scripts/get_maintainer.pl",
                 "die \"does not appear to be a QEMU source tree\";\n"),
                ("hw/board/a.c", "int a;\n"),
                ("hw/board/a.yaml", "Yam Yaml <yam@example.org>\n"),
                ("hw/bus/b.c", "int b;\n"),
                ("hw/dee/d.c", "int d;\n")):
    os.makedirs(os.path.join(qemu, os.path.dirname(d)), exist_ok=True)
    with open(os.path.join(qemu, d), "w") as f:
        f.write(body)
ANN_A = "Ann Arm <ann@example.org> (unknown:Board A)\n"
r = run("maintainers", "--tree", qemu, "hw/board/a.c")
eq((r.rc, r.out), (0, ANN_A),
   "qemu: an 's:' line is a field: Board A keeps its F:")
r = run("maintainers", "--tree", qemu, "--dialect", "kernel", "hw/board/a.c")
eq(r.out, "", "kernel: 's: Maintained' is a title: its F: has no M:")
r = run("maintainers", "--tree", qemu, "hw/bus/b.c")
eq(r.out, "Carl Bus <carl@example.org> (unknown:# the bus driver...)\n",
   "qemu: a '#' line between fields starts an entry named by it")
r = run("maintainers", "--tree", qemu, "--subsystem", "--no-email",
        "hw/bus/b.c")
eq(r.out, "# the bus driver is Carl's\n", "qemu: --subsystem prints it")
r = run("maintainers", "--tree", qemu, "--dialect", "kernel", "hw/bus/b.c")
eq(r.out, "Bea Bus <bea@example.org> (unknown:Board B)\n"
   "Carl Bus <carl@example.org> (unknown:Board B)\n",
   "kernel: the '#' line is skipped")
r = run("maintainers", "--tree", qemu, "hw/dee/d.c")
eq(r.out, "Dee Person <dee@example.org> (unknown:Board D)\n",
   "qemu: P: names the bare M: address under it")
r = run("maintainers", "--tree", qemu, "--dialect", "kernel", "hw/dee/d.c")
eq(r.out, "dee@example.org (unknown:Board D)\n", "kernel: P: names no one")
r = run("maintainers", "--tree", qemu, "hw/board/a.yaml")
eq(r.out, ANN_A, "qemu: a .yaml file's addresses need --file-emails")
r = run("maintainers", "--tree", qemu, "--file-emails", "hw/board/a.yaml")
eq(r.out, ANN_A + "Yam Yaml <yam@example.org> (in file)\n",
   "qemu --file-emails: the address, not mailmapped")
r = run("maintainers", "--tree", qemu, "--dialect", "kernel",
        "hw/board/a.yaml")
eq(r.out, "Yam Mapped <yam@example.org> (in file)\n",
   "kernel: a .yaml file's addresses always, mailmapped")
patch = os.path.join(work, "yaml.patch")
with open(patch, "w") as f:
    f.write("--- a/hw/board/a.yaml\n+++ b/hw/board/a.yaml\n"
            "@@ -1,1 +1,1 @@\n-x\n+y\n")
r = run("maintainers", "--tree", qemu, "--file-emails", patch)
eq(r.out, ANN_A, "qemu: a patch's files are not read for addresses")
# QEMU's script names a patch's files by its "+++" lines only: a deletion
# names "dev/null", a pure rename nothing; the kernel's reads the "---",
# "diff --git" and "rename" lines too
with open(patch, "w") as f:
    f.write("diff --git a/hw/dee/d.c b/hw/dee/d.c\ndeleted file mode 100644\n"
            "--- a/hw/dee/d.c\n+++ /dev/null\n@@ -1,1 +0,0 @@\n-int d;\n")
r = run("maintainers", "--tree", qemu, patch)
eq(r.out, "", "qemu: a deletion's '--- a/' line names no file")
r = run("maintainers", "--tree", qemu, "--dialect", "kernel", patch)
eq(r.out, "dee@example.org (unknown:Board D)\n",
   "kernel: the deleted file is looked up")
with open(patch, "w") as f:
    f.write("diff --git a/hw/bus/b.c b/hw/dee/d.c\nsimilarity index 100%\n"
            "rename from hw/bus/b.c\nrename to hw/dee/d.c\n")
r = run("maintainers", "--tree", qemu, patch)
eq((r.out, "doesn't appear to be a patch" in r.err), ("", True),
   "qemu: a pure rename has no '+++' line: not a patch")
# --activity reads MAINTAINERS the kernel's way, entry by entry: where
# QEMU's reading makes other entries, the answer keeps the kernel's
import subprocess  # noqa: E402
qgit = ["git", "-C", qemu, "-c", "user.name=T", "-c",
        "user.email=t@example.org"]
subprocess.run(["git", "init", "-q", qemu], check=True)
subprocess.run(qgit + ["add", "-A"], check=True)
subprocess.run(qgit + ["commit", "-qm", "tree"], check=True)
r = run("maintainers", "--repo", os.path.join(qemu, ".git"), "--activity",
        "hw/bus/b.c")
ok(r.rc == 0 and "with --activity the answer reads it the kernel's way"
   in r.err and r.out.startswith("Bea Bus <bea@example.org> (unknown:"
                                 "Board B"),
   "qemu --activity: entries split otherwise: the kernel's reading, "
   "with a warning", r.out + r.err)
shutil.rmtree(qemu, ignore_errors=True)

# --- entries ----------------------------------------------------------------
r = run("entries", "--tree", tree, "--json")
eq(r.rc, 0, "entries: exit 0")
ents = {e["name"]: e for e in r.json()["entries"]}
eq(len(ents), 7, "entries: every entry of the file")
a = ents["ALPHA DRIVER"]
eq((a["status"], a["maintainer_count"], a["reviewer_count"],
    a["list_count"], a["files"]),
   ("Maintained", 1, 1, 1, 2),
   "ALPHA DRIVER: S:, M:/R:/L: counts, 2 files (X: drops legacy/)")
eq(a["line"], 10, "ALPHA DRIVER: the line of its name")
eq(ents["BETA SUBSYSTEM"]["files"], 2, "BETA SUBSYSTEM: two files")
eq(ents["NO PATTERNS AT ALL"]["files"], 0, "no patterns: no files")
eq(ents["THE REST"]["files"], len(FILES) + 1, "THE REST: every file")
eq(ents["NO PATTERNS AT ALL"]["status"], "Orphan", "the S: value")
r = run("entries", "--tree", tree, "--json", "alpha")
eq([e["name"] for e in r.json()["entries"]],
   ["ALPHA DRIVER", "ALPHA DRIVER CORE"], "entries PATTERN: substring")
r = run("entries", "--tree", tree, "--json", "*t?o")
eq([e["name"] for e in r.json()["entries"]], ["BETA TOO"],
   "entries PATTERN: a glob over the whole name, any case")
r = run("entries", "--tree", tree, "nothing-like-this")
eq(r.rc, 2, "entries: a pattern matching nothing is a usage error, as an "
   "unknown ENTRY of other commands")
r = run("entries", "--tree", tree, "a", "b")
eq(r.rc, 2, "entries: two patterns are a usage error")
r = run("entries", "--tree", tree, "beta too")
ok("BETA TOO\n  " in r.out and ":31  Odd Fixes  M:1 R:0 L:0  1 file\n"
   in r.out, "entries: text form", r.out)


# --- the quick program ------------------------------------------------------
# `maintstat` answers the MAINTAINERS commands without the 54 libraries of
# the history and list stages (main-quick.c; SQLite and ISA-L only, for
# the git logs the store keeps), and hands the rest to
# maintstat-full beside it, the one other program: it has every command and
# loads libcurl only when the network is used (fetch/http.c).
import subprocess  # noqa: E402
from mstest import MAINTSTAT  # noqa: E402
needed = subprocess.run(["readelf", "-d", MAINTSTAT], capture_output=True,
                        text=True).stdout
libs = sorted(set(l.split("[")[1].split("]")[0] for l in needed.splitlines()
                  if "(NEEDED)" in l))
ok(libs and not [l for l in libs if l.split(".so")[0] in
                 ("libgmime-3.0", "libcurl", "libgit2", "libgio-2.0",
                  "libgobject-2.0")],
   "the quick maintstat loads no GMime, curl, libgit2", libs)
ok(os.access(os.path.join(os.path.dirname(os.path.realpath(MAINTSTAT)),
                          "maintstat-full"), os.X_OK),
   "maintstat-full is built beside maintstat")
here = os.path.dirname(os.path.realpath(MAINTSTAT))
full = os.path.join(here, "maintstat-full")
for gone in ("maintstat-net", "maintstat-mail"):
    ok(not os.path.exists(os.path.join(here, gone)),
       f"no {gone}: two programs", gone)
needed = subprocess.run(["readelf", "-d", full], capture_output=True,
                        text=True).stdout
libs = sorted(set(l.split("[")[1].split("]")[0] for l in needed.splitlines()
                  if "(NEEDED)" in l))
ok([l for l in libs if l.startswith("libgit2")] and
   not [l for l in libs if l.startswith("libcurl")],
   "maintstat-full links libgit2 but loads libcurl only for the network",
   libs)


def execs(*args):
    """The programs `maintstat ARGS` runs, in order (strace)."""
    p = subprocess.run(["strace", "-f", "-qq", "-e", "trace=execve",
                        "-o", "/dev/stdout", MAINTSTAT] + list(args),
                       capture_output=True, text=True)
    return [os.path.basename(l.split('"')[1]) for l in p.stdout.splitlines()
            if "execve(" in l and "= 0" in l]


routes = [
    (["maintainers", "--tree", tree, "drivers/alpha/main.c"], None),
    (["sections", "--help"], None),
    (["entries", "--tree", tree], None),
    (["maintainers", "--repo", "x", "y"], "maintstat-full"),
    (["maintainers", "--activity", "y"], "maintstat-full"),
    (["maintainers", "--tree", tree, "--no-cache", "y"], "maintstat-full"),
    (["maintainers", "--tree", tree, "y", "--archive", "z"],
     "maintstat-full"),
    (["activity", "--help"], "maintstat-full"),
    (["--version"], "maintstat-full"),
    ([], "maintstat-full"),
    (["fetch", "--help"], "maintstat-full"),
    (["help", "fetch"], "maintstat-full"),
    (["coverage", "--check-urls", "--help"], "maintstat-full"),
    (["coverage", "--help"], "maintstat-full"),
    (["mail", "stats", "--help"], "maintstat-full"),
    (["mail", "stats", "--no-cache", os.path.join(tree, "MAINTAINERS")],
     "maintstat-full"),
    (["mail", "stats", "--no-cache", tree], "maintstat-full"),
    (["help", "mail"], "maintstat-full"),
]
ok(shutil.which("strace"), "strace is installed (scripts/deps.sh)")
for args, prog in routes:
    eq(execs(*args), ["maintstat"] + ([prog] if prog else []),
       f"maintstat {' '.join(args[:2])}... runs {prog or 'nothing else'}")
repo = os.path.join(work, "repo")
git = ["git", "-C", repo, "-c", "user.name=T", "-c", "user.email=t@example.org"]
subprocess.run(["git", "init", "-q", repo], check=True)
shutil.copytree(tree, repo, dirs_exist_ok=True)
subprocess.run(git + ["add", "-A"], check=True)
subprocess.run(git + ["commit", "-qm", "tree"], check=True)
want = mm("drivers/alpha/main.c").out
r = run("maintainers", "--repo", repo, "drivers/alpha/main.c")
eq((r.rc, r.out), (0, want), "--repo goes to maintstat-full: same answer")
r = run("maintainers", "--rep=" + repo, "drivers/alpha/main.c")
ok(r.rc == 2 and "unknown option '--rep=" in r.err,
   "--rep: no abbreviation, as get_maintainer.pl takes none", r.err)
r = run("maintainers", "--tree", tree, "--", "--repo")
ok(r.rc == 1 and "'--repo'" in r.err and "maintstat-full" not in r.err,
   "an argument after -- is a path, not an option", r.err)
r = run("activity", "--help")
ok(r.rc == 0 and "--since" in r.out, "the other commands run (their help)")
r = subprocess.run([full, "fetch", "--no-such-option"], capture_output=True,
                   text=True)
ok(r.returncode == 2 and "maintstat-net" not in r.stderr,
   "maintstat-full has fetch itself", r.stderr)
r = run("--version")
ok(r.rc == 0 and r.out.startswith("maintstat "), "--version", r.out)

for d in (tree, work):
    shutil.rmtree(d, ignore_errors=True)
done()
