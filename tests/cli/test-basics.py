#!/usr/bin/env python3
"""The CLI's contract: help, version, exit codes, errors on stderr."""
import os
import re
import subprocess
import sys
sys.path.insert(0, os.path.dirname(__file__))
from mstest import run, ok, eq, done, tmpdir  # noqa: E402

r = run()
eq(r.rc, 2, "no command is a usage error")
ok("Usage: maintstat" in r.err, "usage on stderr without a command", r.err)

r = run("--help")
eq(r.rc, 0, "--help exits 0")
ok("Usage: maintstat <command>" in r.out, "--help on stdout", r.out)
# Every command the table holds, as `maintstat help` lists them: a new
# command is covered by the checks below without editing this file.
COMMANDS = tuple(re.findall(r"^  ([a-z]+) ", r.out.split("\nExamples:")[0],
                            re.M))
for cmd in ("sections", "maintainers", "entries", "coverage", "mail",
            "activity", "urgent", "retire", "identities", "fetch", "store",
            "link", "review", "report"):
    ok(cmd in COMMANDS, f"--help lists {cmd}", r.out)
r2 = run("help")
eq((r2.rc, r2.out), (0, r.out), "'help' is --help")

r = run("--version")
eq(r.rc, 0, "--version exits 0")
ok(r.out.startswith("maintstat "), "--version prints the version", r.out)

r = run("no-such-command")
eq(r.rc, 2, "unknown command exits 2")
ok(r.err.startswith("maintstat: "), "error prefixed with maintstat:", r.err)
r = run("help", "no-such-command")
eq(r.rc, 2, "help of an unknown command exits 2")
ok("'no-such-command' is not a maintstat command" in r.err, "  named",
   r.err)
r = run("help", "activity", "urgent")
eq(r.rc, 2, "help of two commands is a usage error")

for cmd in COMMANDS:
    r = run(cmd, "--help")
    eq(r.rc, 0, f"{cmd} --help exits 0")
    ok("Usage: maintstat " + cmd in r.out, f"{cmd} --help shows usage", r.out)
    ok("--json" in r.out, f"{cmd} --help lists --json", r.out)
    r2 = run("help", cmd)
    eq((r2.rc, r2.out), (0, r.out), f"'help {cmd}' is '{cmd} --help'")
    r = run(cmd, "--no-such-option")
    eq(r.rc, 2, f"{cmd} with an unknown option exits 2")
    ok(r.err.startswith("maintstat: "), f"{cmd} usage error on stderr", r.err)

# Terminal escape injection: ESC, BEL, CR and C1 controls from the input
# (an RFC 2047 Subject, a MAINTAINERS title, a file name) never reach the
# terminal, in any command's text output or message.
T = tmpdir()
EVIL = "\x1b]0;pwned\x07\x1b[31mred\r\u009b2J"
mbox = os.path.join(T, "evil.mbox")
with open(mbox, "wb") as f:
    f.write(b"From mboxrd@z Thu Jan  1 00:00:00 1970\n"
            b"From: A <a@example.com>\n"
            b"Subject: =?utf-8?q?evil=1B]0;pwned=07=1B[31mred=0D=C2=9B2J?=\n"
            b"Message-ID: <evil@example.com>\n"
            b"Date: Mon, 2 Jan 2023 10:00:00 +0000\n\nbody\n")
tree = os.path.join(T, "tree")
os.makedirs(tree)
with open(os.path.join(tree, "MAINTAINERS"), "w") as f:
    f.write(f"EVIL {EVIL} DRIVER\nM:\tA <a@example.com>\nS:\tMaintained\n"
            "F:\tdrivers/\n\nTHE REST\nM:\tB <b@example.com>\nF:\t*\n")
os.makedirs(os.path.join(tree, "drivers"))
open(os.path.join(tree, "drivers", "x.c"), "w").close()
BAD = ("\x1b", "\x07", "\r", "\u009b")
# the same message as a patch to drivers/x.c, for `pending`
patch = os.path.join(T, "evil-patch.mbox")
with open(mbox, "rb") as f, open(patch, "wb") as g:
    g.write(f.read().replace(b"\nbody\n", b"\nbody\n---\ndiff --git "
                             b"a/drivers/x.c b/drivers/x.c\n--- a/drivers/"
                             b"x.c\n+++ b/drivers/x.c\n@@ -0,0 +1 @@\n+x\n"))


def clean(text):
    return not any(c in text for c in BAD)


for what, args in (("mail show", ("mail", "show", "--no-cache", mbox,
                                   "evil@example.com")),
                   ("mail show --json", ("mail", "show", "--json",
                                         "--no-cache", mbox,
                                         "evil@example.com")),
                   ("sections", ("sections", tree, "drivers/x.c")),
                   ("a kept result", ("pending", "--json", "--archive",
                                      patch, "--tree", tree, "--db",
                                      os.path.join(T, "db"))),
                   ("an error quoting a file name",
                    ("mail", "stats", os.path.join(T, "no\x1b[2Jfile")))):
    r = run(*args)
    ok(clean(r.out) and clean(r.err),
       f"{what}: no control character reaches the terminal",
       repr(r.out[:300] + r.err[:300]))
r = run("sections", tree, "drivers/x.c")
ok("EVIL ?]0;pwned??[31mred??2J DRIVER" in r.out,
   "  a control character is shown as '?'", repr(r.out))

# The manners of --help: 80 columns, no word twice in a row, every option
# taking a value says its default (or that it has none), an Examples
# section, and -q/--quiet everywhere.
HELPS = [c for c in COMMANDS if c not in ("mail",)] + \
    ["mail stats", "mail show"]
for cmd in HELPS + ["mail"]:
    r = run(*cmd.split(), "--help")
    wide = [l for l in r.out.splitlines() if len(l) > 80]
    eq(wide, [], f"{cmd} --help fits 80 columns")
    twice = re.findall(r"(?<![\w-])([\w()-]+)\s+\1(?![\w-])", r.out)
    eq(twice, [], f"{cmd} --help has no word twice in a row")
    ok("\nExamples:\n  maintstat " + cmd.split()[0] in r.out,
       f"{cmd} --help has examples", r.out)
for cmd in HELPS:
    r = run(*cmd.split(), "--help")
    ok("-q, --quiet" in r.out, f"{cmd} --help lists -q, --quiet")
    opts = re.split(r"\n(?=  -|      --)",
                    r.out.split("\nOptions:\n")[1].split("\n\n")[0])
    for o in opts:
        name = o.split()[0].rstrip(",")
        takes_value = re.match(r"\s*(-\w, )?--[\w-]+ [A-Z]", o)
        if takes_value:
            ok(re.search(r"default|required|repeatable|no default", o),
               f"{cmd} {name}: help says its default", o)
    r = run(*cmd.split(), "-q", "--help")
    eq(r.rc, 0, f"{cmd} accepts -q")
    ok("see above" not in r.out, f"{cmd} --help states each default inline")
# --since's default, per command, as docs/cli.md's table has it
for cmd, want in (("activity", "5 years"), ("identities", "5 years"),
                  ("retire", "5 years"), ("urgent", "1 year")):
    o = re.search(r"\n      --since WHEN(.*?)\n      --", run(cmd, "--help").out,
                  re.S).group(1)
    ok(f"(default: {want} before --until)" in " ".join(o.split()),
       f"{cmd} --since: default {want} before --until", o)

if os.path.exists("/dev/full"):
    with open("/dev/full", "w") as full:
        p = subprocess.run([os.environ.get("MAINTSTAT", "maintstat"),
                            "--help"], stdout=full, stderr=subprocess.PIPE)
    eq(p.returncode, 1, "a failed write to stdout is an error (exit 1)")
done()
